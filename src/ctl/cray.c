/* ctl/cray.c — Cray's congestion protection on Aries and Gemini, the
 * mechanism the issue asked for as the "static rate control" Netscope
 * compares against (ICS'21 §2, §6: "each node performs static rate
 * control"). The paper's tables are matched by `none` instead — its
 * static rate control "does not adapt to varying levels of congestion"
 * (§6.2) — so this is the protection as it acts when it starts
 * (docs/congestion.md, "Which of dfsim's controllers is ICS'21's ...").
 *
 * What is public (Cray's patents on the mechanism, Froese, Kaplan et
 * al.: US 8,982,688 and US 9,674,092 "Congestion abatement in a network
 * interconnect", US 9,391,899 "Congestion detection", abstracts and
 * claims): a supervisory controller, fed over the out-of-band control
 * network with what the NICs and router tiles count, decides whether the
 * network is congested ("a delay in delivering packets becomes
 * unacceptable") by a start criterion; then every node's local
 * controller makes its NIC "allow a limited number of outstanding
 * requests ... one"; the limit holds "for a minimum length of time" and
 * ends by a stop criterion. The criteria's values and the polling period
 * are not public.
 *
 * The model: every `period` the controller reads each NIC's request stall
 * time (the request-stall counter's meaning, CTR_NIC_STALLED: Aries'
 * AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED, as time; the network keeps
 * counters with this controller); a NIC whose requests were held
 * back for credits for at least `stall_share` of the period counts as
 * congested. When at least `start_share` of the NICs are, every NIC is
 * limited to `outstanding` requests awaiting their response (the
 * patent's one) for at least `min_time`, and the limit is lifted at the
 * first period after that in which fewer than `start_share` are — which,
 * with every NIC limited, is usually the next: the throttle comes and
 * goes with the congestion, a static rate rather than a controlled one
 * (the Netscope paper's point). All NICs are throttled, the culprits'
 * and the victims' alike.
 *
 * Defaults (inferred; say so when you cite them): period 50 us (the real
 * controller polls blade controllers over Ethernet, in seconds; scaled
 * as Netscope's window is), stall_share 0.5, start_share 0.05 (one NIC
 * in twenty stalled half the time is a network in trouble), one
 * outstanding request (the patent), min_time 200 us (four periods). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl/cc.h"

struct cray {
    struct net *n;
    simtime *stalled;      /* per NIC, its stall time at the last look */
    simtime until;         /* throttled at least until then */
    bool on;               /* throttling */
    double stall_share, start_share;
    uint32_t limit;
    simtime min_time;
    simtime period;        /* the supervisor looks every */
    struct cray_stats st;
};

static int cray_init(void **st, struct net *n, const void *params,
                     struct nic_ctl_setup *setup, char *err, size_t len)
{
    const struct cc_cray_params *p = params;
    if (!n->ct.nic) {
        snprintf(err, len, "cray reads the NICs' stall counters: the "
                           "network must keep counters");
        return -1;
    }
    if (!(p->period_us > 0) ||
        !(p->stall_share > 0 && p->stall_share <= 1) ||
        !(p->start_share > 0 && p->start_share <= 1) ||
        p->outstanding == 0 || !(p->min_us >= 0)) {
        snprintf(err, len, "cray needs a positive period, stall and start "
                           "shares in (0, 1], at least one outstanding "
                           "request and min_time >= 0");
        return -1;
    }
    struct cray *c = calloc(1, sizeof *c);
    uint32_t nn = n->t->n_nics;
    if (c)
        c->stalled = calloc(nn ? nn : 1, sizeof *c->stalled);
    if (!c || !c->stalled) {
        free(c);
        snprintf(err, len, "out of memory");
        return -1;
    }
    c->n = n;
    c->stall_share = p->stall_share;
    c->start_share = p->start_share;
    c->limit = p->outstanding;
    c->min_time = (simtime)llround(p->min_us * SIMTIME_US);
    c->period = (simtime)llround(p->period_us * SIMTIME_US);
    if (c->period == 0)
        c->period = 1;
    setup->period = c->period;
    *st = c;
    return 0;
}

static void cray_free(void *st)
{
    struct cray *c = st;
    if (c)
        free(c->stalled);
    free(c);
}

static simtime cray_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    const struct cray *c = st;
    (void)dst;
    /* the patent's local controller: while throttled, a NIC "allow[s] a
     * limited number of outstanding requests", every NIC alike — the
     * destination does not matter, culprit and victim pay the same */
    if (c->on && net_nic_outstanding(c->n, src) >= c->limit)
        return SIMTIME_MAX; /* the next response lets it go */
    return now;
}

/* The supervisor's input at a look: the NICs (this network's own: a
 * partition's) whose requests waited for credits at least stall_share of
 * the period (REQ_STALLED as time), each NIC's count kept for the next. */
static uint64_t cray_count(void *st, simtime now)
{
    struct cray *c = st;
    const struct net *n = c->n;
    simtime window = c->period;
    uint64_t congested = 0;
    for (uint32_t i = 0; i < n->t->n_nics; i++) {
        if (!net_owns(n, n->t->nics[i].router))
            continue;
        simtime t = net_nic_req_stalled(n, i, now);
        congested += (double)(t - c->stalled[i]) >=
                     c->stall_share * (double)window;
        c->stalled[i] = t;
    }
    return congested;
}

/* The decision, from the machine's congested NICs. */
static void cray_decide(void *st, simtime now, uint64_t congested)
{
    struct cray *c = st;
    const struct net *n = c->n;
    bool start = (double)congested >= c->start_share * (double)n->t->n_nics;
    if (start && !c->on) {
        c->on = true;
        c->until = now + c->min_time;
        c->st.starts++;
    /* still congested: the minimum time runs from now again */
    } else if (start) {
        if (now + c->min_time > c->until)
            c->until = now + c->min_time;
    /* the stop criterion: fewer congested, and the minimum time is over */
    } else if (c->on && now >= c->until) {
        c->on = false;
    }
    c->st.periods++;
    c->st.throttled_periods += c->on;
}

static void cray_tick(void *st, simtime now)
{
    cray_decide(st, now, cray_count(st, now));
}

/* Inferred (the header says so): 50 us, half the period, 5 % of the NICs,
 * the patent's one request, 200 us. */
static void cray_defaults(void *params, const struct net_params *p,
                          const struct topo *t)
{
    (void)p, (void)t;
    *(struct cc_cray_params *)params = (struct cc_cray_params){
        .period_us = 50,
        .stall_share = 0.5,
        .start_share = 0.05,
        .outstanding = 1,
        .min_us = 200,
    };
}

#define FLT(NAME, FIELD, LO, HI, HELP)                                       \
    { .name = NAME, .type = CFG_FLOAT,                                       \
      .offset = offsetof(struct cc_cray_params, FIELD), .fmin = LO,          \
      .fmax = HI, .help = HELP }

static const struct cfg_key cray_keys[] = {
    FLT("cray_period_us", period_us, 1e-3, 1e9,
        "cray: the supervisor reads the NICs' stalls every this, us (50)"),
    FLT("cray_stall_share", stall_share, 1e-9, 1,
        "cray: a NIC stalled this share of a period is congested (0.5)"),
    FLT("cray_start_share", start_share, 1e-9, 1,
        "cray: every NIC is throttled when this share of them is congested "
        "(0.05)"),
    { .name = "cray_outstanding", .type = CFG_UINT32,
      .offset = offsetof(struct cc_cray_params, outstanding), .min = 1,
      .max = 1 << 20,
      .help = "cray: requests a throttled NIC may have awaiting their "
              "response (1)" },
    FLT("cray_min_us", min_us, 0, 1e9,
        "cray: a throttle lasts at least this long, us (200)"),
    { .name = NULL },
};

static const struct net_part cray_part = {
    .name = "cray",
    .keys = cray_keys,
    .params_size = sizeof(struct cc_cray_params),
    .defaults = cray_defaults,
};

const struct nic_ctl cc_cray = {
    .base = { "cray", "Cray's congestion protection: when enough NICs "
                      "stall, every NIC is held to one outstanding request "
                      "for a while (Cray patents US 8,982,688, 9,674,092; "
                      "thresholds inferred); ICS'21's Cray column matches "
                      "none, not this (docs/congestion.md)" },
    .roles = NIC_CTL_RATE,
    .part = &cray_part,
    .counters = true,
    .init = cray_init,
    .free = cray_free,
    .admit = cray_admit,
    .tick = cray_tick,
    .tick_count = cray_count,
    .tick_decide = cray_decide,
};

struct cray_stats cc_cray_stats(const void *st)
{
    return ((const struct cray *)st)->st;
}

bool cc_cray_throttling(const void *st)
{
    return ((const struct cray *)st)->on;
}
