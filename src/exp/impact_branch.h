/* exp/impact_branch.h — an impact study's simulations that share their
 * warm-up, as forked processes.
 *
 * With GPCNeT's release (impact.warmup_iterations), the victim beside an
 * aggressor starts only when every aggressor rank has marked its first
 * iterations: until then the simulation is the aggressor alone, the same
 * for every victim of the same run, share, congestion control and
 * aggressor (the victims on the same nodes, exp/jobs.h
 * jobs_branch_same). On Crystal that warm-up is most of the study's time
 * (the 128 KiB all-to-all's first call on 256 or 460 Aries nodes: 20-40
 * minutes a simulation). So the first of those simulations forks at the
 * release (struct jobs_branch), once for each later victim: each child
 * goes on as that victim's simulation from the release, writes what it
 * made (the unit's status and texts, struct par_unit, and its progress
 * line) into a file of its own and exits; the parent goes on as its own
 * victim's, and when the dealing (exp/par.h) reaches a child's unit it
 * takes the child's file instead of simulating it. The files of the
 * study are byte-identical to those of simulating every unit from the
 * start (`dfsim run --warmups each`; tests/test_impact.c). The children
 * run at once beside the parent: on a machine with idle cores the
 * victims' parts run in parallel too.
 *
 * In one process only: under mpirun the units are dealt over the ranks
 * already (and an MPI process should not fork), and a split run's
 * windows are collective. A child that fails (it could not be forked,
 * it died, its file is short) leaves its unit to be simulated as usual,
 * said on stderr. */
#ifndef DFSIM_EXP_IMPACT_BRANCH_H
#define DFSIM_EXP_IMPACT_BRANCH_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "exp/par.h"

struct impact_child {
    uint32_t unit;
    pid_t pid;          /* 0: not (or no longer) running */
    FILE *out;          /* its result (an unlinked temporary file) */
};

struct impact_branch {
    struct impact_child *child; /* [cap]: forked, not taken yet */
    uint32_t n, cap;
    uint32_t taken;     /* units taken from their children so far,
                           done (status 0) */
    int me;             /* -1: the study's process; else this process
                           is child[me] */
};

/* An empty set of children for up to cap at once; 0, or -1 (memory). */
int impact_branch_init(struct impact_branch *b, uint32_t cap);

/* Whether a child runs (or ran) unit u, not taken yet. */
int impact_branch_has(const struct impact_branch *b, uint32_t u);

/* Fork one child for each of units[0..n) (they must not be b's yet):
 * returns -1 in the parent (whatever could not be forked is left to be
 * simulated as usual, said on stderr), else in the child the index of
 * the unit it is to run. */
int impact_branch_fork(struct impact_branch *b, const uint32_t *units,
                       uint32_t n);

/* In child b->me: write status, res's texts and the progress line
 * log[0..log_len) into its file and exit (0; 1 if the file could not be
 * written). Does not return. */
void impact_branch_exit(struct impact_branch *b, int status,
                        const struct par_unit *res, const char *log,
                        size_t log_len);

/* In the parent: unit u's result from its child, after the child has
 * ended; returns 1 with *status, res filled and the progress line
 * printed to `log`, 0 if no child ran u, -1 if its child failed (its
 * unit to be simulated as usual; said on stderr). */
int impact_branch_take(struct impact_branch *b, uint32_t u, int *status,
                       struct par_unit *res, FILE *log);

/* Stop and wait for every child not taken (the study ends), free b. */
void impact_branch_free(struct impact_branch *b);

#endif
