/* exp/traffic.h — synthetic traffic: the network measured on its own.
 *
 * What is modelled: the open-loop traffic of interconnect studies (Dally &
 * Towles ch. 23; BookSim2; Kim et al., ISCA 2008 §4). Every NIC of the
 * system generates one-packet messages — a PUT of `size` bytes, by default
 * one full packet (net_params.max_payload) — with exponential
 * interarrival times (a Poisson source) of mean
 * 1 / (load x net_nic_rate(nic)), so load 1.0 is the rate at which every
 * NIC could inject at once. Each message is handed to the network model
 * (net/net.h) with routing mode 0, the run's routing. Destinations follow a
 * pattern, drawn from the sending NIC's own random stream:
 *   uniform         a uniformly random node other than the sender's
 *   permutation     a random derangement of the nodes, fixed for the run
 *   nearest-group   a random other node of the sender's dragonfly group
 *                   (on a torus, one group: uniform)
 *   worst-case      a random node of group g+1 mod G: the dragonfly's
 *                   adversarial pattern, every group's traffic over the
 *                   one bundle of global links to the next (Kim et al.
 *                   §4.2 "WC"); with one group, uniform
 *   bit-complement  node N-1-i
 *   hotspot         with probability hotspot_fraction the node
 *                   hotspot_node, else uniform (fraction 1: incast)
 * Only nodes with NICs take part (nodes are indexed among those, so N-1-i
 * and the derangement are over them). The destination NIC is the one with
 * the sender NIC's index within its node (dual-NIC nodes: NIC 0 to NIC 0).
 *
 * Phases: warm-up (warmup_us), measurement (measure_us: packets whose
 * message is created in this window are "measured"), drain (generation
 * goes on, so the measured packets see the same network, until every
 * measured packet is delivered, or drain_us have passed: then the run is
 * not drained — the load is past saturation). Each NIC's source queue is
 * capped (max_queued messages whose request has not arrived): a
 * generation above the cap is refused and counted, so a saturated run
 * keeps bounded memory. A watchdog reports a deadlock when packets are in
 * flight and none has been delivered for watchdog_us of simulated time.
 *
 * Latency is a measured request packet's time from its message's creation
 * to its tail's delivery (source queueing included), kept in a histogram
 * of 1 ns bins, so the median and the 99th percentile are exact to 1 ns.
 * A hash over the measured deliveries (time, source, destination, in
 * delivery order) makes determinism checkable.
 *
 * Invariants: the run is a pure function of (topology, network parameters,
 * traffic parameters, seed); the hot path (one generation, one delivery)
 * allocates nothing.
 */
#ifndef DFSIM_TRAFFIC_H
#define DFSIM_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/evq.h"
#include "core/rng.h"
#include "core/config.h"
#include "exp/sampler.h"
#include "net/net.h"
#include "topo/topo.h"

#define TRAFFIC_NONE UINT32_MAX /* "no destination" */

enum traffic_pattern {
    TRAFFIC_UNIFORM,
    TRAFFIC_PERMUTATION,
    TRAFFIC_NEAREST_GROUP,
    TRAFFIC_WORST_CASE,
    TRAFFIC_BIT_COMPLEMENT,
    TRAFFIC_HOTSPOT,
    TRAFFIC_PATTERN_COUNT
};

/* Names as written in experiment files, by enum value; NULL-terminated. */
extern const char *const traffic_pattern_names[];

/* The pattern called `name`, or -1. */
int traffic_pattern_find(const char *name);

/* One run's parameters. */
struct traffic_params {
    enum traffic_pattern pattern;
    double load;             /* fraction of every NIC's injection rate */
    int64_t size;            /* bytes per message; 0 = max_payload */
    double warmup_us;        /* simulated µs before measuring */
    double measure_us;       /* measurement window, µs */
    double drain_us;         /* most µs after it to wait for the measured
                                packets */
    double watchdog_us;      /* no delivery for this long with packets in
                                flight = deadlock */
    uint32_t hotspot_node;   /* hotspot: the node (among all nodes) */
    double hotspot_fraction; /* hotspot: share of messages sent to it */
    uint32_t max_queued;     /* per NIC, messages whose request has not
                                arrived; above it generation is refused */
    struct sampler_params sampling; /* counter sampling (exp/sampler.h),
                                off by default; its `until` is set by
                                traffic_run to the end of the drain */
    FILE *progress;          /* every 2 s of wall time, how far the run is
                                and the time left; NULL: quiet */
    uint32_t partitions;     /* 0: the classic one-process run; P >= 1: in
                                windows, over P partitions (P = 1: the
                                windowed rules in one, exp/traffic_win.c) */
    int procs;               /* processes sharing those partitions: 1 all
                                in this one, else one per MPI rank */
};

void traffic_defaults(struct traffic_params *p);

/* The `traffic` section of an experiment file: the parameters shared by
 * every run, and the sweep — one run per (routing, load). */
struct traffic_sweep {
    const char *pattern;      /* name, turned into p.pattern on load */
    struct traffic_params p;  /* p.load is set per run */
    struct cfg_floats loads;
    struct cfg_names routings; /* n == 0: the network section's routing */
};

/* Decimals of a load in traffic.csv: loads that differ only past them
 * would be two rows alike, and are refused (experiment.c). */
#define TRAFFIC_LOAD_DECIMALS 4

/* Schema of the section (offsets into struct traffic_sweep). */
extern const struct cfg_key traffic_keys[];
void traffic_sweep_defaults(struct traffic_sweep *s);

/* What a run measured. */
#define TRAFFIC_HOP_BINS 16
struct traffic_result {
    double offered;       /* measured-window generations (sent or refused)
                             per NIC injection rate and time */
    double accepted;      /* measured-window request deliveries, likewise */
    uint64_t generated;   /* measured-window generations */
    uint64_t packets;     /* measured packets delivered */
    uint64_t refused;     /* generations refused (whole run) */
    double lat_mean_ns, lat_median_ns, lat_p99_ns, lat_max_ns;
    double hops_mean;     /* router-to-router hops of measured packets */
    uint64_t hops[TRAFFIC_HOP_BINS]; /* measured packets by hops (last bin:
                                        that many or more) */
    double frac_nonmin;   /* share of measured packets routed non-minimally */
    uint64_t events;      /* events dispatched until the run stopped,
                             counter samples left out */
    uint64_t samples;     /* counter samples taken: the rows per producer
                             in the sampling files (whole run, the network
                             emptying after a drained run included) */
    uint64_t net_hops;    /* router-to-router hops of every packet delivered
                             (requests and responses, whole run) */
    uint64_t net_packets; /* packets delivered (whole run) */
    size_t net_bytes;     /* memory of the network model at the end */
    simtime end;          /* simulated time when the run stopped */
    bool drained;         /* every measured packet was delivered */
    bool deadlock;        /* the watchdog fired */
    double backlog;       /* growth of the source queues (messages sent
                             whose request has not arrived) over the
                             whole window, per measured-window
                             generation */
    bool saturated;       /* the network did not keep up (see below) */
    bool steady;          /* the window's second half opened after the
                             network had filled (see below); when false,
                             `saturated` is false: it cannot be judged */
    double fill_ns;       /* the first-packet latency: over the NICs'
                             first requests, sent into an empty network,
                             the shortest at each router-hop count, and
                             the longest of those (0: none delivered) */
    uint64_t hash;        /* FNV-1a over the measured deliveries (a
                             windowed run: the sum of one FNV-1a per
                             delivery, exp/traffic_win.c) */
    /* a windowed run: its partitions, windows, and what crossed between
     * partitions (packets, credit returns written at a window's end) */
    uint32_t partitions;
    uint64_t xwindows, xpackets, xcredits;
    uint64_t xbytes;           /* sent between processes (MPI) */
    double xcompute_max_s;     /* wall seconds running windows: the
                                  busiest process's, */
    double xcompute_mean_s;    /* the processes' mean, */
    double xexchange_s;        /* and exchanging, the processes' mean */
};

/* A run is saturated when the network did not take what was offered:
 * over the second half of the measurement window, the generations not
 * delivered (accepted below offered: refused at a full source queue or
 * still queued) or the growth of the source queues exceed
 * TRAFFIC_SAT_TOL of the generations and three standard deviations of
 * their count (3 sqrt(generated): a Poisson source's own noise, which
 * short windows on small systems show). Latency is then that of a queue
 * that grows with the window, not a property of the load. The first
 * half is left out: a warm-up shorter than the packets' latency opens
 * the window while the network still fills, and the queues grow then by
 * the packets in flight at any load (Little's law); a run stopped before
 * the window closed (deadlock) is judged on all of it. A run that
 * measured no packet at all has no latency: its latency columns are
 * left empty. */
#define TRAFFIC_SAT_TOL 0.05

/* A run is steady when the half of the window saturation is judged on
 * opened at least TRAFFIC_FILL_FACTOR first-packet latencies (fill_ns)
 * after the sources started. The network starts empty: until the
 * packets sent first have crossed it, deliveries lag generations and the
 * queues grow by the packets in flight at any load (Little's law), which
 * looks like saturation but is the warm-up being too short (issue 57: a
 * 0.5 us warm-up on df1056 read a Valiant load of 0.1 as saturated).
 * fill_ns is the empty network's latency on its longest paths: the
 * NICs' first requests find the network (nearly) empty at any load, and
 * the fastest of them at each hop count met no queue, so it does not
 * grow with saturation the way the window's own latency does (the
 * slowest first request did: 3.4 us against 0.53 us on df1056's worst
 * case at 0.5, behind the other first requests on the one global link).
 * Factor 2, measured on df1056 (uniform, windows w/w us): Valiant at 0.3
 * (fill 865 ns) accepts 0.283 of 0.300 with the half opening at 1.5 us
 * (1.7 fills; the old rule read it saturated), 0.288 at 1.95 us, 0.300
 * at 4.5 us; minimal at 0.5 (fill 615 ns) is within 2 % from 1.2 us.
 * A shorter opening is reported "not steady: lengthen warm-up", never
 * "saturated". */
#define TRAFFIC_FILL_FACTOR 2.0

/* Run synthetic traffic `tp` on topology t with network parameters np and
 * `seed`, using event queue `impl`; fill *out. With tp->sampling on, the
 * counters are kept (whatever np->counters says) and sampled into its
 * files from the start of the run to the end of the drain; every result
 * but `samples` is that of the same run without sampling. Returns 0 (even
 * when the run did not drain or deadlocked: see out), or -1 with the
 * reason reported to d (bad parameters, out of memory, a broken network
 * invariant found once the network has emptied, a sampling file that
 * cannot be written), or SIM_INTERRUPTED if a signal stopped it
 * (core/sim.h; out is then no result). */
int traffic_run(const struct topo *t, const struct net_params *np,
                const struct traffic_params *tp, uint64_t seed,
                enum evq_impl impl, struct traffic_result *out,
                struct diag *d);

/* The same run in windows over tp->partitions partitions (tp->procs
 * processes): exp/traffic_win.c. traffic_run calls it when
 * tp->partitions is set. */
int traffic_run_windowed(const struct topo *t, const struct net_params *np,
                         const struct traffic_params *tp, uint64_t seed,
                         enum evq_impl impl, struct traffic_result *out,
                         struct diag *d);

/* ---- pieces, exposed for the tests ----------------------------------- */

/* The destination tables of a pattern on a topology. */
struct traffic_dests {
    const struct topo *t;
    enum traffic_pattern pattern;
    uint32_t n_valid;        /* nodes with at least one NIC */
    uint32_t *valid;         /* [n_valid]: their node ids, ascending */
    uint32_t *vindex;        /* [n_nodes]: index in valid, or TRAFFIC_NONE */
    uint32_t *perm;          /* [n_valid]: permutation (derangement) */
    uint32_t *group_start;   /* [n_groups + 1]: CSR of valid indices */
    uint32_t *group_members; /* [n_valid]: valid indices by group */
    uint32_t *group_pos;     /* [n_valid]: position within its group */
    uint32_t *vgroup;        /* [n_valid]: group of each valid node */
    uint32_t hotspot;        /* valid index of the hotspot node */
    double hotspot_fraction;
};

/* Build the tables for pattern p->pattern (the permutation from
 * rng_stream(seed, RNG_ALLOC, 0)). Returns 0, or -1 with the reason
 * reported to d (no two nodes with NICs, a hotspot node without a NIC or
 * out of range, out of memory). */
int traffic_dests_init(struct traffic_dests *td, const struct topo *t,
                       const struct traffic_params *p, uint64_t seed,
                       struct diag *d);
void traffic_dests_free(struct traffic_dests *td);

/* A destination node for a message from node `src` (which has a NIC),
 * drawing from r; TRAFFIC_NONE when the pattern gives src no partner
 * (bit-complement's middle node of an odd count). Never src itself. */
uint32_t traffic_dest(const struct traffic_dests *td, uint32_t src,
                      struct rng *r);

/* Latencies in 1 ns bins, allocated once; samples past the last bin are
 * counted apart (their exact maximum is kept). */
struct traffic_hist {
    uint32_t *bins;
    uint32_t n_bins;
    uint64_t count, overflow;
    uint64_t sum_ps;         /* for the mean */
    simtime max;
};

int traffic_hist_init(struct traffic_hist *h, uint32_t n_bins);
void traffic_hist_free(struct traffic_hist *h);

static inline void traffic_hist_add(struct traffic_hist *h, simtime lat)
{
    uint64_t ns = lat / SIMTIME_NS;
    if (ns < h->n_bins)
        h->bins[ns]++;
    else
        h->overflow++;
    h->count++;
    h->sum_ps += lat;
    if (lat > h->max)
        h->max = lat;
}

/* The q-quantile (0 < q <= 1) by nearest rank: the smallest sample s with
 * at least ceil(q * count) samples <= s, as its whole nanoseconds (the
 * bin's lower edge); the exact maximum, in ns, when that sample lies past
 * the last bin; 0 when empty. */
double traffic_hist_quantile_ns(const struct traffic_hist *h, double q);
double traffic_hist_mean_ns(const struct traffic_hist *h);

/* The CSV file of a sweep: the header, and one row per run. */
/* Where a traffic run is, for its progress lines: run_shown began at
 * simulated time `from` and has run `wall` s of wall time to `now`; the
 * last progress interval simulated `recent_sim` in `recent_wall` s (0:
 * none yet). The window ends at t_end; the run goes on to at most
 * `horizon`, the end of the window plus the drain. */
struct traffic_eta {
    simtime from, now, t_end, horizon;
    double wall;
    simtime recent_sim;
    double recent_wall;
};

/* The wall time, s, the run has left at most: the simulated time to the
 * horizon, drain included (it can be most of the run: issue 57, "about
 * 2 s left" 4 s into 72.6 s), at the slower of the average pace and the
 * last interval's (a network filling up slows down as it goes). An upper
 * bound, since the drain ends once the measured packets are in; NaN
 * while nothing has been simulated. A pure function, for its test. */
double traffic_eta_seconds(const struct traffic_eta *e);

void traffic_csv_header(FILE *out);
void traffic_csv_row(FILE *out, const char *routing, const char *pattern,
                     double load, const struct traffic_result *r);

/* Read back a row traffic_csv_row wrote: 0 if `line` is a whole row
 * (newline included) of the run (routing, pattern, load), with the
 * fields the row holds stored into *r (as printed: offered and accepted
 * to 6 decimals, ...; the rest zero); -1 if it is not (another run, cut
 * short, not a row). For --resume (cli/cli_run.c). */
int traffic_csv_parse(const char *line, const char *routing,
                      const char *pattern, double load,
                      struct traffic_result *r);

#endif
