/* core/vec.h — a growable array of records: room for `need` of them,
 * the capacity doubled as needed (from VEC_FIRST). For buffers refilled
 * and emptied over and over (the partitions' boxes, net/xpart.c; the
 * exchange's send and receive buffers, exp/xchange.c): they grow to the
 * largest window's and stay.
 *
 * Invariants: *cap records of `size` bytes at *v (NULL when 0); on
 * failure nothing changes. */
#ifndef DFSIM_CORE_VEC_H
#define DFSIM_CORE_VEC_H

#include <stddef.h>
#include <stdlib.h>

#define VEC_FIRST 64u

/* 0 once *v holds at least `need` records, -1 out of memory. */
static inline int vec_reserve(void **v, size_t *cap, size_t need,
                              size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : VEC_FIRST;
    while (c < need)
        c *= 2;
    void *nv = realloc(*v, c * size);
    if (!nv)
        return -1;
    *v = nv;
    *cap = c;
    return 0;
}

#endif
