/* results/stats.c — summary statistics of a sample (see stats.h for the
 * formulas and their sources). */
#include "results/stats.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* Largest n for which the interval's ranks come from the exact binomial
 * (Le Boudec's Table A.1 stops at 70; beyond, Theorem 2.1's normal
 * approximation). */
#define STATS_CI_EXACT_MAX 70u

/* Restore the max-heap property below node i of a[0..n). */
static void sift_down(double *a, uint32_t i, uint32_t n)
{
    double x = a[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n || c < i) /* c < i: 2i + 1 overflowed */
            break;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (!(a[c] > x))
            break;
        a[i] = a[c];
        i = c;
    }
    a[i] = x;
}

/* In-place ascending heapsort: O(n log n), no recursion, no allocation. */
static void sort_doubles(double *a, uint32_t n)
{
    if (n < 2)
        return;
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (uint32_t end = n - 1; end > 0; end--) {
        double t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

double stats_quantile_sorted(const double *sorted, uint32_t n, double q)
{
    assert(q >= 0.0 && q <= 1.0); /* also false for NaN */
    if (n == 0)
        return NAN;
    double h = (double)(n - 1) * q;
    uint32_t lo = (uint32_t)h; /* floor: h >= 0 */
    if (lo >= n - 1)
        return sorted[n - 1];
    double g = h - (double)lo;
    return sorted[lo] + g * (sorted[lo + 1] - sorted[lo]);
}

int stats_median_ci_ranks(uint32_t n, uint32_t *j, uint32_t *k)
{
    *j = *k = 0;
    if (n < 6)
        return -1;
    if (n <= STATS_CI_EXACT_MAX) {
        /* P(B = i) for B ~ Binomial(n, 1/2), from P(B = 0) = 2^-n upward;
         * j is the number of terms whose sum stays <= 0.025. For n <= 70
         * every term is exact to a few roundings (relative 1e-15) and no
         * partial sum lies within 5e-5 of 0.025 (closest: n = 32,
         * P(B <= 10) = 0.025051), so rounding cannot move j. */
        double p = ldexp(1.0, -(int)n), cum = 0;
        uint32_t r = 0;
        while (cum + p <= 0.025) {
            cum += p;
            p = p * (double)(n - r) / (double)(r + 1);
            r++;
        }
        *j = r;
        *k = n + 1 - r;
        return 0;
    }
    double half = 1.96 * sqrt((double)n);
    *j = (uint32_t)floor(((double)n - half) / 2.0);
    *k = (uint32_t)ceil(1.0 + ((double)n + half) / 2.0);
    assert(*j >= 1 && *k <= n && *j < *k);
    return 0;
}

void stats_median_ci(const double *sorted, uint32_t n, double *lo,
                     double *hi)
{
    uint32_t j, k;
    if (stats_median_ci_ranks(n, &j, &k) != 0) {
        *lo = *hi = NAN;
        return;
    }
    *lo = sorted[j - 1];
    *hi = sorted[k - 1];
}

int stats_summarize(const double *v, uint32_t n, double *scratch,
                    struct stats_summary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->ci_lo = s->ci_hi = NAN;
    if (n == 0)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) {
            s->min = s->q1 = s->median = s->q3 = s->max = NAN;
            s->mean = s->qcd = NAN;
            return -1;
        }
    }
    memcpy(scratch, v, (size_t)n * sizeof *scratch);
    sort_doubles(scratch, n);

    double sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += scratch[i];
    s->mean = sum / (double)n;
    s->min = scratch[0];
    s->max = scratch[n - 1];
    s->q1 = stats_quantile_sorted(scratch, n, 0.25);
    s->median = stats_quantile_sorted(scratch, n, 0.5);
    s->q3 = stats_quantile_sorted(scratch, n, 0.75);
    double den = s->q3 + s->q1;
    s->qcd = den != 0 ? (s->q3 - s->q1) / den : NAN;
    stats_median_ci(scratch, n, &s->ci_lo, &s->ci_hi);
    return 0;
}

double stats_correlation(const double *x, const double *y, uint32_t n)
{
    if (n < 2)
        return NAN;
    double sx = 0, sy = 0;
    int x_varies = 0, y_varies = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return NAN;
        sx += x[i];
        sy += y[i];
        x_varies |= x[i] != x[0];
        y_varies |= y[i] != y[0];
    }
    /* Tested on the values, not on Σ(x−x̄)² > 0: a constant 0.1 has a
     * mean that is off by a rounding, which would give a spurious ±1. */
    if (!x_varies || !y_varies)
        return NAN;
    double mx = sx / (double)n, my = sy / (double)n;
    double sxx = 0, syy = 0, sxy = 0;
    for (uint32_t i = 0; i < n; i++) {
        double dx = x[i] - mx, dy = y[i] - my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    if (!(sxx > 0) || !(syy > 0))
        return NAN;
    double r = sxy / (sqrt(sxx) * sqrt(syy));
    /* Rounding can push |r| a hair past 1 for (anti-)collinear data. */
    return r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;
}

int stats_normalize(const double *v, uint32_t n, double baseline,
                    double *out)
{
    if (baseline == 0 || !isfinite(baseline))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        out[i] = v[i] / baseline;
    return 0;
}
