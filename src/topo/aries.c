/* topo/aries.c — the Cray XC dragonfly built from Aries routers.
 *
 * Source: Cray XC Series Network white paper (WP-Aries01-1112), sections
 * "Aries Router", "Dragonfly Implementation for the Cray XC Series", "Aries
 * Performance" and "Cray XC Series Configuration"; SC'19 §2.1.
 *
 *  - A blade holds one Aries and 4 nodes; a chassis 16 blades; a group is
 *    two cabinets of three chassis: 6 chassis x 16 blades = 96 Aries and
 *    384 nodes. The last group may hold 1 to 6 chassis.
 *  - An Aries has 48 tiles in a 6 x 8 matrix: 40 network tiles and 8
 *    processor tiles (row 5); NIC0/NIC1 share four processor tiles and
 *    NIC2/NIC3 the other four.
 *  - rank-1 (green): the chassis backplane joins each Aries to the other 15
 *    of its chassis, one tile per peer.
 *  - rank-2 (black): three tiles from each Aries to its peer (same slot) in
 *    each of the other five chassis of the group, over copper cables.
 *  - rank-3 (optical): 10 tiles per Aries; "the chassis backplane connects
 *    10 global links from each pair of blades to five CXP connectors", so a
 *    12X active optical cable carries 4 tiles and the middle cable of a
 *    blade pair carries two tiles of each blade. Cables are bundled equally
 *    between every pair of groups; cables per pair <= floor(global cables
 *    per group / (groups - 1)); at most 240 cables per group.
 *  - Bandwidth per tile and direction: electrical 14 Gb/s x 3 lanes =
 *    5.25 GB/s; optical 12.5 Gb/s x 3 lanes = 4.6875 GB/s (18.75 GB/s per
 *    4-tile cable, the figure behind Table 3); a processor tile injects one
 *    48-bit flit per 875 MHz cycle = 5.25 GB/s.
 *
 *  - Service blades: an XC's service nodes (boot, SDB, login, I/O
 *    routers) sit on blades of their own among the compute blades, the
 *    first of them at c0-0c0s0 (xtprocadmin of Piz Daint and Edison: nids
 *    1-2, c0-0c0s0n1-n2, "service"; Edison's c0-0c0s1 and s2 too;
 *    repo:jeffhammond/HPCInfo docs/Cray.md and a script quoting Piz
 *    Daint's, docs/topologies.md). Their Aries routes like any other; their
 *    slots hold no compute node, so no NIC of the model: `service_blades`
 *    lists them, and compute nodes fill the other slots in cname order.
 *
 * Not public, so assumed (documented in docs/topologies.md): which tile
 * numbers serve which rank (here 0-14 green, 15-29 black, 30-39 optical,
 * 40-47 processor), which connector of a group serves which other group
 * (round-robin over chassis, then blade pairs, then connectors, so every
 * bundle is spread over the group), and cable lengths (backplane 0.5 m,
 * copper 2 m, optical 10 m; the paper bounds copper at ~3 m and optical at
 * 35 m).
 */
#include "topo/builders.h"

#include <stddef.h>

#include "core/idlist.h"
#include "core/config.h"
#include "core/time.h"

enum {
    ARIES_CHASSIS = 6,      /* chassis per group */
    ARIES_SLOTS = 16,       /* blades (Aries) per chassis */
    ARIES_NODES = 4,        /* nodes per Aries */
    ARIES_TILES = 48,
    ARIES_GREEN0 = 0,       /* tiles 0..14: rank-1 */
    ARIES_BLACK0 = 15,      /* tiles 15..29: rank-2, 3 per peer chassis */
    ARIES_OPT0 = 30,        /* tiles 30..39: rank-3 */
    ARIES_OPT_TILES = 10,
    ARIES_PROC0 = 40,       /* tiles 40..47: processor */
    ARIES_TILES_PER_CABLE = 4,
    ARIES_CONNECTORS = ARIES_SLOTS / 2 * 5, /* optical connectors per chassis */
};

#define ARIES_ELECTRICAL_GBPS 5.25
#define ARIES_OPTICAL_GBPS 4.6875
#define ARIES_PROC_GBPS 5.25

static void aries_defaults(union topo_params *u)
{
    struct aries_params *p = &u->aries;
    p->groups = 2;
    p->chassis_last = ARIES_CHASSIS;
    p->cables_per_pair = 12;
    p->nodes = 0;
    p->cabinets_per_row = 12; /* rows of 12 cabinets as in Figure 16 */
    p->service_blades = NULL;
}

static const struct cfg_key aries_keys[] = {
    { .name = "groups", .type = CFG_UINT32,
      .offset = offsetof(struct aries_params, groups), .min = 1, .max = 241,
      .help = "two-cabinet groups (the XC limit is 241)" },
    { .name = "chassis_last", .type = CFG_UINT32,
      .offset = offsetof(struct aries_params, chassis_last), .min = 1,
      .max = 6, .help = "chassis in the last group (1..6; 6 = full)" },
    { .name = "cables_per_pair", .type = CFG_UINT32,
      .offset = offsetof(struct aries_params, cables_per_pair), .min = 0,
      .max = 240,
      .help = "optical cables between each pair of groups (4 tiles each)" },
    { .name = "nodes", .type = CFG_UINT32,
      .offset = offsetof(struct aries_params, nodes), .min = 0,
      .max = 241 * 384, .help = "populated nodes, in cname order (0 = all)" },
    { .name = "cabinets_per_row", .type = CFG_UINT32,
      .offset = offsetof(struct aries_params, cabinets_per_row), .min = 1,
      .max = 64, .help = "cabinets per row, for cnames c<col>-<row>" },
    { .name = "service_blades", .type = CFG_STRING,
      .offset = offsetof(struct aries_params, service_blades),
      .help = "blades whose slots hold service nodes, not compute nodes: "
              "blade ids like \"0,48-49\" (group x 96 + chassis x 16 + "
              "slot, cname order); compute nodes fill the other slots "
              "(none)" },
    { .name = NULL },
};

/* Router id of (group, chassis, slot). */
static uint32_t rid(uint32_t g, uint32_t c, uint32_t s)
{
    return (g * ARIES_CHASSIS + c) * ARIES_SLOTS + s;
}

/* The 4 tiles of optical connector `slot` of group g, as port ids. A
 * connector index runs over chassis first, then blade pairs, then the five
 * connectors of a blade pair. */
static void connector_tiles(const struct topo *t, uint32_t g, uint32_t nch,
                            uint32_t slot, uint32_t out[4])
{
    uint32_t chassis = slot % nch;
    uint32_t pair = (slot / nch) % (ARIES_SLOTS / 2);
    uint32_t conn = slot / (nch * (ARIES_SLOTS / 2)); /* 0..4 */
    for (uint32_t k = 0; k < ARIES_TILES_PER_CABLE; k++) {
        uint32_t tile20 = conn * ARIES_TILES_PER_CABLE + k; /* 0..19 */
        uint32_t blade = 2 * pair + tile20 / ARIES_OPT_TILES;
        uint32_t r = rid(g, chassis, blade);
        out[k] = t->routers[r].first_port + ARIES_OPT0 +
                 tile20 % ARIES_OPT_TILES;
    }
}

/* Mark the service blades of p in `service` (routers entries); the
 * count, or -1 with the error reported. */
static int64_t read_service_blades(const struct aries_params *p,
                                   uint32_t routers, uint8_t *service,
                                   struct diag *d, const struct topo_where *w)
{
    const char *key = "system.service_blades";
    const char *s = p->service_blades, *at = s;
    if (!s)
        return 0;
    int64_t n = 0;
    uint64_t a, b;
    enum idlist_status st;
    while ((st = idlist_next(&at, &a, &b)) == IDLIST_RANGE) {
        if (b >= routers) {
            topo_param_error(d, w, key,
                             "blade %llu in \"%s\": this system has blades "
                             "0 to %u (cname order: group x 96 + chassis x "
                             "16 + slot)",
                             (unsigned long long)b, s, routers - 1);
            return -1;
        }
        for (uint64_t r = a; r <= b; r++) {
            n += !service[r];
            service[r] = 1;
        }
    }
    if (st != IDLIST_END) {
        topo_param_error(d, w, key,
                         "\"%s\" at \"%s\": expected blade ids and ranges "
                         "like \"0,48-49\" (first <= last, separated by "
                         "commas)",
                         s, at);
        return -1;
    }
    return n;
}

/* The ports' media and the rank-1 (backplane), rank-2 (copper) and rank-3
 * (optical) links. */
static void aries_cable(struct topo *t, const struct aries_params *p,
                        uint32_t routers)
{
    uint32_t G = p->groups, last = p->chassis_last;
    uint64_t elec = topo_GBps(ARIES_ELECTRICAL_GBPS);
    for (uint32_t r = 0; r < routers; r++) {
        struct topo_router *rt = &t->routers[r];
        rt->group = r / (ARIES_CHASSIS * ARIES_SLOTS);
        rt->pos[0] = (uint16_t)(r / ARIES_SLOTS % ARIES_CHASSIS);
        rt->pos[1] = (uint16_t)(r % ARIES_SLOTS);
        uint32_t nch = rt->group == G - 1 ? last : ARIES_CHASSIS;
        for (uint32_t i = 0; i < ARIES_SLOTS - 1; i++)
            topo_port_set(t, rt->first_port + ARIES_GREEN0 + i,
                          PORT_ARIES_GREEN, MEDIUM_BACKPLANE, elec,
                          topo_wire_ps(0.5));
        for (uint32_t i = 0; i < 3 * (nch - 1); i++)
            topo_port_set(t, rt->first_port + ARIES_BLACK0 + i,
                          PORT_ARIES_BLACK, MEDIUM_COPPER, elec,
                          topo_wire_ps(2.0));
        for (uint32_t i = 0; i < 8; i++)
            topo_port_set(t, rt->first_port + ARIES_PROC0 + i,
                          PORT_ARIES_PROC, MEDIUM_ONCHIP,
                          topo_GBps(ARIES_PROC_GBPS), 0);
    }

    /* rank-1 and rank-2 inside each group */
    for (uint32_t r = 0; r < routers; r++) {
        const struct topo_router *rt = &t->routers[r];
        uint32_t g = rt->group, c = rt->pos[0], s = rt->pos[1];
        uint32_t nch = g == G - 1 ? last : ARIES_CHASSIS;
        /* rank-1: the backplane joins every pair of the chassis's 16 Aries,
         * one tile each; rank-2: three tiles from each Aries to its peer in
         * the same slot of every other chassis (white paper, "Dragonfly
         * Implementation for the Cray XC Series") */
        for (uint32_t s2 = s + 1; s2 < ARIES_SLOTS; s2++) {
            uint32_t r2 = rid(g, c, s2);
            topo_link(t, rt->first_port + ARIES_GREEN0 + (s2 - 1),
                      t->routers[r2].first_port + ARIES_GREEN0 + s);
        }
        for (uint32_t c2 = c + 1; c2 < nch; c2++) {
            uint32_t r2 = rid(g, c2, s);
            for (uint32_t k = 0; k < 3; k++)
                topo_link(t, rt->first_port + ARIES_BLACK0 + 3 * (c2 - 1) + k,
                          t->routers[r2].first_port + ARIES_BLACK0 + 3 * c + k);
        }
    }

    /* rank-3: bundles between every pair of groups */
    uint64_t opt = topo_GBps(ARIES_OPTICAL_GBPS);
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = a + 1; b < G; b++)
            for (uint32_t m = 0; m < p->cables_per_pair; m++) {
                uint32_t ta[4], tb[4];
                connector_tiles(t, a, a == G - 1 ? last : ARIES_CHASSIS,
                                topo_bundle_slot(a, b, m, G), ta);
                connector_tiles(t, b, b == G - 1 ? last : ARIES_CHASSIS,
                                topo_bundle_slot(b, a, m, G), tb);
                for (uint32_t k = 0; k < 4; k++) {
                    topo_port_set(t, ta[k], PORT_ARIES_OPTICAL, MEDIUM_OPTICAL,
                                  opt, topo_wire_ps(10.0));
                    topo_port_set(t, tb[k], PORT_ARIES_OPTICAL, MEDIUM_OPTICAL,
                                  opt, topo_wire_ps(10.0));
                    topo_link(t, ta[k], tb[k]);
                }
            }
}

static void aries_attach(struct topo *t, const uint8_t *service,
                         uint32_t nodes)
{
    /* nodes and NICs: one NIC per node, populated in cname order on the
     * compute blades */
    for (uint32_t n = 0, r = 0, slot = 0; n < nodes; n++) {
        while (service[r])
            r++;
        struct topo_router *rt = &t->routers[r];
        if (rt->n_nics == 0)
            rt->first_nic = n;
        rt->n_nics++;
        t->nodes[n] = (struct topo_node){ .nic = { n }, .n_nics = 1,
                                          .slot = (uint16_t)slot };
        /* "four of the processor tiles are shared between NIC0 and NIC1, the
         * other four are shared between NIC2 and NIC3" (white paper, "Aries
         * Router"): nodes 2k and 2k + 1 of a blade inject on the same four */
        uint32_t first = rt->first_port + ARIES_PROC0 + 4 * (slot / 2);
        t->nics[n] = (struct topo_nic){ .router = r, .node = n,
                                        .first_port = first, .n_ports = 4,
                                        .index = (uint16_t)slot };
        if (slot % 2 == 0)
            for (uint32_t k = 0; k < 4; k++)
                t->ports[first + k].nic = n;
        if (++slot == ARIES_NODES)
            slot = 0, r++;
    }
}

static int aries_build(struct topo *t, const union topo_params *u,
                       struct diag *d, const struct topo_where *w)
{
    const struct aries_params *p = &u->aries;
    uint32_t G = p->groups, last = p->chassis_last;
    uint32_t routers = (G - 1) * ARIES_CHASSIS * ARIES_SLOTS +
                       last * ARIES_SLOTS;
    uint8_t *service = arena_calloc(&t->arena, routers, 1, 0);
    if (!service)
        return -1;
    int64_t n_service = read_service_blades(p, routers, service, d, w);
    if (n_service < 0)
        return -1;
    uint32_t slots = (routers - (uint32_t)n_service) * ARIES_NODES;
    uint32_t nodes = p->nodes ? p->nodes : slots;

    if (nodes > slots) {
        topo_param_error(d, w, "system.nodes",
                   "%u nodes do not fit: %u groups (last with %u chassis) "
                   "hold %u node slots%s",
                   nodes, G, last, slots,
                   n_service ? " besides the service blades'" : "");
        return -1;
    }
    if (G == 1 && p->cables_per_pair != 0) {
        topo_param_error(d, w, "system.cables_per_pair",
                   "a one-group system has no optical cables; expected 0");
        return -1;
    }
    uint32_t max_per_pair =
        G > 1 ? last * ARIES_CONNECTORS / (G - 1) : 0; /* smallest group */
    if (G > 1 && (p->cables_per_pair == 0 ||
                  p->cables_per_pair > max_per_pair)) {
        topo_param_error(d, w, "system.cables_per_pair",
                   "%u cables between each pair of %u groups; expected 1 to "
                   "%u (floor(%u optical connectors per group / %u other "
                   "groups))",
                   p->cables_per_pair, G, max_per_pair,
                   last * ARIES_CONNECTORS, G - 1);
        return -1;
    }

    t->n_groups = G;
    t->routers_per_group = ARIES_CHASSIS * ARIES_SLOTS;
    t->global_cables = p->cables_per_pair * G * (G - 1) / 2;
    if (topo_alloc(t, routers, ARIES_TILES, nodes, nodes) != 0)
        return -1;

    aries_cable(t, p, routers);
    aries_attach(t, service, nodes);
    return 0;
}

void aries_router_name(const struct topo *t, uint32_t r, char *buf,
                       size_t cap)
{
    const struct topo_router *rt = &t->routers[r];
    uint32_t cab = 2 * rt->group + rt->pos[0] / 3u;
    uint32_t cpr = t->p.aries.cabinets_per_row ? t->p.aries.cabinets_per_row
                                               : 12;
    snprintf(buf, cap, "c%u-%uc%us%ua0", cab % cpr, cab / cpr,
             rt->pos[0] % 3u, rt->pos[1]);
}

/* ---- the family ------------------------------------------------------ */

static void aries_hw(struct topo_hw *hw)
{
    /* XC white paper, "Aries Performance": 48-bit flits; a 64 B PUT is 14
     * request flits + 1 response flit, a GET 3 + 12. So a request header
     * is 3 flits, a response header 1, and data ceil(n/6). */
    hw->flit_bytes = 6;
    hw->max_payload = 64;
    hw->req_header = 3;
    hw->rsp_header = 1;
    /* "a 64-byte read or write every five cycles" at 800 MHz */
    hw->nic_gap = time_from_cycles(5, TIME_HZ_ARIES_NIC);
    /* "the NIC can transmit one flit per clock cycle" (SC'19 §2.1): its
     * requests and responses leave by one path, a 16-byte NIC flit per
     * 800 MHz cycle (XC white paper: with symmetric traffic "requests and
     * responses share data paths", ~8 GB/s each way) */
    hw->nic_flit_time = time_from_cycles(1, TIME_HZ_ARIES_NIC);
    /* "each router-to-router hop adds approximately 100ns" */
    hw->router_delay = 100 * SIMTIME_NS;
    /* Buffer sizes are not public. The white paper: input buffering
     * covers the round trip of a 35 m optical cable so that one VC
     * reaches full bandwidth. Round trip = 2 x wire + router delay:
     * 35 m -> 450 ns = 355 flits at 5.25 GB/s x 9/10 -> 384; a 3 m
     * copper or backplane link -> 130 ns = 103 flits -> 128. */
    hw->buf_local = 128;
    hw->buf_global = 384;
    hw->buf_endpoint = 128;
    /* "distributes the information to its neighbors every 10 cycles" */
    hw->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
    /* LCB: ten flits per set, one of them CRC/clock/load: 9/10 */
    hw->link_eff_num = 9;
    hw->link_eff_den = 10;
    /* "The router tiles are arranged in a 6 x 8 matrix" (white paper);
     * tile i at row i / 8, column i % 8 (above) */
    hw->tile_columns = 8;
}

/* Allocation's levels: router, chassis (16 Aries of a backplane: pos[0]
 * is the chassis in the group), group. */
static uint32_t aries_level_key(const struct topo *t, uint32_t r, int level)
{
    const struct topo_router *rt = &t->routers[r];
    return level == 0   ? r
           : level == 1 ? rt->group * t->routers_per_group + rt->pos[0]
                        : rt->group;
}

static uint32_t aries_level_size(const struct topo *t, int level)
{
    return level == 0   ? t->n_routers
           : level == 1 ? t->n_groups * t->routers_per_group
                        : t->n_groups;
}

static const struct topo_family aries_family = {
    .name = "aries",
    .id = TOPO_ARIES,
    .shape = TOPO_SHAPE_DRAGONFLY,
    .router_name = "Aries",
    .route_vcs = 4,
    .route_vcs_why = "a dragonfly's route segments need",
    .routing = "ADAPTIVE_0",        /* Cray MPI's default (SC'19 §2.2) */
    .congestion_control = "none",   /* SC'20 §III measures Crystal
                                       without one */
    .counters = "aries",
    .mpi_stack = "ugni",
    .traffic_classes = false,       /* its VCs are requests, responses
                                       and route segments */
    .chassis = true,
    .group_word = "group",
    .hw = aries_hw,
    .level_key = aries_level_key,
    .level_size = aries_level_size,
};

const struct topo_builder topo_builder_aries = {
    .base = { .name = "aries",
              .help = "Cray XC dragonfly: Aries routers, 6x16 groups, "
                      "rank-1/2/3 tiles (XC white paper)" },
    .family = &aries_family,
    .params = aries_keys,
    .defaults = aries_defaults,
    .build = aries_build,
};
