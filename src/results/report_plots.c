/* results/report_plots.c — report.html's figures (report.h): for each a
 * gnuplot data file and the script that draws it from them, written next
 * to the page so that a figure can be redrawn or restyled by hand, and
 * gnuplot run on a script. The box plots of the iteration times per job
 * and variant (variants.dat/.gp, SC'19 Fig. 8's layout), where the
 * packets went (paths.dat/.gp), SC'19 Fig. 7's panels (model.dat/.gp)
 * and Fig. 5's dispersion (qcd.dat/.gp).
 */
#include "results/report.h"
#include "results/report_internal.h"

#include "exp/manifest.h"
#include "exp/outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/steps.h"
#include "core/strindex.h"

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

/* An index of the series by job (with variant too, if `by_variant`):
 * the series of one job are found without a look at every series (issue
 * 57: reports of thousands of jobs). keys: scratch [2 n], kept while the
 * index is used. 0, or -1 out of memory. */
static int index_series(struct strindex *x, const struct report_series *s,
                        uint32_t n, const char **keys, bool by_variant)
{
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = s[i].job;
        keys[n + i] = s[i].variant;
    }
    steps_add(n);
    return strindex_build(x, keys, by_variant ? keys + n : NULL, n);
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

/* variants.gp's x tics: per job its name, its first variant's median
 * time and, with an app-aware variant, the share of that variant's bytes
 * sent with ADAPTIVE_0/1 (SC'19 Fig. 8's labels). */
static int variants_xtics(FILE *gp, const struct report_series *s,
                          uint32_t n, const char *const *jobs,
                          uint32_t n_jobs)
{
    const char **keys = malloc(2 * (size_t)(n ? n : 1) * sizeof *keys);
    struct strindex index, *x = &index;
    if (!keys || index_series(x, s, n, keys, false) != 0) {
        free(keys);
        return -1;
    }
    fprintf(gp, "set xtics (");
    for (uint32_t j = 0; j < n_jobs; j++) {
        double base = 0;
        double share = -1;
        bool app_aware = false; /* a job with that variant (the label) */
        uint32_t lo, hi;
        strindex_find(x, jobs[j], NULL, &lo, &hi);
        for (uint32_t q = lo; q < hi; q++, steps_add(1)) {
            const struct report_series *si = &s[x->pos[q]]; /* in order */
            base = si->baseline_median;
            if (strcmp(si->variant, "app-aware") == 0) {
                share = si->share_default;
                app_aware = true;
            }
        }
        fprintf(gp, "%s\"", j ? ", " : "");
        gp_job(gp, jobs[j]);
        if (base >= 1000)
            fprintf(gp, "\\n%.2f ms", base / 1000);
        else
            fprintf(gp, "\\n%.2f us", base);
        if (share >= 0 && app_aware)
            fprintf(gp, "\\n%.0f%%%% ADAPTIVE_0/1", 100 * share);
        fprintf(gp, "\" %u", j + 1);
    }
    fprintf(gp, ") scale 0\n");
    strindex_free(x);
    free(keys);
    return 0;
}

/* variants.gp's plot: a box per series, at its job's place (jobs[0..
 * n_jobs), the first of its name; past the last if none) and its
 * variant's offset. 0, or -1 out of memory. */
static int variants_boxes(FILE *gp, const struct report_series *s,
                          uint32_t n, const char *const *jobs,
                          uint32_t n_jobs, const char **vnames,
                          uint32_t *n_v)
{
    struct strindex jx;
    if (strindex_build(&jx, jobs, NULL, n_jobs) != 0)
        return -1;
    fprintf(gp, "plot \\\n");
    bool titled[64] = { false };
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = strindex_first(&jx, s[i].job, NULL);
        if (j == UINT32_MAX)
            j = n_jobs;
        uint32_t v = report_variant_index(s[i].variant, vnames, n_v);
        double x = (j + 1) + ((double)v - (*n_v - 1) / 2.0) * (0.85 / *n_v);
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
    strindex_free(&jx);
    return 0;
}

/* variants.dat / variants.gp: the box plots of every job's iteration
 * times per variant, side by side (SC'19 Fig. 8's layout), normalised to
 * the median of the job's first variant (with one variant per job, the
 * times themselves; report.h). Returns 0, or -1 on a write error. */
int report_write_data_and_script(const char *dir,
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
            report_variant_index(s[i].variant, vnames, &n_v);
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
    if (variants_xtics(gp, s, n, jobs, n_jobs) != 0 ||
        variants_boxes(gp, s, n, jobs, n_jobs, vnames, &n_v) != 0) {
        fclose(gp);
        if (err)
            fprintf(err, "dfsim: out of memory for the report\n");
        return -1;
    }
    fclose(gp);
    return 0;
}

/* The jobs of s in order of first appearance into jobs[0..cap); their
 * number. */
static uint32_t job_order(const struct report_series *s,
                          const struct strindex *x, uint32_t n,
                          const char **jobs, uint32_t cap)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < cap; i++)
        if (strindex_first(x, s[i].job, NULL) == i) /* its job's first */
            jobs[k++] = s[i].job;
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

/* paths.dat: one block per variant (a line per job with packets under
 * it; xv: the series by job and variant), then one of the background
 * jobs; a block without lines gets a NaN line so that the blocks keep
 * their indexes. */
static void paths_dat(FILE *dat, const struct report_info *info,
                      const struct report_series *s,
                      const struct strindex *xv, const char *const *jobs,
                      uint32_t n_jobs, const char *const *vnames,
                      uint32_t n_v)
{
    fprintf(dat, "# dfsim: where the packets went: x, packets routed "
                 "non-minimally (%%), mean router-to-router hops, packets; "
                 "one block per variant, then the background jobs\n");
    for (uint32_t v = 0; v < n_v; v++) {
        fprintf(dat, "# %s\n", vnames[v]);
        uint32_t lines = 0;
        for (uint32_t j = 0; j < n_jobs; j++) {
            uint32_t lo, hi;
            strindex_find(xv, jobs[j], vnames[v], &lo, &hi);
            for (; lo < hi; lo++, steps_add(1)) { /* in series order */
                uint32_t i = xv->pos[lo];
                if (!s[i].packets)
                    continue;
                double x = (j + 1) + ((double)v - (n_v - 1) / 2.0) *
                                         (0.85 / n_v);
                fprintf(dat, "%.4f %.6f %.6f %llu\n", x,
                        100 * s[i].nonmin_share, s[i].hops_mean,
                        (unsigned long long)s[i].packets);
                lines++;
            }
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
}

/* paths.gp: the x tics (the jobs, then the background jobs) and the two
 * panels. */
static void paths_gp(FILE *gp, const struct report_info *info,
                     const char *const *jobs, uint32_t n_jobs,
                     const char *const *vnames, uint32_t n_v)
{
    uint32_t n_bg = info->n_background, xs = n_jobs + n_bg;
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
}

/* paths.dat / paths.gp: where the packets went, per job and variant (the
 * box plots' x positions and colours), background jobs in grey to the
 * right: the non-minimal share above, the mean hops below, each bar
 * labelled with its value. Returns 1 if written, 0 if no series or
 * background job has packets (nothing to draw), -1 on a write error or
 * out of memory. */
int report_write_paths(const char *dir, const struct report_info *info,
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
    const char **keys = malloc(2 * (size_t)(n ? n : 1) * sizeof *keys);
    struct strindex x = { 0 }, xv = { 0 };
    if (!keys || index_series(&x, s, n, keys, false) != 0 ||
        index_series(&xv, s, n, keys, true) != 0) {
        strindex_free(&x);
        free(keys);
        if (err)
            fprintf(err, "dfsim: out of memory for the report\n");
        return -1;
    }
    const char *jobs[1024], *vnames[64];
    uint32_t n_jobs = job_order(s, &x, n, jobs, 1024), n_v = 0;
    for (uint32_t i = 0; i < n && n_v < 64; i++)
        report_variant_index(s[i].variant, vnames, &n_v);
    FILE *dat, *gp;
    int rc = -1;
    if (open_pair(dir, "paths", &dat, &gp, err) == 0) {
        paths_dat(dat, info, s, &xv, jobs, n_jobs, vnames, n_v);
        fclose(dat);
        paths_gp(gp, info, jobs, n_jobs, vnames, n_v);
        fclose(gp);
        rc = 1;
    }
    strindex_free(&x);
    strindex_free(&xv);
    free(keys);
    return rc;
}

/* model.dat / model.gp: four panels (time, L, s, estimate) of box plots
 * per job and variant, for the series with model values. Returns 1 if
 * there was something to draw, 0 if not, -1 on a write error. */
int report_write_model(const char *dir, const struct report_series *s,
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
            uint32_t v = n_v < 64 ? report_variant_index(s[i].variant,
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

void report_model_qcd(const struct report_series *s, double *scratch,
                      double *time, double *lat)
{
    *time = *lat = NAN;
    if (!s->n_model)
        return;
    struct stats_summary t, l;
    double *v = scratch, *tmp = scratch + s->n_model;
    for (uint32_t k = 0; k < s->n_model; k++)
        v[k] = s->model[4 * k];
    stats_summarize(v, s->n_model, tmp, &t);
    for (uint32_t k = 0; k < s->n_model; k++)
        v[k] = s->model[4 * k + 1];
    stats_summarize(v, s->n_model, tmp, &l);
    *time = t.qcd;
    *lat = l.qcd;
}

/* qcd.dat / qcd.gp: SC'19 Fig. 5 — the quartile coefficient of
 * dispersion of the iteration time and of the NIC's packet latency L,
 * one point per job with model values (in the order given: a sweep of
 * message sizes), per variant. Returns 1 if drawn from 2 jobs or more,
 * 0 if not, -1 on a write error. */
int report_write_qcd(const char *dir, const struct report_series *s,
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
            report_variant_index(s[i].variant, vnames, &n_v);
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
            double qt, ql;
            report_model_qcd(&s[i], v, &qt, &ql);
            fprintf(dat, "%u %.6f %.6f\n", x, qt, ql);
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

/* List in dir's manifest (exp/manifest.h), as being written, what
 * gnuplot will write there: the log, and every `set output "NAME"` of
 * the script (the scripts are dfsim's: one plain name each). 0 or -1
 * (reported). */
static int list_outputs(const char *dir, const char *script, const char *log)
{
    char *text = outdir_slurp(dir, script);
    if (!text) {
        fprintf(stderr, "dfsim: cannot read %s/%s: %s\n", dir, script,
                strerror(errno));
        return -1;
    }
    int rc = manifest_mark(dir, &log, 1, MANIFEST_WRITING, stderr);
    static const char key[] = "set output \"";
    for (char *p = strstr(text, key); rc == 0 && p; p = strstr(p, key)) {
        p += sizeof key - 1;
        char *end = strchr(p, '"');
        if (!end)
            break;
        *end = '\0';
        const char *name = p;
        rc = manifest_mark(dir, &name, 1, MANIFEST_WRITING, stderr);
        p = end + 1;
    }
    free(text);
    return rc;
}

int report_gnuplot(const char *dir, const char *script, const char *log)
{
    if (list_outputs(dir, script, log) != 0)
        return 127;
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
