/* app/workload.h — the registry of workloads: every program a job of an
 * experiment file can run, by name, with its parameters.
 *
 * A workload is a struct of function pointers behind a struct reg_entry
 * (core/registry.h): its parameters are a struct of the workload's own
 * (struct micro_params, struct ember_params, ...) read from the job's
 * group of the experiment file through the workload's schema (`keys`,
 * offsets into that struct), after `defaults` has filled it. `init`
 * prepares one instance for a job of `nranks` ranks; `app` gives the
 * dmpi_app the MPI-like layer runs (mpi/mpi.h). Families and their pages:
 *   microbenchmarks  pingpong, allreduce, alltoall, bcast, barrier, incast,
 *                    bw, bibw, bisection (app/micro.h)
 *   ember motifs     halo3d, sweep3d (app/ember.h)
 *   GPCNeT           gpcnet-a2a, gpcnet-p2p-incast, gpcnet-rma-incast,
 *                    gpcnet-rma-bcast (congestors), gpcnet-rr-latency,
 *                    gpcnet-rr-bw-sync, gpcnet-allreduce (canaries)
 *                    (app/gpcnet.h)
 *   proxy apps       milc, lammps, amg, minighost (app/proxy.h)
 *   traces           otf2: a real MPI program's OTF2 trace replayed
 *                    (app/otf2.h)
 * Each has a page docs/workloads/<name>.md documenting every key (a test
 * checks it).
 */
#ifndef DFSIM_APP_WORKLOAD_H
#define DFSIM_APP_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/config.h"
#include "mpi/mpi.h"

/* What an instance knows of the job it runs in. */
struct workload_env {
    uint32_t nranks;
    uint32_t ppn;      /* ranks per node (rank r on the job's node r/ppn) */
    uint64_t seed;     /* the run's seed */
    uint32_t job;      /* the job's index in the experiment: instances of
                          random workloads draw from
                          rng_stream(seed, RNG_WORKLOAD, job) */
    const char *file;  /* the experiment file the job was read from: a
                          relative path in its keys (a trace) is found
                          from its folder (NULL: the working directory) */
};

/* A workload's own figure of a run, as its original prints it (GPCNeT's
 * average and 99th percentile). */
struct workload_metric {
    const char *name;  /* what is measured */
    const char *unit;
    double avg, p99;
    uint32_t n;        /* values */
};

/* Largest parameter struct and instance of any workload (checked at
 * compile time in workload.c), so that a job holds both inline. */
#define WORKLOAD_PARAMS_MAX 256
#define WORKLOAD_STATE_MAX 512

struct workload {
    struct reg_entry base;
    const char *family;           /* "micro", "ember", "gpcnet", "proxy" */
    const struct cfg_key *keys;   /* its keys in a job's group */
    const char *required;         /* a key without a default that every
                                     job must give (init refuses the
                                     defaults, naming it); NULL: none */
    void (*defaults)(void *params);
    /* Prepare `state` (WORKLOAD_STATE_MAX bytes) for env: 0, or -1 with a
     * sentence in err and nothing to free. */
    int (*init)(void *state, const void *params,
                const struct workload_env *env, char *err, size_t err_cap);
    void (*free)(void *state);
    struct dmpi_app (*app)(void *state);
    /* Whether these parameters make it loop until stopped (a GPCNeT
     * congestor without iterations); NULL: never. Such a job must be a
     * background job. */
    bool (*endless)(const void *params);
    /* The iterations these parameters make it mark (warm-up included),
     * for progress lines; 0: not known, or until stopped. NULL: 0. */
    uint32_t (*iterations)(const void *params);
    /* The size of the messages its iterations are made of, for SC'19's
     * per-message model (exp/jobs.h `model`); NULL: none. */
    uint64_t (*msg_bytes)(const void *params);
    /* Its own figure of job result r, whose first `skip` iterations are
     * the job's warm-up (NULL: none); 0, or -1 when there is nothing to
     * report (no iterations) or out of memory. */
    int (*metric)(const void *state, const struct dmpi_job_result *r,
                  uint32_t skip, struct workload_metric *out);
};

extern const struct registry workload_registry;

#endif
