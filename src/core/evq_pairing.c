/* core/evq_pairing.c — the pairing-heap event queue (EVQ_PAIRING).
 *
 * A pairing heap (Fredman, Sedgewick, Sleator and Tarjan, Algorithmica 1,
 * 1986) is a heap-ordered multiway tree stored as child / next-sibling
 * links. Insert melds a one-node tree with the root; delete-min removes the
 * root and melds its children with the two-pass rule (meld pairs left to
 * right, then fold the results right to left), which gives O(log n)
 * amortised delete-min. It shares nothing with the 4-ary array heap in
 * evq.c — different layout, different comparisons, different code paths —
 * which is why it is kept: the tests and bench/bench_evq.c pop the same
 * events from both and require identical sequences.
 *
 * Memory: nodes live in one array indexed by uint32_t (index 0 means
 * "none"), so links are 4 bytes and survive the array being moved when it
 * grows. Freed nodes go on a free list threaded through `next`; a node is
 * only taken from fresh memory (`used`) when the free list is empty, and the
 * array doubles only when that is exhausted.
 *
 * Invariant: every node reachable from `root` holds an event not before
 * (evq_before) its parent's; q->n nodes are reachable, the others are on the
 * free list or never used.
 */
#include "core/evq_pairing.h"

#include <stdlib.h>

struct evq_pnode {
    struct event ev; /* the queued event */
    uint32_t child;  /* first (leftmost) child, 0 if none */
    uint32_t next;   /* next sibling; on the free list, next free node */
};

#define NONE 0u

int evq_pairing_init(struct evq *q, size_t capacity)
{
    if (capacity >= UINT32_MAX - 1)
        return -1;
    /* +1: node 0 is the "none" sentinel and is never handed out. */
    q->nodes = malloc((capacity + 1) * sizeof *q->nodes);
    if (!q->nodes)
        return -1;
    q->cap = capacity;
    q->root = NONE;
    q->free_list = NONE;
    q->used = 0;
    return 0;
}

void evq_pairing_free(struct evq *q)
{
    free(q->nodes);
    q->nodes = NULL;
}

/* Make the later of two roots the leftmost child of the earlier one; both
 * must be roots (next == NONE). Returns the new root. */
static uint32_t meld(struct evq_pnode *nd, uint32_t a, uint32_t b)
{
    if (evq_before(&nd[b].ev, &nd[a].ev)) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    nd[b].next = nd[a].child;
    nd[a].child = b;
    return a;
}

static int grow(struct evq *q)
{
    size_t cap = q->cap ? 2 * q->cap : 16;
    if (cap > UINT32_MAX - 2)
        cap = UINT32_MAX - 2;
    if (cap <= q->cap)
        return -1; /* index space exhausted */
    struct evq_pnode *nodes = realloc(q->nodes, (cap + 1) * sizeof *nodes);
    if (!nodes)
        return -1;
    q->nodes = nodes;
    q->cap = cap;
    return 0;
}

int evq_pairing_push(struct evq *q, const struct event *e)
{
    uint32_t i = q->free_list;
    if (i != NONE) {
        q->free_list = q->nodes[i].next;
    } else {
        if (q->used == q->cap && grow(q) != 0)
            return -1;
        i = ++q->used;
    }
    struct evq_pnode *nd = q->nodes;
    nd[i].ev = *e;
    nd[i].child = NONE;
    nd[i].next = NONE;
    q->root = q->root == NONE ? i : meld(nd, q->root, i);
    q->n++;
    return 0;
}

bool evq_pairing_pop(struct evq *q, struct event *out)
{
    uint32_t r = q->root;
    if (r == NONE)
        return false;
    struct evq_pnode *nd = q->nodes;
    *out = nd[r].ev;

    /* Pass 1, left to right: meld the children in pairs; push each result
     * onto a stack (linked through next), so the stack ends up holding
     * them right to left. */
    uint32_t c = nd[r].child, stack = NONE;
    while (c != NONE) {
        uint32_t a = c, b = nd[a].next;
        if (b == NONE) {
            nd[a].next = stack;
            stack = a;
            break;
        }
        c = nd[b].next;
        nd[a].next = NONE;
        nd[b].next = NONE;
        uint32_t m = meld(nd, a, b);
        nd[m].next = stack;
        stack = m;
    }
    /* Pass 2, right to left: fold the stack into one tree. */
    uint32_t root = stack;
    if (root != NONE) {
        uint32_t s = nd[root].next;
        nd[root].next = NONE;
        while (s != NONE) {
            uint32_t after = nd[s].next;
            nd[s].next = NONE;
            root = meld(nd, root, s);
            s = after;
        }
    }
    q->root = root;

    nd[r].next = q->free_list;
    q->free_list = r;
    q->n--;
    return true;
}

const struct event *evq_pairing_peek(const struct evq *q)
{
    return q->root == NONE ? NULL : &q->nodes[q->root].ev;
}
