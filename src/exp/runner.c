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
#include <sys/resource.h>
#include <unistd.h>

#include "core/sim.h"
#include "core/time.h"
#include "exp/job_counters.h"
#include "exp/manifest.h"
#include "exp/outdir.h"
#include "exp/par.h"
#include "route/route.h"

bool runner_sampling_on(const struct experiment *e)
{
    return e->has_traffic &&
           (e->sampling.nic || e->sampling.rtr || e->sampling.links);
}

/* ---- memory --------------------------------------------------------------- */

int runner_memory_check(const struct runner *rn, const char *what)
{
    struct rusage ru, rc;
    if (!rn->max_memory || getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    /* an impact study's branches (exp/impact_branch.h) are processes of
     * their own, waited for: the largest of their peaks counts too */
    if (getrusage(RUSAGE_CHILDREN, &rc) == 0 && rc.ru_maxrss > ru.ru_maxrss)
        ru.ru_maxrss = rc.ru_maxrss;
    double peak = (double)ru.ru_maxrss * 1024; /* KiB on Linux */
    if (peak <= (double)rn->max_memory)
        return 0;
    char p[32], m[32];
    topo_human_bytes(p, sizeof p, peak);
    topo_human_bytes(m, sizeof m, (double)rn->max_memory);
    fprintf(stderr,
            "dfsim run: %s took %s at its peak (the resident memory of "
            "this process or of one it forked), more than the %s allowed "
            "(--max-memory); it is not "
            "kept\n"
            "  the system was admitted on an estimate of what it needs "
            "before its first packet (topology, network model, event "
            "queue); the packets in flight, the jobs' state and the "
            "program itself come on top: give a larger --max-memory\n",
            what, p, m);
    return -1;
}

/* ---- a run's counter files ---------------------------------------------- */

/* The counter files of one run (a traffic point, a job run), by name in
 * the results folder. The rank that runs it writes them as NAME.tmp and
 * renames them when the run is kept (run_files_keep), so that a run cut
 * short leaves none of them, not a partial one under its final name;
 * rank 0 lists them in the manifest before the runs are dealt and marks
 * them done when it commits the run. */
struct run_files {
    uint32_t n;
    const char *base[4];     /* "nic_samples", ...: what run_files_tmp
                                looks up */
    char name[4][160];
    char tmp[4][4096];       /* outdir/NAME.tmp, what the samplers write */
};

/* f's names: <base><tag>.<ext> for each of nic_samples (.csv),
 * rtr_samples (.csv), links (.txt: `links`, named so) and its summary
 * (.csv: `summary`, NULL for none) that is on. */
static void run_files_name(struct run_files *f, const char *outdir,
                           const struct sampler_config *c, const char *tag,
                           const char *links, const char *summary)
{
    const char *base[4] = { "nic_samples", "rtr_samples", links, summary };
    const char *ext[4] = { "csv", "csv", "txt", "csv" };
    bool on[4] = { c->nic, c->rtr, c->links, c->links && summary };
    f->n = 0;
    for (int k = 0; k < 4; k++) {
        if (!on[k])
            continue;
        char name[sizeof f->name[0]];
        snprintf(name, sizeof name, "%s%s.%s", base[k], tag, ext[k]);
        memcpy(f->name[f->n], name, sizeof name);
        f->base[f->n] = base[k];
        snprintf(f->tmp[f->n], sizeof f->tmp[0], "%s/%s.tmp", outdir, name);
        f->n++;
    }
}

/* The temporary of f's file `base` ("nic_samples", ...), or NULL if it
 * is not on. */
static const char *run_files_tmp(const struct run_files *f, const char *base)
{
    for (uint32_t i = 0; i < f->n; i++)
        if (strcmp(f->base[i], base) == 0)
            return f->tmp[i];
    return NULL;
}

/* The run is kept: each temporary written renamed into place (one the
 * run did not write, as the links report of a deadlocked point: none).
 * 0, or -1 (reported). */
static int run_files_keep(const struct run_files *f)
{
    for (uint32_t i = 0; i < f->n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", f->tmp[i]);
        path[strlen(path) - 4] = '\0'; /* without ".tmp" */
        if (rename(f->tmp[i], path) != 0 && errno != ENOENT) {
            fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The run is not kept (cut short, failed): its temporaries removed. */
static void run_files_drop(const struct run_files *f)
{
    for (uint32_t i = 0; i < f->n; i++)
        unlink(f->tmp[i]);
}

/* Rank 0: f's files in outdir's manifest as `how`; with MANIFEST_DONE
 * only those the run wrote. 0 or -1 (reported). */
static int run_files_mark(const struct run_files *f, const char *outdir,
                          enum manifest_how how)
{
    const char *names[4];
    size_t n = 0;
    for (uint32_t i = 0; i < f->n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", outdir, f->name[i]);
        if (how != MANIFEST_DONE || access(path, F_OK) == 0)
            names[n++] = f->name[i];
    }
    return manifest_mark(outdir, names, n, how, stderr);
}

/* ---- setup ---------------------------------------------------------------- */

int runner_setup(const struct runner *rn, const char *settings,
                 const char *file, bool force, bool quick, bool *claimed)
{
    const struct experiment *e = rn->e;
    const struct topo *t = rn->t;
    const char *outdir = rn->outdir;
    bool resume = rn->resume;
    struct diag *d = rn->d;
    *claimed = false;
    if (outdir_claim(outdir, settings, file, resume, force, stderr) != 0)
        return -1;
    *claimed = true;
    struct topo_figures fig;
    if (topo_figures(t, &fig) != 0)
        return -1;
    printf("experiment  %s (seed %lld)\n", e->info.name,
           (long long)e->info.seed);
    if (quick) {
        printf("quick       --quick: every part cut short to check the file "
               "(experiment_quicken); the figures are no results\n");
        for (const char *l = e->quick_note; *l;) {
            const char *nl = strchr(l, '\n');
            int len = nl ? (int)(nl - l) : (int)strlen(l);
            printf("            %.*s\n", len, l);
            l += len + (nl ? 1 : 0);
        }
    }
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
    if (n < 0 || runner_memory_check(rn, "the zero-load probe") != 0) {
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


int runner_seal(const struct runner *rn)
{
    return manifest_seal(rn->outdir, stderr);
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

/* The counter files of the sweep's point of routing r and load `load`:
 * one set per point, plain names for a sweep of one point. */
static void point_files(const struct experiment *e, const char *outdir,
                        const struct routing *r, double load,
                        struct run_files *f)
{
    const struct traffic_sweep *sw = &e->traffic;
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    char tag[128] = "";
    if (total > 1)
        snprintf(tag, sizeof tag, "_%s_%.*f", r->base.name,
                 TRAFFIC_LOAD_DECIMALS, load);
    run_files_name(f, outdir, &e->sampling, tag, "links", NULL);
}

/* Point k's counter files (point_files). */
static void point_k_files(const struct experiment *e, const char *outdir,
                          const struct routing *def, uint32_t k,
                          struct run_files *f)
{
    const struct traffic_sweep *sw = &e->traffic;
    point_files(e, outdir, runner_point_routing(sw, def, k),
                sw->loads.v[k % sw->loads.n], f);
}

/* The traffic sweep's units for par_deal: its points. */
struct traffic_deal {
    const struct runner *rn;
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
    tp.partitions = td->rn->partitions;
    tp.procs = par_group_size();
    if (par_group_rank() != 0)
        tp.progress = NULL; /* one run, said once, by rank 0 */
    struct run_files rf = { 0 };
    if (runner_sampling_on(e)) {
        point_files(e, td->outdir, r, tp.load, &rf);
        sampler_config_params(&e->sampling, &tp.sampling);
        tp.sampling.nic_path = run_files_tmp(&rf, "nic_samples");
        tp.sampling.rtr_path = run_files_tmp(&rf, "rtr_samples");
        tp.sampling.links_path = run_files_tmp(&rf, "links");
    }
    double t0 = time_wall_seconds();
    struct traffic_result o;
    int rc = traffic_run(td->t, &np, &tp, (uint64_t)e->info.seed,
                         EVQ_DEFAULT, &o, td->d);
    char what[64];
    snprintf(what, sizeof what, "traffic point %u/%u", k + 1, total);
    if (rc == 0 && runner_memory_check(td->rn, what) != 0)
        rc = -1;
    if (rc == 0)
        rc = run_files_keep(&rf);
    if (rc != 0) {
        run_files_drop(&rf);
        return rc; /* -1, or SIM_INTERRUPTED: nothing of the run */
    }
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
    char samples[160] = "";
    if (runner_sampling_on(e))
        snprintf(samples, sizeof samples, ", %" PRIu64 " samples",
                 o.samples);
    char lat[96];
    if (o.packets)
        snprintf(lat, sizeof lat, "latency mean %.1f ns p99 %.0f ns",
                 o.lat_mean_ns, o.lat_p99_ns);
    else
        snprintf(lat, sizeof lat, "no packet measured");
    if (par_group_rank() != 0)
        return 0;
    char on[64];
    if (tp.partitions) {
        snprintf(on, sizeof on, " over %u partition%s", tp.partitions,
                 tp.partitions == 1 ? "" : "s");
        snprintf(samples, sizeof samples,
                 ", %" PRIu64 " windows, %" PRIu64 " packets crossed; "
                 "windows %.1f s (busiest %.1f), exchange %.1f s",
                 o.xwindows, o.xpackets, o.xcompute_mean_s,
                 o.xcompute_max_s, o.xexchange_s);
    } else {
        snprintf(on, sizeof on, "%s", par_where());
    }
    fprintf(stderr,
            "traffic %u/%u%s: %s %s load %.3f: offered %.3f, accepted %.3f, "
            "%s%s%s%s%s%s (%.1f s, %.2f M events/s)\n",
            k + 1, total, on, r->base.name, pattern, tp.load, o.offered,
            o.accepted, lat, o.saturated ? ", SATURATED" : "",
            !o.steady && o.packets && !o.deadlock
                ? ", not steady: lengthen warm-up"
                : "",
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
    if (fflush(td->csv) != 0) {
        fprintf(stderr, "dfsim run: cannot write %s/traffic.csv: %s\n",
                td->outdir, strerror(errno));
        return -1;
    }
    /* the row, and the point's counter files, vouched for */
    static const char *const csv[] = { "traffic.csv" };
    struct run_files rf = { 0 };
    if (runner_sampling_on(td->e))
        point_k_files(td->e, td->outdir, td->base->routing, k, &rf);
    if (manifest_mark(td->outdir, csv, 1, MANIFEST_GROWN, stderr) != 0 ||
        run_files_mark(&rf, td->outdir, MANIFEST_DONE) != 0)
        return -1;
    td->done = k + 1;
    return 0;
}

/* ", N runs at once": the groups of ranks (exp/par.h) */
static const char *runs_at_once(void)
{
    static char buf[48];
    snprintf(buf, sizeof buf, ", %d runs at once", par_groups());
    return buf;
}

/* Rank 0, before the sweep's points are dealt: traffic.csv opened (with
 * resume, cut to the points it records as finished, read back into
 * td->res, and appended to; else written anew with its header) and, in
 * the manifest, listed as being written, with the counter files of every
 * point to run. Returns the first point to run, or -1 (reported). */
static long traffic_open(const struct runner *rn, struct traffic_deal *td,
                         uint32_t total)
{
    static const char *const csv[] = { "traffic.csv" };
    const char *outdir = rn->outdir;
    const struct routing *def = rn->np->routing;
    td->res = calloc(total, sizeof *td->res);
    if (!td->res) {
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    if (manifest_mark(outdir, csv, 1, MANIFEST_WRITING, stderr) != 0)
        return -1;
    long first = rn->resume ? finished_points(outdir, &rn->e->traffic, def,
                                              td->res)
                            : 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/traffic.csv", outdir);
    td->csv = first < 0 ? NULL : fopen(path, first > 0 ? "a" : "w");
    if (first >= 0 && !td->csv) {
        fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    if (first == 0)
        traffic_csv_header(td->csv);
    if (first < 0 || fflush(td->csv) != 0 ||
        manifest_mark(outdir, csv, 1, MANIFEST_GROWN, stderr) != 0)
        return -1;
    for (uint32_t k = (uint32_t)first;
         runner_sampling_on(rn->e) && k < total; k++) {
        struct run_files rf;
        point_k_files(rn->e, outdir, def, k, &rf);
        if (run_files_mark(&rf, outdir, MANIFEST_WRITING) != 0)
            return -1;
    }
    return first;
}

int runner_traffic(const struct runner *rn, struct traffic_result **res_out,
                   uint32_t *done_out)
{
    const struct experiment *e = rn->e;
    const char *outdir = rn->outdir;
    *res_out = NULL;
    *done_out = 0;
    const struct traffic_sweep *sw = &e->traffic;
    uint32_t total = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    bool rank0 = par_rank() == 0;
    struct traffic_deal td = { .rn = rn, .e = e, .t = rn->t,
                               .base = rn->np, .outdir = outdir,
                               .d = rn->d };
    long first = rank0 ? traffic_open(rn, &td, total) : 0;
    first = par_bcast(first);
    if (first < 0) {
        if (td.csv)
            fclose(td.csv);
        free(td.res);
        return -1;
    }
    td.done = (uint32_t)first;
    if (rank0 && rn->partitions)
        printf("each run in windows over %u partition%s%s%s\n",
               rn->partitions, rn->partitions == 1 ? "" : "s",
               par_split() ? ", one per MPI rank" : ", in this process",
               par_groups() > 1 ? runs_at_once() : "");
    if (rank0) {
        if (first == (long)total)
            printf("\nresuming: all %u traffic run%s were done\n", total,
                   total == 1 ? "" : "s");
        else if (first > 0)
            printf("\nresuming: traffic runs 1-%ld of %u were done\n", first,
                   total);
        fflush(stdout);
    }
    int rc = par_deal((uint32_t)first, total, traffic_unit, traffic_commit,
                      &td);
    if (rc == PAR_NOT_RUN) /* only after another rank's unit failed */
        rc = -1;
    if (td.csv) {
        static const char *const csv[] = { "traffic.csv" };
        if (fclose(td.csv) != 0 ||
            manifest_mark(outdir, csv, 1, MANIFEST_DONE, stderr) != 0)
            rc = rc ? rc : -1;
    }
    *res_out = td.res;
    *done_out = rank0 ? td.done : 0; /* the table: rank 0's */
    return rc;
}

/* ---- the jobs list's runs ------------------------------------------------ */

static const char *const job_files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "variants.csv", "load.csv",
                                         "runs.csv", "waits.csv" };
#define N_JOB_FILES (sizeof job_files / sizeof job_files[0])
/* runs.csv, then waits.csv (--waits only): the last two */
enum { JOBS_RUNS = N_JOB_FILES - 2, JOBS_WAITS = N_JOB_FILES - 1 };

/* The files a jobs run writes: waits.csv only with --waits. */
static uint32_t jobs_n_files(const struct runner *rn)
{
    return rn->waits ? N_JOB_FILES : JOBS_WAITS;
}

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

/* runs.csv's first line: a run's number, seed, end, whether it finished
 * and whether it ran under the windowed rules (any --partitions P: the
 * files are the same for every P, so P itself is not written) */
#define RUNS_HEADER "run,seed,end_us,finished,windowed\n"

/* How many runs of this experiment dir/runs.csv records as finished
 * (rows 0, 1, ... with the seeds seed + run, in unsigned 64-bit
 * arithmetic as the runs use them, so a seed near INT64_MAX is no
 * overflow); -1 if it records another experiment's, or its first line
 * is another version's (reported). A missing file: 0. (A resume under
 * the other rules, windowed or one process, is refused before: the
 * settings' dfsim.windowed, exp/fingerprint.c.) */
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
        if (head && strcmp(line, RUNS_HEADER) != 0) {
            fprintf(stderr, "dfsim run: %s: its first line is not \"%.*s\" "
                            "(written by another version of dfsim); run "
                            "the experiment anew, without --resume\n",
                    path, (int)strlen(RUNS_HEADER) - 1, RUNS_HEADER);
            fclose(f);
            return -1;
        }
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

/* The counter files of job run r: one set per run, plain names for one
 * run (apart from a traffic sweep's: "_jobs" in them then). */
static void job_run_files(const struct experiment *e, const char *outdir,
                          uint32_t r, struct run_files *f)
{
    char tag[32] = "";
    if (e->info.runs > 1 || e->has_traffic)
        snprintf(tag, sizeof tag, "%s_run%u", e->has_traffic ? "_jobs" : "",
                 r);
    run_files_name(f, outdir, &e->sampling, tag, "job_links",
                   "job_links_summary");
}

/* The jobs list's units for par_deal: its runs. */
struct jobs_deal {
    const struct runner *rn;
    const struct experiment *e;
    const struct topo *t;
    const struct net_params *np;
    const char *outdir;
    struct diag *d;
    const struct jobs_writer *writer; /* the runs' rows */
    FILE *files[N_JOB_FILES]; /* rank 0: job_files[], jobs_n_files() */
};

/* The texts of a run's unit: one per file of job_files[], then the
 * table printed for a person. */
enum { JOBS_TABLE = N_JOB_FILES, JOBS_PARTS }; /* waits.csv's empty
                                                 without --waits */

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
                               .load = f[5], .run = r,
                               .waits = jd->rn->waits ? f[JOBS_WAITS]
                                                      : NULL,
                               .partitions = jd->rn->partitions,
                               .procs = par_group_size() };
    if (par_group_rank() != 0)
        out.progress = NULL; /* one run, said once, by rank 0 */
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
    struct sampler_params sp;
    struct job_counters_params cp = { 0 };
    struct run_files rf;
    job_run_files(e, outdir, r, &rf);
    if (e->sampling.nic || e->sampling.rtr) {
        sampler_config_params(&e->sampling, &sp);
        sp.nic_path = run_files_tmp(&rf, "nic_samples");
        sp.rtr_path = run_files_tmp(&rf, "rtr_samples");
        cp.sampling = &sp;
    }
    cp.links_path = run_files_tmp(&rf, "job_links");
    cp.summary_path = run_files_tmp(&rf, "job_links_summary");
    out.counters = job_counters_on(&cp) ? &cp : NULL;
    simtime end = 0;
    int rc = jobs_run(&e->jobs, jd->t, jd->np, seed, e->info.time_limit,
                      &out, &end, jd->d);
    char what[64];
    snprintf(what, sizeof what, "run %u of the jobs", r + 1);
    if (rc >= 0 && runner_memory_check(jd->rn, what) != 0)
        rc = -1;
    /* a split run's counter files are its group's first rank's alone
     * (exp/jobs_win.c): the others leave them be */
    bool mine = par_group_rank() == 0;
    if (rc >= 0 && mine && run_files_keep(&rf) != 0)
        rc = -1;
    if (rc < 0 && mine)
        run_files_drop(&rf);
    if (rc >= 0)
        fprintf(f[JOBS_RUNS], "%u,%" PRIu64 ",%" PRIu64 ".%06" PRIu64
                                    ",%d,%d\n",
                r, seed, end / SIMTIME_US, end % SIMTIME_US, rc == 0,
                jd->rn->partitions > 0);
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
    if (rc == 1 && e->quick)
        fprintf(stderr,
                "  --quick: a job with 0 iterations in the table has "
                "iterations longer than the quick window, even with its "
                "compute shortened; its messages ran, its statistics were "
                "not checked\n");
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
    uint32_t nf = jobs_n_files(jd->rn);
    for (uint32_t i = 0; i < nf; i++) {
        fwrite(u->part[i], 1, u->len[i], jd->files[i]);
        if (fflush(jd->files[i]) != 0) {
            fprintf(stderr, "dfsim run: cannot write %s/%s: %s\n",
                    jd->outdir, job_files[i], strerror(errno));
            return -1;
        }
    }
    /* the rows, and the run's counter files, vouched for */
    struct run_files rf;
    job_run_files(jd->e, jd->outdir, r, &rf);
    if (manifest_mark(jd->outdir, job_files, nf, MANIFEST_GROWN,
                      stderr) != 0 ||
        run_files_mark(&rf, jd->outdir, MANIFEST_DONE) != 0)
        return -1;
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
/* Rank 0, before the runs are dealt: the jobs' files listed in the
 * manifest as being written, then opened (with resume, cut to the runs
 * runs.csv records as finished and appended to; else written anew with
 * their headers, so that a run killed before its first rows leaves files
 * that say what they are), and the counter files of every run to come
 * listed. Returns the first run to run, or -1 (reported). */
static long jobs_open(const struct runner *rn, struct jobs_deal *jd)
{
    const char *outdir = rn->outdir;
    uint32_t nf = jobs_n_files(rn);
    long first = rn->resume ? finished_runs(outdir, rn->e->info.seed) : 0;
    char wp[4096];
    snprintf(wp, sizeof wp, "%s/%s", outdir, job_files[JOBS_WAITS]);
    if (first > 0 && (access(wp, F_OK) == 0) != rn->waits) {
        /* its runs so far counted where their packets waited, or not:
         * the rest must do the same, or waits.csv would miss runs */
        fprintf(stderr, "dfsim run: cannot resume from %s: it was run %s "
                        "--waits; resume %s it\n", outdir,
                rn->waits ? "without" : "with",
                rn->waits ? "without" : "with");
        return -1;
    }
    if (first < 0 ||
        manifest_mark(outdir, job_files, nf, MANIFEST_WRITING, stderr) != 0)
        return -1;
    for (size_t i = 0; first > 0 && i < nf; i++)
        if (keep_runs(outdir, job_files[i], (uint32_t)first) != 0) {
            fprintf(stderr, "dfsim run: cannot resume from %s/%s: %s\n",
                    outdir, job_files[i], strerror(errno));
            return -1;
        }
    for (size_t i = 0; first >= 0 && i < nf; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", outdir, job_files[i]);
        jd->files[i] = fopen(path, first > 0 ? "a" : "w");
        if (!jd->files[i]) {
            fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                    strerror(errno));
            return -1;
        }
    }
    if (first == 0) {
        struct jobs_output out = {
            .jobs = jd->files[0], .iterations = jd->files[1],
            .ranks = jd->files[2], .metrics = jd->files[3],
            .variants = jd->files[4], .load = jd->files[5],
            .waits = jd->files[JOBS_WAITS] };
        jd->writer->headers(&out);
        fputs(RUNS_HEADER, jd->files[JOBS_RUNS]);
    }
    for (size_t i = 0; first >= 0 && i < nf; i++)
        if (fflush(jd->files[i]) != 0) {
            fprintf(stderr, "dfsim run: cannot write %s/%s: %s\n", outdir,
                    job_files[i], strerror(errno));
            return -1;
        }
    if (first < 0 ||
        manifest_mark(outdir, job_files, nf, MANIFEST_GROWN, stderr) != 0)
        return -1;
    for (uint32_t r = (uint32_t)first; r < rn->e->info.runs; r++) {
        struct run_files rf;
        job_run_files(rn->e, outdir, r, &rf);
        if (run_files_mark(&rf, outdir, MANIFEST_WRITING) != 0)
            return -1;
    }
    return first;
}

int runner_jobs(const struct runner *rn, const struct jobs_writer *writer)
{
    const struct experiment *e = rn->e;
    const struct topo *t = rn->t;
    const struct net_params *np = rn->np;
    const char *outdir = rn->outdir;
    struct jobs_deal jd = { .rn = rn, .e = e, .t = t, .np = np,
                            .outdir = outdir, .d = rn->d, .writer = writer };
    uint32_t n_runs = e->info.runs;
    bool rank0 = par_rank() == 0;
    long first = rank0 ? jobs_open(rn, &jd) : 0;
    first = par_bcast(first);
    int rc = -1;
    if (first < 0)
        goto done;
    printf("\njobs: %u sharing the machine, routing %s, %u run%s\n",
           e->jobs.n, np->routing->base.name, n_runs, n_runs == 1 ? "" : "s");
    if (rn->partitions)
        printf("each run in windows over %u partition%s%s%s\n",
               rn->partitions, rn->partitions == 1 ? "" : "s",
               par_split() ? ", one per MPI rank" : ", in this process",
               par_groups() > 1 ? runs_at_once() : "");
    else if (par_size() > 1)
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
        if (jd.files[i] && fclose(jd.files[i]) != 0)
            rc = rc ? rc : -1;
    /* what the files hold now, whole (rank 0 opened them all) */
    if (rank0 && first >= 0 &&
        manifest_mark(outdir, job_files, jobs_n_files(rn), MANIFEST_DONE,
                      stderr) != 0)
        rc = rc ? rc : -1;
    return rc;
}
