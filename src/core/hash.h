/* core/hash.h — the 64-bit FNV-1a hash (Fowler, Noll, Vo; offset basis
 * 14695981039346656037, prime 1099511628211), the one fingerprint of
 * bytes dfsim writes down: experiment.files' file hashes, the journal's
 * records, the scoreboard's kept values. Not for hash tables on the hot
 * path (exp/traffic_sim.c keeps its own, over integers). */
#ifndef DFSIM_CORE_HASH_H
#define DFSIM_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_START UINT64_C(14695981039346656037)

/* h (FNV1A_START to begin) carried over the n bytes at p. */
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(1099511628211);
    return h;
}

#endif
