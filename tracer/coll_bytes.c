/* tracer/coll_bytes.c — Score-P 9's byte counts of the collectives
 * (scorep_mpi_coll.inc.c), restated: what is counted is the data the
 * calling rank contributes and obtains, not what an algorithm moves.
 * With n ranks in the communicator, me this rank, B = count * type size:
 *
 *   Barrier            0, 0
 *   Gather, Reduce     root: B, n*B (in place: 0, (n-1)*B); others: B, 0
 *   Bcast, Scatter     root: n*B, B (in place: (n-1)*B, 0); others: 0, B
 *                      (Bcast: the root sends n*B, each rank receives B)
 *   Gatherv            root: its own block, the sum of recvcounts (in
 *                      place: 0, the sum less its own); others: B, 0
 *   Scatterv           the same with send and receive exchanged
 *   Allgather, Allreduce, Alltoall
 *                      n*sendB, n*recvB (in place: (n-1)*B both)
 *   Allgatherv         n*sendB, sum of recvcounts (in place: (n-1) * its
 *                      own block, the sum less its own)
 *   Alltoallv, -w      sum of sendcounts, sum of recvcounts (in place: the
 *                      receive sum less its own, both)
 *   Reduce_scatter     sum of recvcounts, n * recvcounts[me] (in place:
 *                      both less its own block)
 *   Reduce_scatter_block  n*B both (in place: (n-1)*B both)
 *   Scan               (n-me)*B, (me+1)*B (in place: (n-me-1)*B, me*B)
 *   Exscan             as Scan in place. */
#include "coll_bytes.h"

static uint64_t tsize(MPI_Datatype t)
{
    int s = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &s) != MPI_SUCCESS ||
        s < 0)
        return 0;
    return (uint64_t)s;
}

static uint64_t ucount(int c)
{
    return c > 0 ? (uint64_t)c : 0;
}

static void rank_size(MPI_Comm comm, int *me, int *n)
{
    *me = 0;
    *n = 1;
    PMPI_Comm_rank(comm, me);
    PMPI_Comm_size(comm, n);
}

/* Gather and Reduce (to_root), Bcast and Scatter (not to_root: Score-P's
 * all-to-one with send and receive exchanged). */
struct coll_bytes cb_rooted(int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype, int root,
                            bool inplace, bool to_root, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    if (!to_root) { /* exchange the roles of send and receive */
        int c = sendcount;
        MPI_Datatype t = sendtype;
        sendcount = recvcount;
        sendtype = recvtype;
        recvcount = c;
        recvtype = t;
    }
    struct coll_bytes b = { 0, 0 };
    if (me == root) {
        uint64_t block = ucount(recvcount) * tsize(recvtype);
        b.sent = inplace ? 0 : block;
        b.received = (uint64_t)(inplace ? n - 1 : n) * block;
    } else {
        b.sent = ucount(sendcount) * tsize(sendtype);
    }
    if (!to_root) {
        uint64_t s = b.sent;
        b.sent = b.received;
        b.received = s;
    }
    return b;
}

struct coll_bytes cb_gatherv(int sendcount, MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype,
                             int root, bool inplace, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    struct coll_bytes b = { 0, 0 };
    if (me != root) {
        b.sent = ucount(sendcount) * tsize(sendtype);
        return b;
    }
    uint64_t s = tsize(recvtype), own = ucount(recvcounts[me]) * s;
    for (int r = 0; r < n; r++)
        b.received += ucount(recvcounts[r]) * s;
    if (inplace)
        b.received -= own;
    else
        b.sent = own;
    return b;
}

struct coll_bytes cb_scatterv(const int sendcounts[], MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype, int root,
                              bool inplace, MPI_Comm comm)
{
    struct coll_bytes g = cb_gatherv(recvcount, recvtype, sendcounts,
                                     sendtype, root, inplace, comm);
    return (struct coll_bytes){ g.received, g.sent };
}

struct coll_bytes cb_alltoall(int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype,
                              bool inplace, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t rb = ucount(recvcount) * tsize(recvtype);
    if (inplace)
        return (struct coll_bytes){ (uint64_t)(n - 1) * rb,
                                    (uint64_t)(n - 1) * rb };
    return (struct coll_bytes){ (uint64_t)n * ucount(sendcount) *
                                    tsize(sendtype),
                                (uint64_t)n * rb };
}

struct coll_bytes cb_alltoallv(const int sendcounts[], MPI_Datatype sendtype,
                               const int recvcounts[], MPI_Datatype recvtype,
                               bool inplace, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t ss = tsize(sendtype), rs = tsize(recvtype);
    struct coll_bytes b = { 0, 0 };
    for (int r = 0; r < n; r++) {
        b.received += ucount(recvcounts[r]) * rs;
        if (!inplace)
            b.sent += ucount(sendcounts[r]) * ss;
    }
    if (inplace) {
        b.received -= ucount(recvcounts[me]) * rs;
        b.sent = b.received;
    }
    return b;
}

struct coll_bytes cb_alltoallw(const int sendcounts[],
                               const MPI_Datatype sendtypes[],
                               const int recvcounts[],
                               const MPI_Datatype recvtypes[], bool inplace,
                               MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    struct coll_bytes b = { 0, 0 };
    for (int r = 0; r < n; r++) {
        b.received += ucount(recvcounts[r]) * tsize(recvtypes[r]);
        if (!inplace)
            b.sent += ucount(sendcounts[r]) * tsize(sendtypes[r]);
    }
    if (inplace) {
        b.received -= ucount(recvcounts[me]) * tsize(recvtypes[me]);
        b.sent = b.received;
    }
    return b;
}

struct coll_bytes cb_allgatherv(int sendcount, MPI_Datatype sendtype,
                                const int recvcounts[], MPI_Datatype recvtype,
                                bool inplace, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t rs = tsize(recvtype), own = ucount(recvcounts[me]) * rs;
    struct coll_bytes b = { 0, 0 };
    for (int r = 0; r < n; r++)
        b.received += ucount(recvcounts[r]) * rs;
    if (inplace) {
        b.received -= own;
        b.sent = (uint64_t)(n - 1) * own;
    } else {
        b.sent = (uint64_t)n * ucount(sendcount) * tsize(sendtype);
    }
    return b;
}

struct coll_bytes cb_reduce_scatter(const int recvcounts[],
                                    MPI_Datatype type, bool inplace,
                                    MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t s = tsize(type), total = 0, own = ucount(recvcounts[me]);
    for (int r = 0; r < n; r++)
        total += ucount(recvcounts[r]);
    if (inplace)
        return (struct coll_bytes){ (total - own) * s,
                                    (uint64_t)(n - 1) * own * s };
    return (struct coll_bytes){ total * s, (uint64_t)n * own * s };
}

struct coll_bytes cb_reduce_scatter_block(int recvcount, MPI_Datatype type,
                                          bool inplace, MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t b = (uint64_t)(inplace ? n - 1 : n) * ucount(recvcount) *
                 tsize(type);
    return (struct coll_bytes){ b, b };
}

struct coll_bytes cb_scan(int count, MPI_Datatype type, bool inplace,
                          MPI_Comm comm)
{
    int me, n;
    rank_size(comm, &me, &n);
    uint64_t b = ucount(count) * tsize(type);
    if (inplace)
        return (struct coll_bytes){ (uint64_t)(n - me - 1) * b,
                                    (uint64_t)me * b };
    return (struct coll_bytes){ (uint64_t)(n - me) * b, (uint64_t)(me + 1) * b };
}
