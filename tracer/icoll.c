/* tracer/icoll.c — the non-blocking collectives.
 *
 * Records, as Score-P's (SCOREP_Mpi_C_Coll.c, its MPI_I* wrappers): a
 * request id taken from the counter, Enter, NonBlockingCollectiveRequest(
 * id), the PMPI call, Leave; the request is remembered (tracer/req.c)
 * with the op, communicator, root and byte counts of the blocking form
 * (tracer/coll_bytes.c, computed before the call), and the wait or test
 * that completes it writes NonBlockingCollectiveComplete(op, comm, root,
 * sent, received, id). root is the root's rank in the communicator for
 * Ibcast, Igather(v), Iscatter(v) and Ireduce, OTF2_UNDEFINED_UINT32
 * otherwise. A call that fails writes its request record but no
 * completion (Score-P's too). */
#include "trace.h"
#include "coll_bytes.h"

#define NO_ROOT (-1)

/* Enter r and say a request id is being made; the id. */
static uint64_t icoll_begin(enum trace_region r)
{
    uint64_t id = trace_request_id();
    trace_enter(r);
    OTF2_EvtWriter_NonBlockingCollectiveRequest(tracer.evt, NULL, trace_now(),
                                                id);
    return id;
}

static void icoll_end(enum trace_region r, int rc, MPI_Request *req,
                      uint64_t id, OTF2_CollectiveOp op, MPI_Comm comm,
                      int root, struct coll_bytes b)
{
    if (rc == MPI_SUCCESS)
        trace_req_add_icoll(req, id, op, trace_comm_ref(comm), root, b.sent,
                            b.received);
    trace_leave(r);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ibarrier(comm, req);
    uint64_t id = icoll_begin(TR_MPI_Ibarrier);
    int rc = PMPI_Ibarrier(comm, req);
    icoll_end(TR_MPI_Ibarrier, rc, req, id, OTF2_COLLECTIVE_OP_BARRIER, comm,
              NO_ROOT, (struct coll_bytes){ 0, 0 });
    return rc;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
               MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ibcast(buf, count, type, root, comm, req);
    struct coll_bytes b =
        cb_rooted(count, type, count, type, root, false, false, comm);
    uint64_t id = icoll_begin(TR_MPI_Ibcast);
    int rc = PMPI_Ibcast(buf, count, type, root, comm, req);
    icoll_end(TR_MPI_Ibcast, rc, req, id, OTF2_COLLECTIVE_OP_BCAST, comm,
              root, b);
    return rc;
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root,
                            comm, req);
    struct coll_bytes b = cb_rooted(scount, stype, rcount, rtype, root,
                                    sbuf == MPI_IN_PLACE, true, comm);
    uint64_t id = icoll_begin(TR_MPI_Igather);
    int rc = PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                          req);
    icoll_end(TR_MPI_Igather, rc, req, id, OTF2_COLLECTIVE_OP_GATHER, comm,
              root, b);
    return rc;
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype,
                 int root, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                             rtype, root, comm, req);
    struct coll_bytes b = cb_gatherv(scount, stype, rcounts, rtype, root,
                                     sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Igatherv);
    int rc = PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                           root, comm, req);
    icoll_end(TR_MPI_Igatherv, rc, req, id, OTF2_COLLECTIVE_OP_GATHERV, comm,
              root, b);
    return rc;
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                             comm, req);
    struct coll_bytes b = cb_rooted(scount, stype, rcount, rtype, root,
                                    rbuf == MPI_IN_PLACE, false, comm);
    uint64_t id = icoll_begin(TR_MPI_Iscatter);
    int rc = PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                           comm, req);
    icoll_end(TR_MPI_Iscatter, rc, req, id, OTF2_COLLECTIVE_OP_SCATTER, comm,
              root, b);
    return rc;
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount,
                              rtype, root, comm, req);
    struct coll_bytes b = cb_scatterv(scounts, stype, rcount, rtype, root,
                                      rbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Iscatterv);
    int rc = PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                            root, comm, req);
    icoll_end(TR_MPI_Iscatterv, rc, req, id, OTF2_COLLECTIVE_OP_SCATTERV,
              comm, root, b);
    return rc;
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                               req);
    struct coll_bytes b = cb_alltoall(scount, stype, rcount, rtype,
                                      sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Iallgather);
    int rc = PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                             req);
    icoll_end(TR_MPI_Iallgather, rc, req, id, OTF2_COLLECTIVE_OP_ALLGATHER,
              comm, NO_ROOT, b);
    return rc;
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int rcounts[], const int displs[],
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                                rtype, comm, req);
    struct coll_bytes b = cb_allgatherv(scount, stype, rcounts, rtype,
                                        sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Iallgatherv);
    int rc = PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                              rtype, comm, req);
    icoll_end(TR_MPI_Iallgatherv, rc, req, id, OTF2_COLLECTIVE_OP_ALLGATHERV,
              comm, NO_ROOT, b);
    return rc;
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                              req);
    struct coll_bytes b = cb_alltoall(scount, stype, rcount, rtype,
                                      sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Ialltoall);
    int rc = PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                            req);
    icoll_end(TR_MPI_Ialltoall, rc, req, id, OTF2_COLLECTIVE_OP_ALLTOALL,
              comm, NO_ROOT, b);
    return rc;
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                               rdispls, rtype, comm, req);
    struct coll_bytes b = cb_alltoallv(scounts, stype, rcounts, rtype,
                                       sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Ialltoallv);
    int rc = PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                             rdispls, rtype, comm, req);
    icoll_end(TR_MPI_Ialltoallv, rc, req, id, OTF2_COLLECTIVE_OP_ALLTOALLV,
              comm, NO_ROOT, b);
    return rc;
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
    struct coll_bytes b = cb_rooted(count, type, count, type, root,
                                    sbuf == MPI_IN_PLACE, true, comm);
    uint64_t id = icoll_begin(TR_MPI_Ireduce);
    int rc = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
    icoll_end(TR_MPI_Ireduce, rc, req, id, OTF2_COLLECTIVE_OP_REDUCE, comm,
              root, b);
    return rc;
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
    struct coll_bytes b = cb_alltoall(count, type, count, type,
                                      sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Iallreduce);
    int rc = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
    icoll_end(TR_MPI_Iallreduce, rc, req, id, OTF2_COLLECTIVE_OP_ALLREDUCE,
              comm, NO_ROOT, b);
    return rc;
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req);
    struct coll_bytes b =
        cb_reduce_scatter(rcounts, type, sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Ireduce_scatter);
    int rc = PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req);
    icoll_end(TR_MPI_Ireduce_scatter, rc, req, id,
              OTF2_COLLECTIVE_OP_REDUCE_SCATTER, comm, NO_ROOT, b);
    return rc;
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm,
                                          req);
    struct coll_bytes b =
        cb_reduce_scatter_block(rcount, type, sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Ireduce_scatter_block);
    int rc = PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm,
                                        req);
    icoll_end(TR_MPI_Ireduce_scatter_block, rc, req, id,
              OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, comm, NO_ROOT, b);
    return rc;
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req);
    struct coll_bytes b = cb_scan(count, type, sbuf == MPI_IN_PLACE, comm);
    uint64_t id = icoll_begin(TR_MPI_Iscan);
    int rc = PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req);
    icoll_end(TR_MPI_Iscan, rc, req, id, OTF2_COLLECTIVE_OP_SCAN, comm,
              NO_ROOT, b);
    return rc;
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req);
    struct coll_bytes b = cb_scan(count, type, true, comm);
    uint64_t id = icoll_begin(TR_MPI_Iexscan);
    int rc = PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req);
    icoll_end(TR_MPI_Iexscan, rc, req, id, OTF2_COLLECTIVE_OP_EXSCAN, comm,
              NO_ROOT, b);
    return rc;
}
