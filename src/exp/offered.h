/* exp/offered.h — the load a run's jobs actually offered the network.
 *
 * A workload's parameters say what it sends per iteration, not how hard it
 * loads the machine: that depends on its compute gaps, its protocol and on
 * how fast the congested network lets it go. So a run measures it: the
 * bytes the NICs of each class of jobs injected (every packet, requests
 * and responses, headers included: what their injection links carried,
 * net_nic_injected) over the measured window, from the earliest start of a
 * measured (foreground, not chained) job to the end of the run, when the
 * measured jobs have ended and the background is stopped. Three classes:
 *   measured    the foreground jobs of the file
 *   background  the file's own background jobs
 *   fill        the production fill's jobs (exp/production.h)
 * and three shares for each, all of bytes per second over the window:
 *   injection   over the system's injection bandwidth (every NIC link,
 *               one direction: topo_injection_bw, `dfsim topo`'s
 *               "injection"), the share of the machine's injection
 *               capacity the class used
 *   global      over the system's global bandwidth (every optical link
 *               leaving a group, one direction: topo_global_bw, `dfsim
 *               topo`'s "global bw" times the nodes); traffic spread
 *               uniformly over G groups would put (G - 1) / G of its bytes
 *               on global links, so a share near or above 1 saturates
 *               them. Empty on a torus and a one-group system.
 *   own         over the injection bandwidth of the class's own NICs: how
 *               hard its nodes drive their links on average.
 * Written as load.csv (a row per run and class) and as a table.
 *
 * Cost: two sums over the NICs, at the window's start and at its end; the
 * counts themselves are kept by the network model on every injection.
 */
#ifndef DFSIM_OFFERED_H
#define DFSIM_OFFERED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/time.h"
#include "net/net.h"

enum offered_class {
    OFFERED_MEASURED,
    OFFERED_BACKGROUND,
    OFFERED_FILL,
    OFFERED_CLASSES
};
extern const char *const offered_class_names[]; /* by enum value */

struct offered_sums {
    uint64_t flits, data;
};

struct offered {
    const struct net *net;
    uint8_t *nic_class;          /* [n_nics]: its job's class, or
                                    OFFERED_CLASSES (no job) */
    uint32_t jobs[OFFERED_CLASSES], nodes[OFFERED_CLASSES];
    double own_bw[OFFERED_CLASSES]; /* their NICs' injection bw, B/s */
    double inj_bw, global_bw;    /* the system's, bytes/s one direction */
    simtime t0, t1;              /* the window */
    struct offered_sums at0[OFFERED_CLASSES], at1[OFFERED_CLASSES];
};

/* One class's figures over the window. */
struct offered_figures {
    uint64_t bytes;       /* wire bytes injected (flits x flit bytes) */
    uint64_t data;        /* data bytes in them */
    double gbps;          /* bytes / window, GB/s */
    double injection;     /* shares as in the header; NaN when undefined */
    double global;
    double own;
};

/* Set o up for the network n (its topology gives the bandwidths). 0, or
 * -1 out of memory. */
int offered_init(struct offered *o, const struct net *n);
void offered_free(struct offered *o);

/* A job of class c on nodes[0..n_nodes): its NICs count for c, unless
 * an earlier job has them (a job on another's nodes, allocation "same":
 * they stay that job's class). */
void offered_add_job(struct offered *o, enum offered_class c,
                     const uint32_t *nodes, uint32_t n_nodes);

/* The window opens at t0 (now: the network's state at t0) / closes at t1. */
void offered_start(struct offered *o, simtime t0);
void offered_end(struct offered *o, simtime t1);

/* A split run (exp/jobs_win.c): this partition's NICs' sums into p;
 * another partition's added into o. */
struct pack;
struct unpack;
void offered_pack(const struct offered *o, struct pack *p);
void offered_unpack_add(struct offered *o, struct unpack *u);

/* Class c's figures. */
void offered_get(const struct offered *o, enum offered_class c,
                 struct offered_figures *f);

/* load.csv's header line. */
void offered_csv_header(FILE *csv);

/* load.csv rows of run `run` (header first if asked), and a table for a
 * person (either may be NULL). */
void offered_write(const struct offered *o, FILE *csv, bool header,
                   uint32_t run, FILE *table);

#endif
