/* examples/traces/halo.c — a 2-D halo exchange on a periodic Cartesian
 * communicator (MPI_Dims_create's grid, no reordering): each iteration
 * posts four MPI_Irecv and four MPI_Isend of N doubles to its neighbours,
 * MPI_Waitall on the eight, computes, then sums a residual over its row
 * (an MPI_Comm_split of the grid by row) with MPI_Allreduce. Both
 * communicators are freed at the end. Deterministic.
 *
 *   mpirun -np 4 halo [ITER (10)] [N (512)]
 *
 * Records per rank and iteration: 4 MpiIsend and 4 MpiIrecvRequest, their
 * 4 MpiIsendComplete and 4 MpiIrecv in MPI_Waitall, and an Allreduce on
 * the row communicator (tests/test_tracer.c checks them). */
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
    int size, rank, dims[2] = { 0, 0 }, periods[2] = { 1, 1 }, coords[2];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    int n = argc > 2 ? atoi(argv[2]) : 512;
    MPI_Dims_create(size, 2, dims);
    MPI_Comm grid, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Comm_rank(grid, &rank);
    MPI_Cart_coords(grid, rank, 2, coords);
    MPI_Comm_split(grid, coords[0], coords[1], &row);
    int nb[4]; /* -dim0, +dim0, -dim1, +dim1 */
    MPI_Cart_shift(grid, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(grid, 1, 1, &nb[2], &nb[3]);
    double *out = calloc(4 * (size_t)n, sizeof *out);
    double *in = calloc(4 * (size_t)n, sizeof *in);
    volatile double sink = 0;
    for (int it = 0; it < iters; it++) {
        MPI_Request req[8];
        for (int d = 0; d < 4; d++) /* from nb[d], sent by it towards d^1 */
            MPI_Irecv(in + d * n, n, MPI_DOUBLE, nb[d], d ^ 1, grid, &req[d]);
        for (int d = 0; d < 4; d++)
            MPI_Isend(out + d * n, n, MPI_DOUBLE, nb[d], d, grid, &req[4 + d]);
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
        double local = compute(40000) + in[0], sum = 0;
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, row);
        sink += sum;
    }
    if (rank == 0)
        printf("halo: %d x %d grid, %d iterations of %d doubles\n", dims[0],
               dims[1], iters, n);
    free(out);
    free(in);
    MPI_Comm_free(&row);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return sink < 0;
}
