/* route/aries.c — the Aries adaptive modes ADAPTIVE_0..3. */
#include "route/df.h"

/* What an Aries mode sees of an output port: near-end queue plus the
 * published far-end occupancy (stale), as a saturating congestion level
 * (load_quantum flits per level, at most load_levels). */
static uint32_t aries_load(struct net *n, uint32_t port, simtime now)
{
    uint32_t l = (n->out[port].qflits + net_port_load_far(n, port, now)) /
                 n->p.load_quantum;
    return l < n->p.load_levels ? l : n->p.load_levels;
}

static uint32_t aries_pick(struct net *n, uint32_t r, const struct packet *p,
                           const uint32_t *ports, uint32_t count,
                           simtime now)
{
    (void)r;
    (void)p;
    return df_pick_least(n, ports, count, now, aries_load);
}

static uint32_t aries_exit(struct net *n, uint32_t r, const struct packet *p,
                           uint32_t g, uint32_t h, uint32_t cnt, simtime now)
{
    return df_exit_two(n, r, p, g, h, cnt, now, aries_load);
}

static uint32_t aries_decide(struct net *n, uint32_t r, struct packet *p,
                             simtime now)
{
    const struct route_bias *b = &n->p.bias[n->modes[p->mode]->param];
    struct df_cand min[2], nonmin[2];
    uint32_t k = p->dec_hops++;
    int c = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = df_better(n, min, now, aries_load);
    if (!c)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = df_better(n, nonmin, now, aries_load);
    bool minimal = bm->load <= df_biased(bn->load, b, k);
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

#define ADAPTIVE(k, help)                                                  \
    const struct routing routing_adaptive_##k = {                          \
        .base = { "ADAPTIVE_" #k, help },                                  \
        .families = DF_FAMILIES,                                           \
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
