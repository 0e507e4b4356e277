/* results/traffic_report.h — the report of a synthetic-traffic sweep: its
 * latency-load curves as a network paper draws them, in one HTML page.
 *
 * What it draws, one curve per routing over the sweep's loads (x: the
 * offered load measured in the window, as a share of the NICs' injection
 * rate; exp/traffic.h):
 *   traffic_latency.svg  mean packet latency (solid) and its 99th
 *                        percentile (dashed), ns, log scale: the
 *                        latency-load curve (Dally & Towles ch. 23; Kim et
 *                        al. 2008 Fig. 7);
 *   traffic_accepted.svg accepted against offered load, with the line
 *                        accepted = offered: where a curve leaves it the
 *                        network no longer keeps up;
 *   traffic_paths.svg    the share of packets routed non-minimally and
 *                        their mean router-to-router hops.
 * Saturated points (traffic.h: accepted below offered, or the source
 * queues grew) are marked with a cross on every curve, and the page
 * states per routing where saturation begins: the highest load measured
 * below it and the lowest load measured at or above it (loads need not
 * be sorted in the experiment file; the page sorts them).
 *
 * Files, in the results folder: the page (report.html, or traffic.html
 * when the experiment also has jobs or an impact study, whose report is
 * report.html), traffic.dat (one block per routing, two blank lines
 * apart, in the order the routings ran: load, offered, accepted, mean,
 * median and p99 latency (ns), mean hops, non-minimal per cent,
 * saturated; a point without measured packets has "?" for its latency
 * and paths), traffic.gp (the gnuplot script), the figures and
 * traffic.log (gnuplot's messages). Drawn as the jobs report is
 * (results/report.h): without gnuplot the page says so and how to draw them;
 * when no point measured a packet there is no latency to draw, and the
 * page says that instead.
 */
#ifndef DFSIM_TRAFFIC_REPORT_H
#define DFSIM_TRAFFIC_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exp/traffic.h"

/* One point of the sweep, as traffic.csv records it. */
struct traffic_point {
    const char *routing;
    double load;                /* the load the file asked for */
    struct traffic_result r;
};

/* What the page says about the experiment. */
struct traffic_report_info {
    const char *page;           /* "report.html" or "traffic.html" */
    const char *title;          /* experiment.name */
    const char *description;    /* experiment.description, or NULL */
    const char *system;         /* the system's name */
    const char *pattern;        /* traffic pattern's name */
    int64_t size;               /* message bytes */
    double warmup_us, measure_us;
    uint64_t seed;
};

/* Where saturation begins for one routing among pt[0..n): the highest
 * load below the first saturated one (in load order) in *below (-1: the
 * lowest load is saturated) and that first saturated load in *at (-1:
 * none is). Points not steady (exp/traffic.h) are judged neither way and
 * passed over (both -1 if no point is steady). Returns the number of
 * points of that routing. */
uint32_t traffic_saturation(const struct traffic_point *pt, uint32_t n,
                            const char *routing, double *below, double *at);

/* Write the page, data and script into dir and draw the figures
 * (gnuplot). Returns 0 when the page was written, -1 if a file could not
 * be (reported to err). *drawn says whether the figures were drawn. */
int traffic_report_write(const char *dir,
                         const struct traffic_report_info *info,
                         const struct traffic_point *pt, uint32_t n,
                         bool *drawn, FILE *err);

#endif
