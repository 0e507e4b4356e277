/* net/net.c — see net.h for what is modelled. */
#include "net/net.h"

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/slots.h"
#include "core/zmem.h"
#include "net/routing.h"

/* A NIC's state, in one 64-byte line of a line-aligned array; what it
 * injected since time 0 is apart (struct net_nic_inj), written once a
 * packet. */
struct net_nic {
    simtime next_read, next_write; /* rate limit: earliest next packet
                                    that reads host memory (PUT request,
                                    GET response) / that writes it (PUT
                                    response, GET request) */
    simtime wake_at;             /* pending NIC_WAKE, SIMTIME_MAX if none */
    simtime next_out;            /* its output path (requests and
                                    responses) free again */
    uint32_t req_head, req_tail; /* messages with requests still to inject */
    uint32_t rsp_head, rsp_tail; /* response packets waiting to go */
    uint32_t outstanding;        /* requests awaiting their response */
    uint32_t rsp_held;           /* requests sent to it (granted by its
                                    router) whose response it has not yet
                                    injected: its response slots in use */
    uint32_t ej_rr;              /* the port woken first at the next free
                                    slot */
    bool cr_wait;                /* waits for injection credits: a credit
                                    return to one of its ports wakes it */
    bool ej_wait;                /* a request waits at one of its ports
                                    for a free response slot */
    bool req_turn;               /* with both a request and a response
                                    ready, the request goes next */
};

/* What a NIC injected since time 0, requests and responses (always
 * counted: the offered load of a job, exp/offered.h). */
struct net_nic_inj {
    uint64_t flits; /* network flits */
    uint64_t data;  /* data bytes they carried */
};

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

/* ---- records ------------------------------------------------------ */

/* The sizes net.h promises. */
_Static_assert(sizeof(struct net_out) == 64, "net_out: one line");
_Static_assert(sizeof(struct net_in) == 32, "net_in: half a line");
_Static_assert(sizeof(struct net_ovc) == 16, "net_ovc: 16 bytes");
_Static_assert(sizeof(struct net_ivc) == 8, "net_ivc: 8 bytes");
_Static_assert(sizeof(struct net_ivc) + sizeof(struct net_vc_count) == 40,
               "an input VC and its counting: 40 bytes");
_Static_assert(sizeof(struct net_out_count) == 64, "net_out_count: a line");
_Static_assert(NET_MAX_VCS <= 16, "net_out.vcs_waiting: a bit per VC; "
               "CR_VC: 4 bits");
_Static_assert(sizeof(struct net_nic) == 64, "net_nic: one line");
_Static_assert(sizeof(struct net_nic_count) == 128,
               "net_nic_count: two lines");

/* ---- packets and messages ---------------------------------------- */

/* Packets and messages live in flat arrays indexed by id, with a free list
 * threaded through their first member (`next`): core/slots.h. */
_Static_assert(offsetof(struct packet, next) == 0, "next first");
_Static_assert(offsetof(struct message, next) == 0, "next first");
_Static_assert(NET_NONE == SLOTS_NONE, "one 'none' for ids");

_Static_assert(sizeof(struct packet) == 64, "packet: one line");
_Static_assert(sizeof(struct packet_cold) == 32, "packet_cold: 32 bytes");
#define PKT_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->pkt, sizeof *(n)->pkt, &(n)->pkt_cap, \
                     &(n)->pkt_free, &(n)->pkt_live })
#define MSG_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->msg, sizeof *(n)->msg, &(n)->msg_cap, \
                     &(n)->msg_free, &(n)->msg_live })

/* A free packet id, NET_NONE when out of memory. The arrays double as
 * slots_alloc's would, by realloc (a large block grows in place, so the
 * peak holds one copy), the packets line-aligned inside theirs: when the
 * block moves to another offset within a line, they move with it. */
static uint32_t pkt_alloc(struct net *n)
{
    if (n->pkt_free == NET_NONE) {
        uint32_t old = n->pkt_cap, cap = slots_next_cap(old);
        struct packet_cold *nc =
            realloc(n->pkt_cold, (size_t)cap * sizeof *nc);
        if (!nc)
            return NET_NONE;
        n->pkt_cold = nc;
        size_t at =
            n->pkt ? (size_t)((char *)n->pkt - (char *)n->pkt_raw) : 0;
        char *raw = realloc(n->pkt_raw, (size_t)cap * sizeof *n->pkt + 64);
        if (!raw)
            return NET_NONE;
        n->pkt_raw = raw;
        char *al = raw + (64 - (uintptr_t)raw % 64) % 64;
        if (old && al != raw + at)
            memmove(al, raw + at, (size_t)old * sizeof *n->pkt);
        slots_grown(PKT_SLOTS(n), al, cap);
    }
    return slots_alloc(PKT_SLOTS(n));
}

/* ---- load publication ------------------------------------------- */

/* "Each Aries device computes its load and distributes the information to
 * its neighbors every 10 cycles" (XC white paper): what a router reads of
 * another is the value published at the start of a period, delivered a
 * link latency later. A published quantity — an input buffer's occupancy
 * (NET_PUB_INPUT) or a global port's load (NET_PUB_GLOBAL) — keeps a short
 * history in its port's ring, one entry per publication epoch in which it
 * changed: (epoch << 24) | value at the end of that epoch (metadata in
 * the port's net_in record). A reader at time t with delay d sees the
 * value at the end of the newest epoch before floor((t - d) / period).
 * Entries are written in time order: every change is recorded at its own
 * time, and credit returns (applied lazily) at their due time before any
 * later change of the port and before any read of what it published
 * (net_port_published: a neighbour reading a port its own router has not
 * looked at since the credits came back sees them back, as the hardware's
 * every-period publication of its current credits would show). */
#define PUB_VAL_MASK ((UINT64_C(1) << 24) - 1)

static void pub_record(struct net *n, uint32_t port, uint64_t v, simtime t)
{
    struct net_in *in = &n->in[port];
    uint64_t e = t / n->p.publish_period;
    if (v > PUB_VAL_MASK)
        v = PUB_VAL_MASK;
    uint64_t *ring = n->pub + (size_t)port * NET_PUB_DEPTH;
    uint8_t cnt = in->pub_n, top = in->pub_top;
    if (cnt && (ring[top] >> 24) == e) {
        ring[top] = (e << 24) | v;
        return;
    }
    assert(!cnt || (ring[top] >> 24) < e);
    if (cnt == NET_PUB_DEPTH) {
        uint8_t oldest = (uint8_t)((top + 1) % NET_PUB_DEPTH);
        in->pub_base = (uint32_t)(ring[oldest] & PUB_VAL_MASK);
        cnt--;
    }
    top = (uint8_t)((top + 1) % NET_PUB_DEPTH);
    ring[top] = (e << 24) | v;
    in->pub_top = top;
    in->pub_n = (uint8_t)(cnt + 1);
}

/* The value port's ring held at the start of the epoch containing `at`
 * (or before the first record when at < 0). */
static uint32_t pub_read(const struct net *n, uint32_t port, simtime now,
                         simtime delay)
{
    const struct net_in *in = &n->in[port];
    if (now < delay)
        return in->pub_base;
    uint64_t ve = (now - delay) / n->p.publish_period;
    const uint64_t *ring = n->pub + (size_t)port * NET_PUB_DEPTH;
    uint8_t cnt = in->pub_n, i = in->pub_top;
    for (uint8_t k = 0; k < cnt; k++) {
        if ((ring[i] >> 24) < ve)
            return (uint32_t)(ring[i] & PUB_VAL_MASK);
        i = (uint8_t)((i + NET_PUB_DEPTH - 1) % NET_PUB_DEPTH);
    }
    return in->pub_base;
}

/* Input port `port`'s occupancy changed at `now`. */
static inline void pub_update(struct net *n, uint32_t port, simtime now)
{
    if (n->publish == NET_PUB_INPUT)
        pub_record(n, port, n->in[port].occ, now);
}

uint32_t net_port_load_far(const struct net *n, uint32_t port, simtime now)
{
    const struct net_out *o = &n->out[port];
    uint32_t dp = o->peer;
    if (dp == TOPO_NONE)
        return 0;
    if (n->publish != NET_PUB_INPUT)
        return n->in[dp].occ;
    return pub_read(n, dp, now, o->latency);
}

/* Publishing global port `port` changed its load at time t. */
static inline void gpub_update(struct net *n, uint32_t port, simtime t)
{
    const struct net_out *o = &n->out[port];
    if (o->peer != TOPO_NONE && o->publish)
        pub_record(n, port, (uint64_t)o->qflits + net_out_excess(o), t);
}

void net_port_publish(struct net *n, uint32_t gport, simtime now)
{
    gpub_update(n, gport, now);
}

uint32_t net_port_published(struct net *n, uint32_t gport, simtime now,
                            simtime delay)
{
    const struct net_out *o = &n->out[gport];
    /* the credits back by now lower the load whether or not its own router
     * has looked at the port since (net_credit_sync: applied lazily) */
    net_credit_sync(n, gport, now);
    if (!o->publish)
        return o->qflits + net_out_excess(o);
    return pub_read(n, gport, now, delay);
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
 * queue is full the return goes as an ordinary event. The queue of an
 * endpoint port carries the credits of the NIC(s) injecting on it (the
 * port's ejection direction needs no credits).
 *
 * A port's queue is NET_CR_DEPTH slots holding its cr_n returns at
 * [cr_head, cr_head + cr_n), oldest first. They follow, in the port's
 * credit block, the VCs' credits a return adds to (net_port_credits: 16
 * bytes with 8 VCs), so that applying one reads one line, where adding
 * to the output-VC records (16 bytes a VC, two lines a port with 8 VCs)
 * was a second miss. Most applications are a routing decision's look at
 * a candidate port, which needs the port's credits in use (net_out.used)
 * and not its VCs'. On a port to a router a grant adds the VC's returned
 * credits to its record only when the record alone lacks room for the
 * packet (vc_room): the record counts fewer credits than the VC has,
 * never more, so a grant finds room exactly when it did when every return
 * went to the record at once. The queue is kept at the front, so that a
 * port with few returns on their way touches the block's first line
 * only: an empty queue restarts at slot 0, and a return that would go
 * past that line (cr_first slots; or past the end) moves the queue to the
 * front first when it fits there. net.cr_due[port] is the oldest return's
 * time (SIMTIME_MAX when none): most looks at a port find nothing due (74
 * % of those with returns pending, in a 256-node alltoall), and they read
 * that dense array instead of the port's record and its credit block. */
#define CR_LINE 8 /* slots per 64-byte line */
#define CR_TIME(x) ((x) >> 17)
#define CR_VC(x) (((x) >> 13) & 15u)
#define CR_FLITS(x) ((x) & 0x1fffu)

/* The slots of output `port`'s credit queue, after its credits. */
static inline uint64_t *cr_slots(const struct net *n, uint32_t port)
{
    return n->cr_queue + (size_t)port * n->cr_stride + n->cr_cw;
}

/* Slots of the queue in its block's first line, after the credits: 6
 * with 8 VCs, 4 with 16. */
static inline uint32_t cr_first(const struct net *n)
{
    return CR_LINE - n->cr_cw % CR_LINE;
}

/* Words of a port's credit block before its slots with V VCs: the
 * credits, 16 bits each, rounded up to a word. */
static inline uint32_t cr_credit_words(uint32_t V)
{
    return (V + 3) / 4;
}

/* Words of a port's credit block with V VCs: the credits and the slots,
 * in whole lines (8 VCs: 2 + 32 words, 5 lines; the fifth is touched only
 * by a queue of more than 30 returns). */
static inline uint32_t cr_block_words(uint32_t V)
{
    return (cr_credit_words(V) + NET_CR_DEPTH + CR_LINE - 1) / CR_LINE *
           CR_LINE;
}

/* Whether VC vc of output `port`, a port to a router, has room for
 * `flits`: its record's credits first (*credits), then with those its
 * credit block holds added to them. */
static inline bool vc_room(const struct net *n, uint32_t port, uint32_t vc,
                           int32_t *credits, uint32_t flits)
{
    if (*credits >= (int32_t)flits)
        return true;
    uint16_t *r = &net_port_credits(n, port)[vc];
    *credits += *r;
    *r = 0;
    return *credits >= (int32_t)flits;
}

/* Endpoint port `port`: whether the NICs' credits for its input VC vc
 * come to `flits`, and taking them. */
static inline bool inj_room(const struct net *n, uint32_t port, uint32_t vc,
                            uint32_t flits)
{
    uint32_t a = net_port_credits(n, port)[vc];
    return a >= flits ||
           (n->cr_big && (int64_t)net_ovc_at(n, port, vc)->inj_credits + a >=
                             (int64_t)flits);
}
static inline void inj_take(const struct net *n, uint32_t port, uint32_t vc,
                            uint32_t flits)
{
    uint16_t *a = &net_port_credits(n, port)[vc];
    if (*a >= flits) {
        *a = (uint16_t)(*a - flits);
    } else {
        net_ovc_at(n, port, vc)->inj_credits -= (int32_t)(flits - *a);
        *a = 0;
    }
}

/* `flits` come back to VC vc of output `port` (an endpoint port's NICs'
 * if `endpoint`): to its credit block, or, what would go past 16 bits
 * there (a buffer of more than 65,535 flits), to its record. */
static inline void cr_add(const struct net *n, uint32_t port, uint32_t vc,
                          uint32_t flits, bool endpoint)
{
    uint16_t *a = &net_port_credits(n, port)[vc];
    if (*a + flits <= UINT16_MAX) {
        *a = (uint16_t)(*a + flits);
        return;
    }
    struct net_ovc *w = net_ovc_at(n, port, vc);
    if (endpoint)
        w->inj_credits += (int32_t)flits;
    else
        w->credits += (int32_t)flits;
}

/* net_credit_sync's work, when a return is due (net.h): apart, so that
 * the common look that finds none does not pay for its registers
 * (cachegrind: the prologue and epilogue were half of the instructions of
 * credit_sync, as it was called). */
__attribute__((noinline)) void net_credit_apply(struct net *n, uint32_t port,
                                                simtime now)
{
    struct net_out *o = &n->out[port];
    uint8_t cnt = o->cr_n;
    const uint64_t *q = cr_slots(n, port);
    uint8_t h = o->cr_head;
    if (o->nic != NET_NONE) {
        while (cnt && CR_TIME(q[h]) <= now) {
            uint64_t x = q[h];
            cr_add(n, port, CR_VC(x), CR_FLITS(x), true);
            h++;
            cnt--;
        }
    } else {
        while (cnt && CR_TIME(q[h]) <= now) {
            uint64_t x = q[h];
            cr_add(n, port, CR_VC(x), CR_FLITS(x), false);
            o->used -= (uint32_t)CR_FLITS(x);
            if (o->peer != TOPO_NONE && o->publish)
                pub_record(n, port, (uint64_t)o->qflits + net_out_excess(o),
                           CR_TIME(x));
            h++;
            cnt--;
        }
    }
    o->cr_head = cnt ? h : 0;
    o->cr_n = cnt;
    n->cr_due[port] = cnt ? CR_TIME(q[h]) : SIMTIME_MAX;
}

/* ---- helpers ------------------------------------------------------ */

static inline simtime ser_time(const struct net_out *o, uint32_t flits)
{
    return (simtime)(((uint64_t)flits * o->ser_fp + 1023) >> 10);
}

static inline uint32_t port_router(const struct net *n, uint32_t port)
{
    return n->out[port].router;
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
        if (now > *since) /* an interval opened ahead (nic_try) */
            *acc += now - *since;
        *since = SIMTIME_MAX;
    }
}

/* Output port `port` (record o) stops waiting for credits (it sends):
 * close its open credit-stall intervals. */
static inline void cr_close(struct net *n, struct net_out *o, uint32_t port,
                            simtime now)
{
    if (!o->cr_open)
        return;
    struct net_out_count *c = &n->ct.out[port];
    for (uint32_t k = 0; o->cr_open; k++) {
        if (o->cr_open & (1u << k)) {
            c->cr_stall[k] += now;
            o->cr_open = (uint8_t)(o->cr_open & ~(1u << k));
        }
    }
}

/* Output port `port` (record o) waits for credits for a packet of class
 * `k` (2: any). */
static inline void cr_open(struct net *n, struct net_out *o, uint32_t port,
                           uint32_t k, simtime now)
{
    if (!(o->cr_open & (1u << k))) {
        n->ct.out[port].cr_stall[k] -= now;
        o->cr_open = (uint8_t)(o->cr_open | (1u << k));
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
    struct net_out *o = &n->out[port];
    if (o->wake <= at)
        return;
    o->wake = at;
    sim_schedule(n->s, creator, at, o->router, NET_EV_WAKE, port);
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
    struct net_out *u = &n->out[up];
    uint8_t cnt = u->cr_n;
    uint32_t nic = u->nic;
    if (cnt == NET_CR_DEPTH || flits > 0x1fff) {
        uint64_t arg = (uint64_t)up | ((uint64_t)vc << 32) |
                       ((uint64_t)flits << 40);
        if (nic == NET_NONE)
            sim_schedule(n->s, r, at, u->router, NET_EV_CREDIT, arg);
        else
            sim_schedule(n->s, r, at, net_nic_entity(n, nic),
                         NET_EV_CREDIT, arg | (UINT64_C(1) << 63));
        return;
    }
    uint64_t *q = cr_slots(n, up);
    uint32_t h = u->cr_head, first = cr_first(n);
    if (h && (h + cnt == NET_CR_DEPTH ||
              (h + cnt >= first && cnt < first))) {
        memmove(q, q + h, cnt * sizeof *q); /* to the front */
        h = u->cr_head = 0;
    }
    uint32_t slot = h + cnt;
    if (cnt) {
        /* keep the queue in time order: a short packet leaving right
         * after a long one returns its credits with the long one's */
        simtime last = CR_TIME(q[slot - 1]);
        if (at < last)
            at = last;
    }
    assert(at < (UINT64_C(1) << 47)); /* 140 s */
    q[slot] = (at << 17) | ((uint64_t)vc << 13) | flits;
    u->cr_n = (uint8_t)(cnt + 1);
    if (!cnt)
        n->cr_due[up] = at;
    if (nic != NET_NONE) {
        for (uint32_t k = 0; k < u->nics; k++)
            if (n->nic[nic + k].cr_wait)
                nic_wake_by(n, r, nic + k, at);
    } else if (u->vcs_waiting) {
        out_wake_by(n, r, up, at);
    }
}

void net_port_credit_back(struct net *n, uint32_t port, uint32_t vc,
                          uint32_t flits, simtime at)
{
    uint32_t peer = n->out[port].peer; /* the router returning them */
    credit_return(n, port_router(n, peer != TOPO_NONE ? peer : port), port,
                  vc, flits, at);
}

/* ---- router ------------------------------------------------------- */

/* `flits` join the near-end queue of output `out` at now (a publishing
 * port records its new load, after the credit returns due). */
static void queue_add(struct net *n, uint32_t out, uint32_t flits,
                      simtime now)
{
    struct net_out *o = &n->out[out];
    if (o->peer != TOPO_NONE && o->publish) {
        net_credit_sync(n, out, now);
        o->qflits += flits;
        gpub_update(n, out, now);
    } else {
        o->qflits += flits;
    }
}

/* The marking controllers' router-output hook (net/nic_ctl.h): packet p
 * is routed at router r to an output with q flits already waiting, more
 * than the least of their thresholds (the caller's one look; each hook
 * checks its own). */
static void ctl_mark(struct net *n, uint32_t r, struct packet *p, uint32_t q)
{
    const struct net_ctl_stack *k = &n->ctl;
    for (uint32_t i = 0; i < k->n_mark; i++) {
        uint32_t c = k->mark[i];
        k->ctl[c]->mark(k->st[c], n, r, p, q);
    }
}

/* Counting: a routed packet of input VC (ip, vc) stops waiting in the
 * input queue (the VC's and the port's input stalls, opened by
 * route_here). CUG'13 §VI (Pedretti et al.) on Gemini's tiles: the
 * input stall counters "count the cycles a packet must wait in a Gemini
 * tile's input queue before it can move to the destination tile's output
 * queue", its waiting there being the output stall's business. So on a
 * tiled router the wait ends as it enters its output's column buffer
 * (rb_advance), on the others, which have no output queue, when it
 * leaves the router (transmit). */
static void in_wait_end(struct net *n, uint32_t ip, uint32_t vc,
                        simtime now)
{
    struct net_vc_count *cv = net_ivc_count(net_ivc_at(n, ip, vc));
    struct net_in *in = &n->in[ip];
    wait_dec(&cv->nwait, &cv->stall, now);
    wait_dec(&in->nwait, &in->stall, now);
}

/* At the destination router: the least busy port serving the NIC. */
static void route_eject(struct net *n, struct packet *p)
{
    const struct topo_nic *tn = &n->t->nics[p->dst_nic];
    uint32_t best = tn->first_port;
    for (uint32_t k = 1; k < tn->n_ports; k++) {
        uint32_t pt = tn->first_port + k;
        const struct net_out *o = &n->out[pt], *b = &n->out[best];
        if (o->qflits < b->qflits ||
            (o->qflits == b->qflits && o->busy < b->busy))
            best = pt;
    }
    p->out_port = best;
    p->out_vc = net_vc(n, p, 0);
}

/* Packet p's output port and VC at router r (p->out_port, p->out_vc): its
 * NIC's port at its destination router, else what its routing mode
 * decides (net/routing.h). */
static void route_packet(struct net *n, uint32_t r, struct packet *p,
                         simtime now)
{
    if (r == p->dst_router)
        route_eject(n, p);
    else
        n->modes[p->mode]->route(n, r, p, now);
}

/* Packet id, at the head of input VC iv of router r, is routed: from now
 * on it waits for its output (the input stall counting, until
 * in_wait_end; the output's near-end queue, except on a tiled router
 * where that is its column buffers, rb_advance). */
static void route_here(struct net *n, uint32_t r, uint32_t id,
                       struct net_ivc *iv)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    route_packet(n, r, p, now);
    if (n->cc_on && n->out[p->out_port].qflits > n->ctl.mark_above)
        ctl_mark(n, r, p, n->out[p->out_port].qflits);
    if (n->p.router != NET_ROUTER_TILED)
        queue_add(n, p->out_port, p->flits, now);
    else /* the column buffer's occupancy, which rb_advance reads next */
        __builtin_prefetch(&n->colbuf_occ[net_colbuf_index(
            n, p->out_port, n->out[p->in_port].row, p->out_vc)]);
    if (n->p.counters) {
        /* the output's counts, which its grant adds to, often within
         * this event: a line of their own (struct net_out_count) */
        __builtin_prefetch(&n->ct.out[p->out_port]);
        struct net_vc_count *cv = net_ivc_count(iv);
        struct net_in *in = &n->in[p->in_port];
        wait_inc(&cv->nwait, &cv->stall, now);
        wait_inc(&in->nwait, &in->stall, now);
    }
}

/* Routed packet id requests its output: it joins the output VC's wait
 * list, and the output is looked at now or when it is free. */
static void out_enqueue(struct net *n, uint32_t id)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    uint32_t out = p->out_port;
    struct net_out *o = &n->out[out];
    struct net_ovc *w = net_ovc_at(n, out, p->out_vc);
    p->next = NET_NONE;
    if (w->wait_head == NET_NONE)
        w->wait_head = id;
    else
        n->pkt[w->wait_tail].next = id;
    w->wait_tail = id;
    o->vcs_waiting = (uint16_t)(o->vcs_waiting | (1u << p->out_vc));
    if (o->busy <= now)
        out_grant(n, out);
    else
        out_wake_at(n, out, o->busy);
}

/* Input-queued and VOQ routers: route packet id and queue it for its
 * output. */
static void out_request(struct net *n, uint32_t r, uint32_t id,
                        struct net_ivc *iv)
{
    route_here(n, r, id, iv);
    out_enqueue(n, id);
}

static void rb_advance(struct net *n, uint32_t r, uint32_t ip,
                       uint32_t vc, uint32_t col);

/* Tiled routers: move the head packets of input VC (ip, vc) of router r
 * over the row bus into the row buffers of their outputs' columns while
 * there is room. Each is routed as it becomes the head; one that finds its
 * row buffer full stays, routed, at the head of the input queue until a
 * packet leaves that row buffer. A packet leaving the input buffer frees
 * its flits there: the credits go back upstream one link latency after
 * its tail has left (crossing the row bus at the link's rate, and no
 * sooner than the tail has arrived). */
static void in_advance(struct net *n, uint32_t r, uint32_t ip, uint32_t vc)
{
    simtime now = n->s->now;
    struct net_ivc *iv = net_ivc_at(n, ip, vc);
    struct net_in *in = &n->in[ip];
    uint32_t id;
    while ((id = ivc_head(iv)) != NET_NONE) {
        struct packet *p = &n->pkt[id];
        if (!(p->flags & PKT_ROUTED)) {
            route_here(n, r, id, iv);
            p->flags |= PKT_ROUTED;
        }
        uint32_t col = n->out[p->out_port].col;
        struct net_rowbuf *rb = net_rowbuf_at(n, ip, vc, col);
        if (rb->occ && rb->occ + p->flits > n->p.row_buffer)
            return; /* waits for room */
        ivc_set_head(iv, p->in_next);
        in->occ -= p->flits;
        pub_update(n, ip, now);
        simtime left = now + ser_time(&n->out[ip], p->flits);
        if (left < p->tail)
            left = p->tail;
        credit_return(n, r, in->up, vc, p->flits, left + in->latency);
        p->in_next = NET_NONE;
        bool was_empty = rb->occ == 0; /* no flits: no packets */
        rb->occ += p->flits;
        if (was_empty) {
            rb->head = rb->tail = id;
            rb_advance(n, r, ip, vc, col);
        } else {
            n->pkt[rb->tail].in_next = id;
            rb->tail = id;
        }
    }
}

/* Tiled routers: move the head packets of row buffer (ip, vc, col) into
 * the column buffers of their outputs while there is room; there each
 * requests its output. A head that finds its column buffer full waits in
 * that buffer's list. Then the input head waiting for room in this row
 * buffer, if any, may come in. */
static void rb_advance(struct net *n, uint32_t r, uint32_t ip, uint32_t vc,
                       uint32_t col)
{
    struct net_rowbuf *rb = net_rowbuf_at(n, ip, vc, col);
    uint32_t row = n->out[ip].row;
    /* A row buffer that waits in a column buffer's list moves on only when
     * that list's turn comes (cb_leave). This call may be nested inside
     * one that put it there: a packet it moved on can be granted at once,
     * and the grant, through the row buffers it lets in, refill this one
     * from its input (in_advance) and call here again. */
    while (rb->occ && rb_wnext(rb) == NET_RB_IDLE) {
        uint32_t id = rb->head;
        struct packet *p = &n->pkt[id];
        size_t ci = net_colbuf_index(n, p->out_port, row, p->out_vc);
        uint32_t occ = n->colbuf_occ[ci] & NET_COL_OCC;
        if (occ && occ + p->flits > n->p.col_buffer) {
            struct net_colbuf *cb = &n->colbuf[ci];
            uint32_t me = (uint32_t)(rb - n->rowbuf);
            assert(rb_wnext(rb) == NET_RB_IDLE);
            rb_set_wnext(rb, NET_NONE);
            if (!(n->colbuf_occ[ci] & NET_COL_WAITERS)) /* list empty */
                cb->whead = me;
            else
                rb_set_wnext(&n->rowbuf[cb->wtail], me);
            cb->wtail = me;
            n->colbuf_occ[ci] |= NET_COL_WAITERS;
            break;
        }
        rb->head = p->in_next;
        rb->occ -= p->flits;
        n->colbuf_occ[ci] += p->flits;
        p->cb = (uint32_t)ci;
        queue_add(n, p->out_port, p->flits, n->s->now);
        if (n->p.counters)
            in_wait_end(n, ip, vc, n->s->now);
        out_enqueue(n, id);
    }
    uint32_t h = ivc_head(net_ivc_at(n, ip, vc));
    if (h != NET_NONE && (n->pkt[h].flags & PKT_ROUTED) &&
        n->out[n->pkt[h].out_port].col == col)
        in_advance(n, r, ip, vc);
}

/* Tiled routers: packet id, arrived on input port ip, has left the column
 * buffer of output `port`: the row buffers waiting for room there move
 * on, first come first served, while their heads fit. */
static void cb_leave(struct net *n, uint32_t port, uint32_t ip, uint32_t id)
{
    const struct packet *p = &n->pkt[id];
    size_t ci = p->cb;
    assert(ci == net_colbuf_index(n, port, n->out[ip].row, p->out_vc));
    uint32_t *occ = &n->colbuf_occ[ci];
    *occ -= p->flits; /* the flag bit stays as it is */
    if (!(*occ & NET_COL_WAITERS))
        return; /* the common case: the wait list is not read */
    struct net_colbuf *cb = &n->colbuf[ci];
    uint32_t w;
    while ((w = cb->whead) != NET_NONE) {
        const struct net_rowbuf *rb = &n->rowbuf[w];
        const struct packet *q = &n->pkt[rb->head];
        uint32_t o = *occ & NET_COL_OCC;
        if (o && o + q->flits > n->p.col_buffer)
            return;
        cb->whead = rb_wnext(rb);
        rb_set_wnext(&n->rowbuf[w], NET_RB_IDLE);
        if (cb->whead == NET_NONE) /* rb_advance may wait again */
            *occ &= ~NET_COL_WAITERS;
        /* row buffer w is (port * V + vc) * cols + col */
        uint32_t wcol = w % n->cols, wv = (w / n->cols) % n->V;
        uint32_t wip = w / n->cols / n->V;
        rb_advance(n, n->out[wip].router, wip, wv, wcol);
    }
}

/* A packet became eligible at router r (after the pipeline delay). With
 * input FIFOs only the head of each input VC is routed and waits — for
 * its output (input-queued) or for room in its row buffer (tiled) — so a
 * blocked head blocks the packets behind it; with virtual output queues
 * (Slingshot) every packet waits for its own output at once. */
static void in_push(struct net *n, uint32_t r, uint32_t id)
{
    struct packet *p = &n->pkt[id];
    uint32_t ip = p->in_port;
    n->in[ip].occ += p->flits;
    pub_update(n, ip, n->s->now);
    struct net_ivc *iv = net_ivc_at(n, ip, p->vc);
    if (n->p.counters) {
        struct net_vc_count *cv = net_ivc_count(iv);
        cv->flits += p->flits;
        cv->pkts++;
    }
    if (n->p.router == NET_ROUTER_VOQ) {
        out_request(n, r, id, iv);
        return;
    }
    p->in_next = NET_NONE;
    if (ivc_head(iv) == NET_NONE) {
        ivc_set_head(iv, id);
        iv->tail = id;
        if (n->p.router == NET_ROUTER_TILED)
            in_advance(n, r, ip, p->vc);
        else
            out_request(n, r, id, iv);
    } else {
        n->pkt[iv->tail].in_next = id;
        iv->tail = id;
    }
}

static void transmit(struct net *n, uint32_t out, uint32_t id)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    struct net_out *o = &n->out[out];
    uint32_t r = o->router;
    simtime end = now + ser_time(o, p->flits);
    if (end < p->tail)
        end = p->tail;
    o->busy = end;
    if (n->hooks.hop)
        n->hooks.hop(n->hooks.ctx, p, out, now);
    uint32_t ip = p->in_port;
    struct net_in *in = &n->in[ip];
    if (n->p.counters) {
        struct net_out_count *co = &n->ct.out[out];
        if (n->p.router != NET_ROUTER_TILED) /* tiled: in_wait_end */
            in_wait_end(n, ip, p->vc, now);
        co->flits[p->cls] += p->flits;
        co->pkts[p->cls]++;
        cr_close(n, o, out, now);
    }

    /* the input buffer it leaves (a tiled router's row buffer: it left the
     * input buffer earlier, in_advance); its credits go back upstream (to
     * the upstream router's output port, or to the injecting NICs) one
     * link latency after its tail has left */
    if (n->p.router != NET_ROUTER_TILED) {
        in->occ -= p->flits;
        pub_update(n, ip, now);
        credit_return(n, r, in->up, p->vc, p->flits, end + in->latency);
    }
    p->flags &= (uint8_t)~PKT_ROUTED;

    if (o->peer == TOPO_NONE) {
        /* to the NIC: delivered when the tail arrives */
        sim_schedule(n->s, r, end + o->latency,
                     net_nic_entity(n, p->dst_nic), NET_EV_EJECT, id);
        return;
    }
    struct net_ovc *w = net_ovc_at(n, out, p->out_vc);
    w->credits -= p->flits;
    assert(w->credits >= 0);
    o->used += p->flits;
    gpub_update(n, out, now);
    p->in_port = o->peer;
    p->vc = p->out_vc;
    p->tail = end + o->latency;
    p->hops++;
    sim_schedule(n->s, r, now + o->latency + n->p.router_delay,
                 o->peer_router, NET_EV_ARRIVE, id);
}

/* Traffic classes at an output (struct net_tc): of the classes with a
 * packet that could go now (its downstream VC has room, a NIC has a
 * response slot for a request), the highest priority, and among those
 * the least start tag of start-time fair queueing (Goyal et al.,
 * SIGCOMM 1996): a class's next packet starts at max(the output's
 * virtual time, the class's last finish tag) and finishes flits/weight
 * later, so competing classes share the link by weight and an idle
 * class gets no credit for its idle time. Returns the waiting VCs `m`
 * narrowed to the chosen class (m itself if none can go). */
static uint32_t tc_pick(struct net *n, uint32_t port, const struct net_out *o,
                        uint32_t m)
{
    uint32_t per = 2 * n->p.vcs, best = NET_NONE;
    const uint64_t *tag = n->tc_tag + (size_t)port * (n->n_tcs + 1);
    uint64_t best_s = 0;
    for (uint32_t k = 0; k < n->n_tcs; k++) {
        uint32_t mk = m & (((1u << per) - 1) << (k * per));
        bool ready = false;
        for (; mk && !ready; mk &= mk - 1) {
            uint32_t v = (uint32_t)__builtin_ctz(mk);
            struct net_ovc *w = net_ovc_at(n, port, v);
            const struct packet *p = &n->pkt[w->wait_head];
            ready = vc_room(n, port, v, &w->credits, p->flits) &&
                    !(o->peer == TOPO_NONE && p->cls == PKT_REQ &&
                      n->p.nic_rsp_slots &&
                      n->nic[p->dst_nic].rsp_held >= n->p.nic_rsp_slots);
        }
        if (!ready)
            continue;
        uint64_t s = tag[1 + k] > tag[0] ? tag[1 + k] : tag[0];
        if (best == NET_NONE ||
            n->p.tc[k].priority > n->p.tc[best].priority ||
            (n->p.tc[k].priority == n->p.tc[best].priority && s < best_s)) {
            best = k;
            best_s = s;
        }
    }
    return best == NET_NONE ? m : m & (((1u << per) - 1) << (best * per));
}

/* Packet of `flits` in class k starts on output `port`: its tags. */
static void tc_charge(struct net *n, uint32_t port, uint32_t k,
                      uint32_t flits)
{
    uint64_t *tag = n->tc_tag + (size_t)port * (n->n_tcs + 1);
    uint64_t s = tag[1 + k] > tag[0] ? tag[1 + k] : tag[0];
    tag[0] = s;
    tag[1 + k] = s + ((uint64_t)flits << 20) / n->p.tc[k].weight;
}

/* Output `port` may be free: grant the next waiting packet — round-robin
 * over VCs, first come first served within a VC — if its downstream VC
 * has room for the whole packet (virtual cut-through). */
static __attribute__((noinline)) void out_grant_free(struct net *n,
                                                     uint32_t port);

static void out_grant(struct net *n, uint32_t port)
{
    struct net_out *o = &n->out[port];
    if (!o->vcs_waiting)
        return;
    if (o->busy > n->s->now) {
        out_wake_at(n, port, o->busy);
        return;
    }
    out_grant_free(n, port);
}

/* out_grant, the output free and packets waiting (apart: the looks that
 * find nothing to do do not pay for its registers). */
static void out_grant_free(struct net *n, uint32_t port)
{
    simtime now = n->s->now;
    struct net_out *o = &n->out[port];
    net_credit_sync(n, port, now);
    uint32_t V = n->V, rr = o->rr, m = o->vcs_waiting;
    if (n->n_tcs > 1)
        m = tc_pick(n, port, o, m);
    /* the VCs with waiting packets, from rr round: bit i is VC rr + i */
    for (m = ((m >> rr) | (m << (V - rr))) & ((1u << V) - 1); m;
         m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctz(m);
        uint32_t v = rr + i < V ? rr + i : rr + i - V;
        struct net_ovc *w = net_ovc_at(n, port, v);
        uint32_t id = w->wait_head;
        struct packet *p = &n->pkt[id];
        if (!vc_room(n, port, v, &w->credits, p->flits))
            continue;
        if (o->peer == TOPO_NONE && p->cls == PKT_REQ &&
            n->p.nic_rsp_slots) {
            /* a NIC takes a request only with a response slot free: it
             * answers every request it takes */
            struct net_nic *c = &n->nic[p->dst_nic];
            if (c->rsp_held >= n->p.nic_rsp_slots) {
                c->ej_wait = true;
                continue;
            }
            c->rsp_held++;
        }
        o->rr = (uint8_t)(v + 1 < V ? v + 1 : 0);
        if (n->n_tcs > 1)
            tc_charge(n, port, p->tc, p->flits);
        w->wait_head = p->next;
        if (p->next == NET_NONE)
            o->vcs_waiting = (uint16_t)(o->vcs_waiting & ~(1u << v));
        o->qflits -= p->flits;
        uint32_t ip = p->in_port, ivc = p->vc, r = o->router;
        transmit(n, port, id); /* publishes the new qflits and used */
        if (o->vcs_waiting)
            out_wake_at(n, port, o->busy);
        if (n->p.router == NET_ROUTER_TILED) {
            cb_leave(n, port, ip, id);
        } else if (n->p.router == NET_ROUTER_INPUT_QUEUED) {
            /* the next packet of that input VC becomes its head */
            struct net_ivc *iv = net_ivc_at(n, ip, ivc);
            assert(ivc_head(iv) == id);
            uint32_t nx = n->pkt[id].in_next;
            ivc_set_head(iv, nx);
            if (nx != NET_NONE)
                out_request(n, r, nx, iv);
        }
        return;
    }
    n->st.credit_stalls++;
    if (n->p.counters) { /* the classes waiting for credits, idle link */
        for (uint32_t v = 0; v < V; v++)
            if (o->vcs_waiting & (1u << v))
                cr_open(n, o, port,
                        n->pkt[net_ovc_at(n, port, v)->wait_head].cls, now);
        cr_open(n, o, port, 2, now);
    }
    /* wait for the earliest credit on its way back (or a new one) */
    if (o->cr_n)
        out_wake_at(n, port, n->cr_due[port]);
}

static void on_arrive(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    in_push(n, e->target, (uint32_t)e->arg);
    (void)s;
}

/* sim_on_prefetch: an ARRIVE or EJECT reads its packet first (an EJECT
 * its cold half too); then an ARRIVE the input port, input VC and (tiled)
 * row buffers it lands in, an EJECT the packet's message and the NIC it
 * reaches. */
static void pf_packet(const struct event *e, void *ctx, bool near)
{
    const struct net *n = ctx;
    const struct packet *p = &n->pkt[(uint32_t)e->arg];
    if (!near) {
        __builtin_prefetch(p); /* one line */
        if (e->type == NET_EV_EJECT) /* and what its NIC end reads */
            __builtin_prefetch(&n->pkt_cold[(uint32_t)e->arg]);
        return;
    }
    if (e->type == NET_EV_EJECT) {
        uint32_t mid = n->pkt_cold[(uint32_t)e->arg].msg;
        if (mid < n->msg_cap && p->dst_nic < n->n_nics) {
            __builtin_prefetch(&n->msg[mid]);
            __builtin_prefetch(&n->nic[p->dst_nic]);
        }
        return;
    }
    if (p->in_port >= n->n_ports)
        return;
    __builtin_prefetch(&n->in[p->in_port]);
    __builtin_prefetch(net_ivc_at(n, p->in_port, p->vc));
    if (n->rowbuf)
        __builtin_prefetch(net_rowbuf_at(n, p->in_port, p->vc, 0));
}

/* sim_on_prefetch: a WAKE or CREDIT reads its output port, its VCs and the
 * credits on their way back to it first; then the packet it will grant. */
static void pf_port(const struct event *e, void *ctx, bool near)
{
    const struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    if (port >= n->n_ports)
        return;
    if (!near) {
        __builtin_prefetch(&n->out[port]);
        __builtin_prefetch(&n->cr_due[port]);
        __builtin_prefetch(net_ovc_at(n, port, 0));
        __builtin_prefetch(net_port_credits(n, port));
        if (n->ct.out) /* the output's counts, which a grant adds to */
            __builtin_prefetch(&n->ct.out[port]);
        if (n->colbuf_occ) { /* tiled: its column buffers' occupancies,
                                which the grant lowers (cb_leave): the
                                lines of rows x V entries, 3 on an Aries
                                (make run: -11 %, docs/performance.md) */
            const uint32_t *a = &n->colbuf_occ[net_colbuf_index(n, port,
                                                                0, 0)];
            uintptr_t l = (uintptr_t)a & ~(uintptr_t)63,
                      z = (uintptr_t)(a + (size_t)n->rows * n->V - 1);
            for (; l <= z; l += 64)
                __builtin_prefetch((const void *)l);
        }
        return;
    }
    /* the packet out_grant looks at first */
    const struct net_out *o = &n->out[port];
    uint32_t m = o->vcs_waiting, rr = o->rr;
    if (!m || rr >= n->V)
        return;
    m = ((m >> rr) | (m << (n->V - rr))) & ((1u << n->V) - 1);
    uint32_t v = rr + (uint32_t)__builtin_ctz(m);
    uint32_t id = net_ovc_at(n, port, v < n->V ? v : v - n->V)->wait_head;
    if (id < n->pkt_cap)
        __builtin_prefetch(&n->pkt[id]);
}

static void on_wake(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    struct net_out *o = &n->out[port];
    if (o->wake == s->now)
        o->wake = SIMTIME_MAX;
    out_grant(n, port);
    (void)s;
}

static void on_credit(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    uint32_t vc = (uint32_t)(e->arg >> 32) & 0xff;
    int32_t flits = (int32_t)((e->arg >> 40) & 0x7fffff);
    struct net_out *o = &n->out[port];
    struct net_ovc *w = net_ovc_at(n, port, vc);
    if (e->arg >> 63) {
        cr_add(n, port, vc, (uint32_t)flits, true);
        assert(w->inj_credits + net_port_credits(n, port)[vc] <=
               (int32_t)n->buf_cap[port]);
        for (uint32_t k = 0; k < o->nics; k++)
            nic_try(n, o->nic + k);
        return;
    }
    w->credits += flits;
    o->used -= (uint32_t)flits;
    assert(w->credits + net_port_credits(n, port)[vc] <=
           (int32_t)n->buf_cap[o->peer]);
    if (o->vcs_waiting)
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
 * back to one of its ports (SIMTIME_MAX if none is on its way); *starved
 * whether no port has room (back-pressure, not a busy link). */
static uint32_t nic_port(struct net *n, uint32_t nic, uint32_t vc,
                         uint32_t flits, simtime *soonest, bool *starved)
{
    const struct topo_nic *tn = &n->t->nics[nic];
    simtime now = n->s->now;
    uint32_t best = NET_NONE;
    simtime best_busy = SIMTIME_MAX, credit = SIMTIME_MAX;
    *soonest = SIMTIME_MAX;
    for (uint32_t k = 0; k < tn->n_ports; k++) {
        uint32_t port = tn->first_port + k;
        const struct net_out *o = &n->out[port];
        net_credit_sync(n, port, now);
        if (!inj_room(n, port, vc, flits)) {
            if (o->cr_n) {
                simtime at = n->cr_due[port];
                if (at < credit)
                    credit = at;
            }
            continue;
        }
        simtime b = o->inj_busy;
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
    *starved = best == NET_NONE && *soonest == SIMTIME_MAX;
    if (*starved) {
        *soonest = credit;
        n->nic[nic].cr_wait = true; /* and any later return wakes it */
    }
    return best;
}

/* The rate limit is the host interface: "a 64-byte read or write every
 * five cycles" (XC white paper, "Aries Performance"). Reads and writes are
 * separate streams — symmetric bulk transfers reach ~8 GB/s each way and
 * bidirectional tests exceed 15 GB/s in all (same section) — so a NIC has
 * a timer for each: a packet that carries data out of the node (PUT
 * request, GET response) takes a read; one whose exchange puts data into
 * the node's memory (the response to a PUT that arrived, a GET request
 * whose data will arrive) takes a write. */
static simtime *nic_rate_timer(struct net_nic *c, uint8_t cls, uint8_t op)
{
    return (cls == PKT_REQ) == (op == NET_PUT) ? &c->next_read
                                               : &c->next_write;
}

static void nic_inject(struct net *n, uint32_t nic, uint32_t id,
                       uint32_t port)
{
    simtime now = n->s->now;
    struct packet *p = &n->pkt[id];
    struct net_out *o = &n->out[port];
    inj_take(n, port, p->vc, p->flits);
    simtime end = now + ser_time(o, p->flits);
    o->inj_busy = end;
    *nic_rate_timer(&n->nic[nic], p->cls, p->op) = now + n->p.nic_gap;
    n->nic[nic].next_out = now + (simtime)net_nic_flits(&n->p, p) *
                                     n->p.nic_flit_time;
    n->pkt_cold[id].t_injected = now;
    p->in_port = port;
    p->tail = end + o->latency;
    n->st.injected[p->cls]++;
    if (p->cls == PKT_RSP && n->p.nic_rsp_slots) {
        /* a response slot frees: a request waiting for one may come in */
        struct net_nic *c = &n->nic[nic];
        c->rsp_held--;
        if (c->ej_wait) {
            /* the ports it takes requests from, from a rotating first
             * (the Netlink serves its tiles in turn) */
            c->ej_wait = false;
            const struct topo_nic *tn = &n->t->nics[nic];
            uint32_t k0 = c->ej_rr++ % tn->n_ports;
            for (uint32_t i = 0; i < tn->n_ports; i++) {
                uint32_t ep = tn->first_port + (k0 + i) % tn->n_ports;
                if (n->out[ep].vcs_waiting)
                    out_wake_by(n, net_nic_entity(n, nic), ep, now);
            }
        }
    }
    n->nic_inj[nic].flits += p->flits;
    /* the data rides in a PUT's requests and a GET's responses */
    n->nic_inj[nic].data +=
        (uint64_t)p->payload * ((p->cls == PKT_REQ) == (p->op == NET_PUT));
    if (n->ct.nic) {
        struct net_nic_count *k = &n->ct.nic[nic];
        k->flits[p->cls] += net_nic_flits(&n->p, p);
        k->pkts[p->cls]++;
        stall_set(&k->since[p->cls], &k->stall[p->cls], false, now);
    }
    if (n->hooks.hop)
        n->hooks.hop(n->hooks.ctx, p, port, now);
    sim_schedule(n->s, net_nic_entity(n, nic),
                 now + o->latency + n->p.router_delay, o->router,
                 NET_EV_ARRIVE, id);
}

/* NIC `nic` could not inject its next packet of class cls: back-pressure
 * (a stall) if it lacks credits (`starved`), not if its ports are only
 * busy — except for a request when its stall counter counts every cycle
 * the path is not its (`nic_req_stall` "path"). */
static void nic_blocked_from(struct net *n, uint32_t nic, uint32_t cls,
                             bool starved, simtime from)
{
    if (n->ct.nic)
        stall_set(&n->ct.nic[nic].since[cls], &n->ct.nic[nic].stall[cls],
                  starved, from);
}

static bool req_stalled(const struct net *n, bool starved)
{
    return starved || n->p.nic_req_stall == NET_NIC_STALL_PATH;
}

static void nic_blocked(struct net *n, uint32_t nic, uint32_t cls,
                        bool starved)
{
    nic_blocked_from(n, nic, cls, starved, n->s->now);
}

/* When NIC c's next request could go but for the injection path (a
 * message waiting, within the outstanding limit, admitted at `now`): when
 * its stream is free, SIMTIME_MAX if none could. */
static uint32_t req_pick(struct net *n, uint32_t nic, simtime now,
                         uint32_t *prev, simtime *retry);

static simtime req_ready_at(struct net *n, uint32_t nic, simtime now)
{
    const struct net_nic *c = &n->nic[nic];
    uint32_t prev;
    simtime retry;
    if (c->req_head == NET_NONE || c->outstanding >= n->p.max_outstanding)
        return SIMTIME_MAX;
    uint32_t mid = req_pick(n, nic, now, &prev, &retry);
    if (mid == NET_NONE)
        return SIMTIME_MAX;
    const struct message *m = &n->msg[mid];
    simtime t = *nic_rate_timer((struct net_nic *)c, PKT_REQ, m->op);
    return t > now ? t : now;
}

/* When the rate controllers let message m (of NIC nic) go: each in turn,
 * a message none of whose data has gone asked first whether it may
 * start, then its pair whether it may send; the first that holds it back
 * gives the time to ask again (<= now: it may go now). */
static simtime ctl_admit(struct net *n, uint32_t nic, const struct message *m,
                         simtime now)
{
    const struct net_ctl_stack *k = &n->ctl;
    for (uint32_t i = 0; i < k->n; i++) {
        const struct nic_ctl *c = k->ctl[i];
        simtime t = m->sent == 0 && c->admit_msg
                        ? c->admit_msg(k->st[i], m, now)
                        : now;
        if (t <= now && c->admit)
            t = c->admit(k->st[i], nic, m->dst_nic, now);
        if (t > now)
            return t;
    }
    return now;
}

/* The message NIC `nic` serves next: without rate controllers the
 * oldest; with them the oldest they admit now among the first
 * NET_CC_SCAN, NET_NONE if none, *retry then the earliest time one may be
 * (SIMTIME_MAX: at an ack). *prev is the message before it in the queue
 * (NET_NONE at the head). */
static uint32_t req_pick(struct net *n, uint32_t nic, simtime now,
                         uint32_t *prev, simtime *retry)
{
    const struct net_nic *c = &n->nic[nic];
    *prev = NET_NONE;
    *retry = SIMTIME_MAX;
    if (!n->cc_on)
        return c->req_head;
    uint32_t k = 0;
    for (uint32_t id = c->req_head; id != NET_NONE && k < NET_CC_SCAN;
         id = n->msg[id].next, k++) {
        simtime t = ctl_admit(n, nic, &n->msg[id], now);
        if (t <= now)
            return id;
        if (t < *retry)
            *retry = t;
        *prev = id;
    }
    return NET_NONE;
}

/* The rate controllers' ticks due by now, in time order (ties in the
 * stack's order); they are taken when the network does something, so a
 * quiet network costs none. */
static void cc_ticks(struct net *n, simtime now)
{
    struct net_ctl_stack *k = &n->ctl;
    while (k->first_tick <= now) {
        uint32_t c = 0;
        for (uint32_t i = 1; i < k->n; i++)
            if (k->next_tick[i] < k->next_tick[c])
                c = i;
        k->ctl[c]->tick(k->st[c], k->next_tick[c]);
        k->next_tick[c] += k->period[c];
        k->first_tick = SIMTIME_MAX;
        for (uint32_t i = 0; i < k->n; i++)
            if (k->next_tick[i] < k->first_tick)
                k->first_tick = k->next_tick[i];
    }
}

/* Inject what NIC `nic` can inject now: its responses and the next
 * request of the oldest message, within the outstanding-request limit and
 * the injection rate (a packet whose read or write stream is busy waits;
 * one of the other stream may go). Requests and responses share the path
 * into the network (XC white paper, "Aries Performance": with symmetric
 * traffic "requests and responses share data paths"); with both ready
 * they take turns (`nic_arbitration` "round-robin"; "responses-first":
 * a ready response always goes first). A response held back by
 * back-pressure in its turn holds back the request behind it too, and
 * that request counts the cycles from when it is ready as stalled
 * (AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED: "a ready-to-forward flit
 * is not forwarded because of back-pressure", SC'19 §2.3). The ORB's
 * RSP_STALLED, which the SC'19 library subtracts (REMOVE_SRIN), counts
 * the inbound responses, not these (net/counters.h). */
static void nic_try(struct net *n, uint32_t nic)
{
    struct net_nic *c = &n->nic[nic];
    simtime now = n->s->now;
    c->cr_wait = false;
    for (;;) {
        simtime soon, rate_wait = SIMTIME_MAX;
        bool starved;
        if (c->next_out > now) { /* its output path is busy */
            if (c->rsp_head != NET_NONE ||
                (c->req_head != NET_NONE &&
                 c->outstanding < n->p.max_outstanding))
                nic_wake_at(n, nic, c->next_out);
            return;
        }
        if (c->rsp_head != NET_NONE) {
            uint32_t id = c->rsp_head;
            struct packet *p = &n->pkt[id];
            simtime t = *nic_rate_timer(c, p->cls, p->op);
            if (t > now)
                rate_wait = t;
        }
        bool rsp_ready = c->rsp_head != NET_NONE &&
                         rate_wait == SIMTIME_MAX;
        bool req_first = rsp_ready && c->req_turn &&
                         n->p.nic_arb == NET_NIC_ARB_ROUND_ROBIN &&
                         req_ready_at(n, nic, now) == now;
        if (rsp_ready && !req_first) {
            uint32_t id = c->rsp_head;
            struct packet *p = &n->pkt[id];
            uint32_t port = nic_port(n, nic, p->vc, p->flits, &soon,
                                     &starved);
            if (port == NET_NONE) {
                nic_blocked(n, nic, PKT_RSP, starved);
                /* the next request, from when it is ready, waits too */
                simtime rt = req_ready_at(n, nic, now);
                bool on = req_stalled(n, starved) && rt != SIMTIME_MAX;
                nic_blocked_from(n, nic, PKT_REQ, on, on ? rt : now);
                if (soon != SIMTIME_MAX)
                    nic_wake_at(n, nic, soon);
                return; /* else a credit return will wake us */
            }
            c->rsp_head = p->next;
            c->req_turn = true;
            nic_inject(n, nic, id, port);
            if (n->ct.nic && n->p.nic_req_stall == NET_NIC_STALL_PATH) {
                /* a request ready before the response has passed waits
                 * for it: back-pressure at the ORB's output */
                simtime rt = req_ready_at(n, nic, now);
                if (rt < c->next_out)
                    nic_blocked_from(n, nic, PKT_REQ, true, rt);
            }
            continue;
        }
        if (c->req_head == NET_NONE ||
            c->outstanding >= n->p.max_outstanding) {
            if (rate_wait != SIMTIME_MAX)
                nic_wake_at(n, nic, rate_wait);
            return;
        }
        uint32_t prev = NET_NONE, mid = c->req_head;
        if (n->cc_on) {
            simtime retry;
            cc_ticks(n, now);
            mid = req_pick(n, nic, now, &prev, &retry);
            if (mid == NET_NONE && rsp_ready) { /* the ticks held it */
                c->req_turn = false;
                continue;
            }
            if (mid == NET_NONE) { /* every pair it looked at held back */
                if (rate_wait < retry)
                    retry = rate_wait;
                if (retry != SIMTIME_MAX)
                    nic_wake_at(n, nic, retry);
                return; /* else an ack will call again */
            }
        }
        struct message *m = &n->msg[mid];
        simtime t = *nic_rate_timer(c, PKT_REQ, m->op);
        if (t > now) {
            nic_wake_at(n, nic, t < rate_wait ? t : rate_wait);
            return;
        }
        uint32_t bytes = m->bytes - m->sent;
        if (bytes > n->p.max_payload)
            bytes = n->p.max_payload;
        uint32_t flits = net_req_flits(&n->p, (enum net_op)m->op, bytes);
        /* the first request VC of its traffic class */
        uint32_t vc0 = (uint32_t)m->tc * 2u * n->p.vcs;
        uint32_t port = nic_port(n, nic, vc0, flits, &soon, &starved);
        if (port == NET_NONE) {
            nic_blocked(n, nic, PKT_REQ, req_stalled(n, starved));
            if (rsp_ready) { /* the response may go instead */
                c->req_turn = false;
                continue;
            }
            if (soon != SIMTIME_MAX)
                nic_wake_at(n, nic, soon);
            return;
        }
        uint32_t id = pkt_alloc(n);
        if (id == NET_NONE) {
            n->s->error = -1; /* out of memory: the run is void */
            sim_stop(n->s);
            return;
        }
        m = &n->msg[mid];
        struct packet *p = &n->pkt[id];
        *p = (struct packet){
            .src_nic = nic, .dst_nic = m->dst_nic,
            .dst_router = n->t->nics[m->dst_nic].router, .mid = NET_NONE,
            .gport = NET_NONE, .index = m->injected,
            .flits = (uint16_t)flits,
            .payload = (uint16_t)bytes, .cls = PKT_REQ, .op = m->op,
            .mode = m->mode, .vc = (uint8_t)vc0, .tc = m->tc };
        n->pkt_cold[id] = (struct packet_cold){ .t_created = m->t_created,
                                                .msg = mid };
        m->sent += bytes;
        m->injected++;
        if (m->sent >= m->bytes) { /* all cut: it leaves the queue */
            if (prev == NET_NONE)
                c->req_head = m->next;
            else
                n->msg[prev].next = m->next;
            if (c->req_tail == mid)
                c->req_tail = prev;
        }
        c->outstanding++;
        c->req_turn = false;
        nic_inject(n, nic, id, port);
        if (c->outstanding >= n->p.max_outstanding &&
            c->req_head != NET_NONE &&
            n->p.nic_req_stall == NET_NIC_STALL_ORB) /* the ORB is full */
            nic_blocked(n, nic, PKT_REQ, true);
        for (uint32_t i = 0; i < n->ctl.n; i++)
            if (n->ctl.ctl[i]->inject)
                n->ctl.ctl[i]->inject(n->ctl.st[i], &n->pkt[id], now);
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
    struct packet_cold *pc = &n->pkt_cold[id];
    uint32_t mid = pc->msg;
    if (n->ct.nic) {
        struct net_nic_count *k = &n->ct.nic[nic];
        if ((p->cls == PKT_REQ) == (p->op == NET_PUT)) { /* data to host */
            k->pi_pkts++;
            k->pi_flits += net_nic_flits(&n->p, p);
        }
        if (p->cls == PKT_RSP) {
            k->rsp_in_flits += net_nic_flits(&n->p, p);
            k->net_track++;
            k->track_net += s->now - pc->t_created;
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
        uint8_t op = p->op, mark = p->mark, tc = p->tc;
        pc->t_created = pc->t_injected; /* the request left its NIC */
        *p = (struct packet){
            .src_nic = nic, .dst_nic = src,
            .dst_router = n->t->nics[src].router, .mid = NET_NONE,
            .gport = NET_NONE, .index = idx,
            .flits = (uint16_t)flits, .payload = payload, .cls = PKT_RSP,
            .op = op, .mode = mode, .mark = mark, .tc = tc,
            /* the first response VC of its traffic class */
            .vc = (uint8_t)((tc * 2u + 1) * n->p.vcs) };
        rsp_push(n, nic, id);
        nic_try(n, nic);
        return;
    }
    struct message *m = &n->msg[mid];
    struct net_nic *c = &n->nic[nic];
    c->outstanding--;
    if (n->p.nic_req_stall == NET_NIC_STALL_ORB) /* an ORB entry frees */
        nic_blocked(n, nic, PKT_REQ, false);
    if (n->cc_on) {
        cc_ticks(n, s->now);
        for (uint32_t i = 0; i < n->ctl.n; i++)
            if (n->ctl.ctl[i]->ack)
                n->ctl.ctl[i]->ack(n->ctl.st[i], p, s->now);
    }
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

uint32_t net_nic_outstanding(const struct net *n, uint32_t nic)
{
    return n->nic[nic].outstanding;
}

uint32_t net_send(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                  enum net_op op, uint32_t bytes, uint8_t mode, uint64_t tag)
{
    return net_send_tc(n, src_nic, dst_nic, op, bytes, mode, 0, tag);
}

simtime net_cc_sleep(struct net *n, uint32_t nic, uint64_t bytes,
                     simtime now)
{
    const struct net_ctl_stack *k = &n->ctl;
    simtime t = now;
    bool ticked = false;
    for (uint32_t i = 0; i < k->n; i++) {
        if (!k->ctl[i]->sleep)
            continue;
        if (!ticked)
            cc_ticks(n, now), ticked = true;
        simtime u = k->ctl[i]->sleep(k->st[i], nic, bytes, now);
        if (u > t)
            t = u;
    }
    return t;
}

simtime net_cc_sleeping(struct net *n, uint32_t nic, simtime now)
{
    const struct net_ctl_stack *k = &n->ctl;
    simtime t = now;
    bool ticked = false;
    for (uint32_t i = 0; i < k->n; i++) {
        if (!k->ctl[i]->sleeping)
            continue;
        if (!ticked)
            cc_ticks(n, now), ticked = true;
        simtime u = k->ctl[i]->sleeping(k->st[i], nic, now);
        if (u > t)
            t = u;
    }
    return t;
}

void net_ctl_job(struct net *n, const struct nic_job *j)
{
    for (uint32_t i = 0; i < n->ctl.n; i++)
        if (n->ctl.ctl[i]->job)
            n->ctl.ctl[i]->job(n->ctl.st[i], j);
}

simtime net_ctl_next_tick(const struct net *n, const void *st)
{
    for (uint32_t i = 0; i < n->ctl.n; i++)
        if (n->ctl.st[i] == st)
            return n->ctl.next_tick[i];
    return SIMTIME_MAX;
}

void *net_ctl_state(const struct net *n, const struct nic_ctl *c)
{
    for (uint32_t i = 0; i < n->ctl.n; i++)
        if (n->ctl.ctl[i] == c)
            return n->ctl.st[i];
    return NULL;
}

simtime net_nic_req_stalled(const struct net *n, uint32_t nic, simtime now)
{
    return net_nic_stalled(&n->ct.nic[nic], PKT_REQ, now);
}

double net_nic_line_rate(const struct net *n)
{
    if (n->t->n_nics == 0)
        return 1.0;
    /* full-size PUT requests, back to back, from a NIC alone on its
     * endpoint ports, each max_payload bytes; or its flit path, a header
     * flit and the data's NIC flits per packet, if slower */
    const struct net_params *p = &n->p;
    double pkts = net_nic_rate_alone(
                      n, 0, net_req_flits(p, NET_PUT, p->max_payload)) /
                  1e12; /* per ps */
    if (p->nic_flit_time) {
        uint32_t f = 1 + (p->max_payload + p->nic_flit_bytes - 1) /
                             p->nic_flit_bytes;
        double fr = 1.0 / ((double)f * (double)p->nic_flit_time);
        if (fr < pkts)
            pkts = fr;
    }
    return pkts * (double)p->max_payload;
}

uint32_t net_send_tc(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                     enum net_op op, uint32_t bytes, uint8_t mode, uint8_t tc,
                     uint64_t tag)
{
    assert(src_nic < n->n_nics && dst_nic < n->n_nics);
    assert(mode < n->n_modes && bytes >= 1 && tc < n->n_tcs);
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
    m->tc = tc;
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

void net_nic_injected(const struct net *n, uint32_t nic, uint64_t *flits,
                      uint64_t *data)
{
    *flits = n->nic_inj[nic].flits;
    *data = n->nic_inj[nic].data;
}

/* Packets per second NIC nic can inject, its ports shared with the
 * other NICs on them (`shared`) or its own. */
static double nic_rate(const struct net *n, uint32_t nic, uint32_t flits,
                       bool shared)
{
    const struct topo_nic *tn = &n->t->nics[nic];
    double rate = 0;
    for (uint32_t k = 0; k < tn->n_ports; k++) {
        uint32_t port = tn->first_port + k;
        double ps = (double)flits * (double)n->out[port].ser_fp / 1024.0;
        rate += 1e12 / ps / (shared ? (double)n->out[port].nics : 1.0);
    }
    if (n->p.nic_gap) {
        double gap_rate = 1e12 / (double)n->p.nic_gap;
        if (gap_rate < rate)
            rate = gap_rate;
    }
    return rate;
}

double net_nic_rate(const struct net *n, uint32_t nic, uint32_t flits)
{
    return nic_rate(n, nic, flits, true);
}

double net_nic_rate_alone(const struct net *n, uint32_t nic, uint32_t flits)
{
    return nic_rate(n, nic, flits, false);
}

/* ---- set-up ------------------------------------------------------- */

/* A mode reads published loads: which, by aries_load. With the credit
 * estimate the global ports publish their load (to the routers of their
 * group: XC white paper, "downstream load information is propagated from
 * router-to-router"). Called before any traffic. */
static void set_publish(struct net *n)
{
    if (n->publish != NET_PUB_NONE)
        return;
    if (n->p.aries_load == NET_ARIES_OCCUPANCY) {
        n->publish = NET_PUB_INPUT;
        return;
    }
    n->publish = NET_PUB_GLOBAL;
    for (uint32_t i = 0; i < n->n_ports; i++)
        if (n->out[i].peer != TOPO_NONE &&
            topo_port_class((enum port_kind)n->t->ports[i].kind) ==
                PCLASS_GLOBAL)
            n->out[i].publish = 1;
}

/* The block of mode r's parameters in n (its part's: the one the
 * parameters hold, else the part's defaults), or NULL with the reason in
 * err: no room for it, or values its part refuses. A mode without a part
 * has none (a pointer to an empty block). */
static const void *mode_params(struct net *n, const struct routing *r,
                               char *err, size_t len)
{
    static const char none = 0;
    if (!r->part)
        return &none;
    void *b = net_part_block(&n->p, r->part, n->t);
    if (!b) {
        snprintf(err, len, "no room for the parameters of %s (NET_MAX_PARTS "
                 "%d, NET_PART_STORE %d bytes)", r->part->name, NET_MAX_PARTS,
                 NET_PART_STORE);
        return NULL;
    }
    const char *key = NULL;
    char why[128];
    if (r->part->check && r->part->check(b, &n->p, &key, why, sizeof why)) {
        snprintf(err, len, "%s: %s", key, why);
        return NULL;
    }
    return b;
}

int net_add_mode(struct net *n, const struct routing *r)
{
    for (uint32_t i = 0; i < n->n_modes; i++)
        if (n->modes[i] == r)
            return (int)i;
    if (n->n_modes == NET_MAX_MODES)
        return -1;
    char err[160];
    const void *mp = mode_params(n, r, err, sizeof err);
    if (!mp)
        return -1;
    n->mode_params[n->n_modes] = mp;
    n->modes[n->n_modes] = r;
    if (r->publish && n->p.publish_period)
        set_publish(n);
    return (int)n->n_modes++;
}

#define ALLOC(ptr, count)                                                  \
    do {                                                                   \
        size_t count_ = (count);                                           \
        (ptr) = calloc(count_ ? count_ : 1, sizeof *(ptr));                \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

/* Zeroed, aligned to cache lines, and backed by the system only where
 * touched (core/zmem.h): the records sized by the system, whose empty
 * state is zeros wherever traffic may never come (the tiles' row and
 * column buffers). Freed with zmem_free. */
#define ALLOC_LINES(ptr, count)                                            \
    do {                                                                   \
        (ptr) = zmem_lines((count), sizeof *(ptr));                        \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

/* The classes' weights (n->p.tc[].weight) from their minimum bandwidths,
 * per mille of a link: SC'20 §II-E, "the sum of the minimum bandwidth
 * requirements of the different traffic classes does not exceed the
 * available bandwidth"; what is not allocated goes to the class with the
 * least (SC'20 §III-B measured it so: minimums of 80 % and 10 %, two
 * bisection jobs got 80 % and 20 %). With no minimums the classes share
 * equally. */
static int tc_weights(struct net *n, struct diag *d)
{
    struct net_tc *c = n->p.tc;
    uint32_t sum = 0, least = 0;
    for (uint32_t k = 0; k < n->n_tcs; k++) {
        sum += c[k].weight;
        if (c[k].weight < c[least].weight)
            least = k;
    }
    if (sum > 1000) {
        diag_error(d, NULL, 0, "network.traffic_classes",
                   "the minimum bandwidths add up to %.1f %% of a link; at "
                   "most 100 %%", sum / 10.0);
        return -1;
    }
    if (sum == 0) {
        for (uint32_t k = 0; k < n->n_tcs; k++)
            c[k].weight = 1;
        return 0;
    }
    c[least].weight += 1000 - sum;
    for (uint32_t k = 0; k < n->n_tcs; k++)
        if (!c[k].weight)
            c[k].weight = 1; /* a class without a guarantee still moves */
    return 0;
}

/* Set up the rate controllers of n->p.cc, in order, each with its
 * parameters (its part's block in n->p.parts, or its defaults): the
 * stack's ticks and marking threshold from what each init says. */
static int ctl_init(struct net *n, struct diag *d)
{
    struct net_ctl_stack *k = &n->ctl;
    k->first_tick = SIMTIME_MAX;
    k->mark_above = UINT32_MAX;
    if (n->p.n_cc > NET_MAX_CTLS) {
        diag_error(d, NULL, 0, "network.congestion_control", "more than %d "
                   "controllers", NET_MAX_CTLS);
        return -1;
    }
    for (uint32_t i = 0; i < n->p.n_cc; i++) {
        const struct nic_ctl *c = n->p.cc[i];
        const void *params = NULL;
        if (c->part && !(params = net_part_block(&n->p, c->part, n->t))) {
            diag_error(d, NULL, 0, "network.congestion_control", "%s: no "
                       "room for its parameters (NET_PART_STORE)",
                       c->base.name);
            return -1;
        }
        struct nic_ctl_setup setup = { .period = 0, .mark_above = UINT32_MAX };
        char err[160] = "";
        if (c->init && c->init(&k->st[k->n], n, params, &setup, err,
                               sizeof err) != 0) {
            diag_error(d, NULL, 0, "network.congestion_control", "%s: %s",
                       c->base.name, err);
            return -1;
        }
        k->ctl[k->n] = c;
        k->period[k->n] = setup.period;
        k->next_tick[k->n] = c->tick && setup.period ? setup.period
                                                     : SIMTIME_MAX;
        if (k->next_tick[k->n] < k->first_tick)
            k->first_tick = k->next_tick[k->n];
        if (c->mark && setup.mark_above != UINT32_MAX) {
            k->mark[k->n_mark++] = (uint8_t)k->n;
            if (setup.mark_above < k->mark_above)
                k->mark_above = setup.mark_above;
        }
        k->n++;
    }
    n->cc_on = k->n > 0;
    return 0;
}

int net_init(struct net *n, const struct topo *t, const struct net_params *p,
             struct sim *s, uint64_t seed, struct diag *d)
{
    memset(n, 0, sizeof *n);
    if (!p->routing) { /* net_params_defaults leaves it to the caller */
        diag_error(d, NULL, 0, "network.routing", "no routing mode given "
                   "(route_net_defaults sets the family's)");
        return -1;
    }
    n->t = t;
    n->s = s;
    n->p = *p;
    for (uint32_t i = 0; i < p->n_cc; i++)
        if (p->cc[i]->counters) /* a controller reads them */
            n->p.counters = true;
    n->seed = seed;
    n->n_routers = t->n_routers;
    n->n_nics = t->n_nics;
    n->n_ports = t->n_ports;
    n->pkt_free = n->msg_free = NET_NONE;
    n->n_tcs = p->n_tcs ? p->n_tcs : 1;
    if (n->n_tcs > NET_MAX_TCS) {
        diag_error(d, NULL, 0, "network.traffic_classes",
                   "%u classes; at most %d", n->n_tcs, NET_MAX_TCS);
        return -1;
    }
    if (p->vcs < 1 || p->vcs > NET_MAX_SEGS ||
        2 * p->vcs * n->n_tcs > NET_MAX_VCS) {
        diag_error(d, NULL, 0, "network.vcs",
                   "%u per class with %u traffic class(es): a port has at "
                   "most %d VCs (2 x vcs x classes, vcs <= %d)", p->vcs,
                   n->n_tcs, NET_MAX_VCS, NET_MAX_SEGS);
        return -1;
    }
    if (n->n_tcs > 1 && tc_weights(n, d) != 0)
        return -1;
    if (s->n_entities < net_entities(t)) {
        diag_error(d, NULL, 0, "network", "simulation has %u entities, the "
                   "network needs %u", s->n_entities, net_entities(t));
        return -1;
    }
    if (p->max_payload < 1 || p->flit_bytes < 1) {
        diag_error(d, NULL, 0, "network", "max_payload and flit_bytes must "
                   "be at least 1");
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
    if (p->router == NET_ROUTER_TILED &&
        (p->row_buffer < big || p->col_buffer < big)) {
        diag_error(d, NULL, 0, p->row_buffer < big ? "network.row_buffer"
                                                    : "network.col_buffer",
                   "row and column buffers must hold the largest packet "
                   "(%u flits)", big);
        return -1;
    }
    n->V = 2 * p->vcs * n->n_tcs;
    size_t P = t->n_ports, PV = P * n->V;
    if (p->router == NET_ROUTER_TILED) {
        uint32_t cols = p->tile_columns;
        if (!cols) {
            uint32_t radix = 0;
            for (uint32_t r = 0; r < t->n_routers; r++)
                if (t->routers[r].n_ports > radix)
                    radix = t->routers[r].n_ports;
            while (cols * cols < radix)
                cols++;
        }
        if (cols < 1 || cols > 255) {
            diag_error(d, NULL, 0, "network.tile_columns",
                       "%u columns; expected 1 to 255", cols);
            return -1;
        }
        uint32_t rows = 1;
        for (uint32_t r = 0; r < t->n_routers; r++) {
            uint32_t k = (t->routers[r].n_ports + cols - 1) / cols;
            if (k > rows)
                rows = k;
        }
        if (rows > 255) {
            diag_error(d, NULL, 0, "network.tile_columns",
                       "%u columns make %u tile rows; expected at most 255",
                       cols, rows);
            return -1;
        }
        size_t bufs = PV * (cols > rows ? cols : rows);
        if (bufs >= NET_RB_IDLE) {
            /* row and column buffers are numbered in 32 bits */
            diag_error(d, NULL, 0, "network.tile_columns",
                       "%zu row or column buffers; expected fewer than "
                       "2^32 - 2 (fewer ports, VCs or tile columns)", bufs);
            return -1;
        }
        n->cols = cols;
        n->rows = rows;
        /* all zeros is an empty row buffer not waiting (rb_wnext) and an
         * empty column buffer without waiters: nothing to initialise, so
         * the pages of idle routers are never touched (core/zmem.h) */
        ALLOC_LINES(n->rowbuf, PV * cols);
        ALLOC_LINES(n->colbuf, PV * rows);
        ALLOC_LINES(n->colbuf_occ, PV * rows);
    }
    ALLOC_LINES(n->out, P);
    ALLOC_LINES(n->in, P);
    ALLOC_LINES(n->ovc, PV);
    /* input VCs 40 bytes apart with counting (struct net_vc_count after
     * each), 8 without */
    n->ivc_size = sizeof(struct net_ivc) +
                  (n->p.counters ? sizeof(struct net_vc_count) : 0);
    n->ivc = zmem_lines(PV * n->ivc_size, 1);
    if (!n->ivc)
        goto oom;
    n->cr_cw = cr_credit_words(n->V);
    n->cr_stride = cr_block_words(n->V);
    ALLOC_LINES(n->cr_queue, P * n->cr_stride);
    ALLOC_LINES(n->cr_due, P);
    for (size_t i = 0; i < P; i++)
        n->cr_due[i] = SIMTIME_MAX;
    ALLOC_LINES(n->pub, P * NET_PUB_DEPTH);
    if (n->n_tcs > 1)
        ALLOC(n->tc_tag, P * (n->n_tcs + 1));
    ALLOC(n->buf_cap, P);
    ALLOC(n->port_class, P);
    ALLOC_LINES(n->nic, t->n_nics);
    ALLOC(n->nic_inj, t->n_nics);
    ALLOC(n->router_rng, t->n_routers);
    ALLOC(n->nic_rng, t->n_nics);
    if (n->p.counters) {
        struct net_count *k = &n->ct;
        ALLOC_LINES(k->out, P);
        ALLOC_LINES(k->nic, t->n_nics);
        for (uint32_t c = 0; c < t->n_nics; c++)
            k->nic[c].since[0] = k->nic[c].since[1] = SIMTIME_MAX;
    }
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        struct net_out *o = &n->out[i];
        struct net_in *in = &n->in[i];
        o->wake = SIMTIME_MAX;
        o->router = tp->router;
        o->peer = tp->peer;
        o->peer_router =
            tp->peer != TOPO_NONE ? t->ports[tp->peer].router : TOPO_NONE;
        o->latency = tp->latency;
        o->nic = NET_NONE;
        if (n->cols) { /* tile i of its router: row i / cols, column i % cols */
            uint32_t k = i - t->routers[tp->router].first_port;
            o->col = (uint8_t)(k % n->cols);
            o->row = (uint8_t)(k / n->cols);
        }
        in->up = tp->peer != TOPO_NONE ? tp->peer : i;
        in->latency = tp->latency;
        enum port_class pc = topo_port_class((enum port_kind)tp->kind);
        n->port_class[i] = (uint8_t)pc;
        n->buf_cap[i] = pc == PCLASS_GLOBAL ? p->buf_global
                        : pc == PCLASS_ENDPOINT ? p->buf_endpoint
                                                : p->buf_local;
        if (n->buf_cap[i] > UINT16_MAX) /* past a credit block's 16 bits */
            n->cr_big = true;
        if (tp->bw) {
            /* ps per flit * 1024, with the link-layer efficiency on
             * links between routers (not on-chip NIC links) */
            double ps = (double)p->flit_bytes * 1e12 / (double)tp->bw;
            if (tp->medium != MEDIUM_ONCHIP)
                ps = ps * p->link_eff_den / p->link_eff_num;
            uint64_t fp = (uint64_t)(ps * 1024.0 + 0.5);
            if (fp > UINT32_MAX) {
                diag_error(d, NULL, 0, "network", "port %u: a flit takes "
                           "%.0f ps, more than the model handles", i, ps);
                net_free(n);
                return -1;
            }
            o->ser_fp = (uint32_t)fp;
            if (tp->peer != TOPO_NONE)
                o->own = (uint32_t)((uint64_t)net_port_bdp(n, i) *
                                    p->far_light / 100);
        }
    }
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        /* a NIC sinks everything that reaches it: no credits needed;
         * the input VCs are empty as zeroed (ivc_head) */
        for (uint32_t v = 0; v < n->V; v++) {
            struct net_ovc *w = net_ovc_at(n, i, v);
            w->wait_head = w->wait_tail = NET_NONE;
            w->credits = tp->peer != TOPO_NONE
                             ? (int32_t)n->buf_cap[tp->peer]
                             : INT32_MAX / 2;
        }
        if (topo_port_class((enum port_kind)tp->kind) == PCLASS_ENDPOINT)
            for (uint32_t v = 0; v < n->V; v++) {
                /* the NICs' credits in the credit block if they fit */
                if (n->buf_cap[i] <= UINT16_MAX)
                    net_port_credits(n, i)[v] = (uint16_t)n->buf_cap[i];
                else
                    net_ovc_at(n, i, v)->inj_credits =
                        (int32_t)n->buf_cap[i];
            }
    }
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            struct net_out *o = &n->out[tn->first_port + k];
            if (o->nic == NET_NONE)
                o->nic = c;
            o->nics++;
        }
        n->nic[c] = (struct net_nic){ .req_head = NET_NONE,
                                      .req_tail = NET_NONE,
                                      .rsp_head = NET_NONE,
                                      .rsp_tail = NET_NONE,
                                      .wake_at = SIMTIME_MAX };
        n->nic_rng[c] = rng_stream(seed, RNG_NIC, c);
    }
    /* NICs sharing a port must be numbered consecutively (Aries NIC
     * pairs): the credit handler wakes out.nic .. out.nic + nics - 1 */
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            uint32_t port = tn->first_port + k;
            if (c >= n->out[port].nic + n->out[port].nics) {
                diag_error(d, NULL, 0, "network", "NICs sharing port %u "
                           "are not numbered consecutively", port);
                net_free(n);
                return -1;
            }
        }
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        n->router_rng[r] = rng_stream(seed, RNG_ROUTER, r);
    {
        char err[160];
        n->mode_params[0] = mode_params(n, p->routing, err, sizeof err);
        if (!n->mode_params[0]) {
            diag_error(d, NULL, 0, "network.routing", "%s", err);
            net_free(n);
            return -1;
        }
    }
    n->modes[0] = p->routing;
    n->n_modes = 1;
    if (p->routing->publish && p->publish_period)
        set_publish(n);
    if (net_nexthop_init(n, d) < 0) {
        net_free(n);
        return -1;
    }
    if (ctl_init(n, d) != 0) {
        net_free(n);
        return -1;
    }
    sim_on(s, NET_EV_ARRIVE, on_arrive, n);
    sim_on(s, NET_EV_WAKE, on_wake, n);
    sim_on(s, NET_EV_CREDIT, on_credit, n);
    sim_on(s, NET_EV_EJECT, on_eject, n);
    sim_on(s, NET_EV_NIC_WAKE, on_nic_wake, n);
    sim_on_prefetch(s, NET_EV_ARRIVE, pf_packet);
    sim_on_prefetch(s, NET_EV_EJECT, pf_packet);
    sim_on_prefetch(s, NET_EV_WAKE, pf_port);
    sim_on_prefetch(s, NET_EV_CREDIT, pf_port);
    return 0;
oom:
    diag_error(d, NULL, 0, "network", "out of memory building the model of "
               "%u ports", t->n_ports);
    net_free(n);
    return -1;
}

void net_free(struct net *n)
{
    for (uint32_t i = n->ctl.n; i-- > 0;)
        if (n->ctl.ctl[i]->free)
            n->ctl.ctl[i]->free(n->ctl.st[i]);
    net_nexthop_free(n);
    free(n->pkt_raw);
    free(n->pkt_cold);
    free(n->msg);
    zmem_free(n->out);
    zmem_free(n->in);
    zmem_free(n->ovc);
    zmem_free(n->ivc);
    zmem_free(n->rowbuf);
    zmem_free(n->colbuf);
    zmem_free(n->colbuf_occ);
    zmem_free(n->cr_queue);
    zmem_free(n->cr_due);
    free(n->tc_tag);
    zmem_free(n->pub);
    free(n->port_class);
    free(n->buf_cap);
    zmem_free(n->nic);
    free(n->nic_inj);
    free(n->router_rng);
    free(n->nic_rng);
    struct net_count *k = &n->ct;
    zmem_free(k->out);
    zmem_free(k->nic);
    memset(n, 0, sizeof *n);
}

/* The bandwidth-delay product of topology port tp under p, flits (see
 * net_port_bdp); 0 for a port without a peer. */
static uint32_t bdp_of(const struct net_params *p, const struct topo_port *tp)
{
    if (tp->peer == TOPO_NONE || !tp->bw)
        return 0;
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    double ps = (double)p->flit_bytes * 1e12 / (double)tp->bw;
    if (tp->medium != MEDIUM_ONCHIP)
        ps = ps * p->link_eff_den / p->link_eff_num;
    double loop = 2.0 * tp->latency + (double)p->router_delay;
    return (uint32_t)(loop / ps + 0.5) + big;
}

uint32_t net_max_bdp(const struct net_params *p, const struct topo *t)
{
    uint32_t bdp = 0;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        uint32_t b = bdp_of(p, &t->ports[i]);
        if (b > bdp)
            bdp = b;
    }
    return bdp;
}

uint32_t net_port_bdp(const struct net *n, uint32_t port)
{
    const struct net_out *o = &n->out[port];
    const struct net_params *p = &n->p;
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    /* a packet's credits come back 2 x wire + the next router's pipeline
     * delay + its serialization after it starts */
    double ps = o->ser_fp / 1024.0;
    double loop = 2.0 * o->latency + (double)p->router_delay;
    return (uint32_t)(loop / ps + 0.5) + big;
}

/* What sizes the arrays net_init makes whatever the traffic: the shape
 * of the system and the parameters alone. One function for net_bytes
 * (of a network) and net_estimate_bytes (of one not yet built), so that
 * the two cannot drift apart. */
struct net_dims {
    size_t P;                 /* ports */
    uint32_t V;               /* VCs per port */
    uint32_t ivc_size;        /* bytes of an input VC record */
    uint32_t cols, rows;      /* tile buffers per port and VC; 0: none */
    uint32_t n_tcs;
    uint32_t nics, routers;
    bool counters;
    uint32_t groups, m;       /* dragonflies: groups, routers per group;
                                 m = 0: a torus */
    size_t nh_total;          /* next-hop port entries */
    uint32_t nh_rows;         /* distinct rows of next hops */
};

static size_t dims_bytes(const struct net_dims *k)
{
    const struct net *n = NULL; /* for sizeof only */
    size_t P = k->P, PV = P * k->V;
    size_t b = zmem_lines_bytes(P, sizeof *n->out) +
               zmem_lines_bytes(P, sizeof *n->in) +
               zmem_lines_bytes(PV, sizeof *n->ovc) +
               zmem_lines_bytes(PV * k->ivc_size, 1) +
               zmem_lines_bytes(P * cr_block_words(k->V),
                                sizeof *n->cr_queue) +
               zmem_lines_bytes(P, sizeof *n->cr_due) +
               zmem_lines_bytes(P * NET_PUB_DEPTH, sizeof *n->pub);
    if (k->cols)
        b += zmem_lines_bytes(PV * k->cols, sizeof *n->rowbuf) +
             zmem_lines_bytes(PV * k->rows, sizeof *n->colbuf) +
             zmem_lines_bytes(PV * k->rows, sizeof *n->colbuf_occ);
    b += P * (sizeof *n->buf_cap + sizeof *n->port_class);
    if (k->n_tcs > 1)
        b += P * (k->n_tcs + 1) * sizeof *n->tc_tag;
    b += zmem_lines_bytes(k->nics, sizeof *n->nic) +
         (size_t)k->nics * (sizeof *n->nic_inj + sizeof *n->nic_rng);
    b += (size_t)k->routers * sizeof *n->router_rng;
    if (k->counters)
        b += zmem_lines_bytes(P, sizeof *n->ct.out) +
             zmem_lines_bytes(k->nics, sizeof *n->ct.nic);
    /* routing tables (net/nexthop.c) */
    size_t per = k->m ? k->m : 6; /* next hops kept per row */
    b += (size_t)k->routers * sizeof *n->nh_row;
    b += (size_t)k->nh_rows * per * (sizeof *n->nh_first + 1);
    b += k->nh_total * sizeof *n->nh_port;
    if (k->m)
        b += (size_t)k->groups * (sizeof *n->group_first +
                                  sizeof *n->group_size);
    return b;
}

size_t net_bytes(const struct net *n)
{
    struct net_dims k = {
        .P = n->n_ports, .V = n->V, .ivc_size = n->ivc_size,
        .cols = n->rowbuf ? n->cols : 0, .rows = n->rowbuf ? n->rows : 0,
        .n_tcs = n->tc_tag ? n->n_tcs : 1, .nics = n->n_nics,
        .routers = n->n_routers, .counters = n->ct.out != NULL,
        .groups = n->group_first ? n->t->n_groups : 0,
        .m = n->group_first ? n->m : 0, .nh_total = n->nh_total,
        .nh_rows = n->nh_rows,
    };
    return dims_bytes(&k) +
           (size_t)n->pkt_cap * (sizeof *n->pkt + sizeof *n->pkt_cold) +
           (size_t)n->msg_cap * sizeof *n->msg;
}

size_t net_estimate_bytes(const struct net_params *p,
                          const struct topo_counts *c)
{
    uint32_t n_tcs = p->n_tcs ? p->n_tcs : 1;
    struct net_dims k = {
        .P = (size_t)c->routers * c->ports_per_router,
        .V = 2 * p->vcs * n_tcs,
        .ivc_size = (uint32_t)(sizeof(struct net_ivc) +
                               (p->counters ? sizeof(struct net_vc_count)
                                            : 0)),
        .n_tcs = n_tcs, .nics = c->nics, .routers = c->routers,
        .counters = p->counters,
    };
    if (p->router == NET_ROUTER_TILED) {
        uint32_t cols = p->tile_columns, radix = c->ports_per_router;
        if (!cols)
            while (cols * cols < radix)
                cols++;
        k.cols = cols ? cols : 1;
        k.rows = (radix + k.cols - 1) / k.cols;
        if (k.rows < 1)
            k.rows = 1;
    }
    /* routers wired alike share a row of next hops (net/nexthop.c): one
     * row on a torus, one per place in a group on a dragonfly (the
     * systems dfsim builds wire every group alike) */
    if (topo_is(c->family, TOPO_SHAPE_TORUS)) {
        k.nh_rows = 1;
        k.nh_total = c->ports_per_router ? c->ports_per_router : 1;
    } else {
        k.groups = c->groups;
        k.m = c->routers_per_group;
        /* a system of part of a group (Voltrino) has fewer places */
        uint32_t places = k.m < c->routers ? k.m : c->routers;
        k.nh_rows = places;
        k.nh_total = (size_t)places * (places ? places - 1 : 0);
        if (!k.nh_total)
            k.nh_total = 1;
    }
    return dims_bytes(&k);
}

int net_check_drained(struct net *n, struct diag *d)
{
    int bad = 0;
    for (uint32_t i = 0; i < n->n_ports; i++)
        net_credit_sync(n, i, SIMTIME_MAX);
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
        const struct net_out *o = &n->out[i];
        if (n->in[i].occ || o->qflits || o->vcs_waiting || o->used)
            FAIL("port %u not empty (buffer %u, queue %u, VCs waiting 0x%x, "
                 "in flight %u)", i, n->in[i].occ, o->qflits,
                 (unsigned)o->vcs_waiting, o->used);
        for (uint32_t v = 0; v < n->V; v++) {
            const struct net_ovc *w = net_ovc_at(n, i, v);
            int32_t cr = net_port_credits(n, i)[v];
            if (tp->peer != TOPO_NONE &&
                w->credits + cr != (int32_t)n->buf_cap[tp->peer])
                FAIL("port %u VC %u: %d credits, capacity %u", i, v,
                     w->credits + cr, n->buf_cap[tp->peer]);
            if (tp->peer == TOPO_NONE && tp->kind != PORT_UNUSED &&
                w->inj_credits + cr != (int32_t)n->buf_cap[i])
                FAIL("NIC port %u VC %u: %d credits, capacity %u", i, v,
                     w->inj_credits + cr, n->buf_cap[i]);
            if (ivc_head(net_ivc_at(n, i, v)) != NET_NONE)
                FAIL("port %u VC %u: input FIFO not empty", i, v);
            for (uint32_t c = 0; n->rowbuf && c < n->cols; c++) {
                const struct net_rowbuf *rb = net_rowbuf_at(n, i, v, c);
                if (rb->occ)
                    FAIL("port %u VC %u: row buffer %u not empty (%u "
                         "flits)", i, v, c, rb->occ);
                if (rb_wnext(rb) != NET_RB_IDLE)
                    FAIL("port %u VC %u: row buffer %u still listed as "
                         "waiting", i, v, c);
            }
            for (uint32_t rw = 0; n->colbuf && rw < n->rows; rw++) {
                uint32_t raw = n->colbuf_occ[net_colbuf_index(n, i, rw, v)];
                uint32_t occ = raw & NET_COL_OCC;
                if (occ || (raw & NET_COL_WAITERS))
                    FAIL("port %u VC %u: column buffer of row %u not "
                         "empty (%u flits)", i, v, rw, occ);
            }
        }
    }
#undef FAIL
    return bad ? -1 : 0;
}
