/* core/keymap.c — see keymap.h. */
#include "core/keymap.h"

#include <stdlib.h>

/* Fibonacci hashing of the stored key (key + 1). */
static uint32_t slot_of(uint32_t cap, uint64_t k)
{
    return (uint32_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

/* Room for one more key (a load of at most 1/2). */
static int room(struct keymap *m)
{
    if (2 * ((uint64_t)m->n + 1) <= m->cap)
        return 0;
    uint32_t oc = m->cap, nc = oc ? 2 * oc : 16;
    uint64_t *key = calloc(nc, sizeof *key);
    uint32_t *val = calloc(nc, sizeof *val);
    if (!key || !val || nc <= oc) {
        free(key);
        free(val);
        return -1;
    }
    for (uint32_t i = 0; i < oc; i++) {
        if (!m->key[i])
            continue;
        uint32_t s = slot_of(nc, m->key[i]);
        while (key[s])
            s = (s + 1) & (nc - 1);
        key[s] = m->key[i];
        val[s] = m->val[i];
    }
    free(m->key);
    free(m->val);
    m->key = key;
    m->val = val;
    m->cap = nc;
    return 0;
}

/* The slot holding stored key k, or UINT32_MAX. */
static uint32_t find(const struct keymap *m, uint64_t k)
{
    if (!m->cap)
        return UINT32_MAX;
    for (uint32_t s = slot_of(m->cap, k); m->key[s]; s = (s + 1) & (m->cap - 1))
        if (m->key[s] == k)
            return s;
    return UINT32_MAX;
}

int keymap_put(struct keymap *m, uint64_t key, uint32_t val)
{
    if (room(m) != 0)
        return -1;
    uint64_t k = key + 1;
    uint32_t s = slot_of(m->cap, k);
    while (m->key[s])
        s = (s + 1) & (m->cap - 1);
    m->key[s] = k;
    m->val[s] = val;
    m->n++;
    return 0;
}

uint32_t *keymap_get(const struct keymap *m, uint64_t key)
{
    uint32_t s = find(m, key + 1);
    return s == UINT32_MAX ? NULL : &m->val[s];
}

bool keymap_take(struct keymap *m, uint64_t key, uint32_t *val)
{
    uint32_t s = find(m, key + 1);
    if (s == UINT32_MAX)
        return false;
    *val = m->val[s];
    /* shift back the entries of its run that hash at or before the hole */
    uint32_t mask = m->cap - 1, hole = s;
    for (uint32_t j = (s + 1) & mask; m->key[j]; j = (j + 1) & mask) {
        uint32_t want = slot_of(m->cap, m->key[j]);
        if (((j - want) & mask) >= ((j - hole) & mask)) {
            m->key[hole] = m->key[j];
            m->val[hole] = m->val[j];
            hole = j;
        }
    }
    m->key[hole] = 0;
    m->n--;
    return true;
}

void keymap_free(struct keymap *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
    m->cap = m->n = 0;
}
