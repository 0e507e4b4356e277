/* exp/traffic.c — synthetic traffic (see traffic.h for what is modelled).
 *
 * One run is one struct sim with the network model on it and three event
 * types of our own: a generation at a NIC (created by and for that NIC's
 * entity, so each NIC's stream of events is its own), the end of the
 * measurement window and the watchdog tick (both kept by NIC 0's entity).
 * Everything the run measures is updated in the network's `delivered`
 * hook, in delivery order, from flat arrays sized at the start. With
 * counter sampling on, a fourth type belongs to the sampler, created by
 * one more entity past the network's (exp/sampler.h); it only reads.
 */
#include "exp/traffic.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/time.h"
#include "net/links.h"
#include "route/route.h"

const char *const traffic_pattern_names[] = {
    [TRAFFIC_UNIFORM] = "uniform",
    [TRAFFIC_PERMUTATION] = "permutation",
    [TRAFFIC_NEAREST_GROUP] = "nearest-group",
    [TRAFFIC_WORST_CASE] = "worst-case",
    [TRAFFIC_BIT_COMPLEMENT] = "bit-complement",
    [TRAFFIC_HOTSPOT] = "hotspot",
    [TRAFFIC_PATTERN_COUNT] = NULL,
};

int traffic_pattern_find(const char *name)
{
    for (int i = 0; name && i < TRAFFIC_PATTERN_COUNT; i++)
        if (strcmp(traffic_pattern_names[i], name) == 0)
            return i;
    return -1;
}

const struct cfg_key traffic_keys[] = {
    { .name = "pattern", .type = CFG_CHOICE,
      .offset = offsetof(struct traffic_sweep, pattern),
      .choices = traffic_pattern_names,
      .help = "destination pattern (uniform)" },
    { .name = "loads", .type = CFG_FLOATS,
      .offset = offsetof(struct traffic_sweep, loads), .fmin = 0.001,
      .fmax = 1,
      .help = "offered loads, fractions of each NIC's injection rate; one "
              "run per load and routing ([0.5])",
      .once = "load" },
    { .name = "routings", .type = CFG_NAMES,
      .offset = offsetof(struct traffic_sweep, routings),
      .reg = &routing_registry,
      .help = "routings to compare, one run per routing and load (the "
              "network section's routing)",
      .once = "routing" },
    { .name = "size", .type = CFG_INT,
      .offset = offsetof(struct traffic_sweep, p.size), .min = 0,
      .max = 65535,
      .help = "bytes per message, at most one packet; 0 = a full packet "
              "(network.max_payload) (0)" },
    { .name = "warmup_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.warmup_us), .fmin = 0,
      .fmax = 1e6, .help = "simulated us before measuring (5)" },
    { .name = "measure_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.measure_us), .fmin = 0.001,
      .fmax = 1e6,
      .help = "measurement window, us: its packets are measured (10)" },
    { .name = "drain_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.drain_us), .fmin = 0,
      .fmax = 1e6,
      .help = "most us after the window to wait for the measured packets; "
              "past it the run is not drained (saturated) (20)" },
    { .name = "watchdog_us", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.watchdog_us), .fmin = 0.01,
      .fmax = 1e6,
      .help = "no delivery for this long with packets in flight is a "
              "deadlock, us (20)" },
    { .name = "hotspot_node", .type = CFG_UINT32,
      .offset = offsetof(struct traffic_sweep, p.hotspot_node),
      .help = "hotspot pattern: the node messages converge on (0)" },
    { .name = "hotspot_fraction", .type = CFG_FLOAT,
      .offset = offsetof(struct traffic_sweep, p.hotspot_fraction),
      .fmin = 0, .fmax = 1,
      .help = "hotspot pattern: share of messages sent to it, the rest "
              "uniform; 1 = incast (0.5)" },
    { .name = "max_queued", .type = CFG_UINT32,
      .offset = offsetof(struct traffic_sweep, p.max_queued), .min = 1,
      .max = 1 << 20,
      .help = "per NIC, messages whose request has not arrived; a "
              "generation above it is refused (1024)" },
    { .name = NULL },
};

void traffic_defaults(struct traffic_params *p)
{
    *p = (struct traffic_params){
        .pattern = TRAFFIC_UNIFORM,
        .load = 0.5,
        .size = 0,
        .warmup_us = 5,
        .measure_us = 10,
        .drain_us = 20,
        .watchdog_us = 20,
        .hotspot_node = 0,
        .hotspot_fraction = 0.5,
        .max_queued = 1024,
    };
}

void traffic_sweep_defaults(struct traffic_sweep *s)
{
    memset(s, 0, sizeof *s);
    traffic_defaults(&s->p);
    s->pattern = traffic_pattern_names[s->p.pattern];
    s->loads.n = 1;
    s->loads.v[0] = s->p.load;
}

/* ---- destinations ----------------------------------------------------- */

void traffic_dests_free(struct traffic_dests *td)
{
    free(td->valid);
    free(td->vindex);
    free(td->perm);
    free(td->group_start);
    free(td->group_members);
    free(td->group_pos);
    free(td->vgroup);
    memset(td, 0, sizeof *td);
}

int traffic_dests_init(struct traffic_dests *td, const struct topo *t,
                       const struct traffic_params *p, uint64_t seed,
                       struct diag *d)
{
    memset(td, 0, sizeof *td);
    td->t = t;
    td->pattern = p->pattern;
    td->hotspot_fraction = p->hotspot_fraction;
    uint32_t G = t->n_groups ? t->n_groups : 1;
    td->valid = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->valid);
    td->vindex = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->vindex);
    td->perm = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->perm);
    td->group_start = calloc((size_t)G + 1, sizeof *td->group_start);
    td->group_members = calloc(t->n_nodes ? t->n_nodes : 1,
                               sizeof *td->group_members);
    td->group_pos = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->group_pos);
    td->vgroup = calloc(t->n_nodes ? t->n_nodes : 1, sizeof *td->vgroup);
    if (!td->valid || !td->vindex || !td->perm || !td->group_start ||
        !td->group_members || !td->group_pos || !td->vgroup) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        traffic_dests_free(td);
        return -1;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        td->vindex[i] = TRAFFIC_NONE;
        const struct topo_node *nd = &t->nodes[i];
        if (nd->n_nics == 0)
            continue;
        uint32_t g = t->routers[t->nics[nd->nic[0]].router].group;
        td->vindex[i] = td->n_valid;
        td->vgroup[td->n_valid] = g < G ? g : 0;
        td->valid[td->n_valid++] = i;
    }
    uint32_t V = td->n_valid;
    if (V < 2) {
        diag_error(d, NULL, 0, "traffic",
                   "the system has %u node%s with a NIC; synthetic traffic "
                   "needs two",
                   V, V == 1 ? "" : "s");
        traffic_dests_free(td);
        return -1;
    }

    /* valid nodes by group (counting sort keeps them ascending) */
    for (uint32_t v = 0; v < V; v++)
        td->group_start[td->vgroup[v] + 1]++;
    for (uint32_t g = 0; g < G; g++)
        td->group_start[g + 1] += td->group_start[g];
    {
        uint32_t *cursor = calloc(G, sizeof *cursor);
        if (!cursor) {
            diag_error(d, NULL, 0, "traffic", "out of memory");
            traffic_dests_free(td);
            return -1;
        }
        for (uint32_t v = 0; v < V; v++) {
            uint32_t g = td->vgroup[v];
            td->group_pos[v] = cursor[g];
            td->group_members[td->group_start[g] + cursor[g]++] = v;
        }
        free(cursor);
    }

    /* a random derangement: shuffle, then swap each fixed point with its
     * neighbour (position i then holds what i+1 held, never i, and i+1
     * holds i; a permutation stays a permutation) */
    for (uint32_t v = 0; v < V; v++)
        td->perm[v] = v;
    struct rng r = rng_stream(seed, RNG_ALLOC, 0);
    rng_shuffle_u32(&r, td->perm, V);
    for (uint32_t v = 0; v < V; v++) {
        if (td->perm[v] != v)
            continue;
        uint32_t w = (v + 1) % V;
        td->perm[v] = td->perm[w];
        td->perm[w] = v;
    }

    td->hotspot = TRAFFIC_NONE;
    if (p->pattern == TRAFFIC_HOTSPOT) {
        if (p->hotspot_node >= t->n_nodes ||
            td->vindex[p->hotspot_node] == TRAFFIC_NONE) {
            diag_error(d, NULL, 0, "traffic.hotspot_node",
                       p->hotspot_node >= t->n_nodes
                           ? "node %u does not exist; the system has %u "
                             "nodes (0 .. %u)"
                           : "node %u has no NIC (the system has %u nodes, "
                             "last %u)",
                       p->hotspot_node, t->n_nodes,
                       t->n_nodes ? t->n_nodes - 1 : 0);
            traffic_dests_free(td);
            return -1;
        }
        td->hotspot = td->vindex[p->hotspot_node];
    }
    return 0;
}

/* A uniformly random valid index other than `self`. */
static uint32_t other_than(uint32_t n, uint32_t self, struct rng *r)
{
    uint32_t j = rng_below(r, n - 1);
    return j >= self ? j + 1 : j;
}

uint32_t traffic_dest(const struct traffic_dests *td, uint32_t src,
                      struct rng *r)
{
    uint32_t V = td->n_valid;
    uint32_t s = td->vindex[src];
    assert(s != TRAFFIC_NONE && V >= 2);
    uint32_t G = td->t->n_groups ? td->t->n_groups : 1;
    uint32_t v = TRAFFIC_NONE;
    switch (td->pattern) {
    case TRAFFIC_UNIFORM:
        v = other_than(V, s, r);
        break;
    case TRAFFIC_PERMUTATION:
        v = td->perm[s];
        break;
    case TRAFFIC_NEAREST_GROUP: {
        uint32_t g = td->vgroup[s];
        uint32_t first = td->group_start[g];
        uint32_t n = td->group_start[g + 1] - first;
        if (n >= 2)
            v = td->group_members[first + other_than(n, td->group_pos[s], r)];
        else
            v = other_than(V, s, r); /* alone in its group */
        break;
    }
    case TRAFFIC_WORST_CASE: {
        uint32_t g = td->vgroup[s];
        v = TRAFFIC_NONE;
        /* the next group that has nodes (all of them do but in partial
         * systems) */
        for (uint32_t k = 1; k < G && v == TRAFFIC_NONE; k++) {
            uint32_t h = (g + k) % G;
            uint32_t first = td->group_start[h];
            uint32_t n = td->group_start[h + 1] - first;
            if (n)
                v = td->group_members[first + rng_below(r, n)];
        }
        if (v == TRAFFIC_NONE)
            v = other_than(V, s, r); /* one group */
        break;
    }
    case TRAFFIC_BIT_COMPLEMENT:
        v = V - 1 - s;
        if (v == s)
            return TRAFFIC_NONE;
        break;
    case TRAFFIC_HOTSPOT: {
        double u = rng_unit(r);
        if (u < td->hotspot_fraction && s != td->hotspot)
            v = td->hotspot;
        else
            v = other_than(V, s, r);
        break;
    }
    case TRAFFIC_PATTERN_COUNT:
        return TRAFFIC_NONE;
    }
    assert(v < V && v != s);
    return td->valid[v];
}

/* ---- latency histogram ------------------------------------------------- */

int traffic_hist_init(struct traffic_hist *h, uint32_t n_bins)
{
    memset(h, 0, sizeof *h);
    h->bins = calloc(n_bins ? n_bins : 1, sizeof *h->bins);
    if (!h->bins)
        return -1;
    h->n_bins = n_bins;
    return 0;
}

void traffic_hist_free(struct traffic_hist *h)
{
    free(h->bins);
    memset(h, 0, sizeof *h);
}

double traffic_hist_quantile_ns(const struct traffic_hist *h, double q)
{
    if (h->count == 0)
        return 0;
    /* nearest rank; the epsilon keeps 0.99 * 100 from becoming rank 100 */
    double want = ceil(q * (double)h->count - 1e-9);
    uint64_t rank = want < 1 ? 1 : (uint64_t)want;
    if (rank > h->count)
        rank = h->count;
    uint64_t cum = 0;
    for (uint32_t i = 0; i < h->n_bins; i++) {
        cum += h->bins[i];
        if (cum >= rank)
            return (double)i;
    }
    return (double)h->max / (double)SIMTIME_NS;
}

double traffic_hist_mean_ns(const struct traffic_hist *h)
{
    return h->count ? (double)h->sum_ps / (double)h->count / SIMTIME_NS : 0;
}

/* ---- the run ------------------------------------------------------------ */

enum {
    EV_GEN = NET_EV_COUNT, /* a NIC generates a message (arg: NIC) */
    EV_PHASE,              /* the measurement window ends */
    EV_WATCH,              /* the deadlock watchdog looks */
    EV_SAMPLE,             /* the counter sampler reads (exp/sampler.h) */
};

#define HIST_BINS (UINT32_C(1) << 20) /* 1 ns bins: up to ~1.05 ms */

struct gen {
    struct net n;
    struct sim s;
    const struct topo *t;
    const struct traffic_params *tp;
    struct traffic_dests td;
    struct rng *rng;        /* [n_nics] each NIC's stream */
    double *mean_ps;        /* [n_nics] mean interarrival, 0: silent NIC */
    uint32_t *queued;       /* [n_nics] messages sent, request not arrived */
    simtime *first;         /* [n_nics] creation time of the NIC's first
                               request until it is delivered, then
                               FIRST_DONE (FIRST_NONE: none sent yet) */
    simtime fill_hops[TRAFFIC_HOP_BINS]; /* the shortest first-request
                               latency by router hops (FIRST_NONE: none) */
    uint64_t backlog;       /* the sum of queued[] */
    int64_t backlog_warm;   /* backlog when the window opened (-1: not
                               yet), */
    int64_t backlog_mid;    /*   at its half-way point t_mid, */
    int64_t backlog_end;    /*   and when it closed */
    uint8_t *slot;          /* [n_nics] index of the NIC within its node */
    uint32_t size;          /* bytes per message */
    uint32_t ctl;           /* entity of the phase and watchdog events */
    struct sampler sm;      /* counter sampling, when on */
    bool sampling;
    simtime t_warm, t_end;  /* measurement window [t_warm, t_end) */
    simtime t_mid;          /* its half-way point (saturation is judged
                               on [t_mid, t_end)) */
    simtime watchdog, tick;
    bool generating;
    bool done;              /* every measured packet delivered */
    bool deadlock;
    bool oom;
    simtime idle_at;        /* last watchdog tick with nothing in flight */
    /* measurement */
    uint64_t generated, sent, delivered, accepted, refused;
    uint64_t generated2, accepted2; /* of them, in [t_mid, t_end) */
    struct traffic_hist hist;
    uint64_t hops[TRAFFIC_HOP_BINS];
    uint64_t hops_sum, nonmin;
    uint64_t hash;
};

#define FIRST_NONE UINT64_MAX
#define FIRST_DONE (UINT64_MAX - 1)

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv_u64(uint64_t h, uint64_t v, int bytes)
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
        double left = traffic_eta_seconds(&eta);
        shown = now;
        shown_at = s->now;
        char eta_text[64] = "";
        if (isfinite(left))
            snprintf(eta_text, sizeof eta_text, ", at most about %.0f s left",
                     left);
        if (s->now < g->t_end)
            fprintf(progress,
                    "    %.1f us simulated, window to %.1f us, then the "
                    "drain to %.1f us at most: %.0f s%s\n",
                    (double)s->now / (double)SIMTIME_US,
                    (double)g->t_end / (double)SIMTIME_US,
                    (double)until / (double)SIMTIME_US, now - t0, eta_text);
        else
            fprintf(progress,
                    "    %.1f us simulated, draining the measured packets "
                    "(to %.1f us at most): %.0f s%s\n",
                    (double)s->now / (double)SIMTIME_US,
                    (double)until / (double)SIMTIME_US, now - t0, eta_text);
        fflush(progress);
    }
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
    assert(g->queued[p->src_nic] > 0);
    mark_window(g, now);
    g->queued[p->src_nic]--;
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
    g->hash = fnv_u64(g->hash, now, 8);
    g->hash = fnv_u64(g->hash, p->src_nic, 4);
    g->hash = fnv_u64(g->hash, p->dst_nic, 4);
    g->delivered++;
    if (now >= g->t_end && g->delivered == g->sent && g->generating)
        finish(g);
}

static simtime interarrival(struct gen *g, uint32_t nic)
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
            if (g->first[nic] == FIRST_NONE)
                g->first[nic] = now;
            g->sent += measured;
        }
    }
    sim_schedule(s, e->target, now + interarrival(g, nic), e->target, EV_GEN,
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

static simtime us_to_ps(double us)
{
    return (simtime)llround(us * (double)SIMTIME_US);
}

/* The links report of the window [t_warm, t_end): every router's block. */
static int write_links(const char *path, const struct links *L,
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

static void gen_free(struct gen *g, bool net_ok)
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
static int check_params(const struct topo *t, const struct net_params *np,
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
static int gen_setup(struct gen *g, const struct topo *t,
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
    if (net_init(&g->n, t, npc, &g->s, seed, d) != 0)
        return -1;
    *net_ok = true;
    for (uint32_t i = 0; i < t->n_nics; i++)
        g->first[i] = FIRST_NONE;
    for (int h = 0; h < TRAFFIC_HOP_BINS; h++)
        g->fill_hops[h] = FIRST_NONE;
    g->n.hooks = (struct net_hooks){ .ctx = g, .delivered = on_delivered };
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
static double schedule_first(struct gen *g, const struct topo *t,
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
        uint32_t ent = net_nic_entity(&g->n, nic);
        sim_schedule(&g->s, ent, interarrival(g, nic), ent, EV_GEN, nic);
    }
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
static void window_figures(const struct gen *g, double rate_sum,
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
    simtime limit = g->s.now + us_to_ps(tp->drain_us) + g->watchdog;
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

int traffic_run(const struct topo *t, const struct net_params *np,
                const struct traffic_params *tp, uint64_t seed,
                enum evq_impl impl, struct traffic_result *out,
                struct diag *d)
{
    memset(out, 0, sizeof *out);
    int64_t size;
    if (check_params(t, np, tp, &size, d) != 0)
        return -1;
    struct gen *g = calloc(1, sizeof *g);
    if (!g) {
        diag_error(d, NULL, 0, "traffic", "out of memory");
        return -1;
    }
    g->t = t;
    g->tp = tp;
    g->size = (uint32_t)size;
    g->hash = FNV_OFFSET;
    g->t_warm = us_to_ps(tp->warmup_us);
    g->t_end = g->t_warm + us_to_ps(tp->measure_us);
    g->t_mid = g->t_warm + (g->t_end - g->t_warm) / 2;
    g->watchdog = us_to_ps(tp->watchdog_us);
    g->tick = g->watchdog / 4 ? g->watchdog / 4 : 1;
    g->generating = true;
    g->backlog_warm = g->backlog_mid = g->backlog_end = -1;
    g->sampling = sampler_enabled(&tp->sampling);
    bool links = tp->sampling.links_path != NULL;
    /* sampling and the links report read the counters; keeping them
     * changes nothing else (net/counters.h) */
    struct net_params npc = *np;
    npc.counters = npc.counters || g->sampling || links;
    struct links L = { 0 };
    struct link_counts *snap = NULL; /* [2 * L.n]: at t_warm, at t_end */
    int rc = -1;
    bool net_ok = false;
    if (gen_setup(g, t, tp, &npc, seed, impl, &net_ok, d) != 0)
        goto out;
    double rate_sum = schedule_first(g, t, tp, seed);
    simtime horizon = g->t_end + us_to_ps(tp->drain_us);
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
    window_figures(g, rate_sum, out);
    int drc = drain_check(g, tp, out, d);
    if (drc != 0) {
        rc = drc;
        goto out;
    }
    out->samples = g->sm.samples;
    if (g->sampling && sampler_status(&g->sm, d) != 0)
        goto out;
    if (links && !g->deadlock &&
        write_links(tp->sampling.links_path, &L, &g->n, snap,
                    g->t_end - g->t_warm, d) != 0)
        goto out;
    rc = 0;
out:
    links_free(&L);
    free(snap);
    gen_free(g, net_ok);
    free(g);
    return rc;
}

