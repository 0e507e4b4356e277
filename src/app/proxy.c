/* app/proxy.c — proxy-application skeletons (see proxy.h).
 *
 * How it works: proxy_init builds one iteration of the application as a
 * list of steps (struct proxy_phase, app/proxy_build.h; HPCG's and the
 * FFT's builders have files of their own) shared by every rank: a compute
 * delay, a collective, a WAITALL, the mark, or a point-to-point step over
 * a list of grid offsets (struct proxy_ent), each offset one message to or
 * from the rank at that offset (none if there is no rank there). A step
 * can be conditional (LAMMPS: re-neighbouring and thermo steps); the
 * condition depends only on the iteration, so all ranks agree. next()
 * walks a rank's cursor (iteration, step, offset) through the list,
 * emitting operations until the layer's buffer is full; it allocates
 * nothing.
 *
 * Tags: each logical exchange takes a block of 2^17 tags (x->n_groups
 * blocks per iteration, at most DMPI_TAG_COLL >> 17); inside a block a
 * message's tag is the code of its direction of travel, so a message sent
 * to offset o and the receive its peer posts from offset -o carry the same
 * tag, and two messages between the same pair in one exchange (a periodic
 * dimension of two ranks) never match each other's receives.
 */
#include "app/proxy.h"
#include "app/proxy_build.h"

#include "core/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_RANK UINT32_MAX
#define MAX_GROUPS (DMPI_TAG_COLL >> PROXY_TAG_SHIFT)
#define OFF_MAX 8 /* |offset| per dimension; 17^4 codes < 2^17 */

const char *const proxy_kind_names[] = { "milc", "lammps", "amg",
                                         "minighost", "hpcg", "fft", NULL };

/* ---- defaults ------------------------------------------------------------ */

void proxy_defaults(struct proxy_params *p, enum proxy_kind kind)
{
    *p = (struct proxy_params){ .kind = kind };
    switch (kind) {
    case PROXY_MILC:
        p->nx = p->ny = p->nz = p->nt = 64; /* emberlqcd.cc arg.nx..nt */
        p->peflops = 20e9;                  /* emberlqcd.cc arg.peflops */
        p->periodic = true;   /* com_mpi.c: coordinates wrap mod nx..nt */
        p->iterations = 300;  /* in.sample.l832.su3_rmd.1: CG cap 300 */
        break;
    case PROXY_LAMMPS:
        p->atoms_per_rank = 32000; /* bench/README: scaled-size, 32K/proc */
        p->density = 0.8442;       /* in.lj: lattice fcc 0.8442 */
        p->cutoff = 2.5;           /* in.lj: pair_style lj/cut 2.5 */
        p->skin = 0.3;             /* in.lj: neighbor 0.3 bin */
        p->migrate_depth = 0.1;    /* INFERENCE, proxy.h */
        p->forward_bytes = 3 * 8;  /* atom_vec_atomic: size_forward 3 */
        p->reverse_bytes = 3 * 8;  /* size_reverse 3 */
        p->border_bytes = 6 * 8;   /* size_border 6 */
        p->exchange_bytes = 11 * 8; /* pack_exchange: 11 doubles */
        p->reneighbor_every = 20;  /* in.lj: neigh_modify every 20 */
        p->thermo_every = 0;       /* in.lj: no thermo command */
        p->newton = true;          /* LAMMPS `newton` default on */
        p->periodic = true;        /* `boundary` default p p p */
        p->pair_ns_per_atom = 480; /* reference's 2-rank in.lj run */
        p->neigh_ns_per_atom = 1000; /* INFERENCE, proxy.h */
        p->iterations = 100;       /* in.lj: run 100 */
        break;
    case PROXY_AMG:
        p->nx = p->ny = p->nz = 40; /* amg.README: -n 40 40 40 */
        p->levels = 5;              /* README example: Num levels = 5 */
        p->coarsen_first = 71;      /* README: 500000 / 7046 rows */
        p->coarsen = 7.5;           /* README: 7046/1265, 1265/170, 170/17 */
        p->coarse_reach = 2;        /* INFERENCE: 142 nonzeros ~ 5^3 */
        p->pre_sweeps = 2;          /* README: sweeps down 2 */
        p->post_sweeps = 2;         /* up 2 */
        p->coarse_sweeps = 1;       /* coarse 1 */
        p->krylov_dots = 3;         /* INFERENCE (§7 "2-3"): hypre PCG */
        p->nnz_fine = 27;           /* 27-point stencil */
        p->nnz_coarse = 80;         /* README levels 2, 3: 84.1, 78.7 */
        p->interp_nnz = 4;          /* INFERENCE: README 1..10 per row */
        p->peflops = 1e9;           /* INFERENCE: memory-bound, proxy.h */
        p->iterations = 20;         /* README example: Iterations = 20 */
        break;
    case PROXY_MINIGHOST:
        p->nx = p->ny = p->nz = 100; /* default-settings.h */
        p->num_vars = 5;             /* default-settings.h */
        p->stencil = 21;             /* 2D5PT */
        p->percent_sum = 100;
        p->mapping = 0;              /* linear */
        p->peflops = 1e10;           /* emberhalo3d.cc arg.peflops */
        p->iterations = 100;         /* num_tsteps */
        break;
    case PROXY_HPCG:
        p->nx = p->ny = p->nz = 104; /* bin/hpcg.dat */
        p->levels = 4;               /* main.cpp numberOfMgLevels */
        p->pre_sweeps = 1;           /* MGData.hpp */
        p->post_sweeps = 1;
        p->coarse_sweeps = 1;        /* ComputeMG_ref: one SYMGS */
        p->nnz_fine = 27;            /* 27-point stencil */
        p->peflops = 1e9;            /* INFERENCE, as amg: memory-bound */
        p->iterations = 50;          /* main.cpp refMaxIters */
        break;
    case PROXY_FFT:
        p->nx = p->ny = p->nz = 256; /* INFERENCE: SC'19 gives no size */
        p->peflops = 2e9;            /* INFERENCE, proxy.h */
        p->iterations = 10;          /* INFERENCE: transforms timed */
        break;
    default:
        break;
    }
}

/* ---- process grids ------------------------------------------------------- */

/* MILC's setup_hyper_prime (as emberlqcd.cc): while fewer blocks than
 * ranks, take the largest prime dividing the ranks left, and divide by it
 * the largest local dimension it divides — one already divided if several
 * are that large, else the first. */
static int hyper_prime(uint32_t n, const uint32_t lat[4], uint32_t g[4],
                       char *err, size_t err_cap)
{
    static const uint32_t prime[] = { 2,  3,  5,  7,  11, 13, 17, 19,
                                      23, 29, 31, 37, 41, 43, 47, 53 };
    uint32_t sq[4], i = 1;
    for (int d = 0; d < 4; d++)
        sq[d] = lat[d], g[d] = 1;
    while (i < n) {
        int k = (int)(sizeof prime / sizeof prime[0]) - 1;
        while ((n / i) % prime[k] != 0 && k > 0)
            k--;
        if ((n / i) % prime[k] != 0)
            FAIL("milc: %u ranks have a prime factor above 53, which MILC's "
                 "layout cannot use", n);
        uint32_t j = 0;
        for (int d = 0; d < 4; d++)
            if (sq[d] > j && sq[d] % prime[k] == 0)
                j = sq[d];
        if (j == 0)
            FAIL("milc: cannot lay out the %u x %u x %u x %u lattice on %u "
                 "ranks: not enough factors of %u", lat[0], lat[1], lat[2],
                 lat[3], n, prime[k]);
        int dir = 0;
        while (dir < 4 && !(sq[dir] == j && g[dir] > 1))
            dir++;
        if (dir == 4)
            for (dir = 0; sq[dir] != j; dir++)
                ;
        i *= prime[k];
        sq[dir] /= prime[k];
        g[dir] *= prime[k];
    }
    return 0;
}

/* minighost's blocked mapping: the bx·by·bz = ppn sub-block (divisors of
 * the grid's sides) whose faces carry the fewest halo bytes out of the
 * node (first found, bx then by ascending, on ties), then rank r at the
 * (r mod ppn)-th place, x fastest, of the (r / ppn)-th block, blocks in
 * x-fastest order. */
static int map_blocked(struct proxy *x, char *err, size_t err_cap)
{
    const struct proxy_params *p = &x->p;
    uint32_t n = x->nranks, ppn = x->ppn;
    if (ppn == 0)
        FAIL("minighost: the blocked mapping needs ppn >= 1");
    if (n % ppn)
        FAIL("minighost: the blocked mapping needs whole nodes, but %u "
             "ranks are not a multiple of %u per node", n, ppn);
    double best = INFINITY;
    uint32_t b[3] = { 0, 0, 0 };
    for (uint32_t bx = 1; bx <= ppn; bx++) {
        if (ppn % bx || p->px % bx)
            continue;
        for (uint32_t by = 1; by <= ppn / bx; by++) {
            if ((ppn / bx) % by || p->py % by)
                continue;
            uint32_t bz = ppn / bx / by;
            if (p->pz % bz)
                continue;
            double cost = (double)by * bz * p->ny * p->nz +
                          (double)bx * bz * p->nx * p->nz +
                          (double)bx * by * p->nx * p->ny;
            if (cost < best) {
                best = cost;
                b[0] = bx, b[1] = by, b[2] = bz;
            }
        }
    }
    if (!b[0])
        FAIL("minighost: no block of %u ranks tiles the %u x %u x %u grid",
             ppn, p->px, p->py, p->pz);
    x->pos_of = malloc(n * sizeof *x->pos_of);
    x->rank_at = malloc(n * sizeof *x->rank_at);
    if (!x->pos_of || !x->rank_at)
        FAIL("out of memory");
    uint32_t nbx = p->px / b[0], nby = p->py / b[1];
    for (uint32_t r = 0; r < n; r++) {
        uint32_t node = r / ppn, l = r % ppn;
        uint32_t cx = (node % nbx) * b[0] + l % b[0];
        uint32_t cy = (node / nbx % nby) * b[1] + l / b[0] % b[1];
        uint32_t cz = (node / (nbx * nby)) * b[2] + l / (b[0] * b[1]);
        uint32_t pos = cx + p->px * (cy + p->py * cz);
        x->pos_of[r] = pos;
        x->rank_at[pos] = r;
    }
    memcpy(x->block, b, sizeof b);
    return 0;
}

/* minighost's random mapping: rank r at place perm[r] of the grid, perm
 * a shuffle of the places drawn from rng_stream(seed, RNG_WORKLOAD,
 * instance). */
static int map_random(struct proxy *x, char *err, size_t err_cap)
{
    uint32_t n = x->nranks;
    x->pos_of = malloc(n * sizeof *x->pos_of);
    x->rank_at = malloc(n * sizeof *x->rank_at);
    if (!x->pos_of || !x->rank_at)
        FAIL("out of memory");
    for (uint32_t r = 0; r < n; r++)
        x->pos_of[r] = r;
    struct rng rs = rng_stream(x->p.seed, RNG_WORKLOAD, x->p.instance);
    rng_shuffle_u32(&rs, x->pos_of, n);
    for (uint32_t r = 0; r < n; r++)
        x->rank_at[x->pos_of[r]] = r;
    return 0;
}

uint32_t proxy_neighbour(const struct proxy *x, uint32_t r,
                         const int8_t off[4])
{
    uint32_t pos = x->pos_of ? x->pos_of[r] : r;
    uint32_t rest = pos, q = 0, stride = 1;
    for (int d = 0; d < 4; d++) {
        int64_t n = x->grid[d];
        int64_t c = (int64_t)(rest % (uint32_t)n) + off[d];
        rest /= (uint32_t)n;
        if (c < 0 || c >= n) {
            if (!x->p.periodic)
                return NO_RANK;
            c = ((c % n) + n) % n;
        }
        q += (uint32_t)c * stride;
        stride *= (uint32_t)n;
    }
    if (q == pos)
        return NO_RANK; /* a periodic dimension of one rank: a local copy */
    return x->rank_at ? x->rank_at[q] : q;
}

/* ---- building an iteration ----------------------------------------------- */

/* One swap along dimension `dim`: receive from the rank at -dir, send to
 * the rank at +dir (`send`: PH_SEND blocking or PH_ISEND), wait. */
static void swap(struct bld *b, int dim, int dir, uint64_t bytes,
                 uint8_t send)
{
    int o[4] = { 0, 0, 0, 0 };
    o[dim] = -dir;
    uint32_t from = bld_add_ent(b, o[0], o[1], o[2], o[3], bytes);
    o[dim] = dir;
    uint32_t to = bld_add_ent(b, o[0], o[1], o[2], o[3], bytes);
    uint32_t tag = bld_new_tag(b);
    bld_p2p(b, PH_IRECV, from, 1, tag);
    bld_p2p(b, send, to, 1, tag);
    bld_waitall(b);
}

/* ---- milc ----------------------------------------------------------------- */

static int build_milc(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    struct proxy_params *p = &x->p;
    uint32_t lat[4] = { p->nx, p->ny, p->nz, p->nt };
    if (!lat[0] || !lat[1] || !lat[2] || !lat[3])
        FAIL("milc: the lattice nx ny nz nt must be positive");
    uint32_t g[4] = { p->px, p->py, p->pz, p->pt };
    if (!g[0] && !g[1] && !g[2] && !g[3]) {
        if (hyper_prime(x->nranks, lat, g, err, err_cap) != 0)
            return -1;
    } else if (!g[0] || !g[1] || !g[2] || !g[3]) {
        FAIL("milc: give all of px py pz pt, or none");
    }
    if ((uint64_t)g[0] * g[1] * g[2] * g[3] != x->nranks)
        FAIL("milc: a %u x %u x %u x %u grid does not hold the job's %u "
             "ranks", g[0], g[1], g[2], g[3], x->nranks);
    uint64_t loc[4], sites = 1;
    for (int d = 0; d < 4; d++) {
        if (lat[d] % g[d])
            FAIL("milc: %u ranks along dimension %d do not divide the "
                 "lattice's %u sites", g[d], d, lat[d]);
        loc[d] = lat[d] / g[d];
        sites *= loc[d];
        x->grid[d] = g[d];
    }
    p->px = g[0], p->py = g[1], p->pz = g[2], p->pt = g[3];

    /* entries: + first, + Naik, - first, - Naik; 48-B su3_vectors */
    uint32_t e[4];
    for (int s = 0; s < 4; s++) {
        int sign = s < 2 ? 1 : -1;
        bool naik = s % 2;
        e[s] = x->n_ent;
        for (int d = 0; d < 4; d++) {
            uint64_t face = sites / loc[d];
            /* ember lqcd: a first-neighbour gather moves the face's sites of
             * one parity (half the face), the 3-hop Naik gather three layers
             * of one parity (face x 2 / 2, as ember writes it) */
            uint64_t n = naik ? face : (face / 2 ? face / 2 : 1);
            int o[4] = { 0, 0, 0, 0 };
            o[d] = sign;
            bld_add_ent(b, o[0], o[1], o[2], o[3], 48 * n);
        }
    }
    /* ember lqcd's flop counts: 288 per site for the matrix-vector product
     * (mmvs4d), 157 / 2 per site for the residual */
    double mmvs = (double)sites * 288 / p->peflops;
    double resid = (double)(sites * 157 / 2) / p->peflops;
    for (int parity = 0; parity < 2; parity++) {
        uint32_t t1 = bld_new_tag(b), t3 = bld_new_tag(b);
        bld_p2p(b, PH_IRECV, e[2], 4, t1);
        bld_p2p(b, PH_IRECV, e[3], 4, t3);
        bld_p2p(b, PH_ISEND, e[0], 4, t1);
        bld_p2p(b, PH_ISEND, e[1], 4, t3);
        bld_p2p(b, PH_ISEND, e[2], 4, t1);
        bld_p2p(b, PH_ISEND, e[3], 4, t3);
        bld_p2p(b, PH_RECV, e[0], 4, t1); /* wait for the + gathers */
        bld_p2p(b, PH_RECV, e[1], 4, t3);
        bld_compute(b, mmvs);
        bld_waitall(b);                   /* the - gathers and the sends */
        bld_compute(b, mmvs);
    }
    bld_allreduce(b, 8);
    bld_compute(b, resid);
    bld_allreduce(b, 8);
    bld_mark(b);
    return 0;
}

/* ---- lammps --------------------------------------------------------------- */

static int build_lammps(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    const struct proxy_params *p = &x->p;
    if (!p->atoms_per_rank || !(p->density > 0) || !(p->cutoff > 0) ||
        !(p->skin >= 0) || !(p->migrate_depth >= 0))
        FAIL("lammps: atoms_per_rank, density and cutoff must be positive, "
             "skin and migrate_depth not negative");
    if (!p->forward_bytes || !p->reverse_bytes || !p->border_bytes ||
        !p->exchange_bytes)
        FAIL("lammps: the bytes per atom must be positive");
    if (!(p->pair_ns_per_atom >= 0) || !(p->neigh_ns_per_atom >= 0))
        FAIL("lammps: pair_ns_per_atom and neigh_ns_per_atom must not be "
             "negative");
    if (bld_grid_3d(x, "lammps", err, err_cap) != 0)
        return -1;
    double rho = p->density, atoms = p->atoms_per_rank;
    double side = cbrt(atoms / rho), r = p->cutoff + p->skin;
    if (r > side)
        FAIL("lammps: the ghost cut-off %.3g (cutoff + skin) exceeds the "
             "sub-domain's side %.3g; more than one swap per direction is "
             "not modelled", r, side);
    /* Ghost atoms per swap, from the density and the ghost cut-off r: LAMMPS's
     * brick communication swaps dimension after dimension and each later
     * swap forwards the ghosts the earlier ones brought (the y slab is
     * (side + 2r) long in x, the z slab in x and y), which is how 6 swaps
     * reach the 26 neighbours of a 3-D decomposition. */
    uint64_t g[3] = {
        (uint64_t)llround(rho * side * side * r),
        (uint64_t)llround(rho * (side + 2 * r) * side * r),
        (uint64_t)llround(rho * (side + 2 * r) * (side + 2 * r) * r),
    };
    uint64_t mig = (uint64_t)llround(2 * rho * side * side *
                                     p->migrate_depth);
    for (int d = 0; d < 3; d++)
        g[d] = g[d] ? g[d] : 1;
    mig = mig ? mig : 1; /* the layer carries no empty messages */

    b->when = W_REN; /* comm->exchange(), comm->borders(), neighbor->build */
    for (int d = 0; d < 3; d++) {
        if (x->grid[d] == 1)
            continue; /* "if 1 proc in dimension, no send/recv" */
        /* with 2 ranks in a periodic dimension both neighbours are one
         * rank and LAMMPS sends once; without wrap-around each rank has
         * its one neighbour on a different side, so both directions run
         * (each rank then sends on the side it has) */
        bool both = x->grid[d] > 2 || !p->periodic;
        swap(b, d, -1, 4, PH_ISEND); /* MPI_Sendrecv of the count */
        if (both)
            swap(b, d, +1, 4, PH_ISEND);
        swap(b, d, -1, mig * p->exchange_bytes, PH_SEND);
        if (both)
            swap(b, d, +1, mig * p->exchange_bytes, PH_SEND);
    }
    for (int s = 0; s < 6; s++) {
        int d = s / 2, dir = s % 2 ? +1 : -1;
        swap(b, d, dir, 4, PH_ISEND);
        swap(b, d, dir, g[d] * p->border_bytes, PH_SEND);
    }
    bld_compute(b, atoms * p->neigh_ns_per_atom * 1e-9);
    b->when = W_NOREN; /* comm->forward_comm() */
    for (int s = 0; s < 6; s++)
        swap(b, s / 2, s % 2 ? +1 : -1, g[s / 2] * p->forward_bytes,
             PH_SEND);
    b->when = W_ALWAYS;
    bld_compute(b, atoms * p->pair_ns_per_atom * 1e-9);
    if (p->newton) /* comm->reverse_comm(): the swaps backwards */
        for (int s = 5; s >= 0; s--)
            swap(b, s / 2, s % 2 ? -1 : +1, g[s / 2] * p->reverse_bytes,
                 PH_SEND);
    b->when = W_THERMO; /* thermo_style one, thermo.cpp */
    bld_allreduce(b, 16);   /* lost_check: 2 bigints */
    bld_allreduce(b, 8);    /* temp */
    bld_allreduce(b, 24);   /* press: virial, 3 doubles */
    bld_allreduce(b, 8);    /* pe */
    bld_allreduce(b, 8);    /* epair */
    b->when = W_ALWAYS;
    bld_mark(b);
    return 0;
}

/* ---- amg ------------------------------------------------------------------ */

#define AMG_MAX_LEVELS 32

static int build_amg(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    const struct proxy_params *p = &x->p;
    if (p->periodic)
        FAIL("amg: AMG2013's Laplacian has Dirichlet boundaries; periodic "
             "is not supported");
    if (!p->nx || !p->ny || !p->nz)
        FAIL("amg: nx ny nz must be positive");
    if (p->levels < 1 || p->levels > AMG_MAX_LEVELS)
        FAIL("amg: levels must be 1 to %d", AMG_MAX_LEVELS);
    if (!(p->coarsen_first >= 1) || !(p->coarsen >= 1))
        FAIL("amg: coarsen_first and coarsen must be 1 or more");
    if (p->coarse_reach < 1 || p->coarse_reach > 4)
        FAIL("amg: coarse_reach must be 1 to 4");
    if (p->pre_sweeps > 64 || p->post_sweeps > 64 || p->coarse_sweeps > 64)
        FAIL("amg: at most 64 sweeps");
    if (p->krylov_dots < 1 || p->krylov_dots > 64)
        FAIL("amg: krylov_dots must be 1 to 64");
    if (!(p->nnz_fine > 0) || !(p->nnz_coarse > 0) || !(p->interp_nnz > 0))
        FAIL("amg: nnz_fine, nnz_coarse and interp_nnz must be positive");
    if (bld_grid_3d(x, "amg", err, err_cap) != 0)
        return -1;

    uint32_t L = p->levels;
    uint32_t first[AMG_MAX_LEVELS], count[AMG_MAX_LEVELS];
    double sweep[AMG_MAX_LEVELS], xfer[AMG_MAX_LEVELS];
    double n0[3] = { p->nx, p->ny, p->nz };
    double rows0 = n0[0] * n0[1] * n0[2];
    for (uint32_t l = 0; l < L; l++) {
        double ratio = l == 0 ? 1 : 1 / (p->coarsen_first *
                                         pow(p->coarsen, (double)l - 1));
        double f = cbrt(ratio), n[3], rows = 1;
        double reach = l == 0 ? 1 : p->coarse_reach;
        int k[3];
        for (int d = 0; d < 3; d++) {
            n[d] = fmax(1.0, n0[d] * f);
            if (fabs(n[d] - round(n[d])) < 1e-9 * n[d])
                n[d] = round(n[d]);
            rows *= n[d];
            double kk = ceil(reach / n[d] - 1e-9);
            k[d] = (int)fmin(kk, (double)x->grid[d] - 1);
        }
        first[l] = x->n_ent;
        for (int oz = -k[2]; oz <= k[2]; oz++)
            for (int oy = -k[1]; oy <= k[1]; oy++)
                for (int ox = -k[0]; ox <= k[0]; ox++) {
                    if (!ox && !oy && !oz)
                        continue;
                    int o[3] = { ox, oy, oz };
                    double v = 1;
                    for (int d = 0; d < 3; d++) {
                        int a = abs(o[d]);
                        v *= a == 0 ? n[d]
                                    : fmin(n[d], reach - (a - 1) * n[d]);
                    }
                    uint64_t vals = (uint64_t)ceil(v - 1e-9);
                    bld_add_ent(b, ox, oy, oz, 0, 8 * (vals ? vals : 1));
                }
        count[l] = x->n_ent - first[l];
        double nnz = l == 0 ? p->nnz_fine : p->nnz_coarse;
        sweep[l] = rows * nnz * 2 / p->peflops;
        xfer[l] = rows * p->interp_nnz * 2 / p->peflops;
    }

    /* PCG iteration (hypre pcg.c order) with one V-cycle */
    bld_halo(b, first[0], count[0]); /* s = A p */
    bld_compute(b, sweep[0]);
    bld_allreduce(b, 8);             /* <s, p> */
    bld_compute(b, rows0 * 2 * (p->krylov_dots + 3) / p->peflops);
    for (uint32_t i = 2; i < p->krylov_dots; i++)
        bld_allreduce(b, 8);         /* <r, r> for the stopping test */
    /* The V-cycle down: on each level the smoother's sweeps, each a halo
     * exchange of that level's reach and a sweep over its rows, then the
     * residual and its restriction to the next; coarser levels have fewer
     * rows but more, smaller messages to more distant neighbours (our
     * reference notes §7, from AMG2013's README and its level table) */
    for (uint32_t l = 0; l + 1 < L; l++) {
        for (uint32_t s = 0; s < p->pre_sweeps; s++) {
            bld_halo(b, first[l], count[l]);
            bld_compute(b, sweep[l]);
        }
        bld_halo(b, first[l], count[l]); /* residual */
        bld_compute(b, sweep[l]);
        bld_halo(b, first[l + 1], count[l + 1]); /* restriction */
        bld_compute(b, xfer[l]);
    }
    for (uint32_t s = 0; s < p->coarse_sweeps; s++) {
        bld_halo(b, first[L - 1], count[L - 1]);
        bld_compute(b, sweep[L - 1]);
    }
    for (uint32_t l = L - 1; l-- > 0;) {
        bld_halo(b, first[l + 1], count[l + 1]); /* interpolation */
        bld_compute(b, xfer[l]);
        for (uint32_t s = 0; s < p->post_sweeps; s++) {
            bld_halo(b, first[l], count[l]);
            bld_compute(b, sweep[l]);
        }
    }
    if (p->krylov_dots >= 2)
        bld_allreduce(b, 8);         /* <r, s> */
    bld_mark(b);
    return 0;
}

/* ---- minighost ------------------------------------------------------------ */

static int build_minighost(struct bld *b, char *err, size_t err_cap)
{
    struct proxy *x = b->x;
    const struct proxy_params *p = &x->p;
    if (p->periodic)
        FAIL("minighost: miniGhost's boundaries are Dirichlet (bc 31); "
             "periodic is not supported");
    if (!p->nx || !p->ny || !p->nz)
        FAIL("minighost: nx ny nz must be positive");
    if (p->num_vars < 1 || p->num_vars > 1024)
        FAIL("minighost: num_vars must be 1 to 1024");
    static const double points[] = { 5, 9, 7, 27 }; /* 21 .. 24 */
    if (p->stencil < 21 || p->stencil > 24)
        FAIL("minighost: stencil %u is not one of 21 (2D5PT), 22 (2D9PT), "
             "23 (3D7PT), 24 (3D27PT)", p->stencil);
    if (p->percent_sum > 100)
        FAIL("minighost: percent_sum must be 0 to 100");
    if (p->mapping > 2)
        FAIL("minighost: mapping %u is not 0 (linear), 1 (blocked) or 2 "
             "(random)", p->mapping);
    if (bld_grid_3d(x, "minighost", err, err_cap) != 0)
        return -1;
    if (p->mapping == 1 && map_blocked(x, err, err_cap) != 0)
        return -1;
    if (p->mapping == 2 && map_random(x, err, err_cap) != 0)
        return -1;

    /* BSPMA (comm_method 10): all variables of a face aggregated into one
     * message per neighbour and time step, 8-byte values (default-settings.h)
     */
    uint64_t v8 = (uint64_t)p->num_vars * 8;
    uint64_t face[3] = { (uint64_t)p->ny * p->nz * v8,
                         (uint64_t)p->nx * p->nz * v8,
                         (uint64_t)p->nx * p->ny * v8 };
    uint32_t first = x->n_ent;
    for (int d = 0; d < 3; d++)
        for (int dir = -1; dir <= 1; dir += 2) {
            int o[3] = { 0, 0, 0 };
            o[d] = dir;
            bld_add_ent(b, o[0], o[1], o[2], 0, face[d]);
        }
    bld_halo(b, first, 6); /* MG_IRECV, MG_SEND_BSPMA, MG_UNPACK_BSPMA */
    double cells = (double)p->nx * p->ny * p->nz;
    double t = cells * points[p->stencil - 21] / p->peflops;
    uint32_t nsum = p->num_vars * p->percent_sum / 100;
    for (uint32_t v = 0; v < p->num_vars; v++) {
        bld_compute(b, t);           /* MG_STENCIL */
        if (v < nsum)
            bld_allreduce(b, 8);     /* MG_SUM_GRID */
    }
    bld_mark(b);
    return 0;
}

/* ---- init ----------------------------------------------------------------- */

static int setup(struct proxy *x, char *err, size_t err_cap)
{
    const struct proxy_params *p = &x->p;
    if ((unsigned)p->kind >= PROXY_KIND_COUNT)
        FAIL("proxy: kind %u is not one of milc, lammps, amg, minighost, "
             "hpcg, fft", (unsigned)p->kind);
    const char *name = proxy_kind_names[p->kind];
    if (x->nranks == 0)
        FAIL("%s: the job has no ranks", name);
    if (p->kind != PROXY_LAMMPS && !p->compute && !(p->peflops > 0))
        FAIL("%s: peflops must be positive (or compute given)", name);
    if (p->kind != PROXY_MINIGHOST && p->mapping != 0)
        FAIL("%s: mapping is a minighost parameter (give 0)", name);
    struct bld b = { .x = x, .when = W_ALWAYS };
    int rc;
    switch (p->kind) {
    case PROXY_MILC:
        rc = build_milc(&b, err, err_cap);
        break;
    case PROXY_LAMMPS:
        rc = build_lammps(&b, err, err_cap);
        break;
    case PROXY_AMG:
        rc = build_amg(&b, err, err_cap);
        break;
    case PROXY_HPCG:
        rc = proxy_build_hpcg(&b, err, err_cap);
        break;
    case PROXY_FFT:
        rc = proxy_build_fft(&b, err, err_cap);
        break;
    default:
        rc = build_minighost(&b, err, err_cap);
        break;
    }
    if (rc != 0)
        return -1;
    if (b.oom)
        FAIL("out of memory");
    if (b.too_long)
        FAIL("%s: a compute phase would last over 100 days (check peflops "
             "and the ns per atom)", name);
    if (x->n_groups > MAX_GROUPS)
        FAIL("%s: %u exchanges per iteration; tags allow %u", name,
             x->n_groups, (unsigned)MAX_GROUPS);
    x->cur = calloc(x->nranks, sizeof *x->cur);
    if (!x->cur)
        FAIL("out of memory");
    return 0;
}

int proxy_init(struct proxy *x, const struct proxy_params *p,
               uint32_t nranks, uint32_t ppn, char *err, size_t err_cap)
{
    memset(x, 0, sizeof *x);
    x->p = *p;
    x->nranks = nranks;
    x->ppn = ppn;
    x->block[0] = x->block[1] = x->block[2] = 1;
    if (setup(x, err, err_cap) != 0) {
        proxy_free(x);
        return -1;
    }
    return 0;
}

void proxy_free(struct proxy *x)
{
    free(x->ph);
    free(x->ent);
    free(x->pos_of);
    free(x->rank_at);
    free(x->cur);
    x->ph = NULL, x->ent = NULL, x->cur = NULL;
    x->pos_of = x->rank_at = NULL;
    x->n_ph = x->ph_cap = x->n_ent = x->ent_cap = 0;
}

/* ---- the program ---------------------------------------------------------- */

static bool active(const struct proxy *x, uint8_t when, uint32_t it)
{
    const struct proxy_params *p = &x->p;
    /* LAMMPS re-neighbours every `neigh_modify every` steps (in.lj: 20):
     * those steps exchange and rebuild the ghosts (comm->exchange,
     * comm->borders) instead of the forward communication of positions; a
     * thermo step adds its reductions, and LAMMPS always prints the last */
    bool ren = p->reneighbor_every && (it + 1) % p->reneighbor_every == 0;
    switch (when) {
    case W_REN:
        return ren;
    case W_NOREN:
        return !ren;
    case W_THERMO:
        return (p->thermo_every && (it + 1) % p->thermo_every == 0) ||
               it + 1 == p->iterations;
    default:
        return true;
    }
}

/* The tag code of a message travelling along off (sign +1) or -off. */
static uint32_t dir_code(const int8_t off[4], int sign)
{
    uint32_t c = 0;
    for (int d = 3; d >= 0; d--)
        c = c * (2 * OFF_MAX + 1) + (uint32_t)(sign * off[d] + OFF_MAX);
    return c;
}

static uint32_t proxy_next(void *ctx, uint32_t r, struct dmpi_op *out,
                           uint32_t cap)
{
    static const uint8_t code_of[] = { [PH_IRECV] = DMPI_IRECV,
                                       [PH_ISEND] = DMPI_ISEND,
                                       [PH_SEND] = DMPI_SEND,
                                       [PH_RECV] = DMPI_RECV };
    struct proxy *x = ctx;
    struct proxy_cursor *c = &x->cur[r];
    uint32_t k = 0;
    while (k < cap && c->iter < x->p.iterations) {
        const struct proxy_phase *ph = &x->ph[c->phase];
        if (active(x, ph->when, c->iter)) {
            switch ((enum ph_code)ph->code) {
            case PH_COMPUTE:
                if (ph->t)
                    out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                                 .arg = ph->t };
                break;
            case PH_ALLREDUCE:
                out[k++] = (struct dmpi_op){ .code = DMPI_ALLREDUCE,
                                             .bytes = ph->bytes };
                break;
            case PH_ALLTOALL:
                out[k++] = (struct dmpi_op){ .code = DMPI_ALLTOALL,
                                             .bytes = ph->bytes };
                break;
            case PH_WAITALL:
                out[k++] = (struct dmpi_op){ .code = DMPI_WAITALL };
                break;
            case PH_MARK:
                out[k++] = (struct dmpi_op){ .code = DMPI_MARK,
                                             .arg = c->iter };
                break;
            default: {
                int sign = ph->code == PH_IRECV || ph->code == PH_RECV ? -1
                                                                      : 1;
                while (c->j < ph->count && k < cap) {
                    const struct proxy_ent *e = &x->ent[ph->first + c->j++];
                    uint32_t peer = proxy_neighbour(x, r, e->off);
                    if (peer == NO_RANK)
                        continue;
                    out[k++] = (struct dmpi_op){
                        .code = code_of[ph->code], .peer = peer,
                        .bytes = e->bytes,
                        .tag = ph->tag + dir_code(e->off, sign) };
                }
                if (c->j < ph->count)
                    return k; /* out is full inside the step */
                c->j = 0;
                break;
            }
            }
        }
        if (++c->phase == x->n_ph) {
            c->phase = 0;
            c->iter++;
        }
    }
    return k;
}

struct dmpi_app proxy_app(struct proxy *x)
{
    return (struct dmpi_app){ .ctx = x, .next = proxy_next };
}
