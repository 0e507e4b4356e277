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
 * Policies (names as written in experiment files):
 *   linear       the lowest-numbered free nodes, in node order (a batch
 *                system on an idle machine).
 *   interleaved  every job that asks for it shares the free nodes
 *                round-robin, node by node in node order (SC'20 §III:
 *                victim and aggressor alternate); a job that has all its
 *                nodes drops out of the rotation. All interleaved jobs of
 *                a call are placed together, at the position of the first
 *                one; with a single interleaved job this is linear.
 *   random       a uniformly random subset of the free nodes, in random
 *                order (a partial Fisher–Yates shuffle).
 *   list         exactly the node ids given, in that order.
 *   pair         two nodes at a chosen distance, drawn uniformly among the
 *                ordered pairs of free nodes at that distance (see
 *                "Distances"); an error if there is none.
 *   fragmented   a busy batch system: first, phantom jobs (other users)
 *                take floor(busy x F) of the F free nodes, as runs of
 *                consecutive free nodes: a run starts at a node drawn
 *                uniformly among those still free and takes up to s
 *                following free nodes in node order (nodes of real jobs
 *                are stepped over, as the batch system sees only the free
 *                list), s uniform in 1..max_block; a run stops short at the
 *                end of the list, at an earlier phantom run (so runs do not
 *                snowball into a few huge ones) or when the total is
 *                reached. Then the job takes the lowest free nodes (first
 *                fit), so it is spread over the gaps. The phantom nodes
 *                stay taken for the later jobs of the call, as other users'
 *                jobs would; a second fragmented job marks busy x (what is
 *                then free) again.
 *   same         the first `nodes` (0: all) of another job's nodes, in its
 *                rank order, whatever that job's policy: the next command
 *                of a batch script in the same allocation (SC'19 §5.1 runs
 *                its microbenchmarks one after another on one fixed
 *                allocation). The two jobs must not run at the same time;
 *                exp/jobs.c lets a job take another's nodes only when it
 *                starts after that one has ended. Draws nothing.
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
#include <stdint.h>

#include "core/diag.h"
#include "core/registry.h"
#include "topo/topo.h"

enum alloc_policy {
    ALLOC_LINEAR,
    ALLOC_INTERLEAVED,
    ALLOC_RANDOM,
    ALLOC_LIST,
    ALLOC_PAIR,
    ALLOC_FRAGMENTED,
    ALLOC_SAME,
    ALLOC_POLICY_COUNT
};

/* Names as written in experiment files, by enum value; NULL-terminated. */
extern const char *const alloc_policy_names[];

/* The policy called `name`, or -1. */
int alloc_policy_find(const char *name);

/* The policies as registered parts (`dfsim list allocation`, the
 * `allocation` key of a job): each entry is a struct alloc_policy_entry. */
struct alloc_policy_entry {
    struct reg_entry base;
    enum alloc_policy policy;
};
extern const struct registry allocation_registry;

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

#define ALLOC_DEFAULT_BUSY 0.5     /* fragmented: fraction taken by others */
#define ALLOC_DEFAULT_MAX_BLOCK 32 /* fragmented: largest phantom run */

/* One job's request. Fields a policy does not use are ignored. */
struct alloc_request {
    const char *job;              /* name, for messages (NULL: "#j") */
    const char *file;             /* where it was written, for messages */
    int line;                     /*   (NULL / 0: unknown) */
    enum alloc_policy policy;
    uint32_t nodes;               /* how many; list: 0 or n_list; pair: 0
                                     or 2 */
    uint32_t ppn;                 /* ranks per node: carried, not used */
    const uint32_t *list;         /* ALLOC_LIST: node ids, in rank order */
    uint32_t n_list;
    enum alloc_distance distance; /* ALLOC_PAIR */
    double busy;                  /* ALLOC_FRAGMENTED: in [0, 1) */
    uint32_t max_block;           /* ALLOC_FRAGMENTED: 0 = default (32) */
    uint32_t same_as;             /* ALLOC_SAME: the job whose nodes it
                                     takes; nodes: 0 = all of them */
};

/* A request with the defaults: linear, 0 nodes, ppn 1, busy 0.5,
 * max_block 32. */
void alloc_request_init(struct alloc_request *r);

/* Place the jobs req[0..n) on t, in order. out[j] receives req[j]'s node
 * ids in rank order (pair: 2, list: n_list, else req[j].nodes), in an
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
