/* exp/production.h — a production-loaded machine: the measured jobs of an
 * experiment file among other users' jobs that fill a chosen share of the
 * system's nodes (the file's `production` section).
 *
 * Why. SC'19 (De Sensi et al., "Mitigating network noise on Dragonfly
 * networks through application-aware routing") measured its routing modes
 * on Piz Daint and Cori "on a production system without any kind of
 * isolation" (§5): every link its jobs used also carried other users'
 * traffic, and that traffic is what the routing modes trade against. A
 * file's own background jobs load a machine only as much as someone
 * writes them out, job by job; this section writes the other users: a
 * seeded mix of background jobs that takes the nodes the file's jobs left
 * until `fill` of the system's nodes are busy.
 *
 * The model, per run (seed: the run's, so experiment.runs draws a new
 * machine each run):
 *  1. The file's jobs are placed first, by their own allocations, on an
 *     empty machine (exp/alloc.h); their nodes are never the fill's.
 *  2. The fill takes T = floor(fill x N) - F nodes, N the nodes with a
 *     NIC, F the file's jobs' nodes. Jobs are drawn one at a time: a mix
 *     entry with probability proportional to its `weight` (a relative
 *     number of jobs, not of nodes), then a size among the entry's (or the
 *     section's) `sizes` with probability proportional to `size_weights`
 *     (default: equal, a log-uniform distribution over the powers of two
 *     of the default sizes). Only entries and sizes that fit in what is
 *     left of T are eligible (the distribution renormalised over them);
 *     the fill stops when none fits, so it ends short of T by less than
 *     the smallest size.
 *  3. Each job's nodes come from the placement:
 *       aged        (default) the batch system's history: jobs take the
 *                   lowest free nodes (first fit in node order); then, for
 *                   `churn` rounds, every job ends with probability 1/2
 *                   and new draws refill the machine first fit. The jobs
 *                   of the last round are the fill: after a few rounds
 *                   their nodes are runs scattered over the holes earlier
 *                   jobs left, as on a machine that has run for a while
 *                   (SC'19 §3.1: "it is not rare that the processes of a
 *                   particular compute job are scattered throughout the
 *                   network"). churn = 0 is an idle machine filled in one
 *                   go: every job contiguous.
 *       contiguous  the next `size` free nodes in node order from a start
 *                   drawn uniformly among the free nodes (wrapping at the
 *                   end): runs of free nodes without a history.
 *       random      a uniformly random subset of the free nodes (GPCNeT's
 *                   placement of its congestors).
 *  4. Each becomes a background job of the run (jobs.csv, iterations.csv,
 *     ranks.csv list it), named bg-<k>-<name>, k from 000 in the order
 *     they are listed, allocation "production" (its nodes as a list, rank
 *     r on node r / ppn), starting at a time drawn uniformly in
 *     [0, stagger_us] so that the jobs' iterations do not start in step,
 *     stopped when the measured jobs end. A workload with an `iterations`
 *     key runs 4294967294 of them unless the entry says otherwise, so a
 *     fill job keeps going until it is stopped.
 *
 * What it is not: a scheduler simulation with arrivals, queue waits and
 * run times (the jobs' run times are not modelled: a job's chance to end in
 * a round does not depend on its size); a trace replay; a model of the
 * other users' I/O or service nodes. First fit in node order stands for
 * ALPS and Slurm on the Cray XC handing out nodes in NID order (an
 * assumption: Slurm's preference for the smallest run that holds a job is
 * not modelled).
 *
 * Every key is checked while the file is read (entry keys against the
 * entry's schema and its workload's, each workload on every size it may
 * be given, weights > 0, sizes whole numbers), and what needs the system
 * (fill against the file's jobs' share, sizes against the nodes the fill
 * takes) once it is built, before anything runs (jobs_check).
 *
 * Randomness: the fill of the run with seed s draws from
 * rng_stream(s, RNG_PRODUCTION, 0) only; the file's jobs draw what they
 * draw without it, so adding a production section leaves their
 * allocations as they were.
 */
#ifndef DFSIM_PRODUCTION_H
#define DFSIM_PRODUCTION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/workload.h"
#include "core/diag.h"
#include "core/time.h"
#include "exp/alloc.h"
#include "core/config.h"
#include "topo/topo.h"

/* Placements, as written in files (production.placement). */
enum production_placement {
    PROD_AGED,
    PROD_CONTIGUOUS,
    PROD_RANDOM,
    PROD_PLACEMENT_COUNT
};
extern const char *const production_placement_names[]; /* NULL-ended */

#define PROD_DEFAULT_CHURN 8   /* rounds of the aged placement */

/* One entry of production.mix: a workload family and how often. */
struct production_entry {
    const char *name;                  /* label in job names (default: its
                                          workload's name) */
    const struct reg_entry *workload;  /* a struct workload */
    double weight;                     /* relative number of jobs (1) */
    uint32_t ppn;                      /* ranks per node (1) */
    const struct reg_entry *routing;   /* a struct nic_ctl; NULL:
                                          "network" */
    struct cfg_floats sizes;           /* its own sizes (n = 0: the
                                          section's) */
    struct cfg_floats size_weights;    /* with its sizes (n = 0: equal) */
    const char *file;                  /* where it was written */
    int line;
    _Alignas(16) unsigned char params[WORKLOAD_PARAMS_MAX];
};

struct production_config {
    bool on;                           /* the file has the section */
    double fill;                       /* share of the nodes busy in all */
    struct cfg_floats sizes;           /* nodes per job (4 .. 128, powers
                                          of two) */
    struct cfg_floats size_weights;    /* n = 0: equal */
    const char *placement;             /* production_placement_names */
    uint32_t churn;                    /* aged: rounds of history */
    simtime stagger;                   /* starts drawn in [0, stagger] */
    uint32_t n_mix;
    struct production_entry *mix;      /* [n_mix] */
    const char *file;                  /* the section's place */
    int line;
    int fill_line;                     /* fill's line (checked against the
                                          system later) */
    uint32_t max_jobs;                 /* keep at most this many of the
                                          jobs drawn, the smallest (0: all;
                                          dfsim run --quick: 1) */
};

/* Read the production section of f into pc (pc->on = false without one).
 * has_jobs: whether the file has a jobs list (the section needs one).
 * Returns the number of errors reported to d. */
int production_load(struct cfg_file *f, struct production_config *pc,
                    bool has_jobs, struct diag *d);
void production_free(struct production_config *pc);

/* The checks that need the system t, whose file jobs take `file_nodes`
 * nodes: the fill's share at least theirs, every size at most the nodes
 * the fill takes. Returns the number of errors reported to d. */
int production_check(const struct production_config *pc,
                     const struct topo *t, uint32_t file_nodes,
                     struct diag *d);

/* Nodes with a NIC (what a share of the system counts) and the nodes the
 * fill is to take around `file_nodes` (0 if the fill is below them). */
uint32_t production_usable_nodes(const struct topo *t);
uint32_t production_target(const struct production_config *pc,
                           const struct topo *t, uint32_t file_nodes);

/* One job of a drawn fill. */
struct production_job {
    uint32_t entry;     /* index into pc->mix */
    uint32_t n_nodes;
    uint32_t *nodes;    /* [n_nodes] in rank order, malloc'd */
    simtime start;
};

struct production_fill {
    uint32_t n;                    /* jobs */
    struct production_job *job;    /* [n] */
    uint32_t target;               /* nodes it was to take */
    uint32_t nodes;                /* nodes it took: target - nodes is
                                      less than the smallest size */
};

/* Draw the fill of the run with seed `seed` on t around the nodes marked
 * in taken[node] (the file's jobs). Returns 0; -1 out of memory (reported
 * to d, out empty). The result is a pure function of (pc, t, taken,
 * seed). */
int production_draw(const struct production_config *pc, const struct topo *t,
                    const uint8_t *taken, uint64_t seed,
                    struct production_fill *out, struct diag *d);

/* Free what production_draw allocated (the jobs' node lists too, unless
 * their owner took them and set them to NULL). */
void production_fill_free(struct production_fill *f);

/* Print the section's keys (`dfsim run --help`). */
void production_print_keys(FILE *out);

#endif
