/* exp/impact_obs.h — what an impact study's simulation reads from the
 * counters while it runs (a jobs_observer, exp/jobs.h): SC'19's latency
 * model over the victim's NICs and ICS'21 Table 4's per-NIC samples.
 * For exp/impact_sim.c. */
#ifndef DFSIM_EXP_IMPACT_OBS_H
#define DFSIM_EXP_IMPACT_OBS_H

#include <stdbool.h>
#include <stdint.h>

#include "exp/impact.h"
#include "net/latency_model.h"
#include "net/net.h"
#include "topo/topo.h"

/* d gets x; 0 or -1 (memory). */
int impact_dvec_add(struct impact_dvec *d, double x);

/* What one simulation's counters give (a jobs_observer). The latency
 * model (`model`): the victim's NICs; every window, the path classes of
 * each ordered pair of them (Eq. 4's spatial mean) and of the
 * ping-pong's pair both ways, summed with the window's length as weight
 * (Eq. 5's temporal mean), and the machine's percent time stalled (ICS'21
 * Fig. 1). Table 4 (`nics`): every NIC that sent requests in the window
 * gives its request traffic (flits/s) and, if responses came back, its
 * latency per request (RSP_TRACK_2 / RSP_NET_TRACK, us). */
struct impact_obs {
    struct latm m;
    bool model, nics;
    bool started, failed, m_ok;      /* m_ok: m set up */
    uint32_t *nic, n_nic;
    uint32_t pp_a, pp_b;             /* UINT32_MAX: not a ping-pong */
    struct latm_paths sp, rt;
    double pt;                       /* the machine's percent time
                                        stalled (latm pt_links), summed
                                        with the same weights */
    double weight;
    uint64_t *prev;                  /* [3 x n_nics]: flits, track, resps */
    simtime t_prev;
    struct impact_dvec *lat, *traf;
};

/* Set o up for victim job j on nodes[0..j->nodes): the latency model if
 * `model`, Table 4's samples into lat and traf if they are given.
 * Returns 0 or -1. */
int impact_obs_init(struct impact_obs *o, const struct topo *t,
                    const struct job_config *j, const uint32_t *nodes,
                    bool model, struct impact_dvec *lat,
                    struct impact_dvec *traf);

/* The jobs_observer's at (ctx: a struct impact_obs). */
void impact_obs_at(void *ctx, const struct net *n, bool closing);

void impact_obs_free(struct impact_obs *o);

#endif
