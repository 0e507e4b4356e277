/* exp/impact.c — see impact.h. The section (reading and the checks), the
 * arithmetic of a cell, and the runs; the tables, impact.csv and the
 * report are in impact_report.c. */
#include "exp/impact.h"

#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/gpcnet.h"
#include "app/micro.h"
#include "app/workload.h"
#include "ctl/ctl.h"
#include "exp/alloc.h"
#include "exp/outdir.h"
#include "exp/par.h"
#include "ctl/cc.h"
#include "net/latency_model.h"

/* Most nodes of a study, as a job's (exp/jobspec.c: NODES_MAX). */
#define IMPACT_NODES_MAX (1u << 24)

/* floor(s x N) for the aggressors' nodes, with this much slack against a
 * product that binary floating point puts just below a whole number
 * (0.29 x 100 = 28.999999999999996): far below 1 / IMPACT_NODES_MAX, so
 * it never moves a product that is not whole in exact arithmetic. */
#define SHARE_EPS 1e-9

/* ---- the section ---------------------------------------------------------- */

#define SEC(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct impact_config, field), .help = text,         \
      __VA_ARGS__ }

static const char *const latency_fits[] = { "relative", "absolute", NULL };

static const struct cfg_key section_keys[] = {
    SEC(CFG_UINT32, "nodes", nodes,
        "nodes of the study, victims and aggressors together (SC'20: "
        "512); default: every node of the system with a NIC",
        .min = 2, .max = IMPACT_NODES_MAX),
    SEC(CFG_FLOATS, "shares", shares,
        "the aggressors' shares of the nodes, each in (0, 1), e.g. [0.1, "
        "0.5, 0.9] (SC'20 Fig. 9); required",
        .fmin = 0, .fmax = 1),
    SEC(CFG_NAME, "allocation", allocation,
        "how victims and aggressors are placed: linear, interleaved or "
        "random (SC'20 §III) (linear)",
        .reg = &allocation_registry),
    SEC(CFG_UINT32, "victim_nodes", victim_nodes,
        "nodes each victim runs on, the first of the victims' nodes in "
        "rank order (default: all the victims' nodes at each share)",
        .min = 1, .max = IMPACT_NODES_MAX),
    SEC(CFG_TIME, "warmup_us", warmup,
        "the aggressors' head start: the victims start at this time, "
        "alone and with them, us (0)",
        .unit_ps = SIMTIME_US, .fmin = 0, .fmax = 1e9),
    SEC(CFG_UINT32, "runs", runs,
        "placements, run r with seed + r; the victims' iterations are "
        "pooled over them (1)",
        .min = 1, .max = 1000),
    SEC(CFG_NAMES, "congestion_controls", ccs,
        "run the whole study once under each of these controllers (dfsim "
        "list cc; ICS'21 Fig. 5: [\"cray\", \"dcqcn\", \"netscope\"]), "
        "each with its own isolated runs; the aggressors are named "
        "<aggressor>/<controller> in the results, and controllers.csv "
        "gives each one's latency per request and traffic per NIC "
        "(Table 4) (default: network.congestion_control alone)",
        .reg = &cc_registry),
    SEC(CFG_BOOL, "latency_model", latency_model,
        "Netscope's network latency model (ICS'21 §4.2) from the link "
        "stall counters: fitted on the first ping-pong victim's round "
        "trips (latency_model.csv), then M of every victim estimated "
        "from the counters and its delay sensitivity fitted on it "
        "(sensitivity.csv); dragonfly systems (false)"),
    SEC(CFG_CHOICE, "latency_fit", latency_fit,
        "the latency model's least squares: of \"relative\" errors (the "
        "paper's criterion, Fig. 4a) or of \"absolute\" ones (relative)",
        .choices = latency_fits),
    SEC(CFG_TIME, "latency_window_us", latency_window,
        "the counters' measurement window of the latency model and of "
        "the controllers' latency and traffic (Table 4), us (ICS'21: 1 s, "
        "a twentieth of its shortest runs or less; 20)",
        .unit_ps = SIMTIME_US, .fmin = 0.1, .fmax = 1e9),
    { .name = NULL },
};

/* Read the list `key` of groups of section g into *out. */
static uint32_t load_list(struct cfg_file *f, config_setting_t *g,
                          const char *key, bool victim,
                          struct job_config **out, struct impact_config *ic,
                          struct diag *d)
{
    config_setting_t *ls = config_setting_get_member(g, key);
    *out = NULL;
    if (!ls) {
        diag_error(d, ic->file, ic->line, NULL,
                   "missing required key \"impact.%s\" (%s)", key,
                   victim ? "the jobs whose slow-down is measured: victims "
                            "= ( { workload = ...; iterations = ...; }, "
                            "... )"
                          : "the jobs that congest the network: "
                            "aggressors = ( { workload = "
                            "\"gpcnet-rma-incast\"; bytes = 131072; }, "
                            "... )");
        return 0;
    }
    char path[32];
    snprintf(path, sizeof path, "impact.%s", key);
    int n = cfg_groups(f, ls, path, NULL, 0, d);
    if (n <= 0)
        return 0;
    if (n > IMPACT_MAX_GROUPS) {
        diag_error(d, ic->file, cfg_line(ls), path,
                   "%d groups; at most %d (each victim is 1 + aggressors "
                   "simulations per share and run)",
                   n, IMPACT_MAX_GROUPS);
        return 0;
    }
    config_setting_t **eg = calloc((size_t)n, sizeof *eg);
    struct job_config *j = calloc((size_t)n, sizeof *j);
    if (!eg || !j) {
        free(eg);
        free(j);
        diag_error(d, ic->file, cfg_line(ls), path, "out of memory");
        return 0;
    }
    cfg_groups(f, ls, path, eg, n, d);
    for (uint32_t i = 0; i < (uint32_t)n; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "impact.%s[%u]", key, i);
        if (eg[i])
            jobspec_read(f, eg[i], prefix, i,
                         victim ? JOBSPEC_VICTIM : JOBSPEC_AGGRESSOR, &j[i],
                         d);
        else
            jobs_job_defaults(&j[i]); /* reported by cfg_groups */
    }
    free(eg);
    jobspec_name(j, (uint32_t)n, path, d);
    *out = j;
    return (uint32_t)n;
}

int impact_load(struct cfg_file *f, struct impact_config *ic, bool has_jobs,
                bool has_production, struct diag *d)
{
    int before = d->errors;
    memset(ic, 0, sizeof *ic);
    ic->allocation = allocation_registry.entries[ALLOC_LINEAR];
    ic->runs = 1;
    ic->latency_window = 20 * SIMTIME_US;
    ic->latency_fit = latency_fits[0];
    config_setting_t *g = cfg_section(f, "impact");
    if (!g)
        return 0;
    ic->on = true;
    ic->file = cfg_file_of(f, g);
    ic->line = cfg_line(g);
    ic->nodes_line = cfg_member_line(g, "nodes");
    ic->shares_line = cfg_member_line(g, "shares");
    ic->victim_nodes_line = cfg_member_line(g, "victim_nodes");
    ic->latency_model_line = cfg_member_line(g, "latency_model");
    static const char *const skip[] = { "victims", "aggressors", NULL };
    int read_errors = cfg_read(f, g, "impact", section_keys, ic, skip, d);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return d->errors - before; /* reported by cfg_read */
    if (!config_setting_get_member(g, "shares"))
        diag_error(d, ic->file, ic->line, NULL,
                   "missing required key \"impact.shares\" (the aggressors' "
                   "shares of the nodes, e.g. shares = [0.1, 0.5, 0.9])");
    else if (read_errors == 0)
        for (uint32_t i = 0; i < ic->shares.n; i++) {
            double s = ic->shares.v[i];
            char key[40];
            snprintf(key, sizeof key, "impact.shares[%u]", i);
            if (!(s > 0 && s < 1))
                diag_error(d, ic->file, ic->shares_line, key,
                           "%g; expected a share in (0, 1): the victims "
                           "and the aggressors both need nodes",
                           s);
            for (uint32_t k = 0; k < i; k++)
                if (ic->shares.v[k] == s) {
                    diag_error(d, ic->file, ic->shares_line, key,
                               "%g is impact.shares[%u] too; expected each "
                               "share once",
                               s, k);
                    break;
                }
        }
    enum alloc_policy pol =
        ((const struct alloc_policy_entry *)ic->allocation)->policy;
    if (pol != ALLOC_LINEAR && pol != ALLOC_INTERLEAVED &&
        pol != ALLOC_RANDOM)
        diag_error(d, ic->file, cfg_member_line(g, "allocation"),
                   "impact.allocation",
                   "\"%s\"; expected linear, interleaved or random (SC'20 "
                   "§III's placements of victim and aggressor)",
                   alloc_policy_names[pol]);
    for (uint32_t i = 0; i < ic->ccs.n; i++)
        for (uint32_t k = 0; k < i; k++)
            if (ic->ccs.v[i] == ic->ccs.v[k]) {
                char key[48];
                snprintf(key, sizeof key, "impact.congestion_controls[%u]",
                         i);
                diag_error(d, ic->file, ic->ccs.line[i], key,
                           "\"%s\" is impact.congestion_controls[%u] too; "
                           "expected each controller once",
                           ic->ccs.v[i]->name, k);
                break;
            }
    ic->n_victims = load_list(f, g, "victims", true, &ic->victim, ic, d);
    ic->n_aggressors =
        load_list(f, g, "aggressors", false, &ic->aggressor, ic, d);
    if (has_jobs)
        diag_error(d, ic->file, ic->line, "impact",
                   "a file with an impact section runs its own jobs (the "
                   "victims, then each with each aggressor); expected no "
                   "jobs list beside it");
    if (has_production)
        diag_error(d, ic->file, ic->line, "impact",
                   "the production fill is not supported with an impact "
                   "section (its jobs would differ between a victim's "
                   "isolated and congested runs); expected no production "
                   "section beside it");
    return d->errors - before;
}

void impact_free(struct impact_config *ic)
{
    free(ic->victim);
    free(ic->aggressor);
    ic->victim = ic->aggressor = NULL;
    ic->n_victims = ic->n_aggressors = 0;
}

/* ---- sizes -------------------------------------------------------------- */

static uint32_t usable_nodes(const struct topo *t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n_nodes; i++)
        n += t->nodes[i].n_nics > 0;
    return n;
}

uint32_t impact_study_nodes(const struct impact_config *ic,
                            const struct topo *t)
{
    return ic->nodes ? ic->nodes : usable_nodes(t);
}

uint32_t impact_aggressor_nodes(uint32_t study, double share)
{
    return (uint32_t)floor(share * (double)study + SHARE_EPS);
}

uint32_t impact_victim_nodes(const struct impact_config *ic, uint32_t v,
                             uint32_t study, double share)
{
    if (ic->victim[v].nodes)
        return ic->victim[v].nodes;
    if (ic->victim_nodes)
        return ic->victim_nodes;
    return study - impact_aggressor_nodes(study, share);
}

/* The workload of j on nranks ranks, as jobs_load checks a job: its own
 * init, then freed. */
static void check_workload(const struct job_config *j, uint32_t nodes,
                           const char *prefix, double share,
                           struct diag *d)
{
    const struct workload *w = (const struct workload *)j->workload;
    _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
    struct workload_env env = { .nranks = nodes * j->ppn, .ppn = j->ppn,
                                .seed = 0, .job = 0 };
    char err[256];
    if (w->init(state, j->params, &env, err, sizeof err) != 0) {
        diag_error(d, j->file, j->line, prefix,
                   "%s on %u ranks (%u nodes at share %g): %s",
                   w->base.name, env.nranks, nodes, share, err);
        return;
    }
    w->free(state);
}

bool impact_is_pingpong(const struct job_config *j)
{
    const struct workload *w = (const struct workload *)j->workload;
    return w && strcmp(w->base.name, "pingpong") == 0;
}

/* The first ping-pong victim (UINT32_MAX: none). */
uint32_t impact_ref_pingpong(const struct impact_config *ic)
{
    for (uint32_t v = 0; v < ic->n_victims; v++)
        if (impact_is_pingpong(&ic->victim[v]))
            return v;
    return UINT32_MAX;
}

int impact_check(const struct impact_config *ic, const struct topo *t,
                 struct diag *d)
{
    if (!ic->on)
        return 0;
    int before = d->errors;
    uint32_t have = usable_nodes(t);
    if (ic->nodes > have) {
        diag_error(d, ic->file, ic->nodes_line, "impact.nodes",
                   "%u nodes; the system has %u with a NIC", ic->nodes,
                   have);
        return d->errors - before;
    }
    if (ic->latency_model && !latm_supported(t))
        diag_error(d, ic->file, ic->latency_model_line,
                   "impact.latency_model",
                   "%s is a torus; the latency model enumerates the "
                   "dragonflies' paths only (Aries, Slingshot, dragonfly)",
                   t->system);
    if (ic->latency_model && impact_ref_pingpong(ic) == UINT32_MAX)
        diag_error(d, ic->file, ic->latency_model_line,
                   "impact.latency_model",
                   "no ping-pong victim to fit it on; expected a victim "
                   "with workload = \"pingpong\" (ICS'21 §6.1 trains the "
                   "model on ping-pong round trips)");
    uint32_t study = impact_study_nodes(ic, t);
    for (uint32_t s = 0; s < ic->shares.n; s++) {
        double share = ic->shares.v[s];
        uint32_t na = impact_aggressor_nodes(study, share);
        uint32_t nv = study - na;
        char key[40];
        snprintf(key, sizeof key, "impact.shares[%u]", s);
        if (nv == 0) {
            diag_error(d, ic->file, ic->shares_line, key,
                       "%g of %u nodes leaves the victims none; expected a "
                       "smaller share or more nodes",
                       share, study);
            continue;
        }
        for (uint32_t a = 0; a < ic->n_aggressors; a++) {
            const struct job_config *j = &ic->aggressor[a];
            char p[48];
            snprintf(p, sizeof p, "impact.aggressors[%u]", a);
            if (!j->workload)
                continue;
            if ((uint64_t)na * j->ppn < 2) {
                diag_error(d, ic->file, ic->shares_line, key,
                           "%g of %u nodes gives aggressor \"%s\" %u node%s "
                           "with ppn %u, one rank at most, which sends "
                           "nothing; expected a larger share or more nodes",
                           share, study, j->name, na, na == 1 ? "" : "s",
                           j->ppn);
                continue;
            }
            check_workload(j, na, p, share, d);
        }
        for (uint32_t v = 0; v < ic->n_victims; v++) {
            const struct job_config *j = &ic->victim[v];
            char p[48];
            snprintf(p, sizeof p, "impact.victims[%u]", v);
            if (!j->workload)
                continue;
            uint32_t k = impact_victim_nodes(ic, v, study, share);
            if (k > nv) {
                bool own = j->nodes != 0;
                diag_error(d, own ? j->file : ic->file,
                           own ? j->line : ic->victim_nodes_line,
                           own ? p : "impact.victim_nodes",
                           "victim \"%s\" needs %u nodes, and at share %g "
                           "the victims have %u of the %u (the aggressors "
                           "floor(%g x %u) = %u); expected at most %u",
                           j->name, k, share, nv, study, share, study, na,
                           nv);
                continue;
            }
            check_workload(j, k, p, share, d);
        }
    }
    return d->errors - before;
}

/* ---- the runs ------------------------------------------------------------ */


/* An array of n samples and their values (NULL: nothing). */
static void samples_free(struct impact_sample *s, uint32_t n)
{
    for (uint32_t i = 0; s && i < n; i++)
        free(s[i].v);
    free(s);
}

static int sample_add(struct impact_sample *s, const simtime *v, uint32_t n)
{
    if (s->n + n > s->cap) {
        uint32_t cap = s->cap ? s->cap : 64;
        while (cap < s->n + n)
            cap *= 2;
        simtime *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = cap;
    }
    if (n) /* a victim stopped before its first iteration adds none */
        memcpy(s->v + s->n, v, n * sizeof *v);
    s->n += n;
    return 0;
}

static const char *const run_files[] = { "jobs.csv", "iterations.csv",
                                         "ranks.csv", "metrics.csv",
                                         "load.csv", "impact_runs.csv" };
#define N_RUN_FILES (sizeof run_files / sizeof run_files[0])

/* Node ids as ranges, "0-15,32" (what a node_list takes). */
static void put_ranges(FILE *f, const uint32_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n;) {
        uint32_t k = i;
        while (k + 1 < n && v[k + 1] == v[k] + 1)
            k++;
        fprintf(f, "%s%" PRIu32, i ? ";" : "", v[i]);
        if (k > i)
            fprintf(f, "-%" PRIu32, v[k]);
        i = k + 1;
    }
}

/* The study under way: what the simulations need, and what they
 * collect (x, handed to the results at the end). */
struct study {
    struct impact_data x;            /* collected, for the results */
    const struct jobs_config *jc;
    const struct topo *t;
    const struct net_params *np;
    const struct jobs_writer *writer; /* the runs' rows (exp/jobs.h) */
    simtime limit;
    FILE *f[N_RUN_FILES];
    uint32_t sims, total;            /* simulations so far, in all */
    uint32_t cc;                     /* the controller running */
    /* the simulations as units dealt over ranks (exp/par.h): unit u is
     * run r, share s, controller c, victim v, then alone (w = 0) or
     * beside aggressor w - 1, in that order of nesting */
    const struct net_params *npc;    /* [controller] */
    uint64_t seed;
    uint32_t *nodes[2];              /* the placement of run and share... */
    uint32_t placed;                 /* ... r * n_sh + s + 1 (0: none) */
    struct diag *d;
};


/* An array of n vectors and their values (NULL: nothing). */
static void dvecs_free(struct impact_dvec *d, uint32_t n)
{
    for (uint32_t i = 0; d && i < n; i++)
        free(d[i].v);
    free(d);
}

static int dvec_add(struct impact_dvec *d, double x)
{
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 256;
        double *v = realloc(d->v, cap * sizeof *v);
        if (!v)
            return -1;
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = x;
    return 0;
}

/* What one simulation's counters give (a jobs_observer). The latency
 * model (`model`): the victim's NICs; every window, the path classes of
 * each ordered pair of them (Eq. 4's spatial mean) and of the
 * ping-pong's pair both ways, summed with the window's length as weight
 * (Eq. 5's temporal mean). Table 4 (`nics`): every NIC that sent
 * requests in the window gives its request traffic (flits/s) and, if
 * responses came back, its latency per request (RSP_TRACK_2 /
 * RSP_NET_TRACK, us). */
struct lat_obs {
    struct latm m;
    bool model, nics;
    bool started, failed, m_ok;      /* m_ok: m set up */
    uint32_t *nic, n_nic;
    uint32_t pp_a, pp_b;             /* UINT32_MAX: not a ping-pong */
    struct latm_paths sp, rt;
    double weight;
    uint64_t *prev;                  /* [3 x n_nics]: flits, track, resps */
    simtime t_prev;
    struct impact_dvec *lat, *traf;
};

static void nic_counts(const struct net *n, uint32_t c, uint64_t v[3])
{
    struct ctr_ref f = { CTR_NIC_FLITS, 0, 0, 0, c };
    struct ctr_ref tr = { CTR_NIC_TRACK_NET, 0, 0, 0, c };
    struct ctr_ref k = { CTR_NIC_NET_TRACK, 0, 0, 0, c };
    v[0] = ctr_value(n, &f);
    v[1] = ctr_value(n, &tr);
    v[2] = ctr_value(n, &k);
}

/* Table 4's samples of the window ending now; 0 or -1 (memory). */
static int nic_window(struct lat_obs *o, const struct net *n)
{
    simtime len = n->s->now - o->t_prev;
    o->t_prev = n->s->now;
    double secs = (double)len * 1e-12, cyc = links_cycle_s(n);
    for (uint32_t c = 0; c < n->t->n_nics; c++) {
        uint64_t v[3], *p = &o->prev[3 * (size_t)c];
        nic_counts(n, c, v);
        uint64_t flits = v[0] - p[0], track = v[1] - p[1], k = v[2] - p[2];
        memcpy(p, v, sizeof v);
        if (len == 0 || flits == 0)
            continue;
        if (dvec_add(o->traf, (double)flits / secs) != 0 ||
            (k && dvec_add(o->lat, (double)track * cyc * 1e6 / k) != 0))
            return -1;
    }
    return 0;
}

static void lat_at(void *ctx, const struct net *n, bool closing)
{
    struct lat_obs *o = ctx;
    (void)closing;
    if (o->failed)
        return;
    if (!o->started) {
        o->started = true;
        o->m_ok = o->model && latm_init(&o->m, n) == 0;
        o->failed = o->model && !o->m_ok;
        o->t_prev = n->s->now;
        for (uint32_t c = 0; o->nics && c < n->t->n_nics; c++)
            nic_counts(n, c, &o->prev[3 * (size_t)c]);
        return;
    }
    if (o->nics && nic_window(o, n) != 0) {
        o->failed = true;
        return;
    }
    if (!o->model)
        return;
    simtime len = latm_window(&o->m);
    if (len == 0)
        return;
    double x = (double)len / (double)SIMTIME_US;
    struct latm_paths p, sum = { 0 };
    uint32_t pairs = 0;
    for (uint32_t i = 0; i < o->n_nic; i++)
        for (uint32_t k = 0; k < o->n_nic; k++)
            if (i != k) {
                latm_pair(&o->m, o->nic[i], o->nic[k], &p);
                latm_add(&sum, &p, 1.0);
                pairs++;
            }
    if (pairs)
        latm_add(&o->sp, &sum, x / pairs);
    if (o->pp_a != UINT32_MAX) {
        latm_pair(&o->m, o->pp_a, o->pp_b, &p);
        latm_add(&o->rt, &p, x);
        latm_pair(&o->m, o->pp_b, o->pp_a, &p);
        latm_add(&o->rt, &p, x);
    }
    o->weight += x;
}

/* Set o up for victim job j (its nodes placed): the latency model if
 * `model`, Table 4's samples into lat and traf if they are given.
 * Returns 0 or -1. */
static int lat_obs_init(struct lat_obs *o, const struct topo *t,
                        const struct job_config *j, bool model,
                        struct impact_dvec *lat, struct impact_dvec *traf)
{
    memset(o, 0, sizeof *o);
    o->model = model;
    o->nics = lat != NULL;
    o->lat = lat;
    o->traf = traf;
    o->pp_a = o->pp_b = UINT32_MAX;
    o->n_nic = j->n_list;
    o->nic = malloc((o->n_nic ? o->n_nic : 1) * sizeof *o->nic);
    if (o->nics)
        o->prev = calloc(3 * (size_t)(t->n_nics ? t->n_nics : 1),
                         sizeof *o->prev);
    if (!o->nic || (o->nics && !o->prev))
        return -1;
    for (uint32_t i = 0; i < o->n_nic; i++)
        o->nic[i] = t->nodes[j->list[i]].nic[0];
    if (impact_is_pingpong(j)) {
        const struct micro_params *mp = (const void *)j->params;
        uint32_t b = alloc_rank_node(j->list, j->ppn, mp->peer);
        o->pp_a = t->nodes[alloc_rank_node(j->list, j->ppn, 0)].nic[0];
        o->pp_b = t->nodes[b].nic[0];
    }
    return 0;
}

static void lat_obs_free(struct lat_obs *o)
{
    if (o->m_ok)
        latm_free(&o->m);
    free(o->nic);
    free(o->prev);
}

/* The nodes of the victims and of the aggressors for a share of the
 * study's nodes, drawn with seed. */
static int place(const struct study *st, uint32_t study, double share,
                 uint64_t seed, uint32_t **nodes, struct diag *d)
{
    enum alloc_policy pol =
        ((const struct alloc_policy_entry *)st->x.ic->allocation)->policy;
    struct alloc_request req[2];
    alloc_request_init(&req[0]);
    alloc_request_init(&req[1]);
    uint32_t na = impact_aggressor_nodes(study, share);
    req[0].job = "victims";
    req[0].nodes = study - na;
    req[1].job = "aggressors";
    req[1].nodes = na;
    for (int i = 0; i < 2; i++) {
        req[i].policy = pol;
        req[i].file = st->x.ic->file;
        req[i].line = st->x.ic->line;
    }
    return alloc_place(st->t, req, 2, seed, nodes, d);
}

/* What one simulation leaves for the study (a unit of exp/par.h): the
 * rows of the run files, then struct sim_facts, the victim's counted
 * iterations (simtime each) and, with congestion_controls, Table 4's
 * samples (latency, traffic: double each). */
enum { RES_FACTS = N_RUN_FILES, RES_ITER, RES_NLAT, RES_NTRAF, RES_PARTS };

struct sim_facts {
    int32_t finished;                /* the victim ended */
    int32_t point;                   /* a point of the fit (pt_*) */
    double pt_t, pt_m;
    struct latm_paths sp, rt;
};

/* Unit u's place in the study. */
struct sim_at {
    uint32_t r, s, c, v, w;
};

static struct sim_at sim_at(const struct study *st, uint32_t u)
{
    struct sim_at a;
    a.w = u % (1 + st->x.n_a);
    u /= 1 + st->x.n_a;
    a.v = u % st->x.n_v;
    u /= st->x.n_v;
    a.c = u % st->x.n_cc;
    u /= st->x.n_cc;
    a.s = u % st->x.n_sh;
    a.r = u / st->x.n_sh;
    return a;
}

/* A copy of n bytes at p as part k of res; 0 or -1 (memory). */
static int put_part(struct par_unit *res, uint32_t k, const void *p,
                    size_t n)
{
    res->part[k] = malloc(n ? n : 1);
    if (!res->part[k])
        return -1;
    if (n)
        memcpy(res->part[k], p, n);
    res->len[k] = n;
    return 0;
}

/* Simulation u: jobs[0..n) (the victim, the aggressor if any), into res.
 * Returns 0, -1 (reported to d) or SIM_INTERRUPTED. */
static int simulate(struct study *st, struct job_config *jobs, uint32_t n,
                    uint32_t u, uint32_t run, uint64_t seed, double share,
                    struct par_unit *res, struct diag *d)
{
    struct jobs_config jc = { .n = n, .job = jobs, .mpi = st->jc->mpi,
                              .awr = st->jc->awr };
    struct jobs_capture cap = { 0 };
    struct lat_obs lo;
    struct jobs_observer obs = { .period = st->x.ic->latency_window,
                                 .at = lat_at, .ctx = &lo };
    struct impact_dvec nl = { 0 }, nt = { 0 };
    bool lat = st->x.ic->latency_model || st->x.ic->ccs.n;
    FILE *f[N_RUN_FILES] = { NULL };
    int rc = -1;
    res->n = RES_PARTS;
    bool ok = true;
    for (size_t i = 0; i < N_RUN_FILES; i++) {
        f[i] = ok ? open_memstream(&res->part[i], &res->len[i]) : NULL;
        ok = ok && f[i];
    }
    if (!ok || (lat && lat_obs_init(&lo, st->t, &jobs[0],
                                    st->x.ic->latency_model,
                                    st->x.ic->ccs.n ? &nl : NULL,
                                    st->x.ic->ccs.n ? &nt : NULL) != 0)) {
        if (ok && lat)
            lat_obs_free(&lo);
        lat = false;
        goto oom;
    }
    struct jobs_output out = {
        .jobs = f[0], .iterations = f[1], .ranks = f[2], .metrics = f[3],
        .load = f[4], .run = u, .header = u == 0, .capture = &cap,
        .observer = lat ? &obs : NULL, .writer = st->writer,
    };
    double t0 = time_wall_seconds();
    simtime end = 0;
    rc = jobs_run(&jc, st->t, st->np, seed, st->limit, &out, &end, d);
    if (rc >= 0 && lat && lo.failed)
        goto oom;
    if (rc < 0)
        goto fail;
    const struct jobs_capture_job *v = &cap.job[0];
    /* the same-placement guarantee: the victim ran on the nodes it was
     * given, whoever shared the machine */
    if (v->n_nodes != jobs[0].n_list ||
        memcmp(v->nodes, jobs[0].list, v->n_nodes * sizeof *v->nodes) !=
            0) {
        diag_error(d, NULL, 0, "impact",
                   "victim \"%s\" ran on other nodes than it was given "
                   "(simulation %u): a bug",
                   jobs[0].name, u);
        rc = -1;
        goto fail;
    }
    uint32_t skip = jobs[0].warmup < v->n_iter ? jobs[0].warmup : v->n_iter;
    FILE *r = f[5];
    if (u == 0)
        fprintf(r, "run,rep,seed,share,victim,aggressor,end_us,finished,"
                   "iterations,victim_nodes,aggressor_nodes,"
                   "congestion_control\n");
    fprintf(r, "%u,%u,%" PRIu64 ",%.6f,%s,%s,%" PRIu64 ".%06" PRIu64
               ",%d,%u,",
            u, run, seed, share, jobs[0].name, n > 1 ? jobs[1].name : "",
            end / SIMTIME_US, end % SIMTIME_US, v->finished ? 1 : 0,
            v->n_iter);
    put_ranges(r, v->nodes, v->n_nodes);
    fputc(',', r);
    if (n > 1)
        put_ranges(r, cap.job[1].nodes, cap.job[1].n_nodes);
    char ccn[64];
    fprintf(r, ",%s\n", cc_name(st->np, ccn, sizeof ccn));
    double mean = 0;
    for (uint32_t k = skip; k < v->n_iter; k++)
        mean += (double)v->iter[k];
    mean = v->n_iter > skip ? mean / (v->n_iter - skip) / SIMTIME_US : NAN;
    struct sim_facts fa = { .finished = v->finished };
    if (v->msg_timed && v->n_iter > skip && v->finished) {
        fa.point = 1;
        fa.pt_t = mean;
        fa.pt_m = (double)v->msg_time / (double)v->msg_timed /
                  (double)SIMTIME_US;
        /* the time averages; NaN: no window (the model off) */
        struct latm_paths none = { NAN, NAN, NAN, NAN };
        fa.sp = fa.rt = none;
        if (lat && lo.weight > 0) {
            fa.sp = fa.rt = (struct latm_paths){ 0 };
            latm_add(&fa.sp, &lo.sp, 1.0 / lo.weight);
            latm_add(&fa.rt, &lo.rt, 1.0 / lo.weight);
        }
    }
    if (put_part(res, RES_FACTS, &fa, sizeof fa) != 0 ||
        put_part(res, RES_ITER, v->iter + skip,
                 (v->n_iter - skip) * sizeof *v->iter) != 0 ||
        put_part(res, RES_NLAT, nl.v, nl.n * sizeof *nl.v) != 0 ||
        put_part(res, RES_NTRAF, nt.v, nt.n * sizeof *nt.v) != 0)
        goto oom;
    const char *on = par_where();
    fprintf(stderr,
            "  impact %u/%u%s: run %u, share %.2f%s%s, %s %s%s: %u "
            "iterations, mean %.3f us%s (%.1f s)\n",
            u + 1, st->total, on, run, share, st->x.ic->ccs.n ? ", " : "",
            st->x.ic->ccs.n ? cc_name(st->np, ccn, sizeof ccn) : "", jobs[0].name,
            n > 1 ? "with " : "alone", n > 1 ? jobs[1].name : "", v->n_iter,
            mean, v->finished ? "" : ", UNFINISHED",
            time_wall_seconds() - t0);
    rc = 0;
    goto fail; /* the common end */
oom:
    diag_error(d, NULL, 0, "impact", "out of memory");
    rc = -1;
fail:
    for (size_t i = 0; i < N_RUN_FILES; i++)
        if (f[i] && fclose(f[i]) != 0 && rc == 0) {
            diag_error(d, NULL, 0, "impact", "out of memory");
            rc = -1;
        }
    if (lat)
        lat_obs_free(&lo);
    free(nl.v);
    free(nt.v);
    jobs_capture_free(&cap);
    return rc;
}

/* par_deal's unit: simulation u of the study, placed as its run and
 * share say (each rank places for itself; the placement depends only on
 * the run's seed and the share). */
static int sim_unit(void *ctx, uint32_t u, struct par_unit *res)
{
    struct study *st = ctx;
    const struct impact_config *ic = st->x.ic;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    struct sim_at a = sim_at(st, u);
    uint64_t sd = st->seed + a.r;
    double share = ic->shares.v[a.s];
    uint32_t key = a.r * st->x.n_sh + a.s + 1;
    if (st->placed != key) {
        alloc_free(st->nodes, 2);
        st->nodes[0] = st->nodes[1] = NULL;
        st->placed = 0;
        if (place(st, st->x.study_nodes, share, sd, st->nodes, st->d) != 0)
            return -1;
        st->placed = key;
    }
    st->np = &st->npc[a.c];
    st->cc = a.c;
    struct job_config jobs[2];
    jobs[0] = ic->victim[a.v];
    jobs[0].name = ic->victim[a.v].name;
    jobs[0].allocation = allocation_registry.entries[ALLOC_LIST];
    jobs[0].n_list = jobs[0].nodes =
        impact_victim_nodes(ic, a.v, st->x.study_nodes, share);
    jobs[0].list = st->nodes[0];
    jobs[0].start = ic->warmup;
    jobs[0].background = false;
    if (a.w > 0) {
        uint32_t g = a.w - 1;
        jobs[1] = ic->aggressor[g];
        jobs[1].name = ic->aggressor[g].name;
        jobs[1].allocation = allocation_registry.entries[ALLOC_LIST];
        jobs[1].n_list = jobs[1].nodes =
            impact_aggressor_nodes(st->x.study_nodes, share);
        jobs[1].list = st->nodes[1];
        jobs[1].start = 0;
        jobs[1].background = true;
    }
    return simulate(st, jobs, a.w > 0 ? 2 : 1, u, a.r, sd, share, res,
                    st->d);
}

/* Append the n doubles at p to d; 0 or -1 (memory). */
static int dvec_append(struct impact_dvec *d, const char *p, size_t bytes)
{
    for (size_t i = 0; i + sizeof(double) <= bytes; i += sizeof(double)) {
        double x;
        memcpy(&x, p + i, sizeof x);
        if (dvec_add(d, x) != 0)
            return -1;
    }
    return 0;
}

/* par_deal's commit, on rank 0 in unit order: simulation u's rows into
 * the run files, its iterations into its cell's sample, its point of
 * the fit and Table 4's samples into the study. */
static int sim_commit(void *ctx, uint32_t u, struct par_unit *res)
{
    struct study *st = ctx;
    if (res->status != 0)
        return res->status;
    struct sim_facts fa;
    if (res->n != RES_PARTS || res->len[RES_FACTS] != sizeof fa ||
        res->len[RES_ITER] % sizeof(simtime) != 0) {
        diag_error(st->d, NULL, 0, "impact",
                   "simulation %u: a malformed result (a bug)", u);
        return -1;
    }
    memcpy(&fa, res->part[RES_FACTS], sizeof fa);
    for (size_t i = 0; i < N_RUN_FILES; i++) {
        fwrite(res->part[i], 1, res->len[i], st->f[i]);
        fflush(st->f[i]);
    }
    struct sim_at a = sim_at(st, u);
    struct impact_sample *smp;
    bool *done;
    double *run_mean; /* this placement's mean iteration */
    if (a.w == 0) {
        uint32_t iv = (a.c * st->x.n_sh + a.s) * st->x.n_v + a.v;
        smp = &st->x.iso[iv];
        done = &st->x.iso_done[iv];
        run_mean = &st->x.iso_run[(size_t)iv * st->x.ic->runs + a.r];
    } else {
        uint32_t k = ((a.c * st->x.n_a + a.w - 1) * st->x.n_sh + a.s) * st->x.n_v +
                     a.v;
        smp = &st->x.con[k];
        done = &st->x.con_done[k];
        run_mean = &st->x.con_run[(size_t)k * st->x.ic->runs + a.r];
    }
    /* the part is a malloc'd block (aligned for simtime); sample_add
     * copies it with memcpy */
    uint32_t n_iter = (uint32_t)(res->len[RES_ITER] / sizeof(simtime));
    int err = sample_add(smp, (const simtime *)(const void *)
                                  res->part[RES_ITER], n_iter);
    if (n_iter) { /* for impact_runs_stats */
        double sum = 0;
        for (uint32_t i = 0; i < n_iter; i++) {
            simtime t;
            memcpy(&t, res->part[RES_ITER] + i * sizeof t, sizeof t);
            sum += (double)t / (double)SIMTIME_US;
        }
        *run_mean = sum / n_iter;
    }
    *done = *done && fa.finished;
    if (!fa.finished)
        st->x.unfinished = true;
    if (fa.point) {
        uint32_t k = a.v * st->x.per_victim + st->x.pt_n[a.v]++;
        st->x.pt_t[k] = fa.pt_t;
        st->x.pt_m[k] = fa.pt_m;
        st->x.pt_sim[k] = u;
        st->x.pt_agg[k] = a.w > 0 ? st->x.ic->aggressor[a.w - 1].name : NULL;
        st->x.pt_sp[k] = fa.sp;
        st->x.pt_rt[k] = fa.rt;
    }
    if (st->x.nlat &&
        (dvec_append(&st->x.nlat[a.c], res->part[RES_NLAT],
                     res->len[RES_NLAT]) != 0 ||
         dvec_append(&st->x.ntraf[a.c], res->part[RES_NTRAF],
                     res->len[RES_NTRAF]) != 0))
        err = 1;
    st->sims++;
    if (err) {
        diag_error(st->d, NULL, 0, "impact", "out of memory");
        return -1;
    }
    return 0;
}

int impact_simulate(const struct impact_config *ic,
                    const struct jobs_config *jc, const struct topo *t,
                    const struct net_params *np, uint64_t seed,
                    simtime limit, const char *dir,
                    const struct jobs_writer *writer,
                    struct impact_data *data, struct diag *d)
{
    memset(data, 0, sizeof *data);
    /* with congestion_controls, every simulation once per controller:
     * the cells' aggressors are (controller, aggressor) pairs, c * n_a +
     * g, and the isolated runs are per controller too */
    uint32_t n_sh = ic->shares.n, n_v = ic->n_victims,
             n_cc = ic->ccs.n ? ic->ccs.n : 1,
             n_a = ic->n_aggressors, n_ca = n_cc * n_a;
    uint32_t study_nodes = impact_study_nodes(ic, t);
    struct net_params npc[CFG_LIST_MAX];
    for (uint32_t c = 0; c < n_cc; c++) {
        npc[c] = *np;
        const struct nic_ctl *ctl = ic->ccs.n ? (const struct nic_ctl *)
                                                    ic->ccs.v[c]
                                              : NULL;
        char err[128];
        if (ctl && cc_set(&npc[c], t, &ctl, 1, err, sizeof err) != 0) {
            diag_error(d, ic->file, ic->ccs.line[c],
                       "impact.congestion_controls", "%s", err);
            return -1;
        }
    }
    struct study st = { .x = { .ic = ic }, .jc = jc, .t = t, .np = np,
                        .writer = writer, .limit = limit };
    st.total = ic->runs * n_sh * n_v * n_cc * (1 + n_a);
    uint32_t n_cells = n_ca * n_sh * n_v, n_iso = n_cc * n_sh * n_v;
    st.x.iso = calloc(n_iso, sizeof *st.x.iso);
    st.x.con = calloc(n_cells, sizeof *st.x.con);
    st.x.iso_done = calloc(n_iso, sizeof *st.x.iso_done);
    st.x.iso_run = malloc((size_t)(n_iso ? n_iso : 1) * ic->runs *
                        sizeof *st.x.iso_run);
    st.x.con_run = malloc((size_t)(n_cells ? n_cells : 1) * ic->runs *
                        sizeof *st.x.con_run);
    st.x.con_done = calloc(n_cells, sizeof *st.x.con_done);
    struct impact_config *view = &st.x.view; /* the cells' aggressors,
                                                  named */
    *view = *ic;
    view->aggressor = NULL;
    if (ic->ccs.n) {
        view->n_aggressors = n_ca;
        view->aggressor = calloc(n_ca ? n_ca : 1, sizeof *view->aggressor);
        for (uint32_t c = 0; view->aggressor && c < n_ca; c++) {
            struct job_config *j = &view->aggressor[c];
            *j = ic->aggressor[c % n_a];
            snprintf(j->name_buf, sizeof j->name_buf, "%s/%s",
                     ic->aggressor[c % n_a].name,
                     ic->ccs.v[c / n_a]->name);
            j->name = j->name_buf;
        }
    }
    st.x.per_victim = ic->runs * n_sh * n_cc * (1 + n_a);
    st.x.pt_t = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_t);
    st.x.pt_m = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_m);
    st.x.pt_n = calloc(n_v, sizeof *st.x.pt_n);
    st.x.pt_sp = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_sp);
    st.x.pt_rt = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_rt);
    st.x.pt_sim = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_sim);
    st.x.pt_agg = calloc((size_t)n_v * st.x.per_victim, sizeof *st.x.pt_agg);
    if (ic->ccs.n) {
        st.x.nlat = calloc(n_cc, sizeof *st.x.nlat);
        st.x.ntraf = calloc(n_cc, sizeof *st.x.ntraf);
    }
    int rc = -1;
    if (!st.x.iso || !st.x.con || !st.x.iso_done || !st.x.con_done ||
        !st.x.iso_run || !st.x.con_run ||
        !st.x.pt_t || !st.x.pt_m || !st.x.pt_n || !st.x.pt_sp || !st.x.pt_rt ||
        !st.x.pt_sim || !st.x.pt_agg ||
        (ic->ccs.n && (!view->aggressor || !st.x.nlat || !st.x.ntraf))) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n_iso; i++)
        st.x.iso_done[i] = true;
    for (size_t i = 0; i < (size_t)n_iso * ic->runs; i++)
        st.x.iso_run[i] = NAN;
    for (size_t i = 0; i < (size_t)n_cells * ic->runs; i++)
        st.x.con_run[i] = NAN;
    for (uint32_t i = 0; i < n_cells; i++)
        st.x.con_done[i] = true;
    for (size_t i = 0; par_rank() == 0 && i < N_RUN_FILES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, run_files[i]);
        st.f[i] = fopen(path, "w");
        if (!st.f[i]) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            goto done;
        }
    }
    printf("\ncongestion impact: %u victim%s x %u aggressor%s x %u share%s "
           "of %u nodes (%s), %u run%s",
           n_v, n_v == 1 ? "" : "s", n_a, n_a == 1 ? "" : "s", n_sh,
           n_sh == 1 ? "" : "s", study_nodes, ic->allocation->name,
           ic->runs, ic->runs == 1 ? "" : "s");
    if (ic->ccs.n)
        printf(", %u congestion controls", n_cc);
    printf(": %u simulations\n", st.total);
    fflush(stdout);
    st.npc = npc;
    st.x.n_cells = n_cells;
    st.x.n_iso = n_iso;
    st.x.n_sh = n_sh;
    st.x.n_v = n_v;
    st.x.n_cc = n_cc;
    st.x.n_a = n_a;
    st.x.study_nodes = study_nodes;
    st.seed = seed;
    st.d = d;
    int prc = par_deal(0, st.total, sim_unit, sim_commit, &st);
    alloc_free(st.nodes, 2);
    if (prc != 0) {
        rc = prc == SIM_INTERRUPTED ? SIM_INTERRUPTED : -1;
        goto done;
    }
    rc = 0;
done:
    for (size_t i = 0; i < N_RUN_FILES; i++)
        if (st.f[i])
            fclose(st.f[i]);
    *data = st.x; /* the caller frees it (impact_data_free), failed or
                     not */
    return rc;
}

void impact_data_free(struct impact_data *x)
{
    samples_free(x->iso, x->n_iso);
    samples_free(x->con, x->n_cells);
    free(x->iso_done);
    free(x->iso_run);
    free(x->con_run);
    free(x->con_done);
    free(x->pt_t);
    free(x->pt_m);
    free(x->pt_n);
    free(x->pt_sp);
    free(x->pt_rt);
    free(x->pt_sim);
    free(x->pt_agg);
    dvecs_free(x->nlat, x->n_cc);
    dvecs_free(x->ntraf, x->n_cc);
    free(x->view.aggressor);
    memset(x, 0, sizeof *x);
}
/* ---- documentation ------------------------------------------------------ */

void impact_print_keys(FILE *out)
{
    fprintf(out, "impact = { ... }  congestion impact, SC'20 Eq. 1: each "
                 "victim alone and with each aggressor:\n");
    cfg_print_schema(out, "impact", section_keys, 2);
    fprintf(out, "victims = ( { ... }, ... )  impact.victims (required): "
                 "one group per victim, with its workload's keys:\n");
    jobspec_print_keys(out, "victims", JOBSPEC_VICTIM);
    fprintf(out, "aggressors = ( { ... }, ... )  impact.aggressors "
                 "(required): one group per aggressor type, with its "
                 "workload's keys:\n");
    jobspec_print_keys(out, "aggressors", JOBSPEC_AGGRESSOR);
}
