/* ctl/ctl.c — routing controllers (see ctl.h). */
#include "ctl/ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "route/route.h"

/* SC'19 §2.2: MPICH_GNI_ROUTING_MODE selects the mode of every message,
 * MPICH_GNI_A2A_ROUTING_MODE that of MPI_Alltoall (default ADAPTIVE_1,
 * "INCREASINGLY MINIMAL BIAS"); Cray MPI's default routing is ADAPTIVE_0
 * ("ADAPTIVE", the paper's DEFAULT). */
const struct nic_ctl ctl_network = {
    .base = { .name = "network",
              .help = "every message in network.routing (no controller)" },
    .roles = NIC_CTL_ROUTE,
};
static const struct nic_ctl ctl_default = {
    .base = { .name = "default",
              .help = "Cray MPI's defaults: ADAPTIVE_0, MPI_Alltoall "
                      "ADAPTIVE_1 (SC'19 DEFAULT) [Aries]" },
    .roles = NIC_CTL_ROUTE,
    .mode = "ADAPTIVE_0", .a2a_mode = "ADAPTIVE_1",
};
/* The paper's static ADAPTIVE WITH HIGH BIAS runs differ from DEFAULT
 * for alltoall too (Fig. 8: 1.4-1.5x at >= 16 KiB), so every post of
 * theirs, MPI_Alltoall's included, went with ADAPTIVE_3: as the
 * library's AWR_ROUTING_TYPE does, which sets the mode of every post
 * (papers-and-workloads.md §4.1). */
static const struct nic_ctl ctl_high_bias = {
    .base = { .name = "high-bias",
              .help = "every message ADAPTIVE_3, MPI_Alltoall's too (SC'19 "
                      "ADAPTIVE WITH HIGH BIAS) [Aries]" },
    .roles = NIC_CTL_ROUTE,
    .mode = "ADAPTIVE_3",
};

/* One Aries mode for every post, MPI_Alltoall's too: the routing modes
 * as SC'19 Fig. 7 compares them. */
#define CTL_MODE(ID, MODE, TEXT)                                             \
    static const struct nic_ctl ID = {                                       \
        .base = { .name = MODE, .help = TEXT }, .roles = NIC_CTL_ROUTE,      \
        .mode = MODE,                                                        \
    }
CTL_MODE(ctl_a0, "ADAPTIVE_0", "every message ADAPTIVE_0 (no bias) [Aries]");
CTL_MODE(ctl_a1, "ADAPTIVE_1", "every message ADAPTIVE_1 (increasingly "
                               "minimal bias) [Aries]");
CTL_MODE(ctl_a2, "ADAPTIVE_2", "every message ADAPTIVE_2 (low bias) "
                               "[Aries]");
CTL_MODE(ctl_a3, "ADAPTIVE_3", "every message ADAPTIVE_3 (high bias) "
                               "[Aries]");

static const struct reg_entry *const entries[] = {
    &ctl_network.base, &ctl_default.base, &ctl_high_bias.base,
    &ctl_app_aware.base, &ctl_a0.base, &ctl_a1.base, &ctl_a2.base,
    &ctl_a3.base,
};

const struct registry controller_registry = {
    .kind = "controller",
    .help = "routing controllers beside the NIC, chosen per job (static "
            "Cray MPI modes, application-aware routing)",
    .entries = entries,
    .n = sizeof entries / sizeof entries[0],
};

const char *const ctl_share_names[CTL_SHARE_MODES] = {
    "network", "ADAPTIVE_0", "ADAPTIVE_1", "ADAPTIVE_3",
};

uint64_t ctl_bytes_named(const struct ctl_run *c, uint32_t j, uint32_t v,
                         const char *name)
{
    if (strcmp(name, "network") == 0)
        return ctl_bytes(c, j, v, 0);
    uint64_t b = 0;
    for (uint32_t k = 0; k < c->n->n_modes; k++)
        if (strcmp(c->n->modes[k]->base.name, name) == 0)
            b += ctl_bytes(c, j, v, k);
    return b;
}

bool ctl_needs_counters(const struct ctl_job *jobs, uint32_t n_jobs)
{
    for (uint32_t j = 0; j < n_jobs; j++)
        for (uint32_t v = 0; v < jobs[j].n; v++)
            if (jobs[j].v[v]->counters)
                return true;
    return false;
}

int ctl_net_mode(struct net *n, const char *name, char *err, size_t len)
{
    const struct routing *r =
        (const struct routing *)registry_find(&routing_registry, name);
    if (!r || !route_supports(r, n->t->family)) {
        snprintf(err, len, "sets %s, which a %s system cannot use "
                           "(controllers other than \"network\" model Cray "
                           "MPI on Aries)",
                 name, n->t->family->name);
        return -1;
    }
    int k = net_add_mode(n, r);
    if (k < 0)
        snprintf(err, len, "needs more than %d routing modes in one run",
                 NET_MAX_MODES);
    return k;
}

/* The net mode index of routing `name` for controller e of job j; -1
 * with an error at the job's line. */
static int mode_of(struct net *n, const char *name, const struct nic_ctl *e,
                   const struct ctl_job *j, struct diag *d)
{
    char err[256];
    int k = ctl_net_mode(n, name, err, sizeof err);
    if (k < 0)
        diag_error(d, j->file, j->line, NULL,
                   "job \"%s\": routing controller \"%s\" %s", j->name,
                   e->base.name, err);
    return k;
}

/* The index of controller e in c's list, added (and set up, for job j) if
 * new; -1 with an error at the job's line. */
static int impl_of(struct ctl_run *c, const struct nic_ctl *e,
                   const struct ctl_params *p, const struct ctl_job *j,
                   struct diag *d)
{
    for (uint32_t k = 0; k < c->n_ops; k++)
        if (c->ops[k] == e)
            return (int)k;
    char err[256] = "";
    void *st = NULL;
    const void *params = NULL;
    for (uint32_t k = 0; k < p->n; k++)
        if (p->ctl[k] == e)
            params = p->params[k];
    struct nic_ctl_setup setup = { .period = 0, .mark_above = UINT32_MAX };
    if (e->init && e->init(&st, c->n, params, &setup, err, sizeof err) != 0) {
        diag_error(d, j->file, j->line, NULL,
                   "job \"%s\": routing controller \"%s\": %s", j->name,
                   e->base.name, err);
        return -1;
    }
    c->ops[c->n_ops] = e;
    c->st[c->n_ops] = st;
    return (int)c->n_ops++;
}

int ctl_run_init(struct ctl_run *c, struct net *n, const struct ctl_job *jobs,
                 uint32_t n_jobs, const struct ctl_params *p, struct diag *d)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->n_jobs = n_jobs;
    size_t nj = n_jobs ? n_jobs : 1, max_ops = nj * CTL_MAX_VARIANTS;
    c->job = calloc(nj, sizeof *c->job);
    c->mode = calloc(nj, sizeof *c->mode);
    c->impl = calloc(nj, sizeof *c->impl);
    c->ops = calloc(max_ops, sizeof *c->ops);
    c->st = calloc(max_ops, sizeof *c->st);
    c->bytes = calloc(nj * CTL_MAX_VARIANTS * NET_MAX_MODES,
                      sizeof *c->bytes);
    c->nic_variant = malloc((n->t->n_nics ? n->t->n_nics : 1) *
                            sizeof *c->nic_variant);
    if (!c->job || !c->mode || !c->impl || !c->ops || !c->st || !c->bytes ||
        !c->nic_variant) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        ctl_run_free(c);
        return -1;
    }
    for (uint32_t i = 0; i < n->t->n_nics; i++)
        c->nic_variant[i] = UINT32_MAX;
    int before = d->errors;
    for (uint32_t j = 0; j < n_jobs; j++) {
        c->job[j] = jobs[j];
        if (c->job[j].n == 0) {
            c->job[j].n = 1;
            c->job[j].v[0] = &ctl_network;
        }
        for (uint32_t v = 0; v < c->job[j].n; v++) {
            const struct nic_ctl *e = c->job[j].v[v];
            int a = 0, b = 0; /* without modes: mode 0, network.routing */
            if (e->mode) {
                a = mode_of(n, e->mode, e, &jobs[j], d);
                b = a < 0 ? -1 /* one error per controller */
                  : e->a2a_mode ? mode_of(n, e->a2a_mode, e, &jobs[j], d)
                                : a;
            }
            int k = a < 0 || b < 0 ? -1 : impl_of(c, e, p, &jobs[j], d);
            if (k < 0)
                continue;
            c->mode[j][v][0] = (uint8_t)a;
            c->mode[j][v][1] = (uint8_t)b;
            c->impl[j][v] = (uint8_t)k;
        }
    }
    if (d->errors != before) {
        ctl_run_free(c);
        return -1;
    }
    return 0;
}

void ctl_run_free(struct ctl_run *c)
{
    for (uint32_t k = 0; k < c->n_ops; k++)
        if (c->ops[k]->free)
            c->ops[k]->free(c->st[k]);
    free(c->job);
    free(c->mode);
    free(c->impl);
    free(c->ops);
    free(c->st);
    free(c->bytes);
    free(c->nic_variant);
    memset(c, 0, sizeof *c);
}

static uint8_t ctl_mode(void *ctx, const struct nic_post *q)
{
    struct ctl_run *c = ctx;
    const struct ctl_job *j = &c->job[q->job];
    uint32_t v = ctl_variant(j, q->iter);
    uint32_t key = q->job * CTL_MAX_VARIANTS + v;
    uint32_t was = c->nic_variant[q->src_nic];
    /* Another job or variant posts from this NIC: a controller whose state
     * lives in the process (the SC'19 library is LD_PRELOADed into the
     * application) is told, as a new process would start from scratch. */
    if (was != UINT32_MAX && was != key)
        for (uint32_t k = 0; k < c->n_ops; k++)
            if (c->ops[k]->switched)
                c->ops[k]->switched(c->st[k], q->src_nic,
                                    was / CTL_MAX_VARIANTS != q->job);
    uint32_t k = c->impl[q->job][v];
    const uint8_t *modes = c->mode[q->job][v];
    /* a static controller takes its mode, MPI_Alltoall's apart (Cray MPI's
     * MPICH_GNI_A2A_ROUTING_MODE, SC'19 §2.2 footnote 2); a dynamic one
     * decides per message */
    uint8_t mode = c->ops[k]->route ? c->ops[k]->route(c->st[k], q, modes)
                                    : modes[q->alltoall];
    c->nic_variant[q->src_nic] = key;
    c->bytes[(size_t)key * NET_MAX_MODES + mode] += q->bytes;
    return mode;
}

static void ctl_sent(void *ctx, const struct nic_post *q, uint8_t mode)
{
    struct ctl_run *c = ctx;
    const struct ctl_job *j = &c->job[q->job];
    uint32_t k = c->impl[q->job][ctl_variant(j, q->iter)];
    if (c->ops[k]->posted)
        c->ops[k]->posted(c->st[k], q, mode);
}

void ctl_attach(struct ctl_run *c, struct dmpi *m)
{
    m->route_mode = ctl_mode;
    m->route_sent = ctl_sent;
    m->route_ctx = c;
}

void ctl_run_pack(const struct ctl_run *c, struct pack *p)
{
    size_t n = (size_t)c->n_jobs * CTL_MAX_VARIANTS * NET_MAX_MODES;
    pack_bytes(p, c->bytes, n * sizeof *c->bytes);
}

void ctl_run_unpack_add(struct ctl_run *c, struct unpack *u)
{
    size_t n = (size_t)c->n_jobs * CTL_MAX_VARIANTS * NET_MAX_MODES;
    for (size_t k = 0; k < n; k++) {
        uint64_t v;
        unpack_bytes(u, &v, sizeof v);
        c->bytes[k] += v;
    }
}
