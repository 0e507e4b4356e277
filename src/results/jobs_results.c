/* results/jobs_results.c — a jobs run's result files: the rows of
 * jobs.csv, iterations.csv, ranks.csv, metrics.csv and variants.csv, and
 * the table a person reads (exp/jobs.h says what each file holds).
 *
 * The run is exp/jobs.c's; it hands the finished run to this writer
 * (struct jobs_writer), which formats every figure: times in microseconds
 * with 6 decimals (exact picoseconds, locale-free), where the packets went
 * (mpi/mpi.h struct dmpi_paths), the SC'19 model's estimates
 * (ctl/sc19_model.h), and per routing variant the statistics of its
 * iteration times after the warm-up (SC'19 §3: median, quartiles, QCD,
 * 95 % CI of the median; results/stats.h) and the share of its bytes in
 * each routing mode (SC'19 Fig. 8's labels). */
#include "results/jobs_results.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/sc19_model.h"
#include "exp/offered.h"
#include "results/phases.h"
#include "results/report.h"
#include "route/route.h"
#include "results/stats.h"

/* t in microseconds with 6 decimals: exact picoseconds, locale-free. */
static void put_us(FILE *f, simtime t)
{
    fprintf(f, "%" PRIu64 ".%06" PRIu64, t / SIMTIME_US, t % SIMTIME_US);
}

/* ---- where the packets went (mpi.h: struct dmpi_paths) ------------------ */

#define PATHS_ANY UINT32_MAX /* paths_sum: whatever the variant */

/* The packets of job r's iterations first .. last-1 that ran variant v
 * of cj (PATHS_ANY: all of them); last may exceed the iterations
 * counted (UINT32_MAX: every post, those after the last mark too). */
static struct dmpi_paths paths_sum(const struct dmpi_job_result *r,
                                   const struct ctl_job *cj, uint32_t first,
                                   uint32_t last, uint32_t v)
{
    struct dmpi_paths w;
    memset(&w, 0, sizeof w);
    if (last > r->n_paths)
        last = r->n_paths;
    for (uint32_t k = first; k < last; k++)
        if (v == PATHS_ANY || ctl_variant(cj, k) == v)
            dmpi_paths_add(&w, &r->paths[k]);
    return w;
}

static uint64_t paths_pkts(const struct dmpi_paths *w)
{
    return w->pkts[PKT_REQ] + w->pkts[PKT_RSP];
}

/* The share of w's packets routed non-minimally and their mean
 * router-to-router hops, requests and responses together (NaN without
 * packets). */
static double paths_nonmin(const struct dmpi_paths *w)
{
    uint64_t n = paths_pkts(w);
    return n ? (double)(w->nonmin[PKT_REQ] + w->nonmin[PKT_RSP]) / (double)n
             : NAN;
}

static double paths_hops(const struct dmpi_paths *w)
{
    uint64_t n = paths_pkts(w);
    return n ? (double)(w->hops[PKT_REQ] + w->hops[PKT_RSP]) / (double)n
             : NAN;
}

/* The CSV fields packets,nonmin_share,hops_mean (6 decimals; the last
 * two empty without packets, as undefined figures are elsewhere). */
static void put_paths(FILE *f, const struct dmpi_paths *w)
{
    fprintf(f, "%" PRIu64 ",", paths_pkts(w));
    if (paths_pkts(w))
        fprintf(f, "%.6f,%.6f", paths_nonmin(w), paths_hops(w));
    else
        fputc(',', f);
}

/* The console's two columns: the non-minimal share in per cent and the
 * mean hops ("-" without packets). */
#define PATHS_HEAD " %8s %6s"
static void table_paths(FILE *f, const struct dmpi_paths *w)
{
    if (paths_pkts(w))
        fprintf(f, " %7.1f%% %6.2f", 100 * paths_nonmin(w), paths_hops(w));
    else
        fprintf(f, " %8s %6s", "-", "-");
}

/* A number of the model for iteration k as a CSV field ("" if none). */
static void put_model(FILE *f, const struct sc19_model *mr, uint32_t j,
                      uint32_t k, int which)
{
    double v = sc19_model_value(mr, j, k, which);
    if (!isnan(v))
        fprintf(f, "%.6f", v);
}

/* How far n nodes spread: the distinct routers their first NICs sit on
 * and the distinct groups of those routers (the packaging's level 2: a
 * dragonfly's group, a torus's cabinet; alloc.h "Distances"). SC'19
 * §5.1 describes its allocations so: 1,024 nodes "on 257 Aries routers
 * spanning over 6 groups" of Piz Daint, 64 nodes "33 routers scattered
 * on 5 Aries groups" of Cori. ",R,G", or "," if out of memory. */
static void put_spread(FILE *f, const struct topo *t, const uint32_t *nodes,
                       uint32_t n)
{
    uint32_t ng = t->family->level_size(t, 2);
    uint8_t *seen = calloc((size_t)t->n_routers + ng + 1, 1);
    if (!seen) {
        fputs(",,", f);
        return;
    }
    uint8_t *gseen = seen + t->n_routers;
    uint32_t routers = 0, groups = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = t->nics[t->nodes[nodes[k]].nic[0]].router;
        uint32_t g = t->family->level_key(t, r, 2);
        routers += !seen[r];
        groups += !gseen[g];
        seen[r] = gseen[g] = 1;
    }
    free(seen);
    fprintf(f, ",%u,%u", routers, groups);
}

/* The header lines of the result files, one place for both uses: with
 * the first run's rows (out->header), or ahead of any run
 * (write_headers). */
static const char jobs_head[] =
    "run,job,name,workload,nodes,ppn,ranks,allocation,background,start_us,"
    "end_us,time_us,finished,iterations,msgs,bytes,packets,nonmin_share,"
    "hops_mean,msg_us,routers,groups\n";
static const char iterations_head[] =
    "run,job,name,iteration,variant,counted,end_us,time_us,model_us,lat_us,"
    "stall_cycles,packets,nonmin_share,hops_mean\n";
static const char ranks_head[] = "run,job,name,rank,node,end_us\n";
static const char waits_head[] =
    "run,job,name,class,at,vc,hops,wait_us,mean_wait_ns,max_wait_us\n";

static void metrics_header(FILE *f)
{
    fprintf(f, "run,job,name,workload,metric,unit,avg,p99,values\n");
}

static void variants_header(FILE *f)
{
    fprintf(f, "run,job,name,variant,iterations,median_us,q1_us,q3_us,"
               "qcd,ci_lo_us,ci_hi_us,min_us,max_us,mean_us,normalized,"
               "model_corr,bytes");
    /* every mode a controller may add, so that the runs' rows line up
     * whatever modes each run used */
    for (uint32_t k = 0; k < CTL_SHARE_MODES; k++)
        fprintf(f, ",share_%s", ctl_share_names[k]);
    fprintf(f, ",packets,nonmin_share,hops_mean\n");
}

static void write_headers(const struct jobs_output *out)
{
    if (out->jobs)
        fputs(jobs_head, out->jobs);
    if (out->iterations)
        fputs(iterations_head, out->iterations);
    if (out->ranks)
        fputs(ranks_head, out->ranks);
    if (out->metrics)
        metrics_header(out->metrics);
    if (out->variants)
        variants_header(out->variants);
    if (out->load)
        offered_csv_header(out->load);
    if (out->waits)
        fputs(waits_head, out->waits);
}

/* metrics.csv: the workloads' own figures (GPCNeT's), 3 decimals. */
static void write_metrics(const struct jobs_config *jc, const struct dmpi *m,
                          const struct jobs_wl_state *state, FILE *f,
                          FILE *table, uint32_t run, bool header)
{
    if (f && header)
        metrics_header(f);
    bool head = false;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct workload *w = (const struct workload *)j->workload;
        struct workload_metric x;
        if (!w->metric ||
            w->metric(state[i].b, &m->res[i],
                      j->background ? 0 : j->warmup, &x) != 0)
            continue;
        if (f)
            fprintf(f, "%u,%u,%s,%s,%s,%s,%.3f,%.3f,%u\n", run, i, j->name,
                    w->base.name, x.name, x.unit, x.avg, x.p99, x.n);
        if (table && !j->fill) {
            if (!head)
                fprintf(table, "\n%-20s %-12s %-10s %12s %12s\n", "job",
                        "metric", "unit", "average", "99th pct");
            head = true;
            fprintf(table, "%-20s %-12s %-10s %12.1f %12.1f\n", j->name,
                    x.name, x.unit, x.avg, x.p99);
        }
    }
}

/* variants.csv: per job and variant, the statistics of its iteration
 * times after `warmup` (SC'19 §3), its median over the job's first
 * variant's, and where its bytes went (the report pools these files'
 * rows over runs: results/report.h). */
static int write_variants(const struct jobs_config *jc, const struct dmpi *m,
                          const struct ctl_run *c,
                          const struct sc19_model *mr,
                          const struct jobs_output *out)
{
    FILE *f = out->variants, *table = out->table;
    if (f && out->header)
        variants_header(f);
    bool head = false;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct dmpi_job_result *r = &m->res[i];
        const struct ctl_job *cj = &c->job[i];
        if (j->background)
            continue;
        uint32_t n = r->n_iter ? r->n_iter : 1;
        double *t = malloc(3 * (size_t)n * sizeof *t);
        if (!t)
            return -1;
        double *est = t + n, *scratch = t + 2 * n;
        double base = 0;
        for (uint32_t v = 0; v < cj->n; v++) {
            uint32_t cnt = 0;
            for (uint32_t k = 0; k < r->n_iter; k++) {
                if (k >= j->warmup && ctl_variant(cj, k) == v) {
                    est[cnt] = sc19_model_value(mr, i, k, SC19_EST);
                    t[cnt++] = (double)r->iter_time[k] / (double)SIMTIME_US;
                }
            }
            double corr = stats_correlation(t, est, cnt);
            struct stats_summary st;
            stats_summarize(t, cnt, scratch, &st);
            if (v == 0)
                base = st.median;
            double norm = base > 0 ? st.median / base : 0;
            uint64_t total = 0;
            for (uint32_t k = 0; k < c->n->n_modes; k++)
                total += ctl_bytes(c, i, v, k);
            /* the packets of the iterations its statistics count */
            struct dmpi_paths w = paths_sum(r, cj, j->warmup, r->n_iter, v);
            if (f) {
                fprintf(f, "%u,%u,%s,%s,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
                           "%.6f,%.6f,%.6f,%.6f,",
                        out->run, i, j->name, cj->v[v]->base.name, cnt,
                        st.median, st.q1, st.q3, st.qcd, st.ci_lo, st.ci_hi,
                        st.min, st.max, st.mean, norm);
                if (!isnan(corr))
                    fprintf(f, "%.6f", corr);
                fprintf(f, ",%" PRIu64, total);
                for (uint32_t k = 0; k < CTL_SHARE_MODES; k++) {
                    uint64_t b = ctl_bytes_named(c, i, v, ctl_share_names[k]);
                    fprintf(f, ",%.6f",
                            total ? (double)b / (double)total : 0.0);
                }
                fputc(',', f);
                put_paths(f, &w);
                fputc('\n', f);
            }
            if (table && cj->n > 1) {
                if (!head)
                    fprintf(table, "\n%-20s %-10s %6s %12s %8s %10s" PATHS_HEAD
                                   "\n",
                            "job", "variant", "iters", "median (us)",
                            "QCD", "normalized", "non-min", "hops");
                head = true;
                if (cnt && base > 0)
                    fprintf(table, "%-20s %-10s %6u %12.3f %8.4f %10.3f",
                            j->name, cj->v[v]->base.name, cnt, st.median,
                            st.qcd, norm);
                else if (cnt) /* the first variant measured nothing */
                    fprintf(table, "%-20s %-10s %6u %12.3f %8.4f %10s",
                            j->name, cj->v[v]->base.name, cnt, st.median,
                            st.qcd, "-");
                else /* no iteration measured: no figure that looks so */
                    fprintf(table, "%-20s %-10s %6u %12s %8s %10s", j->name,
                            cj->v[v]->base.name, cnt, "-", "-", "-");
                table_paths(table, &w);
                fputc('\n', table);
            }
        }
        free(t);
    }
    return 0;
}

/* jobs.csv's rows, a job a row (and the header line if out asks). */
static void write_jobs(const struct jobs_run_view *v,
                       const struct jobs_output *out)
{
    const struct jobs_config *jc = v->jc;
    const struct dmpi *m = v->m;
    const struct ctl_run *c = v->c;
    if (out->header)
        fputs(jobs_head, out->jobs);
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct dmpi_job_result *r = &m->res[i];
        fprintf(out->jobs, "%u,%u,%s,%s,%u,%u,%u,%s,%d,", out->run, i, j->name,
                j->workload->name, j->nodes, j->ppn, jobs_ranks(j),
                j->allocation->name, j->background ? 1 : 0);
        if (r->start != SIMTIME_MAX) /* empty: a chained job that
                                        never started */
            put_us(out->jobs, r->start);
        fputc(',', out->jobs);
        if (r->finished) {
            put_us(out->jobs, r->end);
            fputc(',', out->jobs);
            put_us(out->jobs, r->end - r->start);
        } else {
            fputc(',', out->jobs);
        }
        fprintf(out->jobs, ",%d,%u,%" PRIu64 ",%" PRIu64 ",",
                r->finished ? 1 : 0, r->n_iter, r->msgs, r->bytes);
        /* every packet of the run, warm-up and all */
        struct dmpi_paths w =
            paths_sum(r, &c->job[i], 0, UINT32_MAX, PATHS_ANY);
        put_paths(out->jobs, &w);
        /* Netscope's M: the mean network message time (mpi.h) */
        fputc(',', out->jobs);
        if (r->msg_timed)
            put_us(out->jobs, (r->msg_time + r->msg_timed / 2) /
                                  r->msg_timed);
        put_spread(out->jobs, m->t, v->nodes[i], j->nodes);
        fputc('\n', out->jobs);
    }
}

/* iterations.csv's rows, an iteration of a job a row. */
static void write_iterations(const struct jobs_run_view *v,
                             const struct jobs_output *out)
{
    const struct jobs_config *jc = v->jc;
    const struct dmpi *m = v->m;
    const struct ctl_run *c = v->c;
    const struct sc19_model *mr = v->mr;
    if (out->header)
        fputs(iterations_head, out->iterations);
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct dmpi_job_result *r = &m->res[i];
        const struct ctl_job *cj = &c->job[i];
        for (uint32_t k = 0; k < r->n_iter; k++) {
            fprintf(out->iterations, "%u,%u,%s,%u,%s,%d,", out->run, i,
                    jc->job[i].name, k,
                    cj->v[ctl_variant(cj, k)]->base.name,
                    !jc->job[i].background && k >= jc->job[i].warmup);
            put_us(out->iterations, r->iter_end[k]);
            fputc(',', out->iterations);
            put_us(out->iterations, r->iter_time[k]);
            for (int w = 0; w < 3; w++) {
                fputc(',', out->iterations);
                put_model(out->iterations, mr, i, k, w);
            }
            fputc(',', out->iterations);
            struct dmpi_paths w = paths_sum(r, cj, k, k + 1, PATHS_ANY);
            put_paths(out->iterations, &w);
            fputc('\n', out->iterations);
        }
    }
}

/* ranks.csv's rows, a rank of a job a row. */
static void write_ranks(const struct jobs_run_view *v,
                        const struct jobs_output *out)
{
    const struct jobs_config *jc = v->jc;
    const struct dmpi *m = v->m;
    uint32_t *const *nodes = v->nodes;
    if (out->header)
        fputs(ranks_head, out->ranks);
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct dmpi_job_result *r = &m->res[i];
        for (uint32_t k = 0; k < r->n_ranks; k++) {
            fprintf(out->ranks, "%u,%u,%s,%u,%u,", out->run, i, j->name, k,
                    alloc_rank_node(nodes[i], j->ppn, k));
            if (r->rank_end[k] != SIMTIME_MAX)
                put_us(out->ranks, r->rank_end[k]);
            fputc('\n', out->ranks);
        }
    }
}

/* waits.csv's rows: where each job's packets waited (mpi.h, struct
 * dmpi_waits), a row per class, place and VC with hops; "nic" is the
 * packets' own NIC, before injection, the rest the router ports' kinds
 * as the hardware names them (topo.h). */
static void write_waits(const struct jobs_run_view *v,
                        const struct jobs_output *out)
{
    static const char *const cls[2] = { "request", "response" };
    if (out->header)
        fputs(waits_head, out->waits);
    for (uint32_t i = 0; i < v->jc->n; i++) {
        const struct dmpi_waits *w = v->m->res[i].waits;
        for (int c = 0; w && c < 2; c++)
            for (uint32_t k = 0; k < PORT_KIND_COUNT; k++)
                for (uint32_t vc = 0; vc < NET_MAX_SEGS; vc++) {
                    uint64_t h = w->hops[c][k][vc];
                    if (!h)
                        continue;
                    fprintf(out->waits, "%u,%u,%s,%s,%s,%u,%" PRIu64 ",",
                            out->run, i, v->jc->job[i].name, cls[c],
                            k == PORT_UNUSED ? "nic"
                                             : topo_port_kind_name(k),
                            vc, h);
                    put_us(out->waits, w->wait[c][k][vc]);
                    fprintf(out->waits, ",%.3f,",
                            (double)w->wait[c][k][vc] / (double)h /
                                (double)SIMTIME_NS);
                    put_us(out->waits, w->max[c][k][vc]);
                    fputc('\n', out->waits);
                }
    }
}

/* The table of the jobs a person reads (out->table). */
static void write_table(const struct jobs_run_view *v,
                        const struct jobs_output *out)
{
    const struct jobs_config *jc = v->jc;
    const struct dmpi *m = v->m;
    const struct ctl_run *c = v->c;
    fprintf(out->table, "%-20s %-18s %7s %12s %14s %10s" PATHS_HEAD
                        "\n",
            "job", "workload", "ranks", "start (us)", "run time (us)",
            "iterations", "non-min", "hops");
    uint32_t fill_jobs = 0, fill_nodes = 0;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct dmpi_job_result *r = &m->res[i];
        if (j->fill) { /* one line for all (jobs.csv lists each) */
            fill_jobs++;
            fill_nodes += j->nodes;
            continue;
        }
        char time[32], start[32] = "(never)";
        if (r->start != SIMTIME_MAX)
            snprintf(start, sizeof start, "%.3f",
                     (double)r->start / (double)SIMTIME_US);
        if (r->finished)
            snprintf(time, sizeof time, "%.3f",
                     (double)(r->end - r->start) / (double)SIMTIME_US);
        else
            snprintf(time, sizeof time, "%s",
                     j->background ? "(stopped)" : "(unfinished)");
        fprintf(out->table, "%-20s %-18s %7u %12s %14s %10u",
                j->name, j->workload->name, jobs_ranks(j), start, time,
                r->n_iter);
        struct dmpi_paths w =
            paths_sum(r, &c->job[i], 0, UINT32_MAX, PATHS_ANY);
        table_paths(out->table, &w);
        fputc('\n', out->table);
    }
    if (fill_jobs)
        fprintf(out->table,
                "+ %u background jobs of the production fill on %u "
                "nodes (bg-*: jobs.csv)\n",
                fill_jobs, fill_nodes);
}

/* The run's rows in every file out has open, its table, metrics.csv's
 * and variants.csv's rows. */
static int write_results(const struct jobs_run_view *v,
                         const struct jobs_output *out)
{
    const struct jobs_config *jc = v->jc;
    const struct dmpi *m = v->m;
    const struct ctl_run *c = v->c;
    const struct sc19_model *mr = v->mr;
    const struct jobs_wl_state *state = v->state;
    if (out->jobs)
        write_jobs(v, out);
    if (out->iterations)
        write_iterations(v, out);
    if (out->ranks)
        write_ranks(v, out);
    if (out->waits)
        write_waits(v, out);
    if (out->table)
        write_table(v, out);
    write_metrics(jc, m, state, out->metrics, out->table, out->run,
                  out->header);
    return write_variants(jc, m, c, mr, out);
}

int jobs_results_write(const struct jobs_run_view *v,
                       const struct jobs_output *out)
{
    return write_results(v, out);
}

void jobs_results_headers(const struct jobs_output *out)
{
    write_headers(out);
}

int jobs_results_report(const struct experiment *e,
                        const struct net_params *np, const char *outdir)
{
    uint32_t n_runs = e->info.runs;
    struct report_info info = {
        .title = e->info.name, .description = e->info.description,
        .system = e->system ? e->system->base.name : e->builder->base.name,
        .routing = np->routing->base.name,
        .seed = (uint64_t)e->info.seed,
        .table = n_runs > 1 ? stdout : NULL };
    bool drawn;
    if (phases_write(outdir, stderr) < 0)
        return -1;
    int rrc = report_from_results(outdir, &info, &drawn, stderr);
    if (rrc < 0)
        return -1;
    if (rrc == 1) /* not gnuplot's fault: say what it is */
        fprintf(stderr, "  report: no counted iteration to plot (the runs "
                        "ended before the jobs' counted iterations)\n");
    else if (!drawn)
        fprintf(stderr, "  report: the plot was not drawn (gnuplot missing "
                        "or failed: %s/report.log); `gnuplot variants.gp` "
                        "there draws it\n",
                outdir);
    return 0;
}

const struct jobs_writer jobs_results_writer = {
    .headers = jobs_results_headers,
    .write = jobs_results_write,
};
