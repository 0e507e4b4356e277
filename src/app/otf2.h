/* app/otf2.h — the otf2 workload: an OTF2 trace of a real MPI program
 * (Score-P's, or dfsim's own tracer's: docs/tracer.md) replayed through
 * the MPI-like layer (issue 56). docs/workloads/otf2.md is its page.
 *
 * What is replayed. Rank i of the job is MPI_COMM_WORLD's rank i of the
 * trace (the job needs at least the trace's ranks, nodes x ppn; ranks
 * beyond them do nothing). Each rank's
 * events are read in order (app/otf2_trace.h, streamed) and every MPI
 * call (an Enter/Leave pair of an MPI region) becomes the operations of
 * the layer that make the same call on the simulated machine:
 *
 *   MPI_Send & co (MpiSend)        DMPI_SEND to the receiver's world rank
 *   MPI_Recv (MpiRecv)             DMPI_RECV from the recorded source, of
 *                                  the recorded size (the source and tag
 *                                  the real run matched: never "any")
 *   MPI_Sendrecv (both)            IRECV, ISEND, then a wait for each
 *   MPI_Isend (MpiIsend)           DMPI_ISEND with a handle of its own
 *   MPI_Irecv (MpiIrecvRequest)    DMPI_IRECV with a handle, posted where
 *                                  the call was, with the source, tag and
 *                                  size its completion (MpiIrecv) records
 *                                  later: the reader looks ahead to it
 *   a completion in any wait or    DMPI_WAIT on that request's handle,
 *   test (MpiIsendComplete,        in the order recorded; a test that
 *   MpiIrecv)                      completed nothing (MpiRequestTest)
 *                                  waits for nothing
 *   collectives (MpiCollectiveEnd) on a communicator whose ranks are the
 *                                  world's in order: the layer's own
 *                                  collective (MPICH's algorithms, mpi/
 *                                  coll.h), as a native workload's; on
 *                                  another communicator: the same
 *                                  algorithms over its ranks; v-forms and
 *                                  the rest as listed in the page
 *   non-blocking collectives       the collective at its call (the order
 *                                  every rank agrees on), sized by its
 *                                  completion, read ahead
 *   MPI_Put, MPI_Get, accumulate   DMPI_PUT / DMPI_GET to the window's
 *                                  rank; fence: a flush and a barrier on
 *                                  the window's communicator; unlock,
 *                                  flush, complete, wait: a flush
 *   compute                        the time from the end of one MPI call
 *                                  to the start of the next, as measured,
 *                                  times `compute_scale` (0: a
 *                                  communication-only replay); the time
 *                                  inside MPI calls is the simulation's
 *
 * Limits, each refused by name rather than replayed wrongly: tags of
 * 2^20 or more; more than 512 communicators; a message to a rank outside
 * its communicator; a communicator or window never defined; a
 * non-blocking collective never completed. A message of 0 bytes travels as 1 byte
 * (the network carries messages of 1 byte or more).
 *
 * Each replay of the whole trace is one iteration (a DMPI_MARK per
 * rank); `iterations` > 1 replays it again from its first record, each
 * rank as soon as it has finished the previous one (as a loop around the
 * program would), so that routing variants can alternate by iteration.
 */
#ifndef DFSIM_APP_OTF2_H
#define DFSIM_APP_OTF2_H

#include <stddef.h>
#include <stdint.h>

#include "mpi/mpi.h"

struct otf2_params {
    const char *trace;     /* the archive's anchor file (DIR/traces.otf2);
                              relative: from the experiment file's folder */
    double compute_scale;  /* recorded compute gaps x this (1.0; 0: none) */
    uint32_t iterations;   /* the trace replayed this many times back to
                              back, each an iteration (1) */
};

void otf2_defaults(struct otf2_params *p);

struct otf2_replay;
struct otf2_wl {
    struct otf2_replay *r;
};

/* Open the trace for a job of `nranks` ranks read from experiment file
 * `file` (NULL: paths from the working directory): 0, or -1 with a
 * sentence in err (naming the trace) and nothing to free. */
int otf2_init(struct otf2_wl *w, const struct otf2_params *p,
              uint32_t nranks, const char *file, char *err, size_t cap);
void otf2_free(struct otf2_wl *w);
struct dmpi_app otf2_app(struct otf2_wl *w);

#endif
