/* route/ugal.c — UGAL-L (Singh's universal globally-adaptive load-balanced
 * routing with local information; Kim et al., ISCA 2008 §4.1): at the
 * source router, the better of two minimal and the better of two
 * non-minimal candidates by the load of their first-hop port — the flits
 * waiting for it plus the credits in use on it — and minimal if
 * q_min <= 2 q_nonmin + threshold: a non-minimal path is about twice as
 * long. The rule and the threshold (30 flits of 10-flit packets: three
 * packets) are BookSim2's (`ugal_dragonflynew`, adaptive_threshold). */
#include "route/df.h"

static bool ugal_rule(const struct net *n, uint64_t qmin, uint64_t qnonmin)
{
    return qmin <= 2 * qnonmin + n->p.ugal_threshold;
}

static uint32_t ugal_decide(struct net *n, uint32_t r, struct packet *p,
                            simtime now)
{
    return df_decide_local(n, r, p, now, ugal_rule);
}

const struct routing routing_ugal = {
    .base = { "UGAL", "UGAL-L at the source: minimal if q_min <= 2 q_nonmin "
                      "+ threshold (BookSim2)" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .decide = ugal_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
