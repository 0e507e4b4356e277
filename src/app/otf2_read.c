/* app/otf2_read.c — reading an OTF2 archive through libotf2 (Debian's
 * libotf2-trace-dev): the definitions at open, each rank's events
 * streamed into a queue of decoded records (app/otf2_trace.h). */
#include "app/otf2_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>


/* Definitions are numbered densely from 0 by Score-P and by dfsim's
 * tracer; a reference above this is refused rather than allocated. */
#define REF_MAX (UINT32_C(1) << 24)

struct otf2_stream {
    struct otf2_trace *t;
    OTF2_EvtReader *er;
    uint32_t rank;
    struct otf2_rec *q; /* ring of cap (a power of two) records */
    uint32_t head, n, cap;
    bool eof;
    /* the MPI call being read (otf2_trace.h: OR_SKIP) */
    uint64_t pushed, taken;  /* records pushed, taken so far */
    uint64_t call_start;     /* `pushed` at its Enter */
    uint64_t call_enter;     /* its Enter's time */
    uint32_t depth;          /* MPI calls open */
    bool noop;               /* it holds nothing the replay acts on */
};

static void set_err(struct otf2_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_err(struct otf2_trace *t, const char *fmt, ...)
{
    if (t->err[0])
        return; /* the first error is the one to report */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof t->err, fmt, ap);
    va_end(ap);
}

/* Grow a dense table *arr of *n elements to hold index `ref`, zeroing the
 * new ones. 0, or -1 (reference too large, or out of memory). */
static int table_fit(void **arr, uint32_t *n, size_t size, uint64_t ref)
{
    if (ref >= REF_MAX)
        return -1;
    if (ref < *n)
        return 0;
    uint32_t want = (uint32_t)ref + 1;
    void *p = realloc(*arr, (size_t)want * size);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*n * size, 0, (size_t)(want - *n) * size);
    *arr = p;
    *n = want;
    return 0;
}

/* ---- global definitions ------------------------------------------------- */

/* What the definition callbacks gather beside the trace. */
struct defs {
    struct otf2_trace *t;
    /* groups, by reference */
    uint8_t *gtype;
    uint32_t *gsize;
    uint64_t **gmembers;
    uint32_t n_groups;
    uint32_t *comm_group; /* [t->n_comms]: each communicator's group */
    uint32_t *comm_name;
    bool failed;
};

static OTF2_CallbackCode def_clock(void *ud, uint64_t res, uint64_t off,
                                   uint64_t len, uint64_t real)
{
    struct defs *d = ud;
    (void)off, (void)len, (void)real;
    d->t->resolution = res;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self,
                                    const char *s)
{
    struct defs *d = ud;
    struct otf2_trace *t = d->t;
    uint32_t n = t->n_strings;
    if (table_fit((void **)&t->string, &n, sizeof *t->string, self) != 0)
        goto fail;
    t->n_strings = n;
    free(t->string[self]);
    t->string[self] = strdup(s ? s : "");
    if (!t->string[self])
        goto fail;
    return OTF2_CALLBACK_SUCCESS;
fail:
    d->failed = true;
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self,
                                    OTF2_StringRef name, OTF2_StringRef canon,
                                    OTF2_StringRef desc, OTF2_RegionRole role,
                                    OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin, uint32_t end)
{
    struct defs *d = ud;
    struct otf2_trace *t = d->t;
    (void)canon, (void)desc, (void)role, (void)flags, (void)file;
    (void)begin, (void)end;
    uint32_t n = t->n_regions, n2 = t->n_regions;
    if (table_fit((void **)&t->region_name, &n, sizeof *t->region_name,
                  self) != 0 ||
        table_fit((void **)&t->region_mpi, &n2, sizeof *t->region_mpi,
                  self) != 0) {
        d->failed = true;
        return OTF2_CALLBACK_INTERRUPT;
    }
    t->n_regions = n;
    t->region_name[self] = name;
    /* Score-P marks MPI calls with paradigm MPI; a tool that does not is
     * known by the name (resolved once the strings are read: below) */
    t->region_mpi[self] = paradigm == OTF2_PARADIGM_MPI ? 2 : 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_GroupRef self,
                                   OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n,
                                   const uint64_t *members)
{
    struct defs *d = ud;
    (void)name, (void)paradigm, (void)flags;
    uint32_t a = d->n_groups, b = d->n_groups, c = d->n_groups;
    if (table_fit((void **)&d->gtype, &a, sizeof *d->gtype, self) != 0 ||
        table_fit((void **)&d->gsize, &b, sizeof *d->gsize, self) != 0 ||
        table_fit((void **)&d->gmembers, &c, sizeof *d->gmembers, self) != 0)
        goto fail;
    d->n_groups = a;
    d->gtype[self] = (uint8_t)type;
    d->gsize[self] = n;
    free(d->gmembers[self]);
    d->gmembers[self] = malloc((n ? n : 1) * sizeof *members);
    if (!d->gmembers[self])
        goto fail;
    if (n)
        memcpy(d->gmembers[self], members, n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
fail:
    d->failed = true;
    return OTF2_CALLBACK_INTERRUPT;
}

static OTF2_CallbackCode def_comm(void *ud, OTF2_CommRef self,
                                  OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    struct defs *d = ud;
    struct otf2_trace *t = d->t;
    (void)parent, (void)flags;
    uint32_t a = t->n_comms, b = t->n_comms, c = t->n_comms;
    if (table_fit((void **)&t->comm, &a, sizeof *t->comm, self) != 0 ||
        table_fit((void **)&d->comm_group, &b, sizeof *d->comm_group,
                  self) != 0 ||
        table_fit((void **)&d->comm_name, &c, sizeof *d->comm_name,
                  self) != 0) {
        d->failed = true;
        return OTF2_CALLBACK_INTERRUPT;
    }
    t->n_comms = a;
    t->comm[self].defined = true;
    d->comm_group[self] = group;
    d->comm_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_win(void *ud, OTF2_RmaWinRef self,
                                 OTF2_StringRef name, OTF2_CommRef comm,
                                 OTF2_RmaWinFlag flags)
{
    struct defs *d = ud;
    struct otf2_trace *t = d->t;
    (void)name, (void)flags;
    uint32_t n = t->n_wins, old = t->n_wins;
    if (table_fit((void **)&t->win_comm, &n, sizeof *t->win_comm, self)) {
        d->failed = true;
        return OTF2_CALLBACK_INTERRUPT;
    }
    for (uint32_t i = old; i < n; i++)
        t->win_comm[i] = UINT32_MAX; /* not defined */
    t->n_wins = n;
    t->win_comm[self] = comm;
    return OTF2_CALLBACK_SUCCESS;
}

static int read_global_defs(struct otf2_trace *t, struct defs *d)
{
    OTF2_Reader *rd = t->reader;
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_win);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, d);
    uint64_t n = 0;
    OTF2_ErrorCode e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    return e == OTF2_SUCCESS && !d->failed ? 0 : -1;
}

/* ---- what the definitions mean ------------------------------------------ */

/* The world: the COMM_LOCATIONS group; rank i is its i-th member. */
static int find_world(struct otf2_trace *t, const struct defs *d, char *err,
                      size_t cap)
{
    uint32_t w = UINT32_MAX;
    for (uint32_t g = 0; g < d->n_groups; g++)
        if (d->gmembers[g] && d->gtype[g] == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
            w = g;
            break; /* one paradigm (MPI) per archive here */
        }
    if (w == UINT32_MAX || d->gsize[w] == 0) {
        snprintf(err, cap, "%s: no MPI ranks defined (no group of type "
                 "COMM_LOCATIONS); expected the trace of an MPI program",
                 t->path);
        return -1;
    }
    t->nranks = d->gsize[w];
    t->location = malloc(t->nranks * sizeof *t->location);
    if (!t->location) {
        snprintf(err, cap, "%s: out of memory", t->path);
        return -1;
    }
    memcpy(t->location, d->gmembers[w], t->nranks * sizeof *t->location);
    return 0;
}

/* Each communicator's ranks as world ranks. */
static int resolve_comms(struct otf2_trace *t, const struct defs *d,
                         char *err, size_t cap)
{
    for (uint32_t c = 0; c < t->n_comms; c++) {
        struct otf2_comm *k = &t->comm[c];
        if (!k->defined)
            continue;
        uint32_t g = d->comm_group[c];
        k->name = d->comm_name[c] < t->n_strings && t->string[d->comm_name[c]]
                      ? t->string[d->comm_name[c]]
                      : "?";
        if (g >= d->n_groups || !d->gmembers[g]) {
            snprintf(err, cap, "%s: communicator %u (\"%s\") names group %u, "
                     "which the trace never defines", t->path, c, k->name, g);
            return -1;
        }
        k->index = t->n_comm_defined++;
        bool self = d->gtype[g] == OTF2_GROUP_TYPE_COMM_SELF;
        k->size = self ? 1 : d->gsize[g];
        k->member = malloc((k->size ? k->size : 1) * sizeof *k->member);
        if (!k->member) {
            snprintf(err, cap, "%s: out of memory", t->path);
            return -1;
        }
        k->world = !self && k->size == t->nranks;
        for (uint32_t i = 0; i < k->size && !self; i++) {
            uint64_t m = d->gmembers[g][i];
            if (m >= t->nranks) {
                snprintf(err, cap, "%s: communicator %u (\"%s\") has member "
                         "%" PRIu64 "; the trace has %u ranks", t->path, c,
                         k->name, m, t->nranks);
                return -1;
            }
            k->member[i] = (uint32_t)m;
            k->world = k->world && m == i;
        }
        if (self)
            k->member[0] = UINT32_MAX; /* the calling rank: otf2.c */
    }
    for (uint32_t r = 0; r < t->n_regions; r++) {
        uint32_t s = t->region_name[r];
        const char *nm = s < t->n_strings ? t->string[s] : NULL;
        if (t->region_mpi[r] == 1)
            t->region_mpi[r] = nm && strncmp(nm, "MPI_", 4) == 0;
        else if (t->region_mpi[r] == 2)
            t->region_mpi[r] = 1;
    }
    if (t->resolution == 0) {
        snprintf(err, cap, "%s: no clock properties (timer resolution); "
                 "expected an OTF2 archive's global definitions", t->path);
        return -1;
    }
    return 0;
}

static void defs_free(struct defs *d)
{
    for (uint32_t g = 0; g < d->n_groups; g++)
        free(d->gmembers[g]);
    free(d->gmembers);
    free(d->gtype);
    free(d->gsize);
    free(d->comm_group);
    free(d->comm_name);
}

/* ---- events ------------------------------------------------------------- */

static struct otf2_rec *push(struct otf2_stream *s, uint8_t kind,
                             OTF2_TimeStamp time, uint64_t pos)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 64;
        struct otf2_rec *q = malloc(cap * sizeof *q);
        if (!q) {
            set_err(s->t, "%s: out of memory reading rank %u's events",
                    s->t->path, s->rank);
            return NULL;
        }
        for (uint32_t i = 0; i < s->n; i++)
            q[i] = s->q[(s->head + i) & (s->cap - 1)];
        free(s->q);
        s->q = q;
        s->head = 0;
        s->cap = cap;
    }
    struct otf2_rec *r = &s->q[(s->head + s->n++) & (s->cap - 1)];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->time = time;
    r->pos = pos;
    s->pushed++;
    if (s->n > s->t->lookahead_max)
        s->t->lookahead_max = s->n;
    if (kind != OR_ENTER && kind != OR_LEAVE && kind != OR_TEST &&
        kind != OR_COLL_BEGIN)
        s->noop = false;
    return r;
}

/* An MPI call that ended at `time` held only tests that completed
 * nothing: if it lies ahead of what the replay is working on (its Enter
 * not at the queue's head), its records give way to one OR_SKIP of its
 * duration, merged with an OR_SKIP just before it. A receive polled by
 * a million MPI_Test calls before it completes then costs the look-ahead
 * one record, not three million; the replay is the same (no-op calls
 * take no simulated time; the compute around them is what it was). */
static void collapse(struct otf2_stream *s, OTF2_TimeStamp time, uint64_t pos)
{
    if (!s->noop || s->call_start < s->taken + 1)
        return; /* acted on, or at the head (the replay may be on it) */
    uint32_t at = (uint32_t)(s->call_start - s->taken); /* its Enter */
    uint64_t dur = time - s->call_enter;
    s->pushed -= s->n - at;
    s->n = at;
    struct otf2_rec *prev = &s->q[(s->head + at - 1) & (s->cap - 1)];
    if (at >= 2 && prev->kind == OR_SKIP) { /* not the head: see above */
        prev->bytes += dur;
        prev->time = time;
        return;
    }
    struct otf2_rec *r = push(s, OR_SKIP, time, pos);
    if (r)
        r->bytes = dur;
}

#define EVT_ARGS                                                           \
    OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,     \
        OTF2_AttributeList *attrs
#define PUSH(kind)                                                         \
    struct otf2_rec *r = push(ud, kind, time, pos);                        \
    (void)loc, (void)attrs;                                                \
    if (!r)                                                                \
        return OTF2_CALLBACK_INTERRUPT

static OTF2_CallbackCode ev_enter(EVT_ARGS, OTF2_RegionRef region)
{
    struct otf2_stream *s = ud;
    bool first = otf2_region_is_mpi(s->t, region) && s->depth++ == 0;
    PUSH(OR_ENTER);
    r->a = region;
    if (first) {
        s->call_start = s->pushed - 1;
        s->call_enter = time;
        s->noop = true;
    }
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_leave(EVT_ARGS, OTF2_RegionRef region)
{
    struct otf2_stream *s = ud;
    PUSH(OR_LEAVE);
    r->a = region;
    if (otf2_region_is_mpi(s->t, region) && s->depth && --s->depth == 0)
        collapse(s, time, pos);
    return OTF2_CALLBACK_SUCCESS;
}
static void msg(struct otf2_rec *r, uint32_t peer, OTF2_CommRef comm,
                uint32_t tag, uint64_t len)
{
    r->a = peer;
    r->comm = comm;
    r->tag = tag;
    r->bytes = len;
}
static OTF2_CallbackCode ev_send(EVT_ARGS, uint32_t to, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    PUSH(OR_SEND);
    msg(r, to, comm, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_recv(EVT_ARGS, uint32_t from, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    PUSH(OR_RECV);
    msg(r, from, comm, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_isend(EVT_ARGS, uint32_t to, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    PUSH(OR_ISEND);
    msg(r, to, comm, tag, len);
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_irecv(EVT_ARGS, uint32_t from, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    PUSH(OR_IRECV);
    msg(r, from, comm, tag, len);
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}
#define REQ_EVENT(fn, kind)                                                \
    static OTF2_CallbackCode fn(EVT_ARGS, uint64_t req)                    \
    {                                                                      \
        PUSH(kind);                                                        \
        r->req = req;                                                      \
        return OTF2_CALLBACK_SUCCESS;                                      \
    }
REQ_EVENT(ev_isend_done, OR_ISEND_DONE)
REQ_EVENT(ev_irecv_req, OR_IRECV_REQ)
REQ_EVENT(ev_test, OR_TEST)
REQ_EVENT(ev_cancel, OR_CANCEL)

static OTF2_CallbackCode ev_coll_begin(EVT_ARGS)
{
    PUSH(OR_COLL_BEGIN);
    return OTF2_CALLBACK_SUCCESS;
}
/* A collective's end (blocking or not): its operation and sizes. */
static void coll(struct otf2_rec *r, OTF2_CollectiveOp op, OTF2_CommRef comm,
                 uint32_t root, uint64_t sent, uint64_t received)
{
    r->op = op;
    r->comm = comm;
    r->a = root;
    r->bytes = sent;
    r->bytes2 = received;
}
static OTF2_CallbackCode ev_coll_end(EVT_ARGS, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t received)
{
    PUSH(OR_COLL_END);
    coll(r, op, comm, root, sent, received);
    return OTF2_CALLBACK_SUCCESS;
}

/* Non-blocking collectives: the call, then its completion. */
static OTF2_CallbackCode ev_nbc_req(EVT_ARGS, uint64_t req)
{
    PUSH(OR_NBC_REQ);
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_nbc_done(EVT_ARGS, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t received,
                                     uint64_t req)
{
    PUSH(OR_NBC_DONE);
    coll(r, op, comm, root, sent, received);
    r->req = req;
    return OTF2_CALLBACK_SUCCESS;
}

/* One-sided: the window's communicator in `comm` (UINT32_MAX: a window
 * the definitions do not give). */
static uint32_t win_comm(const struct otf2_stream *s, OTF2_RmaWinRef w)
{
    return w < s->t->n_wins ? s->t->win_comm[w] : UINT32_MAX;
}
/* A one-sided transfer of `bytes` to or from `remote` of window w. */
static void rma(struct otf2_rec *r, const struct otf2_stream *s,
                OTF2_RmaWinRef w, uint32_t remote, uint64_t bytes)
{
    r->a = remote;
    r->comm = win_comm(s, w);
    r->bytes = bytes;
}
static OTF2_CallbackCode ev_put(EVT_ARGS, OTF2_RmaWinRef w, uint32_t remote,
                                uint64_t bytes, uint64_t id)
{
    PUSH(OR_RMA_PUT);
    (void)id;
    rma(r, ud, w, remote, bytes);
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_get(EVT_ARGS, OTF2_RmaWinRef w, uint32_t remote,
                                uint64_t bytes, uint64_t id)
{
    PUSH(OR_RMA_GET);
    (void)id;
    rma(r, ud, w, remote, bytes);
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_atomic(EVT_ARGS, OTF2_RmaWinRef w,
                                   uint32_t remote, OTF2_RmaAtomicType y,
                                   uint64_t sent, uint64_t received,
                                   uint64_t id)
{
    PUSH(OR_RMA_ATOMIC);
    (void)y, (void)id;
    rma(r, ud, w, remote, sent);
    r->bytes2 = received;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_rma_coll_end(EVT_ARGS, OTF2_CollectiveOp op,
                                         OTF2_RmaSyncLevel level,
                                         OTF2_RmaWinRef w, uint32_t root,
                                         uint64_t sent, uint64_t received)
{
    PUSH(OR_RMA_FENCE);
    (void)level, (void)root, (void)sent, (void)received;
    r->op = op;
    r->comm = win_comm(ud, w);
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_release(EVT_ARGS, OTF2_RmaWinRef w,
                                    uint32_t remote, uint64_t lock)
{
    PUSH(OR_RMA_FLUSH);
    (void)w, (void)remote, (void)lock;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_sync(EVT_ARGS, OTF2_RmaWinRef w, uint32_t remote,
                                 OTF2_RmaSyncType type)
{
    PUSH(OR_RMA_FLUSH);
    (void)w, (void)remote, (void)type;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_complete_remote(EVT_ARGS, OTF2_RmaWinRef w,
                                            uint64_t id)
{
    PUSH(OR_RMA_FLUSH);
    (void)w, (void)id;
    return OTF2_CALLBACK_SUCCESS;
}
static OTF2_CallbackCode ev_group_sync(EVT_ARGS, OTF2_RmaSyncLevel level,
                                       OTF2_RmaWinRef w, OTF2_GroupRef g)
{
    PUSH(OR_RMA_FLUSH);
    (void)level, (void)w, (void)g;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *evt_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb)
        return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_done);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_req);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, ev_test);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancel);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, ev_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, ev_get);
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, ev_atomic);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, ev_rma_coll_end);
    OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, ev_release);
    OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, ev_sync);
    OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, ev_group_sync);
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(
        cb, ev_complete_remote);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
        cb, ev_nbc_req);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
        cb, ev_nbc_done);
    return cb;
}

/* Every rank's local definitions (their mapping tables, which libotf2
 * then applies to the events) and its event reader. */
static int open_streams(struct otf2_trace *t, char *err, size_t cap)
{
    OTF2_Reader *rd = t->reader;
    t->stream = calloc(t->nranks, sizeof *t->stream);
    if (!t->stream)
        goto oom;
    for (uint32_t r = 0; r < t->nranks; r++)
        if (OTF2_Reader_SelectLocation(rd, t->location[r]) != OTF2_SUCCESS)
            goto bad;
    bool defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
    if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS)
        goto bad;
    for (uint32_t r = 0; r < t->nranks && defs; r++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, t->location[r]);
        if (!dr)
            continue; /* no local definitions: no mapping */
        uint64_t n = 0;
        OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
        OTF2_Reader_CloseDefReader(rd, dr);
    }
    if (defs)
        OTF2_Reader_CloseDefFiles(rd);
    OTF2_EvtReaderCallbacks *cb = evt_callbacks();
    if (!cb)
        goto oom;
    t->callbacks = cb;
    for (uint32_t r = 0; r < t->nranks; r++) {
        struct otf2_stream *s = &t->stream[r];
        s->t = t;
        s->rank = r;
        s->er = OTF2_Reader_GetEvtReader(rd, t->location[r]);
        if (!s->er) {
            snprintf(err, cap, "%s: no events for rank %u (location %" PRIu64
                     ")", t->path, r, t->location[r]);
            return -1;
        }
        OTF2_Reader_RegisterEvtCallbacks(rd, s->er, cb, s);
    }
    return 0;
bad:
    snprintf(err, cap, "%s: cannot open the event files of its %u ranks "
             "(a truncated or incomplete archive?)", t->path, t->nranks);
    return -1;
oom:
    snprintf(err, cap, "%s: out of memory", t->path);
    return -1;
}

/* libotf2 prints its errors on stderr by default; dfsim reports its own
 * sentence (naming the file, rank and event) and keeps libotf2's last
 * message for it. */
static char otf2_last[200];
static OTF2_ErrorCode on_otf2_error(void *ud, const char *file, uint64_t line,
                                    const char *fn, OTF2_ErrorCode code,
                                    const char *fmt, va_list va)
{
    (void)ud, (void)file, (void)line, (void)fn;
    vsnprintf(otf2_last, sizeof otf2_last, fmt, va);
    return code;
}

int otf2_trace_open(struct otf2_trace *t, const char *path, char *err,
                    size_t cap)
{
    memset(t, 0, sizeof *t);
    OTF2_Error_RegisterCallback(on_otf2_error, NULL);
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, cap, "%s: cannot read: %s; expected an OTF2 archive's "
                 "anchor file (DIR/traces.otf2)", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, cap, "%s: not a regular file; expected an OTF2 "
                 "archive's anchor file (DIR/traces.otf2)", path);
        return -1;
    }
    t->path = strdup(path);
    if (!t->path) {
        snprintf(err, cap, "%s: out of memory", path);
        return -1;
    }
    struct defs d = { .t = t };
    t->reader = OTF2_Reader_Open(path);
    int rc = -1;
    if (!t->reader ||
        OTF2_Reader_SetSerialCollectiveCallbacks(t->reader) != OTF2_SUCCESS) {
        snprintf(err, cap, "%s: not an OTF2 archive (libotf2 cannot open "
                 "it)", path);
    } else if (read_global_defs(t, &d) != 0) {
        snprintf(err, cap, "%s: cannot read the global definitions (a "
                 "truncated or corrupted archive?)", path);
    } else if (find_world(t, &d, err, cap) == 0 &&
               resolve_comms(t, &d, err, cap) == 0 &&
               open_streams(t, err, cap) == 0) {
        rc = 0;
    }
    defs_free(&d);
    if (rc != 0)
        otf2_trace_close(t);
    return rc;
}

void otf2_trace_close(struct otf2_trace *t)
{
    if (t->reader) {
        for (uint32_t r = 0; t->stream && r < t->nranks; r++)
            if (t->stream[r].er)
                OTF2_Reader_CloseEvtReader(t->reader, t->stream[r].er);
        OTF2_Reader_Close(t->reader);
    }
    if (t->callbacks)
        OTF2_EvtReaderCallbacks_Delete(t->callbacks);
    for (uint32_t r = 0; t->stream && r < t->nranks; r++)
        free(t->stream[r].q);
    free(t->stream);
    for (uint32_t i = 0; i < t->n_strings; i++)
        free(t->string[i]);
    free(t->string);
    for (uint32_t c = 0; c < t->n_comms; c++)
        free(t->comm[c].member);
    free(t->comm);
    free(t->region_name);
    free(t->region_mpi);
    free(t->win_comm);
    free(t->location);
    free(t->path);
    memset(t, 0, sizeof *t);
}

/* One more event of rank r's: 0, or -1 at its end or on a read error
 * (then t->err says which). It may push a record, none (a record the
 * replay passes over), or collapse calls (collapse). */
static int read_one(struct otf2_trace *t, uint32_t r)
{
    struct otf2_stream *s = &t->stream[r];
    if (s->eof || t->err[0])
        return -1;
    uint64_t got = 0;
    OTF2_ErrorCode e = OTF2_EvtReader_ReadEvents(s->er, 1, &got);
    if (e != OTF2_SUCCESS && e != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
        set_err(t, "%s: rank %u: cannot read its events (%s: %s; a "
                "truncated or corrupted archive?)", t->path, r,
                OTF2_Error_GetName(e), otf2_last);
        s->eof = true;
        return -1;
    }
    if (t->err[0])
        return -1;
    if (got == 0) {
        s->eof = true;
        return -1;
    }
    return 0;
}

const struct otf2_rec *otf2_peek(struct otf2_trace *t, uint32_t r,
                                 uint32_t i)
{
    struct otf2_stream *s = &t->stream[r];
    while (s->n <= i)
        if (read_one(t, r) != 0)
            return NULL;
    return &s->q[(s->head + i) & (s->cap - 1)];
}

const struct otf2_rec *otf2_ahead(struct otf2_trace *t, uint32_t r,
                                  uint32_t *i)
{
    struct otf2_stream *s = &t->stream[r];
    while (*i >= s->n) {
        /* calls collapsed behind *i: the next record read lands at n */
        if (*i > s->n)
            *i = s->n;
        if (read_one(t, r) != 0)
            return NULL;
    }
    return &s->q[(s->head + (*i)++) & (s->cap - 1)];
}

int otf2_rewind(struct otf2_trace *t, uint32_t r)
{
    struct otf2_stream *s = &t->stream[r];
    OTF2_Reader *rd = t->reader;
    if (s->er)
        OTF2_Reader_CloseEvtReader(rd, s->er);
    s->er = OTF2_Reader_GetEvtReader(rd, t->location[r]);
    if (!s->er) {
        set_err(t, "%s: rank %u: cannot read its events again (%s)",
                t->path, r, otf2_last);
        return -1;
    }
    OTF2_Reader_RegisterEvtCallbacks(rd, s->er, t->callbacks, s);
    s->head = s->n = 0;
    s->eof = false;
    s->depth = 0;
    s->noop = false;
    s->pushed = s->taken = 0;
    return 0;
}

void otf2_take(struct otf2_trace *t, uint32_t r)
{
    struct otf2_stream *s = &t->stream[r];
    if (s->n == 0)
        return;
    s->head = (s->head + 1) & (s->cap - 1);
    s->n--;
    s->taken++;
}

const char *otf2_region_name(const struct otf2_trace *t, uint32_t region)
{
    if (region >= t->n_regions)
        return "?";
    uint32_t s = t->region_name[region];
    return s < t->n_strings && t->string[s] ? t->string[s] : "?";
}

bool otf2_region_is_mpi(const struct otf2_trace *t, uint32_t region)
{
    return region < t->n_regions && t->region_mpi[region];
}

const struct otf2_comm *otf2_comm_of(const struct otf2_trace *t,
                                     uint32_t ref)
{
    if (ref >= t->n_comms || !t->comm[ref].defined)
        return NULL;
    return &t->comm[ref];
}

uint64_t otf2_ticks_ps(const struct otf2_trace *t, uint64_t ticks)
{
    /* exact when the resolution divides 10^12 (ns, us clocks), else
     * through a long double */
    const uint64_t ps = UINT64_C(1000000000000);
    if (ps % t->resolution == 0)
        return ticks * (ps / t->resolution);
    return (uint64_t)((long double)ticks * (long double)ps /
                      (long double)t->resolution);
}
