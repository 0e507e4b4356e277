/* results/impact_time.c — see impact_time.h. */
#include "results/impact_time.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/csv.h"
#include "results/impact_results.h"
#include "results/report.h"

/* The three files and the columns read. */
struct itf {
    struct csv runs, jobs, iters;
    int r_run, r_rep, r_share, r_victim, r_aggr, r_cc;
    int j_run, j_name, j_start;
    int i_run, i_name, i_counted, i_end, i_time;
};

static bool same(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* Row k of impact_runs.csv's field col. */
static const char *rf(const struct itf *x, uint32_t k, int col)
{
    return csv_at(&x->runs, k, col);
}

/* The alone simulation of congested row k (same victim, share, rep and
 * controller, no aggressor), or UINT32_MAX. */
static uint32_t alone_of(const struct itf *x, uint32_t k)
{
    for (uint32_t a = 0; a < x->runs.rows; a++)
        if (*rf(x, a, x->r_aggr) == '\0' &&
            same(rf(x, a, x->r_victim), rf(x, k, x->r_victim)) &&
            same(rf(x, a, x->r_share), rf(x, k, x->r_share)) &&
            same(rf(x, a, x->r_rep), rf(x, k, x->r_rep)) &&
            (x->r_cc < 0 || same(rf(x, a, x->r_cc), rf(x, k, x->r_cc))))
            return a;
    return UINT32_MAX;
}

/* The counted iterations of job `name` in simulation `run`: their ends
 * and times into end[], time[] (cap each); returns how many. */
static uint32_t iterations_of(const struct itf *x, const char *run,
                              const char *name, double *end, double *time,
                              uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->iters.rows && n < cap; i++)
        if (same(csv_at(&x->iters, i, x->i_run), run) &&
            same(csv_at(&x->iters, i, x->i_name), name) &&
            same(csv_at(&x->iters, i, x->i_counted), "1")) {
            end[n] = strtod(csv_at(&x->iters, i, x->i_end), NULL);
            time[n++] = strtod(csv_at(&x->iters, i, x->i_time), NULL);
        }
    return n;
}

/* The start of job `name` in simulation `run`, us, or NaN. */
static double start_of(const struct itf *x, const char *run,
                       const char *name)
{
    for (uint32_t j = 0; j < x->jobs.rows; j++)
        if (same(csv_at(&x->jobs, j, x->j_run), run) &&
            same(csv_at(&x->jobs, j, x->j_name), name)) {
            const char *s = csv_at(&x->jobs, j, x->j_start);
            return *s ? strtod(s, NULL) : NAN;
        }
    return NAN;
}

static double mean(const double *v, uint32_t n)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : NAN;
}

/* Congested row k's rows into f (every iteration) and s (the halves). */
static void write_sim(const struct itf *x, uint32_t k, double *buf,
                      uint32_t cap, FILE *f, FILE *s)
{
    uint32_t a = alone_of(x, k);
    const char *run = rf(x, k, x->r_run), *victim = rf(x, k, x->r_victim),
               *aggr = rf(x, k, x->r_aggr);
    double *end = buf, *time = buf + cap;
    double base = NAN;
    if (a != UINT32_MAX) {
        uint32_t n = iterations_of(x, rf(x, a, x->r_run), victim, end, time,
                                   cap);
        base = mean(time, n);
    }
    double t0 = start_of(x, run, aggr);
    uint32_t n = iterations_of(x, run, victim, end, time, cap);
    const char *cc = x->r_cc >= 0 ? rf(x, k, x->r_cc) : "";
    for (uint32_t i = 0; i < n; i++) {
        fprintf(f, "%s,%s,%s,%s,%s,%s,%u", run, victim, aggr, cc,
                rf(x, k, x->r_share), rf(x, k, x->r_rep), i);
        impact_csv_num(f, end[i] - t0, true);
        impact_csv_num(f, time[i], true);
        impact_csv_num(f, time[i] / base, true);
        fputc('\n', f);
    }
    uint32_t h = n / 2;
    fprintf(s, "%s,%s,%s,%s,%s,%s,%u", run, victim, aggr, cc,
            rf(x, k, x->r_share), rf(x, k, x->r_rep), n);
    impact_csv_num(s, n ? end[0] - t0 : NAN, true);
    impact_csv_num(s, h ? end[h - 1] - t0 : NAN, true);
    impact_csv_num(s, n ? end[n - 1] - t0 : NAN, true);
    impact_csv_num(s, mean(time, h) / base, true);
    impact_csv_num(s, mean(time + h, n - h) / base, true);
    fputc('\n', s);
}

static int columns(struct itf *x)
{
    x->r_run = csv_col(&x->runs, "run");
    x->r_rep = csv_col(&x->runs, "rep");
    x->r_share = csv_col(&x->runs, "share");
    x->r_victim = csv_col(&x->runs, "victim");
    x->r_aggr = csv_col(&x->runs, "aggressor");
    x->r_cc = csv_col(&x->runs, "congestion_control");
    x->j_run = csv_col(&x->jobs, "run");
    x->j_name = csv_col(&x->jobs, "name");
    x->j_start = csv_col(&x->jobs, "start_us");
    x->i_run = csv_col(&x->iters, "run");
    x->i_name = csv_col(&x->iters, "name");
    x->i_counted = csv_col(&x->iters, "counted");
    x->i_end = csv_col(&x->iters, "end_us");
    x->i_time = csv_col(&x->iters, "time_us");
    int need[] = { x->r_run, x->r_rep, x->r_share, x->r_victim, x->r_aggr,
                   x->j_run, x->j_name, x->j_start, x->i_run, x->i_name,
                   x->i_counted, x->i_end, x->i_time };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (need[i] < 0)
            return -1;
    return 0;
}

int impact_time_write(const char *dir, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/impact_runs.csv", dir);
    if (access(path, F_OK) != 0)
        return 0;
    struct itf x;
    memset(&x, 0, sizeof x);
    int rc = -1;
    FILE *f = NULL, *s = NULL;
    double *buf = NULL;
    if (csv_read(dir, "impact_runs.csv", &x.runs, err) != 0 ||
        csv_read(dir, "jobs.csv", &x.jobs, err) != 0 ||
        csv_read(dir, "iterations.csv", &x.iters, err) != 0)
        goto out;
    if (columns(&x) != 0) {
        if (err)
            fprintf(err, "dfsim: %s: impact_runs.csv, jobs.csv or "
                         "iterations.csv lacks a column impact_time.csv "
                         "needs\n", dir);
        goto out;
    }
    uint32_t cap = x.iters.rows + 1;
    buf = malloc(2 * (size_t)cap * sizeof *buf);
    f = buf ? report_open(dir, "impact_time.csv", err) : NULL;
    s = f ? report_open(dir, "impact_time_summary.csv", err) : NULL;
    if (!s)
        goto out;
    fputs("run,victim,aggressor,congestion_control,share,rep,iteration,"
          "since_us,time_us,impact\n", f);
    fputs("run,victim,aggressor,congestion_control,share,rep,iterations,"
          "first_since_us,half_since_us,last_since_us,impact_first_half,"
          "impact_second_half\n", s);
    for (uint32_t k = 0; k < x.runs.rows; k++)
        if (*rf(&x, k, x.r_aggr) != '\0')
            write_sim(&x, k, buf, cap, f, s);
    rc = 0;
out:
    if (f && fclose(f) != 0)
        rc = -1;
    if (s && fclose(s) != 0)
        rc = -1;
    if (rc != 0 && err && (f || s))
        fprintf(err, "dfsim: cannot write %s/impact_time.csv\n", dir);
    free(buf);
    csv_free(&x.runs);
    csv_free(&x.jobs);
    csv_free(&x.iters);
    return rc == 0 ? 1 : -1;
}
