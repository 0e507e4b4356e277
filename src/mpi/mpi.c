/* mpi/mpi.c — the MPI-like layer (see mpi.h for the model): the ranks'
 * programs, the layer's set-up and its results.
 *
 * A rank runs its operations in rank_run, at the current time, until one
 * blocks (a wait whose requests are open), sleeps (compute, or a host
 * overhead being paid), or the program ends. Its sends and receives go to
 * the point-to-point engine (p2p.c); collectives are expanded into them
 * (coll.c).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "core/rng.h"
#include "core/steps.h"
#include "mpi/mpi_internal.h"
#include "topo/topo.h"

/* ---- small helpers ----------------------------------------------------- */

void dmpi_fail(struct dmpi *m, const char *fmt, ...)
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

int dmpi_grow(void **arr, uint32_t *cap, size_t size, uint32_t need)
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

/* The counter of `peer` in map s (created at 0; valid until the map's
 * next new peer). */
uint32_t *dmpi_seq_slot(struct dmpi *m, struct keymap *s, uint32_t peer)
{
    uint32_t *v = keymap_get(s, peer);
    if (v)
        return v;
    if (keymap_put(s, peer, 0) != 0) {
        dmpi_fail(m, "out of memory for MPI sequence numbers");
        return NULL;
    }
    return keymap_get(s, peer);
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

/* ---- the rank's program ------------------------------------------------ */

static bool coll_code(uint8_t c)
{
    return c >= DMPI_BARRIER && c <= DMPI_ALLTOALL;
}

/* Rank g's collective `op` over its program's communicator op->req
 * (struct dmpi_app.comm): the schedule of the communicator's size for
 * the rank's place in it, its peers made job ranks, its messages tagged
 * op->tag. 0 (the expansion is the rank's current), or -1 (the run
 * fails). */
static int coll_over_comm(struct dmpi *m, uint32_t g, const struct dmpi_op *op)
{
    struct dmpi_rank *rk = &m->rank[g];
    const struct dmpi_app *a = &m->job[rk->job].app;
    struct dmpi_comm c;
    uint32_t nr = m->job_first[rk->job + 1] - m->job_first[rk->job];
    if (!a->comm || !a->comm(a->ctx, rk->r, op->req, &c) || c.me >= c.size ||
        (op->code == DMPI_BCAST || op->code == DMPI_REDUCE
             ? op->peer >= c.size : false)) {
        dmpi_fail(m, "rank %u of job %u: a collective over communicator %u, "
                     "which its program does not define (or a root outside "
                     "it)", rk->r, rk->job, op->req);
        return -1;
    }
    uint32_t need;
    while ((need = dmpi_coll_expand(&m->p.coll, op, c.me, c.size, 0,
                                    rk->coll, rk->coll_cap)) > rk->coll_cap)
        if (dmpi_grow((void **)&rk->coll, &rk->coll_cap, sizeof *rk->coll,
                      need) != 0) {
            dmpi_fail(m, "out of memory for a collective");
            return -1;
        }
    for (uint32_t i = 0; i < need; i++) {
        struct dmpi_op *o = &rk->coll[i];
        if (o->code != DMPI_ISEND && o->code != DMPI_IRECV)
            continue;
        if (o->peer >= c.size || c.member[o->peer] >= nr) {
            dmpi_fail(m, "rank %u of job %u: communicator %u names a rank "
                         "outside the job", rk->r, rk->job, op->req);
            return -1;
        }
        o->peer = c.member[o->peer];
        o->tag = op->tag;
    }
    rk->coll_code = op->code;
    rk->n_coll = need;
    rk->cpos = 0;
    rk->in_coll = true;
    return 0;
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
            if (op->req)
                return coll_over_comm(m, g, op) == 0 ? current(m, g) : NULL;
            uint32_t nr = m->job_first[rk->job + 1] - m->job_first[rk->job];
            /* a collective becomes this rank's part of the point-to-point
             * schedule MPICH would run (coll.c), expanded when the rank
             * reaches it: its algorithm depends on the size and the job's rank
             * count only, so every rank expands the same schedule
             * independently */
            uint32_t need = dmpi_coll_expand(&m->p.coll, op, rk->r, nr,
                                             rk->coll_seq, rk->coll,
                                             rk->coll_cap);
            if (need > rk->coll_cap) {
                if (dmpi_grow((void **)&rk->coll, &rk->coll_cap,
                              sizeof *rk->coll, need) != 0) {
                    dmpi_fail(m, "out of memory for a collective");
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
        /* the program comes from the workload in batches (BATCH operations at
         * most): a rank's whole run is never held in memory, only what it is
         * about to do */
        rk->n_ops = a->next(a->ctx, rk->r, rk->ops, rk->cap);
        rk->pos = 0;
        if (rk->n_ops == 0) {
            const char *why = a->why ? a->why(a->ctx, rk->r) : NULL;
            if (why)
                dmpi_fail(m, "rank %u of job %u: %s", rk->r, rk->job, why);
            return NULL;
        }
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
        dmpi_fail(m, "rank %u of job %u names rank %u; the job has %u", rk->r,
                  rk->job, peer, nr);
        return NONE;
    }
    return m->job_first[rk->job] + peer;
}

/* Whether rank g runs here: its NIC's router is this partition's (every
 * rank outside a split run). */
static bool rank_here(const struct dmpi *m, uint32_t g)
{
    return net_owns(m->n, m->t->nics[m->rank[g].nic].router);
}

static void start_job(struct dmpi *m, uint32_t j, simtime at)
{
    m->res[j].start = at;
    for (uint32_t g = m->job_first[j]; g < m->job_first[j + 1]; g++)
        if (rank_here(m, g))
            resume_at(m, g, at);
}

/* Job j's followers that wait for its end (after_marks false) or for its
 * marks (true) start their offset after `at`, not before `floor`. */
static void start_followers(struct dmpi *m, uint32_t j, bool marks,
                            simtime at, simtime floor)
{
    for (uint32_t i = m->follow_first[j]; i < m->follow_first[j + 1];
         i++, steps_add(1)) {
        uint32_t k = m->follow[i];
        if (m->job[k].after_marks != marks)
            continue;
        simtime t = at + m->job[k].start;
        start_job(m, k, t > floor ? t : floor);
    }
}

/* One more rank of job j has marked release_k[j] iterations, or ended
 * short of them: when none is left, the followers that wait for those
 * marks start their offset later, in job order. */
static void release_tick(struct dmpi *m, uint32_t j)
{
    if (m->split) { /* counted here, summed at the window's end */
        m->part[j].marked++;
        m->part[j].marked_at = now(m);
        m->part_events++;
        return;
    }
    if (--m->release_left[j] != 0)
        return;
    if (m->on_release)
        m->on_release(m->release_ctx, j);
    start_followers(m, j, true, now(m), 0);
}

static void rank_end(struct dmpi *m, uint32_t g)
{
    struct dmpi_rank *rk = &m->rank[g];
    rk->wait = W_DONE;
    if (m->release_k[rk->job] && rk->n_marks < m->release_k[rk->job])
        release_tick(m, rk->job);
    struct dmpi_job_result *res = &m->res[rk->job];
    res->rank_end[rk->r] = now(m);
    if (m->split) { /* counted here, summed at the window's end */
        m->part[rk->job].ended++;
        m->part[rk->job].end_at = now(m);
        m->part_events++;
        return;
    }
    uint32_t first = m->job_first[rk->job], last = m->job_first[rk->job + 1];
    for (uint32_t i = first; i < last; i++)
        if (m->rank[i].wait != W_DONE)
            return;
    res->finished = true;
    res->end = now(m);
    if (m->on_job)
        m->on_job(m->job_ctx, rk->job, true);
    /* a chained job starts its offset after the job it follows has ended
     * (a production sequence on the same nodes); its followers in job
     * order, as a scan of every job found them */
    start_followers(m, rk->job, false, now(m), 0);
    /* the run ends when the last foreground job does: background jobs (the
     * congestors) run until then, as GPCNeT's congestors loop while the
     * canary tests run */
    if (!m->job[rk->job].background && --m->fg_left == 0)
        sim_stop(m->s);
}

void dmpi_split_apply(struct dmpi *m, const struct dmpi_part_job *sum,
                      simtime T)
{
    for (uint32_t j = 0; j < m->n_jobs; j++) {
        struct dmpi_job_result *res = &m->res[j];
        uint32_t nr = res->n_ranks;
        if (m->release_k[j] && !m->released[j] && sum[j].marked == nr) {
            m->released[j] = true;
            start_followers(m, j, true, sum[j].marked_at, T);
        }
        if (res->finished || sum[j].ended != nr)
            continue;
        res->finished = true;
        res->end = sum[j].end_at;
        start_followers(m, j, false, res->end, T);
        if (!m->job[j].background)
            m->fg_left--;
    }
}

static void mark(struct dmpi *m, uint32_t g, uint64_t iter)
{
    struct dmpi_rank *rk = &m->rank[g];
    (void)iter;
    if (dmpi_grow((void **)&rk->marks, &rk->marks_cap, sizeof *rk->marks,
                  rk->n_marks + 1) != 0) {
        dmpi_fail(m, "out of memory for iteration marks");
        return;
    }
    rk->marks[rk->n_marks++] = (struct rank_mark){ now(m), rk->t_len };
    rk->t_len = SIMTIME_MAX;
    if (rk->n_marks == m->release_k[rk->job])
        release_tick(m, rk->job);
    if (m->on_mark)
        m->on_mark(m->mark_ctx, rk->job, rk->r, rk->n_marks - 1);
}

/* Before rank g posts `bytes` to global rank `peer` over the network,
 * the congestion controller may put it to sleep (Netscope's MPI wrapper,
 * ctl/netscope.c): true if it sleeps now (resumed later, to ask again). A
 * message to a rank of its own node does not reach the NIC and does not
 * sleep. */
static bool cc_sleeps(struct dmpi *m, uint32_t g, uint32_t peer,
                      uint64_t bytes)
{
    struct dmpi_rank *rk = &m->rank[g];
    /* Netscope's wrapper delays "consecutive message requests sent out by
     * every application process" (ICS'21 §5); a message through shared
     * memory never reaches the NIC, so it is not delayed (inferred) */
    if (peer == NONE || m->rank[peer].node == rk->node)
        return false;
    /* asked once per call; a rank woken from its sleep asks whether the
     * sleep under way is over (a rate change may have stretched it) rather
     * than starting another */
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
    /* LogP's o: the host's overhead for the call, paid before the message
     * goes (250 ns, from the XC white paper's 1.3 us for an 8-byte MPI
     * message against 0.8 us for a put: 0.5 us of MPI software, split
     * between sender and receiver; docs/mpi.md) */
    rk->paid = true;
    resume_at(m, g, now(m) + host_time(m, g, m->p.o_send));
    return true;
}

/* Rank g's handle h made ready for a new request: 0, or -1 (the run
 * fails) when h is still open — a program error, two requests under one
 * handle — or out of memory. */
static int handle_slot(struct dmpi *m, uint32_t g, uint32_t h)
{
    struct dmpi_rank *rk = &m->rank[g];
    if (h >= rk->hreq_cap) {
        uint32_t old = rk->hreq_cap;
        if (dmpi_grow((void **)&rk->hreq, &rk->hreq_cap, sizeof *rk->hreq,
                      h + 1) != 0) {
            dmpi_fail(m, "out of memory for MPI request handles");
            return -1;
        }
        for (uint32_t i = old; i < rk->hreq_cap; i++)
            rk->hreq[i] = NONE;
    }
    if (rk->hreq[h] != NONE) {
        dmpi_fail(m, "rank %u of job %u posts request handle %u while its "
                     "request is still open", rk->r, rk->job, h);
        return -1;
    }
    return 0;
}

/* DMPI_WAIT: rank g waits for its request of handle h. True when it
 * stops here (the request is open, or receive overheads are owed). */
static bool wait_handle(struct dmpi *m, uint32_t g, uint32_t h, bool more)
{
    struct dmpi_rank *rk = &m->rank[g];
    advance(rk);
    rk->wait_more = more;
    if (h && h < rk->hreq_cap && rk->hreq[h] != NONE) {
        rk->wait = W_REQ;
        rk->wait_req = rk->hreq[h];
        return true;
    }
    if (rk->debt && !more) { /* complete: its receive overheads to pay */
        wake(m, g);
        return true;
    }
    return false;
}

/* A send or receive call (blocking or not) of rank g: its request,
 * posted. True when the rank stops here (it waits, or the run failed). */
static bool call_p2p(struct dmpi *m, uint32_t g, const struct dmpi_op *op)
{
    struct dmpi_rank *rk = &m->rank[g];
    bool send = op->code == DMPI_SEND || op->code == DMPI_ISEND;
    uint32_t peer = peer_id(m, rk, op->peer);
    if (m->error)
        return true;
    if (send && peer == NONE) {
        dmpi_fail(m, "rank %u of job %u sends to any source", rk->r,
                  rk->job);
        return true;
    }
    if (op->bytes == 0 && send) {
        dmpi_fail(m, "rank %u of job %u sends 0 bytes (the network "
                     "carries messages of 1 byte or more)",
                  rk->r, rk->job);
        return true;
    }
    if (send && call_waits(m, g, peer, op->bytes))
        return true;
    bool blocking = op->code == DMPI_SEND || op->code == DMPI_RECV;
    uint32_t h = blocking ? 0 : op->req;
    if (h && handle_slot(m, g, h) != 0)
        return true;
    uint32_t id = req_new(m);
    if (id == NONE)
        return true;
    m->req[id] = (struct dmpi_req){
        .next = NONE, .rank = g, .peer = peer, .tag = op->tag,
        .bytes = op->bytes, .xfer = NONE, .handle = h,
        .kind = send ? R_SEND : R_RECV
    };
    if (h)
        rk->hreq[h] = id;
    else
        rk->open++;
    advance(rk);
    if (blocking) { /* wait for this one (it may finish at once) */
        rk->wait = W_REQ;
        rk->wait_req = id;
    }
    if (send)
        p2p_send_start(m, g, id, peer, op->tag, op->bytes);
    else
        p2p_recv_post(m, g, id);
    if (blocking)
        return true; /* req_done wakes it, perhaps already has */
    return false;
}

/* A one-sided PUT or GET of rank g: a transfer without requests,
 * complete at the next flush. True when the rank stops here. */
static bool call_rma(struct dmpi *m, uint32_t g, const struct dmpi_op *op)
{
    struct dmpi_rank *rk = &m->rank[g];
    uint32_t peer = peer_id(m, rk, op->peer);
    if (m->error)
        return true;
    if (peer == NONE || op->bytes == 0) {
        dmpi_fail(m, "rank %u of job %u: a one-sided call needs a target "
                     "rank and 1 byte or more", rk->r, rk->job);
        return true;
    }
    if (call_waits(m, g, peer, op->bytes))
        return true;
    uint32_t xid = xf_new(m);
    if (xid == NONE)
        return true;
    m->xf[xid] = (struct dmpi_xfer){ .next = NONE, .src = g,
                                     .dst = peer, .bytes = op->bytes,
                                     .sreq = NONE, .rreq = NONE,
                                     .far = XF_NONE, .rma = 1 };
    rk->rma_open++;
    struct dmpi_job_result *res = &m->res[rk->job];
    res->msgs++; /* a one-sided call moves data too */
    res->bytes += op->bytes;
    bool put = op->code == DMPI_PUT;
    advance(rk);
    p2p_send_later(m, xid, put ? K_RMA_PUT : K_RMA_GET);
    return false;
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
                simtime d = op->arg;
                if (m->p.compute_scale != 1.0) /* 1.0: not a double op */
                    d = (simtime)llround((double)d * m->p.compute_scale);
                resume_at(m, g, now(m) + host_time(m, g, d));
                return;
            }
            break;
        case DMPI_SEND:
        case DMPI_ISEND:
        case DMPI_RECV:
        case DMPI_IRECV:
            if (call_p2p(m, g, op))
                return;
            break;
        case DMPI_WAITALL:
            advance(rk);
            if (rk->open) {
                rk->wait = W_ALL;
                return;
            }
            /* every request is complete, but the receive overheads (and eager
             * copies) they left are still to pay before the rank runs on */
            if (rk->debt) {
                wake(m, g);
                return;
            }
            break;
        case DMPI_WAIT:
            if (wait_handle(m, g, op->req, op->arg & 1))
                return;
            break;
        case DMPI_PUT:
        case DMPI_GET:
            if (call_rma(m, g, op))
                return;
            break;
        /* MPI_Win_flush: the one-sided operations started so far are complete
         * (a PUT acknowledged, a GET's data back) */
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
        /* the workload's own timer (its MPI_Wtime pair): the interval it
         * reports for the iteration, a barrier before it excluded */
        case DMPI_TSTART:
            rk->t_start = now(m);
            advance(rk);
            break;
        case DMPI_TSTOP:
            rk->t_len = now(m) - rk->t_start;
            advance(rk);
            break;
        default:
            dmpi_fail(m, "rank %u of job %u: unknown operation %u", rk->r,
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
        p2p_inject(m, e->arg);
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

/* ---- setup ------------------------------------------------------------- */

/* The chained jobs grouped by the job they follow, each group in job
 * order (m->follow_first, m->follow), so that a job's end starts its
 * followers without a look at every job (issue 57: 12,000 chained jobs).
 * 0, or -1 out of memory. */
static int followers_init(struct dmpi *m)
{
    uint32_t n = m->n_jobs;
    m->follow_first = calloc(n + 1, sizeof *m->follow_first);
    m->follow = malloc((n ? n : 1) * sizeof *m->follow);
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);
    if (!m->follow_first || !m->follow || !at) {
        free(at);
        return -1;
    }
    for (uint32_t j = 0; j < n; j++)
        if (m->job[j].chained)
            m->follow_first[m->job[j].after + 1]++;
    for (uint32_t j = 0; j < n; j++) {
        m->follow_first[j + 1] += m->follow_first[j];
        at[j] = m->follow_first[j];
    }
    for (uint32_t j = 0; j < n; j++)
        if (m->job[j].chained)
            m->follow[at[m->job[j].after]++] = j;
    steps_add(3 * (uint64_t)n);
    free(at);
    m->release_k = calloc(n ? n : 1, sizeof *m->release_k);
    m->release_left = calloc(n ? n : 1, sizeof *m->release_left);
    if (!m->release_k || !m->release_left)
        return -1;
    return 0;
}

/* Each job's release_k from its followers' after_marks; 0, or -1 after
 * reporting two followers that wait for different numbers of marks. */
static int release_init(struct dmpi *m, struct diag *d)
{
    for (uint32_t j = 0; j < m->n_jobs; j++) {
        const struct dmpi_job_spec *js = &m->job[j];
        if (!js->chained || !js->after_marks)
            continue;
        uint32_t *k = &m->release_k[js->after];
        if (*k && *k != js->after_marks) {
            diag_error(d, NULL, 0, "jobs", "job %s: waits for %u marks of "
                       "job %s, another follower for %u; expected one "
                       "number", js->name, js->after_marks,
                       m->job[js->after].name, *k);
            return -1;
        }
        *k = js->after_marks;
        m->release_left[js->after] =
            m->job[js->after].n_nodes * m->job[js->after].ppn;
    }
    return 0;
}

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
    m->split = n->xp != NULL;
    m->part = calloc(n_jobs ? n_jobs : 1, sizeof *m->part);
    m->released = calloc(n_jobs ? n_jobs : 1, sizeof *m->released);
    if (!m->rank || !m->job_first || !m->job || !m->res || !m->part ||
        !m->released)
        goto oom;
    memcpy(m->job, spec, n_jobs * sizeof *spec);
    if (followers_init(m) != 0)
        goto oom;
    if (release_init(m, d) != 0) {
        dmpi_free(m);
        return -1;
    }
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
            /* ranks fill a node before the next (block placement, ppn per
             * node), its NICs dealt to them in blocks (topo_rank_nic) */
            rk->node = js->nodes[r / js->ppn];
            if (m->p.noise_period) { /* the node's, every rank of it */
                struct rng ns = rng_stream(m->p.noise_seed, RNG_NOISE,
                                           rk->node);
                rk->noise_phase = rng_u64(&ns) % m->p.noise_period;
            }
            rk->nic = topo_rank_nic(t, rk->node, r % js->ppn, js->ppn);
            rk->entity = net_nic_entity(n, rk->nic);
            rk->posted_head = rk->posted_tail = NONE;
            rk->unexp_head = rk->unexp_tail = rk->early_head = NONE;
            rk->t_len = SIMTIME_MAX;
            if (!rank_here(m, g))
                continue; /* another partition's: never runs here */
            rk->cap = BATCH;
            rk->ops = malloc(BATCH * sizeof *rk->ops);
            if (!rk->ops)
                goto oom;
        }
        if (!js->background)
            m->fg_left++;
    }
    m->job_first[n_jobs] = g;
    p2p_hooks(m);
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
                /* An iteration ends when its last rank marks it: the
                 * per-iteration time is the maximum over ranks, as GPCNeT and
                 * the SC'20 study report it — unless the workload timed an
                 * interval itself (its own MPI_Wtime pair), the longest one
                 * any rank measured. */
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

void dmpi_pack(const struct dmpi *m, struct pack *p)
{
    for (uint32_t j = 0; j < m->n_jobs; j++) {
        const struct dmpi_job_result *r = &m->res[j];
        pack_u64(p, r->msgs);
        pack_u64(p, r->bytes);
        pack_u64(p, r->msg_time);
        pack_u64(p, r->msg_timed);
        pack_u64(p, r->started);
        pack_u64(p, r->n_paths);
        pack_bytes(p, r->paths, r->n_paths * sizeof *r->paths);
        uint64_t here = 0;
        for (uint32_t g = m->job_first[j]; g < m->job_first[j + 1]; g++)
            here += rank_here(m, g);
        pack_u64(p, here);
        for (uint32_t g = m->job_first[j]; g < m->job_first[j + 1]; g++) {
            if (!rank_here(m, g))
                continue;
            const struct dmpi_rank *rk = &m->rank[g];
            pack_u64(p, rk->r);
            pack_u64(p, r->rank_end[rk->r]);
            pack_u64(p, rk->n_marks);
            pack_bytes(p, rk->marks, rk->n_marks * sizeof *rk->marks);
        }
    }
}

/* One job's packed results added into m's (dmpi_unpack_add). */
static int unpack_job(struct dmpi *m, uint32_t j, struct unpack *u)
{
    struct dmpi_job_result *a = &m->res[j];
    a->msgs += unpack_u64(u);
    a->bytes += unpack_u64(u);
    a->msg_time += unpack_u64(u);
    a->msg_timed += unpack_u64(u);
    a->started = unpack_u64(u) != 0 || a->started;
    uint64_t np = unpack_u64(u);
    if (np > UINT32_MAX)
        return -1;
    if (np > a->n_paths) {
        if (dmpi_grow((void **)&a->paths, &a->paths_cap, sizeof *a->paths,
                      (uint32_t)np) != 0)
            return -1;
        memset(&a->paths[a->n_paths], 0,
               (size_t)(np - a->n_paths) * sizeof *a->paths);
        a->n_paths = (uint32_t)np;
    }
    for (uint64_t k = 0; k < np && !u->bad; k++) {
        struct dmpi_paths w;
        unpack_bytes(u, &w, sizeof w);
        dmpi_paths_add(&a->paths[k], &w);
    }
    uint64_t here = unpack_u64(u);
    for (uint64_t i = 0; i < here && !u->bad; i++) {
        uint64_t r = unpack_u64(u), end = unpack_u64(u), n = unpack_u64(u);
        if (r >= a->n_ranks || n > UINT32_MAX)
            return -1;
        struct dmpi_rank *rk = &m->rank[m->job_first[j] + r];
        a->rank_end[r] = end;
        if (dmpi_grow((void **)&rk->marks, &rk->marks_cap,
                      sizeof *rk->marks, (uint32_t)n) != 0)
            return -1;
        unpack_bytes(u, rk->marks, n * sizeof *rk->marks);
        rk->n_marks = (uint32_t)n;
    }
    return u->bad ? -1 : 0;
}

int dmpi_unpack_add(struct dmpi *m, struct unpack *u)
{
    for (uint32_t j = 0; j < m->n_jobs; j++)
        if (unpack_job(m, j, u) != 0)
            return -1;
    return 0;
}

int dmpi_waits_on(struct dmpi *m)
{
    for (uint32_t j = 0; j < m->n_jobs; j++)
        if (!m->res[j].waits &&
            !(m->res[j].waits = calloc(1, sizeof *m->res[j].waits)))
            return -1;
    p2p_waits_hook(m);
    return 0;
}

void dmpi_free(struct dmpi *m)
{
    for (uint32_t i = 0; m->rank && i < m->n_ranks; i++) {
        struct dmpi_rank *rk = &m->rank[i];
        free(rk->ops);
        free(rk->coll);
        free(rk->hreq);
        free(rk->marks);
        keymap_free(&rk->send_seq);
        keymap_free(&rk->recv_seq);
    }
    for (uint32_t j = 0; m->res && j < m->n_jobs; j++) {
        free(m->res[j].rank_end);
        free(m->res[j].iter_end);
        free(m->res[j].iter_time);
        free(m->res[j].paths);
        free(m->res[j].waits);
    }
    free(m->rank);
    free(m->job_first);
    free(m->job);
    free(m->follow_first);
    free(m->follow);
    free(m->release_k);
    free(m->release_left);
    free(m->part);
    free(m->released);
    free(m->res);
    free(m->req);
    free(m->xf);
    keymap_free(&m->env);
    memset(m, 0, sizeof *m);
}
