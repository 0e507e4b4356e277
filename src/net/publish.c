/* net/publish.c — the far-end load the routers publish to their
 * neighbours, which adaptive routing reads (net_port_load_far,
 * net_port_published: route/aries.c).
 *
 * "Each Aries device computes its load and distributes the information to
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
 * every-period publication of its current credits would show).
 *
 * Invariants: a port's ring holds at most NET_PUB_DEPTH entries, the
 * newest at pub_top, their epochs strictly increasing; pub_base is the
 * value before the oldest. What the routers publish is chosen before any
 * traffic (net.c, set_publish: NET_PUB_INPUT with aries_load
 * "occupancy", NET_PUB_GLOBAL with "credit").
 */
#include <assert.h>

#include "net/net_internal.h"

#define PUB_VAL_MASK ((UINT64_C(1) << 24) - 1)

/* Port `port` publishes v from time t on: the entry of t's epoch is
 * overwritten, or a new one added (the oldest then leaving the ring for
 * pub_base when it is full). Values beyond 24 bits are clamped. */
void net_pub_record(struct net *n, uint32_t port, uint64_t v, simtime t)
{
    struct net_in *in = &n->in[port];
    /* one entry per epoch: only the value at an epoch's end can be read
     * (a reader sees the start of an epoch, the end of the one before) */
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
    /* The hardware publishes at every period's start and the value takes a
     * link latency (the delay) to arrive: a reader at `now` sees what was
     * current at the start of epoch ve = (now - delay) / period, that is
     * the value at the end of the newest recorded epoch before ve. */
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

uint32_t net_port_load_far(const struct net *n, uint32_t port, simtime now)
{
    const struct net_out *o = &n->out[port];
    uint32_t dp = o->peer;
    if (dp == TOPO_NONE)
        return 0;
    /* nothing published (publish_cycles 0, or no mode that reads it): the
     * next router's input occupancy as it is now, a model without the
     * staleness */
    if (n->publish != NET_PUB_INPUT)
        return n->in[dp].occ;
    return pub_read(n, dp, now, o->latency);
}

void net_port_publish(struct net *n, uint32_t gport, simtime now)
{
    net_gpub_update(n, gport, now);
}

uint32_t net_port_published(struct net *n, uint32_t gport, simtime now,
                            simtime delay)
{
    const struct net_out *o = &n->out[gport];
    /* the credits back by now lower the load whether or not its own router
     * has looked at the port since (net_credit_sync: applied lazily) */
    net_credit_sync(n, gport, now);
    /* a port that does not publish (publish_cycles 0: "always current")
     * is read as it is now */
    if (!o->publish)
        return o->qflits + net_out_excess(o);
    return pub_read(n, gport, now, delay);
}
