/* route/ss.c — Slingshot's adaptive routing (SC'20 §II-C): "the source
 * switch estimates the load of up to four minimal and non-minimal paths
 * and sends the packet on the best path, that is selected by considering
 * both the paths' congestion and length"; congestion is "the total depth
 * of the request queues of each output port" (here the flits waiting for
 * the first-hop port plus the credits in use on it), and the routing
 * "biases packets to take minimal paths more frequently". The bias is not
 * public: the non-minimal load is doubled (a path twice as long) plus one
 * packet (ss_bias_shift, ss_bias_add). */
#include <stddef.h>

#include "core/config.h"
#include "route/df.h"

struct ss_params {
    struct route_bias bias; /* of a non-minimal load (no per-hop terms:
                               decided once, at the source switch) */
};

static bool ss_rule(const void *params, uint64_t qmin, uint64_t qnonmin)
{
    const struct ss_params *s = params;
    /* "as more packets take non-minimal paths ... both the latency and the
     * link utilization increase. Therefore, Slingshot adaptive routing
     * biases packets to take minimal paths more frequently" (SC'20 §II-C):
     * the non-minimal depth biased, then compared (decided once, at the
     * source switch: per-hop terms 0) */
    return qmin <= df_biased(qnonmin, &s->bias, 0);
}

static uint32_t ss_decide(struct net *n, uint32_t r, struct packet *p,
                          simtime now)
{
    return df_decide_local(n, r, p, now, ss_rule);
}

static void ss_defaults(void *params, const struct net_params *p,
                        const struct topo *t)
{
    (void)t;
    struct ss_params *s = params;
    s->bias = (struct route_bias){ 1, net_req_flits(p, NET_PUT,
                                                    p->max_payload), 0, 0 };
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
