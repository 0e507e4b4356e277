/* net/net.h — the network model: NICs, routers, links, credit flow control.
 *
 * What is modelled (DESIGN.md §2; issue 3):
 *  - Messages (PUT or GET, a size, a routing mode chosen by the sender)
 *    enter a NIC, which cuts them into request packets of at most
 *    `max_payload` bytes, as the hardware does (Aries/Gemini 64 B,
 *    Slingshot 4 KiB). Every request is answered by a response packet,
 *    routed back independently. A PUT carries its data in the request, a
 *    GET in the response. Sizes are counted in network flits: Aries 48-bit
 *    flits (64 B PUT = 14 request + 1 response flits, GET = 3 + 12: XC white
 *    paper, "Aries Performance"), Gemini 3-byte phits (PUT 32 + 3, GET
 *    8 + 27: Pedretti et al. §V), Slingshot bytes (4 KiB + 62 B of
 *    Ethernet/IP/UDP/IB/RoCE headers: SC'20 §II-G).
 *  - A NIC injects at most one packet per `nic_gap` (Aries: a 64 B read or
 *    write every 5 cycles at 800 MHz) in each of two streams, reads of
 *    host memory (PUT requests, GET responses) and writes (PUT responses,
 *    GET requests), on the least recently busy of its endpoint
 *    ports (Aries: the Netlink spreads a NIC pair's packets over their four
 *    processor tiles packet by packet), with at most `max_outstanding`
 *    requests awaiting their response (Aries: 1024, SC'19 §2.1). Requests
 *    and responses ready together take turns (`nic_arb`).
 *  - Routers are input-buffered, with `vcs` virtual channels per class and
 *    two classes (requests on VCs 0..vcs-1, responses on vcs..2vcs-1: Aries
 *    has 4 + 4), buffers and credits counted in flits, virtual cut-through
 *    at packet granularity (a packet moves only when the downstream VC has
 *    room for all of it). A packet reaching a router becomes eligible after
 *    the router's pipeline delay. How it then reaches its output depends
 *    on the router's buffering (`router`):
 *      tiled (Aries, Gemini, the generic dragonfly): the tiled routers of
 *        Cray's BlackWidow/YARC lineage (XC white paper, "Aries Router";
 *        Kim et al., "Microarchitecture of a High-Radix Router", ISCA
 *        2005): the head of each input VC is routed at its input queue
 *        and crosses the tile row's bus into the row buffer that input
 *        has, per VC, in the sub-switch of its output's column; from
 *        there, first in first out, into the column buffer its output has
 *        for that row and VC, where it waits for the output link ("the
 *        column buffers collect packet data from the six tiles within each
 *        column and multiplex them onto the output link"). An input head
 *        blocks the packets behind it only while the row buffer of its
 *        column is full, and a row-buffer head only while its column
 *        buffer is full (its output congested); the input buffer's
 *        credits go back upstream as the packet leaves it for the row
 *        buffer.
 *      input-queued: the head of each input VC waits for its output
 *        directly (a plain input-queued crossbar: the classic head-of-line
 *        limit, kept for ablation).
 *      voq (Slingshot: SC'20 §II-A, "virtual output-queued architecture"):
 *        every packet requests its output at once.
 *    An output port serves one packet
 *    at a time, for its serialization time at the link's bandwidth (times
 *    the link-layer efficiency: Aries LCB sends 9 packet flits in 10);
 *    arbitration is round-robin over VCs and first-come-first-served within
 *    a VC, so it is fair and starvation-free. Credits for the flits a packet
 *    held return upstream one link latency after its tail leaves.
 *  - Adaptive routing sees, for each output port, the near-end queue (flits
 *    waiting for it here, exact), the credits in use (stale by the credit
 *    return latency) and the far-end load that the downstream router
 *    published: its input-buffer occupancy at the start of the last
 *    publication period, visible one link latency later (Aries: every 10
 *    cycles, XC white paper "Aries Router"). This staleness is what makes
 *    phantom congestion.
 *
 * What is not: flit-level pipelining inside a packet (virtual cut-through
 * moves whole packets), the tiled routers' internal timing (a packet
 * crosses the row bus and the sub-switch in the router's pipeline delay;
 * an output serves its column buffers first come first served within a
 * VC),
 * link errors and retransmission, packet
 * compression on Gemini, ejection back-pressure other than the response
 * slots (a request waits in its router while its NIC has no free slot,
 * `nic_rsp_slots`; responses are always sunk at the port's bandwidth).
 *
 * Invariants (net_check): every packet injected is delivered exactly once;
 * every request gets its response; credits stay within [0, capacity] and
 * equal capacity once the network is empty; buffer occupancy equals the
 * flits of the packets buffered.
 *
 * Entities for the event engine: routers are 0 .. n_routers-1, NICs are
 * n_routers + nic. Users of the model (traffic generators, the MPI layer)
 * schedule their own events with types >= NET_EV_COUNT.
 */
#ifndef DFSIM_NET_H
#define DFSIM_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "net/nic_ctl.h"
#include "net/params.h"
#include "core/config.h"
#include "core/diag.h"
#include "core/rng.h"
#include "core/sim.h"
#include "topo/topo.h"

#define NET_NONE UINT32_MAX
#define NET_MAX_VCS 16  /* per port: both packet classes of every
                           traffic class */
#define NET_MAX_SEGS 8  /* VCs per packet class a route may need (4
                           segments; 8 with vc_rule "hop") */
#define NET_MAX_MODES 8 /* routing modes configured in one run */

enum { NET_EV_ARRIVE, NET_EV_WAKE, NET_EV_CREDIT, NET_EV_EJECT,
       NET_EV_NIC_WAKE, NET_EV_COUNT };

enum pkt_class { PKT_REQ = 0, PKT_RSP = 1 };
enum net_op { NET_PUT = 0, NET_GET = 1 };

/* Packet flags. */
enum {
    PKT_NONMIN = 1,    /* routed (or diverted) non-minimally */
    PKT_MID_DONE = 2,  /* reached its intermediate router/group */
    PKT_DECIDED = 4,   /* adaptive min/non-min decision taken for good */
    PKT_ROUTED = 0x80, /* router.c, tiled routers: routed at the current
                          router, not yet sent on (bits 8..0x40 belong to
                          route/) */
};

/* Congestion marks (struct packet.mark), set by the routers for the
 * NIC controllers that mark (net/nic_ctl.h, struct nic_ctl.mark); a
 * request's response carries its marks back to its source. */
enum {
    PKT_MARK_ENDPOINT = 1, /* routed to a switch's endpoint port while more
                              than cc_mark_flits waited for it (Slingshot's
                              endpoint congestion, ctl/slingshot.c) */
    PKT_MARK_ECN = 2,      /* ECN: marked by a router output's RED (DCQCN,
                              ctl/dcqcn.c) */
};

/* Messages of a NIC's queue the NIC looks at for one its rate
 * controllers admit (a bound, so that one NIC's decision stays O(1);
 * Slingshot's Cassini NIC keeps many command queues, their number not
 * public). */
#define NET_CC_SCAN 64

/* A packet's record: what a router hop reads and writes, in one aligned
 * 64-byte line (net->pkt is line-aligned). What only its NIC ends use is
 * in struct packet_cold, at the same index (net_pkt_cold). */
struct packet {
    uint32_t next;       /* link in an output's wait list (or free list) */
    uint32_t in_next;    /* link in its input VC's FIFO */
    simtime tail;        /* its tail reaches the current router's input */
    uint32_t src_nic, dst_nic;
    uint32_t dst_router; /* router of the NIC it is going to */
    uint32_t mid;        /* intermediate router (or, with PKT_MID_GROUP,
                            group) of a non-minimal route, else NET_NONE */
    uint32_t gport;      /* global port chosen to leave the current group */
    uint32_t in_port;    /* port it arrived on at the current router;
                            NET_NONE while at its source NIC */
    uint32_t out_port;   /* port requested at the current router */
    uint32_t index;      /* packet number within its message (hash modes) */
    uint32_t cb;         /* tiled: while in a column buffer, its index
                            (net_colbuf_index), so that leaving it does
                            not look up the input's tile row */
    uint16_t flits;      /* network flits (phits, bytes on Slingshot) */
    uint16_t payload;    /* bytes of data it carries */
    uint8_t mode;        /* routing mode index, into net->modes */
    uint8_t vc;          /* VC at the current router's input */
    uint8_t out_vc;      /* VC requested downstream */
    uint8_t hops;        /* router-to-router hops so far */
    uint8_t flags;       /* PKT_* */
    uint8_t dec_hops;    /* adaptive decisions taken so far */
    uint8_t seg : 4;     /* route segment (see route.h; < 4): the VC
                            within the class (vc_rule "hop": its half) */
    uint8_t dim : 4;     /* torus: dimension being routed; dragonfly:
                            local hops taken in the segment (vc_rule) */
    uint8_t cls : 1;     /* enum pkt_class */
    uint8_t op : 1;      /* enum net_op */
    uint8_t mark : 2;    /* congestion marks (PKT_MARK_*); a
                            response carries its request's */
    uint8_t tc : 2;      /* traffic class (net_params.tc; < NET_MAX_TCS); a
                            response travels in its request's */
};

/* The rest of a packet: set at its NIC ends, read there. */
struct packet_cold {
    simtime t_created;   /* request: message handed to the NIC;
                            response: its request left the source NIC */
    simtime t_injected;  /* left the NIC */
    uint32_t msg;        /* message it belongs to */
    uint32_t home;       /* partitioned runs (net/xpart.h): its message's id
                            at the message's source NIC, once it has
                            crossed to another partition */
    simtime t_ready;     /* since when it could move on where it is: made
                            at its NIC (a request: its message handed
                            over; a response: its request delivered), or
                            eligible at its current router (kept there
                            only while a hop hook is set); 32 bytes */
};

/* A message handed to a NIC by net_send. */
struct message {
    uint32_t next;        /* NIC send queue link */
    uint32_t src_nic, dst_nic;
    uint32_t bytes;       /* size */
    uint32_t sent;        /* bytes already cut into packets */
    uint32_t packets;     /* packets it has (requests) */
    uint32_t injected;    /* requests injected so far */
    uint32_t req_arrived; /* requests delivered at the destination */
    uint32_t rsp_arrived; /* responses back at the source */
    uint8_t op, mode, tc;
    uint64_t tag;         /* the sender's cookie */
    simtime t_created;
    uint64_t origin;      /* the sender's second cookie (the MPI layer:
                             the job and iteration its packets count in);
                             both cookies travel with the message to
                             another partition (net/xpart.h) */
};

/* Counters the model keeps for itself (cheap, always on). */
struct net_stats {
    uint64_t msgs_sent, msgs_done;
    uint64_t injected[2], delivered[2]; /* packets per class */
    uint64_t flits_delivered[2];
    uint64_t hops;          /* router-to-router hops of delivered packets */
    uint64_t nonmin[2];     /* delivered packets that went non-minimally */
    uint64_t credit_stalls; /* grants refused for lack of credits */
    simtime last_delivery;  /* time of the last delivery (watchdog) */
};

/* What the model tells its user. Each may be NULL. */
struct net_hooks {
    void *ctx;
    /* a packet's tail reached its destination NIC (p valid during call) */
    void (*delivered)(void *ctx, const struct packet *p, simtime now);
    /* packet p starts crossing `port`, `waited` after it could have: from
     * its NIC (at_nic; port: the router's endpoint port it enters) since
     * it was made, else from a router since it became eligible there
     * (after the pipeline delay) — its queueing for credits, for the
     * output and inside the router, which the waits of a job's packets
     * add up (mpi/mpi.h, struct dmpi_waits) */
    void (*hop)(void *ctx, const struct packet *p, uint32_t port,
                bool at_nic, simtime waited, simtime now);
    /* every request of message m has reached its destination */
    void (*msg_arrived)(void *ctx, uint32_t m, const struct message *msg,
                        simtime now);
    /* every response of message m is back at its source: complete */
    void (*msg_done)(void *ctx, uint32_t m, const struct message *msg,
                     simtime now);
};

struct net_nic;     /* net_internal.h */
struct net_nic_inj; /* net_internal.h */

/* What the NIC counters count, per NIC, cumulative from time 0 (see
 * net/counters.h for the hardware names and units). Times in ps. Two
 * lines: what an injection touches, then what a delivery touches. */
struct net_nic_count {
    uint64_t flits[2], pkts[2]; /* NIC flits / packets injected, by class */
    simtime stall[2];           /* by class: a packet ready but held back
                                   for lack of credits (closed intervals) */
    simtime since[2];           /* start of the open interval, or
                                   SIMTIME_MAX */
    uint64_t net_track;         /* responses back for its requests */
    simtime track_net;          /* their latency: response back - request
                                   injected (no NIC queue time) */
    simtime track_all;          /* response back - message handed over */
    uint64_t pi_pkts, pi_flits; /* delivered to the host (NIC flits) */
    uint64_t rsp_in_flits;      /* responses received for its requests
                                   (NIC flits): the ORB's inbound side */
    uint64_t pad_[2];
};

/* NIC k's stalled time of class cls up to `now`, the open interval
 * included. net_nic_try opens a request's interval at the time the request
 * will be ready, which can be ahead of `now`: a read before that time
 * counts none of it (without this guard the difference wrapped, and a
 * counter read went back by 2^64 - a few cycles). */
static inline simtime net_nic_stalled(const struct net_nic_count *k,
                                      uint32_t cls, simtime now)
{
    simtime s = k->stall[cls];
    if (now > k->since[cls]) /* SIMTIME_MAX when none is open */
        s += now - k->since[cls];
    return s;
}

/* The state of ports and VCs, packed by access pattern into records
 * (arrays of structs, each array aligned to 64-byte lines) so that a
 * router hop touches few cache lines: per port an output record (one
 * line) and an input record (half a line), per (port, VC) an output-VC
 * and an input-VC record. Topology fields the hot path reads are copied
 * into them at set-up (they never change).
 *
 * Hardware counting (kept when p.counters is set; net/counters.h) lives
 * where a hop touches a line anyway when that costs little memory: per
 * input VC right after its FIFO (struct net_vc_count: the input-VC
 * records are then 40 bytes apart instead of 8, see net_ivc_at), per
 * input port in struct net_in, and which credit stalls of an output port
 * are open in struct net_out. The per-port output counts are a small
 * array of their own (struct net_out_count: spreading them over the
 * output VCs would double those records), and so are the NICs' (struct
 * net_nic_count). A router writes only its own ports' entries, in its own
 * events. A waiting time is kept as one number: when an interval opens at
 * time t0 the accumulator loses t0, when it closes at t1 it gains t1, so
 * it holds the closed intervals' sum minus the open one's start, and a
 * read at `now` adds `now` back while the interval is open (unsigned
 * arithmetic, exact modulo 2^64). */

struct net_out {              /* [port], output side (this router -> peer
                                 or NIC): one 64-byte line */
    simtime busy;             /* link busy until */
    simtime wake;             /* earliest pending WAKE, SIMTIME_MAX */
    union {
        simtime inj_busy;     /* endpoint port: the NIC-to-router
                                 direction busy until */
        struct {
            uint32_t own;     /* port to a router: credits in use that
                                 read as the link's own, not as load at
                                 its far end: far_light % of its
                                 bandwidth-delay product (net_port_excess) */
            uint32_t publish; /* port to a router: it publishes its load
                                 to the routers of its group (Aries
                                 global ports, aries_load "credit") */
        };
    };
    uint32_t ser_fp;          /* serialization per flit, ps * 1024 (link
                                 efficiency included) */
    uint32_t qflits;          /* flits waiting for this output: its near-end
                                 queue (tiled routers: in its column
                                 buffers; others: routed to it here) */
    uint16_t vcs_waiting;     /* bit v: packets wait for it on VC v */
    uint8_t col;              /* tiled: the tile column it is in */
    uint8_t row;              /* tiled: the tile row it is in */
    uint32_t used;            /* flits sent and not yet credited back */
    uint32_t router;          /* owning router (topo) */
    uint32_t peer;            /* port at the other end, TOPO_NONE (topo) */
    uint32_t peer_router;     /* router of peer (topo), TOPO_NONE */
    uint32_t latency;         /* wire latency, ps (topo) */
    uint32_t nic;             /* endpoint port: first NIC using it, else
                                 NET_NONE */
    uint8_t rr;               /* round-robin VC pointer */
    uint8_t cr_head : 5;      /* credit queue (net.cr_queue): first slot
                                 (NET_CR_DEPTH 32) */
    uint8_t cr_open : 3;      /* counting, bit c: the credit stall of class
                                 c (2: of either) is open (net_out_count) */
    uint8_t cr_n;             /* returns in the credit queue */
    uint8_t nics;             /* endpoint port: NICs using it */
};

struct net_in {               /* [port], input side (buffers at this
                                 port): 32 bytes */
    uint32_t occ;             /* flits buffered, all VCs */
    uint32_t up;              /* where its credits return: the upstream
                                 output port (its peer), or itself for an
                                 endpoint port (the injecting NICs) */
    uint32_t latency;         /* wire latency of its link, ps (topo) */
    uint32_t pub_base;        /* far-end load publication (publish.c): the
                                 value before the ring (net.pub) */
    uint8_t pub_n;            /* entries in the ring */
    uint8_t pub_top;          /* index of the newest entry */
    uint16_t pad_;
    uint32_t nwait;           /* counting: routed packets that arrived here
                                 waiting for an output (open while > 0) */
    simtime stall;            /* counting: ... their waiting time */
};

struct net_ovc {              /* [port * V + vc], output VC: 16 bytes */
    int32_t credits;          /* port to a router: flits free in the
                                 downstream VC but for those its credit
                                 block holds (net_port_credits) */
    uint32_t wait_head;       /* packets waiting for this output on this
                                 VC, in arrival order (packet.next) */
    uint32_t wait_tail;
    int32_t inj_credits;      /* endpoint port: the injecting NICs'
                                 credits for this port's input VC beyond
                                 those its credit block holds: 0 unless
                                 a buffer holds more than 65,535 flits
                                 (net.cr_big) */
};

struct net_ivc {              /* input VC, see net_ivc_at: 8 bytes */
    uint32_t head_x, tail;    /* FIFO of its packets (packet.in_next); not
                                 used with voq. The head is stored XOR
                                 NET_NONE, so that zeros are an empty FIFO
                                 (a new network's input VCs need no
                                 initialisation): read and write it with
                                 ivc_head, ivc_set_head; the tail means
                                 nothing while the FIFO is empty */
};

static inline uint32_t ivc_head(const struct net_ivc *iv)
{
    return iv->head_x ^ NET_NONE;
}

static inline void ivc_set_head(struct net_ivc *iv, uint32_t id)
{
    iv->head_x = id ^ NET_NONE;
}

struct net_rowbuf {           /* tiled: [(port * V + vc) * cols + col], the
                                 row buffer input VC (port, vc) has in the
                                 sub-switch of column col: 16 bytes */
    uint32_t head, tail;      /* its packets in arrival order
                                 (packet.in_next); only the head moves on */
    uint32_t occ;             /* flits in it; 0: empty (head and tail
                                 then mean nothing) */
    uint32_t wnext_x;         /* next row buffer waiting for the same
                                 column buffer (net_colbuf); NET_RB_IDLE
                                 while it waits in no list. Stored XOR
                                 NET_RB_IDLE, so that a record of zeros is
                                 an empty buffer not waiting: read and
                                 write it with rb_wnext, rb_set_wnext */
};

#define NET_RB_IDLE (NET_NONE - 1) /* rb_wnext: not waiting */

static inline uint32_t rb_wnext(const struct net_rowbuf *rb)
{
    return rb->wnext_x ^ NET_RB_IDLE;
}

static inline void rb_set_wnext(struct net_rowbuf *rb, uint32_t next)
{
    rb->wnext_x = next ^ NET_RB_IDLE;
}

struct net_colbuf {           /* tiled: [(port * rows + row) * V + vc], the
                                 column buffer output `port` has for tile
                                 row `row` and output VC vc: 8 bytes; the
                                 flits in it (its packets wait in the
                                 output VC's wait list) are in
                                 net.colbuf_occ, which every hop reads,
                                 apart from these lists, which only a
                                 full buffer needs */
    uint32_t whead, wtail;    /* row buffers whose head waits for room;
                                 meaningful only while NET_COL_WAITERS is
                                 set in its colbuf_occ entry */
};

/* Tiled routers: a column buffer's entry in net.colbuf_occ: the flits in
 * it (NET_COL_OCC; never more than col_buffer, at most 2^24) and whether
 * row buffers wait for room in it (NET_COL_WAITERS: the wait list in
 * net_colbuf is not empty). */
#define NET_COL_OCC 0x7fffffffu
#define NET_COL_WAITERS 0x80000000u

struct net_vc_count {         /* counting, right after its net_ivc */
    uint32_t nwait;           /* routed packets waiting for their output
                                 (open while > 0) */
    uint32_t pad_;
    uint64_t flits, pkts;     /* arrived at the tile */
    simtime stall;            /* waiting time of nwait */
};

struct net_out_count {        /* [port], output side: one 64-byte line */
    uint64_t flits[2], pkts[2]; /* sent, by class */
    simtime cr_stall[3];      /* output idle while a packet of class c (2:
                                 of either) lacks credits (open while bit
                                 c of net_out.cr_open is set) */
    uint64_t pad_;
};

struct net_count {
    struct net_out_count *out; /* [port] */
    struct net_nic_count *nic; /* [n_nics], 128 bytes apart */
};

struct net {
    const struct topo *t;
    struct sim *s;
    struct net_params p;
    struct net_hooks hooks;
    uint64_t seed;
    uint32_t n_routers, n_nics, n_ports;
    uint32_t V;                 /* VCs per port (2 * vcs * traffic
                                   classes) */
    uint32_t n_tcs;             /* traffic classes (>= 1) */

    const struct routing *modes[NET_MAX_MODES];
    const void *mode_params[NET_MAX_MODES]; /* each mode's parameters: its
                                   part's block in p.parts (net/routing.h
                                   struct routing.part) */
    uint32_t n_modes;
    uint8_t publish;            /* what routers publish (a mode reads it):
                                   NET_PUB_* */

    /* packets and messages: flat arrays with free lists, grown by
     * doubling (never inside steady state once big enough) */
    struct packet *pkt;         /* line-aligned, in pkt_raw */
    void *pkt_raw;              /* the block it lives in (pkt_alloc) */
    struct packet_cold *pkt_cold; /* [pkt_cap] */
    uint32_t pkt_cap, pkt_free, pkt_live;
    struct message *msg;
    uint32_t msg_cap, msg_free, msg_live;

    /* ports and VCs (see the records above); arrays aligned to lines */
    struct net_out *out;        /* [port] output side */
    struct net_in *in;          /* [port] input side */
    struct net_ovc *ovc;        /* [port * V + vc] output VCs */
    struct net_ivc *ivc;        /* input VCs: use net_ivc_at */
    uint32_t ivc_size;          /* their spacing, bytes: 8, or 40 with
                                   counting */
    struct net_rowbuf *rowbuf;  /* tiled routers: see net_rowbuf_at */
    struct net_colbuf *colbuf;  /* tiled routers: see net_colbuf_at */
    uint32_t *colbuf_occ;       /* tiled routers: flits in each column
                                   buffer and whether row buffers wait
                                   for it (NET_COL_OCC, NET_COL_WAITERS),
                                   indexed as colbuf (4 bytes each:
                                   df1056's in 0.5 MiB) */
    uint32_t cols, rows;        /* tiled: the tile matrix */
    uint64_t *tc_tag;           /* traffic classes (n_tcs > 1): [port *
                                   (n_tcs + 1)], the output's virtual time
                                   then each class's last finish tag */
    uint64_t *cr_queue;         /* [port * cr_stride] a credit block per
                                   output port, line-aligned: credits of
                                   its VCs (net_port_credits, cr_cw
                                   words), then NET_CR_DEPTH slots of the
                                   credits on their way back to it:
                                   time<<17 | vc<<13 | flits (credits.c) */
    uint32_t cr_stride;         /* words per block (whole lines) */
    uint32_t cr_cw;             /* words of credits before the slots */
    bool cr_big;                /* some buffer holds more than 65,535
                                   flits: credits can be beyond what a
                                   block holds (net_ovc.inj_credits) */
    simtime *cr_due;            /* [port] when the oldest of them is due,
                                   SIMTIME_MAX if none: a port's look at
                                   its credits reads this dense array, not
                                   its queue's line, until one is due */
    uint64_t *pub;              /* [port * NET_PUB_DEPTH] far-end load
                                   published by the input port:
                                   epoch<<24 | value (publish.c) */
    uint32_t *buf_cap;          /* [port] flits per VC at this input (not
                                   on the hot path) */
    uint8_t *port_class;        /* [port] enum port_class of the topology's
                                   port, for the routing's hot path (a
                                   byte each: a router's ports share a
                                   line, where topo_port is 32 bytes) */

    struct net_nic *nic;        /* [n_nics], line-aligned */
    struct net_nic_inj *nic_inj; /* [n_nics] */
    struct rng *router_rng;     /* [n_routers] */
    struct rng *nic_rng;        /* [n_nics] */

    /* routing tables (route.c) */
    uint32_t *nh_row;           /* [router]: its row of the two below
                                   (routers wired alike share one) */
    uint32_t *nh_first;         /* [row * m + j]: into nh_port */
    uint8_t *nh_count;          /* ports to the next router toward j */
    uint32_t *nh_port;          /* relative to the router's first port
                                   (net_nh) */
    size_t nh_total;            /* entries of nh_port */
    uint32_t nh_rows;           /* distinct rows */
    uint32_t m;                 /* routers per group (dragonflies); 6 on
                                   a torus: the tables' row length */
    uint32_t *group_first;      /* [group]: first router of the group */
    uint32_t *group_size;       /* [group]: routers in it */

    struct net_stats st;
    struct net_count ct;        /* all NULL unless p.counters */

    struct net_ctl_stack ctl;   /* the NICs' rate controllers */
    bool cc_on;                 /* some: they are asked (the hot path's
                                   one look) */
    const uint32_t *own_of;     /* net_init_part: [router] -> its
                                   partition; NULL: all are this one's */
    uint32_t own_me;            /* this process's partition */
    struct net_xp *xp;          /* a windowed (partitioned) run's
                                   exchange (net/xpart.h); NULL: one
                                   process, no windows */
};

/* The VC a packet of p's traffic class and packet class uses for route
 * segment `seg`: the traffic classes' VC sets one after another, each
 * requests then responses, vcs VCs each. */
static inline uint8_t net_vc(const struct net *n, const struct packet *p,
                             uint32_t seg)
{
    return (uint8_t)(((uint32_t)p->tc * 2u + p->cls) * n->p.vcs + seg);
}

/* Output VC `vc` of `port`. */
static inline struct net_ovc *net_ovc_at(const struct net *n, uint32_t port,
                                         uint32_t vc)
{
    return &n->ovc[(size_t)port * n->V + vc];
}

/* Credits of output `port`'s VCs, [vc], 16 bits each, that its credit
 * block holds, in the line with the first slots of its credit queue,
 * which applying a return reads (credits.c, net_credit_apply). On an endpoint
 * port the injecting NICs' credits for the port's input VC, what
 * nic_port reads after applying the returns (all of them unless a
 * buffer holds more than 65,535 flits: the rest in net_ovc.inj_credits).
 * On a port to a router the credits returned and not yet added to the
 * output-VC record (net_ovc.credits), which a grant reads anyway and adds
 * them to only when the record alone lacks room for its packet. A VC's
 * credits are the two added. */
static inline uint16_t *net_port_credits(const struct net *n, uint32_t port)
{
    return (uint16_t *)(void *)(n->cr_queue + (size_t)port * n->cr_stride);
}

/* The NIC-end fields of packet p, a record of n->pkt. */
static inline struct packet_cold *net_pkt_cold(const struct net *n,
                                               const struct packet *p)
{
    return &n->pkt_cold[p - n->pkt];
}

/* Input VC `vc` of `port`, and its counting (only with p.counters). */
static inline struct net_ivc *net_ivc_at(const struct net *n, uint32_t port,
                                         uint32_t vc)
{
    return (struct net_ivc *)((char *)n->ivc +
                              ((size_t)port * n->V + vc) * n->ivc_size);
}
/* Tiled routers: the row buffer of input VC (port, vc) in column col. */
static inline struct net_rowbuf *net_rowbuf_at(const struct net *n,
                                               uint32_t port, uint32_t vc,
                                               uint32_t col)
{
    return &n->rowbuf[((size_t)port * n->V + vc) * n->cols + col];
}

/* Tiled routers: the index (into colbuf and colbuf_occ) and the record
 * of the column buffer of output `port` for tile row `row` and output VC
 * vc. */
static inline size_t net_colbuf_index(const struct net *n, uint32_t port,
                                      uint32_t row, uint32_t vc)
{
    return ((size_t)port * n->rows + row) * n->V + vc;
}
static inline struct net_colbuf *net_colbuf_at(const struct net *n,
                                               uint32_t port, uint32_t row,
                                               uint32_t vc)
{
    return &n->colbuf[net_colbuf_index(n, port, row, vc)];
}

static inline struct net_vc_count *net_ivc_count(struct net_ivc *iv)
{
    return (struct net_vc_count *)(iv + 1);
}

/* Build the model of topology t on simulation s (whose entities must
 * number at least net_entities(t)), with parameters p; registers its event
 * handlers on s. Returns 0, or -1 with the reason reported to d. */
int net_init(struct net *n, const struct topo *t, const struct net_params *p,
             struct sim *s, uint64_t seed, struct diag *d);

/* net_init for partition `me` of a windowed run (net/xpart.h): part_of
 * [router] names each router's partition (kept by the caller while n
 * lives). The records of the other partitions' ports and NICs are
 * allocated but never initialised nor read (their pages stay untouched,
 * core/zmem.h), so that the memory a process holds falls about as 1/P;
 * only the per-port records the routing reads of any port (net_out,
 * net_in) and the tables are the whole machine's. part_of NULL: the whole
 * machine is this process's (net_init). */
int net_init_part(struct net *n, const struct topo *t,
                  const struct net_params *p, struct sim *s, uint64_t seed,
                  const uint32_t *part_of, uint32_t me, struct diag *d);

/* Whether router r is this process's (always, outside a windowed run). */
static inline bool net_owns(const struct net *n, uint32_t r)
{
    return !n->own_of || n->own_of[r] == n->own_me;
}
void net_free(struct net *n);

/* Build the next-hop tables of n (net/nexthop.c; net_init calls it): per
 * router, the ports of a minimal next hop toward each router of its group
 * (dragonflies, dimension order) or each direction (torus). 0, or -1 with
 * the reason reported to d (too few VCs for the family's deadlock-free
 * routes, out of memory). */
int net_nexthop_init(struct net *n, struct diag *d);
void net_nexthop_free(struct net *n);

/* Router r's next-hop entry toward j (a router of its group, or a torus
 * direction; net/nexthop.c): its nh_count[e] ports are r's first port
 * plus nh_port[nh_first[e] + i]. */
static inline size_t net_nh(const struct net *n, uint32_t r, uint32_t j)
{
    return (size_t)n->nh_row[r] * n->m + j;
}

/* The i-th port of router r's next-hop entry e. */
static inline uint32_t net_nh_port(const struct net *n, uint32_t r, size_t e,
                                   uint32_t i)
{
    return n->t->routers[r].first_port + n->nh_port[n->nh_first[e] + i];
}

/* Entities the model needs in the simulation: routers + NICs. */
static inline uint32_t net_entities(const struct topo *t)
{
    return t->n_routers + t->n_nics;
}
static inline uint32_t net_nic_entity(const struct net *n, uint32_t nic)
{
    return n->n_routers + nic;
}

/* Add a routing mode; returns its index for net_send (0 is p->routing),
 * or -1: NET_MAX_MODES modes already, or no room for, or a refusal of,
 * its parameters. */
int net_add_mode(struct net *n, const struct routing *r);

/* Hand a message of `bytes` (>= 1; a GET of 0 bytes is not a message) from
 * src_nic to dst_nic to the source NIC at the current time, to be sent
 * with routing mode `mode`. Returns its id (valid until msg_done returns)
 * or NET_NONE if out of memory. Called from an event handler of the
 * source NIC's entity or at setup. */
uint32_t net_send(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                  enum net_op op, uint32_t bytes, uint8_t mode, uint64_t tag);

/* The same in traffic class `tc` (< net.n_tcs; net_send: class 0), with
 * a second cookie `origin` (struct message). */
uint32_t net_send_tc(struct net *n, uint32_t src_nic, uint32_t dst_nic,
                     enum net_op op, uint32_t bytes, uint8_t mode, uint8_t tc,
                     uint64_t tag, uint64_t origin);

/* The rate controllers' sleep for a process of NIC nic that posts a
 * message of `bytes` to the network now (struct nic_ctl.sleep:
 * Netscope's wrapper): the time to run again, the latest of theirs (<=
 * now: no sleep; later: ask net_cc_sleeping then). Their ticks due are
 * taken. */
simtime net_cc_sleep(struct net *n, uint32_t nic, uint64_t bytes,
                     simtime now);
/* The same for the sleep under way: when to run again (<= now: now). */
simtime net_cc_sleeping(struct net *n, uint32_t nic, simtime now);

/* Job j is placed: every rate controller with a job hook is told (its
 * NICs, its delay sensitivity). */
void net_ctl_job(struct net *n, const struct nic_job *j);

/* When the rate controller whose state is st ticks next on n
 * (SIMTIME_MAX: never, or no such controller). */
simtime net_ctl_next_tick(const struct net *n, const void *st);

/* The rate controllers' ticks due at or before `now`, taken (each at its
 * own time); what the NICs' own events do lazily, for a windowed run's
 * exact ticks (net/xpart.h net_xp_ticks). */
void net_cc_take_ticks(struct net *n, simtime now);

/* The same for the k partitions nets[0..k) of one run (one process's),
 * every controller's ticks in turn: a per-NIC tick on each partition, a
 * machine-wide one (nic_ctl.tick_count) counted on each, the counts
 * summed, sum(ctx, &v) adding the other processes' (a collective: every
 * process takes the same ticks), and decided on each from the total. */
void net_cc_take_ticks_split(struct net *const *nets, uint32_t k,
                             simtime now,
                             void (*sum)(void *ctx, uint64_t *v),
                             void *ctx);

/* The state of rate controller c on n (what its init made), or NULL if
 * n does not run it: for its own accessors (tests, reports). */
void *net_ctl_state(const struct net *n, const struct nic_ctl *c);

/* A NIC's line rate, bytes per ps: the message data it sends when
 * nothing holds it back — full-size PUT requests at the rate its NIC and
 * endpoint ports take them (net_nic_rate; Aries: a 64-byte packet every
 * five 800 MHz cycles, 10.24 GB/s, where one of its four processor-tile
 * links carries 5.25 GB/s of flits), or its NIC flit path if slower. */
double net_nic_line_rate(const struct net *n);

/* The time NIC nic's requests were ready but held back for credits up
 * to now, an open interval included (the meaning of the request-stall
 * counter, CTR_NIC_STALLED, as time; the network must keep counters). */
simtime net_nic_req_stalled(const struct net *n, uint32_t nic, simtime now);

/* Flits of a request / response carrying `bytes` of data. */
uint32_t net_req_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes);
uint32_t net_rsp_flits(const struct net_params *p, enum net_op op,
                       uint32_t bytes);

/* NIC-side flits of packet pk (header + 16-byte data flits on Aries),
 * as the NIC counters count them. */
uint32_t net_nic_flits(const struct net_params *p, const struct packet *pk);

/* What NIC `nic` has injected since time 0, requests and responses:
 * network flits (times p.flit_bytes: the bytes its injection link
 * carried) and the data bytes in them. Always counted, whatever
 * p.counters says (one addition per packet, on the NIC's own record). */
void net_nic_injected(const struct net *n, uint32_t nic, uint64_t *flits,
                      uint64_t *data);

/* Requests NIC nic has awaiting their response. */
uint32_t net_nic_outstanding(const struct net *n, uint32_t nic);

/* Packets per second NIC `nic` can inject when every NIC is busy: the
 * lower of 1/nic_gap and its share of its endpoint ports' bandwidth for
 * packets of `flits` flits (ports shared by k NICs count 1/k). Offered
 * load 1.0 of the synthetic traffic is this rate. */
double net_nic_rate(const struct net *n, uint32_t nic, uint32_t flits);
/* The same for NIC nic alone on its ports (the others idle). */
double net_nic_rate_alone(const struct net *n, uint32_t nic, uint32_t flits);

/* Packets in the network or queued at NICs. */
static inline uint64_t net_in_flight(const struct net *n)
{
    return n->pkt_live;
}

/* Check the invariants on a network that has drained (no packet and no
 * message left): credits back at capacity, buffers empty, counts balanced.
 * Reports to d and returns -1 on a violation. */
int net_check_drained(struct net *n, struct diag *d);

/* What routers publish to their neighbours every publish_period. */
enum {
    NET_PUB_NONE,
    NET_PUB_INPUT,  /* input buffer occupancy (aries_load "occupancy") */
    NET_PUB_GLOBAL, /* a global port's load (aries_load "credit") */
};

/* Credits in use on o beyond the link's own (ports to routers; an
 * endpoint port's `own` field is not one). */
static inline uint32_t net_out_excess(const struct net_out *o)
{
    return o->peer != TOPO_NONE && o->used > o->own ? o->used - o->own : 0;
}

/* Apply the credit returns of output `port` due by now (credits.c; for
 * net.cr_due[port] <= now). */
void net_credit_apply(struct net *n, uint32_t port, simtime now);

/* Output `port`'s credit returns due by now applied: inline, since most
 * looks at a port find none due (net.cr_due), a routing decision's at
 * several ports among them. */
static inline void net_credit_sync(struct net *n, uint32_t port,
                                   simtime now)
{
    if (n->cr_due[port] <= now)
        net_credit_apply(n, port, now);
}

/* Credits in use on output `port` beyond the link's own (net_out.own):
 * the flits its far end holds, as far as the credits tell, at time now. */
static inline uint32_t net_port_excess(struct net *n, uint32_t port,
                                       simtime now)
{
    net_credit_sync(n, port, now);
    return net_out_excess(&n->out[port]);
}

/* Load of output port `port` as adaptive routing sees it at time now:
 * local, the flits waiting for it plus the credits in use on it (UGAL-L,
 * Slingshot); far, the occupancy of the next router's input buffer as
 * that router published it (stale by the publication period and the
 * link's latency). */
static inline uint32_t net_port_load_local(struct net *n, uint32_t port,
                                           simtime now)
{
    net_credit_sync(n, port, now);
    return n->out[port].qflits + n->out[port].used;
}
uint32_t net_port_load_far(const struct net *n, uint32_t port, simtime now);

/* The load global port `gport` publishes (flits waiting for it plus its
 * credits in use beyond the link's own, at the start of the newest
 * publication period that began at least `delay` before now). */
uint32_t net_port_published(struct net *n, uint32_t gport, simtime now,
                            simtime delay);

/* Record what global port `gport` publishes now (what every change of its
 * load does; for tests that set its state by hand). */
void net_port_publish(struct net *n, uint32_t gport, simtime now);

/* Flits of VC vc come back as credits to output `port` at `at`, as the
 * downstream router returns them (for tests that set a port's state by
 * hand; the network calls this itself as packets leave buffers). */
void net_port_credit_back(struct net *n, uint32_t port, uint32_t vc,
                          uint32_t flits, simtime at);

/* A port's bandwidth-delay product, flits: what a link running at full
 * rate with nothing queued downstream holds in credits (2 x wire + the
 * next router's pipeline delay + the largest packet's serialization). */
uint32_t net_port_bdp(const struct net *n, uint32_t port);

/* A flit's serialization time on topology port tp under p, ps x 1024
 * (the link-layer efficiency on links between routers); 0 for a port
 * without bandwidth. The output record's ser_fp holds it for the hot
 * path; this reads the topology alone (any partition's port). */
uint64_t net_ser_fp(const struct net_params *p, const struct topo_port *tp);

/* The largest bandwidth-delay product (net_port_bdp) of any port of t
 * under p, flits. */
uint32_t net_max_bdp(const struct net_params *p, const struct topo *t);

/* Memory the model holds, bytes (for the benchmarks): its arrays, the
 * routing tables and the packet and message pools as they have grown. */
size_t net_bytes(const struct net *n);

/* The bytes net_init would allocate under p for a system of c's counts
 * (every router with c->ports_per_router ports), before any packet: the
 * per-port records (output, input, VC state, tile buffers, credit and
 * publication queues, counters), the per-NIC and per-router records and
 * the routing tables (on a dragonfly, one next-hop port per pair of
 * routers in a group assumed), computed from the same sizes net_init
 * allocates; what net_bytes gives for the fresh network within a few per
 * cent. The packet and message pools, which grow with the traffic, are
 * not in it. For refusing a system that will not fit before building it
 * (exp/experiment.c). */
size_t net_estimate_bytes(const struct net_params *p,
                          const struct topo_counts *c);

#define NET_PUB_DEPTH 16
#define NET_CR_DEPTH 32

#endif
