/* net/cc.h — congestion control at the NICs: the interface a controller
 * implements, the per endpoint-pair table the pair-based ones keep, and
 * the registry (`dfsim list cc`; chosen by network.congestion_control).
 *
 * What is modelled: the place where a NIC decides when the next request
 * packet of a message may go. The network (net.c) asks the controller
 * before each request it injects (admit), tells it what went (sent) and
 * what came back (acked: the response, which is Aries' and Slingshot's
 * end-to-end acknowledgement, carrying the congestion marks the switches
 * and the destination set on the request), and calls its tick every
 * `period` while packets are in flight. A controller that holds a pair
 * back leaves the NIC free to send to other destinations: the NIC serves
 * the oldest message whose pair is admitted among the first NET_CC_SCAN
 * of its queue (SC'20 §II-D: "only throttles those streams of packets who
 * are contributing to the endpoint congestion, without negatively
 * affecting ... other streams of packets within the same job").
 *
 * Marks (struct packet.mark, set by the routers; net.c): a packet routed
 * to a switch's endpoint port — the last hop before its destination NIC —
 * while more than `mark_flits` flits wait for that port is marked
 * PKT_MARK_ENDPOINT; a request's response carries its marks back to its
 * source, and a response marked on its own way (a GET's data converging
 * on the NIC that pulls it) brings the mark to that source directly.
 * That is endpoint (hot-spot) congestion as SC'20 §II-D describes it: all
 * paths to the node pass that port, adaptive routing cannot avoid it, and
 * only streams toward that node pass it, so a victim whose packets merely
 * cross the congestion tree elsewhere is never marked.
 *
 * With a controller whose `ecn` is set (DCQCN), every router output also
 * marks packets PKT_MARK_ECN with a probability that grows with the bytes
 * waiting for it (RED), requests and responses alike.
 *
 * Controllers: "none" (Aries, Gemini: no congestion control; SC'20 §III
 * measures Crystal without one), "slingshot" (cc_slingshot.c), "dcqcn"
 * (cc_dcqcn.c), "netscope" and "dcqcn-stall" (ICS'21's DCQCN baseline:
 * Netscope's AIMD with every c_a 0; cc_netscope.c) and "cray"
 * (cc_cray.c).
 * Netscope's AIMD, Cray's static rate control and DCQCN plug in here. */
#ifndef DFSIM_CC_H
#define DFSIM_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/time.h"

struct net;
struct packet;
struct message;

/* Messages of a NIC's queue the NIC looks at for one whose pair may send
 * (a bound, so that one NIC's decision stays O(1); Slingshot's Cassini
 * NIC keeps many command queues, their number not public). */
#define NET_CC_SCAN 64

/* Parameters of the controllers (network section: cc_*). */
struct cc_params {
    uint32_t mark_flits;   /* mark a request at a switch's endpoint port
                              when more flits wait for that port */
    uint32_t window_max;   /* slingshot: packets a pair may have
                              outstanding, unthrottled (0: the NIC's
                              max_outstanding) */
    double window_min;     /* slingshot: the least window, packets; below
                              1 the pair sends one packet per
                              round trip / window (paced) */
    uint32_t increase;     /* slingshot: window growth per round trip
                              without marks, packets */
    /* dcqcn (cc_dcqcn.c): the routers' ECN marking and the reaction
     * point's constants */
    uint32_t ecn_kmin, ecn_kmax; /* bytes waiting for an output: marking
                                    starts above kmin, certain above kmax */
    double ecn_pmax;             /* marking probability at kmax */
    double dcqcn_g;              /* alpha's gain */
    double dcqcn_cnp_interval_us;   /* at most one CNP per flow per */
    double dcqcn_alpha_interval_us; /* alpha decays once per, without CNP */
    double dcqcn_timer_us;          /* rate-increase timer */
    uint32_t dcqcn_byte_counter;    /* bytes per byte-counter stage */
    uint32_t dcqcn_fast_recovery;   /* F: stages of fast recovery */
    double dcqcn_rate_ai_gbps;      /* additive increase step */
    double dcqcn_rate_hai_gbps;     /* hyper increase step */
    /* netscope (cc_netscope.c) */
    double netscope_g;              /* alpha's gain (Eq. 14) */
    double netscope_window_us;      /* measurement window */
    double netscope_step_gbps;      /* additive increase per window */
    double netscope_sensitivity;    /* c_a of every NIC's application */
    double netscope_sleep_slack_us; /* a wrapper's sleep ends this late */
    uint8_t netscope_cut;           /* NETSCOPE_CUT_*: which windows cut */
    uint8_t netscope_sleep;         /* NETSCOPE_SLEEP_*: who sleeps */
    /* cray (cc_cray.c) */
    double cray_period_us;          /* the supervisor looks every */
    double cray_stall_share;        /* a NIC stalled this share of it is
                                       congested */
    double cray_start_share;        /* throttle when this share of NICs
                                       is */
    uint32_t cray_outstanding;      /* requests a throttled NIC may have
                                       awaiting their response */
    double cray_min_us;             /* throttled at least this long */
};

struct cc_ops {
    struct reg_entry base;
    /* set up on n (its parameters in n->p.cc); state in *st. 0 or -1 with
     * the reason in err */
    int (*init)(void **st, struct net *n, char *err, size_t len);
    void (*free)(void *st);
    /* when NIC src's next request to dst may go: <= now now, SIMTIME_MAX
     * when an ack comes */
    simtime (*admit)(void *st, uint32_t src, uint32_t dst, simtime now);
    /* optional (NULL: none): when message m (net->msg[id]), none of it
     * sent yet, may start at its NIC; asked before admit */
    simtime (*admit_msg)(void *st, const struct message *m, simtime now);
    /* optional (NULL: none): a process of NIC nic posts a message of
     * `bytes` to the network at now; the time the sleep the controller
     * puts it in before the post ends, or an earlier time to look again
     * with `sleeping` (<= now: no sleep) */
    simtime (*sleep)(void *st, uint32_t nic, uint64_t bytes, simtime now);
    /* with sleep: the same for the sleep under way on NIC nic */
    simtime (*sleeping)(void *st, uint32_t nic, simtime now);
    /* request p left its NIC */
    void (*sent)(void *st, const struct packet *p, simtime now);
    /* response p (its marks the request's) is back at its source */
    void (*acked)(void *st, const struct packet *p, simtime now);
    /* every `period` (0: never) */
    void (*tick)(void *st, simtime now);
    simtime period;
    /* the routers ECN-mark packets by their output's queue (RED with
     * ecn_kmin, ecn_kmax, ecn_pmax: PKT_MARK_ECN) */
    bool ecn;
    /* it reads the NICs' counters: the network keeps them */
    bool counters;
};

extern const struct registry cc_registry;
extern const struct cc_ops cc_none, cc_slingshot, cc_dcqcn, cc_netscope,
    cc_dcqcn_stall, cc_cray;

/* A NIC's line rate, bytes per ps: the message data it sends when
 * nothing holds it back — full-size PUT requests at the rate its NIC and
 * endpoint ports take them (net_nic_rate; Aries: a 64-byte packet every
 * five 800 MHz cycles, 10.24 GB/s, where one of its four processor-tile
 * links carries 5.25 GB/s of flits), or its NIC flit path if slower. */
double cc_nic_line_rate(const struct net *n);

/* The time NIC nic's requests were ready but held back for credits up to
 * now, an open interval included (REQ_STALLED as time; the network must
 * keep counters: cc_ops.counters). */
simtime cc_nic_req_stall(const struct net *n, uint32_t nic, simtime now);

/* Slingshot: the window of pair (src, dst) in packets (window_max for a
 * pair it does not track); for tests and reports. */
double cc_slingshot_window(const void *st, uint32_t src, uint32_t dst);

/* RED: the probability that a packet joining an output with `bytes`
 * waiting is ECN-marked — 0 up to ecn_kmin, ecn_pmax (bytes - kmin) /
 * (kmax - kmin) up to ecn_kmax, 1 beyond. */
double cc_ecn_probability(const struct cc_params *p, uint64_t bytes);

/* DCQCN: the current rate of pair (src, dst), bytes per ps (the line rate
 * for a pair it does not throttle), and what the reaction points did. */
double cc_dcqcn_rate(const void *st, uint32_t src, uint32_t dst);
struct dcqcn_stats {
    uint64_t cnps;              /* marked responses taken as a CNP */
    uint64_t fast_recovery, additive_increase, hyper_increase;
};
struct dcqcn_stats cc_dcqcn_stats(const void *st);

/* Netscope: which windows cut the rate (`network.netscope_cut`;
 * cc_netscope.c says why there are two). NETSCOPE_CUT_STALLED: a window
 * whose signal shows stalls, as DCTCP and DCQCN cut (the default);
 * NETSCOPE_CUT_ALPHA: every window in which alpha > 0, Eq. 15 as printed
 * — after a NIC's first stall its rate never rises again. */
enum { NETSCOPE_CUT_STALLED = 0, NETSCOPE_CUT_ALPHA = 1 };
/* Both in net.c, with the network's other named choices. */
extern const char *const cc_netscope_cut_names[]; /* by NETSCOPE_CUT_* */
int cc_netscope_cut_find(const char *name);       /* -1: unknown */

/* Netscope: where its delays between message sends are taken
 * (`network.netscope_sleep`; cc_netscope.c). NETSCOPE_SLEEP_RANK: the
 * process sleeps before it posts a message, as ICS'21's MPI wrapper does
 * (the default); NETSCOPE_SLEEP_NIC: the NIC holds the message and the
 * process runs on. */
enum { NETSCOPE_SLEEP_RANK = 0, NETSCOPE_SLEEP_NIC = 1 };
extern const char *const cc_netscope_sleep_names[]; /* by NETSCOPE_SLEEP_* */
int cc_netscope_sleep_find(const char *name);       /* -1: unknown */

/* Netscope: Eqs. 14-15 for one window — alpha from the window's stall
 * signal (share of the window stalled, 0..1), the rate cut by
 * alpha / (2 + ca) in a window that cuts (`cut`: NETSCOPE_CUT_*), else
 * raised by step; the rate kept within [floor_rate, line]
 * (cc_netscope.c). */
void cc_netscope_update(double alpha, double signal, double ca, double g,
                        double step, double floor_rate, double line,
                        int cut, double *alpha_out, double *rate);
/* Netscope: set NIC nic's rate (bytes per ps, kept within its floor and
 * the line; for tests, and runs that fix a rate). */
void cc_netscope_set_rate(void *st, uint32_t nic, double rate);
/* Netscope: set NIC nic's application's delay sensitivity c_a. */
void cc_netscope_set_sensitivity(void *st, uint32_t nic, double ca);
/* Netscope: NIC nic's rate, bytes per ps. */
double cc_netscope_rate(const void *st, uint32_t nic);
struct netscope_stats {
    uint64_t windows;      /* ticks taken */
    uint64_t decreases;    /* NIC-windows with stalls (a cut) */
    uint64_t delays;       /* messages held back */
    simtime delay_time;    /* their total wait */
};
struct netscope_stats cc_netscope_stats(const void *st);

/* Cray's congestion protection: what the supervisor did, and whether it
 * throttles now. */
struct cray_stats {
    uint64_t periods, throttled_periods, starts;
};
struct cray_stats cc_cray_stats(const void *st);
bool cc_cray_throttling(const void *st);

/* ---- per endpoint-pair state (for the pair-based controllers) ------ */

/* One pair (src NIC, dst NIC) with packets outstanding or a window below
 * its maximum; fixed point windows (1/256 packet). */
struct cc_pair {
    uint64_t key;        /* src << 32 | dst; CC_PAIR_FREE if unused */
    uint32_t out;        /* requests sent, not yet acked */
    uint32_t win;        /* window, 1/256 packets */
    simtime cut_until;   /* no further decrease before this */
    simtime next_ok;     /* window below 1 packet: the next may go then */
    uint32_t calm;       /* share of its acks unmarked, 1/1024, moving
                            average (DCTCP's 1 - alpha; 0 at first) */
    uint32_t aux;        /* the controller's own record of the pair (an
                            index; 0 when added) */
};
#define CC_PAIR_FREE UINT64_MAX

/* An open-addressed table (linear probing, backward-shift deletion),
 * doubled when half full: pairs come and go with their traffic. */
struct cc_pairs {
    struct cc_pair *e;
    uint32_t cap, n;     /* cap a power of two */
};

int cc_pairs_init(struct cc_pairs *t, uint32_t cap);
void cc_pairs_free(struct cc_pairs *t);
/* The pair's entry, or NULL. */
struct cc_pair *cc_pairs_find(const struct cc_pairs *t, uint32_t src,
                              uint32_t dst);
/* The pair's entry, added (out 0, win `win`) if missing; NULL out of
 * memory. */
struct cc_pair *cc_pairs_get(struct cc_pairs *t, uint32_t src, uint32_t dst,
                             uint32_t win);
/* Remove entry e (from cc_pairs_find/get). */
void cc_pairs_del(struct cc_pairs *t, struct cc_pair *e);

#endif
