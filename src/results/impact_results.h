/* results/impact_results.h — the congestion-impact study's results (SC'20
 * Eq. 1; ICS'21's Table 4, latency model and delay sensitivity): cells,
 * files, tables and report, from what its simulations collected
 * (exp/impact.h). */
#ifndef DFSIM_RESULTS_IMPACT_RESULTS_H
#define DFSIM_RESULTS_IMPACT_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exp/impact.h"

/* SC'20 Eq. 1: congested / isolated (NaN when either is missing or
 * isolated is 0). */
double impact_factor(double t_isolated, double t_congested);

/* What one (victim, aggressor, share) gave, pooled over the runs. */
struct impact_cell {
    uint32_t victim, aggressor, share;   /* indices into the section */
    uint32_t victim_nodes, aggressor_nodes;
    uint32_t n_iso, n_con;               /* iterations counted */
    bool finished;                       /* every victim run ended */
    double t_iso, t_con, c;              /* means (us) and C */
    double p99_iso, p99_con, c_p99;      /* 99th percentiles, ratio */
    double med_iso, med_con;             /* medians, us */
    /* per placement (ICS'21 Fig. 5's runtime increase, one per run): C_r
     * = the run's mean congested / the run's mean isolated iteration,
     * over the runs where both are measured */
    uint32_t runs_n;                     /* how many */
    double c_runs_mean, c_runs_p99, c_runs_max;
    bool gpcnet;                         /* a GPCNeT canary victim: */
    bool gpcnet_bw;                      /*   its values are bandwidths */
    double g_avg_iso, g_p99_iso;         /*   GPCNeT's figures (us or */
    double g_avg_con, g_p99_con;         /*   MiB/s per rank) */
    double g_c_avg, g_c_p99;             /*   gpcnet_impact of each */
};

/* Fill a cell's statistics from the victim's iteration times (us)
 * alone, iso[0..n_iso), and under congestion, con[0..n_con): means,
 * C, p99s, C_p99, medians. scratch holds max(n_iso, n_con) doubles.
 * Empty samples give NaN. */
void impact_cell_stats(struct impact_cell *c, const double *iso,
                       uint32_t n_iso, const double *con, uint32_t n_con,
                       double *scratch);

/* Fill a cell's per-placement figures from each run's mean iteration
 * time (us) alone, iso_run[0..runs), and congested, con_run[0..runs)
 * (NaN: not measured): C_r for every run with both, their mean, 99th
 * percentile (type 7) and maximum (NaN without any). scratch holds
 * 2 runs doubles. */
void impact_runs_stats(struct impact_cell *c, const double *iso_run,
                       const double *con_run, uint32_t runs,
                       double *scratch);

/* A CSV field: a comma first if `comma`, then v with 6 decimals, or
 * nothing where v is NaN or infinite (every file of the study). */
void impact_csv_num(FILE *f, double v, bool comma);

/* impact.csv: the header line, then a row per cell. */
void impact_csv_header(FILE *f);
void impact_csv_row(FILE *f, const struct impact_config *ic,
                    const struct impact_cell *c, const struct cfg_floats *sh);

/* GPCNeT's "Network Tests running with Congestion Tests - Key Results"
 * table (network_load_test.c: print_comparison_results) for the GPCNeT
 * canary cells among cells[0..n) of one aggressor and share, as it
 * prints it: a row per canary, its name as GPCNeT's ("RR Two-sided Lat
 * (8 B)"), the impact factors as "%.1fX". Nothing if there is none. */
void impact_print_gpcnet(FILE *out, const struct impact_config *ic,
                         const struct impact_cell *cells, uint32_t n);

/* The console's tables of cells[0..n) (ordered by aggressor, share,
 * victim): a row per cell, then C in SC'20 Fig. 9's layout, then
 * impact_print_gpcnet per aggressor and share. */
void impact_print_table(FILE *out, const struct impact_config *ic,
                        const struct impact_cell *cells, uint32_t n);

/* C as SC'20 Fig. 9 prints it: two significant digits up to 10 ("5.7"),
 * whole numbers above ("17", "154"); "-" for NaN. */
void impact_format(char *buf, size_t cap, double c);

/* What report.html says of the experiment. */
struct impact_report_info {
    const char *title, *description, *system, *routing;
    uint64_t seed;
    const char *unfitted;  /* the victims whose delay sensitivity was not
                              fitted and why ("pp: fit needs >= 3 points,
                              have 2; ..."), or NULL or "" (none): set by
                              impact_results_write */
};

/* The study's results from what its simulations collected (x, rank 0's):
 * the cells into impact.csv and the tables to stdout, controllers.csv,
 * latency_model.csv, latency_fit.csv and sensitivity.csv where the section asks for them,
 * and report.html (impact_report). Returns 0; -1 after reporting to d (a
 * file could not be written); a victim unfinished at the limit is
 * reported and its cell marked, and makes the return -1 too. */
int impact_results_write(const struct impact_data *x, const char *dir,
                         const struct impact_report_info *info,
                         struct diag *d);

/* The heat maps and the page: impact.dat, impact.gp, impact.svg,
 * impact_p99.svg, report.html in dir from cells[0..n) (ordered by
 * aggressor, share, victim). Returns 0 when the page was written (drawn:
 * whether gnuplot drew the maps), -1 if a file could not be written. */
int impact_report(const char *dir, const struct impact_config *ic,
                  const struct impact_cell *cells, uint32_t n,
                  const struct impact_report_info *info, bool *drawn,
                  FILE *err);

/* Least squares T = slope M + intercept over n points, and Pearson's r
 * (NaN where undefined: no spread in M or T). Fewer than 3 points are not
 * fitted (NaN) and why says so ("fit needs >= 3 points, have 2"): a line
 * through 2 points passes through both whatever they are, r = +-1, and
 * its slope says nothing of the victim (issue 57: Voltrino, c = -649).
 * why is empty when the fit was made. */
#define IMPACT_FIT_MIN 3
struct impact_fit {
    uint32_t n;
    double slope, intercept, r;
    char why[48];
};
void impact_fit(const double *m, const double *t, uint32_t n,
                struct impact_fit *f);

#endif
