/* exp/impact.h — congestion impact: how much an aggressor job slows a
 * victim job down, as SC'20 measured it on Aries and Slingshot.
 *
 * What is modelled. SC'20 (De Sensi, Di Girolamo, McMahon, Roweth,
 * Hoefler, "An In-Depth Analysis of the Slingshot Interconnect") §III-A
 * runs a victim (a microbenchmark or an application) alone and then
 * together with an aggressor (an MPI_Put incast or an MPI_Sendrecv
 * all-to-all, 128 KiB messages) on a set of nodes split between them —
 * 10, 50 or 90 % to the aggressor, placed linearly, interleaved or at
 * random — and reports the congestion impact
 *
 *     C = T_congested / T_isolated                      (SC'20 Eq. 1)
 *
 * with T the victim's mean time (papers-and-workloads.md §1.5; one
 * iteration's time is the slowest rank's, "per iteration the max over
 * ranks", §1.6), as the heat maps of Fig. 9 (victims x aggressor type x
 * share). GPCNeT's network_load_test reports the same ratio for its
 * canaries, on its own figures (avg and 99th percentile, each rounded to
 * 0.1 before dividing; bandwidths isolated / congested) in its "Key
 * Results" table (app/gpcnet.h gpcnet_impact).
 *
 * The section (every key in examples/example.cfg, docs/congestion.md):
 *   impact = {
 *     nodes = 512;              nodes of the study, victims + aggressors
 *     shares = [0.1, 0.5, 0.9]; the aggressors' share of them
 *     allocation = "linear";    how both are placed (linear, interleaved,
 *                               random: SC'20 §III)
 *     victim_nodes = 64;        nodes each victim runs on (default: all
 *                               the victims' nodes at that share)
 *     warmup_us = 20.0;         the aggressors' head start
 *     warmup_iterations = 1;    or GPCNeT's: the victims go once every
 *                               aggressor rank has run 1 iteration
 *     runs = 1;                 placements (seed + r), iterations pooled
 *     node_seconds = false;     ICS'21 Fig. 6 (below)
 *     convergence = false;      ICS'21 Fig. 4b, 4c: convergence.csv
 *     victims = ( { workload = "pingpong"; bytes = 8; ... }, ... );
 *     aggressors = ( { workload = "gpcnet-rma-incast";
 *                      bytes = 131072; }, ... );
 *   };
 *
 * How it runs. For each run r (seed + r) and share s, one placement: two
 * requests to the allocator (exp/alloc.h), the victims' nodes
 * N - floor(s N) then the aggressors' floor(s N) (GPCNeT's floor(0.8 N)
 * for its congestors), both with `allocation`. Then for each victim:
 * one simulation of the victim alone (job 0, on the first of the
 * victims' nodes it needs, allocation "list", starting at warmup_us),
 * and for each aggressor type one simulation of the same victim job on
 * the same nodes with the aggressor as job 1 (a background job on the
 * aggressors' nodes from time 0, stopped when the victim ends). With
 * warmup_iterations = k the victim beside an aggressor starts warmup_us
 * after every aggressor rank has marked k iterations (or ended: a
 * passive RMA target) — GPCNeT's procedure, scaled: network_load_test.c
 * releases the canaries (an MPI_Ibarrier) once every congestor has run
 * its first pass, ntests x (1 + niters) calls of its kernel bounded by a
 * 10 s timeout, and keeps congesting while they run; here k calls of the
 * kernel (one call: an incast's every sender has put and flushed, its
 * opening flood drained; an all-to-all has exchanged with every peer
 * once). The same rule whatever the system, so each machine's head start
 * is its own aggressor's (SC'20's 128 KiB incast on 90 % of Malbec:
 * 9.1 ms); alone, the victim starts at warmup_us. The
 * victim is job 0 with the same seed in both, so its random choices
 * (GPCNeT's rings, rng_stream(seed, RNG_WORKLOAD, 0)) and the routers'
 * streams are the same; only the aggressor differs. The isolated run of
 * a (run, share, victim) serves every aggressor type: its placement and
 * seed do not depend on the aggressor, so re-running it would give the
 * same bytes. Every simulation is one call of jobs_run (exp/jobs.h).
 *
 * Per (victim, aggressor, share), pooled over the runs: T_isolated and
 * T_congested, the means of the victim's iteration times (after its
 * `warmup` iterations); C their ratio; the 99th percentiles (Hyndman &
 * Fan type 7, results/stats.h) and their ratio C_p99; the medians. Per
 * placement, ICS'21 Fig. 5's runtime increase: each run's C_r (its mean
 * congested over its mean isolated iteration, same nodes and seed) and
 * their mean, 99th percentile and maximum over the runs (the tail the
 * paper plots over 200 placements; with few runs the p99 is near the
 * maximum). For a
 * GPCNeT canary victim also GPCNeT's own avg and 99 % (gpcnet_summarize)
 * and its impact factors, rounded as network_load_test prints them.
 *
 * Node-seconds (node_seconds = true; ICS'21 §6, Fig. 6: "the ratio of
 * the nodeseconds required to complete the workload, and the sum of the
 * nodeseconds required to complete all of the applications in the
 * workload in isolation", its tail over placements). Each aggressor then
 * runs a fixed amount of work (its `iterations`, required) as a
 * foreground job beside the victim — the simulation ends when both have
 * ended, so the victim's last iterations may run alone — and once more
 * alone on its nodes, per run, share and controller (simulations after
 * all the others). Per run r, with N nodes and T a job's whole time
 * (start to its last iteration, warm-up included):
 *
 *     I_r = (N_v T_v,with + N_a T_a,with) / (N_v T_v,alone + N_a T_a,alone)
 *
 * and its mean, 99th percentile and maximum over the runs, into
 * impact_nodeseconds.csv (results/impact_nodeseconds.h). C and the
 * other files are computed as without it, from the victim's iterations.
 *
 * Checked before anything runs, at the key's line: every key, type and
 * range; each victim and aggressor group against its schema and its
 * workload's; shares in (0, 1) and distinct; victims that would run
 * forever; the section together with a jobs list or a production section
 * (not supported); and, once the system is built (impact_check): nodes
 * at most the system's nodes with a NIC, at every share at least one
 * victim node and enough aggressor nodes for two ranks, each victim's
 * nodes at most the victims' at every share, each workload's own init on
 * the rank counts it will get.
 *
 * Results (impact_run), in the results folder:
 *   impact.csv      a row per victim x aggressor x share (see
 *                   impact_csv_header)
 *   impact_runs.csv a row per simulation: which run, share, victim,
 *                   aggressor ("" alone), its seed, end time and the
 *                   victim's and aggressor's nodes (ranges)
 *   sensitivity.csv Netscope's delay sensitivity of each victim (ICS'21
 *                   Eq. 2) over its simulations, M measured per message
 *                   and, with latency_model, estimated from the counters
 *   convergence.csv, convergence_runs.csv with convergence: how many
 *                   of the victim's runs its delay sensitivity needs to
 *                   settle within 10 % (ICS'21 Fig. 4b, 4c;
 *                   results/convergence.h)
 *   controllers.csv with congestion_controls (the study once per
 *                   controller): each one's latency per request and
 *                   traffic per NIC, median and 90th percentile (ICS'21
 *                   Table 4)
 *   latency_model.csv with latency_model: the first ping-pong victim's
 *                   round trips against Netscope's latency model
 *                   (ICS'21 §4.2, net/latency_model.h), read through a
 *                   jobs_observer every latency_window; latency_fit.csv
 *                   the fits' constants and scores (Fig. 4a)
 *   impact_nodeseconds.csv with node_seconds: ICS'21 Fig. 6's increase
 *                   in node-seconds per (victim, aggressor, share)
 *   impact_time.csv, impact_time_summary.csv: each victim iteration
 *                   beside an aggressor against the time since it
 *                   started, and each simulation's halves (transient,
 *                   steady state; results/impact_time.h)
 *   phases.csv      the jobs' bandwidth per phase (results/phases.h)
 *   jobs.csv, iterations.csv, ranks.csv, metrics.csv, load.csv: the jobs
 *                   runner's files, the `run` column the simulation's
 *                   number in impact_runs.csv
 *   report.html     the heat maps impact.svg (C) and impact_p99.svg
 *                   (C_p99), drawn by gnuplot from impact.dat/.gp, and
 *                   the tables
 * and on the terminal the table of impact.csv and, for GPCNeT canaries,
 * network_load_test's "Key Results" table per aggressor and share.
 */
#ifndef DFSIM_IMPACT_H
#define DFSIM_IMPACT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/time.h"
#include "core/config.h"
#include "exp/jobs.h"
#include "net/latency_model.h"
#include "net/net.h"
#include "topo/topo.h"

/* Most victims and aggressor types of a section: each victim costs
 * 1 + aggressors simulations per share and run; 32 of each is already
 * ~1,000 simulations per share. */
#define IMPACT_MAX_GROUPS 32

struct impact_config {
    bool on;                       /* the file has an impact section */
    uint32_t nodes;                /* victims + aggressors (0: every node
                                      with a NIC) */
    struct cfg_floats shares;      /* the aggressors' share of nodes */
    const struct reg_entry *allocation; /* linear, interleaved, random */
    uint32_t victim_nodes;         /* 0: all the victims' nodes */
    simtime warmup;                /* the victims start here (with
                                      warmup_iterations: this long after
                                      the aggressor's warm-up pass) */
    uint32_t warmup_iterations;    /* GPCNeT's release: the aggressor's
                                      iterations before the victims go
                                      (0: at warmup alone) */
    uint32_t runs;                 /* placements, seed + r */
    bool node_seconds;             /* ICS'21 Fig. 6: aggressors run their
                                      own iterations, alone too */
    struct cfg_names ccs;          /* congestion controls, each a pass
                                      of the study (n 0: the network's) */
    bool latency_model;            /* ICS'21 §4.2 from the counters */
    simtime latency_window;        /* its measurement window */
    const char *latency_fit;       /* "relative" or "absolute" errors */
    bool convergence;              /* ICS'21 Fig. 4b, 4c: how many runs
                                      the delay sensitivity needs */
    int latency_model_line;
    uint32_t n_victims, n_aggressors;
    struct job_config *victim;     /* [n_victims]: workload, params,
                                      ppn, routing, nodes (0: the
                                      section's), warmup, traffic
                                      class */
    struct job_config *aggressor;  /* [n_aggressors] */
    const char *file;              /* the section's place */
    int line;
    int nodes_line, shares_line, victim_nodes_line;
    bool limit_ok;                 /* a victim stopped at the time limit
                                      is no failure (dfsim run --quick) */
};

/* Read the impact section of f into ic (ic->on = false without one).
 * has_jobs, has_production: whether the file has a jobs list or a
 * production section (errors with this section). Returns the number of
 * errors reported to d. */
int impact_load(struct cfg_file *f, struct impact_config *ic, bool has_jobs,
                bool has_production, struct diag *d);
void impact_free(struct impact_config *ic);

/* The checks that need the system t (see above). Returns the number of
 * errors reported to d. */
int impact_check(const struct impact_config *ic, const struct topo *t,
                 struct diag *d);

/* The study's nodes on t (ic->nodes, or every node with a NIC), the
 * aggressors' at share s (floor(s x nodes)) and the nodes victim v runs
 * on at that share. */
uint32_t impact_study_nodes(const struct impact_config *ic,
                            const struct topo *t);
uint32_t impact_aggressor_nodes(uint32_t study, double share);
uint32_t impact_victim_nodes(const struct impact_config *ic, uint32_t v,
                             uint32_t study, double share);

/* Whether job j runs the ping-pong, and the first victim of ic that does
 * (UINT32_MAX: none): the latency model's reference (ICS'21 §4.2). */
bool impact_is_pingpong(const struct job_config *j);
uint32_t impact_ref_pingpong(const struct impact_config *ic);

/* A growing sample of iteration times (ps). */
struct impact_sample {
    simtime *v;
    uint32_t n, cap;
};

/* A growable array of doubles. */
struct impact_dvec {
    double *v;
    uint32_t n, cap;
};

/* What the study's simulations collected, for its results
 * (results/impact_results.h): per share and victim the isolated runs'
 * iteration times, per aggressor, share and victim the congested ones
 * (ordered so: with congestion_controls the aggressors are (controller,
 * aggressor) pairs, c * n_a + g, and the isolated runs are per
 * controller too), each placement's mean, whether every run finished;
 * per victim one point per simulation for the delay-sensitivity fit (its
 * mean counted iteration and mean network message time, us; with the
 * latency model, the path classes averaged over its window); per
 * controller every NIC's latency per request and request traffic
 * (ICS'21 Table 4). */
struct impact_data {
    const struct impact_config *ic;
    struct impact_config view;       /* ic with the cells' aggressors
                                        named <aggressor>/<controller>
                                        (with congestion_controls) */
    uint32_t n_sh, n_v, n_cc, n_a, study_nodes;
    uint32_t n_iso, n_cells;         /* n_cc n_sh n_v, n_cc n_a n_sh n_v */
    bool unfinished;                 /* a victim hit the limit */
    struct impact_sample *iso, *con; /* [n_iso], [n_cells] */
    double *iso_run, *con_run;       /* the same, per run: its mean
                                        counted iteration, us (NaN: none) */
    bool *iso_done, *con_done;       /* every run finished */
    double *pt_t, *pt_m;             /* [victim][per_victim] */
    double *pt_stall;                /* the machine's percent time
                                        stalled over the run (the latency
                                        model's windows; NaN without) */
    uint32_t *pt_n, per_victim;
    struct latm_paths *pt_sp, *pt_rt;
    uint32_t *pt_sim;
    const char **pt_agg;             /* the aggressor's name, NULL alone */
    uint32_t *pt_share;              /* its share's index in ic->shares */
    struct impact_dvec *nlat, *ntraf; /* [controller] */
    /* node_seconds: each job's whole time per run, us (NaN: unfinished):
     * the victim alone [n_iso x runs], the victim and the aggressor
     * beside each other [n_cells x runs], the aggressor alone
     * [(controller x aggressor x share) x runs]; NULL without */
    double *ns_iso, *ns_con_v, *ns_con_a, *ns_alone;
};

/* The study's simulations: per run, share, victim and congestion
 * control, the victim alone and beside each aggressor; with
 * node_seconds, then per run, share, controller and aggressor, the
 * aggressor alone. */
uint32_t impact_simulations(const struct impact_config *ic);

/* Run the study's simulations of ic on t with network parameters np (jc:
 * the mpi and app_aware sections), runs with seed + r, each simulation
 * stopped at `limit`, dealt over the MPI ranks (exp/par.h); their rows
 * (jobs.csv, iterations.csv, ranks.csv, metrics.csv by `writer`, load.csv,
 * impact_runs.csv) into dir, progress on stderr; what they collected into
 * *data (rank 0's: the other ranks' is empty), which the caller frees
 * with impact_data_free, whatever the return. Rank 0 journals every
 * simulation it commits (dir/impact.journal, exp/journal.h); with
 * `resume` it first commits the journal's simulations again (the rows
 * and samples as the first time) and the study goes on from the first
 * simulation the journal lacks. partitions: 0, each simulation in one
 * process; P, in windows over P partitions (exp/jobs_win.c; under
 * mpirun, one a rank, every rank running every simulation).
 * share_warmup: the simulations that differ only in the victim run the
 * aggressor's warm-up once, forked at the release (exp/impact_branch.h;
 * in one process without partitions; the same files). waits: waits.csv
 * too, where each job's packets waited (mpi/mpi.h, struct dmpi_waits;
 * --waits). Returns 0,
 * SIM_INTERRUPTED, or -1 after reporting to d. */
int impact_simulate(const struct impact_config *ic,
                    const struct jobs_config *jc, const struct topo *t,
                    const struct net_params *np, uint64_t seed,
                    simtime limit, const char *dir,
                    const struct jobs_writer *writer, bool resume,
                    uint32_t partitions, bool share_warmup, bool waits,
                    struct impact_data *data, struct diag *d);
void impact_data_free(struct impact_data *data);

/* Print the section's keys (`dfsim run --help`). */
void impact_print_keys(FILE *out);

#endif
