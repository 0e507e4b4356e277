/* core/keymap.h — a map from 64-bit keys to 32-bit ids: open addressing,
 * linear probing, removal by shifting back (no tombstones).
 *
 * What it is for: finding a record of another layer or another partition
 * again by a key made of two ids (a source NIC and a message id there, a
 * NIC and an MPI transfer's id there) where the record itself lives in a
 * flat array (core/slots.h), and a rank's envelope number per peer
 * (mpi/p2p.c). Keys are any value but UINT64_MAX (a key is
 * stored + 1; 0 marks an empty slot). The load stays at most 1/2; the
 * arrays double when it would not. Lookups and removals allocate nothing.
 *
 * Invariants: n counts the keys held; every key is reachable from its
 * home slot (hash) without crossing an empty slot. Not thread-safe. */
#ifndef DFSIM_KEYMAP_H
#define DFSIM_KEYMAP_H

#include <stdbool.h>
#include <stdint.h>

struct keymap {
    uint64_t *key;  /* [cap]: key + 1, 0 empty */
    uint32_t *val;  /* [cap] */
    uint32_t cap, n;
};

/* Key `key` (absent) now maps to val. 0, or -1 out of memory (the map
 * unchanged). */
int keymap_put(struct keymap *m, uint64_t key, uint32_t val);
/* The value of key, or NULL if absent. */
uint32_t *keymap_get(const struct keymap *m, uint64_t key);
/* Remove key: true with its value in *val, false if absent. */
bool keymap_take(struct keymap *m, uint64_t key, uint32_t *val);
void keymap_free(struct keymap *m);

#endif
