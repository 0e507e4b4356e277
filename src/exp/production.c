/* exp/production.c — the production fill; the model is in production.h.
 *
 * Invariant of a draw: a node is in exactly one state — unusable (no
 * NIC), the file's, free, or one live fill job's — and the fill's nodes
 * never exceed its target T; every draw comes from the one stream
 * rng_stream(seed, RNG_PRODUCTION, 0), in a fixed order (rounds, then
 * jobs in creation order, then the starts), so a fill is a pure function
 * of the section, the system, the file's nodes and the seed.
 */
#include "exp/production.h"

#include <libconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "ctl/ctl.h"

/* Largest job size a file may give: no machine in the studies comes near
 * a million nodes, and a million times the largest ppn (256) keeps a
 * job's ranks within 32 bits. */
#define SIZE_MAX_NODES (1u << 20)
#define PPN_MAX 256

const char *const production_placement_names[] = {
    [PROD_AGED] = "aged",
    [PROD_CONTIGUOUS] = "contiguous",
    [PROD_RANDOM] = "random",
    [PROD_PLACEMENT_COUNT] = NULL,
};

/* Job sizes when the file gives none: the powers of two from 4 to 128
 * nodes, equally likely per job — a log-uniform distribution, as the
 * workload models of rigid parallel jobs have it (Downey, "A parallel
 * workload model and its implications for processor allocation", HPDC
 * 1997; Lublin and Feitelson, "The workload on parallel supercomputers:
 * modeling the characteristics of rigid jobs", JPDC 63(11), 2003, which
 * also finds most jobs asking for a power of two). The range is an
 * assumption for a machine of a few thousand nodes: many small jobs, none
 * above ~5 % of a 2,304-node XC, so that the measured jobs share routers
 * and groups with several neighbours. */
static const double default_sizes[] = { 4, 8, 16, 32, 64, 128 };

#define PROD(type_, key, field, text, ...)                                   \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct production_config, field), .help = text,     \
      __VA_ARGS__ }

static const struct cfg_key section_keys[] = {
    PROD(CFG_FLOAT, "fill", fill,
         "share of the system's nodes busy in all, in (0, 1], the file's "
         "jobs included: the fill takes nodes until it is reached "
         "(required)",
         .fmin = 0, .fmax = 1, .required = true),
    PROD(CFG_FLOATS, "sizes", sizes,
         "job sizes in nodes the fill draws from ([4, 8, 16, 32, 64, 128])",
         .fmin = 1, .fmax = SIZE_MAX_NODES),
    PROD(CFG_FLOATS, "size_weights", size_weights,
         "relative number of jobs of each size of sizes (equal: "
         "log-uniform over the default powers of two)",
         .fmin = 0, .fmax = 1e9),
    PROD(CFG_CHOICE, "placement", placement,
         "how the batch system hands out nodes: \"aged\" (first fit in node "
         "order after churn rounds of jobs ending and starting), "
         "\"contiguous\" (the next free nodes from a random start), "
         "\"random\" (aged)",
         .choices = production_placement_names),
    PROD(CFG_UINT32, "churn", churn,
         "placement = \"aged\": rounds in which every job ends with "
         "probability 1/2 and new ones refill the machine (8)",
         .min = 0, .max = 1000),
    PROD(CFG_TIME, "stagger_us", stagger,
         "each fill job starts at a time drawn uniformly in [0, "
         "stagger_us], us (0)",
         .unit_ps = SIMTIME_US, .fmin = 0, .fmax = 1e9),
    { .name = NULL },
};

#define ENTRY(type_, key, field, text, ...)                                  \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct production_entry, field), .help = text,      \
      __VA_ARGS__ }

static const struct cfg_key entry_keys[] = {
    ENTRY(CFG_STRING, "name", name,
          "label of its jobs: bg-<k>-<name> (its workload's name)"),
    ENTRY(CFG_NAME, "workload", workload,
          "what its jobs run (dfsim list workload; its keys go in this "
          "group too)",
          .reg = &workload_registry, .required = true),
    ENTRY(CFG_FLOAT, "weight", weight,
          "relative number of its jobs among the fill's, > 0 (1)",
          .fmin = 0, .fmax = 1e9),
    ENTRY(CFG_UINT32, "ppn", ppn, "ranks per node of its jobs (1)",
          .min = 1, .max = PPN_MAX),
    ENTRY(CFG_NAME, "routing", routing,
          "routing controller of its jobs' messages (\"network\": "
          "network.routing)",
          .reg = &controller_registry),
    ENTRY(CFG_FLOATS, "sizes", sizes,
          "its own job sizes in nodes, instead of production.sizes",
          .fmin = 1, .fmax = SIZE_MAX_NODES),
    ENTRY(CFG_FLOATS, "size_weights", size_weights,
          "relative number of its jobs of each of its sizes (equal)",
          .fmin = 0, .fmax = 1e9),
    { .name = NULL },
};

/* ---- reading ------------------------------------------------------------ */

static bool has(config_setting_t *g, const char *key)
{
    return config_setting_get_member(g, key) != NULL;
}

/* The list's place, for messages about it (the group's, for a default). */
static const char *list_file(const struct cfg_floats *l, const char *file)
{
    return l->file ? l->file : file;
}

/* sizes: whole numbers of nodes; size_weights: > 0, one per size. `key`
 * is the group's prefix. Returns whether both are sound. */
static bool check_size_list(const struct cfg_floats *sizes,
                            const struct cfg_floats *weights, bool weighted,
                            bool sized, const char *file, int line,
                            const char *key, struct diag *d)
{
    int before = d->errors;
    char k[96];
    for (uint32_t i = 0; i < sizes->n; i++)
        if (sizes->v[i] != floor(sizes->v[i])) {
            snprintf(k, sizeof k, "%s.sizes[%u]", key, i);
            diag_error(d, list_file(sizes, file), sizes->line ? sizes->line
                                                              : line,
                       k, "%g is not a whole number of nodes", sizes->v[i]);
        }
    if (!weighted)
        return d->errors == before;
    snprintf(k, sizeof k, "%s.size_weights", key);
    if (!sized) {
        diag_error(d, list_file(weights, file), weights->line, k,
                   "size_weights weighs the sizes of its own group; give "
                   "sizes here too");
        return false;
    }
    if (weights->n != sizes->n)
        diag_error(d, list_file(weights, file), weights->line, k,
                   "%u weights for %u sizes; expected one weight per size",
                   weights->n, sizes->n);
    for (uint32_t i = 0; i < weights->n; i++)
        if (!(weights->v[i] > 0)) {
            snprintf(k, sizeof k, "%s.size_weights[%u]", key, i);
            diag_error(d, list_file(weights, file), weights->line, k,
                       "%g is not positive; expected a relative number of "
                       "jobs > 0 (leave the size out instead)",
                       weights->v[i]);
        }
    return d->errors == before;
}

/* A fill job runs until the measured jobs end: its workload's iterations
 * (every workload's key of that name is a count) default to the most the
 * key takes. */
static void run_forever(const struct workload *w, void *params)
{
    for (const struct cfg_key *k = w->keys; k->name; k++)
        if (k->type == CFG_UINT32 && strcmp(k->name, "iterations") == 0)
            *(uint32_t *)((char *)params + k->offset) = (uint32_t)k->max;
}

/* The entry's workload on every size it may draw, as jobs_load checks a
 * job: the workload's own init on the rank count, then freed. */
static void check_workload(const struct production_entry *e,
                           const struct cfg_floats *sizes,
                           const char *prefix, struct diag *d)
{
    const struct workload *w = (const struct workload *)e->workload;
    for (uint32_t i = 0; i < sizes->n; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < i; k++)
            seen = seen || sizes->v[k] == sizes->v[i];
        if (seen)
            continue;
        uint32_t nodes = (uint32_t)sizes->v[i];
        if ((uint64_t)nodes * e->ppn < 2) {
            /* one rank sends nothing: for the network its node is idle,
             * and a workload with no compute phase would iterate without
             * simulated time passing until the measured jobs end */
            diag_error(d, e->file, e->line, prefix,
                       "a job of %u node with ppn %u is one rank, which "
                       "sends nothing (for the network its node is idle: "
                       "lower fill instead); expected sizes of at least 2 "
                       "nodes, or ppn >= 2",
                       nodes, e->ppn);
            continue;
        }
        _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
        struct workload_env env = { .nranks = nodes * e->ppn, .ppn = e->ppn,
                                    .seed = 0, .job = 0, .file = e->file };
        char err[256];
        if (w->init(state, e->params, &env, err, sizeof err) != 0) {
            diag_error(d, e->file, e->line, prefix,
                       "%s on %u ranks (a job of %u nodes, ppn %u): %s",
                       w->base.name, env.nranks, nodes, e->ppn, err);
            continue;
        }
        w->free(state);
    }
}

static const char *const entry_common[] = { "name", "workload", "weight",
                                            "ppn", "routing", "sizes",
                                            "size_weights", NULL };

static void load_entry(struct cfg_file *f, config_setting_t *g, uint32_t i,
                       struct production_entry *e,
                       const struct production_config *pc, bool pc_sizes_ok,
                       struct diag *d)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "production.mix[%u]", i);
    memset(e, 0, offsetof(struct production_entry, params));
    e->weight = 1;
    e->ppn = 1;
    e->file = cfg_file_of(f, g);
    e->line = cfg_line(g);
    int before = d->errors;
    const char **skip = cfg_members_except(g, entry_common);
    if (!skip) {
        diag_error(d, e->file, e->line, prefix, "out of memory");
        return;
    }
    cfg_read(f, g, prefix, entry_keys, e, skip, d);
    free(skip);
    const struct workload *w = (const struct workload *)e->workload;
    if (!w)
        return; /* missing or unknown: reported */
    w->defaults(e->params);
    run_forever(w, e->params);
    cfg_read(f, g, prefix, w->keys, e->params, entry_common, d);
    if (has(g, "weight") && !(e->weight > 0)) {
        char k[64];
        snprintf(k, sizeof k, "%s.weight", prefix);
        diag_error(d, e->file, cfg_member_line(g, "weight"), k,
                   "%g is not positive; expected a relative number of jobs "
                   "> 0 (leave the entry out instead)",
                   e->weight);
    }
    bool sized = has(g, "sizes");
    bool ok = check_size_list(&e->sizes, &e->size_weights,
                              has(g, "size_weights"), sized, e->file,
                              e->line, prefix, d);
    if (d->errors == before && ok && (sized || pc_sizes_ok))
        check_workload(e, sized ? &e->sizes : &pc->sizes, prefix, d);
}

int production_load(struct cfg_file *f, struct production_config *pc,
                    bool has_jobs, struct diag *d)
{
    int before = d->errors;
    memset(pc, 0, sizeof *pc);
    pc->sizes.n = sizeof default_sizes / sizeof default_sizes[0];
    memcpy(pc->sizes.v, default_sizes, sizeof default_sizes);
    pc->placement = production_placement_names[PROD_AGED];
    pc->churn = PROD_DEFAULT_CHURN;
    config_setting_t *g = cfg_section(f, "production");
    if (!g)
        return 0;
    pc->on = true;
    pc->file = cfg_file_of(f, g);
    pc->line = cfg_line(g);
    static const char *const skip[] = { "mix", NULL };
    pc->fill = -1; /* stays so when the key is missing or rejected */
    pc->fill_line = cfg_member_line(g, "fill");
    int read_errors = cfg_read(f, g, "production", section_keys, pc, skip, d);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP)
        return d->errors - before; /* reported by cfg_read */
    if (pc->fill == 0)
        diag_error(d, pc->file, cfg_member_line(g, "fill"), "production.fill",
                   "%g leaves the other users no node; expected a share of "
                   "the system's nodes in (0, 1]",
                   pc->fill);
    bool sizes_ok = read_errors == 0 &&
                    check_size_list(&pc->sizes, &pc->size_weights,
                                    has(g, "size_weights"), has(g, "sizes"),
                                    pc->file, pc->line, "production", d);
    if (has(g, "churn") &&
        strcmp(pc->placement, production_placement_names[PROD_AGED]) != 0)
        diag_error(d, pc->file, cfg_member_line(g, "churn"),
                   "production.churn",
                   "applies to placement = \"aged\" only; this section's "
                   "placement is \"%s\"",
                   pc->placement);
    config_setting_t *ms = config_setting_get_member(g, "mix");
    if (!ms) {
        diag_error(d, pc->file, pc->line, NULL,
                   "missing required key \"production.mix\" (the workloads "
                   "of the other users' jobs: mix = ( { workload = ...; "
                   "weight = ...; }, ... ))");
    } else {
        int n = cfg_groups(f, ms, "production.mix", NULL, 0, d);
        if (n > 0) {
            config_setting_t **eg = calloc((size_t)n, sizeof *eg);
            pc->mix = calloc((size_t)n, sizeof *pc->mix);
            if (!eg || !pc->mix) {
                free(eg);
                diag_error(d, pc->file, cfg_line(ms), "production.mix",
                           "out of memory");
            } else {
                pc->n_mix = (uint32_t)n;
                cfg_groups(f, ms, "production.mix", eg, n, d);
                for (uint32_t i = 0; i < pc->n_mix; i++)
                    if (eg[i])
                        load_entry(f, eg[i], i, &pc->mix[i], pc, sizes_ok,
                                   d);
                free(eg);
            }
        }
    }
    if (!has_jobs)
        diag_error(d, pc->file, pc->line, "production",
                   "the fill surrounds the file's jobs (the measured ones), "
                   "and this file has no jobs list");
    return d->errors - before;
}

void production_free(struct production_config *pc)
{
    free(pc->mix);
    pc->mix = NULL;
    pc->n_mix = 0;
}

/* ---- sizes against the system ------------------------------------------ */

uint32_t production_usable_nodes(const struct topo *t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n_nodes; i++)
        n += t->nodes[i].n_nics > 0;
    return n;
}

/* floor(fill x N): the fill never passes the share asked for (the small
 * epsilon keeps 0.85 x 2304 = 1958.4 from rounding a share that is
 * exactly representable in decimal below itself). */
static uint32_t busy_target(const struct production_config *pc, uint32_t n)
{
    return (uint32_t)floor(pc->fill * (double)n + 1e-9);
}

uint32_t production_target(const struct production_config *pc,
                           const struct topo *t, uint32_t file_nodes)
{
    uint32_t busy = busy_target(pc, production_usable_nodes(t));
    return busy > file_nodes ? busy - file_nodes : 0;
}

static void check_fits(const struct cfg_floats *sizes, const char *file,
                       int line, const char *key, uint32_t take,
                       const char *why, struct diag *d)
{
    for (uint32_t i = 0; i < sizes->n; i++) {
        if (sizes->v[i] <= (double)take)
            continue;
        char k[96];
        snprintf(k, sizeof k, "%s.sizes[%u]", key, i);
        diag_error(d, list_file(sizes, file), sizes->line ? sizes->line : line,
                   k, "%.0f nodes, more than the %u the fill takes (%s); "
                   "expected sizes of at most %u nodes",
                   sizes->v[i], take, why, take);
    }
}

int production_check(const struct production_config *pc,
                     const struct topo *t, uint32_t file_nodes,
                     struct diag *d)
{
    if (!pc->on)
        return 0;
    int before = d->errors;
    uint32_t n = production_usable_nodes(t);
    uint32_t busy = busy_target(pc, n);
    if (busy < file_nodes) {
        diag_error(d, pc->file, pc->fill_line, "production.fill",
                   "%g of the system's %u nodes is %u nodes, fewer than the "
                   "%u the file's jobs take; expected a fill of at least "
                   "%.4f (their share)",
                   pc->fill, n, busy, file_nodes,
                   ceil((double)file_nodes / (double)n * 1e4) / 1e4);
        return d->errors - before;
    }
    uint32_t take = busy - file_nodes;
    char why[160];
    snprintf(why, sizeof why,
             "fill %g of the %u nodes is %u, less the %u of the file's jobs",
             pc->fill, n, busy, file_nodes);
    bool shared = false;
    for (uint32_t i = 0; i < pc->n_mix; i++) {
        const struct production_entry *e = &pc->mix[i];
        if (e->sizes.n) {
            char key[48];
            snprintf(key, sizeof key, "production.mix[%u]", i);
            check_fits(&e->sizes, e->file, e->line, key, take, why, d);
        } else {
            shared = true;
        }
    }
    if (shared)
        check_fits(&pc->sizes, pc->file, pc->line, "production", take, why,
                   d);
    return d->errors - before;
}

/* ---- drawing ------------------------------------------------------------ */

struct draw {
    const struct production_config *pc;
    const struct topo *t;
    struct rng rng;
    uint8_t *busy;             /* [n_nodes]: not free (no NIC, the file's,
                                  a live fill job's) */
    uint32_t *free_ids;        /* scratch: free nodes in node order */
    uint32_t lo;               /* no free node below it (first fit) */
    struct production_job *job;/* live jobs, in creation order */
    uint32_t n, cap;
    uint32_t used;             /* nodes of live jobs */
};

static const struct cfg_floats *entry_sizes(const struct production_config
                                                *pc,
                                            const struct production_entry *e,
                                            const struct cfg_floats **w)
{
    if (e->sizes.n) {
        *w = &e->size_weights;
        return &e->sizes;
    }
    *w = &pc->size_weights;
    return &pc->sizes;
}

/* Weight of size i of a list (weights n = 0: equal). */
static double size_weight(const struct cfg_floats *w, uint32_t i)
{
    return w->n ? w->v[i] : 1.0;
}

/* Whether entry e has a size of at most `room` nodes. */
static bool entry_fits(const struct production_config *pc,
                       const struct production_entry *e, uint32_t room)
{
    const struct cfg_floats *w, *s = entry_sizes(pc, e, &w);
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] <= (double)room)
            return true;
    return false;
}

/* Draw an entry among those that fit in `room` nodes, by weight, then a
 * size of it that fits, by size weight. false: nothing fits. */
static bool draw_job(struct draw *dr, uint32_t room, uint32_t *entry,
                     uint32_t *size)
{
    const struct production_config *pc = dr->pc;
    double total = 0;
    for (uint32_t i = 0; i < pc->n_mix; i++)
        if (entry_fits(pc, &pc->mix[i], room))
            total += pc->mix[i].weight;
    if (!(total > 0))
        return false;
    double u = rng_unit(&dr->rng) * total;
    uint32_t e = 0, last = 0;
    for (; e < pc->n_mix; e++) {
        if (!entry_fits(pc, &pc->mix[e], room))
            continue;
        last = e;
        if (u < pc->mix[e].weight)
            break;
        u -= pc->mix[e].weight;
    }
    if (e == pc->n_mix)
        e = last; /* u rounded up to the total: the last eligible one */
    const struct cfg_floats *w, *s = entry_sizes(pc, &pc->mix[e], &w);
    double stotal = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] <= (double)room)
            stotal += size_weight(w, i);
    double v = rng_unit(&dr->rng) * stotal;
    uint32_t k = 0, klast = 0;
    for (; k < s->n; k++) {
        if (s->v[k] > (double)room)
            continue;
        klast = k;
        if (v < size_weight(w, k))
            break;
        v -= size_weight(w, k);
    }
    if (k == s->n)
        k = klast;
    *entry = e;
    *size = (uint32_t)s->v[k];
    return true;
}

static uint32_t collect_free(struct draw *dr)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < dr->t->n_nodes; i++)
        if (!dr->busy[i])
            dr->free_ids[m++] = i;
    return m;
}

/* `size` free nodes by the section's placement into out[], in rank
 * order; there are at least that many free nodes. */
static void place(struct draw *dr, uint32_t size, uint32_t *out)
{
    const struct topo *t = dr->t;
    int how = 0;
    while (strcmp(production_placement_names[how], dr->pc->placement) != 0)
        how++;
    if (how == PROD_AGED) { /* first fit in node order */
        uint32_t k = 0;
        for (uint32_t i = dr->lo; i < t->n_nodes && k < size; i++)
            if (!dr->busy[i]) {
                if (k == 0)
                    dr->lo = i;
                out[k++] = i;
            }
    } else if (how == PROD_CONTIGUOUS) { /* from a random free start */
        uint32_t m = collect_free(dr);
        uint32_t s = rng_below(&dr->rng, m);
        for (uint32_t k = 0; k < size; k++)
            out[k] = dr->free_ids[(s + k) % m];
    } else { /* random: a partial Fisher–Yates shuffle of the free list */
        uint32_t m = collect_free(dr);
        uint32_t *f = dr->free_ids;
        for (uint32_t k = 0; k < size; k++) {
            uint32_t s = k + rng_below(&dr->rng, m - k);
            uint32_t tmp = f[k];
            f[k] = f[s];
            f[s] = tmp;
            out[k] = f[k];
        }
    }
    for (uint32_t k = 0; k < size; k++)
        dr->busy[out[k]] = 1;
}

/* Refill: draw jobs until none fits in what is left of the target. */
static int refill(struct draw *dr, uint32_t target)
{
    uint32_t entry, size;
    while (draw_job(dr, target - dr->used, &entry, &size)) {
        if (dr->n == dr->cap) {
            uint32_t cap = dr->cap ? 2 * dr->cap : 64;
            struct production_job *j = realloc(dr->job, cap * sizeof *j);
            if (!j)
                return -1;
            dr->job = j;
            dr->cap = cap;
        }
        uint32_t *nodes = malloc(size * sizeof *nodes);
        if (!nodes)
            return -1;
        place(dr, size, nodes);
        dr->job[dr->n++] = (struct production_job){
            .entry = entry, .n_nodes = size, .nodes = nodes,
        };
        dr->used += size;
    }
    return 0;
}

/* A round of the batch system's history: every live job ends with
 * probability 1/2 (one bit each, in creation order). */
static void end_some(struct draw *dr)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < dr->n; i++) {
        struct production_job *j = &dr->job[i];
        if (rng_u64(&dr->rng) >> 63) {
            for (uint32_t k = 0; k < j->n_nodes; k++) {
                dr->busy[j->nodes[k]] = 0;
                if (j->nodes[k] < dr->lo)
                    dr->lo = j->nodes[k];
            }
            dr->used -= j->n_nodes;
            free(j->nodes);
        } else {
            dr->job[kept++] = *j;
        }
    }
    dr->n = kept;
}

int production_draw(const struct production_config *pc, const struct topo *t,
                    const uint8_t *taken, uint64_t seed,
                    struct production_fill *out, struct diag *d)
{
    memset(out, 0, sizeof *out);
    uint32_t file_nodes = 0;
    for (uint32_t i = 0; i < t->n_nodes; i++)
        file_nodes += taken[i] && t->nodes[i].n_nics > 0;
    uint32_t target = production_target(pc, t, file_nodes);
    size_t nn = t->n_nodes ? t->n_nodes : 1;
    struct draw dr = {
        .pc = pc, .t = t, .rng = rng_stream(seed, RNG_PRODUCTION, 0),
        .busy = malloc(nn), .free_ids = malloc(nn * sizeof(uint32_t)),
    };
    int rc = -1;
    if (!dr.busy || !dr.free_ids)
        goto done;
    for (uint32_t i = 0; i < t->n_nodes; i++)
        dr.busy[i] = taken[i] || t->nodes[i].n_nics == 0;
    bool aged = strcmp(pc->placement,
                       production_placement_names[PROD_AGED]) == 0;
    uint32_t rounds = aged ? pc->churn + 1 : 1;
    for (uint32_t r = 0; r < rounds; r++) {
        if (r > 0)
            end_some(&dr);
        if (refill(&dr, target) != 0)
            goto done;
    }
    /* a quick run (experiment_quicken) keeps the smallest jobs: the
     * draw is exercised, the machine stays nearly idle */
    while (pc->max_jobs && dr.n > pc->max_jobs) {
        uint32_t big = 0;
        for (uint32_t i = 1; i < dr.n; i++)
            if (dr.job[i].n_nodes >= dr.job[big].n_nodes)
                big = i;
        dr.used -= dr.job[big].n_nodes;
        free(dr.job[big].nodes);
        memmove(&dr.job[big], &dr.job[big + 1],
                (dr.n - big - 1) * sizeof *dr.job);
        dr.n--;
    }
    for (uint32_t i = 0; i < dr.n; i++)
        dr.job[i].start =
            pc->stagger ? (simtime)llround(rng_unit(&dr.rng) *
                                           (double)pc->stagger)
                        : 0;
    out->n = dr.n;
    out->job = dr.job;
    out->target = target;
    out->nodes = dr.used;
    dr.job = NULL;
    dr.n = 0;
    rc = 0;
done:
    if (rc != 0)
        diag_error(d, pc->file, pc->line, "production",
                   "out of memory drawing the fill");
    for (uint32_t i = 0; i < dr.n; i++)
        free(dr.job[i].nodes);
    free(dr.job);
    free(dr.busy);
    free(dr.free_ids);
    return rc;
}

void production_fill_free(struct production_fill *f)
{
    for (uint32_t i = 0; f->job && i < f->n; i++)
        free(f->job[i].nodes);
    free(f->job);
    memset(f, 0, sizeof *f);
}

/* ---- documentation ------------------------------------------------------ */

void production_print_keys(FILE *out)
{
    fprintf(out, "production = { ... }  other users' jobs filling the "
                 "machine around the file's jobs:\n");
    cfg_print_schema(out, "production", section_keys, 2);
    fprintf(out, "mix = ( { ... }, ... )  production.mix (required): one "
                 "group per workload family of the fill, with its "
                 "workload's keys:\n");
    cfg_print_schema(out, "mix", entry_keys, 2);
}
