/* core/pool.h — fixed-size objects for the hot path.
 *
 * What it is for: objects created and destroyed at event rate — packets,
 * messages, payloads too big for an event's 64-bit argument. A pool hands
 * out objects of one size from large chunks and takes them back onto a free
 * list (STYLE.md "memory"; ROSS preallocates its events the same way).
 * pool_get and pool_put are O(1) and inline: a pop or push on the free
 * list, or a pointer bump into the newest chunk.
 *
 * Growth: only when no freed object and no fresh slot is left does
 * pool_get call malloc, for a new chunk as large as everything the pool
 * already has (so capacity doubles, and the number of mallocs is
 * logarithmic in the peak). A pool initialised with the peak number of
 * live objects therefore never allocates inside the event loop; one that
 * is too small allocates a few times early on and then never again.
 *
 * Invariant: pool_in_use() objects are out; every other object of every
 * chunk is either on the free list or beyond the bump pointer of the newest
 * chunk. Objects never move: a pointer from pool_get stays valid until it is
 * put back or the pool is freed, however much the pool grows. The most
 * recently put object is the next one got (LIFO), because it is the one
 * most likely still in cache.
 *
 * Errors: out of memory is a NULL from pool_get (or -1 from pool_init);
 * the pool stays usable.
 */
#ifndef DFSIM_POOL_H
#define DFSIM_POOL_H

#include <assert.h>
#include <stddef.h>

struct pool_chunk; /* private to pool.c */
struct pool_free;  /* a freed object, reused as a list link */

struct pool {
    size_t obj_size;           /* bytes per object, rounded for alignment */
    struct pool_free *free;    /* most recently put object, or NULL */
    unsigned char *bump;       /* next never-used object in the newest chunk */
    unsigned char *bump_end;   /* end of the newest chunk's objects */
    struct pool_chunk *chunks; /* newest chunk first */
    size_t capacity;           /* objects in all chunks */
    size_t in_use;             /* objects handed out and not put back */
};

struct pool_free {
    struct pool_free *next; /* next free object */
};

/* A pool of objects of obj_size bytes (> 0), each aligned for any type
 * (alignof(max_align_t)), with room for initial_capacity objects (0: one
 * small chunk) allocated now. Returns 0, or -1 if out of memory (the pool
 * is then empty and pool_free() is harmless). */
int pool_init(struct pool *p, size_t obj_size, size_t initial_capacity);

/* Slow path of pool_get: add a chunk and return its first object, or NULL
 * if out of memory. Not for direct use. */
void *pool_grow(struct pool *p);

/* An object of the pool's size, uninitialised: the last one put back if
 * any, else a fresh one, else one from a newly allocated chunk. NULL only
 * if the pool must grow and malloc fails. */
static inline void *pool_get(struct pool *p)
{
    struct pool_free *f = p->free;
    if (f) {
        p->free = f->next;
        p->in_use++;
        return f;
    }
    if (p->bump != p->bump_end) {
        void *o = p->bump;
        p->bump += p->obj_size;
        p->in_use++;
        return o;
    }
    return pool_grow(p);
}

/* Give back an object obtained from pool_get on this pool. Its contents
 * are overwritten; using it afterwards is a bug. NULL is ignored. */
static inline void pool_put(struct pool *p, void *obj)
{
    if (!obj)
        return;
    assert(p->in_use > 0 && "pool_put without a matching pool_get");
    struct pool_free *f = obj;
    f->next = p->free;
    p->free = f;
    p->in_use--;
}

/* Objects handed out and not yet put back. */
static inline size_t pool_in_use(const struct pool *p) { return p->in_use; }

/* Objects the pool can hold without allocating again. */
static inline size_t pool_capacity(const struct pool *p)
{
    return p->capacity;
}

/* Free every chunk; all objects become invalid, whether put back or not.
 * The pool must be re-initialised before further use. */
void pool_free(struct pool *p);

#endif
