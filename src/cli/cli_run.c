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
 * not recorded; exp/jobs.h) and report.html over them (results/report.h);
 * with an impact section, the congestion-impact study (impact.csv,
 * impact_runs.csv, the jobs runner's files over all its simulations and
 * report.html with the heat maps; exp/impact.h, results/impact_results.h).
 *
 * This file handles the command line: the experiment's runner is
 * exp/runner.h, what is made of its results results/. */
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
#include "core/sim.h"
#include "exp/experiment.h"
#include "exp/fingerprint.h"
#include "exp/manifest.h"
#include "exp/par.h"
#include "exp/runner.h"
#include "net/partition.h"
#include "results/impact_results.h"
#include "results/jobs_results.h"
#include "results/traffic_results.h"
#include "route/route.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim run FILE [-o DIR] [--seed N] [--resume] [--force]\n"
            "                      [--max-memory SIZE] [--quick]\n"
            "                      [--partitions P] [--warmups shared|each]\n"
            "                      [--waits]\n\n"
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
            "                     DIR/runs.csv does not record as done, its\n"
            "                     impact study from the first simulation\n"
            "                     DIR/impact.journal lacks; the\n"
            "                     file must be the one DIR was started with\n"
            "                     (same settings and seed), and every file\n"
            "                     DIR/experiment.files lists as dfsim wrote\n"
            "                     it (same size and hash)\n"
            "  --force            replace the results of another experiment\n"
            "                     in DIR: remove the files its\n"
            "                     experiment.files lists (dfsim refuses a\n"
            "                     folder that is not empty and not this\n"
            "                     experiment's, and with --force one that\n"
            "                     holds any other file)\n"
            "  --max-memory SIZE  refuse a system estimated to need more\n"
            "                     memory than SIZE (bytes, or with K, M, G\n"
            "                     or T: KiB .. TiB; e.g. 512M, 1.5G), and\n"
            "                     fail a run whose peak (the resident\n"
            "                     memory of the process, or of one it\n"
            "                     forked) went above it, its results\n"
            "                     not kept; default: refuse a\n"
            "                     system estimated above the memory the\n"
            "                     machine has available (MemAvailable in\n"
            "                     /proc/meminfo)\n"
            "  --quick            every part of the experiment, cut short\n"
            "                     (one run, one load per routing, short\n"
            "                     windows, 2 iterations a job, ...): checks\n"
            "                     a file end to end in seconds; no results\n"
            "                     (default DIR results/<name>-quick)\n"
            "  --partitions P     run each simulation in windows over P\n"
            "                     partitions of the machine (whole\n"
            "                     groups or torus slabs; traffic sweeps,\n"
            "                     jobs and impact studies): in this\n"
            "                     process, or started by mpirun with a\n"
            "                     multiple of P ranks, one partition per\n"
            "                     rank; the results are the same for\n"
            "                     every P (docs/performance.md)\n"
            "  --partitions auto  the same, P from the MPI ranks: the\n"
            "                     largest divisor of them that leaves a\n"
            "                     group of ranks to each simulation of\n"
            "                     the largest kind of run (what a file\n"
            "                     with experiment.windowed gets)\n"
            "  --partitions 0     the one-process rules, no windows (the\n"
            "                     default but for experiment.windowed)\n"
            "  --warmups shared   an impact study's simulations of one\n"
            "                     run, share and aggressor that differ\n"
            "                     only in the victim simulate the\n"
            "                     aggressor's warm-up (GPCNeT's release)\n"
            "                     once and fork there, one process a\n"
            "                     victim (the default; in one process,\n"
            "                     not under mpirun or --partitions)\n"
            "  --warmups each     every simulation runs its own warm-up:\n"
            "                     the same files, slower\n"
            "  --waits            waits.csv too: where each job's packets\n"
            "                     waited (at their NIC, at each kind of\n"
            "                     router port, per VC), with the jobs'\n"
            "                     and an impact study's rows; the other\n"
            "                     files the same; in one process\n"
            "                     (--partitions 0)\n"
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

/* The counter files a sampling section writes, ", name<sfx>.ext" each
 * (the links report's summary as CSV when `summary` is not NULL: the
 * job runs'), appended to buf at len; returns the new length. */
static size_t list_counter_files(char *buf, size_t cap, size_t len,
                                 const struct sampler_config *c,
                                 const char *sfx, const char *links,
                                 const char *summary)
{
    const char *name[4] = { "nic_samples", "rtr_samples", links, summary };
    const char *ext[4] = { "csv", "csv", "txt", "csv" };
    bool on[4] = { c->nic, c->rtr, c->links, c->links && summary };
    for (int k = 0; k < 4; k++)
        if (on[k] && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, ", %s%s.%s",
                                    name[k], sfx, ext[k]);
    return len < cap ? len : cap - 1;
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

void cli_catch_stop(void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler ? handler : SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = handler ? flags : 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* What rank 0 does before the runs: claim the results folder, print the
 * experiment's header and the system, write topology.json and the
 * zero-load probe (probe.csv). Returns 0 or -1 (reported). */
/* The command line of `dfsim run`. */
struct run_args {
    const char *file, *outdir;
    long long seed;      /* -1: the file's */
    bool resume, force, quick;
    size_t max_memory;   /* 0: what the machine has */
    uint32_t partitions; /* 0: classic runs; else windowed over P */
    bool auto_p;         /* --partitions auto: P from the MPI ranks */
    bool given_p;        /* --partitions given (0: the one-process rules
                            even for experiment.windowed) */
    bool each_warmup;    /* --warmups each */
    bool waits;          /* --waits */
};

/* Parse argv into a. Returns -1 to go on, else the exit status (0 after
 * --help, 2 on a mistake, said on stderr). */
static int parse_args(int argc, char **argv, struct run_args *a)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "seed", required_argument, NULL, 's' },
        { "resume", no_argument, NULL, 'r' },
        { "force", no_argument, NULL, 'f' },
        { "max-memory", required_argument, NULL, 'm' },
        { "quick", no_argument, NULL, 'q' },
        { "partitions", required_argument, NULL, 'p' },
        { "warmups", required_argument, NULL, 'w' },
        { "waits", no_argument, NULL, 'W' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    *a = (struct run_args){ .seed = -1 };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            a->outdir = optarg;
            break;
        case 'r':
            a->resume = true;
            break;
        case 'f':
            a->force = true;
            break;
        case 'q':
            a->quick = true;
            break;
        case 'W':
            a->waits = true;
            break;
        case 'm':
            if (parse_size(optarg, &a->max_memory) != 0) {
                fprintf(stderr,
                        "dfsim run: --max-memory expects a size of at least "
                        "1M, such as 512M, 4G or 1.5G (K, M, G, T: KiB .. "
                        "TiB), got \"%s\"\n",
                        optarg);
                return 2;
            }
            break;
        case 'p': {
            unsigned long long v;
            if (strcmp(optarg, "auto") == 0) {
                a->auto_p = true;
                a->partitions = 1; /* until the ranks are known */
                break;
            }
            if (cli_parse_u64(optarg, &v) != 0 || v > 65536) {
                fprintf(stderr,
                        "dfsim run: --partitions expects a number of "
                        "partitions from 1 to 65536, \"auto\", or 0 (the "
                        "one-process rules), got \"%s\"\n",
                        optarg);
                return 2;
            }
            a->partitions = (uint32_t)v;
            a->given_p = true;
            break;
        }
        case 'w':
            if (strcmp(optarg, "shared") != 0 && strcmp(optarg, "each") != 0) {
                fprintf(stderr,
                        "dfsim run: --warmups expects \"shared\" or "
                        "\"each\", got \"%s\"\n",
                        optarg);
                return 2;
            }
            a->each_warmup = strcmp(optarg, "each") == 0;
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
            a->seed = (long long)v;
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
    a->file = argv[optind];
    return -1;
}

/* Load a's file, build its system and check everything that can be
 * checked before anything runs (then cut it short with --quick). 0, or
 * -1 after the errors were reported (e, t freed). */
static int prepare(const struct run_args *a, struct experiment *e,
                   struct topo *t, struct net_params *np, struct diag *d)
{
    if (experiment_load(e, a->file, a->seed, d) != 0) {
        fprintf(stderr, "dfsim run: %s: %d error%s\n", a->file, d->errors,
                d->errors == 1 ? "" : "s");
        return -1;
    }
    if (a->max_memory) {
        e->max_memory = a->max_memory;
        e->max_memory_from = "allowed (--max-memory)";
    } else {
        e->max_memory = available_memory(&e->max_memory_from);
    }
    if (experiment_build_topo(e, t, d) != 0) {
        experiment_free(e);
        return -1;
    }
    if (experiment_net_params(e, t, np, d) != 0 ||
        experiment_check_run(e, t, np, d) != 0) {
        fprintf(stderr, "dfsim run: %s: %d error%s\n", a->file, d->errors,
                d->errors == 1 ? "" : "s");
        topo_free(t);
        experiment_free(e);
        return -1;
    }
    if (a->quick) /* the real experiment checked, a short one run */
        experiment_quicken(e);
    return 0;
}

/* Whether dir holds an impact study that finished: its impact.csv is
 * listed done, and so is every other file of its manifest (a study cut
 * short leaves files open; the settings were compared when the folder
 * was claimed). */
static bool impact_finished(const char *dir)
{
    struct manifest m;
    memset(&m, 0, sizeof m);
    if (manifest_read(&m, dir, stderr) != 0) {
        manifest_free(&m);
        return false;
    }
    const struct manifest_entry *ic = manifest_find(&m, "impact.csv");
    bool done = ic && ic->done;
    for (size_t i = 0; i < m.n && done; i++)
        done = m.v[i].done;
    manifest_free(&m);
    return done;
}

/* The impact study: its simulations (exp/impact.h), then on rank 0 its
 * results (results/impact_results.h). 0 or -1 (said). With --resume, a
 * study that finished is left as it is; one cut short goes on from the
 * first simulation its journal lacks (impact.journal). */
static int run_impact(const struct runner *rn, const char *file)
{
    const struct experiment *e = rn->e;
    bool rank0 = par_rank() == 0;
    if (rn->resume && impact_finished(rn->outdir)) {
        if (rank0)
            printf("\nthe impact study finished before (%s/impact.csv and "
                   "every file of experiment.files done): nothing to run; "
                   "--force runs it again\n",
                   rn->outdir);
        return 0;
    }
    struct impact_report_info info = {
        .title = e->info.name, .description = e->info.description,
        .system = e->system ? e->system->base.name : e->builder->base.name,
        .routing = rn->np->routing->base.name,
        .seed = (uint64_t)e->info.seed };
    struct impact_data x;
    int rc = impact_simulate(&e->impact, &e->jobs, rn->t, rn->np,
                             (uint64_t)e->info.seed, e->info.time_limit,
                             rn->outdir, &jobs_results_writer, rn->resume,
                             rn->partitions, !rn->each_warmup, rn->waits, &x,
                             rn->d);
    if (rc == 0)
        rc = runner_memory_check(rn, "the impact study");
    if (rc == 0 && rank0) /* the cells and the report are rank 0's */
        rc = impact_results_write(&x, rn->outdir, &info, rn->d);
    impact_data_free(&x);
    if (rc != 0) {
        if (rank0 && rc != SIM_INTERRUPTED) /* interrupted: said after */
            fprintf(stderr, "dfsim run: %s: the impact study failed\n",
                    file);
        rc = -1;
    }
    return rc;
}

/* Every kind of run the file has, in order, each agreed over the ranks:
 * the traffic sweep, the jobs list's runs, the impact study; what is made
 * of each after it (results/). 0 or -1. */
static int run_kinds(const struct runner *rn, const char *file)
{
    const struct experiment *e = rn->e;
    bool rank0 = par_rank() == 0;
    if (e->has_traffic) {
        struct traffic_result *res;
        uint32_t done;
        int trc = runner_traffic(rn, &res, &done);
        if (traffic_results(e, rn->np, rn->outdir, res, done, trc == 0) !=
            0)
            trc = -1;
        free(res);
        if (par_agree(trc) != 0)
            return -1;
    }
    if (e->jobs.n) {
        int jrc = runner_jobs(rn, &jobs_results_writer);
        if (jrc == 0 && rank0)
            jrc = jobs_results_report(e, rn->np, rn->outdir);
        if (par_agree(jrc) != 0)
            return -1;
    }
    if (e->impact.on && par_agree(run_impact(rn, file)) != 0)
        return -1;
    return 0;
}

/* Where the results are: the report pages, and every file written. */
static void print_summary(const struct experiment *e, const char *outdir,
                          bool waits)
{
    char sampled[256] = "";
    size_t len = 0;
    if (runner_sampling_on(e)) {
        bool many = e->traffic.loads.n *
                        (e->traffic.routings.n ? e->traffic.routings.n : 1) >
                    1;
        len = list_counter_files(sampled, sizeof sampled, len, &e->sampling,
                                 many ? "_*" : "", "links", NULL);
    }
    if (e->jobs.n) /* the job runs' counters (runner_jobs's names) */
        list_counter_files(sampled, sizeof sampled, len, &e->sampling,
                           e->has_traffic     ? "_jobs_run*"
                           : e->info.runs > 1 ? "_run*"
                                              : "",
                           "job_links", "job_links_summary");
    if (e->has_traffic)
        printf("\n%sreport: %s/%s\n",
               e->jobs.n || e->impact.on ? "traffic " : "", outdir,
               traffic_results_page(e));
    if (e->jobs.n || e->impact.on)
        printf("%sreport: %s/report.html\n", e->has_traffic ? "" : "\n",
               outdir);
    printf("\nresults in %s/ (topology.json, probe.csv%s%s%s%s%s)\n", outdir,
           e->has_traffic ? ", traffic.csv" : "", sampled,
           e->jobs.n ? ", jobs.csv, iterations.csv, ranks.csv, metrics.csv, "
                       "variants.csv, load.csv, runs.csv"
                     : "",
           e->impact.on ? ", impact.csv, impact_runs.csv, jobs.csv, "
                          "iterations.csv, ranks.csv, metrics.csv, load.csv"
                        : "",
           waits && (e->jobs.n || e->impact.on) ? ", waits.csv" : "");
}

/* A run stopped by a signal: say where its finished results are and how
 * to go on; the exit status 128 + the signal. */
static int interrupted(const struct experiment *e, const char *file,
                       const char *outdir, uint32_t partitions)
{
    int sig = sim_interrupt;
    if (par_rank() != 0)
        return 128 + sig;
    fflush(stdout);
    fprintf(stderr,
            "\ndfsim run: interrupted (%s); the results finished so far "
            "are in %s/\n",
            sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal",
            outdir);
    if (partitions) /* a windowed folder resumes windowed */
        fprintf(stderr, "  to go on from there: dfsim run %s -o %s "
                        "--resume --partitions %u (or any P)\n", file,
                outdir, partitions);
    else
        fprintf(stderr, "  to go on from there: dfsim run %s -o %s "
                        "--resume\n", file, outdir);
    return 128 + sig;
}

/* --partitions auto: split each simulation as far as the runs leave MPI
 * ranks over. With N ranks and S simulations in the experiment's largest
 * kind (a traffic sweep's points, a jobs list's runs, an impact study's
 * simulations), the largest P that
 * divides N, is at most N / S and at most what the system can be cut
 * into (partition_max); 1 (windowed, in this process) without mpirun.
 * Under the windowed rules the files are the same for every P, so the
 * choice changes the speed, never the results. */
static uint32_t auto_partitions(const struct experiment *e,
                                const struct topo *t, bool from_file)
{
    uint32_t n = (uint32_t)par_size(), sims = 1;
    if (e->has_traffic) {
        const struct traffic_sweep *sw = &e->traffic;
        sims = (sw->routings.n ? sw->routings.n : 1) * sw->loads.n;
    }
    if (e->jobs.n && e->info.runs > sims)
        sims = e->info.runs;
    if (e->impact.on && impact_simulations(&e->impact) > sims)
        sims = impact_simulations(&e->impact);
    uint32_t want = n / sims, max = partition_max(t), P = 1;
    for (uint32_t q = want < max ? want : max; q > 1 && P == 1; q--)
        if (n % q == 0)
            P = q;
    if (par_rank() == 0)
        printf("%s: %u partition%s (%u MPI rank%s, %u simulation%s in "
               "the largest kind of run, %s cut into at most %u)\n",
               from_file ? "experiment.windowed, the windowed rules"
                         : "--partitions auto",
               P, P == 1 ? "" : "s", n, n == 1 ? "" : "s", sims,
               sims == 1 ? "" : "s", t->system, max);
    return P;
}

int cli_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    struct diag d;
    diag_init(&d);
    struct experiment e;
    struct topo t;
    struct net_params np;
    if (prepare(&a, &e, &t, &np, &d) != 0)
        return 1;
    char defdir[256];
    const char *outdir = a.outdir;
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "results/%s%s", e.info.name,
                 a.quick ? "-quick" : "");
        outdir = defdir;
    }
    rc = 1;
    bool claimed = false; /* rank 0: the folder is this experiment's */
    /* an experiment that asks for the windowed rules: split as far as
     * the MPI ranks allow, in one process P = 1 */
    bool from_file = e.info.windowed && a.partitions == 0 && !a.given_p;
    if (from_file) {
        a.partitions = 1;
        a.auto_p = true;
    }
    char *settings = fingerprint_text(e.cfg, e.info.seed, a.quick,
                                      a.partitions > 0);
    if (!settings) {
        fprintf(stderr, "dfsim run: out of memory\n");
        goto out;
    }
    /* from here on a signal stops the work in order (on_signal) */
    cli_catch_stop(on_signal, SA_RESETHAND);
    if (par_start() != 0)
        goto out;
    if (a.auto_p)
        a.partitions = auto_partitions(&e, &t, from_file);
    if (a.waits && a.partitions > 0) {
        /* mpi/mpi.h, dmpi_waits_on: whose a hop is, in one process */
        if (par_rank() == 0)
            fprintf(stderr, "dfsim run: --waits counts in one process, "
                            "not in windows over %u partition%s: expected "
                            "--partitions 0\n",
                    a.partitions, a.partitions == 1 ? "" : "s");
        rc = 2;
        goto out;
    }
    if (par_set_split(a.partitions) != 0) {
        if (par_rank() == 0)
            fprintf(stderr, "dfsim run: %d MPI ranks cannot be grouped %u "
                            "to a run: expected a multiple of --partitions "
                            "%u\n",
                    par_size(), a.partitions, a.partitions);
        goto out;
    }
    /* rank 0 claims the folder and writes what is not dealt: the
     * system's figures and the probe */
    struct runner rn = { .e = &e, .t = &t, .np = &np, .outdir = outdir,
                         .resume = a.resume, .max_memory = a.max_memory,
                         .partitions = a.partitions,
                         .each_warmup = a.each_warmup,
                         .waits = a.waits,
                         .d = &d };
    if (par_agree(par_rank() == 0 ? runner_setup(&rn, settings, a.file,
                                                 a.force, a.quick, &claimed)
                                  : 0) != 0 ||
        run_kinds(&rn, a.file) != 0)
        goto out;
    rc = 0;
out:
    /* the folder's manifest lists what is there, finished or cut short */
    if (claimed && runner_seal(&rn) != 0)
        rc = 1;
    if (rc == 0)
        print_summary(&e, outdir, a.waits);
    if (rc != 0 && sim_interrupt)
        rc = interrupted(&e, a.file, outdir, a.partitions);
    par_stop();
    cli_catch_stop(NULL, 0);
    sim_interrupt = 0;
    free(settings);
    topo_free(&t);
    experiment_free(&e);
    return rc;
}
