/* tests/test_tc.c — traffic classes (net.h struct net_tc; SC'20 §II-E).
 *
 * Two NICs of one router each stream a PUT to a NIC of a second router of
 * the group: with minimal routing both cross the one local link between
 * the routers, which carries half of what the two inject. Until the first
 * stream ends, the link's bytes split between them as the classes say:
 * evenly in one class, by their minimum bandwidths in two (SC'20 §III-B:
 * minimums of 80 % and 10 % gave 80 % and 20 %), all to the class with
 * the higher priority. With one class the model is the one of every other
 * test (the VC layout and arbitration do not change). */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/sim.h"
#include "net/net.h"
#include "route/route.h"
#include "topo/builders.h"
#include "topo/topo.h"

extern const struct registry routing_registry;

struct th {
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    uint64_t bytes[2];  /* request payload delivered, per stream */
    uint64_t at_first[2]; /* ... when the first stream completed */
    bool first_done;
};

static void delivered(void *ctx, const struct packet *p, simtime now)
{
    struct th *h = ctx;
    if (p->cls == PKT_REQ && p->src_nic < 2)
        h->bytes[p->src_nic] += p->payload;
    (void)now;
}

static void done(void *ctx, uint32_t m, const struct message *msg,
                 simtime now)
{
    struct th *h = ctx;
    if (!h->first_done) {
        h->first_done = true;
        h->at_first[0] = h->bytes[0];
        h->at_first[1] = h->bytes[1];
    }
    (void)m, (void)msg, (void)now;
}

/* Stream 0 (NIC 0 -> 2) in class tc0, stream 1 (NIC 1 -> 3) in tc1;
 * classes as given (n_tcs 0: the default single class). Returns stream
 * 1's share of the bytes delivered until the first stream ended. */
static double share(uint32_t n_tcs, const struct net_tc *tcs, uint8_t tc0,
                    uint8_t tc1)
{
    struct th h;
    memset(&h, 0, sizeof h);
    diag_init(&h.d);
    union topo_params tp;
    topo_builder_dragonfly.defaults(&tp);
    tp.dragonfly.p = 2, tp.dragonfly.a = 4, tp.dragonfly.h = 2;
    tp.dragonfly.g = 0;
    CHECK(topo_build(&h.t, &topo_builder_dragonfly, &tp, "df", "df", &h.d,
                     NULL) == 0);
    CHECK(sim_init(&h.s, EVQ_HEAP4, net_entities(&h.t)) == 0);
    struct net_params np;
    net_params_defaults(&np, &h.t);
    np.routing = (const struct routing *)registry_find(&routing_registry,
                                                       "minimal");
    np.n_tcs = n_tcs;
    for (uint32_t k = 0; k < n_tcs; k++)
        np.tc[k] = tcs[k];
    CHECK(net_init(&h.n, &h.t, &np, &h.s, 1, &h.d) == 0);
    h.n.hooks = (struct net_hooks){ .ctx = &h, .delivered = delivered,
                                    .msg_done = done };
    /* NICs 0, 1 on router 0; 2, 3 on router 1 (p = 2), one group */
    CHECK(h.t.nics[0].router == h.t.nics[1].router);
    CHECK(h.t.nics[2].router == h.t.nics[3].router);
    CHECK(h.t.nics[0].router != h.t.nics[2].router);
    net_send_tc(&h.n, 0, 2, NET_PUT, 1u << 20, 0, tc0, 0);
    net_send_tc(&h.n, 1, 3, NET_PUT, 1u << 20, 0, tc1, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(h.first_done);
    CHECK_EQ_U(h.bytes[0], 1u << 20);
    CHECK_EQ_U(h.bytes[1], 1u << 20);
    double s = (double)h.at_first[1] /
               (double)(h.at_first[0] + h.at_first[1]);
    net_free(&h.n);
    sim_free(&h.s);
    topo_free(&h.t);
    return s;
}

static void test_class_shares(void)
{
    /* one class: the two streams share the link */
    double one = share(0, NULL, 0, 0);
    /* the same two classes: still one queue each way */
    struct net_tc two[2] = { { .weight = 800 }, { .weight = 100 } };
    double same = share(2, two, 0, 0);
    /* separate classes, minimums 80 % and 10 %: the unallocated 10 % to
     * the lesser, 80 / 20 */
    double sep = share(2, two, 0, 1);
    /* equal minimums */
    struct net_tc eq[2] = { { .weight = 500 }, { .weight = 500 } };
    double even = share(2, eq, 0, 1);
    /* priority: the second class first whatever the minimums */
    struct net_tc pr[2] = { { .weight = 800 }, { .weight = 100,
                                                  .priority = 1 } };
    double prio = share(2, pr, 0, 1);
    fprintf(stderr, "  stream 1's share of the link: one class %.3f, same "
            "class of two %.3f, 80/10 %.3f, 50/50 %.3f, higher priority "
            "%.3f\n", one, same, sep, even, prio);
    CHECK(fabs(one - 0.5) < 0.05);
    CHECK(fabs(same - 0.5) < 0.05);
    CHECK(fabs(sep - 0.2) < 0.03);
    CHECK(fabs(even - 0.5) < 0.03);
    CHECK(prio > 0.95);
}

/* Classes are checked where the network is built. */
static void test_class_limits(void)
{
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    diag_init(&d);
    union topo_params tp;
    topo_builder_dragonfly.defaults(&tp);
    tp.dragonfly.p = 2, tp.dragonfly.a = 4, tp.dragonfly.h = 2;
    tp.dragonfly.g = 0;
    CHECK(topo_build(&t, &topo_builder_dragonfly, &tp, "df", "df", &d,
                     NULL) == 0);
    CHECK(sim_init(&s, EVQ_HEAP4, net_entities(&t)) == 0);
    struct net_params np;
    net_params_defaults(&np, &t);
    /* minimums above a link */
    np.n_tcs = 2;
    np.tc[0].weight = 700, np.tc[1].weight = 400;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) != 0);
    /* 4 VCs per class, 3 classes: 24 VCs > 16 */
    np.tc[1].weight = 100;
    np.n_tcs = 3;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) != 0);
    /* 2 classes of 4 + 4 VCs fit */
    np.n_tcs = 2;
    CHECK(net_init(&n, &t, &np, &s, 1, &d) == 0);
    CHECK_EQ_U(n.V, 16);
    net_free(&n);
    sim_free(&s);
    topo_free(&t);
}

const struct test_case tests_tc[] = {
    TEST(test_class_shares),
    TEST(test_class_limits),
    { 0 },
};
