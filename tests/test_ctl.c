/* tests/test_ctl.c — the routing controllers' interface (ctl/ctl.h): a
 * toy controller driven through the hooks the MPI layer calls (set-up
 * once per run, select and sent per post, switched when another job or
 * variant posts from a NIC, free), the static controllers' modes, the
 * byte accounting, errors at the job's line, and the registry. */
#include "test.h"
#include "mpi_util.h"

#include <string.h>

#include "core/registry.h"
#include "ctl/ctl.h"
#include "net/net.h"
#include "route/route.h"

/* What the toy saw. */
static struct {
    unsigned inits, frees, selects, sents, switched, other_job;
    uint8_t last_sent;
    uint32_t last_nic;
    void *st;
} toy;

/* the toy's own parameters (the run gives every controller its own) */
static const int toy_params = 7;

static int toy_init(void **st, struct net *n, const void *p,
                    struct nic_ctl_setup *setup, char *err, size_t len)
{
    (void)n;
    (void)setup;
    (void)err;
    (void)len;
    CHECK(p == &toy_params);
    toy.inits++;
    *st = &toy;
    return 0;
}

static void toy_free(void *st)
{
    CHECK(st == &toy);
    toy.frees++;
}

/* the other one of its two modes: shows that select, not the table,
 * decided */
static uint8_t toy_select(void *st, const struct nic_post *q,
                          const uint8_t modes[2])
{
    CHECK(st == &toy);
    toy.selects++;
    return modes[!q->alltoall];
}

static void toy_sent(void *st, const struct nic_post *q, uint8_t mode)
{
    (void)st;
    toy.sents++;
    toy.last_sent = mode;
    toy.last_nic = q->src_nic;
}

static void toy_switched(void *st, uint32_t nic, bool other_job)
{
    (void)st;
    toy.switched++;
    toy.other_job += other_job;
    toy.last_nic = nic;
}

static const struct nic_ctl toy_ops = {
    .base = { .name = "toy", .help = "test" },
    .roles = NIC_CTL_ROUTE,
    .mode = "ADAPTIVE_3", .a2a_mode = "ADAPTIVE_1",
    .init = toy_init, .free = toy_free, .route = toy_select,
    .posted = toy_sent, .switched = toy_switched,
};

static int fail_init(void **st, struct net *n, const void *p,
                     struct nic_ctl_setup *setup, char *err, size_t len)
{
    (void)st;
    (void)n;
    (void)p;
    (void)setup;
    snprintf(err, len, "cannot start here");
    return -1;
}

static const struct nic_ctl fail_ops = {
    .base = { .name = "failing", .help = "test" },
    .roles = NIC_CTL_ROUTE,
    .init = fail_init,
};

static const struct nic_ctl *reg(const char *name)
{
    const struct reg_entry *e = registry_find(&controller_registry, name);
    CHECK(e != NULL);
    return (const struct nic_ctl *)e;
}

static int mode_index(const struct net *n, const char *name)
{
    for (uint32_t k = 0; k < n->n_modes; k++)
        if (strcmp(n->modes[k]->base.name, name) == 0)
            return (int)k;
    return -1;
}

static uint8_t post(struct dmpi *m, uint32_t job, uint32_t iter,
                    uint32_t nic, uint64_t bytes, bool alltoall)
{
    struct nic_post q = { .job = job, .iter = iter, .src_nic = nic,
                           .dst_nic = nic + 1, .bytes = bytes,
                           .alltoall = alltoall };
    uint8_t mode = m->route_mode(m->route_ctx, &q);
    m->route_sent(m->route_ctx, &q, mode);
    return mode;
}

static void test_ctl_interface(void)
{
    memset(&toy, 0, sizeof toy);
    struct mpi_h h;
    CHECK(mpi_h_setup(&h, "xc-12cab", false) == 0);
    struct awr_params ap;
    awr_defaults(&ap);
    /* job 0 alternates the toy and high-bias; job 1 has no controller */
    struct ctl_job jobs[2] = {
        { .n = 2, .v = { &toy_ops, reg("high-bias") }, .name = "a" },
        { .n = 0, .name = "b" },
    };
    struct ctl_run c;
    CHECK(ctl_run_init(&c, &h.n, jobs, 2,
                       &(struct ctl_params){ .n = 2, .ctl = { &ctl_app_aware, &toy_ops },
                                            .params = { &ap, &toy_params } }, &h.d) == 0);
    CHECK_EQ_U(toy.inits, 1);
    int ad1 = mode_index(&h.n, "ADAPTIVE_1"),
        ad3 = mode_index(&h.n, "ADAPTIVE_3");
    CHECK(ad1 > 0 && ad3 > 0 && ad1 != ad3);
    struct dmpi m;
    memset(&m, 0, sizeof m);
    ctl_attach(&c, &m);

    /* iteration 0 of job 0: the toy picks the other of its two modes */
    CHECK_EQ_U(post(&m, 0, 0, 5, 1000, false), ad1);
    CHECK_EQ_U(post(&m, 0, 0, 5, 300, true), ad3);
    CHECK_EQ_U(toy.selects, 2);
    CHECK_EQ_U(toy.sents, 2);
    CHECK_EQ_U(toy.last_sent, ad3);
    CHECK_EQ_U(toy.switched, 0); /* the same job and variant */
    /* iteration 1: high-bias, static, the toy is only told of the switch */
    CHECK_EQ_U(post(&m, 0, 1, 5, 64, false), ad3);
    CHECK_EQ_U(toy.selects, 2);
    CHECK_EQ_U(toy.sents, 2);
    CHECK_EQ_U(toy.switched, 1);
    CHECK_EQ_U(toy.other_job, 0);
    /* job 1 from the same NIC: network.routing (mode 0), another job */
    CHECK_EQ_U(post(&m, 1, 0, 5, 8, false), 0);
    CHECK_EQ_U(toy.switched, 2);
    CHECK_EQ_U(toy.other_job, 1);
    CHECK_EQ_U(toy.last_nic, 5);
    /* another NIC's first post: nothing to switch from */
    CHECK_EQ_U(post(&m, 0, 2, 9, 10, false), ad1);
    CHECK_EQ_U(toy.switched, 2);

    /* bytes by job, variant and mode */
    CHECK_EQ_U(ctl_bytes(&c, 0, 0, (uint32_t)ad1), 1010);
    CHECK_EQ_U(ctl_bytes(&c, 0, 0, (uint32_t)ad3), 300);
    CHECK_EQ_U(ctl_bytes(&c, 0, 1, (uint32_t)ad3), 64);
    CHECK_EQ_U(ctl_bytes(&c, 1, 0, 0), 8);
    CHECK_EQ_U(ctl_bytes_named(&c, 0, 0, "ADAPTIVE_1"), 1010);

    ctl_run_free(&c);
    CHECK_EQ_U(toy.frees, 1);
    CHECK_EQ_U(toy.inits, 1);

    /* counters: only a controller that reads them needs them */
    CHECK(!ctl_needs_counters(jobs, 2));
    struct ctl_job aware = { .n = 1, .v = { reg("app-aware") } };
    CHECK(ctl_needs_counters(&aware, 1));

    /* a controller that cannot start: an error at the job's line, and
     * the others set up before it are freed */
    struct ctl_job bad[2] = {
        { .n = 1, .v = { &toy_ops }, .name = "a", .file = "f.cfg",
          .line = 3 },
        { .n = 1, .v = { &fail_ops }, .name = "z", .file = "f.cfg",
          .line = 7 },
    };
    int before = h.d.errors;
    CHECK(ctl_run_init(&c, &h.n, bad, 2,
                       &(struct ctl_params){ .n = 2, .ctl = { &ctl_app_aware, &toy_ops },
                                            .params = { &ap, &toy_params } }, &h.d) != 0);
    CHECK_EQ_U(h.d.errors, before + 1);
    CHECK_EQ_U(toy.inits, 2);
    CHECK_EQ_U(toy.frees, 2);
    mpi_h_teardown(&h);
}

/* app-aware is one implementation among the registered ones; the static
 * ones set Cray MPI's modes (SC'19 §2.2). */
static void test_ctl_registry(void)
{
    const struct nic_ctl *aware = reg("app-aware"), *def = reg("default"),
                         *hb = reg("high-bias"), *net = reg("network");
    if (!aware || !def || !hb || !net)
        return;
    CHECK(aware->counters && aware->route && aware->posted &&
          aware->switched && aware->init && aware->free);
    CHECK(def->mode && strcmp(def->mode, "ADAPTIVE_0") == 0);
    CHECK(def->a2a_mode && strcmp(def->a2a_mode, "ADAPTIVE_1") == 0);
    CHECK(hb->mode && strcmp(hb->mode, "ADAPTIVE_3") == 0);
    CHECK(hb->a2a_mode == NULL); /* as its mode */
    CHECK(net->mode == NULL && !net->route && !net->counters);
    for (size_t i = 0; i < controller_registry.n; i++) {
        const struct nic_ctl *e =
            (const struct nic_ctl *)controller_registry.entries[i];
        CHECK(e->counters == (e == aware));
    }
}

const struct test_case tests_ctl[] = {
    TEST(test_ctl_interface),
    TEST(test_ctl_registry),
    { 0 },
};
