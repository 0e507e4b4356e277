/* core/evq.c — the event queue's API, the 4-ary implicit min-heap
 * (EVQ_HEAP4) and the calendar queue (EVQ_CALENDAR). See evq.h
 * for the order and its invariant; the pairing heap is in evq_pairing.c.
 *
 * 4-ary heap (struct evq_flat). Events are stored by value in one array;
 * the children of slot i are slots 4i+1 .. 4i+4 and its parent is (i-1)/4.
 * A 4-ary heap is half as deep as a binary one, and the four children
 * compared at each step of a sift-down are adjacent. The array starts three
 * slots into a 64-byte aligned block, so that slot 4i+1 falls on a 128-byte
 * boundary: each group of four 32-byte siblings fills exactly two cache
 * lines. Invariant (heap order): for every slot i > 0, ev[(i-1)/4] is not
 * after ev[i] in (time, key) order; so ev[0] is the minimum. EVQ_HEAP4 is
 * one such heap; the calendar keeps two (front and overflow) and uses the
 * same code to sort long runs of equal times. The sift loops work on
 * (array, count) and are shared by all of them.
 *
 * Calendar queue (EVQ_CALENDAR; Brown, "Calendar queues", CACM 31(10),
 * 1988; Varghese and Lauck's timing wheels, SOSP 1987). Time is cut into
 * buckets of W = 2^wbits ps; an event's bucket number is b = time >> wbits.
 * The current bucket is cur. A ring of N = 2^nbits slots holds the buckets
 * after it, unsorted: bucket b sits in slot b & (N-1), unambiguous because
 * only buckets cur+1 .. cur+N-1 are ever in the ring (cur's own slot is
 * empty). The current bucket itself is the run: its events sorted, popped
 * from the front. Where a pushed event goes:
 *   cur < b < cur + N   appended to slot b & (N-1) (O(1));
 *   b >= cur + N        the overflow heap (beyond the window);
 *   b == cur            the front heap, a small heap of late arrivals (a
 *                       simulation's events for "now");
 *   b < cur             the window moves back to start at b (cal_rewind).
 * When the run and the front heap are used up, the next pop or peek
 * advances cur (cal_settle) to the first non-empty bucket (a bitmap of
 * non-empty slots, a bit a slot, scanned a word at a time with ctz) or to
 * the overflow heap's first bucket if that is earlier; a ring bucket reached
 * is sorted into the run. The sort (bucket_sort) is counting passes on the
 * time's bits within the bucket, then comparisons inside runs of equal
 * times: O(n) for times spread over the bucket, where heapifying the bucket
 * and popping it costs O(log n) mispredicted comparisons an event (twice
 * the time per event in bench_evq).
 *
 * Invariants: (1) every ring event in slot s has cur < b < cur + N and
 * b & (N-1) == s; ring[s].n counts them; bit s is set iff ring[s].n > 0.
 * (2) run.ev[pos..n) are events of bucket cur, sorted; so are the front
 * heap's. (3) Every overflow event has b >= cur. (4) Settled (at the start
 * of every pop and peek of a non-empty queue): the run or the front heap is
 * not empty, or the overflow heap's first event has b == cur. So the first
 * event is then the earliest of the run's next and the two heaps' tops:
 * ring events all lie in later buckets.
 *
 * Where this departs from the design it was specified from, and why:
 *   - The current bucket is a sorted run plus a heap of late arrivals, not
 *     one heap (see the sort above).
 *   - The queue is settled lazily, at the start of a pop or peek, not at
 *     the end of a pop. A simulation pops an event and then pushes its
 *     successors, which may fall in the popped event's bucket; settled
 *     eagerly, cur would already have moved past them. Worse, if at that
 *     moment the queue held only a far event (a timer), cur would jump to
 *     it and every push until simulated time got there would be before
 *     cur: the calendar ran as a plain heap. evq_peek therefore settles
 *     too, through q->cal: it moves events between the calendar's arrays,
 *     never changes what is queued or in what order, and a second peek
 *     returns the same pointer.
 *   - Overflow events are not moved into ring buckets as the window slides
 *     over them; the overflow heap's top is compared with the run's and the
 *     front heap's at each pop (one comparison, and only while the overflow
 *     heap holds anything). Moving them would allocate inside evq_pop (a
 *     bucket growing), where running out of memory cannot be reported, and
 *     would cost each far event a second pass (bucket, then sort) on top of
 *     the overflow heap's push and pop, which it pays either way.
 *   - A push before cur moves the window back rather than joining the
 *     current bucket. Otherwise the current bucket would grow to hold
 *     several, and every later push before its end would join it too: after
 *     an initial fill in random order (the first event pushed fixes cur, and
 *     all earlier ones pile up in front), the calendar ran as a plain heap
 *     over half the pending set until simulated time caught up. A rewind
 *     costs the current bucket's events plus those leaving the window's end:
 *     for an initial fill in random order, O(log n) rewinds of one bucket. A
 *     simulation pushes before cur only before its first pop, or when
 *     sim_run stopped at `until` after peeking at a later event.
 *   - Buckets are chains of CHUNK-event chunks from one shared pool with a
 *     free list, not a growable array per bucket that keeps its capacity.
 *     Arrays that keep their capacity each end up as large as the fullest
 *     bucket they ever held: memory then grows with (window x event rate),
 *     not with the pending set. At 100k pending events and increments of
 *     100 ns (one event per ps) that is 2,048 events in every bucket, 1 GiB
 *     over 16,384 buckets, against 3 MiB of pending events. The pool holds
 *     the ring's events plus at most one partly filled chunk per non-empty
 *     bucket; a sorted bucket's chunks go back to the free list, so a
 *     steady-state run never allocates either.
 *   - Room to sort the fullest bucket (run and spare) is made when an event
 *     is appended to it, so neither evq_pop nor evq_peek allocates, and a
 *     push that runs out of memory returns -1 with the queue unchanged (a
 *     rewind makes room for all it moves before moving anything).
 *
 * Dispatch between the implementations is a switch on q->impl (no function
 * pointers): the branch is perfectly predicted and the code stays
 * inlinable.
 */
#include "core/evq.h"

#include <stdlib.h>
#include <string.h>

#include "core/evq_pairing.h"

#define LINE 64u     /* cache line: alignment of every event block */
#define HEAP_SKEW 3u /* slots before ev[0] within a heap's block */

/* ---- 4-ary heap over a flat array -------------------------------------- */

/* A 64-byte aligned block with room for `count` (> 0) events, or NULL. */
static void *event_block(size_t count)
{
    if (count > (SIZE_MAX - LINE) / sizeof(struct event))
        return NULL;
    size_t bytes = count * sizeof(struct event);
    bytes = (bytes + LINE - 1) / LINE * LINE; /* C11 aligned_alloc rule */
    return aligned_alloc(LINE, bytes);
}

static int flat_resize(struct evq_flat *f, size_t cap)
{
    if (cap > SIZE_MAX - HEAP_SKEW)
        return -1;
    void *block = event_block(cap + HEAP_SKEW);
    if (!block)
        return -1;
    struct event *ev = (struct event *)block + HEAP_SKEW;
    if (f->n)
        memcpy(ev, f->ev, f->n * sizeof *ev);
    free(f->block);
    f->block = block;
    f->ev = ev;
    f->cap = cap;
    return 0;
}

/* Make room for at least `want` events, doubling; 0, or -1 (unchanged). */
static int flat_reserve(struct evq_flat *f, size_t want)
{
    if (want <= f->cap)
        return 0;
    size_t cap = f->cap ? f->cap : 16;
    while (cap < want) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    return flat_resize(f, cap);
}

/* Put e into the hole at slot i of heap a: move the hole towards the root
 * while e goes before the parent; write e once at the end. */
static void sift_up(struct event *a, size_t i, const struct event *e)
{
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!evq_before(e, &a[p]))
            break;
        a[i] = a[p];
        i = p;
    }
    a[i] = *e;
}

/* Put e into the hole at slot i of heap a[0..n): move the hole down to the
 * earliest child while that child goes before e. e is a copy, so it may
 * have come from the array. */
static void sift_down(struct event *a, size_t n, size_t i, struct event e)
{
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
        if (!evq_before(&a[c], &e))
            break;
        a[i] = a[c];
        i = c;
    }
    a[i] = e;
}

/* Give a[0..n), in any order, heap order (Floyd: sift down every parent,
 * last first; O(n)). */
static void heapify(struct event *a, size_t n)
{
    if (n < 2)
        return;
    for (size_t i = (n - 2) / 4 + 1; i-- > 0;)
        sift_down(a, n, i, a[i]);
}

static int flat_push(struct evq_flat *f, const struct event *e)
{
    if (f->n == f->cap && flat_resize(f, f->cap ? 2 * f->cap : 16) != 0)
        return -1;
    sift_up(f->ev, f->n++, e);
    return 0;
}

/* Remove the minimum into *out; the heap must not be empty. The last event
 * fills the hole left at the root. */
static void flat_pop(struct evq_flat *f, struct event *out)
{
    assert(f->n > 0);
    struct event *a = f->ev;
    *out = a[0];
    size_t n = --f->n;
    if (n > 0)
        sift_down(a, n, 0, a[n]);
}

/* ---- sorting one bucket ------------------------------------------------ */

#define SORT_SMALL 32u /* runs up to this long: insertion sort */
#define RADIX_BITS 12u /* in-bucket time bits sorted by counting passes */
#define RADIX_PASS 6u  /* bits per pass: 64 counters */

/* Insertion sort of a[0..n) by (time, key): fast when n is small or the
 * array nearly sorted. */
static void insertion_sort(struct event *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct event e = a[i];
        size_t j = i;
        for (; j > 0 && evq_before(&e, &a[j - 1]); j--)
            a[j] = a[j - 1];
        a[j] = e;
    }
}

/* Heapsort of a[0..n) by (time, key), through tmp (room for n): for long
 * runs, where insertion sort would be quadratic. */
static void heap_sort(struct event *a, struct event *tmp, size_t n)
{
    struct evq_flat h = { .ev = a, .n = n, .cap = n };
    heapify(a, n);
    for (size_t i = 0; i < n; i++)
        flat_pop(&h, &tmp[i]);
    memcpy(a, tmp, n * sizeof *a);
}

/* One stable counting pass from src to dst, by `width` (<= RADIX_PASS) bits
 * of time from bit `shift` up. */
static void radix_pass(const struct event *src, struct event *dst, size_t n,
                       unsigned shift, unsigned width)
{
    size_t at[1u << RADIX_PASS] = { 0 };
    uint64_t m = (UINT64_C(1) << width) - 1;
    for (size_t i = 0; i < n; i++)
        at[(src[i].time >> shift) & m]++;
    for (size_t d = 0, sum = 0; d <= m; d++) {
        size_t c = at[d];
        at[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++)
        dst[at[(src[i].time >> shift) & m]++] = src[i];
}

/* Two stable counting passes, a to tmp by the `w1` bits of time from bit
 * `shift` up, then back to a by the next `w2` (each <= RADIX_PASS): both
 * digits counted in one read of a. */
static void radix_two(struct event *a, struct event *tmp, size_t n,
                      unsigned shift, unsigned w1, unsigned w2)
{
    size_t lo[1u << RADIX_PASS] = { 0 }, hi[1u << RADIX_PASS] = { 0 };
    uint64_t m1 = (UINT64_C(1) << w1) - 1, m2 = (UINT64_C(1) << w2) - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t t = a[i].time >> shift;
        lo[t & m1]++;
        hi[(t >> w1) & m2]++;
    }
    for (size_t d = 0, s1 = 0, s2 = 0; d <= (m1 > m2 ? m1 : m2); d++) {
        size_t c1 = lo[d], c2 = hi[d];
        lo[d] = s1;
        hi[d] = s2;
        s1 += c1;
        s2 += c2;
    }
    for (size_t i = 0; i < n; i++)
        tmp[lo[(a[i].time >> shift) & m1]++] = a[i];
    for (size_t i = 0; i < n; i++)
        a[hi[(tmp[i].time >> (shift + w1)) & m2]++] = tmp[i];
}

/* Sort the n events of one bucket of 2^wbits ps, in a, by (time, key); tmp
 * has room for n. Returns a or tmp, whichever holds the result. Counting
 * passes (LSD radix) order them by the top RADIX_BITS bits of their time
 * within the bucket (all of it for the default 11-bit buckets); the runs
 * left equal on those bits (same time, for small buckets) are then sorted
 * by comparison. O(n) for times spread over the bucket, O(n log n) at
 * worst (a bucket of equal times). */
static struct event *bucket_sort(struct event *a, struct event *tmp,
                                 size_t n, unsigned wbits)
{
    if (n <= SORT_SMALL) {
        insertion_sort(a, n);
        return a;
    }
    unsigned bits = wbits < RADIX_BITS ? wbits : RADIX_BITS;
    unsigned shift = wbits - bits; /* the lowest bit sorted by counting */
    if (bits > RADIX_PASS) {
        radix_two(a, tmp, n, shift, bits / 2, bits - bits / 2);
    } else if (bits > 0) {
        radix_pass(a, tmp, n, shift, bits);
        struct event *t = a;
        a = tmp;
        tmp = t;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && a[j].time >> shift == a[i].time >> shift)
            j++;
        if (j - i > SORT_SMALL)
            heap_sort(a + i, tmp, j - i);
        else if (j - i > 1)
            insertion_sort(a + i, j - i);
        i = j;
    }
    return a;
}

/* ---- calendar queue ---------------------------------------------------- */

#define CHUNK 16u /* events per chunk: 512 bytes, eight cache lines */
#define NO_CHUNK UINT32_MAX
#define CHUNKS_MAX (UINT32_MAX - 1u)

struct cal_bucket {
    uint32_t head; /* the chain's first chunk, the one being filled (the
                      others are full); meaningless when n == 0 */
    uint32_t n;    /* events in the bucket */
};

struct evq_cal {
    unsigned wbits;        /* a bucket spans 2^wbits ps */
    uint64_t mask;         /* ring slots minus one (N - 1) */
    uint64_t cur;          /* current bucket number (time >> wbits) */
    struct evq_flat run;   /* bucket cur, sorted; ev[pos..n) still queued */
    size_t pos;            /* next event of run */
    struct evq_flat spare; /* scratch for sorting, as large as run */
    struct evq_flat front; /* heap: pushed to bucket cur after the run
                              was sorted */
    struct evq_flat over;  /* heap: events pushed beyond the window */
    struct event *chunks;  /* pool: chunk k is chunks[k*CHUNK ..+CHUNK) */
    uint32_t *link;        /* next chunk of a chain, or of the free list */
    uint32_t n_chunks;     /* chunks in the pool */
    uint32_t n_free;       /* chunks on the free list */
    uint32_t free_chunk;   /* first free chunk, NO_CHUNK if none */
    size_t n_words;        /* words in bits: ceil(N / 64) */
    uint64_t *bits;        /* bit s of the ring: ring[s].n > 0 */
    struct cal_bucket ring[]; /* the N slots */
};

/* Grow the chunk pool to `count` chunks (at most CHUNKS_MAX), threading
 * the new ones onto the free list. Returns 0, or -1 with the pool
 * unchanged. */
static int pool_resize(struct evq_cal *c, size_t count)
{
    if (count > CHUNKS_MAX)
        count = CHUNKS_MAX;
    if (count <= c->n_chunks || count > SIZE_MAX / CHUNK)
        return -1;
    struct event *chunks = event_block(count * CHUNK);
    if (!chunks)
        return -1;
    uint32_t *link = realloc(c->link, count * sizeof *link);
    if (!link) {
        free(chunks);
        return -1;
    }
    if (c->n_chunks)
        memcpy(chunks, c->chunks,
               (size_t)c->n_chunks * CHUNK * sizeof *chunks);
    free(c->chunks);
    c->chunks = chunks;
    c->link = link;
    for (size_t k = c->n_chunks; k + 1 < count; k++)
        link[k] = (uint32_t)(k + 1);
    link[count - 1] = c->free_chunk;
    c->free_chunk = c->n_chunks;
    c->n_free += (uint32_t)(count - c->n_chunks);
    c->n_chunks = (uint32_t)count;
    return 0;
}

/* Make sure `need` chunks are free, doubling the pool. 0, or -1. */
static int pool_reserve(struct evq_cal *c, size_t need)
{
    while (c->n_free < need)
        if (pool_resize(c, 2 * (size_t)c->n_chunks) != 0)
            return -1;
    return 0;
}

/* Whether run and spare, where a bucket is sorted, have room for one more
 * than n events. */
static inline bool sort_room(const struct evq_cal *c, size_t n)
{
    return n < c->run.cap && n < c->spare.cap;
}

/* Room for a bucket of `want` events in run and spare, where it will be
 * sorted: made at push time, so that evq_pop never allocates. */
static int sort_reserve(struct evq_cal *c, size_t want)
{
    if (flat_reserve(&c->run, want) != 0 ||
        flat_reserve(&c->spare, want) != 0)
        return -1;
    return 0;
}

/* Append e to ring slot s. Returns 0, or -1 (out of memory; unchanged). */
static int ring_push(struct evq_cal *c, uint64_t s, const struct event *e)
{
    struct cal_bucket *b = &c->ring[s];
    uint32_t fill = b->n % CHUNK;
    if (b->n == UINT32_MAX ||
        (!sort_room(c, b->n) && sort_reserve(c, (size_t)b->n + 1) != 0) ||
        (fill == 0 && pool_reserve(c, 1) != 0))
        return -1;
    if (fill == 0) { /* the head chunk is full, or there is none */
        uint32_t k = c->free_chunk;
        c->free_chunk = c->link[k];
        c->n_free--;
        c->link[k] = b->head;
        b->head = k;
        c->bits[s >> 6] |= UINT64_C(1) << (s & 63);
    }
    c->chunks[(size_t)b->head * CHUNK + fill] = *e;
    b->n++;
    return 0;
}

/* Copy the events of ring slot s (not empty) to dst, in no particular
 * order; give its chunks back and mark it empty. Returns how many. */
static uint32_t ring_take(struct evq_cal *c, uint64_t s, struct event *dst)
{
    struct cal_bucket *b = &c->ring[s];
    uint32_t n = b->n, k = b->head, chunks = 1;
    size_t at = 0, take = (n - 1) % CHUNK + 1; /* the head chunk's fill */
    for (;;) {
        memcpy(dst + at, &c->chunks[(size_t)k * CHUNK], take * sizeof *dst);
        at += take;
        if (at == n)
            break;
        k = c->link[k];
        take = CHUNK;
        chunks++;
    }
    c->link[k] = c->free_chunk; /* k is the chain's last chunk */
    c->free_chunk = b->head;
    c->n_free += chunks;
    b->n = 0;
    c->bits[s >> 6] &= ~(UINT64_C(1) << (s & 63));
    return n;
}

/* Distance from cur to the next non-empty ring bucket, 1 .. N-1, or 0 if
 * the ring is empty. */
static uint64_t ring_next(const struct evq_cal *c)
{
    uint64_t from = (c->cur + 1) & c->mask;
    size_t w = (size_t)(from >> 6);
    uint64_t word = c->bits[w] & (~UINT64_C(0) << (from & 63));
    /* At most one lap: the last step sees word w again, whole. */
    for (size_t k = 0; word == 0;) {
        if (++k > c->n_words)
            return 0;
        w = w + 1 == c->n_words ? 0 : w + 1;
        word = c->bits[w];
    }
    uint64_t s = ((uint64_t)w << 6) | (uint64_t)__builtin_ctzll(word);
    return (s - c->cur) & c->mask;
}

/* The events of the last k (< N) buckets of the window, cur+N-k ..
 * cur+N-1: counted, and if `move`, moved to the overflow heap, which must
 * have room for them. Returns the count. */
static size_t ring_evict(struct evq_cal *c, uint64_t k, bool move)
{
    size_t count = 0;
    struct evq_flat *o = &c->over;
    for (uint64_t s = (c->cur - k) & c->mask; k > 0;) {
        /* Skip an aligned word of empty slots at once (only when N >= 64,
         * since k < N). */
        if ((s & 63) == 0 && k >= 64 && c->bits[s >> 6] == 0) {
            s = (s + 64) & c->mask;
            k -= 64;
            continue;
        }
        uint32_t n = c->ring[s].n;
        count += n;
        if (n && move) {
            ring_take(c, s, o->ev + o->n);
            for (uint32_t i = 0; i < n; i++) {
                struct event e = o->ev[o->n];
                sift_up(o->ev, o->n++, &e);
            }
        }
        s = (s + 1) & c->mask;
        k--;
    }
    return count;
}

/* Of ev[0..n), those beyond the window that starts at bucket b: counted,
 * and if `move`, the others appended to their ring slots and these pushed
 * to the overflow heap (room for all having been made). */
static size_t place_all(struct evq_cal *c, const struct event *ev, size_t n,
                        uint64_t b, bool move)
{
    size_t beyond = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t eb = ev[i].time >> c->wbits;
        bool far = eb - b > c->mask;
        beyond += far;
        if (move) {
            int rc = far ? flat_push(&c->over, &ev[i])
                         : ring_push(c, eb & c->mask, &ev[i]);
            assert(rc == 0);
            (void)rc;
        }
    }
    return beyond;
}

/* Push e, whose bucket b is before cur: the window moves back to start at
 * b. The current bucket's events (the run's rest and the front heap) return
 * to the ring, or to the overflow heap if they fall off the window's end
 * as ring buckets from b + N on do; e alone is then the front. Room for all
 * of it is made first, so that -1 (out of memory) leaves the queue
 * unchanged. */
static int cal_rewind(struct evq_cal *c, uint64_t b, const struct event *e)
{
    const struct event *rest = c->run.ev + c->pos;
    size_t n_rest = c->run.n - c->pos, n_front = c->front.n;
    size_t moved = n_rest + n_front;
    uint64_t back = c->cur - b;
    uint64_t k = back < c->mask ? back : c->mask; /* ring buckets leaving */
    size_t to_over = ring_evict(c, k, false) +
                     place_all(c, rest, n_rest, b, false) +
                     place_all(c, c->front.ev, n_front, b, false);
    /* The moved events are all of one bucket, cur. */
    if (flat_reserve(&c->over, c->over.n + to_over) != 0 ||
        pool_reserve(c, (moved + CHUNK - 1) / CHUNK) != 0 ||
        sort_reserve(c, moved) != 0)
        return -1;
    ring_evict(c, k, true);
    c->cur = b;
    place_all(c, c->run.ev + c->pos, n_rest, b, true);
    place_all(c, c->front.ev, n_front, b, true);
    c->run.n = c->pos = 0;
    c->front.n = 0;
    return flat_push(&c->front, e); /* cannot fail: it has room */
}

/* Restore invariant (4) before the first event is looked for: if the run
 * and the front heap are used up, advance cur to the bucket of the first
 * event, sorting that bucket into the run if it is in the ring. The queue
 * must not be empty. */
static void cal_settle(struct evq_cal *c)
{
    if (c->pos < c->run.n || c->front.n > 0)
        return; /* the current bucket still has events */
    uint64_t ob = 0; /* the overflow heap's first bucket */
    if (c->over.n) {
        ob = c->over.ev[0].time >> c->wbits;
        assert(ob >= c->cur);
        if (ob == c->cur)
            return; /* it holds the first event already */
    }
    uint64_t d = ring_next(c);
    if (c->over.n && (d == 0 || ob - c->cur < d)) {
        c->cur = ob; /* the ring's buckets are all later than ob */
        return;
    }
    assert(d > 0);
    c->cur += d;
    /* Room in spare and run: see ring_push. */
    size_t n = ring_take(c, c->cur & c->mask, c->spare.ev);
    if (bucket_sort(c->spare.ev, c->run.ev, n, c->wbits) == c->spare.ev) {
        struct evq_flat t = c->run;
        c->run = c->spare;
        c->spare = t;
        c->spare.n = 0;
    }
    c->run.n = n;
    c->pos = 0;
}

/* The queue's first event (the queue must not be empty and settled): the
 * earliest of the run's next event and the two heaps' tops. */
static inline const struct event *cal_first(const struct evq_cal *c)
{
    const struct event *e = c->pos < c->run.n ? &c->run.ev[c->pos] : NULL;
    if (c->front.n && (!e || evq_before(&c->front.ev[0], e)))
        e = &c->front.ev[0];
    if (c->over.n && (!e || evq_before(&c->over.ev[0], e)))
        e = &c->over.ev[0];
    assert(e != NULL);
    return e;
}

/* cal_push's common case, inline in evq_push: e goes to a later bucket
 * of the window whose head chunk has room, and the bucket fits run and
 * spare. Returns false, having done nothing, otherwise. (Kept apart so
 * that the general case's code does not weigh on it: 1.7 % of a run's
 * instructions, cachegrind.) */
static inline bool cal_push_fast(struct evq *q, const struct event *e)
{
    struct evq_cal *c = q->cal;
    uint64_t b = e->time >> c->wbits, d = b - c->cur;
    if (q->n == 0 || d - 1 >= c->mask)
        return false;
    struct cal_bucket *k = &c->ring[b & c->mask];
    uint32_t fill = k->n % CHUNK;
    if (fill == 0 || k->n == UINT32_MAX || !sort_room(c, k->n))
        return false;
    c->chunks[(size_t)k->head * CHUNK + fill] = *e;
    k->n++;
    q->n++;
    return true;
}

static __attribute__((noinline)) int cal_push(struct evq *q,
                                               const struct event *e)
{
    struct evq_cal *c = q->cal;
    uint64_t b = e->time >> c->wbits;
    if (q->n == 0)
        c->cur = b; /* nothing to move: the window starts at e */
    uint64_t d = b - c->cur; /* wraps when b < cur */
    int rc;
    if (d - 1 < c->mask) /* 1 <= d < N: a later bucket of the window */
        rc = ring_push(c, b & c->mask, e);
    else if (b > c->cur) /* beyond the window */
        rc = flat_push(&c->over, e);
    else if (b == c->cur)
        rc = flat_push(&c->front, e);
    else
        rc = cal_rewind(c, b, e);
    if (rc != 0)
        return -1;
    q->n++;
    return 0;
}

/* Remove the calendar's first event, `first` (cal_first, settled), into
 * *out. */
static void cal_take(struct evq *q, const struct event *first,
                     struct event *out)
{
    struct evq_cal *c = q->cal;
    if (first == c->over.ev)
        flat_pop(&c->over, out);
    else if (first == c->front.ev)
        flat_pop(&c->front, out);
    else
        *out = c->run.ev[c->pos++];
    q->n--;
}

const struct event *evq_ahead(const struct evq *q, size_t *n)
{
    const struct evq_cal *c = q->cal;
    if (q->impl != EVQ_CALENDAR || c->pos >= c->run.n) {
        *n = 0;
        return NULL;
    }
    *n = c->run.n - c->pos;
    return &c->run.ev[c->pos];
}

static void cal_free(struct evq_cal *c)
{
    if (!c)
        return;
    free(c->run.block);
    free(c->spare.block);
    free(c->front.block);
    free(c->over.block);
    free(c->chunks);
    free(c->link);
    free(c->bits);
    free(c);
}

int evq_init_calendar(struct evq *q, size_t capacity_hint, unsigned wbits,
                      unsigned nbits)
{
    memset(q, 0, sizeof *q);
    q->impl = EVQ_CALENDAR;
    if (wbits > EVQ_CAL_WBITS_MAX || nbits > EVQ_CAL_NBITS_MAX)
        return -1;
    size_t slots = (size_t)1 << nbits;
    struct evq_cal *c = calloc(1, sizeof *c + slots * sizeof c->ring[0]);
    if (!c)
        return -1;
    q->cal = c;
    c->wbits = wbits;
    c->mask = slots - 1;
    c->free_chunk = NO_CHUNK;
    c->n_words = (slots + 63) / 64;
    c->bits = calloc(c->n_words, sizeof *c->bits);
    /* The pool is sized for the hinted events packed in full chunks, plus
     * some partly filled ones; run, spare and front start small. */
    if (!c->bits || sort_reserve(c, 64) != 0 ||
        flat_resize(&c->front, 16) != 0 ||
        pool_resize(c, capacity_hint / CHUNK + 64) != 0) {
        evq_free(q);
        return -1;
    }
    return 0;
}

size_t evq_init_bytes(size_t capacity_hint)
{
    size_t slots = (size_t)1 << EVQ_CAL_NBITS;
    size_t chunks = capacity_hint / CHUNK + 64;
    return sizeof(struct evq_cal) + slots * sizeof(struct cal_bucket) +
           (slots + 63) / 64 * sizeof(uint64_t) +
           (64 + 16) * sizeof(struct event) +
           chunks * (CHUNK * sizeof(struct event) + sizeof(uint32_t));
}

/* ---- the API: dispatch on q->impl -------------------------------------- */

int evq_init(struct evq *q, enum evq_impl impl, size_t capacity_hint)
{
    memset(q, 0, sizeof *q);
    q->impl = impl;
    size_t cap = capacity_hint ? capacity_hint : 64;
    switch (impl) {
    case EVQ_HEAP4:
        return flat_resize(&q->heap, cap);
    case EVQ_PAIRING:
        return evq_pairing_init(q, cap);
    case EVQ_CALENDAR:
        return evq_init_calendar(q, capacity_hint, EVQ_CAL_WBITS,
                                 EVQ_CAL_NBITS);
    }
    assert(0 && "unknown evq_impl");
    return -1;
}

void evq_free(struct evq *q)
{
    switch (q->impl) {
    case EVQ_HEAP4:
        free(q->heap.block);
        break;
    case EVQ_PAIRING:
        evq_pairing_free(q);
        break;
    case EVQ_CALENDAR:
        cal_free(q->cal);
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
        if (flat_push(&q->heap, e) != 0)
            return -1;
        q->n++;
        return 0;
    case EVQ_PAIRING:
        return evq_pairing_push(q, e);
    case EVQ_CALENDAR:
        return cal_push_fast(q, e) ? 0 : cal_push(q, e);
    }
    return -1;
}

/* evq_pop_until for the calendar, past its common case (evq_pop: with
 * SIMTIME_MAX): settles and finds the first event once. */
static __attribute__((noinline)) bool cal_pop_until(struct evq *q,
                                                    simtime until,
                                                    struct event *out)
{
    if (q->n == 0)
        return false;
    cal_settle(q->cal);
    const struct event *first = cal_first(q->cal);
    if (first->time > until)
        return false;
    cal_take(q, first, out);
    return true;
}

bool evq_pop(struct evq *q, struct event *out)
{
    switch (q->impl) {
    case EVQ_HEAP4:
        if (q->n == 0)
            return false;
        flat_pop(&q->heap, out);
        q->n--;
        return true;
    case EVQ_PAIRING:
        return evq_pairing_pop(q, out);
    case EVQ_CALENDAR:
        return cal_pop_until(q, SIMTIME_MAX, out);
    }
    return false;
}

bool evq_pop_until(struct evq *q, simtime until, struct event *out)
{
    if (q->impl == EVQ_CALENDAR) {
        struct evq_cal *c = q->cal;
        if (c->pos < c->run.n) { /* settled: the common case, inline */
            const struct event *e = cal_first(c);
            if (e == &c->run.ev[c->pos]) { /* the run's, not a heap's */
                if (e->time > until)
                    return false;
                *out = *e;
                c->pos++;
                q->n--;
                return true;
            }
        }
        return cal_pop_until(q, until, out);
    }
    const struct event *first = evq_peek(q);
    if (!first || first->time > until)
        return false;
    return evq_pop(q, out);
}

const struct event *evq_peek(const struct evq *q)
{
    if (q->n == 0)
        return NULL;
    switch (q->impl) {
    case EVQ_HEAP4:
        return &q->heap.ev[0];
    case EVQ_PAIRING:
        return evq_pairing_peek(q);
    case EVQ_CALENDAR:
        /* Settling moves events between the calendar's arrays, behind
         * q->cal: the queue's contents and order are unchanged. */
        cal_settle(q->cal);
        return cal_first(q->cal);
    }
    return NULL;
}
