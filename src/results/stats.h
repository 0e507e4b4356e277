/* results/stats.h — the statistics a network-noise experiment reports: median,
 * quartiles, quartile coefficient of dispersion, a 95 % confidence interval
 * of the median, normalisation to a baseline, and the correlation of a
 * model's estimate with measured times.
 *
 * What it follows. SC'19 (De Sensi, Di Girolamo, Hoefler, "Mitigating
 * Network Noise on Dragonfly Networks through Application-Aware Routing")
 * §3 measures noise in one fixed allocation, alternating the variants
 * between iterations, and reports per variant the median, the quartiles
 * (box plots; "IQR = Q3 − Q1", Fig. 3), the QCD (§3.3, Fig. 5), the 95 %
 * confidence interval of the median ("represented as a notch", §3.1; "in
 * most cases lower than 5 % of the median", §5) and times normalised to the
 * median of a baseline routing (Figs. 8–10). §2.4 validates its model
 * T = (p+512)/1024 · L + f·(s+1) against measured ping-pong times by their
 * correlation: 79 % on average over 40 allocations.
 *
 * The formulas (x(1) <= ... <= x(n) is the sorted sample, 1-based):
 *
 *   quantile  Hyndman & Fan type 7 (Hyndman and Fan, "Sample quantiles in
 *             statistical packages", The American Statistician 50(4), 1996;
 *             R's quantile() default, numpy's method='linear'):
 *                 h = (n − 1)·q, i = ⌊h⌋,
 *                 Q(q) = x(i+1) + (h − i)·(x(i+2) − x(i+1))   (Q(1) = x(n)).
 *             SC'19 does not say which it used. INFERENCE: De Sensi's
 *             published plotting scripts (repo:DanieleDeSensi/cloud_noise
 *             plots/plot.py, SC'22) draw box plots with seaborn, whose
 *             quartiles are numpy's 'linear' = type 7; ggplot2 and R's
 *             quantile() are type 7 as well (R's boxplot() alone uses
 *             Tukey's hinges). E.g. for 1..10: Q1 = 3.25, median 5.5,
 *             Q3 = 7.75.
 *   QCD       (Q3 − Q1) / (Q3 + Q1)  (SC'19 §3.3). NaN when Q3 + Q1 = 0.
 *   median CI the nonparametric interval [x(j), x(k)] of Le Boudec
 *             ("Performance Evaluation of Computer and Communication
 *             Systems", EPFL Press 2010, Theorem 2.1 and Table A.1), which
 *             Hoefler and Belli ("Scientific Benchmarking of Parallel
 *             Computing Systems", SC'15) recommend. It rests on B, the
 *             number of samples below the true median, being Binomial(n,
 *             1/2) for any continuous distribution; P(x(j) <= m < x(k)) =
 *             P(j <= B < k).
 *               n <= 70: Table A.1, which we compute exactly: j is the
 *                 largest rank with P(B <= j − 1) <= 0.025, k = n + 1 − j,
 *                 so the coverage 1 − 2·P(B <= j − 1) is >= 95 %
 *                 (n = 6: [x(1), x(6)] 96.9 %; 10: [2, 9]; 20: [6, 15];
 *                 40: [14, 27]; 70: [27, 44]).
 *               n >= 71: the normal approximation of Theorem 2.1, the
 *                 formula Hoefler and Belli quote:
 *                 j = ⌊(n − 1.96·√n)/2⌋, k = ⌈1 + (n + 1.96·√n)/2⌉
 *                 (n = 100: [40, 61]).
 *             For n <= 70 the approximation is not used because it is
 *             wrong there: for n = 6 it gives j = 0, k = 7, outside the
 *             sample, and for n = 20 it gives [5, 16], wider than needed.
 *             n < 6: no 95 % interval exists (even [x(1), x(n)] covers only
 *             1 − 2^(1−n) < 95 %, 93.75 % at n = 5), so it is NaN.
 *             NOT this: the notch box-plot libraries draw, median ±
 *             1.57·IQR/√n (McGill, Tukey and Larsen, "Variations of box
 *             plots", The American Statistician 32(1), 1978; matplotlib and
 *             seaborn). SC'19's notches were probably drawn that way
 *             (INFERENCE, as for the quartiles); the order-statistic
 *             interval needs no assumption on the distribution's shape,
 *             which network-noise samples (outliers three orders of
 *             magnitude above the median, SC'19 §3.1) do not meet.
 *   correlation  Pearson's r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² · Σ(y−ȳ)²),
 *             two passes (means first) so that large offsets such as
 *             absolute times do not cancel digits. SC'19 §2.4 says
 *             "correlation" without naming the coefficient; Pearson's is
 *             the usual reading (INFERENCE).
 *   normalise v[i] / baseline, the baseline being the median of the
 *             reference variant (SC'19 Figs. 8–10: "normalized with respect
 *             to the median of the DEFAULT routing").
 *
 * Non-finite inputs. A NaN or an infinity in a sample is a broken run (a
 * time that never ended, a division by zero upstream), not data: the
 * summary refuses it (returns -1, every statistic NaN) rather than sort it
 * into a plausible-looking median; correlation returns NaN;
 * normalisation refuses a zero or non-finite baseline.
 *
 * Memory: nothing here allocates. stats_summarize sorts a copy into a
 * buffer the caller gives (with an in-place heapsort, not qsort: glibc's
 * qsort may malloc a merge buffer), so a summary can run inside a
 * simulation without touching the heap.
 */
#ifndef DFSIM_STATS_H
#define DFSIM_STATS_H

#include <stdint.h>

struct stats_summary {
    uint32_t n;            /* samples summarised */
    double min, q1, median, q3, max; /* type 7 quantiles 0, ¼, ½, ¾, 1 */
    double mean;           /* arithmetic mean (sum of the sorted sample / n) */
    double qcd;            /* (q3 − q1) / (q3 + q1); NaN if q3 + q1 = 0 */
    double ci_lo, ci_hi;   /* 95 % CI of the median, x(j) and x(k); NaN if
                              n < 6 */
};

/* Summarise v[0..n). v is not modified: it is copied into scratch (n
 * doubles, not overlapping v), which is sorted and left sorted, so the
 * caller may read further quantiles from it. n = 0 gives all statistics 0
 * (and the CI NaN, as for every n < 6). Returns 0, or -1 if v holds a NaN
 * or an infinity: then every statistic is NaN (s->n is still n). */
int stats_summarize(const double *v, uint32_t n, double *scratch,
                    struct stats_summary *s);

/* The q-quantile (0 <= q <= 1, asserted) of sorted[0..n), ascending and
 * finite, by Hyndman & Fan type 7 (see above). NaN if n = 0. */
double stats_quantile_sorted(const double *sorted, uint32_t n, double q);

/* The 1-based ranks [j, k] of the 95 % confidence interval of the median of
 * n samples (Le Boudec Table A.1 for n <= 70, Theorem 2.1's approximation
 * beyond; see above). Returns 0, or -1 if n < 6 (no interval; j = k = 0).
 * Useful on its own to decide how many samples a run needs. */
int stats_median_ci_ranks(uint32_t n, uint32_t *j, uint32_t *k);

/* The 95 % confidence interval of the median of sorted[0..n) (ascending):
 * lo = x(j), hi = x(k). Both NaN if n < 6. */
void stats_median_ci(const double *sorted, uint32_t n, double *lo,
                     double *hi);

/* Pearson's correlation of x[0..n) and y[0..n), in [-1, 1]. NaN if n < 2,
 * if x or y is constant, or if either holds a NaN or an infinity. */
double stats_correlation(const double *x, const double *y, uint32_t n);

/* out[i] = v[i] / baseline for i < n (out may be v). Returns 0, or -1 if
 * baseline is zero or not finite (out is then left as it was). */
int stats_normalize(const double *v, uint32_t n, double baseline,
                    double *out);

#endif
