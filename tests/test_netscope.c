/* tests/test_netscope.c — Netscope's rate control (ctl/netscope.c):
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
#include "ctl/cc.h"
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
    CHECK(strcmp(cc_netscope_cut_names[NETSCOPE_CUT_STALLED],
                 "stalled-window") == 0);
    CHECK(strcmp(cc_netscope_cut_names[NETSCOPE_CUT_ALPHA], "while-alpha") ==
          0);
    CHECK(cc_netscope_cut_names[2] == NULL);
}

struct nx_tune {
    const struct nic_ctl *cc;
    double ca, cray_min_us; /* cray_min_us <= 0: the default */
    double slack_us;        /* < 0: the default sleep slack */
    int sleep;              /* NETSCOPE_SLEEP_* */
};

static void nx_tune(struct net_params *np, void *ctx)
{
    const struct nx_tune *u = ctx;
    np->cc[0] = u->cc;
    np->n_cc = u->cc != &cc_none;
    /* the blocks cc_net_defaults made (the topology is not needed) */
    struct cc_netscope_params *ns =
        net_part_block(np, cc_netscope.part, NULL);
    struct cc_cray_params *cr = net_part_block(np, cc_cray.part, NULL);
    CHECK(ns && cr);
    if (!ns || !cr)
        return;
    ns->sensitivity = u->ca;
    if (u->cray_min_us > 0)
        cr->min_us = u->cray_min_us;
    if (u->slack_us >= 0)
        ns->sleep_slack_us = u->slack_us;
    ns->sleep = (uint8_t)u->sleep;
    CHECK(!np->counters); /* netscope and cray turn them on */
}

/* Voltrino with the controller and constants of u (mpi_util.h). */
static int nx_setup_u(struct mpi_h *x, struct nx_tune u)
{
    return mpi_h_setup_tuned(x, "voltrino", nx_tune, &u);
}

/* ... controller cc, every NIC's c_a, the other constants the defaults
 * but the wait's place: the NIC's, for the tests that post messages to
 * the network directly (no process to put to sleep). */
static int nx_setup(struct mpi_h *x, const struct nic_ctl *cc, double ca)
{
    return nx_setup_u(x, (struct nx_tune){ cc, ca, 0, -1,
                                           NETSCOPE_SLEEP_NIC });
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
 * waiting where `sleep` says, sends 400 messages of 4 KiB (queued at
 * once) to a NIC of another router of a quiet network; the rate they
 * left at, as a share of the line, and the controller's counts. */
enum { DI_MSGS = 400, DI_BYTES = 4096 };

static double delay_run(double share, double slack_us, int sleep,
                        struct netscope_stats *st, double *line_us)
{
    struct mpi_h x;
    if (nx_setup_u(&x, (struct nx_tune){ &cc_netscope, 0, 0, slack_us,
                                         sleep }) != 0) {
        CHECK(!"setup");
        return -1;
    }
    CHECK(x.n.p.counters);
    double line = net_nic_line_rate(&x.n);
    *line_us = DI_BYTES / line / SIMTIME_US;
    uint32_t a = 0, b = x.t.n_nics - 1;
    CHECK(x.t.nics[a].router != x.t.nics[b].router);
    cc_netscope_set_rate(x.n.ctl.st[0], a, line * share);
    /* no ticks: the rate stays where it was set */
    x.n.ctl.next_tick[0] = x.n.ctl.first_tick = SIMTIME_MAX;
    x.n.hooks = (struct net_hooks){ .msg_done = on_done };
    last_done = 0;
    for (int k = 0; k < DI_MSGS; k++)
        net_send(&x.n, a, b, NET_PUT, DI_BYTES, 0, 0);
    sim_run(&x.s, SIMTIME_MAX);
    CHECK(net_check_drained(&x.n, &x.d) == 0);
    *st = cc_netscope_stats(x.n.ctl.st[0]);
    mpi_h_teardown(&x);
    return (double)DI_MSGS * DI_BYTES / (double)last_done / line;
}

/* The line rate is what the NIC sends when nothing holds it: with the
 * waits the processes' (none here), 400 messages queued at once leave at
 * the line (Aries: a 64-byte packet every five 800 MHz cycles, 10.24
 * GB/s; one of the NIC's four tile links alone carries 5.25 GB/s of
 * flits, the line dfsim used to take, half what the NIC sends). */
static void test_netscope_line_rate(void)
{
    struct netscope_stats s;
    double line_us;
    double share = delay_run(0.25, 0, NETSCOPE_SLEEP_RANK, &s, &line_us);
    fprintf(stderr, "  netscope line rate: %.3f GB/s; 400 x 4 KiB queued "
            "at a NIC leave at %.4f of it\n",
            DI_BYTES / line_us / 1e3, share);
    CHECK(share > 0.9 && share <= 1.0);
    CHECK_EQ_U(s.delays, 0); /* the NIC holds nothing in this mode */
    CHECK(fabs(DI_BYTES / line_us / 1e3 - 10.24) < 0.01);
}

/* Held at a quarter of the line, without the sleeps' slack, the
 * messages leave at the quarter on average (the sub-microsecond part of
 * each wait drawn as a whole microsecond with that probability), where
 * without the hold they go at the line. */
static void test_netscope_delay_injection(void)
{
    struct netscope_stats s;
    double line_us;
    double share = delay_run(0.25, 0, NETSCOPE_SLEEP_NIC, &s, &line_us);
    fprintf(stderr, "  netscope delay injection: %.4f of the line (target "
            "0.25), %llu of %d messages delayed, mean wait %.3f us\n",
            share, (unsigned long long)s.delays, DI_MSGS,
            (double)s.delay_time / (double)DI_MSGS / SIMTIME_US);
    CHECK(fabs(share - 0.25) < 0.25 * 0.05);
    /* 4096 B at a quarter: 3 x 4096 / line of wait, 1.x us: every
     * message waits at least 1 us, some 2 */
    CHECK_EQ_U(s.delays, DI_MSGS);
}

/* Held at 0.8 of the line, each wait is a quarter of a message's time
 * at the line (0.4 us on Aries' NIC): a 1 us sleep with that
 * probability. With Linux's default timer slack each sleep lasts 1 + 50
 * us, so the NIC sends a message per 0.4 us plus 51 us per sleep — a
 * fraction of the line, not 0.8 — and the time is that: every sleep
 * counted at 51 us, the run as long as the messages and the sleeps. */
static void test_netscope_sleep_slack(void)
{
    struct netscope_stats s0, s50;
    double line_us;
    double share0 = delay_run(0.8, 0, NETSCOPE_SLEEP_NIC, &s0, &line_us);
    double share50 = delay_run(0.8, 50, NETSCOPE_SLEEP_NIC, &s50, &line_us);
    fprintf(stderr, "  netscope sleep slack, rate 0.8 of the line: %.3f "
            "of the line without slack (%llu sleeps), %.3f with 50 us "
            "(%llu sleeps; a message %.3f us at the line)\n",
            share0, (unsigned long long)s0.delays, share50,
            (unsigned long long)s50.delays, line_us);
    /* 400 draws at p = the wait in us: within 4 standard deviations;
     * the rate 0.8 of the line on average, and what the draws made it */
    double p = line_us * (1 / 0.8 - 1);
    double mean = DI_MSGS * p, sd = sqrt(DI_MSGS * p * (1 - p));
    CHECK(p > 0.05 && p < 0.5);
    CHECK(fabs((double)s0.delays - mean) < 4 * sd);
    CHECK(fabs((double)s50.delays - mean) < 4 * sd);
    double msgs_us = DI_MSGS * line_us;
    double expect0 = msgs_us / (msgs_us + (double)s0.delays);
    CHECK(fabs(share0 - expect0) < expect0 * 0.02);
    CHECK_EQ_U(s50.delay_time, s50.delays * 51 * SIMTIME_US);
    double expect = msgs_us / (msgs_us + (double)s50.delay_time /
                                             SIMTIME_US);
    CHECK(fabs(share50 - expect) < expect * 0.05);
    CHECK(share50 < 0.3);
}

/* The process sleeps (netscope_sleep "rank"): a rank that posts a 4 KiB
 * message and computes 5 us, 40 times, its NIC held at a quarter of the
 * line, takes as much longer as its sleeps last (each 3 x 0.4 us, drawn
 * as 1 or 2 us); with the NIC holding the messages instead, the rank
 * computes on, and since each message's wait (<= 2.4 us from its start)
 * ends before the next is posted, the job takes what it takes unheld. */
enum { RS_MSGS = 40, RS_BYTES = 4096 };
#define RS_COMPUTE (5 * SIMTIME_US)

/* done[r]: the messages rank r has posted or received so far, then one
 * more once it has waited for them and marked */
static uint32_t rs_next(void *ctx, uint32_t r, struct dmpi_op *out,
                        uint32_t cap)
{
    uint32_t *done = ctx, k = 0;
    while (done[r] < RS_MSGS && k + 2 <= cap) {
        done[r]++;
        if (r == 0) {
            out[k++] = (struct dmpi_op){ .code = DMPI_ISEND, .peer = 1,
                                         .tag = 1, .bytes = RS_BYTES };
            out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                         .arg = RS_COMPUTE };
        } else {
            out[k++] = (struct dmpi_op){ .code = DMPI_IRECV, .peer = 0,
                                         .tag = 1, .bytes = RS_BYTES };
        }
    }
    if (k == 0 && done[r] == RS_MSGS && cap >= 2) {
        done[r]++;
        out[k++] = (struct dmpi_op){ .code = DMPI_WAITALL };
        out[k++] = (struct dmpi_op){ .code = DMPI_MARK };
    }
    return k;
}

/* The job's end (us), held at `share` with the waits where `sleep`
 * says; the controller's counts. */
static double rank_sleep_run(double share, int sleep,
                             struct netscope_stats *st)
{
    struct mpi_h x;
    double end = -1;
    if (nx_setup_u(&x, (struct nx_tune){ &cc_netscope, 0, 0, 0,
                                         sleep }) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&x);
        return -1;
    }
    uint32_t nodes[2] = { mpi_h_node_on(&x.t, 0),
                          mpi_h_node_on(&x.t, x.t.n_routers - 1) };
    uint32_t done[2] = { 0, 0 };
    struct dmpi_job_spec js = { .name = "sender", .nodes = nodes,
                                .n_nodes = 2, .ppn = 1,
                                .app = { .ctx = done, .next = rs_next } };
    if (mpi_h_start(&x, NULL, &js, 1) == 0) {
        cc_netscope_set_rate(x.n.ctl.st[0], x.t.nodes[nodes[0]].nic[0],
                             net_nic_line_rate(&x.n) * share);
        x.n.ctl.next_tick[0] = x.n.ctl.first_tick = SIMTIME_MAX; /* the rate stays */
        if (mpi_h_run(&x) == 0)
            end = (double)x.m.res[0].end / SIMTIME_US;
        *st = cc_netscope_stats(x.n.ctl.st[0]);
    }
    mpi_h_teardown(&x);
    return end;
}

static void test_netscope_rank_sleeps(void)
{
    struct netscope_stats s_line, s_rank, s_nic;
    double t_line = rank_sleep_run(1.0, NETSCOPE_SLEEP_RANK, &s_line);
    double t_rank = rank_sleep_run(0.25, NETSCOPE_SLEEP_RANK, &s_rank);
    double t_nic = rank_sleep_run(0.25, NETSCOPE_SLEEP_NIC, &s_nic);
    double slept = (double)s_rank.delay_time / SIMTIME_US;
    fprintf(stderr, "  netscope sleeps, 40 x (4 KiB send + 5 us compute): "
            "%.2f us at the line, %.2f us with the process asleep %.2f "
            "us (%llu sleeps), %.2f us with the NIC holding\n",
            t_line, t_rank, slept, (unsigned long long)s_rank.delays,
            t_nic);
    CHECK(t_line > RS_MSGS * 5.0);
    CHECK_EQ_U(s_line.delays, 0);
    CHECK_EQ_U(s_rank.delays, RS_MSGS);
    CHECK(slept >= RS_MSGS * 1.0 && slept <= RS_MSGS * 2.0);
    CHECK(fabs(t_rank - t_line - slept) < 0.01);
    CHECK(t_nic == t_line);
    CHECK_EQ_U(s_nic.delays, RS_MSGS);
}

/* 12 NICs of other routers PUT 16 x 64 KiB each to one NIC: its port
 * backs the network up into the sources, whose requests stall; each
 * window with stalls cuts their rate. */
static void incast(const struct nic_ctl *cc, double ca, double *mean_rate,
                   double *dst_rate, struct netscope_stats *st,
                   double *done_us)
{
    struct mpi_h x;
    *mean_rate = *dst_rate = *done_us = -1;
    if (nx_setup(&x, cc, ca) != 0)
        return;
    double line = net_nic_line_rate(&x.n);
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
        sum += cc_netscope_rate(x.n.ctl.st[0], src[i]);
    *mean_rate = sum / k / line;
    *dst_rate = cc_netscope_rate(x.n.ctl.st[0], dst) / line;
    *st = cc_netscope_stats(x.n.ctl.st[0]);
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

/* Cray's congestion protection (ctl/cray.c): a quiet stream never starts
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
    struct cray_stats quiet = cc_cray_stats(x.n.ctl.st[0]);
    CHECK(quiet.periods > 0);
    CHECK_EQ_U(quiet.starts, 0);
    mpi_h_teardown(&x);

    if (nx_setup_u(&x, (struct nx_tune){ &cc_cray, 0, 1000, -1,
                                         NETSCOPE_SLEEP_RANK }) != 0) {
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
        if (!cc_cray_throttling(x.n.ctl.st[0])) {
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
    struct cray_stats s = cc_cray_stats(x.n.ctl.st[0]);
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
    CHECK(!cc_cray_throttling(x.n.ctl.st[0]) || s.throttled_periods < s.periods);
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
    TEST(test_netscope_line_rate),
    TEST(test_netscope_delay_injection),
    TEST(test_netscope_sleep_slack),
    TEST(test_netscope_rank_sleeps),
    TEST(test_netscope_incast),
    { 0 },
};
