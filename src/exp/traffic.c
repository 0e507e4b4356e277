/* exp/traffic.c — synthetic traffic (see traffic.h for what is modelled):
 * the experiment file's traffic section, the destination patterns and the
 * latency histogram. A run is exp/traffic_sim.c's (one process) or
 * exp/traffic_win.c's (in windows over partitions).
 */
#include "exp/traffic.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/time.h"
#include "route/route.h"

const char *const traffic_pattern_names[] = {
    [TRAFFIC_UNIFORM] = "uniform",
    [TRAFFIC_PERMUTATION] = "permutation",
    [TRAFFIC_NEAREST_GROUP] = "nearest-group",
    [TRAFFIC_WORST_CASE] = "worst-case",
    [TRAFFIC_BIT_COMPLEMENT] = "bit-complement",
    [TRAFFIC_HOTSPOT] = "hotspot",
    [TRAFFIC_PATTERN_COUNT] = NULL,
};

int traffic_pattern_find(const char *name)
{
    for (int i = 0; name && i < TRAFFIC_PATTERN_COUNT; i++)
        if (strcmp(traffic_pattern_names[i], name) == 0)
            return i;
    return -1;
}

const struct cfg_key traffic_keys[] = {
    { .name = "pattern", .type = CFG_CHOICE,
      .offset = offsetof(struct traffic_sweep, pattern),
      .choices = traffic_pattern_names,
      .help = "destination pattern (uniform)" },
    { .name = "loads", .type = CFG_FLOATS,
      .offset = offsetof(struct traffic_sweep, loads), .fmin = 0.001,
      .fmax = 1,
      .help = "offered loads, fractions of each NIC's injection rate; one "
              "run per load and routing ([0.5])",
      .once = "load" },
    { .name = "routings", .type = CFG_NAMES,
      .offset = offsetof(struct traffic_sweep, routings),
      .reg = &routing_registry,
      .help = "routings to compare, one run per routing and load (the "
              "network section's routing)",
      .once = "routing" },
    { .name = "size", .type = CFG_INT,
      .offset = offsetof(struct traffic_sweep, p.size), .min = 0,
      .max = 65535,
      .help = "bytes per message, at most one packet; 0 = a full packet "
              "(network.max_payload) (0)" },
    { .name = "warmup_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.warmup_us), .fmin = 0,
      .fmax = 1e6, .help = "simulated us before measuring (5)" },
    { .name = "measure_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.measure_us), .fmin = 0.001,
      .fmax = 1e6,
      .help = "measurement window, us: its packets are measured (10)" },
    { .name = "drain_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.drain_us), .fmin = 0,
      .fmax = 1e6,
      .help = "most us after the window to wait for the measured packets; "
              "past it the run is not drained (saturated) (20)" },
    { .name = "watchdog_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.watchdog_us), .fmin = 0.01,
      .fmax = 1e6,
      .help = "no delivery for this long with packets in flight is a "
              "deadlock, us (20)" },
    { .name = "hotspot_node", .type = CFG_UINT32,
      .offset = offsetof(struct traffic_sweep, p.hotspot_node),
      .help = "hotspot pattern: the node messages converge on (0)" },
    { .name = "hotspot_fraction", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.hotspot_fraction),
      .fmin = 0, .fmax = 1,
      .help = "hotspot pattern: share of messages sent to it, the rest "
              "uniform; 1 = incast (0.5)" },
    { .name = "max_queued", .type = CFG_UINT32,
      .offset = offsetof(struct traffic_sweep, p.max_queued), .min = 1,
      .max = 1 << 20,
      .help = "per NIC, messages whose request has not arrived; a "
              "generation above it is refused (1024)" },
    { .name = NULL },
};

void traffic_defaults(struct traffic_params *p)
{
    *p = (struct traffic_params){
        .pattern = TRAFFIC_UNIFORM,
        .load = 0.5,
        .size = 0,
        .warmup_us = 5,
        .measure_us = 10,
        .drain_us = 20,
        .watchdog_us = 20,
        .hotspot_node = 0,
        .hotspot_fraction = 0.5,
        .max_queued = 1024,
    };
}

void traffic_sweep_defaults(struct traffic_sweep *s)
{
    memset(s, 0, sizeof *s);
    traffic_defaults(&s->p);
    s->pattern = traffic_pattern_names[s->p.pattern];
    s->loads.n = 1;
    s->loads.v[0] = s->p.load;
}

/* ---- destinations ----------------------------------------------------- */

void traffic_dests_free(struct traffic_dests *td)
{
    free(td->valid);
    free(td->vindex);
    free(td->perm);
    free(td->group_start);
    free(td->group_members);
    free(td->group_pos);
    free(td->vgroup);
    memset(td, 0, sizeof *td);
}

int traffic_dests_init(struct traffic_dests *td, const struct topo *t,
                       const struct traffic_params *p, uint64_t seed,
                       struct diag *d)
{
    memset(td, 0, sizeof *td);
    td->t = t;
    td->pattern = p->pattern;
    td->hotspot_fraction = p->hotspot_fraction;
    uint32_t G = t->n_groups ? t->n_groups : 1;
    td->valid = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->valid);
    td->vindex = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->vindex);
    td->perm = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->perm);
    td->group_start = calloc((size_t)G + 1, sizeof *td->group_start);
    td->group_members = calloc(t->n_nodes ? t->n_nodes : 1,
                               sizeof *td->group_members);
    td->group_pos = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->group_pos);
    td->vgroup = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->vgroup);
    if (!td->valid || !td->vindex || !td->perm || !td->group_start ||
        !td->group_members || !td->group_pos || !td->vgroup) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        traffic_dests_free(td);
        return -1;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        td->vindex[i] = TRAFFIC_NONE;
        const struct topo_node *nd = &t->nodes[i];
        if (nd->n_nics == 0)
            continue;
        uint32_t g = t->routers[t->nics[nd->nic[0]].router].group;
        td->vindex[i] = td->n_valid;
        td->vgroup[td->n_valid] = g < G ? g : 0;
        td->valid[td->n_valid++] = i;
    }
    uint32_t V = td->n_valid;
    if (V < 2) {
        diag_error(d, NULL, 0, "traffic",
                   "the system has %u node%s with a NIC; synthetic traffic "
                   "needs two",
                   V, V == 1 ? "" : "s");
        traffic_dests_free(td);
        return -1;
    }

    /* valid nodes by group (counting sort keeps them ascending) */
    for (uint32_t v = 0; v < V; v++)
        td->group_start[td->vgroup[v] + 1]++;
    for (uint32_t g = 0; g < G; g++)
        td->group_start[g + 1] += td->group_start[g];
    {
        uint32_t *cursor = calloc(G, sizeof *cursor);
        if (!cursor) {
            diag_error(d, NULL, 0, "traffic", "out of memory");
            traffic_dests_free(td);
            return -1;
        }
        for (uint32_t v = 0; v < V; v++) {
            uint32_t g = td->vgroup[v];
            td->group_pos[v] = cursor[g];
            td->group_members[td->group_start[g] + cursor[g]++] = v;
        }
        free(cursor);
    }

    /* a random derangement: shuffle, then swap each fixed point with its
     * neighbour (position i then holds what i+1 held, never i, and i+1
     * holds i; a permutation stays a permutation) */
    for (uint32_t v = 0; v < V; v++)
        td->perm[v] = v;
    struct rng r = rng_stream(seed, RNG_ALLOC, 0);
    rng_shuffle_u32(&r, td->perm, V);
    for (uint32_t v = 0; v < V; v++) {
        if (td->perm[v] != v)
            continue;
        uint32_t w = (v + 1) % V;
        td->perm[v] = td->perm[w];
        td->perm[w] = v;
    }

    td->hotspot = TRAFFIC_NONE;
    if (p->pattern == TRAFFIC_HOTSPOT) {
        if (p->hotspot_node >= t->n_nodes ||
            td->vindex[p->hotspot_node] == TRAFFIC_NONE) {
            diag_error(d, NULL, 0, "traffic.hotspot_node",
                       p->hotspot_node >= t->n_nodes
                           ? "node %u does not exist; the system has %u "
                             "nodes (0 .. %u)"
                           : "node %u has no NIC (the system has %u nodes, "
                             "last %u)",
                       p->hotspot_node, t->n_nodes,
                       t->n_nodes ? t->n_nodes - 1 : 0);
            traffic_dests_free(td);
            return -1;
        }
        td->hotspot = td->vindex[p->hotspot_node];
    }
    return 0;
}

/* A uniformly random valid index other than `self`. */
static uint32_t other_than(uint32_t n, uint32_t self, struct rng *r)
{
    uint32_t j = rng_below(r, n - 1);
    return j >= self ? j + 1 : j;
}

uint32_t traffic_dest(const struct traffic_dests *td, uint32_t src,
                      struct rng *r)
{
    uint32_t V = td->n_valid;
    uint32_t s = td->vindex[src];
    assert(s != TRAFFIC_NONE && V >= 2);
    uint32_t G = td->t->n_groups ? td->t->n_groups : 1;
    uint32_t v = TRAFFIC_NONE;
    switch (td->pattern) {
    case TRAFFIC_UNIFORM:
        v = other_than(V, s, r);
        break;
    case TRAFFIC_PERMUTATION:
        v = td->perm[s];
        break;
    case TRAFFIC_NEAREST_GROUP: {
        uint32_t g = td->vgroup[s];
        uint32_t first = td->group_start[g];
        uint32_t n = td->group_start[g + 1] - first;
        if (n >= 2)
            v = td->group_members[first + other_than(n, td->group_pos[s], r)];
        else
            v = other_than(V, s, r); /* alone in its group */
        break;
    }
    case TRAFFIC_WORST_CASE: {
        uint32_t g = td->vgroup[s];
        v = TRAFFIC_NONE;
        /* the next group that has nodes (all of them do but in partial
         * systems) */
        for (uint32_t k = 1; k < G && v == TRAFFIC_NONE; k++) {
            uint32_t h = (g + k) % G;
            uint32_t first = td->group_start[h];
            uint32_t n = td->group_start[h + 1] - first;
            if (n)
                v = td->group_members[first + rng_below(r, n)];
        }
        if (v == TRAFFIC_NONE)
            v = other_than(V, s, r); /* one group */
        break;
    }
    case TRAFFIC_BIT_COMPLEMENT:
        v = V - 1 - s;
        if (v == s)
            return TRAFFIC_NONE;
        break;
    case TRAFFIC_HOTSPOT: {
        double u = rng_unit(r);
        if (u < td->hotspot_fraction && s != td->hotspot)
            v = td->hotspot;
        else
            v = other_than(V, s, r);
        break;
    }
    case TRAFFIC_PATTERN_COUNT:
        return TRAFFIC_NONE;
    }
    assert(v < V && v != s);
    return td->valid[v];
}

/* ---- latency histogram ------------------------------------------------- */

int traffic_hist_init(struct traffic_hist *h, uint32_t n_bins)
{
    memset(h, 0, sizeof *h);
    h->bins = calloc(n_bins ? n_bins : 1, sizeof *h->bins);
    if (!h->bins)
        return -1;
    h->n_bins = n_bins;
    return 0;
}

void traffic_hist_free(struct traffic_hist *h)
{
    free(h->bins);
    memset(h, 0, sizeof *h);
}

double traffic_hist_quantile_ns(const struct traffic_hist *h, double q)
{
    if (h->count == 0)
        return 0;
    /* nearest rank; the epsilon keeps 0.99 * 100 from becoming rank 100 */
    double want = ceil(q * (double)h->count - 1e-9);
    uint64_t rank = want < 1 ? 1 : (uint64_t)want;
    if (rank > h->count)
        rank = h->count;
    uint64_t cum = 0;
    for (uint32_t i = 0; i < h->n_bins; i++) {
        cum += h->bins[i];
        if (cum >= rank)
            return (double)i;
    }
    return (double)h->max / (double)SIMTIME_NS;
}

double traffic_hist_mean_ns(const struct traffic_hist *h)
{
    return h->count ? (double)h->sum_ps / (double)h->count / SIMTIME_NS : 0;
}
