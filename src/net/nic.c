/* net/nic.c — the NICs: the queue of the messages a NIC has to send, cut
 * into request packets; their injection under the host interface's rate
 * limits and the outstanding-request limit; the arbitration of requests
 * and responses onto the path they share into the network; ejection,
 * where a request is answered by its response and a response acks its
 * request; and the calls to the NIC controllers (net/nic_ctl.h).
 *
 * From net.h: messages (PUT or GET, a size, a routing mode chosen by the
 * sender) enter a NIC, which cuts them into request packets of at most
 * `max_payload` bytes, as the hardware does (Aries/Gemini 64 B,
 * Slingshot 4 KiB). Every request is answered by a response packet,
 * routed back independently. A PUT carries its data in the request, a
 * GET in the response. A NIC injects at most one packet per `nic_gap`
 * (Aries: a 64 B read or write every 5 cycles at 800 MHz, XC white
 * paper, "Aries Performance") in each of two streams, reads of host
 * memory and writes, on the least recently busy of its endpoint ports
 * (Aries: the Netlink spreads a NIC pair's packets over their four
 * processor tiles), with at most `max_outstanding` requests awaiting
 * their response (Aries: 1024, SC'19 §2.1). Requests and responses ready
 * together take turns (`nic_arb`). A NIC sinks every response that
 * reaches it (its requester reserved the room), but takes a request only
 * with one of its `nic_rsp_slots` free for the answer; a request that
 * finds none waits at its router's ejection port (router.c,
 * out_grant_free): the ejection back-pressure that builds an incast's
 * congestion tree (docs/network.md). With p.counters it keeps the NIC
 * counters of net/counters.h (the request stall: SC'19 §2.3).
 *
 * Invariants: a NIC's outstanding requests are those it injected whose
 * response is not back, never more than max_outstanding; with
 * nic_rsp_slots, the requests granted to it whose response it has not
 * injected (rsp_held) never exceed them; a message leaves its NIC's
 * queue once all of it is cut into requests, and is done (msg_done) when
 * every response is back.
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/slots.h"
#include "net/net_internal.h"
#include "net/xpart.h"

/* ---- packet sizes ------------------------------------------------- */

/* Network flits of `bytes` of data: the bytes on the wire (expand_num /
 * expand_den per data byte), in whole flits. */
static uint32_t data_flits(const struct net_params *p, uint32_t bytes)
{
    /* expand_num / expand_den is 1 but on Gemini, whose 64 B of data take
     * 24 phits, 72 B on the wire (Pedretti et al. §V: PUT 32 + 3 phits,
     * GET 8 + 27, headers of 8 and 3): 9/8 (topo/torus.c) */
    uint64_t wire = ((uint64_t)bytes * p->expand_num + p->expand_den - 1) /
                    p->expand_den;
    return (uint32_t)((wire + p->flit_bytes - 1) / p->flit_bytes);
}

uint32_t net_req_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes)
{
    /* a GET request names the data it asks for but carries none */
    return p->req_header + (op == NET_PUT ? data_flits(p, bytes) : 0);
}

uint32_t net_rsp_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes)
{
    /* a PUT's response is a bare acknowledgement (Aries: 1 flit) */
    return p->rsp_header + (op == NET_GET ? data_flits(p, bytes) : 0);
}

/* ---- packets and messages ----------------------------------------- */

/* Packets and messages live in flat arrays indexed by id, with a free list
 * threaded through their first member (`next`): core/slots.h. */
_Static_assert(offsetof(struct packet, next) == 0, "next first");
_Static_assert(offsetof(struct message, next) == 0, "next first");
_Static_assert(NET_NONE == SLOTS_NONE, "one 'none' for ids");

/* A free packet id, NET_NONE when out of memory. The arrays double as
 * slots_alloc's would, by realloc (a large block grows in place, so the
 * peak holds one copy), the packets line-aligned inside theirs: when the
 * block moves to another offset within a line, they move with it. */
uint32_t net_pkt_alloc(struct net *n)
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

/* ---- credits at injection ----------------------------------------- */

/* The NIC-to-router link is flow-controlled like any other: the NICs
 * injecting on an endpoint port hold the credits of that port's input
 * buffer at the router (Aries: a processor tile's input queue), and a
 * packet goes only when all of it fits there (virtual cut-through). */
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

/* ---- counting (only with p.counters) ------------------------------ */

/* An interval kept open by a condition seen at `now`. */
static inline void stall_set(simtime *since, simtime *acc, bool on,
                             simtime now)
{
    if (on && *since == SIMTIME_MAX)
        *since = now;
    else if (!on && *since != SIMTIME_MAX) {
        if (now > *since) /* an interval opened ahead (net_nic_try) */
            *acc += now - *since;
        *since = SIMTIME_MAX;
    }
}

uint32_t net_nic_flits(const struct net_params *p, const struct packet *pk)
{
    /* Inside the NIC a packet is one header flit plus its data in 16-byte
     * flits (SC'19 §2.1: a 64 B request is a header and up to 4 payload
     * flits, one flit per cycle), whatever the network flit: what the ORB's
     * REQ_FLITS counts (docs/counters.md). Only a PUT's request and a GET's
     * response carry the data. */
    bool data = (pk->cls == PKT_REQ) == (pk->op == NET_PUT);
    return 1 + (data ? ((uint32_t)pk->payload + p->nic_flit_bytes - 1) /
                           p->nic_flit_bytes
                     : 0);
}

/* Make sure NIC `nic` looks at its queues again at time `at`, an event
 * it creates itself (net_nic_wake_by). */
static void nic_wake_at(struct net *n, uint32_t nic, simtime at)
{
    net_nic_wake_by(n, net_nic_entity(n, nic), nic, at);
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
    /* Every port is looked at: the least recently busy of those with room
     * and free takes the packet, so that a NIC's stream is spread over its
     * ports in turn (XC white paper, "Aries Router": "the Netlink block
     * multiplexes traffic over the processor tiles on a packet-by-packet
     * basis", distributing it "according to load"). A port with room but
     * busy only delays the packet; no port with room is back-pressure,
     * what REQ_STALLED counts (a busy tile is not: counters.h). */
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
    /* The packet takes the endpoint link for its serialization (Aries: a
     * processor tile injects one 48-bit flit per 875 MHz cycle, 5.25 GB/s),
     * its stream's host-interface slot (nic_gap), and the NIC's output path
     * for its NIC flits (nic_flit_time: one 16-byte flit per 800 MHz cycle
     * on Aries, shared by requests and responses — why two nodes streaming
     * to each other reach ~8.2 GB/s each way, docs/network.md). */
    inj_take(n, port, p->vc, p->flits);
    simtime end = now + net_ser_time(o, p->flits);
    o->inj_busy = end;
    *nic_rate_timer(&n->nic[nic], p->cls, p->op) = now + n->p.nic_gap;
    n->nic[nic].next_out = now + (simtime)net_nic_flits(&n->p, p) *
                                     n->p.nic_flit_time;
    /* when it left the NIC: its response's t_created (on_eject), the start
     * of what RSP_TRACK_2 and the controllers' round trips measure */
    n->pkt_cold[id].t_injected = now;
    p->in_port = port;
    /* virtual cut-through: the head reaches the router one wire latency
     * after it starts and is eligible after the pipeline delay (below),
     * while the tail arrives only when the link has serialised it all; no
     * hop can send the tail on before it has arrived (transmit) */
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
                    net_out_wake_by(n, net_nic_entity(n, nic), ep, now);
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
        n->hooks.hop(n->hooks.ctx, p, port, true,
                     now - n->pkt_cold[id].t_ready, now);
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
    /* The controllers stack (network.congestion_control lists them): a
     * message goes only when every one of them lets it, so the first to
     * hold it back decides when to look again. */
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
    /* Oldest first, but past a held pair: a pair a controller holds back
     * must not block the NIC's other destinations (SC'20 §II-D: only the
     * streams contributing to the congestion are throttled, "without
     * negatively affecting ... other streams of packets within the same
     * job"); the scan is bounded so that a decision stays O(1) (NET_CC_SCAN,
     * net.h). */
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
/* The controller whose tick is next on k (lowest index first). */
static uint32_t tick_next(const struct net_ctl_stack *k)
{
    uint32_t c = 0;
    for (uint32_t i = 1; i < k->n; i++)
        if (k->next_tick[i] < k->next_tick[c])
            c = i;
    return c;
}

/* Controller c's tick taken: its next, and the stack's first. */
static void tick_taken(struct net_ctl_stack *k, uint32_t c)
{
    k->next_tick[c] += k->period[c];
    k->first_tick = SIMTIME_MAX;
    for (uint32_t i = 0; i < k->n; i++)
        if (k->next_tick[i] < k->first_tick)
            k->first_tick = k->next_tick[i];
}

static void cc_ticks(struct net *n, simtime now)
{
    struct net_ctl_stack *k = &n->ctl;
    /* ticks missed while nothing happened are taken now, each at its own
     * time (the controller sees the time it was due, not now), so a
     * controller's windows are exact however lazily they are taken */
    while (k->first_tick <= now) {
        uint32_t c = tick_next(k);
        k->ctl[c]->tick(k->st[c], k->next_tick[c]);
        tick_taken(k, c);
    }
}

void net_cc_take_ticks(struct net *n, simtime now)
{
    cc_ticks(n, now);
}

void net_cc_take_ticks_split(struct net *const *nets, uint32_t k, simtime now,
                             void (*sum)(void *ctx, uint64_t *v),
                             void *ctx)
{
    const struct net_ctl_stack *k0 = &nets[0]->ctl; /* all alike */
    while (k0->first_tick <= now) {
        uint32_t c = tick_next(k0);
        simtime at = k0->next_tick[c];
        const struct nic_ctl *ctl = k0->ctl[c];
        if (ctl->tick_count) {
            uint64_t v = 0;
            for (uint32_t i = 0; i < k; i++)
                v += ctl->tick_count(nets[i]->ctl.st[c], at);
            sum(ctx, &v);
            for (uint32_t i = 0; i < k; i++)
                ctl->tick_decide(nets[i]->ctl.st[c], at, v);
        }
        for (uint32_t i = 0; i < k; i++) {
            if (!ctl->tick_count)
                ctl->tick(nets[i]->ctl.st[c], at);
            tick_taken(&nets[i]->ctl, c);
        }
    }
}

/* net_nic_try's response turn: the response at the head of NIC nic's
 * queue goes on the port nic_port gives. False if no port can take it:
 * its back-pressure is counted, and that of the request behind it, and
 * the NIC waits for a port to free (or for a credit return to wake it). */
static bool rsp_send(struct net *n, uint32_t nic, simtime now)
{
    struct net_nic *c = &n->nic[nic];
    simtime soon;
    bool starved;
    uint32_t id = c->rsp_head;
    struct packet *p = &n->pkt[id];
    uint32_t port = nic_port(n, nic, p->vc, p->flits, &soon, &starved);
    if (port == NET_NONE) {
        /* requests and responses share the NIC's output path (XC white paper,
         * "Aries Performance"): a response that cannot go holds the request
         * behind it, which counts as stalled from when it is ready
         * (REQ_STALLED: "a ready-to-forward flit is not forwarded because of
         * back-pressure", SC'19 §2.3) */
        nic_blocked(n, nic, PKT_RSP, starved);
        /* the next request, from when it is ready, waits too */
        simtime rt = req_ready_at(n, nic, now);
        bool on = req_stalled(n, starved) && rt != SIMTIME_MAX;
        nic_blocked_from(n, nic, PKT_REQ, on, on ? rt : now);
        if (soon != SIMTIME_MAX)
            nic_wake_at(n, nic, soon);
        return false; /* else a credit return will wake us */
    }
    c->rsp_head = p->next;
    /* round-robin: with both ready, a request goes next */
    c->req_turn = true;
    nic_inject(n, nic, id, port);
    if (n->ct.nic && n->p.nic_req_stall == NET_NIC_STALL_PATH) {
        /* a request ready before the response has passed waits for it:
         * back-pressure at the ORB's output */
        simtime rt = req_ready_at(n, nic, now);
        if (rt < c->next_out)
            nic_blocked_from(n, nic, PKT_REQ, true, rt);
    }
    return true;
}

/* NIC nic cuts its next request from message mid (prev: the message
 * before it in the queue, NET_NONE at the head) — `bytes` of data in
 * `flits` flits, on the first request VC of its class, vc0 — and injects
 * it on `port`. False if out of memory (the run is then void). */
static bool req_inject(struct net *n, uint32_t nic, uint32_t mid,
                       uint32_t prev, uint32_t port, uint32_t bytes,
                       uint32_t flits, uint32_t vc0, simtime now)
{
    struct net_nic *c = &n->nic[nic];
    uint32_t id = net_pkt_alloc(n);
    if (id == NET_NONE) {
        n->s->error = -1; /* out of memory: the run is void */
        sim_stop(n->s);
        return false;
    }
    struct message *m = &n->msg[mid];
    struct packet *p = &n->pkt[id];
    *p = (struct packet){
        .src_nic = nic, .dst_nic = m->dst_nic,
        .dst_router = n->t->nics[m->dst_nic].router, .mid = NET_NONE,
        .gport = NET_NONE, .index = m->injected,
        .flits = (uint16_t)flits,
        .payload = (uint16_t)bytes, .cls = PKT_REQ, .op = m->op,
        .mode = m->mode, .vc = (uint8_t)vc0, .tc = m->tc };
    n->pkt_cold[id] = (struct packet_cold){ .t_created = m->t_created,
                                            .msg = mid,
                                            .t_ready = m->t_created };
    m->sent += bytes;
    m->injected++;
    /* A message is cut into requests as they go, one max_payload at a time
     * (Aries 64 B, Slingshot 4 KiB): a long message does not hold memory for
     * all its packets at once, and a later message of the queue may go
     * first when a controller holds this one's pair. */
    if (m->sent >= m->bytes) { /* all cut: it leaves the queue */
        if (prev == NET_NONE)
            c->req_head = m->next;
        else
            n->msg[prev].next = m->next;
        if (c->req_tail == mid)
            c->req_tail = prev;
    }
    /* an ORB entry (SC'19 §2.1: at most 1024 requests outstanding) until its
     * response is back */
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
    return true;
}

/* net_nic_try's request turn, a message waiting within the outstanding
 * limit: the next request of the message the rate controllers admit (the
 * oldest without them) goes if its stream (read or write) and a port
 * can take it. True to look again: it went, or the ready response
 * (`rsp_ready`) may go instead. False when the NIC waits: woken at the
 * time its stream or a port frees, at the earlier of that and
 * `rate_wait` (the response's stream), or by an ack or a credit return. */
static bool req_send(struct net *n, uint32_t nic, simtime now,
                     bool rsp_ready, simtime rate_wait)
{
    struct net_nic *c = &n->nic[nic];
    simtime soon;
    bool starved;
    uint32_t prev = NET_NONE, mid = c->req_head;
    if (n->cc_on) {
        simtime retry;
        cc_ticks(n, now);
        mid = req_pick(n, nic, now, &prev, &retry);
        if (mid == NET_NONE && rsp_ready) { /* the ticks held it */
            c->req_turn = false;
            return true;
        }
        if (mid == NET_NONE) { /* every pair it looked at held back */
            if (rate_wait < retry)
                retry = rate_wait;
            if (retry != SIMTIME_MAX)
                nic_wake_at(n, nic, retry);
            return false; /* else an ack will call again */
        }
    }
    struct message *m = &n->msg[mid];
    simtime t = *nic_rate_timer(c, PKT_REQ, m->op);
    if (t > now) {
        nic_wake_at(n, nic, t < rate_wait ? t : rate_wait);
        return false;
    }
    uint32_t bytes = m->bytes - m->sent;
    if (bytes > n->p.max_payload)
        bytes = n->p.max_payload;
    uint32_t flits = net_req_flits(&n->p, (enum net_op)m->op, bytes);
    /* the first request VC of its traffic class */
    /* route segment 0: a packet starts on the lowest VC of its class and
     * climbs one per segment (deadlock freedom, docs/network.md) */
    uint32_t vc0 = (uint32_t)m->tc * 2u * n->p.vcs;
    uint32_t port = nic_port(n, nic, vc0, flits, &soon, &starved);
    if (port == NET_NONE) {
        nic_blocked(n, nic, PKT_REQ, req_stalled(n, starved));
        if (rsp_ready) { /* the response may go instead */
            c->req_turn = false;
            return true;
        }
        if (soon != SIMTIME_MAX)
            nic_wake_at(n, nic, soon);
        return false;
    }
    return req_inject(n, nic, mid, prev, port, bytes, flits, vc0, now);
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
void net_nic_try(struct net *n, uint32_t nic)
{
    struct net_nic *c = &n->nic[nic];
    simtime now = n->s->now;
    /* Each turn of the loop sends one packet or returns with a wake-up
     * planned (a time, an ack or a credit return): the output path must be
     * free, then a ready response goes unless it is a ready request's turn
     * (round-robin) — a response whose stream (read or write) is busy is
     * not ready, and a request of the other stream may use the gap. */
    c->cr_wait = false;
    for (;;) {
        simtime rate_wait = SIMTIME_MAX;
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
        /* Requests and responses ready together take turns: with
         * "responses-first", a NIC answering GETs starves its own requests
         * (osu_bibw at 16 KiB moved 8.6 GB/s against 12.7 with turns,
         * docs/network.md); the hardware's order is not public. */
        bool req_first = rsp_ready && c->req_turn &&
                         n->p.nic_arb == NET_NIC_ARB_ROUND_ROBIN &&
                         req_ready_at(n, nic, now) == now;
        if (rsp_ready && !req_first) {
            if (!rsp_send(n, nic, now))
                return;
            continue;
        }
        if (c->req_head == NET_NONE ||
            c->outstanding >= n->p.max_outstanding) {
            if (rate_wait != SIMTIME_MAX)
                nic_wake_at(n, nic, rate_wait);
            return;
        }
        if (!req_send(n, nic, now, rsp_ready, rate_wait))
            return;
    }
}

static void on_nic_wake(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t nic = e->target - n->n_routers;
    if (n->nic[nic].wake_at == s->now)
        n->nic[nic].wake_at = SIMTIME_MAX;
    net_nic_try(n, nic);
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
    /* the tail is here (the EJECT was scheduled for the tail's arrival,
     * router.c transmit): a message or its data is at its destination only
     * when all of the packet is */
    n->st.last_delivery = s->now;
    if (n->hooks.delivered)
        n->hooks.delivered(n->hooks.ctx, p, s->now);
    p = &n->pkt[id];
    struct packet_cold *pc = &n->pkt_cold[id];
    uint32_t mid = pc->msg;
    if (n->ct.nic) {
        struct net_nic_count *k = &n->ct.nic[nic];
        /* PI: the NIC's processor interface, data written to the host's memory
         * (AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_*): a PUT's data at its target, a
         * GET's at the requester */
        if ((p->cls == PKT_REQ) == (p->op == NET_PUT)) { /* data to host */
            k->pi_pkts++;
            k->pi_flits += net_nic_flits(&n->p, p);
        }
        if (p->cls == PKT_RSP) {
            k->rsp_in_flits += net_nic_flits(&n->p, p);
            k->net_track++;
            /* RSP_TRACK_2: from the request leaving the NIC (a response's
             * t_created, below) — SC'19's L = dRSP_TRACK_2 / dRSP_NET_TRACK;
             * RSP_TRACK_1, dfsim's choice: from the message's hand-over, its
             * queueing at the NIC included (counters.h) */
            k->track_net += s->now - pc->t_created;
            k->track_all += s->now - n->msg[mid].t_created;
        }
    }
    if (p->cls == PKT_REQ) {
        struct message *m = &n->msg[mid];
        m->req_arrived++;
        if (m->req_arrived == m->packets && m->sent >= m->bytes) {
            uint32_t home = pc->home;
            if (n->hooks.msg_arrived)
                n->hooks.msg_arrived(n->hooks.ctx, mid, m, s->now);
            if (n->xp) /* a copy from another partition goes */
                net_xp_msg_arrived(n, mid, home);
        }
        p = &n->pkt[id];
        pc = &n->pkt_cold[id];
        /* The request is answered by its response in the same record, turned
         * round: the response keeps its request's routing mode (routed back
         * independently, XC white paper "Cray XC Routing"), packet number (the
         * hash modes), traffic class (SC'20 §II-E: a response travels in its
         * request's) and congestion marks (carried back to the source: the
         * controllers learn of congestion from the acks, ctl/slingshot.c,
         * ctl/dcqcn.c). */
        uint32_t src = p->src_nic;
        uint8_t mode = p->mode;
        uint32_t flits = net_rsp_flits(&n->p, (enum net_op)p->op,
                                       p->payload);
        uint32_t idx = p->index;
        uint16_t payload = p->payload;
        uint8_t op = p->op, mark = p->mark, tc = p->tc;
        pc->t_created = pc->t_injected; /* the request left its NIC */
        pc->t_ready = s->now;
        *p = (struct packet){
            .src_nic = nic, .dst_nic = src,
            .dst_router = n->t->nics[src].router, .mid = NET_NONE,
            .gport = NET_NONE, .index = idx,
            .flits = (uint16_t)flits, .payload = payload, .cls = PKT_RSP,
            .op = op, .mode = mode, .mark = mark, .tc = tc,
            /* the first response VC of its traffic class */
            .vc = (uint8_t)((tc * 2u + 1) * n->p.vcs) };
        rsp_push(n, nic, id);
        net_nic_try(n, nic);
        return;
    }
    struct message *m = &n->msg[mid];
    struct net_nic *c = &n->nic[nic];
    /* The response is the request's end-to-end acknowledgement (SC'20
     * §II-A: "used to track the outstanding packets between every pair of
     * network endpoints"): it frees the request's ORB entry and tells the
     * rate controllers what came back, marks included. */
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
    net_nic_try(n, nic);
}

uint32_t net_nic_outstanding(const struct net *n, uint32_t nic)
{
    return n->nic[nic].outstanding;
}

uint32_t net_send(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                  enum net_op op, uint32_t bytes, uint8_t mode, uint64_t tag)
{
    return net_send_tc(n, src_nic, dst_nic, op, bytes, mode, 0, tag, 0);
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
    /* Netscope's R_line (ICS'21 Eq. 13) in the model: 10.24 GB/s on Aries (a
     * 64 B packet every 5 cycles at 800 MHz), where one processor tile
     * carries 5.25 GB/s of flits (docs/congestion.md) */
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
                     uint64_t tag, uint64_t origin)
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
    /* its requests, known now: the message is done when that many responses
     * are back (on_eject) */
    m->packets = (bytes + n->p.max_payload - 1) / n->p.max_payload;
    m->tag = tag;
    m->origin = origin;
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
    net_nic_try(n, src_nic);
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
        /* from the topology, not the port's record: a partition reads
         * another's NICs' rates (a traffic run's rates at load 1) */
        double ps = (double)flits *
                    (double)net_ser_fp(&n->p, &n->t->ports[port]) / 1024.0;
        /* an Aries processor tile is shared by a NIC pair (topo/aries.c): each
         * NIC counts on half of it when both are busy */
        rate += 1e12 / ps /
                (shared ? (double)topo_port_users(n->t, port) : 1.0);
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

/* The NICs' events: a packet's tail reaching its NIC, a NIC's wake (what
 * an EJECT reads first is the routers' pf_packet: router.c). */
void net_nic_register(struct net *n)
{
    sim_on(n->s, NET_EV_EJECT, on_eject, n);
    sim_on(n->s, NET_EV_NIC_WAKE, on_nic_wake, n);
}
