/* route/ugal_g.c — UGAL-G, UGAL with global information (Kim et al., ISCA
 * 2008 §4.1): at the source router, the better of two minimal and the
 * better of two non-minimal candidates by the queue of the global channel
 * each leaves the source group by — "the queue information of all the
 * global channels" of the group, read exactly and at once, which no real
 * router can (the paper uses it as the ideal that UGAL-L's local
 * information approximates) — and minimal if q_min <= 2 q_nonmin +
 * threshold, as UGAL-L (ugal.c, BookSim2's rule). A candidate inside the
 * group has no global channel: its first-hop port's queue counts. The
 * queue is the flits waiting for the port plus the credits in use on it
 * (net_port_load_local), as UGAL-L reads its first hop.
 *
 * What it shows beside UGAL-L: the phantom congestion and the blindness
 * of local information. A minimal path whose global channel two hops away
 * is saturated looks idle to UGAL-L at the source until the backlog
 * reaches its first hop; UGAL-G sees it at once. */
#include <stddef.h>

#include "core/config.h"
#include "route/df.h"

struct ugal_g_params {
    uint32_t threshold; /* flits (as UGAL-L's: three largest requests) */
};

/* The queue of the global channel c leaves by (its first hop's inside
 * the group), read now wherever it is. */
static uint32_t channel_load(struct net *n, const struct df_cand *c,
                             simtime now)
{
    /* read straight from the global port's record, however far away: no
     * publication delay (its credits in use are still as late as their
     * return) — the ideal UGAL-L is measured against */
    uint32_t port = c->gport != NET_NONE ? c->gport : c->port;
    return net_port_load_local(n, port, now);
}

/* The better of two candidates by their global channels' queues (the
 * first on a tie), both loads filled in. */
static const struct df_cand *better(struct net *n, struct df_cand c[2],
                                    simtime now)
{
    c[0].load = channel_load(n, &c[0], now);
    c[1].load = channel_load(n, &c[1], now);
    return c[1].load < c[0].load ? &c[1] : &c[0];
}

static uint32_t ugal_g_decide(struct net *n, uint32_t r, struct packet *p,
                              simtime now)
{
    const struct ugal_g_params *u = n->mode_params[p->mode];
    struct df_cand min[2], nonmin[2];
    p->dec_hops++;
    int k = df_candidates(n, r, p, now, min, nonmin);
    const struct df_cand *bm = better(n, min, now);
    if (!k)
        return df_take(n, r, p, bm, true);
    const struct df_cand *bn = better(n, nonmin, now);
    /* UGAL-L's rule on the global queues: a non-minimal path takes two
     * global channels, so its queue counts twice */
    bool minimal = (uint64_t)bm->load <= 2 * (uint64_t)bn->load + u->threshold;
    return df_take(n, r, p, minimal ? bm : bn, minimal);
}

static void ugal_g_defaults(void *params, const struct net_params *p,
                            const struct topo *t)
{
    (void)t;
    struct ugal_g_params *u = params;
    u->threshold = 3 * net_req_flits(p, NET_PUT, p->max_payload);
}

static const struct cfg_key ugal_g_keys[] = {
    { .name = "ugal_g_threshold", .type = CFG_UINT32,
      .offset = offsetof(struct ugal_g_params, threshold), .min = 0,
      .max = 1 << 20,
      .help = "UGAL-G: minimal while the minimal global channel's queue is "
              "<= 2 x the non-minimal one's + this, flits (3 packets)" },
    { .name = NULL },
};

static const struct net_part ugal_g_part = {
    .name = "UGAL-G",
    .keys = ugal_g_keys,
    .params_size = sizeof(struct ugal_g_params),
    .defaults = ugal_g_defaults,
};

const struct routing routing_ugal_g = {
    .base = { "UGAL-G", "UGAL with global information at the source: by "
                        "the queues of the global channels (Kim et al. "
                        "2008; an ideal)" },
    .shapes = DF_SHAPES,
    .part = &ugal_g_part,
    .route = df_route,
    .decide = ugal_g_decide,
    .pick = df_pick_local,
    .exit = df_exit_local,
};
