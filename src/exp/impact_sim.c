/* exp/impact_sim.c — the congestion-impact study's simulations (see
 * impact.h): every (run, share, congestion control, victim) placed once,
 * the victim run alone and beside each aggressor on the same nodes, the
 * simulations dealt over the MPI ranks as units (exp/par.h) and
 * committed by rank 0 in order — their rows appended to jobs.csv,
 * iterations.csv, ranks.csv, metrics.csv, load.csv and impact_runs.csv,
 * what they measured collected for the results (struct impact_data):
 * the victims' iteration times, each placement's mean, their network
 * message times (Netscope's M), and with the latency model or several
 * congestion controls the link and NIC counters over each window. */
#include "exp/impact.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/gpcnet.h"
#include "app/micro.h"
#include "app/workload.h"
#include "ctl/cc.h"
#include "exp/alloc.h"
#include "exp/impact_branch.h"
#include "exp/impact_data.h"
#include "exp/impact_obs.h"
#include "exp/journal.h"
#include "exp/manifest.h"
#include "exp/par.h"
#include "net/counters.h"
#include "net/latency_model.h"

/* ---- the runs ------------------------------------------------------------ */

static const char *const run_files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "load.csv", "impact_runs.csv",
                                         "waits.csv" };
#define N_RUN_FILES (sizeof run_files / sizeof run_files[0])
#define RUN_WAITS (N_RUN_FILES - 1) /* --waits only: empty without */

/* Node ids as ranges, "0-15,32" (what a node_list takes). */
static void put_ranges(FILE *f, const uint32_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n;) {
        uint32_t k = i;
        while (k + 1 < n && v[k + 1] == v[k] + 1)
            k++;
        fprintf(f, "%s%" PRIu32, i ? ";" : "", v[i]);
        if (k > i)
            fprintf(f, "-%" PRIu32, v[k]);
        i = k + 1;
    }
}

/* The study under way: what the simulations need, and what they
 * collect (x, handed to the results at the end). */
struct study {
    struct impact_data x;            /* collected, for the results */
    const struct jobs_config *jc;
    const struct topo *t;
    const struct net_params *np;
    const struct jobs_writer *writer; /* the runs' rows (exp/jobs.h) */
    simtime limit;
    uint32_t partitions;             /* each simulation's (0: one process) */
    FILE *f[N_RUN_FILES];
    uint32_t n_files;                /* of run_files[]: waits.csv's last */
    uint32_t sims, total;            /* simulations so far, in all */
    uint32_t cc;                     /* the controller running */
    /* the simulations as units dealt over ranks (exp/par.h): unit u is
     * run r, share s, controller c, victim v, then alone (w = 0) or
     * beside aggressor w - 1, in that order of nesting */
    const struct net_params *npc;    /* [controller] */
    uint64_t seed;
    uint32_t *nodes[2];              /* the placement of run and share... */
    uint32_t placed;                 /* ... r * n_sh + s + 1 (0: none) */
    struct journal jr;               /* rank 0: the units committed
                                        (exp/journal.h) */
    struct diag *d;
    /* the warm-up shared by the victims (exp/impact_branch.h) */
    bool share_warmup;
    struct impact_branch br;
    struct jobs_branch jb;           /* at: branch_at, ctx: the study */
    struct job_config *bjob;         /* [n_v]: the jobs 0 of the units
                                        the simulation under way forks */
    uint32_t *bunit, nb;             /* [n_v]: ... those units */
    struct job_config *job0;         /* the simulation under way: its job
                                        0, its output and unit, which a */
    struct jobs_output *out;         /* branch makes another's */
    uint32_t u;
    char from[16];                   /* a branch: the simulation whose
                                        warm-up it shares, 1-based */
    FILE *log;                       /* progress lines (stderr; a
                                        branch's own) */
    char *log_buf;
    size_t log_len;
};

/* The nodes of the victims and of the aggressors for a share of the
 * study's nodes, drawn with seed. */
static int place(const struct study *st, uint32_t study, double share,
                 uint64_t seed, uint32_t **nodes, struct diag *d)
{
    const struct alloc_policy *pol = alloc_policy_of(st->x.ic->allocation);
    struct alloc_request req[2];
    alloc_request_init(&req[0]);
    alloc_request_init(&req[1]);
    uint32_t na = impact_aggressor_nodes(study, share);
    req[0].job = "victims";
    req[0].nodes = study - na;
    req[1].job = "aggressors";
    req[1].nodes = na;
    for (int i = 0; i < 2; i++) {
        req[i].policy = pol;
        req[i].file = st->x.ic->file;
        req[i].line = st->x.ic->line;
    }
    return alloc_place(st->t, req, 2, seed, nodes, d);
}

/* What one simulation leaves for the study (a unit of exp/par.h): the
 * rows of the run files, then struct sim_facts, the victim's counted
 * iterations (simtime each) and, with congestion_controls, Table 4's
 * samples (latency, traffic: double each). */
enum { RES_FACTS = N_RUN_FILES, RES_ITER, RES_NLAT, RES_NTRAF, RES_PARTS,
       RES_JOBT = RES_PARTS /* node_seconds only: each job's whole time,
                               us (double; NaN unfinished) */ };

struct sim_facts {
    int32_t finished;                /* the victim ended */
    int32_t point;                   /* a point of the fit (pt_*) */
    double pt_t, pt_m, pt_stall;
    struct latm_paths sp, rt;
};

/* Unit u's place in the study; `solo`: a node-seconds unit, aggressor
 * w - 1 alone (after all the others: r, s, c, then the aggressor). */
struct sim_at {
    uint32_t r, s, c, v, w;
    bool solo;
};

static uint32_t base_units(const struct impact_config *ic)
{
    return ic->runs * ic->shares.n * ic->n_victims *
           (ic->ccs.n ? ic->ccs.n : 1) * (1 + ic->n_aggressors);
}

static struct sim_at sim_at(const struct study *st, uint32_t u)
{
    struct sim_at a = { 0 };
    uint32_t base = base_units(st->x.ic);
    if (u >= base) {
        u -= base;
        a.solo = true;
        a.w = 1 + u % st->x.n_a;
        u /= st->x.n_a;
        a.c = u % st->x.n_cc;
        u /= st->x.n_cc;
        a.s = u % st->x.n_sh;
        a.r = u / st->x.n_sh;
        return a;
    }
    a.w = u % (1 + st->x.n_a);
    u /= 1 + st->x.n_a;
    a.v = u % st->x.n_v;
    u /= st->x.n_v;
    a.c = u % st->x.n_cc;
    u /= st->x.n_cc;
    a.s = u % st->x.n_sh;
    a.r = u / st->x.n_sh;
    return a;
}

/* A copy of n bytes at p as part k of res; 0 or -1 (memory). */
static int put_part(struct par_unit *res, uint32_t k, const void *p,
                    size_t n)
{
    res->part[k] = malloc(n ? n : 1);
    if (!res->part[k])
        return -1;
    if (n)
        memcpy(res->part[k], p, n);
    res->len[k] = n;
    return 0;
}

static const char runs_head[] =
    "run,rep,seed,share,victim,aggressor,end_us,finished,iterations,"
    "victim_nodes,aggressor_nodes,congestion_control\n";

/* impact_runs.csv's row of simulation u (its header first with u = 0):
 * the victim's end and iterations, its nodes and the aggressor's as
 * ranges, the congestion control `cc`. */
static void run_row(FILE *r, uint32_t u, uint32_t run, uint64_t seed,
                    double share, const struct job_config *jobs, uint32_t n,
                    const struct jobs_capture *cap, simtime end,
                    const char *cc, bool solo)
{
    const struct jobs_capture_job *v = &cap->job[0];
    if (u == 0)
        fputs(runs_head, r);
    /* solo: the aggressor alone, its columns (node_seconds) */
    fprintf(r, "%u,%u,%" PRIu64 ",%.6f,%s,%s,%" PRIu64 ".%06" PRIu64
               ",%d,%u,",
            u, run, seed, share, solo ? "" : jobs[0].name,
            solo ? jobs[0].name : n > 1 ? jobs[1].name : "",
            end / SIMTIME_US, end % SIMTIME_US, v->finished ? 1 : 0,
            v->n_iter);
    if (!solo)
        put_ranges(r, v->nodes, v->n_nodes);
    fputc(',', r);
    if (n > 1 || solo)
        put_ranges(r, cap->job[n - 1].nodes, cap->job[n - 1].n_nodes);
    fprintf(r, ",%s\n", cc);
}

/* Job j's whole time in cap, us: from its start to its last mark (NaN if
 * it did not end). */
static double job_time(const struct jobs_capture *cap, uint32_t j)
{
    const struct jobs_capture_job *x = &cap->job[j];
    double t = 0;
    for (uint32_t k = 0; k < x->n_iter; k++)
        t += (double)x->iter[k];
    return x->finished ? t / (double)SIMTIME_US : NAN;
}

/* What simulation u gives the results: whether the victim finished and,
 * for the delay-sensitivity fit, its mean counted iteration and mean
 * message time (a point, when it finished and timed messages) with the
 * latency model's path averages over its window (lo; NULL: none). *mean:
 * the mean counted iteration, us (NaN without any). */
static struct sim_facts facts_of(const struct jobs_capture_job *v,
                                 uint32_t skip, const struct impact_obs *lo,
                                 double *mean)
{
    double m = 0;
    for (uint32_t k = skip; k < v->n_iter; k++)
        m += (double)v->iter[k];
    m = v->n_iter > skip ? m / (v->n_iter - skip) / SIMTIME_US : NAN;
    *mean = m;
    struct sim_facts fa = { .finished = v->finished, .pt_stall = NAN };
    if (lo && lo->weight > 0) /* the machine's, whatever the victim did */
        fa.pt_stall = lo->pt / lo->weight;
    if (v->msg_timed && v->n_iter > skip && v->finished) {
        fa.point = 1;
        fa.pt_t = m;
        fa.pt_m = (double)v->msg_time / (double)v->msg_timed /
                  (double)SIMTIME_US;
        /* the time averages; NaN: no window (the model off) */
        struct latm_paths none = { NAN, NAN, NAN, NAN };
        fa.sp = fa.rt = none;
        if (lo && lo->weight > 0) {
            fa.sp = fa.rt = (struct latm_paths){ 0 };
            latm_add(&fa.sp, &lo->sp, 1.0 / lo->weight);
            latm_add(&fa.rt, &lo->rt, 1.0 / lo->weight);
        }
    }
    return fa;
}

/* Simulation u: jobs[0..n) (the victim, the aggressor if any), into res.
 * Returns 0, -1 (reported to d) or SIM_INTERRUPTED. */
static int simulate(struct study *st, struct job_config *jobs, uint32_t n,
                    uint32_t u, uint32_t run, uint64_t seed, double share,
                    bool solo, struct par_unit *res, struct diag *d)
{
    const uint32_t *nodes0 = st->nodes[solo ? 1 : 0]; /* job 0's */
    struct jobs_config jc = { .n = n, .job = jobs, .mpi = st->jc->mpi,
                              .awr = st->jc->awr };
    struct jobs_capture cap = { 0 };
    struct impact_obs lo;
    struct jobs_observer obs = { .period = st->x.ic->latency_window,
                                 .at = impact_obs_at, .ctx = &lo };
    struct impact_dvec nl = { 0 }, nt = { 0 };
    bool lat = !solo && (st->x.ic->latency_model || st->x.ic->ccs.n);
    FILE *f[N_RUN_FILES] = { NULL };
    int rc = -1;
    res->n = RES_PARTS + (st->x.ic->node_seconds ? 1 : 0);
    bool ok = true;
    for (size_t i = 0; i < N_RUN_FILES; i++) {
        f[i] = ok ? open_memstream(&res->part[i], &res->len[i]) : NULL;
        ok = ok && f[i];
    }
    if (!ok || (lat && impact_obs_init(&lo, st->t, &jobs[0], st->nodes[0],
                                       st->x.ic->latency_model,
                                       st->x.ic->ccs.n ? &nl : NULL,
                                       st->x.ic->ccs.n ? &nt : NULL) != 0)) {
        if (ok && lat)
            impact_obs_free(&lo);
        lat = false;
        goto oom;
    }
    struct jobs_output out = {
        .jobs = f[0], .iterations = f[1], .ranks = f[2], .metrics = f[3],
        .load = f[4], .run = u, .header = u == 0, .capture = &cap,
        .waits = st->n_files == N_RUN_FILES ? f[RUN_WAITS] : NULL,
        .observer = lat ? &obs : NULL, .writer = st->writer,
        .partitions = st->partitions,
        .procs = par_group_size(),
        .branch = st->nb && !lat ? &st->jb : NULL,
    };
    st->job0 = &jobs[0];
    st->out = &out;
    st->u = u;
    double t0 = time_wall_seconds();
    simtime end = 0;
    rc = jobs_run(&jc, st->t, st->np, seed, st->limit, &out, &end, d);
    u = st->u; /* a branch's own */
    if (rc >= 0 && lat && lo.failed)
        goto oom;
    if (rc < 0)
        goto fail;
    const struct jobs_capture_job *v = &cap.job[0];
    /* the same-placement guarantee: the victim ran on the nodes it was
     * given, whoever shared the machine */
    if (v->n_nodes != jobs[0].nodes ||
        memcmp(v->nodes, nodes0, v->n_nodes * sizeof *v->nodes) != 0) {
        diag_error(d, NULL, 0, "impact",
                   "victim \"%s\" ran on other nodes than it was given "
                   "(simulation %u): a bug",
                   jobs[0].name, u);
        rc = -1;
        goto fail;
    }
    uint32_t skip = jobs[0].warmup < v->n_iter ? jobs[0].warmup : v->n_iter;
    char ccn[64];
    run_row(f[5], u, run, seed, share, jobs, n, &cap, end,
            cc_name(st->np, ccn, sizeof ccn), solo);
    double mean = 0;
    struct sim_facts fa = facts_of(v, skip, lat ? &lo : NULL, &mean);
    double jt[2] = { job_time(&cap, 0), n > 1 ? job_time(&cap, 1) : NAN };
    if (put_part(res, RES_FACTS, &fa, sizeof fa) != 0 ||
        put_part(res, RES_ITER, v->iter + skip,
                 (v->n_iter - skip) * sizeof *v->iter) != 0 ||
        put_part(res, RES_NLAT, nl.v, nl.n * sizeof *nl.v) != 0 ||
        put_part(res, RES_NTRAF, nt.v, nt.n * sizeof *nt.v) != 0 ||
        (st->x.ic->node_seconds &&
         put_part(res, RES_JOBT, jt, sizeof jt) != 0))
        goto oom;
    const char *on = par_where();
    char mean_s[32] = "-"; /* no iteration: no mean that looks measured */
    if (v->n_iter > skip)
        snprintf(mean_s, sizeof mean_s, "%.3f us", mean);
    fprintf(st->log,
            "  impact %u/%u%s: run %u, share %.2f%s%s, %s %s%s: %u "
            "iterations, mean %s%s (%.1f s%s%s)\n",
            u + 1, st->total, on, run, share, st->x.ic->ccs.n ? ", " : "",
            st->x.ic->ccs.n ? cc_name(st->np, ccn, sizeof ccn) : "", jobs[0].name,
            n > 1 ? "with " : solo ? "(aggressor) alone" : "alone",
            n > 1 ? jobs[1].name : "", v->n_iter,
            mean_s, v->finished ? "" : ", UNFINISHED",
            time_wall_seconds() - t0,
            st->br.me >= 0 ? ", warm-up shared with simulation " : "",
            st->br.me >= 0 ? st->from : "");
    rc = 0;
    goto fail; /* the common end */
oom:
    diag_error(d, NULL, 0, "impact", "out of memory");
    rc = -1;
fail:
    for (size_t i = 0; i < N_RUN_FILES; i++)
        if (f[i] && fclose(f[i]) != 0 && rc == 0) {
            diag_error(d, NULL, 0, "impact", "out of memory");
            rc = -1;
        }
    if (lat)
        impact_obs_free(&lo);
    free(nl.v);
    free(nt.v);
    jobs_capture_free(&cap);
    return rc;
}

/* Job j runs on the first j->nodes of `nodes` (placed for the study,
 * whose they stay), listed in jobs.csv as allocation "list". */
static void as_list(struct job_config *j, uint32_t *nodes)
{
    j->allocation = &alloc_list.base;
    struct alloc_list_params *lp = (void *)j->alloc_params;
    *lp = (struct alloc_list_params){ .ids = nodes, .n = j->nodes };
}

/* Victim v's job at this share, on the study's victims' nodes, after
 * aggressor g's release if the study has one (g: UINT32_MAX, alone). */
static void victim_job(const struct study *st, uint32_t v, double share,
                       uint32_t g, struct job_config *j)
{
    const struct impact_config *ic = st->x.ic;
    *j = ic->victim[v];
    j->name = ic->victim[v].name;
    j->nodes = impact_victim_nodes(ic, v, st->x.study_nodes, share);
    as_list(j, st->nodes[0]);
    j->start = ic->warmup;
    j->background = false;
    if (g != UINT32_MAX && ic->warmup_iterations) { /* GPCNeT's release
                                                       (impact.h) */
        j->after = ic->aggressor[g].name;
        j->after_job = 1;
        j->after_marks = ic->warmup_iterations;
    }
}

/* jobs_branch's at: fork the units of st->bunit; in a child, the
 * simulation becomes its unit's from the release on. */
static const struct job_config *branch_at(void *ctx)
{
    struct study *st = ctx;
    int k = impact_branch_fork(&st->br, st->bunit, st->nb);
    if (k < 0)
        return NULL;
    snprintf(st->from, sizeof st->from, "%u", st->u + 1);
    st->u = st->bunit[k];
    st->out->run = st->u;
    st->out->header = st->u == 0;
    *st->job0 = st->bjob[k];
    FILE *log = open_memstream(&st->log_buf, &st->log_len);
    if (log)
        st->log = log;
    return &st->bjob[k];
}

/* The later victims' units beside the same aggressor, run and share as
 * unit u (victim v, its job j0) whose warm-up they can share: into
 * st->bunit and st->bjob (st->nb of them). */
static void branch_plan(struct study *st, uint32_t u, const struct sim_at *a,
                        double share, const struct job_config *j0)
{
    const struct impact_config *ic = st->x.ic;
    st->nb = 0;
    if (!st->share_warmup || !ic->warmup_iterations || a->w == 0 ||
        ic->latency_model || ic->ccs.n)
        return;
    for (uint32_t v = a->v + 1; v < st->x.n_v; v++) {
        uint32_t w = u + (v - a->v) * (1 + st->x.n_a);
        victim_job(st, v, share, a->w - 1, &st->bjob[st->nb]);
        if (w < st->total && !impact_branch_has(&st->br, w) &&
            jobs_branch_same(j0, &st->bjob[st->nb]))
            st->bunit[st->nb++] = w;
    }
}

/* par_deal's unit: simulation u of the study, placed as its run and
 * share say (each rank places for itself; the placement depends only on
 * the run's seed and the share). A unit a branch has run is taken from
 * it (exp/impact_branch.h). */
static int sim_unit(void *ctx, uint32_t u, struct par_unit *res)
{
    struct study *st = ctx;
    const struct impact_config *ic = st->x.ic;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    int status;
    if (impact_branch_take(&st->br, u, &status, res, stderr) == 1)
        return status;
    struct sim_at a = sim_at(st, u);
    uint64_t sd = st->seed + a.r;
    double share = ic->shares.v[a.s];
    uint32_t key = a.r * st->x.n_sh + a.s + 1;
    if (st->placed != key) {
        alloc_free(st->nodes, 2);
        st->nodes[0] = st->nodes[1] = NULL;
        st->placed = 0;
        if (place(st, st->x.study_nodes, share, sd, st->nodes, st->d) != 0)
            return -1;
        st->placed = key;
    }
    st->np = &st->npc[a.c];
    st->cc = a.c;
    struct job_config jobs[2];
    if (a.solo) { /* node_seconds: the aggressor alone, on its nodes */
        jobs[0] = ic->aggressor[a.w - 1];
        jobs[0].name = ic->aggressor[a.w - 1].name;
        jobs[0].nodes = impact_aggressor_nodes(st->x.study_nodes, share);
        as_list(&jobs[0], st->nodes[1]);
        jobs[0].start = 0;
        jobs[0].background = false;
        st->nb = 0;
        return simulate(st, jobs, 1, u, a.r, sd, share, true, res, st->d);
    }
    victim_job(st, a.v, share, a.w > 0 ? a.w - 1 : UINT32_MAX, &jobs[0]);
    if (a.w > 0) {
        uint32_t g = a.w - 1;
        jobs[1] = ic->aggressor[g];
        jobs[1].name = ic->aggressor[g].name;
        jobs[1].nodes = impact_aggressor_nodes(st->x.study_nodes, share);
        as_list(&jobs[1], st->nodes[1]);
        jobs[1].start = 0;
        jobs[1].background = !ic->node_seconds; /* Fig. 6: its own work */
    }
    branch_plan(st, u, &a, share, &jobs[0]);
    int rc = simulate(st, jobs, a.w > 0 ? 2 : 1, u, a.r, sd, share, false,
                      res, st->d);
    if (st->br.me >= 0) { /* a branch: its unit's result to the study */
        fflush(st->log);
        impact_branch_exit(&st->br, rc, res, st->log_buf, st->log_len);
    }
    return rc;
}

/* Append the n doubles at p to d; 0 or -1 (memory). */
static int dvec_append(struct impact_dvec *d, const char *p, size_t bytes)
{
    for (size_t i = 0; i + sizeof(double) <= bytes; i += sizeof(double)) {
        double x;
        memcpy(&x, p + i, sizeof x);
        if (impact_dvec_add(d, x) != 0)
            return -1;
    }
    return 0;
}

/* Whether res has the parts a simulation of st leaves (and their
 * records' sizes). */
static bool unit_shape_ok(const struct study *st, const struct par_unit *res)
{
    bool ns = st->x.ic->node_seconds;
    return res->n == RES_PARTS + (ns ? 1 : 0) &&
           res->len[RES_FACTS] == sizeof(struct sim_facts) &&
           res->len[RES_ITER] % sizeof(simtime) == 0 &&
           (!ns || res->len[RES_JOBT] == 2 * sizeof(double));
}

/* par_deal's commit, on rank 0 in unit order: simulation u's rows into
 * the run files, its iterations into its cell's sample, its point of
 * the fit and Table 4's samples into the study. */
static int sim_commit(void *ctx, uint32_t u, struct par_unit *res)
{
    struct study *st = ctx;
    if (res->status != 0)
        return res->status;
    struct sim_facts fa;
    bool ns = st->x.ic->node_seconds;
    double jt[2];
    if (!unit_shape_ok(st, res)) {
        diag_error(st->d, NULL, 0, "impact",
                   "simulation %u: a malformed result (a bug)", u);
        return -1;
    }
    memcpy(&fa, res->part[RES_FACTS], sizeof fa);
    for (size_t i = 0; i < st->n_files; i++) {
        fwrite(res->part[i], 1, res->len[i], st->f[i]);
        fflush(st->f[i]);
    }
    struct sim_at a = sim_at(st, u);
    if (ns)
        memcpy(jt, res->part[RES_JOBT], sizeof jt);
    if (a.solo) { /* the aggressor alone: its time only */
        st->x.ns_alone[((a.c * st->x.n_a + a.w - 1) * st->x.n_sh + a.s) *
                           st->x.ic->runs +
                       a.r] = jt[0];
        st->sims++;
        return journal_add(&st->jr, u, res, stderr);
    }
    struct impact_sample *smp;
    bool *done;
    double *run_mean; /* this placement's mean iteration */
    if (a.w == 0) {
        uint32_t iv = (a.c * st->x.n_sh + a.s) * st->x.n_v + a.v;
        smp = &st->x.iso[iv];
        done = &st->x.iso_done[iv];
        run_mean = &st->x.iso_run[(size_t)iv * st->x.ic->runs + a.r];
        if (ns)
            st->x.ns_iso[(size_t)iv * st->x.ic->runs + a.r] = jt[0];
    } else {
        uint32_t k = ((a.c * st->x.n_a + a.w - 1) * st->x.n_sh + a.s) * st->x.n_v +
                     a.v;
        smp = &st->x.con[k];
        done = &st->x.con_done[k];
        run_mean = &st->x.con_run[(size_t)k * st->x.ic->runs + a.r];
        if (ns) {
            st->x.ns_con_v[(size_t)k * st->x.ic->runs + a.r] = jt[0];
            st->x.ns_con_a[(size_t)k * st->x.ic->runs + a.r] = jt[1];
        }
    }
    /* the part is a malloc'd block (aligned for simtime); sample_add
     * copies it with memcpy */
    uint32_t n_iter = (uint32_t)(res->len[RES_ITER] / sizeof(simtime));
    int err = impact_sample_add(smp, (const simtime *)(const void *)
                                  res->part[RES_ITER], n_iter);
    if (n_iter) { /* for impact_runs_stats */
        double sum = 0;
        for (uint32_t i = 0; i < n_iter; i++) {
            simtime t;
            memcpy(&t, res->part[RES_ITER] + i * sizeof t, sizeof t);
            sum += (double)t / (double)SIMTIME_US;
        }
        *run_mean = sum / n_iter;
    }
    *done = *done && fa.finished;
    if (!fa.finished)
        st->x.unfinished = true;
    if (fa.point) {
        uint32_t k = a.v * st->x.per_victim + st->x.pt_n[a.v]++;
        st->x.pt_t[k] = fa.pt_t;
        st->x.pt_m[k] = fa.pt_m;
        st->x.pt_stall[k] = fa.pt_stall;
        st->x.pt_sim[k] = u;
        st->x.pt_agg[k] = a.w > 0 ? st->x.ic->aggressor[a.w - 1].name : NULL;
        st->x.pt_share[k] = a.s;
        st->x.pt_sp[k] = fa.sp;
        st->x.pt_rt[k] = fa.rt;
    }
    if (st->x.nlat &&
        (dvec_append(&st->x.nlat[a.c], res->part[RES_NLAT],
                     res->len[RES_NLAT]) != 0 ||
         dvec_append(&st->x.ntraf[a.c], res->part[RES_NTRAF],
                     res->len[RES_NTRAF]) != 0))
        err = 1;
    st->sims++;
    if (err) {
        diag_error(st->d, NULL, 0, "impact", "out of memory");
        return -1;
    }
    return journal_add(&st->jr, u, res, stderr);
}

/* The journal's name in the results folder (exp/journal.h). */
static const char journal_name[] = "impact.journal";

/* Rank 0: st's run files in dir, listed in the manifest before they
 * exist (the study's end marks them done), opened anew. 0, or -1
 * (reported). */
static int open_run_files(struct study *st, const char *dir, struct diag *d)
{
    for (size_t i = 0; i < st->n_files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, run_files[i]);
        st->f[i] = manifest_mark(dir, &run_files[i], 1, MANIFEST_WRITING,
                                 stderr) == 0
                       ? fopen(path, "w")
                       : NULL;
        if (!st->f[i]) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            return -1;
        }
    }
    return 0;
}

/* What a simulation's unit holds, as the journal's `layout`
 * (exp/journal.h): the run files' names and header lines as this dfsim
 * writes them (waits.csv only with --waits), the parts' count and the
 * records' sizes. 0, or -1 (memory). */
static int unit_layout(const struct study *st, uint64_t *layout)
{
    char *buf[N_RUN_FILES] = { NULL };
    size_t len[N_RUN_FILES] = { 0 };
    FILE *f[N_RUN_FILES] = { NULL };
    bool ok = true;
    for (size_t i = 0; i < st->n_files; i++) {
        f[i] = open_memstream(&buf[i], &len[i]);
        ok = ok && f[i];
    }
    if (ok) {
        struct jobs_output o = {
            .jobs = f[0], .iterations = f[1], .ranks = f[2], .metrics = f[3],
            .load = f[4], .header = true,
            .waits = st->n_files == N_RUN_FILES ? f[RUN_WAITS] : NULL };
        if (st->writer)
            st->writer->headers(&o);
        fputs(runs_head, f[5]);
    }
    uint64_t h = MANIFEST_HASH_START;
    for (size_t i = 0; i < st->n_files; i++) {
        ok = f[i] && fclose(f[i]) == 0 && ok;
        h = manifest_hash(h, run_files[i], strlen(run_files[i]) + 1);
        h = manifest_hash(h, buf[i], buf[i] ? len[i] : 0);
        free(buf[i]);
    }
    uint64_t sizes[] = { st->n_files,
                         RES_PARTS + (st->x.ic->node_seconds ? 1 : 0),
                         sizeof(struct sim_facts), sizeof(simtime),
                         sizeof(double) };
    *layout = manifest_hash(h, sizes, sizeof sizes);
    return ok ? 0 : -1;
}

/* Rank 0 of a resumed study: the units of dir's journal into *v, read
 * and checked whole before anything of the folder is touched: one this
 * study cannot take (another dfsim's, or the same study run with other
 * options) is refused and left as it is. The number of them, or -1
 * (reported to d). */
static int64_t journal_take(const struct study *st, const char *dir,
                            uint64_t layout, struct par_unit **v,
                            struct diag *d)
{
    char why[160], path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, journal_name);
    int64_t n = journal_read(dir, journal_name, layout, st->total, v, why);
    if (n == JOURNAL_FOREIGN) {
        diag_error(d, path, 0, "impact", "cannot resume from it: %s; "
                   "it is left as it is (run the same dfsim and options "
                   "again, or move it away to start the study afresh)",
                   why);
        return -1;
    }
    if (n < 0) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        return -1;
    }
    int64_t bad = -1;
    for (int64_t u = 0; u < n && bad < 0; u++)
        if (!unit_shape_ok(st, &(*v)[u]))
            bad = u;
    if (bad < 0)
        return n;
    diag_error(d, path, 0, "impact", "simulation %" PRId64 ": a malformed "
               "record (a bug); the journal is left as it is", bad);
    journal_units_free(v, n);
    return -1;
}

/* The n units *v of the journal committed again in order (the run files
 * rewritten, the samples rebuilt, the journal written afresh with them),
 * then freed (*v NULL). n, or -1 (reported). */
static int64_t replay(struct study *st, const char *dir, uint64_t layout,
                      struct par_unit **v, int64_t n)
{
    int rc = journal_start(&st->jr, dir, journal_name, layout, stderr);
    for (int64_t u = 0; u < n && rc == 0; u++)
        rc = sim_commit(st, (uint32_t)u, &(*v)[u]);
    journal_units_free(v, n);
    if (rc != 0)
        return -1;
    if (n)
        printf("resumed: simulations 1-%" PRId64 " of %u from %s/%s\n", n,
               st->total, dir, journal_name);
    return n;
}

uint32_t impact_simulations(const struct impact_config *ic)
{
    return base_units(ic) + (ic->node_seconds
                                 ? ic->runs * ic->shares.n *
                                       (ic->ccs.n ? ic->ccs.n : 1) *
                                       ic->n_aggressors
                                 : 0);
}

int impact_simulate(const struct impact_config *ic,
                    const struct jobs_config *jc, const struct topo *t,
                    const struct net_params *np, uint64_t seed,
                    simtime limit, const char *dir,
                    const struct jobs_writer *writer, bool resume,
                    uint32_t partitions, bool share_warmup, bool waits,
                    struct impact_data *data, struct diag *d)
{
    memset(data, 0, sizeof *data);
    /* with congestion_controls, every simulation once per controller:
     * the cells' aggressors are (controller, aggressor) pairs, c * n_a +
     * g, and the isolated runs are per controller too */
    uint32_t n_sh = ic->shares.n, n_v = ic->n_victims,
             n_cc = ic->ccs.n ? ic->ccs.n : 1,
             n_a = ic->n_aggressors, n_ca = n_cc * n_a;
    uint32_t study_nodes = impact_study_nodes(ic, t);
    struct net_params npc[CFG_LIST_MAX];
    for (uint32_t c = 0; c < n_cc; c++) {
        npc[c] = *np;
        const struct nic_ctl *ctl = ic->ccs.n ? (const struct nic_ctl *)
                                                    ic->ccs.v[c]
                                              : NULL;
        char err[128];
        if (ctl && cc_set(&npc[c], t, &ctl, 1, err, sizeof err) != 0) {
            diag_error(d, ic->file, ic->ccs.line[c],
                       "impact.congestion_controls", "%s", err);
            return -1;
        }
    }
    struct study st = { .x = { .ic = ic }, .jc = jc, .t = t, .np = np,
                        .writer = writer, .limit = limit,
                        .partitions = partitions,
                        .n_files = waits ? N_RUN_FILES : RUN_WAITS };
    st.total = impact_simulations(ic);
    uint32_t n_cells = n_ca * n_sh * n_v, n_iso = n_cc * n_sh * n_v;
    int rc = -1;
    uint64_t layout = 0;
    struct par_unit *jv = NULL; /* the journal's units, resumed */
    int64_t n_jv = 0;
    if (impact_data_alloc(&st.x, ic, n_cc, n_iso, n_cells) != 0) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    /* rank 0 journals every simulation it commits; resumed, it reads
     * the journal first (refused, nothing of the folder changes), commits
     * its simulations again, and every rank deals from the first
     * simulation not in it (rank 0's count, agreed) */
    int64_t n_done = 0;
    if (par_rank() == 0 && unit_layout(&st, &layout) != 0) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        n_done = -1;
    } else if (par_rank() == 0 && resume)
        n_done = n_jv = journal_take(&st, dir, layout, &jv, d);
    if (par_rank() == 0 && n_done >= 0 && open_run_files(&st, dir, d) != 0)
        goto done;
    printf("\ncongestion impact: %u victim%s x %u aggressor%s x %u share%s "
           "of %u nodes (%s), %u run%s",
           n_v, n_v == 1 ? "" : "s", n_a, n_a == 1 ? "" : "s", n_sh,
           n_sh == 1 ? "" : "s", study_nodes, ic->allocation->name,
           ic->runs, ic->runs == 1 ? "" : "s");
    if (ic->ccs.n)
        printf(", %u congestion controls", n_cc);
    printf(": %u simulations\n", st.total);
    fflush(stdout);
    st.npc = npc;
    st.x.n_cells = n_cells;
    st.x.n_iso = n_iso;
    st.x.n_sh = n_sh;
    st.x.n_v = n_v;
    st.x.n_cc = n_cc;
    st.x.n_a = n_a;
    st.x.study_nodes = study_nodes;
    st.seed = seed;
    st.d = d;
    st.log = stderr;
    st.jb = (struct jobs_branch){ .at = branch_at, .ctx = &st };
    st.share_warmup = share_warmup && par_size() == 1 && !partitions;
    st.bjob = calloc(n_v ? n_v : 1, sizeof *st.bjob);
    st.bunit = calloc(n_v ? n_v : 1, sizeof *st.bunit);
    if (!st.bjob || !st.bunit ||
        impact_branch_init(&st.br, n_v * (n_a ? n_a : 1)) != 0) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    if (par_rank() == 0 && n_done >= 0)
        n_done = resume ? replay(&st, dir, layout, &jv, n_jv)
                 : journal_start(&st.jr, dir, journal_name, layout, stderr) ==
                           0
                     ? 0
                     : -1;
    int first = par_agree(par_rank() == 0 ? (int)n_done : 0);
    if (first < 0)
        goto done;
    int prc = par_deal((uint32_t)first, st.total, sim_unit, sim_commit, &st);
    alloc_free(st.nodes, 2);
    if (st.br.taken)
        fprintf(stderr, "  impact: %u of %u simulations went on from "
                        "their aggressor's release in a fork of another's "
                        "(--warmups shared)\n", st.br.taken, st.total);
    if (prc != 0) {
        rc = prc == SIM_INTERRUPTED ? SIM_INTERRUPTED : -1;
        goto done;
    }
    rc = 0;
done:
    journal_units_free(&jv, n_jv); /* not replayed (a failure on the way) */
    impact_branch_free(&st.br);
    free(st.bjob);
    free(st.bunit);
    for (size_t i = 0; i < N_RUN_FILES; i++)
        if (st.f[i])
            fclose(st.f[i]);
    if (journal_end(&st.jr, rc == 0, stderr) != 0 && rc == 0)
        rc = -1;
    *data = st.x; /* the caller frees it (impact_data_free), failed or
                     not */
    return rc;
}

