/* results/stall.c — run time against the machine's percent time stalled
 * (ICS'21 Fig. 1; results/stall.h). */
#include "results/stall.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "exp/outdir.h"
#include "results/impact_results.h"

/* v's points to fit (P finite, at most STALL_FIT_MAX_PCT) into x (P)
 * and y (T). Returns how many. */
static uint32_t fit_points(const struct stall_victim *v, double *x,
                           double *y)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->pt[i] <= STALL_FIT_MAX_PCT) { /* false for NaN */
            x[k] = v->pt[i];
            y[k++] = v->t[i];
        }
    return k;
}

/* One victim's row of stall.csv and of the table. */
static void victim_row(FILE *f, FILE *out, const struct stall_victim *v,
                       const double *x, const double *y, uint32_t k)
{
    struct impact_fit fit;
    impact_fit(x, y, k, &fit);
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < k; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    if (!k)
        lo = hi = NAN;
    double tl = fit.intercept + fit.slope * STALL_LOW_PCT;
    double th = fit.intercept + fit.slope * STALL_HIGH_PCT;
    double ratio = tl > 0 ? th / tl : NAN;
    fprintf(f, "%s,%u", v->name, k);
    const double col[] = { lo, hi, fit.slope, fit.intercept, fit.r,
                           STALL_LOW_PCT, STALL_HIGH_PCT, tl, th, ratio };
    for (size_t i = 0; i < sizeof col / sizeof *col; i++)
        impact_csv_num(f, col[i], true);
    fputc('\n', f);
    if (out)
        fprintf(out, "%-20s %6u %8.3f %8.3f %12.4g %8.3f %12.4g %12.4g "
                     "%8.3f\n",
                v->name, k, lo, hi, fit.slope, fit.r, tl, th, ratio);
}

int stall_write(const char *dir, const struct stall_victim *v, uint32_t n_v,
                FILE *out, FILE *err)
{
    uint32_t cap = 1, any = 0;
    for (uint32_t i = 0; i < n_v; i++) {
        cap = v[i].n > cap ? v[i].n : cap;
        for (uint32_t j = 0; j < v[i].n; j++)
            any += isfinite(v[i].pt[j]);
    }
    if (!any)
        return 0;
    double *x = malloc(cap * sizeof *x), *y = malloc(cap * sizeof *y);
    struct outfile of = { 0 }, orr = { 0 };
    int rc = -1;
    if (!x || !y) {
        fprintf(err, "dfsim: out of memory (stall.csv)\n");
        goto done;
    }
    if (outfile_open(&of, dir, "stall.csv", err) != 0 ||
        outfile_open(&orr, dir, "stall_runs.csv", err) != 0)
        goto done; /* reported */
    fprintf(of.f, "victim,points,stalled_min_pct,stalled_max_pct,"
                  "slope_us_per_pct,intercept_us,r,low_pct,high_pct,"
                  "t_low_us,t_high_us,high_over_low\n");
    fprintf(orr.f, "victim,sim,aggressor,share,stalled_pct,t_us\n");
    if (out)
        fprintf(out, "\nrun time against the machine's percent time "
                     "stalled (ICS'21 Fig. 1): T = a + b P over each "
                     "victim's simulations with P <= %.0f %%, T(P) at "
                     "P = %.2f and %.1f %%\n"
                     "%-20s %6s %8s %8s %12s %8s %12s %12s %8s\n",
                STALL_FIT_MAX_PCT, STALL_LOW_PCT, STALL_HIGH_PCT, "victim",
                "points",
                "P min", "P max", "b (us/%)", "r", "T low (us)",
                "T high (us)", "ratio");
    for (uint32_t i = 0; i < n_v; i++) {
        uint32_t k = fit_points(&v[i], x, y);
        victim_row(of.f, out, &v[i], x, y, k);
        for (uint32_t j = 0; j < v[i].n; j++) {
            if (!isfinite(v[i].pt[j]))
                continue;
            fprintf(orr.f, "%s,%u,%s", v[i].name, v[i].sim[j],
                    v[i].agg[j] ? v[i].agg[j] : "");
            impact_csv_num(orr.f, v[i].share[j], true);
            impact_csv_num(orr.f, v[i].pt[j], true);
            impact_csv_num(orr.f, v[i].t[j], true);
            fputc('\n', orr.f);
        }
    }
    /* each commit closes its file (o.f NULL), failed or not */
    if (outfile_commit(&of, err) != 0 || outfile_commit(&orr, err) != 0)
        goto done; /* reported */
    rc = 1;
done:
    if (of.f)
        outfile_abandon(&of);
    if (orr.f)
        outfile_abandon(&orr);
    free(x);
    free(y);
    return rc;
}
