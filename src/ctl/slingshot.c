/* ctl/slingshot.c — Slingshot's endpoint congestion control, as far as
 * SC'20 §II-D describes it; the algorithm is not public, and what is
 * inferred is marked so.
 *
 * From the paper: the control "tracks every in-flight packet between every
 * pair of endpoints", using the end-to-end acknowledgements (§II-A: "used
 * to track the outstanding packets between every pair of network
 * endpoints"); it "can distinguish between jobs that are victims of
 * congestion and those who are contributing to congestion, applying stiff
 * and fast back-pressure to the sources that are contributing", and "only
 * throttles those streams of packets who are contributing to the endpoint
 * congestion, without negatively affecting other jobs or other streams of
 * packets within the same job".
 *
 * Model (inferred):
 *  - per pair (source NIC, destination NIC), the requests outstanding
 *    (sent, response not yet back) and a window, in packets; a pair at its
 *    window waits for an ack, the NIC's other pairs go on (cc.h);
 *  - contribution is learnt from the marks its responses carry back: the
 *    last switch marks a request it routes to the destination's port while
 *    more than mark_flits wait there (net/router.c). Only streams toward a
 *    congested endpoint pass that port, so only they are marked: a stream
 *    that shares links with the congestion tree elsewhere is not (this
 *    controller's router-output hook, sls_mark: the switch's part of the
 *    mechanism);
 *  - stiff: a marked ack cuts the window of what the pair has in flight
 *    (not of a nominal window, which may be far above it) by alpha / 2,
 *    alpha the share of its acks marked lately (a moving average, gain
 *    1/16 per ack, starting at 1: the first mark halves), at most once
 *    per round trip (the marked packet's own), down to window_min — the
 *    proportional cut of DCTCP (Alizadeh et al., SIGCOMM 2010, §3.1),
 *    which keeps a hot spot busy where halving on every round trip with
 *    marks leaves it idle;
 *  - below one packet: the window may fall under one packet per round
 *    trip (an N-source incast needs 1/N of the hot spot's
 *    bandwidth-delay product each, a fraction of a packet when N is
 *    large); the pair then sends one packet per rtt / w, rtt the round
 *    trip its last ack measured, as Swift (Kumar et al., SIGCOMM 2020,
 *    §3.5) paces fractional windows. A window is packets per round trip
 *    as the path now delivers them: above one packet the acks clock the
 *    sends, and a paced pair keeps that self-clocking — when the hot
 *    spot's queue grows, every paced source slows with it. (Pacing by
 *    the least round trip seen instead, as this model first did, lets
 *    N sources held at window_min offer N x window_min packets per
 *    unloaded round trip whatever the queue: 460 sources at 1/32 of a
 *    4 KiB packet per ~3.5 us overload a 12.5 GB/s port by some 40 %
 *    (our estimate), and the queue grew until the victims that share the
 *    hot spot's switch waited 36-65 us for an 8 B message — SC'20 Fig. 9,
 *    Shandy at 90 %,
 *    docs/congestion.md.) Held at one packet,
 *    192 sources keep 192 packets at the hot spot, the tree spills into
 *    the input buffers bystanders share (tests/test_cc.c: a bystander
 *    20x slower than alone, 1.0x with pacing);
 *  - recovery: each unmarked ack adds increase/window (`increase` packets
 *    per round trip) at or above one packet, and `increase` packets
 *    below it, where acks come 1/w round trips apart (adding increase/w
 *    there would take a paced pair from 1/32 to 33 packets at once): a
 *    hot spot whose queue fell under the mark level is refilled by the
 *    pairs that see it, one packet each;
 *  - a pair at its full window with nothing in flight is forgotten.
 * Defaults (sls_defaults): window_max = the NIC's outstanding limit (an
 * unthrottled pair is limited by the NIC alone, so victims pay nothing),
 * window_min 1/32 packet (the share of a whole-machine incast on SC'20's
 * systems: some 16 packets of bandwidth-delay product and mark level over
 * Malbec's 484 nodes; 1/256 starves a paced pair for 255 round trips and
 * stretches the incast's tail: measured, with the earlier pacing by the
 * least round trip, 1.63x its uncontrolled time with 24 sources and 1.16x
 * with 192, against 1.04x and 1.03x at 1/32), increase 1 packet per round trip
 * (TCP-like additive increase), mark_flits four of the largest packets
 * (a queue deeper than what a few sources' packets arriving together
 * leave: more arrives at the port than it drains).
 *
 * Not avoidable by any window: the opening flood. Every source injects at
 * full rate until its first marked ack is back (4-5 us), so an N-source
 * incast starts with N x ~12 packets in the tree (24 sources: ~250 us to
 * drain through a 12.5 GB/s port; a bystander then takes 13.8 us instead
 * of 1.8). SC'20 measures victims beside aggressors that run throughout;
 * an experiment should give the aggressor its head start (impact
 * warmup_us). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl/cc.h"

#define FP 256u /* window fixed point: 1/256 packet */
#define ALPHA_ONE 1024 /* the marked share's fixed point */
#define GAIN_SHIFT 4   /* its moving average's gain g = 1/16 per ack
                          (DCTCP's recommended g, Alizadeh et al. 2010
                          §3.4, there per window of packets) */

struct sls {
    const struct net *n; /* for its packets' NIC-end times */
    struct cc_pairs t;
    uint32_t wmax, wmin, inc; /* FP */
    uint32_t mark_flits;      /* the switches' endpoint mark level */
};

static int sls_init(void **st, struct net *n, const void *params,
                    struct nic_ctl_setup *setup, char *err, size_t len)
{
    const struct cc_slingshot_params *p = params;
    uint32_t wmax = p->window_max ? p->window_max : n->p.max_outstanding;
    if (!(p->window_min >= 1.0 / FP) || wmax < p->window_min ||
        wmax > (1u << 22)) {
        snprintf(err, len, "slingshot congestion control needs 1/256 <= "
                           "cc_window_min <= cc_window_max <= 4194304");
        return -1;
    }
    struct sls *s = calloc(1, sizeof *s);
    if (!s || cc_pairs_init(&s->t, 1024) != 0) {
        free(s);
        snprintf(err, len, "out of memory");
        return -1;
    }
    s->n = n;
    s->wmax = wmax * FP;
    s->wmin = (uint32_t)(p->window_min * FP + 0.5);
    s->inc = p->increase * FP;
    s->mark_flits = p->mark_flits;
    setup->mark_above = p->mark_flits; /* sls_mark */
    *st = s;
    return 0;
}

static void sls_free(void *st)
{
    struct sls *s = st;
    if (s)
        cc_pairs_free(&s->t);
    free(s);
}

static simtime sls_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    struct sls *s = st;
    const struct cc_pair *e = cc_pairs_find(&s->t, src, dst);
    if (!e || (uint64_t)(e->out + 1) * FP <= e->win)
        return now;
    if (e->win < FP && e->out == 0) /* paced */
        return e->next_ok > now ? e->next_ok : now;
    return SIMTIME_MAX; /* an ack reopens it */
}

/* The switch's side: a packet routed to the port of its destination NIC
 * while more than mark_flits wait there is marked — a request (its
 * response brings the mark back to the pair's source) or a response (the
 * data of a GET: it brings the mark itself to the NIC that pulls, the
 * pair's source). Only streams toward the congested endpoint pass that
 * port. */
static void sls_mark(void *st, struct net *n, uint32_t router,
                     struct packet *p, uint32_t q)
{
    const struct sls *s = st;
    (void)router;
    if (n->out[p->out_port].nic != NET_NONE && q > s->mark_flits)
        p->mark |= PKT_MARK_ENDPOINT;
}

static void sls_sent(void *st, const struct packet *p, simtime now)
{
    struct sls *s = st;
    (void)now;
    struct cc_pair *e = cc_pairs_get(&s->t, p->src_nic, p->dst_nic, s->wmax);
    if (e) /* else out of memory: the pair goes untracked */
        e->out++;
}

static void sls_acked(void *st, const struct packet *p, simtime now)
{
    struct sls *s = st;
    /* a response: it goes from the request's destination to its source */
    struct cc_pair *e = cc_pairs_find(&s->t, p->dst_nic, p->src_nic);
    if (!e)
        return;
    if (e->out)
        e->out--;
    /* the response's t_created: its request left the source */
    simtime rtt = now - net_pkt_cold(s->n, p)->t_created;
    bool marked = (p->mark & PKT_MARK_ENDPOINT) != 0;
    /* alpha = 1 - calm: the marked share, g = 1/2^GAIN_SHIFT per ack */
    int32_t calm = (int32_t)e->calm;
    calm += ((marked ? 0 : ALPHA_ONE) - calm) / (1 << GAIN_SHIFT);
    e->calm = (uint32_t)calm;
    if (marked) {
        if (now >= e->cut_until) {
            uint64_t in = (uint64_t)(e->out + 1) * FP;
            uint64_t w = in < e->win ? in : e->win;
            /* w (1 - alpha / 2) */
            w -= w * (ALPHA_ONE - e->calm) / (2 * ALPHA_ONE);
            e->win = (uint32_t)(w > s->wmin ? w : s->wmin);
            e->cut_until = now + rtt;
        }
    } else if (e->win < s->wmax) {
        uint64_t w = e->win >= FP
                         ? e->win + (uint64_t)s->inc * FP / e->win
                         : e->win + (uint64_t)s->inc;
        e->win = (uint32_t)(w < s->wmax ? w : s->wmax);
    }
    if (e->win < FP) /* one packet per rtt / w: the next after another
                        rtt (1 - w) / w */
        e->next_ok = now + (simtime)((uint64_t)rtt * (FP - e->win) /
                                     e->win);
    if (e->out == 0 && e->win >= s->wmax)
        cc_pairs_del(&s->t, e);
}

/* Defaults (see the header): the NIC's outstanding limit, 1/32 packet,
 * one packet per round trip, and marks above four of the network's
 * largest packets. */
static void sls_defaults(void *params, const struct net_params *p,
                         const struct topo *t)
{
    (void)t;
    struct cc_slingshot_params *c = params;
    uint32_t pk = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t big = net_rsp_flits(p, NET_GET, p->max_payload);
    c->mark_flits = 4 * (big > pk ? big : pk);
    c->window_max = 0; /* the NIC's max_outstanding */
    c->window_min = 1.0 / 32;
    c->increase = 1;
}

/* A throttled pair's least window cannot be above its largest. */
static int sls_check(const void *params, const struct net_params *p,
                     const char **key, char *why, size_t len)
{
    const struct cc_slingshot_params *c = params;
    uint32_t wmax = c->window_max ? c->window_max : p->max_outstanding;
    if (c->window_min > wmax) {
        *key = "cc_window_min";
        snprintf(why, len, "%g is above the largest window %u "
                 "(cc_window_max, else max_outstanding)", c->window_min,
                 wmax);
        return -1;
    }
    return 0;
}

#define KEY(NAME, TYPE, FIELD, LO, HI, HELP)                                 \
    { .name = NAME, .type = TYPE,                                            \
      .offset = offsetof(struct cc_slingshot_params, FIELD), .min = LO,      \
      .max = HI, .help = HELP }

static const struct cfg_key sls_keys[] = {
    KEY("cc_mark_flits", CFG_UINT32, mark_flits, 0, 1 << 24,
        "a switch marks a request for its destination's port while more "
        "flits wait for that port (4 largest packets)"),
    KEY("cc_window_max", CFG_UINT32, window_max, 1, 1 << 22,
        "slingshot: packets an endpoint pair may have outstanding "
        "unthrottled (max_outstanding)"),
    { .name = "cc_window_min", .type = CFG_FLOAT,
      .offset = offsetof(struct cc_slingshot_params, window_min),
      .fmin = 1.0 / 256, .fmax = 1 << 22,
      .help = "slingshot: the least window of a throttled pair, packets; "
              "below 1 the pair is paced to one packet per round trip / "
              "window (1/32)" },
    KEY("cc_increase", CFG_UINT32, increase, 0, 1 << 16,
        "slingshot: window growth per round trip without marks, packets "
        "(1)"),
    { .name = NULL },
};

static const struct net_part sls_part = {
    .name = "slingshot",
    .keys = sls_keys,
    .params_size = sizeof(struct cc_slingshot_params),
    .defaults = sls_defaults,
    .check = sls_check,
};

const struct nic_ctl cc_slingshot = {
    .base = { "slingshot", "Slingshot endpoint congestion control: per "
                           "endpoint-pair windows cut by the marks of a "
                           "congested destination port (SC'20 §II-D; "
                           "inferred)" },
    .roles = NIC_CTL_RATE,
    .part = &sls_part,
    .init = sls_init,
    .free = sls_free,
    .admit = sls_admit,
    .inject = sls_sent,
    .ack = sls_acked,
    .mark = sls_mark,
};

double cc_slingshot_window(const void *st, uint32_t src, uint32_t dst)
{
    const struct sls *s = st;
    const struct cc_pair *e = cc_pairs_find(&s->t, src, dst);
    return (double)(e ? e->win : s->wmax) / FP;
}
