/* exp/alloc.h — placing jobs' ranks on the machine's nodes.
 *
 * What is modelled: how a batch system hands nodes to the jobs that share
 * a machine. Where a job lands decides which links it shares with its
 * neighbours, so the studies this simulator follows vary it on purpose:
 * SC'19 (De Sensi et al., "Mitigating network noise on Dragonfly
 * networks through application-aware routing") §3.1 and Fig. 3 place a
 * ping-pong on two nodes of one blade, two blades, two chassis and two
 * groups; SC'20 (De Sensi et al., "An in-depth analysis of the Slingshot
 * interconnect") §III places victim and aggressor linearly, interleaved
 * node by node, or at random; GPCNeT shuffles all nodes and gives the
 * first 80 % to congestors (see "GPCNeT" below).
 *
 * Jobs are placed in the order given; a node belongs to at most one job;
 * only nodes with at least one NIC are ever handed out. A job's nodes are
 * returned in rank order: with ppn ranks per node, ranks r*ppn ..
 * r*ppn + ppn - 1 run on its r-th node (alloc_rank_node).
 *
 * Policies: each is a `const struct alloc_policy` (below) with its keys,
 * their defaults, its checks and its placement, in a file whose header
 * says how it places, and one line in exp/alloc_policies.def (registry
 * order: `dfsim list allocation`):
 *   linear       the lowest free nodes               alloc_basic.c
 *   interleaved  free nodes dealt round-robin        alloc_basic.c
 *   random       a random subset of the free nodes   alloc_basic.c
 *   list         the node ids given (node_list)      alloc_list.c
 *   pair         two nodes at a distance (distance,  alloc_pair.c
 *                see "Distances")
 *   fragmented   a busy batch system's gaps (busy,   alloc_fragmented.c
 *                max_block)
 *   same         the nodes of the job it follows     alloc_same.c
 * exp/jobspec.c reads a job's policy's keys into a block of params_size
 * bytes (its defaults first) and refuses a key of another policy, naming
 * the policy it applies to; nothing else names a block's fields, except
 * code that builds requests without a file (below).
 *
 * Distances (alloc_node_distance; a node's place is the router of its
 * first NIC). Classes nest: two nodes on one router are said to be at
 * same-router, not same-chassis.
 *   Aries (SC'19 Fig. 3): same-router = one blade (one Aries, "Inter-
 *     Nodes"); same-chassis = two blades of one chassis ("Inter-Blades",
 *     one rank-1 hop); same-group = two chassis of one group ("Inter-
 *     Chassis"); different-groups ("Inter-Groups").
 *   Slingshot and generic dragonfly (SC'20 Fig. 4: same switch, different
 *     switches of a group, different groups): same-router = one switch;
 *     same-group = two switches of one group; different-groups. The model
 *     has no chassis level (a group's switches are all one hop apart), so
 *     no two nodes are at same-chassis and a pair request for it fails
 *     with an error saying so. On a dual-NIC system (Shandy) a node's
 *     place is its NIC 0's switch.
 *   Gemini torus (packaging, as Cray names it: c<col>-<row>c<chassis>s
 *     <slot>g<gemini>): same-router = one Gemini (two nodes);
 *     same-chassis = one chassis (cage of 8 blades, z / 8), different
 *     Geminis; same-group = one cabinet (x, y / 2), different chassis —
 *     the torus has no dragonfly groups, the cabinet stands in for them;
 *     different-groups = different cabinets. These are packaging classes,
 *     not hop counts (cabinet columns are folded, see topo/torus.c).
 *
 * GPCNeT (network_load_test.c: build_subcomms; ../reference §1.2): all N
 * nodes shuffled, the first C = floor(0.8 N) become congestors, dealt to
 * the 4 congestor tests by shuffled index mod 4, the rest are canaries. An
 * experiment writes it as five `random` jobs over an idle machine, in this
 * order: congestor groups c = 0..3 of floor((C + 3 - c) / 4) nodes each,
 * then the canary job of N - C nodes. Successive uniformly random ordered
 * subsets of what is left are, jointly, a uniformly random permutation cut
 * into consecutive pieces — the same distribution as GPCNeT's shuffle.
 *
 * Randomness: the j-th request draws from rng_stream(seed, RNG_ALLOC, j)
 * and from nothing else, so a run is a pure function of (topology,
 * requests, seed). To repeat an experiment with fresh allocations, vary
 * the seed (e.g. run seed + repetition).
 */
#ifndef DFSIM_ALLOC_H
#define DFSIM_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "core/diag.h"
#include "core/registry.h"
#include "topo/topo.h"

/* Most nodes a job asks for: a Cray XC has at most ~10^4 nodes; the cap
 * keeps nodes x ppn within 32 bits. */
#define ALLOC_NODES_MAX (1u << 24)

/* Largest parameter block of any policy (each checks its own at compile
 * time), so that a job and a request hold one inline or by pointer. */
#define ALLOC_PARAMS_MAX 32

struct alloc_request;
struct alloc_state; /* a placement under way: exp/alloc_internal.h */

/* A job's group as a policy's check sees it, once the policy's keys are
 * read (exp/jobspec.c). */
struct alloc_job {
    struct config_setting_t *g; /* the job's group: cfg_member_line */
    const char *file;           /* where the group is written */
    int line;
    const char *prefix;         /* "jobs[3]", naming it in messages */
    uint32_t nodes;             /* the nodes key; the check sets the count
                                   its own keys imply (list, pair) */
    bool nodes_given;           /* whether the group gives nodes */
    bool after;                 /* whether it names a job it follows */
};

/* An allocation policy, a part like a workload (app/workload.h): its
 * keys, block and defaults, the checks of a job's keys and of a request,
 * and its placement. The flags say what the code around the allocator
 * asks of a policy (exp/jobs.c, exp/impact.c), so that none of it tests
 * which policy a job has. */
struct alloc_policy {
    struct reg_entry base;
    const struct cfg_key *keys;   /* its keys in a job's group (core/
                                     config.h), offsets into its block;
                                     NULL: none */
    size_t params_size;           /* its block, <= ALLOC_PARAMS_MAX */
    const void *defaults;         /* params_size bytes: the block before
                                     the file's keys (NULL: no block) */
    bool nodes_optional;          /* the nodes key may be left out: its
                                     keys or the job it follows say how
                                     many (list, pair, same) */
    bool reuses_nodes;            /* runs on nodes of the job it follows
                                     (after), not on free ones (same) */
    bool phantom_users;           /* holds nodes for other users of the
                                     machine (fragmented): refused beside
                                     a production fill, whose jobs are the
                                     other users */
    bool impact_ok;               /* an impact study may place victims and
                                     aggressors with it (SC'20 §III) */
    /* optional: what the job's keys must satisfy together, reported to d
     * at their lines; sets job->nodes when its keys imply the count. */
    void (*check)(void *params, struct alloc_job *job, struct diag *d);
    /* optional: free what check allocated in the block */
    void (*free)(void *params);
    /* optional: request j's own problems, reported with alloc_job_error
     * (alloc_internal.h) before anything is placed: 0 or -1 */
    int (*check_request)(struct alloc_state *p, uint32_t j);
    /* Place request j (valid, in request order); NULL: place_late. */
    void (*place)(struct alloc_state *p, uint32_t j);
    /* optional: once every request with `place` is placed, the valid
     * requests of this policy, all in one call (same follows chains) */
    void (*place_late)(struct alloc_state *p);
};

/* The registered policies, one line each in exp/alloc_policies.def:
 * ALLOC_POLICY(x) is the const struct alloc_policy alloc_x. */
#define ALLOC_POLICY(x) extern const struct alloc_policy alloc_##x;
#include "exp/alloc_policies.def"
#undef ALLOC_POLICY

/* A list under the name a job of the production fill is listed with in
 * jobs.csv ("production"; exp/production.h). Not registered: a file
 * cannot ask for it. */
extern const struct alloc_policy alloc_production;

/* The policies as registered parts (`dfsim list allocation`, the
 * `allocation` key of a job): each entry is a struct alloc_policy. */
extern const struct registry allocation_registry;

static inline const struct alloc_policy *
alloc_policy_of(const struct reg_entry *e)
{
    return (const struct alloc_policy *)e;
}

/* Fill block (ALLOC_PARAMS_MAX bytes) with p's defaults, zeros beyond. */
void alloc_params_defaults(const struct alloc_policy *p, void *block);

enum alloc_distance {
    ALLOC_SAME_ROUTER,      /* one router (Aries blade, switch, Gemini) */
    ALLOC_SAME_CHASSIS,     /* one chassis, different routers */
    ALLOC_SAME_GROUP,       /* one group (torus: cabinet), different chassis */
    ALLOC_DIFFERENT_GROUPS, /* different groups (torus: cabinets) */
    ALLOC_DISTANCE_COUNT
};

/* Names as written in experiment files, by enum value; NULL-terminated. */
extern const char *const alloc_distance_names[];

/* The distance called `name`, or -1. */
int alloc_distance_find(const char *name);

/* The blocks of the policies with keys, for code that builds requests
 * without a file (the production fill, impact studies, tests). */
struct alloc_list_params {
    const char *node_list; /* the key: "0-15,32,40-47" */
    uint32_t *ids;         /* node ids in rank order: node_list parsed
                              (the job's, freed by the policy's free), or
                              set by the code that builds the job */
    uint32_t n;
};

struct alloc_pair_params {
    uint8_t distance;      /* enum alloc_distance (same-router) */
};

#define ALLOC_DEFAULT_BUSY 0.5     /* fragmented: fraction taken by others */
#define ALLOC_DEFAULT_MAX_BLOCK 32 /* fragmented: largest phantom run */

struct alloc_fragmented_params {
    double busy;           /* share of the free nodes others hold, [0, 1) */
    uint32_t max_block;    /* largest phantom run; 0: the default */
};

/* One job's request. */
struct alloc_request {
    const char *job;              /* name, for messages (NULL: "#j") */
    const char *file;             /* where it was written, for messages */
    int line;                     /*   (NULL / 0: unknown) */
    const struct alloc_policy *policy;
    const void *params;           /* the policy's block (NULL: its
                                     defaults) */
    uint32_t nodes;               /* how many; 0 with a policy whose keys
                                     or predecessor say (nodes_optional) */
    uint32_t ppn;                 /* ranks per node: carried, not used */
    uint32_t follows;             /* the job it follows (after): a policy
                                     that reuses_nodes takes the first
                                     `nodes` of its nodes (0: all) */
};

/* A request with the defaults: linear, 0 nodes, ppn 1, the policy's
 * default block. */
void alloc_request_init(struct alloc_request *r);

/* Place the jobs req[0..n) on t, in order. out[j] receives req[j]'s node
 * ids in rank order (pair: 2, list: its ids, else req[j].nodes), in an
 * array malloc'd here; free them all with alloc_free. The result is a
 * pure function of (t, req, seed). Returns 0; or -1 after reporting every
 * problem to d — a bad request, a list naming a node out of range, twice,
 * already taken or without a NIC, a job asking for more nodes than are
 * free (both counts given), a pair with no free pair at its distance, out
 * of memory — and then every out[j] is NULL. A failed job takes no node;
 * the later jobs are still placed, so that their problems are reported
 * too. */
int alloc_place(const struct topo *t, const struct alloc_request *req,
                uint32_t n, uint64_t seed, uint32_t **out, struct diag *d);

/* Free out[0..n) and set each to NULL. */
void alloc_free(uint32_t **out, uint32_t n);

/* The node that runs rank `rank` of a job placed at nodes[] with ppn ranks
 * per node. */
static inline uint32_t alloc_rank_node(const uint32_t *nodes, uint32_t ppn,
                                       uint32_t rank)
{
    return nodes[rank / (ppn ? ppn : 1)];
}

/* Distance class of nodes a and b (see "Distances"); a == b gives
 * ALLOC_SAME_ROUTER. Both must have a NIC. */
enum alloc_distance alloc_node_distance(const struct topo *t, uint32_t a,
                                        uint32_t b);

/* Whether t's packaging has the level that `dist` names: false only for
 * same-chassis on Slingshot and generic dragonflies. (Whether two nodes
 * at that distance exist, e.g. different-groups on a one-group system,
 * is another matter.) */
bool alloc_distance_exists(const struct topo *t, enum alloc_distance dist);

#endif
