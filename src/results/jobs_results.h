/* results/jobs_results.h — a jobs run's result files (jobs.csv,
 * iterations.csv, ranks.csv, metrics.csv, variants.csv) and its table:
 * the writer exp/jobs.h's runs are given (struct jobs_writer). */
#ifndef DFSIM_RESULTS_JOBS_RESULTS_H
#define DFSIM_RESULTS_JOBS_RESULTS_H

#include "exp/experiment.h"
#include "exp/jobs.h"

/* The header lines of out's open files (load.csv's included): so that a
 * run killed before its first rows leaves files with their headers. */
void jobs_results_headers(const struct jobs_output *out);

/* Run v's rows into out's files (with out->header, the headers first)
 * and its table into out->table. 0, or -1 out of memory. */
int jobs_results_write(const struct jobs_run_view *v,
                       const struct jobs_output *out);

/* report.html over every run of e's jobs list in outdir (the files'
 * rows, results/report.h), with the figures pooled over the runs on
 * stdout when there are several. Returns 0, or -1 if the page could not
 * be written (a plot gnuplot did not draw is said on stderr). */
int jobs_results_report(const struct experiment *e,
                        const struct net_params *np, const char *outdir);

/* The two as a struct jobs_writer, for jobs_output.writer. */
extern const struct jobs_writer jobs_results_writer;

#endif
