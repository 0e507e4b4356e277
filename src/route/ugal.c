/* route/ugal.c — UGAL-L (Singh's universal globally-adaptive load-balanced
 * routing with local information; Kim et al., ISCA 2008 §4.1): at the
 * source router, the better of two minimal and the better of two
 * non-minimal candidates by the load of their first-hop port — the flits
 * waiting for it plus the credits in use on it — and minimal if
 * q_min <= 2 q_nonmin + threshold: a non-minimal path is about twice as
 * long. The rule and the threshold (30 flits of 10-flit packets: three
 * packets) are BookSim2's (`ugal_dragonflynew`, adaptive_threshold). */
#include <stddef.h>

#include "core/config.h"
#include "route/df.h"

struct ugal_params {
    uint32_t threshold; /* flits (BookSim2: 30, three 10-flit packets) */
};

static bool ugal_rule(const void *params, uint64_t qmin, uint64_t qnonmin)
{
    const struct ugal_params *u = params;
    /* a non-minimal path is about twice as long as a minimal one (two
     * global hops against one), so its queue counts twice; the threshold
     * keeps a packet minimal until its minimal queue is that many flits
     * beyond (BookSim2 ugal_dragonflynew: 30) */
    return qmin <= 2 * qnonmin + u->threshold;
}

static uint32_t ugal_decide(struct net *n, uint32_t r, struct packet *p,
                            simtime now)
{
    return df_decide_local(n, r, p, now, ugal_rule);
}

/* Three of the network's largest request packets, as BookSim2's 30 flits
 * are three of its 10-flit packets. */
static void ugal_defaults(void *params, const struct net_params *p,
                          const struct topo *t)
{
    (void)t;
    struct ugal_params *u = params;
    u->threshold = 3 * net_req_flits(p, NET_PUT, p->max_payload);
}

static const struct cfg_key ugal_keys[] = {
    { .name = "ugal_threshold", .type = CFG_UINT32,
      .offset = offsetof(struct ugal_params, threshold), .min = 0,
      .max = 1 << 20,
      .help = "UGAL: minimal while q_min <= 2 q_nonmin + this, flits (3 "
              "packets)" },
    { .name = NULL },
};

static const struct net_part ugal_part = {
    .name = "UGAL",
    .keys = ugal_keys,
    .params_size = sizeof(struct ugal_params),
    .defaults = ugal_defaults,
};

const struct routing routing_ugal = {
    .base = { "UGAL", "UGAL-L at the source: minimal if q_min <= 2 q_nonmin "
                      "+ threshold (BookSim2)" },
    .shapes = DF_SHAPES,
    .part = &ugal_part,
    .route = df_route,
    .decide = ugal_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
