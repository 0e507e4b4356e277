/* core/zmem.c — see zmem.h. Every array is preceded by one cache line
 * saying how it was obtained, so that zmem_free needs only the pointer.
 *
 * Under AddressSanitizer every array comes from calloc instead, so that
 * the sanitizer keeps checking the bounds of the network's arrays (a
 * mapping is outside its allocator); its allocator maps large blocks
 * itself and does not clear them, so they are backed on first touch too.
 * Without it, large arrays are mapped here rather than calloc'd because
 * glibc raises its mapping threshold when a mapped block is freed, after
 * which the next network's arrays would come from the heap and be
 * cleared with memset. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "core/zmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LINE ((size_t)64)

#if defined(__SANITIZE_ADDRESS__)
#define ZMEM_MAP 0
#else
#define ZMEM_MAP 1
#endif

struct zmem_head {   /* in the line before the array */
    void *raw;       /* what calloc or mmap returned */
    size_t total;    /* bytes mapped (0: from calloc) */
};

size_t zmem_lines_bytes(size_t count, size_t size)
{
    size_t n = count ? count : 1;
    if (size && n > (SIZE_MAX - 4 * LINE) / size)
        return SIZE_MAX;
    return (n * size + LINE - 1) / LINE * LINE;
}

void *zmem_lines(size_t count, size_t size)
{
    size_t bytes = zmem_lines_bytes(count, size);
    if (bytes == SIZE_MAX)
        return NULL;
    unsigned char *raw, *p;
    size_t total = 0;
    if (ZMEM_MAP && bytes + LINE >= ZMEM_MAP_MIN) {
        total = bytes + LINE;
        void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        raw = m; /* page-aligned, zero-filled on first touch */
        p = raw + LINE;
    } else {
        raw = calloc(1, bytes + 2 * LINE);
        if (!raw)
            return NULL;
        /* the first line boundary with a whole line before it */
        uintptr_t at = (uintptr_t)raw + 2 * LINE - 1;
        p = (unsigned char *)(at & ~(uintptr_t)(LINE - 1));
    }
    struct zmem_head *h = (struct zmem_head *)(p - LINE);
    h->raw = raw;
    h->total = total;
    return p;
}

void zmem_free(void *p)
{
    if (!p)
        return;
    const struct zmem_head *h =
        (const struct zmem_head *)((unsigned char *)p - LINE);
    if (h->total)
        munmap(h->raw, h->total);
    else
        free(h->raw);
}
