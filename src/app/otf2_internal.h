/* app/otf2_internal.h — what the otf2 workload's files share (otf2.c:
 * point-to-point, requests, the program; otf2_coll.c: collectives). */
#ifndef DFSIM_APP_OTF2_INTERNAL_H
#define DFSIM_APP_OTF2_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "app/otf2.h"
#include "app/otf2_trace.h"

/* A message's tag on the layer: the communicator's number above
 * OTF2_TAG_BITS, the trace's tag below; a collective over a
 * communicator the replay expands has bit 29 set and its sequence number
 * below OTF2_TAG_BITS. All stay below DMPI_TAG_COLL (the layer's own
 * collectives, on communicators that are the world). */
#define OTF2_TAG_BITS 20
#define OTF2_TAG_LIMIT (UINT32_C(1) << OTF2_TAG_BITS)
#define OTF2_COMM_LIMIT UINT32_C(512)
#define OTF2_TAG_COLL (UINT32_C(1) << 29)

/* An open request of the trace and the handle it has on the layer. */
struct otf2_open {
    uint64_t req;
    uint32_t h;
};

struct otf2_rank {
    struct dmpi_op *pend;   /* operations made, not yet handed over */
    uint32_t n_pend, pos, pend_cap;
    bool started, done;
    uint32_t iter;          /* replays finished */
    uint64_t last_leave;    /* its last MPI call's Leave, ticks */
    struct otf2_open *open; /* open requests */
    uint32_t n_open, open_cap;
    uint32_t *free_h;       /* handles given back */
    uint32_t n_free, n_handles;
    uint32_t *cseq;         /* [t.n_comm_defined]: collectives called on
                               each communicator (lazily allocated) */
};

struct otf2_replay {
    struct otf2_trace t;
    double scale;
    uint32_t iterations;
    struct otf2_rank *rank;
    char why[480];          /* the first error: the run fails with it */
};

/* Append an operation to rank k's pending ones: 0 or -1 (memory). */
int otf2_emit(struct otf2_replay *p, struct otf2_rank *k, uint8_t code,
              uint32_t peer, uint32_t tag, uint64_t bytes, uint64_t arg,
              uint32_t req);
/* The replay fails at rank r's record e (NULL: none) because of `what`;
 * returns -1. */
int otf2_fail(struct otf2_replay *p, uint32_t r, const struct otf2_rec *e,
              const char *what);
/* The collective that record e (OR_COLL_END) ends, as operations. */
int otf2_collective(struct otf2_replay *p, uint32_t r,
                    const struct otf2_rec *e);
/* Job rank r's rank in communicator c, UINT32_MAX if not a member. */
uint32_t otf2_comm_rank(const struct otf2_comm *c, uint32_t r);

#endif
