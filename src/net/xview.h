/* net/xview.h — the whole machine's counters at one instant, in a run
 * split over partitions (issue 54, docs/parallel-inventory.md I1, S1):
 * what an observer reading every link and NIC (an impact study's latency
 * model and its NICs' samples, exp/impact_sim.c) sees in one process.
 *
 * A partition keeps the counters of its own routers' ports and NICs
 * only. At an instant every partition has reached (a window's end), each
 * packs those (net_view_pack: per own port its output counts, input and
 * output records and input VCs, per own NIC its counts, in index order)
 * and every view takes every partition's (net_view_add), so each view
 * holds every port's and NIC's counters as of that instant. The view is
 * a struct net whose counting arrays are its own and whose clock is the
 * instant: counters.h's ctr_value reads it as it reads a network.
 * Nothing of a partition's network is written.
 *
 * Invariants: after a refresh at T every counting array of the view is
 * the owner partition's as of T; the rest of the view is a copy of a
 * partition's network, read only. */
#ifndef DFSIM_NET_XVIEW_H
#define DFSIM_NET_XVIEW_H

#include "core/pack.h"
#include "core/sim.h"
#include "net/net.h"

struct net_view {
    struct net n;   /* what observers read */
    struct sim s;   /* its clock: now = the instant */
    bool ok;        /* allocated */
};

/* A view of partition net's machine (its network built with counters).
 * 0, or -1 out of memory. */
int net_view_init(struct net_view *v, const struct net *net);
void net_view_free(struct net_view *v);

/* This partition's counters at its network's now, into p. */
void net_view_pack(const struct net *net, struct pack *p);
/* Partition `part`'s (net_view_pack's) into v. 0, or -1 malformed. */
int net_view_add(struct net_view *v, uint32_t part, struct unpack *u);
/* The view's clock. */
void net_view_at(struct net_view *v, simtime T);

#endif
