/* tests/test_otf2.c — the otf2 workload (app/otf2.h): traces written
 * record by record (otf2_util.h) replayed on the simulated machine,
 * against native programs of the same pattern, and broken traces
 * refused by name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "app/micro.h"
#include "app/otf2.h"
#include "app/otf2_internal.h"
#include "mpi_util.h"
#include "otf2_util.h"
#include "test.h"

/* A fresh folder for one archive; removed by rm_tree. */
static char *tmp_dir(char *buf, size_t cap)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, cap, "%s/dfsim-otf2-XXXXXX", base ? base : "/tmp");
    return mkdtemp(buf);
}

static void rm_tree(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static const char *anchor(const char *dir, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/traces.otf2", dir);
    return buf;
}

/* What one replayed or native job measured. */
struct outcome {
    int ok;
    simtime span;        /* end - start */
    uint64_t msgs, bytes;
    uint32_t iters;      /* iterations every rank marked */
    uint32_t lookahead;  /* the most records a rank's queue held */
    char why[512];
};

/* Run app (n ranks on nodes of distinct routers, one per node) on
 * xc-12cab. */
static struct outcome run_app(struct dmpi_app app, uint32_t n)
{
    struct outcome o = { 0 };
    struct mpi_h h;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return o;
    }
    uint32_t nodes[16];
    for (uint32_t i = 0; i < n; i++)
        nodes[i] = mpi_h_node_on(&h.t, 5 * i); /* routers 0, 5, 10, ... */
    struct dmpi_job_spec js = { .name = "j", .nodes = nodes, .n_nodes = n,
                                .ppn = 1, .app = app };
    if (mpi_h_start(&h, NULL, &js, 1) == 0) {
        sim_run(&h.s, SIMTIME_MAX);
        const struct dmpi_job_result *r = &h.m.res[0];
        o.ok = !h.m.error && r->finished;
        o.span = r->end - r->start;
        o.msgs = r->msgs;
        o.bytes = r->bytes;
        CHECK(dmpi_collect(&h.m) == 0);
        o.iters = r->n_iter;
        snprintf(o.why, sizeof o.why, "%s", h.m.why);
    }
    mpi_h_teardown(&h);
    return o;
}

static struct outcome replay_n(const char *dir, uint32_t n, double scale,
                               uint32_t iterations)
{
    char a[300], err[512];
    struct otf2_params p;
    otf2_defaults(&p);
    p.trace = anchor(dir, a, sizeof a);
    p.compute_scale = scale;
    p.iterations = iterations;
    struct otf2_wl w;
    struct outcome o = { 0 };
    if (otf2_init(&w, &p, n, NULL, err, sizeof err) != 0) {
        snprintf(o.why, sizeof o.why, "%s", err);
        return o;
    }
    o = run_app(otf2_app(&w), n);
    o.lookahead = w.r->t.lookahead_max;
    otf2_free(&w);
    return o;
}

static struct outcome replay(const char *dir, uint32_t n, double scale)
{
    return replay_n(dir, n, scale, 1);
}

/* ---- replay against native programs (issue 56, validation (a), (c)) ---- */

/* A ping-pong trace: `iters` round trips of `bytes`, each call taking
 * 1 us of recorded time, `gap` ns of compute before rank 0's sends. */
static int write_pingpong(const char *dir, uint32_t iters, uint64_t bytes,
                          uint64_t gap)
{
    struct tw *w = tw_open(dir, 2);
    if (!w)
        return -1;
    uint64_t t = 1000;
    for (uint32_t i = 0; i < iters; i++) {
        t += gap;
        tw_call_send(w, 0, t, t + 1000, 1, 0, bytes);
        tw_call_recv(w, 1, t, t + 1000, 0, 0, bytes);
        t += 1000;
        tw_call_send(w, 1, t, t + 1000, 0, 0, bytes);
        tw_call_recv(w, 0, t, t + 1000, 1, 0, bytes);
        t += 1000;
    }
    return tw_close(w);
}

static void test_otf2_pingpong_matches_native(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    const uint64_t sizes[] = { 8, 1024, 65536 };
    for (int s = 0; s < 3; s++) {
        CHECK(write_pingpong(dir, 10, sizes[s], 0) == 0);
        struct outcome r = replay(dir, 2, 1.0);
        CHECK(r.ok);
        struct micro mb;
        char err[128];
        struct micro_params p = { .kind = MICRO_PINGPONG, .bytes = sizes[s],
                                  .iterations = 10, .peer = 1 };
        CHECK(micro_init(&mb, &p, 2, err, sizeof err) == 0);
        struct outcome nat = run_app(micro_app(&mb), 2);
        micro_free(&mb);
        CHECK(nat.ok);
        /* the same calls on the same machine: the same time (the issue
         * asks within 1 %; nothing differs, so it is exact) */
        CHECK_EQ_U(r.span, nat.span);
        CHECK_EQ_U(r.msgs, 20);
        CHECK_EQ_U(r.bytes, 20 * sizes[s]);
        CHECK(nat.span > 0);
    }
    rm_tree(dir);
}

/* Recorded compute between calls is replayed, scaled. */
static void test_otf2_compute_gaps_scaled(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    CHECK(write_pingpong(dir, 10, 8, 5000) == 0); /* 5 us before each */
    struct outcome none = replay(dir, 2, 0.0);
    struct outcome full = replay(dir, 2, 1.0);
    struct outcome half = replay(dir, 2, 0.5);
    CHECK(none.ok && full.ok && half.ok);
    /* rank 0 computes 5 us before each of its sends but the first (the
     * replay starts at its first MPI call), each on the critical path */
    CHECK_EQ_U(full.span - none.span, 9 * 5 * SIMTIME_US);
    CHECK_EQ_U(half.span - none.span, 9 * 5 * SIMTIME_US / 2);
    rm_tree(dir);
}

/* A ring exchange with MPI_Irecv / MPI_Isend / MPI_Waitall, as a native
 * program of the layer writes it. */
struct ring {
    uint32_t n, iters, done[8];
    uint64_t bytes;
};
static uint32_t ring_next(void *ctx, uint32_t r, struct dmpi_op *out,
                          uint32_t cap)
{
    struct ring *g = ctx;
    if (g->done[r]++ || cap < 4 * g->iters + 1)
        return 0;
    uint32_t k = 0, right = (r + 1) % g->n, left = (r + g->n - 1) % g->n;
    for (uint32_t i = 0; i < g->iters; i++) {
        out[k++] = (struct dmpi_op){ .code = DMPI_IRECV, .peer = left,
                                     .tag = 7, .bytes = g->bytes };
        out[k++] = (struct dmpi_op){ .code = DMPI_ISEND, .peer = right,
                                     .tag = 7, .bytes = g->bytes };
        out[k++] = (struct dmpi_op){ .code = DMPI_WAITALL };
        out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                     .arg = 2 * SIMTIME_US };
    }
    out[k++] = (struct dmpi_op){ .code = DMPI_MARK };
    return k;
}

static int write_ring(const char *dir, uint32_t n, uint32_t iters,
                      uint64_t bytes)
{
    struct tw *w = tw_open(dir, n);
    if (!w)
        return -1;
    for (uint32_t r = 0; r < n; r++) {
        uint64_t t = 100, req = 1;
        uint32_t right = (r + 1) % n, left = (r + n - 1) % n;
        for (uint32_t i = 0; i < iters; i++, req += 2) {
            tw_enter(w, r, t, "MPI_Irecv");
            tw_irecv_req(w, r, t, req);
            tw_leave(w, r, t + 100, "MPI_Irecv");
            tw_enter(w, r, t + 100, "MPI_Isend");
            tw_isend(w, r, t + 100, right, 0, 7, bytes, req + 1);
            tw_leave(w, r, t + 200, "MPI_Isend");
            tw_enter(w, r, t + 200, "MPI_Waitall");
            tw_irecv(w, r, t + 900, left, 0, 7, bytes, req);
            tw_isend_done(w, r, t + 900, req + 1);
            tw_leave(w, r, t + 1000, "MPI_Waitall");
            /* 2 us in a user function, then the next call */
            tw_enter(w, r, t + 1000, "compute");
            tw_leave(w, r, t + 3000, "compute");
            t += 3000;
        }
    }
    return tw_close(w);
}

/* A receive polled by MPI_Test 20,000 times before its wait: the
 * look-ahead that finds its completion holds a few records, not 60,000
 * (the polls collapse: otf2_read.c), and the replay keeps the compute
 * between the polls (50 ns each) but not the time inside them (50 ns). */
static void test_otf2_polled_receive_streams(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 2);
    CHECK(w != NULL);
    tw_call_send(w, 0, 100, 200, 1, 3, 1024);
    tw_enter(w, 1, 100, "MPI_Irecv");
    tw_irecv_req(w, 1, 100, 1);
    tw_leave(w, 1, 150, "MPI_Irecv");
    uint64_t t = 150;
    for (uint32_t i = 0; i < 20000; i++, t += 100) {
        tw_enter(w, 1, t + 50, "MPI_Test");
        tw_test(w, 1, t + 100, 1);
        tw_leave(w, 1, t + 100, "MPI_Test");
    }
    tw_enter(w, 1, t + 50, "MPI_Wait");
    tw_irecv(w, 1, t + 60, 0, 0, 3, 1024, 1);
    tw_leave(w, 1, t + 70, "MPI_Wait");
    CHECK(tw_close(w) == 0);
    struct outcome o = replay(dir, 2, 1.0);
    CHECK(o.ok);
    if (!o.ok)
        fprintf(stderr, "  replay: %s\n", o.why);
    CHECK(o.lookahead < 64);
    CHECK_EQ_U(o.msgs, 1);
    /* rank 1: 20,001 gaps of 50 ns of compute, then its wait (the message
     * long arrived): the job's time is that, the receive's overhead and
     * rank 1's start after rank 0's */
    simtime compute = 20001 * 50 * SIMTIME_NS;
    CHECK(o.span >= compute && o.span < compute + 10 * SIMTIME_US);
    rm_tree(dir);
}

/* iterations = 3: the trace three times, back to back, an iteration
 * each (each rank starts again when it has finished). */
static void test_otf2_iterations_repeat(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    CHECK(write_ring(dir, 4, 6, 8192) == 0);
    struct outcome one = replay_n(dir, 4, 1.0, 1);
    struct outcome three = replay_n(dir, 4, 1.0, 3);
    CHECK(one.ok && three.ok);
    CHECK_EQ_U(one.iters, 1);
    CHECK_EQ_U(three.iters, 3);
    CHECK_EQ_U(three.msgs, 3 * one.msgs);
    CHECK_EQ_U(three.bytes, 3 * one.bytes);
    /* the ranks of a ring are in step: three replays take three times
     * one, within the skew of their last completions */
    CHECK(three.span > 3 * one.span - one.span / 20 &&
          three.span < 3 * one.span + one.span / 20);
    rm_tree(dir);
}

static void test_otf2_ring_matches_native(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    const uint64_t sizes[] = { 64, 8192, 300000 };
    for (int s = 0; s < 3; s++) {
        CHECK(write_ring(dir, 4, 6, sizes[s]) == 0);
        struct outcome r = replay(dir, 4, 1.0);
        struct ring g = { .n = 4, .iters = 6, .bytes = sizes[s] };
        struct outcome nat = run_app(
            (struct dmpi_app){ .ctx = &g, .next = ring_next }, 4);
        CHECK(r.ok && nat.ok);
        if (!r.ok)
            fprintf(stderr, "  replay: %s\n", r.why);
        /* the trace's 2 us of compute come before each iteration but the
         * first, the native program's after each: 2 us apart; otherwise
         * the same (a Waitall's requests are waited for together: their
         * receive overheads paid after the last, as DMPI_WAITALL does) */
        CHECK_EQ_U(r.span + 2 * SIMTIME_US, nat.span);
        CHECK_EQ_U(r.msgs, 4 * 6);           /* the trace's messages */
        CHECK_EQ_U(r.bytes, 4 * 6 * sizes[s]);
    }
    rm_tree(dir);
}

/* Collectives: on the world (the layer's own) and on a communicator of
 * two of the four ranks (the same algorithms over its ranks). */
static void test_otf2_collectives_on_communicators(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 4);
    CHECK(w != NULL);
    uint32_t odd[] = { 1, 3 };
    uint32_t c = tw_comm(w, "odd", odd, 2);
    for (uint32_t r = 0; r < 4; r++) {
        /* Score-P's sizes: allreduce of 8 B sends and receives N x 8 */
        tw_coll(w, r, 100, 200, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE,
                0, OTF2_UNDEFINED_UINT32, 32, 32);
        if (r & 1)
            tw_coll(w, r, 300, 400, "MPI_Allreduce",
                    OTF2_COLLECTIVE_OP_ALLREDUCE, c, OTF2_UNDEFINED_UINT32,
                    16, 16);
        tw_coll(w, r, 500, 600, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, 2,
                r == 2 ? 4 * 1000 : 0, 1000);
    }
    CHECK(tw_close(w) == 0);
    struct outcome o = replay(dir, 4, 1.0);
    CHECK(o.ok);
    if (!o.ok)
        fprintf(stderr, "  replay: %s\n", o.why);
    /* world allreduce of 8 B on 4 ranks: recursive doubling, 2 rounds x 4
     * messages; the odd ranks' allreduce: 1 round x 2; the bcast of 1000 B
     * from rank 2: a binomial tree, 3 messages */
    CHECK_EQ_U(o.msgs, 8 + 2 + 3);
    CHECK_EQ_U(o.bytes, 8 * 8 + 2 * 8 + 3 * 1000);
    rm_tree(dir);
}

/* One-sided: fences, a PUT to the right, a GET from the left, as the
 * layer's own operations (a native program of the same calls, on the
 * ring's neighbours). */
static uint32_t rma_next(void *ctx, uint32_t r, struct dmpi_op *out,
                         uint32_t cap)
{
    struct ring *g = ctx; /* the ring's shape: n ranks, iters, bytes */
    if (g->done[r]++ || cap < 6 * g->iters + 3)
        return 0;
    uint32_t k = 0;
    struct dmpi_op fl = { .code = DMPI_FLUSH }, ba = { .code = DMPI_BARRIER };
    for (uint32_t i = 0; i < g->iters; i++) {
        out[k++] = fl;
        out[k++] = ba;
        out[k++] = (struct dmpi_op){ .code = DMPI_PUT,
                                     .peer = (r + 1) % g->n,
                                     .bytes = g->bytes };
        out[k++] = (struct dmpi_op){ .code = DMPI_GET,
                                     .peer = (r + g->n - 1) % g->n,
                                     .bytes = g->bytes };
    }
    out[k++] = fl;
    out[k++] = ba;
    out[k++] = (struct dmpi_op){ .code = DMPI_MARK };
    return k;
}

static void test_otf2_one_sided_matches_native(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 4);
    CHECK(w != NULL);
    uint32_t win = tw_win(w, 0);
    for (uint32_t r = 0; r < 4; r++) {
        uint64_t t = 100;
        for (uint32_t i = 0; i < 5; i++, t += 1000) {
            tw_fence(w, r, t, t + 100, win);
            tw_rma_put(w, r, t + 100, win, (r + 1) % 4, 4096);
            tw_rma_get(w, r, t + 100, win, (r + 3) % 4, 4096);
        }
        tw_fence(w, r, t, t + 100, win);
    }
    CHECK(tw_close(w) == 0);
    struct outcome o = replay(dir, 4, 0.0);
    struct ring g = { .n = 4, .iters = 5, .bytes = 4096 };
    struct outcome nat =
        run_app((struct dmpi_app){ .ctx = &g, .next = rma_next }, 4);
    CHECK(o.ok && nat.ok);
    if (!o.ok)
        fprintf(stderr, "  replay: %s\n", o.why);
    CHECK_EQ_U(o.span, nat.span);
    CHECK_EQ_U(o.msgs, nat.msgs);
    CHECK_EQ_U(o.bytes, nat.bytes);
    CHECK(o.bytes >= 4 * 5 * 2 * 4096);
    rm_tree(dir);
}

/* Non-blocking collectives run where they were called, in the order
 * every rank called them, whatever order their completions came in:
 * ranks 0 and 1 complete A then B, ranks 2 and 3 B then A (a
 * Waitany's order). Against the native program: two allreduces, then
 * the compute recorded between the calls and the wait. */
struct nbc_prog {
    uint32_t done[8];
};
static uint32_t nbc_next(void *ctx, uint32_t r, struct dmpi_op *out,
                         uint32_t cap)
{
    struct nbc_prog *g = ctx;
    if (g->done[r]++ || cap < 4)
        return 0;
    out[0] = (struct dmpi_op){ .code = DMPI_ALLREDUCE, .bytes = 64 };
    out[1] = (struct dmpi_op){ .code = DMPI_ALLREDUCE, .bytes = 8 };
    out[2] = (struct dmpi_op){ .code = DMPI_COMPUTE, .arg = 3 * SIMTIME_US };
    out[3] = (struct dmpi_op){ .code = DMPI_MARK };
    return 4;
}

static void test_otf2_nonblocking_collectives(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 4);
    CHECK(w != NULL);
    for (uint32_t r = 0; r < 4; r++) {
        tw_nbc(w, r, 100, "MPI_Iallreduce", 1);
        tw_nbc(w, r, 100, "MPI_Iallreduce", 2);
        /* 3 us of compute, then the waits */
        tw_enter(w, r, 3100, "MPI_Waitall");
        bool ab = r < 2;
        tw_nbc_done(w, r, 3200, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                    OTF2_UNDEFINED_UINT32, ab ? 4 * 64 : 4 * 8,
                    ab ? 4 * 64 : 4 * 8, ab ? 1 : 2);
        tw_nbc_done(w, r, 3300, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                    OTF2_UNDEFINED_UINT32, ab ? 4 * 8 : 4 * 64,
                    ab ? 4 * 8 : 4 * 64, ab ? 2 : 1);
        tw_leave(w, r, 3400, "MPI_Waitall");
    }
    CHECK(tw_close(w) == 0);
    struct outcome o = replay(dir, 4, 1.0);
    struct nbc_prog g = { { 0 } };
    struct outcome nat =
        run_app((struct dmpi_app){ .ctx = &g, .next = nbc_next }, 4);
    CHECK(o.ok && nat.ok);
    if (!o.ok)
        fprintf(stderr, "  replay: %s\n", o.why);
    CHECK_EQ_U(o.span, nat.span);
    CHECK_EQ_U(o.msgs, nat.msgs);
    CHECK_EQ_U(o.bytes, 8 * 64 + 8 * 8); /* 2 rounds x 4 ranks each */
    rm_tree(dir);
}

/* ---- broken traces: refused by name ------------------------------------ */

static void expect_init_error(const char *trace, uint32_t n,
                              const char *needle)
{
    struct otf2_params p;
    otf2_defaults(&p);
    p.trace = trace;
    struct otf2_wl w;
    char err[512] = "";
    CHECK(otf2_init(&w, &p, n, NULL, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, needle);
}

static void test_otf2_bad_archives_named(void)
{
    char dir[256], a[300];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    expect_init_error(anchor(dir, a, sizeof a), 2, "cannot read");
    expect_init_error(anchor(dir, a, sizeof a), 2, a);
    FILE *f = fopen(a, "w");
    CHECK(f != NULL);
    fputs("not an archive\n", f);
    fclose(f);
    expect_init_error(a, 2, "not an OTF2 archive");
    CHECK(write_pingpong(dir, 2, 8, 0) == 0);
    expect_init_error(a, 1, "has 2 ranks; the job has 1");
    /* more ranks than the trace: the others idle, the time the same */
    struct outcome two = replay(dir, 2, 1.0), four = replay(dir, 4, 1.0);
    CHECK(two.ok && four.ok);
    CHECK_EQ_U(four.span, two.span);
    CHECK_EQ_U(four.msgs, two.msgs);
    rm_tree(dir);
}

/* A replay that cannot go on fails the run with the trace's name, the
 * rank and the event. */
static void expect_run_error(const char *dir, uint32_t n, const char *needle)
{
    struct outcome o = replay(dir, n, 1.0);
    CHECK(!o.ok);
    CHECK_STR_CONTAINS(o.why, needle);
    CHECK_STR_CONTAINS(o.why, "traces.otf2: rank");
}

static void test_otf2_bad_events_named(void)
{
    char dir[256];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 2);
    tw_enter(w, 0, 10, "MPI_Send");
    tw_send(w, 0, 10, 1, 7, 0, 8); /* communicator 7: never defined */
    tw_leave(w, 0, 20, "MPI_Send");
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "communicator 7 was never defined");
    rm_tree(dir);

    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    w = tw_open(dir, 2);
    tw_rma_put(w, 0, 10, 3, 1, 64); /* window 3: never defined */
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "a window the trace never defines");
    rm_tree(dir);

    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    w = tw_open(dir, 2);
    tw_nbc(w, 0, 10, "MPI_Iallreduce", 5); /* never completed */
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "a non-blocking collective that never "
                             "completes");
    rm_tree(dir);

    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    w = tw_open(dir, 2);
    tw_enter(w, 0, 10, "MPI_Send");
    tw_send(w, 0, 10, 5, 0, 0, 8); /* rank 5 of a 2-rank world */
    tw_leave(w, 0, 20, "MPI_Send");
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "rank 5 of communicator \"MPI_COMM_WORLD\"");
    rm_tree(dir);

    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    w = tw_open(dir, 2);
    tw_enter(w, 1, 10, "MPI_Wait");
    tw_isend_done(w, 1, 10, 42); /* never started */
    tw_leave(w, 1, 20, "MPI_Wait");
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "completes request 42, which it never started");
    rm_tree(dir);

    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    w = tw_open(dir, 2);
    tw_enter(w, 0, 10, "MPI_Send"); /* no Leave: cut short */
    tw_send(w, 0, 10, 1, 0, 0, 8);
    CHECK(tw_close(w) == 0);
    expect_run_error(dir, 2, "never returns");
    rm_tree(dir);
}

/* A truncated event file: the run fails naming the trace. */
static void test_otf2_truncated_events(void)
{
    char dir[256], path[400];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    CHECK(write_pingpong(dir, 200, 8, 0) == 0);
    snprintf(path, sizeof path, "%s/traces/0.evt", dir);
    FILE *f = fopen(path, "r+");
    CHECK(f != NULL);
    if (f) {
        CHECK(fseek(f, 0, SEEK_END) == 0);
        long len = ftell(f);
        CHECK(len > 200);
        CHECK(ftruncate(fileno(f), len / 2) == 0);
        fclose(f);
    }
    struct outcome o = replay(dir, 2, 1.0);
    CHECK(!o.ok);
    CHECK_STR_CONTAINS(o.why, "traces.otf2");
    rm_tree(dir);
}

/* ---- through an experiment file -------------------------------------- */

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* dfsim run: the trace named relative to the experiment file's folder,
 * the job's time in jobs.csv; run from another working directory. */
static void test_otf2_experiment_file(void)
{
    char dir[256], cfg[320], out[320];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    CHECK(write_pingpong(dir, 50, 1024, 3000) == 0);
    snprintf(cfg, sizeof cfg, "%s/replay.cfg", dir);
    CHECK(write_file(cfg,
                     "experiment = { name = \"replay\"; seed = 1; };\n"
                     "system = { name = \"xc-12cab\"; };\n"
                     "jobs = ( { name = \"pp\"; workload = \"otf2\";\n"
                     "  trace = \"traces.otf2\"; nodes = 2; } );\n") == 0);
    snprintf(out, sizeof out, "%s/out", dir);
    char o[4096], e[4096];
    const char *argv[] = { "run", cfg, "-o", out, NULL };
    CHECK_EQ_U(run_dfsim(argv, o, sizeof o, e, sizeof e), 0);
    char csv[400];
    snprintf(csv, sizeof csv, "%s/jobs.csv", out);
    char *jobs = read_text(csv);
    CHECK(jobs != NULL);
    if (jobs)
        CHECK_STR_CONTAINS(jobs, ",pp,otf2,");
    free(jobs);
    rm_tree(dir);
}

/* A trace whose two ranks both receive first: a real machine would hang;
 * the run stops with an error that says so. */
static void test_otf2_deadlock_reported(void)
{
    char dir[256], cfg[320], out[320];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    struct tw *w = tw_open(dir, 2);
    CHECK(w != NULL);
    tw_call_recv(w, 0, 10, 20, 1, 0, 8);
    tw_call_send(w, 0, 30, 40, 1, 0, 8);
    tw_call_recv(w, 1, 10, 20, 0, 0, 8);
    tw_call_send(w, 1, 30, 40, 0, 0, 8);
    CHECK(tw_close(w) == 0);
    snprintf(cfg, sizeof cfg, "%s/replay.cfg", dir);
    CHECK(write_file(cfg,
                     "experiment = { name = \"dl\"; seed = 1; };\n"
                     "system = { name = \"xc-12cab\"; };\n"
                     "jobs = ( { name = \"dl\"; workload = \"otf2\";\n"
                     "  trace = \"traces.otf2\"; nodes = 2; } );\n") == 0);
    snprintf(out, sizeof out, "%s/out", dir);
    char o[4096], e[4096];
    const char *argv[] = { "run", cfg, "-o", out, NULL };
    CHECK(run_dfsim(argv, o, sizeof o, e, sizeof e) != 0);
    CHECK_STR_CONTAINS(e, "waiting for a message that never comes (deadlock)");
    rm_tree(dir);
}

/* `dfsim trace`: the trace's sends and bytes, as otf2-print (OTF2's own
 * tool, the reference) lists them; and the replay moves the same. */
static void test_otf2_summary_matches_otf2_print(void)
{
    char dir[256], a[300], cmd[600];
    CHECK(tmp_dir(dir, sizeof dir) != NULL);
    CHECK(write_ring(dir, 4, 6, 777) == 0);
    anchor(dir, a, sizeof a);
    snprintf(cmd, sizeof cmd,
             "otf2-print '%s' | awk '$1 == \"MPI_SEND\" || $1 == "
             "\"MPI_ISEND\" { n++; for (i = 1; i < NF; i++) if ($i == "
             "\"Length:\") b += $(i + 1) } END { print n, b }'", a);
    FILE *p = popen(cmd, "r");
    unsigned long long n = 0, b = 0;
    CHECK(p != NULL);
    if (p) {
        CHECK(fscanf(p, "%llu %llu", &n, &b) == 2);
        CHECK(pclose(p) == 0);
    }
    CHECK_EQ_U(n, 4 * 6);
    CHECK_EQ_U(b, 4 * 6 * 777);
    char o[8192], e[2048], want[128];
    const char *argv[] = { "trace", a, NULL };
    CHECK_EQ_U(run_dfsim(argv, o, sizeof o, e, sizeof e), 0);
    snprintf(want, sizeof want, "sends          %llu messages, %llu bytes",
             n, b);
    CHECK_STR_CONTAINS(o, want);
    CHECK_STR_CONTAINS(o, "ranks          4\n");
    struct outcome r = replay(dir, 4, 1.0);
    CHECK(r.ok);
    CHECK_EQ_U(r.msgs, n);
    CHECK_EQ_U(r.bytes, b);
    const char *bad[] = { "trace", "/nonexistent/traces.otf2", NULL };
    CHECK_EQ_U(run_dfsim(bad, o, sizeof o, e, sizeof e), 1);
    CHECK_STR_CONTAINS(e, "/nonexistent/traces.otf2: cannot read");
    rm_tree(dir);
}

const struct test_case tests_otf2[] = {
    TEST(test_otf2_summary_matches_otf2_print),
    TEST(test_otf2_experiment_file),
    TEST(test_otf2_deadlock_reported),
    TEST(test_otf2_pingpong_matches_native),
    TEST(test_otf2_compute_gaps_scaled),
    TEST(test_otf2_iterations_repeat),
    TEST(test_otf2_polled_receive_streams),
    TEST(test_otf2_ring_matches_native),
    TEST(test_otf2_collectives_on_communicators),
    TEST(test_otf2_one_sided_matches_native),
    TEST(test_otf2_nonblocking_collectives),
    TEST(test_otf2_bad_archives_named),
    TEST(test_otf2_bad_events_named),
    TEST(test_otf2_truncated_events),
    { NULL, NULL },
};
