/* results/scoreboard.c — see scoreboard.h. */
#include "results/scoreboard.h"

#include <libconfig.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *const sb_status_names[] = { "agrees", "in kind", "disagrees",
                                        "not run", "not reproduced",
                                        "context" };

static const char *const claims[] = { "above", "below", NULL };
static const char *const reduces[] = { "max", "min", NULL };

#define R(key, field, type_, text)                                           \
    { .name = key, .type = type_, .offset = offsetof(struct sb_row, field),  \
      .help = text }
#define RF(key, field, text)                                                 \
    { .name = key, .type = CFG_FLOAT,                                        \
      .offset = offsetof(struct sb_row, field), .fmin = -1e300,              \
      .fmax = 1e300, .help = text }

static const struct cfg_key row_keys[] = {
    { .name = "id", .type = CFG_STRING, .required = true,
      .offset = offsetof(struct sb_row, id),
      .help = "the row's name, its results' folder: letters, digits, - "
              "and _" },
    R("paper", paper, CFG_STRING, "the paper (\"SC'19\")"),
    R("figure", figure, CFG_STRING, "its figure or table (\"Fig. 8\")"),
    R("quantity", quantity, CFG_STRING, "what the number is"),
    R("experiment", experiment, CFG_STRING,
      "the experiment file, from the current folder (a row that runs)"),
    R("file", file, CFG_STRING,
      "the result file the number is read from (a CSV file)"),
    R("column", column, CFG_STRING, "the column holding the number"),
    { .name = "where", .type = CFG_STRINGS,
      .offset = offsetof(struct sb_row, where),
      .help = "\"column=value\" pairs that pick the one row" },
    { .name = "reduce", .type = CFG_CHOICE, .choices = reduces,
      .offset = offsetof(struct sb_row, reduce),
      .help = "\"max\" or \"min\": the largest or smallest value of the "
              "rows `where` picks, one or more (none: the one row)" },
    { .name = "over", .type = CFG_STRINGS,
      .offset = offsetof(struct sb_row, over),
      .help = "\"column=value\" pairs of another row: the number is "
              "divided by that row's (a ratio of two rows)" },
    { .name = "seeds", .type = CFG_FLOATS,
      .offset = offsetof(struct sb_row, seeds), .fmin = 0, .fmax = 1e15,
      .once = "seed", .help = "the seeds run (1, 2, 3)" },
    RF("paper_value", paper_value, "the paper's number"),
    RF("paper_min", paper_min, "a lower bound the paper states"),
    RF("paper_max", paper_max, "an upper bound the paper states"),
    { .name = "tolerance", .type = CFG_FLOAT, .fmin = 0, .fmax = 1e6,
      .offset = offsetof(struct sb_row, tolerance),
      .help = "agrees within this share of paper_value (0.2)" },
    { .name = "claim", .type = CFG_CHOICE, .choices = claims,
      .offset = offsetof(struct sb_row, claim),
      .help = "in kind: the median above or below claim_ref" },
    RF("claim_ref", claim_ref, "the reference of the claim (1.0)"),
    R("why", why, CFG_STRING, "the reason for a setting of this row's own"),
    R("context", context, CFG_BOOL,
      "a condition of the runs, reported beside the rows, not judged "
      "(false)"),
    R("not_reproduced", not_reproduced, CFG_STRING,
      "why the figure has no experiment (then no experiment, file, "
      "column, where)"),
    { .name = NULL },
};

static void row_defaults(struct sb_row *r)
{
    memset(r, 0, sizeof *r);
    r->paper_value = r->paper_min = r->paper_max = NAN;
    r->tolerance = 0.2;
    r->claim_ref = 1.0;
    r->seeds.n = 3;
    for (uint32_t i = 0; i < 3; i++)
        r->seeds.v[i] = i + 1;
}

/* What a row that runs must satisfy: an experiment and where its number
 * is read, something to judge it by, integer seeds, "column=value". */
static void run_check(const struct sb_row *r, const char *at,
                      struct diag *d)
{
    if (!r->experiment || !r->file || !r->column)
        diag_error(d, r->src, r->line, at,
                   "expected experiment, file and column (a row that runs) "
                   "or not_reproduced = \"reason\"");
    bool judged = !isnan(r->paper_value) || !isnan(r->paper_min) ||
                  !isnan(r->paper_max) || r->claim;
    if (!judged && !r->context)
        diag_error(d, r->src, r->line, at,
                   "no paper_value, paper_min, paper_max or claim: "
                   "nothing to judge the row by (context = true: a "
                   "condition reported, not judged)");
    if (judged && r->context)
        diag_error(d, r->src, r->line, at,
                   "context = true with a paper value or claim: expected "
                   "either a row judged or a condition reported");
    if (r->seeds.n > SB_SEEDS_MAX)
        diag_error(d, r->src, r->line, at, "%u seeds; at most %d",
                   r->seeds.n, SB_SEEDS_MAX);
    for (uint32_t i = 0; i < r->seeds.n; i++)
        if (r->seeds.v[i] != floor(r->seeds.v[i]))
            diag_error(d, r->src, r->line, at,
                       "seed %g: expected an integer", r->seeds.v[i]);
    for (uint32_t i = 0; i < r->where.n; i++)
        if (!strchr(r->where.v[i], '='))
            diag_error(d, r->src, r->where.line[i], at,
                       "where \"%s\": expected \"column=value\"",
                       r->where.v[i]);
    for (uint32_t i = 0; i < r->over.n; i++)
        if (!strchr(r->over.v[i], '='))
            diag_error(d, r->src, r->over.line[i], at,
                       "over \"%s\": expected \"column=value\"",
                       r->over.v[i]);
    if (r->reduce && r->over.n)
        diag_error(d, r->src, r->line, at,
                   "reduce with over: expected one of them (the largest of "
                   "several rows, or a ratio of two)");
    if (r->column && (strchr(r->column, '/') == r->column ||
                      strchr(r->column, '/') !=
                          strrchr(r->column, '/') ||
                      (strchr(r->column, '/') &&
                       strchr(r->column, '/')[1] == '\0')))
        diag_error(d, r->src, r->line, at,
                   "column \"%s\": expected a column or A/B", r->column);
}

/* What a row must satisfy beyond its keys' types. */
static void row_check(const struct sb_row *r, const char *at,
                      struct sb_rows *rows, uint32_t k, struct diag *d)
{
    for (const char *p = r->id; p && *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
            diag_error(d, r->src, r->line, at,
                       "id \"%s\": expected letters, digits, - and _ only "
                       "(it names a folder)",
                       r->id);
            break;
        }
    if (!r->not_reproduced)
        run_check(r, at, d);
    else if (r->experiment || r->file || r->column || r->where.n ||
             r->over.n)
        diag_error(d, r->src, r->line, at,
                   "not_reproduced with an experiment, file, column or "
                   "where: expected either the reason or a run");
    for (uint32_t j = 0; j < k && r->id; j++)
        if (rows->row[j].id && strcmp(rows->row[j].id, r->id) == 0)
            diag_error(d, r->src, r->line, at,
                       "id \"%s\" is also row %u's (line %d)", r->id, j,
                       rows->row[j].line);
}

int sb_load(const char *path, struct sb_rows *rows, struct diag *d)
{
    memset(rows, 0, sizeof *rows);
    int before = d->errors;
    rows->cfg = cfg_open(path, d);
    if (!rows->cfg)
        return -1;
    static const char *const sections[] = { "rows", NULL };
    cfg_check_sections(rows->cfg, sections, d);
    config_setting_t *s = cfg_section(rows->cfg, "rows");
    int n = s ? cfg_groups(rows->cfg, s, "rows", NULL, 0, d) : 0;
    if (!s)
        diag_error(d, path, 0, "rows", "no rows = ( { ... }, ... ) list");
    if (n > SB_ROWS_MAX)
        diag_error(d, path, cfg_line(s), "rows", "%d rows; at most %d", n,
                   SB_ROWS_MAX);
    if (n > 0 && n <= SB_ROWS_MAX) {
        config_setting_t **g = calloc((size_t)n, sizeof *g);
        rows->row = calloc((size_t)n, sizeof *rows->row);
        if (!g || !rows->row) {
            free(g);
            diag_error(d, path, 0, "rows", "out of memory");
        } else {
            cfg_groups(rows->cfg, s, "rows", g, n, d);
            for (uint32_t k = 0; k < (uint32_t)n; k++) {
                struct sb_row *r = &rows->row[k];
                char at[32];
                snprintf(at, sizeof at, "rows[%u]", k);
                row_defaults(r);
                r->src = cfg_file_of(rows->cfg, g[k] ? g[k] : s);
                r->line = cfg_line(g[k] ? g[k] : s);
                if (!g[k])
                    continue; /* reported by cfg_groups */
                cfg_read(rows->cfg, g[k], at, row_keys, r, NULL, d);
                r->seeds_given =
                    config_setting_get_member(g[k], "seeds") != NULL;
                row_check(r, at, rows, k, d);
            }
            rows->n = (uint32_t)n;
            free(g);
        }
    }
    if (d->errors != before) {
        sb_free(rows);
        return -1;
    }
    return 0;
}

void sb_free(struct sb_rows *rows)
{
    free(rows->row);
    if (rows->cfg)
        cfg_close(rows->cfg);
    memset(rows, 0, sizeof *rows);
}

/* ---- reading a CSV file --------------------------------------------------- */

/* Split line (modified in place) into at most cap fields at commas, a
 * field in double quotes keeping its commas (quotes removed, "" a
 * quote); returns the number of fields. */
static uint32_t csv_split(char *line, char **field, uint32_t cap)
{
    uint32_t n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = '\0';
    for (;;) {
        char *out = p, *start = p;
        if (*p == '"') {
            p++;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    p++; /* "" */
                *out++ = *p++;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && *p != ',')
                *out++ = *p++;
        }
        char *next = *p == ',' ? p + 1 : NULL;
        *out = '\0';
        if (n < cap)
            field[n++] = start;
        if (!next)
            return n;
        p = next;
    }
}

/* The index of `name` in header fields h[0..n), or -1. */
static int column_of(char **h, uint32_t n, const char *name, size_t len)
{
    for (uint32_t i = 0; i < n; i++)
        if (strlen(h[i]) == len && strncmp(h[i], name, len) == 0)
            return (int)i;
    return -1;
}

#define SB_FIELDS 512
#define SB_LINE (1 << 16)

/* What a number is read by: the pairs that pick its row, their columns
 * in the header, and the column (or the two of a ratio A/B). */
struct pick {
    const struct cfg_strings *pairs;
    int col[CFG_STRINGS_MAX];
};

/* The columns of pairs p in header h[0..nh) into k; 0, or -1 with why. */
static int pick_columns(const char *path, char **h, uint32_t nh,
                        const struct cfg_strings *p, struct pick *k,
                        char *why, size_t cap)
{
    k->pairs = p;
    for (uint32_t i = 0; i < p->n; i++) {
        const char *w = p->v[i];
        size_t len = (size_t)(strchr(w, '=') - w);
        k->col[i] = column_of(h, nh, w, len);
        if (k->col[i] < 0) {
            snprintf(why, cap, "%s: no column \"%.*s\"", path, (int)len, w);
            return -1;
        }
    }
    return 0;
}

/* Whether fields f match every pair of k. */
static bool row_matches(const struct pick *k, char **f, uint32_t nf)
{
    for (uint32_t i = 0; i < k->pairs->n; i++) {
        const char *val = strchr(k->pairs->v[i], '=') + 1;
        if ((uint32_t)k->col[i] >= nf || strcmp(f[k->col[i]], val) != 0)
            return false;
    }
    return true;
}

/* Field `col` of f as a number into *x; 0, or -1 with why. */
static int field_number(const char *path, const char *name, char **f,
                        uint32_t nf, int col, double *x, char *why,
                        size_t cap)
{
    char *end;
    const char *s = (uint32_t)col < nf ? f[col] : "";
    *x = strtod(s, &end);
    if (end == s || *end) {
        snprintf(why, cap, "%s: %s = \"%s\", not a number", path, name, s);
        return -1;
    }
    return 0;
}

/* The value of the one row of fp (past its header) that k picks: column
 * num, over column den when den >= 0. 0, or -1 with why. */
static int pick_value(FILE *fp, const char *path, const struct sb_row *r,
                      const struct pick *k, int num, int den, char *line,
                      double *v, char *why, size_t cap)
{
    char *f[SB_FIELDS];
    uint32_t found = 0;
    /* several rows only with reduce (its where: over has none) */
    int several = r->reduce && k->pairs == &r->where
                      ? (strcmp(r->reduce, "max") == 0 ? 1 : -1)
                      : 0;
    rewind(fp);
    if (!fgets(line, SB_LINE, fp))
        return -1;
    while (fgets(line, SB_LINE, fp)) {
        uint32_t nf = csv_split(line, f, SB_FIELDS);
        if (!row_matches(k, f, nf))
            continue;
        if (found++ && !several) {
            snprintf(why, cap, "%s: several rows match the row's `%s`", path,
                     k->pairs == &r->where ? "where" : "over");
            return -1;
        }
        double a, b = 1;
        if (field_number(path, r->column, f, nf, num, &a, why, cap) != 0 ||
            (den >= 0 &&
             field_number(path, r->column, f, nf, den, &b, why, cap) != 0))
            return -1;
        a /= b;
        if (found == 1 || (several > 0 && a > *v) || (several < 0 && a < *v))
            *v = a;
    }
    if (!found)
        snprintf(why, cap, "%s: no row matches the row's `%s`", path,
                 k->pairs == &r->where ? "where" : "over");
    return found >= 1 && (several || found == 1) ? 0 : -1;
}

int sb_extract(const char *path, const struct sb_row *r, double *v,
               char *why, size_t cap)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(why, cap, "%s: cannot read", path);
        return -1;
    }
    char *head = malloc(SB_LINE), *line = malloc(SB_LINE);
    char *h[SB_FIELDS];
    struct pick where, over;
    int rc = -1;
    if (!head || !line || !fgets(head, SB_LINE, fp)) {
        snprintf(why, cap, "%s: no header line", path);
        goto out;
    }
    uint32_t nh = csv_split(head, h, SB_FIELDS);
    /* the column, or A/B */
    const char *slash = strchr(r->column, '/');
    size_t len = slash ? (size_t)(slash - r->column) : strlen(r->column);
    int num = column_of(h, nh, r->column, len),
        den = slash ? column_of(h, nh, slash + 1, strlen(slash + 1)) : -1;
    if (num < 0 || (slash && den < 0)) {
        const char *bad = num < 0 ? r->column : slash + 1;
        snprintf(why, cap, "%s: no column \"%.*s\"", path,
                 (int)(num < 0 ? len : strlen(bad)), bad);
        goto out;
    }
    if (pick_columns(path, h, nh, &r->where, &where, why, cap) != 0 ||
        (r->over.n &&
         pick_columns(path, h, nh, &r->over, &over, why, cap) != 0))
        goto out;
    double ref = 1;
    if (pick_value(fp, path, r, &where, num, den, line, v, why, cap) != 0 ||
        (r->over.n &&
         pick_value(fp, path, r, &over, num, den, line, &ref, why, cap) != 0))
        goto out;
    *v /= ref;
    rc = 0;
out:
    free(head);
    free(line);
    fclose(fp);
    return rc;
}

/* ---- judging ------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void sb_judge(const struct sb_row *r, struct sb_result *res)
{
    if (res->n == 0 || r->not_reproduced) {
        res->median = res->lo = res->hi = NAN;
        res->status = r->not_reproduced ? SB_NOT_REPRODUCED : SB_NOT_RUN;
        return;
    }
    /* the median and range first, for every row that ran */
    double s[SB_SEEDS_MAX];
    memcpy(s, res->v, res->n * sizeof *s);
    qsort(s, res->n, sizeof *s, cmp_double);
    uint32_t n = res->n;
    res->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    res->lo = s[0];
    res->hi = s[n - 1];
    double m = res->median;
    bool agrees;
    if (!isnan(r->paper_value))
        agrees = fabs(m - r->paper_value) <=
                 r->tolerance * fabs(r->paper_value);
    else
        agrees = (!isnan(r->paper_min) || !isnan(r->paper_max)) &&
                 (isnan(r->paper_min) || m >= r->paper_min) &&
                 (isnan(r->paper_max) || m <= r->paper_max);
    bool kind = r->claim && (strcmp(r->claim, "above") == 0
                                 ? m > r->claim_ref
                                 : m < r->claim_ref);
    res->status = r->context ? SB_CONTEXT
                  : agrees   ? SB_AGREES
                  : kind     ? SB_IN_KIND
                             : SB_DISAGREES;
}

/* ---- the table ----------------------------------------------------------- */

/* The paper's side of a row: "2.85 (±20 %)", "<= 1.5", "above 1". */
static void paper_text(const struct sb_row *r, char *buf, size_t cap)
{
    if (!isnan(r->paper_value))
        snprintf(buf, cap, "%.4g (±%.0f %%)", r->paper_value,
                 100 * r->tolerance);
    else if (!isnan(r->paper_min) && !isnan(r->paper_max))
        snprintf(buf, cap, "%.4g to %.4g", r->paper_min, r->paper_max);
    else if (!isnan(r->paper_max))
        snprintf(buf, cap, "<= %.4g", r->paper_max);
    else if (!isnan(r->paper_min))
        snprintf(buf, cap, ">= %.4g", r->paper_min);
    else if (r->claim)
        snprintf(buf, cap, "%s %.4g", r->claim, r->claim_ref);
    else
        snprintf(buf, cap, "-");
}

/* A table cell's text, with | escaped ("-" for none). */
static void cell(FILE *out, const char *s)
{
    if (!s)
        s = "-";
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* One line of the summary: a label, the rows, the count of each status
 * in sb_status's order. */
static void count_line(FILE *out, const char *label, uint32_t n,
                       const uint32_t count[SB_STATUSES])
{
    fputs("| ", out);
    cell(out, label);
    fprintf(out, " | %u", n);
    for (int s = 0; s < SB_STATUSES; s++)
        fprintf(out, " | %u", count[s]);
    fputs(" |\n", out);
}

/* The count of each status, by paper in the order they first appear,
 * and in all. */
static void summary(FILE *out, const struct sb_rows *rows,
                    const struct sb_result *res)
{
    fputs("| paper | rows | agree | in kind | disagree | not run | not "
          "reproduced | context |\n|---|---|---|---|---|---|---|---|\n",
          out);
    uint32_t all[SB_STATUSES] = { 0 };
    for (uint32_t k = 0; k < rows->n; k++) {
        const char *paper = rows->row[k].paper ? rows->row[k].paper : "-";
        uint32_t first = 0, count[SB_STATUSES] = { 0 }, n = 0;
        while (first < k && strcmp(rows->row[first].paper
                                       ? rows->row[first].paper : "-",
                                   paper) != 0)
            first++;
        all[res[k].status]++;
        if (first < k)
            continue; /* counted at its first row */
        for (uint32_t j = k; j < rows->n; j++)
            if (strcmp(rows->row[j].paper ? rows->row[j].paper : "-",
                       paper) == 0) {
                count[res[j].status]++;
                n++;
            }
        count_line(out, paper, n, count);
    }
    count_line(out, "all", rows->n, all);
    fputc('\n', out);
}

/* A table line's first cells: the row's id, paper, figure and quantity,
 * then " | " for the next. */
static void row_head(FILE *out, const struct sb_row *r)
{
    fprintf(out, "| %s | ", r->id);
    cell(out, r->paper);
    fputs(" | ", out);
    cell(out, r->figure);
    fputs(" | ", out);
    cell(out, r->quantity);
    fputs(" | ", out);
}

/* A row that runs as a line of the table. */
static void run_line(FILE *out, const struct sb_row *r,
                     const struct sb_result *x)
{
    char p[64], kind[48] = "-";
    paper_text(r, p, sizeof p);
    if (r->claim)
        snprintf(kind, sizeof kind, "%s %.4g", r->claim, r->claim_ref);
    row_head(out, r);
    fprintf(out, "%s | ", p);
    if (x->n)
        fprintf(out, "%.4g [%.4g, %.4g], %u", x->median, x->lo, x->hi,
                x->n);
    else
        fputs("-", out);
    fprintf(out, " | %s | %s | `%s` | `%s`: %s`%s`",
            sb_status_names[x->status], kind, r->experiment, r->file,
            !r->reduce ? "" : r->reduce[1] == 'a' ? "the largest " :
            "the smallest ", r->column);
    for (uint32_t i = 0; i < r->where.n; i++)
        fprintf(out, "%s`%s`", i ? ", " : " where ", r->where.v[i]);
    for (uint32_t i = 0; i < r->over.n; i++)
        fprintf(out, "%s`%s`", i ? ", " : ", over the row where ",
                r->over.v[i]);
    fputs(" |\n", out);
}

/* Which dfsim measured the table's values, each with its count, and how
 * many came from the kept file. */
static void measured_by(FILE *out, const struct sb_rows *rows,
                        const struct sb_result *res, const char *keep)
{
    uint32_t all = 0, kept = 0;
    for (uint32_t k = 0; k < rows->n; k++) {
        all += res[k].n;
        kept += res[k].kept;
    }
    if (all == 0)
        return;
    fprintf(out, "The table's %u values (a row's seeds): %u from this "
                 "scoreboard's runs, %u kept from earlier ones in `%s`; "
                 "measured by",
            all, all - kept, kept, keep);
    enum { BY_MAX = 32 };        /* builds named; the rest as "others" */
    const char *by[BY_MAX + 1];
    uint32_t count[BY_MAX + 1] = { 0 }, n_by = 0;
    for (uint32_t k = 0; k < rows->n; k++)
        for (uint32_t i = 0; i < res[k].n; i++) {
            const char *b = res[k].by[i] ? res[k].by[i] : "unrecorded";
            uint32_t j = 0;
            while (j < n_by && strcmp(by[j], b) != 0)
                j++;
            if (j == n_by && n_by < BY_MAX) {
                by[n_by++] = b;
            } else if (j == n_by) {
                j = BY_MAX;
                by[BY_MAX] = "others";
            }
            count[j]++;
        }
    for (uint32_t j = 0; j <= BY_MAX; j++)
        if (count[j])
            fprintf(out, "%s %s (%u)", j ? "," : " dfsim", by[j], count[j]);
    fputs(".\n\n", out);
}

void sb_markdown(FILE *out, const struct sb_rows *rows,
                 const struct sb_result *res, const char *command,
                 bool quick, bool partial, const char *svg, const char *keep)
{
    fprintf(out, "<!-- generated by `%s`; do not edit by hand -->\n\n",
            command);
    if (quick)
        fputs("**--quick: every run was cut short. This table checks the "
              "pipeline (runs, extraction, judging), not the model: its "
              "statuses are no results.**\n\n",
              out);
    if (partial) {
        uint32_t waiting = 0, partly = 0;
        for (uint32_t k = 0; k < rows->n; k++) {
            waiting += res[k].status == SB_NOT_RUN;
            partly += res[k].n > 0 && !rows->row[k].not_reproduced &&
                      res[k].n < rows->row[k].seeds.n;
        }
        fprintf(out, "**The runs finished so far (--no-run): rows not run "
                     "yet %u, rows with fewer seeds than their own %u; "
                     "`make reproduce` goes on from here.**\n\n",
                waiting, partly);
    }
    summary(out, rows, res);
    if (keep)
        measured_by(out, rows, res, keep);
    if (svg)
        fprintf(out, "![each row that runs on its own axis: the paper's "
                     "range (grey), the claim's reference (dashed), each "
                     "seed (dot), the median (bar)](%s)\n\n",
                svg);
    fputs("| row | paper | figure | quantity | paper's value | dfsim: "
          "median [range], seeds | status | in kind if | experiment | read "
          "from |\n|---|---|---|---|---|---|---|---|---|---|\n",
          out);
    for (uint32_t k = 0; k < rows->n; k++)
        if (!rows->row[k].not_reproduced)
            run_line(out, &rows->row[k], &res[k]);
    uint32_t count[SB_STATUSES] = { 0 };
    for (uint32_t k = 0; k < rows->n; k++)
        count[res[k].status]++;
    fprintf(out, "\n%u rows: %u agree, %u in kind, %u disagree, %u not "
                 "run, %u not reproduced, %u context.\n",
            rows->n, count[SB_AGREES], count[SB_IN_KIND],
            count[SB_DISAGREES], count[SB_NOT_RUN],
            count[SB_NOT_REPRODUCED], count[SB_CONTEXT]);
    for (uint32_t k = 0; k < rows->n; k++)
        if (rows->row[k].why)
            fprintf(out, "\n* %s: %s\n", rows->row[k].id, rows->row[k].why);
    if (count[SB_NOT_REPRODUCED] == 0)
        return;
    fputs("\n## Figures and tables not reproduced\n\n| row | paper | "
          "figure | what it shows | why not |\n|---|---|---|---|---|\n",
          out);
    for (uint32_t k = 0; k < rows->n; k++) {
        const struct sb_row *r = &rows->row[k];
        if (!r->not_reproduced)
            continue;
        row_head(out, r);
        cell(out, r->not_reproduced);
        fputs(" |\n", out);
    }
}
