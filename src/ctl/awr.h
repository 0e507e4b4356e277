/* ctl/awr.h — application-aware routing (SC'19), the decision logic that
 * sits beside each NIC and picks a routing mode message by message.
 *
 * What is modelled: the controller of De Sensi, Di Girolamo and Hoefler,
 * "Mitigating Network Noise on Dragonfly Networks through Application-Aware
 * Routing" (SC'19, arXiv:1909.07865; shared/papers/
 * sc19-application-aware-routing.txt §2.3-2.4, §4.2-4.3, Algorithm 1,
 * Eq. 2-4), as its authors' public library implements it
 * (repo:DanieleDeSensi/awr awr.c: papi_pre, get_next_routing,
 * update_counters, the MPI_Alltoall and GNI_SmsgSend wrappers; summarised
 * in shared/reference/papers-and-workloads.md §3.1 and §4.1). For each
 * message the MPI layer posts:
 *   1. awr_select (the library's papi_pre + get_next_routing) adds its size
 *      to a cumulative byte count; while that is <= cutoff (4096 B) the
 *      message goes with the low-latency mode (ADAPTIVE_3, high bias) and
 *      nothing is decided; once it exceeds the cutoff, and a sample (L, s)
 *      exists, the count resets and Algorithm 1 runs: from the decision
 *      state (low latency or low stalls), the measured L and s, and the
 *      other mode's (L, s) — scaled from the measured ones by 1.2 and 5,
 *      or the stored sample of that mode while fresh — it chooses by
 *      Eq. 4 in the library's form. SMSG sends always go ADAPTIVE_3;
 *      inside MPI_Alltoall the low-stalls mode is ADAPTIVE_1, not _0.
 *   2. awr_sent (update_counters), after the post so as not to delay it:
 *      a second cumulative byte count gates the counter reads the same
 *      way; a read takes the deltas of the five NIC counters of §3.1 since
 *      the previous read and makes the next sample (the first read only
 *      sets the baseline).
 * State is per NIC in flat arrays; selecting and reading allocate nothing.
 *
 * Units, as the library works: L in microseconds (the Aries latency
 * counter counts microseconds, SC'19 §2.3 and footnote 3, and the library
 * uses it unconverted; dfsim's AR_NIC_ORB_PRF_NET_RSP_TRACK_2 counts 800
 * MHz cycles, net/counters.h, so L = dTRACK_2 / dRSP_NET_TRACK *
 * cycles_to_us); s in microseconds of stall per request flit (the library
 * converts the stalled-cycles ratio with cycles_to_microsecs = 1.25/1000);
 * message sizes in bytes; f in NIC request flits (16 B; 5 per 64 B PUT
 * packet, SC'19 §2.1).
 *
 * What is not modelled: the cost of reading the counters (PAPI_read of
 * five NIC registers, the reason the cutoff exists, §4.2) — a read here
 * takes no simulated time; the interposition on uGNI itself (the caller
 * tells the controller what it posts, and which of its messages are SMSG,
 * GETs or inside MPI_Alltoall); the library's environment switches
 * (AWR_ROUTING_TYPE, AWR_ROUTING_DISABLE, AWR_STORE_SR: a caller that
 * wants a fixed mode does not use the controller) and its commented-out
 * forced switch; DMAPP traffic (the library wraps uGNI only). The library
 * keeps one state per process; dfsim keeps one per NIC, which is the same
 * for the paper's runs (one process per node) and shared by the ranks of
 * a NIC otherwise. Samples count all the NIC's traffic since the previous
 * read, whatever mode each message took, and are attributed to the
 * decision state, as in the library (last_routing_true).
 */
#ifndef DFSIM_CTL_AWR_H
#define DFSIM_CTL_AWR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"

#include "net/counters.h"
#include "net/net.h"

/* Constants of the library, each with its awr.c value as the default. */
struct awr_params {
    uint64_t cutoff;          /* cumulative bytes (4096, AWR_CUTOFF) */
    double factor_lat;        /* latency of AD0 / of AD3 (1.2; paper
                                 lambda_ad = 1/1.2) */
    double factor_stalls;     /* stalls of AD3 / of AD0 (5.0; sigma_ad) */
    uint32_t max_freshness;   /* decisions a stored sample lives (5) */
    bool remove_srin;         /* s from REQ_STALLED - RSP_STALLED (true,
                                 REMOVE_SRIN) or REQ_STALLED alone */
    double cycles_to_us;      /* NIC cycle in us (1.25e-3: 800 MHz) */
    uint32_t packet_bytes;    /* bytes per request packet (64) */
    double flits_per_packet;  /* request flits per PUT packet (5: header +
                                 4 payload), f = bytes / (64 / 5.0) */
    double get_flit_div;      /* GET requests carry no data: f /= 5 */
    uint32_t max_outstanding; /* NIC's outstanding packets (1024): alpha =
                                 ceil((p - 1 + 1024/2) / 1024) */
    bool eq3;                 /* false: the library's divided test (Eq. 4);
                                 true: compare Eq. 3's two costs, right
                                 when the stall difference has the other
                                 sign too (see awr_decide) */
    bool same_message;        /* a stored sample of the other mode is
                                 reused only for a message of the same
                                 destination and size (true: the authors'
                                 library, get_next_routing's test) or
                                 whenever it is fresh (false, the
                                 default: SC'19 Algorithm 1, which tests
                                 its age alone) */
    bool variant_restart;     /* alternated variants (ctl.h): false, as
                                 the library would, the deltas since its
                                 own last read whatever ran in between;
                                 true, a new baseline when another
                                 variant has posted from the NIC since */
};

/* The library's values. */
void awr_defaults(struct awr_params *p);

/* Its keys: the experiment file's app_aware section, into a struct
 * awr_params (core/config.h schema). */
extern const struct cfg_key awr_param_keys[];

/* The decision state: which of the two modes the controller believes it
 * is on (the library's last_routing_true). Indexes awr_nic.stored. */
enum awr_choice {
    AWR_LOW_STALLS = 0, /* ADAPTIVE_0 (ADAPTIVE_1 inside MPI_Alltoall) */
    AWR_LOW_LAT = 1,    /* ADAPTIVE_3 */
};

/* The three modes, for statistics. */
enum { AWR_AD0, AWR_AD1, AWR_AD3, AWR_N_MODES };

/* What a controller learns about each message the MPI layer posts. */
struct awr_msg {
    uint32_t nic, dst_nic; /* source and destination NIC */
    uint64_t bytes;        /* size */
    bool get;              /* a GET (data in the responses), else a PUT */
    bool smsg;             /* an SMSG send (eager mailbox or control) */
    bool alltoall;         /* posted inside MPI_Alltoall */
};

/* One read of a NIC's five counters (§3.1), raw: flits, cycles, responses
 * as net/counters.h gives them. */
struct awr_counters {
    uint64_t req_flits;     /* AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS */
    uint64_t req_stalled;   /* ..._REQ_STALLED (cycles) */
    uint64_t rsp_stalled;   /* ..._RSP_STALLED (cycles) */
    uint64_t rsp_net_track; /* ..._RSP_NET_TRACK (responses) */
    uint64_t rsp_track2;    /* AR_NIC_ORB_PRF_NET_RSP_TRACK_2 (cycles) */
};

/* The last sample taken in one mode, reusable instead of the scaled
 * estimate while fresh (the library's lat_ad0, sr_ad0, ep_ad0, size_ad0,
 * freshness_ad0 and their _ad3 twins). */
struct awr_stored {
    double lat_us, stall_us; /* L, s */
    uint64_t bytes;          /* size of the message decided with it */
    uint32_t dst_nic;        /* its endpoint */
    uint32_t fresh;          /* > 0: usable; max_freshness when stored,
                                less one per decision in the other mode */
};

/* Per NIC (or summed by awr_totals). */
struct awr_stats {
    uint64_t msgs[AWR_N_MODES];  /* messages sent, by mode (AD0, AD1, AD3) */
    uint64_t bytes[AWR_N_MODES]; /* their bytes */
    uint64_t smsg;               /* of them SMSG sends (AD3, uncounted) */
    uint64_t below_cutoff;       /* AD3 because the cumulative size was
                                    within the cutoff (library: skipped) */
    uint64_t below_cutoff_bytes;
    uint64_t no_sample;          /* above the cutoff before any sample:
                                    the previous mode kept */
    uint64_t decisions;          /* Algorithm 1 runs */
    uint64_t switches;           /* ... that changed the decision state */
    uint64_t to_low_lat;         /* ... whose outcome was AD3 */
    uint64_t stored_used;        /* ... that used the stored sample */
    uint64_t reads;              /* counter reads */
    uint64_t samples;            /* ... that gave a new (L, s) */
};

struct awr_nic {
    uint64_t pre_bytes;       /* cumulative size since the last decision
                                 (papi_pre's cumulative_size) */
    uint64_t post_bytes;      /* since the last read (update_counters') */
    struct awr_counters prev; /* the last read */
    double lat_us, stall_us;  /* the last sample (L, s) */
    struct awr_stored stored[2]; /* by enum awr_choice */
    uint8_t choice;           /* decision state, enum awr_choice; starts
                                 AWR_LOW_STALLS ("we assume the application
                                 starts by using ADAPTIVE", §4.2) */
    uint8_t last_mode;        /* net mode of the last message, reused
                                 above the cutoff until a sample exists;
                                 AWR_MODE_NONE before the first */
    uint8_t sample_choice;    /* decision state when (L, s) was read */
    bool have_prev;           /* prev holds a read (the first is only the
                                 baseline) */
    bool have_sample;         /* lat_us, stall_us hold a sample */
    struct awr_stats st;
};

#define AWR_MODE_NONE UINT8_MAX
#define AWR_NCTR 5 /* counters per NIC, struct awr_counters order */

struct awr {
    struct awr_params p;
    const struct net *n;   /* NULL: detached, counters come with
                              awr_sent_with */
    uint8_t mode_ad0, mode_ad1, mode_ad3; /* net mode indexes */
    struct awr_nic *nic;   /* [n_nics] */
    struct ctr_ref *ref;   /* [n_nics * AWR_NCTR], struct awr_counters
                              order; NULL when detached */
    uint32_t n_nics;
};

/* A controller for every NIC of n, which must keep counters
 * (net_params.counters) and be an Aries network (the counter names of
 * §3.1); mode_ad0/_ad1/_ad3 are net mode indexes (net_add_mode) for the
 * low-stalls mode, its MPI_Alltoall replacement and the low-latency mode.
 * The five counters are resolved once per NIC. Returns 0, or -1 with a
 * sentence in err. n must outlive the controller. */
int awr_init(struct awr *a, const struct awr_params *p, const struct net *n,
             uint8_t mode_ad0, uint8_t mode_ad1, uint8_t mode_ad3,
             char *err, size_t cap);

/* A controller for n_nics NICs without a network: its counter reads are
 * the values passed to awr_sent_with (tests, offline traces). Returns 0,
 * or -1 if out of memory. */
int awr_init_detached(struct awr *a, const struct awr_params *p,
                      uint32_t n_nics, uint8_t mode_ad0, uint8_t mode_ad1,
                      uint8_t mode_ad3);

void awr_free(struct awr *a);

/* The mode to post message m with (one of the three mode indexes):
 * Algorithm 1 behind the cumulative cutoff, SMSG always AD3, AD1 for AD0
 * inside MPI_Alltoall. Updates the NIC's state. */
uint8_t awr_select(struct awr *a, const struct awr_msg *m);

/* Message m was posted with `mode`: count it and, if the cumulative size
 * since the last read exceeds the cutoff, read the NIC's counters and
 * update (L, s). Attached controllers only. */
void awr_sent(struct awr *a, const struct awr_msg *m, uint8_t mode);

/* awr_sent with the counters read given (`now`, used only if the cutoff
 * lets a read happen). */
void awr_sent_with(struct awr *a, const struct awr_msg *m, uint8_t mode,
                   const struct awr_counters *now);

/* NIC `nic`'s five counters now (attached controllers). */
void awr_read(const struct awr *a, uint32_t nic, struct awr_counters *c);

/* Take NIC nic's next read as a new baseline: the counters moved for
 * traffic that was not this controller's (ctl.h: another variant ran on
 * the NIC in between), so the delta to the last read would mix them. The
 * last sample (L, s) stays. */
void awr_restart(struct awr *a, uint32_t nic);

/* Forget everything NIC nic's controller has learnt (a new process starts
 * on the node: the library's state is per process); its statistics
 * stay. */
void awr_reset(struct awr *a, uint32_t nic);

/* Sum of every NIC's statistics. */
void awr_totals(const struct awr *a, struct awr_stats *out);

/* ---- the pure parts, for tests on hand-computed values ---------------- */

/* f: request flits of a message, bytes / (packet_bytes / flits_per_packet)
 * in floating point (awr.c: size / (64/5.0), i.e. 12.8 B per flit; not
 * C's integer 64/5 = 12), divided by get_flit_div for a GET. */
double awr_num_flits(const struct awr_params *p, uint64_t bytes, bool get);

/* alpha = ceil((p - 1 + max_outstanding/2) / max_outstanding), p =
 * ceil(bytes / packet_bytes): the library's rounding of Eq. 2's
 * (p + 512) / 1024. */
double awr_alpha(const struct awr_params *p, uint64_t bytes);

/* (L, s) from two reads: L = dTRACK_2 / dRSP_NET_TRACK * cycles_to_us,
 * s = max(0, (dREQ_STALLED - dRSP_STALLED) / dREQ_FLITS) * cycles_to_us
 * (without remove_srin: dREQ_STALLED alone). Returns false, leaving the
 * outputs alone, if no response was tracked or no request flit sent
 * between the reads (the library keeps its previous sample then). */
bool awr_sample(const struct awr_params *p, const struct awr_counters *prev,
                const struct awr_counters *now, double *lat_us,
                double *stall_us);

/* The other mode's (L, s) scaled from the current one's: on AD3, AD0 has
 * factor_lat * L and s / factor_stalls; on AD0, AD3 has L / factor_lat and
 * factor_stalls * s. */
void awr_estimate(const struct awr_params *p, enum awr_choice cur,
                  double lat_us, double stall_us, double *lat_other,
                  double *stall_other);

/* The new decision state from state `cur` with measured (L, s), the other
 * mode's (Lo, so) and a message of f flits with factor alpha (awr.c
 * get_next_routing):
 *   on AD0: factor = alpha (L - Lo) / (so - s); AD3 if f < factor;
 *   on AD3: factor = alpha (Lo - L) / (s - so); AD0 if f > factor.
 * When so == s the stall terms of Eq. 3 cancel and the lower latency wins
 * (the current mode on a tie) — what the library gets from IEEE
 * infinities and NaN, decided here without dividing by zero. With
 * p->eq3 the two costs alpha L + f s of Eq. 3 are compared directly
 * (switch only if the other is strictly lower): the same choice when the
 * denominator is positive, the right one when it is negative, where the
 * library's division flips the inequality (possible only with a stored
 * sample; the scaled estimates keep it positive). */
enum awr_choice awr_decide(const struct awr_params *p, enum awr_choice cur,
                           double lat_us, double stall_us, double lat_other,
                           double stall_other, double num_flits,
                           double alpha);

#endif
