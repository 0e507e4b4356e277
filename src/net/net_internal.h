/* net/net_internal.h — what the files of the network model share, and
 * nothing outside src/net/ sees (no file outside it includes this): the
 * NIC's record, the layout of an output's credit block, and the static
 * inline helpers that several of the files call on a packet's every hop
 * (inline, as they were when the model was one file: a call per hop
 * costs). net.h says what the model is and what it is not; it is one
 * concept per file:
 *   router.c   the routers: a packet's arrival, its routing at the input,
 *              the tiled routers' row and column buffers, output
 *              arbitration and grant, the wake events of an output
 *   nic.c      the NICs: the message queue, injection and its rate
 *              limits, request/response arbitration, ejection and acks,
 *              the calls to the NIC controllers (net/nic_ctl.h)
 *   credits.c  the credits on their way back to an output
 *   publish.c  the far-end load the routers publish to their neighbours
 *   net.c      set-up and teardown, the model's sizes, the drain check
 *   nexthop.c  the next-hop tables; params.c, the model's parameters
 * A function one of them defines and another calls has the net_ prefix
 * and is declared here (in net.h only if it is public); what one file
 * alone uses stays static there, without the prefix.
 *
 * Invariants (net.h, net_check_drained): every packet injected is
 * delivered exactly once; every request gets its response; credits stay
 * within [0, capacity] and equal capacity once the network is empty;
 * buffer occupancy equals the flits of the packets buffered.
 */
#ifndef DFSIM_NET_INTERNAL_H
#define DFSIM_NET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/slots.h"
#include "net/net.h"

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

/* ---- the credit block (credits.c) --------------------------------- */

#define NET_CR_LINE 8 /* slots per 64-byte line */

/* Words of a port's credit block before its slots with V VCs: the
 * credits, 16 bits each, rounded up to a word. */
static inline uint32_t net_cr_credit_words(uint32_t V)
{
    return (V + 3) / 4;
}

/* Words of a port's credit block with V VCs: the credits and the slots,
 * in whole lines (8 VCs: 2 + 32 words, 5 lines; the fifth is touched only
 * by a queue of more than 30 returns). */
static inline uint32_t net_cr_block_words(uint32_t V)
{
    return (net_cr_credit_words(V) + NET_CR_DEPTH + NET_CR_LINE - 1) /
           NET_CR_LINE * NET_CR_LINE;
}

/* `flits` come back to VC vc of output `port` (an endpoint port's NICs'
 * if `endpoint`): to its credit block, or, what would go past 16 bits
 * there (a buffer of more than 65,535 flits), to its record. */
static inline void net_cr_add(const struct net *n, uint32_t port,
                              uint32_t vc, uint32_t flits, bool endpoint)
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

/* ---- helpers of every hop ----------------------------------------- */

/* The time output o takes to send `flits` flits (ser_fp: ps per flit
 * times 1024, the link's efficiency in it), rounded up. */
static inline simtime net_ser_time(const struct net_out *o, uint32_t flits)
{
    return (simtime)(((uint64_t)flits * o->ser_fp + 1023) >> 10);
}

/* The router of output `port`. */
static inline uint32_t net_port_router(const struct net *n, uint32_t port)
{
    return n->out[port].router;
}

/* Make sure NIC `nic` looks at its queues again at time `at`; the event
 * is created by entity `creator`. */
static inline void net_nic_wake_by(struct net *n, uint32_t creator,
                                   uint32_t nic, simtime at)
{
    struct net_nic *c = &n->nic[nic];
    if (c->wake_at <= at)
        return;
    c->wake_at = at;
    sim_schedule(n->s, creator, at, net_nic_entity(n, nic),
                 NET_EV_NIC_WAKE, 0);
}

/* Whether output o needs a wake at `at` (none pending by then), noting
 * the one about to be made: at most one pending wake an output. */
static inline bool net_out_wake_due(struct net_out *o, simtime at)
{
    if (o->wake <= at)
        return false;
    o->wake = at;
    return true;
}

/* Make sure output `port` is looked at again at time `at`; the event is
 * created by entity `creator` (the router whose handler runs). */
static inline void net_out_wake_by(struct net *n, uint32_t creator,
                                   uint32_t port, simtime at)
{
    struct net_out *o = &n->out[port];
    if (net_out_wake_due(o, at))
        sim_schedule(n->s, creator, at, o->router, NET_EV_WAKE, port);
}

/* ---- load publication (publish.c) --------------------------------- */

/* Port `port` publishes value v from time t on (its ring: publish.c). */
void net_pub_record(struct net *n, uint32_t port, uint64_t v, simtime t);

/* Input port `port`'s occupancy changed at `now`. */
static inline void net_pub_update(struct net *n, uint32_t port, simtime now)
{
    if (n->publish == NET_PUB_INPUT)
        net_pub_record(n, port, n->in[port].occ, now);
}

/* Publishing global port `port` changed its load at time t. */
static inline void net_gpub_update(struct net *n, uint32_t port, simtime t)
{
    const struct net_out *o = &n->out[port];
    if (o->peer != TOPO_NONE && o->publish)
        net_pub_record(n, port, (uint64_t)o->qflits + net_out_excess(o), t);
}

/* ---- calls between the files -------------------------------------- */

/* Router `r` returns `flits` of VC vc to upstream output `up` at `at`
 * (for an endpoint port: to the NICs injecting on it); credits.c. */
void net_credit_return(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                       uint32_t flits, simtime at);

/* Inject what NIC `nic` can inject now (nic.c). */
void net_nic_try(struct net *n, uint32_t nic);

/* The routers' (router.c) and the NICs' (nic.c) event handlers, and what
 * each event reads first, registered on n->s (by net_init). */
void net_router_register(struct net *n);
void net_nic_register(struct net *n);

/* The packet and message pools as core/slots.h's records. */
#define PKT_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->pkt, sizeof *(n)->pkt, &(n)->pkt_cap, \
                     &(n)->pkt_free, &(n)->pkt_live })
#define MSG_SLOTS(n)                                                       \
    ((struct slots){ (void **)&(n)->msg, sizeof *(n)->msg, &(n)->msg_cap, \
                     &(n)->msg_free, &(n)->msg_live })

/* A free packet id (the pool grown if need be), NET_NONE when out of
 * memory (nic.c). */
uint32_t net_pkt_alloc(struct net *n);

/* Write a credit return into output up's queue (credits.c): what
 * net_credit_return does at once, and a partition at a window's end for
 * the returns over links between groups (net/xpart.h). */
void net_credit_write(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                      uint32_t flits, simtime at);
/* The same at a window's end, for a return over a link between groups
 * (net/xpart.h): the event it may need (the upstream's wake, or the
 * return itself when its queue is full) takes the key its sender took
 * when it made the return, so that the order the returns are written in
 * across ports does not matter. */
void net_credit_write_key(struct net *n, uint32_t up, uint32_t vc,
                          uint32_t flits, simtime at, uint64_t key);

#endif
