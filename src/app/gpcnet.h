/* app/gpcnet.h — GPCNeT's congestor and canary kernels as programs of the
 * MPI-like layer (mpi/op.h), and its statistics.
 *
 * What is modelled: the Global Performance and Congestion Network Test
 * (repo netbench/GPCNET v1.3; papers-and-workloads.md §1), kernel by
 * kernel. GPCNeT runs each kernel on a sub-communicator of its own; here
 * each kernel is a job of its own (mpi/mpi.h), and the node split of
 * network_load_test.c is made by the allocation policies (exp/alloc.h,
 * "GPCNeT"). Every iteration ends with a DMPI_MARK, so the job's
 * per-iteration times are the maximum over its ranks (mpi.h).
 *
 * Congestors (congestors.c), each an endless loop of its kernel:
 *   a2a          for i = 1 .. N-1: MPI_Sendrecv with peer r XOR i if N is
 *                a power of two, else send to (r+i)%N and receive from
 *                (r-i+N)%N (a2a_congestor); each as IRECV + ISEND +
 *                WAITALL. GPCNeT's loop also runs i = 0, a Sendrecv with
 *                itself: a local copy, no message, left out here.
 *   p2p-incast   rank 0 posts an MPI_Irecv from every other rank and waits
 *                for them all; the others MPI_Send to rank 0
 *                (p2p_incast_congestor).
 *   rma-incast   every rank but 0 MPI_Puts `bytes` into rank 0's window,
 *                then MPI_Win_flush (rma_incast_congestor).
 *   rma-bcast    every rank but 0 MPI_Gets `bytes` from rank 0's window,
 *                then MPI_Win_flush (rma_bcast_congestor).
 *   Rank 0 of the RMA congestors is a passive target: it makes no call
 *   inside the loop, so here it finishes at once without marking, and
 *   takes no part in the job's iterations (dmpi_collect); the others'
 *   iterations end with their flush.
 *   Not modelled: congestor()'s per-measurement MPI_Iallreduce of the
 *   elapsed wall-clock time (a 10 s timeout, TEST_TIMEOUT_SECS) and its
 *   warm-up call; a congestor loops `iterations` times (default: for
 *   ever, GPCNET_FOREVER), and as a background job it is stopped when the
 *   foreground (canary) jobs end.
 *
 * Canaries (random_ring.c, collectives.c):
 *   rr-latency   "RR Two-sided Lat (8 B)" (p2p_latency): per iteration
 *                Irecv left (tag 81), Irecv right (82), Isend left (82),
 *                Isend right (81), one double each, Waitall.
 *   rr-bw-sync   "RR Two-sided BW+Sync (131072 B)" (p2p_neighbors): per
 *                iteration `outstanding` (BW_OUTSTANDING 8) Irecv from the
 *                left and from the right, then as many Isends to each,
 *                Waitall, then MPI_Barrier.
 *   allreduce    "Multiple Allreduce (8 B)" (allreduce_test): one
 *                MPI_Allreduce of a double (SUM) per iteration.
 *   The random ring (random_ring): the job's ranks in a random order, each
 *   rank's neighbours the ranks before and after it (cyclically); a fresh
 *   order every `iters_per_ring` iterations. GPCNeT measures NUM_LAT_ITERS
 *   = 200 latency iterations (NUM_BW_ITERS = 8 bandwidth iterations) per
 *   ring; a simulation cannot afford 200 per ring and many rings, so the
 *   latency default here is 10 per ring (the bandwidth one stays 8). Not
 *   modelled: the untimed warm-up iterations (200 per ring for latency, 1
 *   for bandwidth) and the barriers around each ring; the ring and
 *   iteration loops are one flat loop of `iterations` iterations.
 *   GPCNeT's shuffle (utils.c: shuffle, `rand() % i`) is Sattolo's
 *   algorithm seeded with RSEED + the node-local rank; here ring k is a
 *   Fisher-Yates shuffle (rng_shuffle_u32) from the stream
 *   rng_stream(seed, RNG_WORKLOAD, instance) positioned at counter
 *   k * 2^32, so each ring is a pure function of (seed, instance, k) and
 *   every rank of the job sees the same rings.
 *
 * Statistics (utils.c: summarize_performance, print_comparison_results):
 * a per-iteration value is, for rr-latency, the iteration time / 2 in us
 * ("count for the 2 sends"); for allreduce the iteration time in us; for
 * rr-bw-sync 8·16384·2·8 / t MiB/s per rank (bytes x 2 neighbours x
 * outstanding / t); for the congestors their self-reported MiB/s per rank
 * (a2a bytes x (N-1) / t, the others bytes / t). The average is the mean
 * of the values (GPCNeT: the mean over measurements of the ranks' mean —
 * here one value per iteration, the slowest rank's); the 99th percentile
 * is read from GPCNeT's 100,000-bucket histogram between the minimum and
 * the maximum, from the low end for latencies, from the high end for
 * bandwidths (so a bandwidth's "99%" is its worst 1 %). The congestion
 * impact factor is congested / isolated for latencies, isolated /
 * congested for bandwidths, of the values first rounded to 0.1 as GPCNeT
 * prints them ("%12.1f", then atof).
 */
#ifndef DFSIM_APP_GPCNET_H
#define DFSIM_APP_GPCNET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/time.h"
#include "mpi/mpi.h"

enum gpcnet_kernel {
    GPCNET_A2A,        /* congestors */
    GPCNET_P2P_INCAST,
    GPCNET_RMA_INCAST,
    GPCNET_RMA_BCAST,
    GPCNET_RR_LATENCY, /* canaries */
    GPCNET_RR_BW_SYNC,
    GPCNET_ALLREDUCE,
    GPCNET_KERNEL_COUNT
};

/* "a2a", "p2p-incast", "rma-incast", "rma-bcast", "rr-latency",
 * "rr-bw-sync", "allreduce", by enum value; NULL-terminated. */
extern const char *const gpcnet_kernel_names[];

/* The kernel called `name`, or -1. */
int gpcnet_kernel_find(const char *name);

/* Whether k is a congestor (else a canary). */
bool gpcnet_is_congestor(enum gpcnet_kernel k);

/* Whether k's values are latencies (smaller is better: rr-latency,
 * allreduce); else bandwidths. GPCNeT's `from_min`. */
bool gpcnet_is_latency(enum gpcnet_kernel k);

#define GPCNET_FOREVER UINT32_MAX /* congestors' default iterations */

/* GPCNeT's tags (congestors.c, random_ring.c). */
#define GPCNET_TAG_CONGESTOR 987u
#define GPCNET_TAG_LEFT 81u  /* received from the left neighbour */
#define GPCNET_TAG_RIGHT 82u /* received from the right neighbour */

struct gpcnet_params {
    enum gpcnet_kernel kernel;
    uint64_t bytes;          /* per message (>= 1) */
    uint32_t iterations;     /* >= 1; GPCNET_FOREVER: until stopped */
    uint32_t iters_per_ring; /* rr-*: iterations per random ring (>= 1) */
    uint32_t outstanding;    /* rr-bw-sync: messages in flight per
                                neighbour and direction (>= 1) */
    uint64_t seed;           /* rr-*: the rings' stream is */
    uint64_t instance;       /*   rng_stream(seed, RNG_WORKLOAD, instance) */
};

/* Fill *p with kernel k's defaults (sources in gpcnet.c): bytes 4096 for
 * the congestors (A2A_MSG_COUNT = INCAST_MSG_COUNT = BCAST_MSG_COUNT =
 * 512 doubles; the SC'20 Slingshot study used 131072), 8 for rr-latency
 * and allreduce (1 double), 131072 for rr-bw-sync (BW_MSG_COUNT = 16384
 * doubles); iterations GPCNET_FOREVER for the congestors, 100 for
 * rr-latency, 16 for rr-bw-sync, 200 for allreduce (NUM_ALLREDUCE_ITERS);
 * iters_per_ring 10 for rr-latency (GPCNeT: NUM_LAT_ITERS = 200), 8 for
 * rr-bw-sync (NUM_BW_ITERS); outstanding 8 (BW_OUTSTANDING); seed 0,
 * instance 0. */
void gpcnet_defaults(struct gpcnet_params *p, enum gpcnet_kernel k);

/* Two cached rings (ranks straddle at most a ring boundary or two while
 * they run; an evicted ring is recomputed, it is a pure function). */
#define GPCNET_RING_SLOTS 2

struct gpcnet {
    struct gpcnet_params p;
    uint32_t nranks;
    uint32_t *iter;     /* [nranks]: iterations begun */
    uint32_t *sub;      /* [nranks]: operations of the current iteration
                           emitted */
    uint32_t *left;     /* [nranks]: ring neighbours in the current ring */
    uint32_t *right;    /*   (rr-* kernels only, else NULL) */
    uint32_t *perm[GPCNET_RING_SLOTS]; /* [nranks]: ring ring_id[s] */
    uint32_t *pos[GPCNET_RING_SLOTS];  /* [nranks]: inverse of perm */
    uint32_t ring_id[GPCNET_RING_SLOTS];
    bool ring_ok[GPCNET_RING_SLOTS];
};

/* Prepare kernel p->kernel for a job of nranks ranks. Returns 0; or -1
 * with a sentence in err (fewer than 2 ranks — GPCNeT needs 2 nodes per
 * test — a field out of range, out of memory), and then g holds nothing
 * to free. */
int gpcnet_init(struct gpcnet *g, const struct gpcnet_params *p,
                uint32_t nranks, char *err, size_t err_cap);
void gpcnet_free(struct gpcnet *g);

/* The dmpi_app of it (ctx g, which must outlive the run). */
struct dmpi_app gpcnet_app(struct gpcnet *g);

/* Random ring k of n ranks for (seed, instance): perm[0..n) receives the
 * ranks in ring order. A pure function. */
void gpcnet_ring(uint64_t seed, uint64_t instance, uint32_t k, uint32_t n,
                 uint32_t *perm);

/* Rank r's left and right neighbours in ring k of g's job (for rr-*
 * kernels; uses g's ring cache). */
void gpcnet_neighbours(struct gpcnet *g, uint32_t k, uint32_t r,
                       uint32_t *left, uint32_t *right);

/* GPCNeT's congestor set as one job (network_load_test.c: main,
 * build_subcomms, split_subcomms; papers-and-workloads.md §1.2): its
 * nodes shuffled, dealt to the four default congestors a2a, p2p-incast,
 * rma-incast and rma-bcast by shuffled index mod 4 (kernel c gets
 * floor((N + 3 - c) / 4) of N nodes), each kernel running on its own
 * nodes at once, for the whole run, its rank 0 the first of its nodes in
 * the shuffled order — what GPCNeT runs as "the congestors" and what
 * ICS'21 ran as its congestor application. One rank per node (GPCNeT's
 * node slices at more ranks per node are not modelled); at least 8 nodes
 * (GPCNeT: ncongestor_nodes >= 2 * NUM_CONGESTOR_TESTS). The shuffle is
 * drawn from rng_stream(seed, RNG_WORKLOAD, instance) (p->seed and
 * p->instance), so a run is a pure function of them; p->kernel is not
 * read, p->bytes and p->iterations apply to all four kernels. Kernels
 * talk only among their own ranks, so GPCNeT's separate communicators
 * need no tags of their own. */
#define GPCNET_SET_KERNELS 4

struct gpcnet_set {
    struct gpcnet *k;  /* [GPCNET_SET_KERNELS], kernel c = enum value c */
    uint32_t nranks;
    uint8_t *color;    /* [nranks]: the kernel rank r runs */
    uint32_t *sub;     /* [nranks]: its rank within that kernel */
    uint32_t *member;  /* [nranks]: kernel c's ranks, from first[c] */
    uint32_t first[GPCNET_SET_KERNELS];
};

/* Prepare the set for a job of nranks ranks, ppn per node. 0, or -1 with a
 * sentence in err (fewer than 8 ranks, ppn other than 1, bytes or
 * iterations 0, out of memory) and nothing to free. */
int gpcnet_set_init(struct gpcnet_set *s, const struct gpcnet_params *p,
                    uint32_t nranks, uint32_t ppn, char *err, size_t err_cap);
void gpcnet_set_free(struct gpcnet_set *s);

/* The dmpi_app of it (ctx s, which must outlive the run). */
struct dmpi_app gpcnet_set_app(struct gpcnet_set *s);

/* GPCNeT's numbers. */
struct gpcnet_stats {
    double avg;  /* mean of the per-iteration values */
    double p99;  /* 99th percentile (latency: from the low end; bandwidth:
                    from the high end), by GPCNeT's histogram */
    uint32_t n;  /* values */
};

/* The value GPCNeT reports for one iteration of g's kernel that took t
 * (> 0): us for latencies, MiB/s per rank for bandwidths (see above). */
double gpcnet_value(const struct gpcnet_params *p, uint32_t nranks,
                    simtime t);

/* Average and 99th percentile of v[0..n) as summarize_performance reads
 * them (from_min: latencies). n = 0 gives zeros. */
void gpcnet_stats_of(const double *v, uint32_t n, bool from_min,
                     struct gpcnet_stats *s);

/* Statistics of a kernel's iteration times t[0..n) (each > 0): the
 * values of gpcnet_value, then gpcnet_stats_of. 0, or -1 out of memory. */
int gpcnet_summarize(const struct gpcnet_params *p, uint32_t nranks,
                     const simtime *t, uint32_t n, struct gpcnet_stats *s);

/* Statistics of g's job from its result (after dmpi_collect): iteration
 * i took iter_time[i] (mpi.h). 0; -1 if it has no iterations or out of
 * memory. */
int gpcnet_summarize_job(const struct gpcnet *g,
                         const struct dmpi_job_result *r,
                         struct gpcnet_stats *s);

/* GPCNeT's congestion impact factor (print_comparison_results): both
 * values rounded to 0.1 first, then congested / isolated, or isolated /
 * congested for bandwidths. A zero denominator (after rounding) gives
 * IEEE's inf or nan, as GPCNeT would print. */
double gpcnet_impact(double isolated, double congested, bool is_bandwidth);

#endif
