/* exp/sampler.h — periodic counter sampling, written as LDMS writes it.
 *
 * What is modelled: the way the papers' sites collect the hardware counters
 * (net/counters.h) on a running machine — LDMS (repo:ovis-hpc/ldms) with
 * its two Aries samplers and its CSV store:
 *   aries_nic_mmr  reads, every `interval`, the raw NIC registers (names
 *                  AR_NIC_*) listed in a configuration file, one metric set
 *                  per node (ldms/src/sampler/aries_mmr/
 *                  ldms-sampler_aries_mmr.rst; its shipped metric_set_nic
 *                  lists REQ_PKTS, REQ_FLITS, REQ_STALLED and the RSPMON
 *                  PARB counters);
 *   aries_rtr_mmr  the same for the router's tile registers (AR_RTR_*), one
 *                  set per router (metric_set_rtr_*: INCOMING_FLIT_VC*,
 *                  FILTER_FLIT*_CNT, ROWBUS_STALL_CNT per tile);
 *   store_csv      one CSV file per schema, one row per set and sample,
 *                  header
 *                    #Time,Time_usec,ProducerName,component_id,job_id,
 *                    app_id,<metric>...
 *                  with Time = seconds.microseconds and Time_usec the
 *                  microseconds again (ldms/src/store/ldms-store_csv.rst,
 *                  time_format=0).
 * Values are the raw cumulative counts, as the samplers store them (no
 * deltas, no scaling: "No functional combinations of the counters are
 * supported"); LDMS's typical interval is 1 s, dfsim's runs last
 * microseconds, so the interval is the experiment's choice.
 *
 * dfsim's rows: the NIC sampler writes one row per node that has a NIC
 * (ProducerName = the node's name, component_id = the node id, the
 * counters of the node's first NIC); the router sampler one row per router
 * (ProducerName = the router's name, component_id = the router id).
 * In a job run job_id is the job on the node (the experiment's jobs
 * numbered from 1 in file order, then the production fill's; 0: an idle
 * node), as LDMS's jobinfo fills it from the resource manager; router
 * rows and traffic runs have 0, app_id is 0. Time is simulated time from 0 (the "epoch" is
 * the start of the run), truncated to whole microseconds as LDMS's
 * timestamps are: intervals below 1 us give rows with equal Time.
 *
 * Metric lists: by default the NIC sampler reads the family's analogues of
 * metric_set_nic (requests sent: packets, flits, stalled cycles; packets,
 * flits and stalls towards the host), and the router sampler every tile
 * counter of the machine: the union, in tile order, of what ctr_names
 * lists on each router. The list is one for all routers, as an LDMS
 * configuration file is: a tile that is not cabled on some router has no
 * counters there and reads 0 (the hardware's idle tile). A name that no
 * NIC (no router) has is an error — LDMS leaves such names out silently;
 * dfsim reports them (STYLE.md, "bad names").
 *
 * Samples are events of their own type, created by an entity the caller
 * reserves for the sampler alone, so every other event keeps its key and
 * its place in the order (core/evq.h); a sample only reads counters, which
 * costs the model nothing (net/counters.h), so a run gives the same
 * results with sampling on or off. Samples are taken at k x interval
 * (k >= 1) strictly before `until`, and only while the simulation has
 * other events pending: a sample that finds the queue empty is the last,
 * so sampling never keeps a finished run going. Each sample's rows are
 * flushed before the next event. The files are the paths given; dfsim
 * run gives temporary names and renames them when the run is kept
 * (exp/runner.c), so that a run cut short leaves no partial file under
 * the final name. The hot path writes preformatted text from arrays
 * sized at init and allocates nothing.
 */
#ifndef DFSIM_SAMPLER_H
#define DFSIM_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/sim.h"
#include "core/config.h"
#include "net/counters.h"
#include "net/net.h"

enum sampler_kind { SAMPLER_NIC, SAMPLER_RTR, SAMPLER_KINDS };

/* One sampling run's parameters. */
struct sampler_params {
    simtime interval;                 /* between samples; 0: off */
    simtime until;                    /* no sample at or after this time */
    bool nic, rtr;                    /* which samplers run */
    const char *nic_path, *rtr_path;  /* their CSV files (truncated) */
    const char *const *nic_metrics;   /* counter names; NULL: defaults */
    uint32_t n_nic_metrics;
    const char *const *rtr_metrics;   /* likewise for the router tiles */
    uint32_t n_rtr_metrics;
    const uint32_t *node_job;         /* [node]: the job_id column of the
                                         NIC rows (a job run's jobs,
                                         numbered from 1; 0: idle); NULL:
                                         0 everywhere, as router rows */
    const char *links_path;           /* the logical-link report of the
                                         measurement window (net/links.h),
                                         written by the workload; NULL:
                                         none */
    bool driven;                      /* no events of its own: the caller
                                         samples at every multiple of the
                                         interval (sampler_sample_now; a
                                         run split over partitions, on a
                                         view of the machine, net/xview.h) */
};

/* Everything off. */
void sampler_defaults(struct sampler_params *p);

static inline bool sampler_enabled(const struct sampler_params *p)
{
    return p->interval > 0 && (p->nic || p->rtr);
}

/* One CSV file: a row per producer and sample. */
struct sampler_set {
    FILE *f;                 /* NULL: this sampler is off */
    char *path;              /* for messages */
    uint32_t n_prod;         /* producers: nodes with a NIC, or routers */
    uint32_t n_metrics;
    struct ctr_ref *ref;     /* [n_prod * n_metrics]; reg CTR_REG_COUNT:
                                no such register there, reads 0 */
    char *prefix;            /* every producer's ",name,id,0,0" */
    uint32_t *prefix_at;     /* [n_prod + 1] offsets into prefix */
    char *line;              /* one row, built before it is written */
    size_t line_cap;
};

struct sampler {
    struct net *n;
    struct sim *s;
    uint32_t ev_type;        /* its event type (>= NET_EV_COUNT) */
    uint32_t entity;         /* the entity that creates its events */
    simtime interval, until;
    struct sampler_set set[SAMPLER_KINDS];
    uint64_t samples;        /* samples written */
    simtime last;            /* the time of the last one, if any */
    int err;                 /* errno of the first failed write, or 0;
                                sampling stops there */
    int err_set;             /* the set (enum sampler_kind) it failed on */
};

/* Start sampling network n on simulation s: open the CSV files of the
 * samplers sp turns on and write their headers, resolve every metric of
 * every producer once (ctr_find), register the handler of event type
 * `ev_type` (>= NET_EV_COUNT, unused by anyone else) and schedule the
 * first sample at sp->interval, created by `entity` (< the sim's entities,
 * reserved for the sampler: no other model may create events as it). The
 * net must keep counters (net_params.counters). Returns 0, or -1 with the
 * reason reported to d (key "sampling": a metric no producer has, named;
 * interval 0; a file that cannot be written); then nothing is left open
 * and sampler_free is harmless. */
int sampler_init(struct sampler *sm, struct net *n, struct sim *s,
                 uint32_t ev_type, uint32_t entity,
                 const struct sampler_params *sp, struct diag *d);

/* A sample now, outside the schedule (unless one was just taken at this
 * very time): the job runs' last, when their jobs have ended, so that
 * the files hold the runs' final counts. */
void sampler_sample_now(struct sampler *sm);

/* After the run: 0, or -1 with the failed write (disk full, ...) reported
 * to d. The files written so far stay as they are. */
int sampler_status(const struct sampler *sm, struct diag *d);

/* Close the files and release the arrays. Pending sample events stay in
 * the simulation's queue: free the sim or stop running it first. */
void sampler_free(struct sampler *sm);

/* Whether `name` is a counter the sampler of kind k can read on net n (a
 * NIC register of the NIC sampler; a tile register that at least one
 * router has, for the router sampler). Returns 0, or -1 with the reason,
 * one sentence naming it, in why[0..cap). */
int sampler_check_metric(const struct net *n, enum sampler_kind k,
                         const char *name, char *why, size_t cap);

/* ---- experiment files ------------------------------------------------ */

/* The `sampling` section as written. */
struct sampler_config {
    double interval_us;               /* between samples, us */
    bool nic, rtr;
    bool links;                       /* write links.txt */
    struct cfg_strings nic_metrics;   /* n == 0: the defaults */
    struct cfg_strings rtr_metrics;
};

/* Schema of the section (offsets into struct sampler_config). */
extern const struct cfg_key sampler_keys[];
void sampler_config_defaults(struct sampler_config *c);

/* The parameters of the section for one run (paths and `until` left for
 * the caller; metric lists point into c). */
void sampler_config_params(const struct sampler_config *c,
                           struct sampler_params *p);

#endif
