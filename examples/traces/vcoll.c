/* examples/traces/vcoll.c — the rooted and v-collectives: per iteration
 * MPI_Bcast, MPI_Scatterv and MPI_Gatherv (rank r's block r+1 times
 * COUNT ints), MPI_Allgatherv, MPI_Alltoallv, MPI_Reduce, MPI_Scan and
 * MPI_Barrier, with a compute loop. Deterministic.
 *
 *   mpirun -np 4 vcoll [ITER (5)] [COUNT (64)] */
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
    int iters = argc > 1 ? atoi(argv[1]) : 5;
    int count = argc > 2 ? atoi(argv[2]) : 64;
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    int total = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (r + 1) * count;
        displs[r] = total;
        total += counts[r];
    }
    int *all = calloc((size_t)total * size, sizeof *all);
    int *mine = calloc((size_t)total, sizeof *mine);
    int a2a[64], a2d[64];
    volatile double sink = 0;
    for (int r = 0; r < size && r < 64; r++) {
        a2a[r] = count;
        a2d[r] = r * count;
    }
    for (int it = 0; it < iters; it++) {
        int root = it % size;
        MPI_Bcast(mine, count, MPI_INT, root, MPI_COMM_WORLD);
        MPI_Scatterv(all, counts, displs, MPI_INT, mine, counts[rank],
                     MPI_INT, root, MPI_COMM_WORLD);
        sink += compute(20000);
        MPI_Gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT,
                    root, MPI_COMM_WORLD);
        MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs,
                       MPI_INT, MPI_COMM_WORLD);
        if (size <= 64)
            MPI_Alltoallv(all, a2a, a2d, MPI_INT, mine, a2a, a2d, MPI_INT,
                          MPI_COMM_WORLD);
        MPI_Reduce(mine, all, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        MPI_Scan(mine, all, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("vcoll: %d ranks, %d iterations\n", size, iters);
    free(counts);
    free(displs);
    free(all);
    free(mine);
    MPI_Finalize();
    return sink < 0;
}
