/* ctl/awr.c — application-aware routing (see awr.h).
 *
 * Each function below names the part of the authors' library
 * (repo:DanieleDeSensi/awr awr.c) it follows. Invariant: a NIC's state
 * changes only in awr_select and awr_sent for a message of that NIC, so
 * controllers of different NICs never interact, as separate processes do.
 */
#include "ctl/awr.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

#include "topo/topo.h"

/* struct awr_counters order, by meaning (net/counters.h). The library
 * reads REQ_FLITS, REQ_STALLED, RSP_TRACK_2, RSP_NET_TRACK and, with
 * REMOVE_SRIN, RSP_STALLED (counters_names[]: Aries'
 * AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS, _REQ_STALLED, _RSP_STALLED,
 * _RSP_NET_TRACK and AR_NIC_ORB_PRF_NET_RSP_TRACK_2); dfsim always reads
 * all five (reads cost nothing, awr.h) and uses RSP_STALLED only with
 * remove_srin. Read by meaning, the same five exist on every family's
 * NICs, so the controller runs off Aries too (a what-if: the library was
 * written for Aries). */
static const uint8_t counter_regs[AWR_NCTR] = {
    CTR_NIC_FLITS, CTR_NIC_STALLED, CTR_NIC_RSP_IN_STALLED,
    CTR_NIC_NET_TRACK, CTR_NIC_TRACK_NET,
};

/* ---- its keys: the app_aware section -------------------------------------- */

#define AWR_KEY(type_, key, field, text, ...)                                \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct awr_params, field), .help = text,            \
      __VA_ARGS__ }

const struct cfg_key awr_param_keys[] = {
    AWR_KEY(CFG_UINT64, "cutoff", cutoff,
            "bytes sent with ADAPTIVE_3 before a decision (4096, "
            "AWR_CUTOFF)", .min = 0, .max = INT64_MAX),
    AWR_KEY(CFG_FLOAT, "factor_lat", factor_lat,
            "latency of ADAPTIVE_0 over ADAPTIVE_3 (1.2)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_FLOAT, "factor_stalls", factor_stalls,
            "stalls of ADAPTIVE_3 over ADAPTIVE_0 (5.0)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_UINT32, "max_freshness", max_freshness,
            "decisions a stored sample of the other mode lives (5)",
            .min = 0, .max = 1 << 20),
    AWR_KEY(CFG_BOOL, "remove_srin", remove_srin,
            "stalls = REQ_STALLED - RSP_STALLED (true, REMOVE_SRIN)"),
    AWR_KEY(CFG_FLOAT, "cycles_to_us", cycles_to_us,
            "NIC cycle, us (0.00125: 800 MHz)", .fmin = 1e-9, .fmax = 1),
    AWR_KEY(CFG_UINT32, "packet_bytes", packet_bytes,
            "bytes per request packet (64)", .min = 1, .max = 1 << 20),
    AWR_KEY(CFG_FLOAT, "flits_per_packet", flits_per_packet,
            "request flits per PUT packet (5)", .fmin = 1e-6, .fmax = 1e6),
    AWR_KEY(CFG_FLOAT, "get_flit_div", get_flit_div,
            "GET requests' flits divided by this (5)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_UINT32, "max_outstanding", max_outstanding,
            "outstanding packets of a NIC in the model's alpha (1024)",
            .min = 1, .max = 1 << 24),
    AWR_KEY(CFG_BOOL, "eq3", eq3,
            "compare Eq. 3's two costs instead of the library's divided "
            "test (false)"),
    AWR_KEY(CFG_BOOL, "same_message", same_message,
            "reuse the other mode's stored sample only for a message of "
            "the same destination and size, as the authors' library does "
            "(false: whenever it is fresh, as SC'19 Algorithm 1 writes "
            "it)"),
    AWR_KEY(CFG_BOOL, "variant_restart", variant_restart,
            "with variants: take a new counter baseline when another "
            "variant has posted from the NIC since app-aware's last read "
            "(false: the deltas since its own last read, as the library)"),
    { .name = NULL },
};

void awr_defaults(struct awr_params *p)
{
    *p = (struct awr_params){
        .cutoff = 4096,            /* cutoff_value */
        .factor_lat = 1.2,         /* factorlat */
        .factor_stalls = 5.0,      /* factorstalls */
        .max_freshness = 5,        /* max_freshness */
        .remove_srin = true,       /* #define REMOVE_SRIN */
        .cycles_to_us = 1.25 / 1000.0, /* cycles_to_microsecs */
        .packet_bytes = 64,        /* size / 64.0 */
        .flits_per_packet = 5.0,   /* 64/5.0 */
        .get_flit_div = 5.0,       /* num_flits /= 5.0 for GETs */
        .max_outstanding = 1024,   /* (... + 512) / 1024.0 */
        .eq3 = false,
        .same_message = false,     /* Algorithm 1: age only (the library:
                                      also same peer and size) */
        .variant_restart = false,
    };
}

/* Why p cannot be used, or NULL. */
static const char *params_error(const struct awr_params *p)
{
    if (!(p->factor_lat > 0) || !(p->factor_stalls > 0))
        return "the scaling factors must be positive";
    if (!(p->cycles_to_us > 0))
        return "cycles_to_us must be positive";
    if (p->packet_bytes == 0 || !(p->flits_per_packet > 0) ||
        !(p->get_flit_div > 0))
        return "packet size, flits per packet and the GET divisor must be "
               "positive";
    if (p->max_outstanding < 2)
        return "max_outstanding must be 2 or more";
    return NULL;
}

/* ---- the pure parts ------------------------------------------------- */

double awr_num_flits(const struct awr_params *p, uint64_t bytes, bool get)
{
    /* get_next_routing: num_flits = size / (64/5.0), a floating 12.8 B per
     * flit (5 request flits per 64 B PUT packet, SC'19 §2.1); the summary
     * writes 64/5, which in C integers would be 12 and overcount f by 7 %:
     * the code has 5.0. The same operations in the same order, so the
     * result is bit for bit the library's. */
    double f = (double)bytes / ((double)p->packet_bytes / p->flits_per_packet);
    if (get)
        f /= p->get_flit_div; /* "In Gets data is carried by responses" */
    return f;
}

double awr_alpha(const struct awr_params *p, uint64_t bytes)
{
    /* num_packets = ceil(size / 64.0);
     * alpha = ceil((num_packets - 1 + 512) / 1024.0) */
    /* SC'19 Eq. 2: a NIC may have at most 1024 packets outstanding, so a
     * message of p packets waits for responses about once per 1024 of them,
     * plus half a round trip for the first flit to arrive: T_msg =
     * (p + 512) / 1024 L + f (s + 1). The library rounds the factor up. */
    double np = ceil((double)bytes / (double)p->packet_bytes);
    return ceil((np - 1 + (double)(p->max_outstanding / 2)) /
                (double)p->max_outstanding);
}

bool awr_sample(const struct awr_params *p, const struct awr_counters *prev,
                const struct awr_counters *now, double *lat_us,
                double *stall_us)
{
    /* update_counters: a sample needs responses tracked and request flits
     * sent since the previous read (tmpvalues[3] > values[3] &&
     * tmpvalues[0] > values[0]); otherwise the last sample stays. Deltas
     * are modulo 2^64, as counters wrap. */
    uint64_t flits = now->req_flits - prev->req_flits;
    uint64_t track = now->rsp_net_track - prev->rsp_net_track;
    if (flits == 0 || track == 0)
        return false;
    /* s, the stalls per request flit: "every clock cycle a ready-to-forward
     * flit is not forwarded because of back-pressure" (SC'19 §2.3) over the
     * flits sent; L, the mean time from a request leaving the NIC to its
     * response back */
    uint64_t req = now->req_stalled - prev->req_stalled;
    uint64_t rsp = p->remove_srin ? now->rsp_stalled - prev->rsp_stalled : 0;
    /* (dREQ_STALLED - dRSP_STALLED), signed as the library's long longs */
    double stalled = req >= rsp ? (double)(req - rsp) : -(double)(rsp - req);
    double sr = stalled / (double)flits;
    /* get_next_routing: "Since we are removing sr_in, in some cases ... we
     * may have sr_in higher than sr_out", so sr < 0 becomes 0. */
    if (sr < 0)
        sr = 0;
    *stall_us = sr * p->cycles_to_us;
    /* latency = dTRACK_2 / dNET_TRACK, which the hardware counts in us;
     * dfsim's counter is in NIC cycles, converted with the same factor. */
    *lat_us = ((double)(now->rsp_track2 - prev->rsp_track2) / (double)track) *
              p->cycles_to_us;
    return true;
}

void awr_estimate(const struct awr_params *p, enum awr_choice cur,
                  double lat_us, double stall_us, double *lat_other,
                  double *stall_other)
{
    /* get_next_routing, written as the library writes it (multiplying by
     * the reciprocal) so the results match to the bit. */
    /* The other mode's L and s are estimated from this mode's by fixed
     * factors, the "median case over several runs of different
     * microbenchmarks" (SC'19 §4.2): the library's 1.2 (ADAPTIVE_0's latency
     * over ADAPTIVE_3's) and 5.0 (ADAPTIVE_3's stalls over ADAPTIVE_0's). */
    if (cur == AWR_LOW_LAT) {
        *lat_other = p->factor_lat * lat_us;
        *stall_other = (1.0 / p->factor_stalls) * stall_us;
    } else {
        *lat_other = (1.0 / p->factor_lat) * lat_us;
        *stall_other = p->factor_stalls * stall_us;
    }
}

enum awr_choice awr_decide(const struct awr_params *p, enum awr_choice cur,
                           double lat_us, double stall_us, double lat_other,
                           double stall_other, double num_flits,
                           double alpha)
{
    enum awr_choice other = cur == AWR_LOW_LAT ? AWR_LOW_STALLS : AWR_LOW_LAT;
    /* SC'19 Eqs. 3-4: high bias (ADAPTIVE_3) is worth it when its larger
     * stalls cost the message's f flits less than its lower latency saves:
     * f < (L_ad - L_bs) / (s_bs - s_ad) (p + 512) / 1024; the library
     * evaluates that quotient (and its dual from ADAPTIVE_3), eq3 the two
     * costs themselves. */
    if (p->eq3) {
        /* Eq. 3 with the (s + 1) written out: the f terms cancel. */
        double c_cur = alpha * lat_us + num_flits * stall_us;
        double c_other = alpha * lat_other + num_flits * stall_other;
        return c_other < c_cur ? other : cur;
    }
    if (cur == AWR_LOW_STALLS) {
        /* factor = alpha*(latency - estimated_latency) /
         *          (estimated_sr - stalls_ms); AD3 if num_flits < factor */
        double num = alpha * (lat_us - lat_other);
        double den = stall_other - stall_us;
        if (den == 0) /* +inf if num > 0, else -inf or NaN: stay */
            return num > 0 ? AWR_LOW_LAT : AWR_LOW_STALLS;
        return num_flits < num / den ? AWR_LOW_LAT : AWR_LOW_STALLS;
    }
    /* factor = alpha*(estimated_latency - latency) /
     *          (stalls_ms - estimated_sr); AD0 if num_flits > factor */
    double num = alpha * (lat_other - lat_us);
    double den = stall_us - stall_other;
    if (den == 0) /* -inf if num < 0 (f > -inf), else +inf or NaN: stay */
        return num < 0 ? AWR_LOW_STALLS : AWR_LOW_LAT;
    return num_flits > num / den ? AWR_LOW_STALLS : AWR_LOW_LAT;
}

/* ---- set-up --------------------------------------------------------- */

static int alloc_nics(struct awr *a, const struct awr_params *p,
                      uint32_t n_nics, uint8_t ad0, uint8_t ad1, uint8_t ad3)
{
    memset(a, 0, sizeof *a);
    a->p = *p;
    a->mode_ad0 = ad0, a->mode_ad1 = ad1, a->mode_ad3 = ad3;
    a->n_nics = n_nics;
    a->nic = calloc(n_nics ? n_nics : 1, sizeof *a->nic);
    if (!a->nic)
        return -1;
    for (uint32_t i = 0; i < n_nics; i++)
        awr_reset(a, i);
    return 0;
}

void awr_reset(struct awr *a, uint32_t nic)
{
    assert(nic < a->n_nics);
    struct awr_nic *s = &a->nic[nic];
    struct awr_stats st = s->st;
    memset(s, 0, sizeof *s);
    s->st = st;
    s->choice = AWR_LOW_STALLS; /* last_routing_true = 65535: not AD3, so
                                   the AD0 branch */
    s->last_mode = AWR_MODE_NONE;
}

int awr_init(struct awr *a, const struct awr_params *p, const struct net *n,
             uint8_t mode_ad0, uint8_t mode_ad1, uint8_t mode_ad3,
             char *err, size_t cap)
{
    memset(a, 0, sizeof *a);
    const char *why = params_error(p);
    if (why) {
        snprintf(err, cap, "awr: %s", why);
        return -1;
    }
    if (!n->p.counters || !n->ct.nic) {
        snprintf(err, cap, "awr: the network does not keep counters "
                 "(net_params.counters); the controller reads the NIC "
                 "counters");
        return -1;
    }
    uint8_t modes[3] = { mode_ad0, mode_ad1, mode_ad3 };
    for (int i = 0; i < 3; i++)
        if (modes[i] >= n->n_modes) {
            snprintf(err, cap, "awr: routing mode %u is not configured "
                     "(the network has %u)", modes[i], n->n_modes);
            return -1;
        }
    if (alloc_nics(a, p, n->n_nics, mode_ad0, mode_ad1, mode_ad3) != 0 ||
        !(a->ref = calloc((size_t)n->n_nics * AWR_NCTR + 1,
                          sizeof *a->ref))) {
        awr_free(a);
        snprintf(err, cap, "awr: out of memory");
        return -1;
    }
    a->n = n;
    for (uint32_t i = 0; i < n->n_nics; i++)
        for (int k = 0; k < AWR_NCTR; k++)
            if (ctr_nic_ref_or_zero(n, i, (enum ctr_reg)counter_regs[k], 0,
                            &a->ref[(size_t)i * AWR_NCTR + k]) != 0) {
                const char *unit, *what = ctr_describe(
                    n, &(struct ctr_ref){ .reg = counter_regs[k] }, &unit);
                (void)unit;
                snprintf(err, cap, "awr: the controller reads a NIC counter "
                         "of %s, which a %s system's NICs do not keep", what,
                         n->t->family->name);
                awr_free(a);
                return -1;
            }
    /* cycles_to_us is the library's, for Aries' 800 MHz NIC counters; on
     * a family whose counters count another clock it scales to that one
     * (on Aries by exactly 1) */
    a->p.cycles_to_us *= (double)TIME_HZ_ARIES_NIC / (double)ctr_hz(n);
    return 0;
}

int awr_init_detached(struct awr *a, const struct awr_params *p,
                      uint32_t n_nics, uint8_t mode_ad0, uint8_t mode_ad1,
                      uint8_t mode_ad3)
{
    assert(params_error(p) == NULL);
    if (alloc_nics(a, p, n_nics, mode_ad0, mode_ad1, mode_ad3) != 0) {
        awr_free(a);
        return -1;
    }
    return 0;
}

void awr_free(struct awr *a)
{
    free(a->nic);
    free(a->ref);
    a->nic = NULL;
    a->ref = NULL;
    a->n_nics = 0;
}

/* ---- per message ---------------------------------------------------- */

/* Algorithm 1 for message m on NIC s (get_next_routing). */
static enum awr_choice decide(struct awr *a, struct awr_nic *s,
                              const struct awr_msg *m)
{
    const struct awr_params *p = &a->p;
    enum awr_choice cur = (enum awr_choice)s->choice;
    struct awr_stored *mine = &s->stored[cur];
    struct awr_stored *o = &s->stored[cur == AWR_LOW_LAT ? AWR_LOW_STALLS
                                                        : AWR_LOW_LAT];
    /* Store this mode's sample, fresh, for the decisions that will be
     * taken in the other mode; age the other mode's by one. The library's
     * int goes below 0; saturating at 0 gives the same "> 0" tests. */
    *mine = (struct awr_stored){ .lat_us = s->lat_us,
                                 .stall_us = s->stall_us,
                                 .bytes = m->bytes, .dst_nic = m->dst_nic,
                                 .fresh = p->max_freshness };
    if (o->fresh > 0)
        o->fresh--;
    double lo, so;
    /* SC'19 Algorithm 1 reuses the other mode's sample while it is fresh;
     * the authors' library also asks for the same peer and size, which
     * an all-to-all never repeats within max_freshness decisions
     * (same_message) */
    bool same = o->dst_nic == m->dst_nic && o->bytes == m->bytes;
    if (o->fresh > 0 && (same || !p->same_message)) {
        lo = o->lat_us, so = o->stall_us;
        s->st.stored_used++;
    } else {
        awr_estimate(p, cur, s->lat_us, s->stall_us, &lo, &so);
    }
    enum awr_choice c = awr_decide(p, cur, s->lat_us, s->stall_us, lo, so,
                                   awr_num_flits(p, m->bytes, m->get),
                                   awr_alpha(p, m->bytes));
    s->st.decisions++;
    s->st.switches += c != cur;
    s->st.to_low_lat += c == AWR_LOW_LAT;
    s->choice = (uint8_t)c;
    return c;
}

uint8_t awr_select(struct awr *a, const struct awr_msg *m)
{
    assert(m->nic < a->n_nics);
    struct awr_nic *s = &a->nic[m->nic];
    if (m->smsg) {
        /* GNI_SmsgSend(WTag): awr_change_routing(routing_low_latency);
         * last_routing = routing_low_latency; no papi_pre, so SMSG bytes
         * do not count towards the cutoff. */
        s->last_mode = a->mode_ad3;
        return a->mode_ad3;
    }
    /* papi_pre */
    /* the library's low-stall mode is ADAPTIVE_0, but ADAPTIVE_1 for the
     * duration of an MPI_Alltoall ("the default routing algorithm used
     * for MPI_Alltoall communications", SC'19 §2.2) */
    uint8_t low_stalls = m->alltoall ? a->mode_ad1 : a->mode_ad0;
    uint8_t mode;
    s->pre_bytes += m->bytes;
    /* "we keep a cumulative counter of the message sizes, and we apply the
     * algorithm when this counter is higher than a threshold (experimentally
     * set to 4KiB)"; below it, high bias, as "small messages are more
     * affected by latency" (SC'19 §4.2) — cumulative, so that an
     * application of small messages still decides now and then */
    if (s->pre_bytes <= a->p.cutoff) {
        mode = a->mode_ad3; /* routing_low_latency; skipped_size */
        s->st.below_cutoff++;
        s->st.below_cutoff_bytes += m->bytes;
    } else if (s->have_sample) {
        s->pre_bytes = 0;
        mode = decide(a, s, m) == AWR_LOW_LAT ? a->mode_ad3 : low_stalls;
    } else {
        /* No sample yet (last_sr == -100): the count is not reset and the
         * mode stays; before any change the library leaves the MPI
         * library's own, ADAPTIVE_0 (ADAPTIVE_1 for MPI_Alltoall). */
        mode = s->last_mode != AWR_MODE_NONE ? s->last_mode : low_stalls;
        s->st.no_sample++;
    }
    s->last_mode = mode;
    return mode;
}

void awr_read(const struct awr *a, uint32_t nic, struct awr_counters *c)
{
    assert(a->n && nic < a->n_nics);
    const struct ctr_ref *r = &a->ref[(size_t)nic * AWR_NCTR];
    c->req_flits = ctr_value(a->n, &r[0]);
    c->req_stalled = ctr_value(a->n, &r[1]);
    c->rsp_stalled = ctr_value(a->n, &r[2]);
    c->rsp_net_track = ctr_value(a->n, &r[3]);
    c->rsp_track2 = ctr_value(a->n, &r[4]);
}

/* Count m; true if the cutoff lets the counters be read now
 * (update_counters' own cumulative_size, reset at each read). */
static bool account(struct awr *a, struct awr_nic *s, const struct awr_msg *m,
                    uint8_t mode)
{
    int k = mode == a->mode_ad0   ? AWR_AD0
            : mode == a->mode_ad1 ? AWR_AD1
                                  : AWR_AD3;
    assert(mode == a->mode_ad0 || mode == a->mode_ad1 ||
           mode == a->mode_ad3);
    s->st.msgs[k]++;
    s->st.bytes[k] += m->bytes;
    if (m->smsg) { /* the SMSG wrappers do not read (commented out) */
        s->st.smsg++;
        return false;
    }
    /* the counters are read after a post ("to do not introduce delays in
     * the transmission", SC'19 §4.2), and only once past the same
     * cumulative cutoff, as reads cost time on the real machine */
    s->post_bytes += m->bytes;
    if (s->post_bytes <= a->p.cutoff)
        return false;
    s->post_bytes = 0;
    return true;
}

/* A read: the next sample from the deltas, unless it is the first. */
static void update(struct awr *a, struct awr_nic *s,
                   const struct awr_counters *now)
{
    s->st.reads++;
    if (s->have_prev &&
        awr_sample(&a->p, &s->prev, now, &s->lat_us, &s->stall_us)) {
        s->have_sample = true;
        s->sample_choice = s->choice;
        s->st.samples++;
    }
    s->prev = *now;
    s->have_prev = true;
}

void awr_sent(struct awr *a, const struct awr_msg *m, uint8_t mode)
{
    assert(a->n && m->nic < a->n_nics);
    struct awr_nic *s = &a->nic[m->nic];
    if (!account(a, s, m, mode))
        return;
    struct awr_counters c;
    awr_read(a, m->nic, &c);
    update(a, s, &c);
}

void awr_sent_with(struct awr *a, const struct awr_msg *m, uint8_t mode,
                   const struct awr_counters *now)
{
    assert(m->nic < a->n_nics);
    struct awr_nic *s = &a->nic[m->nic];
    if (account(a, s, m, mode))
        update(a, s, now);
}

void awr_restart(struct awr *a, uint32_t nic)
{
    assert(nic < a->n_nics);
    a->nic[nic].have_prev = false;
}

void awr_totals(const struct awr *a, struct awr_stats *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < a->n_nics; i++) {
        const struct awr_stats *s = &a->nic[i].st;
        for (int k = 0; k < AWR_N_MODES; k++) {
            out->msgs[k] += s->msgs[k];
            out->bytes[k] += s->bytes[k];
        }
        out->smsg += s->smsg;
        out->below_cutoff += s->below_cutoff;
        out->below_cutoff_bytes += s->below_cutoff_bytes;
        out->no_sample += s->no_sample;
        out->decisions += s->decisions;
        out->switches += s->switches;
        out->to_low_lat += s->to_low_lat;
        out->stored_used += s->stored_used;
        out->reads += s->reads;
        out->samples += s->samples;
    }
}
