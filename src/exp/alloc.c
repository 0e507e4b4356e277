/* exp/alloc.c — placing jobs on nodes; the model is in alloc.h.
 *
 * Invariant: while alloc_place runs, each node is in exactly one state —
 * free, taken by a job, taken by a phantom job (fragmented), or unusable
 * (no NIC) — and a node leaves the free state at most once. Every policy
 * works on the list of free nodes in node order, rebuilt for each job, so
 * the result depends only on the requests, their order and the seed.
 */
#include "exp/alloc.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

const char *const alloc_policy_names[] = {
    [ALLOC_LINEAR] = "linear",
    [ALLOC_INTERLEAVED] = "interleaved",
    [ALLOC_RANDOM] = "random",
    [ALLOC_LIST] = "list",
    [ALLOC_PAIR] = "pair",
    [ALLOC_FRAGMENTED] = "fragmented",
    [ALLOC_SAME] = "same",
    [ALLOC_POLICY_COUNT] = NULL,
};

const char *const alloc_distance_names[] = {
    [ALLOC_SAME_ROUTER] = "same-router",
    [ALLOC_SAME_CHASSIS] = "same-chassis",
    [ALLOC_SAME_GROUP] = "same-group",
    [ALLOC_DIFFERENT_GROUPS] = "different-groups",
    [ALLOC_DISTANCE_COUNT] = NULL,
};

/* Names as alloc_policy_names (a test checks they agree). */
#define POLICY(ID, NAME, TEXT)                                               \
    [ID] = { .base = { .name = NAME, .help = TEXT }, .policy = ID }
static const struct alloc_policy_entry policies[] = {
    POLICY(ALLOC_LINEAR, "linear", "the lowest-numbered free nodes (an idle batch "
                         "system)"),
    POLICY(ALLOC_INTERLEAVED, "interleaved", "jobs share the free nodes round-robin, node "
                              "by node (SC'20 §III)"),
    POLICY(ALLOC_RANDOM, "random", "a uniformly random subset of the free nodes"),
    POLICY(ALLOC_LIST, "list", "exactly the nodes given (node_list)"),
    POLICY(ALLOC_PAIR, "pair", "two nodes at a distance: same-router .. "
                       "different-groups (SC'19 Fig. 3)"),
    POLICY(ALLOC_FRAGMENTED, "fragmented", "a busy batch system: other users' runs first, "
                             "then first fit"),
    POLICY(ALLOC_SAME, "same", "the nodes of the job it runs after (key "
                       "after): one allocation, one job after another"),
};
#undef POLICY

static const struct reg_entry *const policy_entries[] = {
    &policies[ALLOC_LINEAR].base,     &policies[ALLOC_INTERLEAVED].base,
    &policies[ALLOC_RANDOM].base,     &policies[ALLOC_LIST].base,
    &policies[ALLOC_PAIR].base,       &policies[ALLOC_FRAGMENTED].base,
    &policies[ALLOC_SAME].base,
};

const struct registry allocation_registry = {
    .kind = "allocation",
    .help = "allocation policies (linear, interleaved, random, list, pair, "
            "fragmented, same)",
    .entries = policy_entries,
    .n = ALLOC_POLICY_COUNT,
};

int alloc_policy_find(const char *name)
{
    for (int i = 0; name && i < ALLOC_POLICY_COUNT; i++)
        if (strcmp(alloc_policy_names[i], name) == 0)
            return i;
    return -1;
}

int alloc_distance_find(const char *name)
{
    for (int i = 0; name && i < ALLOC_DISTANCE_COUNT; i++)
        if (strcmp(alloc_distance_names[i], name) == 0)
            return i;
    return -1;
}

void alloc_request_init(struct alloc_request *r)
{
    memset(r, 0, sizeof *r);
    r->policy = ALLOC_LINEAR;
    r->ppn = 1;
    r->distance = ALLOC_SAME_ROUTER;
    r->busy = ALLOC_DEFAULT_BUSY;
    r->max_block = ALLOC_DEFAULT_MAX_BLOCK;
}

void alloc_free(uint32_t **out, uint32_t n)
{
    for (uint32_t j = 0; out && j < n; j++) {
        free(out[j]);
        out[j] = NULL;
    }
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

/* ---- placement state ---------------------------------------------------- */

enum node_state { NODE_FREE, NODE_TAKEN, NODE_PHANTOM, NODE_NO_NIC };

struct place {
    const struct topo *t;
    const struct alloc_request *req;
    uint64_t seed;
    uint32_t n;         /* requests */
    uint32_t **out;
    struct diag *d;
    uint8_t *state;     /* enum node_state, per node */
    uint32_t *owner;    /* request that took it (taken or phantom) */
    uint32_t *free_ids; /* free nodes in node order (collect_free) */
    uint8_t *mark;      /* scratch, per node, kept all zero between uses */
};

static void job_name(const struct place *p, uint32_t j, char *buf,
                     size_t cap)
{
    if (p->req[j].job)
        snprintf(buf, cap, "\"%s\"", p->req[j].job);
    else
        snprintf(buf, cap, "#%u", j);
}

/* Report a problem of request j: "job NAME: message". */
static void job_error(struct place *p, uint32_t j, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void job_error(struct place *p, uint32_t j, const char *fmt, ...)
{
    char name[128], msg[768];
    job_name(p, j, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(p->d, p->req[j].file, p->req[j].line, NULL, "job %s: %s",
               name, msg);
}

static const char *node_label(const struct topo *t, uint32_t n, char *buf,
                              size_t cap)
{
    if (n < t->n_nodes && t->nodes[n].n_nics > 0)
        return topo_node_name(t, n, buf, cap);
    snprintf(buf, cap, "no NIC");
    return buf;
}

static uint32_t collect_free(struct place *p)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < p->t->n_nodes; i++)
        if (p->state[i] == NODE_FREE)
            p->free_ids[m++] = i;
    return m;
}

static void not_enough(struct place *p, uint32_t j, uint32_t asked,
                       uint32_t free_nodes)
{
    job_error(p, j, "%s allocation asks for %u nodes, only %u of the %u "
              "nodes are free", alloc_policy_names[p->req[j].policy], asked,
              free_nodes, p->t->n_nodes);
}

/* Give job j the k nodes ids[0..k), in rank order. */
static int give(struct place *p, uint32_t j, const uint32_t *ids, uint32_t k)
{
    uint32_t *o = malloc((k ? k : 1) * sizeof *o);
    if (!o) {
        job_error(p, j, "out of memory placing %u nodes", k);
        return -1;
    }
    for (uint32_t i = 0; i < k; i++) {
        assert(p->state[ids[i]] == NODE_FREE);
        p->state[ids[i]] = NODE_TAKEN;
        p->owner[ids[i]] = j;
        o[i] = ids[i];
    }
    p->out[j] = o;
    return 0;
}

/* A uniform integer in [0, n), n >= 1, over 64 bits: rejection of the
 * short top range, then the remainder. */
static uint64_t below64(struct rng *r, uint64_t n)
{
    assert(n > 0);
    uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
    uint64_t x;
    do
        x = rng_u64(r);
    while (x < threshold);
    return x % n;
}

/* ---- requests ----------------------------------------------------------- */

static int check_request(struct place *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    int bad = 0;
    if ((unsigned)r->policy >= ALLOC_POLICY_COUNT) {
        job_error(p, j, "unknown allocation policy %d", (int)r->policy);
        return -1;
    }
    switch (r->policy) {
    case ALLOC_LIST:
        if (!r->list || r->n_list == 0) {
            job_error(p, j, "list allocation with an empty node list");
            bad = 1;
        } else if (r->nodes != 0 && r->nodes != r->n_list) {
            job_error(p, j, "asks for %u nodes but lists %u", r->nodes,
                      r->n_list);
            bad = 1;
        }
        break;
    case ALLOC_PAIR:
        if (r->nodes != 0 && r->nodes != 2) {
            job_error(p, j, "pair allocation places 2 nodes, not %u",
                      r->nodes);
            bad = 1;
        }
        if ((unsigned)r->distance >= ALLOC_DISTANCE_COUNT) {
            job_error(p, j, "unknown pair distance %d", (int)r->distance);
            bad = 1;
        }
        break;
    case ALLOC_SAME:
        if (r->same_as >= p->n || r->same_as == j) {
            job_error(p, j, "allocation \"same\" takes the nodes of "
                      "another job; it names job %u of %u", r->same_as,
                      p->n);
            bad = 1;
        }
        break;
    case ALLOC_FRAGMENTED:
        if (!(r->busy >= 0.0 && r->busy < 1.0)) {
            job_error(p, j, "fragmented allocation: busy %g is not in "
                      "[0, 1)", r->busy);
            bad = 1;
        }
        /* fall through */
    default: /* every other policy needs a node count */
        if (r->nodes == 0) {
            job_error(p, j, "%s allocation asks for no nodes",
                      alloc_policy_names[r->policy]);
            bad = 1;
        }
        break;
    }
    return bad ? -1 : 0;
}

static void place_linear(struct place *p, uint32_t j)
{
    uint32_t k = p->req[j].nodes, m = collect_free(p);
    if (k > m) {
        not_enough(p, j, k, m);
        return;
    }
    give(p, j, p->free_ids, k);
}

static void place_random(struct place *p, uint32_t j)
{
    uint32_t k = p->req[j].nodes, m = collect_free(p);
    if (k > m) {
        not_enough(p, j, k, m);
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
    give(p, j, f, k);
}

/* All valid interleaved requests from j0 on, together. */
static void place_interleaved(struct place *p, uint32_t j0, uint32_t n,
                              const uint8_t *valid)
{
    uint32_t members = 0, total = 0;
    for (uint32_t j = j0; j < n; j++)
        if (valid[j] && p->req[j].policy == ALLOC_INTERLEAVED) {
            members++;
            total += p->req[j].nodes;
            if (total < p->req[j].nodes)
                total = UINT32_MAX; /* saturate: it cannot fit anyway */
        }
    uint32_t m = collect_free(p);
    if (total > m) {
        if (members == 1) {
            not_enough(p, j0, total, m);
            return;
        }
        char names[512];
        size_t len = 0;
        names[0] = '\0';
        for (uint32_t j = j0; j < n && len + 1 < sizeof names; j++) {
            if (!valid[j] || p->req[j].policy != ALLOC_INTERLEAVED)
                continue;
            char nm[128];
            job_name(p, j, nm, sizeof nm);
            int w = snprintf(names + len, sizeof names - len, "%s%s %u",
                             len ? ", " : "", nm, p->req[j].nodes);
            if (w < 0)
                break;
            len += (size_t)w < sizeof names - len ? (size_t)w
                                                  : sizeof names - len - 1;
        }
        job_error(p, j0, "the %u interleaved jobs (%s) ask for %u nodes "
                  "together, only %u of the %u nodes are free", members,
                  names, total, m, p->t->n_nodes);
        return;
    }
    /* Deal the free nodes round-robin, skipping the jobs already full. */
    uint32_t *idx = malloc(members * sizeof *idx);
    uint32_t *got = calloc(members, sizeof *got);
    int oom = !idx || !got;
    members = 0;
    for (uint32_t j = j0; j < n && !oom; j++)
        if (valid[j] && p->req[j].policy == ALLOC_INTERLEAVED) {
            idx[members++] = j;
            p->out[j] = malloc(p->req[j].nodes * sizeof(uint32_t));
            oom |= !p->out[j];
        }
    if (oom) {
        job_error(p, j0, "out of memory placing interleaved jobs");
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

static void place_list(struct place *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    const struct topo *t = p->t;
    int bad = 0;
    char nm[64], other[128];
    for (uint32_t i = 0; i < r->n_list; i++) {
        uint32_t v = r->list[i];
        if (v >= t->n_nodes) {
            job_error(p, j, "list entry %u: node %u is out of range (the "
                      "system has nodes 0..%u)", i, v, t->n_nodes - 1);
            bad = 1;
            continue;
        }
        if (p->mark[v]) {
            if (p->mark[v] == 1)
                job_error(p, j, "list entry %u: node %u (%s) is listed more "
                          "than once", i, v, node_label(t, v, nm, sizeof nm));
            p->mark[v] = 2;
            bad = 1;
            continue;
        }
        p->mark[v] = 1;
        switch ((enum node_state)p->state[v]) {
        case NODE_FREE:
            break;
        case NODE_NO_NIC:
            job_error(p, j, "list entry %u: node %u has no NIC", i, v);
            bad = 1;
            break;
        case NODE_TAKEN:
        case NODE_PHANTOM:
            job_name(p, p->owner[v], other, sizeof other);
            job_error(p, j, "list entry %u: node %u (%s) is already taken "
                      "by %s%s", i, v, node_label(t, v, nm, sizeof nm),
                      p->state[v] == NODE_PHANTOM
                          ? "the other users of fragmented job "
                          : "job ",
                      other);
            bad = 1;
            break;
        }
    }
    for (uint32_t i = 0; i < r->n_list; i++)
        if (r->list[i] < t->n_nodes)
            p->mark[r->list[i]] = 0;
    if (!bad)
        give(p, j, r->list, r->n_list);
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

static void place_pair(struct place *p, uint32_t j)
{
    const struct topo *t = p->t;
    int cls = (int)p->req[j].distance;
    uint32_t m = collect_free(p);
    const char *dname = alloc_distance_names[cls];
    if (!alloc_distance_exists(t, (enum alloc_distance)cls)) {
        job_error(p, j, "pair at distance %s: a %s system has no chassis "
                  "level (a group's switches are all one hop apart); use "
                  "same-router, same-group or different-groups", dname,
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
        job_error(p, j, "out of memory placing a pair");
        goto done;
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t r = node_router(t, p->free_ids[i]);
        for (int l = 0; l < 3; l++) {
            key[l][i] = level_key(t, r, l);
            assert(key[l][i] < level_size(t, l));
            cnt[l][key[l][i]]++;
        }
    }
/* partners of free node i at distance cls: nodes sharing its level-cls
 * unit (level 3: the system) but not its level cls-1 unit (level -1: i) */
#define UNIT(l, i) ((l) < 0 ? 1u : (l) > 2 ? m : cnt[(l)][key[(l)][(i)]])
#define PARTNERS(i) (UNIT(cls, i) - UNIT(cls - 1, i))
    uint64_t total = 0;
    for (uint32_t i = 0; i < m; i++)
        total += PARTNERS(i);
    if (total == 0) {
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
        job_error(p, j, "no two free nodes are at distance %s (%u of the "
                  "%u nodes are free)%s", dname, m, t->n_nodes, extra);
        goto done;
    }
    /* First node with probability partners / total, the second uniform
     * among its partners: every ordered pair at the distance equally
     * likely. */
    struct rng r = rng_stream(p->seed, RNG_ALLOC, j);
    uint64_t x = below64(&r, total);
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
#undef PARTNERS
#undef UNIT
    assert(b < m);
    uint32_t pair[2] = { p->free_ids[a], p->free_ids[b] };
    give(p, j, pair, 2);
done:
    for (int l = 0; l < 3; l++) {
        free(key[l]);
        free(cnt[l]);
    }
}

static void place_fragmented(struct place *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    uint32_t k = r->nodes, m = collect_free(p);
    uint32_t maxb = r->max_block ? r->max_block : ALLOC_DEFAULT_MAX_BLOCK;
    uint32_t busy = (uint32_t)floor(r->busy * (double)m);
    if (busy >= m && m > 0)
        busy = m - 1; /* busy < 1; guards rounding */
    if (k > m - busy) {
        job_error(p, j, "fragmented allocation asks for %u nodes, only %u "
                  "are free once other users hold busy = %g of the %u free "
                  "nodes (%u); the system has %u nodes",
                  k, m - busy, r->busy, m, busy, p->t->n_nodes);
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
    give(p, j, p->free_ids, k);
}

/* How many nodes job j was given (its request's count). */
static uint32_t given_count(const struct alloc_request *r,
                            const uint32_t *same_n, uint32_t j)
{
    switch (r[j].policy) {
    case ALLOC_PAIR: return 2;
    case ALLOC_LIST: return r[j].n_list;
    case ALLOC_SAME: return same_n[j];
    default: return r[j].nodes;
    }
}

/* The `same` jobs: copies of the nodes of the jobs they name, chains
 * followed (a chain through a failed job or a cycle places nothing). */
static void place_same(struct place *p, const uint8_t *valid, int errors0)
{
    uint32_t n = p->n, *same_n = calloc(n ? n : 1, sizeof *same_n);
    if (!same_n) {
        diag_error(p->d, NULL, 0, NULL, "out of memory placing %u jobs", n);
        return;
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (uint32_t j = 0; j < n; j++) {
            const struct alloc_request *r = &p->req[j];
            if (r->policy != ALLOC_SAME || !valid[j] || p->out[j] ||
                !p->out[r->same_as])
                continue;
            uint32_t have = given_count(p->req, same_n, r->same_as);
            uint32_t k = r->nodes ? r->nodes : have;
            if (k > have) {
                job_error(p, j, "asks for %u of the nodes of job %u, which "
                          "has %u", k, r->same_as, have);
                continue;
            }
            uint32_t *o = malloc((k ? k : 1) * sizeof *o);
            if (!o) {
                job_error(p, j, "out of memory placing %u nodes", k);
                continue;
            }
            memcpy(o, p->out[r->same_as], k * sizeof *o);
            p->out[j] = o;
            same_n[j] = k;
            progress = true;
        }
    }
    for (uint32_t j = 0; j < n; j++)
        if (p->req[j].policy == ALLOC_SAME && valid[j] && !p->out[j] &&
            p->d->errors == errors0)
            job_error(p, j, "the nodes of job %u were never placed (a "
                      "cycle of \"same\" allocations)", p->req[j].same_as);
    free(same_n);
}

int alloc_place(const struct topo *t, const struct alloc_request *req,
                uint32_t n, uint64_t seed, uint32_t **out, struct diag *d)
{
    assert(t && d && (n == 0 || (req && out)));
    for (uint32_t j = 0; j < n; j++)
        out[j] = NULL;
    int errors0 = d->errors;
    size_t nn = t->n_nodes ? t->n_nodes : 1;
    struct place p = {
        .t = t, .req = req, .seed = seed, .n = n, .out = out, .d = d,
        .state = calloc(nn, 1),
        .owner = malloc(nn * sizeof(uint32_t)),
        .free_ids = malloc(nn * sizeof(uint32_t)),
        .mark = calloc(nn, 1),
    };
    uint8_t *valid = calloc(n ? n : 1, 1);
    if (!p.state || !p.owner || !p.free_ids || !p.mark || !valid) {
        diag_error(d, NULL, 0, NULL, "out of memory placing %u jobs", n);
        goto done;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        p.owner[i] = UINT32_MAX;
        if (t->nodes[i].n_nics == 0)
            p.state[i] = NODE_NO_NIC;
    }
    for (uint32_t j = 0; j < n; j++)
        valid[j] = check_request(&p, j) == 0;
    bool interleaved_done = false;
    for (uint32_t j = 0; j < n; j++) {
        if (!valid[j])
            continue;
        switch (req[j].policy) {
        case ALLOC_LINEAR: place_linear(&p, j); break;
        case ALLOC_INTERLEAVED:
            if (!interleaved_done)
                place_interleaved(&p, j, n, valid);
            interleaved_done = true;
            break;
        case ALLOC_RANDOM: place_random(&p, j); break;
        case ALLOC_LIST: place_list(&p, j); break;
        case ALLOC_PAIR: place_pair(&p, j); break;
        case ALLOC_FRAGMENTED: place_fragmented(&p, j); break;
        case ALLOC_SAME: break; /* below, once the others are placed */
        case ALLOC_POLICY_COUNT: break; /* rejected by check_request */
        }
    }
    place_same(&p, valid, errors0);
done:
    free(p.state);
    free(p.owner);
    free(p.free_ids);
    free(p.mark);
    free(valid);
    if (d->errors > errors0) {
        alloc_free(out, n);
        return -1;
    }
    return 0;
}
