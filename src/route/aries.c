/* route/aries.c — the Aries adaptive modes ADAPTIVE_0..3.
 *
 * The decision (XC white paper, "Aries Routing"; SC'19 §2.2): "the routing
 * pipeline generates two minimal and two non-minimal outputs for every
 * packet"; "the load on each of the selected paths is compared and the
 * path with the lightest load is selected", a bias being added to the
 * non-minimal loads ("load metrics can be biased towards minimal or
 * non-minimal routing"); with the default algorithms "packets will take a
 * minimal path until the load on these paths increases and a non-minimal
 * path is preferred". It is taken again at each router of the source
 * group while the packet is still minimal (route/df.c).
 *
 * The load of a candidate (aries_load "credit", the default): "current
 * link loads are computed using a combination of downstream link load,
 * estimated far-end link load and near-end link load", the far-end
 * estimate from "the current flow credits available" (SC'19 §2.2). Per
 * candidate, three terms, each remapped to a small integer level, summed
 * and saturated as the 4-bit congestion value the Cray routing patents
 * describe (US 9,137,143; not verified here):
 *   near-end    flits waiting here for the first-hop port (exact), one
 *               level per load_quantum flits;
 *   far-end     credits in use on the first-hop port beyond the link's
 *               own bandwidth-delay product (net_out.bdp: what a link
 *               running at full rate with nothing queued downstream has in
 *               use), so that an idle or busy but unblocked link reads 0 —
 *               what the far end holds as the credits tell it, late by
 *               the credit return; one level per far_quantum flits;
 *   downstream  for a candidate that leaves the group by a global link of
 *               another router, that link's load (its near-end queue plus
 *               its far-end term) as its router published it at the start
 *               of the last 10-cycle period, a local link's latency ago;
 *               one level per down_quantum flits.
 * Stale and coarse, these are what makes phantom congestion (SC'19 §4.1):
 * a packet leaves its minimal path for a queue of a packet or two that has
 * cleared by the time it would have got there, and pays two or more hops
 * and the queues on them. Equal loads go minimal when zero and either way
 * at random otherwise (between the two minimal and between the two
 * non-minimal candidates likewise).
 *
 * aries_load "occupancy" keeps the earlier metric for ablation: the flits
 * waiting here plus the input-buffer occupancy the next router published,
 * one level per load_quantum flits, the first candidate on ties.
 */
#include "route/df.h"

static inline uint32_t sat(const struct net *n, uint32_t level)
{
    return level < n->p.load_levels ? level : n->p.load_levels;
}

/* The earlier metric (aries_load "occupancy"). */
static uint32_t occupancy_load(struct net *n, uint32_t port, simtime now)
{
    return sat(n, (n->out[port].qflits + net_port_load_far(n, port, now)) /
                      n->p.load_quantum);
}

/* Near-end plus far-end level of output `port` (aries_load "credit"). */
static inline uint32_t port_level(struct net *n, uint32_t port, simtime now)
{
    uint32_t far = net_port_excess(n, port, now);
    return sat(n, n->out[port].qflits / n->p.load_quantum +
                      far / n->p.far_quantum);
}

/* The level of a candidate leaving r by first-hop port `port` and, if
 * not NET_NONE, global port `gport` of its group. */
static uint32_t cand_level(struct net *n, uint32_t r, uint32_t port,
                           uint32_t gport, simtime now)
{
    if (n->p.aries_load == NET_ARIES_OCCUPANCY)
        return occupancy_load(n, port, now);
    uint32_t l = port_level(n, port, now);
    if (gport != NET_NONE && gport != port) {
        /* published by its router, a local link away */
        uint32_t down = net_port_published(n, gport, now,
                                           n->out[port].latency);
        l += down / n->p.down_quantum;
    }
    (void)r;
    return sat(n, l);
}

/* Whether b beats a: lower wins; a tie goes to a when zero (or with the
 * occupancy metric) and to either at random otherwise. */
static bool beats(struct net *n, uint32_t r, uint64_t b, uint64_t a)
{
    if (b != a)
        return b < a;
    if (a == 0 || n->p.aries_load == NET_ARIES_OCCUPANCY)
        return false;
    return rng_below(&n->router_rng[r], 2) == 1;
}

static uint32_t level_of_port(struct net *n, uint32_t port, simtime now)
{
    return n->p.aries_load == NET_ARIES_OCCUPANCY
               ? occupancy_load(n, port, now)
               : port_level(n, port, now);
}

/* Among parallel ports: the least loaded, ties as above. */
static uint32_t aries_pick(struct net *n, uint32_t r, const struct packet *p,
                           const uint32_t *ports, uint32_t count,
                           simtime now)
{
    (void)p;
    uint32_t best = ports[0], bl = level_of_port(n, ports[0], now);
    for (uint32_t i = 1; i < count; i++) {
        uint32_t l = level_of_port(n, ports[i], now);
        if (beats(n, r, l, bl)) {
            bl = l;
            best = ports[i];
        }
    }
    return best;
}

/* Among the global links toward group h: the better of two drawn at
 * random, by their candidates' loads. */
static uint32_t aries_exit(struct net *n, uint32_t r, const struct packet *p,
                           uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    struct rng *rg = &n->router_rng[r];
    uint32_t i1 = rng_below(rg, cnt), i2 = rng_below(rg, cnt);
    uint32_t g1 = df_pair_port(n, g, h, i1), g2 = df_pair_port(n, g, h, i2);
    uint32_t p1 = df_toward_gport(n, r, p, g1, now);
    uint32_t p2 = df_toward_gport(n, r, p, g2, now);
    uint32_t l1 = cand_level(n, r, p1, g1, now);
    uint32_t l2 = cand_level(n, r, p2, g2, now);
    return beats(n, r, l2, l1) ? i2 : i1;
}

/* The better of two candidates, their loads filled in. */
static const struct df_cand *better(struct net *n, uint32_t r,
                                    struct df_cand c[2], simtime now)
{
    c[0].load = cand_level(n, r, c[0].port, c[0].gport, now);
    if (c[1].port == c[0].port && c[1].gport == c[0].gport) {
        c[1].load = c[0].load; /* one candidate drawn twice */
        return &c[0];
    }
    c[1].load = cand_level(n, r, c[1].port, c[1].gport, now);
    return beats(n, r, c[1].load, c[0].load) ? &c[1] : &c[0];
}

static uint32_t aries_decide(struct net *n, uint32_t r, struct packet *p,
                             simtime now)
{
    const struct route_bias *b = &n->p.bias[n->modes[p->mode]->param];
    struct df_cand min[2], nonmin[2];
    uint32_t k = p->dec_hops++;
    int c = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = better(n, r, min, now);
    if (!c)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = better(n, r, nonmin, now);
    bool minimal = !beats(n, r, df_biased(bn->load, b, k), bm->load);
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

uint32_t route_aries_level(struct net *n, uint32_t r, uint32_t port,
                           uint32_t gport, simtime now)
{
    return cand_level(n, r, port, gport, now);
}

bool route_aries_beats(struct net *n, uint32_t r, uint64_t b, uint64_t a)
{
    return beats(n, r, b, a);
}

#define ADAPTIVE(k, help)                                                  \
    const struct routing routing_adaptive_##k = {                          \
        .base = { "ADAPTIVE_" #k, help },                                  \
        .shapes = DF_SHAPES,                                           \
        .param = k,                                                        \
        .progressive = true,                                               \
        .publish = true,                                                   \
        .route = df_route,                                                 \
        .decide = aries_decide,                                            \
        .pick = aries_pick,                                                \
        .exit = aries_exit,                                                \
    }

ADAPTIVE(0, "Aries adaptive, no bias");
ADAPTIVE(1, "Aries adaptive, increasingly minimal bias (MPI alltoall "
            "default)");
ADAPTIVE(2, "Aries adaptive, low bias");
ADAPTIVE(3, "Aries adaptive, high bias");
