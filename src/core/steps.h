/* core/steps.h — a count of the steps taken by the loops of set-up and
 * report whose length grows with the number of jobs (or of the result
 * rows): matching a job's name against the others', placing it, starting
 * the jobs that follow it, pooling its rows for the report; and by the
 * torus bisection's cuts.
 *
 * Why a counter: these loops were quadratic (issue 57: 32,000 jobs took
 * 14 s to set up), and a test that times them would be slow and flaky on
 * a shared machine. tests/test_scale.c reads the count before and after
 * a set-up of N and of 4N jobs instead: linear work grows 4 times, n log n
 * about 5 times, quadratic 16 times. A step is one iteration of such a
 * loop, or one comparison of a sort or search (core/strindex.h). Nothing
 * in the simulation reads it, so it changes no result.
 *
 * One process runs one thread (MPI ranks are processes), so a plain
 * counter does.
 */
#ifndef DFSIM_CORE_STEPS_H
#define DFSIM_CORE_STEPS_H

#include <stdint.h>

extern uint64_t steps_taken; /* since the process started */

static inline void steps_add(uint64_t n)
{
    steps_taken += n;
}

#endif
