/* exp/traffic_win.c — a synthetic-traffic run in windows, dealt over P
 * partitions (issue 54; traffic_params.partitions).
 *
 * Each partition is a generator of its own (struct gen, exp/traffic_internal.h)
 * with the whole network built and its part run: its routers, their
 * NICs, the generations of those NICs (net/xpart.h). The units dealt are
 * a dragonfly's groups or a torus's planes across one dimension, the
 * same for every P (cut_dimension). Time goes in windows on a grid of W,
 * the least wire latency of a link between two units (every event that
 * crosses a cut is at least that late: net/partition.h), cut also at the
 * instants the run reads the machine
 * as a whole: the window's opening, half-way point and end, the
 * watchdog's ticks and the horizon. At each window's end the partitions
 * exchange what crossed (exp/xchange.h) and sum the figures the rules
 * below read. The rules of a windowed run, the same for one partition
 * and for many (so P = 1 is the reference; they differ from the classic
 * one-process run, exp/traffic_sim.c, as docs/parallel-inventory.md
 * predicted):
 *  - credit returns over links between units are written at the
 *    window's end, the event they may need keyed by the router that made
 *    them (net/xpart.h): ties at one instant may order differently
 *    (inventory N2);
 *  - a NIC's queue of messages (max_queued) shortens when the response
 *    comes back, not when the request arrives (T1): refusals differ at
 *    saturation only;
 *  - the backlog is read at the instants t_warm, t_mid and t_end, before
 *    their events (T5, T6: the classic run reads it at the first
 *    generation or delivery at or after them; at t_end, after the events
 *    of that instant made before the window's end);
 *  - the run stops at the first window's end at or after t_end at which
 *    every measured request has arrived (T4), and the watchdog looks at
 *    its ticks (T7): `end` is that window's end, `events` counts the
 *    model's events without the classic run's window-end and watchdog
 *    events;
 *  - the deliveries' hash is a sum of one hash per delivery, the same
 *    whatever order partitions deliver in (T3).
 * Counter sampling and the links report (S1, T9) read a view of the whole
 * machine's counters (net/xview.h) at their instants, which cut the
 * windows: a sample every interval up to the horizon (taken at the
 * window's end, before the instant's own events: the classic sampler's
 * events come after them), the links at t_warm and t_end (as the
 * classic run reads them: before those instants' events). Every process
 * refreshes the view; the first samples and writes.
 * A NIC's first request (the fill's latency, traffic.h) is known to
 * every partition from the NIC's own stream (traffic_sim.c first_send). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/time.h"
#include "exp/traffic_internal.h"
#include "exp/xchange.h"
#include "net/links.h"
#include "net/partition.h"
#include "net/xpart.h"
#include "net/xview.h"

struct tw {
    struct xchange x;
    FILE *progress;          /* the progress lines (rank 0's), or NULL */
    double t0, shown;        /* wall: the run's start, the last line */
    simtime shown_at;        /* simulated: at the last line */
    struct partition pt;
    struct gen **g;          /* [x.k]: this process's partitions */
    struct net **nets;       /* [x.k]: their networks */
    int dim;                 /* a torus: the dimension cut (every P), -1
                                    on a dragonfly */
    simtime W;               /* the window */
    simtime at;              /* the last window's end */
    simtime idle_at;         /* the watchdog's last look with nothing in
                                flight */
    /* the counters (S1, T9): the view every process refreshes at their
     * instants; the sampler, driven, on the first process (sm_on) */
    struct net_view view;
    struct sampler sm;
    bool sampling, sm_on;
    simtime sample_next, sample_every, sample_until;
    uint64_t samples;        /* taken: every process counts them */
    struct links L;
    struct link_counts *snap; /* [2 * L.n]: the links at t_warm, t_end;
                                 NULL without a links report */
    uint32_t snaps;          /* snapshots taken */
};

/* The sums the rules read at a window's end. */
enum { S_DELIVERED, S_SENT, S_FLIGHT, S_MSGS, S_BACKLOG, S_BAD, S_INTR,
       S_COUNT };

/* Run every local partition to the window's end `to`, exchange, and sum:
 * v[S_*], *last the latest delivery. */
static void window(struct tw *w, simtime to, uint64_t *v, simtime *last)
{
    memset(v, 0, S_COUNT * sizeof *v);
    uint64_t m[1] = { UINT64_MAX };
    double t0 = time_wall_seconds();
    for (uint32_t i = 0; i < w->x.k; i++) {
        struct gen *g = w->g[i];
        if (!sim_run_before(&g->s, to))
            v[sim_interrupt && !sim_failed(&g->s) && !g->oom ? S_INTR
                                                             : S_BAD] = 1;
        if (g->oom || g->n.xp->oom || sim_failed(&g->s))
            v[S_BAD] = 1;
    }
    w->x.compute_s += time_wall_seconds() - t0;
    if (xchange_boxes(&w->x, w->nets) != 0)
        v[S_BAD] = 1;
    for (uint32_t i = 0; i < w->x.k; i++) {
        const struct gen *g = w->g[i];
        v[S_DELIVERED] += g->delivered;
        v[S_SENT] += g->sent;
        v[S_FLIGHT] += net_in_flight(&g->n);
        v[S_MSGS] += g->n.msg_live;
        v[S_BACKLOG] += g->backlog; /* modulo 2^64: a partition's part
                                       can be "negative" */
        if (UINT64_MAX - g->n.st.last_delivery < m[0])
            m[0] = UINT64_MAX - g->n.st.last_delivery;
    }
    xchange_reduce(&w->x, v, S_COUNT, m, 1);
    *last = UINT64_MAX - m[0];
    w->at = to;
    /* exact ticks (N8, C1), a machine-wide one's input summed (C2) */
    if (net_xp_next_tick(w->nets[0]) == to)
        net_cc_take_ticks_split(w->nets, w->x.k, to, xchange_sum1, &w->x);
}

/* A progress line every 2 s of wall time (traffic_sim.c's run_shown's),
 * toward `horizon`. */
static void show(struct tw *w, simtime horizon)
{
    if (!w->progress)
        return;
    double now = time_wall_seconds();
    if (now - w->shown < 2.0)
        return;
    struct traffic_eta eta = {
        .from = 0, .now = w->at, .t_end = w->g[0]->t_end,
        .horizon = horizon, .wall = now - w->t0,
        .recent_sim = w->at - w->shown_at, .recent_wall = now - w->shown };
    tgen_show(w->progress, &eta);
    w->shown = now;
    w->shown_at = w->at;
}

/* The next window's end after w->at: the grid's, or an instant the rules
 * read at, or the horizon. */
static simtime next_end(const struct tw *w, const struct gen *g,
                        simtime horizon)
{
    simtime at = w->at, b = (at / w->W + 1) * w->W;
    simtime tick = (at / g->tick + 1) * g->tick;
    const simtime cut[] = { g->t_warm, g->t_mid, g->t_end, tick, horizon,
                            net_xp_next_tick(w->nets[0]),
                            w->sampling ? w->sample_next : SIMTIME_MAX };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++)
        if (cut[i] > at && cut[i] < b)
            b = cut[i];
    return b;
}

static void view_pack(void *ctx, uint32_t i, struct pack *p)
{
    const struct tw *w = ctx;
    net_view_pack(w->nets[i], p);
}

static int view_add(void *ctx, uint32_t part, struct unpack *u)
{
    struct tw *w = ctx;
    return net_view_add(&w->view, part, u);
}

/* The counters' instants at w->at (S1, T9): the view refreshed on every
 * process, then a sample (the first process's sampler) and the links'
 * snapshot. 0, or -1 out of memory or malformed. */
static int observe(struct tw *w)
{
    const struct gen *g = w->g[0];
    bool sample = w->sampling && w->at == w->sample_next;
    int k = !w->snap                 ? -1
            : w->at == g->t_warm     ? 0
            : w->at == g->t_end      ? 1
                                     : -1;
    if (!sample && k < 0)
        return 0;
    net_view_at(&w->view, w->at);
    if (xchange_spread(&w->x, true, w, view_pack, view_add) != 0)
        return -1;
    if (k >= 0) {
        for (uint32_t i = 0; i < w->L.n; i++)
            links_read(&w->L, &w->view.n, i,
                       &w->snap[(size_t)k * w->L.n + i]);
        w->snaps++;
    }
    if (sample) {
        if (w->sm_on)
            sampler_sample_now(&w->sm);
        w->samples++;
        simtime next = w->sample_next + w->sample_every;
        w->sample_next = next < w->sample_until ? next : SIMTIME_MAX;
    }
    return 0;
}

/* The watchdog at a tick (on_watch's rule): 1 when it finds a deadlock. */
static int watch(struct tw *w, const struct gen *g, const uint64_t *v,
                 simtime last)
{
    if (w->at % g->tick)
        return 0;
    if (v[S_FLIGHT] == 0) {
        w->idle_at = w->at;
        return 0;
    }
    simtime since = last > w->idle_at ? last : w->idle_at;
    return w->at - since >= g->watchdog;
}

/* Windows up to the horizon, or until every measured request has
 * arrived (done), a deadlock or a failure. 0, -1 failed, or
 * SIM_INTERRUPTED. */
static int run_main(struct tw *w, simtime horizon, bool *done,
                    bool *deadlock)
{
    struct gen *g = w->g[0];
    uint64_t v[S_COUNT];
    simtime last;
    while (w->at < horizon) {
        window(w, next_end(w, g, horizon), v, &last);
        if (v[S_BAD] || observe(w) != 0)
            return -1;
        if (v[S_INTR])
            return SIM_INTERRUPTED;
        int64_t backlog = (int64_t)v[S_BACKLOG];
        for (uint32_t i = 0; i < w->x.k; i++) {
            struct gen *gi = w->g[i];
            if (w->at == g->t_warm)
                gi->backlog_warm = backlog;
            if (w->at == g->t_mid)
                gi->backlog_mid = backlog;
            if (w->at == g->t_end)
                gi->backlog_end = backlog;
        }
        if (watch(w, g, v, last)) {
            *deadlock = true;
            return 0;
        }
        if (w->at >= g->t_end && v[S_DELIVERED] == v[S_SENT]) {
            *done = true;
            return 0;
        }
        show(w, horizon);
    }
    return 0;
}

/* After a drained window: no more generation, windows until the network
 * is empty (or the watchdog or the limit), and the invariants, each
 * partition its own and the sums here. 0, -1 reported, SIM_INTERRUPTED. */
static int drain(struct tw *w, const struct traffic_params *tp,
                 bool *deadlock, struct diag *d)
{
    struct gen *g = w->g[0];
    for (uint32_t i = 0; i < w->x.k; i++)
        w->g[i]->generating = false;
    simtime limit = w->at + traffic_us_to_ps(tp->drain_us) + g->watchdog;
    uint64_t v[S_COUNT] = { 0 };
    simtime last;
    v[S_FLIGHT] = 1;
    while ((v[S_FLIGHT] || v[S_MSGS]) && w->at < limit) {
        window(w, next_end(w, g, limit), v, &last);
        if (v[S_BAD] || observe(w) != 0)
            return -1;
        if (v[S_INTR])
            return SIM_INTERRUPTED;
        if (watch(w, g, v, last)) {
            *deadlock = true;
            return 0;
        }
        show(w, limit);
    }
    if (v[S_FLIGHT] || v[S_MSGS])
        return 0; /* not empty by the limit: as the classic run, unchecked */
    uint64_t st[5] = { 0 };
    int rc = 0;
    for (uint32_t i = 0; i < w->x.k; i++) {
        const struct net_stats *s = &w->g[i]->n.st;
        st[0] += s->injected[PKT_REQ];
        st[1] += s->delivered[PKT_REQ];
        st[2] += s->injected[PKT_RSP];
        st[3] += s->delivered[PKT_RSP];
        if (net_check_drained(&w->g[i]->n, d) != 0)
            st[4] = 1;
    }
    xchange_reduce(&w->x, st, 5, NULL, 0);
    if (st[4]) {
        if (d->errors == 0) /* another process's partition failed it */
            diag_error(d, NULL, 0, "conservation",
                       "another partition's network did not drain");
        rc = -1;
    }
    if (st[0] != st[1] || st[2] != st[3] || st[1] != st[3]) {
        diag_error(d, NULL, 0, "conservation",
                   "%" PRIu64 " requests injected, %" PRIu64 " delivered; "
                   "%" PRIu64 " responses injected, %" PRIu64 " delivered",
                   st[0], st[1], st[2], st[3]);
        rc = -1;
    }
    return rc;
}

/* The figures of the whole run, as of its stop, into *acc: a copy of the
 * first local partition's generator with every partition's counts added
 * (its histogram its own). 0, or -1 out of memory. */
static int merge(struct tw *w, struct gen *acc)
{
    const struct gen *g0 = w->g[0];
    *acc = *g0;
    acc->hist.bins = calloc(g0->hist.n_bins, sizeof *acc->hist.bins);
    if (!acc->hist.bins)
        return -1;
    enum { B = TRAFFIC_HOP_BINS, N = 17 + B };
    uint64_t v[N] = { 0 }, m[B + 1];
    for (int h = 0; h < B; h++)
        m[h] = UINT64_MAX;
    m[B] = UINT64_MAX;
    for (uint32_t i = 0; i < w->x.k; i++) {
        const struct gen *g = w->g[i];
        const uint64_t add[17] = {
            g->generated, g->generated2, g->sent, g->delivered,
            g->accepted, g->accepted2, g->refused, g->hops_sum, g->nonmin,
            g->hash, g->s.events, g->n.st.hops, g->n.st.delivered[PKT_REQ],
            g->n.st.delivered[PKT_RSP], g->hist.count, g->hist.overflow,
            g->hist.sum_ps };
        for (int k = 0; k < 17; k++)
            v[k] += add[k];
        for (int h = 0; h < B; h++) {
            v[17 + h] += g->hops[h];
            if (g->fill_hops[h] < m[h])
                m[h] = g->fill_hops[h];
        }
        if (UINT64_MAX - g->hist.max < m[B])
            m[B] = UINT64_MAX - g->hist.max;
        for (uint32_t b = 0; b < g->hist.n_bins; b++)
            acc->hist.bins[b] += g->hist.bins[b];
    }
    xchange_reduce(&w->x, v, N, m, B + 1);
    xchange_sum32(&w->x, acc->hist.bins, acc->hist.n_bins);
    uint64_t *const to[17] = {
        &acc->generated, &acc->generated2, &acc->sent, &acc->delivered,
        &acc->accepted, &acc->accepted2, &acc->refused, &acc->hops_sum,
        &acc->nonmin, &acc->hash, &acc->s.events, &acc->n.st.hops,
        &acc->n.st.delivered[PKT_REQ], &acc->n.st.delivered[PKT_RSP],
        &acc->hist.count, &acc->hist.overflow, &acc->hist.sum_ps };
    for (int k = 0; k < 17; k++)
        *to[k] = v[k];
    for (int h = 0; h < B; h++) {
        acc->hops[h] = v[17 + h];
        acc->fill_hops[h] = m[h];
    }
    acc->hist.max = UINT64_MAX - m[B];
    acc->s.now = w->at;
    acc->sm.samples = 0;
    return 0;
}

/* The local partitions' generators, their networks split. 0, or -1
 * reported. */
static int setup(struct tw *w, const struct topo *t,
                 const struct net_params *np,
                 const struct traffic_params *tp, uint32_t size,
                 uint64_t seed, enum evq_impl impl, double *rate_sum,
                 struct diag *d)
{
    w->g = calloc(w->x.k, sizeof *w->g);
    w->nets = calloc(w->x.k, sizeof *w->nets);
    if (!w->g || !w->nets) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < w->x.k; i++) {
        struct gen *g = w->g[i] = calloc(1, sizeof *g);
        if (!g) {
            diag_error(d, NULL, 0, "traffic", "out of memory");
            return -1;
        }
        tgen_init(g, t, tp, size);
        g->windowed = true;
        g->hash = 0; /* a sum over the partitions (on_delivered) */
        g->part = w->x.lo + i;
        g->part_of = w->pt.router_part;
        bool net_ok = false;
        int rc = tgen_setup(g, t, tp, np, seed, impl, &net_ok, d);
        if (net_ok) /* teardown frees it */
            w->nets[i] = &g->n;
        if (rc != 0)
            return -1;
        if (net_xp_init(&g->n, w->pt.router_part, w->x.P, g->part, w->dim,
                        d) != 0)
            return -1;
        *rate_sum = tgen_first(g, t, tp, seed);
    }
    return 0;
}

static void teardown(struct tw *w)
{
    for (uint32_t i = 0; w->g && i < w->x.k; i++) {
        if (!w->g[i])
            continue;
        tgen_free(w->g[i], w->nets[i] != NULL);
        free(w->g[i]);
    }
    free(w->g);
    free(w->nets);
    sampler_free(&w->sm);
    if (w->view.ok)
        net_view_free(&w->view);
    links_free(&w->L);
    free(w->snap);
    partition_free(&w->pt);
    xchange_free(&w->x);
}

/* The counters' set-up (S1, T9) once the partitions are: the view, the
 * first process's sampler (driven, on the view, up to the horizon) and
 * the links' snapshots. 0, or -1 reported. */
static int counters_setup(struct tw *w, const struct topo *t,
                          const struct traffic_params *tp, simtime horizon,
                          struct diag *d)
{
    w->sampling = sampler_enabled(&tp->sampling);
    w->sample_next = SIMTIME_MAX;
    if (!w->sampling && !tp->sampling.links_path)
        return 0;
    if (net_view_init(&w->view, w->nets[0]) != 0) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    if (w->sampling) {
        w->sample_every = tp->sampling.interval;
        w->sample_until = horizon;
        if (w->sample_every < horizon)
            w->sample_next = w->sample_every;
        struct sampler_params sp = tp->sampling;
        sp.until = horizon;
        sp.driven = true;
        if (w->x.lo == 0) { /* the first process writes the samples */
            if (sampler_init(&w->sm, &w->view.n, &w->view.s, 0, 0, &sp,
                             d) != 0)
                return -1;
            w->sm_on = true;
        }
    }
    if (tp->sampling.links_path &&
        (links_build(&w->L, t) != 0 ||
         !(w->snap = calloc(2 * (size_t)w->L.n + 1, sizeof *w->snap)))) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    return 0;
}

int traffic_run_windowed(const struct topo *t, const struct net_params *np,
                         const struct traffic_params *tp, uint64_t seed,
                         enum evq_impl impl, struct traffic_result *out,
                         struct diag *d)
{
    memset(out, 0, sizeof *out);
    int64_t size;
    if (tgen_check(t, np, tp, &size, d) != 0)
        return -1;
    /* sampling and the links report read the counters; keeping them
     * changes nothing else (net/counters.h) */
    struct net_params npc = *np;
    npc.counters = npc.counters || sampler_enabled(&tp->sampling) ||
                   tp->sampling.links_path;
    struct tw w = { 0 };
    int rc = -1;
    double rate_sum = 0;
    if (xchange_init(&w.x, tp->partitions, tp->procs, d) != 0)
        return -1;
    w.dim = partition_cut_dim(t, np, d);
    if (w.dim == -2 ||
        partition_make_dim(t, np, tp->partitions, w.dim, NULL, &w.pt, d) != 0)
        goto out;
    w.W = partition_window(t, w.dim);
    w.progress = tp->progress;
    w.t0 = w.shown = time_wall_seconds();
    if (setup(&w, t, &npc, tp, (uint32_t)size, seed, impl, &rate_sum, d) !=
        0)
        goto out;
    const struct gen *g = w.g[0];
    bool done = false, deadlock = false;
    simtime horizon = g->t_end + traffic_us_to_ps(tp->drain_us);
    if (counters_setup(&w, t, tp, horizon, d) != 0)
        goto out;
    rc = run_main(&w, horizon, &done, &deadlock);
    if (rc != 0) {
        if (rc == -1)
            diag_error(d, NULL, 0, "traffic",
                       "out of memory in a windowed run");
        goto out;
    }
    struct gen acc;
    if (merge(&w, &acc) != 0) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        rc = -1;
        goto out;
    }
    acc.done = done;
    acc.deadlock = deadlock;
    tgen_figures(&acc, rate_sum, out);
    free(acc.hist.bins);
    if (done && !deadlock)
        rc = drain(&w, tp, &out->deadlock, d);
    out->samples = w.samples;
    if (rc == 0 && w.sm_on && sampler_status(&w.sm, d) != 0)
        rc = -1;
    if (rc == 0 && w.snaps == 2 && !deadlock && !out->deadlock &&
        w.x.lo == 0 &&
        tgen_write_links(tp->sampling.links_path, &w.L, &w.view.n, w.snap,
                         g->t_end - g->t_warm, d) != 0)
        rc = -1;
    out->partitions = tp->partitions;
    uint64_t xs[4] = { w.x.windows, w.x.pkts, w.x.crs, w.x.bytes };
    xchange_reduce(&w.x, xs + 1, 3, NULL, 0); /* windows: the same */
    out->xwindows = xs[0];
    out->xpackets = xs[1];
    out->xcredits = xs[2];
    out->xbytes = xs[3];
    xchange_times(&w.x, &out->xcompute_max_s, &out->xcompute_mean_s,
                  &out->xexchange_s);
out:
    teardown(&w);
    return rc;
}
