/* results/report.c — report.html of a run with jobs (see report.h): the
 * page, its sections in order (what ran, the box plots and the table per
 * job and variant, where the packets went, the model's figures and SC'19
 * §2.4's comparison of the model with the measurement, model_corr.csv),
 * written from series already pooled over the runs (report_results.c)
 * around the figures that report_plots.c draws; and the helpers every
 * report page shares (report.h). report_internal.h says which file holds
 * what.
 */
#include "results/report.h"
#include "results/report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exp/manifest.h"
#include "exp/outdir.h"

/* From this many series on, the console is told that gnuplot will take a
 * while (report_write). */
#define REPORT_MANY_SERIES 2048

FILE *report_open(const char *dir, const char *name, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    /* listed before it exists (exp/manifest.h): the run's end marks it
     * done (manifest_seal) */
    if (manifest_mark(dir, &name, 1, MANIFEST_WRITING, err ? err : stderr)
        != 0)
        return NULL;
    FILE *f = fopen(path, "w");
    if (!f && err)
        fprintf(err, "dfsim: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* The median of v[0..n) (sorted into scratch). */
double report_median_of(const double *v, uint32_t n, double *scratch)
{
    struct stats_summary st;
    stats_summarize(v, n, scratch, &st);
    return st.median;
}

/* The index of variant v among names[0..*n_names), added if new: the
 * distinct variants in order of first appearance. */
uint32_t report_variant_index(const char *v, const char **names,
                              uint32_t *n_names)
{
    for (uint32_t i = 0; i < *n_names; i++)
        if (strcmp(names[i], v) == 0)
            return i;
    names[*n_names] = v;
    return (*n_names)++;
}

void report_html_str(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

void report_html_figure(FILE *h, const char *dir, const char *svg,
                        const char *alt)
{
    char *text = outdir_slurp(dir, svg);
    const char *p = text ? strstr(text, "<svg") : NULL;
    if (!p) { /* not readable here: a link to the file */
        fputs("<p><img src=\"", h);
        report_html_str(h, svg);
        fputs("\" alt=\"", h);
        report_html_str(h, alt);
        fputs("\"></p>\n", h);
        free(text);
        return;
    }
    /* the figure's name without ".svg" prefixes its ids, so that two
     * figures' ids (gnuplot calls every point symbol gpPt<k>) differ */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s", svg);
    char *dot = strrchr(prefix, '.');
    if (dot)
        *dot = '\0';
    static const char *const refs[] = { "id='", "id=\"", "href='#",
                                        "href=\"#", "url(#" };
    fputs("<figure role=\"img\" aria-label=\"", h);
    report_html_str(h, alt);
    fputs("\">\n", h);
    while (*p) {
        size_t k = 0, n = sizeof refs / sizeof refs[0];
        while (k < n && strncmp(p, refs[k], strlen(refs[k])) != 0)
            k++;
        if (k < n) {
            fputs(refs[k], h);
            fputs(prefix, h);
            fputc('-', h);
            p += strlen(refs[k]);
        } else {
            fputc(*p++, h);
        }
    }
    fputs("</figure>\n", h);
    free(text);
}

void report_html_head(FILE *h, const char *title, const char *description,
                      const char *max_width, unsigned left_cols)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>",
          h);
    report_html_str(h, title);
    fprintf(h, "</title>\n<style>body{font-family:sans-serif;max-width:%s;"
               "margin:2em auto;padding:0 1em;color:#222}table{"
               "border-collapse:collapse;margin:1em 0}td,th{border:1px solid "
               "#ccc;padding:.25em .6em;text-align:right}th{background:"
               "#f4f4f4}td:first-child",
            max_width);
    for (unsigned k = 2; k <= left_cols; k++)
        fprintf(h, ",td:nth-child(%u)", k);
    fputs("{text-align:left}img{max-width:100%}.note{color:#555}</style>\n"
          "</head><body>\n<h1>",
          h);
    report_html_str(h, title);
    fputs("</h1>\n", h);
    if (description) {
        fputs("<p>", h);
        report_html_str(h, description);
        fputs("</p>\n", h);
    }
}

/* SC'19 §2.4's comparison of the model with the measurement for one
 * series with model values (report.h): its r pooled over the runs and r
 * of the runs' medians; the mean of the runs' own r is the series'
 * run_corr, read from variants.csv. */
struct model_corr {
    uint32_t runs;     /* runs with an estimate: the allocations */
    double pooled;     /* r of estimate and time over every run's rows */
    double alloc;      /* r of the runs' median estimate and median time */
};

/* Pearson's r as the report gives it: NaN from fewer than 3 points (two
 * always lie on a line, r = ±1 says nothing of the model) and, as
 * stats_correlation, when x or y is constant or not finite. */
static double corr_of(const double *x, const double *y, uint32_t n)
{
    return n < 3 ? NAN : stats_correlation(x, y, n);
}

/* c for s (s->n_model > 0). Returns 0, or -1 out of memory. */
static int model_corr_of(const struct report_series *s,
                         struct model_corr *c)
{
    uint32_t m = s->n_model;
    double *t = malloc(6 * (size_t)m * sizeof *t);
    uint32_t *run = malloc((size_t)m * sizeof *run);
    if (!t || !run) {
        free(t);
        free(run);
        return -1;
    }
    double *e = t + m, *mt = t + 2 * (size_t)m, *me = t + 3 * (size_t)m,
           *a = t + 4 * (size_t)m, *scratch = t + 5 * (size_t)m;
    for (uint32_t k = 0; k < m; k++) {
        t[k] = s->model[4 * k];
        e[k] = s->model[4 * k + 3];
    }
    c->pooled = corr_of(e, t, m);
    /* the runs in order of first appearance, and each one's medians:
     * the time and the estimate of one allocation, as a single ping-pong
     * measurement per allocation would give them */
    uint32_t nr = 0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t r = s->model_run ? s->model_run[k] : 0, i = 0;
        while (i < nr && run[i] != r)
            i++;
        if (i == nr)
            run[nr++] = r;
    }
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t q = 0;
        for (uint32_t k = 0; k < m; k++)
            if ((s->model_run ? s->model_run[k] : 0) == run[i])
                a[q++] = t[k];
        mt[i] = report_median_of(a, q, scratch);
        q = 0;
        for (uint32_t k = 0; k < m; k++)
            if ((s->model_run ? s->model_run[k] : 0) == run[i])
                a[q++] = e[k];
        me[i] = report_median_of(a, q, scratch);
    }
    c->runs = nr;
    c->alloc = corr_of(me, mt, nr);
    free(t);
    free(run);
    return 0;
}

/* The mean of s's runs' r; NaN when no run's is defined (run_corr_n = 0,
 * whatever run_corr holds: a series zeroed by its maker). */
static double run_corr_of(const struct report_series *s)
{
    return s->run_corr_n ? s->run_corr : NAN;
}

/* A CSV field: r with 6 decimals, nothing when undefined (variants.csv's
 * convention). */
static void csv_corr(FILE *f, double r)
{
    if (!isnan(r))
        fprintf(f, "%.6f", r);
}

/* mc[i] for every series with model values, and model_corr.csv (report.h
 * gives its columns). Returns 1 if written, 0 if no series has model
 * values (no file), -1 on a write error or out of memory. */
static int write_model_corr(const char *dir, const struct report_series *s,
                            uint32_t n, struct model_corr *mc, FILE *err)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m += s[i].n_model > 0;
    if (m == 0)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (s[i].n_model && model_corr_of(&s[i], &mc[i]) != 0) {
            if (err)
                fprintf(err, "dfsim: out of memory for the report\n");
            return -1;
        }
    uint32_t cap = 0;
    for (uint32_t i = 0; i < n; i++)
        cap = s[i].n_model > cap ? s[i].n_model : cap;
    double *scratch = malloc(2 * (size_t)cap * sizeof *scratch);
    FILE *f = scratch ? report_open(dir, "model_corr.csv", err) : NULL;
    if (!f) {
        free(scratch);
        return -1;
    }
    fprintf(f, "job,variant,runs,iterations,pooled_corr,mean_run_corr,"
               "corr_runs,alloc_corr,qcd_time,qcd_latency,qcd_ratio\n");
    for (uint32_t i = 0; i < n; i++) {
        if (!s[i].n_model)
            continue;
        fprintf(f, "%s,%s,%u,%u,", s[i].job, s[i].variant, mc[i].runs,
                s[i].n_model);
        csv_corr(f, mc[i].pooled);
        fputc(',', f);
        csv_corr(f, run_corr_of(&s[i]));
        fprintf(f, ",%u,", s[i].run_corr_n);
        csv_corr(f, mc[i].alloc);
        double qt, ql;
        report_model_qcd(&s[i], scratch, &qt, &ql);
        fputc(',', f);
        csv_corr(f, qt);
        fputc(',', f);
        csv_corr(f, ql);
        fputc(',', f);
        csv_corr(f, ql > 0 ? qt / ql : NAN);
        fputc('\n', f);
    }
    free(scratch);
    return fclose(f) == 0 ? 1 : -1;
}

static void html_table(FILE *h, const struct report_series *s, uint32_t n)
{
    fputs("<table>\n<tr><th>job</th><th>workload</th><th>variant</th>"
          "<th>runs</th><th>iterations</th><th>median (us)</th>"
          "<th>Q1 - Q3 (us)</th>"
          "<th>QCD</th><th>95% CI of the median (us)</th>"
          "<th>normalised median</th><th>bytes with ADAPTIVE_0/1</th>"
          "<th>packets non-minimal</th><th>mean hops</th></tr>\n",
          h);
    for (uint32_t i = 0; i < n; i++) {
        const struct stats_summary *st = &s[i].st;
        fputs("<tr><td>", h);
        report_html_str(h, s[i].job);
        fputs("</td><td>", h);
        report_html_str(h, s[i].workload);
        fputs("</td><td>", h);
        report_html_str(h, s[i].variant);
        fprintf(h, "</td><td>%u</td><td>%u</td><td>%.3f</td>"
                   "<td>%.3f - %.3f</td><td>%.4f</td>",
                s[i].runs, st->n, st->median, st->q1, st->q3, st->qcd);
        if (isnan(st->ci_lo))
            fputs("<td>(fewer than 6)</td>", h);
        else
            fprintf(h, "<td>%.3f - %.3f</td>", st->ci_lo, st->ci_hi);
        fprintf(h, "<td>%.3f</td><td>%.0f%%</td>", s[i].norm_median,
                100 * s[i].share_default);
        if (s[i].packets)
            fprintf(h, "<td>%.1f%%</td><td>%.2f</td></tr>\n",
                    100 * s[i].nonmin_share, s[i].hops_mean);
        else
            fputs("<td>-</td><td>-</td></tr>\n", h);
    }
    fputs("</table>\n", h);
}

/* Where the packets went: the figure and the background jobs' rows. */
static void html_paths(FILE *h, const char *dir,
                       const struct report_info *info, int paths,
                       bool drawn)
{
    if (paths != 1)
        return;
    fputs("<h2>Where the packets went</h2>\n<p class=\"note\">Per job and "
          "variant, the share of its packets that were routed "
          "non-minimally (through an intermediate router or group: longer "
          "paths, the cost SC'19 lays to adaptive routing's door) and "
          "their mean number of router-to-router hops: every request "
          "packet of the network messages the job's ranks posted in its "
          "counted iterations and every response that came back for them, "
          "as delivered before the run ended, pooled over the runs. A "
          "background job: every packet it sent. Data: variants.csv, "
          "jobs.csv and iterations.csv (packets, nonmin_share, "
          "hops_mean).</p>\n",
          h);
    if (drawn)
        report_html_figure(h, dir, "paths.svg",
                           "share of packets routed non-minimally and mean "
                           "hops per job and variant");
    else
        fputs("<p class=\"note\">The figure was not drawn (paths.log); "
              "<code>gnuplot paths.gp</code> draws it.</p>\n",
              h);
    if (!info->n_background)
        return;
    fputs("<table>\n<tr><th>background job</th><th>packets</th>"
          "<th>packets non-minimal</th><th>mean hops</th></tr>\n",
          h);
    for (uint32_t b = 0; b < info->n_background; b++) {
        const struct report_background *g = &info->background[b];
        fputs("<tr><td>", h);
        report_html_str(h, g->job);
        fprintf(h, "</td><td>%llu</td>", (unsigned long long)g->packets);
        if (g->packets)
            fprintf(h, "<td>%.1f%%</td><td>%.2f</td></tr>\n",
                    100 * g->nonmin_share, g->hops_mean);
        else
            fputs("<td>-</td><td>-</td></tr>\n", h);
    }
    fputs("</table>\n", h);
}

/* r in a cell: 3 decimals, "-" when undefined. */
static void html_corr(FILE *h, double r)
{
    if (isnan(r))
        fputs("<td>-</td>", h);
    else
        fprintf(h, "<td>%.3f</td>", r);
}

/* SC'19 §2.4: the model against the measurement over allocations, a row
 * per series with model values and per variant the mean over the jobs. */
static void html_model_corr(FILE *h, const struct report_series *s,
                            uint32_t n, const struct model_corr *mc)
{
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n; i++)
        if (s[i].n_model && mc[i].runs > runs)
            runs = mc[i].runs;
    fprintf(h, "<h2>Model against measurement over allocations (SC'19 "
               "&sect;2.4)</h2>\n<p class=\"note\">SC'19 compared the "
               "model's estimates with the time of a ping-pong benchmark "
               "run on 40 different allocations of Piz Daint and found an "
               "average correlation of 79 %% (r = 0.79) over message sizes "
               "from 128 B to 16 MiB. Here every run is an allocation "
               "(<code>experiment.runs</code>, seed + r; %u run%s): "
               "Pearson's r of the estimate and the iteration time pooled "
               "over every run's iterations, the mean of each run's own r "
               "(variants.csv's model_corr) over the runs where it is "
               "defined, and r of the runs' medians, one point per "
               "allocation. Per variant, the mean over the jobs of each "
               "(those where it is defined): over a sweep of message sizes, "
               "the paper's figure. \"-\": undefined (fewer than 3 points, "
               "or a constant). Data: model_corr.csv.</p>\n"
               "<table>\n<tr><th>job</th><th>variant</th><th>runs</th>"
               "<th>iterations</th><th>r pooled</th><th>mean of the runs' "
               "r</th><th>runs with r</th><th>r of the runs' medians</th>"
               "</tr>\n",
            runs, runs == 1 ? "" : "s");
    for (uint32_t i = 0; i < n; i++) {
        if (!s[i].n_model)
            continue;
        fputs("<tr><td>", h);
        report_html_str(h, s[i].job);
        fputs("</td><td>", h);
        report_html_str(h, s[i].variant);
        fprintf(h, "</td><td>%u</td><td>%u</td>", mc[i].runs,
                s[i].n_model);
        html_corr(h, mc[i].pooled);
        html_corr(h, run_corr_of(&s[i]));
        fprintf(h, "<td>%u</td>", s[i].run_corr_n);
        html_corr(h, mc[i].alloc);
        fputs("</tr>\n", h);
    }
    const char *vnames[64];
    uint32_t n_v = 0;
    for (uint32_t i = 0; i < n && n_v < 64; i++)
        if (s[i].n_model)
            report_variant_index(s[i].variant, vnames, &n_v);
    for (uint32_t v = 0; v < n_v; v++) {
        /* per column, the mean of the jobs' defined r */
        double sum[3] = { 0, 0, 0 };
        uint32_t k[3] = { 0, 0, 0 }, jobs = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!s[i].n_model || strcmp(s[i].variant, vnames[v]) != 0)
                continue;
            jobs++;
            const double r[3] = { mc[i].pooled, run_corr_of(&s[i]),
                                  mc[i].alloc };
            for (int c = 0; c < 3; c++)
                if (!isnan(r[c])) {
                    sum[c] += r[c];
                    k[c]++;
                }
        }
        double mean[3];
        for (int c = 0; c < 3; c++)
            mean[c] = k[c] ? sum[c] / k[c] : NAN;
        fprintf(h, "<tr><th>mean over %u job%s</th><th>", jobs,
                jobs == 1 ? "" : "s");
        report_html_str(h, vnames[v]);
        fputs("</th><td></td><td></td>", h);
        html_corr(h, mean[0]);
        html_corr(h, mean[1]);
        fputs("<td></td>", h);
        html_corr(h, mean[2]);
        fputs("</tr>\n", h);
    }
    fputs("</table>\n", h);
}

/* The page's opening: what ran (system, routing, seed, the offered
 * load), the box plots (or how to draw them) and the table per job and
 * variant. */
static void html_variants(FILE *h, const char *dir,
                          const struct report_info *info,
                          const struct report_series *s, uint32_t n,
                          bool drawn)
{
    report_html_head(h, info->title, info->description, "72em", 3);
    fputs("<p class=\"note\">System <b>", h);
    report_html_str(h, info->system);
    fputs("</b>, network routing ", h);
    report_html_str(h, info->routing);
    fprintf(h, ", seed %llu. Iteration times of each job under each of its "
               "routing variants, alternated iteration by iteration on one "
               "allocation (SC'19 &sect;3); normalised to the median of the "
               "job's first variant. Data: iterations.csv, variants.csv.</p>"
               "\n",
            (unsigned long long)info->seed);
    if (info->load) {
        fputs("<p class=\"note\">", h);
        report_html_str(h, info->load);
        fputs("</p>\n", h);
    }
    if (drawn)
        report_html_figure(h, dir, "variants.svg",
                           "box plots of normalised iteration times");
    else if (n)
        fputs("<p class=\"note\">The plot was not drawn: gnuplot is not "
              "installed (Debian: apt-get install gnuplot-nox) or failed "
              "(report.log). Draw it with <code>gnuplot variants.gp</code> "
              "in this folder.</p>\n",
              h);
    if (n)
        html_table(h, s, n);
    else
        fputs("<p>No job has iterations to compare.</p>\n", h);
}

/* SC'19 Fig. 7's figure of the jobs with model values (model: what
 * report_write_model returned), or where it was not drawn, how to. */
static void html_model(FILE *h, const char *dir, int model,
                       bool model_drawn)
{
    if (model_drawn)
        fputs("<h2>Latency, stalls and the model (SC'19 Fig. 7)</h2>\n"
              "<p class=\"note\">Per iteration of the jobs with "
              "<code>model</code>: the time, the latency L and stalls s "
              "that rank 0's NIC counters give over it, and SC'19 Eq. 2's "
              "estimate for one message, T = (p + 512)/1024 L + f (s + 1)."
              " Data: iterations.csv (model_us, lat_us, stall_cycles).</p>"
              "\n",
              h);
    if (model_drawn)
        report_html_figure(h, dir, "model.svg",
                           "latency, stalls and model");
    else if (model == 1)
        fputs("<p class=\"note\">The model's figure was not drawn "
              "(model.log); <code>gnuplot model.gp</code> draws it.</p>\n",
              h);
}

int report_write(const char *dir, const struct report_info *info,
                 const struct report_series *s, uint32_t n, bool *drawn,
                 FILE *err)
{
    *drawn = false;
    if (n && report_write_data_and_script(dir, s, n, err) != 0)
        return -1;
    /* gnuplot reads variants.dat from its start for every box, so its
     * time grows as the square of the series (16,000 jobs: 15 s); say so
     * rather than fall silent (issue 57) */
    if (n >= REPORT_MANY_SERIES && err)
        fprintf(err, "  report: gnuplot is drawing %u box plots "
                     "(variants.svg); it reads variants.dat once per box, "
                     "which takes a while\n",
                n);
    int gp = n ? report_gnuplot(dir, "variants.gp", "report.log") : 127;
    *drawn = gp == 0;
    int paths = report_write_paths(dir, info, s, n, err);
    if (paths < 0)
        return -1;
    bool paths_drawn =
        paths == 1 && report_gnuplot(dir, "paths.gp", "paths.log") == 0;
    int model = report_write_model(dir, s, n, err);
    if (model < 0)
        return -1;
    bool model_drawn =
        model == 1 && report_gnuplot(dir, "model.gp", "model.log") == 0;
    int qcd = report_write_qcd(dir, s, n, err);
    if (qcd < 0)
        return -1;
    bool qcd_drawn =
        qcd == 1 && report_gnuplot(dir, "qcd.gp", "qcd.log") == 0;
    struct model_corr *mc = calloc(n ? n : 1, sizeof *mc);
    int corr = mc ? write_model_corr(dir, s, n, mc, err) : -1;
    FILE *h = corr >= 0 ? report_open(dir, "report.html", err) : NULL;
    if (!h) {
        if (!mc && err)
            fprintf(err, "dfsim: out of memory for the report\n");
        free(mc);
        return -1;
    }
    html_variants(h, dir, info, s, n, *drawn);
    html_paths(h, dir, info, paths, paths_drawn);
    html_model(h, dir, model, model_drawn);
    if (corr == 1)
        html_model_corr(h, s, n, mc);
    free(mc);
    if (qcd_drawn)
        fputs("<h2>Time variability against latency variability (SC'19 "
              "Fig. 5)</h2>\n<p class=\"note\">Quartile coefficient of "
              "dispersion of each job's iteration times and of the latency "
              "L its rank 0's NIC measured, per variant: when the time "
              "varies more than the latency, the variation is not the "
              "network's.</p>\n",
              h);
    if (qcd_drawn)
        report_html_figure(h, dir, "qcd.svg", "QCD of time and latency");
    fputs("<p class=\"note\">Boxes: quartiles (Hyndman-Fan type 7); "
          "whiskers: 1.5 IQR; outliers above the plot's top are not "
          "drawn but count in every statistic (as in SC'19 Fig. 8); "
          "QCD = (Q3 - Q1) / (Q3 + Q1); the CI of the median by order "
          "statistics (Le Boudec). \"Bytes with ADAPTIVE_0/1\" is the "
          "share of the variant's bytes sent with ADAPTIVE_0 or "
          "ADAPTIVE_1 (SC'19 Fig. 8's percentages for the app-aware "
          "variant); the two columns after it, where the packets of its "
          "counted iterations went (the share routed non-minimally, "
          "their mean router-to-router hops).</p>\n"
          "</body></html>\n",
          h);
    if (fclose(h) != 0)
        return -1;
    return n ? 0 : 1;
}
