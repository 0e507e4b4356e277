/* net/xpart.h — one network dealt over partitions (issue 54): what
 * crosses from one partition's network to another's, and the rule that
 * makes a partitioned run give the same result however many partitions
 * there are.
 *
 * Every partition builds the whole network (struct net) and runs the
 * events of its own routers, their NICs and what runs on them
 * (net/partition.h deals whole groups). Time advances in windows of the
 * lookahead W (no longer than the wire latency of any link between two
 * groups): every partition runs its events before the window's end, then
 * the partitions exchange what crossed, then the next window. Two things
 * cross a link between groups (docs/parallel-inventory.md, N1 and N2):
 *
 *  - a packet going to a router of another partition (router.c
 *    transmit): its record, its cold part and, for a request, a copy of
 *    its message (the destination counts the message's requests,
 *    nic.c on_eject), with the ARRIVE's time and key (sim_take_key: the
 *    key it would have had in one process). The receiver queues it under
 *    a packet id of its own. A request's message becomes a copy in the
 *    destination's pool (a foreign message), found again by its source
 *    NIC and its id there; its response carries that id home. A request
 *    passing through a third partition keeps its message there, as a
 *    copy of its own, until it leaves.
 *
 *  - with aries_load "occupancy", what a router publishes of its input
 *    ports' occupancy (net/publish.c) to the routers upstream of them in
 *    other partitions: at a window's end, the ring entries recorded since
 *    the last (net_xp_flush), written into the reader's replica of the
 *    ring at the exchange. A reader sees only epochs that ended a link
 *    latency (>= W) before it reads, so every entry it can use ended
 *    before the window began; with at most NET_PUB_DEPTH - 3 epochs in a
 *    link's latency (else refused) no entry it needs has left the ring,
 *    in one partition or many, so the reads are the same.
 *
 *  - a credit return over any link between two units (groups, or a
 *    torus's planes across the dimension cut), whatever the
 *    partitions (credits.c net_credit_return): the router that frees the
 *    buffer cannot read the upstream port's state (its credit queue, who
 *    waits), so the return is written into the upstream's queue at the
 *    window's end by the upstream's partition, and the wake of a port
 *    that waits is made there, with a key the router that made the return
 *    took from its own count (sim_take_key). It is due a wire latency
 *    after it left (>= W), so nothing reads it before: in one partition
 *    and in many, the same returns reach the same queues in the same order
 *    (a port's as its one sender made them) and the same wakes are made
 *    with the same keys. The rule holds in a one-partition windowed
 *    run too, which is what makes P = 1 the reference.
 *
 * Invariants: a packet is in exactly one partition's pool, or in one
 * box between windows; a credit return in a box is due at or after the
 * window's end; the boxes are empty after net_xp_receive.
 */
#ifndef DFSIM_NET_XPART_H
#define DFSIM_NET_XPART_H

#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/keymap.h"
#include "net/net.h"

/* A packet crossing to another partition, with its event. */
struct xp_pkt {
    simtime at;               /* its ARRIVE */
    uint64_t key;             /* the ARRIVE's key (sim_take_key) */
    uint32_t target;          /* the router it arrives at */
    uint32_t pad_;
    struct packet p;
    struct packet_cold c;
    struct message m;         /* a request's message as it stood */
};

/* A credit return over a link between groups, to the upstream port. */
struct xp_cr {
    simtime at;               /* due */
    uint64_t key;             /* taken by the router that made it: the key
                                 of the event it may need at the upstream */
    uint32_t up;              /* the upstream output */
    uint32_t vc, flits;
    uint32_t pad_;
};

/* An entry of an input port's publication ring (net/publish.c: (epoch
 * << 24) | occupancy) that a router of another partition reads, a link
 * latency later, with aries_load "occupancy" (inventory N3). */
struct xp_pub {
    uint32_t port;            /* the input port, of the sender's router */
    uint32_t pad_;
    uint64_t word;
};

/* A record a layer above the network sends another partition (the MPI
 * layer's envelopes, mpi/mpi.h struct dmpi_env), opaque here: delivered
 * at the window's end to that partition's mail_in. Its sender makes sure
 * nothing reads it there before (an envelope goes when its message leaves
 * the host; the message crosses a cut, so arrives a window later at the
 * earliest). */
struct xp_mail {
    uint64_t w[5];
};

/* What one partition sends another in a window. */
struct xp_box {
    struct xp_pkt *pkt;
    size_t n_pkt, cap_pkt;
    struct xp_cr *cr;
    size_t n_cr, cap_cr;
    struct xp_mail *mail;
    size_t n_mail, cap_mail;
    struct xp_pub *pub;
    size_t n_pub, cap_pub;
};

/* A partition's side of the exchange (net.xp). */
struct net_xp {
    uint32_t parts, me;        /* P, and which this is */
    const uint32_t *part_of;   /* [router] -> its partition (not owned) */
    uint8_t *defer;            /* [port]: its credits wait for the window's
                                  end (a link between two units) */
    struct xp_box *box;        /* [parts]: what goes to each this window */
    /* foreign messages: (source NIC << 32 | id there) -> id here */
    struct keymap fm;
    bool oom;                  /* a box could not grow: the run is void */
    /* with aries_load "occupancy": this partition's input ports that a
     * router of another partition reads, the reader's partition, and the
     * newest entry of each sent so far (+ 1; 0: none) */
    uint32_t n_pub_port;
    uint32_t *pub_port, *pub_to;
    uint64_t *pub_sent;
    /* the layer above's mail, at the window's end (NULL: none comes) */
    void (*mail_in)(void *ctx, const struct xp_mail *m);
    void *mail_ctx;
};

/* Make n one partition `me` of part_of's P (part_of[router], kept by the
 * caller while n lives), its units groups (dim -1) or planes across torus
 * dimension dim (partition_unit_of); P = 1 is the windowed one-process
 * run. 0, or -1 reported. */
int net_xp_init(struct net *n, const uint32_t *part_of, uint32_t parts,
                uint32_t me, int dim, struct diag *d);
void net_xp_free(struct net *n);

/* Router r's output sends packet id over a link to router `target` of
 * another partition, arriving at `at` (router.c transmit): into that partition's box, the
 * packet's id freed here. */
void net_xp_ship(struct net *n, uint32_t r, uint32_t id, simtime at,
                 uint32_t target);

/* Router r's credit return to output `up` over a link between groups,
 * due at `at` (credits.c): into the box of up's partition, with a key
 * taken from r. */
void net_xp_credit(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                   uint32_t flits, simtime at);

/* A record of the layer above for partition `part`'s mail_in, at the
 * window's end. */
void net_xp_mail(struct net *n, uint32_t part, const struct xp_mail *m);

/* At a window's end, what the partitions sent this one: packets (queued
 * with their keys), credit returns (each sender's in the order it made
 * them; the senders in any order: a port has one sender, and the events
 * they need carry their own keys) and mail (to mail_in). 0, or -1 when
 * out of memory (the run is void). */
int net_xp_receive(struct net *n, const struct xp_pkt *pkt, size_t n_pkt,
                   const struct xp_cr *cr, size_t n_cr,
                   const struct xp_mail *mail, size_t n_mail);

/* Every request of message mid has arrived (nic.c on_eject; home: the
 * last one's packet_cold.home): a foreign message's copy goes. */
void net_xp_msg_arrived(struct net *n, uint32_t mid, uint32_t home);

/* The rate controllers' next tick (SIMTIME_MAX: none), the same in every
 * partition: a windowed run ends a window there and, with every event
 * before it run and none at it, takes the tick (net_cc_take_ticks: each
 * controller's tick_per_nic over this partition's NICs). So a tick reads
 * each NIC's counters exactly at its time, in one partition or many
 * (the one-process run takes it at the first NIC event at or after it,
 * reading counters an interval closed since may have moved: inventory
 * N8). */
simtime net_xp_next_tick(const struct net *n);

/* At a window's end, before the exchange: the publication entries of
 * this partition's read ports recorded since the last, into their
 * readers' boxes. 0, or -1 out of memory (the run is void). */
int net_xp_flush(struct net *n);

/* The publication entries other partitions sent this one, into its
 * replicas of their rings, in the order each sent them. */
void net_xp_receive_pub(struct net *n, const struct xp_pub *pub, size_t n_pub);

/* Empty every box (after the exchange has copied them). */
void net_xp_clear(struct net *n);

#endif
