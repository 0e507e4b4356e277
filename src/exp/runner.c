/* exp/runner.c — an experiment's runner (see runner.h): the results
 * folder claimed and the parts not dealt (the system's figures, the
 * probe), then each kind of run's units dealt over the MPI ranks
 * (exp/par.h) and committed in order by rank 0, so that an interrupted
 * experiment keeps every unit it finished and --resume goes on from the
 * first it had not. */
#include "exp/runner.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sim.h"
#include "core/time.h"
#include "exp/job_counters.h"
#include "exp/outdir.h"
#include "exp/par.h"
#include "route/route.h"

bool runner_sampling_on(const struct experiment *e)
{
    return e->has_traffic &&
           (e->sampling.nic || e->sampling.rtr || e->sampling.links);
}

/* ---- setup ---------------------------------------------------------------- */

int runner_setup(const struct runner *rn, const char *settings,
                 const char *file, bool force, bool quick)
{
    const struct experiment *e = rn->e;
    const struct topo *t = rn->t;
    const char *outdir = rn->outdir;
    bool resume = rn->resume;
    struct diag *d = rn->d;
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


/* ---- the traffic sweep --------------------------------------------------- */

/* The routing of point k of the sweep (routings outermost). */
const struct routing *runner_point_routing(const struct traffic_sweep *sw,
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
               traffic_csv_parse(line, runner_point_routing(sw, def, (uint32_t)n)
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
    const struct routing *r = runner_point_routing(sw, td->base->routing, k);
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    struct net_params np = *td->base;
    np.routing = r;
    struct traffic_params tp = sw->p;
    tp.load = sw->loads.v[k % sw->loads.n];
    tp.progress = stderr;
    char nic_path[4096], rtr_path[4096], links_path[4096];
    if (runner_sampling_on(e)) {
        /* one set of files per run; plain names for one run */
        char tag[128] = "";
        if (total > 1)
            snprintf(tag, sizeof tag, "_%s_%.*f", r->base.name,
                     TRAFFIC_LOAD_DECIMALS, tp.load);
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
    if (runner_sampling_on(e))
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
                          runner_point_routing(sw, td->base->routing, k)->base.name,
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

int runner_traffic(const struct runner *rn, struct traffic_result **res_out,
                   uint32_t *done_out)
{
    const struct experiment *e = rn->e;
    const struct topo *t = rn->t;
    const struct net_params *base = rn->np;
    const char *outdir = rn->outdir;
    bool resume = rn->resume;
    struct diag *d = rn->d;
    *res_out = NULL;
    *done_out = 0;
    const struct traffic_sweep *sw = &e->traffic;
    const struct routing *def = base->routing; /* network.routing */
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
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
    *res_out = res;
    *done_out = done;
    return rc;
}

/* ---- the jobs list's runs ------------------------------------------------ */

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
    const struct jobs_writer *writer; /* the runs' rows */
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
    struct jobs_output out = { .writer = jd->writer,
                               .progress = stderr, .jobs = f[0],
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
 * Returns 0 or -1 (a run that hit
 * experiment.time_limit_ms is reported and its results kept, but fails
 * the command). */
int runner_jobs(const struct runner *rn, const struct jobs_writer *writer)
{
    const struct experiment *e = rn->e;
    const struct topo *t = rn->t;
    const struct net_params *np = rn->np;
    const char *outdir = rn->outdir;
    bool resume = rn->resume;
    struct jobs_deal jd = { .e = e, .t = t, .np = np, .outdir = outdir,
                            .d = rn->d, .writer = writer };
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
        writer->headers(&out);
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
    return rc;
}
