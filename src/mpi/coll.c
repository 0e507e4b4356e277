/* mpi/coll.c — collectives as schedules of point-to-point operations: the
 * algorithms of MPICH's `*_intra_auto` selection (see coll.h for the list,
 * the thresholds and their sources). Each algorithm below follows the
 * structure of the MPICH function of the same name (Thakur, Rabenseifner &
 * Gropp, IJHPCA 2005), written from the paper's description: who talks to
 * whom in which round, how many bytes, and where a reduction combines.
 *
 * Invariant: every algorithm writes a rank's ops in program order through
 * one emitter that counts them whether or not they fit in the caller's
 * array, so the count returned is the same for every cap.
 */
#include "mpi/coll.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

enum algo {
    ALGO_NONE,
    ALGO_DISSEMINATION,
    ALGO_BINOMIAL,
    ALGO_SCATTER_RD,   /* bcast: binomial scatter + recursive doubling */
    ALGO_SCATTER_RING, /* bcast: binomial scatter + ring allgather */
    ALGO_RD,           /* allreduce, allgather: recursive doubling */
    ALGO_RABENSEIFNER,
    ALGO_BRUCK,
    ALGO_RING,
    ALGO_SCATTERED,
    ALGO_PAIRWISE
};

static const char *const algo_names[] = {
    [ALGO_NONE] = "none",
    [ALGO_DISSEMINATION] = "dissemination",
    [ALGO_BINOMIAL] = "binomial",
    [ALGO_SCATTER_RD] = "scatter-recursive-doubling",
    [ALGO_SCATTER_RING] = "scatter-ring",
    [ALGO_RD] = "recursive-doubling",
    [ALGO_RABENSEIFNER] = "rabenseifner",
    [ALGO_BRUCK] = "bruck",
    [ALGO_RING] = "ring",
    [ALGO_SCATTERED] = "scattered",
    [ALGO_PAIRWISE] = "pairwise",
};

void dmpi_coll_defaults(struct dmpi_coll_params *p)
{
    *p = (struct dmpi_coll_params){
        /* MPICH CVAR defaults (pmodels/mpich, src/mpi/coll/<coll>/). */
        .allreduce_short_msg_size = 2048,
        .bcast_short_msg_size = 12288,
        .bcast_long_msg_size = 524288,
        .bcast_min_procs = 8,
        .alltoall_throttle = 32,
        .allgather_short_msg_size = 81920,
        .allgather_long_msg_size = 524288,
        .alltoall_medium_msg_size = 32768,
        /* GPCNeT's allreduces and ember's are MPI_DOUBLE SUMs. */
        .datatype_bytes = 8,
        .barrier_bytes = 8,
        /* Combining is memory-bound: a SUM of doubles reads two vectors
         * and writes one, 3 bytes of traffic per byte received; one core
         * streams ~25-30 GB/s (STREAM-like single-thread figures on Xeon /
         * EPYC nodes of the Aries and Slingshot era), so ~10 GB/s of
         * received bytes, 0.1 ns = 100 ps per byte. */
        .reduce_ps_per_byte = 100,
        .max_msg_bytes = UINT32_MAX,
    };
}

/* ---- small integer helpers ---- */

static bool is_pof2(uint32_t n) { return n && !(n & (n - 1)); }

/* Largest power of two <= n (n >= 1). */
static uint32_t pof2_floor(uint32_t n)
{
    uint32_t p = 1;
    while (p <= n / 2)
        p *= 2;
    return p;
}

static uint64_t max1(uint64_t b) { return b ? b : 1; }

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    if (a && b > UINT64_MAX / a)
        return UINT64_MAX;
    return a * b;
}

/* ---- choice ---- */

static enum algo choose(const struct dmpi_coll_params *p,
                        const struct dmpi_op *op, uint32_t n)
{
    uint64_t bytes = op->bytes;
    if (n <= 1)
        return ALGO_NONE;
    /* The choice trades rounds for bytes (Thakur, Rabenseifner & Gropp
     * 2005): short messages take the algorithms of log2(n) rounds, where
     * the latency of each round dominates; long ones the algorithms that
     * move each byte fewer times — scatter then allgather for bcast,
     * Rabenseifner's reduce-scatter then allgather for allreduce (about
     * 2 (n-1)/n of the vector per rank instead of log2(n) whole vectors),
     * the ring for allgather — at the cost of more rounds. MPICH's CVAR
     * thresholds draw the lines (dmpi_coll_defaults). */
    if (op->code == DMPI_BARRIER)
        return ALGO_DISSEMINATION;
    if (bytes == 0)
        return ALGO_NONE;
    switch (op->code) {
    case DMPI_BCAST:
        if (bytes < p->bcast_short_msg_size || n < p->bcast_min_procs)
            return ALGO_BINOMIAL;
        if (bytes < p->bcast_long_msg_size && is_pof2(n))
            return ALGO_SCATTER_RD;
        return ALGO_SCATTER_RING;
    case DMPI_REDUCE:
        return ALGO_BINOMIAL;
    case DMPI_ALLREDUCE: {
        uint64_t dt = max1(p->datatype_bytes);
        uint64_t count = bytes / dt + (bytes % dt != 0);
        /* fewer elements than the power-of-two ranks: Rabenseifner's halving
         * would leave ranks without a piece */
        if (bytes <= p->allreduce_short_msg_size || count < pof2_floor(n))
            return ALGO_RD;
        return ALGO_RABENSEIFNER;
    }
    case DMPI_ALLGATHER: {
        uint64_t total = sat_mul(bytes, n);
        if (total < p->allgather_long_msg_size && is_pof2(n))
            return ALGO_RD;
        if (total < p->allgather_short_msg_size)
            return ALGO_BRUCK;
        return ALGO_RING;
    }
    case DMPI_ALLTOALL:
        /* scattered: up to `throttle` (32) exchanges in flight per rank, many
         * small messages overlapping; pairwise above, one partner per round:
         * every round a permutation, no endpoint carrying two streams
         * (docs/network.md, SC'20 §III-B reproduced: what makes the two differ
         * for a 256 KiB alltoall beside an allreduce) */
        if (bytes <= p->alltoall_medium_msg_size)
            return ALGO_SCATTERED;
        return ALGO_PAIRWISE;
    default:
        assert(!"dmpi_coll: not a collective code");
        return ALGO_NONE;
    }
}

const char *dmpi_coll_algorithm(const struct dmpi_coll_params *p,
                                const struct dmpi_op *op, uint32_t nranks)
{
    return algo_names[choose(p, op, nranks)];
}

/* ---- the emitter ---- */

struct emit {
    struct dmpi_op *out;
    uint32_t cap;
    uint32_t n;        /* ops so far, written or not */
    uint32_t tag;      /* the collective's tag */
    uint64_t max_msg;  /* largest single message */
    uint64_t ps_per_byte;
};

static void put(struct emit *e, uint8_t code, uint32_t peer, uint64_t bytes,
                uint64_t arg)
{
    if (e->n < e->cap)
        e->out[e->n] = (struct dmpi_op){ .code = code, .peer = peer,
                                         .tag = e->tag, .bytes = bytes,
                                         .arg = arg };
    assert(e->n < UINT32_MAX);
    e->n++;
}

/* ISEND or IRECV of `bytes` (>= 1) with `peer`: as many messages of at most
 * max_msg bytes as needed; the last carries the annotation. */
static void post(struct emit *e, uint8_t code, uint32_t peer, uint64_t bytes,
                 uint64_t arg)
{
    assert(bytes >= 1);
    while (bytes > e->max_msg) {
        put(e, code, peer, e->max_msg, 0);
        bytes -= e->max_msg;
    }
    put(e, code, peer, bytes, arg);
}

static void irecv(struct emit *e, uint32_t peer, uint64_t bytes, uint64_t arg)
{
    post(e, DMPI_IRECV, peer, bytes, arg);
}

static void isend(struct emit *e, uint32_t peer, uint64_t bytes, uint64_t arg)
{
    post(e, DMPI_ISEND, peer, bytes, arg);
}

static void waitall(struct emit *e) { put(e, DMPI_WAITALL, 0, 0, 0); }

/* The reduction's arithmetic over `bytes` received. */
static void combine(struct emit *e, uint64_t bytes)
{
    uint64_t ps = sat_mul(e->ps_per_byte, bytes);
    if (ps)
        put(e, DMPI_COMPUTE, 0, 0, ps);
}

/* MPI_Sendrecv with one peer on each side: receive posted first. */
static void sendrecv(struct emit *e, uint32_t dst, uint64_t sbytes,
                     uint64_t sarg, uint32_t src, uint64_t rbytes,
                     uint64_t rarg)
{
    irecv(e, src, rbytes, rarg);
    isend(e, dst, sbytes, sarg);
    waitall(e);
}

/* ---- barrier ---- */

/* MPIR_Barrier_intra_dissemination: round k (mask 2^k) sends to r + mask
 * and receives from r - mask. */
static void barrier_dissemination(struct emit *e, uint64_t bb, uint32_t r,
                                  uint32_t n)
{
    uint64_t a = DMPI_COLL_ARG(0, 1, DMPI_COLL_UNION);
    /* ceil(log2 n) rounds for any n: after round k a rank has heard,
     * directly or not, from the 2^(k+1) - 1 ranks before it */
    for (uint64_t mask = 1; mask < n; mask <<= 1) {
        uint32_t dst = (uint32_t)((r + mask) % n);
        uint32_t src = (uint32_t)((r + n - mask) % n);
        sendrecv(e, dst, bb, a, src, bb, a);
    }
}

/* ---- broadcast ---- */

/* MPIR_Bcast_intra_binomial: receive from the parent (relative rank minus
 * its lowest set bit), then send to the children, largest subtree first.
 * Blocking sends and receives. */
static void bcast_binomial(struct emit *e, uint64_t bytes, uint32_t r,
                           uint32_t n, uint32_t root)
{
    uint64_t a = DMPI_COLL_ARG(0, 1, DMPI_COLL_COPY);
    /* ranks relative to the root, so the tree is rooted at 0; a rank
     * receives once, from the rank that differs in its lowest set bit */
    uint32_t rel = (r + n - root) % n;
    uint64_t mask = 1;
    while (mask < n) {
        if (rel & mask) {
            irecv(e, (uint32_t)((r + n - mask) % n), bytes, a);
            waitall(e);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < n) {
            isend(e, (uint32_t)((r + mask) % n), bytes, a);
            waitall(e);
        }
    }
}

/* The broadcast buffer split in n pieces of ceil(bytes / n) (MPICH's
 * scatter_size), the last ones shorter or empty: bytes of the pieces of
 * relative ranks [a, b). */
static uint64_t piece_bytes(uint64_t bytes, uint32_t n, uint64_t a,
                            uint64_t b)
{
    /* ceil: the pieces of the last ranks are shorter or empty, as MPICH's
     * scatter_size makes them; an empty piece is no message */
    uint64_t ss = bytes / n + (bytes % n != 0);
    uint64_t lo = a * ss < bytes ? a * ss : bytes;
    uint64_t hi = b * ss < bytes ? b * ss : bytes;
    return hi - lo;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* MPII_Scatter_for_bcast: a binomial scatter, each rank receiving the
 * pieces of its subtree from its parent and passing each child its
 * subtree's; a send of nothing (pieces past the end) is skipped on both
 * sides. */
static void bcast_scatter(struct emit *e, uint64_t bytes, uint32_t r,
                          uint32_t n, uint32_t root)
{
    uint32_t rel = (r + n - root) % n;
    uint64_t mask = 1;
    while (mask < n) {
        if (rel & mask) {
            uint64_t end = min_u64(rel + mask, n);
            uint64_t b = piece_bytes(bytes, n, rel, end);
            if (b) {
                irecv(e, (uint32_t)((r + n - mask) % n), b,
                      DMPI_COLL_ARG(rel, end - rel, DMPI_COLL_COPY));
                waitall(e);
            }
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (rel + mask < n) {
            uint64_t first = rel + mask, end = min_u64(rel + 2 * mask, n);
            uint64_t b = piece_bytes(bytes, n, first, end);
            if (b) {
                isend(e, (uint32_t)((r + mask) % n), b,
                      DMPI_COLL_ARG(first, end - first, DMPI_COLL_COPY));
                waitall(e);
            }
        }
    }
}

/* MPIR_Bcast_intra_scatter_recursive_doubling_allgather (n a power of two):
 * after the scatter, round k exchanges the pieces of the rank's subtree of
 * size 2^k with the partner relative rank rel ^ 2^k. */
static void bcast_scatter_rd(struct emit *e, uint64_t bytes, uint32_t r,
                             uint32_t n, uint32_t root)
{
    uint32_t rel = (r + n - root) % n;
    bcast_scatter(e, bytes, r, n, root);
    for (uint32_t mask = 1; mask < n; mask <<= 1) {
        uint32_t rdst = rel ^ mask;
        uint32_t mine = rel & ~(mask - 1), theirs = rdst & ~(mask - 1);
        sendrecv(e, (rdst + root) % n,
                 max1(piece_bytes(bytes, n, mine, (uint64_t)mine + mask)),
                 DMPI_COLL_ARG(mine, mask, DMPI_COLL_COPY), (rdst + root) % n,
                 max1(piece_bytes(bytes, n, theirs, (uint64_t)theirs + mask)),
                 DMPI_COLL_ARG(theirs, mask, DMPI_COLL_COPY));
    }
}

/* MPIR_Bcast_intra_scatter_ring_allgather: after the scatter, n - 1 ring
 * steps, each passing one piece to the right. */
static void bcast_scatter_ring(struct emit *e, uint64_t bytes, uint32_t r,
                               uint32_t n, uint32_t root)
{
    uint32_t left = (r + n - 1) % n, right = (r + 1) % n;
    uint32_t j = (r + n - root) % n, jnext = (j + n - 1) % n;
    bcast_scatter(e, bytes, r, n, root);
    for (uint32_t i = 1; i < n; i++) {
        sendrecv(e, right, max1(piece_bytes(bytes, n, j, (uint64_t)j + 1)),
                 DMPI_COLL_ARG(j, 1, DMPI_COLL_COPY), left,
                 max1(piece_bytes(bytes, n, jnext, (uint64_t)jnext + 1)),
                 DMPI_COLL_ARG(jnext, 1, DMPI_COLL_COPY));
        j = jnext;
        jnext = (jnext + n - 1) % n;
    }
}

/* ---- reduce ---- */

/* MPIR_Reduce_intra_binomial (commutative op): in round mask, a rank whose
 * relative rank has that bit clear receives from rel | mask (if it exists)
 * and combines; one with the bit set sends its partial result to
 * rel & ~mask and is done. */
static void reduce_binomial(struct emit *e, uint64_t bytes, uint32_t r,
                            uint32_t n, uint32_t root)
{
    uint64_t a = DMPI_COLL_ARG(0, 1, DMPI_COLL_SUM);
    uint32_t rel = (r + n - root) % n;
    for (uint64_t mask = 1; mask < n; mask <<= 1) {
        if (!(rel & mask)) {
            uint64_t srel = rel | mask;
            if (srel < n) {
                irecv(e, (uint32_t)((srel + root) % n), bytes, a);
                waitall(e);
                combine(e, bytes);
            }
        } else {
            isend(e, (uint32_t)(((rel & ~mask) + root) % n), bytes, a);
            waitall(e);
            break;
        }
    }
}

/* ---- allreduce ---- */

/* MPICH's fold of a non-power-of-two n onto p' = pof2 ranks: ranks below
 * 2 * rem (rem = n - p') pair up, the even one sending its whole vector
 * (pieces [0, npieces)) to the odd one. Returns the rank's new rank among
 * the p', or -1 if it sits out. */
static int64_t fold(struct emit *e, uint64_t bytes, uint32_t npieces,
                    uint32_t r, uint32_t rem)
{
    uint64_t a = DMPI_COLL_ARG(0, npieces, DMPI_COLL_SUM);
    /* Recursive doubling and halving need a power of two: the first 2 rem
     * ranks pair up and the even one hands its vector to the odd one, which
     * stands for both (one extra step before and after: Thakur et al. 2005,
     * as MPICH does it). */
    if (r >= 2 * rem)
        return r - rem;
    if (r % 2 == 0) {
        isend(e, r + 1, bytes, a);
        waitall(e);
        return -1;
    }
    irecv(e, r - 1, bytes, a);
    waitall(e);
    combine(e, bytes);
    return r / 2;
}

/* The fold undone: each odd rank below 2 * rem sends the result down. */
static void unfold(struct emit *e, uint64_t bytes, uint32_t npieces,
                   uint32_t r, uint32_t rem)
{
    uint64_t a = DMPI_COLL_ARG(0, npieces, DMPI_COLL_COPY);
    if (r >= 2 * rem)
        return;
    if (r % 2)
        isend(e, r - 1, bytes, a);
    else
        irecv(e, r + 1, bytes, a);
    waitall(e);
}

/* The real rank of new rank `nr` after the fold. */
static uint32_t unfolded(uint32_t nr, uint32_t rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}

/* MPIR_Allreduce_intra_recursive_doubling: round mask exchanges the whole
 * vector with new rank nr ^ mask and combines. */
static void allreduce_rd(struct emit *e, uint64_t bytes, uint32_t r,
                         uint32_t n)
{
    uint64_t a = DMPI_COLL_ARG(0, 1, DMPI_COLL_SUM);
    uint32_t pof2 = pof2_floor(n), rem = n - pof2;
    /* log2(p') rounds, each the whole vector both ways and a combine: the
     * fewest rounds, the right choice while the latency of a round dominates
     * (up to allreduce_short_msg_size, 2 KiB) */
    int64_t nr = fold(e, bytes, 1, r, rem);
    if (nr >= 0) {
        for (uint32_t mask = 1; mask < pof2; mask <<= 1) {
            uint32_t dst = unfolded((uint32_t)nr ^ mask, rem);
            sendrecv(e, dst, bytes, a, dst, bytes, a);
            combine(e, bytes);
        }
    }
    unfold(e, bytes, 1, r, rem);
}

/* Rabenseifner's split: count elements in pof2 pieces, the first
 * count % pof2 one element longer (MPICH's cnts[]); bytes before piece i
 * (the last element may be partial when bytes is not a multiple of the
 * element size). */
struct split {
    uint64_t bytes, dt, q, rmd;
};

static uint64_t split_off(const struct split *s, uint64_t i)
{
    uint64_t el = i * s->q + (i < s->rmd ? i : s->rmd);
    return min_u64(sat_mul(el, s->dt), s->bytes);
}

static uint64_t split_bytes(const struct split *s, uint64_t a, uint64_t b)
{
    return split_off(s, b) - split_off(s, a);
}

/* MPIR_Allreduce_intra_reduce_scatter_allgather: after the fold, a
 * reduce-scatter by recursive halving (round mask: keep one half of the
 * current range of pieces — the lower one if the new rank's bit is clear —
 * send the other half to nr ^ mask, receive and combine its copy of the
 * kept half), then an allgather by recursive doubling retracing the rounds
 * backwards (send the range held, receive the partner's half). */
static void allreduce_rabenseifner(struct emit *e, uint64_t bytes,
                                   uint64_t dt, uint32_t r, uint32_t n)
{
    uint32_t pof2 = pof2_floor(n), rem = n - pof2;
    uint64_t count = bytes / dt + (bytes % dt != 0);
    struct split s = { bytes, dt, count / pof2, count % pof2 };
    int64_t nr = fold(e, bytes, pof2, r, rem);
    if (nr >= 0) {
        uint32_t lo = 0, hi = pof2, k = 0;
        uint32_t save_lo[32], save_hi[32];
        /* reduce-scatter by recursive halving: each round halves the range of
         * pieces a rank is responsible for, so a rank sends n/2 + n/4 + ... of
         * the vector and ends with one fully reduced piece */
        for (uint32_t mask = 1; mask < pof2; mask <<= 1, k++) {
            uint32_t dst = unfolded((uint32_t)nr ^ mask, rem);
            uint32_t half = (hi - lo) / 2, klo, khi, slo, shi;
            if (!((uint32_t)nr & mask)) {
                klo = lo, khi = lo + half, slo = lo + half, shi = hi;
            } else {
                klo = lo + half, khi = hi, slo = lo, shi = lo + half;
            }
            uint64_t kb = split_bytes(&s, klo, khi);
            sendrecv(e, dst, max1(split_bytes(&s, slo, shi)),
                     DMPI_COLL_ARG(slo, shi - slo, DMPI_COLL_SUM), dst,
                     max1(kb), DMPI_COLL_ARG(klo, khi - klo, DMPI_COLL_SUM));
            combine(e, kb);
            save_lo[k] = lo, save_hi[k] = hi;
            lo = klo, hi = khi;
        }
        /* allgather by recursive doubling, the halving's rounds in
         * reverse: each rank doubles the range it holds until it has the
         * whole result */
        while (k-- > 0) {
            uint32_t mask = 1u << k;
            uint32_t dst = unfolded((uint32_t)nr ^ mask, rem);
            uint32_t plo = save_lo[k], phi = save_hi[k];
            uint32_t olo = lo == plo ? hi : plo, ohi = lo == plo ? phi : lo;
            sendrecv(e, dst, max1(split_bytes(&s, lo, hi)),
                     DMPI_COLL_ARG(lo, hi - lo, DMPI_COLL_COPY), dst,
                     max1(split_bytes(&s, olo, ohi)),
                     DMPI_COLL_ARG(olo, ohi - olo, DMPI_COLL_COPY));
            lo = plo, hi = phi;
        }
    }
    unfold(e, bytes, pof2, r, rem);
}

/* ---- allgather ---- */

/* MPIR_Allgather_intra_recursive_doubling (n a power of two): round mask
 * exchanges the mask blocks of the rank's aligned group with r ^ mask. */
static void allgather_rd(struct emit *e, uint64_t bytes, uint32_t r,
                         uint32_t n)
{
    for (uint32_t mask = 1; mask < n; mask <<= 1) {
        uint32_t dst = r ^ mask;
        uint64_t b = sat_mul(bytes, mask);
        sendrecv(e, dst, b,
                 DMPI_COLL_ARG(r & ~(mask - 1), mask, DMPI_COLL_COPY), dst, b,
                 DMPI_COLL_ARG(dst & ~(mask - 1), mask, DMPI_COLL_COPY));
    }
}

/* MPIR_Allgather_intra_brucks: the rank holds blocks r, r+1, ... (mod n);
 * round k sends its first 2^k to r - 2^k and receives 2^k from r + 2^k;
 * a last round moves the n - 2^K missing ones. */
static void allgather_bruck(struct emit *e, uint64_t bytes, uint32_t r,
                            uint32_t n)
{
    uint32_t pof2 = 1;
    for (; pof2 <= n / 2; pof2 *= 2) {
        uint32_t src = (r + pof2) % n, dst = (r + n - pof2) % n;
        uint64_t b = sat_mul(bytes, pof2);
        sendrecv(e, dst, b, DMPI_COLL_ARG(r, pof2, DMPI_COLL_COPY), src, b,
                 DMPI_COLL_ARG(src, pof2, DMPI_COLL_COPY));
    }
    uint32_t rest = n - pof2;
    if (rest) {
        uint32_t src = (r + pof2) % n, dst = (r + n - pof2) % n;
        uint64_t b = sat_mul(bytes, rest);
        sendrecv(e, dst, b, DMPI_COLL_ARG(r, rest, DMPI_COLL_COPY), src, b,
                 DMPI_COLL_ARG(src, rest, DMPI_COLL_COPY));
    }
}

/* MPIR_Allgather_intra_ring: n - 1 steps, step i passing block r - i to
 * the right and receiving block r - i - 1 from the left. */
static void allgather_ring(struct emit *e, uint64_t bytes, uint32_t r,
                           uint32_t n)
{
    /* the ring: n - 1 steps, each rank passing on the block it received
     * last; every link of the ring busy at once, each block crossing n - 1
     * links — bandwidth-optimal for long messages (Thakur et al. 2005) */
    uint32_t left = (r + n - 1) % n, right = (r + 1) % n;
    uint32_t j = r, jnext = left;
    for (uint32_t i = 1; i < n; i++) {
        sendrecv(e, right, bytes, DMPI_COLL_ARG(j, 1, DMPI_COLL_COPY), left,
                 bytes, DMPI_COLL_ARG(jnext, 1, DMPI_COLL_COPY));
        j = jnext;
        jnext = (jnext + n - 1) % n;
    }
}

/* ---- alltoall ---- */

/* MPIR_Alltoall_intra_scattered: blocks of `throttle` steps; in each,
 * irecvs from r + i then isends to r - i, then one waitall. The block to
 * oneself (i = 0) is a local copy. */
static void alltoall_scattered(struct emit *e, uint64_t bytes,
                               uint32_t throttle, uint32_t r, uint32_t n)
{
    /* every receive of a block posted before its sends, so that arriving
     * data finds its receive (no unexpected-queue copies); step i is a
     * shift, r sending to r - i, which receives from r, so each step's
     * messages go between distinct pairs */
    uint32_t bb = throttle ? throttle : n;
    for (uint32_t ii = 0; ii < n; ii += bb) {
        uint32_t ss = n - ii < bb ? n - ii : bb;
        uint32_t posted = 0;
        for (uint32_t i = ii; i < ii + ss; i++)
            if (i != 0) {
                irecv(e, (r + i) % n, bytes, 0);
                posted++;
            }
        for (uint32_t i = ii; i < ii + ss; i++)
            if (i != 0)
                isend(e, (r + n - i) % n, bytes, 0);
        if (posted)
            waitall(e);
        if (n - ii <= bb)
            break;
    }
}

/* MPIR_Alltoall_intra_pairwise: n - 1 sendrecv rounds; round i pairs r
 * with r ^ i when n is a power of two, else sends to r + i and receives
 * from r - i. */
static void alltoall_pairwise(struct emit *e, uint64_t bytes, uint32_t r,
                              uint32_t n)
{
    /* With n a power of two, r ^ i pairs the ranks into a perfect matching
     * every round: each exchange is both ways between two ranks, and no
     * rank receives from two at once. */
    bool x = is_pof2(n);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t dst = x ? r ^ i : (r + i) % n;
        uint32_t src = x ? r ^ i : (r + n - i) % n;
        sendrecv(e, dst, bytes, 0, src, bytes, 0);
    }
}

/* ---- expansion ---- */

uint32_t dmpi_coll_expand(const struct dmpi_coll_params *p,
                          const struct dmpi_op *op, uint32_t rank,
                          uint32_t nranks, uint32_t seq, struct dmpi_op *out,
                          uint32_t cap)
{
    assert(op->code >= DMPI_BARRIER && op->code <= DMPI_ALLTOALL);
    assert(rank < nranks);
    assert(nranks < (1u << 28)); /* piece numbers fit DMPI_COLL_ARG */
    assert(out || cap == 0);
    bool rooted = op->code == DMPI_BCAST || op->code == DMPI_REDUCE;
    assert(!rooted || op->peer < nranks);
    struct emit e = {
        .out = out,
        .cap = cap,
        /* each collective call of a rank gets its own tag (its sequence number
         * in the communicator): MPI requires collectives to be called in the
         * same order by every rank, so the numbers agree, and the messages of
         * two successive collectives never match each other's receives */
        .tag = DMPI_TAG_COLL + (seq & (DMPI_TAG_COLL - 1)),
        .max_msg = p->max_msg_bytes && p->max_msg_bytes <= UINT32_MAX
                       ? p->max_msg_bytes
                       : UINT32_MAX,
        .ps_per_byte = p->reduce_ps_per_byte,
    };
    uint64_t bytes = op->bytes;
    uint32_t root = rooted ? op->peer : 0;
    switch (choose(p, op, nranks)) {
    case ALGO_NONE:
        break;
    case ALGO_DISSEMINATION:
        barrier_dissemination(&e, max1(p->barrier_bytes), rank, nranks);
        break;
    case ALGO_BINOMIAL:
        if (op->code == DMPI_BCAST)
            bcast_binomial(&e, bytes, rank, nranks, root);
        else
            reduce_binomial(&e, bytes, rank, nranks, root);
        break;
    case ALGO_SCATTER_RD:
        bcast_scatter_rd(&e, bytes, rank, nranks, root);
        break;
    case ALGO_SCATTER_RING:
        bcast_scatter_ring(&e, bytes, rank, nranks, root);
        break;
    case ALGO_RD:
        if (op->code == DMPI_ALLREDUCE)
            allreduce_rd(&e, bytes, rank, nranks);
        else
            allgather_rd(&e, bytes, rank, nranks);
        break;
    case ALGO_RABENSEIFNER:
        allreduce_rabenseifner(&e, bytes, max1(p->datatype_bytes), rank,
                               nranks);
        break;
    case ALGO_BRUCK:
        allgather_bruck(&e, bytes, rank, nranks);
        break;
    case ALGO_RING:
        allgather_ring(&e, bytes, rank, nranks);
        break;
    case ALGO_SCATTERED:
        alltoall_scattered(&e, bytes, p->alltoall_throttle, rank, nranks);
        break;
    case ALGO_PAIRWISE:
        alltoall_pairwise(&e, bytes, rank, nranks);
        break;
    }
    return e.n;
}
