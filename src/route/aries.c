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
#include <assert.h>
#include <stddef.h>

#include "core/config.h"
#include "route/df.h"

static inline const struct aries_route_params *params_of(const struct net *n,
                                                   const struct packet *p)
{
    return n->mode_params[p->mode];
}

static inline uint32_t sat(const struct aries_route_params *ap, uint32_t level)
{
    return level < ap->load_levels ? level : ap->load_levels;
}

/* The earlier metric (aries_load "occupancy"). */
static uint32_t occupancy_load(struct net *n, const struct aries_route_params *ap,
                               uint32_t port, simtime now)
{
    return sat(ap, (n->out[port].qflits + net_port_load_far(n, port, now)) /
                       ap->load_quantum);
}

/* Near-end plus far-end level of output `port` (aries_load "credit"). */
static inline uint32_t port_level(struct net *n,
                                  const struct aries_route_params *ap,
                                  uint32_t port, simtime now)
{
    uint32_t far = net_port_excess(n, port, now);
    return sat(ap, n->out[port].qflits / ap->load_quantum +
                       far / ap->far_quantum);
}

/* The level of a candidate leaving r by first-hop port `port` and, if
 * not NET_NONE, global port `gport` of its group. */
static uint32_t cand_level(struct net *n, const struct aries_route_params *ap,
                           uint32_t r, uint32_t port, uint32_t gport,
                           simtime now)
{
    if (n->p.aries_load == NET_ARIES_OCCUPANCY)
        return occupancy_load(n, ap, port, now);
    uint32_t l = port_level(n, ap, port, now);
    if (gport != NET_NONE && gport != port) {
        /* published by its router, a local link away */
        uint32_t down = net_port_published(n, gport, now,
                                           n->out[port].latency);
        l += down / ap->down_quantum;
    }
    (void)r;
    return sat(ap, l);
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

static uint32_t level_of_port(struct net *n, const struct aries_route_params *ap,
                              uint32_t port, simtime now)
{
    return n->p.aries_load == NET_ARIES_OCCUPANCY
               ? occupancy_load(n, ap, port, now)
               : port_level(n, ap, port, now);
}

/* Among parallel ports: the least loaded, ties as above. */
static uint32_t aries_pick(struct net *n, uint32_t r, const struct packet *p,
                           const uint32_t *ports, uint32_t count,
                           simtime now)
{
    const struct aries_route_params *ap = params_of(n, p);
    uint32_t best = ports[0], bl = level_of_port(n, ap, ports[0], now);
    for (uint32_t i = 1; i < count; i++) {
        uint32_t l = level_of_port(n, ap, ports[i], now);
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
    const struct aries_route_params *ap = params_of(n, p);
    uint32_t l1 = cand_level(n, ap, r, p1, g1, now);
    uint32_t l2 = cand_level(n, ap, r, p2, g2, now);
    return beats(n, r, l2, l1) ? i2 : i1;
}

/* The better of two candidates, their loads filled in. */
static const struct df_cand *better(struct net *n,
                                    const struct aries_route_params *ap,
                                    uint32_t r, struct df_cand c[2],
                                    simtime now)
{
    c[0].load = cand_level(n, ap, r, c[0].port, c[0].gport, now);
    if (c[1].port == c[0].port && c[1].gport == c[0].gport) {
        c[1].load = c[0].load; /* one candidate drawn twice */
        return &c[0];
    }
    c[1].load = cand_level(n, ap, r, c[1].port, c[1].gport, now);
    return beats(n, r, c[1].load, c[0].load) ? &c[1] : &c[0];
}

static uint32_t aries_decide(struct net *n, uint32_t r, struct packet *p,
                             simtime now)
{
    const struct aries_route_params *ap = params_of(n, p);
    const struct route_bias *b = &ap->bias[n->modes[p->mode]->param];
    struct df_cand min[2], nonmin[2];
    uint32_t k = p->dec_hops++;
    int c = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = better(n, ap, r, min, now);
    if (!c)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = better(n, ap, r, nonmin, now);
    bool minimal = !beats(n, r, df_biased(bn->load, b, k), bm->load);
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

uint32_t route_aries_level(struct net *n, uint32_t r, uint32_t port,
                           uint32_t gport, simtime now)
{
    const struct aries_route_params *ap = net_part_find(&n->p, &route_aries_part);
    assert(ap); /* the network has an ADAPTIVE_k mode */
    return cand_level(n, ap, r, port, gport, now);
}

bool route_aries_beats(struct net *n, uint32_t r, uint64_t b, uint64_t a)
{
    return beats(n, r, b, a);
}

/* ---- the modes' parameters --------------------------------------------- */

uint32_t route_aries_own_level(const struct net_params *p, uint32_t load_quantum,
                               uint32_t far_quantum, const struct topo *t)
{
    uint32_t near = (p->col_buffer + load_quantum - 1) / load_quantum;
    uint32_t far = (uint32_t)((uint64_t)net_max_bdp(p, t) *
                              (100 - p->far_light) / 100) /
                   far_quantum;
    return near + far;
}

static void aries_defaults(void *params, const struct net_params *p,
                           const struct topo *t)
{
    /* Aries congestion is a small saturating number per candidate: the
     * Cray routing patents (US 9,137,143; as summarised in our reference
     * notes, not verified) describe a 4-bit value, the saturating sum of
     * remapped near-end, far-end and downstream terms, and a bias made of
     * a 2-bit shift and a 6-bit add per routing class (above).
     * Each term counts one level per maximum-size request packet (14
     * flits) and the sum saturates at 15, so a quiet port reads 0. The
     * near-end queue of a tiled router's output is its column buffers:
     * rows x col_buffer = 6 x 2 packets, 12 levels at most.
     * ADAPTIVE_k biases, in levels (SC'19 §2.2: values not public):
     *  0: none;
     *  1: increasingly minimal (patents US 9,577,918 / 10,142,235: the
     *     bias grows at each hop): low at the injection router, then the
     *     non-minimal level doubled and two more at each later decision;
     *  2: low: one level;
     *  3: high: the non-minimal level doubled (a non-minimal path is about
     *     twice as long, as BookSim2's UGAL weighs it: 2q + threshold)
     *     plus one level more than one node's own stream can show at its
     *     first hop (route_aries_own_level): a NIC injects on the
     *     processor tiles of one tile row (topo/aries.c), so its packets
     *     for one output share that output's column buffer for the row,
     *     and the link it keeps busy shows the part of its
     *     bandwidth-delay product above far_light as far-end load. Its own
     *     stream thus stays minimal under high bias (SC'19 Fig. 7:
     *     intra-group, high bias stalls more than ADAPTIVE_0, which
     *     spreads it).
     * The far-end term counts the credits in use beyond far_light = 50 %
     * of the link's bandwidth-delay product: a link less than half busy
     * reads 0 (the white paper: minimal when the network is quiet), one
     * busier reads load its far end does not hold — the credits of the
     * flits on the wire, the phantom congestion of Won et al. (HPCA 2015,
     * cited by SC'19 §2.2). The share is not public. */
    struct aries_route_params *ap = params;
    uint32_t pk = net_req_flits(p, NET_PUT, p->max_payload);
    ap->load_quantum = pk;
    ap->far_quantum = pk;
    ap->down_quantum = pk;
    ap->load_levels = 15;
    ap->bias[0] = (struct route_bias){ 0, 0, 0, 0 };
    ap->bias[1] = (struct route_bias){ 0, 1, 1, 2 };
    ap->bias[2] = (struct route_bias){ 0, 1, 0, 0 };
    ap->bias[3] = (struct route_bias){
        1, route_aries_own_level(p, pk, pk, t) + 1, 0, 0 };
}

#define AKEY(NAME, FIELD, LO, HI, HELP)                                      \
    { .name = NAME, .type = CFG_UINT32,                                      \
      .offset = offsetof(struct aries_route_params, FIELD), .min = LO, .max = HI,  \
      .help = HELP }

/* The four keys of the bias of ADAPTIVE_k (struct route_bias), in
 * congestion levels: a non-minimal candidate's level L becomes
 * (L << (shift + shift_per_hop*d)) + add + add_per_hop*d at its d-th
 * decision. The ranges are the patents' 2-bit shift and 6-bit add. */
#define ABIAS(k)                                                             \
    AKEY("adaptive" #k "_shift", bias[k].shift, 0, 3,                        \
         "ADAPTIVE_" #k ": a non-minimal level L counts as L << shift "      \
         "(family default)"),                                                \
    AKEY("adaptive" #k "_add", bias[k].add, 0, 63,                           \
         "ADAPTIVE_" #k ": levels added to a non-minimal candidate "         \
         "(family default)"),                                                \
    AKEY("adaptive" #k "_shift_per_hop", bias[k].shift_per_hop, 0, 3,        \
         "ADAPTIVE_" #k ": shift added per adaptive decision after the "     \
         "first (family default)"),                                          \
    AKEY("adaptive" #k "_add_per_hop", bias[k].add_per_hop, 0, 63,           \
         "ADAPTIVE_" #k ": levels added per adaptive decision after the "    \
         "first (family default)")

static const struct cfg_key aries_keys[] = {
    AKEY("load_quantum", load_quantum, 1, 1 << 20,
         "ADAPTIVE_k: flits of near-end queue per congestion level (one "
         "full request packet)"),
    AKEY("far_quantum", far_quantum, 1, 1 << 20,
         "ADAPTIVE_k: flits of credits in use beyond the link's own per "
         "level (one full request packet)"),
    AKEY("down_quantum", down_quantum, 1, 1 << 20,
         "ADAPTIVE_k: flits of a global link's published load per level "
         "(one full request packet)"),
    AKEY("load_levels", load_levels, 1, 255,
         "ADAPTIVE_k: highest congestion level, where it saturates (15: a "
         "4-bit value)"),
    ABIAS(0),
    ABIAS(1),
    ABIAS(2),
    ABIAS(3),
    { .name = NULL },
};

/* ADAPTIVE_3's add follows the quanta the file gives, unless given. */
static void aries_derive(void *params, const struct net_params *p,
                         const struct topo *t, struct config_setting_t *g)
{
    struct aries_route_params *ap = params;
    if (!cfg_given_line(g, "adaptive3_add"))
        ap->bias[3].add = route_aries_own_level(p, ap->load_quantum,
                                                ap->far_quantum, t) + 1;
}

const struct net_part route_aries_part = {
    .name = "aries",
    .keys = aries_keys,
    .params_size = sizeof(struct aries_route_params),
    .defaults = aries_defaults,
    .derive = aries_derive,
};

#define ADAPTIVE(k, help)                                                  \
    const struct routing routing_adaptive_##k = {                          \
        .base = { "ADAPTIVE_" #k, help },                                  \
        .shapes = DF_SHAPES,                                           \
        .param = k,                                                        \
        .part = &route_aries_part,                                         \
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
