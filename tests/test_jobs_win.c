/* tests/test_jobs_win.c — a run of jobs in windows over P partitions
 * (exp/jobs_win.c, the MPI layer's split rules in mpi/mpi.c and p2p.c;
 * issue 54).
 *
 * The property: every result file of a windowed run of jobs is the same,
 * byte for byte, for every number of partitions, while packets, credit
 * returns and MPI envelopes really cross between them (the run's line
 * counts them); the jobs exercise every protocol (SMSG, eager, GET and
 * PUT rendezvous, one-sided PUTs), collectives, ranks sharing a node, a
 * background job, a chained job and a production fill. Against the
 * one-process run, the windowed rules change only the stop (at a
 * window's end: the background's rows and the offered load's end) and a
 * chained job's start (at a window's end if its offset is past): on a
 * file without a chain the foreground's iterations and ranks are the
 * one-process run's. Netscope's ticks, GPCNeT's release, observers and
 * counters are split too (each test below says how). Refusals are
 * checked on their messages. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const char system_text[] =
    "system = { topology = \"dragonfly\"; p = 2; a = 4; h = 2; g = 9; };\n";

/* every protocol, collectives, ppn 2, a background RMA incast, a fill */
static const char jobs_text[] =
    "jobs = (\n"
    "  { name = \"pp-put\"; workload = \"pingpong\"; nodes = 2;\n"
    "    allocation = \"random\"; bytes = 300000; iterations = 3; },\n"
    "  { name = \"pp-get\"; workload = \"pingpong\"; nodes = 2;\n"
    "    allocation = \"random\"; bytes = 20000; iterations = 4; },\n"
    "  { name = \"halo\"; workload = \"halo3d\"; nodes = 8; ppn = 2;\n"
    "    allocation = \"random\"; iterations = 3; },\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 2048; iterations = 3; },\n"
    "  { name = \"puts\"; workload = \"gpcnet-rma-incast\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 4096; background = true; }\n"
    ");\n"
    "production = { fill = 0.6; sizes = [4, 8];\n"
    "  stagger_us = 2.0; mix = ( { workload = \"allreduce\"; },\n"
    "  { workload = \"incast\"; bytes = 8; } ); };\n";

/* ... and a job that follows another */
static const char chain_text[] =
    "jobs = (\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 2048; iterations = 2; },\n"
    "  { name = \"next\"; workload = \"allreduce\"; nodes = 8;\n"
    "    allocation = \"same\"; after = \"a2a\"; start_us = 0.0;\n"
    "    iterations = 2; },\n"
    "  { name = \"bg\"; workload = \"gpcnet-a2a\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 512; background = true; }\n"
    ");\n";

static char out[1 << 16], err[1 << 16];

/* examples/NAME under the sources */
static void example(char *path, size_t cap, const char *name)
{
    const char *src = getenv("DFSIM_SRC");
    snprintf(path, cap, "%s/examples/%s", src ? src : ".", name);
}

static const char *config(const char *name, const char *jobs)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "experiment = { name = \"%s\"; seed = 5; };\n%s%s", name,
             system_text, jobs);
    return write_temp(name, text);
}

/* `dfsim run cfg -o dir [--partitions P]` (P NULL: one process) */
static int run_in(const char *cfg, const char *dir, const char *P)
{
    const char *argv[] = { "run", cfg, "-o", dir, "--force",
                           P ? "--partitions" : NULL, P, NULL };
    int rc = run_dfsim(argv, out, sizeof out, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  dfsim run --partitions %s: %d\n%s\n", P ? P : "-",
                rc, err);
    return rc;
}

/* The count before `what` in the run's line ("... 12 MPI envelopes
 * crossed"), or -1. */
static long crossed(const char *what)
{
    const char *p = strstr(err, what);
    if (!p)
        return -1;
    while (p > err && p[-1] == ' ')
        p--;
    while (p > err && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return strtol(p, NULL, 10);
}

/* P = 1, 2, 3, 4 and 7 (those up to most): the same files; the classic
 * run's into classic_dir if given (and P = 1's into classic_dir-p1) */
static void same_up_to(const char *cfg, const char *classic_dir,
                       uint32_t most)
{
    static const char *const P[] = { "1", "2", "3", "4", "7" };
    char dir[5][64];
    int n = 0;
    while (n < 5 && (uint32_t)atoi(P[n]) <= most)
        n++;
    for (int i = 0; i < n; i++) {
        strcpy(dir[i], "/tmp/dfsim-jw-XXXXXX");
        CHECK(mkdtemp(dir[i]) != NULL);
        CHECK_EQ_U(run_in(cfg, dir[i], P[i]), 0);
        if (i == 0)
            continue;
        CHECK_EQ_U(same_files(dir[0], dir[i]), 0);
        /* really split: packets and envelopes crossed */
        CHECK(crossed(" packets,") > 0);
        CHECK(crossed(" MPI envelopes crossed") > 0);
    }
    if (classic_dir) {
        CHECK_EQ_U(run_in(cfg, classic_dir, NULL), 0);
        CHECK(strstr(err, "windows of") == NULL);
    }
    for (int i = 1; i < n; i++)
        rm_dir(dir[i]);
    if (classic_dir) { /* the caller compares it with P = 1's */
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s-p1", classic_dir);
        rm_dir(cmd);
        CHECK(rename(dir[0], cmd) == 0);
    } else {
        rm_dir(dir[0]);
    }
}

static void same_for_every_p(const char *cfg, const char *classic_dir)
{
    same_up_to(cfg, classic_dir, 7);
}

static void same_for_every_p_of(const char *cfg, uint32_t most)
{
    same_up_to(cfg, NULL, most);
}

/* a file's bytes the same in two folders (both there) */
static bool same_file(const char *a, const char *b, const char *name)
{
    char pa[256], pb[256];
    snprintf(pa, sizeof pa, "%s/%s", a, name);
    snprintf(pb, sizeof pb, "%s/%s", b, name);
    FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void test_jobs_same_for_every_p(void)
{
    char classic[64] = "/tmp/dfsim-jw-XXXXXX";
    CHECK(mkdtemp(classic) != NULL);
    same_for_every_p(config("jw-all", jobs_text), classic);
    char p1[96];
    snprintf(p1, sizeof p1, "%s-p1", classic);
    /* no chain: the foreground's iterations, ranks and variants are the
     * one-process run's; the stop differs (runs.csv's end) */
    CHECK(same_file(classic, p1, "iterations.csv"));
    CHECK(same_file(classic, p1, "ranks.csv"));
    CHECK(same_file(classic, p1, "variants.csv"));
    CHECK(!same_file(classic, p1, "runs.csv"));
    rm_dir(classic);
    rm_dir(p1);
}

static void test_chain_same_for_every_p(void)
{
    same_for_every_p(config("jw-chain", chain_text), NULL);
}

/* On an Aries with a group's minimal routes in either order
 * (local_order "both": the mode picks among the nearer ports with the
 * routers' random streams) and a VC per local hop: the same files for
 * P = 1, 2, 3, packets crossing. */
static void test_both_orders_split(void)
{
    static const char text[] =
        "experiment = { name = \"jw-both\"; seed = 5; };\n"
        "system = { topology = \"aries\"; groups = 3; chassis_last = 2;\n"
        "  cables_per_pair = 8; };\n"
        "network = { local_order = \"both\"; vc_rule = \"hop\"; vcs = 8; };\n"
        "jobs = (\n"
        "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 24;\n"
        "    allocation = \"random\"; bytes = 2048; iterations = 2; },\n"
        "  { name = \"puts\"; workload = \"gpcnet-rma-incast\"; nodes = 16;\n"
        "    allocation = \"random\"; bytes = 4096; background = true; }\n"
        ");\n";
    same_for_every_p_of(write_temp("jw-both.cfg", text), 3);
}

/* A job packed on the first two of the nine groups (8 nodes each): the
 * parts are balanced by the ranks placed, so two partitions cut between
 * its groups and its envelopes cross (by NICs the cut would be 0-3 |
 * 4-8, the job all in the first part); the files are the same. */
static const char corner_text[] =
    "jobs = (\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 16;\n"
    "    allocation = \"linear\"; bytes = 1024; iterations = 2; }\n"
    ");\n";

static void test_split_by_ranks_placed(void)
{
    char dir[2][64];
    temp_dirs(dir, 2, "jw");
    const char *cfg = config("jw-corner", corner_text);
    CHECK_EQ_U(run_in(cfg, dir[0], "1"), 0);
    CHECK_EQ_U(run_in(cfg, dir[1], "2"), 0);
    CHECK_STR_CONTAINS(err, "over 2 partitions (groups 0 | 1-8, by ranks");
    CHECK(crossed(" MPI envelopes crossed") > 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    rm_dirs(dir, 2);
}

/* Netscope's AIMD (ICS'21 §5) ticks every 20 us on every NIC from its
 * own stall counter: a split run takes each partition's ticks at their
 * exact times (inventory N8, C1), and the files are the same for every
 * P. Cray's supervisor decides for the machine at once, from a count
 * summed over the partitions (C2). The incast has 128 of Malbec's 484
 * nodes: with 64, since Slingshot's routing weighs path length
 * (route/ss.c), fewer than Cray's start share (5 %) of the NICs stall
 * half a period and the supervisor never acts. */
static const char netscope_text[] =
    "experiment = { name = \"jw-ns\"; seed = 4; };\n"
    "system = { name = \"malbec\"; };\n"
    "network = { congestion_control = \"%s\"; };\n"
    "jobs = (\n"
    "  { name = \"pp\"; workload = \"pingpong\"; nodes = 2;\n"
    "    allocation = \"random\"; bytes = 8; iterations = 30; },\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 32;\n"
    "    allocation = \"random\"; bytes = 4096; iterations = 2; },\n"
    "  { name = \"inc\"; workload = \"gpcnet-rma-incast\"; nodes = 128;\n"
    "    allocation = \"random\"; bytes = 131072; background = true;\n"
    "    %s }\n"
    ");\n";

static void test_netscope_split(void)
{
    char text[2048];
    snprintf(text, sizeof text, netscope_text, "netscope",
             "delay_sensitivity = 2.0;");
    same_for_every_p_of(write_temp("jw-ns.cfg", text), 4);
    /* Cray's supervisor decides for the machine from every NIC's stalls:
     * each partition counts its own, the window's end sums them (C2);
     * the same files for every P, and not those of no control at all
     * (it throttled) */
    snprintf(text, sizeof text, netscope_text, "cray", "");
    const char *cray = write_temp("jw-cray.cfg", text);
    same_for_every_p_of(cray, 3);
    snprintf(text, sizeof text, netscope_text, "none", "");
    const char *none = write_temp("jw-none.cfg", text);
    char dir[2][64];
    temp_dirs(dir, 2, "jw");
    CHECK_EQ_U(run_in(cray, dir[0], "2"), 0);
    CHECK_EQ_U(run_in(none, dir[1], "2"), 0);
    CHECK(!same_file(dir[0], dir[1], "iterations.csv"));
    rm_dirs(dir, 2);
}

/* Over MPI, one partition a rank: the other ranks' results reach the
 * first as bytes (xchange_gather), and the files are the one process's. */
static void test_jobs_mpirun(void)
{
    const char *cfg = config("jw-mpi", jobs_text);
    char dir[3][64];
    temp_dirs(dir, 3, "jw");
    CHECK_EQ_U(run_in(cfg, dir[0], "1"), 0);
    for (int np = 2; np <= 3; np++) {
        char P[8];
        snprintf(P, sizeof P, "%d", np);
        const char *argv[] = { "run", cfg, "-o", dir[np - 1], "--force",
                               "--partitions", P, NULL };
        int rc = run_dfsim_mpi(np, argv, out, sizeof out, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "  mpirun -np %d: %d\n%s\n", np, rc, err);
        CHECK_EQ_U(rc, 0);
        CHECK_STR_CONTAINS(out, "one per MPI rank");
        CHECK(crossed(" MPI envelopes crossed") > 0);
        CHECK_EQ_U(same_files(dir[0], dir[np - 1]), 0);
    }
    rm_dirs(dir, 3);
}

/* --partitions auto: over two MPI ranks a file of one run is split in
 * two, in one process it is windowed whole; the files are the same. */
static void test_partitions_auto(void)
{
    const char *cfg = config("jw-auto", corner_text);
    char dir[2][64];
    temp_dirs(dir, 2, "jw");
    CHECK_EQ_U(run_in(cfg, dir[0], "auto"), 0);
    CHECK_STR_CONTAINS(out, "--partitions auto: 1 partition (1 MPI rank, 1 "
                            "simulation");
    const char *argv[] = { "run", cfg, "-o", dir[1], "--force",
                           "--partitions", "auto", NULL };
    int rc = run_dfsim_mpi(2, argv, out, sizeof out, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  mpirun -np 2 --partitions auto: %d\n%s\n", rc,
                err);
    CHECK_EQ_U(rc, 0);
    CHECK_STR_CONTAINS(out, "--partitions auto: 2 partitions (2 MPI ranks");
    CHECK_STR_CONTAINS(out, "one per MPI rank");
    CHECK(crossed(" MPI envelopes crossed") > 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    /* an impact study's simulations are counted as the study counts
     * them */
    char ex[512];
    example(ex, sizeof ex, "sc20-tc.cfg");
    const char *quick[] = { "run", ex, "-o", dir[0], "--force", "--quick",
                            "--partitions", "auto", NULL };
    CHECK_EQ_U(run_dfsim(quick, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "--partitions auto: 1 partition (1 MPI rank, 3 "
                            "simulations in the largest kind");
    CHECK_STR_CONTAINS(out, "1 run: 3 simulations");
    rm_dirs(dir, 2);
}

/* experiment.windowed: the file asks for the windowed rules; `dfsim run`
 * alone runs it windowed in one process, under mpirun -np 2 split in two
 * (as --partitions auto), and both give --partitions 1's files;
 * --partitions 0 runs it under the one-process rules. */
static void test_windowed_key(void)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "experiment = { name = \"jw-windowed\"; seed = 5; windowed = "
             "true; };\n%s%s", system_text, corner_text);
    const char *cfg = write_temp("jw-windowed", text);
    char dir[3][64];
    temp_dirs(dir, 3, "jw");
    CHECK_EQ_U(run_in(cfg, dir[0], "1"), 0);
    CHECK_EQ_U(run_in(cfg, dir[1], NULL), 0);
    CHECK_STR_CONTAINS(out, "experiment.windowed, the windowed rules: 1 "
                            "partition (1 MPI rank");
    const char *argv[] = { "run", cfg, "-o", dir[2], "--force", NULL };
    CHECK_EQ_U(run_dfsim_mpi(2, argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "experiment.windowed, the windowed rules: 2 "
                            "partitions (2 MPI ranks");
    CHECK(crossed(" MPI envelopes crossed") > 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    char *runs = dir_read(dir[1], "runs.csv");
    CHECK(runs && strstr(runs, ",1\n")); /* windowed */
    free(runs);
    /* --partitions 0: the one-process rules all the same */
    CHECK_EQ_U(run_in(cfg, dir[2], "0"), 0);
    CHECK(!strstr(out, "experiment.windowed"));
    CHECK(!strstr(err, "windows of"));
    runs = dir_read(dir[2], "runs.csv");
    CHECK(runs && strstr(runs, ",0\n"));
    free(runs);
    rm_dirs(dir, 3);
}

/* Example `name` --quick split: the same files for P = 1 and 3 in one
 * process and over two MPI ranks (an impact study: every rank runs every
 * simulation, the merged results on each). */
static void impact_split(const char *name)
{
    char path[512];
    example(path, sizeof path, name);
    char dir[3][64];
    temp_dirs(dir, 3, "jw");
    const char *a1[] = { "run", path, "--quick", "-o", dir[0], "--force",
                         "--partitions", "1", NULL };
    const char *a3[] = { "run", path, "--quick", "-o", dir[1], "--force",
                         "--partitions", "3", NULL };
    const char *a2[] = { "run", path, "--quick", "-o", dir[2], "--force",
                         "--partitions", "2", NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    int rc = run_dfsim_mpi(2, a2, out, sizeof out, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  mpirun -np 2: %d\n%s\n", rc, err);
    CHECK_EQ_U(rc, 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    rm_dirs(dir, 3);
}

/* SC'20 Fig. 9 on Malbec: GPCNeT's release (M9b), Slingshot's
 * congestion control */
static void test_impact_split(void)
{
    impact_split("sc20-impact-malbec.cfg");
}

/* ICS'21 Fig. 4a on Cori: the latency model's observer reads the whole
 * machine's counters at its instants (net/xview.h) */
static void test_observer_split(void)
{
    impact_split("ics21-fig4a-cori.cfg");
}

/* The counters of a split run (LDMS samples of every NIC and router,
 * the per-job links report: inventory S1, J1) read a view of the whole
 * machine at their instants: the same files for every P, a chained job's
 * links included; and a Gemini torus's job run (CUG'13 Fig. 6, --quick)
 * with its links report, in one process and over two MPI ranks. */
static const char counters_text[] =
    "sampling = { nic = true; rtr = true; interval_us = 2.0;\n"
    "  links = true; };\n"
    "jobs = (\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 2048; iterations = 3; },\n"
    "  { name = \"next\"; workload = \"allreduce\"; nodes = 8;\n"
    "    allocation = \"same\"; after = \"a2a\"; iterations = 2; },\n"
    "  { name = \"bg\"; workload = \"gpcnet-rma-incast\"; nodes = 8;\n"
    "    allocation = \"random\"; bytes = 4096; background = true; }\n"
    ");\n";

static void test_counters_split(void)
{
    same_for_every_p(config("jw-ctr", counters_text), NULL);
    impact_split("cug-fig6.cfg");
}

/* A system of one group cannot be cut between groups. */
static void test_jobs_refusals(void)
{
    char path[512];
    example(path, sizeof path, "ics21-fig7.cfg");
    CHECK(run_in(path, "/tmp/dfsim-jw-never", "2") != 0);
    CHECK_STR_CONTAINS(err, "at most 1");
    /* runs.csv says which rules a run followed, and a resume under the
     * other ones is refused (experiment.settings): the files would mix
     * two models */
    const char *cfg = config("jw-rules.cfg", chain_text);
    char dir[64] = "/tmp/dfsim-jw-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    for (int windowed = 0; windowed < 2; windowed++) {
        CHECK_EQ_U(run_in(cfg, dir, windowed ? "2" : NULL), 0);
        char *runs = dir_read(dir, "runs.csv");
        CHECK(runs && strstr(runs, windowed ? ",1\n" : ",0\n") &&
              !strstr(runs, windowed ? ",0\n" : ",1\n"));
        free(runs);
        const char *argv[] = { "run", cfg, "-o", dir, "--resume",
                               windowed ? NULL : "--partitions", "1",
                               NULL };
        CHECK(run_dfsim(argv, out, sizeof out, err, sizeof err) != 0);
        CHECK_STR_CONTAINS(err, "dfsim.windowed");
    }
}

const struct test_case tests_jobs_win[] = {
    TEST(test_jobs_same_for_every_p),
    TEST(test_chain_same_for_every_p),
    TEST(test_split_by_ranks_placed),
    TEST(test_both_orders_split),
    TEST(test_jobs_mpirun),
    TEST(test_partitions_auto),
    TEST(test_windowed_key),
    TEST(test_netscope_split),
    TEST(test_impact_split),
    TEST(test_observer_split),
    TEST(test_counters_split),
    TEST(test_jobs_refusals),
    { 0 },
};
