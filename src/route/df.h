/* route/df.h — the dragonfly route machine the dragonfly modes share.
 *
 * df_route follows a packet's route through its segments (route.h): at a
 * router of its source group, while the route is open, it asks the mode
 * to decide (struct routing.decide); otherwise it goes toward the
 * intermediate router or group of a non-minimal route, then toward the
 * destination, in dimension order inside a group and over the global link
 * chosen when it left a group. The mode chooses among parallel ports
 * (.pick) and among the global links between two groups (.exit).
 *
 * The adaptive modes build their candidates with df_candidates — two
 * minimal and two non-minimal (XC white paper, "Aries Router": "the
 * routing pipeline generates two minimal and two non-minimal outputs for
 * every packet") — compare them by their own load, and take one with
 * df_take.
 *
 * Non-minimal intermediates (XC white paper, "Aries Routing"): for
 * traffic between groups, "an intermediate Aries anywhere in the system";
 * for traffic inside a group, a "root" router of the same group ("up to
 * two green hops and two black hops"). A packet diverted after its first
 * hop goes through an intermediate group (or, with no third group or
 * inside a group, a router of the groups it already uses) in a new
 * segment.
 */
#ifndef DFSIM_ROUTE_DF_H
#define DFSIM_ROUTE_DF_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "net/net.h"
#include "route/route.h"

/* Packet flag: `mid` is a group, not a router (a late diversion). */
#define PKT_MID_GROUP 8

#define DF_SHAPES (1u << TOPO_SHAPE_DRAGONFLY)

static inline uint32_t df_group(const struct net *n, uint32_t r)
{
    return n->t->routers[r].group;
}

/* Router r's index within its group. */
static inline uint32_t df_local(const struct net *n, uint32_t r)
{
    return r - n->group_first[df_group(n, r)];
}

/* Global links from group g to group h: how many, and the i-th port. */
static inline uint32_t df_pair_count(const struct net *n, uint32_t g,
                                     uint32_t h)
{
    size_t k = (size_t)g * n->t->n_groups + h;
    return n->t->pair_start[k + 1] - n->t->pair_start[k];
}
static inline uint32_t df_pair_port(const struct net *n, uint32_t g,
                                    uint32_t h, uint32_t i)
{
    size_t k = (size_t)g * n->t->n_groups + h;
    return n->t->pair_port[n->t->pair_start[k] + i];
}

static inline uint64_t df_hash3(uint64_t a, uint64_t b, uint64_t c)
{
    return rng_mix_stafford(rng_mix_stafford(a * 0x9e3779b97f4a7c15ULL ^ b) ^
                            c);
}

/* First-hop port from r toward router x of the same group (dimension
 * order; the mode picks among parallel ports). */
uint32_t df_toward_local(struct net *n, uint32_t r, const struct packet *p,
                         uint32_t x, simtime now);

/* First-hop port from r toward global port gp of r's group: gp itself if
 * r owns it. */
uint32_t df_toward_gport(struct net *n, uint32_t r, const struct packet *p,
                         uint32_t gp, simtime now);

/* A candidate route at r: its first-hop port, the global port it leaves
 * the group by (NET_NONE inside a group), its intermediate (a router, or
 * a group when mid_group; NET_NONE for a minimal candidate), and the load
 * the mode computed for it. */
struct df_cand {
    uint32_t port, gport, mid;
    bool mid_group;
    uint32_t load;
};

/* The candidates at r for p: min[0..1] minimal (at the first decision
 * two exits drawn at random; later the exit already chosen, twice) and,
 * when the return is 2, nonmin[0..1] non-minimal (random intermediates:
 * anywhere at the source router, then a third group); 0 when no
 * intermediate is possible. Loads are left 0 for the mode. */
int df_candidates(struct net *n, uint32_t r, struct packet *p, simtime now,
                  struct df_cand min[2], struct df_cand nonmin[2]);

/* Take candidate c (minimal or not) for p at r: sets p's route and
 * returns c's first-hop port. */
uint32_t df_take(struct net *n, uint32_t r, struct packet *p,
                 const struct df_cand *c, bool minimal);

/* A random intermediate router for a route from r to dst (Valiant): any
 * router of the system but those two for traffic between groups, any
 * router of the group but those two for traffic inside one; from the
 * hash h when `hashed`, else from r's stream. Returns dst when there is
 * none. */
uint32_t df_random_mid(struct net *n, uint32_t r, uint32_t dst, uint64_t h,
                       bool hashed);

/* struct routing.route of every dragonfly mode. */
void df_route(struct net *n, uint32_t r, struct packet *p, simtime now);

/* Choices shared by modes (struct routing.pick / .exit): at random from
 * r's stream; from a hash of source, destination and packet number
 * (MIN_HASH, NMIN_HASH); from a hash of source and destination
 * (IN_ORDER). */
uint32_t df_pick_random(struct net *n, uint32_t r, const struct packet *p,
                        const uint32_t *ports, uint32_t count, simtime now);
uint32_t df_pick_hash(struct net *n, uint32_t r, const struct packet *p,
                      const uint32_t *ports, uint32_t count, simtime now);
uint32_t df_pick_pair(struct net *n, uint32_t r, const struct packet *p,
                      const uint32_t *ports, uint32_t count, simtime now);
uint32_t df_exit_random(struct net *n, uint32_t r, const struct packet *p,
                        uint32_t g, uint32_t h, uint32_t cnt, simtime now);
uint32_t df_exit_hash(struct net *n, uint32_t r, const struct packet *p,
                      uint32_t g, uint32_t h, uint32_t cnt, simtime now);
uint32_t df_exit_pair(struct net *n, uint32_t r, const struct packet *p,
                      uint32_t g, uint32_t h, uint32_t cnt, simtime now);

/* Adaptive choices by a load function (lower is better; the first wins
 * ties): the least loaded of the parallel ports; the less loaded of two
 * exits drawn at random, by the load of their first-hop ports. */
typedef uint32_t (*df_load_fn)(struct net *n, uint32_t port, simtime now);
uint32_t df_pick_least(struct net *n, const uint32_t *ports, uint32_t count,
                       simtime now, df_load_fn load);
uint32_t df_exit_two(struct net *n, uint32_t r, const struct packet *p,
                     uint32_t g, uint32_t h, uint32_t cnt, simtime now,
                     df_load_fn load);

/* The better of two candidates by `load` of their first-hop ports (the
 * first on a tie), both loads filled in. */
const struct df_cand *df_better(struct net *n, struct df_cand c[2],
                                simtime now, df_load_fn load);

/* The load UGAL-L and Slingshot read (net_port_load_local: flits waiting
 * for the port plus credits in use on it), and the choices by it. */
uint32_t df_load_local(struct net *n, uint32_t port, simtime now);
uint32_t df_pick_local(struct net *n, uint32_t r, const struct packet *p,
                       const uint32_t *ports, uint32_t count, simtime now);
uint32_t df_exit_local(struct net *n, uint32_t r, const struct packet *p,
                       uint32_t g, uint32_t h, uint32_t cnt, simtime now);

/* UGAL-L: at the source router, the better minimal and the better
 * non-minimal candidate by local load (df_load_local), and `minimal`
 * (given the two loads) says which p takes; returns its first-hop port.
 * (Slingshot's decision is its own, route/ss.c: the minimal pair by
 * load and length.) */
typedef bool (*df_rule_fn)(const void *params, uint64_t qmin,
                           uint64_t qnonmin); /* params: the mode's block */
uint32_t df_decide_local(struct net *n, uint32_t r, struct packet *p,
                         simtime now, df_rule_fn minimal);

/* Biased load of a non-minimal candidate at the k-th decision:
 * (load << (shift + shift_per_hop k)) + add + add_per_hop k, the shift at
 * most 16. */
static inline uint64_t df_biased(uint64_t load, const struct route_bias *b,
                                 uint32_t k)
{
    uint32_t sh = b->shift + b->shift_per_hop * k;
    if (sh > 16)
        sh = 16;
    return (load << sh) + b->add + (uint64_t)b->add_per_hop * k;
}

#endif
