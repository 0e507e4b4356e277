/* ctl/ctl.c — routing controllers (see ctl.h). */
#include "ctl/ctl.h"

#include <stdlib.h>
#include <string.h>

#include "route/route.h"

/* SC'19 §2.2: MPICH_GNI_ROUTING_MODE selects the mode of every message,
 * MPICH_GNI_A2A_ROUTING_MODE that of MPI_Alltoall (default ADAPTIVE_1,
 * "INCREASINGLY MINIMAL BIAS"); Cray MPI's default routing is ADAPTIVE_0
 * ("ADAPTIVE", the paper's DEFAULT). */
static const struct ctl_entry ctl_network = {
    .base = { .name = "network",
              .help = "every message in network.routing (no controller)" },
    .kind = CTL_NETWORK,
};
static const struct ctl_entry ctl_default = {
    .base = { .name = "default",
              .help = "Cray MPI's defaults: ADAPTIVE_0, MPI_Alltoall "
                      "ADAPTIVE_1 (SC'19 DEFAULT) [Aries]" },
    .kind = CTL_STATIC, .mode = "ADAPTIVE_0", .a2a_mode = "ADAPTIVE_1",
};
/* The paper's static ADAPTIVE WITH HIGH BIAS runs differ from DEFAULT
 * for alltoall too (Fig. 8: 1.4-1.5x at >= 16 KiB), so every post of
 * theirs, MPI_Alltoall's included, went with ADAPTIVE_3: as the
 * library's AWR_ROUTING_TYPE does, which sets the mode of every post
 * (papers-and-workloads.md §4.1). */
static const struct ctl_entry ctl_high_bias = {
    .base = { .name = "high-bias",
              .help = "every message ADAPTIVE_3, MPI_Alltoall's too (SC'19 "
                      "ADAPTIVE WITH HIGH BIAS) [Aries]" },
    .kind = CTL_STATIC, .mode = "ADAPTIVE_3", .a2a_mode = "ADAPTIVE_3",
};
static const struct ctl_entry ctl_app_aware = {
    .base = { .name = "app-aware",
              .help = "SC'19 application-aware routing: ADAPTIVE_0 or _3 "
                      "per message from the NIC's counters [Aries]" },
    .kind = CTL_APP_AWARE, .mode = "ADAPTIVE_0", .a2a_mode = "ADAPTIVE_1",
};

/* One Aries mode for every post, MPI_Alltoall's too: the routing modes
 * as SC'19 Fig. 7 compares them. */
#define CTL_MODE(ID, MODE, TEXT)                                             \
    static const struct ctl_entry ID = {                                     \
        .base = { .name = MODE, .help = TEXT },                              \
        .kind = CTL_STATIC, .mode = MODE, .a2a_mode = MODE,                  \
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
            if (jobs[j].v[v]->kind == CTL_APP_AWARE)
                return true;
    return false;
}

/* The net mode index of routing `name`, added to n if needed; -1 (with
 * an error at job j's line) if the family cannot use it. */
static int mode_of(struct net *n, const char *name, const char *ctl,
                   const struct ctl_job *j, struct diag *d)
{
    const struct routing *r =
        (const struct routing *)registry_find(&routing_registry, name);
    if (!r || !route_supports(r, n->t->family)) {
        diag_error(d, j->file, j->line, NULL,
                   "job \"%s\": routing controller \"%s\" sets %s, which "
                   "a %s system cannot use (controllers other than "
                   "\"network\" model Cray MPI on Aries)",
                   j->name, ctl, name, topo_family_name(n->t->family));
        return -1;
    }
    int k = net_add_mode(n, r);
    if (k < 0)
        diag_error(d, j->file, j->line, NULL,
                   "job \"%s\": more than %d routing modes in one run",
                   j->name, NET_MAX_MODES);
    return k;
}

int ctl_run_init(struct ctl_run *c, struct net *n, const struct ctl_job *jobs,
                 uint32_t n_jobs, const struct awr_params *ap,
                 struct diag *d)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->n_jobs = n_jobs;
    c->job = calloc(n_jobs ? n_jobs : 1, sizeof *c->job);
    c->mode = calloc(n_jobs ? n_jobs : 1, sizeof *c->mode);
    c->bytes = calloc((size_t)(n_jobs ? n_jobs : 1) * CTL_MAX_VARIANTS *
                          NET_MAX_MODES,
                      sizeof *c->bytes);
    c->nic_variant = malloc((n->t->n_nics ? n->t->n_nics : 1) *
                            sizeof *c->nic_variant);
    if (!c->job || !c->mode || !c->bytes || !c->nic_variant) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        ctl_run_free(c);
        return -1;
    }
    for (uint32_t i = 0; i < n->t->n_nics; i++)
        c->nic_variant[i] = UINT32_MAX;
    int before = d->errors;
    const struct ctl_job *aware = NULL; /* the first job with app-aware */
    for (uint32_t j = 0; j < n_jobs; j++) {
        c->job[j] = jobs[j];
        if (c->job[j].n == 0) {
            c->job[j].n = 1;
            c->job[j].v[0] = &ctl_network;
        }
        for (uint32_t v = 0; v < c->job[j].n; v++) {
            const struct ctl_entry *e = c->job[j].v[v];
            if (e->kind == CTL_NETWORK)
                continue; /* mode 0: network.routing */
            int a = mode_of(n, e->mode, e->base.name, &jobs[j], d);
            int b = a < 0 ? -1 /* one error per controller */
                          : mode_of(n, e->a2a_mode, e->base.name, &jobs[j],
                                    d);
            if (a < 0 || b < 0)
                continue;
            c->mode[j][v][0] = (uint8_t)a;
            c->mode[j][v][1] = (uint8_t)b;
            if (e->kind == CTL_APP_AWARE && !aware) {
                c->awr_on = true;
                aware = &jobs[j];
            }
        }
    }
    if (d->errors == before && c->awr_on) {
        int a0 = mode_of(n, "ADAPTIVE_0", "app-aware", aware, d);
        int a1 = mode_of(n, "ADAPTIVE_1", "app-aware", aware, d);
        int a3 = mode_of(n, "ADAPTIVE_3", "app-aware", aware, d);
        char err[256];
        if (a0 >= 0 && a1 >= 0 && a3 >= 0) {
            c->ad[0] = (uint8_t)a0;
            c->ad[1] = (uint8_t)a1;
            c->ad[3] = (uint8_t)a3;
            if (awr_init(&c->awr, ap, n, c->ad[0], c->ad[1], c->ad[3], err,
                         sizeof err) != 0) {
                diag_error(d, aware->file, aware->line, NULL,
                           "job \"%s\": routing controller \"app-aware\": "
                           "%s", aware->name, err);
                c->awr_on = false;
            }
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
    if (c->awr_on)
        awr_free(&c->awr);
    free(c->job);
    free(c->mode);
    free(c->bytes);
    free(c->nic_variant);
    memset(c, 0, sizeof *c);
}

static struct awr_msg awr_msg_of(const struct dmpi_post *q)
{
    return (struct awr_msg){ .nic = q->src_nic, .dst_nic = q->dst_nic,
                             .bytes = q->bytes, .get = q->get,
                             .smsg = q->smsg, .alltoall = q->alltoall };
}

static uint8_t ctl_mode(void *ctx, const struct dmpi_post *q)
{
    struct ctl_run *c = ctx;
    const struct ctl_job *j = &c->job[q->job];
    uint32_t v = ctl_variant(j, q->iter);
    const struct ctl_entry *e = j->v[v];
    uint8_t mode = 0;
    uint32_t was = c->nic_variant[q->src_nic];
    if (c->awr_on && was != UINT32_MAX &&
        was != q->job * CTL_MAX_VARIANTS + v) {
        if (was / CTL_MAX_VARIANTS != q->job)
            awr_reset(&c->awr, q->src_nic); /* another job's process has
                                               run on the node */
        else if (c->awr.p.variant_restart)
            awr_restart(&c->awr, q->src_nic);
    }
    if (e->kind == CTL_STATIC) {
        mode = c->mode[q->job][v][q->alltoall];
    } else if (e->kind == CTL_APP_AWARE) {
        struct awr_msg m = awr_msg_of(q);
        mode = awr_select(&c->awr, &m);
    }
    c->nic_variant[q->src_nic] = q->job * CTL_MAX_VARIANTS + v;
    c->bytes[((size_t)q->job * CTL_MAX_VARIANTS + v) * NET_MAX_MODES +
             mode] += q->bytes;
    return mode;
}

static void ctl_sent(void *ctx, const struct dmpi_post *q, uint8_t mode)
{
    struct ctl_run *c = ctx;
    const struct ctl_job *j = &c->job[q->job];
    if (j->v[ctl_variant(j, q->iter)]->kind != CTL_APP_AWARE)
        return;
    struct awr_msg m = awr_msg_of(q);
    awr_sent(&c->awr, &m, mode);
}

void ctl_attach(struct ctl_run *c, struct dmpi *m)
{
    m->route_mode = ctl_mode;
    m->route_sent = ctl_sent;
    m->route_ctx = c;
}
