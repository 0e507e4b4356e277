/* exp/alloc_pair.c — pair: two nodes at a chosen distance (key distance,
 * alloc.h "Distances"), drawn uniformly among the ordered pairs of free
 * nodes at that distance; an error if there is none (SC'19 §3.1 and
 * Fig. 3 place a ping-pong on two nodes of one blade, two blades, two
 * chassis and two groups). Here too the distances themselves
 * (alloc_node_distance): the packaging levels of the machine room.
 */
#include "exp/alloc_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const alloc_distance_names[] = {
    [ALLOC_SAME_ROUTER] = "same-router",
    [ALLOC_SAME_CHASSIS] = "same-chassis",
    [ALLOC_SAME_GROUP] = "same-group",
    [ALLOC_DIFFERENT_GROUPS] = "different-groups",
    [ALLOC_DISTANCE_COUNT] = NULL,
};

int alloc_distance_find(const char *name)
{
    for (int i = 0; name && i < ALLOC_DISTANCE_COUNT; i++)
        if (strcmp(alloc_distance_names[i], name) == 0)
            return i;
    return -1;
}

/* ---- packaging levels ---------------------------------------------------
 * Level 0 is the router, 1 the chassis, 2 the group (torus: cabinet); two
 * nodes are at distance class L when they share level L but not L - 1.
 * level_key gives a router's key at a level, dense in [0, level_size). */

static uint32_t node_router(const struct topo *t, uint32_t node)
{
    return t->nics[t->nodes[node].nic[0]].router;
}

/* The key and count of the machine room's levels (0: router, 1:
 * chassis, 2: group or cabinet): the family's own geometry. */
static uint32_t level_key(const struct topo *t, uint32_t r, int level)
{
    return t->family->level_key(t, r, level);
}

static uint32_t level_size(const struct topo *t, int level)
{
    return t->family->level_size(t, level);
}

enum alloc_distance alloc_node_distance(const struct topo *t, uint32_t a,
                                        uint32_t b)
{
    assert(a < t->n_nodes && b < t->n_nodes);
    assert(t->nodes[a].n_nics > 0 && t->nodes[b].n_nics > 0);
    uint32_t ra = node_router(t, a), rb = node_router(t, b);
    for (int l = 0; l < 3; l++)
        if (level_key(t, ra, l) == level_key(t, rb, l))
            return (enum alloc_distance)l;
    return ALLOC_DIFFERENT_GROUPS;
}

bool alloc_distance_exists(const struct topo *t, enum alloc_distance dist)
{
    return !(dist == ALLOC_SAME_CHASSIS && !t->family->chassis);
}

/* How many units of `level` the system's routers occupy (level_size is
 * the keys' range: a partial group leaves chassis keys unused). */
static uint32_t level_count(const struct topo *t, int level)
{
    uint32_t size = level_size(t, level), n = 0;
    uint8_t *seen = calloc(size ? size : 1, 1);
    if (!seen)
        return size;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        uint32_t k = level_key(t, r, level);
        n += !seen[k];
        seen[k] = 1;
    }
    free(seen);
    return n;
}

/* ---- the policy --------------------------------------------------------- */

_Static_assert(sizeof(struct alloc_pair_params) <= ALLOC_PARAMS_MAX,
               "pair: block");

static const struct cfg_key keys[] = {
    { .name = "distance", .type = CFG_ENUM,
      .offset = offsetof(struct alloc_pair_params, distance),
      .help = "allocation = \"pair\": how far apart its two nodes are",
      .choices = alloc_distance_names },
    { .name = NULL },
};

static const struct alloc_pair_params defaults = {
    .distance = ALLOC_SAME_ROUTER,
};

/* distance is required; a pair is 2 nodes. */
static void check(void *params, struct alloc_job *job, struct diag *d)
{
    (void)params;
    if (!cfg_given_line(job->g, "distance"))
        diag_error(d, job->file, job->line, job->prefix,
                   "allocation = \"pair\" needs distance (one of "
                   "same-router, same-chassis, same-group, "
                   "different-groups)");
    char key[64];
    snprintf(key, sizeof key, "%s.nodes", job->prefix);
    if (job->nodes_given && job->nodes != 2)
        diag_error(d, job->file, cfg_member_line(job->g, "nodes"), key,
                   "a pair is 2 nodes, not %u", job->nodes);
    job->nodes = 2;
}

static int check_request(struct alloc_state *p, uint32_t j)
{
    const struct alloc_pair_params *pp = alloc_params(p, j);
    int bad = 0;
    if (p->req[j].nodes != 0 && p->req[j].nodes != 2) {
        alloc_job_error(p, j, "pair allocation places 2 nodes, not %u",
                        p->req[j].nodes);
        bad = -1;
    }
    if (pp->distance >= ALLOC_DISTANCE_COUNT) {
        alloc_job_error(p, j, "unknown pair distance %d", (int)pp->distance);
        bad = -1;
    }
    return bad;
}

/* Why no two free nodes are at distance cls, with the counts that tell. */
static void no_pair(struct alloc_state *p, uint32_t j, int cls, uint32_t m)
{
    const struct topo *t = p->t;
    char extra[192] = "";
    const char *grp = t->family->group_word;
    if (cls == ALLOC_DIFFERENT_GROUPS)
        snprintf(extra, sizeof extra, " (the system has %u %s(s))",
                 level_size(t, 2), grp);
    else if (cls == ALLOC_SAME_GROUP)
        snprintf(extra, sizeof extra, " (same-group: one %s, different "
                 "chassis; the system has %u chassis in %u %s(s): try "
                 "same-chassis)",
                 grp, level_count(t, 1), level_count(t, 2), grp);
    else if (cls == ALLOC_SAME_CHASSIS)
        snprintf(extra, sizeof extra, " (same-chassis: one chassis, "
                 "different routers; the system has %u routers on %u "
                 "chassis)",
                 level_count(t, 0), level_count(t, 1));
    alloc_job_error(p, j, "no two free nodes are at distance %s (%u of the "
                    "%u nodes are free)%s", alloc_distance_names[cls], m,
                    t->n_nodes, extra);
}

/* partners of free node i at distance cls: nodes sharing its level-cls
 * unit (level 3: the system) but not its level cls-1 unit (level -1: i) */
#define UNIT(l, i) ((l) < 0 ? 1u : (l) > 2 ? m : cnt[(l)][key[(l)][(i)]])
#define PARTNERS(i) (UNIT(cls, i) - UNIT(cls - 1, i))

/* Draw the pair from the free nodes' keys and unit counts: the first
 * node with probability partners / total, the second uniform among its
 * partners, so every ordered pair at the distance is equally likely. */
static void draw(struct alloc_state *p, uint32_t j, int cls, uint32_t m,
                 uint32_t *const key[3], uint32_t *const cnt[3])
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < m; i++)
        total += PARTNERS(i);
    if (total == 0) {
        no_pair(p, j, cls, m);
        return;
    }
    struct rng r = rng_stream(p->seed, RNG_ALLOC, j);
    uint64_t x = alloc_below64(&r, total);
    uint32_t a = 0;
    while (x >= PARTNERS(a)) {
        x -= PARTNERS(a);
        a++;
    }
    uint32_t y = rng_below(&r, PARTNERS(a)), b = 0;
    for (b = 0; b < m; b++) {
        bool ok = b != a &&
                  (cls == ALLOC_DIFFERENT_GROUPS ||
                   key[cls][b] == key[cls][a]) &&
                  (cls == ALLOC_SAME_ROUTER ||
                   key[cls - 1][b] != key[cls - 1][a]);
        if (ok && y-- == 0)
            break;
    }
    assert(b < m);
    uint32_t pair[2] = { p->free_ids[a], p->free_ids[b] };
    alloc_give(p, j, pair, 2);
}
#undef PARTNERS
#undef UNIT

static void place_pair(struct alloc_state *p, uint32_t j)
{
    const struct topo *t = p->t;
    int cls = ((const struct alloc_pair_params *)alloc_params(p, j))
                  ->distance;
    uint32_t m = alloc_collect_free(p);
    if (!alloc_distance_exists(t, (enum alloc_distance)cls)) {
        alloc_job_error(p, j, "pair at distance %s: a %s system has no "
                        "chassis level (a group's switches are all one hop "
                        "apart); use same-router, same-group or "
                        "different-groups", alloc_distance_names[cls],
                        t->family->name);
        return;
    }
    uint32_t *key[3] = { NULL, NULL, NULL }, *cnt[3] = { NULL, NULL, NULL };
    int oom = 0;
    for (int l = 0; l < 3; l++) {
        key[l] = malloc((m ? m : 1) * sizeof(uint32_t));
        cnt[l] = calloc(level_size(t, l), sizeof(uint32_t));
        oom |= !key[l] || !cnt[l];
    }
    if (oom) {
        alloc_job_error(p, j, "out of memory placing a pair");
    } else {
        for (uint32_t i = 0; i < m; i++) {
            uint32_t r = node_router(t, p->free_ids[i]);
            for (int l = 0; l < 3; l++) {
                key[l][i] = level_key(t, r, l);
                assert(key[l][i] < level_size(t, l));
                cnt[l][key[l][i]]++;
            }
        }
        draw(p, j, cls, m, key, cnt);
    }
    for (int l = 0; l < 3; l++) {
        free(key[l]);
        free(cnt[l]);
    }
}

const struct alloc_policy alloc_pair = {
    .base = { .name = "pair",
              .help = "two nodes at a distance: same-router .. "
                      "different-groups (SC'19 Fig. 3)" },
    .keys = keys,
    .params_size = sizeof(struct alloc_pair_params),
    .defaults = &defaults,
    .nodes_optional = true,
    .check = check,
    .check_request = check_request,
    .place = place_pair,
};
