/* tests/test_cc.c — congestion control at the NICs: the pair table
 * against a plain list, the controller interface driven by a toy
 * controller (a held-back pair does not block the NIC's other
 * destinations; every request is reported sent and acked), and
 * Slingshot's endpoint control on a hand-built incast: the incast's
 * sources are marked and throttled within a few round trips, a bystander
 * stream through the same switches is neither, and it gets through far
 * sooner than without control. */
#include "test.h"

#include "core/rng.h"
#include "core/sim.h"
#include "net/cc.h"
#include "net/net.h"
#include "route/route.h"
#include "topo/topo.h"

/* ---- the pair table ------------------------------------------------ */

static void test_pairs(void)
{
    struct cc_pairs t;
    CHECK(cc_pairs_init(&t, 4) == 0);
    enum { N = 3000 };
    static uint32_t src[N], dst[N];
    static bool in[N];
    struct rng r = rng_stream(7, 0, 0);
    for (uint32_t i = 0; i < N; i++) {
        src[i] = rng_below(&r, 64);
        dst[i] = i; /* distinct pairs */
    }
    uint32_t live = 0;
    for (uint32_t step = 0; step < 20000; step++) {
        uint32_t i = rng_below(&r, N);
        if (in[i]) {
            struct cc_pair *e = cc_pairs_find(&t, src[i], dst[i]);
            CHECK(e != NULL);
            if (!e)
                break;
            CHECK_EQ_U(e->out, i);
            cc_pairs_del(&t, e);
            in[i] = false;
            live--;
        } else {
            struct cc_pair *e = cc_pairs_get(&t, src[i], dst[i], 5);
            CHECK(e != NULL && e->win == 5 && e->out == 0);
            if (!e)
                break;
            e->out = i;
            in[i] = true;
            live++;
        }
        if (step % 997 == 0) /* everything still where it should be */
            for (uint32_t k = 0; k < N; k++) {
                const struct cc_pair *e = cc_pairs_find(&t, src[k], dst[k]);
                CHECK((e != NULL) == in[k]);
                if (e)
                    CHECK_EQ_U(e->out, k);
            }
    }
    CHECK_EQ_U(t.n, live);
    CHECK(t.cap >= 2 * t.n);
    cc_pairs_free(&t);
}

/* ---- a small Slingshot system --------------------------------------- */

struct ccx {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
};

static int ccx_setup(struct ccx *x, const struct cc_ops *cc)
{
    memset(x, 0, sizeof *x);
    diag_init(&x->d);
    if (topo_build_system(&x->t, "malbec", &x->d) != 0)
        return -1;
    if (sim_init(&x->s, EVQ_HEAP4, net_entities(&x->t)) != 0)
        return -1;
    struct net_params np;
    net_params_defaults(&np, &x->t);
    CHECK(np.cc == &cc_slingshot); /* the family's default */
    np.cc = cc;
    return net_init(&x->n, &x->t, &np, &x->s, 1, &x->d);
}

static void ccx_free(struct ccx *x)
{
    net_free(&x->n);
    sim_free(&x->s);
    topo_free(&x->t);
}

/* The k-th NIC of router r. */
static uint32_t nic_of(const struct topo *t, uint32_t r, uint32_t k)
{
    for (uint32_t c = 0; c < t->n_nics; c++)
        if (t->nics[c].router == r && k-- == 0)
            return c;
    return 0;
}

/* ---- the interface, driven by a toy controller ----------------------- */

struct toy {
    uint32_t held_dst;  /* this destination waits ... */
    simtime until;      /* ... until then */
    uint64_t sent, acked;
    simtime first_held_sent;
};
static struct toy toy;

static int toy_init(void **st, struct net *n, char *err, size_t len)
{
    (void)n, (void)err, (void)len;
    *st = &toy;
    return 0;
}
static void toy_free(void *st)
{
    (void)st;
}
static simtime toy_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    const struct toy *y = st;
    (void)src;
    return dst == y->held_dst && now < y->until ? y->until : now;
}
static void toy_sent(void *st, const struct packet *p, simtime now)
{
    struct toy *y = st;
    y->sent++;
    if (p->dst_nic == y->held_dst && y->first_held_sent == SIMTIME_MAX)
        y->first_held_sent = now;
}
static void toy_acked(void *st, const struct packet *p, simtime now)
{
    struct toy *y = st;
    (void)now;
    CHECK_EQ_U(p->cls, PKT_RSP);
    y->acked++;
}
static const struct cc_ops cc_toy = {
    .base = { "toy", "test" },
    .init = toy_init, .free = toy_free, .admit = toy_admit,
    .sent = toy_sent, .acked = toy_acked,
};

static simtime done_at[512];
static void on_done(void *ctx, uint32_t m, const struct message *msg,
                    simtime now)
{
    (void)ctx;
    (void)msg;
    if (m < 512)
        done_at[m] = now;
}

/* A message to a held-back destination, queued first, does not hold
 * back the one behind it to another destination; it goes when the
 * controller lets it; every request is reported sent and acked. */
static void test_interface(void)
{
    struct ccx x;
    toy = (struct toy){ .until = 20 * SIMTIME_US,
                        .first_held_sent = SIMTIME_MAX };
    if (ccx_setup(&x, &cc_toy) != 0) {
        CHECK(!"setup");
        return;
    }
    uint32_t a = nic_of(&x.t, 0, 0), b = nic_of(&x.t, 5, 0),
             c = nic_of(&x.t, 9, 1);
    toy.held_dst = b;
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    memset(done_at, 0, sizeof done_at);
    uint32_t m0 = net_send(&x.n, a, b, NET_PUT, 64 * 1024, 0, 0);
    uint32_t m1 = net_send(&x.n, a, c, NET_PUT, 64 * 1024, 0, 0);
    CHECK(m0 < 512 && m1 < 512);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    CHECK(done_at[m1] > 0 && done_at[m1] < toy.until);
    CHECK(toy.first_held_sent == toy.until);
    CHECK(done_at[m0] > toy.until);
    uint64_t pkts = 2 * ((64 * 1024 + x.n.p.max_payload - 1) /
                         x.n.p.max_payload);
    CHECK_EQ_U(toy.sent, pkts);
    CHECK_EQ_U(toy.acked, pkts);
    ccx_free(&x);
}

/* ---- Slingshot's control on an incast --------------------------------- */

struct incast_obs {
    uint32_t target, by_src, by_dst;
    uint64_t incast_marked, incast_reqs, by_marked;
    simtime first_mark_back; /* a marked response back at its source */
};
static struct incast_obs obs;

static void observe(void *ctx, const struct packet *p, simtime now)
{
    (void)ctx;
    if (p->cls == PKT_REQ) {
        bool by = p->src_nic == obs.by_src && p->dst_nic == obs.by_dst;
        if (by)
            obs.by_marked += (p->mark & PKT_MARK_ENDPOINT) != 0;
        else if (p->dst_nic == obs.target) {
            obs.incast_reqs++;
            obs.incast_marked += (p->mark & PKT_MARK_ENDPOINT) != 0;
        }
    } else if ((p->mark & PKT_MARK_ENDPOINT) &&
               obs.first_mark_back == SIMTIME_MAX) {
        obs.first_mark_back = now;
    }
}

enum { SOURCES = 24, ROUNDS = 16, BY_AT = 200 };

/* 24 sources on other switches PUT `rounds` x 64 KiB each to one node
 * (all queued at once); after BY_AT us, when the opening flood is past, a
 * bystander on one source's switch sends 4 KiB to the target's switch
 * neighbour (the same switches, another endpoint port). Returns the
 * bystander's time, us; the windows of the incast pairs and the
 * bystander's in win[]. */
static double incast(const struct cc_ops *cc, uint32_t rounds, uint32_t *win,
                     bool *ok)
{
    struct ccx x;
    *ok = false;
    if (ccx_setup(&x, cc) != 0)
        return 0;
    obs = (struct incast_obs){ .first_mark_back = SIMTIME_MAX };
    obs.target = nic_of(&x.t, 0, 0);
    uint32_t src[SOURCES];
    for (uint32_t i = 0; i < SOURCES; i++)
        src[i] = nic_of(&x.t, 2 + i, 0); /* switches 2..25: all groups */
    obs.by_src = nic_of(&x.t, 2, 1);
    obs.by_dst = nic_of(&x.t, 0, 1);
    x.n.hooks = (struct net_hooks){ .delivered = observe,
                                    .msg_done = on_done };
    memset(done_at, 0, sizeof done_at);
    for (uint32_t k = 0; k < rounds; k++)
        for (uint32_t i = 0; i < SOURCES; i++)
            net_send(&x.n, src[i], obs.target, NET_PUT, 64 * 1024, 0, 0);
    sim_run(&x.s, BY_AT * SIMTIME_US);
    simtime t0 = x.s.now;
    uint32_t m = net_send(&x.n, obs.by_src, obs.by_dst, NET_PUT, 4096, 0, 0);
    CHECK(m < 512);
    sim_run(&x.s, SIMTIME_MAX);
    *ok = net_check_drained(&x.n, &x.d) == 0 && m < 512 && done_at[m] > t0;
    for (uint32_t i = 0; i < SOURCES && x.n.cc_on; i++)
        win[i] = cc_slingshot_window(x.n.cc_st, src[i], obs.target);
    if (x.n.cc_on)
        win[SOURCES] = cc_slingshot_window(x.n.cc_st, obs.by_src,
                                           obs.by_dst);
    double us = m < 512 ? (double)(done_at[m] - t0) / SIMTIME_US : 0;
    ccx_free(&x);
    return us;
}

static void test_slingshot_incast(void)
{
    uint32_t win[SOURCES + 1] = { 0 };
    bool ok;
    double on = incast(&cc_slingshot, ROUNDS, win, &ok);
    CHECK(ok);
    struct incast_obs on_obs = obs;
    uint32_t wmax = 1024; /* the NIC's outstanding limit, the default */
    uint32_t cut = 0;
    for (uint32_t i = 0; i < SOURCES; i++)
        cut += win[i] < wmax / 8;
    CHECK_EQ_U(win[SOURCES], wmax); /* the bystander: untouched */
    uint32_t unused[SOURCES + 1];
    double off = incast(&cc_none, ROUNDS, unused, &ok);
    CHECK(ok);
    double alone = incast(&cc_slingshot, 0, unused, &ok);
    CHECK(ok);
    fprintf(stderr, "  incast of %d x %d x 64 KiB: %llu of %llu requests "
            "marked, first marked ack at %.2f us, %u of %d sources' "
            "windows cut below 1/8; bystander 4 KiB marked %llu times, "
            "done in %.2f us with control, %.2f us without, %.2f us "
            "alone\n",
            SOURCES, ROUNDS, (unsigned long long)on_obs.incast_marked,
            (unsigned long long)on_obs.incast_reqs,
            (double)on_obs.first_mark_back / SIMTIME_US, cut, SOURCES,
            (unsigned long long)on_obs.by_marked, on, off, alone);
    CHECK(on_obs.incast_marked > 0);
    CHECK_EQ_U(on_obs.by_marked, 0);
    CHECK(on_obs.first_mark_back < 10 * SIMTIME_US);
    CHECK_EQ_U(cut, SOURCES);
    CHECK(alone > 0 && on > alone && off > 10 * on);
}

const struct test_case tests_cc[] = {
    TEST(test_pairs),
    TEST(test_interface),
    TEST(test_slingshot_incast),
    { 0 },
};
