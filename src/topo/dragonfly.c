/* topo/dragonfly.c — the generic Kim–Dally dragonfly (p, a, h, g).
 *
 * Source: J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven,
 * Highly-Scalable Dragonfly Topology", ISCA 2008 (reference [1] of the XC
 * white paper): routers with p terminals, a−1 local channels (the a routers
 * of a group are fully connected) and h global channels; g ≤ a·h + 1
 * groups. The global channels are arranged as BookSim2 does
 * (booksim2 src/networks/dragonfly.cpp) so results can be compared with
 * it: group i numbers its a·h global channels k = router·h + c, and
 * channel k leads to group k (if k < i) or k + 1 (otherwise). With fewer
 * than a·h + 1 groups each pair gets floor(a·h / (g−1)) channels: channel
 * k leads to the (k mod (g−1))-th other group, as its (k div (g−1))-th
 * cable, and leftover channels stay unused.
 *
 * Rates are parameters (Gb/s); defaults follow the CODES dragonfly-custom
 * defaults used for Aries-like studies: 5.25 GB/s local, 4.7 GB/s global,
 * 5.25 GB/s terminals (papers-and-workloads.md §5.2). Cable lengths assumed:
 * local 2 m, global 10 m.
 */
#include "topo/builders.h"

#include <stddef.h>

#include "core/config.h"
#include "core/time.h"

static void dragonfly_defaults(union topo_params *u)
{
    struct dragonfly_params *p = &u->dragonfly;
    p->p = 4;
    p->a = 8;
    p->h = 4;
    p->g = 0;
    p->local_gbps = 42.0;    /* 5.25 GB/s */
    p->global_gbps = 37.6;   /* 4.7 GB/s */
    p->terminal_gbps = 42.0; /* 5.25 GB/s */
}

static const struct cfg_key dragonfly_keys[] = {
    { .name = "p", .type = CFG_UINT32,
      .offset = offsetof(struct dragonfly_params, p), .min = 1, .max = 256,
      .help = "terminals (nodes) per router" },
    { .name = "a", .type = CFG_UINT32,
      .offset = offsetof(struct dragonfly_params, a), .min = 1, .max = 256,
      .help = "routers per group" },
    { .name = "h", .type = CFG_UINT32,
      .offset = offsetof(struct dragonfly_params, h), .min = 0, .max = 256,
      .help = "global channels per router" },
    { .name = "g", .type = CFG_UINT32,
      .offset = offsetof(struct dragonfly_params, g), .min = 0,
      .max = 65537, .help = "groups (0 = a*h + 1, the maximum)" },
    { .name = "local_gbps", .type = CFG_FLOAT,
      .offset = offsetof(struct dragonfly_params, local_gbps), .fmin = 0.001,
      .fmax = 1e5, .help = "local channel rate, Gb/s" },
    { .name = "global_gbps", .type = CFG_FLOAT,
      .offset = offsetof(struct dragonfly_params, global_gbps),
      .fmin = 0.001, .fmax = 1e5, .help = "global channel rate, Gb/s" },
    { .name = "terminal_gbps", .type = CFG_FLOAT,
      .offset = offsetof(struct dragonfly_params, terminal_gbps),
      .fmin = 0.001, .fmax = 1e5, .help = "terminal channel rate, Gb/s" },
    { .name = NULL },
};

static int dragonfly_build(struct topo *t, const union topo_params *u,
                           struct diag *d, const struct topo_where *w)
{
    const struct dragonfly_params *p = &u->dragonfly;
    uint32_t a = p->a, h = p->h, P = p->p;
    uint32_t G = p->g ? p->g : a * h + 1;
    if (G > a * h + 1) {
        topo_param_error(d, w, "system.g",
                   "%u groups need %u global channels per group; a*h = %u "
                   "allows at most %u groups",
                   G, G - 1, a * h, a * h + 1);
        return -1;
    }
    uint32_t ports = P + (a - 1) + h;
    if ((uint64_t)G * a * ports >= TOPO_NONE || G * a > (1u << 24)) {
        topo_param_error(d, w, "system", "dragonfly too large: %u routers",
                   G * a);
        return -1;
    }
    t->n_groups = G;
    t->routers_per_group = a;
    /* a group's a x h global channels shared equally among the G - 1 other
     * groups (balanced: the dragonfly's global bandwidth is uniform only if
     * every pair gets the same), the remainder left unused */
    uint32_t per_pair = G > 1 ? a * h / (G - 1) : 0;
    t->global_cables = per_pair * G * (G - 1) / 2;
    if (topo_alloc(t, G * a, ports, G * a * P, G * a * P) != 0)
        return -1;

    uint64_t lbw = topo_GBps(p->local_gbps / 8.0);
    uint64_t gbw = topo_GBps(p->global_gbps / 8.0);
    uint64_t tbw = topo_GBps(p->terminal_gbps / 8.0);
    for (uint32_t r = 0; r < G * a; r++) {
        struct topo_router *rt = &t->routers[r];
        rt->group = r / a;
        rt->pos[0] = (uint16_t)(r % a);
        rt->first_nic = r * P;
        rt->n_nics = (uint16_t)P;
        for (uint32_t i = 0; i < P; i++) {
            uint32_t n = r * P + i;
            topo_port_set(t, rt->first_port + i, PORT_DF_TERMINAL,
                          MEDIUM_COPPER, tbw, topo_wire_ps(1.0));
            t->ports[rt->first_port + i].nic = n;
            t->nics[n] = (struct topo_nic){ .router = r, .node = n,
                                            .first_port = rt->first_port + i,
                                            .n_ports = 1,
                                            .index = (uint16_t)i };
            t->nodes[n] = (struct topo_node){ .nic = { n }, .n_nics = 1,
                                              .slot = (uint16_t)i };
        }
        for (uint32_t i = 0; i + 1 < a; i++)
            topo_port_set(t, rt->first_port + P + i, PORT_DF_LOCAL,
                          MEDIUM_COPPER, lbw, topo_wire_ps(2.0));
    }
    for (uint32_t r = 0; r < G * a; r++) {
        uint32_t g = r / a, s = r % a;
        /* the a routers of a group fully connected, "acting in concert as
         * a single, very high radix router" (XC white paper on the
         * dragonfly): local port s2 - 1 of router s to port s of s2 */
        for (uint32_t s2 = s + 1; s2 < a; s2++)
            topo_link(t, t->routers[r].first_port + P + (s2 - 1),
                      t->routers[g * a + s2].first_port + P + s);
    }
    /* Global channel k of group i -> port of router k / h. */
    for (uint32_t i = 0; i < G; i++)
        for (uint32_t k = 0; k < per_pair * (G - 1); k++) {
            uint32_t m = k / (G - 1), rank = k % (G - 1);
            uint32_t j = rank < i ? rank : rank + 1;
            if (j < i)
                continue; /* linked from the other side */
            /* the same cable seen from group j: its m-th to group i, whose
             * rank among j's other groups is i (or i - 1 past j) */
            uint32_t k2 = m * (G - 1) + (i < j ? i : i - 1);
            uint32_t pa = t->routers[i * a + k / h].first_port + P + (a - 1) +
                          k % h;
            uint32_t pb = t->routers[j * a + k2 / h].first_port + P +
                          (a - 1) + k2 % h;
            topo_port_set(t, pa, PORT_DF_GLOBAL, MEDIUM_OPTICAL, gbw,
                          topo_wire_ps(10.0));
            topo_port_set(t, pb, PORT_DF_GLOBAL, MEDIUM_OPTICAL, gbw,
                          topo_wire_ps(10.0));
            topo_link(t, pa, pb);
        }
    return 0;
}

/* ---- the family ------------------------------------------------------ */

static void dragonfly_hw(struct topo_hw *hw)
{
    /* A generic Kim-Dally dragonfly: 16 B flits carrying 64 B
     * transactions (as on Aries) with a one-flit header; buffers as CODES
     * dragonfly-custom's defaults (local_vc_size 1024 B, global_vc_size
     * 2048 B, router_delay 100 ns). */
    hw->flit_bytes = 16;
    hw->max_payload = 64;
    hw->req_header = 1;
    hw->rsp_header = 1;
    hw->nic_gap = 0;
    hw->router_delay = 100 * SIMTIME_NS;
    hw->buf_local = 64;
    hw->buf_global = 128;
    hw->buf_endpoint = 64;
    hw->publish_period = time_from_cycles(10, TIME_HZ_ARIES_ROUTER);
}

static const struct topo_family dragonfly_family = {
    .name = "dragonfly",
    .id = TOPO_DRAGONFLY,
    .shape = TOPO_SHAPE_DRAGONFLY,
    .router_name = "router",
    .route_vcs = 4,
    .route_vcs_why = "a dragonfly's route segments need",
    .routing = "UGAL",           /* BookSim2's and the literature's */
    .congestion_control = "none",
    .counters = "generic",
    .mpi_stack = "ugni",
    .traffic_classes = true,     /* a what-if: Slingshot's on any
                                    dragonfly */
    .chassis = false,
    .group_word = "group",
    .hw = dragonfly_hw,
    .level_key = topo_level_key_groups,
    .level_size = topo_level_size_groups,
};

const struct topo_builder topo_builder_dragonfly = {
    .base = { .name = "dragonfly",
              .help = "generic Kim-Dally dragonfly (p, a, h, g) with "
                      "BookSim2's global arrangement" },
    .family = &dragonfly_family,
    .params = dragonfly_keys,
    .defaults = dragonfly_defaults,
    .build = dragonfly_build,
};
