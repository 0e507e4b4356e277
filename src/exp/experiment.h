/* exp/experiment.h — an experiment file, read and validated.
 *
 * Sections (libconfig groups; examples/example.cfg documents every key):
 *   experiment { name, seed }            what the run is called, its seed
 *   system     { name | topology, ... }  a built-in system, or a builder
 *                                        with its parameters; parameters
 *                                        given with a name override it
 *   probe      { size, pairs, ... }      the zero-load latency probe
 *   network    { routing, vcs, ... }     the network model's parameters,
 *                                        each overriding the family's
 *                                        default (net_params_defaults)
 *   traffic    { pattern, loads, ... }   synthetic traffic: one run per
 *                                        routing and load (exp/traffic.h)
 *   sampling   { interval_us, nic, ... } the hardware counters sampled
 *                                        during each traffic run into
 *                                        LDMS-style CSV (exp/sampler.h)
 *   jobs       ( { workload, nodes, ... }, ... )
 *                                        jobs sharing the machine, each a
 *                                        workload with its parameters and
 *                                        an allocation (exp/jobs.h)
 *   mpi        { eager_max, o_send_ns, ... } the MPI-like layer's
 *                                        parameters (mpi/mpi.h)
 *   app_aware  { cutoff, ... }           SC'19's controller (ctl/awr.h)
 *   production { fill, sizes, mix, ... } other users' jobs filling the
 *                                        machine around the file's jobs
 *                                        (exp/production.h)
 *   impact     { shares, victims, aggressors, ... }
 *                                        congestion impact (SC'20 Eq. 1):
 *                                        each victim alone and with each
 *                                        aggressor; instead of a jobs
 *                                        list (exp/impact.h)
 * Every key, type, range and name is checked; all mistakes are reported
 * together (file:line: key: what was expected) and the load fails.
 */
#ifndef DFSIM_EXPERIMENT_H
#define DFSIM_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/config.h"
#include "exp/impact.h"
#include "exp/jobs.h"
#include "exp/probe.h"
#include "exp/sampler.h"
#include "exp/traffic.h"
#include "net/net.h"
#include "topo/topo.h"

/* The longest experiment.name: it names the folder results/<name>. */
#define EXPERIMENT_NAME_MAX 128

struct experiment_info {
    const char *name; /* experiment.name (default: the file's base name) */
    const char *description; /* experiment.description, or NULL */
    int64_t seed;     /* experiment.seed */
    uint64_t time_limit; /* experiment.time_limit_ms, ps: a run with jobs
                            stops here */
    uint32_t runs;       /* experiment.runs: runs of the jobs, run r with
                            seed + r */
    bool windowed;       /* experiment.windowed: the windowed rules
                            whatever the processes (cli_run: --partitions
                            auto unless --partitions is given) */
};

struct system_choice {
    const struct reg_entry *system;  /* system.name, or NULL */
    const struct reg_entry *builder; /* system.topology, or NULL */
};

/* A traffic class as network.traffic_classes gives it (SC'20 §II-E; the
 * model's struct net_tc). */
struct tc_config {
    const char *name;  /* unique; jobs name it in traffic_class */
    double min_share;  /* minimum share of every link, in [0, 1] (0) */
    bool priority;     /* served before the classes without (false) */
    int line;          /* of its group */
};

/* The experiment's own keys of the network section as written (the
 * network model's and each routing family's are theirs: net/params.c,
 * struct routing.part). A key applies only where the file gives it
 * (experiment_net_params looks each one up), so no value here needs an
 * "unset" sentinel. */
struct net_config {
    const struct reg_entry *routing; /* a struct routing */
    struct cfg_names cc;             /* congestion_control: rate
                                        controllers (struct nic_ctl) */
    uint32_t n_tcs;                  /* traffic_classes given (0: none,
                                        the one default class) */
    struct tc_config tc[NET_MAX_TCS];
    const char *tcs_file;            /* where the list was written */
    int tcs_line;
};

struct experiment {
    const char *path;
    struct cfg_file *cfg;
    struct experiment_info info;
    const struct topo_system *system;   /* NULL when built from a builder */
    const struct topo_builder *builder;
    union topo_params params;
    bool overridden;                    /* parameters changed from system's */
    int system_line;
    struct probe_params probe;
    struct net_config net;              /* read; applied after the build */
    bool has_traffic;                   /* a traffic section is present */
    struct traffic_sweep traffic;
    bool has_sampling;                  /* a sampling section is present */
    struct sampler_config sampling;
    struct jobs_config jobs;            /* jobs.n = 0: no jobs list */
    struct impact_config impact;        /* impact.on: an impact section */
    char name_buf[EXPERIMENT_NAME_MAX + 1]; /* default name storage */
    size_t max_memory;                  /* bytes the run may take (0: no
                                           limit): experiment_build_topo
                                           refuses a system estimated to
                                           need more; set by the caller */
    const char *max_memory_from;        /* how it was found, for the
                                           message ("--max-memory") */
    bool quick;                         /* cut short (experiment_quicken):
                                           a run stopped at its time limit
                                           is no failure */
    char quick_note[4096];              /* what experiment_quicken changed,
                                           a line each */
};

/* Read and validate `path`. seed_override >= 0 replaces experiment.seed.
 * Returns 0, or -1 with every problem reported to d. */
int experiment_load(struct experiment *e, const char *path,
                    int64_t seed_override, struct diag *d);

/* Build the experiment's topology into t. Before anything is allocated,
 * a system is refused (an error at the system's line, with the figures)
 * if its topology, network model (under the file's network section) and
 * event queue are estimated to need more than e->max_memory bytes
 * (topo_estimate_bytes, net_estimate_bytes, sim_init_bytes: lower
 * bounds, the packets in flight come on top), or if it has more routers
 * and NICs than the event queue can number. */
int experiment_build_topo(const struct experiment *e, struct topo *t,
                          struct diag *d);

/* The network parameters of the experiment on topology t (built from it):
 * the family's defaults, then every key the network section gives. Checks
 * what needs the whole set (enough VCs for the routes' segments, buffers
 * that hold the largest packet, a packet's flits in 16 bits) and, with a
 * traffic section, that traffic.size fits in one packet and
 * traffic.hotspot_node exists; and the jobs' checks that need the system
 * (jobs_check: the production fill's share and sizes; impact_check: the
 * impact section's nodes and shares); errors name the
 * file and the line of the key. Returns 0 or -1. */
int experiment_net_params(const struct experiment *e, const struct topo *t,
                          struct net_params *p, struct diag *d);

/* Check the sampling section's metric names against n, the network of
 * the experiment built with counters: each name that the sampler cannot
 * read is an error at its line (sampler_check_metric says why). Returns 0
 * or -1. */
int experiment_check_sampling(const struct experiment *e, const struct net *n,
                              struct diag *d);

/* What can only be checked by building what the runs build, done once
 * before anything runs (after experiment_net_params gave np): with a
 * traffic section, the network model with its counters and the sampling
 * section's metric names; with a jobs list, run 0 set up unrun
 * (jobs_check_run: placements, the production fill, workloads, the
 * controllers the system must serve); with an impact section, the
 * victims' and aggressors' controllers. Every error names the file and
 * line. Returns 0 or -1. */
int experiment_check_run(const struct experiment *e, const struct topo *t,
                         const struct net_params *np, struct diag *d);

/* Cut e short for `dfsim run --quick`: every part of the file still runs
 * — the probe, each routing of a traffic sweep, every job, an impact
 * study's every victim and aggressor — but briefly, to check an
 * experiment end to end in seconds before the real run (and so that the
 * examples cannot rot: tests/test_cli.c runs them all so). What is cut:
 * experiment.runs and impact.runs to 1; the jobs' start times (and the
 * production fill's stagger) scaled so that the latest is at most 10 us,
 * keeping their order, and time_limit_ms to at most 1 ms past it per job
 * of the longest `after` chain (an impact study: 100 us past its
 * victims' start; jobs
 * still running then are written as unfinished, which is then no
 * failure); probe.pairs to at most 2; a traffic sweep to its first load
 * with windows (warmup_us, measure_us, drain_us) of at most 0.5 us; each
 * job's and victim's warm-up to at most 1 iteration (none with
 * variants) and its iterations to at most warm-up + 2 (one per variant,
 * if more), its sizes at their keys' caps (cfg_key.quick), compute
 * phases x0.01 (mpi.compute_scale); impact.shares to its first,
 * impact.warmup_us to at most 20, the aggressors' sizes capped;
 * the production fill to the smallest job it draws. Each change made is
 * a line of e->quick_note, which the run prints. Call after the checks
 * (experiment_net_params, experiment_check_run), so that the real
 * experiment is checked; the numbers are no results. */
void experiment_quicken(struct experiment *e);

void experiment_free(struct experiment *e);

/* Print every section's keys (for `dfsim run --help`). */
void experiment_print_keys(FILE *out);

#endif
