/* exp/quick.c — `dfsim run --quick` (experiment_quicken, experiment.h):
 * every part of an experiment, cut short, and what was cut said. */
#include "exp/experiment.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/time.h"

/* What a quick run simulates: the jobs' starts compressed so that the
 * latest is at most QUICK_LAST_START, then at most QUICK_SPAN more per
 * job of the longest `after` chain. A run ends when its measured jobs
 * have ended, so the span bounds only what a slow job may take: with
 * their sizes capped (cfg_key.quick) and compute x0.01, the examples'
 * iterations take up to ~0.8 ms of simulated time (jobs-ember's
 * sweep3d 820 us for two, sc19-fig10's AMG 695 us for three), and a 1 ms
 * window counts them all in a second or a few of wall time (measured
 * with bench/quick_iterations.sh). Scaling the starts (not cutting them)
 * keeps their order: the fill's jobs and a congestor still start before
 * the measured jobs they were meant to load. */
#define QUICK_LAST_START (10 * SIMTIME_US)
#define QUICK_SPAN (1000 * SIMTIME_US)
/* An impact study's victims get 100 us past their start (after the
 * aggressors' head start, at most 20 us): each of its many simulations
 * runs its aggressors at full blast, so its window is the costliest part
 * of checking the examples (tests/test_cli.c runs them all). 100 us
 * counts every SC'20 victim (measured: sc20-impact-crystal 5.4 s), not
 * ICS'21's MILC on its uncapped 16^4 lattice (300 us would, at twice
 * the cost of the whole study's check). */
#define QUICK_IMPACT_SPAN (100 * SIMTIME_US)
/* The hosts' compute phases a hundred times shorter (mpi.compute_scale):
 * a proxy application's iteration is mostly compute (AMG's 40^3 points
 * ~23 ms), which no short window holds; its messages, protocols and
 * collectives stay as the file gives them. */
#define QUICK_COMPUTE 0.01

/* Append one change to e->quick_note ("what --quick changed", a line
 * each). */
static void quick_say(struct experiment *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void quick_say(struct experiment *e, const char *fmt, ...)
{
    size_t n = strlen(e->quick_note);
    if (n + 1 >= sizeof e->quick_note)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(e->quick_note + n, sizeof e->quick_note - n, fmt, ap);
    va_end(ap);
    n = w < 0 ? n : n + (size_t)w;
    if (n + 1 < sizeof e->quick_note) {
        e->quick_note[n] = '\n';
        e->quick_note[n + 1] = '\0';
    } else {
        e->quick_note[sizeof e->quick_note - 2] = '\n';
    }
}

static double us_of(simtime t)
{
    return (double)t / (double)SIMTIME_US;
}

/* Job j's sizes at most their keys' --quick caps (cfg_key.quick: a
 * workload's message or per-rank size); the first few changes into
 * `said` ("bytes 16384 -> 1024"). Returns how many keys were capped. */
static uint32_t quick_sizes(struct job_config *j, char *said, size_t cap)
{
    const struct workload *w = (const struct workload *)j->workload;
    uint32_t n = 0;
    size_t len = strlen(said);
    for (const struct cfg_key *k = w->keys; k && k->name; k++) {
        if (!(k->quick > 0))
            continue;
        void *at = (char *)j->params + k->offset;
        uint64_t v, q = (uint64_t)k->quick;
        if (k->type == CFG_UINT32)
            v = *(uint32_t *)at;
        else if (k->type == CFG_UINT64)
            v = *(uint64_t *)at;
        else
            continue; /* caps are on counts and sizes only */
        if (v <= q)
            continue;
        if (k->type == CFG_UINT32)
            *(uint32_t *)at = (uint32_t)q;
        else
            *(uint64_t *)at = q;
        int wr = snprintf(said + len, len < cap ? cap - len : 0,
                          "%s%s %" PRIu64 " -> %" PRIu64, n ? ", " : "",
                          k->name, v, q);
        if (wr > 0 && len + (size_t)wr < cap)
            len += (size_t)wr;
        n++;
    }
    return n;
}

/* A job of a quick run: warm-up at most 1 (none with variants, so that
 * each variant keeps a measured iteration in any order), iterations (its
 * workload's count of that name) at most warm-up + 2, or one per
 * variant; its sizes at their caps (quick_sizes), each capped job a line
 * of e->quick_note (`role`: "job", "victim", "aggressor"). Returns
 * whether the warm-up or iterations changed. */
static bool quick_job(struct experiment *e, struct job_config *j,
                      const char *role)
{
    const struct workload *w = (const struct workload *)j->workload;
    if (!w)
        return false;
    char sizes[256] = "";
    if (quick_sizes(j, sizes, sizeof sizes))
        quick_say(e, "%s %s (%s): %s", role, j->name, w->base.name, sizes);
    uint32_t warm = j->warmup;
    if (j->warmup > 1)
        j->warmup = 1;
    if (j->variants.n > 1)
        j->warmup = 0;
    bool changed = warm != j->warmup;
    uint32_t need = j->variants.n > 2 ? j->variants.n : 2;
    for (const struct cfg_key *k = w->keys; k && k->name; k++) {
        if (k->type != CFG_UINT32 || strcmp(k->name, "iterations") != 0)
            continue;
        uint32_t *it = (uint32_t *)((char *)j->params + k->offset);
        if (*it > j->warmup + need) {
            *it = j->warmup + need;
            changed = true;
        }
    }
    return changed;
}

/* The jobs' starts (and the fill's stagger) compressed so that the
 * latest is at most QUICK_LAST_START; returns the latest start after
 * it. An `after` job's start is an offset from its predecessor's end,
 * compressed alike. */
static simtime quick_starts(struct experiment *e)
{
    struct jobs_config *jc = &e->jobs;
    simtime last = jc->prod.on ? jc->prod.stagger : 0;
    for (uint32_t i = 0; i < jc->n; i++)
        if (jc->job[i].start > last)
            last = jc->job[i].start;
    if (last <= QUICK_LAST_START)
        return last;
    double f = (double)QUICK_LAST_START / (double)last;
    for (uint32_t i = 0; i < jc->n; i++)
        jc->job[i].start = (simtime)llround((double)jc->job[i].start * f);
    if (jc->prod.on)
        jc->prod.stagger = (simtime)llround((double)jc->prod.stagger * f);
    quick_say(e, "start times (start_us%s) scaled by %.3g: the latest, "
                 "%.1f us, to %.1f us",
              jc->prod.on ? ", production.stagger_us" : "", f, us_of(last),
              us_of(QUICK_LAST_START));
    return QUICK_LAST_START;
}

/* The jobs' part of experiment_quicken: starts, the time limit past the
 * latest, the iterations, the fill. */
/* The most jobs one after another (`after`): 1 without a chain; 0 if
 * the chains cannot be walked (out of memory). Each job's depth once,
 * by a walk up its chain that stops at a job already measured: linear
 * in the jobs (a file may chain thousands). */
static uint32_t quick_chain_depth(const struct jobs_config *jc)
{
    uint32_t *depth = calloc(jc->n ? jc->n : 1, sizeof *depth);
    uint32_t *path = malloc((jc->n ? jc->n : 1) * sizeof *path);
    uint32_t most = 1;
    for (uint32_t i = 0; depth && path && i < jc->n; i++) {
        uint32_t n = 0, j = i;
        while (!depth[j]) { /* 0: not measured yet (a depth is >= 1) */
            path[n++] = j;
            if (!jc->job[j].after)
                break;
            j = jc->job[j].after_job;
        }
        uint32_t d = depth[j] ? depth[j] : 0; /* a root: 0 below it */
        while (n)
            depth[path[--n]] = ++d;
        most = depth[i] > most ? depth[i] : most;
    }
    bool ok = depth && path;
    free(depth);
    free(path);
    return ok ? most : 0;
}

static void quick_jobs(struct experiment *e)
{
    struct jobs_config *jc = &e->jobs;
    struct impact_config *ic = &e->impact;
    if (jc->n == 0 && !jc->prod.on && !ic->on)
        return;
    jc->mpi.compute_scale *= QUICK_COMPUTE;
    quick_say(e, "compute phases (mpi.compute_scale) %.3g times as long",
              QUICK_COMPUTE);
    simtime last = quick_starts(e);
    if (ic->on && ic->warmup > 20 * SIMTIME_US) {
        quick_say(e, "impact.warmup_us %.6g to 20", us_of(ic->warmup));
        ic->warmup = 20 * SIMTIME_US;
    }
    /* a chain's jobs run one after another: a window each */
    uint32_t chain = quick_chain_depth(jc);
    simtime span = jc->n || jc->prod.on ? QUICK_SPAN * (chain ? chain : 1)
                                        : 0;
    if (ic->on && ic->warmup + QUICK_IMPACT_SPAN > last + span) {
        last = ic->warmup; /* the victims start there */
        span = QUICK_IMPACT_SPAN;
    }
    simtime limit = last + span;
    if (e->info.time_limit > limit) {
        quick_say(e, "time limit (experiment.time_limit_ms) %.6g ms to "
                     "%.1f us, %.0f us past the latest start",
                  (double)e->info.time_limit / (double)SIMTIME_MS,
                  us_of(limit), us_of(span));
        e->info.time_limit = limit;
    }
    uint32_t cut = 0;
    for (uint32_t i = 0; i < jc->n; i++)
        cut += quick_job(e, &jc->job[i], "job");
    if (cut)
        quick_say(e, "%u of %u jobs: warm-up at most 1 iteration (0 with "
                     "variants), iterations at most warm-up + 2 (or one a "
                     "variant)",
                  cut, jc->n);
    if (jc->prod.on) {
        jc->prod.max_jobs = 1;
        quick_say(e, "production fill: its smallest job only");
    }
}

/* The traffic sweep's part: the first load, windows of at most 0.5 us
 * (which a first-packet latency above 125 ns leaves "not steady":
 * exp/traffic.h). */
static void quick_traffic(struct experiment *e)
{
    struct traffic_sweep *sw = &e->traffic;
    if (!e->has_traffic)
        return;
    if (sw->loads.n > 1) {
        quick_say(e, "traffic.loads: the first (%.3g) of %u", sw->loads.v[0],
                  sw->loads.n);
        sw->loads.n = 1;
    }
    static const char *const names[3] = { "warmup_us", "measure_us",
                                          "drain_us" };
    double *win[3] = { &sw->p.warmup_us, &sw->p.measure_us,
                       &sw->p.drain_us };
    for (int i = 0; i < 3; i++)
        if (*win[i] > 0.5) {
            quick_say(e, "traffic.%s %.6g to 0.5", names[i], *win[i]);
            *win[i] = 0.5;
        }
}

void experiment_quicken(struct experiment *e)
{
    e->quick = true;
    e->quick_note[0] = '\0';
    if (e->info.runs > 1)
        quick_say(e, "experiment.runs %u to 1", e->info.runs);
    e->info.runs = 1;
    if (e->probe.pairs > 2) {
        quick_say(e, "probe.pairs %u to 2", e->probe.pairs);
        e->probe.pairs = 2;
    }
    quick_traffic(e);
    quick_jobs(e);
    struct impact_config *ic = &e->impact;
    if (ic->on) {
        if (ic->runs > 1)
            quick_say(e, "impact.runs %u to 1", ic->runs);
        ic->runs = 1;
        ic->limit_ok = true;
        if (ic->shares.n > 1) {
            quick_say(e, "impact.shares: the first of %u", ic->shares.n);
            ic->shares.n = 1;
        }
        uint32_t cut = 0;
        for (uint32_t i = 0; i < ic->n_victims; i++)
            cut += quick_job(e, &ic->victim[i], "victim");
        if (cut)
            quick_say(e, "%u of %u victims: iterations at most warm-up + 2",
                      cut, ic->n_victims);
        for (uint32_t i = 0; i < ic->n_aggressors; i++) {
            struct job_config *a = &ic->aggressor[i];
            char sizes[256] = "";
            if (a->workload && quick_sizes(a, sizes, sizeof sizes))
                quick_say(e, "aggressor %s (%s): %s", a->name,
                          ((const struct workload *)a->workload)->base.name,
                          sizes);
        }
    }
}

