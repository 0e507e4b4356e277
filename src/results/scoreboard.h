/* results/scoreboard.h — the reproductions as data (issue 55): each row
 * names a paper's number, the experiment that reproduces it, how the
 * number is read from the experiment's result files, and the rule that
 * says whether the model agrees; `dfsim scoreboard` (cli/cli_scoreboard.c)
 * runs every row over its seeds and writes the table, so that no figure
 * in the docs is copied by hand and no row's status is written by hand.
 *
 * A rows file (libconfig, the experiment files' syntax):
 *
 *   rows = (
 *     { id = "sc20-tc-same";                 a folder name: [A-Za-z0-9_-]
 *       paper = "SC'20"; figure = "§III-B";
 *       quantity = "8 B allreduce beside a 256 KiB alltoall, same TC";
 *       paper_value = 2.85;                  the paper's number, or
 *       paper_max = 1.5;                     a bound it states (paper_min)
 *       tolerance = 0.2;                     agrees: within 20 % of it
 *       claim = "above"; claim_ref = 1.0;    in kind: on that side of it
 *       experiment = "examples/sc20-tc.cfg"; run from the current folder
 *       seeds = [1, 2, 3];                   (default: three seeds, as
 *                                            far apart as the runs)
 *       file = "impact.csv";                 the result file read
 *       where = ["victim=allreduce", "aggressor=alltoall"];
 *       column = "impact";                   the one row's value, or
 *                                            "A/B": its A over its B
 *       reduce = "max";                      the largest of the rows
 *                                            `where` picks (or "min")
 *       over = ["victim=alone"];             divided by this row's
 *       why = "...";                         a row's own setting, said
 *     },
 *     { id = "sc20-fig2"; paper = "SC'20"; figure = "Fig. 2";
 *       quantity = "switch latency distribution, RoCE traffic";
 *       not_reproduced = "...";              why the model cannot carry it
 *     },
 *     { id = "fill-load"; context = true;    reported, not judged
 *       experiment = ...; file = ...; column = ...; }, ... );
 *
 * The value of a seed is `column` of the single row of `file` whose
 * columns equal every `where` pair (zero or several rows: an error, not
 * a guess; with `reduce`, the largest or smallest of the one or more
 * rows it picks: SC'20 Fig. 10's maximum over a study's cells); "A/B"
 * is that row's A over its B; with `over`, the value is
 * divided by the same column's value in the single row `over` picks (a
 * ratio of two rows: one distance's median over another's). A row's figure is the median of its seeds, with their range.
 * Its status: "agrees" when the median is within `tolerance` (relative)
 * of paper_value, or within [paper_min, paper_max] for a bound; else "in
 * kind" when it lies on the `claim` side of claim_ref ("above",
 * "below"); else "disagrees". A row with `not_reproduced` has no
 * experiment (nor file, column, where): it is a figure or table of a
 * paper that the scoreboard lists so that every one is accounted for,
 * its status "not reproduced" and its reason printed. A row with
 * `context = true` has no paper value or claim: it reports a condition
 * of the runs the other rows read (the load a background offers), its
 * status "context".
 *
 * Kept values (`dfsim scoreboard --keep FILE`, reproduce/measured.csv):
 * a run's folder does not outlive the machine it ran on, and the rows'
 * runs take longer than a working session, so each seed's number is
 * kept in a CSV file of the repository with the dfsim that measured it:
 *
 *   row,seed,value,read,dfsim,input
 *   sc20-tc-same-class,1,2.0203...,5c0f...,0.11.0 43d0e31abcde,9a1e...
 *
 * (`read`: a hash of what the row reads — its experiment, file, column,
 * where and over —, so that a row given another reading drops its kept
 * values with a warning instead of passing them off as its own;
 * `dfsim`: release and commit, `dfsim --version`; "-dirty" when the tree had
 * changes; "unrecorded" for a run whose .done mark is older than the
 * record; `input`: a hash of the settings the seed's run records,
 * experiment.settings (exp/fingerprint.h: the experiment file with its
 * @includes, normalised, the seed's), so that a value measured before
 * the experiment file changed is dropped with a warning and measured
 * again; a file of the first five columns, written before `input`, is
 * read with its values taken as the current files'). A seed whose rows
 * all have a kept value is not run again; a run finished in the folder
 * replaces its rows' kept values. A change of the model that moves an
 * experiment's results (not its file) deletes its rows' lines, so that
 * the next `make reproduce` measures them again: the table says which
 * dfsim measured its values. */
#ifndef DFSIM_RESULTS_SCOREBOARD_H
#define DFSIM_RESULTS_SCOREBOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "core/diag.h"

/* The most rows a file holds, and seeds a row runs. */
#define SB_ROWS_MAX 256
#define SB_SEEDS_MAX 16

struct sb_row {
    const char *id, *paper, *figure, *quantity, *experiment, *file,
        *column, *claim, *why;
    const char *not_reproduced;  /* the reason; NULL: a row that runs */
    const char *reduce;          /* "max", "min": of every row `where`
                                    picks (NULL: the one row) */
    bool context;                /* a condition reported, not judged */
    struct cfg_strings where;    /* "column=value" */
    struct cfg_strings over;     /* another row's, to divide by (none) */
    struct cfg_floats seeds;     /* integers >= 0 */
    bool seeds_given;            /* the row's own; else sb_space_seeds */
    double paper_value;          /* NaN: none */
    double paper_min, paper_max; /* NaN: no such bound */
    double tolerance;            /* relative, for paper_value (0.2) */
    double claim_ref;            /* 1.0 */
    const char *src;             /* where the row was written */
    int line;
    uint64_t input[SB_SEEDS_MAX]; /* per seed: the hash of the settings
                                    its run records (kept values' `input`;
                                    set by the caller, 0: unknown) */
};

struct sb_rows {
    struct cfg_file *cfg;        /* owns the strings */
    uint32_t n;
    struct sb_row *row;          /* [n] */
};

enum sb_status { SB_AGREES, SB_IN_KIND, SB_DISAGREES, SB_NOT_RUN,
                 SB_NOT_REPRODUCED, SB_CONTEXT, SB_STATUSES };
extern const char *const sb_status_names[];

/* The seeds of every row that gives none: 1, 1 + R, 1 + 2R, R the runs
 * of its experiment (experiment.runs or impact.runs; run r of a seed S
 * uses seed S + r, so seeds 1, 2, 3 of an experiment of 8 runs would
 * share 6 of their runs and their tails); 1, 2, 3 for one run. The
 * experiments are read from dir (NULL: the current folder). */
#define SB_SEED_STRIDE_MAX 100000
void sb_space_seeds(struct sb_rows *rows, const char *dir);

/* A row's outcome over its seeds. */
struct sb_result {
    uint32_t n;                  /* seeds with a value */
    double v[SB_SEEDS_MAX];      /* each seed's, in the row's seed order */
    const char *by[SB_SEEDS_MAX]; /* the dfsim that measured each */
    uint32_t kept;               /* of them, values kept from before */
    double median, lo, hi;
    enum sb_status status;
};

/* Read rows file `path` into rows: every problem reported to d with the
 * file, line and what was expected. 0, or -1 (nothing to free). */
int sb_load(const char *path, struct sb_rows *rows, struct diag *d);
void sb_free(struct sb_rows *rows);

/* The value of row r in CSV file `path` into *v. 0, or -1 with the
 * reason in why (file missing, no header column, no row or several rows
 * matching, not a number). */
int sb_extract(const char *path, const struct sb_row *r, double *v,
               char *why, size_t cap);

/* Median and range of res->v[0..n), then the status by r's rule ("not
 * reproduced" for a row that has no experiment). */
void sb_judge(const struct sb_row *r, struct sb_result *res);

/* The scoreboard as Markdown: the count of each status by paper, then a
 * table a row, a paper's number beside the model's median and range over
 * its seeds, the status and how it was obtained, then the rows' reasons
 * (not reproduced, a setting of their own); `command` is what
 * regenerates it; `quick`: its runs were cut short, `partial`: it is
 * the state of a scoreboard still running or cut short (both said at
 * the top);
 * `svg` (or NULL): the picture's file, shown under the summary; `keep`
 * (or NULL): the kept values' file, named with how many values it gave
 * and which dfsim measured the values (sb_result.by). */
void sb_markdown(FILE *out, const struct sb_rows *rows,
                 const struct sb_result *res, const char *command,
                 bool quick, bool partial, const char *svg,
                 const char *keep);

/* A seed's kept value of a row. */
struct sb_kept {
    char *row;                   /* the row's id */
    long long seed;
    double v;
    char *dfsim;                 /* release and commit that measured it */
};

struct sb_keep {
    uint32_t n, cap;
    struct sb_kept *e;           /* [n] */
};

/* Read the kept values of file `path` for rows into k (a missing file:
 * none kept). A line of a row or seed that rows no longer have is
 * dropped with a warning; a malformed one is an error naming the file
 * and line. 0, or -1 (nothing to free). */
int sb_keep_load(const char *path, const struct sb_rows *rows,
                 struct sb_keep *k, struct diag *d);

/* Row's seed's kept value, or NULL. */
const struct sb_kept *sb_keep_find(const struct sb_keep *k, const char *row,
                                   long long seed);

/* Keep v as row's seed's value, measured by dfsim (replacing one kept
 * before). 0, or -1 out of memory. */
int sb_keep_set(struct sb_keep *k, const char *row, long long seed, double v,
                const char *dfsim);

/* Write k into path whole or not at all, in the rows' and their seeds'
 * order (the same values give the same bytes). 0, or -1 (errno). */
int sb_keep_write(const char *path, const struct sb_rows *rows,
                  const struct sb_keep *k);
void sb_keep_free(struct sb_keep *k);

/* Drop from k every value of a row whose experiment matches one of the
 * n shell patterns (fnmatch: "examples/sc20-*.cfg"): the model those
 * experiments run changed, so what was kept of them is measured again.
 * Returns how many values were dropped. */
uint32_t sb_keep_forget(struct sb_keep *k, const struct sb_rows *rows,
                        const char *const *patterns, uint32_t n);

/* The rows that run as a picture (results/scoreboard_plot.c), for
 * sb_markdown's `svg`: a strip a row, on the row's own axis, the
 * paper's range beside each seed's number, their median and the
 * status. */
void sb_svg(FILE *out, const struct sb_rows *rows,
            const struct sb_result *res);

#endif
