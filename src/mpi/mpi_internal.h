/* mpi/mpi_internal.h — what the MPI layer's files share, for them only:
 * the records of ranks, requests and transfers, the small helpers every
 * part calls, and the point-to-point engine's entry points.
 *
 *   mpi.c     the ranks' programs (rank_run), set-up, results
 *   p2p.c     point-to-point: matching (posted and unexpected queues,
 *             non-overtaking), the wire protocols, the network's hooks
 *   params.c  the mpi section's keys and the protocols' thresholds
 *   coll.c    collectives as point-to-point schedules
 */
#ifndef DFSIM_MPI_INTERNAL_H
#define DFSIM_MPI_INTERNAL_H

#include <assert.h>
#include <stddef.h>

#include "core/slots.h"
#include "mpi/mpi.h"

#define NONE UINT32_MAX

/* A message a rank's call starts reaches the NIC one host-interface
 * crossing later: an event of the sender's NIC entity, arg flagged. */
#define INJECT_FLAG (UINT64_C(1) << 63)

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
    uint32_t handle; /* the poster's handle (struct dmpi_op.req), 0: none */
    uint8_t kind;    /* enum req_kind */
    uint8_t local;   /* a receive matched from a rank of its own node */
};

/* A transfer is kept in two halves, one at each end, each in its own
 * end's layer (so that the two ends can live in different partitions of
 * one simulation: net/xpart.h): the sender's, made by the send (or the
 * one-sided call), and the receiver's, made from the envelope the sender
 * mails when the message leaves its host (dmpi_env_in); each knows the
 * other's id once it has been told it (`far`). Every network message of
 * a transfer carries both ids in its cookie (msg_tag). */
struct dmpi_xfer {
    uint32_t next;     /* free list; unexpected / early queue link */
    uint32_t src, dst; /* global ranks */
    uint32_t tag;
    uint32_t seq;      /* per (src, dst) envelope number */
    uint64_t bytes;
    uint32_t sreq;     /* the sender's half: the send request */
    uint32_t rreq;     /* the receiver's half: the matching receive,
                          NONE until matched */
    uint32_t far;      /* the other half's id, XF_NONE until known */
    uint8_t proto;     /* enum dmpi_proto */
    uint8_t rma;       /* one-sided: no requests, counts in rma_open */
};

/* A network message's cookie: its kind, the id of the poster's half of
 * its transfer and the id of the other end's (XF_NONE: not known to the
 * poster), XF_BITS each. */
#define XF_BITS 28
#define XF_NONE ((UINT32_C(1) << XF_BITS) - 1)

static inline uint64_t msg_tag(uint32_t own, uint32_t far, enum kind k)
{
    return (uint64_t)far << 32 | (uint64_t)own << 4 | (uint64_t)k;
}

static inline uint32_t tag_own(uint64_t tag)
{
    return (uint32_t)(tag >> 4) & XF_NONE;
}

static inline uint32_t tag_far(uint64_t tag)
{
    return (uint32_t)(tag >> 32) & XF_NONE;
}

static inline enum kind tag_kind(uint64_t tag)
{
    return (enum kind)(tag & 15);
}

/* A network message's second cookie (struct message.origin): the job and
 * the iteration its poster was in, where its packets count. */
static inline uint64_t origin_of(uint32_t job, uint32_t iter)
{
    return (uint64_t)job << 32 | iter;
}

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
    uint32_t open;         /* open anonymous requests (DMPI_WAITALL's) */
    uint32_t *hreq;        /* [hreq_cap]: the open request of handle h,
                              NONE once complete (DMPI_WAIT) */
    uint32_t hreq_cap;
    bool wait_more;        /* its DMPI_WAIT is not its call's last: woken
                              without paying its debt */
    uint32_t rma_open;     /* one-sided operations not yet complete */
    simtime debt;          /* host time owed by completed receives */
    simtime noise_phase;   /* its node's host noise phase (mpi.h) */
    /* matching */
    uint32_t posted_head, posted_tail; /* posted receives, in order */
    uint32_t unexp_head, unexp_tail;   /* unmatched arrived envelopes */
    uint32_t early_head;               /* envelopes ahead of their turn */
    struct keymap send_seq, recv_seq; /* peer -> its envelope number */
    /* results */
    struct rank_mark *marks;
    uint32_t n_marks, marks_cap;
    simtime t_start;       /* the last DMPI_TSTART */
    simtime t_len;         /* the last DMPI_TSTOP's interval since it,
                              SIMTIME_MAX if none since the last mark */
};

/* ---- helpers (mpi.c) ---------------------------------------------------- */

/* The run fails: the first reason is kept in m->why, the simulation
 * stops. */
void dmpi_fail(struct dmpi *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Grow *arr (of *cap elements of `size`) to hold `need`, doubling. */
int dmpi_grow(void **arr, uint32_t *cap, size_t size, uint32_t need);
/* The counter of `peer` in map s (created at 0); NULL out of memory. */
uint32_t *dmpi_seq_slot(struct dmpi *m, struct keymap *s, uint32_t peer);

/* Requests and transfers: core/slots.h records (`next` first). */
_Static_assert(offsetof(struct dmpi_req, next) == 0, "next first");
_Static_assert(offsetof(struct dmpi_xfer, next) == 0, "next first");
#define REQ_SLOTS(m)                                                       \
    ((struct slots){ (void **)&(m)->req, sizeof *(m)->req, &(m)->req_cap, \
                     &(m)->req_free, &(m)->req_live })
#define XF_SLOTS(m)                                                        \
    ((struct slots){ (void **)&(m)->xf, sizeof *(m)->xf, &(m)->xf_cap,    \
                     &(m)->xf_free, &(m)->xf_live })

static inline uint32_t req_new(struct dmpi *m)
{
    uint32_t id = slots_alloc(REQ_SLOTS(m));
    if (id == SLOTS_NONE)
        dmpi_fail(m, "out of memory for MPI requests");
    return id;
}

static inline void req_release(struct dmpi *m, uint32_t id)
{
    slots_release(REQ_SLOTS(m), id);
}

static inline uint32_t xf_new(struct dmpi *m)
{
    uint32_t id = slots_alloc(XF_SLOTS(m));
    if (id != SLOTS_NONE && id >= XF_NONE) { /* no room in a cookie */
        slots_release(XF_SLOTS(m), id);
        id = SLOTS_NONE;
    }
    if (id == SLOTS_NONE)
        dmpi_fail(m, "out of memory for MPI messages");
    return id;
}

static inline void xf_release(struct dmpi *m, uint32_t id)
{
    slots_release(XF_SLOTS(m), id);
}

static inline simtime now(const struct dmpi *m)
{
    return m->s->now;
}

/* Resume rank g at time `at`. */
static inline void resume_at(struct dmpi *m, uint32_t g, simtime at)
{
    struct dmpi_rank *rk = &m->rank[g];
    rk->wait = W_SLEEP;
    sim_schedule(m->s, rk->entity, at, rk->entity, m->ev_resume, g);
}

/* How long host work of length d started at t takes on a host that
 * stops for `detour` at phase + k period, k = 0, 1, ... (detour <
 * period): work waits out a detour under way, and every detour that
 * starts before it is done adds its length (mpi.h, noise_period). */
static inline simtime host_noise(simtime t, simtime d, simtime period,
                                 simtime detour, simtime phase)
{
    simtime pos = (t % period + period - phase) % period, t0 = t;
    if (pos < detour) { /* a detour under way: the work starts after it */
        t += detour - pos;
        pos = detour;
    }
    simtime avail = period - pos; /* up to the next detour */
    if (d <= avail)
        return t + d - t0;
    simtime w = d - avail, run = period - detour;
    t += avail + detour;
    simtime k = (w - 1) / run; /* whole periods, then the rest */
    return t + k * period + (w - k * run) - t0;
}

/* Host work of length d rank g starts now: d, or longer by its node's
 * noise. */
static inline simtime host_time(const struct dmpi *m, uint32_t g, simtime d)
{
    if (!m->p.noise_period || !d || !m->p.noise_detour)
        return d;
    return host_noise(now(m), d, m->p.noise_period, m->p.noise_detour,
                      m->rank[g].noise_phase);
}

/* Resume rank g once the host time its completed receives owe is paid. */
static inline void wake(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    simtime d = rk->debt;
    rk->debt = 0;
    resume_at(m, g, now(m) + host_time(m, g, d));
}

/* ---- point-to-point (p2p.c) ---------------------------------------------- */

/* Rank g posts send request sid (to global rank dst, tag, bytes): its
 * transfer, the protocol by size, the envelope's number. */
void p2p_send_start(struct dmpi *m, uint32_t g, uint32_t sid, uint32_t dst,
                    uint32_t tag, uint64_t bytes);
/* Rank g posts receive request rid: matched against the unexpected
 * queue, else queued. */
void p2p_recv_post(struct dmpi *m, uint32_t g, uint32_t rid);
/* Transfer xid's message of kind k leaves its sender's host: at its NIC
 * one host_latency later (p2p_inject then). */
void p2p_send_later(struct dmpi *m, uint32_t xid, enum kind k);
/* The event p2p_send_later scheduled (arg: INJECT_FLAG | xid << 4 | kind). */
void p2p_inject(struct dmpi *m, uint64_t arg);
/* The network's hooks (delivered, msg_arrived, msg_done) to the layer. */
void p2p_hooks(struct dmpi *m);
/* ... and the hop hook that counts where the packets wait (dmpi_waits_on) */
void p2p_waits_hook(struct dmpi *m);

#endif
