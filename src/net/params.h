/* net/params.h — the network model's parameters: struct net_params (the
 * packet format, the NICs, the routers and links, the routing modes and
 * rate controllers in use) and the blocks of the parts that own keys of
 * their own (struct net_part). Their values and sources: net/params.c;
 * the experiment file's network section: docs/experiment-files.md. */
#ifndef DFSIM_NET_PARAMS_H
#define DFSIM_NET_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/sim.h"
#include "net/nic_ctl.h"
#include "topo/topo.h"

#define NET_MAX_TCS 4   /* traffic classes (SC'20 §II-E) */

struct routing;

/* How a router buffers packets between its inputs and outputs (see the
 * header comment). */
enum net_router {
    NET_ROUTER_TILED,
    NET_ROUTER_INPUT_QUEUED,
    NET_ROUTER_VOQ,
};

/* Their names in experiment files, by value; NULL-terminated. */
extern const char *const net_router_names[];

/* What the Aries adaptive modes compare (route/aries.c, docs/network.md):
 *  credit     the white paper's estimate, "a combination of downstream
 *             link load, estimated far-end link load and near-end link
 *             load": the flits waiting for the port here, the credits in
 *             use on it beyond the link's own bandwidth-delay product, and
 *             the load of the global link a candidate leaves the group by,
 *             published by its router;
 *  occupancy  the earlier model: the flits waiting here plus the input
 *             buffer occupancy the next router published (ablation). */
enum net_aries_load {
    NET_ARIES_CREDIT,
    NET_ARIES_OCCUPANCY,
};
extern const char *const net_aries_load_names[];
int net_aries_load_find(const char *name);

/* Which of a minimal route's two local hops inside a dragonfly group
 * comes first where both are needed (`local_order`; net/nexthop.c):
 * the rank-1 (green, within a chassis) or the rank-2 (black, between
 * chassis). The XC white paper ("Cray XC Routing") says only that
 * minimal routing inside a group "will always take at most one green and
 * one black hop", and that the routing pipeline "selects up to four
 * possible routes at random, two minimal and two non-minimal": real
 * Aries routers may take either order. The model takes one order for
 * every route (each a dimension order, which keeps a route segment's VC
 * free of cycles; route/df.c); green first is the default, black first
 * and both the ablations that show what the choice moves
 * (docs/congestion.md). */
enum net_local_order {
    NET_LOCAL_GREEN_FIRST,
    NET_LOCAL_BLACK_FIRST,
    /* both orders: a next-hop entry holds every port one hop nearer, and
     * the routing mode picks among them as among parallel tiles (the
     * adaptive modes: the least loaded, per packet and hop); a segment
     * then mixes the orders, so its VCs need vc_rule "hop" */
    NET_LOCAL_BOTH,
};
extern const char *const net_local_order_names[];

/* Which VC of its class a dragonfly packet takes on a hop (`vc_rule`;
 * route/df.c). The Aries VC assignment is not public.
 *  segment  the route segment: +1 at each global hop, at the
 *           intermediate router, at a late diversion (4 per class; each
 *           segment in one dimension order, so its VC has no cycle)
 *  hop      2 x segment + the local hops already taken in the segment,
 *           the global hop on the segment's second VC: strictly growing
 *           along any route, whatever the order of its local hops
 *           (8 per class). CODES's dragonfly-custom model of the Cray XC
 *           numbers its VCs by hop count the same way (my_l_hop: 0-1 in
 *           the first group, 2-3 after the first global hop, ...; 8
 *           VCs), and takes either order inside a group. */
enum net_vc_rule {
    NET_VC_SEGMENT,
    NET_VC_HOP,
};
extern const char *const net_vc_rule_names[];

/* How a NIC orders its requests and responses onto the path they share
 * into the network (`nic_arbitration`; not public for any of the NICs):
 *  round-robin      with both ready, they take turns (the default: the
 *                   white paper's bidirectional bandwidth, above 15 GB/s,
 *                   holds at every message size, GET rendezvous included)
 *  responses-first  a ready response always goes first (dfsim's earlier
 *                   model: a NIC answering GETs starves its own requests;
 *                   osu_bibw reached 8.6 GB/s at 16 KiB) */
enum net_nic_arb {
    NET_NIC_ARB_ROUND_ROBIN,
    NET_NIC_ARB_RESPONSES_FIRST,
};
extern const char *const net_nic_arb_names[];
int net_nic_arb_find(const char *name);

/* What a NIC's request-stall counter (AR_NIC_NETMON_ORB_EVENT_CNTR_
 * REQ_STALLED) counts as back-pressure on its ready request
 * (`nic_req_stall`):
 *  credits  only cycles when no router port has credits for it, or for
 *           the response ahead of it on the path they share
 *  path     also the cycles the path itself is taken from it: the
 *           response that goes ahead of it, and a port still busy with
 *           the last packet (a hardware stall counter's valid-and-not-
 *           ready reading at the ORB's output, which cannot tell why its
 *           downstream does not take the flit)
 *  orb      credits, and also the cycles a request waits for a free
 *           entry of the outstanding-request buffer (the ORB full at
 *           max_outstanding). An ablation, not the hardware's reading:
 *           Aries counts those waits in a counter of their own
 *           (AR_NIC_ORB_PRF_REQ_PKTID_STALL_DURATION); it answers what
 *           SC'19's rule would do on GET streams if REQ_STALLED held
 *           them (docs/controllers.md) */
enum net_nic_stall {
    NET_NIC_STALL_CREDITS,
    NET_NIC_STALL_PATH,
    NET_NIC_STALL_ORB,
};
extern const char *const net_nic_stall_names[];
int net_nic_stall_find(const char *name);

/* The router called `name`, or -1. */
int net_router_find(const char *name);

/* A traffic class (SC'20 §II-E: "each traffic class is highly tunable
 * ... in terms of priority, packets ordering required, minimum bandwidth
 * guarantees, maximum bandwidth constraint, lossiness, and routing
 * bias"; "each switch will allocate enough buffers to each traffic
 * class"). Modelled: its own VCs (buffers and credits) on every link and
 * its share of each output link when classes compete for it: a strictly
 * higher priority goes first; among equal priorities, start-time fair
 * queueing with the class's weight. Ordering, lossiness, maximum
 * bandwidth and routing bias are not modelled. */
struct net_tc {
    uint32_t weight;   /* share of an output among its priority's
                          classes, per mille (net_init: the minimum
                          bandwidth, the unallocated rest to the class
                          with the least) */
    uint32_t priority; /* higher goes first */
};

struct net_params;

/* A part of the model with parameters of its own — a family of routing
 * modes (the Aries modes share theirs), a NIC controller: its keys in the
 * experiment file's network section, with offsets into its own block of
 * params_size bytes, and the block's defaults from the network's
 * parameters (the family's hardware, and the keys the file gave: a
 * default derived from the buffers follows them). Nothing outside the
 * part names the block's fields (STYLE.md: parts own their keys). */
struct net_part {
    const char *name;             /* for messages ("aries") */
    const struct cfg_key *keys;   /* core/config.h; { NULL } ends them */
    size_t params_size;
    void (*defaults)(void *params, const struct net_params *p,
                     const struct topo *t);
    /* optional: after the experiment file's keys are read into the
     * block, the defaults that derive from its own keys, for those of
     * them the network section g does not give (cfg_given_line) */
    void (*derive)(void *params, const struct net_params *p,
                   const struct topo *t, struct config_setting_t *g);
    /* optional: what the block's values must satisfy together: 0, or -1
     * with the key at fault in *key and why in `why` (a sentence) */
    int (*check)(const void *params, const struct net_params *p,
                 const char **key, char *why, size_t len);
};

/* The parameter blocks a network's parts use, held inside struct
 * net_params (so that the struct stays a plain value: copied, compared,
 * without owners): part i's block is store[off[i] ..). */
#define NET_MAX_PARTS 16
#define NET_PART_STORE 1024 /* bytes for every part's block */

struct net_parts {
    uint32_t n;
    const struct net_part *part[NET_MAX_PARTS];
    uint16_t off[NET_MAX_PARTS];
    uint16_t used;                 /* bytes of store taken */
    _Alignas(8) unsigned char store[NET_PART_STORE];
};

struct net_params {
    /* packet format */
    uint32_t flit_bytes;      /* bytes per network flit */
    uint32_t max_payload;     /* data bytes per packet */
    uint32_t req_header;      /* flits of a request without data */
    uint32_t rsp_header;      /* flits of a response without data */
    uint32_t expand_num, expand_den; /* data bytes on the wire per byte */
    /* NIC */
    simtime nic_gap;          /* minimum time between two injections */
    simtime nic_flit_time;    /* the NIC's output path: time per NIC flit
                                 (net_nic_flits), requests and responses
                                 alike; 0: not limited */
    uint32_t max_outstanding; /* requests awaiting a response, per NIC */
    uint32_t nic_rsp_slots;   /* requests a NIC holds whose response it has
                                 not yet injected; a request finding none
                                 free waits in its router (0: unbounded) */
    uint8_t nic_arb;          /* enum net_nic_arb */
    uint8_t nic_req_stall;    /* enum net_nic_stall */
    /* routers and links */
    simtime router_delay;     /* pipeline delay per router crossed */
    uint32_t vcs;             /* VCs per class (requests, responses) */
    uint32_t n_tcs;           /* traffic classes, each with its own 2 * vcs
                                 VCs (0 or 1: one, the default) */
    struct net_tc tc[NET_MAX_TCS];
    uint32_t buf_local;       /* flits per VC, router-to-router in a group */
    uint32_t buf_global;      /* flits per VC, between groups */
    uint32_t buf_endpoint;    /* flits per VC, NIC to router */
    uint8_t router;           /* enum net_router */
    uint32_t row_buffer;      /* tiled: flits a row buffer holds (one per
                                 input, VC and tile column) */
    uint32_t col_buffer;      /* tiled: flits a column buffer holds (one
                                 per output, tile row and VC) */
    uint32_t tile_columns;    /* tiled: columns of the tile matrix (Aries
                                 6 x 8: 8); 0: the smallest c with
                                 c * c >= ports of the router */
    simtime publish_period;   /* far-end load published this often */
    uint32_t link_eff_num, link_eff_den; /* link-layer efficiency */
    /* routing */
    const struct routing *routing;   /* default mode (modes[0]) */
    uint8_t aries_load;              /* enum net_aries_load: what an Aries
                                        router publishes (route/aries.c) */
    uint8_t local_order;             /* enum net_local_order: a group's
                                        minimal routes (net/nexthop.c) */
    uint8_t vc_rule;                 /* enum net_vc_rule (route/df.c) */
    uint32_t far_light;              /* Aries: the credits in use that read
                                        as the link's own, per cent of its
                                        bandwidth-delay product */
    /* the rate controllers of every NIC (net/nic_ctl.h), in order: the
     * network.congestion_control list; their parameters in `parts` */
    const struct nic_ctl *cc[NET_MAX_CTLS];
    uint32_t n_cc;
    /* hardware counters (net/counters.h) */
    bool counters;                   /* keep them (off: not counted, the
                                        hot path only tests this flag) */
    uint32_t nic_flit_bytes;         /* NIC-side flit (Aries 16 B) */
    /* the parameter blocks of the parts (net_part_block): the routing
     * modes' with keys, and the controllers' */
    struct net_parts parts;
};

/* The network model's own keys of the network section (net/params.c). */
extern const struct cfg_key net_param_keys[];

/* Part `part`'s block in p: the one p holds, else added with the part's
 * defaults under p and t; NULL if p has no room left (NET_MAX_PARTS,
 * NET_PART_STORE). */
void *net_part_block(struct net_params *p, const struct net_part *part,
                     const struct topo *t);

struct registry;

/* The distinct parameter parts of the entries of registry reg (routing
 * modes, controllers), each entry's `const struct net_part *` read at
 * byte offset part_off of the entry (NULL: none; parts shared by several
 * entries once), in registry order: up to cap into out; returns how many
 * there are. */
size_t net_registry_parts(const struct registry *reg, size_t part_off,
                          const struct net_part **out, size_t cap);

/* Add every part of reg's entries (as net_registry_parts) to p with its
 * defaults under p and t (a block p holds is kept). 0, or -1 without
 * room. */
int net_registry_parts_add(struct net_params *p, const struct topo *t,
                           const struct registry *reg, size_t part_off);

/* The block p holds for `part`, or NULL. */
const void *net_part_find(const struct net_params *p,
                          const struct net_part *part);

/* Defaults for the family of t (net/params.c gives the source of each),
 * but for the routing mode, which is left NULL: route_net_defaults (route/
 * route.h) also sets the family's default mode, and a caller may choose
 * any registered mode (net_init refuses none). */
void net_params_defaults(struct net_params *p, const struct topo *t);

#endif
