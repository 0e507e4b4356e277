/* route/ss.c — Slingshot's adaptive routing (SC'20 §II-C): "the source
 * switch estimates the load of up to four minimal and non-minimal paths
 * and sends the packet on the best path, that is selected by considering
 * both the paths' congestion and length"; congestion is "the total depth
 * of the request queues of each output port" (here the flits waiting for
 * the first-hop port plus the credits in use on it), and the routing
 * "biases packets to take minimal paths more frequently". The bias is not
 * public: the non-minimal load is doubled (a path twice as long) plus one
 * packet (ss_bias_shift, ss_bias_add).
 *
 * Length among the minimal paths (ss_hop_flits). Between two groups a
 * dragonfly has many minimal paths (one global hop each): leaving by a
 * global link of the source switch itself, or crossing first to the
 * switch that owns one, and landing on the destination switch or on
 * another of its group. SC'20 §II-B counts "two different switches in
 * two different groups (3 inter-switch hops)" for its Fig. 4, three
 * switches: the source switch's own link, which every switch of Malbec
 * and Shandy has to every other group (`dfsim topo`). So one of the two
 * minimal candidates is a global link of the source switch when it has
 * one to the destination group (the other drawn among all the group
 * pair's links, as on Aries), and the two are compared by their load
 * plus ss_hop_flits per switch-to-switch hop of the path. How Rosetta
 * weighs length against depth is not public: the default counts one hop
 * as the flits a global link carries while a packet crosses one switch
 * (350 ns at 200 Gb/s: 8,750 bytes), the time a longer path costs in the
 * units of the depth. Whether to leave the minimal paths is decided on
 * depth alone, the shallower minimal candidate's against the non-minimal
 * one's, biased. 0 turns the term off: both candidates drawn among all
 * the links and compared by load alone (dfsim before this model). */
#include <stddef.h>

#include "core/config.h"
#include "route/df.h"

struct ss_params {
    struct route_bias bias; /* of a non-minimal load (no per-hop terms:
                               decided once, at the source switch) */
    uint32_t hop_flits;     /* a minimal path's length: flits a hop */
};

static bool ss_rule(const struct ss_params *s, uint64_t qmin,
                    uint64_t qnonmin)
{
    /* "as more packets take non-minimal paths ... both the latency and the
     * link utilization increase. Therefore, Slingshot adaptive routing
     * biases packets to take minimal paths more frequently" (SC'20 §II-C):
     * the non-minimal depth biased, then compared (decided once, at the
     * source switch: per-hop terms 0) */
    return qmin <= df_biased(qnonmin, &s->bias, 0);
}

/* Hops from router a to router b of group g on its local links: none
 * when they are one (no table read: an own link's first leg). */
static uint32_t local_hops(const struct net *n, uint32_t g, uint32_t a,
                           uint32_t b)
{
    return a == b ? 0 : topo_group_hops(n->t, g, df_local(n, a),
                                        df_local(n, b));
}

/* Switch-to-switch hops of minimal candidate c from r to dst: inside the
 * source group to the owner of its global link, the link, inside the
 * destination group from where it lands (the owner and the landing
 * router from the port's own line of net.out, not the topology's). */
static uint32_t min_hops(const struct net *n, uint32_t r, uint32_t dst,
                         const struct df_cand *c)
{
    if (c->gport == NET_NONE)
        return local_hops(n, df_group(n, r), r, dst);
    const struct net_out *o = &n->out[c->gport];
    return local_hops(n, df_group(n, r), r, o->router) + 1u +
           local_hops(n, df_group(n, dst), o->peer_router, dst);
}

/* Router r's own global links to group h: their first index in the group
 * pair's list (ordered by port, and a router's ports are consecutive) and
 * how many there are. */
static uint32_t own_exits(const struct net *n, uint32_t r, uint32_t h,
                          uint32_t *first)
{
    const struct topo *t = n->t;
    uint32_t g = df_group(n, r), cnt = df_pair_count(n, g, h);
    uint32_t lo = t->routers[r].first_port;
    uint32_t hi = lo + t->routers[r].n_ports;
    uint32_t a = 0, b = cnt;
    while (a < b) { /* the first link at or past r's first port */
        uint32_t m = a + (b - a) / 2;
        if (df_pair_port(n, g, h, m) < lo)
            a = m + 1;
        else
            b = m;
    }
    *first = a;
    uint32_t k = a;
    while (k < cnt && df_pair_port(n, g, h, k) < hi)
        k++;
    return k - a;
}

/* The better minimal candidate of two, by load and length; loads filled
 * in (the depth alone: the rule against the non-minimal one compares
 * depths). */
static const struct df_cand *better_min(struct net *n, uint32_t r,
                                        struct packet *p,
                                        struct df_cand c[2], simtime now,
                                        uint32_t hop_flits)
{
    uint32_t dst = p->dst_router, h = df_group(n, dst);
    if (!hop_flits)
        return df_better(n, c, now, df_load_local);
    if ((p->hops == 0 || p->gport == NET_NONE) && h != df_group(n, r)) {
        /* the first decision between groups: candidate 0 one of r's own
         * links to h, when it has any */
        uint32_t first, k = own_exits(n, r, h, &first);
        if (k) {
            uint32_t i = first + rng_below(&n->router_rng[r], k);
            c[0].gport = df_pair_port(n, df_group(n, r), h, i);
            c[0].port = c[0].gport;
        }
    }
    c[0].load = df_load_local(n, c[0].port, now);
    c[1].load = df_load_local(n, c[1].port, now);
    uint64_t a = c[0].load + (uint64_t)hop_flits * min_hops(n, r, dst, &c[0]);
    uint64_t b = c[1].load + (uint64_t)hop_flits * min_hops(n, r, dst, &c[1]);
    return b < a ? &c[1] : &c[0];
}

static uint32_t ss_decide(struct net *n, uint32_t r, struct packet *p,
                          simtime now)
{
    const struct ss_params *s = n->mode_params[p->mode];
    struct df_cand min[2], nonmin[2];
    p->dec_hops++;
    int k = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = better_min(n, r, p, min, now, s->hop_flits);
    if (!k)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = df_better(n, nonmin, now, df_load_local);
    /* leave the minimal paths when both are deep: the shorter one may be
     * the deeper, by less than its hops' worth */
    uint32_t qmin = min[0].load < min[1].load ? min[0].load : min[1].load;
    bool m = ss_rule(s, qmin, bn->load);
    return df_take(n, r, p, m ? bm : bn, m);
}

static void ss_defaults(void *params, const struct net_params *p,
                        const struct topo *t)
{
    struct ss_params *s = params;
    s->bias = (struct route_bias){ 1, net_req_flits(p, NET_PUT,
                                                    p->max_payload), 0, 0 };
    /* one hop: the flits a global link (else any router-to-router link)
     * carries while a packet crosses one switch (router_delay) */
    uint64_t bw = 0;
    for (uint32_t i = 0; t && i < t->n_ports; i++) {
        const struct topo_port *q = &t->ports[i];
        if (q->peer == TOPO_NONE ||
            (topo_port_class(q->kind) != PCLASS_LOCAL &&
             topo_port_class(q->kind) != PCLASS_GLOBAL))
            continue;
        bw = q->bw;
        if (topo_port_class(q->kind) == PCLASS_GLOBAL)
            break;
    }
    double f = (double)p->router_delay / SIMTIME_S * (double)bw /
               (p->flit_bytes ? p->flit_bytes : 1);
    s->hop_flits = (uint32_t)(f + 0.5);
}

static const struct cfg_key ss_keys[] = {
    { .name = "ss_bias_shift", .type = CFG_UINT32,
      .offset = offsetof(struct ss_params, bias.shift), .min = 0, .max = 8,
      .help = "SS_ADAPTIVE: a non-minimal load L counts as L << shift (1)" },
    { .name = "ss_bias_add", .type = CFG_UINT32,
      .offset = offsetof(struct ss_params, bias.add), .min = 0,
      .max = 1 << 20,
      .help = "SS_ADAPTIVE: flits added to a non-minimal load (1 "
              "packet)" },
    { .name = "ss_hop_flits", .type = CFG_UINT32,
      .offset = offsetof(struct ss_params, hop_flits), .min = 0,
      .max = 1 << 24,
      .help = "SS_ADAPTIVE: a minimal path's length, flits added to its "
              "load per switch-to-switch hop, one candidate being a link "
              "of the source switch itself (a switch's crossing at the "
              "link rate: 8750 on Slingshot; 0: by load alone, any links)" },
    { .name = NULL },
};

static const struct net_part ss_part = {
    .name = "SS_ADAPTIVE",
    .keys = ss_keys,
    .params_size = sizeof(struct ss_params),
    .defaults = ss_defaults,
};

const struct routing routing_ss_adaptive = {
    .base = { "SS_ADAPTIVE", "Slingshot adaptive: up to 4 candidates by "
                             "queue depth, biased to minimal" },
    .shapes = DF_SHAPES,
    .part = &ss_part,
    .route = df_route,
    .decide = ss_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
