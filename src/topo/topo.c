/* topo/topo.c — the topology graph shared by every builder: allocation,
 * linking, the registries of builders and built-in systems, minimal-path
 * distances, names and the invariant check.
 *
 * Minimal paths follow the hardware's definition, not graph distance: on a
 * dragonfly "minimal routing between groups will route minimally in both
 * the source and target groups and will take exactly one global optical
 * hop" (Cray XC white paper, "Cray XC Routing"); a path through a third
 * group is non-minimal even when it is shorter in hops. topo_finish()
 * computes hop distances inside each group (BFS over local links; at most
 * one green and one black hop on Aries) and indexes the global ports joining
 * each ordered pair of groups, from which topo_min_hops() combines the two.
 */
#include "topo/topo.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "topo/builders.h"

/* ---- registries ------------------------------------------------------ */

static const struct reg_entry *const builder_entries[] = {
#define TOPO_BUILDER(x) &topo_builder_##x.base,
#include "topo/builders.def"
#undef TOPO_BUILDER
};

const struct registry topo_builder_registry = {
    .kind = "topology",
    .help = "topology builders (system.topology in experiment files)",
    .entries = builder_entries,
    .n = sizeof builder_entries / sizeof builder_entries[0],
};

static const struct reg_entry *const system_entries[] = {
#define TOPO_SYSTEM(x) &topo_system_##x.base,
#include "topo/systems.def"
#undef TOPO_SYSTEM
};

const struct registry topo_system_registry = {
    .kind = "system",
    .help = "built-in systems (system.name in experiment files; dfsim topo)",
    .entries = system_entries,
    .n = sizeof system_entries / sizeof system_entries[0],
};

/* ---- kinds ------------------------------------------------------------ */

static const struct {
    const char *name;
    enum port_class cls;
} kinds[PORT_KIND_COUNT] = {
    [PORT_UNUSED] = { "unused", PCLASS_UNUSED },
    [PORT_ARIES_PROC] = { "processor", PCLASS_ENDPOINT },
    [PORT_ARIES_GREEN] = { "rank-1 (green)", PCLASS_LOCAL },
    [PORT_ARIES_BLACK] = { "rank-2 (black)", PCLASS_LOCAL },
    [PORT_ARIES_OPTICAL] = { "rank-3 (optical)", PCLASS_GLOBAL },
    [PORT_SS_EDGE] = { "edge", PCLASS_ENDPOINT },
    [PORT_SS_LOCAL] = { "local", PCLASS_LOCAL },
    [PORT_SS_GLOBAL] = { "global", PCLASS_GLOBAL },
    [PORT_DF_TERMINAL] = { "terminal", PCLASS_ENDPOINT },
    [PORT_DF_LOCAL] = { "local", PCLASS_LOCAL },
    [PORT_DF_GLOBAL] = { "global", PCLASS_GLOBAL },
    [PORT_TORUS_XP] = { "X+", PCLASS_LOCAL },
    [PORT_TORUS_XM] = { "X-", PCLASS_LOCAL },
    [PORT_TORUS_YP] = { "Y+", PCLASS_LOCAL },
    [PORT_TORUS_YM] = { "Y-", PCLASS_LOCAL },
    [PORT_TORUS_ZP] = { "Z+", PCLASS_LOCAL },
    [PORT_TORUS_ZM] = { "Z-", PCLASS_LOCAL },
    [PORT_TORUS_HOST] = { "host", PCLASS_ENDPOINT },
};

enum port_class topo_port_class(enum port_kind k)
{
    return k < PORT_KIND_COUNT ? kinds[k].cls : PCLASS_UNUSED;
}

const char *topo_port_kind_name(enum port_kind k)
{
    return k < PORT_KIND_COUNT ? kinds[k].name : "?";
}

const char *topo_medium_name(enum link_medium m)
{
    static const char *const names[MEDIUM_COUNT] = {
        [MEDIUM_NONE] = "none",           [MEDIUM_ONCHIP] = "on-chip",
        [MEDIUM_BACKPLANE] = "backplane", [MEDIUM_COPPER] = "copper",
        [MEDIUM_OPTICAL] = "optical",     [MEDIUM_MEZZANINE] = "mezzanine",
        [MEDIUM_CABLE] = "cable",
    };
    return m < MEDIUM_COUNT ? names[m] : "?";
}

void topo_family_hw(const struct topo_family *f, struct topo_hw *hw)
{
    memset(hw, 0, sizeof *hw);
    hw->expand_num = hw->expand_den = 1;
    hw->link_eff_num = hw->link_eff_den = 1;
    hw->max_outstanding = 1024; /* Aries ORB: SC'19 §2.1; assumed
                                   elsewhere */
    /* A NIC answers every request it takes, so it takes one only with a
     * response slot free; requests beyond them wait in the network (the
     * ejection back-pressure that builds an incast's congestion tree, and
     * the request stalls GET traffic shows when its responses are held
     * back). The table's size is not public for any of these NICs; 256
     * 64-byte responses (16 KiB) cover more than a microsecond of the
     * Aries NIC's 160 M packets/s host stream. */
    hw->nic_rsp_slots = 256;
    hw->vcs = 4; /* requests and responses, 4 route segments each */
    /* Tiled routers (Aries, Gemini and the generic dragonfly's high-radix
     * router, Kim et al. ISCA 2005 — the dragonfly paper's router): a row
     * buffer per input, VC and column, a column buffer per output, tile
     * row and VC (net/net.h). tile_columns 0 arranges the router's ports
     * in the squarest matrix; Aries and Gemini set 8. */
    hw->router = "tiled";
    hw->tile_columns = 0;
    /* SC'19 §2.1: inside the NIC a request is one header flit plus one to
     * four 16-byte payload flits; assumed for Gemini and Slingshot NICs */
    hw->nic_flit_bytes = 16;
    f->hw(hw);
}

/* Allocation levels of a dragonfly whose groups have no chassis level
 * (Slingshot, the generic dragonfly): a router is its own chassis. */
uint32_t topo_level_key_groups(const struct topo *t, uint32_t r, int level)
{
    return level < 2 ? r : t->routers[r].group;
}

uint32_t topo_level_size_groups(const struct topo *t, int level)
{
    return level < 2 ? t->n_routers : t->n_groups;
}

/* ---- building --------------------------------------------------------- */

int topo_alloc(struct topo *t, uint32_t routers, uint32_t ports_per_router,
               uint32_t nics, uint32_t nodes)
{
    uint64_t ports = (uint64_t)routers * ports_per_router;
    t->counts = (struct topo_counts){
        .family = t->family, .routers = routers,
        .ports_per_router = ports_per_router, .nics = nics, .nodes = nodes,
        .groups = t->n_groups, .routers_per_group = t->routers_per_group };
    if (ports >= TOPO_NONE || ports_per_router > UINT16_MAX)
        return -1;
    const struct topo_budget *b = t->budget;
    if (b && ((b->max_entities &&
               (uint64_t)routers + nics > b->max_entities) ||
              (b->max_bytes &&
               topo_estimate_bytes(&t->counts) +
                       (b->extra ? b->extra(b->ctx, &t->counts) : 0) >
                   b->max_bytes))) {
        t->over_budget = true;
        return -1;
    }
    t->n_routers = routers;
    t->n_ports = (uint32_t)ports;
    t->n_nics = nics;
    t->n_nodes = nodes;
    t->routers = arena_calloc(&t->arena, routers ? routers : 1,
                              sizeof *t->routers, 0);
    t->ports = arena_calloc(&t->arena, ports ? ports : 1, sizeof *t->ports, 0);
    t->nics = arena_calloc(&t->arena, nics ? nics : 1, sizeof *t->nics, 0);
    t->nodes = arena_calloc(&t->arena, nodes ? nodes : 1, sizeof *t->nodes, 0);
    if (!t->routers || !t->ports || !t->nics || !t->nodes)
        return -1;
    for (uint32_t r = 0; r < routers; r++) {
        struct topo_router *rt = &t->routers[r];
        rt->first_port = r * ports_per_router;
        rt->n_ports = (uint16_t)ports_per_router;
        rt->first_nic = TOPO_NONE;
        for (uint32_t i = 0; i < ports_per_router; i++) {
            struct topo_port *p = &t->ports[rt->first_port + i];
            p->router = r;
            p->peer = TOPO_NONE;
            p->nic = TOPO_NONE;
            p->index = (uint16_t)i;
        }
    }
    return 0;
}

void topo_port_set(struct topo *t, uint32_t port, enum port_kind kind,
                   enum link_medium medium, uint64_t bw, uint32_t latency_ps)
{
    struct topo_port *p = &t->ports[port];
    p->kind = (uint8_t)kind;
    p->medium = (uint8_t)medium;
    p->bw = bw;
    p->latency = latency_ps;
}

void topo_link(struct topo *t, uint32_t a, uint32_t b)
{
    assert(a != b && a < t->n_ports && b < t->n_ports);
    assert(t->ports[a].peer == TOPO_NONE && t->ports[b].peer == TOPO_NONE);
    t->ports[a].peer = b;
    t->ports[b].peer = a;
}

uint32_t topo_bundle_slot(uint32_t from, uint32_t to, uint32_t m,
                          uint32_t groups)
{
    assert(from != to && from < groups && to < groups);
    /* slot m (G - 1) + rank: the first cable to every other group before
     * the second to any, so that consecutive slots, which the builders put
     * on different routers (or connectors), carry different bundles and a
     * bundle is spread over the group rather than piled on one router */
    uint32_t rank = (to + groups - from - 1) % groups; /* 0 .. groups-2 */
    return m * (groups - 1) + rank;
}

/* Local index of router r inside its group (routers are numbered group by
 * group; every group but the last is full). */
static inline uint32_t local_index(const struct topo *t, uint32_t r)
{
    return r - t->routers[r].group * t->routers_per_group;
}

static bool is_dragonfly(const struct topo *t)
{
    return t->family->id != TOPO_TORUS;
}

/* BFS inside every group over local links. */
static int compute_group_dist(struct topo *t, struct diag *d)
{
    size_t m = t->routers_per_group;
    t->group_dist = arena_alloc(&t->arena, (size_t)t->n_groups * m * m, 1);
    uint32_t *queue = malloc(m * sizeof *queue);
    if (!t->group_dist || !queue) {
        free(queue);
        return -1;
    }
    memset(t->group_dist, 255, (size_t)t->n_groups * m * m);
    for (uint32_t g = 0; g < t->n_groups; g++) {
        uint32_t first = g * (uint32_t)m;
        uint32_t size = first + m <= t->n_routers ? (uint32_t)m
                                                  : t->n_routers - first;
        for (uint32_t s = 0; s < size; s++) {
            uint8_t *row = &t->group_dist[((size_t)g * m + s) * m];
            uint32_t head = 0, tail = 0;
            /* Hop distances inside the group over local links only: a minimal
             * path between two routers of a group never leaves it (XC white
             * paper: "at most one green and one black hop"); the next-hop
             * tables (net/nexthop.c) are built from these rows. */
            row[s] = 0;
            queue[tail++] = first + s;
            while (head < tail) {
                uint32_t r = queue[head++];
                const struct topo_router *rt = &t->routers[r];
                uint8_t dr = row[r - first];
                for (uint32_t i = 0; i < rt->n_ports; i++) {
                    const struct topo_port *p = &t->ports[rt->first_port + i];
                    if (p->peer == TOPO_NONE ||
                        topo_port_class(p->kind) != PCLASS_LOCAL)
                        continue;
                    uint32_t nb = t->ports[p->peer].router;
                    if (t->routers[nb].group != g)
                        continue;
                    if (row[nb - first] == 255) {
                        row[nb - first] = (uint8_t)(dr + 1);
                        queue[tail++] = nb;
                    }
                }
            }
            for (uint32_t j = 0; j < size; j++)
                if (row[j] == 255) {
                    diag_error(d, NULL, 0, NULL,
                               "topology %s: group %u is not connected "
                               "(router %u cannot reach router %u)",
                               t->system, g, first + s, first + j);
                    free(queue);
                    return -1;
                }
        }
    }
    free(queue);
    return 0;
}

/* CSR of global ports per ordered (source group, destination group). */
static int compute_pairs(struct topo *t)
{
    size_t G = t->n_groups, npairs = G * G;
    t->pair_start = arena_calloc(&t->arena, npairs + 1, sizeof(uint32_t), 0);
    if (!t->pair_start)
        return -1;
    uint32_t total = 0;
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (pt->peer == TOPO_NONE || topo_port_class(pt->kind) != PCLASS_GLOBAL)
            continue;
        size_t a = t->routers[pt->router].group;
        size_t b = t->routers[t->ports[pt->peer].router].group;
        /* the global ports from group a to group b, the exits a minimal route
         * between the two may take: counted, then listed (CSR) */
        t->pair_start[a * G + b + 1]++;
        total++;
    }
    for (size_t i = 0; i < npairs; i++)
        t->pair_start[i + 1] += t->pair_start[i];
    t->pair_port = arena_alloc(&t->arena, (total ? total : 1) * sizeof(uint32_t),
                               0);
    uint32_t *fill = calloc(npairs ? npairs : 1, sizeof *fill);
    if (!t->pair_port || !fill) {
        free(fill);
        return -1;
    }
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        if (pt->peer == TOPO_NONE || topo_port_class(pt->kind) != PCLASS_GLOBAL)
            continue;
        size_t a = t->routers[pt->router].group;
        size_t b = t->routers[t->ports[pt->peer].router].group;
        t->pair_port[t->pair_start[a * G + b] + fill[a * G + b]++] = p;
    }
    free(fill);
    return 0;
}

int topo_finish(struct topo *t, struct diag *d)
{
    if (topo_check(t, d) != 0)
        return -1;
    if (!is_dragonfly(t))
        return 0;
    if (compute_group_dist(t, d) != 0 || compute_pairs(t) != 0)
        return -1;
    /* Every pair of groups must be joined, or minimal routing has no path. */
    for (uint32_t a = 0; a < t->n_groups; a++)
        for (uint32_t b = 0; b < t->n_groups; b++) {
            size_t i = (size_t)a * t->n_groups + b;
            if (a != b && t->pair_start[i] == t->pair_start[i + 1]) {
                diag_error(d, NULL, 0, NULL,
                           "topology %s: no global link from group %u to "
                           "group %u",
                           t->system, a, b);
                return -1;
            }
        }
    return 0;
}

void topo_param_error(struct diag *d, const struct topo_where *w,
                      const char *key, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0;
    if (w && w->key_line && key)
        line = w->key_line(w->ctx, key);
    if (w && line <= 0)
        line = w->line;
    diag_error(d, w ? w->file : NULL, line, key, "%s", msg);
}

size_t topo_estimate_bytes(const struct topo_counts *c)
{
    const struct topo *t = NULL; /* for sizeof only */
    size_t ports = (size_t)c->routers * c->ports_per_router;
    size_t b = (size_t)c->routers * sizeof *t->routers +
               ports * sizeof *t->ports + (size_t)c->nics * sizeof *t->nics +
               (size_t)c->nodes * sizeof *t->nodes;
    if (c->family->id != TOPO_TORUS) {
        size_t m = c->routers_per_group, G = c->groups;
        b += G * m * m;                       /* group_dist */
        b += (G * G + 1) * sizeof(uint32_t);  /* pair_start */
        b += ports * sizeof(uint32_t);        /* pair_port, at most */
    }
    return b;
}

void topo_human_bytes(char *buf, size_t cap, double bytes)
{
    static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
                                        "TiB", "PiB" };
    int u = 0;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* v with thousands separators: 16,777,216. */
static const char *commas(char *buf, size_t cap, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < n && k + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
    return buf;
}

/* The refusal of a system over its budget, with the figures. */
static void report_budget(const struct topo *t, const struct topo_budget *b,
                          struct diag *d, const struct topo_where *w)
{
    const struct topo_counts *c = &t->counts;
    char what[256], r[32], p[32], n[32];
    snprintf(what, sizeof what,
             "this %s system of %s routers (%s ports) and %s NICs",
             c->family->name, commas(r, sizeof r, c->routers),
             commas(p, sizeof p, (uint64_t)c->routers * c->ports_per_router),
             commas(n, sizeof n, c->nics));
    uint64_t ent = (uint64_t)c->routers + c->nics;
    if (b->max_entities && ent > b->max_entities) {
        char m[32], e[32];
        topo_param_error(d, w, "system",
                         "%s is too large: the simulator numbers routers and "
                         "NICs together with %s ids at most, and it has %s; "
                         "expected a smaller system",
                         what, commas(m, sizeof m, b->max_entities),
                         commas(e, sizeof e, ent));
        return;
    }
    size_t topo = topo_estimate_bytes(c);
    size_t extra = b->extra ? b->extra(b->ctx, c) : 0;
    char need[32], tb[32], xb[32], have[32], parts[128] = "";
    topo_human_bytes(need, sizeof need, (double)topo + (double)extra);
    topo_human_bytes(tb, sizeof tb, (double)topo);
    topo_human_bytes(xb, sizeof xb, (double)extra);
    topo_human_bytes(have, sizeof have, (double)b->max_bytes);
    if (extra)
        snprintf(parts, sizeof parts, " (topology %s, %s %s)", tb,
                 b->extra_what ? b->extra_what : "the rest", xb);
    topo_param_error(d, w, "system",
                     "%s needs about %s before its first packet%s, more "
                     "than the %s %s; expected a smaller system, or "
                     "--max-memory SIZE to set the limit",
                     what, need, parts, have,
                     b->limit_from ? b->limit_from : "allowed");
}

int topo_build_within(struct topo *t, const struct topo_builder *builder,
                      const union topo_params *p, const char *system_name,
                      const char *description, const struct topo_budget *b,
                      struct diag *d, const struct topo_where *w)
{
    memset(t, 0, sizeof *t);
    arena_init(&t->arena, (size_t)1 << 20);
    t->family = builder->family;
    t->p = *p;
    t->system = system_name ? system_name : builder->base.name;
    t->description = description ? description : builder->base.help;
    t->budget = b;
    int errors = d->errors;
    if (builder->build(t, p, d, w) != 0 || d->errors > errors ||
        topo_finish(t, d) != 0) {
        uint64_t ports = (uint64_t)t->counts.routers *
                         t->counts.ports_per_router;
        if (d->errors == errors && t->over_budget)
            report_budget(t, b, d, w);
        else if (d->errors == errors && ports >= TOPO_NONE)
            topo_param_error(d, w, "system",
                             "this %s system has %" PRIu64 " ports; port "
                             "ids are 32-bit, at most %" PRIu32 "; expected "
                             "a smaller system",
                             t->family->name, ports,
                             TOPO_NONE - 1);
        else if (d->errors == errors)
            topo_param_error(d, w, NULL, "topology %s: out of memory",
                             t->system);
        topo_free(t);
        return -1;
    }
    t->budget = NULL;
    return 0;
}

int topo_build(struct topo *t, const struct topo_builder *builder,
               const union topo_params *p, const char *system_name,
               const char *description, struct diag *d,
               const struct topo_where *w)
{
    return topo_build_within(t, builder, p, system_name, description, NULL,
                             d, w);
}

int topo_build_system(struct topo *t, const char *name, struct diag *d)
{
    const struct reg_entry *e = registry_find(&topo_system_registry, name);
    if (!e) {
        char known[1024];
        registry_names(&topo_system_registry, known, sizeof known);
        diag_error(d, NULL, 0, NULL, "system \"%s\" is not built in; known: %s",
                   name, known);
        return -1;
    }
    const struct topo_system *s = (const struct topo_system *)e;
    union topo_params p;
    memset(&p, 0, sizeof p);
    s->builder->defaults(&p);
    s->set(&p);
    return topo_build(t, s->builder, &p, s->base.name, s->description, d,
                      NULL);
}

void topo_free(struct topo *t)
{
    arena_free(&t->arena);
    memset(t, 0, sizeof *t);
}

/* ---- minimal paths ---------------------------------------------------- */

static uint32_t ring_dist(uint32_t a, uint32_t b, uint32_t k)
{
    uint32_t d = a > b ? a - b : b - a;
    return d < k - d ? d : k - d;
}

uint32_t topo_rank_nic(const struct topo *t, uint32_t node, uint32_t local,
                       uint32_t ppn)
{
    const struct topo_node *nd = &t->nodes[node];
    if (ppn <= 1 || nd->n_nics <= 1)
        return nd->nic[0];
    return nd->nic[(uint64_t)(local % ppn) * nd->n_nics / ppn];
}

uint32_t topo_min_hops(const struct topo *t, uint32_t src, uint32_t dst)
{
    const struct topo_router *s = &t->routers[src], *d = &t->routers[dst];
    if (!is_dragonfly(t)) {
        const struct torus_params *tp = &t->p.torus;
        /* torus: dimension order, the shorter way round each ring
         * (route/dor.c): the sum of the three ring distances */
        return ring_dist(s->pos[0], d->pos[0], tp->x) +
               ring_dist(s->pos[1], d->pos[1], tp->y) +
               ring_dist(s->pos[2], d->pos[2], tp->z);
    }
    /* Between groups: the best over the global links joining the two, each
     * path minimal inside both groups around exactly one global hop (the
     * hardware's "minimal", not the graph's shortest: a path through a
     * third group is non-minimal however short) */
    uint32_t A = s->group, B = d->group;
    if (A == B)
        return topo_group_hops(t, A, local_index(t, src), local_index(t, dst));
    size_t i = (size_t)A * t->n_groups + B;
    uint32_t best = UINT32_MAX, ls = local_index(t, src),
             ld = local_index(t, dst);
    for (uint32_t k = t->pair_start[i]; k < t->pair_start[i + 1]; k++) {
        const struct topo_port *p = &t->ports[t->pair_port[k]];
        uint32_t far = t->ports[p->peer].router;
        uint32_t h = topo_group_hops(t, A, ls, local_index(t, p->router)) + 1u +
                     topo_group_hops(t, B, local_index(t, far), ld);
        if (h < best)
            best = h;
    }
    return best;
}

uint32_t topo_min_ports(const struct topo *t, uint32_t cur, uint32_t dst,
                        uint32_t *out, uint32_t cap)
{
    uint32_t h = topo_min_hops(t, cur, dst), n = 0;
    if (h == 0)
        return 0;
    const struct topo_router *rt = &t->routers[cur];
    for (uint32_t i = 0; i < rt->n_ports; i++) {
        uint32_t pid = rt->first_port + i;
        const struct topo_port *p = &t->ports[pid];
        if (p->peer == TOPO_NONE)
            continue;
        enum port_class c = topo_port_class(p->kind);
        uint32_t nb = t->ports[p->peer].router;
        if (c == PCLASS_GLOBAL &&
            t->routers[nb].group != t->routers[dst].group)
            continue; /* a minimal path takes one global hop, to dst's group */
        if (c != PCLASS_LOCAL && c != PCLASS_GLOBAL)
            continue;
        if (topo_min_hops(t, nb, dst) + 1 == h) {
            if (n < cap)
                out[n] = pid;
            n++;
        }
    }
    return n;
}

/* ---- names -------------------------------------------------------------- */

char *topo_router_name(const struct topo *t, uint32_t r, char *buf, size_t cap)
{
    switch (t->family->id) {
    case TOPO_ARIES: aries_router_name(t, r, buf, cap); break;
    case TOPO_SLINGSHOT: slingshot_router_name(t, r, buf, cap); break;
    case TOPO_DRAGONFLY: snprintf(buf, cap, "g%ur%u", t->routers[r].group,
                                  t->routers[r].pos[0]);
        break;
    case TOPO_TORUS: torus_router_name(t, r, buf, cap); break;
    }
    return buf;
}

char *topo_node_name(const struct topo *t, uint32_t n, char *buf, size_t cap)
{
    const struct topo_nic *nic = &t->nics[t->nodes[n].nic[0]];
    char rname[64];
    topo_router_name(t, nic->router, rname, sizeof rname);
    switch (t->family->id) {
    case TOPO_ARIES:
    case TOPO_TORUS: {
        /* Cray cnames: the router's name with a0/g0/g1 replaced by nN. */
        size_t len = strlen(rname);
        while (len > 0 && rname[len - 1] >= '0' && rname[len - 1] <= '9')
            len--;
        if (len > 0)
            len--; /* the 'a' or 'g' */
        rname[len] = '\0';
        snprintf(buf, cap, "%sn%u", rname, t->nodes[n].slot);
        break;
    }
    case TOPO_SLINGSHOT:
    case TOPO_DRAGONFLY:
        snprintf(buf, cap, "nid%06u", n);
        break;
    }
    return buf;
}

char *topo_port_name(const struct topo *t, uint32_t p, char *buf, size_t cap)
{
    const struct topo_port *pt = &t->ports[p];
    char rname[64];
    topo_router_name(t, pt->router, rname, sizeof rname);
    switch (t->family->id) {
    case TOPO_ARIES:
        /* Tiles are a 6 x 8 matrix; row 5 holds the processor tiles,
         * named AR_RTR_PT_5_<col> in the counter names. */
        if (pt->index >= 40)
            snprintf(buf, cap, "%s:PT_5_%u", rname, pt->index % 8u);
        else
            snprintf(buf, cap, "%s:%u_%u", rname, pt->index / 8u,
                     pt->index % 8u);
        break;
    case TOPO_TORUS:
        snprintf(buf, cap, "%s:%u_%u", rname, pt->index / 8u, pt->index % 8u);
        break;
    case TOPO_SLINGSHOT:
    case TOPO_DRAGONFLY:
        snprintf(buf, cap, "%sp%u", rname, pt->index);
        break;
    }
    return buf;
}

/* ---- invariants ------------------------------------------------------- */

int topo_check(const struct topo *t, struct diag *d)
{
    int errors = d->errors;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        const struct topo_router *rt = &t->routers[r];
        if (rt->group >= t->n_groups ||
            (is_dragonfly(t) && rt->group != r / t->routers_per_group))
            diag_error(d, NULL, 0, NULL, "router %u: bad group %u", r,
                       rt->group);
        for (uint32_t i = 0; i < rt->n_ports; i++)
            if (t->ports[rt->first_port + i].router != r)
                diag_error(d, NULL, 0, NULL, "port %u not owned by router %u",
                           rt->first_port + i, r);
    }
    for (uint32_t p = 0; p < t->n_ports; p++) {
        const struct topo_port *pt = &t->ports[p];
        enum port_class c = topo_port_class(pt->kind);
        if (pt->peer != TOPO_NONE) {
            if (pt->peer >= t->n_ports || t->ports[pt->peer].peer != p)
                diag_error(d, NULL, 0, NULL, "port %u: link without reverse",
                           p);
            else if (t->ports[pt->peer].router == pt->router)
                diag_error(d, NULL, 0, NULL, "port %u: link to own router", p);
            else if (c != PCLASS_LOCAL && c != PCLASS_GLOBAL)
                diag_error(d, NULL, 0, NULL, "port %u: %s port is linked", p,
                           topo_port_kind_name(pt->kind));
            else if (t->ports[pt->peer].bw != pt->bw)
                diag_error(d, NULL, 0, NULL, "port %u: link bandwidths differ",
                           p);
        } else if (c == PCLASS_LOCAL || c == PCLASS_GLOBAL) {
            diag_error(d, NULL, 0, NULL, "port %u: %s port is not linked", p,
                       topo_port_kind_name(pt->kind));
        }
        if (c == PCLASS_ENDPOINT && pt->nic != TOPO_NONE &&
            pt->nic >= t->n_nics)
            diag_error(d, NULL, 0, NULL, "port %u: bad NIC %u", p, pt->nic);
        if (c != PCLASS_UNUSED && pt->bw == 0)
            diag_error(d, NULL, 0, NULL, "port %u: zero bandwidth", p);
    }
    for (uint32_t n = 0; n < t->n_nics; n++) {
        const struct topo_nic *nic = &t->nics[n];
        if (nic->router < t->n_routers) {
            const struct topo_router *rt = &t->routers[nic->router];
            if (n < rt->first_nic || n >= rt->first_nic + rt->n_nics)
                diag_error(d, NULL, 0, NULL,
                           "NIC %u: outside its router's NIC range", n);
        }
        if (nic->router >= t->n_routers || nic->node >= t->n_nodes ||
            nic->n_ports == 0)
            diag_error(d, NULL, 0, NULL, "NIC %u: bad attachment", n);
        for (uint32_t i = 0; i < nic->n_ports; i++) {
            const struct topo_port *pt = &t->ports[nic->first_port + i];
            if (pt->router != nic->router ||
                topo_port_class(pt->kind) != PCLASS_ENDPOINT)
                diag_error(d, NULL, 0, NULL,
                           "NIC %u: port %u is not an endpoint port of its "
                           "router", n, nic->first_port + i);
        }
    }
    for (uint32_t n = 0; n < t->n_nodes; n++) {
        const struct topo_node *nd = &t->nodes[n];
        if (nd->n_nics == 0 || nd->n_nics > TOPO_MAX_NICS) {
            diag_error(d, NULL, 0, NULL, "node %u: bad NIC count", n);
            continue;
        }
        for (uint32_t i = 0; i < nd->n_nics; i++)
            if (nd->nic[i] >= t->n_nics || t->nics[nd->nic[i]].node != n)
                diag_error(d, NULL, 0, NULL, "node %u: NIC %u is not its own",
                           n, nd->nic[i]);
    }
    return d->errors > errors ? -1 : 0;
}
