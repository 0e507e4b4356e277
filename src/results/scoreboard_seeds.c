/* results/scoreboard_seeds.c — the seeds of a row that gives none
 * (scoreboard.h sb_space_seeds): three, as far apart as its experiment's
 * runs, so that no two seeds share a run. */
#include "results/scoreboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/fingerprint.h"

/* The runs of the experiment at path: experiment.runs (a jobs file) or
 * impact.runs (an impact study), 1 if neither is given or the file
 * cannot be read (its run says why). Each run r uses seed + r
 * (exp/experiment.h, exp/impact.h). */
static uint32_t experiment_runs(const char *path)
{
    char *t = fingerprint_file(path, 1, false);
    unsigned long runs = 1;
    for (const char *l = t; l && *l;) {
        unsigned long v;
        if ((sscanf(l, "experiment.runs = %lu", &v) == 1 ||
             sscanf(l, "impact.runs = %lu", &v) == 1) &&
            v > 0 && v <= SB_SEED_STRIDE_MAX)
            runs = v;
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    free(t);
    return (uint32_t)runs;
}

void sb_space_seeds(struct sb_rows *rows, const char *dir)
{
    const char *last = NULL;
    uint32_t runs = 1;
    for (uint32_t k = 0; k < rows->n; k++) {
        struct sb_row *r = &rows->row[k];
        if (r->seeds_given || r->not_reproduced || !r->experiment)
            continue;
        if (!last || strcmp(last, r->experiment) != 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s%s%s", dir ? dir : "",
                     dir ? "/" : "", r->experiment);
            runs = experiment_runs(path);
            last = r->experiment;
        }
        for (uint32_t i = 0; i < r->seeds.n; i++)
            r->seeds.v[i] = 1 + (double)i * runs;
    }
}
