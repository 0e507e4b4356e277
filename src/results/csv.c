/* results/csv.c — see csv.h. */
#include "results/csv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void csv_free(struct csv *c)
{
    free(c->text);
    free(c->field);
    free(c->head);
    memset(c, 0, sizeof *c);
}

int csv_read(const char *dir, const char *name, struct csv *c, FILE *err)
{
    memset(c, 0, sizeof *c);
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "",
             name);
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

int csv_col(const struct csv *c, const char *name)
{
    for (uint32_t k = 0; k < c->cols; k++)
        if (strcmp(c->head[k], name) == 0)
            return (int)k;
    return -1;
}

const char *csv_at(const struct csv *c, uint32_t row, int col)
{
    return c->field[(size_t)row * c->cols + (size_t)col];
}

