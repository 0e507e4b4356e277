/* examples/traces/rma.c — one-sided communication on a window of 2*COUNT
 * bytes per rank (MPI_Win_create over MPI_COMM_WORLD): per iteration a
 * fence, each rank MPI_Puts COUNT bytes into its right neighbour's window
 * and MPI_Gets COUNT bytes from its left neighbour's, a fence; then one
 * passive-target epoch: MPI_Win_lock(EXCLUSIVE, 0), an MPI_Accumulate of
 * one int (sum) into rank 0, MPI_Win_unlock(0); and MPI_Win_free.
 * Deterministic.
 *
 *   mpirun -np 4 rma [ITER (20)] [COUNT (1024)]
 *
 * Records per rank (docs/tracer.md): RmaWinCreate; per iteration RmaPut(
 * w, right, COUNT) and RmaGet(w, left, COUNT) (matching ids of their own
 * unless right == left), then two fence RmaCollectiveEnd(BARRIER,
 * PROCESS|MEMORY) with one RmaOpCompleteNonBlocking per target in the
 * second; RmaRequestLock(w, 0, 0, EXCLUSIVE), RmaAtomic(w, 0, ACCUMULATE,
 * 4, 0), RmaOpCompleteNonBlocking + RmaOpCompleteRemote and
 * RmaReleaseLock(w, 0, 0) in the unlock; RmaWinDestroy. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    /* [0, count): what the left neighbour puts; [count, 2*count): what
     * the right one gets; an int at the end for the accumulate */
    size_t bytes = 2 * (size_t)count + sizeof(int);
    char *mem = calloc(bytes, 1), *send = malloc((size_t)count + 1);
    char *got = malloc((size_t)count + 1);
    memset(send, 'a' + rank % 26, (size_t)count + 1);
    memset(mem + count, 'A' + rank % 26, (size_t)count);
    MPI_Win win;
    MPI_Win_create(mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    volatile double sink = 0;
    for (int it = 0; it < iters; it++) {
        sink += compute(50000);
        MPI_Win_fence(0, win);
        MPI_Put(send, count, MPI_BYTE, right, 0, count, MPI_BYTE, win);
        MPI_Get(got, count, MPI_BYTE, left, count, count, MPI_BYTE, win);
        MPI_Win_fence(0, win);
    }
    int one = 1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 2 * count, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int total;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        memcpy(&total, mem + 2 * count, sizeof total);
        MPI_Win_unlock(0, win);
        printf("rma: %d ranks, %d x %d bytes, got '%c' '%c', %d accumulated\n",
               size, iters, count, mem[0], got[0], total);
    }
    MPI_Win_free(&win);
    free(mem);
    free(send);
    free(got);
    MPI_Finalize();
    return sink < 0;
}
