/* ctl/dcqcn.c — DCQCN (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015), the rate control of RoCE networks and
 * Netscope's baseline (ICS'21 §5, §6).
 *
 * The three parts of the algorithm and where they are here:
 *
 *   CP, the switches (this controller's router-output hook, dcqcn_mark):
 *   a packet routed to an output with
 *   q bytes already waiting for it is ECN-marked with probability 0 below
 *   K_min, P_max (q - K_min) / (K_max - K_min) between, 1 above K_max
 *   (RED on the egress queue). Requests and responses alike: the data of
 *   a GET travels in its responses.
 *
 *   NP, the destination: a marked packet makes it send a congestion
 *   notification (CNP) to the source, at most one per flow every
 *   cnp_interval. Here the marks come back on the response (Aries' and
 *   Slingshot's end-to-end acknowledgement, ctl/cc.h), and the source
 *   takes at most one marked response per cnp_interval as a CNP: the same
 *   rate of notifications, carried by the ack instead of a separate
 *   packet (inferred; the CNP's own travel is not modelled).
 *
 *   RP, the source NIC, per flow (an endpoint pair): a current rate R_C
 *   and a target R_T, line rate at first, and alpha (1 at first). On a
 *   CNP: R_T = R_C, R_C = R_C (1 - alpha / 2), alpha = (1 - g) alpha + g,
 *   the increase stages restart. Every alpha_interval without a CNP:
 *   alpha = (1 - g) alpha. The rate increases on each expiry of a timer
 *   (every `timer`) and each `byte_counter` bytes sent: while both stage
 *   counts are below F, fast recovery R_C = (R_T + R_C) / 2; once one is
 *   past F, additive increase R_T += R_AI; once both are, hyper increase
 *   R_T += i R_HAI (i = the smaller count - F); then R_C = (R_T + R_C) / 2
 *   (Zhu et al. Fig. 7, Algorithm 1). The NIC sends the flow's packets
 *   paced at R_C, counting their data bytes (a request's payload: a PUT's
 *   data, or the data a GET asks for, whose responses carry it).
 *
 * Timers advance lazily: whenever a flow is looked at, the alpha decays
 * and timer expiries due since it was last looked at are applied in order
 * (all before the event at hand), so no event is needed per flow. A flow
 * back at line rate with alpha decayed below 1/256 is forgotten.
 *
 * Defaults (dcqcn_defaults): the authors' ns-3 configuration (repo:bobzhuyb/ns3-rdma
 * mix/config.txt): g = 1/256, CNP interval 50 us, alpha resume interval
 * 55 us, rate-increase timer 60 us, byte counter 300,000 B, F = 5, R_AI
 * 40 Mb/s, R_HAI 200 Mb/s; the marking thresholds K_min = 5 KB, K_max =
 * 100 KB, P_max = 0.01 of a public DCQCN validation (repo:sc20anonymous/
 * DCQCN-validation), as the ns-3 file does not give its units. Those are
 * Ethernet thresholds: on Aries, whose input buffers hold a few hundred
 * 6-byte flits, an output's queue reaches 5 KB only where many inputs
 * wait for it (an incast's root). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/time.h"
#include "ctl/cc.h"

/* A flow's reaction-point state. */
struct dcqcn_flow {
    double rc, rt;        /* current and target rate, bytes per ps */
    double alpha;
    simtime next_ok;      /* its next packet may leave then (pacing) */
    simtime last_cnp;     /* the last marked response taken as a CNP */
    simtime alpha_at;     /* the next alpha decay */
    simtime timer_at;     /* the next rate-increase timer expiry */
    uint64_t bytes;       /* sent since the last byte-counter stage */
    uint32_t it, ib;      /* timer and byte-counter stages since a CNP */
    uint32_t next_free;   /* free list */
};

struct dcqcn {
    struct cc_pairs t;    /* pair -> aux: index into flow */
    struct dcqcn_flow *flow;
    uint32_t cap, used, free_head;
    double line;          /* NIC line rate, bytes per ps */
    double g, rai, rhai;  /* rates in bytes per ps */
    simtime cnp_interval, alpha_interval, timer;
    uint64_t byte_counter;
    uint32_t f;
    struct cc_dcqcn_params p; /* the routers' marking */
    uint32_t kmin_flits;      /* K_min in flits, rounded down */
    struct dcqcn_stats st;
};

#define NO_FLOW UINT32_MAX

static double gbps_to_bpps(double gbps)
{
    return gbps * 1e9 / 8.0 / 1e12; /* bytes per picosecond */
}

static int dcqcn_init(void **st, struct net *n, const void *params,
                      struct nic_ctl_setup *setup, char *err, size_t len)
{
    const struct cc_dcqcn_params *p = params;
    if (!(p->g > 0 && p->g < 1) || p->ecn_kmax <= p->ecn_kmin ||
        !(p->ecn_pmax > 0 && p->ecn_pmax <= 1) ||
        !(p->cnp_interval_us >= 0) ||
        !(p->alpha_interval_us > 0) || !(p->timer_us > 0) ||
        p->byte_counter == 0 || !(p->rate_ai_gbps > 0) ||
        !(p->rate_hai_gbps > 0)) {
        snprintf(err, len, "dcqcn needs 0 < g < 1, cc_ecn_kmin < "
                           "cc_ecn_kmax, 0 < cc_ecn_pmax <= 1, positive "
                           "intervals, byte counter and rate steps");
        return -1;
    }
    struct dcqcn *d = calloc(1, sizeof *d);
    if (!d || cc_pairs_init(&d->t, 1024) != 0) {
        free(d);
        snprintf(err, len, "out of memory");
        return -1;
    }
    d->free_head = NO_FLOW;
    /* a flow starts, and recovers to, the NIC's line rate: the rate its
     * messages leave at when nothing holds them (10.24 GB/s on Aries,
     * net.h net_nic_line_rate) */
    d->line = net_nic_line_rate(n);
    d->g = p->g;
    d->rai = gbps_to_bpps(p->rate_ai_gbps);
    d->rhai = gbps_to_bpps(p->rate_hai_gbps);
    d->cnp_interval = (simtime)llround(p->cnp_interval_us * SIMTIME_US);
    d->alpha_interval = (simtime)llround(p->alpha_interval_us * SIMTIME_US);
    d->timer = (simtime)llround(p->timer_us * SIMTIME_US);
    if (d->alpha_interval == 0)
        d->alpha_interval = 1;
    if (d->timer == 0)
        d->timer = 1;
    d->byte_counter = p->byte_counter;
    d->f = p->fast_recovery;
    d->p = *p;
    /* bytes to flits, rounded down: q <= this is q bytes <= kmin */
    d->kmin_flits = p->ecn_kmin / n->p.flit_bytes;
    setup->mark_above = d->kmin_flits;
    *st = d;
    return 0;
}

static void dcqcn_free(void *st)
{
    struct dcqcn *d = st;
    if (!d)
        return;
    cc_pairs_free(&d->t);
    free(d->flow);
    free(d);
}

/* One rate-increase stage (a timer expiry or a byte-counter stage). */
static void increase(struct dcqcn *d, struct dcqcn_flow *f)
{
    /* Zhu et al. Algorithm 1: the stage is chosen by the two counts since
     * the last CNP — fast recovery while both are under F (R_C halves its
     * distance to the target it was cut from, R_T unchanged), hyper increase
     * once both are past F, additive increase between — then R_C moves
     * halfway to R_T. A timer alone (a flow that sends little) or bytes
     * alone (one that sends much) advance the stages. */
    uint32_t hi = f->it > f->ib ? f->it : f->ib;
    uint32_t lo = f->it < f->ib ? f->it : f->ib;
    if (hi < d->f) {
        d->st.fast_recovery++;
    } else if (lo > d->f) {
        f->rt += (double)(lo - d->f) * d->rhai;
        d->st.hyper_increase++;
    } else {
        f->rt += d->rai;
        d->st.additive_increase++;
    }
    if (f->rt > d->line)
        f->rt = d->line;
    f->rc = (f->rt + f->rc) / 2;
}

/* Apply the alpha decays and timer expiries due at or before now. */
static void advance(struct dcqcn *d, struct dcqcn_flow *f, simtime now)
{
    /* alpha decays by (1 - g) once per alpha_interval without a CNP: k
     * intervals have passed since the decay due at alpha_at */
    if (now >= f->alpha_at) {
        uint64_t k = (now - f->alpha_at) / d->alpha_interval + 1;
        f->alpha *= pow(1 - d->g, (double)k);
        f->alpha_at += k * d->alpha_interval;
    }
    /* each timer expiry since the last look is one stage, in order (a
     * stage's effect depends on the counts before it) */
    while (now >= f->timer_at && f->rc < d->line) {
        f->it++;
        increase(d, f);
        f->timer_at += d->timer;
    }
    if (now >= f->timer_at) /* at line rate: the timer keeps no count */
        f->timer_at = now + d->timer;
}

/* The flow of pair (src, dst), or NULL if it is not throttled. */
static struct dcqcn_flow *find(const struct dcqcn *d, uint32_t src,
                               uint32_t dst)
{
    const struct cc_pair *e = cc_pairs_find(&d->t, src, dst);
    return e ? &d->flow[e->aux] : NULL;
}

/* The flow of pair (src, dst), added at line rate if missing; NULL out
 * of memory. */
static struct dcqcn_flow *get(struct dcqcn *d, uint32_t src, uint32_t dst,
                              simtime now)
{
    struct cc_pair *e = cc_pairs_find(&d->t, src, dst);
    if (e)
        return &d->flow[e->aux];
    uint32_t i = d->free_head;
    if (i != NO_FLOW) {
        d->free_head = d->flow[i].next_free;
    } else {
        if (d->used == d->cap) {
            uint32_t cap = d->cap ? 2 * d->cap : 256;
            struct dcqcn_flow *fl = realloc(d->flow, cap * sizeof *fl);
            if (!fl)
                return NULL;
            d->flow = fl;
            d->cap = cap;
        }
        i = d->used++;
    }
    e = cc_pairs_get(&d->t, src, dst, 0);
    if (!e) {
        d->flow[i].next_free = d->free_head;
        d->free_head = i;
        return NULL;
    }
    e->aux = i;
    d->flow[i] = (struct dcqcn_flow){
        .rc = d->line, .rt = d->line, .alpha = 1.0, .next_ok = now,
        .last_cnp = 0, .alpha_at = now + d->alpha_interval,
        .timer_at = now + d->timer, .next_free = NO_FLOW };
    return &d->flow[i];
}

static void forget(struct dcqcn *d, uint32_t src, uint32_t dst)
{
    struct cc_pair *e = cc_pairs_find(&d->t, src, dst);
    if (!e)
        return;
    d->flow[e->aux].next_free = d->free_head;
    d->free_head = e->aux;
    cc_pairs_del(&d->t, e);
}

static simtime dcqcn_admit(void *st, uint32_t src, uint32_t dst,
                           simtime now)
{
    const struct dcqcn_flow *f = find(st, src, dst);
    return f && f->next_ok > now ? f->next_ok : now;
}

static void dcqcn_sent(void *st, const struct packet *p, simtime now)
{
    struct dcqcn *d = st;
    struct dcqcn_flow *f = find(d, p->src_nic, p->dst_nic);
    if (!f) /* at line rate: not paced */
        return;
    advance(d, f, now);
    double bytes = p->payload ? (double)p->payload : 1.0;
    simtime from = f->next_ok > now ? f->next_ok : now;
    /* paced at R_C: the next packet of the pair may leave once this one's
     * data would have gone at the current rate (a request with no payload
     * counts one byte, so pacing never stops) */
    f->next_ok = from + (simtime)llround(bytes / f->rc);
    f->bytes += (uint64_t)bytes;
    /* the byte counter: a stage every byte_counter bytes sent (300,000 B in
     * the authors' ns-3 configuration) */
    while (f->bytes >= d->byte_counter) {
        f->bytes -= d->byte_counter;
        if (f->rc < d->line) {
            f->ib++;
            increase(d, f);
        }
    }
}

static void dcqcn_acked(void *st, const struct packet *p, simtime now)
{
    struct dcqcn *d = st;
    /* a response: from the request's destination back to its source */
    uint32_t src = p->dst_nic, dst = p->src_nic;
    /* a pair is tracked from its first marked ack on; an unmarked ack of an
     * untracked pair changes nothing (it runs at line rate) */
    bool marked = (p->mark & PKT_MARK_ECN) != 0;
    struct dcqcn_flow *f = marked ? get(d, src, dst, now)
                                  : find(d, src, dst);
    if (!f)
        return;
    advance(d, f, now);
    if (marked && (f->last_cnp == 0 ||
                   now - f->last_cnp >= d->cnp_interval)) {
        /* The reaction point's cut (Zhu et al., Algorithm 1): the rate cut
         * from becomes the target, R_C is cut by alpha / 2, alpha moves
         * toward 1, and the increase stages and their timers restart. At
         * most one CNP per pair per cnp_interval: the notification point
         * sends at most one per flow every N us (50 in the authors' ns-3
         * configuration). */
        f->last_cnp = now;
        f->rt = f->rc;
        f->rc *= 1 - f->alpha / 2;
        f->alpha = (1 - d->g) * f->alpha + d->g;
        f->it = f->ib = 0;
        f->bytes = 0;
        f->alpha_at = now + d->alpha_interval;
        f->timer_at = now + d->timer;
        d->st.cnps++;
    }
    if (f->rc >= d->line && f->alpha < 1.0 / 256)
        forget(d, src, dst);
}

double cc_ecn_probability(const struct cc_dcqcn_params *p, uint64_t bytes)
{
    if (bytes <= p->ecn_kmin)
        return 0;
    if (bytes > p->ecn_kmax)
        return 1;
    return p->ecn_pmax * (double)(bytes - p->ecn_kmin) /
           (double)(p->ecn_kmax - p->ecn_kmin);
}

/* CP: a packet routed to an output with q flits already waiting for it
 * (more than kmin's) is marked with probability cc_ecn_probability, drawn
 * from router r's stream only when it is not 0 or 1. */
static void dcqcn_mark(void *st, struct net *n, uint32_t r, struct packet *p,
                       uint32_t q)
{
    const struct dcqcn *d = st;
    if (q <= d->kmin_flits) /* below K_min (another controller marks from
                               fewer): no draw */
        return;
    /* the egress queue in bytes: the routers count flits (Aries 6 B, Gemini
     * 3 B, Slingshot 1 B) */
    double pr = cc_ecn_probability(&d->p, (uint64_t)q * n->p.flit_bytes);
    if (pr >= 1 || rng_unit(&n->router_rng[r]) < pr)
        p->mark |= PKT_MARK_ECN;
}

/* The authors' ns-3 constants, the marking thresholds of a public
 * validation (the header cites both). */
static void dcqcn_defaults(void *params, const struct net_params *p,
                           const struct topo *t)
{
    (void)p, (void)t;
    *(struct cc_dcqcn_params *)params = (struct cc_dcqcn_params){
        .ecn_kmin = 5 * 1024,
        .ecn_kmax = 100 * 1024,
        .ecn_pmax = 0.01,
        .g = 1.0 / 256,
        .cnp_interval_us = 50,
        .alpha_interval_us = 55,
        .timer_us = 60,
        .byte_counter = 300000,
        .fast_recovery = 5,
        .rate_ai_gbps = 0.04,
        .rate_hai_gbps = 0.2,
    };
}

/* RED's thresholds in order. */
static int dcqcn_check(const void *params, const struct net_params *p,
                       const char **key, char *why, size_t len)
{
    const struct cc_dcqcn_params *c = params;
    (void)p;
    if (c->ecn_kmax <= c->ecn_kmin) {
        *key = "cc_ecn_kmax";
        snprintf(why, len, "%u bytes is not above cc_ecn_kmin (%u)",
                 c->ecn_kmax, c->ecn_kmin);
        return -1;
    }
    return 0;
}

#define U32(NAME, FIELD, LO, HI, HELP)                                       \
    { .name = NAME, .type = CFG_UINT32,                                      \
      .offset = offsetof(struct cc_dcqcn_params, FIELD), .min = LO,          \
      .max = HI, .help = HELP }
#define FLT(NAME, FIELD, LO, HI, HELP)                                       \
    { .name = NAME, .type = CFG_FLOAT,                                       \
      .offset = offsetof(struct cc_dcqcn_params, FIELD), .fmin = LO,         \
      .fmax = HI, .help = HELP }

static const struct cfg_key dcqcn_keys[] = {
    U32("cc_ecn_kmin", ecn_kmin, 0, 1u << 30,
        "dcqcn: a router output marks ECN above this many bytes waiting for "
        "it (5120)"),
    U32("cc_ecn_kmax", ecn_kmax, 1, 1u << 30,
        "dcqcn: ... and marks every packet above this many (102400)"),
    FLT("cc_ecn_pmax", ecn_pmax, 1e-9, 1,
        "dcqcn: marking probability at cc_ecn_kmax (0.01)"),
    FLT("dcqcn_g", g, 1e-9, 0.999999, "dcqcn: alpha's gain g (1/256)"),
    FLT("dcqcn_cnp_interval_us", cnp_interval_us, 0, 1e9,
        "dcqcn: at most one notification per pair per this, us (50)"),
    FLT("dcqcn_alpha_interval_us", alpha_interval_us, 1e-3, 1e9,
        "dcqcn: alpha decays once per this without a notification, us "
        "(55)"),
    FLT("dcqcn_timer_us", timer_us, 1e-3, 1e9,
        "dcqcn: rate-increase timer, us (60)"),
    U32("dcqcn_byte_counter", byte_counter, 1, 1u << 31,
        "dcqcn: bytes sent per rate-increase stage (300000)"),
    U32("dcqcn_fast_recovery", fast_recovery, 0, 1000,
        "dcqcn: F, stages of fast recovery before additive increase (5)"),
    FLT("dcqcn_rate_ai_gbps", rate_ai_gbps, 1e-9, 1e6,
        "dcqcn: additive increase step, Gb/s (0.04)"),
    FLT("dcqcn_rate_hai_gbps", rate_hai_gbps, 1e-9, 1e6,
        "dcqcn: hyper increase step, Gb/s (0.2)"),
    { .name = NULL },
};

static const struct net_part dcqcn_part = {
    .name = "dcqcn",
    .keys = dcqcn_keys,
    .params_size = sizeof(struct cc_dcqcn_params),
    .defaults = dcqcn_defaults,
    .check = dcqcn_check,
};

const struct nic_ctl cc_dcqcn = {
    .base = { "dcqcn", "DCQCN: routers ECN-mark by queue length (RED), "
                       "the source paces each endpoint pair at a rate cut "
                       "per notification and raised by timer and byte "
                       "counter (Zhu et al. SIGCOMM'15; Netscope's "
                       "baseline)" },
    .roles = NIC_CTL_RATE,
    .part = &dcqcn_part,
    .init = dcqcn_init,
    .free = dcqcn_free,
    .admit = dcqcn_admit,
    .inject = dcqcn_sent,
    .ack = dcqcn_acked,
    .mark = dcqcn_mark,
};

double cc_dcqcn_rate(const void *st, uint32_t src, uint32_t dst)
{
    const struct dcqcn *d = st;
    const struct dcqcn_flow *f = find(d, src, dst);
    return f ? f->rc : d->line;
}

struct dcqcn_stats cc_dcqcn_stats(const void *st)
{
    return ((const struct dcqcn *)st)->st;
}
