/* exp/report.h — the report of a run with jobs: plots a person would rather
 * look at than the CSV files, gathered in one HTML page.
 *
 * What it draws (SC'19 Figs. 8-10's layout): for every foreground job and
 * each of its routing variants, a box plot of its iteration times
 * normalised to the median of the job's first variant (boxes: quartiles;
 * whiskers: the extremes within 1.5 IQR; the line at 1 is the baseline's
 * median), the jobs side by side with, under each, its name, the
 * baseline's median time and the share of its bytes the app-aware variant
 * (if any) sent with DEFAULT's modes (ADAPTIVE_0 and _1), as the paper's
 * x-axis labels give them. Plots are drawn by gnuplot (Debian's
 * gnuplot-nox; `make deps` installs it) from a script and a data file
 * written next to them, so a plot can be redrawn or restyled by hand; a
 * machine without gnuplot still gets the data, the script, the page and a
 * message saying how to draw them.
 *
 * With several runs (experiment.runs) every run's iterations are pooled,
 * each normalised to its own run's baseline median. When every job has a
 * single variant there is nothing to normalise to, and the boxes are the
 * iteration times themselves on a log scale (SC'19 Fig. 3's layout).
 *
 * Jobs with `model` get a second figure (SC'19 Fig. 7's panels): box
 * plots of the iteration time, the latency L and stalls s read from the
 * NIC counters, and the model's estimate, per job and variant (model.svg
 * from model.gp and model.dat); with two such jobs or more (a sweep of
 * sizes), a third (SC'19 Fig. 5): the quartile coefficient of dispersion
 * of the time and of L per job and variant (qcd.svg).
 *
 * Files, in the results folder: report.html (the page: what ran, a table
 * per job of its variants' statistics, the plot), variants.dat (one block
 * per job and variant: normalised times), variants.gp (the gnuplot
 * script), variants.svg (the plot), report.log (gnuplot's messages).
 */
#ifndef DFSIM_REPORT_H
#define DFSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exp/stats.h"

/* One job under one variant, pooled over the runs. */
struct report_series {
    const char *job, *variant, *workload;
    struct stats_summary st;   /* its iteration times, us */
    double baseline_median;    /* the job's first variant's median, us */
    double norm_median;        /* median of norm[] */
    double share_default;      /* bytes in ADAPTIVE_0/1 over all, 0..1 */
    double *norm;              /* [n]: each time over its run's median of
                                  the job's first variant */
    double *raw;               /* [n]: the times, us */
    double *model;             /* [n_model x 4]: time, L (us), s (cycles
                                  per flit), the model's estimate (us) of
                                  the iterations that have one */
    uint32_t n_model;
    uint32_t n, runs;
};

/* What the page says about the experiment. */
struct report_info {
    const char *title;         /* experiment.name */
    const char *description;   /* experiment.description, or NULL */
    const char *system;        /* the system's name */
    const char *routing;       /* network.routing */
    uint64_t seed;
};

/* Write the page, data and script into dir and run gnuplot on the
 * script (its messages into report.log). Returns 0 when the page was
 * written; -1 if a file could not be written (reported to err). *drawn
 * says whether the plot was drawn. */
int report_write(const char *dir, const struct report_info *info,
                 const struct report_series *s, uint32_t n, bool *drawn,
                 FILE *err);

/* The report of the results in dir (iterations.csv, variants.csv,
 * jobs.csv as exp/jobs.h writes them, every run so far): the iterations
 * marked counted, pooled over runs per job and variant, each normalised
 * by its own run's median of the job's first variant (runs differ in
 * allocation), then report_write. Returns 0, or -1 (a file missing or
 * not as dfsim writes it: reported to err). */
int report_from_results(const char *dir, const struct report_info *info,
                        bool *drawn, FILE *err);

/* Run `gnuplot script` inside dir, stdout and stderr to dir/log. Returns
 * gnuplot's exit status, or 127 if it could not be started. */
int report_gnuplot(const char *dir, const char *script, const char *log);

#endif
