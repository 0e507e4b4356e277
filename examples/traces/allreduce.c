/* examples/traces/allreduce.c — ITER MPI_Allreduce (sum) of COUNT doubles
 * over MPI_COMM_WORLD, a fixed compute loop between them. Deterministic.
 *
 *   mpirun -np 4 allreduce [ITER (20)] [COUNT (1024)]
 *
 * Records per rank: ITER collective pairs ending in MpiCollectiveEnd(
 * ALLREDUCE, comm 0, no root, n*COUNT*8, n*COUNT*8) (Score-P's bytes). */
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
    for (int i = 0; i < count; i++)
        in[i] = rank + i;
    volatile double sink = 0;
    for (int it = 0; it < iters; it++) {
        sink += compute(50000);
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        in[0] = out[0] / size;
    }
    if (rank == 0)
        printf("allreduce: %d ranks, %d x %d doubles, first %g\n", size,
               iters, count, out[0]);
    free(in);
    free(out);
    MPI_Finalize();
    return sink < 0;
}
