/* net/latency_model.h — Netscope's network latency model (ICS'21 §4.2):
 * the one-way latency D between two nodes estimated from the links'
 * stall counters, the topology and the routing's path sets.
 *
 * What is modelled. Per link l, over a measurement window T_m, the
 * percent time stalled P = 100 T_s / T_m (Eq. 6; T_s the time the link's
 * output waited for credits, averaged over its tiles as gpcdr does,
 * net/links.h) and the expected queueing delay of a geometric wait,
 * Q_l = 100 / (100 - P) (Eqs. 7-11, in units of the waiting time). The
 * links of a path are "all the intermediary links that include
 * connections between processors, NICs, and network tiles": the source
 * NIC's injection (its request stall, AR_NIC_NETMON_ORB_EVENT_CNTR_
 * REQ_STALLED: the paper's nic2hsn), every router-to-router link, and the
 * destination router's processor tiles to the NIC (their credit stall).
 * The latency over the paths S* the routing allows (Eq. 12)
 *
 *     D = sum_{S_i in S*} k_s sum_{l in S_i} (k1 Q_l + k2)
 *
 * is computed here with two path classes, as the dragonfly routing modes
 * build them (route/df.h): the minimal paths (inside a group the
 * dimension-order path; between groups one per global link joining the
 * two groups, each with the dimension-order local paths to and from it)
 * and the non-minimal ones (Valiant: through an intermediate router of a
 * third group, or of the group for traffic inside one; route/df.c
 * df_random_mid), every path of a class equally likely. So per class the
 * mean over its paths of sum Q_l and of the link count, and
 *
 *     D = w (k1 Qmin + k2 Nmin) + (1 - w) (k1 Qnon + k2 Nnon),
 *
 * k_s = w / |minimal| for a minimal path, (1 - w) / |non-minimal| for
 * another. Inferred (the paper names k_s, k1, k2 but not their
 * structure): k_s per class, shared by the paths of a class; k1, k2
 * shared by all links; P capped at 99 % (the paper observed 0-99 %; a
 * link stalled for the whole window has no finite expectation).
 *
 * The fit (latm_fit, ICS'21 §6.1): the constants by least squares against
 * ping-pong round trips, RTT = k0 + D(src, dst) + D(dst, src) — the sum
 * of the forward and reverse latencies, as the paper trains it, and k0:
 * the ends' host overheads and serialisation, o_src + b + o_dst of Eq. 3
 * both ways, which a round trip holds and Eq. 12 does not (constant for
 * one message size; inferred). w on a grid of 0.01, k0, k1, k2 linear
 * for each w, fitted as RTT = k0 + k1 E + (k1 + k2) N with E = Q - N
 * the queueing above idle (Q_l >= 1), so that an idle link costs
 * k1 + k2. Where the training pairs' link counts N vary by less than
 * LATM_MIN_CV of their mean (one distance: every random pair of Cori's
 * is between groups, 12.9 to 13.1 links both ways), the per-link cost
 * cannot be told from k0 and k0 carries it (k1 + k2 = 0); fitted
 * anyway, least squares turns a 2 % spread in N into k0 = -3,083 us.
 * The paper says "least sum of squares" and judges the model by each
 * estimate's percentage error (Fig. 4a); round trips span two orders of
 * magnitude under congestion (2.4 us idle, 175 us beside an incast on
 * Voltrino), and plain squares fit the few congested points and leave
 * the quiet majority 25-50 % off. So the squares may be taken of
 * relative errors (weights 1 / RTT^2), the loss of the paper's own
 * criterion: `relative`. LATM_MIN_CV (5 %) is a judgement, not a
 * measurement: the spread below which a column is rounding and
 * placement noise rather than a distance the data can fit a cost on.
 *
 * Only the dragonfly families (Aries, Slingshot, generic): the torus's
 * dimension-order paths are not enumerated here (latm_supported).
 */
#ifndef DFSIM_NET_LATENCY_MODEL_H
#define DFSIM_NET_LATENCY_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "net/links.h"
#include "net/net.h"

/* P is capped here (percent). */
#define LATM_MAX_PCT 99.0

/* The fit takes a quantity that varies by less than this share of its
 * mean over the training round trips as constant (latm_fit). */
#define LATM_MIN_CV 0.05

/* The two path classes' means between two NICs, one way (or summed over
 * both ways for a round trip): sum of Q_l and number of links. */
struct latm_paths {
    double q_min, n_min, q_non, n_non;
};

struct latm {
    const struct net *n;
    struct links L;
    uint32_t *port_link;   /* [n_ports]: the logical link of a tile */
    uint64_t *link_prev;   /* [L.n]: credit-stall cycles, window start */
    uint64_t *inj_prev;    /* [n_nics]: request-stall cycles */
    uint64_t *ej_prev;     /* [n_nics]: its ports' credit-stall cycles */
    double *q_link;        /* [L.n]: Q_l of the last window */
    double *q_inj, *q_ej;  /* [n_nics] */
    uint32_t *local_first; /* [group]: into lq/ln, size^2 per group */
    double *lq;            /* dimension-order path r -> x in a group: */
    uint8_t *ln;           /*   sum of Q_l and links */
    double *out_q, *out_n; /* [router]: sums over the group's x of r->x */
    double *in_q, *in_n;   /*   and of x->r */
    double *tout_q, *tout_n, *tin_q, *tin_n; /* [router]: over all
                              routers of the system (Valiant), cached */
    uint32_t *stamp;       /* [router]: the window tout/tin belong to */
    double pt_links;       /* P over the last window, averaged over
                              every logical link of the machine (to
                              other routers and to the NICs): ICS'21
                              Fig. 1's "percent time stalled" (§6.1:
                              measured "across all links in the
                              system"; the plain mean over links is
                              inferred, the paper does not say how it
                              pools them) */
    uint32_t window;       /* windows closed */
    simtime t_prev;        /* the window's start */
};

/* Whether topology family f has the model (the dragonflies). */
bool latm_supported(const struct topo *t);

/* Set the model up on n (its counters kept, its routing tables built),
 * the first window opening now. Returns 0 or -1 (memory). */
int latm_init(struct latm *m, const struct net *n);
void latm_free(struct latm *m);

/* Close the window at n's time: Q_l of every link over it, the path
 * sums; the next window opens. Returns its length (0: nothing, the Q_l
 * left as they were). */
simtime latm_window(struct latm *m);

/* Recompute the path sums from q_link, q_inj and q_ej (latm_window does;
 * for tests that set the Q_l by hand). */
void latm_refresh(struct latm *m);

/* Eq. 6: P = 100 stall / cycles, capped at LATM_MAX_PCT (0 for an empty
 * window). */
double latm_stalled_pct(double stall, double cycles);

/* Eq. 11: Q = 100 / (100 - P). */
double latm_queueing(double stall, double cycles);

/* The path classes from NIC src to NIC dst over the last window. */
void latm_pair(struct latm *m, uint32_t src, uint32_t dst,
               struct latm_paths *out);

/* Sum a into *acc with weight x. */
void latm_add(struct latm_paths *acc, const struct latm_paths *a, double x);

/* Eq. 12's constants. */
struct latm_fit {
    uint32_t n;          /* points */
    double k0, k1, k2;   /* us, us per Q, us per link */
    double w;            /* k_s of the minimal class (sum), in [0, 1] */
};

/* D (us) of path classes p under fit f (k0 not included). */
double latm_delay(const struct latm_fit *f, const struct latm_paths *p);

/* Fit RTT[i] = k0 + latm_delay(f, rt[i]) over n points (rt: forward +
 * reverse sums), the constants of least squared error — of relative
 * errors when `relative` — (the first w of it on the grid). Every figure NaN with fewer than 3 points or no
 * memory. */
void latm_fit(const struct latm_paths *rt, const double *rtt, uint32_t n,
              bool relative, struct latm_fit *f);

#endif
