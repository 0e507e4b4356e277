/* exp/alloc_basic.c — the three placements SC'20 §III gives victim and
 * aggressor, none with keys of its own:
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
 */
#include "exp/alloc_internal.h"

#include <stdio.h>
#include <stdlib.h>

static void place_linear(struct alloc_state *p, uint32_t j)
{
    uint32_t k = p->req[j].nodes, m = alloc_lowest_free(p, k);
    if (k > m) { /* then it found every free node */
        alloc_not_enough(p, j, k, m);
        return;
    }
    alloc_give(p, j, p->free_ids, k);
}

const struct alloc_policy alloc_linear = {
    .base = { .name = "linear",
              .help = "the lowest-numbered free nodes (an idle batch "
                      "system)" },
    .impact_ok = true,
    .place = place_linear,
};

static void place_random(struct alloc_state *p, uint32_t j)
{
    uint32_t k = p->req[j].nodes, m = alloc_collect_free(p);
    if (k > m) {
        alloc_not_enough(p, j, k, m);
        return;
    }
    struct rng r = rng_stream(p->seed, RNG_ALLOC, j);
    uint32_t *f = p->free_ids;
    for (uint32_t i = 0; i < k; i++) { /* partial Fisher–Yates */
        uint32_t s = i + rng_below(&r, m - i);
        uint32_t tmp = f[i];
        f[i] = f[s];
        f[s] = tmp;
    }
    alloc_give(p, j, f, k);
}

const struct alloc_policy alloc_random = {
    .base = { .name = "random",
              .help = "a uniformly random subset of the free nodes" },
    .impact_ok = true,
    .place = place_random,
};

/* ---- interleaved -------------------------------------------------------- */

static bool interleaved(const struct alloc_state *p, uint32_t j)
{
    return p->valid[j] && p->req[j].policy == &alloc_interleaved;
}

/* The members j0.. of a group that does not fit, for the message. */
static void too_many(struct alloc_state *p, uint32_t j0, uint32_t members,
                     uint32_t total, uint32_t m)
{
    char names[512];
    size_t len = 0;
    names[0] = '\0';
    for (uint32_t j = j0; j < p->n && len + 1 < sizeof names; j++) {
        if (!interleaved(p, j))
            continue;
        char nm[128];
        alloc_job_name(p, j, nm, sizeof nm);
        int w = snprintf(names + len, sizeof names - len, "%s%s %u",
                         len ? ", " : "", nm, p->req[j].nodes);
        if (w < 0)
            break;
        len += (size_t)w < sizeof names - len ? (size_t)w
                                              : sizeof names - len - 1;
    }
    alloc_job_error(p, j0, "the %u interleaved jobs (%s) ask for %u nodes "
                    "together, only %u of the %u nodes are free", members,
                    names, total, m, p->t->n_nodes);
}

/* Every valid interleaved request from j0 on, together, at the first;
 * the later ones find it done. */
static void place_interleaved(struct alloc_state *p, uint32_t j0)
{
    for (uint32_t j = 0; j < j0; j++)
        if (interleaved(p, j))
            return;
    uint32_t members = 0, total = 0;
    for (uint32_t j = j0; j < p->n; j++)
        if (interleaved(p, j)) {
            members++;
            total += p->req[j].nodes;
            if (total < p->req[j].nodes)
                total = UINT32_MAX; /* saturate: it cannot fit anyway */
        }
    uint32_t m = alloc_collect_free(p);
    if (total > m) {
        if (members == 1)
            alloc_not_enough(p, j0, total, m);
        else
            too_many(p, j0, members, total, m);
        return;
    }
    /* Deal the free nodes round-robin, skipping the jobs already full. */
    uint32_t *idx = malloc(members * sizeof *idx);
    uint32_t *got = calloc(members, sizeof *got);
    int oom = !idx || !got;
    members = 0;
    for (uint32_t j = j0; j < p->n && !oom; j++)
        if (interleaved(p, j)) {
            idx[members++] = j;
            p->out[j] = malloc(p->req[j].nodes * sizeof(uint32_t));
            p->given[j] = p->req[j].nodes;
            oom |= !p->out[j];
        }
    if (oom) {
        alloc_job_error(p, j0, "out of memory placing interleaved jobs");
        free(idx);
        free(got);
        return;
    }
    uint32_t cur = 0;
    for (uint32_t i = 0, done = 0; done < total; i++) {
        while (got[cur] == p->req[idx[cur]].nodes)
            cur = (cur + 1) % members;
        uint32_t j = idx[cur], node = p->free_ids[i];
        p->out[j][got[cur]++] = node;
        p->state[node] = NODE_TAKEN;
        p->owner[node] = j;
        done++;
        cur = (cur + 1) % members;
    }
    free(idx);
    free(got);
}

const struct alloc_policy alloc_interleaved = {
    .base = { .name = "interleaved",
              .help = "jobs share the free nodes round-robin, node by node "
                      "(SC'20 §III)" },
    .impact_ok = true,
    .place = place_interleaved,
};
