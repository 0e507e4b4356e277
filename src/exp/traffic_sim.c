/* exp/traffic_sim.c — one synthetic-traffic run (see traffic.h for what
 * is modelled).
 *
 * One run is one struct sim with the network model on it and three event
 * types of our own: a generation at a NIC (created by and for that NIC's
 * entity, so each NIC's stream of events is its own), the end of the
 * measurement window and the watchdog tick (both kept by NIC 0's entity).
 * Everything the run measures is updated in the network's `delivered`
 * hook, in delivery order, from flat arrays sized at the start. With
 * counter sampling on, a fourth type belongs to the sampler, created by
 * one more entity past the network's (exp/sampler.h); it only reads. A
 * run dealt over partitions is exp/traffic_win.c's.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/time.h"
#include "exp/traffic_internal.h"
#include "net/links.h"
#include "net/xpart.h"

uint64_t traffic_fnv(uint64_t h, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= FNV_PRIME;
    }
    return h;
}

double traffic_eta_seconds(const struct traffic_eta *e)
{
    if (e->now <= e->from)
        return NAN;
    if (e->now >= e->horizon)
        return 0;
    /* wall seconds per simulated picosecond */
    double pace = e->wall / (double)(e->now - e->from);
    if (e->recent_sim > 0 && e->recent_wall / (double)e->recent_sim > pace)
        pace = e->recent_wall / (double)e->recent_sim;
    return pace * (double)(e->horizon - e->now);
}

/* sim_run to `until` in slices of simulated time (splitting a run
 * changes no event), with a line on `progress` every 2 s of wall time:
 * how much has been simulated and, by traffic_eta_seconds, how much wall
 * time is left at most, the drain to `until` included (the check after
 * it, drain_check, is not: nothing is generated then, and the network
 * empties). */
static void run_shown(struct gen *g, simtime until, FILE *progress)
{
    struct sim *s = &g->s;
    if (!progress) {
        sim_run(s, until);
        return;
    }
    const simtime slice = 5 * SIMTIME_US / 10; /* 0.5 us */
    double t0 = time_wall_seconds(), shown = t0;
    /* slices from where the last ended, not from `now` (the last event's
     * time): a gap longer than a slice must not stall the loop */
    simtime at = s->now, from = s->now, shown_at = s->now;
    for (;;) {
        simtime to = at + slice;
        if (to > until || to < at)
            to = until;
        sim_run(s, to);
        at = to;
        if (s->stop || sim_interrupt || sim_failed(s) || to >= until ||
            evq_size(&s->q) == 0)
            return;
        double now = time_wall_seconds();
        if (now - shown < 2.0)
            continue;
        struct traffic_eta eta = {
            .from = from, .now = s->now, .t_end = g->t_end,
            .horizon = until, .wall = now - t0,
            .recent_sim = s->now - shown_at, .recent_wall = now - shown };
        tgen_show(progress, &eta);
        shown = now;
        shown_at = s->now;
    }
}

void tgen_show(FILE *progress, const struct traffic_eta *eta)
{
    double left = traffic_eta_seconds(eta);
    char eta_text[64] = "";
    if (isfinite(left))
        snprintf(eta_text, sizeof eta_text, ", at most about %.0f s left",
                 left);
    if (eta->now < eta->t_end)
        fprintf(progress,
                "    %.1f us simulated, window to %.1f us, then the "
                "drain to %.1f us at most: %.0f s%s\n",
                (double)eta->now / (double)SIMTIME_US,
                (double)eta->t_end / (double)SIMTIME_US,
                (double)eta->horizon / (double)SIMTIME_US, eta->wall,
                eta_text);
    else
        fprintf(progress,
                "    %.1f us simulated, draining the measured packets "
                "(to %.1f us at most): %.0f s%s\n",
                (double)eta->now / (double)SIMTIME_US,
                (double)eta->horizon / (double)SIMTIME_US, eta->wall,
                eta_text);
    fflush(progress);
}

static void finish(struct gen *g)
{
    g->done = true;
    sim_stop(&g->s);
}

/* The backlog as the window opens and at its half-way point: taken at
 * the first generation or delivery at or after each, before it counts. */
static void mark_window(struct gen *g, simtime now)
{
    if (g->backlog_warm < 0 && now >= g->t_warm)
        g->backlog_warm = (int64_t)g->backlog;
    if (g->backlog_mid < 0 && now >= g->t_mid)
        g->backlog_mid = (int64_t)g->backlog;
}

static void on_delivered(void *ctx, const struct packet *p, simtime now)
{
    struct gen *g = ctx;
    if (p->cls != PKT_REQ)
        return;
    if (!g->windowed) {
        assert(g->queued[p->src_nic] > 0);
        mark_window(g, now);
        g->queued[p->src_nic]--;
    }
    g->backlog--;
    if (now >= g->t_warm && now < g->t_end) {
        g->accepted++;
        g->accepted2 += now >= g->t_mid;
    }
    simtime t0 = net_pkt_cold(&g->n, p)->t_created;
    if (g->first[p->src_nic] == t0) { /* its NIC's first: the fill */
        g->first[p->src_nic] = FIRST_DONE;
        simtime *f = &g->fill_hops[p->hops < TRAFFIC_HOP_BINS
                                       ? p->hops
                                       : TRAFFIC_HOP_BINS - 1];
        if (now - t0 < *f)
            *f = now - t0;
    }
    if (t0 < g->t_warm || t0 >= g->t_end)
        return;
    traffic_hist_add(&g->hist, now - t0);
    g->hops[p->hops < TRAFFIC_HOP_BINS ? p->hops : TRAFFIC_HOP_BINS - 1]++;
    g->hops_sum += p->hops;
    g->nonmin += (p->flags & PKT_NONMIN) != 0;
    g->delivered++;
    if (g->windowed) {
        /* the deliveries' hashes summed: the same whatever the order
         * the partitions deliver in (traffic_win.c) */
        uint64_t h = traffic_fnv(FNV_OFFSET, now, 8);
        h = traffic_fnv(h, p->src_nic, 4);
        g->hash += traffic_fnv(h, p->dst_nic, 4);
        return; /* the window's end is the driver's */
    }
    g->hash = traffic_fnv(g->hash, now, 8);
    g->hash = traffic_fnv(g->hash, p->src_nic, 4);
    g->hash = traffic_fnv(g->hash, p->dst_nic, 4);
    if (now >= g->t_end && g->delivered == g->sent && g->generating)
        finish(g);
}

/* A windowed run: a NIC learns that its request arrived from the
 * response (the end-to-end acknowledgement), as it would across
 * partitions, and its queue shortens then. */
static void on_done(void *ctx, uint32_t m, const struct message *msg,
                    simtime now)
{
    struct gen *g = ctx;
    assert(g->queued[msg->src_nic] > 0);
    g->queued[msg->src_nic]--;
    (void)m;
    (void)now;
}

simtime tgen_interarrival(struct gen *g, uint32_t nic)
{
    return (simtime)(rng_exp(&g->rng[nic], g->mean_ps[nic]) + 0.5);
}

static void on_gen(struct sim *s, const struct event *e, void *ctx)
{
    struct gen *g = ctx;
    uint32_t nic = (uint32_t)e->arg;
    if (!g->generating)
        return;
    simtime now = s->now;
    const struct topo *t = g->t;
    uint32_t dst = traffic_dest(&g->td, t->nics[nic].node, &g->rng[nic]);
    if (dst != TRAFFIC_NONE) {
        bool measured = now >= g->t_warm && now < g->t_end;
        g->generated += measured;
        g->generated2 += measured && now >= g->t_mid;
        if (!g->windowed)
            mark_window(g, now);
        if (g->queued[nic] >= g->tp->max_queued) {
            g->refused++;
        } else {
            const struct topo_node *nd = &t->nodes[dst];
            uint32_t dnic = nd->nic[g->slot[nic] % nd->n_nics];
            if (net_send(&g->n, nic, dnic, NET_PUT, g->size, 0, 0) ==
                NET_NONE) {
                g->oom = true;
                sim_stop(s);
                return;
            }
            g->queued[nic]++;
            g->backlog++;
            if (!g->windowed && g->first[nic] == FIRST_NONE)
                g->first[nic] = now;
            g->sent += measured;
        }
    }
    sim_schedule(s, e->target, now + tgen_interarrival(g, nic), e->target, EV_GEN,
                 nic);
}

static void on_phase(struct sim *s, const struct event *e, void *ctx)
{
    struct gen *g = ctx;
    mark_window(g, s->now); /* nothing in the window, or in its half */
    g->backlog_end = (int64_t)g->backlog;
    if (g->delivered == g->sent && g->generating)
        finish(g);
}

static void on_watch(struct sim *s, const struct event *e, void *ctx)
{
    struct gen *g = ctx;
    if (net_in_flight(&g->n) == 0) {
        g->idle_at = s->now;
    } else {
        simtime since = g->n.st.last_delivery > g->idle_at
                            ? g->n.st.last_delivery
                            : g->idle_at;
        if (s->now - since >= g->watchdog) {
            g->deadlock = true;
            sim_stop(s);
            return;
        }
    }
    sim_schedule(s, e->target, s->now + g->tick, e->target, EV_WATCH, 0);
}

simtime traffic_us_to_ps(double us)
{
    return (simtime)llround(us * (double)SIMTIME_US);
}

int tgen_write_links(const char *path, const struct links *L,
                     const struct net *n, const struct link_counts *snap,
                     simtime interval, struct diag *d)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        diag_error(d, path, 0, "sampling.links", "cannot write: %s",
                   strerror(errno));
        return -1;
    }
    links_report(f, L, n, NULL, 0, snap, snap + L->n, interval);
    if (fclose(f) != 0) {
        diag_error(d, path, 0, "sampling.links", "write failed: %s",
                   strerror(errno));
        return -1;
    }
    return 0;
}

void tgen_free(struct gen *g, bool net_ok)
{
    sampler_free(&g->sm);
    if (net_ok)
        net_free(&g->n);
    sim_free(&g->s);
    traffic_dests_free(&g->td);
    traffic_hist_free(&g->hist);
    free(g->rng);
    free(g->mean_ps);
    free(g->queued);
    free(g->first);
    free(g->slot);
}

/* The parameters a run needs, checked; *size: the messages' bytes. 0, or
 * -1 reported. */
int tgen_check(const struct topo *t, const struct net_params *np,
                        const struct traffic_params *tp, int64_t *size,
                        struct diag *d)
{
    if (tp->pattern >= TRAFFIC_PATTERN_COUNT || !(tp->load > 0) ||
        !(tp->measure_us > 0) || !(tp->watchdog_us > 0) ||
        tp->warmup_us < 0 || tp->drain_us < 0 || tp->max_queued == 0) {
        diag_error(d, NULL, 0, "traffic",
                   "invalid parameters (pattern %d, load %g, measure_us %g, "
                   "watchdog_us %g)",
                   (int)tp->pattern, tp->load, tp->measure_us,
                   tp->watchdog_us);
        return -1;
    }
    *size = tp->size ? tp->size : (int64_t)np->max_payload;
    if (*size < 1 || *size > (int64_t)np->max_payload) {
        diag_error(d, NULL, 0, "traffic.size",
                   "%" PRId64 " bytes do not fit in one packet; expected 1 "
                   "to %u (network.max_payload), or 0 for a full packet",
                   *size, np->max_payload);
        return -1;
    }
    if (t->n_nics == 0) {
        diag_error(d, NULL, 0, "traffic", "the system has no NIC");
        return -1;
    }
    return 0;
}

/* The generator's arrays, its network (npc: counters kept when the
 * sampling or the links report reads them) and its event handlers; each
 * NIC's slot in its node. 0, or -1 reported (*net_ok: the network was
 * built, for gen_free). */
int tgen_setup(struct gen *g, const struct topo *t,
                     const struct traffic_params *tp,
                     const struct net_params *npc, uint64_t seed,
                     enum evq_impl impl, bool *net_ok, struct diag *d)
{
    if (traffic_dests_init(&g->td, t, tp, seed, d) != 0)
        return -1;
    g->rng = calloc(t->n_nics, sizeof *g->rng);
    g->mean_ps = calloc(t->n_nics, sizeof *g->mean_ps);
    g->queued = calloc(t->n_nics, sizeof *g->queued);
    g->first = malloc(t->n_nics * sizeof *g->first);
    g->slot = calloc(t->n_nics, sizeof *g->slot);
    if (!g->rng || !g->mean_ps || !g->queued || !g->first || !g->slot ||
        traffic_hist_init(&g->hist, HIST_BINS) != 0 ||
        sim_init(&g->s, impl, net_entities(t) + (g->sampling ? 1 : 0)) !=
            0) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    if (net_init_part(&g->n, t, npc, &g->s, seed,
                      g->windowed ? g->part_of : NULL, g->part, d) != 0)
        return -1;
    *net_ok = true;
    for (uint32_t i = 0; i < t->n_nics; i++)
        g->first[i] = FIRST_NONE;
    for (int h = 0; h < TRAFFIC_HOP_BINS; h++)
        g->fill_hops[h] = FIRST_NONE;
    g->n.hooks = (struct net_hooks){ .ctx = g, .delivered = on_delivered };
    if (g->windowed)
        g->n.hooks.msg_done = on_done;
    sim_on(&g->s, EV_GEN, on_gen, g);
    sim_on(&g->s, EV_PHASE, on_phase, g);
    sim_on(&g->s, EV_WATCH, on_watch, g);
    for (uint32_t i = 0; i < t->n_nodes; i++)
        for (uint32_t k = 0; k < t->nodes[i].n_nics; k++)
            g->slot[t->nodes[i].nic[k]] = (uint8_t)k;
    return 0;
}

/* Every NIC's first generation, then the window's end and the watchdog;
 * the rates of all NICs add up to load 1.0, the sum returned. */
/* A windowed run: when NIC nic sends its first request, from its own
 * stream as on_gen will draw it (a copy: the generation at each time,
 * until one has a destination), so that the destination's partition
 * knows which request is its NIC's first (the fill's latency,
 * traffic.h) without the source telling it. */
static simtime first_send(const struct gen *g, uint32_t nic)
{
    struct rng r = g->rng[nic];
    uint32_t node = g->t->nics[nic].node;
    simtime at = (simtime)(rng_exp(&r, g->mean_ps[nic]) + 0.5);
    while (traffic_dest(&g->td, node, &r) == TRAFFIC_NONE)
        at += (simtime)(rng_exp(&r, g->mean_ps[nic]) + 0.5);
    return at;
}

double tgen_first(struct gen *g, const struct topo *t,
                             const struct traffic_params *tp, uint64_t seed)
{
    uint32_t flits = net_req_flits(&g->n.p, NET_PUT, g->size);
    double rate_sum = 0;
    for (uint32_t nic = 0; nic < t->n_nics; nic++) {
        g->rng[nic] = rng_stream(seed, RNG_WORKLOAD, nic);
        if (g->td.vindex[t->nics[nic].node] == TRAFFIC_NONE)
            continue; /* not a node's NIC */
        double rate = net_nic_rate(&g->n, nic, flits);
        if (!(rate > 0))
            continue;
        rate_sum += rate;
        g->mean_ps[nic] = 1e12 / (tp->load * rate);
        if (g->windowed) {
            g->first[nic] = first_send(g, nic);
            if (g->n.xp->part_of[t->nics[nic].router] != g->part)
                continue; /* another partition's */
        }
        uint32_t ent = net_nic_entity(&g->n, nic);
        sim_schedule(&g->s, ent, tgen_interarrival(g, nic), ent, EV_GEN, nic);
    }
    if (g->windowed)
        return rate_sum; /* the window's end and the watchdog: the driver */
    g->ctl = net_nic_entity(&g->n, 0);
    sim_schedule(&g->s, g->ctl, g->t_end, g->ctl, EV_PHASE, 0);
    sim_schedule(&g->s, g->ctl, g->tick, g->ctl, EV_WATCH, 0);
    return rate_sum;
}

/* The run up to `horizon`, the sampler on if asked and, with a links
 * report, snapshots of the links' counters at the window's two ends into
 * *snap (run up to each instant, read, go on: splitting a run changes no
 * event). 0, or -1 reported. */
static int run_window(struct gen *g, const struct topo *t,
                      const struct traffic_params *tp, simtime horizon,
                      struct links *L, struct link_counts **snap,
                      struct diag *d)
{
    if (g->sampling) {
        /* the sampler creates its events as an entity of its own (the
         * one past the network's), so every other event keeps its key */
        struct sampler_params sp = tp->sampling;
        sp.until = horizon;
        if (sampler_init(&g->sm, &g->n, &g->s, EV_SAMPLE, net_entities(t),
                         &sp, d) != 0)
            return -1;
    }
    if (!tp->sampling.links_path) {
        run_shown(g, horizon, tp->progress);
        return 0;
    }
    if (links_build(L, t) != 0 ||
        !(*snap = calloc(2 * (size_t)L->n + 1, sizeof **snap))) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++) {
        ok = sim_run_before(&g->s, k ? g->t_end : g->t_warm);
        for (uint32_t i = 0; ok && i < L->n; i++)
            links_read(L, &g->n, i, &(*snap)[(size_t)k * L->n + i]);
    }
    if (ok)
        run_shown(g, horizon, tp->progress);
    return 0;
}

/* The window's figures into out (traffic.h), rate_sum the NICs' rates at
 * load 1.0. */
void tgen_figures(const struct gen *g, double rate_sum,
                           struct traffic_result *out)
{
    double window_s = time_to_seconds(g->t_end - g->t_warm);
    double capacity = rate_sum * window_s;
    out->generated = g->generated;
    out->offered = capacity > 0 ? (double)g->generated / capacity : 0;
    out->accepted = capacity > 0 ? (double)g->accepted / capacity : 0;
    out->packets = g->delivered;
    out->refused = g->refused;
    out->lat_mean_ns = traffic_hist_mean_ns(&g->hist);
    out->lat_median_ns = traffic_hist_quantile_ns(&g->hist, 0.5);
    out->lat_p99_ns = traffic_hist_quantile_ns(&g->hist, 0.99);
    out->lat_max_ns = (double)g->hist.max / (double)SIMTIME_NS;
    out->hops_mean = g->delivered ? (double)g->hops_sum / g->delivered : 0;
    memcpy(out->hops, g->hops, sizeof out->hops);
    out->frac_nonmin = g->delivered ? (double)g->nonmin / g->delivered : 0;
    out->events = g->s.events - g->sm.samples; /* the model's own */
    out->net_hops = g->n.st.hops;
    out->net_packets = g->n.st.delivered[PKT_REQ] + g->n.st.delivered[PKT_RSP];
    out->net_bytes = net_bytes(&g->n);
    out->end = g->s.now;
    out->drained = g->done;
    out->deadlock = g->deadlock;
    out->hash = g->hash;
    /* saturation (traffic.h): over the window's second half, the
     * shortfall and the source queues' growth against the generations
     * and their noise; a run stopped before the window closed (deadlock)
     * counts what was queued when it stopped, over the whole window */
    int64_t last = g->backlog_end >= 0 ? g->backlog_end
                                       : (int64_t)g->backlog;
    int64_t first = g->backlog_warm >= 0 ? g->backlog_warm : 0;
    int64_t grown = last - first;
    double gen = (double)g->generated;
    out->backlog = gen > 0 ? (double)grown / gen : 0.0;
    double acc = (double)g->accepted;
    if (g->backlog_end >= 0 && g->backlog_mid >= 0) {
        grown = last - g->backlog_mid;
        gen = (double)g->generated2;
        acc = (double)g->accepted2;
    }
    double tol = fmax(TRAFFIC_SAT_TOL * gen, 3.0 * sqrt(gen));
    simtime fill = 0;
    for (int h = 0; h < TRAFFIC_HOP_BINS; h++)
        if (g->fill_hops[h] != FIRST_NONE && g->fill_hops[h] > fill)
            fill = g->fill_hops[h];
    out->fill_ns = (double)fill / (double)SIMTIME_NS;
    /* sources start at 0: the judged half opens at t_mid, or at t_warm
     * for a run judged on its whole window */
    simtime opened = g->backlog_end >= 0 && g->backlog_mid >= 0 ? g->t_mid
                                                                : g->t_warm;
    out->steady = fill > 0 &&
                  (double)opened >= TRAFFIC_FILL_FACTOR * (double)fill;
    out->saturated = out->steady && gen > 0 &&
                     (gen - acc > tol || (double)grown > tol);
}

/* A drained run: stop generating, let the network empty, and check its
 * conservation invariants (every packet delivered once, credits back,
 * buffers empty). 0, SIM_INTERRUPTED, or -1 reported. */
static int drain_check(struct gen *g, const struct traffic_params *tp,
                       struct traffic_result *out, struct diag *d)
{
    if (!g->done || g->deadlock)
        return 0;
    g->generating = false;
    simtime limit = g->s.now + traffic_us_to_ps(tp->drain_us) + g->watchdog;
    simtime until = g->s.now;
    while ((net_in_flight(&g->n) || g->n.msg_live) && !g->deadlock &&
           until < limit) {
        until += g->tick;
        sim_run(&g->s, until);
    }
    out->deadlock = g->deadlock;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    if (!net_in_flight(&g->n) && !g->n.msg_live &&
        net_check_drained(&g->n, d) != 0)
        return -1;
    return 0;
}

void tgen_init(struct gen *g, const struct topo *t,
               const struct traffic_params *tp, uint32_t size)
{
    g->t = t;
    g->tp = tp;
    g->size = size;
    g->hash = FNV_OFFSET;
    g->t_warm = traffic_us_to_ps(tp->warmup_us);
    g->t_end = g->t_warm + traffic_us_to_ps(tp->measure_us);
    g->t_mid = g->t_warm + (g->t_end - g->t_warm) / 2;
    g->watchdog = traffic_us_to_ps(tp->watchdog_us);
    g->tick = g->watchdog / 4 ? g->watchdog / 4 : 1;
    g->generating = true;
    g->backlog_warm = g->backlog_mid = g->backlog_end = -1;
    g->sampling = sampler_enabled(&tp->sampling);
}

int traffic_run(const struct topo *t, const struct net_params *np,
                const struct traffic_params *tp, uint64_t seed,
                enum evq_impl impl, struct traffic_result *out,
                struct diag *d)
{
    if (tp->partitions)
        return traffic_run_windowed(t, np, tp, seed, impl, out, d);
    memset(out, 0, sizeof *out);
    int64_t size;
    if (tgen_check(t, np, tp, &size, d) != 0)
        return -1;
    struct gen *g = calloc(1, sizeof *g);
    if (!g) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    tgen_init(g, t, tp, (uint32_t)size);
    bool links = tp->sampling.links_path != NULL;
    /* sampling and the links report read the counters; keeping them
     * changes nothing else (net/counters.h) */
    struct net_params npc = *np;
    npc.counters = npc.counters || g->sampling || links;
    struct links L = { 0 };
    struct link_counts *snap = NULL; /* [2 * L.n]: at t_warm, at t_end */
    int rc = -1;
    bool net_ok = false;
    if (tgen_setup(g, t, tp, &npc, seed, impl, &net_ok, d) != 0)
        goto out;
    double rate_sum = tgen_first(g, t, tp, seed);
    simtime horizon = g->t_end + traffic_us_to_ps(tp->drain_us);
    if (run_window(g, t, tp, horizon, &L, &snap, d) != 0)
        goto out;
    if (sim_interrupt) {
        rc = SIM_INTERRUPTED; /* nothing of the run is kept */
        goto out;
    }
    if (g->oom || sim_failed(&g->s)) {
        diag_error(d, NULL, 0, "traffic",
                   "out of memory for %" PRIu64 " packets in flight",
                   net_in_flight(&g->n));
        goto out;
    }
    tgen_figures(g, rate_sum, out);
    int drc = drain_check(g, tp, out, d);
    if (drc != 0) {
        rc = drc;
        goto out;
    }
    out->samples = g->sm.samples;
    if (g->sampling && sampler_status(&g->sm, d) != 0)
        goto out;
    if (links && !g->deadlock &&
        tgen_write_links(tp->sampling.links_path, &L, &g->n, snap,
                         g->t_end - g->t_warm, d) != 0)
        goto out;
    rc = 0;
out:
    links_free(&L);
    free(snap);
    tgen_free(g, net_ok);
    free(g);
    return rc;
}

