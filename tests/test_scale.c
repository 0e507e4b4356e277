/* tests/test_scale.c — what grows with the size of an experiment (issue
 * 57): set-up and report in the number of jobs, the torus bisection in
 * the size of the torus, and two things a large run prints, the
 * estimate of the time it has left and the fits of its impact study.
 *
 * None of these is timed: the work is counted (core/steps.h) at N and at
 * 4N and its growth checked (linear: 4 times; n log n: about 5; quadratic:
 * 16), and the fast bisection is checked against every plane cut
 * evaluated on the graph, as the old code did. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/steps.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "exp/traffic.h"
#include "results/impact_results.h"
#include "results/jobs_results.h"
#include "results/report.h"
#include "test.h"
#include "mpi_util.h"
#include "topo/topo.h"

/* ---- the torus bisection ------------------------------------------------ */

/* The cheapest plane cut, each evaluated on the graph: in each dimension
 * with two or more Geminis, the routers at offsets o .. o + k/2 - 1 of
 * the ring against the rest, for o < k/2 rounded up; the bandwidth (both
 * directions) and the links of every port whose peer is on the other
 * side. The first of equal cuts wins, as topo_figures says. */
static void plane_cuts(const struct topo *t, double *gbps, uint32_t *links,
                       const char **name)
{
    static const char *const names[3] = { "X plane", "Y plane", "Z plane" };
    const uint32_t dims[3] = { t->p.torus.x, t->p.torus.y, t->p.torus.z };
    *gbps = 0, *links = 0, *name = NULL;
    for (uint32_t d = 0; d < 3; d++) {
        uint32_t k = dims[d];
        for (uint32_t o = 0; k >= 2 && o < k / 2 + k % 2; o++) {
            double bw = 0;
            uint32_t n = 0;
            for (uint32_t p = 0; p < t->n_ports; p++) {
                const struct topo_port *pt = &t->ports[p];
                if (pt->peer == TOPO_NONE)
                    continue;
                uint32_t a = t->routers[pt->router].pos[d];
                uint32_t b = t->routers[t->ports[pt->peer].router].pos[d];
                bool in_a = (a + k - o) % k < k / 2;
                bool in_b = (b + k - o) % k < k / 2;
                if (in_a != in_b)
                    bw += (double)pt->bw, n++;
            }
            if (*name == NULL || bw / 1e9 < *gbps - 1e-9)
                *gbps = bw / 1e9, *links = n / 2, *name = names[d];
        }
    }
}

/* topo_figures's bisection of a torus is the cheapest plane cut, to the
 * last bit, on tori with rings of every kind: 1 (no cut), 2 (two links
 * between the same pair), odd (unequal halves), and 8 or more (Z's cable
 * every eighth link, Y's mezzanine every second). */
static void test_scale_torus_bisection_exact(void)
{
    static const uint32_t sizes[][3] = {
        { 1, 1, 2 }, { 2, 1, 1 }, { 2, 2, 2 }, { 3, 1, 1 }, { 3, 4, 5 },
        { 4, 4, 4 }, { 5, 3, 9 }, { 1, 6, 8 }, { 7, 2, 16 }, { 8, 8, 8 },
        { 9, 10, 17 }, { 16, 12, 24 }, { 2, 9, 1 }, { 6, 7, 1 },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct topo t;
        if (mpi_h_torus(&t, sizes[i][0], sizes[i][1], sizes[i][2]) != 0)
            continue;
        struct topo_figures f;
        CHECK(topo_figures(&t, &f) == 0);
        double gbps;
        uint32_t links;
        const char *name;
        plane_cuts(&t, &gbps, &links, &name);
        if (f.bisection_GBps != gbps || f.bisection_links != links ||
            strcmp(f.bisection_cut, name ? name : "none") != 0) {
            fprintf(stderr, "  torus %ux%ux%u: %.17g GB/s, %u links, %s; "
                            "the plane cuts: %.17g, %u, %s\n",
                    sizes[i][0], sizes[i][1], sizes[i][2], f.bisection_GBps,
                    f.bisection_links, f.bisection_cut, gbps, links,
                    name ? name : "none");
            CHECK(false);
        }
        topo_free(&t);
    }
}

/* The bisection of a torus looks at each port a bounded number of times,
 * not once per cut: at most twice the routers and ports in all. */
static void test_scale_torus_bisection_linear(void)
{
    struct topo t;
    if (mpi_h_torus(&t, 12, 12, 12) != 0)
        return;
    struct topo_figures f;
    uint64_t before = steps_taken;
    CHECK(topo_figures(&t, &f) == 0);
    uint64_t work = steps_taken - before;
    uint64_t size = (uint64_t)t.n_routers + t.n_ports;
    if (work > 2 * size) {
        fprintf(stderr, "  12^3 torus: %llu steps for %llu routers and "
                        "ports\n",
                (unsigned long long)work, (unsigned long long)size);
        CHECK(work <= 2 * size);
    }
    topo_free(&t);
}

/* ---- many jobs ---------------------------------------------------------- */

/* An experiment of n one-node ping-pong jobs on an Aries system (two ranks
 * on the node: shared memory, no network traffic, so that set-up and
 * report are most of the work): every other job unnamed (named
 * pingpong-<index>: the workload is shared), the rest a chain of named
 * jobs, each after the one before on its nodes; every eighth chained job
 * alternates two routing variants. `runs` runs. malloc'd. */
static char *many_jobs(uint32_t n, uint32_t runs)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "experiment = { name = \"many-%u\"; runs = %u; };\n"
               "system = { name = \"xc-12cab\"; };\njobs = (\n",
            n, runs);
    for (uint32_t i = 0; i < n; i++) {
        const char *sep = i + 1 < n ? "," : "";
        uint32_t c = i / 2;
        if (i % 2 == 0)
            fprintf(f, "  { workload = \"pingpong\"; nodes = 1; ppn = 2; "
                       "iterations = 1; bytes = 8; }%s\n",
                    sep);
        else if (c == 0)
            fprintf(f, "  { name = \"c0\"; workload = \"pingpong\"; "
                       "nodes = 1; ppn = 2; iterations = 1; bytes = 8; }%s\n",
                    sep);
        else
            fprintf(f, "  { name = \"c%u\"; workload = \"pingpong\"; "
                       "ppn = 2; iterations = 2; bytes = 8; after = "
                       "\"c%u\"; allocation = \"same\";%s }%s\n",
                    c, c - 1,
                    c % 8 == 0 ? " variants = [\"ADAPTIVE_0\", "
                                 "\"ADAPTIVE_3\"];"
                               : "",
                    sep);
    }
    fprintf(f, ");\n");
    fclose(f);
    return text;
}

/* The steps of reading and running the experiment of many_jobs(n)
 * in-process (its result rows into memory); 0 if it failed. */
static uint64_t setup_steps(uint32_t n)
{
    char *text = many_jobs(n, 1);
    const char *path = text ? write_temp("many.cfg", text) : NULL;
    free(text);
    CHECK(path != NULL);
    if (!path)
        return 0;
    struct capture c;
    cap_init(&c);
    struct experiment e;
    uint64_t before = steps_taken, work = 0;
    if (experiment_load(&e, path, -1, &c.d) != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        CHECK(false);
        cap_free(&c);
        return 0;
    }
    struct topo t;
    struct net_params np;
    if (experiment_build_topo(&e, &t, &c.d) == 0) {
        if (experiment_net_params(&e, &t, &np, &c.d) == 0) {
            FILE *null = fopen("/dev/null", "w");
            struct jobs_output out = {
                .writer = &jobs_results_writer, .jobs = null,
                .iterations = null, .ranks = null, .metrics = null,
                .variants = null, .header = true };
            simtime end = 0;
            int rc = jobs_run(&e.jobs, &t, &np, (uint64_t)e.info.seed,
                              e.info.time_limit, &out, &end, &c.d);
            CHECK_EQ_U(rc, 0);
            fclose(null);
            work = steps_taken - before;
        }
        topo_free(&t);
    }
    if (work == 0)
        fprintf(stderr, "%s", cap_text(&c));
    experiment_free(&e);
    cap_free(&c);
    unlink(path);
    return work;
}

/* The work of growing n to 4n, against `most` times as much. */
static void check_growth(const char *what, uint64_t n, uint64_t at_n,
                         uint64_t at_4n, double most)
{
    CHECK(at_n > 0 && at_4n > 0);
    double ratio = at_n ? (double)at_4n / (double)at_n : INFINITY;
    if (!(ratio <= most)) {
        fprintf(stderr, "  %s: %llu steps for %llu jobs, %llu for %llu: "
                        "%.1f times (linear: 4, n log n: about 5, "
                        "quadratic: 16)\n",
                what, (unsigned long long)at_n, (unsigned long long)n,
                (unsigned long long)at_4n, (unsigned long long)(4 * n),
                ratio);
        CHECK(ratio <= most);
    }
}

/* Reading an experiment of many jobs, placing and starting them, grows
 * as n log n at most with their number: a job's name is not compared with
 * every other's, nor a chained job's start with every job's end. */
static void test_scale_setup_jobs(void)
{
    uint64_t a = setup_steps(300), b = setup_steps(1200);
    check_growth("set-up", 300, a, b, 6.0);
}

/* The steps of report_from_results on the results of many_jobs(n) (two
 * runs), written by the program; 0 if it failed. */
static uint64_t report_steps(uint32_t n)
{
    char *text = many_jobs(n, 2);
    const char *path = text ? write_temp("many-report.cfg", text) : NULL;
    free(text);
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/dfsim-test-%d-many-%u", (int)getpid(),
             n);
    const char *argv[] = { "run", path, "-o", dir, "--force", NULL };
    static char out[1 << 16], err[1 << 16];
    if (!path || run_dfsim(argv, out, sizeof out, err, sizeof err) != 0) {
        fprintf(stderr, "%s", err);
        CHECK(false);
        return 0;
    }
    struct report_info info = { .title = "many", .system = "xc-12cab",
                                .routing = "ADAPTIVE_0" };
    bool drawn;
    uint64_t before = steps_taken;
    int rc = report_from_results(dir, &info, &drawn, stderr);
    uint64_t work = steps_taken - before;
    CHECK_EQ_U(rc, 0);
    rm_dir(dir);
    unlink(path);
    return rc == 0 ? work : 0;
}

/* The report of many jobs' results grows as n log n at most: a row is
 * not looked for among all the rows once per job. */
static void test_scale_report_jobs(void)
{
    uint64_t a = report_steps(300), b = report_steps(1200);
    check_growth("report", 300, a, b, 6.0);
}

/* FNV-1a of the bytes of dir/name into h (a missing file hashes as
 * its name, so that it shows). */
static uint64_t fnv_file(uint64_t h, const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_text(path);
    for (const char *p = text ? text : name; *p; p++) {
        h ^= (unsigned char)*p;
        h *= UINT64_C(0x100000001b3);
    }
    free(text);
    return h;
}

/* The results of many jobs are those dfsim wrote before set-up and
 * report became linear: the hash of the files of many_jobs(240) over two
 * runs (chains, shared workloads, variants, normalisation per run),
 * recorded with the binary of commit dd72215, then again when jobs.csv
 * gained its routers and groups columns (every other file cmp-equal to
 * 31032e4's, the columns before them too), and when runs.csv gained its
 * windowed column (every other result file cmp-equal to abca6e0's). It changes only when a
 * result file's format or a figure does on purpose; then record the new
 * one (the test prints it). */
static void test_scale_many_jobs_results_unchanged(void)
{
    char *text = many_jobs(240, 2);
    const char *path = text ? write_temp("many-same.cfg", text) : NULL;
    free(text);
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/dfsim-test-%d-many-same", (int)getpid());
    const char *argv[] = { "run", path, "-o", dir, "--force", NULL };
    static char out[1 << 16], err[1 << 16];
    CHECK(path != NULL);
    if (!path || run_dfsim(argv, out, sizeof out, err, sizeof err) != 0) {
        fprintf(stderr, "%s", err);
        CHECK(false);
        return;
    }
    static const char *const files[] = {
        "jobs.csv", "iterations.csv", "ranks.csv", "variants.csv",
        "runs.csv", "variants.dat", "variants.gp", "paths.dat", "paths.gp",
    };
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        h = fnv_file(h, dir, files[i]);
    if (h != UINT64_C(0x71f6eb60db447555))
        fprintf(stderr, "  the results of 240 jobs hash to 0x%016llx\n",
                (unsigned long long)h);
    CHECK(h == UINT64_C(0x71f6eb60db447555));
    rm_dir(dir);
}

/* ---- the estimate of the time left -------------------------------------- */

/* The estimate counts the drain: a run 11 us into a 15 us window with
 * 20 us of drain after it has 24 us to go, and at the pace of its last
 * progress interval (1 us a second, slower than the average as the
 * network fills) that is 24 s, not the 1.5 s the window alone gives. In
 * the drain the estimate goes on (it used to stop). */
static void test_scale_eta_counts_drain(void)
{
    struct traffic_eta e = {
        .from = 0, .now = 11 * SIMTIME_US, .t_end = 15 * SIMTIME_US,
        .horizon = 35 * SIMTIME_US, .wall = 4.0,
        .recent_sim = 1 * SIMTIME_US, .recent_wall = 1.0 };
    CHECK_NEAR(traffic_eta_seconds(&e), 24.0, 1e-9);
    /* the average pace when it is the slower: 4 s for 11 us */
    e.recent_wall = 0.1;
    CHECK_NEAR(traffic_eta_seconds(&e), 24.0 * 4.0 / 11.0, 1e-9);
    /* in the drain: 15 us left at 2 s per us */
    e = (struct traffic_eta){ .from = 0, .now = 20 * SIMTIME_US,
                              .t_end = 15 * SIMTIME_US,
                              .horizon = 35 * SIMTIME_US, .wall = 40.0,
                              .recent_sim = SIMTIME_US / 2,
                              .recent_wall = 1.0 };
    CHECK_NEAR(traffic_eta_seconds(&e), 30.0, 1e-9);
    /* progress shown from where the run_shown began (the links report
     * runs to the window's end first): the pace of what it ran */
    e = (struct traffic_eta){ .from = 15 * SIMTIME_US,
                              .now = 25 * SIMTIME_US,
                              .t_end = 15 * SIMTIME_US,
                              .horizon = 35 * SIMTIME_US, .wall = 5.0 };
    CHECK_NEAR(traffic_eta_seconds(&e), 5.0, 1e-9);
    /* nothing simulated yet: not known */
    e = (struct traffic_eta){ .from = SIMTIME_US, .now = SIMTIME_US,
                              .t_end = 15 * SIMTIME_US,
                              .horizon = 35 * SIMTIME_US, .wall = 1.0 };
    CHECK(isnan(traffic_eta_seconds(&e)));
}

/* ---- a fit on too few points -------------------------------------------- */

/* A least-squares line through 2 points fits them exactly whatever they
 * are (r = +-1): no result. Fewer than 3 points give no fit and say why;
 * 3 points do. */
static void test_scale_fit_needs_three(void)
{
    const double m[3] = { 1.0, 2.0, 4.0 }, t[3] = { 10.0, 3.0, 7.0 };
    struct impact_fit f;
    impact_fit(m, t, 2, &f);
    CHECK(isnan(f.slope) && isnan(f.intercept) && isnan(f.r));
    CHECK_STR_CONTAINS(f.why, "fit needs >= 3 points, have 2");
    impact_fit(m, t, 3, &f);
    CHECK(isfinite(f.slope) && isfinite(f.r) && fabs(f.r) < 1);
    CHECK_EQ_U(f.why[0], 0);
}

/* The Voltrino case of issue 57: one share, one aggressor, one run, so
 * each victim has 2 simulations (alone, with the aggressor). The console,
 * sensitivity.csv and report.html give the reason, not r = 1 and c. */
static void test_scale_fit_refused_in_results(void)
{
    const char *cfg = write_temp(
        "fit2.cfg",
        "experiment = { name = \"fit2\"; seed = 1; };\n"
        "system = { name = \"voltrino\"; };\n"
        "impact = {\n"
        "  nodes = 64; shares = [0.5]; allocation = \"random\";\n"
        "  victim_nodes = 8; warmup_us = 20.0; runs = 1;\n"
        "  victims = ( { name = \"pingpong-8B\"; workload = \"pingpong\";\n"
        "                bytes = 8; peer = 7; iterations = 20; } );\n"
        "  aggressors = ( { name = \"rma-incast\";\n"
        "                   workload = \"gpcnet-rma-incast\";\n"
        "                   bytes = 4096; } );\n"
        "};\n");
    char dir[128];
    snprintf(dir, sizeof dir, "/tmp/dfsim-test-%d-fit2", (int)getpid());
    const char *argv[] = { "run", cfg, "-o", dir, "--force", NULL };
    static char out[1 << 16], err[1 << 16];
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    const char *why = "fit needs >= 3 points, have 2";
    const char *row = strstr(out, "\npingpong-8B               2 ");
    CHECK(row != NULL);
    if (row) {
        const char *eol = strchr(row + 1, '\n');
        char line[512];
        snprintf(line, sizeof line, "%.*s",
                 (int)(eol ? eol - row - 1 : 200), row + 1);
        CHECK_STR_CONTAINS(line, why);
        CHECK(strstr(line, "1.000") == NULL); /* no r = 1, no c_rel */
    }
    char path[256];
    snprintf(path, sizeof path, "%s/sensitivity.csv", dir);
    char *csv = read_text(path);
    CHECK_STR_CONTAINS(csv, ",note\n");
    CHECK_STR_CONTAINS(csv, "pingpong-8B,2,,,,,,,,,");
    CHECK_STR_CONTAINS(csv, "\"fit needs >= 3 points, have 2\"\n");
    free(csv);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *html = read_text(path);
    CHECK_STR_CONTAINS(html, "fit needs &gt;= 3 points, have 2"); /* >= */
    free(html);
    rm_dir(dir);
}

const struct test_case tests_scale[] = {
    TEST(test_scale_torus_bisection_exact),
    TEST(test_scale_torus_bisection_linear),
    TEST(test_scale_setup_jobs),
    TEST(test_scale_report_jobs),
    TEST(test_scale_many_jobs_results_unchanged),
    TEST(test_scale_eta_counts_drain),
    TEST(test_scale_fit_needs_three),
    TEST(test_scale_fit_refused_in_results),
    { 0 },
};
