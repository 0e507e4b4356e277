/* results/convergence.h — how many runs Netscope's delay sensitivity
 * needs before it settles (ICS'21 §6.1, "Training Requirements for Delay
 * Sensitivity Estimation", Fig. 4b and 4c).
 *
 * What the paper measures. c_a is fitted by least squares, T = c_a M +
 * k_a, over an application's runs as they come (§4.1, Eq. 2); after the
 * i-th run the estimate is c_a^i and its error (c_a^i - ĉ_a) / ĉ_a x
 * 100, ĉ_a the final estimate. Fig. 4b: over production runs (whatever
 * congestion each met) MILC's and AMG's error "fluctuates significantly
 * at the beginning of the training, but stabilizes to within 10 % of
 * the final estimated delay sensitivity after ~25 runs". Fig. 4c: runs
 * exposed to "both extremes of congestion (i.e., no congestion and high
 * congestion)" settle in 5 (MILC-small; LAMMPS "under 5 runs").
 *
 * How dfsim measures it. A victim's points are its impact study's
 * simulations (alone and beside every aggressor, at every share and
 * placement; exp/impact.h), each a run with its T and M. Two orders of
 * training runs:
 *   production  every point, in a random order (the congestion a run
 *               meets in production is whatever the machine holds);
 *   extremes    alone and at the highest share in turn (alone, high,
 *               alone, high, ...; each pool in a random order), as long
 *               as both pools last (the larger pool's runs beyond that
 *               differ from draw to draw) — the paper's synthetic
 *               congestion.
 * The error is against ĉ, the fit over all the points (the production
 * estimate a long training reaches; for the extremes order too, so that
 * a fit on extremes alone that settles elsewhere never counts as
 * converged). A sequence's runs to converge: the least i from which
 * every later estimate is within CONV_TOLERANCE of ĉ (none if the last
 * is not). One order of runs is one draw; the figures are over
 * CONV_DRAWS draws (rng_stream(seed, RNG_CONVERGENCE, victim x 2 +
 * order)): the
 * median and quartiles of the runs to converge, and per i the median
 * and 90th percentile of |error|, with the first draw's signed error as
 * the paper plots one sequence. In the production order the last
 * estimate is ĉ itself, so every draw converges by the last point: the
 * runs to converge are bounded by the points the study has (say how
 * many, beside it).
 *
 * Files (convergence_write):
 *   convergence.csv       victim,order,m_source,runs,error_pct,
 *                         abs_error_p50_pct,abs_error_p90_pct
 *   convergence_runs.csv  victim,order,m_source,points,draws,c_final,
 *                         runs_p50,runs_q1,runs_q3,converged_share,
 *                         c_order_last
 * m_source: "counters" (M estimated by the latency model, the paper's
 * way) or "measured" (M per message; with the latency model on, both,
 * so that the two M's bends can be told apart); runs_* empty where the
 * median or quartile draw never converged; c_order_last: the fit over
 * the first draw's whole sequence (the extremes' own final estimate). */
#ifndef DFSIM_RESULTS_CONVERGENCE_H
#define DFSIM_RESULTS_CONVERGENCE_H

#include <stdint.h>
#include <stdio.h>

/* ICS'21 §6.1: "stabilizes to within 10 % of the final estimated delay
 * sensitivity" */
#define CONV_TOLERANCE 0.10
/* orders of runs drawn per victim and order: enough for the quartiles
 * of a count of at most a few hundred runs to be steady */
#define CONV_DRAWS 1000

/* What a point is: alone, beside an aggressor at the study's highest
 * share, or beside one at another share. */
enum conv_kind { CONV_OTHER, CONV_ALONE, CONV_HIGH };

struct conv_victim {
    const char *name;
    const char *m_source;         /* where its M comes from (the files'
                                     m_source) */
    uint32_t id;                  /* its index in the study: its draws'
                                     stream, the same for each source, so
                                     that the sources train on the same
                                     orders */
    const double *m, *t;          /* its points' M and T, us [n] */
    const uint8_t *kind;          /* [n] enum conv_kind */
    uint32_t n;
};

/* The estimates along one sequence: err[i] = (c^(i+1) - c_final) /
 * c_final, c^(i+1) the least-squares slope over the points order[0..i]
 * (NaN while fewer than IMPACT_FIT_MIN points or no spread in M).
 * Returns the runs to converge: the least i + 1 such that |err[j]| <=
 * tol for every j >= i; 0 if the last is not within tol or c_final is
 * not a finite nonzero number. */
uint32_t conv_sequence(const double *m, const double *t,
                       const uint32_t *order, uint32_t len, double c_final,
                       double tol, double *err);

/* The two files in dir for victims v[0..n_v) (those with fewer than
 * IMPACT_FIT_MIN points or no fit get no rows), each victim's rows
 * under its m_source. Returns 0, or -1 after reporting to err. */
int convergence_write(const char *dir, const struct conv_victim *v,
                      uint32_t n_v, uint64_t seed, FILE *err);

#endif
