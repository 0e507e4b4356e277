/* tests/test_gpcnet.c — GPCNeT's kernels on the simulated network: every
 * kernel runs to its end with the messages its source sends; random rings
 * are rings, deterministic and reshuffled; the statistics and the impact
 * factor on hand-computed values; and the SC'20 Slingshot paper's Fig. 9
 * observation on Aries: an incast congestor slows a latency canary down
 * many times, an all-to-all congestor much less. */
#include "test.h"
#include "mpi_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/gpcnet.h"
#include "core/diag.h"
#include "core/sim.h"
#include "exp/alloc.h"
#include "mpi/mpi.h"
#include "net/net.h"
#include "topo/topo.h"

static void test_names_and_defaults(void)
{
    for (int k = 0; k < GPCNET_KERNEL_COUNT; k++)
        CHECK_EQ_U(gpcnet_kernel_find(gpcnet_kernel_names[k]), k);
    CHECK(gpcnet_kernel_names[GPCNET_KERNEL_COUNT] == NULL);
    CHECK(gpcnet_kernel_find("incast") == -1);
    CHECK_EQ_U(gpcnet_kernel_find("rr-latency"), GPCNET_RR_LATENCY);
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_P2P_INCAST);
    CHECK_EQ_U(p.bytes, 4096);
    CHECK_EQ_U(p.iterations, GPCNET_FOREVER);
    CHECK(gpcnet_is_congestor(GPCNET_RMA_BCAST));
    CHECK(!gpcnet_is_congestor(GPCNET_RR_LATENCY));
    gpcnet_defaults(&p, GPCNET_RR_BW_SYNC);
    CHECK_EQ_U(p.bytes, 131072);
    CHECK_EQ_U(p.outstanding, 8);
    CHECK_EQ_U(p.iters_per_ring, 8);
    CHECK(!gpcnet_is_latency(GPCNET_RR_BW_SYNC));
    gpcnet_defaults(&p, GPCNET_RR_LATENCY);
    CHECK_EQ_U(p.bytes, 8);
    CHECK(gpcnet_is_latency(GPCNET_RR_LATENCY));
    CHECK(gpcnet_is_latency(GPCNET_ALLREDUCE));
    /* refusals */
    struct gpcnet g;
    char err[128];
    CHECK(gpcnet_init(&g, &p, 1, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "2 ranks");
    p.iters_per_ring = 0;
    CHECK(gpcnet_init(&g, &p, 8, err, sizeof err) == -1);
    gpcnet_defaults(&p, GPCNET_A2A);
    p.bytes = 0;
    CHECK(gpcnet_init(&g, &p, 8, err, sizeof err) == -1);
}

/* Run kernel k with `iters` iterations on n ranks (one per node, spread
 * over xc-12cab's routers) in the foreground; checks it finishes and
 * returns its message count (or UINT64_MAX). */
static uint64_t run_kernel(enum gpcnet_kernel k, uint32_t n, uint32_t iters,
                           uint32_t *n_iter)
{
    struct mpi_h h;
    uint64_t msgs = UINT64_MAX;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return msgs;
    }
    uint32_t nodes[32];
    for (uint32_t i = 0; i < n && i < 32; i++)
        nodes[i] = mpi_h_node_on(&h.t, 5 * i + 1); /* several groups */
    struct gpcnet_params p;
    gpcnet_defaults(&p, k);
    p.iterations = iters;
    p.iters_per_ring = 2;
    p.seed = 42;
    struct gpcnet g;
    char err[128];
    CHECK(gpcnet_init(&g, &p, n, err, sizeof err) == 0);
    struct dmpi_job_spec js = { .name = gpcnet_kernel_names[k],
                                .nodes = nodes, .n_nodes = n, .ppn = 1,
                                .app = gpcnet_app(&g) };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK(r->finished);
        CHECK(r->end > r->start);
        for (uint32_t i = 0; i < n; i++)
            CHECK(r->rank_end[i] != SIMTIME_MAX);
        msgs = r->msgs;
        *n_iter = r->n_iter;
        /* everything given back once the network drains */
        sim_run(&h.s, SIMTIME_MAX);
        uint32_t xfers, reqs;
        dmpi_in_use(&h.m, &xfers, &reqs);
        CHECK_EQ_U(xfers, 0);
        CHECK_EQ_U(reqs, 0);
        fprintf(stderr, "  %-10s %2u ranks x %u iterations: %5llu msgs, "
                "%8.1f us\n", gpcnet_kernel_names[k], n, iters,
                (unsigned long long)msgs,
                (double)(r->end - r->start) / SIMTIME_US);
    }
    gpcnet_free(&g);
    mpi_h_teardown(&h);
    return msgs;
}

static void test_kernels_run(void)
{
    uint32_t it = 0;
    /* a2a: n - 1 Sendrecvs per rank and iteration (XOR and shifted) */
    CHECK_EQ_U(run_kernel(GPCNET_A2A, 8, 3, &it), 3 * 8 * 7);
    CHECK_EQ_U(it, 3);
    CHECK_EQ_U(run_kernel(GPCNET_A2A, 12, 2, &it), 2 * 12 * 11);
    CHECK_EQ_U(it, 2);
    /* p2p incast: one message from every rank but the root */
    CHECK_EQ_U(run_kernel(GPCNET_P2P_INCAST, 12, 4, &it), 4 * 11);
    CHECK_EQ_U(it, 4);
    /* RMA: one PUT (GET) per rank but the target and iteration; the
     * passive target marks nothing and takes no part in the iterations */
    CHECK_EQ_U(run_kernel(GPCNET_RMA_INCAST, 12, 4, &it), 4 * 11);
    CHECK_EQ_U(it, 4);
    CHECK_EQ_U(run_kernel(GPCNET_RMA_BCAST, 12, 4, &it), 4 * 11);
    CHECK_EQ_U(it, 4);
    /* rings: 2 sends per rank and iteration */
    CHECK_EQ_U(run_kernel(GPCNET_RR_LATENCY, 12, 6, &it), 6 * 12 * 2);
    CHECK_EQ_U(it, 6);
    /* BW+Sync: 2 x 8 sends, then a dissemination barrier (3 rounds at 8) */
    CHECK_EQ_U(run_kernel(GPCNET_RR_BW_SYNC, 8, 2, &it), 2 * 8 * (16 + 3));
    CHECK_EQ_U(it, 2);
    /* 8 B allreduce: recursive doubling, log2(16) = 4 rounds */
    CHECK_EQ_U(run_kernel(GPCNET_ALLREDUCE, 16, 5, &it), 5 * 16 * 4);
    CHECK_EQ_U(it, 5);
}

/* xc-12cab with 12 nodes spread over its routers (several groups) in
 * nodes[]; 0, or -1 (a failed check, h torn down). */
static int setup_12(struct mpi_h *h, uint32_t nodes[12])
{
    if (mpi_h_setup(h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(h);
        return -1;
    }
    for (uint32_t i = 0; i < 12; i++)
        nodes[i] = mpi_h_node_on(&h->t, 5 * i + 1);
    return 0;
}

/* GPCNeT's congestor set (gpcnet_set): the job's ranks dealt to the four
 * congestors in GPCNeT's proportions, a pure function of the seed; every
 * call stays among its kernel's ranks; run on the network, it sends what
 * the four kernels send on their own. */
static void test_congestor_set(void)
{
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_A2A);
    p.iterations = 3;
    p.seed = 7;
    struct gpcnet_set s, s2;
    char err[160];
    CHECK(gpcnet_set_init(&s, &p, 7, 1, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "8 nodes");
    CHECK(gpcnet_set_init(&s, &p, 16, 2, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "ppn");
    if (gpcnet_set_init(&s, &p, 10, 1, err, sizeof err) != 0) {
        CHECK(!"set init");
        return;
    }
    uint32_t seen[10] = { 0 };
    for (uint32_t c = 0; c < GPCNET_SET_KERNELS; c++) {
        CHECK_EQ_U(s.k[c].nranks, (10 + 3 - c) / 4); /* 3, 3, 2, 2 */
        CHECK_EQ_U(s.k[c].p.kernel, c);
        for (uint32_t i = 0; i < s.k[c].nranks; i++) {
            uint32_t r = s.member[s.first[c] + i];
            CHECK_EQ_U(s.color[r], c);
            CHECK_EQ_U(s.sub[r], i);
            seen[r]++;
        }
    }
    for (uint32_t r = 0; r < 10; r++)
        CHECK_EQ_U(seen[r], 1);
    /* every peer a rank of the caller's own kernel */
    struct dmpi_app app = gpcnet_set_app(&s);
    uint32_t peers = 0;
    for (uint32_t r = 0; r < 10; r++) {
        struct dmpi_op ops[64];
        uint32_t k;
        while ((k = app.next(app.ctx, r, ops, 64)) > 0)
            for (uint32_t i = 0; i < k; i++)
                if (ops[i].code == DMPI_SEND || ops[i].code == DMPI_ISEND ||
                    ops[i].code == DMPI_IRECV || ops[i].code == DMPI_PUT ||
                    ops[i].code == DMPI_GET) {
                    CHECK(ops[i].peer < 10 && ops[i].peer != r);
                    CHECK_EQ_U(s.color[ops[i].peer], s.color[r]);
                    peers++;
                }
    }
    /* a2a 3 ranks x 2 peers x (send + recv), incasts 2 senders, root 2
     * receives, RMA 1 sender: x 3 iterations */
    CHECK_EQ_U(peers, 3 * (3 * 2 * 2 + 2 * 2 + 1 + 1));
    /* the split is the seed's */
    p.seed = 8;
    if (gpcnet_set_init(&s2, &p, 10, 1, err, sizeof err) == 0) {
        CHECK(memcmp(s.color, s2.color, 10) != 0);
        gpcnet_set_free(&s2);
    }
    p.seed = 7;
    if (gpcnet_set_init(&s2, &p, 10, 1, err, sizeof err) == 0) {
        CHECK(memcmp(s.color, s2.color, 10) == 0);
        gpcnet_set_free(&s2);
    }
    gpcnet_set_free(&s);

    /* on the network: 12 ranks, 3 per kernel, 2 iterations */
    struct mpi_h h;
    uint32_t nodes[12];
    if (setup_12(&h, nodes) != 0)
        return;
    p.iterations = 2;
    if (gpcnet_set_init(&s, &p, 12, 1, err, sizeof err) != 0) {
        CHECK(!"set init");
        mpi_h_teardown(&h);
        return;
    }
    struct dmpi_job_spec js = { .name = "congestors", .nodes = nodes,
                                .n_nodes = 12, .ppn = 1,
                                .app = gpcnet_set_app(&s) };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK(r->finished);
        /* a2a 3 x 2, p2p incast 2, rma incast 2, rma bcast 2: per
         * iteration, as the kernels alone (test_kernels_run) */
        CHECK_EQ_U(r->msgs, 2 * (3 * 2 + 2 + 2 + 2));
        CHECK_EQ_U(r->n_iter, 2);
    }
    gpcnet_set_free(&s);
    mpi_h_teardown(&h);
}

/* The one-sided congestors do move data: an RMA incast of 11 PUTs of
 * 128 KiB into one node takes at least 11 x 128 KiB at the node's
 * ejection rate (< 12 GB/s). */
static void test_rma_traffic(void)
{
    struct mpi_h h;
    uint32_t nodes[12];
    if (setup_12(&h, nodes) != 0)
        return;
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_RMA_INCAST);
    p.bytes = 131072;
    p.iterations = 2;
    struct gpcnet g;
    char err[128];
    CHECK(gpcnet_init(&g, &p, 12, err, sizeof err) == 0);
    struct dmpi_job_spec js = { .name = "put-incast", .nodes = nodes,
                                .n_nodes = 12, .ppn = 1,
                                .app = gpcnet_app(&g) };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        double us = (double)(r->end - r->start) / SIMTIME_US;
        double floor_us = 2 * 11 * 131072 / 12e3; /* bytes / (B/us) */
        fprintf(stderr, "  rma-incast 2 x 11 x 128 KiB: %.1f us (>= %.1f)\n",
                us, floor_us);
        CHECK(us >= floor_us);
        CHECK_EQ_U(r->rank_end[0], r->start); /* the passive target */
    }
    gpcnet_free(&g);
    mpi_h_teardown(&h);
}

/* Rings: permutations, no rank its own neighbour, consistent (my left's
 * right is me), deterministic per (seed, instance), different per ring. */
static void test_rings(void)
{
    uint32_t a[64], b[64];
    for (uint32_t n = 2; n <= 64; n += 7) {
        for (uint32_t k = 0; k < 5; k++) {
            gpcnet_ring(7, 3, k, n, a);
            uint64_t seen = 0;
            for (uint32_t i = 0; i < n; i++) {
                CHECK(a[i] < n);
                seen |= UINT64_C(1) << a[i];
            }
            CHECK_EQ_U(seen, n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1);
            gpcnet_ring(7, 3, k, n, b);
            CHECK(memcmp(a, b, n * sizeof *a) == 0);
        }
    }
    gpcnet_ring(7, 3, 0, 32, a);
    gpcnet_ring(8, 3, 0, 32, b);
    CHECK(memcmp(a, b, sizeof(uint32_t) * 32) != 0);
    gpcnet_ring(7, 4, 0, 32, b);
    CHECK(memcmp(a, b, sizeof(uint32_t) * 32) != 0);
    gpcnet_ring(7, 3, 1, 32, b);
    CHECK(memcmp(a, b, sizeof(uint32_t) * 32) != 0);

    /* through the program: neighbours fixed within a ring of 3
     * iterations, consistent across ranks, reshuffled between rings */
    enum { N = 24, ITERS = 9, IPR = 3 };
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_RR_LATENCY);
    p.iterations = ITERS;
    p.iters_per_ring = IPR;
    p.seed = 11;
    struct gpcnet g;
    char err[128];
    CHECK(gpcnet_init(&g, &p, N, err, sizeof err) == 0);
    struct dmpi_app app = gpcnet_app(&g);
    static uint32_t lft[ITERS][N], rgt[ITERS][N];
    struct dmpi_op ops[64];
    for (uint32_t r = 0; r < N; r++) {
        for (uint32_t it = 0; it < ITERS; it++) {
            uint32_t k = app.next(app.ctx, r, ops, 64);
            CHECK_EQ_U(k, 6);
            CHECK_EQ_U(ops[0].code, DMPI_IRECV);
            CHECK_EQ_U(ops[0].tag, GPCNET_TAG_LEFT);
            CHECK_EQ_U(ops[1].tag, GPCNET_TAG_RIGHT);
            CHECK_EQ_U(ops[2].code, DMPI_ISEND);
            CHECK_EQ_U(ops[2].peer, ops[0].peer); /* to the left, tag 82 */
            CHECK_EQ_U(ops[2].tag, GPCNET_TAG_RIGHT);
            CHECK_EQ_U(ops[3].peer, ops[1].peer);
            CHECK_EQ_U(ops[3].tag, GPCNET_TAG_LEFT);
            CHECK_EQ_U(ops[4].code, DMPI_WAITALL);
            CHECK_EQ_U(ops[5].code, DMPI_MARK);
            CHECK_EQ_U(ops[5].arg, it);
            lft[it][r] = ops[0].peer;
            rgt[it][r] = ops[1].peer;
            CHECK(lft[it][r] != r && rgt[it][r] != r);
            CHECK(lft[it][r] < N && rgt[it][r] < N);
        }
        CHECK_EQ_U(app.next(app.ctx, r, ops, 64), 0); /* finished */
    }
    uint32_t changed = 0;
    for (uint32_t it = 0; it < ITERS; it++) {
        for (uint32_t r = 0; r < N; r++) {
            CHECK_EQ_U(rgt[it][lft[it][r]], r);
            if (it % IPR != 0) {
                CHECK_EQ_U(lft[it][r], lft[it - 1][r]);
                CHECK_EQ_U(rgt[it][r], rgt[it - 1][r]);
            } else if (it > 0 && lft[it][r] != lft[it - 1][r]) {
                changed++;
            }
        }
        /* one ring through all N: follow the right neighbours */
        uint32_t x = 0, len = 0;
        do {
            x = rgt[it][x];
            len++;
        } while (x != 0 && len <= N);
        CHECK_EQ_U(len, N);
    }
    CHECK(changed > N); /* most ranks get new neighbours at each of 2 */
    gpcnet_free(&g);

    /* two ranks: each is the other's left and right */
    CHECK(gpcnet_init(&g, &p, 2, err, sizeof err) == 0);
    uint32_t l, r;
    gpcnet_neighbours(&g, 5, 0, &l, &r);
    CHECK_EQ_U(l, 1);
    CHECK_EQ_U(r, 1);
    gpcnet_free(&g);
}

/* The batches: a rank's iteration split over small batches is the same
 * sequence (the layer offers 64; any cap >= 1 works). */
static void test_small_batches(void)
{
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_RR_BW_SYNC);
    p.iterations = 2;
    struct gpcnet g1, g2;
    char err[128];
    CHECK(gpcnet_init(&g1, &p, 8, err, sizeof err) == 0);
    CHECK(gpcnet_init(&g2, &p, 8, err, sizeof err) == 0);
    struct dmpi_app a1 = gpcnet_app(&g1), a2 = gpcnet_app(&g2);
    struct dmpi_op big[64], small[3], seq[128];
    uint32_t n1 = 0, n2 = 0, k;
    while ((k = a1.next(a1.ctx, 3, big, 64)) > 0 && n1 + k <= 128) {
        memcpy(seq + n1, big, k * sizeof *big);
        n1 += k;
    }
    CHECK_EQ_U(n1, 2 * 35); /* 16 Irecv, 16 Isend, Waitall, Barrier, Mark */
    while ((k = a2.next(a2.ctx, 3, small, 3)) > 0 && n2 + k <= n1) {
        CHECK(memcmp(small, seq + n2, k * sizeof *small) == 0);
        n2 += k;
    }
    CHECK_EQ_U(n2, n1);
    CHECK_EQ_U(seq[32].code, DMPI_WAITALL);
    CHECK_EQ_U(seq[33].code, DMPI_BARRIER);
    CHECK_EQ_U(seq[34].code, DMPI_MARK);
    gpcnet_free(&g1);
    gpcnet_free(&g2);

    /* the incast root's Irecvs in batches of 2 */
    gpcnet_defaults(&p, GPCNET_P2P_INCAST);
    p.iterations = 1;
    CHECK(gpcnet_init(&g1, &p, 40, err, sizeof err) == 0);
    a1 = gpcnet_app(&g1);
    uint32_t recvs = 0, waits = 0, marks = 0;
    while ((k = a1.next(a1.ctx, 0, small, 2)) > 0)
        for (uint32_t i = 0; i < k; i++) {
            recvs += small[i].code == DMPI_IRECV &&
                     small[i].peer == recvs + 1;
            waits += small[i].code == DMPI_WAITALL;
            marks += small[i].code == DMPI_MARK;
        }
    CHECK_EQ_U(recvs, 39);
    CHECK_EQ_U(waits, 1);
    CHECK_EQ_U(marks, 1);
    gpcnet_free(&g1);
}

/* Statistics on hand-computed arrays. */
static void test_statistics(void)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = 100 - i; /* 100 .. 1, order does not matter */
    struct gpcnet_stats s;
    /* latency: the 99th smallest of 1..100 is 99; GPCNeT reads the upper
     * edge of its bucket: 1 + (floor(98 / dres) + 1) dres, dres =
     * 99 / 99999 */
    gpcnet_stats_of(v, 100, true, &s);
    CHECK_NEAR(s.avg, 50.5, 1e-12);
    CHECK_EQ_U(s.n, 100);
    double dres = 99.0 / 99999.0;
    CHECK_NEAR(s.p99, 1 + (floor(98 / dres) + 1) * dres, 1e-9);
    CHECK_NEAR(s.p99, 99.0, 1e-3);
    /* bandwidth: 99 values from the top reach 2; the bucket's lower edge */
    gpcnet_stats_of(v, 100, false, &s);
    CHECK_NEAR(s.p99, 1 + floor(1 / dres) * dres, 1e-9);
    CHECK_NEAR(s.p99, 2.0, 1e-3);
    /* one outlier among 200 (100 x 2.0, 99 x 3.0, 50.0): above the 99th
     * percentile (cnt_99 = 198) */
    double w[200];
    for (int i = 0; i < 200; i++)
        w[i] = i == 17 ? 50.0 : 2.0 + (i % 2);
    gpcnet_stats_of(w, 200, true, &s);
    CHECK_NEAR(s.avg, (100 * 2.0 + 99 * 3.0 + 50.0) / 200, 1e-12);
    CHECK(s.p99 > 3.0 && s.p99 < 3.001);
    /* all equal; none */
    double e[3] = { 4.5, 4.5, 4.5 };
    gpcnet_stats_of(e, 3, true, &s);
    CHECK_NEAR(s.p99, 4.5, 0);
    gpcnet_stats_of(e, 0, true, &s);
    CHECK_EQ_U(s.n, 0);

    /* values */
    struct gpcnet_params p;
    gpcnet_defaults(&p, GPCNET_RR_LATENCY);
    CHECK_NEAR(gpcnet_value(&p, 16, 3 * SIMTIME_US), 1.5, 1e-12);
    gpcnet_defaults(&p, GPCNET_ALLREDUCE);
    CHECK_NEAR(gpcnet_value(&p, 16, 3 * SIMTIME_US), 3.0, 1e-12);
    gpcnet_defaults(&p, GPCNET_RR_BW_SYNC); /* 8*16384*2*8 B = 2 MiB */
    CHECK_NEAR(gpcnet_value(&p, 16, SIMTIME_MS), 2000.0, 1e-9);
    gpcnet_defaults(&p, GPCNET_A2A); /* 4 KiB x 15 peers in 1 ms */
    CHECK_NEAR(gpcnet_value(&p, 16, SIMTIME_MS), 4096.0 * 15 / 1048.576,
               1e-9);

    /* a job's iterations (dmpi_collect's iter_time): 2, 3, 1 us,
     * rr-latency halves them */
    gpcnet_defaults(&p, GPCNET_RR_LATENCY);
    struct gpcnet g;
    char err[128];
    CHECK(gpcnet_init(&g, &p, 4, err, sizeof err) == 0);
    simtime ends[3] = { 2 * SIMTIME_US, 5 * SIMTIME_US, 6 * SIMTIME_US };
    simtime times[3] = { 2 * SIMTIME_US, 3 * SIMTIME_US, 1 * SIMTIME_US };
    struct dmpi_job_result r = { .start = 0, .n_iter = 3, .iter_end = ends,
                                 .iter_time = times };
    CHECK(gpcnet_summarize_job(&g, &r, &s) == 0);
    CHECK_NEAR(s.avg, 1.0, 1e-12);
    CHECK_EQ_U(s.n, 3);
    /* floor(0.99 x 3) = 2: the second smallest, 1.0 (upper bucket edge) */
    CHECK(s.p99 > 1.0 && s.p99 < 1.0001);
    r.n_iter = 0;
    CHECK(gpcnet_summarize_job(&g, &r, &s) == -1);
    gpcnet_free(&g);

    /* impact: rounded to 0.1 first (1.04 -> 1.0, 10.96 -> 11.0) */
    CHECK_NEAR(gpcnet_impact(1.04, 10.96, false), 11.0, 1e-12);
    CHECK_NEAR(gpcnet_impact(2.0, 5.0, false), 2.5, 1e-12);
    CHECK_NEAR(gpcnet_impact(5000.04, 2500.0, true), 2.0, 1e-12);
    CHECK_NEAR(gpcnet_impact(1.25, 2.5, false), 2.5 / 1.2, 1e-12);
    CHECK(isinf(gpcnet_impact(0.04, 3.0, false))); /* 0.0 after rounding */
}

/* ---- SC'20 Fig. 9 on Aries -------------------------------------------------- */

/* One run on `system`: the canary (kernel `canary`, cn nodes) alone, or
 * beside a background congestor (kernel `cong`, cgn nodes, `cbytes` per
 * message); both placed at random (GPCNeT's shuffle: the congestor first,
 * as exp/alloc.h writes GPCNeT's split). The canary starts `delay` after
 * the congestor so that the congestion has built up (GPCNeT releases its
 * canaries after the congestors' warm-up pass). Returns the canary's
 * statistics (avg -1 on failure). */
struct scenario {
    const char *system;
    enum gpcnet_kernel canary, cong;
    uint32_t cn, cgn, citers;
    uint64_t cbytes;
    simtime delay;
    uint64_t seed;
};

static struct gpcnet_stats canary_run(const struct scenario *sc,
                                      bool congested, double *secs)
{
    struct gpcnet_stats st = { -1, -1, 0 };
    struct mpi_h h;
    if (mpi_h_setup(&h, sc->system, false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return st;
    }
    struct alloc_request req[2];
    alloc_request_init(&req[0]);
    alloc_request_init(&req[1]);
    req[0].job = "congestor";
    req[0].policy = &alloc_random;
    req[0].nodes = sc->cgn;
    req[1].job = "canary";
    req[1].policy = &alloc_random;
    req[1].nodes = sc->cn;
    uint32_t *nodes[2] = { NULL, NULL };
    /* the same placement alone and congested */
    if (alloc_place(&h.t, req, 2, sc->seed, nodes, &h.d) != 0) {
        CHECK(!"alloc_place");
        mpi_h_teardown(&h);
        return st;
    }
    struct gpcnet_params cp, gp;
    gpcnet_defaults(&cp, sc->canary);
    cp.iterations = sc->citers;
    cp.seed = sc->seed;
    gpcnet_defaults(&gp, sc->cong);
    gp.bytes = sc->cbytes;
    struct gpcnet cg, gg;
    char err[128];
    CHECK(gpcnet_init(&cg, &cp, sc->cn, err, sizeof err) == 0);
    CHECK(gpcnet_init(&gg, &gp, sc->cgn, err, sizeof err) == 0);
    struct dmpi_job_spec js[2] = {
        { .name = "canary", .nodes = nodes[1], .n_nodes = sc->cn, .ppn = 1,
          .app = gpcnet_app(&cg), .start = sc->delay },
        { .name = "congestor", .nodes = nodes[0], .n_nodes = sc->cgn,
          .ppn = 1, .app = gpcnet_app(&gg), .background = true },
    };
    if (mpi_h_start(&h, NULL, js, congested ? 2 : 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK_EQ_U(r->n_iter, sc->citers);
        CHECK(gpcnet_summarize_job(&cg, r, &st) == 0);
        *secs = (double)(r->end - r->start) / SIMTIME_S;
        if (congested)
            CHECK(!h.m.res[1].finished);
    }
    alloc_free(nodes, 2);
    gpcnet_free(&cg);
    gpcnet_free(&gg);
    mpi_h_teardown(&h);
    return st;
}

/* Impact factors (average and 99th percentile) of congestor sc->cong on
 * the canary, whose isolated statistics are *iso; printed. */
static double impact_of(const struct scenario *sc,
                        const struct gpcnet_stats *iso, double *p99_impact)
{
    double t1 = 0;
    struct gpcnet_stats con = canary_run(sc, true, &t1);
    bool bw = !gpcnet_is_latency(sc->canary);
    double f = gpcnet_impact(iso->avg, con.avg, bw);
    *p99_impact = gpcnet_impact(iso->p99, con.p99, bw);
    fprintf(stderr, "  %-10s beside %-10s (%3u nodes, %llu B): avg %6.2f "
            "p99 %6.2f %s -> impact %4.1fX avg, %4.1fX p99 (%.0f us)\n",
            gpcnet_kernel_names[sc->canary], gpcnet_kernel_names[sc->cong],
            sc->cgn, (unsigned long long)sc->cbytes, con.avg, con.p99,
            bw ? "MiB/s/rank" : "us", f, *p99_impact, t1 * 1e6);
    return f;
}

static struct gpcnet_stats isolated(const struct scenario *sc)
{
    double t0 = 0;
    struct gpcnet_stats iso = canary_run(sc, false, &t0);
    fprintf(stderr, "  %-10s on %u nodes, %u iterations, alone: avg %.2f "
            "p99 %.2f us (%.0f us)\n", gpcnet_kernel_names[sc->canary],
            sc->cn, sc->citers, iso.avg, iso.p99, t0 * 1e6);
    return iso;
}

/* GPCNeT's split on Crystal (698 nodes): floor(0.8 N) = 558 congestor
 * nodes, 140 canary nodes, all at random, one congestor at a time (as
 * SC'20 Fig. 9 runs one aggressor), GPCNeT's 4 KiB congestor messages, 1
 * rank per node; the canary starts 50 us after the congestor. Iterations
 * kept to 40 (4 rings of 10) because the a2a congestor on 558 nodes costs
 * ~0.2 s of wall-clock time per simulated microsecond. */
static void test_congestion_impact_aries(void)
{
    struct scenario sc = { .system = "crystal",
                           .canary = GPCNET_RR_LATENCY,
                           .cong = GPCNET_P2P_INCAST,
                           .cn = 140, .cgn = 558, .citers = 40,
                           .cbytes = 4096, .delay = 50 * SIMTIME_US,
                           .seed = 1 };
    struct gpcnet_stats iso = isolated(&sc);
    CHECK(iso.avg > 1.0 && iso.avg < 3.0); /* ~1.3 us MPI latency */
    double p99_p2p, p99_rma, p99_a2a;
    double p2p = impact_of(&sc, &iso, &p99_p2p);
    sc.cong = GPCNET_RMA_INCAST;
    double rma = impact_of(&sc, &iso, &p99_rma);
    sc.cong = GPCNET_A2A;
    double a2a = impact_of(&sc, &iso, &p99_a2a);
    sc.canary = GPCNET_ALLREDUCE;
    sc.cong = GPCNET_P2P_INCAST;
    struct gpcnet_stats iso_ar = isolated(&sc);
    double p99_ar;
    double ar = impact_of(&sc, &iso_ar, &p99_ar);
    fprintf(stderr, "  SC'20 Fig. 9 (Aries Crystal, linear, 512 nodes, "
            "128 KiB aggressors): incast 13 / 44 / 80X on 8 B pingpong and "
            "14 / 59 / 62X on 8 B allreduce at 10 / 50 / 90%% aggressor "
            "share; all-to-all <= 2.0X\n");
    CHECK(p2p > 2);
    CHECK(rma > 2);
    CHECK(p99_p2p > 5 && p99_rma > 5);
    CHECK(a2a < 1.5);
    CHECK(p2p > a2a && rma > a2a);
    CHECK(p99_p2p > p99_a2a && p99_rma > p99_a2a);
    CHECK(ar > 1.2);
}

const struct test_case tests_gpcnet[] = {
    TEST(test_names_and_defaults),
    TEST(test_kernels_run),
    TEST(test_congestor_set),
    TEST(test_rma_traffic),
    TEST(test_rings),
    TEST(test_small_batches),
    TEST(test_statistics),
    TEST(test_congestion_impact_aries),
    { 0 },
};
