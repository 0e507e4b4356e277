/* topo/topo_figures.c — the figures an architect checks (`dfsim topo`):
 * component counts, diameter on minimal paths, bisection, global and
 * all-to-all bandwidth.
 *
 * Bisection follows the Cray XC white paper ("Aries Performance", Table 3):
 * the bandwidth, both directions, of the links crossing the worst cut that
 * splits the machine into halves. The minimum over all balanced cuts is a
 * hard problem in general, so the minimum is taken over the cuts that
 * matter for these networks, each evaluated on the actual graph:
 *  - group-aligned cuts of a dragonfly (halves of the groups, by node
 *    count within one group): exhaustive for up to 20 groups, otherwise a
 *    Kernighan–Lin swap refinement of the first-half/second-half split
 *    (exact when every pair of groups has the same bundle, as in all the
 *    built-in systems);
 *  - cuts through every group at once (Aries: across the rank-1 slots or
 *    across the rank-2 chassis, the white paper's 384 green / 432 black
 *    links per group; Slingshot and dragonfly: halves of the switches);
 *  - torus: a plane cut of each dimension (two cuts of each ring) at every
 *    offset, since link types differ along a ring; each cut's links are
 *    those of its two planes, summed once per plane (torus_cuts).
 * Global bandwidth per node is the optical bandwidth leaving the groups, one
 * direction, per node ("11.7 GB/s per node for a full network"); the
 * all-to-all peak is that total times G/(G−1), since 1/G of all-to-all
 * traffic stays inside its group (SC'20 §II-G: 8/7 · 448 · 200 Gb/s).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/steps.h"
#include "topo/topo.h"

/* ---- diameter ------------------------------------------------------- */

static uint32_t group_size(const struct topo *t, uint32_t g)
{
    uint32_t first = g * t->routers_per_group;
    return first + t->routers_per_group <= t->n_routers
               ? t->routers_per_group
               : t->n_routers - first;
}

/* Append vec (k bytes) to the list of distinct vectors uniq (n of them). */
static uint32_t add_unique(uint8_t *uniq, uint32_t n, const uint8_t *vec,
                           uint32_t k)
{
    for (uint32_t i = 0; i < n; i++)
        if (memcmp(uniq + (size_t)i * k, vec, k) == 0)
            return n;
    memcpy(uniq + (size_t)n * k, vec, k);
    return n + 1;
}

/* Worst minimal distance between routers of groups A and B: for each
 * source s the vector of distances to the gateways, for each destination d
 * the vector of distances from the landing routers; distinct vectors only,
 * since most routers of a group see the gateways alike. */
static uint32_t pair_diameter(const struct topo *t, uint32_t A, uint32_t B,
                              uint32_t *ga, uint32_t *gb, uint8_t *u,
                              uint8_t *v, uint8_t *vec)
{
    size_t i = (size_t)A * t->n_groups + B;
    uint32_t k = 0;
    for (uint32_t c = t->pair_start[i]; c < t->pair_start[i + 1]; c++) {
        const struct topo_port *p = &t->ports[t->pair_port[c]];
        uint32_t a = p->router - A * t->routers_per_group;
        uint32_t b = t->ports[p->peer].router - B * t->routers_per_group;
        uint32_t j = 0;
        while (j < k && !(ga[j] == a && gb[j] == b))
            j++;
        if (j == k) {
            ga[k] = a;
            gb[k] = b;
            k++;
        }
    }
    uint32_t nu = 0, nv = 0, sa = group_size(t, A), sb = group_size(t, B);
    for (uint32_t s = 0; s < sa; s++) {
        for (uint32_t c = 0; c < k; c++)
            vec[c] = topo_group_hops(t, A, s, ga[c]);
        nu = add_unique(u, nu, vec, k);
    }
    for (uint32_t d = 0; d < sb; d++) {
        for (uint32_t c = 0; c < k; c++)
            vec[c] = topo_group_hops(t, B, gb[c], d);
        nv = add_unique(v, nv, vec, k);
    }
    uint32_t worst = 0;
    for (uint32_t x = 0; x < nu; x++)
        for (uint32_t y = 0; y < nv; y++) {
            uint32_t best = UINT32_MAX;
            const uint8_t *ux = u + (size_t)x * k, *vy = v + (size_t)y * k;
            for (uint32_t c = 0; c < k; c++)
                if ((uint32_t)ux[c] + vy[c] < best)
                    best = (uint32_t)ux[c] + vy[c];
            if (best > worst)
                worst = best;
        }
    return worst + 1;
}

static int dragonfly_diameter(const struct topo *t, uint32_t *out)
{
    uint32_t m = t->routers_per_group, diam = 0;
    uint32_t maxk = 0;
    for (size_t i = 0; i < (size_t)t->n_groups * t->n_groups; i++)
        if (t->pair_start[i + 1] - t->pair_start[i] > maxk)
            maxk = t->pair_start[i + 1] - t->pair_start[i];
    uint32_t *ga = malloc((maxk + 1) * sizeof *ga);
    uint32_t *gb = malloc((maxk + 1) * sizeof *gb);
    uint8_t *u = malloc((size_t)m * (maxk + 1));
    uint8_t *v = malloc((size_t)m * (maxk + 1));
    uint8_t *vec = malloc(maxk + 1);
    if (!ga || !gb || !u || !v || !vec) {
        free(ga), free(gb), free(u), free(v), free(vec);
        return -1;
    }
    for (uint32_t g = 0; g < t->n_groups; g++) {
        uint32_t n = group_size(t, g);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                if (topo_group_hops(t, g, i, j) > diam)
                    diam = topo_group_hops(t, g, i, j);
    }
    /* the worst pair of groups, each pair's worst over the minimal paths
     * through its global links (exactly one global hop: XC white paper,
     * "Cray XC Routing"); inside a group the worst of its distance table */
    for (uint32_t A = 0; A < t->n_groups; A++)
        for (uint32_t B = A + 1; B < t->n_groups; B++) {
            uint32_t dd = pair_diameter(t, A, B, ga, gb, u, v, vec);
            if (dd > diam)
                diam = dd;
        }
    free(ga), free(gb), free(u), free(v), free(vec);
    *out = diam;
    return 0;
}

/* A torus is vertex-transitive: the eccentricity of router 0 (BFS over the
 * links) is the diameter. */
static int torus_diameter(const struct topo *t, uint32_t *out)
{
    uint32_t *dist = malloc(t->n_routers * sizeof *dist);
    uint32_t *queue = malloc(t->n_routers * sizeof *queue);
    if (!dist || !queue) {
        free(dist), free(queue);
        return -1;
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        dist[r] = UINT32_MAX;
    uint32_t head = 0, tail = 0, diam = 0;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t r = queue[head++];
        const struct topo_router *rt = &t->routers[r];
        if (dist[r] > diam)
            diam = dist[r];
        for (uint32_t i = 0; i < rt->n_ports; i++) {
            const struct topo_port *p = &t->ports[rt->first_port + i];
            if (p->peer == TOPO_NONE)
                continue;
            uint32_t nb = t->ports[p->peer].router;
            if (dist[nb] == UINT32_MAX) {
                dist[nb] = dist[r] + 1;
                queue[tail++] = nb;
            }
        }
    }
    free(dist), free(queue);
    if (tail != t->n_routers)
        return -1; /* not connected: topo_finish would have said so */
    *out = diam;
    return 0;
}

/* ---- bisection ------------------------------------------------------ */

struct cut {
    double GBps;      /* both directions */
    uint32_t links;   /* router-to-router links crossing */
    const char *name;
};

/* Evaluate the cut given by side[router] on the graph; NULL if unbalanced
 * (a side without nodes, or more than `slack` nodes of imbalance). */
static bool eval_cut(const struct topo *t, const uint8_t *side,
                     uint32_t slack, struct cut *c)
{
    uint64_t nodes[2] = { 0, 0 };
    steps_add((uint64_t)t->n_routers + t->n_ports);
    for (uint32_t r = 0; r < t->n_routers; r++)
        for (uint32_t i = 0; i < t->routers[r].n_nics; i++)
            nodes[side[r]] += 1;
    uint64_t diff = nodes[0] > nodes[1] ? nodes[0] - nodes[1]
                                        : nodes[1] - nodes[0];
    if (!nodes[0] || !nodes[1] || diff > slack)
        return false;
    double bw = 0;
    uint32_t links = 0;
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (pt->peer == TOPO_NONE)
            continue;
        if (side[pt->router] != side[t->ports[pt->peer].router]) {
            bw += (double)pt->bw;
            links++;
        }
    }
    c->GBps = bw / 1e9;
    c->links = links / 2;
    return true;
}

static void consider(struct cut *best, const struct cut *c)
{
    if (best->name == NULL || c->GBps < best->GBps - 1e-9)
        *best = *c;
}

/* W[i*G+j]: bytes/s of the global ports of group i towards group j. */
static double group_cut(const double *W, uint32_t G, const uint8_t *in)
{
    double s = 0;
    for (uint32_t i = 0; i < G; i++)
        for (uint32_t j = 0; j < G; j++)
            if (in[i] && !in[j])
                s += W[(size_t)i * G + j] + W[(size_t)j * G + i];
    return s;
}

static void group_cuts(const struct topo *t, uint8_t *side, struct cut *best)
{
    uint32_t G = t->n_groups;
    double *W = calloc((size_t)G * G, sizeof *W);
    uint8_t *in = calloc(G, 1), *bestin = calloc(G, 1);
    uint32_t *gnodes = calloc(G, sizeof *gnodes);
    if (!W || !in || !bestin || !gnodes)
        goto out;
    uint32_t maxg = 0;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        gnodes[t->routers[r].group] += t->routers[r].n_nics;
        if (gnodes[t->routers[r].group] > maxg)
            maxg = gnodes[t->routers[r].group];
    }
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (pt->peer == TOPO_NONE || topo_port_class(pt->kind) != PCLASS_GLOBAL)
            continue;
        W[(size_t)t->routers[pt->router].group * G +
          t->routers[t->ports[pt->peer].router].group] += (double)pt->bw;
    }
    double bestv = -1;
    if (G <= 20) {
        /* every subset holding group 0 with half the groups (rounded
         * either way) */
        for (uint32_t mask = 1; mask < (1u << G); mask += 2) {
            uint32_t k = (uint32_t)__builtin_popcount(mask);
            if (k != G / 2 && k != (G + 1) / 2)
                continue;
            for (uint32_t i = 0; i < G; i++)
                in[i] = (uint8_t)((mask >> i) & 1u);
            double v = group_cut(W, G, in);
            if (bestv < 0 || v < bestv) {
                bestv = v;
                memcpy(bestin, in, G);
            }
        }
    } else {
        for (uint32_t i = 0; i < G; i++)
            in[i] = i < G / 2;
        /* Kernighan–Lin: D[x] = (weight to the other side) - (weight to
         * its own side); swapping a (in) with b (out) lowers the cut by
         * D[a] + D[b] - 2 w(a,b). Apply the best swap while it helps. */
        double *D = malloc(G * sizeof *D);
        if (!D)
            goto out;
        for (int pass = 0; pass < 64; pass++) {
            for (uint32_t x = 0; x < G; x++) {
                D[x] = 0;
                for (uint32_t y = 0; y < G; y++) {
                    double w = W[(size_t)x * G + y] + W[(size_t)y * G + x];
                    D[x] += in[x] != in[y] ? w : -w;
                }
            }
            double gain = 1e-6;
            uint32_t ba = 0, bb = 0;
            for (uint32_t a = 0; a < G; a++)
                for (uint32_t b = 0; b < G; b++) {
                    if (!in[a] || in[b])
                        continue;
                    double w = W[(size_t)a * G + b] + W[(size_t)b * G + a];
                    double g = D[a] + D[b] - 2 * w;
                    if (g > gain)
                        gain = g, ba = a, bb = b;
                }
            if (gain <= 1e-6)
                break;
            in[ba] = 0, in[bb] = 1;
        }
        free(D);
        bestv = group_cut(W, G, in);
        memcpy(bestin, in, G);
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        side[r] = bestin[t->routers[r].group];
    struct cut c = { .name = "halves of the groups" };
    if (eval_cut(t, side, maxg, &c))
        consider(best, &c);
out:
    free(W), free(in), free(bestin), free(gnodes);
}

/* The plane cuts of a torus. A torus link joins two routers one step
 * apart on one ring (torus_build), so in dimension d it crosses exactly
 * one plane, the one between positions i and i + 1 (mod k) of its ends;
 * the cut at offset o (positions o .. o + k/2 - 1 on one side) crosses
 * planes o - 1 and o + k/2 - 1. So one pass over the ports sums every
 * plane's bandwidth and links, one over the routers every position's
 * nodes, and each cut is two planes and a window of positions: exactly
 * what evaluating each cut on the graph (eval_cut) gives, in
 * O(ports + routers + k^2) instead of O(k (ports + routers)) per
 * dimension (a 64^3 torus: 54 s, issue 57). The sums are integers below
 * 2^53 (at most 2 x 256^2 links of 8 tiles, 2.3 GB/s each), so they are
 * exact, as eval_cut's sum of doubles was. -1 out of memory. */
static int torus_cuts(const struct topo *t, uint32_t slack, struct cut *best)
{
    const uint32_t dims[3] = { t->p.torus.x, t->p.torus.y, t->p.torus.z };
    static const char *const names[3] = { "X plane", "Y plane", "Z plane" };
    uint32_t at[4] = { 0 }; /* dimension d's positions: [at[d], at[d+1]) */
    for (uint32_t d = 0; d < 3; d++)
        at[d + 1] = at[d] + dims[d];
    uint64_t *bw = calloc(3 * (size_t)at[3], sizeof *bw);
    if (!bw)
        return -1;
    uint64_t *ports = bw + at[3], *nodes = bw + 2 * (size_t)at[3];
    steps_add((uint64_t)t->n_routers + t->n_ports);
    for (uint32_t r = 0; r < t->n_routers; r++)
        for (uint32_t d = 0; d < 3; d++)
            nodes[at[d] + t->routers[r].pos[d]] += t->routers[r].n_nics;
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (pt->peer == TOPO_NONE)
            continue;
        const uint16_t *a = t->routers[pt->router].pos,
                       *b = t->routers[t->ports[pt->peer].router].pos;
        for (uint32_t d = 0; d < 3; d++) {
            uint32_t k = dims[d], plane;
            if (a[d] == b[d])
                continue;
            plane = (a[d] + 1u) % k == b[d] ? a[d] : b[d];
            assert((plane + 1u) % k == (plane == a[d] ? b[d] : a[d]));
            bw[at[d] + plane] += pt->bw;
            ports[at[d] + plane]++;
        }
    }
    for (uint32_t d = 0; d < 3; d++) {
        uint32_t k = dims[d];
        const uint64_t *B = bw + at[d], *P = ports + at[d], *N = nodes + at[d];
        for (uint32_t o = 0; k >= 2 && o < k / 2 + (k % 2); o++) {
            uint64_t in = 0, all = 0;
            for (uint32_t i = 0; i < k; i++) {
                all += N[i];
                in += (i + k - o) % k < k / 2 ? N[i] : 0;
            }
            uint64_t out = all - in, diff = in > out ? in - out : out - in;
            if (!in || !out || diff > slack + 2 * t->n_nodes / k)
                continue; /* unbalanced, as eval_cut */
            uint32_t p1 = (o + k - 1) % k, p2 = (o + k / 2 - 1) % k;
            struct cut c = { .GBps = (double)(B[p1] + B[p2]) / 1e9,
                             .links = (uint32_t)((P[p1] + P[p2]) / 2),
                             .name = names[d] };
            consider(best, &c);
        }
    }
    free(bw);
    return 0;
}

static int bisection(const struct topo *t, struct cut *best)
{
    uint8_t *side = malloc(t->n_routers ? t->n_routers : 1);
    if (!side)
        return -1;
    memset(best, 0, sizeof *best);
    struct cut c;
    /* a cut must split the nodes into halves, give or take: a partly
     * populated machine (a short last group, service blades) cannot be cut
     * exactly in two */
    uint32_t slack = t->n_nodes / 50 + 4; /* partial population */
    if (t->family->id == TOPO_TORUS) {
        if (torus_cuts(t, slack, best) != 0) {
            free(side);
            return -1;
        }
    } else {
        if (t->n_groups >= 2)
            group_cuts(t, side, best);
        /* through every group: by slot (rank-1) and by chassis (rank-2) */
        for (uint32_t r = 0; r < t->n_routers; r++)
            side[r] = t->family->id == TOPO_ARIES ? t->routers[r].pos[1] < 8
                                              : t->routers[r].pos[0] <
                                                    t->routers_per_group / 2;
        c.name = t->family->id == TOPO_ARIES ? "rank-1 halves of every group"
                                         : "halves of every group";
        if (eval_cut(t, side, slack, &c))
            consider(best, &c);
        if (t->family->id == TOPO_ARIES) {
            for (uint32_t r = 0; r < t->n_routers; r++)
                side[r] = t->routers[r].pos[0] < 3;
            c.name = "rank-2 halves of every group";
            if (eval_cut(t, side, slack, &c))
                consider(best, &c);
        }
    }
    free(side);
    return 0;
}

/* ---- figures -------------------------------------------------------- */

/* NICs share endpoint ports only with NICs of their own router (an Aries
 * NIC pair's four processor tiles), so the sharers of a port are among
 * its router's NICs. */
uint32_t topo_port_users(const struct topo *t, uint32_t port)
{
    const struct topo_router *rt = &t->routers[t->ports[port].router];
    uint32_t users = 0;
    for (uint32_t i = rt->first_nic; i < rt->first_nic + rt->n_nics; i++)
        users += port >= t->nics[i].first_port &&
                 port < t->nics[i].first_port + t->nics[i].n_ports;
    return users;
}

double topo_nic_injection_bw(const struct topo *t, uint32_t nic)
{
    const struct topo_nic *n = &t->nics[nic];
    double bw = 0;
    for (uint32_t p = n->first_port; p < n->first_port + n->n_ports; p++)
        /* users >= 1: nic itself */
        bw += (double)t->ports[p].bw / topo_port_users(t, p);
    return bw;
}

double topo_injection_bw(const struct topo *t)
{
    double bw = 0;
    for (uint32_t i = 0; i < t->n_nics; i++)
        bw += topo_nic_injection_bw(t, i);
    return bw;
}

double topo_global_bw(const struct topo *t)
{
    if (t->family->id == TOPO_TORUS)
        return 0;
    double bw = 0;
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (topo_port_class(pt->kind) == PCLASS_GLOBAL &&
            pt->peer != TOPO_NONE)
            bw += (double)pt->bw;
    }
    return bw;
}

int topo_figures(const struct topo *t, struct topo_figures *f)
{
    memset(f, 0, sizeof *f);
    f->routers = t->n_routers;
    f->nodes = t->n_nodes;
    f->nics = t->n_nics;
    f->groups = t->n_groups;
    f->global_cables = t->global_cables;
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        f->ports_by_kind[pt->kind]++;
        enum port_class c = topo_port_class(pt->kind);
        if (pt->peer != TOPO_NONE && p < pt->peer)
            f->links_by_class[c]++;
        else if (c == PCLASS_ENDPOINT)
            f->links_by_class[c]++;
    }
    double global = topo_global_bw(t);
    f->injection_GBps = topo_injection_bw(t) / 1e9;
    if (t->family->id != TOPO_TORUS && t->n_nodes) {
        f->global_GBps_per_node = global / 1e9 / t->n_nodes;
        if (t->n_groups > 1)
            /* 1/G of an all-to-all stays inside its group, so the global links
             * carry (G - 1)/G of it: the peak is their bandwidth times G/(G -
             * 1) (SC'20 §II-G on Shandy: 8/7 x 448 x 200 Gb/s = 12.8 Tb/s) */
            f->alltoall_GBps =
                global / 1e9 * t->n_groups / (double)(t->n_groups - 1);
    }
    int rc = t->family->id == TOPO_TORUS ? torus_diameter(t, &f->diameter)
                                     : dragonfly_diameter(t, &f->diameter);
    if (rc != 0)
        return -1;
    struct cut c;
    if (bisection(t, &c) != 0)
        return -1;
    f->bisection_GBps = c.GBps;
    f->bisection_links = c.links;
    f->bisection_cut = c.name ? c.name : "none";
    return 0;
}

/* Distinct router-to-router logical links of a kind (a logical link is the
 * set of tiles joining one router to one neighbour, e.g. the 3 rank-2
 * tiles between two Aries), each counted once. */
static uint32_t logical_links(const struct topo *t, enum port_kind kind)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        const struct topo_router *rt = &t->routers[r];
        for (uint32_t i = 0; i < rt->n_ports; i++) {
            const struct topo_port *p = &t->ports[rt->first_port + i];
            if (p->kind != kind || p->peer == TOPO_NONE)
                continue;
            uint32_t nb = t->ports[p->peer].router;
            if (nb < r && t->ports[p->peer].kind == kind)
                continue; /* counted from the other end */
            bool seen = false;
            for (uint32_t j = 0; j < i && !seen; j++) {
                const struct topo_port *q = &t->ports[rt->first_port + j];
                seen = q->kind == kind && q->peer != TOPO_NONE &&
                       t->ports[q->peer].router == nb;
            }
            if (!seen)
                n++;
        }
    }
    return n;
}

void topo_print(FILE *out, const struct topo *t, const struct topo_figures *f)
{
    fprintf(out, "system      %s (%s)\n", t->system,
            t->family->name);
    fprintf(out, "            %s\n", t->description);
    fprintf(out, "routers     %u\n", f->routers);
    fprintf(out, "nodes       %u (%u NICs)\n", f->nodes, f->nics);
    fprintf(out, "groups      %u\n", f->groups);
    fprintf(out, "ports       ");
    for (int k = 1; k < PORT_KIND_COUNT; k++)
        if (f->ports_by_kind[k])
            fprintf(out, "%s: %u  ", topo_port_kind_name((enum port_kind)k),
                    f->ports_by_kind[k]);
    if (f->ports_by_kind[PORT_UNUSED])
        fprintf(out, "uncabled: %u", f->ports_by_kind[PORT_UNUSED]);
    fprintf(out, "\nlinks       ");
    for (int k = 1; k < PORT_KIND_COUNT; k++) {
        if (!f->ports_by_kind[k] ||
            topo_port_class((enum port_kind)k) == PCLASS_ENDPOINT ||
            (t->family->id == TOPO_TORUS && k % 2 == PORT_TORUS_XM % 2))
            continue; /* torus: count X+ links only once, as "X" */
        fprintf(out, "%s: %u  ", topo_port_kind_name((enum port_kind)k),
                logical_links(t, (enum port_kind)k));
    }
    fprintf(out, "(logical links: all tiles between two routers)\n");
    if (t->family->id == TOPO_ARIES) {
        double g = f->groups, n = f->nodes;
        uint32_t copper = logical_links(t, PORT_ARIES_BLACK);
        fprintf(out,
                "per group   %.0f Aries, %.0f copper cables (rank-2), %.1f "
                "optical cables (XC white paper Table 1 counts)\n",
                f->routers / g, copper / g, f->global_cables / g);
        fprintf(out,
                "per node    %.4f Aries, %.4f copper, %.4f optical\n",
                f->routers / n, copper / n, f->global_cables / n);
    }
    fprintf(out, "global cables %u\n", f->global_cables);
    fprintf(out, "diameter    %u router-to-router hops (minimal paths)\n",
            f->diameter);
    fprintf(out, "bisection   %.1f GB/s (both directions, %u links; cut: %s)\n",
            f->bisection_GBps, f->bisection_links, f->bisection_cut);
    if (t->family->id != TOPO_TORUS) {
        fprintf(out, "global bw   %.2f GB/s per node (one direction)\n",
                f->global_GBps_per_node);
        if (f->alltoall_GBps > 0)
            fprintf(out, "all-to-all  %.1f GB/s peak\n", f->alltoall_GBps);
    }
    if (f->nics)
        fprintf(out, "injection   %.2f GB/s per NIC, %.1f GB/s in all (NIC "
                     "links, one direction)\n",
                f->injection_GBps / f->nics, f->injection_GBps);
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

void topo_print_json(FILE *out, const struct topo *t,
                     const struct topo_figures *f)
{
    fprintf(out, "{\"system\": ");
    json_str(out, t->system);
    fprintf(out, ", \"family\": \"%s\", \"description\": ",
            t->family->name);
    json_str(out, t->description);
    fprintf(out,
            ", \"routers\": %u, \"nodes\": %u, \"nics\": %u, \"groups\": %u, "
            "\"global_cables\": %u, \"diameter\": %u, "
            "\"bisection_GBps\": %.3f, \"bisection_links\": %u, "
            "\"bisection_cut\": ",
            f->routers, f->nodes, f->nics, f->groups, f->global_cables,
            f->diameter, f->bisection_GBps, f->bisection_links);
    json_str(out, f->bisection_cut);
    if (t->family->id == TOPO_TORUS)
        fprintf(out, ", \"global_GBps_per_node\": null, "
                     "\"alltoall_GBps\": null");
    else
        fprintf(out, ", \"global_GBps_per_node\": %.4f, \"alltoall_GBps\": %.3f",
                f->global_GBps_per_node, f->alltoall_GBps);
    fprintf(out, ", \"ports\": {");
    bool first = true;
    for (int k = 0; k < PORT_KIND_COUNT; k++) {
        if (!f->ports_by_kind[k])
            continue;
        fprintf(out, "%s", first ? "" : ", ");
        json_str(out, topo_port_kind_name((enum port_kind)k));
        fprintf(out, ": %u", f->ports_by_kind[k]);
        first = false;
    }
    fprintf(out, "}, \"links\": {\"local\": %u, \"global\": %u}}\n",
            f->links_by_class[PCLASS_LOCAL], f->links_by_class[PCLASS_GLOBAL]);
}
