/* tests/test_topo.c — topology builders against the papers' figures and
 * the graph invariants. Figures: Cray XC white paper Tables 1-3 and
 * "Aries Performance"; SC'20 (Slingshot) §II-B and the Shandy numbers;
 * Netscope's Voltrino and Cori link counts; Pedretti et al. (Gemini). */
#include "test.h"

#include <stdlib.h>

#include "topo/builders.h"

static struct diag quiet(void)
{
    struct diag d;
    diag_init(&d);
    return d;
}

static int build(struct topo *t, const char *name)
{
    struct diag d = quiet();
    int rc = topo_build_system(t, name, &d);
    CHECK(rc == 0);
    return rc;
}

/* The aries builder's defaults with these groups, chassis in the last
 * group and cables per pair of groups. */
static union topo_params aries_params(uint32_t groups, uint32_t last,
                                      uint32_t cables)
{
    union topo_params p;
    memset(&p, 0, sizeof p);
    topo_builder_aries.defaults(&p);
    p.aries.groups = groups;
    p.aries.chassis_last = last;
    p.aries.cables_per_pair = cables;
    return p;
}

/* Build an Aries system from p, which must fail; what it reported,
 * written as from line `line` of f.cfg (free it). */
static char *aries_fails(const union topo_params *p, int line)
{
    struct topo t;
    struct diag d = quiet();
    char *text = NULL;
    size_t len = 0;
    d.out = open_memstream(&text, &len);
    CHECK(topo_build(&t, &topo_builder_aries, p, "x", "x", &d,
                     &(struct topo_where){ .file = "f.cfg",
                                           .line = line }) != 0);
    fclose(d.out);
    return text;
}

static void figures(const char *name, struct topo *t, struct topo_figures *f)
{
    if (build(t, name) != 0) {
        memset(f, 0, sizeof *f);
        return;
    }
    CHECK(topo_figures(t, f) == 0);
}

/* ---- the family descriptors ------------------------------------------ */

/* Every builder's family descriptor is complete: named as its builder,
 * its hardware sheet filled (a packet has a payload and headers, the
 * routes have their VCs, the router buffering is one the network knows
 * by name), and its allocation levels consistent on a small system of
 * it — every router's key below its level's size, the levels nested
 * (routers of one chassis share a group), and every router and group
 * key in use (a size may bound the chassis keys, not count them). */
static void test_family_descriptors(void)
{
    static const char *const small[] = { "xc-12cab", "malbec", "df1056",
                                         "cielo" };
    for (size_t i = 0; i < topo_builder_registry.n; i++) {
        const struct topo_builder *b =
            (const struct topo_builder *)topo_builder_registry.entries[i];
        const struct topo_family *f = b->family;
        CHECK(f && strcmp(f->name, b->base.name) == 0);
        CHECK(f->router_name && f->routing && f->congestion_control &&
              f->counters && f->group_word && f->route_vcs_why);
        CHECK(f->hw && f->level_key && f->level_size);
        struct topo_hw hw;
        topo_family_hw(f, &hw);
        CHECK(hw.flit_bytes > 0 && hw.max_payload > 0 && hw.req_header > 0);
        CHECK(hw.rsp_header > 0 && hw.expand_num >= hw.expand_den);
        CHECK(hw.vcs >= f->route_vcs && hw.router_delay > 0);
        CHECK(hw.buf_local > 0 && hw.buf_global > 0 && hw.buf_endpoint > 0);
        CHECK(strcmp(hw.router, "tiled") == 0 || strcmp(hw.router, "voq") == 0);
    }
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        struct topo t;
        if (build(&t, small[i]) != 0)
            continue;
        const struct topo_family *f = t.family;
        uint32_t sz[3];
        uint8_t *used[3];
        for (int l = 0; l < 3; l++) {
            sz[l] = f->level_size(&t, l);
            used[l] = calloc(sz[l] ? sz[l] : 1, 1);
        }
        CHECK_EQ_U(sz[0], t.n_routers);
        uint32_t *top = malloc(sz[1] * sizeof *top);
        for (uint32_t c = 0; c < sz[1]; c++)
            top[c] = UINT32_MAX;
        for (uint32_t r = 0; r < t.n_routers; r++) {
            uint32_t k[3];
            for (int l = 0; l < 3; l++) {
                k[l] = f->level_key(&t, r, l);
                CHECK(k[l] < sz[l]);
                if (k[l] < sz[l])
                    used[l][k[l]] = 1;
            }
            if (k[1] < sz[1]) { /* a chassis lies in one group */
                CHECK(top[k[1]] == UINT32_MAX || top[k[1]] == k[2]);
                top[k[1]] = k[2];
            }
        }
        for (int l = 0; l < 3; l++) {
            uint32_t n = 0;
            for (uint32_t k = 0; k < sz[l]; k++)
                n += used[l][k];
            if (l != 1)
                CHECK_EQ_U(n, sz[l]);
            CHECK(n > 0);
            free(used[l]);
        }
        free(top);
        topo_free(&t);
    }
}

/* ---- every system: invariants -------------------------------------- */

static void test_all_systems_invariants(void)
{
    for (size_t i = 0; i < topo_system_registry.n; i++) {
        const char *name = topo_system_registry.entries[i]->name;
        struct topo t;
        if (build(&t, name) != 0)
            continue;
        struct diag d = quiet();
        CHECK(topo_check(&t, &d) == 0);
        /* every link has its reverse, joins two routers, equal rates */
        uint32_t bad = 0;
        for (uint32_t p = 0; p < t.n_ports; p++) {
            const struct topo_port *pt = &t.ports[p];
            if (pt->peer == TOPO_NONE)
                continue;
            if (t.ports[pt->peer].peer != p ||
                t.ports[pt->peer].router == pt->router ||
                t.ports[pt->peer].bw != pt->bw)
                bad++;
        }
        CHECK_EQ_U(bad, 0);
        /* every node has a NIC on a router; ids are in range */
        for (uint32_t n = 0; n < t.n_nodes; n++)
            CHECK(t.nodes[n].n_nics >= 1 &&
                  t.nics[t.nodes[n].nic[0]].node == n);
        topo_free(&t);
    }
}

/* Sum of min hops must be symmetric and min ports must make progress. */
static void check_min_paths(const struct topo *t, uint32_t samples)
{
    struct rng_like { uint64_t s; } r = { 12345 };
    uint32_t bad_sym = 0, bad_prog = 0;
    for (uint32_t i = 0; i < samples; i++) {
        r.s = r.s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(r.s >> 33) % t->n_routers;
        r.s = r.s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t b = (uint32_t)(r.s >> 33) % t->n_routers;
        uint32_t h = topo_min_hops(t, a, b);
        if (h != topo_min_hops(t, b, a))
            bad_sym++;
        uint32_t ports[128];
        uint32_t n = topo_min_ports(t, a, b, ports, 128);
        if ((h == 0) != (n == 0))
            bad_prog++;
        for (uint32_t k = 0; k < n && k < 128; k++)
            if (topo_min_hops(t, t->ports[t->ports[ports[k]].peer].router, b) !=
                h - 1)
                bad_prog++;
    }
    CHECK_EQ_U(bad_sym, 0);
    CHECK_EQ_U(bad_prog, 0);
}

static void test_min_paths_all_systems(void)
{
    static const char *const names[] = { "xc-12cab", "crystal", "voltrino",
                                         "cori", "shandy", "malbec",
                                         "df1056", "cielo" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct topo t;
        if (build(&t, names[i]) != 0)
            continue;
        check_min_paths(&t, 3000);
        topo_free(&t);
    }
}

/* ---- Aries ------------------------------------------------------------ */

static uint32_t count_kind(const struct topo *t, uint32_t r,
                           enum port_kind k, bool linked)
{
    uint32_t n = 0;
    const struct topo_router *rt = &t->routers[r];
    for (uint32_t i = 0; i < rt->n_ports; i++) {
        const struct topo_port *p = &t->ports[rt->first_port + i];
        if (p->kind == k && (!linked || p->peer != TOPO_NONE))
            n++;
    }
    return n;
}

static void test_aries_degrees(void)
{
    struct topo t;
    if (build(&t, "xc-12cab-full") != 0)
        return;
    for (uint32_t r = 0; r < t.n_routers; r++) {
        CHECK_EQ_U(t.routers[r].n_ports, 48);
        CHECK_EQ_U(count_kind(&t, r, PORT_ARIES_GREEN, true), 15);
        CHECK_EQ_U(count_kind(&t, r, PORT_ARIES_BLACK, true), 15);
        CHECK_EQ_U(count_kind(&t, r, PORT_ARIES_OPTICAL, true), 10);
        CHECK_EQ_U(count_kind(&t, r, PORT_ARIES_PROC, false), 8);
        CHECK_EQ_U(t.routers[r].n_nics, 4);
    }
    /* rank-2: three tiles to the same-slot Aries of each other chassis */
    const struct topo_router *r0 = &t.routers[0];
    uint32_t per_peer[96] = { 0 };
    for (uint32_t i = 0; i < r0->n_ports; i++) {
        const struct topo_port *p = &t.ports[r0->first_port + i];
        if (p->kind == PORT_ARIES_BLACK) {
            uint32_t nb = t.ports[p->peer].router;
            CHECK_EQ_U(t.routers[nb].pos[1], r0->pos[1]);
            per_peer[nb]++;
        }
        if (p->kind == PORT_ARIES_GREEN)
            CHECK_EQ_U(t.routers[t.ports[p->peer].router].pos[0], r0->pos[0]);
    }
    for (uint32_t c = 1; c < 6; c++)
        CHECK_EQ_U(per_peer[c * 16], 3);
    topo_free(&t);
}

/* White paper: "Minimal routing within a group will always take at most one
 * green and one black hop" and between groups "exactly one global optical
 * hop". Walk minimal paths hop by hop and count hop kinds. */
static void walk_min(const struct topo *t, uint32_t a, uint32_t b,
                     uint32_t *bad)
{
    uint32_t cur = a, green = 0, black = 0, global = 0, hops = 0;
    uint32_t h = topo_min_hops(t, a, b);
    while (cur != b && hops < 20) {
        uint32_t ports[64];
        uint32_t n = topo_min_ports(t, cur, b, ports, 64);
        if (n == 0) {
            (*bad)++;
            return;
        }
        const struct topo_port *p = &t->ports[ports[(a + hops) % n]];
        if (p->kind == PORT_ARIES_OPTICAL) {
            global++;
            if (green > 1 || black > 1)
                (*bad)++;
            green = black = 0;
        }
        green += p->kind == PORT_ARIES_GREEN;
        black += p->kind == PORT_ARIES_BLACK;
        cur = t->ports[p->peer].router;
        hops++;
    }
    bool same = t->routers[a].group == t->routers[b].group;
    if (cur != b || hops != h || green > 1 || black > 1 ||
        global != (same ? 0u : 1u))
        (*bad)++;
}

static void test_aries_minimal_paths(void)
{
    static const char *const names[] = { "xc-12cab", "cori", "crystal" };
    for (size_t s = 0; s < 3; s++) {
        struct topo t;
        if (build(&t, names[s]) != 0)
            continue;
        uint32_t bad = 0;
        /* inside group 0: every pair */
        for (uint32_t a = 0; a < 96; a++)
            for (uint32_t b = 0; b < 96; b++) {
                uint32_t h = topo_min_hops(&t, a, b);
                uint32_t want = (a == b) ? 0
                                : (t.routers[a].pos[0] == t.routers[b].pos[0] ||
                                   t.routers[a].pos[1] == t.routers[b].pos[1])
                                    ? 1
                                    : 2;
                if (h != want)
                    bad++;
                walk_min(&t, a, b, &bad);
            }
        /* across groups: a sample */
        for (uint32_t i = 0; i < 4000; i++) {
            uint32_t a = (i * 7919u) % t.n_routers;
            uint32_t b = (i * 104729u + 17u) % t.n_routers;
            walk_min(&t, a, b, &bad);
        }
        CHECK_EQ_U(bad, 0);
        topo_free(&t);
    }
}

/* Table 2: optical cables = cables per pair x (groups-1) x groups / 2;
 * Table 3: bisection (cables crossing, GB/s) partial and full; the formula
 * 18.75 x G x cables per group x G / (2(G-1)). */
static void test_aries_tables_2_3(void)
{
    static const struct {
        const char *name;
        uint32_t groups, per_pair, cables, crossing;
        double bisection;
    } rows[] = {
        { "xc-12cab", 6, 12, 180, 108, 4050 },
        { "xc-12cab-full", 6, 48, 720, 432, 16200 },
        { "xc-16cab", 8, 12, 336, 192, 7200 },
        { "xc-16cab-full", 8, 34, 952, 544, 20400 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct topo t;
        struct topo_figures f;
        figures(rows[i].name, &t, &f);
        CHECK_EQ_U(f.groups, rows[i].groups);
        CHECK_EQ_U(f.global_cables, rows[i].cables);
        CHECK_NEAR(f.bisection_GBps, rows[i].bisection, 1e-6);
        /* each cable is 4 optical tiles */
        CHECK_EQ_U(f.bisection_links, rows[i].crossing * 4);
        double G = rows[i].groups, per_group = rows[i].per_pair * (G - 1);
        CHECK_NEAR(f.bisection_GBps, 18.75 * G * per_group * G / (2 * (G - 1)),
                   1e-6);
        CHECK_EQ_U(f.routers, rows[i].groups * 96);
        CHECK_EQ_U(f.nodes, rows[i].groups * 384);
        topo_free(&t);
    }
}

/* Table 1, full global bandwidth: per group 96 Aries, 240 copper cables,
 * 240 optical cable ends (120 cables charged to each group); per node
 * 0.25 / 0.625 / 0.3125. Peak global bandwidth 11.7 GB/s per node. */
static void test_aries_table_1(void)
{
    struct topo t;
    struct topo_figures f;
    figures("xc-12cab-full", &t, &f);
    double g = f.groups, n = f.nodes;
    uint32_t copper = 0, optical_ends = 0;
    for (uint32_t r = 0; r < t.n_routers; r++) {
        /* a copper cable joins two Aries with three rank-2 tiles */
        copper += count_kind(&t, r, PORT_ARIES_BLACK, true);
        optical_ends += count_kind(&t, r, PORT_ARIES_OPTICAL, true);
    }
    CHECK_NEAR(f.routers / g, 96, 0);
    CHECK_NEAR(copper / 3.0 / 2.0 / g, 240, 0);
    CHECK_NEAR(optical_ends / 4.0 / g, 240, 0);
    CHECK_NEAR(f.global_cables / g, 120, 0);
    CHECK_NEAR(f.routers / n, 0.25, 1e-12);
    CHECK_NEAR(copper / 6.0 / n, 0.625, 1e-12);
    CHECK_NEAR(f.global_cables / n, 0.3125, 1e-12);
    CHECK_NEAR(f.global_GBps_per_node, 11.7, 0.05);
    topo_free(&t);
}

/* "384 links cross the bisection in the green dimension and 432 in the
 * black dimension. The green dimension sets the lower limit of 384 x 5.25
 * x 2 = 4032 GB/s" — one full group on its own. */
static void test_aries_group_bisection(void)
{
    union topo_params p = aries_params(1, 6, 0);
    struct topo t;
    struct diag d = quiet();
    if (topo_build(&t, &topo_builder_aries, &p, "group", "one group", &d, NULL) != 0) {
        CHECK(0);
        return;
    }
    struct topo_figures f;
    CHECK(topo_figures(&t, &f) == 0);
    CHECK_NEAR(f.bisection_GBps, 4032, 1e-6);
    CHECK_EQ_U(f.bisection_links, 384);
    CHECK_EQ_U(f.diameter, 2);
    topo_free(&t);
}

static void test_aries_named_machines(void)
{
    struct topo t;
    struct topo_figures f;
    figures("voltrino", &t, &f);
    CHECK_EQ_U(f.routers, 16);
    CHECK_EQ_U(f.nodes, 64);
    /* Netscope: Voltrino has 240 links = 16 x 15 rank-1 tiles */
    CHECK_EQ_U(f.ports_by_kind[PORT_ARIES_GREEN], 240);
    CHECK_EQ_U(f.ports_by_kind[PORT_ARIES_BLACK], 0);
    CHECK_EQ_U(f.diameter, 1);
    topo_free(&t);

    figures("cori", &t, &f);
    CHECK_EQ_U(f.groups, 34);
    CHECK_EQ_U(f.routers, 3264);
    /* Netscope: Cori has 130,560 links = 3,264 Aries x 40 network tiles */
    CHECK_EQ_U(f.routers * 40u, 130560);
    CHECK_EQ_U(f.ports_by_kind[PORT_ARIES_GREEN] +
                   f.ports_by_kind[PORT_ARIES_BLACK] +
                   f.ports_by_kind[PORT_ARIES_OPTICAL] +
                   f.ports_by_kind[PORT_UNUSED],
               130560);
    CHECK(f.diameter <= 5);
    topo_free(&t);

    figures("crystal", &t, &f);
    CHECK_EQ_U(f.nodes, 698);
    CHECK_EQ_U(f.groups, 2);
    topo_free(&t);
}

static void test_aries_cnames(void)
{
    struct topo t;
    if (build(&t, "xc-16cab") != 0)
        return;
    char buf[64];
    CHECK(strcmp(topo_node_name(&t, 0, buf, sizeof buf), "c0-0c0s0n0") == 0);
    CHECK(strcmp(topo_node_name(&t, 5, buf, sizeof buf), "c0-0c0s1n1") == 0);
    /* chassis 3 of group 0 is chassis 0 of cabinet 1 */
    CHECK(strcmp(topo_node_name(&t, 3 * 64, buf, sizeof buf), "c1-0c0s0n0") ==
          0);
    /* group 6 starts cabinet 12: second row of 12 cabinets (Fig. 16) */
    CHECK(strcmp(topo_node_name(&t, 6 * 384, buf, sizeof buf),
                 "c0-1c0s0n0") == 0);
    CHECK(strcmp(topo_router_name(&t, 17, buf, sizeof buf), "c0-0c1s1a0") ==
          0);
    CHECK(strcmp(topo_port_name(&t, 47, buf, sizeof buf),
                 "c0-0c0s0a0:PT_5_7") == 0);
    topo_free(&t);
}

static void test_aries_bad_params(void)
{
    union topo_params p = aries_params(6, 6, 49); /* floor(240 / 5) = 48 */
    char *text = aries_fails(&p, 7);
    CHECK_STR_CONTAINS(text, "f.cfg:7:");
    CHECK_STR_CONTAINS(text, "system.cables_per_pair");
    CHECK_STR_CONTAINS(text, "48");
    free(text);

    p.aries.cables_per_pair = 48;
    p.aries.nodes = 6 * 384 + 1;
    free(aries_fails(&p, 7));
}

/* Service blades (topo/aries.c): their router routes, their slots hold
 * no compute node, and compute nodes fill the other slots in cname
 * order. */
static void test_aries_service_blades(void)
{
    union topo_params p = aries_params(2, 1, 4);
    p.aries.service_blades = " 0, 17-18,17";
    struct topo t;
    struct diag d = quiet();
    if (topo_build(&t, &topo_builder_aries, &p, "x", "x", &d, NULL) != 0) {
        CHECK(0);
        return;
    }
    /* 112 blades, 3 of them service blades */
    CHECK_EQ_U(t.n_routers, 112);
    CHECK_EQ_U(t.n_nodes, 109 * 4);
    CHECK_EQ_U(t.routers[0].n_nics, 0);
    CHECK_EQ_U(t.routers[17].n_nics, 0);
    CHECK_EQ_U(t.routers[18].n_nics, 0);
    CHECK_EQ_U(t.nics[0].router, 1);
    CHECK_EQ_U(t.nics[15 * 4].router, 16);
    CHECK_EQ_U(t.nics[15 * 4 + 4].router, 19);
    char buf[64];
    CHECK(strcmp(topo_node_name(&t, 0, buf, sizeof buf), "c0-0c0s1n0") == 0);
    CHECK(strcmp(topo_node_name(&t, 64, buf, sizeof buf), "c0-0c1s3n0") ==
          0);
    /* every slot of a compute blade is a node: counts add up per router */
    uint32_t sum = 0;
    for (uint32_t r = 0; r < t.n_routers; r++)
        sum += t.routers[r].n_nics;
    CHECK_EQ_U(sum, t.n_nodes);
    /* the service blades still route: their ports are linked */
    CHECK(t.ports[t.routers[0].first_port].peer != TOPO_NONE);
    topo_free(&t);

    /* with `nodes`, the last compute slots stay empty */
    p.aries.nodes = 10;
    d = quiet();
    if (topo_build(&t, &topo_builder_aries, &p, "x", "x", &d, NULL) == 0) {
        CHECK_EQ_U(t.n_nodes, 10);
        CHECK_EQ_U(t.nics[9].router, 3);
        topo_free(&t);
    } else {
        CHECK(0);
    }

    /* Crystal: c0-0c0s0 is a service blade, nodes start at c0-0c0s1 */
    if (build(&t, "crystal") == 0) {
        CHECK_EQ_U(t.n_nodes, 698);
        CHECK_EQ_U(t.routers[0].n_nics, 0);
        CHECK(strcmp(topo_node_name(&t, 0, buf, sizeof buf),
                     "c0-0c0s1n0") == 0);
        /* 256 compute nodes later: c0-0c0s1 + 64 blades = c1-0c1s1 */
        CHECK(strcmp(topo_node_name(&t, 256, buf, sizeof buf),
                     "c1-0c1s1n0") == 0);
        topo_free(&t);
    }

    /* errors name the key: a blade past the system, a malformed list, more
     * nodes than the compute slots */
    static const char *const bad[] = { "112", "0-", "3,x", "5-2" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        p.aries.nodes = 0;
        p.aries.service_blades = bad[k];
        char *text = aries_fails(&p, 3);
        CHECK_STR_CONTAINS(text, "f.cfg:3:");
        CHECK_STR_CONTAINS(text, "system.service_blades");
        CHECK_STR_CONTAINS(text, bad[k]);
        free(text);
    }
    p.aries.service_blades = "0-1";
    p.aries.nodes = 110 * 4 + 1;
    char *text = aries_fails(&p, 3);
    CHECK_STR_CONTAINS(text, "system.nodes");
    CHECK_STR_CONTAINS(text, "440 node slots besides the service blades'");
    free(text);
}

/* ---- Slingshot ----------------------------------------------------------- */

static void test_slingshot_max(void)
{
    struct topo t;
    struct topo_figures f;
    figures("slingshot-max", &t, &f);
    CHECK_EQ_U(f.groups, 545);
    CHECK_EQ_U(f.nics, 279040);
    CHECK_EQ_U(f.routers, 545 * 32);
    CHECK_EQ_U(f.diameter, 3);
    for (uint32_t r = 0; r < t.n_routers; r += 97) {
        CHECK_EQ_U(t.routers[r].n_ports, 64);
        CHECK_EQ_U(count_kind(&t, r, PORT_SS_EDGE, false), 16);
        CHECK_EQ_U(count_kind(&t, r, PORT_SS_LOCAL, true), 31);
        CHECK_EQ_U(count_kind(&t, r, PORT_SS_GLOBAL, true), 17);
    }
    topo_free(&t);
}

/* Shandy: bisection 4 x 4 x 8 = 128 links x 200 Gb/s x 2 = 6.4 TB/s; the
 * all-to-all peak 8/7 x 448 x 200 Gb/s = 12.8 TB/s; diameter 3. */
static void test_slingshot_shandy(void)
{
    struct topo t;
    struct topo_figures f;
    figures("shandy", &t, &f);
    CHECK_EQ_U(f.nodes, 1024);
    CHECK_EQ_U(f.nics, 2048);
    CHECK_EQ_U(f.groups, 8);
    CHECK_EQ_U(f.global_cables, 8 * 56 / 2);
    CHECK_EQ_U(f.bisection_links, 128);
    CHECK_NEAR(f.bisection_GBps, 6400, 1e-6);
    CHECK_NEAR(f.alltoall_GBps, 12800, 1e-6);
    CHECK_EQ_U(f.diameter, 3);
    /* global links spread over all switches: 3 or 4 on each of the 16 */
    for (uint32_t r = 0; r < 16; r++) {
        uint32_t g = count_kind(&t, r, PORT_SS_GLOBAL, true);
        CHECK(g == 3 || g == 4);
    }
    /* a node's two NICs sit on two switches of its group */
    for (uint32_t n = 0; n < t.n_nodes; n += 37) {
        const struct topo_node *nd = &t.nodes[n];
        CHECK_EQ_U(nd->n_nics, 2);
        uint32_t r0 = t.nics[nd->nic[0]].router, r1 = t.nics[nd->nic[1]].router;
        CHECK(r0 != r1);
        CHECK_EQ_U(t.routers[r0].group, t.routers[r1].group);
        /* ranks dealt to them in blocks: one rank, the first; two, one
         * each; four, two each; three, 0 0 1 */
        CHECK_EQ_U(topo_rank_nic(&t, n, 0, 1), nd->nic[0]);
        CHECK_EQ_U(topo_rank_nic(&t, n, 1, 2), nd->nic[1]);
        CHECK_EQ_U(topo_rank_nic(&t, n, 1, 4), nd->nic[0]);
        CHECK_EQ_U(topo_rank_nic(&t, n, 2, 4), nd->nic[1]);
        CHECK_EQ_U(topo_rank_nic(&t, n, 1, 3), nd->nic[0]);
        CHECK_EQ_U(topo_rank_nic(&t, n, 2, 3), nd->nic[1]);
    }
    topo_free(&t);

    figures("malbec", &t, &f);
    CHECK_EQ_U(f.nodes, 484);
    CHECK_EQ_U(f.groups, 4);
    CHECK_EQ_U(f.global_cables, 48 * 6);
    CHECK(f.diameter <= 3);
    topo_free(&t);
}

/* ---- generic dragonfly ---------------------------------------------------- */

static void test_dragonfly_booksim_arrangement(void)
{
    struct topo t;
    struct topo_figures f;
    figures("df1056", &t, &f);
    CHECK_EQ_U(f.routers, 264);
    CHECK_EQ_U(f.nodes, 1056);
    CHECK_EQ_U(f.groups, 33);
    CHECK_EQ_U(f.diameter, 3);
    CHECK_EQ_U(f.global_cables, 33 * 32 / 2);
    /* BookSim2: group i's global channel k leads to group k (k < i) or
     * k + 1; channel k is on router k / h, port k % h. */
    uint32_t bad = 0;
    for (uint32_t r = 0; r < t.n_routers; r++) {
        /* degrees: p terminals, a - 1 local, h global channels */
        CHECK_EQ_U(count_kind(&t, r, PORT_DF_TERMINAL, false), 4);
        CHECK_EQ_U(count_kind(&t, r, PORT_DF_LOCAL, true), 7);
        CHECK_EQ_U(count_kind(&t, r, PORT_DF_GLOBAL, true), 4);
        uint32_t i = t.routers[r].group, local = r % 8;
        for (uint32_t c = 0; c < 4; c++) {
            const struct topo_port *p =
                &t.ports[t.routers[r].first_port + 4 + 7 + c];
            uint32_t k = local * 4 + c, want = k < i ? k : k + 1;
            if (p->kind != PORT_DF_GLOBAL ||
                t.routers[t.ports[p->peer].router].group != want)
                bad++;
        }
    }
    CHECK_EQ_U(bad, 0);
    topo_free(&t);

    union topo_params p;
    memset(&p, 0, sizeof p);
    topo_builder_dragonfly.defaults(&p);
    p.dragonfly.g = 34; /* more than a*h + 1 = 33 */
    struct diag d = quiet();
    d.out = fopen("/dev/null", "w");
    CHECK(topo_build(&t, &topo_builder_dragonfly, &p, "x", "x", &d, NULL) !=
          0);
    fclose(d.out);
    /* fewer groups: bundles of floor(32 / 8) = 4 between each pair */
    p.dragonfly.g = 9;
    d = quiet();
    CHECK(topo_build(&t, &topo_builder_dragonfly, &p, "x", "x", &d, NULL) ==
          0);
    CHECK_EQ_U(t.global_cables, 4 * 9 * 8 / 2);
    CHECK_EQ_U(t.pair_start[1 * 9 + 2 + 1] - t.pair_start[1 * 9 + 2], 4);
    topo_free(&t);
}

/* ---- torus ------------------------------------------------------------ */

static void test_torus_cielo(void)
{
    struct topo t;
    struct topo_figures f;
    figures("cielo", &t, &f);
    CHECK_EQ_U(f.routers, 4608);
    CHECK_EQ_U(f.nodes, 9216);
    CHECK_EQ_U(f.diameter, 8 + 6 + 12);
    /* Fig. 3 tile map: 8 tiles for X and Z links, 4 for Y, 8 host */
    for (uint32_t r = 0; r < t.n_routers; r += 101) {
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_XP, true), 8);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_XM, true), 8);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_YP, true), 4);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_YM, true), 4);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_ZP, true), 8);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_ZM, true), 8);
        CHECK_EQ_U(count_kind(&t, r, PORT_TORUS_HOST, false), 8);
    }
    /* tile numbers of Fig. 3 */
    const struct topo_router *r0 = &t.routers[0];
    for (uint32_t i = 0; i < r0->n_ports; i++) {
        const struct topo_port *p = &t.ports[r0->first_port + i];
        if (p->index == 0 || p->index == 21)
            CHECK_EQ_U(p->kind, PORT_TORUS_ZP);
        if (p->index == 19 || p->index == 44)
            CHECK_EQ_U(p->kind, PORT_TORUS_HOST);
        if (p->index == 37)
            CHECK_EQ_U(p->kind, PORT_TORUS_YP);
        if (p->index == 34)
            CHECK_EQ_U(p->kind, PORT_TORUS_YM);
        /* link types and rates: X cable 9.375 GB/s per 8 tiles; Z from z=0
         * backplane; Y from y=0 mezzanine */
        if (p->kind == PORT_TORUS_XP)
            CHECK_EQ_U(p->bw, 1171875000ull);
        if (p->kind == PORT_TORUS_ZP)
            CHECK_EQ_U(p->medium, MEDIUM_BACKPLANE);
        if (p->kind == PORT_TORUS_ZM)
            CHECK_EQ_U(p->medium, MEDIUM_CABLE); /* wraps to z = 23 */
        if (p->kind == PORT_TORUS_YP)
            CHECK_EQ_U(p->bw, 2343750000ull);
        if (p->kind == PORT_TORUS_HOST)
            CHECK_EQ_U(p->bw, 1330000000ull);
    }
    /* every eighth Z link is a cable: from z = 7 to z = 8 */
    uint32_t r7 = 7u * 16 * 12;
    for (uint32_t i = 0; i < t.routers[r7].n_ports; i++) {
        const struct topo_port *p = &t.ports[t.routers[r7].first_port + i];
        if (p->kind == PORT_TORUS_ZP)
            CHECK_EQ_U(p->medium, MEDIUM_CABLE);
    }
    /* Fig. 2 names: (0,0,0) c0-0c0s0g0; Z+ reaches c0-0c0s1 (0,0,1); X-
     * reaches c2-0 at x = 15; Z- c0-0c2s7 at z = 23 */
    char buf[64];
    CHECK(strcmp(topo_router_name(&t, 0, buf, sizeof buf), "c0-0c0s0g0") == 0);
    CHECK(strcmp(topo_router_name(&t, 16 * 12, buf, sizeof buf),
                 "c0-0c0s1g0") == 0);
    CHECK(strcmp(topo_router_name(&t, 15, buf, sizeof buf), "c2-0c0s0g0") ==
          0);
    CHECK(strcmp(topo_router_name(&t, 1, buf, sizeof buf), "c1-0c0s0g0") == 0);
    CHECK(strcmp(topo_router_name(&t, 23u * 16 * 12, buf, sizeof buf),
                 "c0-0c2s7g0") == 0);
    CHECK(strcmp(topo_node_name(&t, 1, buf, sizeof buf), "c0-0c0s0n1") == 0);
    CHECK(strcmp(topo_node_name(&t, 2 * 16 + 0, buf, sizeof buf),
                 "c0-0c0s0n2") == 0); /* y = 1: Gemini g1 of the blade */
    topo_free(&t);
}

/* Names identify routers: no two alike. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void test_names_unique(void)
{
    static const char *const names[] = { "cielo", "xc-16cab", "shandy" };
    for (size_t s = 0; s < 3; s++) {
        struct topo t;
        if (build(&t, names[s]) != 0)
            continue;
        char(*buf)[32] = calloc(t.n_routers, sizeof *buf);
        for (uint32_t r = 0; r < t.n_routers; r++)
            topo_router_name(&t, r, buf[r], sizeof buf[r]);
        qsort(buf, t.n_routers, sizeof *buf, cmp_str);
        uint32_t dup = 0;
        for (uint32_t r = 1; r < t.n_routers; r++)
            dup += strcmp(buf[r - 1], buf[r]) == 0;
        CHECK_EQ_U(dup, 0);
        free(buf);
        topo_free(&t);
    }
}

/* Same parameters, same graph, byte for byte. */
static void test_build_deterministic(void)
{
    struct topo a, b;
    if (build(&a, "crystal") != 0 || build(&b, "crystal") != 0)
        return;
    CHECK(a.n_ports == b.n_ports &&
          memcmp(a.ports, b.ports, a.n_ports * sizeof *a.ports) == 0);
    CHECK(memcmp(a.nics, b.nics, a.n_nics * sizeof *a.nics) == 0);
    topo_free(&a);
    topo_free(&b);
}

const struct test_case tests_topo[] = {
    TEST(test_family_descriptors),
    TEST(test_all_systems_invariants),
    TEST(test_min_paths_all_systems),
    TEST(test_aries_degrees),
    TEST(test_aries_minimal_paths),
    TEST(test_aries_tables_2_3),
    TEST(test_aries_table_1),
    TEST(test_aries_group_bisection),
    TEST(test_aries_named_machines),
    TEST(test_aries_cnames),
    TEST(test_aries_bad_params),
    TEST(test_aries_service_blades),
    TEST(test_slingshot_max),
    TEST(test_slingshot_shandy),
    TEST(test_dragonfly_booksim_arrangement),
    TEST(test_torus_cielo),
    TEST(test_names_unique),
    TEST(test_build_deterministic),
    { 0 },
};
