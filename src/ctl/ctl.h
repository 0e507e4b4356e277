/* ctl/ctl.h — routing controllers beside the NICs: the routing mode of
 * every message a job's ranks post.
 *
 * What is modelled: on a Cray XC the routing mode is a field of each uGNI
 * post (dlvr_mode); Cray MPI fills it from two environment variables,
 * MPICH_GNI_ROUTING_MODE for every message and MPICH_GNI_A2A_ROUTING_MODE
 * for those of MPI_Alltoall (SC'19 §2.2 and its footnote 2), and the SC'19
 * library (papers-and-workloads.md §4.1) rewrites it message by message
 * from the NIC's counters. A controller here is one of those policies,
 * a NIC controller of role NIC_CTL_ROUTE (net/nic_ctl.h: the interface
 * the rate controllers of ctl/cc.h share), chosen per job by name
 * (`dfsim list controller`):
 *   network    every message in network.routing (no controller: the
 *              mode the network section gives; any family)
 *   default    Cray MPI's defaults: ADAPTIVE_0, alltoall ADAPTIVE_1 (SC'19
 *              §2.2: "It is the default routing algorithm used for
 *              MPI_Alltoall"; the paper's DEFAULT)        [Aries]
 *   high-bias  every message ADAPTIVE_3, MPI_Alltoall's too (the
 *              paper's ADAPTIVE WITH HIGH BIAS, set for every post as the
 *              library's AWR_ROUTING_TYPE does; see ctl.c)   [Aries]
 *   app-aware  the SC'19 application-aware routing (ctl/awr.h), from
 *              the NIC counters' meanings: Aries' by their names, any
 *              family's NICs (a what-if off Aries)
 *   ADAPTIVE_0 .. ADAPTIVE_3   that one mode for every message, alltoall
 *              included (SC'19 Fig. 7's comparison)          [Aries]
 *
 * Variants (SC'19 §3: fix the allocation, alternate the variants): a job
 * may list several controllers; its iteration i (the marks its rank has
 * made when it posts) runs under variant i mod n, so every variant sees
 * the same allocation and, iteration after iteration, the same
 * background. (The paper alternates whole runs; in a simulation the
 * iterations of one run are the cheaper equivalent.)
 *
 * Accounting: the bytes each job posts in each mode under each variant,
 * warm-up iterations included (the share of traffic app-aware sends with
 * DEFAULT's modes: SC'19 Fig. 8's x-axis labels).
 */
#ifndef DFSIM_CTL_H
#define DFSIM_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/registry.h"
#include "core/rng.h"
#include "ctl/awr.h"
#include "mpi/mpi.h"
#include "net/net.h"

/* The parameters of the routing controllers that have some, each with
 * its block (app-aware: the app_aware section's struct awr_params). A
 * controller sits where SC'19's library sits, between the MPI layer and
 * the NIC: it sees each post before it is handed to the NIC (route) and
 * right after (posted), and decides the post's routing mode; set up once
 * per run for all the jobs that use it. */
#define CTL_MAX_PARAMS 4
struct ctl_params {
    uint32_t n;
    const struct nic_ctl *ctl[CTL_MAX_PARAMS];
    const void *params[CTL_MAX_PARAMS];
};

/* The routing controllers (struct nic_ctl of role NIC_CTL_ROUTE). */
extern const struct registry controller_registry;

#define CTL_MAX_VARIANTS 8

/* A job's controllers: n = 1 for one, up to CTL_MAX_VARIANTS alternated. */
struct ctl_job {
    uint32_t n;
    const struct nic_ctl *v[CTL_MAX_VARIANTS];
    bool shuffled;      /* each round of n iterations in a random order */
    uint64_t order_key; /* shuffled: the key of the job's stream
                           (rng_stream(seed, RNG_JOB, job)) */
    const char *name;   /* the job, for errors */
    const char *file;   /* where the job is written (NULL: nowhere) */
    int line;
};

/* The variant of a job's iteration. Alternated (SC'19 §3): iteration i
 * runs variant i mod n. Shuffled (a randomised complete block design):
 * round b = i / n runs every variant once, in the order of a Fisher-Yates
 * shuffle drawn from the job's stream at position 64 b, so that a
 * background with a period of a few iterations cannot lock onto one
 * variant (with a deterministic rotation it can: the same variant meets
 * every burst). */
static inline uint32_t ctl_variant(const struct ctl_job *j, uint32_t iter)
{
    if (j->n <= 1)
        return 0;
    if (!j->shuffled)
        return iter % j->n;
    uint32_t perm[CTL_MAX_VARIANTS];
    for (uint32_t i = 0; i < j->n; i++)
        perm[i] = i;
    struct rng r = { .key = j->order_key, .ctr = (uint64_t)(iter / j->n) * 64 };
    for (uint32_t i = j->n - 1; i > 0; i--) {
        uint32_t k = rng_below(&r, i + 1), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    return perm[iter % j->n];
}

/* The controllers of one run. */
struct ctl_run {
    struct net *n;
    uint32_t n_jobs;
    struct ctl_job *job;             /* [n_jobs] */
    uint8_t (*mode)[CTL_MAX_VARIANTS][2]; /* [job][variant][a2a]: net mode
                                            indexes of `mode`, `a2a_mode` */
    uint8_t (*impl)[CTL_MAX_VARIANTS];    /* [job][variant]: index into
                                            ops/st */
    uint64_t *bytes;                 /* [job][variant][NET_MAX_MODES] */
    uint32_t n_ops;                  /* controllers in use, each once */
    const struct nic_ctl **ops;      /* [n_ops] */
    void **st;                       /* [n_ops]: their state */
    uint32_t *nic_variant;           /* [nics]: (job, variant) of the
                                        NIC's last post: another job's
                                        process or another variant is told
                                        to the controllers (switched) */
};

/* Set up the controllers of jobs[0..n_jobs) on network n (whose modes
 * the controllers' routings are added to; one that reads counters needs
 * a network built with them). A controller the network cannot serve
 * (a routing mode its family lacks, app-aware on NICs without the Aries
 * counters) is an error at the job's file and line, naming the job.
 * Returns 0 or -1. */
int ctl_run_init(struct ctl_run *c, struct net *n, const struct ctl_job *jobs,
                 uint32_t n_jobs, const struct ctl_params *p,
                 struct diag *d);
void ctl_run_free(struct ctl_run *c);

/* A split run (exp/jobs_win.c): the bytes this partition's NICs posted
 * per job, variant and mode into p; another partition's added into c. */
struct pack;
struct unpack;
void ctl_run_pack(const struct ctl_run *c, struct pack *p);
void ctl_run_unpack_add(struct ctl_run *c, struct unpack *u);

/* Let the MPI layer ask c for each post's mode. */
void ctl_attach(struct ctl_run *c, struct dmpi *m);

/* Bytes job j posted under variant v in net mode k. */
static inline uint64_t ctl_bytes(const struct ctl_run *c, uint32_t j,
                                 uint32_t v, uint32_t k)
{
    return c->bytes[((size_t)j * CTL_MAX_VARIANTS + v) * NET_MAX_MODES + k];
}

/* The routing modes whose share of a job's bytes results report, the
 * same columns in every run: "network" (mode 0, network.routing) and the
 * modes the controllers add. A mode counts under every name it has (with
 * network.routing = ADAPTIVE_0 its bytes are both network's and
 * ADAPTIVE_0's). */
#define CTL_SHARE_MODES 4
extern const char *const ctl_share_names[CTL_SHARE_MODES];

/* Bytes job j posted under variant v in the mode called `name` (one of
 * ctl_share_names). */
uint64_t ctl_bytes_named(const struct ctl_run *c, uint32_t j, uint32_t v,
                         const char *name);

/* Whether some job's controller reads the network's counters. */
bool ctl_needs_counters(const struct ctl_job *jobs, uint32_t n_jobs);

/* For implementations: the net mode index of routing `name`, added to n
 * if needed; -1 if n's family cannot use it or n has NET_MAX_MODES modes
 * already, with what the controller does wrong in err ("sets ADAPTIVE_3,
 * which ...", to follow the controller's name). */
int ctl_net_mode(struct net *n, const char *name, char *err, size_t len);

/* app-aware (ctl/app_aware.c) */
extern const struct nic_ctl ctl_app_aware;

/* "network": every message in network.routing (no controller). */
extern const struct nic_ctl ctl_network;

#endif
