/* examples/traces/nbc.c — non-blocking collectives overlapped with
 * compute: per iteration an MPI_Iallreduce (sum) of COUNT doubles and an
 * MPI_Ibcast of COUNT doubles from rank it % n, a fixed compute loop
 * while they run, then MPI_Wait on the Ibcast and MPI_Waitall on both
 * (the Ibcast's request is already null there). Deterministic.
 *
 *   mpirun -np 4 nbc [ITER (20)] [COUNT (1024)]
 *
 * Records per rank and iteration: NonBlockingCollectiveRequest in each
 * call, then NonBlockingCollectiveComplete(BCAST, comm 0, root it % n,
 * root: n*COUNT*8, COUNT*8; others: 0, COUNT*8) in the Wait and
 * NonBlockingCollectiveComplete(ALLREDUCE, comm 0, no root, n*COUNT*8,
 * n*COUNT*8) in the Waitall (Score-P's bytes). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double compute(long n)
{
    double x = 1.0;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 20;
    int count = argc > 2 ? atoi(argv[2]) : 1024;
    double *in = malloc((size_t)count * sizeof *in);
    double *out = malloc((size_t)count * sizeof *out);
    double *b = malloc((size_t)count * sizeof *b);
    for (int i = 0; i < count; i++)
        in[i] = b[i] = rank + i;
    volatile double sink = 0;
    for (int it = 0; it < iters; it++) {
        MPI_Request req[2];
        MPI_Iallreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD,
                       &req[0]);
        MPI_Ibcast(b, count, MPI_DOUBLE, it % size, MPI_COMM_WORLD, &req[1]);
        sink += compute(50000);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        in[0] = out[0] / size + b[0];
    }
    if (rank == 0)
        printf("nbc: %d ranks, %d x %d doubles, first %g\n", size, iters,
               count, out[0]);
    free(in);
    free(out);
    free(b);
    MPI_Finalize();
    return sink < 0;
}
