/* tests/test.h — the test harness: one binary, many named test functions.
 *
 * A test is a `static void test_x(void)` registered in the module's
 * `tests_<module>` list (see tests/tests.def). CHECK records a failure with
 * file:line and the values involved and goes on; the test fails if any CHECK
 * failed. The runner prints one line per test and ends with the line
 * "N passed, N failed" that `make test` and CI read.
 */
#ifndef DFSIM_TEST_H
#define DFSIM_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern int test_failures; /* CHECK failures in the running test */

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            test_failures++;                                                 \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__,         \
                    __LINE__, #cond);                                        \
        }                                                                    \
    } while (0)

#define CHECK_EQ_U(a, b)                                                     \
    do {                                                                     \
        unsigned long long check_a_ = (unsigned long long)(a);               \
        unsigned long long check_b_ = (unsigned long long)(b);               \
        if (check_a_ != check_b_) {                                          \
            test_failures++;                                                 \
            fprintf(stderr, "  %s:%d: %s == %s failed: %llu != %llu\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);         \
        }                                                                    \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                \
    do {                                                                     \
        double check_a_ = (double)(a), check_b_ = (double)(b);               \
        if (!(fabs(check_a_ - check_b_) <= (tol))) {                         \
            test_failures++;                                                 \
            fprintf(stderr, "  %s:%d: %s ~= %s failed: %.9g vs %.9g\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);         \
        }                                                                    \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                      \
    do {                                                                     \
        const char *check_h_ = (hay), *check_n_ = (needle);                  \
        if (!check_h_ || !strstr(check_h_, check_n_)) {                      \
            test_failures++;                                                 \
            fprintf(stderr, "  %s:%d: \"%s\" not found in:\n%s\n", __FILE__, \
                    __LINE__, check_n_, check_h_ ? check_h_ : "(null)");     \
        }                                                                    \
    } while (0)

struct test_case {
    const char *name;
    void (*fn)(void);
};

/* Each test file ends with:
 *   const struct test_case tests_<module>[] = { TEST(test_a), ..., {0} };  */
#define TEST(fn) { #fn, fn }

/* tests/cli_util.c: run build/dfsim (or $DFSIM_BIN) with arguments; capture
 * stdout and stderr (each truncated to cap bytes, NUL-terminated). Returns
 * the exit status, or -1 if the program could not be run or was killed. */
int run_dfsim(const char *const argv[], char *out, size_t out_cap, char *err,
              size_t err_cap);
/* The same under `mpirun --oversubscribe -np np` (Open MPI's). */
int run_dfsim_mpi(int np, const char *const argv[], char *out,
                  size_t out_cap, char *err, size_t err_cap);
/* Run a program found on PATH (mpicc, mpirun, ...) with arguments
 * (argv[0] the program), in the environment Open MPI needs here (as
 * run_dfsim_mpi's); capture stdout and stderr as run_dfsim does. Its exit
 * status, or -1. */
int run_program(const char *const argv[], char *out, size_t out_cap,
                char *err, size_t err_cap);
/* The peak resident memory (KiB, wait4's ru_maxrss) of the process the
 * last run_dfsim or run_dfsim_mpi ran (mpirun's under run_dfsim_mpi), -1
 * if it could not be had. */
long run_last_maxrss_kib(void);
/* Path of a fresh temporary file holding `text`, /tmp/dfsim-test-PID-name;
 * the caller may unlink it, and the runner removes what is left after each
 * test (test_temps_remove). */
const char *write_temp(const char *name, const char *text);
/* The whole of a file, NUL-terminated and malloc'd (free it); NULL if it
 * cannot be read. */
char *read_text(const char *path);

/* rm -r path: a tests' scratch folder and everything in it (links are
 * removed, not followed). */
void rm_dir(const char *path);
/* n fresh scratch folders /tmp/dfsim-TAG-XXXXXX into dir[0..n) (one
 * that cannot be made counts as a failure); rm_dirs removes them. */
void temp_dirs(char (*dir)[64], int n, const char *tag);
void rm_dirs(char (*dir)[64], int n);
/* Remove every /tmp/dfsim-test-PID-* of this process (write_temp's files,
 * and folders named so): the runner calls it after each test. */
void test_temps_remove(void);

/* Whether gnuplot can be run here (make deps installs it): the reports'
 * figures are drawn only then. */
bool have_gnuplot(void);

/* Start build/dfsim (or $DFSIM_BIN) with arguments, stdout to /dev/null;
 * once file `watch` (or watch.tmp, which dfsim writes first) holds
 * `lines` complete lines, send it signal `sig`;
 * capture its stderr. Returns its exit status; -1 if it was killed by the
 * signal, could not run, or ended before the lines came (then it was not
 * interrupted). */
int interrupt_dfsim(const char *const argv[], const char *watch, int lines,
                    int sig, char *err, size_t err_cap);

/* The number of files of folder a whose bytes differ from (or are missing
 * in) folder b, plus 1 if b holds another number of files (each reported
 * on stderr); -1 if a folder cannot be read. */
int same_files(const char *a, const char *b);
/* Path to a file of the source tree (DFSIM_SRC, default "."). */
const char *src_path(const char *rel);
/* File `name` of folder dir: its text (malloc'd, NULL if unreadable),
 * whether it exists, and (re)written with `text` (a check fails if it
 * cannot be). */
char *dir_read(const char *dir, const char *name);
bool dir_has(const char *dir, const char *name);
void dir_write(const char *dir, const char *name, const char *text);

/* Diagnostics captured in memory (tests/cli_util.c): c->d reports into a
 * buffer that cap_text returns. */
#include "core/diag.h"
struct capture {
    struct diag d;
    char *text;
    size_t len;
};
void cap_init(struct capture *c);
const char *cap_text(struct capture *c);
void cap_free(struct capture *c);

#endif
