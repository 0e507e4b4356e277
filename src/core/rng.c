/* core/rng.c — see rng.h. The generator itself is inline in the header
 * (it is on the hot path); this file holds what is built from it and used
 * at setup: shuffles for allocation policies and workload generators.
 * Invariant: like every draw, a shuffle depends only on the stream it is
 * given and the length of the array, so it is as reproducible as the
 * stream. */
#include "core/rng.h"

#include <stddef.h>

void rng_shuffle_u32(struct rng *r, uint32_t *a, size_t n)
{
    assert(n <= UINT32_MAX);
    /* Fisher–Yates (Durstenfeld's in-place form), from the back: slot i
     * receives a uniform pick among the i + 1 not yet placed. */
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(r, (uint32_t)i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}
