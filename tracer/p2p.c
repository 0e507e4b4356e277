/* tracer/p2p.c — point-to-point calls: blocking sends and receives,
 * Sendrecv, the non-blocking starts, probes and persistent requests.
 *
 * Records, as Score-P's (SCOREP_Mpi_C_P2p.c): a send writes
 * MpiSend(dest, comm, tag, count * type size) after Enter, a receive
 * MpiRecv(source, comm, tag, bytes received: PMPI_Get_count in bytes)
 * from its status before Leave; MPI_Isend & co write MpiIsend(..., id)
 * before the PMPI call, MPI_Irecv MpiIrecvRequest(id) after it; the
 * completion is written by the wait or test that sees it (tracer/req.c).
 * Nothing is written for MPI_PROC_NULL. Persistent requests
 * (MPI_*send_init, MPI_Recv_init) write nothing until MPI_Start. Ranks
 * are ranks in the communicator, as MPI gives them. */
#include "trace.h"

typedef int send_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int isend_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                     MPI_Request *);

static void send_record(int dest, int count, MPI_Datatype type, int tag,
                        MPI_Comm comm)
{
    if (dest == MPI_PROC_NULL)
        return;
    OTF2_EvtWriter_MpiSend(tracer.evt, NULL, trace_now(), (uint32_t)dest,
                           trace_comm_ref(comm), (uint32_t)tag,
                           trace_bytes(count, type));
}

static void recv_record(int rc, const MPI_Status *st, MPI_Comm comm)
{
    int bytes = 0;
    if (rc != MPI_SUCCESS || st->MPI_SOURCE == MPI_PROC_NULL)
        return;
    if (PMPI_Get_count(st, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0)
        bytes = 0;
    OTF2_EvtWriter_MpiRecv(tracer.evt, NULL, trace_now(),
                           (uint32_t)st->MPI_SOURCE, trace_comm_ref(comm),
                           (uint32_t)st->MPI_TAG, (uint64_t)bytes);
}

static int blocking_send(enum trace_region r, send_fn *fn, const void *buf,
                         int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm)
{
    if (!tracer.on)
        return fn(buf, count, type, dest, tag, comm);
    trace_enter(r);
    send_record(dest, count, type, tag, comm);
    int rc = fn(buf, count, type, dest, tag, comm);
    trace_leave(r);
    return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm)
{
    return blocking_send(TR_MPI_Send, PMPI_Send, buf, count, type, dest, tag,
                         comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
    return blocking_send(TR_MPI_Ssend, PMPI_Ssend, buf, count, type, dest,
                         tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
    return blocking_send(TR_MPI_Bsend, PMPI_Bsend, buf, count, type, dest,
                         tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
    return blocking_send(TR_MPI_Rsend, PMPI_Rsend, buf, count, type, dest,
                         tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    trace_enter(TR_MPI_Recv);
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
    if (source != MPI_PROC_NULL)
        recv_record(rc, st, comm);
    trace_leave(TR_MPI_Recv);
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
                             rtype, source, rtag, comm, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    trace_enter(TR_MPI_Sendrecv);
    send_record(dest, scount, stype, stag, comm);
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
                           rtype, source, rtag, comm, st);
    if (source != MPI_PROC_NULL)
        recv_record(rc, st, comm);
    trace_leave(TR_MPI_Sendrecv);
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source,
                                     rtag, comm, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    trace_enter(TR_MPI_Sendrecv_replace);
    send_record(dest, count, type, stag, comm);
    int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source,
                                   rtag, comm, st);
    if (source != MPI_PROC_NULL)
        recv_record(rc, st, comm);
    trace_leave(TR_MPI_Sendrecv_replace);
    return rc;
}

/* ---- non-blocking ------------------------------------------------------ */

static int nonblocking_send(enum trace_region r, isend_fn *fn,
                            const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm,
                            MPI_Request *req)
{
    if (!tracer.on)
        return fn(buf, count, type, dest, tag, comm, req);
    trace_enter(r);
    uint64_t id = 0, bytes = trace_bytes(count, type);
    uint32_t ref = trace_comm_ref(comm);
    if (dest != MPI_PROC_NULL) {
        id = trace_request_id();
        OTF2_EvtWriter_MpiIsend(tracer.evt, NULL, trace_now(), (uint32_t)dest,
                                ref, (uint32_t)tag, bytes, id);
    }
    int rc = fn(buf, count, type, dest, tag, comm, req);
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
        trace_req_add(req, id, true, false, dest, tag, ref, bytes);
    trace_leave(r);
    return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, MPI_Request *req)
{
    return nonblocking_send(TR_MPI_Isend, PMPI_Isend, buf, count, type, dest,
                            tag, comm, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
    return nonblocking_send(TR_MPI_Issend, PMPI_Issend, buf, count, type,
                            dest, tag, comm, req);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
    return nonblocking_send(TR_MPI_Ibsend, PMPI_Ibsend, buf, count, type,
                            dest, tag, comm, req);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
    return nonblocking_send(TR_MPI_Irsend, PMPI_Irsend, buf, count, type,
                            dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Irecv(buf, count, type, source, tag, comm, req);
    trace_enter(TR_MPI_Irecv);
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
        uint64_t id = trace_request_id();
        OTF2_EvtWriter_MpiIrecvRequest(tracer.evt, NULL, trace_now(), id);
        trace_req_add(req, id, false, false, source, tag,
                      trace_comm_ref(comm), trace_bytes(count, type));
    }
    trace_leave(TR_MPI_Irecv);
    return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Probe(source, tag, comm, status);
    trace_enter(TR_MPI_Probe);
    int rc = PMPI_Probe(source, tag, comm, status);
    trace_leave(TR_MPI_Probe);
    return rc;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Iprobe(source, tag, comm, flag, status);
    trace_enter(TR_MPI_Iprobe);
    int rc = PMPI_Iprobe(source, tag, comm, flag, status);
    trace_leave(TR_MPI_Iprobe);
    return rc;
}

/* ---- persistent -------------------------------------------------------- */

typedef int send_init_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm,
                         MPI_Request *);

static int send_init(enum trace_region r, send_init_fn *fn, const void *buf,
                     int count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return fn(buf, count, type, dest, tag, comm, req);
    trace_enter(r);
    int rc = fn(buf, count, type, dest, tag, comm, req);
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
        trace_req_add(req, 0, true, true, dest, tag, trace_comm_ref(comm),
                      trace_bytes(count, type));
    trace_leave(r);
    return rc;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init(TR_MPI_Send_init, PMPI_Send_init, buf, count, type, dest,
                     tag, comm, req);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init(TR_MPI_Ssend_init, PMPI_Ssend_init, buf, count, type,
                     dest, tag, comm, req);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init(TR_MPI_Bsend_init, PMPI_Bsend_init, buf, count, type,
                     dest, tag, comm, req);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return send_init(TR_MPI_Rsend_init, PMPI_Rsend_init, buf, count, type,
                     dest, tag, comm, req);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Recv_init(buf, count, type, source, tag, comm, req);
    trace_enter(TR_MPI_Recv_init);
    int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
        trace_req_add(req, 0, false, true, source, tag, trace_comm_ref(comm),
                      trace_bytes(count, type));
    trace_leave(TR_MPI_Recv_init);
    return rc;
}
