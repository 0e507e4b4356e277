/* results/convergence.c — how many runs Netscope's delay sensitivity
 * needs before it settles (ICS'21 Fig. 4b, 4c; results/convergence.h). */
#include "results/convergence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "exp/outdir.h"
#include "results/impact_results.h"
#include "results/stats.h"

uint32_t conv_sequence(const double *m, const double *t,
                       const uint32_t *order, uint32_t len, double c_final,
                       double tol, double *err)
{
    /* running sums, the fit after each run; the points' scale (us, up
     * to seconds) keeps n Sxx - Sx^2 far from cancellation for the few
     * hundred runs a study has */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    bool ok = isfinite(c_final) && c_final != 0;
    uint32_t from = 0; /* the run from which every estimate is within */
    for (uint32_t i = 0; i < len; i++) {
        double x = m[order[i]], y = t[order[i]], k = i + 1;
        sx += x, sy += y, sxx += x * x, sxy += x * y;
        double den = k * sxx - sx * sx, c = NAN;
        if (i + 1 >= IMPACT_FIT_MIN && den > 1e-12 * k * sxx)
            c = (k * sxy - sx * sy) / den;
        err[i] = ok ? (c - c_final) / c_final : NAN;
        if (!(fabs(err[i]) <= tol))
            from = i + 1; /* not within: the earliest is later */
    }
    return ok && from < len ? from + 1 : 0;
}

enum { ORD_PRODUCTION, ORD_EXTREMES, ORD_N };
static const char *const ord_name[ORD_N] = { "production", "extremes" };

/* One draw's order of v's points from r: production, every point
 * shuffled; extremes, the alone and highest-share pools each shuffled,
 * then taken in turn while both last. Returns its length. pool: n
 * scratch. */
static uint32_t draw_order(const struct conv_victim *v, int ord,
                           struct rng *r, uint32_t *order, uint32_t *pool)
{
    if (ord == ORD_PRODUCTION) {
        for (uint32_t i = 0; i < v->n; i++)
            order[i] = i;
        rng_shuffle_u32(r, order, v->n);
        return v->n;
    }
    uint32_t na = 0, nh = 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->kind[i] == CONV_ALONE)
            pool[na++] = i;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->kind[i] == CONV_HIGH)
            pool[na + nh++] = i;
    rng_shuffle_u32(r, pool, na);
    rng_shuffle_u32(r, pool + na, nh);
    uint32_t pairs = na < nh ? na : nh;
    for (uint32_t i = 0; i < pairs; i++) {
        order[2 * i] = pool[i];
        order[2 * i + 1] = pool[na + i];
    }
    return 2 * pairs;
}

/* q-quantile of a sorted sample where NEVER stands for "did not
 * converge": NaN when the quantile falls on one. */
#define NEVER 1e18
static double runs_q(const double *sorted, uint32_t n, double q)
{
    double x = stats_quantile_sorted(sorted, n, q);
    return x >= NEVER / 2 ? NAN : x;
}

struct conv_work {
    uint32_t *order, *pool; /* [n] */
    double *err;            /* [CONV_DRAWS][n] */
    double *runs, *col, *sorted; /* [CONV_DRAWS] */
};

/* One victim and order: its rows of both files. */
static void victim_order(FILE *fc, FILE *fr, const struct conv_victim *v,
                         int ord, double c_final, uint64_t seed,
                         struct conv_work *w)
{
    const char *src = v->m_source;
    struct rng r = rng_stream(seed, RNG_CONVERGENCE,
                              (uint64_t)v->id * ORD_N + (uint64_t)ord);
    uint32_t len = 0, conv = 0;
    double c_last = NAN;
    for (uint32_t d = 0; d < CONV_DRAWS; d++) {
        len = draw_order(v, ord, &r, w->order, w->pool);
        uint32_t k = conv_sequence(v->m, v->t, w->order, len, c_final,
                                   CONV_TOLERANCE, w->err + (size_t)d * v->n);
        w->runs[d] = k ? (double)k : NEVER;
        conv += k > 0;
        if (d == 0 && len) /* the fit over the whole first order */
            c_last = c_final * (1 + w->err[len - 1]);
    }
    if (len < IMPACT_FIT_MIN)
        return; /* no sequence to speak of (extremes: a pool empty) */
    for (uint32_t i = IMPACT_FIT_MIN - 1; i < len; i++) {
        uint32_t k = 0;
        for (uint32_t d = 0; d < CONV_DRAWS; d++) {
            double e = w->err[(size_t)d * v->n + i];
            if (isfinite(e))
                w->col[k++] = fabs(e);
        }
        struct stats_summary st;
        bool ok = k && stats_summarize(w->col, k, w->sorted, &st) == 0;
        fprintf(fc, "%s,%s,%s,%u", v->name, ord_name[ord], src, i + 1);
        impact_csv_num(fc, 100 * w->err[i], true); /* the first draw */
        impact_csv_num(fc, ok ? 100 * st.median : NAN, true);
        impact_csv_num(fc, ok ? 100 * stats_quantile_sorted(w->sorted, k, 0.9)
                              : NAN,
                       true);
        fputc('\n', fc);
    }
    struct stats_summary st; /* sorts the counts into w->sorted */
    if (stats_summarize(w->runs, CONV_DRAWS, w->sorted, &st) != 0)
        return; /* cannot be: the counts are finite */
    fprintf(fr, "%s,%s,%s,%u,%u", v->name, ord_name[ord], src, len,
            CONV_DRAWS);
    impact_csv_num(fr, c_final, true);
    impact_csv_num(fr, runs_q(w->sorted, CONV_DRAWS, 0.5), true);
    impact_csv_num(fr, runs_q(w->sorted, CONV_DRAWS, 0.25), true);
    impact_csv_num(fr, runs_q(w->sorted, CONV_DRAWS, 0.75), true);
    impact_csv_num(fr, (double)conv / CONV_DRAWS, true);
    impact_csv_num(fr, c_last, true);
    fputc('\n', fr);
}

int convergence_write(const char *dir, const struct conv_victim *v,
                      uint32_t n_v, uint64_t seed, FILE *err)
{
    uint32_t cap = 1;
    for (uint32_t i = 0; i < n_v; i++)
        if (v[i].n > cap)
            cap = v[i].n;
    struct conv_work w = {
        .order = malloc(cap * sizeof *w.order),
        .pool = malloc(cap * sizeof *w.pool),
        .err = malloc((size_t)CONV_DRAWS * cap * sizeof *w.err),
        .runs = malloc(CONV_DRAWS * sizeof *w.runs),
        .col = malloc(CONV_DRAWS * sizeof *w.col),
        .sorted = malloc(CONV_DRAWS * sizeof *w.sorted),
    };
    struct outfile oc = { 0 }, ou = { 0 };
    int rc = -1;
    if (!w.order || !w.pool || !w.err || !w.runs || !w.col || !w.sorted) {
        fprintf(err, "dfsim: out of memory (convergence.csv)\n");
        goto done;
    }
    if (outfile_open(&oc, dir, "convergence.csv", err) != 0 ||
        outfile_open(&ou, dir, "convergence_runs.csv", err) != 0)
        goto done; /* reported */
    fprintf(oc.f, "victim,order,m_source,runs,error_pct,abs_error_p50_pct,"
                  "abs_error_p90_pct\n");
    fprintf(ou.f, "victim,order,m_source,points,draws,c_final,runs_p50,"
                  "runs_q1,runs_q3,converged_share,c_order_last\n");
    for (uint32_t i = 0; i < n_v; i++) {
        struct impact_fit f;
        impact_fit(v[i].m, v[i].t, v[i].n, &f);
        if (!isfinite(f.slope))
            continue; /* not fitted: sensitivity.csv says why */
        for (int o = 0; o < ORD_N; o++)
            victim_order(oc.f, ou.f, &v[i], o, f.slope, seed, &w);
    }
    /* each commit closes its file (o.f NULL), failed or not */
    if (outfile_commit(&oc, err) != 0 || outfile_commit(&ou, err) != 0)
        goto done; /* reported */
    rc = 0;
done:
    if (oc.f)
        outfile_abandon(&oc);
    if (ou.f)
        outfile_abandon(&ou);
    free(w.order);
    free(w.pool);
    free(w.err);
    free(w.runs);
    free(w.col);
    free(w.sorted);
    return rc;
}
