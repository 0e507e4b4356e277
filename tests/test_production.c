/* tests/test_production.c — the production fill (exp/production.h) and
 * the offered load (exp/offered.h).
 *
 * The fill is checked on its definition: it takes nodes the file's jobs
 * left and only those, reaches floor(fill x N) less the file's nodes to
 * within less than its smallest job size, every job has a size it may
 * have; each placement does what it says (first fit when aged without
 * churn, scattered runs with churn, random); the weights are followed;
 * the same seed gives the same fill and another seed another. Every
 * mistake of the section is an error at its line. A run lists the fill's
 * jobs as background jobs and measures their offered load, which is
 * checked against the bytes the Aries packet format gives for the
 * messages they sent, counted here from the white paper's figures. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/ember.h"
#include "app/micro.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "results/jobs_results.h"
#include "exp/production.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------ */

static int load(struct experiment *e, const char *text, struct capture *c)
{
    const char *path = write_temp("prod.cfg", text);
    CHECK(path != NULL);
    int rc = experiment_load(e, path, -1, &c->d);
    unlink(path);
    return rc;
}

/* Load, build, check against the system (experiment_net_params runs the
 * jobs' checks). 0: e and t are ready (free both); else the messages are
 * in c and nothing needs freeing. */
static int setup(const char *text, struct experiment *e, struct topo *t,
                 struct capture *c)
{
    if (load(e, text, c) != 0)
        return -1;
    if (experiment_build_topo(e, t, &c->d) != 0) {
        experiment_free(e);
        return -1;
    }
    struct net_params np;
    if (experiment_net_params(e, t, &np, &c->d) != 0) {
        topo_free(t);
        experiment_free(e);
        return -1;
    }
    return 0;
}

/* The nodes the file's jobs take with seed `seed`, marked in taken[]
 * (t->n_nodes bytes); returns how many. */
static uint32_t place_file_jobs(const struct experiment *e,
                                const struct topo *t, uint64_t seed,
                                uint8_t *taken)
{
    const struct jobs_config *jc = &e->jobs;
    struct alloc_request req[16];
    uint32_t *nodes[16];
    CHECK(jc->n <= 16);
    jobs_alloc_requests(jc, req);
    struct capture c;
    cap_init(&c);
    int rc = alloc_place(t, req, jc->n, seed, nodes, &c.d);
    CHECK_EQ_U(rc, 0);
    memset(taken, 0, t->n_nodes);
    uint32_t n = 0;
    for (uint32_t i = 0; rc == 0 && i < jc->n; i++)
        for (uint32_t k = 0; k < jc->job[i].nodes; k++) {
            n += !taken[nodes[i][k]];
            taken[nodes[i][k]] = 1;
        }
    if (rc == 0)
        alloc_free(nodes, jc->n);
    cap_free(&c);
    return n;
}

static uint32_t nic_nodes(const struct topo *t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n_nodes; i++)
        n += t->nodes[i].n_nics > 0;
    return n;
}

/* The sizes entry e draws from. */
static const struct cfg_floats *sizes_of(const struct production_config *pc,
                                         uint32_t e)
{
    return pc->mix[e].sizes.n ? &pc->mix[e].sizes : &pc->sizes;
}

/* Every property of a fill that does not depend on the placement: its
 * nodes are free ones (not the file's, with a NIC, each once), each
 * job's size is one its entry has, and it takes floor(fill x N) - F
 * nodes but less than the smallest size. */
static void check_fill(const struct production_config *pc,
                       const struct topo *t, const uint8_t *taken,
                       uint32_t file_nodes, const struct production_fill *f)
{
    uint32_t want = (uint32_t)floor(pc->fill * nic_nodes(t) + 1e-9) -
                    file_nodes;
    CHECK_EQ_U(f->target, want);
    double smallest = 1e30;
    for (uint32_t e = 0; e < pc->n_mix; e++) {
        const struct cfg_floats *s = sizes_of(pc, e);
        for (uint32_t k = 0; k < s->n; k++)
            smallest = fmin(smallest, s->v[k]);
    }
    uint8_t *seen = calloc(t->n_nodes, 1);
    CHECK(seen != NULL);
    if (!seen)
        return;
    uint32_t sum = 0, bad_node = 0, bad_size = 0;
    for (uint32_t j = 0; j < f->n; j++) {
        const struct production_job *pj = &f->job[j];
        CHECK(pj->entry < pc->n_mix);
        const struct cfg_floats *s = sizes_of(pc, pj->entry);
        bool ok = false;
        for (uint32_t k = 0; k < s->n; k++)
            ok = ok || s->v[k] == (double)pj->n_nodes;
        bad_size += !ok;
        for (uint32_t k = 0; k < pj->n_nodes; k++) {
            uint32_t v = pj->nodes[k];
            if (v >= t->n_nodes || taken[v] || seen[v] ||
                t->nodes[v].n_nics == 0) {
                bad_node++;
                continue;
            }
            seen[v] = 1;
        }
        sum += pj->n_nodes;
    }
    CHECK_EQ_U(bad_node, 0);
    CHECK_EQ_U(bad_size, 0);
    CHECK_EQ_U(sum, f->nodes);
    CHECK(sum <= want);
    CHECK((double)(want - sum) < smallest);
    free(seen);
}

/* Whether two fills are the same jobs on the same nodes. */
static bool same_fill(const struct production_fill *a,
                      const struct production_fill *b)
{
    if (a->n != b->n)
        return false;
    for (uint32_t j = 0; j < a->n; j++) {
        if (a->job[j].entry != b->job[j].entry ||
            a->job[j].n_nodes != b->job[j].n_nodes ||
            a->job[j].start != b->job[j].start ||
            memcmp(a->job[j].nodes, b->job[j].nodes,
                   a->job[j].n_nodes * sizeof(uint32_t)) != 0)
            return false;
    }
    return true;
}

static int draw(const struct experiment *e, const struct topo *t,
                const uint8_t *taken, uint64_t seed,
                struct production_fill *f)
{
    struct capture c;
    cap_init(&c);
    int rc = production_draw(&e->jobs.prod, t, taken, seed, f, &c.d);
    CHECK_EQ_U(rc, 0);
    cap_free(&c);
    return rc;
}

/* Runs of consecutive node ids in a job's node list (as handed out: in
 * node order for aged and contiguous placements). */
static uint32_t runs_of(const struct production_job *j)
{
    uint32_t r = j->n_nodes ? 1 : 0;
    for (uint32_t k = 1; k < j->n_nodes; k++)
        r += j->nodes[k] != j->nodes[k - 1] + 1;
    return r;
}

/* ---- reading ------------------------------------------------------------ */

static const char measured[] =
    "system = { name = \"xc-12cab\"; };\n"
    "jobs = (\n"
    "  { name = \"pp\"; workload = \"pingpong\"; allocation = \"pair\";\n"
    "    distance = \"different-groups\"; bytes = 8; iterations = 4; },\n"
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 16;\n"
    "    allocation = \"random\"; iterations = 2; }\n"
    ");\n";

/* Defaults and given values reach the config; a fill job's workload runs
 * until stopped unless its iterations are given. */
static void test_load(void)
{
    char text[2048];
    snprintf(text, sizeof text,
             "%sproduction = {\n"
             "  fill = 0.85;\n"
             "  mix = (\n"
             "    { workload = \"alltoall\"; weight = 2; bytes = 32768;\n"
             "      compute_us = 50.0; },\n"
             "    { name = \"halo\"; workload = \"halo3d\"; nx = 20;\n"
             "      iterations = 7; ppn = 2; routing = \"high-bias\";\n"
             "      sizes = [4, 16]; size_weights = [3.0, 1.0]; },\n"
             "    { workload = \"gpcnet-a2a\"; weight = 0.5; }\n"
             "  );\n"
             "};\n",
             measured);
    struct capture c;
    cap_init(&c);
    struct experiment e;
    int rc = load(&e, text, &c);
    CHECK_EQ_U(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    const struct production_config *pc = &e.jobs.prod;
    CHECK(pc->on);
    CHECK_NEAR(pc->fill, 0.85, 0);
    CHECK_EQ_U(pc->sizes.n, 6); /* the default: 4 .. 128 */
    CHECK_NEAR(pc->sizes.v[0], 4, 0);
    CHECK_NEAR(pc->sizes.v[5], 128, 0);
    CHECK_EQ_U(pc->size_weights.n, 0);
    CHECK(strcmp(pc->placement, "aged") == 0);
    CHECK_EQ_U(pc->churn, PROD_DEFAULT_CHURN);
    CHECK_EQ_U(pc->stagger, 0);
    CHECK_EQ_U(pc->n_mix, 3);
    const struct production_entry *m = pc->mix;
    CHECK(strcmp(m[0].workload->name, "alltoall") == 0);
    CHECK_NEAR(m[0].weight, 2, 0);
    CHECK_EQ_U(m[0].ppn, 1);
    CHECK(m[0].routing == NULL);
    const struct micro_params *a = (const void *)m[0].params;
    CHECK_EQ_U(a->bytes, 32768);
    CHECK_EQ_U(a->compute, 50 * SIMTIME_US);
    CHECK_EQ_U(a->iterations, UINT32_MAX - 1); /* until stopped */
    CHECK(strcmp(m[1].name, "halo") == 0);
    CHECK_NEAR(m[1].weight, 1, 0);
    CHECK_EQ_U(m[1].ppn, 2);
    CHECK(strcmp(m[1].routing->name, "high-bias") == 0);
    CHECK_EQ_U(m[1].sizes.n, 2);
    CHECK_NEAR(m[1].size_weights.v[0], 3, 0);
    const struct ember_params *h = (const void *)m[1].params;
    CHECK_EQ_U(h->nx, 20);
    CHECK_EQ_U(h->iterations, 7); /* given: kept */
    CHECK_NEAR(m[2].weight, 0.5, 0);
    CHECK(m[0].line > 0 && m[1].line > m[0].line);
    experiment_free(&e);
    cap_free(&c);
}

/* Each mistake is reported with its file, its line and what was
 * expected; loading fails. */
static void test_load_errors(void)
{
    static const struct {
        const char *section, *want;
    } cases[] = {
        { "production = { mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: missing required key \"production.fill\"" },
        { "production = { fill = 0.5; };",
          ":8: error: missing required key \"production.mix\"" },
        { "production = { fill = 0.0;\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.fill: 0 leaves the other users no node; "
          "expected a share of the system's nodes in (0, 1]" },
        { "production = { fill = 1.5;\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.fill: value 1.5 is out of range; "
          "expected a number in [0, 1]" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"halo\"; } ); };",
          ":9: error: production.mix[0].workload: workload \"halo\" is not "
          "registered; known: pingpong," },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; },\n"
          "    { workload = \"alltoall\"; weight = 0; } ); };",
          ":10: error: production.mix[1].weight: 0 is not positive; expected "
          "a relative number of jobs > 0" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; weight = -2.0; } ); };",
          ":9: error: production.mix[0].weight: value -2 is out of range" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; nxx = 3; } ); };",
          ":9: error: unknown key \"production.mix[0].nxx\"; accepted keys: "
          "iterations, compute_us, name, workload, weight," },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"alltoall\"; bytes = 0; } ); };",
          ":9: error: production.mix[0].bytes: value 0 is out of range" },
        { "production = { fill = 0.5; sizes = [16];\n"
          "  mix = ( { workload = \"halo3d\"; px = 3; } ); };",
          ":9: error: production.mix[0]: halo3d on 16 ranks (a job of 16 "
          "nodes, ppn 1): " },
        { "production = { fill = 0.5; sizes = [4.5, 8.0];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.sizes[0]: 4.5 is not a whole number of "
          "nodes" },
        { "production = { fill = 0.5; sizes = [4, 8];\n"
          "  size_weights = [1.0];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":9: error: production.size_weights: 1 weights for 2 sizes; "
          "expected one weight per size" },
        { "production = { fill = 0.5; sizes = [4, 8];\n"
          "  size_weights = [1.0, 0.0];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":9: error: production.size_weights[1]: 0 is not positive" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\";\n"
          "    size_weights = [1.0, 2.0]; } ); };",
          ":10: error: production.mix[0].size_weights: size_weights weighs "
          "the sizes of its own group; give sizes here too" },
        { "production = { fill = 0.5; sizes = [0];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.sizes[0]: value 0 is out of range" },
        { "production = { fill = 0.5; placement = \"best\";\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.placement: \"best\" is not one of: aged, "
          "contiguous, random" },
        { "production = { fill = 0.5; placement = \"random\"; churn = 3;\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.churn: applies to placement = \"aged\" "
          "only; this section's placement is \"random\"" },
        { "production = { fill = 0.5; mix = 5; };",
          ":8: error: production.mix: expected a list of groups" },
        { "production = { fill = 0.5; mix = ( 5 ); };",
          "error: production.mix[0]: expected a group { ... }, got an "
          "integer" },
        { "production = { fill = 0.5; stagger_us = -1.0;\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.stagger_us: value -1 is out of range" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; routing = \"fast\"; } ); };",
          ":9: error: production.mix[0].routing: controller \"fast\" is "
          "not registered" },
        { "production = { fill = 0.5; sizes = [1, 4];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":9: error: production.mix[0]: a job of 1 node with ppn 1 is one "
          "rank, which sends nothing" },
        { "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; ppn = 0; } ); };",
          ":9: error: production.mix[0].ppn: value 0 is out of range" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, "%s%s\n", measured, cases[i].section);
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
    /* the section with the rest of the file: no jobs list; a job whose
     * own phantom users would hide nodes from the fill; a fill name */
    static const struct {
        const char *text, *want;
    } whole[] = {
        { "system = { name = \"xc-12cab\"; };\n"
          "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; } ); };\n",
          ":2: error: production: the fill surrounds the file's jobs (the "
          "measured ones), and this file has no jobs list" },
        { "system = { name = \"xc-12cab\"; };\n"
          "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
          "  allocation = \"fragmented\"; } );\n"
          "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; } ); };\n",
          ":2: error: jobs[0].allocation: \"fragmented\" holds nodes for "
          "phantom other users" },
        { "system = { name = \"xc-12cab\"; };\n"
          "jobs = ( { workload = \"barrier\"; nodes = 4;\n"
          "  name = \"bg-001-x\"; } );\n"
          "production = { fill = 0.5;\n"
          "  mix = ( { workload = \"barrier\"; } ); };\n",
          ":2: error: jobs[0].name: \"bg-001-x\": names starting with "
          "\"bg-\" are the production fill's" },
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        struct capture c;
        cap_init(&c);
        struct experiment e;
        CHECK(load(&e, whole[i].text, &c) != 0);
        if (!strstr(cap_text(&c), whole[i].want)) {
            test_failures++;
            fprintf(stderr, "  whole %zu: want \"%s\" in:\n%s", i,
                    whole[i].want, cap_text(&c));
        }
        cap_free(&c);
    }
    /* an endless workload is fine in the fill: its jobs are background;
     * so is a one-node job of two ranks (they talk through shared
     * memory) */
    char ok[2048];
    snprintf(ok, sizeof ok,
             "%sproduction = { fill = 0.5;\n"
             "  mix = ( { workload = \"gpcnet-rma-incast\"; },\n"
             "    { workload = \"alltoall\"; sizes = [1, 2]; ppn = 2; } "
             "); };\n",
             measured);
    struct capture c;
    cap_init(&c);
    struct experiment e;
    CHECK_EQ_U(load(&e, ok, &c), 0);
    CHECK(strcmp(cap_text(&c), "") == 0);
    experiment_free(&e);
    cap_free(&c);
}

/* What needs the system is checked once it is built, before anything
 * runs, at the key's line: a fill below the file's jobs' share, sizes
 * larger than what the fill takes. The file's jobs take 2 + 16 nodes of
 * xc-12cab's 2,304. */
static void test_system_errors(void)
{
    static const struct {
        const char *section, *want;
    } cases[] = {
        { "production = {\n  fill = 0.005;\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":9: error: production.fill: 0.005 of the system's 2304 nodes is "
          "11 nodes, fewer than the 18 the file's jobs take; expected a "
          "fill of at least 0.0079 (their share)" },
        { "production = { fill = 0.1; sizes = [4, 4096, 512];\n"
          "  mix = ( { workload = \"barrier\"; } ); };",
          ":8: error: production.sizes[1]: 4096 nodes, more than the 212 "
          "the fill takes (fill 0.1 of the 2304 nodes is 230, less the 18 "
          "of the file's jobs); expected sizes of at most 212 nodes" },
        { "production = { fill = 0.1;\n"
          "  mix = ( { workload = \"barrier\"; },\n"
          "    { workload = \"incast\"; sizes = [8, 300]; } ); };",
          ":10: error: production.mix[1].sizes[1]: 300 nodes, more than the "
          "212 the fill takes" },
        { "production = { fill = 0.1; sizes = [256];\n" /* default sizes */
          "  mix = ( { workload = \"barrier\"; sizes = [8]; } ); };",
          "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, "%s%s\n", measured, cases[i].section);
        struct capture c;
        cap_init(&c);
        struct experiment e;
        struct topo t;
        int rc = setup(text, &e, &t, &c);
        if (cases[i].want[0] == '\0') {
            /* the section's sizes are unused when every entry has its
             * own: no error */
            CHECK_EQ_U(rc, 0);
            if (rc == 0) {
                topo_free(&t);
                experiment_free(&e);
            } else {
                fprintf(stderr, "%s", cap_text(&c));
            }
        } else {
            CHECK(rc != 0);
            if (!strstr(cap_text(&c), cases[i].want)) {
                test_failures++;
                fprintf(stderr, "  case %zu: want \"%s\" in:\n%s", i,
                        cases[i].want, cap_text(&c));
            }
        }
        cap_free(&c);
    }
}

/* ---- drawing ------------------------------------------------------------ */

static const char mixed[] =
    "production = {\n"
    "  fill = 0.85;\n"
    "  mix = (\n"
    "    { workload = \"alltoall\"; weight = 2; bytes = 4096; },\n"
    "    { workload = \"halo3d\"; weight = 3; nx = 10; ny = 10; nz = 10; },\n"
    "    { workload = \"gpcnet-p2p-incast\"; sizes = [8, 16]; }\n"
    "  );\n"
    "  %s\n"
    "};\n";

/* Every placement: the fill's nodes are free ones, it reaches its share
 * to within less than one job, the same seed gives the same fill and
 * another seed another; the file's jobs keep their nodes. */
static void test_draw(void)
{
    static const char *const placements[] = {
        "", "churn = 0;", "placement = \"contiguous\";",
        "placement = \"random\";", "stagger_us = 40.0; churn = 2;",
    };
    for (size_t p = 0; p < sizeof placements / sizeof placements[0]; p++) {
        char sec[1024], text[4096];
        snprintf(sec, sizeof sec, mixed, placements[p]);
        snprintf(text, sizeof text, "%s%s", measured, sec);
        struct capture c;
        cap_init(&c);
        struct experiment e;
        struct topo t;
        if (setup(text, &e, &t, &c) != 0) {
            test_failures++;
            fprintf(stderr, "%s", cap_text(&c));
            cap_free(&c);
            continue;
        }
        uint8_t *taken = malloc(t.n_nodes), *taken2 = malloc(t.n_nodes);
        CHECK(taken && taken2);
        uint32_t file = place_file_jobs(&e, &t, 7, taken);
        CHECK_EQ_U(file, 18);
        CHECK_EQ_U(file, jobs_file_nodes(&e.jobs));
        struct production_fill a, b, other;
        if (draw(&e, &t, taken, 7, &a) == 0) {
            check_fill(&e.jobs.prod, &t, taken, file, &a);
            CHECK(a.n > 10);
            /* the same seed: the same fill */
            if (draw(&e, &t, taken, 7, &b) == 0) {
                CHECK(same_fill(&a, &b));
                production_fill_free(&b);
            }
            /* another seed: the file's random jobs and the fill move */
            uint32_t file2 = place_file_jobs(&e, &t, 8, taken2);
            CHECK_EQ_U(file2, file);
            CHECK(memcmp(taken, taken2, t.n_nodes) != 0);
            if (draw(&e, &t, taken2, 8, &other) == 0) {
                check_fill(&e.jobs.prod, &t, taken2, file2, &other);
                CHECK(!same_fill(&a, &other));
                production_fill_free(&other);
            }
            /* starts in [0, stagger], not all equal */
            simtime lo = SIMTIME_MAX, hi = 0;
            for (uint32_t j = 0; j < a.n; j++) {
                lo = a.job[j].start < lo ? a.job[j].start : lo;
                hi = a.job[j].start > hi ? a.job[j].start : hi;
            }
            if (e.jobs.prod.stagger) {
                CHECK(hi <= e.jobs.prod.stagger);
                CHECK(hi > lo);
            } else {
                CHECK_EQ_U(hi, 0);
            }
            production_fill_free(&a);
        }
        free(taken);
        free(taken2);
        topo_free(&t);
        experiment_free(&e);
        cap_free(&c);
    }
}

/* The placements' shapes: aged without churn is first fit on an idle
 * machine (the fill is the lowest free nodes, every job one run of free
 * nodes in node order); with churn jobs are scattered over the holes
 * others left; contiguous jobs are runs of the free list from anywhere;
 * random jobs are spread over the machine. */
static void test_placements(void)
{
    static const char *const how[] = { "churn = 0;", "churn = 8;",
                                       "placement = \"contiguous\";",
                                       "placement = \"random\";" };
    for (int p = 0; p < 4; p++) {
        char sec[1024], text[4096];
        snprintf(sec, sizeof sec, mixed, how[p]);
        snprintf(text, sizeof text, "%s%s", measured, sec);
        struct capture c;
        cap_init(&c);
        struct experiment e;
        struct topo t;
        if (setup(text, &e, &t, &c) != 0) {
            test_failures++;
            fprintf(stderr, "%s", cap_text(&c));
            cap_free(&c);
            continue;
        }
        uint8_t *taken = malloc(t.n_nodes);
        CHECK(taken != NULL);
        uint32_t file = place_file_jobs(&e, &t, 11, taken);
        struct production_fill f;
        if (draw(&e, &t, taken, 11, &f) != 0) {
            free(taken);
            topo_free(&t);
            experiment_free(&e);
            cap_free(&c);
            continue;
        }
        check_fill(&e.jobs.prod, &t, taken, file, &f);
        /* free-list runs: a job's nodes with only file nodes between
         * consecutive ones count as one run of the free list */
        uint32_t multi = 0, total_runs = 0;
        for (uint32_t j = 0; j < f.n; j++) {
            total_runs += runs_of(&f.job[j]);
            multi += runs_of(&f.job[j]) > 1;
        }
        if (p == 0) {
            /* the lowest f.nodes free nodes, job after job in order */
            uint32_t next = 0, bad = 0;
            for (uint32_t j = 0; j < f.n; j++)
                for (uint32_t k = 0; k < f.job[j].n_nodes; k++) {
                    while (next < t.n_nodes && taken[next])
                        next++;
                    bad += f.job[j].nodes[k] != next;
                    next++;
                }
            CHECK_EQ_U(bad, 0);
        } else if (p == 1 || p == 2) {
            /* the history (or the random starts) fragments jobs: some
             * span several runs, but a job is a few runs, not scattered
             * node by node */
            CHECK(multi > 0);
            CHECK(total_runs < f.nodes / 4);
            if (p == 2) { /* in node order from its start, wrapping once */
                uint32_t bad = 0;
                for (uint32_t j = 0; j < f.n; j++) {
                    uint32_t down = 0;
                    for (uint32_t k = 1; k < f.job[j].n_nodes; k++)
                        down += f.job[j].nodes[k] < f.job[j].nodes[k - 1];
                    bad += down > 1;
                }
                CHECK_EQ_U(bad, 0);
            }
        } else {
            /* random: nearly every node its own run */
            CHECK(total_runs > f.nodes / 2);
        }
        production_fill_free(&f);
        free(taken);
        topo_free(&t);
        experiment_free(&e);
        cap_free(&c);
    }
}

/* The weights: entries drawn in proportion to weight (jobs, not nodes),
 * sizes in proportion to size_weights, over many fills. Entry 0 (weight
 * 3) and entry 1 (weight 1) both take size 4 only, so the end of a fill
 * does not bias them; entry 2 draws 4 or 8 nodes, 8 three times as
 * often, on a machine where the last few jobs are a small share. */
static void test_weights(void)
{
    char text[4096];
    snprintf(text, sizeof text,
             "%sproduction = { fill = 0.9; sizes = [4]; churn = 1;\n"
             "  mix = ( { workload = \"barrier\"; weight = 3.0; },\n"
             "    { workload = \"allreduce\"; weight = 1.0; },\n"
             "    { workload = \"incast\"; weight = 2.0; sizes = [4, 8];\n"
             "      size_weights = [1.0, 3.0]; } ); };\n",
             measured);
    struct capture c;
    cap_init(&c);
    struct experiment e;
    struct topo t;
    if (setup(text, &e, &t, &c) != 0) {
        test_failures++;
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    uint8_t *taken = malloc(t.n_nodes);
    CHECK(taken != NULL);
    double count[3] = { 0 }, eight = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        place_file_jobs(&e, &t, seed, taken);
        struct production_fill f;
        if (draw(&e, &t, taken, seed, &f) != 0)
            break;
        for (uint32_t j = 0; j < f.n; j++) {
            count[f.job[j].entry]++;
            if (f.job[j].entry == 2)
                eight += f.job[j].n_nodes == 8;
        }
        production_fill_free(&f);
    }
    double all = count[0] + count[1] + count[2];
    CHECK(all > 10000);
    /* binomial standard deviations are below 0.005 at these counts; 4
     * of them */
    CHECK_NEAR(count[0] / all, 0.5, 0.02);
    CHECK_NEAR(count[1] / all, 1.0 / 6, 0.02);
    CHECK_NEAR(count[2] / all, 1.0 / 3, 0.02);
    CHECK_NEAR(eight / count[2], 0.75, 0.03);
    free(taken);
    topo_free(&t);
    experiment_free(&e);
    cap_free(&c);
}

/* One protocol for every SC'19 row (issue 55): each SC'19 example with
 * other users (examples/default.cfg and examples/sc19-*.cfg) has the same
 * fill placement, "aged", the same share and the same stagger as
 * examples/sc19-fill.inc, but the placement's own sensitivity file; a
 * new SC'19 example that placed its fill otherwise fails here. */
static void test_sc19_one_fill(void)
{
    glob_t g;
    char pat[1024];
    snprintf(pat, sizeof pat, "%s", src_path("examples/sc19-*.cfg"));
    CHECK_EQ_U(glob(pat, 0, NULL, &g), 0);
    uint32_t with_fill = 0;
    for (size_t i = 0; i <= g.gl_pathc; i++) {
        const char *path =
            i < g.gl_pathc ? g.gl_pathv[i] : src_path("examples/default.cfg");
        struct capture c;
        cap_init(&c);
        struct experiment e;
        int rc = experiment_load(&e, path, -1, &c.d);
        CHECK_EQ_U(rc, 0);
        if (rc != 0) {
            fprintf(stderr, "%s: %s", path, cap_text(&c));
            cap_free(&c);
            continue;
        }
        const struct production_config *pc = &e.jobs.prod;
        if (pc->on) {
            with_fill++;
            bool sensitivity = strstr(path, "sc19-placement-random") != NULL;
            if (strcmp(pc->placement, sensitivity ? "random" : "aged") != 0)
                fprintf(stderr, "  %s: placement %s\n", path, pc->placement);
            CHECK(strcmp(pc->placement, sensitivity ? "random" : "aged") ==
                  0);
            CHECK_NEAR(pc->fill, 0.85, 0);
            CHECK_EQ_U(pc->stagger, 50 * SIMTIME_US);
        }
        experiment_free(&e);
        cap_free(&c);
    }
    globfree(&g);
    CHECK(with_fill >= 10); /* default, fig7, fig8 x4, fig10, 2 bg, 2 bias,
                               placement-random */
}

/* Every system-level check passes on the example, and its fill draws. */
static void test_example(void)
{
    struct capture c;
    cap_init(&c);
    struct experiment e;
    int rc = experiment_load(&e, src_path("examples/production.cfg"), -1,
                             &c.d);
    CHECK_EQ_U(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    struct topo t;
    struct net_params np;
    rc = experiment_build_topo(&e, &t, &c.d);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        CHECK_EQ_U(experiment_net_params(&e, &t, &np, &c.d), 0);
        CHECK(e.jobs.prod.on);
        uint8_t *taken = malloc(t.n_nodes);
        CHECK(taken != NULL);
        uint32_t file = place_file_jobs(&e, &t, (uint64_t)e.info.seed,
                                        taken);
        struct production_fill f;
        if (draw(&e, &t, taken, (uint64_t)e.info.seed, &f) == 0) {
            check_fill(&e.jobs.prod, &t, taken, file, &f);
            production_fill_free(&f);
        }
        free(taken);
        topo_free(&t);
    }
    if (c.d.errors)
        fprintf(stderr, "%s", cap_text(&c));
    experiment_free(&e);
    cap_free(&c);
}

/* ---- running ------------------------------------------------------------ */

struct outputs {
    char *jobs, *ranks, *iters, *load;
    size_t nj, nr, ni, nl;
};

static int run(const char *text, struct outputs *o, struct capture *c)
{
    memset(o, 0, sizeof *o);
    struct experiment e;
    struct topo t;
    if (setup(text, &e, &t, c) != 0)
        return -2;
    struct net_params np;
    int rc = experiment_net_params(&e, &t, &np, &c->d);
    if (rc == 0) {
        FILE *fj = open_memstream(&o->jobs, &o->nj);
        FILE *fr = open_memstream(&o->ranks, &o->nr);
        FILE *fi = open_memstream(&o->iters, &o->ni);
        FILE *fl = open_memstream(&o->load, &o->nl);
        struct jobs_output out = { .writer = &jobs_results_writer,
                                   .jobs = fj, .ranks = fr,
                                   .iterations = fi, .load = fl,
                                   .header = true };
        simtime end = 0;
        rc = jobs_run(&e.jobs, &t, &np, (uint64_t)e.info.seed,
                      e.info.time_limit, &out, &end, &c->d);
        fclose(fj);
        fclose(fr);
        fclose(fi);
        fclose(fl);
    }
    topo_free(&t);
    experiment_free(&e);
    return rc;
}

static void outputs_free(struct outputs *o)
{
    free(o->jobs);
    free(o->ranks);
    free(o->iters);
    free(o->load);
}

/* Field `col` (0-based) of the first line starting with `prefix`, as a
 * number; NAN if absent or empty. */
static double field(const char *csv, const char *prefix, int col)
{
    size_t n = strlen(prefix);
    for (const char *p = csv; p && *p;) {
        if (strncmp(p, prefix, n) == 0) {
            for (int i = 0; i < col && p; i++) {
                p = strchr(p, ',');
                if (p)
                    p++;
            }
            if (!p || *p == ',' || *p == '\n')
                return NAN;
            return strtod(p, NULL);
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NAN;
}

/* The wire bytes of one PUT of `bytes` on Aries, as the XC white paper
 * ("Aries Performance") counts 48-bit flits: 64-byte packets, a request of
 * 3 header flits plus ceil(data / 6), a 1-flit response. */
static uint64_t aries_put_wire(uint64_t bytes)
{
    uint64_t flits = 0;
    for (uint64_t left = bytes; left > 0;) {
        uint64_t d = left < 64 ? left : 64;
        flits += 3 + (d + 5) / 6 + 1;
        left -= d;
    }
    return flits * 6;
}

/* A two-group XC: 384 + 64 nodes, 12 optical cables between the groups. */
static const char small_xc[] =
    "experiment = { seed = %d; };\n"
    "system = { topology = \"aries\"; groups = 2; chassis_last = 1; };\n"
    "jobs = ( { name = \"m\"; workload = \"barrier\"; nodes = 2;\n"
    "  allocation = \"random\"; compute_us = 300.0; iterations = 1;\n"
    "  start_us = %s; } );\n"
    "production = { fill = 0.25; sizes = [2, 4]; placement = \"%s\";\n"
    "  mix = ( { workload = \"pingpong\"; bytes = 1000; iterations = 5; }"
    " ); };\n";

/* A run lists the fill's jobs as background jobs on nodes the measured
 * job does not have, and its load.csv gives the bytes their NICs
 * injected: every fill job is a 5-iteration ping-pong of 1000 B that
 * ends long before the measured job (300 us of compute), so the window
 * holds all of it, 10 eager PUTs of 64 + 1000 bytes per job; the shares
 * divide by the window and by the system's bandwidths counted from the
 * white paper (a NIC's share of its four processor tiles: 10.5 GB/s; an
 * optical cable: 4 tiles of 4.6875 GB/s at each end). Same seed, same
 * files; another seed, another fill. */
static void test_run_offered(void)
{
    char text[2048];
    snprintf(text, sizeof text, small_xc, 3, "0.0", "aged");
    struct capture c;
    cap_init(&c);
    struct outputs o;
    int rc = run(text, &o, &c);
    CHECK_EQ_U(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        outputs_free(&o);
        cap_free(&c);
        return;
    }
    /* the fill: floor(0.25 x 448) = 112 busy, 110 for the fill */
    uint32_t jobs = 0, nodes = 0;
    CHECK_STR_CONTAINS(o.jobs, "\n0,1,bg-000-pingpong,");
    for (const char *p = strstr(o.jobs, "\n0,"); p;
         p = strstr(p + 1, "\n0,")) {
        if (strncmp(p + 3, "0,m,", 4) == 0)
            continue;
        CHECK(strstr(p + 3, ",bg-") != NULL);
        jobs++;
        nodes += (uint32_t)field(p + 1, "0,", 4);
    }
    CHECK(jobs >= 110 / 4);
    CHECK(nodes <= 110 && 110 - nodes < 2);
    CHECK_STR_CONTAINS(o.jobs, ",pingpong,2,1,2,production,1,0.000000,");
    /* ranks: no fill rank on the measured job's nodes */
    double m0 = field(o.ranks, "0,0,m,0,", 4), m1 = field(o.ranks,
                                                          "0,0,m,1,", 4);
    CHECK(!isnan(m0) && !isnan(m1));
    uint32_t clash = 0, fill_ranks = 0;
    for (const char *p = strstr(o.ranks, "\n0,"); p;
         p = strstr(p + 1, "\n0,")) {
        if (strncmp(p, "\n0,0,m,", 7) == 0)
            continue;
        double node = field(p + 1, "0,", 4);
        fill_ranks++;
        clash += node == m0 || node == m1;
    }
    CHECK_EQ_U(fill_ranks, nodes);
    CHECK_EQ_U(clash, 0);
    /* each fill job: 10 messages, all done */
    CHECK_STR_CONTAINS(o.jobs, ",1,5,10,10000,"); /* then its packets */

    /* the offered load: independently counted */
    double end = field(o.jobs, "0,0,m,", 10);
    CHECK(end > 300);
    uint64_t wire = (uint64_t)jobs * 10 * aries_put_wire(1064);
    uint64_t data = (uint64_t)jobs * 10 * 1064;
    CHECK_NEAR(field(o.load, "0,fill,", 2), jobs, 0);
    CHECK_NEAR(field(o.load, "0,fill,", 3), nodes, 0);
    CHECK_NEAR(field(o.load, "0,fill,", 4), 0, 0);
    CHECK_NEAR(field(o.load, "0,fill,", 5), end, 1e-6);
    CHECK_NEAR(field(o.load, "0,fill,", 6), (double)wire, 0);
    CHECK_NEAR(field(o.load, "0,fill,", 7), (double)data, 0);
    double rate = (double)wire / (end * 1e-6);
    double inj = 448 * 10.5e9, global = 2 * 12 * 4 * 4.6875e9;
    CHECK_NEAR(field(o.load, "0,fill,", 8), rate / 1e9, 1e-6);
    CHECK_NEAR(field(o.load, "0,fill,", 9), rate / inj, 1e-6);
    CHECK_NEAR(field(o.load, "0,fill,", 10), rate / global, 1e-6);
    CHECK_NEAR(field(o.load, "0,fill,", 11), rate / (nodes * 10.5e9), 1e-6);
    CHECK_NEAR(field(o.load, "0,measured,", 3), 2, 0);
    CHECK_NEAR(field(o.load, "0,background,", 6), 0, 0);
    CHECK(isnan(field(o.load, "0,background,", 11))); /* no NIC: empty */

    /* same seed: the same files */
    struct outputs o2;
    CHECK_EQ_U(run(text, &o2, &c), 0);
    CHECK(o2.jobs && strcmp(o.jobs, o2.jobs) == 0);
    CHECK(o2.ranks && strcmp(o.ranks, o2.ranks) == 0);
    CHECK(o2.iters && strcmp(o.iters, o2.iters) == 0);
    CHECK(o2.load && strcmp(o.load, o2.load) == 0);
    outputs_free(&o2);
    /* another seed: another fill */
    snprintf(text, sizeof text, small_xc, 4, "0.0", "aged");
    CHECK_EQ_U(run(text, &o2, &c), 0);
    CHECK(o2.ranks && strcmp(o.ranks, o2.ranks) != 0);
    outputs_free(&o2);
    outputs_free(&o);

    /* the window opens when the measured job starts: the fill's
     * ping-pongs, done by then, offered nothing in it */
    snprintf(text, sizeof text, small_xc, 3, "200.0", "random");
    rc = run(text, &o, &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        CHECK_NEAR(field(o.load, "0,fill,", 4), 200, 0);
        CHECK_NEAR(field(o.load, "0,fill,", 6), 0, 0);
        CHECK_NEAR(field(o.load, "0,fill,", 9), 0, 0);
        CHECK(field(o.jobs, "0,1,bg-000-pingpong,", 15) == 10000);
        CHECK(field(o.load, "0,measured,", 6) > 0);
    } else {
        fprintf(stderr, "%s", cap_text(&c));
    }
    outputs_free(&o);
    cap_free(&c);
}

/* `dfsim run`: a file whose fill does not fit the system fails before
 * anything runs, exit status 1, naming file, line and key; a good one
 * prints the fill and the offered load and writes load.csv. */
static void test_cli(void)
{
    static char out[1 << 16], err[1 << 16];
    char text[2048];
    snprintf(text, sizeof text, small_xc, 3, "0.0", "contiguous");
    char *bad = strdup(text);
    CHECK(bad != NULL);
    if (!bad)
        return;
    char *s = strstr(bad, "sizes = [2, 4]");
    memcpy(s, "sizes = [2, 9]", 14);
    s = strstr(bad, "fill = 0.25");
    memcpy(s, "fill = 0.02", 11); /* 8 busy: 6 for the fill */
    const char *cfg = write_temp("prodbad.cfg", bad);
    const char *argv[] = { "run", cfg, "-o", "/tmp/dfsim-prod-never", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "prodbad.cfg:6: error: production.sizes[1]: 9 "
                            "nodes, more than the 6 the fill takes");
    CHECK(access("/tmp/dfsim-prod-never", F_OK) != 0);
    unlink(cfg);
    free(bad);

    char dir[64] = "/tmp/dfsim-prod-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    cfg = write_temp("prod.cfg", text);
    const char *argv2[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv2, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "production fill: other users' jobs (1 "
                            "workloads, placement contiguous) take 110 "
                            "nodes around the 2 of these jobs, up to 0.25 "
                            "of the 448 nodes");
    CHECK_STR_CONTAINS(out, "background jobs of the production fill on ");
    CHECK_STR_CONTAINS(out, "\n  fill    ");
    char p[256];
    snprintf(p, sizeof p, "%s/load.csv", dir);
    char *csv = read_text(p);
    static const char head[] = "run,class,jobs,nodes,start_us,window_us,"
                               "bytes,data_bytes,gbps,injection_share,"
                               "global_share,own_share\n";
    CHECK(csv && strncmp(csv, head, sizeof head - 1) == 0);
    free(csv);
    /* the report says what the fill offered */
    snprintf(p, sizeof p, "%s/report.html", dir);
    char *html = read_text(p);
    CHECK_STR_CONTAINS(html, "Offered load over the measured window");
    CHECK_STR_CONTAINS(html, "; measured (1 jobs on 2 nodes): ");
    CHECK_STR_CONTAINS(html, "(load.csv): fill (");
    free(html);
    static const char *const files[] = {
        "jobs.csv", "iterations.csv", "ranks.csv", "metrics.csv",
        "variants.csv", "load.csv", "runs.csv", "probe.csv",
        "topology.json", "report.html", "report.log", "variants.dat",
        "variants.gp", "variants.svg" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rm_dir(dir);
    unlink(cfg);
}

const struct test_case tests_production[] = {
    TEST(test_load),
    TEST(test_load_errors),
    TEST(test_system_errors),
    TEST(test_draw),
    TEST(test_placements),
    TEST(test_weights),
    TEST(test_example),
    TEST(test_sc19_one_fill),
    TEST(test_run_offered),
    TEST(test_cli),
    { 0 },
};
