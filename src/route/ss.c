/* route/ss.c — Slingshot's adaptive routing (SC'20 §II-C): "the source
 * switch estimates the load of up to four minimal and non-minimal paths
 * and sends the packet on the best path, that is selected by considering
 * both the paths' congestion and length"; congestion is "the total depth
 * of the request queues of each output port" (here the flits waiting for
 * the first-hop port plus the credits in use on it), and the routing
 * "biases packets to take minimal paths more frequently". The bias is not
 * public: the non-minimal load is doubled (a path twice as long) plus one
 * packet (net_params.ss_bias). */
#include "route/df.h"

static uint32_t ss_decide(struct net *n, uint32_t r, struct packet *p,
                          simtime now)
{
    struct df_cand min[2], nonmin[2];
    p->dec_hops++;
    int k = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = df_better(n, min, now, df_load_local);
    if (!k)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = df_better(n, nonmin, now, df_load_local);
    bool minimal = bm->load <= df_biased(bn->load, &n->p.ss_bias, 0);
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

const struct routing routing_ss_adaptive = {
    .base = { "SS_ADAPTIVE", "Slingshot adaptive: up to 4 candidates by "
                             "queue depth, biased to minimal" },
    .families = DF_FAMILIES,
    .route = df_route,
    .decide = ss_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
