/* exp/traffic_internal.h — what the synthetic-traffic run's files share:
 * the generator's state (one per partition in a windowed run) and the
 * steps of a run (exp/traffic_sim.c) that the windowed driver
 * (exp/traffic_win.c) reuses. Nothing outside src/exp/traffic*.c
 * includes it. */
#ifndef DFSIM_EXP_TRAFFIC_INTERNAL_H
#define DFSIM_EXP_TRAFFIC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/rng.h"
#include "core/sim.h"
#include "exp/sampler.h"
#include "exp/traffic.h"
#include "net/net.h"

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
    /* a windowed run (exp/traffic_win.c): this generator runs partition
     * `part`'s NICs; the window's end, the watchdog and the backlog's
     * readings are the driver's, at the windows' ends */
    bool windowed;
    uint32_t part;
    const uint32_t *part_of;  /* [router] -> its partition (the driver's) */
};

#define FIRST_NONE UINT64_MAX
#define FIRST_DONE (UINT64_MAX - 1)

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)


uint64_t traffic_fnv(uint64_t h, uint64_t v, int bytes);
simtime traffic_us_to_ps(double us);
simtime tgen_interarrival(struct gen *g, uint32_t nic);
/* g's fields from the parameters (size: bytes per message) */
void tgen_init(struct gen *g, const struct topo *t,
               const struct traffic_params *tp, uint32_t size);
void tgen_free(struct gen *g, bool net_ok);
int tgen_check(const struct topo *t, const struct net_params *np,
               const struct traffic_params *tp, int64_t *size,
               struct diag *d);
int tgen_setup(struct gen *g, const struct topo *t,
               const struct traffic_params *tp,
               const struct net_params *npc, uint64_t seed,
               enum evq_impl impl, bool *net_ok, struct diag *d);
double tgen_first(struct gen *g, const struct topo *t,
                  const struct traffic_params *tp, uint64_t seed);
void tgen_figures(const struct gen *g, double rate_sum,
                  struct traffic_result *out);
/* The links report of the window [t_warm, t_end) into path: every
 * router's block, from snap[0 .. L->n) at t_warm and snap[L->n ..) at
 * t_end, read on n (a network, or a view of a split one). 0, or -1
 * reported. */
struct links;
struct link_counts;
int tgen_write_links(const char *path, const struct links *L,
                     const struct net *n, const struct link_counts *snap,
                     simtime interval, struct diag *d);
/* The progress line (every 2 s of wall time) for the run's state eta. */
void tgen_show(FILE *progress, const struct traffic_eta *eta);

#endif
