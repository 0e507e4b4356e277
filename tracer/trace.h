/* tracer/trace.h — the PMPI tracer's state and the calls its wrappers
 * share (docs/tracer.md).
 *
 * What is recorded: for every wrapped MPI call, the records Score-P's MPI
 * adapter writes (Score-P 9, src/adapters/mpi/c/wrappers/), into an OTF2
 * archive with one location per rank. Time is CLOCK_MONOTONIC in ns; what
 * lies between two calls is the application's compute time, kept only as
 * the gap between timestamps.
 *
 * Invariant: `tracer.on` is true from the moment the archive is open
 * (inside MPI_Init) until MPI_Finalize closes it, and only then do the
 * wrappers write; otherwise they are a plain call of the PMPI_ function.
 * The tracer keeps one process-wide state (a PMPI library has no caller
 * to be handed one); calls from several threads at once are not
 * supported (MPI_THREAD_MULTIPLE programs are traced unsafely). */
#ifndef DFSIM_TRACER_TRACE_H
#define DFSIM_TRACER_TRACE_H

#include <mpi.h>
#include <otf2/otf2.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Region ids: the order of tracer/regions.def. */
enum trace_region {
#define REGION(name, role) TR_##name,
#include "regions.def"
#undef REGION
    TR_COUNT
};

/* The communicator ids every rank agrees on (tracer/comm.c). */
#define TRACE_COMM_WORLD 0u
#define TRACE_COMM_SELF 1u

struct tracer {
    bool on;                    /* archive open: wrappers record */
    int rank, size;             /* in MPI_COMM_WORLD */
    OTF2_Archive *archive;
    OTF2_EvtWriter *evt;        /* this rank's location (id = rank) */
    char dir[4096];             /* the archive's folder */
    uint64_t first_ts, last_ts; /* MPI_Init's Enter, MPI_Finalize's Leave */
    uint64_t next_request;      /* request ids: 1, 2, ... per rank */
};

extern struct tracer tracer;

/* ns of CLOCK_MONOTONIC: the clock of every timestamp. */
static inline uint64_t trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Enter region r now (its timestamp returned) and Leave it. */
static inline uint64_t trace_enter(enum trace_region r)
{
    uint64_t t = trace_now();
    OTF2_EvtWriter_Enter(tracer.evt, NULL, t, (OTF2_RegionRef)r);
    return t;
}

static inline void trace_leave(enum trace_region r)
{
    OTF2_EvtWriter_Leave(tracer.evt, NULL, trace_now(), (OTF2_RegionRef)r);
}

/* Bytes of count elements of type (PMPI_Type_size). */
uint64_t trace_bytes(int count, MPI_Datatype type);

/* ---- tracer/archive.c -------------------------------------------------- */

/* Open the archive in the folder DFSIM_TRACE_DIR names (default
 * dfsim-trace-<pid of rank 0>), agreed by all ranks; collective over
 * MPI_COMM_WORLD. On failure it says why on stderr, naming the folder,
 * and leaves tracing off on every rank; the program goes on. */
void trace_archive_open(void);
/* Close the event files and, on rank 0, write the global definitions
 * from what every rank sends it; collective over MPI_COMM_WORLD. */
void trace_archive_close(void);

/* ---- tracer/comm.c ----------------------------------------------------- */

/* Forget every communicator but MPI_COMM_WORLD and MPI_COMM_SELF. */
void trace_comm_init(void);
/* The id of comm in the global definitions; OTF2_UNDEFINED_COMM for a
 * communicator made by a call the tracer does not wrap. */
uint32_t trace_comm_ref(MPI_Comm comm);
/* The definitions of the communicators this rank is rank 0 of, as
 * uint32s: id, parent id, the region that made it, size, then its
 * members' world ranks in its rank order; one after another. malloc'd
 * (free it); *n its length. */
uint32_t *trace_comm_pack(int *n);

/* ---- tracer/req.c ------------------------------------------------------ */

/* Forget every request. */
void trace_req_init(void);
/* A new request id: 1, 2, ... on each rank (Score-P's counter,
 * scorep_mpi_get_request_id). */
static inline uint64_t trace_request_id(void)
{
    return ++tracer.next_request;
}
/* Remember the point-to-point request *req under id (0 for a persistent
 * one, which MPI_Start gives an id each time): a send (dest, tag and
 * bytes for the MpiIsend MPI_Start writes) or a receive. */
void trace_req_add(MPI_Request *req, uint64_t id, bool send, bool persistent,
                   int peer, int tag, uint32_t comm, uint64_t bytes);
/* Remember the non-blocking collective request *req under id: what its
 * NonBlockingCollectiveComplete will say (root -1: none). */
void trace_req_add_icoll(MPI_Request *req, uint64_t id, OTF2_CollectiveOp op,
                         uint32_t comm, int root, uint64_t sent,
                         uint64_t received);

/* ---- tracer/rma.c ------------------------------------------------------ */

/* Forget every window and pending RMA operation. */
void trace_win_init(void);
/* The definitions of the windows this rank is rank 0 of, as uint32s:
 * id, its communicator's id, the region that made it; one after
 * another. malloc'd (free it); *n its length. */
uint32_t *trace_win_pack(int *n);

#endif
