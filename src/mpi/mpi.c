/* mpi/mpi.c — the MPI-like layer (see mpi.h for the model).
 *
 * A rank runs its operations in rank_run, at the current time, until one
 * blocks (a wait whose requests are open), sleeps (compute, or a host
 * overhead being paid), or the program ends. A request is a send or a
 * receive the rank has posted; a transfer ("xfer") is one point-to-point
 * message between two ranks, from its send to its completion at both
 * ends, and its id travels in the tag of every network message it
 * causes: tag = xfer << 4 | kind.
 *
 * Non-overtaking: the sender numbers its envelopes per destination; the
 * receiver keeps, per source, the next number it expects, and holds an
 * envelope that arrives early (adaptive routing) until those before it
 * have arrived. Both tables are small open-addressed maps per rank.
 */
#include "mpi/mpi.h"

#include <assert.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/slots.h"
#include "topo/topo.h"

#define NONE UINT32_MAX

const char *const dmpi_proto_names[] = { "smsg", "eager", "rendezvous-get",
                                         "rendezvous-put", NULL };

/* ---- its keys: the mpi section -------------------------------------------- */

#define MPI_U32(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT32,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_U64(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT64,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_NS(key, field, text)                                             \
    { .name = key, .type = CFG_TIME,                                         \
      .offset = offsetof(struct dmpi_params, field), .unit_ps = SIMTIME_NS, \
      .fmin = 0, .fmax = 1e9, .help = text }

const struct cfg_key dmpi_param_keys[] = {
    MPI_U32("smsg_max", smsg_max, 0, UINT32_MAX,
            "largest message sent as one SMSG PUT, bytes (16; Pedretti "
            "§V-D)"),
    MPI_U32("eager_max", eager_max, 0, UINT32_MAX,
            "largest eager message, bytes (4096)"),
    MPI_U32("rdv_get_max", rdv_get_max, 0, UINT32_MAX,
            "largest GET-rendezvous message; larger ones use the PUT "
            "rendezvous, bytes (262144)"),
    MPI_U32("header_bytes", header_bytes, 1, 65536,
            "MPI header and control messages, bytes (64)"),
    MPI_NS("o_send_ns", o_send,
           "host overhead of a send or one-sided call, ns (250; XC white "
           "paper Fig. 11)"),
    MPI_NS("o_recv_ns", o_recv,
           "host overhead of a completed receive, ns (250)"),
    MPI_NS("host_latency_ns", host_latency,
           "one host-interface crossing, ns (300)"),
    MPI_NS("copy_ns_per_kib", copy_ps_per_kib,
           "eager receive copy (and shared-memory copy), ns per KiB (100)"),
    MPI_NS("shm_latency_ns", shm_latency,
           "latency between two ranks of one node, ns (100)"),
    MPI_U64("allreduce_short_msg_size", coll.allreduce_short_msg_size, 0,
            INT64_MAX,
            "recursive-doubling allreduce at or below, bytes (2048, MPICH "
            "CVAR)"),
    MPI_U64("bcast_short_msg_size", coll.bcast_short_msg_size, 0, INT64_MAX,
            "binomial bcast below, bytes (12288)"),
    MPI_U64("bcast_long_msg_size", coll.bcast_long_msg_size, 0, INT64_MAX,
            "scatter + recursive-doubling allgather bcast below, ring at "
            "and above, bytes (524288)"),
    MPI_U32("bcast_min_procs", coll.bcast_min_procs, 0, UINT32_MAX,
            "binomial bcast with fewer ranks (8)"),
    MPI_U32("alltoall_throttle", coll.alltoall_throttle, 0, UINT32_MAX,
            "requests per block of the scattered alltoall; 0: all at once "
            "(32)"),
    MPI_U64("allgather_short_msg_size", coll.allgather_short_msg_size, 0,
            INT64_MAX, "Bruck allgather when ranks x bytes is below (81920)"),
    MPI_U64("allgather_long_msg_size", coll.allgather_long_msg_size, 0,
            INT64_MAX,
            "recursive-doubling allgather when ranks x bytes is below and "
            "ranks a power of two (524288)"),
    MPI_U64("alltoall_medium_msg_size", coll.alltoall_medium_msg_size, 0,
            INT64_MAX,
            "scattered alltoall at or below, pairwise above, bytes (32768)"),
    MPI_U64("datatype_bytes", coll.datatype_bytes, 1, 1 << 20,
            "element size of reductions, bytes (8: MPI_DOUBLE)"),
    MPI_U64("barrier_bytes", coll.barrier_bytes, 1, 1 << 20,
            "size of a barrier message, bytes (8)"),
    MPI_U64("reduce_ps_per_byte", coll.reduce_ps_per_byte, 0, 1 << 20,
            "combining cost per byte received, ps (100)"),
    MPI_U64("max_msg_bytes", coll.max_msg_bytes, 1, UINT32_MAX,
            "largest collective message; larger ones are split "
            "(4294967295)"),
    { .name = NULL },
};

uint32_t dmpi_params_check(const struct dmpi_params *p,
                           struct dmpi_params_problem out[2])
{
    /* the protocols' thresholds in order */
    uint32_t n = 0;
    if (p->smsg_max > p->eager_max) {
        out[n].key = "smsg_max";
        snprintf(out[n++].why, sizeof out[0].why, "%u is above eager_max "
                 "(%u); expected smsg_max <= eager_max <= rdv_get_max",
                 p->smsg_max, p->eager_max);
    }
    if (p->eager_max > p->rdv_get_max) {
        out[n].key = "eager_max";
        snprintf(out[n++].why, sizeof out[0].why, "%u is above rdv_get_max "
                 "(%u); expected smsg_max <= eager_max <= rdv_get_max",
                 p->eager_max, p->rdv_get_max);
    }
    return n;
}

void dmpi_defaults(struct dmpi_params *p)
{
    memset(p, 0, sizeof *p);
    /* Protocol switches: Pedretti et al. §V-D (Cray MPI on Gemini): 1-16 B
     * one PUT, 32 B-4 KiB eager PUTs, 8-256 KiB GET-based, >= 512 KiB
     * PUT-based; an MPI header of about 64 bytes ("the MPI header appears
     * to be around 64 bytes"). */
    p->smsg_max = 16;
    p->eager_max = 4096;
    p->rdv_get_max = 256 * 1024;
    p->header_bytes = 64;
    /* Host overheads (LogP o). The XC white paper (§"Network
     * performance", Fig. 11) measures 0.8 us for an 8-byte user-space PUT
     * and about 1.3 us for an 8-byte MPI message: the difference, 0.5 us,
     * is the MPI software on both sides; split evenly. */
    p->o_send = 250 * SIMTIME_NS;
    p->o_recv = 250 * SIMTIME_NS;
    /* One host-interface (PCIe) crossing. The white paper's 0.8 us for an
     * 8-byte user-space PUT is two crossings (the NIC reads the source's
     * memory, writes the target's) plus about 0.2 us of NIC and network
     * (a router hop is ~100 ns): (0.8 - 0.2) / 2 = 0.3 us. */
    p->host_latency = 300 * SIMTIME_NS;
    /* Copy out of the eager buffer at ~10 GB/s (a memcpy of a few KiB in
     * cache on a Xeon E5 node): 100 ns per KiB. */
    p->copy_ps_per_kib = 100 * 1000;
    /* Ranks of one node exchange through shared memory, as MPICH's
     * Nemesis does: a cache line between cores (~100 ns) then the copy. */
    p->shm_latency = 100 * SIMTIME_NS;
    dmpi_coll_defaults(&p->coll);
}

enum dmpi_proto dmpi_protocol(const struct dmpi_params *p, uint64_t bytes)
{
    if (bytes <= p->smsg_max)
        return DMPI_SMSG;
    if (bytes <= p->eager_max)
        return DMPI_EAGER;
    if (bytes <= p->rdv_get_max)
        return DMPI_RDV_GET;
    return DMPI_RDV_PUT;
}

/* ---- state ------------------------------------------------------------ */

/* What a network message of a transfer is. */
enum kind {
    K_EAGER,   /* header + data, sender -> receiver (SMSG and eager) */
    K_RTS,     /* request to send, sender -> receiver */
    K_GETDATA, /* GET rendezvous: receiver pulls the data */
    K_FIN,     /* GET rendezvous: receiver -> sender, done */
    K_CTS,     /* PUT rendezvous: receiver GETs the descriptor */
    K_PUTDATA, /* PUT rendezvous: the data, sender -> receiver */
    K_RMA_PUT, /* one-sided */
    K_RMA_GET,
    K_LOCAL,   /* both ranks on one node: through shared memory */
};

enum req_kind { R_SEND, R_RECV };

struct dmpi_req {
    uint32_t next;   /* free list; posted-receive queue link */
    uint32_t rank;   /* global rank that posted it */
    uint32_t peer;   /* global rank, or NONE (any source) */
    uint32_t tag;    /* or DMPI_ANY */
    uint64_t bytes;  /* send size, or receive buffer size */
    uint32_t xfer;   /* its transfer once matched, else NONE */
    uint8_t kind;    /* enum req_kind */
    uint8_t local;   /* a receive matched from a rank of its own node */
};

struct dmpi_xfer {
    uint32_t next;     /* free list; unexpected / early queue link */
    uint32_t src, dst; /* global ranks */
    uint32_t tag;
    uint32_t seq;      /* per (src, dst) envelope number */
    uint64_t bytes;
    uint32_t sreq;     /* the send request */
    uint32_t rreq;     /* the matching receive, NONE until matched */
    uint8_t proto;     /* enum dmpi_proto */
    uint8_t rma;       /* one-sided: no requests, counts in rma_open */
    uint8_t refs;      /* ends still to see it: an eager transfer is
                          released when its send is acknowledged and its
                          receive matched, whichever comes last */
};

/* A small map peer -> counter (open addressing, linear probing). */
struct seqmap {
    uint32_t *key; /* NONE: empty */
    uint32_t *val;
    uint32_t cap, n;
};

enum wait { W_NONE, W_REQ, W_ALL, W_RMA, W_SLEEP, W_DONE };

/* A rank's iteration i: when it marked it, and the interval it timed in
 * it (DMPI_TSTART..DMPI_TSTOP; SIMTIME_MAX if none). */
struct rank_mark {
    simtime at, timed;
};

struct dmpi_rank {
    uint32_t job, r;       /* job and rank within it */
    uint32_t node, nic, entity;
    /* its program */
    struct dmpi_op *ops;   /* current batch from the app */
    uint32_t n_ops, pos, cap;
    struct dmpi_op *coll;  /* the current collective's expansion */
    uint32_t n_coll, cpos, coll_cap;
    uint32_t coll_seq;     /* collectives called so far */
    bool in_coll;
    uint8_t coll_code;     /* the collective being executed (in_coll) */
    bool paid;             /* the current op's overhead has been paid */
    bool slept;            /* ... its controller's sleep has begun */
    uint8_t wait;          /* enum wait */
    uint32_t wait_req;
    uint32_t open;         /* open requests */
    uint32_t rma_open;     /* one-sided operations not yet complete */
    simtime debt;          /* host time owed by completed receives */
    /* matching */
    uint32_t posted_head, posted_tail; /* posted receives, in order */
    uint32_t unexp_head, unexp_tail;   /* unmatched arrived envelopes */
    uint32_t early_head;               /* envelopes ahead of their turn */
    struct seqmap send_seq, recv_seq;
    /* results */
    struct rank_mark *marks;
    uint32_t n_marks, marks_cap;
    simtime t_start;       /* the last DMPI_TSTART */
    simtime t_len;         /* the last DMPI_TSTOP's interval since it,
                              SIMTIME_MAX if none since the last mark */
};

/* ---- small helpers ------------------------------------------------------ */

static void fail(struct dmpi *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail(struct dmpi *m, const char *fmt, ...)
{
    if (m->error)
        return;
    m->error = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->why, sizeof m->why, fmt, ap);
    va_end(ap);
    sim_stop(m->s);
}

static int grow(void **arr, uint32_t *cap, size_t size, uint32_t need)
{
    if (need <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *a = realloc(*arr, (size_t)c * size);
    if (!a)
        return -1;
    *arr = a;
    *cap = c;
    return 0;
}

/* Requests and transfers: core/slots.h records (`next` first). */
_Static_assert(offsetof(struct dmpi_req, next) == 0, "next first");
_Static_assert(offsetof(struct dmpi_xfer, next) == 0, "next first");
#define REQ_SLOTS(m)                                                       \
    ((struct slots){ (void **)&(m)->req, sizeof *(m)->req, &(m)->req_cap, \
                     &(m)->req_free, &(m)->req_live })
#define XF_SLOTS(m)                                                        \
    ((struct slots){ (void **)&(m)->xf, sizeof *(m)->xf, &(m)->xf_cap,    \
                     &(m)->xf_free, &(m)->xf_live })

static uint32_t req_new(struct dmpi *m)
{
    uint32_t id = slots_alloc(REQ_SLOTS(m));
    if (id == SLOTS_NONE)
        fail(m, "out of memory for MPI requests");
    return id;
}

static void req_release(struct dmpi *m, uint32_t id)
{
    slots_release(REQ_SLOTS(m), id);
}

static uint32_t xf_new(struct dmpi *m)
{
    uint32_t id = slots_alloc(XF_SLOTS(m));
    if (id == SLOTS_NONE)
        fail(m, "out of memory for MPI messages");
    return id;
}

static void xf_release(struct dmpi *m, uint32_t id)
{
    slots_release(XF_SLOTS(m), id);
}

/* One end is done with transfer id. */
static void xf_put(struct dmpi *m, uint32_t id)
{
    assert(m->xf[id].refs > 0);
    if (--m->xf[id].refs == 0)
        xf_release(m, id);
}

/* The counter of `peer` in map s (created at 0). */
static uint32_t *seq_slot(struct dmpi *m, struct seqmap *s, uint32_t peer)
{
    if (2 * (s->n + 1) > s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 8;
        uint32_t *key = malloc(cap * sizeof *key);
        uint32_t *val = malloc(cap * sizeof *val);
        if (!key || !val) {
            free(key);
            free(val);
            fail(m, "out of memory for MPI sequence numbers");
            return NULL;
        }
        for (uint32_t i = 0; i < cap; i++)
            key[i] = NONE;
        for (uint32_t i = 0; i < s->cap; i++) {
            if (s->key[i] == NONE)
                continue;
            uint32_t h = (s->key[i] * 2654435761u) & (cap - 1);
            while (key[h] != NONE)
                h = (h + 1) & (cap - 1);
            key[h] = s->key[i];
            val[h] = s->val[i];
        }
        free(s->key);
        free(s->val);
        s->key = key;
        s->val = val;
        s->cap = cap;
    }
    uint32_t h = (peer * 2654435761u) & (s->cap - 1);
    while (s->key[h] != NONE && s->key[h] != peer)
        h = (h + 1) & (s->cap - 1);
    if (s->key[h] == NONE) {
        s->key[h] = peer;
        s->val[h] = 0;
        s->n++;
    }
    return &s->val[h];
}

uint32_t dmpi_job_marks(const struct dmpi *m, uint32_t job)
{
    uint32_t most = 0;
    for (uint32_t g = m->job_first[job]; g < m->job_first[job + 1]; g++)
        if (m->rank[g].n_marks > most)
            most = m->rank[g].n_marks;
    return most;
}

uint32_t dmpi_rank_id(const struct dmpi *m, uint32_t job, uint32_t r)
{
    return m->job_first[job] + r;
}

uint32_t dmpi_rank_nic(const struct dmpi *m, uint32_t g)
{
    return m->rank[g].nic;
}

static simtime now(const struct dmpi *m)
{
    return m->s->now;
}

/* Resume rank g at time `at`. */
static void resume_at(struct dmpi *m, uint32_t g, simtime at)
{
    struct dmpi_rank *rk = &m->rank[g];
    rk->wait = W_SLEEP;
    sim_schedule(m->s, rk->entity, at, rk->entity, m->ev_resume, g);
}

/* Hand a network message of a transfer to the NIC of `from`, in the
 * routing mode the controller (if any) chooses and in the traffic class
 * of the rank's job (SC'20 §II-E: "the job scheduler will assign to each
 * job a small number of traffic classes"; MPI picks one from an
 * environment variable): every message of a job, control messages and
 * rendezvous GETs included, and their responses (net/nic.c). */
static void send_net(struct dmpi *m, uint32_t from, uint32_t to,
                     enum net_op op, uint64_t bytes, uint32_t xfer,
                     enum kind k)
{
    const struct dmpi_rank *rk = &m->rank[from];
    struct nic_post q = {
        .job = rk->job, .iter = rk->n_marks, .src_nic = rk->nic,
        .dst_nic = m->rank[to].nic, .bytes = bytes,
        .get = op == NET_GET,
        .smsg = k == K_RTS || k == K_FIN ||
                (k == K_EAGER && m->xf[xfer].proto == DMPI_SMSG),
        .alltoall = rk->in_coll && rk->coll_code == DMPI_ALLTOALL,
    };
    uint8_t mode = m->route_mode ? m->route_mode(m->route_ctx, &q) : 0;
    if (bytes > UINT32_MAX) {
        fail(m, "a message of %" PRIu64 " bytes is larger than the network "
                "takes (4 GiB - 1)", bytes);
        return;
    }
    /* where its packets will count: room for this iteration's counts
     * now, so that a packet's arrival only adds */
    struct dmpi_job_result *res = &m->res[q.job];
    if (q.iter >= res->n_paths) {
        if (grow((void **)&res->paths, &res->paths_cap, sizeof *res->paths,
                 q.iter + 1) != 0) {
            fail(m, "out of memory for the packet counts");
            return;
        }
        memset(&res->paths[res->n_paths], 0,
               (size_t)(q.iter + 1 - res->n_paths) * sizeof *res->paths);
        res->n_paths = q.iter + 1;
    }
    uint32_t id = net_send_tc(m->n, q.src_nic, q.dst_nic, op,
                              (uint32_t)bytes, mode, m->job[q.job].tc,
                              (uint64_t)xfer << 4 | k);
    if (id == NET_NONE) {
        fail(m, "out of memory for network messages");
        return;
    }
    /* the net's message ids are dense: as many origins as it has room
     * for messages (grown with it) */
    if (id >= m->origin_cap &&
        grow((void **)&m->origin, &m->origin_cap, sizeof *m->origin,
             m->n->msg_cap > id ? m->n->msg_cap : id + 1) != 0) {
        fail(m, "out of memory for network messages");
        return;
    }
    m->origin[id] = (struct dmpi_origin){ .job = q.job, .iter = q.iter };
    if (m->route_sent)
        m->route_sent(m->route_ctx, &q, mode);
}

/* A message a rank's call starts reaches the NIC one host-interface
 * crossing later: an event of the sender's NIC entity, arg flagged. */
#define INJECT_FLAG (UINT64_C(1) << 63)

static void send_later(struct dmpi *m, uint32_t xid, enum kind k)
{
    uint32_t e = m->rank[m->xf[xid].src].entity;
    sim_schedule(m->s, e, now(m) + m->p.host_latency, e, m->ev_resume,
                 INJECT_FLAG | (uint64_t)xid << 4 | k);
}

static void envelope_arrived(struct dmpi *m, uint32_t xid);
static void req_done(struct dmpi *m, uint32_t id);
static void xf_put(struct dmpi *m, uint32_t id);

static void inject(struct dmpi *m, uint64_t arg)
{
    uint32_t xid = (uint32_t)((arg & ~INJECT_FLAG) >> 4);
    enum kind k = (enum kind)(arg & 15);
    const struct dmpi_xfer *x = &m->xf[xid];
    switch (k) {
    case K_LOCAL: { /* copied into the receiver's shared buffer: the send
                       is complete, the envelope is at the receiver */
        uint32_t sid = x->sreq;
        m->xf[xid].sreq = NONE;
        envelope_arrived(m, xid);
        xf_put(m, xid);
        req_done(m, sid);
        break;
    }
    case K_EAGER:
        send_net(m, x->src, x->dst, NET_PUT, m->p.header_bytes + x->bytes,
                 xid, k);
        break;
    case K_RTS:
        send_net(m, x->src, x->dst, NET_PUT, m->p.header_bytes, xid, k);
        break;
    case K_RMA_PUT:
        send_net(m, x->src, x->dst, NET_PUT, x->bytes, xid, k);
        break;
    default:
        send_net(m, x->src, x->dst, NET_GET, x->bytes, xid, k);
        break;
    }
}

/* ---- requests complete -------------------------------------------------- */

static void wake(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    simtime d = rk->debt;
    rk->debt = 0;
    resume_at(m, g, now(m) + d);
}

static void req_done(struct dmpi *m, uint32_t id)
{
    struct dmpi_req *q = &m->req[id];
    struct dmpi_rank *rk = &m->rank[q->rank];
    uint32_t g = q->rank;
    if (q->kind == R_RECV) /* the data crosses to the host (unless it came
                              through shared memory), MPI sees it */
        rk->debt += (q->local ? 0 : m->p.host_latency) + m->p.o_recv;
    assert(rk->open > 0);
    rk->open--;
    bool woke = (rk->wait == W_REQ && rk->wait_req == id) ||
                (rk->wait == W_ALL && rk->open == 0);
    req_release(m, id);
    if (woke)
        wake(m, g);
}

/* ---- matching ------------------------------------------------------------ */

static bool matches(const struct dmpi_req *q, const struct dmpi_xfer *x)
{
    return (q->peer == NONE || q->peer == x->src) &&
           (q->tag == DMPI_ANY || q->tag == x->tag);
}

static void rdv_start(struct dmpi *m, uint32_t xid);

/* Transfer xid meets receive rid: the receive's data is on its way or
 * here. */
static void matched(struct dmpi *m, uint32_t xid, uint32_t rid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_req *q = &m->req[rid];
    if (x->bytes > q->bytes) {
        fail(m, "rank %u of job %u receives %" PRIu64 " bytes from rank %u "
                "into a buffer of %" PRIu64 " (MPI_ERR_TRUNCATE)",
             m->rank[x->dst].r, m->rank[x->dst].job, x->bytes,
             m->rank[x->src].r, q->bytes);
        return;
    }
    x->rreq = rid;
    q->xfer = xid;
    q->local = m->rank[x->src].node == m->rank[x->dst].node;
    if (x->proto == DMPI_SMSG || x->proto == DMPI_EAGER) {
        /* the data is here: copy it out of the eager buffer */
        if (x->proto == DMPI_EAGER)
            m->rank[x->dst].debt += x->bytes * m->p.copy_ps_per_kib / 1024;
        xf_put(m, xid);
        req_done(m, rid);
    } else {
        rdv_start(m, xid);
    }
}

/* An envelope's turn has come at its receiver: match it with the first
 * posted receive it fits, or queue it as unexpected. */
static void envelope_in(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_rank *rk = &m->rank[x->dst];
    uint32_t prev = NONE;
    for (uint32_t q = rk->posted_head; q != NONE;
         prev = q, q = m->req[q].next) {
        if (!matches(&m->req[q], x))
            continue;
        uint32_t nx = m->req[q].next;
        if (prev == NONE)
            rk->posted_head = nx;
        else
            m->req[prev].next = nx;
        if (rk->posted_tail == q)
            rk->posted_tail = prev;
        m->req[q].next = NONE;
        matched(m, xid, q);
        return;
    }
    x->next = NONE;
    if (rk->unexp_head == NONE)
        rk->unexp_head = xid;
    else
        m->xf[rk->unexp_tail].next = xid;
    rk->unexp_tail = xid;
}

/* An envelope (eager data or RTS) reached its receiver: take it in the
 * sender's order. */
static void envelope_arrived(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_rank *rk = &m->rank[x->dst];
    uint32_t *expect = seq_slot(m, &rk->recv_seq, x->src);
    if (!expect)
        return;
    if (x->seq != *expect) { /* ahead of its turn: hold it */
        x->next = rk->early_head;
        rk->early_head = xid;
        return;
    }
    uint32_t src = x->src;
    envelope_in(m, xid);
    ++*expect;
    /* those held for the next numbers */
    for (bool found = true; found && rk->early_head != NONE;) {
        found = false;
        uint32_t prev = NONE;
        for (uint32_t e = rk->early_head; e != NONE;
             prev = e, e = m->xf[e].next) {
            if (m->xf[e].src != src || m->xf[e].seq != *expect)
                continue;
            if (prev == NONE)
                rk->early_head = m->xf[e].next;
            else
                m->xf[prev].next = m->xf[e].next;
            envelope_in(m, e);
            ++*expect;
            found = true;
            break;
        }
    }
}

/* Rank g posts receive rid: match it with the first fitting unexpected
 * envelope, or queue it. */
static void recv_post(struct dmpi *m, uint32_t g, uint32_t rid)
{
    struct dmpi_rank *rk = &m->rank[g];
    uint32_t prev = NONE;
    for (uint32_t x = rk->unexp_head; x != NONE;
         prev = x, x = m->xf[x].next) {
        if (!matches(&m->req[rid], &m->xf[x]))
            continue;
        uint32_t nx = m->xf[x].next;
        if (prev == NONE)
            rk->unexp_head = nx;
        else
            m->xf[prev].next = nx;
        if (rk->unexp_tail == x)
            rk->unexp_tail = prev;
        matched(m, x, rid);
        return;
    }
    m->req[rid].next = NONE;
    if (rk->posted_head == NONE)
        rk->posted_head = rid;
    else
        m->req[rk->posted_tail].next = rid;
    rk->posted_tail = rid;
}

/* ---- protocols ------------------------------------------------------------ */

/* Rank g sends: the request sid of `bytes` to global rank dst. */
static void send_start(struct dmpi *m, uint32_t g, uint32_t sid,
                       uint32_t dst, uint32_t tag, uint64_t bytes)
{
    uint32_t xid = xf_new(m);
    uint32_t *seq = seq_slot(m, &m->rank[g].send_seq, dst);
    if (xid == NONE || !seq)
        return;
    struct dmpi_xfer *x = &m->xf[xid];
    *x = (struct dmpi_xfer){ .next = NONE, .src = g, .dst = dst,
                             .tag = tag, .seq = (*seq)++, .bytes = bytes,
                             .sreq = sid, .rreq = NONE,
                             .proto = (uint8_t)dmpi_protocol(&m->p, bytes),
                             .refs = 1 };
    if (x->proto == DMPI_SMSG || x->proto == DMPI_EAGER)
        x->refs = 2;
    m->req[sid].xfer = xid;
    struct dmpi_job_result *res = &m->res[m->rank[g].job];
    res->msgs++;
    res->bytes += bytes;
    if (m->rank[g].node == m->rank[dst].node) {
        /* shared memory: one copy into the receiver's buffer, whatever
         * the size (single-copy transfers for large messages); matched
         * like an eager message, without a second copy */
        x->proto = DMPI_SMSG;
        x->refs = 2;
        uint32_t e = m->rank[g].entity;
        sim_schedule(m->s, e,
                     now(m) + m->p.shm_latency +
                         bytes * m->p.copy_ps_per_kib / 1024,
                     e, m->ev_resume,
                     INJECT_FLAG | (uint64_t)xid << 4 | K_LOCAL);
        return;
    }
    send_later(m, xid,
               x->proto == DMPI_SMSG || x->proto == DMPI_EAGER ? K_EAGER
                                                               : K_RTS);
}

/* A rendezvous transfer is matched at its receiver (whose NIC's handler
 * this runs in, or the receiver's own resume). */
static void rdv_start(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    if (x->proto == DMPI_RDV_GET)
        send_net(m, x->dst, x->src, NET_GET, x->bytes, xid, K_GETDATA);
    else
        send_net(m, x->dst, x->src, NET_GET, m->p.header_bytes, xid, K_CTS);
}

/* Network message mid (msg) of the layer has arrived at t: its time to
 * its job's M (struct dmpi_job_result.msg_time). */
static void time_msg(struct dmpi *m, uint32_t mid, const struct message *msg,
                     simtime t)
{
    if (mid >= m->origin_cap)
        return; /* its origin could not be stored: the run has failed */
    struct dmpi_job_result *r = &m->res[m->origin[mid].job];
    r->msg_time += t - msg->t_created;
    r->msg_timed++;
}

/* A network message's requests have all reached its destination. */
static void on_msg_arrived(void *ctx, uint32_t mid, const struct message *msg,
                           simtime t)
{
    struct dmpi *m = ctx;
    uint32_t xid = (uint32_t)(msg->tag >> 4);
    enum kind k = (enum kind)(msg->tag & 15);
    if (msg->op == NET_PUT) /* its data is there */
        time_msg(m, mid, msg, t);
    switch (k) {
    case K_EAGER:
    case K_RTS:
        envelope_arrived(m, xid);
        break;
    case K_CTS: /* the descriptor request reached the sender: PUT */
        send_net(m, m->xf[xid].src, m->xf[xid].dst, NET_PUT,
                 m->xf[xid].bytes, xid, K_PUTDATA);
        break;
    case K_PUTDATA: { /* the data is at the receiver */
        uint32_t r = m->xf[xid].rreq;
        m->xf[xid].rreq = NONE;
        req_done(m, r);
        break;
    }
    case K_FIN: { /* the sender learns the receiver has the data */
        uint32_t s = m->xf[xid].sreq;
        xf_release(m, xid);
        req_done(m, s);
        break;
    }
    default:
        break; /* GETs' requests, one-sided PUTs: nothing at the target */
    }
}

/* A packet of one of the layer's messages reached its destination NIC
 * (a request at the target, a response back at the poster): count it
 * where its message was posted. No allocation: the counts were made room
 * for at the post. */
static void on_delivered(void *ctx, const struct packet *p, simtime t)
{
    struct dmpi *m = ctx;
    (void)t;
    uint32_t msg = net_pkt_cold(m->n, p)->msg;
    if (msg >= m->origin_cap)
        return; /* its origin could not be stored: the run has failed */
    const struct dmpi_origin *o = &m->origin[msg];
    struct dmpi_paths *w = &m->res[o->job].paths[o->iter];
    w->pkts[p->cls]++;
    w->nonmin[p->cls] += (p->flags & PKT_NONMIN) != 0;
    w->hops[p->cls] += p->hops;
}

/* A network message is complete at its source (PUT acknowledged, GET
 * data back). */
static void on_msg_done(void *ctx, uint32_t mid, const struct message *msg,
                        simtime t)
{
    struct dmpi *m = ctx;
    uint32_t xid = (uint32_t)(msg->tag >> 4);
    enum kind k = (enum kind)(msg->tag & 15);
    if (msg->op == NET_GET) /* its data is back */
        time_msg(m, mid, msg, t);
    switch (k) {
    case K_EAGER: { /* the sender's buffer is free */
        uint32_t s = m->xf[xid].sreq;
        m->xf[xid].sreq = NONE;
        xf_put(m, xid);
        req_done(m, s);
        break;
    }
    case K_GETDATA: { /* the receiver has the data: FIN to the sender */
        struct dmpi_xfer *x = &m->xf[xid];
        uint32_t r = x->rreq;
        x->rreq = NONE;
        send_net(m, x->dst, x->src, NET_PUT, m->p.header_bytes, xid, K_FIN);
        req_done(m, r);
        break;
    }
    case K_PUTDATA: { /* acknowledged: the send is complete */
        uint32_t s = m->xf[xid].sreq;
        xf_release(m, xid);
        req_done(m, s);
        break;
    }
    case K_RMA_PUT:
    case K_RMA_GET: {
        uint32_t g = m->xf[xid].src;
        struct dmpi_rank *rk = &m->rank[g];
        xf_release(m, xid);
        assert(rk->rma_open > 0);
        if (--rk->rma_open == 0 && rk->wait == W_RMA)
            wake(m, g);
        break;
    }
    default:
        break; /* RTS, CTS, FIN acknowledged: nothing to do */
    }
}

/* ---- the rank's program ------------------------------------------------- */

static bool coll_code(uint8_t c)
{
    return c >= DMPI_BARRIER && c <= DMPI_ALLTOALL;
}

/* The rank's current operation, fetching or expanding as needed; NULL
 * when its program has ended. */
static struct dmpi_op *current(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    for (;;) {
        if (rk->in_coll) {
            if (rk->cpos < rk->n_coll)
                return &rk->coll[rk->cpos];
            rk->in_coll = false; /* the collective is over */
            rk->pos++;
            continue;
        }
        if (rk->pos < rk->n_ops) {
            struct dmpi_op *op = &rk->ops[rk->pos];
            if (!coll_code(op->code))
                return op;
            uint32_t nr = m->job_first[rk->job + 1] - m->job_first[rk->job];
            uint32_t need = dmpi_coll_expand(&m->p.coll, op, rk->r, nr,
                                             rk->coll_seq, rk->coll,
                                             rk->coll_cap);
            if (need > rk->coll_cap) {
                if (grow((void **)&rk->coll, &rk->coll_cap,
                         sizeof *rk->coll, need) != 0) {
                    fail(m, "out of memory for a collective");
                    return NULL;
                }
                need = dmpi_coll_expand(&m->p.coll, op, rk->r, nr,
                                        rk->coll_seq, rk->coll,
                                        rk->coll_cap);
            }
            rk->coll_seq++;
            rk->coll_code = op->code;
            rk->n_coll = need;
            rk->cpos = 0;
            rk->in_coll = true;
            continue;
        }
        const struct dmpi_app *a = &m->job[rk->job].app;
        rk->n_ops = a->next(a->ctx, rk->r, rk->ops, rk->cap);
        rk->pos = 0;
        if (rk->n_ops == 0)
            return NULL;
        assert(rk->n_ops <= rk->cap);
    }
}

static void advance(struct dmpi_rank *rk)
{
    rk->paid = false;
    rk->slept = false;
    if (rk->in_coll)
        rk->cpos++;
    else
        rk->pos++;
}

/* The job's rank r as a global rank, or NONE for DMPI_ANY. */
static uint32_t peer_id(struct dmpi *m, const struct dmpi_rank *rk,
                        uint32_t peer)
{
    if (peer == DMPI_ANY)
        return NONE;
    uint32_t nr = m->job_first[rk->job + 1] - m->job_first[rk->job];
    if (peer >= nr) {
        fail(m, "rank %u of job %u names rank %u; the job has %u", rk->r,
             rk->job, peer, nr);
        return NONE;
    }
    return m->job_first[rk->job] + peer;
}

static void start_job(struct dmpi *m, uint32_t j, simtime at)
{
    m->res[j].start = at;
    for (uint32_t g = m->job_first[j]; g < m->job_first[j + 1]; g++)
        resume_at(m, g, at);
}

static void rank_end(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    rk->wait = W_DONE;
    struct dmpi_job_result *res = &m->res[rk->job];
    res->rank_end[rk->r] = now(m);
    uint32_t first = m->job_first[rk->job], last = m->job_first[rk->job + 1];
    for (uint32_t i = first; i < last; i++)
        if (m->rank[i].wait != W_DONE)
            return;
    res->finished = true;
    res->end = now(m);
    if (m->on_job)
        m->on_job(m->job_ctx, rk->job, true);
    for (uint32_t k = 0; k < m->n_jobs; k++)
        if (m->job[k].chained && m->job[k].after == rk->job)
            start_job(m, k, now(m) + m->job[k].start);
    if (!m->job[rk->job].background && --m->fg_left == 0)
        sim_stop(m->s);
}

static void mark(struct dmpi *m, uint32_t g, uint64_t iter)
{
    struct dmpi_rank *rk = &m->rank[g];
    (void)iter;
    if (grow((void **)&rk->marks, &rk->marks_cap, sizeof *rk->marks,
             rk->n_marks + 1) != 0) {
        fail(m, "out of memory for iteration marks");
        return;
    }
    rk->marks[rk->n_marks++] = (struct rank_mark){ now(m), rk->t_len };
    rk->t_len = SIMTIME_MAX;
    if (m->on_mark)
        m->on_mark(m->mark_ctx, rk->job, rk->r, rk->n_marks - 1);
}

/* Before rank g posts `bytes` to global rank `peer` over the network,
 * the congestion controller may put it to sleep (Netscope's MPI wrapper,
 * net/cc.h): true if it sleeps now (resumed later, to ask again). A
 * message to a rank of its own node does not reach the NIC and does not
 * sleep. */
static bool cc_sleeps(struct dmpi *m, uint32_t g, uint32_t peer,
                      uint64_t bytes)
{
    struct dmpi_rank *rk = &m->rank[g];
    if (peer == NONE || m->rank[peer].node == rk->node)
        return false;
    simtime t = rk->slept ? net_cc_sleeping(m->n, rk->nic, now(m))
                          : net_cc_sleep(m->n, rk->nic, bytes, now(m));
    rk->slept = true;
    if (t <= now(m))
        return false;
    resume_at(m, g, t);
    return true;
}

/* What a call that posts `bytes` to global rank `peer` costs rank g
 * before it goes, once per operation: the controller's sleep, then the
 * host overhead o_send. True if the rank waits now (resumed later). */
static bool call_waits(struct dmpi *m, uint32_t g, uint32_t peer,
                       uint64_t bytes)
{
    struct dmpi_rank *rk = &m->rank[g];
    if (rk->paid)
        return false;
    if (cc_sleeps(m, g, peer, bytes))
        return true;
    if (!m->p.o_send)
        return false;
    rk->paid = true;
    resume_at(m, g, now(m) + m->p.o_send);
    return true;
}

/* Run rank g from its current operation until it blocks or sleeps. */
static void rank_run(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    rk->wait = W_NONE;
    while (!m->error) {
        struct dmpi_op *op = current(m, g);
        if (!op) {
            if (!m->error)
                rank_end(m, g);
            return;
        }
        switch ((enum dmpi_code)op->code) {
        case DMPI_COMPUTE:
            advance(rk);
            if (op->arg) {
                resume_at(m, g, now(m) + op->arg);
                return;
            }
            break;
        case DMPI_SEND:
        case DMPI_ISEND:
        case DMPI_RECV:
        case DMPI_IRECV: {
            bool send = op->code == DMPI_SEND || op->code == DMPI_ISEND;
            uint32_t peer = peer_id(m, rk, op->peer);
            if (m->error)
                return;
            if (send && peer == NONE) {
                fail(m, "rank %u of job %u sends to any source", rk->r,
                     rk->job);
                return;
            }
            if (op->bytes == 0 && send) {
                fail(m, "rank %u of job %u sends 0 bytes (the network "
                        "carries messages of 1 byte or more)",
                     rk->r, rk->job);
                return;
            }
            if (send && call_waits(m, g, peer, op->bytes))
                return;
            uint32_t id = req_new(m);
            if (id == NONE)
                return;
            m->req[id] = (struct dmpi_req){
                .next = NONE, .rank = g, .peer = peer, .tag = op->tag,
                .bytes = op->bytes, .xfer = NONE,
                .kind = send ? R_SEND : R_RECV
            };
            rk->open++;
            bool blocking = op->code == DMPI_SEND || op->code == DMPI_RECV;
            advance(rk);
            if (blocking) { /* wait for this one (it may finish at once) */
                rk->wait = W_REQ;
                rk->wait_req = id;
            }
            if (send)
                send_start(m, g, id, peer, op->tag, op->bytes);
            else
                recv_post(m, g, id);
            if (blocking)
                return; /* req_done wakes it, perhaps already has */
            break;
        }
        case DMPI_WAITALL:
            advance(rk);
            if (rk->open) {
                rk->wait = W_ALL;
                return;
            }
            if (rk->debt) {
                wake(m, g);
                return;
            }
            break;
        case DMPI_PUT:
        case DMPI_GET: {
            uint32_t peer = peer_id(m, rk, op->peer);
            if (m->error)
                return;
            if (peer == NONE || op->bytes == 0) {
                fail(m, "rank %u of job %u: a one-sided call needs a target "
                        "rank and 1 byte or more", rk->r, rk->job);
                return;
            }
            if (call_waits(m, g, peer, op->bytes))
                return;
            uint32_t xid = xf_new(m);
            if (xid == NONE)
                return;
            m->xf[xid] = (struct dmpi_xfer){ .next = NONE, .src = g,
                                             .dst = peer, .bytes = op->bytes,
                                             .sreq = NONE, .rreq = NONE,
                                             .rma = 1, .refs = 1 };
            rk->rma_open++;
            struct dmpi_job_result *res = &m->res[rk->job];
            res->msgs++; /* a one-sided call moves data too */
            res->bytes += op->bytes;
            bool put = op->code == DMPI_PUT;
            advance(rk);
            send_later(m, xid, put ? K_RMA_PUT : K_RMA_GET);
            break;
        }
        case DMPI_FLUSH:
            advance(rk);
            if (rk->rma_open) {
                rk->wait = W_RMA;
                return;
            }
            break;
        case DMPI_MARK:
            mark(m, g, op->arg);
            advance(rk);
            break;
        case DMPI_TSTART:
            rk->t_start = now(m);
            advance(rk);
            break;
        case DMPI_TSTOP:
            rk->t_len = now(m) - rk->t_start;
            advance(rk);
            break;
        default:
            fail(m, "rank %u of job %u: unknown operation %u", rk->r,
                 rk->job, op->code);
            return;
        }
    }
}

static void on_resume(struct sim *s, const struct event *e, void *ctx)
{
    struct dmpi *m = ctx;
    (void)s;
    if (e->arg & INJECT_FLAG) {
        inject(m, e->arg);
        return;
    }
    uint32_t g = (uint32_t)e->arg;
    struct dmpi_job_result *res = &m->res[m->rank[g].job];
    if (!res->started) {
        res->started = true;
        if (m->on_job)
            m->on_job(m->job_ctx, m->rank[g].job, false);
    }
    rank_run(m, g);
}

/* ---- setup ----------------------------------------------------------------- */

#define BATCH 64 /* operations fetched from the app at a time */

int dmpi_init(struct dmpi *m, struct sim *s, struct net *n,
              const struct dmpi_params *p, const struct dmpi_job_spec *spec,
              uint32_t n_jobs, uint32_t ev_type, struct diag *d)
{
    memset(m, 0, sizeof *m);
    m->s = s;
    m->n = n;
    m->t = n->t;
    m->p = *p;
    m->ev_resume = ev_type;
    m->req_free = m->xf_free = NONE;
    m->n_jobs = n_jobs;
    const struct topo *t = n->t;
    uint64_t total = 0;
    for (uint32_t j = 0; j < n_jobs; j++) {
        const struct dmpi_job_spec *js = &spec[j];
        if (js->ppn == 0 || js->n_nodes == 0 || !js->app.next) {
            diag_error(d, NULL, 0, "jobs", "job %s: needs nodes, ranks per "
                       "node >= 1 and a program", js->name);
            return -1;
        }
        if (js->tc >= n->n_tcs) {
            diag_error(d, NULL, 0, "jobs", "job %s: traffic class %u; the "
                       "network has %u", js->name, js->tc, n->n_tcs);
            return -1;
        }
        if (js->chained && (js->after >= n_jobs || js->after == j)) {
            diag_error(d, NULL, 0, "jobs", "job %s: follows job %u; "
                       "expected another of the %u jobs", js->name,
                       js->after, n_jobs);
            return -1;
        }
        for (uint32_t i = 0; i < js->n_nodes; i++) {
            if (js->nodes[i] >= t->n_nodes ||
                t->nodes[js->nodes[i]].n_nics == 0) {
                diag_error(d, NULL, 0, "jobs", "job %s: node %u does not "
                           "exist or has no NIC", js->name, js->nodes[i]);
                return -1;
            }
        }
        total += (uint64_t)js->n_nodes * js->ppn;
    }
    if (total >= NONE) {
        diag_error(d, NULL, 0, "jobs", "%" PRIu64 " ranks in all: too many",
                   total);
        return -1;
    }
    m->n_ranks = (uint32_t)total;
    m->rank = calloc(total ? total : 1, sizeof *m->rank);
    m->job_first = calloc(n_jobs + 1, sizeof *m->job_first);
    m->job = calloc(n_jobs ? n_jobs : 1, sizeof *m->job);
    m->res = calloc(n_jobs ? n_jobs : 1, sizeof *m->res);
    if (!m->rank || !m->job_first || !m->job || !m->res)
        goto oom;
    memcpy(m->job, spec, n_jobs * sizeof *spec);
    uint32_t g = 0;
    for (uint32_t j = 0; j < n_jobs; j++) {
        const struct dmpi_job_spec *js = &spec[j];
        m->job_first[j] = g;
        uint32_t nr = js->n_nodes * js->ppn;
        struct dmpi_job_result *res = &m->res[j];
        res->start = SIMTIME_MAX; /* set when it starts */
        res->end = SIMTIME_MAX;
        res->n_ranks = nr;
        res->rank_end = malloc(nr * sizeof *res->rank_end);
        if (!res->rank_end)
            goto oom;
        for (uint32_t r = 0; r < nr; r++, g++) {
            struct dmpi_rank *rk = &m->rank[g];
            res->rank_end[r] = SIMTIME_MAX;
            rk->job = j;
            rk->r = r;
            rk->node = js->nodes[r / js->ppn];
            rk->nic = t->nodes[rk->node].nic[0];
            rk->entity = net_nic_entity(n, rk->nic);
            rk->posted_head = rk->posted_tail = NONE;
            rk->unexp_head = rk->unexp_tail = rk->early_head = NONE;
            rk->t_len = SIMTIME_MAX;
            rk->cap = BATCH;
            rk->ops = malloc(BATCH * sizeof *rk->ops);
            if (!rk->ops)
                goto oom;
        }
        if (!js->background)
            m->fg_left++;
    }
    m->job_first[n_jobs] = g;
    n->hooks.ctx = m;
    n->hooks.delivered = on_delivered;
    n->hooks.msg_arrived = on_msg_arrived;
    n->hooks.msg_done = on_msg_done;
    sim_on(s, ev_type, on_resume, m);
    for (uint32_t j = 0; j < n_jobs; j++)
        if (!m->job[j].chained)
            start_job(m, j, m->job[j].start);
    return 0;
oom:
    diag_error(d, NULL, 0, "jobs", "out of memory for %u ranks", m->n_ranks);
    dmpi_free(m);
    return -1;
}

void dmpi_in_use(const struct dmpi *m, uint32_t *xfers, uint32_t *reqs)
{
    *xfers = m->xf_live;
    *reqs = m->req_live;
}

int dmpi_collect(struct dmpi *m)
{
    for (uint32_t j = 0; j < m->n_jobs; j++) {
        struct dmpi_job_result *res = &m->res[j];
        uint32_t first = m->job_first[j], last = m->job_first[j + 1];
        /* ranks that ended without marking (a passive RMA target) take
         * no part in the iterations; one still running does */
        uint32_t n = UINT32_MAX;
        for (uint32_t g = first; g < last; g++) {
            bool passive = m->rank[g].n_marks == 0 &&
                           res->rank_end[g - first] != SIMTIME_MAX;
            if (!passive && m->rank[g].n_marks < n)
                n = m->rank[g].n_marks;
        }
        if (n == UINT32_MAX)
            n = 0;
        free(res->iter_end);
        free(res->iter_time);
        res->iter_end = malloc((n ? n : 1) * sizeof *res->iter_end);
        res->iter_time = malloc((n ? n : 1) * sizeof *res->iter_time);
        if (!res->iter_end || !res->iter_time)
            return -1;
        res->n_iter = n;
        simtime prev = res->start;
        for (uint32_t i = 0; i < n; i++) {
            simtime t = 0, longest = SIMTIME_MAX;
            for (uint32_t g = first; g < last; g++) {
                const struct dmpi_rank *rk = &m->rank[g];
                if (rk->n_marks <= i)
                    continue;
                if (rk->marks[i].at > t)
                    t = rk->marks[i].at;
                simtime d = rk->marks[i].timed;
                if (d != SIMTIME_MAX &&
                    (longest == SIMTIME_MAX || d > longest))
                    longest = d;
            }
            res->iter_end[i] = t;
            res->iter_time[i] = longest != SIMTIME_MAX ? longest : t - prev;
            prev = t;
        }
    }
    return 0;
}

void dmpi_free(struct dmpi *m)
{
    for (uint32_t i = 0; m->rank && i < m->n_ranks; i++) {
        struct dmpi_rank *rk = &m->rank[i];
        free(rk->ops);
        free(rk->coll);
        free(rk->marks);
        free(rk->send_seq.key);
        free(rk->send_seq.val);
        free(rk->recv_seq.key);
        free(rk->recv_seq.val);
    }
    for (uint32_t j = 0; m->res && j < m->n_jobs; j++) {
        free(m->res[j].rank_end);
        free(m->res[j].iter_end);
        free(m->res[j].iter_time);
        free(m->res[j].paths);
    }
    free(m->rank);
    free(m->job_first);
    free(m->job);
    free(m->res);
    free(m->req);
    free(m->xf);
    free(m->origin);
    memset(m, 0, sizeof *m);
}
