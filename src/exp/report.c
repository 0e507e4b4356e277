/* exp/report.c — see report.h. */
#include "exp/report.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Variant colours, in order of appearance (Paul Tol's "bright" scheme,
 * readable by colour-blind readers). */
static const char *const colours[] = { "#4477aa", "#ee6677", "#228833",
                                       "#ccbb44", "#66ccee", "#aa3377",
                                       "#bbbbbb", "#000000" };
#define N_COLOURS (sizeof colours / sizeof colours[0])

static FILE *open_in(const char *dir, const char *name, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f && err)
        fprintf(err, "dfsim: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* The distinct variants, in order of first appearance. */
static uint32_t variant_index(const struct report_series *s, uint32_t n,
                              const char *v, const char **names,
                              uint32_t *n_names)
{
    (void)s;
    (void)n;
    for (uint32_t i = 0; i < *n_names; i++)
        if (strcmp(names[i], v) == 0)
            return i;
    names[*n_names] = v;
    return (*n_names)++;
}

/* gnuplot string: double quotes and backslashes escaped. */
static void gp_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void html_str(FILE *f, const char *s)
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

static int write_data_and_script(const char *dir,
                                 const struct report_series *s, uint32_t n,
                                 FILE *err)
{
    FILE *dat = open_in(dir, "variants.dat", err);
    FILE *gp = open_in(dir, "variants.gp", err);
    if (!dat || !gp) {
        if (dat)
            fclose(dat);
        if (gp)
            fclose(gp);
        return -1;
    }
    const char *vnames[64];
    uint32_t n_v = 0;
    /* jobs in order, each job's variants in order */
    const char *jobs[1024];
    uint32_t n_jobs = 0;
    for (uint32_t i = 0; i < n && n_jobs < 1024; i++) {
        if (n_jobs == 0 || strcmp(jobs[n_jobs - 1], s[i].job) != 0)
            jobs[n_jobs++] = s[i].job;
        if (n_v < 64)
            variant_index(s, n, s[i].variant, vnames, &n_v);
    }
    fprintf(dat, "# dfsim: iteration times / the baseline variant's median,"
                 " one block per job and variant\n");
    for (uint32_t i = 0; i < n; i++) {
        fprintf(dat, "# %s %s\n", s[i].job, s[i].variant);
        for (uint32_t k = 0; k < s[i].n; k++)
            fprintf(dat, "%.6f\n", s[i].norm[k]);
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
                "set ylabel \"time / median of the job's first variant\"\n"
                "set offsets 0, 0, 0.05, 0.05\n"
                "set xrange [0.4:%u.6]\n"
                "set arrow from graph 0, first 1 to graph 1, first 1 "
                "nohead dt 2 lc rgb \"#555555\"\n"
                "set bmargin 6\n",
            (int)(width > 480 ? width : 480),
            0.8 / (n_v ? n_v : 1), n_jobs);
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
        gp_str(gp, jobs[j]);
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
        uint32_t v = variant_index(s, n, s[i].variant, vnames, &n_v);
        double x = (j + 1) + ((double)v - (n_v - 1) / 2.0) * (0.85 / n_v);
        fprintf(gp, "  \"variants.dat\" index %u using (%.4f):1 with boxplot "
                    "lc rgb \"%s\" ",
                i, x, colours[v % N_COLOURS]);
        if (v < 64 && !titled[v]) {
            fprintf(gp, "title \"");
            gp_str(gp, s[i].variant);
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
          "<th>iterations</th><th>median (us)</th><th>Q1 - Q3 (us)</th>"
          "<th>QCD</th><th>95% CI of the median (us)</th>"
          "<th>normalised median</th><th>bytes with ADAPTIVE_0/1</th>"
          "</tr>\n",
          h);
    for (uint32_t i = 0; i < n; i++) {
        const struct stats_summary *st = &s[i].st;
        fputs("<tr><td>", h);
        html_str(h, s[i].job);
        fputs("</td><td>", h);
        html_str(h, s[i].workload);
        fputs("</td><td>", h);
        html_str(h, s[i].variant);
        fprintf(h, "</td><td>%u</td><td>%.3f</td><td>%.3f - %.3f</td>"
                   "<td>%.4f</td>",
                st->n, st->median, st->q1, st->q3, st->qcd);
        if (isnan(st->ci_lo))
            fputs("<td>(fewer than 6)</td>", h);
        else
            fprintf(h, "<td>%.3f - %.3f</td>", st->ci_lo, st->ci_hi);
        fprintf(h, "<td>%.3f</td><td>%.0f%%</td></tr>\n",
                s[i].baseline_median > 0 ? st->median / s[i].baseline_median
                                         : 0.0,
                100 * s[i].share_default);
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
    FILE *h = open_in(dir, "report.html", err);
    if (!h)
        return -1;
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>",
          h);
    html_str(h, info->title);
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:72em;"
          "margin:2em auto;padding:0 1em;color:#222}table{border-collapse:"
          "collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em "
          ".6em;text-align:right}th{background:#f4f4f4}td:first-child,"
          "td:nth-child(2),td:nth-child(3){text-align:left}img{max-width:"
          "100%}.note{color:#555}</style>\n</head><body>\n<h1>",
          h);
    html_str(h, info->title);
    fputs("</h1>\n", h);
    if (info->description) {
        fputs("<p>", h);
        html_str(h, info->description);
        fputs("</p>\n", h);
    }
    fputs("<p class=\"note\">System <b>", h);
    html_str(h, info->system);
    fputs("</b>, network routing ", h);
    html_str(h, info->routing);
    fprintf(h, ", seed %llu. Iteration times of each job under each of its "
               "routing variants, alternated iteration by iteration on one "
               "allocation (SC'19 &sect;3); normalised to the median of the "
               "job's first variant. Data: iterations.csv, variants.csv.</p>"
               "\n",
            (unsigned long long)info->seed);
    if (*drawn)
        fputs("<p><img src=\"variants.svg\" alt=\"box plots of normalised "
              "iteration times\"></p>\n",
              h);
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
    fputs("<p class=\"note\">Boxes: quartiles (Hyndman-Fan type 7); "
          "whiskers: 1.5 IQR; QCD = (Q3 - Q1) / (Q3 + Q1); the CI of the "
          "median by order statistics (Le Boudec). The last column is the "
          "share of the variant's bytes sent with ADAPTIVE_0 or ADAPTIVE_1 "
          "(SC'19 Fig. 8's percentages for the app-aware variant).</p>\n"
          "</body></html>\n",
          h);
    if (fclose(h) != 0)
        return -1;
    return 0;
}
