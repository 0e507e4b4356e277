/* results/report_results.c — the report of the result files in a folder
 * (report.h, report_from_results): iterations.csv, variants.csv and
 * jobs.csv read back as exp/jobs.h writes them (every run so far, so that
 * a resumed or repeated experiment's report covers all of its runs), the
 * counted iterations pooled per job and variant with each time normalised
 * to its own run's baseline, the variants' and background jobs' figures
 * pooled likewise, load.csv's offered load as a sentence; then
 * report_write draws the page from them (report.c).
 */
#include "results/report.h"
#include "results/report_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/steps.h"
#include "core/strindex.h"
#include "results/csv.h"

/* A series' place in the report's order: its job's first series, the
 * first row of variants.csv with its job and variant, then itself. */
struct series_key {
    uint32_t job, row, k;
};

static int cmp_series_key(const void *x, const void *y)
{
    const struct series_key *p = x, *q = y;
    steps_add(1);
    if (p->job != q->job)
        return p->job < q->job ? -1 : 1;
    if (p->row != q->row)
        return p->row < q->row ? -1 : 1;
    return p->k < q->k ? -1 : p->k > q->k;
}

/* The series' jobs, [n], for an index; NULL out of memory. */
static const char **series_jobs(const struct report_series *s, uint32_t n)
{
    const char **jobs = malloc((n ? n : 1) * sizeof *jobs);
    for (uint32_t k = 0; jobs && k < n; k++)
        jobs[k] = s[k].job;
    steps_add(n);
    return jobs;
}

/* Reorder the series s[0..n) by job (in order of first appearance), then
 * by the first row of variants.csv with their job and variant (vx: its
 * rows by name and variant; series without one last, in their order);
 * sid[0..rows) (a series index or UINT32_MAX) follows. The keys are
 * distinct (k), so the order is the stable one whatever the sort. 0, or
 * -1 out of memory. */
static int order_series(struct report_series *s, uint32_t n, uint32_t *sid,
                        uint32_t rows, const struct strindex *vx)
{
    struct series_key *key = malloc((n ? n : 1) * sizeof *key);
    struct report_series *t = malloc((n ? n : 1) * sizeof *t);
    uint32_t *inv = malloc((n ? n : 1) * sizeof *inv);
    const char **jobs = series_jobs(s, n);
    struct strindex jx = { 0 };
    int rc = -1;
    if (!key || !t || !inv || !jobs ||
        strindex_build(&jx, jobs, NULL, n) != 0)
        goto out;
    for (uint32_t k = 0; k < n; k++)
        key[k] = (struct series_key){
            .job = strindex_first(&jx, s[k].job, NULL),
            .row = strindex_first(vx, s[k].job, s[k].variant), .k = k };
    qsort(key, n, sizeof *key, cmp_series_key);
    for (uint32_t i = 0; i < n; i++) {
        t[i] = s[key[i].k];
        inv[key[i].k] = i;
    }
    memcpy(s, t, n * sizeof *s);
    for (uint32_t r = 0; r < rows; r++)
        if (sid[r] != UINT32_MAX)
            sid[r] = inv[sid[r]];
    steps_add(2 * (uint64_t)n + rows);
    rc = 0;
out:
    strindex_free(&jx);
    free(jobs);
    free(key);
    free(t);
    free(inv);
    return rc;
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

/* The result files of a run with jobs and the columns the report reads
 * of them (csv_col: -1 where a file has none). */
struct results {
    struct csv it, va, jb;     /* iterations.csv, variants.csv, jobs.csv */
    int c_run, c_name, c_var, c_cnt, c_t, c_est, c_lat, c_st;
    int v_name, v_var, v_bytes, v_corr, v_a0, v_a1;
    int j_name, j_wl;
    /* where the packets went: optional (result files of a dfsim before
     * them have a report without the figure) */
    int v_pk, v_nm, v_hp, j_bg, j_pk, j_nm, j_hp;
    bool v_paths, j_paths;
};

static void results_free(struct results *R)
{
    csv_free(&R->it);
    csv_free(&R->va);
    csv_free(&R->jb);
}

/* Read iterations.csv, variants.csv and jobs.csv of dir into R and find
 * their columns. Returns 0, or -1 reported to err (R holds nothing to
 * free). */
static int results_read(const char *dir, struct results *R, FILE *err)
{
    if (csv_read(dir, "iterations.csv", &R->it, err) != 0)
        return -1;
    if (csv_read(dir, "variants.csv", &R->va, err) != 0) {
        csv_free(&R->it);
        return -1;
    }
    if (csv_read(dir, "jobs.csv", &R->jb, err) != 0) {
        csv_free(&R->it);
        csv_free(&R->va);
        return -1;
    }
    const struct csv *it = &R->it, *va = &R->va, *jb = &R->jb;
    R->c_run = csv_col(it, "run");
    R->c_name = csv_col(it, "name");
    R->c_var = csv_col(it, "variant");
    R->c_cnt = csv_col(it, "counted");
    R->c_t = csv_col(it, "time_us");
    R->c_est = csv_col(it, "model_us");
    R->c_lat = csv_col(it, "lat_us");
    R->c_st = csv_col(it, "stall_cycles");
    R->v_name = csv_col(va, "name");
    R->v_var = csv_col(va, "variant");
    R->v_bytes = csv_col(va, "bytes");
    R->v_corr = csv_col(va, "model_corr");
    R->v_a0 = csv_col(va, "share_ADAPTIVE_0");
    R->v_a1 = csv_col(va, "share_ADAPTIVE_1");
    R->j_name = csv_col(jb, "name");
    R->j_wl = csv_col(jb, "workload");
    R->v_pk = csv_col(va, "packets");
    R->v_nm = csv_col(va, "nonmin_share");
    R->v_hp = csv_col(va, "hops_mean");
    R->j_bg = csv_col(jb, "background");
    R->j_pk = csv_col(jb, "packets");
    R->j_nm = csv_col(jb, "nonmin_share");
    R->j_hp = csv_col(jb, "hops_mean");
    R->v_paths = R->v_pk >= 0 && R->v_nm >= 0 && R->v_hp >= 0;
    R->j_paths = R->j_bg >= 0 && R->j_pk >= 0 && R->j_nm >= 0 &&
                 R->j_hp >= 0;
    if (R->c_run < 0 || R->c_name < 0 || R->c_var < 0 || R->c_cnt < 0 ||
        R->c_t < 0 || R->c_est < 0 || R->c_lat < 0 || R->c_st < 0 ||
        R->v_name < 0 || R->v_var < 0 || R->v_bytes < 0 || R->v_a0 < 0 ||
        R->v_a1 < 0 || R->v_corr < 0 ||
        R->j_name < 0 || R->j_wl < 0) {
        if (err)
            fprintf(err, "dfsim: %s: the result files lack columns the "
                         "report needs (written by another version?)\n",
                    dir);
        results_free(R);
        return -1;
    }
    return 0;
}

/* One of the times of a job's first series, with its run (normalise). */
struct base_time {
    unsigned long run;
    uint32_t row;
    double t;
};

static int cmp_base_time(const void *x, const void *y)
{
    const struct base_time *p = x, *q = y;
    steps_add(1);
    if (p->run != q->run)
        return p->run < q->run ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}

/* The scratch of the pooling, sized by iterations.csv's rows, and the
 * rows grouped: each series' rows, the variants.csv rows of each job and
 * variant, the baseline's times by run. */
struct pool {
    uint32_t *sid;             /* [rows]: row r's series, or UINT32_MAX */
    uint32_t *run_of;          /* [rows]: the run of each of a series'
                                  times */
    double *val;               /* [rows] */
    double *scratch;           /* [2 x rows] */
    uint32_t rows;             /* iterations.csv's rows, at least 1 */
    uint32_t *first;           /* [series + 1]: series k's rows are */
    uint32_t *row;             /*   row[first[k] .. first[k + 1]), in
                                  order */
    struct base_time *base;    /* [rows]: series base_of's times, by run
                                  then row */
    uint32_t n_base, base_of;
    struct strindex vx;        /* variants.csv's rows by name and variant */
    const char **vkeys;        /* [2 x its rows]: the names, the variants */
};

/* The column col of c's rows, [rows] (NULL where column keep, if >= 0,
 * is not "1"), as the keys of an index; NULL out of memory. */
static const char **column_keys(const struct csv *c, int col, int keep)
{
    const char **k = malloc((c->rows ? c->rows : 1) * sizeof *k);
    for (uint32_t r = 0; k && r < c->rows; r++)
        k[r] = keep < 0 || strcmp(csv_at(c, r, keep), "1") == 0
                   ? csv_at(c, r, col)
                   : NULL;
    steps_add(c->rows);
    return k;
}

/* The series, in order of first appearance, into s (room for every
 * row): each counted row's job and variant, the job's workload (the
 * last row of jobs.csv with its name) and the series' number of times;
 * sid[r]: row r's series (UINT32_MAX: not counted). A row is a new
 * series when it is the first of its job and variant. 0, or -1 out of
 * memory. */
static int gather_series(const struct results *R, struct report_series *s,
                         uint32_t *sid, uint32_t *n_out)
{
    const struct csv *it = &R->it, *jb = &R->jb;
    const char **job = column_keys(it, R->c_name, R->c_cnt);
    const char **var = column_keys(it, R->c_var, -1);
    const char **names = column_keys(jb, R->j_name, -1);
    struct strindex x = { 0 }, jx = { 0 };
    int rc = -1;
    uint32_t n = 0;
    if (!job || !var || !names ||
        strindex_build(&x, job, var, it->rows) != 0 ||
        strindex_build(&jx, names, NULL, jb->rows) != 0)
        goto out;
    for (uint32_t r = 0; r < it->rows; r++, steps_add(1)) {
        sid[r] = UINT32_MAX;
        if (!job[r])
            continue;
        uint32_t f = strindex_first(&x, job[r], var[r]), lo, hi;
        if (f == r) {
            s[n] = (struct report_series){ .job = job[r], .variant = var[r],
                                           .workload = "" };
            if (strindex_find(&jx, job[r], NULL, &lo, &hi))
                s[n].workload = csv_at(jb, jx.pos[hi - 1], R->j_wl);
            sid[r] = n++;
        } else {
            sid[r] = sid[f];
        }
        s[sid[r]].n++;
    }
    *n_out = n;
    rc = 0;
out:
    strindex_free(&x);
    strindex_free(&jx);
    free(job);
    free(var);
    free(names);
    return rc;
}

/* P->first, P->row: the rows of each of the n series, in row order. 0,
 * or -1 out of memory. */
static int rows_by_series(struct pool *P, uint32_t n, uint32_t rows)
{
    P->first = calloc((size_t)n + 1, sizeof *P->first);
    P->row = malloc((rows ? rows : 1) * sizeof *P->row);
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);
    if (!P->first || !P->row || !at) {
        free(at);
        return -1;
    }
    for (uint32_t r = 0; r < rows; r++)
        if (P->sid[r] != UINT32_MAX)
            P->first[P->sid[r] + 1]++;
    for (uint32_t k = 0; k < n; k++) {
        P->first[k + 1] += P->first[k];
        at[k] = P->first[k];
    }
    for (uint32_t r = 0; r < rows; r++)
        if (P->sid[r] != UINT32_MAX)
            P->row[at[P->sid[r]]++] = r;
    steps_add(2 * (uint64_t)rows + n);
    free(at);
    return 0;
}

/* Every series' arrays, room for its times. 0, or -1 out of memory (the
 * ones allocated are freed by free_series). */
static int alloc_series(struct report_series *s, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        s[k].norm = malloc((s[k].n ? s[k].n : 1) * sizeof *s[k].norm);
        s[k].raw = malloc((s[k].n ? s[k].n : 1) * sizeof *s[k].raw);
        s[k].model = malloc((s[k].n ? s[k].n : 1) * 4 * sizeof *s[k].model);
        s[k].model_run = malloc((s[k].n ? s[k].n : 1) *
                                sizeof *s[k].model_run);
        if (!s[k].norm || !s[k].raw || !s[k].model || !s[k].model_run)
            return -1;
    }
    return 0;
}

static void free_series(struct report_series *s, uint32_t n)
{
    for (uint32_t k = 0; s && k < n; k++) {
        free(s[k].norm);
        free(s[k].raw);
        free(s[k].model);
        free(s[k].model_run);
    }
}

/* Series k's raw times and their runs (rows come run by run) into
 * s[k].raw and P->val, P->run_of, with its model rows, its number of
 * runs and its statistics. Returns its number of times. */
static uint32_t pool_times(const struct results *R, struct report_series *s,
                           uint32_t k, const struct pool *P)
{
    const struct csv *it = &R->it;
    uint32_t *run_of = P->run_of;
    double *val = P->val;
    uint32_t m = 0, runs = 0;
    for (uint32_t i = P->first[k]; i < P->first[k + 1]; i++, steps_add(1)) {
        uint32_t r = P->row[i];
        const char *e = csv_at(it, r, R->c_est);
        uint32_t run = (uint32_t)strtoul(csv_at(it, r, R->c_run), NULL, 10);
        if (*e) {
            s[k].model_run[s[k].n_model] = run;
            double *x = &s[k].model[4 * s[k].n_model++];
            x[0] = strtod(csv_at(it, r, R->c_t), NULL);
            x[1] = strtod(csv_at(it, r, R->c_lat), NULL);
            x[2] = strtod(csv_at(it, r, R->c_st), NULL);
            x[3] = strtod(e, NULL);
        }
        run_of[m] = run;
        runs += m == 0 || run_of[m] != run_of[m - 1];
        val[m++] = strtod(csv_at(it, r, R->c_t), NULL);
    }
    s[k].runs = runs;
    memcpy(s[k].raw, val, m * sizeof *val);
    stats_summarize(val, m, P->scratch, &s[k].st);
    return m;
}

/* P->base: series b's times sorted by run, then row, unless they are
 * there already (a job's series follow one another). */
static void base_times(const struct results *R, uint32_t b, struct pool *P)
{
    if (P->base_of == b)
        return;
    const struct csv *it = &R->it;
    P->n_base = 0;
    for (uint32_t i = P->first[b]; i < P->first[b + 1]; i++, steps_add(1)) {
        uint32_t r = P->row[i];
        P->base[P->n_base++] = (struct base_time){
            .run = strtoul(csv_at(it, r, R->c_run), NULL, 10), .row = r,
            .t = strtod(csv_at(it, r, R->c_t), NULL) };
    }
    qsort(P->base, P->n_base, sizeof *P->base, cmp_base_time);
    P->base_of = b;
}

/* Series k's m times (pool_times) normalised, each to its own run's
 * median of series b's, the job's first variant, and their median. */
static void normalise(const struct results *R, struct report_series *s,
                      uint32_t k, uint32_t b, uint32_t m, struct pool *P)
{
    uint32_t *run_of = P->run_of, rows = P->rows;
    double *val = P->val, *scratch = P->scratch;
    base_times(R, b, P);
    /* each run's baseline: the median of series b's times in it, in row
     * order */
    for (uint32_t i = 0; i < m;) {
        uint32_t run = run_of[i], q = 0, lo = 0, hi = P->n_base;
        while (lo < hi) { /* the first of b's times in run */
            uint32_t mid = lo + (hi - lo) / 2;
            steps_add(1);
            if (P->base[mid].run < run)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < P->n_base && P->base[lo].run == run; lo++, steps_add(1))
            scratch[q++] = P->base[lo].t;
        double base = report_median_of(scratch, q, scratch + rows);
        for (; i < m && run_of[i] == run; i++)
            s[k].norm[i] = base > 0 ? val[i] / base : 0;
    }
    memcpy(val, s[k].norm, m * sizeof *val);
    s[k].norm_median = report_median_of(val, m, scratch);
}

/* Series x's figures from its rows of variants.csv, one a run, pooled
 * (in row order, as the sums always were). */
static void pool_variants(const struct results *R, const struct pool *P,
                          struct report_series *x)
{
    const struct csv *va = &R->va;
    uint32_t lo, hi;
    strindex_find(&P->vx, x->job, x->variant, &lo, &hi);
    const uint32_t *rows = P->vx.pos;
    steps_add(3 * (uint64_t)(hi - lo));
    /* bytes with ADAPTIVE_0 or _1 over all the series' bytes */
    double bytes = 0, dflt = 0;
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t r = rows[i];
        double by = strtod(csv_at(va, r, R->v_bytes), NULL);
        bytes += by;
        dflt += by * (strtod(csv_at(va, r, R->v_a0), NULL) +
                      strtod(csv_at(va, r, R->v_a1), NULL));
    }
    x->share_default = bytes > 0 ? dflt / bytes : 0;
    /* SC'19 §2.4 per run: the mean of the runs' own correlation of
     * estimate and time, where one is written (empty: undefined) */
    double sum = 0;
    uint32_t nc = 0;
    for (uint32_t i = lo; i < hi; i++) {
        const char *f = csv_at(va, rows[i], R->v_corr);
        char *end;
        double c = strtod(f, &end);
        if (end != f && isfinite(c)) {
            sum += c;
            nc++;
        }
    }
    x->run_corr = nc ? sum / nc : NAN;
    x->run_corr_n = nc;
    /* where its packets went, each run's figures weighted by its
     * packets */
    double pk = 0, nm = 0, hp = 0;
    for (uint32_t i = lo; R->v_paths && i < hi; i++) {
        uint32_t r = rows[i];
        double p = strtod(csv_at(va, r, R->v_pk), NULL);
        if (p <= 0)
            continue; /* no packets: empty share and mean */
        pk += p;
        nm += p * strtod(csv_at(va, r, R->v_nm), NULL);
        hp += p * strtod(csv_at(va, r, R->v_hp), NULL);
    }
    x->packets = (uint64_t)pk;
    x->nonmin_share = pk > 0 ? nm / pk : 0;
    x->hops_mean = pk > 0 ? hp / pk : 0;
}

/* The background jobs of jobs.csv, by name in order of first appearance,
 * pooled over the runs like the series' packets: into *out (malloc'd,
 * free it), their number into *n_out. A row is a new background job when
 * it is the first background row of its name. 0, or -1 out of memory. */
static int pool_background(const struct results *R,
                           struct report_background **out, uint32_t *n_out)
{
    const struct csv *jb = &R->jb;
    size_t rows = jb->rows ? jb->rows : 1;
    uint32_t n_bg = 0;
    struct report_background *bg = calloc(rows, sizeof *bg);
    /* [background jobs x 3]: packets, non-minimal packets, hops */
    double *bgw = malloc(3 * rows * sizeof *bgw);
    uint32_t *id = malloc(rows * sizeof *id); /* [rows]: its job */
    const char **name = R->j_paths ? column_keys(jb, R->j_name, R->j_bg)
                                   : NULL;
    struct strindex x = { 0 };
    int rc = -1;
    if (!bg || !bgw || !id || (R->j_paths && !name) ||
        (name && strindex_build(&x, name, NULL, jb->rows) != 0))
        goto out;
    for (uint32_t r = 0; name && r < jb->rows; r++, steps_add(1)) {
        if (!name[r])
            continue;
        uint32_t f = strindex_first(&x, name[r], NULL);
        if (f == r) {
            id[r] = n_bg++;
            bg[id[r]].job = name[r];
            bgw[3 * id[r]] = bgw[3 * id[r] + 1] = bgw[3 * id[r] + 2] = 0;
        }
        uint32_t b = id[f];
        double p = strtod(csv_at(jb, r, R->j_pk), NULL);
        if (p <= 0)
            continue;
        bgw[3 * b] += p;
        bgw[3 * b + 1] += p * strtod(csv_at(jb, r, R->j_nm), NULL);
        bgw[3 * b + 2] += p * strtod(csv_at(jb, r, R->j_hp), NULL);
    }
    for (uint32_t b = 0; b < n_bg; b++) {
        double p = bgw[3 * b];
        bg[b].packets = (uint64_t)p;
        bg[b].nonmin_share = p > 0 ? bgw[3 * b + 1] / p : 0;
        bg[b].hops_mean = p > 0 ? bgw[3 * b + 2] / p : 0;
    }
    *out = bg;
    *n_out = n_bg;
    bg = NULL;
    rc = 0;
out:
    strindex_free(&x);
    free(name);
    free(id);
    free(bgw);
    free(bg);
    return rc;
}

/* P's arrays for iterations.csv's rows (at least 1) and the index of
 * variants.csv's rows. 0, or -1 out of memory. */
static int pool_init(struct pool *P, const struct results *R)
{
    uint32_t rows = R->it.rows ? R->it.rows : 1, vr = R->va.rows;
    *P = (struct pool){ .rows = rows, .base_of = UINT32_MAX };
    P->val = malloc(rows * sizeof *P->val);
    P->scratch = malloc(2 * (size_t)rows * sizeof *P->scratch);
    P->run_of = malloc(2 * (size_t)rows * sizeof *P->run_of);
    P->base = malloc(rows * sizeof *P->base);
    P->vkeys = malloc(2 * (size_t)(vr ? vr : 1) * sizeof *P->vkeys);
    if (!P->val || !P->scratch || !P->run_of || !P->base || !P->vkeys)
        return -1;
    P->sid = P->run_of + rows;
    for (uint32_t r = 0; r < vr; r++) {
        P->vkeys[r] = csv_at(&R->va, r, R->v_name);
        P->vkeys[vr + r] = csv_at(&R->va, r, R->v_var);
    }
    steps_add(vr);
    return strindex_build(&P->vx, P->vkeys, P->vkeys + vr, vr);
}

static void pool_free(struct pool *P)
{
    free(P->val);
    free(P->scratch);
    free(P->run_of);
    free(P->base);
    free(P->first);
    free(P->row);
    strindex_free(&P->vx);
    free(P->vkeys);
}

/* The series of R into s[0..*n) (room for every row), pooled: ordered,
 * their times, normalised, their variants' figures and baselines. 0, or
 * -1 out of memory. */
static int pool_series(const struct results *R, struct report_series *s,
                       uint32_t *n_out, struct pool *P)
{
    uint32_t n;
    if (gather_series(R, s, P->sid, &n) != 0)
        return -1;
    *n_out = n;
    /* each job's series in the order of its variants (variants.csv's
     * rows, as the file lists them), so that its first series, the
     * baseline the others are normalised to, is its first variant
     * whichever variant ran first (variant_order = "shuffled"), as in
     * variants.csv's `normalized` */
    if (order_series(s, n, P->sid, R->it.rows, &P->vx) != 0 ||
        rows_by_series(P, n, R->it.rows) != 0 || alloc_series(s, n) != 0)
        return -1;
    /* the job's first variant: its first series */
    const char **jobs = series_jobs(s, n);
    struct strindex jx;
    if (!jobs || strindex_build(&jx, jobs, NULL, n) != 0) {
        free(jobs);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t b = strindex_first(&jx, s[k].job, NULL);
        uint32_t m = pool_times(R, s, k, P);
        normalise(R, s, k, b, m, P);
        pool_variants(R, P, &s[k]);
    }
    for (uint32_t k = 0; k < n; k++)
        s[k].baseline_median = s[strindex_first(&jx, s[k].job, NULL)].st.median;
    strindex_free(&jx);
    free(jobs);
    return 0;
}

int report_from_results(const char *dir, const struct report_info *info,
                        bool *drawn, FILE *err)
{
    struct results R;
    *drawn = false;
    if (results_read(dir, &R, err) != 0)
        return -1;
    struct report_background *bg = NULL;
    uint32_t n_bg = 0, n = 0;
    int rc = -1;
    /* the series, in order of first appearance; sid[r]: row r's */
    uint32_t rows = R.it.rows ? R.it.rows : 1;
    struct report_series *s = calloc(rows, sizeof *s);
    struct pool P;
    if (pool_init(&P, &R) != 0 || !s || pool_series(&R, s, &n, &P) != 0)
        goto oom;
    /* the background jobs, by name in order of first appearance, pooled
     * over the runs likewise */
    if (pool_background(&R, &bg, &n_bg) != 0)
        goto oom;
    struct report_info full = *info;
    full.background = bg;
    full.n_background = n_bg;
    char load[1024];
    load_sentence(dir, load, sizeof load);
    if (load[0] && !full.load)
        full.load = load;
    if (info->table)
        pooled_table(info->table, s, n);
    rc = report_write(dir, &full, s, n, drawn, err);
    goto out;
oom:
    if (err)
        fprintf(err, "dfsim: out of memory for the report\n");
out:
    free_series(s, rows);
    free(bg);
    free(s);
    pool_free(&P);
    results_free(&R);
    return rc;
}
