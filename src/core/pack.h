/* core/pack.h — values written into a byte buffer in order and read back
 * in the same order: how the partitions of a split run hand their
 * results to the first (exp/jobs_win.c), in one process or over MPI
 * (the buffer is bytes; every process of a run is the same program on
 * the same kind of machine, so no byte order is converted).
 *
 * Writing never fails midway: out of memory sets `oom` and the rest is
 * dropped (the writer checks once at the end). Reading past the end sets
 * `bad` and gives zeros (the reader checks once at the end). */
#ifndef DFSIM_CORE_PACK_H
#define DFSIM_CORE_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/vec.h"

struct pack {
    unsigned char *b;
    size_t n, cap;
    bool oom;
};

struct unpack {
    const unsigned char *b;
    size_t n, at;
    bool bad;
};

static inline void pack_bytes(struct pack *p, const void *v, size_t len)
{
    if (p->oom || vec_reserve((void **)&p->b, &p->cap, p->n + len, 1) != 0) {
        p->oom = true;
        return;
    }
    if (len)
        memcpy(p->b + p->n, v, len);
    p->n += len;
}

static inline void pack_u64(struct pack *p, uint64_t v)
{
    pack_bytes(p, &v, sizeof v);
}

static inline void pack_free(struct pack *p)
{
    free(p->b);
    *p = (struct pack){ 0 };
}

static inline void unpack_bytes(struct unpack *u, void *v, size_t len)
{
    if (u->bad || len > u->n - u->at) {
        u->bad = true;
        memset(v, 0, len);
        return;
    }
    if (len)
        memcpy(v, u->b + u->at, len);
    u->at += len;
}

static inline uint64_t unpack_u64(struct unpack *u)
{
    uint64_t v;
    unpack_bytes(u, &v, sizeof v);
    return v;
}

#endif
