/* ctl/sc19_model.c — SC'19's performance model (see sc19_model.h). */
#include "ctl/sc19_model.h"

#include <math.h>
#include <stdlib.h>

#include "core/pack.h"
#include "core/time.h"

/* By meaning, in enum order: the library's REQ_PKTS, REQ_FLITS,
 * REQ_STALLED, RSP_STALLED, RSP_NET_TRACK and RSP_TRACK_2 (SC'19 §2.3;
 * Aries' AR_NIC_NETMON_ORB_EVENT_CNTR_* and AR_NIC_ORB_PRF_NET_RSP_TRACK_2,
 * net/counters.c). */
static const uint8_t model_regs[SC19_N] = {
    CTR_NIC_PKTS, CTR_NIC_FLITS, CTR_NIC_STALLED, CTR_NIC_RSP_IN_STALLED,
    CTR_NIC_NET_TRACK, CTR_NIC_TRACK_NET,
};

int sc19_model_init(struct sc19_model *mr, const struct net *n,
                    const struct awr_params *ap, uint32_t n_jobs)
{
    mr->net = n;
    mr->ap = ap;
    /* the library's constant is for Aries' 800 MHz NIC counters: scaled
     * to another family's counter clock, by exactly 1 on Aries */
    mr->cycles_to_us = n->ct.nic ? ap->cycles_to_us *
                                       (double)TIME_HZ_ARIES_NIC /
                                       (double)ctr_hz(n)
                                 : ap->cycles_to_us;
    mr->oom = false;
    mr->n_jobs = n_jobs;
    mr->job = calloc(n_jobs ? n_jobs : 1, sizeof *mr->job);
    return mr->job ? 0 : -1;
}

void sc19_model_free(struct sc19_model *mr)
{
    for (uint32_t j = 0; mr->job && j < mr->n_jobs; j++) {
        free(mr->job[j].us);
        free(mr->job[j].lat);
        free(mr->job[j].stall);
    }
    free(mr->job);
    mr->job = NULL;
}

int sc19_model_job(struct sc19_model *mr, uint32_t j, uint32_t nic,
                   uint64_t bytes, int *missing)
{
    struct sc19_model_job *mj = &mr->job[j];
    for (int k = 0; k < SC19_N; k++)
        if (ctr_nic_ref_or_zero(mr->net, nic, (enum ctr_reg)model_regs[k],
                                0, &mj->ref[k]) != 0) {
            *missing = model_regs[k];
            return -1;
        }
    /* the SC'19 library's counts (ctl/awr.h): p packets of 64 B, f flits
     * at 64/5 bytes per flit, for a PUT */
    mj->p = ceil((double)bytes / mr->ap->packet_bytes);
    mj->f = awr_num_flits(mr->ap, bytes, false);
    mj->on = true;
    return 0;
}

/* Room for iteration i's figures; false out of memory. */
static bool grow(struct sc19_model_job *mj, uint32_t i)
{
    if (i < mj->cap)
        return true;
    uint32_t cap = mj->cap ? 2 * mj->cap : 64;
    while (cap <= i)
        cap *= 2;
    double *us = realloc(mj->us, cap * sizeof *us);
    if (us)
        mj->us = us;
    double *la = realloc(mj->lat, cap * sizeof *la);
    if (la)
        mj->lat = la;
    double *sl = realloc(mj->stall, cap * sizeof *sl);
    if (sl)
        mj->stall = sl;
    if (!us || !la || !sl)
        return false;
    mj->cap = cap;
    return true;
}

void sc19_model_mark(void *ctx, uint32_t j, uint32_t r, uint32_t i)
{
    struct sc19_model *mr = ctx;
    struct sc19_model_job *mj = &mr->job[j];
    if (!mj->on || r != 0)
        return;
    uint64_t v[SC19_N], d[SC19_N];
    for (int k = 0; k < SC19_N; k++) {
        v[k] = ctr_value(mr->net, &mj->ref[k]);
        d[k] = v[k] - mj->prev[k];
        mj->prev[k] = v[k];
    }
    if (!grow(mj, i)) {
        mr->oom = true;
        return;
    }
    while (mj->n < i) {
        mj->us[mj->n] = mj->lat[mj->n] = mj->stall[mj->n] = NAN;
        mj->n++;
    }
    double est = NAN, lat_us = NAN, st_cyc = NAN;
    if (d[SC19_TRACK] > 0 && d[SC19_FLITS] > 0) {
        double lat = (double)d[SC19_LAT] / (double)d[SC19_TRACK];
        /* stall cycles per flit; REQ - RSP stalls as the library's
         * REMOVE_SRIN, clamped at 0 */
        double stall = (double)d[SC19_STALL];
        if (mr->ap->remove_srin)
            stall = d[SC19_STALL] > d[SC19_RSP_STALL]
                        ? (double)(d[SC19_STALL] - d[SC19_RSP_STALL])
                        : 0.0;
        double st = stall / (double)d[SC19_FLITS];
        /* SC'19 Eq. 2, T_msg = (p + 512) / 1024 L + f (s + 1): the message's
         * flits leave one per NIC cycle plus s stall cycles each, and its p
         * packets wait for responses about once per 1024 outstanding (the ORB)
         * plus half a round trip; L and s from the deltas of the NIC
         * sc19_model_job named over the iteration (marked by rank 0), in
         * NIC cycles, then in us */
        est = ((mj->p + 512) / 1024 * lat + mj->f * (st + 1)) *
              mr->cycles_to_us;
        lat_us = lat * mr->cycles_to_us;
        st_cyc = st;
    }
    mj->lat[mj->n] = lat_us;
    mj->stall[mj->n] = st_cyc;
    mj->us[mj->n++] = est;
}

double sc19_model_value(const struct sc19_model *mr, uint32_t j, uint32_t k,
                        int which)
{
    const struct sc19_model_job *mj = &mr->job[j];
    if (!mj->on || k >= mj->n)
        return NAN;
    return which == SC19_EST ? mj->us[k]
           : which == SC19_L ? mj->lat[k]
                             : mj->stall[k];
}

void sc19_model_pack(const struct sc19_model *mr, struct pack *p)
{
    uint64_t k = 0;
    for (uint32_t j = 0; j < mr->n_jobs; j++)
        k += mr->job[j].on && mr->job[j].n > 0;
    pack_u64(p, k);
    pack_u64(p, mr->oom);
    for (uint32_t j = 0; j < mr->n_jobs; j++) {
        const struct sc19_model_job *mj = &mr->job[j];
        if (!mj->on || mj->n == 0)
            continue;
        pack_u64(p, j);
        pack_u64(p, mj->n);
        pack_bytes(p, mj->us, mj->n * sizeof *mj->us);
        pack_bytes(p, mj->lat, mj->n * sizeof *mj->lat);
        pack_bytes(p, mj->stall, mj->n * sizeof *mj->stall);
    }
}

void sc19_model_unpack(struct sc19_model *mr, struct unpack *u)
{
    uint64_t k = unpack_u64(u);
    mr->oom = mr->oom || unpack_u64(u) != 0;
    for (uint64_t i = 0; i < k && !u->bad; i++) {
        uint64_t j = unpack_u64(u), n = unpack_u64(u);
        if (j >= mr->n_jobs || n == 0 || n > UINT32_MAX) {
            u->bad = true;
            return;
        }
        struct sc19_model_job *mj = &mr->job[j];
        if (!grow(mj, (uint32_t)(n - 1))) {
            mr->oom = true;
            u->bad = true;
            return;
        }
        unpack_bytes(u, mj->us, n * sizeof *mj->us);
        unpack_bytes(u, mj->lat, n * sizeof *mj->lat);
        unpack_bytes(u, mj->stall, n * sizeof *mj->stall);
        mj->n = (uint32_t)n;
    }
}
