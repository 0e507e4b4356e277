/* route/ugal.c — UGAL-L (Singh's universal globally-adaptive load-balanced
 * routing with local information; Kim et al., ISCA 2008 §4.1): at the
 * source router, the better of two minimal and the better of two
 * non-minimal candidates by the load of their first-hop port — the flits
 * waiting for it plus the credits in use on it — and minimal if
 * q_min <= 2 q_nonmin + threshold: a non-minimal path is about twice as
 * long. The rule and the threshold (30 flits of 10-flit packets: three
 * packets) are BookSim2's (`ugal_dragonflynew`, adaptive_threshold). */
#include "route/df.h"

static uint32_t ugal_decide(struct net *n, uint32_t r, struct packet *p,
                            simtime now)
{
    struct df_cand min[2], nonmin[2];
    p->dec_hops++;
    int k = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = df_better(n, min, now, df_load_local);
    if (!k)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = df_better(n, nonmin, now, df_load_local);
    bool minimal = (uint64_t)bm->load <=
                   2 * (uint64_t)bn->load + n->p.ugal_threshold;
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

const struct routing routing_ugal = {
    .base = { "UGAL", "UGAL-L at the source: minimal if q_min <= 2 q_nonmin "
                      "+ threshold (BookSim2)" },
    .families = DF_FAMILIES,
    .route = df_route,
    .decide = ugal_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
