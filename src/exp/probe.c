/* exp/probe.c — see probe.h. */
#include "exp/probe.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/rng.h"
#include "core/sim.h"
#include "core/config.h"

const struct cfg_key probe_keys[] = {
    { .name = "size", .type = CFG_INT,
      .offset = offsetof(struct probe_params, size), .min = 1,
      .max = (int64_t)1 << 30, .help = "bytes per probe packet (64)" },
    { .name = "pairs", .type = CFG_UINT32,
      .offset = offsetof(struct probe_params, pairs), .min = 1, .max = 10000,
      .help = "node pairs per minimal hop count (4)" },
    { .name = "router_delay_ns", .type = CFG_FLOAT,
      .offset = offsetof(struct probe_params, router_delay_ns), .fmin = -1,
      .fmax = 1e6,
      .help = "ns per router crossed; -1 = the system's default" },
    { .name = NULL },
};

void probe_defaults(struct probe_params *p)
{
    p->size = 64;
    p->pairs = 4;
    p->router_delay_ns = -1;
}

double probe_router_delay_ns(const struct probe_params *p,
                             const struct topo *t)
{
    if (p->router_delay_ns >= 0)
        return p->router_delay_ns;
    struct topo_hw hw; /* the family's router delay */
    topo_family_hw(t->family, &hw);
    return (double)hw.router_delay / (double)SIMTIME_NS;
}

enum { EV_PROBE_HOP = 0 };

struct flight {
    uint32_t src_node, dst_node, dst_router;
    uint32_t hops_class, hops;
    uint64_t min_bw;    /* slowest link so far, bytes/s */
    simtime wire;       /* summed wire latency */
    simtime start;
};

struct probe_state {
    const struct topo *t;
    const struct probe_params *p;
    struct flight *f;
    struct rng *router_rng; /* one stream per router */
    uint32_t *cand;         /* scratch: candidate ports */
    uint32_t cand_cap;      /* the most ports of any router: a router has
                               no more minimal next hops than ports (a=64,
                               h=64, g=2: up to 127 of them) */
    simtime router_delay;
    FILE *csv;
    double *latency_ns;     /* per flight, when delivered */
    uint32_t delivered;
};

static void on_hop(struct sim *s, const struct event *e, void *ctx)
{
    struct probe_state *st = ctx;
    struct flight *f = &st->f[e->arg];
    uint32_t r = e->target;
    if (r == f->dst_router) {
        const struct topo_nic *nic =
            &st->t->nics[st->t->nodes[f->dst_node].nic[0]];
        uint64_t bw = st->t->ports[nic->first_port].bw;
        if (bw < f->min_bw)
            f->min_bw = bw;
        simtime lat = s->now + st->router_delay - f->start +
                      time_serialize((uint64_t)st->p->size, f->min_bw);
        double ns = (double)lat / (double)SIMTIME_NS;
        st->latency_ns[e->arg] = ns;
        st->delivered++;
        if (st->csv) {
            char a[64], b[64];
            fprintf(st->csv, "%llu,%u,%s,%s,%u,%.3f\n",
                    (unsigned long long)e->arg, f->hops_class,
                    topo_node_name(st->t, f->src_node, a, sizeof a),
                    topo_node_name(st->t, f->dst_node, b, sizeof b), f->hops,
                    ns);
            fflush(st->csv);
        }
        return;
    }
    uint32_t n = topo_min_ports(st->t, r, f->dst_router, st->cand,
                                st->cand_cap);
    assert(n > 0 && n <= st->cand_cap);
    uint32_t port = st->cand[n > 1 ? rng_below(&st->router_rng[r], n) : 0];
    const struct topo_port *pt = &st->t->ports[port];
    if (pt->bw < f->min_bw)
        f->min_bw = pt->bw;
    f->hops++;
    sim_schedule(s, r, s->now + st->router_delay + pt->latency,
                 st->t->ports[pt->peer].router, EV_PROBE_HOP, e->arg);
}

static uint32_t node_router(const struct topo *t, uint32_t n)
{
    return t->nics[t->nodes[n].nic[0]].router;
}

int probe_run(const struct topo *t, const struct probe_params *p,
              uint64_t seed, FILE *csv, struct probe_summary *out,
              uint32_t cap, struct diag *d)
{
    struct topo_figures fig;
    if (topo_figures(t, &fig) != 0 || t->n_nodes < 2) {
        diag_error(d, NULL, 0, NULL, "probe: the system needs two nodes");
        return -1;
    }
    uint32_t classes = fig.diameter + 1;
    if (classes > cap)
        classes = cap;
    size_t nf = (size_t)classes * p->pairs;
    struct probe_state st = {
        .t = t, .p = p, .csv = csv, .cand_cap = 1,
        .router_delay = (simtime)(probe_router_delay_ns(p, t) *
                                      (double)SIMTIME_NS + 0.5),
    };
    st.f = calloc(nf, sizeof *st.f);
    st.latency_ns = calloc(nf, sizeof *st.latency_ns);
    st.router_rng = malloc(t->n_routers * sizeof *st.router_rng);
    for (uint32_t r = 0; r < t->n_routers; r++)
        if (t->routers[r].n_ports > st.cand_cap)
            st.cand_cap = t->routers[r].n_ports;
    st.cand = malloc(st.cand_cap * sizeof *st.cand);
    struct sim s;
    int rc = -1;
    if (sim_init(&s, EVQ_DEFAULT, t->n_routers) != 0 || !st.f ||
        !st.latency_ns || !st.router_rng || !st.cand) {
        diag_error(d, NULL, 0, NULL, "probe: out of memory");
        goto out;
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        st.router_rng[r] = rng_stream(seed, RNG_ROUTER, r);
    sim_on(&s, EV_PROBE_HOP, on_hop, &st);
    if (csv) {
        fprintf(csv, "pair,class_hops,src,dst,hops,latency_ns\n");
        fflush(csv);
    }

    /* Pick pairs per hop count by rejection sampling from the workload's
     * stream; a class too rare to find in 2000 tries per pair stays short. */
    struct rng pick = rng_stream(seed, RNG_WORKLOAD, 0);
    uint32_t nflights = 0;
    for (uint32_t h = 0; h < classes; h++) {
        uint32_t found = 0;
        for (uint64_t tries = 0;
             found < p->pairs && tries < 2000ull * p->pairs; tries++) {
            uint32_t a = rng_below(&pick, t->n_nodes);
            uint32_t b = rng_below(&pick, t->n_nodes);
            if (a == b ||
                topo_min_hops(t, node_router(t, a), node_router(t, b)) != h)
                continue;
            struct flight *f = &st.f[nflights];
            *f = (struct flight){ .src_node = a, .dst_node = b,
                                  .dst_router = node_router(t, b),
                                  .hops_class = h, .min_bw = UINT64_MAX };
            const struct topo_nic *nic = &t->nics[t->nodes[a].nic[0]];
            f->min_bw = t->ports[nic->first_port].bw;
            sim_schedule(&s, node_router(t, a), 0, node_router(t, a),
                         EV_PROBE_HOP, nflights);
            nflights++;
            found++;
        }
    }
    sim_run(&s, SIMTIME_MAX);
    if (sim_interrupt) {
        rc = SIM_INTERRUPTED; /* the caller says so */
        goto out;
    }
    if (sim_failed(&s) || st.delivered != nflights) {
        diag_error(d, NULL, 0, NULL, "probe: %u of %u packets delivered",
                   st.delivered, nflights);
        goto out;
    }
    for (uint32_t h = 0; h < classes; h++) {
        struct probe_summary *sm = &out[h];
        *sm = (struct probe_summary){ .hops = h, .min_ns = 0 };
        double sum = 0;
        for (uint32_t i = 0; i < nflights; i++) {
            if (st.f[i].hops_class != h)
                continue;
            double v = st.latency_ns[i];
            if (sm->pairs == 0 || v < sm->min_ns)
                sm->min_ns = v;
            if (sm->pairs == 0 || v > sm->max_ns)
                sm->max_ns = v;
            sum += v;
            sm->pairs++;
        }
        sm->mean_ns = sm->pairs ? sum / sm->pairs : 0;
    }
    rc = (int)classes;
out:
    sim_free(&s);
    free(st.f);
    free(st.latency_ns);
    free(st.router_rng);
    free(st.cand);
    return rc;
}
