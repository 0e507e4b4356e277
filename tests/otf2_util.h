/* tests/otf2_util.h — OTF2 archives written record by record through
 * libotf2's writer, as Score-P lays them out (app/otf2_trace.h), for the
 * replay's tests: small programs whose every message is known, and
 * broken archives. */
#ifndef DFSIM_TESTS_OTF2_UTIL_H
#define DFSIM_TESTS_OTF2_UTIL_H

#include <stdbool.h>
#include <stdint.h>

struct tw;

/* A new archive DIR/traces.otf2 of n ranks (MPI_COMM_WORLD is
 * communicator 0); NULL if libotf2 refuses. Timestamps are ns. */
struct tw *tw_open(const char *dir, uint32_t nranks);
/* A communicator of members[0..n) (world ranks, in its rank order):
 * its reference. */
uint32_t tw_comm(struct tw *w, const char *name, const uint32_t *members,
                 uint32_t n);
/* Records of rank r at time t (ns; non-decreasing per rank). Regions by
 * name ("MPI_Send", or a user function's). */
void tw_enter(struct tw *w, uint32_t r, uint64_t t, const char *region);
void tw_leave(struct tw *w, uint32_t r, uint64_t t, const char *region);
void tw_send(struct tw *w, uint32_t r, uint64_t t, uint32_t to,
             uint32_t comm, uint32_t tag, uint64_t bytes);
void tw_recv(struct tw *w, uint32_t r, uint64_t t, uint32_t from,
             uint32_t comm, uint32_t tag, uint64_t bytes);
void tw_isend(struct tw *w, uint32_t r, uint64_t t, uint32_t to,
              uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req);
void tw_isend_done(struct tw *w, uint32_t r, uint64_t t, uint64_t req);
void tw_irecv_req(struct tw *w, uint32_t r, uint64_t t, uint64_t req);
void tw_test(struct tw *w, uint32_t r, uint64_t t, uint64_t req);
void tw_irecv(struct tw *w, uint32_t r, uint64_t t, uint32_t from,
              uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req);
/* A whole collective call (Enter, begin, end, Leave) at t..t2. */
void tw_coll(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
             const char *region, uint8_t op, uint32_t comm, uint32_t root,
             uint64_t sent, uint64_t received);
/* An RMA window over communicator comm: its reference. */
uint32_t tw_win(struct tw *w, uint32_t comm);
void tw_rma_put(struct tw *w, uint32_t r, uint64_t t, uint32_t win,
                uint32_t to, uint64_t bytes);
void tw_rma_get(struct tw *w, uint32_t r, uint64_t t, uint32_t win,
                uint32_t from, uint64_t bytes);
/* A whole MPI_Win_fence call on window win at t..t2. */
void tw_fence(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
              uint32_t win);
/* A non-blocking collective's call (region, e.g. "MPI_Iallreduce") and,
 * later, its completion record (inside a wait the caller writes). */
void tw_nbc(struct tw *w, uint32_t r, uint64_t t, const char *region,
            uint64_t req);
void tw_nbc_done(struct tw *w, uint32_t r, uint64_t t, uint8_t op,
                 uint32_t comm, uint32_t root, uint64_t sent,
                 uint64_t received, uint64_t req);
/* Whole calls: MPI_Send / MPI_Recv at t..t2. */
void tw_call_send(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
                  uint32_t to, uint32_t tag, uint64_t bytes);
void tw_call_recv(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
                  uint32_t from, uint32_t tag, uint64_t bytes);
/* Write the definitions and close: 0, or -1. `comm_undefined`: leave
 * communicator references above the defined ones undefined (a broken
 * trace) — always so; nothing to ask. */
int tw_close(struct tw *w);

#endif
