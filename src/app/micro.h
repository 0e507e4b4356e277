/* app/micro.h — the MPI microbenchmarks of the papers, as programs of the
 * MPI-like layer (mpi/op.h).
 *
 * What is modelled: the SST/ember motifs the SC'19 and SC'20 studies ran
 * (papers-and-workloads.md §2, "allreduce / alltoall / bcast / barrier /
 * pingpong / incast"), iteration by iteration, each iteration ending with
 * a DMPI_MARK so that the job's per-iteration times are the maximum over
 * its ranks:
 *   pingpong   rank 0 sends `bytes` to rank `peer` (1) and waits for the
 *              same back (blocking send/recv, as emberpingpong); the other
 *              ranks do nothing. Half an iteration is the latency.
 *   allreduce  MPI_Allreduce of `bytes` (SUM of doubles) on every rank
 *   alltoall   MPI_Alltoall of `bytes` per peer
 *   bcast      MPI_Bcast of `bytes` from `peer` (the root, 0)
 *   barrier    MPI_Barrier
 *   incast     every rank but `peer` (the target, 0) sends `bytes` to it
 *              (blocking); the target posts a receive from every other
 *              rank and waits for them all (emberincast)
 *   bw         streaming bandwidth as OSU's osu_bw (OSU Micro-Benchmarks,
 *              mpi/pt2pt/osu_bw.c): rank 0 posts `window` (64,
 *              WINDOW_SIZE_LARGE) MPI_Isends of `bytes` to `peer`, waits
 *              for them all and receives a 4-byte ack (tag 101); `peer`
 *              posts as many MPI_Irecvs, waits, sends the ack. Bandwidth
 *              = bytes x window / iteration time. The XC white paper's
 *              Fig. 12 (~10 GB/s unidirectional) is this kind of test.
 *   bibw       osu_bibw: rank 0 and `peer` both post `window` receives
 *              then `window` sends to each other and wait; no ack.
 *              Bandwidth = 2 x bytes x window / iteration time (Figs. 12
 *              and 14, > 15 GB/s bidirectional).
 *   bisection  SC'20's bisection bandwidth (§II-G, Fig. 6: "half of the
 *              nodes send data to the other half of the nodes and vice
 *              versa"): every rank r does bibw's iteration with rank
 *              (r + n/2) mod n, so the first half of the job's ranks
 *              (its first nodes) exchange with the second half, pair by
 *              pair as OSU's multi-pair osu_mbw_mr pairs them (there one
 *              way). n must be even. Bandwidth = n x bytes x window /
 *              iteration time.
 *   pw-pingpong  blink's pairwise ping-pong (pw-ping-pong_b.c, De Sensi
 *              et al.'s benchmark framework, whose preliminary version ran
 *              SC'20's congestion study): every rank r of the first half
 *              pairs with r + n/2. Each iteration is an MPI_Barrier, then
 *              the first half sends `bytes` to its partner and receives
 *              them back, then the second half does the same; each rank
 *              times its own round trip (DMPI_TSTART/TSTOP: not the
 *              barrier, not its partner's turn), and the iteration's time
 *              is the longest of them (mpi.h; blink's max_duration). With
 *              an odd n (blink refuses it) the last rank only joins the
 *              barrier. Half an iteration is the worst pair's latency.
 *   put-incast  blink's RMA incast (inc_put.c, the incast of SC'20's
 *              study; Fig. 12's bursty aggressor): each iteration is an
 *              MPI_Barrier, then every rank but `peer` (the target, 0)
 *              MPI_Puts `bytes` into the target's window inside a fence
 *              epoch — modelled as the Put, MPI_Win_flush and a second
 *              MPI_Barrier (the closing MPI_Win_fence completes every Put
 *              of the epoch on every rank). With `burst` = b > 0 every
 *              rank pauses `gap` after each b-th iteration, so bursts of
 *              b messages a sender start together on every rank, as
 *              blink's do behind their barrier (blink times its bursts
 *              and pauses in seconds, -blength/-bpause; SC'20 Fig. 12
 *              counts messages and microseconds).
 * Each iteration starts with a compute phase of `compute` ps (0), as the
 * motifs' arg.compute.
 */
#ifndef DFSIM_APP_MICRO_H
#define DFSIM_APP_MICRO_H

#include <stdint.h>

#include "core/time.h"
#include "mpi/mpi.h"

enum micro_kind {
    MICRO_PINGPONG,
    MICRO_ALLREDUCE,
    MICRO_ALLTOALL,
    MICRO_BCAST,
    MICRO_BARRIER,
    MICRO_INCAST,
    MICRO_BW,
    MICRO_BIBW,
    MICRO_BISECTION,
    MICRO_PW_PINGPONG,
    MICRO_PUT_INCAST,
    MICRO_KIND_COUNT
};

extern const char *const micro_kind_names[]; /* NULL-terminated */

struct micro_params {
    enum micro_kind kind;
    uint64_t bytes;      /* message size (per peer for alltoall) */
    uint32_t iterations;
    uint32_t peer;       /* pingpong, bw, bibw: rank 0's partner;
                            bcast: root; incast, put-incast: target */
    uint32_t window;     /* bw, bibw, bisection: messages in flight per
                            iteration */
    simtime compute;     /* before each iteration */
    uint32_t burst;      /* put-incast: iterations per burst (0: no
                            pause) */
    simtime gap;         /* put-incast: the pause after every burst */
    uint32_t barrier_after; /* bisection: a barrier of the job's ranks
                            before this iteration (osu_mbw_mr's after its
                            `skip` warm-up iterations); 0: none */
};

struct micro {
    struct micro_params p;
    uint32_t nranks;
    uint32_t *iter;      /* [nranks]: iterations emitted */
    uint32_t *sub;       /* [nranks]: the incast target's receives
                            (bw, bibw, bisection: every rank's
                            operations) emitted in its current
                            iteration */
};

/* Prepare the program for nranks ranks. Returns 0, or -1 (out of memory,
 * or a peer outside the job: a message in err). */
int micro_init(struct micro *mb, const struct micro_params *p,
               uint32_t nranks, char *err, size_t err_cap);
void micro_free(struct micro *mb);

/* The dmpi_app of it. */
struct dmpi_app micro_app(struct micro *mb);

#endif
