/* ctl/sc19_model.h — SC'19's performance model (§2.4, Eq. 2), from the
 * NIC counters, beside the controller that uses it (ctl/awr.h).
 *
 * What is modelled: De Sensi et al. estimate a message's time from two
 * figures the NIC counters give over a window, the mean request-response
 * latency L (dTRACK_2 / dRSP_NET_TRACK) and the stall cycles per request
 * flit s ((dREQ_STALLED - dRSP_STALLED) / dREQ_FLITS, clamped at 0 as the
 * library's REMOVE_SRIN), as
 *     T = (p + 512) / 1024 · L + f · (s + 1)
 * for a message of p packets and f flits (the library's counts: 64-byte
 * packets, 64/5 bytes per flit for a PUT), in counter cycles, converted
 * to microseconds with the library's cycles_to_us. Here a job that asks
 * for it (`model = true`) has, at each iteration its rank 0 marks, the
 * counters of that rank's NIC read over the iteration and the estimate
 * of one message of the workload's size (SC'19 §2.4 found 79 %
 * correlation with ping-pong times). The counters are read by meaning
 * (net/counters.h), so the model runs on every family's NICs; on those
 * whose counters count another clock than Aries' 800 MHz, cycles_to_us
 * scales to it (a what-if: the model was fitted on Aries).
 */
#ifndef DFSIM_CTL_SC19_MODEL_H
#define DFSIM_CTL_SC19_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ctl/awr.h"
#include "net/counters.h"
#include "net/net.h"

/* The counters of rank 0's NIC the model reads. */
enum { SC19_PKTS, SC19_FLITS, SC19_STALL, SC19_RSP_STALL, SC19_TRACK,
       SC19_LAT, SC19_N };

struct sc19_model_job {
    bool on;
    struct ctr_ref ref[SC19_N];
    uint64_t prev[SC19_N];
    double p, f;       /* packets and flits of one message */
    double *us;        /* [n]: estimate per iteration, NaN: none; then */
    double *lat;       /*   [n] L, us, and */
    double *stall;     /*   [n] s, NIC cycles per flit */
    uint32_t n, cap;
};

struct sc19_model {
    const struct net *net;
    const struct awr_params *ap;
    double cycles_to_us;           /* ap's, at the family's counter clock */
    struct sc19_model_job *job;    /* [n_jobs] */
    uint32_t n_jobs;
    bool oom;                      /* an estimate was lost for memory */
};

/* A model of no job yet for n_jobs jobs on network n (which must keep
 * counters if any job is modelled), with the SC'19 library's constants
 * ap. 0, or -1 out of memory. */
int sc19_model_init(struct sc19_model *mr, const struct net *n,
                    const struct awr_params *ap, uint32_t n_jobs);
void sc19_model_free(struct sc19_model *mr);

/* Model job j: its rank 0 posts from NIC nic, one message of `bytes`
 * (a PUT). 0, or -1 if the network keeps no counters or its family's
 * NICs keep no counter of a meaning the model reads (*missing, a
 * CTR_NIC_* meaning: Gemini's keep no latency sums). */
int sc19_model_job(struct sc19_model *mr, uint32_t j, uint32_t nic,
                   uint64_t bytes, int *missing);

/* Rank r of job j marked the end of its iteration i (the MPI layer's
 * on_mark hook, ctx a struct sc19_model): with r = 0, the counters over
 * the iteration give L and s, Eq. 2 the estimate. */
void sc19_model_mark(void *ctx, uint32_t j, uint32_t r, uint32_t i);

/* Job j's iteration k: the estimate (SC19_EST), L in us (SC19_L) or s in
 * cycles per flit (SC19_S); NaN if none. */
enum { SC19_EST, SC19_L, SC19_S };
double sc19_model_value(const struct sc19_model *mr, uint32_t j, uint32_t k,
                        int which);

/* A split run (exp/jobs_win.c): the estimates this partition made (jobs
 * whose rank 0 runs here) into p, and another partition's added into mr
 * (no job is estimated in two). */
struct pack;
struct unpack;
void sc19_model_pack(const struct sc19_model *mr, struct pack *p);
void sc19_model_unpack(struct sc19_model *mr, struct unpack *u);

#endif
