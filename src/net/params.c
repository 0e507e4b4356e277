/* net/params.c — the network model's parameters: their defaults for a
 * family (from its hardware descriptor, topo/<family>.c) and their keys
 * in the experiment file's network section.
 *
 * The keys here are the network model's own: packet format, NIC, routers
 * and links. A routing mode's keys are its own (route/aries.c, ugal.c,
 * ss.c: struct net_part), as are a NIC controller's; the experiment
 * loader reads the section through all of them (core/config.h
 * cfg_read_parts). */
#include "net/net.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "core/config.h"
#include "core/registry.h"
#include "core/time.h"

/* ---- named choices ------------------------------------------------ */

const char *const net_router_names[] = { "tiled", "input-queued", "voq",
                                         NULL };

const char *const net_aries_load_names[] = { "credit", "occupancy", NULL };

const char *const net_local_order_names[] = { "green-first", "black-first",
                                              "both", NULL };

const char *const net_vc_rule_names[] = { "segment", "hop", NULL };

const char *const net_nic_arb_names[] = { "round-robin", "responses-first",
                                          NULL };

static int name_index(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int net_router_find(const char *name)
{
    return name_index(net_router_names, name);
}

int net_aries_load_find(const char *name)
{
    return name_index(net_aries_load_names, name);
}

int net_nic_arb_find(const char *name)
{
    return name_index(net_nic_arb_names, name);
}

const char *const net_nic_stall_names[] = { "credits", "path", "orb",
                                            NULL };

int net_nic_stall_find(const char *name)
{
    return name_index(net_nic_stall_names, name);
}

void net_params_defaults(struct net_params *p, const struct topo *t)
{
    /* The family's hardware (topo/<family>.c cites the sources of each
     * value) */
    struct topo_hw hw;
    topo_family_hw(t->family, &hw);
    memset(p, 0, sizeof *p);
    p->flit_bytes = hw.flit_bytes;
    p->max_payload = hw.max_payload;
    p->req_header = hw.req_header;
    p->rsp_header = hw.rsp_header;
    p->expand_num = hw.expand_num;
    p->expand_den = hw.expand_den;
    p->nic_gap = hw.nic_gap;
    p->nic_flit_time = hw.nic_flit_time;
    p->nic_flit_bytes = hw.nic_flit_bytes;
    p->max_outstanding = hw.max_outstanding;
    p->nic_rsp_slots = hw.nic_rsp_slots;
    p->router_delay = hw.router_delay;
    p->vcs = hw.vcs;
    p->buf_local = hw.buf_local;
    p->buf_global = hw.buf_global;
    p->buf_endpoint = hw.buf_endpoint;
    int router = net_router_find(hw.router);
    assert(router >= 0); /* a family names one of net_router_names */
    p->router = (uint8_t)router;
    p->tile_columns = hw.tile_columns;
    p->publish_period = hw.publish_period;
    p->link_eff_num = hw.link_eff_num;
    p->link_eff_den = hw.link_eff_den;
    /* Row and column buffers of the tiled routers: their depths are not
     * public for any of them; two maximum-size packets each let one leave
     * while the next waits (virtual cut-through needs room for one). */
    uint32_t pk = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t big = net_rsp_flits(p, NET_GET, p->max_payload);
    if (big < pk)
        big = pk;
    p->row_buffer = 2 * big;
    p->col_buffer = 2 * big;
    /* What the Aries routers' load estimate reads (route/aries.c says
     * why): the credits in use beyond far_light = 50 % of a link's
     * bandwidth-delay product count as far-end load (the share is not
     * public), and global ports publish their load */
    p->far_light = 50;
    p->aries_load = NET_ARIES_CREDIT;
    p->local_order = NET_LOCAL_GREEN_FIRST; /* the model's (params.h) */
    p->vc_rule = NET_VC_SEGMENT;            /* the model's (params.h) */
    /* The routing mode is the layer above's to choose (route/: the modes
     * read the network, so the network names none of them):
     * route_net_defaults sets the family's default. */
    p->routing = NULL;
    /* The rate controllers are the layer above's to choose (ctl/: they
     * are parts of their own): ctl_net_defaults sets the family's. */
    p->n_cc = 0;
}


/* ---- the parts' blocks -------------------------------------------- */

const void *net_part_find(const struct net_params *p,
                          const struct net_part *part)
{
    for (uint32_t i = 0; i < p->parts.n; i++)
        if (p->parts.part[i] == part)
            return p->parts.store + p->parts.off[i];
    return NULL;
}

size_t net_registry_parts(const struct registry *reg, size_t part_off,
                          const struct net_part **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < reg->n; i++) {
        const struct net_part *part;
        memcpy(&part, (const char *)reg->entries[i] + part_off, sizeof part);
        bool seen = !part;
        for (size_t j = 0; j < n && !seen; j++)
            seen = out[j] == part;
        if (!seen && n < cap)
            out[n++] = part;
    }
    return n;
}

int net_registry_parts_add(struct net_params *p, const struct topo *t,
                           const struct registry *reg, size_t part_off)
{
    const struct net_part *parts[NET_MAX_PARTS];
    size_t k = net_registry_parts(reg, part_off, parts, NET_MAX_PARTS);
    for (size_t i = 0; i < k; i++)
        if (!net_part_block(p, parts[i], t))
            return -1;
    return 0;
}

void *net_part_block(struct net_params *p, const struct net_part *part,
                     const struct topo *t)
{
    struct net_parts *s = &p->parts;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->part[i] == part)
            return s->store + s->off[i];
    size_t at = (s->used + 7u) & ~(size_t)7u; /* 8-byte aligned */
    if (s->n == NET_MAX_PARTS || at + part->params_size > NET_PART_STORE)
        return NULL;
    void *b = s->store + at;
    memset(b, 0, part->params_size);
    if (part->defaults)
        part->defaults(b, p, t);
    s->part[s->n] = part;
    s->off[s->n++] = (uint16_t)at;
    s->used = (uint16_t)(at + part->params_size);
    return b;
}

/* ---- keys ---------------------------------------------------------- */

#define KEY_U32(NAME, FIELD, LO, HI, HELP)                                   \
    { .name = NAME, .type = CFG_UINT32,                                      \
      .offset = offsetof(struct net_params, FIELD), .min = LO, .max = HI,    \
      .help = HELP }
#define KEY_ENUM(NAME, FIELD, NAMES, HELP)                                   \
    { .name = NAME, .type = CFG_ENUM,                                        \
      .offset = offsetof(struct net_params, FIELD), .choices = NAMES,        \
      .help = HELP }
#define KEY_NS(NAME, FIELD, HELP)                                            \
    { .name = NAME, .type = CFG_TIME,                                        \
      .offset = offsetof(struct net_params, FIELD), .fmin = 0, .fmax = 1e6,  \
      .unit_ps = SIMTIME_NS, .help = HELP }

const struct cfg_key net_param_keys[] = {
    KEY_NS("router_delay_ns", router_delay,
           "pipeline delay of a router, ns (Aries and dragonfly 100, "
           "Slingshot 350, torus 100)"),
    KEY_U32("vcs", vcs, 1, NET_MAX_SEGS,
            "virtual channels per class, requests and responses (4; torus "
            "2)"),
    KEY_U32("buffer_local", buf_local, 1, 1 << 24,
            "input buffer per VC between routers of a group (torus: every "
            "link), flits (family default)"),
    KEY_U32("buffer_global", buf_global, 1, 1 << 24,
            "input buffer per VC between groups, flits (family default)"),
    KEY_U32("buffer_endpoint", buf_endpoint, 1, 1 << 24,
            "input buffer per VC from a NIC, flits (family default)"),
    KEY_ENUM("router", router, net_router_names,
             "router buffering: tiled (row buffers per input, VC and "
             "tile column: Aries, Gemini, dragonfly), input-queued (a "
             "blocked head blocks its VC), voq (virtual output queues: "
             "Slingshot)"),
    KEY_U32("row_buffer", row_buffer, 1, 1 << 24,
            "tiled routers: flits a row buffer holds (2 largest packets)"),
    KEY_U32("col_buffer", col_buffer, 1, 1 << 24,
            "tiled routers: flits a column buffer holds (2 largest "
            "packets)"),
    KEY_U32("tile_columns", tile_columns, 0, 255,
            "tiled routers: columns of the tile matrix; 0 = the squarest "
            "for the router's ports (Aries, torus 8; dragonfly 0)"),
    { .name = "publish_cycles", .type = CFG_CYCLES,
      .offset = offsetof(struct net_params, publish_period), .min = 0,
      .max = 1000000, .hz = TIME_HZ_ARIES_ROUTER,
      .help = "far-end load published every this many router cycles at "
              "875 MHz; 0 = always current (10; torus 0)" },
    KEY_NS("nic_gap_ns", nic_gap,
           "least time between two packets a NIC injects, ns; 0 = "
           "link-limited (Aries 6.25, others 0)"),
    KEY_NS("nic_flit_ns", nic_flit_time,
           "time per 16-byte NIC flit on the path that carries a NIC's "
           "requests and responses into the network, ns; 0 = not "
           "limited (Aries 1.25, others 0)"),
    KEY_U32("max_outstanding", max_outstanding, 1, 1 << 20,
            "requests a NIC may have awaiting their response (1024)"),
    KEY_U32("nic_rsp_slots", nic_rsp_slots, 0, 1 << 20,
            "requests a NIC takes before it has answered them; more wait "
            "in the network (256; Slingshot 0 = unbounded)"),
    KEY_ENUM("nic_arbitration", nic_arb, net_nic_arb_names,
             "how a NIC orders requests and responses ready together on "
             "the path they share: round-robin, they take turns, or "
             "responses-first, a ready response always goes first "
             "(round-robin)"),
    KEY_ENUM("nic_req_stall", nic_req_stall, net_nic_stall_names,
             "what a NIC's request-stall counter (REQ_STALLED) counts: "
             "credits, cycles a ready request or the response ahead of "
             "it finds no credits, or path, every cycle a ready request "
             "is not forwarded, the response ahead of it included, or "
             "orb, credits and the cycles a request waits for a free "
             "outstanding-request entry (an ablation) (credits)"),
    KEY_U32("max_payload", max_payload, 1, 65535,
            "data bytes per packet (Aries, dragonfly, torus 64; Slingshot "
            "4096)"),
    KEY_ENUM("aries_load", aries_load, net_aries_load_names,
             "what ADAPTIVE_k compares: credit (near-end queue + credits "
             "in use beyond the link's own + the published load of the "
             "global link ahead) or occupancy (near-end queue + the next "
             "router's published input occupancy) (credit)"),
    KEY_ENUM("local_order", local_order, net_local_order_names,
             "dragonflies: which local hop of a minimal route inside a "
             "group comes first where it needs two, green-first (rank-1, "
             "within the chassis), black-first (rank-2, between "
             "chassis) or both (the mode picks among every nearer port; "
             "needs vc_rule hop): the XC white paper leaves it open "
             "(green-first)"),
    KEY_ENUM("vc_rule", vc_rule, net_vc_rule_names,
             "dragonflies: a packet's VC within its class, segment (the "
             "route segment, 4 VCs) or hop (2 x segment + local hops taken "
             "in it, 8 VCs: network.vcs = 8) (segment)"),
    KEY_U32("far_light", far_light, 0, 100,
            "ADAPTIVE_k: credits in use that read as the link's own, per "
            "cent of its bandwidth-delay product"),
    { .name = NULL },
};
