/* tests/test_partition.c — the machine dealt over P processes (net/
 * partition.c, issue 54's first part): whole groups or planes, every
 * router in one part, contiguous balanced blocks, the cut links and the
 * lookahead recomputed here from the ports' latencies, and `dfsim topo
 * NAME --partitions P`. */
#include "test.h"

#include <stdlib.h>

#include "mpi_util.h"
#include "net/params.h"
#include "net/partition.h"

static int build(struct topo *t, const char *name)
{
    struct diag d;
    diag_init(&d);
    int rc = topo_build_system(t, name, &d);
    CHECK(rc == 0);
    return rc;
}

/* The unit (group or plane) router r belongs to under pt. */
static uint32_t unit_of(const struct topo *t, const struct partition *pt,
                        uint32_t r)
{
    if (topo_is(t->family, TOPO_SHAPE_DRAGONFLY))
        return t->routers[r].group;
    return t->routers[r].pos[pt->dim];
}

/* Every router in one part, each unit whole, parts contiguous blocks
 * covering the units in order, the per-part counts as recounted here. */
static void check_parts(const struct topo *t, const struct partition *pt,
                        uint32_t P)
{
    CHECK_EQ_U(pt->parts, P);
    CHECK_EQ_U(pt->n_routers, t->n_routers);
    uint32_t *unit_part = malloc(pt->units * sizeof *unit_part);
    uint32_t *cnt = calloc(3 * (size_t)P, sizeof *cnt);
    CHECK(unit_part && cnt);
    if (!unit_part || !cnt)
        goto out;
    for (uint32_t u = 0; u < pt->units; u++)
        unit_part[u] = TOPO_NONE;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        uint32_t k = pt->router_part[r], u = unit_of(t, pt, r);
        CHECK(k < P);
        CHECK(u < pt->units);
        if (k >= P || u >= pt->units)
            continue;
        if (unit_part[u] == TOPO_NONE)
            unit_part[u] = k;
        CHECK_EQ_U(unit_part[u], k); /* the unit is never split */
        cnt[k]++;
        cnt[P + k] += t->routers[r].n_nics;
    }
    for (uint32_t n = 0; n < t->n_nodes; n++) {
        uint32_t k = pt->router_part[t->nics[t->nodes[n].nic[0]].router];
        for (uint32_t i = 1; i < t->nodes[n].n_nics; i++)
            CHECK_EQ_U(pt->router_part[t->nics[t->nodes[n].nic[i]].router],
                       k); /* a node's NICs stay together */
        cnt[2 * P + k]++;
    }
    uint32_t next = 0;
    for (uint32_t k = 0; k < P; k++) {
        const struct partition_part *q = &pt->part[k];
        CHECK_EQ_U(q->first_unit, next); /* contiguous, in order */
        CHECK(q->units >= 1);
        for (uint32_t u = q->first_unit; u < q->first_unit + q->units &&
                                         u < pt->units; u++)
            CHECK_EQ_U(unit_part[u], k);
        next = q->first_unit + q->units;
        CHECK_EQ_U(q->routers, cnt[k]);
        CHECK_EQ_U(q->nics, cnt[P + k]);
        CHECK_EQ_U(q->nodes, cnt[2 * P + k]);
    }
    CHECK_EQ_U(next, pt->units);
out:
    free(unit_part);
    free(cnt);
}

/* The parts' NICs within one unit's NICs (the largest unit's) of each
 * other. */
static void check_balance(const struct topo *t, const struct partition *pt)
{
    uint32_t *unit_nics = calloc(pt->units, sizeof *unit_nics);
    CHECK(unit_nics != NULL);
    if (!unit_nics)
        return;
    for (uint32_t r = 0; r < t->n_routers; r++)
        unit_nics[unit_of(t, pt, r)] += t->routers[r].n_nics;
    uint32_t umax = 0, lo = UINT32_MAX, hi = 0;
    for (uint32_t u = 0; u < pt->units; u++)
        umax = unit_nics[u] > umax ? unit_nics[u] : umax;
    for (uint32_t k = 0; k < pt->parts; k++) {
        lo = pt->part[k].nics < lo ? pt->part[k].nics : lo;
        hi = pt->part[k].nics > hi ? pt->part[k].nics : hi;
    }
    if (hi - lo > umax)
        fprintf(stderr, "  %s P=%u: parts hold %u..%u NICs, a %s %u\n",
                t->system, pt->parts, lo, hi, pt->unit_word, umax);
    CHECK(hi - lo <= umax);
    free(unit_nics);
}

/* The cut and the lookahead recomputed from the ports: a cut port's
 * credit return takes its wire latency, a packet sent over it wire +
 * router delay (net/router.c, net/credits.c). */
static void check_cut(const struct topo *t, const struct net_params *np,
                      const struct partition *pt)
{
    uint32_t P = pt->parts, links = 0;
    uint32_t *cut = calloc((size_t)P * P, sizeof *cut);
    CHECK(cut != NULL);
    if (!cut)
        return;
    simtime credit = SIMTIME_MAX, arrive = SIMTIME_MAX;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        uint32_t j = t->ports[i].peer;
        if (j == TOPO_NONE)
            continue;
        uint32_t a = pt->router_part[t->ports[i].router];
        uint32_t b = pt->router_part[t->ports[j].router];
        if (a == b)
            continue;
        cut[a * P + b]++;
        links += i < j;
        simtime w = t->ports[i].latency;
        credit = w < credit ? w : credit;
        arrive = w + np->router_delay < arrive ? w + np->router_delay
                                               : arrive;
    }
    for (uint32_t a = 0; a < P; a++) {
        uint32_t per = 0;
        for (uint32_t b = 0; b < P; b++) {
            CHECK_EQ_U(pt->cut[a * P + b], cut[a * P + b]);
            CHECK_EQ_U(pt->cut[a * P + b], pt->cut[b * P + a]);
            per += cut[a * P + b];
        }
        CHECK_EQ_U(pt->part[a].cut_links, per);
    }
    CHECK_EQ_U(pt->cut_links, links);
    CHECK_EQ_U(pt->credit_min, credit);
    CHECK_EQ_U(pt->arrive_min, arrive);
    CHECK_EQ_U(pt->lookahead, credit < arrive ? credit : arrive);
    if (P == 1) {
        CHECK_EQ_U(pt->cut_links, 0);
        CHECK_EQ_U(pt->lookahead, SIMTIME_MAX);
        CHECK(pt->sets == PARTITION_NONE);
        CHECK_EQ_U(pt->sets_port, TOPO_NONE);
    } else {
        CHECK(links > 0);
        CHECK(pt->sets_port < t->n_ports);
        if (pt->sets_port < t->n_ports)
            CHECK_EQ_U(t->ports[pt->sets_port].latency, credit);
    }
    free(cut);
}

/* Make t's partition into P parts and check all of the above. */
static void check_all(const struct topo *t, uint32_t P, simtime want)
{
    struct net_params np;
    net_params_defaults(&np, t);
    struct partition pt;
    struct diag d;
    diag_init(&d);
    int rc = partition_make(t, &np, P, &pt, &d);
    CHECK(rc == 0);
    if (rc != 0)
        return;
    check_parts(t, &pt, P);
    check_balance(t, &pt);
    check_cut(t, &np, &pt);
    if (want)
        CHECK_EQ_U(pt.lookahead, want);
    partition_free(&pt);
}

static void test_df1056(void)
{
    struct topo t;
    if (build(&t, "df1056") != 0)
        return;
    CHECK_EQ_U(partition_max(&t), 33);
    check_all(&t, 1, SIMTIME_MAX);
    /* the global links: 10 m of optical cable, 50 ns (topo/dragonfly.c) */
    check_all(&t, 2, 50 * SIMTIME_NS);
    check_all(&t, 3, 50 * SIMTIME_NS);
    check_all(&t, 7, 50 * SIMTIME_NS);
    check_all(&t, 33, 50 * SIMTIME_NS);
    topo_free(&t);
}

/* 33 groups of 32 NICs over 7 parts: blocks of 5 or 4 groups; every part
 * neighbours every other (a bundle per pair of groups). */
static void test_df1056_blocks(void)
{
    struct topo t;
    if (build(&t, "df1056") != 0)
        return;
    struct net_params np;
    net_params_defaults(&np, &t);
    struct partition pt;
    struct diag d;
    diag_init(&d);
    if (partition_make(&t, &np, 7, &pt, &d) == 0) {
        for (uint32_t k = 0; k < 7; k++) {
            CHECK(pt.part[k].units == 4 || pt.part[k].units == 5);
            for (uint32_t b = 0; b < 7; b++)
                CHECK(b == k || pt.cut[k * 7 + b] > 0);
        }
        CHECK(pt.sets == PARTITION_CREDIT);
        CHECK(partition_imbalance(&pt) >= 1.0);
        CHECK(partition_imbalance(&pt) <= 5.0 / (33.0 / 7.0) + 1e-9);
        partition_free(&pt);
    }
    topo_free(&t);
}

/* Balanced by load: the ranks of a job on df1056's first four groups
 * (32 NICs each) split two and two, the 29 groups without ranks going
 * with the second part (routers break the tie: as even as they can be);
 * without a load, NICs balance 16 and 17 groups. */
static void test_balanced_by_load(void)
{
    struct topo t;
    if (build(&t, "df1056") != 0)
        return;
    struct net_params np;
    net_params_defaults(&np, &t);
    uint32_t *load = calloc(t.n_routers, sizeof *load);
    if (!load) {
        CHECK(load != NULL);
        topo_free(&t);
        return;
    }
    for (uint32_t r = 0; r < t.n_routers; r++)
        if (t.routers[r].group < 4)
            load[r] = 2 * t.routers[r].n_nics; /* ppn 2 */
    struct partition pt;
    struct diag d;
    diag_init(&d);
    if (partition_make_dim(&t, &np, 2, -1, load, &pt, &d) == 0) {
        CHECK_EQ_U(pt.part[0].units, 2);
        CHECK_EQ_U(pt.part[1].first_unit, 2);
        CHECK_EQ_U(pt.part[0].load, pt.part[1].load);
        CHECK_EQ_U(pt.part[0].load, 2 * 2 * 32);
        CHECK(partition_imbalance(&pt) == 1.0);
        partition_free(&pt);
    }
    if (partition_make_dim(&t, &np, 2, -1, NULL, &pt, &d) == 0) {
        CHECK(pt.part[0].units == 16 || pt.part[0].units == 17);
        CHECK_EQ_U(pt.part[0].load, pt.part[0].nics);
        partition_free(&pt);
    }
    free(load);
    topo_free(&t);
}

/* Same input, same partition. */
static void test_deterministic(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    struct net_params np;
    net_params_defaults(&np, &t);
    struct partition a, b;
    struct diag d;
    diag_init(&d);
    if (partition_make(&t, &np, 4, &a, &d) == 0) {
        if (partition_make(&t, &np, 4, &b, &d) == 0) {
            CHECK(memcmp(a.router_part, b.router_part,
                         t.n_routers * sizeof *a.router_part) == 0);
            CHECK(memcmp(a.part, b.part, 4 * sizeof *a.part) == 0);
            CHECK(memcmp(a.cut, b.cut, 16 * sizeof *a.cut) == 0);
            CHECK_EQ_U(a.lookahead, b.lookahead);
            CHECK_EQ_U(a.sets_port, b.sets_port);
            partition_free(&b);
        }
        partition_free(&a);
    }
    topo_free(&t);
}

/* P = 0 and P above the groups are refused, the maximum named. */
static void test_refused(void)
{
    struct topo t;
    if (build(&t, "df1056") != 0)
        return;
    struct net_params np;
    net_params_defaults(&np, &t);
    struct partition pt;
    struct capture c;
    cap_init(&c);
    CHECK(partition_make(&t, &np, 0, &pt, &c.d) == -1);
    CHECK_STR_CONTAINS(cap_text(&c), "at least 1");
    cap_free(&c);
    cap_init(&c);
    CHECK(partition_make(&t, &np, 34, &pt, &c.d) == -1);
    CHECK_STR_CONTAINS(cap_text(&c), "at most 33");
    CHECK_STR_CONTAINS(cap_text(&c), "groups");
    cap_free(&c);
    topo_free(&t);
}

/* The lookahead is the least over the cut, not a figure per family: a
 * single global cable made shorter sets it; with the router delay at 0
 * an arrival is as quick as a credit. */
static void test_lookahead_follows_ports(void)
{
    struct topo t;
    if (build(&t, "df1056") != 0)
        return;
    struct net_params np;
    net_params_defaults(&np, &t);
    uint32_t g = TOPO_NONE;
    for (uint32_t i = 0; i < t.n_ports && g == TOPO_NONE; i++)
        if (t.ports[i].peer != TOPO_NONE &&
            topo_port_class((enum port_kind)t.ports[i].kind) ==
                PCLASS_GLOBAL)
            g = i;
    CHECK(g != TOPO_NONE);
    if (g == TOPO_NONE) {
        topo_free(&t);
        return;
    }
    t.ports[g].latency = t.ports[t.ports[g].peer].latency = 7000;
    check_all(&t, 33, 7 * SIMTIME_NS);
    check_all(&t, 2, 0); /* whether cut or not, as recomputed */
    np.router_delay = 0;
    struct partition pt;
    struct diag d;
    diag_init(&d);
    if (partition_make(&t, &np, 33, &pt, &d) == 0) {
        CHECK_EQ_U(pt.lookahead, 7 * SIMTIME_NS);
        CHECK_EQ_U(pt.arrive_min, 7 * SIMTIME_NS);
        CHECK(pt.sets_port == g || pt.sets_port == t.ports[g].peer);
        partition_free(&pt);
    }
    topo_free(&t);
}

static void test_aries_slingshot(void)
{
    struct topo t;
    /* Aries optical 10 m: 50 ns (topo/aries.c) */
    if (build(&t, "xc-12cab") == 0) {
        CHECK_EQ_U(partition_max(&t), 6);
        for (uint32_t P = 1; P <= 6; P++)
            check_all(&t, P, P > 1 ? 50 * SIMTIME_NS : SIMTIME_MAX);
        topo_free(&t);
    }
    /* Slingshot global optical 30 m: 150 ns (topo/slingshot.c) */
    if (build(&t, "malbec") == 0) {
        CHECK_EQ_U(partition_max(&t), 4);
        check_all(&t, 3, 150 * SIMTIME_NS);
        check_all(&t, 4, 150 * SIMTIME_NS);
        topo_free(&t);
    }
    if (build(&t, "shandy") == 0) { /* two NICs a node */
        check_all(&t, 5, 150 * SIMTIME_NS);
        topo_free(&t);
    }
    if (build(&t, "slingshot-max") == 0) {
        CHECK_EQ_U(partition_max(&t), 545);
        check_all(&t, 8, 150 * SIMTIME_NS);
        check_all(&t, 545, 150 * SIMTIME_NS);
        topo_free(&t);
    }
}

/* Torus slabs: cielo's X links are all 3 m cables (15 ns), so the cut
 * goes across X while P fits X's 16 planes, across Z (the longest, 24)
 * beyond, where a balanced cut may fall on a 0.5 m backplane (2.5 ns). */
static void test_torus(void)
{
    struct topo t;
    if (build(&t, "cielo") == 0) {
        CHECK_EQ_U(partition_max(&t), 24);
        struct net_params np;
        net_params_defaults(&np, &t);
        struct partition pt;
        struct diag d;
        diag_init(&d);
        if (partition_make(&t, &np, 2, &pt, &d) == 0) {
            CHECK_EQ_U((uint32_t)pt.dim, 0);
            CHECK_EQ_U(pt.units, 16);
            CHECK_EQ_U(pt.lookahead, 15 * SIMTIME_NS);
            uint32_t tiles = 0; /* X+ tiles of a Gemini */
            for (uint32_t i = 0; i < t.routers[0].n_ports; i++)
                tiles += t.ports[t.routers[0].first_port + i].kind ==
                         PORT_TORUS_XP;
            CHECK(tiles > 0);
            /* two faces (the middle and the wrap) of 12 x 24 */
            CHECK_EQ_U(pt.cut_links, 2 * 12 * 24 * tiles);
            partition_free(&pt);
        }
        check_all(&t, 2, 15 * SIMTIME_NS);
        check_all(&t, 16, 15 * SIMTIME_NS);
        if (partition_make(&t, &np, 3, &pt, &d) == 0) {
            /* z in 3 cages of 8: cut on the cage cables, also 15 ns, and
             * z's faces (16 x 12) are smaller than x's (12 x 24) */
            CHECK_EQ_U((uint32_t)pt.dim, 2);
            CHECK_EQ_U(pt.lookahead, 15 * SIMTIME_NS);
            partition_free(&pt);
        }
        check_all(&t, 17, 0);
        check_all(&t, 24, 0);
        struct capture c;
        cap_init(&c);
        CHECK(partition_make(&t, &np, 25, &pt, &c.d) == -1);
        CHECK_STR_CONTAINS(cap_text(&c), "at most 24");
        CHECK_STR_CONTAINS(cap_text(&c), "planes");
        cap_free(&c);
        topo_free(&t);
    }
    if (mpi_h_torus(&t, 4, 3, 6) == 0) {
        CHECK_EQ_U(partition_max(&t), 6);
        for (uint32_t P = 1; P <= 6; P++)
            check_all(&t, P, 0);
        topo_free(&t);
    }
}

static void test_cli(void)
{
    char out[16384], err[4096];
    const char *text[] = { "topo", "df1056", "--partitions", "3", NULL };
    CHECK(run_dfsim(text, out, sizeof out, err, sizeof err) == 0);
    CHECK_STR_CONTAINS(out, "partitions  3 of at most 33 (whole groups)");
    CHECK_STR_CONTAINS(out, "lookahead   50.0 ns");
    CHECK_STR_CONTAINS(out, "credit return");
    CHECK_STR_CONTAINS(out, "global");
    CHECK_STR_CONTAINS(out, "imbalance   1.0");
    CHECK_STR_CONTAINS(out, "groups 0-10");
    const char *json[] = { "topo", "df1056", "--partitions", "3", "--json",
                           NULL };
    CHECK(run_dfsim(json, out, sizeof out, err, sizeof err) == 0);
    CHECK_STR_CONTAINS(out, "\"partitions\": 3");
    CHECK_STR_CONTAINS(out, "\"max_partitions\": 33");
    CHECK_STR_CONTAINS(out, "\"lookahead_ns\": 50.000");
    CHECK_STR_CONTAINS(out, "\"first_group\": 11");
    const char *one[] = { "topo", "cielo", "--partitions", "1", NULL };
    CHECK(run_dfsim(one, out, sizeof out, err, sizeof err) == 0);
    CHECK_STR_CONTAINS(out, "lookahead   none (nothing is cut)");
    const char *big[] = { "topo", "df1056", "--partitions", "34", NULL };
    CHECK(run_dfsim(big, out, sizeof out, err, sizeof err) == 1);
    CHECK_STR_CONTAINS(err, "at most 33");
    const char *zero[] = { "topo", "df1056", "--partitions", "0", NULL };
    CHECK(run_dfsim(zero, out, sizeof out, err, sizeof err) == 1);
    CHECK_STR_CONTAINS(err, "at least 1");
    const char *word[] = { "topo", "df1056", "--partitions", "two", NULL };
    CHECK(run_dfsim(word, out, sizeof out, err, sizeof err) == 2);
    CHECK_STR_CONTAINS(err, "--partitions");
}

const struct test_case tests_partition[] = {
    TEST(test_df1056),
    TEST(test_df1056_blocks),
    TEST(test_balanced_by_load),
    TEST(test_deterministic),
    TEST(test_refused),
    TEST(test_lookahead_follows_ports),
    TEST(test_aries_slingshot),
    TEST(test_torus),
    TEST(test_cli),
    { 0 },
};
