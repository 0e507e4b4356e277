/* app/workload.c — the workload registry (see workload.h): each family's
 * keys and the glue from a job's parameters to its program. The defaults
 * and their sources are the families' own (micro: ember's motifs, see
 * micro_defaults; ember_defaults; gpcnet_defaults). */
#include "app/workload.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app/ember.h"
#include "app/gpcnet.h"
#include "app/micro.h"
#include "app/otf2.h"
#include "app/proxy.h"

static_assert(sizeof(struct micro_params) <= WORKLOAD_PARAMS_MAX, "params");
static_assert(sizeof(struct ember_params) <= WORKLOAD_PARAMS_MAX, "params");
static_assert(sizeof(struct gpcnet_params) <= WORKLOAD_PARAMS_MAX, "params");
static_assert(sizeof(struct micro) <= WORKLOAD_STATE_MAX, "state");
static_assert(sizeof(struct ember) <= WORKLOAD_STATE_MAX, "state");
static_assert(sizeof(struct gpcnet) <= WORKLOAD_STATE_MAX, "state");
static_assert(sizeof(struct gpcnet_set) <= WORKLOAD_STATE_MAX, "state");
static_assert(sizeof(struct proxy_params) <= WORKLOAD_PARAMS_MAX, "params");
static_assert(sizeof(struct proxy) <= WORKLOAD_STATE_MAX, "state");
static_assert(sizeof(struct otf2_params) <= WORKLOAD_PARAMS_MAX, "params");
static_assert(sizeof(struct otf2_wl) <= WORKLOAD_STATE_MAX, "state");

#define KEY_U32(s, key, field, lo, hi, text)                                 \
    { .name = key, .type = CFG_UINT32, .offset = offsetof(s, field),         \
      .min = lo, .max = hi, .help = text }
#define KEY_U64(s, key, field, lo, hi, text)                                 \
    { .name = key, .type = CFG_UINT64, .offset = offsetof(s, field),         \
      .min = lo, .max = hi, .help = text }
/* A size key --quick caps at q (core/config.h: cfg_key.quick). */
#define KEY_U32Q(s, key, field, lo, hi, q, text)                             \
    { .name = key, .type = CFG_UINT32, .offset = offsetof(s, field),         \
      .min = lo, .max = hi, .quick = q, .help = text }
#define KEY_U64Q(s, key, field, lo, hi, q, text)                             \
    { .name = key, .type = CFG_UINT64, .offset = offsetof(s, field),         \
      .min = lo, .max = hi, .quick = q, .help = text }
#define KEY_F(s, key, field, lo, hi, text)                                   \
    { .name = key, .type = CFG_FLOAT, .offset = offsetof(s, field),          \
      .fmin = lo, .fmax = hi, .help = text }
#define KEY_US(s, key, field, text)                                          \
    { .name = key, .type = CFG_TIME, .offset = offsetof(s, field),           \
      .unit_ps = SIMTIME_US, .fmin = 0, .fmax = 1e9, .help = text }
#define KEY_BOOL(s, key, field, text)                                        \
    { .name = key, .type = CFG_BOOL, .offset = offsetof(s, field),           \
      .help = text }
#define KEY_END { .name = NULL }

/* Largest message a workload may ask for: the network's messages count
 * bytes in 32 bits, and no study goes near. */
#define BYTES_MAX ((int64_t)UINT32_MAX)

/* ---- microbenchmarks (app/micro.h) -------------------------------------- */

#define M struct micro_params
/* --quick's caps (cfg_key.quick): one pair's messages at 64 KiB (a
 * 512 KiB ping-pong round trip is ~100 us), a collective's buffer at
 * 64 KiB, an all-to-all's per-peer block at 64 B, one packet (256 ranks
 * x 255 x 16 KiB is ~1 GiB an iteration; at 1 KiB, 16 packets a block,
 * an iteration still took 8 s to simulate on xc-12cab), an incast's at
 * 4 KiB: each keeps a quick run's iteration within its window, and a
 * file's small sizes (and their protocols) as they are. */
#define MICRO_BYTES_Q(q, text)                                               \
    KEY_U64Q(M, "bytes", bytes, 1, BYTES_MAX, q, text)
#define MICRO_BYTES(text) MICRO_BYTES_Q(65536, text)
#define MICRO_ITER                                                           \
    KEY_U32(M, "iterations", iterations, 1, UINT32_MAX - 1,                 \
            "iterations, each ending with a mark (1, ember's "              \
            "arg.iterations)")
#define MICRO_COMPUTE                                                        \
    KEY_US(M, "compute_us", compute,                                         \
           "compute phase before each iteration, us (0; ember's "            \
           "allreduce, alltoall, bcast and barrier motifs: arg.compute)")

static const struct cfg_key pingpong_keys[] = {
    MICRO_BYTES("message size, bytes (1024, emberpingpong arg.messageSize)"),
    MICRO_ITER,
    KEY_U32(M, "peer", peer, 1, UINT32_MAX - 1,
            "rank 0's partner (1, arg.rank2)"),
    MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key allreduce_keys[] = {
    MICRO_BYTES("buffer per rank, bytes (8: one double, emberallreduce "
                "arg.count 1)"),
    MICRO_ITER, MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key alltoall_keys[] = {
    MICRO_BYTES_Q(64, "bytes sent to each other rank (1, emberalltoall "
                "arg.bytes)"),
    MICRO_ITER, MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key bcast_keys[] = {
    MICRO_BYTES("buffer, bytes (8: one double, emberbcast arg.count 1)"),
    MICRO_ITER,
    KEY_U32(M, "root", peer, 0, UINT32_MAX - 1, "root rank (0, arg.root)"),
    MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key pw_pingpong_keys[] = {
    MICRO_BYTES("message size, bytes (1024, pw-ping-pong_b -msgsize)"),
    MICRO_ITER, MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key barrier_keys[] = {
    MICRO_ITER, MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key incast_keys[] = {
    MICRO_BYTES_Q(4096,
                  "message size, bytes (1024, emberincast arg.messageSize)"),
    MICRO_ITER,
    KEY_U32(M, "target", peer, 0, UINT32_MAX - 1,
            "the rank every other sends to (0, arg.incasttarget)"),
    MICRO_COMPUTE, KEY_END,
};
static const struct cfg_key put_incast_keys[] = {
    MICRO_BYTES_Q(4096, "bytes each sender puts per iteration (1024, inc_put "
                "-msgsize; SC'20 Fig. 12: 16 KiB, 128 KiB, 1 MiB)"),
    MICRO_ITER,
    KEY_U32(M, "target", peer, 0, UINT32_MAX - 1,
            "the rank whose window every other puts into (0, inc_put's "
            "master rank)"),
    KEY_U32(M, "burst", burst, 0, UINT32_MAX - 1,
            "iterations per burst: every rank pauses gap_us after each "
            "burst (0: no pause; SC'20 Fig. 12: 1 to 10^6 messages)"),
    KEY_US(M, "gap_us", gap,
           "the pause after every burst, us (0; SC'20 Fig. 12: 1 to "
           "10^6)"),
    MICRO_COMPUTE, KEY_END,
};
#define OSU_KEYS(NAME)                                                       \
    MICRO_BYTES("message size, bytes (1048576: " NAME " sweeps sizes; "   \
                "one size per job here)"),                                  \
    KEY_U32(M, "iterations", iterations, 1, UINT32_MAX - 1,                 \
            "iterations of a window each (20, " NAME "'s LOOP_LARGE)"),     \
    KEY_U32(M, "peer", peer, 1, UINT32_MAX - 1, "rank 0's partner (1)"),    \
    KEY_U32(M, "window", window, 1, 1 << 16,                                \
            "messages in flight per iteration (64, " NAME                   \
            "'s WINDOW_SIZE_LARGE)"),                                       \
    KEY_US(M, "compute_us", compute,                                        \
           "compute phase before each iteration, us (0; OSU has none)"),   \
    KEY_END
static const struct cfg_key bw_keys[] = { OSU_KEYS("osu_bw") };
static const struct cfg_key bibw_keys[] = { OSU_KEYS("osu_bibw") };
/* bisection: bibw's keys but the partner, which is r + n/2 */
static const struct cfg_key bisection_keys[] = {
    MICRO_BYTES("message size, bytes (1048576, as osu_bibw's largest "
                "sizes)"),
    KEY_U32(M, "iterations", iterations, 1, UINT32_MAX - 1,
            "iterations of a window each (20, osu_bibw's LOOP_LARGE)"),
    KEY_U32(M, "window", window, 1, 1 << 16,
            "messages in flight each way per pair and iteration (64, "
            "osu_bibw's WINDOW_SIZE_LARGE)"),
    KEY_US(M, "compute_us", compute,
           "compute phase before each iteration, us (0; OSU has none)"),
    KEY_U32(M, "barrier_after", barrier_after, 0, UINT32_MAX - 2,
            "a barrier of the job's ranks before this iteration, so that "
            "the iterations after it start together (0: none; "
            "osu_mbw_mr's after its warm-up: set it to the job's "
            "warmup)"),
    KEY_END,
};
#undef M

/* ember's motif defaults (papers-and-workloads.md §2): one iteration, no
 * compute; messageSize 1024 for pingpong and incast, one double for
 * allreduce and bcast (arg.count 1), arg.bytes 1 for alltoall; pingpong's
 * partner rank 1, bcast's root and incast's target rank 0. */
static void micro_defaults(void *params, enum micro_kind k)
{
    struct micro_params *p = params;
    *p = (struct micro_params){ .kind = k, .iterations = 1 };
    switch (k) {
    case MICRO_PINGPONG: p->bytes = 1024, p->peer = 1; break;
    case MICRO_PW_PINGPONG: p->bytes = 1024; break;
    case MICRO_INCAST:
    case MICRO_PUT_INCAST: p->bytes = 1024; break; /* inc_put -msgsize */
    case MICRO_ALLREDUCE:
    case MICRO_BCAST: p->bytes = 8; break;
    case MICRO_ALLTOALL: p->bytes = 1; break;
    case MICRO_BW:
    case MICRO_BIBW: /* OSU micro-benchmarks: window 64, 20 iterations
                        for large messages (LOOP_LARGE) */
    case MICRO_BISECTION:
        p->bytes = 1 << 20, p->peer = 1, p->window = 64, p->iterations = 20;
        break;
    case MICRO_BARRIER:
    case MICRO_KIND_COUNT: break;
    }
}

static uint64_t micro_msg_bytes(const void *params)
{
    return ((const struct micro_params *)params)->bytes;
}

static int micro_winit(void *state, const void *params,
                       const struct workload_env *env, char *err, size_t cap)
{
    return micro_init(state, params, env->nranks, err, cap);
}
static void micro_wfree(void *state) { micro_free(state); }
static struct dmpi_app micro_wapp(void *state) { return micro_app(state); }

static uint32_t micro_witers(const void *params)
{
    return ((const struct micro_params *)params)->iterations;
}

/* The bandwidth the benchmark itself prints, in MB/s (1e6 bytes a
 * second, OSU's unit; IMB's "Mbytes" are 2^20 bytes), from the iterations after the job's warm-up: IMB PingPong's
 * bytes over half the mean round trip; OSU osu_bw's window of messages
 * over the mean iteration (osu_bibw: both directions' bytes); the
 * bisection's bytes every rank sent; the alltoall's blocks every rank
 * sent to the others. `p99`: the same over the 99th
 * percentile of the iteration times (nearest rank: the slow tail). The
 * other motifs print times, which iterations.csv has. */
static int micro_wmetric(const void *state, const struct dmpi_job_result *r,
                         uint32_t skip, struct workload_metric *out)
{
    const struct micro *mb = state;
    const struct micro_params *p = &mb->p;
    double moved; /* bytes per iteration the figure counts */
    if (p->kind == MICRO_PINGPONG)
        moved = 2.0 * (double)p->bytes; /* over the whole round trip */
    else if (p->kind == MICRO_BW)
        moved = (double)p->window * (double)p->bytes;
    else if (p->kind == MICRO_BIBW)
        moved = 2.0 * (double)p->window * (double)p->bytes;
    else if (p->kind == MICRO_BISECTION)
        moved = (double)mb->nranks * (double)p->window * (double)p->bytes;
    else if (p->kind == MICRO_ALLTOALL)
        /* every rank's block to every other rank: the bandwidth SC'20
         * Fig. 6 plots against the all-to-all's theoretical peak */
        moved = (double)mb->nranks * (double)(mb->nranks - 1) *
                (double)p->bytes;
    else
        return -1;
    if (r->n_iter <= skip)
        return -1;
    uint32_t n = r->n_iter - skip;
    simtime *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        t[i] = r->iter_time[skip + i];
        sum += (double)t[i];
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sort: few iterations */
        for (uint32_t k = i; k > 0 && t[k - 1] > t[k]; k--) {
            simtime x = t[k];
            t[k] = t[k - 1];
            t[k - 1] = x;
        }
    uint32_t k99 = (uint32_t)ceil(0.99 * n) - 1; /* nearest rank */
    double ps_per_s = (double)SIMTIME_US * 1e6;
    out->name = "bandwidth";
    out->unit = "MB/s";
    out->avg = sum > 0 ? moved / (sum / n / ps_per_s) / 1e6 : 0;
    out->p99 = t[k99] > 0 ? moved / ((double)t[k99] / ps_per_s) / 1e6 : 0;
    out->n = n;
    free(t);
    return 0;
}

#define MICRO_AS(ident, NAME, KIND, TEXT)                                    \
    static void ident##_defaults(void *p) { micro_defaults(p, KIND); }       \
    static const struct workload wl_##ident = {                              \
        .base = { .name = NAME, .help = TEXT },                              \
        .family = "micro", .keys = ident##_keys,                             \
        .defaults = ident##_defaults, .init = micro_winit,                   \
        .free = micro_wfree, .app = micro_wapp,                              \
        .msg_bytes = micro_msg_bytes, .iterations = micro_witers,            \
        .metric = micro_wmetric,                                             \
    }
#define MICRO(ident, KIND, TEXT) MICRO_AS(ident, #ident, KIND, TEXT)
MICRO(pingpong, MICRO_PINGPONG,
      "rank 0 and a partner send a message back and forth (ember "
      "pingpong)");
MICRO(allreduce, MICRO_ALLREDUCE, "MPI_Allreduce of a buffer (ember "
                                  "allreduce)");
MICRO(alltoall, MICRO_ALLTOALL, "MPI_Alltoall (ember alltoall)");
MICRO(bcast, MICRO_BCAST, "MPI_Bcast from a root (ember bcast)");
MICRO(barrier, MICRO_BARRIER, "MPI_Barrier (ember barrier)");
MICRO(incast, MICRO_INCAST, "every rank sends to one target (ember "
                            "incast)");
MICRO(bw, MICRO_BW, "streaming bandwidth, a window of sends then an ack "
                    "(OSU osu_bw)");
MICRO(bibw, MICRO_BIBW, "bidirectional streaming bandwidth (OSU "
                        "osu_bibw)");
/* the name has a dash, as blink's plots spell it */
MICRO_AS(pw_pingpong, "pw-pingpong", MICRO_PW_PINGPONG,
         "pairwise ping-pong: rank r and r + n/2 for every r of the first "
         "half, after a barrier; the slowest pair's round trip (blink "
         "pw-ping-pong_b, SC'20's victim)");
MICRO_AS(put_incast, "put-incast", MICRO_PUT_INCAST,
         "every rank but the target MPI_Puts into its window, fenced, "
         "iteration by iteration; optional bursts and gaps (blink "
         "inc_put, SC'20 Fig. 12's bursty incast)");
MICRO(bisection, MICRO_BISECTION, "bisection bandwidth: each rank of the "
                                  "first half streams both ways with one "
                                  "of the second (SC'20 Fig. 6)");

/* ---- ember motifs (app/ember.h) ----------------------------------------- */

#define E struct ember_params
#define EMBER_CELLS(what)                                                    \
    KEY_U32Q(E, "nx", nx, 1, 1 << 20, 16,                                    \
             "cells per rank along x (" what ")"),                           \
    KEY_U32Q(E, "ny", ny, 1, 1 << 20, 16,                                    \
             "cells per rank along y (" what ")"),                           \
    KEY_U32Q(E, "nz", nz, 1, 1 << 20, 16,                                    \
             "cells per rank along z (" what ")")
#define EMBER_COMMON(FIELDS, FPC)                                            \
    KEY_U32(E, "fields", fields, 1, 1 << 16,                                 \
            "values per cell (" FIELDS ", arg.fields_per_cell)"),           \
    KEY_U32(E, "width", width, 1, 1 << 16,                                   \
            "bytes per value (8, arg.datatype_width)"),                      \
    KEY_F(E, "flops_per_cell", flops_per_cell, 0, 1e12,                      \
          "flops per cell and field (" FPC ")"),                             \
    KEY_US(E, "compute_us", compute,                                         \
           "if > 0, replaces the computed compute time, us (0, "             \
           "arg.computetime)"),                                              \
    KEY_U32(E, "iterations", iterations, 1, UINT32_MAX - 1,                  \
            "iterations (1, arg.iterations)")

static const struct cfg_key halo3d_keys[] = {
    KEY_U32(E, "px", px, 0, 1 << 20, "process grid along x; all three 0: "
                                     "chosen (arg.pex 0)"),
    KEY_U32(E, "py", py, 0, 1 << 20, "process grid along y"),
    KEY_U32(E, "pz", pz, 0, 1 << 20, "process grid along z"),
    EMBER_CELLS("100"),
    EMBER_COMMON("1", "26, arg.flopspercell"),
    KEY_F(E, "peflops", flops, 1, 1e18,
          "flops per second of a rank (1e10, arg.peflops)"),
    KEY_BOOL(E, "reduce", reduce,
             "an 8-byte allreduce after each iteration (true, "
             "arg.doreduce)"),
    KEY_END,
};
static const struct cfg_key sweep3d_keys[] = {
    KEY_U32(E, "px", px, 0, 1 << 20,
            "process grid along x; both 0: chosen (the squarest)"),
    KEY_U32(E, "py", py, 0, 1 << 20, "process grid along y"),
    EMBER_CELLS("50"),
    KEY_U32(E, "kba", kba, 1, 1 << 20,
            "k-planes per block; nz must be a multiple (1, arg.kba)"),
    EMBER_COMMON("8", "275"),
    KEY_F(E, "nodeflops", flops, 1, 1e18,
          "flops per second of a rank (1e9, arg.nodeflops)"),
    KEY_END,
};
#undef E

static void halo3d_defaults(void *p) { ember_defaults(p, EMBER_HALO3D); }
static void sweep3d_defaults(void *p) { ember_defaults(p, EMBER_SWEEP3D); }
static int ember_winit(void *state, const void *params,
                       const struct workload_env *env, char *err, size_t cap)
{
    return ember_init(state, params, env->nranks, err, cap);
}
static void ember_wfree(void *state) { ember_free(state); }
static struct dmpi_app ember_wapp(void *state) { return ember_app(state); }

static uint32_t ember_witers(const void *params)
{
    return ((const struct ember_params *)params)->iterations;
}

static const struct workload wl_halo3d = {
    .base = { .name = "halo3d",
              .help = "3-D 6-face halo exchange, compute, allreduce (ember "
                      "halo3d)" },
    .family = "ember", .keys = halo3d_keys, .defaults = halo3d_defaults,
    .init = ember_winit, .free = ember_wfree, .app = ember_wapp,
    .iterations = ember_witers,
};
static const struct workload wl_sweep3d = {
    .base = { .name = "sweep3d",
              .help = "2-D KBA wavefront sweeps from the four corners "
                      "(ember sweep3d)" },
    .family = "ember", .keys = sweep3d_keys, .defaults = sweep3d_defaults,
    .init = ember_winit, .free = ember_wfree, .app = ember_wapp,
    .iterations = ember_witers,
};

/* ---- GPCNeT (app/gpcnet.h) ---------------------------------------------- */

#define G struct gpcnet_params
/* --quick caps the messages at GPCNeT's own default, 4 KiB (SC'20's
 * congestors send 128 KiB) */
#define GP_BYTES(text) KEY_U64Q(G, "bytes", bytes, 1, BYTES_MAX, 4096, text)
#define GP_CONGESTOR(TEXT)                                                   \
    GP_BYTES("bytes per message (4096: 512 doubles" TEXT ")"),             \
    KEY_U32(G, "iterations", iterations, 1, UINT32_MAX - 1,                 \
            "rounds of the kernel (default: until the foreground jobs "     \
            "end; then the job must be a background job)"),                \
    KEY_END
#define GP_RING                                                              \
    KEY_U32(G, "iters_per_ring", iters_per_ring, 1, UINT32_MAX - 1,         \
            "iterations per random ring (rr-latency 10: GPCNeT's 200 "      \
            "would take too long; rr-bw-sync 8, NUM_BW_ITERS)")

/* The two congestors SC'20 used as aggressors (MPI_Sendrecv all-to-all
 * and MPI_Put incast) say so in their key's help: "both aggressors
 * exchange 128KiB messages" (SC'20 §III-A) where GPCNeT's default is
 * 4 KiB. */
static const struct cfg_key gp_sc20_keys[] = {
    GP_CONGESTOR("; the SC'20 study's aggressors used 131072")
};
static const struct cfg_key gp_congestor_keys[] = { GP_CONGESTOR("") };
static const struct cfg_key gp_rr_latency_keys[] = {
    GP_BYTES("bytes per message (8: one double)"),
    KEY_U32(G, "iterations", iterations, 1, UINT32_MAX - 1,
            "iterations (100: 10 rings)"),
    GP_RING, KEY_END,
};
static const struct cfg_key gp_rr_bw_sync_keys[] = {
    GP_BYTES("bytes per message (131072: BW_MSG_COUNT 16384 doubles)"),
    KEY_U32(G, "iterations", iterations, 1, UINT32_MAX - 1,
            "iterations (16: 2 rings)"),
    GP_RING,
    KEY_U32(G, "outstanding", outstanding, 1, 1 << 16,
            "messages in flight per neighbour and direction (8, "
            "BW_OUTSTANDING)"),
    KEY_END,
};
static const struct cfg_key gp_allreduce_keys[] = {
    GP_BYTES("buffer, bytes (8: one double)"),
    KEY_U32(G, "iterations", iterations, 1, UINT32_MAX - 1,
            "iterations (200, NUM_ALLREDUCE_ITERS)"),
    KEY_END,
};
#undef G

static int gpcnet_winit(void *state, const void *params,
                        const struct workload_env *env, char *err,
                        size_t cap)
{
    struct gpcnet_params p = *(const struct gpcnet_params *)params;
    p.seed = env->seed; /* the rings: rng_stream(seed, RNG_WORKLOAD, job) */
    p.instance = env->job;
    return gpcnet_init(state, &p, env->nranks, err, cap);
}
static void gpcnet_wfree(void *state) { gpcnet_free(state); }
static struct dmpi_app gpcnet_wapp(void *state) { return gpcnet_app(state); }
/* GPCNeT's figure: the kernel's values (us for latencies, MiB/s per rank
 * for bandwidths) averaged, and their 99th percentile, as
 * summarize_performance computes them (app/gpcnet.h). */
static int gpcnet_wmetric(const void *state, const struct dmpi_job_result *r,
                          uint32_t skip, struct workload_metric *out)
{
    (void)skip; /* GPCNeT leaves out its own warm-up pass */
    const struct gpcnet *g = state;
    struct gpcnet_stats st;
    if (gpcnet_summarize_job(g, r, &st) != 0)
        return -1;
    out->name = gpcnet_kernel_names[g->p.kernel];
    out->unit = gpcnet_is_latency(g->p.kernel) ? "usec" : "MiB/s/rank";
    out->avg = st.avg;
    out->p99 = st.p99;
    out->n = st.n;
    return 0;
}

/* GPCNeT's congestors loop for as long as the canary test runs (an
 * MPI_Iallreduce tells them when it has ended): without an iteration
 * count a congestor job is a background job the run stops when the
 * foreground jobs are done */
static bool gpcnet_endless(const void *params)
{
    return ((const struct gpcnet_params *)params)->iterations ==
           GPCNET_FOREVER;
}

static uint32_t gpcnet_witers(const void *params)
{
    return gpcnet_endless(params)
               ? 0
               : ((const struct gpcnet_params *)params)->iterations;
}

#define GPCNET(ident, NAME, KERNEL, KEYS, TEXT)                              \
    static void ident##_defaults(void *p) { gpcnet_defaults(p, KERNEL); }    \
    static const struct workload wl_##ident = {                              \
        .base = { .name = NAME, .help = TEXT },                              \
        .family = "gpcnet", .keys = KEYS, .defaults = ident##_defaults,      \
        .init = gpcnet_winit, .free = gpcnet_wfree, .app = gpcnet_wapp,      \
        .endless = gpcnet_endless, .metric = gpcnet_wmetric,                 \
        .iterations = gpcnet_witers,                                         \
    }
GPCNET(gp_a2a, "gpcnet-a2a", GPCNET_A2A, gp_sc20_keys,
       "GPCNeT congestor: all-to-all Sendrecv rounds");
GPCNET(gp_p2p_incast, "gpcnet-p2p-incast", GPCNET_P2P_INCAST,
       gp_congestor_keys, "GPCNeT congestor: two-sided incast to rank 0");
GPCNET(gp_rma_incast, "gpcnet-rma-incast", GPCNET_RMA_INCAST,
       gp_sc20_keys, "GPCNeT congestor: MPI_Put incast to rank 0");
GPCNET(gp_rma_bcast, "gpcnet-rma-bcast", GPCNET_RMA_BCAST,
       gp_congestor_keys, "GPCNeT congestor: MPI_Get broadcast from rank 0");
GPCNET(gp_rr_latency, "gpcnet-rr-latency", GPCNET_RR_LATENCY,
       gp_rr_latency_keys,
       "GPCNeT canary: random-ring two-sided latency (8 B)");
GPCNET(gp_rr_bw_sync, "gpcnet-rr-bw-sync", GPCNET_RR_BW_SYNC,
       gp_rr_bw_sync_keys,
       "GPCNeT canary: random-ring bandwidth + barrier (128 KiB)");
GPCNET(gp_allreduce, "gpcnet-allreduce", GPCNET_ALLREDUCE,
       gp_allreduce_keys, "GPCNeT canary: 8-byte MPI_Allreduce");

/* GPCNeT's four congestors at once on one job's nodes (gpcnet_set). */
static void gp_set_defaults(void *p) { gpcnet_defaults(p, GPCNET_A2A); }
static int gp_set_init(void *state, const void *params,
                       const struct workload_env *env, char *err, size_t cap)
{
    struct gpcnet_params p = *(const struct gpcnet_params *)params;
    p.seed = env->seed; /* the shuffle: rng_stream(seed, RNG_WORKLOAD, job) */
    p.instance = env->job;
    return gpcnet_set_init(state, &p, env->nranks, env->ppn, err, cap);
}
static void gp_set_free(void *state) { gpcnet_set_free(state); }
static struct dmpi_app gp_set_app(void *state)
{
    return gpcnet_set_app(state);
}
static const struct workload wl_gp_set = {
    .base = { .name = "gpcnet-congestors",
              .help = "GPCNeT's congestors at once: a2a, p2p-incast, "
                      "rma-incast and rma-bcast, each on a random quarter "
                      "of the nodes" },
    .family = "gpcnet", .keys = gp_congestor_keys,
    .defaults = gp_set_defaults, .init = gp_set_init, .free = gp_set_free,
    .app = gp_set_app, .endless = gpcnet_endless,
    .iterations = gpcnet_witers,
};

/* ---- proxy applications (app/proxy.h) ----------------------------------- */

/* The proxies' keys name their source in every help text: the ember
 * lqcd motif and MILC's sample input, LAMMPS's in.lj benchmark, AMG2013's
 * README, MiniGhost's default-settings.h; "inference" marks a value no
 * source gives (proxy.h says how each was inferred). */
#define P struct proxy_params
#define PX_GRID3                                                             \
    KEY_U32(P, "px", px, 0, 1 << 20, "process grid along x; 0 0 0: chosen "  \
                                     "(the most cubic, as ember)"),         \
    KEY_U32(P, "py", py, 0, 1 << 20, "process grid along y"),               \
    KEY_U32(P, "pz", pz, 0, 1 << 20, "process grid along z")
#define PX_POINTS(what)                                                      \
    KEY_U32Q(P, "nx", nx, 1, 1 << 20, 8, "points along x (" what ")"),      \
    KEY_U32Q(P, "ny", ny, 1, 1 << 20, 8, "points along y (" what ")"),      \
    KEY_U32Q(P, "nz", nz, 1, 1 << 20, 8, "points along z (" what ")")
#define PX_FLOPS(def)                                                        \
    KEY_F(P, "peflops", peflops, 1, 1e18, "flop/s of a rank (" def ")")
#define PX_ITER(text)                                                        \
    KEY_U32(P, "iterations", iterations, 1, UINT32_MAX - 1, text)
#define PX_COMPUTE                                                           \
    KEY_US(P, "compute_us", compute,                                         \
           "if > 0, replaces every computed compute phase, us (0)")
#define PX_PERIODIC(def)                                                     \
    KEY_BOOL(P, "periodic", periodic, "the domain wraps around (" def ")")

static const struct cfg_key milc_keys[] = {
    KEY_U32(P, "px", px, 0, 1 << 20, "process grid along x; px py pz pt "
                                     "all 0: MILC's setup_hyper_prime "
                                     "layout"),
    KEY_U32(P, "py", py, 0, 1 << 20, "process grid along y"),
    KEY_U32(P, "pz", pz, 0, 1 << 20, "process grid along z"),
    KEY_U32(P, "pt", pt, 0, 1 << 20, "process grid along t"),
    KEY_U32(P, "nx", nx, 1, 1 << 20, "global lattice along x (64, "
                                     "emberlqcd arg.nx)"),
    KEY_U32(P, "ny", ny, 1, 1 << 20, "global lattice along y (64)"),
    KEY_U32(P, "nz", nz, 1, 1 << 20, "global lattice along z (64)"),
    KEY_U32(P, "nt", nt, 1, 1 << 20, "global lattice along t (64)"),
    PX_FLOPS("20e9, emberlqcd arg.peflops"),
    PX_PERIODIC("true: MILC's com_mpi.c wraps coordinates"),
    PX_ITER("CG iterations (300: the sample input's CG cap)"),
    PX_COMPUTE, KEY_END,
};
static const struct cfg_key lammps_keys[] = {
    PX_GRID3,
    KEY_U32Q(P, "atoms_per_rank", atoms_per_rank, 1, 1u << 30, 2000,
            "atoms each rank owns (32000: LAMMPS bench scaled size)"),
    KEY_F(P, "density", density, 1e-6, 1e6,
          "atoms per sigma^3 (0.8442, in.lj)"),
    KEY_F(P, "cutoff", cutoff, 1e-6, 1e6, "pair cut-off, sigma (2.5)"),
    KEY_F(P, "skin", skin, 0, 1e6, "neighbour skin, sigma (0.3)"),
    KEY_F(P, "migrate_depth", migrate_depth, 0, 1e6,
          "atoms this close to a face leave between re-neighbourings, "
          "sigma (0.1, inference)"),
    KEY_U32(P, "forward_bytes", forward_bytes, 1, 1 << 20,
            "forward comm per ghost atom, bytes (24)"),
    KEY_U32(P, "reverse_bytes", reverse_bytes, 1, 1 << 20,
            "reverse comm per ghost atom, bytes (24)"),
    KEY_U32(P, "border_bytes", border_bytes, 1, 1 << 20,
            "borders per ghost atom, bytes (48)"),
    KEY_U32(P, "exchange_bytes", exchange_bytes, 1, 1 << 20,
            "per migrating atom, bytes (88)"),
    KEY_U32(P, "reneighbor_every", reneighbor_every, 0, UINT32_MAX - 1,
            "steps between re-neighbourings; 0 never (20, in.lj)"),
    KEY_U32(P, "thermo_every", thermo_every, 0, UINT32_MAX - 1,
            "steps between thermo outputs; 0: the last step only (0)"),
    KEY_BOOL(P, "newton", newton, "reverse comm of forces (true)"),
    KEY_F(P, "pair_ns_per_atom", pair_ns_per_atom, 0, 1e9,
          "pair compute per atom and step, ns (480)"),
    KEY_F(P, "neigh_ns_per_atom", neigh_ns_per_atom, 0, 1e9,
          "neighbour-list build per atom, ns (1000, inference)"),
    PX_PERIODIC("true: boundary p p p"),
    PX_ITER("timesteps (100, in.lj run 100)"),
    PX_COMPUTE, KEY_END,
};
static const struct cfg_key amg_keys[] = {
    PX_GRID3, PX_POINTS("40 per rank, amg.README -n 40 40 40"),
    KEY_U32(P, "levels", levels, 1, 32, "multigrid levels (5)"),
    KEY_F(P, "coarsen_first", coarsen_first, 1, 1e9,
          "row ratio from level 0 to 1 (71)"),
    KEY_F(P, "coarsen", coarsen, 1, 1e9,
          "row ratio of each later level (7.5)"),
    KEY_U32(P, "coarse_reach", coarse_reach, 1, 4,
            "halo reach on coarse levels, points (2, inference)"),
    KEY_U32(P, "pre_sweeps", pre_sweeps, 0, 64, "smoothing sweeps down (2)"),
    KEY_U32(P, "post_sweeps", post_sweeps, 0, 64, "smoothing sweeps up (2)"),
    KEY_U32(P, "coarse_sweeps", coarse_sweeps, 0, 64,
            "sweeps on the coarsest level (1)"),
    KEY_U32(P, "krylov_dots", krylov_dots, 1, 64,
            "dot-product allreduces per iteration (3, inference)"),
    KEY_F(P, "nnz_fine", nnz_fine, 1, 1e6,
          "nonzeros per row on the fine level (27)"),
    KEY_F(P, "nnz_coarse", nnz_coarse, 1, 1e6,
          "nonzeros per row on coarse levels (80)"),
    KEY_F(P, "interp_nnz", interp_nnz, 1e-6, 1e6,
          "interpolation entries per row (4, inference)"),
    PX_FLOPS("1e9, inference: memory-bound"),
    PX_ITER("PCG iterations (20, amg.README example)"),
    PX_COMPUTE, KEY_END,
};
static const struct cfg_key minighost_keys[] = {
    PX_GRID3, PX_POINTS("100 per rank, default-settings.h"),
    KEY_U32(P, "num_vars", num_vars, 1, 1024, "variables (5)"),
    KEY_U32(P, "stencil", stencil, 21, 24,
            "21 2D5PT, 22 2D9PT, 23 3D7PT, 24 3D27PT (21)"),
    KEY_U32(P, "percent_sum", percent_sum, 0, 100,
            "share of the variables summed each step, % (100)"),
    KEY_U32(P, "mapping", mapping, 0, 2,
            "ranks to nodes: 0 linear, 1 blocked (each node a compact "
            "sub-block), 2 random (grid places in a seeded random order) "
            "(0)"),
    PX_FLOPS("1e10, as ember halo3d"),
    PX_ITER("time steps (100, num_tsteps)"),
    PX_COMPUTE, KEY_END,
};
static const struct cfg_key hpcg_keys[] = {
    PX_GRID3,
    KEY_U32Q(P, "nx", nx, 1, 1 << 20, 16, "points along x per rank (104, "
                                         "bin/hpcg.dat); a multiple of "
                                         "2^(levels-1)"),
    KEY_U32Q(P, "ny", ny, 1, 1 << 20, 16, "points along y (104)"),
    KEY_U32Q(P, "nz", nz, 1, 1 << 20, 16, "points along z (104)"),
    KEY_U32(P, "levels", levels, 1, 8,
            "multigrid levels, each halving the sides (4, main.cpp)"),
    KEY_U32(P, "pre_sweeps", pre_sweeps, 0, 64,
            "SYMGS sweeps before coarsening (1, MGData.hpp)"),
    KEY_U32(P, "post_sweeps", post_sweeps, 0, 64,
            "SYMGS sweeps after (1, MGData.hpp)"),
    KEY_U32(P, "coarse_sweeps", coarse_sweeps, 0, 64,
            "SYMGS sweeps on the coarsest level (1, ComputeMG_ref)"),
    KEY_F(P, "nnz_fine", nnz_fine, 1, 1e6,
          "nonzeros per row (27: the 27-point stencil)"),
    PX_FLOPS("1e9, inference: memory-bound, as amg"),
    PX_ITER("CG iterations (50, main.cpp refMaxIters)"),
    PX_COMPUTE, KEY_END,
};
static const struct cfg_key fft_keys[] = {
    KEY_U32(P, "nx", nx, 1, 1 << 20, "transform points along x, the "
                                     "distributed dimension; the job's "
                                     "ranks must divide it (256, "
                                     "inference)"),
    KEY_U32(P, "ny", ny, 1, 1 << 20, "points along y; the ranks must "
                                     "divide it (256)"),
    KEY_U32(P, "nz", nz, 1, 1 << 20, "points along z (256)"),
    KEY_BOOL(P, "transposed_out", transposed_out,
             "FFTW_MPI_TRANSPOSED_OUT: output left transposed, one "
             "all-to-all instead of two (false, mpi-bench's default)"),
    PX_FLOPS("2e9, inference: FFTW on one core, memory-bound sizes"),
    PX_ITER("transforms (10, inference)"),
    PX_COMPUTE, KEY_END,
};
#undef P

static int proxy_winit(void *state, const void *params,
                       const struct workload_env *env, char *err, size_t cap)
{
    struct proxy_params p = *(const struct proxy_params *)params;
    p.seed = env->seed; /* mapping 2: rng_stream(seed, RNG_WORKLOAD, job) */
    p.instance = env->job;
    return proxy_init(state, &p, env->nranks, env->ppn, err, cap);
}
static void proxy_wfree(void *state) { proxy_free(state); }
static struct dmpi_app proxy_wapp(void *state) { return proxy_app(state); }

static uint32_t proxy_witers(const void *params)
{
    return ((const struct proxy_params *)params)->iterations;
}

#define PROXY(ident, KIND, TEXT)                                             \
    static void ident##_defaults(void *p) { proxy_defaults(p, KIND); }       \
    static const struct workload wl_##ident = {                              \
        .base = { .name = #ident, .help = TEXT },                            \
        .family = "proxy", .keys = ident##_keys,                             \
        .defaults = ident##_defaults, .init = proxy_winit,                   \
        .free = proxy_wfree, .app = proxy_wapp,                              \
        .iterations = proxy_witers,                                          \
    }
PROXY(milc, PROXY_MILC, "MILC su3_rmd CG: 4-D lattice, 8 neighbours with "
                        "Naik gathers, two global sums");
PROXY(lammps, PROXY_LAMMPS, "LAMMPS LJ: 3-D bricks, 6-neighbour forward "
                            "and reverse comm, re-neighbouring");
PROXY(amg, PROXY_AMG, "AMG2013 PCG + V-cycle: 27-point halos, coarse "
                      "levels farther, dot products");
PROXY(minighost, PROXY_MINIGHOST, "MiniGhost BSPMA: 6-face exchange of "
                                  "aggregated variables, grid sums");
PROXY(hpcg, PROXY_HPCG, "HPCG CG + multigrid: 26-neighbour halos on 4 "
                        "levels, SYMGS sweeps, three dot products");
PROXY(fft, PROXY_FFT, "FFTW MPI 3-D FFT: slabs, local transforms, two "
                      "MPI_Alltoall transposes");

/* ---- traces (app/otf2.h) ------------------------------------------------ */

#define O struct otf2_params
static const struct cfg_key otf2_keys[] = {
    { .name = "trace", .type = CFG_STRING, .offset = offsetof(O, trace),
      .help = "the OTF2 archive's anchor file, DIR/traces.otf2 (required; "
              "relative: from the experiment file's folder)" },
    KEY_F(O, "compute_scale", compute_scale, 0, 1e6,
          "the recorded compute between MPI calls x this (1.0: as "
          "measured; 0: a communication-only replay; 0.5: a host twice "
          "as fast)"),
    KEY_U32(O, "iterations", iterations, 1, 1000000,
            "times the whole trace is replayed, back to back, each an "
            "iteration (1)"),
    KEY_END,
};
#undef O

static void otf2_wdefaults(void *p) { otf2_defaults(p); }
static int otf2_winit(void *state, const void *params,
                      const struct workload_env *env, char *err, size_t cap)
{
    return otf2_init(state, params, env->nranks, env->file, err, cap);
}
static void otf2_wfree(void *state) { otf2_free(state); }
static struct dmpi_app otf2_wapp(void *state) { return otf2_app(state); }
static uint32_t otf2_witers(const void *params)
{
    return ((const struct otf2_params *)params)->iterations;
}

static const struct workload wl_otf2 = {
    .base = { .name = "otf2",
              .help = "an OTF2 trace of a real MPI program (Score-P's or "
                      "dfsim's tracer), replayed call by call" },
    .family = "trace", .keys = otf2_keys, .required = "trace",
    .defaults = otf2_wdefaults,
    .init = otf2_winit, .free = otf2_wfree, .app = otf2_wapp,
    .iterations = otf2_witers,
};

/* ---- the registry ------------------------------------------------------- */

static const struct reg_entry *const entries[] = {
    &wl_pingpong.base,      &wl_allreduce.base,     &wl_alltoall.base,
    &wl_bcast.base,         &wl_barrier.base,       &wl_incast.base,
    &wl_bw.base,            &wl_bibw.base,          &wl_bisection.base,
    &wl_pw_pingpong.base,   &wl_put_incast.base,
    &wl_halo3d.base,        &wl_sweep3d.base,       &wl_gp_a2a.base,
    &wl_gp_p2p_incast.base, &wl_gp_rma_incast.base, &wl_gp_rma_bcast.base,
    &wl_gp_set.base,
    &wl_gp_rr_latency.base, &wl_gp_rr_bw_sync.base, &wl_gp_allreduce.base,
    &wl_milc.base,          &wl_lammps.base,        &wl_amg.base,
    &wl_minighost.base,     &wl_hpcg.base,          &wl_fft.base,
    &wl_otf2.base,
};

const struct registry workload_registry = {
    .kind = "workload",
    .help = "workloads (microbenchmarks, ember motifs, GPCNeT, proxy "
            "applications, OTF2 traces)",
    .entries = entries,
    .n = sizeof entries / sizeof entries[0],
};
