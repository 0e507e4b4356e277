/* app/gpcnet.c — GPCNeT's kernels and statistics (see gpcnet.h), after
 * repo:netbench/GPCNET v1.3 (network_load_test.c, congestors.c,
 * random_ring.c, utils.c; our reference notes §1): the four congestors
 * (all-to-all, two-sided and Put incasts, Get broadcast), the canaries
 * (random-ring latency and bandwidth, 8-byte allreduce), and the
 * statistics and congestion impact factor GPCNeT prints. */
#include "app/gpcnet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

const char *const gpcnet_kernel_names[] = {
    "a2a",        "p2p-incast", "rma-incast", "rma-bcast",
    "rr-latency", "rr-bw-sync", "allreduce",  NULL
};

int gpcnet_kernel_find(const char *name)
{
    for (int k = 0; gpcnet_kernel_names[k]; k++)
        if (strcmp(name, gpcnet_kernel_names[k]) == 0)
            return k;
    return -1;
}

bool gpcnet_is_congestor(enum gpcnet_kernel k)
{
    return k <= GPCNET_RMA_BCAST;
}

bool gpcnet_is_latency(enum gpcnet_kernel k)
{
    return k == GPCNET_RR_LATENCY || k == GPCNET_ALLREDUCE;
}

static bool is_ring(enum gpcnet_kernel k)
{
    return k == GPCNET_RR_LATENCY || k == GPCNET_RR_BW_SYNC;
}

/* Defaults, from network_load_test.c v1.3 unless said otherwise. */
void gpcnet_defaults(struct gpcnet_params *p, enum gpcnet_kernel k)
{
    memset(p, 0, sizeof *p);
    p->kernel = k;
    p->outstanding = 8;   /* BW_OUTSTANDING */
    p->iters_per_ring = 1;
    switch (k) {
    case GPCNET_A2A:        /* A2A_MSG_COUNT 512 doubles */
    case GPCNET_P2P_INCAST: /* INCAST_MSG_COUNT 512 doubles */
    case GPCNET_RMA_INCAST: /* INCAST_MSG_COUNT (rma_incast_congestor) */
    case GPCNET_RMA_BCAST:  /* BCAST_MSG_COUNT 512 doubles */
        p->bytes = 512 * 8;
        p->iterations = GPCNET_FOREVER; /* until the canary ends */
        break;
    case GPCNET_RR_LATENCY: /* 1 double (p2p_latency) */
        p->bytes = 8;
        p->iterations = 100;   /* 10 rings (GPCNeT: NUM_LAT_TESTS x
                                  NUM_LAT_RANDS rings, 10 s bounded) */
        p->iters_per_ring = 10; /* GPCNeT: NUM_LAT_ITERS 200 */
        break;
    case GPCNET_RR_BW_SYNC: /* BW_MSG_COUNT 16384 doubles */
        p->bytes = 16384 * 8;
        p->iterations = 16;     /* 2 rings */
        p->iters_per_ring = 8;  /* NUM_BW_ITERS */
        break;
    case GPCNET_ALLREDUCE:  /* 1 double (allreduce_test) */
        p->bytes = 8;
        p->iterations = 200;    /* NUM_ALLREDUCE_ITERS: one "test" */
        break;
    default:
        break;
    }
}

void gpcnet_free(struct gpcnet *g)
{
    free(g->iter);
    free(g->sub);
    free(g->left);
    free(g->right);
    g->iter = g->sub = g->left = g->right = NULL;
    for (int s = 0; s < GPCNET_RING_SLOTS; s++) {
        free(g->perm[s]);
        free(g->pos[s]);
        g->perm[s] = g->pos[s] = NULL;
        g->ring_ok[s] = false;
    }
}

int gpcnet_init(struct gpcnet *g, const struct gpcnet_params *p,
                uint32_t nranks, char *err, size_t err_cap)
{
    memset(g, 0, sizeof *g);
    if ((unsigned)p->kernel >= GPCNET_KERNEL_COUNT) {
        snprintf(err, err_cap, "gpcnet: unknown kernel %d", (int)p->kernel);
        return -1;
    }
    const char *name = gpcnet_kernel_names[p->kernel];
    if (nranks < 2) {
        snprintf(err, err_cap, "gpcnet %s: needs 2 ranks or more, not %u",
                 name, nranks);
        return -1;
    }
    if (p->bytes == 0 || p->iterations == 0 ||
        (is_ring(p->kernel) && p->iters_per_ring == 0) ||
        (p->kernel == GPCNET_RR_BW_SYNC && p->outstanding == 0)) {
        snprintf(err, err_cap, "gpcnet %s: bytes, iterations, "
                 "iters_per_ring and outstanding must be 1 or more", name);
        return -1;
    }
    if (p->kernel == GPCNET_RR_BW_SYNC && p->outstanding > UINT32_MAX / 8) {
        snprintf(err, err_cap, "gpcnet %s: outstanding %u is too many",
                 name, p->outstanding);
        return -1;
    }
    g->p = *p;
    g->nranks = nranks;
    g->iter = calloc(nranks, sizeof *g->iter);
    g->sub = calloc(nranks, sizeof *g->sub);
    bool ok = g->iter && g->sub;
    if (is_ring(p->kernel)) {
        g->left = calloc(nranks, sizeof *g->left);
        g->right = calloc(nranks, sizeof *g->right);
        ok = ok && g->left && g->right;
        for (int s = 0; s < GPCNET_RING_SLOTS; s++) {
            g->perm[s] = malloc(nranks * sizeof *g->perm[s]);
            g->pos[s] = malloc(nranks * sizeof *g->pos[s]);
            ok = ok && g->perm[s] && g->pos[s];
        }
    }
    if (!ok) {
        gpcnet_free(g);
        snprintf(err, err_cap, "gpcnet %s: out of memory for %u ranks",
                 name, nranks);
        return -1;
    }
    return 0;
}

/* ---- random rings ---------------------------------------------------------- */

void gpcnet_ring(uint64_t seed, uint64_t instance, uint32_t k, uint32_t n,
                 uint32_t *perm)
{
    struct rng r = rng_stream(seed, RNG_WORKLOAD, instance);
    /* Ring k starts 2^32 numbers into the stream: a shuffle of n < 2^32
     * ranks draws n - 1 numbers and, with probability < n / 2^32 each,
     * one more, so rings never share draws in practice and each is a
     * function of k alone (rng.h: the i-th number depends on key and i). */
    r.ctr = (uint64_t)k << 32;
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    rng_shuffle_u32(&r, perm, n);
}

/* The cache slot holding ring k, computed if need be. */
static uint32_t ring_slot(struct gpcnet *g, uint32_t k)
{
    uint32_t s = k % GPCNET_RING_SLOTS;
    if (!g->ring_ok[s] || g->ring_id[s] != k) {
        gpcnet_ring(g->p.seed, g->p.instance, k, g->nranks, g->perm[s]);
        for (uint32_t i = 0; i < g->nranks; i++)
            g->pos[s][g->perm[s][i]] = i;
        g->ring_id[s] = k;
        g->ring_ok[s] = true;
    }
    return s;
}

void gpcnet_neighbours(struct gpcnet *g, uint32_t k, uint32_t r,
                       uint32_t *left, uint32_t *right)
{
    uint32_t s = ring_slot(g, k), n = g->nranks;
    uint32_t i = g->pos[s][r];
    *left = g->perm[s][(i + n - 1) % n];
    *right = g->perm[s][(i + 1) % n];
}

/* ---- the programs ---------------------------------------------------------- */

static struct dmpi_op op(uint8_t code, uint32_t peer, uint32_t tag,
                         uint64_t bytes)
{
    return (struct dmpi_op){ .code = code, .peer = peer, .tag = tag,
                             .bytes = bytes };
}

static bool pof2(uint32_t n)
{
    return (n & (n - 1)) == 0;
}

/* Operation i of rank r's current iteration into *o; false past its end.
 * The last operation of every iteration is its DMPI_MARK. */
static bool op_at(const struct gpcnet *g, uint32_t r, uint32_t i,
                  struct dmpi_op *o)
{
    const struct gpcnet_params *p = &g->p;
    uint32_t n = g->nranks, last;
    const uint32_t tc = GPCNET_TAG_CONGESTOR;
    switch (p->kernel) {
    case GPCNET_A2A: /* a2a_congestor, peers i = 1 .. n-1 */
        last = 3 * (n - 1);
        if (i < last) {
            uint32_t step = i / 3 + 1, src, dst;
            /* a2a_congestor: MPI_Sendrecv with peer r ^ i when n is a power of
             * two, else to r + i and from r - i: one partner per step, n - 1
             * steps */
            if (pof2(n)) {
                src = dst = r ^ step;
            } else {
                src = (r + n - step) % n;
                dst = (r + step) % n;
            }
            if (i % 3 == 0)
                *o = op(DMPI_IRECV, src, tc, p->bytes);
            else if (i % 3 == 1)
                *o = op(DMPI_ISEND, dst, tc, p->bytes);
            else
                *o = op(DMPI_WAITALL, 0, 0, 0);
            return true;
        }
        break;
    case GPCNET_P2P_INCAST: /* p2p_incast_congestor */
        /* rank 0 posts a receive from every other rank and waits; the others
         * send to it, blocking: an (n - 1)-to-1 incast at rank 0's node */
        if (r == 0) {
            last = n;
            if (i + 1 < n)
                *o = op(DMPI_IRECV, i + 1, tc, p->bytes);
            else if (i + 1 == n)
                *o = op(DMPI_WAITALL, 0, 0, 0);
        } else {
            last = 1;
            if (i == 0)
                *o = op(DMPI_SEND, 0, tc, p->bytes);
        }
        if (i < last)
            return true;
        break;
    case GPCNET_RMA_INCAST: /* rma_incast_congestor (r != 0) */
    case GPCNET_RMA_BCAST:  /* rma_bcast_congestor */
        /* every rank but 0 (the passive target, gpcnet_next) Puts 4 KiB into
         * rank 0's window, or Gets it, then flushes: the one-sided incast and
         * broadcast, each flush waiting for its own operation */
        last = 2;
        if (i == 0)
            *o = op(p->kernel == GPCNET_RMA_INCAST ? DMPI_PUT : DMPI_GET, 0,
                    0, p->bytes);
        else if (i == 1)
            *o = op(DMPI_FLUSH, 0, 0, 0);
        if (i < last)
            return true;
        break;
    case GPCNET_RR_LATENCY: /* p2p_latency: Irecv left (81), Irecv right
                               (82), Isend left (82), Isend right (81) */
        last = 5;
        if (i < 4) {
            uint32_t peer = i % 2 == 0 ? g->left[r] : g->right[r];
            uint32_t tag = i == 0 || i == 3 ? GPCNET_TAG_LEFT
                                            : GPCNET_TAG_RIGHT;
            *o = op(i < 2 ? DMPI_IRECV : DMPI_ISEND, peer, tag, p->bytes);
        } else if (i == 4) {
            *o = op(DMPI_WAITALL, 0, 0, 0);
        }
        if (i < last)
            return true;
        break;
    case GPCNET_RR_BW_SYNC: { /* p2p_neighbors */
        /* p2p_neighbors: BW_OUTSTANDING (8) receives and sends with each ring
         * neighbour in flight, then a barrier inside the timed iteration — the
         * "RR Two-sided BW+Sync" canary of network_load_test */
        uint32_t m = 2 * p->outstanding;
        last = 2 * m + 2;
        if (i < m) /* Irecv left, Irecv right, outstanding times */
            *o = i % 2 == 0 ? op(DMPI_IRECV, g->left[r], GPCNET_TAG_LEFT,
                                 p->bytes)
                            : op(DMPI_IRECV, g->right[r], GPCNET_TAG_RIGHT,
                                 p->bytes);
        else if (i < 2 * m) /* Isend left, Isend right */
            *o = i % 2 == 0 ? op(DMPI_ISEND, g->left[r], GPCNET_TAG_RIGHT,
                                 p->bytes)
                            : op(DMPI_ISEND, g->right[r], GPCNET_TAG_LEFT,
                                 p->bytes);
        else if (i == 2 * m)
            *o = op(DMPI_WAITALL, 0, 0, 0);
        else if (i == 2 * m + 1)
            *o = op(DMPI_BARRIER, 0, 0, 0);
        if (i < last)
            return true;
        break;
    }
    case GPCNET_ALLREDUCE: /* allreduce_test */
        last = 1;
        if (i == 0) {
            *o = op(DMPI_ALLREDUCE, 0, 0, p->bytes);
            return true;
        }
        break;
    default:
        return false;
    }
    if (i == last) {
        *o = (struct dmpi_op){ .code = DMPI_MARK, .arg = g->iter[r] };
        return true;
    }
    return false;
}

/* Hands out at most one iteration per call: the layer calls again when it
 * has run them. */
static uint32_t gpcnet_next(void *ctx, uint32_t r, struct dmpi_op *out,
                            uint32_t cap)
{
    struct gpcnet *g = ctx;
    const struct gpcnet_params *p = &g->p;
    if (r >= g->nranks || g->iter[r] >= p->iterations)
        return 0;
    if (r == 0 && (p->kernel == GPCNET_RMA_INCAST ||
                   p->kernel == GPCNET_RMA_BCAST))
        return 0; /* the passive target */
    /* a new random ring every iters_per_ring iterations, as GPCNeT draws
     * nrands rings per test (the same ring on every rank: a function of
     * the seed and the ring's number) */
    if (g->sub[r] == 0 && is_ring(p->kernel) &&
        g->iter[r] % p->iters_per_ring == 0)
        gpcnet_neighbours(g, g->iter[r] / p->iters_per_ring, r,
                          &g->left[r], &g->right[r]);
    uint32_t k = 0;
    while (k < cap) {
        struct dmpi_op o;
        if (!op_at(g, r, g->sub[r], &o))
            break; /* not reached: every iteration ends with its mark */
        out[k++] = o;
        g->sub[r]++;
        if (o.code == DMPI_MARK) {
            g->sub[r] = 0;
            g->iter[r]++;
            break;
        }
    }
    return k;
}

struct dmpi_app gpcnet_app(struct gpcnet *g)
{
    return (struct dmpi_app){ .ctx = g, .next = gpcnet_next };
}

/* ---- the congestor set (gpcnet_set) ---------------------------------------- */

void gpcnet_set_free(struct gpcnet_set *s)
{
    if (s->k)
        for (int c = 0; c < GPCNET_SET_KERNELS; c++)
            gpcnet_free(&s->k[c]);
    free(s->k);
    free(s->color);
    free(s->sub);
    free(s->member);
    memset(s, 0, sizeof *s);
}

int gpcnet_set_init(struct gpcnet_set *s, const struct gpcnet_params *p,
                    uint32_t nranks, uint32_t ppn, char *err, size_t err_cap)
{
    memset(s, 0, sizeof *s);
    if (ppn != 1) {
        snprintf(err, err_cap, "gpcnet-congestors deals whole nodes to its "
                 "four kernels, one rank each (GPCNeT at 1 PPN): ppn must "
                 "be 1, not %u", ppn);
        return -1;
    }
    if (nranks < 2 * GPCNET_SET_KERNELS) {
        snprintf(err, err_cap, "gpcnet-congestors needs 8 nodes or more (2 "
                 "for each of its 4 kernels, as GPCNeT), not %u", nranks);
        return -1;
    }
    s->nranks = nranks;
    s->k = calloc(GPCNET_SET_KERNELS, sizeof *s->k);
    s->color = malloc(nranks * sizeof *s->color);
    s->sub = malloc(nranks * sizeof *s->sub);
    s->member = malloc(nranks * sizeof *s->member);
    uint32_t *perm = malloc(nranks * sizeof *perm);
    if (!s->k || !s->color || !s->sub || !s->member || !perm) {
        free(perm);
        gpcnet_set_free(s);
        snprintf(err, err_cap, "gpcnet-congestors: out of memory for %u "
                 "ranks", nranks);
        return -1;
    }
    /* network_load_test's shuffle, then colours by shuffled index mod 4 */
    for (uint32_t i = 0; i < nranks; i++)
        perm[i] = i;
    struct rng rs = rng_stream(p->seed, RNG_WORKLOAD, p->instance);
    rng_shuffle_u32(&rs, perm, nranks);
    uint32_t at = 0;
    for (uint32_t c = 0; c < GPCNET_SET_KERNELS; c++) {
        s->first[c] = at;
        /* split_subcomms: the nodes shuffled, then coloured by shuffled index
         * mod 4, each colour running one congestor for the whole run — some
         * 20 % of a GPCNeT machine's nodes each, scattered over it ("to mimic
         * non-ideal node selection from the WLM") */
        for (uint32_t i = c; i < nranks; i += GPCNET_SET_KERNELS) {
            uint32_t r = perm[i];
            s->color[r] = (uint8_t)c;
            s->sub[r] = at - s->first[c];
            s->member[at++] = r;
        }
    }
    free(perm);
    for (uint32_t c = 0; c < GPCNET_SET_KERNELS; c++) {
        struct gpcnet_params kp = *p;
        kp.kernel = (enum gpcnet_kernel)c; /* a2a .. rma-bcast */
        uint32_t n = (c + 1 < GPCNET_SET_KERNELS ? s->first[c + 1] : nranks) -
                     s->first[c];
        if (gpcnet_init(&s->k[c], &kp, n, err, err_cap) != 0) {
            gpcnet_set_free(s);
            return -1;
        }
    }
    return 0;
}

/* Rank r's next operations are its kernel's, the peers turned from the
 * kernel's ranks into the job's. */
static uint32_t gpcnet_set_next(void *ctx, uint32_t r, struct dmpi_op *out,
                                uint32_t cap)
{
    struct gpcnet_set *s = ctx;
    if (r >= s->nranks)
        return 0;
    uint32_t c = s->color[r];
    uint32_t k = gpcnet_next(&s->k[c], s->sub[r], out, cap);
    for (uint32_t i = 0; i < k; i++) {
        switch (out[i].code) {
        case DMPI_SEND:
        case DMPI_RECV:
        case DMPI_ISEND:
        case DMPI_IRECV:
        case DMPI_PUT:
        case DMPI_GET:
            if (out[i].peer != DMPI_ANY)
                out[i].peer = s->member[s->first[c] + out[i].peer];
            break;
        default: /* WAITALL, FLUSH, MARK: no peer; no collectives */
            break;
        }
    }
    return k;
}

struct dmpi_app gpcnet_set_app(struct gpcnet_set *s)
{
    return (struct dmpi_app){ .ctx = s, .next = gpcnet_set_next };
}

/* ---- statistics ------------------------------------------------------------ */

#define MIB (1024.0 * 1024.0)

double gpcnet_value(const struct gpcnet_params *p, uint32_t nranks,
                    simtime t)
{
    double s = (double)t / (double)SIMTIME_S;
    double us = (double)t / (double)SIMTIME_US;
    double b = (double)p->bytes;
    switch (p->kernel) {
    /* the values GPCNeT reports per iteration: latencies in us, bandwidths
     * in MiB/s per rank from the bytes its kernel moved */
    case GPCNET_RR_LATENCY: /* p2p_latency: "count for the 2 sends" */
        return us / 2;
    case GPCNET_ALLREDUCE:
        return us;
    case GPCNET_RR_BW_SYNC: /* p2p_neighbors: 8*16384*2*8 / t */
        return b * 2 * p->outstanding / (s * MIB);
    case GPCNET_A2A:        /* congestor(): 8*a2a_cnt*(N-1) / t */
        return b * (nranks - 1) / (s * MIB);
    default:                /* incast, bcast: 8*cnt / t */
        return b / (s * MIB);
    }
}

#define BUCKETS 100000 /* summarize_performance: ndist_buckets */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void gpcnet_stats_of(const double *v, uint32_t n, bool from_min,
                     struct gpcnet_stats *s)
{
    s->avg = s->p99 = 0;
    s->n = n;
    if (n == 0)
        return;
    double lo = v[0], hi = v[0], sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        sum += v[i];
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    s->avg = sum / n;
    if (hi == lo) { /* GPCNeT would divide by a zero bucket width */
        s->p99 = lo;
        return;
    }
    /* The histogram of summarize_performance: BUCKETS buckets of width
     * dres from lo; cnt_99 = floor(0.99 n) values counted from the low end
     * (latency: the bucket's upper edge) or from the high end (bandwidth:
     * the bucket's lower edge). Only the occupied buckets matter, so sort
     * the bucket numbers instead of keeping 100,000 counters. */
    double dres = (hi - lo) / (double)(BUCKETS - 1);
    uint32_t *b = malloc(n * sizeof *b);
    if (!b) { /* out of memory: the sample's extreme instead */
        s->p99 = from_min ? hi : lo;
        return;
    }
    uint32_t valid = 0;
    for (uint32_t i = 0; i < n; i++) {
        double x = (v[i] - lo) / dres;
        if (x >= 0 && x < BUCKETS)
            b[valid++] = (uint32_t)x;
    }
    qsort(b, valid, sizeof *b, cmp_u32);
    uint64_t cnt_99 = (uint64_t)(0.99 * (double)valid);
    if (from_min) {
        /* the first bucket j with count(<= j) >= cnt_99; cnt_99 = 0 means
         * bucket 0 */
        uint32_t j = cnt_99 == 0 ? 0 : b[cnt_99 - 1];
        s->p99 = lo + (double)(j + 1) * dres;
    } else {
        uint32_t j = cnt_99 == 0 ? BUCKETS - 1 : b[valid - cnt_99];
        s->p99 = lo + (double)j * dres;
    }
    free(b);
}

int gpcnet_summarize(const struct gpcnet_params *p, uint32_t nranks,
                     const simtime *t, uint32_t n, struct gpcnet_stats *s)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        v[i] = gpcnet_value(p, nranks, t[i]);
    gpcnet_stats_of(v, n, gpcnet_is_latency(p->kernel), s);
    free(v);
    return 0;
}

int gpcnet_summarize_job(const struct gpcnet *g,
                         const struct dmpi_job_result *r,
                         struct gpcnet_stats *s)
{
    if (r->n_iter == 0 || !r->iter_time)
        return -1;
    return gpcnet_summarize(&g->p, g->nranks, r->iter_time, r->n_iter, s);
}

/* print_comparison_results: snprintf("%12.1f") then atof. */
static double round_01(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%12.1f", x);
    return strtod(buf, NULL);
}

double gpcnet_impact(double isolated, double congested, bool is_bandwidth)
{
    double i = round_01(isolated), c = round_01(congested);
    /* GPCNeT's congestion impact factor: congested over isolated for a
     * latency, isolated over congested for a bandwidth, so above 1 is worse
     * either way; both first rounded to 0.1 as its printed table is */
    return is_bandwidth ? i / c : c / i;
}
