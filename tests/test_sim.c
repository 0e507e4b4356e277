/* tests/test_sim.c — core/sim: the event loop.
 *
 * Causality, the `until` bound, dispatch by type, sim_stop, and the central
 * promise of DESIGN.md §2: the trace of a model (every dispatched event,
 * in order) is identical with every queue implementation, and one
 * entity's activity does not perturb the others'. */
#include "test.h"

#include <stdlib.h>

#include "core/rng.h"
#include "core/sim.h"

/* ---- a small self-scheduling model: entities bouncing tokens ---------- */

enum { TOKEN = 1, NOISE = 2 };
enum { ENTITIES = 100 };

struct trace {
    struct event *ev; /* dispatched events, in order */
    size_t n, cap;
};

struct bounce {
    struct rng rng[ENTITIES + 1]; /* one stream per entity */
    struct trace tr;
    int causality_violations;
    simtime last_now;
    /* with a prefetcher (test_sim_prefetch_hints): the events it was
     * shown, near and far, in order */
    struct trace hint[2];
};

static void record(struct trace *t, const struct event *e)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        struct event *ev = realloc(t->ev, cap * sizeof *ev);
        if (!ev)
            abort();
        t->ev = ev;
        t->cap = cap;
    }
    t->ev[t->n++] = *e;
}

/* A token arrives: pass it to a random entity after a delay of 1..8 ns in
 * whole ns (coarse, so many events share a time and keys decide; never 0,
 * so that all events of one time are queued before the first of them is
 * dispatched and must come out in key order). The
 * argument counts the token's hops in the high bits and holds the time it
 * was sent in the low 40 bits, for the causality check. */
static void on_token(struct sim *s, const struct event *e, void *ctx)
{
    struct bounce *b = ctx;
    uint64_t sent = e->arg & EVQ_SEQ_MAX;
    if (e->time != s->now || e->time < sent || s->now < b->last_now)
        b->causality_violations++;
    b->last_now = s->now;
    record(&b->tr, e);
    uint32_t self = e->target;
    struct rng *r = &b->rng[self];
    simtime delay = (1 + rng_below(r, 8)) * SIMTIME_NS;
    uint32_t next = rng_below(r, ENTITIES);
    uint64_t hops = (e->arg >> EVQ_SEQ_BITS) + 1;
    sim_schedule(s, self, s->now + delay, next, TOKEN,
                 hops << EVQ_SEQ_BITS | s->now);
}

/* Background activity of one extra entity, drawing from its own stream
 * and scheduling only to itself. */
static void on_noise(struct sim *s, const struct event *e, void *ctx)
{
    struct bounce *b = ctx;
    struct rng *r = &b->rng[e->target];
    record(&b->tr, e);
    for (int i = 0; i < 3; i++)
        (void)rng_u64(r);
    sim_schedule(s, e->target, s->now + rng_below(r, 3) * SIMTIME_NS,
                 e->target, NOISE, 0);
}

/* A prefetcher that only records what it was shown, with (in arg) the
 * index in the trace of the event about to be handled. */
static void hint_token(const struct event *e, void *ctx, bool near)
{
    struct bounce *b = ctx;
    struct event c = *e;
    c.arg = b->tr.n;
    record(&b->hint[near], &c);
}

/* Run the model to `until`; returns its trace (caller frees ev). `noise`:
 * add an entity that keeps itself busy; `hints`, if not NULL, gets the
 * events a prefetcher was shown, near and far (caller frees ev). */
static struct trace run_bounce_hinted(enum evq_impl impl, simtime until,
                                      int noise, int *violations,
                                      size_t *left, struct trace *hints)
{
    struct bounce *b = calloc(1, sizeof *b);
    struct trace none = { 0 };
    if (!b)
        return none;
    struct sim s;
    uint32_t n = ENTITIES + (noise ? 1 : 0);
    CHECK(sim_init(&s, impl, n) == 0);
    for (uint32_t i = 0; i < n; i++)
        b->rng[i] = rng_stream(99, RNG_TEST, i);
    sim_on(&s, TOKEN, on_token, b);
    sim_on(&s, NOISE, on_noise, b);
    if (hints)
        sim_on_prefetch(&s, TOKEN, hint_token);
    for (uint32_t i = 0; i < ENTITIES; i++)
        sim_schedule(&s, i, 0, i, TOKEN, 0);
    if (noise)
        sim_schedule(&s, ENTITIES, 0, ENTITIES, NOISE, 0);
    uint64_t done = sim_run(&s, until);
    CHECK_EQ_U(done, s.events);
    CHECK(!sim_failed(&s));
    *violations = b->causality_violations;
    *left = evq_size(&s.q);
    struct trace t = b->tr;
    if (hints) {
        hints[0] = b->hint[0];
        hints[1] = b->hint[1];
    }
    sim_free(&s);
    free(b);
    return t;
}

static struct trace run_bounce(enum evq_impl impl, simtime until, int noise,
                               int *violations, size_t *left)
{
    return run_bounce_hinted(impl, until, noise, violations, left, NULL);
}

/* Whether e is in t (time and key identify an event). */
static size_t find_event(const struct trace *t, const struct event *e)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->ev[i].time == e->time && t->ev[i].key == e->key)
            return i;
    return t->n;
}

static void test_sim_prefetch_hints(void)
{
    /* A prefetcher is a hint: with one, the trace is the same event for
     * event; it is shown events of its type only, each one still to come
     * (dispatched later, or pending at the end), near and far; and the
     * calendar's hints are mostly right — the event shown near is the one
     * dispatched two events later (sim_run's SIM_PREFETCH_NEAR). The heap
     * gives no hints. */
    int v1 = -1, v2 = -1;
    size_t left1 = 0, left2 = 0;
    struct trace h[2] = { { 0 }, { 0 } };
    struct trace a = run_bounce(EVQ_CALENDAR, 300 * SIMTIME_NS, 1, &v1,
                                &left1);
    struct trace b = run_bounce_hinted(EVQ_CALENDAR, 300 * SIMTIME_NS, 1,
                                       &v2, &left2, h);
    CHECK_EQ_U(a.n, b.n);
    CHECK_EQ_U(left1, left2);
    size_t diff = 0;
    for (size_t i = 0; i < a.n && i < b.n; i++)
        diff += memcmp(&a.ev[i], &b.ev[i], sizeof a.ev[i]) != 0;
    CHECK_EQ_U(diff, 0);
    CHECK(h[0].n > a.n / 2 && h[1].n > a.n / 2);
    size_t wrong_type = 0, missing = 0, right = 0;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < h[k].n; i++) {
            wrong_type += h[k].ev[i].type != TOKEN;
            missing += h[k].ev[i].time <= 300 * SIMTIME_NS &&
                       find_event(&a, &h[k].ev[i]) == a.n;
        }
    CHECK_EQ_U(wrong_type, 0);
    CHECK_EQ_U(missing, 0);
    /* a near hint shown before event i was handled: is it event i + 2? */
    for (size_t i = 0; i < h[1].n; i++)
        right += find_event(&a, &h[1].ev[i]) == h[1].ev[i].arg + 2;
    CHECK(right > h[1].n * 3 / 4); /* 88 % here: the noise entity's 0-ns
                                      events come in between */
    free(h[0].ev);
    free(h[1].ev);
    free(a.ev);
    free(b.ev);
    struct trace none[2] = { { 0 }, { 0 } };
    struct trace c = run_bounce_hinted(EVQ_HEAP4, 100 * SIMTIME_NS, 0, &v1,
                                       &left1, none);
    CHECK_EQ_U(none[0].n + none[1].n, 0);
    free(c.ev);
}

static void test_sim_trace_same_for_all_queues(void)
{
    static const enum evq_impl others[] = { EVQ_PAIRING, EVQ_CALENDAR };
    int v1 = -1;
    size_t left1 = 0;
    struct trace a = run_bounce(EVQ_HEAP4, 2 * SIMTIME_US, 0, &v1, &left1);
    CHECK_EQ_U(v1, 0);
    /* Tokens are conserved: each dispatch schedules exactly one more. */
    CHECK_EQ_U(left1, ENTITIES);
    /* 100 tokens, mean delay 4.5 ns, 2 us: about 44k events. */
    CHECK(a.n > 35000 && a.n < 55000);
    size_t ties = 0, diff = 0;
    for (size_t i = 1; i < a.n; i++) {
        if (a.ev[i].time == a.ev[i - 1].time) {
            ties++;
            /* Equal times come out by increasing key. */
            diff += a.ev[i].key <= a.ev[i - 1].key;
        }
    }
    CHECK_EQ_U(diff, 0);
    CHECK(ties > a.n / 2); /* the key did decide most of the order */
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        int v2 = -1;
        size_t left2 = 0;
        struct trace b = run_bounce(others[k], 2 * SIMTIME_US, 0, &v2, &left2);
        CHECK_EQ_U(v2, 0);
        CHECK_EQ_U(left2, ENTITIES);
        CHECK_EQ_U(a.n, b.n);
        diff = 0;
        for (size_t i = 0; i < a.n && i < b.n; i++)
            diff += memcmp(&a.ev[i], &b.ev[i], sizeof a.ev[i]) != 0;
        CHECK_EQ_U(diff, 0);
        free(b.ev);
    }
    free(a.ev);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static void test_sim_keys_per_creator(void)
{
    /* Keys are evq_key(creator, k) with k the creator's own count: entity
     * c creates one event at setup and one per token it receives, so the
     * dispatched events of creator c have k < 1 + (tokens c received), all
     * keys are distinct, and the events created but not yet dispatched are
     * exactly the 100 tokens still in flight. */
    int v = -1;
    size_t left = 0;
    struct trace t = run_bounce(EVQ_HEAP4, 200 * SIMTIME_NS, 0, &v, &left);
    uint64_t created[ENTITIES], dispatched[ENTITIES];
    uint64_t *keys = malloc((t.n + 1) * sizeof *keys);
    CHECK(keys && t.n > 1000);
    if (!keys)
        return;
    for (int c = 0; c < ENTITIES; c++) {
        created[c] = 1;
        dispatched[c] = 0;
    }
    for (size_t i = 0; i < t.n; i++)
        created[t.ev[i].target]++;
    size_t bad = 0;
    for (size_t i = 0; i < t.n; i++) {
        uint64_t c = t.ev[i].key >> EVQ_SEQ_BITS;
        uint64_t k = t.ev[i].key & EVQ_SEQ_MAX;
        if (c >= ENTITIES || k >= created[c])
            bad++;
        else
            dispatched[c]++;
        keys[i] = t.ev[i].key;
    }
    CHECK_EQ_U(bad, 0);
    uint64_t in_flight = 0;
    for (int c = 0; c < ENTITIES; c++)
        in_flight += created[c] - dispatched[c];
    CHECK_EQ_U(in_flight, ENTITIES);
    CHECK_EQ_U(left, ENTITIES);
    qsort(keys, t.n, sizeof *keys, cmp_u64);
    size_t dup = 0;
    for (size_t i = 1; i < t.n; i++)
        dup += keys[i] == keys[i - 1];
    CHECK_EQ_U(dup, 0);
    free(keys);
    free(t.ev);
}

static void test_sim_other_entity_does_not_perturb(void)
{
    /* Adding an entity that draws random numbers and schedules its own
     * events changes nothing in the tokens' trace. */
    int v1 = -1, v2 = -1;
    size_t l1, l2;
    struct trace a = run_bounce(EVQ_HEAP4, SIMTIME_US, 0, &v1, &l1);
    struct trace b = run_bounce(EVQ_HEAP4, SIMTIME_US, 1, &v2, &l2);
    size_t j = 0, diff = 0, noise = 0;
    for (size_t i = 0; i < b.n; i++) {
        if (b.ev[i].type == NOISE) {
            noise++;
            continue;
        }
        if (j >= a.n || memcmp(&a.ev[j], &b.ev[i], sizeof a.ev[j]) != 0)
            diff++;
        j++;
    }
    CHECK(noise > 100);
    CHECK_EQ_U(j, a.n);
    CHECK_EQ_U(diff, 0);
    free(a.ev);
    free(b.ev);
}

/* ---- loop mechanics ---------------------------------------------------- */

struct counts {
    int n;              /* events seen */
    simtime times[16];  /* their times */
    uint32_t types[16]; /* their types */
    int stop_after;     /* call sim_stop after this many (0: never) */
};

static void count_event(struct sim *s, const struct event *e, void *ctx)
{
    struct counts *c = ctx;
    if (c->n < 16) {
        c->times[c->n] = e->time;
        c->types[c->n] = e->type;
    }
    c->n++;
    if (c->stop_after && c->n == c->stop_after)
        sim_stop(s);
}

static void test_sim_until_respected(void)
{
    struct sim s;
    struct counts c = { 0 };
    CHECK(sim_init(&s, EVQ_HEAP4, 4) == 0);
    sim_on(&s, 0, count_event, &c);
    sim_schedule(&s, 0, 30, 1, 0, 0);
    sim_schedule(&s, 1, 10, 1, 0, 0);
    sim_schedule(&s, 2, 20, 1, 0, 0);
    CHECK_EQ_U(sim_run(&s, 20), 2); /* 10 and 20: "until" is inclusive */
    CHECK_EQ_U(c.n, 2);
    CHECK_EQ_U(s.now, 20);
    CHECK_EQ_U(evq_size(&s.q), 1);
    CHECK_EQ_U(sim_run(&s, 29), 0);
    CHECK_EQ_U(s.now, 20);
    /* Scheduling between runs, at the current time, is allowed. */
    sim_schedule(&s, 3, 20, 1, 0, 0);
    CHECK_EQ_U(sim_run(&s, SIMTIME_MAX), 2);
    CHECK_EQ_U(s.events, 4);
    CHECK_EQ_U(s.now, 30);
    CHECK(c.times[0] == 10 && c.times[1] == 20 && c.times[2] == 20 &&
          c.times[3] == 30);
    CHECK_EQ_U(sim_run(&s, SIMTIME_MAX), 0); /* empty */
    sim_free(&s);
}

static void test_sim_dispatch_by_type(void)
{
    struct sim s;
    struct counts a = { 0 }, b = { 0 };
    CHECK(sim_init(&s, EVQ_PAIRING, 2) == 0);
    sim_on(&s, 3, count_event, &a);
    sim_on(&s, SIM_MAX_TYPES - 1, count_event, &b);
    for (int i = 0; i < 5; i++)
        sim_schedule(&s, 0, (simtime)(100 - i), 0, 3, 0);
    for (int i = 0; i < 3; i++)
        sim_schedule(&s, 1, (simtime)(50 + i), 1, SIM_MAX_TYPES - 1, 0);
    CHECK_EQ_U(sim_run(&s, SIMTIME_MAX), 8);
    CHECK_EQ_U(a.n, 5);
    CHECK_EQ_U(b.n, 3);
    int wrong = 0;
    for (int i = 0; i < 5; i++)
        wrong += a.types[i] != 3 || a.times[i] != (simtime)(96 + i);
    for (int i = 0; i < 3; i++)
        wrong += b.types[i] != SIM_MAX_TYPES - 1;
    CHECK_EQ_U(wrong, 0);
    /* Re-registering replaces the handler. */
    struct counts a2 = { 0 };
    sim_on(&s, 3, count_event, &a2);
    sim_schedule(&s, 0, 200, 0, 3, 0);
    sim_run(&s, SIMTIME_MAX);
    CHECK_EQ_U(a2.n, 1);
    CHECK_EQ_U(a.n, 5);
    sim_free(&s);
}

static void test_sim_stop(void)
{
    struct sim s;
    struct counts c = { .stop_after = 3 };
    CHECK(sim_init(&s, EVQ_HEAP4, 1) == 0);
    sim_on(&s, 0, count_event, &c);
    for (int i = 0; i < 10; i++)
        sim_schedule(&s, 0, (simtime)i * SIMTIME_NS, 0, 0, 0);
    CHECK_EQ_U(sim_run(&s, SIMTIME_MAX), 3);
    CHECK_EQ_U(s.now, 2 * SIMTIME_NS);
    CHECK_EQ_U(sim_run(&s, SIMTIME_MAX), 7); /* goes on from where it was */
    CHECK_EQ_U(s.events, 10);
    sim_free(&s);
}

const struct test_case tests_sim[] = {
    TEST(test_sim_trace_same_for_all_queues),
    TEST(test_sim_keys_per_creator),
    TEST(test_sim_other_entity_does_not_perturb),
    TEST(test_sim_until_respected),
    TEST(test_sim_dispatch_by_type),
    TEST(test_sim_stop),
    TEST(test_sim_prefetch_hints),
    { 0 },
};
