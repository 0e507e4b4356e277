/* exp/jobs_internal.h — what a run of jobs builds before its first
 * event, shared by the one-process run (exp/jobs.c) and the run in
 * windows over partitions (exp/jobs_win.c), so that both go through the
 * same set-up. For those two files only. */
#ifndef DFSIM_EXP_JOBS_INTERNAL_H
#define DFSIM_EXP_JOBS_INTERNAL_H

#include "core/sim.h"
#include "ctl/ctl.h"
#include "ctl/sc19_model.h"
#include "exp/job_counters.h"
#include "exp/jobs.h"
#include "exp/offered.h"
#include "mpi/mpi.h"
#include "net/net.h"
#include "net/xpart.h"

/* A run of jobs set up and not yet run: everything run_all builds before
 * the first event, so that a check (jobs_check_run) and a run go through
 * the same code and a check finds every error a run would find before
 * its first event. */
struct setup {
    uint32_t n;                 /* jobs */
    struct alloc_request *req;  /* [n] */
    uint32_t **nodes;           /* [n]: placed */
    struct jobs_wl_state *state;     /* [n] */
    struct dmpi_job_spec *spec; /* [n] */
    struct ctl_job *cj;         /* [n] */
    uint32_t inited;            /* workloads initialised */
    struct sim s;
    struct net net;
    struct dmpi m;
    struct ctl_run ctl;
    struct sc19_model mr;
    struct offered off;
    struct job_counters ctr;    /* counters read during the run */
    bool sim_ok, net_ok, mpi_ok, ctl_ok;
    bool state0_gone;           /* job 0's program replaced at a branch
                                   (struct jobs_branch) and the new one
                                   could not be set up: nothing to free */
};

/* Which partition of a split run this set-up is (net/xpart.h): the
 * routers' partitions (part_of, kept by the caller), P, this one, and the
 * units cut (dim: a torus's dimension, -1 a dragonfly's groups). */
struct jobs_part {
    const uint32_t *part_of;
    uint32_t parts, me;
    int dim;
};

/* Place the jobs of jc (the file's, and the fill's if any) with the
 * seed's streams, initialise their workloads, build the network (part:
 * this partition of a split run, or NULL), the controllers, the MPI
 * layer, the model and the offered-load meters. Returns 0, or -1 after
 * reporting to d (then jobs_teardown all the same). */
int jobs_setup(struct setup *u, const struct jobs_config *jc,
               const struct topo *t, const struct net_params *np,
               uint64_t seed, uint32_t extra_entities,
               const struct jobs_part *part, struct diag *d);
void jobs_teardown(struct setup *u, const struct jobs_config *jc);

/* The counters of the run (exp/job_counters.h) for u's jobs, read on n
 * at s's times; the sampler's events (unless cp's sampling is driven)
 * of the type after dmpi's, created by `entity`. 0, or -1 reported. */
int jobs_start_counters(struct setup *u, const struct jobs_config *jc,
                        const struct job_counters_params *cp, struct net *n,
                        struct sim *s, uint32_t entity, struct diag *d);

/* The start of the measured window: the earliest start of a foreground
 * job that does not wait for another. */
simtime jobs_window_start(const struct jobs_config *jc);

/* Copy what c asks for from the collected results (out->capture). -1:
 * out of memory (nothing captured). */
int jobs_capture_fill(struct jobs_capture *c, const struct jobs_config *jc,
                      const struct dmpi *m, uint32_t *const *nodes);

/* jobs_run in windows over out->partitions partitions (exp/jobs_win.c);
 * jobs_win_check refuses what is not split yet (0, or -1 reported). */
int jobs_win_run(const struct jobs_config *jc, const struct topo *t,
                 const struct net_params *np, uint64_t seed, simtime limit,
                 const struct jobs_output *out, simtime *end,
                 struct diag *d);
int jobs_win_check(const struct jobs_output *out, struct diag *d);

#endif
