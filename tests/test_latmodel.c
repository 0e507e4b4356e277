/* tests/test_latmodel.c — Netscope's network latency model
 * (net/latency_model.h, ICS'21 §4.2): Eq. 11 on hand-computed stall
 * shares; on an idle network every Q_l is 1, so each class's sum of Q is
 * its link count, and the counts are the topology's (NIC, green, black,
 * optical hops); with Q_l drawn at random, the path classes equal a
 * brute-force enumeration of every minimal and every Valiant path
 * (Aries with 6 groups, one chassis, two groups, the generic dragonfly,
 * Slingshot); an incast shows on the links into its target's router and
 * at its sources' injection, and not on an idle pair; and the fit
 * recovers known constants. */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/sim.h"
#include "net/latency_model.h"
#include "net/net.h"
#include "topo/topo.h"
#include "ctl/cc.h"
#include "route/route.h"

struct h {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
};

static int setup(struct h *h, const char *system)
{
    memset(h, 0, sizeof *h);
    diag_init(&h->d);
    if (topo_build_system(&h->t, system, &h->d) != 0 ||
        sim_init(&h->s, EVQ_DEFAULT, net_entities(&h->t) + 1) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &h->t);
    np.counters = true;
    return net_init(&h->n, &h->t, &np, &h->s, 1, &h->d);
}

static void teardown(struct h *h)
{
    net_free(&h->n);
    sim_free(&h->s);
    topo_free(&h->t);
}

static void test_queueing(void)
{
    CHECK_NEAR(latm_queueing(0, 1000), 1.0, 1e-12);
    CHECK_NEAR(latm_queueing(500, 1000), 2.0, 1e-12);
    CHECK_NEAR(latm_queueing(750, 1000), 4.0, 1e-12);
    CHECK_NEAR(latm_queueing(990, 1000), 100.0, 1e-9);
    CHECK_NEAR(latm_queueing(1000, 1000), 100.0, 1e-9); /* capped */
    CHECK_NEAR(latm_queueing(5, 0), 1.0, 1e-12);        /* no window */
}

/* ---- brute force: every path, walked hop by hop -------------------- */

struct bf {
    const struct latm *m;
    const struct net *n;
};

/* Q and links of the dimension-order path a -> x inside a group. */
static void bf_local(const struct bf *b, uint32_t a, uint32_t x, double *q,
                     double *nl)
{
    const struct net *n = b->n;
    const struct topo *t = n->t;
    uint32_t g = t->routers[x].group;
    *q = 0, *nl = 0;
    while (a != x) {
        size_t e = net_nh(n, a, x - n->group_first[g]);
        CHECK(n->nh_count[e] > 0);
        uint32_t port = net_nh_port(n, a, e, 0);
        /* every parallel port leads to the same router */
        for (uint32_t k = 1; k < n->nh_count[e]; k++)
            CHECK_EQ_U(t->ports[t->ports[net_nh_port(n, a, e, k)].peer].router,
                       t->ports[t->ports[port].peer].router);
        *q += b->m->q_link[b->m->port_link[port]];
        *nl += 1;
        a = t->ports[t->ports[port].peer].router;
    }
}

/* Mean over the minimal paths a -> b. */
static void bf_minimal(const struct bf *b, uint32_t a, uint32_t c, double *q,
                       double *nl)
{
    const struct topo *t = b->n->t;
    uint32_t ga = t->routers[a].group, gc = t->routers[c].group;
    if (ga == gc) {
        bf_local(b, a, c, q, nl);
        return;
    }
    size_t k = (size_t)ga * t->n_groups + gc;
    double sq = 0, sn = 0;
    uint32_t cnt = t->pair_start[k + 1] - t->pair_start[k];
    CHECK(cnt > 0);
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t gp = t->pair_port[t->pair_start[k] + i];
        uint32_t x = t->ports[gp].router;
        uint32_t y = t->ports[t->ports[gp].peer].router;
        double q1, n1, q2, n2;
        bf_local(b, a, x, &q1, &n1);
        bf_local(b, y, c, &q2, &n2);
        sq += q1 + b->m->q_link[b->m->port_link[gp]] + q2;
        sn += n1 + 1 + n2;
    }
    *q = sq / cnt;
    *nl = sn / cnt;
}

static void bf_pair(const struct bf *b, uint32_t src, uint32_t dst,
                    struct latm_paths *out)
{
    const struct topo *t = b->n->t;
    uint32_t a = t->nics[src].router, c = t->nics[dst].router;
    double ends = b->m->q_inj[src] + b->m->q_ej[dst], q, nl;
    bf_minimal(b, a, c, &q, &nl);
    out->q_min = ends + q;
    out->n_min = 2 + nl;
    out->q_non = out->q_min;
    out->n_non = out->n_min;
    if (a == c)
        return;
    uint32_t ga = t->routers[a].group, gc = t->routers[c].group;
    double sq = 0, sn = 0;
    uint32_t count = 0;
    for (uint32_t i = 0; i < t->n_routers; i++) {
        uint32_t gi = t->routers[i].group;
        bool ok = ga != gc && t->n_groups >= 3 ? gi != ga && gi != gc
                  : ga == gc                   ? gi == ga && i != a && i != c
                                               : i != a && i != c;
        if (!ok)
            continue;
        double q1, n1, q2, n2;
        bf_minimal(b, a, i, &q1, &n1);
        bf_minimal(b, i, c, &q2, &n2);
        sq += q1 + q2;
        sn += n1 + n2;
        count++;
    }
    if (count) {
        out->q_non = ends + sq / count;
        out->n_non = 2 + sn / count;
    }
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(b) + 1);
}

/* Random Q_l on every link and NIC; the classes of `pairs` random NIC
 * pairs (and a NIC to another on its router) against brute force. */
static void check_random(const char *system, uint32_t pairs)
{
    struct h h;
    CHECK(setup(&h, system) == 0);
    struct latm m;
    CHECK(latm_init(&m, &h.n) == 0);
    struct rng r = rng_stream(42, RNG_TEST, 0);
    for (uint32_t i = 0; i < m.L.n; i++)
        m.q_link[i] = 1 + 9 * rng_unit(&r);
    for (uint32_t c = 0; c < h.t.n_nics; c++) {
        m.q_inj[c] = 1 + 9 * rng_unit(&r);
        m.q_ej[c] = 1 + 9 * rng_unit(&r);
    }
    latm_refresh(&m);
    struct bf b = { &m, &h.n };
    uint32_t bad = 0;
    for (uint32_t k = 0; k <= pairs; k++) {
        uint32_t s = rng_below(&r, h.t.n_nics);
        uint32_t d = k == pairs ? (s ^ 1u) : rng_below(&r, h.t.n_nics);
        struct latm_paths got, want;
        latm_pair(&m, s, d, &got);
        bf_pair(&b, s, d, &want);
        if (!close_to(got.q_min, want.q_min) ||
            !close_to(got.n_min, want.n_min) ||
            !close_to(got.q_non, want.q_non) ||
            !close_to(got.n_non, want.n_non)) {
            if (bad++ < 3)
                fprintf(stderr,
                        "  %s %u -> %u: min %.6f/%.3f non %.6f/%.3f, brute "
                        "force %.6f/%.3f %.6f/%.3f\n",
                        system, s, d, got.q_min, got.n_min, got.q_non,
                        got.n_non, want.q_min, want.n_min, want.q_non,
                        want.n_non);
        }
        /* a second read of the same window (cached totals) agrees */
        struct latm_paths again;
        latm_pair(&m, s, d, &again);
        CHECK(memcmp(&again, &got, sizeof got) == 0);
    }
    CHECK_EQ_U(bad, 0);
    latm_free(&m);
    teardown(&h);
}

static void test_paths_brute_force(void)
{
    check_random("xc-12cab", 40);
    check_random("voltrino", 40);
    check_random("crystal", 20);   /* two groups: Valiant over both */
    check_random("df1056", 40);
    check_random("malbec", 40);
}

/* Idle: every Q_l is 1, each class's Q sum its link count; the counts
 * are the topology's. */
static void test_idle_counts(void)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab") == 0);
    struct latm m;
    CHECK(latm_init(&m, &h.n) == 0);
    CHECK(sim_run_before(&h.s, 10 * SIMTIME_US));
    CHECK(latm_window(&m) == 10 * SIMTIME_US);
    const struct topo *t = &h.t;
    /* NIC 0's router r0; find NICs on: r0, a router of the same chassis,
     * one of another chassis and slot in the group, another group */
    uint32_t r0 = t->nics[0].router;
    uint32_t same = TOPO_NONE, chassis = TOPO_NONE, other = TOPO_NONE,
             far = TOPO_NONE;
    for (uint32_t c = 1; c < t->n_nics; c++) {
        const struct topo_router *a = &t->routers[r0],
                                 *x = &t->routers[t->nics[c].router];
        if (t->nics[c].router == r0 && same == TOPO_NONE)
            same = c;
        else if (x->group == a->group && x->pos[0] == a->pos[0] &&
                 t->nics[c].router != r0 && chassis == TOPO_NONE)
            chassis = c;
        else if (x->group == a->group && x->pos[0] != a->pos[0] &&
                 x->pos[1] != a->pos[1] && other == TOPO_NONE)
            other = c;
        else if (x->group != a->group && far == TOPO_NONE)
            far = c;
    }
    CHECK(same != TOPO_NONE && chassis != TOPO_NONE && other != TOPO_NONE &&
          far != TOPO_NONE);
    struct latm_paths p;
    latm_pair(&m, 0, same, &p);
    CHECK_NEAR(p.n_min, 2, 1e-12); /* injection, ejection */
    CHECK_NEAR(p.q_min, 2, 1e-12);
    CHECK_NEAR(p.n_non, 2, 1e-12);
    latm_pair(&m, 0, chassis, &p);
    CHECK_NEAR(p.n_min, 3, 1e-12); /* + one green hop */
    CHECK_NEAR(p.q_min, 3, 1e-12);
    CHECK(p.n_non > 3 && p.n_non <= 6);
    latm_pair(&m, 0, other, &p);
    CHECK_NEAR(p.n_min, 4, 1e-12); /* green, then black */
    latm_pair(&m, 0, far, &p);
    /* <= 2 local hops, the optical one, <= 2 local hops */
    CHECK(p.n_min > 3 && p.n_min <= 7);
    CHECK_NEAR(p.q_min, p.n_min, 1e-9);
    CHECK(p.n_non > p.n_min && p.n_non <= 12);
    CHECK_NEAR(p.q_non, p.n_non, 1e-9);
    latm_free(&m);
    teardown(&h);
}

/* An incast on Voltrino: the links into the target's router and the
 * sources' injection stall; a pair of NICs outside it reads idle. */
static void test_incast_seen(void)
{
    struct h h;
    CHECK(setup(&h, "voltrino") == 0);
    struct latm m;
    CHECK(latm_init(&m, &h.n) == 0);
    for (uint32_t s = 1; s < 16; s++)
        net_send(&h.n, 4 * s, 0, NET_PUT, 64 * 1024, 0, 0);
    CHECK(sim_run_before(&h.s, 20 * SIMTIME_US));
    CHECK(latm_window(&m) > 0);
    /* the links into the target's router wait for its buffers, which
     * drain at the ejection's rate (busy, barely stalled: the NIC sinks
     * at line rate) */
    double into = 0;
    for (uint32_t i = 0; i < m.L.n; i++)
        if (m.L.link[i].peer == h.t.nics[0].router && m.q_link[i] > into)
            into = m.q_link[i];
    fprintf(stderr, "  target's ejection Q %.2f, the most stalled link into "
                    "its router %.2f, a source's injection Q %.2f\n",
            m.q_ej[0], into, m.q_inj[4]);
    CHECK(into > 2); /* stalled more than half the window */
    CHECK(m.q_inj[4] > 2);
    struct latm_paths p;
    latm_pair(&m, 2, 3, &p); /* NICs of router 0, not in the incast */
    CHECK_NEAR(p.q_min, 2, 1e-12);
    latm_pair(&m, 4, 0, &p);
    CHECK(p.q_min > p.n_min + 1);
    latm_free(&m);
    teardown(&h);
}

/* Known constants back from exact data: w 0.3, k0 2 us, k1 0.5 us,
 * k2 0.2 us; with one link count, k0 carries k2's part. */
static void test_fit(void)
{
    enum { N = 40 };
    struct latm_paths rt[N];
    double y[N];
    struct rng r = rng_stream(7, RNG_TEST, 0);
    struct latm_fit truth = { .n = N, .k0 = 2, .k1 = 0.5, .k2 = 0.2,
                              .w = 0.3 };
    for (int i = 0; i < N; i++) {
        rt[i].n_min = 6 + 2 * rng_below(&r, 3);
        rt[i].n_non = rt[i].n_min + 4;
        rt[i].q_min = rt[i].n_min + 20 * rng_unit(&r);
        rt[i].q_non = rt[i].n_non + 50 * rng_unit(&r);
        y[i] = truth.k0 + latm_delay(&truth, &rt[i]);
    }
    struct latm_fit f;
    latm_fit(rt, y, N, false, &f);
    CHECK_EQ_U(f.n, N);
    CHECK_NEAR(f.w, 0.3, 1e-12);
    CHECK_NEAR(f.k0, 2.0, 1e-9);
    CHECK_NEAR(f.k1, 0.5, 1e-9);
    CHECK_NEAR(f.k2, 0.2, 1e-9);
    /* exact data: relative squares find the same constants */
    latm_fit(rt, y, N, true, &f);
    CHECK_NEAR(f.w, 0.3, 1e-12);
    CHECK_NEAR(f.k1, 0.5, 1e-9);
    CHECK_NEAR(f.k2, 0.2, 1e-9);
    /* every pair at one distance: (k1 + k2) x links goes into k0 */
    for (int i = 0; i < N; i++) {
        rt[i].q_min += 6 - rt[i].n_min;
        rt[i].q_non += 8 - rt[i].n_non;
        rt[i].n_min = 6, rt[i].n_non = 8;
        y[i] = truth.k0 + latm_delay(&truth, &rt[i]);
    }
    latm_fit(rt, y, N, false, &f);
    CHECK_NEAR(f.w, 0.3, 1e-12);
    CHECK_NEAR(f.k1, 0.5, 1e-9);
    CHECK_NEAR(f.k1 + f.k2, 0.0, 1e-9);
    CHECK_NEAR(f.k0, 2.0 + 0.7 * (0.3 * 6 + 0.7 * 8), 1e-9);
    /* and so when they differ by 2 %, not a real spread */
    for (int i = 0; i < N; i++) {
        rt[i].n_min += (i & 1) * 0.12, rt[i].q_min += (i & 1) * 0.12;
        y[i] = truth.k0 + latm_delay(&truth, &rt[i]) + 0.01 * (i % 3);
    }
    latm_fit(rt, y, N, false, &f);
    CHECK_NEAR(f.k1 + f.k2, 0.0, 1e-9);
    CHECK(f.k0 > 2.0 && f.k0 < 10.0);
    /* one point far off: absolute squares bend to it, relative squares
     * keep the rest within 1 % */
    y[0] *= 50;
    struct latm_fit fa, fr;
    latm_fit(rt, y, N, false, &fa);
    latm_fit(rt, y, N, true, &fr);
    uint32_t in_a = 0, in_r = 0;
    for (int i = 1; i < N; i++) {
        double ea = fa.k0 + latm_delay(&fa, &rt[i]),
               er = fr.k0 + latm_delay(&fr, &rt[i]);
        in_a += fabs(ea - y[i]) <= 0.01 * y[i];
        in_r += fabs(er - y[i]) <= 0.01 * y[i];
    }
    CHECK(in_r > in_a);
    CHECK_EQ_U(in_r, N - 1);
    latm_fit(rt, y, 2, false, &f); /* too few points */
    CHECK(isnan(f.k1) && isnan(f.w));
}

const struct test_case tests_latmodel[] = {
    TEST(test_queueing),
    TEST(test_paths_brute_force),
    TEST(test_idle_counts),
    TEST(test_incast_seen),
    TEST(test_fit),
    { 0 },
};
