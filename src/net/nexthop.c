/* net/nexthop.c — the network's next-hop tables: for every router, the
 * ports of the next hop of a minimal path toward each router of its group
 * (dragonflies, in dimension order: green before black on an Aries) or
 * toward each direction (torus). Every routing mode reads them (net.h:
 * net_nh, net_nh_port); they depend on the wiring only, so they are built
 * with the network, once per run. */
#include <stdlib.h>

#include "net/net.h"

static inline uint32_t grp(const struct net *n, uint32_t r)
{
    return n->t->routers[r].group;
}

static inline uint32_t lidx(const struct net *n, uint32_t r)
{
    return r - n->group_first[grp(n, r)];
}

/* Routers wired alike share one row of the next-hop tables. net_nexthop_init
 * first builds a row per router (`stride` entries: routers of its group,
 * or torus directions) of absolute port numbers; here the rows become
 * relative to each router's first port and equal rows are kept once:
 * every router at the same place in its group of an Aries or a
 * dragonfly, every router of a torus. Cori's 3,264 rows of 96 entries
 * become 96, and the lookup every packet makes at every hop inside a
 * group reads a table that stays in cache (issue 17: df_toward_local's
 * misses were 9 % of a tiled XC's last-level misses, 12 % of Cori's
 * time). Rows are compared whole, so any wiring stays exact. */
static bool nh_same(const struct net *n, uint32_t a, uint32_t b,
                    uint32_t stride)
{
    const struct topo_router *ra = &n->t->routers[a], *rb = &n->t->routers[b];
    for (uint32_t j = 0; j < stride; j++) {
        size_t ea = (size_t)a * stride + j, eb = (size_t)b * stride + j;
        if (n->nh_count[ea] != n->nh_count[eb])
            return false;
        for (uint32_t i = 0; i < n->nh_count[ea]; i++)
            if (n->nh_port[n->nh_first[ea] + i] - ra->first_port !=
                n->nh_port[n->nh_first[eb] + i] - rb->first_port)
                return false;
    }
    return true;
}

static uint64_t nh_hash(const struct net *n, uint32_t r, uint32_t stride)
{
    uint32_t base = n->t->routers[r].first_port;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint32_t j = 0; j < stride; j++) {
        size_t e = (size_t)r * stride + j;
        h = (h ^ n->nh_count[e]) * 0x100000001b3ULL;
        for (uint32_t i = 0; i < n->nh_count[e]; i++)
            h = (h ^ (n->nh_port[n->nh_first[e] + i] - base)) *
                0x100000001b3ULL;
    }
    return h;
}

static int nh_share(struct net *n, uint32_t stride, struct diag *d)
{
    uint32_t R = n->t->n_routers, rows = 0;
    size_t slots = 2, total = 0;
    /* an open-addressed table from a row's hash to its first router, at
     * most half full; equal hashes are compared whole (nh_same) */
    while (slots < 2 * (size_t)R)
        slots *= 2;
    uint32_t *slot = calloc(slots, sizeof *slot); /* row + 1; 0: empty */
    uint32_t *rep = malloc((R ? R : 1) * sizeof *rep); /* [row]: a router */
    uint32_t *first = NULL, *port = NULL;
    uint8_t *count = NULL;
    int rc = -1;
    n->nh_row = malloc((R ? R : 1) * sizeof *n->nh_row);
    if (!slot || !rep || !n->nh_row)
        goto out;
    for (uint32_t r = 0; r < R; r++) {
        size_t k = (size_t)nh_hash(n, r, stride) & (slots - 1);
        while (slot[k] && !nh_same(n, rep[slot[k] - 1], r, stride))
            k = (k + 1) & (slots - 1);
        if (!slot[k]) {
            rep[rows] = r;
            slot[k] = ++rows;
            for (uint32_t j = 0; j < stride; j++)
                total += n->nh_count[(size_t)r * stride + j];
        }
        n->nh_row[r] = slot[k] - 1;
    }
    size_t cells = (size_t)rows * stride;
    first = malloc((cells ? cells : 1) * sizeof *first);
    count = malloc(cells ? cells : 1);
    port = malloc((total ? total : 1) * sizeof *port);
    if (!first || !count || !port)
        goto out;
    size_t k = 0;
    for (uint32_t q = 0; q < rows; q++) {
        uint32_t r = rep[q], base = n->t->routers[r].first_port;
        for (uint32_t j = 0; j < stride; j++) {
            size_t e = (size_t)r * stride + j, f = (size_t)q * stride + j;
            first[f] = (uint32_t)k;
            count[f] = n->nh_count[e];
            for (uint32_t i = 0; i < n->nh_count[e]; i++)
                port[k++] = n->nh_port[n->nh_first[e] + i] - base;
        }
    }
    /* the per-router tables give way to the shared rows */
    uint32_t *old_first = n->nh_first, *old_port = n->nh_port;
    uint8_t *old_count = n->nh_count;
    n->nh_first = first;
    n->nh_count = count;
    n->nh_port = port;
    first = old_first;
    count = old_count;
    port = old_port;
    n->nh_total = total ? total : 1;
    n->nh_rows = rows;
    rc = 0;
out:
    free(first);
    free(count);
    free(port);
    free(slot);
    free(rep);
    if (rc != 0)
        diag_error(d, NULL, 0, "network", "out of memory for routing tables");
    return rc;
}

/* Out of memory for the tables: reported to d; -1. */
static int nh_oom(struct diag *d)
{
    diag_error(d, NULL, 0, "network", "out of memory for routing tables");
    return -1;
}

/* Torus: for each router and direction (X+, X-, Y+, Y-, Z+, Z-) its
 * ports to a neighbour. */
static int nh_torus(struct net *n, struct diag *d)
{
    const struct topo *t = n->t;
    if (n->p.vcs < 2) {
        diag_error(d, NULL, 0, "network.vcs", "the torus needs 2 VCs "
                   "per class (dateline) to be deadlock-free");
        return -1;
    }
    n->m = 6;
    n->nh_first = calloc((size_t)t->n_routers * 6, sizeof *n->nh_first);
    n->nh_count = calloc((size_t)t->n_routers * 6, 1);
    n->nh_port = calloc(t->n_ports ? t->n_ports : 1, sizeof *n->nh_port);
    n->nh_total = t->n_ports ? t->n_ports : 1;
    if (!n->nh_first || !n->nh_count || !n->nh_port)
        return nh_oom(d);
    uint32_t k = 0;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        const struct topo_router *rt = &t->routers[r];
        for (uint32_t dir = 0; dir < 6; dir++) {
            n->nh_first[r * 6 + dir] = k;
            for (uint32_t i = 0; i < rt->n_ports; i++) {
                uint32_t pt = rt->first_port + i;
                /* a Gemini direction is several tiles (X and Z 8, Y 4:
                 * Pedretti et al. §III), all leading to the same neighbour:
                 * route/dor.c picks the least loaded */
                if (t->ports[pt].kind == PORT_TORUS_XP + dir &&
                    t->ports[pt].peer != TOPO_NONE) {
                    n->nh_port[k++] = pt;
                    n->nh_count[r * 6 + dir]++;
                }
            }
        }
    }
    return nh_share(n, 6, d);
}

/* Dragonflies: each group's first router and size (net.group_first,
 * group_size) and the per-router rows' first entries and counts, zeroed;
 * -1 (reported to d) when out of memory or when the routers of a group
 * are not numbered consecutively. */
static int nh_groups(struct net *n, struct diag *d)
{
    const struct topo *t = n->t;
    uint32_t G = t->n_groups, m = t->routers_per_group;
    n->m = m;
    n->group_first = calloc(G, sizeof *n->group_first);
    n->group_size = calloc(G, sizeof *n->group_size);
    n->nh_first = calloc((size_t)t->n_routers * m, sizeof *n->nh_first);
    n->nh_count = calloc((size_t)t->n_routers * m, 1);
    if (!n->group_first || !n->group_size || !n->nh_first || !n->nh_count)
        return nh_oom(d);
    /* walked backwards, so each group's entry ends at its lowest router */
    for (uint32_t r = t->n_routers; r-- > 0;) {
        n->group_first[grp(n, r)] = r;
        n->group_size[grp(n, r)]++;
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        if (r - n->group_first[grp(n, r)] >= n->group_size[grp(n, r)]) {
            diag_error(d, NULL, 0, "network", "routers of group %u are not "
                       "numbered consecutively", grp(n, r));
            return -1;
        }
    return 0;
}

/* A local neighbour of a router, as nh_router compares them. */
struct local_nb {
    uint32_t port, router, kind;
    const uint8_t *dist; /* its row of the group's distance table */
};

/* Dragonflies: router r's entries, from the k-th port entry on (*k, which
 * it advances), in pass `pass` of net_nexthop_init (0: counts them, 1:
 * fills them in). nb, best_n, best_kind: room for a router's ports and
 * a group's routers. */
static void nh_router(struct net *n, uint32_t r, int pass,
                      struct local_nb *nb, uint32_t *best_n,
                      uint32_t *best_kind, size_t *k)
{
    const struct topo *t = n->t;
    uint32_t m = n->m;
    const struct topo_router *rt = &t->routers[r];
    uint32_t g = rt->group, lr = lidx(n, r), gs = n->group_size[g];
    const uint8_t *mine = topo_group_row(t, g, lr);
    bool black_first = n->p.local_order == NET_LOCAL_BLACK_FIRST;
    uint32_t nn = 0;
    for (uint32_t i = 0; i < rt->n_ports; i++) {
        const struct topo_port *tp = &t->ports[rt->first_port + i];
        if (tp->peer == TOPO_NONE ||
            topo_port_class((enum port_kind)tp->kind) != PCLASS_LOCAL)
            continue;
        uint32_t x = t->ports[tp->peer].router;
        nb[nn++] = (struct local_nb){
            rt->first_port + i, x, tp->kind,
            topo_group_row(t, g, lidx(n, x)) };
    }
    for (uint32_t j = 0; j < gs; j++)
        best_n[j] = TOPO_NONE, best_kind[j] = 0;
    for (uint32_t i = 0; i < nn; i++)
        for (uint32_t j = 0; j < gs; j++) {
            /* 255 (unreachable) + 1 matches no distance */
            /* a neighbour one hop nearer to j: on a minimal path toward it */
            if ((uint32_t)nb[i].dist[j] + 1 != mine[j])
                continue;
            /* Of the neighbours on a minimal path, the one of the least port
             * kind (with local_order black-first, the greatest): on an Aries
             * the green (rank-1) hop before the black (rank-2), the
             * dimension order every route segment keeps inside a group
             * (route/df.c: what makes the segments deadlock-free); the
             * lowest router among equals, so the tables are the same on every
             * run. */
            bool before = black_first ? nb[i].kind > best_kind[j]
                                      : nb[i].kind < best_kind[j];
            if (best_n[j] == TOPO_NONE || before ||
                (nb[i].kind == best_kind[j] && nb[i].router < best_n[j])) {
                best_n[j] = nb[i].router;
                best_kind[j] = nb[i].kind;
            }
        }
    bool both = n->p.local_order == NET_LOCAL_BOTH;
    for (uint32_t j = 0; j < gs; j++) {
        size_t e = (size_t)r * m + j;
        if (pass)
            n->nh_first[e] = (uint32_t)*k;
        if (j == lr || mine[j] == 255 || best_n[j] == TOPO_NONE)
            continue;
        for (uint32_t i = 0; i < nn; i++) {
            /* both orders: every port to a neighbour one hop nearer, in
             * port order; else the chosen neighbour's parallel ports */
            if (both ? (uint32_t)nb[i].dist[j] + 1 != mine[j]
                     : nb[i].kind != best_kind[j] ||
                           nb[i].router != best_n[j])
                continue;
            if (pass) {
                n->nh_port[*k] = nb[i].port;
                n->nh_count[e]++;
            }
            (*k)++;
        }
    }
}

/* Dragonflies: for each router and each router of its group, the ports
 * of the next hop in dimension order (Aries: green before black, or
 * black before green with local_order; with "both", of every neighbour
 * one hop nearer); torus:
 * for each router and direction (X+, X-, Y+, Y-, Z+, Z-) its ports. */
int net_nexthop_init(struct net *n, struct diag *d)
{
    const struct topo *t = n->t;
    if (topo_is(t->family, TOPO_SHAPE_TORUS))
        return nh_torus(n, d);
    bool hop = n->p.vc_rule == NET_VC_HOP;
    if (n->p.vcs < (hop ? 8u : 4u)) {
        diag_error(d, NULL, 0, "network.vcs", "a dragonfly needs %u VCs per "
                   "class (%s) to be deadlock-free, not %u",
                   hop ? 8u : 4u,
                   hop ? "vc_rule \"hop\": two per route segment"
                       : "route segments",
                   n->p.vcs);
        return -1;
    }
    if (n->p.local_order == NET_LOCAL_BOTH && !hop) {
        diag_error(d, NULL, 0, "network.local_order", "\"both\" mixes "
                   "the two orders of a group's local hops in one route "
                   "segment, which can close a cycle of channels on one VC: "
                   "it needs network.vc_rule = \"hop\" (and vcs = 8)");
        return -1;
    }
    if (nh_groups(n, d) != 0)
        return -1;
    uint32_t m = n->m;
    /* Per router, its local neighbours in port order; per router j of its
     * group, the least (port kind, router) among the neighbours one hop
     * nearer to j (dimension order: green before black), then every
     * parallel port to that router. The distance table's rows are read
     * whole, a neighbour at a time: this runs before every simulation
     * (on Cori, 3,264 routers x 96 destinations x ~30 neighbours). The
     * first pass counts, the second fills. */
    uint32_t maxp = 1;
    for (uint32_t r = 0; r < t->n_routers; r++)
        if (t->routers[r].n_ports > maxp)
            maxp = t->routers[r].n_ports;
    struct local_nb *nb = malloc(maxp * sizeof *nb);
    uint32_t *best_n = malloc(m * sizeof *best_n);
    uint32_t *best_kind = malloc(m * sizeof *best_kind);
    if (!nb || !best_n || !best_kind) {
        free(nb);
        free(best_n);
        free(best_kind);
        return nh_oom(d);
    }
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (uint32_t r = 0; r < t->n_routers; r++)
            nh_router(n, r, pass, nb, best_n, best_kind, &k);
        if (!pass) {
            total = k;
            n->nh_total = total ? total : 1;
            n->nh_port = calloc(total ? total : 1, sizeof *n->nh_port);
            if (!n->nh_port)
                break;
        }
    }
    free(nb);
    free(best_n);
    free(best_kind);
    if (!n->nh_port)
        return nh_oom(d);
    return nh_share(n, m, d);
}

void net_nexthop_free(struct net *n)
{
    free(n->nh_first);
    free(n->nh_count);
    free(n->nh_port);
    free(n->nh_row);
    free(n->group_first);
    free(n->group_size);
    n->nh_first = NULL;
    n->nh_count = NULL;
    n->nh_port = NULL;
    n->nh_row = NULL;
    n->group_first = n->group_size = NULL;
}

