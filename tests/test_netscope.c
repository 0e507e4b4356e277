/* tests/test_netscope.c — Netscope's rate control (net/cc_netscope.c):
 * Eqs. 14-15 on hand-computed signals, delay injection's mean rate on a
 * quiet network, and the controller on an incast: the incast's sources
 * stall and are slowed, a NIC that only receives keeps its line rate,
 * and a delay-sensitive NIC is cut less than an insensitive one under
 * the same signal, unless the controller is ICS'21's DCQCN baseline
 * (dcqcn-stall); and Cray's congestion protection, the baseline. */
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/sim.h"
#include "net/cc.h"
#include "net/net.h"
#include "mpi_util.h"
#include "topo/topo.h"

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fabs(b);
}

#define STALLED NETSCOPE_CUT_STALLED

static void test_netscope_update(void)
{
    /* alpha 0.5, a window stalled 20 %, g = 1/16:
     * alpha' = 15/16 x 0.5 + 0.2 / 16 = 0.48125;
     * MILC (c_a 6.67): R' = R (1 - 0.48125 / 8.67) */
    double a, r = 1.0;
    cc_netscope_update(0.5, 0.2, 6.67, 1.0 / 16, 0.01, 0.001, 1.0,
                       STALLED, &a, &r);
    CHECK(near(a, 0.48125));
    CHECK(near(r, 1 - 0.48125 / 8.67));
    /* the same for AMG (c_a 0): cut by alpha / 2 — more */
    double r0 = 1.0;
    cc_netscope_update(0.5, 0.2, 0, 1.0 / 16, 0.01, 0.001, 1.0,
                       STALLED, &a, &r0);
    CHECK(near(r0, 1 - 0.48125 / 2));
    CHECK(r0 < r);
    /* a window without stalls: alpha decays, the rate rises by the step */
    r = 0.5;
    cc_netscope_update(0.5, 0, 0, 1.0 / 16, 0.01, 0.001, 1.0, STALLED, &a, &r);
    CHECK(near(a, 0.46875));
    CHECK(near(r, 0.51));
    /* kept within [floor, line] */
    r = 0.999;
    cc_netscope_update(0, 0, 0, 1.0 / 16, 0.01, 0.001, 1.0, STALLED, &a, &r);
    CHECK(r == 1.0);
    r = 0.0011;
    cc_netscope_update(1, 1, 0, 1.0 / 16, 0.01, 0.001, 1.0, STALLED, &a, &r);
    CHECK(r == 0.001);
}

/* Eq. 15 as printed (`netscope_cut = "while-alpha"`): a window without
 * stalls still cuts while alpha > 0, so after one stalled window the
 * rate only falls, by factors that shrink as alpha decays; a NIC that
 * never stalled (alpha 0) rises by the step. */
static void test_netscope_update_while_alpha(void)
{
    const int A = NETSCOPE_CUT_ALPHA;
    double a = 0, r = 1.0;
    /* one window stalled 20 %: alpha 0.2 / 16 = 0.0125, cut by a / 2 */
    cc_netscope_update(0, 0.2, 0, 1.0 / 16, 0.01, 0.001, 1.0, A, &a, &r);
    CHECK(near(a, 0.0125));
    CHECK(near(r, 1 - 0.0125 / 2));
    /* then quiet windows: alpha 15/16 of the last, the rate cut again */
    double want = r;
    for (int k = 0; k < 3; k++) {
        double before = a;
        cc_netscope_update(a, 0, 0, 1.0 / 16, 0.01, 0.001, 1.0, A, &a, &r);
        CHECK(near(a, before * 15 / 16));
        want *= 1 - a / 2;
        CHECK(near(r, want));
    }
    /* the stalled-window rule raises it in the same quiet window */
    double r2 = want;
    double a2;
    cc_netscope_update(a, 0, 0, 1.0 / 16, 0.01, 0.001, 1.0, STALLED, &a2, &r2);
    CHECK(near(r2, want + 0.01));
    /* alpha 0 (no stall yet): the step, under either rule */
    r = 0.5;
    cc_netscope_update(0, 0, 0, 1.0 / 16, 0.01, 0.001, 1.0, A, &a, &r);
    CHECK(a == 0 && near(r, 0.51));
    /* the names a file gives */
    CHECK(cc_netscope_cut_find("stalled-window") == NETSCOPE_CUT_STALLED);
    CHECK(cc_netscope_cut_find("while-alpha") == NETSCOPE_CUT_ALPHA);
    CHECK(cc_netscope_cut_find("alpha") == -1);
}

struct nx_tune {
    const struct cc_ops *cc;
    double ca, cray_min_us;
    double slack_us; /* < 0: the default sleep slack */
};

static void nx_tune(struct net_params *np, void *ctx)
{
    const struct nx_tune *u = ctx;
    np->cc = u->cc;
    np->ccp.netscope_sensitivity = u->ca;
    if (u->cray_min_us > 0)
        np->ccp.cray_min_us = u->cray_min_us;
    if (u->slack_us >= 0)
        np->ccp.netscope_sleep_slack_us = u->slack_us;
    CHECK(!np->counters); /* netscope and cray turn them on */
}

/* Voltrino with controller cc, every NIC's c_a, (cray_min_us > 0) the
 * least length of a Cray throttle and (slack_us >= 0) the sleeps' slack
 * (mpi_util.h). */
static int nx_setup_all(struct mpi_h *x, const struct cc_ops *cc, double ca,
                        double cray_min_us, double slack_us)
{
    struct nx_tune u = { cc, ca, cray_min_us, slack_us };
    return mpi_h_setup_tuned(x, "voltrino", nx_tune, &u);
}

static int nx_setup_min(struct mpi_h *x, const struct cc_ops *cc, double ca,
                        double cray_min_us)
{
    return nx_setup_all(x, cc, ca, cray_min_us, -1);
}

static int nx_setup(struct mpi_h *x, const struct cc_ops *cc, double ca)
{
    return nx_setup_min(x, cc, ca, 0);
}

static simtime last_done;
static void on_done(void *ctx, uint32_t m, const struct message *msg,
                    simtime now)
{
    (void)ctx, (void)m, (void)msg;
    if (now > last_done)
        last_done = now;
}

/* A NIC held at `share` of its line rate, its sleeps `slack_us` late,
 * sends 400 messages of 4 KiB (queued at once) to a NIC of another
 * router of a quiet network; the rate they left at, as a share of the
 * line, and the controller's counts. */
enum { DI_MSGS = 400, DI_BYTES = 4096 };

static double delay_run(double share, double slack_us,
                        struct netscope_stats *st, double *line_us)
{
    struct mpi_h x;
    if (nx_setup_all(&x, &cc_netscope, 0, 0, slack_us) != 0) {
        CHECK(!"setup");
        return -1;
    }
    CHECK(x.n.p.counters);
    double line = cc_nic_line_rate(&x.n);
    *line_us = DI_BYTES / line / SIMTIME_US;
    uint32_t a = 0, b = x.t.n_nics - 1;
    CHECK(x.t.nics[a].router != x.t.nics[b].router);
    cc_netscope_set_rate(x.n.cc_st, a, line * share);
    /* no ticks: the rate stays where it was set */
    x.n.cc_next_tick = SIMTIME_MAX;
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    last_done = 0;
    for (int k = 0; k < DI_MSGS; k++)
        net_send(&x.n, a, b, NET_PUT, DI_BYTES, 0, 0);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    *st = cc_netscope_stats(x.n.cc_st);
    mpi_h_teardown(&x);
    return (double)DI_MSGS * DI_BYTES / (double)last_done / line;
}

/* Held at a quarter of the line, without the sleeps' slack, the
 * messages leave at the quarter on average (the sub-microsecond part of
 * each wait drawn as a whole microsecond with that probability), where
 * without the hold they go at the line. */
static void test_netscope_delay_injection(void)
{
    struct netscope_stats s;
    double line_us;
    double share = delay_run(0.25, 0, &s, &line_us);
    fprintf(stderr, "  netscope delay injection: %.4f of the line (target "
            "0.25), %llu of %d messages delayed, mean wait %.3f us\n",
            share, (unsigned long long)s.delays, DI_MSGS,
            (double)s.delay_time / (double)DI_MSGS / SIMTIME_US);
    CHECK(fabs(share - 0.25) < 0.25 * 0.05);
    /* 4096 B at a quarter: 3 x 4096 / line of wait, 1.x us: every
     * message waits at least 1 us, some 2 */
    CHECK_EQ_U(s.delays, DI_MSGS);
}

/* Held at 0.9 of the line, each wait is 1/9 of a message's time at the
 * line (0.78 us on Voltrino's NIC link): a 1 us sleep with probability
 * 0.087. With Linux's default timer slack each sleep lasts 1 + 50 us, so
 * the NIC sends at 0.78 us a message plus 51 us per sleep — about a
 * sixth of the line, not 0.9 — and the time is that: every sleep
 * counted at 51 us, the run as long as the messages and the sleeps. */
static void test_netscope_sleep_slack(void)
{
    struct netscope_stats s0, s50;
    double line_us;
    double share0 = delay_run(0.9, 0, &s0, &line_us);
    double share50 = delay_run(0.9, 50, &s50, &line_us);
    fprintf(stderr, "  netscope sleep slack, rate 0.9 of the line: %.3f "
            "of the line without slack (%llu sleeps), %.3f with 50 us "
            "(%llu sleeps; a message %.3f us at the line)\n",
            share0, (unsigned long long)s0.delays, share50,
            (unsigned long long)s50.delays, line_us);
    CHECK(fabs(share0 - 0.9) < 0.9 * 0.05);
    /* 400 draws at p = 0.087: 35 expected, sd 5.6 */
    CHECK(s50.delays >= 15 && s50.delays <= 55);
    CHECK_EQ_U(s50.delay_time, s50.delays * 51 * SIMTIME_US);
    double busy_us = DI_MSGS * line_us +
                     (double)s50.delay_time / SIMTIME_US;
    double expect = DI_MSGS * line_us / busy_us;
    CHECK(fabs(share50 - expect) < expect * 0.05);
    CHECK(share50 < 0.3);
}

/* 12 NICs of other routers PUT 16 x 64 KiB each to one NIC: its port
 * backs the network up into the sources, whose requests stall; each
 * window with stalls cuts their rate. */
static void incast(const struct cc_ops *cc, double ca, double *mean_rate,
                   double *dst_rate, struct netscope_stats *st,
                   double *done_us)
{
    struct mpi_h x;
    *mean_rate = *dst_rate = *done_us = -1;
    if (nx_setup(&x, cc, ca) != 0)
        return;
    double line = cc_nic_line_rate(&x.n);
    uint32_t dst = 0, src[12], k = 0;
    for (uint32_t c = 0; c < x.t.n_nics && k < 12; c++)
        if (x.t.nics[c].router != x.t.nics[dst].router)
            src[k++] = c;
    CHECK_EQ_U(k, 12);
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    last_done = 0;
    for (int r = 0; r < 16; r++)
        for (uint32_t i = 0; i < k; i++)
            net_send(&x.n, src[i], dst, NET_PUT, 64 * 1024, 0, 0);
    sim_run(&x.s, 300 * SIMTIME_US);
    double sum = 0;
    for (uint32_t i = 0; i < k; i++)
        sum += cc_netscope_rate(x.n.cc_st, src[i]);
    *mean_rate = sum / k / line;
    *dst_rate = cc_netscope_rate(x.n.cc_st, dst) / line;
    *st = cc_netscope_stats(x.n.cc_st);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    *done_us = (double)last_done / SIMTIME_US;
    mpi_h_teardown(&x);
}

static void test_netscope_incast(void)
{
    double m0, d0, t0, m7, d7, t7, mf, df, tf;
    struct netscope_stats s0, s7, sf;
    incast(&cc_netscope, 0, &m0, &d0, &s0, &t0);
    incast(&cc_netscope, 6.67, &m7, &d7, &s7, &t7);
    /* ICS'21's DCQCN baseline cuts every application alike: the file's
     * c_a of 6.67 changes nothing */
    incast(&cc_dcqcn_stall, 6.67, &mf, &df, &sf, &tf);
    CHECK(mf == m0 && tf == t0 && sf.decreases == s0.decreases);
    fprintf(stderr, "  netscope incast 12 x 16 x 64 KiB on voltrino: at "
            "300 us the sources' mean rate %.3f of the line with c_a 0, "
            "%.3f with c_a 6.67 (the receiver: %.3f, %.3f); %llu / %llu "
            "NIC-windows cut, %llu / %llu messages delayed; done at %.0f "
            "/ %.0f us\n",
            m0, m7, d0, d7, (unsigned long long)s0.decreases,
            (unsigned long long)s7.decreases,
            (unsigned long long)s0.delays, (unsigned long long)s7.delays,
            t0, t7);
    CHECK(s0.windows >= 14); /* 20 us windows, taken lazily */
    CHECK(s0.decreases > 0);
    CHECK(m0 > 0 && m0 < 0.5); /* slowed */
    CHECK(d0 == 1.0);          /* the receiver never stalls sending */
    CHECK(m7 > m0);            /* a sensitive application is cut less */
    CHECK(t0 > 0 && t7 > 0);
}

/* Cray's congestion protection (cc_cray.c): a quiet stream never starts
 * it; an incast starts it within a few periods; 500 us into a throttle
 * (held at least 1 ms here), when the requests sent before it started
 * have been answered, no NIC has more than one request outstanding;
 * every message still arrives. */
static void test_cray_throttle(void)
{
    struct mpi_h x;
    if (nx_setup(&x, &cc_cray, 0) != 0) {
        CHECK(!"setup");
        return;
    }
    CHECK(x.n.p.counters);
    /* one stream between two routers: nothing stalls */
    for (int k = 0; k < 16; k++)
        net_send(&x.n, 0, x.t.n_nics - 1, NET_PUT, 64 * 1024, 0, 0);
    sim_run(&x.s, SIMTIME_MAX);
    struct cray_stats quiet = cc_cray_stats(x.n.cc_st);
    CHECK(quiet.periods > 0);
    CHECK_EQ_U(quiet.starts, 0);
    mpi_h_teardown(&x);

    if (nx_setup_min(&x, &cc_cray, 0, 1000) != 0) {
        CHECK(!"setup");
        return;
    }
    uint32_t dst = 0;
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    last_done = 0;
    for (int r = 0; r < 16; r++) {
        uint32_t k = 0;
        for (uint32_t c = 0; c < x.t.n_nics && k < 12; c++)
            if (x.t.nics[c].router != x.t.nics[dst].router) {
                net_send(&x.n, c, dst, NET_PUT, 64 * 1024, 0, 0);
                k++;
            }
    }
    /* look every 10 us */
    simtime on_since = SIMTIME_MAX, first_on = SIMTIME_MAX;
    uint32_t max_out = 0, looks = 0;
    for (simtime t = 10 * SIMTIME_US; evq_size(&x.s.q) > 0;
         t += 10 * SIMTIME_US) {
        sim_run(&x.s, t);
        if (!cc_cray_throttling(x.n.cc_st)) {
            on_since = SIMTIME_MAX;
            continue;
        }
        if (on_since == SIMTIME_MAX)
            on_since = t;
        if (first_on == SIMTIME_MAX)
            first_on = t;
        if (t - on_since < 500 * SIMTIME_US)
            continue;
        looks++;
        for (uint32_t c = 0; c < x.t.n_nics; c++) {
            uint32_t o = net_nic_outstanding(&x.n, c);
            if (o > max_out)
                max_out = o;
        }
    }
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    struct cray_stats s = cc_cray_stats(x.n.cc_st);
    fprintf(stderr, "  cray congestion protection, incast 12 x 16 x 64 KiB "
            "on voltrino: first throttle at %.0f us, %llu start(s), "
            "throttled %llu of %llu periods, at most %u outstanding in "
            "%u looks 500 us into a throttle (throttles of at least 1 "
            "ms); done at %.0f us\n",
            (double)first_on / SIMTIME_US, (unsigned long long)s.starts,
            (unsigned long long)s.throttled_periods,
            (unsigned long long)s.periods, max_out, looks,
            (double)last_done / SIMTIME_US);
    CHECK(first_on <= 150 * SIMTIME_US);
    CHECK(s.starts >= 1);
    CHECK(looks > 0);
    CHECK(max_out <= 1);
    CHECK(!cc_cray_throttling(x.n.cc_st) || s.throttled_periods < s.periods);
    mpi_h_teardown(&x);
}

/* A job's delay_sensitivity reaches its NICs (the same run with the
 * incast's senders at c_a 8 ends at another time: the root's port bounds
 * it either way); without Netscope it is an error at its line. */
static void test_job_sensitivity(void)
{
    static char out[1 << 16], err[1 << 14];
#define NS_CFG                                                               \
    "experiment = { name = \"ns-%s\"; };\n"                                  \
    "system = { name = \"voltrino\"; };\n"                                   \
    "network = { congestion_control = \"%s\"; };\n"                          \
    "jobs = ( { name = \"incast\"; workload = \"gpcnet-rma-incast\";\n"      \
    "  nodes = 24; allocation = \"linear\"; bytes = 131072;\n"              \
    "  iterations = 4;%s } );\n"
    char text[1024];
    double t[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        snprintf(text, sizeof text, NS_CFG, k ? "ca" : "plain", "netscope",
                 k ? " delay_sensitivity = 8.0;" : "");
        const char *f = write_temp(k ? "ns-ca.cfg" : "ns-plain.cfg", text);
        CHECK(f != NULL);
        if (!f)
            return;
        const char *dir = k ? "/tmp/dfsim-ns-ca" : "/tmp/dfsim-ns-plain";
        const char *argv[] = { "run", f, "-o", dir, "--force", NULL };
        CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
        char path[256];
        snprintf(path, sizeof path, "%s/jobs.csv", dir);
        char *csv = read_text(path);
        CHECK(csv != NULL);
        /* jobs.csv: a header, then the job's row; its end time in us is
         * the column named end_us */
        if (csv) {
            char *h = csv, *row = strchr(csv, '\n');
            int col = -1, c = 0;
            for (char *p = h; row && p < row; c++) {
                size_t len = strcspn(p, ",\n");
                if (len == 6 && strncmp(p, "end_us", 6) == 0)
                    col = c;
                p += len + 1;
            }
            CHECK(col >= 0);
            char *p = row ? row + 1 : NULL;
            for (c = 0; p && c < col; c++)
                p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
            if (p)
                t[k] = strtod(p, NULL);
            free(csv);
        }
        unlink(f);
        rm_dir(dir);
    }
    fprintf(stderr, "  netscope incast 24 nodes: ends at %.1f us with c_a "
            "0, %.1f us with c_a 8\n", t[0], t[1]);
    CHECK(t[0] > 0 && t[1] > 0);
    CHECK(t[1] != t[0]); /* the same run but for the senders' c_a */
    snprintf(text, sizeof text, NS_CFG, "bad", "none",
             "\n  delay_sensitivity = 8.0;");
    const char *f = write_temp("ns-bad.cfg", text);
    CHECK(f != NULL);
    if (!f)
        return;
    const char *argv[] = { "run", f, "-o", "/tmp/dfsim-ns-bad", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK(strstr(err, ":7: error: jobs[0].delay_sensitivity") != NULL);
    unlink(f);
    rm_dir("/tmp/dfsim-ns-bad");
#undef NS_CFG
}

const struct test_case tests_netscope[] = {
    TEST(test_job_sensitivity),
    TEST(test_cray_throttle),
    TEST(test_netscope_update),
    TEST(test_netscope_update_while_alpha),
    TEST(test_netscope_delay_injection),
    TEST(test_netscope_sleep_slack),
    TEST(test_netscope_incast),
    { 0 },
};
