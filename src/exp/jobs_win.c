/* exp/jobs_win.c — a run of jobs in windows, dealt over P partitions
 * (issue 54; jobs_output.partitions).
 *
 * Each partition is a set-up of its own (exp/jobs_internal.h): every
 * job placed and every workload initialised as in one process, the
 * whole network built and its part run (net/xpart.h), and the MPI layer
 * running the ranks of its partition's NICs (mpi/mpi.h, struct dmpi
 * .split). Time goes in windows on the grid of traffic_win.c (W, the
 * least wire latency of a link between two units: every event that
 * crosses a cut is at least that late), cut also at the measured
 * window's opening (the offered load's t0) and past the limit. At each
 * window's end the partitions exchange what crossed: packets, credit
 * returns and the MPI envelopes mailed to another partition's ranks
 * (an envelope goes when its message leaves the host; the message
 * crosses a cut, so it arrives a window later at the earliest). Then
 * they sum what the jobs' rules read, and act on it, every partition
 * the same, in job order (docs/parallel-inventory.md):
 *  - a job is over when every rank has ended (M8), at its last rank's
 *    end; a job that follows it starts its offset after that end, or at
 *    the window's end if that is past (M9);
 *  - GPCNeT's release (M9b) likewise, from the ranks' k-th marks;
 *  - the run stops at the end of the window in which the last foreground
 *    job ended (M10): the background jobs run to that window's end.
 * These are the rules of a windowed run, the same for one partition and
 * for many (so P = 1 is the reference); the one-process run
 * (exp/jobs.c) acts at the instant instead.
 *
 * At the end the partitions' results are added into the first local
 * one's (merge): per job its messages, bytes, message times and packet
 * counts; each rank's marks and end from its own partition; the
 * controllers' bytes per mode; the SC'19 model from its rank 0's
 * partition; the offered load's sums. The writer then sees one run.
 * Over MPI (one partition a rank) the results travel as the same bytes,
 * all-gathered (spread): every rank holds the whole run's; the first
 * writes.
 *
 * An observer (an impact study's latency model and NIC samples, I1)
 * reads a view of the whole machine's counters at its instants, which
 * cut the windows (net/xview.h): every process the same view, so the
 * same readings.
 *
 * The run's counters (LDMS samples, the per-job links report: S1, J1)
 * read the same view at their instants, which cut the windows too: a
 * sample every interval, a job's links at its start; at its end, at the
 * window's end that finds it over. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "core/time.h"
#include "exp/jobs_internal.h"
#include "exp/xchange.h"
#include "net/partition.h"
#include "net/xview.h"

_Static_assert(sizeof(struct dmpi_env) <= sizeof(struct xp_mail),
               "an envelope fits a mail record");

struct jw {
    struct xchange x;
    struct partition pt;
    int dim;
    simtime W, at;
    struct setup **u;        /* [x.k]: this process's partitions */
    struct net **nets;       /* [x.k]: their networks */
    struct jobs_part *part;  /* [x.k] */
    struct dmpi_part_job *sum; /* [jobs]: the window's sums */
    uint64_t events;         /* ends and release marks acted on so far */
    double t0, shown;        /* wall: the run's start, the last line */
    const struct jobs_observer *obs; /* or NULL */
    struct net_view view;    /* what it and the counters read: the whole
                                machine's counters at their instants
                                (net/xview.h) */
    simtime obs_next;        /* its next instant (SIMTIME_MAX: none) */
    /* the run's counters (exp/job_counters.h; S1, J1): the samples every
     * interval up to `until`, each job's links at its start and end; on
     * the first process only (ctr), every process refreshing the view */
    const struct job_counters_params *cp; /* or NULL */
    struct job_counters *ctr; /* the first process's, or NULL */
    bool links;              /* the links report is on */
    simtime sample_next, sample_every, sample_until;
    uint8_t *snap;           /* [job]: 1 start taken, 2 end taken; 3
                                never (a fill's job: not reported) */
};

/* ---- the MPI layer's mail --------------------------------------------- */

/* An envelope of partition u's layer to its receiver's partition: at
 * once if it is this one, else in the window's mail. */
static void mail_out(void *ctx, const struct dmpi_env *e)
{
    struct setup *u = ctx;
    struct net *n = &u->net;
    uint32_t nic = dmpi_rank_nic(&u->m, e->dst);
    uint32_t part = n->xp->part_of[n->t->nics[nic].router];
    if (part == n->xp->me) {
        dmpi_env_in(&u->m, e);
        return;
    }
    struct xp_mail mail;
    memset(&mail, 0, sizeof mail);
    memcpy(&mail, e, sizeof *e);
    net_xp_mail(n, part, &mail);
}

static void mail_in(void *ctx, const struct xp_mail *mail)
{
    struct setup *u = ctx;
    struct dmpi_env e;
    memcpy(&e, mail, sizeof e);
    dmpi_env_in(&u->m, &e);
}

/* ---- windows ------------------------------------------------------------ */

/* The sums the loop reads at a window's end. */
enum { S_BAD, S_ERR, S_INTR, S_QUEUED, S_EVENTS, S_COUNT };

/* Run every local partition to the window's end `to`, exchange, and sum
 * v[S_*]; *next: the earliest event left in any partition (SIMTIME_MAX:
 * none). */
static void window(struct jw *w, simtime to, uint64_t *v, simtime *next)
{
    memset(v, 0, S_COUNT * sizeof *v);
    uint64_t first = SIMTIME_MAX;
    double t0 = time_wall_seconds();
    for (uint32_t i = 0; i < w->x.k; i++) {
        struct setup *u = w->u[i];
        if (!sim_run_before(&u->s, to) && sim_interrupt && !u->m.error &&
            !sim_failed(&u->s))
            v[S_INTR] = 1;
    }
    w->x.compute_s += time_wall_seconds() - t0;
    if (xchange_boxes(&w->x, w->nets) != 0)
        v[S_BAD] = 1;
    for (uint32_t i = 0; i < w->x.k; i++) {
        const struct setup *u = w->u[i];
        if (u->net.xp->oom || sim_failed(&u->s) || u->mr.oom)
            v[S_BAD] = 1;
        if (u->m.error)
            v[S_ERR] = 1;
        v[S_QUEUED] += evq_size(&u->s.q);
        v[S_EVENTS] += u->m.part_events;
        if (evq_size(&u->s.q) && evq_peek(&u->s.q)->time < first)
            first = evq_peek(&u->s.q)->time;
    }
    xchange_reduce(&w->x, v, S_COUNT, &first, 1);
    *next = first;
    w->at = to;
    /* exact ticks (N8, C1), a machine-wide one's input summed (C2) */
    if (net_xp_next_tick(w->nets[0]) == to)
        net_cc_take_ticks_split(w->nets, w->x.k, to, xchange_sum1, &w->x);
}

/* The jobs' rules at the window's end: the sums of every partition's
 * counts, acted on by each. Only when something was counted since the
 * last time (most windows: nothing). 0, or -1 out of memory. */
static int jobs_rules(struct jw *w, uint64_t events)
{
    if (events == w->events)
        return 0;
    w->events = events;
    const struct dmpi *m0 = &w->u[0]->m;
    uint32_t nj = m0->n_jobs;
    /* counts summed, latest times as minima of their complements */
    uint64_t *v = calloc(4 * (size_t)(nj ? nj : 1), sizeof *v);
    if (!v)
        return -1;
    uint64_t *c = v, *t = v + 2 * nj;
    for (uint32_t j = 0; j < nj; j++)
        t[2 * j] = t[2 * j + 1] = UINT64_MAX;
    for (uint32_t i = 0; i < w->x.k; i++)
        for (uint32_t j = 0; j < nj; j++) {
            const struct dmpi_part_job *p = &w->u[i]->m.part[j];
            c[2 * j] += p->ended;
            c[2 * j + 1] += p->marked;
            if (UINT64_MAX - p->end_at < t[2 * j])
                t[2 * j] = UINT64_MAX - p->end_at;
            if (UINT64_MAX - p->marked_at < t[2 * j + 1])
                t[2 * j + 1] = UINT64_MAX - p->marked_at;
        }
    xchange_reduce(&w->x, c, 2 * nj, t, 2 * nj);
    for (uint32_t j = 0; j < nj; j++)
        w->sum[j] = (struct dmpi_part_job){
            .ended = c[2 * j], .end_at = UINT64_MAX - t[2 * j],
            .marked = c[2 * j + 1], .marked_at = UINT64_MAX - t[2 * j + 1] };
    free(v);
    for (uint32_t i = 0; i < w->x.k; i++)
        dmpi_split_apply(&w->u[i]->m, w->sum, w->at);
    return 0;
}

/* The next instant the counters read at after w->at: a sample, or a
 * job's start not yet read (SIMTIME_MAX: none). */
static simtime counters_next(const struct jw *w)
{
    simtime t = w->sample_next;
    const struct dmpi *m = &w->u[0]->m;
    for (uint32_t j = 0; w->links && j < m->n_jobs; j++)
        if (!w->snap[j] && m->res[j].start != SIMTIME_MAX &&
            m->res[j].start > w->at && m->res[j].start < t)
            t = m->res[j].start;
    return t;
}

/* The next window's end after w->at: the grid's, or t0, or just past
 * the limit (events at the limit run, as in one process). Windows with
 * no event before `next` (the earliest left anywhere) are skipped whole,
 * grid points and all (YAWNS: nothing can cross before it), unless t0 or
 * the limit comes first. */
static simtime next_end(const struct jw *w, simtime t0, simtime limit,
                        simtime next)
{
    simtime past = limit == SIMTIME_MAX ? SIMTIME_MAX : limit + 1;
    /* the instants read or acted at: the window's opening, past the
     * limit, the rate controllers' next tick */
    const simtime cut[] = { t0, past, net_xp_next_tick(w->nets[0]),
                            w->obs_next, counters_next(w) };
    enum { N_CUT = sizeof cut / sizeof *cut };
    simtime at = w->at, skip = next / w->W * w->W;
    for (int i = 0; i < N_CUT; i++)
        if (cut[i] > at && cut[i] < skip)
            skip = at;
    if (skip > at)
        at = skip;
    simtime b = (at / w->W + 1) * w->W;
    for (int i = 0; i < N_CUT; i++)
        if (cut[i] > at && cut[i] < b)
            b = cut[i];
    return b;
}

/* A progress line every 2 s of wall time. */
static void show(struct jw *w, FILE *progress)
{
    double now = time_wall_seconds();
    if (!progress || now - w->shown < 2.0)
        return;
    const struct dmpi *m = &w->u[0]->m;
    uint32_t ended = 0;
    for (uint32_t j = 0; j < m->n_jobs; j++)
        ended += m->res[j].finished;
    fprintf(progress, "  %.1f us simulated, %u of %u jobs ended, %.0f s "
                      "(%u partitions)\n",
            (double)w->at / (double)SIMTIME_US, ended, m->n_jobs,
            now - w->t0, w->x.P);
    w->shown = now;
}

static void view_pack(void *ctx, uint32_t i, struct pack *p)
{
    struct jw *w = ctx;
    net_view_pack(w->nets[i], p);
}

static int view_add(void *ctx, uint32_t part, struct unpack *u)
{
    struct jw *w = ctx;
    return net_view_add(&w->view, part, u);
}

/* The view of the whole machine's counters at w->at: every partition's
 * (spread). 0, or -1. */
static int view_refresh(struct jw *w)
{
    net_view_at(&w->view, w->at);
    return xchange_spread(&w->x, true, w, view_pack, view_add);
}

/* The observer at w->at (closing: the run's end), on the view. */
static int observe(struct jw *w, bool closing)
{
    if (!w->obs)
        return 0;
    if (view_refresh(w) != 0)
        return -1;
    w->obs->at(w->obs->ctx, &w->view.n, closing);
    return 0;
}

/* The counters at w->at (every process alike; the first reads): the
 * links of the jobs that start now (before their first events) and of
 * those found over at this window's end (inventory J1: at the window's
 * end, not the instant), and a sample if one is due (S1). 0, or -1. */
static int counters_at(struct jw *w)
{
    if (!w->cp)
        return 0;
    const struct dmpi *m = &w->u[0]->m;
    bool due = w->at == w->sample_next;
    for (uint32_t j = 0; w->links && j < m->n_jobs; j++)
        due = due || (!w->snap[j] && m->res[j].start == w->at) ||
              (w->snap[j] == 1 && m->res[j].finished);
    if (!due)
        return 0;
    if (view_refresh(w) != 0)
        return -1;
    for (uint32_t j = 0; w->links && j < m->n_jobs; j++) {
        if (!w->snap[j] && m->res[j].start == w->at) {
            w->snap[j] = 1;
            if (w->ctr)
                job_counters_on_job(w->ctr, j, false);
        }
        if (w->snap[j] == 1 && m->res[j].finished) {
            w->snap[j] = 2;
            if (w->ctr)
                job_counters_on_job(w->ctr, j, true);
        }
    }
    if (w->at == w->sample_next) {
        if (w->ctr)
            sampler_sample_now(&w->ctr->sm);
        w->sample_next = w->sample_next + w->sample_every < w->sample_until
                             ? w->sample_next + w->sample_every
                             : SIMTIME_MAX;
    }
    return 0;
}

/* Windows until the foreground jobs are over, past the limit, nothing is
 * left to run, or a failure. 0, -1 (out of memory or an MPI error,
 * reported by the caller) or SIM_INTERRUPTED. */
static int run_windows(struct jw *w, simtime t0, simtime limit,
                       FILE *progress)
{
    uint64_t v[S_COUNT];
    simtime next = 0;
    bool opened = t0 == 0;
    w->obs_next = SIMTIME_MAX;
    if (opened) {
        for (uint32_t i = 0; i < w->x.k; i++)
            offered_start(&w->u[i]->off, 0);
        if (observe(w, false) != 0) /* the observer's first look */
            return -1;
        if (w->obs && w->obs->period)
            w->obs_next = w->obs->period;
    }
    if (counters_at(w) != 0) /* the jobs that start at 0 */
        return -1;
    while (!dmpi_done(&w->u[0]->m) &&
           (limit == SIMTIME_MAX || w->at <= limit)) {
        window(w, next_end(w, t0, limit, next), v, &next);
        if (v[S_BAD] || v[S_ERR])
            return -1;
        if (v[S_INTR])
            return SIM_INTERRUPTED;
        if (!opened && w->at == t0) { /* the measured window opens */
            opened = true;
            for (uint32_t i = 0; i < w->x.k; i++)
                offered_start(&w->u[i]->off, t0);
            if (observe(w, false) != 0)
                return -1;
            if (w->obs && w->obs->period)
                w->obs_next = t0 + w->obs->period;
        }
        uint64_t before = w->events;
        if (jobs_rules(w, v[S_EVENTS]) != 0)
            return -1;
        for (uint32_t i = 0; i < w->x.k; i++)
            if (w->u[i]->m.error)
                return -1;
        if (counters_at(w) != 0)
            return -1;
        if (v[S_QUEUED] == 0 && before == w->events)
            break; /* nothing left to run, and nothing started */
        if (!dmpi_done(&w->u[0]->m) && w->at == w->obs_next) {
            if (observe(w, false) != 0) /* its instant */
                return -1;
            w->obs_next += w->obs->period;
        }
        show(w, progress);
    }
    if (!opened) /* stopped before t0 (the limit): as one process does */
        for (uint32_t i = 0; i < w->x.k; i++)
            offered_start(&w->u[i]->off, t0);
    if (w->obs)
        return observe(w, true); /* its closing look, at the stop */
    return w->cp ? view_refresh(w) : 0; /* the counters' last sample */
}

/* ---- the results, added into the first partition's ------------------- */

/* Partition i's results, packed for the first partition to add. */
static void pack_part(void *ctx, uint32_t i, struct pack *p)
{
    const struct jw *w = ctx;
    const struct setup *u = w->u[i];
    dmpi_pack(&u->m, p);
    ctl_run_pack(&u->ctl, p);
    sc19_model_pack(&u->mr, p);
    offered_pack(&u->off, p);
}

/* Another partition's results (pack_part's) added into the first local
 * one's. 0, or -1 out of memory or malformed. */
static int add_part(void *ctx, uint32_t part, struct unpack *r)
{
    (void)part;
    struct jw *w = ctx;
    struct setup *u = w->u[0];
    if (dmpi_unpack_add(&u->m, r) != 0)
        return -1;
    ctl_run_unpack_add(&u->ctl, r);
    sc19_model_unpack(&u->mr, r);
    offered_unpack_add(&u->off, r);
    return 0;
}

/* Every other partition's results added into the first local one's
 * (spread): so every process ends with the whole run's results (an
 * impact study reads them on every rank). 0, or -1. */
static int merge(struct jw *w)
{
    return xchange_spread(&w->x, false, w, pack_part, add_part);
}

/* ---- set-up ------------------------------------------------------------- */

int jobs_win_check(const struct jobs_output *out, struct diag *d)
{
    (void)out;
    (void)d;
    return 0;
}

static int setup_all(struct jw *w, const struct jobs_config *jc,
                     const struct topo *t, const struct net_params *np,
                     uint64_t seed, struct diag *d)
{
    w->u = calloc(w->x.k, sizeof *w->u);
    w->nets = calloc(w->x.k, sizeof *w->nets);
    w->part = calloc(w->x.k, sizeof *w->part);
    w->sum = calloc(jc->n ? jc->n : 1, sizeof *w->sum);
    if (!w->u || !w->nets || !w->part || !w->sum) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < w->x.k; i++) {
        w->part[i] = (struct jobs_part){ .part_of = w->pt.router_part,
                                         .parts = w->x.P,
                                         .me = w->x.lo + i, .dim = w->dim };
        struct setup *u = w->u[i] = malloc(sizeof *u);
        if (!u) {
            diag_error(d, NULL, 0, "jobs", "out of memory");
            return -1;
        }
        int rc = jobs_setup(u, jc, t, np, seed, 0, &w->part[i], d);
        if (u->net_ok)
            w->nets[i] = &u->net;
        if (rc != 0)
            return -1;
        u->m.mail = mail_out;
        u->m.mail_ctx = u;
        u->net.xp->mail_in = mail_in;
        u->net.xp->mail_ctx = u;
    }
    return 0;
}

static void teardown_all(struct jw *w, const struct jobs_config *jc)
{
    for (uint32_t i = 0; w->u && i < w->x.k; i++)
        if (w->u[i]) {
            jobs_teardown(w->u[i], jc);
            free(w->u[i]);
        }
    free(w->u);
    free(w->nets);
    free(w->part);
    free(w->sum);
    partition_free(&w->pt);
    xchange_free(&w->x);
    if (w->view.ok)
        net_view_free(&w->view);
    free(w->snap);
}

/* The run's counters (cp, or NULL): the schedule on every process, the
 * job counters on the first, read from the view, sampled by the windows
 * (driven). 0, or -1 reported. */
static int counters_setup(struct jw *w, const struct jobs_config *jc,
                          const struct job_counters_params *cp,
                          struct diag *d)
{
    w->sample_next = SIMTIME_MAX;
    if (!cp)
        return 0;
    w->cp = cp;
    w->links = cp->links_path != NULL;
    w->snap = calloc(jc->n ? jc->n : 1, sizeof *w->snap);
    if (!w->snap) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    for (uint32_t j = 0; j < jc->n; j++) /* the report's jobs: the file's */
        if (jc->job[j].fill)
            w->snap[j] = 3;
    const struct sampler_params *sp = cp->sampling;
    if (sp && sampler_enabled(sp)) {
        w->sample_every = sp->interval;
        w->sample_until = sp->until;
        if (sp->interval < sp->until)
            w->sample_next = sp->interval;
    }
    if (w->x.lo != 0)
        return 0; /* only the first process reads and writes */
    struct sampler_params driven;
    struct job_counters_params c = *cp;
    if (sp) {
        driven = *sp;
        driven.driven = true;
        c.sampling = &driven;
    }
    struct setup *u = w->u[0];
    if (jobs_start_counters(u, jc, &c, &w->view.n, &w->view.s, 0, d) != 0)
        return -1;
    w->ctr = &u->ctr;
    return 0;
}

/* The load a run of jobs puts on each router, to balance the partitions
 * by (partition_make_dim): the ranks placed on its NICs, every job's (the
 * fill's too), placed as jobs_setup places them (alloc_place is a pure
 * function of the requests and the seed). A rank's events (its host
 * costs, its messages' injection and ejection, its matching) are its
 * NIC's (mpi/mpi.c); the routers in between carry the transit, which the
 * ranks' routes spread over the machine and the tie-break on routers
 * approximates. Why: SC'19's 1,024-node all-to-all sits in 6 of xc-16cab's
 * 14 groups, which a cut balanced by NICs put in one part (0 MPI
 * envelopes crossed, the other process routing only transit). *load is
 * malloc'd; 0, or -1 reported. */
static int rank_load(const struct jobs_config *jc, const struct topo *t,
                     uint64_t seed, uint32_t **load, struct diag *d)
{
    uint32_t n = jc->n;
    struct alloc_request *req = calloc(n ? n : 1, sizeof *req);
    uint32_t **nodes = calloc(n ? n : 1, sizeof *nodes);
    *load = calloc(t->n_routers, sizeof **load);
    int rc = -1;
    if (!req || !nodes || !*load) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto out;
    }
    jobs_alloc_requests(jc, req);
    if (alloc_place(t, req, n, seed, nodes, d) != 0)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        const struct job_config *j = &jc->job[i];
        for (uint32_t k = 0; k < j->nodes; k++)
            for (uint32_t l = 0; l < j->ppn; l++)
                (*load)[t->nics[topo_rank_nic(t, nodes[i][k], l, j->ppn)]
                            .router]++;
    }
    rc = 0;
out:
    alloc_free(nodes, n);
    free(nodes);
    free(req);
    if (rc) {
        free(*load);
        *load = NULL;
    }
    return rc;
}

int jobs_win_run(const struct jobs_config *jc, const struct topo *t,
                 const struct net_params *np, uint64_t seed, simtime limit,
                 const struct jobs_output *out, simtime *end,
                 struct diag *d)
{
    if (jobs_win_check(out, d) != 0)
        return -1;
    struct jw w = { 0 };
    int rc = -1;
    if (xchange_init(&w.x, out->partitions, out->procs, d) != 0)
        return -1;
    w.x.mail = true;
    w.dim = partition_cut_dim(t, np, d);
    uint32_t *load = NULL;
    if (w.dim == -2 || rank_load(jc, t, seed, &load, d) != 0)
        goto done;
    int made = partition_make_dim(t, np, out->partitions, w.dim, load,
                                  &w.pt, d);
    free(load);
    if (made != 0)
        goto done;
    if (out->progress && w.x.lo == 0 && w.pt.parts > 1) {
        fprintf(out->progress, "  the machine cut into ");
        partition_print_blocks(out->progress, &w.pt);
        fprintf(out->progress, ", balanced by the ranks placed:");
        for (uint32_t k = 0; k < w.pt.parts; k++)
            fprintf(out->progress, "%s %" PRIu64, k ? " |" : "",
                    w.pt.part[k].load);
        fprintf(out->progress, "\n");
    }
    w.W = partition_window(t, w.dim);
    w.t0 = w.shown = time_wall_seconds();
    struct net_params p = *np;
    p.counters = p.counters || out->observer || out->counters; /* read */
    if (setup_all(&w, jc, t, &p, seed, d) != 0)
        goto done;
    w.obs = out->observer;
    if ((w.obs || out->counters) && net_view_init(&w.view, w.nets[0]) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    if (counters_setup(&w, jc, out->counters, d) != 0)
        goto done;
    simtime t0 = jobs_window_start(jc);
    rc = run_windows(&w, t0, limit, out->progress);
    if (rc == SIM_INTERRUPTED)
        goto done;
    for (uint32_t i = 0; rc == -1 && i < w.x.k; i++)
        if (w.u[i]->m.error) {
            diag_error(d, NULL, 0, "jobs", "%s", w.u[i]->m.why);
            goto done;
        }
    if (rc == -1) {
        diag_error(d, NULL, 0, "jobs", "out of memory in a windowed run");
        goto done;
    }
    rc = -1;
    for (uint32_t i = 0; i < w.x.k; i++)
        offered_end(&w.u[i]->off, w.at);
    struct setup *u = w.u[0];
    if (merge(&w) != 0 || dmpi_collect(&u->m) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    struct jobs_run_view view = { .jc = jc, .m = &u->m, .c = &u->ctl,
                                  .mr = &u->mr, .nodes = u->nodes,
                                  .state = u->state };
    bool first = w.x.lo == 0; /* over MPI, the others' results are its */
    if (first && out->writer && out->writer->write(&view, out) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    if (w.ctr && job_counters_finish(w.ctr, d) != 0)
        goto done;
    if (first)
        offered_write(&u->off, out->load, out->header, out->run,
                      out->table);
    if (out->capture && /* every process: an impact study reads it */
        jobs_capture_fill(out->capture, jc, &u->m, u->nodes) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    *end = w.at;
    uint64_t xs[3] = { w.x.pkts, w.x.crs, w.x.mails };
    xchange_reduce(&w.x, xs, 3, NULL, 0); /* every process: collective */
    double cmax, cmean, xmean; /* the balance: wall seconds in windows */
    xchange_times(&w.x, &cmax, &cmean, &xmean);
    if (out->progress) {
        fprintf(out->progress,
                "  %" PRIu64 " windows of %.1f ns over %u partition%s (",
                w.x.windows, (double)w.W / (double)SIMTIME_NS, w.x.P,
                w.x.P == 1 ? "" : "s");
        partition_print_blocks(out->progress, &w.pt);
        fprintf(out->progress,
                ", by ranks placed): %" PRIu64 " packets, %" PRIu64
                " credit returns and %" PRIu64 " MPI envelopes crossed; "
                "windows %.1f s a process (the busiest %.1f), exchange "
                "%.1f s\n",
                xs[0], xs[1], xs[2], cmean, cmax, xmean);
    }
    rc = dmpi_done(&u->m) ? 0 : 1;
    if (rc == 1 && (limit == SIMTIME_MAX || w.at <= limit)) {
        rc = -1;
        diag_error(d, NULL, 0, "jobs",
                   "the run stopped at %.3f us with a foreground job "
                   "waiting for a message that never comes (deadlock)",
                   (double)w.at / (double)SIMTIME_US);
    }
done:
    teardown_all(&w, jc);
    return rc;
}
