/* core/zmem.c — see zmem.h. Every array is preceded by one cache line
 * holding how it was obtained, so that zmem_free needs only the pointer. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "core/zmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LINE ((size_t)64)

struct zmem_head {
    size_t total;  /* bytes obtained, this line included */
    int mapped;    /* 1: mmap, 0: aligned_alloc */
};

size_t zmem_lines_bytes(size_t count, size_t size)
{
    size_t n = count ? count : 1;
    if (size && n > (SIZE_MAX - 2 * LINE) / size)
        return SIZE_MAX;
    return (n * size + LINE - 1) / LINE * LINE;
}

void *zmem_lines(size_t count, size_t size)
{
    size_t bytes = zmem_lines_bytes(count, size);
    if (bytes == SIZE_MAX)
        return NULL;
    size_t total = bytes + LINE;
    unsigned char *base;
    int mapped = total >= ZMEM_MAP_MIN;
    if (mapped) {
        void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        base = m; /* page-aligned, zero-filled on first touch */
    } else {
        base = aligned_alloc(LINE, total);
        if (!base)
            return NULL;
        memset(base, 0, total);
    }
    struct zmem_head *h = (struct zmem_head *)base;
    h->total = total;
    h->mapped = mapped;
    return base + LINE;
}

void zmem_free(void *p)
{
    if (!p)
        return;
    struct zmem_head *h = (struct zmem_head *)((unsigned char *)p - LINE);
    if (h->mapped)
        munmap(h, h->total);
    else
        free(h);
}
