/* results/impact_results.c — the congestion-impact study's results:
 * from what its simulations collected (exp/impact.h impact_simulate), the
 * cells' statistics (SC'20 Eq. 1's C, means, medians, 99th percentiles,
 * per placement), impact.csv and the console's tables (GPCNeT's key
 * results), ICS'21's Table 4 per congestion control (controllers.csv),
 * Netscope's latency model fitted on the ping-pong victim
 * (latency_model.csv, §4.2) and every victim's delay sensitivity
 * (sensitivity.csv, Eq. 2), and the report with its heat maps
 * (impact_report.c). */
#include "results/impact_results.h"
#include "results/impact_nodeseconds.h"
#include "results/impact_time.h"
#include "results/phases.h"
#include "results/convergence.h"
#include "results/stall.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/gpcnet.h"
#include "exp/manifest.h"
#include "exp/outdir.h"
#include "net/latency_model.h"
#include "results/stats.h"

/* ---- the arithmetic ------------------------------------------------------ */

double impact_factor(double t_isolated, double t_congested)
{
    if (isnan(t_isolated) || isnan(t_congested) || t_isolated <= 0)
        return NAN;
    return t_congested / t_isolated;
}

/* Mean, p99 and median of v[0..n) (NaN without values). */
static void sample_stats(const double *v, uint32_t n, double *scratch,
                         double *mean, double *p99, double *median)
{
    *mean = *p99 = *median = NAN;
    if (n == 0)
        return;
    struct stats_summary st;
    if (stats_summarize(v, n, scratch, &st) != 0)
        return;
    *mean = st.mean;
    *median = st.median;
    *p99 = stats_quantile_sorted(scratch, n, 0.99);
}

void impact_cell_stats(struct impact_cell *c, const double *iso,
                       uint32_t n_iso, const double *con, uint32_t n_con,
                       double *scratch)
{
    c->n_iso = n_iso;
    c->n_con = n_con;
    sample_stats(iso, n_iso, scratch, &c->t_iso, &c->p99_iso, &c->med_iso);
    sample_stats(con, n_con, scratch, &c->t_con, &c->p99_con, &c->med_con);
    c->c = impact_factor(c->t_iso, c->t_con);
    c->c_p99 = impact_factor(c->p99_iso, c->p99_con);
}

void impact_runs_stats(struct impact_cell *c, const double *iso_run,
                       const double *con_run, uint32_t runs,
                       double *scratch)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < runs; r++) {
        double f = impact_factor(iso_run[r], con_run[r]);
        if (!isnan(f))
            scratch[n++] = f;
    }
    c->runs_n = n;
    c->c_runs_mean = c->c_runs_p99 = c->c_runs_max = NAN;
    struct stats_summary st;
    if (n == 0 || stats_summarize(scratch, n, scratch + runs, &st) != 0)
        return;
    c->c_runs_mean = st.mean;
    c->c_runs_max = st.max;
    c->c_runs_p99 = stats_quantile_sorted(scratch + runs, n, 0.99);
}

void impact_fit(const double *m, const double *t, uint32_t n,
                struct impact_fit *f)
{
    *f = (struct impact_fit){ .n = n, .slope = NAN, .intercept = NAN,
                              .r = NAN };
    if (n < IMPACT_FIT_MIN) {
        snprintf(f->why, sizeof f->why, "fit needs >= %d points, have %u",
                 IMPACT_FIT_MIN, n);
        return;
    }
    double mm = 0, mt = 0;
    for (uint32_t i = 0; i < n; i++)
        mm += m[i], mt += t[i];
    mm /= n, mt /= n;
    double sxx = 0, syy = 0, sxy = 0;
    for (uint32_t i = 0; i < n; i++) {
        sxx += (m[i] - mm) * (m[i] - mm);
        syy += (t[i] - mt) * (t[i] - mt);
        sxy += (m[i] - mm) * (t[i] - mt);
    }
    if (!(sxx > 0))
        return; /* every run had the same M: no slope */
    f->slope = sxy / sxx;
    f->intercept = mt - f->slope * mm;
    f->r = syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* A figure for the console: "-" where undefined. */
static const char *fig(char *buf, size_t cap, int decimals, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, cap, "%.*f", decimals, x);
    return buf;
}

/* ICS'21 Table 4 from the samples of each controller's simulations:
 * median and 90th percentile of the NICs' latency per request and of
 * their request traffic, to controllers.csv and the console. Nothing
 * without congestion_controls. Returns 0 or -1 (reported). */
static int controllers_table(const struct impact_data *st, const char *dir)
{
    const struct impact_config *ic = st->ic;
    if (!ic->ccs.n)
        return 0;
    struct outfile of;
    if (outfile_open(&of, dir, "controllers.csv", stderr) != 0)
        return -1;
    fprintf(of.f, "congestion_control,latency_samples,latency_p50_us,"
                  "latency_p90_us,traffic_samples,traffic_p50_flits_s,"
                  "traffic_p90_flits_s\n");
    printf("\nnetwork latency per request and traffic per NIC, each NIC "
           "and %.0f-us window with requests sent, over every simulation "
           "(ICS'21 Table 4; controllers.csv)\n"
           "%-14s %12s %12s %14s %14s\n",
           (double)ic->latency_window / SIMTIME_US, "controller",
           "latency p50", "p90 (us)", "flits/s p50", "p90");
    int rc = 0;
    for (uint32_t c = 0; c < ic->ccs.n; c++) {
        struct impact_dvec *x[2] = { &st->nlat[c], &st->ntraf[c] };
        double q[2][2] = { { NAN, NAN }, { NAN, NAN } };
        for (int k = 0; k < 2; k++) {
            struct stats_summary sm;
            double *sorted =
                malloc((x[k]->n ? x[k]->n : 1) * sizeof *sorted);
            if (!sorted) {
                rc = -1;
                break;
            }
            if (x[k]->n &&
                stats_summarize(x[k]->v, x[k]->n, sorted, &sm) == 0) {
                q[k][0] = sm.median;
                q[k][1] = stats_quantile_sorted(sorted, x[k]->n, 0.9);
            }
            free(sorted);
        }
        fprintf(of.f, "%s,%u", ic->ccs.v[c]->name, x[0]->n);
        impact_csv_num(of.f, q[0][0], true);
        impact_csv_num(of.f, q[0][1], true);
        fprintf(of.f, ",%u", x[1]->n);
        impact_csv_num(of.f, q[1][0], true);
        impact_csv_num(of.f, q[1][1], true);
        fputc('\n', of.f);
        char b[4][32];
        printf("%-14s %12s %12s %14s %14s\n", ic->ccs.v[c]->name,
               fig(b[0], 32, 3, q[0][0]), fig(b[1], 32, 3, q[0][1]),
               fig(b[2], 32, 0, q[1][0]), fig(b[3], 32, 0, q[1][1]));
    }
    if (rc != 0) {
        outfile_abandon(&of);
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    return outfile_commit(&of, stderr);
}

/* How well a latency fit estimates the round trips it was fitted on. */
struct fit_score {
    double r, median;            /* Pearson r, median |error| % */
    uint32_t in30, con, con30;   /* within 30 %; beside an aggressor */
};

/* Fit f's estimates est[] and errors err[] (%) of the m round trips
 * rt/y (agg: each one's aggressor, NULL alone), and their score;
 * scratch: m doubles. */
static void score_fit(const struct latm_fit *f, const struct latm_paths *rt,
                      const double *y, const char *const *agg, uint32_t m,
                      double *est, double *err, double *scratch,
                      struct fit_score *sc)
{
    memset(sc, 0, sizeof *sc);
    for (uint32_t i = 0; i < m; i++) {
        est[i] = f->k0 + latm_delay(f, &rt[i]);
        err[i] = 100.0 * fabs(est[i] - y[i]) / y[i];
        sc->in30 += err[i] <= 30.0;
        sc->con += agg[i] != NULL;
        sc->con30 += agg[i] && err[i] <= 30.0;
    }
    sc->r = m ? stats_correlation(y, est, m) : NAN;
    struct stats_summary es;
    stats_summarize(err, m, scratch, &es);
    sc->median = m ? es.median : NAN;
}

/* One fit's line on the console. */
static void print_fit(const char *lead, const char *loss,
                      const struct latm_fit *f, const struct fit_score *sc,
                      uint32_t m)
{
    char b[8][32];
    printf("%s (least squares of %s errors): k0 %s us, k1 %s us, k2 %s us, "
           "w %s; Pearson r %s; %s %% of the round trips within 30 %% (%s "
           "%% of the %u beside an aggressor), |error| median %s %%\n",
           lead, loss, fig(b[0], 32, 3, f->k0), fig(b[1], 32, 4, f->k1),
           fig(b[2], 32, 4, f->k2), fig(b[3], 32, 2, f->w),
           fig(b[4], 32, 3, sc->r),
           m ? fig(b[5], 32, 0, 100.0 * sc->in30 / m) : "-",
           sc->con ? fig(b[7], 32, 0, 100.0 * sc->con30 / sc->con) : "-",
           sc->con, m ? fig(b[6], 32, 1, sc->median) : "-");
}

/* latency_fit.csv: a row per fit (the chosen one first), its constants
 * and its score — Fig. 4a's figures as data. */
static int fit_csv(const char *dir, const char *const loss[2],
                   const struct latm_fit *const fit[2],
                   const struct fit_score *const sc[2], uint32_t m)
{
    struct outfile of = { 0 };
    if (outfile_open(&of, dir, "latency_fit.csv", stderr) != 0)
        return -1; /* reported */
    fprintf(of.f, "fit,chosen,round_trips,k0_us,k1_us,k2_us,w,pearson_r,"
                  "within30_pct,beside_aggressor,beside_within30_pct,"
                  "median_error_pct\n");
    for (int i = 0; i < 2; i++) {
        fprintf(of.f, "%s,%d,%u", loss[i], i == 0, m);
        impact_csv_num(of.f, fit[i]->k0, true);
        impact_csv_num(of.f, fit[i]->k1, true);
        impact_csv_num(of.f, fit[i]->k2, true);
        impact_csv_num(of.f, fit[i]->w, true);
        impact_csv_num(of.f, sc[i]->r, true);
        impact_csv_num(of.f, m ? 100.0 * sc[i]->in30 / m : NAN, true);
        fprintf(of.f, ",%u", sc[i]->con);
        impact_csv_num(of.f,
                       sc[i]->con ? 100.0 * sc[i]->con30 / sc[i]->con : NAN,
                       true);
        impact_csv_num(of.f, m ? sc[i]->median : NAN, true);
        fputc('\n', of.f);
    }
    return outfile_commit(&of, stderr);
}

/* Netscope's latency model (ICS'21 §4.2, trained as §6.1 does): Eq. 12's
 * constants fitted on the first ping-pong victim's simulations, its
 * round trips (the mean iteration: one exchange) against the counters'
 * path classes forward + reverse, by least squares — of the absolute
 * errors, as §6.1 writes it, unless latency_fit says "relative" — and,
 * beside it, the other criterion's fit, both scored (Fig. 4a: within
 * 30 %, Pearson r) to latency_model.csv and the console. f: the chosen
 * fit, f->n = 0 when there is nothing to fit (the model off). */
static int latency_fit(const struct impact_data *st, const char *dir,
                       struct latm_fit *f, struct diag *d)
{
    const struct impact_config *ic = st->ic;
    bool relative = strcmp(ic->latency_fit, "relative") == 0;
    latm_fit(NULL, NULL, 0, relative, f);
    uint32_t ref = impact_ref_pingpong(ic);
    if (!ic->latency_model || ref == UINT32_MAX)
        return 0;
    size_t at = (size_t)ref * st->per_victim;
    uint32_t n = st->pt_n[ref], m = 0;
    size_t nn = n ? n : 1;
    struct latm_paths *rt = calloc(nn, sizeof *rt);
    double *y = calloc(6 * nn, sizeof *y); /* y, est, err, est2, err2, tmp */
    uint32_t *sim = calloc(nn, sizeof *sim);
    const char **agg = calloc(nn, sizeof *agg);
    int rc = -1;
    struct outfile of = { 0 };
    if (!rt || !y || !sim || !agg) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    double *est = y + nn, *err = y + 2 * nn, *est2 = y + 3 * nn,
           *err2 = y + 4 * nn, *tmp = y + 5 * nn;
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(st->pt_rt[at + i].q_min)) {
            rt[m] = st->pt_rt[at + i];
            y[m] = st->pt_t[at + i];
            agg[m] = st->pt_agg[at + i];
            sim[m++] = st->pt_sim[at + i];
        }
    struct latm_fit other;
    struct fit_score sc, sc2;
    latm_fit(rt, y, m, relative, f);
    latm_fit(rt, y, m, !relative, &other);
    score_fit(f, rt, y, agg, m, est, err, tmp, &sc);
    score_fit(&other, rt, y, agg, m, est2, err2, tmp, &sc2);
    if (outfile_open(&of, dir, "latency_model.csv", stderr) != 0)
        goto done; /* reported */
    fprintf(of.f, "run,aggressor,rtt_us,estimate_us,error_pct,q_min,"
                  "links_min,q_non,links_non,fit,other_fit,"
                  "other_estimate_us,other_error_pct\n");
    const char *loss = relative ? "relative" : "absolute",
               *loss2 = relative ? "absolute" : "relative";
    for (uint32_t i = 0; i < m; i++) {
        fprintf(of.f, "%u,%s,%.6f", sim[i], agg[i] ? agg[i] : "", y[i]);
        impact_csv_num(of.f, est[i], true);
        impact_csv_num(of.f, 100.0 * (est[i] - y[i]) / y[i], true);
        fprintf(of.f, ",%.6f,%.6f,%.6f,%.6f,%s,%s", rt[i].q_min, rt[i].n_min,
                rt[i].q_non, rt[i].n_non, loss, loss2);
        impact_csv_num(of.f, est2[i], true);
        impact_csv_num(of.f, 100.0 * (est2[i] - y[i]) / y[i], true);
        fputc('\n', of.f);
    }
    if (outfile_commit(&of, stderr) != 0)
        goto done; /* reported */
    const char *const losses[2] = { loss, loss2 };
    const struct latm_fit *const fits[2] = { f, &other };
    const struct fit_score *const scores[2] = { &sc, &sc2 };
    if (fit_csv(dir, losses, fits, scores, m) != 0)
        goto done; /* reported */
    printf("\nlatency model (ICS'21 §4.2), fitted on %s's %u round trips: "
           "RTT = k0 + D(there) + D(back), D = w (k1 Qmin + k2 Nmin) + "
           "(1 - w) (k1 Qnon + k2 Nnon) over the minimal and non-minimal "
           "paths (latency_model.csv, latency_fit.csv; ICS'21 Fig. 4a: 75 "
           "%% within 30 %%; "
           "r 0.71 Voltrino, 0.67 Cori)\n", ic->victim[ref].name, m);
    print_fit("  the fit", loss, f, &sc, m);
    print_fit("  beside it", loss2, &other, &sc2, m);
    rc = 0;
done:
    if (rc != 0 && of.f)
        outfile_abandon(&of);
    free(rt);
    free(y);
    free(sim);
    free(agg);
    return rc;
}

/* A fit's four fields of sensitivity.csv: slope, intercept, r, c_rel
 * (each empty where undefined). */
static void csv_fit(FILE *f, const struct impact_fit *x, double rel)
{
    impact_csv_num(f, x->slope, true);
    impact_csv_num(f, isfinite(x->slope) ? x->intercept : NAN, true);
    impact_csv_num(f, x->r, true);
    impact_csv_num(f, rel, true);
}

/* A victim's mean iteration over its simulations alone, us (NaN: none). */
static double alone_mean(const struct impact_data *st, uint32_t v)
{
    size_t at = (size_t)v * st->per_victim;
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->pt_n[v]; i++)
        if (!st->pt_agg[at + i]) {
            sum += st->pt_t[at + i];
            n++;
        }
    return n ? sum / n : NAN;
}

/* x with three significant digits, or "-" if undefined. */
static const char *sig3(char *buf, size_t cap, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, cap, "%.3g", x);
    return buf;
}

/* A victim's row of sensitivity.csv and of the console. */
struct sens_row {
    const char *name;
    const struct impact_fit *x, *y; /* on M measured; on M from counters */
    double rel, crel, alone, rate, rate_rel;
    char note[96];  /* why a fit was not made ("" if it was, and the
                       counters' too where the latency model is on) */
};

static void sens_csv(FILE *f, const struct sens_row *r)
{
    fprintf(f, "%s,%u", r->name, r->x->n);
    csv_fit(f, r->x, r->rel);
    csv_fit(f, r->y, r->crel);
    impact_csv_num(f, r->alone, true);
    /* rates span orders of magnitude: significant digits */
    for (int i = 0; i < 2; i++) {
        double z = i ? r->rate_rel : r->rate;
        fputc(',', f);
        if (isfinite(z))
            fprintf(f, "%.6g", z);
    }
    /* the reason holds a comma: quoted (RFC 4180) */
    fprintf(f, r->note[0] ? ",\"%s\"\n" : ",%s\n", r->note);
}

/* "-" where a figure is undefined (no spread in M, no ping-pong); where a
 * fit was not made, the reason in place of its figures. */
static void sens_console(const struct sens_row *r, bool model)
{
    char b[10][32];
    printf("%-20s %6u ", r->name, r->x->n);
    if (r->x->why[0])
        printf("%-43s", r->x->why); /* as wide as c, k, r and c_rel */
    else
        printf("%12s %12s %8s %8s", fig(b[0], 32, 3, r->x->slope),
               fig(b[1], 32, 3, r->x->intercept),
               fig(b[2], 32, 3, r->x->r), fig(b[3], 32, 3, r->rel));
    printf(" %12s %9s %9s", fig(b[7], 32, 3, r->alone),
           sig3(b[8], 32, r->rate), sig3(b[9], 32, r->rate_rel));
    if (model && r->y->why[0])
        printf(" %-32s", r->y->why);
    else if (model)
        printf(" %12s %8s %10s", fig(b[4], 32, 3, r->y->slope),
               fig(b[5], 32, 3, r->y->r), fig(b[6], 32, 3, r->crel));
    putchar('\n');
}

/* The index of the study's highest share. */
static uint32_t highest_share(const struct impact_config *ic)
{
    uint32_t h = 0;
    for (uint32_t s = 1; s < ic->shares.n; s++)
        if (ic->shares.v[s] > ic->shares.v[h])
            h = s;
    return h;
}

/* Victim v's points: with the latency model lf, M estimated from the
 * counters (Eq. 3: k0 / 2, the fitted o_src + b + o_dst of one 8-byte
 * message, + D averaged over the victim's ordered node pairs and its
 * windows), those whose window saw its paths; without (lf NULL), every
 * point with M measured per message. M into m, T into t and, if kind,
 * what each is (results/convergence.h). Returns how many. */
static uint32_t victim_points(const struct impact_data *st, uint32_t v,
                               const struct latm_fit *lf, double *m,
                               double *t, uint8_t *kind)
{
    size_t at = (size_t)v * st->per_victim;
    uint32_t k = 0;
    for (uint32_t i = 0; i < st->pt_n[v]; i++)
        if (!lf || isfinite(st->pt_sp[at + i].q_min)) {
            m[k] = lf ? lf->k0 / 2 + latm_delay(lf, &st->pt_sp[at + i])
                      : st->pt_m[at + i];
            t[k] = st->pt_t[at + i];
            if (kind)
                kind[k] = !st->pt_agg[at + i] ? CONV_ALONE
                          : st->pt_share[at + i] == highest_share(st->ic)
                              ? CONV_HIGH
                              : CONV_OTHER;
            k++;
        }
    return k;
}

/* Netscope's delay sensitivity (ICS'21 §4.1, Eqs. 1-5) of each victim:
 * T = c M + k fitted by least squares over its simulations (alone and
 * beside every aggressor, at every share and placement: the congestion
 * varied, as the paper's runs under varied placement and GPCNeT
 * settings), T its mean iteration, M its mean network message time; c
 * relative to the first ping-pong victim's (the paper's unit: ping-pong
 * = 1). With the latency model (lf->n > 0) the same fit again with M
 * estimated from the counters as the paper does (Eq. 3): k0 / 2, the
 * fitted o_src + b + o_dst of one 8-byte message, + D averaged over the
 * victim's ordered node pairs (Eq. 4) and its windows (Eq. 5) — the
 * constant part moves k, not c.
 *
 * c counts message times per iteration, and iterations differ by orders
 * of magnitude between workloads (a ping-pong's 2.7 us, a LAMMPS step's
 * milliseconds); the paper's c is per run, each application's run as
 * long as it was (ICS'21 Table 3: 23 to 848 s; the ping-pong 10,000
 * exchanges, §6.1). So also c per millisecond of the victim's isolated
 * run (c / its mean iteration alone) and that rate relative to the
 * ping-pong's: the workload's own density of waits for the network,
 * from which any run's c follows (c of a run = c_per_ms x its length in
 * ms). Written to sensitivity.csv and printed; the victims whose fit
 * was not made (too few points), with the reason, into unfitted (cap
 * bytes, for report.html). */
static int sensitivity(const struct impact_data *st, const char *dir,
                       const struct latm_fit *lf, char *unfitted,
                       size_t cap, struct diag *d)
{
    const struct impact_config *ic = st->ic;
    uint32_t n_v = ic->n_victims, ref = UINT32_MAX;
    struct impact_fit *fit = calloc(n_v ? 2 * n_v : 1, sizeof *fit);
    double *mc = calloc(st->per_victim ? st->per_victim : 1, sizeof *mc);
    double *tc = calloc(st->per_victim ? st->per_victim : 1, sizeof *tc);
    struct outfile of = { 0 };
    int rc = -1;
    if (!fit || !mc || !tc) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    struct impact_fit *ctr = fit + n_v;
    bool model = lf->n > 0 && isfinite(lf->k1);
    for (uint32_t v = 0; v < n_v; v++) {
        size_t at = (size_t)v * st->per_victim;
        impact_fit(st->pt_m + at, st->pt_t + at, st->pt_n[v], &fit[v]);
        if (ref == UINT32_MAX && impact_is_pingpong(&ic->victim[v]) &&
            isfinite(fit[v].slope) && fit[v].slope > 0)
            ref = v;
        uint32_t k = model ? victim_points(st, v, lf, mc, tc, NULL) : 0;
        impact_fit(mc, tc, k, &ctr[v]);
    }
    uint32_t cref = impact_ref_pingpong(ic);
    if (outfile_open(&of, dir, "sensitivity.csv", stderr) != 0)
        goto done; /* reported */
    FILE *f = of.f;
    fprintf(f, "victim,points,slope,intercept_us,r,c_rel,slope_ctr,"
               "intercept_ctr_us,r_ctr,c_rel_ctr,alone_us,c_per_ms,"
               "rate_rel,note\n");
    printf("\ndelay sensitivity (ICS'21 §4.1): T = c M + k over each "
           "victim's simulations (T its mean iteration, M its mean network "
           "message time%s); c_rel = c / c of %s%s\n",
           model ? "; \"ctr\": M from the counters by the latency model, "
                   "as the paper estimates it"
                 : "",
           ref == UINT32_MAX ? "a ping-pong victim (none: empty)"
                             : ic->victim[ref].name,
           ref == UINT32_MAX ? "" : " (the paper's unit)");
    printf("%-20s %6s %12s %12s %8s %8s %12s %9s %9s", "victim", "points",
           "c", "k (us)", "r", "c_rel", "alone (us)", "c per ms",
           "rate_rel");
    if (model)
        printf(" %12s %8s %10s", "c (ctr)", "r (ctr)", "c_rel (ctr)");
    putchar('\n');
    double ref_rate = ref == UINT32_MAX
                          ? NAN
                          : fit[ref].slope / alone_mean(st, ref) * 1e3;
    size_t used = 0;
    unfitted[0] = '\0';
    for (uint32_t v = 0; v < n_v; v++) {
        struct sens_row r = { .name = ic->victim[v].name, .x = &fit[v],
                              .y = &ctr[v] };
        r.rel = ref == UINT32_MAX ? NAN : r.x->slope / fit[ref].slope;
        r.crel = cref == UINT32_MAX || !(ctr[cref].slope > 0)
                     ? NAN
                     : r.y->slope / ctr[cref].slope;
        r.alone = alone_mean(st, v);
        r.rate = r.alone > 0 ? r.x->slope / r.alone * 1e3 : NAN;
        r.rate_rel = ref_rate > 0 ? r.rate / ref_rate : NAN;
        if (r.x->why[0])
            snprintf(r.note, sizeof r.note, "%s", r.x->why);
        else if (model && r.y->why[0])
            snprintf(r.note, sizeof r.note, "counters: %s", r.y->why);
        sens_csv(f, &r);
        sens_console(&r, model);
        if (r.note[0] && used < cap) { /* what does not fit is left out */
            int w = snprintf(unfitted + used, cap - used, "%s%s: %s",
                             used ? "; " : "", r.name, r.note);
            if (w > 0 && used + (size_t)w < cap)
                used += (size_t)w;
            else
                unfitted[used] = '\0';
        }
    }
    rc = outfile_commit(&of, stderr); /* reported */
done:
    if (rc != 0 && of.f)
        outfile_abandon(&of);
    free(fit);
    free(mc);
    free(tc);
    return rc;
}

/* us of simtime samples into out. */
static void to_us(const struct impact_sample *s, double *out)
{
    for (uint32_t i = 0; i < s->n; i++)
        out[i] = (double)s->v[i] / (double)SIMTIME_US;
}

/* GPCNeT's figures of a canary cell. */
static void gpcnet_cell(struct impact_cell *c, const struct job_config *j,
                        const struct impact_sample *iso, const struct impact_sample *con)
{
    const struct workload *w = (const struct workload *)j->workload;
    if (strcmp(w->family, "gpcnet") != 0)
        return;
    const struct gpcnet_params *p = (const void *)j->params;
    if (gpcnet_is_congestor(p->kernel))
        return;
    uint32_t nranks = c->victim_nodes * j->ppn;
    struct gpcnet_stats gi, gc;
    if (gpcnet_summarize(p, nranks, iso->v, iso->n, &gi) != 0 ||
        gpcnet_summarize(p, nranks, con->v, con->n, &gc) != 0)
        return;
    c->gpcnet = true;
    c->gpcnet_bw = !gpcnet_is_latency(p->kernel);
    c->g_avg_iso = gi.avg;
    c->g_p99_iso = gi.p99;
    c->g_avg_con = gc.avg;
    c->g_p99_con = gc.p99;
    c->g_c_avg = gpcnet_impact(gi.avg, gc.avg, c->gpcnet_bw);
    c->g_c_p99 = gpcnet_impact(gi.p99, gc.p99, c->gpcnet_bw);
}

/* ICS'21 Fig. 4b, 4c with `convergence`: each victim's points to
 * results/convergence.h, M as the sensitivity's counters fit takes it
 * where the latency model is on (the paper's way) and measured per
 * message beside it (the two M's bend the extremes' line in opposite
 * directions: docs/congestion.md), else measured alone. Returns 0 or -1
 * (reported). */
static int convergence(const struct impact_data *st, const char *dir,
                       const struct latm_fit *lf, uint64_t seed)
{
    const struct impact_config *ic = st->ic;
    if (!ic->convergence)
        return 0;
    bool model = lf->n > 0 && isfinite(lf->k1);
    uint32_t n_src = model ? 2 : 1, n_cv = n_src * ic->n_victims;
    size_t pts = (size_t)n_cv * st->per_victim;
    double *m = malloc((pts ? pts : 1) * sizeof *m);
    double *t = malloc((pts ? pts : 1) * sizeof *t);
    uint8_t *kind = malloc(pts ? pts : 1);
    struct conv_victim *cv = calloc(n_cv ? n_cv : 1, sizeof *cv);
    int rc = -1;
    if (!m || !t || !kind || !cv) {
        fprintf(stderr, "dfsim: out of memory (convergence.csv)\n");
        goto done;
    }
    for (uint32_t i = 0; i < n_cv; i++) { /* per victim: each source */
        uint32_t v = i / n_src;
        bool ctr = model && i % n_src == 0;
        size_t at = (size_t)i * st->per_victim;
        cv[i] = (struct conv_victim){ .name = ic->victim[v].name,
                                      .m_source = ctr ? "counters"
                                                      : "measured",
                                      .id = v, .m = m + at, .t = t + at,
                                      .kind = kind + at };
        cv[i].n = victim_points(st, v, ctr ? lf : NULL, m + at, t + at,
                                kind + at);
    }
    rc = convergence_write(dir, cv, n_cv, seed, stderr);
done:
    free(m);
    free(t);
    free(kind);
    free(cv);
    return rc;
}

/* ICS'21 Fig. 1 with the latency model: each victim's points, T against
 * the machine's percent time stalled, to results/stall.h. Returns 0 or
 * -1 (reported). */
static int stall(const struct impact_data *st, const char *dir)
{
    const struct impact_config *ic = st->ic;
    size_t pts = (size_t)ic->n_victims * st->per_victim;
    double *share = malloc((pts ? pts : 1) * sizeof *share);
    struct stall_victim *sv = calloc(ic->n_victims ? ic->n_victims : 1,
                                     sizeof *sv);
    int rc = -1;
    if (!share || !sv) {
        fprintf(stderr, "dfsim: out of memory (stall.csv)\n");
        goto done;
    }
    for (uint32_t v = 0; v < ic->n_victims; v++) {
        size_t at = (size_t)v * st->per_victim;
        for (uint32_t i = 0; i < st->pt_n[v]; i++)
            share[at + i] = ic->shares.v[st->pt_share[at + i]];
        sv[v] = (struct stall_victim){ .name = ic->victim[v].name,
                                       .pt = st->pt_stall + at,
                                       .t = st->pt_t + at,
                                       .sim = st->pt_sim + at,
                                       .agg = st->pt_agg + at,
                                       .share = share + at,
                                       .n = st->pt_n[v] };
    }
    rc = stall_write(dir, sv, ic->n_victims, stdout, stderr) < 0 ? -1 : 0;
done:
    free(share);
    free(sv);
    return rc;
}

int impact_results_write(const struct impact_data *x, const char *dir,
                         const struct impact_report_info *info,
                         struct diag *d)
{
    const struct impact_config *ic = x->ic;
    uint32_t n_sh = x->n_sh, n_v = x->n_v, n_a = x->n_a,
             n_ca = x->n_cc * n_a, n_cells = x->n_cells, n_iso = x->n_iso,
             study_nodes = x->study_nodes;
    const struct impact_data *st = x;
    struct impact_cell *cells = calloc(n_cells ? n_cells : 1, sizeof *cells);
    double *a = NULL, *b = NULL, *scratch = NULL;
    int rc = -1;
    if (!cells) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    /* the cells, pooled over the runs */
    const struct impact_config *shown = ic->ccs.n ? &x->view : ic;
    uint32_t most = 2 * ic->runs; /* impact_runs_stats' scratch */
    for (uint32_t i = 0; i < n_iso; i++)
        most = x->iso[i].n > most ? x->iso[i].n : most;
    for (uint32_t i = 0; i < n_cells; i++)
        most = x->con[i].n > most ? x->con[i].n : most;
    a = malloc(most * sizeof *a);
    b = malloc(most * sizeof *b);
    scratch = malloc(most * sizeof *scratch);
    if (!a || !b || !scratch) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    for (uint32_t g = 0; g < n_ca; g++)
        for (uint32_t s = 0; s < n_sh; s++)
            for (uint32_t v = 0; v < n_v; v++) {
                uint32_t k = (g * n_sh + s) * n_v + v,
                         iv = (g / n_a * n_sh + s) * n_v + v;
                struct impact_cell *c = &cells[k];
                c->victim = v;
                c->aggressor = g;
                c->share = s;
                c->aggressor_nodes =
                    impact_aggressor_nodes(study_nodes, ic->shares.v[s]);
                c->victim_nodes = impact_victim_nodes(
                    ic, v, study_nodes, ic->shares.v[s]);
                c->finished = x->iso_done[iv] && x->con_done[k];
                to_us(&x->iso[iv], a);
                to_us(&x->con[k], b);
                impact_cell_stats(c, a, x->iso[iv].n, b, x->con[k].n,
                                  scratch);
                impact_runs_stats(c, x->iso_run + (size_t)iv * ic->runs,
                                  x->con_run + (size_t)k * ic->runs, ic->runs,
                                  scratch);
                gpcnet_cell(c, &ic->victim[v], &x->iso[iv], &x->con[k]);
            }
    {
        char path[4096];
        snprintf(path, sizeof path, "%s/impact.csv", dir);
        static const char *const csv[] = { "impact.csv" };
        FILE *f = manifest_mark(dir, csv, 1, MANIFEST_WRITING, stderr) == 0
                      ? fopen(path, "w")
                      : NULL;
        if (!f) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            goto done;
        }
        impact_csv_header(f);
        for (uint32_t k = 0; k < n_cells; k++)
            impact_csv_row(f, shown, &cells[k], &ic->shares);
        if (fclose(f) != 0) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            goto done;
        }
    }
    impact_print_table(stdout, shown, cells, n_cells);
    if (impact_nodeseconds_write(x, dir, d) != 0)
        goto done;
    struct latm_fit lf;
    char unfitted[1024];
    if (controllers_table(st, dir) != 0 ||
        latency_fit(st, dir, &lf, d) != 0 ||
        sensitivity(st, dir, &lf, unfitted, sizeof unfitted, d) != 0 ||
        convergence(st, dir, &lf, info->seed) != 0 ||
        stall(st, dir) != 0 ||
        phases_write(dir, stderr) < 0 || impact_time_write(dir, stderr) < 0)
        goto done;
    bool drawn = false;
    struct impact_report_info page = *info;
    page.unfitted = unfitted;
    if (impact_report(dir, shown, cells, n_cells, &page, &drawn, stderr) !=
        0)
        goto done;
    if (!drawn)
        fprintf(stderr, "  report: the heat maps were not drawn (gnuplot "
                        "missing or failed: %s/impact.log); `gnuplot "
                        "impact.gp` there draws them\n",
                dir);
    rc = 0;
    if (x->unfinished && !ic->limit_ok) {
        diag_error(d, NULL, 0, "impact",
                   "a victim had not ended after experiment.time_limit_ms "
                   "(impact_runs.csv: finished = 0); its cells are marked "
                   "unfinished");
        rc = -1;
    }
done:
    free(cells);
    free(a);
    free(b);
    free(scratch);
    return rc;
}
