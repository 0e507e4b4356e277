/* tests/test_alloc.c — job placement (exp/alloc).
 *
 * Each policy is checked on its definition: linear and interleaved on the
 * exact node ids they must give (NIC-less nodes skipped), random on
 * distinctness, determinism and a uniform mean, list on every error case's
 * message, pair on the distance of the drawn nodes (and alloc_node_distance
 * itself against the Cray cnames and the routers' positions), fragmented on
 * its spread and on the phantom nodes staying taken; GPCNeT's split as
 * five random jobs; and the errors of oversized and malformed requests. */
#include "test.h"

#include <stdlib.h>

#include "exp/alloc.h"
#include "topo/topo.h"

/* ---- helpers --------------------------------------------------------- */

static int build(struct topo *t, const char *name)
{
    struct diag d;
    diag_init(&d);
    int rc = topo_build_system(t, name, &d);
    CHECK(rc == 0);
    return rc;
}

static struct alloc_request job(const char *name,
                                const struct alloc_policy *pol,
                                uint32_t nodes)
{
    struct alloc_request r;
    alloc_request_init(&r);
    r.job = name;
    r.policy = pol;
    r.nodes = nodes;
    return r;
}

/* Place quietly, expecting success. */
static int place(const struct topo *t, const struct alloc_request *req,
                 uint32_t n, uint64_t seed, uint32_t **out)
{
    struct capture c;
    cap_init(&c);
    int rc = alloc_place(t, req, n, seed, out, &c.d);
    if (rc != 0)
        fprintf(stderr, "  unexpected: %s", cap_text(&c));
    cap_free(&c);
    return rc;
}

/* Place expecting failure with `errors` errors whose text contains each
 * of the NULL-terminated needles. */
static void expect_fail(const struct topo *t, const struct alloc_request *req,
                        uint32_t n, int errors, const char *const *needles)
{
    uint32_t *out[8];
    struct capture c;
    cap_init(&c);
    CHECK(n <= 8);
    CHECK(alloc_place(t, req, n, 1, out, &c.d) == -1);
    CHECK_EQ_U(c.d.errors, errors);
    const char *text = cap_text(&c);
    for (size_t i = 0; needles[i]; i++)
        CHECK_STR_CONTAINS(text, needles[i]);
    for (uint32_t j = 0; j < n; j++)
        CHECK(out[j] == NULL);
    cap_free(&c);
}

/* Number of maximal runs of consecutive node ids in a sorted copy. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static uint32_t runs(const uint32_t *nodes, uint32_t k)
{
    uint32_t *s = malloc(k * sizeof *s);
    memcpy(s, nodes, k * sizeof *s);
    qsort(s, k, sizeof *s, cmp_u32);
    uint32_t r = k ? 1 : 0;
    for (uint32_t i = 1; i < k; i++)
        if (s[i] != s[i - 1] + 1)
            r++;
    free(s);
    return r;
}

/* No node twice across out[0..n) (sizes k[]), all < t->n_nodes. */
static uint32_t duplicates(const struct topo *t, uint32_t *const *out,
                           const uint32_t *k, uint32_t n)
{
    uint8_t *seen = calloc(t->n_nodes, 1);
    uint32_t dup = 0;
    for (uint32_t j = 0; j < n; j++)
        for (uint32_t i = 0; i < k[j]; i++) {
            uint32_t v = out[j][i];
            if (v >= t->n_nodes || seen[v]++)
                dup++;
        }
    free(seen);
    return dup;
}

/* ---- names ------------------------------------------------------------ */

static void test_names(void)
{
    for (int i = 0; i < ALLOC_DISTANCE_COUNT; i++)
        CHECK(alloc_distance_find(alloc_distance_names[i]) == i);
    CHECK(alloc_distance_names[ALLOC_DISTANCE_COUNT] == NULL);
    CHECK(registry_find(&allocation_registry, "contiguous") == NULL);
    CHECK(registry_find(&allocation_registry, NULL) == NULL);
    CHECK(alloc_distance_find("same-blade") == -1);
    CHECK(registry_find(&allocation_registry, "fragmented") ==
          &alloc_fragmented.base);
    CHECK(alloc_distance_find("different-groups") == ALLOC_DIFFERENT_GROUPS);
    struct alloc_request r;
    alloc_request_init(&r);
    CHECK(r.policy == &alloc_linear && r.params == NULL && r.ppn == 1);
    const struct alloc_fragmented_params *fd = alloc_fragmented.defaults;
    CHECK(fd->busy == ALLOC_DEFAULT_BUSY && fd->max_block == 32);
    uint32_t nodes[3] = { 7, 9, 11 };
    CHECK_EQ_U(alloc_rank_node(nodes, 4, 0), 7);
    CHECK_EQ_U(alloc_rank_node(nodes, 4, 7), 9);
    CHECK_EQ_U(alloc_rank_node(nodes, 4, 8), 11);
}

/* Every registered policy is a whole part: found by its name, its keys
 * inside its block (one name each, none a job's own key), its block
 * within a job's room and with defaults, something to place with. */
static void test_policies(void)
{
    CHECK(allocation_registry.n >= 7);
    for (size_t i = 0; i < allocation_registry.n; i++) {
        const struct alloc_policy *p =
            alloc_policy_of(allocation_registry.entries[i]);
        CHECK(registry_find(&allocation_registry, p->base.name) ==
              &p->base);
        CHECK(p->base.help && *p->base.help);
        CHECK(p->place || p->place_late);
        CHECK(p->params_size <= ALLOC_PARAMS_MAX);
        CHECK((p->defaults != NULL) == (p->params_size > 0));
        for (const struct cfg_key *k = p->keys; k && k->name; k++) {
            CHECK(k->offset < p->params_size);
            CHECK(strcmp(k->name, "nodes") != 0 &&
                  strcmp(k->name, "allocation") != 0);
            for (const struct cfg_key *o = p->keys; o < k; o++)
                CHECK(strcmp(o->name, k->name) != 0);
        }
    }
    /* what the studies' code asks of them */
    CHECK(alloc_linear.impact_ok && alloc_interleaved.impact_ok &&
          alloc_random.impact_ok && !alloc_list.impact_ok &&
          !alloc_pair.impact_ok);
    CHECK(alloc_same.reuses_nodes && !alloc_list.reuses_nodes);
    CHECK(alloc_fragmented.phantom_users && !alloc_random.phantom_users);
    /* the fill's policy places as a list, under its own name, unlisted */
    CHECK(registry_find(&allocation_registry, "production") == NULL);
    CHECK(alloc_production.place == alloc_list.place &&
          alloc_production.params_size == alloc_list.params_size);
}

/* ---- linear and interleaved ------------------------------------------- */

static void test_linear(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    struct alloc_request req[2] = { job("a", &alloc_linear, 10),
                                    job("b", &alloc_linear, 5) };
    uint32_t *out[2];
    CHECK(place(&t, req, 2, 1, out) == 0);
    for (uint32_t i = 0; out[0] && i < 10; i++)
        CHECK_EQ_U(out[0][i], i);
    for (uint32_t i = 0; out[1] && i < 5; i++)
        CHECK_EQ_U(out[1][i], 10 + i);
    alloc_free(out, 2);
    CHECK(out[0] == NULL && out[1] == NULL);

    /* nodes 3 and 7 lose their NIC: skipped */
    t.nodes[3].n_nics = 0;
    t.nodes[7].n_nics = 0;
    static const uint32_t want_a[10] = { 0, 1, 2, 4, 5, 6, 8, 9, 10, 11 };
    CHECK(place(&t, req, 2, 1, out) == 0);
    for (uint32_t i = 0; out[0] && i < 10; i++)
        CHECK_EQ_U(out[0][i], want_a[i]);
    for (uint32_t i = 0; out[1] && i < 5; i++)
        CHECK_EQ_U(out[1][i], 12 + i);
    alloc_free(out, 2);
    topo_free(&t);
}

static void test_interleaved(void)
{
    struct topo t;
    if (build(&t, "crystal") != 0)
        return;
    uint32_t *out[4];
    /* two jobs alternate node by node */
    struct alloc_request two[2] = { job("victim", &alloc_interleaved, 4),
                                    job("aggressor", &alloc_interleaved, 4) };
    CHECK(place(&t, two, 2, 1, out) == 0);
    for (uint32_t i = 0; out[0] && out[1] && i < 4; i++) {
        CHECK_EQ_U(out[0][i], 2 * i);
        CHECK_EQ_U(out[1][i], 2 * i + 1);
    }
    alloc_free(out, 2);

    /* unequal sizes: the full job drops out of the rotation */
    two[0].nodes = 2;
    CHECK(place(&t, two, 2, 1, out) == 0);
    static const uint32_t wa[2] = { 0, 2 }, wb[4] = { 1, 3, 4, 5 };
    for (uint32_t i = 0; out[0] && i < 2; i++)
        CHECK_EQ_U(out[0][i], wa[i]);
    for (uint32_t i = 0; out[1] && i < 4; i++)
        CHECK_EQ_U(out[1][i], wb[i]);
    alloc_free(out, 2);

    /* one interleaved job is linear, with or without NIC-less nodes */
    struct alloc_request one[2] = { job("i", &alloc_interleaved, 50),
                                    job("l", &alloc_linear, 50) };
    uint32_t *lin[1];
    t.nodes[5].n_nics = 0;
    CHECK(place(&t, one, 1, 3, out) == 0);
    CHECK(place(&t, one + 1, 1, 3, lin) == 0);
    for (uint32_t i = 0; out[0] && lin[0] && i < 50; i++)
        CHECK_EQ_U(out[0][i], lin[0][i]);
    CHECK(out[0] && out[0][5] == 6);
    alloc_free(out, 1);
    alloc_free(lin, 1);
    t.nodes[5].n_nics = 1;

    /* mixed: the interleaved group is placed at its first member */
    struct alloc_request mix[4] = {
        job("x", &alloc_linear, 3), job("a", &alloc_interleaved, 2),
        job("y", &alloc_linear, 2), job("b", &alloc_interleaved, 2) };
    CHECK(place(&t, mix, 4, 1, out) == 0);
    static const uint32_t w[4][3] = { { 0, 1, 2 }, { 3, 5 }, { 7, 8 },
                                      { 4, 6 } };
    static const uint32_t k[4] = { 3, 2, 2, 2 };
    for (uint32_t j = 0; j < 4; j++)
        for (uint32_t i = 0; out[j] && i < k[j]; i++)
            CHECK_EQ_U(out[j][i], w[j][i]);
    alloc_free(out, 4);
    topo_free(&t);
}

/* ---- random ----------------------------------------------------------- */

static void test_random(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    struct alloc_request req[2] = { job("first", &alloc_linear, 100),
                                    job("r", &alloc_random, 500) };
    uint32_t *a[2], *b[2], *c[2];
    CHECK(place(&t, req, 2, 42, a) == 0);
    CHECK(place(&t, req, 2, 42, b) == 0);
    CHECK(place(&t, req, 2, 43, c) == 0);
    if (a[1] && b[1] && c[1]) {
        static const uint32_t k[2] = { 100, 500 };
        CHECK_EQ_U(duplicates(&t, a, k, 2), 0);
        uint32_t below = 0, same_ab = 0, same_ac = 0, sorted = 1;
        for (uint32_t i = 0; i < 500; i++) {
            below += a[1][i] < 100;
            same_ab += a[1][i] == b[1][i];
            same_ac += a[1][i] == c[1][i];
            if (i && a[1][i] < a[1][i - 1])
                sorted = 0;
        }
        CHECK_EQ_U(below, 0);   /* only free nodes */
        CHECK_EQ_U(same_ab, 500); /* deterministic */
        CHECK(same_ac < 10);    /* another seed, another draw */
        CHECK(!sorted);         /* random order, not node order */
    }
    alloc_free(a, 2);
    alloc_free(b, 2);
    alloc_free(c, 2);

    /* uniform over the free nodes 100..2303: the mean node id of 200 x 10
     * draws is 1201.5 within 4 sigma (sigma = 636 / sqrt(2000) = 14.2),
     * and so is the first rank's (sigma 636 / sqrt(200) = 45) */
    req[1].nodes = 10;
    double sum = 0, sum0 = 0;
    uint32_t low = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        uint32_t *o[2];
        if (place(&t, req, 2, seed, o) != 0)
            continue;
        for (uint32_t i = 0; i < 10; i++) {
            sum += o[1][i];
            low += o[1][i] < 1202;
        }
        sum0 += o[1][0];
        alloc_free(o, 2);
    }
    CHECK_NEAR(sum / 2000.0, 1201.5, 57.0);
    CHECK_NEAR(sum0 / 200.0, 1201.5, 180.0);
    CHECK_NEAR(low / 2000.0, 0.5, 0.05);
    topo_free(&t);
}

/* GPCNeT: five random jobs (4 congestor groups of floor((C + 3 - c) / 4),
 * C = floor(0.8 N), then N - C canaries) cover every node exactly once. */
static void test_gpcnet_split(void)
{
    struct topo t;
    if (build(&t, "crystal") != 0)
        return;
    uint32_t N = t.n_nodes, C = (uint32_t)(0.8 * N), k[5];
    struct alloc_request req[5];
    for (uint32_t c = 0; c < 4; c++) {
        k[c] = (C + 3 - c) / 4;
        req[c] = job("congestor", &alloc_random, k[c]);
    }
    k[4] = N - C;
    req[4] = job("canary", &alloc_random, k[4]);
    CHECK_EQ_U(k[0] + k[1] + k[2] + k[3], C);
    uint32_t *out[5];
    if (place(&t, req, 5, 8675309, out) == 0) {
        CHECK_EQ_U(duplicates(&t, out, k, 5), 0);
        /* the canaries are spread: not a contiguous block */
        CHECK(runs(out[4], k[4]) > 10);
        alloc_free(out, 5);
    }
    topo_free(&t);
}

/* ---- list ------------------------------------------------------------- */

static void test_list(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    static uint32_t ids[4] = { 900, 4, 17, 2000 };
    struct alloc_request req[2] = { job("pre", &alloc_linear, 4),
                                    job("l", &alloc_list, 0) };
    struct alloc_list_params lp = { .ids = ids, .n = 4 };
    req[1].params = &lp;
    uint32_t *out[2];
    CHECK(place(&t, req, 2, 1, out) == 0);
    CHECK(out[1] == NULL || memcmp(out[1], ids, sizeof ids) == 0);
    alloc_free(out, 2);

    /* errors: each names the job and the node, and all are reported */
    static uint32_t bad[6] = { 5, 2304, 9, 9, 3, 11 };
    t.nodes[11].n_nics = 0;
    lp = (struct alloc_list_params){ .ids = bad, .n = 6 };
    req[1].file = "exp.cfg";
    req[1].line = 12;
    static const char *const needles[] = {
        "exp.cfg:12: error: job \"l\": list entry 1: node 2304 is out of "
        "range (the system has nodes 0..2303)",
        "job \"l\": list entry 3: node 9 (c0-0c0s2n1) is listed more than "
        "once",
        "job \"l\": list entry 4: node 3 (c0-0c0s0n3) is already taken by "
        "job \"pre\"",
        "job \"l\": list entry 5: node 11 has no NIC",
        NULL };
    expect_fail(&t, req, 2, 4, needles);
    t.nodes[11].n_nics = 1;

    /* a count that disagrees with the list */
    lp = (struct alloc_list_params){ .ids = ids, .n = 4 };
    req[1].nodes = 3;
    static const char *const count[] = {
        "job \"l\": asks for 3 nodes but lists 4", NULL };
    expect_fail(&t, req, 2, 1, count);
    topo_free(&t);
}

/* same: a copy of another job's nodes (a prefix), followed down a chain
 * that is listed before the job it copies; the errors. */
static void test_same(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    struct alloc_request req[4] = { job("c", &alloc_same, 3),
                                    job("a", &alloc_random, 6),
                                    job("b", &alloc_same, 0),
                                    job("r", &alloc_random, 5) };
    req[0].follows = 2; /* c takes b's, b takes a's */
    req[2].follows = 1;
    uint32_t *out[4];
    CHECK(place(&t, req, 4, 9, out) == 0);
    if (out[0]) {
        CHECK(memcmp(out[2], out[1], 6 * sizeof *out[1]) == 0);
        CHECK(memcmp(out[0], out[1], 3 * sizeof *out[1]) == 0);
        /* the other random job's nodes are its own */
        for (int i = 0; i < 5; i++)
            for (int k = 0; k < 6; k++)
                CHECK(out[3][i] != out[1][k]);
    }
    alloc_free(out, 4);

    /* errors: itself, out of range, more nodes than the copied job, a
     * cycle */
    struct alloc_request bad[3] = { job("x", &alloc_linear, 2),
                                    job("y", &alloc_same, 3),
                                    job("z", &alloc_same, 0) };
    bad[1].follows = 0;
    bad[2].follows = 2;
    static const char *const n1[] = {
        "job \"z\": allocation \"same\" takes the nodes of another job; it "
        "names job 2 of 3",
        "job \"y\": asks for 3 of the nodes of job 0, which has 2", NULL };
    expect_fail(&t, bad, 3, 2, n1);
    bad[1].nodes = 0;
    bad[1].follows = 2;
    bad[2].follows = 1;
    static const char *const n2[] = {
        "job \"y\": the nodes of job 2 were never placed (a cycle", NULL };
    expect_fail(&t, bad, 3, 1, n2);
    topo_free(&t);
}

/* ---- distances and pairs ---------------------------------------------- */

/* Length of the cname prefix up to (not including) the n-th 'c'/'s'/'n'
 * component: "c1-0c2s5n3" -> cabinet "c1-0", chassis "c1-0c2",
 * blade "c1-0c2s5". */
static int same_prefix(const char *a, const char *b, char stop)
{
    size_t la = strcspn(a + 1, (char[]){ stop, 0 }) + 1;
    size_t lb = strcspn(b + 1, (char[]){ stop, 0 }) + 1;
    return la == lb && strncmp(a, b, la) == 0;
}

/* alloc_node_distance against independent ground truth. */
static void test_node_distance(void)
{
    struct topo t;
    char na[64], nb[64];
    /* Aries: cname blade, chassis; group from the router */
    if (build(&t, "xc-12cab") == 0) {
        uint32_t count[ALLOC_DISTANCE_COUNT] = { 0 };
        for (uint32_t a = 0; a < t.n_nodes; a += 37)
            for (uint32_t b = 0; b < t.n_nodes; b += 5) {
                topo_node_name(&t, a, na, sizeof na);
                topo_node_name(&t, b, nb, sizeof nb);
                uint32_t ga = t.routers[t.nics[a].router].group;
                uint32_t gb = t.routers[t.nics[b].router].group;
                enum alloc_distance want =
                    same_prefix(na, nb, 'n') ? ALLOC_SAME_ROUTER
                    : same_prefix(na, nb, 's') ? ALLOC_SAME_CHASSIS
                    : ga == gb ? ALLOC_SAME_GROUP
                               : ALLOC_DIFFERENT_GROUPS;
                enum alloc_distance got = alloc_node_distance(&t, a, b);
                CHECK_EQ_U(got, want);
                count[got]++;
            }
        for (int i = 0; i < ALLOC_DISTANCE_COUNT; i++)
            CHECK(count[i] > 0);
        CHECK_EQ_U(alloc_node_distance(&t, 0, 3), ALLOC_SAME_ROUTER);
        CHECK_EQ_U(alloc_node_distance(&t, 0, 4), ALLOC_SAME_CHASSIS);
        CHECK_EQ_U(alloc_node_distance(&t, 0, 64), ALLOC_SAME_GROUP);
        CHECK_EQ_U(alloc_node_distance(&t, 0, 384), ALLOC_DIFFERENT_GROUPS);
        topo_free(&t);
    }
    /* Gemini torus: chassis and cabinet from the cname */
    if (build(&t, "cielo") == 0) {
        uint32_t count[ALLOC_DISTANCE_COUNT] = { 0 };
        for (uint32_t a = 0; a < t.n_nodes; a += 97)
            for (uint32_t b = 0; b < t.n_nodes; b += 3) {
                topo_node_name(&t, a, na, sizeof na);
                topo_node_name(&t, b, nb, sizeof nb);
                enum alloc_distance want =
                    t.nics[a].router == t.nics[b].router ? ALLOC_SAME_ROUTER
                    : same_prefix(na, nb, 's') ? ALLOC_SAME_CHASSIS
                    : same_prefix(na, nb, 'c') ? ALLOC_SAME_GROUP
                                               : ALLOC_DIFFERENT_GROUPS;
                enum alloc_distance got = alloc_node_distance(&t, a, b);
                CHECK_EQ_U(got, want);
                count[got]++;
            }
        for (int i = 0; i < ALLOC_DISTANCE_COUNT; i++)
            CHECK(count[i] > 0);
        CHECK(alloc_distance_exists(&t, ALLOC_SAME_CHASSIS));
        topo_free(&t);
    }
    /* Slingshot: switch, group; no chassis level */
    if (build(&t, "malbec") == 0) {
        uint32_t bad = 0, chassis = 0;
        for (uint32_t a = 0; a < t.n_nodes; a += 7)
            for (uint32_t b = 0; b < t.n_nodes; b++) {
                uint32_t ra = t.nics[t.nodes[a].nic[0]].router;
                uint32_t rb = t.nics[t.nodes[b].nic[0]].router;
                enum alloc_distance want =
                    ra == rb ? ALLOC_SAME_ROUTER
                    : t.routers[ra].group == t.routers[rb].group
                        ? ALLOC_SAME_GROUP
                        : ALLOC_DIFFERENT_GROUPS;
                enum alloc_distance got = alloc_node_distance(&t, a, b);
                bad += got != want;
                chassis += got == ALLOC_SAME_CHASSIS;
            }
        CHECK_EQ_U(bad, 0);
        CHECK_EQ_U(chassis, 0);
        CHECK(!alloc_distance_exists(&t, ALLOC_SAME_CHASSIS));
        CHECK(alloc_distance_exists(&t, ALLOC_SAME_GROUP));
        topo_free(&t);
    }
}

/* For each distance, 20 seeds: the pair is at that distance, two free
 * nodes, and the seeds do not all give one pair. */
static void check_pairs(const char *system, int skip_chassis)
{
    struct topo t;
    if (build(&t, system) != 0)
        return;
    for (int dist = 0; dist < ALLOC_DISTANCE_COUNT; dist++) {
        if (skip_chassis && dist == ALLOC_SAME_CHASSIS)
            continue;
        struct alloc_request req[2] = { job("pre", &alloc_linear, 10),
                                        job("pp", &alloc_pair, 0) };
        struct alloc_pair_params pp = { .distance = (uint8_t)dist };
        req[1].params = &pp;
        uint32_t first[2] = { 0, 0 }, differ = 0, bad = 0;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            uint32_t *out[2];
            if (place(&t, req, 2, seed, out) != 0) {
                bad++;
                continue;
            }
            uint32_t a = out[1][0], b = out[1][1];
            if (a == b || a < 10 || b < 10 ||
                alloc_node_distance(&t, a, b) != (enum alloc_distance)dist)
                bad++;
            if (seed == 1) {
                first[0] = a;
                first[1] = b;
            } else if (a != first[0] || b != first[1]) {
                differ++;
            }
            alloc_free(out, 2);
        }
        CHECK_EQ_U(bad, 0);
        CHECK(differ >= 15);
    }
    topo_free(&t);
}

static void test_pair_distances(void)
{
    check_pairs("xc-12cab", 0);
    check_pairs("crystal", 0);
    check_pairs("cielo", 0);
    check_pairs("malbec", 1);
    check_pairs("df1056", 1);
}

/* Only free pairs count; every qualifying ordered pair is drawn about
 * equally often. */
static void test_pair_uniform_among_free(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    /* leave nodes 0..7 free (routers 0 and 1 of chassis 0), take the rest */
    uint32_t n = t.n_nodes;
    uint32_t *rest = malloc((n - 8) * sizeof *rest);
    for (uint32_t i = 8; i < n; i++)
        rest[i - 8] = i;
    struct alloc_request req[2] = { job("rest", &alloc_list, 0),
                                    job("pp", &alloc_pair, 2) };
    struct alloc_list_params lp = { .ids = rest, .n = n - 8 };
    req[0].params = &lp;
    struct alloc_pair_params pp = { .distance = ALLOC_SAME_ROUTER };
    req[1].params = &pp;
    /* same-router: 2 routers x 4 x 3 = 24 ordered pairs */
    uint32_t hits[8][8] = { { 0 } }, bad = 0;
    for (uint64_t seed = 0; seed < 960; seed++) {
        uint32_t *out[2];
        if (place(&t, req, 2, seed, out) != 0) {
            bad++;
            continue;
        }
        uint32_t a = out[1][0], b = out[1][1];
        if (a >= 8 || b >= 8 || a / 4 != b / 4 || a == b)
            bad++;
        else
            hits[a][b]++;
        alloc_free(out, 2);
    }
    CHECK_EQ_U(bad, 0);
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t a = 0; a < 8; a++)
        for (uint32_t b = 0; b < 8; b++)
            if (a / 4 == b / 4 && a != b) {
                lo = hits[a][b] < lo ? hits[a][b] : lo;
                hi = hits[a][b] > hi ? hits[a][b] : hi;
            }
    CHECK(lo >= 15 && hi <= 70); /* expected 40 each */
    /* same-chassis: 4 x 4 x 2 = 32 ordered pairs, all across routers */
    pp.distance = ALLOC_SAME_CHASSIS;
    for (uint64_t seed = 0; seed < 50; seed++) {
        uint32_t *out[2];
        if (place(&t, req, 2, seed, out) != 0)
            continue;
        CHECK(out[1][0] < 8 && out[1][1] < 8 &&
              out[1][0] / 4 != out[1][1] / 4);
        alloc_free(out, 2);
    }
    /* same-group and different-groups: none free */
    pp.distance = ALLOC_SAME_GROUP;
    static const char *const none[] = {
        "job \"pp\": no two free nodes are at distance same-group (8 of "
        "the 2304 nodes are free)", NULL };
    expect_fail(&t, req, 2, 1, none);
    pp.distance = ALLOC_DIFFERENT_GROUPS;
    static const char *const nonediff[] = {
        "job \"pp\": no two free nodes are at distance different-groups",
        NULL };
    expect_fail(&t, req, 2, 1, nonediff);
    free(rest);
    topo_free(&t);
}

static void test_pair_impossible(void)
{
    struct topo t;
    struct alloc_request req = job("pp", &alloc_pair, 2);
    struct alloc_pair_params pp = { .distance = ALLOC_SAME_ROUTER };
    req.params = &pp;
    if (build(&t, "voltrino") == 0) { /* one group, one chassis */
        pp.distance = ALLOC_DIFFERENT_GROUPS;
        static const char *const n1[] = {
            "job \"pp\": no two free nodes are at distance different-groups "
            "(64 of the 64 nodes are free) (the system has 1 group(s))",
            NULL };
        expect_fail(&t, &req, 1, 1, n1);
        pp.distance = ALLOC_SAME_GROUP;
        static const char *const n2[] = {
            "distance same-group (64 of the 64 nodes are free) (same-group: "
            "one group, different chassis; the system has 1 chassis in 1 "
            "group(s): try same-chassis)", NULL };
        expect_fail(&t, &req, 1, 1, n2);
        topo_free(&t);
    }
    if (build(&t, "malbec") == 0) {
        pp.distance = ALLOC_SAME_CHASSIS;
        static const char *const n3[] = {
            "job \"pp\": pair at distance same-chassis: a slingshot system "
            "has no chassis level", NULL };
        expect_fail(&t, &req, 1, 1, n3);
        topo_free(&t);
    }
    if (build(&t, "xc-12cab") == 0) {
        req.nodes = 3;
        static const char *const n4[] = {
            "job \"pp\": pair allocation places 2 nodes, not 3", NULL };
        expect_fail(&t, &req, 1, 1, n4);
        topo_free(&t);
    }
}

/* ---- fragmented -------------------------------------------------------- */

static void test_fragmented(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    uint32_t N = t.n_nodes; /* 2304 */
    struct alloc_request req[3] = { job("pre", &alloc_linear, 4),
                                    job("f", &alloc_fragmented, 200),
                                    job("after", &alloc_linear, 0) };
    struct alloc_fragmented_params fp = { .busy = ALLOC_DEFAULT_BUSY,
                                          .max_block = 32 };
    req[1].params = &fp;
    /* after "pre" 2300 free; phantoms take 1150; f 200; 950 left */
    uint32_t left = N - 4 - 1150 - 200;
    req[2].nodes = left;
    uint32_t *a[3], *b[3], *c[3];
    /* seed 1: the seed expect_fail places with, for the probe below */
    CHECK(place(&t, req, 3, 1, a) == 0);
    CHECK(place(&t, req, 3, 1, b) == 0);
    CHECK(place(&t, req, 3, 2, c) == 0);
    if (a[1] && b[1] && c[1]) {
        static const uint32_t k[3] = { 4, 200, 950 };
        CHECK_EQ_U(left, 950);
        CHECK_EQ_U(duplicates(&t, a, k, 3), 0);
        CHECK(memcmp(a[1], b[1], 200 * sizeof(uint32_t)) == 0);
        CHECK(memcmp(a[1], c[1], 200 * sizeof(uint32_t)) != 0);
        /* spread over fragments: several runs (6-17 over seeds 0-19), not
         * linear's one */
        uint32_t r = runs(a[1], 200);
        CHECK(r > 4);
        CHECK(runs(a[2], 950) > 10);
        /* first fit: in node order, and spanning much more than 200 */
        uint32_t inorder = 1;
        for (uint32_t i = 1; i < 200; i++)
            inorder &= a[1][i] > a[1][i - 1];
        CHECK(inorder);
        CHECK(a[1][0] >= 4);
        CHECK(a[1][199] - a[1][0] > 280);
        /* every gap below the job's last node is a phantom: a list job
         * asking for one is told it belongs to other users */
        uint32_t gap = a[1][0] + 1;
        for (uint32_t i = 1; i < 200 && a[1][i] == gap; i++)
            gap++;
        CHECK(gap < a[1][199]);
        struct alloc_request lst[3] = { req[0], req[1],
                                        job("probe", &alloc_list, 0) };
        struct alloc_list_params gl = { .ids = &gap, .n = 1 };
        lst[2].params = &gl;
        static const char *const taken[] = {
            "job \"probe\": list entry 0: node",
            "is already taken by the other users of fragmented job \"f\"",
            NULL };
        expect_fail(&t, lst, 3, 1, taken);
    }
    alloc_free(a, 3);
    alloc_free(b, 3);
    alloc_free(c, 3);

    /* the phantoms stay taken: one node more than is left fails */
    req[2].nodes = left + 1;
    static const char *const more[] = {
        "job \"after\": linear allocation asks for 951 nodes, only 950 of "
        "the 2304 nodes are free", NULL };
    expect_fail(&t, req, 3, 1, more);

    /* max_block 1 scatters single nodes: more runs than with blocks of 64 */
    req[2].nodes = 1;
    fp.max_block = 1;
    uint32_t *s[3], *l[3];
    CHECK(place(&t, req, 3, 7, s) == 0);
    fp.max_block = 64;
    CHECK(place(&t, req, 3, 7, l) == 0);
    if (s[1] && l[1])
        CHECK(runs(s[1], 200) > runs(l[1], 200));
    alloc_free(s, 3);
    alloc_free(l, 3);

    /* busy 0: first fit on an idle machine is linear */
    fp.busy = 0.0;
    CHECK(place(&t, req, 2, 7, s) == 0);
    if (s[1])
        CHECK(runs(s[1], 200) == 1 && s[1][0] == 4);
    alloc_free(s, 2);

    /* too big once the others are there */
    fp.busy = 0.5;
    req[1].nodes = 1200;
    static const char *const big[] = {
        "job \"f\": fragmented allocation asks for 1200 nodes, only 1150 are "
        "free once other users hold busy = 0.5 of the 2300 free nodes (1150)",
        NULL };
    expect_fail(&t, req, 2, 1, big);
    fp.busy = 1.0;
    static const char *const busy1[] = {
        "job \"f\": fragmented allocation: busy 1 is not in [0, 1)", NULL };
    expect_fail(&t, req, 2, 1, busy1);
    topo_free(&t);
}

/* ---- oversized and malformed requests ---------------------------------- */

static void test_too_many(void)
{
    struct topo t;
    if (build(&t, "xc-12cab") != 0)
        return;
    struct alloc_request one = job("huge", &alloc_linear, 2305);
    static const char *const lin[] = {
        "job \"huge\": linear allocation asks for 2305 nodes, only 2304 of "
        "the 2304 nodes are free", NULL };
    expect_fail(&t, &one, 1, 1, lin);

    struct alloc_request req[3] = { job("a", &alloc_linear, 2000),
                                    job("b", &alloc_random, 305),
                                    job("c", &alloc_linear, 4) };
    static const char *const rnd[] = {
        "job \"b\": random allocation asks for 305 nodes, only 304 of the "
        "2304 nodes are free", NULL };
    /* b fails and takes nothing, so c still fits: one error */
    expect_fail(&t, req, 3, 1, rnd);

    struct alloc_request il[2] = { job("v", &alloc_interleaved, 1200),
                                   job("g", &alloc_interleaved, 1200) };
    static const char *const two[] = {
        "job \"v\": the 2 interleaved jobs (\"v\" 1200, \"g\" 1200) ask for "
        "2400 nodes together, only 2304 of the 2304 nodes are free", NULL };
    expect_fail(&t, il, 2, 1, two);
    topo_free(&t);
}

static void test_bad_requests(void)
{
    struct topo t;
    if (build(&t, "crystal") != 0)
        return;
    struct alloc_request req[3] = { job("zero", &alloc_random, 0),
                                    job(NULL, &alloc_list, 0),
                                    job("ok", &alloc_linear, 1) };
    req[0].file = "e.cfg";
    req[0].line = 3;
    static const char *const n[] = {
        "e.cfg:3: error: job \"zero\": random allocation asks for no nodes",
        "error: job #1: list allocation with an empty node list", NULL };
    expect_fail(&t, req, 3, 2, n);
    req[0].policy = NULL;
    static const char *const pol[] = {
        "job \"zero\": no allocation policy", NULL };
    req[1] = job("ok2", &alloc_linear, 1);
    expect_fail(&t, req, 3, 1, pol);
    topo_free(&t);
}

const struct test_case tests_alloc[] = {
    TEST(test_names),
    TEST(test_policies),
    TEST(test_linear),
    TEST(test_interleaved),
    TEST(test_random),
    TEST(test_gpcnet_split),
    TEST(test_list),
    TEST(test_same),
    TEST(test_node_distance),
    TEST(test_pair_distances),
    TEST(test_pair_uniform_among_free),
    TEST(test_pair_impossible),
    TEST(test_fragmented),
    TEST(test_too_many),
    TEST(test_bad_requests),
    { 0 },
};
