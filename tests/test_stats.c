/* tests/test_stats.c — results/stats: quantiles (Hyndman & Fan type 7), QCD,
 * the order-statistic confidence interval of the median (Le Boudec), Pearson
 * correlation and normalisation, on samples whose results are worked out by
 * hand in the comments. Every expected value is one a plausible mistake
 * would miss: type 6 quartiles of 1..10 are 2.75/8.25, not 3.25/7.75; the
 * normal-approximation ranks for n = 20 are [5, 16], not [6, 15]; a
 * one-pass correlation loses all digits at an offset of 1e9. */
#include "test.h"

#include <stdlib.h>

#include "core/rng.h"
#include "results/stats.h"

#define TOL 1e-12

static void test_stats_quantile_type7(void)
{
    /* 1..10: h = 9q, Q = x(⌊h⌋+1) + frac(h)·1 = 1 + 9q. */
    double v[10];
    for (int i = 0; i < 10; i++)
        v[i] = i + 1;
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.0), 1.0, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.1), 1.9, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.25), 3.25, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.5), 5.5, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.75), 7.75, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 0.9), 9.1, TOL);
    CHECK_NEAR(stats_quantile_sorted(v, 10, 1.0), 10.0, TOL);

    /* Uneven gaps: {1, 2, 3, 4, 7, 10}, h = 5q.
     * q = .25: h = 1.25 → 2 + .25·(3 − 2) = 2.25
     * q = .5:  h = 2.5  → 3 + .5·(4 − 3)  = 3.5
     * q = .75: h = 3.75 → 4 + .75·(7 − 4) = 6.25
     * q = .9:  h = 4.5  → 7 + .5·(10 − 7) = 8.5 */
    const double s[6] = { 1, 2, 3, 4, 7, 10 };
    CHECK_NEAR(stats_quantile_sorted(s, 6, 0.25), 2.25, TOL);
    CHECK_NEAR(stats_quantile_sorted(s, 6, 0.5), 3.5, TOL);
    CHECK_NEAR(stats_quantile_sorted(s, 6, 0.75), 6.25, TOL);
    CHECK_NEAR(stats_quantile_sorted(s, 6, 0.9), 8.5, TOL);

    /* No data: NaN. */
    CHECK(isnan(stats_quantile_sorted(v, 0, 0.5)));
}

static void test_stats_summary_unsorted(void)
{
    /* The sample above, shuffled. mean = 27/6 = 4.5; QCD = (6.25 − 2.25) /
     * (6.25 + 2.25) = 4/8.5; n = 6 ⇒ CI ranks [1, 6] = [min, max]. */
    const double v[6] = { 7, 1, 3, 10, 4, 2 };
    double copy[6], scratch[6];
    memcpy(copy, v, sizeof v);
    struct stats_summary s;
    CHECK(stats_summarize(v, 6, scratch, &s) == 0);
    CHECK_EQ_U(s.n, 6);
    CHECK_NEAR(s.min, 1.0, TOL);
    CHECK_NEAR(s.q1, 2.25, TOL);
    CHECK_NEAR(s.median, 3.5, TOL);
    CHECK_NEAR(s.q3, 6.25, TOL);
    CHECK_NEAR(s.max, 10.0, TOL);
    CHECK_NEAR(s.mean, 4.5, TOL);
    CHECK_NEAR(s.qcd, 4.0 / 8.5, TOL);
    CHECK_NEAR(s.ci_lo, 1.0, TOL);
    CHECK_NEAR(s.ci_hi, 10.0, TOL);
    /* The input is untouched; scratch holds the sorted copy. */
    CHECK(memcmp(v, copy, sizeof v) == 0);
    const double sorted[6] = { 1, 2, 3, 4, 7, 10 };
    CHECK(memcmp(scratch, sorted, sizeof sorted) == 0);
}

static void test_stats_qcd(void)
{
    /* 1..10: (7.75 − 3.25) / (7.75 + 3.25) = 4.5 / 11. */
    double v[10], scratch[10];
    for (int i = 0; i < 10; i++)
        v[i] = 10 - i; /* descending: the sort matters */
    struct stats_summary s;
    CHECK(stats_summarize(v, 10, scratch, &s) == 0);
    CHECK_NEAR(s.qcd, 4.5 / 11.0, TOL);
    CHECK_NEAR(s.median, 5.5, TOL);
    /* Scaling leaves QCD alone (it is dimensionless); a shift does not. */
    for (int i = 0; i < 10; i++)
        v[i] = 1000.0 * (i + 1);
    CHECK(stats_summarize(v, 10, scratch, &s) == 0);
    CHECK_NEAR(s.qcd, 4.5 / 11.0, TOL);
    for (int i = 0; i < 10; i++)
        v[i] = 100.0 + (i + 1);
    CHECK(stats_summarize(v, 10, scratch, &s) == 0);
    CHECK_NEAR(s.qcd, 4.5 / 211.0, TOL);
    /* A constant sample: no dispersion. */
    for (int i = 0; i < 10; i++)
        v[i] = 2.5;
    CHECK(stats_summarize(v, 10, scratch, &s) == 0);
    CHECK_NEAR(s.qcd, 0.0, 0.0);
    /* Q3 + Q1 = 0 ({-1, -1, 1, 1}: Q1 = -1, Q3 = 1): undefined, NaN. */
    const double z[4] = { 1, -1, 1, -1 };
    CHECK(stats_summarize(z, 4, scratch, &s) == 0);
    CHECK_NEAR(s.q1, -1.0, TOL);
    CHECK_NEAR(s.q3, 1.0, TOL);
    CHECK(isnan(s.qcd));
}

/* j of the 95 % median interval for n = 6..70, computed with exact rational
 * arithmetic (largest j with Σ_{i<j} C(n,i)/2^n <= 1/40), i.e. Le Boudec's
 * Table A.1; k = n + 1 − j. */
static const uint8_t exact_j[71] = {
    [6] = 1,   [7] = 1,   [8] = 1,   [9] = 2,   [10] = 2,  [11] = 2,
    [12] = 3,  [13] = 3,  [14] = 3,  [15] = 4,  [16] = 4,  [17] = 5,
    [18] = 5,  [19] = 5,  [20] = 6,  [21] = 6,  [22] = 6,  [23] = 7,
    [24] = 7,  [25] = 8,  [26] = 8,  [27] = 8,  [28] = 9,  [29] = 9,
    [30] = 10, [31] = 10, [32] = 10, [33] = 11, [34] = 11, [35] = 12,
    [36] = 12, [37] = 13, [38] = 13, [39] = 13, [40] = 14, [41] = 14,
    [42] = 15, [43] = 15, [44] = 16, [45] = 16, [46] = 16, [47] = 17,
    [48] = 17, [49] = 18, [50] = 18, [51] = 19, [52] = 19, [53] = 19,
    [54] = 20, [55] = 20, [56] = 21, [57] = 21, [58] = 22, [59] = 22,
    [60] = 22, [61] = 23, [62] = 23, [63] = 24, [64] = 24, [65] = 25,
    [66] = 25, [67] = 26, [68] = 26, [69] = 26, [70] = 27,
};

static void test_stats_median_ci_ranks(void)
{
    uint32_t j, k;
    /* Le Boudec Table A.1 (coverage in brackets, 1 − 2·P(B <= j − 1)):
     *   n = 6:  P(B = 0) = 1/64 = .016 <= .025, P(B <= 1) = 7/64 > .025
     *           ⇒ [1, 6] (96.9 %)
     *   n = 10: P(B <= 1) = 11/1024 = .011, P(B <= 2) = 56/1024 = .055
     *           ⇒ [2, 9] (97.9 %)
     *   n = 20: P(B <= 5) = .0207, P(B <= 6) = .0577 ⇒ [6, 15] (95.9 %)
     *   n = 40: P(B <= 13) = .0192, P(B <= 14) = .0403 ⇒ [14, 27] (96.2 %)
     * The normal approximation would give [0, 7], [1, 10], [5, 16],
     * [13, 28] there. */
    CHECK(stats_median_ci_ranks(6, &j, &k) == 0);
    CHECK_EQ_U(j, 1);
    CHECK_EQ_U(k, 6);
    CHECK(stats_median_ci_ranks(10, &j, &k) == 0);
    CHECK_EQ_U(j, 2);
    CHECK_EQ_U(k, 9);
    CHECK(stats_median_ci_ranks(20, &j, &k) == 0);
    CHECK_EQ_U(j, 6);
    CHECK_EQ_U(k, 15);
    CHECK(stats_median_ci_ranks(40, &j, &k) == 0);
    CHECK_EQ_U(j, 14);
    CHECK_EQ_U(k, 27);
    CHECK(stats_median_ci_ranks(70, &j, &k) == 0);
    CHECK_EQ_U(j, 27);
    CHECK_EQ_U(k, 44);
    /* n >= 71, Theorem 2.1 / Hoefler & Belli: 1.96·√n,
     *   n = 71:   16.515 ⇒ j = ⌊54.485/2⌋ = 27, k = ⌈1 + 87.515/2⌉ = 45
     *   n = 100:  19.6   ⇒ j = ⌊80.4/2⌋ = 40,   k = ⌈1 + 119.6/2⌉ = 61
     *   n = 1000: 61.98  ⇒ j = ⌊938.02/2⌋ = 469, k = ⌈1 + 1061.98/2⌉ = 532 */
    CHECK(stats_median_ci_ranks(71, &j, &k) == 0);
    CHECK_EQ_U(j, 27);
    CHECK_EQ_U(k, 45);
    CHECK(stats_median_ci_ranks(100, &j, &k) == 0);
    CHECK_EQ_U(j, 40);
    CHECK_EQ_U(k, 61);
    CHECK(stats_median_ci_ranks(1000, &j, &k) == 0);
    CHECK_EQ_U(j, 469);
    CHECK_EQ_U(k, 532);
    /* n < 6: no 95 % interval (n = 5: [x(1), x(5)] covers 93.75 %). */
    for (uint32_t n = 0; n < 6; n++) {
        j = k = 99;
        CHECK(stats_median_ci_ranks(n, &j, &k) == -1);
        CHECK_EQ_U(j, 0);
        CHECK_EQ_U(k, 0);
    }
    /* The whole exact table, and symmetric, in-range ranks beyond it. */
    int bad = 0;
    for (uint32_t n = 6; n <= 70; n++) {
        stats_median_ci_ranks(n, &j, &k);
        bad += j != exact_j[n] || k != n + 1 - exact_j[n];
    }
    CHECK_EQ_U(bad, 0);
    for (uint32_t n = 71; n <= 20000; n++) {
        stats_median_ci_ranks(n, &j, &k);
        bad += !(j >= 1 && k == n + 1 - j && j <= (n + 1) / 2);
    }
    CHECK_EQ_U(bad, 0);
}

static void test_stats_median_ci_values(void)
{
    /* On 1..n the interval's values are its ranks; on a sample with uneven
     * gaps they are the order statistics, not interpolations. */
    double v[100];
    double lo, hi;
    for (int i = 0; i < 100; i++)
        v[i] = i + 1;
    stats_median_ci(v, 100, &lo, &hi);
    CHECK_NEAR(lo, 40.0, 0.0);
    CHECK_NEAR(hi, 61.0, 0.0);
    stats_median_ci(v, 20, &lo, &hi);
    CHECK_NEAR(lo, 6.0, 0.0);
    CHECK_NEAR(hi, 15.0, 0.0);
    for (int i = 0; i < 10; i++)
        v[i] = (i + 1) * (i + 1); /* 1, 4, 9, ..., 100 */
    stats_median_ci(v, 10, &lo, &hi);
    CHECK_NEAR(lo, 4.0, 0.0);
    CHECK_NEAR(hi, 81.0, 0.0);
    stats_median_ci(v, 5, &lo, &hi);
    CHECK(isnan(lo) && isnan(hi));
}

static void test_stats_edges(void)
{
    double scratch[2] = { -7, -7 };
    struct stats_summary s;
    /* n = 0: zeros (the CI, as for every n < 6, NaN); scratch untouched. */
    memset(&s, 0x55, sizeof s);
    CHECK(stats_summarize(NULL, 0, scratch, &s) == 0);
    CHECK_EQ_U(s.n, 0);
    CHECK(s.min == 0 && s.q1 == 0 && s.median == 0 && s.q3 == 0);
    CHECK(s.max == 0 && s.mean == 0 && s.qcd == 0);
    CHECK(isnan(s.ci_lo) && isnan(s.ci_hi));
    CHECK(scratch[0] == -7 && scratch[1] == -7);

    /* n = 1: every quantile is the value; no spread; no interval. */
    const double one[1] = { 3.5 };
    CHECK(stats_summarize(one, 1, scratch, &s) == 0);
    CHECK_EQ_U(s.n, 1);
    CHECK(s.min == 3.5 && s.q1 == 3.5 && s.median == 3.5 && s.q3 == 3.5);
    CHECK(s.max == 3.5 && s.mean == 3.5);
    CHECK_NEAR(s.qcd, 0.0, 0.0);
    CHECK(isnan(s.ci_lo) && isnan(s.ci_hi));

    /* n = 2, {4, 2}: h = q, so Q1 = 2.5, median 3, Q3 = 3.5;
     * QCD = 1 / 6. */
    const double two[2] = { 4, 2 };
    CHECK(stats_summarize(two, 2, scratch, &s) == 0);
    CHECK_EQ_U(s.n, 2);
    CHECK_NEAR(s.min, 2.0, TOL);
    CHECK_NEAR(s.q1, 2.5, TOL);
    CHECK_NEAR(s.median, 3.0, TOL);
    CHECK_NEAR(s.q3, 3.5, TOL);
    CHECK_NEAR(s.max, 4.0, TOL);
    CHECK_NEAR(s.mean, 3.0, TOL);
    CHECK_NEAR(s.qcd, 1.0 / 6.0, TOL);
    CHECK(isnan(s.ci_lo) && isnan(s.ci_hi));
    CHECK(two[0] == 4 && two[1] == 2);
}

static void test_stats_nonfinite_rejected(void)
{
    double v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, copy[8], scratch[8];
    const double bad[3] = { NAN, INFINITY, -INFINITY };
    struct stats_summary s;
    for (int b = 0; b < 3; b++) {
        for (int pos = 0; pos < 8; pos += 7) { /* first and last place */
            for (int i = 0; i < 8; i++)
                v[i] = i + 1;
            v[pos] = bad[b];
            memcpy(copy, v, sizeof v);
            CHECK(stats_summarize(v, 8, scratch, &s) == -1);
            CHECK_EQ_U(s.n, 8);
            CHECK(isnan(s.min) && isnan(s.q1) && isnan(s.median));
            CHECK(isnan(s.q3) && isnan(s.max) && isnan(s.mean));
            CHECK(isnan(s.qcd) && isnan(s.ci_lo) && isnan(s.ci_hi));
            CHECK(memcmp(v, copy, sizeof v) == 0);
        }
    }
    /* Huge but finite values are data. */
    v[0] = 1e300;
    v[7] = -1e300;
    CHECK(stats_summarize(v, 8, scratch, &s) == 0);
    CHECK(s.max == 1e300 && s.min == -1e300);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_stats_sort_large(void)
{
    /* 1..1001 shuffled, each twice (ties; x(2i−1) = x(2i) = i): median
     * 501, Q1 = 251, Q3 = 751; n = 2002, 1.96·√2002 = 87.70 ⇒ ranks
     * ⌊(2002 − 87.70)/2⌋ = 957 and ⌈1 + 2089.70/2⌉ = 1046, values 479 and
     * 523. And the sorted copy matches qsort's. */
    enum { N = 2002 };
    static uint32_t perm[N];
    static double v[N], scratch[N], ref[N];
    for (uint32_t i = 0; i < N; i++)
        perm[i] = i;
    struct rng r = rng_stream(11, RNG_TEST, 0);
    rng_shuffle_u32(&r, perm, N);
    for (uint32_t i = 0; i < N; i++)
        v[i] = (double)(perm[i] / 2 + 1);
    memcpy(ref, v, sizeof v);
    qsort(ref, N, sizeof ref[0], cmp_double);
    struct stats_summary s;
    CHECK(stats_summarize(v, N, scratch, &s) == 0);
    CHECK(memcmp(scratch, ref, sizeof ref) == 0);
    CHECK_NEAR(s.median, 501.0, TOL);
    CHECK_NEAR(s.q1, 251.0, TOL); /* h = 500.25: x(501) = x(502) = 251 */
    CHECK_NEAR(s.q3, 751.0, TOL);
    CHECK_NEAR(s.mean, 501.0, 1e-9);
    CHECK_NEAR(s.ci_lo, 479.0, 0.0);
    CHECK_NEAR(s.ci_hi, 523.0, 0.0);
}

static void test_stats_correlation(void)
{
    const double x[5] = { 1, 2, 3, 4, 5 };
    double y[5];
    /* Perfect: y = 2x + 1 ⇒ 1; y = 7 − 3x ⇒ −1. */
    for (int i = 0; i < 5; i++)
        y[i] = 2 * x[i] + 1;
    CHECK_NEAR(stats_correlation(x, y, 5), 1.0, TOL);
    for (int i = 0; i < 5; i++)
        y[i] = 7 - 3 * x[i];
    CHECK_NEAR(stats_correlation(x, y, 5), -1.0, TOL);

    /* x = 1..5, y = {2, 4, 5, 4, 5}: x̄ = 3, ȳ = 4; dx = −2..2,
     * dy = {−2, 0, 1, 0, 1}; Σdxdy = 4 + 2 = 6, Σdx² = 10, Σdy² = 6;
     * r = 6 / √60 = 0.7745966692. Symmetric in x and y. */
    const double yk[5] = { 2, 4, 5, 4, 5 };
    CHECK_NEAR(stats_correlation(x, yk, 5), 6.0 / sqrt(60.0), TOL);
    CHECK_NEAR(stats_correlation(x, yk, 5), 0.7745966692, 1e-10);
    CHECK_NEAR(stats_correlation(yk, x, 5), 0.7745966692, 1e-10);

    /* Shifted by 1e9 (absolute times in ns): the same r. Σx² would be
     * 5e18, whose rounding (~512) swamps Σdx² = 10 in a one-pass
     * formula. */
    double xo[5], yo[5];
    for (int i = 0; i < 5; i++) {
        xo[i] = 1e9 + x[i];
        yo[i] = 1e9 + yk[i];
    }
    CHECK_NEAR(stats_correlation(xo, yo, 5), 0.7745966692, 1e-10);

    /* Undefined: n < 2, a constant side (also a constant 0.1, whose mean
     * is off by a rounding), a NaN or an infinity. */
    CHECK(isnan(stats_correlation(x, yk, 1)));
    CHECK(isnan(stats_correlation(x, yk, 0)));
    const double c[5] = { 3, 3, 3, 3, 3 };
    const double tenth[5] = { 0.1, 0.1, 0.1, 0.1, 0.1 };
    CHECK(isnan(stats_correlation(x, c, 5)));
    CHECK(isnan(stats_correlation(c, x, 5)));
    CHECK(isnan(stats_correlation(tenth, x, 5)));
    CHECK(isnan(stats_correlation(x, tenth, 3)));
    double yn[5];
    memcpy(yn, yk, sizeof yn);
    yn[2] = NAN;
    CHECK(isnan(stats_correlation(x, yn, 5)));
    yn[2] = INFINITY;
    CHECK(isnan(stats_correlation(x, yn, 5)));
    CHECK(isnan(stats_correlation(yn, x, 5)));
}

static void test_stats_normalize(void)
{
    /* To a baseline median of 4: {2, 4, 5} → {0.5, 1, 1.25}. */
    const double v[3] = { 2, 4, 5 };
    double out[3] = { -1, -1, -1 };
    CHECK(stats_normalize(v, 3, 4.0, out) == 0);
    CHECK_NEAR(out[0], 0.5, TOL);
    CHECK_NEAR(out[1], 1.0, TOL);
    CHECK_NEAR(out[2], 1.25, TOL);
    CHECK(v[0] == 2 && v[1] == 4 && v[2] == 5);
    /* In place. */
    double w[3] = { 3, 6, 9 };
    CHECK(stats_normalize(w, 3, 3.0, w) == 0);
    CHECK_NEAR(w[0], 1.0, TOL);
    CHECK_NEAR(w[1], 2.0, TOL);
    CHECK_NEAR(w[2], 3.0, TOL);
    /* A zero or non-finite baseline is refused and out left alone. */
    double o2[3] = { -1, -1, -1 };
    CHECK(stats_normalize(v, 3, 0.0, o2) == -1);
    CHECK(stats_normalize(v, 3, NAN, o2) == -1);
    CHECK(stats_normalize(v, 3, INFINITY, o2) == -1);
    CHECK(o2[0] == -1 && o2[1] == -1 && o2[2] == -1);
    /* Normalising a sample by its own median gives median 1. */
    const double t[5] = { 10, 40, 20, 50, 30 };
    double sc[5], nt[5];
    struct stats_summary s;
    CHECK(stats_summarize(t, 5, sc, &s) == 0);
    CHECK(stats_normalize(t, 5, s.median, nt) == 0);
    CHECK(stats_summarize(nt, 5, sc, &s) == 0);
    CHECK_NEAR(s.median, 1.0, TOL);
    CHECK_NEAR(s.q1, 2.0 / 3.0, TOL);
}

const struct test_case tests_stats[] = {
    TEST(test_stats_quantile_type7),
    TEST(test_stats_summary_unsorted),
    TEST(test_stats_qcd),
    TEST(test_stats_median_ci_ranks),
    TEST(test_stats_median_ci_values),
    TEST(test_stats_edges),
    TEST(test_stats_nonfinite_rejected),
    TEST(test_stats_sort_large),
    TEST(test_stats_correlation),
    TEST(test_stats_normalize),
    { 0 },
};
