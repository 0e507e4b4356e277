/* topo/torus.c — the Cray Gemini 3-D torus (XE6/XK7).
 *
 * Source: K. Pedretti et al., "Using the Gemini Performance Counters", CUG
 * 2013, §III: a Gemini has 48 tiles, 40 network tiles and 8 host tiles,
 * and serves two nodes; X and Z logical links are 8 tiles, Y links 4 tiles;
 * per-tile bandwidth by link type (Table II). Fig. 3 gives the tile-to-link
 * map of a Cielo node, used here for every Gemini; Fig. 2 gives the
 * geometry: z = chassis * 8 + slot (Z+ from c0-0c0s0 reaches c0-0c0s1, Z−
 * from slot 0 of chassis 0 wraps to c0-0c2s7 by cable), X runs over
 * cabinet columns folded so that neighbours are at most two cabinets apart
 * (c0 → x 0, c1 → x 1, c2 → x 15 in a 16-wide torus), and Y over the two
 * Geminis of a blade (mezzanine) and cabinet rows (cable). Link types: X all
 * cable; Y alternates mezzanine (within a board) and cable; Z backplane
 * within a cage and cable every eighth link (between cages).
 *
 * Tile rates: the paper's Table II rounds them to 2.34 / 1.88 / 1.17 GB/s;
 * its Fig. 4 prints logical-link speeds of 9.38 and 4.69 GB/s, i.e. the
 * lane-derived values 6.25, 5.0 and 3.125 Gb/s x 3 lanes / 8 = 2.34375,
 * 1.875 and 1.171875 GB/s that LDMS's gemini.h also uses; those are used
 * here. Host tiles: 1.33 GB/s (Table II, "est."). Each NIC uses 4 of the 8
 * host tiles. Cable lengths assumed: mezzanine 0.1 m, backplane 0.5 m,
 * cable 3 m.
 */
#include "topo/builders.h"

#include <stddef.h>

#include "core/config.h"
#include "core/time.h"

enum { GEMINI_TILES = 48, GEMINI_NODES = 2, GEMINI_HOST_TILES = 8 };

/* Pedretti et al. Fig. 3: tile number -> logical link. */
static const uint8_t tile_kind[GEMINI_TILES] = {
#define ZP PORT_TORUS_ZP
#define ZM PORT_TORUS_ZM
#define XP PORT_TORUS_XP
#define XM PORT_TORUS_XM
#define YP PORT_TORUS_YP
#define YM PORT_TORUS_YM
#define HH PORT_TORUS_HOST
    ZP, ZP, XP, XP, XM, XM, ZM, ZM, /* tiles 0-7 */
    ZP, ZP, XP, XP, XM, XM, ZM, ZM, /* 8-15 */
    ZM, ZM, ZM, HH, HH, ZP, ZP, ZP, /* 16-23 */
    XP, XP, ZM, HH, HH, ZP, XM, XM, /* 24-31 */
    XP, XP, YM, HH, HH, YP, XM, XM, /* 32-39 */
    YM, YM, YM, HH, HH, YP, YP, YP, /* 40-47 */
#undef ZP
#undef ZM
#undef XP
#undef XM
#undef YP
#undef YM
#undef HH
};

static void torus_defaults(union topo_params *u)
{
    u->torus.x = 4;
    u->torus.y = 4;
    u->torus.z = 4;
}

static const struct cfg_key torus_keys[] = {
    { .name = "x", .type = CFG_UINT32, .offset = offsetof(struct torus_params, x),
      .min = 1, .max = 256, .help = "Geminis along X (cabinet columns)" },
    { .name = "y", .type = CFG_UINT32, .offset = offsetof(struct torus_params, y),
      .min = 1, .max = 256, .help = "Geminis along Y (2 per cabinet row)" },
    { .name = "z", .type = CFG_UINT32, .offset = offsetof(struct torus_params, z),
      .min = 1, .max = 256, .help = "Geminis along Z (8 slots per chassis)" },
    { .name = NULL },
};

/* Port order on a Gemini: the 8 host tiles first (NIC0's 4, NIC1's 4),
 * then the 40 network tiles by tile number; port.index keeps the tile. */
static void tile_order(uint8_t order[GEMINI_TILES])
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < GEMINI_TILES; i++)
        if (tile_kind[i] == PORT_TORUS_HOST)
            order[n++] = (uint8_t)i;
    for (uint32_t i = 0; i < GEMINI_TILES; i++)
        if (tile_kind[i] != PORT_TORUS_HOST)
            order[n++] = (uint8_t)i;
}

static enum link_medium medium_of(uint32_t dim, uint32_t from, uint32_t k)
{
    /* Pedretti et al. Fig. 2: X runs over cabinets (cables); Y pairs the
     * two Geminis of a blade over the mezzanine, then goes by cable between
     * cabinet rows; Z runs along a cage's backplane, by cable every eighth
     * link (between cages); the wrap-around link is always a cable */
    bool wrap = from + 1 == k;
    switch (dim) {
    case 0: return MEDIUM_CABLE;
    case 1: return !wrap && from % 2 == 0 ? MEDIUM_MEZZANINE : MEDIUM_CABLE;
    default: return !wrap && from % 8 != 7 ? MEDIUM_BACKPLANE : MEDIUM_CABLE;
    }
}

static uint64_t medium_bw(enum link_medium m)
{
    switch (m) {
    /* per tile: the lane rate (Gb/s) x 3 lanes / 8 bits, as LDMS's gemini.h
     * and the logical-link speeds of Pedretti et al. Fig. 4 (9.38, 4.69
     * GB/s) have it; a host tile 1.33 GB/s (Table II, "est.") */
    case MEDIUM_MEZZANINE: return topo_GBps(6.25 * 3 / 8);
    case MEDIUM_BACKPLANE: return topo_GBps(5.0 * 3 / 8);
    case MEDIUM_CABLE: return topo_GBps(3.125 * 3 / 8);
    default: return topo_GBps(1.33);
    }
}

static uint32_t medium_ps(enum link_medium m)
{
    switch (m) {
    case MEDIUM_MEZZANINE: return topo_wire_ps(0.1);
    case MEDIUM_BACKPLANE: return topo_wire_ps(0.5);
    case MEDIUM_CABLE: return topo_wire_ps(3.0);
    default: return 0;
    }
}

static int torus_build(struct topo *t, const union topo_params *u,
                       struct diag *d, const struct topo_where *w)
{
    const struct torus_params *p = &u->torus;
    uint32_t dims[3] = { p->x, p->y, p->z };
    uint32_t routers = p->x * p->y * p->z;
    if ((uint64_t)routers * GEMINI_TILES >= TOPO_NONE) {
        topo_param_error(d, w, "system", "torus too large");
        return -1;
    }
    t->n_groups = 1;
    t->routers_per_group = routers;
    if (topo_alloc(t, routers, GEMINI_TILES, routers * GEMINI_NODES,
                   routers * GEMINI_NODES) != 0)
        return -1;

    uint8_t order[GEMINI_TILES];
    tile_order(order);
    for (uint32_t r = 0; r < routers; r++) {
        struct topo_router *rt = &t->routers[r];
        rt->pos[0] = (uint16_t)(r % p->x);
        rt->pos[1] = (uint16_t)(r / p->x % p->y);
        rt->pos[2] = (uint16_t)(r / (p->x * p->y));
        for (uint32_t i = 0; i < GEMINI_TILES; i++) {
            struct topo_port *pt = &t->ports[rt->first_port + i];
            pt->index = order[i];
            if (tile_kind[order[i]] == PORT_TORUS_HOST)
                topo_port_set(t, rt->first_port + i, PORT_TORUS_HOST,
                              MEDIUM_ONCHIP, medium_bw(MEDIUM_ONCHIP), 0);
        }
        rt->first_nic = r * GEMINI_NODES;
        rt->n_nics = GEMINI_NODES;
        for (uint32_t j = 0; j < GEMINI_NODES; j++) {
            uint32_t n = r * GEMINI_NODES + j;
            /* slot: Gemini g0 of a blade serves n0, n1; g1 serves n2, n3 */
            uint16_t slot = (uint16_t)(2 * (rt->pos[1] % 2) + j);
            t->nics[n] = (struct topo_nic){
                .router = r, .node = n,
                .first_port = rt->first_port + j * 4, .n_ports = 4,
                .index = (uint16_t)j };
            t->nodes[n] = (struct topo_node){ .nic = { n }, .n_nics = 1,
                                              .slot = slot };
            for (uint32_t k = 0; k < 4; k++)
                t->ports[rt->first_port + j * 4 + k].nic = n;
        }
    }
    /* Links: the k-th "+" tile of a Gemini joins the k-th "-" tile of its
     * neighbour, k in tile-number order. */
    for (uint32_t r = 0; r < routers; r++) {
        const struct topo_router *rt = &t->routers[r];
        for (uint32_t dim = 0; dim < 3; dim++) {
            if (dims[dim] < 2)
                continue;
            uint32_t c[3] = { rt->pos[0], rt->pos[1], rt->pos[2] };
            uint32_t from = c[dim];
            c[dim] = (c[dim] + 1) % dims[dim];
            uint32_t nb = c[0] + p->x * (c[1] + p->y * c[2]);
            enum port_kind plus = (enum port_kind)(PORT_TORUS_XP + 2 * dim);
            enum link_medium med = medium_of(dim, from, dims[dim]);
            uint32_t pa[8], pb[8], na = 0, nb_n = 0;
            const struct topo_router *rn = &t->routers[nb];
            for (uint32_t i = 0; i < GEMINI_TILES; i++) {
                if (tile_kind[order[i]] == plus && na < 8)
                    pa[na++] = rt->first_port + i;
                if (tile_kind[order[i]] == plus + 1 && nb_n < 8)
                    pb[nb_n++] = rn->first_port + i;
            }
            /* a logical link is its tiles in parallel (X and Z 8, Y 4),
             * each a link of its own, which dimension-order routing picks
             * among by load */
            for (uint32_t k = 0; k < na && k < nb_n; k++) {
                topo_port_set(t, pa[k], plus, med, medium_bw(med),
                              medium_ps(med));
                topo_port_set(t, pb[k], plus + 1, med, medium_bw(med),
                              medium_ps(med));
                topo_link(t, pa[k], pb[k]);
            }
        }
    }
    (void)d;
    (void)w;
    return 0;
}

/* Physical cabinet column of torus coordinate x (inverse of the fold of
 * Fig. 2: column 0 -> x 0, odd column i -> x (i+1)/2, even column i > 0 ->
 * x k - i/2). */
static uint32_t column_of_x(uint32_t x, uint32_t k)
{
    if (x == 0)
        return 0;
    if (x <= k / 2)
        return 2 * x - 1 < k ? 2 * x - 1 : 2 * (k - x);
    return 2 * (k - x);
}

void torus_router_name(const struct topo *t, uint32_t r, char *buf,
                       size_t cap)
{
    const struct topo_router *rt = &t->routers[r];
    uint32_t x = rt->pos[0], y = rt->pos[1], z = rt->pos[2];
    snprintf(buf, cap, "c%u-%uc%us%ug%u", column_of_x(x, t->p.torus.x), y / 2,
             z / 8, z % 8, y % 2);
}

/* ---- the family ------------------------------------------------------ */

static void torus_hw(struct topo_hw *hw)
{
    /* Pedretti et al. §V: 3-byte phits; a 64 B PUT is a 32-phit request
     * + 3-phit response, a GET 8 + 27. So a request header is 8 phits, a
     * response header 3, and 64 B of data 24 phits (72 B on the wire: we
     * scale data by 9/8). */
    hw->flit_bytes = 3;
    hw->max_payload = 64;
    hw->req_header = 8;
    hw->rsp_header = 3;
    hw->expand_num = 9;
    hw->expand_den = 8;
    hw->nic_gap = 0;                     /* not public: link-limited */
    hw->router_delay = 100 * SIMTIME_NS; /* not in our sources */
    hw->vcs = 2;                         /* dateline pair per class */
    /* Gemini's router is a 48-tile YARC-like router (Alverson et al.,
     * HOTI 2010): 6 x 8 tiles, as Aries */
    hw->tile_columns = 8;
    hw->buf_local = 256; /* round trip ~160 ns at 0.64 ns/phit */
    hw->buf_global = 256;
    hw->buf_endpoint = 256;
    hw->publish_period = 0;
}

/* Allocation's levels on a Gemini torus: router, chassis (a cabinet's 8
 * slots along z), cabinet = (x, y / 2): two Geminis of a blade are y,
 * y + 1. */
static uint32_t torus_level_key(const struct topo *t, uint32_t r, int level)
{
    const struct topo_router *rt = &t->routers[r];
    if (level == 0)
        return r;
    uint32_t X = t->p.torus.x, Yc = (t->p.torus.y + 1) / 2;
    uint32_t cab = rt->pos[0] + X * (rt->pos[1] / 2u);
    return level == 1 ? cab + X * Yc * (rt->pos[2] / 8u) : cab;
}

static uint32_t torus_level_size(const struct topo *t, int level)
{
    if (level == 0)
        return t->n_routers;
    uint32_t X = t->p.torus.x, Yc = (t->p.torus.y + 1) / 2;
    uint32_t Zc = (t->p.torus.z + 7) / 8;
    return level == 1 ? X * Yc * Zc : X * Yc;
}

static const struct topo_family torus_family = {
    .name = "torus",
    .id = TOPO_TORUS,
    .shape = TOPO_SHAPE_TORUS,
    .router_name = "Gemini",
    .route_vcs = 2,
    .route_vcs_why = "the torus's datelines need",
    .routing = "DOR",
    .congestion_control = "none",
    .counters = "gemini",
    .mpi_stack = "ugni",
    .traffic_classes = false,
    .chassis = true,
    .group_word = "cabinet",
    .hw = torus_hw,
    .level_key = torus_level_key,
    .level_size = torus_level_size,
};

const struct topo_builder topo_builder_torus = {
    .base = { .name = "torus",
              .help = "Cray Gemini 3-D torus: 48 tiles, two nodes per "
                      "Gemini (Pedretti et al., CUG)" },
    .family = &torus_family,
    .params = torus_keys,
    .defaults = torus_defaults,
    .build = torus_build,
};
