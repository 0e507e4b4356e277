/* topo/systems.c — named built-in systems: a builder and its parameters,
 * with where the figures come from and what had to be assumed. Adding a
 * system is adding a block here and a line in topo/systems.def.
 */
#include "topo/builders.h"

#define SYSTEM(id, str, bld, desc)                                           \
    const struct topo_system topo_system_##id = {                            \
        .base = { .name = str, .help = desc },                               \
        .builder = &topo_builder_##bld,                                      \
        .description = desc,                                                 \
        .set = set_##id,                                                     \
    }

/* ---- Cray XC (Aries) ---------------------------------------------------- */

/* XC white paper, "Cray XC Series Configuration", Tables 2 and 3: a
 * 12-cabinet (6-group) system with bundles of 12 optical cables (180 cables,
 * bisection 4050 GB/s) and the full network (48 per pair, 720 cables,
 * 16200 GB/s); 16 cabinets (8 groups) with 12 per pair (336 cables, 7200
 * GB/s) and full (34 per pair = floor(240/7), 952 cables, 20400 GB/s). */
static void set_xc_12cab(union topo_params *p)
{
    p->aries.groups = 6;
    p->aries.cables_per_pair = 12;
}
SYSTEM(xc_12cab, "xc-12cab", aries,
       "Cray XC, 12 cabinets = 6 groups x 384 nodes, 12 optical cables per "
       "group pair (XC white paper, Tables 2-3)");

static void set_xc_12cab_full(union topo_params *p)
{
    p->aries.groups = 6;
    p->aries.cables_per_pair = 48;
}
SYSTEM(xc_12cab_full, "xc-12cab-full", aries,
       "Cray XC, 12 cabinets = 6 groups, full global bandwidth: 48 cables "
       "per pair, 240 per group (XC white paper, Table 3)");

static void set_xc_16cab(union topo_params *p)
{
    p->aries.groups = 8;
    p->aries.cables_per_pair = 12;
}
SYSTEM(xc_16cab, "xc-16cab", aries,
       "Cray XC, 16 cabinets = 8 groups x 384 nodes, 12 optical cables per "
       "group pair (XC white paper, Tables 2-3)");

static void set_xc_16cab_full(union topo_params *p)
{
    p->aries.groups = 8;
    p->aries.cables_per_pair = 34;
}
SYSTEM(xc_16cab_full, "xc-16cab-full", aries,
       "Cray XC, 16 cabinets = 8 groups, full global bandwidth: 34 = "
       "floor(240/7) cables per pair (XC white paper, Table 3)");

/* SC'20 §III: "Crystal", an Aries system of 698 nodes in two groups of at
 * most 384 nodes. Assumed (not public): group 1 of 5 chassis, so 704 node
 * slots; the first blade, c0-0c0s0, a service blade, as on every XC whose
 * node list is public (Piz Daint's and Edison's boot nodes, topo/aries.c);
 * compute nodes on the other 700 slots but the last two; and the
 * inter-group bundle as large as the rules allow: 198 cables (a multiple of
 * six, for 3-26 cabinet systems, within the 200 connectors of a 5-chassis
 * group). Before the service blade, group 0 held 384 compute nodes, and a
 * 50/50 study of 512 nodes split it exactly at a chassis boundary
 * (docs/congestion.md: "Where the service blades are"). */
static void set_crystal(union topo_params *p)
{
    p->aries.groups = 2;
    p->aries.chassis_last = 5;
    p->aries.nodes = 698;
    p->aries.cables_per_pair = 198;
    p->aries.service_blades = "0";
}
SYSTEM(crystal, "crystal", aries,
       "Aries, 698 nodes in 2 groups (SC'20 Crystal); assumed: 2nd group of "
       "5 chassis, a service blade at c0-0c0s0, 198 optical cables between "
       "the groups");

/* Netscope (ICS'21) §7: "Voltrino", one chassis of 16 Aries (64 nodes);
 * the paper's "240 links" are the 16 x 15 rank-1 tiles. */
static void set_voltrino(union topo_params *p)
{
    p->aries.groups = 1;
    p->aries.chassis_last = 1;
    p->aries.cables_per_pair = 0;
}
SYSTEM(voltrino, "voltrino", aries,
       "Aries, one chassis: 16 routers, 64 nodes, 240 rank-1 tiles "
       "(Netscope's Voltrino)");

/* Netscope (ICS'21) §7: "Cori", 34 groups; its 130,560 links are the
 * 3,264 Aries x 40 network tiles. Assumed: every group full (13,056 node
 * slots; the real machine populates about 12,100 of them with compute
 * nodes) and 7 = floor(240/33) cables per group pair. */
static void set_cori(union topo_params *p)
{
    p->aries.groups = 34;
    p->aries.cables_per_pair = 7;
}
SYSTEM(cori, "cori", aries,
       "Aries, 34 full groups, 3,264 routers (Netscope's Cori); assumed: 7 "
       "optical cables per group pair, all node slots populated");

/* ---- Slingshot (Rosetta) -------------------------------------------- */

/* SC'20 §II-B and §III: "Shandy", 1024 nodes in 8 groups of 128, two
 * ConnectX-5 (100 Gb/s) NICs per node on different switches, hence 16
 * switches per group (Fig. 6: "Dragonfly group, x16 Rosetta switches");
 * 56 global links per group, 8 to each other group; bisection 128 links x
 * 200 Gb/s x 2 = 6.4 TB/s, all-to-all peak 8/7 x 448 x 200 Gb/s = 12.8
 * TB/s. */
static void set_shandy(union topo_params *p)
{
    p->slingshot.groups = 8;
    p->slingshot.switches_per_group = 16;
    p->slingshot.global_per_pair = 8;
    p->slingshot.nics_per_node = 2;
    p->slingshot.edge_gbps = 100.0;
}
SYSTEM(shandy, "shandy", slingshot,
       "Slingshot, 8 groups x 128 nodes, 2 NICs per node, 16 switches per "
       "group, 8 global links per group pair (SC'20 Shandy)");

/* SC'20 §III: "Malbec", 484 nodes, four groups of at most 128 nodes, 48
 * global links between each pair of groups, one ConnectX-5 NIC per node.
 * Assumed: 8 switches per group (128 endpoints), the first 484 slots
 * populated (groups 0-2 full, 100 nodes in group 3). */
static void set_malbec(union topo_params *p)
{
    p->slingshot.groups = 4;
    p->slingshot.switches_per_group = 8;
    p->slingshot.global_per_pair = 48;
    p->slingshot.nodes = 484;
    p->slingshot.edge_gbps = 100.0;
}
SYSTEM(malbec, "malbec", slingshot,
       "Slingshot, 484 nodes in 4 groups, 48 global links per group pair "
       "(SC'20 Malbec); assumed 8 switches per group");

/* SC'20 §II-B, Fig. 3: the largest one-dimensional Slingshot dragonfly:
 * 32 switches per group, 31 local and 17 global ports each, 545 groups,
 * 279,040 endpoints. */
static void set_slingshot_max(union topo_params *p)
{
    p->slingshot.groups = 545;
    p->slingshot.switches_per_group = 32;
    p->slingshot.global_per_pair = 1;
}
SYSTEM(slingshot_max, "slingshot-max", slingshot,
       "Slingshot at its largest: 545 groups x 32 switches, 279,040 "
       "endpoints (SC'20 Fig. 3)");

/* ---- generic dragonfly and torus ------------------------------------ */

/* The balanced dragonfly p = 4, a = 8, h = 4 (a = 2p = 2h, Kim et al.
 * ISCA'08): 33 groups, 264 routers, 1,056 nodes — the configuration often
 * simulated with BookSim and SST. */
static void set_df1056(union topo_params *p)
{
    p->dragonfly.p = 4;
    p->dragonfly.a = 8;
    p->dragonfly.h = 4;
}
SYSTEM(df1056, "df1056", dragonfly,
       "Kim-Dally dragonfly p=4, a=8, h=4: 33 groups, 264 routers, 1,056 "
       "nodes");

/* Pedretti et al. (CUG) Fig. 2: Cielo, a 16 x 12 x 24 Gemini torus, 4,608
 * Geminis and 9,216 nodes. */
static void set_cielo(union topo_params *p)
{
    p->torus.x = 16;
    p->torus.y = 12;
    p->torus.z = 24;
}
SYSTEM(cielo, "cielo", torus,
       "Cray XE6 Cielo: Gemini 3-D torus 16x12x24, 4,608 Geminis, 9,216 "
       "nodes (Pedretti et al., CUG)");
