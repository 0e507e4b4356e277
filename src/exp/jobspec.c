/* exp/jobspec.c — a job's keys, read and checked (see jobspec.h). */
#include "exp/jobspec.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "core/steps.h"
#include "core/strindex.h"
#include "ctl/ctl.h"
#include "exp/alloc.h"

/* Most ranks per node: Aries nodes of the studies had up to 68 cores
 * (KNL) or 2 x 36 hardware threads; 256 leaves room for SMT. */
#define PPN_MAX 256

#define JOB(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct job_config, field), .help = text,            \
      __VA_ARGS__ }

static const char *const variant_orders[] = { "alternate", "shuffled",
                                               NULL };

static const struct cfg_key job_keys[] = {
    JOB(CFG_STRING, "name", name,
        "the job's name in results (default: its workload's name, or "
        "<workload>-<index> when another job runs the same workload)"),
    JOB(CFG_NAME, "workload", workload,
        "what the job runs (dfsim list workload; its keys go in this "
        "group too: dfsim list workload NAME, docs/workloads/NAME.md)",
        .reg = &workload_registry, .required = true),
    JOB(CFG_UINT32, "nodes", nodes,
        "nodes the job asks for (required, except with list, pair and "
        "same: there all the job's nodes)",
        .min = 1, .max = ALLOC_NODES_MAX),
    JOB(CFG_UINT32, "ppn", ppn,
        "ranks per node; rank r runs on the job's node r / ppn (1)",
        .min = 1, .max = PPN_MAX),
    JOB(CFG_NAME, "allocation", allocation,
        "how its nodes are chosen (linear)", .reg = &allocation_registry),
    JOB(CFG_TIME, "start_us", start,
        "when its ranks start, us of simulated time (0)",
        .unit_ps = SIMTIME_US, .fmin = 0, .fmax = 1e9),
    JOB(CFG_STRING, "after", after,
        "the name of a job this one follows: it starts start_us after "
        "that job has ended (with allocation = \"same\", on its nodes)"),
    JOB(CFG_BOOL, "background", background,
        "a congestor: runs until every foreground job has ended, then "
        "stops (false)"),
    JOB(CFG_NAME, "routing", routing,
        "the routing controller of its messages (dfsim list controller; "
        "\"network\": network.routing)",
        .reg = &controller_registry),
    JOB(CFG_NAMES, "variants", variants,
        "controllers alternated iteration by iteration on the same "
        "allocation (SC'19 §3); instead of routing",
        .reg = &controller_registry, .once = "variant"),
    JOB(CFG_CHOICE, "variant_order", variant_order,
        "with variants: \"alternate\" (iteration i runs variant i mod n, "
        "SC'19 §3) or \"shuffled\" (each round of n iterations runs them "
        "all in a random order, so that a periodic background cannot lock "
        "onto one) (alternate)",
        .choices = variant_orders),
    JOB(CFG_UINT32, "warmup", warmup,
        "first iterations left out of variants.csv (0)",
        .min = 0, .max = UINT32_MAX - 1),
    JOB(CFG_STRING, "traffic_class", traffic_class,
        "the traffic class of its messages: a name of "
        "network.traffic_classes (the first class) [Slingshot, dragonfly]"),
    JOB(CFG_BOOL, "model", model,
        "estimate each iteration by SC'19's model (Eq. 2) from rank 0's "
        "NIC counters: model_us in iterations.csv (false)"),
    JOB(CFG_FLOAT, "delay_sensitivity", delay_sensitivity,
        "with network.congestion_control = \"netscope\": its NICs' c_a, "
        "the delay sensitivity that softens their rate cuts (ICS'21 "
        "Table 3: MILC 6.67, LAMMPS 0.47, AMG 0) "
        "(network.netscope_sensitivity)",
        .fmin = 0, .fmax = 1e6),
    { .name = NULL },
};


/* The keys a victim and an aggressor of an impact study take (a subset
 * of a job's, exp/impact.h), each with its help there. */
struct role_key {
    const char *name;
    const char *help;
};

static const struct role_key victim_keys[] = {
    { "name", "its name in the results (default: its workload's, or "
              "<workload>-<index> when another victim runs the same)" },
    { "workload", "what it runs (dfsim list workload); its keys go in this "
                  "group too; it must end (give iterations)" },
    { "nodes", "nodes it runs on, the first of the victims' (default: "
               "impact.victim_nodes)" },
    { "ppn", "ranks per node (1)" },
    { "routing", "the routing controller of its messages (\"network\": "
                 "network.routing)" },
    { "warmup", "its first iterations, left out of T (0)" },
    { "traffic_class", "the traffic class of its messages, alone and with "
                       "the aggressors: a name of network.traffic_classes "
                       "(the first class)" },
    { "delay_sensitivity", "with congestion_control = \"netscope\": its "
                           "NICs' c_a (network.netscope_sensitivity)" },
    { NULL, NULL },
};

static const struct role_key aggressor_keys[] = {
    { "name", "its name in the results (default: its workload's, or "
              "<workload>-<index> when another aggressor runs the same)" },
    { "workload", "what it runs (dfsim list workload; SC'20: "
                  "gpcnet-rma-incast, gpcnet-a2a); its keys go in this "
                  "group too; it runs until the victim ends (iterations "
                  "default to the most the key takes)" },
    { "ppn", "ranks per node (1)" },
    { "routing", "the routing controller of its messages (\"network\": "
                 "network.routing)" },
    { "traffic_class", "the traffic class of its messages: a name of "
                       "network.traffic_classes (the first class)" },
    { "delay_sensitivity", "with congestion_control = \"netscope\": its "
                           "NICs' c_a (network.netscope_sensitivity)" },
    { NULL, NULL },
};

/* Room for the allocation policies' keys, each name once (checked where
 * they are gathered, policy_keys). */
#define N_POLICY_KEYS 16
/* A role's keys, the job's and its policies', with the end. */
#define N_JOB_KEYS (sizeof job_keys / sizeof job_keys[0] + N_POLICY_KEYS)

/* Whether `name` is one of keys[] (NULL: none). */
static bool in_keys(const struct cfg_key *keys, const char *name)
{
    for (const struct cfg_key *k = keys; k && k->name; k++)
        if (strcmp(k->name, name) == 0)
            return true;
    return false;
}

/* The keys of the registered allocation policies, each name once, in
 * registry order, into out[N_POLICY_KEYS]; returns how many. */
static size_t policy_keys(const struct cfg_key **out)
{
    size_t n = 0;
    for (size_t i = 0; i < allocation_registry.n; i++) {
        const struct alloc_policy *p =
            alloc_policy_of(allocation_registry.entries[i]);
        for (const struct cfg_key *k = p->keys; k && k->name; k++) {
            size_t m = 0;
            while (m < n && strcmp(out[m]->name, k->name) != 0)
                m++;
            assert(m < N_POLICY_KEYS); /* room for one more */
            if (m == n)
                out[n++] = k;
        }
    }
    return n;
}

/* The schema of a role into out[N_JOB_KEYS], the job's keys it takes in
 * the job's order, with its help; names[] the same keys' names,
 * NULL-terminated (the skip list's complement). With `policies` (a job
 * of the jobs list only), every allocation policy's keys follow
 * allocation: for the listing and the workload's pass, not for reading
 * into the job (their offsets are into a policy's block). */
static void role_schema(enum jobspec_role role, bool policies,
                        struct cfg_key *out, const char **names)
{
    const struct role_key *rk = role == JOBSPEC_VICTIM    ? victim_keys
                                : role == JOBSPEC_AGGRESSOR ? aggressor_keys
                                                            : NULL;
    const struct cfg_key *pk[N_POLICY_KEYS];
    size_t n = 0, np = policies && !rk ? policy_keys(pk) : 0;
    for (const struct cfg_key *k = job_keys; k->name; k++) {
        const struct role_key *r = rk;
        while (r && r->name && strcmp(r->name, k->name) != 0)
            r++;
        if (rk && !r->name)
            continue; /* not a key of this role */
        out[n] = *k;
        if (rk)
            out[n].help = r->help;
        names[n++] = k->name;
        for (size_t i = 0; strcmp(k->name, "allocation") == 0 && i < np;
             i++) {
            out[n] = *pk[i];
            names[n++] = pk[i]->name;
        }
    }
    out[n] = (struct cfg_key){ .name = NULL };
    names[n] = NULL;
}

/* An aggressor runs until the victim ends: its workload's iterations
 * (every workload's key of that name is a count) default to the most the
 * key takes, as the production fill's jobs (exp/production.c). */
static void run_forever(const struct workload *w, void *params)
{
    for (const struct cfg_key *k = w->keys; k->name; k++)
        if (k->type == CFG_UINT32 && strcmp(k->name, "iterations") == 0)
            *(uint32_t *)((char *)params + k->offset) = (uint32_t)k->max;
}

static bool has_key(config_setting_t *g, const char *key)
{
    return config_setting_get_member(g, key) != NULL;
}

uint32_t jobs_ranks(const struct job_config *j)
{
    return j->nodes * j->ppn;
}

/* A key of an allocation policy other than the job's is an error naming
 * the policies that take it; the job's policy's keys are read into its
 * block, its defaults first. */
static void read_allocation(struct cfg_file *f, config_setting_t *g,
                            const char *prefix, struct job_config *j,
                            struct diag *d)
{
    const struct alloc_policy *pol = alloc_policy_of(j->allocation);
    const struct cfg_key *pk[N_POLICY_KEYS];
    size_t np = policy_keys(pk);
    for (size_t i = 0; i < np; i++) {
        if (in_keys(pol->keys, pk[i]->name) || !has_key(g, pk[i]->name))
            continue;
        char owners[256] = "", key[64];
        size_t used = 0;
        for (size_t q = 0; q < allocation_registry.n; q++) {
            const struct reg_entry *e = allocation_registry.entries[q];
            if (!in_keys(alloc_policy_of(e)->keys, pk[i]->name))
                continue;
            int w = snprintf(owners + used, sizeof owners - used,
                             "%s\"%s\"", used ? " or " : "", e->name);
            if (w < 0 || (size_t)w >= sizeof owners - used)
                break;
            used += (size_t)w;
        }
        snprintf(key, sizeof key, "%s.%s", prefix, pk[i]->name);
        diag_error(d, j->file, cfg_member_line(g, pk[i]->name), key,
                   "applies to allocation = %s only; this job's allocation "
                   "is \"%s\"",
                   owners, pol->base.name);
    }
    alloc_params_defaults(pol, j->alloc_params);
    if (!pol->keys)
        return;
    struct cfg_part part = { pol->keys, j->alloc_params };
    const char **skip = cfg_members_outside(g, &part, 1);
    if (!skip) {
        diag_error(d, j->file, j->line, prefix, "out of memory");
        return;
    }
    cfg_read(f, g, prefix, pol->keys, j->alloc_params, skip, d);
    free(skip);
}

/* The node count: the nodes key, required unless the policy's keys or
 * the job it follows give it; then the policy's own checks. */
static void check_allocation(struct job_config *j, config_setting_t *g,
                             const char *prefix, struct diag *d)
{
    const struct alloc_policy *pol = alloc_policy_of(j->allocation);
    bool given = has_key(g, "nodes");
    if (!given && !pol->nodes_optional)
        diag_error(d, j->file, j->line, prefix,
                   "missing required key \"%s.nodes\" (how many nodes the "
                   "job asks for)",
                   prefix);
    if (!pol->check)
        return;
    struct alloc_job job = { .g = g, .file = j->file, .line = j->line,
                             .prefix = prefix, .nodes = j->nodes,
                             .nodes_given = given, .after = j->after };
    pol->check(j->alloc_params, &job, d);
    j->nodes = job.nodes;
}

/* Call the workload's own init on the job's rank count, so that a
 * parameter it refuses (a grid that does not hold the ranks) is reported
 * at the job's line before anything runs. */
static void check_workload(const struct job_config *j, uint32_t index,
                           const char *prefix, struct diag *d)
{
    const struct workload *w = (const struct workload *)j->workload;
    _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
    struct workload_env env = { .nranks = jobs_ranks(j), .ppn = j->ppn,
                                .seed = 0, .job = index, .file = j->file };
    char err[256];
    if (w->init(state, j->params, &env, err, sizeof err) != 0) {
        diag_error(d, j->file, j->line, prefix, "%s on %u ranks: %s",
                   w->base.name, env.nranks, err);
        return;
    }
    w->free(state);
}

void jobs_job_defaults(struct job_config *j)
{
    memset(j, 0, offsetof(struct job_config, params));
    j->ppn = 1;
    j->allocation = &alloc_linear.base;
    alloc_params_defaults(&alloc_linear, j->alloc_params);
}

void jobs_job_free(struct job_config *j)
{
    const struct alloc_policy *pol = alloc_policy_of(j->allocation);
    if (pol && pol->free) /* NULL: a job never read */
        pol->free(j->alloc_params);
}

int jobs_check_sensitivity(const struct job_config *j, uint32_t n,
                           const char *prefix, bool reads, struct diag *d)
{
    int errors = 0;
    for (uint32_t i = 0; i < n && !reads; i++) {
        if (!j[i].ds_line)
            continue;
        char key[96];
        snprintf(key, sizeof key, "%s[%u].delay_sensitivity", prefix, i);
        diag_error(d, j[i].file, j[i].ds_line, key,
                   "is read only by Netscope's rate control; expected "
                   "network.congestion_control = \"netscope\"");
        errors++;
    }
    return errors;
}

int jobs_resolve_classes(struct job_config *j, uint32_t n,
                         const char *prefix, const char *const *names,
                         uint32_t n_names, struct diag *d)
{
    int before = d->errors;
    for (uint32_t i = 0; i < n; i++) {
        j[i].tc = 0;
        if (!j[i].traffic_class)
            continue;
        uint32_t k = 0;
        while (k < n_names && strcmp(names[k], j[i].traffic_class) != 0)
            k++;
        if (k < n_names) {
            j[i].tc = (uint8_t)k;
            continue;
        }
        char key[64], known[512] = "";
        size_t used = 0;
        for (uint32_t c = 0; c < n_names; c++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s",
                             c ? ", " : "", names[c]);
            if (w < 0 || (size_t)w >= sizeof known - used)
                break;
            used += (size_t)w;
        }
        snprintf(key, sizeof key, "%s[%u].traffic_class", prefix, i);
        if (n_names == 0)
            diag_error(d, j[i].file, j[i].tc_line, key,
                       "\"%s\": the network has no traffic classes; "
                       "expected network.traffic_classes = ( { name = "
                       "\"%s\"; min_share = ...; }, ... ) first",
                       j[i].traffic_class, j[i].traffic_class);
        else
            diag_error(d, j[i].file, j[i].tc_line, key,
                       "\"%s\" is not a class of network.traffic_classes; "
                       "known: %s",
                       j[i].traffic_class, known);
    }
    return d->errors - before;
}

/* A job's name goes unquoted into the CSV files and names its rows: it
 * must be there and hold no comma, quote or line break. Its warm-up must
 * leave iterations to measure (with variants, one per variant), or its
 * statistics would be of nothing, printed as 0 as if measured. */
static void check_name_warmup(const struct job_config *j,
                              const struct workload *w, config_setting_t *g,
                              const char *prefix, struct diag *d)
{
    char key[48];
    if (j->name && (!*j->name || strpbrk(j->name, ",\"\n\r"))) {
        snprintf(key, sizeof key, "%s.name", prefix);
        diag_error(d, j->file, cfg_member_line(g, "name"), key,
                   "%s; expected a name of at least one character without "
                   "a comma, quote or line break (it names the job's rows "
                   "in the CSV files)",
                   *j->name ? "the name holds a comma, quote or line break"
                            : "the name is empty");
    }
    if (!j->warmup || j->background)
        return;
    uint32_t iters = 0;
    for (const struct cfg_key *k = w->keys; k && k->name; k++)
        if (strcmp(k->name, "iterations") == 0 && k->type == CFG_UINT32)
            iters = *(const uint32_t *)((const char *)j->params + k->offset);
    uint32_t need = j->variants.n > 1 ? j->variants.n : 1;
    if (iters > 0 && (j->warmup >= iters || iters - j->warmup < need)) {
        snprintf(key, sizeof key, "%s.warmup", prefix);
        diag_error(d, j->file, cfg_member_line(g, "warmup"), key,
                   "%u warm-up iterations leave %u of the job's %u "
                   "iterations to measure; expected warmup < iterations%s",
                   j->warmup, j->warmup < iters ? iters - j->warmup : 0,
                   iters,
                   need > 1 ? " with one measured iteration per variant "
                              "at least"
                            : "");
    }
}

/* What only a job of the jobs list is checked for, its workload's keys
 * read: its allocation's keys, its name and warm-up, its controllers, the
 * model, an endless workload, its workload on its ranks. */
static void check_job(config_setting_t *g, const char *prefix, uint32_t i,
                      struct job_config *j, int before, struct diag *d)
{
    const struct workload *w = (const struct workload *)j->workload;
    check_allocation(j, g, prefix, d);
    check_name_warmup(j, w, g, prefix, d);
    if (j->routing && j->variants.n)
        diag_error(d, j->file, cfg_member_line(g, "variants"), prefix,
                   "give routing (one controller) or variants (several, "
                   "alternated), not both");
    if (j->variant_order && j->variants.n < 2)
        diag_error(d, j->file, cfg_member_line(g, "variant_order"), prefix,
                   "variant_order orders alternated variants; this job has "
                   "%s",
                   j->variants.n ? "one" : "none (variants = [...])");
    if (j->variants.n > CTL_MAX_VARIANTS)
        diag_error(d, j->file, cfg_member_line(g, "variants"), prefix,
                   "%u variants; at most %d", j->variants.n,
                   CTL_MAX_VARIANTS);
    if (j->model && (!w->msg_bytes || w->msg_bytes(j->params) == 0))
        diag_error(d, j->file, cfg_member_line(g, "model"), prefix,
                   "the model estimates one message per iteration; %s has "
                   "no message size (the microbenchmarks with bytes have)",
                   w->base.name);
    if (j->background == false && w->endless && w->endless(j->params))
        diag_error(d, j->file, j->line, prefix,
                   "%s runs until it is stopped unless given iterations: "
                   "make it a background job (background = true) or give "
                   "iterations",
                   w->base.name);
    if (d->errors == before &&
        !alloc_policy_of(j->allocation)->reuses_nodes)
        check_workload(j, i, prefix, d); /* same: once the job it follows
                                            is known (jobspec_link) */
}

void jobspec_read(struct cfg_file *f, config_setting_t *g, const char *prefix,
                  uint32_t index, enum jobspec_role role,
                  struct job_config *j, struct diag *d)
{
    jobs_job_defaults(j);
    j->file = cfg_file_of(f, g);
    j->line = cfg_line(g);
    int before = d->errors;
    struct cfg_key schema[N_JOB_KEYS];
    const char *common[N_JOB_KEYS];
    role_schema(role, false, schema, common);
    const char **skip = cfg_members_except(g, common);
    if (!skip) {
        diag_error(d, j->file, j->line, prefix, "out of memory");
        return;
    }
    cfg_read(f, g, prefix, schema, j, skip, d);
    free(skip);
    j->tc_line = cfg_member_line(g, "traffic_class");
    j->ds_line = cfg_given_line(g, "delay_sensitivity");
    if (role == JOBSPEC_JOB)
        read_allocation(f, g, prefix, j, d);
    const struct workload *w = (const struct workload *)j->workload;
    if (!w)
        return; /* missing or unknown: reported */
    w->defaults(j->params);
    if (role == JOBSPEC_AGGRESSOR)
        run_forever(w, j->params);
    role_schema(role, true, schema, common); /* the policies' keys too */
    cfg_read(f, g, prefix, w->keys, j->params, common, d);
    if (role == JOBSPEC_JOB) {
        check_job(g, prefix, index, j, before, d);
        return;
    }
    j->background = role == JOBSPEC_AGGRESSOR;
    if (role == JOBSPEC_VICTIM && w->endless && w->endless(j->params))
        diag_error(d, j->file, j->line, prefix,
                   "%s runs until it is stopped unless given iterations; a "
                   "victim must end: give iterations",
                   w->base.name);
}

void jobspec_print_keys(FILE *out, const char *list, enum jobspec_role role)
{
    struct cfg_key schema[N_JOB_KEYS];
    const char *names[N_JOB_KEYS];
    role_schema(role, true, schema, names);
    cfg_print_schema(out, list, schema, 2);
}

/* The jobs' names, [n] (NULL where a job has none), for an index;
 * NULL out of memory (reported). */
static const char **names_of(const struct job_config *jobs, uint32_t n,
                             const char *list, struct diag *d)
{
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names) {
        diag_error(d, NULL, 0, list, "out of memory for %u names", n);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        names[i] = jobs[i].name;
    steps_add(n);
    return names;
}

/* Whether another job of jobs[0..n) runs w: the jobs counted per
 * workload, a handful of distinct workloads among however many jobs. */
static void count_workloads(const struct job_config *jobs, uint32_t n,
                            const void **wl, uint32_t *count, uint32_t *n_wl)
{
    *n_wl = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        while (k < *n_wl && wl[k] != jobs[i].workload)
            k++;
        steps_add(k + 1);
        if (k == *n_wl) {
            wl[k] = jobs[i].workload;
            count[k] = 0;
            (*n_wl)++;
        }
        count[k]++;
    }
}

void jobspec_name(struct job_config *jobs, uint32_t n, const char *list,
                  struct diag *d)
{
    /* distinct workloads: at most one per job */
    const void **wl = malloc((n ? n : 1) * sizeof *wl);
    uint32_t *count = malloc((n ? n : 1) * sizeof *count), n_wl;
    if (!wl || !count) {
        free(wl);
        free(count);
        diag_error(d, NULL, 0, list, "out of memory for %u jobs", n);
        return;
    }
    count_workloads(jobs, n, wl, count, &n_wl);
    for (uint32_t i = 0; i < n; i++) {
        struct job_config *j = &jobs[i];
        if (j->name || !j->workload)
            continue;
        uint32_t k = 0;
        while (wl[k] != j->workload)
            k++;
        steps_add(k + 1);
        if (count[k] > 1) /* shared with another job */
            snprintf(j->name_buf, sizeof j->name_buf, "%s-%u",
                     j->workload->name, i);
        else
            snprintf(j->name_buf, sizeof j->name_buf, "%s",
                     j->workload->name);
        j->name = j->name_buf;
    }
    free(wl);
    free(count);
    /* a name used twice: each later job against the first of its name */
    const char **names = names_of(jobs, n, list, d);
    struct strindex x;
    if (!names || strindex_build(&x, names, NULL, n) != 0) {
        if (names)
            diag_error(d, NULL, 0, list, "out of memory for %u names", n);
        free(names);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = jobs[i].name ? strindex_first(&x, jobs[i].name, NULL)
                                  : i;
        if (k < i) {
            char key[64];
            snprintf(key, sizeof key, "%s[%u].name", list, i);
            diag_error(d, jobs[i].file, jobs[i].line, key,
                       "\"%s\" is the name of %s[%u] too; give each its "
                       "own name",
                       jobs[i].name, list, k);
        }
    }
    strindex_free(&x);
    free(names);
}

/* Each job's `after` resolved to the first job of that name (after_job),
 * or reported. */
static void find_after(struct job_config *jobs, uint32_t n,
                       const struct strindex *x, struct diag *d)
{
    for (uint32_t i = 0; i < n; i++) {
        struct job_config *j = &jobs[i];
        if (!j->after)
            continue;
        char key[32];
        snprintf(key, sizeof key, "jobs[%u].after", i);
        uint32_t k = strindex_first(x, j->after, NULL);
        if (k == UINT32_MAX || k == i) {
            diag_error(d, j->file, j->line, key,
                       k == i ? "\"%s\" is this job; expected another "
                                "job's name"
                              : "no job is called \"%s\"; expected the "
                                "name of another job of the list",
                       j->after);
            continue;
        }
        if (jobs[k].background)
            diag_error(d, j->file, j->line, key,
                       "\"%s\" is a background job, which ends only when "
                       "the foreground jobs have; expected a foreground "
                       "job",
                       j->after);
        j->after_job = k;
    }
}

/* The first job whose chain of `after` keys loops (reported), or n.
 * Each job is walked once: state[k] is 0 (not seen), 1 (on the chain
 * being walked), 2 (its chain ends) or 3 (it loops); a chain meeting
 * itself (1) loops, one meeting a known job ends as that one does. */
static uint32_t first_loop(const struct job_config *jobs, uint32_t n,
                           uint8_t *state)
{
    memset(state, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = i;
        while (state[k] == 0 && jobs[k].after) {
            state[k] = 1;
            k = jobs[k].after_job;
            steps_add(1);
        }
        uint8_t end = state[k] == 1 || state[k] == 3 ? 3 : 2;
        if (state[k] == 0)
            state[k] = 2; /* a job without after: its chain ends */
        for (k = i; state[k] == 1; k = jobs[k].after_job, steps_add(1))
            state[k] = end;
        if (state[i] == 3)
            return i;
    }
    return n;
}

/* "same" jobs without a node count take their predecessor's, down the
 * chains: each job takes the count of the first job up its chain of
 * after_job that has one or does not reuse nodes (0 if the chain loops
 * without one). The path walked is resolved at once, so each job once.
 * state: scratch [n]. */
static void chain_nodes(struct job_config *jobs, uint32_t n, uint8_t *state)
{
    memset(state, 0, n); /* 1: on the path being walked, 2: resolved */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = i;
        while (state[k] == 0 &&
               alloc_policy_of(jobs[k].allocation)->reuses_nodes &&
               !jobs[k].nodes) {
            state[k] = 1;
            k = jobs[k].after_job;
            steps_add(1);
        }
        uint32_t nodes = state[k] == 1 ? 0 : jobs[k].nodes;
        for (k = i; state[k] == 1; steps_add(1)) {
            uint32_t next = jobs[k].after_job;
            jobs[k].nodes = nodes;
            state[k] = 2;
            k = next;
        }
        state[i] = 2;
    }
}

/* The "same" jobs: two that take one job's nodes would run on them at
 * once; more nodes than there are; then their workloads' checks.
 * first[k]: the first job with after that reuses job k's nodes. -1 out
 * of memory. */
static int check_reusers(struct job_config *jobs, uint32_t n,
                         struct diag *d)
{
    uint32_t *first = malloc((n ? n : 1) * sizeof *first);
    if (!first)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        first[k] = UINT32_MAX;
    for (uint32_t t = n; t-- > 0; steps_add(1))
        if (jobs[t].after && alloc_policy_of(jobs[t].allocation)->reuses_nodes)
            first[jobs[t].after_job] = t;
    for (uint32_t i = 0; i < n; i++, steps_add(1)) {
        struct job_config *j = &jobs[i];
        if (!alloc_policy_of(j->allocation)->reuses_nodes)
            continue;
        char key[32];
        snprintf(key, sizeof key, "jobs[%u]", i);
        const struct job_config *f = &jobs[j->after_job];
        uint32_t twin = first[j->after_job];
        if (twin < i)
            diag_error(d, j->file, j->line, key,
                       "jobs[%u] takes the nodes of \"%s\" too and starts "
                       "when it ends, so the two would share nodes at the "
                       "same time; expected one to follow the other "
                       "(after = \"%s\")",
                       twin, f->name, jobs[twin].name);
        else if (j->nodes > f->nodes)
            diag_error(d, j->file, j->line, key,
                       "%u nodes, but \"%s\", whose nodes it takes, has %u",
                       j->nodes, f->name, f->nodes);
        else
            check_workload(j, i, key, d);
    }
    free(first);
    return 0;
}

void jobspec_link(struct job_config *jobs, uint32_t n, struct diag *d)
{
    int before = d->errors;
    const char **names = names_of(jobs, n, "jobs", d);
    struct strindex x;
    uint8_t *state = malloc(n ? n : 1);
    if (!names || !state || strindex_build(&x, names, NULL, n) != 0) {
        if (names && state)
            diag_error(d, NULL, 0, "jobs", "out of memory for %u jobs", n);
        free(names);
        free(state);
        return;
    }
    find_after(jobs, n, &x, d);
    strindex_free(&x);
    free(names);
    uint32_t loop = d->errors == before ? first_loop(jobs, n, state) : n;
    if (loop < n)
        diag_error(d, jobs[loop].file, jobs[loop].line, "after",
                   "job \"%s\" waits for itself through a chain of "
                   "after keys; expected a chain that starts at a job "
                   "without after",
                   jobs[loop].name);
    if (d->errors == before) {
        chain_nodes(jobs, n, state);
        if (check_reusers(jobs, n, d) != 0)
            diag_error(d, NULL, 0, "jobs", "out of memory for %u jobs", n);
    }
    free(state);
}
