/* net/routing.h — the interface through which the network routes a packet.
 *
 * The network model calls a routing mode at every router a packet reaches
 * that is not its destination router (router.c; at the destination the
 * network itself picks the NIC's least busy port). The modes themselves
 * live above the network (route/: they read its ports, credits and
 * published loads), each a `const struct routing` registered in
 * route/modes.def; the network knows only this table, as a file system
 * knows a VFS's methods. Messages carry the index of their mode in
 * net.modes (struct packet.mode).
 */
#ifndef DFSIM_NET_ROUTING_H
#define DFSIM_NET_ROUTING_H

#include <stdbool.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/time.h"

struct net;
struct net_part;
struct packet;

struct routing {
    struct reg_entry base;
    uint8_t shapes;    /* bit (1 << enum topo_shape) per shape of graph it
                          routes */
    uint8_t param;     /* the mode's own constant (ADAPTIVE_k: k, the index
                          into net_params.bias) */
    bool progressive;  /* dragonflies: decided again at each router of the
                          source group while the packet is still minimal */
    bool publish;      /* reads the loads routers publish to their
                          neighbours (publish.c keeps them only then) */
    const struct net_part *part; /* its parameters and their keys (shared
                          by modes of one family: the Aries modes); NULL:
                          none. The network keeps the block (net.h
                          net.mode_params) */
    /* Route p at router r, which is not its destination router: set
     * p->out_port and p->out_vc, updating p's route state. */
    void (*route)(struct net *n, uint32_t r, struct packet *p, simtime now);
    /* Dragonflies (route/df.h), each NULL where not used:
     * decide  the adaptive or oblivious decision at a router of the source
     *         group while p's route is open: may set a non-minimal route
     *         (df_take); returns the first-hop port if it chose one, else
     *         NET_NONE (follow the route). NULL: minimal.
     * pick    one of `count` (>= 2) parallel ports to the same router
     * exit    the index (< cnt) of the global link of group g toward group
     *         h that p leaves by */
    uint32_t (*decide)(struct net *n, uint32_t r, struct packet *p,
                       simtime now);
    uint32_t (*pick)(struct net *n, uint32_t r, const struct packet *p,
                     const uint32_t *ports, uint32_t count, simtime now);
    uint32_t (*exit)(struct net *n, uint32_t r, const struct packet *p,
                     uint32_t g, uint32_t h, uint32_t cnt, simtime now);
};

#endif
