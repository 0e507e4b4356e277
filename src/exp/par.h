/* exp/par.h — an experiment's independent runs dealt over MPI ranks.
 *
 * `mpirun -np N dfsim run FILE` starts N copies of dfsim; each finds that
 * it was started by mpirun (Open MPI's environment) and joins the others.
 * The units of work of an experiment that do not depend on one another —
 * the points of a traffic sweep, the runs of a jobs list, the
 * simulations of an impact study (exp/impact.c) — are dealt in
 * turn: from the first unit not yet done, the k-th (k = u - first) goes
 * to rank (k + floor(k / N)) mod N — round robin, shifted by one each
 * round, so that a cost that repeats with the period N (an impact
 * study's isolated and congested simulations alternate: with 2 ranks
 * and one aggressor, plain round robin gave rank 1 every congested one)
 * is spread over the ranks. A rank runs its units in order and sends each
 * finished unit's output (the rows it adds to the shared result files,
 * the text it prints) to rank 0, which writes the units in unit order:
 * the files are byte-identical to a single-process run's, and an
 * interrupted run keeps every unit that had been written (the runs
 * finished ahead of an unfinished one are held in memory, at most about
 * N per rank, and lost with it). Files that belong to one unit alone (a
 * run's counter samples) are written by the rank that runs it.
 *
 * Started without mpirun, dfsim is one rank of one and nothing here
 * calls MPI. */
#ifndef DFSIM_EXP_PAR_H
#define DFSIM_EXP_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Join the other ranks if dfsim was started by mpirun (MPI_Init), and
 * send this rank's standard output to /dev/null unless it is rank 0.
 * Returns 0, or -1 after saying why on stderr. */
int par_start(void);

/* Leave (MPI_Finalize), after the units this rank sent have arrived. */
void par_stop(void);

int par_rank(void);
int par_size(void);

/* " on rank N" when there are several ranks, else "": for the progress
 * lines of a unit. */
const char *par_where(void);

/* The rank that runs unit u when the units from `first` on are dealt. */
static inline int par_owner(uint32_t u, uint32_t first, int size)
{
    uint32_t k = u - first, n = (uint32_t)size;
    return (int)((k + k / n) % n);
}

/* Every rank's rc taken together (every rank calls it at the same
 * point): rank 0's if not 0, else the first other rank's that is not 0,
 * else 0. */
int par_agree(int rc);

/* Split runs (dfsim run --partitions P under mpirun -np N, N a multiple
 * of P): the ranks in N / P groups of P consecutive ones, each with a
 * communicator of its own (par_group_comm: an MPI_Comm *); par_deal
 * deals the units over the groups as it deals them over ranks otherwise,
 * every rank of a group runs its group's units together, each its
 * partition of one simulation (exp/xchange.h), and the group's first
 * rank sends the output to rank 0, which commits. P <= 1 or one rank:
 * every rank alone (par_split false, a group of one). -1 if N is not a
 * multiple of P. Collective: every rank calls it with the same P. */
int par_set_split(uint32_t parts);
bool par_split(void);
int par_group_size(void);  /* P (1: not split) */
int par_group_rank(void);  /* this rank's place in its group */
int par_groups(void);      /* N / P */
void *par_group_comm(void);

/* Rank 0's value of v, on every rank. */
long par_bcast(long v);

/* What a unit leaves for rank 0 to write: its status (the unit's return
 * code) and up to PAR_PARTS texts, each owned (malloc'd) by the unit. */
enum { PAR_PARTS = 12 };
struct par_unit {
    int status;
    uint32_t n;
    char *part[PAR_PARTS];
    size_t len[PAR_PARTS];
};

/* Free u's texts and empty it. */
void par_unit_free(struct par_unit *u);

/* A rank other than 0: send unit u's output to rank 0, which takes its
 * texts over (u is emptied). Returns 0, or -1 (out of memory, or more
 * than 2 GiB) after telling rank 0 that the unit failed. */
int par_send(struct par_unit *u);

/* Rank 0: the next unit `from` sent, into u (its texts are then u's to
 * free); with wait false, only if it has already arrived. Returns 1 if u
 * was received, 0 if not (not yet arrived). A unit it cannot take (no
 * memory, a malformed message) stops every rank (MPI_Abort): the others
 * would wait for it. */
int par_recv(int from, bool wait, struct par_unit *u);

/* Run units [first, total) dealt over the ranks: run(ctx, u, &out) on
 * the rank that owns u, which fills out and returns the unit's status (0:
 * done; anything else stops the dealing after this unit); then, on rank
 * 0, commit(ctx, u, &out) for every unit in order up to the first whose
 * status is not 0 (commit writes what the status says is to be written,
 * frees nothing and returns the status to go on with: out's, or -1 if
 * writing failed). A rank whose unit failed runs none of its later
 * units (it sends them as not run, status PAR_NOT_RUN). Rank 0 commits
 * what has arrived after each of its own units and waits for the rest at
 * the end. Returns the status of the first unit that was not 0, else 0
 * (on rank 0; the others: their own first such status). */
enum { PAR_NOT_RUN = -100 };
typedef int par_run_fn(void *ctx, uint32_t u, struct par_unit *out);
typedef int par_commit_fn(void *ctx, uint32_t u, struct par_unit *in);
int par_deal(uint32_t first, uint32_t total, par_run_fn *run,
             par_commit_fn *commit, void *ctx);

#endif
