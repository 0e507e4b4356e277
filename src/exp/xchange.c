/* exp/xchange.c — the partitions of one windowed run meeting at a
 * window's end (exp/xchange.h). */
#include "exp/xchange.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "core/time.h"
#include "core/vec.h"
#include "exp/par.h"

/* the run's ranks: its group's (exp/par.h) */
#define COMM (*(MPI_Comm *)par_group_comm())

enum { KINDS = 4 }; /* of records in a box: kind_of */

/* What the MPI side keeps between windows: the packed boxes going out
 * and what came in, grown as needed. */
struct xmpi {
    uint64_t *cnt_out, *cnt_in;  /* [KINDS P]: packets, returns, mail,
                                    publication entries per rank */
    int *sc, *sd, *rc, *rd;      /* [P]: byte counts and displacements */
    char *out, *in;
    size_t out_cap, in_cap;
};

int xchange_init(struct xchange *x, uint32_t P, int procs, struct diag *d)
{
    memset(x, 0, sizeof *x);
    x->P = P;
    x->procs = procs;
    x->lo = 0;
    x->k = P;
    if (procs <= 1)
        return 0;
    int size = 0, rank = 0;
    MPI_Comm comm = COMM;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    if ((uint32_t)size != P) {
        diag_error(d, NULL, 0, "partitions",
                   "%u partitions over %d MPI ranks: with mpirun, a run is "
                   "split into one partition per rank", P, size);
        return -1;
    }
    x->lo = (uint32_t)rank;
    x->k = 1;
    struct xmpi *m = calloc(1, sizeof *m);
    if (!m ||
        !(m->cnt_out = calloc(2 * KINDS * (size_t)P, sizeof *m->cnt_out)) ||
        !(m->sc = calloc(4 * (size_t)P, sizeof *m->sc))) {
        if (m)
            free(m->cnt_out);
        free(m);
        diag_error(d, NULL, 0, "partitions", "out of memory");
        return -1;
    }
    m->cnt_in = m->cnt_out + KINDS * P;
    m->sd = m->sc + P;
    m->rc = m->sc + 2 * P;
    m->rd = m->sc + 3 * P;
    x->mpi = m;
    return 0;
}

void xchange_free(struct xchange *x)
{
    struct xmpi *m = x->mpi;
    if (m) {
        free(m->cnt_out);
        free(m->sc);
        free(m->out);
        free(m->in);
        free(m);
    }
    memset(x, 0, sizeof *x);
}

/* Every partition in this process: each box handed to its partition. */
static int local_boxes(struct xchange *x, struct net *const *nets)
{
    for (uint32_t j = 0; j < x->k; j++)
        for (uint32_t i = 0; i < x->k; i++) {
            const struct xp_box *b = &nets[i]->xp->box[x->lo + j];
            x->pkts += b->n_pkt;
            x->crs += b->n_cr;
            x->mails += b->n_mail;
            if ((b->n_pkt || b->n_cr || b->n_mail) &&
                net_xp_receive(nets[j], b->pkt, b->n_pkt, b->cr, b->n_cr,
                               b->mail, b->n_mail) != 0)
                return -1;
            net_xp_receive_pub(nets[j], b->pub, b->n_pub);
        }
    return 0;
}

/* A box's records of one kind (0 packets, 1 credit returns, 2 mail, 3
 * publication entries): their array and count. */
static const void *kind_of(const struct xp_box *b, int which, size_t *n)
{
    switch (which) {
    case 0: *n = b->n_pkt; return b->pkt;
    case 1: *n = b->n_cr; return b->cr;
    case 2: *n = b->n_mail; return b->mail;
    default: *n = b->n_pub; return b->pub;
    }
}

/* One all-to-all of what the boxes hold of one kind (`which`, kind_of),
 * `size` a record's bytes. Into m->in; *got records. */
static int mpi_kind(struct xchange *x, const struct xp_box *box, int which,
                    size_t size, size_t *got)
{
    struct xmpi *m = x->mpi;
    size_t out = 0, in = 0;
    for (uint32_t j = 0; j < x->P; j++) {
        size_t n;
        kind_of(&box[j], which, &n);
        m->sc[j] = (int)(n * size);
        m->sd[j] = (int)out;
        out += n * size;
        m->rc[j] = (int)(m->cnt_in[KINDS * j + (uint32_t)which] * size);
        m->rd[j] = (int)in;
        in += (size_t)m->rc[j];
    }
    if (vec_reserve((void **)&m->out, &m->out_cap, out, 1) != 0 ||
        vec_reserve((void **)&m->in, &m->in_cap, in, 1) != 0)
        return -1;
    for (uint32_t j = 0; j < x->P; j++) {
        size_t n;
        const void *src = kind_of(&box[j], which, &n);
        if (m->sc[j])
            memcpy(m->out + m->sd[j], src, (size_t)m->sc[j]);
    }
    MPI_Alltoallv(m->out, m->sc, m->sd, MPI_BYTE, m->in, m->rc, m->rd,
                  MPI_BYTE, COMM);
    x->bytes += out;
    *got = in / size;
    return 0;
}

static int mpi_boxes(struct xchange *x, struct net *net)
{
    struct xmpi *m = x->mpi;
    const struct xp_box *box = net->xp->box;
    for (uint32_t j = 0; j < x->P; j++) {
        m->cnt_out[KINDS * j] = box[j].n_pkt;
        m->cnt_out[KINDS * j + 1] = box[j].n_cr;
        m->cnt_out[KINDS * j + 2] = box[j].n_mail;
        m->cnt_out[KINDS * j + 3] = box[j].n_pub;
        x->pkts += box[j].n_pkt;
        x->crs += box[j].n_cr;
        x->mails += box[j].n_mail;
    }
    MPI_Alltoall(m->cnt_out, KINDS, MPI_UINT64_T, m->cnt_in, KINDS,
                 MPI_UINT64_T, COMM);
    size_t np, nc, nm, nu;
    /* the mail first (as local_boxes delivers it: net_xp_receive); every
     * rank takes part, mail for it or not (x->mail is the run's) */
    if (x->mail) {
        if (mpi_kind(x, box, 2, sizeof(struct xp_mail), &nm) != 0)
            return -1;
        if (net_xp_receive(net, NULL, 0, NULL, 0,
                           (const struct xp_mail *)(void *)m->in, nm) != 0)
            return -1;
    }
    if (mpi_kind(x, box, 0, sizeof(struct xp_pkt), &np) != 0)
        return -1;
    if (np && net_xp_receive(net, (const struct xp_pkt *)(void *)m->in, np,
                             NULL, 0, NULL, 0) != 0)
        return -1;
    if (mpi_kind(x, box, 1, sizeof(struct xp_cr), &nc) != 0)
        return -1;
    if (nc && net_xp_receive(net, NULL, 0, (const struct xp_cr *)(void *)m->in,
                             nc, NULL, 0) != 0)
        return -1;
    /* publication entries only with aries_load "occupancy" (every rank
     * the same network parameters: every rank takes part or none) */
    if (net->p.aries_load == NET_ARIES_OCCUPANCY) {
        if (mpi_kind(x, box, 3, sizeof(struct xp_pub), &nu) != 0)
            return -1;
        net_xp_receive_pub(net, (const struct xp_pub *)(void *)m->in, nu);
    }
    return 0;
}

int xchange_boxes(struct xchange *x, struct net *const *nets)
{
    double t0 = time_wall_seconds();
    x->windows++;
    int rc = 0;
    for (uint32_t i = 0; i < x->k && rc == 0; i++)
        rc = net_xp_flush(nets[i]);
    if (rc == 0)
        rc = x->mpi ? mpi_boxes(x, nets[0]) : local_boxes(x, nets);
    for (uint32_t i = 0; i < x->k; i++)
        net_xp_clear(nets[i]);
    x->exchange_s += time_wall_seconds() - t0;
    return rc;
}

/* Whether every process is ok. */
static bool agreed(bool ok)
{
    uint64_t v = ok;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_UINT64_T, MPI_MIN, COMM);
    return v != 0;
}

int xchange_allgather(struct xchange *x, const void *b, size_t n,
                      void **all, size_t **len)
{
    int P = x->mpi ? x->procs : 1;
    uint64_t mine = n, total = 0;
    uint64_t *sizes = calloc((size_t)P, sizeof *sizes);
    int *cnt = calloc((size_t)P, sizeof *cnt);
    int *disp = calloc((size_t)P, sizeof *disp);
    *len = malloc((size_t)P * sizeof **len);
    *all = NULL;
    bool ok = sizes && cnt && disp && *len;
    if (x->mpi && agreed(ok))
        MPI_Allgather(&mine, 1, MPI_UINT64_T, sizes, 1, MPI_UINT64_T,
                      COMM);
    else if (ok)
        sizes[0] = n;
    for (int i = 0; ok && i < P; i++) {
        ok = sizes[i] <= (uint64_t)INT32_MAX - total;
        disp[i] = (int)total;
        cnt[i] = (int)sizes[i];
        (*len)[i] = (size_t)sizes[i];
        total += sizes[i];
    }
    if (ok)
        ok = (*all = malloc(total ? total : 1)) != NULL;
    if (x->mpi) {
        if ((ok = agreed(ok)))
            MPI_Allgatherv(b, (int)n, MPI_BYTE, *all, cnt, disp, MPI_BYTE,
                           COMM);
        x->bytes += n * (size_t)(P - 1);
    } else if (ok && n) {
        memcpy(*all, b, n);
    }
    free(sizes);
    free(cnt);
    free(disp);
    if (!ok) {
        free(*all);
        free(*len);
        *all = NULL;
        *len = NULL;
        return -1;
    }
    return 0;
}

void xchange_reduce(struct xchange *x, uint64_t *v, size_t n, uint64_t *m,
                    size_t nm)
{
    if (!x->mpi)
        return;
    double t0 = time_wall_seconds();
    if (n)
        MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM,
                      COMM);
    if (nm)
        MPI_Allreduce(MPI_IN_PLACE, m, (int)nm, MPI_UINT64_T, MPI_MIN,
                      COMM);
    x->exchange_s += time_wall_seconds() - t0;
}

void xchange_times(struct xchange *x, double *compute_max,
                   double *compute_mean, double *exchange_mean)
{
    double v[3] = { x->compute_s, x->compute_s, x->exchange_s };
    if (x->mpi) {
        MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_MAX,
                      COMM);
        MPI_Allreduce(MPI_IN_PLACE, v + 1, 2, MPI_DOUBLE, MPI_SUM,
                      COMM);
        v[1] /= x->procs;
        v[2] /= x->procs;
    }
    *compute_max = v[0];
    *compute_mean = v[1];
    *exchange_mean = v[2];
}

void xchange_sum32(struct xchange *x, uint32_t *v, size_t n)
{
    if (x->mpi && n)
        MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT32_T, MPI_SUM,
                      COMM);
}

int xchange_spread(struct xchange *x, bool own, void *ctx,
                   xchange_pack_fn *pack, xchange_add_fn *add)
{
    struct pack p = { 0 };
    int rc = 0;
    if (x->procs == 1) {
        for (uint32_t i = own ? 0 : 1; i < x->k && rc == 0; i++) {
            p.n = 0;
            pack(ctx, i, &p);
            struct unpack u = { .b = p.b, .n = p.n };
            rc = p.oom || add(ctx, x->lo + i, &u) != 0 || u.bad ||
                         u.at != u.n
                     ? -1
                     : 0;
        }
        pack_free(&p);
        return rc;
    }
    pack(ctx, 0, &p);
    if (p.oom) /* the others find it malformed */
        p.n = 0;
    void *all;
    size_t *len, at = 0;
    rc = xchange_allgather(x, p.b, p.n, &all, &len);
    for (int r = 0; rc == 0 && r < x->procs; r++) {
        struct unpack u = { .b = (const unsigned char *)all + at,
                            .n = len[r] };
        if (own || (uint32_t)r != x->lo)
            rc = add(ctx, (uint32_t)r, &u) != 0 || u.bad || u.at != u.n
                     ? -1
                     : 0;
        at += len[r];
    }
    if (all) {
        free(all);
        free(len);
    }
    pack_free(&p);
    uint64_t bad = rc != 0;
    xchange_reduce(x, &bad, 1, NULL, 0);
    return bad ? -1 : 0;
}

void xchange_sum1(void *x, uint64_t *v)
{
    xchange_reduce(x, v, 1, NULL, 0);
}
