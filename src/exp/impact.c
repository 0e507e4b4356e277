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
#include "exp/stats.h"
#include "ctl/cc.h"
#include "net/latency_model.h"

/* Most ranks per node and nodes, as a job's (exp/jobs.c: PPN_MAX,
 * NODES_MAX). */
#define IMPACT_PPN_MAX 256
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

#define GRP(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct job_config, field), .help = text,            \
      __VA_ARGS__ }

static const struct cfg_key victim_keys[] = {
    GRP(CFG_STRING, "name", name,
        "its name in the results (default: its workload's, or "
        "<workload>-<index> when another victim runs the same)"),
    GRP(CFG_NAME, "workload", workload,
        "what it runs (dfsim list workload); its keys go in this group "
        "too; it must end (give iterations)",
        .reg = &workload_registry, .required = true),
    GRP(CFG_UINT32, "nodes", nodes,
        "nodes it runs on, the first of the victims' (default: "
        "impact.victim_nodes)",
        .min = 1, .max = IMPACT_NODES_MAX),
    GRP(CFG_UINT32, "ppn", ppn, "ranks per node (1)", .min = 1,
        .max = IMPACT_PPN_MAX),
    GRP(CFG_NAME, "routing", routing,
        "the routing controller of its messages (\"network\": "
        "network.routing)",
        .reg = &controller_registry),
    GRP(CFG_UINT32, "warmup", warmup,
        "its first iterations, left out of T (0)", .min = 0,
        .max = UINT32_MAX - 1),
    GRP(CFG_STRING, "traffic_class", traffic_class,
        "the traffic class of its messages, alone and with the "
        "aggressors: a name of network.traffic_classes (the first class)"),
    GRP(CFG_FLOAT, "delay_sensitivity", delay_sensitivity,
        "with congestion_control = \"netscope\": its NICs' c_a "
        "(network.netscope_sensitivity)",
        .fmin = 0, .fmax = 1e6),
    { .name = NULL },
};

static const struct cfg_key aggressor_keys[] = {
    GRP(CFG_STRING, "name", name,
        "its name in the results (default: its workload's, or "
        "<workload>-<index> when another aggressor runs the same)"),
    GRP(CFG_NAME, "workload", workload,
        "what it runs (dfsim list workload; SC'20: gpcnet-rma-incast, "
        "gpcnet-a2a); its keys go in this group too; it runs until the "
        "victim ends (iterations default to the most the key takes)",
        .reg = &workload_registry, .required = true),
    GRP(CFG_UINT32, "ppn", ppn, "ranks per node (1)", .min = 1,
        .max = IMPACT_PPN_MAX),
    GRP(CFG_NAME, "routing", routing,
        "the routing controller of its messages (\"network\": "
        "network.routing)",
        .reg = &controller_registry),
    GRP(CFG_STRING, "traffic_class", traffic_class,
        "the traffic class of its messages: a name of "
        "network.traffic_classes (the first class)"),
    GRP(CFG_FLOAT, "delay_sensitivity", delay_sensitivity,
        "with congestion_control = \"netscope\": its NICs' c_a "
        "(network.netscope_sensitivity)",
        .fmin = 0, .fmax = 1e6),
    { .name = NULL },
};

static const char *const victim_common[] = { "name", "workload", "nodes",
                                             "ppn", "routing", "warmup",
                                             "traffic_class",
                                             "delay_sensitivity", NULL };
static const char *const aggressor_common[] = { "name", "workload", "ppn",
                                                "routing", "traffic_class",
                                                "delay_sensitivity", NULL };

/* An aggressor runs until the victim ends: its workload's iterations
 * (every workload's key of that name is a count) default to the most the
 * key takes, as the production fill's jobs (exp/production.c). */
static void run_forever(const struct workload *w, void *params)
{
    for (const struct cfg_key *k = w->keys; k->name; k++)
        if (k->type == CFG_UINT32 && strcmp(k->name, "iterations") == 0)
            *(uint32_t *)((char *)params + k->offset) = (uint32_t)k->max;
}

static void load_group(struct cfg_file *f, config_setting_t *g,
                       const char *list, uint32_t i, struct job_config *j,
                       bool victim, struct diag *d)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "impact.%s[%u]", list, i);
    jobs_job_defaults(j);
    j->file = cfg_file_of(f, g);
    j->line = cfg_line(g);
    const char *const *common = victim ? victim_common : aggressor_common;
    const char **skip = cfg_members_except(g, common);
    if (!skip) {
        diag_error(d, j->file, j->line, prefix, "out of memory");
        return;
    }
    cfg_read(f, g, prefix, victim ? victim_keys : aggressor_keys, j, skip,
             d);
    free(skip);
    j->tc_line = cfg_member_line(g, "traffic_class");
    j->ds_line = cfg_given_line(g, "delay_sensitivity");
    const struct workload *w = (const struct workload *)j->workload;
    if (!w)
        return; /* missing or unknown: reported */
    w->defaults(j->params);
    if (!victim)
        run_forever(w, j->params);
    cfg_read(f, g, prefix, w->keys, j->params, common, d);
    j->background = !victim;
    if (victim && w->endless && w->endless(j->params))
        diag_error(d, j->file, j->line, prefix,
                   "%s runs until it is stopped unless given iterations; a "
                   "victim must end: give iterations",
                   w->base.name);
}

/* Default names (the workload's; <workload>-<index> when shared) and
 * unique names within the list. */
static void name_groups(struct job_config *g, uint32_t n, const char *list,
                        struct diag *d)
{
    for (uint32_t i = 0; i < n; i++) {
        if (g[i].name || !g[i].workload)
            continue;
        bool shared = false;
        for (uint32_t k = 0; k < n; k++)
            shared = shared || (k != i && g[k].workload == g[i].workload);
        if (shared)
            snprintf(g[i].name_buf, sizeof g[i].name_buf, "%s-%u",
                     g[i].workload->name, i);
        else
            snprintf(g[i].name_buf, sizeof g[i].name_buf, "%s",
                     g[i].workload->name);
        g[i].name = g[i].name_buf;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < i; k++)
            if (g[i].name && g[k].name && strcmp(g[i].name, g[k].name) == 0) {
                char key[48];
                snprintf(key, sizeof key, "impact.%s[%u].name", list, i);
                diag_error(d, g[i].file, g[i].line, key,
                           "\"%s\" is the name of impact.%s[%u] too; give "
                           "each its own name",
                           g[i].name, list, k);
                break;
            }
}

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
        if (eg[i])
            load_group(f, eg[i], key, i, &j[i], victim, d);
        else
            jobs_job_defaults(&j[i]); /* reported by cfg_groups */
    }
    free(eg);
    name_groups(j, (uint32_t)n, key, d);
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

static bool is_pingpong(const struct job_config *j)
{
    const struct workload *w = (const struct workload *)j->workload;
    return w && strcmp(w->base.name, "pingpong") == 0;
}

/* The first ping-pong victim (UINT32_MAX: none). */
static uint32_t ref_pingpong(const struct impact_config *ic)
{
    for (uint32_t v = 0; v < ic->n_victims; v++)
        if (is_pingpong(&ic->victim[v]))
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
    if (ic->latency_model && ref_pingpong(ic) == UINT32_MAX)
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

/* ---- the arithmetic ------------------------------------------------------ */

double impact_factor(double t_isolated, double t_congested)
{
    if (isnan(t_isolated) || isnan(t_congested) || t_isolated <= 0)
        return NAN;
    return t_congested / t_isolated;
}

/* Mean, p99 and median of v[0..n) (NaN without values). */
static void sample_stats(const double *v, uint32_t n, double *scratch,
                         double *mean, double *p99, double *median)
{
    *mean = *p99 = *median = NAN;
    if (n == 0)
        return;
    struct stats_summary st;
    if (stats_summarize(v, n, scratch, &st) != 0)
        return;
    *mean = st.mean;
    *median = st.median;
    *p99 = stats_quantile_sorted(scratch, n, 0.99);
}

void impact_cell_stats(struct impact_cell *c, const double *iso,
                       uint32_t n_iso, const double *con, uint32_t n_con,
                       double *scratch)
{
    c->n_iso = n_iso;
    c->n_con = n_con;
    sample_stats(iso, n_iso, scratch, &c->t_iso, &c->p99_iso, &c->med_iso);
    sample_stats(con, n_con, scratch, &c->t_con, &c->p99_con, &c->med_con);
    c->c = impact_factor(c->t_iso, c->t_con);
    c->c_p99 = impact_factor(c->p99_iso, c->p99_con);
}

void impact_runs_stats(struct impact_cell *c, const double *iso_run,
                       const double *con_run, uint32_t runs,
                       double *scratch)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < runs; r++) {
        double f = impact_factor(iso_run[r], con_run[r]);
        if (!isnan(f))
            scratch[n++] = f;
    }
    c->runs_n = n;
    c->c_runs_mean = c->c_runs_p99 = c->c_runs_max = NAN;
    struct stats_summary st;
    if (n == 0 || stats_summarize(scratch, n, scratch + runs, &st) != 0)
        return;
    c->c_runs_mean = st.mean;
    c->c_runs_max = st.max;
    c->c_runs_p99 = stats_quantile_sorted(scratch + runs, n, 0.99);
}

/* ---- the runs ------------------------------------------------------------ */

/* A growing sample of iteration times. */
struct sample {
    simtime *v;
    uint32_t n, cap;
};

/* An array of n samples and their values (NULL: nothing). */
static void samples_free(struct sample *s, uint32_t n)
{
    for (uint32_t i = 0; s && i < n; i++)
        free(s[i].v);
    free(s);
}

static int sample_add(struct sample *s, const simtime *v, uint32_t n)
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

struct study {
    const struct impact_config *ic;
    const struct jobs_config *jc;
    const struct topo *t;
    const struct net_params *np;
    simtime limit;
    FILE *f[N_RUN_FILES];
    uint32_t sims, total;            /* simulations so far, in all */
    bool unfinished;                 /* a victim hit the limit */
    struct sample *iso, *con;        /* [share][victim], [aggr][share][v] */
    double *iso_run, *con_run;       /* the same, per run: its mean
                                        counted iteration, us (NaN: none) */
    bool *iso_done, *con_done;       /* every run finished */
    /* per victim, one point per simulation: its mean counted iteration
     * and mean network message time, us (the delay-sensitivity fit) */
    double *pt_t, *pt_m;             /* [victim][per_victim] */
    uint32_t *pt_n, per_victim;
    /* the latency model's (ic->latency_model): per point, the path
     * classes averaged over the victim's window and its node pairs (one
     * way), the ping-pong pair's forward + reverse, the simulation */
    struct latm_paths *pt_sp, *pt_rt;
    uint32_t *pt_sim;
    const char **pt_agg;             /* the aggressor's name, NULL alone */
    /* with congestion_controls, per controller (ICS'21 Table 4): every
     * NIC's latency per request and request traffic, one sample per NIC
     * and window in which it sent */
    struct dvec *nlat, *ntraf;       /* [controller] */
    uint32_t cc;                     /* the controller running */
    /* the simulations as units dealt over ranks (exp/par.h): unit u is
     * run r, share s, controller c, victim v, then alone (w = 0) or
     * beside aggressor w - 1, in that order of nesting */
    const struct net_params *npc;    /* [controller] */
    uint32_t n_sh, n_v, n_cc, n_a, study_nodes;
    uint64_t seed;
    uint32_t *nodes[2];              /* the placement of run and share... */
    uint32_t placed;                 /* ... r * n_sh + s + 1 (0: none) */
    struct diag *d;
};

/* A growable array of doubles. */
struct dvec {
    double *v;
    uint32_t n, cap;
};

/* An array of n vectors and their values (NULL: nothing). */
static void dvecs_free(struct dvec *d, uint32_t n)
{
    for (uint32_t i = 0; d && i < n; i++)
        free(d[i].v);
    free(d);
}

static int dvec_add(struct dvec *d, double x)
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
    struct dvec *lat, *traf;
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
                        struct dvec *lat, struct dvec *traf)
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
    if (is_pingpong(j)) {
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
        ((const struct alloc_policy_entry *)st->ic->allocation)->policy;
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
        req[i].file = st->ic->file;
        req[i].line = st->ic->line;
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
    a.w = u % (1 + st->n_a);
    u /= 1 + st->n_a;
    a.v = u % st->n_v;
    u /= st->n_v;
    a.c = u % st->n_cc;
    u /= st->n_cc;
    a.s = u % st->n_sh;
    a.r = u / st->n_sh;
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
    struct jobs_observer obs = { .period = st->ic->latency_window,
                                 .at = lat_at, .ctx = &lo };
    struct dvec nl = { 0 }, nt = { 0 };
    bool lat = st->ic->latency_model || st->ic->ccs.n;
    FILE *f[N_RUN_FILES] = { NULL };
    int rc = -1;
    res->n = RES_PARTS;
    bool ok = true;
    for (size_t i = 0; i < N_RUN_FILES; i++) {
        f[i] = ok ? open_memstream(&res->part[i], &res->len[i]) : NULL;
        ok = ok && f[i];
    }
    if (!ok || (lat && lat_obs_init(&lo, st->t, &jobs[0],
                                    st->ic->latency_model,
                                    st->ic->ccs.n ? &nl : NULL,
                                    st->ic->ccs.n ? &nt : NULL) != 0)) {
        if (ok && lat)
            lat_obs_free(&lo);
        lat = false;
        goto oom;
    }
    struct jobs_output out = {
        .jobs = f[0], .iterations = f[1], .ranks = f[2], .metrics = f[3],
        .load = f[4], .run = u, .header = u == 0, .capture = &cap,
        .observer = lat ? &obs : NULL,
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
            u + 1, st->total, on, run, share, st->ic->ccs.n ? ", " : "",
            st->ic->ccs.n ? cc_name(st->np, ccn, sizeof ccn) : "", jobs[0].name,
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
    const struct impact_config *ic = st->ic;
    if (sim_interrupt)
        return SIM_INTERRUPTED;
    struct sim_at a = sim_at(st, u);
    uint64_t sd = st->seed + a.r;
    double share = ic->shares.v[a.s];
    uint32_t key = a.r * st->n_sh + a.s + 1;
    if (st->placed != key) {
        alloc_free(st->nodes, 2);
        st->nodes[0] = st->nodes[1] = NULL;
        st->placed = 0;
        if (place(st, st->study_nodes, share, sd, st->nodes, st->d) != 0)
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
        impact_victim_nodes(ic, a.v, st->study_nodes, share);
    jobs[0].list = st->nodes[0];
    jobs[0].start = ic->warmup;
    jobs[0].background = false;
    if (a.w > 0) {
        uint32_t g = a.w - 1;
        jobs[1] = ic->aggressor[g];
        jobs[1].name = ic->aggressor[g].name;
        jobs[1].allocation = allocation_registry.entries[ALLOC_LIST];
        jobs[1].n_list = jobs[1].nodes =
            impact_aggressor_nodes(st->study_nodes, share);
        jobs[1].list = st->nodes[1];
        jobs[1].start = 0;
        jobs[1].background = true;
    }
    return simulate(st, jobs, a.w > 0 ? 2 : 1, u, a.r, sd, share, res,
                    st->d);
}

/* Append the n doubles at p to d; 0 or -1 (memory). */
static int dvec_append(struct dvec *d, const char *p, size_t bytes)
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
    struct sample *smp;
    bool *done;
    double *run_mean; /* this placement's mean iteration */
    if (a.w == 0) {
        uint32_t iv = (a.c * st->n_sh + a.s) * st->n_v + a.v;
        smp = &st->iso[iv];
        done = &st->iso_done[iv];
        run_mean = &st->iso_run[(size_t)iv * st->ic->runs + a.r];
    } else {
        uint32_t k = ((a.c * st->n_a + a.w - 1) * st->n_sh + a.s) * st->n_v +
                     a.v;
        smp = &st->con[k];
        done = &st->con_done[k];
        run_mean = &st->con_run[(size_t)k * st->ic->runs + a.r];
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
        st->unfinished = true;
    if (fa.point) {
        uint32_t k = a.v * st->per_victim + st->pt_n[a.v]++;
        st->pt_t[k] = fa.pt_t;
        st->pt_m[k] = fa.pt_m;
        st->pt_sim[k] = u;
        st->pt_agg[k] = a.w > 0 ? st->ic->aggressor[a.w - 1].name : NULL;
        st->pt_sp[k] = fa.sp;
        st->pt_rt[k] = fa.rt;
    }
    if (st->nlat &&
        (dvec_append(&st->nlat[a.c], res->part[RES_NLAT],
                     res->len[RES_NLAT]) != 0 ||
         dvec_append(&st->ntraf[a.c], res->part[RES_NTRAF],
                     res->len[RES_NTRAF]) != 0))
        err = 1;
    st->sims++;
    if (err) {
        diag_error(st->d, NULL, 0, "impact", "out of memory");
        return -1;
    }
    return 0;
}

void impact_fit(const double *m, const double *t, uint32_t n,
                struct impact_fit *f)
{
    *f = (struct impact_fit){ .n = n, .slope = NAN, .intercept = NAN,
                              .r = NAN };
    if (n < 2)
        return;
    double mm = 0, mt = 0;
    for (uint32_t i = 0; i < n; i++)
        mm += m[i], mt += t[i];
    mm /= n, mt /= n;
    double sxx = 0, syy = 0, sxy = 0;
    for (uint32_t i = 0; i < n; i++) {
        sxx += (m[i] - mm) * (m[i] - mm);
        syy += (t[i] - mt) * (t[i] - mt);
        sxy += (m[i] - mm) * (t[i] - mt);
    }
    if (!(sxx > 0))
        return; /* every run had the same M: no slope */
    f->slope = sxy / sxx;
    f->intercept = mt - f->slope * mm;
    f->r = syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* A figure for the console: "-" where undefined. */
static const char *fig(char *buf, size_t cap, int decimals, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, cap, "%.*f", decimals, x);
    return buf;
}

/* ICS'21 Table 4 from the samples of each controller's simulations:
 * median and 90th percentile of the NICs' latency per request and of
 * their request traffic, to controllers.csv and the console. Nothing
 * without congestion_controls. Returns 0 or -1 (reported). */
static int controllers_table(const struct study *st, const char *dir)
{
    const struct impact_config *ic = st->ic;
    if (!ic->ccs.n)
        return 0;
    struct outfile of;
    if (outfile_open(&of, dir, "controllers.csv", stderr) != 0)
        return -1;
    fprintf(of.f, "congestion_control,latency_samples,latency_p50_us,"
                  "latency_p90_us,traffic_samples,traffic_p50_flits_s,"
                  "traffic_p90_flits_s\n");
    printf("\nnetwork latency per request and traffic per NIC, each NIC "
           "and %.0f-us window with requests sent, over every simulation "
           "(ICS'21 Table 4; controllers.csv)\n"
           "%-14s %12s %12s %14s %14s\n",
           (double)ic->latency_window / SIMTIME_US, "controller",
           "latency p50", "p90 (us)", "flits/s p50", "p90");
    int rc = 0;
    for (uint32_t c = 0; c < ic->ccs.n; c++) {
        struct dvec *x[2] = { &st->nlat[c], &st->ntraf[c] };
        double q[2][2] = { { NAN, NAN }, { NAN, NAN } };
        for (int k = 0; k < 2; k++) {
            struct stats_summary sm;
            double *sorted =
                malloc((x[k]->n ? x[k]->n : 1) * sizeof *sorted);
            if (!sorted) {
                rc = -1;
                break;
            }
            if (x[k]->n &&
                stats_summarize(x[k]->v, x[k]->n, sorted, &sm) == 0) {
                q[k][0] = sm.median;
                q[k][1] = stats_quantile_sorted(sorted, x[k]->n, 0.9);
            }
            free(sorted);
        }
        fprintf(of.f, "%s,%u", ic->ccs.v[c]->name, x[0]->n);
        impact_csv_num(of.f, q[0][0], true);
        impact_csv_num(of.f, q[0][1], true);
        fprintf(of.f, ",%u", x[1]->n);
        impact_csv_num(of.f, q[1][0], true);
        impact_csv_num(of.f, q[1][1], true);
        fputc('\n', of.f);
        char b[4][32];
        printf("%-14s %12s %12s %14s %14s\n", ic->ccs.v[c]->name,
               fig(b[0], 32, 3, q[0][0]), fig(b[1], 32, 3, q[0][1]),
               fig(b[2], 32, 0, q[1][0]), fig(b[3], 32, 0, q[1][1]));
    }
    if (rc != 0) {
        outfile_abandon(&of);
        fprintf(stderr, "dfsim run: out of memory\n");
        return -1;
    }
    return outfile_commit(&of, stderr);
}

/* Netscope's latency model (ICS'21 §4.2, trained as §6.1 does): Eq. 12's
 * constants fitted on the first ping-pong victim's simulations, its
 * round trips (the mean iteration: one exchange) against the counters'
 * path classes forward + reverse; each estimate's error and Pearson's r
 * (Fig. 4a) to latency_model.csv and the console. f->n = 0 when there
 * is nothing to fit (the model off). */
static int latency_fit(const struct study *st, const char *dir,
                       struct latm_fit *f, struct diag *d)
{
    const struct impact_config *ic = st->ic;
    bool relative = strcmp(ic->latency_fit, "relative") == 0;
    latm_fit(NULL, NULL, 0, relative, f);
    uint32_t ref = ref_pingpong(ic);
    if (!ic->latency_model || ref == UINT32_MAX)
        return 0;
    size_t at = (size_t)ref * st->per_victim;
    uint32_t n = st->pt_n[ref], m = 0;
    struct latm_paths *rt = calloc(n ? n : 1, sizeof *rt);
    double *y = calloc(n ? n : 1, sizeof *y);
    double *est = calloc(n ? n : 1, sizeof *est);
    double *err = calloc(n ? n : 1, sizeof *err);
    uint32_t *sim = calloc(n ? n : 1, sizeof *sim);
    const char **agg = calloc(n ? n : 1, sizeof *agg);
    int rc = -1;
    struct outfile of = { 0 };
    if (!rt || !y || !est || !err || !sim || !agg) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(st->pt_rt[at + i].q_min)) {
            rt[m] = st->pt_rt[at + i];
            y[m] = st->pt_t[at + i];
            agg[m] = st->pt_agg[at + i];
            sim[m++] = st->pt_sim[at + i];
        }
    latm_fit(rt, y, m, relative, f);
    uint32_t in30 = 0, con = 0, con30 = 0;
    for (uint32_t i = 0; i < m; i++) {
        est[i] = f->k0 + latm_delay(f, &rt[i]);
        err[i] = 100.0 * fabs(est[i] - y[i]) / y[i];
        in30 += err[i] <= 30.0;
        con += agg[i] != NULL;
        con30 += agg[i] && err[i] <= 30.0;
    }
    double r = m ? stats_correlation(y, est, m) : NAN;
    if (outfile_open(&of, dir, "latency_model.csv", stderr) != 0)
        goto done; /* reported */
    FILE *out = of.f;
    fprintf(out, "run,aggressor,rtt_us,estimate_us,error_pct,q_min,"
                 "links_min,q_non,links_non\n");
    for (uint32_t i = 0; i < m; i++) {
        fprintf(out, "%u,%s,%.6f", sim[i], agg[i] ? agg[i] : "", y[i]);
        impact_csv_num(out, est[i], true);
        impact_csv_num(out, 100.0 * (est[i] - y[i]) / y[i], true);
        fprintf(out, ",%.6f,%.6f,%.6f,%.6f\n", rt[i].q_min, rt[i].n_min,
                rt[i].q_non, rt[i].n_non);
    }
    if (outfile_commit(&of, stderr) != 0)
        goto done; /* reported */
    struct stats_summary es;
    stats_summarize(err, m, est, &es); /* est: scratch from here */
    char b[8][32];
    printf("\nlatency model (ICS'21 §4.2), fitted on %s's %u round trips "
           "(least squares of %s errors): "
           "RTT = k0 + D(there) + D(back), D = w (k1 Qmin + k2 Nmin) + "
           "(1 - w) (k1 Qnon + k2 Nnon) over the minimal and non-minimal "
           "paths (latency_model.csv)\n"
           "  k0 %s us, k1 %s us, k2 %s us, w %s; Pearson r %s; %s %% of "
           "the round trips within 30 %% (%s %% of the %u beside an "
           "aggressor), |error| median %s %% (ICS'21 Fig. 4a: 75 %% within "
           "30 %%; r 0.71 Voltrino, 0.67 Cori)\n",
           ic->victim[ref].name, m, ic->latency_fit,
           fig(b[0], 32, 3, f->k0),
           fig(b[1], 32, 4, f->k1), fig(b[2], 32, 4, f->k2),
           fig(b[3], 32, 2, f->w), fig(b[4], 32, 3, r),
           m ? fig(b[5], 32, 0, 100.0 * in30 / m) : "-",
           con ? fig(b[7], 32, 0, 100.0 * con30 / con) : "-", con,
           m ? fig(b[6], 32, 1, es.median) : "-");
    rc = 0;
done:
    if (rc != 0 && of.f)
        outfile_abandon(&of);
    free(rt);
    free(y);
    free(est);
    free(err);
    free(sim);
    free(agg);
    return rc;
}

/* A fit's four fields of sensitivity.csv: slope, intercept, r, c_rel
 * (each empty where undefined). */
static void csv_fit(FILE *f, const struct impact_fit *x, double rel)
{
    impact_csv_num(f, x->slope, true);
    impact_csv_num(f, isfinite(x->slope) ? x->intercept : NAN, true);
    impact_csv_num(f, x->r, true);
    impact_csv_num(f, rel, true);
}

/* A victim's mean iteration over its simulations alone, us (NaN: none). */
static double alone_mean(const struct study *st, uint32_t v)
{
    size_t at = (size_t)v * st->per_victim;
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->pt_n[v]; i++)
        if (!st->pt_agg[at + i]) {
            sum += st->pt_t[at + i];
            n++;
        }
    return n ? sum / n : NAN;
}

/* x with three significant digits, or "-" if undefined. */
static const char *sig3(char *buf, size_t cap, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, cap, "%.3g", x);
    return buf;
}

/* Netscope's delay sensitivity (ICS'21 §4.1, Eqs. 1-5) of each victim:
 * T = c M + k fitted by least squares over its simulations (alone and
 * beside every aggressor, at every share and placement: the congestion
 * varied, as the paper's runs under varied placement and GPCNeT
 * settings), T its mean iteration, M its mean network message time; c
 * relative to the first ping-pong victim's (the paper's unit: ping-pong
 * = 1). With the latency model (lf->n > 0) the same fit again with M
 * estimated from the counters as the paper does (Eq. 3): k0 / 2, the
 * fitted o_src + b + o_dst of one 8-byte message, + D averaged over the
 * victim's ordered node pairs (Eq. 4) and its windows (Eq. 5) — the
 * constant part moves k, not c.
 *
 * c counts message times per iteration, and iterations differ by orders
 * of magnitude between workloads (a ping-pong's 2.7 us, a LAMMPS step's
 * milliseconds); the paper's c is per run, each application's run as
 * long as it was (ICS'21 Table 3: 23 to 848 s; the ping-pong 10,000
 * exchanges, §6.1). So also c per millisecond of the victim's isolated
 * run (c / its mean iteration alone) and that rate relative to the
 * ping-pong's: the workload's own density of waits for the network,
 * from which any run's c follows (c of a run = c_per_ms x its length in
 * ms). Written to sensitivity.csv and printed. */
static int sensitivity(const struct study *st, const char *dir,
                       const struct latm_fit *lf, struct diag *d)
{
    const struct impact_config *ic = st->ic;
    uint32_t n_v = ic->n_victims, ref = UINT32_MAX;
    struct impact_fit *fit = calloc(n_v ? 2 * n_v : 1, sizeof *fit);
    double *mc = calloc(st->per_victim ? st->per_victim : 1, sizeof *mc);
    double *tc = calloc(st->per_victim ? st->per_victim : 1, sizeof *tc);
    struct outfile of = { 0 };
    int rc = -1;
    if (!fit || !mc || !tc) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    struct impact_fit *ctr = fit + n_v;
    bool model = lf->n > 0 && isfinite(lf->k1);
    for (uint32_t v = 0; v < n_v; v++) {
        size_t at = (size_t)v * st->per_victim;
        impact_fit(st->pt_m + at, st->pt_t + at, st->pt_n[v], &fit[v]);
        if (ref == UINT32_MAX && is_pingpong(&ic->victim[v]) &&
            isfinite(fit[v].slope) && fit[v].slope > 0)
            ref = v;
        uint32_t k = 0;
        for (uint32_t i = 0; model && i < st->pt_n[v]; i++)
            if (isfinite(st->pt_sp[at + i].q_min)) {
                mc[k] = lf->k0 / 2 + latm_delay(lf, &st->pt_sp[at + i]);
                tc[k++] = st->pt_t[at + i];
            }
        impact_fit(mc, tc, k, &ctr[v]);
    }
    uint32_t cref = ref_pingpong(ic);
    if (outfile_open(&of, dir, "sensitivity.csv", stderr) != 0)
        goto done; /* reported */
    FILE *f = of.f;
    fprintf(f, "victim,points,slope,intercept_us,r,c_rel,slope_ctr,"
               "intercept_ctr_us,r_ctr,c_rel_ctr,alone_us,c_per_ms,"
               "rate_rel\n");
    printf("\ndelay sensitivity (ICS'21 §4.1): T = c M + k over each "
           "victim's simulations (T its mean iteration, M its mean network "
           "message time%s); c_rel = c / c of %s%s\n",
           model ? "; \"ctr\": M from the counters by the latency model, "
                   "as the paper estimates it"
                 : "",
           ref == UINT32_MAX ? "a ping-pong victim (none: empty)"
                             : ic->victim[ref].name,
           ref == UINT32_MAX ? "" : " (the paper's unit)");
    printf("%-20s %6s %12s %12s %8s %8s %12s %9s %9s", "victim", "points",
           "c", "k (us)", "r", "c_rel", "alone (us)", "c per ms",
           "rate_rel");
    if (model)
        printf(" %12s %8s %10s", "c (ctr)", "r (ctr)", "c_rel (ctr)");
    putchar('\n');
    double ref_rate = ref == UINT32_MAX
                          ? NAN
                          : fit[ref].slope / alone_mean(st, ref) * 1e3;
    for (uint32_t v = 0; v < n_v; v++) {
        const struct impact_fit *x = &fit[v], *y = &ctr[v];
        double rel = ref == UINT32_MAX ? NAN : x->slope / fit[ref].slope;
        double crel = cref == UINT32_MAX || !(ctr[cref].slope > 0)
                          ? NAN
                          : y->slope / ctr[cref].slope;
        double alone = alone_mean(st, v);
        double rate = alone > 0 ? x->slope / alone * 1e3 : NAN;
        double rate_rel = ref_rate > 0 ? rate / ref_rate : NAN;
        fprintf(f, "%s,%u", ic->victim[v].name, x->n);
        csv_fit(f, x, rel);
        csv_fit(f, y, crel);
        impact_csv_num(f, alone, true);
        /* rates span orders of magnitude: significant digits */
        for (int i = 0; i < 2; i++) {
            double z = i ? rate_rel : rate;
            fputc(',', f);
            if (isfinite(z))
                fprintf(f, "%.6g", z);
        }
        fputc('\n', f);
        /* "-" where a figure is undefined (fewer than two finished
         * simulations, no spread in M, no ping-pong) */
        char b[10][32];
        printf("%-20s %6u %12s %12s %8s %8s %12s %9s %9s", ic->victim[v].name,
               x->n, fig(b[0], 32, 3, x->slope),
               fig(b[1], 32, 3, x->intercept),
               fig(b[2], 32, 3, x->r), fig(b[3], 32, 3, rel),
               fig(b[7], 32, 3, alone), sig3(b[8], 32, rate),
               sig3(b[9], 32, rate_rel));
        if (model)
            printf(" %12s %8s %10s", fig(b[4], 32, 3, y->slope),
                   fig(b[5], 32, 3, y->r),
                   fig(b[6], 32, 3, crel));
        putchar('\n');
    }
    rc = outfile_commit(&of, stderr); /* reported */
done:
    if (rc != 0 && of.f)
        outfile_abandon(&of);
    free(fit);
    free(mc);
    free(tc);
    return rc;
}

/* us of simtime samples into out. */
static void to_us(const struct sample *s, double *out)
{
    for (uint32_t i = 0; i < s->n; i++)
        out[i] = (double)s->v[i] / (double)SIMTIME_US;
}

/* GPCNeT's figures of a canary cell. */
static void gpcnet_cell(struct impact_cell *c, const struct job_config *j,
                        const struct sample *iso, const struct sample *con)
{
    const struct workload *w = (const struct workload *)j->workload;
    if (strcmp(w->family, "gpcnet") != 0)
        return;
    const struct gpcnet_params *p = (const void *)j->params;
    if (gpcnet_is_congestor(p->kernel))
        return;
    uint32_t nranks = c->victim_nodes * j->ppn;
    struct gpcnet_stats gi, gc;
    if (gpcnet_summarize(p, nranks, iso->v, iso->n, &gi) != 0 ||
        gpcnet_summarize(p, nranks, con->v, con->n, &gc) != 0)
        return;
    c->gpcnet = true;
    c->gpcnet_bw = !gpcnet_is_latency(p->kernel);
    c->g_avg_iso = gi.avg;
    c->g_p99_iso = gi.p99;
    c->g_avg_con = gc.avg;
    c->g_p99_con = gc.p99;
    c->g_c_avg = gpcnet_impact(gi.avg, gc.avg, c->gpcnet_bw);
    c->g_c_p99 = gpcnet_impact(gi.p99, gc.p99, c->gpcnet_bw);
}

int impact_run(const struct impact_config *ic, const struct jobs_config *jc,
               const struct topo *t, const struct net_params *np,
               uint64_t seed, simtime limit, const char *dir,
               const struct impact_report_info *info, struct diag *d)
{
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
    struct study st = { .ic = ic, .jc = jc, .t = t, .np = np,
                        .limit = limit };
    st.total = ic->runs * n_sh * n_v * n_cc * (1 + n_a);
    uint32_t n_cells = n_ca * n_sh * n_v, n_iso = n_cc * n_sh * n_v;
    st.iso = calloc(n_iso, sizeof *st.iso);
    st.con = calloc(n_cells, sizeof *st.con);
    st.iso_done = calloc(n_iso, sizeof *st.iso_done);
    st.iso_run = malloc((size_t)(n_iso ? n_iso : 1) * ic->runs *
                        sizeof *st.iso_run);
    st.con_run = malloc((size_t)(n_cells ? n_cells : 1) * ic->runs *
                        sizeof *st.con_run);
    st.con_done = calloc(n_cells, sizeof *st.con_done);
    struct impact_cell *cells = calloc(n_cells ? n_cells : 1, sizeof *cells);
    struct impact_config view = *ic; /* the cells' aggressors, named */
    view.aggressor = NULL;
    if (ic->ccs.n) {
        view.n_aggressors = n_ca;
        view.aggressor = calloc(n_ca ? n_ca : 1, sizeof *view.aggressor);
        for (uint32_t c = 0; view.aggressor && c < n_ca; c++) {
            struct job_config *j = &view.aggressor[c];
            *j = ic->aggressor[c % n_a];
            snprintf(j->name_buf, sizeof j->name_buf, "%s/%s",
                     ic->aggressor[c % n_a].name,
                     ic->ccs.v[c / n_a]->name);
            j->name = j->name_buf;
        }
    }
    st.per_victim = ic->runs * n_sh * n_cc * (1 + n_a);
    st.pt_t = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_t);
    st.pt_m = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_m);
    st.pt_n = calloc(n_v, sizeof *st.pt_n);
    st.pt_sp = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_sp);
    st.pt_rt = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_rt);
    st.pt_sim = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_sim);
    st.pt_agg = calloc((size_t)n_v * st.per_victim, sizeof *st.pt_agg);
    if (ic->ccs.n) {
        st.nlat = calloc(n_cc, sizeof *st.nlat);
        st.ntraf = calloc(n_cc, sizeof *st.ntraf);
    }
    double *a = NULL, *b = NULL, *scratch = NULL;
    int rc = -1;
    if (!st.iso || !st.con || !st.iso_done || !st.con_done || !cells ||
        !st.iso_run || !st.con_run ||
        !st.pt_t || !st.pt_m || !st.pt_n || !st.pt_sp || !st.pt_rt ||
        !st.pt_sim || !st.pt_agg ||
        (ic->ccs.n && (!view.aggressor || !st.nlat || !st.ntraf))) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n_iso; i++)
        st.iso_done[i] = true;
    for (size_t i = 0; i < (size_t)n_iso * ic->runs; i++)
        st.iso_run[i] = NAN;
    for (size_t i = 0; i < (size_t)n_cells * ic->runs; i++)
        st.con_run[i] = NAN;
    for (uint32_t i = 0; i < n_cells; i++)
        st.con_done[i] = true;
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
    st.n_sh = n_sh;
    st.n_v = n_v;
    st.n_cc = n_cc;
    st.n_a = n_a;
    st.study_nodes = study_nodes;
    st.seed = seed;
    st.d = d;
    int prc = par_deal(0, st.total, sim_unit, sim_commit, &st);
    alloc_free(st.nodes, 2);
    if (prc != 0) {
        rc = prc == SIM_INTERRUPTED ? SIM_INTERRUPTED : -1;
        goto done;
    }
    if (par_rank() != 0) { /* the cells and the report are rank 0's */
        rc = 0;
        goto done;
    }
    /* the cells, pooled over the runs */
    const struct impact_config *shown = ic->ccs.n ? &view : ic;
    uint32_t most = 2 * ic->runs; /* impact_runs_stats' scratch */
    for (uint32_t i = 0; i < n_iso; i++)
        most = st.iso[i].n > most ? st.iso[i].n : most;
    for (uint32_t i = 0; i < n_cells; i++)
        most = st.con[i].n > most ? st.con[i].n : most;
    a = malloc(most * sizeof *a);
    b = malloc(most * sizeof *b);
    scratch = malloc(most * sizeof *scratch);
    if (!a || !b || !scratch) {
        diag_error(d, NULL, 0, "impact", "out of memory");
        goto done;
    }
    for (uint32_t g = 0; g < n_ca; g++)
        for (uint32_t s = 0; s < n_sh; s++)
            for (uint32_t v = 0; v < n_v; v++) {
                uint32_t k = (g * n_sh + s) * n_v + v,
                         iv = (g / n_a * n_sh + s) * n_v + v;
                struct impact_cell *c = &cells[k];
                c->victim = v;
                c->aggressor = g;
                c->share = s;
                c->aggressor_nodes =
                    impact_aggressor_nodes(study_nodes, ic->shares.v[s]);
                c->victim_nodes = impact_victim_nodes(
                    ic, v, study_nodes, ic->shares.v[s]);
                c->finished = st.iso_done[iv] && st.con_done[k];
                to_us(&st.iso[iv], a);
                to_us(&st.con[k], b);
                impact_cell_stats(c, a, st.iso[iv].n, b, st.con[k].n,
                                  scratch);
                impact_runs_stats(c, st.iso_run + (size_t)iv * ic->runs,
                                  st.con_run + (size_t)k * ic->runs, ic->runs,
                                  scratch);
                gpcnet_cell(c, &ic->victim[v], &st.iso[iv], &st.con[k]);
            }
    {
        char path[4096];
        snprintf(path, sizeof path, "%s/impact.csv", dir);
        FILE *f = fopen(path, "w");
        if (!f) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            goto done;
        }
        impact_csv_header(f);
        for (uint32_t k = 0; k < n_cells; k++)
            impact_csv_row(f, shown, &cells[k], &ic->shares);
        if (fclose(f) != 0) {
            diag_error(d, path, 0, "impact", "cannot write the file");
            goto done;
        }
    }
    impact_print_table(stdout, shown, cells, n_cells);
    struct latm_fit lf;
    if (controllers_table(&st, dir) != 0 ||
        latency_fit(&st, dir, &lf, d) != 0 ||
        sensitivity(&st, dir, &lf, d) != 0)
        goto done;
    bool drawn = false;
    if (impact_report(dir, shown, cells, n_cells, info, &drawn, stderr) !=
        0)
        goto done;
    if (!drawn)
        fprintf(stderr, "  report: the heat maps were not drawn (gnuplot "
                        "missing or failed: %s/impact.log); `gnuplot "
                        "impact.gp` there draws them\n",
                dir);
    rc = 0;
    if (st.unfinished && !ic->limit_ok) {
        diag_error(d, NULL, 0, "impact",
                   "a victim had not ended after experiment.time_limit_ms "
                   "(impact_runs.csv: finished = 0); its cells are marked "
                   "unfinished");
        rc = -1;
    }
done:
    for (size_t i = 0; i < N_RUN_FILES; i++)
        if (st.f[i])
            fclose(st.f[i]);
    samples_free(st.iso, n_iso);
    samples_free(st.con, n_cells);
    free(st.iso_done);
    free(st.iso_run);
    free(st.con_run);
    free(st.con_done);
    free(st.pt_t);
    free(st.pt_m);
    free(st.pt_n);
    free(st.pt_sp);
    free(st.pt_rt);
    free(st.pt_sim);
    free(st.pt_agg);
    dvecs_free(st.nlat, n_cc);
    dvecs_free(st.ntraf, n_cc);
    free(view.aggressor);
    free(cells);
    free(a);
    free(b);
    free(scratch);
    return rc;
}

/* ---- documentation ------------------------------------------------------ */

void impact_print_keys(FILE *out)
{
    fprintf(out, "impact = { ... }  congestion impact, SC'20 Eq. 1: each "
                 "victim alone and with each aggressor:\n");
    cfg_print_schema(out, "impact", section_keys, 2);
    fprintf(out, "victims = ( { ... }, ... )  impact.victims (required): "
                 "one group per victim, with its workload's keys:\n");
    cfg_print_schema(out, "victims", victim_keys, 2);
    fprintf(out, "aggressors = ( { ... }, ... )  impact.aggressors "
                 "(required): one group per aggressor type, with its "
                 "workload's keys:\n");
    cfg_print_schema(out, "aggressors", aggressor_keys, 2);
}
