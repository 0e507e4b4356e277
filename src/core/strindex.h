/* core/strindex.h — finding names among many: an index of n keys, each
 * one string or a pair of strings (a job's name; a job and a variant),
 * sorted once and searched by halving.
 *
 * Why: set-up and report matched every job's name against every other
 * job's (the job an `after` names, a duplicate name, a result row's
 * series), which is quadratic in the number of jobs (issue 57: 12,000
 * chained jobs took 38 s). Sorting is O(n log n), each search O(log n).
 *
 * Invariant: the index lists the positions of the keys (those whose first
 * string is not NULL) sorted by key, and equal keys by position, so the
 * entries of one key are a run in which the first has the smallest
 * position: "the first job of that name" is what a linear search from the
 * start found. Strings compare with strcmp. The index points to the
 * caller's key arrays, which must outlive it. Every comparison is counted
 * (core/steps.h).
 */
#ifndef DFSIM_CORE_STRINDEX_H
#define DFSIM_CORE_STRINDEX_H

#include <stdint.h>

struct strindex {
    const char *const *a;  /* [n] first strings (NULL: left out) */
    const char *const *b;  /* [n] second strings, or NULL: one-string keys */
    uint32_t *pos;         /* [len] positions, sorted by key then position */
    uint32_t len;          /* keys in the index */
};

/* Index the keys (a[i], b[i]) for i < n (b NULL: a[i] alone); keys with
 * a[i] == NULL are left out. 0, or -1 out of memory (x then holds nothing
 * to free). */
int strindex_build(struct strindex *x, const char *const *a,
                   const char *const *b, uint32_t n);
void strindex_free(struct strindex *x);

/* The entries of key (ka, kb) (kb ignored for one-string keys):
 * x->pos[*lo .. *hi), in increasing position; their number. */
uint32_t strindex_find(const struct strindex *x, const char *ka,
                       const char *kb, uint32_t *lo, uint32_t *hi);

/* The smallest position of key (ka, kb), or UINT32_MAX if none has it. */
uint32_t strindex_first(const struct strindex *x, const char *ka,
                        const char *kb);

#endif
