/* app/otf2.c — the otf2 workload: a trace's MPI calls as the layer's
 * operations (app/otf2.h says what becomes what). Collectives other than
 * the layer's own are in otf2_coll.c. */
#include "app/otf2.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "app/otf2_internal.h"
#include "core/config.h"

void otf2_defaults(struct otf2_params *p)
{
    memset(p, 0, sizeof *p);
    p->compute_scale = 1.0;
    p->iterations = 1;
}

/* ---- handles: a trace's request ids as the layer's small numbers -------- */

/* The handle of request `req` (a new one), or 0 out of memory. */
static uint32_t handle_new(struct otf2_rank *k, uint64_t req)
{
    uint32_t h;
    if (k->n_free)
        h = k->free_h[--k->n_free];
    else
        h = ++k->n_handles;
    if (k->n_open == k->open_cap) {
        uint32_t cap = k->open_cap ? 2 * k->open_cap : 16;
        struct otf2_open *o = realloc(k->open, cap * sizeof *o);
        uint32_t *f = realloc(k->free_h, cap * sizeof *f);
        if (o)
            k->open = o;
        if (f)
            k->free_h = f;
        if (!o || !f)
            return 0;
        k->open_cap = cap;
    }
    k->open[k->n_open++] = (struct otf2_open){ req, h };
    return h;
}

/* The handle of open request `req`, released (0: none open). */
static uint32_t handle_take(struct otf2_rank *k, uint64_t req)
{
    for (uint32_t i = k->n_open; i-- > 0;)
        if (k->open[i].req == req) {
            uint32_t h = k->open[i].h;
            k->open[i] = k->open[--k->n_open];
            k->free_h[k->n_free++] = h;
            return h;
        }
    return 0;
}

/* ---- the operations ------------------------------------------------------ */

int otf2_emit(struct otf2_replay *p, struct otf2_rank *k, uint8_t code,
              uint32_t peer, uint32_t tag, uint64_t bytes, uint64_t arg,
              uint32_t req)
{
    (void)p;
    if (k->n_pend == k->pend_cap) {
        uint32_t cap = k->pend_cap ? 2 * k->pend_cap : 64;
        struct dmpi_op *o = realloc(k->pend, cap * sizeof *o);
        if (!o)
            return -1;
        k->pend = o;
        k->pend_cap = cap;
    }
    k->pend[k->n_pend++] = (struct dmpi_op){ .code = code, .peer = peer,
                                             .tag = tag, .bytes = bytes,
                                             .arg = arg, .req = req };
    return 0;
}

int otf2_fail(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
              const char *what)
{
    if (!p->why[0])
        snprintf(p->why, sizeof p->why, "%s: rank %u, event %" PRIu64 ": %s",
                 p->t.path, r, e ? e->pos : 0, what);
    return -1;
}

/* A message's peer as a job rank and its tag as the layer's: the
 * communicator's number in the tag's high bits, so that messages of two
 * communicators never match each other (MPI's contexts). 0 or -1. */
static int endpoint(struct otf2_replay *p, uint32_t r,
                    const struct otf2_rec *e, uint32_t *peer, uint32_t *tag)
{
    char why[160];
    const struct otf2_comm *c = otf2_comm_of(&p->t, e->comm);
    if (!c) {
        snprintf(why, sizeof why, "communicator %u was never defined",
                 e->comm);
        return otf2_fail(p, r, e, why);
    }
    if (e->a >= c->size) {
        snprintf(why, sizeof why, "rank %u of communicator \"%s\", which "
                 "has %u", e->a, c->name, c->size);
        return otf2_fail(p, r, e, why);
    }
    if (e->tag >= OTF2_TAG_LIMIT || c->index >= OTF2_COMM_LIMIT) {
        snprintf(why, sizeof why, "tag %u on communicator %u: the replay "
                 "takes tags below %u on at most %u communicators", e->tag,
                 c->index, OTF2_TAG_LIMIT, OTF2_COMM_LIMIT);
        return otf2_fail(p, r, e, why);
    }
    *peer = c->member[0] == UINT32_MAX ? r : c->member[e->a];
    *tag = c->index << OTF2_TAG_BITS | e->tag;
    return 0;
}

static uint64_t at_least_1(uint64_t b) { return b ? b : 1; }

static int p2p(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
               uint8_t code, uint32_t handle)
{
    uint32_t peer, tag;
    if (endpoint(p, r, e, &peer, &tag) != 0)
        return -1;
    return otf2_emit(p, &p->rank[r], code, peer, tag, at_least_1(e->bytes),
                     0, handle);
}

/* MPI_Irecv (its request record at index `at` of the rank's queue): the
 * completion that says what it received, found ahead. The receive is
 * posted with it; one cancelled, or never completed before the trace
 * ends, receives nothing and is not posted. */
static int irecv(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
                 uint32_t at)
{
    /* a copy: reading ahead may move the rank's queue */
    const struct otf2_rec posted = *e;
    uint64_t req = posted.req;
    e = &posted;
    for (uint32_t i = at + 1;;) {
        const struct otf2_rec *c = otf2_ahead(&p->t, r, &i);
        if (!c)
            return p->t.err[0] ? otf2_fail(p, r, NULL, p->t.err) : 0;
        if (c->req != req)
            continue;
        if (c->kind == OR_CANCEL)
            return 0;
        if (c->kind != OR_IRECV)
            continue;
        uint32_t h = handle_new(&p->rank[r], req);
        if (!h)
            return otf2_fail(p, r, e, "out of memory");
        return p2p(p, r, c, DMPI_IRECV, h);
    }
}

static int complete(struct otf2_replay *p, uint32_t r,
                    const struct otf2_rec *e, bool more)
{
    uint32_t h = handle_take(&p->rank[r], e->req);
    if (!h) {
        char why[96];
        snprintf(why, sizeof why, "completes request %" PRIu64 ", which it "
                 "never started", e->req);
        return otf2_fail(p, r, e, why);
    }
    return otf2_emit(p, &p->rank[r], DMPI_WAIT, 0, 0, 0, more, h);
}

/* MPI_Sendrecv: both posted, then both waited for (a blocking send then
 * a blocking receive would deadlock a ring). */
static int sendrecv(struct otf2_replay *p, uint32_t r,
                    const struct otf2_rec *s, const struct otf2_rec *v)
{
    struct otf2_rank *k = &p->rank[r];
    uint32_t hr = handle_new(k, UINT64_MAX), hs = handle_new(k, UINT64_MAX - 1);
    if (!hr || !hs)
        return otf2_fail(p, r, s, "out of memory");
    if (p2p(p, r, v, DMPI_IRECV, hr) != 0 || p2p(p, r, s, DMPI_ISEND, hs) != 0)
        return -1;
    handle_take(k, UINT64_MAX);
    handle_take(k, UINT64_MAX - 1);
    if (otf2_emit(p, k, DMPI_WAIT, 0, 0, 0, 0, hr) != 0 ||
        otf2_emit(p, k, DMPI_WAIT, 0, 0, 0, 0, hs) != 0)
        return otf2_fail(p, r, s, "out of memory");
    return 0;
}

/* A non-blocking collective (its call's record at index `at`): run where
 * it was called, with what its completion, read ahead, records. MPI has
 * every rank call a communicator's collectives in one order, blocking or
 * not; completions may come in any order (MPI_Waitany), so the call is
 * the place where every rank agrees. The overlap of the collective with
 * what the rank does until its wait is not modelled (the layer's
 * collectives block). */
static int nbc(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
               uint32_t at)
{
    const struct otf2_rec call = *e; /* reading ahead may move the queue */
    for (uint32_t i = at + 1;;) {
        const struct otf2_rec *c = otf2_ahead(&p->t, r, &i);
        if (!c) {
            if (p->t.err[0])
                return otf2_fail(p, r, NULL, p->t.err);
            return otf2_fail(p, r, &call, "a non-blocking collective that "
                             "never completes (its NonBlockingCollective"
                             "Complete is missing)");
        }
        if (c->kind == OR_NBC_DONE && c->req == call.req) {
            struct otf2_rec done = *c;
            done.pos = call.pos;
            return otf2_collective(p, r, &done);
        }
    }
}

/* The window of one-sided record e, and the communicator it names:
 * NULL (the replay failed) if the trace does not define it. */
static const struct otf2_comm *window(struct otf2_replay *p, uint32_t r,
                                      const struct otf2_rec *e)
{
    const struct otf2_comm *c =
        e->comm == UINT32_MAX ? NULL : otf2_comm_of(&p->t, e->comm);
    if (!c)
        otf2_fail(p, r, e, "a one-sided call on a window the trace never "
                           "defines (or whose communicator it never "
                           "defines)");
    return c;
}

/* MPI_Put, MPI_Get, MPI_Accumulate (its bytes out as a PUT, what it
 * fetches as a GET): into the layer's one-sided operations, complete at
 * the next flush (mpi.h). */
static int one_sided(struct otf2_replay *p, uint32_t r,
                     const struct otf2_rec *e)
{
    const struct otf2_comm *c = window(p, r, e);
    if (!c)
        return -1;
    if (e->a >= c->size) {
        char why[160];
        snprintf(why, sizeof why, "a one-sided call to rank %u of a window "
                 "of %u ranks", e->a, c->size);
        return otf2_fail(p, r, e, why);
    }
    uint32_t peer = c->member[0] == UINT32_MAX ? r : c->member[e->a];
    struct otf2_rank *k = &p->rank[r];
    int rc = 0;
    if (e->kind == OR_RMA_PUT || (e->kind == OR_RMA_ATOMIC && e->bytes))
        rc |= otf2_emit(p, k, DMPI_PUT, peer, 0, at_least_1(e->bytes), 0, 0);
    if (e->kind == OR_RMA_GET)
        rc |= otf2_emit(p, k, DMPI_GET, peer, 0, at_least_1(e->bytes), 0, 0);
    if (e->kind == OR_RMA_ATOMIC && e->bytes2)
        rc |= otf2_emit(p, k, DMPI_GET, peer, 0, e->bytes2, 0, 0);
    return rc ? otf2_fail(p, r, e, "out of memory") : 0;
}

/* MPI_Win_fence (and a window's creation and freeing, which Score-P
 * records the same way): the rank's one-sided operations complete, then
 * the window's ranks synchronise (its collective: a barrier for a fence). */
static int fence(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e)
{
    if (!window(p, r, e))
        return -1;
    if (otf2_emit(p, &p->rank[r], DMPI_FLUSH, 0, 0, 0, 0, 0) != 0)
        return otf2_fail(p, r, e, "out of memory");
    struct otf2_rec c = *e;
    c.a = OTF2_UNDEFINED_UINT32;
    c.bytes = c.bytes2 = 0;
    return otf2_collective(p, r, &c);
}

/* One record of an MPI call (index `at` in the rank's queue); `more`:
 * a completion that is not the call's last (MPI_Waitall's requests are
 * waited for together). */
static int record(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
                  uint32_t at, bool more)
{
    switch ((enum otf2_rec_kind)e->kind) {
    case OR_SEND:
        return p2p(p, r, e, DMPI_SEND, 0);
    case OR_RECV:
        return p2p(p, r, e, DMPI_RECV, 0);
    case OR_ISEND: {
        uint32_t h = handle_new(&p->rank[r], e->req);
        return h ? p2p(p, r, e, DMPI_ISEND, h)
                 : otf2_fail(p, r, e, "out of memory");
    }
    case OR_IRECV_REQ:
        return irecv(p, r, e, at);
    case OR_ISEND_DONE:
    case OR_IRECV:
        return complete(p, r, e, more);
    case OR_COLL_END:
        return otf2_collective(p, r, e);
    case OR_NBC_REQ:
        return nbc(p, r, e, at);
    case OR_RMA_PUT:
    case OR_RMA_GET:
    case OR_RMA_ATOMIC:
        return one_sided(p, r, e);
    case OR_RMA_FENCE:
        return fence(p, r, e);
    case OR_RMA_FLUSH:
        return otf2_emit(p, &p->rank[r], DMPI_FLUSH, 0, 0, 0, 0, 0)
                   ? otf2_fail(p, r, e, "out of memory") : 0;
    default: /* tests that completed nothing, cancels, collective begins,
                non-blocking collectives' completions (run at their call) */
        return 0;
    }
}

/* The MPI call that starts with the Enter at the head of rank r's queue:
 * its records up to its Leave (MPI calls inside it, as a library's own,
 * belong to it), as operations. Returns how many records it spans
 * (Enter and Leave included), or -1. */
static int64_t call(struct otf2_replay *p, uint32_t r)
{
    struct otf2_trace *t = &p->t;
    uint32_t depth = 0, n_send = 0, n_recv = 0, end = 0, last_done = 0;
    for (uint32_t i = 0;; i++) {
        const struct otf2_rec *e = otf2_peek(t, r, i);
        if (!e) {
            if (t->err[0])
                return otf2_fail(p, r, NULL, t->err);
            return otf2_fail(p, r, otf2_peek(t, r, 0),
                             "an MPI call that never returns (its Leave is "
                             "missing: a truncated trace?)");
        }
        if (e->kind == OR_ENTER && otf2_region_is_mpi(t, e->a))
            depth++;
        else if (e->kind == OR_LEAVE && otf2_region_is_mpi(t, e->a) &&
                 --depth == 0) {
            end = i;
            break;
        }
        n_send += e->kind == OR_SEND;
        n_recv += e->kind == OR_RECV;
        if (e->kind == OR_ISEND_DONE || e->kind == OR_IRECV)
            last_done = i;
    }
    if (n_send == 1 && n_recv == 1) {
        const struct otf2_rec *s = NULL, *v = NULL;
        for (uint32_t i = 1; i < end; i++) {
            const struct otf2_rec *e = otf2_peek(t, r, i);
            if (e->kind == OR_SEND)
                s = e;
            if (e->kind == OR_RECV)
                v = e;
        }
        return sendrecv(p, r, s, v) == 0 ? (int64_t)end + 1 : -1;
    }
    for (uint32_t i = 1; i < end; i++) {
        const struct otf2_rec *e = otf2_peek(t, r, i);
        bool done = e->kind == OR_ISEND_DONE || e->kind == OR_IRECV;
        if (record(p, r, e, i, done && i < last_done) != 0)
            return -1;
    }
    return end + 1;
}

/* Rank r's next MPI call into its pending operations (with the compute
 * before it); false when the rank's trace has ended (or failed). */
static bool step(struct otf2_replay *p, uint32_t r)
{
    struct otf2_trace *t = &p->t;
    struct otf2_rank *k = &p->rank[r];
    for (;;) {
        const struct otf2_rec *e = otf2_peek(t, r, 0);
        if (!e) {
            if (t->err[0])
                otf2_fail(p, r, NULL, t->err);
            return false;
        }
        if (e->kind == OR_SKIP) { /* calls that did nothing: their time
                                     is not compute */
            if (k->started)
                k->last_leave += e->bytes;
            otf2_take(t, r);
            continue;
        }
        if (e->kind != OR_ENTER || !otf2_region_is_mpi(t, e->a)) {
            /* user regions and their time are the compute between calls;
             * an MPI record outside any MPI call (not Score-P's way) is
             * replayed as a call of its own */
            if (e->kind != OR_ENTER && e->kind != OR_LEAVE &&
                record(p, r, e, 0, false) != 0)
                return false;
            otf2_take(t, r);
            if (k->n_pend)
                return true;
            continue;
        }
        uint64_t enter = e->time;
        if (k->started && enter > k->last_leave && p->scale > 0) {
            double ps = (double)otf2_ticks_ps(t, enter - k->last_leave) *
                        p->scale;
            if (ps >= 1 &&
                otf2_emit(p, k, DMPI_COMPUTE, 0, 0, 0, (uint64_t)llround(ps),
                          0) != 0)
                return otf2_fail(p, r, e, "out of memory"), false;
        }
        int64_t n = call(p, r);
        if (n < 0)
            return false;
        k->last_leave = otf2_peek(t, r, (uint32_t)n - 1)->time;
        k->started = true;
        for (int64_t i = 0; i < n; i++)
            otf2_take(t, r);
        if (k->n_pend)
            return true;
    }
}

/* Rank r starts the trace again: its requests left open at the end (never
 * waited for) keep their handles, never reused. 0 or -1. */
static int next_replay(struct otf2_replay *p, uint32_t r)
{
    struct otf2_rank *k = &p->rank[r];
    k->n_open = 0;
    k->started = false;
    if (otf2_rewind(&p->t, r) != 0)
        return otf2_fail(p, r, NULL, p->t.err);
    return 0;
}

static uint32_t next(void *ctx, uint32_t r, struct dmpi_op *out, uint32_t cap)
{
    struct otf2_replay *p = ctx;
    if (r >= p->t.nranks)
        return 0; /* a rank the trace does not have: nothing to do */
    struct otf2_rank *k = &p->rank[r];
    if (k->pos == k->n_pend) {
        k->pos = k->n_pend = 0;
        if (p->why[0] || k->done)
            return 0;
        if (!step(p, r)) {
            if (p->why[0])
                return 0;
            /* each replay of the whole trace is an iteration */
            if (otf2_emit(p, k, DMPI_MARK, 0, 0, 0, k->iter, 0) != 0)
                return otf2_fail(p, r, NULL, "out of memory"), 0;
            k->done = ++k->iter >= p->iterations;
            if (!k->done && next_replay(p, r) != 0)
                return 0;
        }
    }
    uint32_t n = k->n_pend - k->pos;
    if (n > cap)
        n = cap;
    memcpy(out, k->pend + k->pos, n * sizeof *out);
    k->pos += n;
    return n;
}

static const char *why(void *ctx, uint32_t r)
{
    struct otf2_replay *p = ctx;
    (void)r;
    return p->why[0] ? p->why : NULL;
}

static bool comm_of(void *ctx, uint32_t r, uint32_t c, struct dmpi_comm *out)
{
    struct otf2_replay *p = ctx;
    const struct otf2_comm *k = c ? otf2_comm_of(&p->t, c - 1) : NULL;
    if (!k)
        return false;
    uint32_t me = otf2_comm_rank(k, r);
    if (me == UINT32_MAX)
        return false;
    *out = (struct dmpi_comm){ .size = k->size, .me = me,
                               .member = k->member };
    return true;
}

/* ---- the instance -------------------------------------------------------- */

int otf2_init(struct otf2_wl *w, const struct otf2_params *prm,
              uint32_t nranks, const char *file, char *err, size_t cap)
{
    w->r = NULL;
    if (!prm->trace || !prm->trace[0]) {
        snprintf(err, cap, "no trace: set trace = \"DIR/traces.otf2\" (an "
                 "OTF2 archive's anchor file)");
        return -1;
    }
    struct otf2_replay *p = calloc(1, sizeof *p);
    char *path = cfg_path_from(file, prm->trace);
    if (!p || !path) {
        free(p);
        free(path);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    int rc = otf2_trace_open(&p->t, path, err, cap);
    free(path);
    if (rc != 0) {
        free(p);
        return -1;
    }
    if (p->t.nranks > nranks) {
        snprintf(err, cap, "%s has %u ranks; the job has %u (set nodes x "
                 "ppn to %u or more)", p->t.path, p->t.nranks, nranks,
                 p->t.nranks);
        otf2_trace_close(&p->t);
        free(p);
        return -1;
    }
    p->scale = prm->compute_scale;
    p->iterations = prm->iterations ? prm->iterations : 1;
    p->rank = calloc(nranks, sizeof *p->rank);
    if (!p->rank) {
        otf2_trace_close(&p->t);
        free(p);
        snprintf(err, cap, "out of memory");
        return -1;
    }
    w->r = p;
    return 0;
}

void otf2_free(struct otf2_wl *w)
{
    struct otf2_replay *p = w->r;
    if (!p)
        return;
    for (uint32_t r = 0; r < p->t.nranks; r++) {
        free(p->rank[r].pend);
        free(p->rank[r].open);
        free(p->rank[r].free_h);
        free(p->rank[r].cseq);
    }
    free(p->rank);
    otf2_trace_close(&p->t);
    free(p);
    w->r = NULL;
}

struct dmpi_app otf2_app(struct otf2_wl *w)
{
    return (struct dmpi_app){ .ctx = w->r, .next = next, .why = why,
                              .comm = comm_of };
}
