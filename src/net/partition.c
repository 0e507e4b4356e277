/* net/partition.c — the machine dealt over P parts: whole groups or torus
 * planes in contiguous blocks balanced by NICs, the links cut and the
 * lookahead (net/partition.h says what each is and why). */
#include "net/partition.h"

#include <stdlib.h>
#include <string.h>

uint32_t partition_unit_of(const struct topo *t, int dim, uint32_t r)
{
    return dim < 0 ? t->routers[r].group : t->routers[r].pos[dim];
}

#define unit_of partition_unit_of

/* The planes across each dimension of a torus: one past the largest
 * coordinate its routers have (read from the routers, as every layer
 * above topo/ reads the graph, not the builder's parameters). */
static void torus_dims(const struct topo *t, uint32_t dims[3])
{
    dims[0] = dims[1] = dims[2] = 0;
    for (uint32_t r = 0; r < t->n_routers; r++)
        for (int k = 0; k < 3; k++)
            if (t->routers[r].pos[k] + 1u > dims[k])
                dims[k] = t->routers[r].pos[k] + 1u;
}

uint32_t partition_max(const struct topo *t)
{
    if (topo_is(t->family, TOPO_SHAPE_DRAGONFLY))
        return t->n_groups;
    uint32_t dims[3];
    torus_dims(t, dims);
    uint32_t m = dims[0] > dims[1] ? dims[0] : dims[1];
    return m > dims[2] ? m : dims[2];
}

void partition_free(struct partition *pt)
{
    free(pt->router_part);
    free(pt->part);
    free(pt->cut);
    memset(pt, 0, sizeof *pt);
}

const char *partition_event_name(enum partition_event e)
{
    switch (e) {
    case PARTITION_CREDIT: return "credit return";
    case PARTITION_ARRIVE: return "packet arrival";
    default: return "none";
    }
}

double partition_imbalance(const struct partition *pt)
{
    uint64_t sum = 0, max = 0;
    for (uint32_t k = 0; k < pt->parts; k++) {
        sum += pt->part[k].load;
        max = pt->part[k].load > max ? pt->part[k].load : max;
    }
    return sum ? (double)max * pt->parts / (double)sum : 0.0;
}

/* Balance cost of a block of load n (its NICs, or the ranks placed on
 * them) and r routers: squares, so that the sum over the blocks is least
 * when they are even (moving a unit from a block to a lighter neighbour
 * lowers it while they differ by more than the unit: at the optimum,
 * neighbours are within one unit of each other). The load first,
 * routers breaking ties. */
struct cost {
    uint64_t load, routers;
};

static bool cost_less(struct cost a, struct cost b)
{
    return a.load != b.load ? a.load < b.load : a.routers < b.routers;
}

/* The unit boundaries b[0..P] of P contiguous blocks of n units whose
 * load and routers up to unit i are pn[i] and pr[i], least in the summed
 * cost: dynamic programming over (blocks, units), O(P n^2) for n <= the
 * groups (545 on slingshot-max), in integers; among equal costs the
 * earliest boundary, so nothing depends on the order of a loop. */
static int bounds(const uint64_t *pn, const uint64_t *pr, uint32_t n,
                  uint32_t P, uint32_t *b)
{
    size_t w = (size_t)n + 1;
    struct cost *c = malloc(2 * w * sizeof *c);
    uint32_t *from = malloc((size_t)(P + 1) * w * sizeof *from);
    if (!c || !from) {
        free(c);
        free(from);
        return -1;
    }
    struct cost *prev = c, *cur = c + w; /* k - 1 blocks, k blocks */
    for (uint32_t i = 0; i <= n; i++)
        prev[i] = (struct cost){ pn[i] * pn[i], pr[i] * pr[i] };
    for (uint32_t k = 2; k <= P; k++) {
        /* k blocks over units [0, i): the last block [j, i) */
        for (uint32_t i = k; i <= n - (P - k); i++) {
            struct cost best = { UINT64_MAX, UINT64_MAX };
            for (uint32_t j = k - 1; j < i; j++) {
                uint64_t dn = pn[i] - pn[j], dr = pr[i] - pr[j];
                struct cost x = { prev[j].load + dn * dn,
                                  prev[j].routers + dr * dr };
                if (cost_less(x, best)) {
                    best = x;
                    from[(size_t)k * w + i] = j;
                }
            }
            cur[i] = best;
        }
        struct cost *tmp = prev;
        prev = cur;
        cur = tmp;
    }
    b[0] = 0;
    b[P] = n;
    for (uint32_t k = P; k > 1; k--)
        b[k - 1] = from[(size_t)k * w + b[k]];
    free(c);
    free(from);
    return 0;
}

/* The cut links and the lookahead of pt (router_part set): per cut port,
 * the credit returned over it takes its wire latency and a packet sent
 * over it the wire latency and the next router's pipeline delay (net/
 * router.c transmit, in_advance; net/credits.c). */
static void cut_of(const struct topo *t, const struct net_params *p,
                   struct partition *pt)
{
    uint32_t P = pt->parts;
    pt->cut_links = 0;
    pt->credit_min = pt->arrive_min = pt->lookahead = SIMTIME_MAX;
    pt->sets = PARTITION_NONE;
    pt->sets_port = TOPO_NONE;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        uint32_t j = t->ports[i].peer;
        if (j == TOPO_NONE)
            continue;
        uint32_t a = pt->router_part[t->ports[i].router];
        uint32_t b = pt->router_part[t->ports[j].router];
        if (a == b)
            continue;
        pt->cut[(size_t)a * P + b]++;
        pt->part[a].cut_links++;
        pt->cut_links += i < j; /* a link is two ports: once */
        simtime w = t->ports[i].latency;
        if (w < pt->credit_min)
            pt->credit_min = w;
        if (w + p->router_delay < pt->arrive_min)
            pt->arrive_min = w + p->router_delay;
        if (w < pt->lookahead) {
            pt->lookahead = w;
            pt->sets_port = i;
        }
    }
    if (pt->sets_port != TOPO_NONE)
        pt->sets = pt->credit_min <= pt->arrive_min ? PARTITION_CREDIT
                                                    : PARTITION_ARRIVE;
}

/* A router's load: load[r], or its NICs without load. */
static uint64_t load_of(const struct topo *t, const uint32_t *load,
                        uint32_t r)
{
    return load ? load[r] : t->routers[r].n_nics;
}

/* pt dealt over P blocks of the units across dim (-1: groups), balanced
 * by load (NULL: NICs). */
static int deal(const struct topo *t, const struct net_params *p, int dim,
                uint32_t units, uint32_t P, const uint32_t *load,
                struct partition *pt)
{
    memset(pt, 0, sizeof *pt);
    pt->parts = P;
    pt->units = units;
    pt->dim = dim;
    pt->unit_word = dim < 0 ? "group" : "plane";
    pt->n_routers = t->n_routers;
    uint64_t *pn = calloc(2 * ((size_t)units + 1), sizeof *pn);
    uint32_t *b = calloc((size_t)P + 1, sizeof *b);
    uint32_t *unit_part = calloc(units, sizeof *unit_part);
    pt->router_part = calloc(t->n_routers, sizeof *pt->router_part);
    pt->part = calloc(P, sizeof *pt->part);
    pt->cut = calloc((size_t)P * P, sizeof *pt->cut);
    int rc = -1;
    if (!pn || !b || !unit_part || !pt->router_part || !pt->part || !pt->cut)
        goto out;
    uint64_t *pr = pn + units + 1;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        uint32_t u = unit_of(t, dim, r);
        pn[u + 1] += load_of(t, load, r);
        pr[u + 1]++;
    }
    for (uint32_t u = 0; u < units; u++) {
        pn[u + 1] += pn[u];
        pr[u + 1] += pr[u];
    }
    if (bounds(pn, pr, units, P, b) != 0)
        goto out;
    for (uint32_t k = 0; k < P; k++) {
        pt->part[k].first_unit = b[k];
        pt->part[k].units = b[k + 1] - b[k];
        for (uint32_t u = b[k]; u < b[k + 1]; u++)
            unit_part[u] = k;
    }
    for (uint32_t r = 0; r < t->n_routers; r++) {
        uint32_t k = pt->router_part[r] = unit_part[unit_of(t, dim, r)];
        pt->part[k].routers++;
        pt->part[k].nics += t->routers[r].n_nics;
        pt->part[k].load += load_of(t, load, r);
    }
    /* a node runs where its first NIC is (its ranks' entity, mpi/mpi.c) */
    for (uint32_t n = 0; n < t->n_nodes; n++)
        pt->part[pt->router_part[t->nics[t->nodes[n].nic[0]].router]]
            .nodes++;
    cut_of(t, p, pt);
    rc = 0;
out:
    free(pn);
    free(b);
    free(unit_part);
    if (rc)
        partition_free(pt);
    return rc;
}

/* Whether torus cut a is better than b: the larger lookahead (fewer
 * windows to synchronise), then the longer dimension (thinner slabs,
 * smaller faces on a torus of equal planes), then fewer cut links (less
 * to ship), then the lower. */
static bool better(const struct partition *a, const struct partition *b)
{
    if (a->lookahead != b->lookahead)
        return a->lookahead > b->lookahead;
    if (a->units != b->units)
        return a->units > b->units;
    if (a->cut_links != b->cut_links)
        return a->cut_links < b->cut_links;
    return a->dim < b->dim;
}

/* The best of the torus's cuts across each dimension that has P planes. */
static int deal_torus(const struct topo *t, const struct net_params *p,
                      uint32_t P, const uint32_t *load,
                      struct partition *out)
{
    uint32_t dims[3];
    torus_dims(t, dims);
    bool have = false;
    for (int k = 0; k < 3; k++) {
        if (dims[k] < P)
            continue;
        struct partition c;
        if (deal(t, p, k, dims[k], P, load, &c) != 0) {
            if (have)
                partition_free(out);
            return -1;
        }
        if (!have || better(&c, out)) {
            if (have)
                partition_free(out);
            *out = c;
            have = true;
        } else {
            partition_free(&c);
        }
    }
    return have ? 0 : -1;
}

int partition_make(const struct topo *t, const struct net_params *p,
                   uint32_t P, struct partition *out, struct diag *d)
{
    return partition_make_dim(t, p, P, -1, NULL, out, d);
}

int partition_make_dim(const struct topo *t, const struct net_params *p,
                       uint32_t P, int dim, const uint32_t *load,
                       struct partition *out, struct diag *d)
{
    memset(out, 0, sizeof *out);
    bool df = topo_is(t->family, TOPO_SHAPE_DRAGONFLY);
    uint32_t max = partition_max(t);
    if (P == 0) {
        diag_error(d, NULL, 0, "partitions", "%s: 0 partitions: at least 1",
                   t->system);
        return -1;
    }
    if (P > max) {
        diag_error(d, NULL, 0, "partitions",
                   "%s: %u partitions, at most %u: a partition holds whole "
                   "%s and %s has %u%s",
                   t->system, P, max, df ? "groups" : "planes", t->system,
                   max, df ? " groups" : " planes across its longest "
                                         "dimension");
        return -1;
    }
    int rc = df ? deal(t, p, -1, t->n_groups, P, load, out)
                : deal_torus(t, p, P, load, out);
    if (rc == 0 && !df && dim >= 0 && out->dim != dim) {
        /* a dimension asked for: its cut, whatever is best */
        uint32_t dims[3];
        torus_dims(t, dims);
        partition_free(out);
        if (dims[dim] < P) {
            diag_error(d, NULL, 0, "partitions",
                       "%s: %u partitions, at most %u across dimension %c",
                       t->system, P, dims[dim], "xyz"[dim]);
            return -1;
        }
        rc = deal(t, p, dim, dims[dim], P, load, out);
    }
    if (rc != 0)
        diag_error(d, NULL, 0, "partitions", "%s: out of memory",
                   t->system);
    return rc;
}

int partition_cut_dim(const struct topo *t, const struct net_params *p,
                      struct diag *d)
{
    if (topo_is(t->family, TOPO_SHAPE_DRAGONFLY) || partition_max(t) < 2)
        return -1;
    struct partition two;
    if (partition_make(t, p, 2, &two, d) != 0)
        return -2;
    int dim = two.dim;
    partition_free(&two);
    return dim;
}

simtime partition_window(const struct topo *t, int dim)
{
    simtime W = SIMTIME_MAX;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        if (tp->peer != TOPO_NONE &&
            partition_unit_of(t, dim, tp->router) !=
                partition_unit_of(t, dim, t->ports[tp->peer].router) &&
            tp->latency < W)
            W = tp->latency;
    }
    return W == SIMTIME_MAX || W == 0 ? 100 * SIMTIME_NS : W;
}
