/* tests/mpi_util.h — a machine with the MPI-like layer on it, for tests
 * that run jobs (test_mpi.c, test_gpcnet.c) or only need the network
 * (test_awr.c). */
#ifndef DFSIM_TESTS_MPI_UTIL_H
#define DFSIM_TESTS_MPI_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/sim.h"
#include "mpi/mpi.h"
#include "net/net.h"
#include "topo/topo.h"

enum { MPI_H_EV_RANK = NET_EV_COUNT }; /* the layer's event type */

struct mpi_h {
    struct topo t;
    struct sim s;
    struct net n;
    struct dmpi m;
    struct diag d;
    bool net_ok, mpi_ok;
};

/* An x * y * z Gemini torus with the builder's other defaults into t
 * (quietly; a check fails if it cannot be built). 0 or -1. */
int mpi_h_torus(struct topo *t, uint32_t x, uint32_t y, uint32_t z);

/* A generic dragonfly of p nodes a router, a routers a group, h global
 * links a router and g groups (0: the balanced a * h + 1), the builder's
 * other defaults, into t (as mpi_h_torus). 0 or -1. */
int mpi_h_dragonfly(struct topo *t, uint32_t p, uint32_t a, uint32_t h,
                    uint32_t g);

/* Built-in system `system`, its network (counting if `counters`), seed 1.
 * Returns 0 or -1; mpi_h_teardown is harmless either way. */
int mpi_h_setup(struct mpi_h *h, const char *system, bool counters);

/* The same with the network's parameters from tune(np, ctx), called on
 * the system's defaults (NULL: none) — a congestion controller, its
 * constants; and the calendar queue the runs use. */
int mpi_h_setup_tuned(struct mpi_h *h, const char *system,
                      void (*tune)(struct net_params *np, void *ctx),
                      void *ctx);

/* The layer with parameters p (NULL: defaults) and jobs[0..n). Returns 0,
 * or -1 after a failed CHECK (the reason printed): every caller needs the
 * layer, so a test whose setup fails fails, whatever it wraps in
 * `if (mpi_h_start(..) == 0 && mpi_h_run(..) == 0)`. */
int mpi_h_start(struct mpi_h *h, const struct dmpi_params *p,
                const struct dmpi_job_spec *jobs, uint32_t n);

/* For the test of the tests (test_robust.c): while mpi_h_fail_start is
 * set, mpi_h_start fails as a setup error would; mpi_h_starts counts its
 * calls. */
extern int mpi_h_fail_start;
extern unsigned mpi_h_starts;

/* Run until the foreground jobs end (or 1 s of simulated time) and
 * collect their iterations; CHECKs that they all finished without error.
 * Returns 0 if they did. */
int mpi_h_run(struct mpi_h *h);

void mpi_h_teardown(struct mpi_h *h);

/* The node of router r's first NIC. */
uint32_t mpi_h_node_on(const struct topo *t, uint32_t r);

#endif
