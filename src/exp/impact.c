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

/* ICS'21 §6.1 fits the model by "the least sum of squares" of the
 * errors: "absolute" (the default); "relative" weighs each round trip by
 * 1 / RTT^2 (Fig. 4a's criterion, an option). Both are reported. */
static const char *const latency_fits[] = { "absolute", "relative", NULL };

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
    SEC(CFG_UINT32, "warmup_iterations", warmup_iterations,
        "GPCNeT's release: beside an aggressor the victims start "
        "warmup_us after every aggressor rank has run this many "
        "iterations (GPCNeT's release after its congestors' first pass, "
        "scaled: 1); alone, at warmup_us; "
        "0: at warmup_us in both (0)",
        .min = 0, .max = 1000000),
    SEC(CFG_UINT32, "runs", runs,
        "placements, run r with seed + r; the victims' iterations are "
        "pooled over them (1)",
        .min = 1, .max = 1000),
    SEC(CFG_BOOL, "node_seconds", node_seconds,
        "ICS'21 Fig. 6: each aggressor runs its own iterations (required) "
        "to the end beside the victim, and alone; "
        "impact_nodeseconds.csv gives the node-seconds of the two "
        "together over those of each alone, per run (false)"),
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
    SEC(CFG_BOOL, "convergence", convergence,
        "ICS'21 Fig. 4b, 4c: how many runs each victim's delay "
        "sensitivity needs to settle within 10 % of its fit over every "
        "simulation, its simulations taken as training runs in random "
        "orders (production) and alone and at the highest share in turn "
        "(extremes): convergence.csv, convergence_runs.csv (false)"),
    SEC(CFG_CHOICE, "latency_fit", latency_fit,
        "the latency model's least squares: of \"absolute\" errors (ICS'21 "
        "§6.1's least sum of squares) or of \"relative\" ones (Fig. 4a's "
        "percentage error); the other is reported beside (absolute)",
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

/* The study's allocation must be one of the policies an impact study
 * places with (impact_ok: SC'20 §III's). */
static void not_for_impact(const struct impact_config *ic,
                           config_setting_t *g, struct diag *d)
{
    const struct reg_entry *ok[16];
    size_t n = 0;
    for (size_t i = 0; i < allocation_registry.n && n < 16; i++)
        if (alloc_policy_of(allocation_registry.entries[i])->impact_ok)
            ok[n++] = allocation_registry.entries[i];
    char names[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(names + used, sizeof names - used, "%s%s",
                         i == 0 ? "" : i + 1 < n ? ", " : " or ",
                         ok[i]->name);
        if (w < 0 || (size_t)w >= sizeof names - used)
            break;
        used += (size_t)w;
    }
    diag_error(d, ic->file, cfg_member_line(g, "allocation"),
               "impact.allocation",
               "\"%s\"; expected %s (SC'20 §III's placements of victim and "
               "aggressor)",
               ic->allocation->name, names);
}

/* Whether aggressor j ends by itself: its workload's `iterations` were
 * given (an aggressor's default is the key's largest value, "until the
 * victim ends": jobspec.c run_forever). */
static bool fixed_work(const struct job_config *j)
{
    const struct workload *w = (const struct workload *)j->workload;
    if (!w || (w->endless && w->endless(j->params)))
        return false;
    for (const struct cfg_key *k = w->keys; k->name; k++)
        if (k->type == CFG_UINT32 && strcmp(k->name, "iterations") == 0)
            return *(const uint32_t *)(const void *)((const char *)j->params +
                                                     k->offset) <
                   (uint32_t)k->max;
    return false;
}

int impact_load(struct cfg_file *f, struct impact_config *ic, bool has_jobs,
                bool has_production, struct diag *d)
{
    int before = d->errors;
    memset(ic, 0, sizeof *ic);
    ic->allocation = &alloc_linear.base;
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
    if (!alloc_policy_of(ic->allocation)->impact_ok)
        not_for_impact(ic, g, d);
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
    for (uint32_t a = 0; ic->node_seconds && a < ic->n_aggressors; a++)
        if (!fixed_work(&ic->aggressor[a]))
            diag_error(d, ic->aggressor[a].file, ic->aggressor[a].line,
                       "impact.aggressors",
                       "\"%s\" runs until the victim ends: with "
                       "node_seconds every aggressor needs a fixed amount "
                       "of work to finish, give it iterations",
                       ic->aggressor[a].name);
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
                                .seed = 0, .job = 0, .file = j->file };
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
