/* route/valiant.c — Valiant routing (Valiant 1982; Kim et al., ISCA 2008
 * §4: "VAL"): every packet goes minimally to a random intermediate
 * router, then minimally to its destination. */
#include "route/df.h"

static uint32_t valiant_decide(struct net *n, uint32_t r, struct packet *p,
                               simtime now)
{
    (void)now;
    /* decided once, at the source router; no intermediate possible (two
     * routers in all) leaves the packet minimal */
    uint32_t x = df_random_mid(n, r, p->dst_router, 0, false);
    if (x != p->dst_router) {
        p->flags |= PKT_NONMIN;
        p->mid = x;
    }
    return NET_NONE;
}

const struct routing routing_valiant = {
    .base = { "valiant", "through a random intermediate router (Valiant)" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .decide = valiant_decide,
    .pick = df_pick_random,
    .exit = df_exit_random,
};
