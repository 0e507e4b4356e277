/* exp/xchange.h — the partitions of one windowed run meeting at a
 * window's end (issue 54): the packets and credit returns each sent the
 * others (net/xpart.h) delivered, and the few figures the run's rules
 * read summed over them.
 *
 * The partitions [lo, lo + k) of P live in this process: all of them
 * when it runs alone, one per MPI rank when it was started by mpirun
 * with a run dealt over the ranks (then P = the ranks, k = 1). The
 * exchange is the same either way: every partition's box for partition
 * j reaches j, in any order of the senders (net_xp_receive).
 *
 * Synchronisation (docs/performance.md, "Running one simulation on many
 * processes"): synchronous windows of the lookahead on a fixed grid,
 * one exchange and one reduction per window — Nicol's YAWNS with a fixed
 * window, as SST synchronises at its least cross-partition link latency
 * (docs/parallel-inventory.md chose it: in a dragonfly every partition
 * neighbours every other, so null messages would cost P - 1 channels a
 * partition a window). */
#ifndef DFSIM_EXP_XCHANGE_H
#define DFSIM_EXP_XCHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "net/xpart.h"

struct xchange {
    uint32_t P, lo, k;      /* partitions; this process's [lo, lo + k) */
    int procs;              /* processes sharing the run (1: alone) */
    bool mail;              /* the layer above the network mails
                               (net_xp_mail): exchanged too */
    void *mpi;              /* the MPI side (xchange.c), procs > 1 */
    /* measured: the partitions' traffic (this process's partitions'
     * boxes: packets, credit returns and, over MPI, bytes sent), and the
     * wall seconds this process spent running its partitions' windows
     * and exchanging (the MPI calls, waiting for the others included) */
    uint64_t windows, pkts, crs, mails, bytes;
    double compute_s, exchange_s;
};

/* P partitions, in this process alone (procs 1) or one per MPI rank of
 * the world (procs = P; it must be the world's size). 0, or -1 reported. */
int xchange_init(struct xchange *x, uint32_t P, int procs, struct diag *d);
void xchange_free(struct xchange *x);

/* Deliver what the local partitions' networks (nets[k]) put in their
 * boxes this window, and empty them. 0, or -1 when out of memory (every
 * process gets -1: the run is void). */
int xchange_boxes(struct xchange *x, struct net *const *nets);

/* Every process's bytes b[0 .. n) to every process: one after another
 * in process order in *all (malloc'd), each one's length in len[procs]
 * (malloc'd). Alone: a copy of b. 0, or -1 out of memory (on every
 * process: they agree). */
int xchange_allgather(struct xchange *x, const void *b, size_t n,
                      void **all, size_t **len);

/* Every partition's bytes to every process: pack(ctx, i, p) packs local
 * partition i's (i from 0: partition lo + i); add(ctx, part, u) takes
 * partition part's, for every partition (own: this process's own ones
 * too, else only the others'). In one process the bytes go partition by
 * partition, over MPI through one all-gather (one partition a process),
 * the same bytes either way. Collective. 0, or -1 out of memory or
 * malformed (agreed over MPI). */
struct pack;
struct unpack;
typedef void xchange_pack_fn(void *ctx, uint32_t i, struct pack *p);
typedef int xchange_add_fn(void *ctx, uint32_t part, struct unpack *u);
int xchange_spread(struct xchange *x, bool own, void *ctx,
                   xchange_pack_fn *pack, xchange_add_fn *add);

/* v[0 .. n) summed, then m[0 .. nm) their minimum, over the processes
 * (each process having combined its own partitions' first). */
void xchange_reduce(struct xchange *x, uint64_t *v, size_t n, uint64_t *m,
                    size_t nm);

/* Over the processes: the largest and the mean of compute_s, the mean of
 * exchange_s (every process calls it at the same point). */
void xchange_times(struct xchange *x, double *compute_max,
                   double *compute_mean, double *exchange_mean);

/* *v summed over the processes (x a struct xchange *: the shape of
 * net_cc_take_ticks_split's sum). */
void xchange_sum1(void *x, uint64_t *v);

/* v[0 .. n) summed over the processes, 32-bit (a latency histogram). */
void xchange_sum32(struct xchange *x, uint32_t *v, size_t n);

#endif
