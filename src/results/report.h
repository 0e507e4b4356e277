/* results/report.h — the report of a run with jobs: plots a person would rather
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
 * Where the packets went (paths.svg from paths.gp and paths.dat): per
 * job and variant, in the box plots' layout (the same x positions and
 * colours), a bar of the share of its packets routed non-minimally
 * (top panel, per cent) and one of their mean router-to-router hops
 * (bottom panel), pooled over the runs (each run's figures weighted by
 * its packets: variants.csv's packets, nonmin_share, hops_mean); a
 * background job gets one grey bar of every packet it sent (jobs.csv),
 * to the right of the foreground jobs. Drawn when a series has packets;
 * result files without those columns (an older dfsim's) simply lack it.
 *
 * Under them, SC'19 §2.4's validation of the model: "we compared the
 * estimations made by the model with the actual execution time of a
 * ping-pong benchmark executed over 40 different allocations on Piz
 * Daint, obtaining an average 79% correlation on different message
 * sizes, ranging from 128 bytes to 16MiB". Each run of experiment.runs
 * is an allocation (seed + r places the jobs anew), so per job and
 * variant with model values the page gives Pearson's r of estimate and
 * time (stats.h) three ways, since the paper does not say which points
 * it correlated:
 *   pooled      over the iterations of every run that have an estimate
 *               (the series' model[] rows);
 *   per run     the mean of variants.csv's model_corr, each run's r over
 *               its own iterations (the runs where it is defined, and how
 *               many);
 *   over runs   r of the runs' medians, one point per allocation: each
 *               run's median estimate against its median time (the
 *               reading docs/controllers.md gives: one estimate per
 *               allocation and size);
 * and per variant the mean of each over the jobs where it is defined: over
 * a sweep of message sizes (one job per size), the paper's "average
 * correlation on different message sizes". r is undefined (printed "-",
 * empty in the CSV) from fewer than 3 points (two always lie on a line)
 * or when the estimate or the time is constant.
 *
 * Files, in the results folder: report.html (the page: what ran, a table
 * per job of its variants' statistics, the plot), variants.dat (one block
 * per job and variant: normalised times), variants.gp (the gnuplot
 * script), variants.svg (the plot), report.log (gnuplot's messages);
 * paths.dat (one block per variant, then the background jobs': x,
 * non-minimal share in per cent, mean hops, packets), paths.gp,
 * paths.svg and paths.log; with
 * model values model.dat/.gp/.svg/.log, qcd.dat/.gp/.svg/.log (two jobs or
 * more) and model_corr.csv, a row per job and variant with model values:
 *   job,variant,runs,iterations,pooled_corr,mean_run_corr,corr_runs,
 *   alloc_corr,qcd_time,qcd_latency,qcd_ratio
 * (runs: runs with an estimate; iterations: the pooled points; corr_runs:
 * the runs whose model_corr mean_run_corr averages; alloc_corr: r of the
 * runs' medians; qcd_time, qcd_latency: SC'19 Fig. 5's dispersions of
 * the iteration time and of the NIC latency L, as qcd.dat, and the
 * first over the second; undefined ones empty, as in variants.csv).
 */
#ifndef DFSIM_REPORT_H
#define DFSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/stats.h"

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
    uint32_t *model_run;       /* [n_model]: the run of each model row
                                  (NULL: all of one run) */
    uint32_t n_model;
    uint32_t n, runs;
    double run_corr;           /* the mean of the runs' model_corr
                                  (variants.csv) where defined */
    uint32_t run_corr_n;       /* how many runs' it averages (0: none is
                                  defined, run_corr is not read) */
    uint64_t packets;          /* packets of its counted iterations, over
                                  the runs (0: none, or not known) */
    double nonmin_share;       /* of them routed non-minimally, 0..1 */
    double hops_mean;          /* their mean router-to-router hops */
};

/* Where a background job's packets went: every packet of its messages
 * delivered in the runs (jobs.csv), beside the foreground's series. */
struct report_background {
    const char *job;
    uint64_t packets;          /* > 0 */
    double nonmin_share;       /* 0..1 */
    double hops_mean;
};

/* What the page says about the experiment. */
struct report_info {
    const char *title;         /* experiment.name */
    const char *description;   /* experiment.description, or NULL */
    const char *system;        /* the system's name */
    const char *routing;       /* network.routing */
    uint64_t seed;
    const struct report_background *background; /* [n_background]: drawn
                                  beside the series in paths.svg (may be
                                  NULL) */
    uint32_t n_background;
    const char *load;          /* the offered load, a sentence of plain
                                  text (report_from_results: from
                                  load.csv), or NULL */
    FILE *table;               /* report_from_results: also print the
                                  pooled figures per job and variant here
                                  (the console, with several runs), or
                                  NULL */
};

/* Write the page, data and script into dir and run gnuplot on the
 * script (its messages into report.log). Returns 0 when the page was
 * written, 1 when it was but no series had iterations (nothing to draw:
 * the page says so), -1 if a file could not be written (reported to
 * err). *drawn says whether the plot was drawn. */
int report_write(const char *dir, const struct report_info *info,
                 const struct report_series *s, uint32_t n, bool *drawn,
                 FILE *err);

/* The report of the results in dir (iterations.csv, variants.csv,
 * jobs.csv as exp/jobs.h writes them, every run so far; load.csv if
 * there is one, for info->load): the iterations marked counted, pooled
 * over runs per job and variant (each job's series in the order of its
 * variants in variants.csv, the file's), each normalised by its own
 * run's median of the job's first variant (runs differ in allocation;
 * the first as the file lists them, not the first to run: with
 * variant_order = "shuffled" any may), the runs' model_corr averaged,
 * where the packets went pooled (variants.csv, jobs.csv for the
 * background jobs), then report_write.
 * Returns report_write's 0 or 1, or -1 (a file missing or not as dfsim
 * writes it: reported to err). */
int report_from_results(const char *dir, const struct report_info *info,
                        bool *drawn, FILE *err);

/* Helpers the other report pages share (impact_report.c). */
/* dir/name opened for writing, or NULL (reported to err, with why). */
FILE *report_open(const char *dir, const char *name, FILE *err);
/* Figure dir/svg written into the page itself (an inline <svg>, its
 * ids prefixed with the file's name so that figures do not share them),
 * so that report.html is whole without its folder; a file that cannot be
 * read gets an <img> link instead. */
void report_html_figure(FILE *h, const char *dir, const char *svg,
                        const char *alt);
/* s with HTML's special characters escaped (NULL: nothing). */
void report_html_str(FILE *f, const char *s);
/* s with gnuplot's string escapes (double quotes, backslashes), without
 * the quotes around it. */
void report_gp_str(FILE *f, const char *s);
/* A page's opening: doctype, title, style (the body at most max_width
 * wide, a CSS length; the first left_cols table columns left-aligned),
 * the <h1> and the description paragraph (if not NULL). */
void report_html_head(FILE *h, const char *title, const char *description,
                      const char *max_width, unsigned left_cols);

/* The colour of the i-th series of a figure (Paul Tol's "bright"
 * scheme, cycled), as "#rrggbb". */
const char *report_colour(unsigned i);

/* Run `gnuplot script` inside dir, stdout and stderr to dir/log. Returns
 * gnuplot's exit status, or 127 if it could not be started. */
int report_gnuplot(const char *dir, const char *script, const char *log);

#endif
