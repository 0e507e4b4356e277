/* net/router.c — the routers: a packet's arrival, its routing at the
 * input, the tiled routers' row and column buffers, the arbitration of
 * an output among its VCs and traffic classes and its grant, and the
 * wake events that bring an output back.
 *
 * From net.h: routers are input-buffered, with `vcs` virtual channels
 * per class and two classes (requests, responses) in each traffic class,
 * buffers and credits counted in flits, virtual cut-through at packet
 * granularity (a packet moves only when the downstream VC has room for
 * all of it). A packet reaching a router becomes eligible after the
 * router's pipeline delay. How it then reaches its output depends on the
 * router's buffering (`router`):
 *   tiled (Aries, Gemini, the generic dragonfly): the tiled routers of
 *     Cray's BlackWidow/YARC lineage (XC white paper, "Aries Router";
 *     Kim et al., "Microarchitecture of a High-Radix Router", ISCA
 *     2005): the head of each input VC is routed at its input queue and
 *     crosses the tile row's bus into the row buffer that input has, per
 *     VC, in the sub-switch of its output's column; from there, first in
 *     first out, into the column buffer its output has for that row and
 *     VC, where it waits for the output link;
 *   input-queued: the head of each input VC waits for its output
 *     directly (the classic head-of-line limit, kept for ablation);
 *   voq (Slingshot: SC'20 §II-A, "virtual output-queued architecture"):
 *     every packet requests its output at once.
 * An output port serves one packet at a time, for its serialization time
 * at the link's bandwidth; arbitration is round-robin over VCs and first
 * come first served within a VC, with traffic classes by priority and
 * weight (SC'20 §II-E). The credits for the flits a packet held go back
 * upstream one link latency after its tail leaves (credits.c). With
 * p.counters the routers keep the tiles' counters (CUG'13 §VI, Pedretti
 * et al.; net/counters.h).
 *
 * Invariants: an input port's occupancy is the flits of the packets in
 * its buffer (tiled: until each leaves for its row buffer); an output's
 * near-end queue (net_out.qflits) is the flits routed to it and not yet
 * granted (tiled: those in its column buffers); a row or column buffer
 * never holds more than row_buffer or col_buffer flits; an output grants
 * a packet only when its downstream VC has room for all of it, so
 * credits never go below zero (transmit asserts).
 */
#include <assert.h>
#include <stddef.h>

#include "net/net_internal.h"
#include "net/routing.h"
#include "net/xpart.h"

/* ---- credits at the output ---------------------------------------- */

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

/* ---- counting (only with p.counters) ------------------------------ */

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

/* ---- wake events -------------------------------------------------- */

/* Make sure output `port` is looked at again at time `at`, an event its
 * own router creates (net_out_wake_by). */
static void out_wake_at(struct net *n, uint32_t port, simtime at)
{
    net_out_wake_by(n, net_port_router(n, port), port, at);
}

static void out_grant(struct net *n, uint32_t port);

/* ---- router ------------------------------------------------------- */

/* `flits` join the near-end queue of output `out` at now (a publishing
 * port records its new load, after the credit returns due). */
static void queue_add(struct net *n, uint32_t out, uint32_t flits,
                      simtime now)
{
    struct net_out *o = &n->out[out];
    /* A global port that publishes its load (NET_PUB_GLOBAL) records every
     * change at its own time; the credits due before now are applied first,
     * so that its ring stays in time order (publish.c) and the new value
     * counts them back. */
    if (o->peer != TOPO_NONE && o->publish) {
        net_credit_sync(n, out, now);
        o->qflits += flits;
        net_gpub_update(n, out, now);
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
    /* A NIC may be reached by several ports (Aries: the four processor
     * tiles its NIC pair shares; Gemini: four host tiles): the packet
     * takes the one with the fewest flits waiting, then the one free
     * soonest. Which tile the hardware takes is not public: the model's
     * choice. */
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
    /* Marks are decided where the hardware decides them, as the packet is
     * routed at a switch, by the queue it finds for its output: Slingshot's
     * endpoint marks (the destination's port, ctl/slingshot.c) and DCQCN's
     * RED (ctl/dcqcn.c). One look at the least threshold keeps the common
     * case (no queue) to one comparison. */
    if (n->cc_on && n->out[p->out_port].qflits > n->ctl.mark_above)
        ctl_mark(n, r, p, n->out[p->out_port].qflits);
    /* The near-end queue a router's adaptive routing reads of this output
     * (net_out.qflits): on an input-queued or VOQ router every packet
     * routed to it; on a tiled router only what sits in its column buffers,
     * which it joins later (rb_advance). */
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
    /* first come first served within the output VC: the wait list is the
     * order of the requests */
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
        /* an empty row buffer takes any packet (every buffer holds the
         * largest, net.c check_params): a packet is never too large to move */
        if (rb->occ && rb->occ + p->flits > n->p.row_buffer)
            return; /* waits for room */
        ivc_set_head(iv, p->in_next);
        in->occ -= p->flits;
        net_pub_update(n, ip, now);
        /* The packet crosses the row bus at its input link's rate, and cannot
         * leave before its tail has arrived (cut-through); its credits reach
         * the upstream output one wire latency later (they travel back over
         * the same link), when the upstream may send into the freed flits. */
        simtime left = now + net_ser_time(&n->out[ip], p->flits);
        if (left < p->tail)
            left = p->tail;
        net_credit_return(n, r, in->up, vc, p->flits, left + in->latency);
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
        /* Its column buffer is full: the output is congested. The row buffer
         * waits in that buffer's list, first come first served among the tile
         * rows, and its head blocks only the packets behind it in this row
         * buffer, for this column: the row and column buffers are what keeps
         * a tiled router's head-of-line blocking that small (net.h). */
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
        /* in its column buffer: the output's near-end queue now, as the Aries
         * load estimate reads it; the input stall ends here (CUG'13 §VI: the
         * wait until it "can move to the destination tile's output queue") */
        queue_add(n, p->out_port, p->flits, n->s->now);
        if (n->p.counters)
            in_wait_end(n, ip, vc, n->s->now);
        out_enqueue(n, id);
    }
    /* room freed here: the input head that waits for this row buffer
     * (routed, for this column) may come in */
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
    /* The tile's arrival counters (INQ_PRF_INCOMING_FLIT_VC<v>, Gemini's
     * VC<k>_PHIT_CNT) count here, after the pipeline delay, when the router
     * sees the packet: a router's counters are written by its own events
     * only (docs/counters.md). */
    n->in[ip].occ += p->flits;
    net_pub_update(n, ip, n->s->now);
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
    /* The link sends one packet at a time, for its serialization time (the
     * link layer's overhead in it: Aries's LCB carries 9 packet flits in
     * every 10, XC white paper "Aries Router"). With cut-through the tail
     * cannot leave before it has arrived: a packet that came in on a slower
     * link, or that left its input as soon as its head was routed, holds the
     * output until its tail is through — why a lone packet's latency is
     * max_i [sum_{j<i}(w_j + D) + s_i + sum_{j>=i} w_j] over its links
     * (docs/network.md). */
    simtime end = now + net_ser_time(o, p->flits);
    if (end < p->tail)
        end = p->tail;
    o->busy = end;
    if (n->hooks.hop)
        n->hooks.hop(n->hooks.ctx, p, out, false,
                     now - n->pkt_cold[id].t_ready, now);
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
        net_pub_update(n, ip, now);
        net_credit_return(n, r, in->up, p->vc, p->flits, end + in->latency);
    }
    p->flags &= (uint8_t)~PKT_ROUTED;

    if (o->peer == TOPO_NONE) {
        /* to the NIC: delivered when the tail arrives */
        /* its tail reaches the NIC one wire latency after it leaves */
        sim_schedule(n->s, r, end + o->latency,
                     net_nic_entity(n, p->dst_nic), NET_EV_EJECT, id);
        return;
    }
    struct net_ovc *w = net_ovc_at(n, out, p->out_vc);
    /* Credits for all its flits are taken at once (the downstream VC had
     * room for all of it: virtual cut-through); until they come back they
     * count in the port's credits in use (net_out.used), the far end as
     * the credits tell it, which the adaptive modes read late by the credit
     * return (route/aries.c). */
    w->credits -= p->flits;
    assert(w->credits >= 0);
    o->used += p->flits;
    net_gpub_update(n, out, now);
    p->in_port = o->peer;
    p->vc = p->out_vc;
    /* The head reaches the next router one wire latency after it leaves and
     * is eligible a pipeline delay later (router_delay: Aries ~100 ns a hop,
     * XC white paper; Rosetta 350 ns, SC'20 §II-A), while its tail
     * arrives a wire latency after the serialization ends. */
    p->tail = end + o->latency;
    p->hops++;
    if (__builtin_expect(n->xp != NULL, 0) &&
        n->xp->part_of[o->peer_router] != n->xp->me) {
        /* to another partition: it is queued there (net/xpart.h) */
        net_xp_ship(n, r, id, now + o->latency + n->p.router_delay,
                    o->peer_router);
        return;
    }
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
    /* Round-robin over the VCs with packets waiting, from the one after the
     * last served: fair and starvation-free; within a VC first come first
     * served. A head whose downstream VC lacks room for all of it is
     * skipped (virtual cut-through), so a blocked VC does not hold the
     * others on the link. With traffic classes the class is chosen first
     * (tc_pick). */
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
        /* the pointer moves past the VC served */
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
    /* Nothing can go: every waiting head lacks downstream credits (or a
     * response slot at its NIC). The link idles while packets wait for
     * credits: what the tile's credit-stall counters count (Aries
     * COLBUF_PERF_STALL_RQ/_RS, Gemini's CREDIT_STALL, CUG'13 Table I), per
     * class of the packets waiting and for either. */
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
    if (n->hooks.hop) /* its wait here counts from now (transmit) */
        n->pkt_cold[(uint32_t)e->arg].t_ready = s->now;
    in_push(n, e->target, (uint32_t)e->arg);
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

/* Credits that came back as an event (net_credit_return: their queue was
 * full, or more flits than a slot holds): to the NICs injecting on an
 * endpoint port (bit 63 of the argument), each of which may inject again,
 * or to an output to a router, which may grant. */
static void on_credit(struct sim *s, const struct event *e, void *ctx)
{
    struct net *n = ctx;
    uint32_t port = (uint32_t)e->arg;
    uint32_t vc = (uint32_t)(e->arg >> 32) & 0xff;
    int32_t flits = (int32_t)((e->arg >> 40) & 0x7fffff);
    struct net_out *o = &n->out[port];
    struct net_ovc *w = net_ovc_at(n, port, vc);
    if (e->arg >> 63) {
        net_cr_add(n, port, vc, (uint32_t)flits, true);
        assert(w->inj_credits + net_port_credits(n, port)[vc] <=
               (int32_t)n->buf_cap[port]);
        for (uint32_t k = 0; k < o->nics; k++)
            net_nic_try(n, o->nic + k);
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

/* The routers' events: a packet's arrival, an output's wake, credits
 * that came back as an event (their queue was full); and what each event
 * reads first (sim_on_prefetch: pf_packet also serves the NICs' EJECT,
 * whose packet is read as an arrival's is). */
void net_router_register(struct net *n)
{
    struct sim *s = n->s;
    sim_on(s, NET_EV_ARRIVE, on_arrive, n);
    sim_on(s, NET_EV_WAKE, on_wake, n);
    sim_on(s, NET_EV_CREDIT, on_credit, n);
    sim_on_prefetch(s, NET_EV_ARRIVE, pf_packet);
    sim_on_prefetch(s, NET_EV_EJECT, pf_packet);
    sim_on_prefetch(s, NET_EV_WAKE, pf_port);
    sim_on_prefetch(s, NET_EV_CREDIT, pf_port);
}
