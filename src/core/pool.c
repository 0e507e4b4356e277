/* core/pool.c — see pool.h. Chunks are a header followed by objects; the
 * newest chunk is at the head of the list and is the one the bump pointer
 * walks. A new chunk is only made once the bump pointer has reached its
 * end and the free list is empty. */
#include "core/pool.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pool_chunk {
    struct pool_chunk *next; /* older chunk */
    size_t count;            /* objects in this chunk */
    alignas(max_align_t) unsigned char objs[];
};

#define MIN_CHUNK 16 /* objects in the smallest chunk */

/* Link a new chunk of `count` objects and point the bump pointer at it. */
static int add_chunk(struct pool *p, size_t count)
{
    if (count > (SIZE_MAX - sizeof(struct pool_chunk)) / p->obj_size)
        return -1;
    struct pool_chunk *c = malloc(sizeof *c + count * p->obj_size);
    if (!c)
        return -1;
    c->next = p->chunks;
    c->count = count;
    p->chunks = c;
    p->capacity += count;
    p->bump = c->objs;
    p->bump_end = c->objs + count * p->obj_size;
    return 0;
}

int pool_init(struct pool *p, size_t obj_size, size_t initial_capacity)
{
    assert(obj_size > 0);
    memset(p, 0, sizeof *p);
    size_t align = alignof(max_align_t);
    if (obj_size < sizeof(struct pool_free))
        obj_size = sizeof(struct pool_free);
    if (obj_size > SIZE_MAX - align)
        return -1;
    p->obj_size = (obj_size + align - 1) / align * align;
    return add_chunk(p, initial_capacity ? initial_capacity : MIN_CHUNK);
}

void *pool_grow(struct pool *p)
{
    assert(!p->free && p->bump == p->bump_end);
    if (p->obj_size == 0) /* init failed or pool freed */
        return NULL;
    size_t count = p->capacity ? p->capacity : MIN_CHUNK; /* doubles */
    if (add_chunk(p, count) != 0)
        return NULL;
    void *o = p->bump;
    p->bump += p->obj_size;
    p->in_use++;
    return o;
}

void pool_free(struct pool *p)
{
    struct pool_chunk *c = p->chunks;
    while (c) {
        struct pool_chunk *next = c->next;
        free(c);
        c = next;
    }
    memset(p, 0, sizeof *p);
}
