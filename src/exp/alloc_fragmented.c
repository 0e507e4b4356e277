/* exp/alloc_fragmented.c — fragmented: a busy batch system (keys busy,
 * max_block). First, phantom jobs (other users) take floor(busy x F) of
 * the F free nodes, as runs of consecutive free nodes: a run starts at a
 * node drawn uniformly among those still free and takes up to s following
 * free nodes in node order (nodes of real jobs are stepped over, as the
 * batch system sees only the free list), s uniform in 1..max_block; a run
 * stops short at the end of the list, at an earlier phantom run (so runs
 * do not snowball into a few huge ones) or when the total is reached.
 * Then the job takes the lowest free nodes (first fit), so it is spread
 * over the gaps. The phantom nodes stay taken for the later jobs of the
 * call, as other users' jobs would; a second fragmented job marks busy x
 * (what is then free) again.
 */
#include "exp/alloc_internal.h"

#include <math.h>

_Static_assert(sizeof(struct alloc_fragmented_params) <= ALLOC_PARAMS_MAX,
               "fragmented: block");

#define KEY(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct alloc_fragmented_params, field),             \
      .help = text, __VA_ARGS__ }

static const struct cfg_key keys[] = {
    KEY(CFG_FLOAT, "busy", busy,
        "allocation = \"fragmented\": share of the free nodes other users "
        "hold (0.5)",
        .fmin = 0, .fmax = 0.99),
    KEY(CFG_UINT32, "max_block", max_block,
        "allocation = \"fragmented\": largest run of nodes another user "
        "holds (32)",
        .min = 1, .max = ALLOC_NODES_MAX),
    { .name = NULL },
};

static const struct alloc_fragmented_params defaults = {
    .busy = ALLOC_DEFAULT_BUSY,
    .max_block = ALLOC_DEFAULT_MAX_BLOCK,
};

static int check_request(struct alloc_state *p, uint32_t j)
{
    const struct alloc_fragmented_params *fp = alloc_params(p, j);
    if (!(fp->busy >= 0.0 && fp->busy < 1.0)) {
        alloc_job_error(p, j, "fragmented allocation: busy %g is not in "
                        "[0, 1)", fp->busy);
        return -1;
    }
    return 0;
}

static void place_fragmented(struct alloc_state *p, uint32_t j)
{
    const struct alloc_fragmented_params *fp = alloc_params(p, j);
    uint32_t k = p->req[j].nodes, m = alloc_collect_free(p);
    uint32_t maxb = fp->max_block ? fp->max_block : ALLOC_DEFAULT_MAX_BLOCK;
    uint32_t busy = (uint32_t)floor(fp->busy * (double)m);
    if (busy >= m && m > 0)
        busy = m - 1; /* busy < 1; guards rounding */
    if (k > m - busy) {
        alloc_job_error(p, j, "fragmented allocation asks for %u nodes, "
                        "only %u are free once other users hold busy = %g "
                        "of the %u free nodes (%u); the system has %u nodes",
                        k, m - busy, fp->busy, m, busy, p->t->n_nodes);
        return;
    }
    /* Phantom runs, over positions of the free list; p->mark flags the
     * phantom positions (scratch of n_nodes >= m bytes). */
    struct rng rs = rng_stream(p->seed, RNG_ALLOC, j);
    uint8_t *ph = p->mark;
    for (uint32_t marked = 0; marked < busy;) {
        /* a start uniform among the positions still free: rejection, at
         * most 1 / (1 - busy) draws on average */
        uint32_t pos = rng_below(&rs, m);
        if (ph[pos])
            continue;
        uint32_t size = 1 + rng_below(&rs, maxb);
        /* the run stops at the end, at another phantom run, or when the
         * phantoms are complete */
        for (; size > 0 && pos < m && !ph[pos] && marked < busy; size--) {
            ph[pos++] = 1;
            marked++;
        }
    }
    /* first fit over what is left; compact the job's nodes to the front */
    uint32_t got = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t node = p->free_ids[i];
        if (ph[i]) {
            p->state[node] = NODE_PHANTOM;
            p->owner[node] = j;
        } else if (got < k) {
            p->free_ids[got++] = node; /* got <= i: no clobbering ahead */
        }
        ph[i] = 0;
    }
    alloc_give(p, j, p->free_ids, k);
}

const struct alloc_policy alloc_fragmented = {
    .base = { .name = "fragmented",
              .help = "a busy batch system: other users' runs first, then "
                      "first fit" },
    .keys = keys,
    .params_size = sizeof(struct alloc_fragmented_params),
    .defaults = &defaults,
    .phantom_users = true,
    .check_request = check_request,
    .place = place_fragmented,
};
