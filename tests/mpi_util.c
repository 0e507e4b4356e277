/* tests/mpi_util.c — see mpi_util.h. */
#include "mpi_util.h"

#include <stdio.h>
#include <string.h>

#include "test.h"
#include "ctl/cc.h"
#include "route/route.h"

int mpi_h_setup_tuned(struct mpi_h *h, const char *system,
                      void (*tune)(struct net_params *np, void *ctx),
                      void *ctx)
{
    memset(h, 0, sizeof *h);
    diag_init(&h->d);
    if (topo_build_system(&h->t, system, &h->d) != 0)
        return -1;
    if (sim_init(&h->s, EVQ_DEFAULT, net_entities(&h->t)) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &h->t);
    if (tune)
        tune(&np, ctx);
    if (net_init(&h->n, &h->t, &np, &h->s, 1, &h->d) != 0)
        return -1;
    h->net_ok = true;
    return 0;
}

static void tune_counters(struct net_params *np, void *ctx)
{
    np->counters = *(const bool *)ctx;
}

int mpi_h_setup(struct mpi_h *h, const char *system, bool counters)
{
    return mpi_h_setup_tuned(h, system, tune_counters, &counters);
}
int mpi_h_fail_start;
unsigned mpi_h_starts;

int mpi_h_start(struct mpi_h *h, const struct dmpi_params *p,
                const struct dmpi_job_spec *jobs, uint32_t n)
{
    struct dmpi_params dp;
    if (!p) {
        dmpi_defaults(&dp);
        p = &dp;
    }
    mpi_h_starts++;
    if (mpi_h_fail_start ||
        dmpi_init(&h->m, &h->s, &h->n, p, jobs, n, MPI_H_EV_RANK, &h->d) !=
            0) {
        CHECK(!"mpi_h_start: the MPI layer could not be set up");
        return -1;
    }
    h->mpi_ok = true;
    return 0;
}

int mpi_h_run(struct mpi_h *h)
{
    sim_run(&h->s, SIMTIME_S);
    if (h->m.error)
        fprintf(stderr, "  dmpi: %s\n", h->m.why);
    CHECK(!h->m.error);
    CHECK(!sim_failed(&h->s));
    CHECK(dmpi_done(&h->m));
    CHECK(dmpi_collect(&h->m) == 0);
    return h->m.error || !dmpi_done(&h->m) ? -1 : 0;
}

void mpi_h_teardown(struct mpi_h *h)
{
    if (h->mpi_ok)
        dmpi_free(&h->m);
    if (h->net_ok)
        net_free(&h->n);
    sim_free(&h->s);
    topo_free(&h->t);
}

uint32_t mpi_h_node_on(const struct topo *t, uint32_t r)
{
    return t->nics[t->routers[r].first_nic].node;
}

/* The builder `name` with its defaults in *prm, or NULL (a check fails). */
static const struct topo_builder *builder(const char *name,
                                          union topo_params *prm)
{
    const struct topo_builder *b = (const struct topo_builder *)
        registry_find(&topo_builder_registry, name);
    CHECK(b != NULL);
    if (b)
        b->defaults(prm);
    return b;
}

static int build(struct topo *t, const struct topo_builder *b,
                 const union topo_params *prm, const char *name)
{
    struct diag d;
    diag_init(&d);
    int rc = topo_build(t, b, prm, name, "test", &d, NULL);
    CHECK(rc == 0);
    return rc;
}

int mpi_h_torus(struct topo *t, uint32_t x, uint32_t y, uint32_t z)
{
    union topo_params prm;
    const struct topo_builder *b = builder("torus", &prm);
    if (!b)
        return -1;
    prm.torus.x = x;
    prm.torus.y = y;
    prm.torus.z = z;
    return build(t, b, &prm, "torus");
}

int mpi_h_dragonfly(struct topo *t, uint32_t p, uint32_t a, uint32_t h,
                    uint32_t g)
{
    union topo_params prm;
    const struct topo_builder *b = builder("dragonfly", &prm);
    if (!b)
        return -1;
    prm.dragonfly.p = p;
    prm.dragonfly.a = a;
    prm.dragonfly.h = h;
    prm.dragonfly.g = g;
    return build(t, b, &prm, "dragonfly");
}
