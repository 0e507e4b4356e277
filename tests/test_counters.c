/* tests/test_counters.c — the hardware counters (net/counters.h).
 *
 * Modelled on the "sonar" experiments of Pedretti et al. (§V): send a
 * known ping, read the tile and NIC counters, and check what they saw —
 * packet sizes per VC at every tile of the request's and of the response's
 * (different) path, the 105-bytes-per-64 efficiency of Gemini, the Aries
 * flit counts, zero stalls on an idle network, stalls next to the
 * destination and at the senders' NICs under an incast, the SC'19 §2.3
 * derived s and L, the SC'19 Table 1 fallacy (an idle job's tile counters
 * grow with its run time), access control, names, and counting leaving
 * the simulation unchanged. */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "net/counters.h"
#include "net/links.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/builders.h"
#include "topo/topo.h"

struct h {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    /* ports crossed (output ports, NIC links included) per class */
    uint32_t path[2][64];
    uint32_t len[2];
    uint64_t hash;
    /* periodic senders (the Table 1 test) */
    uint32_t *senders;
    uint32_t n_senders;
    simtime period, stop;
};

static void hop_hook(void *ctx, const struct packet *p, uint32_t port,
                     bool at_nic, simtime waited, simtime now)
{
    (void)at_nic;
    (void)waited;
    struct h *h = ctx;
    if (p->index == 0 && h->len[p->cls] < 64) /* a message's first packet */
        h->path[p->cls][h->len[p->cls]++] = port;
    (void)now;
}

static void delivered_hook(void *ctx, const struct packet *p, simtime now)
{
    struct h *h = ctx;
    h->hash = (h->hash ^ (now + 31u * p->src_nic + 7919u * p->dst_nic +
                          p->cls)) * 0x100000001b3ULL;
}

static int setup(struct h *h, const char *system,
                 const struct torus_params *tp, bool counters)
{
    memset(h, 0, sizeof *h);
    diag_init(&h->d);
    h->hash = 0xcbf29ce484222325ULL;
    int rc;
    if (system) {
        rc = topo_build_system(&h->t, system, &h->d);
    } else {
        union topo_params p;
        p.torus = *tp;
        rc = topo_build(&h->t, &topo_builder_torus, &p, "torus", "torus",
                        &h->d, NULL);
    }
    if (rc != 0 || sim_init(&h->s, EVQ_HEAP4, net_entities(&h->t) + 1) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &h->t);
    np.counters = counters;
    if (net_init(&h->n, &h->t, &np, &h->s, 1, &h->d) != 0)
        return -1;
    h->n.hooks = (struct net_hooks){ .ctx = h, .hop = hop_hook,
                                     .delivered = delivered_hook };
    return 0;
}

static void teardown(struct h *h)
{
    net_free(&h->n);
    sim_free(&h->s);
    topo_free(&h->t);
    free(h->senders);
}

static uint64_t val(struct h *h, uint32_t router, uint32_t nic,
                    const char *name)
{
    struct ctr_ref r;
    if (ctr_find(&h->n, router, nic, name, &r) != 0) {
        fprintf(stderr, "  no counter %s on router %u\n", name, router);
        return UINT64_MAX;
    }
    return ctr_value(&h->n, &r);
}

/* The Gemini tile counter k (Table I order) of port p. */
static uint64_t gm(struct h *h, uint32_t p, int k)
{
    char name[64];
    uint32_t tile = h->t.ports[p].index;
    snprintf(name, sizeof name, "GM_%u_%u_TILE_PERFORMANCE_COUNTERS_%d",
             tile / 8, tile % 8, k);
    return val(h, h->t.ports[p].router, TOPO_NONE, name);
}

/* Sum of counter k over every tile of the machine. */
static uint64_t gm_total(struct h *h, int k)
{
    uint64_t s = 0;
    for (uint32_t p = 0; p < h->t.n_ports; p++)
        if (h->t.ports[p].kind != PORT_UNUSED)
            s += gm(h, p, k);
    return s;
}

/* The tile at which a packet crossing output port `out` arrives: the
 * peer's input, or for the NIC link, the host tile itself. */
static uint32_t arrival_tile(const struct h *h, uint32_t out, bool first)
{
    return first ? out : h->t.ports[out].peer;
}

/* Counter k summed over the far ends of every tile of the logical link
 * (same router, same kind) that output port `out` belongs to. */
static uint64_t link_sum(struct h *h, uint32_t out, int k)
{
    const struct topo_router *tr = &h->t.routers[h->t.ports[out].router];
    uint64_t s = 0;
    for (uint32_t i = 0; i < tr->n_ports; i++) {
        const struct topo_port *q = &h->t.ports[tr->first_port + i];
        if (q->kind == h->t.ports[out].kind && q->peer != TOPO_NONE)
            s += gm(h, q->peer, k);
    }
    return s;
}

/* One transaction of `bytes` from NIC a to NIC b on a 4x4x4 Gemini torus:
 * every tile the request arrives at counts req phits and 1 packet on VC0,
 * every tile the response arrives at counts rsp phits on VC1, and no other
 * tile counts anything. */
static void gemini_sonar(enum net_op op, uint32_t req, uint32_t rsp)
{
    struct h h;
    struct torus_params tp = { 4, 4, 4 };
    CHECK(setup(&h, NULL, &tp, true) == 0);
    uint32_t a = 0, b = h.t.n_nics - 1; /* opposite corners */
    net_send(&h.n, a, b, op, 64, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(h.len[0] >= 3 && h.len[1] >= 3);
    if (h.len[0] < 3 || h.len[1] < 3)
        return;
    /* the last crossing of each path is the ejection to the NIC: not a
     * tile arrival */
    for (int cls = 0; cls < 2; cls++)
        for (uint32_t i = 0; i + 1 < h.len[cls]; i++) {
            uint32_t tile = arrival_tile(&h, h.path[cls][i], i == 0);
            CHECK_EQ_U(gm(&h, tile, cls), cls ? rsp : req);
            CHECK_EQ_U(gm(&h, tile, 2 + cls), 1);
        }
    CHECK_EQ_U(gm_total(&h, 0), (uint64_t)req * (h.len[0] - 1));
    CHECK_EQ_U(gm_total(&h, 1), (uint64_t)rsp * (h.len[1] - 1));
    CHECK_EQ_U(gm_total(&h, 2), h.len[0] - 1);
    CHECK_EQ_U(gm_total(&h, 3), h.len[1] - 1);
    /* their own routes: the response arrives at tiles the request never
     * reached (dimension order X, Y, Z both ways) */
    uint32_t shared = 0;
    for (uint32_t i = 0; i + 1 < h.len[1]; i++)
        shared += gm(&h, arrival_tile(&h, h.path[1][i], i == 0), 0) > 0;
    CHECK(shared < h.len[1] - 1);
    /* an idle network never stalls */
    CHECK_EQ_U(gm_total(&h, 4), 0);
    CHECK_EQ_U(gm_total(&h, 5), 0);
    /* the NIC's view */
    uint32_t ra = h.t.nics[a].router;
    CHECK_EQ_U(val(&h, ra, a, "GM_ORB_PERF_VC0_PKTS"), 1);
    CHECK_EQ_U(val(&h, ra, a, "GM_ORB_PERF_VC0_STALLED"), 0);
    CHECK_EQ_U(val(&h, ra, a, "GM_ORB_PERF_VC1_PKTS"), 1);
    CHECK_EQ_U(val(&h, h.t.nics[b].router, b, "GM_ORB_PERF_VC1_PKTS"), 0);
    teardown(&h);
}

/* Pedretti et al. §V-A: PUT = 32-phit request + 3-phit response, GET =
 * 8 + 27 phits. */
static void test_gemini_put_get(void)
{
    gemini_sonar(NET_PUT, 32, 3);
    gemini_sonar(NET_GET, 8, 27);
}

/* §V-A: a 1 MB transfer is 16384 transactions of 105 bytes on the wire
 * for 64 of data: 61 % efficiency, at every tile of the path. */
static void test_gemini_efficiency(void)
{
    struct h h;
    struct torus_params tp = { 4, 4, 4 };
    CHECK(setup(&h, NULL, &tp, true) == 0);
    net_send(&h.n, 0, 2 * 16 + 2, NET_PUT, 1u << 20, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(h.len[0] >= 3 && h.len[1] >= 3);
    if (h.len[0] < 3 || h.len[1] < 3)
        return;
    /* packets spread over the tiles of a logical link (X+: 8 tiles): sum
     * the link's tiles at its far end */
    uint64_t vc0 = link_sum(&h, h.path[0][1], 0);
    uint64_t vc1 = link_sum(&h, h.path[1][1], 1);
    CHECK_EQ_U(link_sum(&h, h.path[0][1], 2), 16384);
    CHECK_EQ_U(vc0, 32u * 16384);
    CHECK_EQ_U(vc1, 3u * 16384);
    double eff = (double)(1u << 20) / (3.0 * (double)(vc0 + vc1));
    fprintf(stderr, "  Gemini 1 MiB PUT: %.4f payload bytes per wire byte "
            "(64/105 = %.4f)\n", eff, 64.0 / 105.0);
    CHECK_NEAR(eff, 64.0 / 105.0, 1e-9);
    teardown(&h);
}

/* XC white paper, "Aries Performance": 64 B PUT = 14 request flits + 1
 * response flit on network tiles, GET = 3 + 12; SC'19 §2.1: inside the NIC
 * a PUT request is 1 header + 4 payload flits, a GET request 1 flit. */
static void aries_sonar(enum net_op op, uint32_t req, uint32_t rsp,
                        uint32_t nic_req, uint32_t nic_rsp)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    uint32_t a = 3, b = h.t.n_nics - 5;
    net_send(&h.n, a, b, op, 64, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    for (uint32_t cls = 0; cls < 2; cls++)
        for (uint32_t i = 1; i + 1 < h.len[cls]; i++) {
            uint32_t tile = h.t.ports[h.path[cls][i]].peer;
            uint32_t idx = h.t.ports[tile].index;
            char name[96];
            uint64_t got = 0; /* over the class's four VCs */
            for (uint32_t w = 4u * (uint32_t)cls; w < 4u * cls + 4; w++) {
                snprintf(name, sizeof name,
                         "AR_RTR_%u_%u_INQ_PRF_INCOMING_FLIT_VC%u", idx / 8,
                         idx % 8, w);
                got += val(&h, h.t.ports[tile].router, TOPO_NONE, name);
            }
            CHECK_EQ_U(got, cls ? rsp : req);
        }
    /* the processor tile the request entered by */
    uint32_t pt = h.path[0][0];
    char name[96];
    snprintf(name, sizeof name, "AR_RTR_PT_5_%u_INQ_PRF_INCOMING_FLIT_VC0",
             h.t.ports[pt].index - 40u);
    CHECK_EQ_U(val(&h, h.t.ports[pt].router, TOPO_NONE, name), req);
    uint32_t ra = h.t.nics[a].router, rb = h.t.nics[b].router;
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS"),
               nic_req);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS"), 1);
    /* the ORB's RSP counters: the response coming back to the requester,
     * none at the responder (its response left by another block) */
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_FLITS"),
               nic_rsp);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_PKTS"), 1);
    CHECK_EQ_U(val(&h, rb, b, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_FLITS"), 0);
    CHECK_EQ_U(val(&h, rb, b, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_PKTS"), 0);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_NET_TRACK"),
               1);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED"),
               0);
    /* data written to the host: at b for a PUT, back at a for a GET */
    CHECK_EQ_U(val(&h, op == NET_PUT ? rb : ra, op == NET_PUT ? b : a,
                   "AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_PKTS"), 1);
    /* latency: request injection to response arrival, in 800 MHz cycles */
    uint64_t l2 = val(&h, ra, a, "AR_NIC_ORB_PRF_NET_RSP_TRACK_2");
    uint64_t l1 = val(&h, ra, a, "AR_NIC_ORB_PRF_NET_RSP_TRACK_1");
    simtime rtt = h.n.st.last_delivery;
    CHECK(l2 > 0 && l2 <= time_to_cycles(rtt, TIME_HZ_ARIES_NIC));
    CHECK(l2 + 2 >= time_to_cycles(rtt, TIME_HZ_ARIES_NIC));
    CHECK(l1 >= l2);
    teardown(&h);
}

static void test_aries_put_get(void)
{
    aries_sonar(NET_PUT, 14, 1, 5, 1);
    aries_sonar(NET_GET, 3, 12, 1, 5);
}

struct sum_ctx {
    struct h *h;
    uint64_t stall, flits;
};

static void sum_stalls(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct sum_ctx *c = ctx;
    uint64_t v = ctr_value(&c->h->n, r);
    if (strstr(name, "STALL"))
        c->stall += v;
    else if (strstr(name, "FLIT"))
        c->flits += v;
}

static void machine_sums(struct h *h, uint64_t *stall, uint64_t *flits)
{
    struct sum_ctx c = { h, 0, 0 };
    for (uint32_t r = 0; r < h->t.n_routers; r++) {
        const struct topo_router *tr = &h->t.routers[r];
        ctr_names(&h->n, r, TOPO_NONE, false, true, sum_stalls, &c);
        for (uint32_t k = 0; k < tr->n_nics; k++)
            ctr_names(&h->n, r, tr->first_nic + k, true, false, sum_stalls,
                      &c);
    }
    *stall = c.stall;
    *flits = c.flits;
}

/* One message at a time between random pairs: no stall anywhere. */
static void test_idle_network_no_stalls(void)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    uint64_t x = 12345;
    for (int i = 0; i < 40; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t a = (uint32_t)(x >> 33) % h.t.n_nics;
        uint32_t b = (uint32_t)(x >> 13) % h.t.n_nics;
        if (a == b)
            continue;
        net_send(&h.n, a, b, i % 2 ? NET_GET : NET_PUT, 64, 0, 0);
        sim_run(&h.s, SIMTIME_MAX);
    }
    uint64_t stall, flits;
    machine_sums(&h, &stall, &flits);
    CHECK(flits > 0);
    CHECK_EQ_U(stall, 0);
    teardown(&h);
}

/* The input stall of a tiled router counts a packet's wait in the input
 * queue until it can move to its output's queue (CUG'13 §VI, of Gemini's
 * input stalls), not its wait there: on a 4x4x4 Gemini torus a NIC of
 * each of the six neighbours of the Gemini (1,0,0) PUTs a packet at once
 * to a NIC of (1,0,0); the six arrive there together, one over each
 * direction, and two wait for others to be ejected — the NIC has four
 * host tiles — in their column buffers, which have room for them. No
 * credit is short anywhere, so no tile counts a stall; a count up to the
 * packet's departure would give that wait to the input stall. */
static void test_input_stall_ends_at_output_queue(void)
{
    struct h h;
    struct torus_params tp = { 4, 4, 4 };
    CHECK(setup(&h, NULL, &tp, true) == 0);
    CHECK(h.n.p.router == NET_ROUTER_TILED);
    CHECK(h.n.p.col_buffer >= 2 * 32); /* two 32-phit requests */
    /* routers x + 4 (y + 4 z), checked below by the path */
    uint32_t b = h.t.routers[1].first_nic;
    CHECK_EQ_U(h.t.nics[b].n_ports, 4);
    /* (0,0,0), (2,0,0), (1,1,0), (1,3,0), (1,0,1), (1,0,3) */
    static const uint32_t from[6] = { 0, 2, 5, 13, 17, 49 };
    for (int i = 0; i < 6; i++)
        net_send(&h.n, h.t.routers[from[i]].first_nic, b, NET_PUT, 64, 0,
                 0);
    sim_run(&h.s, SIMTIME_MAX);
    /* the requests' crossings: six NIC links, one link each into
     * router 1, then its four ejection ports, two of them twice */
    CHECK_EQ_U(h.len[0], 18);
    if (h.len[0] != 18) {
        teardown(&h);
        return;
    }
    for (int i = 6; i < 12; i++) {
        uint32_t peer = h.t.ports[h.path[0][i]].peer;
        CHECK(peer != TOPO_NONE && h.t.ports[peer].router == 1);
    }
    uint32_t used[4] = { 0 };
    for (int i = 12; i < 18; i++) {
        uint32_t k = h.path[0][i] - h.t.nics[b].first_port;
        CHECK(k < 4);
        if (k < 4)
            used[k]++;
    }
    CHECK(used[0] + used[1] + used[2] + used[3] == 6 &&
          (used[0] > 1 || used[1] > 1 || used[2] > 1 || used[3] > 1));
    CHECK_EQ_U(gm_total(&h, 5), 0); /* no credit stall */
    CHECK_EQ_U(gm_total(&h, 4), 0); /* so no input stall either */
    teardown(&h);
}

/* The GET exchange's network: xc-12cab with counters and a minimal
 * mode; NICs 4-7 each GET 64 KiB from NIC 0. The mode, or -1. */
static int get_exchange(struct h *h)
{
    CHECK(setup(h, "xc-12cab", NULL, true) == 0);
    const struct routing *minimal =
        (const struct routing *)registry_find(&routing_registry, "minimal");
    CHECK(minimal != NULL);
    int mode = minimal ? net_add_mode(&h->n, minimal) : -1;
    CHECK(mode > 0);
    /* xc-12cab: 4 NICs per router, routers 0..15 of chassis 0 connected
     * by one green link each */
    uint32_t r0 = h->t.nics[0].router;
    uint32_t r1 = h->t.nics[4].router, r2 = h->t.nics[8].router;
    CHECK(r1 != r0 && r2 != r0 && r1 != r2);
    for (uint32_t k = 4; mode > 0 && k < 8; k++)
        net_send(&h->n, k, 0, NET_GET, 64 * 1024, (uint8_t)mode, 0);
    return mode > 0 ? mode : -1;
}

/* Symmetric GET traffic, as in an alltoall above the rendezvous size: NIC
 * `a` answers 64 KiB GETs from the four NICs of a neighbour router, whose
 * single green link then backs a's responses up into a's NIC; once they
 * are backed up, a GETs 64 KiB of its own from another router. a's
 * requests take turns with its held responses on the path they share (the
 * NIC serves its request and response queues in turn), so each waits
 * while the response ahead of it is held: back-pressure that
 * REQ_STALLED counts. The ORB's RSP_STALLED counts the responses coming
 * back to a (none held: the NIC sinks at line rate), so the SC'19
 * library's s = (REQ_STALLED - RSP_STALLED) / REQ_FLITS keeps those
 * stalls whole; were RSP_STALLED the stalls of a's outgoing responses
 * (dfsim's reading before), the subtraction would take out every cycle
 * a's requests waited behind a held response. */
static void test_get_exchange_stalls(void)
{
    struct h h;
    int mode = get_exchange(&h);
    if (mode < 0)
        return;
    uint32_t a = 0, ra = h.t.nics[a].router;
    sim_run(&h.s, 5 * SIMTIME_US);
    struct ctr_ref out;
    CHECK(ctr_find(&h.n, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED",
                   &out) == 0);
    out.cls = 1;
    CHECK(ctr_value(&h.n, &out) > 0); /* a's responses are held by now */
    net_send(&h.n, a, 8, NET_GET, 64 * 1024, (uint8_t)mode, 0);
    sim_run(&h.s, SIMTIME_MAX);
    uint64_t rq = val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED");
    uint64_t rs = val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_STALLED");
    uint64_t fl = val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS");
    /* its own 1024 GET requests, one NIC flit each; 1024 responses back */
    CHECK_EQ_U(fl, 1024);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_PKTS"),
               1024);
    CHECK_EQ_U(val(&h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_FLITS"),
               1024u * 5);
    CHECK_EQ_U(rs, 0);
    /* a's outgoing responses were held back, by the generic counter */
    uint64_t held = ctr_value(&h.n, &out);
    fprintf(stderr, "  GET exchange: a's requests stalled %llu cycles "
            "(%.2f per flit), its outgoing responses %llu\n",
            (unsigned long long)rq, (double)rq / (double)fl,
            (unsigned long long)held);
    CHECK(held > 0);
    CHECK(rq > 0);
    CHECK((double)(rq - rs) / (double)fl > 1.0);
    teardown(&h);
}

/* A counter never goes back. A NIC whose response is held opens its
 * request's stall interval at the time that request will be ready, which
 * can be ahead of the clock; a read in between used to wrap (SC'19's s
 * read 10^15 us a flit in a 256-node alltoall, a sample in ten thousand).
 * The GET exchange above, its stalled-cycle counters read every 2 ns. */
static void test_nic_stalls_never_go_back(void)
{
    struct h h;
    int mode = get_exchange(&h);
    if (mode < 0)
        return;
    uint32_t a = 0, ra = h.t.nics[a].router;
    net_send(&h.n, a, 8, NET_GET, 64 * 1024, (uint8_t)mode, 0);
    struct ctr_ref c[2];
    CHECK(ctr_find(&h.n, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED",
                   &c[0]) == 0);
    c[1] = c[0];
    c[1].cls = 1; /* the responses it sends, by the generic counter */
    uint64_t last[2] = { 0, 0 }, back = 0, reads = 0;
    for (simtime t = 2 * SIMTIME_NS; t < 40 * SIMTIME_US && !back;
         t += 2 * SIMTIME_NS) {
        CHECK(sim_run_before(&h.s, t));
        for (int k = 0; k < 2; k++) {
            uint64_t v = ctr_value(&h.n, &c[k]);
            back += v < last[k];
            last[k] = v;
            reads++;
        }
    }
    CHECK_EQ_U(back, 0);
    CHECK(last[0] > 0 && last[1] > 0); /* the exchange did stall */
    CHECK(reads > 1000);
    sim_run(&h.s, SIMTIME_MAX);
    teardown(&h);
}

/* Run h's traffic to its end and tear h down; NIC a GETs 64 KiB in it
 * (1,024 one-flit requests). Returns a's REQ_STALLED cycles per request
 * flit; *share (if given): their share of the run's cycles. */
static double a_req_stall(struct h *h, uint32_t a, double *share)
{
    uint32_t ra = h->t.nics[a].router;
    sim_run(&h->s, SIMTIME_MAX);
    uint64_t rq = val(h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED");
    uint64_t fl = val(h, ra, a, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS");
    CHECK_EQ_U(fl, 1024);
    if (share) /* 800 MHz: 1,250 ps a cycle */
        *share = (double)rq / ((double)h->s.now / 1250.0);
    teardown(h);
    return (double)rq / (double)fl;
}

/* What REQ_STALLED counts when nothing pushes back (`nic_req_stall`):
 * NIC a answers a 64 KiB GET from a NIC of another router while it GETs
 * 64 KiB of its own from a third, on a quiet machine. Its requests take
 * turns with its responses on the path they share. Read as back-pressure
 * ("credits", the default) the turns are no stall; read as every cycle a
 * ready request is not forwarded ("path"), a request that comes ready
 * while a response has the path waits for it. Returns a's stalled cycles
 * per request flit; *turn: a response's NIC flits (cycles on the path). */
static double quiet_exchange_stall(enum net_nic_stall how, double *turn)
{
    struct h h;
    if (setup(&h, "xc-12cab", NULL, true) != 0)
        return -1;
    /* a response: 64 B of data in 4 NIC flits and a header flit, 1.25 ns
     * (one 800 MHz cycle) each */
    struct packet rsp = { .cls = PKT_RSP, .op = NET_GET, .payload = 64 };
    *turn = (double)net_nic_flits(&h.n.p, &rsp);
    h.n.p.nic_req_stall = (uint8_t)how;
    uint32_t a = 0, b = 200, c = 400, ra = h.t.nics[a].router;
    CHECK(h.t.nics[b].router != ra && h.t.nics[c].router != ra);
    net_send(&h.n, b, a, NET_GET, 64 * 1024, 0, 0);
    net_send(&h.n, a, c, NET_GET, 64 * 1024, 0, 0);
    return a_req_stall(&h, a, NULL);
}

static void test_nic_req_stall_readings(void)
{
    double turn = 0;
    double credits = quiet_exchange_stall(NET_NIC_STALL_CREDITS, &turn);
    double path = quiet_exchange_stall(NET_NIC_STALL_PATH, &turn);
    fprintf(stderr, "  quiet GET exchange: a's request stalls %.2f cycles "
            "per flit read as credits, %.2f as path (a response: %.0f)\n",
            credits, path, turn);
    CHECK(credits >= 0 && credits < 0.1);
    /* round-robin: a request waits for at most the one response ahead
     * of it; the host interface's read and write streams (a packet each
     * 5 cycles) leave the path idle part of the time, so less than that
     * on average, but not nothing */
    CHECK(path > 0.5 && path <= turn);
}

/* The "orb" ablation of REQ_STALLED: NIC a GETs 64 KiB (1,024 one-flit
 * requests) from a NIC of another router on a quiet machine, at most
 * max_out requests outstanding. Returns a's stalled cycles per request
 * flit; *share: the stalled cycles' share of the run. */
static double orb_stall(enum net_nic_stall how, uint32_t max_out,
                        double *share)
{
    struct h h;
    *share = 0;
    if (setup(&h, "xc-12cab", NULL, true) != 0)
        return -1;
    h.n.p.nic_req_stall = (uint8_t)how;
    h.n.p.max_outstanding = max_out;
    uint32_t a = 0, c = 400, ra = h.t.nics[a].router;
    CHECK(h.t.nics[c].router != ra);
    net_send(&h.n, a, c, NET_GET, 64 * 1024, 0, 0);
    return a_req_stall(&h, a, share);
}

static void test_nic_req_stall_orb(void)
{
    double s_cr = 0, s_orb = 0, s_full = 0;
    double credits = orb_stall(NET_NIC_STALL_CREDITS, 4, &s_cr);
    double orb = orb_stall(NET_NIC_STALL_ORB, 4, &s_orb);
    double full = orb_stall(NET_NIC_STALL_ORB, 1024, &s_full);
    fprintf(stderr, "  quiet 64 KiB GET, 4 outstanding: %.2f stalled cycles "
            "per request flit read as credits, %.2f as orb (%.0f %% of the "
            "run); 1,024 outstanding as orb: %.2f\n",
            credits, orb, 100 * s_orb, full);
    /* nothing pushes back on a quiet machine */
    CHECK(credits >= 0 && credits < 0.1);
    /* four requests a round trip (~2 us): the ORB is full nearly all
     * the time, and an interval never outlasts the run */
    CHECK(s_orb > 0.5 && s_orb <= 1.0);
    CHECK(orb > 10 * credits + 1);
    /* 1,024 entries hold the whole message: the ORB never holds a
     * request back, and the reading is the default's */
    CHECK(full < 0.1);
}

/* Incast: 24 NICs spread over the machine each PUT 64 KiB to one NIC. The
 * destination router's tiles wait (input stalls) more than any other, the
 * outputs feeding that router wait for its credits, the
 * senders of the destination's group are back-pressured (those of other
 * groups fit their 1024 outstanding packets in the buffers of their many
 * paths and see the incast as latency); SC'19's s and L come out of the
 * NIC counters. */
static void test_incast_stalls(void)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    uint32_t dst = 0, rd = h.t.nics[dst].router;
    uint32_t step = h.t.n_nics / 24;
    for (uint32_t i = 1; i <= 24; i++)
        net_send(&h.n, i * step - 1, dst, NET_PUT, 64 * 1024, 0, 0);
    /* a lone message first, for the quiet latency */
    struct h q;
    CHECK(setup(&q, "xc-12cab", NULL, true) == 0);
    net_send(&q.n, step - 1, dst, NET_PUT, 64, 0, 0);
    sim_run(&q.s, SIMTIME_MAX);
    uint32_t rq = q.t.nics[step - 1].router;
    double lq = (double)val(&q, rq, step - 1,
                            "AR_NIC_ORB_PRF_NET_RSP_TRACK_2");
    teardown(&q);

    sim_run(&h.s, SIMTIME_MAX);
    /* input stalls at the destination router */
    uint64_t in_dst = 0, in_other = 0;
    for (uint32_t r = 0; r < h.t.n_routers; r++) {
        const struct topo_router *tr = &h.t.routers[r];
        for (uint32_t i = 0; i < tr->n_ports; i++) {
            uint32_t idx = h.t.ports[tr->first_port + i].index;
            if (idx >= 40 || h.t.ports[tr->first_port + i].kind == PORT_UNUSED)
                continue;
            char name[96];
            snprintf(name, sizeof name, "AR_RTR_%u_%u_INQ_PRF_ROWBUS_STALL_CNT",
                     idx / 8, idx % 8);
            uint64_t v = val(&h, r, TOPO_NONE, name);
            if (r == rd)
                in_dst += v;
            else
                in_other = v > in_other ? v : in_other;
        }
    }
    fprintf(stderr, "  incast: input stalls at the destination router %llu "
            "cycles, most at any other tile %llu\n",
            (unsigned long long)in_dst, (unsigned long long)in_other);
    CHECK(in_dst > 0);
    CHECK(in_dst > in_other);
    /* the outputs feeding the destination router wait for its credits */
    uint64_t cs = 0;
    for (uint32_t p = 0; p < h.t.n_ports; p++) {
        const struct topo_port *tp = &h.t.ports[p];
        if (tp->peer == TOPO_NONE || h.t.ports[tp->peer].router != rd)
            continue;
        char name[96];
        snprintf(name, sizeof name, "AR_RTR_%u_%u_COLBUF_PERF_STALL_RQ",
                 tp->index / 8, tp->index % 8);
        cs += val(&h, tp->router, TOPO_NONE, name);
    }
    fprintf(stderr, "  incast: credit stalls on the links into the "
            "destination router %llu cycles\n", (unsigned long long)cs);
    CHECK(cs > 0);
    /* the senders' NICs: back-pressure, s and L */
    uint64_t stalled = 0, flits = 0;
    uint32_t stalled_nics = 0, local = 0;
    double lmax = 0;
    for (uint32_t i = 1; i <= 24; i++) {
        uint32_t nic = i * step - 1, r = h.t.nics[nic].router;
        uint64_t st = val(&h, r, nic, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED");
        uint64_t fl = val(&h, r, nic, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS");
        uint64_t tr2 = val(&h, r, nic, "AR_NIC_ORB_PRF_NET_RSP_TRACK_2");
        uint64_t trk = val(&h, r, nic,
                           "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_NET_TRACK");
        CHECK_EQ_U(fl, 1024u * 5);
        CHECK_EQ_U(trk, 1024);
        stalled += st;
        if (h.t.routers[r].group == h.t.routers[rd].group) {
            local++;
            stalled_nics += st > 0;
        }
        flits += fl;
        double l = (double)tr2 / (double)trk;
        lmax = l > lmax ? l : lmax;
    }
    double s = (double)stalled / (double)flits;
    fprintf(stderr, "  incast: s = %.2f stalled cycles per flit (%u of the "
            "%u senders in the destination's group stalled), L up to %.0f "
            "cycles (quiet %.0f)\n", s, stalled_nics, local, lmax, lq);
    CHECK(local >= 4);
    CHECK_EQ_U(stalled_nics, local);
    CHECK(s > 0);
    CHECK(lmax > 2 * lq);
    teardown(&h);
}

/* ---- SC'19 Table 1 --------------------------------------------------- */

enum { EV_SEND = NET_EV_COUNT };

static void on_send(struct sim *s, const struct event *e, void *ctx)
{
    struct h *h = ctx;
    uint32_t i = (uint32_t)e->arg;
    uint32_t src = h->senders[i];
    uint32_t dst = h->senders[(i + 1 + (uint32_t)(s->now / h->period) %
                                         (h->n_senders - 1)) % h->n_senders];
    net_send(&h->n, src, dst, NET_PUT, 4096, 0, 0);
    if (s->now + h->period < h->stop)
        sim_schedule(s, net_nic_entity(&h->n, src), s->now + h->period,
                     net_nic_entity(&h->n, src), EV_SEND, i);
}

/* A job that only waits sees tile traffic grow with its run time: on its
 * routers, twice the waiting gives about twice the flits (SC'19 Table 1:
 * 1 s vs 2 s), while its own NICs sent nothing. */
static void test_table1_fallacy(void)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    /* the idle job: nodes 0 and 1 of the first 16 routers; the busy job:
     * nodes 2 and 3 of the same routers */
    uint32_t idle[32];
    h.senders = malloc(32 * sizeof *h.senders);
    h.n_senders = 32;
    for (uint32_t r = 0; r < 16; r++) {
        uint32_t nic0 = h.t.routers[r].first_nic;
        idle[2 * r] = h.t.nics[nic0].node;
        idle[2 * r + 1] = h.t.nics[nic0 + 1].node;
        h.senders[2 * r] = nic0 + 2;
        h.senders[2 * r + 1] = nic0 + 3;
    }
    h.period = 2 * SIMTIME_US;
    h.stop = 60 * SIMTIME_US;
    sim_on(&h.s, EV_SEND, on_send, &h);
    for (uint32_t i = 0; i < 32; i++)
        sim_schedule(&h.s, net_nic_entity(&h.n, h.senders[i]),
                     (i + 1) * 50 * SIMTIME_NS,
                     net_nic_entity(&h.n, h.senders[i]), EV_SEND, i);

    struct ctr_ctx c;
    CHECK(ctr_ctx_init_job(&c, &h.n, idle, 32) == 0);
    for (uint32_t k = 0; k < 32; k++) {
        /* every network tile of its routers, VC 0 */
        for (uint32_t idx = 0; idx < 40; idx++) {
            char name[96];
            snprintf(name, sizeof name,
                     "AR_RTR_%u_%u_INQ_PRF_INCOMING_FLIT_VC0", idx / 8,
                     idx % 8);
            if (k % 2 == 0) /* once per router */
                ctr_ctx_add(&c, idle[k], name, &h.d);
        }
        ctr_ctx_add(&c, idle[k], "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS",
                    &h.d);
    }
    /* windows [10, 30) us (T) and [10, 50) us (2T) */
    sim_run(&h.s, 10 * SIMTIME_US);
    ctr_ctx_read(&c);
    uint64_t *v10 = malloc(c.n * sizeof *v10);
    CHECK(v10 != NULL);
    memcpy(v10, c.val, c.n * sizeof *v10);
    uint64_t t[2] = { 0, 0 }, nic = 0;
    for (int w = 0; w < 2; w++) {
        sim_run(&h.s, (30 + 20 * (simtime)w) * SIMTIME_US);
        ctr_ctx_read(&c);
        for (size_t i = 0; i < c.n; i++) {
            if (strstr(c.name[i], "NIC"))
                nic += ctr_ctx_value(&c, i) - v10[i];
            else
                t[w] += ctr_ctx_value(&c, i) - v10[i];
        }
    }
    free(v10);
    fprintf(stderr, "  Table 1: idle job, T: %llu flits on its routers, 2T: "
            "%llu (x%.2f); its NICs sent %llu\n", (unsigned long long)t[0],
            (unsigned long long)t[1], (double)t[1] / (double)t[0],
            (unsigned long long)nic);
    CHECK(t[0] > 0);
    CHECK((double)t[1] / (double)t[0] > 1.7 &&
          (double)t[1] / (double)t[0] < 2.3);
    CHECK_EQ_U(nic, 0);
    /* and it may not read a router of someone else's */
    struct capture cap;
    cap_init(&cap);
    uint32_t other = h.t.nics[h.t.routers[20].first_nic].node;
    CHECK(ctr_ctx_add(&c, other, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS",
                      &cap.d) != 0);
    CHECK_EQ_U(cap.d.errors, 1);
    CHECK_STR_CONTAINS(cap_text(&cap), "is not the job's");
    cap_free(&cap);
    ctr_ctx_free(&c);
    sim_run(&h.s, SIMTIME_MAX);
    teardown(&h);
}

/* ---- names ------------------------------------------------------------ */

struct names_ctx {
    struct h *h;
    uint32_t router, nic;
    size_t count, bad;
};

static void check_name(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct names_ctx *c = ctx;
    struct ctr_ref f;
    c->count++;
    if (ctr_find(&c->h->n, c->router, c->nic, name, &f) != 0 ||
        memcmp(&f, r, sizeof f) != 0) {
        if (c->bad++ < 5)
            fprintf(stderr, "  %s does not find itself\n", name);
    }
}

static size_t round_trip(struct h *h, uint32_t router, uint32_t nic)
{
    struct names_ctx c = { h, router, nic, 0, 0 };
    ctr_names(&h->n, router, nic, true, true, check_name, &c);
    CHECK_EQ_U(c.bad, 0);
    return c.count;
}

static void test_names(void)
{
    struct h h;
    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    /* Aries: 12 NIC counters; each cabled network tile 8 + 8 + 1 + 2; each
     * processor tile 4 */
    size_t want = 12;
    for (uint32_t i = 0; i < h.t.routers[0].n_ports; i++) {
        const struct topo_port *q = &h.t.ports[h.t.routers[0].first_port + i];
        if (q->kind != PORT_UNUSED)
            want += q->index < 40 ? 19 : 4;
    }
    CHECK(want > 12 + 30 * 19);
    CHECK_EQ_U(round_trip(&h, 0, 0), want);
    struct ctr_ref r;
    CHECK(ctr_find(&h.n, 0, 0, "AR_RTR_4_7_COLBUF_PERF_STALL_RS", &r) == 0);
    CHECK(ctr_find(&h.n, 0, 0, "AR_RTR_5_0_COLBUF_PERF_STALL_RS", &r) != 0);
    CHECK(ctr_find(&h.n, 0, 0, "AR_RTR_0_0_INQ_PRF_INCOMING_FLIT_VC8", &r) !=
          0);
    CHECK(ctr_find(&h.n, 0, 0,
                   "AR_RTR_0_0_INQ_PRF_INCOMING_PKT_VC1_FILTER_FLIT2_CNT",
                   &r) != 0);
    CHECK(ctr_find(&h.n, 0, TOPO_NONE,
                   "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS", &r) != 0);
    CHECK(ctr_find(&h.n, 0, 0, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITSX",
                   &r) != 0);
    teardown(&h);

    struct torus_params tp = { 2, 2, 2 };
    CHECK(setup(&h, NULL, &tp, true) == 0);
    CHECK_EQ_U(round_trip(&h, 3, h.t.routers[3].first_nic), 6 + 48 * 6);
    struct ctr_ref a, b;
    CHECK(ctr_find(&h.n, 3, TOPO_NONE, "GM_TILE_PERF_VC1_PKT_CNT:2:5", &a) ==
          0);
    CHECK(ctr_find(&h.n, 3, TOPO_NONE, "GM_2_5_TILE_PERFORMANCE_COUNTERS_3",
                   &b) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(ctr_find(&h.n, 3, TOPO_NONE, "GM_2_5_TILE_PERFORMANCE_COUNTERS_6",
                   &b) != 0);
    teardown(&h);

    CHECK(setup(&h, "malbec", NULL, true) == 0);
    CHECK(round_trip(&h, 1, h.t.routers[1].first_nic) > 11);
    teardown(&h);
}

/* Counting does not change what the network does. */
static void test_counting_changes_nothing(void)
{
    uint64_t hash[2];
    for (int on = 0; on < 2; on++) {
        struct h h;
        CHECK(setup(&h, "xc-12cab", NULL, on) == 0);
        for (uint32_t i = 0; i < 64; i++)
            net_send(&h.n, i * 5 % h.t.n_nics, (i * 37 + 11) % h.t.n_nics,
                     i % 3 ? NET_PUT : NET_GET, 4096, 0, 0);
        sim_run(&h.s, SIMTIME_MAX);
        hash[on] = h.hash;
        if (!on) {
            struct ctr_ref r;
            CHECK(ctr_find(&h.n, 0, 0,
                           "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS", &r) != 0);
        }
        teardown(&h);
    }
    CHECK(hash[0] == hash[1]);
}

/* Logical links: Gemini X and Z links are 8 tiles, Y links 4, the host
 * link 8 (Pedretti et al. §III), X+ at 9.38 GB/s (Fig. 4); Aries rank-1
 * links are 1 tile, rank-2 3 tiles. A 1 MiB PUT shows on the links of its
 * path, and the Fig. 4 report prints them. */
static void test_logical_links(void)
{
    struct h h;
    struct torus_params tp = { 4, 4, 4 };
    CHECK(setup(&h, NULL, &tp, true) == 0);
    struct links L;
    CHECK(links_build(&L, &h.t) == 0);
    CHECK_EQ_U(L.n, 7 * h.t.n_routers);
    for (uint32_t i = L.first_link[5]; i < L.first_link[6]; i++) {
        const struct link *l = &L.link[i];
        const char *d = link_dir(l);
        CHECK_EQ_U(l->count, d[0] == 'Y' ? 4 : 8);
        if (strcmp(d, "X+") == 0)
            CHECK_NEAR((double)l->bw * 1e-9, 9.375, 1e-9);
    }
    struct link_counts *before = calloc(L.n, sizeof *before);
    struct link_counts *after = calloc(L.n, sizeof *after);
    CHECK(before && after);
    net_send(&h.n, 0, 2 * 16 + 2, NET_PUT, 1u << 20, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    for (uint32_t i = 0; i < L.n; i++)
        links_read(&L, &h.n, i, &after[i]);
    /* the link the first request hop arrives over, at the far router */
    uint32_t far = h.t.ports[h.t.ports[h.path[0][1]].peer].router;
    uint64_t vc0 = 0, pk = 0;
    for (uint32_t i = L.first_link[far]; i < L.first_link[far + 1]; i++)
        if (L.link[i].peer == h.t.ports[h.path[0][1]].router) {
            vc0 += after[i].flits[0];
            pk += after[i].pkts[0];
        }
    CHECK_EQ_U(vc0, 32u * 16384);
    CHECK_EQ_U(pk, 16384);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    links_report(f, &L, &h.n, &far, 1, before, after, h.s.now);
    fclose(f);
    CHECK_STR_CONTAINS(buf, "\t9.38\t");
    CHECK_STR_CONTAINS(buf, "HH\t");
    CHECK_STR_CONTAINS(buf, "\t524288\t");
    fprintf(stderr, "%s", buf);
    free(buf);
    free(before);
    free(after);
    links_free(&L);
    teardown(&h);

    CHECK(setup(&h, "xc-12cab", NULL, true) == 0);
    CHECK(links_build(&L, &h.t) == 0);
    uint32_t r1 = 0, r2 = 0, pt = 0;
    for (uint32_t i = L.first_link[0]; i < L.first_link[1]; i++) {
        const char *d = link_dir(&L.link[i]);
        if (strcmp(d, "R1") == 0)
            r1 += L.link[i].count == 1;
        if (strcmp(d, "R2") == 0)
            r2 += L.link[i].count == 3;
        if (strcmp(d, "PT") == 0)
            pt = L.link[i].count;
    }
    CHECK_EQ_U(r1, 15);
    CHECK_EQ_U(r2, 5);
    CHECK_EQ_U(pt, 8);
    links_free(&L);
    teardown(&h);
}

const struct test_case tests_counters[] = {
    TEST(test_gemini_put_get),
    TEST(test_gemini_efficiency),
    TEST(test_aries_put_get),
    TEST(test_idle_network_no_stalls),
    TEST(test_input_stall_ends_at_output_queue),
    TEST(test_incast_stalls),
    TEST(test_get_exchange_stalls),
    TEST(test_nic_stalls_never_go_back),
    TEST(test_nic_req_stall_readings),
    TEST(test_nic_req_stall_orb),
    TEST(test_table1_fallacy),
    TEST(test_names),
    TEST(test_logical_links),
    TEST(test_counting_changes_nothing),
    { 0 },
};
