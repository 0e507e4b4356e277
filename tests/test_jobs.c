/* tests/test_jobs.c — the jobs of experiment files (exp/jobs.h) and the
 * workload registry (app/workload.h): reading with every check, one run
 * of several jobs and its result files. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/ember.h"
#include "app/gpcnet.h"
#include "app/micro.h"
#include "app/workload.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "exp/manifest.h"
#include "results/jobs_results.h"
#include "results/phases.h"
#include "results/report.h"
#include "test.h"
#include "topo/topo.h"

/* Load `text` as an experiment file; errors into c. */
static int load(struct experiment *e, const char *text, struct capture *c)
{
    const char *path = write_temp("jobs.cfg", text);
    CHECK(path != NULL);
    int rc = experiment_load(e, path, -1, &c->d);
    unlink(path);
    return rc;
}

static const struct workload *wl(const char *name)
{
    return (const struct workload *)registry_find(&workload_registry, name);
}

/* Every workload says how many iterations its parameters make it mark
 * (the progress lines' share): the `iterations` key's value, 0 for a
 * congestor that runs until stopped; and a run marks that many (the
 * layer's live count, dmpi_job_marks, ends there). */
static void test_planned_iterations(void)
{
    for (size_t i = 0; i < workload_registry.n; i++) {
        const struct workload *w =
            (const struct workload *)workload_registry.entries[i];
        CHECK(w->iterations != NULL);
        if (!w->iterations)
            continue;
        _Alignas(16) unsigned char params[WORKLOAD_PARAMS_MAX];
        w->defaults(params);
        uint32_t k = w->iterations(params);
        if (strcmp(w->family, "gpcnet") == 0 && w->endless &&
            w->endless(params))
            CHECK_EQ_U(k, 0);
        else
            CHECK(k > 0);
    }
    const struct workload *pp = wl("pingpong");
    _Alignas(16) unsigned char params[WORKLOAD_PARAMS_MAX];
    pp->defaults(params);
    ((struct micro_params *)params)->iterations = 7;
    CHECK_EQ_U(pp->iterations(params), 7);
    const struct workload *gp = wl("gpcnet-rma-incast");
    gp->defaults(params);
    ((struct gpcnet_params *)params)->iterations = 5;
    CHECK_EQ_U(gp->iterations(params), 5);
}

/* Defaults, names, the workload's keys and the mpi section reach their
 * structs. */
static void test_load(void)
{
    struct capture c;
    cap_init(&c);
    struct experiment e;
    int rc = load(&e,
                  "system = { name = \"xc-12cab\"; };\n"
                  "mpi = { eager_max = 8192; o_send_ns = 125.5; };\n"
                  "jobs = (\n"
                  "  { workload = \"halo3d\"; nodes = 8; nx = 30;\n"
                  "    compute_us = 2.5; reduce = false; },\n"
                  "  { workload = \"pingpong\"; allocation = \"pair\";\n"
                  "    distance = \"same-group\"; bytes = 65536; },\n"
                  "  { workload = \"pingpong\"; nodes = 2; ppn = 4;\n"
                  "    start_us = 12.25; },\n"
                  "  { name = \"noise\"; workload = \"gpcnet-a2a\";\n"
                  "    nodes = 4; allocation = \"list\";\n"
                  "    node_list = \"10-11, 40,7\"; background = true; }\n"
                  ");\n",
                  &c);
    CHECK_EQ_U(rc, 0);
    CHECK(strcmp(cap_text(&c), "") == 0);
    if (rc != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    CHECK_EQ_U(e.jobs.n, 4);
    const struct job_config *j = e.jobs.job;
    CHECK(strcmp(j[0].name, "halo3d") == 0);
    CHECK(strcmp(j[1].name, "pingpong-1") == 0);
    CHECK(strcmp(j[2].name, "pingpong-2") == 0);
    CHECK(strcmp(j[3].name, "noise") == 0);
    CHECK(j[0].workload == &wl("halo3d")->base);
    const struct ember_params *h = (const void *)j[0].params;
    CHECK_EQ_U(h->nx, 30);
    CHECK_EQ_U(h->ny, 100); /* ember's default */
    CHECK_EQ_U(h->compute, 2500000);
    CHECK(!h->reduce);
    CHECK_EQ_U(j[0].ppn, 1);
    CHECK(strcmp(j[0].allocation->name, "linear") == 0);
    CHECK_EQ_U(j[1].nodes, 2); /* a pair */
    CHECK_EQ_U(((const struct alloc_pair_params *)(const void *)
                    j[1].alloc_params)->distance,
               ALLOC_SAME_GROUP);
    const struct micro_params *pp = (const void *)j[1].params;
    CHECK_EQ_U(pp->bytes, 65536);
    CHECK_EQ_U(pp->peer, 1);
    CHECK_EQ_U(jobs_ranks(&j[2]), 8);
    CHECK_EQ_U(j[2].start, 12250000);
    CHECK_EQ_U(((const struct micro_params *)(const void *)j[2].params)
                   ->bytes,
               1024); /* emberpingpong's messageSize */
    CHECK_EQ_U(j[3].nodes, 4);
    const struct alloc_list_params *lp =
        (const void *)j[3].alloc_params;
    CHECK_EQ_U(lp->n, 4);
    CHECK(lp->ids && lp->ids[0] == 10 && lp->ids[1] == 11 &&
          lp->ids[2] == 40 && lp->ids[3] == 7);
    CHECK(j[3].background);
    CHECK_EQ_U(e.jobs.mpi.eager_max, 8192);
    CHECK_EQ_U(e.jobs.mpi.smsg_max, 16); /* default kept */
    CHECK_EQ_U(e.jobs.mpi.o_send, 125500);
    experiment_free(&e);
    cap_free(&c);
}

/* The mpi section's defaults follow the system's family: Cray MPI over
 * uGNI on Aries, libfabric's verbs;ofi_rxm on Slingshot (docs/mpi.md),
 * and a key of the section overrides either. */
static void test_mpi_stack(void)
{
    static const struct {
        const char *system, *mpi;
        uint32_t smsg, eager, rdv_get;
    } cases[] = {
        { "xc-12cab", "", 16, 4096, 262144 },
        { "cielo", "", 16, 4096, 262144 },
        { "malbec", "", 64, 131072, UINT32_MAX },
        { "shandy", "mpi = { eager_max = 16384; };\n", 64, 16384,
          UINT32_MAX },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "system = { name = \"%s\"; };\n%s"
                 "jobs = ( { workload = \"pingpong\"; nodes = 2; } );\n",
                 cases[i].system, cases[i].mpi);
        struct capture c;
        cap_init(&c);
        struct experiment e;
        int rc = load(&e, text, &c);
        CHECK_EQ_U(rc, 0);
        if (rc == 0) {
            CHECK_EQ_U(e.jobs.mpi.smsg_max, cases[i].smsg);
            CHECK_EQ_U(e.jobs.mpi.eager_max, cases[i].eager);
            CHECK_EQ_U(e.jobs.mpi.rdv_get_max, cases[i].rdv_get);
            CHECK_EQ_U(e.jobs.mpi.header_bytes, 64);
            experiment_free(&e);
        } else {
            fprintf(stderr, "%s", cap_text(&c));
        }
        cap_free(&c);
    }
    struct dmpi_params p;
    CHECK(dmpi_defaults_for(&p, "no-such-stack") != 0);
    CHECK_EQ_U(p.eager_max, 4096); /* dmpi_defaults' */
}

/* Each mistake is reported at its line with what was expected. */
static void test_load_errors(void)
{
    static const struct {
        const char *jobs, *want;
    } cases[] = {
        { "jobs = ( { workload = \"halo3d\"; nodes = 8; nxx = 3; } );",
          ":2: error: unknown key \"jobs[0].nxx\"; accepted keys: px," },
        { "jobs = ( { workload = \"halo3d\"; nodes = 8; target = 3; } );",
          "unknown key \"jobs[0].target\"" },
        { "jobs = ( { workload = \"halo\"; nodes = 8; } );",
          ":2: error: jobs[0].workload: workload \"halo\" is not "
          "registered; known: pingpong," },
        { "jobs = ( { nodes = 8; } );",
          "missing required key \"jobs[0].workload\"" },
        { "jobs = ( { workload = \"barrier\"; } );",
          ":2: error: jobs[0]: missing required key \"jobs[0].nodes\"" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; ppn = 0; } );",
          "jobs[0].ppn: value 0 is out of range" },
        { "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
          "  distance = \"same-group\"; } );",
          ":3: error: jobs[0].distance: applies to allocation = \"pair\" "
          "only; this job's allocation is \"linear\"" },
        { "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
          "  allocation = \"random\"; busy = 0.2; } );",
          "jobs[0].busy: applies to allocation = \"fragmented\" only" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"pair\";\n"
          "  distance = \"same-router\"; node_list = \"1,2\"; } );",
          ":3: error: jobs[0].node_list: applies to allocation = \"list\" "
          "only; this job's allocation is \"pair\"" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; },\n"
          "  { workload = \"incast\"; allocation = \"same\";\n"
          "  after = \"barrier\"; max_block = 4; } );",
          ":4: error: jobs[1].max_block: applies to allocation = "
          "\"fragmented\" only; this job's allocation is \"same\"" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"pair\"; } );",
          "allocation = \"pair\" needs distance" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"pair\";\n"
          "  distance = \"same-router\"; nodes = 3; } );",
          ":3: error: jobs[0].nodes: a pair is 2 nodes, not 3" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"list\"; } );",
          "allocation = \"list\" needs node_list" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"list\";\n"
          "  node_list = \"1-2;5\"; } );",
          ":3: error: jobs[0].node_list: expected ',' between node ids" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"list\";\n"
          "  node_list = \"9-3\"; } );",
          "range 9-3: expected a first id <= the last" },
        { "jobs = ( { workload = \"barrier\"; allocation = \"list\";\n"
          "  node_list = \"1-4\"; nodes = 3; } );",
          "jobs[0].nodes: 3 nodes, but node_list names 4" },
        { "jobs = ( { workload = \"gpcnet-a2a\"; nodes = 8; } );",
          "gpcnet-a2a runs until it is stopped unless given iterations" },
        { "jobs = ( { workload = \"gpcnet-a2a\"; nodes = 8;\n"
          "  background = true; } );",
          "every job is a background job" },
        { "jobs = ( { workload = \"halo3d\"; nodes = 16; px = 3; } );",
          ":2: error: jobs[0]: halo3d on 16 ranks: " },
        { "jobs = ( { workload = \"pingpong\"; nodes = 2; peer = 2; } );",
          "jobs[0]: pingpong on 2 ranks: pingpong: rank 2 is not one of "
          "the job's 2" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; },\n"
          "  { workload = \"incast\"; nodes = 2; name = \"barrier\"; } );",
          ":3: error: jobs[1].name: \"barrier\" is the name of jobs[0] too" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; }, 5 );",
          "jobs[1]: expected a group { ... }, got an integer" },
        { "jobs = 5;", "jobs: expected a list of groups" },
        { "jobs = ();", "jobs: expected at least one group" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  start_us = -1.0; } );",
          ":3: error: jobs[0].start_us: value -1 is out of range" },
        { "mpi = { eager_max = 10; };",
          "mpi.smsg_max: 16 is above eager_max (10)" },
        { "mpi = { o_recv_ns = 10.0; };",
          "mpi: the MPI layer's parameters apply to jobs, and this file "
          "has no jobs list" },
        { "jobs = ( { workload = \"alltoall\"; nodes = 2; bytes = 0; } );",
          "jobs[0].bytes: value 0 is out of range" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  routing = \"default\"; variants = [\"high-bias\"]; } );",
          ":3: error: jobs[0]: give routing (one controller) or variants" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  routing = \"fast\"; } );",
          ":3: error: jobs[0].routing: controller \"fast\" is not "
          "registered; known: network, default, high-bias, app-aware" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; variants = [\n"
          "  \"network\", \"default\", \"high-bias\", \"app-aware\",\n"
          "  \"ADAPTIVE_0\", \"ADAPTIVE_1\", \"ADAPTIVE_2\",\n"
          "  \"ADAPTIVE_3\", \"default\"]; } );",
          /* 8 controllers are registered (CTL_MAX_VARIANTS): a ninth
           * variant is one of them again */
          ":5: error: jobs[0].variants[8]: \"default\" is "
          "jobs[0].variants[1] too; expected each variant once" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  model = true; } );",
          ":3: error: jobs[0]: the model estimates one message per "
          "iteration; barrier has no message size" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  allocation = \"same\"; } );",
          ":2: error: jobs[0]: allocation = \"same\" takes the nodes of the "
          "job named by after; this job has no after" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; },\n"
          "  { workload = \"incast\"; after = \"bar\"; nodes = 2; } );",
          ":3: error: jobs[1].after: no job is called \"bar\"" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  after = \"barrier\"; } );",
          ":2: error: jobs[0].after: \"barrier\" is this job" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; after = \"b\"; },\n"
          "  { name = \"b\"; workload = \"incast\"; nodes = 2;\n"
          "    after = \"barrier\"; } );",
          "error: after: job \"barrier\" waits for itself through a chain" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; },\n"
          "  { workload = \"gpcnet-a2a\"; nodes = 2; background = true; },\n"
          "  { workload = \"incast\"; nodes = 2; after = \"gpcnet-a2a\"; } );",
          ":4: error: jobs[2].after: \"gpcnet-a2a\" is a background job" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; },\n"
          "  { workload = \"incast\"; nodes = 3; after = \"barrier\";\n"
          "    allocation = \"same\"; } );",
          ":3: error: jobs[1]: 3 nodes, but \"barrier\", whose nodes it "
          "takes, has 2" },
        { "jobs = ( { workload = \"barrier\"; nodes = 4; },\n"
          "  { workload = \"incast\"; after = \"barrier\";\n"
          "    allocation = \"same\"; },\n"
          "  { workload = \"alltoall\"; after = \"barrier\";\n"
          "    allocation = \"same\"; } );",
          ":5: error: jobs[2]: jobs[1] takes the nodes of \"barrier\" too" },
        { "jobs = ( { workload = \"barrier\"; nodes = 8; },\n"
          "  { workload = \"halo3d\"; after = \"barrier\";\n"
          "    allocation = \"same\"; px = 3; } );",
          ":3: error: jobs[1]: halo3d on 8 ranks: " },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  variant_order = \"shuffled\"; } );",
          ":3: error: jobs[0]: variant_order orders alternated variants; "
          "this job has none" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  variants = [\"default\", \"high-bias\"];\n"
          "  variant_order = \"random\"; } );",
          "jobs[0].variant_order: " },
        { "app_aware = { cutoff = 100; };",
          "app_aware: the app-aware controller's parameters apply to jobs" },
        { "jobs = ( { workload = \"barrier\"; nodes = 2; } );\n"
          "app_aware = { factor_lat = 0.0; };",
          ":3: error: app_aware.factor_lat: value 0 is out of range" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "system = { name = \"xc-12cab\"; };\n%s\n",
                 cases[i].jobs);
        struct capture c;
        cap_init(&c);
        struct experiment e;
        CHECK(load(&e, text, &c) != 0);
        if (!strstr(cap_text(&c), cases[i].want)) {
            test_failures++;
            fprintf(stderr, "  case %zu: want \"%s\" in:\n%s", i,
                    cases[i].want, cap_text(&c));
        }
        cap_free(&c);
    }
}

/* A run's result files, as text. */
struct run_out {
    char *jobs, *iters, *ranks, *metrics, *variants;
    size_t nj, ni, nr, nm, nv;
};

static int run_text(const char *text, struct run_out *o, struct capture *c)
{
    memset(o, 0, sizeof *o);
    struct experiment e;
    if (load(&e, text, c) != 0)
        return -2;
    struct topo t;
    struct net_params np;
    int rc = -2;
    if (experiment_build_topo(&e, &t, &c->d) != 0)
        goto out;
    if (experiment_net_params(&e, &t, &np, &c->d) == 0) {
        FILE *fj = open_memstream(&o->jobs, &o->nj);
        FILE *fi = open_memstream(&o->iters, &o->ni);
        FILE *fr = open_memstream(&o->ranks, &o->nr);
        FILE *fm = open_memstream(&o->metrics, &o->nm);
        FILE *fv = open_memstream(&o->variants, &o->nv);
        struct jobs_output out = { .writer = &jobs_results_writer,
                                   .jobs = fj, .iterations = fi,
                                   .ranks = fr, .metrics = fm,
                                   .variants = fv, .header = true };
        simtime end = 0;
        rc = jobs_run(&e.jobs, &t, &np, (uint64_t)e.info.seed,
                      e.info.time_limit, &out, &end, &c->d);
        if (rc >= 0)
            CHECK(end > 0);
        fclose(fj);
        fclose(fi);
        fclose(fr);
        fclose(fm);
        fclose(fv);
    }
    topo_free(&t);
out:
    experiment_free(&e);
    return rc;
}

static void run_free(struct run_out *o)
{
    free(o->jobs);
    free(o->iters);
    free(o->ranks);
    free(o->metrics);
    free(o->variants);
}

/* Whether a run_text returned 0; if not, the check fails, the messages
 * are shown and o and c are freed (the caller returns). */
static bool ran(int rc, struct run_out *o, struct capture *c)
{
    CHECK_EQ_U(rc, 0);
    if (rc == 0)
        return true;
    fprintf(stderr, "%s", cap_text(c));
    run_free(o);
    cap_free(c);
    return false;
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* The value of column `col` (0-based) of the line that starts with
 * `prefix`, as a number; -1 when absent or empty. */
static double field(const char *csv, const char *prefix, int col)
{
    const char *p = csv;
    size_t n = strlen(prefix);
    while (p && *p) {
        if (strncmp(p, prefix, n) == 0) {
            for (int i = 0; i < col; i++) {
                p = strchr(p, ',');
                if (!p)
                    return -1;
                p++;
            }
            if (*p == ',' || *p == '\n')
                return -1;
            return strtod(p, NULL);
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

static const char two_jobs[] =
    "experiment = { seed = 5; };\n"
    "system = { name = \"xc-12cab\"; };\n"
    "jobs = (\n"
    "  { name = \"ar\"; workload = \"allreduce\"; nodes = 3; ppn = 4;\n"
    "    allocation = \"list\"; node_list = \"100,7,300\";\n"
    "    bytes = 4096; iterations = 4; },\n"
    "  { name = \"pp\"; workload = \"pingpong\"; allocation = \"pair\";\n"
    "    distance = \"different-groups\"; iterations = 3;\n"
    "    start_us = 20.0; },\n"
    "  { name = \"bg\"; workload = \"gpcnet-rma-incast\"; nodes = 8;\n"
    "    allocation = \"random\"; background = true; }\n"
    ");\n";

/* One run of three jobs: every file has its rows, the iterations add up
 * to the run time, ranks sit on the nodes the list gave, the start offset
 * holds, the background job is stopped. */
static void test_run(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text(two_jobs, &o, &c);
    if (!ran(rc, &o, &c))
        return;
    CHECK(strncmp(o.jobs, "run,job,name,workload,nodes,ppn,ranks,allocation,"
                          "background,start_us,end_us,time_us,finished,"
                          "iterations,msgs,bytes\n",
                  60) == 0);
    CHECK_EQ_U(count_lines(o.jobs), 4);
    CHECK_STR_CONTAINS(o.jobs, "\n0,0,ar,allreduce,3,4,12,list,0,0.000000,");
    CHECK_STR_CONTAINS(o.jobs, "\n0,1,pp,pingpong,2,1,2,pair,0,20.000000,");
    CHECK_STR_CONTAINS(o.jobs, "\n0,2,bg,gpcnet-rma-incast,8,1,8,random,1,"
                               "0.000000,,,0,");
    /* ar: finished, 4 iterations that add up to its run time */
    CHECK_EQ_U((unsigned)field(o.jobs, "0,0,ar,", 12), 1);
    CHECK_EQ_U((unsigned)field(o.jobs, "0,0,ar,", 13), 4);
    double run = field(o.jobs, "0,0,ar,", 11);
    CHECK(run > 0);
    double sum = 0;
    for (int k = 0; k < 4; k++) {
        char pre[32];
        snprintf(pre, sizeof pre, "0,0,ar,%d,", k);
        double it = field(o.iters, pre, 7);
        CHECK(it > 0);
        sum += it;
    }
    double last = field(o.iters, "0,0,ar,3,", 6);
    CHECK_NEAR(sum, last, 1e-5);
    CHECK(last <= run + 1e-6);
    /* pp: starts at 20 us, 3 iterations, each above 2 us (half a round
     * trip to another group is ~1.8 us for 8 B; 1 KiB more) */
    double pp_end = field(o.jobs, "0,1,pp,", 10);
    CHECK(pp_end > 20.0);
    CHECK(field(o.iters, "0,1,pp,0,", 6) > 20.0);
    CHECK(field(o.iters, "0,1,pp,0,", 7) > 2.0 * 1.8);
    unsigned bg_iters = (unsigned)field(o.jobs, "0,2,bg,", 13);
    CHECK(bg_iters > 0);
    CHECK_EQ_U(count_lines(o.iters), 1 + 4 + 3 + bg_iters);
    /* ranks: 12 + 2 + 8, rank r of ar on the list's node r / 4 */
    CHECK_EQ_U(count_lines(o.ranks), 1 + 12 + 2 + 8);
    CHECK_STR_CONTAINS(o.ranks, "\n0,0,ar,0,100,");
    CHECK_STR_CONTAINS(o.ranks, "\n0,0,ar,3,100,");
    CHECK_STR_CONTAINS(o.ranks, "\n0,0,ar,4,7,");
    CHECK_STR_CONTAINS(o.ranks, "\n0,0,ar,11,300,");

    /* same file, same seed: the same bytes */
    struct run_out o3;
    CHECK_EQ_U(run_text(two_jobs, &o3, &c), 0);
    CHECK(o.jobs && o3.jobs && strcmp(o.jobs, o3.jobs) == 0);
    CHECK(o.iters && o3.iters && strcmp(o.iters, o3.iters) == 0);
    CHECK(o.ranks && o3.ranks && strcmp(o.ranks, o3.ranks) == 0);
    run_free(&o3);

    /* another seed: the random job lands elsewhere */
    char other[sizeof two_jobs];
    snprintf(other, sizeof other, "%s", two_jobs);
    char *s = strstr(other, "seed = 5");
    s[7] = '6';
    CHECK_EQ_U(run_text(other, &o3, &c), 0);
    const char *bg1 = strstr(o.ranks, "\n0,2,bg,");
    const char *bg3 = o3.ranks ? strstr(o3.ranks, "\n0,2,bg,") : NULL;
    CHECK(bg1 && bg3 && strncmp(bg1, bg3, 40) != 0);
    run_free(&o3);
    run_free(&o);
    cap_free(&c);
}

/* --quick (experiment_quicken) cuts what costs and only that: runs to
 * one, simulated time to 25 us, probe pairs to 2, a job's iterations to
 * its warm-up plus two (one warm-up at most); a file already within the
 * bounds keeps its values. */
static void test_quicken_bounds(void)
{
    struct capture c;
    cap_init(&c);
    struct experiment e;
    int rc = load(&e,
                  "experiment = { runs = 3; time_limit_ms = 5.0; };\n"
                  "system = { name = \"xc-12cab\"; groups = 3; };\n"
                  "probe = { pairs = 8; };\n"
                  "jobs = ( { name = \"a\"; workload = \"pingpong\";\n"
                  "           nodes = 2; iterations = 40; warmup = 5; },\n"
                  "         { name = \"b\"; workload = \"pingpong\";\n"
                  "           nodes = 2; iterations = 1; } );\n",
                  &c);
    CHECK_EQ_U(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s", c.text ? c.text : "");
        cap_free(&c);
        return;
    }
    CHECK(!e.quick);
    experiment_quicken(&e);
    CHECK(e.quick);
    CHECK_EQ_U(e.info.runs, 1);
    /* the jobs start at 0: 1 ms past the latest start (exp/quick.c) */
    CHECK_EQ_U(e.info.time_limit, 1000 * SIMTIME_US);
    CHECK_STR_CONTAINS(e.quick_note, "time limit (experiment.time_limit_ms) "
                                     "5 ms to 1000.0 us");
    CHECK_EQ_U(e.probe.pairs, 2);
    CHECK_EQ_U(e.jobs.job[0].warmup, 1);
    const struct workload *w =
        (const struct workload *)e.jobs.job[0].workload;
    CHECK_EQ_U(w->iterations(e.jobs.job[0].params), 3);
    CHECK_EQ_U(w->iterations(e.jobs.job[1].params), 1);
    experiment_free(&e);
    /* starts compressed to 10 us in order, the limit 1 ms past them;
     * an all-to-all's blocks at their --quick cap, a ping-pong's 8 B
     * as they are (cfg_key.quick) */
    rc = load(&e,
              "system = { name = \"xc-12cab\"; groups = 3; };\n"
              "jobs = ( { name = \"a2a\"; workload = \"alltoall\";\n"
              "           nodes = 8; bytes = 16384; start_us = 400.0; },\n"
              "         { name = \"pp\"; workload = \"pingpong\";\n"
              "           nodes = 2; bytes = 8; start_us = 100.0; } );\n",
              &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        experiment_quicken(&e);
        CHECK_EQ_U(e.jobs.job[0].start, 10 * SIMTIME_US);
        CHECK_EQ_U(e.jobs.job[1].start, 10 * SIMTIME_US / 4);
        CHECK_EQ_U(e.info.time_limit, 1010 * SIMTIME_US);
        CHECK_STR_CONTAINS(e.quick_note,
                           "job a2a (alltoall): bytes 16384 -> 64\n");
        CHECK(!strstr(e.quick_note, "job pp "));
        CHECK(e.jobs.mpi.compute_scale == 0.01);
        experiment_free(&e);
    }
    /* a chain of three: a window for each (exp/quick.c) */
    rc = load(&e,
              "system = { name = \"xc-12cab\"; groups = 3; };\n"
              "jobs = ( { name = \"a\"; workload = \"pingpong\"; nodes = 2; },\n"
              "         { name = \"b\"; workload = \"pingpong\"; nodes = 2;\n"
              "           after = \"a\"; },\n"
              "         { name = \"c\"; workload = \"pingpong\"; nodes = 2;\n"
              "           after = \"b\"; } );\n",
              &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        experiment_quicken(&e);
        CHECK_EQ_U(e.info.time_limit, 3000 * SIMTIME_US);
        experiment_free(&e);
    }
    /* a short limit stays as the file has it */
    rc = load(&e, "experiment = { time_limit_ms = 0.01; };\n"
                  "system = { name = \"xc-12cab\"; groups = 3; };\n", &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        experiment_quicken(&e);
        CHECK_EQ_U(e.info.time_limit, 10 * SIMTIME_US);
        experiment_free(&e);
    }
    cap_free(&c);
}

/* A foreground job still running at experiment.time_limit_ms: the run
 * returns 1 and writes it as unfinished, with the iterations it did. */
static void test_time_limit(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text("experiment = { time_limit_ms = 0.05; };\n"
                      "system = { name = \"xc-12cab\"; };\n"
                      "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
                      "  compute_us = 10.0; iterations = 100; } );\n",
                      &o, &c);
    CHECK_EQ_U(rc, 1);
    CHECK_STR_CONTAINS(o.jobs, "\n0,0,barrier,barrier,4,1,4,linear,0,"
                               "0.000000,,,0,");
    double iters = field(o.jobs, "0,0,barrier,", 13);
    /* 10 us of compute per iteration: at most 5 in 50 us, at least 3 */
    CHECK(iters >= 3 && iters <= 5);
    run_free(&o);
    cap_free(&c);
}

/* A tiled router's row buffer is put on a column buffer's wait list only
 * once. A packet a row buffer moves on may be granted at once; the grant
 * lets other row buffers move on, and through them an input refills this
 * row buffer and moves it on again, nested inside the first call, which
 * then found its new head blocked and listed it a second time: a list
 * entry was left behind whose head had gone (a crash on the Gemini torus
 * under MiniGhost: examples/cug-fig6.cfg with the paper's 1 x 1 x 16
 * rows). This is the smallest case found that did it; router.c asserts the
 * invariant where a row buffer joins a list. */
static void test_tiled_row_buffer_listed_once(void)
{
    static const char text[] =
        "experiment = { seed = 3; time_limit_ms = 0.1; };\n"
        "system = { topology = \"torus\"; x = 3; y = 5; z = 5; };\n"
        "jobs = (\n"
        "  { name = \"mg\"; workload = \"minighost\"; nodes = 64;\n"
        "    ppn = 16; allocation = \"random\"; nx = 20; ny = 20;\n"
        "    nz = 20; num_vars = 5; px = 16; py = 8; pz = 8;\n"
        "    iterations = 1; }\n"
        ");\n";
    struct capture c;
    cap_init(&c);
    struct run_out o;
    CHECK_EQ_U(run_text(text, &o, &c), 1);
    /* it ran to the limit (the list was broken by then), not finished,
     * its messages on the network */
    CHECK_STR_CONTAINS(o.jobs, "\n0,0,mg,minighost,64,16,1024,random,0,");
    CHECK(field(o.jobs, "0,0,mg,", 12) == 0);
    CHECK(field(o.jobs, "0,0,mg,", 16) > 100000); /* packets */
    run_free(&o);
    cap_free(&c);
}

/* A chain of jobs in one allocation (after, allocation = "same"): each
 * starts start_us after the one it follows has ended, on that job's nodes
 * (the first `nodes` of them); a job waiting on one that never ends never
 * starts and is written so (empty start). */
static void test_chain(void)
{
    static const char body[] =
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = (\n"
        "  { name = \"a\"; workload = \"pingpong\"; nodes = 6;\n"
        "    allocation = \"random\"; iterations = 3; peer = 5; },\n"
        "  { name = \"b\"; workload = \"allreduce\"; after = \"a\";\n"
        "    allocation = \"same\"; iterations = 2; start_us = 1.5; },\n"
        "  { name = \"c\"; workload = \"barrier\"; after = \"b\";\n"
        "    allocation = \"same\"; nodes = 4; iterations = 2;\n"
        "    variants = [\"default\", \"app-aware\"]; },\n"
        "  { name = \"bg\"; workload = \"gpcnet-a2a\"; nodes = 8;\n"
        "    allocation = \"random\"; background = true; }\n"
        ");\n";
    char text[1024];
    snprintf(text, sizeof text, "experiment = { seed = 3; };\n%s", body);
    struct capture c;
    cap_init(&c);
    struct run_out o;
    if (!ran(run_text(text, &o, &c), &o, &c))
        return;
    double a_end = field(o.jobs, "0,0,a,", 10);
    double b_start = field(o.jobs, "0,1,b,", 9);
    double b_end = field(o.jobs, "0,1,b,", 10);
    double c_start = field(o.jobs, "0,2,c,", 9);
    CHECK(a_end > 0 && b_end > b_start && c_start > 0);
    CHECK(fabs(b_start - (a_end + 1.5)) < 1e-6);
    CHECK(fabs(c_start - b_end) < 1e-6);
    CHECK_STR_CONTAINS(o.jobs, "\n0,2,c,barrier,4,1,4,same,0,");
    /* b on a's nodes rank by rank, c on the first four; the background
     * job elsewhere */
    for (int r = 0; r < 6; r++) {
        char pa[32], pb[32], pc[32];
        snprintf(pa, sizeof pa, "0,0,a,%d,", r);
        snprintf(pb, sizeof pb, "0,1,b,%d,", r);
        snprintf(pc, sizeof pc, "0,2,c,%d,", r);
        double na = field(o.ranks, pa, 4);
        CHECK(na >= 0);
        CHECK_EQ_U((unsigned)field(o.ranks, pb, 4), (unsigned)na);
        if (r < 4)
            CHECK_EQ_U((unsigned)field(o.ranks, pc, 4), (unsigned)na);
        else
            CHECK(field(o.ranks, pc, 4) < 0); /* no such rank */
        for (int k = 0; k < 8; k++) {
            char pg[32];
            snprintf(pg, sizeof pg, "0,3,bg,%d,", k);
            CHECK(field(o.ranks, pg, 4) != na);
        }
    }
    /* c's first iteration counts from c's start, not from time 0 */
    double it0 = field(o.iters, "0,2,c,0,", 7);
    double end0 = field(o.iters, "0,2,c,0,", 6);
    CHECK(fabs(end0 - it0 - c_start) < 1e-6);
    run_free(&o);

    /* a cut off by the time limit: b never starts */
    snprintf(text, sizeof text,
             "experiment = { seed = 3; time_limit_ms = 0.004; };\n%s", body);
    CHECK_EQ_U(run_text(text, &o, &c), 1);
    CHECK_STR_CONTAINS(o.jobs, "\n0,1,b,allreduce,6,1,6,same,0,,,,0,0,");
    run_free(&o);
    cap_free(&c);
}

/* Every workload: its keys store inside its parameter struct, its
 * defaults initialise on 8 ranks (or, for a workload with a required key,
 * are refused naming that key), and its page documents every key. */
static void test_registry(void)
{
    CHECK(workload_registry.n >= 15);
    for (size_t i = 0; i < workload_registry.n; i++) {
        const struct workload *w =
            (const struct workload *)workload_registry.entries[i];
        CHECK(registry_find(&workload_registry, w->base.name) == &w->base);
        _Alignas(16) unsigned char params[WORKLOAD_PARAMS_MAX];
        _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
        w->defaults(params);
        struct workload_env env = { .nranks = 8, .ppn = 1, .seed = 1 };
        char err[256] = "";
        int rc = w->init(state, params, &env, err, sizeof err);
        if (w->required) { /* otf2's trace: nothing to run without it */
            CHECK(rc != 0);
            CHECK_STR_CONTAINS(err, w->required);
            rc = -1;
        } else if (rc != 0) {
            fprintf(stderr, "  %s: %s\n", w->base.name, err);
        }
        CHECK(w->required || rc == 0);
        if (rc == 0) {
            struct dmpi_app a = w->app(state);
            CHECK(a.next != NULL);
            w->free(state);
        }
        char path[256];
        snprintf(path, sizeof path, "docs/workloads/%s.md", w->base.name);
        char *doc = read_text(src_path(path));
        if (!doc) {
            test_failures++;
            fprintf(stderr, "  %s is missing\n", path);
            continue;
        }
        for (const struct cfg_key *k = w->keys; k->name; k++) {
            CHECK(k->offset < WORKLOAD_PARAMS_MAX);
            char want[96];
            snprintf(want, sizeof want, "`%s`", k->name);
            if (!strstr(doc, want)) {
                test_failures++;
                fprintf(stderr, "  %s does not document %s\n", path, want);
            }
        }
        free(doc);
    }
}

/* `dfsim run` with jobs: the table, the three files, the exit status;
 * a run cut by its time limit fails but keeps its rows. */
static void test_cli(void)
{
    static char out[1 << 16], err[1 << 16];
    char dir[64] = "/tmp/dfsim-jobs-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp("cli.cfg", two_jobs);
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "jobs: 3 sharing the machine, routing "
                            "ADAPTIVE_0");
    CHECK_STR_CONTAINS(out, "\nar                   allreduce");
    CHECK_STR_CONTAINS(out, "(stopped)");
    CHECK_STR_CONTAINS(out, "jobs.csv, iterations.csv, ranks.csv, "
                            "metrics.csv, variants.csv, load.csv, "
                            "runs.csv)");
    static const char *const files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "probe.csv", "topology.json" };
    for (size_t i = 0; i < 6; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        CHECK(access(p, R_OK) == 0);
        unlink(p);
    }
    const char *lim = write_temp(
        "lim.cfg", "experiment = { time_limit_ms = 0.02; };\n"
                   "system = { name = \"xc-12cab\"; };\n"
                   "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
                   "  compute_us = 10.0; iterations = 100; } );\n");
    /* another experiment in the same folder: --force replaces it */
    const char *argv2[] = { "run", lim, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(argv2, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "the jobs of run 0 had not ended after "
                            "experiment.time_limit_ms (0.020 ms");
    CHECK_STR_CONTAINS(out, "(unfinished)");
    for (size_t i = 0; i < 6; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        if (i < 4)
            CHECK(access(p, R_OK) == 0);
        unlink(p);
    }
    rm_dir(dir);
    unlink(cfg);
    unlink(lim);
}

/* Every examples/jobs-*.cfg and sc19-*.cfg, and the main job's
 * examples/default.cfg, reads, builds and places its jobs without an
 * error. (Running them all
 * would take minutes under the sanitizers; jobs-micro.cfg runs in full,
 * `make run` runs default.cfg.) */
static void test_examples(void)
{
    glob_t g;
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s", src_path("examples/jobs-*.cfg"));
    CHECK(glob(pattern, 0, NULL, &g) == 0);
    CHECK(g.gl_pathc >= 4);
    snprintf(pattern, sizeof pattern, "%s", src_path("examples/default.cfg"));
    CHECK(glob(pattern, GLOB_APPEND, NULL, &g) == 0);
    snprintf(pattern, sizeof pattern, "%s", src_path("examples/sc19-*.cfg"));
    CHECK(glob(pattern, GLOB_APPEND, NULL, &g) == 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct capture c;
        cap_init(&c);
        struct experiment e;
        int rc = experiment_load(&e, g.gl_pathv[i], -1, &c.d);
        struct topo t;
        struct net_params np;
        if (rc == 0) {
            rc = experiment_build_topo(&e, &t, &c.d);
            if (rc == 0) {
                rc = experiment_net_params(&e, &t, &np, &c.d);
                if (rc == 0 && e.jobs.n == 0)
                    rc = -1;
                /* placement: the allocations fit */
                struct alloc_request req[64];
                uint32_t *nodes[64] = { 0 };
                CHECK(e.jobs.n <= 64);
                for (uint32_t k = 0; rc == 0 && k < e.jobs.n && k < 64;
                     k++) {
                    const struct job_config *j = &e.jobs.job[k];
                    alloc_request_init(&req[k]);
                    req[k].policy = alloc_policy_of(j->allocation);
                    req[k].params = j->alloc_params;
                    req[k].nodes = j->nodes;
                }
                if (rc == 0)
                    rc = alloc_place(&t, req, e.jobs.n, 1, nodes, &c.d);
                if (rc == 0)
                    alloc_free(nodes, e.jobs.n);
                topo_free(&t);
            }
            experiment_free(&e);
        }
        if (rc != 0)
            fprintf(stderr, "  %s:\n%s", g.gl_pathv[i], cap_text(&c));
        CHECK_EQ_U(rc, 0);
        cap_free(&c);
    }
    globfree(&g);
    static char out[1 << 16], err[1 << 16];
    char dir[64] = "/tmp/dfsim-jobs-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cfg[1024];
    snprintf(cfg, sizeof cfg, "%s", src_path("examples/jobs-micro.cfg"));
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    static const char *const files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "probe.csv", "topology.json" };
    for (size_t i = 0; i < 6; i++) {
        char p[1100];
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        CHECK(access(p, R_OK) == 0);
        unlink(p);
    }
    rm_dir(dir);
}

/* Variants alternate iteration by iteration: iterations.csv names each
 * iteration's, variants.csv has a row per variant with its share of the
 * iterations and where its bytes went (default: ADAPTIVE_0; high-bias:
 * ADAPTIVE_3; an alltoall under default: ADAPTIVE_1), normalised to the
 * first variant. A controller that sets Aries modes on a torus is an
 * error naming the job (on the dragonflies the model can run them). */
static void test_variants(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text(
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = (\n"
        "  { name = \"pp\"; workload = \"pingpong\"; allocation = "
        "\"pair\";\n"
        "    distance = \"different-groups\"; bytes = 65536;\n"
        "    iterations = 7; warmup = 1;\n"
        "    variants = [\"default\", \"high-bias\", \"app-aware\"]; },\n"
        "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 4;\n"
        "    bytes = 1024; iterations = 2; routing = \"default\"; },\n"
        "  { name = \"plain\"; workload = \"barrier\"; nodes = 2; }\n"
        ");\n",
        &o, &c);
    if (!ran(rc, &o, &c))
        return;
    CHECK_STR_CONTAINS(o.iters,
                       "run,job,name,iteration,variant,counted,end_us,"
                       "time_us,model_us,lat_us,stall_cycles,packets,"
                       "nonmin_share,hops_mean\n");
    CHECK_STR_CONTAINS(o.iters, "\n0,0,pp,0,default,");
    CHECK_STR_CONTAINS(o.iters, "\n0,0,pp,1,high-bias,");
    CHECK_STR_CONTAINS(o.iters, "\n0,0,pp,2,app-aware,");
    CHECK_STR_CONTAINS(o.iters, "\n0,0,pp,3,default,");
    CHECK_STR_CONTAINS(o.iters, "\n0,2,plain,0,network,");
    /* 7 iterations, the first left out: 2 each */
    CHECK_STR_CONTAINS(o.variants, "\n0,0,pp,default,2,");
    CHECK_STR_CONTAINS(o.variants, "\n0,0,pp,high-bias,2,");
    CHECK_STR_CONTAINS(o.variants, "\n0,0,pp,app-aware,2,");
    CHECK(strstr(o.variants, "share_ADAPTIVE_0") != NULL);
    /* columns: share of the modes network (0), then as added */
    const char *hdr = o.variants;
    int col_a0 = -1, col_a3 = -1, col_a1 = -1, col = 0;
    for (const char *q = hdr; *q && *q != '\n'; q++) {
        if (*q != ',')
            continue;
        col++;
        if (strncmp(q + 1, "share_ADAPTIVE_0,", 17) == 0 && col_a0 < 0)
            col_a0 = col;
        if (strncmp(q + 1, "share_ADAPTIVE_3", 16) == 0)
            col_a3 = col;
        if (strncmp(q + 1, "share_ADAPTIVE_1", 16) == 0)
            col_a1 = col;
    }
    CHECK(col_a0 > 0 && col_a1 > 0 && col_a3 > 0);
    CHECK_NEAR(field(o.variants, "0,0,pp,default,", col_a0), 1.0, 1e-9);
    CHECK_NEAR(field(o.variants, "0,0,pp,high-bias,", col_a3), 1.0, 1e-9);
    CHECK_NEAR(field(o.variants, "0,0,pp,default,", 14), 1.0, 1e-9);
    double aa = field(o.variants, "0,0,pp,app-aware,", col_a0) +
                field(o.variants, "0,0,pp,app-aware,", col_a3);
    CHECK_NEAR(aa, 1.0, 1e-9);
    /* the alltoall under default: ADAPTIVE_1 */
    CHECK_NEAR(field(o.variants, "0,1,a2a,default,", col_a1), 1.0, 1e-9);
    /* every byte of a variant counted, warm-up included: default ran 3
     * of the 7 iterations (0, 3, 6), high-bias 2 */
    CHECK_EQ_U(2 * (uint64_t)field(o.variants, "0,0,pp,default,", 16),
               3 * (uint64_t)field(o.variants, "0,0,pp,high-bias,", 16));
    CHECK(field(o.variants, "0,0,pp,default,", 16) > 0);
    run_free(&o);
    cap_free(&c);

    /* app-aware between its iterations. A 64 KiB ping-pong is a GET
     * from each NIC per iteration (one counter read), between SMSG posts
     * (RTS, FIN: ADAPTIVE_3, which also become the mode reused while no
     * sample exists). With variant_restart every read is a new baseline:
     * no sample ever comes, no decision is taken, and exactly one GET —
     * the first of the NIC that posts a GET before any SMSG — goes with
     * the library's starting mode, ADAPTIVE_0. By default the samples
     * span the other variant's iterations, decisions are taken and the
     * share changes (on this quiet network both modes measure the same
     * L and no stalls, so Eq. 4 turns on the sign of the latency
     * difference of two samples). */
    double share[2], bytes = 0;
    for (int restart = 0; restart < 2; restart++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "system = { name = \"xc-12cab\"; };\n"
                 "app_aware = { variant_restart = %s; };\n"
                 "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
                 "  allocation = \"pair\"; distance = \"different-groups\";\n"
                 "  bytes = 65536; iterations = 12;\n"
                 "  variants = [\"default\", \"app-aware\"]; } );\n",
                 restart ? "true" : "false");
        cap_init(&c);
        CHECK_EQ_U(run_text(text, &o, &c), 0);
        share[restart] = o.variants
                             ? field(o.variants, "0,0,pp,app-aware,", col_a0)
                             : -1;
        if (restart && o.variants)
            bytes = field(o.variants, "0,0,pp,app-aware,", 16);
        run_free(&o);
        cap_free(&c);
    }
    /* shuffled: every round of three iterations runs each variant once,
     * not always in the alternated order, and the same way every time */
    char *first = NULL;
    for (int rep = 0; rep < 2; rep++) {
        cap_init(&c);
        CHECK_EQ_U(run_text("experiment = { seed = 4; };\n"
                            "system = { name = \"xc-12cab\"; };\n"
                            "jobs = ( { name = \"b\"; workload = "
                            "\"barrier\"; nodes = 4;\n"
                            "  iterations = 30; variant_order = "
                            "\"shuffled\";\n"
                            "  variants = [\"default\", \"high-bias\", "
                            "\"app-aware\"]; } );\n",
                            &o, &c),
                   0);
        const char *names[3] = { "default", "high-bias", "app-aware" };
        int rotated = 0;
        for (int b = 0; b < 10 && o.iters; b++) {
            int seen[3] = { 0, 0, 0 };
            for (int k = 0; k < 3; k++) {
                char pre[32];
                snprintf(pre, sizeof pre, "\n0,0,b,%d,", 3 * b + k);
                const char *row = strstr(o.iters, pre);
                CHECK(row != NULL);
                for (int v = 0; row && v < 3; v++) {
                    size_t l = strlen(pre);
                    if (strncmp(row + l, names[v], strlen(names[v])) == 0 &&
                        row[l + strlen(names[v])] == ',') {
                        seen[v]++;
                        rotated += v != k;
                    }
                }
            }
            CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
        }
        CHECK(rotated > 0);
        if (rep == 0)
            first = o.iters ? strdup(o.iters) : NULL;
        else
            CHECK(first && o.iters && strcmp(first, o.iters) == 0);
        run_free(&o);
        cap_free(&c);
    }
    free(first);

    CHECK(bytes > 12 * 65536);
    CHECK_NEAR(share[1] * bytes, 65536.0, 1.0); /* 6 decimals of share */
    CHECK(share[0] >= 0 && fabs(share[0] - share[1]) > 1e-3);

    cap_init(&c);
    rc = run_text("system = { name = \"cielo\"; };\n"
                  "jobs = ( { name = \"x\"; workload = \"barrier\"; "
                  "nodes = 2;\n  routing = \"high-bias\"; } );\n",
                  &o, &c);
    CHECK(rc == -1);
    CHECK_STR_CONTAINS(cap_text(&c), ":2: error: job \"x\": routing "
                                     "controller \"high-bias\" sets "
                                     "ADAPTIVE_3, which a torus system "
                                     "cannot use");
    run_free(&o);
    cap_free(&c);
}

/* SC'19's model estimate beside the measured time: every iteration of a
 * job with `model` has one, from its rank 0's NIC counters; on a quiet
 * network it is the model's T for one message, (p + 512)/1024 L +
 * f (s + 1) with s = 0: larger messages estimate longer, and the estimate
 * of a 64 KiB message is at least its f = 5120 flits of 1.25 ns; a
 * correlation is written per variant. Gemini NICs lack the counters. */
static void test_model(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text(
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = (\n"
        "  { name = \"small\"; workload = \"pingpong\"; bytes = 1024;\n"
        "    allocation = \"pair\"; distance = \"same-group\";\n"
        "    iterations = 8; model = true; },\n"
        "  { name = \"big\"; workload = \"pingpong\"; bytes = 65536;\n"
        "    allocation = \"pair\"; distance = \"same-group\";\n"
        "    iterations = 8; model = true; },\n"
        "  { name = \"none\"; workload = \"pingpong\"; bytes = 8;\n"
        "    nodes = 2; iterations = 2; }\n"
        ");\n",
        &o, &c);
    if (!ran(rc, &o, &c))
        return;
    CHECK_STR_CONTAINS(o.iters, "end_us,time_us,model_us,lat_us,"
                                "stall_cycles,");
    for (int k = 0; k < 8; k++) {
        char a[32], b[32];
        snprintf(a, sizeof a, "0,0,small,%d,", k);
        snprintf(b, sizeof b, "0,1,big,%d,", k);
        double ea = field(o.iters, a, 8), eb = field(o.iters, b, 8);
        CHECK(ea > 0 && eb > ea);
        CHECK(eb >= 5120 * 1.25e-3);
        CHECK(eb < field(o.iters, b, 7)); /* one message of a round trip */
        /* L: a packet's request-response round trip inside a group:
         * 2 x up to 2 router hops of ~100 ns and wires, plus the
         * serialisation at both NICs: between 0.3 and 3 us on a quiet
         * network (SC'19: thousands of 1.25 ns cycles); s >= 0 */
        CHECK(field(o.iters, a, 9) > 0.3 && field(o.iters, a, 9) < 3.0);
        CHECK(field(o.iters, b, 10) >= 0);
    }
    /* no model: the column is empty */
    CHECK_STR_CONTAINS(o.iters, "\n0,2,none,0,network,");
    CHECK(field(o.iters, "0,2,none,0,", 8) < 0);
    CHECK(strstr(o.variants, ",model_corr,") != NULL);
    run_free(&o);
    cap_free(&c);

    cap_init(&c);
    rc = run_text("system = { name = \"cielo\"; };\n"
                  "jobs = ( { name = \"g\"; workload = \"pingpong\"; "
                  "nodes = 2;\n  model = true; } );\n",
                  &o, &c);
    CHECK(rc == -1);
    CHECK_STR_CONTAINS(cap_text(&c), "g: the model reads a NIC counter of "
                                     "request to response latency, summed "
                                     "(NIC queue excluded), which a torus "
                                     "system's NICs do not keep");
    run_free(&o);
    cap_free(&c);
}

static char *slurp_file(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return read_text(p);
}

static void put_file(const char *dir, const char *name, const char *text,
                     size_t len)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

static void rm_results(const char *dir)
{
    static const char *const names[] = {
        "jobs.csv", "iterations.csv", "ranks.csv", "metrics.csv",
        "variants.csv", "runs.csv", "probe.csv", "topology.json",
        "report.html", "report.log", "variants.dat", "variants.gp",
        "variants.svg", "model_corr.csv", "paths.dat", "paths.gp",
        "paths.svg", "paths.log", "load.csv", "experiment.settings" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rm_dir(dir);
}

/* experiment.runs: run r with seed + r, every file's rows tagged with
 * their run, runs.csv the ledger. An interrupted experiment (the last
 * run's rows half written, not in the ledger) resumed with --resume ends
 * with the same files, byte for byte, as one that ran through; resuming
 * another seed's results is refused. */
static void test_runs_resume(void)
{
    static char out[1 << 16], err[1 << 16];
    static const char cfg_text[] =
        "experiment = { seed = 5; runs = 3; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = (\n"
        "  { name = \"pp\"; workload = \"pingpong\"; bytes = 4096;\n"
        "    allocation = \"random\"; nodes = 2; iterations = 6;\n"
        "    variants = [\"default\", \"high-bias\"]; }\n"
        ");\n";
    const char *cfg = write_temp("runs.cfg", cfg_text);
    char a[64] = "/tmp/dfsim-runs-a-XXXXXX", b[64] = "/tmp/dfsim-runs-b-XXXXXX";
    CHECK(mkdtemp(a) != NULL && mkdtemp(b) != NULL);
    const char *argv[] = { "run", cfg, "-o", a, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "3 runs");
    CHECK_STR_CONTAINS(err, "run 3/3 (seed 7)");
    char *runs = slurp_file(a, "runs.csv");
    char *iters = slurp_file(a, "iterations.csv");
    CHECK(runs && iters);
    if (!runs || !iters) {
        free(runs);
        free(iters);
        return;
    }
    CHECK(strncmp(runs, "run,seed,end_us,finished,windowed\n0,5,", 38) == 0);
    /* one process: not windowed */
    CHECK(strstr(runs, ",0\n2,7,") != NULL);
    CHECK_STR_CONTAINS(runs, "\n1,6,");
    CHECK_STR_CONTAINS(runs, "\n2,7,");
    CHECK_STR_CONTAINS(iters, "\n0,0,pp,5,high-bias,1,");
    CHECK_STR_CONTAINS(iters, "\n2,0,pp,5,high-bias,1,");
    /* random allocations: the runs placed the job on different nodes */
    char *ranks = slurp_file(a, "ranks.csv");
    CHECK(ranks != NULL);
    if (ranks) {
        const char *r0 = strstr(ranks, "\n0,0,pp,0,");
        const char *r1 = strstr(ranks, "\n1,0,pp,0,");
        CHECK(r0 && r1 && strncmp(r0 + 3, r1 + 3, 16) != 0);
    }
    char *report = slurp_file(a, "report.html");
    CHECK(report && strstr(report, "<td>3</td><td>") != NULL);

    /* b: a copy of a interrupted in run 2 (its rows half written, not in
     * the ledger) */
    static const char *const names[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "variants.csv", "load.csv" };
    for (size_t i = 0; i < 6; i++) {
        char *t = slurp_file(a, names[i]);
        CHECK(t != NULL);
        if (!t)
            continue;
        size_t len = strlen(t);
        const char *cut = strstr(t, "\n2,");
        if (cut && i == 1)
            len = (size_t)(cut - t) + 9; /* mid-row */
        put_file(b, names[i], t, len);
        free(t);
    }
    const char *cut = strstr(runs, "\n2,");
    put_file(b, "runs.csv", runs, cut ? (size_t)(cut - runs) + 1 : 0);
    char *settings = slurp_file(a, "experiment.settings");
    CHECK(settings != NULL);
    if (settings)
        put_file(b, "experiment.settings", settings, strlen(settings));
    free(settings);
    /* and its manifest as dfsim leaves it then (exp/manifest.h): the
     * files being appended to, what they hold vouched for */
    static const char *const ledger[] = { "runs.csv" };
    CHECK_EQ_U(manifest_mark(b, names, 6, MANIFEST_GROWN, stderr), 0);
    CHECK_EQ_U(manifest_mark(b, ledger, 1, MANIFEST_GROWN, stderr), 0);
    const char *argv2[] = { "run", cfg, "-o", b, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(argv2, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: runs 1-2 of 3 were done");
    CHECK(!strstr(err, "run 1/3"));
    CHECK_STR_CONTAINS(err, "run 3/3 (seed 7)");
    for (size_t i = 0; i < 6; i++) {
        char *x = slurp_file(a, names[i]), *y = slurp_file(b, names[i]);
        CHECK(x && y && strcmp(x, y) == 0);
        if (x && y && strcmp(x, y) != 0)
            fprintf(stderr, "  %s differs after --resume\n", names[i]);
        free(x);
        free(y);
    }
    char *runs_b = slurp_file(b, "runs.csv");
    CHECK(runs_b && strcmp(runs, runs_b) == 0);
    free(runs_b);

    /* another seed: refused, nothing changed */
    const char *argv3[] = { "run", cfg, "-o", b, "--resume", "--seed", "9",
                            NULL };
    CHECK_EQ_U(run_dfsim(argv3, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "experiment file differs from the one");
    CHECK_STR_CONTAINS(err, "experiment.seed: 9 in ");
    free(runs);
    free(iters);
    free(ranks);
    free(report);
    rm_results(a);
    rm_results(b);
    unlink(cfg);
}

/* The normalised box plot's axis: it ends above the highest whisker
 * (type 7 quartiles of 1, 1, 1, 1.1, 1.2, 25: Q1 1, Q3 1.175, the upper
 * whisker at 1.2 <= Q3 + 1.5 IQR = 1.4375; 1.08 x 1.2 = 1.296), so the
 * outlier 25 is in the data but not drawn; a job name is split over its
 * size. */
static void test_report_axis(void)
{
    char dir[64] = "/tmp/dfsim-axis-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    double base[6] = { 1, 1, 1, 1, 1, 1 };
    double high[6] = { 1, 1.2, 1, 25, 1.1, 1 };
    struct report_series s[2] = {
        { .job = "pingpong-16KiB", .variant = "default",
          .workload = "pingpong", .norm = base, .raw = base, .n = 6,
          .runs = 1, .baseline_median = 1 },
        { .job = "pingpong-16KiB", .variant = "high-bias",
          .workload = "pingpong", .norm = high, .raw = high, .n = 6,
          .runs = 1, .baseline_median = 1 },
    };
    struct report_info info = { .title = "axis", .system = "xc-12cab",
                                .routing = "ADAPTIVE_0", .seed = 1 };
    bool drawn;
    CHECK_EQ_U(report_write(dir, &info, s, 2, &drawn, stderr), 0);
    char *gp = slurp_file(dir, "variants.gp");
    char *dat = slurp_file(dir, "variants.dat");
    CHECK(gp && dat);
    if (gp && dat) {
        CHECK_STR_CONTAINS(gp, "set yrange [0:1.296]\n");
        CHECK_STR_CONTAINS(gp, "(\"pingpong\\n16KiB\\n1.00 us");
        CHECK_STR_CONTAINS(dat, "25.000000\n");
    }
    free(gp);
    free(dat);
    rm_results(dir);
}

/* report.html and its plot: with one variant per job, the times
 * themselves on a log scale (SC'19 Fig. 3); with variants, normalised to
 * the first, the app-aware share under the job (Fig. 8). */
static void test_report(void)
{
    static char out[1 << 16], err[1 << 16];
    char dir[64] = "/tmp/dfsim-report-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *one = write_temp(
        "rep1.cfg", "experiment = { description = \"Two <distances>.\"; };\n"
                    "system = { name = \"xc-12cab\"; };\n"
                    "jobs = (\n"
                    "  { name = \"near\"; workload = \"pingpong\";\n"
                    "    allocation = \"pair\"; distance = \"same-router\";"
                    "\n    iterations = 8; },\n"
                    "  { name = \"far\"; workload = \"pingpong\";\n"
                    "    allocation = \"pair\"; distance = "
                    "\"different-groups\";\n    iterations = 8; }\n"
                    ");\n");
    const char *argv[] = { "run", one, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *gp = slurp_file(dir, "variants.gp");
    char *html = slurp_file(dir, "report.html");
    char *dat = slurp_file(dir, "variants.dat");
    CHECK(gp && html && dat);
    if (gp && html && dat) {
        CHECK_STR_CONTAINS(gp, "set logscale y");
        CHECK_STR_CONTAINS(gp, "iteration time (us)");
        CHECK_STR_CONTAINS(gp, "\"near\\n");
        CHECK_STR_CONTAINS(dat, "# far network\n");
        /* the description, escaped */
        CHECK_STR_CONTAINS(html, "Two &lt;distances&gt;.");
        CHECK_STR_CONTAINS(html, "<td>near</td><td>pingpong</td>"
                                 "<td>network</td><td>1</td><td>8</td>");
        bool svg = have_gnuplot();
        if (svg) {
            char *img = slurp_file(dir, "variants.svg");
            CHECK(img && strstr(img, "<svg") != NULL);
            free(img);
            /* the figure is in the page itself, its ids its own: the
             * page stands without its folder */
            CHECK_STR_CONTAINS(html, "<figure role=\"img\" aria-label=\"box "
                                     "plots of normalised iteration times"
                                     "\">\n<svg");
            CHECK(strstr(html, "<img src=") == NULL);
            CHECK(strstr(html, "id='gpPt") == NULL);
            CHECK(strstr(html, "href='#gpPt") == NULL);
            CHECK(strstr(html, "href='#variants-gpPt") == NULL ||
                  strstr(html, "id='variants-gpPt") != NULL);
        }
    }
    free(gp);
    free(html);
    free(dat);
    rm_results(dir);

    CHECK(mkdtemp(strcpy(dir, "/tmp/dfsim-report-XXXXXX")) != NULL);
    const char *two = write_temp(
        "rep2.cfg", "system = { name = \"xc-12cab\"; };\n"
                    "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
                    "  bytes = 65536; nodes = 2; iterations = 6;\n"
                    "  model = true;\n"
                    "  variants = [\"default\", \"app-aware\"]; },\n"
                    "  { name = \"small\"; workload = \"pingpong\";\n"
                    "  bytes = 128; nodes = 2; iterations = 6;\n"
                    "  model = true;\n"
                    "  variants = [\"default\", \"app-aware\"]; } );\n");
    const char *argv2[] = { "run", two, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv2, out, sizeof out, err, sizeof err), 0);
    gp = slurp_file(dir, "variants.gp");
    CHECK(gp != NULL);
    if (gp) {
        CHECK(!strstr(gp, "logscale"));
        CHECK_STR_CONTAINS(gp, "time / median of the job's first variant");
        CHECK_STR_CONTAINS(gp, "% ADAPTIVE_0/1\" 1");
        CHECK_STR_CONTAINS(gp, "title \"app-aware\"");
    }
    free(gp);
    /* the model's panels (SC'19 Fig. 7) */
    gp = slurp_file(dir, "model.gp");
    char *md = slurp_file(dir, "model.dat");
    CHECK(gp && md);
    if (gp && md) {
        CHECK_STR_CONTAINS(gp, "set multiplot layout 2,2");
        CHECK_STR_CONTAINS(gp, "stalls s (cycles/flit)");
        CHECK_STR_CONTAINS(md, "# pp app-aware\n");
        if (have_gnuplot()) {
            char *page = slurp_file(dir, "report.html");
            CHECK(page && strstr(page, "aria-label=\"latency, stalls and "
                                       "model\">\n<svg") != NULL);
            free(page);
        }
    }
    free(gp);
    free(md);
    /* SC'19 Fig. 5: a point per job and variant, QCD of time and of L */
    char *qd = slurp_file(dir, "qcd.dat");
    gp = slurp_file(dir, "qcd.gp");
    CHECK(qd && gp);
    if (qd && gp) {
        CHECK_STR_CONTAINS(qd, "# default\n1 ");
        CHECK_STR_CONTAINS(qd, "\n2 ");
        CHECK_STR_CONTAINS(qd, "# app-aware\n1 ");
        CHECK_STR_CONTAINS(gp, "title \"latency, app-aware\"");
    }
    free(qd);
    free(gp);
    char p2[128];
    static const char *const qn[] = { "qcd.dat", "qcd.gp", "qcd.svg",
                                      "qcd.log" };
    for (int q = 0; q < 4; q++) {
        snprintf(p2, sizeof p2, "%s/%s", dir, qn[q]);
        unlink(p2);
    }
    snprintf(p2, sizeof p2, "%s/model.gp", dir);
    unlink(p2);
    snprintf(p2, sizeof p2, "%s/model.dat", dir);
    unlink(p2);
    snprintf(p2, sizeof p2, "%s/model.svg", dir);
    unlink(p2);
    snprintf(p2, sizeof p2, "%s/model.log", dir);
    unlink(p2);
    rm_results(dir);
    unlink(one);
    unlink(two);
}

/* ---- SC'19 §2.4 over allocations: model_corr.csv and its table ---- */

/* Split line (modified) at commas into f[0..max); the field count. */
static int split_csv(char *line, char **f, int max)
{
    int k = 0;
    for (char *p = line;;) {
        char *c = strchr(p, ',');
        if (k < max)
            f[k] = p;
        k++;
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return k;
}

/* The next line of *p (NUL-terminated in place), NULL at the end. */
static char *next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *l = *p, *nl = strchr(l, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = l + strlen(l);
    }
    return l;
}

/* Pearson's r from the raw sums (the textbook one-pass formula, not
 * stats.c's two passes); NaN from fewer than 3 points or a constant. */
static double pearson_sums(const double *x, const double *y, int n)
{
    if (n < 3)
        return NAN;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        syy += y[i] * y[i];
        sxy += x[i] * y[i];
    }
    double vx = n * sxx - sx * sx, vy = n * syy - sy * sy;
    if (vx <= 1e-12 * n * sxx || vy <= 1e-12 * n * syy)
        return NAN;
    return (n * sxy - sx * sy) / sqrt(vx * vy);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place). */
static double median_sorting(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A field of model_corr.csv against an expected r: both empty/NaN, or
 * equal to the 6 decimals printed (the inputs' rounding to 6 decimals
 * in iterations.csv moves r by far less). */
static void check_corr_field(const char *field, double want,
                             const char *what, const char *job)
{
    if (isnan(want)) {
        CHECK(*field == '\0');
        if (*field)
            fprintf(stderr, "  %s %s: %s, want undefined\n", job, what,
                    field);
        return;
    }
    CHECK(*field != '\0');
    CHECK_NEAR(strtod(field, NULL), want, 2e-6);
}

/* What a test expects of one series, computed here from the result
 * files (iterations.csv and variants.csv), not from the report's code. */
struct corr_want {
    int runs, points, corr_runs;
    double pooled, run_mean, alloc, qcd_time, qcd_lat;
};

/* The quartile coefficient of dispersion of v[0..n) (sorted in place),
 * quartiles interpolated linearly between order statistics (Hyndman and
 * Fan's type 7, R's default). */
static double qcd_of(double *v, int n)
{
    if (n == 0)
        return NAN;
    for (int i = 1; i < n; i++) /* insertion sort: a few points */
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    double q[2];
    for (int k = 0; k < 2; k++) {
        double h = (n - 1) * (k ? 0.75 : 0.25);
        int lo = (int)h;
        q[k] = lo >= n - 1 ? v[n - 1] : v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
    }
    return q[1] + q[0] != 0 ? (q[1] - q[0]) / (q[1] + q[0]) : NAN;
}

static struct corr_want corr_expected(const char *iters,
                                      const char *variants, const char *job,
                                      const char *variant)
{
    struct corr_want w = { 0, 0, 0, NAN, NAN, NAN, NAN, NAN };
    enum { CAP = 4096, RUNS = 64 };
    static double t[CAP], e[CAP], a[CAP], mt[RUNS], me[RUNS], lat[CAP];
    static int run[CAP], runs[RUNS];
    char *copy = strdup(iters), *p = copy, *l;
    char *f[16];
    next_line(&p); /* header */
    while ((l = next_line(&p)) != NULL && w.points < CAP) {
        /* run,job,name,iteration,variant,counted,end_us,time_us,model_us */
        if (split_csv(l, f, 16) < 11 || strcmp(f[2], job) != 0 ||
            strcmp(f[4], variant) != 0 || strcmp(f[5], "1") != 0 ||
            *f[8] == '\0')
            continue;
        t[w.points] = strtod(f[7], NULL);
        e[w.points] = strtod(f[8], NULL);
        lat[w.points] = strtod(f[9], NULL); /* lat_us: the NIC's L */
        run[w.points++] = atoi(f[0]);
    }
    free(copy);
    w.pooled = pearson_sums(t, e, w.points);
    /* SC'19 Fig. 5's pair, on copies (the order matters below) */
    memcpy(a, t, (size_t)w.points * sizeof *a);
    w.qcd_time = qcd_of(a, w.points);
    memcpy(a, lat, (size_t)w.points * sizeof *a);
    w.qcd_lat = qcd_of(a, w.points);
    /* per run (allocation): the medians */
    for (int i = 0; i < w.points; i++) {
        int r = 0;
        while (r < w.runs && runs[r] != run[i])
            r++;
        if (r == w.runs && w.runs < RUNS)
            runs[w.runs++] = run[i];
    }
    for (int r = 0; r < w.runs; r++) {
        int q = 0;
        for (int i = 0; i < w.points; i++)
            if (run[i] == runs[r])
                a[q++] = t[i];
        mt[r] = median_sorting(a, q);
        q = 0;
        for (int i = 0; i < w.points; i++)
            if (run[i] == runs[r])
                a[q++] = e[i];
        me[r] = median_sorting(a, q);
    }
    w.alloc = pearson_sums(mt, me, w.runs);
    /* variants.csv: the runs' model_corr where written (and a number) */
    copy = strdup(variants);
    p = copy;
    l = next_line(&p);
    int c_corr = -1, c_name = -1, c_var = -1;
    int nh = split_csv(l, f, 16);
    for (int k = 0; k < nh && k < 16; k++) {
        c_corr = strcmp(f[k], "model_corr") == 0 ? k : c_corr;
        c_name = strcmp(f[k], "name") == 0 ? k : c_name;
        c_var = strcmp(f[k], "variant") == 0 ? k : c_var;
    }
    CHECK(c_corr >= 0 && c_name >= 0 && c_var >= 0);
    double sum = 0;
    while (c_corr >= 0 && c_name >= 0 && c_var >= 0 &&
           (l = next_line(&p)) != NULL) {
        if (split_csv(l, f, 16) <= c_corr || strcmp(f[c_name], job) != 0 ||
            strcmp(f[c_var], variant) != 0)
            continue;
        char *end;
        double r = strtod(f[c_corr], &end);
        if (end != f[c_corr] && isfinite(r)) {
            sum += r;
            w.corr_runs++;
        }
    }
    free(copy);
    w.run_mean = w.corr_runs ? sum / w.corr_runs : NAN;
    return w;
}

/* Check every row of model_corr.csv against corr_expected; the rows
 * checked, and in *defined how many had a pooled r, a runs' mean and an
 * r of the medians. */
static int check_model_corr(const char *csv, const char *iters,
                            const char *variants, const char *html,
                            int defined[3])
{
    char *copy = strdup(csv), *p = copy, *l;
    int rows = 0;
    defined[0] = defined[1] = defined[2] = 0;
    CHECK(strcmp(next_line(&p), "job,variant,runs,iterations,pooled_corr,"
                                "mean_run_corr,corr_runs,alloc_corr,"
                                "qcd_time,qcd_latency,qcd_ratio") == 0);
    while ((l = next_line(&p)) != NULL) {
        char *f[11];
        CHECK_EQ_U(split_csv(l, f, 11), 11);
        struct corr_want w = corr_expected(iters, variants, f[0], f[1]);
        CHECK_EQ_U(atoi(f[2]), w.runs);
        CHECK_EQ_U(atoi(f[3]), w.points);
        check_corr_field(f[4], w.pooled, "pooled_corr", f[0]);
        check_corr_field(f[5], w.run_mean, "mean_run_corr", f[0]);
        CHECK_EQ_U(atoi(f[6]), w.corr_runs);
        check_corr_field(f[7], w.alloc, "alloc_corr", f[0]);
        check_corr_field(f[8], w.qcd_time, "qcd_time", f[0]);
        check_corr_field(f[9], w.qcd_lat, "qcd_latency", f[0]);
        check_corr_field(f[10], w.qcd_lat > 0 ? w.qcd_time / w.qcd_lat : NAN,
                         "qcd_ratio", f[0]);
        defined[0] += !isnan(w.pooled);
        defined[1] += !isnan(w.run_mean);
        defined[2] += !isnan(w.alloc);
        /* the page's row: the same figures, 3 decimals, "-" undefined */
        char row[512], c[3][16];
        const double v[3] = { w.pooled, w.run_mean, w.alloc };
        for (int k = 0; k < 3; k++)
            snprintf(c[k], sizeof c[k], isnan(v[k]) ? "-" : "%.3f", v[k]);
        snprintf(row, sizeof row,
                 "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td>"
                 "<td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>",
                 f[0], f[1], w.runs, w.points, c[0], c[1], w.corr_runs,
                 c[2]);
        CHECK_STR_CONTAINS(html, row);
        rows++;
    }
    free(copy);
    return rows;
}

/* Remove dir and the files in it. */

/* SC'19 §2.4's validation over allocations: with experiment.runs (each
 * run a new random allocation) and `model`, model_corr.csv and the
 * page's table give per job and variant Pearson's r of estimate and time
 * pooled over every run's counted iterations, the mean of variants.csv's
 * per-run model_corr where defined, and r of the runs' medians, each
 * equal to what this test computes from iterations.csv and variants.csv
 * by its own code; per variant the mean over the jobs. Then result files
 * made by hand: warm-up rows left out, fewer than 3 points or a constant
 * estimate undefined ("-", empty), empty and "nan" model_corr ignored. */
static void test_model_corr(void)
{
    static char out[1 << 16], err[1 << 16];
    char dir[64] = "/tmp/dfsim-corr-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "corr.cfg",
        "experiment = { seed = 3; runs = 3; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = (\n"
        "  { name = \"small\"; workload = \"pingpong\"; bytes = 128;\n"
        "    allocation = \"random\"; nodes = 2; iterations = 8;\n"
        "    warmup = 1; model = true;\n"
        "    variants = [\"default\", \"high-bias\"]; },\n"
        "  { name = \"big\"; workload = \"pingpong\"; bytes = 65536;\n"
        "    allocation = \"random\"; nodes = 2; iterations = 8;\n"
        "    warmup = 1; model = true;\n"
        "    variants = [\"default\", \"high-bias\"]; },\n"
        "  { name = \"none\"; workload = \"pingpong\"; bytes = 8;\n"
        "    nodes = 2; iterations = 3; },\n"
        "  { name = \"bg\"; workload = \"gpcnet-rma-incast\"; nodes = 8;\n"
        "    allocation = \"random\"; background = true; }\n"
        ");\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *iters = slurp_file(dir, "iterations.csv");
    char *vars = slurp_file(dir, "variants.csv");
    char *csv = slurp_file(dir, "model_corr.csv");
    char *html = slurp_file(dir, "report.html");
    CHECK(iters && vars && csv && html);
    if (iters && vars && csv && html) {
        CHECK_STR_CONTAINS(html, "<h2>Model against measurement over "
                                 "allocations (SC'19 &sect;2.4)</h2>");
        CHECK_STR_CONTAINS(html, "40 different allocations of Piz Daint");
        CHECK_STR_CONTAINS(html, "79 %");
        CHECK_STR_CONTAINS(html, "3 runs");
        int defined[3];
        CHECK_EQ_U(check_model_corr(csv, iters, vars, html, defined), 4);
        /* the run gave figures to compare (else the above proves little) */
        CHECK(defined[0] >= 3 && defined[1] >= 3 && defined[2] >= 3);
        CHECK(!strstr(csv, "\nnone,"));
        /* the per-variant row: the mean over the two sizes */
        for (int v = 0; v < 2; v++) {
            const char *var = v ? "high-bias" : "default";
            struct corr_want a = corr_expected(iters, vars, "small", var),
                             b = corr_expected(iters, vars, "big", var);
            if (isnan(a.pooled) || isnan(b.pooled))
                continue;
            char row[256];
            snprintf(row, sizeof row,
                     "<tr><th>mean over 2 jobs</th><th>%s</th><td></td>"
                     "<td></td><td>%.3f</td>",
                     var, (a.pooled + b.pooled) / 2);
            CHECK_STR_CONTAINS(html, row);
        }
    }
    free(iters);
    free(vars);
    free(csv);
    free(html);
    rm_dir(dir);
    unlink(cfg);

    /* by hand: a has 3 counted points over runs 0 and 1 (a warm-up row
     * that would spoil r is left out), b a constant estimate, c none */
    CHECK(mkdtemp(strcpy(dir, "/tmp/dfsim-corr-XXXXXX")) != NULL);
    static const char it[] =
        "run,job,name,iteration,variant,counted,end_us,time_us,model_us,"
        "lat_us,stall_cycles\n"
        "0,0,a,0,default,0,50.0,50.0,0.1,1.0,0.0\n"
        "0,0,a,1,default,1,51.0,1.0,1.1,1.0,0.0\n"
        "0,0,a,2,default,1,53.0,2.0,1.9,1.0,0.0\n"
        "0,1,b,0,default,1,3.0,3.0,2.0,1.0,0.0\n"
        "0,2,c,0,default,1,1.0,1.0,,,\n"
        "1,0,a,0,default,1,4.0,4.0,4.2,1.0,0.0\n"
        "1,1,b,0,default,1,5.0,5.0,2.0,1.0,0.0\n"
        "1,2,c,0,default,1,1.0,1.0,,,\n"
        "2,1,b,0,default,1,7.0,7.0,2.0,1.0,0.0\n"
        "2,2,c,0,default,1,1.0,1.0,,,\n";
    static const char va[] =
        "run,job,name,variant,model_corr,bytes,share_ADAPTIVE_0,"
        "share_ADAPTIVE_1\n"
        "0,0,a,default,0.5,10,1,0\n"
        "1,0,a,default,,10,1,0\n"
        "2,0,a,default,-0.25,10,1,0\n"
        "3,0,a,default,nan,10,1,0\n"
        "0,1,b,default,,10,1,0\n"
        "0,2,c,default,,10,1,0\n";
    static const char jb[] = "run,job,name,workload\n0,0,a,pingpong\n"
                             "0,1,b,pingpong\n0,2,c,pingpong\n";
    put_file(dir, "iterations.csv", it, sizeof it - 1);
    put_file(dir, "variants.csv", va, sizeof va - 1);
    put_file(dir, "jobs.csv", jb, sizeof jb - 1);
    struct report_info info = { .title = "by hand", .system = "none",
                                .routing = "min", .seed = 1 };
    bool drawn;
    CHECK_EQ_U(report_from_results(dir, &info, &drawn, stderr), 0);
    csv = slurp_file(dir, "model_corr.csv");
    html = slurp_file(dir, "report.html");
    CHECK(csv && html);
    if (csv && html) {
        int defined[3];
        CHECK_EQ_U(check_model_corr(csv, it, va, html, defined), 2);
        CHECK_EQ_U(defined[0], 1); /* a's pooled r */
        CHECK_EQ_U(defined[1], 1); /* a's mean: (0.5 - 0.25) / 2 */
        CHECK_EQ_U(defined[2], 0); /* a: 2 runs; b: constant */
        CHECK_STR_CONTAINS(csv, ",0.125000,2,,0.333333,"); /* a: 1, 2, 4 us */
        CHECK_STR_CONTAINS(csv, "\nb,default,3,3,,,0,,");
        CHECK(!strstr(csv, "\nc,"));
        /* the mean over jobs leaves b's undefined r out */
        double ta[3] = { 1, 2, 4 }, ea[3] = { 1.1, 1.9, 4.2 };
        char row[256];
        snprintf(row, sizeof row,
                 "<tr><th>mean over 2 jobs</th><th>default</th><td></td>"
                 "<td></td><td>%.3f</td><td>0.125</td><td></td><td>-</td>",
                 pearson_sums(ta, ea, 3));
        CHECK_STR_CONTAINS(html, row);
    }
    free(csv);
    free(html);
    rm_dir(dir);
}

/* ---- where the packets went (packets, nonmin_share, hops_mean) -------- */

/* The index of column `name` in csv's header line, -1 if absent. */
static int col_of(const char *csv, const char *name)
{
    size_t n = strlen(name);
    int col = 0;
    for (const char *p = csv; p && *p && *p != '\n'; col++) {
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\n'))
            return col;
        p = strpbrk(p, ",\n");
        if (!p || *p == '\n')
            break;
        p++;
    }
    return -1;
}

/* Over the rows of iterations.csv text `iters` of job `name` (counted
 * ones only if `counted`): packets, and the packets weighted by the
 * non-minimal share and by the mean hops (the counts they stand for). */
static void iter_paths(const char *iters, const char *name, bool counted,
                       double *pk, double *nm, double *hp)
{
    int c_name = col_of(iters, "name"), c_cnt = col_of(iters, "counted"),
        c_pk = col_of(iters, "packets"), c_nm = col_of(iters, "nonmin_share"),
        c_hp = col_of(iters, "hops_mean");
    CHECK(c_name >= 0 && c_cnt >= 0 && c_pk >= 0 && c_nm >= 0 && c_hp >= 0);
    *pk = *nm = *hp = 0;
    char *copy = strdup(iters), *p = copy, *line;
    next_line(&p); /* the header */
    while (c_hp >= 0 && (line = next_line(&p)) != NULL) {
        char *f[32];
        if (split_csv(line, f, 32) <= c_hp || strcmp(f[c_name], name) != 0 ||
            (counted && strcmp(f[c_cnt], "1") != 0))
            continue;
        double n = strtod(f[c_pk], NULL);
        *pk += n;
        if (n > 0) {
            *nm += n * strtod(f[c_nm], NULL);
            *hp += n * strtod(f[c_hp], NULL);
        }
    }
    free(copy);
}

/* Ping-pongs between two NICs of one router and between routers one and
 * two hops apart in a group (topo_min_hops), beside a background
 * all-to-all, under network.routing minimal, NMIN_HASH and valiant:
 * minimal routes no packet non-minimally and a ping-pong's packets,
 * requests and responses, cross exactly the routers' distance; the two
 * others route every packet between two routers non-minimally. (Not
 * asserted: the same-router pair under them; the network ejects a
 * packet at its destination router whatever its mode, route_packet, so
 * that pair's packets take 0 hops, and the background's share is below
 * 1 by its pairs that share a router.) The three files have the
 * columns; variants.csv's figures are its counted iterations' in
 * iterations.csv, jobs.csv's every iteration's (a ping-pong posts
 * nothing after its last mark). */
static void test_paths_files(void)
{
    struct topo t;
    struct capture c;
    cap_init(&c);
    if (topo_build_system(&t, "xc-12cab", &c.d) != 0) {
        CHECK(!"topology");
        cap_free(&c);
        return;
    }
    /* router 0's four nodes, one pair each: itself, then routers of its
     * group one and two hops away */
    uint32_t r0 = 0, far[3] = { 0, UINT32_MAX, UINT32_MAX };
    for (uint32_t r = 1; r < t.n_routers && t.routers[r].group == 0; r++) {
        uint32_t d = topo_min_hops(&t, r0, r);
        if (d < 3 && far[d] == UINT32_MAX)
            far[d] = r;
    }
    CHECK(far[1] != UINT32_MAX && far[2] != UINT32_MAX &&
          t.routers[r0].n_nics >= 4);
    if (far[1] == UINT32_MAX || far[2] == UINT32_MAX) {
        topo_free(&t);
        cap_free(&c);
        return;
    }
    uint32_t node[3][2];
    for (int k = 0; k < 3; k++) {
        node[k][0] = t.nics[t.routers[r0].first_nic + k].node;
        node[k][1] = t.nics[t.routers[far[k]].first_nic + (k ? 0 : 3)].node;
    }
    static const char *const routing[3] = { "minimal", "NMIN_HASH",
                                            "valiant" };
    static const char *const job[3] = { "hop0", "hop1", "hop2" };
    for (int rt = 0; rt < 3; rt++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "experiment = { seed = 3; };\n"
                 "system = { name = \"xc-12cab\"; };\n"
                 "network = { routing = \"%s\"; };\n"
                 "jobs = (\n"
                 "  { name = \"hop0\"; workload = \"pingpong\"; bytes = 8;\n"
                 "    allocation = \"list\"; node_list = \"%u,%u\";\n"
                 "    iterations = 6; warmup = 1; },\n"
                 "  { name = \"hop1\"; workload = \"pingpong\";\n"
                 "    bytes = 8192; allocation = \"list\";\n"
                 "    node_list = \"%u,%u\"; iterations = 6; warmup = 1; },\n"
                 "  { name = \"hop2\"; workload = \"pingpong\";\n"
                 "    bytes = 65536; allocation = \"list\";\n"
                 "    node_list = \"%u,%u\"; iterations = 6; warmup = 1; },\n"
                 "  { name = \"bg\"; workload = \"alltoall\"; nodes = 16;\n"
                 "    allocation = \"random\"; bytes = 4096;\n"
                 "    iterations = 1000000; background = true; }\n"
                 ");\n",
                 routing[rt], node[0][0], node[0][1], node[1][0],
                 node[1][1], node[2][0], node[2][1]);
        struct run_out o;
        if (!ran(run_text(text, &o, &c), &o, &c)) {
            topo_free(&t);
            return;
        }
        CHECK_STR_CONTAINS(o.variants, ",packets,nonmin_share,hops_mean\n");
        CHECK_STR_CONTAINS(o.iters, ",packets,nonmin_share,hops_mean\n");
        CHECK_STR_CONTAINS(
            o.jobs, ",packets,nonmin_share,hops_mean,msg_us,routers,groups\n");
        /* how far each job spreads: hop0's two nodes share router r0,
         * hop1's and hop2's sit on r0 and another router of group 0 */
        int j_ro = col_of(o.jobs, "routers"), j_gr = col_of(o.jobs, "groups");
        for (int k = 0; k < 3; k++) {
            char jp[64];
            snprintf(jp, sizeof jp, "0,%d,%s,pingpong,", k, job[k]);
            CHECK_NEAR(field(o.jobs, jp, j_ro), k ? 2 : 1, 0);
            CHECK_NEAR(field(o.jobs, jp, j_gr), 1, 0);
        }
        double bg_ro = field(o.jobs, "0,3,bg,", j_ro);
        CHECK(bg_ro >= 4 && bg_ro <= 16); /* 16 nodes, 4 a router */
        CHECK(field(o.jobs, "0,3,bg,", j_gr) >= 1);
        int v_pk = col_of(o.variants, "packets"),
            v_nm = col_of(o.variants, "nonmin_share"),
            v_hp = col_of(o.variants, "hops_mean"),
            j_pk = col_of(o.jobs, "packets"),
            j_nm = col_of(o.jobs, "nonmin_share"),
            j_hp = col_of(o.jobs, "hops_mean");
        double share = rt ? 1.0 : 0.0;
        for (int k = 0; k < 3; k++) {
            char vp[64], jp[64];
            snprintf(vp, sizeof vp, "0,%d,%s,network,", k, job[k]);
            snprintf(jp, sizeof jp, "0,%d,%s,pingpong,", k, job[k]);
            double pk = field(o.variants, vp, v_pk);
            double nm = field(o.variants, vp, v_nm);
            double hp = field(o.variants, vp, v_hp);
            CHECK(pk > 0);
            if (rt == 0 || k > 0)
                CHECK_NEAR(nm, share, 0);
            if (rt == 0)
                CHECK_NEAR(hp, topo_min_hops(&t, r0, far[k]), 0);
            else if (k > 0) /* to an intermediate router, then on */
                CHECK(hp >= 2);
            /* the same figures from the counted iterations' rows */
            double ipk, inm, ihp;
            iter_paths(o.iters, job[k], true, &ipk, &inm, &ihp);
            CHECK_NEAR(ipk, pk, 0);
            CHECK_NEAR(inm, nm * pk, 1e-6 * pk);
            CHECK_NEAR(ihp, hp * pk, 1e-6 * pk);
            /* jobs.csv: all the iterations, the warm-up's too */
            iter_paths(o.iters, job[k], false, &ipk, &inm, &ihp);
            CHECK(ipk > pk);
            CHECK_NEAR(field(o.jobs, jp, j_pk), ipk, 0);
            CHECK_NEAR(field(o.jobs, jp, j_nm) * ipk, inm, 1e-6 * ipk);
            CHECK_NEAR(field(o.jobs, jp, j_hp) * ipk, ihp, 1e-6 * ipk);
        }
        /* msg_us, Netscope's M: each job's mean network message time,
         * there and growing with the message (8 B, 8 KiB, 64 KiB) while
         * below half an iteration (a ping-pong iteration is two messages
         * and the host's overheads) */
        int j_mu = col_of(o.jobs, "msg_us"), j_t = col_of(o.jobs, "time_us"),
            j_it = col_of(o.jobs, "iterations");
        double mu_prev = 0;
        for (int k = 0; k < 3; k++) {
            char jp[64];
            snprintf(jp, sizeof jp, "0,%d,%s,pingpong,", k, job[k]);
            double mu = field(o.jobs, jp, j_mu);
            double per_iter = field(o.jobs, jp, j_t) / field(o.jobs, jp, j_it);
            CHECK(mu > mu_prev);
            CHECK(mu < per_iter / 2);
            mu_prev = mu;
        }
        /* the background job: no variants.csv row, its packets in
         * jobs.csv */
        CHECK(!strstr(o.variants, ",bg,"));
        CHECK(field(o.jobs, "0,3,bg,", j_pk) > 0);
        if (rt == 0)
            CHECK_NEAR(field(o.jobs, "0,3,bg,", j_nm), 0, 0);
        else
            CHECK(field(o.jobs, "0,3,bg,", j_nm) > 0.5);
        run_free(&o);
    }
    topo_free(&t);
    cap_free(&c);
}

/* jobs.csv's routers and groups: how far a job's nodes spread (SC'19
 * §5.1's terms). On the 12-cabinet XC four nodes share an Aries and 384
 * a group: nodes 0-7 are two routers of one group, nodes 8, 400, 800 and
 * 1200 four routers of four groups. */
static void test_spread(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text("experiment = { seed = 2; };\n"
                      "system = { name = \"xc-12cab\"; };\n"
                      "jobs = (\n"
                      "  { name = \"packed\"; workload = \"allreduce\";\n"
                      "    nodes = 8; allocation = \"list\";\n"
                      "    node_list = \"0-7\"; iterations = 2; },\n"
                      "  { name = \"spread\"; workload = \"allreduce\";\n"
                      "    nodes = 4; allocation = \"list\";\n"
                      "    node_list = \"8,400,800,1200\"; iterations = 2; }\n"
                      ");\n",
                      &o, &c);
    if (!ran(rc, &o, &c))
        return;
    int ro = col_of(o.jobs, "routers"), gr = col_of(o.jobs, "groups");
    CHECK(ro > 0 && gr == ro + 1);
    CHECK_NEAR(field(o.jobs, "0,0,packed,", ro), 2, 0);
    CHECK_NEAR(field(o.jobs, "0,0,packed,", gr), 1, 0);
    CHECK_NEAR(field(o.jobs, "0,1,spread,", ro), 4, 0);
    CHECK_NEAR(field(o.jobs, "0,1,spread,", gr), 4, 0);
    run_free(&o);
    cap_free(&c);
}

/* metrics.csv's bandwidth of the micro benchmarks is what IMB and OSU
 * print, from iterations.csv's counted iterations: a ping-pong's 2 x
 * bytes over the mean round trip, osu_bw's window of messages over the
 * mean iteration, osu_bibw's twice that; an allreduce prints none. */
static void test_micro_bandwidth(void)
{
    struct capture c;
    cap_init(&c);
    struct run_out o;
    int rc = run_text("experiment = { seed = 4; };\n"
                      "system = { name = \"xc-12cab\"; };\n"
                      "jobs = (\n"
                      "  { name = \"pp\"; workload = \"pingpong\";\n"
                      "    bytes = 65536; allocation = \"pair\";\n"
                      "    distance = \"same-group\"; iterations = 5;\n"
                      "    warmup = 2; },\n"
                      "  { name = \"bw\"; workload = \"bw\"; bytes = 8192;\n"
                      "    window = 16; allocation = \"pair\";\n"
                      "    distance = \"different-groups\";\n"
                      "    iterations = 4; warmup = 1; },\n"
                      "  { name = \"bibw\"; workload = \"bibw\";\n"
                      "    bytes = 8192; window = 16; allocation = \"pair\";\n"
                      "    distance = \"same-chassis\"; iterations = 4;\n"
                      "    warmup = 1; },\n"
                      "  { name = \"ar\"; workload = \"allreduce\"; nodes = 4;\n"
                      "    iterations = 3; }\n"
                      ");\n",
                      &o, &c);
    if (!ran(rc, &o, &c))
        return;
    static const struct {
        const char *name;
        double moved; /* bytes an iteration counts */
    } want[] = { { "pp", 2.0 * 65536 }, { "bw", 16.0 * 8192 },
                 { "bibw", 2.0 * 16 * 8192 } };
    int c_cnt = col_of(o.iters, "counted"), c_t = col_of(o.iters, "time_us"),
        c_name = col_of(o.iters, "name");
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        double sum = 0;
        unsigned n = 0;
        char *copy = strdup(o.iters), *p = copy, *line;
        next_line(&p);
        while ((line = next_line(&p)) != NULL) {
            char *f[32];
            if (split_csv(line, f, 32) <= c_t ||
                strcmp(f[c_name], want[k].name) != 0 ||
                strcmp(f[c_cnt], "1") != 0)
                continue;
            sum += strtod(f[c_t], NULL);
            n++;
        }
        free(copy);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "0,%zu,%s,", k, want[k].name);
        const char *row = strstr(o.metrics, prefix);
        CHECK(row != NULL && n > 0);
        if (!row || n == 0)
            continue;
        CHECK(strstr(row, ",bandwidth,MB/s,") != NULL);
        double mbs = want[k].moved / (sum / n * 1e-6) / 1e6;
        double got = field(o.metrics, prefix, 6);
        fprintf(stderr, "  %s: %.3f MB/s (from iterations.csv %.4f)\n",
                want[k].name, got, mbs);
        CHECK_NEAR(got, mbs, 0.0006);
        CHECK_NEAR(field(o.metrics, prefix, 8), n, 0);
    }
    CHECK(strstr(o.metrics, ",ar,") == NULL);
    run_free(&o);
    cap_free(&c);
}

/* Alternated variants on one allocation: the iterations of "network"
 * (network.routing NMIN_HASH) route every packet non-minimally, those
 * of "high-bias" (ADAPTIVE_3 on a network as quiet as one 8-byte
 * ping-pong and another far away leave it: a non-minimal path must look
 * 4 congestion levels less loaded, and no queue holds more than two
 * packets) none; each iteration's packets are counted in its own row
 * although the last responses of one arrive in the next. The console's
 * tables and report.html give the same figures, and paths.dat the bars
 * of the figure, the background job's in grey after the jobs. */
static void test_paths_report(void)
{
    static char out[1 << 16], err[1 << 16];
    char dir[64] = "/tmp/dfsim-paths-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "paths.cfg",
        "system = { name = \"xc-12cab\"; };\n"
        "network = { routing = \"NMIN_HASH\"; };\n"
        "jobs = (\n"
        "  { name = \"pp-8B\"; workload = \"pingpong\"; bytes = 8;\n"
        "    allocation = \"pair\"; distance = \"same-group\";\n"
        "    iterations = 10; variants = [\"network\", \"high-bias\"]; },\n"
        "  { name = \"bg\"; workload = \"pingpong\"; bytes = 8;\n"
        "    allocation = \"pair\"; distance = \"different-groups\";\n"
        "    iterations = 1000000; background = true; }\n"
        ");\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *iters = slurp_file(dir, "iterations.csv");
    char *vars = slurp_file(dir, "variants.csv");
    char *dat = slurp_file(dir, "paths.dat");
    char *gp = slurp_file(dir, "paths.gp");
    char *html = slurp_file(dir, "report.html");
    CHECK(iters && vars && dat && gp && html);
    if (!iters || !vars || !dat || !gp || !html)
        goto done;
    int i_nm = col_of(iters, "nonmin_share"), i_pk = col_of(iters, "packets");
    for (int k = 0; k < 10; k++) {
        char pre[64];
        snprintf(pre, sizeof pre, "0,0,pp-8B,%d,%s,", k,
                 k % 2 ? "high-bias" : "network");
        CHECK(field(iters, pre, i_pk) > 0);
        CHECK_NEAR(field(iters, pre, i_nm), k % 2 ? 0 : 1, 0);
    }
    int v_nm = col_of(vars, "nonmin_share");
    CHECK_NEAR(field(vars, "0,0,pp-8B,network,", v_nm), 1, 0);
    CHECK_NEAR(field(vars, "0,0,pp-8B,high-bias,", v_nm), 0, 0);
    /* the console: the variants' table and the jobs' */
    CHECK_STR_CONTAINS(out, "normalized  non-min   hops\n");
    CHECK_STR_CONTAINS(out, "iterations  non-min   hops\n");
    const char *row = strstr(out, "\npp-8B                network ");
    CHECK(row && strstr(row, "  100.0% "));
    row = strstr(out, "\npp-8B                high-bias ");
    CHECK(row && strstr(row, "    0.0% "));
    row = strstr(out, "\nbg                   pingpong ");
    CHECK(row && strstr(row, "  100.0% "));
    /* the figure's data: a block per variant, then the background's */
    CHECK_STR_CONTAINS(dat, "# network\n0.7875 100.000000 ");
    CHECK_STR_CONTAINS(dat, "# high-bias\n1.2125 0.000000 ");
    CHECK_STR_CONTAINS(dat, "# background\n2 100.000000 ");
    CHECK_STR_CONTAINS(gp, "(\"pp\\n8B\" 1, \"bg\\n(background)\" 2)");
    CHECK_STR_CONTAINS(gp, "title \"background (all its packets)\"");
    CHECK_STR_CONTAINS(html, "<h2>Where the packets went</h2>");
    CHECK_STR_CONTAINS(html, "<td>pp-8B</td><td>pingpong</td>"
                             "<td>network</td>");
    row = strstr(html, "<td>pp-8B</td><td>pingpong</td><td>network</td>");
    CHECK(row && strstr(row, "<td>100.0%</td>"));
    CHECK_STR_CONTAINS(html, "<tr><td>bg</td><td>");
    if (have_gnuplot()) {
        char *svg = slurp_file(dir, "paths.svg");
        CHECK(svg && strstr(svg, "<svg") != NULL);
        free(svg);
        CHECK_STR_CONTAINS(html, "aria-label=\"share of packets routed "
                                 "non-minimally and mean hops per job and "
                                 "variant\">\n<svg");
    }
done:
    free(iters);
    free(vars);
    free(dat);
    free(gp);
    free(html);
    rm_dir(dir);
    unlink(cfg);
}

/* The report pools the runs' figures, each run's weighted by its
 * packets (variants.csv for the foreground's series, jobs.csv for the
 * background jobs): default 100 packets at 50 % and 2 hops, 300 at 10 %
 * and 4 hops: 80 of 400 non-minimal, 1,400 hops; result files without
 * the columns give a report without the figure. */
static void test_paths_pooled(void)
{
    char dir[64] = "/tmp/dfsim-pool-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    static const char it[] =
        "run,job,name,iteration,variant,counted,end_us,time_us,model_us,"
        "lat_us,stall_cycles,packets,nonmin_share,hops_mean\n"
        "0,0,a,0,default,1,1.0,1.0,,,,100,0.5,2\n"
        "0,0,a,1,high-bias,1,2.0,1.0,,,,0,,\n"
        "1,0,a,0,default,1,1.0,1.0,,,,300,0.1,4\n"
        "1,0,a,1,high-bias,1,2.0,1.0,,,,10,0,1\n";
    static const char va[] =
        "run,job,name,variant,model_corr,bytes,share_ADAPTIVE_0,"
        "share_ADAPTIVE_1,packets,nonmin_share,hops_mean\n"
        "0,0,a,default,,10,1,0,100,0.500000,2.000000\n"
        "0,0,a,high-bias,,10,0,0,0,,\n"
        "1,0,a,default,,10,1,0,300,0.100000,4.000000\n"
        "1,0,a,high-bias,,10,0,0,10,0.000000,1.000000\n";
    static const char jb[] =
        "run,job,name,workload,background,packets,nonmin_share,hops_mean\n"
        "0,0,a,pingpong,0,100,0.5,2\n"
        "0,1,n,alltoall,1,1000,0.250000,5.000000\n"
        "1,0,a,pingpong,0,310,0.1,4\n"
        "1,1,n,alltoall,1,3000,0.050000,3.000000\n";
    put_file(dir, "iterations.csv", it, sizeof it - 1);
    put_file(dir, "variants.csv", va, sizeof va - 1);
    put_file(dir, "jobs.csv", jb, sizeof jb - 1);
    struct report_info info = { .title = "pooled", .system = "none",
                                .routing = "min", .seed = 1 };
    bool drawn;
    CHECK_EQ_U(report_from_results(dir, &info, &drawn, stderr), 0);
    char *dat = slurp_file(dir, "paths.dat");
    char *html = slurp_file(dir, "report.html");
    CHECK(dat && html);
    if (dat && html) {
        CHECK_STR_CONTAINS(dat, "# default\n0.7875 20.000000 3.500000 400\n");
        CHECK_STR_CONTAINS(dat, "# high-bias\n1.2125 0.000000 1.000000 10\n");
        /* 250 + 150 of 4,000; 5,000 + 9,000 hops */
        CHECK_STR_CONTAINS(dat, "# background\n2 10.000000 3.500000 4000\n");
        CHECK_STR_CONTAINS(html, "<td>20.0%</td><td>3.50</td></tr>");
        CHECK_STR_CONTAINS(html, "<tr><td>n</td><td>4000</td>"
                                 "<td>10.0%</td><td>3.50</td></tr>");
    }
    free(dat);
    free(html);
    rm_dir(dir);

    /* an older dfsim's files: no figure, the rest as before */
    CHECK(mkdtemp(strcpy(dir, "/tmp/dfsim-pool-XXXXXX")) != NULL);
    static const char it0[] =
        "run,job,name,iteration,variant,counted,end_us,time_us,model_us,"
        "lat_us,stall_cycles\n0,0,a,0,default,1,1.0,1.0,,,\n";
    static const char va0[] =
        "run,job,name,variant,model_corr,bytes,share_ADAPTIVE_0,"
        "share_ADAPTIVE_1\n0,0,a,default,,10,1,0\n";
    static const char jb0[] = "run,job,name,workload\n0,0,a,pingpong\n";
    put_file(dir, "iterations.csv", it0, sizeof it0 - 1);
    put_file(dir, "variants.csv", va0, sizeof va0 - 1);
    put_file(dir, "jobs.csv", jb0, sizeof jb0 - 1);
    CHECK_EQ_U(report_from_results(dir, &info, &drawn, stderr), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/paths.dat", dir);
    CHECK(access(p, F_OK) != 0);
    html = slurp_file(dir, "report.html");
    CHECK(html && !strstr(html, "Where the packets went"));
    CHECK(html && strstr(html, "<td>-</td><td>-</td></tr>"));
    free(html);
    rm_dir(dir);
}

/* The report normalises each job to its first variant as the file lists
 * them (variants.csv's order, as its `normalized`), not to whichever ran
 * first: with variant_order = "shuffled" the first counted iteration may
 * be any variant's. Here high-bias (2 us) runs first, default (1 us) is
 * the first variant: the boxes and the table are over 1 us. */
static void test_report_baseline(void)
{
    char dir[64] = "/tmp/dfsim-base-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    static const char it[] =
        "run,job,name,iteration,variant,counted,end_us,time_us,model_us,"
        "lat_us,stall_cycles\n"
        "0,0,a,0,default,0,5.0,5.0,,,\n"
        "0,0,a,1,high-bias,1,7.0,2.0,,,\n"
        "0,0,a,2,default,1,8.0,1.0,,,\n"
        "0,0,a,3,default,1,9.0,1.0,,,\n"
        "0,0,a,4,high-bias,1,11.0,2.0,,,\n";
    static const char va[] =
        "run,job,name,variant,model_corr,bytes,share_ADAPTIVE_0,"
        "share_ADAPTIVE_1\n"
        "0,0,a,default,,10,1,0\n"
        "0,0,a,high-bias,,10,0,0\n";
    static const char jb[] = "run,job,name,workload\n0,0,a,pingpong\n";
    put_file(dir, "iterations.csv", it, sizeof it - 1);
    put_file(dir, "variants.csv", va, sizeof va - 1);
    put_file(dir, "jobs.csv", jb, sizeof jb - 1);
    struct report_info info = { .title = "baseline", .system = "none",
                                .routing = "min", .seed = 1 };
    bool drawn;
    CHECK_EQ_U(report_from_results(dir, &info, &drawn, stderr), 0);
    char *gp = slurp_file(dir, "variants.gp");
    char *dat = slurp_file(dir, "variants.dat");
    char *html = slurp_file(dir, "report.html");
    CHECK(gp && dat && html);
    if (gp && dat && html) {
        CHECK_STR_CONTAINS(gp, "(\"a\\n1.00 us\" 1)");
        CHECK_STR_CONTAINS(dat, "# a default\n1.000000\n1.000000\n\n\n"
                                "# a high-bias\n2.000000\n2.000000\n");
        CHECK_STR_CONTAINS(html, "<td>a</td><td>pingpong</td>"
                                 "<td>high-bias</td><td>1</td><td>2</td>"
                                 "<td>2.000</td>");
        const char *row = strstr(html, "<td>high-bias</td>");
        CHECK(row && strstr(row, "<td>2.000</td><td>0%</td>"));
    }
    free(gp);
    free(dat);
    free(html);
    rm_dir(dir);
}

/* A text file dir/name; 0 or -1. */
static int put_text(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* phases.csv (results/phases.h) from jobs.csv and iterations.csv written
 * by hand: A runs 0-100 us (1000 B over two iterations ending at 50 and
 * 100), B 50-150 us (500 B, one iteration), C never finishes (the fill):
 * three phases, A alone at 10 B/us, both (A 10, B 5 B/us: shares 2/3 and
 * 1/3), B alone; a second run with A alone. */
static void test_phases(void)
{
    char dir[64] = "/tmp/dfsim-phases-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_U(put_text(dir, "jobs.csv",
                        "run,job,name,background,start_us,end_us,finished,"
                        "bytes\n"
                        "0,0,A,0,0.000000,100.000000,1,1000\n"
                        "0,1,B,1,50.000000,150.000000,1,500\n"
                        "0,2,C,1,10.000000,,0,99999\n"
                        "1,0,A,0,0.000000,40.000000,1,400\n"),
               0);
    CHECK_EQ_U(put_text(dir, "iterations.csv",
                        "run,job,name,iteration,end_us\n"
                        "0,0,A,0,50.000000\n"
                        "0,0,A,1,100.000000\n"
                        "0,1,B,0,150.000000\n"
                        "0,2,C,0,20.000000\n"
                        "1,0,A,0,40.000000\n"),
               0);
    CHECK_EQ_U(phases_write(dir, stderr), 1);
    char *p = dir_read(dir, "phases.csv");
    bool same = p && strcmp(p, "run,phase,start_us,end_us,job,name,gbps,"
                               "share\n"
                               "0,0,0.000000,50.000000,0,A,0.010000,1.000000\n"
                               "0,1,50.000000,100.000000,0,A,0.010000,"
                               "0.666667\n"
                               "0,1,50.000000,100.000000,1,B,0.005000,"
                               "0.333333\n"
                               "0,2,100.000000,150.000000,1,B,0.005000,"
                               "1.000000\n"
                               "1,0,0.000000,40.000000,0,A,0.010000,1.000000\n"
                               ) == 0;
    CHECK(same);
    if (p && !same)
        fprintf(stderr, "  phases.csv:\n%s", p);
    free(p);
    /* no jobs.csv: nothing to do */
    char sub[128];
    snprintf(sub, sizeof sub, "%s/none", dir);
    CHECK(mkdir(sub, 0700) == 0);
    CHECK_EQ_U(phases_write(sub, NULL), 0);
    rm_dir(dir);
}

const struct test_case tests_jobs[] = {
    TEST(test_report),
    TEST(test_report_axis),
    TEST(test_model_corr),
    TEST(test_phases),
    TEST(test_runs_resume),
    TEST(test_planned_iterations),
    TEST(test_model),
    TEST(test_variants),
    TEST(test_examples),
    TEST(test_cli),
    TEST(test_load),
    TEST(test_load_errors),
    TEST(test_mpi_stack),
    TEST(test_micro_bandwidth),
    TEST(test_run),
    TEST(test_quicken_bounds),
    TEST(test_time_limit),
    TEST(test_chain),
    TEST(test_tiled_row_buffer_listed_once),
    TEST(test_registry),
    TEST(test_paths_files),
    TEST(test_spread),
    TEST(test_paths_report),
    TEST(test_paths_pooled),
    TEST(test_report_baseline),
    { 0 },
};
