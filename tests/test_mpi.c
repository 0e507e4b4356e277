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
#include "core/registry.h"
#include "core/diag.h"
#include "core/sim.h"
#include "mpi/mpi_internal.h"
#include "mpi/mpi.h"
#include "net/counters.h"
#include "net/net.h"
#include "ctl/cc.h"
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

/* A dual-NIC Slingshot node (Shandy) running two ranks sends through
 * both its NICs, one rank each (topo_rank_nic); one rank a node, through
 * the first alone. */
static void test_two_nics(void)
{
    for (uint32_t ppn = 1; ppn <= 2; ppn++) {
        struct mpi_h h;
        if (mpi_h_setup(&h, "shandy", true) != 0) {
            CHECK(!"setup");
            mpi_h_teardown(&h);
            return;
        }
        uint32_t nodes[2] = { 0, 700 }; /* two groups */
        struct micro mb;
        char err[128];
        struct micro_params mp = { .kind = MICRO_ALLTOALL, .bytes = 65536,
                                   .iterations = 2 };
        CHECK(micro_init(&mb, &mp, 2 * ppn, err, sizeof err) == 0);
        struct dmpi_job_spec js = { .name = "a2a", .nodes = nodes,
                                    .n_nodes = 2, .ppn = ppn,
                                    .app = micro_app(&mb) };
        if (mpi_h_start(&h, NULL, &js, 1) == 0 && mpi_h_run(&h) == 0) {
            CHECK_EQ_U(h.m.res[0].n_iter, 2);
            for (uint32_t k = 0; k < 2; k++)
                for (uint32_t c = 0; c < 2; c++) {
                    uint32_t nic = h.t.nodes[nodes[k]].nic[c];
                    uint64_t flits = h.n.ct.nic[nic].flits[0];
                    if (c < ppn)
                        CHECK(flits > 0);
                    else
                        CHECK_EQ_U(flits, 0);
                }
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

/* Jobs on disjoint groups of an Aries dragonfly (xc-12cab: 6 groups, 12
 * optical cables per group pair). Job A, a latency-bound MPI_Allreduce of
 * 8 bytes, twice, on 16 nodes of group 0 and 16 of group 1; job B, a
 * background congestor on 96 nodes of group 2 and 96 of group 3 (one on
 * every router), every rank streaming 64 KiB messages to and from its
 * partner in the other group: the adversarial pattern of a dragonfly,
 * more than the 48 direct links of the pair carry. A starts 5 us after B.
 *  - minimal routing: every path of A stays in groups 0 and 1, every path
 *    of B in groups 2 and 3; each router draws its random choices from a
 *    stream of its own (net.c: rng_stream(seed, RNG_ROUTER, r)), each NIC
 *    likewise, and event keys count per entity (sim.h). So A's end, every
 *    iteration's end and every rank's end are the same to the picosecond
 *    with B as without; no flit of B reaches A's routers, none enters
 *    groups 4 and 5;
 *  - ADAPTIVE_0 (the Aries default): B's packets that the direct links
 *    cannot take go non-minimally through the other groups, 0 and 1
 *    included (two hundred times A's own flits there). They raise the loads
 *    that A's routers see, and more of A's packets are diverted onto
 *    non-minimal paths of 8 to 10 hops and 1.0 to 1.3 us instead of ~2
 *    hops and ~0.34 us (measured: 10 of A's 1280 packets; 2 alone, where
 *    A's own bursts divert them). Few packets, but on the critical path:
 *    A's first iteration, while B's first wave is in the network, is
 *    ~11 % slower. Later iterations move either way (the second is ~5 %
 *    faster with B here: which packets are diverted changes), so the
 *    check is on the first iteration, and on the whole job ending later
 *    (+2.7 %). */
struct shift_prog {
    uint32_t *iter;
    uint32_t n;
    uint64_t bytes;
};

static uint32_t shift_next(void *ctx, uint32_t r, struct dmpi_op *out,
                           uint32_t cap)
{
    struct shift_prog *p = ctx;
    (void)cap;
    uint32_t peer = (r + p->n / 2) % p->n; /* the other group's rank */
    out[0] = (struct dmpi_op){ .code = DMPI_IRECV, .peer = peer, .tag = 1,
                               .bytes = p->bytes };
    out[1] = (struct dmpi_op){ .code = DMPI_ISEND, .peer = peer, .tag = 1,
                               .bytes = p->bytes };
    out[2] = (struct dmpi_op){ .code = DMPI_WAITALL };
    out[3] = (struct dmpi_op){ .code = DMPI_MARK, .arg = p->iter[r]++ };
    return 4; /* until the foreground job ends */
}

enum { DG_A = 16, DG_B = 96, DG_ITERS = 2 }; /* nodes per group */
#define DG_START (5 * SIMTIME_US)                 /* A's start */

struct dg_outcome {
    bool ok;
    simtime end;
    simtime iter_end[DG_ITERS];
    simtime rank_end[2 * DG_A];
    uint64_t nonmin;      /* packets delivered non-minimally */
    uint64_t flits[3];    /* flits that arrived at the routers of groups
                             0-1, 2-3, 4-5 */
    uint64_t b_msgs;      /* B's messages sent while A ran */
};

/* The first NIC's node of `count` routers of group g, spread over it. */
static void group_nodes(const struct topo *t, uint32_t g, uint32_t count,
                        uint32_t *out)
{
    uint32_t first = UINT32_MAX, size = 0;
    for (uint32_t r = 0; r < t->n_routers; r++)
        if (t->routers[r].group == g) {
            if (first == UINT32_MAX)
                first = r;
            size++;
        }
    CHECK(size >= count);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t r = first + (uint32_t)((uint64_t)i * size / count);
        CHECK_EQ_U(t->routers[r].group, g);
        out[i] = mpi_h_node_on(t, r);
    }
}

/* Flits that arrived at the routers of groups 2k and 2k+1, all ports and
 * VCs (counters on). */
static uint64_t group_pair_flits(const struct net *n, uint32_t k)
{
    uint64_t f = 0;
    for (uint32_t r = 0; r < n->t->n_routers; r++) {
        const struct topo_router *tr = &n->t->routers[r];
        if (tr->group / 2 != k)
            continue;
        for (uint32_t q = 0; q < tr->n_ports; q++)
            for (uint32_t v = 0; v < n->V; v++)
                f += net_ivc_count(net_ivc_at(n, tr->first_port + q, v))
                         ->flits;
    }
    return f;
}

/* mpi_h_setup with routing `routing` and counters; A, and B if with_b. */
static void disjoint_run(const char *routing, bool with_b,
                         struct dg_outcome *o)
{
    memset(o, 0, sizeof *o);
    struct mpi_h h;
    memset(&h, 0, sizeof h);
    diag_init(&h.d);
    const struct routing *rt =
        (const struct routing *)registry_find(&routing_registry, routing);
    CHECK(rt != NULL);
    struct net_params np;
    if (!rt || topo_build_system(&h.t, "xc-12cab", &h.d) != 0 ||
        sim_init(&h.s, EVQ_DEFAULT, net_entities(&h.t)) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return;
    }
    cc_net_defaults(&np, &h.t);
    np.routing = rt;
    np.counters = true;
    if (net_init(&h.n, &h.t, &np, &h.s, 1, &h.d) != 0) {
        CHECK(!"net_init");
        mpi_h_teardown(&h);
        return;
    }
    h.net_ok = true;
    CHECK_EQ_U(h.t.n_groups, 6);

    uint32_t a_nodes[2 * DG_A], b_nodes[2 * DG_B];
    group_nodes(&h.t, 0, DG_A, a_nodes);
    group_nodes(&h.t, 1, DG_A, a_nodes + DG_A);
    group_nodes(&h.t, 2, DG_B, b_nodes);
    group_nodes(&h.t, 3, DG_B, b_nodes + DG_B);
    struct micro mb;
    char err[128];
    struct micro_params mp = { .kind = MICRO_ALLREDUCE, .bytes = 8,
                               .iterations = DG_ITERS };
    CHECK(micro_init(&mb, &mp, 2 * DG_A, err, sizeof err) == 0);
    uint32_t b_iter[2 * DG_B] = { 0 };
    struct shift_prog sp = { b_iter, 2 * DG_B, 65536 };
    struct dmpi_job_spec js[2] = {
        { .name = "A", .nodes = a_nodes, .n_nodes = 2 * DG_A, .ppn = 1,
          .app = micro_app(&mb), .start = DG_START },
        { .name = "B", .nodes = b_nodes, .n_nodes = 2 * DG_B, .ppn = 1,
          .app = { .ctx = &sp, .next = shift_next }, .background = true },
    };
    if (mpi_h_start(&h, NULL, js, with_b ? 2 : 1) == 0 &&
        mpi_h_run(&h) == 0) {
        const struct dmpi_job_result *r = &h.m.res[0];
        CHECK(r->finished);
        CHECK_EQ_U(r->n_iter, DG_ITERS);
        CHECK_EQ_U(r->n_ranks, 2 * DG_A);
        o->ok = r->finished && r->n_iter == DG_ITERS &&
                r->n_ranks == 2 * DG_A;
        if (o->ok) {
            o->end = r->end;
            memcpy(o->iter_end, r->iter_end, sizeof o->iter_end);
            memcpy(o->rank_end, r->rank_end, sizeof o->rank_end);
        }
        o->nonmin = h.n.st.nonmin[0] + h.n.st.nonmin[1];
        for (uint32_t k = 0; k < 3; k++)
            o->flits[k] = group_pair_flits(&h.n, k);
        if (with_b) {
            CHECK(!h.m.res[1].finished); /* stopped with A */
            o->b_msgs = h.m.res[1].msgs;
        }
    }
    micro_free(&mb);
    mpi_h_teardown(&h);
}

/* Microseconds since A's start. */
static double dg_us(simtime t)
{
    return (double)(t - DG_START) / SIMTIME_US;
}

static void test_disjoint_groups(void)
{
    struct dg_outcome ma, mb, aa, ab; /* minimal / adaptive, alone / B */
    disjoint_run("minimal", false, &ma);
    disjoint_run("minimal", true, &mb);
    disjoint_run("ADAPTIVE_0", false, &aa);
    disjoint_run("ADAPTIVE_0", true, &ab);
    CHECK(ma.ok && mb.ok && aa.ok && ab.ok);
    if (!(ma.ok && mb.ok && aa.ok && ab.ok))
        return;
    fprintf(stderr, "  A (8 B allreduce, 32 ranks in groups 0-1), "
            "alone / beside B (groups 2-3):\n"
            "    minimal     %8.3f us / %8.3f us (first iteration "
            "%.3f / %.3f)\n"
            "    ADAPTIVE_0  %8.3f us / %8.3f us (%+.1f %%; first iteration "
            "%.3f / %.3f, %+.1f %%)\n",
            dg_us(ma.end), dg_us(mb.end), dg_us(ma.iter_end[0]),
            dg_us(mb.iter_end[0]), dg_us(aa.end), dg_us(ab.end),
            100.0 * (dg_us(ab.end) / dg_us(aa.end) - 1),
            dg_us(aa.iter_end[0]), dg_us(ab.iter_end[0]),
            100.0 * (dg_us(ab.iter_end[0]) / dg_us(aa.iter_end[0]) - 1));
    for (int k = 0; k < 2; k++) {
        const struct dg_outcome *x = k ? &ab : &mb, *y = k ? &aa : &ma;
        fprintf(stderr, "    %-10s  flits in groups 0-1 %llu (A alone "
                "%llu), 2-3 %llu, 4-5 %llu; non-minimal packets %llu; "
                "B's messages %llu\n", k ? "ADAPTIVE_0" : "minimal",
                (unsigned long long)x->flits[0],
                (unsigned long long)y->flits[0],
                (unsigned long long)x->flits[1],
                (unsigned long long)x->flits[2],
                (unsigned long long)x->nonmin,
                (unsigned long long)x->b_msgs);
    }
    fprintf(stderr, "    A alone under ADAPTIVE_0: %llu non-minimal "
            "packets, %llu flits outside groups 0-1\n",
            (unsigned long long)aa.nonmin,
            (unsigned long long)(aa.flits[1] + aa.flits[2]));

    /* minimal: not a picosecond of difference, not a flit of B in A's
     * groups (nor in 4-5) */
    CHECK_EQ_U(mb.end, ma.end);
    for (uint32_t i = 0; i < DG_ITERS; i++)
        CHECK_EQ_U(mb.iter_end[i], ma.iter_end[i]);
    for (uint32_t r = 0; r < 2 * DG_A; r++)
        CHECK_EQ_U(mb.rank_end[r], ma.rank_end[r]);
    CHECK_EQ_U(mb.flits[0], ma.flits[0]);
    CHECK_EQ_U(ma.flits[1] + ma.flits[2], 0);
    CHECK_EQ_U(mb.flits[2], 0);
    CHECK_EQ_U(ma.nonmin + mb.nonmin, 0);
    CHECK(mb.flits[1] > 0 && mb.b_msgs >= 2 * DG_B);

    /* ADAPTIVE_0: B goes through A's groups (and 4-5), and A is slower,
     * its first iteration by more than 2 % (measured: 10.8 %) */
    CHECK(aa.nonmin < 16);
    CHECK(ab.nonmin > 0);
    CHECK(ab.flits[0] > 10 * aa.flits[0]);
    CHECK(ab.flits[2] > 0);
    CHECK(ab.b_msgs >= 2 * DG_B);
    CHECK(ab.end > aa.end);
    CHECK(dg_us(ab.iter_end[0]) >= 1.02 * dg_us(aa.iter_end[0]));
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
        /* per sender a PUT, a GET and three sends */
        CHECK_EQ_U(h.m.res[0].msgs, 7 * (2 + 3));
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

/* ---- where the packets went (struct dmpi_paths) ------------------------- */

/* What the test's own `delivered` hook counts, before handing each packet
 * on to the layer's: per job, by the NIC that posted the packet's message
 * (each NIC holds one rank of one job), and how often a packet arrived
 * when its poster had already moved to an iteration of the other parity
 * (the marks it has made, from the layer's on_mark). */
static struct {
    void (*layer)(void *ctx, const struct packet *p, simtime now);
    const struct dmpi *m;
    uint32_t *job_of_nic, *rank_of_nic; /* [nics], UINT32_MAX: none */
    uint32_t *marks;                    /* [global rank] */
    uint8_t mode[2];                    /* even iterations, odd ones */
    struct dmpi_paths seen[2];          /* per job */
    uint64_t odd[2];                    /* per job: packets in mode[1] */
    uint64_t crossed;
} pw;

static uint8_t pw_mode(void *ctx, const struct nic_post *q)
{
    (void)ctx;
    return pw.mode[q->iter % 2];
}

static void pw_mark(void *ctx, uint32_t job, uint32_t r, uint32_t i)
{
    (void)ctx;
    pw.marks[dmpi_rank_id(pw.m, job, r)] = i + 1;
}

static void pw_delivered(void *ctx, const struct packet *p, simtime now)
{
    uint32_t nic = p->cls == PKT_REQ ? p->src_nic : p->dst_nic;
    uint32_t j = pw.job_of_nic[nic];
    CHECK(j < 2);
    if (j < 2) {
        struct dmpi_paths *w = &pw.seen[j];
        w->pkts[p->cls]++;
        w->nonmin[p->cls] += (p->flags & PKT_NONMIN) != 0;
        w->hops[p->cls] += p->hops;
        bool odd = p->mode == pw.mode[1];
        pw.odd[j] += odd;
        pw.crossed += (pw.marks[pw.rank_of_nic[nic]] % 2 == 1) != odd;
    }
    pw.layer(ctx, p, now);
}

/* The layer counts every packet of a job's messages, requests and
 * responses, where its message was posted: a job whose even iterations
 * post with minimal routing and odd ones with NMIN_HASH has no
 * non-minimal packet in an even iteration and nothing else in an odd one,
 * although packets of one iteration still arrive after their poster has
 * moved on; its counts over the iterations equal what a hook of the test
 * sees per job and what the network's own statistics count, and, once
 * the network has drained, every request has its response. An alltoall
 * of 16 KiB (GET rendezvous) on 8 nodes beside a 64 KiB ping-pong. */
static void test_paths(void)
{
    struct mpi_h h;
    memset(&pw, 0, sizeof pw);
    if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
        CHECK(!"setup");
        mpi_h_teardown(&h);
        return;
    }
    static const char *const name[2] = { "minimal", "NMIN_HASH" };
    for (int k = 0; k < 2; k++) {
        int i = net_add_mode(&h.n, (const struct routing *)registry_find(
                                       &routing_registry, name[k]));
        CHECK(i > 0);
        pw.mode[k] = (uint8_t)i;
    }
    uint32_t a2a[8], pp[2] = { mpi_h_node_on(&h.t, 300),
                               mpi_h_node_on(&h.t, 500) };
    for (uint32_t r = 0; r < 8; r++)
        a2a[r] = mpi_h_node_on(&h.t, 7 * r);
    struct micro mb[2];
    char err[128];
    struct micro_params mp[2] = {
        { .kind = MICRO_ALLTOALL, .bytes = 16384, .iterations = 6 },
        { .kind = MICRO_PINGPONG, .bytes = 65536, .iterations = 6,
          .peer = 1 } };
    CHECK(micro_init(&mb[0], &mp[0], 8, err, sizeof err) == 0);
    CHECK(micro_init(&mb[1], &mp[1], 2, err, sizeof err) == 0);
    struct dmpi_job_spec js[2] = {
        { .name = "a2a", .nodes = a2a, .n_nodes = 8, .ppn = 1,
          .app = micro_app(&mb[0]) },
        { .name = "pp", .nodes = pp, .n_nodes = 2, .ppn = 1,
          .app = micro_app(&mb[1]) } };
    uint32_t nics = h.t.n_nics;
    pw.job_of_nic = malloc(nics * sizeof *pw.job_of_nic);
    pw.rank_of_nic = malloc(nics * sizeof *pw.rank_of_nic);
    pw.marks = calloc(10, sizeof *pw.marks);
    if (!pw.job_of_nic || !pw.rank_of_nic || !pw.marks ||
        mpi_h_start(&h, NULL, js, 2) != 0) {
        CHECK(!"start");
        goto done;
    }
    for (uint32_t i = 0; i < nics; i++)
        pw.job_of_nic[i] = pw.rank_of_nic[i] = UINT32_MAX;
    for (uint32_t j = 0; j < 2; j++)
        for (uint32_t r = 0; r < js[j].n_nodes; r++) {
            uint32_t g = dmpi_rank_id(&h.m, j, r);
            pw.job_of_nic[dmpi_rank_nic(&h.m, g)] = j;
            pw.rank_of_nic[dmpi_rank_nic(&h.m, g)] = g;
        }
    pw.m = &h.m;
    pw.layer = h.n.hooks.delivered;
    CHECK(pw.layer != NULL);
    h.n.hooks.delivered = pw_delivered;
    h.m.route_mode = pw_mode;
    h.m.on_mark = pw_mark;
    if (!pw.layer || mpi_h_run(&h) != 0)
        goto done;
    sim_run(&h.s, SIMTIME_MAX); /* the last responses home */
    CHECK_EQ_U(net_in_flight(&h.n), 0);
    struct dmpi_paths all;
    memset(&all, 0, sizeof all);
    for (uint32_t j = 0; j < 2; j++) {
        const struct dmpi_job_result *r = &h.m.res[j];
        CHECK_EQ_U(r->n_iter, 6);
        CHECK(r->n_paths >= r->n_iter);
        struct dmpi_paths sum;
        memset(&sum, 0, sizeof sum);
        uint64_t odd = 0;
        for (uint32_t k = 0; k < r->n_paths; k++) {
            const struct dmpi_paths *w = &r->paths[k];
            uint64_t n = w->pkts[0] + w->pkts[1];
            uint64_t nm = w->nonmin[0] + w->nonmin[1];
            CHECK(k >= r->n_iter || n > 0);
            CHECK_EQ_U(nm, k % 2 ? n : 0);
            odd += k % 2 ? n : 0;
            dmpi_paths_add(&sum, w);
        }
        CHECK_EQ_U(odd, pw.odd[j]);
        for (int c = 0; c < 2; c++) {
            CHECK_EQ_U(sum.pkts[c], pw.seen[j].pkts[c]);
            CHECK_EQ_U(sum.nonmin[c], pw.seen[j].nonmin[c]);
            CHECK_EQ_U(sum.hops[c], pw.seen[j].hops[c]);
        }
        CHECK_EQ_U(sum.pkts[PKT_REQ], sum.pkts[PKT_RSP]);
        CHECK(sum.nonmin[PKT_REQ] > 0 && sum.hops[PKT_REQ] > 0);
        dmpi_paths_add(&all, &sum);
    }
    for (int c = 0; c < 2; c++) {
        CHECK_EQ_U(all.pkts[c], h.n.st.delivered[c]);
        CHECK_EQ_U(all.nonmin[c], h.n.st.nonmin[c]);
    }
    CHECK_EQ_U(all.hops[0] + all.hops[1], h.n.st.hops);
    /* what the test is about: packets that arrive after their poster has
     * moved on to the next iteration */
    CHECK(pw.crossed > 0);
done:
    micro_free(&mb[0]);
    micro_free(&mb[1]);
    free(pw.job_of_nic);
    free(pw.rank_of_nic);
    free(pw.marks);
    mpi_h_teardown(&h);
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

/* Host noise (mpi.h noise_period): the detour arithmetic by hand
 * (period 100, detour 10, phase 0: stops at [0, 10), [100, 110), ...),
 * then an alltoall of 8 ranks on one node — no network — whose
 * iterations all take the same time without noise and spread with it
 * (SC'19 §3.3, Fig. 4), the same again with the same seed. */
static void test_host_noise(void)
{
    CHECK_EQ_U(host_noise(0, 5, 100, 10, 0), 15);     /* waits the stop */
    CHECK_EQ_U(host_noise(50, 30, 100, 10, 0), 30);   /* misses it */
    CHECK_EQ_U(host_noise(50, 60, 100, 10, 0), 70);   /* meets one */
    CHECK_EQ_U(host_noise(50, 140, 100, 10, 0), 150); /* ends as one starts */
    CHECK_EQ_U(host_noise(50, 141, 100, 10, 0), 161); /* meets two */
    CHECK_EQ_U(host_noise(35, 1, 100, 10, 30), 6);    /* phase 30: [30, 40) */
    CHECK_EQ_U(host_noise(250, 900, 100, 10, 0), 1000); /* 10 periods */
    simtime spread[2] = { 0, 0 }, mean[2] = { 0, 0 }, again = 0;
    for (int run = 0; run < 3; run++) {
        struct mpi_h h;
        if (mpi_h_setup(&h, "xc-12cab", false) != 0) {
            CHECK(!"setup");
            mpi_h_teardown(&h);
            return;
        }
        uint32_t node = mpi_h_node_on(&h.t, 5);
        struct micro mb;
        char err[128];
        struct micro_params mp = { .kind = MICRO_ALLTOALL, .bytes = 1024,
                                   .iterations = 40 };
        CHECK(micro_init(&mb, &mp, 8, err, sizeof err) == 0);
        struct dmpi_job_spec js = { .name = "a2a", .nodes = &node,
                                    .n_nodes = 1, .ppn = 8,
                                    .app = micro_app(&mb) };
        struct dmpi_params p;
        dmpi_defaults(&p);
        int noisy = run > 0;
        if (noisy) {
            p.noise_period = 100 * SIMTIME_US;
            p.noise_detour = 10 * SIMTIME_US;
            p.noise_seed = 7;
        }
        if (mpi_h_start(&h, &p, &js, 1) == 0 && mpi_h_run(&h) == 0) {
            const struct dmpi_job_result *r = &h.m.res[0];
            CHECK_EQ_U(h.n.st.msgs_sent, 0); /* shared memory only */
            CHECK_EQ_U(r->n_iter, 40);
            simtime lo = SIMTIME_MAX, hi = 0, sum = 0;
            for (uint32_t i = 1; i < r->n_iter; i++) {
                simtime t = r->iter_time[i];
                lo = t < lo ? t : lo;
                hi = t > hi ? t : hi;
                sum += t;
            }
            if (run < 2) {
                spread[noisy] = hi - lo;
                mean[noisy] = sum / (r->n_iter - 1);
            } else {
                again = sum / (r->n_iter - 1);
            }
        }
        micro_free(&mb);
        mpi_h_teardown(&h);
    }
    fprintf(stderr, "  alltoall on one node: mean %.3f us, spread %.3f us; "
                    "with noise %.3f us, spread %.3f us\n",
            (double)mean[0] / SIMTIME_US, (double)spread[0] / SIMTIME_US,
            (double)mean[1] / SIMTIME_US, (double)spread[1] / SIMTIME_US);
    CHECK_EQ_U(spread[0], 0);
    CHECK(spread[1] > 0);
    CHECK(mean[1] > mean[0]);
    CHECK_EQ_U(again, mean[1]);
}

const struct test_case tests_mpi[] = {
    TEST(test_pingpong_latency_aries),
    TEST(test_pingpong_bandwidth_aries),
    TEST(test_protocol_switches),
    TEST(test_protocol_traffic),
    TEST(test_two_nics),
    TEST(test_collectives_run),
    TEST(test_jobs_and_determinism),
    TEST(test_disjoint_groups),
    TEST(test_one_sided_and_order),
    TEST(test_ember_motifs),
    TEST(test_same_node),
    TEST(test_host_noise),
    TEST(test_paths),
    { NULL, NULL },
};
