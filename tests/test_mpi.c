/* tests/test_mpi.c — the MPI-like layer on the simulated network:
 * ping-pong latency and bandwidth against the XC white paper, the
 * protocols' traffic against the Gemini paper, matching, collectives and
 * one-sided calls through the real network, jobs that do not disturb each
 * other, determinism. */
#include "test.h"
#include "mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/ember.h"
#include "app/micro.h"
#include "core/diag.h"
#include "core/sim.h"
#include "mpi/mpi.h"
#include "net/counters.h"
#include "net/net.h"
#include "route/route.h"
#include "topo/topo.h"

/* Time of one ping-pong iteration between nodes a and b (mean over
 * iterations after the first). */
static double pingpong_ns(const char *system, uint32_t ra, uint32_t rb,
                          uint64_t bytes, uint32_t iters)
{
    struct mpi_h h;
    double ns = -1;
    if (mpi_h_setup(&h, system, false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return ns;
    }
    uint32_t nodes[2] = { mpi_h_node_on(&h.t, ra), mpi_h_node_on(&h.t, rb) };
    struct micro mb;
    char err[128];
    struct micro_params mp = { .kind = MICRO_PINGPONG, .bytes = bytes,
                               .iterations = iters, .peer = 1 };
    CHECK(micro_init(&mb, &mp, 2, err, sizeof err) == 0);
    struct dmpi_job_spec js = { .name = "pp", .nodes = nodes, .n_nodes = 2,
                                .ppn = 1, .app = micro_app(&mb) };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK_EQ_U(r->n_iter, iters);
        CHECK_EQ_U(r->msgs, 2 * iters);
        if (r->n_iter == iters && iters > 1)
            ns = (double)(r->iter_end[iters - 1] - r->iter_end[0]) /
                 (iters - 1) / SIMTIME_NS;
    }
    micro_free(&mb);
    mpi_h_teardown(&h);
    return ns;
}

/* XC white paper §"Network performance": about 1.3 us for an 8-byte MPI
 * message (Fig. 11), 0.8 us for an 8-byte PUT. Routers 0 and 1 share a
 * chassis (one rank-1 hop). */
static void test_pingpong_latency_aries(void)
{
    double rtt = pingpong_ns("xc-12cab", 0, 1, 8, 20);
    double half = rtt / 2;
    fprintf(stderr, "  Aries 8 B MPI ping-pong: %.0f ns half round trip "
            "(white paper: ~1300)\n", half);
    CHECK(half > 1000 && half < 1600);
    /* farther away costs more, but little (~100 ns per hop) */
    double far = pingpong_ns("xc-12cab", 0, 100, 8, 20) / 2;
    fprintf(stderr, "  ... to another group: %.0f ns\n", far);
    CHECK(far > half && far < half + 600);
}

/* Large messages one at a time: the white paper reports up to ~10 GB/s
 * unidirectional (Fig. 12); one message at a time a rendezvous costs a
 * round trip more. */
static void test_pingpong_bandwidth_aries(void)
{
    uint64_t bytes = 4u << 20;
    double rtt = pingpong_ns("xc-12cab", 0, 1, bytes, 4);
    double gbs = (double)bytes / (rtt / 2);
    fprintf(stderr, "  Aries 4 MiB ping-pong: %.2f GB/s\n", gbs);
    CHECK(gbs > 5.0 && gbs < 10.6);
}

/* The size thresholds where the Gemini paper saw the protocols change. */
static void test_protocol_switches(void)
{
    struct dmpi_params p;
    dmpi_defaults(&p);
    CHECK_EQ_U(dmpi_protocol(&p, 16), DMPI_SMSG);
    CHECK_EQ_U(dmpi_protocol(&p, 32), DMPI_EAGER);
    CHECK_EQ_U(dmpi_protocol(&p, 4096), DMPI_EAGER);
    CHECK_EQ_U(dmpi_protocol(&p, 8192), DMPI_RDV_GET);
    CHECK_EQ_U(dmpi_protocol(&p, 256 * 1024), DMPI_RDV_GET);
    CHECK_EQ_U(dmpi_protocol(&p, 512 * 1024), DMPI_RDV_PUT);
    CHECK_EQ_U(dmpi_protocol(&p, 0), DMPI_SMSG);
}

/* Which way the bytes go (Pedretti et al. §V-D, Fig. 5a): an eager
 * message leaves the sender as PUT requests; a GET-rendezvous message as
 * GET responses, pulled by the receiver; a PUT-rendezvous one as PUT
 * requests again. NIC flits counted at the sender's NIC. */
static void test_protocol_traffic(void)
{
    static const uint64_t sizes[] = { 4096, 65536, 1u << 20 };
    for (int k = 0; k < 3; k++) {
        struct mpi_h h;
        if (mpi_h_setup(&h, "cielo", true) != 0) {
            CHECK(!"setup");
            mpi_h_teardown(&h);
            return;
        }
        uint32_t nodes[2] = { mpi_h_node_on(&h.t, 0), mpi_h_node_on(&h.t, 5) };
        struct micro mb;
        char err[128];
        struct micro_params mp = { .kind = MICRO_PINGPONG,
                                   .bytes = sizes[k], .iterations = 1,
                                   .peer = 1 };
        CHECK(micro_init(&mb, &mp, 2, err, sizeof err) == 0);
        struct dmpi_job_spec js = { .name = "pp", .nodes = nodes,
                                    .n_nodes = 2, .ppn = 1,
                                    .app = micro_app(&mb) };
        if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
            uint32_t nic = h.t.nodes[nodes[0]].nic[0];
            uint64_t req = h.n.ct.nic[nic].flits[0];
            uint64_t rsp = h.n.ct.nic[nic].flits[1];
            fprintf(stderr, "  %7llu B: sender NIC request flits %llu, "
                    "response flits %llu\n", (unsigned long long)sizes[k],
                    (unsigned long long)req, (unsigned long long)rsp);
            if (k == 1)
                CHECK(rsp > 4 * req); /* pulled by GETs */
            else
                CHECK(req > 4 * rsp); /* pushed by PUTs */
        }
        micro_free(&mb);
        mpi_h_teardown(&h);
    }
}

/* Collectives through the network: every rank finishes, the number of
 * messages is the algorithm's, and larger buffers take longer. */
static void test_collectives_run(void)
{
    static const enum micro_kind kinds[] = { MICRO_ALLREDUCE,
                                             MICRO_ALLTOALL, MICRO_BCAST,
                                             MICRO_BARRIER, MICRO_INCAST };
    for (int k = 0; k < 5; k++) {
        double t[2] = { 0, 0 };
        for (int big = 0; big < 2; big++) {
            struct mpi_h h;
            if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
                CHECK(!"setup");
                mpi_h_teardown(&h);
                return;
            }
            uint32_t nodes[12];
            for (uint32_t i = 0; i < 12; i++)
                nodes[i] = mpi_h_node_on(&h.t, 7 * i); /* 12 routers, 3 groups */
            struct micro mb;
            char err[128];
            struct micro_params mp = { .kind = kinds[k],
                                       .bytes = big ? 65536 : 8,
                                       .iterations = 3 };
            CHECK(micro_init(&mb, &mp, 24, err, sizeof err) == 0);
            struct dmpi_job_spec js = { .name = "c", .nodes = nodes,
                                        .n_nodes = 12, .ppn = 2,
                                        .app = micro_app(&mb) };
            if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
                const struct dmpi_job_result *r = &h.m.res[0];
                CHECK_EQ_U(r->n_iter, 3);
                CHECK(r->finished);
                t[big] = (double)(r->end - r->start);
                if (kinds[k] == MICRO_ALLTOALL)
                    CHECK_EQ_U(r->msgs, 3 * 24 * 23);
                if (kinds[k] == MICRO_INCAST)
                    CHECK_EQ_U(r->msgs, 3 * 23);
                if (kinds[k] == MICRO_BARRIER) /* dissemination: 5 rounds */
                    CHECK_EQ_U(r->msgs, 3 * 24 * 5);
            }
            micro_free(&mb);
            mpi_h_teardown(&h);
        }
        fprintf(stderr, "  %-9s 24 ranks: %8.1f us (8 B), %8.1f us (64 KiB)\n",
                micro_kind_names[kinds[k]], t[0] / SIMTIME_US,
                t[1] / SIMTIME_US);
        if (kinds[k] != MICRO_BARRIER)
            CHECK(t[1] > t[0]);
        CHECK(t[0] > 0);
    }
}

/* A job that only computes ends at exactly its compute time, whatever
 * else runs; an incast congestor beside it does not change that. And the
 * same run twice gives the same times. */
struct compute_only {
    uint32_t *done;
};

static uint32_t compute_next(void *ctx, uint32_t r, struct dmpi_op *out,
                             uint32_t cap)
{
    struct compute_only *c = ctx;
    (void)cap;
    if (c->done[r]++ >= 3)
        return 0;
    out[0] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                               .arg = 10 * SIMTIME_US };
    out[1] = (struct dmpi_op){ .code = DMPI_MARK };
    return 2;
}

static simtime quiet_job(bool congestor, simtime *cong_end)
{
    struct mpi_h h;
    simtime end = 0;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return 0;
    }
    uint32_t quiet[4] = { 0, 1, 2, 3 };
    uint32_t busy[16];
    for (uint32_t i = 0; i < 16; i++)
        busy[i] = 4 + i;
    uint32_t done[4] = { 0 };
    struct compute_only c = { done };
    struct micro mb;
    char err[128];
    struct micro_params mp = { .kind = MICRO_INCAST, .bytes = 65536,
                               .iterations = 1000 };
    CHECK(micro_init(&mb, &mp, 16, err, sizeof err) == 0);
    struct dmpi_job_spec js[2] = {
        { .name = "quiet", .nodes = quiet, .n_nodes = 4, .ppn = 1,
          .app = { .ctx = &c, .next = compute_next } },
        { .name = "incast", .nodes = busy, .n_nodes = 16, .ppn = 1,
          .app = micro_app(&mb), .background = true },
    };
    if (mpi_h_start(&h, NULL, js, congestor ? 2 : 1) == 0 && mpi_h_run(&h) == 0) {
        end = h.m.res[0].end;
        CHECK_EQ_U(h.m.res[0].n_iter, 3);
        if (congestor) {
            CHECK(!h.m.res[1].finished); /* stopped with the victim */
            CHECK(h.m.res[1].msgs >= 15); /* every sender's first */
            if (cong_end)
                *cong_end = h.s.now;
        }
    }
    micro_free(&mb);
    mpi_h_teardown(&h);
    return end;
}

static void test_jobs_and_determinism(void)
{
    simtime alone = quiet_job(false, NULL);
    simtime now1 = 0, now2 = 0;
    simtime beside = quiet_job(true, &now1);
    simtime again = quiet_job(true, &now2);
    CHECK_EQ_U(alone, 30 * SIMTIME_US);
    CHECK_EQ_U(beside, alone);
    CHECK_EQ_U(again, beside);
    CHECK_EQ_U(now1, now2);
}

/* One-sided: PUTs and GETs into rank 0's window complete at the flush
 * (GPCNeT's RMA congestors); a large eager-size unexpected receive and a
 * wildcard receive match in the sender's order. */
struct rma_prog {
    uint32_t *step;
    uint32_t n;
};

static uint32_t rma_next(void *ctx, uint32_t r, struct dmpi_op *out,
                         uint32_t cap)
{
    struct rma_prog *p = ctx;
    (void)cap;
    if (p->step[r]++ > 0)
        return 0;
    uint32_t k = 0;
    if (r != 0) {
        out[k++] = (struct dmpi_op){ .code = DMPI_PUT, .peer = 0,
                                     .bytes = 4096 };
        out[k++] = (struct dmpi_op){ .code = DMPI_GET, .peer = 0,
                                     .bytes = 4096 };
        out[k++] = (struct dmpi_op){ .code = DMPI_FLUSH };
        /* three messages of rising size, same tag: they must be received
         * in this order (non-overtaking) */
        for (uint64_t b = 1; b <= 3; b++)
            out[k++] = (struct dmpi_op){ .code = DMPI_SEND, .peer = 0,
                                         .tag = 7, .bytes = b * 3000 };
    } else {
        out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                     .arg = 50 * SIMTIME_US };
        for (uint32_t s = 1; s < p->n; s++)
            for (uint64_t b = 1; b <= 3; b++) /* exact sizes: truncation
                                                 if out of order */
                out[k++] = (struct dmpi_op){ .code = DMPI_RECV,
                                             .peer = s, .tag = DMPI_ANY,
                                             .bytes = b * 3000 };
    }
    out[k++] = (struct dmpi_op){ .code = DMPI_MARK };
    return k;
}

static void test_one_sided_and_order(void)
{
    struct mpi_h h;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return;
    }
    uint32_t nodes[8];
    for (uint32_t i = 0; i < 8; i++)
        nodes[i] = mpi_h_node_on(&h.t, 11 * i);
    uint32_t step[8] = { 0 };
    struct rma_prog p = { step, 8 };
    struct dmpi_job_spec js = { .name = "rma", .nodes = nodes, .n_nodes = 8,
                                .ppn = 1,
                                .app = { .ctx = &p, .next = rma_next } };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        CHECK(h.m.res[0].finished);
        CHECK_EQ_U(h.m.res[0].msgs, 7 * 3);
        CHECK(h.m.res[0].end > 50 * SIMTIME_US);
        /* the last acknowledgements drain; then every transfer and
         * request has been given back */
        sim_run(&h.s, SIMTIME_MAX);
        CHECK_EQ_U(net_in_flight(&h.n), 0);
        uint32_t xfers, reqs;
        dmpi_in_use(&h.m, &xfers, &reqs);
        CHECK_EQ_U(xfers, 0);
        CHECK_EQ_U(reqs, 0);
    }
    mpi_h_teardown(&h);
}

/* ember's motifs: the grid ember would choose, the neighbours, the
 * messages of an iteration, and sweep3d's wavefront (no rank can finish
 * before its own 8·blocks computations plus the pipeline's fill). */
static void test_ember_motifs(void)
{
    struct ember e;
    char err[160];
    struct ember_params p;
    ember_defaults(&p, EMBER_HALO3D);
    CHECK(ember_init(&e, &p, 12, err, sizeof err) == 0);
    CHECK_EQ_U(e.p.px * 100 + e.p.py * 10 + e.p.pz, 223);
    CHECK_EQ_U(ember_neighbour(&e, 0, 0, -1), UINT32_MAX);
    CHECK_EQ_U(ember_neighbour(&e, 0, 0, +1), 1);
    CHECK_EQ_U(ember_neighbour(&e, 0, 1, +1), 2);
    CHECK_EQ_U(ember_neighbour(&e, 0, 2, +1), 4);
    CHECK_EQ_U(e.t_compute, 2600 * SIMTIME_US); /* 1e6 cells x 26 / 1e10 */
    ember_free(&e);
    p.px = 5;
    CHECK(ember_init(&e, &p, 12, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "does not hold the job's 12 ranks");

    for (int kind = 0; kind < 2; kind++) {
        struct mpi_h h;
        if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
            CHECK(!"setup");
            mpi_h_teardown(&h);
            return;
        }
        ember_defaults(&p, kind ? EMBER_SWEEP3D : EMBER_HALO3D);
        p.nx = p.ny = p.nz = 8;
        p.compute = 2 * SIMTIME_US;
        p.iterations = 2;
        uint32_t nodes[6];
        for (uint32_t i = 0; i < 6; i++)
            nodes[i] = mpi_h_node_on(&h.t, 13 * i);
        CHECK(ember_init(&e, &p, 12, err, sizeof err) == 0);
        struct dmpi_job_spec js = { .name = "ember", .nodes = nodes,
                                    .n_nodes = 6, .ppn = 2,
                                    .app = ember_app(&e) };
        if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
            const struct dmpi_job_result *r = &h.m.res[0];
            CHECK_EQ_U(r->n_iter, 2);
            uint64_t px = e.p.px, py = e.p.py, pz = e.p.pz;
            uint64_t pairs = (px - 1) * py * pz + px * (py - 1) * pz +
                             px * py * (pz - 1);
            if (kind == 0) { /* 2x2x3: faces both ways + allreduce of 12
                                ranks (recursive doubling with fold: 4
                                folds + 3 rounds x 8 + 4 unfolds) */
                CHECK_EQ_U(r->msgs, 2 * (2 * pairs + 4 + 24 + 4));
            } else { /* 3x4: 8 sweeps x 8 blocks, one message per pair */
                CHECK_EQ_U(r->msgs, 2 * 8 * 8 * pairs);
                simtime fill = (px + py - 2) * p.compute;
                CHECK(r->end - r->start >= 2 * 8 * 8 * p.compute + fill);
            }
            fprintf(stderr, "  %s on %ux%ux%u ranks: %.1f us per iteration\n",
                    kind ? "sweep3d" : "halo3d", e.p.px, e.p.py, e.p.pz,
                    (double)(r->iter_end[1] - r->iter_end[0]) / SIMTIME_US);
        }
        ember_free(&e);
        mpi_h_teardown(&h);
    }
}

/* Two ranks of one node: shared memory, no network message; the latency
 * is the two overheads, the shared-memory latency and the copy. */
static void test_same_node(void)
{
    struct mpi_h h;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return;
    }
    uint32_t node = mpi_h_node_on(&h.t, 3);
    struct micro mb;
    char err[128];
    struct micro_params mp = { .kind = MICRO_PINGPONG, .bytes = 1024,
                               .iterations = 4, .peer = 1 };
    CHECK(micro_init(&mb, &mp, 2, err, sizeof err) == 0);
    struct dmpi_job_spec js = { .name = "shm", .nodes = &node, .n_nodes = 1,
                                .ppn = 2, .app = micro_app(&mb) };
    struct dmpi_params p;
    dmpi_defaults(&p);
    if (mpi_h_start(&h, &p, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK_EQ_U(r->msgs, 8);
        CHECK_EQ_U(h.n.st.msgs_sent, 0);
        simtime one = p.o_send + p.shm_latency +
                      1024 * p.copy_ps_per_kib / 1024 + p.o_recv;
        CHECK_EQ_U(r->iter_end[3] - r->iter_end[2], 2 * one);
        uint32_t xfers, reqs;
        dmpi_in_use(&h.m, &xfers, &reqs);
        CHECK_EQ_U(xfers + reqs, 0);
    }
    micro_free(&mb);
    mpi_h_teardown(&h);
}

const struct test_case tests_mpi[] = {
    TEST(test_pingpong_latency_aries),
    TEST(test_pingpong_bandwidth_aries),
    TEST(test_protocol_switches),
    TEST(test_protocol_traffic),
    TEST(test_collectives_run),
    TEST(test_jobs_and_determinism),
    TEST(test_one_sided_and_order),
    TEST(test_ember_motifs),
    TEST(test_same_node),
    { NULL, NULL },
};
