/* core/arena.h — a bump allocator for data built once at setup.
 *
 * What it is for: everything a run builds before the first event and keeps
 * until the end — the topology graph, routing tables, job and rank
 * descriptions, names read from the experiment file. Such data is never
 * freed piece by piece, so an arena hands out memory by bumping an offset
 * in a chunk and frees it all at once (STYLE.md "memory": arenas for setup,
 * pools for the hot path). One allocation is a pointer bump and an
 * alignment round-up; malloc is called once per chunk.
 *
 * Invariant: every pointer returned stays valid, unmoved, until
 * arena_free(); chunks are never reallocated. A request larger than the
 * chunk size gets a chunk of its own, so a huge table does not waste the
 * rest of the current chunk.
 *
 * Errors: out of memory is a NULL return; the arena stays usable and
 * everything allocated before is intact.
 */
#ifndef DFSIM_ARENA_H
#define DFSIM_ARENA_H

#include <stddef.h>

struct arena_chunk; /* private to arena.c */

struct arena {
    struct arena_chunk *head; /* current chunk (bump here), then older */
    size_t chunk_size;        /* usable bytes of an ordinary chunk */
    size_t reserved;          /* bytes obtained from malloc, headers too */
};

#define ARENA_DEFAULT_CHUNK ((size_t)64 * 1024)

/* An empty arena whose chunks hold chunk_size bytes (0: 64 KiB). Allocates
 * nothing until the first arena_alloc. */
void arena_init(struct arena *a, size_t chunk_size);

/* `size` bytes aligned to `align` (a power of two; 0 means
 * alignof(max_align_t)), uninitialised, valid until arena_free. Returns
 * NULL if out of memory. size 0 returns a valid pointer that must not be
 * dereferenced. */
void *arena_alloc(struct arena *a, size_t size, size_t align);

/* `n` objects of `size` bytes each, aligned to `align`, zero-filled.
 * Returns NULL if out of memory or if n * size overflows. */
void *arena_calloc(struct arena *a, size_t n, size_t size, size_t align);

/* A copy of the NUL-terminated string s in the arena, or NULL if out of
 * memory. */
char *arena_strdup(struct arena *a, const char *s);

/* Free every chunk: all pointers from this arena become invalid. The arena
 * is empty and may be used again. */
void arena_free(struct arena *a);

/* Bytes the arena has reserved from the system (chunks and their headers),
 * for memory reports. */
size_t arena_bytes(const struct arena *a);

#endif
