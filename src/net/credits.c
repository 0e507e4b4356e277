/* net/credits.c — the credits on their way back to an output: the queue
 * a downstream router writes a return into (net_credit_return) and the
 * output applies when it looks at its credits (net_credit_sync,
 * net_credit_apply).
 *
 * The model is net.h's credit flow control (buffers and credits counted
 * in flits; a packet's credits return upstream one link latency after
 * its tail leaves the buffer); this file delivers them exactly, and
 * cheaply:
 *
 * Credits for an output port return one link latency after the flits
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
 * packet (vc_room, router.c): the record counts fewer credits than the VC has,
 * never more, so a grant finds room exactly when it did when every return
 * went to the record at once. The queue is kept at the front, so that a
 * port with few returns on their way touches the block's first line
 * only: an empty queue restarts at slot 0, and a return that would go
 * past that line (cr_first slots; or past the end) moves the queue to the
 * front first when it fits there. net.cr_due[port] is the oldest return's
 * time (SIMTIME_MAX when none): most looks at a port find nothing due (74
 * % of those with returns pending, in a 256-node alltoall), and they read
 * that dense array instead of the port's record and its credit block.
 *
 * Invariants: a port's queue holds at most NET_CR_DEPTH returns, in time
 * order (a return due before the last one is delayed to it); its
 * net.cr_due entry is the oldest one's time, SIMTIME_MAX when none; a
 * VC's credits (its record's, its credit block's and those on their way
 * back) never exceed its downstream buffer (on_credit asserts), and come
 * to it again once the network is empty (net_check_drained).
 */
#include <assert.h>
#include <string.h>

#include "net/net_internal.h"
#include "net/xpart.h"

/* A return in its slot: time << 17 | vc << 13 | flits (a return of more
 * than 0x1fff flits, or to a full queue, goes as an event). */
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
    return NET_CR_LINE - n->cr_cw % NET_CR_LINE;
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
    /* An endpoint port's returns are the injecting NICs' credits for the
     * router's input buffer (the NIC-to-router direction); a router port's
     * also lower its credits in use, the far-end load the adaptive modes
     * read, and a publishing global port records the lower load at the time
     * the credits came back, not at this later look (publish.c). */
    if (o->nic != NET_NONE) {
        while (cnt && CR_TIME(q[h]) <= now) {
            uint64_t x = q[h];
            net_cr_add(n, port, CR_VC(x), CR_FLITS(x), true);
            h++;
            cnt--;
        }
    } else {
        while (cnt && CR_TIME(q[h]) <= now) {
            uint64_t x = q[h];
            net_cr_add(n, port, CR_VC(x), CR_FLITS(x), false);
            o->used -= (uint32_t)CR_FLITS(x);
            if (o->peer != TOPO_NONE && o->publish)
                net_pub_record(n, port,
                               (uint64_t)o->qflits + net_out_excess(o),
                               CR_TIME(x));
            h++;
            cnt--;
        }
    }
    o->cr_head = cnt ? h : 0;
    o->cr_n = cnt;
    n->cr_due[port] = cnt ? CR_TIME(q[h]) : SIMTIME_MAX;
}

/* Router `r` returns `flits` of VC vc to upstream output `up` at `at`
 * (for an endpoint port: to the NICs injecting on it). In a windowed
 * (partitioned) run a return over a link between groups waits for the
 * window's end, where the upstream's partition writes it (net/xpart.h). */
void net_credit_return(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                       uint32_t flits, simtime at)
{
    if (__builtin_expect(n->xp != NULL, 0) && n->xp->defer[up]) {
        net_xp_credit(n, r, up, vc, flits, at);
        return;
    }
    net_credit_write(n, r, up, vc, flits, at);
}

/* Return `flits` of VC vc into output up's queue at *at (delayed to the
 * last return queued, to keep the queue in time order); false, with
 * nothing written, when it does not fit a slot (the queue is full, or more
 * flits than a slot holds): it must go as an event. */
static bool cr_push(struct net *n, uint32_t up, uint32_t vc, uint32_t flits,
                    simtime *at)
{
    struct net_out *u = &n->out[up];
    uint8_t cnt = u->cr_n;
    if (cnt == NET_CR_DEPTH || flits > 0x1fff)
        return false;
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
        if (*at < last)
            *at = last;
    }
    assert(*at < (UINT64_C(1) << 47)); /* 140 s */
    q[slot] = (*at << 17) | ((uint64_t)vc << 13) | flits;
    u->cr_n = (uint8_t)(cnt + 1);
    if (!cnt)
        n->cr_due[up] = *at;
    return true;
}

/* The CREDIT event of a return that did not fit its queue. */
static uint64_t cr_event_arg(uint32_t up, uint32_t vc, uint32_t flits)
{
    return (uint64_t)up | ((uint64_t)vc << 32) | ((uint64_t)flits << 40);
}

void net_credit_write(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                      uint32_t flits, simtime at)
{
    struct net_out *u = &n->out[up];
    uint32_t nic = u->nic;
    /* the rare return that does not fit a slot goes as an ordinary event,
     * at the same time: the same model, only dearer */
    if (!cr_push(n, up, vc, flits, &at)) {
        uint64_t arg = cr_event_arg(up, vc, flits);
        if (nic == NET_NONE)
            sim_schedule(n->s, r, at, u->router, NET_EV_CREDIT, arg);
        else
            sim_schedule(n->s, r, at, net_nic_entity(n, nic),
                         NET_EV_CREDIT, arg | (UINT64_C(1) << 63));
        return;
    }
    /* A port that waits for credits must look again when they arrive:
     * whoever waits — the NICs injecting on an endpoint port that found no
     * room, an output with packets waiting — is woken at the return's time
     * (at most one pending wake each, net_*_wake_by). Others find the
     * credits when they next look. */
    if (nic != NET_NONE) {
        for (uint32_t k = 0; k < u->nics; k++)
            if (n->nic[nic + k].cr_wait)
                net_nic_wake_by(n, r, nic + k, at);
    } else if (u->vcs_waiting) {
        net_out_wake_by(n, r, up, at);
    }
}

void net_credit_write_key(struct net *n, uint32_t up, uint32_t vc,
                          uint32_t flits, simtime at, uint64_t key)
{
    struct net_out *u = &n->out[up];
    assert(u->nic == NET_NONE); /* a link between routers */
    if (!cr_push(n, up, vc, flits, &at)) {
        sim_schedule_key(n->s, at, key, u->router, NET_EV_CREDIT,
                         cr_event_arg(up, vc, flits));
        return;
    }
    if (u->vcs_waiting && net_out_wake_due(u, at))
        sim_schedule_key(n->s, at, key, u->router, NET_EV_WAKE, up);
}

void net_port_credit_back(struct net *n, uint32_t port, uint32_t vc,
                          uint32_t flits, simtime at)
{
    uint32_t peer = n->out[port].peer; /* the router returning them */
    net_credit_return(n,
                      net_port_router(n, peer != TOPO_NONE ? peer : port),
                      port, vc, flits, at);
}
