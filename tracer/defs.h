/* tracer/defs.h — the archive's global definitions, written by rank 0
 * at MPI_Finalize from what every rank sent it (tracer/archive.c). */
#ifndef DFSIM_TRACER_DEFS_H
#define DFSIM_TRACER_DEFS_H

#include "trace.h"

struct defs_input {
    int size;               /* ranks */
    uint64_t *per_rank;     /* per rank: events, first and last timestamp */
    uint32_t *comm_words;   /* trace_comm_pack's words of every rank */
    int n_comm_words;
    uint32_t *win_words;    /* trace_win_pack's words of every rank */
    int n_win_words;
};

/* The ids the ranks gave their windows (tracer/rma.c), in the order of
 * their global definitions: window order[i] is defined with id i. Their
 * number; *order malloc'd. */
uint32_t defs_win_order(const struct defs_input *in, uint32_t **order);

/* The ids the ranks gave their communicators (tracer/comm.c), in the
 * order of their global definitions: communicator order[i] is defined
 * with id 2 + i, each after its parent. Their number; *order malloc'd. */
uint32_t defs_comm_order(const struct defs_input *in, uint32_t **order);

/* ClockProperties, the system tree, a LocationGroup and a Location per
 * rank (id = rank), the Regions, the Groups, the Comms (with the ids
 * of defs_comm_order) and the RmaWins (defs_win_order's). */
void defs_write(OTF2_GlobalDefWriter *w, const struct defs_input *in);

#endif
