/* tests/test_par.c — an experiment's runs dealt over MPI ranks
 * (exp/par.h): par_deal's order and stops in one process, and
 * `mpirun -np N dfsim run` against one process, file for file. */
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

#include "exp/manifest.h"
#include "exp/par.h"

/* ---- par_deal in one process ------------------------------------------- */

struct seen {
    uint32_t ran[16], n_ran;
    uint32_t committed[16], n_committed;
    int fail_at, fail_status;
};

static int unit_run(void *ctx, uint32_t u, struct par_unit *out)
{
    struct seen *s = ctx;
    s->ran[s->n_ran++] = u;
    out->n = 1;
    out->part[0] = malloc(16);
    if (!out->part[0])
        return -1;
    out->len[0] = (size_t)snprintf(out->part[0], 16, "u%u", u);
    return (int)u == s->fail_at ? s->fail_status : 0;
}

static int unit_commit(void *ctx, uint32_t u, struct par_unit *in)
{
    struct seen *s = ctx;
    char want[16];
    snprintf(want, sizeof want, "u%u", u);
    CHECK(in->n == 1 && strcmp(in->part[0], want) == 0);
    s->committed[s->n_committed++] = u;
    return in->status;
}

static void test_deal_one_process(void)
{
    CHECK_EQ_U(par_size(), 1);
    /* every unit from `first` on, run and committed in order */
    struct seen s = { .fail_at = -1 };
    CHECK_EQ_U(par_deal(2, 7, unit_run, unit_commit, &s), 0);
    CHECK_EQ_U(s.n_ran, 5);
    CHECK_EQ_U(s.n_committed, 5);
    for (uint32_t i = 0; i < s.n_committed; i++)
        CHECK_EQ_U(s.committed[i], 2 + i);
    /* a unit's status that is not 0 is committed (it may have rows to
     * keep) and stops the dealing there */
    struct seen f = { .fail_at = 3, .fail_status = 1 };
    CHECK_EQ_U(par_deal(0, 6, unit_run, unit_commit, &f), 1);
    CHECK_EQ_U(f.n_ran, 4);
    CHECK_EQ_U(f.n_committed, 4);
    CHECK_EQ_U(f.committed[3], 3);
    /* nothing to do */
    struct seen z = { .fail_at = -1 };
    CHECK_EQ_U(par_deal(4, 4, unit_run, unit_commit, &z), 0);
    CHECK_EQ_U(z.n_ran + z.n_committed, 0);
    /* the owners of a deal over 3 ranks from unit 5: round robin, each
     * round shifted by one */
    static const int want[9] = { 0, 1, 2, 1, 2, 0, 2, 0, 1 };
    for (uint32_t k = 0; k < 9; k++)
        CHECK_EQ_U(par_owner(5 + k, 5, 3), want[k]);
    /* units of two kinds alternating over 2 ranks: each rank gets both */
    unsigned kinds[2][2] = { { 0, 0 }, { 0, 0 } };
    for (uint32_t u = 0; u < 8; u++)
        kinds[par_owner(u, 0, 2)][u % 2]++;
    CHECK(kinds[0][0] == 2 && kinds[0][1] == 2 && kinds[1][0] == 2 &&
          kinds[1][1] == 2);
}

/* ---- mpirun against one process ---------------------------------------- */

/* A traffic sweep of three points and a jobs list of three runs, both
 * with counter samples (files of one point or run each, written by the
 * rank that runs it). */
static const char cfg_text[] =
    "experiment = { seed = 5; runs = 3; };\n"
    "system = { name = \"voltrino\"; };\n"
    "traffic = { loads = [0.1, 0.2, 0.3]; warmup_us = 0.5;\n"
    "            measure_us = 1.0; };\n"
    "sampling = { interval_us = 2.0; nic = true; };\n"
    "jobs = (\n"
    "  { name = \"pp\"; workload = \"pingpong\"; bytes = 4096;\n"
    "    allocation = \"random\"; nodes = 2; iterations = 6;\n"
    "    variants = [\"default\", \"high-bias\"]; }\n"
    ");\n";

static char out1[1 << 16], err1[1 << 16], out2[1 << 16], err2[1 << 16];

/* Run argv under mpirun -np np into out2/err2; it must succeed (what it
 * said is shown if not). */
static void mpi_ok(int np, const char *const argv[])
{
    int rc = run_dfsim_mpi(np, argv, out2, sizeof out2, err2, sizeof err2);
    CHECK_EQ_U(rc, 0);
    if (rc != 0)
        fprintf(stderr, "%s\n", err2);
}

/* An experiment file and the results folders the tests compare. */
struct fixture {
    const char *cfg;
    char dir[3][64];
};

static void fixture_open(struct fixture *f, const char *name,
                         const char *text)
{
    f->cfg = write_temp(name, text);
    CHECK(f->cfg != NULL);
    for (int i = 0; i < 3; i++) {
        strcpy(f->dir[i], "/tmp/dfsim-par-XXXXXX");
        CHECK(mkdtemp(f->dir[i]) != NULL);
    }
}

static void fixture_close(struct fixture *f)
{
    for (int i = 0; i < 3; i++)
        rm_dir(f->dir[i]);
    if (f->cfg)
        unlink(f->cfg);
}

/* `dfsim run cfg -o dir --force`: in one process (np 0, its output in
 * out1/err1), or under mpirun -np np (out2/err2). Its exit status. */
static int run_to(const struct fixture *f, int k, int np)
{
    const char *argv[] = { "run", f->cfg, "-o", f->dir[k], "--force", NULL };
    if (np == 0)
        return run_dfsim(argv, out1, sizeof out1, err1, sizeof err1);
    int rc = run_dfsim_mpi(np, argv, out2, sizeof out2, err2, sizeof err2);
    if (rc != 0) /* say why (once seen under a loaded machine, not since) */
        fprintf(stderr, "  mpirun -np %d exited %d; its output:\n%s\n%s\n",
                np, rc, out2, err2);
    return rc;
}

/* Every line of a that is not b's (the results folder's name aside). */
static void same_console(const char *a, const char *b, const char *da,
                         const char *db)
{
    const char *pa = strstr(a, da), *pb = strstr(b, db);
    /* up to the jobs' header, and the tables after it */
    const char *ja = strstr(a, "\njobs: "), *jb = strstr(b, "\njobs: ");
    CHECK(pa && pb && ja && jb);
    if (!ja || !jb)
        return;
    CHECK((ja - a) == (jb - b) && strncmp(a, b, (size_t)(ja - a)) == 0);
    const char *ta = strstr(ja, "\npp "), *tb = strstr(jb, "\npp ");
    /* the first report line names the folder ("traffic report: " when
     * the traffic sweep's page comes first) */
    const char *ea = strstr(ja, "report: "), *eb = strstr(jb, "report: ");
    CHECK(ta && tb && ea && eb && (ea - ta) == (eb - tb) &&
          strncmp(ta, tb, (size_t)(ea - ta)) == 0);
}

static void test_mpirun_same_files(void)
{
    struct fixture f;
    fixture_open(&f, "par.cfg", cfg_text);
    const char *a = f.dir[0], *b = f.dir[1];
    CHECK_EQ_U(run_to(&f, 0, 0), 0);
    CHECK_EQ_U(run_to(&f, 1, 2), 0);
    CHECK_STR_CONTAINS(out2, "runs dealt over 2 MPI ranks");
    CHECK(!strstr(out1, "MPI ranks"));
    /* the first point and the first run were rank 0's, the others rank
     * 1's (par_owner: 0, 1, then the second round shifted) */
    CHECK_STR_CONTAINS(err2, "traffic 1/3 on rank 0:");
    CHECK_STR_CONTAINS(err2, "traffic 2/3 on rank 1:");
    CHECK_STR_CONTAINS(err2, "traffic 3/3 on rank 1:");
    CHECK_STR_CONTAINS(err2, "run 1/3 (seed 5) on rank 0");
    CHECK_STR_CONTAINS(err2, "run 2/3 (seed 6) on rank 1");
    CHECK_STR_CONTAINS(err2, "run 3/3 (seed 7) on rank 1");
    CHECK_STR_CONTAINS(err1, "run 2/3 (seed 6)\n");
    CHECK_EQ_U(same_files(a, b), 0);
    same_console(out1, out2, a, b);
    /* more ranks than runs: the fourth rank has nothing to do */
    CHECK_EQ_U(run_to(&f, 2, 4), 0);
    CHECK_EQ_U(same_files(a, f.dir[2]), 0);
    fixture_close(&f);
}

/* An interrupted experiment resumed under mpirun ends with the files of
 * one uninterrupted process. */
static void test_mpirun_resume(void)
{
    struct fixture fx;
    fixture_open(&fx, "par-resume.cfg", cfg_text);
    const char *a = fx.dir[0], *b = fx.dir[1];
    CHECK_EQ_U(run_to(&fx, 0, 0), 0);
    /* b: a's files as if killed after traffic point 1 (traffic.csv's
     * header and first row) and no job run */
    const char *names[] = { "experiment.settings", "topology.json",
                            "probe.csv", "nic_samples_ADAPTIVE_0_0.1000.csv",
                            "traffic.csv" };
    char path[4200];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", a, names[i]);
        char *t = read_text(path);
        CHECK(t != NULL);
        if (!t)
            continue;
        size_t len = strlen(t);
        if (i == 4) { /* the header and the first row */
            const char *nl = strchr(t, '\n');
            nl = nl ? strchr(nl + 1, '\n') : NULL;
            len = nl ? (size_t)(nl - t) + 1 : len;
        }
        snprintf(path, sizeof path, "%s/%s", b, names[i]);
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fwrite(t, 1, len, f);
            fclose(f);
        }
        free(t);
    }
    /* and its manifest as dfsim leaves it then (exp/manifest.h):
     * traffic.csv being appended to, the rest whole */
    static const char *const csv[] = { "traffic.csv" };
    CHECK_EQ_U(manifest_mark(b, names + 1, 3, MANIFEST_DONE, stderr), 0);
    CHECK_EQ_U(manifest_mark(b, csv, 1, MANIFEST_GROWN, stderr), 0);
    const char *res[] = { "run", fx.cfg, "-o", b, "--resume", NULL };
    mpi_ok(2, res);
    CHECK_STR_CONTAINS(out2, "resuming: traffic runs 1-1 of 3 were done");
    CHECK(!strstr(err2, "traffic 1/3"));
    /* from point 2 on: point 2 is rank 0's */
    CHECK_STR_CONTAINS(err2, "traffic 2/3 on rank 0:");
    CHECK_STR_CONTAINS(err2, "traffic 3/3 on rank 1:");
    CHECK_EQ_U(same_files(a, b), 0);
    fixture_close(&fx);
}

/* A run that ends at the time limit stops the experiment there, as in
 * one process: its rows are kept (unfinished), the runs after it are
 * not written though another rank ran one, and the command fails. */
static void test_mpirun_stops_at_limit(void)
{
    static const char text[] =
        "experiment = { seed = 5; runs = 3; time_limit_ms = 0.004; };\n"
        "system = { name = \"voltrino\"; };\n"
        "jobs = (\n"
        "  { name = \"pp\"; workload = \"pingpong\"; bytes = 4096;\n"
        "    allocation = \"random\"; nodes = 2; iterations = 600; }\n"
        ");\n";
    struct fixture f;
    fixture_open(&f, "par-limit.cfg", text);
    CHECK(run_to(&f, 0, 0) != 0 && run_to(&f, 1, 2) != 0);
    CHECK_STR_CONTAINS(err1, "the jobs of run 0 had not ended");
    CHECK_STR_CONTAINS(err2, "run 2/3 (seed 6) on rank 1");
    char path[4200];
    snprintf(path, sizeof path, "%s/runs.csv", f.dir[1]);
    char *runs = read_text(path);
    CHECK(runs && strstr(runs, "\n0,5,") && !strstr(runs, "\n1,6,"));
    free(runs);
    CHECK_EQ_U(same_files(f.dir[0], f.dir[1]), 0);
    fixture_close(&f);
}

/* An impact study (each simulation a unit) with two controllers and the
 * latency model: every file the same under mpirun as in one process —
 * impact.csv's cells pooled from the units' iterations, the latency
 * model's and Table 4's samples gathered from the units in order. */
static void test_mpirun_impact(void)
{
    static const char text[] =
        "experiment = { name = \"par-impact\"; seed = 3; };\n"
        "system = { name = \"voltrino\"; };\n"
        "network = { congestion_control = \"none\"; };\n"
        "impact = {\n"
        "  nodes = 32; shares = [0.5]; allocation = \"random\";\n"
        "  victim_nodes = 8; warmup_us = 20.0; runs = 2;\n"
        "  latency_model = true; latency_window_us = 10.0;\n"
        "  congestion_controls = [\"cray\", \"none\"];\n"
        "  victims = (\n"
        "    { name = \"pp\"; workload = \"pingpong\"; bytes = 8;\n"
        "      peer = 7; iterations = 10; }\n"
        "  );\n"
        "  aggressors = ( { name = \"incast\";\n"
        "    workload = \"gpcnet-rma-incast\"; bytes = 65536; } );\n"
        "};\n";
    struct fixture f;
    fixture_open(&f, "par-impact.cfg", text);
    CHECK_EQ_U(run_to(&f, 0, 0), 0);
    CHECK_EQ_U(run_to(&f, 1, 2), 0);
    /* 2 runs x 2 controllers x (alone, beside the incast) */
    CHECK_STR_CONTAINS(out1, ": 8 simulations");
    /* alone and beside the incast alternate; each rank gets both */
    CHECK_STR_CONTAINS(err2, "impact 1/8 on rank 0:");
    CHECK_STR_CONTAINS(err2, "impact 2/8 on rank 1:");
    CHECK_STR_CONTAINS(err2, "impact 3/8 on rank 1:");
    CHECK_STR_CONTAINS(err2, "impact 4/8 on rank 0:");
    char path[4200];
    snprintf(path, sizeof path, "%s/controllers.csv", f.dir[1]);
    char *t4 = read_text(path);
    CHECK(t4 && strstr(t4, "\ncray,") && strstr(t4, "\nnone,"));
    free(t4);
    CHECK_EQ_U(same_files(f.dir[0], f.dir[1]), 0);
    fixture_close(&f);
}

const struct test_case tests_par[] = {
    TEST(test_deal_one_process),
    TEST(test_mpirun_same_files),
    TEST(test_mpirun_resume),
    TEST(test_mpirun_stops_at_limit),
    TEST(test_mpirun_impact),
    { 0 },
};
