/* app/proxy_fft.c — a distributed 3-D FFT as FFTW 3's MPI interface
 * computes it, as a proxy (app/proxy.h, "fft").
 *
 * Source: SC'19 §5 ("Fast Fourier Transform (FFT) ... We used the
 * benchmark provided by the fftw library [18]", i.e. FFTW's mpi-bench)
 * and FFTW 3's MPI sources (repo FFTW/fftw3, read for this file:
 * mpi/mpi-bench.c, dft-rank-geq2.c, dft-rank-geq2-transposed.c,
 * dft-rank1-bigvec.c, transpose-alltoall.c, transpose-pairwise.c,
 * block.c). The flop count is FFTW's benchmark convention (benchFFT:
 * 5 N log2 N for a complex transform of N points).
 */
#include "app/proxy_build.h"

#include <math.h>

int proxy_build_fft(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    const struct proxy_params *p = &x->p;
    uint32_t P = x->nranks;
    if (p->periodic)
        FAIL("fft: periodic is not an FFT parameter (give false)");
    if (p->px || p->py || p->pz || p->pt > 1)
        FAIL("fft: the ranks hold slabs of the first dimension (FFTW's "
             "MPI layout); px py pz are not FFT parameters (give 0)");
    if (!p->nx || !p->ny || !p->nz)
        FAIL("fft: nx ny nz (the transform's size) must be positive");
    /* FFTW's default block is ceil(n0 / P) planes; with P dividing n0
     * and n1 every rank holds a slab and every pair exchanges the same
     * block, which transpose-alltoall.c sends with MPI_Alltoall (other
     * counts take MPI_Alltoallv, some ranks idle: not modelled) */
    if (p->nx % P || p->ny % P)
        FAIL("fft: the job's %u ranks must divide nx (%u) and ny (%u): "
             "equal slabs and transpose blocks (FFTW's MPI_Alltoall; "
             "uneven ones use MPI_Alltoallv, not modelled)", P, p->nx,
             p->ny);
    x->grid[0] = P, x->grid[1] = x->grid[2] = x->grid[3] = 1;

    double n0 = p->nx, n1 = p->ny, n2 = p->nz, f = p->peflops;
    double local = n0 * n1 * n2 / P; /* complex points a rank holds */
    /* one block of the distributed transpose of the n0 x n1 matrix of
     * n2-point vectors (dft-rank1-bigvec: vn = n1·n2 >= P), double
     * complex values */
    uint64_t block = (uint64_t)(p->nx / P) * (p->ny / P) * p->nz * 16;

    /* dft-rank-geq2: the 2-D DFTs of the rank's n0/P planes (n1 x n2) */
    bld_compute(b, 5 * local * log2(n1 * n2) / f);
    /* dft-rank1-bigvec: global transpose, the n1/P x n2 1-D DFTs of
     * length n0, global transpose back (FFTW_MPI_TRANSPOSED_OUT skips
     * the second: dft-rank-geq2-transposed) */
    bld_alltoall(b, block);
    bld_compute(b, 5 * local * log2(n0) / f);
    if (!p->transposed_out)
        bld_alltoall(b, block);
    bld_mark(b);
    return 0;
}
