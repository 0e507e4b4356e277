/* tests/test_robust.c — results a user can trust (issue 18): a results
 * folder belongs to one experiment (resume and reuse are refused for
 * another), files are written whole, values that would give results that
 * look measured but are not are refused, and inputs the checker accepts do
 * not crash the run. Each test here failed before its fix. */
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "core/sim.h"
#include "core/config.h"
#include "exp/fingerprint.h"
#include "exp/traffic.h"
#include "mpi_util.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/topo.h"

static char out[1 << 17], err[1 << 17];

/* A small jobs experiment (two ping-pong runs on xc-12cab, ~0.2 s). */
static const char *jobs_cfg(const char *name, int runs, int bytes)
{
    char text[512];
    snprintf(text, sizeof text,
             "experiment = { seed = 5; runs = %d; };\n"
             "system = { name = \"xc-12cab\"; };\n"
             "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
             "  bytes = %d; nodes = 2; iterations = 4; } );\n",
             runs, bytes);
    return write_temp(name, text);
}

/* The fingerprint ignores layout, comments, key order inside a group, 1
 * versus 1.0 and the L suffix; it sees a changed value, a reordered list,
 * an added key, and the seed the run uses. */
static void test_fingerprint_normalised(void)
{
    struct capture c;
    cap_init(&c);
    struct cfg_file *a = cfg_open_string(
        "a.cfg",
        "experiment = { seed = 3; runs = 2; };\n"
        "system = { name = \"xc-12cab\"; };  # a comment\n"
        "traffic = { loads = [0.5, 1.0]; warmup_us = 2L; };\n",
        &c.d);
    struct cfg_file *b = cfg_open_string(
        "b.cfg",
        "// another layout\nsystem={name=\"xc-12cab\";};\n"
        "traffic = { warmup_us = 2; loads = (0.5, 1); };\n"
        "experiment = { runs = 2; seed = 3; };\n",
        &c.d);
    struct cfg_file *l = cfg_open_string(
        "l.cfg",
        "experiment = { seed = 3; runs = 2; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "traffic = { loads = [1.0, 0.5]; warmup_us = 2L; };\n",
        &c.d);
    CHECK(a && b && l);
    if (a && b && l) {
        char *fa = fingerprint_text(a, 3, false, false),
             *fb = fingerprint_text(b, 3, false, false);
        char *fl = fingerprint_text(l, 3, false, false),
             *f9 = fingerprint_text(a, 9, false, false);
        CHECK(fa && fb && fl && f9);
        if (fa && fb && fl && f9) {
            CHECK(strcmp(fa, fb) == 0);
            CHECK_EQ_U(fingerprint_diff(fa, fb, "b.cfg", NULL, 0), 0);
            CHECK_EQ_U(fingerprint_diff(fa, fl, "l.cfg", NULL, 0), 2);
            CHECK_STR_CONTAINS(fa, "\nexperiment.seed = 3\n");
            CHECK_STR_CONTAINS(fa, "\ntraffic.loads[1] = 1\n");
            CHECK_EQ_U(fingerprint_diff(fa, f9, "a.cfg", NULL, 0), 1);
        }
        free(fa);
        free(fb);
        free(fl);
        free(f9);
    }
    if (a)
        cfg_close(a);
    if (b)
        cfg_close(b);
    if (l)
        cfg_close(l);
    cap_free(&c);
}

/* --resume with another experiment file is refused, naming the setting
 * that differs, and leaves the folder alone; cutting runs from 2 to 1 on a
 * finished folder does not claim "runs 1-2 of 1 were done". The same
 * file resumes. */
static void test_resume_other_experiment(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *two = jobs_cfg("resume2.cfg", 2, 4096);
    const char *argv[] = { "run", two, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *runs = dir_read(dir, "runs.csv");
    CHECK(runs != NULL);

    const char *one = jobs_cfg("resume1.cfg", 1, 4096);
    const char *a1[] = { "run", one, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "experiment file differs from the one");
    CHECK_STR_CONTAINS(err, "experiment.runs: 1 in ");
    CHECK_STR_CONTAINS(err, ", 2 when the folder was started");
    CHECK(!strstr(out, "of 1 were done"));

    const char *big = jobs_cfg("resume3.cfg", 2, 8192);
    const char *a2[] = { "run", big, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "jobs[0].bytes: 8192 in ");
    char *runs2 = dir_read(dir, "runs.csv");
    CHECK(runs && runs2 && strcmp(runs, runs2) == 0); /* untouched */

    const char *a3[] = { "run", two, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: all 2 runs were done");
    free(runs);
    free(runs2);
    unlink(two);
    unlink(one);
    unlink(big);
    rm_dir(dir);
}

/* A folder holding another experiment's results, or files dfsim did not
 * record, is refused without --force; so it is with --force when it
 * lists no files dfsim wrote there (experiment.files): names do not tell
 * dfsim's files from a user's, and nothing is removed (tests/test_outdir.c
 * has what --force removes). Running the same experiment again into its
 * folder is allowed. A folder that records no experiment cannot be
 * resumed. */
static void test_reused_folder(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = jobs_cfg("reuse.cfg", 1, 4096);
    dir_write(dir, "traffic.csv", "routing,pattern\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "is not empty (traffic.csv) and records no "
                            "experiment");
    CHECK_STR_CONTAINS(err, "choose another folder with -o");
    CHECK(!dir_has(dir, "jobs.csv"));
    const char *res[] = { "run", cfg, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(res, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "records no experiment");

    dir_write(dir, "nic_samples_min_0.5000.csv", "#Time\n");
    dir_write(dir, "notes.md", "mine\n");
    const char *force[] = { "run", cfg, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(force, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "has no experiment.files");
    CHECK(dir_has(dir, "traffic.csv"));
    CHECK(dir_has(dir, "nic_samples_min_0.5000.csv"));
    CHECK(dir_has(dir, "notes.md"));
    CHECK(!dir_has(dir, "jobs.csv") && !dir_has(dir, FINGERPRINT_FILE));
    rm_dir(dir);
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);

    /* the same experiment again: allowed, same results */
    char *jobs = dir_read(dir, "jobs.csv");
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *jobs2 = dir_read(dir, "jobs.csv");
    CHECK(jobs && jobs2 && strcmp(jobs, jobs2) == 0);
    free(jobs);
    free(jobs2);

    /* the experiment file kept in an otherwise empty folder is no
     * other experiment's */
    char dir2[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir2) != NULL);
    char *text = read_text(cfg);
    CHECK(text != NULL);
    if (text)
        dir_write(dir2, "exp.txt", text);
    free(text);
    char inside[128];
    snprintf(inside, sizeof inside, "%s/exp.txt", dir2);
    const char *a3[] = { "run", inside, "-o", dir2, NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK(dir_has(dir2, "exp.txt") && dir_has(dir2, "jobs.csv"));
    rm_dir(dir2);

    /* another experiment: refused, naming what differs */
    const char *other = jobs_cfg("reuse2.cfg", 1, 64);
    const char *a2[] = { "run", other, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "holds the results of another experiment");
    CHECK_STR_CONTAINS(err, "jobs[0].bytes: 64 in ");
    unlink(cfg);
    unlink(other);
    rm_dir(dir);
}

/* A dragonfly the checker accepts with routers of more than 64 ports
 * (a = 64, h = 64, g = 2: 63 local and 64 global links, up to 127 minimal
 * next hops toward the other group) runs the probe; it used to overflow
 * the probe's 64 candidate slots and abort. */
static void test_probe_wide_routers(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "wide.cfg", "system = { topology = \"dragonfly\"; p = 1; a = 64; "
                    "h = 64; g = 2; };\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "zero-load probe");
    char *probe = dir_read(dir, "probe.csv");
    /* 4 pairs at each of 1 and 2 hops (the diameter) */
    CHECK(probe && strstr(probe, "\n7,2,") != NULL);
    free(probe);
    unlink(cfg);
    rm_dir(dir);
}

/* A seed near INT64_MAX: the runs' seeds (seed + r) pass INT64_MAX, as
 * unsigned 64-bit numbers, and --resume checks them without a signed
 * overflow (UBSan aborted; the plain build refused the folder, printing a
 * negative seed). */
static void test_resume_seed_near_max(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = jobs_cfg("maxseed.cfg", 3, 64);
    const char *argv[] = { "run", cfg, "-o", dir, "--seed",
                           "9223372036854775806", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *runs = dir_read(dir, "runs.csv");
    CHECK_STR_CONTAINS(runs, "\n2,9223372036854775808,");
    free(runs);
    const char *res[] = { "run", cfg, "-o", dir, "--seed",
                          "9223372036854775806", "--resume", NULL };
    CHECK_EQ_U(run_dfsim(res, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: all 3 runs were done");
    CHECK(!strstr(err, "was made with seed"));
    unlink(cfg);
    rm_dir(dir);
}

/* Run a file that must be refused: exit 1, nothing written into the
 * folder the run would have used. */
static void refused(const char *text, const char *message)
{
    const char *cfg = write_temp("bad.cfg", text);
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, message);
    CHECK(!dir_has(dir, "probe.csv"));
    unlink(cfg);
    rm_dir(dir);
}

/* Errors found before the work (issue 18, item 9): a controller the
 * system cannot serve, a placement that cannot be made, the model's
 * counters on NICs without them — each an error at the job's line before
 * the probe and before a traffic sweep, with no "jobs ran in" after it.
 * They used to appear at run time, after the probe and the sweep, without
 * a line for the controllers. */
static void test_errors_before_work(void)
{
    static const char pp[] = "jobs = ( { name = \"pp\"; workload = "
                             "\"pingpong\";\n  nodes = 2; iterations = 4;";
    static const char sweep[] =
        "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
        "  warmup_us = 1.0; measure_us = 1.0; };\n";
    char text[4096];
    /* app-aware sets the Aries modes, which route dragonflies: not on a
     * torus */
    snprintf(text, sizeof text,
             "system = { name = \"cielo\"; };\n%s%s\n"
             "  routing = \"app-aware\"; } );\n", sweep, pp);
    refused(text, "bad.cfg:4: error: job \"pp\": routing controller "
                  "\"app-aware\" sets ADAPTIVE_0, which a torus system "
                  "cannot use");
    CHECK(!strstr(out, "synthetic traffic") && !strstr(out, "zero-load"));
    CHECK(!strstr(err, "jobs ran in"));
    /* as a variant, and a static one on a torus */
    snprintf(text, sizeof text,
             "system = { name = \"cielo\"; };\n%s\n"
             "  variants = [\"default\", \"app-aware\"]; } );\n", pp);
    refused(text, "bad.cfg:2: error: job \"pp\": routing controller "
                  "\"app-aware\"");
    snprintf(text, sizeof text,
             "system = { name = \"cielo\"; };\n%s\n"
             "  routing = \"high-bias\"; } );\n", pp);
    refused(text, "bad.cfg:2: error: job \"pp\": routing controller "
                  "\"high-bias\" sets ADAPTIVE_3, which a torus system "
                  "cannot use");
    /* the model's counters: Gemini's NICs keep no latency sums */
    snprintf(text, sizeof text,
             "system = { name = \"cielo\"; };\n%s model = true; } );\n",
             pp);
    refused(text, "bad.cfg:2: error: pp: the model reads a NIC counter of "
                  "request to response latency");
    /* placements: too many nodes, after a sweep that used to run first;
     * a distance the system lacks */
    snprintf(text, sizeof text,
             "system = { name = \"xc-12cab\"; };\n%s"
             "jobs = ( { name = \"big\"; workload = \"pingpong\";\n"
             "  nodes = 20000; iterations = 4; } );\n", sweep);
    refused(text, "bad.cfg:4: error: job \"big\": linear allocation asks "
                  "for 20000 nodes, only 2304 of the 2304 nodes are free");
    CHECK(!strstr(out, "synthetic traffic"));
    CHECK(!strstr(err, "jobs ran in"));
    snprintf(text, sizeof text,
             "system = { name = \"malbec\"; };\n%s\n"
             "  allocation = \"pair\"; distance = \"same-chassis\"; } );\n",
             pp);
    refused(text, "bad.cfg:2: error: job \"pp\": pair at distance "
                  "same-chassis: a slingshot system has no chassis level");
    /* an impact study's victim */
    refused("system = { name = \"cielo\"; };\n"
            "impact = { shares = [0.5];\n"
            "  victims = ( { name = \"v\"; workload = \"pingpong\";\n"
            "    iterations = 4; routing = \"app-aware\"; } );\n"
            "  aggressors = ( { name = \"a\"; workload = \"incast\"; } ); "
            "};\n",
            "bad.cfg:3: error: job \"v\": routing controller \"app-aware\"");
    CHECK(!strstr(err, "impact 1/"));
}

/* SIGTERM during a jobs experiment (6 runs): dfsim stops the run under
 * way, writes nothing of it, closes the files with the runs it finished,
 * says how to go on and exits 143; --resume then gives files
 * byte-identical to an uninterrupted run's. (It used to die at once,
 * exit by the signal, and say nothing.) */
static void test_sigterm_resume(void)
{
    char whole[64] = "/tmp/dfsim-robust-XXXXXX";
    char cut[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(whole) != NULL && mkdtemp(cut) != NULL);
    const char *cfg = write_temp(
        "sigterm.cfg",
        "experiment = { seed = 5; runs = 6; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = ( { name = \"pp\"; workload = \"pingpong\"; bytes = 65536;"
        "\n  nodes = 2; iterations = 200; } );\n");
    const char *a1[] = { "run", cfg, "-o", whole, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);

    /* killed after its first run is recorded (runs.csv: header + 1) */
    char runs[128];
    snprintf(runs, sizeof runs, "%s/runs.csv", cut);
    const char *a2[] = { "run", cfg, "-o", cut, NULL };
    CHECK_EQ_U(interrupt_dfsim(a2, runs, 2, SIGTERM, err, sizeof err), 143);
    CHECK_STR_CONTAINS(err, "dfsim run: interrupted (SIGTERM); the results "
                            "finished so far are in ");
    char again[512];
    snprintf(again, sizeof again, "to go on from there: dfsim run %s -o %s "
                                  "--resume\n", cfg, cut);
    CHECK_STR_CONTAINS(err, again);
    CHECK(!dir_has(cut, "report.html")); /* made when the runs are done */
    char *r = dir_read(cut, "runs.csv");
    size_t len = r ? strlen(r) : 0;
    CHECK(len > 0 && r[len - 1] == '\n'); /* whole lines */
    CHECK(r && !strstr(r, "\n5,")); /* not all six */
    free(r);

    const char *a3[] = { "run", cfg, "-o", cut, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: runs 1-");
    CHECK_EQ_U(same_files(whole, cut), 0);
    unlink(cfg);
    rm_dir(whole);
    rm_dir(cut);
}

/* SIGINT during a traffic sweep (2 routings x 3 loads, with sampling):
 * exit 130, traffic.csv holds whole rows of the points finished; --resume
 * goes on after them (it used to start again at traffic 1/N) and the
 * folder ends byte-identical to an uninterrupted sweep's, the console
 * table giving every point. */
static void test_sigint_traffic_resume(void)
{
    char whole[64] = "/tmp/dfsim-robust-XXXXXX";
    char cut[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(whole) != NULL && mkdtemp(cut) != NULL);
    const char *cfg = write_temp(
        "sigint.cfg",
        "experiment = { seed = 3; };\n"
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1, 0.2, 0.3];\n"
        "  routings = [\"minimal\", \"UGAL\"];\n"
        "  warmup_us = 1.0; measure_us = 2.0; };\n"
        "sampling = { interval_us = 1.0; nic = true; };\n");
    const char *a1[] = { "run", cfg, "-o", whole, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    char *table = strstr(out, "\nsynthetic traffic:");
    table = table ? strdup(table) : NULL;
    CHECK(table != NULL);
    char *tail = table ? strstr(table, "\nreport: ") : NULL;
    CHECK(tail != NULL); /* the sweep's report (traffic_report.h) */
    if (tail)
        *tail = '\0'; /* the folder differs from there on */

    /* interrupted once two points are written (header + 2 rows) */
    char csv[128];
    snprintf(csv, sizeof csv, "%s/traffic.csv", cut);
    const char *a2[] = { "run", cfg, "-o", cut, NULL };
    CHECK_EQ_U(interrupt_dfsim(a2, csv, 3, SIGINT, err, sizeof err), 130);
    CHECK_STR_CONTAINS(err, "dfsim run: interrupted (SIGINT)");
    CHECK_STR_CONTAINS(err, "--resume\n");
    char *c = dir_read(cut, "traffic.csv");
    size_t len = c ? strlen(c) : 0;
    CHECK(len > 0 && c[len - 1] == '\n');
    CHECK(c && !strstr(c, "UGAL,uniform,0.3000,")); /* not the last */
    free(c);

    const char *a3[] = { "run", cfg, "-o", cut, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: traffic runs 1-");
    CHECK(!strstr(err, "traffic 1/6"));
    CHECK_STR_CONTAINS(err, "traffic 6/6");
    CHECK_EQ_U(same_files(whole, cut), 0);
    if (table)
        CHECK_STR_CONTAINS(out, table); /* every point, as measured */
    free(table);
    unlink(cfg);
    rm_dir(whole);
    rm_dir(cut);
}

/* The memory estimate is the allocation: for built-in systems of every
 * family, under their defaults, with counters and two traffic classes,
 * and with another router kind, net_estimate_bytes (from the counts
 * alone) is within 2 % of what net_bytes measures of the network
 * net_init built (measured: under 1 %, exact on all but Aries), and
 * topo_estimate_bytes within 10 % (plus the arena's last chunk) of what
 * the topology's arena reserved. */
static void test_memory_estimate(void)
{
    static const char *const systems[] = { "xc-12cab", "malbec", "shandy",
                                           "df1056", "cielo", "voltrino" };
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) {
        struct capture c;
        cap_init(&c);
        struct topo t;
        CHECK_EQ_U(topo_build_system(&t, systems[i], &c.d), 0);
        for (int variant = 0; variant < 3; variant++) {
            struct net_params p;
            cc_net_defaults(&p, &t);
            if (variant == 1) {
                p.counters = true;
                p.vcs = 4;
                p.n_tcs = 2;
            } else if (variant == 2) {
                p.router = p.router == NET_ROUTER_TILED ? NET_ROUTER_INPUT_QUEUED
                                                        : NET_ROUTER_TILED;
                p.row_buffer = p.col_buffer = 1 << 16;
            }
            struct sim s;
            struct net n;
            CHECK_EQ_U(sim_init(&s, EVQ_DEFAULT, net_entities(&t)), 0);
            int rc = net_init(&n, &t, &p, &s, 1, &c.d);
            CHECK_EQ_U(rc, 0);
            if (rc != 0)
                fprintf(stderr, "  %s variant %d: %s\n", systems[i],
                        variant, cap_text(&c));
            if (rc == 0) {
                double est = (double)net_estimate_bytes(&p, &t.counts);
                double got = (double)net_bytes(&n);
                if (!(fabs(est - got) <= 0.02 * got))
                    fprintf(stderr, "  %s variant %d: network estimate %.0f, "
                                    "allocated %.0f\n",
                            systems[i], variant, est, got);
                CHECK(fabs(est - got) <= 0.02 * got);
                net_free(&n);
            }
            sim_free(&s);
        }
        double te = (double)topo_estimate_bytes(&t.counts);
        double tr = (double)t.arena.reserved;
        CHECK(te <= tr * 1.1 + 1.1 * (1 << 20) && tr <= te * 1.1 + 1.1 * (1 << 20));
        topo_free(&t);
        cap_free(&c);
    }
}

/* Peak memory of a dfsim refused before it builds anything (KiB): far
 * above what reading a file takes, with or without ASan, far below the
 * 404 MiB topology of the smaller refused system below. */
#define REFUSED_MAX_KIB (200 * 1024L)

/* A system that does not fit is refused while the file is checked,
 * before anything is built (the child's peak memory says so), with the
 * figures: the 256 x 256 x 256 torus (50 M routers and NICs: more than
 * the event queue numbers; it used to reach the OOM killer), a 64^3
 * torus over --max-memory with a traffic section (17.5 GiB for the
 * network model) but not without one (the probe builds no network), and
 * a malformed --max-memory. */
static void test_memory_refused(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *big = write_temp(
        "t256.cfg", "system = {\n  topology = \"torus\"; x = 256; y = 256; "
                    "z = 256; };\n");
    const char *a1[] = { "run", big, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 1);
    /* refused before anything is built: the child's peak memory is a
     * program's that read a file, not the GiBs of the system's tables
     * (a limit on peak memory, not a measurement: a build that began
     * would exceed it many times over) */
    CHECK(run_last_maxrss_kib() >= 0);
    CHECK(run_last_maxrss_kib() < REFUSED_MAX_KIB);
    CHECK_STR_CONTAINS(err, "t256.cfg:1: error: system: this torus system of "
                            "16,777,216 routers (805,306,368 ports) and "
                            "33,554,432 NICs is too large: the simulator "
                            "numbers routers and NICs together with "
                            "16,777,215 ids at most, and it has 50,331,648");
    CHECK(!dir_has(dir, "probe.csv"));

    const char *mid = write_temp(
        "t64.cfg", "system = { topology = \"torus\"; x = 64; y = 64; "
                   "z = 64; };\ntraffic = { loads = [0.1]; };\n");
    const char *a2[] = { "run", mid, "-o", dir, "--max-memory", "2G", NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    /* its topology alone would take 404 MiB */
    CHECK(run_last_maxrss_kib() >= 0);
    CHECK(run_last_maxrss_kib() < REFUSED_MAX_KIB);
    CHECK_STR_CONTAINS(err, "t64.cfg:1: error: system: this torus system of "
                            "262,144 routers (12,582,912 ports) and 524,288 "
                            "NICs needs about ");
    CHECK_STR_CONTAINS(err, " GiB before its first packet (topology 404.0 "
                            "MiB, network model and event queue ");
    CHECK_STR_CONTAINS(err, "more than the 2.0 GiB allowed (--max-memory); "
                            "expected a smaller system, or --max-memory SIZE "
                            "to set the limit");
    /* a probe alone takes the topology (404 MiB): refused under 256M,
     * the figure without a network part */
    const char *probe = write_temp(
        "t64p.cfg", "system = { topology = \"torus\"; x = 64; y = 64; "
                    "z = 64; };\n");
    const char *a3[] = { "run", probe, "-o", dir, "--max-memory", "256M",
                         NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "needs about 404.0 MiB before its first packet, "
                            "more than the 256.0 MiB allowed");
    const char *a4[] = { "run", probe, "-o", dir, "--max-memory", "12Q",
                         NULL };
    CHECK_EQ_U(run_dfsim(a4, out, sizeof out, err, sizeof err), 2);
    CHECK_STR_CONTAINS(err, "--max-memory expects a size of at least 1M");
    /* a system that fits runs */
    const char *a5[] = { "run", jobs_cfg("fits.cfg", 1, 64), "-o", dir,
                         "--max-memory", "1G", NULL };
    CHECK_EQ_U(run_dfsim(a5, out, sizeof out, err, sizeof err), 0);
    unlink(a5[1]);
    unlink(big);
    unlink(mid);
    unlink(probe);
    rm_dir(dir);
}

/* Traffic results that are not what they look like are marked: on df1056
 * under the worst-case pattern with minimal routing, load 0.02 is
 * carried (saturated 0, latency measured) while at 0.5 the one global
 * link to the next group takes ~0.03 (saturated 1 in traffic.csv,
 * "saturated" in the table and the progress line) and, in a 1 us window,
 * no measured packet arrives: the latency columns are empty and the
 * table shows "-" and "no packet measured" (it printed latency 0.0, hops
 * 0.00, and drained = 1 runs up to 0.95 offered passed for unsaturated).
 * The rows read back as written (--resume). */
static void test_saturation_marked(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "sat.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"worst-case\"; loads = [0.02, 0.5];\n"
        "  routings = [\"minimal\"]; warmup_us = 2.0; measure_us = 1.0;\n"
        "  drain_us = 1.0; };\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *csv = dir_read(dir, "traffic.csv");
    CHECK_STR_CONTAINS(csv, ",refused,saturated,backlog,fill_ns,steady\n");
    const char *low = csv ? strstr(csv, "\nminimal,worst-case,0.0200,") : NULL;
    const char *high = csv ? strstr(csv, "\nminimal,worst-case,0.5000,")
                           : NULL;
    CHECK(low && high);
    if (low && high) {
        /* 0.02: measured, not saturated; 0.5: nothing measured, saturated */
        CHECK(!strstr(low, ",,") || strstr(low, ",,") > high);
        CHECK(strstr(high, ",0,,,,,,,0,0,") != NULL);
        const char *nl = strchr(high + 1, '\n');
        CHECK(nl != NULL);
        char line[512];
        struct traffic_result r;
        snprintf(line, sizeof line, "%.*s", (int)(strchr(low + 1, '\n') - low),
                 low + 1);
        CHECK_EQ_U(traffic_csv_parse(line, "minimal", "worst-case", 0.02,
                                     &r), 0);
        CHECK(!r.saturated && r.packets > 0 && r.lat_mean_ns > 400);
        snprintf(line, sizeof line, "%.*s", nl ? (int)(nl - high) : 0,
                 high + 1);
        CHECK_EQ_U(traffic_csv_parse(line, "minimal", "worst-case", 0.5,
                                     &r), 0);
        CHECK(r.saturated && r.packets == 0 && r.backlog > 0.5);
    }
    free(csv);
    CHECK_STR_CONTAINS(out, "\n  minimal       0.500    0.502    0.028     "
                            "     -          -          -      -        -  "
                            "saturated  no packet measured  not drained\n");
    CHECK_STR_CONTAINS(out, "  saturated: accepted below offered");
    CHECK_STR_CONTAINS(err, "load 0.500: offered 0.502, accepted 0.028, no "
                            "packet measured, SATURATED, not drained");
    CHECK(!strstr(out, "0.020    0.019    0.020      485.1        497        "
                       "616   2.74    1.000  saturated"));
    unlink(cfg);
    rm_dir(dir);
}

/* Issue 57, 3: a warm-up shorter than the network's latency is not
 * saturation. df1056 with Valiant routing at load 0.1 and 0.5/0.5 us
 * windows read accepted 0.039 and SATURATED (the window's second half
 * opened at 0.75 us, before the first packets, ~0.96 us through five
 * hops, had arrived); with 3/3 us it carries 0.100. The short run must
 * say "not steady: lengthen warm-up", and neither it nor the long one
 * "saturated"; traffic.csv carries the first-packet latency and the
 * verdict, and reads back (--resume). */
static void test_short_warmup_not_saturated(void)
{
    static const char *const windows[2] = { "0.5", "3.0" };
    for (int k = 0; k < 2; k++) {
        char dir[64] = "/tmp/dfsim-robust-XXXXXX";
        CHECK(mkdtemp(dir) != NULL);
        char text[512];
        snprintf(text, sizeof text,
                 "system = { name = \"df1056\"; };\n"
                 "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
                 "  routings = [\"valiant\"]; warmup_us = %s;\n"
                 "  measure_us = %s; };\n",
                 windows[k], windows[k]);
        const char *cfg = write_temp("steady.cfg", text);
        const char *argv[] = { "run", cfg, "-o", dir, NULL };
        CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
        CHECK(!strstr(out, "saturated") && !strstr(err, "SATURATED"));
        if (k == 0) {
            CHECK_STR_CONTAINS(err, "not steady: lengthen warm-up");
            CHECK_STR_CONTAINS(out, "  not steady: lengthen warm-up");
        } else {
            CHECK(!strstr(out, "not steady") && !strstr(err, "not steady"));
        }
        char *csv = dir_read(dir, "traffic.csv");
        const char *row = csv ? strstr(csv, "\nvaliant,uniform,0.1000,")
                              : NULL;
        CHECK(row != NULL);
        if (row) {
            char line[512];
            const char *nl = strchr(row + 1, '\n');
            snprintf(line, sizeof line, "%.*s",
                     nl ? (int)(nl - row) : 0, row + 1);
            struct traffic_result r;
            CHECK_EQ_U(traffic_csv_parse(line, "valiant", "uniform", 0.1,
                                         &r), 0);
            CHECK(!r.saturated);
            CHECK(r.steady == (k == 1));
            /* five router hops of an empty df1056: most of a microsecond */
            CHECK(r.fill_ns > 500 && r.fill_ns < 2000);
            if (k == 1)
                CHECK_NEAR(r.accepted, 0.1, 0.005);
        }
        free(csv);
        unlink(cfg);
        rm_dir(dir);
    }
}

extern const struct test_case tests_mpi[], tests_micro[], tests_gpcnet[],
    tests_proxy[];

/* The tests of the MPI layer's users fail when the layer cannot be set
 * up: every test of test_mpi.c, test_micro.c, test_gpcnet.c and
 * test_proxy.c that starts it is run with mpi_h_start failing and must
 * report a failed check. Six of them passed so, their checks wrapped in
 * `if (mpi_h_start(..) == 0 && mpi_h_run(..) == 0)`. */
static void test_tests_fail_without_setup(void)
{
    const struct test_case *const lists[] = { tests_mpi, tests_micro,
                                              tests_gpcnet, tests_proxy };
    int mine = test_failures, starting = 0;
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    CHECK(saved >= 0 && null >= 0);
    char passed[1024] = "";
    size_t len = 0;
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (const struct test_case *t = lists[l]; t->name; t++) {
            unsigned before = mpi_h_starts;
            test_failures = 0;
            mpi_h_fail_start = 1;
            dup2(null, 2); /* their failed checks are expected */
            t->fn();
            fflush(stderr);
            dup2(saved, 2);
            mpi_h_fail_start = 0;
            if (mpi_h_starts == before)
                continue; /* does not use the layer */
            starting++;
            if (test_failures == 0)
                len += (size_t)snprintf(passed + len, sizeof passed - len,
                                        " %s", t->name);
        }
    close(null);
    close(saved);
    test_failures = mine;
    if (len)
        fprintf(stderr, "  passed without the MPI layer:%s\n", passed);
    CHECK_EQ_U(len, 0);
    CHECK(starting >= 15);
}

/* A variant that measured no iteration (shuffled order, the warm-up
 * taking its only one) shows "-" in the console table, not a median of
 * 0.000 normalised to 0.000 as if measured; variants.csv keeps its row
 * with iterations 0. */
static void test_variant_without_iterations(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "experiment = { seed = 1; };\n"
                                "system = { name = \"xc-12cab\"; };\n"
                                "jobs = (\n");
    for (char c = 'a'; c <= 'c'; c++)
        n += (size_t)snprintf(
            text + n, sizeof text - n,
            " { name = \"%c\"; workload = \"pingpong\"; nodes = 2;\n"
            "   iterations = 4; warmup = 1; variant_order = \"shuffled\";\n"
            "   variants = [\"default\", \"high-bias\", \"app-aware\"]; "
            "}%s\n",
            c, c < 'c' ? "," : "");
    snprintf(text + n, sizeof text - n, ");\n");
    const char *cfg = write_temp("v0.cfg", text);
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "\na                    app-aware       0"
                            "            -        -          -        -"
                            "      -\n");
    CHECK(!strstr(out, "       0        0.000"));
    char *v = dir_read(dir, "variants.csv");
    CHECK_STR_CONTAINS(v, "\n0,0,a,app-aware,0,");
    free(v);
    unlink(cfg);
    rm_dir(dir);
}

/* The error tables of docs/experiment-files.md give dfsim's own
 * messages: each row's message (up to a "...", where the page cuts a
 * list) is what dfsim prints for the file here. The tables used made-up
 * keys (system.radix, run.queue) that no experiment file has. */
static void test_error_table_is_true(void)
{
    static const struct {
        const char *text, *arg, *msg;
    } row[] = {
        { "system = { name = \"xc-12cab\"; }\nprobe = { pairs = 2; \n", NULL,
          "exp.cfg:3: error: syntax error" },
        { "system = { name = \"xc-12cab\"; };\nprobe = { pairs = 2; pairs = 3; };\n",
          NULL, "exp.cfg:2: error: duplicate setting name" },
        { NULL, NULL,
          "exp.cfg: error: cannot read: No such file or directory" },
        { "system = { name = \"xc-12cab\"; };\nsytem = { name = \"x\"; };\n",
          NULL, "exp.cfg:2: error: unknown section \"sytem\"; accepted "
                "sections: experiment, system, probe, network, traffic, "
                "sampling, jobs, mpi, app_aware, production, impact" },
        { "system = { name = \"xc-12cab\"; };\nprobe = { pair = 2; };\n",
          NULL, "exp.cfg:2: error: unknown key \"probe.pair\"; accepted "
                "keys: size, pairs, router_delay_ns" },
        { "system = { name = \"xc-12cab\"; };\nproduction = { fill = 0.5; };\n"
          "jobs = ( { workload = \"pingpong\"; nodes = 2; } );\n",
          NULL, "exp.cfg:2: error: missing required key \"production.mix\" "
                "(the workloads of the other users' jobs: mix = ( { "
                "workload = ...; weight = ...; }, ... ))" },
        { "system = { name = \"xc-12cab\"; };\nprobe = { pairs = \"two\"; };\n",
          NULL, "exp.cfg:2: error: probe.pairs: expected an integer, got a "
                "string" },
        { "system = { name = \"xc-12cab\"; };\njobs = ( { workload = "
          "\"pingpong\"; nodes = 2; background = 1; } );\n",
          NULL, "exp.cfg:2: error: jobs[0].background: expected true or "
                "false, got an integer" },
        { "system = { name = \"xc-12cab\"; };\nnetwork = \"fast\";\n", NULL,
          "exp.cfg:2: error: network: expected a group { ... }, got a "
          "string" },
        { "system = { name = \"xc-12cab\"; };\nprobe = { pairs = 0; };\n",
          NULL, "exp.cfg:2: error: probe.pairs: value 0 is out of range; "
                "expected an integer in [1, 10000]" },
        { "system = { name = \"xc-12cab\"; };\nproduction = { fill = 1.5; };\n"
          "jobs = ( { workload = \"pingpong\"; nodes = 2; } );\n",
          NULL, "exp.cfg:2: error: production.fill: value 1.5 is out of "
                "range; expected a number in [0, 1]" },
        { "system = { name = \"xc-12cab\"; };\nnetwork = { router = \"fast\"; };\n",
          NULL, "exp.cfg:2: error: network.router: \"fast\" is not one of: "
                "tiled, input-queued, voq" },
        { "system = { name = \"xc-12cab\"; };\nnetwork = { routing = "
          "\"ugal-g\"; };\n",
          NULL, "exp.cfg:2: error: network.routing: routing \"ugal-g\" is "
                "not registered; known: minimal, valiant, UGAL, UGAL-G, "
                "ADAPTIVE_0, "
                "ADAPTIVE_1, ADAPTIVE_2, ADAPTIVE_3, MIN_HASH, NMIN_HASH, "
                "IN_ORDER, SS_ADAPTIVE, DOR" },
        { "system = { name = \"xc-12cab\"; };\nnetwork = { max_outstanding = "
          "5000000000; };\n",
          NULL, "exp.cfg:2: error: integer 5000000000 does not fit in 32 "
                "bits; write 5000000000L for a 64-bit integer" },
        { "system = { name = \"df1056\"; };\ntraffic = { loads = [0.5, 1.0, "
          "1.5]; };\n",
          NULL, "exp.cfg:2: error: traffic.loads[2]: value 1.5 is out of "
                "range; expected a number in [0.001, 1]" },
        { "system = { name = \"df1056\"; };\ntraffic = { routings = "
          "[\"minimal\", \"ugal-g\"]; };\n",
          NULL, "exp.cfg:2: error: traffic.routings[1]: routing \"ugal-g\" "
                "is not registered; known: minimal, valiant, UGAL, ..." },
        { "system = { name = \"df1056\"; };\ntraffic = { loads = []; };\n",
          NULL, "exp.cfg:2: error: traffic.loads: expected at least one "
                "value, got an empty array" },
        { "system = { name = \"df1056\"; };\ntraffic = { routings = "
          "[\"DOR\"]; };\n",
          NULL, "exp.cfg:2: error: traffic.routings: routing \"DOR\" does "
                "not support the dragonfly topology family; routings for "
                "dragonfly: minimal, valiant, UGAL, ..." },
        { "system = { name = \"xc-12cab\"; };\nnetwork = { buffer_local = 4; "
          "};\n",
          NULL, "exp.cfg:2: error: network.buffer_local: buffer_local holds "
                "4 flits per VC, less than the largest packet (14 flits: a "
                "PUT request of max_payload = 64 bytes); virtual cut-through "
                "needs room for a whole packet" },
        { "system = { name = \"xc-12cab\"; };\ntraffic = { size = 65; };\n",
          NULL, "exp.cfg:2: error: traffic.size: 65 bytes do not fit in one "
                "packet of max_payload = 64 bytes; expected at most 64, or 0 "
                "for a full packet" },
        { "system = { name = \"xc-12cab\"; };\ntraffic = { loads = [0.1]; };\n"
          "sampling = { nic = true; nic_metrics = [\"AR_NIC_NETMON_ORB_EVENT_"
          "CNTR_REQ_FLITS\", \"REQ_PKTS\"]; };\n",
          NULL, "exp.cfg:3: error: sampling.nic_metrics[1]: no NIC counter "
                "named \"REQ_PKTS\" on aries NICs; NIC counters: "
                "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS, ..." },
        { "system = { name = \"cielo\"; };\ntraffic = { loads = [0.1]; };\n"
          "sampling = { rtr = true; rtr_metrics = [\"GM_0_0_TILE_PERFORMANCE_"
          "COUNTERS_9\"]; };\n",
          NULL, "exp.cfg:3: error: sampling.rtr_metrics[0]: no router of "
                "this torus system has a tile counter named \"GM_0_0_TILE_"
                "PERFORMANCE_COUNTERS_9\"; router 0's first is \"GM_0_0_TILE_"
                "PERFORMANCE_COUNTERS_0\" (net/counters.h lists the names)" },
        { "system = { name = \"xc-12cab\"; };\nsampling = { nic = true; };\n",
          NULL, "exp.cfg:2: error: sampling.nic: the counters are read "
                "during the traffic runs and the jobs' runs, and this file "
                "has neither a traffic section nor a jobs list" },
        /* before the work (item 9) */
        { "system = { name = \"xc-12cab\"; };\ntraffic = { loads = [0.1]; "
          "};\njobs = (\n  { name = \"big\"; workload = \"pingpong\"; "
          "nodes = 20000; } );\n",
          NULL, "exp.cfg:4: error: job \"big\": linear allocation asks for "
                "20000 nodes, only 2304 of the 2304 nodes are free" },
        { "system = { name = \"malbec\"; };\njobs = ( { name = \"pp\"; "
          "workload = \"pingpong\"; nodes = 2;\n  allocation = \"pair\"; "
          "distance = \"same-chassis\"; } );\n",
          NULL, "exp.cfg:2: error: job \"pp\": pair at distance "
                "same-chassis: a slingshot system has no chassis level (a "
                "group's switches are all one hop apart); use same-router, "
                "same-group or different-groups" },
        { "system = { name = \"cielo\"; };\nprobe = { pairs = 1; };\n"
          "jobs = ( { name = \"pp\"; workload = \"pingpong\"; nodes = 2;\n"
          "  routing = \"app-aware\"; } );\n",
          NULL, "exp.cfg:3: error: job \"pp\": routing controller "
                "\"app-aware\" sets ADAPTIVE_0, which a torus system cannot "
                "use (controllers other than \"network\" model Cray MPI on "
                "Aries)" },
        { "system = { name = \"cielo\"; };\njobs = ( { name = \"pp\"; "
          "workload = \"pingpong\"; nodes = 2;\n  routing = \"high-bias\"; "
          "} );\n",
          NULL, "exp.cfg:2: error: job \"pp\": routing controller "
                "\"high-bias\" sets ADAPTIVE_3, which a torus system cannot "
                "use (controllers other than \"network\" model Cray MPI on "
                "Aries)" },
        /* memory (item 11) */
        { "system = { topology = \"torus\"; x = 64; y = 64; z = 64; };\n"
          "traffic = { loads = [0.1]; };\n",
          "2G", "exp.cfg:1: error: system: this torus system of 262,144 "
                "routers (12,582,912 ports) and 524,288 NICs needs about 17.5 "
                "GiB before its first packet (topology 404.0 MiB, network "
                "model and event queue 17.1 GiB), more than the 2.0 GiB "
                "allowed (--max-memory); expected a smaller system, or "
                "--max-memory SIZE to set the limit" },
        { "system = { topology = \"torus\"; x = 256; y = 256; z = 256; };\n",
          NULL, "exp.cfg:1: error: system: this torus system of 16,777,216 "
                "routers (805,306,368 ports) and 33,554,432 NICs is too "
                "large: the simulator numbers routers and NICs together "
                "with 16,777,215 ids at most, and it has 50,331,648; "
                "expected a smaller system" },
    };
    char *doc = read_text(src_path("docs/experiment-files.md"));
    CHECK(doc != NULL);
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    for (size_t i = 0; doc && i < sizeof row / sizeof row[0]; i++) {
        char quoted[1024];
        snprintf(quoted, sizeof quoted, "`%s`", row[i].msg);
        CHECK_STR_CONTAINS(doc, quoted);
        const char *cfg;
        if (row[i].text) {
            cfg = write_temp("exp.cfg", row[i].text);
        } else {
            cfg = write_temp("exp.cfg", "");
            unlink(cfg);
        }
        const char *argv[] = { "run", cfg, "-o", dir, "--max-memory",
                               row[i].arg ? row[i].arg : "64G", NULL };
        CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
        char want[1024];
        const char *cut = strstr(row[i].msg, "...");
        /* "{ ... }" is the message's own; a list cut is ", ..." */
        const char *list = strstr(row[i].msg, ", ...");
        if (list && (!cut || list + 2 == cut))
            snprintf(want, sizeof want, "%.*s", (int)(list - row[i].msg),
                     row[i].msg);
        else
            snprintf(want, sizeof want, "%s", row[i].msg);
        CHECK_STR_CONTAINS(err, want);
        unlink(cfg);
    }
    free(doc);
    rm_dir(dir);
}

/* A --quick run records itself in experiment.settings: its folder is
 * not taken for the real experiment's (a real run into it is refused,
 * naming dfsim.quick; --resume too), and its default folder is
 * results/<name>-quick. */
static void test_quick_folder_apart(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = jobs_cfg("quick.cfg", 3, 4096);
    const char *a1[] = { "run", cfg, "-o", dir, "--quick", NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    char *runs = dir_read(dir, "runs.csv");
    CHECK(runs && strcmp(runs, "run,seed,end_us,finished,windowed\n0,5,") > 0 &&
          !strstr(runs, "\n1,")); /* one run of 3 */
    free(runs);
    const char *a2[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "holds the results of another experiment");
    CHECK_STR_CONTAINS(err, "dfsim.quick: absent in ");
    const char *a3[] = { "run", cfg, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "dfsim.quick: absent in ");
    unlink(cfg);
    rm_dir(dir);
}

/* Issue 57, 4: --quick on the main job (examples/default.cfg) ran no job
 * iteration: the jobs start at 80 us, the quick limit was 25 us, and the
 * load line read "80.000 to 24.998 us". The starts are now compressed
 * (their order kept), the limit set past the latest, and the run says
 * what --quick changed; every measured job counts its iterations. */
static void test_quick_main_job_iterates(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = src_path("examples/default.cfg");
    const char *argv[] = { "run", cfg, "-o", dir, "--quick", "--force",
                           NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "            start times (start_us, "
                            "production.stagger_us) scaled by 0.125: the "
                            "latest, 80.0 us, to 10.0 us\n");
    CHECK_STR_CONTAINS(out, "            time limit (experiment.time_limit_ms)"
                            " 10000 ms to 1010.0 us");
    CHECK_STR_CONTAINS(out, "            compute phases (mpi.compute_scale)");
    CHECK_STR_CONTAINS(out, "            production fill: its smallest job");
    CHECK(!strstr(out, "80.000 to 24.998"));
    char *jobs = dir_read(dir, "jobs.csv");
    CHECK(jobs != NULL);
    static const char *const names[3] = { "pingpong-8B", "pingpong-1KiB",
                                          "pingpong-32KiB" };
    for (int k = 0; jobs && k < 3; k++) {
        char key[64];
        snprintf(key, sizeof key, ",%s,pingpong,", names[k]);
        const char *row = strstr(jobs, key);
        CHECK(row != NULL);
        if (!row)
            continue;
        /* start_us, end_us, time_us, finished, iterations */
        const char *p = row;
        for (int c = 0; c < 7 && p; c++)
            p = strchr(p + 1, ',');
        unsigned fin = 9, it = 0;
        double start = -1;
        CHECK(p && sscanf(p + 1, "%lf,%*[^,],%*[^,],%u,%u", &start, &fin,
                          &it) == 3);
        CHECK_NEAR(start, 10.0, 1e-9);
        CHECK_EQ_U(fin, 1);
        CHECK_EQ_U(it, 3); /* one per variant */
    }
    free(jobs);
    rm_dir(dir);
}

/* Values that gave results looking measured but not, or results written
 * where they should not be: each an error at its line, exit 1. */
static void test_wrong_values(void)
{
    static const char sys[] = "system = { name = \"xc-12cab\"; };\n";
    char text[4096];
    snprintf(text, sizeof text,
             "%sjobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
             "  nodes = 2; iterations = 4;\n  warmup = 4; } );\n", sys);
    refused(text, "bad.cfg:4: error: jobs[0].warmup: 4 warm-up iterations "
                  "leave 0 of the job's 4 iterations to measure; expected "
                  "warmup < iterations");
    snprintf(text, sizeof text,
             "%sjobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
             "  nodes = 2; iterations = 4; warmup = 3;\n"
             "  variants = [\"default\", \"high-bias\"]; } );\n", sys);
    refused(text, "bad.cfg:3: error: jobs[0].warmup: 3 warm-up iterations "
                  "leave 1 of the job's 4");
    snprintf(text, sizeof text,
             "%sjobs = ( { name = \"\"; workload = \"pingpong\";\n"
             "  nodes = 2; iterations = 4; } );\n", sys);
    refused(text, "bad.cfg:2: error: jobs[0].name: the name is empty");
    snprintf(text, sizeof text,
             "%sjobs = ( { name = \"a,b\"; workload = \"pingpong\";\n"
             "  nodes = 2; iterations = 4; } );\n", sys);
    refused(text, "bad.cfg:2: error: jobs[0].name: the name holds a comma");
    snprintf(text, sizeof text, "experiment = { name = \"\"; };\n%s", sys);
    refused(text, "bad.cfg:1: error: experiment.name: the name is empty");
    snprintf(text, sizeof text,
             "experiment = {\n  name = \"../../../tmp/escape\"; };\n%s",
             sys);
    refused(text, "bad.cfg:2: error: experiment.name: the name holds a "
                  "\"/\"");
    snprintf(text, sizeof text, "experiment = { name = \"..\"; };\n%s",
             sys);
    refused(text, "experiment.name: the name is \".\" or \"..\"");
    size_t n = (size_t)snprintf(text, sizeof text,
                                "experiment = { name = \"");
    for (size_t i = 0; i < 1000; i++)
        text[n++] = 'x';
    snprintf(text + n, sizeof text - n, "\"; };\n%s", sys);
    refused(text, "bad.cfg:1: error: experiment.name: the name is too long "
                  "(1000 characters); expected 1 to 128 characters");
    /* the longest accepted name, and a job warm-up that leaves one
     * iteration per variant, are fine */
    n = (size_t)snprintf(text, sizeof text, "experiment = { name = \"");
    for (size_t i = 0; i < 128; i++)
        text[n++] = 'y';
    snprintf(text + n, sizeof text - n,
             "\"; };\n%sjobs = ( { name = \"pp\"; workload = "
             "\"pingpong\";\n  nodes = 2; iterations = 4; warmup = 2;\n"
             "  variants = [\"default\", \"high-bias\"]; } );\n", sys);
    const char *cfg = write_temp("good.cfg", text);
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "experiment  yyyyyyyy");
    unlink(cfg);
    rm_dir(dir);
}

/* With several runs the console gives the pooled figures (the report's),
 * saying so, and labels the tables of the last run as that run's alone;
 * it used to print only the last run's, unlabelled. */
static void test_console_pooled(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "pooled.cfg",
        "experiment = { seed = 3; runs = 3; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = ( { name = \"pp\"; workload = \"pingpong\"; bytes = 16384;"
        "\n  nodes = 2; iterations = 12; allocation = \"random\";\n"
        "  variants = [\"default\", \"app-aware\"]; } );\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "\nrun 3 of 3 (seed 5), this run alone:\n");
    CHECK_STR_CONTAINS(out, "\npooled over the 3 runs (as report.html "
                            "gives them");
    /* the pooled median of pp under default is the report's */
    const char *row = strstr(out, "\npp                   default        3 "
                                  "    18 ");
    CHECK(row != NULL);
    char *html = dir_read(dir, "report.html");
    CHECK(html != NULL);
    if (row && html) {
        double med = 0;
        CHECK_EQ_U(sscanf(row + 1, "%*s %*s %*u %*u %lf", &med), 1);
        char cell[128];
        snprintf(cell, sizeof cell,
                 "<td>pp</td><td>pingpong</td><td>default</td><td>3</td>"
                 "<td>18</td><td>%.3f</td>",
                 med);
        CHECK_STR_CONTAINS(html, cell);
        CHECK(med > 0);
    }
    free(html);
    unlink(cfg);
    rm_dir(dir);
}

/* A run killed during its first run of jobs leaves whole files: the
 * results' headers are written before the run (they came with its first
 * rows, so the files were empty), and topology.json and probe.csv are
 * complete (topology.json stayed open, 0 bytes, to the end). */
static void test_killed_run_keeps_headers(void)
{
    char dir[64] = "/tmp/dfsim-robust-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "killed.cfg",
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = ( { name = \"long\"; workload = \"pingpong\";\n"
        "  bytes = 65536; nodes = 2; iterations = 100000000; } );\n");
    const char *bin = getenv("DFSIM_BIN");
    if (!bin || !*bin)
        bin = "build/dfsim";
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        FILE *null2 = freopen("/dev/null", "w", stderr);
        (void)null;
        (void)null2;
        execl(bin, bin, "run", cfg, "-o", dir, (char *)NULL);
        _exit(127);
    }
    /* wait (at most 20 s) for the run's files to appear, then kill it */
    char p[256];
    snprintf(p, sizeof p, "%s/runs.csv", dir);
    for (int i = 0; i < 200; i++) {
        struct stat st;
        if (stat(p, &st) == 0 && st.st_size > 0)
            break;
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status)); /* still in run 0 when killed */
    char *it = dir_read(dir, "iterations.csv");
    CHECK(it && strncmp(it, "run,job,name,iteration,variant,", 31) == 0);
    char *jb = dir_read(dir, "jobs.csv");
    CHECK(jb && strncmp(jb, "run,job,name,workload,", 22) == 0);
    char *va = dir_read(dir, "variants.csv");
    CHECK(va && strncmp(va, "run,job,name,variant,", 21) == 0);
    char *ld = dir_read(dir, "load.csv");
    CHECK(ld && strncmp(ld, "run,class,", 10) == 0);
    char *js = dir_read(dir, "topology.json");
    size_t n = js ? strlen(js) : 0;
    CHECK(n > 2 && js[0] == '{' && strcmp(js + n - 2, "}\n") == 0);
    char *pr = dir_read(dir, "probe.csv");
    CHECK(pr && strncmp(pr, "pair,class_hops,", 16) == 0);
    CHECK(!dir_has(dir, "topology.json.tmp") && !dir_has(dir, "probe.csv.tmp"));
    free(it);
    free(jb);
    free(va);
    free(ld);
    free(js);
    free(pr);
    unlink(cfg);
    rm_dir(dir);
}

const struct test_case tests_robust[] = {
    TEST(test_fingerprint_normalised),
    TEST(test_resume_other_experiment),
    TEST(test_reused_folder),
    TEST(test_probe_wide_routers),
    TEST(test_resume_seed_near_max),
    TEST(test_wrong_values),
    TEST(test_console_pooled),
    TEST(test_killed_run_keeps_headers),
    TEST(test_errors_before_work),
    TEST(test_sigterm_resume),
    TEST(test_sigint_traffic_resume),
    TEST(test_memory_estimate),
    TEST(test_memory_refused),
    TEST(test_saturation_marked),
    TEST(test_short_warmup_not_saturated),
    TEST(test_tests_fail_without_setup),
    TEST(test_quick_folder_apart),
    TEST(test_quick_main_job_iterates),
    TEST(test_variant_without_iterations),
    TEST(test_error_table_is_true),
    { 0 },
};
