/* mpi/op.h — one operation of a rank's program, as the MPI-like layer
 * executes it.
 *
 * What is modelled: the stream of MPI calls an application process makes,
 * as SST/ember's motifs emit them (papers-and-workloads.md §2): compute
 * phases are delays; point-to-point calls carry a peer, a size and a tag;
 * one-sided calls (MPI_Put / MPI_Get into the peer's window, then
 * MPI_Win_flush) serve GPCNeT's RMA congestors; collectives name the
 * operation and its size, and the layer turns them into point-to-point
 * messages with the algorithm an MPI library would choose (mpi/coll.h).
 * Ranks are numbered within their job (the job's MPI_COMM_WORLD);
 * workloads that need sub-communicators are several jobs.
 *
 * The layer's own prefix is mpi_ in file names and dmpi_ in symbols
 * (DESIGN.md: never MPI_/PMPI_, which belong to the real MPI).
 */
#ifndef DFSIM_MPI_OP_H
#define DFSIM_MPI_OP_H

#include <stdint.h>

enum dmpi_code {
    DMPI_COMPUTE,   /* arg: the delay, ps */
    DMPI_SEND,      /* blocking MPI_Send of `bytes` to `peer` with `tag` */
    DMPI_RECV,      /* blocking MPI_Recv from `peer` (DMPI_ANY) with `tag`
                       (DMPI_ANY); `bytes`: the receive buffer's size */
    DMPI_ISEND,     /* MPI_Isend: the request joins the rank's open ones */
    DMPI_IRECV,     /* MPI_Irecv, likewise */
    DMPI_WAITALL,   /* MPI_Waitall over every open anonymous request of
                       the rank (those posted with req 0) */
    DMPI_PUT,       /* MPI_Put of `bytes` into `peer`'s window (returns at
                       once; completes at the next flush) */
    DMPI_GET,       /* MPI_Get of `bytes` from `peer`'s window */
    DMPI_FLUSH,     /* MPI_Win_flush_all: wait for the rank's PUTs/GETs */
    DMPI_BARRIER,   /* collectives over the job's ranks; every rank of */
    DMPI_BCAST,     /* the job calls them in the same order. bytes: the */
    DMPI_REDUCE,    /* buffer per rank (alltoall: per peer); peer: the */
    DMPI_ALLREDUCE, /* root (bcast, reduce) */
    DMPI_ALLGATHER,
    DMPI_ALLTOALL,
    DMPI_MARK,      /* no MPI call: the end of iteration `arg` of the
                       workload (the job's per-iteration times) */
    DMPI_TSTART,    /* no MPI call: MPI_Wtime() where the timed part of */
    DMPI_TSTOP,     /* the iteration starts / stops (mpi.h: timed
                       iterations) */
    DMPI_WAIT,      /* MPI_Wait on the request the rank posted with handle
                       `req` (an ISEND or IRECV with that `req`); already
                       complete: returns at once (after the receive
                       overheads owed). arg 1: more DMPI_WAITs of the same
                       call follow (an MPI_Waitall of several), so the
                       receive overheads are paid after the last, as
                       DMPI_WAITALL pays them */
    DMPI_CODE_COUNT
};

#define DMPI_ANY UINT32_MAX /* MPI_ANY_SOURCE / MPI_ANY_TAG */

struct dmpi_op {
    uint8_t code;   /* enum dmpi_code */
    uint8_t pad_[3];
    uint32_t peer;  /* rank within the job, DMPI_ANY, or the root */
    uint32_t tag;   /* user tags are < DMPI_TAG_COLL */
    uint32_t req;   /* DMPI_ISEND / DMPI_IRECV: 0, an anonymous request
                       (DMPI_WAITALL waits for it); h > 0: the request's
                       handle, waited for by DMPI_WAIT h alone (a trace's
                       MPI_Request: app/otf2.c). Handles are the rank's
                       own small numbers, reusable once waited for */
    uint64_t bytes; /* message or buffer size */
    uint64_t arg;   /* DMPI_COMPUTE: ps; DMPI_MARK: iteration */
};

/* Tags at or above this are the layer's own (collectives' messages). */
#define DMPI_TAG_COLL 0x40000000u

#endif
