/* exp/impact_obs.c — see impact_obs.h. */
#include "exp/impact_obs.h"

#include <stdlib.h>
#include <string.h>

#include "app/micro.h"
#include "exp/alloc.h"
#include "net/counters.h"

int impact_dvec_add(struct impact_dvec *d, double x)
{
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 256;
        double *v = realloc(d->v, cap * sizeof *v);
        if (!v)
            return -1;
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = x;
    return 0;
}

static void nic_counts(const struct net *n, uint32_t c, uint64_t v[3])
{
    struct ctr_ref f = { CTR_NIC_FLITS, 0, 0, 0, c };
    struct ctr_ref tr = { CTR_NIC_TRACK_NET, 0, 0, 0, c };
    struct ctr_ref k = { CTR_NIC_NET_TRACK, 0, 0, 0, c };
    v[0] = ctr_value(n, &f);
    v[1] = ctr_value(n, &tr);
    v[2] = ctr_value(n, &k);
}

/* Table 4's samples of the window ending now; 0 or -1 (memory). */
static int nic_window(struct impact_obs *o, const struct net *n)
{
    simtime len = n->s->now - o->t_prev;
    o->t_prev = n->s->now;
    double secs = (double)len * 1e-12, cyc = links_cycle_s(n);
    for (uint32_t c = 0; c < n->t->n_nics; c++) {
        uint64_t v[3], *p = &o->prev[3 * (size_t)c];
        nic_counts(n, c, v);
        uint64_t flits = v[0] - p[0], track = v[1] - p[1], k = v[2] - p[2];
        memcpy(p, v, sizeof v);
        if (len == 0 || flits == 0)
            continue;
        if (impact_dvec_add(o->traf, (double)flits / secs) != 0 ||
            (k && impact_dvec_add(o->lat, (double)track * cyc * 1e6 / k) != 0))
            return -1;
    }
    return 0;
}

void impact_obs_at(void *ctx, const struct net *n, bool closing)
{
    struct impact_obs *o = ctx;
    (void)closing;
    if (o->failed)
        return;
    if (!o->started) {
        o->started = true;
        o->m_ok = o->model && latm_init(&o->m, n) == 0;
        o->failed = o->model && !o->m_ok;
        o->t_prev = n->s->now;
        for (uint32_t c = 0; o->nics && c < n->t->n_nics; c++)
            nic_counts(n, c, &o->prev[3 * (size_t)c]);
        return;
    }
    if (o->nics && nic_window(o, n) != 0) {
        o->failed = true;
        return;
    }
    if (!o->model)
        return;
    simtime len = latm_window(&o->m);
    if (len == 0)
        return;
    double x = (double)len / (double)SIMTIME_US;
    struct latm_paths p, sum = { 0 };
    uint32_t pairs = 0;
    for (uint32_t i = 0; i < o->n_nic; i++)
        for (uint32_t k = 0; k < o->n_nic; k++)
            if (i != k) {
                latm_pair(&o->m, o->nic[i], o->nic[k], &p);
                latm_add(&sum, &p, 1.0);
                pairs++;
            }
    if (pairs)
        latm_add(&o->sp, &sum, x / pairs);
    if (o->pp_a != UINT32_MAX) {
        latm_pair(&o->m, o->pp_a, o->pp_b, &p);
        latm_add(&o->rt, &p, x);
        latm_pair(&o->m, o->pp_b, o->pp_a, &p);
        latm_add(&o->rt, &p, x);
    }
    o->pt += o->m.pt_links * x;
    o->weight += x;
}

/* Set o up for victim job j on nodes[0..j->nodes): the latency model if
 * `model`, Table 4's samples into lat and traf if they are given.
 * Returns 0 or -1. */
int impact_obs_init(struct impact_obs *o, const struct topo *t,
                    const struct job_config *j, const uint32_t *nodes,
                    bool model, struct impact_dvec *lat,
                    struct impact_dvec *traf)
{
    memset(o, 0, sizeof *o);
    o->model = model;
    o->nics = lat != NULL;
    o->lat = lat;
    o->traf = traf;
    o->pp_a = o->pp_b = UINT32_MAX;
    /* every NIC the job's ranks use, once: topo_rank_nic deals a node's
     * NICs to its ranks in blocks, so a node's distinct NICs come in
     * order (at most ppn a node) */
    o->nic = malloc(((size_t)j->nodes * j->ppn + 1) * sizeof *o->nic);
    if (o->nics)
        o->prev = calloc(3 * (size_t)(t->n_nics ? t->n_nics : 1),
                         sizeof *o->prev);
    if (!o->nic || (o->nics && !o->prev))
        return -1;
    o->n_nic = 0;
    for (uint32_t i = 0; i < j->nodes; i++)
        for (uint32_t l = 0; l < j->ppn; l++) {
            uint32_t c = topo_rank_nic(t, nodes[i], l, j->ppn);
            if (l == 0 || c != o->nic[o->n_nic - 1])
                o->nic[o->n_nic++] = c;
        }
    if (impact_is_pingpong(j)) {
        const struct micro_params *mp = (const void *)j->params;
        uint32_t b = alloc_rank_node(nodes, j->ppn, mp->peer);
        o->pp_a = topo_rank_nic(t, alloc_rank_node(nodes, j->ppn, 0), 0,
                                j->ppn);
        o->pp_b = topo_rank_nic(t, b, mp->peer % j->ppn, j->ppn);
    }
    return 0;
}

void impact_obs_free(struct impact_obs *o)
{
    if (o->m_ok)
        latm_free(&o->m);
    free(o->nic);
    free(o->prev);
}

