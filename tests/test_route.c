/* tests/test_route.c — routing modes as registered tables, the Aries
 * congestion estimate on hand-built router states (near-end queue,
 * credits in use beyond the link's own, the published load of the global
 * link ahead, saturation, ties), where non-minimal routes go, how much a
 * tiled router's buffering lifts a dragonfly's saturation, the NIC's
 * response slots that make GET requesters stall when their targets
 * cannot answer, and how much spreading an all-to-all gains by where the
 * job sits. */
#include "test.h"

#include "core/sim.h"
#include "exp/traffic.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/df.h"
#include "route/route.h"
#include "topo/builders.h"
#include "topo/topo.h"

struct rt {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    uint32_t groups_seen;   /* bit g: a traced request crossed group g */
    uint32_t global_hops;   /* global links the traced requests crossed */
    uint32_t traced;        /* traced requests delivered */
};

/* An XC of `groups` groups, the last of `chassis` chassis (the others
 * full), `cables` optical cables per group pair. */
static int xc_build(struct topo *t, uint32_t groups, uint32_t chassis,
                    uint32_t cables, struct diag *d)
{
    union topo_params p;
    topo_builder_aries.defaults(&p);
    p.aries.groups = groups;
    p.aries.chassis_last = chassis;
    p.aries.cables_per_pair = cables;
    return topo_build(t, &topo_builder_aries, &p, "xc", "xc", d, NULL);
}

/* That XC with the network's defaults but for `routing`, `aries_load`,
 * `counters` and the NIC's response slots. */
static int rt_setup_xc(struct rt *x, const char *routing, uint8_t aries_load,
                       bool counters, uint32_t rsp_slots, uint32_t groups,
                       uint32_t chassis, uint32_t cables)
{
    memset(x, 0, sizeof *x);
    diag_init(&x->d);
    if (xc_build(&x->t, groups, chassis, cables, &x->d) != 0)
        return -1;
    if (sim_init(&x->s, EVQ_DEFAULT, net_entities(&x->t)) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &x->t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       routing);
    np.aries_load = aries_load;
    np.counters = counters;
    np.nic_rsp_slots = rsp_slots;
    if (!np.routing || net_init(&x->n, &x->t, &np, &x->s, 1, &x->d) != 0)
        return -1;
    return 0;
}

/* A 3-group XC (16 optical cables per group pair). */
static int rt_setup(struct rt *x, const char *routing, uint8_t aries_load,
                    bool counters, uint32_t rsp_slots)
{
    return rt_setup_xc(x, routing, aries_load, counters, rsp_slots, 3, 6,
                       16);
}

static void rt_free(struct rt *x)
{
    net_free(&x->n);
    sim_free(&x->s);
    topo_free(&x->t);
}

/* The next-hop tables route_init builds, against their definition: for
 * router r and router j of its group, the ports of r to the least (port
 * kind, router) among r's local neighbours one hop nearer to j (on
 * Aries, green before black; with local_order "black-first" the
 * greatest kind, black before green), every parallel port to it; none
 * to r itself. On a 3-group XC (parallel black links), a Slingshot
 * system and df1056, every router's entries read through the row it
 * shares with the routers wired like it (route.c nh_share). The two
 * orders give the XC the same number of two-hop entries, black first
 * hops in one and green in the other. */
static void test_next_hop_tables(void)
{
    const char *systems[] = { "xc-12cab", "malbec", "df1056" };
    uint32_t first_black[2] = { 0, 0 }, first_green[2] = { 0, 0 };
    for (int k = 0; k < 6; k++) {
        bool black = k >= 3;
        struct topo t;
        struct sim s;
        struct net n;
        struct diag d;
        diag_init(&d);
        if (topo_build_system(&t, systems[k % 3], &d) != 0) {
            CHECK(!"topology");
            continue;
        }
        CHECK(sim_init(&s, EVQ_DEFAULT, net_entities(&t)) == 0);
        struct net_params np;
        cc_net_defaults(&np, &t);
        np.local_order = black ? NET_LOCAL_BLACK_FIRST : NET_LOCAL_GREEN_FIRST;
        if (net_init(&n, &t, &np, &s, 1, &d) != 0) {
            CHECK(!"net_init");
            sim_free(&s);
            topo_free(&t);
            continue;
        }
        uint32_t bad = 0, entries = 0;
        for (uint32_t r = 0; r < t.n_routers; r++) {
            const struct topo_router *rt = &t.routers[r];
            uint32_t g = rt->group, lr = r - n.group_first[g];
            for (uint32_t j = 0; j < n.group_size[g]; j++) {
                size_t e = net_nh(&n, r, j);
                uint32_t cnt = n.nh_count[e];
                uint8_t dist = topo_group_hops(&t, g, lr, j);
                if (j == lr || dist == 255) {
                    bad += cnt != 0;
                    continue;
                }
                /* the definition, port by port */
                uint32_t best = TOPO_NONE, kind = 0, want = 0;
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    const struct topo_port *tp = &t.ports[rt->first_port + i];
                    if (tp->peer == TOPO_NONE ||
                        topo_port_class((enum port_kind)tp->kind) !=
                            PCLASS_LOCAL)
                        continue;
                    uint32_t x = t.ports[tp->peer].router;
                    if (topo_group_hops(&t, g, x - n.group_first[g], j) + 1 !=
                        dist)
                        continue;
                    if (best == TOPO_NONE ||
                        (black ? tp->kind > kind : tp->kind < kind) ||
                        (tp->kind == kind && x < best))
                        best = x, kind = tp->kind;
                }
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    const struct topo_port *tp = &t.ports[rt->first_port + i];
                    want += tp->peer != TOPO_NONE && tp->kind == kind &&
                            t.ports[tp->peer].router == best;
                }
                bad += cnt != want || cnt == 0;
                if (k % 3 == 0 && dist == 2) {
                    first_black[black] += kind == PORT_ARIES_BLACK;
                    first_green[black] += kind == PORT_ARIES_GREEN;
                }
                for (uint32_t i = 0; i < cnt; i++) {
                    uint32_t pi = net_nh_port(&n, r, e, i);
                    const struct topo_port *tp = &t.ports[pi];
                    bad += tp->router != r || tp->kind != kind ||
                           t.ports[tp->peer].router != best ||
                           (i > 0 && pi <= net_nh_port(&n, r, e, i - 1));
                }
                entries++;
            }
        }
        CHECK_EQ_U(bad, 0);
        CHECK(entries > t.n_routers);
        /* read through the shared rows: these systems wire every group
         * alike, so one row per place in a group */
        CHECK_EQ_U(n.nh_rows, n.m);
        net_free(&n);
        sim_free(&s);
        topo_free(&t);
    }
    CHECK(first_green[0] > 0 && first_black[0] == 0);
    CHECK(first_black[1] == first_green[0] && first_green[1] == 0);
}

/* local_order "both": each entry holds every local port of r to a
 * neighbour one hop nearer to j, in port order. On the XC a router two
 * hops from j reaches it through exactly two neighbours, one by a green
 * link, one by the three black tiles to the other chassis (XC white
 * paper, "Cray XC Routing": at most one green and one black hop), so
 * its entry reaches both (fails if either order is left out). */
static void test_next_hop_both(void)
{
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    diag_init(&d);
    if (topo_build_system(&t, "xc-12cab", &d) != 0) {
        CHECK(!"topology");
        return;
    }
    CHECK(sim_init(&s, EVQ_DEFAULT, net_entities(&t)) == 0);
    struct net_params np;
    cc_net_defaults(&np, &t);
    np.local_order = NET_LOCAL_BOTH;
    np.vc_rule = NET_VC_HOP;
    np.vcs = 8;
    if (net_init(&n, &t, &np, &s, 1, &d) != 0) {
        CHECK(!"net_init");
        sim_free(&s);
        topo_free(&t);
        return;
    }
    uint32_t bad = 0, two = 0, two_ok = 0;
    for (uint32_t r = 0; r < t.n_routers; r++) {
        const struct topo_router *rt = &t.routers[r];
        uint32_t g = rt->group, lr = r - n.group_first[g];
        for (uint32_t j = 0; j < n.group_size[g]; j++) {
            size_t e = net_nh(&n, r, j);
            uint32_t cnt = n.nh_count[e], k = 0, green = 0, black = 0;
            uint8_t dist = topo_group_hops(&t, g, lr, j);
            for (uint32_t i = 0; i < rt->n_ports && j != lr; i++) {
                uint32_t pt = rt->first_port + i;
                const struct topo_port *tp = &t.ports[pt];
                if (tp->peer == TOPO_NONE ||
                    topo_port_class((enum port_kind)tp->kind) != PCLASS_LOCAL)
                    continue;
                uint32_t x = t.ports[tp->peer].router;
                if (topo_group_hops(&t, g, x - n.group_first[g], j) + 1 !=
                    dist)
                    continue;
                bad += k >= cnt || net_nh_port(&n, r, e, k) != pt;
                k++;
                green += tp->kind == PORT_ARIES_GREEN;
                black += tp->kind == PORT_ARIES_BLACK;
            }
            bad += k != cnt;
            if (dist == 2) {
                two++;
                two_ok += green == 1 && black == 3;
            }
        }
    }
    CHECK_EQ_U(bad, 0);
    CHECK(two > 0);
    CHECK_EQ_U(two_ok, two);
    net_free(&n);
    sim_free(&s);
    topo_free(&t);
}

/* Every mode is a complete table; the registry's names are unique; each
 * family's default routes it. */
static void test_registry(void)
{
    const struct registry *reg = &routing_registry;
    CHECK(reg->n >= 12);
    for (size_t i = 0; i < reg->n; i++) {
        const struct routing *r = (const struct routing *)reg->entries[i];
        CHECK(r->route != NULL);
        CHECK(r->shapes != 0);
        CHECK(r->base.help && r->base.help[0]);
        if (r->shapes & (1u << TOPO_SHAPE_DRAGONFLY)) {
            CHECK(r->pick != NULL);
            CHECK(r->exit != NULL);
        }
        for (size_t j = i + 1; j < reg->n; j++)
            CHECK(strcmp(r->base.name, reg->entries[j]->name) != 0);
        CHECK(registry_find(reg, r->base.name) == &r->base);
    }
    /* every family's default mode is registered and routes it */
    for (size_t i = 0; i < topo_builder_registry.n; i++) {
        const struct topo_family *f =
            ((const struct topo_builder *)topo_builder_registry.entries[i])
                ->family;
        const struct routing *r =
            (const struct routing *)registry_find(reg, f->routing);
        CHECK(r != NULL);
        CHECK(r && route_supports(r, f));
    }
    for (unsigned k = 0; k < 4; k++) {
        char name[16];
        snprintf(name, sizeof name, "ADAPTIVE_%u", k);
        const struct routing *r =
            (const struct routing *)registry_find(reg, name);
        CHECK(r && r->param == k && r->progressive && r->publish &&
              r->decide);
    }
    const struct routing *m =
        (const struct routing *)registry_find(reg, "minimal");
    CHECK(m && !m->decide && !m->publish && !m->progressive);
}

/* A port of router r of the given class with a peer, the k-th such. */
static uint32_t port_of(const struct topo *t, uint32_t r,
                        enum port_class cls, uint32_t k)
{
    const struct topo_router *rt = &t->routers[r];
    for (uint32_t i = 0; i < rt->n_ports; i++) {
        uint32_t pt = rt->first_port + i;
        if (t->ports[pt].peer != TOPO_NONE &&
            topo_port_class((enum port_kind)t->ports[pt].kind) == cls &&
            k-- == 0)
            return pt;
    }
    return TOPO_NONE;
}

/* The three terms, each on a port set by hand. */
static void test_aries_levels(void)
{
    struct rt x;
    if (rt_setup(&x, "ADAPTIVE_0", NET_ARIES_CREDIT, false, 256) != 0) {
        CHECK(!"setup");
        return;
    }
    struct net *n = &x.n;
    uint32_t r = 0;
    uint32_t lp = port_of(&x.t, r, PCLASS_LOCAL, 0);
    uint32_t own = port_of(&x.t, r, PCLASS_GLOBAL, 0);
    /* a global port of group 0 owned by another router */
    uint32_t gp = TOPO_NONE;
    for (uint32_t q = 1; q < x.t.n_routers && gp == TOPO_NONE; q++)
        if (x.t.routers[q].group == 0)
            gp = port_of(&x.t, q, PCLASS_GLOBAL, 0);
    CHECK(lp != TOPO_NONE && own != TOPO_NONE && gp != TOPO_NONE);
    if (gp == TOPO_NONE || lp == TOPO_NONE || own == TOPO_NONE) {
        rt_free(&x);
        return;
    }
    const struct aries_route_params *ap = route_aries_params(&n->p);
    uint32_t q = ap->load_quantum; /* 14 flits: one full request */
    CHECK_EQ_U(q, 14);
    simtime period = n->p.publish_period;
    simtime t0 = 1000 * period;

    /* the link's own credits: 2 x wire + the next router's delay + one
     * packet, in flits at the link's rate */
    struct net_out *o = &n->out[lp];
    double ps = o->ser_fp / 1024.0;
    uint32_t big = net_req_flits(&n->p, NET_PUT, n->p.max_payload);
    uint32_t bdp = (uint32_t)((2.0 * o->latency +
                               (double)n->p.router_delay) / ps + 0.5) + big;
    CHECK_EQ_U(net_port_bdp(n, lp), bdp);
    CHECK_EQ_U(o->own, (uint64_t)bdp * n->p.far_light / 100);

    /* quiet: 0 */
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 0);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp, t0), 0);
    /* near-end: one level per full request waiting */
    o->qflits = 2 * q + 3;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 2);
    o->qflits = 40 * q;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0),
               ap->load_levels);
    o->qflits = 0;
    /* far-end: credits in use up to the link's own read 0 (a busy link
     * with nothing queued downstream), beyond them a level per packet */
    o->used = o->own;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 0);
    o->used = o->own / 2;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 0);
    o->used = o->own + 3 * q;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 3);
    o->qflits = q;
    CHECK_EQ_U(route_aries_level(n, r, lp, TOPO_NONE, t0), 4);
    o->qflits = 0;
    o->used = 0;

    /* downstream: the global link's load as its router published it, a
     * period late and a local link's latency later */
    struct net_out *g = &n->out[gp];
    g->qflits = 5 * q;
    net_port_publish(n, gp, t0);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp, t0), 0);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + period + o->latency - 1), 0);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 2 * period + o->latency), 5);
    /* its far-end part too */
    g->used = g->own + 2 * q;
    net_port_publish(n, gp, t0 + 4 * period);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 6 * period + o->latency), 7);
    /* the credits come back with nothing else happening at that port: what
     * its router publishes drops with them (the hardware publishes its
     * current credit count every period), seen a period and a local
     * link's latency later */
    net_ovc_at(n, gp, 0)->credits -= (int32_t)(2 * q);
    net_port_credit_back(n, gp, 0, 2 * q, t0 + 7 * period);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 7 * period + o->latency), 7);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 9 * period + o->latency), 5);
    g->used = g->own + 2 * q; /* sent again, as before */
    net_port_publish(n, gp, t0 + 10 * period);
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 12 * period + o->latency), 7);
    /* the three terms add up, and saturate */
    o->qflits = 3 * q;
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 12 * period + o->latency), 10);
    o->qflits = 12 * q;
    CHECK_EQ_U(route_aries_level(n, r, lp, gp,
                                 t0 + 12 * period + o->latency),
               ap->load_levels);
    o->qflits = 0;
    /* a global port the router owns: near and far only, counted once */
    n->out[own].qflits = 2 * q;
    CHECK_EQ_U(route_aries_level(n, r, own, own, t0), 2);
    rt_free(&x);

    /* the earlier metric (ablation): near-end + the next router's
     * published input occupancy, no downstream term */
    if (rt_setup(&x, "ADAPTIVE_0", NET_ARIES_OCCUPANCY, false, 256) != 0) {
        CHECK(!"setup");
        return;
    }
    n = &x.n;
    n->out[lp].qflits = 3 * q;
    n->out[lp].used = 500; /* credits play no part */
    n->out[gp].qflits = 9 * q;
    CHECK_EQ_U(route_aries_level(n, r, lp, gp, t0), 3);
    rt_free(&x);
}

/* Ties: to the first at level 0, either way at random above; never random
 * with the occupancy metric. */
static void test_aries_ties(void)
{
    struct rt x;
    if (rt_setup(&x, "ADAPTIVE_0", NET_ARIES_CREDIT, false, 256) != 0) {
        CHECK(!"setup");
        return;
    }
    uint32_t wins = 0, n = 400;
    for (uint32_t i = 0; i < n; i++) {
        CHECK(!route_aries_beats(&x.n, 0, 0, 0));
        CHECK(route_aries_beats(&x.n, 0, 1, 2));
        CHECK(!route_aries_beats(&x.n, 0, 2, 1));
        wins += route_aries_beats(&x.n, 0, 3, 3);
    }
    fprintf(stderr, "  ties at level 3: the second won %u of %u\n", wins,
            n);
    CHECK(wins > n / 2 - 60 && wins < n / 2 + 60); /* 6 sigma */
    rt_free(&x);
    if (rt_setup(&x, "ADAPTIVE_0", NET_ARIES_OCCUPANCY, false, 256) != 0) {
        CHECK(!"setup");
        return;
    }
    for (uint32_t i = 0; i < 50; i++)
        CHECK(!route_aries_beats(&x.n, 0, 3, 3));
    rt_free(&x);
}

static void trace_hop(void *ctx, const struct packet *p, uint32_t port,
                      bool at_nic, simtime waited, simtime now)
{
    (void)at_nic;
    (void)waited;
    struct rt *x = ctx;
    (void)now;
    if (p->cls != PKT_REQ)
        return;
    x->groups_seen |= 1u << x->t.routers[x->t.ports[port].router].group;
    if (topo_port_class((enum port_kind)x->t.ports[port].kind) ==
        PCLASS_GLOBAL)
        x->global_hops++;
}

static void trace_delivered(void *ctx, const struct packet *p, simtime now)
{
    struct rt *x = ctx;
    (void)now;
    if (p->cls == PKT_REQ) {
        x->traced++;
        CHECK(p->flags & PKT_NONMIN);
    }
}

/* The first NIC of a router of group g, the k-th router of the group. */
static uint32_t nic_in_group(const struct topo *t, uint32_t g, uint32_t k)
{
    for (uint32_t c = 0; c < t->n_nics; c++)
        if (t->routers[t->nics[c].router].group == g && k-- == 0)
            return c;
    return TOPO_NONE;
}

/* Non-minimal routes (XC white paper): inside a group through a root
 * router of that group, never another group; between groups through a
 * third group. */
static void test_nonmin_intermediates(void)
{
    const char *modes[] = { "valiant", "NMIN_HASH" };
    for (int m = 0; m < 2; m++) {
        struct rt x;
        if (rt_setup(&x, modes[m], NET_ARIES_CREDIT, false, 256) != 0) {
            CHECK(!"setup");
            return;
        }
        x.n.hooks = (struct net_hooks){ .ctx = &x, .hop = trace_hop,
                                        .delivered = trace_delivered };
        /* inside group 1: 40 packets, none leaves the group */
        uint32_t a = nic_in_group(&x.t, 1, 0), b = nic_in_group(&x.t, 1, 200);
        net_send(&x.n, a, b, NET_PUT, 64 * 40, 0, 0);
        sim_run(&x.s, SIMTIME_MAX);
        CHECK_EQ_U(x.traced, 40);
        CHECK_EQ_U(x.groups_seen, 1u << 1);
        CHECK_EQ_U(x.global_hops, 0);
        /* group 0 to group 1: every packet through group 2, two global
         * hops */
        x.groups_seen = x.global_hops = x.traced = 0;
        uint32_t c = nic_in_group(&x.t, 0, 5), e = nic_in_group(&x.t, 1, 9);
        net_send(&x.n, c, e, NET_PUT, 64 * 40, 0, 0);
        sim_run(&x.s, SIMTIME_MAX);
        CHECK_EQ_U(x.traced, 40);
        CHECK_EQ_U(x.groups_seen, 7u);
        CHECK_EQ_U(x.global_hops, 2 * 40);
        CHECK(net_check_drained(&x.n, &x.d) == 0);
        rt_free(&x);
    }
}

/* A delivered request counted, minimal or not (x->nonmin: how many went
 * non-minimally). */
static uint32_t traced_nonmin;
static void trace_any(void *ctx, const struct packet *p, simtime now)
{
    struct rt *x = ctx;
    (void)now;
    if (p->cls == PKT_REQ) {
        x->traced++;
        traced_nonmin += (p->flags & PKT_NONMIN) != 0;
    }
}

/* UGAL-G against UGAL-L (route/ugal_g.c): a packet from a router of group
 * 0 that owns no global link to group 1, while every global channel from
 * group 0 to group 1 shows a long queue (set by hand, the source's own
 * ports idle). UGAL-G reads those queues and goes through group 2 (two
 * global hops); UGAL-L sees only its idle first hop and stays minimal;
 * on a quiet network UGAL-G stays minimal too. */
static void test_ugal_global(void)
{
    for (int m = 0; m < 3; m++) {
        const char *mode = m == 1 ? "UGAL" : "UGAL-G";
        bool congested = m < 2;
        struct rt x;
        if (rt_setup(&x, mode, NET_ARIES_CREDIT, false, 256) != 0) {
            CHECK(!"setup");
            return;
        }
        x.n.hooks = (struct net_hooks){ .ctx = &x, .hop = trace_hop,
                                        .delivered = trace_any };
        traced_nonmin = 0;
        uint32_t cnt = df_pair_count(&x.n, 0, 1);
        /* a source router of group 0 without a link to group 1 */
        uint32_t src = TOPO_NONE;
        for (uint32_t r = 0; r < x.t.n_routers && src == TOPO_NONE; r++) {
            bool owns = x.t.routers[r].group != 0;
            for (uint32_t i = 0; i < cnt && !owns; i++)
                owns = x.t.ports[df_pair_port(&x.n, 0, 1, i)].router == r;
            if (!owns && x.t.routers[r].n_nics)
                src = r;
        }
        CHECK(src != TOPO_NONE);
        for (uint32_t i = 0; congested && i < cnt; i++)
            x.n.out[df_pair_port(&x.n, 0, 1, i)].qflits += 100000;
        uint32_t a = x.t.routers[src].first_nic,
                 b = nic_in_group(&x.t, 1, 9);
        net_send(&x.n, a, b, NET_PUT, 64, 0, 0);
        sim_run(&x.s, SIMTIME_MAX);
        for (uint32_t i = 0; congested && i < cnt; i++)
            x.n.out[df_pair_port(&x.n, 0, 1, i)].qflits -= 100000;
        CHECK_EQ_U(x.traced, 1);
        bool diverted = m == 0;
        CHECK_EQ_U(traced_nonmin, diverted ? 1 : 0);
        CHECK_EQ_U(x.global_hops, diverted ? 2 : 1);
        CHECK_EQ_U(x.groups_seen, diverted ? 7u : 3u);
        CHECK(net_check_drained(&x.n, &x.d) == 0);
        rt_free(&x);
    }
}

/* ---- Slingshot: length among the minimal paths (route/ss.c) -------- */

struct ss_trace {
    uint32_t first;  /* the first router output a request took */
    uint32_t local, global; /* switch-to-switch hops of the requests */
    bool nonmin;
};
static struct ss_trace ss_last; /* of the last request sent */

static void ss_hop(void *ctx, const struct packet *p, uint32_t port,
                   bool at_nic, simtime waited, simtime now)
{
    (void)at_nic;
    (void)waited;
    struct rt *x = ctx;
    struct ss_trace *tr = &ss_last;
    (void)now;
    if (p->cls != PKT_REQ)
        return;
    enum port_class c = topo_port_class((enum port_kind)x->t.ports[port].kind);
    if (c != PCLASS_LOCAL && c != PCLASS_GLOBAL)
        return;
    if (tr->local + tr->global == 0)
        tr->first = port;
    if (c == PCLASS_LOCAL)
        tr->local++;
    else
        tr->global++;
}

static void ss_delivered(void *ctx, const struct packet *p, simtime now)
{
    struct rt *x = ctx;
    (void)now;
    if (p->cls == PKT_REQ) {
        x->traced++;
        ss_last.nonmin = (p->flags & PKT_NONMIN) != 0;
    }
}

/* Malbec under SS_ADAPTIVE with ss_hop_flits `hop` (UINT32_MAX: the
 * default, which the test also checks: 350 ns of a 200 Gb/s link). */
static int ss_setup(struct rt *x, uint32_t hop)
{
    memset(x, 0, sizeof *x);
    diag_init(&x->d);
    if (topo_build_system(&x->t, "malbec", &x->d) != 0 ||
        sim_init(&x->s, EVQ_DEFAULT, net_entities(&x->t)) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &x->t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       "SS_ADAPTIVE");
    if (!np.routing)
        return -1;
    unsigned char *b = net_part_block(&np, np.routing->part, &x->t);
    const struct cfg_key *k = np.routing->part->keys;
    while (k->name && strcmp(k->name, "ss_hop_flits") != 0)
        k++;
    if (!b || !k->name)
        return -1;
    uint32_t *flits = (uint32_t *)(void *)(b + k->offset);
    CHECK_EQ_U(*flits, 8750);
    if (hop != UINT32_MAX)
        *flits = hop;
    return net_init(&x->n, &x->t, &np, &x->s, 1, &x->d);
}

/* The first NIC of switch k of group g, TOPO_NONE if it has none. */
static uint32_t switch_nic(const struct rt *x, uint32_t g, uint32_t k)
{
    const struct topo_router *r = &x->t.routers[x->n.group_first[g] + k];
    return r->n_nics ? r->first_nic : TOPO_NONE;
}

/* One 64-byte PUT from NIC a to NIC b on the idle network; its hops in
 * ss_last. */
static void ss_send(struct rt *x, uint32_t a, uint32_t b)
{
    memset(&ss_last, 0, sizeof ss_last);
    x->n.hooks = (struct net_hooks){ .ctx = x, .hop = ss_hop,
                                     .delivered = ss_delivered };
    net_send(&x->n, a, b, NET_PUT, 64, 0, 0);
    sim_run(&x->s, SIMTIME_MAX);
}

/* SC'20 §II-C: the source switch chooses "by considering both the
 * paths' congestion and length", and §II-B counts three switches
 * between two groups for Fig. 4. On idle Malbec (every switch has global
 * links to every other group) a request between groups leaves by a link
 * of its own switch: one global hop, a local one only where the link
 * lands off the destination switch. With ss_hop_flits 0 (by load alone,
 * both candidates among the pair's 48 links) most cross a local link
 * first. With the source switch's own links to the destination group
 * loaded far beyond a hop's worth, the request avoids them. */
static void test_ss_length(void)
{
    uint32_t firsts_local[2] = { 0, 0 }, sent = 0;
    for (int off = 0; off < 2; off++) {
        struct rt x;
        if (ss_setup(&x, off ? 0 : UINT32_MAX) != 0) {
            CHECK(!"setup");
            return;
        }
        sent = 0;
        for (uint32_t k = 0; k < 8; k++)
            for (uint32_t g = 1; g < 4; g++) {
                /* switch k of group 0 to switch (k + g) mod 6 of g (the
                 * last group has 100 nodes: its last switches none) */
                uint32_t a = switch_nic(&x, 0, k);
                uint32_t b = switch_nic(&x, g, (k + g) % 6);
                if (a == TOPO_NONE || b == TOPO_NONE) {
                    CHECK(!"a switch without nodes");
                    continue;
                }
                ss_send(&x, a, b);
                const struct ss_trace *tr = &ss_last;
                uint32_t src = x.t.nics[a].router;
                bool own = x.t.ports[tr->first].router == src &&
                           topo_port_class((enum port_kind)x.t.ports[
                               tr->first].kind) == PCLASS_GLOBAL;
                firsts_local[off] += !own;
                if (!off) {
                    CHECK(own);
                    CHECK(!ss_last.nonmin);
                    CHECK_EQ_U(tr->global, 1);
                    uint32_t land = x.t.ports[x.t.ports[tr->first].peer]
                                        .router;
                    CHECK_EQ_U(tr->local,
                               land != x.t.nics[b].router ? 1u : 0u);
                }
                sent++;
            }
        CHECK_EQ_U(x.traced, sent);
        CHECK(net_check_drained(&x.n, &x.d) == 0);
        if (!off) {
            /* the source switch's own links to group 1 loaded */
            uint32_t a = switch_nic(&x, 0, 0), src = x.t.nics[a].router;
            uint32_t b = switch_nic(&x, 1, 2);
            uint32_t cnt = df_pair_count(&x.n, 0, 1), mine = 0;
            for (uint32_t i = 0; i < cnt; i++) {
                uint32_t gp = df_pair_port(&x.n, 0, 1, i);
                if (x.t.ports[gp].router == src) {
                    x.n.out[gp].qflits += 100000;
                    mine++;
                }
            }
            CHECK(mine > 0);
            ss_send(&x, a, b);
            const struct ss_trace *tr = &ss_last;
            CHECK(x.n.out[tr->first].qflits < 100000);
            for (uint32_t i = 0; i < cnt; i++) {
                uint32_t gp = df_pair_port(&x.n, 0, 1, i);
                if (x.t.ports[gp].router == src)
                    x.n.out[gp].qflits -= 100000;
            }
        }
        rt_free(&x);
    }
    printf("  Malbec idle, %u requests between groups: first hop a local "
           "link %u with ss_hop_flits 8750, %u with 0\n", sent,
           firsts_local[0], firsts_local[1]);
    CHECK_EQ_U(firsts_local[0], 0);
    CHECK(firsts_local[1] * 2 > sent);
}

/* Uniform random traffic at 0.9 on df1056 with minimal routing: the
 * accepted load a router's buffering allows. A plain input-queued
 * crossbar blocks at its heads (about 0.63 of injection); the tiled
 * router's row and column buffers remove most of that, up to what
 * virtual output queues reach. Counting the 1-flit response each 5-flit
 * request brings, the tiled router carries at least 85 % of its links'
 * capacity. */
static void test_router_buffering(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    if (topo_build_system(&t, "df1056", &d) != 0) {
        CHECK(!"df1056");
        return;
    }
    const uint8_t routers[] = { NET_ROUTER_INPUT_QUEUED, NET_ROUTER_TILED,
                                NET_ROUTER_VOQ };
    double acc[3];
    for (int k = 0; k < 3; k++) {
        struct net_params np;
        cc_net_defaults(&np, &t);
        np.routing = (const struct routing *)registry_find(&routing_registry,
                                                           "minimal");
        np.router = routers[k];
        struct traffic_params tp;
        traffic_defaults(&tp);
        tp.pattern = TRAFFIC_UNIFORM;
        tp.load = 0.9;
        tp.warmup_us = 2;
        tp.measure_us = 2;
        tp.drain_us = 1;
        struct traffic_result res;
        memset(&res, 0, sizeof res);
        CHECK(traffic_run(&t, &np, &tp, 1, EVQ_DEFAULT, &res, &d) == 0);
        CHECK(!res.deadlock);
        acc[k] = res.accepted;
    }
    uint32_t req = net_req_flits(&(struct net_params){ .req_header = 1,
                                                       .flit_bytes = 16,
                                                       .expand_num = 1,
                                                       .expand_den = 1 },
                                 NET_PUT, 64);
    double capacity = (double)(req + 1) / req; /* link flits per request */
    fprintf(stderr, "  df1056 uniform 0.9, minimal: accepted input-queued "
            "%.3f, tiled %.3f (%.2f of link capacity), voq %.3f\n",
            acc[0], acc[1], acc[1] * capacity, acc[2]);
    CHECK(acc[1] > 1.1 * acc[0]);
    CHECK(acc[1] <= acc[2] + 0.01);
    CHECK(acc[1] * capacity >= 0.85);
    topo_free(&t);
}

/* GETs from two nodes to a third: the target answers at its host
 * stream's rate (a 64-byte read every 6.25 ns), half the rate at which
 * the two requesters' GET requests arrive. With response slots the
 * requests it cannot take wait in the network, the short path back to
 * the requesters fills and their request flits stall
 * (AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED); with unbounded slots the
 * target sinks every request at once and nobody stalls. Three routers of
 * one chassis (one green link apart), minimal routing. */
static void test_response_slots(void)
{
    simtime stalled[2], took[2];
    for (int k = 0; k < 2; k++) {
        struct rt x;
        if (rt_setup(&x, "minimal", NET_ARIES_CREDIT, true,
                     k ? 256 : 0) != 0) {
            CHECK(!"setup");
            return;
        }
        /* the first NIC of routers 0, 1 and 2 (slots 0..2 of chassis 0) */
        uint32_t nic[3] = { 0, 0, 0 };
        for (uint32_t r = 0; r < 3; r++)
            for (uint32_t c = x.t.n_nics; c-- > 0;)
                if (x.t.nics[c].router == r)
                    nic[r] = c;
        net_send(&x.n, nic[1], nic[0], NET_GET, 256 * 1024, 0, 0);
        net_send(&x.n, nic[2], nic[0], NET_GET, 256 * 1024, 0, 0);
        sim_run(&x.s, SIMTIME_MAX);
        stalled[k] = x.n.ct.nic[nic[1]].stall[PKT_REQ] +
                     x.n.ct.nic[nic[2]].stall[PKT_REQ];
        took[k] = x.s.now;
        CHECK(net_check_drained(&x.n, &x.d) == 0);
        CHECK_EQ_U(x.n.st.msgs_done, 2);
        rt_free(&x);
    }
    fprintf(stderr, "  two 256 KiB GETs from one target: requesters' "
            "request stalls %.1f us with 256 response slots, %.1f us "
            "unbounded; done in %.1f / %.1f us\n",
            (double)stalled[1] / SIMTIME_US, (double)stalled[0] / SIMTIME_US,
            (double)took[1] / SIMTIME_US, (double)took[0] / SIMTIME_US);
    CHECK_EQ_U(stalled[0], 0);
    CHECK(stalled[1] > 10 * SIMTIME_US);
    /* the target's stream sets the pace either way: 8192 responses */
    CHECK(took[1] > 8192 * 6250 && took[0] > 8192 * 6250);
    CHECK(took[1] < took[0] * 11 / 10);
}

static uint64_t own_nonmin, own_pkts;
static void count_req(void *ctx, const struct packet *p, simtime now)
{
    (void)ctx;
    (void)now;
    if (p->cls == PKT_REQ) {
        own_pkts++;
        own_nonmin += (p->flags & PKT_NONMIN) != 0;
    }
}

/* One node's own stream (SC'19 Fig. 7, intra-group): 1 MiB PUT to a node
 * one green link away. Its NIC injects faster than the link carries, so
 * the stream queues at its first hop and keeps the link busy: ADAPTIVE_0
 * spreads it over non-minimal paths and is faster; ADAPTIVE_3's bias is
 * one level above what the stream can show there
 * (net_own_stream_level), so it stays minimal, stalls more and is
 * slower. */
static void test_own_stream(void)
{
    const char *modes[] = { "ADAPTIVE_0", "ADAPTIVE_3" };
    double share[2], took[2], stall[2];
    for (int k = 0; k < 2; k++) {
        struct rt x;
        if (rt_setup(&x, modes[k], NET_ARIES_CREDIT, true, 256) != 0) {
            CHECK(!"setup");
            return;
        }
        const struct aries_route_params *ap = route_aries_params(&x.n.p);
        CHECK_EQ_U(ap->bias[3].add,
                   route_aries_own_level(&x.n.p, ap->load_quantum,
                                         ap->far_quantum, &x.t) + 1);
        x.n.hooks = (struct net_hooks){ .delivered = count_req };
        own_nonmin = own_pkts = 0;
        uint32_t nic[2] = { 0, 0 };
        for (uint32_t r = 0; r < 2; r++)
            for (uint32_t c = x.t.n_nics; c-- > 0;)
                if (x.t.nics[c].router == r)
                    nic[r] = c;
        net_send(&x.n, nic[1], nic[0], NET_PUT, 1 << 20, 0, 0);
        sim_run(&x.s, SIMTIME_MAX);
        share[k] = (double)own_nonmin / (double)own_pkts;
        took[k] = (double)x.s.now / SIMTIME_US;
        stall[k] = (double)x.n.ct.nic[nic[1]].stall[PKT_REQ] / SIMTIME_US;
        CHECK_EQ_U(own_pkts, 16384);
        CHECK(net_check_drained(&x.n, &x.d) == 0);
        rt_free(&x);
    }
    fprintf(stderr, "  own stream, 1 MiB over one green link: ADAPTIVE_0 "
            "%.1f %% non-minimal, %.1f us, %.1f us stalled; ADAPTIVE_3 "
            "%.1f %%, %.1f us, %.1f us stalled\n", 100 * share[0], took[0],
            stall[0], 100 * share[1], took[1], stall[1]);
    CHECK(share[0] > 0.2);
    CHECK(share[1] < 0.02);
    CHECK(took[0] < 0.8 * took[1]);
    CHECK(stall[1] > stall[0]);
}

/* An all-to-all's time under ADAPTIVE_1 (Cray MPI's mode for
 * MPI_Alltoall) and ADAPTIVE_3 on a 6-group XC with xc-12cab's 12 cables
 * per group pair, for a job of 32 nodes: every node PUTs `bytes` to every
 * other at once. SC'19 Fig. 8 found the default 1.4-1.5x faster on its
 * 16 KiB alltoall of 1,024 nodes on 257 routers of 6 of Piz Daint's 14
 * groups. Where the job sits decides it: packed on 4 routers in each of
 * 2 groups, its minimal paths crowd the local links between its own
 * routers and the ones holding the cables, which spreading relieves
 * through the rest of the machine; one node on each of 32 routers
 * across every group already loads the links evenly on minimal paths,
 * and spreading gains nothing. *busiest_is_job: the router-to-router
 * output that sent the most flits belongs to a router of the job. */
static double a2a_time(const char *routing, const uint32_t *nics,
                       uint32_t n_job, uint32_t bytes, double *nonmin,
                       bool *busiest_is_job)
{
    struct rt x;
    if (rt_setup_xc(&x, routing, NET_ARIES_CREDIT, true, 256, 6, 6, 12) !=
        0) {
        CHECK(!"setup");
        return 0;
    }
    x.n.hooks = (struct net_hooks){ .delivered = count_req };
    own_nonmin = own_pkts = 0;
    for (uint32_t i = 0; i < n_job; i++)
        for (uint32_t k = 1; k < n_job; k++)
            net_send(&x.n, nics[i], nics[(i + k) % n_job], NET_PUT, bytes,
                     0, 0);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    CHECK_EQ_U(x.n.st.msgs_done, (uint64_t)n_job * (n_job - 1));
    *nonmin = (double)own_nonmin / (double)own_pkts;
    uint32_t busiest = 0;
    uint64_t most = 0;
    for (uint32_t q = 0; q < x.t.n_ports; q++) {
        const struct net_out_count *o = &x.n.ct.out[q];
        uint64_t sent = o->flits[0] + o->flits[1];
        if (x.t.ports[q].nic == TOPO_NONE &&
            x.t.ports[q].peer != TOPO_NONE && sent > most) {
            most = sent;
            busiest = x.t.ports[q].router;
        }
    }
    *busiest_is_job = false;
    for (uint32_t i = 0; i < n_job; i++)
        *busiest_is_job |= x.t.nics[nics[i]].router == busiest;
    double took = (double)x.s.now / SIMTIME_US;
    rt_free(&x);
    return took;
}

static void test_alltoall_placement(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    if (xc_build(&t, 6, 6, 12, &d) != 0) {
        CHECK(!"xc");
        return;
    }
    /* packed: the 4 NICs of routers 0-3 of groups 0 and 1; spread: the
     * first NIC of every 18th router, 32 of 576 */
    uint32_t rpg = t.n_routers / t.n_groups, job[2][32], n[2] = { 0 };
    for (uint32_t c = 0; c < t.n_nics; c++) {
        uint32_t r = t.nics[c].router;
        if (r % rpg < 4 && t.routers[r].group < 2 && n[0] < 32)
            job[0][n[0]++] = c;
        if (r % 18 == 0 && (c == 0 || t.nics[c - 1].router != r) &&
            n[1] < 32)
            job[1][n[1]++] = c;
    }
    bool all_groups = true;
    for (uint32_t g = 0; g < t.n_groups; g++) {
        bool seen = false;
        for (uint32_t i = 0; i < n[1]; i++)
            seen |= t.routers[t.nics[job[1][i]].router].group == g;
        all_groups &= seen;
    }
    CHECK(rpg == 96 && all_groups);
    topo_free(&t);
    CHECK_EQ_U(n[0], 32);
    CHECK_EQ_U(n[1], 32);
    double ratio[2], t1[2], t3[2], nm1[2], nm3[2];
    bool hot1, hot3[2];
    for (int k = 0; k < 2; k++) {
        t1[k] = a2a_time("ADAPTIVE_1", job[k], 32, 2048, &nm1[k], &hot1);
        t3[k] = a2a_time("ADAPTIVE_3", job[k], 32, 2048, &nm3[k], &hot3[k]);
        ratio[k] = t3[k] / t1[k];
    }
    fprintf(stderr, "  all-to-all of 2 KiB, 32 nodes: on 4 routers in each "
            "of 2 groups ADAPTIVE_1 %.1f us (%.0f %% non-minimal), "
            "ADAPTIVE_3 %.1f us (%.0f %%): %.2fx; one per router over 6 "
            "groups %.1f (%.0f %%) / %.1f us (%.0f %%): %.2fx\n", t1[0],
            100 * nm1[0], t3[0], 100 * nm3[0], ratio[0], t1[1], 100 * nm1[1],
            t3[1], 100 * nm3[1], ratio[1]);
    CHECK(ratio[0] >= 1.2);
    CHECK(ratio[1] < ratio[0] - 0.2);
    CHECK(nm1[0] > nm3[0]);
    CHECK(hot3[0]); /* the packed job's own routers carry its hot spot */
}

const struct test_case tests_route[] = {
    TEST(test_registry),
    TEST(test_next_hop_tables),
    TEST(test_next_hop_both),
    TEST(test_aries_levels),
    TEST(test_aries_ties),
    TEST(test_nonmin_intermediates),
    TEST(test_ugal_global),
    TEST(test_ss_length),
    TEST(test_router_buffering),
    TEST(test_response_slots),
    TEST(test_own_stream),
    TEST(test_alltoall_placement),
    { 0 },
};
