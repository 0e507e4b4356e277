/* cli/cli_run.c — `dfsim run FILE [-o DIR] [--seed N] [--resume] [--force]`: run an
 * experiment file and write its results under DIR (default
 * results/<name>): the
 * system's figures (topology.json), the zero-load probe (probe.csv) and,
 * with a traffic section, the synthetic-traffic sweep (traffic.csv, one
 * row per run written as it finishes, so an interrupted sweep keeps what
 * it measured, and --resume goes on after the last row) and, with a
 * sampling section, the counters sampled during
 * each run (nic_samples.csv and rtr_samples.csv; with several runs, one
 * pair per run, named nic_samples_<routing>_<load>.csv) and, with a jobs
 * list, experiment.runs runs of all its jobs together (jobs.csv,
 * iterations.csv, ranks.csv, metrics.csv, variants.csv, load.csv (the
 * offered load, exp/offered.h), rows appended run
 * by run and runs.csv recording each; --resume goes on from the first run
 * not recorded; exp/jobs.h) and report.html over them (exp/report.h);
 * with an impact section, the congestion-impact study (impact.csv,
 * impact_runs.csv, the jobs runner's files over all its simulations and
 * report.html with the heat maps; exp/impact.h). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "exp/par.h"
#include "core/sim.h"
#include "core/time.h"
#include "exp/experiment.h"
#include "exp/fingerprint.h"
#include "exp/job_counters.h"
#include "exp/outdir.h"
#include "exp/report.h"
#include "exp/traffic.h"
#include "exp/traffic_report.h"
#include "net/net.h"
#include "route/route.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim run FILE [-o DIR] [--seed N] [--resume] [--force]\n"
            "                      [--max-memory SIZE] [--quick]\n\n"
            "Run the experiment described in FILE (libconfig format; see\n"
            "examples/example.cfg) and write its results into DIR\n"
            "(default results/<experiment name>): topology.json and one CSV\n"
            "row per measurement, written as each finishes.\n\n"
            "  -o, --output DIR   results folder (created if missing)\n"
            "  --seed N           seed of every random stream (overrides\n"
            "                     experiment.seed)\n"
            "  --resume           go on with an interrupted experiment: its\n"
            "                     traffic sweep after the last point\n"
            "                     DIR/traffic.csv records, its jobs' runs\n"
            "                     (experiment.runs) from the first that\n"
            "                     DIR/runs.csv does not record as done; the\n"
            "                     file must be the one DIR was started with\n"
            "                     (same settings and seed)\n"
            "  --force            replace the results of another experiment\n"
            "                     in DIR (dfsim refuses a folder that is not\n"
            "                     empty and not this experiment's)\n"
            "  --max-memory SIZE  refuse a system estimated to need more\n"
            "                     memory than SIZE (bytes, or with K, M, G\n"
            "                     or T: KiB .. TiB; e.g. 512M, 1.5G);\n"
            "                     default: the memory the machine has\n"
            "                     available (MemAvailable in /proc/meminfo)\n"
            "  --quick            every part of the experiment, cut short\n"
            "                     (one run, one load per routing, short\n"
            "                     windows, 2 iterations a job, ...): checks\n"
            "                     a file end to end in seconds; no results\n"
            "                     (default DIR results/<name>-quick)\n"
            "  -h, --help         this text, then every key of an "
            "experiment file\n\n");
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* Whether the experiment samples counters during its traffic runs. */
static bool sampling_on(const struct experiment *e)
{
    return e->has_traffic &&
           (e->sampling.nic || e->sampling.rtr || e->sampling.links);
}

/* The counter files a sampling section writes, ", name<sfx>.ext" each,
 * appended to buf at len; returns the new length. */
static size_t list_counter_files(char *buf, size_t cap, size_t len,
                                 const struct sampler_config *c,
                                 const char *sfx, const char *links)
{
    const char *name[3] = { "nic_samples", "rtr_samples", links };
    const char *ext[3] = { "csv", "csv", "txt" };
    bool on[3] = { c->nic, c->rtr, c->links };
    for (int k = 0; k < 3; k++)
        if (on[k] && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, ", %s%s.%s",
                                    name[k], sfx, ext[k]);
    return len < cap ? len : cap - 1;
}

/* The routing of point k of the sweep (routings outermost). */
static const struct routing *point_routing(const struct traffic_sweep *sw,
                                           const struct routing *def,
                                           uint32_t k)
{
    return sw->routings.n
               ? (const struct routing *)sw->routings.v[k / sw->loads.n]
               : def;
}

/* How many points of the sweep dir/traffic.csv records as finished: its
 * leading whole rows, each the point the sweep runs at its place
 * (routing, pattern, load), read back into res[]. The file is cut to
 * them and its header (what an interrupted run left after them, a file
 * of another header: dropped), so that the sweep appends from there.
 * A missing file: 0. -1 if the file cannot be rewritten (reported). */
static long finished_points(const char *dir, const struct traffic_sweep *sw,
                            const struct routing *def,
                            struct traffic_result *res)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/traffic.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return 0;
    char *head = NULL, *line = NULL;
    size_t head_len = 0, cap = 0;
    FILE *hs = open_memstream(&head, &head_len);
    FILE *out = fopen(tmp, "w");
    long n = -1;
    if (!hs || !out) {
        fprintf(stderr, "dfsim run: cannot resume from %s: %s\n", path,
                strerror(errno));
        goto done;
    }
    traffic_csv_header(hs);
    fclose(hs);
    hs = NULL;
    fputs(head, out);
    n = 0;
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    if (getline(&line, &cap, in) > 0 && strcmp(line, head) == 0)
        while (n < (long)total && getline(&line, &cap, in) > 0 &&
               traffic_csv_parse(line, point_routing(sw, def, (uint32_t)n)
                                           ->base.name,
                                 traffic_pattern_names[sw->p.pattern],
                                 sw->loads.v[n % sw->loads.n],
                                 &res[n]) == 0) {
            fputs(line, out);
            n++;
        }
done:
    if (hs)
        fclose(hs);
    free(head);
    free(line);
    fclose(in);
    if (out && (fclose(out) != 0 || (n >= 0 && rename(tmp, path) != 0))) {
        fprintf(stderr, "dfsim run: cannot resume from %s: %s\n", path,
                strerror(errno));
        n = -1;
    }
    if (n < 0)
        unlink(tmp);
    return n;
}

/* The traffic sweep's units for par_deal: its points. */
struct traffic_deal {
    const struct experiment *e;
    const struct topo *t;
    const struct net_params *base;
    const char *outdir;
    struct diag *d;
    FILE *csv;                  /* rank 0: traffic.csv */
    struct traffic_result *res; /* rank 0: the points written, read back */
    uint32_t done;              /* rank 0: points in res */
};

/* Point k of the sweep: its row of traffic.csv into u (its counter
 * samples into their own files); a progress line on stderr. */
static int traffic_unit(void *ctx, uint32_t k, struct par_unit *u)
{
    struct traffic_deal *td = ctx;
    const struct experiment *e = td->e;
    const struct traffic_sweep *sw = &e->traffic;
    const struct routing *r = point_routing(sw, td->base->routing, k);
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    struct net_params np = *td->base;
    np.routing = r;
    struct traffic_params tp = sw->p;
    tp.load = sw->loads.v[k % sw->loads.n];
    tp.progress = stderr;
    char nic_path[4096], rtr_path[4096], links_path[4096];
    if (sampling_on(e)) {
        /* one set of files per run; plain names for one run */
        char tag[128] = "";
        if (total > 1)
            snprintf(tag, sizeof tag, "_%s_%.4f", r->base.name, tp.load);
        snprintf(nic_path, sizeof nic_path, "%s/nic_samples%s.csv",
                 td->outdir, tag);
        snprintf(rtr_path, sizeof rtr_path, "%s/rtr_samples%s.csv",
                 td->outdir, tag);
        snprintf(links_path, sizeof links_path, "%s/links%s.txt", td->outdir,
                 tag);
        sampler_config_params(&e->sampling, &tp.sampling);
        tp.sampling.nic_path = nic_path;
        tp.sampling.rtr_path = rtr_path;
        if (e->sampling.links)
            tp.sampling.links_path = links_path;
    }
    double t0 = time_wall_seconds();
    struct traffic_result o;
    int rc = traffic_run(td->t, &np, &tp, (uint64_t)e->info.seed,
                         EVQ_DEFAULT, &o, td->d);
    if (rc != 0)
        return rc; /* -1, or SIM_INTERRUPTED: nothing of the run */
    const char *pattern = traffic_pattern_names[sw->p.pattern];
    FILE *ms = open_memstream(&u->part[0], &u->len[0]);
    if (ms) {
        u->n = 1;
        traffic_csv_row(ms, r->base.name, pattern, tp.load, &o);
    }
    if (!ms || fclose(ms) != 0) {
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    double wall = time_wall_seconds() - t0;
    char samples[64] = "";
    if (sampling_on(e))
        snprintf(samples, sizeof samples, ", %" PRIu64 " samples",
                 o.samples);
    char lat[96];
    if (o.packets)
        snprintf(lat, sizeof lat, "latency mean %.1f ns p99 %.0f ns",
                 o.lat_mean_ns, o.lat_p99_ns);
    else
        snprintf(lat, sizeof lat, "no packet measured");
    const char *on = par_where();
    fprintf(stderr,
            "traffic %u/%u%s: %s %s load %.3f: offered %.3f, accepted %.3f, "
            "%s%s%s%s%s (%.1f s, %.2f M events/s)\n",
            k + 1, total, on, r->base.name, pattern, tp.load, o.offered,
            o.accepted, lat, o.saturated ? ", SATURATED" : "",
            o.drained ? "" : ", not drained", o.deadlock ? ", DEADLOCK" : "",
            samples, wall, wall > 0 ? (double)o.events / wall / 1e6 : 0.0);
    return 0;
}

/* Rank 0: point k's row into traffic.csv, and read back into res[k] (the
 * table shows the row as recorded, so that a resumed sweep, which reads
 * the rows back, prints the same table). */
static int traffic_commit(void *ctx, uint32_t k, struct par_unit *u)
{
    struct traffic_deal *td = ctx;
    const struct traffic_sweep *sw = &td->e->traffic;
    if (u->status != 0)
        return u->status;
    if (u->n != 1 ||
        traffic_csv_parse(u->part[0],
                          point_routing(sw, td->base->routing, k)->base.name,
                          traffic_pattern_names[sw->p.pattern],
                          sw->loads.v[k % sw->loads.n], &td->res[k]) != 0) {
        fprintf(stderr, "dfsim run: traffic point %u: its row does not read "
                        "back (a bug)\n", k + 1);
        return -1;
    }
    fputs(u->part[0], td->csv);
    fflush(td->csv);
    td->done = k + 1;
    return 0;
}

/* The page of a traffic sweep's points res[0..done) (exp/traffic_report.h):
 * report.html, or traffic.html beside a jobs or impact report. */
static const char *traffic_page(const struct experiment *e)
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
            .routing = point_routing(sw, base->routing, k)->base.name,
            .load = sw->loads.v[k % sw->loads.n], .r = res[k] };
    struct traffic_report_info info = {
        .page = traffic_page(e), .title = e->info.name,
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

/* The traffic sweep: one run per (routing, load), routings outermost,
 * dealt over the ranks (exp/par.h). Each run is a row of traffic.csv as
 * soon as it (and every point before it) finishes and a progress line on
 * stderr; a table on stdout at the end. With resume, the points
 * traffic.csv records are kept and the sweep goes on after them.
 * Returns 0, -1 or SIM_INTERRUPTED. */
static int run_traffic(const struct experiment *e, const struct topo *t,
                       const struct net_params *base, const char *outdir,
                       bool resume, struct diag *d)
{
    const struct traffic_sweep *sw = &e->traffic;
    const struct routing *def = base->routing; /* network.routing */
    uint32_t n_r = sw->routings.n ? sw->routings.n : 1;
    uint32_t n_l = sw->loads.n;
    uint32_t total = n_r * n_l;
    const char *pattern = traffic_pattern_names[sw->p.pattern];
    bool rank0 = par_rank() == 0;
    struct traffic_deal td = { .e = e, .t = t, .base = base,
                               .outdir = outdir, .d = d };
    long first = 0;
    if (rank0) {
        td.res = calloc(total, sizeof *td.res);
        if (!td.res)
            fprintf(stderr, "dfsim run: out of memory\n");
        first = !td.res ? -1
                : resume ? finished_points(outdir, sw, def, td.res)
                         : 0;
        char path[4096];
        snprintf(path, sizeof path, "%s/traffic.csv", outdir);
        td.csv = first < 0 ? NULL : fopen(path, first > 0 ? "a" : "w");
        if (first >= 0 && !td.csv) {
            fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                    strerror(errno));
            first = -1;
        }
    }
    first = par_bcast(first);
    if (first < 0) {
        if (td.csv)
            fclose(td.csv);
        free(td.res);
        return -1;
    }
    td.done = (uint32_t)first;
    if (rank0) {
        if (first == (long)total)
            printf("\nresuming: all %u traffic run%s were done\n", total,
                   total == 1 ? "" : "s");
        else if (first > 0)
            printf("\nresuming: traffic runs 1-%ld of %u were done\n", first,
                   total);
        fflush(stdout);
        if (first == 0)
            traffic_csv_header(td.csv);
        fflush(td.csv);
    }
    int rc = par_deal((uint32_t)first, total, traffic_unit, traffic_commit,
                      &td);
    if (rc == PAR_NOT_RUN) /* only after another rank's unit failed */
        rc = -1;
    if (td.csv)
        fclose(td.csv);
    uint32_t done = rank0 ? td.done : 0; /* the table: rank 0's */
    struct traffic_result *res = td.res;
    if (done) {
        printf("\nsynthetic traffic: %s, %" PRId64 "-byte messages, "
               "%.1f us warm-up, %.1f us measured\n",
               pattern,
               sw->p.size ? sw->p.size : (int64_t)base->max_payload,
               sw->p.warmup_us, sw->p.measure_us);
        printf("  %-12s %6s %8s %8s %10s %10s %10s %6s %8s\n", "routing",
               "load", "offered", "accepted", "mean ns", "median ns",
               "p99 ns", "hops", "minimal");
        uint32_t sat = 0;
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
            printf("%s%s%s%s\n", o->saturated ? "  saturated" : "",
                   o->packets ? "" : "  no packet measured",
                   o->drained ? "" : "  not drained",
                   o->deadlock ? "  DEADLOCK" : "");
            sat += o->saturated;
        }
        if (sat)
            printf("  saturated: accepted below offered, or the source "
                   "queues grew, by more than %.0f %% of the messages "
                   "offered in the window's second half (and 3 sigma): "
                   "the latency there "
                   "is a growing queue's, not the load's\n",
                   100 * TRAFFIC_SAT_TOL);
    }
    if (rc == 0 && done && traffic_report(e, base, outdir, res, done) != 0)
        rc = -1;
    free(res);
    return rc;
}

static const char *const job_files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "variants.csv", "load.csv",
                                         "runs.csv" };
#define N_JOB_FILES (sizeof job_files / sizeof job_files[0])

/* Keep in dir/name only the header and the complete rows of runs below
 * `keep` (the first field): what a resumed experiment continues from.
 * Returns 0 or -1. */
static int keep_runs(const char *dir, const char *name, uint32_t keep)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fclose(in);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool first = true;
    while ((len = getline(&line, &cap, in)) > 0) {
        if (line[len - 1] != '\n')
            break; /* cut short by the interruption */
        char *end;
        unsigned long run = strtoul(line, &end, 10);
        if (first || (end != line && *end == ',' && run < keep))
            fputs(line, out);
        first = false;
    }
    free(line);
    fclose(in);
    if (fclose(out) != 0 || rename(tmp, path) != 0)
        return -1;
    return 0;
}

/* How many runs of this experiment dir/runs.csv records as finished
 * (rows 0, 1, ... with the seeds seed + run, in unsigned 64-bit
 * arithmetic as the runs use them, so a seed near INT64_MAX is no
 * overflow); -1 if it records another experiment's (reported). A missing
 * file: 0. */
static long finished_runs(const char *dir, int64_t seed)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    long n = 0;
    bool head = true;
    while (fgets(line, sizeof line, f)) {
        if (head) {
            head = false;
            continue;
        }
        if (!strchr(line, '\n'))
            break;
        char *end;
        errno = 0;
        unsigned long long run = strtoull(line, &end, 10);
        if (errno || end == line || *end != ',' || run != (unsigned long)n)
            break;
        const char *sp = end + 1;
        unsigned long long s = strtoull(sp, &end, 10);
        if (errno || end == sp || *sp == '-' || *end != ',')
            break;
        uint64_t want = (uint64_t)seed + (uint64_t)run;
        if (s != want) {
            fprintf(stderr, "dfsim run: %s: run %llu was made with seed %llu, "
                            "this experiment's is %" PRIu64 "; resume needs "
                            "the same experiment and seed\n",
                    path, run, s, want);
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}

/* The jobs list's units for par_deal: its runs. */
struct jobs_deal {
    const struct experiment *e;
    const struct topo *t;
    const struct net_params *np;
    const char *outdir;
    struct diag *d;
    FILE *files[N_JOB_FILES]; /* rank 0: job_files[], runs.csv last */
};

/* The texts of a run's unit: one per file of job_files[], then the
 * table printed for a person. */
enum { JOBS_TABLE = N_JOB_FILES, JOBS_PARTS };

/* Run r of the jobs (seed + r): its rows of every file and its table
 * (the last run's) into u; its counter samples into their own files. */
static int jobs_unit(void *ctx, uint32_t r, struct par_unit *u)
{
    struct jobs_deal *jd = ctx;
    const struct experiment *e = jd->e;
    const char *outdir = jd->outdir;
    uint32_t n_runs = e->info.runs;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    FILE *f[JOBS_PARTS];
    u->n = JOBS_PARTS;
    bool ok = true;
    for (uint32_t i = 0; i < JOBS_PARTS; i++) {
        f[i] = ok ? open_memstream(&u->part[i], &u->len[i]) : NULL;
        ok = ok && f[i];
    }
    if (!ok) {
        for (uint32_t i = 0; i < JOBS_PARTS && f[i]; i++)
            fclose(f[i]);
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    struct jobs_output out = { .progress = stderr, .jobs = f[0],
                               .iterations = f[1], .ranks = f[2],
                               .metrics = f[3], .variants = f[4],
                               .load = f[5], .run = r };
    double t0 = time_wall_seconds();
    uint64_t seed = (uint64_t)e->info.seed + r;
    const char *on = par_where();
    if (n_runs > 1)
        fprintf(stderr, "  run %u/%u (seed %" PRIu64 ")%s\n", r + 1, n_runs,
                seed, on);
    out.table = r + 1 == n_runs ? f[JOBS_TABLE] : NULL;
    if (out.table && n_runs > 1)
        /* the tables jobs_run prints are this run's alone; the pooled
         * figures follow the report */
        fprintf(out.table, "\nrun %u of %u (seed %" PRIu64 "), this run "
                           "alone:\n",
                r + 1, n_runs, seed);
    /* the counters of the run: one set of files per run; plain names for
     * one run */
    char nic_path[4096], rtr_path[4096], links_path[4096], tag[32] = "";
    struct sampler_params sp;
    struct job_counters_params cp = { 0 };
    if (n_runs > 1 || e->has_traffic) /* apart from the traffic's */
        snprintf(tag, sizeof tag, "%s_run%u", e->has_traffic ? "_jobs" : "",
                 r);
    if (e->sampling.nic || e->sampling.rtr) {
        snprintf(nic_path, sizeof nic_path, "%s/nic_samples%s.csv", outdir,
                 tag);
        snprintf(rtr_path, sizeof rtr_path, "%s/rtr_samples%s.csv", outdir,
                 tag);
        sampler_config_params(&e->sampling, &sp);
        sp.nic_path = nic_path;
        sp.rtr_path = rtr_path;
        cp.sampling = &sp;
    }
    if (e->sampling.links) {
        snprintf(links_path, sizeof links_path, "%s/job_links%s.txt", outdir,
                 tag);
        cp.links_path = links_path;
    }
    out.counters = job_counters_on(&cp) ? &cp : NULL;
    simtime end = 0;
    int rc = jobs_run(&e->jobs, jd->t, jd->np, seed, e->info.time_limit,
                      &out, &end, jd->d);
    if (rc >= 0)
        fprintf(f[N_JOB_FILES - 1], "%u,%" PRIu64 ",%" PRIu64 ".%06" PRIu64
                                    ",%d\n",
                r, seed, end / SIMTIME_US, end % SIMTIME_US, rc == 0);
    for (uint32_t i = 0; i < JOBS_PARTS; i++)
        if (fclose(f[i]) != 0)
            ok = false;
    if (!ok) {
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    if (rc == 1)
        fprintf(stderr,
                "dfsim run: the jobs of run %u had not ended after %s (%.3f "
                "ms of simulated time); their results so far are written, "
                "marked unfinished\n",
                r, e->quick ? "the --quick limit" : "experiment.time_limit_ms",
                (double)e->info.time_limit / (double)SIMTIME_MS);
    if (rc >= 0)
        fprintf(stderr, "  jobs ran in %.1f s\n", time_wall_seconds() - t0);
    return rc;
}

/* Rank 0: run r's rows into the files (a run that ended at the time
 * limit too: its results are kept, marked unfinished) and its table on
 * stdout. */
static int jobs_commit(void *ctx, uint32_t r, struct par_unit *u)
{
    struct jobs_deal *jd = ctx;
    if (u->status != 0 && u->status != 1)
        return u->status;
    if (u->n != JOBS_PARTS) {
        fprintf(stderr, "dfsim run: run %u: a malformed result (a bug)\n", r);
        return -1;
    }
    for (uint32_t i = 0; i < N_JOB_FILES; i++) {
        fwrite(u->part[i], 1, u->len[i], jd->files[i]);
        fflush(jd->files[i]);
    }
    fwrite(u->part[JOBS_TABLE], 1, u->len[JOBS_TABLE], stdout);
    fflush(stdout);
    return u->status;
}

/* The jobs: experiment.runs runs of all of them together, run r with
 * seed + r (fresh allocations), dealt over the ranks (exp/par.h); each
 * run's rows are appended to jobs.csv, iterations.csv, ranks.csv,
 * metrics.csv and variants.csv and the run to runs.csv as soon as it
 * (and every run before it) ends, so an interrupted experiment keeps
 * every run it finished, and --resume goes on from the first it had not.
 * Then report.html over all runs. Returns 0 or -1 (a run that hit
 * experiment.time_limit_ms is reported and its results kept, but fails
 * the command). */
static int run_jobs(const struct experiment *e, const struct topo *t,
                    const struct net_params *np, const char *outdir,
                    bool resume, struct diag *d)
{
    struct jobs_deal jd = { .e = e, .t = t, .np = np, .outdir = outdir,
                            .d = d };
    uint32_t n_runs = e->info.runs;
    bool rank0 = par_rank() == 0;
    long first = rank0 && resume ? finished_runs(outdir, e->info.seed) : 0;
    if (first > 0)
        for (size_t i = 0; i < N_JOB_FILES; i++)
            if (keep_runs(outdir, job_files[i], (uint32_t)first) != 0) {
                fprintf(stderr, "dfsim run: cannot resume from %s/%s: %s\n",
                        outdir, job_files[i], strerror(errno));
                first = -1;
                break;
            }
    for (size_t i = 0; rank0 && first >= 0 && i < N_JOB_FILES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", outdir, job_files[i]);
        jd.files[i] = fopen(path, first > 0 ? "a" : "w");
        if (!jd.files[i]) {
            fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                    strerror(errno));
            first = -1;
        }
    }
    first = par_bcast(first);
    int rc = -1;
    if (first < 0)
        goto done;
    if (rank0 && first == 0) {
        /* headers first, so that a run killed before its first rows
         * leaves files that say what they are */
        struct jobs_output out = {
            .jobs = jd.files[0], .iterations = jd.files[1],
            .ranks = jd.files[2], .metrics = jd.files[3],
            .variants = jd.files[4], .load = jd.files[5] };
        jobs_write_headers(&out);
        fprintf(jd.files[N_JOB_FILES - 1], "run,seed,end_us,finished\n");
        for (size_t i = 0; i < N_JOB_FILES; i++)
            fflush(jd.files[i]);
    }
    printf("\njobs: %u sharing the machine, routing %s, %u run%s\n",
           e->jobs.n, np->routing->base.name, n_runs, n_runs == 1 ? "" : "s");
    if (par_size() > 1)
        printf("runs dealt over %d MPI ranks\n", par_size());
    if (e->jobs.prod.on) {
        const struct production_config *pc = &e->jobs.prod;
        uint32_t file = jobs_file_nodes(&e->jobs);
        printf("production fill: other users' jobs (%u workloads, placement "
               "%s) take %u nodes around the %u of these jobs, up to %g of "
               "the %u nodes\n",
               pc->n_mix, pc->placement, production_target(pc, t, file), file,
               pc->fill, production_usable_nodes(t));
    }
    if (first >= (long)n_runs)
        printf("resuming: all %u run%s were done; the report is made "
               "again\n", n_runs, n_runs == 1 ? "" : "s");
    else if (first > 0)
        printf("resuming: runs 1-%ld of %u were done\n", first, n_runs);
    fflush(stdout);
    rc = par_deal((uint32_t)first, n_runs, jobs_unit, jobs_commit, &jd);
    if (rc == 1)
        rc = e->quick ? 0 : -1; /* --quick cuts runs short on purpose */
    if (rc == PAR_NOT_RUN) /* only after another rank's unit failed */
        rc = -1;
done:
    for (size_t i = 0; i < N_JOB_FILES; i++)
        if (jd.files[i])
            fclose(jd.files[i]);
    if (rc == 0 && rank0) {
        struct report_info info = {
            .title = e->info.name, .description = e->info.description,
            .system = e->system ? e->system->base.name
                                : e->builder->base.name,
            .routing = np->routing->base.name,
            .seed = (uint64_t)e->info.seed,
            .table = n_runs > 1 ? stdout : NULL };
        bool drawn;
        int rrc = report_from_results(outdir, &info, &drawn, stderr);
        if (rrc < 0)
            rc = -1;
        else if (rrc == 1) /* not gnuplot's fault: say what it is */
            fprintf(stderr, "  report: no counted iteration to plot (the "
                            "runs ended before the jobs' counted "
                            "iterations)\n");
        else if (!drawn)
            fprintf(stderr, "  report: the plot was not drawn (gnuplot "
                            "missing or failed: %s/report.log); `gnuplot "
                            "variants.gp` there draws it\n",
                    outdir);
    }
    return rc;
}

/* A size as --max-memory takes it: a number, with K, M, G or T (KiB ..
 * TiB; "KiB", "MB" and the like accepted too), at least 1 MiB. Returns 0
 * or -1. */
static int parse_size(const char *s, size_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0))
        return -1;
    double unit = 1;
    switch (*end) {
    case 'K': case 'k': unit = 1024.0; end++; break;
    case 'M': case 'm': unit = 1024.0 * 1024; end++; break;
    case 'G': case 'g': unit = 1024.0 * 1024 * 1024; end++; break;
    case 'T': case 't': unit = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (unit > 1 && *end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    double bytes = v * unit;
    if (*end || bytes < 1024.0 * 1024 || bytes > 9e18)
        return -1;
    *out = (size_t)bytes;
    return 0;
}

/* The memory the machine has available now: MemAvailable in
 * /proc/meminfo (what the kernel could hand out without swapping), else
 * the free pages sysconf counts; 0 if neither is known. *from says which. */
static size_t available_memory(const char **from)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kib;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
                fclose(f);
                *from = "available (MemAvailable in /proc/meminfo)";
                return (size_t)kib * 1024;
            }
        fclose(f);
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) {
        *from = "available (free pages, sysconf)";
        return (size_t)pages * (size_t)size;
    }
    return 0;
}

/* SIGINT, SIGTERM: stop the simulation running (core/sim.h), which
 * writes nothing of its unfinished run; every file is then closed with
 * the results finished so far, and cli_run says how to go on. A second
 * signal ends dfsim at once (SA_RESETHAND). */
static void on_signal(int sig)
{
    sim_interrupt = sig;
}

static void catch_signals(bool on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_signal : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = on ? SA_RESETHAND : 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* What rank 0 does before the runs: claim the results folder, print the
 * experiment's header and the system, write topology.json and the
 * zero-load probe (probe.csv). Returns 0 or -1 (reported). */
static int setup(const struct experiment *e, const struct topo *t,
                 const char *outdir, const char *settings, const char *file,
                 bool resume, bool force, bool quick, struct diag *d)
{
    if (outdir_claim(outdir, settings, file, resume, force, stderr) != 0)
        return -1;
    struct topo_figures fig;
    if (topo_figures(t, &fig) != 0)
        return -1;
    printf("experiment  %s (seed %lld)\n", e->info.name,
           (long long)e->info.seed);
    if (quick)
        printf("quick       --quick: every part cut short to check the file "
               "(experiment_quicken); the figures are no results\n");
    topo_print(stdout, t, &fig);
    fflush(stdout);
    struct outfile json, probe;
    if (outfile_open(&json, outdir, "topology.json", stderr) != 0)
        return -1;
    topo_print_json(json.f, t, &fig);
    if (outfile_commit(&json, stderr) != 0 ||
        outfile_open(&probe, outdir, "probe.csv", stderr) != 0)
        return -1;
    struct probe_summary sum[64];
    int n = probe_run(t, &e->probe, (uint64_t)e->info.seed, probe.f, sum, 64,
                      d);
    if (n < 0) {
        outfile_abandon(&probe);
        return -1;
    }
    if (outfile_commit(&probe, stderr) != 0)
        return -1;
    printf("\nzero-load probe: %lld-byte packets on minimal paths, %.0f ns "
           "per router\n",
           (long long)e->probe.size, probe_router_delay_ns(&e->probe, t));
    printf("  %-5s %6s %12s %12s %12s\n", "hops", "pairs", "mean ns",
           "min ns", "max ns");
    for (int i = 0; i < n; i++)
        if (sum[i].pairs)
            printf("  %-5u %6u %12.1f %12.1f %12.1f\n", sum[i].hops,
                   sum[i].pairs, sum[i].mean_ns, sum[i].min_ns,
                   sum[i].max_ns);
    fflush(stdout);
    return 0;
}

int cli_run(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "seed", required_argument, NULL, 's' },
        { "resume", no_argument, NULL, 'r' },
        { "force", no_argument, NULL, 'f' },
        { "max-memory", required_argument, NULL, 'm' },
        { "quick", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *outdir = NULL;
    long long seed = -1;
    bool resume = false, force = false, quick = false;
    size_t max_memory = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outdir = optarg;
            break;
        case 'r':
            resume = true;
            break;
        case 'f':
            force = true;
            break;
        case 'q':
            quick = true;
            break;
        case 'm':
            if (parse_size(optarg, &max_memory) != 0) {
                fprintf(stderr,
                        "dfsim run: --max-memory expects a size of at least "
                        "1M, such as 512M, 4G or 1.5G (K, M, G, T: KiB .. "
                        "TiB), got \"%s\"\n",
                        optarg);
                return 2;
            }
            break;
        case 's': {
            unsigned long long v;
            if (cli_parse_u64(optarg, &v) != 0 || v > INT64_MAX) {
                fprintf(stderr,
                        "dfsim run: --seed expects a non-negative integer, "
                        "got \"%s\"\n",
                        optarg);
                return 2;
            }
            seed = (long long)v;
            break;
        }
        case 'h':
            usage(stdout);
            experiment_print_keys(stdout);
            return 0;
        default:
            fprintf(stderr, "dfsim run: %s \"%s\"\n",
                    optopt ? "option needs a value or is unknown:"
                           : "unknown option",
                    argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "dfsim run: expected one experiment FILE\n");
        usage(stderr);
        return 2;
    }
    const char *file = argv[optind];

    struct diag d;
    diag_init(&d);
    struct experiment e;
    if (experiment_load(&e, file, seed, &d) != 0) {
        fprintf(stderr, "dfsim run: %s: %d error%s\n", file, d.errors,
                d.errors == 1 ? "" : "s");
        return 1;
    }
    if (max_memory) {
        e.max_memory = max_memory;
        e.max_memory_from = "allowed (--max-memory)";
    } else {
        e.max_memory = available_memory(&e.max_memory_from);
    }
    struct topo t;
    if (experiment_build_topo(&e, &t, &d) != 0) {
        experiment_free(&e);
        return 1;
    }
    struct net_params np;
    if (experiment_net_params(&e, &t, &np, &d) != 0 ||
        experiment_check_run(&e, &t, &np, &d) != 0) {
        fprintf(stderr, "dfsim run: %s: %d error%s\n", file, d.errors,
                d.errors == 1 ? "" : "s");
        topo_free(&t);
        experiment_free(&e);
        return 1;
    }
    if (quick) /* the real experiment checked, a short one run */
        experiment_quicken(&e);
    char defdir[256];
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "results/%s%s", e.info.name,
                 quick ? "-quick" : "");
        outdir = defdir;
    }
    int rc = 1;
    char *settings = fingerprint_text(e.cfg, e.info.seed, quick);
    if (!settings) {
        fprintf(stderr, "dfsim run: out of memory\n");
        goto out;
    }
    /* from here on a signal stops the work in order (on_signal) */
    catch_signals(true);
    if (par_start() != 0)
        goto out;
    bool rank0 = par_rank() == 0;
    /* rank 0 claims the folder and writes what is not dealt: the
     * system's figures and the probe */
    if (par_agree(rank0 ? setup(&e, &t, outdir, settings, file, resume,
                                force, quick, &d)
                        : 0) != 0)
        goto out;
    if (e.has_traffic &&
        par_agree(run_traffic(&e, &t, &np, outdir, resume, &d)) != 0)
        goto out;
    if (e.jobs.n && par_agree(run_jobs(&e, &t, &np, outdir, resume, &d)) != 0)
        goto out;
    if (e.impact.on) {
        int irc = 0;
        if (rank0 && resume)
            fprintf(stderr, "dfsim run: --resume applies to a traffic "
                            "sweep and a jobs list's runs; the impact study "
                            "runs from the start\n");
        struct impact_report_info info = {
            .title = e.info.name, .description = e.info.description,
            .system = e.system ? e.system->base.name : e.builder->base.name,
            .routing = np.routing->base.name,
            .seed = (uint64_t)e.info.seed };
        if (impact_run(&e.impact, &e.jobs, &t, &np, (uint64_t)e.info.seed,
                       e.info.time_limit, outdir, &info, &d) != 0) {
            if (rank0)
                fprintf(stderr, "dfsim run: %s: the impact study failed\n",
                        file);
            irc = -1;
        }
        if (par_agree(irc) != 0)
            goto out;
    }
    char sampled[256] = "";
    size_t len = 0;
    if (sampling_on(&e)) {
        bool many = e.traffic.loads.n *
                        (e.traffic.routings.n ? e.traffic.routings.n : 1) >
                    1;
        len = list_counter_files(sampled, sizeof sampled, len, &e.sampling,
                                 many ? "_*" : "", "links");
    }
    if (e.jobs.n) /* the job runs' counters (run_jobs's names) */
        list_counter_files(sampled, sizeof sampled, len, &e.sampling,
                           e.has_traffic     ? "_jobs_run*"
                           : e.info.runs > 1 ? "_run*"
                                             : "",
                           "job_links");
    if (e.has_traffic)
        printf("\n%sreport: %s/%s\n",
               e.jobs.n || e.impact.on ? "traffic " : "", outdir,
               traffic_page(&e));
    if (e.jobs.n || e.impact.on)
        printf("%sreport: %s/report.html\n", e.has_traffic ? "" : "\n",
               outdir);
    printf("\nresults in %s/ (topology.json, probe.csv%s%s%s%s)\n", outdir,
           e.has_traffic ? ", traffic.csv" : "", sampled,
           e.jobs.n ? ", jobs.csv, iterations.csv, ranks.csv, metrics.csv, "
                     "variants.csv, load.csv, runs.csv"
                   : "",
           e.impact.on ? ", impact.csv, impact_runs.csv, jobs.csv, "
                         "iterations.csv, ranks.csv, metrics.csv, load.csv"
                       : "");
    rc = 0;
out:
    if (rc != 0 && sim_interrupt && par_rank() != 0) {
        rc = 128 + sim_interrupt;
    } else if (rc != 0 && sim_interrupt) {
        int sig = sim_interrupt;
        fflush(stdout);
        fprintf(stderr,
                "\ndfsim run: interrupted (%s); the results finished so far "
                "are in %s/\n",
                sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM"
                                                          : "signal",
                outdir);
        if (e.impact.on)
            fprintf(stderr, "  an impact study runs from the start: dfsim "
                            "run %s -o %s\n", file, outdir);
        else
            fprintf(stderr, "  to go on from there: dfsim run %s -o %s "
                            "--resume\n", file, outdir);
        rc = 128 + sig;
    }
    par_stop();
    catch_signals(false);
    sim_interrupt = 0;
    free(settings);
    topo_free(&t);
    experiment_free(&e);
    return rc;
}
