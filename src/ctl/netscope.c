/* ctl/netscope.c — Netscope's delay-sensitivity-driven rate control
 * (Patke et al., ICS'21 §5), per NIC.
 *
 * What the paper says, and how it is modelled:
 *
 *   Congestion signal: "stalls experienced by the application traffic
 *   injected from the NIC to the HSN (nic2hsn)", read through PAPI every
 *   measurement window (1 s there). Here: the share of the window the
 *   NIC's requests were ready but held back for lack of credits — the
 *   meaning of the request-stall counter (CTR_NIC_STALLED: Aries'
 *   AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED, net/counters.h), as time,
 *   on every family's NICs; so the network keeps counters when this
 *   controller is on.
 *
 *   Rate control (Eqs. 14-15): alpha <- (1 - g) alpha + g nic2hsn every
 *   window; if alpha > 0, R <- R (1 - alpha / (2 + c_a)), else R <- R + 1.
 *   Read literally, alpha stays above 0 forever after the first stall
 *   (it only decays geometrically) and R would only fall; as in DCTCP
 *   and DCQCN, whose rule the paper adopts, the decrease is taken in a
 *   window whose signal shows congestion (nic2hsn > 0) and the increase
 *   otherwise (inferred; `netscope_cut = "stalled-window"`, the
 *   default). The rule as printed is `netscope_cut = "while-alpha"`:
 *   every window cuts while alpha > 0, so a NIC's rate never rises after
 *   its first stall and its total cut is about exp(-S / (2 + c_a)), S
 *   the windows' signals summed (docs/congestion.md, "Eq. 15 as
 *   printed", for what each reading does to ICS'21's results). The
 *   step's unit is not given: `step` Gb/s per
 *   window (1, as written, read as Gb/s). R stays within [R_line / 1024,
 *   R_line] (the floor: inferred, so a NIC is never silenced).
 *
 *   c_a: the application's delay sensitivity (ICS'21 §4.1, Table 3:
 *   MILC 6.67, LAMMPS 0.47, AMG 0 on Voltrino), per NIC: a job's
 *   delay_sensitivity reaches the NICs of its nodes when it is placed
 *   (the job hook, ns_job; netscope_sensitivity for the NICs of jobs
 *   that give none).
 *   A sensitive application's rate falls less: 1 - alpha / (2 + c_a).
 *   With c_a = 0 this is DCQCN's cut on the stall signal — what the paper
 *   calls DCQCN on Aries, which has no ECN (inferred: the paper does not
 *   say how it ran DCQCN there).
 *
 *   Delay injection (Eq. 13, Fig. 2): "we introduce delays between
 *   consecutive message requests sent out by every application
 *   process" through an MPI wrapper, as process sleeps ("Linux only
 *   supports process sleep with microsecond resolution"), for the time
 *   the message would take at the reduced rate minus at the line rate;
 *   a fraction f of a microsecond is a 1 us sleep with probability f
 *   (the paper's example: 0.3 us -> 1 us with probability 0.3), drawn
 *   here from the NIC's random stream. Eq. 13 writes the delay as
 *   (R_line - R) / B_nic; per message of b bytes that is b / R -
 *   b / R_line, which is what it must be for messages to leave at R on
 *   average. Who waits (`netscope_sleep`):
 *     "rank" (the default): the process. Before each message it posts
 *     to the network (a send, a one-sided put or get; the layer's
 *     collectives are its point-to-point sends) it sleeps that delay
 *     and the slack below, and computes or posts nothing meanwhile
 *     (sleep, sleeping: asked by the MPI layer). Inferred: the sleep
 *     comes before the real call (the wrapper's plainest form; the
 *     paper does not show it), shared-memory messages are not delayed
 *     (they do not reach the NIC), and ranks sharing a NIC share its
 *     sleep (ICS'21 and dfsim's examples run one rank per node).
 *     "nic": the NIC holds the message — it may start only b / R_line
 *     plus the delay after the previous one started (admit_msg: as if
 *     the previous send took its line-rate time, then slept) — and the
 *     process runs on (what dfsim did before; for the ablation).
 *   When the rate changes during a wait, what is left of the wait scales
 *   by the old rate over the new: the wrapper computes each sleep from
 *   the rate of the moment, over windows of 1 s and messages of
 *   microseconds; here a window is 20 us, and a 128 KiB message sent at
 *   a cut rate would otherwise carry a wait of milliseconds, decided by
 *   one window, long after the rate has recovered (inferred: the
 *   scaling keeps the mean rate R(t) as it changes).
 *
 *   The sleep's slack (`netscope_sleep_slack_us`): a Linux sleep
 *   (nanosleep, usleep) "may be up to the specified number of
 *   nanoseconds late (but will never expire early)", the thread's timer
 *   slack, 50 us by default for a normal thread (prctl(2),
 *   PR_SET_TIMERSLACK: init's 50,000 ns, inherited). The kernel programs
 *   the clock for a timer's latest expiry (soft + slack) and wakes
 *   every timer whose soft expiry has passed when it fires, so a lone
 *   sleep on a compute node wakes at the slack's end: the wrapper's
 *   "1 us" sleep takes ~51 us, unless it set its slack (the paper does
 *   not say). Here: every sleep (a wait of at least 1 us) is followed by
 *   the slack, which a rate change does not shorten.
 *
 * Window and gain: the paper samples every 1 s and gives g only as in
 * (0, 1). dfsim's runs last milliseconds: the default window is 20 us
 * (a few round trips under load on Aries) and g 1/16 (DCTCP's). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/rng.h"
#include "core/time.h"
#include "ctl/cc.h"

struct ns_nic {
    double rate;       /* R, bytes per ps */
    double alpha;
    double ca;         /* delay sensitivity */
    simtime stalled;   /* its request stall time at the last window */
    simtime next_ok;   /* its next message may start then (nic), its
                          process's sleep ends then (rank), */
    simtime late;      /* ... and this later: the sleep's slack */
};

struct netscope {
    struct net *n;
    struct ns_nic *nic;
    double line, floor, step, g;
    simtime slack; /* a sleep wakes this late (timer slack) */
    int cut;       /* NETSCOPE_CUT_* */
    bool nic_waits; /* NETSCOPE_SLEEP_NIC: the NIC holds messages */
    bool flat;      /* dcqcn-stall: every c_a 0, whatever a job gives */
    simtime window; /* between ticks */
    struct netscope_stats st;
};

/* by NETSCOPE_CUT_*, NETSCOPE_SLEEP_* (ctl/cc.h) */
const char *const cc_netscope_cut_names[] = { "stalled-window",
                                              "while-alpha", NULL };
const char *const cc_netscope_sleep_names[] = { "rank", "nic", NULL };

static int ns_init(void **st, struct net *n, const void *params,
                   struct nic_ctl_setup *setup, char *err, size_t len)
{
    const struct cc_netscope_params *p = params;
    if (!n->ct.nic) {
        snprintf(err, len, "netscope reads the NICs' stall counters: the "
                           "network must keep counters");
        return -1;
    }
    if (!(p->g > 0 && p->g < 1) || !(p->window_us > 0) ||
        !(p->step_gbps > 0) || !(p->sensitivity >= 0) ||
        !(p->sleep_slack_us >= 0)) {
        snprintf(err, len, "netscope needs 0 < g < 1, a positive window "
                           "and step, and a sensitivity and a sleep "
                           "slack >= 0");
        return -1;
    }
    struct netscope *s = calloc(1, sizeof *s);
    uint32_t nn = n->t->n_nics;
    if (s)
        s->nic = calloc(nn ? nn : 1, sizeof *s->nic);
    if (!s || !s->nic) {
        free(s);
        snprintf(err, len, "out of memory");
        return -1;
    }
    s->n = n;
    s->line = net_nic_line_rate(n);
    /* the floor (inferred, header): a NIC cut to it still sends, so its
     * windows can show the stalls gone and the rate rise again */
    s->floor = s->line / 1024;
    s->step = p->step_gbps * 1e9 / 8 / 1e12;
    s->g = p->g;
    s->cut = p->cut;
    s->nic_waits = p->sleep == NETSCOPE_SLEEP_NIC;
    s->slack = (simtime)llround(p->sleep_slack_us * SIMTIME_US);
    s->window = (simtime)llround(p->window_us * SIMTIME_US);
    if (s->window == 0)
        s->window = 1;
    setup->period = s->window;
    for (uint32_t i = 0; i < nn; i++)
        s->nic[i] = (struct ns_nic){ .rate = s->line,
                                     .ca = p->sensitivity };
    *st = s;
    return 0;
}

/* ICS'21's DCQCN baseline: every c_a 0, whatever the file gives */
static int ns_init_flat(void **st, struct net *n, const void *params,
                        struct nic_ctl_setup *setup, char *err, size_t len)
{
    if (ns_init(st, n, params, setup, err, len) != 0)
        return -1;
    struct netscope *s = *st;
    s->flat = true;
    for (uint32_t i = 0; i < n->t->n_nics; i++)
        s->nic[i].ca = 0;
    return 0;
}

/* A job is placed: its delay sensitivity, if it gives one, on the NICs
 * of its nodes (the others keep netscope_sensitivity). */
static void ns_job(void *st, const struct nic_job *j)
{
    struct netscope *s = st;
    if (s->flat || !j->has_sensitivity)
        return;
    for (uint32_t i = 0; i < j->n_nics; i++)
        cc_netscope_set_sensitivity(s, j->nics[i], j->sensitivity);
}

static void ns_free(void *st)
{
    struct netscope *s = st;
    if (s)
        free(s->nic);
    free(s);
}

/* NIC nic's wait under way: now if over, else its end or the next
 * window's end, whose tick may rescale it, if sooner */
static simtime wait_end(const struct netscope *s, uint32_t nic, simtime now)
{
    const struct ns_nic *c = &s->nic[nic];
    simtime t = c->next_ok + c->late;
    if (t <= now)
        return now;
    /* A wait is bounded by the next tick, which may rescale what is left of
     * it: the waiter looks again then (and its look takes the tick). */
    simtime tick = net_ctl_next_tick(s->n, s);
    return t < tick ? t : tick;
}

/* (ticks are taken when the network is active: a NIC waiting here is
 * what keeps them coming; a sleeping process's look takes them,
 * net_cc_sleeping) */
static simtime ns_admit_msg(void *st, const struct message *m, simtime now)
{
    const struct netscope *s = st;
    return s->nic_waits ? wait_end(s, m->src_nic, now) : now;
}

/* The wait after a message of `bytes` at rate R: b / R - b / R_line, in
 * whole microseconds, the fraction as a 1 us wait with that probability. */
static simtime injected_delay(struct netscope *s, uint32_t nic,
                              uint64_t bytes)
{
    const struct ns_nic *c = &s->nic[nic];
    if (c->rate >= s->line)
        return 0;
    double us = ((double)bytes / c->rate - (double)bytes / s->line) /
                (double)SIMTIME_US;
    double whole = floor(us);
    /* "Linux only supports process sleep with microsecond resolution":
     * a fraction of a microsecond is a whole one with that probability, so
     * the mean delay is exact (ICS'21 §5: 0.3 us -> 1 us with probability
     * 0.3) */
    if (rng_unit(&s->n->nic_rng[nic]) < us - whole)
        whole += 1;
    return (simtime)whole * SIMTIME_US;
}

/* A wait of d from `from` on NIC nic: it ends at from + d and, if it is
 * a sleep (d > 0), its slack later, which no rate change shortens. */
static void wait_start(struct netscope *s, uint32_t nic, simtime from,
                       simtime d)
{
    struct ns_nic *c = &s->nic[nic];
    c->next_ok = from + d;
    c->late = d > 0 ? s->slack : 0;
    s->st.delays += d > 0;
    s->st.delay_time += d + c->late;
}

static void ns_sent(void *st, const struct packet *p, simtime now)
{
    struct netscope *s = st;
    if (!s->nic_waits || p->index != 0) /* only a message's first packet */
        return;
    /* the wrapper sleeps after a send that took b / R_line: the next
     * starts b / R_line + delay after this one, b / R on average */
    uint32_t bytes = s->n->msg[net_pkt_cold(s->n, p)->msg].bytes;
    wait_start(s, p->src_nic, now + (simtime)llround((double)bytes / s->line),
               injected_delay(s, p->src_nic, bytes));
}

/* The process posts `bytes` (NETSCOPE_SLEEP_RANK): it sleeps first. A
 * process of the NIC already asleep (ranks sharing it) keeps its end. */
static simtime ns_sleep(void *st, uint32_t nic, uint64_t bytes, simtime now)
{
    struct netscope *s = st;
    if (s->nic_waits)
        return now;
    simtime d = injected_delay(s, nic, bytes);
    const struct ns_nic *c = &s->nic[nic];
    /* ranks sharing a NIC share its sleep: a new sleep replaces the one
     * under way only if it ends later */
    if (d > 0 && now + d + s->slack > c->next_ok + c->late)
        wait_start(s, nic, now, d);
    return wait_end(s, nic, now);
}

static simtime ns_sleeping(void *st, uint32_t nic, simtime now)
{
    const struct netscope *s = st;
    return s->nic_waits ? now : wait_end(s, nic, now);
}

static void ns_tick(void *st, simtime now)
{
    struct netscope *s = st;
    simtime window = s->window;
    for (uint32_t i = 0; i < s->n->t->n_nics; i++) {
        if (!net_owns(s->n, s->n->t->nics[i].router))
            continue; /* another partition's (net/xpart.h) */
        struct ns_nic *c = &s->nic[i];
        simtime t = net_nic_req_stalled(s->n, i, now);
        /* nic2hsn, the signal of Eq. 14: the share of the window this NIC's
         * requests were ready but held back for credits (REQ_STALLED's
         * meaning, as time); at most 1, a window wholly stalled */
        double sig = (double)(t - c->stalled) / (double)window;
        c->stalled = t;
        if (sig > 1)
            sig = 1;
        double before = c->rate;
        cc_netscope_update(c->alpha, sig, c->ca, s->g, s->step, s->floor,
                           s->line, s->cut, &c->alpha, &c->rate);
        /* a wait under way goes on at the new rate: what is left of it
         * scales by before / after (see the header) */
        if (c->next_ok > now && c->rate != before)
            c->next_ok = now + (simtime)llround((double)(c->next_ok - now) *
                                                before / c->rate);
        s->st.decreases += sig > 0;
    }
    s->st.windows++;
}

void cc_netscope_update(double alpha, double signal, double ca, double g,
                        double step, double floor_rate, double line,
                        int cut, double *alpha_out, double *rate)
{
    /* c_a, the application's delay sensitivity, softens the cut: MILC
     * (6.67 on Voltrino, ICS'21 Table 3) is cut by alpha / 8.67, about a
     * quarter of DCQCN's alpha / 2 (c_a = 0) */
    alpha = (1 - g) * alpha + g * signal; /* Eq. 14 */
    if (cut == NETSCOPE_CUT_ALPHA ? alpha > 0 : signal > 0)
        *rate *= 1 - alpha / (2 + ca); /* Eq. 15 */
    else
        *rate += step;
    if (*rate < floor_rate)
        *rate = floor_rate;
    if (*rate > line)
        *rate = line;
    *alpha_out = alpha;
}

/* Defaults (the header says why): g 1/16 (DCTCP's; the paper: g in
 * (0, 1)), a 20 us window (the paper's 1 s scaled to millisecond runs),
 * +1 Gb/s per window (the paper's "+1"), c_a 0, a cut in the windows with
 * stalls (DCTCP's rule), Linux's default timer slack, the wrapper's
 * process sleeping. */
static void ns_defaults(void *params, const struct net_params *p,
                        const struct topo *t)
{
    (void)p, (void)t;
    *(struct cc_netscope_params *)params = (struct cc_netscope_params){
        .g = 1.0 / 16,
        .window_us = 20,
        .step_gbps = 1,
        .sensitivity = 0,
        .sleep_slack_us = 50,
        .cut = NETSCOPE_CUT_STALLED,
        .sleep = NETSCOPE_SLEEP_RANK,
    };
}

#define FLT(NAME, FIELD, LO, HI, HELP)                                       \
    { .name = NAME, .type = CFG_FLOAT,                                       \
      .offset = offsetof(struct cc_netscope_params, FIELD), .fmin = LO,      \
      .fmax = HI, .help = HELP }

static const struct cfg_key ns_keys[] = {
    FLT("netscope_g", g, 1e-9, 0.999999,
        "netscope: alpha's gain g (ICS'21 Eq. 14; 1/16)"),
    FLT("netscope_window_us", window_us, 1e-3, 1e9,
        "netscope: measurement window, us (20; the paper's 1 s)"),
    FLT("netscope_step_gbps", step_gbps, 1e-9, 1e6,
        "netscope: rate increase per window without stalls, Gb/s (Eq. "
        "15's +1)"),
    FLT("netscope_sensitivity", sensitivity, 0, 1e6,
        "netscope: the delay sensitivity c_a of every NIC's application "
        "(0)"),
    FLT("netscope_sleep_slack_us", sleep_slack_us, 0, 1e6,
        "netscope and dcqcn-stall: how late the wrapper's sleep wakes, us "
        "(50: Linux's default timer slack)"),
    { .name = "netscope_cut", .type = CFG_ENUM,
      .offset = offsetof(struct cc_netscope_params, cut),
      .choices = cc_netscope_cut_names,
      .help = "netscope and dcqcn-stall: which windows cut the rate: "
              "\"stalled-window\" (those with stalls, DCTCP's rule; the "
              "default) or \"while-alpha\" (every window while alpha > 0: "
              "ICS'21 Eq. 15 as printed, no rise after a stall)" },
    { .name = "netscope_sleep", .type = CFG_ENUM,
      .offset = offsetof(struct cc_netscope_params, sleep),
      .choices = cc_netscope_sleep_names,
      .help = "netscope and dcqcn-stall: who waits between message sends: "
              "\"rank\" (the process sleeps before it posts, as ICS'21's "
              "MPI wrapper; the default) or \"nic\" (the NIC holds the "
              "message, the process runs on)" },
    { .name = NULL },
};

/* One block for both controllers: dcqcn-stall is Netscope with c_a 0. */
static const struct net_part ns_part = {
    .name = "netscope",
    .keys = ns_keys,
    .params_size = sizeof(struct cc_netscope_params),
    .defaults = ns_defaults,
};

/* The AIMD's table; `init` decides where c_a comes from. */
#define NS_OPS(init_fn)                                                      \
    .roles = NIC_CTL_RATE, .part = &ns_part, .counters = true,               \
    .init = init_fn, .free = ns_free, .admit_msg = ns_admit_msg,             \
    .sleep = ns_sleep, .sleeping = ns_sleeping, .inject = ns_sent,           \
    .tick = ns_tick, .tick_per_nic = true

const struct nic_ctl cc_netscope = {
    .base = { "netscope", "Netscope: per NIC, an AIMD rate from the NIC's "
                          "injection stalls, cut less for a delay-"
                          "sensitive application, applied as delays "
                          "between messages (Patke et al. ICS'21 §5)" },
    NS_OPS(ns_init),
    .sensitivity = true,
    .job = ns_job,
};

/* What ICS'21 ran as "DCQCN" on Aries, which marks no ECN: the same
 * AIMD on the NIC's stall signal with DCQCN's fixed cut R (1 - alpha /
 * 2) for every application. The paper's evidence: DCQCN "uses AIMD
 * congestion control with a fixed additive increase and multiplicative
 * decrease step for all applications" (footnote 6); its Table 1 augments
 * DCQCN with delay sensitivities; and Netscope with c_a 100 % too low
 * (c_a = 0) "is no worse than that of DCQCN" (§6.2). dcqcn.c is DCQCN
 * as Ethernet runs it, with switch ECN marks. */
const struct nic_ctl cc_dcqcn_stall = {
    .base = { "dcqcn-stall", "DCQCN's rate rule on the NIC's injection "
                             "stalls, every application cut alike: "
                             "Netscope with c_a = 0, ICS'21's DCQCN "
                             "baseline on Aries (ctl/netscope.c)" },
    NS_OPS(ns_init_flat),
};

void cc_netscope_set_rate(void *st, uint32_t nic, double rate)
{
    struct netscope *s = st;
    if (nic < s->n->t->n_nics)
        s->nic[nic].rate = rate < s->floor ? s->floor
                           : rate > s->line ? s->line : rate;
}

void cc_netscope_set_sensitivity(void *st, uint32_t nic, double ca)
{
    struct netscope *s = st;
    if (nic < s->n->t->n_nics)
        s->nic[nic].ca = ca;
}

double cc_netscope_rate(const void *st, uint32_t nic)
{
    const struct netscope *s = st;
    return s->nic[nic].rate;
}

struct netscope_stats cc_netscope_stats(const void *st)
{
    return ((const struct netscope *)st)->st;
}
