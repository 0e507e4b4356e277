/* results/csv.h — a CSV file of dfsim's read back into memory (the
 * result files a report or a summary is drawn from after the runs: no
 * quoting, names hold no commas): rows of fields, looked up by the
 * header's names. */
#ifndef DFSIM_RESULTS_CSV_H
#define DFSIM_RESULTS_CSV_H

#include <stdint.h>
#include <stdio.h>

struct csv {
    char *text;
    char **field;     /* [rows * cols] */
    uint32_t rows, cols;
    char **head;      /* [cols] */
};

/* Read dir/name (name alone when dir is NULL; every line a row of the header's fields; a last line
 * without its newline is not a row). Returns 0, or -1 reported to err
 * (NULL: not reported). */
int csv_read(const char *dir, const char *name, struct csv *c, FILE *err);
void csv_free(struct csv *c);

/* The column named `name`, or -1. */
int csv_col(const struct csv *c, const char *name);

/* Field col of row (both in range). */
const char *csv_at(const struct csv *c, uint32_t row, int col);

#endif
