/* results/traffic_report.c — see traffic_report.h. */
#include "results/traffic_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "results/report.h"

/* The routings of pt[0..n) in order of first appearance, into names
 * (room for n); returns how many. */
static uint32_t routings_of(const struct traffic_point *pt, uint32_t n,
                            const char **names)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < k && strcmp(names[j], pt[i].routing) != 0)
            j++;
        if (j == k)
            names[k++] = pt[i].routing;
    }
    return k;
}

/* The indexes of routing's points in pt[0..n), by load (insertion sort:
 * a sweep has tens of points), into idx (room for n); returns how many. */
static uint32_t points_of(const struct traffic_point *pt, uint32_t n,
                          const char *routing, uint32_t *idx)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(pt[i].routing, routing) != 0)
            continue;
        uint32_t j = k++;
        while (j > 0 && pt[idx[j - 1]].load > pt[i].load) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return k;
}

/* A point whose window opened while the network filled (traffic.h):
 * its saturation is not judged. */
static bool unsteady(const struct traffic_result *r)
{
    return !r->steady && r->packets && !r->deadlock;
}

/* traffic_saturation with the index room the caller has (n): the
 * points not steady are no evidence either way and are passed over. */
static uint32_t saturation_in(const struct traffic_point *pt, uint32_t n,
                              const char *routing, uint32_t *idx,
                              double *below, double *at)
{
    uint32_t k = points_of(pt, n, routing, idx);
    *below = *at = -1;
    for (uint32_t j = 0; j < k; j++) {
        const struct traffic_point *q = &pt[idx[j]];
        if (unsteady(&q->r))
            continue;
        if (q->r.saturated) {
            *at = q->load;
            break;
        }
        *below = q->load;
    }
    return k;
}

uint32_t traffic_saturation(const struct traffic_point *pt, uint32_t n,
                            const char *routing, double *below, double *at)
{
    *below = *at = -1;
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint32_t k = idx ? saturation_in(pt, n, routing, idx, below, at) : 0;
    free(idx);
    return k;
}

/* traffic.dat: a block per routing, its points by load. */
static void write_dat(FILE *dat, const struct traffic_point *pt,
                      const char *const *names, uint32_t n_names,
                      uint32_t n, uint32_t *idx)
{
    fputs("# dfsim: the sweep's points per routing (blocks in the order of "
          "the routings)\n# load offered accepted lat_mean_ns "
          "lat_median_ns lat_p99_ns hops_mean nonmin_pct saturated\n",
          dat);
    for (uint32_t v = 0; v < n_names; v++) {
        fprintf(dat, "# %s\n", names[v]);
        uint32_t k = points_of(pt, n, names[v], idx);
        for (uint32_t j = 0; j < k; j++) {
            const struct traffic_point *q = &pt[idx[j]];
            fprintf(dat, "%.4f %.6f %.6f ", q->load, q->r.offered,
                    q->r.accepted);
            if (q->r.packets)
                fprintf(dat, "%.3f %.0f %.0f %.4f %.3f", q->r.lat_mean_ns,
                        q->r.lat_median_ns, q->r.lat_p99_ns,
                        q->r.hops_mean, 100.0 * q->r.frac_nonmin);
            else /* nothing measured: nothing to draw */
                fputs("? ? ? ? ?", dat);
            fprintf(dat, " %d\n", q->r.saturated ? 1 : 0);
        }
        fputs("\n\n", dat);
    }
}

/* One curve per routing of column `col` against the offered load, a
 * cross on its saturated points, and the crosses' key (if `key`). */
static void gp_curves(FILE *gp, const char *const *names, uint32_t n_names,
                      int col, const char *dt, bool key, bool titles)
{
    fputs("plot ", gp);
    for (uint32_t v = 0; v < n_names; v++) {
        fprintf(gp, "%s\"traffic.dat\" index %u using 2:%d with linespoints "
                    "lc rgb \"%s\" pt 7 ps 0.45 lw 1.5 dt %s ",
                v ? ", \\\n     " : "", v, col, report_colour(v), dt);
        if (titles) {
            fputs("title \"", gp);
            report_gp_str(gp, names[v]);
            fputs("\"", gp);
        } else {
            fputs("notitle", gp);
        }
        fprintf(gp, ", \\\n     \"traffic.dat\" index %u using "
                    "2:($9 > 0 ? $%d : 1/0) with points lc rgb \"%s\" pt 2 "
                    "ps 1.1 notitle",
                v, col, report_colour(v));
    }
    if (key)
        fputs(", \\\n     1/0 with points lc rgb \"#222222\" pt 2 ps 1.1 "
              "title \"saturated\"",
              gp);
}

/* traffic.gp: the three figures (the latency and paths ones only when
 * some point has packets: `measured`). */
static void write_gp(FILE *gp, const char *const *names, uint32_t n_names,
                     double xmax, double ymax, bool measured)
{
    fprintf(gp, "# dfsim: latency-load curves of a synthetic-traffic sweep "
                "(traffic.dat; exp/traffic_report.h)\n"
                "set terminal svg size 760,460 dynamic font \"sans,12\" "
                "background rgb \"white\"\n"
                "set termoption noenhanced\n"
                "set datafile missing \"?\"\n"
                "set key outside top center horizontal\n"
                "set grid lc rgb \"#dddddd\"\n"
                "set xlabel \"offered load (share of the NICs' injection "
                "rate)\"\n"
                "set xrange [0:%.4f]\n",
            xmax);
    fprintf(gp, "\nset output \"traffic_accepted.svg\"\n"
                "set ylabel \"accepted load (share of injection)\"\n"
                "set yrange [0:%.4f]\n"
                "set arrow 1 from 0,0 to %.4f,%.4f nohead dt 2 "
                "lc rgb \"#888888\"\n",
            ymax, ymax, ymax);
    gp_curves(gp, names, n_names, 3, "1", true, true);
    fputs("\nunset arrow 1\n", gp);
    if (!measured)
        return;
    fputs("\nset output \"traffic_latency.svg\"\n"
          "set ylabel \"packet latency (ns): mean, 99th percentile "
          "dashed\"\n"
          "set logscale y\n"
          "set yrange [*:*]\n",
          gp);
    gp_curves(gp, names, n_names, 4, "1", true, true);
    fputs(", \\\n     ", gp);
    /* the 99th percentiles, dashed, without their own key */
    for (uint32_t v = 0; v < n_names; v++)
        fprintf(gp, "%s\"traffic.dat\" index %u using 2:6 with linespoints "
                    "lc rgb \"%s\" pt 7 ps 0.3 lw 1 dt 2 notitle",
                v ? ", \\\n     " : "", v, report_colour(v));
    fputs("\nunset logscale y\n"
          "\nset terminal svg size 760,640 dynamic font \"sans,12\" "
          "background rgb \"white\"\n"
          "set termoption noenhanced\n"
          "set output \"traffic_paths.svg\"\n"
          "set multiplot layout 2,1\n"
          "set ylabel \"packets non-minimal (%)\"\n"
          "set yrange [0:100]\n",
          gp);
    gp_curves(gp, names, n_names, 8, "1", true, true);
    fputs("\nset ylabel \"mean router-to-router hops\"\n"
          "set yrange [0:*]\n"
          "set key off\n",
          gp);
    gp_curves(gp, names, n_names, 7, "1", false, false);
    fputs("\nunset multiplot\n", gp);
}

/* A table cell: v with `decimals` (a per cent sign after it if `pct`),
 * or "-" if there is none. */
static void html_num(FILE *h, int decimals, double v, bool have, bool pct)
{
    if (have)
        fprintf(h, "<td>%.*f%s</td>", decimals, v, pct ? " %" : "");
    else
        fputs("<td>-</td>", h);
}

/* The page's list of where each routing saturates (idx: room for n). */
static void html_saturation(FILE *h, const struct traffic_point *pt,
                            uint32_t n, const char *const *names,
                            uint32_t n_names, uint32_t *idx)
{
    fputs("<h2>Saturation</h2>\n<ul>\n", h);
    for (uint32_t v = 0; v < n_names; v++) {
        double below, at;
        uint32_t k = saturation_in(pt, n, names[v], idx, &below, &at), u = 0;
        for (uint32_t j = 0; j < k; j++)
            u += unsteady(&pt[idx[j]].r);
        fputs("<li>", h);
        report_html_str(h, names[v]);
        if (at < 0 && below < 0)
            fputs(": no point judged", h);
        else if (at < 0)
            fprintf(h, ": not saturated up to %.4g", below);
        else if (below < 0)
            fprintf(h, ": saturated already at %.4g, the lowest load run",
                    at);
        else
            fprintf(h, ": saturates between %.4g and %.4g", below, at);
        if (u)
            fprintf(h, " (%u of its %u points not steady: lengthen "
                       "warm-up; their saturation is not judged)",
                    u, k);
        fputs("</li>\n", h);
    }
    fputs("</ul>\n<p class=\"note\">Saturated: accepted below offered, or "
          "the source queues grew, beyond the sampling noise (exp/traffic.h)"
          "; a saturated point's latency is a growing queue's, not the "
          "load's. Crosses mark them in the figures.</p>\n",
          h);
}

/* The figures (drawn: whether gnuplot drew them; the latency and paths
 * ones only when some point has packets: `measured`), or why they are
 * missing. */
static void html_figures(FILE *h, const char *dir, uint32_t n, bool drawn,
                         bool measured)
{
    if (drawn) {
        if (measured)
            report_html_figure(h, dir, "traffic_latency.svg",
                               "packet latency against offered load");
        report_html_figure(h, dir, "traffic_accepted.svg",
                           "accepted against offered load");
        if (measured)
            report_html_figure(h, dir, "traffic_paths.svg",
                               "share of packets routed non-minimally and "
                               "mean hops against offered load");
    } else if (n > 0) {
        fputs("<p class=\"note\">The figures were not drawn: gnuplot is not "
              "installed (Debian: apt-get install gnuplot-nox) or failed "
              "(traffic.log). Draw them with <code>gnuplot traffic.gp</code> "
              "in this folder.</p>\n",
              h);
    }
    if (!measured)
        fputs("<p class=\"note\">No point measured a packet (nothing was "
              "delivered in a measured window), so there is no latency and "
              "no path to draw.</p>\n",
              h);
}

/* The table of the points, per routing by load (idx: room for n), and
 * the page's end. */
static void html_points(FILE *h, const struct traffic_point *pt,
                        uint32_t n, const char *const *names,
                        uint32_t n_names, uint32_t *idx)
{
    fputs("<h2>Points</h2>\n<table>\n<tr><th>routing</th><th>load</th>"
          "<th>offered</th><th>accepted</th><th>mean latency (ns)</th>"
          "<th>median (ns)</th><th>p99 (ns)</th><th>mean hops</th>"
          "<th>non-minimal</th><th>saturated</th></tr>\n",
          h);
    for (uint32_t v = 0; v < n_names; v++) {
        uint32_t k = points_of(pt, n, names[v], idx);
        for (uint32_t j = 0; j < k; j++) {
            const struct traffic_point *q = &pt[idx[j]];
            bool m = q->r.packets > 0;
            fputs("<tr><td>", h);
            report_html_str(h, q->routing);
            fputs("</td>", h);
            html_num(h, 4, q->load, true, false);
            html_num(h, 3, q->r.offered, true, false);
            html_num(h, 3, q->r.accepted, true, false);
            html_num(h, 1, q->r.lat_mean_ns, m, false);
            html_num(h, 0, q->r.lat_median_ns, m, false);
            html_num(h, 0, q->r.lat_p99_ns, m, false);
            html_num(h, 2, q->r.hops_mean, m, false);
            html_num(h, 1, 100.0 * q->r.frac_nonmin, m, true);
            fprintf(h, "<td>%s</td></tr>\n",
                    q->r.saturated       ? "yes"
                    : unsteady(&q->r) ? "not steady"
                                         : "");
        }
    }
    fputs("</table>\n</body></html>\n", h);
}

int traffic_report_write(const char *dir,
                         const struct traffic_report_info *info,
                         const struct traffic_point *pt, uint32_t n,
                         bool *drawn, FILE *err)
{
    *drawn = false;
    int rc = -1;
    FILE *dat = NULL, *gp = NULL, *h = NULL;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!names || !idx) {
        if (err)
            fprintf(err, "dfsim: out of memory\n");
        goto out;
    }
    uint32_t n_names = routings_of(pt, n, names);
    double xmax = 0, ymax = 0;
    bool measured = false;
    for (uint32_t i = 0; i < n; i++) {
        const struct traffic_result *r = &pt[i].r;
        xmax = r->offered > xmax ? r->offered : xmax;
        ymax = r->offered > ymax ? r->offered : ymax;
        ymax = r->accepted > ymax ? r->accepted : ymax;
        measured = measured || r->packets > 0;
    }
    xmax = xmax > 0 ? 1.05 * xmax : 1;
    ymax = ymax > 0 ? 1.05 * ymax : 1;

    dat = report_open(dir, "traffic.dat", err);
    gp = dat ? report_open(dir, "traffic.gp", err) : NULL;
    if (!gp)
        goto out;
    write_dat(dat, pt, names, n_names, n, idx);
    write_gp(gp, names, n_names, xmax, ymax, measured);
    bool ok = fclose(dat) == 0;
    ok = fclose(gp) == 0 && ok;
    dat = gp = NULL;
    *drawn = ok && n > 0 &&
             report_gnuplot(dir, "traffic.gp", "traffic.log") == 0;

    h = report_open(dir, info->page, err);
    if (!h)
        goto out;
    report_html_head(h, info->title, info->description, "62em", 1);
    fputs("<p>Synthetic traffic on ", h);
    report_html_str(h, info->system);
    fputs(": pattern ", h);
    report_html_str(h, info->pattern);
    fprintf(h, ", %" PRId64 "-byte messages, %.1f us warm-up, %.1f us "
               "measured, seed %" PRIu64 ". Loads are shares of the NICs' "
               "injection rate; offered and accepted are measured in the "
               "window. Data: traffic.csv (traffic.dat for the "
               "figures).</p>\n",
            info->size, info->warmup_us, info->measure_us, info->seed);

    html_saturation(h, pt, n, names, n_names, idx);
    html_figures(h, dir, n, *drawn, measured);
    html_points(h, pt, n, names, n_names, idx);
    ok = fclose(h) == 0 && ok;
    h = NULL;
    if (ok)
        rc = 0;
    else if (err)
        fprintf(err, "dfsim: cannot write the traffic report in %s\n", dir);
out:
    if (dat)
        fclose(dat);
    if (gp)
        fclose(gp);
    if (h)
        fclose(h);
    free(names);
    free(idx);
    return rc;
}
