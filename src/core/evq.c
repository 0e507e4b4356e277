/* core/evq.c — the event queue's API and its default implementation, a
 * 4-ary implicit min-heap (EVQ_HEAP4). See evq.h for the order and its
 * invariant; the other implementation is in evq_pairing.c.
 *
 * Layout: events are stored by value in one array; the children of slot i
 * are slots 4i+1 .. 4i+4 and its parent is (i-1)/4. A 4-ary heap is half as
 * deep as a binary one, and the four children compared at each step of a
 * sift-down are adjacent. The array starts three slots into a 64-byte
 * aligned block, so that slot 4i+1 falls on a 128-byte boundary: each group
 * of four 32-byte siblings fills exactly two cache lines.
 *
 * Invariant (heap order): for every slot i > 0, heap[(i-1)/4] is not after
 * heap[i] in (time, key) order; so heap[0] is the minimum.
 *
 * Dispatch between the two implementations is a switch on q->impl (no
 * function pointers): the branch is perfectly predicted and the heap code
 * stays inlinable.
 */
#include "core/evq.h"

#include <stdlib.h>
#include <string.h>

#include "core/evq_pairing.h"

#define LINE 64u     /* cache line: alignment of the block */
#define HEAP_SKEW 3u /* slots before heap[0] within the block */

/* A block holding `cap` heap slots, 64-byte aligned, or NULL. */
static void *heap_block(size_t cap)
{
    if (cap > (SIZE_MAX - LINE) / sizeof(struct event) - HEAP_SKEW)
        return NULL;
    size_t bytes = (cap + HEAP_SKEW) * sizeof(struct event);
    bytes = (bytes + LINE - 1) / LINE * LINE; /* C11 aligned_alloc rule */
    return aligned_alloc(LINE, bytes);
}

static int heap_resize(struct evq *q, size_t cap)
{
    void *block = heap_block(cap);
    if (!block)
        return -1;
    struct event *heap = (struct event *)block + HEAP_SKEW;
    if (q->n)
        memcpy(heap, q->heap, q->n * sizeof *heap);
    free(q->block);
    q->block = block;
    q->heap = heap;
    q->cap = cap;
    return 0;
}

static int heap_push(struct evq *q, const struct event *e)
{
    if (q->n == q->cap && heap_resize(q, q->cap ? 2 * q->cap : 16) != 0)
        return -1;
    struct event *a = q->heap;
    size_t i = q->n++;
    /* Sift up: move the hole towards the root while e goes before the
     * parent; write e once at the end. */
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!evq_before(e, &a[p]))
            break;
        a[i] = a[p];
        i = p;
    }
    a[i] = *e;
    return 0;
}

static bool heap_pop(struct evq *q, struct event *out)
{
    if (q->n == 0)
        return false;
    struct event *a = q->heap;
    *out = a[0];
    size_t n = --q->n;
    if (n == 0)
        return true;
    /* Sift down: the last event fills the hole left at the root; move the
     * hole down to the earliest child while that child goes before it. */
    const struct event last = a[n];
    size_t i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c + 3 < n) { /* all four children exist: a small tournament */
            size_t m01 = evq_before(&a[c + 1], &a[c]) ? c + 1 : c;
            size_t m23 = evq_before(&a[c + 3], &a[c + 2]) ? c + 3 : c + 2;
            c = evq_before(&a[m23], &a[m01]) ? m23 : m01;
        } else if (c < n) {
            size_t m = c;
            for (size_t j = c + 1; j < n; j++)
                if (evq_before(&a[j], &a[m]))
                    m = j;
            c = m;
        } else {
            break;
        }
        if (!evq_before(&a[c], &last))
            break;
        a[i] = a[c];
        i = c;
    }
    a[i] = last;
    return true;
}

int evq_init(struct evq *q, enum evq_impl impl, size_t capacity_hint)
{
    memset(q, 0, sizeof *q);
    q->impl = impl;
    size_t cap = capacity_hint ? capacity_hint : 64;
    switch (impl) {
    case EVQ_HEAP4:
        return heap_resize(q, cap);
    case EVQ_PAIRING:
        return evq_pairing_init(q, cap);
    }
    assert(0 && "unknown evq_impl");
    return -1;
}

void evq_free(struct evq *q)
{
    switch (q->impl) {
    case EVQ_HEAP4:
        free(q->block);
        break;
    case EVQ_PAIRING:
        evq_pairing_free(q);
        break;
    }
    enum evq_impl impl = q->impl;
    memset(q, 0, sizeof *q);
    q->impl = impl;
}

int evq_push(struct evq *q, const struct event *e)
{
    switch (q->impl) {
    case EVQ_HEAP4:
        return heap_push(q, e);
    case EVQ_PAIRING:
        return evq_pairing_push(q, e);
    }
    return -1;
}

bool evq_pop(struct evq *q, struct event *out)
{
    switch (q->impl) {
    case EVQ_HEAP4:
        return heap_pop(q, out);
    case EVQ_PAIRING:
        return evq_pairing_pop(q, out);
    }
    return false;
}

const struct event *evq_peek(const struct evq *q)
{
    if (q->n == 0)
        return NULL;
    switch (q->impl) {
    case EVQ_HEAP4:
        return &q->heap[0];
    case EVQ_PAIRING:
        return evq_pairing_peek(q);
    }
    return NULL;
}
