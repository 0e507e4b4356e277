/* tracer/coll_bytes.h — the bytes a collective call sends and receives
 * on the calling rank, as Score-P 9 counts them for its
 * MpiCollectiveEnd records (src/adapters/mpi/c/scorep_mpi_coll.inc.c);
 * docs/tracer.md lists them. Intracommunicators only (the tracer gives
 * intercommunicators no id). `inplace`: the send (or, for the scatters,
 * the receive) buffer is MPI_IN_PLACE. */
#ifndef DFSIM_TRACER_COLL_BYTES_H
#define DFSIM_TRACER_COLL_BYTES_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

struct coll_bytes {
    uint64_t sent, received;
};

struct coll_bytes cb_rooted(int sendcount, MPI_Datatype sendtype,
                            int recvcount, MPI_Datatype recvtype, int root,
                            bool inplace, bool to_root, MPI_Comm comm);
struct coll_bytes cb_gatherv(int sendcount, MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype,
                             int root, bool inplace, MPI_Comm comm);
struct coll_bytes cb_scatterv(const int sendcounts[], MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype, int root,
                              bool inplace, MPI_Comm comm);
struct coll_bytes cb_alltoall(int sendcount, MPI_Datatype sendtype,
                              int recvcount, MPI_Datatype recvtype,
                              bool inplace, MPI_Comm comm);
struct coll_bytes cb_alltoallv(const int sendcounts[], MPI_Datatype sendtype,
                               const int recvcounts[], MPI_Datatype recvtype,
                               bool inplace, MPI_Comm comm);
struct coll_bytes cb_alltoallw(const int sendcounts[],
                               const MPI_Datatype sendtypes[],
                               const int recvcounts[],
                               const MPI_Datatype recvtypes[], bool inplace,
                               MPI_Comm comm);
struct coll_bytes cb_allgatherv(int sendcount, MPI_Datatype sendtype,
                                const int recvcounts[], MPI_Datatype recvtype,
                                bool inplace, MPI_Comm comm);
struct coll_bytes cb_reduce_scatter(const int recvcounts[],
                                    MPI_Datatype type, bool inplace,
                                    MPI_Comm comm);
struct coll_bytes cb_reduce_scatter_block(int recvcount, MPI_Datatype type,
                                          bool inplace, MPI_Comm comm);
struct coll_bytes cb_scan(int count, MPI_Datatype type, bool inplace,
                          MPI_Comm comm);

#endif
