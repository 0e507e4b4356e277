/* core/arena.c — see arena.h. A chunk is a header followed by its bytes;
 * the head chunk is the one being bumped. Oversized requests get a
 * dedicated chunk linked *behind* the head, so the head keeps serving small
 * requests. */
#include "core/arena.h"

#include <assert.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
    struct arena_chunk *next; /* older chunk */
    size_t size;              /* usable bytes in data[] */
    size_t used;              /* bytes handed out (incl. alignment gaps) */
    alignas(max_align_t) unsigned char data[];
};

void arena_init(struct arena *a, size_t chunk_size)
{
    a->head = NULL;
    a->chunk_size = chunk_size ? chunk_size : ARENA_DEFAULT_CHUNK;
    a->reserved = 0;
}

static struct arena_chunk *chunk_new(struct arena *a, size_t size)
{
    if (size > SIZE_MAX - sizeof(struct arena_chunk))
        return NULL;
    struct arena_chunk *c = malloc(sizeof *c + size);
    if (!c)
        return NULL;
    c->next = NULL;
    c->size = size;
    c->used = 0;
    a->reserved += sizeof *c + size;
    return c;
}

/* Offset in c at which `size` bytes aligned to `align` fit, or SIZE_MAX. */
static size_t fit(const struct arena_chunk *c, size_t size, size_t align)
{
    uintptr_t base = (uintptr_t)c->data;
    uintptr_t at = (base + c->used + (align - 1)) & ~(uintptr_t)(align - 1);
    size_t off = (size_t)(at - base);
    if (off > c->size || size > c->size - off)
        return SIZE_MAX;
    return off;
}

void *arena_alloc(struct arena *a, size_t size, size_t align)
{
    if (align == 0)
        align = alignof(max_align_t);
    assert((align & (align - 1)) == 0 && "align must be a power of two");

    struct arena_chunk *c = a->head;
    size_t off = c ? fit(c, size, align) : SIZE_MAX;
    if (off == SIZE_MAX) {
        /* Room for the request even in the worst alignment case. */
        if (size > SIZE_MAX - align)
            return NULL;
        size_t need = size + align - 1;
        if (need > a->chunk_size / 4 && a->head) {
            /* Big: a chunk of its own behind the head, which stays. */
            c = chunk_new(a, need);
            if (!c)
                return NULL;
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c = chunk_new(a, need > a->chunk_size ? need : a->chunk_size);
            if (!c)
                return NULL;
            c->next = a->head;
            a->head = c;
        }
        off = fit(c, size, align);
        assert(off != SIZE_MAX);
    }
    c->used = off + size;
    return c->data + off;
}

void *arena_calloc(struct arena *a, size_t n, size_t size, size_t align)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *p = arena_alloc(a, n * size, align);
    if (p)
        memset(p, 0, n * size);
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = arena_alloc(a, len, 1);
    if (p)
        memcpy(p, s, len);
    return p;
}

void arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->reserved = 0;
}

size_t arena_bytes(const struct arena *a) { return a->reserved; }
