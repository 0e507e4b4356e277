/* tests/test_proxy.c — the proxy applications (app/proxy.h): the
 * operations each rank emits per iteration against hand-computed counts
 * and sizes, every send matched by a receive of the same size, MILC's
 * hyper-prime layout, MiniGhost's blocked mapping, HPCG's exchanges and
 * the FFT's transposes, a stream that does not
 * depend on the layer's batch size, a run of each on the simulated XC, and
 * bad parameters. */
#include "test.h"
#include "mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/proxy.h"
#include "core/sim.h"
#include "mpi/mpi.h"

/* ---- a checker that drains every rank's program ------------------------- */

struct msg {
    uint32_t src, dst, tag, seq;
    uint64_t bytes;
};

/* Per rank and iteration ([r * iters + it]) counts of what was emitted. */
struct tally {
    uint32_t nranks, iters;
    uint32_t *sends, *bsends, *recvs, *brecvs, *allreduces, *computes;
    uint32_t *alltoalls;
    uint64_t *a2a_bytes;   /* per peer, summed over the alltoalls */
    uint64_t *bytes;       /* sent */
    simtime *compute_ps;
    uint64_t *peers;       /* [r] bitmask of ranks sent to (ranks < 64) */
    uint64_t hash;         /* of every rank's whole stream */
    struct msg *s, *v;     /* sends and receives */
    size_t ns, nv, cap;
    uint32_t bad;          /* operations breaking a rule */
    uint32_t unmatched;    /* sends without their receive, or the other way */
};

static void tally_free(struct tally *t)
{
    free(t->sends);
    free(t->bsends);
    free(t->recvs);
    free(t->brecvs);
    free(t->allreduces);
    free(t->computes);
    free(t->alltoalls);
    free(t->a2a_bytes);
    free(t->bytes);
    free(t->compute_ps);
    free(t->peers);
    free(t->s);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static int msg_cmp(const void *a, const void *b)
{
    const struct msg *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void hash_in(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        *h ^= (v >> (8 * i)) & 0xff;
        *h *= 1099511628211ull; /* FNV-1a */
    }
}

/* Drain x's program for all its ranks, `cap` operations per call (the
 * layer offers 64), into t. Checks the rules every program must keep:
 * peers inside the job and not the rank itself, user tags, no empty sends,
 * marks numbered 0, 1, ..., iterations marks, the same collectives in the
 * same order on every rank, and every send matched (same source,
 * destination and tag, in order) by a receive of exactly its size. */
static void drain(struct proxy *x, uint32_t cap, struct tally *t)
{
    uint32_t n = x->nranks, it_n = x->p.iterations;
    size_t cells = (size_t)n * (it_n ? it_n : 1);
    memset(t, 0, sizeof *t);
    t->nranks = n, t->iters = it_n;
    t->hash = 14695981039346656037ull;
    t->sends = calloc(cells, sizeof *t->sends);
    t->bsends = calloc(cells, sizeof *t->bsends);
    t->recvs = calloc(cells, sizeof *t->recvs);
    t->brecvs = calloc(cells, sizeof *t->brecvs);
    t->allreduces = calloc(cells, sizeof *t->allreduces);
    t->computes = calloc(cells, sizeof *t->computes);
    t->alltoalls = calloc(cells, sizeof *t->alltoalls);
    t->a2a_bytes = calloc(cells, sizeof *t->a2a_bytes);
    t->bytes = calloc(cells, sizeof *t->bytes);
    t->compute_ps = calloc(cells, sizeof *t->compute_ps);
    t->peers = calloc(n, sizeof *t->peers);
    t->cap = 1024;
    t->s = malloc(t->cap * sizeof *t->s);
    t->v = malloc(t->cap * sizeof *t->v);
    uint64_t *coll = calloc(n, sizeof *coll);
    struct dmpi_op *buf = malloc(cap * sizeof *buf);
    if (!t->sends || !t->bsends || !t->recvs || !t->brecvs ||
        !t->allreduces || !t->computes || !t->alltoalls || !t->a2a_bytes ||
        !t->bytes || !t->compute_ps ||
        !t->peers || !t->s || !t->v || !coll || !buf) {
        CHECK(!"out of memory");
        free(coll);
        free(buf);
        return;
    }
    struct dmpi_app app = proxy_app(x);
    uint32_t seq = 0;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t it = 0, k;
        while ((k = app.next(app.ctx, r, buf, cap)) != 0) {
            CHECK(k <= cap);
            for (uint32_t i = 0; i < k; i++) {
                const struct dmpi_op *op = &buf[i];
                hash_in(&t->hash, r);
                hash_in(&t->hash, op->code);
                hash_in(&t->hash, op->peer);
                hash_in(&t->hash, op->tag);
                hash_in(&t->hash, op->bytes);
                hash_in(&t->hash, op->arg);
                if (it >= it_n) { /* something after the last mark */
                    t->bad++;
                    continue;
                }
                size_t c = (size_t)r * it_n + it;
                bool send = op->code == DMPI_SEND || op->code == DMPI_ISEND;
                bool recv = op->code == DMPI_RECV || op->code == DMPI_IRECV;
                if (send || recv) {
                    if (op->peer >= n || op->peer == r ||
                        op->tag >= DMPI_TAG_COLL || op->bytes == 0) {
                        t->bad++;
                        continue;
                    }
                    if (t->ns == t->cap || t->nv == t->cap) {
                        size_t nc = 2 * t->cap;
                        struct msg *a = realloc(t->s, nc * sizeof *a);
                        if (a)
                            t->s = a;
                        struct msg *b = realloc(t->v, nc * sizeof *b);
                        if (b)
                            t->v = b;
                        if (!a || !b) {
                            CHECK(!"out of memory");
                            break;
                        }
                        t->cap = nc;
                    }
                }
                switch (op->code) {
                case DMPI_SEND:
                case DMPI_ISEND:
                    t->sends[c]++;
                    t->bsends[c] += op->code == DMPI_SEND;
                    t->bytes[c] += op->bytes;
                    if (op->peer < 64)
                        t->peers[r] |= 1ull << op->peer;
                    t->s[t->ns++] = (struct msg){ r, op->peer, op->tag, seq++,
                                                  op->bytes };
                    break;
                case DMPI_RECV:
                case DMPI_IRECV:
                    t->recvs[c]++;
                    t->brecvs[c] += op->code == DMPI_RECV;
                    t->v[t->nv++] = (struct msg){ op->peer, r, op->tag, seq++,
                                                  op->bytes };
                    break;
                case DMPI_ALLREDUCE:
                    t->allreduces[c]++;
                    hash_in(&coll[r], op->bytes + 1);
                    break;
                case DMPI_ALLTOALL:
                    t->alltoalls[c]++;
                    t->a2a_bytes[c] += op->bytes;
                    hash_in(&coll[r], ~op->bytes);
                    break;
                case DMPI_COMPUTE:
                    t->computes[c]++;
                    t->compute_ps[c] += op->arg;
                    break;
                case DMPI_WAITALL:
                    break;
                case DMPI_MARK:
                    if (op->arg != it)
                        t->bad++;
                    it++;
                    break;
                default:
                    t->bad++;
                }
            }
        }
        CHECK_EQ_U(it, it_n);
        if (coll[r] != coll[0])
            t->bad++;
    }
    qsort(t->s, t->ns, sizeof *t->s, msg_cmp);
    qsort(t->v, t->nv, sizeof *t->v, msg_cmp);
    if (t->ns != t->nv)
        t->unmatched += t->ns > t->nv ? (uint32_t)(t->ns - t->nv)
                                      : (uint32_t)(t->nv - t->ns);
    for (size_t i = 0; i < t->ns && i < t->nv; i++)
        if (t->s[i].src != t->v[i].src || t->s[i].dst != t->v[i].dst ||
            t->s[i].tag != t->v[i].tag || t->s[i].bytes != t->v[i].bytes)
            t->unmatched++;
    CHECK_EQ_U(t->bad, 0);
    CHECK_EQ_U(t->unmatched, 0);
    free(coll);
    free(buf);
}

#define AT(t, arr, r, it) ((t)->arr[(size_t)(r) * (t)->iters + (it)])

static int init_ok(struct proxy *x, const struct proxy_params *p,
                   uint32_t nranks, uint32_t ppn)
{
    char err[256];
    int rc = proxy_init(x, p, nranks, ppn, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  proxy_init: %s\n", err);
    CHECK(rc == 0);
    return rc;
}

/* ---- milc ----------------------------------------------------------------- */

/* MILC's setup_hyper_prime layouts, worked by hand (proxy.h):
 * 8^3 x 32 on 16: t 32->16, t 16->8 (already divided), t 8->4 (largest,
 * already divided), then x 8->4: 2 x 1 x 1 x 8. 64^4 on 16: x, y, z, t
 * once each; on 64: then x again (32, divided) and y: 4 x 4 x 2 x 2. */
static void test_milc_layout(void)
{
    static const struct {
        uint32_t n, lat[4], g[4];
    } cases[] = {
        { 16, { 8, 8, 8, 32 }, { 2, 1, 1, 8 } },
        { 16, { 64, 64, 64, 64 }, { 2, 2, 2, 2 } },
        { 64, { 64, 64, 64, 64 }, { 4, 4, 2, 2 } },
        { 6, { 4, 6, 4, 4 }, { 2, 3, 1, 1 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct proxy_params p;
        struct proxy x;
        proxy_defaults(&p, PROXY_MILC);
        p.nx = cases[i].lat[0], p.ny = cases[i].lat[1];
        p.nz = cases[i].lat[2], p.nt = cases[i].lat[3];
        if (init_ok(&x, &p, cases[i].n, 1) != 0)
            continue;
        for (int d = 0; d < 4; d++)
            CHECK_EQ_U(x.grid[d], cases[i].g[d]);
        CHECK_EQ_U(x.p.px * 1000 + x.p.py * 100 + x.p.pz * 10 + x.p.pt,
                   cases[i].g[0] * 1000 + cases[i].g[1] * 100 +
                   cases[i].g[2] * 10 + cases[i].g[3]);
        proxy_free(&x);
    }
}

/* 16 ranks on 8^3 x 32: grid 2 x 1 x 1 x 8, local 4 x 8 x 8 x 4 = 1024
 * sites; the x and t faces are 256 sites: first-neighbour messages
 * 48 * 128 = 6144 B, Naik 48 * 256 = 12288 B. mmvs4d 1024 * 288 / 20e9 s,
 * resid 1024 * 157 / 2 / 20e9 s. */
static void test_milc_ops(void)
{
    const simtime mmvs = 14745600, resid = 4019200; /* ps */
    for (int periodic = 1; periodic >= 0; periodic--) {
        struct proxy_params p;
        struct proxy x;
        struct tally t;
        proxy_defaults(&p, PROXY_MILC);
        p.nx = p.ny = p.nz = 8, p.nt = 32;
        p.iterations = 2;
        p.periodic = periodic;
        if (init_ok(&x, &p, 16, 2) != 0)
            continue;
        CHECK_EQ_U(x.t_iter, 4 * mmvs + resid);
        drain(&x, 64, &t);
        for (uint32_t it = 0; it < 2 && t.sends; it++) {
            /* every rank, periodic: +x and -x are the other rank of its
             * x pair (two messages each way, told apart by tag), +t and
             * -t two more; y and z have one rank (a local copy). Per
             * parity: 4 IRECV (-), 8 ISEND, 4 RECV (+). */
            uint32_t r = 5; /* x = 1, t = 2: interior in t; without
                               periodicity it lacks +x (3 directions:
                               per parity 2 + and 4 - sends, 4 IRECV -
                               and 2 RECV +) */
            CHECK_EQ_U(AT(&t, sends, r, it), periodic ? 16 : 12);
            CHECK_EQ_U(AT(&t, bsends, r, it), 0);
            CHECK_EQ_U(AT(&t, recvs, r, it), periodic ? 16 : 12);
            CHECK_EQ_U(AT(&t, brecvs, r, it), periodic ? 8 : 4);
            CHECK_EQ_U(AT(&t, allreduces, r, it), 2);
            CHECK_EQ_U(AT(&t, computes, r, it), 5);
            CHECK_EQ_U(AT(&t, compute_ps, r, it), 4 * mmvs + resid);
            CHECK_EQ_U(AT(&t, bytes, r, it),
                       (periodic ? 4 : 3) * 2 * (6144 + 12288));
            /* rank 0 (x = 0, t = 0): periodic, the same as rank 5; ember's
             * non-periodic motif: only +x and +t, so 2 parities x 2
             * directions x 2 messages, all to + neighbours */
            CHECK_EQ_U(AT(&t, sends, 0, it), periodic ? 16 : 8);
            CHECK_EQ_U(AT(&t, brecvs, 0, it), 8);
            CHECK_EQ_U(AT(&t, recvs, 0, it), periodic ? 16 : 8);
            CHECK_EQ_U(AT(&t, bytes, 0, it),
                       (periodic ? 4 : 2) * 2 * (6144 + 12288));
            /* rank 15 (x = 1, t = 7): non-periodic: -x, -t only */
            CHECK_EQ_U(AT(&t, sends, 15, it), periodic ? 16 : 8);
            CHECK_EQ_U(AT(&t, brecvs, 15, it), periodic ? 8 : 0);
        }
        uint64_t want = (1u << 4) | (1u << 7) | (1u << 3); /* rank 5 */
        CHECK_EQ_U(t.peers[5], want);
        tally_free(&t);
        proxy_free(&x);
    }
}

/* ---- lammps --------------------------------------------------------------- */

/* 8 ranks, 2 x 2 x 2, periodic; 1000 atoms at density 1: side 10, ghost
 * cut-off 1.5 + 0.5 = 2: swaps of 200 (x), 14*10*2 = 280 (y), 14*14*2 =
 * 392 (z) ghost atoms; 2 * 100 * 0.1 = 20 atoms leave per dimension.
 * Steps 2 and 4 re-neighbour; step 4, the last, prints thermo. */
static void test_lammps_ops(void)
{
    struct proxy_params p;
    struct proxy x;
    struct tally t;
    proxy_defaults(&p, PROXY_LAMMPS);
    p.atoms_per_rank = 1000;
    p.density = 1.0;
    p.cutoff = 1.5, p.skin = 0.5;
    p.reneighbor_every = 2;
    p.iterations = 4;
    if (init_ok(&x, &p, 8, 2) != 0)
        return;
    CHECK_EQ_U(x.grid[0] * 100 + x.grid[1] * 10 + x.grid[2], 222);
    CHECK_EQ_U(x.t_iter, 1000 * 480 * SIMTIME_NS);
    drain(&x, 64, &t);
    const uint64_t ghosts = 200 + 280 + 392;
    const uint64_t fwd = 2 * 24 * ghosts, rev = fwd;
    const uint64_t exch = 3 * (4 + 20 * 88);
    const uint64_t borders = 6 * 4 + 2 * 48 * ghosts;
    for (uint32_t r = 0; r < 8 && t.sends; r++) {
        for (uint32_t it = 0; it < 4; it++) {
            bool ren = it % 2 == 1, thermo = it == 3;
            /* ordinary: 6 forward + 6 reverse swaps (each IRECV, SEND,
             * WAITALL); re-neighbouring: per dimension (2 ranks: one
             * neighbour) a count Sendrecv and the migrating atoms, then 6
             * borders swaps of count + ghosts, then the 6 reverse swaps */
            CHECK_EQ_U(AT(&t, sends, r, it), ren ? 6 + 12 + 6 : 12);
            CHECK_EQ_U(AT(&t, bsends, r, it), ren ? 3 + 6 + 6 : 12);
            CHECK_EQ_U(AT(&t, recvs, r, it), ren ? 24 : 12);
            CHECK_EQ_U(AT(&t, bytes, r, it),
                       ren ? exch + borders + rev : fwd + rev);
            CHECK_EQ_U(AT(&t, allreduces, r, it), thermo ? 5 : 0);
            CHECK_EQ_U(AT(&t, computes, r, it), ren ? 2 : 1);
            CHECK_EQ_U(AT(&t, compute_ps, r, it),
                       (ren ? 1480 : 480) * SIMTIME_US);
        }
    }
    tally_free(&t);
    proxy_free(&x);

    /* without newton, no reverse comm; thermo every step */
    p.newton = false;
    p.thermo_every = 1;
    if (init_ok(&x, &p, 8, 2) != 0)
        return;
    drain(&x, 64, &t);
    if (t.sends) {
        CHECK_EQ_U(AT(&t, sends, 3, 0), 6);
        CHECK_EQ_U(AT(&t, bytes, 3, 0), fwd);
        CHECK_EQ_U(AT(&t, allreduces, 3, 0), 5);
        CHECK_EQ_U(AT(&t, allreduces, 3, 2), 5);
    }
    tally_free(&t);
    proxy_free(&x);

    /* without wrap-around, 2 ranks in a dimension still exchange their
     * migrating atoms both ways: each rank sends the count and the atoms
     * to its one neighbour in every dimension (8 ranks, 2 x 2 x 2) */
    p.newton = true;
    p.thermo_every = 0;
    p.periodic = false;
    if (init_ok(&x, &p, 8, 2) != 0)
        return;
    drain(&x, 64, &t);
    CHECK_EQ_U(t.unmatched, 0);
    uint32_t exch_msgs[8] = { 0 };
    for (size_t i = 0; i < t.ns; i++)
        if (t.s[i].bytes == 20 * 88 && t.s[i].src < 8)
            exch_msgs[t.s[i].src]++;
    for (uint32_t r = 0; r < 8; r++)
        CHECK_EQ_U(exch_msgs[r], 3 * 2); /* 3 dimensions, 2 re-neighbourings */
    tally_free(&t);
    proxy_free(&x);
}

/* ---- amg ------------------------------------------------------------------ */

/* 8 ranks, 2 x 2 x 2, 8^3 points each, 3 levels coarsening 8x per level
 * (local sides 8, 4, 2), reach 1 on level 0 and 2 on coarse levels: every
 * rank is a corner with 7 neighbours on every level. Level 0: 3 faces of
 * 64 values, 3 edges of 8, a corner: 217 values, 1736 B; level 1 (reach 2
 * of 4): faces 2x4x4, edges 2x2x4, corner 2x2x2: 152 values, 1216 B;
 * level 2 (reach 2 of 2): 7 x 8 values, 448 B. Exchanges: level 0:
 * matvec + 2 pre + residual + 2 post = 6; level 1: restriction +
 * interpolation + 2 pre + residual + 2 post = 7; level 2: restriction,
 * interpolation, 1 coarse sweep = 3. */
static void test_amg_ops(void)
{
    struct proxy_params p;
    struct proxy x;
    struct tally t;
    proxy_defaults(&p, PROXY_AMG);
    p.nx = p.ny = p.nz = 8;
    p.levels = 3;
    p.coarsen_first = p.coarsen = 8;
    p.iterations = 2;
    if (init_ok(&x, &p, 8, 1) != 0)
        return;
    /* compute, us: sweeps 512*27*2, 64*80*2, 8*80*2 flops; transfers
     * 512*4*2, 64*4*2; vectors 512*2*6; at 1e9 flop/s: 6 level-0
     * sweeps, 5 level-1, 1 level-2, 2 of each transfer, the vectors */
    const simtime ns = 6 * 27648 + 5 * 10240 + 1280 + 2 * 4096 +
                             2 * 512 + 6144;
    CHECK_EQ_U(x.t_iter, ns * SIMTIME_NS);
    drain(&x, 64, &t);
    for (uint32_t r = 0; r < 8 && t.sends; r++)
        for (uint32_t it = 0; it < 2; it++) {
            CHECK_EQ_U(AT(&t, sends, r, it), 16 * 7);
            CHECK_EQ_U(AT(&t, bsends, r, it), 0);
            CHECK_EQ_U(AT(&t, recvs, r, it), 16 * 7);
            CHECK_EQ_U(AT(&t, bytes, r, it), 6 * 1736 + 7 * 1216 + 3 * 448);
            CHECK_EQ_U(AT(&t, allreduces, r, it), 3);
            CHECK_EQ_U(AT(&t, computes, r, it), 17);
            CHECK_EQ_U(AT(&t, compute_ps, r, it), ns * SIMTIME_NS);
        }
    tally_free(&t);
    proxy_free(&x);

    /* farther neighbours: 8 ranks in a row, 4^3 points each; level 1 has
     * 1 point per rank and reaches 2, so ranks 2 away exchange (8 B);
     * level 0 only the next ones (4*4 values, 128 B). Rank 3: 6 level-0
     * exchanges with 2 neighbours, 3 level-1 exchanges with 4. */
    proxy_defaults(&p, PROXY_AMG);
    p.nx = p.ny = p.nz = 4;
    p.px = 8, p.py = 1, p.pz = 1;
    p.levels = 2;
    p.coarsen_first = 64;
    p.krylov_dots = 2;
    p.iterations = 1;
    if (init_ok(&x, &p, 8, 1) != 0)
        return;
    drain(&x, 64, &t);
    if (t.sends) {
        CHECK_EQ_U(AT(&t, sends, 3, 0), 6 * 2 + 3 * 4);
        CHECK_EQ_U(AT(&t, bytes, 3, 0), 6 * 2 * 128 + 3 * 4 * 8);
        CHECK_EQ_U(t.peers[3], (1u << 1) | (1u << 2) | (1u << 4) | (1u << 5));
        CHECK_EQ_U(AT(&t, sends, 0, 0), 6 * 1 + 3 * 2);
        CHECK_EQ_U(t.peers[0], (1u << 1) | (1u << 2));
        CHECK_EQ_U(AT(&t, allreduces, 3, 0), 2);
    }
    tally_free(&t);
    proxy_free(&x);
}

/* ---- hpcg ------------------------------------------------------------------ */

/* 8 ranks, 2 x 2 x 2, 8^3 points, 2 levels (sides 8, 4): every rank is
 * a corner with 7 neighbours. Level 0: 3 faces of 64 values, 3 edges of
 * 8, a corner: 217 values, 1736 B; level 1: 3 x 16 + 3 x 4 + 1 = 61
 * values, 488 B. Exchanges: level 0 pre SYMGS, residual SpMV, post
 * SYMGS, CG's SpMV; level 1 the coarsest SYMGS. Flops as ReportResults
 * counts them (n = 512 rows, 27 nonzeros): SYMGS 4 x 27 n, SpMV 2 x 27
 * n, three dots and three WAXPBYs 2 n each, coarse SYMGS 4 x 27 x 64. */
static void test_hpcg_ops(void)
{
    struct proxy_params p;
    struct proxy x;
    struct tally t;
    proxy_defaults(&p, PROXY_HPCG);
    p.nx = p.ny = p.nz = 8;
    p.levels = 2;
    p.iterations = 2;
    if (init_ok(&x, &p, 8, 1) != 0)
        return;
    const simtime flops = 2 * 55296 + 27648 + 6912 + 27648 + 12 * 512;
    CHECK_EQ_U(x.t_iter, flops * SIMTIME_NS);
    drain(&x, 64, &t);
    for (uint32_t r = 0; r < 8 && t.sends; r++)
        for (uint32_t it = 0; it < 2; it++) {
            CHECK_EQ_U(AT(&t, sends, r, it), 5 * 7);
            CHECK_EQ_U(AT(&t, bsends, r, it), 5 * 7); /* MPI_Send */
            CHECK_EQ_U(AT(&t, recvs, r, it), 5 * 7);
            CHECK_EQ_U(AT(&t, brecvs, r, it), 0);     /* MPI_Irecv */
            CHECK_EQ_U(AT(&t, bytes, r, it), 4 * 1736 + 488);
            CHECK_EQ_U(AT(&t, allreduces, r, it), 3);
            CHECK_EQ_U(AT(&t, compute_ps, r, it), flops * SIMTIME_NS);
        }
    tally_free(&t);
    proxy_free(&x);

    /* 27 ranks, 3 x 3 x 3: the middle rank (13) exchanges with all 26
     * others, 6 faces x 64 + 12 edges x 8 + 8 corners = 488 values on
     * level 0; its first exchange posts 26 receives, then sends to them
     * in ascending rank order (SetupHalo_ref's neighbour list) */
    p.iterations = 1;
    if (init_ok(&x, &p, 27, 1) != 0)
        return;
    drain(&x, 64, &t);
    if (t.sends) {
        CHECK_EQ_U(t.peers[13], ((1ull << 27) - 1) & ~(1ull << 13));
        CHECK_EQ_U(t.peers[0], (1u << 1) | (1u << 3) | (1u << 4) |
                                   (1u << 9) | (1u << 10) | (1u << 12) |
                                   (1u << 13));
        CHECK_EQ_U(AT(&t, sends, 13, 0), 5 * 26);
    }
    tally_free(&t);
    proxy_free(&x);
    if (init_ok(&x, &p, 27, 1) != 0) /* the cursors at the start again */
        return;
    struct dmpi_op ops[64];
    struct dmpi_app app = proxy_app(&x);
    uint32_t k = app.next(app.ctx, 13, ops, 64), sends = 0, last = 0;
    CHECK(k >= 52);
    for (uint32_t i = 0; i < 26 && i < k; i++)
        CHECK_EQ_U(ops[i].code, DMPI_IRECV);
    for (uint32_t i = 26; i < 52 && i < k; i++) {
        CHECK_EQ_U(ops[i].code, DMPI_SEND);
        CHECK(i == 26 || ops[i].peer > last);
        last = ops[i].peer;
        sends += ops[i].bytes;
    }
    CHECK_EQ_U(sends, 8 * 488);
    proxy_free(&x);
}

/* ---- fft ------------------------------------------------------------------- */

/* 4 ranks, 8 x 8 x 4 points: slabs of 2 planes (64 points a rank); the
 * transpose sends 2 x 2 x 4 complex doubles = 256 B to each rank; 2-D
 * transforms 5 x 64 x log2(32) = 1600 flops, 1-D 5 x 64 x log2(8) =
 * 960, at 1e9. Two alltoalls, or one with transposed_out. */
static void test_fft_ops(void)
{
    for (int out = 0; out <= 1; out++) {
        struct proxy_params p;
        struct proxy x;
        struct tally t;
        proxy_defaults(&p, PROXY_FFT);
        p.nx = p.ny = 8, p.nz = 4;
        p.peflops = 1e9;
        p.transposed_out = out;
        p.iterations = 3;
        if (init_ok(&x, &p, 4, 1) != 0)
            return;
        CHECK_EQ_U(x.t_iter, (1600 + 960) * SIMTIME_NS);
        drain(&x, 64, &t);
        for (uint32_t r = 0; r < 4 && t.sends; r++)
            for (uint32_t it = 0; it < 3; it++) {
                CHECK_EQ_U(AT(&t, alltoalls, r, it), 2 - out);
                CHECK_EQ_U(AT(&t, a2a_bytes, r, it), (2 - out) * 256);
                CHECK_EQ_U(AT(&t, sends, r, it), 0);
                CHECK_EQ_U(AT(&t, computes, r, it), 2);
            }
        tally_free(&t);
        proxy_free(&x);
    }
}

/* ---- minighost ------------------------------------------------------------ */

/* 8 ranks, 2 x 2 x 2, 10^3 points, 5 variables: 3 faces of 10*10*5*8 =
 * 4000 B; 5 stencils of 1000 * 5 flops at 1e10; 5 (or 2 at 40 %) sums. */
static void test_minighost_ops(void)
{
    for (int pct = 100; pct >= 40; pct -= 60) {
        struct proxy_params p;
        struct proxy x;
        struct tally t;
        proxy_defaults(&p, PROXY_MINIGHOST);
        p.nx = p.ny = p.nz = 10;
        p.percent_sum = (uint32_t)pct;
        p.iterations = 3;
        if (init_ok(&x, &p, 8, 1) != 0)
            continue;
        drain(&x, 64, &t);
        for (uint32_t r = 0; r < 8 && t.sends; r++)
            for (uint32_t it = 0; it < 3; it++) {
                CHECK_EQ_U(AT(&t, sends, r, it), 3);
                CHECK_EQ_U(AT(&t, bsends, r, it), 0);
                CHECK_EQ_U(AT(&t, recvs, r, it), 3);
                CHECK_EQ_U(AT(&t, bytes, r, it), 3 * 4000);
                CHECK_EQ_U(AT(&t, allreduces, r, it), pct == 100 ? 5 : 2);
                CHECK_EQ_U(AT(&t, computes, r, it), 5);
                CHECK_EQ_U(AT(&t, compute_ps, r, it), 5 * 500 * SIMTIME_NS);
            }
        tally_free(&t);
        proxy_free(&x);
    }
}

/* Directed face-neighbour pairs whose two ranks share a node. */
static uint32_t same_node_pairs(const struct proxy *x)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < x->nranks; r++)
        for (int d = 0; d < 3; d++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int8_t off[4] = { 0, 0, 0, 0 };
                off[d] = (int8_t)dir;
                uint32_t q = proxy_neighbour(x, r, off);
                if (q != UINT32_MAX && q / x->ppn == r / x->ppn)
                    n++;
            }
    return n;
}

/* 64 ranks on 4 x 4 x 4, 8 per node. Linear: a node holds a 4 x 2 x 1
 * slab, 10 adjacent pairs (20 directed), 160 in all; blocked: a 2 x 2 x 2
 * cube, 12 pairs, 192. Each blocked node's ranks fill a box of 8. An
 * elongated sub-domain (100 x 10 x 10) keeps the blocks thin in x. Ranks
 * that are not whole nodes cannot be blocked. */
static void test_minighost_mapping(void)
{
    struct proxy_params p;
    struct proxy x;
    struct tally t;
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.nx = p.ny = p.nz = 10;
    p.iterations = 1;
    if (init_ok(&x, &p, 64, 8) != 0)
        return;
    CHECK_EQ_U(same_node_pairs(&x), 160);
    proxy_free(&x);

    p.mapping = 1;
    if (init_ok(&x, &p, 64, 8) != 0)
        return;
    CHECK_EQ_U(x.block[0] * 100 + x.block[1] * 10 + x.block[2], 222);
    CHECK_EQ_U(same_node_pairs(&x), 192);
    for (uint32_t node = 0; node < 8; node++) {
        uint32_t lo[3] = { 9, 9, 9 }, hi[3] = { 0, 0, 0 };
        for (uint32_t r = node * 8; r < node * 8 + 8; r++) {
            uint32_t pos = x.pos_of[r];
            uint32_t c[3] = { pos % 4, pos / 4 % 4, pos / 16 };
            CHECK_EQ_U(x.rank_at[pos], r);
            for (int d = 0; d < 3; d++) {
                lo[d] = c[d] < lo[d] ? c[d] : lo[d];
                hi[d] = c[d] > hi[d] ? c[d] : hi[d];
            }
        }
        CHECK_EQ_U((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) *
                   (hi[2] - lo[2] + 1), 8);
    }
    drain(&x, 64, &t); /* still every send matched */
    if (t.sends)
        CHECK_EQ_U(AT(&t, bytes, 0, 0), 3 * 4000);
    tally_free(&t);
    proxy_free(&x);

    p.nx = 100;
    if (init_ok(&x, &p, 64, 8) == 0) {
        CHECK_EQ_U(x.block[0] * 100 + x.block[1] * 10 + x.block[2], 124);
        proxy_free(&x);
    }

    char err[256] = "";
    CHECK(proxy_init(&x, &p, 12, 5, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "not a multiple of 5");
    proxy_free(&x);

    /* random (Pedretti et al.'s "Random"): a permutation of the grid's
     * places, the seed's and the job's; far fewer neighbours share a node
     * (the expected count of 160 pairs' 7/63 chance: about 18) */
    p.nx = 10;
    p.mapping = 2;
    p.seed = 7;
    p.instance = 1;
    uint32_t first[64];
    if (init_ok(&x, &p, 64, 8) != 0)
        return;
    uint64_t seen = 0;
    for (uint32_t r = 0; r < 64; r++) {
        CHECK(x.pos_of[r] < 64 && x.rank_at[x.pos_of[r]] == r);
        seen |= UINT64_C(1) << x.pos_of[r];
        first[r] = x.pos_of[r];
    }
    CHECK(seen == UINT64_MAX);
    CHECK(same_node_pairs(&x) < 60);
    drain(&x, 64, &t); /* every send matched */
    tally_free(&t);
    proxy_free(&x);
    if (init_ok(&x, &p, 64, 8) != 0)
        return;
    CHECK(memcmp(first, x.pos_of, sizeof first) == 0); /* same stream */
    proxy_free(&x);
    p.instance = 2;
    if (init_ok(&x, &p, 64, 8) != 0)
        return;
    CHECK(memcmp(first, x.pos_of, sizeof first) != 0); /* another job's */
    proxy_free(&x);
}

/* ---- the stream does not depend on the batch ------------------------------ */

static void kind_small(struct proxy_params *p, enum proxy_kind k)
{
    proxy_defaults(p, k);
    p->iterations = 3;
    switch (k) {
    case PROXY_MILC:
        p->nx = p->ny = p->nz = 8, p->nt = 32;
        break;
    case PROXY_LAMMPS:
        p->atoms_per_rank = 1000;
        p->density = 1.0;
        p->reneighbor_every = 2;
        break;
    case PROXY_AMG:
        p->nx = p->ny = p->nz = 8;
        p->levels = 3;
        break;
    case PROXY_HPCG:
        p->nx = p->ny = p->nz = 8;
        p->levels = 2;
        break;
    case PROXY_FFT:
        p->nx = p->ny = 32, p->nz = 16;
        break;
    default:
        p->nx = p->ny = p->nz = 16;
        p->mapping = 1;
        break;
    }
}

static void test_batch_independent(void)
{
    for (int k = 0; k < PROXY_KIND_COUNT; k++) {
        struct proxy_params p;
        kind_small(&p, (enum proxy_kind)k);
        uint64_t h[2] = { 0, 1 };
        for (int i = 0; i < 2; i++) {
            struct proxy x;
            struct tally t;
            if (init_ok(&x, &p, 16, 2) != 0)
                continue;
            drain(&x, i ? 3 : 64, &t);
            h[i] = t.hash;
            tally_free(&t);
            proxy_free(&x);
        }
        if (h[0] != h[1])
            fprintf(stderr, "  %s: the stream differs with 3 per batch\n",
                    proxy_kind_names[k]);
        CHECK_EQ_U(h[0], h[1]);
    }
}

/* ---- end to end ----------------------------------------------------------- */

/* Each kind, 16 ranks on 8 nodes of the 12-cabinet XC, 2 iterations: the
 * job finishes, has 2 iterations, took longer than its computing alone. */
static void test_run_on_xc(void)
{
    for (int k = 0; k < PROXY_KIND_COUNT; k++) {
        struct mpi_h h;
        if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
            CHECK(!"setup");
            mpi_h_teardown(&h);
            return;
        }
        struct proxy_params p;
        struct proxy x;
        kind_small(&p, (enum proxy_kind)k);
        p.iterations = 2;
        uint32_t nodes[8];
        for (uint32_t i = 0; i < 8; i++)
            nodes[i] = mpi_h_node_on(&h.t, 11 * i);
        if (init_ok(&x, &p, 16, 2) != 0) {
            mpi_h_teardown(&h);
            continue;
        }
        struct dmpi_job_spec js = { .name = proxy_kind_names[k],
                                    .nodes = nodes, .n_nodes = 8, .ppn = 2,
                                    .app = proxy_app(&x) };
        if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
            const struct dmpi_job_result *r = &h.m.res[0];
            CHECK(r->finished);
            CHECK_EQ_U(r->n_iter, 2);
            CHECK(r->msgs > 0);
            simtime took = r->end - r->start;
            CHECK(took > 2 * x.t_iter);
            fprintf(stderr, "  %-9s 16 ranks: %8.1f us for 2 iterations "
                    "(compute %8.1f us), %llu messages\n",
                    proxy_kind_names[k], (double)took / SIMTIME_US,
                    2.0 * (double)x.t_iter / SIMTIME_US,
                    (unsigned long long)r->msgs);
            /* once the network drains, every request and transfer has
             * been given back: no send was left without its receive */
            sim_run(&h.s, SIMTIME_MAX);
            uint32_t xfers, reqs;
            dmpi_in_use(&h.m, &xfers, &reqs);
            CHECK_EQ_U(xfers, 0);
            CHECK_EQ_U(reqs, 0);
        }
        proxy_free(&x);
        mpi_h_teardown(&h);
    }
}

/* ---- defaults and bad parameters ------------------------------------------ */

/* Every kind's defaults initialise on 64 ranks; their compute per
 * iteration is the documented one. */
static void test_defaults(void)
{
    /* milc 64^4 on 4 x 4 x 2 x 2: 16*16*32*32 sites; 4 mmvs4d + resid */
    const simtime milc = 4 * 3774873600ull + 1028915200ull;
    /* lammps: 32000 atoms x 480 ns; minighost: 5 x 1e6 x 5 / 1e10 s */
    /* hpcg 104^3 = n rows: 12 n (dots, WAXPBYs) + 54 n (SpMV) + 270 n on
     * each of levels 0-2 (sides 104, 52, 26) + 108 n on level 3 (13);
     * fft 256^3 on 64: 262,144 points a rank, 5 x that x (16 + 8) flops
     * at 2e9 */
    const simtime want[PROXY_KIND_COUNT] = {
        [PROXY_MILC] = milc,
        [PROXY_HPCG] = (13498368ull + 60742656 + 303713280 + 37964160 +
                        4745520 + 237276) * SIMTIME_NS,
        [PROXY_FFT] = 15728640 * SIMTIME_NS,
        [PROXY_LAMMPS] = 32000 * 480 * SIMTIME_NS,
        [PROXY_MINIGHOST] = 2500 * SIMTIME_US,
    };
    for (int k = 0; k < PROXY_KIND_COUNT; k++) {
        struct proxy_params p;
        struct proxy x;
        proxy_defaults(&p, (enum proxy_kind)k);
        if (init_ok(&x, &p, 64, 16) != 0)
            continue;
        if (want[k])
            CHECK_EQ_U(x.t_iter, want[k]);
        CHECK(x.t_iter > 0);
        CHECK(x.p.iterations > 0);
        proxy_free(&x);
    }
}

static void bad(const struct proxy_params *p, uint32_t nranks, uint32_t ppn,
                const char *want)
{
    struct proxy x;
    char err[256] = "";
    CHECK(proxy_init(&x, p, nranks, ppn, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, want);
    proxy_free(&x);
}

static void test_bad_params(void)
{
    struct proxy_params p;
    proxy_defaults(&p, PROXY_MILC);
    bad(&p, 12, 1, "not enough factors of 3");
    bad(&p, 59, 1, "prime factor above 53");
    bad(&p, 0, 1, "no ranks");
    p.px = 2;
    bad(&p, 16, 1, "give all of px py pz pt");
    p.py = 2, p.pz = 2, p.pt = 3;
    bad(&p, 24, 1, "do not divide");
    p.pt = 2;
    bad(&p, 24, 1, "does not hold the job's 24 ranks");
    proxy_defaults(&p, PROXY_MILC);
    p.peflops = 0;
    bad(&p, 16, 1, "peflops");
    p.peflops = 1e-12;
    bad(&p, 16, 1, "over 100 days");
    p.compute = 5 * SIMTIME_US; /* replaces every computed phase */
    struct proxy x;
    if (init_ok(&x, &p, 16, 1) == 0) {
        CHECK_EQ_U(x.t_iter, 5 * 5 * SIMTIME_US);
        proxy_free(&x);
    }

    proxy_defaults(&p, PROXY_LAMMPS);
    p.atoms_per_rank = 1000, p.density = 1, p.cutoff = 10;
    bad(&p, 8, 1, "exceeds the sub-domain");
    proxy_defaults(&p, PROXY_LAMMPS);
    p.border_bytes = 0;
    bad(&p, 8, 1, "bytes per atom");
    proxy_defaults(&p, PROXY_LAMMPS);
    p.pt = 2;
    bad(&p, 8, 1, "pt is milc's");
    proxy_defaults(&p, PROXY_LAMMPS);
    p.mapping = 1;
    bad(&p, 8, 1, "mapping is a minighost parameter");

    proxy_defaults(&p, PROXY_AMG);
    p.periodic = true;
    bad(&p, 8, 1, "Dirichlet");
    proxy_defaults(&p, PROXY_AMG);
    p.levels = 0;
    bad(&p, 8, 1, "levels must be");
    proxy_defaults(&p, PROXY_AMG);
    p.coarse_reach = 5;
    bad(&p, 8, 1, "coarse_reach");
    proxy_defaults(&p, PROXY_AMG);
    p.krylov_dots = 0;
    bad(&p, 8, 1, "krylov_dots");

    proxy_defaults(&p, PROXY_MINIGHOST);
    p.px = 5;
    bad(&p, 12, 1, "does not hold the job's 12 ranks");
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.stencil = 25;
    bad(&p, 8, 1, "stencil 25");
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.percent_sum = 101;
    bad(&p, 8, 1, "percent_sum");
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.mapping = 3;
    bad(&p, 8, 1, "mapping 3");
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.mapping = 1;
    bad(&p, 8, 0, "ppn >= 1");
    proxy_defaults(&p, PROXY_MINIGHOST);
    p.num_vars = 0;
    bad(&p, 8, 1, "num_vars");

    proxy_defaults(&p, PROXY_HPCG);
    p.periodic = true;
    bad(&p, 8, 1, "no periodic");
    proxy_defaults(&p, PROXY_HPCG);
    p.nx = 100; /* 4 levels: multiples of 8 */
    bad(&p, 8, 1, "multiples of 8");
    proxy_defaults(&p, PROXY_HPCG);
    p.levels = 9;
    bad(&p, 8, 1, "levels must be 1 to 8");
    proxy_defaults(&p, PROXY_HPCG);
    p.nx = p.ny = 8, p.nz = 128;
    bad(&p, 8, 1, "local problem 8 x 8 x 128 is too thin");
    proxy_defaults(&p, PROXY_HPCG);
    bad(&p, 17, 1, "process grid 1 x 1 x 17 is too thin");
    proxy_defaults(&p, PROXY_HPCG);
    p.px = 2, p.py = 2, p.pz = 1;
    bad(&p, 8, 1, "does not hold the job's 8 ranks");

    proxy_defaults(&p, PROXY_FFT);
    bad(&p, 3, 1, "ranks must divide nx (256) and ny (256)");
    proxy_defaults(&p, PROXY_FFT);
    p.ny = 100;
    bad(&p, 8, 1, "must divide");
    proxy_defaults(&p, PROXY_FFT);
    p.px = 4;
    bad(&p, 4, 1, "not FFT parameters");
    proxy_defaults(&p, PROXY_FFT);
    p.peflops = 0;
    bad(&p, 4, 1, "peflops");

    proxy_defaults(&p, PROXY_MINIGHOST);
    p.kind = PROXY_KIND_COUNT;
    bad(&p, 8, 1, "is not one of milc");
    CHECK(proxy_kind_names[PROXY_KIND_COUNT] == NULL);
    CHECK(!strcmp(proxy_kind_names[PROXY_AMG], "amg"));
}

const struct test_case tests_proxy[] = {
    TEST(test_milc_layout),
    TEST(test_milc_ops),
    TEST(test_lammps_ops),
    TEST(test_amg_ops),
    TEST(test_hpcg_ops),
    TEST(test_fft_ops),
    TEST(test_minighost_ops),
    TEST(test_minighost_mapping),
    TEST(test_batch_independent),
    TEST(test_run_on_xc),
    TEST(test_defaults),
    TEST(test_bad_params),
    { NULL, NULL },
};
