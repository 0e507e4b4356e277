/* app/proxy_build.h — inside the proxy applications (app/proxy.h): one
 * iteration as a list of steps, and the helpers that build it. Shared by
 * proxy.c (MILC, LAMMPS, AMG, MiniGhost, the program walker) and one file
 * per later kind (proxy_hpcg.c, proxy_fft.c); not for other modules.
 *
 * A step is a compute delay, a collective (allreduce, alltoall), a
 * WAITALL, the iteration's mark, or a point-to-point step over a list of
 * grid offsets (struct proxy_ent), one message to or from the rank at
 * each offset (none if no rank is there). A step may be conditional on
 * the iteration (LAMMPS's re-neighbouring and thermo steps); all ranks
 * agree on it. Tags: each logical exchange takes a block of
 * 2^PROXY_TAG_SHIFT tags (bld_new_tag); proxy.c's walker adds the code
 * of the message's direction of travel inside the block.
 */
#ifndef DFSIM_APP_PROXY_BUILD_H
#define DFSIM_APP_PROXY_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/proxy.h"

#define PROXY_TAG_SHIFT 17

enum ph_code {
    PH_COMPUTE,   /* t */
    PH_ALLREDUCE, /* bytes */
    PH_IRECV,     /* entries [first, first + count) */
    PH_ISEND,
    PH_SEND,      /* blocking */
    PH_RECV,      /* blocking */
    PH_WAITALL,
    PH_MARK,
    PH_ALLTOALL   /* bytes per peer */
};

enum ph_when {
    W_ALWAYS,
    W_REN,        /* lammps: a re-neighbouring step */
    W_NOREN,      /* lammps: any other step */
    W_THERMO      /* lammps: a thermo-output step */
};

struct proxy_phase {
    uint8_t code;    /* enum ph_code */
    uint8_t when;    /* enum ph_when */
    uint32_t first;  /* point-to-point: entries */
    uint32_t count;
    uint32_t tag;    /* point-to-point: the exchange's tag block */
    uint64_t bytes;  /* allreduce; alltoall: per peer */
    simtime t;       /* compute */
};

struct proxy_ent {
    int8_t off[4];   /* grid offset x, y, z, t */
    uint64_t bytes;  /* message size either way */
};

struct proxy_cursor {
    uint32_t iter;   /* iterations finished */
    uint32_t phase;  /* step within the iteration */
    uint32_t j;      /* entry within a point-to-point step */
};

/* One sentence into err (a builder's err, err_cap), return -1. */
#define FAIL(...)                                                            \
    do {                                                                     \
        snprintf(err, err_cap, __VA_ARGS__);                                 \
        return -1;                                                           \
    } while (0)

struct bld {
    struct proxy *x;
    uint8_t when;    /* of the steps added next */
    bool oom;
    bool too_long;   /* a compute phase past simtime's range */
};

/* The 3-D process grid of lammps, amg, minighost and hpcg into x->grid:
 * px py pz as given, or all 0: the most cubic (ember_grid3). */
int bld_grid_3d(struct proxy *x, const char *name, char *err,
                size_t err_cap);

/* A new entry (offset dx dy dz dt, bytes); returns its index. */
uint32_t bld_add_ent(struct bld *b, int dx, int dy, int dz, int dt,
                     uint64_t bytes);
/* A new exchange's tag block. */
uint32_t bld_new_tag(struct bld *b);

/* A compute step of `s` seconds (or the `compute` override); counted in
 * x->t_iter unless conditional on a rarer step. */
void bld_compute(struct bld *b, double s);
void bld_allreduce(struct bld *b, uint64_t bytes);
/* MPI_Alltoall over the job, `bytes` to and from every rank. */
void bld_alltoall(struct bld *b, uint64_t bytes);
void bld_waitall(struct bld *b);
/* A point-to-point step (PH_IRECV, PH_ISEND, PH_SEND, PH_RECV) over
 * entries [first, first + count) with the exchange's tag block. */
void bld_p2p(struct bld *b, uint8_t code, uint32_t first, uint32_t count,
             uint32_t tag);
/* Receive from and send to every offset of entries [first, first+count)
 * (non-blocking), then wait for all. */
void bld_halo(struct bld *b, uint32_t first, uint32_t count);
void bld_mark(struct bld *b);

/* The builders of the kinds kept in files of their own. */
int proxy_build_hpcg(struct bld *b, char *err, size_t err_cap);
int proxy_build_fft(struct bld *b, char *err, size_t err_cap);

#endif
