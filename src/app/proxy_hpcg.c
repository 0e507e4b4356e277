/* app/proxy_hpcg.c — the HPCG benchmark's timed conjugate gradient as a
 * proxy (app/proxy.h, "hpcg").
 *
 * Source: the reference implementation (repo hpcg-benchmark/hpcg, read
 * for this file: main.cpp, CG_ref.cpp, ComputeMG_ref.cpp,
 * ComputeSYMGS_ref.cpp, ComputeSPMV_ref.cpp, ComputeDotProduct_ref.cpp,
 * ExchangeHalo.cpp, SetupHalo_ref.cpp, GenerateGeometry.cpp,
 * GenerateCoarseProblem.cpp, CheckAspectRatio.cpp, ReportResults.cpp,
 * MGData.hpp, bin/hpcg.dat) and Dongarra, Heroux, Luszczek, "HPCG
 * Benchmark: a New Metric for Ranking High Performance Computing
 * Systems", UT-EECS-15-736 (SC'19's reference [15]).
 */
#include "app/proxy_build.h"

#include <math.h>

#define HPCG_MAX_LEVELS 8

/* Points of the neighbour at offset o (each -1, 0, 1) a rank's 27-point
 * rows reach on a level of n[] points per side: a face's n·n, an edge's
 * n, a corner's 1 (SetupHalo_ref: the distinct rows a neighbour's
 * columns touch). */
static uint64_t reach(const uint32_t n[3], const int o[3])
{
    uint64_t v = 1;
    for (int d = 0; d < 3; d++)
        v *= o[d] ? 1 : n[d];
    return v;
}

/* HPCG's CheckAspectRatio: the smallest side over the largest at least
 * 0.125, for the local problem and for the process grid (main.cpp refuses
 * to run otherwise). */
static bool aspect_ok(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t lo = a < b ? a : b, hi = a > b ? a : b;
    lo = c < lo ? c : lo, hi = c > hi ? c : hi;
    return (double)lo / hi >= 0.125;
}

/* ExchangeHalo: MPI_Irecv from every neighbour, a blocking MPI_Send to
 * each in turn, MPI_Wait on the receives (one tag block per exchange,
 * where HPCG uses tag 99 for all: the same matches, in order) */
static void exchange(struct bld *b, uint32_t first)
{
    uint32_t tag = bld_new_tag(b);
    bld_p2p(b, PH_IRECV, first, 26, tag);
    bld_p2p(b, PH_SEND, first, 26, tag);
    bld_waitall(b);
}

int proxy_build_hpcg(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    const struct proxy_params *p = &x->p;
    if (p->periodic)
        FAIL("hpcg: HPCG's problem has no periodic boundaries "
             "(GenerateProblem_ref: neighbours inside the global box only)");
    if (p->levels < 1 || p->levels > HPCG_MAX_LEVELS)
        FAIL("hpcg: levels must be 1 to %d (HPCG: 4)", HPCG_MAX_LEVELS);
    uint32_t div = 1u << (p->levels - 1);
    if (!p->nx || !p->ny || !p->nz || p->nx % div || p->ny % div ||
        p->nz % div)
        FAIL("hpcg: nx ny nz (%u %u %u) must be positive multiples of %u: "
             "each of the %u coarser levels halves them "
             "(GenerateCoarseProblem)", p->nx, p->ny, p->nz, div,
             p->levels - 1);
    if (!aspect_ok(p->nx, p->ny, p->nz))
        FAIL("hpcg: the local problem %u x %u x %u is too thin: HPCG's "
             "CheckAspectRatio wants the smallest side at least 0.125 of "
             "the largest", p->nx, p->ny, p->nz);
    if (p->pre_sweeps > 64 || p->post_sweeps > 64 || p->coarse_sweeps > 64)
        FAIL("hpcg: at most 64 sweeps");
    if (!(p->nnz_fine > 0))
        FAIL("hpcg: nnz_fine must be positive");
    if (bld_grid_3d(x, "hpcg", err, err_cap) != 0)
        return -1;
    if (!aspect_ok(p->px, p->py, p->pz))
        FAIL("hpcg: the process grid %u x %u x %u is too thin: HPCG's "
             "CheckAspectRatio wants the smallest side at least 0.125 of "
             "the largest (give px py pz, or another rank count)", p->px,
             p->py, p->pz);

    /* Level l: sides n/2^l; its halo entries: the up-to-26 neighbours in
     * SetupHalo_ref's order, ascending rank (x fastest), 8 B a value */
    uint32_t L = p->levels, first[HPCG_MAX_LEVELS];
    double rows[HPCG_MAX_LEVELS] = { 0 };
    for (uint32_t l = 0; l < L; l++) {
        uint32_t n[3] = { p->nx >> l, p->ny >> l, p->nz >> l };
        rows[l] = (double)n[0] * n[1] * n[2];
        first[l] = x->n_ent;
        for (int oz = -1; oz <= 1; oz++)
            for (int oy = -1; oy <= 1; oy++)
                for (int ox = -1; ox <= 1; ox++)
                    if (ox || oy || oz)
                        bld_add_ent(b, ox, oy, oz, 0,
                                    8 * reach(n, (int[3]){ ox, oy, oz }));
    }
    /* flops as ReportResults.cpp counts them: SYMGS 4 per nonzero (a
     * forward and a backward sweep), SpMV 2, a dot product or WAXPBY 2 per
     * row; restriction and prolongation none */
    double nnz = p->nnz_fine, f = p->peflops;
    double n0 = rows[0];

    /* CG_ref, iteration k > 1 (the first skips one WAXPBY) */
    for (uint32_t l = 0; l + 1 < L; l++) { /* ComputeMG_ref, down */
        for (uint32_t s = 0; s < p->pre_sweeps; s++) {
            exchange(b, first[l]); /* ComputeSYMGS_ref */
            bld_compute(b, 4 * nnz * rows[l] / f);
        }
        exchange(b, first[l]); /* ComputeSPMV_ref: residual A x */
        bld_compute(b, 2 * nnz * rows[l] / f);
    }
    for (uint32_t s = 0; s < p->coarse_sweeps; s++) {
        exchange(b, first[L - 1]); /* the coarsest level: SYMGS */
        bld_compute(b, 4 * nnz * rows[L - 1] / f);
    }
    for (uint32_t l = L - 1; l-- > 0;) /* back up: prolongation, post */
        for (uint32_t s = 0; s < p->post_sweeps; s++) {
            exchange(b, first[l]);
            bld_compute(b, 4 * nnz * rows[l] / f);
        }
    bld_compute(b, 2 * n0 / f);          /* rtz = r'z */
    bld_allreduce(b, 8);                 /* ComputeDotProduct_ref */
    bld_compute(b, 2 * n0 / f);          /* p = beta p + z */
    exchange(b, first[0]);               /* Ap = A p */
    bld_compute(b, (2 * nnz + 2) * n0 / f); /* ... and pAp = p'Ap */
    bld_allreduce(b, 8);
    bld_compute(b, 6 * n0 / f);          /* x += alpha p; r -= alpha Ap;
                                            normr = r'r */
    bld_allreduce(b, 8);
    bld_mark(b);
    return 0;
}
