/* topo/slingshot.c — the HPE Slingshot dragonfly built from Rosetta
 * switches.
 *
 * Source: De Sensi et al., "An In-Depth Analysis of the Slingshot
 * Interconnect", SC'20, §II-A and §II-B, §III (systems):
 *  - a Rosetta switch has 64 ports of 200 Gb/s per direction;
 *  - each switch is connected to 16 endpoints over copper (up to 2.6 m) and
 *    uses the other 48 ports for switch-to-switch links; the switches of a
 *    group are always fully connected (copper), groups are fully connected
 *    by optical cables (up to 100 m); diameter 3 switch-to-switch hops;
 *  - the largest one-dimensional dragonfly: 32 switches per group (31
 *    local ports, 17 global ports each), 545 groups, 279,040 endpoints.
 *
 * Global links are spread over all switches of a group: the c-th global
 * connector of a group is on switch c mod S (so with 56 links over 16
 * switches, eight switches carry four and eight carry three). Which
 * connector serves which other group follows topo_bundle_slot(). Ports of a
 * switch: edge ports first, then local ports (local_per_pair per peer
 * switch), then global ports; the rest are unused. Dual-NIC nodes (Shandy)
 * put their two NICs on two switches of the same group, at the same edge
 * port. Cable lengths assumed: copper 2 m, optical 30 m.
 */
#include "topo/builders.h"

#include <stddef.h>

#include "core/config.h"
#include "core/time.h"

enum { ROSETTA_PORTS = 64 };

static void slingshot_defaults(union topo_params *u)
{
    struct slingshot_params *p = &u->slingshot;
    p->groups = 2;
    p->switches_per_group = 32;
    p->endpoints_per_switch = 16;
    p->global_per_pair = 1;
    p->local_per_pair = 1;
    p->nics_per_node = 1;
    p->nodes = 0;
    p->port_gbps = 200.0; /* SC'20 §II-A */
    p->edge_gbps = 200.0;
}

static const struct cfg_key slingshot_keys[] = {
    { .name = "groups", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, groups), .min = 1,
      .max = 545, .help = "dragonfly groups (545 at most)" },
    { .name = "switches_per_group", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, switches_per_group),
      .min = 1, .max = 48, .help = "Rosetta switches per group" },
    { .name = "endpoints_per_switch", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, endpoints_per_switch),
      .min = 1, .max = 32, .help = "edge ports cabled to NICs (16)" },
    { .name = "global_per_pair", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, global_per_pair), .min = 0,
      .max = 1536, .help = "global links between each pair of groups" },
    { .name = "local_per_pair", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, local_per_pair), .min = 1,
      .max = 48, .help = "links between two switches of a group" },
    { .name = "nics_per_node", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, nics_per_node), .min = 1,
      .max = 2, .help = "NICs per node, each on its own switch" },
    { .name = "nodes", .type = CFG_UINT32,
      .offset = offsetof(struct slingshot_params, nodes), .min = 0,
      .max = 1u << 20, .help = "populated nodes, in order (0 = all)" },
    { .name = "port_gbps", .type = CFG_FLOAT,
      .offset = offsetof(struct slingshot_params, port_gbps), .fmin = 1,
      .fmax = 1600, .help = "switch-to-switch port rate, Gb/s (200)" },
    { .name = "edge_gbps", .type = CFG_FLOAT,
      .offset = offsetof(struct slingshot_params, edge_gbps), .fmin = 1,
      .fmax = 1600, .help = "NIC link rate, Gb/s (200; 100 for ConnectX-5)" },
    { .name = NULL },
};

static int slingshot_build(struct topo *t, const union topo_params *u,
                           struct diag *d, const struct topo_where *w)
{
    const struct slingshot_params *p = &u->slingshot;
    uint32_t G = p->groups, S = p->switches_per_group;
    uint32_t E = p->endpoints_per_switch, L = p->local_per_pair;
    uint32_t K = p->global_per_pair, nics = p->nics_per_node;
    /* SC'20 §II-B: 16 endpoint ports, the other 48 partitioned "between
     * inter- and intra-group connectivity" by the system's size; here the
     * global links of a group spread evenly over its switches */
    uint32_t gports = G > 1 ? (K * (G - 1) + S - 1) / S : 0; /* per switch */
    uint32_t used = E + L * (S - 1) + gports;

    if (used > ROSETTA_PORTS) {
        topo_param_error(d, w, "system",
                   "a Rosetta switch has %u ports; %u edge + %u local + %u "
                   "global = %u do not fit",
                   ROSETTA_PORTS, E, L * (S - 1), gports, used);
        return -1;
    }
    if ((G > 1) != (K > 0)) {
        topo_param_error(d, w, "system.global_per_pair",
                   "%u groups with %u global links per pair; expected %s", G,
                   K, G > 1 ? "at least 1" : "0 for one group");
        return -1;
    }
    if (S % nics != 0) {
        topo_param_error(d, w, "system.nics_per_node",
                   "%u NICs per node need a multiple of %u switches per "
                   "group, got %u",
                   nics, nics, S);
        return -1;
    }
    uint32_t per_group = S * E / nics;
    uint32_t slots = G * per_group;
    uint32_t nodes = p->nodes ? p->nodes : slots;
    if (nodes > slots) {
        topo_param_error(d, w, "system.nodes",
                   "%u nodes do not fit in %u groups of %u", nodes, G,
                   per_group);
        return -1;
    }

    t->n_groups = G;
    t->routers_per_group = S;
    t->global_cables = K * G * (G - 1) / 2;
    if (topo_alloc(t, G * S, ROSETTA_PORTS, nodes * nics, nodes) != 0)
        return -1;

    uint64_t bw = topo_GBps(p->port_gbps / 8.0);
    uint64_t ebw = topo_GBps(p->edge_gbps / 8.0);
    for (uint32_t r = 0; r < G * S; r++) {
        struct topo_router *rt = &t->routers[r];
        rt->group = r / S;
        rt->pos[0] = (uint16_t)(r % S);
        for (uint32_t i = 0; i < E; i++)
            topo_port_set(t, rt->first_port + i, PORT_SS_EDGE, MEDIUM_COPPER,
                          ebw, topo_wire_ps(2.0));
        for (uint32_t i = 0; i < L * (S - 1); i++)
            topo_port_set(t, rt->first_port + E + i, PORT_SS_LOCAL,
                          MEDIUM_COPPER, bw, topo_wire_ps(2.0));
    }
    for (uint32_t r = 0; r < G * S; r++) {
        uint32_t g = r / S, s = r % S;
        for (uint32_t s2 = s + 1; s2 < S; s2++)
            for (uint32_t l = 0; l < L; l++)
                topo_link(t, t->routers[r].first_port + E + (s2 - 1) * L + l,
                          t->routers[g * S + s2].first_port + E + s * L + l);
    }
    for (uint32_t a = 0; a < G; a++)
        for (uint32_t b = a + 1; b < G; b++)
            for (uint32_t m = 0; m < K; m++) {
                uint32_t ca = topo_bundle_slot(a, b, m, G);
                uint32_t cb = topo_bundle_slot(b, a, m, G);
                /* connector slot c of a group is on switch c mod S, its
                 * (c div S)-th global port: consecutive slots on
                 * consecutive switches */
                uint32_t pa = t->routers[a * S + ca % S].first_port + E +
                              L * (S - 1) + ca / S;
                uint32_t pb = t->routers[b * S + cb % S].first_port + E +
                              L * (S - 1) + cb / S;
                topo_port_set(t, pa, PORT_SS_GLOBAL, MEDIUM_OPTICAL, bw,
                              topo_wire_ps(30.0));
                topo_port_set(t, pb, PORT_SS_GLOBAL, MEDIUM_OPTICAL, bw,
                              topo_wire_ps(30.0));
                topo_link(t, pa, pb);
            }

    /* NICs are numbered switch by switch, edge port by edge port; the node
     * at edge port i of switch s holds local slot (s / nics) * E + i. */
    uint32_t nic = 0;
    for (uint32_t r = 0; r < G * S; r++) {
        struct topo_router *rt = &t->routers[r];
        uint32_t g = r / S, s = r % S;
        rt->first_nic = nic;
        for (uint32_t i = 0; i < E; i++) {
            uint32_t li = (s / nics) * E + i, n = g * per_group + li;
            if (n >= nodes)
                continue;
            uint32_t port = rt->first_port + i;
            struct topo_node *nd = &t->nodes[n];
            nd->nic[s % nics] = nic;
            nd->n_nics = (uint16_t)nics;
            nd->slot = (uint16_t)i;
            t->nics[nic] = (struct topo_nic){ .router = r, .node = n,
                                              .first_port = port,
                                              .n_ports = 1,
                                              .index = (uint16_t)i };
            t->ports[port].nic = nic;
            rt->n_nics++;
            nic++;
        }
    }
    return 0;
}

void slingshot_router_name(const struct topo *t, uint32_t r, char *buf,
                           size_t cap)
{
    snprintf(buf, cap, "g%us%u", t->routers[r].group, t->routers[r].pos[0]);
}

/* ---- the family ------------------------------------------------------ */

static void slingshot_hw(struct topo_hw *hw)
{
    /* SC'20 §II-G: up to 4 KiB of data per packet plus 62 B of Ethernet
     * (26 with preamble), IPv4 (20), UDP (8), IB (14) and RoCEv2 CRC (4).
     * Flits are bytes. A response (end-to-end ack, GET data) carries the
     * same headers. */
    hw->flit_bytes = 1;
    hw->max_payload = 4096;
    hw->req_header = 62;
    hw->rsp_header = 62;
    hw->nic_gap = 0; /* NIC packet rate not public: link-limited */
    /* the NIC's response slots: unbounded here (its NIC model comes with
     * its congestion control) */
    hw->nic_rsp_slots = 0;
    hw->router_delay = 350 * SIMTIME_NS; /* SC'20 §II-A, measured */
    /* Not public. Sized for the round trip at 25 GB/s: 2 x 50 ns +
     * 350 ns = 11 KB locally, longer optical cables 2 x 150 + 350. */
    hw->buf_local = 16384;
    hw->buf_global = 32768;
    hw->buf_endpoint = 16384;
    /* SC'20 §II-A "virtual output-queued architecture" */
    hw->router = "voq";
    hw->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
}

static const struct topo_family slingshot_family = {
    .name = "slingshot",
    .id = TOPO_SLINGSHOT,
    .shape = TOPO_SHAPE_DRAGONFLY,
    .router_name = "Rosetta",
    .route_vcs = 4,
    .route_vcs_why = "a dragonfly's route segments need",
    .routing = "SS_ADAPTIVE",
    .congestion_control = "slingshot", /* on by default (SC'20 §II-D) */
    .counters = "rosetta",
    .mpi_stack = "verbs-rxm",
    .traffic_classes = true,           /* SC'20 §II-E */
    .chassis = false,                  /* a group's switches are all one
                                          hop apart */
    .group_word = "group",
    .hw = slingshot_hw,
    .level_key = topo_level_key_groups,
    .level_size = topo_level_size_groups,
};

const struct topo_builder topo_builder_slingshot = {
    .base = { .name = "slingshot",
              .help = "HPE Slingshot dragonfly: 64-port Rosetta switches, "
                      "16 endpoints each, all-to-all groups (SC'20)" },
    .family = &slingshot_family,
    .params = slingshot_keys,
    .defaults = slingshot_defaults,
    .build = slingshot_build,
};
