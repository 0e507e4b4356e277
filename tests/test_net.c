/* tests/test_net.c — the network model (net/) and routing (route/).
 *
 * Zero-load latency against the formula (routers x pipeline delay + wire
 * latencies + the slowest serialization), the Aries quiet-network figures
 * (about 100 ns per hop, under 2 us between any two nodes), packet sizes
 * as the papers give them, conservation and deadlock freedom of every
 * routing mode under saturating adversarial and incast bursts (with a
 * no-progress watchdog), the dimension-order/segment VC discipline, and
 * determinism (same seed, either event queue: identical results). */
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/rng.h"
#include "core/sim.h"
#include "exp/traffic.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/builders.h"
#include "topo/topo.h"

#include "mpi_util.h"

struct h {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    /* path of the traced packet */
    uint32_t path[64];
    simtime path_t[64];
    uint32_t path_len;
    uint32_t trace_pkt_src; /* trace request packets from this NIC */
    simtime delivered_at, created_at;
    uint32_t delivered_hops;
    uint64_t hash;
    uint64_t delivered;
    uint32_t max_vc_seen;
    int bad_vc; /* a hop on a VC outside the packet's class */
    int vc_fell;    /* a router-to-router hop onto a lower VC */
    int local_same; /* a local hop after a local hop on the same VC */
};

static void hop_hook(void *ctx, const struct packet *p, uint32_t port,
                     bool at_nic, simtime waited, simtime now)
{
    (void)at_nic;
    (void)waited;
    struct h *h = ctx;
    if (p->cls == PKT_REQ && p->src_nic == h->trace_pkt_src &&
        h->path_len < 64) {
        h->path[h->path_len] = port;
        h->path_t[h->path_len++] = now;
    }
    uint32_t lo = p->cls * h->n.p.vcs, hi = lo + h->n.p.vcs;
    if (h->n.t->ports[port].peer != TOPO_NONE &&
        (p->out_vc < lo || p->out_vc >= hi))
        h->bad_vc++;
    /* on a dragonfly, along a route the VCs never fall (they climb at the
     * segments' ends); the class of the port it came in by and of the one
     * it leaves by */
    const struct net *n = &h->n;
    if (at_nic || p->in_port == NET_NONE || n->t->ports[port].peer == TOPO_NONE ||
        topo_is(n->t->family, TOPO_SHAPE_TORUS))
        return;
    if (p->out_vc < p->vc)
        h->vc_fell++;
    if (n->port_class[p->in_port] == PCLASS_LOCAL &&
        n->port_class[port] == PCLASS_LOCAL && p->out_vc == p->vc)
        h->local_same++;
}

static void delivered_hook(void *ctx, const struct packet *p, simtime now)
{
    struct h *h = ctx;
    h->delivered++;
    h->hash = (h->hash ^ (now + 31u * p->src_nic + 7919u * p->dst_nic +
                          p->cls)) * 0x100000001b3ULL;
    if (p->cls == PKT_REQ && p->src_nic == h->trace_pkt_src) {
        h->delivered_at = now;
        h->created_at = net_pkt_cold(&h->n, p)->t_created;
        h->delivered_hops = p->hops;
    }
}

/* h's topology (a named system, or the dragonfly dp) and its simulator;
 * the network is set up by setup_net. 0 or -1. */
static int setup_base(struct h *h, const char *system,
                      const struct dragonfly_params *dp, enum evq_impl impl)
{
    memset(h, 0, sizeof *h);
    diag_init(&h->d);
    h->hash = 0xcbf29ce484222325ULL;
    h->trace_pkt_src = UINT32_MAX;
    int rc;
    if (system) {
        rc = topo_build_system(&h->t, system, &h->d);
    } else {
        union topo_params p;
        p.dragonfly = *dp;
        rc = topo_build(&h->t, &topo_builder_dragonfly, &p, "df", "df",
                        &h->d, NULL);
    }
    if (rc != 0)
        return -1;
    return sim_init(&h->s, impl, net_entities(&h->t)) != 0 ? -1 : 0;
}

/* h's network with parameters np, its hooks tracing and hashing. */
static int setup_net(struct h *h, const struct net_params *np, uint64_t seed)
{
    if (net_init(&h->n, &h->t, np, &h->s, seed, &h->d) != 0)
        return -1;
    h->n.hooks = (struct net_hooks){ .ctx = h, .hop = hop_hook,
                                     .delivered = delivered_hook };
    return 0;
}

static int setup_topo(struct h *h, const char *system,
                      const struct dragonfly_params *dp,
                      const char *routing, enum evq_impl impl, uint64_t seed)
{
    if (setup_base(h, system, dp, impl) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &h->t);
    if (routing) {
        np.routing = (const struct routing *)registry_find(&routing_registry,
                                                           routing);
        if (!np.routing)
            return -1;
    }
    return setup_net(h, &np, seed);
}

static void teardown(struct h *h)
{
    net_free(&h->n);
    sim_free(&h->s);
    topo_free(&h->t);
}

static struct dragonfly_params small_df(void)
{
    union topo_params p;
    topo_builder_dragonfly.defaults(&p);
    p.dragonfly.p = 2;
    p.dragonfly.a = 4;
    p.dragonfly.h = 2;
    p.dragonfly.g = 0; /* a*h + 1 = 9 groups, 72 nodes */
    return p.dragonfly;
}

/* Latency the model must give a lone packet along the traced path (links
 * 0..L-1, NIC link first): every router crossed adds the pipeline delay D,
 * every link its wire latency w, and with virtual cut-through the tail
 * leaves link i no sooner than the head left it plus the serialization
 * s_i there. The head leaves link i at sum_{j<i} (w_j + D), so
 *   latency = max_i [ sum_{j<i} (w_j + D) + s_i + sum_{j>=i} w_j ]
 *           = (L-1) D + sum w + max_i [ s_i - (L-1-i) D ]  (for s_i < D:
 *             the last link's serialization; a slower link earlier is
 *             hidden by the pipeline delay downstream). */
static simtime expected_latency(const struct h *h, uint32_t flits)
{
    simtime best = 0;
    uint32_t L = h->path_len;
    simtime head = 0; /* head leaves link i */
    for (uint32_t i = 0; i < L; i++) {
        simtime ser = (simtime)(((uint64_t)flits *
                                 h->n.out[h->path[i]].ser_fp + 1023) >> 10);
        simtime rest = 0;
        for (uint32_t j = i; j < L; j++)
            rest += h->t.ports[h->path[j]].latency;
        simtime cand = head + ser + rest;
        if (cand > best)
            best = cand;
        head += h->t.ports[h->path[i]].latency + h->n.p.router_delay;
    }
    return best;
}

/* Send one PUT of `bytes` from src to dst on a quiet network, run to the
 * end, and return its latency (request created -> tail delivered). */
static simtime lone_packet(struct h *h, uint32_t src, uint32_t dst,
                           uint32_t bytes)
{
    h->path_len = 0;
    h->trace_pkt_src = src;
    h->delivered_at = 0;
    net_send(&h->n, src, dst, NET_PUT, bytes, 0, 0);
    sim_run(&h->s, SIMTIME_MAX);
    return h->delivered_at - h->created_at;
}

static void test_zero_load_formula(void)
{
    static const char *const systems[] = { "df1056", "xc-12cab", "malbec",
                                           "cielo", "voltrino" };
    for (size_t k = 0; k < sizeof systems / sizeof systems[0]; k++) {
        struct h h;
        if (setup_topo(&h, systems[k], NULL, NULL, EVQ_DEFAULT, 1) != 0) {
            CHECK(!"setup");
            continue;
        }
        struct rng r = rng_stream(3, RNG_TEST, k);
        uint32_t bytes = h.n.p.max_payload;
        uint32_t flits = net_req_flits(&h.n.p, NET_PUT, bytes);
        int mismatches = 0;
        for (int i = 0; i < 40; i++) {
            uint32_t a = rng_below(&r, h.t.n_nics);
            uint32_t b = rng_below(&r, h.t.n_nics);
            simtime lat = lone_packet(&h, a, b, bytes);
            simtime want = expected_latency(&h, flits);
            if (lat != want && mismatches++ < 3)
                fprintf(stderr, "  %s: %u->%u: %llu ps, formula %llu ps "
                        "(%u links)\n", systems[k], a, b,
                        (unsigned long long)lat, (unsigned long long)want,
                        h.path_len);
            /* the response came back too */
            CHECK_EQ_U(h.n.st.delivered[PKT_RSP], h.n.st.delivered[PKT_REQ]);
        }
        CHECK_EQ_U(mismatches, 0);
        CHECK(net_check_drained(&h.n, &h.d) == 0);
        teardown(&h);
    }
}

/* XC white paper, "Aries Performance": about 100 ns per router-to-router
 * hop on a quiet network, at most 500 ns for minimal routes, and under
 * 2 us between any two nodes. */
static void test_aries_quiet_latency(void)
{
    struct h h;
    if (setup_topo(&h, "xc-12cab", NULL, "ADAPTIVE_0", EVQ_DEFAULT, 2) != 0) {
        CHECK(!"setup");
        return;
    }
    struct rng r = rng_stream(4, RNG_TEST, 0);
    simtime worst = 0;
    double per_hop_sum = 0;
    uint32_t per_hop_n = 0;
    simtime base = 0;
    /* same-router latency: what is not a router-to-router hop */
    base = lone_packet(&h, 0, 1, 8);
    CHECK_EQ_U(h.delivered_hops, 0);
    for (int i = 0; i < 300; i++) {
        uint32_t a = rng_below(&r, h.t.n_nics);
        uint32_t b = rng_below(&r, h.t.n_nics);
        simtime lat = lone_packet(&h, a, b, 8);
        if (lat > worst)
            worst = lat;
        CHECK(h.delivered_hops <= 5); /* quiet: minimal paths */
        if (h.delivered_hops > 0) {
            per_hop_sum += (double)(lat - base) / h.delivered_hops;
            per_hop_n++;
        }
    }
    double per_hop_ns = per_hop_sum / per_hop_n / 1000.0;
    CHECK(per_hop_ns > 95.0 && per_hop_ns < 125.0);
    CHECK(worst < 2 * SIMTIME_US);
    CHECK(h.n.st.nonmin[PKT_REQ] == 0);
    teardown(&h);
}

/* Packet sizes: XC white paper (64 B PUT = 14 + 1 flits, GET = 3 + 12),
 * Pedretti et al. (Gemini PUT 32 + 3 phits, GET 8 + 27), SC'20 (4 KiB +
 * 62 B of headers). */
static void test_packet_formats(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    struct net_params p;
    CHECK(topo_build_system(&t, "voltrino", &d) == 0);
    cc_net_defaults(&p, &t);
    CHECK_EQ_U(net_req_flits(&p, NET_PUT, 64), 14);
    CHECK_EQ_U(net_rsp_flits(&p, NET_PUT, 64), 1);
    CHECK_EQ_U(net_req_flits(&p, NET_GET, 64), 3);
    CHECK_EQ_U(net_rsp_flits(&p, NET_GET, 64), 12);
    CHECK_EQ_U(p.nic_gap, 6250); /* 5 cycles at 800 MHz */
    topo_free(&t);
    CHECK(topo_build_system(&t, "cielo", &d) == 0);
    cc_net_defaults(&p, &t);
    CHECK_EQ_U(net_req_flits(&p, NET_PUT, 64), 32);
    CHECK_EQ_U(net_rsp_flits(&p, NET_PUT, 64), 3);
    CHECK_EQ_U(net_req_flits(&p, NET_GET, 64), 8);
    CHECK_EQ_U(net_rsp_flits(&p, NET_GET, 64), 27);
    /* 105 bytes on the wire per 64 of data: 61 % efficiency */
    CHECK_EQ_U(3 * (net_req_flits(&p, NET_PUT, 64) +
                    net_rsp_flits(&p, NET_PUT, 64)), 105);
    topo_free(&t);
    CHECK(topo_build_system(&t, "malbec", &d) == 0);
    cc_net_defaults(&p, &t);
    CHECK_EQ_U(net_req_flits(&p, NET_PUT, 4096), 4096 + 62);
    CHECK(p.router == NET_ROUTER_VOQ);
    topo_free(&t);
}

/* A message larger than a packet is cut into max_payload packets, each
 * answered; the message completes once. */
static uint32_t done_count;
static void count_done(void *ctx, uint32_t m, const struct message *msg,
                       simtime now)
{
    done_count++;
}

static void test_message_packetisation(void)
{
    struct h h;
    struct dragonfly_params dp = small_df();
    if (setup_topo(&h, NULL, &dp, "minimal", EVQ_DEFAULT, 5) != 0) {
        CHECK(!"setup");
        return;
    }
    h.n.hooks.msg_done = count_done;
    done_count = 0;
    net_send(&h.n, 0, 40, NET_PUT, 1000, 0, 0); /* 16 packets of <= 64 B */
    net_send(&h.n, 3, 41, NET_GET, 64 * 5, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK_EQ_U(h.n.st.injected[PKT_REQ], 16 + 5);
    CHECK_EQ_U(h.n.st.delivered[PKT_RSP], 16 + 5);
    CHECK_EQ_U(done_count, 2);
    /* GET data travels in responses: 5 x 64 B */
    CHECK_EQ_U(h.n.st.flits_delivered[PKT_RSP],
               16 * net_rsp_flits(&h.n.p, NET_PUT, 64) +
               5 * net_rsp_flits(&h.n.p, NET_GET, 64));
    CHECK(net_check_drained(&h.n, &h.d) == 0);
    teardown(&h);
}

/* A GET exchange on an Aries: NIC a GETs 256 KiB from NIC b (one way), or
 * a and b GET 256 KiB from each other at once (both ways, as osu_bibw's
 * GET rendezvous sizes do), under NIC arbitration `arb`. Each NIC's
 * requests and responses share the path into the network; with both
 * ways each NIC answers the other's GETs while it sends its own. Returns
 * when the last message completed. */
static simtime last_done;
static void note_done(void *ctx, uint32_t m, const struct message *msg,
                      simtime now)
{
    (void)ctx;
    (void)m;
    (void)msg;
    last_done = now;
}

static simtime get_exchange(enum net_nic_arb arb, bool both)
{
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    diag_init(&d);
    simtime end = 0;
    if (topo_build_system(&t, "crystal", &d) != 0)
        return 0;
    if (sim_init(&s, EVQ_DEFAULT, net_entities(&t)) == 0) {
        struct net_params np;
        cc_net_defaults(&np, &t);
        np.nic_arb = (uint8_t)arb;
        if (net_init(&n, &t, &np, &s, 1, &d) == 0) {
            n.hooks = (struct net_hooks){ .msg_done = note_done };
            uint32_t a = 0, b = 8; /* routers 0 and 2 of one chassis */
            last_done = 0;
            net_send(&n, a, b, NET_GET, 256 * 1024, 0, 0);
            if (both)
                net_send(&n, b, a, NET_GET, 256 * 1024, 0, 0);
            sim_run(&s, SIMTIME_MAX);
            if (net_check_drained(&n, &d) == 0)
                end = last_done;
            net_free(&n);
        }
        sim_free(&s);
    }
    topo_free(&t);
    return end;
}

/* Resident memory of this process, bytes (/proc/self/statm), or 0. */
static size_t resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long size = 0, res = 0;
    int got = fscanf(f, "%lu %lu", &size, &res);
    fclose(f);
    return got == 2 ? (size_t)res * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

/* mpi_h_setup_tuned's hook, called just before net_init: the resident
 * memory then. */
static void note_resident(struct net_params *np, void *ctx)
{
    (void)np;
    *(size_t *)ctx = resident_bytes();
}

/* A network is built without touching the records of routers no traffic
 * reaches: its system-sized arrays are mapped and backed on first touch
 * (core/zmem.h), and an empty row buffer, column buffer and input VC
 * are all zeros. On Cori (13,056 nodes; the row buffers alone are 160
 * MiB) building the network makes resident well under half of what its
 * arrays hold; one message then crosses it and it drains, the untouched
 * buffers reading as empty. */
static void test_idle_routers_untouched(void)
{
    struct mpi_h h;
    size_t before = 0;
    if (mpi_h_setup_tuned(&h, "cori", note_resident, &before) != 0) {
        CHECK(!"cori's network builds");
        mpi_h_teardown(&h);
        return;
    }
    size_t after = resident_bytes(), held = net_bytes(&h.n);
    size_t grew = after > before ? after - before : 0;
    fprintf(stderr, "  cori's network: %.0f MiB of arrays, %.0f MiB made "
            "resident by building it\n", held / 1048576.0,
            grew / 1048576.0);
    CHECK(before > 0);
    CHECK(held > (size_t)200 << 20);
    CHECK(grew < held / 2);
    last_done = 0;
    h.n.hooks = (struct net_hooks){ .msg_done = note_done };
    net_send(&h.n, 0, h.t.n_nics - 1, NET_PUT, 4096, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(last_done > 0);
    CHECK(net_check_drained(&h.n, &h.d) == 0);
    mpi_h_teardown(&h);
}

/* Requests and responses take turns on a NIC's path into the network: a
 * GET exchange both ways then moves close to twice the data of one way in
 * the same time (the XC white paper: bidirectional bandwidths above
 * 15 GB/s against ~8 GB/s one way), where a NIC that always sends its
 * responses first starves its own GETs while it answers the other's. */
static void test_nic_arbitration(void)
{
    simtime one = get_exchange(NET_NIC_ARB_ROUND_ROBIN, false);
    simtime rr = get_exchange(NET_NIC_ARB_ROUND_ROBIN, true);
    simtime rf = get_exchange(NET_NIC_ARB_RESPONSES_FIRST, true);
    CHECK(one > 0 && rr > 0 && rf > 0);
    double gbs = 256.0 * 1024.0 / (double)one * 1e3; /* ps -> GB/s */
    fprintf(stderr, "  256 KiB GET: one way %.2f GB/s; both ways %.2f GB/s "
            "round-robin, %.2f responses-first\n", gbs,
            2 * 256.0 * 1024.0 / (double)rr * 1e3,
            2 * 256.0 * 1024.0 / (double)rf * 1e3);
    CHECK((double)rr < 1.3 * (double)one);
    CHECK((double)rf > 1.2 * (double)rr);
}

/* Every delivery's time and packet, folded into *(uint64_t *)ctx. */
/* Long streams on an Aries whose buffers hold `buf` flits per VC: NIC 0
 * PUTs 2 MiB to NIC 8 while NIC 3 PUTs 1 MiB to it and NIC 8 GETs 1 MiB
 * from NIC 0. Returns the hash of the deliveries, 0 if it did not
 * drain. */
static uint64_t stream_run(uint32_t buf)
{
    struct h h;
    if (setup_base(&h, "crystal", NULL, EVQ_DEFAULT) != 0)
        return 0;
    struct net_params np;
    cc_net_defaults(&np, &h.t);
    np.buf_local = np.buf_global = np.buf_endpoint = buf;
    if (setup_net(&h, &np, 1) != 0)
        return 0;
    net_send(&h.n, 0, 8, NET_PUT, 2u << 20, 0, 0);
    net_send(&h.n, 3, 8, NET_PUT, 1u << 20, 0, 0);
    net_send(&h.n, 8, 0, NET_GET, 1u << 20, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    uint64_t hash = net_check_drained(&h.n, &h.d) == 0 ? h.hash : 0;
    teardown(&h);
    return hash;
}

/* Buffers of more than 65,535 flits: a port's credit block holds 16 bits
 * of credits per VC, and what goes past them is kept in the output-VC
 * record (net_internal.h, net_cr_add; an endpoint port's NICs start with
 * all their credits there). Streams that never run short of credits with
 * 60,000 flits a VC give the same deliveries with 100,000, and every
 * credit comes back (net_check_drained). */
static void test_big_buffers(void)
{
    uint64_t small = stream_run(60000), big = stream_run(100000);
    CHECK(small != 0);
    CHECK(big != 0);
    CHECK(small == big);
}

/* Saturating burst: every NIC queues `msgs` messages of `bytes` to the
 * pattern's destinations; run with a no-progress watchdog. Returns 0 if
 * everything drained. */
enum pattern { PAT_WORST, PAT_INCAST, PAT_UNIFORM };

static int burst(struct h *h, enum pattern pat, uint32_t msgs,
                 uint32_t bytes, simtime watchdog)
{
    struct rng r = rng_stream(11, RNG_TEST, pat);
    uint32_t N = h->t.n_nics, G = h->t.n_groups;
    for (uint32_t i = 0; i < msgs; i++)
        for (uint32_t src = 0; src < N; src++) {
            uint32_t dst;
            if (pat == PAT_INCAST) {
                dst = 0;
            } else if (pat == PAT_WORST && G > 1) {
                uint32_t g = h->t.routers[h->t.nics[src].router].group;
                uint32_t tg = (g + 1) % G;
                do
                    dst = rng_below(&r, N);
                while (h->t.routers[h->t.nics[dst].router].group != tg);
            } else {
                dst = rng_below(&r, N);
            }
            if (dst == src)
                dst = (dst + 1) % N;
            net_send(&h->n, src, dst, NET_PUT, bytes, 0, 0);
        }
    simtime t = 0;
    uint64_t last = 0;
    while (net_in_flight(&h->n) || h->n.msg_live) {
        t += watchdog;
        sim_run(&h->s, t);
        uint64_t d = h->n.st.delivered[0] + h->n.st.delivered[1];
        if (d == last)
            return -1; /* no progress for a whole watchdog period */
        last = d;
    }
    return 0;
}

static void test_no_deadlock_all_modes(void)
{
    static const char *const modes[] = {
        "minimal", "valiant", "UGAL", "ADAPTIVE_0", "ADAPTIVE_1",
        "ADAPTIVE_2", "ADAPTIVE_3", "MIN_HASH", "NMIN_HASH", "IN_ORDER",
        "SS_ADAPTIVE" };
    for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
        for (int pat = PAT_WORST; pat <= PAT_INCAST; pat++) {
            struct h h;
            struct dragonfly_params dp = small_df();
            if (setup_topo(&h, NULL, &dp, modes[k], EVQ_DEFAULT, 7) != 0) {
                CHECK(!"setup");
                continue;
            }
            int rc = burst(&h, (enum pattern)pat,
                           pat == PAT_INCAST ? 20 : 200, 64,
                           20 * SIMTIME_US);
            if (rc != 0)
                fprintf(stderr, "  %s pattern %d: no progress\n", modes[k],
                        pat);
            CHECK(rc == 0);
            CHECK(net_check_drained(&h.n, &h.d) == 0);
            CHECK_EQ_U(h.bad_vc, 0);
            teardown(&h);
        }
    }
}

/* Aries: a two-group system under the worst-case pattern with every
 * Aries mode (green/black dimension order, 4 VCs, late diversions), with
 * the other dimension order (local_order "black-first"), and with both
 * orders mixed (local_order "both", vc_rule "hop", 8 VCs) — that one
 * also under uniform traffic, whose routes inside a group take the two
 * orders side by side. Along every route the VCs never fall; with
 * vc_rule "hop" no local hop follows another on its VC (what keeps the
 * mixed orders free of cycles), and with "segment" in one order they
 * do (so the check can fail). */
static void test_no_deadlock_aries(void)
{
    static const char *const modes[] = { "ADAPTIVE_0", "ADAPTIVE_1",
                                         "ADAPTIVE_3", "valiant",
                                         "NMIN_HASH" };
    const size_t n_modes = sizeof modes / sizeof modes[0];
    int same_segment = 0;
    for (size_t k = 0; k < 4 * n_modes; k++) {
        struct h h;
        struct net_params np;
        size_t how = k / n_modes; /* green, black, both, both (uniform) */
        if (setup_base(&h, "crystal", NULL, EVQ_DEFAULT) != 0) {
            CHECK(!"setup");
            continue;
        }
        cc_net_defaults(&np, &h.t);
        np.routing = (const struct routing *)registry_find(
            &routing_registry, modes[k % n_modes]);
        np.local_order = how == 0   ? NET_LOCAL_GREEN_FIRST
                         : how == 1 ? NET_LOCAL_BLACK_FIRST
                                    : NET_LOCAL_BOTH;
        if (how >= 2) {
            np.vc_rule = NET_VC_HOP;
            np.vcs = 8;
        }
        if (!np.routing || setup_net(&h, &np, 9) != 0) {
            CHECK(!"setup");
            continue;
        }
        int rc = how == 3 ? burst(&h, PAT_UNIFORM, 20, 64, 20 * SIMTIME_US)
                          : burst(&h, PAT_WORST, 20, 64, 20 * SIMTIME_US);
        CHECK(rc == 0);
        CHECK(net_check_drained(&h.n, &h.d) == 0);
        CHECK_EQ_U(h.bad_vc, 0);
        CHECK_EQ_U(h.vc_fell, 0);
        if (how >= 2)
            CHECK_EQ_U(h.local_same, 0);
        else
            same_segment += h.local_same;
        teardown(&h);
    }
    CHECK(same_segment > 0);
}

static void test_no_deadlock_torus(void)
{
    struct h h;
    if (setup_topo(&h, "cielo", NULL, NULL, EVQ_DEFAULT, 9) != 0) {
        CHECK(!"setup");
        return;
    }
    CHECK(burst(&h, PAT_UNIFORM, 4, 256, 50 * SIMTIME_US) == 0);
    CHECK(net_check_drained(&h.n, &h.d) == 0);
    teardown(&h);
}

/* Same seed: same results, with either event queue; another seed:
 * different results. */
static uint64_t run_hash(enum evq_impl impl, uint64_t seed)
{
    struct h h;
    struct dragonfly_params dp = small_df();
    if (setup_topo(&h, NULL, &dp, "UGAL", impl, seed) != 0)
        return 0;
    burst(&h, PAT_WORST, 50, 200, 20 * SIMTIME_US);
    uint64_t x = h.hash ^ h.s.events;
    teardown(&h);
    return x;
}

static void test_determinism(void)
{
    uint64_t a = run_hash(EVQ_HEAP4, 1), b = run_hash(EVQ_HEAP4, 1);
    uint64_t c = run_hash(EVQ_PAIRING, 1), d = run_hash(EVQ_HEAP4, 2);
    uint64_t e = run_hash(EVQ_CALENDAR, 1);
    CHECK(a != 0);
    CHECK(a == b);
    CHECK(a == c);
    CHECK(a == e);
    CHECK(a != d);
}


/* ---- latency-load shapes (synthetic traffic through exp/traffic) ---- */

static struct traffic_result shape_run_w(const struct topo *t,
                                         const char *routing,
                                         enum traffic_pattern pat,
                                         double load, double warmup_us,
                                         double measure_us)
{
    struct diag d;
    diag_init(&d);
    struct net_params np;
    cc_net_defaults(&np, t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       routing);
    struct traffic_params tp;
    traffic_defaults(&tp);
    tp.pattern = pat;
    tp.load = load;
    tp.warmup_us = warmup_us;
    tp.measure_us = measure_us;
    tp.drain_us = 4;
    struct traffic_result r;
    memset(&r, 0, sizeof r);
    CHECK(traffic_run(t, &np, &tp, 1, EVQ_DEFAULT, &r, &d) == 0);
    CHECK(!r.deadlock);
    return r;
}

static struct traffic_result shape_run(const struct topo *t,
                                       const char *routing,
                                       enum traffic_pattern pat, double load,
                                       double measure_us)
{
    return shape_run_w(t, routing, pat, load, 1, measure_us);
}

/* df1056 (p=4, a=8, h=4, 33 groups). Uniform random: minimal sustains the
 * highest load, Valiant saturates near half of it, UGAL stays close to
 * minimal. Worst case (group i -> i+1): minimal saturates near
 * 1/(a h) = 1/32 of injection, Valiant sustains far more, UGAL-L lands
 * between them. */
static void test_dragonfly_shapes(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    if (topo_build_system(&t, "df1056", &d) != 0) {
        CHECK(!"df1056");
        return;
    }
    struct traffic_result mu = shape_run(&t, "minimal", TRAFFIC_UNIFORM,
                                         0.9, 2);
    struct traffic_result vu = shape_run(&t, "valiant", TRAFFIC_UNIFORM,
                                         0.9, 2);
    struct traffic_result uu = shape_run(&t, "UGAL", TRAFFIC_UNIFORM, 0.9, 2);
    fprintf(stderr, "  uniform 0.9: accepted minimal %.3f valiant %.3f "
            "UGAL %.3f\n", mu.accepted, vu.accepted, uu.accepted);
    CHECK(mu.accepted > vu.accepted);
    CHECK(vu.accepted > 0.4 * mu.accepted && vu.accepted < 0.7 * mu.accepted);
    CHECK(uu.accepted > 0.9 * mu.accepted);
    CHECK(uu.frac_nonmin < 0.15);
    struct traffic_result mw = shape_run(&t, "minimal", TRAFFIC_WORST_CASE,
                                         0.5, 2);
    struct traffic_result vw = shape_run(&t, "valiant", TRAFFIC_WORST_CASE,
                                         0.5, 2);
    struct traffic_result uw = shape_run(&t, "UGAL", TRAFFIC_WORST_CASE,
                                         0.5, 2);
    fprintf(stderr, "  worst-case 0.5: accepted minimal %.3f valiant %.3f "
            "UGAL %.3f (1/(a h) = %.3f)\n", mw.accepted, vw.accepted,
            uw.accepted, 1.0 / 32);
    CHECK(mw.accepted > 0.5 / 32 && mw.accepted < 1.5 / 32);
    CHECK(vw.accepted > 0.25);
    CHECK(uw.accepted > 2 * mw.accepted && uw.accepted < vw.accepted);
    topo_free(&t);
}

/* Aries modes (SC'19 §2.2): the higher the bias, the more packets go
 * minimally and the lower the latency on a lightly loaded network;
 * ADAPTIVE_0 spreads adversarial traffic over more paths than ADAPTIVE_3.
 * A 3-group XC with 16 optical cables per group pair. The adversarial
 * load, 0.08, is above what minimal routing carries (1/(a h) of the
 * group's injection: 64 links for 384 nodes, ~0.067) and below what the
 * three groups' links carry with Valiant's paths (1.5 times that, with a
 * third group); far beyond it every mode saturates every global link and
 * the modes no longer differ in how they spread. The adaptive modes need
 * a few microseconds to settle on an adversarial load (3 us warm-up, 3
 * measured). */
static void test_aries_mode_order(void)
{
    struct topo t;
    struct diag d;
    diag_init(&d);
    union topo_params p;
    topo_builder_aries.defaults(&p);
    p.aries.groups = 3;
    p.aries.chassis_last = 6;
    p.aries.cables_per_pair = 16;
    if (topo_build(&t, &topo_builder_aries, &p, "xc3", "xc3", &d, NULL)) {
        CHECK(!"xc3");
        return;
    }
    static const char *const modes[] = { "ADAPTIVE_0", "ADAPTIVE_1",
                                         "ADAPTIVE_2", "ADAPTIVE_3" };
    struct traffic_result u[4], w[4];
    for (int k = 0; k < 4; k++) {
        u[k] = shape_run(&t, modes[k], TRAFFIC_UNIFORM, 0.1, 1);
        w[k] = shape_run_w(&t, modes[k], TRAFFIC_WORST_CASE, 0.08, 3, 3);
        fprintf(stderr, "  %s: uniform 0.1 non-minimal %.3f latency %.0f "
                "ns; worst-case 0.08 non-minimal %.3f accepted %.3f\n",
                modes[k], u[k].frac_nonmin, u[k].lat_mean_ns,
                w[k].frac_nonmin, w[k].accepted);
    }
    CHECK(u[0].frac_nonmin > u[2].frac_nonmin);
    CHECK(u[2].frac_nonmin >= u[3].frac_nonmin);
    CHECK(u[0].frac_nonmin > u[1].frac_nonmin);
    CHECK(u[3].lat_mean_ns < u[0].lat_mean_ns);
    CHECK(w[0].frac_nonmin > w[3].frac_nonmin);
    struct traffic_result mw = shape_run_w(&t, "minimal",
                                           TRAFFIC_WORST_CASE, 0.08, 3, 3);
    fprintf(stderr, "  minimal: worst-case 0.08 accepted %.3f\n",
            mw.accepted);
    CHECK(w[0].accepted > mw.accepted);
    topo_free(&t);
}

const struct test_case tests_net[] = {
    TEST(test_packet_formats),
    TEST(test_zero_load_formula),
    TEST(test_aries_quiet_latency),
    TEST(test_message_packetisation),
    TEST(test_nic_arbitration),
    TEST(test_big_buffers),
    TEST(test_no_deadlock_all_modes),
    TEST(test_no_deadlock_aries),
    TEST(test_no_deadlock_torus),
    TEST(test_determinism),
    TEST(test_dragonfly_shapes),
    TEST(test_aries_mode_order),
    TEST(test_idle_routers_untouched),
    { 0 },
};
