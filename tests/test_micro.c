/* tests/test_micro.c — the streaming microbenchmarks (app/micro.h bw and
 * bibw, as OSU's osu_bw and osu_bibw) and the Aries bandwidths the XC
 * white paper reports. */
#include <stdio.h>
#include <string.h>

#include "app/micro.h"
#include "mpi_util.h"
#include "test.h"

/* Drain every op of rank r. */
static uint32_t drain(struct micro *mb, uint32_t r, struct dmpi_op *ops,
                      uint32_t cap)
{
    struct dmpi_app a = micro_app(mb);
    uint32_t n = 0, k;
    while (n < cap && (k = a.next(a.ctx, r, ops + n, 7)) > 0)
        n += k; /* odd batches: iterations straddle calls */
    return n;
}

/* The op streams of osu_bw and osu_bibw, fetched in small batches. */
static void test_stream_ops(void)
{
    struct dmpi_op ops[256];
    struct micro mb;
    char err[128];
    struct micro_params p = { .kind = MICRO_BW, .bytes = 1000,
                              .iterations = 2, .peer = 2, .window = 5 };
    CHECK(micro_init(&mb, &p, 3, err, sizeof err) == 0);
    /* sender: 5 ISEND, WAITALL, RECV ack, MARK; twice */
    uint32_t n = drain(&mb, 0, ops, 256);
    CHECK_EQ_U(n, 16);
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t j = i % 8;
        uint8_t want = j < 5 ? DMPI_ISEND : j == 5 ? DMPI_WAITALL
                                          : j == 6 ? DMPI_RECV : DMPI_MARK;
        CHECK_EQ_U(ops[i].code, want);
        if (j < 5)
            CHECK(ops[i].peer == 2 && ops[i].bytes == 1000 &&
                  ops[i].tag == 0);
        if (j == 6)
            CHECK(ops[i].peer == 2 && ops[i].bytes == 4 &&
                  ops[i].tag == 101);
        if (j == 7)
            CHECK_EQ_U(ops[i].arg, i / 8);
    }
    /* receiver: 5 IRECV, WAITALL, SEND ack, MARK */
    n = drain(&mb, 2, ops, 256);
    CHECK_EQ_U(n, 16);
    CHECK(ops[0].code == DMPI_IRECV && ops[0].peer == 0);
    CHECK(ops[6].code == DMPI_SEND && ops[6].tag == 101 &&
          ops[6].bytes == 4);
    /* a bystander only marks */
    n = drain(&mb, 1, ops, 256);
    CHECK_EQ_U(n, 2);
    CHECK(ops[0].code == DMPI_MARK && ops[1].code == DMPI_MARK);
    micro_free(&mb);

    p.kind = MICRO_BIBW;
    p.compute = 7;
    CHECK(micro_init(&mb, &p, 3, err, sizeof err) == 0);
    /* both: COMPUTE, 5 IRECV, 5 ISEND, WAITALL, MARK */
    for (uint32_t r = 0; r < 3; r += 2) {
        n = drain(&mb, r, ops, 256);
        CHECK_EQ_U(n, 26);
        CHECK(ops[0].code == DMPI_COMPUTE && ops[0].arg == 7);
        CHECK(ops[1].code == DMPI_IRECV && ops[5].code == DMPI_IRECV);
        CHECK(ops[6].code == DMPI_ISEND && ops[10].code == DMPI_ISEND);
        CHECK_EQ_U(ops[6].peer, r == 0 ? 2 : 0);
        CHECK(ops[11].code == DMPI_WAITALL && ops[12].code == DMPI_MARK);
    }
    micro_free(&mb);

    p.window = 0;
    CHECK(micro_init(&mb, &p, 3, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "window");
    p.window = 1;
    p.peer = 0;
    CHECK(micro_init(&mb, &p, 3, err, sizeof err) != 0);
}

/* Seconds per iteration (last iteration) of micro job p between the
 * first nodes of routers ra and rb of xc-12cab. */
static double iter_ns(uint32_t ra, uint32_t rb, struct micro_params p)
{
    struct mpi_h h;
    double ns = -1;
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return ns;
    }
    uint32_t nodes[2] = { mpi_h_node_on(&h.t, ra), mpi_h_node_on(&h.t, rb) };
    struct micro mb;
    char err[128];
    CHECK(micro_init(&mb, &p, 2, err, sizeof err) == 0);
    struct dmpi_job_spec js = { .name = "m", .nodes = nodes, .n_nodes = 2,
                                .ppn = 1, .app = micro_app(&mb) };
    if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK_EQ_U(r->n_iter, p.iterations);
        uint32_t k = r->n_iter - 1;
        ns = (double)(r->iter_end[k] - (k ? r->iter_end[k - 1] : 0)) /
             (double)SIMTIME_NS;
    }
    micro_free(&mb);
    mpi_h_teardown(&h);
    return ns;
}

/* XC white paper, "Aries Performance": user processes reach up to
 * 10 GB/s unidirectional (the NIC reads 64 B every 5 cycles: 10.2 GB/s);
 * with symmetric traffic "requests and responses share data paths" and
 * bulk transfers reach 7.5-8 GB/s each way ("bidirectional bandwidths
 * exceed 15 GB/s, 7.5 GB/s in each direction"). In the model the shared
 * path is the processor tiles: each direction's data flits and the other
 * direction's acknowledgements. Nodes in two groups, 1 MiB messages (PUT
 * rendezvous), a window of 8. (With osu_bw's window of 64 and 256 KiB
 * GET-rendezvous messages the model's bidirectional figure drops to
 * ~10.4 GB/s: not reproduced here, see the note of issue 5.) */
static void test_stream_bandwidth_aries(void)
{
    struct micro_params p = { .kind = MICRO_BW, .bytes = 1 << 20,
                              .iterations = 2, .peer = 1, .window = 8 };
    double bytes = (double)p.bytes * p.window;
    double uni = bytes / iter_ns(0, 100, p);
    p.kind = MICRO_BIBW;
    double bi = 2 * bytes / iter_ns(0, 100, p);
    fprintf(stderr, "  Aries streaming 1 MiB x 8: %.2f GB/s "
            "unidirectional, %.2f GB/s bidirectional (white paper: up to "
            "10, > 15)\n", uni, bi);
    CHECK(uni > 8.5 && uni < 10.3);
    /* each way 6.5 .. 8.5 GB/s: the two directions do not share the
     * NIC's read rate (that would give <= 5.1 each), and share the tiles */
    CHECK(bi > 13.0 && bi < 17.0);
}

const struct test_case tests_micro[] = {
    TEST(test_stream_ops),
    TEST(test_stream_bandwidth_aries),
    { 0 },
};
