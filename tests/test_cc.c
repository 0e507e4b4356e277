/* tests/test_cc.c — congestion control at the NICs: the pair table
 * against a plain list, the controller interface driven by a toy
 * controller (a held-back pair does not block the NIC's other
 * destinations; every request is reported sent and acked), and
 * Slingshot's endpoint control on hand-built incasts of 24 and 192
 * sources: the incast's sources are marked and throttled within a few
 * round trips, a bystander stream through the same switches is neither,
 * and once the opening flood has drained it goes as fast as alone, where
 * without control (or with windows held at one packet, for 192 sources)
 * it waits behind the tree; the hot spot stays busy. */
#include "test.h"

#include "core/rng.h"
#include "core/sim.h"
#include "ctl/cc.h"
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
    /* every segment at most half full, the segments' counts the whole's,
     * and the pairs spread over them (3,000 pairs: none left at its
     * first 16 slots) */
    uint32_t sum = 0;
    for (uint32_t g = 0; g < CC_PAIR_SEGS; g++) {
        CHECK(t.seg[g].cap >= 2 * t.seg[g].n);
        CHECK(t.seg[g].cap > 16);
        sum += t.seg[g].n;
    }
    CHECK_EQ_U(sum, live);
    cc_pairs_free(&t);
}

/* ---- a small Slingshot system --------------------------------------- */

struct ccx {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
};

/* window_min > 0 overrides the control's least window. */
static int ccx_setup(struct ccx *x, const struct nic_ctl *cc,
                     double window_min)
{
    memset(x, 0, sizeof *x);
    diag_init(&x->d);
    if (topo_build_system(&x->t, "malbec", &x->d) != 0)
        return -1;
    if (sim_init(&x->s, EVQ_HEAP4, net_entities(&x->t)) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &x->t);
    CHECK(np.n_cc == 1 && np.cc[0] == &cc_slingshot); /* the family's */
    char err[128];
    CHECK(cc_set(&np, &x->t, &cc, 1, err, sizeof err) == 0);
    if (window_min > 0) {
        struct cc_slingshot_params *sp =
            net_part_block(&np, cc_slingshot.part, &x->t);
        sp->window_min = window_min;
    }
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

static int toy_init(void **st, struct net *n, const void *params,
                    struct nic_ctl_setup *setup, char *err, size_t len)
{
    (void)n, (void)params, (void)setup, (void)err, (void)len;
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
static const struct nic_ctl cc_toy = {
    .base = { "toy", "test" },
    .roles = NIC_CTL_RATE,
    .init = toy_init, .free = toy_free, .admit = toy_admit,
    .inject = toy_sent, .ack = toy_acked,
};

static simtime done_at[4096], last_done;
static void on_done(void *ctx, uint32_t m, const struct message *msg,
                    simtime now)
{
    (void)ctx;
    (void)msg;
    if (m < 4096)
        done_at[m] = now;
    if (now > last_done)
        last_done = now;
}

/* A message to a held-back destination, queued first, does not hold
 * back the one behind it to another destination; it goes when the
 * controller lets it; every request is reported sent and acked. */
static void test_interface(void)
{
    struct ccx x;
    toy = (struct toy){ .until = 20 * SIMTIME_US,
                        .first_held_sent = SIMTIME_MAX };
    if (ccx_setup(&x, &cc_toy, 0) != 0) {
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

/* ---- a stack of controllers ----------------------------------------- */

/* Two toys of one table, each with its own state: each holds one
 * destination back until its time, counts what it sees, ticks every
 * `period`, sleeps a poster until `sleep_until` and marks what it is asked
 * to (bit `mark_bit`) above its own level. */
struct toy2 {
    uint32_t held_dst;
    simtime until, period, sleep_until;
    uint32_t mark_above;
    uint8_t mark_bit;
    uint64_t sent, acked, ticks, marks_asked;
    simtime last_tick;
};
static struct toy2 toy2[2];
static uint32_t toy2_inits;

static int toy2_init(void **st, struct net *n, const void *params,
                     struct nic_ctl_setup *setup, char *err, size_t len)
{
    (void)n, (void)params, (void)err, (void)len;
    struct toy2 *y = &toy2[toy2_inits++ % 2];
    setup->period = y->period;
    setup->mark_above = y->mark_above;
    *st = y;
    return 0;
}
static simtime toy2_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    const struct toy2 *y = st;
    (void)src;
    return dst == y->held_dst && now < y->until ? y->until : now;
}
static void toy2_sent(void *st, const struct packet *p, simtime now)
{
    (void)p, (void)now;
    ((struct toy2 *)st)->sent++;
}
static void toy2_acked(void *st, const struct packet *p, simtime now)
{
    (void)p, (void)now;
    ((struct toy2 *)st)->acked++;
}
static void toy2_tick(void *st, simtime now)
{
    struct toy2 *y = st;
    CHECK(now == y->last_tick + y->period); /* each on its own period */
    y->last_tick = now;
    y->ticks++;
}
static simtime toy2_sleep(void *st, uint32_t nic, uint64_t bytes,
                          simtime now)
{
    (void)nic, (void)bytes;
    const struct toy2 *y = st;
    return y->sleep_until > now ? y->sleep_until : now;
}
static void toy2_mark(void *st, struct net *n, uint32_t router,
                      struct packet *p, uint32_t q)
{
    struct toy2 *y = st;
    (void)n, (void)router;
    y->marks_asked++;
    if (q > y->mark_above)
        p->mark |= y->mark_bit;
}
static const struct nic_ctl cc_toy2 = {
    .base = { "toy2", "test" },
    .roles = NIC_CTL_RATE,
    .init = toy2_init, .admit = toy2_admit, .inject = toy2_sent,
    .ack = toy2_acked, .tick = toy2_tick, .sleep = toy2_sleep,
    .mark = toy2_mark,
};
/* the same, as a second controller (a stack holds each once) */
static const struct nic_ctl cc_toy2b = {
    .base = { "toy2b", "test" },
    .roles = NIC_CTL_RATE,
    .init = toy2_init, .admit = toy2_admit, .inject = toy2_sent,
    .ack = toy2_acked, .tick = toy2_tick, .sleep = toy2_sleep,
    .mark = toy2_mark,
};

/* Two rate controllers on every NIC at once (net/nic_ctl.h): a message
 * goes when both admit it (each holds its own destination back), both
 * see every request and every ack, each ticks on its own period, a
 * poster sleeps until the later of their sleeps, and each marking hook is
 * asked above the lower of their levels and marks by its own. */
static void test_stack(void)
{
    struct ccx x;
    memset(toy2, 0, sizeof toy2);
    toy2_inits = 0;
    toy2[0] = (struct toy2){ .until = 15 * SIMTIME_US,
                             .period = 3 * SIMTIME_US,
                             .sleep_until = 7 * SIMTIME_US,
                             .mark_above = 0, .mark_bit = PKT_MARK_ECN };
    toy2[1] = (struct toy2){ .until = 25 * SIMTIME_US,
                             .period = 5 * SIMTIME_US,
                             .sleep_until = 9 * SIMTIME_US,
                             .mark_above = UINT32_MAX - 1,
                             .mark_bit = PKT_MARK_ENDPOINT };
    memset(&x, 0, sizeof x);
    diag_init(&x.d);
    if (topo_build_system(&x.t, "malbec", &x.d) != 0 ||
        sim_init(&x.s, EVQ_HEAP4, net_entities(&x.t)) != 0) {
        CHECK(!"setup");
        return;
    }
    struct net_params np;
    cc_net_defaults(&np, &x.t);
    const struct nic_ctl *both[2] = { &cc_toy2, &cc_toy2b };
    char err[128];
    CHECK(cc_set(&np, &x.t, both, 2, err, sizeof err) == 0);
    CHECK(net_init(&x.n, &x.t, &np, &x.s, 1, &x.d) == 0);
    CHECK_EQ_U(x.n.ctl.n, 2);
    CHECK(x.n.ctl.mark_above == 0);
    uint32_t a = nic_of(&x.t, 0, 0), b = nic_of(&x.t, 5, 0),
             c = nic_of(&x.t, 9, 1), e = nic_of(&x.t, 12, 0);
    toy2[0].held_dst = b;
    toy2[1].held_dst = c;
    CHECK(net_cc_sleep(&x.n, a, 64, 0) == 9 * SIMTIME_US);
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    memset(done_at, 0, sizeof done_at);
    uint32_t mb = net_send(&x.n, a, b, NET_PUT, 8192, 0, 0);
    uint32_t mc = net_send(&x.n, a, c, NET_PUT, 8192, 0, 0);
    uint32_t me = net_send(&x.n, a, e, NET_PUT, 8192, 0, 0);
    /* eight more sources to e, so that its port has a queue to mark */
    for (uint32_t k = 0; k < 8; k++)
        net_send(&x.n, nic_of(&x.t, 16 + k, 0), e, NET_PUT, 8192, 0, 0);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    CHECK(done_at[me] > 0 && done_at[me] < toy2[0].until);
    CHECK(done_at[mb] > toy2[0].until && done_at[mb] < toy2[1].until);
    CHECK(done_at[mc] > toy2[1].until);
    uint64_t pkts = 11 * 2; /* 8 KiB of 4 KiB packets, eleven messages */
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_U(toy2[k].sent, pkts);
        CHECK_EQ_U(toy2[k].acked, pkts);
        CHECK(toy2[k].ticks > 0);
        CHECK(toy2[k].marks_asked > 0);
        CHECK_EQ_U(toy2[0].marks_asked, toy2[1].marks_asked);
    }
    CHECK_EQ_U(toy2[0].ticks, toy2[0].last_tick / toy2[0].period);
    CHECK_EQ_U(toy2[1].ticks, toy2[1].last_tick / toy2[1].period);
    /* a list that cannot run together */
    const struct nic_ctl *bad[2] = { &cc_none, &cc_slingshot };
    CHECK(cc_set(&np, &x.t, bad, 2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "\"none\" cannot run beside");
    const struct nic_ctl *twice[2] = { &cc_slingshot, &cc_slingshot };
    CHECK(cc_set(&np, &x.t, twice, 2, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "listed twice");
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

enum { MAX_SOURCES = 192 };

/* An incast and when the bystander is sent: at flood_at the opening flood
 * still drains (each source injects at full rate until its first marked
 * ack is back, and no window takes back packets already sent), at
 * steady_at the control is in its steady state, the incast still
 * running. */
struct incast_case {
    uint32_t sources, rounds;
    simtime flood_at, steady_at;
};

struct incast_run {
    double flood_us, steady_us; /* the bystander's 4 KiB at each time */
    double incast_us;           /* the incast's last message done */
    uint32_t cut;               /* sources' windows below 1/8 of the
                                   largest at steady_at */
    double by_win;              /* the bystander pair's window, at the end */
};

/* c.sources sources on other switches PUT c.rounds x 64 KiB each to one
 * node (all queued at once; switches 2..25 of Malbec's 32, all four
 * groups, NICs 0 and 2..8); a bystander on one source's switch sends 4
 * KiB to the target's switch neighbour (the same switches, another
 * endpoint port) at c.flood_at and at c.steady_at. window_min > 0
 * overrides the control's least window. */
static bool incast(const struct nic_ctl *cc, double window_min,
                   struct incast_case c, struct incast_run *out)
{
    struct ccx x;
    memset(out, 0, sizeof *out);
    if (ccx_setup(&x, cc, window_min) != 0)
        return false;
    obs = (struct incast_obs){ .first_mark_back = SIMTIME_MAX };
    obs.target = nic_of(&x.t, 0, 0);
    uint32_t src[MAX_SOURCES];
    for (uint32_t i = 0; i < c.sources; i++)
        src[i] = nic_of(&x.t, 2 + i % 24, i < 24 ? 0 : 1 + i / 24);
    obs.by_src = nic_of(&x.t, 2, 1);
    obs.by_dst = nic_of(&x.t, 0, 1);
    x.n.hooks = (struct net_hooks){ .delivered = observe,
                                    .msg_done = on_done };
    memset(done_at, 0, sizeof done_at);
    for (uint32_t k = 0; k < c.rounds; k++)
        for (uint32_t i = 0; i < c.sources; i++)
            net_send(&x.n, src[i], obs.target, NET_PUT, 64 * 1024, 0, 0);
    simtime at[2] = { c.flood_at, c.steady_at }, incast_done = 0;
    uint32_t m[2];
    for (int b = 0; b < 2; b++) {
        last_done = 0;
        sim_run(&x.s, at[b]);
        at[b] = x.s.now; /* an empty network stops earlier */
        if (last_done > incast_done)
            incast_done = last_done;
        m[b] = net_send(&x.n, obs.by_src, obs.by_dst, NET_PUT, 4096, 0, 0);
        CHECK(m[b] < 4096);
        if (b == 1 && x.n.cc_on)
            for (uint32_t i = 0; i < c.sources; i++)
                out->cut += cc_slingshot_window(net_ctl_state(&x.n, &cc_slingshot), src[i],
                                                obs.target) <
                            x.n.p.max_outstanding / 8.0;
    }
    last_done = 0;
    sim_run(&x.s, SIMTIME_MAX);
    if (c.rounds && last_done > incast_done) /* the bystander ends sooner */
        incast_done = last_done;
    bool ok = net_check_drained(&x.n, &x.d) == 0 && m[0] < 4096 &&
              m[1] < 4096 && done_at[m[0]] > at[0] && done_at[m[1]] > at[1];
    if (ok) {
        out->flood_us = (double)(done_at[m[0]] - at[0]) / SIMTIME_US;
        out->steady_us = (double)(done_at[m[1]] - at[1]) / SIMTIME_US;
        out->incast_us = (double)incast_done / SIMTIME_US;
    }
    if (x.n.cc_on)
        out->by_win = cc_slingshot_window(net_ctl_state(&x.n, &cc_slingshot), obs.by_src, obs.by_dst);
    ccx_free(&x);
    return ok;
}

/* The incast's sources are marked and cut within a few round trips; the
 * bystander is never marked nor cut; once the opening flood has drained
 * it goes as fast as alone (SC'20 Figs. 9-10: victims <= ~1.5x on
 * Slingshot), where without control it waits behind the tree; the hot
 * spot stays busy (the incast ends at most 10 % later than without
 * control). Returns the bystander's steady time with windows held at one
 * packet or more (no pacing), us. */
static double slingshot_incast(struct incast_case c)
{
    struct incast_run on, off, alone, one;
    CHECK(incast(&cc_slingshot, 0, c, &on));
    struct incast_obs on_obs = obs;
    CHECK(incast(&cc_none, 0, c, &off));
    CHECK(incast(&cc_slingshot, 0,
                 (struct incast_case){ 0, 0, c.flood_at, c.steady_at },
                 &alone));
    CHECK(incast(&cc_slingshot, 1.0, c, &one));
    fprintf(stderr, "  incast of %u x %u x 64 KiB: %llu of %llu requests "
            "marked, first marked ack at %.2f us, %u sources' windows "
            "below 1/8 at %.0f us; bystander 4 KiB (marked %llu times) "
            "alone %.2f us; at %.0f / %.0f us: %.2f / %.2f us with "
            "control, %.2f / %.2f without, %.2f / %.2f with windows of "
            "at least one packet; incast done at %.0f us with control, "
            "%.0f without\n",
            c.sources, c.rounds, (unsigned long long)on_obs.incast_marked,
            (unsigned long long)on_obs.incast_reqs,
            (double)on_obs.first_mark_back / SIMTIME_US, on.cut,
            (double)c.steady_at / SIMTIME_US,
            (unsigned long long)on_obs.by_marked, alone.steady_us,
            (double)c.flood_at / SIMTIME_US,
            (double)c.steady_at / SIMTIME_US, on.flood_us, on.steady_us,
            off.flood_us, off.steady_us, one.flood_us, one.steady_us,
            on.incast_us, off.incast_us);
    CHECK(on_obs.incast_marked > 0);
    CHECK_EQ_U(on_obs.by_marked, 0);
    CHECK(on_obs.first_mark_back < 10 * SIMTIME_US);
    CHECK_EQ_U(on.cut, c.sources);
    CHECK(on.by_win == 1024); /* the NIC's outstanding limit: untouched */
    CHECK(alone.steady_us > 0 && on.steady_us <= 1.5 * alone.steady_us);
    CHECK(off.steady_us > 10 * on.steady_us);
    CHECK(on.incast_us > 0 && on.incast_us <= 1.1 * off.incast_us);
    return one.steady_us / on.steady_us;
}

/* 24 sources (Malbec's sources on 24 switches; ~2 ms of incast) and 192
 * (eight per switch; ~8 ms): the second needs windows below one packet —
 * held at one, 192 packets wait at the hot spot and spill into the
 * input buffers the bystander shares. */
static void test_slingshot_incast(void)
{
    slingshot_incast((struct incast_case){ 24, 16, 200 * SIMTIME_US,
                                           1000 * SIMTIME_US });
    double unpaced = slingshot_incast((struct incast_case){
        192, 8, 200 * SIMTIME_US, 4000 * SIMTIME_US });
    CHECK(unpaced > 5);
}

/* A GET incast: one NIC pulls 8 x 64 KiB from each of 24 NICs on other
 * switches, so the data — the responses — converge on its own port. The
 * switch marks them there; the puller, the pairs' source, cuts its
 * windows towards every target; every message arrives. */
static uint64_t get_rsp_marked, get_rsp;
static uint32_t get_puller;
static void observe_get(void *ctx, const struct packet *p, simtime now)
{
    (void)ctx, (void)now;
    if (p->cls == PKT_RSP && p->dst_nic == get_puller) {
        get_rsp++;
        get_rsp_marked += (p->mark & PKT_MARK_ENDPOINT) != 0;
    }
}

static void test_slingshot_get_incast(void)
{
    struct ccx x;
    if (ccx_setup(&x, &cc_slingshot, 0) != 0) {
        CHECK(!"setup");
        return;
    }
    get_puller = nic_of(&x.t, 0, 0);
    get_rsp = get_rsp_marked = 0;
    x.n.hooks = (struct net_hooks){ .delivered = observe_get };
    uint32_t tgt[24];
    for (uint32_t i = 0; i < 24; i++)
        tgt[i] = nic_of(&x.t, 2 + i, 0);
    for (int k = 0; k < 8; k++)
        for (uint32_t i = 0; i < 24; i++)
            net_send(&x.n, get_puller, tgt[i], NET_GET, 64 * 1024, 0, 0);
    sim_run(&x.s, 400 * SIMTIME_US);
    uint32_t cut = 0;
    for (uint32_t i = 0; i < 24; i++)
        cut += cc_slingshot_window(net_ctl_state(&x.n, &cc_slingshot), get_puller, tgt[i]) <
               x.n.p.max_outstanding / 8.0;
    sim_run(&x.s, SIMTIME_MAX);
    fprintf(stderr, "  GET incast 24 x 8 x 64 KiB: %llu of %llu responses "
            "marked at the puller's port; %u of 24 pairs cut below 1/8 at "
            "400 us\n", (unsigned long long)get_rsp_marked,
            (unsigned long long)get_rsp, cut);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    CHECK(get_rsp_marked > 0);
    CHECK_EQ_U(cut, 24);
    ccx_free(&x);
}

const struct test_case tests_cc[] = {
    TEST(test_slingshot_get_incast),
    TEST(test_pairs),
    TEST(test_interface),
    TEST(test_stack),
    TEST(test_slingshot_incast),
    { 0 },
};
