/* cli/cli_run.c — `dfsim run FILE [-o DIR] [--seed N]`: run an experiment
 * file and write its results under DIR (default results/<name>). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "exp/experiment.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim run FILE [-o DIR] [--seed N]\n\n"
            "Run the experiment described in FILE (libconfig format; see\n"
            "examples/example.cfg) and write its results into DIR\n"
            "(default results/<experiment name>): topology.json and one CSV\n"
            "row per measurement, written as each finishes.\n\n"
            "  -o, --output DIR   results folder (created if missing)\n"
            "  --seed N           seed of every random stream (overrides\n"
            "                     experiment.seed)\n"
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

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "dfsim run: cannot write %s: %s\n", path,
                strerror(errno));
    return f;
}

int cli_run(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "seed", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *outdir = NULL;
    long long seed = -1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outdir = optarg;
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
    struct topo t;
    if (experiment_build_topo(&e, &t, &d) != 0) {
        experiment_free(&e);
        return 1;
    }
    char defdir[256];
    if (!outdir) {
        snprintf(defdir, sizeof defdir, "results/%s", e.info.name);
        outdir = defdir;
    }
    int rc = 1;
    FILE *csv = NULL, *json = NULL;
    if (make_dirs(outdir) != 0) {
        fprintf(stderr, "dfsim run: cannot create %s: %s\n", outdir,
                strerror(errno));
        goto out;
    }
    struct topo_figures fig;
    if (topo_figures(&t, &fig) != 0)
        goto out;
    printf("experiment  %s (seed %lld)\n", e.info.name,
           (long long)e.info.seed);
    topo_print(stdout, &t, &fig);
    if (!(json = open_out(outdir, "topology.json")))
        goto out;
    topo_print_json(json, &t, &fig);
    if (!(csv = open_out(outdir, "probe.csv")))
        goto out;

    struct probe_summary sum[64];
    int n = probe_run(&t, &e.probe, (uint64_t)e.info.seed, csv, sum, 64, &d);
    if (n < 0)
        goto out;
    printf("\nzero-load probe: %lld-byte packets on minimal paths, %.0f ns "
           "per router\n",
           (long long)e.probe.size, probe_router_delay_ns(&e.probe, &t));
    printf("  %-5s %6s %12s %12s %12s\n", "hops", "pairs", "mean ns",
           "min ns", "max ns");
    for (int i = 0; i < n; i++)
        if (sum[i].pairs)
            printf("  %-5u %6u %12.1f %12.1f %12.1f\n", sum[i].hops,
                   sum[i].pairs, sum[i].mean_ns, sum[i].min_ns,
                   sum[i].max_ns);
    printf("\nresults in %s/ (topology.json, probe.csv)\n", outdir);
    rc = 0;
out:
    if (csv)
        fclose(csv);
    if (json)
        fclose(json);
    topo_free(&t);
    experiment_free(&e);
    return rc;
}
