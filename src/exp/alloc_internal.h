/* exp/alloc_internal.h — what the allocation policies' files share, for
 * them only: a placement under way and the helpers every policy calls.
 *
 *   alloc.c             the registry, requests, alloc_place's run
 *   alloc_basic.c       linear, interleaved, random
 *   alloc_list.c        list (and the production fill's "production")
 *   alloc_pair.c        pair, and the distances (packaging levels)
 *   alloc_fragmented.c  fragmented
 *   alloc_same.c        same
 *
 * Invariant: while alloc_place runs, each node is in exactly one state —
 * free, taken by a job, taken by a phantom job (fragmented), or unusable
 * (no NIC) — and a node leaves the free state at most once. Every policy
 * works on the list of free nodes in node order, rebuilt for each job, so
 * the result depends only on the requests, their order and the seed.
 */
#ifndef DFSIM_ALLOC_INTERNAL_H
#define DFSIM_ALLOC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "exp/alloc.h"

enum node_state { NODE_FREE, NODE_TAKEN, NODE_PHANTOM, NODE_NO_NIC };

struct alloc_state {
    const struct topo *t;
    const struct alloc_request *req;
    uint64_t seed;
    uint32_t n;         /* requests */
    uint32_t **out;
    uint32_t *given;    /* [n]: how many nodes out[j] holds */
    const uint8_t *valid; /* [n]: request j passed its checks */
    struct diag *d;
    int errors0;        /* d's errors before alloc_place */
    uint8_t *state;     /* enum node_state, per node */
    uint32_t *owner;    /* request that took it (taken or phantom) */
    uint32_t *free_ids; /* free nodes in node order (alloc_collect_free) */
    uint8_t *mark;      /* scratch, per node, kept all zero between uses */
    uint32_t lowest;    /* every node below it is not free: nodes are never
                           freed while placing (alloc_lowest_free) */
};

/* Request j's block: its own, or its policy's defaults. */
static inline const void *alloc_params(const struct alloc_state *p,
                                       uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    return r->params ? r->params : r->policy->defaults;
}

/* "\"name\"", or "#j" for a request without a name, into buf. */
void alloc_job_name(const struct alloc_state *p, uint32_t j, char *buf,
                    size_t cap);

/* Report a problem of request j: "job NAME: message" at its file and
 * line. */
void alloc_job_error(struct alloc_state *p, uint32_t j, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Node n's cname, or "no NIC", into buf. */
const char *alloc_node_label(const struct topo *t, uint32_t n, char *buf,
                             size_t cap);

/* The free nodes in node order into p->free_ids; returns how many. */
uint32_t alloc_collect_free(struct alloc_state *p);

/* The k lowest free nodes in node order into p->free_ids, or all of
 * them if there are fewer; returns how many. From p->lowest on, which it
 * moves past the nodes it looked at that are not free, so that placing
 * job after job looks at each node about once, not once per job (issue
 * 57: 32,000 linear jobs). */
uint32_t alloc_lowest_free(struct alloc_state *p, uint32_t k);

/* "<policy> allocation asks for <asked> nodes, only <free> of the <all>
 * nodes are free". */
void alloc_not_enough(struct alloc_state *p, uint32_t j, uint32_t asked,
                      uint32_t free_nodes);

/* Give job j the k free nodes ids[0..k), in rank order: 0, or -1 out of
 * memory (reported). */
int alloc_give(struct alloc_state *p, uint32_t j, const uint32_t *ids,
               uint32_t k);

/* A uniform integer in [0, n), n >= 1, over 64 bits. */
uint64_t alloc_below64(struct rng *r, uint64_t n);

#endif
