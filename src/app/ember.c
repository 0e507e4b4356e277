/* app/ember.c — ember's halo3d and sweep3d motifs (see ember.h), as SST
 * ember writes them (repo:sstsimulator/sst-elements, emberhalo3d.cc,
 * embersweep3d.cc; our reference notes §2): the skeletons of a stencil
 * code's halo exchange and of a discrete-ordinates transport sweep, the
 * victims SC'19 and SC'20 ran. Their communication is ember's, quirks
 * included; their compute is a delay from ember's flop counts. */
#include "app/ember.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_RANK UINT32_MAX

void ember_defaults(struct ember_params *p, enum ember_kind kind)
{
    *p = (struct ember_params){ .kind = kind, .width = 8, .iterations = 1,
                                .kba = 1, .reduce = 1 };
    if (kind == EMBER_HALO3D) { /* emberhalo3d.cc */
        p->nx = p->ny = p->nz = 100;
        p->fields = 1;
        p->flops_per_cell = 26;
        p->flops = 1e10; /* arg.peflops */
    } else {                    /* embersweep3d.cc */
        p->nx = p->ny = p->nz = 50;
        p->fields = 8;
        p->flops_per_cell = 275;
        p->flops = 1e9; /* arg.nodeflops */
        p->reduce = 0;
    }
}

/* ember's choice of a 3-D grid for n ranks: among i·j·k = n, the one
 * whose sides have the least variance (first found, i then j ascending). */
void ember_grid3(uint32_t n, uint32_t *px, uint32_t *py, uint32_t *pz)
{
    double best = INFINITY;
    for (uint32_t i = 1; i <= n; i++) {
        if (n % i)
            continue;
        for (uint32_t j = 1; j <= n / i; j++) {
            if ((n / i) % j)
                continue;
            uint32_t k = n / i / j;
            double mean = (i + j + k) / 3.0;
            double var = ((i - mean) * (i - mean) + (j - mean) * (j - mean) +
                          (k - mean) * (k - mean)) / 3.0;
            if (var < best) {
                best = var;
                *px = i, *py = j, *pz = k;
            }
        }
    }
}

/* The 2-D analogue for sweep3d (ember requires the grid; dfsim chooses
 * the squarest, px <= py, when it is not given). */
static void grid2(uint32_t n, uint32_t *px, uint32_t *py)
{
    *px = 1, *py = n;
    for (uint32_t i = 1; (uint64_t)i * i <= n; i++)
        if (n % i == 0)
            *px = i, *py = n / i;
}

int ember_init(struct ember *e, const struct ember_params *p,
               uint32_t nranks, char *err, size_t err_cap)
{
    e->p = *p;
    e->nranks = nranks;
    e->iter = e->step = NULL;
    struct ember_params *q = &e->p;
    const char *name = q->kind == EMBER_HALO3D ? "halo3d" : "sweep3d";
    if (q->kind == EMBER_HALO3D) {
        if (!q->px && !q->py && !q->pz)
            ember_grid3(nranks, &q->px, &q->py, &q->pz);
        if ((uint64_t)q->px * q->py * q->pz != nranks) {
            snprintf(err, err_cap, "halo3d: a %u x %u x %u grid does not "
                     "hold the job's %u ranks", q->px, q->py, q->pz, nranks);
            return -1;
        }
    } else {
        if (!q->px && !q->py)
            grid2(nranks, &q->px, &q->py);
        q->pz = 1;
        if ((uint64_t)q->px * q->py != nranks) {
            snprintf(err, err_cap, "sweep3d: a %u x %u grid does not hold "
                     "the job's %u ranks", q->px, q->py, nranks);
            return -1;
        }
        if (q->kba == 0 || q->nz % q->kba) {
            snprintf(err, err_cap, "sweep3d: nz (%u) must be a multiple of "
                     "kba (%u)", q->nz, q->kba);
            return -1;
        }
    }
    if (!q->nx || !q->ny || !q->nz || !q->fields || !q->width ||
        (!q->compute && !(q->flops > 0))) {
        snprintf(err, err_cap, "%s: cells, fields, width and flops must be "
                 "positive", name);
        return -1;
    }
    double s; /* compute seconds: per iteration (halo), per block (sweep) */
    if (q->kind == EMBER_HALO3D)
        /* ember's compute time: cells x fields x flops per cell at the rank's
         * flop rate (halo3d: 26 flops per cell at 1e10/s, 2.6 ms for 100^3) */
        s = (double)q->nx * q->ny * q->nz * q->fields * q->flops_per_cell /
            q->flops;
    else /* ember: nsCompute per nx·ny plane, times kba · fields */
        s = (double)q->nx * q->ny * q->flops_per_cell / q->flops * q->kba *
            q->fields;
    e->t_compute = q->compute ? q->compute
                              : (simtime)llround(s * (double)SIMTIME_S);
    e->iter = calloc(nranks ? nranks : 1, sizeof *e->iter);
    e->step = calloc(nranks ? nranks : 1, sizeof *e->step);
    if (!e->iter || !e->step) {
        ember_free(e);
        snprintf(err, err_cap, "out of memory");
        return -1;
    }
    return 0;
}

void ember_free(struct ember *e)
{
    free(e->iter);
    free(e->step);
    e->iter = e->step = NULL;
}

uint32_t ember_neighbour(const struct ember *e, uint32_t r, int dim, int dir)
{
    const struct ember_params *p = &e->p;
    /* ember's linear map (emberlinearmap.h): x fastest, then y, then z; the
     * grid is not periodic, a face on its boundary has no neighbour */
    uint32_t c[3] = { r % p->px, (r % (p->px * p->py)) / p->px,
                      r / (p->px * p->py) };
    uint32_t n[3] = { p->px, p->py, p->pz };
    if ((dir < 0 && c[dim] == 0) || (dir > 0 && c[dim] + 1 == n[dim]))
        return NO_RANK;
    c[dim] = dir < 0 ? c[dim] - 1 : c[dim] + 1;
    return c[0] + c[1] * p->px + c[2] * p->px * p->py;
}

static struct dmpi_op mk(uint8_t code, uint32_t peer, uint64_t bytes,
                         uint32_t tag)
{
    return (struct dmpi_op){ .code = code, .peer = peer, .bytes = bytes,
                             .tag = tag };
}

/* One halo3d iteration of rank r (at most 1 + 3·5 + 2 = 18 operations). */
static uint32_t halo(struct ember *e, uint32_t r, struct dmpi_op *out)
{
    const struct ember_params *p = &e->p;
    uint32_t k = 0;
    if (e->t_compute)
        out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                     .arg = e->t_compute };
    /* a face's cells: the X face is ny x nz, and so on */
    uint64_t face[3] = {
        (uint64_t)p->fields * p->width * p->ny * p->nz,
        (uint64_t)p->fields * p->width * p->nx * p->nz,
        (uint64_t)p->fields * p->width * p->nx * p->ny,
    };
    for (int d = 0; d < 3; d++) {
        uint32_t lo = ember_neighbour(e, r, d, -1);
        uint32_t hi = ember_neighbour(e, r, d, +1);
        if (lo == NO_RANK && hi == NO_RANK)
            continue;
        /* ember's order per dimension: both receives posted, then blocking
         * sends, then the wait — dimension after dimension, so an exchange in
         * Y starts only when X's is over */
        if (lo != NO_RANK)
            out[k++] = mk(DMPI_IRECV, lo, face[d], (uint32_t)d);
        if (hi != NO_RANK)
            out[k++] = mk(DMPI_IRECV, hi, face[d], (uint32_t)d);
        if (lo != NO_RANK)
            out[k++] = mk(DMPI_SEND, lo, face[d], (uint32_t)d);
        if (hi != NO_RANK)
            out[k++] = mk(DMPI_SEND, hi, face[d], (uint32_t)d);
        out[k++] = mk(DMPI_WAITALL, 0, 0, 0);
    }
    if (p->reduce)
        out[k++] = mk(DMPI_ALLREDUCE, 0, 8, 0);
    out[k++] = (struct dmpi_op){ .code = DMPI_MARK, .arg = e->iter[r] };
    return k;
}

/* sweep3d: step = sweep · blocks + block within the iteration; emit
 * whole blocks (at most 5 operations each) while they fit, and the mark
 * after the last. */
static uint32_t sweep(struct ember *e, uint32_t r, struct dmpi_op *out,
                      uint32_t cap)
{
    const struct ember_params *p = &e->p;
    uint32_t blocks = p->nz / p->kba, total = 8 * blocks, k = 0;
    /* ember's message sizes: the x neighbour's from nx and the y
     * neighbour's from ny (where the face between x neighbours is ny cells
     * long: ember's code, kept) */
    uint64_t xb = (uint64_t)p->nx * p->kba * p->width * p->fields;
    uint64_t yb = (uint64_t)p->ny * p->kba * p->width * p->fields;
    while (e->step[r] < total && k + 6 <= cap) {
        /* KBA wavefront: a block is received from the two upstream neighbours,
         * computed, and passed downstream, so ranks start one after another
         * along the diagonal; eight sweeps per iteration (ember's outer loop
         * runs twice over the four corners) */
        uint32_t corner = (e->step[r] / blocks) % 4;
        /* corners (0,0), (Px,0), (Px,Py), (0,Py): the sweep flows away
         * from its corner */
        int dx = corner == 0 || corner == 3 ? +1 : -1;
        int dy = corner <= 1 ? +1 : -1;
        uint32_t tag = 1000 * (corner + 1);
        uint32_t ux = ember_neighbour(e, r, 0, -dx);
        uint32_t uy = ember_neighbour(e, r, 1, -dy);
        uint32_t wx = ember_neighbour(e, r, 0, dx);
        uint32_t wy = ember_neighbour(e, r, 1, dy);
        if (ux != NO_RANK)
            out[k++] = mk(DMPI_RECV, ux, xb, tag);
        if (uy != NO_RANK)
            out[k++] = mk(DMPI_RECV, uy, yb, tag);
        if (e->t_compute)
            out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                         .arg = e->t_compute };
        if (wx != NO_RANK)
            out[k++] = mk(DMPI_SEND, wx, xb, tag);
        if (wy != NO_RANK)
            out[k++] = mk(DMPI_SEND, wy, yb, tag);
        e->step[r]++;
    }
    if (e->step[r] == total && k < cap) {
        out[k++] = (struct dmpi_op){ .code = DMPI_MARK, .arg = e->iter[r] };
        e->step[r] = 0;
        e->iter[r]++;
    }
    return k;
}

static uint32_t ember_next(void *ctx, uint32_t r, struct dmpi_op *out,
                           uint32_t cap)
{
    struct ember *e = ctx;
    if (e->iter[r] >= e->p.iterations || cap < 18)
        return 0; /* the layer offers 64 (mpi.c's BATCH) */
    if (e->p.kind == EMBER_SWEEP3D)
        return sweep(e, r, out, cap);
    uint32_t k = halo(e, r, out);
    e->iter[r]++;
    return k;
}

struct dmpi_app ember_app(struct ember *e)
{
    return (struct dmpi_app){ .ctx = e, .next = ember_next };
}
