/* net/links.h — tiles aggregated into logical links, as the Gemini monitor
 * library and LDMS's gpcdr do.
 *
 * What is modelled (issue 4 item 4): a logical link is the set of one
 * router's tiles that lead to the same neighbour the same way — Gemini
 * X+, X−, Y+, Y−, Z+, Z− and the host link (Pedretti et al. §III: X and Z
 * links are 8 tiles, Y links 4, host 8); Aries rank-1 (one tile to each
 * router of the chassis), rank-2 (three tiles to each router of the same
 * slot in the other chassis), rank-3 (the optical tiles to one router of
 * another group) and the processor tiles; Slingshot and generic dragonfly
 * local, global and edge ports. Per link, over an interval, the Gemini
 * library's six numbers (request and response phits/flits and packets
 * arriving over the link, input-queue stall cycles and credit stall
 * cycles of its tiles) and gpcdr's derived metrics: traffic in bytes
 * (flits × flit size), stall time, percent time stalled (Netscope Eq. 6:
 * P = 100 · T_s / T_m, with T_s the credit-stall time averaged over the
 * link's tiles, as gpcdr divides by tiles per direction) and used
 * bandwidth (traffic / interval / link bandwidth).
 */
#ifndef DFSIM_NET_LINKS_H
#define DFSIM_NET_LINKS_H

#include <stdint.h>
#include <stdio.h>

#include "net/net.h"

struct link {
    uint32_t router;   /* the router whose tiles these are */
    uint32_t peer;     /* router at the other end, TOPO_NONE: NICs */
    uint8_t kind;      /* enum port_kind of its tiles */
    uint32_t first;    /* its tiles: tile[first .. first + count) */
    uint32_t count;
    uint64_t bw;       /* bytes/s per direction, all tiles */
};

struct links {
    struct link *link;
    uint32_t *tile;       /* port ids, link by link */
    uint32_t *first_link; /* [router]: links of router r are
                             first_link[r] .. first_link[r + 1] */
    uint32_t n;
};

/* Counts of one link, cumulative (a snapshot) or over an interval. */
struct link_counts {
    uint64_t flits[2], pkts[2]; /* arrived over the link, by class */
    uint64_t in_stall;          /* cycles, summed over its tiles */
    uint64_t cr_stall;          /* cycles, summed over its tiles */
};

/* Group topology t's tiles into logical links. Returns 0 or -1 (memory). */
int links_build(struct links *L, const struct topo *t);
void links_free(struct links *L);

/* Short name of a link's direction: "X+" .. "Z-", "HH" (Gemini), "R1",
 * "R2", "R3", "PT" (Aries), "L", "G", "E" (dragonflies). */
const char *link_dir(const struct link *l);

/* Read the counters of link i now (net must keep counters). */
void links_read(const struct links *L, const struct net *n, uint32_t i,
                struct link_counts *c);

/* Cycle length of the stall counters, seconds (counters.c: 800 MHz on
 * Aries and Gemini, 1 GHz elsewhere). */
double links_cycle_s(const struct net *n);

/* Derived metrics of counts d accumulated over `interval`. */
struct link_metrics {
    double traffic_bytes;   /* arrived over the link */
    double stall_s;         /* credit-stall time per tile */
    double pct_stalled;     /* Netscope Eq. 6 */
    double used_bw_pct;     /* traffic / interval / bandwidth */
};
void link_metrics(const struct links *L, const struct net *n, uint32_t i,
                  const struct link_counts *d, simtime interval,
                  struct link_metrics *m);

/* The Gemini monitor library's report (Pedretti et al. Fig. 4): for each
 * router of routers[0..count) (all if routers == NULL), a line with its
 * name, then one line per logical link: direction, the router at the far
 * end, GB/s, the six counters of `after - before` and the derived traffic,
 * % time stalled and % bandwidth used over `interval`. before/after are
 * arrays of L->n snapshots. */
void links_report(FILE *out, const struct links *L, const struct net *n,
                  const uint32_t *routers, uint32_t count,
                  const struct link_counts *before,
                  const struct link_counts *after, simtime interval);

#endif
