/* app/ember.h — SST/ember's halo3d and sweep3d motifs as programs of the
 * MPI-like layer (mpi/op.h), the stencil benchmarks of the SC'19 and
 * SC'20 studies.
 *
 * What is modelled (papers-and-workloads.md §2, from sst-elements'
 * emberhalo3d and embersweep3d):
 *
 * halo3d: ranks on a px × py × pz grid (0: chosen as ember does — among
 *   all i·j·k = ranks, the one whose sides vary least), rank r at
 *   x = r mod px, y = (r mod px·py) / px, z = r / (px·py); non-periodic
 *   (no neighbour past an edge). Each rank holds nx × ny × nz cells of
 *   `fields` values of `width` bytes. Per iteration: compute (nx·ny·nz·
 *   fields·flops_per_cell / peflops s, or `compute` if given), then for X,
 *   Y and Z in turn: receive from both neighbours (non-blocking), blocking
 *   sends to both (faces fields·width·ny·nz, ·nx·nz, ·nx·ny bytes), wait;
 *   then, if `reduce`, an allreduce of 8 bytes.
 *   Defaults (ember): nx = ny = nz = 100, fields 1, width 8, flops per
 *   cell 26, peflops 1e10, reduce on.
 *
 * sweep3d: ranks on a px × py grid (px·py = ranks; 0 0: chosen as halo's
 *   2-D analogue), neighbours x±1, y±px, non-periodic. One iteration is
 *   8 sweeps (ember's outer loop runs 2·iterations times over the four
 *   corners), each over nz/kba blocks of k-planes: blocking receives from
 *   the two upstream neighbours (x: nx·kba·width·fields bytes, y: ny·kba·
 *   width·fields — ember sizes the x message with nx and the y message with
 *   ny, kept), compute (ember's nsCompute = nx·ny·flops_per_cell /
 *   nodeflops per plane, times kba·fields per block, as ember), blocking
 *   sends downstream; the sweep flows away from its corner. Defaults (ember): nx = ny = nz = 50, kba 1,
 *   width 8, fields 8, flops per cell 275, nodeflops 1e9.
 */
#ifndef DFSIM_APP_EMBER_H
#define DFSIM_APP_EMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/time.h"
#include "mpi/mpi.h"

enum ember_kind { EMBER_HALO3D, EMBER_SWEEP3D };

struct ember_params {
    enum ember_kind kind;
    uint32_t px, py, pz;      /* process grid; 0: chosen (halo3d) */
    uint32_t nx, ny, nz;      /* cells per rank */
    uint32_t fields;          /* values per cell */
    uint32_t width;           /* bytes per value */
    uint32_t kba;             /* sweep3d: k-planes per block */
    double flops_per_cell;
    double flops;             /* per second: halo peflops, sweep nodeflops */
    simtime compute;          /* if > 0, replaces the computed time */
    bool reduce;              /* halo3d: allreduce after each iteration */
    uint32_t iterations;
};

/* ember's choice of a 3-D process grid for n ranks (emberhalo3d.cc):
 * among i·j·k = n, the one whose sides have the least variance (first
 * found, i then j ascending). Also used by the proxy apps (app/proxy.h). */
void ember_grid3(uint32_t n, uint32_t *px, uint32_t *py, uint32_t *pz);

/* ember's defaults for `kind`. */
void ember_defaults(struct ember_params *p, enum ember_kind kind);

struct ember {
    struct ember_params p;
    uint32_t nranks;
    simtime t_compute;        /* per iteration (halo) or per plane block */
    uint32_t *iter;           /* [nranks] iterations emitted */
    uint32_t *step;           /* [nranks] sweep3d: position in iteration */
};

/* Prepare for nranks ranks: choose the grid if needed. Returns 0, or -1
 * with the reason in err (a grid that does not hold the ranks, nz not a
 * multiple of kba, out of memory). */
int ember_init(struct ember *e, const struct ember_params *p,
               uint32_t nranks, char *err, size_t err_cap);
void ember_free(struct ember *e);
struct dmpi_app ember_app(struct ember *e);

/* The neighbour of rank r one step along `dim` (0 x, 1 y, 2 z) in
 * direction dir (-1 or +1), or UINT32_MAX past an edge. */
uint32_t ember_neighbour(const struct ember *e, uint32_t r, int dim,
                         int dir);

#endif
