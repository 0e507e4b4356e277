/* route/df.c — the dragonfly route machine (route/df.h): the candidates
 * the adaptive modes compare, the intermediates of non-minimal routes,
 * and the walk of a route through its segments.
 *
 * Why segments: a dragonfly route is a sequence of minimal paths inside
 * one group each, in dimension order (Aries: the green hop before the
 * black one — the XC white paper, "Cray XC Routing", says minimal routing
 * inside a group "will always take at most one green and one black hop";
 * the order is the model's, the other one and both network.local_order's
 * ablations, net/params.h). The segment
 * number is the packet's VC within its class; it grows by one on each
 * global hop, on reaching the intermediate router, and when a packet is
 * diverted after its first hop. Within a segment the channel
 * dependencies follow dimension order, across segments the VC strictly
 * grows, so the dependency graph is acyclic with 4 VCs per class — the
 * 4 + 4 VCs of an Aries router (white paper, "Aries Router";
 * docs/network.md, "Deadlock freedom"). With local_order "both" a
 * segment mixes the two orders, and network.vc_rule "hop" gives each of
 * its local hops a VC of its own (class_vc; 8 per class). */
#include "route/df.h"

#include <assert.h>

static inline const struct routing *mode_of(const struct net *n,
                                            const struct packet *p)
{
    return n->modes[p->mode];
}

/* A new route segment: its VC (or, vc_rule "hop", its pair of VCs) is
 * the next one up. */
static inline void new_segment(struct packet *p)
{
    p->seg++;
    p->dim = 0; /* no local hop taken in it yet */
}

/* The VC within its class a packet takes out of `port` (vc_rule):
 * its segment; or, by hop, 2 x segment + the local hops it has taken in
 * the segment (its first local hop on the lower VC, the second on the
 * upper), the global hop and the ejection on the upper. Along any
 * route the VCs never fall and a local hop never follows another on the
 * same VC, so no cycle of channels closes whatever the order of a
 * segment's local hops. */
static inline uint32_t class_vc(const struct net *n, struct packet *p,
                                uint32_t port)
{
    if (n->p.vc_rule == NET_VC_SEGMENT) {
        assert(p->seg < n->p.vcs);
        return p->seg;
    }
    uint32_t v = 2u * p->seg + 1u;
    if (n->port_class[port] == PCLASS_LOCAL) {
        assert(p->dim < 2); /* at most two local hops in a segment */
        v = 2u * p->seg + p->dim;
        p->dim++;
    }
    assert(v < n->p.vcs);
    return v;
}

/* One of the parallel ports of router r's next-hop entry e, the routing
 * mode picking. */
static __attribute__((noinline)) uint32_t
pick_among(struct net *n, uint32_t r, const struct packet *p, size_t e,
           uint32_t count, simtime now)
{
    uint32_t ports[UINT8_MAX]; /* nh_count is a byte */
    for (uint32_t i = 0; i < count; i++)
        ports[i] = net_nh_port(n, r, e, i);
    return mode_of(n, p)->pick(n, r, p, ports, count, now);
}

/* The same, a single port (the common case) inline: pick_among's array
 * and frame are paid only among parallel ports (cachegrind). */
static inline uint32_t pick_parallel(struct net *n, uint32_t r,
                                     const struct packet *p, size_t e,
                                     simtime now)
{
    /* several ports lead to the same next router where a link is several
     * tiles (Aries: three tiles to each peer chassis, rank-2); the mode
     * chooses among them, by load or by hash */
    uint32_t count = n->nh_count[e];
    if (count == 1)
        return net_nh_port(n, r, e, 0);
    return pick_among(n, r, p, e, count, now);
}

uint32_t df_toward_local(struct net *n, uint32_t r, const struct packet *p,
                         uint32_t x, simtime now)
{
    size_t e = net_nh(n, r, df_local(n, x));
    assert(n->nh_count[e] > 0);
    return pick_parallel(n, r, p, e, now);
}

uint32_t df_toward_gport(struct net *n, uint32_t r, const struct packet *p,
                         uint32_t gp, simtime now)
{
    uint32_t e = n->out[gp].router; /* its load is read next: one line */
    /* to leave the group by gp the packet first goes (minimally, inside the
     * group) to the router that owns it */
    return e == r ? gp : df_toward_local(n, r, p, e, now);
}

/* ---- choices ------------------------------------------------------- */

uint32_t df_pick_random(struct net *n, uint32_t r, const struct packet *p,
                        const uint32_t *ports, uint32_t count, simtime now)
{
    (void)p;
    (void)now;
    return ports[rng_below(&n->router_rng[r], count)];
}

uint32_t df_pick_hash(struct net *n, uint32_t r, const struct packet *p,
                      const uint32_t *ports, uint32_t count, simtime now)
{
    (void)n;
    (void)now;
    /* MIN_HASH / NMIN_HASH: "where the runtime requires ordered packet
     * delivery, the route is selected using a deterministic hash computed on
     * fields from the packet header" (XC white paper, "Cray XC Routing"):
     * here source, destination and packet number, so a message's packets
     * still spread over the paths */
    return ports[df_hash3(p->src_nic, p->dst_nic,
                          ((uint64_t)p->index << 32) | r) % count];
}

uint32_t df_pick_pair(struct net *n, uint32_t r, const struct packet *p,
                      const uint32_t *ports, uint32_t count, simtime now)
{
    (void)n;
    (void)now;
    /* IN_ORDER: one path per source-destination pair, so packets cannot
     * overtake each other */
    return ports[df_hash3(p->src_nic, p->dst_nic, r) % count];
}

uint32_t df_exit_random(struct net *n, uint32_t r, const struct packet *p,
                        uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    (void)p;
    (void)g;
    (void)h;
    (void)now;
    return rng_below(&n->router_rng[r], cnt);
}

uint32_t df_exit_hash(struct net *n, uint32_t r, const struct packet *p,
                      uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    (void)n;
    (void)g;
    (void)h;
    (void)now;
    return (uint32_t)(df_hash3(p->src_nic, p->dst_nic,
                               ((uint64_t)p->index << 32) | r) % cnt);
}

uint32_t df_exit_pair(struct net *n, uint32_t r, const struct packet *p,
                      uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    (void)n;
    (void)g;
    (void)h;
    (void)now;
    return (uint32_t)(df_hash3(p->src_nic, p->dst_nic, r) % cnt);
}

uint32_t df_pick_least(struct net *n, const uint32_t *ports, uint32_t count,
                       simtime now, df_load_fn load)
{
    uint32_t best = ports[0], bl = load(n, ports[0], now);
    for (uint32_t i = 1; i < count; i++) {
        uint32_t l = load(n, ports[i], now);
        if (l < bl) {
            bl = l;
            best = ports[i];
        }
    }
    return best;
}

uint32_t df_exit_two(struct net *n, uint32_t r, const struct packet *p,
                     uint32_t g, uint32_t h, uint32_t cnt, simtime now,
                     df_load_fn load)
{
    /* two of the group pair's global links drawn at random, the less loaded
     * first hop wins: the two minimal candidates of the Aries pipeline
     * (white paper: "two minimal and two non-minimal outputs for every
     * packet"), not a scan of every link */
    uint32_t i1 = rng_below(&n->router_rng[r], cnt);
    uint32_t i2 = rng_below(&n->router_rng[r], cnt);
    uint32_t p1 = df_toward_gport(n, r, p, df_pair_port(n, g, h, i1), now);
    uint32_t p2 = df_toward_gport(n, r, p, df_pair_port(n, g, h, i2), now);
    return load(n, p2, now) < load(n, p1, now) ? i2 : i1;
}

const struct df_cand *df_better(struct net *n, struct df_cand c[2],
                                simtime now, df_load_fn load)
{
    c[0].load = load(n, c[0].port, now);
    c[1].load = load(n, c[1].port, now);
    return c[1].load < c[0].load ? &c[1] : &c[0];
}

uint32_t df_load_local(struct net *n, uint32_t port, simtime now)
{
    return net_port_load_local(n, port, now);
}

uint32_t df_pick_local(struct net *n, uint32_t r, const struct packet *p,
                       const uint32_t *ports, uint32_t count, simtime now)
{
    (void)r;
    (void)p;
    return df_pick_least(n, ports, count, now, df_load_local);
}

uint32_t df_exit_local(struct net *n, uint32_t r, const struct packet *p,
                       uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    return df_exit_two(n, r, p, g, h, cnt, now, df_load_local);
}

uint32_t df_decide_local(struct net *n, uint32_t r, struct packet *p,
                         simtime now, df_rule_fn minimal)
{
    struct df_cand min[2], nonmin[2];
    p->dec_hops++;
    /* UGAL-L's comparison (BookSim2, SST merlin): each pair's better by
     * the local load of its first hop, then the mode's rule between the
     * two (route/ugal.c; route/ss.c decides its own way) */
    int k = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = df_better(n, min, now, df_load_local);
    if (!k)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = df_better(n, nonmin, now, df_load_local);
    bool m = minimal(n->mode_params[p->mode], bm->load, bn->load);
    return df_take(n, r, p, m ? bm : bn, m);
}

/* ---- candidates ---------------------------------------------------- */

/* A minimal candidate at r toward router x, leaving r's group (if x is
 * elsewhere) by its `choice`-th global link to x's group. */
static struct df_cand min_cand(struct net *n, uint32_t r,
                               const struct packet *p, uint32_t x,
                               uint32_t choice, simtime now)
{
    struct df_cand c = { NET_NONE, NET_NONE, NET_NONE, false, 0 };
    uint32_t g = df_group(n, r), h = df_group(n, x);
    if (g == h) {
        c.port = df_toward_local(n, r, p, x, now);
    } else {
        uint32_t cnt = df_pair_count(n, g, h);
        assert(cnt > 0);
        c.gport = df_pair_port(n, g, h, choice % cnt);
        c.port = df_toward_gport(n, r, p, c.gport, now);
    }
    return c;
}

uint32_t df_random_mid(struct net *n, uint32_t r, uint32_t dst, uint64_t h,
                       bool hashed)
{
    /* XC white paper, "Aries Routing": non-minimal routes "distribute
     * traffic uniformly over intermediate groups" through "an
     * intermediate Aries anywhere in the system": between groups, any
     * router of a third group (of either group when there are only two);
     * inside a group, a root router of that group */
    uint32_t g = df_group(n, r), dg = df_group(n, dst);
    uint32_t G = n->t->n_groups;
    uint32_t x;
    if (g == dg || G < 3) {
        uint32_t first = g == dg ? n->group_first[g] : 0;
        uint32_t R = g == dg ? n->group_size[g] : n->n_routers;
        if (R <= 2)
            return dst;
        x = hashed ? (uint32_t)(h % R) : rng_below(&n->router_rng[r], R);
        while (first + x == r || first + x == dst)
            x = (x + 1) % R;
        return first + x;
    }
    /* the routers of the other groups, numbered without g's and dg's */
    uint32_t lo = g < dg ? g : dg, hi = g < dg ? dg : g;
    uint32_t R = n->n_routers - n->group_size[g] - n->group_size[dg];
    x = hashed ? (uint32_t)(h % R) : rng_below(&n->router_rng[r], R);
    if (x >= n->group_first[lo])
        x += n->group_size[lo];
    if (x >= n->group_first[hi])
        x += n->group_size[hi];
    return x;
}

/* Late diversion target (after the first hop, in a new segment): a group
 * other than r's and the destination's, or, with only two groups or for
 * traffic inside a group, a router of those groups. Sets *is_group. */
static uint32_t late_mid(struct net *n, uint32_t r, uint32_t dst,
                         bool *is_group)
{
    uint32_t G = n->t->n_groups, g = df_group(n, r), h = df_group(n, dst);
    struct rng *rg = &n->router_rng[r];
    /* A packet diverted after its first hop is already on its way inside
     * its source group: it goes to an intermediate group, reached wherever
     * the global link it takes lands (a new segment, so the VCs still
     * climb), not to a router drawn anywhere as at the source. */
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
static struct df_cand nonmin_cand(struct net *n, uint32_t r,
                                  const struct packet *p, uint32_t x,
                                  bool is_group, simtime now)
{
    struct df_cand c = { NET_NONE, NET_NONE, x, is_group, 0 };
    uint32_t g = df_group(n, r), h = is_group ? x : df_group(n, x);
    if (g == h) {
        c.port = df_toward_local(n, r, p, x, now);
    } else {
        uint32_t cnt = df_pair_count(n, g, h);
        c.gport = df_pair_port(n, g, h, rng_below(&n->router_rng[r], cnt));
        c.port = df_toward_gport(n, r, p, c.gport, now);
    }
    return c;
}

int df_candidates(struct net *n, uint32_t r, struct packet *p, simtime now,
                  struct df_cand min[2], struct df_cand nonmin[2])
{
    struct rng *rg = &n->router_rng[r];
    bool first = p->hops == 0;
    uint32_t dst = p->dst_router;
    uint32_t g = df_group(n, r), h = df_group(n, dst);
    uint32_t npairs = g != h ? df_pair_count(n, g, h) : 1;

    /* minimal: at the first decision, two exits drawn at random; later,
     * the exit already chosen (dimension order within the segment must
     * hold) */
    /* With a progressive mode a packet may be decided again at each router
     * of its source group (route/aries.c: Aries "packets will take a minimal
     * path until the load on these paths increases"); once an exit is
     * chosen, staying minimal means keeping it (a new exit could need a hop
     * against dimension order). */
    if (first || p->gport == NET_NONE) {
        min[0] = min_cand(n, r, p, dst, rng_below(rg, npairs), now);
        min[1] = npairs > 1 ? min_cand(n, r, p, dst, rng_below(rg, npairs),
                                       now)
                            : min[0];
    } else {
        min[0] = (struct df_cand){ NET_NONE, p->gport, NET_NONE, false, 0 };
        min[0].port = df_toward_gport(n, r, p, p->gport, now);
        min[1] = min[0];
    }

    /* non-minimal */
    uint32_t x1, x2;
    bool grp1 = false, grp2 = false;
    /* the first decision draws intermediates anywhere (Valiant); a later
     * one, a diversion, an intermediate group (late_mid) */
    if (first) {
        x1 = df_random_mid(n, r, dst, 0, false);
        x2 = df_random_mid(n, r, dst, 0, false);
    } else {
        x1 = late_mid(n, r, dst, &grp1);
        x2 = late_mid(n, r, dst, &grp2);
    }
    if (x1 == dst && !grp1)
        return 0; /* no intermediate possible */
    nonmin[0] = nonmin_cand(n, r, p, x1, grp1, now);
    nonmin[1] = nonmin_cand(n, r, p, x2, grp2, now);
    return 2;
}

uint32_t df_take(struct net *n, uint32_t r, struct packet *p,
                 const struct df_cand *c, bool minimal)
{
    (void)n;
    (void)r;
    if (minimal) {
        p->gport = c->gport;
        return c->port;
    }
    p->flags |= PKT_NONMIN;
    p->mid = c->mid;
    if (c->mid_group)
        p->flags |= PKT_MID_GROUP;
    if (p->hops != 0)
        /* diverted at a later router of the source group: the non-minimal
         * leg may turn back against dimension order, a segment of its own */
        new_segment(p); /* a new segment starts here */
    p->gport = c->gport;
    return c->port;
}

/* ---- following the route ------------------------------------------ */

/* Next hop toward router x (NET_NONE: the intermediate group p->mid)
 * under the current segment: inside the group in dimension order, else
 * toward (and over) the chosen global port. */
static uint32_t toward(struct net *n, uint32_t r, struct packet *p,
                       uint32_t x, uint32_t xgroup, simtime now)
{
    uint32_t g = df_group(n, r);
    if (xgroup == g)
        return df_toward_local(n, r, p, x, now);
    if (p->gport == NET_NONE ||
        df_group(n, n->out[p->gport].router) != g) {
        uint32_t cnt = df_pair_count(n, g, xgroup);
        assert(cnt > 0);
        uint32_t i = mode_of(n, p)->exit(n, r, p, g, xgroup, cnt, now);
        p->gport = df_pair_port(n, g, xgroup, i);
    }
    return df_toward_gport(n, r, p, p->gport, now);
}

void df_route(struct net *n, uint32_t r, struct packet *p, simtime now)
{
    const struct routing *mode = mode_of(n, p);
    uint32_t port = NET_NONE;

    /* reached the intermediate router: a new segment toward the
     * destination */
    /* The route so far: a non-minimal packet first goes to its intermediate
     * (a router, or any router of a group for a late diversion), then on as
     * a minimal one; its VC (segment) grows where the route may turn. */
    if ((p->flags & PKT_NONMIN) && !(p->flags & PKT_MID_DONE)) {
        if (p->flags & PKT_MID_GROUP) {
            if (df_group(n, r) == p->mid)
                p->flags |= PKT_MID_DONE; /* entered by a global hop */
        } else if (r == p->mid) {
            p->flags |= PKT_MID_DONE;
            new_segment(p);
            p->gport = NET_NONE;
        }
    }

    /* the decision: at the source router, and with a progressive mode at
     * each router of the source group while the route is still open and
     * minimal */
    if (!(p->flags & (PKT_NONMIN | PKT_DECIDED))) {
        if (p->hops == 0) {
            if (mode->decide)
                port = mode->decide(n, r, p, now);
            if (!mode->progressive)
                p->flags |= PKT_DECIDED;
        } else if (mode->progressive && p->seg == 0 &&
                   df_group(n, r) ==
                       df_group(n, n->t->nics[p->src_nic].router)) {
            port = mode->decide(n, r, p, now);
        }
    }

    if (port == NET_NONE) {
        if ((p->flags & PKT_NONMIN) && !(p->flags & PKT_MID_DONE)) {
            if (p->flags & PKT_MID_GROUP)
                port = toward(n, r, p, NET_NONE, p->mid, now);
            else
                port = toward(n, r, p, p->mid, df_group(n, p->mid), now);
        } else {
            port = toward(n, r, p, p->dst_router,
                          df_group(n, p->dst_router), now);
        }
    }
    p->out_port = port;
    p->out_vc = net_vc(n, p, class_vc(n, p, port));
    if (n->port_class[port] == PCLASS_GLOBAL) {
        new_segment(p); /* the next group is a new segment */
        p->gport = NET_NONE;
        p->flags |= PKT_DECIDED;
    }
}
