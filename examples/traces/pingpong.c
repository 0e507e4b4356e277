/* examples/traces/pingpong.c — blocking ping-pong between rank pairs
 * (0,1), (2,3), ...: for each of three message sizes, ITER round trips of
 * MPI_Send / MPI_Recv, with a fixed compute loop between them. An odd
 * last rank only joins the barriers. Deterministic.
 *
 *   mpirun -np 2 pingpong [ITER (10)] [COMPUTE (20000)]
 *
 * Records per pair and size S (docs/tracer.md): each rank ITER MpiSend
 * and ITER MpiRecv of S bytes; tests/test_tracer.c counts them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 8, 1024, 65536 };

/* n multiply-adds; the result keeps the loop. */
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
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    long work = argc > 2 ? atol(argv[2]) : 20000;
    int peer = rank ^ 1;
    char *buf = calloc(65536, 1);
    volatile double sink = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int i = 0; peer < size && i < iters; i++) {
            if (rank % 2 == 0) {
                MPI_Send(buf, sizes[s], MPI_BYTE, peer, (int)s, MPI_COMM_WORLD);
                MPI_Recv(buf, sizes[s], MPI_BYTE, peer, (int)s, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, sizes[s], MPI_BYTE, peer, (int)s, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                MPI_Send(buf, sizes[s], MPI_BYTE, peer, (int)s, MPI_COMM_WORLD);
            }
            sink += compute(work);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("pingpong: %d ranks, %d round trips of 8, 1024, 65536 B\n",
               size, iters);
    free(buf);
    MPI_Finalize();
    return sink < 0;
}
