/* results/scoreboard_keep.c — the scoreboard's kept values (see
 * scoreboard.h): each seed's number of each row, with the dfsim that
 * measured it, in a CSV file that outlives the runs' folders. */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hash.h"
#include "results/csv.h"
#include "results/scoreboard.h"

static const char *const keep_head[] = { "row", "seed", "value", "read",
                                         "dfsim", "input" };
#define KEEP_COLS (sizeof keep_head / sizeof *keep_head)

/* FNV-1a (core/hash.h) over s and a newline, from h. */
static uint64_t fnv(uint64_t h, const char *s)
{
    return fnv1a(fnv1a(h, s, strlen(s)), "\n", 1);
}

/* What row r reads, hashed: its experiment, file, column, where, over
 * and reduce; a kept value is the row's only while they are unchanged. */
static uint64_t row_read(const struct sb_row *r)
{
    uint64_t h = FNV1A_START;
    h = fnv(fnv(fnv(h, r->experiment), r->file), r->column);
    for (uint32_t i = 0; i < r->where.n; i++)
        h = fnv(h, r->where.v[i]);
    h = fnv(h, "over");
    for (uint32_t i = 0; i < r->over.n; i++)
        h = fnv(h, r->over.v[i]);
    if (r->reduce) /* (rows without it hash as before it existed) */
        h = fnv(fnv(h, "reduce"), r->reduce);
    return h;
}

/* Row id's index in rows, or -1. */
static int row_index(const struct sb_rows *rows, const char *id)
{
    for (uint32_t k = 0; k < rows->n; k++)
        if (strcmp(rows->row[k].id, id) == 0)
            return (int)k;
    return -1;
}

static bool row_has_seed(const struct sb_row *r, long long seed)
{
    for (uint32_t i = 0; i < r->seeds.n; i++)
        if ((long long)r->seeds.v[i] == seed)
            return true;
    return false;
}

const struct sb_kept *sb_keep_find(const struct sb_keep *k, const char *row,
                                   long long seed)
{
    for (uint32_t i = 0; i < k->n; i++)
        if (k->e[i].seed == seed && strcmp(k->e[i].row, row) == 0)
            return &k->e[i];
    return NULL;
}

int sb_keep_set(struct sb_keep *k, const char *row, long long seed, double v,
                const char *dfsim)
{
    struct sb_kept *e = (struct sb_kept *)sb_keep_find(k, row, seed);
    char *by = strdup(dfsim);
    if (!by)
        return -1;
    if (!e) {
        if (k->n == k->cap) {
            uint32_t cap = k->cap ? 2 * k->cap : 64;
            struct sb_kept *g = realloc(k->e, cap * sizeof *g);
            if (!g) {
                free(by);
                return -1;
            }
            k->e = g;
            k->cap = cap;
        }
        e = &k->e[k->n];
        *e = (struct sb_kept){ .row = strdup(row), .seed = seed };
        if (!e->row) {
            free(by);
            return -1;
        }
        k->n++;
    }
    free(e->dfsim);
    e->dfsim = by;
    e->v = v;
    return 0;
}

void sb_keep_free(struct sb_keep *k)
{
    for (uint32_t i = 0; i < k->n; i++) {
        free(k->e[i].row);
        free(k->e[i].dfsim);
    }
    free(k->e);
    memset(k, 0, sizeof *k);
}

uint32_t sb_keep_forget(struct sb_keep *k, const struct sb_rows *rows,
                        const char *const *patterns, uint32_t n)
{
    uint32_t out = 0, dropped = 0;
    for (uint32_t i = 0; i < k->n; i++) {
        const char *exp = NULL;
        for (uint32_t r = 0; r < rows->n && !exp; r++)
            if (!strcmp(rows->row[r].id, k->e[i].row))
                exp = rows->row[r].experiment;
        bool match = false;
        for (uint32_t j = 0; j < n && exp && !match; j++)
            match = fnmatch(patterns[j], exp, 0) == 0;
        if (match) {
            free(k->e[i].row);
            free(k->e[i].dfsim);
            dropped++;
        } else {
            k->e[out++] = k->e[i];
        }
    }
    k->n = out;
    return dropped;
}

/* Line `line` (the file's numbering) of c, row i: checked, then kept. */
static void keep_line(const char *path, const struct csv *c, uint32_t i,
                      const struct sb_rows *rows, struct sb_keep *k,
                      struct diag *d)
{
    int line = (int)i + 2;
    const char *id = csv_at(c, i, 0), *s = csv_at(c, i, 1),
               *v = csv_at(c, i, 2), *rd = csv_at(c, i, 3),
               *by = csv_at(c, i, 4),
               *in = c->cols == KEEP_COLS ? csv_at(c, i, 5) : NULL;
    char *end;
    errno = 0;
    long long seed = strtoll(s, &end, 10);
    if (errno || end == s || *end || seed < 0) {
        diag_error(d, path, line, "seed", "\"%s\": expected a seed, an "
                   "integer >= 0", s);
        return;
    }
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(x)) {
        diag_error(d, path, line, "value", "\"%s\": expected a finite "
                   "number", v);
        return;
    }
    if (!*by) {
        diag_error(d, path, line, "dfsim", "empty: expected the dfsim that "
                   "measured the value (release and commit)");
        return;
    }
    int r = row_index(rows, id);
    if (r < 0 || rows->row[r].not_reproduced ||
        !row_has_seed(&rows->row[r], seed)) {
        diag_warn(d, path, line, "row", "\"%s\" seed %lld is no longer a "
                  "row's seed: dropped", id, seed);
        return;
    }
    char want[32];
    snprintf(want, sizeof want, "%016llx",
             (unsigned long long)row_read(&rows->row[r]));
    if (strcmp(rd, want) != 0) {
        diag_warn(d, path, line, "read", "\"%s\" seed %lld was kept when "
                  "the row read another experiment, file, column or where: "
                  "dropped", id, seed);
        return;
    }
    unsigned long long input = 0;
    if (in) {
        errno = 0;
        input = strtoull(in, &end, 16);
        if (errno || end == in || *end || strlen(in) != 16) {
            diag_error(d, path, line, "input", "\"%s\": expected 16 hex "
                       "digits, the hash of the run's settings", in);
            return;
        }
    }
    uint64_t now = 0;
    for (uint32_t j = 0; j < rows->row[r].seeds.n; j++)
        if ((long long)rows->row[r].seeds.v[j] == seed)
            now = rows->row[r].input[j];
    if (input && now && input != now) {
        diag_warn(d, path, line, "input", "\"%s\" seed %lld was measured "
                  "before %s changed (its settings differ): dropped, to "
                  "run again", id, seed, rows->row[r].experiment);
        return;
    }
    if (sb_keep_find(k, id, seed)) {
        diag_error(d, path, line, "row", "\"%s\" seed %lld kept twice", id,
                   seed);
        return;
    }
    if (sb_keep_set(k, id, seed, x, by) != 0)
        diag_error(d, path, line, NULL, "out of memory");
}

int sb_keep_load(const char *path, const struct sb_rows *rows,
                 struct sb_keep *k, struct diag *d)
{
    memset(k, 0, sizeof *k);
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return 0; /* none kept yet: written at the table */
    int before = d->errors;
    struct csv c;
    if (csv_read(NULL, path, &c, d->out) != 0) {
        d->errors++;
        return -1;
    }
    /* five columns: a file written before `input` (scoreboard.h) */
    bool head = c.cols == KEEP_COLS || c.cols == KEEP_COLS - 1;
    for (uint32_t j = 0; head && j < c.cols; j++)
        head = strcmp(c.head[j], keep_head[j]) == 0;
    if (!head)
        diag_error(d, path, 1, NULL, "expected the header "
                   "\"row,seed,value,read,dfsim,input\"");
    for (uint32_t i = 0; head && i < c.rows; i++)
        keep_line(path, &c, i, rows, k, d);
    csv_free(&c);
    if (d->errors != before) {
        sb_keep_free(k);
        return -1;
    }
    return 0;
}

int sb_keep_write(const char *path, const struct sb_rows *rows,
                  const struct sb_keep *k)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fputs("row,seed,value,read,dfsim,input\n", f);
    for (uint32_t r = 0; r < rows->n; r++) {
        const struct sb_row *row = &rows->row[r];
        for (uint32_t i = 0; i < row->seeds.n && !row->not_reproduced; i++) {
            long long seed = (long long)row->seeds.v[i];
            const struct sb_kept *e = sb_keep_find(k, row->id, seed);
            if (!e)
                continue;
            /* the shortest of 15 or 17 digits that reads back the same
             * double (a value read from a result file has few) */
            char num[40];
            snprintf(num, sizeof num, "%.15g", e->v);
            if (strtod(num, NULL) != e->v)
                snprintf(num, sizeof num, "%.17g", e->v);
            fprintf(f, "%s,%lld,%s,%016llx,%s,%016llx\n", row->id, seed,
                    num, (unsigned long long)row_read(row), e->dfsim,
                    (unsigned long long)row->input[i]);
        }
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}
