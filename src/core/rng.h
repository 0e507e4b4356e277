/* core/rng.h — per-entity random streams (DESIGN.md §2 "Random numbers").
 *
 * What is modelled: every source of randomness in a run (a router's
 * adaptive tie-breaks, a NIC's hash, a rank's think time, an allocation
 * policy's shuffle) draws from its own stream, named by (run seed, kind,
 * entity id). A stream is counter-based: its i-th number is a pure function
 * of its key and i, in the manner of the counter-based generators of
 * Salmon et al. ("Parallel random numbers: as easy as 1, 2, 3", SC'11).
 *
 * Invariant: the sequence a stream produces depends only on (seed, kind,
 * id) and on how many numbers *that stream* has drawn — never on what other
 * streams do, how many there are, in which order entities run, or on which
 * process an entity lives. So adding a draw to one router does not change
 * any other router's choices, and a run is reproducible on any number of
 * processes (DESIGN.md §6).
 *
 * The generator. rng_u64 returns
 *     f2( f1(key + ctr * G) ^ key ),   ctr = 0, 1, 2, ...
 * where G = 0x9e3779b97f4a7c15 (the odd 64-bit golden-ratio constant, so
 * key + ctr * G visits all 2^64 values before repeating), f1 is the
 * MurmurHash3 64-bit finaliser (Appleby; constants 0xff51afd7ed558ccd,
 * 0xc4ceb9fe1a85ec53) and f2 is Stafford's "Mix13" variant of it
 * (0xbf58476d1ce4e5b9, 0x94d049bb133111eb), the output function of
 * SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014). Why it is acceptable: SplitMix64 — f2 alone on
 * a Weyl sequence — already passes TestU01's BigCrush; a second, different
 * bijective finaliser only strengthens the mix. XOR-ing the key in between
 * the two rounds makes streams with nearby keys unrelated: without it, two
 * streams whose keys differ by a multiple of G would be shifted copies of
 * each other. Both finalisers are bijections, so within a stream the
 * numbers never repeat over a period of 2^64. It is not cryptographic and
 * need not be. Cost: ~10 integer operations, no table, no state beyond 16
 * bytes, so it is inline.
 *
 * Deriving the key. rng_stream chains the finalisers over seed, kind and id
 * (each step a bijection of the new input for fixed earlier inputs), so for
 * a fixed (seed, kind) distinct ids always get distinct keys.
 */
#ifndef DFSIM_RNG_H
#define DFSIM_RNG_H

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

struct rng {
    uint64_t key; /* identifies the stream: f(seed, kind, id) */
    uint64_t ctr; /* numbers drawn so far */
};

/* What kind of entity a stream belongs to, so that router 7 and NIC 7 of
 * the same run draw unrelated numbers. Values are part of the results'
 * reproducibility: append new kinds at the end, never renumber. */
enum rng_kind {
    RNG_ROUTER = 1, /* a router (adaptive routing ties, arbitration) */
    RNG_NIC,        /* a NIC (hashing of paths, injection jitter) */
    RNG_RANK,       /* an application rank (compute times, peers) */
    RNG_JOB,        /* a job as a whole (e.g. its arrival time) */
    RNG_ALLOC,      /* allocation policies (id: the job's index; a
                       repetition folds into the seed, exp/alloc.h) */
    RNG_WORKLOAD,   /* workload generator (id: its instance) */
    RNG_TEST,       /* unit tests and benchmarks */
    RNG_PRODUCTION, /* the production fill of a run (exp/production.h;
                       id 0) */
    RNG_NOISE,      /* a node's host noise phase (mpi/mpi.h; id: node) */
    RNG_CONVERGENCE, /* the orders of training runs of the delay
                        sensitivity's convergence (results/convergence.h;
                        id: victim x 2 + order) */
};

#define RNG_GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* MurmurHash3 fmix64: a bijection of 64-bit integers. */
static inline uint64_t rng_mix_murmur(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

/* Stafford Mix13 (SplitMix64's output function): another bijection. */
static inline uint64_t rng_mix_stafford(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

/* The stream of entity `id` of kind `kind` (an enum rng_kind) in the run
 * with seed `seed`, positioned at its first number. Streams are values:
 * copy one to replay it, keep one per entity to draw from it. */
static inline struct rng rng_stream(uint64_t seed, uint32_t kind, uint64_t id)
{
    uint64_t k = rng_mix_stafford(seed + RNG_GOLDEN);
    k = rng_mix_murmur(k ^ ((uint64_t)kind * RNG_GOLDEN));
    k = rng_mix_stafford(k ^ id);
    struct rng r = { k, 0 };
    return r;
}

/* The stream's next 64 uniformly distributed bits. */
static inline uint64_t rng_u64(struct rng *r)
{
    uint64_t x = r->key + r->ctr++ * RNG_GOLDEN;
    return rng_mix_stafford(rng_mix_murmur(x) ^ r->key);
}

/* A uniform integer in [0, n), n >= 1, without bias: Lemire's
 * multiply-and-reject ("Fast random integer generation in an interval",
 * ACM TOMACS 2019). The top 32 bits of a draw times n give a candidate in
 * the high half; the low half tells whether it fell in the short, biased
 * part of the range, which happens with probability < n / 2^32 and is then
 * redrawn. Consumes one draw, rarely more. */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
    assert(n > 0);
    uint64_t m = (rng_u64(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)-n % n; /* 2^32 mod n */
        while (low < threshold) {
            m = (rng_u64(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A uniform double in [0, 1) with 53 random bits (every value is a
 * multiple of 2^-53). */
static inline double rng_unit(struct rng *r)
{
    return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

/* An exponentially distributed double with the given mean (> 0), by
 * inversion: -mean * ln(1 - u), u in [0, 1), so the result is finite and
 * >= 0 (at most about 36.7 * mean). */
static inline double rng_exp(struct rng *r, double mean)
{
    assert(mean > 0);
    return -mean * log1p(-rng_unit(r));
}

/* Put a[0..n) in a uniformly random order (each of the n! orders equally
 * likely, up to the generator's quality), drawing n - 1 numbers from r.
 * n must fit in 32 bits. */
void rng_shuffle_u32(struct rng *r, uint32_t *a, size_t n);

#endif
