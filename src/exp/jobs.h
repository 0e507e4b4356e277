/* exp/jobs.h — the jobs of an experiment: read from the file's `jobs`
 * list and `mpi` section, placed on the machine, run together on the
 * MPI-like layer, and written out.
 *
 * A job is a workload (app/workload.h) with its parameters, a number of
 * nodes, ranks per node, an allocation policy (exp/alloc.h), a start time
 * and whether it is a background job (a congestor that runs until every
 * foreground job has finished). All jobs of the file run in one
 * simulation, on the network the file describes, from time 0 until the
 * foreground jobs end or experiment.time_limit_ms passes. A job with
 * `after` starts when the job it names has ended (start_us later), as the
 * next command of a batch script; with allocation "same" it runs on that
 * job's nodes (SC'19 §5.1: the microbenchmarks one after another on one
 * fixed allocation, while the other users' jobs go on).
 *
 * Everything that can be checked before a run is checked while the file
 * is read, with the file and line: every key against the job's schema and
 * its workload's, the keys that only some policies take, node lists, and
 * each workload's parameters against its rank count (the workload's own
 * init is called once and freed). What needs the system and a placement
 * (more nodes than the machine has free, a pair at a distance the system
 * lacks, a controller the system cannot serve) is checked by
 * jobs_check_run, before anything runs, naming the job's line.
 *
 * Results, one file each, written when the run ends:
 *   jobs.csv        a row per job: start, end and run time (us), whether
 *                   it finished, iterations, messages and bytes sent
 *   iterations.csv  a row per job and iteration: its end (the last rank's
 *                   mark) and its time (from the previous end, the first
 *                   from the job's start), us
 *   ranks.csv       a row per job and rank: its node and when it ended
 *   metrics.csv     a row per job whose workload has a figure of its own,
 *                   as its original prints it (GPCNeT: the kernel's
 *                   average and 99th percentile, in us or MiB/s per rank)
 *   load.csv        a row per class of jobs (measured, background, the
 *                   production fill): the bytes their NICs injected over
 *                   the measured window, as shares of the system's
 *                   injection and global bandwidth (exp/offered.h)
 *   variants.csv    a row per job and routing variant (ctl/ctl.h): its
 *                   iterations' time (median, quartiles, QCD, 95 % CI of
 *                   the median, SC'19 §3) and the median normalised to the
 *                   job's first variant; and the share of the bytes it
 *                   posted in each routing mode
 * With `model`, iterations.csv also gives each iteration's L (lat_us) and
 * s (stall_cycles, per flit) and its estimate by
 * SC'19's performance model (Eq. 2), T = (p + 512)/1024 · L + f · (s + 1)
 * for one message of the workload's size (p packets, f flits as the SC'19
 * library counts them) with L and s read from the counters of rank 0's
 * NIC over the iteration, and variants.csv the Pearson correlation of
 * estimate and measured time (SC'19 §2.4 found 79 % on ping-pong).
 * A job's routing is a controller (`routing`, default "network": every
 * message in network.routing) or several alternated iteration by
 * iteration (`variants`; ctl/ctl.h).
 * Times are printed in microseconds with 6 decimals: exact picoseconds.
 */
#ifndef DFSIM_JOBS_H
#define DFSIM_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/workload.h"
#include "core/diag.h"
#include "core/time.h"
#include "ctl/ctl.h"
#include "exp/alloc.h"
#include "exp/jobspec.h"
#include "core/config.h"
#include "exp/production.h"
#include "mpi/mpi.h"
#include "net/net.h"
#include "topo/topo.h"


struct jobs_config {
    uint32_t n;                         /* 0: the file has no jobs */
    struct job_config *job;             /* [n] */
    struct dmpi_params mpi;             /* defaults, then the mpi section */
    struct awr_params awr;              /* defaults, then the app_aware
                                           section */
    struct production_config prod;      /* the production section (on:
                                           there is one) */
};

/* Read the `jobs` list and the `mpi`, `app_aware` and `production`
 * sections of f into jc (n = 0 without a jobs list; mpi and app_aware
 * without jobs, or an impact section whose runs they set up, are
 * errors, as is production without a jobs list); the mpi section over
 * the defaults of MPI software stack mpi_stack (the system family's,
 * mpi/mpi.h dmpi_defaults_for; NULL: Cray MPI over uGNI). Returns the
 * number of errors reported to d. */
int jobs_load(struct cfg_file *f, struct jobs_config *jc,
              const char *mpi_stack, struct diag *d);
void jobs_config_free(struct jobs_config *jc);

/* The checks that need the system t, before anything runs: the
 * production fill's share and sizes against the nodes the file's jobs
 * take (exp/production.h). Returns the number of errors reported to d. */
int jobs_check(const struct jobs_config *jc, const struct topo *t,
               struct diag *d);

/* The nodes the file's jobs take: every job's, but those of jobs that
 * run on another job's nodes (allocation "same"). */
uint32_t jobs_file_nodes(const struct jobs_config *jc);

/* Fill req[0..jc->n) with the placement requests of jc's jobs, as
 * jobs_run places them. */
void jobs_alloc_requests(const struct jobs_config *jc,
                         struct alloc_request *req);


/* What a caller gets back from a run besides the files (exp/impact.c
 * compares a victim's iterations alone and under congestion): per job of
 * the run, in the order of the jobs_config, its nodes and iteration
 * times. jobs_run fills it when jobs_output.capture is set; free it with
 * jobs_capture_free. */
struct jobs_capture_job {
    uint32_t *nodes;     /* [n_nodes]: its nodes in rank order */
    uint32_t n_nodes;
    bool finished;       /* every rank ended (background: false if
                            stopped) */
    uint32_t n_iter;     /* iterations every rank marked */
    simtime *iter;       /* [n_iter]: each one's time (from the previous
                            end; the first from the job's start) */
    simtime msg_time;    /* its network messages' times, summed, and */
    uint64_t msg_timed;  /* how many (mpi.h: Netscope's M) */
};

struct jobs_capture {
    uint32_t n;                    /* jobs (0: nothing captured) */
    struct jobs_capture_job *job;  /* [n] */
};

void jobs_capture_free(struct jobs_capture *c);

/* Something that reads the network during the measured window (the
 * impact study's latency model, net/latency_model.h): `at` is called
 * with the network when the window opens (closing false), every `period`
 * of simulated time after (0: never) and when it closes (closing true),
 * each time at an instant before that instant's events (sim_run_before).
 * jobs_run keeps the counters for it (results unchanged). */
struct jobs_observer {
    simtime period;
    void (*at)(void *ctx, const struct net *n, bool closing);
    void *ctx;
};

struct job_counters_params; /* exp/job_counters.h */
struct jobs_writer;

/* A run that branches where its job 0 is released (it follows another
 * job's marks: GPCNeT's release, exp/impact_sim.c). Until then job 0
 * has sent nothing, so the network, the other jobs and job 0's place are
 * the same whichever program job 0 is to run: a caller with several such
 * programs simulates the warm-up once and forks there. At the release,
 * before job 0's ranks start, at(ctx) is called once: NULL goes on with
 * job 0 as it is; another job goes on with that one as job 0 from there
 * (its workload, parameters, name, warm-up iterations; the rest as
 * jobs_branch_same says) — the caller has forked, and this process is
 * the branch that runs it. Not with counters sampled (out->counters)
 * nor in windows (out->partitions): at is then never called. */
struct jobs_branch {
    const struct job_config *(*at)(void *ctx);
    void *ctx;
};

/* Whether job 0 of a run can branch from a to b (struct jobs_branch):
 * what the run does before the release is the same for both — the same
 * nodes, ranks per node, allocation, start, release, routing and
 * variants, class, delay sensitivity, roles, and neither with SC'19's
 * per-iteration model. */
bool jobs_branch_same(const struct job_config *a, const struct job_config *b);

/* One workload state buffer per job of a run, aligned for any workload's
 * struct (app/workload.h). */
struct jobs_wl_state {
    _Alignas(16) unsigned char b[WORKLOAD_STATE_MAX];
};

/* A finished run as its writer sees it: the jobs, the MPI layer's results
 * (mpi/mpi.h: per job its iterations, ranks, messages, paths), the
 * routing controllers (the bytes each variant posted in each mode), the
 * SC'19 model's estimates, each job's nodes and workload state. */
struct sc19_model; /* ctl/sc19_model.h */
struct jobs_run_view {
    const struct jobs_config *jc;
    const struct dmpi *m;
    const struct ctl_run *c;
    const struct sc19_model *mr;
    uint32_t *const *nodes;            /* [job]: its nodes in rank order */
    const struct jobs_wl_state *state; /* [job] */
};

/* Where the results go (any may be NULL) and what is printed. */
struct jobs_output {
    FILE *jobs, *iterations, *ranks; /* CSV, header first */
    FILE *metrics;                   /* the workloads' own figures */
    FILE *variants;                  /* per job and variant */
    FILE *load;                      /* the offered load (exp/offered.h) */
    FILE *waits;                     /* where each job's packets waited
                                        (mpi/mpi.h, struct dmpi_waits), or
                                        NULL: not counted */
    uint32_t run;                    /* the first column of every row */
    bool header;                     /* write the files' header lines */
    FILE *table;                     /* a table for a person, or NULL */
    FILE *progress;                  /* progress lines (stderr), or NULL */
    struct jobs_capture *capture;    /* filled after a run that returns
                                        0 or 1, or NULL */
    const struct jobs_observer *observer; /* or NULL */
    const struct job_counters_params *counters; /* LDMS samples and the
                                        per-job links report
                                        (exp/job_counters.h), or NULL */
    const struct jobs_writer *writer; /* writes a finished run's rows into
                                        the files above (NULL: none) */
    uint32_t partitions;             /* 0: in one process, as it comes;
                                        P: in windows over P partitions
                                        of the machine (exp/jobs_win.c) */
    int procs;                       /* processes sharing them (1) */
    const struct jobs_branch *branch; /* where job 0 is released, or NULL */
};

/* How a run's results are written: the rows of jobs.csv, iterations.csv,
 * ranks.csv, metrics.csv and variants.csv and a table for a person
 * (results/jobs_results.c: jobs_results_writer). The layer that writes
 * results sits above the one that runs jobs, so a caller hands the writer
 * in. */
struct jobs_writer {
    /* the header lines of out's open files */
    void (*headers)(const struct jobs_output *out);
    /* run v's rows into out's files (with out->header, their headers
     * first) and its table into out->table; 0, or -1 out of memory */
    int (*write)(const struct jobs_run_view *v, const struct jobs_output *out);
};

/* Place jc's jobs on t (seed: the allocations' streams) and, with a
 * production section, draw the fill around them (its jobs are background
 * jobs of the run, listed after the file's); run them on a network with
 * parameters np (its routing, counters off) until the foreground jobs
 * end or `limit` passes, and write the results to out (rows prefixed by
 * out->run; *end: the simulated time the run ended), the offered load of
 * each class of jobs over the measured window among them (load.csv,
 * exp/offered.h). Returns 0; 1 if the run ended at the limit with a
 * foreground job unfinished (its results are written, marked
 * unfinished); -1 after reporting to d (placement, out of memory, a
 * workload's error); SIM_INTERRUPTED if a signal stopped the run before
 * its foreground jobs ended (core/sim.h; nothing of it is written). */
int jobs_run(const struct jobs_config *jc, const struct topo *t,
             const struct net_params *np, uint64_t seed, simtime limit,
             const struct jobs_output *out, simtime *end, struct diag *d);

/* Everything jobs_run(jc, t, np, seed, ...) checks before its first
 * event, without running: the placement of the file's jobs and of the
 * production fill, each workload's init on its ranks, the network with
 * the counters the jobs need, the controllers (one the system cannot
 * serve, such as app-aware on a Slingshot, is an error at the job's
 * line), the MPI layer and the model's counters. Cheap next to a run
 * (one allocation and one network build) and deterministic: run 0's
 * seed gives run 0's placement. Returns 0, or -1 after reporting to d. */
int jobs_check_run(const struct jobs_config *jc, const struct topo *t,
                   const struct net_params *np, uint64_t seed,
                   struct diag *d);

/* The controllers of jobs[0..n) (routing, variants) against the network
 * of t with parameters np, as a run sets them up: for callers whose jobs
 * are placed later (exp/impact.c). Returns 0, or -1 after reporting to d
 * at the line of the first job whose controller the system cannot
 * serve. */
int jobs_check_controllers(const struct job_config *jobs, uint32_t n,
                           const struct awr_params *ap, const struct topo *t,
                           const struct net_params *np, struct diag *d);


/* Print the keys of a job's group and of the mpi section (`dfsim run
 * --help`). */
void jobs_print_keys(FILE *out);

/* Print workload w's keys (`dfsim list workload NAME`). */
void jobs_print_workload_keys(FILE *out, const struct workload *w);

#endif
