/* core/diag.h — diagnostics for user input.
 *
 * dfsim has three error channels (STYLE.md): mistakes in user input
 * (experiment files, traces, command lines) are *collected* here and reported
 * together, naming file, line and key, and the program then exits with
 * status 1; recoverable I/O failures are return codes with one sentence; a
 * broken invariant is an assert. A diag never aborts: the caller checks
 * diag_failed() at a convenient point.
 */
#ifndef DFSIM_DIAG_H
#define DFSIM_DIAG_H

#include <stdbool.h>
#include <stdio.h>

struct diag {
    FILE *out;      /* where messages go (stderr unless a test redirects) */
    int errors;     /* errors reported so far */
    int max_errors; /* stop printing after this many (0: no limit) */
};

/* A diag printing to stderr. */
void diag_init(struct diag *d);

/* Report an error at file:line (line <= 0: no line), about `key` (NULL: no
 * key): "file:line: key: message". printf-style message, no newline. */
void diag_error(struct diag *d, const char *file, int line, const char *key,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Same prefix, but a warning: does not count as an error. */
void diag_warn(struct diag *d, const char *file, int line, const char *key,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static inline bool diag_failed(const struct diag *d) { return d->errors > 0; }

#endif
