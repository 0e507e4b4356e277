/* results/impact_time.h — a congestion impact over time: each victim
 * iteration beside an aggressor against the time since the aggressor
 * started, so that the transient (the aggressor's opening, before a
 * congestion control has reacted) and the steady state are told apart
 * (issue 55: the head starts SC'20's examples give the aggressor decide
 * which of the two a mean over the victim's run reads).
 *
 * impact_time.csv, a row per counted victim iteration of a simulation
 * beside an aggressor:
 *   run,victim,aggressor,congestion_control,share,rep,iteration,
 *   since_us,time_us,impact
 * since_us: the iteration's end minus the aggressor's start; impact: its
 * time over the victim's mean counted iteration alone (the simulation
 * with the same victim, share, repetition and controller, no aggressor:
 * impact.csv's t_isolated_us for one repetition).
 * impact_time_summary.csv, a row per such simulation: its counted
 * iterations split in halves in time order, the impact of each half's
 * mean (`impact_first_half`: nearer the aggressor's start, the
 * transient; `impact_second_half`: the steady state, if the run lasts),
 * with the span each covers since the aggressor's start.
 * Both drawn after the simulations from impact_runs.csv, jobs.csv and
 * iterations.csv. */
#ifndef DFSIM_RESULTS_IMPACT_TIME_H
#define DFSIM_RESULTS_IMPACT_TIME_H

#include <stdio.h>

/* The two files in dir. Returns 1 if written, 0 if dir has no
 * impact_runs.csv, -1 on an error reported to err. */
int impact_time_write(const char *dir, FILE *err);

#endif
