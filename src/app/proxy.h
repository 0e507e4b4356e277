/* app/proxy.h — communication skeletons of the victim applications of the
 * SC'19, SC'20 and Netscope studies (MILC, LAMMPS, AMG, MiniGhost, HPCG,
 * a 3-D FFT) as programs of the MPI-like layer (mpi/op.h), in the style
 * of app/ember.h.
 *
 * Facts and their sources: papers-and-workloads.md §7 ("Victim
 * applications") and §2 "lqcd" (SST ember's MILC motif), and the public
 * sources those sections name (read for this file: sst-elements
 * emberlqcd.cc, milc_qcd generic/com_mpi.c, LAMMPS comm_brick.cpp,
 * verlet.cpp, thermo.cpp, atom_vec_atomic.cpp, bench/in.lj and
 * bench/README, LLNL/AMG docs/amg.README, miniGhost default-settings.h,
 * DRIVER_BSPMA, MG_BSPMA, MG_SEND_BSPMA, MG_SUM_GRID). Values no source
 * gives are parameters whose default says how it was chosen (INFERENCE).
 *
 * Common to all. Ranks sit on a process grid, x fastest (rank r at
 * x = r mod px, y = (r / px) mod py, ...), except MiniGhost's blocked
 * mapping (below). A 3-D grid given as 0 0 0 is chosen as ember chooses
 * halo3d's: among all px·py·pz = ranks, the one whose sides vary least.
 * Every iteration ends with a DMPI_MARK (mpi.h: the job's per-iteration
 * times). Each logical exchange has tags of its own (one block of tags per
 * exchange, one tag per direction of travel inside it), so matching never
 * depends on arrival order. `compute` > 0 replaces the computed time of
 * every compute phase. A neighbour that is the rank itself (a periodic
 * dimension of one rank) gets no message, as the applications copy
 * locally; past the edge of a non-periodic grid there is no neighbour.
 *
 * milc — su3_rmd's conjugate gradient (CG), following ember's lqcd motif
 *   (emberlqcd.cc). The global lattice nx·ny·nz·nt (64^4, ember's
 *   default; MILC's sample input in.sample.l832.su3_rmd.1 is 8^3 x 32) is
 *   split into 4-D blocks by MILC's setup_hyper_prime rule (px py pz pt =
 *   0: repeatedly divide the largest local dimension divisible by the
 *   largest prime factor of the ranks left, preferring a dimension already
 *   divided). One iteration = one CG iteration: for each of the 2
 *   parities, gathers from the 8 neighbours ±x ±y ±z ±t, each a
 *   first-neighbour message of face/2 su3_vectors (48 B) and a 3-hop
 *   "Naik" message of face su3_vectors (ember: face·2/2, "we don't need to
 *   gather the first site twice"), face = local sites / local extent in
 *   that dimension; then wait for the + gathers, compute mmvs4d (288
 *   flops per local site), wait for the − gathers, compute mmvs4d again.
 *   Then an allreduce of 1 double, compute resid (157/2 flops per site),
 *   an allreduce of 1 double. Rate peflops 20e9 (ember). As ops, per
 *   parity: IRECV from each − neighbour, ISEND to each + and each −
 *   neighbour, blocking RECV from each + neighbour (the "wait +": only
 *   those), COMPUTE, WAITALL (the "wait −" and the sends), COMPUTE.
 *   Departures from ember, with reasons: ember's sends are blocking
 *   MPI_Send, which would serialise the ranks along each dimension once
 *   messages are rendezvous-sized (a rank's + send needs its neighbour's
 *   − receive, posted only after that neighbour's own + sends); MILC's
 *   gathers are non-blocking (com_mpi.c do_gather: MPI_Irecv for all, then
 *   MPI_Isend for all; wait_gather waits on them), kept. The + receives
 *   are posted at the wait, not before the sends (the layer's WAITALL
 *   waits on every open request, so a wait on the + gathers alone is
 *   written as blocking receives; early messages wait in the unexpected
 *   queue). Periodic by default (`periodic`): MILC's lattice is periodic
 *   (com_mpi.c wraps neighbour coordinates modulo the lattice size), and a
 *   rank has all 8 neighbours (§7); periodic = false gives ember's motif
 *   (no neighbour past an edge). ember truncates face/2; so does this
 *   (at least one su3_vector). Default 300 iterations: the sample input's
 *   CG cap (max_cg_iterations 300; ember's default is 1).
 *
 * lammps — one velocity-Verlet timestep of the bench/in.lj LJ melt with
 *   `comm_style brick` (Verlet::run, CommBrick): 6 swaps with the
 *   Cartesian neighbours, x then y then z, each first towards the lower
 *   neighbour (receive from the upper), then the other way; per swap
 *   IRECV, blocking SEND, WAITALL (MPI_Irecv / MPI_Send / MPI_Wait).
 *   Ordinary step: forward comm of coordinates (3 doubles per ghost atom,
 *   atom_style atomic size_forward); pair compute; reverse comm of forces
 *   (3 doubles, size_reverse) over the swaps in reverse order when newton
 *   is on (LAMMPS default). Every `reneighbor_every` steps (20: in.lj
 *   `neigh_modify delay 0 every 20 check no`) the forward comm is replaced
 *   by exchange (per dimension: MPI_Sendrecv of the count (4 B) with each
 *   neighbour, then the leaving atoms, 11 doubles each (pack_exchange),
 *   sent to both neighbours — one message if the dimension has 2 ranks,
 *   none if 1) and borders (per swap: Sendrecv of the count, then 6
 *   doubles per ghost atom, size_border), then the neighbour-list build.
 *   Thermo output on steps that are multiples of `thermo_every` and on
 *   the last step (LAMMPS prints the last step of a run; in.lj has no
 *   thermo command, so thermo 0: only then): thermo_style one (step temp
 *   epair emol etotal press) costs 5 allreduces: lost_check (2 bigints,
 *   16 B), temp (8 B), press (virial, 3 doubles, 24 B), pe (8 B), epair
 *   (8 B); emol has none for atomic systems (thermo.cpp). The computes'
 *   own reductions (temp, press, pe) are INFERENCE from their
 *   compute_scalar; thermo.cpp was read.
 *   Geometry: cubic sub-domains of atoms_per_rank atoms (32,000: the
 *   scaled-size benchmark, bench/README) at density 0.8442 (in.lj
 *   `lattice fcc 0.8442`); ghost cut-off = cutoff + skin (2.5 + 0.3, in.lj
 *   pair_style lj/cut 2.5, neighbor 0.3). With side L = (atoms /
 *   density)^(1/3) and r = cutoff + skin, the ghost atoms of one swap are
 *   density·L·L·r (x), density·(L+2r)·L·r (y, the x ghosts included),
 *   density·(L+2r)^2·r (z). Atoms leaving a sub-domain between
 *   re-neighbourings: density·L^2·migrate_depth per face, migrate_depth =
 *   0.1 σ (INFERENCE: mean |v_x| = sqrt(2T/π) = 0.96 σ/τ at in.lj's T =
 *   1.44, over 20 steps of the LJ default dt 0.005 τ). Compute:
 *   pair_ns_per_atom 480 ns per atom and step (the reference's 2-rank
 *   in.lj run: loop 1.48 s, Pair 52 %, 100 steps of 16,000 atoms per
 *   rank), neigh_ns_per_atom 1000 ns per atom and build (INFERENCE: the
 *   13 % of that loop outside Pair and Comm holds Neigh; 5 builds at this
 *   rate are 5 %). Periodic by default (LAMMPS `boundary` default p p p).
 *   Default 100 steps (in.lj `run 100`).
 *
 * amg — AMG2013 problem 1 (amg.README): a 27-point Laplacian on a cube
 *   (Dirichlet: not periodic) of nx·ny·nz points per rank (40^3, the
 *   README's first suggested run), solved by PCG preconditioned with one
 *   BoomerAMG V-cycle per iteration. Levels (5: the README's example):
 *   level l has rows_0 / (coarsen_first · coarsen^(l-1)) rows per rank
 *   (coarsen_first 71 = 500,000 / 7,046, the README's aggressively
 *   coarsened first level; coarsen 7.5 ≈ the geometric mean of its later
 *   ratios 5.6, 7.4, 10), as a block of proportionally shrunk sides (at
 *   least one point each: idle ranks on the coarsest levels are not
 *   modelled). A level's halo reaches 1 point on the fine level (27-point)
 *   and `coarse_reach` points on coarse levels (2: the README's level 2
 *   has up to 142 nonzeros per row, about a 5x5x5 box; INFERENCE); a rank
 *   exchanges with every rank within that reach, so coarse levels whose
 *   local side is smaller than the reach talk to ranks 2 or more away,
 *   with smaller messages: 8 B per point of the neighbour's block within
 *   reach (faces, edges, corners). One exchange = IRECV from all, ISEND to
 *   all, WAITALL (hypre's ParCSR comm package). Per iteration: matvec
 *   (exchange, compute); dot product (allreduce 8 B); vector updates;
 *   krylov_dots − 2 more dot products; the V-cycle: on each level but the
 *   coarsest, pre_sweeps (2) smoothing sweeps (exchange + compute each),
 *   the residual (exchange + compute), restriction (an exchange on the
 *   coarser level, compute); on the coarsest, coarse_sweeps (1) sweeps;
 *   back up, interpolation (coarser-level exchange, compute) and
 *   post_sweeps (2) sweeps (README: sweeps down 2, up 2, coarse 1);
 *   then the last dot product. krylov_dots = 3 (INFERENCE, §7 "2-3":
 *   hypre's PCG takes <s,p>, <r,r> for the two-norm test and <r,s>).
 *   Compute: 2 flops per nonzero (rows × nnz_fine 27 or nnz_coarse 80,
 *   the README's level-2/3 averages 84 and 79) per sweep or matvec;
 *   interp_nnz 4 per row for restriction and interpolation (INFERENCE:
 *   README 1-10 entries per row); 2·(krylov_dots + 3) flops per fine row
 *   for the vector work; peflops 1e9 (INFERENCE: README "1-2 computations
 *   per memory access"; a CSR nonzero is 2 flops for ~12 B, so a rank with
 *   ~6 GB/s of memory bandwidth does ~1 GFLOP/s). Default 20 iterations
 *   (the README's example run).
 *
 * minighost — miniGhost with comm_method 10 (BSPMA: bulk synchronous,
 *   all variables of a face in one message) and its defaults
 *   (default-settings.h): nx·ny·nz = 100^3 points per rank (weak
 *   scaling), num_vars 5, stencil 21 (2D5PT; 22 2D9PT, 23 3D7PT, 24
 *   3D27PT), percent_sum 100, num_tsteps 100, Dirichlet boundaries (bc
 *   31: not periodic). Per time step (DRIVER_BSPMA, MG_BSPMA): IRECV
 *   from each of the up to 6 face neighbours, ISEND to each (MPI_ISEND,
 *   MG_SEND_BSPMA), WAITALL; message = face area × num_vars × 8 B; then
 *   for each variable the stencil (points × stencil points flops: 5, 9,
 *   7, 27; INFERENCE: one flop per point of the stencil) and, for the
 *   first num_vars·percent_sum/100 variables (miniGhost picks them at
 *   random), an allreduce of one value (MG_SUM_GRID). peflops 1e10
 *   (ember halo3d's rate for its stencil; miniGhost gives none).
 *   miniGhost's own default grid is numpes x 1 x 1 (main.c); here 0 0 0
 *   chooses the most cubic grid, and npx npy npz are px py pz.
 *   `mapping`: which rank sits where on the grid. 0 linear: rank order =
 *   grid order, x fastest, so a node's ppn consecutive ranks are a run
 *   along x (and the next rows). 1 blocked: rank r on node r / ppn; each
 *   node's ppn ranks form a compact bx × by × bz sub-block of the grid
 *   (the divisors of px, py, pz with product ppn whose block sends the
 *   fewest halo bytes out of the node), blocks in x-fastest order, ranks
 *   x-fastest inside; more of the halo stays on the node (the layer
 *   passes it through shared memory). Blocked needs ranks to be a
 *   multiple of ppn. 2 random: the ranks take the grid's places in a
 *   seeded random order (Pedretti et al.'s "Random", CUG'13 Fig. 6: a
 *   node's ranks are scattered over the grid, so nearly every face leaves
 *   the node).
 *
 * hpcg — the timed conjugate gradient of the HPCG benchmark (reference
 *   implementation, hpcg-benchmark/hpcg; proxy_hpcg.c names the files
 *   read). A 27-point stencil on nx·ny·nz points per rank (104^3:
 *   bin/hpcg.dat), not periodic, ranks on a 3-D grid x fastest
 *   (GenerateGeometry: ipx = rank mod npx); a grid of 0 0 0 is chosen as
 *   the other kinds' (HPCG's ComputeOptimalShapeXYZ also factors the
 *   ranks into the most cubic grid). The preconditioner is a multigrid
 *   V-cycle of `levels` (4: main.cpp numberOfMgLevels), each halving the
 *   sides (GenerateCoarseProblem, so nx ny nz must be multiples of
 *   2^(levels-1)), with `pre_sweeps` and `post_sweeps` (1 and 1:
 *   MGData.hpp) symmetric Gauss-Seidel sweeps and one on the coarsest
 *   (`coarse_sweeps` 1, ComputeMG_ref). Every SYMGS and SpMV starts with
 *   ExchangeHalo: MPI_Irecv from each of the up to 26 neighbours, a
 *   blocking MPI_Send to each in ascending rank order, MPI_Wait; a
 *   neighbour across a face receives side·side values, across an edge a
 *   side, across a corner one (SetupHalo_ref), 8 B each. One iteration =
 *   CG_ref's loop body: the V-cycle (down: pre sweeps, the residual's
 *   SpMV; the coarsest sweep; up: post sweeps: 3·(levels-1) + 1
 *   exchanges), the dot product r·z (8-byte MPI_Allreduce), p = βp + z,
 *   the SpMV A·p (an exchange), p·Ap (allreduce), two WAXPBYs, r·r
 *   (allreduce). Compute as ReportResults.cpp counts flops: 4 per nonzero
 *   per SYMGS, 2 per SpMV (nnz_fine 27 per row), 2 per row per dot or
 *   WAXPBY, at peflops (1e9: the AMG rate, INFERENCE — HPCG is memory-
 *   bound, a CSR nonzero 2 flops for 12 B). HPCG's CheckAspectRatio is
 *   kept: the local box and the process grid must have their smallest
 *   side at least 0.125 of their largest, else HPCG refuses to run.
 *   Default 50 iterations (main.cpp refMaxIters, one CG set).
 *
 * fft — one complex double-precision 3-D transform of nx·ny·nz points
 *   (global, strong scaling) as FFTW 3's MPI interface computes it, the
 *   benchmark SC'19 Fig. 10 ran (FFTW's mpi-bench; proxy_fft.c names the
 *   files read): slabs of nx/P planes per rank (FFTW's default block;
 *   P must divide nx and ny, so every pair exchanges the same block and
 *   FFTW's transpose uses MPI_Alltoall), the 2-D transforms of the local
 *   planes, a global transpose (MPI_Alltoall of (nx/P)·(ny/P)·nz·16 B
 *   per peer), the 1-D transforms along x, and the transpose back unless
 *   `transposed_out` (FFTW_MPI_TRANSPOSED_OUT, one transpose). Compute:
 *   benchFFT's 5·N·log2 N flops for N points, split as the two local
 *   stages, at peflops (2e9, INFERENCE: a few GFLOP/s per core for large
 *   double-precision 3-D transforms, which are memory-bound). Default
 *   256^3 (SC'19 gives no size; mpi-bench takes it on its command line)
 *   and 10 transforms. Not modelled: FFTW's local rearrangements, its
 *   planner's choice of the pairwise transpose (MPI_Sendrecv rounds).
 *
 * Not modelled: setup phases (MILC's gauge-field setup, LAMMPS's setup
 * and PPPM long-range solvers, AMG's setup phase, miniGhost's spike
 * insertion and checkpointing); MILC's other RHMC phases (force, link
 * fattening) and multi-mass CG; LAMMPS load imbalance, multiple swaps per
 * direction (a cut-off larger than a sub-domain is refused), atom sorting
 * and integration cost; AMG's coarse-grid agglomeration and idle ranks,
 * its GMRES problem 2; miniGhost's diagonal (9- and 27-point) exchange
 * sizes and its other comm_methods; per-message packing and copy costs
 * other than the layer's.
 */
#ifndef DFSIM_APP_PROXY_H
#define DFSIM_APP_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/time.h"
#include "mpi/mpi.h"

enum proxy_kind { PROXY_MILC, PROXY_LAMMPS, PROXY_AMG, PROXY_MINIGHOST,
                  PROXY_HPCG, PROXY_FFT, PROXY_KIND_COUNT };

/* "milc", "lammps", "amg", "minighost", "hpcg", "fft", NULL */
extern const char *const proxy_kind_names[];

/* Flat parameters: only scalars, so that an experiment file's schema can
 * bind each field by offset. proxy_defaults fills every field for its
 * kind; fields of other kinds are ignored. */
struct proxy_params {
    enum proxy_kind kind;
    uint32_t iterations;     /* CG iterations (milc, hpcg), timesteps
                                (lammps), PCG iterations (amg), time
                                steps (minighost), transforms (fft) */

    /* process grid (all kinds; 0 0 0 (0): chosen, see above) */
    uint32_t px, py, pz;     /* minighost's npx npy npz */
    uint32_t pt;             /* milc only: 4th dimension */

    /* domain: milc's global lattice; amg's, minighost's and hpcg's
     * points per rank (weak scaling); fft's global transform; unused by
     * lammps */
    uint32_t nx, ny, nz;
    uint32_t nt;             /* milc only */
    double peflops;          /* flop/s per rank (all but lammps) */
    bool periodic;           /* milc, lammps (amg and minighost refuse it:
                                their originals have Dirichlet
                                boundaries) */

    /* lammps */
    uint32_t atoms_per_rank;
    double density;          /* atoms per σ^3 */
    double cutoff, skin;     /* σ; ghost cut-off = cutoff + skin */
    double migrate_depth;    /* σ: atoms this close to a face leave through
                                it between re-neighbourings */
    uint32_t forward_bytes;  /* per ghost atom: forward comm (24) */
    uint32_t reverse_bytes;  /* reverse comm (24) */
    uint32_t border_bytes;   /* borders (48) */
    uint32_t exchange_bytes; /* per migrating atom (88) */
    uint32_t reneighbor_every; /* steps (0: never) */
    uint32_t thermo_every;   /* steps (0: last step only) */
    bool newton;             /* reverse comm of forces */
    double pair_ns_per_atom; /* pair compute, ns per atom and step */
    double neigh_ns_per_atom; /* neighbour-list build, ns per atom */

    /* amg (hpcg: levels, the three sweeps, nnz_fine) */
    uint32_t levels;         /* 1 .. 32 (hpcg 1 .. 8) */
    double coarsen_first;    /* row ratio level 0 -> 1 */
    double coarsen;          /* row ratio of each later level */
    uint32_t coarse_reach;   /* halo reach on coarse levels, points 1..4 */
    uint32_t pre_sweeps, post_sweeps, coarse_sweeps; /* 0 .. 64 */
    uint32_t krylov_dots;    /* allreduces per iteration, 1 .. 64 */
    double nnz_fine, nnz_coarse; /* nonzeros per row */
    double interp_nnz;       /* interpolation entries per row */

    /* minighost */
    uint32_t num_vars;       /* 1 .. 1024 */
    uint32_t stencil;        /* 21 2D5PT, 22 2D9PT, 23 3D7PT, 24 3D27PT */
    uint32_t percent_sum;    /* 0 .. 100 */
    uint32_t mapping;        /* 0 linear, 1 blocked, 2 random */
    uint64_t seed;           /* mapping 2: the permutation is drawn from
                                rng_stream(seed, RNG_WORKLOAD, instance)
                                (the workload layer sets both: the run's
                                seed and the job's index) */
    uint32_t instance;

    /* fft */
    bool transposed_out;     /* FFTW_MPI_TRANSPOSED_OUT: one transpose */

    simtime compute;         /* if > 0, replaces every computed compute
                                phase */
};

/* The defaults of `kind` (see the header comment for their sources). */
void proxy_defaults(struct proxy_params *p, enum proxy_kind kind);

struct proxy_phase;          /* proxy.c: one step of an iteration */
struct proxy_ent;            /* one neighbour of an exchange */
struct proxy_cursor;         /* a rank's place in its program */

struct proxy {
    struct proxy_params p;   /* as given, with the grid filled in */
    uint32_t nranks, ppn;
    uint32_t grid[4];        /* ranks along x, y, z, t (t: 1 but milc) */
    uint32_t block[3];       /* minighost blocked mapping: a node's
                                sub-block (1 1 1 when linear or random) */
    simtime t_iter;          /* compute time of one ordinary iteration
                                (lammps: a step without re-neighbouring
                                or thermo) */
    struct proxy_phase *ph;  /* the iteration's steps, built at init */
    uint32_t n_ph, ph_cap;
    struct proxy_ent *ent;   /* neighbour lists the steps index */
    uint32_t n_ent, ent_cap;
    uint32_t n_groups;       /* tag blocks used */
    uint32_t *pos_of;        /* [nranks] grid position of a rank; NULL:
                                linear */
    uint32_t *rank_at;       /* [nranks] inverse of pos_of */
    struct proxy_cursor *cur; /* [nranks] */
};

/* Prepare the program for nranks ranks placed ppn to a node (used by the
 * blocked mapping). Returns 0, or -1 with one sentence in err (parameters
 * out of range, a grid that does not hold the ranks, a lattice the ranks
 * cannot divide, out of memory); proxy_free is harmless either way. */
int proxy_init(struct proxy *x, const struct proxy_params *p,
               uint32_t nranks, uint32_t ppn, char *err, size_t err_cap);
void proxy_free(struct proxy *x);

/* The dmpi_app of it; its next() allocates nothing. */
struct dmpi_app proxy_app(struct proxy *x);

/* The rank at offset off (x, y, z, t) from rank r on the grid, or
 * UINT32_MAX if none (past a non-periodic edge, or r itself). */
uint32_t proxy_neighbour(const struct proxy *x, uint32_t r,
                         const int8_t off[4]);

#endif
