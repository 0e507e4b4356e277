/* tests/test_tc.c — traffic classes (net.h struct net_tc; SC'20 §II-E):
 * the arbitration at the network's level, network.traffic_classes and a
 * job's traffic_class in experiment files (read, checked, reaching the
 * network and the jobs), two jobs sharing a link by their classes, and
 * SC'20 §III-B's examples.
 *
 * At the network's level:
 * Two NICs of one router each stream a PUT to a NIC of a second router of
 * the group: with minimal routing both cross the one local link between
 * the routers, which carries half of what the two inject. Until the first
 * stream ends, the link's bytes split between them as the classes say:
 * evenly in one class, by their minimum bandwidths in two (SC'20 §III-B:
 * minimums of 80 % and 10 % gave 80 % and 20 %), all to the class with
 * the higher priority. With one class the model is the one of every other
 * test (the VC layout and arbitration do not change). */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/registry.h"
#include "core/sim.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/builders.h"
#include "topo/topo.h"

extern const struct registry routing_registry;

struct th {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    uint64_t bytes[2];  /* request payload delivered, per stream */
    uint64_t at_first[2]; /* ... when the first stream completed */
    bool first_done;
};

static void delivered(void *ctx, const struct packet *p, simtime now)
{
    struct th *h = ctx;
    if (p->cls == PKT_REQ && p->src_nic < 2)
        h->bytes[p->src_nic] += p->payload;
    (void)now;
}

static void done(void *ctx, uint32_t m, const struct message *msg,
                 simtime now)
{
    struct th *h = ctx;
    if (!h->first_done) {
        h->first_done = true;
        h->at_first[0] = h->bytes[0];
        h->at_first[1] = h->bytes[1];
    }
    (void)m, (void)msg, (void)now;
}

/* Stream 0 (NIC 0 -> 2) in class tc0, stream 1 (NIC 1 -> 3) in tc1;
 * classes as given (n_tcs 0: the default single class). Returns stream
 * 1's share of the bytes delivered until the first stream ended. */
static double share(uint32_t n_tcs, const struct net_tc *tcs, uint8_t tc0,
                    uint8_t tc1)
{
    struct th h;
    memset(&h, 0, sizeof h);
    diag_init(&h.d);
    union topo_params tp;
    topo_builder_dragonfly.defaults(&tp);
    tp.dragonfly.p = 2, tp.dragonfly.a = 4, tp.dragonfly.h = 2;
    tp.dragonfly.g = 0;
    CHECK(topo_build(&h.t, &topo_builder_dragonfly, &tp, "df", "df", &h.d,
                     NULL) == 0);
    CHECK(sim_init(&h.s, EVQ_HEAP4, net_entities(&h.t)) == 0);
    struct net_params np;
    cc_net_defaults(&np, &h.t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       "minimal");
    np.n_tcs = n_tcs;
    for (uint32_t k = 0; k < n_tcs; k++)
        np.tc[k] = tcs[k];
    CHECK(net_init(&h.n, &h.t, &np, &h.s, 1, &h.d) == 0);
    h.n.hooks = (struct net_hooks){ .ctx = &h, .delivered = delivered,
                                    .msg_done = done };
    /* NICs 0, 1 on router 0; 2, 3 on router 1 (p = 2), one group */
    CHECK(h.t.nics[0].router == h.t.nics[1].router);
    CHECK(h.t.nics[2].router == h.t.nics[3].router);
    CHECK(h.t.nics[0].router != h.t.nics[2].router);
    net_send_tc(&h.n, 0, 2, NET_PUT, 1u << 20, 0, tc0, 0, 0);
    net_send_tc(&h.n, 1, 3, NET_PUT, 1u << 20, 0, tc1, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(h.first_done);
    CHECK_EQ_U(h.bytes[0], 1u << 20);
    CHECK_EQ_U(h.bytes[1], 1u << 20);
    double s = (double)h.at_first[1] /
               (double)(h.at_first[0] + h.at_first[1]);
    net_free(&h.n);
    sim_free(&h.s);
    topo_free(&h.t);
    return s;
}

static void test_class_shares(void)
{
    /* one class: the two streams share the link */
    double one = share(0, NULL, 0, 0);
    /* the same two classes: still one queue each way */
    struct net_tc two[2] = { { .weight = 800 }, { .weight = 100 } };
    double same = share(2, two, 0, 0);
    /* separate classes, minimums 80 % and 10 %: the unallocated 10 % to
     * the lesser, 80 / 20 */
    double sep = share(2, two, 0, 1);
    /* equal minimums */
    struct net_tc eq[2] = { { .weight = 500 }, { .weight = 500 } };
    double even = share(2, eq, 0, 1);
    /* priority: the second class first whatever the minimums */
    struct net_tc pr[2] = { { .weight = 800 }, { .weight = 100,
                                                  .priority = 1 } };
    double prio = share(2, pr, 0, 1);
    fprintf(stderr, "  stream 1's share of the link: one class %.3f, same "
            "class of two %.3f, 80/10 %.3f, 50/50 %.3f, higher priority "
            "%.3f\n", one, same, sep, even, prio);
    CHECK(fabs(one - 0.5) < 0.05);
    CHECK(fabs(same - 0.5) < 0.05);
    CHECK(fabs(sep - 0.2) < 0.03);
    CHECK(fabs(even - 0.5) < 0.03);
    CHECK(prio > 0.95);
}

/* Classes are checked where the network is built. */
static void test_class_limits(void)
{
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    diag_init(&d);
    union topo_params tp;
    topo_builder_dragonfly.defaults(&tp);
    tp.dragonfly.p = 2, tp.dragonfly.a = 4, tp.dragonfly.h = 2;
    tp.dragonfly.g = 0;
    CHECK(topo_build(&t, &topo_builder_dragonfly, &tp, "df", "df", &d,
                     NULL) == 0);
    CHECK(sim_init(&s, EVQ_HEAP4, net_entities(&t)) == 0);
    struct net_params np;
    cc_net_defaults(&np, &t);
    /* minimums above a link */
    np.n_tcs = 2;
    np.tc[0].weight = 700, np.tc[1].weight = 400;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) != 0);
    /* 4 VCs per class, 3 classes: 24 VCs > 16 */
    np.tc[1].weight = 100;
    np.n_tcs = 3;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) != 0);
    /* 2 classes of 4 + 4 VCs fit */
    np.n_tcs = 2;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) == 0);
    CHECK_EQ_U(n.V, 16);
    net_free(&n);
    sim_free(&s);
    topo_free(&t);
}

/* ---- experiment files: network.traffic_classes, a job's traffic_class */

/* Load `text` as an experiment file; on success also the network
 * parameters (the checks that need the system). Messages into c. */
static int load_text(struct experiment *e, const char *text,
                     struct net_params *np, struct capture *c)
{
    const char *path = write_temp("tc.cfg", text);
    CHECK(path != NULL);
    int rc = experiment_load(e, path, -1, &c->d);
    unlink(path);
    if (rc != 0)
        return rc;
    struct topo t;
    rc = experiment_build_topo(e, &t, &c->d);
    if (rc == 0) {
        rc = experiment_net_params(e, &t, np, &c->d);
        topo_free(&t);
    }
    if (rc != 0)
        experiment_free(e);
    return rc;
}

/* The classes reach the network's parameters, per mille, in the order
 * given; jobs, victims and aggressors get their class's index, the first
 * class without the key. */
static void test_config_classes(void)
{
    struct capture c;
    cap_init(&c);
    struct experiment e;
    struct net_params np;
    int rc = load_text(&e,
        "system = { name = \"malbec\"; };\n"
        "network = { traffic_classes = (\n"
        "  { name = \"bulk\"; min_share = 0.8; },\n"
        "  { name = \"latency\"; min_share = 0.1; priority = true; } ); };\n"
        "jobs = (\n"
        "  { workload = \"allreduce\"; nodes = 4; },\n"
        "  { workload = \"alltoall\"; nodes = 4; traffic_class = \"latency\"; },\n"
        "  { workload = \"barrier\"; nodes = 4; traffic_class = \"bulk\"; }\n"
        ");\n", &np, &c);
    CHECK_EQ_U(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    CHECK_EQ_U(np.n_tcs, 2);
    CHECK_EQ_U(np.tc[0].weight, 800);
    CHECK_EQ_U(np.tc[0].priority, 0);
    CHECK_EQ_U(np.tc[1].weight, 100);
    CHECK_EQ_U(np.tc[1].priority, 1);
    CHECK_EQ_U(e.jobs.job[0].tc, 0);
    CHECK_EQ_U(e.jobs.job[1].tc, 1);
    CHECK_EQ_U(e.jobs.job[2].tc, 0);
    experiment_free(&e);

    /* no classes: one, and every job in it */
    rc = load_text(&e, "system = { name = \"malbec\"; };\n"
                       "jobs = ( { workload = \"barrier\"; nodes = 2; } );\n",
                   &np, &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        CHECK_EQ_U(np.n_tcs, 0);
        CHECK_EQ_U(e.jobs.job[0].tc, 0);
        experiment_free(&e);
    }

    /* the impact section's victims and aggressors; the generic dragonfly
     * takes classes as a what-if */
    rc = load_text(&e,
        "system = { topology = \"dragonfly\"; p = 2; a = 4; h = 2; };\n"
        "network = { traffic_classes = ( { name = \"a\"; },\n"
        "                                 { name = \"b\"; } ); };\n"
        "impact = { shares = [0.5];\n"
        "  victims = ( { workload = \"barrier\"; iterations = 2;\n"
        "                traffic_class = \"b\"; } );\n"
        "  aggressors = ( { workload = \"gpcnet-a2a\"; },\n"
        "                 { workload = \"gpcnet-rma-incast\";\n"
        "                   traffic_class = \"b\"; } ); };\n", &np, &c);
    CHECK_EQ_U(rc, 0);
    if (rc == 0) {
        CHECK_EQ_U(e.impact.victim[0].tc, 1);
        CHECK_EQ_U(e.impact.aggressor[0].tc, 0);
        CHECK_EQ_U(e.impact.aggressor[1].tc, 1);
        /* no minimums: the classes share equally (net_init) */
        CHECK_EQ_U(np.tc[0].weight, 0);
        CHECK_EQ_U(np.tc[1].weight, 0);
        experiment_free(&e);
    }
    if (strcmp(cap_text(&c), "") != 0)
        fprintf(stderr, "%s", cap_text(&c));
    CHECK(strcmp(cap_text(&c), "") == 0);
    cap_free(&c);
}

/* Bad input: each mistake a file:line error naming the key, and the load
 * fails. */
static void test_config_errors(void)
{
    static const char slingshot[] = "system = { name = \"malbec\"; };\n";
    static const struct {
        const char *system, *rest, *want;
    } cases[] = {
        /* a job naming a class that is not there */
        { slingshot,
          "network = { traffic_classes = ( { name = \"bulk\"; },\n"
          "  { name = \"latency\"; } ); };\n"
          "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  traffic_class = \"bluk\"; } );\n",
          ":5: error: jobs[0].traffic_class: \"bluk\" is not a class of "
          "network.traffic_classes; known: bulk, latency" },
        /* ... or any class, with none given */
        { slingshot,
          "jobs = ( { workload = \"barrier\"; nodes = 2;\n"
          "  traffic_class = \"bulk\"; } );\n",
          ":3: error: jobs[0].traffic_class: \"bulk\": the network has no "
          "traffic classes" },
        /* an impact aggressor too */
        { slingshot,
          "network = { traffic_classes = ( { name = \"bulk\"; } ); };\n"
          "impact = { shares = [0.5];\n"
          "  victims = ( { workload = \"barrier\"; iterations = 2; } );\n"
          "  aggressors = ( { workload = \"gpcnet-a2a\";\n"
          "                   traffic_class = \"x\"; } ); };\n",
          ":6: error: impact.aggressors[0].traffic_class: \"x\" is not a "
          "class of network.traffic_classes; known: bulk" },
        /* two classes of one name */
        { slingshot,
          "network = { traffic_classes = ( { name = \"bulk\"; },\n"
          "  { name = \"bulk\"; min_share = 0.1; } ); };\n",
          ":3: error: network.traffic_classes[1].name: \"bulk\" is the name "
          "of network.traffic_classes[0] too" },
        /* minimums above a link */
        { slingshot,
          "network = {\n"
          "  traffic_classes = ( { name = \"a\"; min_share = 0.8; },\n"
          "                      { name = \"b\"; min_share = 0.3; } ); };\n",
          ":3: error: network.traffic_classes: the min_share values add up "
          "to 1.100 of a link; expected at most 1" },
        /* a share outside [0, 1] */
        { slingshot,
          "network = { traffic_classes = (\n"
          "  { name = \"a\"; min_share = 1.5; } ); };\n",
          ":3: error: network.traffic_classes[0].min_share: value 1.5 is "
          "out of range" },
        /* a class without a name */
        { slingshot,
          "network = { traffic_classes = ( { min_share = 0.5; } ); };\n",
          "missing required key \"network.traffic_classes[0].name\"" },
        /* more than NET_MAX_TCS */
        { slingshot,
          "network = { traffic_classes = ( { name = \"a\"; },\n"
          "  { name = \"b\"; }, { name = \"c\"; }, { name = \"d\"; },\n"
          "  { name = \"e\"; } ); };\n",
          ":2: error: network.traffic_classes: 5 classes; at most 4" },
        /* more than the ports' VCs hold: 3 x (4 + 4) > 16 */
        { slingshot,
          "network = {\n"
          "  traffic_classes = ( { name = \"a\"; }, { name = \"b\"; },\n"
          "                      { name = \"c\"; } ); };\n",
          ":3: error: network.traffic_classes: 3 classes of 2 x vcs = 8 "
          "VCs each need 24 VCs on a port, which has 16" },
        /* Aries and Gemini have none */
        { "system = { name = \"crystal\"; };\n",
          "network = { traffic_classes = ( { name = \"a\"; } ); };\n",
          ":2: error: network.traffic_classes: the aries family has no "
          "traffic classes" },
        { "system = { name = \"cielo\"; };\n",
          "network = { traffic_classes = ( { name = \"a\"; } ); };\n",
          ":2: error: network.traffic_classes: the torus family has no "
          "traffic classes" },
        /* not a list of groups */
        { slingshot,
          "network = { traffic_classes = \"bulk\"; };\n",
          ":2: error: network.traffic_classes: expected a list of groups" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct capture c;
        cap_init(&c);
        char text[2048];
        snprintf(text, sizeof text, "%s%s", cases[i].system, cases[i].rest);
        struct experiment e;
        struct net_params np;
        int rc = load_text(&e, text, &np, &c);
        CHECK(rc != 0);
        if (rc == 0)
            experiment_free(&e);
        if (!strstr(cap_text(&c), cases[i].want)) {
            test_failures++;
            fprintf(stderr, "  case %zu: expected \"%s\" in:\n%s", i,
                    cases[i].want, cap_text(&c));
        }
        cap_free(&c);
    }
}

/* ---- jobs: two jobs, one bottleneck ------------------------------------ */

/* Two osu_bw jobs on the generic dragonfly with minimal routing, each from
 * a NIC of router 0 to a NIC of router 1 (nodes 0 -> 2 and 1 -> 3, as
 * share() above), so that all their data crosses the one local link
 * between the routers, whose rate is a NIC's: either alone fills it. Each
 * moves D = iterations x window x bytes. `classes` is the network section's
 * traffic_classes (NULL: none), tc_a and tc_b the jobs' traffic_class
 * (NULL: none); run_b false runs job A alone. Returns each job's run time
 * (ps) in t[0], t[1]. */
static void two_bw(const char *classes, const char *tc_a, const char *tc_b,
                   bool run_b, double t[2])
{
    char text[2048], ka[64] = "", kb[64] = "";
    if (tc_a)
        snprintf(ka, sizeof ka, " traffic_class = \"%s\";", tc_a);
    if (tc_b)
        snprintf(kb, sizeof kb, " traffic_class = \"%s\";", tc_b);
    snprintf(text, sizeof text,
             "system = { topology = \"dragonfly\"; p = 2; a = 4; h = 2; };\n"
             "network = { routing = \"minimal\"; %s };\n"
             "jobs = (\n"
             "  { name = \"A\"; workload = \"bw\"; allocation = \"list\";\n"
             "    node_list = \"0,2\"; bytes = 65536; window = 16;\n"
             "    iterations = 4;%s }%s\n"
             "  { name = \"B\"; workload = \"bw\"; allocation = \"list\";\n"
             "    node_list = \"1,3\"; bytes = 65536; window = 16;\n"
             "    iterations = 4;%s }\n"
             ");\n",
             classes ? classes : "", ka, run_b ? "," : "", kb);
    if (!run_b) { /* cut job B out */
        char *b = strstr(text, "  { name = \"B\"");
        snprintf(b, sizeof text - (size_t)(b - text), ");\n");
    }
    t[0] = t[1] = 0;
    struct capture c;
    cap_init(&c);
    struct experiment e;
    struct net_params np;
    if (load_text(&e, text, &np, &c) != 0) {
        test_failures++;
        fprintf(stderr, "  %s\n%s", text, cap_text(&c));
        cap_free(&c);
        return;
    }
    struct topo t_;
    CHECK(experiment_build_topo(&e, &t_, &c.d) == 0);
    /* the two pairs share router 0 -> router 1 and nothing else */
    CHECK(t_.nics[0].router == t_.nics[1].router);
    CHECK(t_.nics[2].router == t_.nics[3].router);
    CHECK(t_.nics[0].router != t_.nics[2].router);
    struct jobs_capture cap = { 0 };
    struct jobs_output out = { .capture = &cap };
    simtime end = 0;
    int rc = jobs_run(&e.jobs, &t_, &np, 1, e.info.time_limit, &out, &end,
                      &c.d);
    CHECK_EQ_U(rc, 0);
    CHECK_EQ_U(cap.n, e.jobs.n);
    for (uint32_t j = 0; j < cap.n && j < 2; j++) {
        CHECK(cap.job[j].finished);
        CHECK_EQ_U(cap.job[j].n_iter, 4);
        for (uint32_t i = 0; i < cap.job[j].n_iter; i++)
            t[j] += (double)cap.job[j].iter[i];
    }
    jobs_capture_free(&cap);
    topo_free(&t_);
    experiment_free(&e);
    cap_free(&c);
}

/* SC'20 §III-B's bandwidth guarantee, at the jobs level. With one link
 * of rate R between the routers and T = D / R the time of a job alone:
 *  - in one class the link's round-robin gives each job half while both
 *    stream, so both end at about 2 T;
 *  - in classes of minimums 80 % and 10 % (the unallocated 10 % to the
 *    lesser: 80 / 20), A moves 0.8 R until it ends at T / 0.8 = 1.25 T,
 *    when B has moved 0.25 D; B's other 0.75 D go at R: B ends at 2 T.
 * The margins leave room for what the fluid picture leaves out: the
 * rendezvous handshakes, the per-iteration acknowledgement (a job's pipe
 * drains at the end of each window) and the packet-level arbitration. */
static void test_jobs_shares(void)
{
    static const char classes[] =
        "traffic_classes = ( { name = \"tc1\"; min_share = 0.8; },\n"
        "                    { name = \"tc2\"; min_share = 0.1; } );";
    double alone[2], same[2], sep[2], none[2];
    two_bw(classes, "tc1", NULL, false, alone);
    two_bw(NULL, NULL, NULL, true, none);
    two_bw(classes, "tc2", "tc2", true, same);
    two_bw(classes, "tc1", "tc2", true, sep);
    fprintf(stderr, "  run time / alone: no classes A %.3f B %.3f, one "
            "class A %.3f B %.3f, 80/10 A %.3f B %.3f\n",
            none[0] / alone[0], none[1] / alone[0], same[0] / alone[0],
            same[1] / alone[0], sep[0] / alone[0], sep[1] / alone[0]);
    CHECK(alone[0] > 0);
    if (alone[0] <= 0)
        return;
    /* one class (or none): an even split, each ~2 T */
    CHECK(fabs(same[0] / alone[0] - 2.0) < 0.2);
    CHECK(fabs(same[1] / alone[0] - 2.0) < 0.2);
    CHECK(fabs(same[0] / same[1] - 1.0) < 0.1);
    CHECK(fabs(none[0] / same[0] - 1.0) < 0.05);
    CHECK(fabs(none[1] / same[1] - 1.0) < 0.05);
    /* separate classes: A at 80 % of the link, B the rest, then all */
    CHECK(fabs(sep[0] / alone[0] - 1.25) < 0.1);
    CHECK(fabs(sep[1] / alone[0] - 2.0) < 0.2);
    /* B's share while both ran: what it moved by A's end over what both
     * moved, from B's rate after (R): B's bytes by then are
     * D - (t_B - t_A) R = D (1 - (t_B - t_A) / T) */
    double b_by_a = 1.0 - (sep[1] - sep[0]) / alone[0];
    double share_b = b_by_a / (1.0 + b_by_a);
    fprintf(stderr, "  B's share while both streamed: %.3f (80/10 "
            "minimums: 0.2)\n", share_b);
    CHECK(fabs(share_b - 0.2) < 0.05);
}

/* SC'20 §III-B's examples load, pass the checks that need their system,
 * and set the classes their headers describe. */
static void test_examples(void)
{
    static const struct {
        const char *file;
        uint32_t w0, w1, victim_tc, aggressor_tc[2];
    } ex[] = {
        { "examples/sc20-tc.cfg", 500, 500, 0, { 0, 1 } },
        { "examples/sc20-tc-bandwidth.cfg", 800, 100, 1, { 1, 0 } },
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        struct capture c;
        cap_init(&c);
        struct experiment e;
        struct net_params np;
        int rc = experiment_load(&e, src_path(ex[i].file), -1, &c.d);
        if (rc == 0) {
            struct topo t;
            rc = experiment_build_topo(&e, &t, &c.d);
            if (rc == 0) {
                rc = experiment_net_params(&e, &t, &np, &c.d);
                topo_free(&t);
            }
            if (rc == 0) {
                CHECK(e.impact.on);
                CHECK_EQ_U(np.n_tcs, 2);
                CHECK_EQ_U(np.tc[0].weight, ex[i].w0);
                CHECK_EQ_U(np.tc[1].weight, ex[i].w1);
                CHECK_EQ_U(e.impact.n_victims, 1);
                CHECK_EQ_U(e.impact.n_aggressors, 2);
                if (e.impact.n_victims == 1 && e.impact.n_aggressors == 2) {
                    CHECK_EQ_U(e.impact.victim[0].tc, ex[i].victim_tc);
                    CHECK_EQ_U(e.impact.aggressor[0].tc,
                               ex[i].aggressor_tc[0]);
                    CHECK_EQ_U(e.impact.aggressor[1].tc,
                               ex[i].aggressor_tc[1]);
                }
            }
            experiment_free(&e);
        }
        if (rc != 0)
            fprintf(stderr, "  %s:\n%s", ex[i].file, cap_text(&c));
        CHECK_EQ_U(rc, 0);
        cap_free(&c);
    }
}

const struct test_case tests_tc[] = {
    TEST(test_class_shares),
    TEST(test_class_limits),
    TEST(test_config_classes),
    TEST(test_config_errors),
    TEST(test_jobs_shares),
    TEST(test_examples),
    { 0 },
};
