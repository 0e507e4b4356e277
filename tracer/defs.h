/* tracer/defs.h — the archive's global definitions, written by rank 0
 * at MPI_Finalize from what every rank sent it (tracer/archive.c). */
#ifndef DFSIM_TRACER_DEFS_H
#define DFSIM_TRACER_DEFS_H

#include "trace.h"

struct defs_input {
    int size;               /* ranks */
    uint64_t *per_rank;     /* per rank: events, first and last timestamp */
    uint8_t used[TR_COUNT]; /* regions some rank entered */
    uint32_t *comm_words;   /* trace_comm_pack's words of every rank */
    int n_comm_words;
};

/* ClockProperties, the system tree, a LocationGroup and a Location per
 * rank (id = rank), the used Regions, the Groups and the Comms. */
void defs_write(OTF2_GlobalDefWriter *w, const struct defs_input *in);

#endif
