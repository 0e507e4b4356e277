/* results/phases.c — see phases.h. */
#include "results/phases.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/csv.h"
#include "results/report.h"

/* One job of a run, as the files give it. */
struct pjob {
    uint32_t row;            /* in jobs.csv */
    long job;
    double start, end, bytes;
    double *iter_end;        /* its iterations' ends, us, in order */
    uint32_t n_iter;
};

/* The bytes job j has moved by time x (us): its bytes spread evenly over
 * its iterations, each iteration's share linearly over its span. */
static double moved(const struct pjob *j, double x)
{
    if (x <= j->start || j->n_iter == 0)
        return 0;
    double per = j->bytes / j->n_iter, a = j->start;
    for (uint32_t k = 0; k < j->n_iter; k++) {
        double b = j->iter_end[k];
        if (x <= b)
            return per * (k + (b > a ? (x - a) / (b - a) : 1));
        a = b;
    }
    return j->bytes;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The files' columns. */
struct pcols {
    int run, job, name, start, end, bytes, fin;      /* jobs.csv */
    int irun, ijob, iend;                            /* iterations.csv */
};

/* The rows of run `run` into f: its jobs (from jobs.csv's rows), their
 * iterations, the phases. 0, or -1 out of memory. */
static int write_run(FILE *f, const struct csv *jb, const struct csv *it,
                     const struct pcols *c, const char *run)
{
    uint32_t n = 0;
    struct pjob *job = calloc(jb->rows + 1, sizeof *job);
    double *t = calloc(2 * (size_t)jb->rows + 1, sizeof *t);
    double *ends = calloc((size_t)it->rows + 1, sizeof *ends);
    int rc = job && t && ends ? 0 : -1;
    uint32_t used = 0;
    for (uint32_t r = 0; rc == 0 && r < jb->rows; r++) {
        if (strcmp(csv_at(jb, r, c->run), run) != 0 ||
            strcmp(csv_at(jb, r, c->fin), "1") != 0)
            continue;
        struct pjob *j = &job[n];
        j->row = r;
        j->job = strtol(csv_at(jb, r, c->job), NULL, 10);
        j->start = strtod(csv_at(jb, r, c->start), NULL);
        j->end = strtod(csv_at(jb, r, c->end), NULL);
        j->bytes = strtod(csv_at(jb, r, c->bytes), NULL);
        j->iter_end = ends + used;
        for (uint32_t i = 0; i < it->rows; i++)
            if (strcmp(csv_at(it, i, c->irun), run) == 0 &&
                strtol(csv_at(it, i, c->ijob), NULL, 10) == j->job)
                j->iter_end[j->n_iter++] = strtod(csv_at(it, i, c->iend),
                                                  NULL);
        used += j->n_iter;
        t[2 * n] = j->start;
        t[2 * n + 1] = j->end;
        n++;
    }
    qsort(t, 2 * (size_t)n, sizeof *t, cmp_double);
    uint32_t phase = 0;
    for (uint32_t k = 0; rc == 0 && k + 1 < 2 * n; k++) {
        double a = t[k], b = t[k + 1], sum = 0;
        if (!(b > a))
            continue;
        for (uint32_t i = 0; i < n; i++)
            if (job[i].start <= a && job[i].end >= b)
                sum += moved(&job[i], b) - moved(&job[i], a);
        for (uint32_t i = 0; i < n; i++) {
            if (!(job[i].start <= a && job[i].end >= b))
                continue;
            double by = moved(&job[i], b) - moved(&job[i], a);
            fprintf(f, "%s,%u,%.6f,%.6f,%ld,%s,%.6f,", run, phase, a, b,
                    job[i].job, csv_at(jb, job[i].row, c->name),
                    by / (b - a) / 1000.0);
            if (sum > 0)
                fprintf(f, "%.6f", by / sum);
            fputc('\n', f);
        }
        phase++;
    }
    free(job);
    free(t);
    free(ends);
    return rc;
}

int phases_write(const char *dir, FILE *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    if (access(path, F_OK) != 0)
        return 0;
    struct csv jb, it;
    if (csv_read(dir, "jobs.csv", &jb, err) != 0)
        return -1;
    if (csv_read(dir, "iterations.csv", &it, err) != 0) {
        csv_free(&jb);
        return -1;
    }
    struct pcols c = {
        csv_col(&jb, "run"), csv_col(&jb, "job"), csv_col(&jb, "name"),
        csv_col(&jb, "start_us"),
        csv_col(&jb, "end_us"), csv_col(&jb, "bytes"),
        csv_col(&jb, "finished"), csv_col(&it, "run"), csv_col(&it, "job"),
        csv_col(&it, "end_us")
    };
    int rc = -1;
    FILE *f = NULL;
    if (c.run < 0 || c.job < 0 || c.name < 0 || c.start < 0 ||
        c.end < 0 || c.bytes < 0 || c.fin < 0 || c.irun < 0 || c.ijob < 0 ||
        c.iend < 0) {
        if (err)
            fprintf(err, "dfsim: %s: jobs.csv or iterations.csv lacks a "
                         "column phases.csv needs\n", dir);
        goto out;
    }
    f = report_open(dir, "phases.csv", err);
    if (!f)
        goto out;
    fputs("run,phase,start_us,end_us,job,name,gbps,share\n", f);
    rc = 0;
    for (uint32_t r = 0; rc == 0 && r < jb.rows; r++) {
        const char *run = csv_at(&jb, r, c.run);
        bool seen = false;
        for (uint32_t q = 0; q < r && !seen; q++)
            seen = strcmp(csv_at(&jb, q, c.run), run) == 0;
        if (!seen)
            rc = write_run(f, &jb, &it, &c, run);
    }
    if (fclose(f) != 0 && rc == 0)
        rc = -1;
    if (rc != 0 && err)
        fprintf(err, "dfsim: cannot write %s/phases.csv\n", dir);
out:
    csv_free(&jb);
    csv_free(&it);
    return rc == 0 ? 1 : -1;
}
