/* tracer/coll.c — the blocking collectives.
 *
 * Records, as Score-P's (SCOREP_Mpi_C_Coll.c): Enter, MpiCollectiveBegin,
 * the PMPI call, MpiCollectiveEnd(op, comm, root, sent, received), Leave.
 * root is the root's rank in the communicator for Bcast, Gather(v),
 * Scatter(v) and Reduce, OTF2_UNDEFINED_UINT32 otherwise; the byte
 * counts are computed before the call (tracer/coll_bytes.c). */
#include "trace.h"
#include "coll_bytes.h"

#define NO_ROOT (-1)

static void coll_begin(enum trace_region r)
{
    trace_enter(r);
    OTF2_EvtWriter_MpiCollectiveBegin(tracer.evt, NULL, trace_now());
}

static void coll_end(enum trace_region r, OTF2_CollectiveOp op,
                     MPI_Comm comm, int root, struct coll_bytes b)
{
    OTF2_EvtWriter_MpiCollectiveEnd(
        tracer.evt, NULL, trace_now(), op, trace_comm_ref(comm),
        root == NO_ROOT ? OTF2_UNDEFINED_UINT32 : (uint32_t)root, b.sent,
        b.received);
    trace_leave(r);
}

int MPI_Barrier(MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Barrier(comm);
    coll_begin(TR_MPI_Barrier);
    int rc = PMPI_Barrier(comm);
    coll_end(TR_MPI_Barrier, OTF2_COLLECTIVE_OP_BARRIER, comm, NO_ROOT,
             (struct coll_bytes){ 0, 0 });
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Bcast(buf, count, type, root, comm);
    struct coll_bytes b =
        cb_rooted(count, type, count, type, root, false, false, comm);
    coll_begin(TR_MPI_Bcast);
    int rc = PMPI_Bcast(buf, count, type, root, comm);
    coll_end(TR_MPI_Bcast, OTF2_COLLECTIVE_OP_BCAST, comm, root, b);
    return rc;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root,
                           comm);
    struct coll_bytes b = cb_rooted(scount, stype, rcount, rtype, root,
                                    sbuf == MPI_IN_PLACE, true, comm);
    coll_begin(TR_MPI_Gather);
    int rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    coll_end(TR_MPI_Gather, OTF2_COLLECTIVE_OP_GATHER, comm, root, b);
    return rc;
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                            root, comm);
    struct coll_bytes b = cb_gatherv(scount, stype, rcounts, rtype, root,
                                     sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Gatherv);
    int rc = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                          root, comm);
    coll_end(TR_MPI_Gatherv, OTF2_COLLECTIVE_OP_GATHERV, comm, root, b);
    return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                            comm);
    struct coll_bytes b = cb_rooted(scount, stype, rcount, rtype, root,
                                    rbuf == MPI_IN_PLACE, false, comm);
    coll_begin(TR_MPI_Scatter);
    int rc = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                          comm);
    coll_end(TR_MPI_Scatter, OTF2_COLLECTIVE_OP_SCATTER, comm, root, b);
    return rc;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount,
                             rtype, root, comm);
    struct coll_bytes b = cb_scatterv(scounts, stype, rcount, rtype, root,
                                      rbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Scatterv);
    int rc = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                           root, comm);
    coll_end(TR_MPI_Scatterv, OTF2_COLLECTIVE_OP_SCATTERV, comm, root, b);
    return rc;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    struct coll_bytes b = cb_alltoall(scount, stype, rcount, rtype,
                                      sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Allgather);
    int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    coll_end(TR_MPI_Allgather, OTF2_COLLECTIVE_OP_ALLGATHER, comm, NO_ROOT, b);
    return rc;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                               rtype, comm);
    struct coll_bytes b = cb_allgatherv(scount, stype, rcounts, rtype,
                                        sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Allgatherv);
    int rc = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                             rtype, comm);
    coll_end(TR_MPI_Allgatherv, OTF2_COLLECTIVE_OP_ALLGATHERV, comm, NO_ROOT,
             b);
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    struct coll_bytes b = cb_alltoall(scount, stype, rcount, rtype,
                                      sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Alltoall);
    int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    coll_end(TR_MPI_Alltoall, OTF2_COLLECTIVE_OP_ALLTOALL, comm, NO_ROOT, b);
    return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                              rdispls, rtype, comm);
    struct coll_bytes b = cb_alltoallv(scounts, stype, rcounts, rtype,
                                       sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Alltoallv);
    int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                            rdispls, rtype, comm);
    coll_end(TR_MPI_Alltoallv, OTF2_COLLECTIVE_OP_ALLTOALLV, comm, NO_ROOT, b);
    return rc;
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf,
                  const int rcounts[], const int rdispls[],
                  const MPI_Datatype rtypes[], MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                              rdispls, rtypes, comm);
    struct coll_bytes b = cb_alltoallw(scounts, stypes, rcounts, rtypes,
                                       sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Alltoallw);
    int rc = PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                            rdispls, rtypes, comm);
    coll_end(TR_MPI_Alltoallw, OTF2_COLLECTIVE_OP_ALLTOALLW, comm, NO_ROOT, b);
    return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    struct coll_bytes b = cb_rooted(count, type, count, type, root,
                                    sbuf == MPI_IN_PLACE, true, comm);
    coll_begin(TR_MPI_Reduce);
    int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    coll_end(TR_MPI_Reduce, OTF2_COLLECTIVE_OP_REDUCE, comm, root, b);
    return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    struct coll_bytes b = cb_alltoall(count, type, count, type,
                                      sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Allreduce);
    int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    coll_end(TR_MPI_Allreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, comm, NO_ROOT, b);
    return rc;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
    struct coll_bytes b =
        cb_reduce_scatter(rcounts, type, sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Reduce_scatter);
    int rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
    coll_end(TR_MPI_Reduce_scatter, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm,
             NO_ROOT, b);
    return rc;
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
    struct coll_bytes b =
        cb_reduce_scatter_block(rcount, type, sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Reduce_scatter_block);
    int rc = PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
    coll_end(TR_MPI_Reduce_scatter_block,
             OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, NO_ROOT, b);
    return rc;
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Scan(sbuf, rbuf, count, type, op, comm);
    struct coll_bytes b = cb_scan(count, type, sbuf == MPI_IN_PLACE, comm);
    coll_begin(TR_MPI_Scan);
    int rc = PMPI_Scan(sbuf, rbuf, count, type, op, comm);
    coll_end(TR_MPI_Scan, OTF2_COLLECTIVE_OP_SCAN, comm, NO_ROOT, b);
    return rc;
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm)
{
    if (!tracer.on)
        return PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
    struct coll_bytes b = cb_scan(count, type, true, comm);
    coll_begin(TR_MPI_Exscan);
    int rc = PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
    coll_end(TR_MPI_Exscan, OTF2_COLLECTIVE_OP_EXSCAN, comm, NO_ROOT, b);
    return rc;
}
