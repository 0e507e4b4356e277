/* results/report_internal.h — what the files of report.html (report.h)
 * share, and nothing outside them sees (no other file includes this).
 * report.h says what the report draws and why; it is one concern per
 * file:
 *   report.c          the page: its sections, the table per job and
 *                     variant, SC'19 §2.4's model against measurement
 *                     (model_corr.csv); and the helpers of every report
 *                     page (report.h: report_open, report_html_*)
 *   report_plots.c    the figures: gnuplot's data and scripts (the box
 *                     plots in SC'19 Fig. 8's layout, where the packets
 *                     went, Fig. 7's panels, Fig. 5's dispersion), the
 *                     colours, and gnuplot run on them
 *   report_results.c  the report from the result files: jobs.csv,
 *                     iterations.csv, variants.csv and load.csv read, the
 *                     iterations pooled over the runs per job and variant
 * A function one of them defines and another calls has the report_
 * prefix and is declared here (in report.h only if it is public); what
 * one file alone uses stays static there, without the prefix.
 */
#ifndef DFSIM_REPORT_INTERNAL_H
#define DFSIM_REPORT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "results/report.h"

/* report.c: the median of v[0..n) (scratch: room for n); the index of
 * variant v among names[0..*n_names), added if new. */
double report_median_of(const double *v, uint32_t n, double *scratch);
uint32_t report_variant_index(const char *v, const char **names,
                              uint32_t *n_names);

/* report_plots.c: each figure's data and script. report_write_data_and_
 * script (variants.dat and .gp, the box plots) returns 0 or -1 on a write
 * error; the others 1 if written, 0 if there is nothing to draw, -1 on a
 * write error. */
int report_write_data_and_script(const char *dir,
                                 const struct report_series *s, uint32_t n,
                                 FILE *err);
int report_write_paths(const char *dir, const struct report_info *info,
                       const struct report_series *s, uint32_t n,
                       FILE *err);
int report_write_model(const char *dir, const struct report_series *s,
                       uint32_t n, FILE *err);
/* SC'19 Fig. 5's pair for a series with model values: the QCD of its
 * iteration times and of its NIC latency L into *time and *lat (NaN
 * without values); scratch: 2 x s->n_model doubles. */
void report_model_qcd(const struct report_series *s, double *scratch,
                      double *time, double *lat);
int report_write_qcd(const char *dir, const struct report_series *s,
                     uint32_t n, FILE *err);

#endif
