/* topo/topo.h — every network dfsim models, as one graph.
 *
 * A topology is routers, their ports (Aries and Gemini call them tiles),
 * the links joining ports, NICs attached to routers, and nodes owning NICs.
 * Four builders fill it: the Cray XC (Aries) dragonfly, the Slingshot
 * (Rosetta) dragonfly, the generic Kim–Dally dragonfly of BookSim/SST, and
 * the Gemini 3-D torus. Everything above the topology (routing, NICs,
 * counters, allocation) sees only this graph and its ids, never a builder.
 *
 * Invariants, checked by topo_check() and by the tests for every builder:
 *  - every link is a pair of ports, each the other's `peer` (links are
 *    bidirectional, each direction with the port's own bandwidth);
 *  - a port belongs to exactly one router; ports of a router are contiguous;
 *  - endpoint ports (Aries processor tiles, Slingshot edge ports, Gemini
 *    host tiles, dragonfly terminals) have no peer and serve NICs;
 *  - ports of kind PORT_UNUSED exist on the chip but are not cabled.
 *
 * All ids are uint32_t indices into flat arrays; TOPO_NONE means "none".
 * Names (Cray cnames, switch/port names, torus coordinates) are computed on
 * demand by topo_router_name(), topo_node_name() and topo_port_name().
 */
#ifndef DFSIM_TOPO_H
#define DFSIM_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/diag.h"
#include "core/registry.h"

#define TOPO_NONE UINT32_MAX

struct cfg_key; /* core/config.h */

/* The families, for topo/ itself: everything above the topology reads
 * what differs between them from the family's descriptor (struct
 * topo_family below), never this number (tests/test_layers.c checks). */
enum topo_family_id {
    TOPO_ARIES,     /* Cray XC dragonfly (Aries) */
    TOPO_SLINGSHOT, /* HPE Slingshot dragonfly (Rosetta) */
    TOPO_DRAGONFLY, /* generic Kim–Dally dragonfly (p, a, h, g) */
    TOPO_TORUS,     /* Cray Gemini 3-D torus */
};

/* The shape of a family's graph, which is what routing needs to know:
 * routers in groups joined by global links (every dragonfly), or a 3-D
 * torus of routers. A routing mode declares the shapes it routes. */
enum topo_shape {
    TOPO_SHAPE_DRAGONFLY,
    TOPO_SHAPE_TORUS,
};

struct topo;

/* A family's network hardware as its public sources give it: the
 * defaults of the network model (net_params_defaults copies them; the
 * experiment file's network section overrides any). Times in ps. Each
 * family's descriptor fills it (its `hw` function, over the values
 * topo_family_hw sets for all), citing its sources. */
struct topo_hw {
    uint32_t flit_bytes;       /* bytes per network flit (phit, byte) */
    uint32_t max_payload;      /* data bytes per packet */
    uint32_t req_header;       /* flits of a request without data */
    uint32_t rsp_header;       /* flits of a response without data */
    uint32_t expand_num, expand_den; /* data bytes on the wire per byte */
    uint64_t nic_gap;          /* least time between two injections */
    uint64_t nic_flit_time;    /* a NIC flit on the NIC's output path (0:
                                  not limited) */
    uint32_t nic_flit_bytes;   /* the NIC-side flit */
    uint32_t max_outstanding;  /* requests awaiting their response */
    uint32_t nic_rsp_slots;    /* requests a NIC takes before answering
                                  them (0: unbounded) */
    uint64_t router_delay;     /* pipeline delay per router crossed */
    uint32_t vcs;              /* VCs per packet class */
    uint32_t buf_local, buf_global, buf_endpoint; /* flits per VC */
    const char *router;        /* router buffering, by its name in
                                  experiment files ("tiled", "voq") */
    uint32_t tile_columns;     /* tiled: columns of the tile matrix (0:
                                  the squarest) */
    uint64_t publish_period;   /* far-end load published this often (0:
                                  always current) */
    uint32_t link_eff_num, link_eff_den; /* link-layer efficiency */
};

/* What differs between the families, as one descriptor each builder
 * file fills (topo/aries.c, slingshot.c, dragonfly.c, torus.c): names,
 * hardware defaults, the counter set and its clock, the default routing
 * and congestion control, the VCs its routes need, the levels of its
 * machine room that allocation knows. The parts above the topology read
 * these fields; a new family is a builder file with its descriptor. */
struct topo_family {
    const char *name;          /* "aries", "slingshot", "dragonfly",
                                  "torus" (its builder's name) */
    enum topo_family_id id;    /* for topo/ only */
    enum topo_shape shape;
    const char *router_name;   /* the router ASIC ("Aries", "Rosetta",
                                  "Gemini"; "router" for the generic) */
    uint32_t route_vcs;        /* VCs per class its deadlock-free routes
                                  need (route segments; datelines) */
    const char *route_vcs_why; /* ... said so ("a dragonfly's route
                                  segments need") */
    const char *routing;       /* its default routing mode, by name */
    const char *congestion_control; /* its default NIC congestion
                                  control, by name ("none") */
    const char *counters;      /* its counter set, by name (net/counters.c:
                                  "aries", "gemini", "rosetta", "generic") */
    const char *mpi_stack;     /* the MPI software its systems ran, by
                                  name: the MPI layer's protocol defaults
                                  (mpi/params.c: "ugni" for Cray MPI over
                                  uGNI, "verbs-rxm" for Cray MPI over
                                  libfabric's verbs;ofi_rxm) */
    bool traffic_classes;      /* has traffic classes (SC'20 §II-E) */
    bool chassis;              /* a chassis level between router and
                                  group (allocation distances) */
    const char *group_word;    /* what its top level is called ("group",
                                  "cabinet") */
    /* The hardware defaults over topo_family_hw's common values. */
    void (*hw)(struct topo_hw *hw);
    /* Allocation's levels of the machine room (exp/alloc.c): the key of
     * router r's level (0: the router, 1: its chassis, 2: its group or
     * cabinet), equal for routers that share it, below level_size. */
    uint32_t (*level_key)(const struct topo *t, uint32_t r, int level);
    uint32_t (*level_size)(const struct topo *t, int level);
};

/* The hardware defaults of family f: the values common to every family,
 * then f's own (topo.c). */
void topo_family_hw(const struct topo_family *f, struct topo_hw *hw);

/* Whether family f's graph has shape s. */
static inline bool topo_is(const struct topo_family *f, enum topo_shape s)
{
    return f->shape == s;
}

/* What a port is, named as the hardware names it. */
enum port_kind {
    PORT_UNUSED = 0,    /* present on the chip, not cabled */
    PORT_ARIES_PROC,    /* Aries processor tile (to the NICs) */
    PORT_ARIES_GREEN,   /* rank-1: chassis backplane */
    PORT_ARIES_BLACK,   /* rank-2: copper cable between chassis of a group */
    PORT_ARIES_OPTICAL, /* rank-3: optical (AOC) link between groups */
    PORT_SS_EDGE,       /* Slingshot edge port (to a NIC) */
    PORT_SS_LOCAL,      /* Slingshot intra-group (copper) */
    PORT_SS_GLOBAL,     /* Slingshot inter-group (optical) */
    PORT_DF_TERMINAL,   /* generic dragonfly terminal channel */
    PORT_DF_LOCAL,      /* generic dragonfly local channel */
    PORT_DF_GLOBAL,     /* generic dragonfly global channel */
    PORT_TORUS_XP,      /* Gemini X+ tile; the six directions keep this order */
    PORT_TORUS_XM,
    PORT_TORUS_YP,
    PORT_TORUS_YM,
    PORT_TORUS_ZP,
    PORT_TORUS_ZM,
    PORT_TORUS_HOST,    /* Gemini host (NIC) tile */
    PORT_KIND_COUNT
};

/* The role a kind plays for routing and for the figures. */
enum port_class {
    PCLASS_UNUSED,
    PCLASS_ENDPOINT, /* to a NIC */
    PCLASS_LOCAL,    /* router to router inside a group (torus: every link) */
    PCLASS_GLOBAL,   /* router to router between groups */
};

/* Physical medium: sets bandwidth and wire latency. */
enum link_medium {
    MEDIUM_NONE,
    MEDIUM_ONCHIP,    /* router tile to NIC on the same ASIC/board */
    MEDIUM_BACKPLANE, /* chassis backplane */
    MEDIUM_COPPER,    /* copper cable */
    MEDIUM_OPTICAL,   /* active optical cable */
    MEDIUM_MEZZANINE, /* Gemini mezzanine (Y links within a board) */
    MEDIUM_CABLE,     /* Gemini cable */
    MEDIUM_COUNT
};

struct topo_port {
    uint32_t router;  /* owning router */
    uint32_t peer;    /* port at the other end, TOPO_NONE if not linked */
    uint32_t nic;     /* endpoint ports: first NIC served, else TOPO_NONE */
    uint16_t index;   /* port (tile) number on its router */
    uint8_t kind;     /* enum port_kind */
    uint8_t medium;   /* enum link_medium */
    uint64_t bw;      /* bytes per second, per direction */
    uint32_t latency; /* wire latency, picoseconds */
};

struct topo_router {
    uint32_t group;      /* dragonfly group; 0 on a torus */
    uint32_t first_port; /* ports are [first_port, first_port + n_ports) */
    uint32_t first_nic;  /* NICs attached: [first_nic, first_nic + n_nics) */
    uint16_t n_ports;
    uint16_t n_nics;
    uint16_t pos[3];     /* Aries: chassis in group, slot; Slingshot and
                            dragonfly: switch in group; torus: x, y, z */
};

struct topo_nic {
    uint32_t router;     /* the router it is attached to */
    uint32_t node;       /* the node it belongs to */
    uint32_t first_port; /* endpoint ports it may use */
    uint16_t n_ports;
    uint16_t index;      /* NIC number on its router (Aries NIC0..3) */
};

#define TOPO_MAX_NICS 2 /* per node: Shandy's nodes have two (SC'20 §III) */

struct topo_node {
    uint32_t nic[TOPO_MAX_NICS]; /* its NICs; NICs are numbered router by
                                    router, so a node's need not be adjacent */
    uint16_t n_nics;             /* 1 but on dual-NIC Slingshot nodes */
    uint16_t slot;               /* node number on its first router (n0..3) */
};

/* Builder parameters. Each builder documents its keys in its schema. */
struct aries_params {
    uint32_t groups;           /* two-cabinet groups, the last may be partial */
    uint32_t chassis_last;     /* chassis in the last group, 1..6 */
    uint32_t cables_per_pair;  /* optical cables between each pair of groups */
    uint32_t nodes;            /* populated nodes, 0 = every slot */
    uint32_t cabinets_per_row; /* for cnames c<col>-<row> */
    const char *service_blades; /* blades whose slots hold service nodes,
                                   as ids "0,48-49" (NULL: none); read
                                   while building only (the text belongs
                                   to the experiment file or is static) */
};

struct slingshot_params {
    uint32_t groups;
    uint32_t switches_per_group;
    uint32_t endpoints_per_switch; /* edge ports cabled to NICs */
    uint32_t global_per_pair;      /* global links between each group pair */
    uint32_t local_per_pair;       /* links between two switches of a group */
    uint32_t nics_per_node;        /* 1, or 2 (Shandy) */
    uint32_t nodes;                /* populated nodes, 0 = all */
    double port_gbps;              /* switch-to-switch port rate, Gb/s */
    double edge_gbps;              /* NIC link rate, Gb/s */
};

struct dragonfly_params {
    uint32_t p; /* terminals per router */
    uint32_t a; /* routers per group */
    uint32_t h; /* global channels per router */
    uint32_t g; /* groups, 0 = a*h + 1 (the maximum) */
    double local_gbps, global_gbps, terminal_gbps;
};

struct torus_params {
    uint32_t x, y, z; /* dimensions (Gemini routers) */
};

union topo_params {
    struct aries_params aries;
    struct slingshot_params slingshot;
    struct dragonfly_params dragonfly;
    struct torus_params torus;
};

/* What a topology holds, known before any of its arrays is made
 * (topo_alloc): what its memory is estimated from. */
struct topo_counts {
    const struct topo_family *family;
    uint32_t routers, ports_per_router, nics, nodes;
    uint32_t groups, routers_per_group;
};

/* The memory a build may take (topo_build_within): before allocating
 * anything, a system whose estimate — topo_estimate_bytes for the
 * topology, `extra` for what the caller will build on it (the network
 * model, the event queue) — is above max_bytes is refused with both
 * figures, as is one of more than max_entities routers and NICs. */
struct topo_budget {
    size_t max_bytes;        /* 0: no limit */
    const char *limit_from;  /* how max_bytes was found, for the message
                                ("MemAvailable in /proc/meminfo") */
    uint64_t max_entities;   /* routers + NICs; 0: no limit */
    const char *extra_what;  /* what `extra` counts, for the message */
    size_t (*extra)(const void *ctx, const struct topo_counts *c);
    const void *ctx;
};

struct topo {
    const struct topo_family *family;
    const char *system;      /* built-in system or builder name */
    const char *description; /* what it models and what was assumed */
    union topo_params p;     /* parameters it was built from */

    uint32_t n_routers, n_ports, n_nics, n_nodes, n_groups;
    uint32_t routers_per_group;  /* in a full group */
    uint32_t global_cables;      /* physical inter-group cables */
    struct topo_router *routers;
    struct topo_port *ports;
    struct topo_nic *nics;
    struct topo_node *nodes;

    /* Minimal-path structure (topo_finish): distances inside each group
     * and, per ordered pair of groups, the global ports joining them. */
    uint8_t *group_dist;         /* [group][i][j], routers_per_group^2 each;
                                    255 = unreachable */
    uint32_t *pair_start;        /* CSR over (src group * G + dst group) */
    uint32_t *pair_port;         /* global ports of src group to dst group */

    struct arena arena;          /* owns every array above */
    const struct topo_budget *budget; /* during topo_build_within only */
    bool over_budget;            /* topo_alloc refused: budget_need says */
    struct topo_counts counts;   /* as topo_alloc was asked */
};

/* Where a system's parameters were written, so that a builder's complaint
 * about a parameter names the file and the line of that key. */
struct topo_where {
    const char *file; /* NULL: not from a file */
    int line;         /* line of the system group (fallback) */
    /* line of a key ("system.nodes") in the file, or 0 if not written */
    int (*key_line)(const void *ctx, const char *key);
    const void *ctx;
};

/* 1.5 GiB, 512 MiB, 12 KiB: bytes for a person (the admission's
 * messages, --max-memory's). */
void topo_human_bytes(char *buf, size_t cap, double bytes);

/* Report a problem with parameter `key` (a dotted key, or "system") at the
 * place w says it was written (w may be NULL). */
void topo_param_error(struct diag *d, const struct topo_where *w,
                      const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A builder: one per topology family, registered by name. */
struct topo_builder {
    struct reg_entry base;
    const struct topo_family *family;
    const struct cfg_key *params;      /* schema of its parameters */
    void (*defaults)(union topo_params *p);
    /* Fill t (already zeroed, arena ready) from p. Errors (impossible
     * parameters) go to d through topo_param_error; returns 0 or -1. */
    int (*build)(struct topo *t, const union topo_params *p, struct diag *d,
                 const struct topo_where *w);
};

/* A named built-in system: a builder with its parameters. */
struct topo_system {
    struct reg_entry base;
    const struct topo_builder *builder;
    const char *description; /* what it is, sources, what was assumed */
    void (*set)(union topo_params *p);
};

extern const struct registry topo_builder_registry;
extern const struct registry topo_system_registry;

/* Build a topology with `builder` and parameters p into t. On error,
 * reports to d (naming file and line when w says where the parameters
 * were written; w may be NULL) and returns -1 with t freed. */
int topo_build(struct topo *t, const struct topo_builder *builder,
               const union topo_params *p, const char *system_name,
               const char *description, struct diag *d,
               const struct topo_where *w);

/* topo_build within budget b (NULL: none): a system that would take more
 * memory, or more entities, than b allows is refused by topo_alloc before
 * anything is allocated, reported to d at the system's line. */
int topo_build_within(struct topo *t, const struct topo_builder *builder,
                      const union topo_params *p, const char *system_name,
                      const char *description, const struct topo_budget *b,
                      struct diag *d, const struct topo_where *w);

/* The bytes a topology of counts c takes once built: topo_alloc's arrays
 * and topo_finish's minimal-path tables (on a dragonfly the hop table of
 * every group, the pair index and the global ports by pair, counted as if
 * every port were global: an upper bound). */
size_t topo_estimate_bytes(const struct topo_counts *c);

/* Build a named built-in system with its default parameters. */
int topo_build_system(struct topo *t, const char *name, struct diag *d);

void topo_free(struct topo *t);

/* ---- builder helpers (topo.c) ---------------------------------------- */

/* Allocate routers (n) with ports_per_router ports each, all PORT_UNUSED,
 * and NIC/node arrays of the given sizes (t->n_groups and
 * t->routers_per_group set before). Returns 0, or -1: out of memory, more
 * ports than port ids, or over the build's budget (then
 * t->over_budget; topo_build_within reports it). */
int topo_alloc(struct topo *t, uint32_t routers, uint32_t ports_per_router,
               uint32_t nics, uint32_t nodes);
/* Set a port's kind, medium, bandwidth (B/s per direction) and wire
 * latency (ps). */
void topo_port_set(struct topo *t, uint32_t port, enum port_kind kind,
                   enum link_medium medium, uint64_t bw, uint32_t latency_ps);
/* Join two ports (both must be unlinked and of a router-to-router kind). */
void topo_link(struct topo *t, uint32_t a, uint32_t b);
/* Connector slot, at group `from`, of the m-th cable to group `to` when
 * every group pair has a bundle: cables go round-robin over the other
 * groups so each bundle is spread over the group's routers. */
uint32_t topo_bundle_slot(uint32_t from, uint32_t to, uint32_t m,
                          uint32_t groups);
/* Compute the minimal-path structure and check the invariants. */
int topo_finish(struct topo *t, struct diag *d);

/* ---- queries ------------------------------------------------------- */

enum port_class topo_port_class(enum port_kind k);
const char *topo_port_kind_name(enum port_kind k);
const char *topo_medium_name(enum link_medium m);

/* Router-to-router hop count of a minimal path, as the hardware's minimal
 * routing defines it: on a dragonfly, hops inside the source group, exactly
 * one global hop (if the groups differ), hops inside the destination group;
 * on a torus, the shortest way round each dimension. */
uint32_t topo_min_hops(const struct topo *t, uint32_t src, uint32_t dst);

/* Ports of router `cur` that lie on a minimal path to router `dst`; writes
 * up to cap port ids into out and returns how many there are. */
uint32_t topo_min_ports(const struct topo *t, uint32_t cur, uint32_t dst,
                        uint32_t *out, uint32_t cap);

/* Router i's row of group g's distance table (local indices): entry j is
 * the hops from i to j on local links only, 255 if unreachable.
 * Dragonfly families only. */
static inline const uint8_t *topo_group_row(const struct topo *t,
                                            uint32_t g, uint32_t i)
{
    size_t m = t->routers_per_group;
    return &t->group_dist[((size_t)g * m + i) * m];
}

/* Hops between routers i and j (local indices) inside group g, on local
 * links only; 255 if unreachable. Dragonfly families only. */
static inline uint8_t topo_group_hops(const struct topo *t, uint32_t g,
                                      uint32_t i, uint32_t j)
{
    return topo_group_row(t, g, i)[j];
}

/* Names. Each writes a NUL-terminated name into buf and returns buf. */
char *topo_router_name(const struct topo *t, uint32_t r, char *buf,
                       size_t cap);
char *topo_node_name(const struct topo *t, uint32_t n, char *buf, size_t cap);
char *topo_port_name(const struct topo *t, uint32_t p, char *buf, size_t cap);

/* The NIC that rank `local` (0 .. ppn - 1) of a node running ppn ranks
 * uses: the node's NICs dealt to its ranks in blocks (ranks 0 .. ppn/k -
 * 1 the first of its k NICs, ...), as MPI libraries pin ranks to the
 * NICs of a multi-NIC node by default (Intel MPI's "NIC pinning":
 * "available NICs are distributed between MPI ranks as equally as
 * possible", four ranks on two NICs: 0, 1 on nic0, 2, 3 on nic1;
 * Cray MPICH's MPICH_OFI_NIC_POLICY offers the same BLOCK policy). With
 * one NIC, or one rank, the node's first. */
uint32_t topo_rank_nic(const struct topo *t, uint32_t node, uint32_t local,
                       uint32_t ppn);

/* Check the graph invariants (see the file header); report to d. */
int topo_check(const struct topo *t, struct diag *d);

/* The figures `dfsim topo` prints (topo_figures.c). */
struct topo_figures {
    uint32_t routers, nodes, nics, groups;
    uint32_t ports_by_kind[PORT_KIND_COUNT];  /* ports (tiles) per kind */
    uint32_t links_by_class[4];    /* router-to-router links (port pairs)
                                      per port class; endpoint = NIC ports */
    uint32_t global_cables;
    uint32_t diameter;             /* router hops on minimal paths */
    double bisection_GBps;         /* both directions, min over cuts */
    uint32_t bisection_links;      /* links crossing that cut */
    const char *bisection_cut;     /* which cut gave the minimum */
    double global_GBps_per_node;   /* one direction; 0 on a torus */
    double alltoall_GBps;          /* peak all-to-all (dragonflies) */
    double injection_GBps;         /* all NIC links, one direction */
};

int topo_figures(const struct topo *t, struct topo_figures *f);

/* The injection bandwidth of NIC `nic`, bytes/s one direction: its
 * endpoint ports' bandwidth, a port shared by k NICs counted 1/k (as
 * net_nic_rate shares them). */
double topo_nic_injection_bw(const struct topo *t, uint32_t nic);

/* How many NICs use endpoint port `port` (an Aries NIC pair shares its
 * processor tiles: 2; 0 for a port no NIC uses). */
uint32_t topo_port_users(const struct topo *t, uint32_t port);

/* The injection bandwidth of t, bytes/s one direction: the sum over its
 * NICs, i.e. of every endpoint port a NIC uses. */
double topo_injection_bw(const struct topo *t);

/* The global bandwidth of t, bytes/s one direction: the sum of the cabled
 * global (inter-group) ports, what `dfsim topo` prints per node as
 * "global bw"; 0 on a torus, and on a dragonfly of one group. */
double topo_global_bw(const struct topo *t);
void topo_print(FILE *out, const struct topo *t, const struct topo_figures *f);
void topo_print_json(FILE *out, const struct topo *t,
                     const struct topo_figures *f);

#endif
