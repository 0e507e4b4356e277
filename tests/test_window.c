/* tests/test_window.c — one traffic run in windows over P partitions
 * (exp/traffic_win.c, net/xpart.c, exp/xchange.c; issue 54).
 *
 * The property: a windowed run's results are the same, field for field,
 * for every number of partitions — in one process and over MPI ranks —
 * while packets and credit returns really cross between partitions
 * (counted). The windowed rules differ from the classic run's only where
 * docs/parallel-inventory.md says (ties, saturation, the stop), so its
 * figures stay close to the classic run's below saturation. Refusals
 * (a torus, more partitions than groups, sampling, bad --partitions)
 * are checked on their messages. */
#include "test.h"
#include "mpi_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl/cc.h"
#include "exp/traffic.h"
#include "net/partition.h"
#include "route/route.h"
#include "topo/topo.h"

static struct traffic_params params(enum traffic_pattern pat, double load,
                                    uint32_t parts)
{
    struct traffic_params p;
    traffic_defaults(&p);
    p.pattern = pat;
    p.load = load;
    p.warmup_us = 1;
    p.measure_us = 2;
    p.drain_us = 10;
    p.partitions = parts;
    p.procs = 1;
    return p;
}

/* A run of routing on t; its status (errors to c, if given). */
static int run(const struct topo *t, const char *routing,
               const struct traffic_params *tp, struct traffic_result *r,
               struct capture *c)
{
    struct net_params np;
    cc_net_defaults(&np, t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       routing);
    CHECK(np.routing != NULL);
    struct diag d;
    diag_init(&d);
    return traffic_run(t, &np, tp, 7, EVQ_DEFAULT, r, c ? &c->d : &d);
}

/* a and b equal but for what says how they ran (and the memory the
 * process's network holds, its packet pool grown with its partition's
 * traffic) */
static bool same_result(struct traffic_result a, struct traffic_result b)
{
    a.net_bytes = b.net_bytes = 0;
    a.partitions = b.partitions = 0;
    a.xwindows = b.xwindows = a.xpackets = b.xpackets = 0;
    a.xcredits = b.xcredits = a.xbytes = b.xbytes = 0;
    a.xcompute_max_s = b.xcompute_max_s = 0;
    a.xcompute_mean_s = b.xcompute_mean_s = a.xexchange_s = b.xexchange_s = 0;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Every P gives P = 1's result, packets crossing when P > 1. */
static void same_for_every_p(const struct topo *t, const char *routing,
                             struct traffic_params tp)
{
    static const uint32_t Ps[] = { 1, 2, 3, 4, 7 };
    struct traffic_result ref, r;
    tp.partitions = 1;
    if (run(t, routing, &tp, &ref, NULL) != 0) {
        CHECK(0);
        return;
    }
    CHECK(ref.packets > 0);
    CHECK_EQ_U(ref.xpackets, 0);    /* one partition: nothing crosses */
    CHECK(ref.xcredits > 0);        /* but returns wait for the windows */
    for (size_t i = 1; i < sizeof Ps / sizeof *Ps; i++) {
        if (Ps[i] > partition_max(t))
            break;
        tp.partitions = Ps[i];
        CHECK_EQ_U(run(t, routing, &tp, &r, NULL), 0);
        CHECK(r.xpackets > 0);
        CHECK_EQ_U(r.xwindows, ref.xwindows);
        CHECK(same_result(ref, r));
        if (!same_result(ref, r))
            fprintf(stderr, "  %s P=%u: accepted %.6f/%.6f hash %llx/%llx "
                    "events %llu/%llu\n", routing, Ps[i], r.accepted,
                    ref.accepted, (unsigned long long)r.hash,
                    (unsigned long long)ref.hash,
                    (unsigned long long)r.events,
                    (unsigned long long)ref.events);
    }
}

static void test_same_for_every_p(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 9) != 0) /* 9 groups, 72 nodes */
        return;
    same_for_every_p(&t, "UGAL", params(TRAFFIC_UNIFORM, 0.4, 1));
    same_for_every_p(&t, "minimal", params(TRAFFIC_UNIFORM, 0.7, 1));
    /* saturated, refusing: the source queues' rule at work */
    struct traffic_params wc = params(TRAFFIC_WORST_CASE, 0.6, 1);
    wc.max_queued = 4;
    same_for_every_p(&t, "minimal", wc);
    same_for_every_p(&t, "valiant", params(TRAFFIC_WORST_CASE, 0.3, 1));
    topo_free(&t);
}

/* Slingshot with its congestion control (the family's default: per-pair
 * windows at the source, marks carried back by the responses) splits as
 * it is; so does Netscope, whose tick acts on each NIC alone, taken at
 * its exact times (the same result for P = 1 and 3 over two of its
 * ticks); so does Cray's supervisor, one decision for the machine from
 * a count summed over the partitions. */
static void test_slingshot_cc(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    if (topo_build_system(&t, "malbec", &d) != 0) {
        CHECK(0);
        return;
    }
    struct traffic_params tp = params(TRAFFIC_UNIFORM, 0.8, 1);
    tp.measure_us = 1;
    same_for_every_p(&t, "SS_ADAPTIVE", tp);
    struct net_params np;
    cc_net_defaults(&np, &t);
    CHECK(np.n_cc == 1 && np.cc[0] == &cc_slingshot);
    char err[128];
    const struct nic_ctl *ns = &cc_netscope;
    CHECK(cc_set(&np, &t, &ns, 1, err, sizeof err) == 0);
    struct traffic_result ref, r;
    tp.measure_us = 45; /* past two ticks of 20 us */
    tp.partitions = 1;
    CHECK_EQ_U(traffic_run(&t, &np, &tp, 7, EVQ_DEFAULT, &ref, &d), 0);
    tp.partitions = 3;
    CHECK_EQ_U(traffic_run(&t, &np, &tp, 7, EVQ_DEFAULT, &r, &d), 0);
    CHECK(r.xpackets > 0);
    CHECK(same_result(ref, r));
    /* Cray's supervisor: its congested NICs counted per partition and
     * summed at its tick (C2); the same result over a tick of 50 us */
    const struct nic_ctl *cray = &cc_cray;
    CHECK(cc_set(&np, &t, &cray, 1, err, sizeof err) == 0);
    tp.measure_us = 55;
    tp.partitions = 1;
    CHECK_EQ_U(traffic_run(&t, &np, &tp, 7, EVQ_DEFAULT, &ref, &d), 0);
    tp.partitions = 3;
    CHECK_EQ_U(traffic_run(&t, &np, &tp, 7, EVQ_DEFAULT, &r, &d), 0);
    CHECK(r.xpackets > 0);
    CHECK(same_result(ref, r));
    topo_free(&t);
}

/* Below saturation the windowed rules change ties and the stop, not the
 * figures: the same generations, deliveries within a few packets,
 * latency within 1 %. */
static void test_close_to_classic(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 9) != 0)
        return;
    struct traffic_params tp = params(TRAFFIC_UNIFORM, 0.4, 0);
    struct traffic_result classic, win;
    CHECK_EQ_U(run(&t, "UGAL", &tp, &classic, NULL), 0);
    tp.partitions = 1;
    CHECK_EQ_U(run(&t, "UGAL", &tp, &win, NULL), 0);
    CHECK_EQ_U(win.generated, classic.generated);
    CHECK(win.drained && classic.drained);
    CHECK_NEAR(win.accepted, classic.accepted, 0.01 * classic.accepted);
    CHECK_NEAR(win.lat_mean_ns, classic.lat_mean_ns,
               0.01 * classic.lat_mean_ns);
    CHECK_EQ_U(classic.partitions, 0);
    CHECK_EQ_U(win.partitions, 1);
    topo_free(&t);
}

static void test_refusals(void)
{
    struct topo t;
    struct traffic_result r;
    struct capture c;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 3) != 0)
        return;
    struct traffic_params tp = params(TRAFFIC_UNIFORM, 0.3, 4);
    cap_init(&c);
    CHECK(run(&t, "UGAL", &tp, &r, &c) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "at most 3");
    cap_free(&c);
    topo_free(&t);
}

/* A torus is cut into slabs across one dimension, the same for every P
 * (its best two-part cut's): the credit returns over that dimension's
 * links wait for the windows' end. */
static void test_torus(void)
{
    struct topo t;
    if (mpi_h_torus(&t, 8, 2, 2) != 0)
        return;
    same_for_every_p(&t, "DOR", params(TRAFFIC_UNIFORM, 0.4, 1));
    same_for_every_p(&t, "DOR", params(TRAFFIC_BIT_COMPLEMENT, 0.6, 1));
    topo_free(&t);
}

static const char cfg_text[] =
    "experiment = { name = \"window\"; seed = 3; };\n"
    "system = { name = \"df1056\"; };\n"
    "probe = { pairs = 1; };\n"
    "traffic = { pattern = \"uniform\"; loads = [0.3, 0.8];\n"
    "  routings = [\"UGAL\"]; warmup_us = 0.5; measure_us = 1.0;\n"
    "  drain_us = 10.0; };\n";

static char out[1 << 16], err[1 << 16];

/* `dfsim run` with --partitions P, alone (np 0) or under mpirun -np np;
 * its exit status */
static int run_cli(const char *cfg, const char *dir, const char *P, int np)
{
    const char *argv[] = { "run", cfg, "-o", dir, "--force",
                           "--partitions", P, NULL };
    if (np == 0)
        return run_dfsim(argv, out, sizeof out, err, sizeof err);
    int rc = run_dfsim_mpi(np, argv, out, sizeof out, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  mpirun -np %d: %d\n%s\n%s\n", np, rc, out, err);
    return rc;
}

/* Four ranks in two groups of two: the sweep's two points at once, each
 * split over its group; two ranks alone (--partitions 1): the points
 * dealt, each in windows in one process. The files are the one
 * process's. */
static void test_mpirun_groups(void)
{
    const char *cfg = write_temp("window-groups.cfg", cfg_text);
    char dir[3][64];
    temp_dirs(dir, 3, "win");
    CHECK_EQ_U(run_cli(cfg, dir[0], "1", 0), 0);
    CHECK_EQ_U(run_cli(cfg, dir[1], "2", 4), 0);
    CHECK_STR_CONTAINS(out, "one per MPI rank, 2 runs at once");
    CHECK_EQ_U(run_cli(cfg, dir[2], "1", 2), 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    rm_dirs(dir, 3);
}

/* Counter sampling (both samplers) and the links report in a split
 * traffic run (S1, T9): every file the same for P = 1, 3 and over two
 * MPI ranks, samples and links report included, and there are samples. */
static const char sampled_text[] =
    "experiment = { name = \"window-sampled\"; seed = 3; };\n"
    "system = { topology = \"dragonfly\"; p = 2; a = 4; h = 2; g = 9; };\n"
    "probe = { pairs = 1; };\n"
    "traffic = { pattern = \"uniform\"; loads = [0.4];\n"
    "  routings = [\"UGAL\"]; warmup_us = 1.0; measure_us = 2.0;\n"
    "  drain_us = 10.0; };\n"
    "sampling = { interval_us = 0.5; nic = true; rtr = true;\n"
    "  links = true; };\n";

static void test_sampling_split(void)
{
    const char *cfg = write_temp("window-sampled.cfg", sampled_text);
    char dir[3][64];
    temp_dirs(dir, 3, "win");
    CHECK_EQ_U(run_cli(cfg, dir[0], "1", 0), 0);
    CHECK_EQ_U(run_cli(cfg, dir[1], "3", 0), 0);
    CHECK_EQ_U(run_cli(cfg, dir[2], "2", 2), 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    char path[128];
    static const char *const files[] = { "nic_samples.csv",
                                         "rtr_samples.csv", "links.txt" };
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        snprintf(path, sizeof path, "%s/%s", dir[1], files[f]);
        FILE *fp = fopen(path, "r");
        CHECK(fp != NULL);
        if (!fp)
            continue;
        int lines = 0, ch;
        while ((ch = fgetc(fp)) != EOF)
            lines += ch == '\n';
        fclose(fp);
        CHECK(lines > 10); /* a header and rows */
    }
    rm_dirs(dir, 3);
}

/* Aries' occupancy load (aries_load "occupancy", inventory N3): a
 * router reads the input occupancy the next router published a link
 * latency ago, across the cut from a replica of the far end's ring
 * written at the windows' ends. Every file the same for P = 1, 3 and
 * over two MPI ranks, and not those of the credit load (the mode is at
 * work); with publish_cycles 0 (the occupancy as it is now, N4) a split
 * is refused. */
static const char occupancy_text[] =
    "experiment = { name = \"window-occupancy\"; seed = 3; };\n"
    "system = { topology = \"aries\"; groups = 3; chassis_last = 2;\n"
    "  cables_per_pair = 4; };\n"
    "network = { aries_load = \"%s\"; publish_cycles = %d; };\n"
    "traffic = { pattern = \"uniform\"; loads = [0.3];\n"
    "  routings = [\"ADAPTIVE_0\"]; warmup_us = 0.5; measure_us = 1.0;\n"
    "  drain_us = 2.0; };\n";

static void test_occupancy_split(void)
{
    char text[1024];
    snprintf(text, sizeof text, occupancy_text, "occupancy", 10);
    const char *cfg = write_temp("window-occ.cfg", text);
    snprintf(text, sizeof text, occupancy_text, "credit", 10);
    const char *credit = write_temp("window-occ-credit.cfg", text);
    snprintf(text, sizeof text, occupancy_text, "occupancy", 0);
    const char *now = write_temp("window-occ-now.cfg", text);
    char dir[4][64];
    temp_dirs(dir, 4, "win");
    CHECK_EQ_U(run_cli(cfg, dir[0], "1", 0), 0);
    CHECK_EQ_U(run_cli(cfg, dir[1], "3", 0), 0);
    CHECK(!strstr(out, " 0 packets crossed"));
    CHECK_EQ_U(run_cli(cfg, dir[2], "2", 2), 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    CHECK_EQ_U(run_cli(credit, dir[3], "1", 0), 0);
    char *a = dir_read(dir[0], "traffic.csv"), *b = dir_read(dir[3],
                                                             "traffic.csv");
    CHECK(a && b && strcmp(a, b) != 0);
    free(a);
    free(b);
    CHECK(run_cli(now, dir[3], "2", 0) != 0);
    CHECK_STR_CONTAINS(err, "publish_cycles 0");
    rm_dirs(dir, 4);
    unlink(cfg);
    unlink(credit);
    unlink(now);
}

static void test_mpirun_same_file(void)
{
    const char *cfg = write_temp("window.cfg", cfg_text);
    char dir[3][64];
    temp_dirs(dir, 3, "win");
    CHECK_EQ_U(run_cli(cfg, dir[0], "1", 0), 0);
    CHECK_EQ_U(run_cli(cfg, dir[1], "2", 2), 0);
    CHECK_EQ_U(run_cli(cfg, dir[2], "3", 3), 0);
    CHECK_EQ_U(same_files(dir[0], dir[1]), 0);
    CHECK_EQ_U(same_files(dir[0], dir[2]), 0);
    /* a split run wants one partition per rank: the ranks in groups of
     * P, each running its runs */
    CHECK(run_cli(cfg, dir[2], "3", 2) != 0);
    CHECK_STR_CONTAINS(err, "2 MPI ranks cannot be grouped 3 to a run");
    rm_dirs(dir, 3);
}

/* A windowed run's folder is resumed windowed, with any P, and refused
 * to a classic run (their rules differ: the settings say so). */
static void test_resume_windowed(void)
{
    const char *cfg = write_temp("window-resume.cfg", cfg_text);
    char dir[64] = "/tmp/dfsim-win-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_U(run_cli(cfg, dir, "1", 0), 0);
    const char *classic[] = { "run", cfg, "-o", dir, "--resume", NULL };
    CHECK(run_dfsim(classic, out, sizeof out, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "dfsim.windowed");
    const char *split[] = { "run", cfg, "-o", dir, "--resume",
                            "--partitions", "3", NULL };
    CHECK_EQ_U(run_dfsim(split, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "all 2 traffic runs were done");
    rm_dir(dir);
}

static void test_cli_bad_partitions(void)
{
    const char *cfg = write_temp("window-bad.cfg", cfg_text);
    CHECK_EQ_U(run_cli(cfg, "/tmp/dfsim-win-never", "65537", 0), 2);
    CHECK_STR_CONTAINS(err, "--partitions expects a number of partitions");
    CHECK_EQ_U(run_cli(cfg, "/tmp/dfsim-win-never", "x", 0), 2);
}

const struct test_case tests_window[] = {
    TEST(test_same_for_every_p),
    TEST(test_sampling_split),
    TEST(test_slingshot_cc),
    TEST(test_occupancy_split),
    TEST(test_close_to_classic),
    TEST(test_refusals),
    TEST(test_torus),
    TEST(test_mpirun_same_file),
    TEST(test_mpirun_groups),
    TEST(test_resume_windowed),
    TEST(test_cli_bad_partitions),
    { 0 },
};
