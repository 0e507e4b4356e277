/* route/route.h — routing modes, each a table of functions behind one
 * registry.
 *
 * A routing mode decides, at every router a packet reaches, which output
 * port it requests and on which virtual channel. Messages carry the mode
 * their sender chose (struct packet.mode indexes net->modes). Each mode is
 * a `const struct routing` in a file of this folder, listed once in
 * route/modes.def; adding a mode is adding a file and a line there.
 *
 * Modes (registry names as the hardware and the literature name them):
 *   minimal     random among minimal next hops at every router (minimal.c)
 *   valiant     always through a random intermediate router (valiant.c)
 *   UGAL        UGAL-L at the source router: minimal if
 *               q_min <= 2 q_nonmin + threshold (BookSim2's rule, local
 *               queue + credits in use) (ugal.c)
 *   ADAPTIVE_0..3  the Aries adaptive modes: 2 minimal and 2 non-minimal
 *               candidates (XC white paper "Aries Router"), compared by
 *               the Aries congestion estimate with a bias added to
 *               non-minimal candidates (none, increasingly minimal, low,
 *               high); re-decided at each router of the source group while
 *               the packet is still minimal (progressive, as the
 *               "increasingly minimal bias" patents describe) (aries.c)
 *   MIN_HASH, NMIN_HASH, IN_ORDER  deterministic Aries modes: the minimal
 *               (non-minimal) path chosen by a hash of source, destination
 *               and packet number; IN_ORDER hashes source and destination
 *               only, so a pair's packets follow one path and stay in order
 *               (hash.c)
 *   SS_ADAPTIVE Slingshot: up to 4 candidates (minimal and non-minimal) at
 *               the source switch, by request-queue depth, biased to minimal
 *               (ss.c)
 *   DOR         Gemini torus: dimension order X, Y, Z, shortest direction
 *               (dor.c)
 *
 * The dragonfly modes share one route-following machine (route/df.h): a
 * mode supplies its decision at the source group's routers and how it
 * chooses among parallel ports and among the global links to a group.
 *
 * Deadlock freedom (dragonflies): a route is a sequence of segments, each a
 * minimal path inside one group in dimension order (Aries: green before
 * black; other groups are fully connected, one hop). A packet's segment
 * number is its VC within its class; it grows by one on every global hop,
 * on reaching the intermediate router, and when the packet is diverted to
 * a non-minimal route after its first hop. Segments never exceed 3, so 4
 * VCs per class suffice (Aries has 4 request + 4 response VCs) and the
 * channel dependency graph is acyclic: within a segment by dimension order,
 * across segments by the strictly growing VC. On the torus, dimension order
 * with a dateline per dimension (VC 1 after the wrap-around link), reset at
 * each dimension change.
 */
#ifndef DFSIM_ROUTE_H
#define DFSIM_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/registry.h"
#include "net/net.h"
#include "net/routing.h"

extern const struct registry routing_registry;

/* Bias of an adaptive mode: a non-minimal candidate's load L (Aries:
 * its congestion level) becomes
 * (L << (shift + shift_per_hop*k)) + add + add_per_hop*k at the k-th
 * decision (k = 0 at the injection router). Minimal wins ties. */
struct route_bias {
    uint32_t shift, add, shift_per_hop, add_per_hop;
};

/* Whether mode r routes on family f's shape of graph. */
static inline bool route_supports(const struct routing *r,
                                  const struct topo_family *f)
{
    return (r->shapes >> f->shape) & 1u;
}

/* The family's default mode (struct topo_family.routing: ADAPTIVE_0 on
 * Aries, SS_ADAPTIVE on Slingshot, UGAL on the generic dragonfly, DOR on
 * the torus). */
const struct routing *route_default(const struct topo_family *f);

/* The distinct parameter parts of the registered modes (struct
 * routing.part; the Aries modes share one), in registry order: up to cap
 * into out; returns how many there are. */
size_t route_parts(const struct net_part **out, size_t cap);

/* Add every mode's part to p with its defaults under p and t (a part p
 * holds already keeps its block). 0, or -1 without room. */
int route_parts_add(struct net_params *p, const struct topo *t);

/* The network's defaults for the family of t (net_params_defaults) with
 * the family's default routing mode (route_default) and every mode's
 * parameters (route_parts_add). */
void route_net_defaults(struct net_params *p, const struct topo *t);

/* The Aries congestion level ADAPTIVE_k sees at router r, at time now, of
 * a candidate leaving by first-hop port `port` and, unless NET_NONE,
 * global port `gport` of r's group (route/aries.c); and whether level b
 * beats level a there (lower wins; a tie goes to a at level 0 and either
 * way at random above, from r's stream). For tests and tools. */
/* The Aries modes' parameters (their keys in route/aries.c; ADAPTIVE_k's bias is
 * bias[k]), in congestion levels and flits. */
struct aries_route_params {
    uint32_t load_quantum; /* flits per congestion level (near-end term;
                              the whole sum with aries_load "occupancy") */
    uint32_t far_quantum;  /* flits of credits in use beyond the link's
                              own per level */
    uint32_t down_quantum; /* flits of a global link's published load per
                              level */
    uint32_t load_levels;  /* highest level (4-bit: 15) */
    struct route_bias bias[4]; /* ADAPTIVE_0 .. ADAPTIVE_3 */
};

/* ... as a part: their keys, block and defaults (route/aries.c). */
extern const struct net_part route_aries_part;

/* The Aries modes' block p holds, or NULL. */
static inline const struct aries_route_params *
route_aries_params(const struct net_params *p)
{
    return (const struct aries_route_params *)net_part_find(
        p, &route_aries_part);
}

/* The congestion level one node's own stream can show at its first hop
 * of p on t, with those quanta: its column buffer (one tile row's,
 * col_buffer flits) as near-end load, and the part of the longest link's
 * bandwidth-delay product above far_light as far-end load. ADAPTIVE_3's
 * default add is one more (route/aries.c). */
uint32_t route_aries_own_level(const struct net_params *p,
                               uint32_t load_quantum, uint32_t far_quantum,
                               const struct topo *t);

uint32_t route_aries_level(struct net *n, uint32_t r, uint32_t port,
                           uint32_t gport, simtime now);
bool route_aries_beats(struct net *n, uint32_t r, uint64_t b, uint64_t a);

#endif
