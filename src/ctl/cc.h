/* ctl/cc.h — congestion control at the NICs: the rate controllers (NIC
 * controllers of role NIC_CTL_RATE, net/nic_ctl.h), their registry
 * (`dfsim list cc`; chosen by network.congestion_control, several of them
 * together if listed), their accessors and parameters, and the per
 * endpoint-pair table the pair-based ones keep.
 *
 * What is modelled: the place where a NIC decides when the next request
 * packet of a message may go. The network (net/nic.c) asks the controllers
 * before each request it injects (admit), tells them what went (inject)
 * and what came back (ack: the response, which is Aries' and Slingshot's
 * end-to-end acknowledgement, carrying the congestion marks the switches
 * and the destination set on the request), and calls their ticks every
 * period while packets are in flight. A controller that holds a pair
 * back leaves the NIC free to send to other destinations: the NIC serves
 * the oldest message whose pair is admitted among the first NET_CC_SCAN
 * of its queue (SC'20 §II-D: "only throttles those streams of packets who
 * are contributing to the endpoint congestion, without negatively
 * affecting ... other streams of packets within the same job").
 *
 * Marks (struct packet.mark, set by the routers through the controller's
 * router-output hook, struct nic_ctl.mark; ctl/slingshot.c): a packet routed
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
 * With DCQCN, every router output also marks packets PKT_MARK_ECN with a
 * probability that grows with the bytes waiting for it (RED), requests
 * and responses alike (ctl/dcqcn.c's router-output hook).
 *
 * Controllers: "none" (Aries, Gemini: no congestion control; SC'20 §III
 * measures Crystal without one), "slingshot" (slingshot.c), "dcqcn"
 * (dcqcn.c), "netscope" and "dcqcn-stall" (ICS'21's DCQCN baseline:
 * Netscope's AIMD with every c_a 0; netscope.c) and "cray" (cray.c).
 * Netscope's AIMD, Cray's static rate control and DCQCN plug in here. */
#ifndef DFSIM_CTL_CC_H
#define DFSIM_CTL_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/time.h"
#include "net/net.h"

/* The rate controllers (each a struct nic_ctl of role NIC_CTL_RATE;
 * "none" has no hooks and is never put on a network's stack). */
extern const struct registry cc_registry;
#define RATE_CTL(x) extern const struct nic_ctl cc_##x;
#include "ctl/rate.def"
#undef RATE_CTL

/* Set p's rate controllers to the names[0..n) (those of cc_registry;
 * "none" alone: none), each with its parameters under p and t (a block p
 * already holds is kept). 0, or -1 with why in err: "none" beside
 * another, a name twice, more than NET_MAX_CTLS, or no room for their
 * parameters. */
int cc_set(struct net_params *p, const struct topo *t,
           const struct nic_ctl *const *names, uint32_t n, char *err,
           size_t len);

/* Whether c[0..n) can run together: "none" alone, no name twice, at most
 * NET_MAX_CTLS. 0, or -1 with why in err. */
int cc_check_list(const struct nic_ctl *const *c, uint32_t n, char *err,
                  size_t len);

/* The network's defaults for the family of t with its default routing
 * (route_net_defaults), its default congestion control (struct
 * topo_family.congestion_control: Slingshot's on Slingshot) and every
 * rate controller's parameters with their defaults: a network ready to
 * run as the family runs. */
void cc_net_defaults(struct net_params *p, const struct topo *t);

/* Every rate controller's parameters in p with their defaults under p and
 * t (a block p holds is kept). 0, or -1 without room. */
int cc_parts_add(struct net_params *p, const struct topo *t);

/* The distinct parameter parts of the registered rate controllers
 * (netscope and dcqcn-stall share one), in registry order: up to cap
 * into out; returns how many there are. */
size_t cc_parts(const struct net_part **out, size_t cap);

/* The name of p's rate controllers as results print it: "none", one's
 * name, or theirs joined by "+" ("slingshot+netscope"), into buf. */
const char *cc_name(const struct net_params *p, char *buf, size_t len);

/* Whether one of p's controllers reads the jobs' delay sensitivity. */
bool cc_reads_sensitivity(const struct nic_ctl *const *c, uint32_t n);

/* ---- slingshot (slingshot.c) --------------------------------------- */

struct cc_slingshot_params {
    uint32_t mark_flits;   /* a switch marks a request it routes to the
                              destination's port while more flits wait
                              there (cc_mark_flits) */
    uint32_t window_max;   /* packets a pair may have outstanding,
                              unthrottled (0: the NIC's max_outstanding) */
    double window_min;     /* the least window, packets; below 1 the pair
                              sends one packet per round trip / window
                              (paced) */
    uint32_t increase;     /* window growth per round trip without marks,
                              packets */
};

/* The window of pair (src, dst) in packets (window_max for a pair it does
 * not track); for tests and reports. st: net_ctl_state(n,
 * &cc_slingshot). */
double cc_slingshot_window(const void *st, uint32_t src, uint32_t dst);

/* ---- dcqcn (dcqcn.c) ----------------------------------------------- */

struct cc_dcqcn_params {
    uint32_t ecn_kmin, ecn_kmax; /* bytes waiting for an output: marking
                                    starts above kmin, certain above kmax */
    double ecn_pmax;             /* marking probability at kmax */
    double g;                    /* alpha's gain */
    double cnp_interval_us;      /* at most one CNP per flow per */
    double alpha_interval_us;    /* alpha decays once per, without CNP */
    double timer_us;             /* rate-increase timer */
    uint32_t byte_counter;       /* bytes per byte-counter stage */
    uint32_t fast_recovery;      /* F: stages of fast recovery */
    double rate_ai_gbps;         /* additive increase step */
    double rate_hai_gbps;        /* hyper increase step */
};

/* RED: the probability that a packet joining an output with `bytes`
 * waiting is ECN-marked — 0 up to ecn_kmin, ecn_pmax (bytes - kmin) /
 * (kmax - kmin) up to ecn_kmax, 1 beyond. */
double cc_ecn_probability(const struct cc_dcqcn_params *p, uint64_t bytes);

/* DCQCN: the current rate of pair (src, dst), bytes per ps (the line rate
 * for a pair it does not throttle), and what the reaction points did. */
double cc_dcqcn_rate(const void *st, uint32_t src, uint32_t dst);
struct dcqcn_stats {
    uint64_t cnps;              /* marked responses taken as a CNP */
    uint64_t fast_recovery, additive_increase, hyper_increase;
};
struct dcqcn_stats cc_dcqcn_stats(const void *st);

/* ---- netscope and dcqcn-stall (netscope.c) ------------------------- */

/* Which windows cut the rate (`network.netscope_cut`; netscope.c says
 * why there are two). NETSCOPE_CUT_STALLED: a window whose signal shows
 * stalls, as DCTCP and DCQCN cut (the default); NETSCOPE_CUT_ALPHA:
 * every window in which alpha > 0, Eq. 15 as printed — after a NIC's
 * first stall its rate never rises again. */
enum { NETSCOPE_CUT_STALLED = 0, NETSCOPE_CUT_ALPHA = 1 };
extern const char *const cc_netscope_cut_names[]; /* by NETSCOPE_CUT_* */

/* Where its delays between message sends are taken
 * (`network.netscope_sleep`). NETSCOPE_SLEEP_RANK: the process sleeps
 * before it posts a message, as ICS'21's MPI wrapper does (the default);
 * NETSCOPE_SLEEP_NIC: the NIC holds the message and the process runs
 * on. */
enum { NETSCOPE_SLEEP_RANK = 0, NETSCOPE_SLEEP_NIC = 1 };
extern const char *const cc_netscope_sleep_names[]; /* by NETSCOPE_SLEEP_* */

struct cc_netscope_params {
    double g;               /* alpha's gain (Eq. 14) */
    double window_us;       /* measurement window */
    double step_gbps;       /* additive increase per window */
    double sensitivity;     /* c_a of every NIC's application */
    double sleep_slack_us;  /* a wrapper's sleep ends this late */
    uint8_t cut;            /* NETSCOPE_CUT_*: which windows cut */
    uint8_t sleep;          /* NETSCOPE_SLEEP_*: who sleeps */
};

/* Eqs. 14-15 for one window — alpha from the window's stall signal
 * (share of the window stalled, 0..1), the rate cut by alpha / (2 + ca)
 * in a window that cuts (`cut`: NETSCOPE_CUT_*), else raised by step; the
 * rate kept within [floor_rate, line]. */
void cc_netscope_update(double alpha, double signal, double ca, double g,
                        double step, double floor_rate, double line,
                        int cut, double *alpha_out, double *rate);
/* Set NIC nic's rate (bytes per ps, kept within its floor and the line;
 * for tests, and runs that fix a rate). */
void cc_netscope_set_rate(void *st, uint32_t nic, double rate);
/* Set NIC nic's application's delay sensitivity c_a. */
void cc_netscope_set_sensitivity(void *st, uint32_t nic, double ca);
/* NIC nic's rate, bytes per ps. */
double cc_netscope_rate(const void *st, uint32_t nic);
struct netscope_stats {
    uint64_t windows;      /* ticks taken */
    uint64_t decreases;    /* NIC-windows with stalls (a cut) */
    uint64_t delays;       /* messages held back */
    simtime delay_time;    /* their total wait */
};
struct netscope_stats cc_netscope_stats(const void *st);

/* ---- cray (cray.c) ------------------------------------------------- */

struct cc_cray_params {
    double period_us;      /* the supervisor looks every */
    double stall_share;    /* a NIC stalled this share of it is
                              congested */
    double start_share;    /* throttle when this share of NICs is */
    uint32_t outstanding;  /* requests a throttled NIC may have awaiting
                              their response */
    double min_us;         /* throttled at least this long */
};

/* What the supervisor did, and whether it throttles now. */
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

/* Open-addressed tables (linear probing, backward-shift deletion), each
 * doubled when half full: pairs come and go with their traffic. The
 * pairs are spread over CC_PAIR_SEGS such tables by their hash's top
 * bits, so that a table grows a segment at a time: a monolithic one
 * holds its old and new arrays together while it rehashes (at 2 M pairs,
 * 80 and 160 MiB: the peak of a 279,040-NIC Slingshot run), a segment
 * 1/CC_PAIR_SEGS of that. */
#define CC_PAIR_SEGS 64
struct cc_pair_seg {
    struct cc_pair *e;
    uint32_t cap, n;     /* cap a power of two */
};
struct cc_pairs {
    struct cc_pair_seg seg[CC_PAIR_SEGS];
    uint32_t n;          /* entries in all */
};

/* An empty table with room for about `cap` pairs before it grows. */
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
