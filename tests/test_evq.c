/* tests/test_evq.c — core/evq: the order (time, then key), the three
 * implementations, and their agreement event by event.
 *
 * The oracle for "the right order" is qsort over the same events with the
 * (time, key) comparison written out here; the oracle for the
 * implementations is EVQ_HEAP4 (differential tests over random operation
 * sequences, where every pop, peek and size must agree; every other pop
 * is an evq_pop_until, which must also refuse a limit before the first
 * event). The calendar is
 * also run with tiny geometries (buckets of 1 to 16 ps, rings of 1 to 64
 * buckets), so that short tests cross thousands of windows and reach every
 * path: overflow, window jumps, rewinds, long runs of equal times. */
#include "test.h"

#include <stdlib.h>

#include "core/evq.h"
#include "core/rng.h"

static const enum evq_impl impls[] = { EVQ_HEAP4, EVQ_PAIRING, EVQ_CALENDAR };
#define N_IMPLS (sizeof impls / sizeof impls[0])

static int cmp_event(const void *pa, const void *pb)
{
    const struct event *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return 0;
}

static int same_event(const struct event *a, const struct event *b)
{
    return a->time == b->time && a->key == b->key && a->target == b->target &&
           a->type == b->type && a->arg == b->arg;
}

/* n events with times in [0, span) (small span: many ties) and unique keys
 * from a few creators; payload fields derived from the index so that a
 * mixed-up payload is noticed. */
static struct event *make_events(size_t n, uint64_t span, uint64_t seed)
{
    struct event *ev = malloc(n * sizeof *ev);
    struct rng r = rng_stream(seed, RNG_TEST, 0);
    uint64_t seq[16] = { 0 };
    for (size_t i = 0; ev && i < n; i++) {
        uint32_t c = rng_below(&r, 16);
        ev[i].time = rng_u64(&r) % span;
        ev[i].key = evq_key(c * 1000003u, seq[c]++);
        ev[i].target = (uint32_t)i;
        ev[i].type = (uint32_t)(i % 7);
        ev[i].arg = ~(uint64_t)i;
    }
    return ev;
}

static void test_evq_key(void)
{
    CHECK_EQ_U(evq_key(0, 0), 0);
    CHECK_EQ_U(evq_key(1, 0), 1ull << 40);
    CHECK_EQ_U(evq_key(EVQ_CREATOR_MAX, EVQ_SEQ_MAX), UINT64_MAX);
    /* Creator dominates, then sequence. */
    CHECK(evq_key(1, EVQ_SEQ_MAX) < evq_key(2, 0));
    CHECK(evq_key(5, 3) < evq_key(5, 4));
    /* Unpacks to what went in. */
    uint64_t k = evq_key(123456, 987654321);
    CHECK_EQ_U(k >> EVQ_SEQ_BITS, 123456);
    CHECK_EQ_U(k & EVQ_SEQ_MAX, 987654321);
}

static void test_evq_order_peek_size(void)
{
    for (size_t m = 0; m < N_IMPLS; m++) {
        struct evq q;
        CHECK(evq_init(&q, impls[m], 0) == 0);
        CHECK(evq_peek(&q) == NULL);
        CHECK_EQ_U(evq_size(&q), 0);
        struct event out = { .time = 42, .key = 7 };
        CHECK(!evq_pop(&q, &out));
        CHECK_EQ_U(out.time, 42); /* untouched on empty */

        const simtime times[] = { 50, 10, 40, 10, 30, 20, 0, 60 };
        const size_t n = sizeof times / sizeof times[0];
        simtime min = UINT64_MAX;
        for (size_t i = 0; i < n; i++) {
            struct event e = { .time = times[i], .key = evq_key(3, i),
                               .target = (uint32_t)i };
            CHECK(evq_push(&q, &e) == 0);
            CHECK_EQ_U(evq_size(&q), i + 1);
            min = times[i] < min ? times[i] : min;
            CHECK(evq_peek(&q) && evq_peek(&q)->time == min);
        }
        simtime last = 0;
        for (size_t i = 0; i < n; i++) {
            const struct event *p = evq_peek(&q);
            CHECK(p != NULL);
            struct event want = p ? *p : out;
            CHECK(evq_pop(&q, &out));
            CHECK(same_event(&out, &want)); /* peek shows what pop gives */
            CHECK(out.time >= last);
            CHECK_EQ_U(times[out.target], out.time); /* payload intact */
            last = out.time;
            CHECK_EQ_U(evq_size(&q), n - 1 - i);
        }
        CHECK(evq_peek(&q) == NULL);
        evq_free(&q);
    }
}

static void test_evq_ties_by_key(void)
{
    /* 1000 events at the same time, keys pushed in a shuffled order: they
     * must come out in increasing key order. */
    enum { N = 1000 };
    uint32_t perm[N];
    for (uint32_t i = 0; i < N; i++)
        perm[i] = i;
    struct rng r = rng_stream(9, RNG_TEST, 1);
    rng_shuffle_u32(&r, perm, N);
    for (size_t m = 0; m < N_IMPLS; m++) {
        struct evq q;
        CHECK(evq_init(&q, impls[m], 16) == 0);
        for (uint32_t i = 0; i < N; i++) {
            /* Creators interleaved with sequence numbers: key order is
             * creator first. */
            struct event e = { .time = 777,
                               .key = evq_key(perm[i] % 10, perm[i] / 10),
                               .arg = perm[i] };
            CHECK(evq_push(&q, &e) == 0);
        }
        struct event e = { 0 };
        int bad = 0;
        uint64_t prev_key = 0;
        for (uint32_t i = 0; i < N; i++) {
            CHECK(evq_pop(&q, &e));
            if (e.time != 777 || (i > 0 && e.key <= prev_key))
                bad++;
            /* The i-th smallest key is creator i / 100, seq i % 100. */
            if (e.key != evq_key(i / 100, i % 100) ||
                e.arg != (i / 100) + 10 * (i % 100))
                bad++;
            prev_key = e.key;
        }
        CHECK_EQ_U(bad, 0);
        evq_free(&q);
    }
}

static void test_evq_push_order_independent(void)
{
    /* The same set pushed in two different orders gives the same pop
     * sequence, in both implementations, and it is the sorted order. */
    enum { N = 20000 };
    struct event *ev = make_events(N, 500, 11); /* ~40 events per time */
    struct event *ref = malloc(N * sizeof *ref);
    uint32_t *order = malloc(N * sizeof *order);
    struct event *got = malloc(N * sizeof *got);
    CHECK(ev && ref && order && got);
    if (!ev || !ref || !order || !got)
        goto out;
    memcpy(ref, ev, N * sizeof *ref);
    qsort(ref, N, sizeof *ref, cmp_event);
    for (uint32_t i = 0; i < N; i++)
        order[i] = i;
    struct rng r = rng_stream(12, RNG_TEST, 0);
    rng_shuffle_u32(&r, order, N);

    for (size_t m = 0; m < N_IMPLS; m++) {
        for (int pass = 0; pass < 2; pass++) {
            struct evq q;
            CHECK(evq_init(&q, impls[m], 0) == 0);
            for (uint32_t i = 0; i < N; i++) {
                /* Pass 0: shuffled; pass 1: the same shuffle reversed. */
                uint32_t j = pass ? order[N - 1 - i] : order[i];
                CHECK(evq_push(&q, &ev[j]) == 0);
            }
            int bad = 0;
            for (uint32_t i = 0; i < N; i++)
                if (!evq_pop(&q, &got[i]) || !same_event(&got[i], &ref[i]))
                    bad++;
            CHECK_EQ_U(bad, 0);
            CHECK_EQ_U(evq_size(&q), 0);
            evq_free(&q);
        }
    }
out:
    free(ev);
    free(ref);
    free(order);
    free(got);
}

/* ---- differential tests: every queue against EVQ_HEAP4 ---------------- */

/* The queues compared with EVQ_HEAP4: wbits < 0 means evq_init's defaults;
 * otherwise a calendar of buckets of 2^wbits ps and 2^nbits slots. */
static const struct geometry {
    enum evq_impl impl;
    int wbits;
    unsigned nbits;
} geometries[] = {
    { EVQ_PAIRING, -1, 0 },
    { EVQ_CALENDAR, -1, 0 }, /* 2.048 ns buckets, 33.5 us window */
    { EVQ_CALENDAR, 2, 3 },  /* 4 ps buckets, 32 ps window */
    { EVQ_CALENDAR, 0, 0 },  /* one slot: no ring, all later to overflow */
    { EVQ_CALENDAR, 0, 1 },  /* 1 ps buckets, a ring of two */
    { EVQ_CALENDAR, 4, 6 },  /* one full bitmap word */
    { EVQ_CALENDAR, 7, 9 },  /* several bitmap words; two radix passes */
    { EVQ_CALENDAR, 20, 4 }, /* buckets wider than the radix sort sees */
};
#define N_GEOMETRIES (sizeof geometries / sizeof geometries[0])

/* EVQ_HEAP4 and one queue of each geometry, fed the same operations. */
struct mirror {
    struct evq ref;
    struct evq q[N_GEOMETRIES];
    long mismatches;  /* disagreements seen (pop, peek or size) */
    long pushes, pops;
    struct rng rng;   /* the test's random stream */
    uint64_t seq[64]; /* events created by each of 64 creators */
    simtime now;      /* time of the last event popped */
};

static int mirror_init(struct mirror *m, size_t hint)
{
    memset(m, 0, sizeof *m);
    int rc = evq_init(&m->ref, EVQ_HEAP4, hint);
    for (size_t i = 0; i < N_GEOMETRIES; i++) {
        const struct geometry *g = &geometries[i];
        rc |= g->wbits < 0 ? evq_init(&m->q[i], g->impl, hint)
                           : evq_init_calendar(&m->q[i], hint,
                                               (unsigned)g->wbits, g->nbits);
    }
    return rc;
}

static void mirror_free(struct mirror *m)
{
    evq_free(&m->ref);
    for (size_t i = 0; i < N_GEOMETRIES; i++)
        evq_free(&m->q[i]);
}

/* Every queue's size, and after two operations in three its first event,
 * against the reference. (The calendar does some work in evq_peek that
 * evq_pop then need not do: both paths must be taken.) */
static void mirror_check(struct mirror *m)
{
    bool peek = (m->pushes + m->pops) % 3 != 0;
    const struct event *want = evq_peek(&m->ref);
    for (size_t i = 0; i < N_GEOMETRIES; i++) {
        const struct event *got = peek ? evq_peek(&m->q[i]) : want;
        if ((got == NULL) != (want == NULL) ||
            (got && !same_event(got, want)) ||
            (peek && evq_peek(&m->q[i]) != got) || /* stable */
            evq_size(&m->q[i]) != evq_size(&m->ref))
            m->mismatches++;
    }
}

static void mirror_push(struct mirror *m, const struct event *e)
{
    if (evq_push(&m->ref, e) != 0)
        m->mismatches++;
    for (size_t i = 0; i < N_GEOMETRIES; i++)
        if (evq_push(&m->q[i], e) != 0)
            m->mismatches++;
    m->pushes++;
    mirror_check(m);
}

/* Queue q's pop, by evq_pop or, every other time, by evq_pop_until:
 * first with a limit just before the first event's time `t0` (UINT64_MAX
 * when the queue is empty), which must leave the queue as it was, then
 * with t0 itself. */
static bool pop_either(struct mirror *m, struct evq *q, simtime t0,
                       struct event *e)
{
    if (m->pops % 2 == 0)
        return evq_pop(q, e);
    size_t n = evq_size(q);
    if (t0 > 0 && (evq_pop_until(q, t0 - 1, e) || evq_size(q) != n))
        m->mismatches++;
    return evq_pop_until(q, t0, e);
}

/* Pop from every queue; false if the reference was empty. */
static bool mirror_pop(struct mirror *m, struct event *out)
{
    const struct event *first = evq_peek(&m->ref);
    simtime t0 = first ? first->time : UINT64_MAX;
    bool got = evq_pop(&m->ref, out);
    for (size_t i = 0; i < N_GEOMETRIES; i++) {
        struct event e = { 0 };
        if (pop_either(m, &m->q[i], t0, &e) != got ||
            (got && !same_event(&e, out)))
            m->mismatches++;
    }
    m->pops += got;
    if (got)
        m->now = out->time;
    mirror_check(m);
    return got;
}

/* Push an event at time t from a random creator, with a random payload. */
static void mirror_push_at(struct mirror *m, simtime t)
{
    uint32_t c = rng_below(&m->rng, 64);
    struct event e = {
        .time = t,
        .key = evq_key(c * 4099, m->seq[c]++),
        .target = rng_below(&m->rng, 1000),
        .type = rng_below(&m->rng, 16),
        .arg = rng_u64(&m->rng),
    };
    mirror_push(m, &e);
}

/* Pop everything; it must come out sorted. Returns the events popped. */
static long mirror_drain(struct mirror *m)
{
    struct event e, prev = { 0 };
    long n = 0;
    while (mirror_pop(m, &e)) {
        if (n > 0 && cmp_event(&prev, &e) >= 0)
            m->mismatches++;
        prev = e;
        n++;
    }
    return n;
}

/* A new mirror (hint: every queue's capacity_hint; seed: of its random
 * stream), or NULL after a failed CHECK. */
static struct mirror *mirror_new(size_t hint, uint64_t seed)
{
    struct mirror *m = malloc(sizeof *m);
    int ok = m && mirror_init(m, hint) == 0;
    CHECK(ok);
    if (m && !ok) {
        mirror_free(m);
        free(m);
        return NULL;
    }
    if (m)
        m->rng = rng_stream(seed, RNG_TEST, 0);
    return m;
}

/* Drain, check that every queue agreed all along and that every event
 * pushed came out, and free. */
static void mirror_finish(struct mirror *m)
{
    mirror_drain(m);
    CHECK_EQ_U(m->mismatches, 0);
    CHECK_EQ_U(m->pops, m->pushes);
    mirror_free(m);
    free(m);
}

/* `ops` random operations on every queue: a push with probability push_pct
 * percent, at when(rng, now), else a pop. Returns the largest queue length
 * seen. */
static size_t mirror_random_ops(struct mirror *m, int ops, uint32_t push_pct,
                                simtime (*when)(struct rng *, simtime))
{
    size_t max_size = 0;
    for (int op = 0; op < ops; op++) {
        struct event e;
        if (rng_below(&m->rng, 100) < push_pct)
            mirror_push_at(m, when(&m->rng, m->now));
        else
            mirror_pop(m, &e);
        if (evq_size(&m->ref) > max_size)
            max_size = evq_size(&m->ref);
    }
    return max_size;
}

/* Near the last popped time (as in a simulation), or, one time in eight,
 * anywhere in the first microsecond, before it included. */
static simtime near_or_anywhere(struct rng *r, simtime now)
{
    return rng_below(r, 8) == 0 ? rng_u64(r) % 1000000
                                : now + rng_below(r, 50);
}

static void test_evq_differential(void)
{
    /* ~200k random interleaved pushes and pops into every queue; every
     * popped event, every peek and every size must agree. The queue length
     * wanders between 0 and a few thousand so both growth and emptying
     * happen: biased toward pushing in the first half, popping in the
     * second. */
    struct mirror *m = mirror_new(4, 2024);
    if (!m)
        return;
    size_t max1 = mirror_random_ops(m, 100000, 60, near_or_anywhere);
    mirror_random_ops(m, 100000, 40, near_or_anywhere);
    CHECK(m->pushes > 90000);
    CHECK(max1 > 1000); /* the queue grew well past its hint */
    mirror_finish(m);
}

/* A time for the calendar tests, spread over every scale the tiny
 * geometries care about: the same bucket, the next few, the window, far
 * beyond it, and (one time in ten) before the last popped time. */
static simtime calendar_time(struct rng *r, simtime now)
{
    switch (rng_below(r, 10)) {
    case 0:
        return now; /* equal times */
    case 1:
        return now > 3000 ? now - rng_below(r, 3000) : 0; /* the past */
    case 2:
        return now + rng_below(r, 4);
    case 3:
    case 4:
        return now + rng_below(r, 64);
    case 5:
    case 6:
        return now + rng_below(r, 2048);
    case 7:
        return now + rng_below(r, 100000);
    case 8:
        return (now & ~(simtime)1023) + 1024 - rng_below(r, 2); /* edges */
    default:
        return now + ((simtime)rng_below(r, 1000) << rng_below(r, 30));
    }
}

static void test_evq_calendar_interleaved(void)
{
    /* Interleaved pushes and pops with times from calendar_time: pushes
     * before the last popped time, equal times, bucket edges, and far
     * jumps; in rounds of varying push ratios, every third of which ends
     * by draining the queue, which then refills from where it was. */
    struct mirror *m = mirror_new(0, 77);
    if (!m)
        return;
    for (int round = 0; round < 30; round++) {
        int ops = 1000 + (int)rng_below(&m->rng, 4000);
        mirror_random_ops(m, ops, 45 + rng_below(&m->rng, 20), calendar_time);
        if (round % 3 == 2) {
            mirror_drain(m);
            CHECK_EQ_U(evq_size(&m->ref), 0);
        }
    }
    CHECK(m->pushes > 30000);
    mirror_finish(m);
}

static void test_evq_calendar_equal_times(void)
{
    /* Many events on few distinct times — bucket starts and ends, the
     * same picosecond for hundreds of events — pushed in random key order
     * and interleaved with pops: runs of equal times longer and shorter
     * than the insertion-sort limit, in every geometry. */
    static const simtime times[] = { 0, 1, 3, 4, 1023, 1024, 2047, 2048,
                                     2049, 4096, 65535, 65536, 1 << 20 };
    enum { N_TIMES = sizeof times / sizeof times[0], N = 6000 };
    uint32_t *perm = malloc(N * sizeof *perm);
    struct mirror *m = perm ? mirror_new(16, 5) : NULL;
    CHECK(perm != NULL);
    if (!m) {
        free(perm);
        return;
    }
    for (uint32_t i = 0; i < N; i++)
        perm[i] = i;
    struct rng *r = &m->rng;
    rng_shuffle_u32(r, perm, N);
    for (uint32_t i = 0; i < N; i++) {
        /* Most events on a few times; key = creator perm % 50. */
        uint32_t t = rng_below(r, 4) ? rng_below(r, 3) : rng_below(r, N_TIMES);
        struct event e = { .time = times[t] + (i < N / 2 ? 0 : 1000000),
                           .key = evq_key(perm[i] % 50, perm[i] / 50),
                           .target = i };
        mirror_push(m, &e);
        if (i % 7 == 6) {
            struct event out;
            mirror_pop(m, &out);
        }
    }
    CHECK_EQ_U(m->pushes, N);
    mirror_finish(m);
    free(perm);
}

static void test_evq_calendar_far_bulk(void)
{
    /* A bulk of events far beyond any window (and a few near ones); then,
     * while the far ones are being popped, pushes just after each popped
     * time: the window has jumped, new events land in the ring and the
     * front while older ones are still in the overflow heap, and the
     * three sources must merge exactly. Times up to the end of simtime. */
    struct mirror *m = mirror_new(0, 31);
    if (!m)
        return;
    struct rng *r = &m->rng;
    for (uint32_t i = 0; i < 20000; i++) {
        simtime t = i % 100 == 0 ? rng_below(r, 100)
                                 : (UINT64_C(1) << 40) + rng_below(r, 1 << 20);
        if (i % 1000 == 1)
            t = UINT64_MAX - rng_below(r, 3); /* the last picoseconds */
        mirror_push_at(m, t);
    }
    for (uint32_t i = 0; i < 30000; i++) {
        struct event e;
        if (!mirror_pop(m, &e))
            break;
        if (i % 3 == 0 && e.time < UINT64_MAX - 1000000)
            mirror_push_at(m, e.time + (rng_below(r, 3) ? rng_below(r, 50)
                                                        : rng_below(r, 5000)));
    }
    mirror_finish(m);
}

static void test_evq_calendar_refill(void)
{
    /* Empty and refill, over and over: each round starts somewhere else —
     * later, back at 0, far ahead, near the end of simtime — fills in
     * random order (rewinding the window whenever an earlier bucket
     * arrives), then drains part of the queue or all of it. */
    static const simtime starts[] = { 0, 5000, 0, UINT64_C(1) << 50, 12,
                                      UINT64_MAX - 100000, 7, 1 << 30 };
    struct mirror *m = mirror_new(0, 8);
    if (!m)
        return;
    struct rng *r = &m->rng;
    for (size_t round = 0; round < 40; round++) {
        simtime base = starts[round % (sizeof starts / sizeof starts[0])];
        uint32_t fill = 1 + rng_below(r, round % 4 == 0 ? 3 : 3000);
        for (uint32_t i = 0; i < fill; i++)
            mirror_push_at(m, base + rng_below(r, 90000));
        uint32_t pops = round % 2 ? fill : rng_below(r, fill);
        struct event e;
        for (uint32_t i = 0; i < pops && mirror_pop(m, &e); i++)
            ;
        if (round % 5 == 4)
            mirror_drain(m);
    }
    mirror_finish(m);
}

static void test_evq_calendar_geometry(void)
{
    struct evq q;
    /* Out of range: -1, an empty queue, evq_free harmless. */
    CHECK(evq_init_calendar(&q, 0, EVQ_CAL_WBITS_MAX + 1, 3) == -1);
    CHECK_EQ_U(evq_size(&q), 0);
    CHECK(evq_peek(&q) == NULL);
    evq_free(&q);
    CHECK(evq_init_calendar(&q, 0, 2, EVQ_CAL_NBITS_MAX + 1) == -1);
    evq_free(&q);
    /* The extremes that are allowed: one bucket for all of simtime, or
     * one picosecond per bucket with a single slot. */
    const unsigned geo[][2] = { { EVQ_CAL_WBITS_MAX, 0 },
                                { EVQ_CAL_WBITS_MAX, 3 },
                                { 0, 0 },
                                { 1, 16 } };
    const simtime times[] = { UINT64_MAX, 0, UINT64_C(1) << 63,
                              (UINT64_C(1) << 63) - 1, 5, UINT64_MAX - 1, 4 };
    enum { N_T = sizeof times / sizeof times[0] };
    for (size_t g = 0; g < sizeof geo / sizeof geo[0]; g++) {
        CHECK(evq_init_calendar(&q, 1, geo[g][0], geo[g][1]) == 0);
        for (size_t i = 0; i < N_T; i++) {
            struct event e = { .time = times[i], .key = evq_key(0, i) };
            CHECK(evq_push(&q, &e) == 0);
        }
        struct event e, prev = { 0 };
        int bad = 0;
        for (size_t i = 0; i < N_T; i++) {
            if (!evq_pop(&q, &e) || (i > 0 && cmp_event(&prev, &e) >= 0))
                bad++;
            prev = e;
        }
        CHECK_EQ_U(bad, 0);
        CHECK_EQ_U(prev.time, UINT64_MAX);
        CHECK(!evq_pop(&q, &e));
        evq_free(&q);
    }
    /* evq_init gives the default geometry. */
    CHECK(evq_init(&q, EVQ_CALENDAR, 0) == 0);
    CHECK_EQ_U(q.impl, EVQ_CALENDAR);
    evq_free(&q);
}

static void test_evq_sorted_and_growth(void)
{
    /* From a capacity of 1, push 50k events and pop them: growth keeps
     * every event, the order matches qsort, and the calendar's prefetch
     * hints are events to come. */
    enum { N = 50000 };
    struct event *ev = make_events(N, 1000000000, 5);
    struct event *ref = malloc(N * sizeof *ref);
    CHECK(ev && ref);
    if (ev && ref) {
        memcpy(ref, ev, N * sizeof *ref);
        qsort(ref, N, sizeof *ref, cmp_event);
        for (size_t m = 0; m < N_IMPLS; m++) {
            struct evq q;
            CHECK(evq_init(&q, impls[m], 1) == 0);
            for (size_t i = 0; i < N; i++)
                CHECK(evq_push(&q, &ev[i]) == 0);
            CHECK_EQ_U(evq_size(&q), N);
            int bad = 0, hinted = 0;
            struct event e;
            for (size_t i = 0; i < N; i++) {
                /* the prefetch hints, up to 4: events still to come, in
                 * the order they will come (a subsequence of ref's) */
                size_t na, p = i;
                const struct event *a = evq_ahead(&q, &na);
                for (size_t j = 0; j < na && j < 4; j++, p++, hinted++) {
                    while (p < N && !same_event(&a[j], &ref[p]))
                        p++;
                    bad += p == N;
                }
                if (!evq_pop(&q, &e) || !same_event(&e, &ref[i]))
                    bad++;
            }
            CHECK_EQ_U(bad, 0);
            /* only the calendar gives hints, and it gives them */
            CHECK((impls[m] == EVQ_CALENDAR) == (hinted > 0));
            evq_free(&q);
            /* A freed queue can be initialised and used again. */
            CHECK(evq_init(&q, impls[m], 0) == 0);
            CHECK(evq_push(&q, &ev[0]) == 0);
            CHECK(evq_pop(&q, &e) && same_event(&e, &ev[0]));
            evq_free(&q);
        }
    }
    free(ev);
    free(ref);
}

const struct test_case tests_evq[] = {
    TEST(test_evq_key),
    TEST(test_evq_order_peek_size),
    TEST(test_evq_ties_by_key),
    TEST(test_evq_push_order_independent),
    TEST(test_evq_differential),
    TEST(test_evq_sorted_and_growth),
    TEST(test_evq_calendar_interleaved),
    TEST(test_evq_calendar_equal_times),
    TEST(test_evq_calendar_far_bulk),
    TEST(test_evq_calendar_refill),
    TEST(test_evq_calendar_geometry),
    { 0 },
};
