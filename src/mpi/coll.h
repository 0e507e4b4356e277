/* mpi/coll.h — collectives as schedules of point-to-point operations.
 *
 * What is modelled: the algorithms MPICH (and so Cray MPICH, which derives
 * from it) runs for each collective on a flat communicator, chosen by
 * message size and process count as MPICH's `*_intra_auto` functions do with
 * their default CVARs (Thakur, Rabenseifner & Gropp, "Optimization of
 * Collective Communication Operations in MPICH", IJHPCA 19(1), 2005; the
 * CVAR defaults of pmodels/mpich src/mpi/coll/<coll>/<coll>.c):
 *
 *   barrier    dissemination (Hensgen, Finkel & Manber 1988):
 *              ceil(log2 p) rounds, round k sends to r + 2^k and receives
 *              from r - 2^k.
 *   bcast      bytes < bcast_short_msg_size or p < bcast_min_procs:
 *              binomial tree; else bytes < bcast_long_msg_size and p a
 *              power of two: binomial scatter + recursive-doubling
 *              allgather; else binomial scatter + ring allgather (van de
 *              Geijn's long-message broadcast).
 *   reduce     binomial tree to the root, combining after each receive.
 *              (MPICH switches to Rabenseifner's reduce-scatter + gather
 *              above MPIR_CVAR_REDUCE_SHORT_MSG_SIZE = 2048 B for built-in
 *              ops; not modelled: reduce is binomial at every size.)
 *   allreduce  bytes <= allreduce_short_msg_size or count < p' (count =
 *              ceil(bytes / datatype_bytes), p' the largest power of two
 *              <= p): recursive doubling; else Rabenseifner
 *              (reduce-scatter by recursive halving + allgather by
 *              recursive doubling). Both fold non-power-of-two p as MPICH
 *              does: of the first 2(p - p') ranks each even one sends its
 *              vector to the odd one above it and sits out; the odd ones
 *              and the rest (p' ranks) run the algorithm; at the end each
 *              odd one sends the result back down.
 *   allgather  total = p * bytes; total < allgather_long_msg_size and p a
 *              power of two: recursive doubling; else total <
 *              allgather_short_msg_size: Bruck; else ring.
 *   alltoall   bytes <= alltoall_medium_msg_size: "scattered" — blocks of
 *              alltoall_throttle irecvs + isends then a waitall;
 *              else pairwise exchange: p - 1 rounds, round k sends to
 *              r XOR k and receives from it when p is a power of two
 *              (as GPCNeT's a2a congestor), else sends to (r + k) mod p
 *              and receives from (r - k) mod p. (MPICH uses Bruck's
 *              alltoall for bytes <= 256 at p >= 8; not modelled: those
 *              sizes use the scattered algorithm. A rank's block to
 *              itself is a local copy and sends nothing.)
 *
 * A blocking MPI_Send/MPI_Recv inside an algorithm becomes ISEND (IRECV)
 * followed by WAITALL; an MPI_Sendrecv becomes IRECV, ISEND, WAITALL (the
 * receive is always posted before the send of the same round). Combining a
 * received vector is a DMPI_COMPUTE of reduce_ps_per_byte x its bytes,
 * after the WAITALL that completes the receive.
 *
 * Network limits (documented choices, not MPICH's):
 *   - no message has 0 bytes: where MPICH sends an empty message (barrier;
 *     a 0-byte piece of a broadcast's allgather when the buffer is split
 *     into more pieces than it has bytes) the message carries
 *     max(1, bytes) bytes, a barrier message barrier_bytes (min 1). Where
 *     MPICH skips a send of nothing (the broadcast's scatter) so do we. A
 *     collective of 0 bytes (other than barrier) expands to nothing, as
 *     MPICH returns at once for count 0.
 *   - no message exceeds max_msg_bytes (at most UINT32_MAX, the network's
 *     size field): a larger one goes as several messages of at most that
 *     size, one after the other with the same peer and tag, and the
 *     receiver posts as many receives (an MPI library's own segmentation).
 *
 * Tags: every message of the collective numbered `seq` has tag
 * DMPI_TAG_COLL + seq mod 2^30 (so tags stay in [DMPI_TAG_COLL,
 * 0x7fffffff] and never equal DMPI_ANY). Inside one collective MPI's
 * non-overtaking order (per source and tag) matches the messages, as in
 * MPICH, which also uses one tag per collective.
 *
 * What is carried (for traces and tests): every ISEND and IRECV of a
 * collective with data (not alltoall) has in `arg`, which point-to-point
 * ops do not otherwise use, the pieces of the buffer it carries and what
 * the receiver does with them: DMPI_COLL_ARG(first, count, how). Pieces
 * are numbered per algorithm: one piece (0, 1) for whole-buffer
 * algorithms; piece i = rank i's block for allgather (ranges wrap modulo
 * p in Bruck's); piece i = the block of relative rank i (rank - root mod
 * p) for the scatter-allgather broadcasts; piece i of p' for
 * Rabenseifner. When a message is split (max_msg_bytes) only its last
 * part carries the annotation; the others have arg 0.
 *
 * Invariants: the functions are pure (no simulator state); every rank's
 * expansion depends only on (params, op, rank, nranks, seq), and the p
 * expansions of one collective match each other send for receive.
 */
#ifndef DFSIM_MPI_COLL_H
#define DFSIM_MPI_COLL_H

#include <stdint.h>

#include "mpi/op.h"

struct dmpi_coll_params {
    uint64_t allreduce_short_msg_size; /* recursive doubling at bytes <= this
                                          (MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE
                                          = 2048) */
    uint64_t bcast_short_msg_size;  /* binomial at bytes < this
                                       (MPIR_CVAR_BCAST_SHORT_MSG_SIZE =
                                       12288) */
    uint64_t bcast_long_msg_size;   /* scatter + recursive doubling below
                                       this, ring at and above
                                       (MPIR_CVAR_BCAST_LONG_MSG_SIZE =
                                       524288) */
    uint32_t bcast_min_procs;       /* binomial when p < this
                                       (MPIR_CVAR_BCAST_MIN_PROCS = 8) */
    uint32_t alltoall_throttle;     /* requests per block of the scattered
                                       alltoall; 0: all p at once
                                       (MPIR_CVAR_ALLTOALL_THROTTLE = 32) */
    uint64_t allgather_short_msg_size; /* Bruck when p * bytes < this
                                          (MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE
                                          = 81920) */
    uint64_t allgather_long_msg_size;  /* recursive doubling when p * bytes
                                          < this and p a power of two
                                          (MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE
                                          = 524288) */
    uint64_t alltoall_medium_msg_size; /* scattered at bytes <= this, else
                                          pairwise
                                          (MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE
                                          = 32768) */
    uint64_t datatype_bytes;        /* element size: allreduce's count and
                                       Rabenseifner's split are in elements
                                       (8: MPI_DOUBLE, the type of GPCNeT's
                                       and ember's allreduces) */
    uint64_t barrier_bytes;         /* size of a barrier message (MPICH
                                       sends 0 bytes; the network cannot):
                                       8 */
    uint64_t reduce_ps_per_byte;    /* combining cost per byte received:
                                       100 ps (see dmpi_coll_defaults) */
    uint64_t max_msg_bytes;         /* largest single message; larger ones
                                       are split (UINT32_MAX, the network's
                                       limit; 0 or above it: UINT32_MAX) */
};

/* Fill *p with the defaults above (MPICH's CVAR defaults). */
void dmpi_coll_defaults(struct dmpi_coll_params *p);

/* Write rank `rank`'s part (of `nranks` ranks) of collective `op` (code
 * DMPI_BARRIER..DMPI_ALLTOALL; op->bytes the buffer per rank, per peer for
 * alltoall; op->peer the root for bcast and reduce, < nranks) as
 * DMPI_ISEND / DMPI_IRECV / DMPI_WAITALL / DMPI_COMPUTE ops into
 * out[0..cap). Peers are ranks of the job; tags are >= DMPI_TAG_COLL and
 * derive from `seq`, the collective's number in the job (every rank calls
 * the job's collectives in the same order, so every rank gives the same
 * seq). Returns how many ops the expansion has; when that exceeds cap,
 * out holds only the first cap of them and the caller grows `out` and
 * calls again (out may be NULL when cap is 0). A rank of a 1-rank job,
 * and every rank of a 0-byte non-barrier collective, gets 0 ops. A
 * non-collective code, rank >= nranks or a root >= nranks is a broken
 * invariant (assert). */
uint32_t dmpi_coll_expand(const struct dmpi_coll_params *p,
                          const struct dmpi_op *op, uint32_t rank,
                          uint32_t nranks, uint32_t seq, struct dmpi_op *out,
                          uint32_t cap);

/* Name of the algorithm dmpi_coll_expand uses for `op` on `nranks` ranks
 * (for reports): "dissemination", "binomial", "scatter-recursive-doubling",
 * "scatter-ring", "recursive-doubling", "rabenseifner", "bruck", "ring",
 * "scattered", "pairwise", or "none" when the expansion is empty (1 rank,
 * or 0 bytes). A static string. */
const char *dmpi_coll_algorithm(const struct dmpi_coll_params *p,
                                const struct dmpi_op *op, uint32_t nranks);

/* What the receiver does with the pieces a message carries. */
enum dmpi_coll_how {
    DMPI_COLL_COPY = 1,  /* they replace its own (a result, broadcast data) */
    DMPI_COLL_SUM = 2,   /* it combines them with its own (a reduction) */
    DMPI_COLL_UNION = 3  /* it notes who has arrived (barrier) */
};

/* The annotation of a message (see above): pieces first..first+count-1
 * (count >= 1; both < 2^28), and how. Bit 63 is set, so an annotated arg is
 * never 0. */
#define DMPI_COLL_ARG(first, count, how)                                     \
    ((uint64_t)1 << 63 | (uint64_t)(how) << 56 | (uint64_t)(first) << 28 |  \
     (uint64_t)(count))
#define DMPI_COLL_ARG_FIRST(arg) ((uint32_t)((arg) >> 28) & 0x0fffffffu)
#define DMPI_COLL_ARG_COUNT(arg) ((uint32_t)(arg) & 0x0fffffffu)
#define DMPI_COLL_ARG_HOW(arg) ((uint32_t)((arg) >> 56) & 0x7fu)

#endif
