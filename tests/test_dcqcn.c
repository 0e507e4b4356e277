/* tests/test_dcqcn.c — DCQCN (ctl/dcqcn.c): RED's marking probability
 * by hand, the reaction point's rate steps on hand-made notifications
 * (cut, at most one per CNP interval, fast recovery, additive increase,
 * the byte counter, alpha's decay), and an incast on Malbec: the
 * incast's sources are marked and slowed, a pair far from it is not,
 * and every message arrives; thresholds out of order are refused. */
#include "test.h"

#include <math.h>
#include <unistd.h>

#include "core/sim.h"
#include "ctl/cc.h"
#include "net/net.h"
#include "mpi_util.h"
#include "topo/topo.h"

static void test_ecn_probability(void)
{
    struct cc_dcqcn_params p = { .ecn_kmin = 5120, .ecn_kmax = 102400,
                                 .ecn_pmax = 0.01 };
    CHECK(cc_ecn_probability(&p, 0) == 0);
    CHECK(cc_ecn_probability(&p, 5120) == 0);
    CHECK(cc_ecn_probability(&p, 5121) > 0);
    CHECK(fabs(cc_ecn_probability(&p, 53760) - 0.005) < 1e-12);
    CHECK(fabs(cc_ecn_probability(&p, 102400) - 0.01) < 1e-12);
    CHECK(cc_ecn_probability(&p, 102401) == 1);
}

/* The network's one rate controller ctx (none for cc_none). */
static void tune_cc(struct net_params *np, void *ctx)
{
    const struct nic_ctl *c = ctx;
    np->cc[0] = c;
    np->n_cc = c != &cc_none;
}

/* Built-in `system` with controller cc (mpi_util.h). */
static int dx_setup(struct mpi_h *x, const char *system,
                    const struct nic_ctl *cc)
{
    return mpi_h_setup_tuned(x, system, tune_cc, (void *)cc);
}

/* The response of a request from src to dst, seen back at src. */
static struct packet ack(uint32_t src, uint32_t dst, bool marked)
{
    return (struct packet){ .cls = PKT_RSP, .src_nic = dst, .dst_nic = src,
                            .mark = marked ? PKT_MARK_ECN : 0 };
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

/* Zhu et al. Algorithm 1, step by step, against values computed here by
 * hand from the defaults (g = 1/256, CNP interval 50 us, alpha interval
 * 55 us, timer 60 us, F = 5, R_AI 40 Mb/s, byte counter 300,000 B). */
static void test_dcqcn_rate_steps(void)
{
    struct mpi_h x;
    if (dx_setup(&x, "malbec", &cc_dcqcn) != 0) {
        CHECK(!"setup");
        return;
    }
    const struct nic_ctl *cc = &cc_dcqcn;
    void *st = net_ctl_state(&x.n, cc);
    const double g = 1.0 / 256, rai = 0.04e9 / 8 / 1e12;
    double L = cc_dcqcn_rate(st, 3, 4); /* not throttled: the line */
    /* Malbec's NIC link, 100 Gb/s, is 0.0125 bytes per ps, of which a
     * full packet's 4,096 bytes of data in 4,158 (62 of headers) are the
     * line the rates are in (payload bytes, as the pacing counts them) */
    CHECK(near(L, 0.0125 * 4096 / 4158));
    simtime t0 = 10 * SIMTIME_US;
    struct packet a = ack(3, 4, true), u = ack(3, 4, false);
    cc->ack(st, &u, t0); /* unmarked, unknown pair: nothing */
    CHECK(cc_dcqcn_rate(st, 3, 4) == L);
    cc->ack(st, &a, t0); /* first CNP: alpha 1 -> R_C = L / 2 */
    CHECK(near(cc_dcqcn_rate(st, 3, 4), L / 2));
    CHECK(cc_dcqcn_rate(st, 4, 3) == L); /* the other direction: not */
    cc->ack(st, &a, t0 + 10 * SIMTIME_US); /* within 50 us: ignored */
    CHECK(near(cc_dcqcn_rate(st, 3, 4), L / 2));
    /* 50 us later: alpha = (1 - g) 1 + g = 1 still -> R_C halves again,
     * R_T = L / 2 */
    simtime t1 = t0 + 50 * SIMTIME_US;
    cc->ack(st, &a, t1);
    double rt = L / 2, rc = L / 4;
    CHECK(near(cc_dcqcn_rate(st, 3, 4), rc));
    /* the timer expires every 60 us from t1: four stages of fast
     * recovery, then (both counts no longer below F = 5) additive
     * increase */
    for (int k = 1; k <= 6; k++) {
        cc->ack(st, &u, t1 + (simtime)k * 60 * SIMTIME_US);
        if (k >= 5)
            rt += rai;
        rc = (rt + rc) / 2;
        CHECK(near(cc_dcqcn_rate(st, 3, 4), rc));
    }
    /* a CNP at t2 cuts by alpha / 2, alpha having decayed once per 55 us
     * since t1: 6 x 60 = 360 us -> 6 decays (55 .. 330 us) */
    simtime t2 = t1 + 360 * SIMTIME_US + 1;
    double alpha = pow(1 - g, 6);
    cc->ack(st, &a, t2);
    rc *= 1 - alpha / 2;
    CHECK(near(cc_dcqcn_rate(st, 3, 4), rc));
    struct dcqcn_stats s = cc_dcqcn_stats(st);
    CHECK_EQ_U(s.cnps, 3);
    CHECK_EQ_U(s.fast_recovery, 4);
    CHECK_EQ_U(s.additive_increase, 2);
    /* the byte counter: 300,000 bytes sent is one more stage (fast
     * recovery again: the counts restarted at the CNP) */
    struct packet req = { .cls = PKT_REQ, .src_nic = 3, .dst_nic = 4,
                          .payload = 4000 };
    double before = cc_dcqcn_rate(st, 3, 4);
    for (int k = 0; k < 74; k++) /* 296,000 bytes */
        cc->inject(st, &req, t2);
    CHECK(cc_dcqcn_rate(st, 3, 4) == before);
    cc->inject(st, &req, t2); /* 300,000 */
    CHECK(near(cc_dcqcn_rate(st, 3, 4), (before + rc / (1 - alpha / 2)) / 2));
    /* pacing: the pair's next packet may go only after the bytes already
     * sent at its rate */
    CHECK(cc->admit(st, 3, 4, t2) > t2);
    CHECK(cc->admit(st, 3, 5, t2) == t2);
    mpi_h_teardown(&x);
}

static simtime last_done;
static uint64_t marked_reqs[2], reqs[2]; /* [0] incast, [1] far pair */
static uint32_t incast_dst, far_src, far_dst;

static void on_done(void *ctx, uint32_t m, const struct message *msg,
                    simtime now)
{
    (void)ctx, (void)m, (void)msg;
    if (now > last_done)
        last_done = now;
}

static void observe(void *ctx, const struct packet *p, simtime now)
{
    (void)ctx, (void)now;
    if (p->cls != PKT_REQ)
        return;
    int k = p->dst_nic == incast_dst ? 0
            : p->src_nic == far_src && p->dst_nic == far_dst ? 1 : -1;
    if (k < 0)
        return;
    reqs[k]++;
    marked_reqs[k] += (p->mark & PKT_MARK_ECN) != 0;
}

/* The k-th NIC of router r. */
static uint32_t nic_of(const struct topo *t, uint32_t r, uint32_t k)
{
    for (uint32_t c = 0; c < t->n_nics; c++)
        if (t->nics[c].router == r && k-- == 0)
            return c;
    return 0;
}

/* 16 sources on 16 switches PUT 8 x 64 KiB each to one node of switch 0;
 * a pair in another group (switches 25 -> 26) sends 8 x 64 KiB beside.
 * Returns when the last message arrived, us; *cut: sources whose rate is
 * below half the line when the incast is half done. */
static double incast(const struct nic_ctl *cc, uint32_t *cut,
                     struct dcqcn_stats *stats)
{
    struct mpi_h x;
    if (dx_setup(&x, "malbec", cc) != 0)
        return -1;
    incast_dst = nic_of(&x.t, 0, 0);
    far_src = nic_of(&x.t, 25, 0);
    far_dst = nic_of(&x.t, 26, 0);
    memset(marked_reqs, 0, sizeof marked_reqs);
    memset(reqs, 0, sizeof reqs);
    last_done = 0;
    x.n.hooks = (struct net_hooks){ .delivered = observe,
                                    .msg_done = on_done };
    uint32_t src[16];
    for (uint32_t i = 0; i < 16; i++)
        src[i] = nic_of(&x.t, 1 + i, 1);
    for (int k = 0; k < 8; k++) {
        for (uint32_t i = 0; i < 16; i++)
            net_send(&x.n, src[i], incast_dst, NET_PUT, 64 * 1024, 0, 0);
        net_send(&x.n, far_src, far_dst, NET_PUT, 64 * 1024, 0, 0);
    }
    /* 16 x 512 KiB through a 12.5 GB/s port: about 670 us */
    sim_run(&x.s, 335 * SIMTIME_US);
    *cut = 0;
    void *dst = net_ctl_state(&x.n, &cc_dcqcn);
    if (dst) {
        double line = cc_dcqcn_rate(dst, far_src, far_dst);
        for (uint32_t i = 0; i < 16; i++)
            *cut += cc_dcqcn_rate(dst, src[i], incast_dst) < line / 2;
        *stats = cc_dcqcn_stats(dst);
    }
    sim_run(&x.s, SIMTIME_MAX);
    bool ok = net_check_drained(&x.n, &x.d) == 0;
    mpi_h_teardown(&x);
    return ok ? (double)last_done / SIMTIME_US : -1;
}

static void test_dcqcn_incast(void)
{
    uint32_t cut = 0, cut_none = 0;
    struct dcqcn_stats s = { 0 }, s_none = { 0 };
    double t_none = incast(&cc_none, &cut_none, &s_none);
    uint64_t far_none = reqs[1];
    double t = incast(&cc_dcqcn, &cut, &s);
    fprintf(stderr, "  dcqcn incast 16 x 8 x 64 KiB on malbec: done at %.0f "
            "us (none: %.0f); %llu of %llu incast requests marked, far "
            "pair %llu of %llu; %u of 16 sources below half the line at "
            "335 us; %llu CNPs, %llu fast recovery, %llu additive, %llu "
            "hyper\n",
            t, t_none, (unsigned long long)marked_reqs[0],
            (unsigned long long)reqs[0], (unsigned long long)marked_reqs[1],
            (unsigned long long)reqs[1], cut, (unsigned long long)s.cnps,
            (unsigned long long)s.fast_recovery,
            (unsigned long long)s.additive_increase,
            (unsigned long long)s.hyper_increase);
    CHECK(t > 0 && t_none > 0);
    CHECK_EQ_U(reqs[1], far_none); /* every far request arrived */
    CHECK(marked_reqs[0] > 0);
    CHECK_EQ_U(marked_reqs[1], 0);
    CHECK(s.cnps >= 16);
    CHECK_EQ_U(cut, 16);
    /* No bound on the incast's time: DCQCN's feedback comes through the
     * queue it measures (the opening flood, ~500 us here, is marked
     * throughout), so the sources are cut well below the port's rate
     * (to 0.17 of it in sum by 500 us) and recover by 40 Mb/s steps —
     * the over-throttling behind Netscope's Table 4 (DCQCN's traffic the
     * lowest). It still must not lose anything, nor be faster than the
     * root's port allows. */
    CHECK(t >= t_none * 0.99);
}

/* Thresholds out of order are an error at their line; a DCQCN key is
 * accepted on a system that defaults to another controller. */
static void test_dcqcn_config(void)
{
    static char out[1 << 14], err[1 << 14];
    const char *bad = write_temp("dcqcn-bad.cfg",
        "experiment = { name = \"dcqcn-bad\"; };\n"
        "system = { name = \"malbec\"; };\n"
        "network = { congestion_control = \"dcqcn\";\n"
        "  cc_ecn_kmin = 4000;\n"
        "  cc_ecn_kmax = 4000; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1]; "
        "measure_us = 1.0; };\n");
    CHECK(bad != NULL);
    if (!bad)
        return;
    const char *argv[] = { "run", bad, "-o", "/tmp/dfsim-dcqcn-bad", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK(strstr(err, ":5: error: network.cc_ecn_kmax") != NULL);
    CHECK(strstr(err, "not above cc_ecn_kmin") != NULL);
    unlink(bad);
    rm_dir("/tmp/dfsim-dcqcn-bad");
}

const struct test_case tests_dcqcn[] = {
    TEST(test_dcqcn_config),
    TEST(test_ecn_probability),
    TEST(test_dcqcn_rate_steps),
    TEST(test_dcqcn_incast),
    { 0 },
};
