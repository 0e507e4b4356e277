/* results/report.c — see report.h. */
#include "results/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exp/outdir.h"

/* Variant colours, in order of appearance (Paul Tol's "bright" scheme,
 * readable by colour-blind readers). */
static const char *const colours[] = { "#4477aa", "#ee6677", "#228833",
                                       "#ccbb44", "#66ccee", "#aa3377",
                                       "#bbbbbb", "#000000" };
#define N_COLOURS (sizeof colours / sizeof colours[0])

const char *report_colour(unsigned i)
{
    return colours[i % N_COLOURS];
}

FILE *report_open(const char *dir, const char *name, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f && err)
        fprintf(err, "dfsim: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* The median of v[0..n) (sorted into scratch). */
static double median_of(const double *v, uint32_t n, double *scratch)
{
    struct stats_summary st;
    stats_summarize(v, n, scratch, &st);
    return st.median;
}

/* The index of variant v among names[0..*n_names), added if new: the
 * distinct variants in order of first appearance. */
static uint32_t variant_index(const char *v, const char **names,
                              uint32_t *n_names)
{
    for (uint32_t i = 0; i < *n_names; i++)
        if (strcmp(names[i], v) == 0)
            return i;
    names[*n_names] = v;
    return (*n_names)++;
}

/* gnuplot string: double quotes and backslashes escaped. */
void report_gp_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

/* A job's name as an axis label: "pingpong-16KiB" as the workload over
 * its size, as the paper's axis gives the input size under the
 * benchmark's name. */
static void gp_job(FILE *gp, const char *job)
{
    const char *dash = strchr(job, '-');
    if (dash && dash != job && dash[1]) {
        char head[128];
        snprintf(head, sizeof head, "%.*s", (int)(dash - job), job);
        report_gp_str(gp, head);
        fprintf(gp, "\\n");
        report_gp_str(gp, dash + 1);
    } else {
        report_gp_str(gp, job);
    }
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

/* Which jobs have an app-aware variant (the share label). */
static bool job_has_app_aware(const struct report_series *s, uint32_t n,
                              const char *job)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(s[i].job, job) == 0 &&
            strcmp(s[i].variant, "app-aware") == 0)
            return true;
    return false;
}

/* Open dir/<name>.dat and dir/<name>.gp; both or neither (-1). */
static int open_pair(const char *dir, const char *name, FILE **dat,
                     FILE **gp, FILE *err)
{
    char d[64], g[64];
    snprintf(d, sizeof d, "%s.dat", name);
    snprintf(g, sizeof g, "%s.gp", name);
    *dat = report_open(dir, d, err);
    *gp = *dat ? report_open(dir, g, err) : NULL;
    if (*dat && *gp)
        return 0;
    if (*dat)
        fclose(*dat);
    return -1;
}

/* The top of the y axis for normalised boxes: above the highest whisker
 * end (Q3 + 1.5 IQR, or the largest value below it) of any series and
 * above 1, so that outliers, which can be orders of magnitude above the
 * median, do not squash the boxes; SC'19 Fig. 8 leaves them out of the
 * plot too ("although we still account them for computing means and
 * medians"). */
static double whisker_top(const struct report_series *s, uint32_t n)
{
    double top = 1.0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t m = s[i].n;
        double *sorted = malloc((m ? m : 1) * sizeof *sorted);
        struct stats_summary st;
        if (!sorted)
            continue; /* out of memory: this series' boxes may be cut */
        if (m && stats_summarize(s[i].norm, m, sorted, &st) == 0) {
            double lim = st.q3 + 1.5 * (st.q3 - st.q1), w = st.q3;
            for (uint32_t k = 0; k < m && sorted[k] <= lim; k++)
                w = sorted[k] > w ? sorted[k] : w;
            if (w > top)
                top = w;
        }
        free(sorted);
    }
    return 1.08 * top;
}

static int write_data_and_script(const char *dir,
                                 const struct report_series *s, uint32_t n,
                                 FILE *err)
{
    FILE *dat, *gp;
    if (open_pair(dir, "variants", &dat, &gp, err) != 0)
        return -1;
    const char *vnames[64];
    uint32_t n_v = 0;
    /* jobs in order, each job's variants in order */
    const char *jobs[1024];
    uint32_t n_jobs = 0;
    for (uint32_t i = 0; i < n && n_jobs < 1024; i++) {
        if (n_jobs == 0 || strcmp(jobs[n_jobs - 1], s[i].job) != 0)
            jobs[n_jobs++] = s[i].job;
        if (n_v < 64)
            variant_index(s[i].variant, vnames, &n_v);
    }
    /* with one variant per job there is nothing to normalise to: the
     * boxes are the iteration times themselves (SC'19 Fig. 3) */
    bool absolute = n_jobs == n;
    fprintf(dat, absolute ? "# dfsim: iteration times (us), one block per "
                            "job\n"
                          : "# dfsim: iteration times / the baseline "
                            "variant's median, one block per job and "
                            "variant\n");
    for (uint32_t i = 0; i < n; i++) {
        fprintf(dat, "# %s %s\n", s[i].job, s[i].variant);
        for (uint32_t k = 0; k < s[i].n; k++)
            fprintf(dat, "%.6f\n", absolute ? s[i].raw[k] : s[i].norm[k]);
        if (s[i].n == 0)
            fprintf(dat, "NaN\n");
        fprintf(dat, "\n\n");
    }
    fclose(dat);

    double width = 160 + 110.0 * n_jobs * (n_v > 2 ? n_v / 2.0 : 1);
    fprintf(gp, "# dfsim: box plots of normalised iteration times per job "
                "and routing variant\n"
                "set terminal svg size %d,520 dynamic font \"sans,12\" "
                "background rgb \"white\"\n"
                "set output \"variants.svg\"\n"
                "set style fill solid 0.4 border -1\n"
                "set style boxplot outliers pointtype 7\n"
                "set pointsize 0.35\n"
                "set boxwidth %.3f\n"
                "set grid ytics lc rgb \"#dddddd\"\n"
                "set key outside top center horizontal\n"
                "set termoption noenhanced\n"
                "set offsets 0, 0, graph 0.05, graph 0.05\n"
                "set xrange [0.4:%u.6]\n"
                "set bmargin 7\n",
            (int)(width > 480 ? width : 480),
            0.8 / (n_v ? n_v : 1), n_jobs);
    if (absolute)
        fprintf(gp, "set ylabel \"iteration time (us)\"\n"
                    "set logscale y\n");
    else
        fprintf(gp, "set ylabel \"time / median of the job's first "
                    "variant\"\n"
                    "set arrow from graph 0, first 1 to graph 1, first 1 "
                    "nohead dt 2 lc rgb \"#555555\"\n"
                    "set yrange [0:%.4g]\n",
                whisker_top(s, n));
    fprintf(gp, "set xtics (");
    for (uint32_t j = 0; j < n_jobs; j++) {
        double base = 0;
        double share = -1;
        for (uint32_t i = 0; i < n; i++)
            if (strcmp(s[i].job, jobs[j]) == 0) {
                base = s[i].baseline_median;
                if (strcmp(s[i].variant, "app-aware") == 0)
                    share = s[i].share_default;
            }
        fprintf(gp, "%s\"", j ? ", " : "");
        gp_job(gp, jobs[j]);
        if (base >= 1000)
            fprintf(gp, "\\n%.2f ms", base / 1000);
        else
            fprintf(gp, "\\n%.2f us", base);
        if (share >= 0 && job_has_app_aware(s, n, jobs[j]))
            fprintf(gp, "\\n%.0f%%%% ADAPTIVE_0/1", 100 * share);
        fprintf(gp, "\" %u", j + 1);
    }
    fprintf(gp, ") scale 0\n");
    fprintf(gp, "plot \\\n");
    bool titled[64] = { false };
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < n_jobs && strcmp(jobs[j], s[i].job) != 0)
            j++;
        uint32_t v = variant_index(s[i].variant, vnames, &n_v);
        double x = (j + 1) + ((double)v - (n_v - 1) / 2.0) * (0.85 / n_v);
        fprintf(gp, "  \"variants.dat\" index %u using (%.4f):1 with boxplot "
                    "lc rgb \"%s\" ",
                i, x, colours[v % N_COLOURS]);
        if (v < 64 && !titled[v]) {
            fprintf(gp, "title \"");
            report_gp_str(gp, s[i].variant);
            fprintf(gp, "\"");
            titled[v] = true;
        } else {
            fprintf(gp, "notitle");
        }
        fprintf(gp, "%s\n", i + 1 < n ? ", \\" : "");
    }
    fclose(gp);
    return 0;
}

/* The jobs of s in order of first appearance into jobs[0..cap); their
 * number. */
static uint32_t job_order(const struct report_series *s, uint32_t n,
                          const char **jobs, uint32_t cap)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < cap; i++) {
        uint32_t j = 0;
        while (j < k && strcmp(jobs[j], s[i].job) != 0)
            j++;
        if (j == k)
            jobs[k++] = s[i].job;
    }
    return k;
}

/* One panel of paths.gp: column col of every variant's block as bars
 * labelled with their values (format fmt), then the background's. */
static void paths_panel(FILE *gp, const char *const *vnames, uint32_t n_v,
                        uint32_t n_bg, int col, const char *fmt, bool key)
{
    fprintf(gp, "plot ");
    for (uint32_t v = 0; v <= n_v; v++) {
        bool bg = v == n_v;
        if (bg && !n_bg)
            break;
        fprintf(gp, "%s\"paths.dat\" index %u using 1:%d with boxes "
                    "lc rgb \"%s\" ",
                v ? ", \\\n  " : "", v, col,
                bg ? "#999999" : colours[v % N_COLOURS]);
        if (key) {
            fprintf(gp, "title \"");
            report_gp_str(gp, bg ? "background (all its packets)" : vnames[v]);
            fputc('"', gp);
        } else {
            fprintf(gp, "notitle");
        }
        fprintf(gp, ", \\\n  \"paths.dat\" index %u using "
                    "1:%d:(sprintf(\"%s\", $%d)) with labels offset 0,0.6 "
                    "font \",9\" notitle",
                v, col, fmt, col);
    }
    fputc('\n', gp);
}

/* paths.dat / paths.gp: where the packets went, per job and variant (the
 * box plots' x positions and colours), background jobs in grey to the
 * right: the non-minimal share above, the mean hops below, each bar
 * labelled with its value. Returns 1 if written, 0 if no series or
 * background job has packets (nothing to draw), -1 on a write error. */
static int write_paths(const char *dir, const struct report_info *info,
                       const struct report_series *s, uint32_t n,
                       FILE *err)
{
    uint32_t with = 0;
    for (uint32_t i = 0; i < n; i++)
        with += s[i].packets > 0;
    for (uint32_t b = 0; b < info->n_background; b++)
        with += info->background[b].packets > 0;
    if (with == 0)
        return 0;
    const char *jobs[1024], *vnames[64];
    uint32_t n_jobs = job_order(s, n, jobs, 1024), n_v = 0;
    for (uint32_t i = 0; i < n && n_v < 64; i++)
        variant_index(s[i].variant, vnames, &n_v);
    FILE *dat, *gp;
    if (open_pair(dir, "paths", &dat, &gp, err) != 0)
        return -1;
    /* one block per variant (a line per job with packets under it), then
     * one of the background jobs; a block without lines gets a NaN line
     * so that the blocks keep their indexes */
    fprintf(dat, "# dfsim: where the packets went: x, packets routed "
                 "non-minimally (%%), mean router-to-router hops, packets; "
                 "one block per variant, then the background jobs\n");
    for (uint32_t v = 0; v < n_v; v++) {
        fprintf(dat, "# %s\n", vnames[v]);
        uint32_t lines = 0;
        for (uint32_t j = 0; j < n_jobs; j++)
            for (uint32_t i = 0; i < n; i++) {
                if (strcmp(s[i].job, jobs[j]) != 0 ||
                    strcmp(s[i].variant, vnames[v]) != 0 || !s[i].packets)
                    continue;
                double x = (j + 1) + ((double)v - (n_v - 1) / 2.0) *
                                         (0.85 / n_v);
                fprintf(dat, "%.4f %.6f %.6f %llu\n", x,
                        100 * s[i].nonmin_share, s[i].hops_mean,
                        (unsigned long long)s[i].packets);
                lines++;
            }
        if (!lines)
            fprintf(dat, "NaN NaN NaN 0\n");
        fprintf(dat, "\n\n");
    }
    uint32_t n_bg = info->n_background, lines = 0;
    fprintf(dat, "# background\n");
    for (uint32_t b = 0; b < n_bg; b++) {
        const struct report_background *g = &info->background[b];
        if (!g->packets)
            continue;
        fprintf(dat, "%u %.6f %.6f %llu\n", n_jobs + b + 1,
                100 * g->nonmin_share, g->hops_mean,
                (unsigned long long)g->packets);
        lines++;
    }
    if (!lines)
        fprintf(dat, "NaN NaN NaN 0\n");
    fprintf(dat, "\n\n");
    fclose(dat);

    uint32_t xs = n_jobs + n_bg;
    double width = 160 + 110.0 * xs * (n_v > 2 ? n_v / 2.0 : 1);
    fprintf(gp, "# dfsim: where the packets went, per job and routing "
                "variant\n"
                "set terminal svg size %d,640 dynamic font \"sans,12\" "
                "background rgb \"white\"\n"
                "set output \"paths.svg\"\n"
                "set termoption noenhanced\n"
                "set style fill solid 0.6 border -1\n"
                "set boxwidth %.3f absolute\n"
                "set grid ytics lc rgb \"#dddddd\"\n"
                "set xrange [0.4:%u.6]\n"
                "set yrange [0:*]\n"
                "set offsets 0, 0, graph 0.15, 0\n"
                "set bmargin 4\n"
                "set xtics (",
            (int)(width > 480 ? width : 480), 0.8 / (n_v ? n_v : 1), xs);
    for (uint32_t j = 0; j < n_jobs; j++) {
        fprintf(gp, "%s\"", j ? ", " : "");
        gp_job(gp, jobs[j]);
        fprintf(gp, "\" %u", j + 1);
    }
    for (uint32_t b = 0; b < n_bg; b++) {
        fprintf(gp, "%s\"", n_jobs + b ? ", " : "");
        gp_job(gp, info->background[b].job);
        fprintf(gp, "\\n(background)\" %u", n_jobs + b + 1);
    }
    fprintf(gp, ") scale 0\n"
                "set multiplot layout 2,1\n"
                "set key outside top center horizontal\n"
                "set ylabel \"packets routed non-minimally (%%)\"\n");
    paths_panel(gp, vnames, n_v, n_bg, 2, "%.1f", true);
    fprintf(gp, "unset key\n"
                "set ylabel \"mean router-to-router hops\"\n");
    paths_panel(gp, vnames, n_v, n_bg, 3, "%.2f", false);
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    return 1;
}

/* model.dat / model.gp: four panels (time, L, s, estimate) of box plots
 * per job and variant, for the series with model values. Returns 1 if
 * there was something to draw, 0 if not, -1 on a write error. */
static int write_model(const char *dir, const struct report_series *s,
                       uint32_t n, FILE *err)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m += s[i].n_model > 0;
    if (m == 0)
        return 0;
    FILE *dat, *gp;
    if (open_pair(dir, "model", &dat, &gp, err) != 0)
        return -1;
    fprintf(dat, "# dfsim: per iteration: time (us), L (us), s (cycles per "
                 "flit), SC'19 Eq. 2 estimate (us); one block per job and "
                 "variant\n");
    uint32_t blk = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!s[i].n_model)
            continue;
        fprintf(dat, "# %s %s\n", s[i].job, s[i].variant);
        for (uint32_t k = 0; k < s[i].n_model; k++) {
            const double *r = &s[i].model[4 * k];
            fprintf(dat, "%.6f %.6f %.6f %.6f\n", r[0], r[1], r[2], r[3]);
        }
        fprintf(dat, "\n\n");
        blk++;
    }
    fclose(dat);
    fprintf(gp, "# dfsim: SC'19 Fig. 7's panels per job and variant\n"
                "set terminal svg size %d,640 dynamic font \"sans,11\" "
                "background rgb \"white\"\n"
                "set output \"model.svg\"\n"
                "set termoption noenhanced\n"
                "set style fill solid 0.4 border -1\n"
                "set style boxplot outliers pointtype 7\n"
                "set pointsize 0.3\n"
                "set boxwidth 0.6\n"
                "set grid ytics lc rgb \"#dddddd\"\n"
                "set xrange [0.4:%u.6]\n"
                "set xtics rotate by -30 scale 0 (",
            320 + 70 * blk, blk);
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!s[i].n_model)
            continue;
        fprintf(gp, "%s\"", b ? ", " : "");
        report_gp_str(gp, s[i].job);
        fputc(' ', gp);
        report_gp_str(gp, s[i].variant);
        fprintf(gp, "\" %u", ++b);
    }
    fprintf(gp, ")\nset multiplot layout 2,2\n");
    static const char *const title[4] = {
        "iteration time (us)", "latency L (us)", "stalls s (cycles/flit)",
        "model estimate (us)" };
    const char *vnames[64];
    uint32_t n_v = 0;
    for (int c = 0; c < 4; c++) {
        fprintf(gp, "set title \"%s\"\nplot ", title[c]);
        b = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!s[i].n_model)
                continue;
            uint32_t v = n_v < 64 ? variant_index(s[i].variant,
                                                  vnames, &n_v)
                                  : 0;
            fprintf(gp, "%s\"model.dat\" index %u using (%u):%d with "
                        "boxplot lc rgb \"%s\" notitle",
                    b ? ", " : "", b, b + 1, c + 1,
                    colours[v % N_COLOURS]);
            b++;
        }
        fputc('\n', gp);
    }
    fprintf(gp, "unset multiplot\n");
    fclose(gp);
    return 1;
}

/* qcd.dat / qcd.gp: SC'19 Fig. 5 — the quartile coefficient of
 * dispersion of the iteration time and of the NIC's packet latency L,
 * one point per job with model values (in the order given: a sweep of
 * message sizes), per variant. Returns 1 if drawn from 2 jobs or more,
 * 0 if not, -1 on a write error. */
static int write_qcd(const char *dir, const struct report_series *s,
                     uint32_t n, FILE *err)
{
    uint32_t m = 0, cap = 0;
    for (uint32_t i = 0; i < n; i++)
        if (s[i].n_model) {
            m++;
            cap = s[i].n_model > cap ? s[i].n_model : cap;
        }
    if (m < 2)
        return 0;
    double *v = malloc(2 * (size_t)cap * sizeof *v);
    if (!v)
        return -1;
    FILE *dat, *gp;
    if (open_pair(dir, "qcd", &dat, &gp, err) != 0) {
        free(v);
        return -1;
    }
    const char *vnames[64];
    uint32_t n_v = 0;
    for (uint32_t i = 0; i < n && n_v < 64; i++)
        if (s[i].n_model)
            variant_index(s[i].variant, vnames, &n_v);
    fprintf(dat, "# dfsim: per job (x) and variant (block): QCD of the "
                 "iteration time, QCD of the latency L\n");
    for (uint32_t vi = 0; vi < n_v; vi++) {
        fprintf(dat, "# %s\n", vnames[vi]);
        uint32_t x = 0;
        const char *last = NULL;
        for (uint32_t i = 0; i < n; i++) {
            if (!s[i].n_model)
                continue;
            if (!last || strcmp(last, s[i].job) != 0)
                x++;
            last = s[i].job;
            if (strcmp(s[i].variant, vnames[vi]) != 0)
                continue;
            struct stats_summary t, l;
            for (uint32_t k = 0; k < s[i].n_model; k++)
                v[k] = s[i].model[4 * k];
            stats_summarize(v, s[i].n_model, v + cap, &t);
            for (uint32_t k = 0; k < s[i].n_model; k++)
                v[k] = s[i].model[4 * k + 1];
            stats_summarize(v, s[i].n_model, v + cap, &l);
            fprintf(dat, "%u %.6f %.6f\n", x, t.qcd, l.qcd);
        }
        fprintf(dat, "\n\n");
    }
    fclose(dat);
    free(v);
    fprintf(gp, "# dfsim: SC'19 Fig. 5: QCD of time and of latency\n"
                "set terminal svg size 720,440 dynamic font \"sans,11\" "
                "background rgb \"white\"\n"
                "set output \"qcd.svg\"\n"
                "set termoption noenhanced\n"
                "set grid ytics lc rgb \"#dddddd\"\n"
                "set key outside top center horizontal\n"
                "set ylabel \"quartile coefficient of dispersion\"\n"
                "set xtics rotate by -30 scale 0 (");
    uint32_t x = 0;
    const char *last = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (!s[i].n_model || (last && strcmp(last, s[i].job) == 0))
            continue;
        last = s[i].job;
        fprintf(gp, "%s\"", x ? ", " : "");
        report_gp_str(gp, s[i].job);
        fprintf(gp, "\" %u", ++x);
    }
    fprintf(gp, ")\nset xrange [0.5:%u.5]\nplot ", x);
    for (uint32_t vi = 0; vi < n_v; vi++) {
        fprintf(gp, "%s\"qcd.dat\" index %u using 1:2 with linespoints "
                    "lc rgb \"%s\" pt 7 title \"time, ",
                vi ? ", " : "", vi, colours[vi % N_COLOURS]);
        report_gp_str(gp, vnames[vi]);
        fprintf(gp, "\", \"qcd.dat\" index %u using 1:3 with linespoints "
                    "lc rgb \"%s\" dt 2 pt 6 title \"latency, ",
                vi, colours[vi % N_COLOURS]);
        report_gp_str(gp, vnames[vi]);
        fputc('"', gp);
    }
    fputc('\n', gp);
    fclose(gp);
    return 1;
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
        mt[i] = median_of(a, q, scratch);
        q = 0;
        for (uint32_t k = 0; k < m; k++)
            if ((s->model_run ? s->model_run[k] : 0) == run[i])
                a[q++] = e[k];
        me[i] = median_of(a, q, scratch);
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
    FILE *f = report_open(dir, "model_corr.csv", err);
    if (!f)
        return -1;
    fprintf(f, "job,variant,runs,iterations,pooled_corr,mean_run_corr,"
               "corr_runs,alloc_corr\n");
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
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 1 : -1;
}

int report_gnuplot(const char *dir, const char *script, const char *log)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}

static void html_table(FILE *h, const struct report_series *s, uint32_t n)
{
    fputs("<table>\n<tr><th>job</th><th>workload</th><th>variant</th>"
          "<th>runs</th><th>iterations</th><th>median (us)</th><th>Q1 - Q3 (us)</th>"
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
            variant_index(s[i].variant, vnames, &n_v);
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

int report_write(const char *dir, const struct report_info *info,
                 const struct report_series *s, uint32_t n, bool *drawn,
                 FILE *err)
{
    *drawn = false;
    if (n && write_data_and_script(dir, s, n, err) != 0)
        return -1;
    int gp = n ? report_gnuplot(dir, "variants.gp", "report.log") : 127;
    *drawn = gp == 0;
    int paths = write_paths(dir, info, s, n, err);
    if (paths < 0)
        return -1;
    bool paths_drawn =
        paths == 1 && report_gnuplot(dir, "paths.gp", "paths.log") == 0;
    int model = write_model(dir, s, n, err);
    if (model < 0)
        return -1;
    bool model_drawn =
        model == 1 && report_gnuplot(dir, "model.gp", "model.log") == 0;
    int qcd = write_qcd(dir, s, n, err);
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
    if (*drawn)
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
    html_paths(h, dir, info, paths, paths_drawn);
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

/* ---- from the result files --------------------------------------------- */

/* A CSV file of dfsim's (no quoting: names hold no commas), in memory:
 * rows of fields. */
struct csv {
    char *text;
    char **field;     /* [rows * cols] */
    uint32_t rows, cols;
    char **head;      /* [cols] */
};

static void csv_free(struct csv *c)
{
    free(c->text);
    free(c->field);
    free(c->head);
    memset(c, 0, sizeof *c);
}

/* Read dir/name. Returns 0, or -1 reported to err. */
static int csv_read(const char *dir, const char *name, struct csv *c,
                    FILE *err)
{
    memset(c, 0, sizeof *c);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (err)
            fprintf(err, "dfsim: cannot read %s: %s\n", path,
                    strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    c->text = malloc(cap);
    size_t r;
    while (c->text && (r = fread(c->text + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (len + 1 == cap) {
            char *t = realloc(c->text, cap *= 2);
            if (!t) {
                free(c->text);
                c->text = NULL;
            }
            c->text = t;
        }
    }
    fclose(f);
    if (!c->text)
        goto oom;
    c->text[len] = '\0';
    /* split: count lines and the header's fields */
    uint32_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += c->text[i] == '\n';
    char *line = c->text, *nl = strchr(line, '\n');
    if (!nl || lines < 1) {
        if (err)
            fprintf(err, "dfsim: %s: no header line\n", path);
        csv_free(c);
        return -1;
    }
    c->cols = 1;
    for (char *q = line; q < nl; q++)
        c->cols += *q == ',';
    c->rows = lines - 1;
    c->head = malloc(c->cols * sizeof *c->head);
    c->field = malloc(((size_t)c->rows * c->cols + 1) * sizeof *c->field);
    if (!c->head || !c->field)
        goto oom;
    uint32_t row = 0;
    for (char *p = c->text; *p; row++) {
        char *end = strchr(p, '\n');
        if (!end)
            break; /* a last line cut short: not a row */
        *end = '\0';
        char **dst = row == 0 ? c->head
                              : &c->field[(size_t)(row - 1) * c->cols];
        uint32_t k = 0;
        for (char *q = p;; q++) {
            if (*q == ',' || *q == '\0') {
                bool last = *q == '\0';
                *q = '\0';
                if (k < c->cols)
                    dst[k] = p;
                k++;
                p = q + 1;
                if (last)
                    break;
            }
        }
        if (k != c->cols) {
            if (err)
                fprintf(err, "dfsim: %s:%u: %u fields, the header has %u\n",
                        path, row + 1, k, c->cols);
            csv_free(c);
            return -1;
        }
        p = end + 1;
    }
    c->rows = row ? row - 1 : 0;
    return 0;
oom:
    if (err)
        fprintf(err, "dfsim: out of memory reading %s\n", path);
    csv_free(c);
    return -1;
}

static int csv_col(const struct csv *c, const char *name)
{
    for (uint32_t k = 0; k < c->cols; k++)
        if (strcmp(c->head[k], name) == 0)
            return (int)k;
    return -1;
}

static const char *csv_at(const struct csv *c, uint32_t row, int col)
{
    return c->field[(size_t)row * c->cols + (size_t)col];
}

/* Reorder the series s[0..n) by job (in order of first appearance), then
 * by the first row of va (variants.csv) with their job and variant
 * (series without one last, in their order); sid[0..rows) (a series
 * index or UINT32_MAX) follows. 0, or -1 out of memory. */
static int order_series(struct report_series *s, uint32_t n, uint32_t *sid,
                        uint32_t rows, const struct csv *va, int v_name,
                        int v_var)
{
    uint32_t *perm = malloc(4 * (size_t)(n ? n : 1) * sizeof *perm);
    struct report_series *t = malloc((n ? n : 1) * sizeof *t);
    if (!perm || !t) {
        free(perm);
        free(t);
        return -1;
    }
    uint32_t *job = perm + n, *row = perm + 2 * (size_t)n,
             *inv = perm + 3 * (size_t)n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t b = 0;
        while (strcmp(s[b].job, s[k].job) != 0)
            b++;
        job[k] = b == k ? k : job[b]; /* the job's first series */
        row[k] = UINT32_MAX;
        for (uint32_t r = 0; r < va->rows && row[k] == UINT32_MAX; r++)
            if (strcmp(csv_at(va, r, v_name), s[k].job) == 0 &&
                strcmp(csv_at(va, r, v_var), s[k].variant) == 0)
                row[k] = r;
    }
    /* insertion sort by (job, row, k): stable, n is small */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = k;
        for (; i > 0; i--) {
            uint32_t a = perm[i - 1];
            if (job[a] < job[k] || (job[a] == job[k] && row[a] <= row[k]))
                break;
            perm[i] = a;
        }
        perm[i] = k;
    }
    for (uint32_t i = 0; i < n; i++) {
        t[i] = s[perm[i]];
        inv[perm[i]] = i;
    }
    memcpy(s, t, n * sizeof *s);
    for (uint32_t r = 0; r < rows; r++)
        if (sid[r] != UINT32_MAX)
            sid[r] = inv[sid[r]];
    free(perm);
    free(t);
    return 0;
}

/* The offered load of load.csv (exp/offered.h) as a sentence in buf:
 * per class with jobs, its jobs and nodes (the last run's) and its
 * injection and global shares averaged over the runs that have them.
 * Empty if there is no load.csv (results of an older dfsim) or nothing
 * in it. */
static void load_sentence(const char *dir, char *buf, size_t cap)
{
    buf[0] = '\0';
    struct csv l;
    if (csv_read(dir, "load.csv", &l, NULL) != 0)
        return;
    int c_run = csv_col(&l, "run"), c_cls = csv_col(&l, "class"),
        c_jobs = csv_col(&l, "jobs"), c_nodes = csv_col(&l, "nodes"),
        c_inj = csv_col(&l, "injection_share"),
        c_glob = csv_col(&l, "global_share");
    if (c_run < 0 || c_cls < 0 || c_jobs < 0 || c_nodes < 0 || c_inj < 0 ||
        c_glob < 0) {
        csv_free(&l);
        return;
    }
    static const char *const classes[] = { "fill", "background",
                                           "measured" };
    uint32_t runs = 0;
    for (uint32_t r = 0; r < l.rows; r++)
        runs += strcmp(csv_at(&l, r, c_cls), classes[0]) == 0;
    int head = snprintf(buf, cap,
                        "Offered load over the measured window, the bytes "
                        "the jobs' NICs injected (load.csv%s): ",
                        runs > 1 ? "; shares averaged over the runs" : "");
    size_t start = head > 0 && (size_t)head < cap ? (size_t)head : 0;
    size_t used = start;
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        double inj = 0, glob = 0;
        uint32_t n_inj = 0, n_glob = 0;
        const char *jobs = "0", *nodes = "0";
        for (uint32_t r = 0; r < l.rows; r++) {
            if (strcmp(csv_at(&l, r, c_cls), classes[k]) != 0)
                continue;
            jobs = csv_at(&l, r, c_jobs);
            nodes = csv_at(&l, r, c_nodes);
            const char *a = csv_at(&l, r, c_inj), *b = csv_at(&l, r, c_glob);
            if (*a) {
                inj += strtod(a, NULL);
                n_inj++;
            }
            if (*b) {
                glob += strtod(b, NULL);
                n_glob++;
            }
        }
        if (strcmp(jobs, "0") == 0 || !n_inj)
            continue;
        char g[64] = "";
        if (n_glob)
            snprintf(g, sizeof g, ", %.1f %% of its global bandwidth",
                     100 * glob / n_glob);
        int w = snprintf(buf + used, cap - used,
                         "%s%s (%s jobs on %s nodes): %.1f %% of the "
                         "system's injection bandwidth%s",
                         used > start ? "; " : "", classes[k], jobs, nodes,
                         100 * inj / n_inj, g);
        if (w < 0 || (size_t)w >= cap - used) {
            buf[used] = '\0';
            break;
        }
        used += (size_t)w;
    }
    if (used == start)
        buf[0] = '\0'; /* no class with jobs and a share */
    else if (used + 1 < cap)
        memcpy(buf + used, ".", 2);
    csv_free(&l);
}

/* The figures of the page's table, pooled over the runs, as a table for
 * the console: per job and variant the runs, counted iterations, median
 * time, QCD, median normalised to the job's first variant (each time over
 * its own run's baseline), and where the packets went. */
static void pooled_table(FILE *f, const struct report_series *s, uint32_t n)
{
    uint32_t runs = 0;
    for (uint32_t k = 0; k < n; k++)
        if (s[k].runs > runs)
            runs = s[k].runs;
    fprintf(f, "\npooled over the %u runs (as report.html gives them; each "
               "time normalised to its own run's median of the job's first "
               "variant):\n",
            runs);
    fprintf(f, "%-20s %-10s %5s %6s %12s %8s %10s %8s %6s\n", "job",
            "variant", "runs", "iters", "median (us)", "QCD", "normalized",
            "non-min", "hops");
    for (uint32_t k = 0; k < n; k++) {
        fprintf(f, "%-20s %-10s %5u %6u %12.3f %8.4f %10.3f", s[k].job,
                s[k].variant, s[k].runs, s[k].n, s[k].st.median, s[k].st.qcd,
                s[k].norm_median);
        if (s[k].packets)
            fprintf(f, " %7.1f%% %6.2f\n", 100 * s[k].nonmin_share,
                    s[k].hops_mean);
        else
            fprintf(f, " %8s %6s\n", "-", "-");
    }
}

int report_from_results(const char *dir, const struct report_info *info,
                        bool *drawn, FILE *err)
{
    struct csv it, va, jb;
    *drawn = false;
    if (csv_read(dir, "iterations.csv", &it, err) != 0)
        return -1;
    if (csv_read(dir, "variants.csv", &va, err) != 0) {
        csv_free(&it);
        return -1;
    }
    if (csv_read(dir, "jobs.csv", &jb, err) != 0) {
        csv_free(&it);
        csv_free(&va);
        return -1;
    }
    int c_run = csv_col(&it, "run"), c_name = csv_col(&it, "name"),
        c_var = csv_col(&it, "variant"), c_cnt = csv_col(&it, "counted"),
        c_t = csv_col(&it, "time_us"), c_est = csv_col(&it, "model_us"),
        c_lat = csv_col(&it, "lat_us"), c_st = csv_col(&it, "stall_cycles");
    int v_name = csv_col(&va, "name"), v_var = csv_col(&va, "variant"),
        v_bytes = csv_col(&va, "bytes"),
        v_corr = csv_col(&va, "model_corr"),
        v_a0 = csv_col(&va, "share_ADAPTIVE_0"),
        v_a1 = csv_col(&va, "share_ADAPTIVE_1");
    int j_name = csv_col(&jb, "name"), j_wl = csv_col(&jb, "workload");
    /* where the packets went: optional (result files of a dfsim before
     * them have a report without the figure) */
    int v_pk = csv_col(&va, "packets"), v_nm = csv_col(&va, "nonmin_share"),
        v_hp = csv_col(&va, "hops_mean"), j_bg = csv_col(&jb, "background"),
        j_pk = csv_col(&jb, "packets"), j_nm = csv_col(&jb, "nonmin_share"),
        j_hp = csv_col(&jb, "hops_mean");
    bool v_paths = v_pk >= 0 && v_nm >= 0 && v_hp >= 0;
    bool j_paths = j_bg >= 0 && j_pk >= 0 && j_nm >= 0 && j_hp >= 0;
    struct report_background *bg = NULL;
    double *bgw = NULL; /* [background jobs x 3]: packets, non-minimal
                           packets, hops */
    int rc = -1;
    struct report_series *s = NULL;
    double *val = NULL, *scratch = NULL;
    uint32_t *run_of = NULL;
    if (c_run < 0 || c_name < 0 || c_var < 0 || c_cnt < 0 || c_t < 0 ||
        c_est < 0 || c_lat < 0 || c_st < 0 ||
        v_name < 0 || v_var < 0 || v_bytes < 0 || v_a0 < 0 || v_a1 < 0 ||
        v_corr < 0 ||
        j_name < 0 || j_wl < 0) {
        if (err)
            fprintf(err, "dfsim: %s: the result files lack columns the "
                         "report needs (written by another version?)\n",
                    dir);
        goto out;
    }
    /* the series, in order of first appearance; sid[r]: row r's */
    uint32_t rows = it.rows ? it.rows : 1;
    s = calloc(rows, sizeof *s);
    val = malloc(rows * sizeof *val);
    scratch = malloc(2 * (size_t)rows * sizeof *scratch);
    run_of = malloc(2 * (size_t)rows * sizeof *run_of);
    if (!s || !val || !scratch || !run_of)
        goto oom;
    uint32_t *sid = run_of + rows;
    uint32_t n = 0;
    for (uint32_t r = 0; r < it.rows; r++) {
        sid[r] = UINT32_MAX;
        if (strcmp(csv_at(&it, r, c_cnt), "1") != 0)
            continue;
        const char *job = csv_at(&it, r, c_name),
                   *var = csv_at(&it, r, c_var);
        uint32_t k = 0;
        while (k < n && !(strcmp(s[k].job, job) == 0 &&
                          strcmp(s[k].variant, var) == 0))
            k++;
        if (k == n) {
            s[n] = (struct report_series){ .job = job, .variant = var,
                                           .workload = "" };
            for (uint32_t q = 0; q < jb.rows; q++)
                if (strcmp(csv_at(&jb, q, j_name), job) == 0)
                    s[n].workload = csv_at(&jb, q, j_wl);
            n++;
        }
        sid[r] = k;
        s[k].n++;
    }
    /* each job's series in the order of its variants (variants.csv's
     * rows, as the file lists them), so that its first series, the
     * baseline the others are normalised to, is its first variant
     * whichever variant ran first (variant_order = "shuffled"), as in
     * variants.csv's `normalized` */
    if (order_series(s, n, sid, it.rows, &va, v_name, v_var) != 0)
        goto oom;
    for (uint32_t k = 0; k < n; k++) {
        s[k].norm = malloc((s[k].n ? s[k].n : 1) * sizeof *s[k].norm);
        s[k].raw = malloc((s[k].n ? s[k].n : 1) * sizeof *s[k].raw);
        s[k].model = malloc((s[k].n ? s[k].n : 1) * 4 * sizeof *s[k].model);
        s[k].model_run = malloc((s[k].n ? s[k].n : 1) *
                                sizeof *s[k].model_run);
        if (!s[k].norm || !s[k].raw || !s[k].model || !s[k].model_run)
            goto oom;
    }
    for (uint32_t k = 0; k < n; k++) {
        /* the job's first variant: its first series */
        uint32_t b = 0;
        while (strcmp(s[b].job, s[k].job) != 0)
            b++;
        /* raw times and their runs (rows come run by run) */
        uint32_t m = 0, runs = 0;
        for (uint32_t r = 0; r < it.rows; r++)
            if (sid[r] == k) {
                const char *e = csv_at(&it, r, c_est);
                uint32_t run = (uint32_t)strtoul(csv_at(&it, r, c_run),
                                                 NULL, 10);
                if (*e) {
                    s[k].model_run[s[k].n_model] = run;
                    double *x = &s[k].model[4 * s[k].n_model++];
                    x[0] = strtod(csv_at(&it, r, c_t), NULL);
                    x[1] = strtod(csv_at(&it, r, c_lat), NULL);
                    x[2] = strtod(csv_at(&it, r, c_st), NULL);
                    x[3] = strtod(e, NULL);
                }
                run_of[m] = run;
                runs += m == 0 || run_of[m] != run_of[m - 1];
                val[m++] = strtod(csv_at(&it, r, c_t), NULL);
            }
        s[k].runs = runs;
        memcpy(s[k].raw, val, m * sizeof *val);
        stats_summarize(val, m, scratch, &s[k].st);
        /* each run's baseline: the median of series b's times in it */
        for (uint32_t i = 0; i < m;) {
            uint32_t run = run_of[i], q = 0;
            for (uint32_t r = 0; r < it.rows; r++)
                if (sid[r] == b &&
                    strtoul(csv_at(&it, r, c_run), NULL, 10) == run)
                    scratch[q++] = strtod(csv_at(&it, r, c_t), NULL);
            double base = median_of(scratch, q, scratch + rows);
            for (; i < m && run_of[i] == run; i++)
                s[k].norm[i] = base > 0 ? val[i] / base : 0;
        }
        memcpy(val, s[k].norm, m * sizeof *val);
        s[k].norm_median = median_of(val, m, scratch);
        /* bytes with ADAPTIVE_0 or _1 over all the series' bytes */
        double bytes = 0, dflt = 0;
        for (uint32_t r = 0; r < va.rows; r++)
            if (strcmp(csv_at(&va, r, v_name), s[k].job) == 0 &&
                strcmp(csv_at(&va, r, v_var), s[k].variant) == 0) {
                double by = strtod(csv_at(&va, r, v_bytes), NULL);
                bytes += by;
                dflt += by * (strtod(csv_at(&va, r, v_a0), NULL) +
                              strtod(csv_at(&va, r, v_a1), NULL));
            }
        s[k].share_default = bytes > 0 ? dflt / bytes : 0;
        /* SC'19 §2.4 per run: the mean of the runs' own correlation of
         * estimate and time, where one is written (empty: undefined) */
        double sum = 0;
        uint32_t nc = 0;
        for (uint32_t r = 0; r < va.rows; r++)
            if (strcmp(csv_at(&va, r, v_name), s[k].job) == 0 &&
                strcmp(csv_at(&va, r, v_var), s[k].variant) == 0) {
                const char *f = csv_at(&va, r, v_corr);
                char *end;
                double c = strtod(f, &end);
                if (end != f && isfinite(c)) {
                    sum += c;
                    nc++;
                }
            }
        s[k].run_corr = nc ? sum / nc : NAN;
        s[k].run_corr_n = nc;
        /* where its packets went, each run's figures weighted by its
         * packets */
        double pk = 0, nm = 0, hp = 0;
        for (uint32_t r = 0; v_paths && r < va.rows; r++)
            if (strcmp(csv_at(&va, r, v_name), s[k].job) == 0 &&
                strcmp(csv_at(&va, r, v_var), s[k].variant) == 0) {
                double p = strtod(csv_at(&va, r, v_pk), NULL);
                if (p <= 0)
                    continue; /* no packets: empty share and mean */
                pk += p;
                nm += p * strtod(csv_at(&va, r, v_nm), NULL);
                hp += p * strtod(csv_at(&va, r, v_hp), NULL);
            }
        s[k].packets = (uint64_t)pk;
        s[k].nonmin_share = pk > 0 ? nm / pk : 0;
        s[k].hops_mean = pk > 0 ? hp / pk : 0;
    }
    /* the background jobs, by name in order of first appearance, pooled
     * over the runs likewise */
    uint32_t n_bg = 0;
    bg = calloc(jb.rows ? jb.rows : 1, sizeof *bg);
    bgw = malloc(3 * (size_t)(jb.rows ? jb.rows : 1) * sizeof *bgw);
    if (!bg || !bgw)
        goto oom;
    for (uint32_t r = 0; j_paths && r < jb.rows; r++) {
        if (strcmp(csv_at(&jb, r, j_bg), "1") != 0)
            continue;
        const char *job = csv_at(&jb, r, j_name);
        uint32_t b = 0;
        while (b < n_bg && strcmp(bg[b].job, job) != 0)
            b++;
        if (b == n_bg) {
            bg[n_bg++].job = job;
            bgw[3 * b] = bgw[3 * b + 1] = bgw[3 * b + 2] = 0;
        }
        double p = strtod(csv_at(&jb, r, j_pk), NULL);
        if (p <= 0)
            continue;
        bgw[3 * b] += p;
        bgw[3 * b + 1] += p * strtod(csv_at(&jb, r, j_nm), NULL);
        bgw[3 * b + 2] += p * strtod(csv_at(&jb, r, j_hp), NULL);
    }
    for (uint32_t b = 0; b < n_bg; b++) {
        double p = bgw[3 * b];
        bg[b].packets = (uint64_t)p;
        bg[b].nonmin_share = p > 0 ? bgw[3 * b + 1] / p : 0;
        bg[b].hops_mean = p > 0 ? bgw[3 * b + 2] / p : 0;
    }
    struct report_info full = *info;
    full.background = bg;
    full.n_background = n_bg;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t b = 0;
        while (strcmp(s[b].job, s[k].job) != 0)
            b++;
        s[k].baseline_median = s[b].st.median;
    }
    char load[1024];
    load_sentence(dir, load, sizeof load);
    if (load[0] && !full.load)
        full.load = load;
    if (info->table)
        pooled_table(info->table, s, n);
    rc = report_write(dir, &full, s, n, drawn, err);
    for (uint32_t k = 0; k < n; k++) {
        free(s[k].norm);
        free(s[k].raw);
        free(s[k].model);
        free(s[k].model_run);
    }
    goto out;
oom:
    if (err)
        fprintf(err, "dfsim: out of memory for the report\n");
    for (uint32_t k = 0; s && k < it.rows; k++) {
        free(s[k].norm);
        free(s[k].raw);
        free(s[k].model);
        free(s[k].model_run);
    }
out:
    free(bg);
    free(bgw);
    free(s);
    free(val);
    free(scratch);
    free(run_of);
    csv_free(&it);
    csv_free(&va);
    csv_free(&jb);
    return rc;
}
