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

static bool ss_rule(const struct net *n, uint64_t qmin, uint64_t qnonmin)
{
    return qmin <= df_biased(qnonmin, &n->p.ss_bias, 0);
}

static uint32_t ss_decide(struct net *n, uint32_t r, struct packet *p,
                          simtime now)
{
    return df_decide_local(n, r, p, now, ss_rule);
}

const struct routing routing_ss_adaptive = {
    .base = { "SS_ADAPTIVE", "Slingshot adaptive: up to 4 candidates by "
                             "queue depth, biased to minimal" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .decide = ss_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
