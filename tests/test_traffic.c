/* tests/test_traffic.c — synthetic traffic (exp/traffic) and the network
 * and traffic sections of experiment files (exp/experiment).
 *
 * Destination patterns are checked on their definitions (worst-case lands
 * in group g+1, bit-complement on N-1-i, the permutation is a derangement
 * and a bijection, hotspot fraction 1 is an incast), the latency histogram
 * on known samples, the experiment-file sections on their exact messages
 * (file, line, key), and whole runs end to end on a small dragonfly:
 * drained, no deadlock, accepted load equal to offered below saturation,
 * deterministic (same hash with either event queue), and written by
 * `dfsim run` as a byte-identical traffic.csv. */
#include "test.h"
#include "mpi_util.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/experiment.h"
#include "exp/traffic.h"
#include "results/traffic_report.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/topo.h"

/* ---- helpers --------------------------------------------------------- */

static struct diag quiet(void)
{
    struct diag d;
    diag_init(&d);
    return d;
}

static uint32_t node_group(const struct topo *t, uint32_t n)
{
    return t->routers[t->nics[t->nodes[n].nic[0]].router].group;
}

static int dests(struct traffic_dests *td, const struct topo *t,
                 enum traffic_pattern pat, uint64_t seed)
{
    struct traffic_params p;
    traffic_defaults(&p);
    p.pattern = pat;
    struct diag d = quiet();
    int rc = traffic_dests_init(td, t, &p, seed, &d);
    CHECK(rc == 0);
    return rc;
}


/* ---- destination patterns ------------------------------------------- */

static void test_uniform_never_self_covers_all(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0) /* 9 groups, 72 nodes */
        return;
    struct traffic_dests td;
    if (dests(&td, &t, TRAFFIC_UNIFORM, 1) == 0) {
        uint32_t *hits = calloc(t.n_nodes, sizeof *hits);
        struct rng r = rng_stream(1, RNG_TEST, 0);
        const uint32_t draws = 200 * 71;
        for (uint32_t i = 0; i < draws; i++) {
            uint32_t dst = traffic_dest(&td, 5, &r);
            CHECK(dst < t.n_nodes && dst != 5);
            if (dst < t.n_nodes)
                hits[dst]++;
        }
        for (uint32_t n = 0; n < t.n_nodes; n++)
            if (n != 5)
                CHECK(hits[n] > 120 && hits[n] < 290); /* ~200 each */
        CHECK_EQ_U(hits[5], 0);
        free(hits);
        traffic_dests_free(&td);
    }
    topo_free(&t);
}

static void test_worst_case_next_group(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_dests td;
    if (dests(&td, &t, TRAFFIC_WORST_CASE, 3) == 0) {
        struct rng r = rng_stream(3, RNG_TEST, 1);
        uint32_t G = t.n_groups, bad = 0;
        CHECK_EQ_U(G, 9);
        for (uint32_t n = 0; n < t.n_nodes; n++)
            for (int k = 0; k < 50; k++) {
                uint32_t dst = traffic_dest(&td, n, &r);
                bad += dst >= t.n_nodes ||
                       node_group(&t, dst) != (node_group(&t, n) + 1) % G;
            }
        CHECK_EQ_U(bad, 0);
        traffic_dests_free(&td);
    }
    topo_free(&t);

    /* one group (a torus): uniform, never itself */
    if (mpi_h_torus(&t, 3, 1, 1) != 0)
        return;
    if (dests(&td, &t, TRAFFIC_WORST_CASE, 3) == 0) {
        struct rng r = rng_stream(3, RNG_TEST, 2);
        for (int k = 0; k < 100; k++) {
            uint32_t dst = traffic_dest(&td, 2, &r);
            CHECK(dst < t.n_nodes && dst != 2);
        }
        traffic_dests_free(&td);
    }
    topo_free(&t);
}

static void test_nearest_group_same_group(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_dests td;
    if (dests(&td, &t, TRAFFIC_NEAREST_GROUP, 1) == 0) {
        struct rng r = rng_stream(1, RNG_TEST, 3);
        uint32_t bad = 0;
        for (uint32_t n = 0; n < t.n_nodes; n++)
            for (int k = 0; k < 30; k++) {
                uint32_t dst = traffic_dest(&td, n, &r);
                bad += dst >= t.n_nodes || dst == n ||
                       node_group(&t, dst) != node_group(&t, n);
            }
        CHECK_EQ_U(bad, 0);
        traffic_dests_free(&td);
    }
    topo_free(&t);
}

static void test_bit_complement(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_dests td;
    if (dests(&td, &t, TRAFFIC_BIT_COMPLEMENT, 1) == 0) {
        struct rng r = rng_stream(1, RNG_TEST, 4);
        for (uint32_t n = 0; n < t.n_nodes; n++)
            CHECK_EQ_U(traffic_dest(&td, n, &r), t.n_nodes - 1 - n);
        traffic_dests_free(&td);
    }
    topo_free(&t);

    /* an odd count: the middle node has no partner */
    if (mpi_h_dragonfly(&t, 1, 3, 1, 3) != 0) /* 9 nodes */
        return;
    if (dests(&td, &t, TRAFFIC_BIT_COMPLEMENT, 1) == 0) {
        struct rng r = rng_stream(1, RNG_TEST, 5);
        CHECK_EQ_U(t.n_nodes, 9);
        CHECK_EQ_U(traffic_dest(&td, 4, &r), TRAFFIC_NONE);
        CHECK_EQ_U(traffic_dest(&td, 0, &r), 8);
        CHECK_EQ_U(traffic_dest(&td, 5, &r), 3);
        traffic_dests_free(&td);
    }
    topo_free(&t);
}

/* A derangement (no node sends to itself) and a bijection (every node
 * receives from exactly one), for many seeds and sizes down to 2. */
static void test_permutation_derangement(void)
{
    struct topo tops[4];
    int ok[4] = {
        mpi_h_dragonfly(&tops[0], 1, 1, 1, 2),  /* 2 nodes */
        mpi_h_dragonfly(&tops[1], 1, 3, 1, 1),  /* 3 nodes */
        mpi_h_torus(&tops[2], 3, 1, 1),  /* 6 nodes */
        mpi_h_dragonfly(&tops[3], 2, 4, 2, 0),  /* 72 nodes */
    };
    for (int k = 0; k < 4; k++) {
        if (ok[k] != 0)
            continue;
        const struct topo *t = &tops[k];
        for (uint64_t seed = 0; seed < 50; seed++) {
            struct traffic_dests td;
            if (dests(&td, t, TRAFFIC_PERMUTATION, seed) != 0)
                break;
            uint32_t *in = calloc(t->n_nodes, sizeof *in);
            struct rng r = rng_stream(seed, RNG_TEST, 6);
            uint32_t fixed = 0, unstable = 0;
            for (uint32_t n = 0; n < t->n_nodes; n++) {
                uint32_t dst = traffic_dest(&td, n, &r);
                CHECK(dst < t->n_nodes);
                if (dst >= t->n_nodes)
                    continue;
                fixed += dst == n;
                in[dst]++;
                unstable += traffic_dest(&td, n, &r) != dst;
            }
            CHECK_EQ_U(fixed, 0);
            CHECK_EQ_U(unstable, 0);
            for (uint32_t n = 0; n < t->n_nodes; n++)
                CHECK_EQ_U(in[n], 1);
            free(in);
            traffic_dests_free(&td);
        }
        topo_free(&tops[k]);
    }
}

static void test_hotspot(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params p;
    traffic_defaults(&p);
    p.pattern = TRAFFIC_HOTSPOT;
    p.hotspot_node = 17;
    p.hotspot_fraction = 1.0;
    struct traffic_dests td;
    struct diag d = quiet();
    if (traffic_dests_init(&td, &t, &p, 1, &d) == 0) {
        struct rng r = rng_stream(1, RNG_TEST, 7);
        uint32_t bad = 0;
        for (uint32_t n = 0; n < t.n_nodes; n++)
            for (int k = 0; k < 20; k++) {
                uint32_t dst = traffic_dest(&td, n, &r);
                bad += n == 17 ? (dst == 17 || dst >= t.n_nodes)
                               : dst != 17;
            }
        CHECK_EQ_U(bad, 0);
        traffic_dests_free(&td);
    }

    /* half of the messages */
    p.hotspot_fraction = 0.5;
    if (traffic_dests_init(&td, &t, &p, 1, &d) == 0) {
        struct rng r = rng_stream(1, RNG_TEST, 8);
        uint32_t hot = 0;
        for (int k = 0; k < 10000; k++)
            hot += traffic_dest(&td, 3, &r) == 17;
        /* 0.5 + 0.5/71 of 10000 = 5070; 5 sigma is 250 */
        CHECK(hot > 4820 && hot < 5320);
        traffic_dests_free(&td);
    }

    /* a node that does not exist */
    p.hotspot_node = 72;
    struct capture c;
    cap_init(&c);
    CHECK(traffic_dests_init(&td, &t, &p, 1, &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "error: traffic.hotspot_node: node 72 "
                                     "does not exist; the system has 72 "
                                     "nodes (0 .. 71)\n");
    cap_free(&c);
    topo_free(&t);
}

/* ---- latency histogram ----------------------------------------------- */

static void test_hist_quantiles(void)
{
    struct traffic_hist h;
    CHECK(traffic_hist_init(&h, 1000) == 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.5), 0, 0);
    CHECK_NEAR(traffic_hist_mean_ns(&h), 0, 0);
    /* 1 .. 100 ns, added out of order; + 0.4 ns stays in the bin */
    for (uint32_t i = 0; i < 100; i++) {
        uint32_t v = (i * 37) % 100 + 1;
        traffic_hist_add(&h, v * SIMTIME_NS + 400);
    }
    CHECK_EQ_U(h.count, 100);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.5), 50, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.99), 99, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 1.0), 100, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.01), 1, 0);
    CHECK_NEAR(traffic_hist_mean_ns(&h), 50.9, 1e-9);
    CHECK_EQ_U(h.max, 100 * SIMTIME_NS + 400);
    traffic_hist_free(&h);

    /* past the last bin: counted apart, reported as the exact maximum */
    CHECK(traffic_hist_init(&h, 10) == 0);
    for (int i = 0; i < 9; i++)
        traffic_hist_add(&h, 5 * SIMTIME_NS);
    traffic_hist_add(&h, 50 * SIMTIME_NS + 250);
    CHECK_EQ_U(h.overflow, 1);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.5), 5, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.9), 5, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.99), 50.25, 1e-9);
    traffic_hist_free(&h);

    /* one sample */
    CHECK(traffic_hist_init(&h, 10) == 0);
    traffic_hist_add(&h, 7 * SIMTIME_NS);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.5), 7, 0);
    CHECK_NEAR(traffic_hist_quantile_ns(&h, 0.99), 7, 0);
    traffic_hist_free(&h);
}

static void test_pattern_names(void)
{
    for (int i = 0; i < TRAFFIC_PATTERN_COUNT; i++)
        CHECK_EQ_U(traffic_pattern_find(traffic_pattern_names[i]), i);
    CHECK(traffic_pattern_find("Uniform") == -1);
    CHECK(traffic_pattern_find(NULL) == -1);
    CHECK(traffic_pattern_names[TRAFFIC_PATTERN_COUNT] == NULL);
}

/* ---- experiment files: network and traffic sections ------------------- */

/* Load `text` as an experiment (and, when it loads, apply its network
 * section to the built system); return the errors, messages in c. */
static int load(const char *text, struct capture *c, struct net_params *np)
{
    const char *path = write_temp("traffic.cfg", text);
    CHECK(path != NULL);
    if (!path)
        return -1;
    struct experiment e;
    if (experiment_load(&e, path, -1, &c->d) != 0)
        return c->d.errors;
    struct topo t;
    if (experiment_build_topo(&e, &t, &c->d) == 0) {
        struct net_params p;
        experiment_net_params(&e, &t, np ? np : &p, &c->d);
        topo_free(&t);
    }
    experiment_free(&e);
    return c->d.errors;
}

/* Expect `errors` errors, one of them `want` (after "file:"). */
static void expect(const char *text, int errors, const char *want)
{
    struct capture c;
    cap_init(&c);
    CHECK_EQ_U(load(text, &c, NULL), errors);
    char line[1024];
    snprintf(line, sizeof line, "%s:%s", write_temp("traffic.cfg", text),
             want);
    CHECK_STR_CONTAINS(cap_text(&c), line);
    cap_free(&c);
}

/* Word i of the block p holds for the part called `name` (a routing
 * family's parameters are uint32_t words: UGAL's threshold, SS_ADAPTIVE's
 * bias). */
static uint32_t part_u32(const struct net_params *p, const char *name,
                         uint32_t i)
{
    for (uint32_t k = 0; k < p->parts.n; k++)
        if (strcmp(p->parts.part[k]->name, name) == 0) {
            uint32_t w;
            memcpy(&w, p->parts.store + p->parts.off[k] + 4 * i, sizeof w);
            return w;
        }
    CHECK(!"no such part");
    return UINT32_MAX;
}

static void test_sections_valid(void)
{
    struct capture c;
    cap_init(&c);
    const char *path = write_temp(
        "traffic.cfg", "system = { name = \"df1056\"; };\n"
                       "network = {\n"
                       "  routing = \"minimal\";\n"
                       "  router_delay_ns = 50.5;\n"
                       "  vcs = 4;\n"
                       "  buffer_local = 100; buffer_global = 200;\n"
                       "  buffer_endpoint = 300;\n"
                       "  router = \"voq\"; row_buffer = 40;\n"
                       "  col_buffer = 50; tile_columns = 6;\n"
                       "  publish_cycles = 20;\n"
                       "  nic_gap_ns = 2.5;\n"
                       "  max_outstanding = 64;\n"
                       "  max_payload = 128;\n"
                       "  ugal_threshold = 7;\n"
                       "  load_quantum = 20; load_levels = 7;\n"
                       "  adaptive1_add = 9; adaptive3_shift_per_hop = 2;\n"
                       "  ss_bias_shift = 3; ss_bias_add = 11;\n"
                       "};\n"
                       "traffic = {\n"
                       "  pattern = \"worst-case\";\n"
                       "  loads = [0.2, 0.4];\n"
                       "  routings = [\"minimal\", \"UGAL\", \"valiant\"];\n"
                       "  size = 32; warmup_us = 1; measure_us = 2.5;\n"
                       "  drain_us = 3; watchdog_us = 4;\n"
                       "  hotspot_node = 3; hotspot_fraction = 0.25;\n"
                       "  max_queued = 16;\n"
                       "};\n");
    struct experiment e;
    CHECK(path && experiment_load(&e, path, -1, &c.d) == 0);
    if (c.d.errors) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    CHECK(e.has_traffic);
    const struct traffic_sweep *s = &e.traffic;
    CHECK(s->p.pattern == TRAFFIC_WORST_CASE);
    CHECK_EQ_U(s->loads.n, 2);
    CHECK_NEAR(s->loads.v[1], 0.4, 0);
    CHECK_EQ_U(s->routings.n, 3);
    CHECK(strcmp(s->routings.v[1]->name, "UGAL") == 0);
    CHECK(s->p.size == 32);
    CHECK_NEAR(s->p.measure_us, 2.5, 0);
    CHECK_NEAR(s->p.drain_us, 3, 0);
    CHECK_NEAR(s->p.watchdog_us, 4, 0);
    CHECK_EQ_U(s->p.hotspot_node, 3);
    CHECK_NEAR(s->p.hotspot_fraction, 0.25, 0);
    CHECK_EQ_U(s->p.max_queued, 16);

    struct topo t;
    CHECK(experiment_build_topo(&e, &t, &c.d) == 0);
    struct net_params p, def;
    CHECK(experiment_net_params(&e, &t, &p, &c.d) == 0);
    cc_net_defaults(&def, &t);
    CHECK(strcmp(p.routing->base.name, "minimal") == 0);
    CHECK_EQ_U(p.router_delay, 50500);
    CHECK_EQ_U(p.vcs, 4);
    const struct aries_route_params *ap = route_aries_params(&p),
                                    *ad = route_aries_params(&def);
    CHECK(ap && ad);
    if (!ap || !ad)
        return;
    CHECK_EQ_U(ap->load_quantum, 20);
    CHECK_EQ_U(ap->load_levels, 7);
    CHECK_EQ_U(p.buf_local, 100);
    CHECK_EQ_U(p.buf_global, 200);
    CHECK_EQ_U(p.buf_endpoint, 300);
    CHECK(p.router == NET_ROUTER_VOQ);
    CHECK_EQ_U(p.row_buffer, 40);
    CHECK_EQ_U(p.col_buffer, 50);
    CHECK_EQ_U(p.tile_columns, 6);
    CHECK_EQ_U(p.publish_period, time_from_cycles(20, TIME_HZ_ARIES_ROUTER));
    CHECK_EQ_U(p.nic_gap, 2500);
    CHECK_EQ_U(p.max_outstanding, 64);
    CHECK_EQ_U(p.max_payload, 128);
    CHECK_EQ_U(part_u32(&p, "UGAL", 0), 7);   /* ugal_threshold */
    CHECK_EQ_U(ap->bias[1].add, 9);
    CHECK_EQ_U(ap->bias[3].shift_per_hop, 2);
    CHECK_EQ_U(part_u32(&p, "SS_ADAPTIVE", 0), 3);  /* ss_bias_shift */
    CHECK_EQ_U(part_u32(&p, "SS_ADAPTIVE", 1), 11); /* ss_bias_add */
    /* keys not given keep the family's values, but for ADAPTIVE_3's add,
     * which follows the quanta and buffers given: one level above what
     * a node's own stream shows */
    CHECK_EQ_U(ap->bias[1].shift_per_hop, ad->bias[1].shift_per_hop);
    CHECK_EQ_U(ap->bias[3].shift, ad->bias[3].shift);
    CHECK_EQ_U(ap->bias[3].add,
               route_aries_own_level(&p, 20, ap->far_quantum, &t) + 1);
    CHECK_EQ_U(p.flit_bytes, def.flit_bytes);
    CHECK_EQ_U(p.link_eff_num, def.link_eff_num);
    topo_free(&t);
    experiment_free(&e);
    CHECK_EQ_U(c.d.errors, 0);
    cap_free(&c);

    /* no network section: the family's defaults, no traffic */
    cap_init(&c);
    path = write_temp("traffic.cfg", "system = { name = \"cielo\"; };\n");
    CHECK(path && experiment_load(&e, path, -1, &c.d) == 0);
    if (c.d.errors == 0) {
        CHECK(!e.has_traffic);
        CHECK(experiment_build_topo(&e, &t, &c.d) == 0);
        CHECK(experiment_net_params(&e, &t, &p, &c.d) == 0);
        cc_net_defaults(&def, &t);
        CHECK(memcmp(&p, &def, sizeof p) == 0);
        CHECK(strcmp(p.routing->base.name, "DOR") == 0);
        topo_free(&t);
        experiment_free(&e);
    }
    cap_free(&c);
}

static void test_sections_errors(void)
{
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  routings = [\"minimal\",\n"
           "              \"ugal-g\"];\n"
           "};\n",
           1,
           "4: error: traffic.routings[1]: routing \"ugal-g\" is not "
           "registered; known: minimal, valiant, UGAL");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  loads = [0.5, 1.5];\n"
           "};\n",
           1,
           "3: error: traffic.loads[1]: value 1.5 is out of range; "
           "expected a number in [0.001, 1]\n");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = { loads = 0; };\n",
           1,
           "2: error: traffic.loads: value 0 is out of range; expected a "
           "number in [0.001, 1]\n");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  loads = \"high\";\n"
           "};\n",
           1,
           "3: error: traffic.loads: expected a list of numbers, got a "
           "string\n");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  routings = [1, 2];\n"
           "};\n",
           2, "3: error: traffic.routings[0]: expected a routing name (");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  routings = [];\n"
           "};\n",
           1,
           "3: error: traffic.routings: expected at least one value, got "
           "an empty array\n");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = { pattern = \"tornado\"; };\n",
           1,
           "2: error: traffic.pattern: \"tornado\" is not one of: uniform, "
           "permutation, nearest-group, worst-case, bit-complement, "
           "hotspot\n");
    /* a routing the family cannot use, in either section */
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  routings = [\"minimal\",\n"
           "              \"DOR\"];\n"
           "};\n",
           1,
           "4: error: traffic.routings: routing \"DOR\" does not support "
           "the dragonfly topology family; routings for dragonfly: "
           "minimal, valiant, UGAL");
    expect("system = { name = \"cielo\"; };\n"
           "network = {\n"
           "  routing = \"UGAL\";\n"
           "};\n",
           1,
           "3: error: network.routing: routing \"UGAL\" does not support "
           "the torus topology family; routings for torus: DOR\n");
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  vcs = 9;\n"
           "};\n",
           1,
           "3: error: network.vcs: value 9 is out of range; expected an "
           "integer in [1, 8]\n");
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  router = \"crossbar\";\n"
           "};\n",
           1, "3: error: network.router: \"crossbar\" is not one of: "
              "tiled, input-queued, voq\n");
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  buffers = 5;\n"
           "};\n",
           1, "3: error: unknown key \"network.buffers\"; accepted keys: "
              "routing, router_delay_ns, vcs, buffer_local,");
    /* checks that need the built system: too few VCs for the routes */
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  vcs = 2;\n"
           "};\n",
           1,
           "3: error: network.vcs: vcs = 2 is too few: a dragonfly's "
           "route segments need 4 VCs per class to be deadlock-free");
    /* ... and for the VC rule and local order chosen */
    expect("system = { name = \"xc-12cab\"; };\n"
           "network = {\n"
           "  vc_rule = \"hop\";\n"
           "};\n",
           1,
           "3: error: network.vcs: vcs = 4 is too few for vc_rule = \"hop\" "
           "(two VCs per route segment): expected vcs = 8\n");
    expect("system = { name = \"xc-12cab\"; };\n"
           "network = {\n"
           "  vcs = 8;\n"
           "  local_order = \"both\";\n"
           "};\n",
           1,
           "4: error: network.local_order: \"both\" mixes the two orders "
           "of a group's local hops in one route segment, which can close a "
           "cycle of channels on one VC: expected network.vc_rule = \"hop\" "
           "(with vcs = 8) beside it\n");
    expect("system = { name = \"cielo\"; };\n"
           "network = {\n"
           "  vc_rule = \"hop\";\n"
           "};\n",
           1,
           "3: error: network.vc_rule: \"hop\" numbers a dragonfly route's "
           "VCs; a torus's are its dateline pair: expected \"segment\" (or "
           "no vc_rule)\n");
    expect("system = { name = \"cielo\"; };\n"
           "network = {\n"
           "  vcs = 1;\n"
           "};\n",
           1,
           "3: error: network.vcs: vcs = 1 is too few: the torus's "
           "datelines need 2 VCs per class to be deadlock-free");
    expect("system = { name = \"xc-12cab\"; };\n"
           "network = {\n"
           "  adaptive2_add = 64;\n"
           "};\n",
           1,
           "3: error: network.adaptive2_add: value 64 is out of range; "
           "expected an integer in [0, 63]\n");
    /* a buffer smaller than a packet
     * (dragonfly: 16-byte flits, 64 B + a 1-flit header = 5 flits) */
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  buffer_local = 4;\n"
           "};\n",
           1,
           "3: error: network.buffer_local: buffer_local holds 4 flits per "
           "VC, less than the largest packet (5 flits: a PUT request of "
           "max_payload = 64 bytes)");
    /* ... or a payload too large for the default buffers: at its line */
    expect("system = { name = \"df1056\"; };\n"
           "network = {\n"
           "  max_payload = 4096;\n"
           "};\n",
           3,
           "3: error: network.max_payload: buffer_local holds 64 flits per "
           "VC, less than the largest packet (257 flits");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  size = 65;\n"
           "};\n",
           1,
           "3: error: traffic.size: 65 bytes do not fit in one packet of "
           "max_payload = 64 bytes; expected at most 64, or 0 for a full "
           "packet\n");
    expect("system = { name = \"df1056\"; };\n"
           "traffic = {\n"
           "  pattern = \"hotspot\";\n"
           "  hotspot_node = 1056;\n"
           "};\n",
           1,
           "4: error: traffic.hotspot_node: node 1056 does not exist; the "
           "system has 1056 nodes, 0 to 1055\n");
    /* every mistake at once */
    struct capture c;
    cap_init(&c);
    CHECK_EQ_U(load("system = { name = \"df1056\"; };\n"
                    "network = { vcs = 0; routing = \"DOR\"; };\n"
                    "traffic = { loads = [2.0]; drain_us = -1; };\n",
                    &c, NULL),
               4);
    cap_free(&c);
}

/* ---- whole runs --------------------------------------------------------- */

static struct traffic_params quick(enum traffic_pattern pat, double load)
{
    struct traffic_params p;
    traffic_defaults(&p);
    p.pattern = pat;
    p.load = load;
    p.warmup_us = 1;
    p.measure_us = 3;
    p.drain_us = 10;
    return p;
}

static int run(const struct topo *t, const char *routing,
               const struct traffic_params *tp, uint64_t seed,
               enum evq_impl impl, struct traffic_result *r)
{
    struct net_params np;
    cc_net_defaults(&np, t);
    if (routing)
        np.routing = (const struct routing *)registry_find(&routing_registry,
                                                           routing);
    CHECK(np.routing != NULL);
    struct diag d = quiet();
    int rc = traffic_run(t, &np, tp, seed, impl, r, &d);
    CHECK(rc == 0);
    return rc;
}

/* Uniform load 0.3 with minimal routing on a 72-node dragonfly: well
 * below saturation, so every measured packet arrives, accepted equals
 * offered, and minimal paths take at most 3 router hops. */
static void test_run_uniform_minimal(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = quick(TRAFFIC_UNIFORM, 0.3);
    struct traffic_result r;
    if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0) {
        CHECK(r.drained);
        CHECK(!r.deadlock);
        CHECK(r.packets > 1000);
        CHECK_EQ_U(r.refused, 0);
        CHECK_EQ_U(r.packets, r.generated);
        CHECK_NEAR(r.offered, 0.3, 0.03);
        CHECK(fabs(r.accepted - r.offered) <= 0.1 * r.offered);
        CHECK_NEAR(r.frac_nonmin, 0, 0);
        uint64_t far = 0, sum = 0;
        for (int h = 0; h < TRAFFIC_HOP_BINS; h++) {
            far += h > 3 ? r.hops[h] : 0;
            sum += r.hops[h];
        }
        CHECK_EQ_U(far, 0);
        CHECK_EQ_U(sum, r.packets);
        CHECK(r.hops_mean > 1 && r.hops_mean <= 3);
        CHECK(r.lat_median_ns > 100 && r.lat_median_ns < 2000);
        CHECK(r.lat_median_ns <= r.lat_p99_ns);
        CHECK(r.lat_p99_ns <= r.lat_max_ns);
        CHECK(r.lat_mean_ns <= r.lat_max_ns);
        CHECK(r.events > r.packets);
    }
    topo_free(&t);
}

/* Same seed, same results, with either event queue; another seed, other
 * results. */
static void test_run_deterministic(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = quick(TRAFFIC_UNIFORM, 0.4);
    struct traffic_result a, b, c, e;
    if (run(&t, "UGAL", &tp, 7, EVQ_HEAP4, &a) == 0 &&
        run(&t, "UGAL", &tp, 7, EVQ_HEAP4, &b) == 0 &&
        run(&t, "UGAL", &tp, 7, EVQ_PAIRING, &c) == 0 &&
        run(&t, "UGAL", &tp, 8, EVQ_HEAP4, &e) == 0) {
        CHECK_EQ_U(a.hash, b.hash);
        CHECK_EQ_U(a.events, b.events);
        CHECK_EQ_U(a.end, b.end);
        CHECK_EQ_U(a.generated, b.generated);
        CHECK(a.lat_mean_ns == b.lat_mean_ns && a.offered == b.offered &&
              a.accepted == b.accepted && a.lat_p99_ns == b.lat_p99_ns);
        CHECK_EQ_U(a.hash, c.hash);
        CHECK_EQ_U(a.events, c.events);
        CHECK_EQ_U(a.packets, c.packets);
        CHECK(a.hash != e.hash);
    }
    topo_free(&t);
}

/* Every pattern with every dragonfly routing of the test at a light load:
 * drained, no deadlock; and DOR on a torus. */
static void test_run_every_pattern(void)
{
    static const char *const routings[] = { "minimal", "valiant", "UGAL",
                                            "ADAPTIVE_0" };
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    for (int pat = 0; pat < TRAFFIC_PATTERN_COUNT; pat++)
        for (size_t k = 0; k < sizeof routings / sizeof routings[0]; k++) {
            struct traffic_params tp = quick((enum traffic_pattern)pat, 0.05);
            tp.hotspot_fraction = 0.2;
            struct traffic_result r;
            if (run(&t, routings[k], &tp, 2, EVQ_HEAP4, &r) != 0)
                continue;
            CHECK(r.drained && !r.deadlock && r.packets > 0);
            if (!r.drained || r.deadlock || r.packets == 0)
                fprintf(stderr, "  %s with %s\n", traffic_pattern_names[pat],
                        routings[k]);
        }
    topo_free(&t);

    if (mpi_h_torus(&t, 3, 2, 2) != 0)
        return;
    struct traffic_params tp = quick(TRAFFIC_UNIFORM, 0.2);
    struct traffic_result r;
    if (run(&t, NULL, &tp, 1, EVQ_HEAP4, &r) == 0) {
        CHECK(r.drained && !r.deadlock && r.packets > 0);
        CHECK(fabs(r.accepted - r.offered) <= 0.1 * r.offered);
    }
    topo_free(&t);
}

/* The adversarial pattern with minimal routing: each group's traffic
 * shares the one global link to the next group, so the network saturates
 * far below the offered load; the source queues fill and refuse (and so
 * stay short: the measured packets that were sent still arrive). */
static void test_run_worst_case_saturates(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = quick(TRAFFIC_WORST_CASE, 0.8);
    tp.drain_us = 2;
    tp.max_queued = 8;
    struct traffic_result r;
    if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0) {
        CHECK(!r.deadlock);
        CHECK(r.accepted < 0.25);
        CHECK(r.offered > 0.7);
        CHECK(r.refused > 0);
        CHECK(r.packets < r.generated);
        CHECK_EQ_U(r.hops[4], 0);
    }
    topo_free(&t);
}

/* A warm-up shorter than the packets' latency: the window opens while
 * the network is still filling, so the source queues grow in its first
 * part without the network being saturated. With no warm-up and a 1 us
 * window, the judged half opens at 0.5 us, under two first-packet
 * latencies: neither a light load nor the worst case past its global
 * link's share is called saturated, both are "not steady" (traffic.h);
 * with a 3 us warm-up the light load is steady and carried, the worst
 * case steady and saturated. */
static struct traffic_params no_warmup(enum traffic_pattern pat,
                                       double load)
{
    struct traffic_params tp = quick(pat, load);
    tp.warmup_us = 0;
    tp.measure_us = 1;
    return tp;
}

static void test_run_short_warmup(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = no_warmup(TRAFFIC_UNIFORM, 0.1);
    struct traffic_result r;
    if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0) {
        CHECK(r.drained && r.packets > 100);
        CHECK(r.backlog > 0.05); /* the filling, in the whole window */
        CHECK(r.fill_ns > 250); /* 2 x 0.25 us would reach the half */
        CHECK(!r.steady && !r.saturated);
    }
    tp = no_warmup(TRAFFIC_WORST_CASE, 0.8);
    if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0)
        CHECK(!r.steady && !r.saturated);
    for (int k = 0; k < 2; k++) {
        tp = quick(k ? TRAFFIC_WORST_CASE : TRAFFIC_UNIFORM, k ? 0.8 : 0.1);
        tp.warmup_us = 3;
        if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0) {
            CHECK(r.steady);
            CHECK(r.saturated == (k == 1));
            CHECK(r.fill_ns * TRAFFIC_FILL_FACTOR <= 4500); /* t_mid: 4.5 us */
        }
    }
    topo_free(&t);
}

/* The watchdog: with a limit shorter than any packet's flight it must
 * report a deadlock and stop the run at once. */
static void test_run_watchdog(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = quick(TRAFFIC_UNIFORM, 0.5);
    tp.watchdog_us = 0.01; /* 10 ns: less than one router's delay */
    struct traffic_result r;
    if (run(&t, "minimal", &tp, 1, EVQ_HEAP4, &r) == 0) {
        CHECK(r.deadlock);
        CHECK(!r.drained);
        CHECK(r.end < 1 * SIMTIME_US); /* still in the warm-up */
    }
    /* a sensible limit never fires on a working network */
    tp.watchdog_us = 1;
    if (run(&t, "UGAL", &tp, 1, EVQ_HEAP4, &r) == 0)
        CHECK(!r.deadlock && r.drained);
    topo_free(&t);
}

static void test_run_bad_parameters(void)
{
    struct topo t;
    if (mpi_h_dragonfly(&t, 2, 4, 2, 0) != 0)
        return;
    struct net_params np;
    cc_net_defaults(&np, &t);
    struct traffic_params tp = quick(TRAFFIC_UNIFORM, 0.3);
    tp.size = 65;
    struct traffic_result r;
    struct capture c;
    cap_init(&c);
    CHECK(traffic_run(&t, &np, &tp, 1, EVQ_HEAP4, &r, &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "error: traffic.size: 65 bytes do not "
                                     "fit in one packet");
    cap_free(&c);
    topo_free(&t);
}

/* ---- dfsim run ------------------------------------------------------- */

static void test_cli_sweep(void)
{
    static char out[1 << 16], err[1 << 16];
    const char *cfg = write_temp(
        "sweep.cfg", "system = { topology = \"dragonfly\"; p = 2; a = 4; "
                     "h = 2; };\n"
                     "probe = { pairs = 1; };\n"
                     "traffic = {\n"
                     "  loads = [0.1, 0.3];\n"
                     "  routings = [\"minimal\", \"UGAL\"];\n"
                     "  warmup_us = 0.5; measure_us = 1.0;\n"
                     "};\n");
    char d1[64] = "/tmp/dfsim-traffic-XXXXXX", d2[128];
    CHECK(cfg != NULL && mkdtemp(d1) != NULL);
    snprintf(d2, sizeof d2, "%s/again", d1);
    const char *a1[] = { "run", cfg, "-o", d1, NULL };
    const char *a2[] = { "run", cfg, "-o", d2, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "synthetic traffic: uniform, 64-byte messages");
    CHECK_STR_CONTAINS(out, "results in ");
    CHECK_STR_CONTAINS(out, "traffic.csv");
    CHECK_STR_CONTAINS(err, "traffic 1/4: minimal uniform load 0.100");
    CHECK_STR_CONTAINS(err, "traffic 4/4: UGAL uniform load 0.300");
    char want_line[160];
    snprintf(want_line, sizeof want_line, "\nreport: %s/report.html\n", d1);
    CHECK_STR_CONTAINS(out, want_line);
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 0);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s/traffic.csv", d1);
    snprintf(p2, sizeof p2, "%s/traffic.csv", d2);
    char *c1 = read_text(p1), *c2 = read_text(p2);
    CHECK(c1 && c2 && strcmp(c1, c2) == 0);
    if (c1) {
        CHECK(strncmp(c1, "routing,pattern,load,offered,accepted,packets,"
                          "lat_mean_ns,lat_median_ns,lat_p99_ns,lat_max_ns,"
                          "hops_mean,frac_minimal,drained,deadlock,events,"
                          "hash,refused\n",
                      strlen("routing,pattern,")) == 0);
        unsigned lines = 0;
        for (const char *q = c1; *q; q++)
            lines += *q == '\n';
        CHECK_EQ_U(lines, 5);
        CHECK_STR_CONTAINS(c1, "\nminimal,uniform,0.1000,");
        CHECK_STR_CONTAINS(c1, "\nUGAL,uniform,0.3000,");
    }
    free(c1);
    free(c2);
    /* the sweep's report (exp/traffic_report.h) */
    char rp[256];
    snprintf(rp, sizeof rp, "%s/report.html", d1);
    char *page = read_text(rp);
    CHECK(page != NULL);
    if (page) {
        CHECK_STR_CONTAINS(page, "<li>minimal: ");
        CHECK_STR_CONTAINS(page, "<li>UGAL: ");
        CHECK_STR_CONTAINS(page, "<td>0.1000</td>");
    }
    free(page);
    rm_dir(d2); /* the second folder is inside the first */
    rm_dir(d1);

    /* a bad section: exit 1, the message, nothing run */
    cfg = write_temp("sweep.cfg", "system = { name = \"cielo\"; };\n"
                                  "traffic = {\n"
                                  "  routings = [\"UGAL\"];\n"
                                  "};\n");
    const char *a3[] = { "run", cfg, "-o", "/tmp/dfsim-traffic-never", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 1);
    char want[512];
    snprintf(want, sizeof want,
             "%s:3: error: traffic.routings: routing \"UGAL\" does not "
             "support the torus topology family; routings for torus: DOR\n",
             cfg);
    CHECK_STR_CONTAINS(err, want);
    CHECK_EQ_U(strlen(out), 0);
    unlink(cfg);
}

/* ---- the sweep's report (exp/traffic_report.h) ----------------------- */

static struct traffic_point point(const char *routing, double load,
                                  double accepted, bool saturated,
                                  uint64_t packets)
{
    struct traffic_point q = { .routing = routing, .load = load };
    q.r.offered = load;
    q.r.accepted = accepted;
    q.r.saturated = saturated;
    q.r.steady = true;
    q.r.packets = packets;
    q.r.lat_mean_ns = 500 + 1000 * load;
    q.r.lat_median_ns = 480 + 1000 * load;
    q.r.lat_p99_ns = 900 + 4000 * load;
    q.r.hops_mean = 3.5;
    q.r.frac_nonmin = load;
    return q;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned k = 0;
    for (const char *q = hay; (q = strstr(q, needle)) != NULL; q++)
        k++;
    return k;
}

/* Saturation read off points in any order; the page's statements, table
 * and figures; the data sorted by load with "?" where nothing was
 * measured; a sweep without a measured packet says so, not that gnuplot
 * is missing. */
static void test_report(void)
{
    /* loads out of order, as a file may list them */
    struct traffic_point pt[] = {
        point("A", 0.3, 0.22, true, 900),
        point("A", 0.1, 0.1, false, 400),
        point("A", 0.2, 0.19, true, 700),
        point("B", 0.2, 0.2, false, 800),
        point("B", 0.1, 0.1, false, 0), /* nothing measured */
        point("C", 0.1, 0.05, true, 10),
        point("E", 0.1, 0.04, false, 300), /* opened while filling */
    };
    pt[6].r.steady = false;
    uint32_t n = sizeof pt / sizeof pt[0];
    double below, at;
    CHECK_EQ_U(traffic_saturation(pt, n, "A", &below, &at), 3);
    CHECK(below == 0.1 && at == 0.2);
    CHECK_EQ_U(traffic_saturation(pt, n, "B", &below, &at), 2);
    CHECK(below == 0.2 && at == -1);
    CHECK_EQ_U(traffic_saturation(pt, n, "C", &below, &at), 1);
    CHECK(below == -1 && at == 0.1);
    CHECK_EQ_U(traffic_saturation(pt, n, "D", &below, &at), 0);
    CHECK_EQ_U(traffic_saturation(pt, n, "E", &below, &at), 1);
    CHECK(below == -1 && at == -1); /* not steady: no verdict */

    char dir[64] = "/tmp/dfsim-treport-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct traffic_report_info info = {
        .page = "report.html", .title = "sweep <1>", .system = "df",
        .pattern = "uniform", .size = 64, .warmup_us = 1, .measure_us = 2,
        .seed = 7 };
    bool drawn = false;
    CHECK(traffic_report_write(dir, &info, pt, n, &drawn, stderr) == 0);
    CHECK(drawn == have_gnuplot());
    char path[256];
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *page = read_text(path);
    snprintf(path, sizeof path, "%s/traffic.dat", dir);
    char *dat = read_text(path);
    CHECK(page && dat);
    if (page) {
        CHECK_STR_CONTAINS(page, "<h1>sweep &lt;1&gt;</h1>");
        CHECK_STR_CONTAINS(page, "<li>A: saturates between 0.1 and 0.2</li>");
        CHECK_STR_CONTAINS(page, "<li>B: not saturated up to 0.2</li>");
        CHECK_STR_CONTAINS(page, "<li>C: saturated already at 0.1");
        /* a window opened while the network filled: not judged */
        CHECK_STR_CONTAINS(page, "<li>E: no point judged (1 of its 1 "
                                 "points not steady: lengthen warm-up");
        CHECK_EQ_U(count(page, "<td>not steady</td>"), 1);
        CHECK_EQ_U(count(page, "<tr><td>"), n);
        /* the table by routing, then load */
        const char *a1 = strstr(page, "<tr><td>A</td><td>0.1000</td>");
        const char *a3 = strstr(page, "<tr><td>A</td><td>0.3000</td>");
        CHECK(a1 && a3 && a1 < a3);
        CHECK_STR_CONTAINS(page, "<tr><td>B</td><td>0.1000</td><td>0.100"
                                 "</td><td>0.100</td><td>-</td>");
        CHECK_EQ_U(count(page, "<svg"), drawn ? 3 : 0);
        CHECK_EQ_U(count(page, "were not drawn"), drawn ? 0 : 1);
    }
    if (dat) {
        const char *a = strstr(dat, "# A\n");
        CHECK(a && strncmp(a + 4, "0.1000 ", 7) == 0);
        CHECK_STR_CONTAINS(dat, "\n0.1000 0.100000 0.100000 ? ? ? ? ? 0\n");
        CHECK_EQ_U(count(dat, "\n\n\n"), 4); /* a block per routing */
    }
    free(page);
    free(dat);

    /* no packet measured anywhere: the accepted load only */
    struct traffic_point none[] = { point("A", 0.1, 0.0, true, 0) };
    CHECK(traffic_report_write(dir, &info, none, 1, &drawn, stderr) == 0);
    snprintf(path, sizeof path, "%s/report.html", dir);
    page = read_text(path);
    CHECK(page != NULL);
    if (page) {
        CHECK_STR_CONTAINS(page, "No point measured a packet");
        CHECK_EQ_U(count(page, "<svg"), drawn ? 1 : 0);
        CHECK_EQ_U(count(page, "were not drawn"), have_gnuplot() ? 0 : 1);
    }
    free(page);
    rm_dir(dir);
}

const struct test_case tests_traffic[] = {
    TEST(test_uniform_never_self_covers_all),
    TEST(test_worst_case_next_group),
    TEST(test_nearest_group_same_group),
    TEST(test_bit_complement),
    TEST(test_permutation_derangement),
    TEST(test_hotspot),
    TEST(test_hist_quantiles),
    TEST(test_pattern_names),
    TEST(test_sections_valid),
    TEST(test_sections_errors),
    TEST(test_run_uniform_minimal),
    TEST(test_run_deterministic),
    TEST(test_run_every_pattern),
    TEST(test_run_worst_case_saturates),
    TEST(test_run_short_warmup),
    TEST(test_run_watchdog),
    TEST(test_run_bad_parameters),
    TEST(test_cli_sweep),
    TEST(test_report),
    { 0 },
};
