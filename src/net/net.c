/* net/net.c — see net.h for what is modelled. */
#include "net/net.h"

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "route/route.h"

struct net_nic {
    uint32_t req_head, req_tail; /* messages with requests still to inject */
    uint32_t rsp_head, rsp_tail; /* response packets waiting to go */
    uint32_t outstanding;        /* requests awaiting their response */
    simtime next_inject;         /* rate limit: earliest next injection */
    simtime wake_at;             /* pending NIC_WAKE, SIMTIME_MAX if none */
    bool cr_wait;                /* waits for injection credits: a credit
                                    return to one of its ports wakes it */
};

/* ---- parameters --------------------------------------------------- */

void net_params_defaults(struct net_params *p, const struct topo *t)
{
    memset(p, 0, sizeof *p);
    p->expand_num = p->expand_den = 1;
    p->link_eff_num = p->link_eff_den = 1;
    p->max_outstanding = 1024; /* Aries ORB: SC'19 §2.1; assumed elsewhere */
    p->vcs = 4;
    /* SC'19 §2.1: inside the NIC a request is one header flit plus one to
     * four 16-byte payload flits; assumed for Gemini and Slingshot NICs */
    p->nic_flit_bytes = 16;
    switch (t->family) {
    case TOPO_ARIES:
        /* XC white paper, "Aries Performance": 48-bit flits; a 64 B PUT is
         * 14 request flits + 1 response flit, a GET 3 + 12. So a request
         * header is 3 flits, a response header 1, and data ceil(n/6). */
        p->flit_bytes = 6;
        p->max_payload = 64;
        p->req_header = 3;
        p->rsp_header = 1;
        /* "a 64-byte read or write every five cycles" at 800 MHz */
        p->nic_gap = time_from_cycles(5, TIME_HZ_ARIES_NIC);
        /* "each router-to-router hop adds approximately 100ns" */
        p->router_delay = 100 * SIMTIME_NS;
        /* Buffer sizes are not public. The white paper: input buffering
         * covers the round trip of a 35 m optical cable so that one VC
         * reaches full bandwidth. Round trip = 2 x wire + router delay:
         * 35 m -> 450 ns = 355 flits at 5.25 GB/s x 9/10 -> 384; a 3 m
         * copper or backplane link -> 130 ns = 103 flits -> 128. */
        p->buf_local = 128;
        p->buf_global = 384;
        p->buf_endpoint = 128;
        /* "distributes the information to its neighbors every 10 cycles" */
        p->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
        /* LCB: ten flits per set, one of them CRC/clock/load: 9/10 */
        p->link_eff_num = 9;
        p->link_eff_den = 10;
        break;
    case TOPO_SLINGSHOT:
        /* SC'20 §II-G: up to 4 KiB of data per packet plus 62 B of
         * Ethernet (26 with preamble), IPv4 (20), UDP (8), IB (14) and
         * RoCEv2 CRC (4). Flits are bytes. A response (end-to-end ack,
         * GET data) carries the same headers. */
        p->flit_bytes = 1;
        p->max_payload = 4096;
        p->req_header = 62;
        p->rsp_header = 62;
        p->nic_gap = 0; /* NIC packet rate not public: link-limited */
        p->router_delay = 350 * SIMTIME_NS; /* SC'20 §II-A, measured */
        /* Not public. Sized for the round trip at 25 GB/s: 2 x 50 ns +
         * 350 ns = 11 KB locally, longer optical cables 2 x 150 + 350. */
        p->buf_local = 16384;
        p->buf_global = 32768;
        p->buf_endpoint = 16384;
        p->voq = true; /* SC'20 §II-A "virtual output-queued architecture" */
        p->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
        break;
    case TOPO_DRAGONFLY:
        /* A generic Kim-Dally dragonfly: 16 B flits carrying 64 B
         * transactions (as on Aries) with a one-flit header; buffers as
         * CODES dragonfly-custom's defaults (local_vc_size 1024 B,
         * global_vc_size 2048 B, router_delay 100 ns). */
        p->flit_bytes = 16;
        p->max_payload = 64;
        p->req_header = 1;
        p->rsp_header = 1;
        p->nic_gap = 0;
        p->router_delay = 100 * SIMTIME_NS;
        p->buf_local = 64;
        p->buf_global = 128;
        p->buf_endpoint = 64;
        p->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
        break;
    case TOPO_TORUS:
        /* Pedretti et al. §V: 3-byte phits; a 64 B PUT is a 32-phit
         * request + 3-phit response, a GET 8 + 27. So a request header is
         * 8 phits, a response header 3, and 64 B of data 24 phits (72 B on
         * the wire: we scale data by 9/8). */
        p->flit_bytes = 3;
        p->max_payload = 64;
        p->req_header = 8;
        p->rsp_header = 3;
        p->expand_num = 9;
        p->expand_den = 8;
        p->nic_gap = 0;                    /* not public: link-limited */
        p->router_delay = 100 * SIMTIME_NS; /* not in our sources */
        p->vcs = 2;                        /* dateline pair per class */
        p->buf_local = 256;  /* round trip ~160 ns at 0.64 ns/phit */
        p->buf_global = 256;
        p->buf_endpoint = 256;
        p->publish_period = 0;
        break;
    }
    /* Aries congestion is a small saturating number per port: the Cray
     * routing patents (US 9,137,143; as summarised in our reference
     * notes, not verified) describe a 4-bit value, the saturating sum of
     * remapped near-end, far-end and downstream terms, and a bias made of
     * a 2-bit shift and a 6-bit add per routing class. We count one level
     * per maximum-size request packet (14 flits) and saturate at 15, so a
     * quiet port reads 0 and ties go minimal.
     * ADAPTIVE_k biases, in levels (SC'19 §2.2: values not public):
     *  0: none;
     *  1: increasingly minimal: neutral at the injection router, then the
     *     non-minimal level doubled and one more at each later decision
     *     (patents US 9,577,918 / 10,142,235: non-minimal-or-neutral at
     *     injection, increasingly minimal at each hop);
     *  2: low: one level;
     *  3: high: the non-minimal level doubled plus four, as BookSim2's
     *     UGAL weighs a path twice as long (2q + 30 flits). */
    uint32_t pk = net_req_flits(p, NET_PUT, p->max_payload);
    p->load_quantum = pk;
    p->load_levels = 15;
    p->bias[0] = (struct route_bias){ 0, 0, 0, 0 };
    p->bias[1] = (struct route_bias){ 0, 0, 1, 1 };
    p->bias[2] = (struct route_bias){ 0, 1, 0, 0 };
    p->bias[3] = (struct route_bias){ 1, 4, 0, 0 };
    p->ugal_threshold = 3 * pk; /* BookSim2: 30 flits of 10-flit packets */
    p->ss_bias = (struct route_bias){ 1, pk, 0, 0 };
    p->routing = route_default(t->family);
}

static uint32_t data_flits(const struct net_params *p, uint32_t bytes)
{
    uint64_t wire = ((uint64_t)bytes * p->expand_num + p->expand_den - 1) /
                    p->expand_den;
    return (uint32_t)((wire + p->flit_bytes - 1) / p->flit_bytes);
}

uint32_t net_req_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes)
{
    return p->req_header + (op == NET_PUT ? data_flits(p, bytes) : 0);
}

uint32_t net_rsp_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes)
{
    return p->rsp_header + (op == NET_GET ? data_flits(p, bytes) : 0);
}

/* ---- packets and messages ---------------------------------------- */

/* Packets and messages live in flat arrays indexed by id, with a free list
 * threaded through their first member (`next`); an array doubles when it
 * runs out (a few times early in a run, then never). */
_Static_assert(offsetof(struct packet, next) == 0, "next first");
_Static_assert(offsetof(struct message, next) == 0, "next first");

struct slots {
    void **arr;
    size_t size;
    uint32_t *cap, *free, *live;
};

static inline uint32_t *slot_next(void *arr, size_t size, uint32_t i)
{
    return (uint32_t *)((char *)arr + (size_t)i * size);
}

static uint32_t slots_alloc(struct slots sl)
{
    if (*sl.free == NET_NONE) {
        uint32_t old = *sl.cap, cap = old ? old * 2 : 1024;
        void *na = realloc(*sl.arr, (size_t)cap * sl.size);
        if (!na)
            return NET_NONE;
        for (uint32_t i = old; i < cap; i++)
            *slot_next(na, sl.size, i) = i + 1 < cap ? i + 1 : NET_NONE;
        *sl.arr = na;
        *sl.free = old;
        *sl.cap = cap;
    }
    uint32_t id = *sl.free;
    *sl.free = *slot_next(*sl.arr, sl.size, id);
    (*sl.live)++;
    return id;
}

static void slots_release(struct slots sl, uint32_t id)
{
    *slot_next(*sl.arr, sl.size, id) = *sl.free;
    *sl.free = id;
    (*sl.live)--;
}

#define PKT_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->pkt, sizeof *(n)->pkt, &(n)->pkt_cap, \
                     &(n)->pkt_free, &(n)->pkt_live })
#define MSG_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->msg, sizeof *(n)->msg, &(n)->msg_cap, \
                     &(n)->msg_free, &(n)->msg_live })

/* ---- far-end load publication ------------------------------------ */

/* Each input port keeps a short history of its occupancy, one entry per
 * publication epoch in which it changed: (epoch << 24) | occupancy at the
 * end of that epoch. A neighbour reading at time t sees the value
 * published at the start of epoch floor((t - wire) / period), i.e. the
 * occupancy at the end of the newest earlier epoch with a change. */
#define PUB_VAL_MASK ((UINT64_C(1) << 24) - 1)

static void pub_update(struct net *n, uint32_t port, simtime now)
{
    if (!n->publish)
        return;
    uint64_t e = now / n->p.publish_period;
    uint64_t v = n->in_occ[port];
    if (v > PUB_VAL_MASK)
        v = PUB_VAL_MASK;
    uint64_t *ring = n->pub + (size_t)port * NET_PUB_DEPTH;
    uint8_t cnt = n->pub_n[port], top = n->pub_top[port];
    if (cnt && (ring[top] >> 24) == e) {
        ring[top] = (e << 24) | v;
        return;
    }
    if (cnt == NET_PUB_DEPTH) {
        uint8_t oldest = (uint8_t)((top + 1) % NET_PUB_DEPTH);
        n->pub_base[port] = (uint32_t)(ring[oldest] & PUB_VAL_MASK);
        cnt--;
    }
    top = (uint8_t)((top + 1) % NET_PUB_DEPTH);
    ring[top] = (e << 24) | v;
    n->pub_top[port] = top;
    n->pub_n[port] = (uint8_t)(cnt + 1);
}

uint32_t net_port_load_far(const struct net *n, uint32_t port, simtime now)
{
    uint32_t dp = n->t->ports[port].peer;
    if (dp == TOPO_NONE)
        return 0;
    if (!n->publish)
        return n->in_occ[dp];
    simtime lat = n->t->ports[port].latency;
    if (now < lat)
        return n->pub_base[dp];
    uint64_t ve = (now - lat) / n->p.publish_period;
    const uint64_t *ring = n->pub + (size_t)dp * NET_PUB_DEPTH;
    uint8_t cnt = n->pub_n[dp], i = n->pub_top[dp];
    for (uint8_t k = 0; k < cnt; k++) {
        if ((ring[i] >> 24) < ve)
            return (uint32_t)(ring[i] & PUB_VAL_MASK);
        i = (uint8_t)((i + NET_PUB_DEPTH - 1) % NET_PUB_DEPTH);
    }
    return n->pub_base[dp];
}

/* ---- credits on their way back ----------------------------------- */

/* Credits for an output port return one link latency after the flits
 * left the downstream buffer. Instead of one event per return, the
 * downstream router writes the return (its time, VC and flits) into the
 * upstream port's ring, and the upstream applies the returns whose time
 * has come whenever it looks at its credits; it needs an event only to
 * wake a port that waits for them. A read at time t happens after every
 * write of a return due at or before t (the write was made one link
 * latency earlier), so this is exactly the event-per-credit model. When a
 * ring is full the return goes as an ordinary event. The ring of an
 * endpoint port carries the credits of the NIC(s) injecting on it: they
 * apply to inj_credits (the port's ejection direction needs no credits). */
#define CR_TIME(x) ((x) >> 16)
#define CR_VC(x) (((x) >> 13) & 7u)
#define CR_FLITS(x) ((x) & 0x1fffu)

static void credit_sync(struct net *n, uint32_t port, simtime now)
{
    uint8_t cnt = n->cr_n[port];
    if (!cnt)
        return;
    uint64_t *ring = n->cr_ring + (size_t)port * NET_CR_DEPTH;
    uint8_t h = n->cr_head[port];
    bool nic = n->port_nic[port] != NET_NONE;
    int32_t *cred = (nic ? n->inj_credits : n->out_credits) +
                    (size_t)port * n->V;
    while (cnt && CR_TIME(ring[h]) <= now) {
        uint64_t x = ring[h];
        cred[CR_VC(x)] += (int32_t)CR_FLITS(x);
        if (!nic)
            n->out_used[port] -= (uint32_t)CR_FLITS(x);
        h = (uint8_t)((h + 1) % NET_CR_DEPTH);
        cnt--;
    }
    n->cr_head[port] = h;
    n->cr_n[port] = cnt;
}

uint32_t net_port_load_local(struct net *n, uint32_t port, simtime now)
{
    credit_sync(n, port, now);
    return n->out_qflits[port] + n->out_used[port];
}

/* ---- helpers ------------------------------------------------------ */

static inline simtime ser_time(const struct net *n, uint32_t port,
                               uint32_t flits)
{
    return (simtime)(((uint64_t)flits * n->ser_fp[port] + 1023) >> 10);
}

static inline uint32_t port_router(const struct net *n, uint32_t port)
{
    return n->t->ports[port].router;
}

static void nic_try(struct net *n, uint32_t nic);
static void out_grant(struct net *n, uint32_t port);

/* ---- counting (only with p.counters) ----------------------------- */

/* One more / one fewer packet waiting: the interval opens at the first
 * and closes at the last (the accumulator trick of struct net_count). */
static inline void wait_inc(uint32_t *nwait, simtime *acc, simtime now)
{
    if ((*nwait)++ == 0)
        *acc -= now;
}
static inline void wait_dec(uint32_t *nwait, simtime *acc, simtime now)
{
    if (--(*nwait) == 0)
        *acc += now;
}

/* An interval kept open by a condition seen at `now`. */
static inline void stall_set(simtime *since, simtime *acc, bool on,
                             simtime now)
{
    if (on && *since == SIMTIME_MAX)
        *since = now;
    else if (!on && *since != SIMTIME_MAX) {
        *acc += now - *since;
        *since = SIMTIME_MAX;
    }
}

/* Output port `c` stops waiting for credits (it sends): close its open
 * credit-stall intervals. */
static inline void cr_close(struct net_out_count *c, simtime now)
{
    for (uint32_t k = 0; c->cr_open; k++) {
        if (c->cr_open & (1u << k)) {
            c->cr_stall[k] += now;
            c->cr_open &= ~(1u << k);
        }
    }
}

/* Output port `c` waits for credits for a packet of class `k` (2: any). */
static inline void cr_open(struct net_out_count *c, uint32_t k, simtime now)
{
    if (!(c->cr_open & (1u << k))) {
        c->cr_stall[k] -= now;
        c->cr_open |= 1u << k;
    }
}

uint32_t net_nic_flits(const struct net_params *p, const struct packet *pk)
{
    bool data = (pk->cls == PKT_REQ) == (pk->op == NET_PUT);
    return 1 + (data ? ((uint32_t)pk->payload + p->nic_flit_bytes - 1) /
                           p->nic_flit_bytes
                     : 0);
}

/* Make sure NIC `nic` looks at its queues again at time `at`; the event
 * is created by entity `creator`. */
static void nic_wake_by(struct net *n, uint32_t creator, uint32_t nic,
                        simtime at)
{
    struct net_nic *c = &n->nic[nic];
    if (c->wake_at <= at)
        return;
    c->wake_at = at;
    sim_schedule(n->s, creator, at, net_nic_entity(n, nic),
                 NET_EV_NIC_WAKE, 0);
}

static void nic_wake_at(struct net *n, uint32_t nic, simtime at)
{
    nic_wake_by(n, net_nic_entity(n, nic), nic, at);
}

/* Make sure output `port` is looked at again at time `at`; the event is
 * created by entity `creator` (the router whose handler runs). */
static void out_wake_by(struct net *n, uint32_t creator, uint32_t port,
                        simtime at)
{
    if (n->out_wake[port] <= at)
        return;
    n->out_wake[port] = at;
    sim_schedule(n->s, creator, at, port_router(n, port), NET_EV_WAKE,
                 port);
}

static void out_wake_at(struct net *n, uint32_t port, simtime at)
{
    out_wake_by(n, port_router(n, port), port, at);
}

/* Router `r` returns `flits` of VC vc to upstream output `up` at `at`
 * (for an endpoint port: to the NICs injecting on it). */
static void credit_return(struct net *n, uint32_t r, uint32_t up,
                          uint32_t vc, uint32_t flits, simtime at)
{
    uint8_t cnt = n->cr_n[up];
    uint32_t nic = n->port_nic[up];
    if (cnt == NET_CR_DEPTH || flits > 0x1fff) {
        uint64_t arg = (uint64_t)up | ((uint64_t)vc << 32) |
                       ((uint64_t)flits << 40);
        if (nic == NET_NONE)
            sim_schedule(n->s, r, at, port_router(n, up), NET_EV_CREDIT,
                         arg);
        else
            sim_schedule(n->s, r, at, net_nic_entity(n, nic),
                         NET_EV_CREDIT, arg | (UINT64_C(1) << 63));
        return;
    }
    uint64_t *ring = n->cr_ring + (size_t)up * NET_CR_DEPTH;
    uint8_t slot = (uint8_t)((n->cr_head[up] + cnt) % NET_CR_DEPTH);
    if (cnt) {
        /* keep the ring in time order: a short packet leaving right after
         * a long one returns its credits with the long one's */
        simtime last = CR_TIME(ring[(slot + NET_CR_DEPTH - 1) %
                                    NET_CR_DEPTH]);
        if (at < last)
            at = last;
    }
    assert(at < (UINT64_C(1) << 48));
    n->cr_ring[(size_t)up * NET_CR_DEPTH + slot] =
        (at << 16) | ((uint64_t)vc << 13) | flits;
    n->cr_n[up] = (uint8_t)(cnt + 1);
    if (nic != NET_NONE) {
        for (uint32_t k = 0; k < n->port_nics[up]; k++)
            if (n->nic[nic + k].cr_wait)
                nic_wake_by(n, r, nic + k, at);
    } else if (n->out_waiting[up]) {
        out_wake_by(n, r, up, at);
    }
}

/* ---- router ------------------------------------------------------- */

/* Packet id has been routed at router r: queue it for its output. */
static void out_request(struct net *n, uint32_t r, uint32_t id)
{
    struct packet *p = &n->pkt[id];
    route_packet(n, r, p, n->s->now);
    uint32_t out = p->out_port;
    size_t w = (size_t)out * n->V + p->out_vc;
    p->next = NET_NONE;
    if (n->out_wait_head[w] == NET_NONE)
        n->out_wait_head[w] = id;
    else
        n->pkt[n->out_wait_tail[w]].next = id;
    n->out_wait_tail[w] = id;
    n->out_qflits[out] += p->flits;
    n->out_waiting[out]++;
    if (n->ct.vc) {
        struct net_vc_count *cv =
            &n->ct.vc[(size_t)p->in_port * n->V + p->vc];
        struct net_in_count *ci = &n->ct.in[p->in_port];
        wait_inc(&cv->nwait, &cv->stall, n->s->now);
        wait_inc(&ci->nwait, &ci->stall, n->s->now);
    }
    if (n->out_busy[out] <= n->s->now)
        out_grant(n, out);
    else
        out_wake_at(n, out, n->out_busy[out]);
}

/* A packet became eligible at router r (after the pipeline delay). With
 * input FIFOs (Aries, Gemini, generic dragonfly) only the head of each
 * input VC is routed and waits for an output, so a blocked head blocks
 * the packets behind it; with virtual output queues (Slingshot) every
 * packet waits for its own output at once. */
static void in_push(struct net *n, uint32_t r, uint32_t id)
{
    struct packet *p = &n->pkt[id];
    n->in_occ[p->in_port] += p->flits;
    pub_update(n, p->in_port, n->s->now);
    if (n->ct.vc) {
        struct net_vc_count *cv =
            &n->ct.vc[(size_t)p->in_port * n->V + p->vc];
        cv->flits += p->flits;
        cv->pkts++;
    }
    if (n->p.voq) {
        out_request(n, r, id);
        return;
    }
    size_t q = (size_t)p->in_port * n->V + p->vc;
    p->in_next = NET_NONE;
    if (n->in_head[q] == NET_NONE) {
        n->in_head[q] = n->in_tail[q] = id;
        out_request(n, r, id);
    } else {
        n->pkt[n->in_tail[q]].in_next = id;
        n->in_tail[q] = id;
    }
}

static void transmit(struct net *n, uint32_t out, uint32_t id)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    const struct topo_port *op = &n->t->ports[out];
    uint32_t r = op->router;
    simtime end = now + ser_time(n, out, p->flits);
    if (end < p->tail)
        end = p->tail;
    n->out_busy[out] = end;
    if (n->hooks.hop)
        n->hooks.hop(n->hooks.ctx, p, out, now);
    if (n->ct.vc) {
        struct net_vc_count *cv =
            &n->ct.vc[(size_t)p->in_port * n->V + p->vc];
        struct net_in_count *ci = &n->ct.in[p->in_port];
        struct net_out_count *co = &n->ct.out[out];
        wait_dec(&cv->nwait, &cv->stall, now);
        wait_dec(&ci->nwait, &ci->stall, now);
        co->flits[p->cls] += p->flits;
        co->pkts[p->cls]++;
        cr_close(co, now);
    }

    /* the input buffer it leaves; its credits go back upstream one link
     * latency after its tail has left */
    uint32_t ip = p->in_port;
    n->in_occ[ip] -= p->flits;
    pub_update(n, ip, now);
    const struct topo_port *inp = &n->t->ports[ip];
    /* to the upstream router's output port, or to the injecting NICs */
    credit_return(n, r, inp->peer == TOPO_NONE ? ip : inp->peer, p->vc,
                  p->flits, end + inp->latency);

    if (op->peer == TOPO_NONE) {
        /* to the NIC: delivered when the tail arrives */
        sim_schedule(n->s, r, end + op->latency,
                     net_nic_entity(n, p->dst_nic), NET_EV_EJECT, id);
        return;
    }
    uint32_t dp = op->peer;
    size_t c = (size_t)out * n->V + p->out_vc;
    n->out_credits[c] -= p->flits;
    assert(n->out_credits[c] >= 0);
    n->out_used[out] += p->flits;
    p->in_port = dp;
    p->vc = p->out_vc;
    p->tail = end + op->latency;
    p->hops++;
    sim_schedule(n->s, r, now + op->latency + n->p.router_delay,
                 n->t->ports[dp].router, NET_EV_ARRIVE, id);
}

/* Output `port` may be free: grant the next waiting packet — round-robin
 * over VCs, first come first served within a VC — if its downstream VC
 * has room for the whole packet (virtual cut-through). */
static void out_grant(struct net *n, uint32_t port)
{
    simtime now = n->s->now;
    if (!n->out_waiting[port])
        return;
    if (n->out_busy[port] > now) {
        out_wake_at(n, port, n->out_busy[port]);
        return;
    }
    credit_sync(n, port, now);
    uint32_t V = n->V, rr = n->out_rr[port];
    size_t base = (size_t)port * V;
    for (uint32_t i = 0; i < V; i++) {
        uint32_t v = rr + i < V ? rr + i : rr + i - V;
        uint32_t id = n->out_wait_head[base + v];
        if (id == NET_NONE)
            continue;
        struct packet *p = &n->pkt[id];
        if (n->out_credits[base + v] < (int32_t)p->flits)
            continue;
        n->out_rr[port] = (uint8_t)(v + 1 < V ? v + 1 : 0);
        n->out_wait_head[base + v] = p->next;
        n->out_qflits[port] -= p->flits;
        n->out_waiting[port]--;
        uint32_t ip = p->in_port, ivc = p->vc, r = n->t->ports[port].router;
        transmit(n, port, id);
        if (n->out_waiting[port])
            out_wake_at(n, port, n->out_busy[port]);
        if (!n->p.voq) {
            /* the next packet of that input VC becomes its head */
            size_t q = (size_t)ip * V + ivc;
            assert(n->in_head[q] == id);
            uint32_t nx = n->pkt[id].in_next;
            n->in_head[q] = nx;
            if (nx != NET_NONE)
                out_request(n, r, nx);
        }
        return;
    }
    n->st.credit_stalls++;
    if (n->ct.out) { /* the classes waiting for credits, idle link */
        struct net_out_count *co = &n->ct.out[port];
        for (uint32_t i = 0; i < V; i++) {
            uint32_t id = n->out_wait_head[base + i];
            if (id != NET_NONE)
                cr_open(co, n->pkt[id].cls, now);
        }
        cr_open(co, 2, now);
    }
    /* wait for the earliest credit on its way back (or a new one) */
    if (n->cr_n[port])
        out_wake_at(n, port, CR_TIME(n->cr_ring[(size_t)port * NET_CR_DEPTH +
                                                n->cr_head[port]]));
}

static void on_arrive(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    in_push(n, e->target, (uint32_t)e->arg);
    (void)s;
}

static void on_wake(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    if (n->out_wake[port] == s->now)
        n->out_wake[port] = SIMTIME_MAX;
    out_grant(n, port);
    (void)s;
}

static void on_credit(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    uint32_t vc = (uint32_t)(e->arg >> 32) & 0xff;
    int32_t flits = (int32_t)((e->arg >> 40) & 0x7fffff);
    size_t c = (size_t)port * n->V + vc;
    if (e->arg >> 63) {
        n->inj_credits[c] += flits;
        assert(n->inj_credits[c] <= (int32_t)n->buf_cap[port]);
        for (uint32_t k = 0; k < n->port_nics[port]; k++)
            nic_try(n, n->port_nic[port] + k);
        return;
    }
    n->out_credits[c] += flits;
    n->out_used[port] -= (uint32_t)flits;
    assert(n->out_credits[c] <=
           (int32_t)n->buf_cap[n->t->ports[port].peer]);
    if (n->out_waiting[port])
        out_grant(n, port);
    (void)s;
}

/* ---- NIC ---------------------------------------------------------- */

/* Queue a packet (a response) at the back of NIC c's response queue. */
static void rsp_push(struct net *n, uint32_t nic, uint32_t id)
{
    struct net_nic *c = &n->nic[nic];
    n->pkt[id].next = NET_NONE;
    if (c->rsp_head == NET_NONE)
        c->rsp_head = id;
    else
        n->pkt[c->rsp_tail].next = id;
    c->rsp_tail = id;
}

/* The endpoint port NIC `nic` can inject `flits` flits of VC vc on now,
 * the least recently busy one; NET_NONE if none. *soonest gets the time
 * a busy port with room frees, or else the time the next credit comes
 * back to one of its ports (SIMTIME_MAX if none is on its way). */
static uint32_t nic_port(struct net *n, uint32_t nic, uint32_t vc,
                         uint32_t flits, simtime *soonest)
{
    const struct topo_nic *tn = &n->t->nics[nic];
    simtime now = n->s->now;
    uint32_t best = NET_NONE;
    simtime best_busy = SIMTIME_MAX, credit = SIMTIME_MAX;
    *soonest = SIMTIME_MAX;
    for (uint32_t k = 0; k < tn->n_ports; k++) {
        uint32_t port = tn->first_port + k;
        credit_sync(n, port, now);
        if (n->inj_credits[(size_t)port * n->V + vc] < (int32_t)flits) {
            if (n->cr_n[port]) {
                simtime at = CR_TIME(n->cr_ring[(size_t)port * NET_CR_DEPTH +
                                                n->cr_head[port]]);
                if (at < credit)
                    credit = at;
            }
            continue;
        }
        simtime b = n->inj_busy[port];
        if (b > now) {
            if (b < *soonest)
                *soonest = b;
            continue;
        }
        if (best == NET_NONE || b < best_busy) {
            best = port;
            best_busy = b;
        }
    }
    if (best == NET_NONE && *soonest == SIMTIME_MAX) {
        *soonest = credit;
        n->nic[nic].cr_wait = true; /* and any later return wakes it */
    }
    return best;
}

static void nic_inject(struct net *n, uint32_t nic, uint32_t id,
                       uint32_t port)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    const struct topo_port *tp = &n->t->ports[port];
    n->inj_credits[(size_t)port * n->V + p->vc] -= p->flits;
    simtime end = now + ser_time(n, port, p->flits);
    n->inj_busy[port] = end;
    n->nic[nic].next_inject = now + n->p.nic_gap;
    p->t_injected = now;
    p->in_port = port;
    p->tail = end + tp->latency;
    n->st.injected[p->cls]++;
    if (n->ct.nic) {
        struct net_nic_count *k = &n->ct.nic[nic];
        k->flits[p->cls] += net_nic_flits(&n->p, p);
        k->pkts[p->cls]++;
        stall_set(&k->since[p->cls], &k->stall[p->cls], false, now);
    }
    if (n->hooks.hop)
        n->hooks.hop(n->hooks.ctx, p, port, now);
    sim_schedule(n->s, net_nic_entity(n, nic),
                 now + tp->latency + n->p.router_delay, tp->router,
                 NET_EV_ARRIVE, id);
}

/* NIC `nic` could not inject its next packet of class cls: back-pressure
 * (a stall) if it lacks credits, not if its ports are only busy. */
static void nic_blocked(struct net *n, uint32_t nic, uint32_t cls)
{
    if (n->ct.nic)
        stall_set(&n->ct.nic[nic].since[cls], &n->ct.nic[nic].stall[cls],
                  n->nic[nic].cr_wait, n->s->now);
}

/* Inject what NIC `nic` can inject now: responses first, then the next
 * request of the oldest message, within the outstanding-request limit and
 * the injection rate. */
static void nic_try(struct net *n, uint32_t nic)
{
    struct net_nic *c = &n->nic[nic];
    simtime now = n->s->now;
    c->cr_wait = false;
    for (;;) {
        if (c->next_inject > now) {
            if (c->rsp_head != NET_NONE ||
                (c->req_head != NET_NONE &&
                 c->outstanding < n->p.max_outstanding))
                nic_wake_at(n, nic, c->next_inject);
            return;
        }
        simtime soon;
        if (c->rsp_head != NET_NONE) {
            uint32_t id = c->rsp_head;
            struct packet *p = &n->pkt[id];
            uint32_t port = nic_port(n, nic, p->vc, p->flits, &soon);
            if (port == NET_NONE) {
                nic_blocked(n, nic, PKT_RSP);
                if (soon != SIMTIME_MAX)
                    nic_wake_at(n, nic, soon);
                return; /* else a credit return will wake us */
            }
            c->rsp_head = p->next;
            nic_inject(n, nic, id, port);
            continue;
        }
        if (c->req_head == NET_NONE ||
            c->outstanding >= n->p.max_outstanding)
            return;
        uint32_t mid = c->req_head;
        struct message *m = &n->msg[mid];
        uint32_t bytes = m->bytes - m->sent;
        if (bytes > n->p.max_payload)
            bytes = n->p.max_payload;
        uint32_t flits = net_req_flits(&n->p, (enum net_op)m->op, bytes);
        uint32_t port = nic_port(n, nic, 0, flits, &soon);
        if (port == NET_NONE) {
            nic_blocked(n, nic, PKT_REQ);
            if (soon != SIMTIME_MAX)
                nic_wake_at(n, nic, soon);
            return;
        }
        uint32_t id = slots_alloc(PKT_SLOTS(n));
        if (id == NET_NONE) {
            n->s->error = -1; /* out of memory: the run is void */
            sim_stop(n->s);
            return;
        }
        m = &n->msg[mid];
        struct packet *p = &n->pkt[id];
        *p = (struct packet){
            .msg = mid, .src_nic = nic, .dst_nic = m->dst_nic,
            .dst_router = n->t->nics[m->dst_nic].router, .mid = NET_NONE,
            .gport = NET_NONE, .index = m->injected,
            .t_created = m->t_created, .flits = (uint16_t)flits,
            .payload = (uint16_t)bytes, .cls = PKT_REQ, .op = m->op,
            .mode = m->mode, .vc = 0 };
        m->sent += bytes;
        m->injected++;
        if (m->sent >= m->bytes) {
            c->req_head = m->next;
            if (c->req_head == NET_NONE)
                c->req_tail = NET_NONE;
        }
        c->outstanding++;
        nic_inject(n, nic, id, port);
    }
}

static void on_nic_wake(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t nic = e->target - n->n_routers;
    if (n->nic[nic].wake_at == s->now)
        n->nic[nic].wake_at = SIMTIME_MAX;
    nic_try(n, nic);
}

/* A packet's tail reached NIC `e->target`: a request is answered with a
 * response (the same packet record, turned round), a response completes
 * its request. */
static void on_eject(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t id = (uint32_t)e->arg;
    struct packet *p = &n->pkt[id];
    uint32_t nic = e->target - n->n_routers;
    assert(nic == p->dst_nic);
    n->st.delivered[p->cls]++;
    n->st.flits_delivered[p->cls] += p->flits;
    n->st.hops += p->hops;
    if (p->flags & PKT_NONMIN)
        n->st.nonmin[p->cls]++;
    n->st.last_delivery = s->now;
    if (n->hooks.delivered)
        n->hooks.delivered(n->hooks.ctx, p, s->now);
    p = &n->pkt[id];
    uint32_t mid = p->msg;
    if (n->ct.nic) {
        struct net_nic_count *k = &n->ct.nic[nic];
        if ((p->cls == PKT_REQ) == (p->op == NET_PUT)) { /* data to host */
            k->pi_pkts++;
            k->pi_flits += net_nic_flits(&n->p, p);
        }
        if (p->cls == PKT_RSP) {
            k->net_track++;
            k->track_net += s->now - p->t_created;
            k->track_all += s->now - n->msg[mid].t_created;
        }
    }
    if (p->cls == PKT_REQ) {
        struct message *m = &n->msg[mid];
        m->req_arrived++;
        if (m->req_arrived == m->packets && m->sent >= m->bytes &&
            n->hooks.msg_arrived)
            n->hooks.msg_arrived(n->hooks.ctx, mid, m, s->now);
        p = &n->pkt[id];
        uint32_t src = p->src_nic;
        uint8_t mode = p->mode;
        uint32_t flits = net_rsp_flits(&n->p, (enum net_op)p->op,
                                       p->payload);
        uint32_t idx = p->index;
        uint16_t payload = p->payload;
        uint8_t op = p->op;
        simtime t_req = p->t_injected;
        *p = (struct packet){
            .msg = mid, .src_nic = nic, .dst_nic = src,
            .dst_router = n->t->nics[src].router, .mid = NET_NONE,
            .gport = NET_NONE, .index = idx, .t_created = t_req,
            .flits = (uint16_t)flits, .payload = payload, .cls = PKT_RSP,
            .op = op, .mode = mode,
            .vc = (uint8_t)n->p.vcs }; /* first response VC */
        rsp_push(n, nic, id);
        nic_try(n, nic);
        return;
    }
    struct message *m = &n->msg[mid];
    struct net_nic *c = &n->nic[nic];
    c->outstanding--;
    m->rsp_arrived++;
    slots_release(PKT_SLOTS(n), id);
    if (m->rsp_arrived == m->packets && m->sent >= m->bytes) {
        n->st.msgs_done++;
        if (n->hooks.msg_done)
            n->hooks.msg_done(n->hooks.ctx, mid, &n->msg[mid], s->now);
        slots_release(MSG_SLOTS(n), mid);
    }
    nic_try(n, nic);
}

uint32_t net_send(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                  enum net_op op, uint32_t bytes, uint8_t mode, uint64_t tag)
{
    assert(src_nic < n->n_nics && dst_nic < n->n_nics);
    assert(mode < n->n_modes && bytes >= 1);
    uint32_t id = slots_alloc(MSG_SLOTS(n));
    if (id == NET_NONE)
        return NET_NONE;
    struct message *m = &n->msg[id];
    memset(m, 0, sizeof *m);
    m->next = NET_NONE;
    m->src_nic = src_nic;
    m->dst_nic = dst_nic;
    m->bytes = bytes;
    m->packets = (bytes + n->p.max_payload - 1) / n->p.max_payload;
    m->tag = tag;
    m->t_created = n->s->now;
    m->op = (uint8_t)op;
    m->mode = mode;
    struct net_nic *c = &n->nic[src_nic];
    if (c->req_head == NET_NONE)
        c->req_head = id;
    else
        n->msg[c->req_tail].next = id;
    c->req_tail = id;
    n->st.msgs_sent++;
    nic_try(n, src_nic);
    return id;
}

double net_nic_rate(const struct net *n, uint32_t nic, uint32_t flits)
{
    const struct topo_nic *tn = &n->t->nics[nic];
    double rate = 0;
    for (uint32_t k = 0; k < tn->n_ports; k++) {
        uint32_t port = tn->first_port + k;
        double ps = (double)flits * (double)n->ser_fp[port] / 1024.0;
        rate += 1e12 / ps / (double)n->port_nics[port];
    }
    if (n->p.nic_gap) {
        double gap_rate = 1e12 / (double)n->p.nic_gap;
        if (gap_rate < rate)
            rate = gap_rate;
    }
    return rate;
}

/* ---- set-up ------------------------------------------------------- */

int net_add_mode(struct net *n, const struct routing *r)
{
    for (uint32_t i = 0; i < n->n_modes; i++)
        if (n->modes[i] == r)
            return (int)i;
    if (n->n_modes == NET_MAX_MODES)
        return -1;
    n->modes[n->n_modes] = r;
    n->publish = n->publish || (r->algo == RT_ARIES && n->p.publish_period);
    return (int)n->n_modes++;
}

#define ALLOC(ptr, count)                                                  \
    do {                                                                   \
        size_t count_ = (count);                                           \
        (ptr) = calloc(count_ ? count_ : 1, sizeof *(ptr));                \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

/* The same, zeroed and aligned to cache lines, so that records of 16, 32
 * or 64 bytes never straddle two lines. */
static void *calloc_lines(size_t count, size_t size)
{
    size_t bytes = (count ? count : 1) * size;
    bytes = (bytes + 63) / 64 * 64;
    void *m = aligned_alloc(64, bytes);
    if (m)
        memset(m, 0, bytes);
    return m;
}
#define ALLOC_LINES(ptr, count)                                            \
    do {                                                                   \
        (ptr) = calloc_lines((count), sizeof *(ptr));                      \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

int net_init(struct net *n, const struct topo *t, const struct net_params *p,
             struct sim *s, uint64_t seed, struct diag *d)
{
    memset(n, 0, sizeof *n);
    n->t = t;
    n->s = s;
    n->p = *p;
    n->seed = seed;
    n->n_routers = t->n_routers;
    n->n_nics = t->n_nics;
    n->n_ports = t->n_ports;
    n->pkt_free = n->msg_free = NET_NONE;
    if (p->vcs < 1 || 2 * p->vcs > NET_MAX_VCS) {
        diag_error(d, NULL, 0, "network.vcs", "must be 1..%d per class",
                   NET_MAX_VCS / 2);
        return -1;
    }
    if (s->n_entities < net_entities(t)) {
        diag_error(d, NULL, 0, "network", "simulation has %u entities, the "
                   "network needs %u", s->n_entities, net_entities(t));
        return -1;
    }
    if (p->load_quantum < 1 || p->max_payload < 1 || p->flit_bytes < 1) {
        diag_error(d, NULL, 0, "network", "load_quantum, max_payload and "
                   "flit_bytes must be at least 1");
        return -1;
    }
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    if (big > 0xffff) {
        diag_error(d, NULL, 0, "network.max_payload",
                   "packets of %u flits are too large (at most 65535)", big);
        return -1;
    }
    if (p->buf_local < big || p->buf_global < big || p->buf_endpoint < big) {
        diag_error(d, NULL, 0, "network.buffer_local",
                   "every buffer must hold the largest packet (%u flits)",
                   big);
        return -1;
    }
    n->V = 2 * p->vcs;
    size_t P = t->n_ports, PV = P * n->V;
    ALLOC(n->out_busy, P);
    ALLOC(n->out_credits, PV);
    ALLOC(n->out_wait_head, PV);
    ALLOC(n->out_wait_tail, PV);
    ALLOC(n->out_qflits, P);
    ALLOC(n->out_waiting, P);
    ALLOC(n->out_used, P);
    ALLOC(n->out_rr, P);
    ALLOC(n->out_wake, P);
    ALLOC(n->cr_ring, P * NET_CR_DEPTH);
    ALLOC(n->cr_head, P);
    ALLOC(n->cr_n, P);
    ALLOC(n->ser_fp, P);
    ALLOC(n->port_nic, P);
    ALLOC(n->port_nics, P);
    ALLOC(n->in_head, PV);
    ALLOC(n->in_tail, PV);
    ALLOC(n->in_occ, P);
    ALLOC(n->buf_cap, P);
    ALLOC(n->pub, P * NET_PUB_DEPTH);
    ALLOC(n->pub_base, P);
    ALLOC(n->pub_n, P);
    ALLOC(n->pub_top, P);
    ALLOC(n->inj_busy, P);
    ALLOC(n->inj_credits, PV);
    ALLOC(n->nic, t->n_nics);
    ALLOC(n->router_rng, t->n_routers);
    ALLOC(n->nic_rng, t->n_nics);
    if (p->counters) {
        struct net_count *k = &n->ct;
        ALLOC_LINES(k->vc, PV);
        ALLOC_LINES(k->in, P);
        ALLOC_LINES(k->out, P);
        ALLOC(k->nic, t->n_nics);
        for (uint32_t c = 0; c < t->n_nics; c++)
            k->nic[c].since[0] = k->nic[c].since[1] = SIMTIME_MAX;
    }
    for (size_t i = 0; i < PV; i++)
        n->out_wait_head[i] = n->out_wait_tail[i] = n->in_head[i] =
            n->in_tail[i] = NET_NONE;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        n->port_nic[i] = NET_NONE;
        n->out_wake[i] = SIMTIME_MAX;
        enum port_class pc = topo_port_class((enum port_kind)tp->kind);
        n->buf_cap[i] = pc == PCLASS_GLOBAL ? p->buf_global
                        : pc == PCLASS_ENDPOINT ? p->buf_endpoint
                                                : p->buf_local;
        if (tp->bw) {
            /* ps per flit * 1024, with the link-layer efficiency on
             * links between routers (not on-chip NIC links) */
            double ps = (double)p->flit_bytes * 1e12 / (double)tp->bw;
            if (tp->medium != MEDIUM_ONCHIP)
                ps = ps * p->link_eff_den / p->link_eff_num;
            n->ser_fp[i] = (uint64_t)(ps * 1024.0 + 0.5);
        }
    }
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        /* a NIC sinks everything that reaches it: no credits needed */
        for (uint32_t v = 0; v < n->V; v++)
            n->out_credits[(size_t)i * n->V + v] =
                tp->peer != TOPO_NONE ? (int32_t)n->buf_cap[tp->peer]
                                      : INT32_MAX / 2;
        if (topo_port_class((enum port_kind)tp->kind) == PCLASS_ENDPOINT)
            for (uint32_t v = 0; v < n->V; v++)
                n->inj_credits[(size_t)i * n->V + v] =
                    (int32_t)n->buf_cap[i];
    }
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            uint32_t port = tn->first_port + k;
            if (n->port_nic[port] == NET_NONE)
                n->port_nic[port] = c;
            n->port_nics[port]++;
        }
        n->nic[c] = (struct net_nic){ .req_head = NET_NONE,
                                      .req_tail = NET_NONE,
                                      .rsp_head = NET_NONE,
                                      .rsp_tail = NET_NONE,
                                      .wake_at = SIMTIME_MAX };
        n->nic_rng[c] = rng_stream(seed, RNG_NIC, c);
    }
    /* NICs sharing a port must be numbered consecutively (Aries NIC
     * pairs): the credit handler wakes port_nic .. port_nic + count - 1 */
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            uint32_t port = tn->first_port + k;
            if (c >= n->port_nic[port] + n->port_nics[port]) {
                diag_error(d, NULL, 0, "network", "NICs sharing port %u "
                           "are not numbered consecutively", port);
                net_free(n);
                return -1;
            }
        }
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        n->router_rng[r] = rng_stream(seed, RNG_ROUTER, r);
    n->modes[0] = p->routing;
    n->n_modes = 1;
    n->publish = p->routing->algo == RT_ARIES && p->publish_period;
    if (route_init(n, d) < 0) {
        net_free(n);
        return -1;
    }
    sim_on(s, NET_EV_ARRIVE, on_arrive, n);
    sim_on(s, NET_EV_WAKE, on_wake, n);
    sim_on(s, NET_EV_CREDIT, on_credit, n);
    sim_on(s, NET_EV_EJECT, on_eject, n);
    sim_on(s, NET_EV_NIC_WAKE, on_nic_wake, n);
    return 0;
oom:
    diag_error(d, NULL, 0, "network", "out of memory building the model of "
               "%u ports", t->n_ports);
    net_free(n);
    return -1;
}

void net_free(struct net *n)
{
    route_free(n);
    free(n->pkt);
    free(n->msg);
    free(n->out_busy);
    free(n->out_credits);
    free(n->out_wait_head);
    free(n->out_wait_tail);
    free(n->out_qflits);
    free(n->out_waiting);
    free(n->out_used);
    free(n->out_rr);
    free(n->out_wake);
    free(n->cr_ring);
    free(n->cr_head);
    free(n->cr_n);
    free(n->ser_fp);
    free(n->port_nic);
    free(n->port_nics);
    free(n->in_head);
    free(n->in_tail);
    free(n->in_occ);
    free(n->buf_cap);
    free(n->pub);
    free(n->pub_base);
    free(n->pub_n);
    free(n->pub_top);
    free(n->inj_busy);
    free(n->inj_credits);
    free(n->nic);
    free(n->router_rng);
    free(n->nic_rng);
    struct net_count *k = &n->ct;
    free(k->vc);
    free(k->in);
    free(k->out);
    free(k->nic);
    memset(n, 0, sizeof *n);
}

size_t net_bytes(const struct net *n)
{
    size_t P = n->n_ports, PV = P * n->V;
    size_t b = PV * (sizeof *n->out_credits + sizeof *n->out_wait_head * 2 +
                     sizeof *n->in_head * 2 + sizeof *n->inj_credits);
    b += P * (NET_CR_DEPTH * sizeof *n->cr_ring + 2 +
              sizeof *n->out_wake + sizeof *n->out_busy +
              sizeof *n->out_qflits * 3 + 1 +
              sizeof *n->ser_fp + sizeof *n->port_nic + 1 +
              sizeof *n->in_occ + sizeof *n->buf_cap +
              NET_PUB_DEPTH * sizeof *n->pub + sizeof *n->pub_base + 2 +
              sizeof *n->inj_busy);
    b += (size_t)n->n_nics * (sizeof *n->nic + sizeof *n->nic_rng);
    b += (size_t)n->n_routers * sizeof *n->router_rng;
    b += (size_t)n->pkt_cap * sizeof *n->pkt;
    b += (size_t)n->msg_cap * sizeof *n->msg;
    if (n->ct.vc)
        b += PV * sizeof *n->ct.vc +
             P * (sizeof *n->ct.in + sizeof *n->ct.out) +
             (size_t)n->n_nics * sizeof *n->ct.nic;
    return b;
}

int net_check_drained(struct net *n, struct diag *d)
{
    int bad = 0;
    for (uint32_t i = 0; i < n->n_ports; i++)
        credit_sync(n, i, SIMTIME_MAX);
#define FAIL(...)                                                          \
    do {                                                                   \
        if (bad++ < 10)                                                    \
            diag_error(d, NULL, 0, "conservation", __VA_ARGS__);           \
    } while (0)
    if (n->pkt_live)
        FAIL("%u packets still in the network", n->pkt_live);
    if (n->msg_live)
        FAIL("%u messages not complete", n->msg_live);
    if (n->st.injected[PKT_REQ] != n->st.delivered[PKT_REQ])
        FAIL("%llu requests injected, %llu delivered",
             (unsigned long long)n->st.injected[PKT_REQ],
             (unsigned long long)n->st.delivered[PKT_REQ]);
    if (n->st.injected[PKT_RSP] != n->st.delivered[PKT_RSP])
        FAIL("%llu responses injected, %llu delivered",
             (unsigned long long)n->st.injected[PKT_RSP],
             (unsigned long long)n->st.delivered[PKT_RSP]);
    if (n->st.delivered[PKT_REQ] != n->st.delivered[PKT_RSP])
        FAIL("%llu requests delivered but %llu responses",
             (unsigned long long)n->st.delivered[PKT_REQ],
             (unsigned long long)n->st.delivered[PKT_RSP]);
    for (uint32_t i = 0; i < n->n_ports; i++) {
        const struct topo_port *tp = &n->t->ports[i];
        if (n->in_occ[i] || n->out_qflits[i] || n->out_waiting[i] ||
            n->out_used[i])
            FAIL("port %u not empty (buffer %u, queue %u, waiting %u, in "
                 "flight %u)", i, n->in_occ[i], n->out_qflits[i],
                 n->out_waiting[i], n->out_used[i]);
        for (uint32_t v = 0; v < n->V; v++) {
            size_t c = (size_t)i * n->V + v;
            if (tp->peer != TOPO_NONE &&
                n->out_credits[c] != (int32_t)n->buf_cap[tp->peer])
                FAIL("port %u VC %u: %d credits, capacity %u", i, v,
                     n->out_credits[c], n->buf_cap[tp->peer]);
            if (tp->peer == TOPO_NONE && tp->kind != PORT_UNUSED &&
                n->inj_credits[c] != (int32_t)n->buf_cap[i])
                FAIL("NIC port %u VC %u: %d credits, capacity %u", i, v,
                     n->inj_credits[c], n->buf_cap[i]);
            if (n->in_head[c] != NET_NONE)
                FAIL("port %u VC %u: input FIFO not empty", i, v);
        }
    }
#undef FAIL
    return bad ? -1 : 0;
}
