/* results/impact_report.c — the congestion-impact study's outputs (see
 * impact.h): impact.csv, the console's tables, GPCNeT's "Key Results"
 * table and the heat maps of SC'20 Fig. 9 in report.html.
 *
 * The heat maps: one column per victim, one row per aggressor type and
 * share (Fig. 9's layout, the aggressor's rows grouped), each cell
 * coloured by C on a logarithmic scale (C spans 1 to ~100 on Aries:
 * Fig. 9's 93x) and labelled with its value as the figure prints it
 * (impact_format). Drawn by gnuplot from impact.dat and impact.gp,
 * written next to the page so they can be redrawn by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/gpcnet.h"
#include "app/workload.h"
#include "results/impact_results.h"
#include "results/report.h"

void impact_format(char *buf, size_t cap, double c)
{
    if (isnan(c) || isinf(c))
        snprintf(buf, cap, "-");
    else if (c < 9.95) /* what "%.1f" would print as 10.0 is "10" */
        snprintf(buf, cap, "%.1f", c);
    else
        snprintf(buf, cap, "%.0f", c);
}

/* ---- impact.csv ----------------------------------------------------------- */

void impact_csv_header(FILE *f)
{
    fprintf(f, "victim,workload,aggressor,aggressor_workload,share,"
               "victim_nodes,aggressor_nodes,iterations_isolated,"
               "iterations_congested,finished,t_isolated_us,t_congested_us,"
               "impact,p99_isolated_us,p99_congested_us,impact_p99,"
               "median_isolated_us,median_congested_us,gpcnet_unit,"
               "gpcnet_avg_isolated,gpcnet_p99_isolated,"
               "gpcnet_avg_congested,gpcnet_p99_congested,"
               "gpcnet_impact_avg,gpcnet_impact_p99,runs,impact_runs_mean,"
               "impact_runs_p99,impact_runs_max\n");
}

void impact_csv_num(FILE *f, double v, bool comma)
{
    if (comma)
        fputc(',', f);
    if (!isnan(v) && !isinf(v))
        fprintf(f, "%.6f", v);
}

void impact_csv_row(FILE *f, const struct impact_config *ic,
                    const struct impact_cell *c, const struct cfg_floats *sh)
{
    const struct job_config *v = &ic->victim[c->victim];
    const struct job_config *a = &ic->aggressor[c->aggressor];
    fprintf(f, "%s,%s,%s,%s,%.6f,%u,%u,%u,%u,%d", v->name, v->workload->name,
            a->name, a->workload->name, sh->v[c->share], c->victim_nodes,
            c->aggressor_nodes, c->n_iso, c->n_con, c->finished ? 1 : 0);
    impact_csv_num(f, c->t_iso, true);
    impact_csv_num(f, c->t_con, true);
    impact_csv_num(f, c->c, true);
    impact_csv_num(f, c->p99_iso, true);
    impact_csv_num(f, c->p99_con, true);
    impact_csv_num(f, c->c_p99, true);
    impact_csv_num(f, c->med_iso, true);
    impact_csv_num(f, c->med_con, true);
    if (c->gpcnet) {
        fprintf(f, ",%s", c->gpcnet_bw ? "MiB/s/rank" : "usec");
        impact_csv_num(f, c->g_avg_iso, true);
        impact_csv_num(f, c->g_p99_iso, true);
        impact_csv_num(f, c->g_avg_con, true);
        impact_csv_num(f, c->g_p99_con, true);
        impact_csv_num(f, c->g_c_avg, true);
        impact_csv_num(f, c->g_c_p99, true);
    } else {
        fputs(",,,,,,,", f);
    }
    fprintf(f, ",%u", c->runs_n);
    impact_csv_num(f, c->c_runs_mean, true);
    impact_csv_num(f, c->c_runs_p99, true);
    impact_csv_num(f, c->c_runs_max, true);
    fputc('\n', f);
}

/* ---- GPCNeT's key results -------------------------------------------------- */

/* The test's name as network_load_test prints it, with this victim's
 * size. */
static void gpcnet_name(char *buf, size_t cap, const struct job_config *j)
{
    const struct gpcnet_params *p = (const void *)j->params;
    unsigned long long b = (unsigned long long)p->bytes;
    switch (p->kernel) {
    case GPCNET_RR_LATENCY:
        snprintf(buf, cap, "RR Two-sided Lat (%llu B)", b);
        break;
    case GPCNET_RR_BW_SYNC:
        snprintf(buf, cap, "RR Two-sided BW+Sync (%llu B)", b);
        break;
    case GPCNET_ALLREDUCE:
        snprintf(buf, cap, "Multiple Allreduce (%llu B)", b);
        break;
    default:
        snprintf(buf, cap, "%s", j->name);
        break;
    }
}

/* The table's frame: 78 characters between the outer corners; the name
 * column 33 wide, the two factor columns 22 and 21 (GPCNeT v1.3's
 * print_comparison_results, as it prints). */
#define GP_RULE_FULL                                                         \
    "+------------------------------------------------------------------------------+\n"
#define GP_RULE_TWO                                                          \
    "+---------------------------------+--------------------------------------------+\n"
#define GP_RULE_THREE                                                        \
    "+---------------------------------+----------------------+---------------------+\n"

void impact_print_gpcnet(FILE *out, const struct impact_config *ic,
                         const struct impact_cell *cells, uint32_t n)
{
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        any = any || cells[i].gpcnet;
    if (!any)
        return;
    static const char title[] =
        "Network Tests running with Congestion Tests - Key Results";
    int len = (int)strlen(title), left = (78 - len) / 2;
    fputs(GP_RULE_FULL, out);
    fprintf(out, "|%*s%s%*s|\n", left, "", title, 78 - len - left, "");
    fputs(GP_RULE_TWO, out);
    fprintf(out, "| %31s | %42s |\n", "Name", "Congestion Impact Factor");
    fputs(GP_RULE_THREE, out);
    fprintf(out, "| %31s | %20s | %19s |\n", "", "Avg", "99%");
    fputs(GP_RULE_THREE, out);
    for (uint32_t i = 0; i < n; i++) {
        const struct impact_cell *c = &cells[i];
        if (!c->gpcnet)
            continue;
        char name[64], avg[32], p99[32];
        gpcnet_name(name, sizeof name, &ic->victim[c->victim]);
        snprintf(avg, sizeof avg, "%.1fX", c->g_c_avg);
        snprintf(p99, sizeof p99, "%.1fX", c->g_c_p99);
        fprintf(out, "| %31s | %20s | %19s |\n", name, avg, p99);
        fputs(GP_RULE_THREE, out);
    }
}

/* ---- the console ---------------------------------------------------------- */

/* A time in us with 3 decimals, or "-". */
/* Whether a row of cells (one aggressor and share, n_v victims) has a
 * GPCNeT victim, whose key results GPCNeT prints for it. */
static bool row_has_gpcnet(const struct impact_cell *row, uint32_t n_v)
{
    for (uint32_t v = 0; v < n_v; v++)
        if (row[v].gpcnet)
            return true;
    return false;
}

static void fmt_us(char *buf, size_t cap, double v)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.3f", v);
}

static void fmt_c(char *buf, size_t cap, double v)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.2f", v);
}

/* A cell's six figures as the console and the page show them: the
 * times in us, the impacts to 0.01, "-" where there is none. */
struct cell_text {
    char ti[32], tc[32], cc[32], pi[32], pc[32], cp[32];
};

static void cell_text(const struct impact_cell *c, struct cell_text *t)
{
    fmt_us(t->ti, sizeof t->ti, c->t_iso);
    fmt_us(t->tc, sizeof t->tc, c->t_con);
    fmt_c(t->cc, sizeof t->cc, c->c);
    fmt_us(t->pi, sizeof t->pi, c->p99_iso);
    fmt_us(t->pc, sizeof t->pc, c->p99_con);
    fmt_c(t->cp, sizeof t->cp, c->c_p99);
}

void impact_print_table(FILE *out, const struct impact_config *ic,
                        const struct impact_cell *cells, uint32_t n)
{
    fprintf(out, "\ncongestion impact C = T_congested / T_isolated (SC'20 "
                 "Eq. 1), T the mean iteration time (the slowest rank's); "
                 "C_p99 of the 99th percentiles\n");
    fprintf(out, "%-20s %-20s %6s %11s %12s %12s %7s %12s %12s %7s\n",
            "victim", "aggressor", "share", "nodes v+a", "T_iso (us)",
            "T_con (us)", "C", "p99 iso", "p99 con", "C_p99");
    for (uint32_t i = 0; i < n; i++) {
        const struct impact_cell *c = &cells[i];
        char nodes[32];
        struct cell_text t;
        snprintf(nodes, sizeof nodes, "%u+%u", c->victim_nodes,
                 c->aggressor_nodes);
        cell_text(c, &t);
        fprintf(out, "%-20s %-20s %6.2f %11s %12s %12s %7s %12s %12s %7s%s\n",
                ic->victim[c->victim].name, ic->aggressor[c->aggressor].name,
                ic->shares.v[c->share], nodes, t.ti, t.tc, t.cc, t.pi, t.pc,
                t.cp,
                c->finished ? "" : "  unfinished");
    }
    /* SC'20 Fig. 9's layout: a column per victim, a row per aggressor and
     * share */
    uint32_t n_v = ic->n_victims;
    int w = 12; /* as wide as the longest victim name, up to 24 */
    for (uint32_t v = 0; v < n_v; v++) {
        size_t len = strlen(ic->victim[v].name);
        if (len > (size_t)w)
            w = len < 24 ? (int)len : 24;
    }
    fprintf(out, "\nC as SC'20 Fig. 9 (rows: aggressor, its share of the "
                 "nodes; columns: victims)\n%-26s",
            "");
    for (uint32_t v = 0; v < n_v; v++)
        fprintf(out, " %*.*s", w, w, ic->victim[v].name);
    fputc('\n', out);
    for (uint32_t r = 0; r * n_v < n; r++) {
        const struct impact_cell *c = &cells[r * n_v];
        char row[64];
        snprintf(row, sizeof row, "%s %g%%",
                 ic->aggressor[c->aggressor].name,
                 100 * ic->shares.v[c->share]);
        fprintf(out, "%-26.26s", row);
        for (uint32_t v = 0; v < n_v; v++) {
            char b[32];
            impact_format(b, sizeof b, cells[r * n_v + v].c);
            fprintf(out, " %*s", w, b);
        }
        fputc('\n', out);
    }
    /* over placements (ICS'21 Fig. 5): with several runs, each run's C */
    if (ic->runs > 1) {
        fprintf(out, "\nruntime increase per placement (ICS'21 Fig. 5): C_r "
                     "of each run (its mean congested / its mean isolated "
                     "iteration, same nodes), over the %u runs\n",
                ic->runs);
        fprintf(out, "%-20s %-20s %6s %5s %8s %8s %8s\n", "victim",
                "aggressor", "share", "runs", "mean", "p99", "max");
        for (uint32_t i = 0; i < n; i++) {
            const struct impact_cell *c = &cells[i];
            char m[32], p[32], x[32];
            fmt_c(m, sizeof m, c->c_runs_mean);
            fmt_c(p, sizeof p, c->c_runs_p99);
            fmt_c(x, sizeof x, c->c_runs_max);
            fprintf(out, "%-20s %-20s %6.2f %5u %8s %8s %8s\n",
                    ic->victim[c->victim].name,
                    ic->aggressor[c->aggressor].name, ic->shares.v[c->share],
                    c->runs_n, m, p, x);
        }
    }
    /* GPCNeT's table per aggressor and share, as network_load_test
     * prints it after each of its runs */
    for (uint32_t r = 0; r * n_v < n; r++) {
        const struct impact_cell *c = &cells[r * n_v];
        if (!row_has_gpcnet(c, n_v))
            continue;
        fprintf(out, "\nGPCNeT key results, aggressor %s on %g%% of the "
                     "nodes (%u):\n",
                ic->aggressor[c->aggressor].name,
                100 * ic->shares.v[c->share], c->aggressor_nodes);
        impact_print_gpcnet(out, ic, &cells[r * n_v], n_v);
    }
}

/* ---- the heat maps ---------------------------------------------------------- */

/* gnuplot string: quoted, double quotes and backslashes escaped. */
static void gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    report_gp_str(f, s);
    fputc('"', f);
}

/* A tic label: a gnuplot string that gnuplot also reads as a format,
 * so its per cent signs are doubled. */
static void gp_tic(FILE *f, const char *s)
{
    char buf[256];
    size_t k = 0;
    for (; *s && k + 3 < sizeof buf; s++) {
        if (*s == '%')
            buf[k++] = '%';
        buf[k++] = *s;
    }
    buf[k] = '\0';
    gp_str(f, buf);
}

static double cell_value(const struct impact_cell *c, int which)
{
    return which == 0 ? c->c : c->c_p99;
}

/* impact.dat: per map (C, then C_p99) a block of the coloured cells
 * (x = victim, y = row, C; finite values only) and a block of every
 * cell's label. */
static void write_dat(FILE *f, const struct impact_cell *cells, uint32_t n,
                      uint32_t n_v)
{
    for (int which = 0; which < 2; which++) {
        fprintf(f, "# %s: x (victim) y (aggressor and share) value\n",
                which == 0 ? "C" : "C_p99");
        for (uint32_t i = 0; i < n; i++) {
            double v = cell_value(&cells[i], which);
            if (!isnan(v) && !isinf(v) && v > 0)
                fprintf(f, "%u %u %.6f\n", i % n_v, i / n_v, v);
        }
        fprintf(f, "\n\n# labels\n");
        for (uint32_t i = 0; i < n; i++) {
            char b[32];
            impact_format(b, sizeof b, cell_value(&cells[i], which));
            fprintf(f, "%u %u \"%s\"\n", i % n_v, i / n_v, b);
        }
        fprintf(f, "\n\n");
    }
}

/* impact.gp: both maps. The colour scale runs from min(1, least C) to
 * max(2, largest C) on a log axis: 1 (no impact) is always white-ish and
 * a study where nothing slows down does not stretch noise over the whole
 * palette. */
static void write_gp(FILE *f, const struct impact_config *ic,
                     const struct impact_cell *cells, uint32_t n)
{
    uint32_t n_v = ic->n_victims, rows = n_v ? n / n_v : 0;
    /* room for the row labels and the colour box, then a cell of about
     * 90 x 36 px each: wide enough for a rotated victim name's column */
    int w = 260 + 90 * (int)n_v, h = 200 + 36 * (int)rows;
    for (int which = 0; which < 2; which++) {
        double lo = 1, hi = 2;
        for (uint32_t i = 0; i < n; i++) {
            double v = cell_value(&cells[i], which);
            if (isnan(v) || isinf(v) || v <= 0)
                continue;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        fprintf(f,
                "set terminal svg size %d,%d dynamic noenhanced font "
                "\"sans,11\" background rgb \"white\"\n"
                "set output \"%s\"\n"
                "set title \"%s\"\n"
                "unset key\n"
                "set logscale cb\n"
                "set cbrange [%g:%g]\n"
                "set cblabel \"%s\"\n"
                "set palette defined (0 \"#ffffff\", 0.25 \"#fee8c8\", "
                "0.5 \"#fdbb84\", 0.75 \"#fc8d59\", 1 \"#e34a33\")\n"
                "set xrange [-0.5:%g]\n"
                "set yrange [%g:-0.5]\n"
                "set tics scale 0\n"
                "set xtics rotate by -30 left\n",
                w, h, which == 0 ? "impact.svg" : "impact_p99.svg",
                which == 0 ? "congestion impact C = T_congested / "
                             "T_isolated (mean iteration time, SC'20 Eq. 1)"
                           : "congestion impact on the 99th percentile of "
                             "the iteration time",
                lo, hi, which == 0 ? "C" : "C_p99", (double)n_v - 0.5,
                (double)rows - 0.5);
        fputs("set xtics (", f);
        for (uint32_t v = 0; v < n_v; v++) {
            if (v)
                fputs(", ", f);
            gp_tic(f, ic->victim[v].name);
            fprintf(f, " %u", v);
        }
        fputs(")\nset ytics (", f);
        for (uint32_t r = 0; r < rows; r++) {
            const struct impact_cell *c = &cells[r * n_v];
            char row[96];
            snprintf(row, sizeof row, "%s %g%%",
                     ic->aggressor[c->aggressor].name,
                     100 * ic->shares.v[c->share]);
            if (r)
                fputs(", ", f);
            gp_tic(f, row);
            fprintf(f, " %u", r);
        }
        fprintf(f, ")\n"
                   "plot \"impact.dat\" index %d using 1:2:(0.5):(0.5):3 "
                   "with boxxyerror fillstyle solid 1.0 noborder lc palette, "
                   "\\\n     \"impact.dat\" index %d using 1:2:3 with labels "
                   "textcolor rgb \"black\"\n",
                   2 * which, 2 * which + 1);
    }
}

/* latency.svg (with the latency model): ICS'21 Fig. 4a's view of the
 * fit from latency_model.csv — each round trip's estimate against its
 * measurement (log axes, the diagonal and +-30 %), and the distribution
 * of the percentage error. */
static void write_latency_gp(FILE *f)
{
    fputs("set terminal svg size 1000,420 dynamic noenhanced font "
          "\"sans,11\" background rgb \"white\"\n"
          "set output \"latency.svg\"\n"
          "set datafile separator \",\"\n"
          "set multiplot layout 1,2 title \"Netscope's latency model "
          "(ICS'21 §4.2): round trips estimated from the link counters\"\n"
          "set logscale xy\n"
          "set xlabel \"measured RTT (us)\"\n"
          "set ylabel \"estimated RTT (us)\"\n"
          "set key top left\n"
          "plot \"latency_model.csv\" every ::1 using 3:4 with points pt 7 "
          "ps 0.6 title \"round trips\", x title \"estimate = "
          "measured\" lc rgb \"black\", 1.3*x title \"+-30 %\" dt 2 lc "
          "rgb \"grey\", 0.7*x notitle dt 2 lc rgb \"grey\"\n"
          "unset logscale\n"
          "set xlabel \"|error| (%)\"\n"
          "set ylabel \"share of the round trips\"\n"
          "set yrange [0:1]\n"
          "set arrow from 30, graph 0 to 30, graph 1 nohead dt 2\n"
          "set key bottom right\n"
          "plot \"latency_model.csv\" every ::1 using (abs($5)):(1.0) "
          "smooth cnormal title \"cumulative\" lw 2\n"
          "unset multiplot\n",
          f);
}

/* impact_time.svg: every victim iteration beside an aggressor, its
 * impact against the time since the aggressor started (impact_time.csv;
 * log axes): the transient and the steady state. */
static void write_time_gp(FILE *f)
{
    fputs("set terminal svg size 800,440 dynamic noenhanced font "
          "\"sans,11\" background rgb \"white\"\n"
          "set output \"impact_time.svg\"\n"
          "set datafile separator \",\"\n"
          "set title \"each victim iteration beside an aggressor: its time "
          "over the victim's mean alone, against the time since the "
          "aggressor started\"\n"
          "set logscale xy\n"
          "set grid\n"
          "set xlabel \"since the aggressor started (us)\"\n"
          "set ylabel \"iteration time / mean alone\"\n"
          "plot \"impact_time.csv\" every ::1 using 8:10 with points pt 7 "
          "ps 0.5 notitle, 1 notitle lc rgb \"black\" dt 2\n",
          f);
}

/* The page's table: a row per cell (victim, aggressor and share), its
 * times and C as the console's table gives them. */
static void html_table(FILE *h, const struct impact_config *ic,
                       const struct impact_cell *cells, uint32_t n)
{
    fputs("<table>\n<tr><th>victim</th><th>aggressor</th><th>share</th>"
          "<th>nodes v+a</th><th>T<sub>iso</sub> (us)</th>"
          "<th>T<sub>con</sub> (us)</th><th>C</th><th>p99 iso (us)</th>"
          "<th>p99 con (us)</th><th>C<sub>p99</sub></th></tr>\n",
          h);
    for (uint32_t i = 0; i < n; i++) {
        const struct impact_cell *c = &cells[i];
        struct cell_text t;
        cell_text(c, &t);
        fputs("<tr><td>", h);
        report_html_str(h, ic->victim[c->victim].name);
        fputs("</td><td>", h);
        report_html_str(h, ic->aggressor[c->aggressor].name);
        fprintf(h, "</td><td>%g%%</td><td>%u+%u</td><td>%s</td><td>%s</td>"
                   "<td>%s</td><td>%s</td><td>%s</td><td>%s%s</td></tr>\n",
                100 * ic->shares.v[c->share], c->victim_nodes,
                c->aggressor_nodes, t.ti, t.tc, t.cc, t.pi, t.pc, t.cp,
                c->finished ? "" : " (unfinished)");
    }
    fputs("</table>\n", h);
}

/* GPCNeT's "Key Results" table per aggressor and share whose victims
 * include GPCNeT's tests, as on the console. */
static void html_gpcnet(FILE *h, const struct impact_config *ic,
                        const struct impact_cell *cells, uint32_t n)
{
    bool any = false;
    for (uint32_t i = 0; i < n; i++)
        any = any || cells[i].gpcnet;
    uint32_t n_v = ic->n_victims;
    if (any && n_v) {
        fputs("<h2>GPCNeT key results</h2>\n<p class=\"note\">As "
              "network_load_test prints them: each figure rounded to 0.1, "
              "then congested / isolated (latencies) or isolated / "
              "congested (bandwidths).</p>\n",
              h);
        for (uint32_t r = 0; r * n_v < n; r++) {
            const struct impact_cell *c = &cells[r * n_v];
            if (!row_has_gpcnet(c, n_v))
                continue;
            fputs("<p>Aggressor ", h);
            report_html_str(h, ic->aggressor[c->aggressor].name);
            fprintf(h, " on %g%% of the nodes:</p>\n<pre>",
                    100 * ic->shares.v[c->share]);
            impact_print_gpcnet(h, ic, &cells[r * n_v], n_v);
            fputs("</pre>\n", h);
        }
    }
}

int impact_report(const char *dir, const struct impact_config *ic,
                  const struct impact_cell *cells, uint32_t n,
                  const struct impact_report_info *info, bool *drawn,
                  FILE *err)
{
    *drawn = false;
    FILE *dat = report_open(dir, "impact.dat", err);
    if (!dat)
        return -1;
    write_dat(dat, cells, n, ic->n_victims);
    if (fclose(dat) != 0)
        return -1;
    FILE *gp = report_open(dir, "impact.gp", err);
    if (!gp)
        return -1;
    write_gp(gp, ic, cells, n);
    if (fclose(gp) != 0)
        return -1;
    *drawn = n > 0 && report_gnuplot(dir, "impact.gp", "impact.log") == 0;
    FILE *tg = report_open(dir, "impact_time.gp", err);
    if (!tg)
        return -1;
    write_time_gp(tg);
    if (fclose(tg) != 0)
        return -1;
    bool time_drawn = n > 0 &&
                      report_gnuplot(dir, "impact_time.gp",
                                     "impact_time.log") == 0;
    bool lat_drawn = false;
    if (ic->latency_model) {
        FILE *lg = report_open(dir, "latency.gp", err);
        if (!lg)
            return -1;
        write_latency_gp(lg);
        if (fclose(lg) != 0)
            return -1;
        lat_drawn = report_gnuplot(dir, "latency.gp", "latency.log") == 0;
    }

    FILE *h = report_open(dir, "report.html", err);
    if (!h)
        return -1;
    report_html_head(h, info->title, info->description, "80em", 2);
    fputs("<p class=\"note\">System <b>", h);
    report_html_str(h, info->system);
    fputs("</b>, network routing ", h);
    report_html_str(h, info->routing);
    fprintf(h, ", seed %llu, %u run%s, placement ",
            (unsigned long long)info->seed, ic->runs,
            ic->runs == 1 ? "" : "s");
    report_html_str(h, ic->allocation->name);
    fputs(". Each victim ran alone and then with each aggressor on the same "
          "nodes with the same seed; C = T<sub>congested</sub> / "
          "T<sub>isolated</sub> (SC'20 Eq. 1), T the mean of the victim's "
          "iteration times (each the slowest rank's). Data: impact.csv, "
          "impact_runs.csv, iterations.csv.</p>\n",
          h);
    if (*drawn) {
        report_html_figure(h, dir, "impact.svg",
                           "heat map of the congestion impact");
        report_html_figure(h, dir, "impact_p99.svg",
                           "heat map of the impact on the 99th percentile");
    } else {
        fputs("<p class=\"note\">The heat maps were not drawn: gnuplot is "
              "not installed (Debian: apt-get install gnuplot-nox) or failed "
              "(impact.log). Draw them with <code>gnuplot impact.gp</code> "
              "in this folder.</p>\n",
              h);
    }
    if (time_drawn) {
        report_html_figure(h, dir, "impact_time.svg",
                           "the impact of each victim iteration against the "
                           "time since the aggressor started");
        fputs("<p class=\"note\">The impact over time: impact_time.csv "
              "(each iteration), impact_time_summary.csv (each simulation's "
              "first and second half: the transient and the steady "
              "state).</p>\n",
              h);
    }
    if (lat_drawn) {
        report_html_figure(h, dir, "latency.svg",
                           "the latency model's estimates against the "
                           "measured round trips");
        fputs("<p class=\"note\">Netscope's latency model (ICS'21 §4.2, "
              "Fig. 4a): latency_model.csv, sensitivity.csv.</p>\n",
              h);
    }
    if (info->unfitted && *info->unfitted) {
        /* a fit through too few points would be printed as a result
         * (issue 57): the reason in its place */
        fputs("<p class=\"note\">Delay sensitivity (ICS'21 &sect;4.1, "
              "T = c M + k; sensitivity.csv) not fitted: ",
              h);
        report_html_str(h, info->unfitted);
        fputs(". A fit needs 3 finished simulations of the victim or more "
              "(a line through 2 points passes through both, whatever they "
              "are): more shares, aggressors or runs give it more.</p>\n",
              h);
    }
    html_table(h, ic, cells, n);
    html_gpcnet(h, ic, cells, n);
    fputs("</body></html>\n", h);
    return fclose(h) == 0 ? 0 : -1;
}
