/* examples/traces/anyreq.c — a ring with non-blocking completion by
 * MPI_Test polling and MPI_Waitany: each iteration a rank posts an
 * MPI_Irecv from its left neighbour and an MPI_Isend to its right one,
 * polls the receive with MPI_Test between slices of compute (each
 * unsuccessful test is an MpiRequestTest record), then completes both
 * with MPI_Waitany; and a persistent MPI_Send_init / MPI_Recv_init pair
 * started with MPI_Startall and waited with MPI_Waitall. Deterministic
 * in its messages (the number of tests depends on timing).
 *
 *   mpirun -np 4 anyreq [ITER (10)] [N (4096)] */
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
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    int n = argc > 2 ? atoi(argv[2]) : 4096;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    char *sbuf = calloc((size_t)n, 1), *rbuf = calloc((size_t)n, 1);
    volatile double sink = 0;
    for (int it = 0; it < iters; it++) {
        MPI_Request req[2];
        int done = 0, flag = 0, index;
        MPI_Irecv(rbuf, n, MPI_BYTE, left, 7, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(sbuf, n, MPI_BYTE, right, 7, MPI_COMM_WORLD, &req[1]);
        for (int slice = 0; slice < 4 && !flag; slice++) {
            sink += compute(5000);
            MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        }
        done = flag;
        while (done < 2) {
            MPI_Waitany(2, req, &index, MPI_STATUS_IGNORE);
            if (index == MPI_UNDEFINED)
                break;
            done++;
        }
    }
    MPI_Request pers[2];
    MPI_Recv_init(rbuf, n, MPI_BYTE, left, 8, MPI_COMM_WORLD, &pers[0]);
    MPI_Send_init(sbuf, n, MPI_BYTE, right, 8, MPI_COMM_WORLD, &pers[1]);
    for (int it = 0; it < iters; it++) {
        MPI_Startall(2, pers);
        sink += compute(5000);
        MPI_Waitall(2, pers, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&pers[0]);
    MPI_Request_free(&pers[1]);
    if (rank == 0)
        printf("anyreq: %d ranks, %d iterations of %d B\n", size, iters, n);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return sink < 0;
}
