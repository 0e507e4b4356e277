/* core/slots.h — records in one flat array indexed by id, with a free list.
 *
 * What it is for: the simulator's short-lived records (packets, network
 * messages, MPI requests and transfers) live in flat arrays so that an id
 * is a uint32_t and the hot path never calls malloc. A free record keeps
 * the next free id in its first member (a uint32_t `next`, asserted by
 * each user); the array doubles when it runs out — a few times early in a
 * run, then never.
 *
 * The records a growth adds are threaded lazily: the free list reaches
 * the first of them, marked SLOTS_FRESH, and each one handed out marks the
 * next, so a record is written only when it is first used. The memory a
 * process holds is then the most records ever live, not the doubled
 * capacity (the pages past them are never touched); the ids come in the
 * order a fully threaded list gives.
 *
 * Invariants: *live counts the ids handed out and not released; the free
 * list holds every other id below *cap (the fresh ones as one run to
 * *cap, reached through the one marked SLOTS_FRESH). Not thread-safe;
 * O(1) but for the growth.
 */
#ifndef DFSIM_SLOTS_H
#define DFSIM_SLOTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define SLOTS_NONE UINT32_MAX /* "no record": an empty free list */
#define SLOTS_FIRST 1024u     /* records of the first allocation */
#define SLOTS_FRESH (UINT32_MAX - 1) /* a free record's next: "every record
                                        from here to the capacity is free
                                        and never used" */

/* Where one kind of record lives; the pointers point into its owner. */
struct slots {
    void **arr;
    size_t size;                /* bytes per record */
    uint32_t *cap, *free, *live;
};

static inline uint32_t *slot_next(void *arr, size_t size, uint32_t i)
{
    return (uint32_t *)((char *)arr + (size_t)i * size);
}

/* The capacity after the next growth: the first allocation, then double. */
static inline uint32_t slots_next_cap(uint32_t cap)
{
    return cap ? cap * 2 : SLOTS_FIRST;
}

/* The array *sl.arr has grown to `cap` records (the first *sl.cap kept):
 * the new ones become the free list. For owners that grow the array
 * themselves (line-aligned, or with a parallel array). */
static inline void slots_grown(struct slots sl, void *arr, uint32_t cap)
{
    if (*sl.cap < cap)
        *slot_next(arr, sl.size, *sl.cap) = SLOTS_FRESH;
    *sl.arr = arr;
    *sl.free = *sl.cap;
    *sl.cap = cap;
}

/* A free record's id, or SLOTS_NONE if the array cannot grow. */
static inline uint32_t slots_alloc(struct slots sl)
{
    if (*sl.free == SLOTS_NONE) {
        uint32_t cap = slots_next_cap(*sl.cap);
        void *na = realloc(*sl.arr, (size_t)cap * sl.size);
        if (!na)
            return SLOTS_NONE;
        slots_grown(sl, na, cap);
    }
    uint32_t id = *sl.free;
    uint32_t next = *slot_next(*sl.arr, sl.size, id);
    if (next == SLOTS_FRESH) { /* the first of the untouched run */
        next = id + 1 < *sl.cap ? id + 1 : SLOTS_NONE;
        if (next != SLOTS_NONE)
            *slot_next(*sl.arr, sl.size, next) = SLOTS_FRESH;
    }
    *sl.free = next;
    (*sl.live)++;
    return id;
}

/* Give record id back. */
static inline void slots_release(struct slots sl, uint32_t id)
{
    *slot_next(*sl.arr, sl.size, id) = *sl.free;
    *sl.free = id;
    (*sl.live)--;
}

#endif
