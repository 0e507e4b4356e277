/* results/stall.h — an application's run time against the machine's
 * percent time stalled (ICS'21 §2, Fig. 1).
 *
 * What the paper shows. "The runtime for MILC and GPCNeT under low
 * (0.25% percent time stalled) and high (7.5% percent time stalled)
 * congestion, as measured from stall performance counters": MILC's
 * "60 % increase in runtime, while GPCNeT's runtime marginally increases
 * by 2.6 % for the same difference in measured congestion" — Netscope's
 * first insight, that counters and run times together tell how sensitive
 * an application is to delay. Percent time stalled is Eq. 6's P of a link
 * (§4.2), measured "across all links in the system" (§6.1).
 *
 * How dfsim reads it. An impact study with the latency model gives, per
 * simulation, the machine's percent time stalled: each window's P
 * averaged over every logical link (net/latency_model.h, pt_links; the
 * plain mean over links is inferred) and the windows weighted by their
 * length. Per victim, its simulations' mean iteration T against that P
 * (alone and beside every aggressor, at every share and placement) with
 * P up to STALL_FIT_MAX_PCT, fitted by least squares, T = a + b P; the
 * paper's two levels read off the line, T(STALL_LOW_PCT) and
 * T(STALL_HIGH_PCT), and their ratio (the paper's MILC 1.60, GPCNeT
 * 1.026). The cut is dfsim's (inferred): runs far beyond the paper's
 * levels (an incast's tree on Voltrino holds the machine's mean at
 * 30-60 %) would set a line that misses both, as T is not linear in P
 * over the whole range. Where the runs kept do not reach a level the
 * line is extrapolated: the file gives the range of their P beside.
 *
 * Files (stall_write):
 *   stall.csv       victim,points,stalled_min_pct,stalled_max_pct (of
 *                   the points fitted),
 *                   slope_us_per_pct,intercept_us,r,low_pct,high_pct,
 *                   t_low_us,t_high_us,high_over_low (empty where
 *                   the line's T(0.25) is not positive)
 *   stall_runs.csv  victim,sim,aggressor,share,stalled_pct,t_us — the
 *                   points (sim: impact_runs.csv's run; aggressor empty
 *                   alone; share: the one its placement was drawn for)
 */
#ifndef DFSIM_RESULTS_STALL_H
#define DFSIM_RESULTS_STALL_H

#include <stdint.h>
#include <stdio.h>

/* ICS'21 §2, Fig. 1's low and high congestion, percent time stalled */
#define STALL_LOW_PCT 0.25
#define STALL_HIGH_PCT 7.5
/* the runs the line is fitted on: P up to twice the high level */
#define STALL_FIT_MAX_PCT (2 * STALL_HIGH_PCT)

struct stall_victim {
    const char *name;
    const double *pt, *t;      /* its points' P (%) and mean iteration
                                  (us) [n]; a point with P NaN is left
                                  out of both files, one above
                                  STALL_FIT_MAX_PCT out of the fit */
    const uint32_t *sim;       /* [n] the simulation's index */
    const char *const *agg;    /* [n] its aggressor's name, NULL alone */
    const double *share;       /* [n] the share its placement was drawn
                                  for */
    uint32_t n;
};

/* The two files in dir for victims v[0..n_v), the fit also to out (a
 * table; NULL: none); a victim with fewer than IMPACT_FIT_MIN points to
 * fit, or P without spread among them, gets a row with the fit's fields
 * empty. Nothing written when no victim has a point of finite P (the
 * latency model off). Returns 1 written, 0 nothing, -1 after reporting
 * to err. */
int stall_write(const char *dir, const struct stall_victim *v, uint32_t n_v,
                FILE *out, FILE *err);

#endif
