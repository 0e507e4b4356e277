/* exp/runner.h — an experiment's runner: its results folder claimed, the
 * system's figures and the zero-load probe written, then each kind of run
 * the file has, in order — the traffic sweep's points, the jobs list's
 * runs (experiment.runs), the impact study's simulations (exp/impact.h) —
 * as units dealt over the MPI ranks (exp/par.h) and committed by rank 0 in
 * unit order: every unit's rows are appended to their files as soon as it
 * and every unit before it has finished, so that an interrupted
 * experiment keeps every unit it finished, and --resume goes on from the
 * first it had not (traffic.csv's whole rows, runs.csv's runs). What is
 * made of the finished units — the tables, report.html — is the results
 * layer's (results/), which the caller calls after each kind.
 */
#ifndef DFSIM_EXP_RUNNER_H
#define DFSIM_EXP_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "exp/traffic.h"

/* What every part of the runner needs: the experiment, its system and
 * network parameters, the results folder, whether to resume. */
struct runner {
    const struct experiment *e;
    const struct topo *t;
    const struct net_params *np;
    const char *outdir;
    bool resume;
    size_t max_memory;  /* --max-memory, bytes: a run whose peak goes
                           above it fails (runner_memory_check); 0: none
                           given */
    uint32_t partitions; /* --partitions: each traffic run in windows over
                            P partitions (exp/traffic_win.c); 0: classic */
    bool each_warmup;    /* --warmups each: an impact study's simulations
                            each run their warm-up (exp/impact_branch.h);
                            false: shared where they can */
    bool waits;          /* --waits: waits.csv, where each job's packets
                            waited (mpi/mpi.h, struct dmpi_waits) */
    struct diag *d;
};

/* Rank 0's first step: claim the folder (exp/outdir.h: settings is the
 * file's normalised settings, file its path; force replaces another
 * experiment's results; *claimed says whether the folder is now this
 * experiment's), print the system's figures and write topology.json, run
 * the zero-load probe into probe.csv and print its table. Returns 0 or
 * -1 (reported). */
int runner_setup(const struct runner *rn, const char *settings,
                 const char *file, bool force, bool quick, bool *claimed);

/* Rank 0's last step, once nothing writes into the claimed folder any
 * more (the run ended, failed or was interrupted): its manifest sealed
 * (exp/manifest.h, manifest_seal), every file written so far listed as
 * it is. Returns 0 or -1 (reported). */
int runner_seal(const struct runner *rn);

/* After `what` ran (a traffic point, a job run, the impact study): 0, or
 * -1 if this process's peak resident memory (getrusage) went above
 * rn->max_memory, said on stderr naming `what`, so that the run fails
 * rather than pass for one that kept to the limit. The system was
 * admitted on an estimate of what it needs before its first packet
 * (exp/experiment.h): the packets in flight, the jobs' state and the
 * program itself come on top, and only the peak tells. */
int runner_memory_check(const struct runner *rn, const char *what);

/* Whether the file's sampling section samples during the traffic runs. */
bool runner_sampling_on(const struct experiment *e);

/* The traffic sweep: one run per (routing, load), routings outermost.
 * Each run is a row of traffic.csv as soon as it (and every point before
 * it) finishes and a progress line on stderr; with resume, the points
 * traffic.csv records are kept and the sweep goes on after them. On rank
 * 0, *res (malloc'd: free it) holds the *done points finished, read back
 * from their rows (the other ranks: none). Returns 0, -1 or
 * SIM_INTERRUPTED. */
int runner_traffic(const struct runner *rn, struct traffic_result **res,
                   uint32_t *done);

/* The routing of point k of the sweep (routings outermost; def: the
 * network's). */
const struct routing *runner_point_routing(const struct traffic_sweep *sw,
                                           const struct routing *def,
                                           uint32_t k);

/* The jobs: experiment.runs runs of all of them together, run r with
 * seed + r (fresh allocations), each run's rows written by `writer` and
 * appended to jobs.csv, iterations.csv, ranks.csv, metrics.csv,
 * variants.csv and load.csv and the run to runs.csv as soon as it (and
 * every run before it) ends; its counter samples into files of their
 * own. Returns 0 or -1 (a run that hit experiment.time_limit_ms is
 * reported and its results kept, but fails the command, except under
 * --quick). */
int runner_jobs(const struct runner *rn, const struct jobs_writer *writer);

#endif
