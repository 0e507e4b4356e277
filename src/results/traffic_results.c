/* results/traffic_results.c — a traffic sweep's results: its table on
 * stdout and its report page (results/traffic_report.h), from the points
 * the runner finished (exp/runner.h). */
#include "results/traffic_results.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "exp/runner.h"
#include "results/traffic_report.h"
#include "route/route.h"

/* The page of a traffic sweep's points res[0..done) (results/traffic_report.h):
 * report.html, or traffic.html beside a jobs or impact report. */
const char *traffic_results_page(const struct experiment *e)
{
    return e->jobs.n || e->impact.on ? "traffic.html" : "report.html";
}

static int traffic_report(const struct experiment *e,
                          const struct net_params *base, const char *outdir,
                          const struct traffic_result *res, uint32_t done)
{
    const struct traffic_sweep *sw = &e->traffic;
    struct traffic_point *pt = calloc(done, sizeof *pt);
    if (!pt) {
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    for (uint32_t k = 0; k < done; k++)
        pt[k] = (struct traffic_point){
            .routing = runner_point_routing(sw, base->routing, k)->base.name,
            .load = sw->loads.v[k % sw->loads.n], .r = res[k] };
    struct traffic_report_info info = {
        .page = traffic_results_page(e), .title = e->info.name,
        .description = e->info.description,
        .system = e->system ? e->system->base.name : e->builder->base.name,
        .pattern = traffic_pattern_names[sw->p.pattern],
        .size = sw->p.size ? sw->p.size : (int64_t)base->max_payload,
        .warmup_us = sw->p.warmup_us, .measure_us = sw->p.measure_us,
        .seed = (uint64_t)e->info.seed };
    bool drawn;
    int rc = traffic_report_write(outdir, &info, pt, done, &drawn, stderr);
    if (rc == 0 && !drawn)
        fprintf(stderr, "  report: the figures were not drawn (gnuplot "
                        "missing or failed: %s/traffic.log); `gnuplot "
                        "traffic.gp` there draws them\n",
                outdir);
    free(pt);
    return rc;
}

int traffic_results(const struct experiment *e, const struct net_params *base,
                    const char *outdir, const struct traffic_result *res,
                    uint32_t done, bool report)
{
    const struct traffic_sweep *sw = &e->traffic;
    const struct routing *def = base->routing; /* network.routing */
    uint32_t n_l = sw->loads.n;
    const char *pattern = traffic_pattern_names[sw->p.pattern];
    if (done) {
        printf("\nsynthetic traffic: %s, %" PRId64 "-byte messages, "
               "%.1f us warm-up, %.1f us measured\n",
               pattern,
               sw->p.size ? sw->p.size : (int64_t)base->max_payload,
               sw->p.warmup_us, sw->p.measure_us);
        printf("  %-12s %6s %8s %8s %10s %10s %10s %6s %8s\n", "routing",
               "load", "offered", "accepted", "mean ns", "median ns",
               "p99 ns", "hops", "minimal");
        uint32_t sat = 0, unsteady_n = 0;
        for (uint32_t k = 0; k < done; k++) {
            const struct traffic_result *o = &res[k];
            const struct routing *r =
                sw->routings.n
                    ? (const struct routing *)sw->routings.v[k / n_l]
                    : def;
            printf("  %-12s %6.3f %8.3f %8.3f ", r->base.name,
                   sw->loads.v[k % n_l], o->offered, o->accepted);
            if (o->packets)
                printf("%10.1f %10.0f %10.0f %6.2f %8.3f", o->lat_mean_ns,
                       o->lat_median_ns, o->lat_p99_ns, o->hops_mean,
                       1.0 - o->frac_nonmin);
            else /* nothing was measured: no figure that looks measured */
                printf("%10s %10s %10s %6s %8s", "-", "-", "-", "-", "-");
            bool unsteady = !o->steady && o->packets && !o->deadlock;
            printf("%s%s%s%s%s\n", o->saturated ? "  saturated" : "",
                   unsteady ? "  not steady" : "",
                   o->packets ? "" : "  no packet measured",
                   o->drained ? "" : "  not drained",
                   o->deadlock ? "  DEADLOCK" : "");
            sat += o->saturated;
            unsteady_n += unsteady;
        }
        if (sat)
            printf("  saturated: accepted below offered, or the source "
                   "queues grew, by more than %.0f %% of the messages "
                   "offered in the window's second half (and 3 sigma): "
                   "the latency there "
                   "is a growing queue's, not the load's\n",
                   100 * TRAFFIC_SAT_TOL);
        if (unsteady_n)
            printf("  not steady: lengthen warm-up. The window's second "
                   "half opened less than %.0f first-packet latencies "
                   "(traffic.csv fill_ns) after the sources started, "
                   "while the empty network was still filling: whether "
                   "the load saturates cannot be told, and the latency "
                   "is an empty network's\n",
                   TRAFFIC_FILL_FACTOR);
    }
    if (report && done && traffic_report(e, base, outdir, res, done) != 0)
        return -1;
    return 0;
}
