/* tests/test_mem.c — core/arena, core/pool and core/zmem: alignment,
 * reuse, counts, growth, zeroing. Writes patterns through every pointer
 * handed out so that an overlap between two allocations (or a use of
 * freed chunk memory, under ASan) is caught. */
#include "test.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/arena.h"
#include "core/keymap.h"
#include "core/pool.h"
#include "core/zmem.h"

static void test_arena_alignment(void)
{
    struct arena a;
    arena_init(&a, 256); /* small chunks: many chunk changes */
    CHECK_EQ_U(arena_bytes(&a), 0);
    int misaligned = 0;
    for (int i = 0; i < 2000; i++) {
        size_t align = (size_t)1 << (i % 8); /* 1 .. 128 */
        size_t size = (size_t)(i * 7 % 61);
        unsigned char *p = arena_alloc(&a, size, align);
        CHECK(p != NULL);
        if (!p)
            break;
        misaligned += ((uintptr_t)p & (align - 1)) != 0;
        memset(p, 0xab, size);
    }
    CHECK_EQ_U(misaligned, 0);
    /* align 0: suitable for any type. */
    void *q = arena_alloc(&a, 3, 0);
    CHECK(q && ((uintptr_t)q & (alignof(max_align_t) - 1)) == 0);
    CHECK(arena_bytes(&a) > 2000 * 30 / 2); /* it did reserve memory */
    arena_free(&a);
    CHECK_EQ_U(arena_bytes(&a), 0);
}

static void test_arena_no_overlap(void)
{
    /* Allocations of various sizes, each filled with its own index; none
     * overwrote another. Includes blocks bigger than a chunk. */
    enum { N = 500 };
    struct arena a;
    arena_init(&a, 1024);
    unsigned char *p[N];
    size_t sz[N];
    for (int i = 0; i < N; i++) {
        sz[i] = i % 50 == 0 ? 5000 + (size_t)i : (size_t)(1 + i % 40);
        p[i] = arena_alloc(&a, sz[i], (size_t)1 << (i % 5));
        CHECK(p[i] != NULL);
        if (p[i])
            memset(p[i], i & 0xff, sz[i]);
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (size_t k = 0; p[i] && k < sz[i]; k++)
            bad += p[i][k] != (unsigned char)(i & 0xff);
    CHECK_EQ_U(bad, 0);
    /* Big blocks got chunks of their own: at least 10 x 5000 bytes. */
    CHECK(arena_bytes(&a) >= 10 * 5000);
    arena_free(&a);
}

static void test_arena_calloc_strdup(void)
{
    struct arena a;
    arena_init(&a, 0);
    uint64_t *z = arena_calloc(&a, 100, sizeof *z, alignof(uint64_t));
    CHECK(z != NULL);
    int nonzero = 0;
    for (int i = 0; z && i < 100; i++)
        nonzero += z[i] != 0;
    CHECK_EQ_U(nonzero, 0);
    /* n * size overflowing is refused, not wrapped. */
    CHECK(arena_calloc(&a, SIZE_MAX / 2, 4, 1) == NULL);
    CHECK(arena_alloc(&a, SIZE_MAX - 8, 16) == NULL);

    const char *src = "aries.routing = ADAPTIVE_3";
    char *s = arena_strdup(&a, src);
    CHECK(s && s != src && strcmp(s, src) == 0);
    char *e = arena_strdup(&a, "");
    CHECK(e && e[0] == '\0');
    CHECK(s && strcmp(s, src) == 0); /* untouched by the next allocation */
    CHECK(arena_bytes(&a) >= ARENA_DEFAULT_CHUNK);
    arena_free(&a);
    /* Reusable after arena_free. */
    char *t = arena_strdup(&a, "again");
    CHECK(t && strcmp(t, "again") == 0);
    arena_free(&a);
}

static int cmp_ptr(const void *pa, const void *pb)
{
    uintptr_t a = (uintptr_t) * (void *const *)pa;
    uintptr_t b = (uintptr_t) * (void *const *)pb;
    return a < b ? -1 : a > b;
}

struct obj {
    uint64_t id;
    char pad[40];
};

static void test_pool_reuse_lifo(void)
{
    struct pool p;
    CHECK(pool_init(&p, sizeof(struct obj), 8) == 0);
    CHECK_EQ_U(pool_in_use(&p), 0);
    struct obj *a = pool_get(&p), *b = pool_get(&p), *c = pool_get(&p);
    CHECK(a && b && c && a != b && b != c && a != c);
    CHECK_EQ_U(pool_in_use(&p), 3);
    pool_put(&p, a);
    pool_put(&p, c);
    CHECK_EQ_U(pool_in_use(&p), 1);
    /* Last in, first out. */
    CHECK(pool_get(&p) == c);
    CHECK(pool_get(&p) == a);
    CHECK_EQ_U(pool_in_use(&p), 3);
    pool_put(&p, NULL); /* ignored */
    CHECK_EQ_U(pool_in_use(&p), 3);
    /* Objects are aligned for any type and do not overlap. */
    CHECK(((uintptr_t)a & (alignof(max_align_t) - 1)) == 0);
    CHECK(((uintptr_t)b & (alignof(max_align_t) - 1)) == 0);
    CHECK((char *)b >= (char *)a + sizeof(struct obj) ||
          (char *)a >= (char *)b + sizeof(struct obj));
    pool_free(&p);
}

static void test_pool_growth_keeps_objects(void)
{
    /* From room for 4, take 10000 objects: the pool grows (capacity
     * doubles each time, so only a handful of chunks), and every object
     * taken before a growth keeps its contents and address. */
    enum { N = 10000 };
    struct pool p;
    CHECK(pool_init(&p, sizeof(struct obj), 4) == 0);
    CHECK_EQ_U(pool_capacity(&p), 4);
    struct obj **o = malloc(N * sizeof *o);
    CHECK(o != NULL);
    if (!o)
        return;
    size_t growths = 0, cap = pool_capacity(&p);
    for (int i = 0; i < N; i++) {
        o[i] = pool_get(&p);
        CHECK(o[i] != NULL);
        if (!o[i])
            break;
        o[i]->id = (uint64_t)i * 2654435761u;
        memset(o[i]->pad, i & 0x7f, sizeof o[i]->pad);
        if (pool_capacity(&p) != cap) {
            CHECK(pool_capacity(&p) == 2 * cap); /* doubled */
            cap = pool_capacity(&p);
            growths++;
        }
    }
    CHECK_EQ_U(pool_in_use(&p), N);
    CHECK(growths >= 11 && growths <= 12); /* 4 * 2^12 >= 10000 */
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += o[i]->id != (uint64_t)i * 2654435761u ||
               o[i]->pad[39] != (char)(i & 0x7f);
    CHECK_EQ_U(bad, 0);

    /* Put everything back and take it again: no further growth (a pool
     * sized for the peak never allocates), in_use back to N. */
    for (int i = 0; i < N; i++)
        pool_put(&p, o[i]);
    CHECK_EQ_U(pool_in_use(&p), 0);
    for (int i = 0; i < N; i++)
        o[i] = pool_get(&p);
    CHECK_EQ_U(pool_capacity(&p), cap);
    CHECK_EQ_U(pool_in_use(&p), N);
    /* ... and the objects handed out are N distinct ones. */
    qsort(o, N, sizeof *o, cmp_ptr);
    int dup = 0;
    for (int i = 1; i < N; i++)
        dup += o[i] == o[i - 1];
    CHECK_EQ_U(dup, 0);
    free(o);
    pool_free(&p);
}

static void test_pool_distinct_objects(void)
{
    /* Interleaved gets and puts: at every moment the objects out are
     * distinct, and in_use counts them. */
    enum { N = 3000 };
    struct pool p;
    CHECK(pool_init(&p, 1, 0) == 0); /* tiny objects: still a free link */
    void *out[N];
    size_t n = 0;
    int wrong_count = 0;
    for (int step = 0; step < 20000; step++) {
        int get = n == 0 || (n < N && (step * 7919 % 13) < 7);
        if (get) {
            out[n] = pool_get(&p);
            CHECK(out[n] != NULL);
            n++;
        } else {
            size_t k = (size_t)step % n;
            pool_put(&p, out[k]);
            out[k] = out[--n];
        }
        wrong_count += pool_in_use(&p) != n;
    }
    CHECK_EQ_U(wrong_count, 0);
    qsort(out, n, sizeof out[0], cmp_ptr);
    int dup = 0;
    for (size_t i = 1; i < n; i++)
        dup += out[i] == out[i - 1];
    CHECK_EQ_U(dup, 0);
    pool_free(&p);
}

/* zmem_lines on both sides of ZMEM_MAP_MIN (calloc'd and mapped): every
 * array 64-byte aligned and zero in every byte, also where the memory of
 * a freed array of the same size, written all over, is handed out again;
 * sizes that overflow are refused. */
/* keymap against a plain array: random puts and takes (colliding keys
 * of the form nic << 32 | id), every key findable with its value after
 * each removal's shifting, absent keys absent, 0 and large keys fine. */
static void test_keymap_against_array(void)
{
    enum { N = 3000 };
    static uint64_t keys[N];
    static uint32_t vals[N];
    static bool in[N];
    struct keymap m = { 0 };
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        keys[i] = (uint64_t)(i % 37) << 32 | (uint64_t)(i / 37);
        vals[i] = (uint32_t)(i * 7 + 1);
    }
    keys[1] = UINT64_MAX - 1; /* keys[0] is 0 */
    keys[2] = UINT64_C(1) << 63;
    int live = 0, bad = 0;
    for (int step = 0; step < 20 * N; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int i = (int)(x % N);
        uint32_t v = 0;
        if (!in[i]) {
            CHECK(keymap_get(&m, keys[i]) == NULL);
            CHECK(!keymap_take(&m, keys[i], &v));
            CHECK(keymap_put(&m, keys[i], vals[i]) == 0);
            in[i] = true;
            live++;
        } else if (x & 256) {
            bad += !keymap_take(&m, keys[i], &v) || v != vals[i];
            in[i] = false;
            live--;
        }
        if (step % 997 == 0)
            for (int k = 0; k < N; k++) {
                const uint32_t *g = keymap_get(&m, keys[k]);
                bad += in[k] ? (!g || *g != vals[k]) : g != NULL;
            }
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(m.n, (unsigned)live);
    CHECK(2 * (uint64_t)m.n <= m.cap);
    keymap_free(&m);
    CHECK(m.cap == 0 && keymap_get(&m, 5) == NULL);
}

static void test_zmem_lines(void)
{
    const size_t sizes[] = { 1, 63, 64, 1000, ZMEM_MAP_MIN - 64 - 1,
                             ZMEM_MAP_MIN - 64, ZMEM_MAP_MIN,
                             3 * ZMEM_MAP_MIN + 5 };
    int misaligned = 0, nonzero = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int round = 0; round < 2; round++) {
            unsigned char *p = zmem_lines(sizes[k], 1);
            CHECK(p != NULL);
            if (!p)
                return;
            misaligned += ((uintptr_t)p & 63) != 0;
            size_t bytes = zmem_lines_bytes(sizes[k], 1);
            CHECK(bytes >= sizes[k] && bytes % 64 == 0);
            for (size_t i = 0; i < bytes; i++)
                nonzero += p[i] != 0;
            memset(p, 0xab, bytes); /* the next round must not see it */
            zmem_free(p);
        }
    }
    CHECK_EQ_U(misaligned, 0);
    CHECK_EQ_U(nonzero, 0);
    uint32_t *w = zmem_lines(0, sizeof *w); /* count 0: one record */
    CHECK(w != NULL && *w == 0);
    zmem_free(w);
    CHECK(zmem_lines(SIZE_MAX / 2, 4) == NULL);
    CHECK(zmem_lines(SIZE_MAX, 1) == NULL);
    zmem_free(NULL);
}

const struct test_case tests_mem[] = {
    TEST(test_arena_alignment),
    TEST(test_keymap_against_array),
    TEST(test_arena_no_overlap),
    TEST(test_arena_calloc_strdup),
    TEST(test_pool_reuse_lifo),
    TEST(test_pool_growth_keeps_objects),
    TEST(test_pool_distinct_objects),
    TEST(test_zmem_lines),
    { 0 },
};
