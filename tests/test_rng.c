/* tests/test_rng.c — core/rng: per-entity counter-based streams.
 *
 * Determinism and stream independence are exact properties; the
 * statistical checks use fixed seeds (so they are reproducible) and bounds
 * set at several standard deviations, so a correct generator passes them
 * with overwhelming probability while a biased one (e.g. rng_below done
 * with a modulo) fails. */
#include "test.h"

#include <stdlib.h>

#include "core/rng.h"

static void test_rng_deterministic(void)
{
    struct rng a = rng_stream(42, RNG_ROUTER, 17);
    struct rng b = rng_stream(42, RNG_ROUTER, 17);
    int diff = 0;
    for (int i = 0; i < 1000; i++)
        diff += rng_u64(&a) != rng_u64(&b);
    CHECK_EQ_U(diff, 0);
    /* A copy replays from where it was taken. */
    struct rng c = a;
    uint64_t x = rng_u64(&a), y = rng_u64(&a);
    CHECK_EQ_U(rng_u64(&c), x);
    CHECK_EQ_U(rng_u64(&c), y);
    CHECK_EQ_U(a.ctr, 1002);
}

static void test_rng_streams_independent(void)
{
    /* Stream B's sequence does not depend on how much stream A (or any
     * other) draws in between. */
    uint64_t alone[200];
    struct rng b = rng_stream(7, RNG_NIC, 3);
    for (int i = 0; i < 200; i++)
        alone[i] = rng_u64(&b);

    struct rng a = rng_stream(7, RNG_NIC, 2);
    struct rng b2 = rng_stream(7, RNG_NIC, 3);
    struct rng z = rng_stream(7, RNG_RANK, 3);
    int diff = 0;
    for (int i = 0; i < 200; i++) {
        for (int k = 0; k < i % 5; k++) {
            (void)rng_u64(&a);
            (void)rng_below(&z, 1000);
            (void)rng_exp(&a, 2.0);
        }
        diff += rng_u64(&b2) != alone[i];
    }
    CHECK_EQ_U(diff, 0);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static void test_rng_streams_differ(void)
{
    /* First numbers of 30000 streams (ids, kinds, seeds varied): all
     * distinct. A collision among 30000 random 64-bit values has
     * probability ~2.4e-11. */
    enum { N = 30000 };
    uint64_t *v = malloc(N * sizeof *v);
    CHECK(v != NULL);
    if (!v)
        return;
    for (int i = 0; i < N; i++) {
        struct rng r;
        if (i < 10000)
            r = rng_stream(1, RNG_ROUTER, (uint64_t)i);
        else if (i < 20000)
            r = rng_stream((uint64_t)i, RNG_ROUTER, 0);
        else
            r = rng_stream(1, RNG_NIC, (uint64_t)(i - 20000));
        v[i] = rng_u64(&r);
    }
    qsort(v, N, sizeof *v, cmp_u64);
    int dup = 0;
    for (int i = 1; i < N; i++)
        dup += v[i] == v[i - 1];
    CHECK_EQ_U(dup, 0);
    free(v);

    /* Neighbouring streams are uncorrelated bit by bit: over 20000 pairs
     * of outputs (1.28M bit pairs) the fraction of equal bits is 1/2 within
     * 5 standard deviations (sd = 0.00044). */
    struct rng a = rng_stream(5, RNG_ROUTER, 100);
    struct rng b = rng_stream(5, RNG_ROUTER, 101);
    struct rng c = rng_stream(6, RNG_ROUTER, 100);
    long same_ab = 0, same_ac = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t x = rng_u64(&a);
        same_ab += 64 - __builtin_popcountll(x ^ rng_u64(&b));
        same_ac += 64 - __builtin_popcountll(x ^ rng_u64(&c));
    }
    CHECK_NEAR(same_ab / 1280000.0, 0.5, 0.0022);
    CHECK_NEAR(same_ac / 1280000.0, 0.5, 0.0022);
}

static void test_rng_no_shifted_streams(void)
{
    /* Two streams whose keys differ by a multiple of the Weyl increment
     * walk the same counter values, shifted. The key mixed in between the
     * two finalisers (rng.h) must keep their outputs unrelated: no value
     * of one appears in the other at the shift. */
    struct rng a = rng_stream(77, RNG_TEST, 0);
    struct rng b = { a.key + 5 * RNG_GOLDEN, 0 };
    uint64_t va[105];
    for (int i = 0; i < 105; i++)
        va[i] = rng_u64(&a);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += rng_u64(&b) == va[i + 5];
    CHECK_EQ_U(same, 0);
}

static void test_rng_bits_balanced(void)
{
    /* Each of the 64 output bits is set half the time: 100k draws, sd of
     * the count 158; allow 5 sd. */
    struct rng r = rng_stream(3, RNG_TEST, 0);
    long ones[64] = { 0 };
    for (int i = 0; i < 100000; i++) {
        uint64_t x = rng_u64(&r);
        for (int b = 0; b < 64; b++)
            ones[b] += (x >> b) & 1;
    }
    int bad = 0;
    for (int b = 0; b < 64; b++)
        bad += labs(ones[b] - 50000) > 790;
    CHECK_EQ_U(bad, 0);
}

static void test_rng_below_uniform(void)
{
    /* Chi-square over 10 buckets x 100k draws: 9 degrees of freedom; the
     * 0.9999 quantile is 33.7, so 40 fails a correct generator with
     * probability < 1e-5 (and the seed is fixed). */
    struct rng r = rng_stream(11, RNG_TEST, 1);
    long count[10] = { 0 };
    int out_of_range = 0;
    for (int i = 0; i < 1000000; i++) {
        uint32_t v = rng_below(&r, 10);
        if (v >= 10)
            out_of_range++;
        else
            count[v]++;
    }
    CHECK_EQ_U(out_of_range, 0);
    double chi2 = 0;
    for (int k = 0; k < 10; k++)
        chi2 += (count[k] - 100000.0) * (count[k] - 100000.0) / 100000.0;
    CHECK(chi2 < 40.0);
    CHECK(chi2 > 0.5); /* too perfect would be suspicious too (p < 1e-4) */
    if (chi2 >= 40.0 || chi2 <= 0.5)
        fprintf(stderr, "  chi2 = %g\n", chi2);
}

static void test_rng_below_unbiased_large_n(void)
{
    /* n = 3 * 2^30, where 2^32 is not a multiple of n, so any mapping of a
     * 32-bit draw without rejection is visibly biased: taken modulo n it
     * hits [0, 2^30) with probability 1/2 instead of 1/3; scaled by
     * multiply-and-shift (v = floor(3x / 4)) it hits multiples of 3 with
     * probability 1/2 instead of 1/3. Lemire's rejection keeps both at
     * 1/3: 300k draws, sd 0.00086, allow 0.005. */
    const uint32_t n = 3u << 30;
    struct rng r = rng_stream(12, RNG_TEST, 2);
    long low = 0, mult3 = 0;
    int out_of_range = 0;
    for (int i = 0; i < 300000; i++) {
        uint32_t v = rng_below(&r, n);
        low += v < (1u << 30);
        mult3 += v % 3 == 0;
        out_of_range += v >= n;
    }
    CHECK_EQ_U(out_of_range, 0);
    CHECK_NEAR(low / 300000.0, 1.0 / 3.0, 0.005);
    CHECK_NEAR(mult3 / 300000.0, 1.0 / 3.0, 0.005);
}

static void test_rng_below_edges(void)
{
    struct rng r = rng_stream(13, RNG_TEST, 3);
    int bad = 0;
    for (int i = 0; i < 1000; i++)
        bad += rng_below(&r, 1) != 0;
    CHECK_EQ_U(bad, 0);
    /* rng_below(n) < n for random n, including UINT32_MAX; and both ends
     * of a small range are reached. */
    int seen0 = 0, seen1 = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t n = i == 0 ? UINT32_MAX : (uint32_t)(rng_u64(&r) >> 40) + 1;
        bad += rng_below(&r, n) >= n;
        uint32_t v = rng_below(&r, 2);
        seen0 |= v == 0;
        seen1 |= v == 1;
    }
    CHECK_EQ_U(bad, 0);
    CHECK(seen0 && seen1);
}

static void test_rng_unit_and_exp(void)
{
    /* rng_unit: in [0, 1), mean 1/2 (sd of the mean over 1M draws:
     * 0.00029), variance 1/12, and a multiple of 2^-53. */
    struct rng r = rng_stream(21, RNG_TEST, 4);
    double sum = 0, sum2 = 0;
    int bad = 0;
    for (int i = 0; i < 1000000; i++) {
        double u = rng_unit(&r);
        bad += !(u >= 0.0 && u < 1.0);
        bad += u * 0x1.0p53 != (double)(uint64_t)(u * 0x1.0p53);
        sum += u;
        sum2 += u * u;
    }
    CHECK_EQ_U(bad, 0);
    double mean = sum / 1e6;
    CHECK_NEAR(mean, 0.5, 0.0015);
    CHECK_NEAR(sum2 / 1e6 - mean * mean, 1.0 / 12.0, 0.001);

    /* rng_exp(mean 3): non-negative, mean 3 (sd of the mean 0.003 over 1M
     * draws), and P(X > mean) = 1/e. */
    struct rng e = rng_stream(22, RNG_TEST, 5);
    double esum = 0;
    long above = 0;
    int neg = 0;
    for (int i = 0; i < 1000000; i++) {
        double x = rng_exp(&e, 3.0);
        neg += !(x >= 0.0) || isinf(x);
        esum += x;
        above += x > 3.0;
    }
    CHECK_EQ_U(neg, 0);
    CHECK_NEAR(esum / 1e6, 3.0, 0.015);
    CHECK_NEAR(above / 1e6, exp(-1.0), 0.0025);
}

static void test_rng_shuffle(void)
{
    /* A shuffle is a permutation, and element 0 lands in each of 8
     * positions equally often (chi-square, 7 dof, 0.9999 quantile 29.9). */
    struct rng r = rng_stream(31, RNG_TEST, 6);
    long pos[8] = { 0 };
    int not_perm = 0;
    for (int t = 0; t < 80000; t++) {
        uint32_t a[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
        rng_shuffle_u32(&r, a, 8);
        unsigned seen = 0;
        for (int i = 0; i < 8; i++) {
            seen |= 1u << a[i];
            if (a[i] == 0)
                pos[i]++;
        }
        not_perm += seen != 0xffu;
    }
    CHECK_EQ_U(not_perm, 0);
    double chi2 = 0;
    for (int i = 0; i < 8; i++)
        chi2 += (pos[i] - 10000.0) * (pos[i] - 10000.0) / 10000.0;
    CHECK(chi2 < 35.0);
    /* Empty and single-element arrays are left alone. */
    uint32_t one = 5;
    rng_shuffle_u32(&r, &one, 1);
    rng_shuffle_u32(&r, NULL, 0);
    CHECK_EQ_U(one, 5);
}

const struct test_case tests_rng[] = {
    TEST(test_rng_deterministic),
    TEST(test_rng_streams_independent),
    TEST(test_rng_streams_differ),
    TEST(test_rng_no_shifted_streams),
    TEST(test_rng_bits_balanced),
    TEST(test_rng_below_uniform),
    TEST(test_rng_below_unbiased_large_n),
    TEST(test_rng_below_edges),
    TEST(test_rng_unit_and_exp),
    TEST(test_rng_shuffle),
    { 0 },
};
