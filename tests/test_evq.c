/* tests/test_evq.c — core/evq: the order (time, then key), both
 * implementations, and their agreement event by event.
 *
 * The oracle for "the right order" is qsort over the same events with the
 * (time, key) comparison written out here; the oracle for the
 * implementations is each other (a differential test over ~200k random
 * operations). */
#include "test.h"

#include <stdlib.h>

#include "core/evq.h"
#include "core/rng.h"

static const enum evq_impl impls[] = { EVQ_HEAP4, EVQ_PAIRING };
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

static void test_evq_differential(void)
{
    /* ~200k random interleaved pushes and pops into both implementations;
     * every popped event, every peek and every size must agree. Times are
     * drawn near the last popped time (as in a simulation) but also, now
     * and then, anywhere; the queue length wanders between 0 and a few
     * thousand so both growth and emptying happen. */
    struct evq a, b;
    CHECK(evq_init(&a, EVQ_HEAP4, 4) == 0);
    CHECK(evq_init(&b, EVQ_PAIRING, 4) == 0);
    struct rng r = rng_stream(2024, RNG_TEST, 7);
    uint64_t seq[64] = { 0 };
    simtime now = 0;
    long mismatches = 0, pops = 0, pushes = 0;
    size_t max_size = 0;
    for (int op = 0; op < 200000; op++) {
        /* Bias toward pushing in the first half, popping in the second. */
        uint32_t push_pct = op < 100000 ? 60 : 40;
        if (rng_below(&r, 100) < push_pct) {
            uint32_t c = rng_below(&r, 64);
            struct event e = {
                .time = rng_below(&r, 8) == 0 ? rng_u64(&r) % 1000000
                                              : now + rng_below(&r, 50),
                .key = evq_key(c * 4099, seq[c]++),
                .target = rng_below(&r, 1000),
                .type = rng_below(&r, 16),
                .arg = rng_u64(&r),
            };
            CHECK(evq_push(&a, &e) == 0);
            CHECK(evq_push(&b, &e) == 0);
            pushes++;
        } else {
            struct event ea = { 0 }, eb = { 0 };
            bool ga = evq_pop(&a, &ea), gb = evq_pop(&b, &eb);
            if (ga != gb || (ga && !same_event(&ea, &eb)))
                mismatches++;
            if (ga) {
                now = ea.time;
                pops++;
            }
        }
        const struct event *pa = evq_peek(&a), *pb = evq_peek(&b);
        if ((pa == NULL) != (pb == NULL) || (pa && !same_event(pa, pb)) ||
            evq_size(&a) != evq_size(&b))
            mismatches++;
        if (evq_size(&a) > max_size)
            max_size = evq_size(&a);
    }
    /* Drain: the rest must also agree and come out sorted. */
    struct event ea, eb, prev = { 0 };
    bool first = true;
    while (evq_pop(&a, &ea)) {
        if (!evq_pop(&b, &eb) || !same_event(&ea, &eb))
            mismatches++;
        if (!first && cmp_event(&prev, &ea) >= 0)
            mismatches++;
        prev = ea;
        first = false;
        pops++;
    }
    CHECK(!evq_pop(&b, &eb));
    CHECK_EQ_U(mismatches, 0);
    CHECK_EQ_U(pops, pushes);
    CHECK(pushes > 90000);
    CHECK(max_size > 1000); /* the queue grew well past its hint */
    evq_free(&a);
    evq_free(&b);
}

static void test_evq_sorted_and_growth(void)
{
    /* From a capacity of 1, push 50k events and pop them: growth keeps
     * every event, and the order matches qsort. */
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
            int bad = 0;
            struct event e;
            for (size_t i = 0; i < N; i++)
                if (!evq_pop(&q, &e) || !same_event(&e, &ref[i]))
                    bad++;
            CHECK_EQ_U(bad, 0);
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
    { 0 },
};
