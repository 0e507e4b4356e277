/* exp/job_counters.h — the hardware counters of a job run, as a site and
 * an application read them.
 *
 * What is modelled (issue 18, "counters in job runs"): the two ways the
 * papers read the counters while applications run.
 *   LDMS (exp/sampler.h): every node's NIC registers and every router's
 *       tile registers sampled at a fixed interval into store_csv files,
 *       whatever runs; the NIC rows carry the job on the node in their
 *       job_id column, as LDMS's jobinfo sampler takes it from the
 *       resource manager, so one job's rows can be selected afterwards.
 *   The Gemini performance counter library (Pedretti et al., CUG'13 §III,
 *       Fig. 4): called by the application at its start and at its end,
 *       it reads the counters of the routers its nodes are attached to and
 *       prints, per router, every logical link's counts over the job's
 *       run (net/links.h). The CUG paper's Figs. 6-7 (MiniGhost's
 *       per-Gemini traffic and stalls before and after remapping) are
 *       drawn from that report. Here the snapshots are taken when the
 *       job's first rank begins and when its last rank has finished
 *       (dmpi's on_job), for every job of the file (not the production
 *       fill's), and the reports are written after the run, job by job in
 *       file order.
 * Both only read the counters: a run's results are the same with them on
 * or off (tests/test_job_counters.c checks jobs.csv byte for byte). The
 * snapshot arrays are sized at init; the hot path is untouched.
 */
#ifndef DFSIM_EXP_JOB_COUNTERS_H
#define DFSIM_EXP_JOB_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/sim.h"
#include "exp/sampler.h"
#include "net/links.h"
#include "net/net.h"

/* What to read (any may be off). */
struct job_counters_params {
    const struct sampler_params *sampling; /* LDMS CSVs; NULL: none (its
                                              node_job is filled here) */
    const char *links_path;                /* the per-job links report;
                                              NULL: none */
    const char *summary_path;              /* its summary as CSV (one row
                                              per job and direction);
                                              NULL: none */
};

static inline bool job_counters_on(const struct job_counters_params *p)
{
    return p && ((p->sampling && sampler_enabled(p->sampling)) ||
                 p->links_path);
}

/* One job of the report. */
struct job_counters_job {
    const char *name;
    uint32_t n_nodes;
    uint32_t *routers;       /* the routers of its nodes' NICs, ascending */
    uint32_t n_routers;
    struct link_counts *before, *after; /* [links], only its routers' set */
    simtime start, end;
    bool begun, ended;
};

struct job_counters {
    const struct net *n;
    const struct sim *s;
    struct sampler sm;
    bool sampling;
    uint32_t *node_job;      /* [nodes]: job number from 1, 0 idle */
    struct links L;
    bool links_on;
    const char *links_path, *summary_path;
    struct job_counters_job *job; /* [n_report] */
    uint32_t n_report;
};

/* One job as the run places it. */
struct job_counters_spec {
    const char *name;
    const uint32_t *nodes;
    uint32_t n_nodes;
    bool report;             /* in the links report (the file's jobs) */
};

/* Start reading the counters of network n (which keeps them) on
 * simulation s for jobs spec[0..n_jobs): the sampler's events are of type
 * ev_type, created by `entity` (reserved for it, exp/sampler.h). Returns
 * 0, or -1 with the reason reported to d; job_counters_free is harmless
 * after either. */
int job_counters_init(struct job_counters *jc, struct net *n,
                      struct sim *s, uint32_t ev_type, uint32_t entity,
                      const struct job_counters_spec *spec, uint32_t n_jobs,
                      const struct job_counters_params *p, struct diag *d);

/* dmpi's on_job hook (ctx: the struct job_counters). */
void job_counters_on_job(void *ctx, uint32_t job, bool end);

/* After the run: a last sample at its end (LDMS would take it at the
 * next interval, when the jobs' counts no longer change; runs stop when
 * their jobs end, so it is taken now, its Time the run's end), the report
 * written (jobs that never began or never ended are said so), the
 * sampler's status. 0, or -1 reported to d. */
int job_counters_finish(struct job_counters *jc, struct diag *d);

void job_counters_free(struct job_counters *jc);

#endif
