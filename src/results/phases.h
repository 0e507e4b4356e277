/* results/phases.h — how the jobs of a run shared the network over time:
 * the run cut into phases at every job's start and end, and each job's
 * bandwidth and share in each phase (SC'20 §III-B's bandwidth guarantee
 * of traffic classes: one job alone, both together, then the other
 * alone).
 *
 * phases.csv, drawn after the runs from the folder's jobs.csv and
 * iterations.csv (every run so far, as report.html is):
 *   run,phase,start_us,end_us,job,name,gbps,share
 * a row per phase of a run and job running through it, of the jobs that
 * finished (jobs.csv's `finished`: the file's jobs, an impact study's
 * victim and an aggressor with a fixed amount of work; not the jobs that
 * run until the others end, as the production fill's); a job's bytes (jobs.csv's `bytes`) are taken as moved
 * evenly over each of its iterations (iterations.csv's `end_us`: the
 * first from the job's start), so that its bytes in a phase are
 * interpolated between its iterations' ends; gbps is those bytes over
 * the phase's length, share the job's gbps over the sum of the phase's
 * jobs'. Phases are numbered from 0 in time order within their run. */
#ifndef DFSIM_RESULTS_PHASES_H
#define DFSIM_RESULTS_PHASES_H

#include <stdio.h>

/* phases.csv in dir from its jobs.csv and iterations.csv. Returns 1 if
 * written, 0 if the folder has no jobs.csv (nothing to do), -1 on an
 * error reported to err. */
int phases_write(const char *dir, FILE *err);

#endif
