/* route/route.c — see route.h. */
#include "route/route.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define DF_FAMILIES ((1u << TOPO_ARIES) | (1u << TOPO_SLINGSHOT) |        \
                     (1u << TOPO_DRAGONFLY))

static const struct routing rt_minimal = {
    { "minimal", "random among minimal paths at every router" },
    RT_MINIMAL, 0, DF_FAMILIES };
static const struct routing rt_valiant = {
    { "valiant", "through a random intermediate router (Valiant)" },
    RT_VALIANT, 0, DF_FAMILIES };
static const struct routing rt_ugal = {
    { "UGAL", "UGAL-L at the source: minimal if q_min <= 2 q_nonmin + "
              "threshold (BookSim2)" },
    RT_UGAL, 0, DF_FAMILIES };
static const struct routing rt_a0 = {
    { "ADAPTIVE_0", "Aries adaptive, no bias" }, RT_ARIES, 0, DF_FAMILIES };
static const struct routing rt_a1 = {
    { "ADAPTIVE_1", "Aries adaptive, increasingly minimal bias (MPI "
                    "alltoall default)" }, RT_ARIES, 1, DF_FAMILIES };
static const struct routing rt_a2 = {
    { "ADAPTIVE_2", "Aries adaptive, low bias" }, RT_ARIES, 2, DF_FAMILIES };
static const struct routing rt_a3 = {
    { "ADAPTIVE_3", "Aries adaptive, high bias" }, RT_ARIES, 3, DF_FAMILIES };
static const struct routing rt_min_hash = {
    { "MIN_HASH", "minimal, path from a hash of source, destination and "
                  "packet" }, RT_MIN_HASH, 0, DF_FAMILIES };
static const struct routing rt_nmin_hash = {
    { "NMIN_HASH", "non-minimal, intermediate from a hash of source, "
                   "destination and packet" }, RT_NMIN_HASH, 0, DF_FAMILIES };
static const struct routing rt_in_order = {
    { "IN_ORDER", "minimal, one path per source-destination pair (in "
                  "order)" }, RT_IN_ORDER, 0, DF_FAMILIES };
static const struct routing rt_ss = {
    { "SS_ADAPTIVE", "Slingshot adaptive: up to 4 candidates by queue "
                     "depth, biased to minimal" }, RT_SS_ADAPTIVE, 0,
    DF_FAMILIES };
static const struct routing rt_dor = {
    { "DOR", "torus dimension order X, Y, Z on the shortest direction" },
    RT_DOR, 0, 1u << TOPO_TORUS };

static const struct reg_entry *const routing_entries[] = {
    &rt_minimal.base, &rt_valiant.base, &rt_ugal.base, &rt_a0.base,
    &rt_a1.base, &rt_a2.base, &rt_a3.base, &rt_min_hash.base,
    &rt_nmin_hash.base, &rt_in_order.base, &rt_ss.base, &rt_dor.base,
};

const struct registry routing_registry = {
    .kind = "routing",
    .help = "routing modes (minimal, valiant, UGAL, Aries ADAPTIVE_0..3, "
            "MIN_HASH, NMIN_HASH, IN_ORDER, SS_ADAPTIVE, DOR)",
    .entries = routing_entries,
    .n = sizeof routing_entries / sizeof routing_entries[0],
};

const struct routing *route_default(enum topo_family f)
{
    switch (f) {
    case TOPO_ARIES: return &rt_a0;
    case TOPO_SLINGSHOT: return &rt_ss;
    case TOPO_DRAGONFLY: return &rt_ugal;
    case TOPO_TORUS: return &rt_dor;
    }
    return &rt_minimal;
}

/* Packet flag: `mid` is a group, not a router (a late diversion). */
#define PKT_MID_GROUP 8

/* ---- tables -------------------------------------------------------- */

static inline uint32_t grp(const struct net *n, uint32_t r)
{
    return n->t->routers[r].group;
}

static inline uint32_t lidx(const struct net *n, uint32_t r)
{
    return r - n->group_first[grp(n, r)];
}

/* Dragonflies: for each router and each router of its group, the ports
 * of the next hop in dimension order (Aries: green before black); torus:
 * for each router and direction (X+, X-, Y+, Y-, Z+, Z-) its ports. */
int route_init(struct net *n, struct diag *d)
{
    const struct topo *t = n->t;
    if (t->family == TOPO_TORUS) {
        if (n->p.vcs < 2) {
            diag_error(d, NULL, 0, "network.vcs", "the torus needs 2 VCs "
                       "per class (dateline) to be deadlock-free");
            return -1;
        }
        n->m = 6;
        n->nh_first = calloc((size_t)t->n_routers * 6, sizeof *n->nh_first);
        n->nh_count = calloc((size_t)t->n_routers * 6, 1);
        n->nh_port = calloc(t->n_ports ? t->n_ports : 1, sizeof *n->nh_port);
        if (!n->nh_first || !n->nh_count || !n->nh_port)
            goto oom;
        uint32_t k = 0;
        for (uint32_t r = 0; r < t->n_routers; r++) {
            const struct topo_router *rt = &t->routers[r];
            for (uint32_t dir = 0; dir < 6; dir++) {
                n->nh_first[r * 6 + dir] = k;
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    uint32_t pt = rt->first_port + i;
                    if (t->ports[pt].kind == PORT_TORUS_XP + dir &&
                        t->ports[pt].peer != TOPO_NONE) {
                        n->nh_port[k++] = pt;
                        n->nh_count[r * 6 + dir]++;
                    }
                }
            }
        }
        return 0;
    }
    if (n->p.vcs < 4) {
        diag_error(d, NULL, 0, "network.vcs", "a dragonfly needs 4 VCs per "
                   "class (route segments) to be deadlock-free");
        return -1;
    }
    uint32_t G = t->n_groups, m = t->routers_per_group;
    n->m = m;
    n->group_first = calloc(G, sizeof *n->group_first);
    n->group_size = calloc(G, sizeof *n->group_size);
    n->nh_first = calloc((size_t)t->n_routers * m, sizeof *n->nh_first);
    n->nh_count = calloc((size_t)t->n_routers * m, 1);
    if (!n->group_first || !n->group_size || !n->nh_first || !n->nh_count)
        goto oom;
    for (uint32_t r = t->n_routers; r-- > 0;) {
        n->group_first[grp(n, r)] = r;
        n->group_size[grp(n, r)]++;
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        if (r - n->group_first[grp(n, r)] >= n->group_size[grp(n, r)]) {
            diag_error(d, NULL, 0, "network", "routers of group %u are not "
                       "numbered consecutively", grp(n, r));
            return -1;
        }
    /* first pass counts, second fills */
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (uint32_t r = 0; r < t->n_routers; r++) {
            const struct topo_router *rt = &t->routers[r];
            uint32_t g = rt->group, lr = lidx(n, r);
            for (uint32_t j = 0; j < n->group_size[g]; j++) {
                size_t e = (size_t)r * m + j;
                if (pass)
                    n->nh_first[e] = (uint32_t)k;
                if (j == lr)
                    continue;
                uint8_t dist = topo_group_hops(t, g, lr, j);
                if (dist == 255)
                    continue;
                uint32_t best_n = TOPO_NONE, best_kind = 0;
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    const struct topo_port *tp =
                        &t->ports[rt->first_port + i];
                    if (tp->peer == TOPO_NONE ||
                        topo_port_class((enum port_kind)tp->kind) !=
                            PCLASS_LOCAL)
                        continue;
                    uint32_t nb = t->ports[tp->peer].router;
                    if (topo_group_hops(t, g, lidx(n, nb), j) + 1 != dist)
                        continue;
                    if (best_n == TOPO_NONE || tp->kind < best_kind ||
                        (tp->kind == best_kind && nb < best_n)) {
                        best_n = nb;
                        best_kind = tp->kind;
                    }
                }
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    uint32_t pt = rt->first_port + i;
                    const struct topo_port *tp = &t->ports[pt];
                    if (tp->peer == TOPO_NONE || tp->kind != best_kind ||
                        t->ports[tp->peer].router != best_n)
                        continue;
                    if (pass) {
                        n->nh_port[k] = pt;
                        n->nh_count[e]++;
                    }
                    k++;
                }
            }
        }
        if (!pass) {
            total = k;
            n->nh_port = calloc(total ? total : 1, sizeof *n->nh_port);
            if (!n->nh_port)
                goto oom;
        }
    }
    return 0;
oom:
    diag_error(d, NULL, 0, "network", "out of memory for routing tables");
    return -1;
}

void route_free(struct net *n)
{
    free(n->nh_first);
    free(n->nh_count);
    free(n->nh_port);
    free(n->group_first);
    free(n->group_size);
    n->nh_first = NULL;
    n->nh_count = NULL;
    n->nh_port = NULL;
    n->group_first = n->group_size = NULL;
}

/* ---- load metrics -------------------------------------------------- */

/* What a mode sees of an output port. Aries: near-end queue plus the
 * published far-end occupancy (stale), as a saturating congestion level
 * (load_quantum flits per level, at most load_levels); UGAL-L and
 * Slingshot: the local queue plus the credits in use (the request-queue
 * depth), in flits. */
static inline uint32_t port_load(struct net *n, enum route_algo a,
                                 uint32_t port, simtime now)
{
    if (a == RT_ARIES) {
        uint32_t l = (n->out[port].qflits + net_port_load_far(n, port, now)) /
                     n->p.load_quantum;
        return l < n->p.load_levels ? l : n->p.load_levels;
    }
    return net_port_load_local(n, port, now);
}

static inline uint64_t hash3(uint64_t a, uint64_t b, uint64_t c)
{
    return rng_mix_stafford(rng_mix_stafford(a * 0x9e3779b97f4a7c15ULL ^ b) ^
                            c);
}

/* One of `count` parallel ports starting at nh_port[first]: the least
 * loaded for adaptive modes, random for minimal/valiant, hashed for the
 * deterministic modes. */
static uint32_t pick_parallel(struct net *n, uint32_t r,
                              const struct packet *p, enum route_algo a,
                              uint32_t first, uint32_t count, simtime now)
{
    const uint32_t *pp = n->nh_port + first;
    if (count == 1)
        return pp[0];
    switch (a) {
    case RT_MINIMAL:
    case RT_VALIANT:
        return pp[rng_below(&n->router_rng[r], count)];
    case RT_MIN_HASH:
    case RT_NMIN_HASH:
        return pp[hash3(p->src_nic, p->dst_nic, ((uint64_t)p->index << 32) |
                        r) % count];
    case RT_IN_ORDER:
        return pp[hash3(p->src_nic, p->dst_nic, r) % count];
    default: {
        uint32_t best = pp[0], bl = port_load(n, a, pp[0], now);
        for (uint32_t i = 1; i < count; i++) {
            uint32_t l = port_load(n, a, pp[i], now);
            if (l < bl) {
                bl = l;
                best = pp[i];
            }
        }
        return best;
    }
    }
}

/* First-hop port from r toward router x of the same group. */
static uint32_t toward_local(struct net *n, uint32_t r,
                             const struct packet *p, enum route_algo a,
                             uint32_t x, simtime now)
{
    size_t e = (size_t)r * n->m + lidx(n, x);
    assert(n->nh_count[e] > 0);
    return pick_parallel(n, r, p, a, n->nh_first[e], n->nh_count[e], now);
}

/* First-hop port from r toward global port gp (owned by a router of r's
 * group): gp itself if r owns it. */
static uint32_t toward_gport(struct net *n, uint32_t r,
                             const struct packet *p, enum route_algo a,
                             uint32_t gp, simtime now)
{
    uint32_t e = n->t->ports[gp].router;
    return e == r ? gp : toward_local(n, r, p, a, e, now);
}

/* A global port of group g toward group h, by index. */
static inline uint32_t pair_count(const struct net *n, uint32_t g,
                                  uint32_t h)
{
    size_t k = (size_t)g * n->t->n_groups + h;
    return n->t->pair_start[k + 1] - n->t->pair_start[k];
}
static inline uint32_t pair_port(const struct net *n, uint32_t g,
                                 uint32_t h, uint32_t i)
{
    size_t k = (size_t)g * n->t->n_groups + h;
    return n->t->pair_port[n->t->pair_start[k] + i];
}

/* A minimal candidate at r toward target router x: the global port it
 * would leave by (NET_NONE inside a group) and its first-hop port. */
struct cand {
    uint32_t gport, port, load;
};

static struct cand min_cand(struct net *n, uint32_t r,
                            const struct packet *p, enum route_algo a,
                            uint32_t x, uint32_t choice, simtime now)
{
    struct cand c = { NET_NONE, NET_NONE, 0 };
    uint32_t g = grp(n, r), h = grp(n, x);
    if (g == h) {
        c.port = toward_local(n, r, p, a, x, now);
    } else {
        uint32_t cnt = pair_count(n, g, h);
        assert(cnt > 0);
        c.gport = pair_port(n, g, h, choice % cnt);
        c.port = toward_gport(n, r, p, a, c.gport, now);
    }
    c.load = port_load(n, a, c.port, now);
    return c;
}

/* A random intermediate router for a route from r to dst_router: any
 * router but those two (Aries: "an intermediate Aries anywhere in the
 * system"). */
static uint32_t random_mid(struct net *n, uint32_t r, uint32_t dst,
                           uint64_t h, bool hashed)
{
    uint32_t R = n->n_routers;
    if (R <= 2)
        return dst;
    uint32_t x = hashed ? (uint32_t)(h % R)
                        : rng_below(&n->router_rng[r], R);
    while (x == r || x == dst)
        x = (x + 1) % R;
    return x;
}

/* Late diversion target (after the first hop, in a new segment): a group
 * other than r's and the destination's, or, with only two groups or for
 * traffic inside a group, a router of those groups. Sets *is_group. */
static uint32_t late_mid(struct net *n, uint32_t r, uint32_t dst,
                         bool *is_group)
{
    uint32_t G = n->t->n_groups, g = grp(n, r), h = grp(n, dst);
    struct rng *rg = &n->router_rng[r];
    if (g != h && G >= 3) {
        *is_group = true;
        uint32_t x = rng_below(rg, G - 2);
        uint32_t lo = g < h ? g : h, hi = g < h ? h : g;
        if (x >= lo)
            x++;
        if (x >= hi)
            x++;
        return x;
    }
    *is_group = false;
    /* a router of r's group (or, inter-group, of either group) */
    uint32_t span = n->group_size[g] + (g != h ? n->group_size[h] : 0);
    if (span <= 2)
        return dst;
    for (;;) {
        uint32_t i = rng_below(rg, span);
        uint32_t x = i < n->group_size[g]
                         ? n->group_first[g] + i
                         : n->group_first[h] + i - n->group_size[g];
        if (x != r && x != dst)
            return x;
    }
}

/* Non-minimal candidate toward intermediate x (router, or group). */
static struct cand nonmin_cand(struct net *n, uint32_t r,
                               const struct packet *p, enum route_algo a,
                               uint32_t x, bool is_group, simtime now)
{
    struct cand c = { NET_NONE, NET_NONE, 0 };
    uint32_t g = grp(n, r), h = is_group ? x : grp(n, x);
    if (g == h) {
        c.port = toward_local(n, r, p, a, x, now);
    } else {
        uint32_t cnt = pair_count(n, g, h);
        c.gport = pair_port(n, g, h, rng_below(&n->router_rng[r], cnt));
        c.port = toward_gport(n, r, p, a, c.gport, now);
    }
    c.load = port_load(n, a, c.port, now);
    return c;
}

static inline uint64_t biased(uint64_t load, const struct route_bias *b,
                              uint32_t k)
{
    uint32_t sh = b->shift + b->shift_per_hop * k;
    if (sh > 16)
        sh = 16;
    return (load << sh) + b->add + (uint64_t)b->add_per_hop * k;
}

/* The adaptive decision at router r of the source group. Sets the route
 * (minimal or non-minimal) and returns the first-hop port chosen. */
static uint32_t decide(struct net *n, uint32_t r, struct packet *p,
                       const struct routing *mode, simtime now)
{
    enum route_algo a = mode->algo;
    struct rng *rg = &n->router_rng[r];
    uint32_t k = p->dec_hops++;
    bool first = p->hops == 0;
    uint32_t dst = p->dst_router;
    uint32_t g = grp(n, r), h = grp(n, dst);
    uint32_t npairs = g != h ? pair_count(n, g, h) : 1;

    /* minimal candidates: at the first decision, two exits drawn at
     * random; later, the exit already chosen (dimension order within the
     * segment must hold) */
    struct cand m1, m2;
    if (first || p->gport == NET_NONE) {
        m1 = min_cand(n, r, p, a, dst, rng_below(rg, npairs), now);
        m2 = npairs > 1 ? min_cand(n, r, p, a, dst, rng_below(rg, npairs),
                                   now)
                        : m1;
    } else {
        m1.gport = p->gport;
        m1.port = toward_gport(n, r, p, a, p->gport, now);
        m1.load = port_load(n, a, m1.port, now);
        m2 = m1;
    }
    struct cand bm = m2.load < m1.load ? m2 : m1;

    /* non-minimal candidates */
    struct cand n1, n2;
    uint32_t x1, x2;
    bool grp1 = false, grp2 = false;
    if (first) {
        x1 = random_mid(n, r, dst, 0, false);
        x2 = random_mid(n, r, dst, 0, false);
    } else {
        x1 = late_mid(n, r, dst, &grp1);
        x2 = late_mid(n, r, dst, &grp2);
    }
    if (x1 == dst && !grp1) { /* no intermediate possible */
        p->gport = bm.gport;
        return bm.port;
    }
    n1 = nonmin_cand(n, r, p, a, x1, grp1, now);
    n2 = nonmin_cand(n, r, p, a, x2, grp2, now);
    bool second = n2.load < n1.load;
    struct cand bn = second ? n2 : n1;
    uint32_t bx = second ? x2 : x1;
    bool bgroup = second ? grp2 : grp1;

    bool minimal;
    switch (a) {
    case RT_UGAL:
        minimal = (uint64_t)bm.load <=
                  2 * (uint64_t)bn.load + n->p.ugal_threshold;
        break;
    case RT_SS_ADAPTIVE:
        minimal = bm.load <= biased(bn.load, &n->p.ss_bias, 0);
        break;
    default:
        minimal = bm.load <= biased(bn.load, &n->p.bias[mode->bias], k);
        break;
    }
    if (minimal) {
        p->gport = bm.gport;
        return bm.port;
    }
    p->flags |= PKT_NONMIN;
    p->mid = bx;
    if (bgroup)
        p->flags |= PKT_MID_GROUP;
    if (!first)
        p->seg++; /* a new segment starts here */
    p->gport = bn.gport;
    return bn.port;
}

/* Next hop toward router x (NET_NONE: the intermediate group p->mid)
 * under the current segment: inside the group in dimension order, else
 * toward (and over) the chosen global port. */
static uint32_t toward(struct net *n, uint32_t r, struct packet *p,
                       enum route_algo a, uint32_t x, uint32_t xgroup,
                       simtime now)
{
    uint32_t g = grp(n, r);
    if (xgroup == g)
        return toward_local(n, r, p, a, x, now);
    if (p->gport == NET_NONE || grp(n, n->t->ports[p->gport].router) != g) {
        uint32_t cnt = pair_count(n, g, xgroup);
        assert(cnt > 0);
        uint32_t i;
        if (a == RT_MIN_HASH || a == RT_NMIN_HASH)
            i = (uint32_t)(hash3(p->src_nic, p->dst_nic,
                                 ((uint64_t)p->index << 32) | r) % cnt);
        else if (a == RT_IN_ORDER)
            i = (uint32_t)(hash3(p->src_nic, p->dst_nic, r) % cnt);
        else if (a == RT_MINIMAL || a == RT_VALIANT)
            i = rng_below(&n->router_rng[r], cnt);
        else {
            /* adaptive: the less loaded of two exits */
            uint32_t i1 = rng_below(&n->router_rng[r], cnt);
            uint32_t i2 = rng_below(&n->router_rng[r], cnt);
            uint32_t p1 = toward_gport(n, r, p, a,
                                       pair_port(n, g, xgroup, i1), now);
            uint32_t p2 = toward_gport(n, r, p, a,
                                       pair_port(n, g, xgroup, i2), now);
            i = port_load(n, a, p2, now) < port_load(n, a, p1, now) ? i2
                                                                     : i1;
        }
        p->gport = pair_port(n, g, xgroup, i);
    }
    return toward_gport(n, r, p, a, p->gport, now);
}

static void route_dragonfly(struct net *n, uint32_t r, struct packet *p,
                            simtime now)
{
    const struct routing *mode = n->modes[p->mode];
    enum route_algo a = mode->algo;
    uint32_t port = NET_NONE;

    /* reached the intermediate router: a new segment toward the
     * destination */
    if ((p->flags & PKT_NONMIN) && !(p->flags & PKT_MID_DONE)) {
        if (p->flags & PKT_MID_GROUP) {
            if (grp(n, r) == p->mid)
                p->flags |= PKT_MID_DONE; /* entered by a global hop */
        } else if (r == p->mid) {
            p->flags |= PKT_MID_DONE;
            p->seg++;
            p->gport = NET_NONE;
        }
    }

    bool undecided = !(p->flags & (PKT_NONMIN | PKT_DECIDED));
    if (undecided && p->hops == 0) {
        switch (a) {
        case RT_VALIANT:
        case RT_NMIN_HASH: {
            uint64_t hv = hash3(p->src_nic, p->dst_nic, p->index);
            uint32_t x = random_mid(n, r, p->dst_router, hv,
                                    a == RT_NMIN_HASH);
            p->flags |= PKT_DECIDED;
            if (x != p->dst_router) {
                p->flags |= PKT_NONMIN;
                p->mid = x;
            }
            break;
        }
        case RT_UGAL:
        case RT_SS_ADAPTIVE:
            port = decide(n, r, p, mode, now);
            p->flags |= PKT_DECIDED;
            break;
        case RT_ARIES:
            port = decide(n, r, p, mode, now);
            break;
        default:
            p->flags |= PKT_DECIDED;
            break;
        }
    } else if (undecided && a == RT_ARIES && p->seg == 0 &&
               grp(n, r) == grp(n, n->t->nics[p->src_nic].router)) {
        /* Aries re-decides at each router of the source group */
        port = decide(n, r, p, mode, now);
    }

    if (port == NET_NONE) {
        if ((p->flags & PKT_NONMIN) && !(p->flags & PKT_MID_DONE)) {
            if (p->flags & PKT_MID_GROUP)
                port = toward(n, r, p, a, NET_NONE, p->mid, now);
            else
                port = toward(n, r, p, a, p->mid, grp(n, p->mid), now);
        } else {
            port = toward(n, r, p, a, p->dst_router, grp(n, p->dst_router),
                          now);
        }
    }
    assert(p->seg < n->p.vcs);
    p->out_port = port;
    p->out_vc = (uint8_t)(p->cls * n->p.vcs + p->seg);
    if (topo_port_class((enum port_kind)n->t->ports[port].kind) ==
        PCLASS_GLOBAL) {
        p->seg++; /* the next group is a new segment */
        p->gport = NET_NONE;
        p->flags |= PKT_DECIDED;
    }
}

/* Gemini torus: dimension order X, Y, Z, the shorter way round (ties go
 * +); VC 1 of the class after crossing the wrap-around link of the
 * current dimension (the dateline), VC 0 again in a new dimension. */
static void route_torus(struct net *n, uint32_t r, struct packet *p,
                        simtime now)
{
    const struct topo *t = n->t;
    const uint32_t size[3] = { t->p.torus.x, t->p.torus.y, t->p.torus.z };
    const uint16_t *cur = t->routers[r].pos;
    const uint16_t *dst = t->routers[p->dst_router].pos;
    for (uint32_t d = p->dim; d < 3; d++) {
        if (cur[d] == dst[d])
            continue;
        if (d != p->dim) {
            p->dim = (uint8_t)d;
            p->seg = 0;
        }
        uint32_t fwd = (dst[d] + size[d] - cur[d]) % size[d];
        bool plus = fwd <= size[d] - fwd;
        uint32_t dir = 2 * d + (plus ? 0 : 1);
        size_t e = (size_t)r * 6 + dir;
        assert(n->nh_count[e] > 0);
        uint32_t port = pick_parallel(n, r, p, RT_UGAL, n->nh_first[e],
                                      n->nh_count[e], now);
        p->out_port = port;
        p->out_vc = (uint8_t)(p->cls * n->p.vcs + p->seg);
        bool wrap = plus ? cur[d] == size[d] - 1 : cur[d] == 0;
        if (wrap)
            p->seg = 1;
        return;
    }
    assert(0 && "route_torus called at the destination");
}

/* At the destination router: the least busy port serving the NIC. */
static void route_eject(struct net *n, struct packet *p)
{
    const struct topo_nic *tn = &n->t->nics[p->dst_nic];
    uint32_t best = tn->first_port;
    for (uint32_t k = 1; k < tn->n_ports; k++) {
        uint32_t pt = tn->first_port + k;
        const struct net_out *o = &n->out[pt], *b = &n->out[best];
        if (o->qflits < b->qflits ||
            (o->qflits == b->qflits && o->busy < b->busy))
            best = pt;
    }
    p->out_port = best;
    p->out_vc = (uint8_t)(p->cls * n->p.vcs);
}

void route_packet(struct net *n, uint32_t r, struct packet *p, simtime now)
{
    if (r == p->dst_router) {
        route_eject(n, p);
        return;
    }
    if (n->t->family == TOPO_TORUS)
        route_torus(n, r, p, now);
    else
        route_dragonfly(n, r, p, now);
}
