/* core/strindex.c — the sorted index of names (strindex.h): a bottom-up
 * merge sort of the positions (stable, so equal keys keep their order,
 * and in O(n log n) whatever the input), and binary searches for the
 * first and past-the-last entry of a key. */
#include "core/strindex.h"

#include <stdlib.h>
#include <string.h>

#include "core/steps.h"

/* Key i against key (ka, kb): <0, 0, >0 as strcmp. */
static int cmp_key(const struct strindex *x, uint32_t i, const char *ka,
                   const char *kb)
{
    steps_add(1);
    int c = strcmp(x->a[i], ka);
    if (c == 0 && x->b)
        c = strcmp(x->b[i], kb);
    return c;
}

/* Merge the sorted runs src[lo, mid) and src[mid, hi) into dst; on equal
 * keys the left run's first, which keeps positions in order. */
static void merge(const struct strindex *x, const uint32_t *src,
                  uint32_t *dst, uint32_t lo, uint32_t mid, uint32_t hi)
{
    uint32_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        uint32_t r = src[j];
        if (cmp_key(x, src[i], x->a[r], x->b ? x->b[r] : NULL) <= 0)
            dst[k++] = src[i++];
        else
            dst[k++] = src[j++];
    }
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

int strindex_build(struct strindex *x, const char *const *a,
                   const char *const *b, uint32_t n)
{
    memset(x, 0, sizeof *x);
    x->a = a;
    x->b = b;
    uint32_t *p = malloc(2 * (size_t)(n ? n : 1) * sizeof *p);
    if (!p)
        return -1;
    uint32_t len = 0;
    for (uint32_t i = 0; i < n; i++)
        if (a[i])
            p[len++] = i;
    /* runs of width w merged pairwise into the other half of p, and
     * back, until one run is left */
    uint32_t *src = p, *dst = p + (n ? n : 1);
    for (uint32_t w = 1; w < len; w = w > len / 2 ? len : 2 * w) {
        for (uint32_t lo = 0; lo < len; lo += 2 * w) {
            uint32_t mid = lo + w < len ? lo + w : len;
            uint32_t hi = mid + w < len ? mid + w : len;
            merge(x, src, dst, lo, mid, hi);
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, len * sizeof *p);
    x->pos = p;
    x->len = len;
    return 0;
}

void strindex_free(struct strindex *x)
{
    free(x->pos);
    memset(x, 0, sizeof *x);
}

/* The first entry whose key is not below (ka, kb) (upper: not at or
 * below it). */
static uint32_t bound(const struct strindex *x, const char *ka,
                      const char *kb, int upper)
{
    uint32_t lo = 0, hi = x->len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(x, x->pos[mid], ka, kb);
        if (c < 0 || (upper && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t strindex_find(const struct strindex *x, const char *ka,
                       const char *kb, uint32_t *lo, uint32_t *hi)
{
    *lo = bound(x, ka, kb, 0);
    *hi = bound(x, ka, kb, 1);
    return *hi - *lo;
}

uint32_t strindex_first(const struct strindex *x, const char *ka,
                        const char *kb)
{
    uint32_t i = bound(x, ka, kb, 0);
    if (i < x->len && cmp_key(x, x->pos[i], ka, kb) == 0)
        return x->pos[i];
    return UINT32_MAX;
}
