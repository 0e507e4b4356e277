/* core/sim.c — the event loop (see sim.h for the model and invariants).
 * The loop is deliberately small: peek, pop, advance the clock, dispatch
 * through the handler table. Nothing is allocated per event; the queue
 * grows only if more events are pending than ever before. */
#include "core/sim.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t sim_interrupt = 0;

int sim_init(struct sim *s, enum evq_impl impl, uint32_t n_entities)
{
    memset(s, 0, sizeof *s);
    assert(n_entities > 0 && n_entities - 1 <= EVQ_CREATOR_MAX);
    s->n_entities = n_entities;
    s->seq = calloc(n_entities, sizeof *s->seq);
    if (!s->seq)
        return -1;
    if (evq_init(&s->q, impl, n_entities) != 0) {
        free(s->seq);
        s->seq = NULL;
        return -1;
    }
    return 0;
}

size_t sim_init_bytes(uint32_t n_entities)
{
    return (size_t)n_entities * sizeof(uint64_t) +
           evq_init_bytes(n_entities);
}

void sim_free(struct sim *s)
{
    evq_free(&s->q);
    free(s->seq);
    s->seq = NULL;
    s->n_entities = 0;
}

void sim_on(struct sim *s, uint32_t type, sim_handler fn, void *ctx)
{
    assert(type < SIM_MAX_TYPES);
    s->handlers[type] = fn;
    s->ctx[type] = ctx;
}

void sim_on_prefetch(struct sim *s, uint32_t type, sim_prefetcher fn)
{
    assert(type < SIM_MAX_TYPES);
    s->prefetch[type] = fn;
}

/* 0, or -1 with the run void (out of memory) */
static int push(struct sim *s, const struct event *e)
{
    if (evq_push(&s->q, e) != 0) {
        if (!s->error)
            fprintf(stderr,
                    "dfsim: out of memory growing the event queue beyond "
                    "%zu events; the run is void\n",
                    evq_size(&s->q));
        s->error = -1;
        s->stop = true; /* sim_run's loop looks at stop alone */
        return -1;
    }
    return 0;
}

void sim_schedule(struct sim *s, uint32_t creator, simtime at,
                  uint32_t target, uint32_t type, uint64_t arg)
{
    assert(at >= s->now && "event scheduled in the past");
    assert(creator < s->n_entities);
    assert(type < SIM_MAX_TYPES);
    struct event e = {
        .time = at,
        /* ties at one time are broken by (creator, the creator's own count),
         * not by the order of the pushes: the order then depends only on what
         * each entity did, the same with any queue and any split over
         * partitions (sim.h) */
        .key = evq_key(creator, s->seq[creator]),
        .target = target,
        .type = type,
        .arg = arg,
    };
    if (push(s, &e) == 0)
        s->seq[creator]++;
}

uint64_t sim_take_key(struct sim *s, uint32_t creator)
{
    assert(creator < s->n_entities);
    return evq_key(creator, s->seq[creator]++);
}

void sim_schedule_key(struct sim *s, simtime at, uint64_t key,
                      uint32_t target, uint32_t type, uint64_t arg)
{
    assert(at >= s->now && "event scheduled in the past");
    assert(type < SIM_MAX_TYPES);
    struct event e = { .time = at, .key = key, .target = target,
                       .type = type, .arg = arg };
    (void)push(s, &e);
}

/* How far ahead of the event being handled sim_run prefetches: the
 * handling of SIM_PREFETCH_FAR events covers a miss to memory; the second
 * stage runs SIM_PREFETCH_NEAR events ahead. */
#define SIM_PREFETCH_FAR 3
#define SIM_PREFETCH_NEAR 1

uint64_t sim_run(struct sim *s, simtime until)
{
    uint64_t done = 0;
    if (s->error)
        return 0;
    /* whoever sets error sets stop too, so the loop tests one flag; the
     * interruption test is two instructions per event and a load every
     * 4096: together no more than the test of error it replaces
     * (bench_net --quick 1: the same instruction count within 0.1 %) */
    s->stop = false;
    while (!s->stop) {
        if ((done & (SIM_INTERRUPT_EVENTS - 1)) == 0 && sim_interrupt)
            break;
        struct event e;
        if (!evq_pop_until(&s->q, until, &e))
            break;
        assert(e.time >= s->now);
        sim_handler h = s->handlers[e.type]; /* type < SIM_MAX_TYPES */
        if (!h) {
            fprintf(stderr,
                    "%s:%d: event of type %" PRIu32 " for entity %" PRIu32
                    " at %" PRIu64 " ps has no handler (sim_on)\n",
                    __FILE__, __LINE__, e.type, e.target, e.time);
            abort();
        }
        s->now = e.time;
        s->events++;
        done++;
        size_t na;
        /* Two-stage prefetch down the queue (sim_on_prefetch): for the
         * event SIM_PREFETCH_FAR ahead, the record it names (its packet,
         * its port) is requested; for the next one, what that record
         * points to, by then in the cache. A hint only: no state changes. */
        const struct event *ahead = evq_ahead(&s->q, &na), *a;
        if (na > SIM_PREFETCH_FAR &&
            s->prefetch[(a = &ahead[SIM_PREFETCH_FAR])->type])
            s->prefetch[a->type](a, s->ctx[a->type], false);
        if (na > SIM_PREFETCH_NEAR &&
            s->prefetch[(a = &ahead[SIM_PREFETCH_NEAR])->type])
            s->prefetch[a->type](a, s->ctx[a->type], true);
        h(s, &e, s->ctx[e.type]);
    }
    return done;
}

bool sim_run_before(struct sim *s, simtime t)
{
    assert(t > s->now || (t == 0 && s->now == 0));
    if (t > 0)
        /* every event before t, none at t: the caller acts at t before the
         * model's own events of that instant (a sampler's read, a window's
         * end) */
        sim_run(s, t - 1);
    if (s->stop || s->error || sim_interrupt)
        return false;
    s->now = t;
    return true;
}
