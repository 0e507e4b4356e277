/* core/sim.h — the event loop: one simulation partition's clock, queue and
 * handlers.
 *
 * What is modelled: time advancing from event to event (DESIGN.md §2).
 * Models register one handler per event type; they change state only
 * inside handlers and only schedule events at or after the current time.
 * This file, with sim.c, is the only place that pops events (STYLE.md:
 * "one file owns the loop"). All run state lives in struct sim, passed
 * explicitly; there are no globals.
 *
 * Invariants:
 *  - causality: `now` never decreases; an event is never scheduled before
 *    `now` (asserted), so handlers see events in (time, key) order.
 *  - partition independence: each event's key is evq_key(creator, seq)
 *    with seq the creating entity's own count of events scheduled, kept in
 *    seq[creator]. The dispatch order is therefore the same whichever queue
 *    implementation is used and however entities are spread over
 *    partitions: it depends only on what each entity did.
 *
 * Entities are numbered 0 .. n_entities-1 by the model (routers, NICs,
 * ranks, ... in one numbering of its choice); the number passed as
 * `creator` must be the entity whose handler is running — or, for events
 * made at setup, the entity they concern — never a shared id, or the
 * partition independence is lost.
 */
#ifndef DFSIM_SIM_H
#define DFSIM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/evq.h"
#include "core/time.h"

#define SIM_MAX_TYPES 64 /* distinct event types (handler slots) */

struct sim;

/* Handles one event. `e` points at a copy owned by the loop, valid during
 * the call; ctx is the pointer given to sim_on for this type. */
typedef void (*sim_handler)(struct sim *s, const struct event *e, void *ctx);

/* Touches (prefetches) the memory the handler of e will read, before e is
 * handled; must not change any state. Called twice for an event: several
 * events ahead (near false: what the event itself names) and just before
 * (near true: what that memory, by then in the cache, points to). */
typedef void (*sim_prefetcher)(const struct event *e, void *ctx, bool near);

struct sim {
    simtime now;                          /* time of the event being handled
                                             or last handled */
    struct evq q;                         /* pending events */
    uint64_t events;                      /* events dispatched so far */
    sim_handler handlers[SIM_MAX_TYPES];  /* by event type; NULL: none */
    void *ctx[SIM_MAX_TYPES];             /* second argument of each */
    sim_prefetcher prefetch[SIM_MAX_TYPES]; /* by type; NULL: none */
    uint64_t *seq;                        /* per-creator sequence numbers,
                                             array of n_entities */
    uint32_t n_entities;                  /* valid creator ids: < this */
    int error;                            /* 0, or -1 once scheduling failed
                                             for lack of memory (sticky;
                                             whoever sets it sets stop) */
    bool stop;                            /* set by sim_stop: leave sim_run */
};

/* An empty simulation at time 0 with entities 0 .. n_entities-1 (at most
 * EVQ_CREATOR_MAX + 1) and an event queue of kind `impl` sized for about
 * n_entities pending events (it grows as needed). Returns 0, or -1 if out
 * of memory (then sim_free(s) is harmless). */
int sim_init(struct sim *s, enum evq_impl impl, uint32_t n_entities);

/* The bytes sim_init(s, EVQ_DEFAULT, n_entities) allocates: the sequence
 * numbers and the event queue's first pool (about one pending event per
 * entity; the pool grows with the events pending). For memory estimates
 * (exp/experiment.c). */
size_t sim_init_bytes(uint32_t n_entities);

/* Release the queue and sequence numbers. Pending events are dropped. */
void sim_free(struct sim *s);

/* Call fn(s, e, ctx) for every event of type `type` (< SIM_MAX_TYPES).
 * Replaces an earlier handler for that type. */
void sim_on(struct sim *s, uint32_t type, sim_handler fn, void *ctx);

/* Call fn(e, ctx, near) — ctx as given to sim_on for `type` — for an event of
 * that type a few events before it is handled, so that the memory its
 * handler reads is on its way into the cache while the events before it
 * are handled (the handlers' misses on packets and ports dominate the
 * network's time per event). A hint only: results do not depend on it. */
void sim_on_prefetch(struct sim *s, uint32_t type, sim_prefetcher fn);

/* Schedule an event of `type` for entity `target` at time `at` (>= now),
 * created by entity `creator` (< n_entities), carrying `arg`. Its
 * tie-breaking key is the creator's next sequence number. If the queue
 * cannot grow for lack of memory the event is lost, s->error becomes -1
 * and sim_run returns at once: the run is void and its caller must report
 * it (check sim_failed). */
void sim_schedule(struct sim *s, uint32_t creator, simtime at,
                  uint32_t target, uint32_t type, uint64_t arg);

/* The key sim_schedule would give the next event `creator` makes, taken:
 * the creator's count moves on as if it had scheduled it. For an event
 * that another partition will queue (sim_schedule_key): its place in the
 * (time, key) order is the one it would have had in one process. */
uint64_t sim_take_key(struct sim *s, uint32_t creator);

/* Queue an event whose key was taken by sim_take_key, in this or another
 * partition's sim (the same model on every partition): `at` >= now. On
 * lack of memory as sim_schedule. */
void sim_schedule_key(struct sim *s, simtime at, uint64_t key,
                      uint32_t target, uint32_t type, uint64_t arg);

/* Interruption by a signal. A handler (cli/cli_run.c, for SIGINT and
 * SIGTERM) stores the signal's number here; sim_run looks at it every
 * SIM_INTERRUPT_EVENTS events (and on entry) and returns while it is
 * set, so that an hours-long run stops within microseconds of wall time
 * and its caller can close its files with the results it finished. The
 * engine's one global: a signal handler can reach nothing else. The code
 * that runs simulations (exp/traffic.c, exp/jobs.c, exp/probe.c) checks
 * it after sim_run and returns SIM_INTERRUPTED, writing nothing of the
 * unfinished run. 0: run on. */
extern volatile sig_atomic_t sim_interrupt;
#define SIM_INTERRUPT_EVENTS 4096 /* a power of two */
#define SIM_INTERRUPTED (-2)      /* a run function's "stopped by a signal" */

/* Dispatch events in (time, key) order while the next one is at or before
 * `until` (SIMTIME_MAX: until the queue is empty), sim_stop is called,
 * sim_interrupt is set, or scheduling fails. Returns the number of events dispatched by this call.
 * `now` is left at the time of the last event dispatched; events after
 * `until` stay queued, so sim_run may be called again to go further. An
 * event whose type has no handler is a bug (asserted). */
uint64_t sim_run(struct sim *s, simtime until);

/* Run every event before time t (t > now), then set now = t: the state is
 * then the state at the instant t, before t's own events, as counters read
 * at t would see it. Returns false, with now unchanged, if sim_stop was
 * called, sim_interrupt set or scheduling failed on the way. */
bool sim_run_before(struct sim *s, simtime t);

/* Make the running sim_run return after the current handler. */
static inline void sim_stop(struct sim *s) { s->stop = true; }

/* Whether the run is void because an event could not be scheduled. */
static inline bool sim_failed(const struct sim *s) { return s->error != 0; }

#endif
