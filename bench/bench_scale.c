/* bench/bench_scale.c — how set-up, report and the torus bisection grow
 * with the size of an experiment (issue 57 item 8: 32,000 jobs took 14 s
 * to set up, 12,000 chained jobs 38 s, a 64^3 torus 54 s of bisection).
 *
 * Jobs: an experiment of N and of 4N one-node ping-pong jobs (two ranks
 * on the node, shared memory: no network traffic, so that what grows is
 * the book-keeping of jobs), half of them independent, half one chain of
 * jobs each after the one before on its nodes, on a dragonfly of 33,024
 * nodes. For each size, in this process: reading the file
 * (experiment_load: names, after, chains), the run (placement, the MPI
 * layer, the simulation, the result rows into files of a scratch folder)
 * and the report from those files (report_from_results) without gnuplot,
 * whose drawing of one box per job is its own affair (--gnuplot to time
 * it too: it reads variants.dat once per box). Then each figure's ratio
 * 4N / N: about 4 when it grows linearly, 16 when quadratically.
 *
 * Torus: the figures of `dfsim topo` (topo_figures: diameter, bisection)
 * of a 32x32x32 and a 64x64x32 torus, 4 times the routers.
 *
 * With each row a 64-bit FNV-1a hash of what was computed (the result
 * files, the bisection's figures), so that a speed-up that changes an
 * answer shows. Usage: bench_scale [--gnuplot] [N] (default 4000). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/time.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "results/jobs_results.h"
#include "results/report.h"
#include "topo/topo.h"

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* The bytes of dir/name into h (nothing if it cannot be read). */
static uint64_t fnv_file(uint64_t h, const char *dir, const char *name)
{
    char path[512], buf[1 << 16];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv_bytes(h, buf, n);
    if (f)
        fclose(f);
    return h;
}

/* The experiment file of n jobs into path. 0, or -1. */
static int write_jobs(const char *path, uint32_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "experiment = { name = \"bench-scale-%u\"; };\n"
               "system = { topology = \"dragonfly\"; p = 16; a = 16; "
               "h = 8; g = 129; };\njobs = (\n",
            n);
    for (uint32_t i = 0; i < n; i++) {
        const char *sep = i + 1 < n ? "," : "";
        if (i % 2 == 0 || i == 1)
            fprintf(f, "  { name = \"j%u\"; workload = \"pingpong\"; "
                       "nodes = 1; ppn = 2; iterations = 1; bytes = 8; }%s\n",
                    i, sep);
        else
            fprintf(f, "  { name = \"j%u\"; workload = \"pingpong\"; "
                       "ppn = 2; iterations = 1; bytes = 8; after = "
                       "\"j%u\"; allocation = \"same\"; }%s\n",
                    i, i - 2, sep);
    }
    fprintf(f, ");\n");
    return fclose(f) == 0 ? 0 : -1;
}

struct jobs_times {
    double load, run, report;
    uint64_t hash;
};

/* Run the jobs of e with their result files in dir. 0, or -1. */
static int run_into(const struct experiment *e, const char *dir,
                    struct diag *d)
{
    static const char *const names[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "variants.csv", "load.csv" };
    FILE *f[6];
    int rc = -1, opened = 0;
    for (; opened < 6; opened++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[opened]);
        if (!(f[opened] = fopen(path, "w")))
            break;
    }
    struct topo t;
    struct net_params np;
    if (opened == 6 && experiment_build_topo(e, &t, d) == 0) {
        if (experiment_net_params(e, &t, &np, d) == 0) {
            struct jobs_output out = {
                .writer = &jobs_results_writer, .jobs = f[0],
                .iterations = f[1], .ranks = f[2], .metrics = f[3],
                .variants = f[4], .load = f[5], .header = true };
            simtime end = 0;
            rc = jobs_run(&e->jobs, &t, &np, (uint64_t)e->info.seed,
                          e->info.time_limit, &out, &end, d);
        }
        topo_free(&t);
    }
    while (opened-- > 0)
        fclose(f[opened]);
    return rc;
}

/* The three figures of n jobs, in a scratch folder. 0, or -1. */
static int time_jobs(uint32_t n, bool gnuplot, struct jobs_times *out)
{
    char dir[] = "/tmp/dfsim-bench-scale-XXXXXX", cfg[600];
    if (!mkdtemp(dir))
        return -1;
    snprintf(cfg, sizeof cfg, "%s/many.cfg", dir);
    struct diag d;
    diag_init(&d);
    struct experiment e;
    int rc = -1;
    if (write_jobs(cfg, n) != 0)
        goto out;
    double t0 = time_wall_seconds();
    if (experiment_load(&e, cfg, -1, &d) != 0)
        goto out;
    double t1 = time_wall_seconds();
    if (run_into(&e, dir, &d) == 0) {
        double t2 = time_wall_seconds();
        struct report_info info = { .title = "bench-scale",
                                    .system = "dragonfly",
                                    .routing = "UGAL" };
        bool drawn;
        char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
        if (!gnuplot) /* gnuplot not found: dfsim's own work alone */
            setenv("PATH", "/nonexistent", 1);
        int r = report_from_results(dir, &info, &drawn, NULL);
        if (path)
            setenv("PATH", path, 1);
        free(path);
        double t3 = time_wall_seconds();
        *out = (struct jobs_times){ .load = t1 - t0, .run = t2 - t1,
                                    .report = t3 - t2, .hash = FNV_OFFSET };
        static const char *const files[] = { "jobs.csv", "iterations.csv",
                                             "ranks.csv", "variants.csv",
                                             "variants.dat", "variants.gp",
                                             "report.html" };
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
            out->hash = fnv_file(out->hash, dir, files[i]);
        rc = r == 0 ? 0 : -1;
    }
    experiment_free(&e);
out:;
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_scale: could not remove %s\n", dir);
    return rc;
}

/* topo_figures of an x*y*z torus: seconds, and a hash of its figures. */
static int time_torus(uint32_t x, uint32_t y, uint32_t z, double *s,
                      uint64_t *hash)
{
    const struct topo_builder *b = (const struct topo_builder *)
        registry_find(&topo_builder_registry, "torus");
    union topo_params p;
    b->defaults(&p);
    p.torus.x = x, p.torus.y = y, p.torus.z = z;
    struct diag d;
    diag_init(&d);
    struct topo t;
    if (topo_build(&t, b, &p, "torus", "bench", &d, NULL) != 0)
        return -1;
    struct topo_figures f;
    double t0 = time_wall_seconds();
    int rc = topo_figures(&t, &f);
    *s = time_wall_seconds() - t0;
    uint64_t h = fnv_bytes(FNV_OFFSET, &f.bisection_GBps,
                           sizeof f.bisection_GBps);
    h = fnv_bytes(h, &f.bisection_links, sizeof f.bisection_links);
    h = fnv_bytes(h, f.bisection_cut, strlen(f.bisection_cut));
    *hash = fnv_bytes(h, &f.diameter, sizeof f.diameter);
    topo_free(&t);
    return rc;
}

int main(int argc, char **argv)
{
    uint32_t n = 4000;
    bool gnuplot = false;
    for (int a = 1; a < argc; a++) {
        char *end;
        unsigned long v = strtoul(argv[a], &end, 10);
        if (strcmp(argv[a], "--gnuplot") == 0) {
            gnuplot = true;
        } else if (*end == '\0' && v >= 2 && v <= 250000) {
            n = (uint32_t)v;
        } else {
            fprintf(stderr, "usage: bench_scale [--gnuplot] [N]   (N jobs "
                            "and 4N, N in 2..250000, default 4000)\n");
            return 2;
        }
    }
    printf("jobs: half independent one-node ping-pongs, half a chain of "
           "them (after, allocation same); the report %s gnuplot\n",
           gnuplot ? "with" : "without");
    printf("%8s %10s %10s %10s  %s\n", "jobs", "load s", "run s",
           "report s", "hash");
    struct jobs_times j[2];
    for (int i = 0; i < 2; i++) {
        uint32_t k = i ? 4 * n : n;
        if (time_jobs(k, gnuplot, &j[i]) != 0) {
            fprintf(stderr, "bench_scale: the run of %u jobs failed\n", k);
            return 1;
        }
        printf("%8u %10.3f %10.3f %10.3f  %016" PRIx64 "\n", k, j[i].load,
               j[i].run, j[i].report, j[i].hash);
        fflush(stdout);
    }
    printf("%8s %10.1f %10.1f %10.1f  (4N / N: linear 4, quadratic 16)\n",
           "ratio", j[1].load / j[0].load, j[1].run / j[0].run,
           j[1].report / j[0].report);
    printf("\ntorus figures (topo_figures: diameter, bisection)\n");
    printf("%-10s %8s %10s  %s\n", "torus", "routers", "seconds", "hash");
    static const uint32_t dims[2][3] = { { 32, 32, 32 }, { 64, 64, 32 } };
    double s[2];
    for (int i = 0; i < 2; i++) {
        uint64_t h;
        if (time_torus(dims[i][0], dims[i][1], dims[i][2], &s[i], &h) !=
            0) {
            fprintf(stderr, "bench_scale: the torus failed\n");
            return 1;
        }
        char name[32];
        snprintf(name, sizeof name, "%ux%ux%u", dims[i][0], dims[i][1],
                 dims[i][2]);
        printf("%-10s %8u %10.3f  %016" PRIx64 "\n", name,
               dims[i][0] * dims[i][1] * dims[i][2], s[i], h);
        fflush(stdout);
    }
    printf("%-10s %8s %10.1f  (4x the routers: linear 4)\n", "ratio", "",
           s[1] / s[0]);
    return 0;
}
