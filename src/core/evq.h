/* core/evq.h — the pending-event set of one simulation partition.
 *
 * What is modelled: nothing physical; this is the scheduler's priority
 * queue (DESIGN.md §2). An event is 32 bytes, stored by value; it names the
 * entity it is for (`target`), what happens (`type`, a handler index in
 * struct sim) and one 64-bit argument (a port, a pool index, a counter...).
 *
 * Invariant — the order is a total order that does not depend on how the
 * simulation is partitioned: events are popped by increasing (time, key),
 * where key = evq_key(creator, seq) packs the id of the entity that created
 * the event and that entity's own running count of events created. Two
 * events created by the same entity never share a key, and two created by
 * different entities differ in the creator bits, so (time, key) pairs are
 * unique and the pop order is fully determined by the set of events pushed,
 * never by the order in which they were pushed or by which other events
 * live in the same queue. A global insertion counter would break this: it
 * numbers events differently when the entities are spread over processes.
 * Pushing two events with equal (time, key) is a caller bug; the queue
 * still works but which of the two comes first is unspecified.
 *
 * Three implementations sit behind the same calls, chosen at init
 * (evq_init_calendar only sets the calendar's geometry):
 *   EVQ_HEAP4     a 4-ary implicit min-heap over one flat array of events
 *                 (no pointers, a parent's four children share two cache
 *                 lines): O(log n) per operation whatever the times are;
 *                 the reference the other two are tested against;
 *   EVQ_PAIRING   a pairing heap over a pool of nodes with a free list
 *                 (evq_pairing.c; structurally unrelated, kept so that the
 *                 tests and the benchmark can compare the pop sequences
 *                 event by event);
 *   EVQ_CALENDAR  a calendar queue (timing wheel; evq.c): a ring of
 *                 buckets of 2^wbits ps, unsorted until the current one is
 *                 reached and sorted by counting on the time bits, plus a
 *                 heap for events beyond the ring's window. O(1) amortised
 *                 per event when events are spread over time as in a
 *                 network simulation (increments of ns to us): the one for
 *                 long runs with large pending sets. Any times are allowed,
 *                 before the last pop included, and the pop sequence is
 *                 exactly EVQ_HEAP4's.
 * None allocates except to grow, by doubling, when full; no pop allocates.
 * A heap queue sized by capacity_hint for the largest pending set never
 * allocates in the loop; the calendar sizes its pool of bucket chunks by
 * the hint, and its other arrays reach their steady size within the first
 * window of a run.
 */
#ifndef DFSIM_EVQ_H
#define DFSIM_EVQ_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/time.h"

struct event {
    simtime time;    /* when it happens (ps) */
    uint64_t key;    /* evq_key(creator, seq): breaks ties in time */
    uint32_t target; /* entity it is delivered to */
    uint32_t type;   /* handler index (struct sim) */
    uint64_t arg;    /* payload: a port, an index into a pool, a count */
};

_Static_assert(sizeof(struct event) == 32, "struct event must be 32 bytes");

#define EVQ_CREATOR_BITS 24 /* creators are entity ids < 2^24 */
#define EVQ_SEQ_BITS 40     /* each creates < 2^40 events in a run */
#define EVQ_CREATOR_MAX ((UINT32_C(1) << EVQ_CREATOR_BITS) - 1)
#define EVQ_SEQ_MAX ((UINT64_C(1) << EVQ_SEQ_BITS) - 1)

/* The tie-breaking key of the seq-th event created by entity `creator`:
 * creator in the top 24 bits, seq in the low 40. At equal times, events are
 * therefore ordered by creator id, then by creation order within a creator.
 * Both ranges are asserted. */
static inline uint64_t evq_key(uint32_t creator, uint64_t seq)
{
    assert(creator <= EVQ_CREATOR_MAX);
    assert(seq <= EVQ_SEQ_MAX);
    return ((uint64_t)creator << EVQ_SEQ_BITS) | seq;
}

/* The strict order of the queue: a before b. */
static inline bool evq_before(const struct event *a, const struct event *b)
{
    return a->time < b->time || (a->time == b->time && a->key < b->key);
}

enum evq_impl {
    EVQ_HEAP4,    /* 4-ary implicit heap over a flat array (reference) */
    EVQ_PAIRING,  /* pairing heap over a node pool (differential tests) */
    EVQ_CALENDAR, /* bucketed calendar queue, a timing wheel (default) */
};

/* The queue every run uses (dfsim run, the probe, the benchmarks): the
 * calendar is 2-3x faster per event than the heap on network workloads
 * (bench/bench_evq) and pops exactly the same sequence. */
#define EVQ_DEFAULT EVQ_CALENDAR

/* The calendar's default geometry: buckets of 2^11 ps = 2.048 ns, a ring of
 * 2^14 of them, so a window of 33.5 us. */
#define EVQ_CAL_WBITS 11u
#define EVQ_CAL_NBITS 14u
#define EVQ_CAL_WBITS_MAX 63u /* a bucket may be as wide as 2^63 ps */
#define EVQ_CAL_NBITS_MAX 24u /* at most 16M buckets (128 MiB of them) */

/* A 4-ary heap over one growable flat array of events; private to evq.c
 * (EVQ_HEAP4 is one; the calendar has two: its front and overflow heaps). */
struct evq_flat {
    struct event *ev; /* ev[0] is the minimum; points into `block` */
    void *block;      /* the allocation behind ev (cache-line aligned) */
    size_t n;         /* events held */
    size_t cap;       /* events that fit without growing */
};

struct evq_pnode; /* a pairing-heap node; private to evq_pairing.c */
struct evq_cal;   /* calendar buckets and heaps; private to evq.c */

struct evq {
    enum evq_impl impl; /* which of the three is in use */
    size_t n;           /* events queued, wherever they are held */
    size_t cap;         /* EVQ_PAIRING: nodes that fit without growing */
    /* EVQ_HEAP4 */
    struct evq_flat heap; /* the whole queue (heap.n == n) */
    /* EVQ_PAIRING */
    struct evq_pnode *nodes; /* node pool, indexed by uint32_t (0 = none) */
    uint32_t root;           /* index of the minimum node, 0 if empty */
    uint32_t free_list;      /* first free node, chained through `next` */
    uint32_t used;           /* nodes ever handed out (high-water mark) */
    /* EVQ_CALENDAR */
    struct evq_cal *cal; /* ring, front and overflow heaps, chunk pool */
};

/* The bytes evq_init(q, EVQ_DEFAULT, capacity_hint) allocates, about (the
 * sorting scratch starts small): the calendar's ring and its first chunk
 * pool, sized for the hinted events. For memory estimates. */
size_t evq_init_bytes(size_t capacity_hint);

/* Prepare an empty queue of kind `impl` with room for capacity_hint events
 * (0: a small default). Returns 0, or -1 if out of memory (q is then empty
 * and evq_free(q) is harmless). */
int evq_init(struct evq *q, enum evq_impl impl, size_t capacity_hint);

/* Prepare an empty EVQ_CALENDAR queue with buckets of 2^wbits ps and a ring
 * of 2^nbits buckets (evq_init uses EVQ_CAL_WBITS and EVQ_CAL_NBITS; tiny
 * values let tests reach every path with few events). Returns 0, or -1 if
 * out of memory or if wbits > EVQ_CAL_WBITS_MAX or nbits >
 * EVQ_CAL_NBITS_MAX (q is then empty and evq_free(q) is harmless). */
int evq_init_calendar(struct evq *q, size_t capacity_hint, unsigned wbits,
                      unsigned nbits);

/* Release the queue's memory; q may be re-initialised afterwards. Queued
 * events are dropped. */
void evq_free(struct evq *q);

/* Insert a copy of *e. Grows the queue (doubling) when full; returns 0, or
 * -1 if growing failed for lack of memory, in which case the queue is
 * unchanged. */
int evq_push(struct evq *q, const struct event *e);

/* Remove the first event in (time, key) order into *out. Returns false,
 * leaving *out untouched, if the queue is empty. */
bool evq_pop(struct evq *q, struct event *out);

/* evq_pop if the first event's time is `until` or earlier: returns false,
 * leaving the queue and *out untouched, if it is later or the queue is
 * empty. (sim_run's loop: one look at the queue's first event instead of
 * evq_peek's and evq_pop's two.) */
bool evq_pop_until(struct evq *q, simtime until, struct event *out);

/* The first event in (time, key) order, or NULL if the queue is empty. The
 * pointer is valid until the next push or pop. */
const struct event *evq_peek(const struct evq *q);

/* Hints for prefetching: *n events in pop order that are likely to be
 * among the next popped (the calendar's sorted run from the one it pops
 * next from it), or NULL with *n 0 (the other queues, or an empty run).
 * Never changes the queue; a push may still come before them, and an
 * event of the calendar's two heaps before the first. */
const struct event *evq_ahead(const struct evq *q, size_t *n);

/* Number of events queued. */
static inline size_t evq_size(const struct evq *q) { return q->n; }

#endif
