/* exp/jobspec.h — a job as an experiment file gives it: the keys of a
 * group of the `jobs` list (and of an impact study's victims and
 * aggressors, which are jobs with fewer keys), read and checked in one
 * place for every kind of run that runs jobs (exp/jobs.h, exp/impact.h).
 *
 * A job is a workload (app/workload.h) with its parameters, a number of
 * nodes, ranks per node, an allocation policy (exp/alloc.h), a start time
 * and whether it is a background job; its routing controller or the
 * variants it alternates (ctl/ctl.h); its traffic class; its delay
 * sensitivity (ICS'21's c_a, for a rate controller that reads it).
 * Everything that can be checked before a run is checked while the group
 * is read, with the file and line: every key against the job's schema and
 * its workload's, its allocation policy's keys against the policy's schema
 * (another policy's key is an error naming the policy it applies to) and
 * its check (node lists), and the workload's parameters against its rank
 * count.
 */
#ifndef DFSIM_EXP_JOBSPEC_H
#define DFSIM_EXP_JOBSPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/workload.h"
#include "core/config.h"
#include "core/diag.h"
#include "core/time.h"
#include "exp/alloc.h"

/* One job as the file gives it. */
struct job_config {
    const char *name;                   /* default: its workload's name, or
                                           <workload>-<index> if another job
                                           runs the same workload */
    const struct reg_entry *workload;   /* a struct workload */
    uint32_t nodes;
    uint32_t ppn;                       /* 1 */
    const struct reg_entry *allocation; /* a struct alloc_policy;
                                           linear */
    simtime start;                      /* start_us; with after: after
                                           that job's end */
    const char *after;                  /* the job it follows, or NULL */
    bool background;
    const struct reg_entry *routing;    /* a struct nic_ctl; NULL:
                                           "network" */
    struct cfg_names variants;          /* controllers alternated by
                                           iteration (n = 0: routing) */
    const char *variant_order;          /* "alternate" (NULL) or
                                           "shuffled" (ctl_variant) */
    uint32_t warmup;                    /* iterations left out of the
                                           variants' statistics */
    bool model;                         /* SC'19 Eq. 2 estimate per
                                           iteration from rank 0's NIC */
    bool fill;                          /* a job of the production fill
                                           (not in the file's list) */
    const char *traffic_class;          /* a name of
                                           network.traffic_classes, or
                                           NULL: the first class */
    double delay_sensitivity;           /* netscope's c_a for its NICs
                                           (with ds_line) */
    /* derived */
    const char *file;
    int line;
    uint32_t after_job;                 /* after: that job's index */
    uint32_t after_marks;               /* after: start when every rank
                                           of that job has marked this
                                           many iterations (0: when it
                                           ends; set by exp/impact_sim.c:
                                           GPCNeT's release) */
    int tc_line;                        /* traffic_class's line */
    int ds_line;                        /* delay_sensitivity's line, 0:
                                           not given */
    uint8_t tc;                         /* traffic_class's index
                                           (jobs_resolve_classes) */
    char name_buf[64];
    _Alignas(16) unsigned char alloc_params[ALLOC_PARAMS_MAX]; /* its
                                           policy's keys (list: the ids) */
    _Alignas(16) unsigned char params[WORKLOAD_PARAMS_MAX];
};

/* The roles a job's group has: a job of the `jobs` list, or an impact
 * study's victim (it must end; no allocation of its own) or aggressor (it
 * runs until the victim ends). Each reads a subset of the job's keys,
 * with help of its own. */
enum jobspec_role { JOBSPEC_JOB, JOBSPEC_VICTIM, JOBSPEC_AGGRESSOR };

/* A job with every key at its default (linear, ppn 1, ...), no workload
 * and no name: for callers that build jobs of their own (exp/impact.c,
 * exp/production.c). */
void jobs_job_defaults(struct job_config *j);

/* Free what reading j allocated in its allocation policy's block (a
 * list's node ids), through the policy's free. */
void jobs_job_free(struct job_config *j);

/* Read group g of f as a job of role `role` into j (defaults first):
 * `prefix` names it in messages ("jobs[3]", "impact.victims[0]"), `index`
 * is its place in its list (the workload's job number). Every mistake is
 * reported to d. */
void jobspec_read(struct cfg_file *f, struct config_setting_t *g,
                  const char *prefix, uint32_t index, enum jobspec_role role,
                  struct job_config *j, struct diag *d);

/* Default names for jobs[0..n) (their workload's; <workload>-<index>
 * when another job runs the same) and a check that names are unique
 * (`list` names the list in messages: "jobs", "impact.victims"). */
void jobspec_name(struct job_config *jobs, uint32_t n, const char *list,
                  struct diag *d);

/* Resolve the `after` names of jobs[0..n) of the `jobs` list: a chain
 * must not loop or wait on a background job, and "same" jobs without a
 * node count take their predecessor's. */
void jobspec_link(struct job_config *jobs, uint32_t n, struct diag *d);

/* The number of ranks of job j. */
uint32_t jobs_ranks(const struct job_config *j);

/* A job's delay_sensitivity without a rate controller that reads it
 * (reads false) is an error at its line ("prefix[i].delay_sensitivity").
 * Returns the number of errors reported. */
int jobs_check_sensitivity(const struct job_config *j, uint32_t n,
                           const char *prefix, bool reads, struct diag *d);

/* Resolve the traffic_class of jobs j[0..n) against the classes of
 * network.traffic_classes, names[0..n_names) in the order given: each
 * job's tc becomes its class's index, 0 (the first class; with none
 * given, the network's only one) without the key. A name that is not
 * one of them is an error at the key's line naming the known classes
 * ("prefix[i].traffic_class"). Returns the number of errors reported to
 * d. */
int jobs_resolve_classes(struct job_config *j, uint32_t n,
                         const char *prefix, const char *const *names,
                         uint32_t n_names, struct diag *d);

/* Print the keys of a job of role `role` (`dfsim run --help`), named
 * `list`. */
void jobspec_print_keys(FILE *out, const char *list, enum jobspec_role role);

#endif
