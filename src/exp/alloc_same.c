/* exp/alloc_same.c — same: the first `nodes` (0: all) of another job's
 * nodes, in its rank order, whatever that job's policy: the next command
 * of a batch script in the same allocation (SC'19 §5.1 runs its
 * microbenchmarks one after another on one fixed allocation). The job it
 * takes them from is the one it follows (key after, request.follows).
 * The two must not run at the same time; exp/jobs.c lets a job take
 * another's nodes only when it starts after that one has ended. Placed
 * once every other job is, so that a chain may be listed in any order.
 * Draws nothing.
 */
#include "exp/alloc_internal.h"

#include <stdlib.h>
#include <string.h>

/* The job it takes the nodes of is the one it follows: after is
 * required. */
static void check(void *params, struct alloc_job *job, struct diag *d)
{
    (void)params;
    if (!job->after)
        diag_error(d, job->file, job->line, job->prefix,
                   "allocation = \"same\" takes the nodes of the job named "
                   "by after; this job has no after");
}

static int check_request(struct alloc_state *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    if (r->follows >= p->n || r->follows == j) {
        alloc_job_error(p, j, "allocation \"same\" takes the nodes of "
                        "another job; it names job %u of %u", r->follows,
                        p->n);
        return -1;
    }
    return 0;
}

static bool mine(const struct alloc_state *p, uint32_t j)
{
    return p->req[j].policy == &alloc_same && p->valid[j];
}

/* Copies of the nodes of the jobs they follow, chains followed until
 * nothing moves (a chain through a failed job or a cycle places
 * nothing). */
static void place_same(struct alloc_state *p)
{
    for (bool progress = true; progress;) {
        progress = false;
        for (uint32_t j = 0; j < p->n; j++) {
            const struct alloc_request *r = &p->req[j];
            if (!mine(p, j) || p->out[j] || !p->out[r->follows])
                continue;
            uint32_t have = p->given[r->follows];
            uint32_t k = r->nodes ? r->nodes : have;
            if (k > have) {
                alloc_job_error(p, j, "asks for %u of the nodes of job %u, "
                                "which has %u", k, r->follows, have);
                continue;
            }
            uint32_t *o = malloc((k ? k : 1) * sizeof *o);
            if (!o) {
                alloc_job_error(p, j, "out of memory placing %u nodes", k);
                continue;
            }
            memcpy(o, p->out[r->follows], k * sizeof *o);
            p->out[j] = o;
            p->given[j] = k;
            progress = true;
        }
    }
    for (uint32_t j = 0; j < p->n; j++)
        if (mine(p, j) && !p->out[j] && p->d->errors == p->errors0)
            alloc_job_error(p, j, "the nodes of job %u were never placed (a "
                            "cycle of \"same\" allocations)",
                            p->req[j].follows);
}

const struct alloc_policy alloc_same = {
    .base = { .name = "same",
              .help = "the nodes of the job it runs after (key after): one "
                      "allocation, one job after another" },
    .nodes_optional = true,
    .reuses_nodes = true,
    .check = check,
    .check_request = check_request,
    .place_late = place_same,
};
