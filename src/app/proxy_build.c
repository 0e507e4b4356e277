/* app/proxy_build.c — the helpers that build a proxy's iteration
 * (app/proxy_build.h). */
#include "app/proxy_build.h"

#include "app/ember.h"

#include <math.h>
#include <stdlib.h>

int bld_grid_3d(struct proxy *x, const char *name, char *err,
                size_t err_cap)
{
    struct proxy_params *p = &x->p;
    if (p->pt > 1)
        FAIL("%s: pt is milc's fourth grid dimension (give 0 or 1)", name);
    if (!p->px && !p->py && !p->pz) {
        ember_grid3(x->nranks, &p->px, &p->py, &p->pz);
    }
    if ((uint64_t)p->px * p->py * p->pz != x->nranks)
        FAIL("%s: a %u x %u x %u grid does not hold the job's %u ranks",
             name, p->px, p->py, p->pz, x->nranks);
    p->pt = 1;
    x->grid[0] = p->px, x->grid[1] = p->py, x->grid[2] = p->pz;
    x->grid[3] = 1;
    return 0;
}

static simtime secs(double s)
{
    return (simtime)llround(s * (double)SIMTIME_S);
}

static void add_ph(struct bld *b, struct proxy_phase ph)
{
    struct proxy *x = b->x;
    if (x->n_ph == x->ph_cap) {
        uint32_t cap = x->ph_cap ? 2 * x->ph_cap : 64;
        struct proxy_phase *q = realloc(x->ph, cap * sizeof *q);
        if (!q) {
            b->oom = true;
            return;
        }
        x->ph = q, x->ph_cap = cap;
    }
    ph.when = b->when;
    x->ph[x->n_ph++] = ph;
}

/* A new entry (offset dx dy dz dt, bytes); returns its index. */
uint32_t bld_add_ent(struct bld *b, int dx, int dy, int dz, int dt,
                     uint64_t bytes)
{
    struct proxy *x = b->x;
    if (x->n_ent == x->ent_cap) {
        uint32_t cap = x->ent_cap ? 2 * x->ent_cap : 64;
        struct proxy_ent *q = realloc(x->ent, cap * sizeof *q);
        if (!q) {
            b->oom = true;
            return 0;
        }
        x->ent = q, x->ent_cap = cap;
    }
    x->ent[x->n_ent] = (struct proxy_ent){
        .off = { (int8_t)dx, (int8_t)dy, (int8_t)dz, (int8_t)dt },
        .bytes = bytes };
    return x->n_ent++;
}

uint32_t bld_new_tag(struct bld *b)
{
    return b->x->n_groups++ << PROXY_TAG_SHIFT;
}

/* A compute step of `s` seconds (or the `compute` override). */
void bld_compute(struct bld *b, double s)
{
    simtime t = b->x->p.compute;
    if (!t) {
        if (!(s * (double)SIMTIME_S < 9e18)) { /* llround's range */
            b->too_long = true;
            s = 0;
        }
        t = secs(s);
    }
    if (b->when == W_ALWAYS || b->when == W_NOREN)
        b->x->t_iter += t;
    add_ph(b, (struct proxy_phase){ .code = PH_COMPUTE, .t = t });
}

void bld_allreduce(struct bld *b, uint64_t bytes)
{
    add_ph(b, (struct proxy_phase){ .code = PH_ALLREDUCE, .bytes = bytes });
}

void bld_alltoall(struct bld *b, uint64_t bytes)
{
    add_ph(b, (struct proxy_phase){ .code = PH_ALLTOALL, .bytes = bytes });
}

void bld_waitall(struct bld *b)
{
    add_ph(b, (struct proxy_phase){ .code = PH_WAITALL });
}

void bld_p2p(struct bld *b, uint8_t code, uint32_t first, uint32_t count,
             uint32_t tag)
{
    add_ph(b, (struct proxy_phase){ .code = code, .first = first,
                                    .count = count, .tag = tag });
}

/* Receive from and send to every offset of entries [first, first+count)
 * (non-blocking), then wait for all. */
void bld_halo(struct bld *b, uint32_t first, uint32_t count)
{
    uint32_t tag = bld_new_tag(b);
    bld_p2p(b, PH_IRECV, first, count, tag);
    bld_p2p(b, PH_ISEND, first, count, tag);
    bld_waitall(b);
}

void bld_mark(struct bld *b)
{
    add_ph(b, (struct proxy_phase){ .code = PH_MARK });
}

