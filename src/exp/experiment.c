/* exp/experiment.c — see experiment.h. */
#include "exp/experiment.h"

#include <assert.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "ctl/cc.h"
#include "route/route.h"

static const struct cfg_key experiment_keys[] = {
    { .name = "name", .type = CFG_STRING,
      .offset = offsetof(struct experiment_info, name),
      .help = "name of the experiment (default: the file's base name)" },
    { .name = "description", .type = CFG_STRING,
      .offset = offsetof(struct experiment_info, description),
      .help = "what the experiment shows, for its report (none)" },
    { .name = "seed", .type = CFG_INT,
      .offset = offsetof(struct experiment_info, seed), .min = 0,
      .max = INT64_MAX,
      .help = "seed of every random stream (default 1; --seed overrides)" },
    { .name = "runs", .type = CFG_UINT32,
      .offset = offsetof(struct experiment_info, runs), .min = 1,
      .max = 1000000,
      .help = "runs of the jobs, run r with seed + r: fresh allocations "
              "and random choices (1)" },
    { .name = "time_limit_ms", .type = CFG_TIME,
      .offset = offsetof(struct experiment_info, time_limit),
      .unit_ps = SIMTIME_MS, .fmin = 0.001, .fmax = 1e6,
      .help = "simulated time after which a run with jobs stops, ms; jobs "
              "not ended by then are reported unfinished (10000)" },
    { .name = "windowed", .type = CFG_BOOL,
      .offset = offsetof(struct experiment_info, windowed),
      .help = "run every simulation under the windowed rules (those of "
              "--partitions), in one process or split over MPI ranks "
              "(--partitions auto without --partitions), so that its "
              "files are the same whatever the number of processes "
              "(false)" },
    { .name = NULL },
};

static const struct cfg_key system_keys[] = {
    { .name = "name", .type = CFG_NAME,
      .offset = offsetof(struct system_choice, system),
      .reg = &topo_system_registry,
      .help = "a built-in system (dfsim list system); its parameters may be "
              "overridden by the builder's keys" },
    { .name = "topology", .type = CFG_NAME,
      .offset = offsetof(struct system_choice, builder),
      .reg = &topo_builder_registry,
      .help = "a topology builder, when no name is given; then the builder's "
              "keys below describe the system" },
    { .name = NULL },
};

/* ---- network ------------------------------------------------------------
 *
 * The section's keys belong to several parts, each reading its own: the
 * network model's (net/params.c: net_param_keys, into struct net_params),
 * each routing family's (struct routing.part: route/aries.c, ugal.c,
 * ss.c), and the experiment's below — the routing of every message, the
 * congestion control and its parameters (struct net_config), and the
 * traffic classes. */

static const struct cfg_key net_routing_keys[] = {
    { .name = "routing", .type = CFG_NAME,
      .offset = offsetof(struct net_config, routing),
      .reg = &routing_registry,
      .help = "routing of every message (Aries ADAPTIVE_0, Slingshot "
              "SS_ADAPTIVE, dragonfly UGAL, torus DOR)" },
    { .name = NULL },
};

static const struct cfg_key net_keys[] = {
    { .name = "congestion_control", .type = CFG_NAMES,
      .offset = offsetof(struct net_config, cc), .reg = &cc_registry,
      .help = "congestion control at the NICs: none, slingshot, dcqcn, "
              "netscope, dcqcn-stall or cray, or a list of them run "
              "together (Slingshot slingshot, others none; dfsim list "
              "cc)" },
    { .name = NULL },
};

/* ---- network.traffic_classes: struct tc_config ------------------------ */

static const struct cfg_key tc_keys[] = {
    { .name = "name", .type = CFG_STRING,
      .offset = offsetof(struct tc_config, name), .required = true,
      .help = "the class's name, unique; a job's traffic_class names it "
              "(required)" },
    { .name = "min_share", .type = CFG_FLOAT,
      .offset = offsetof(struct tc_config, min_share), .fmin = 0,
      .fmax = 1,
      .help = "minimum share of every link when classes compete, in "
              "[0, 1], kept to 0.001; the classes' sum at most 1, the "
              "rest to the class with the least (0)" },
    { .name = "priority", .type = CFG_BOOL,
      .offset = offsetof(struct tc_config, priority),
      .help = "served before every class without priority, whatever its "
              "share (false)" },
    { .name = NULL },
};

/* A class's minimum share in per mille of a link (struct net_tc). */
static uint32_t tc_per_mille(double share)
{
    return (uint32_t)llround(share * 1000.0);
}

/* network.traffic_classes = ( { name = ...; min_share = ...; }, ... ):
 * Slingshot's traffic classes (SC'20 §II-E). Aries and Gemini have
 * none — their VCs separate requests from responses and route segments,
 * not jobs — so a class there is an error; the generic dragonfly takes
 * them as a what-if. */
static void load_tcs(struct experiment *e, config_setting_t *ls,
                     struct diag *d)
{
    struct net_config *c = &e->net;
    const char *file = cfg_file_of(e->cfg, ls);
    c->tcs_file = file;
    c->tcs_line = cfg_line(ls);
    int n = cfg_groups(e->cfg, ls, "network.traffic_classes", NULL, 0, d);
    if (n <= 0)
        return;
    if (n > NET_MAX_TCS) {
        diag_error(d, file, c->tcs_line, "network.traffic_classes",
                   "%d classes; at most %d (NET_MAX_TCS: each class has its "
                   "own VCs on every link)",
                   n, NET_MAX_TCS);
        return;
    }
    if (e->builder && !e->builder->family->traffic_classes) {
        diag_error(d, file, c->tcs_line, "network.traffic_classes",
                   "the %s family has no traffic classes (they are "
                   "Slingshot's, SC'20 §II-E: Aries and Gemini keep their "
                   "VCs for requests, responses and route segments); "
                   "expected a Slingshot system, or topology = "
                   "\"dragonfly\" for a what-if",
                   e->builder->family->name);
        return;
    }
    config_setting_t *g[NET_MAX_TCS];
    cfg_groups(e->cfg, ls, "network.traffic_classes", g, n, d);
    int before = d->errors;
    for (int i = 0; i < n; i++) {
        struct tc_config *t = &c->tc[i];
        *t = (struct tc_config){ .line = c->tcs_line };
        if (!g[i])
            continue; /* reported by cfg_groups */
        t->line = cfg_line(g[i]);
        char prefix[48];
        snprintf(prefix, sizeof prefix, "network.traffic_classes[%d]", i);
        cfg_read(e->cfg, g[i], prefix, tc_keys, t, NULL, d);
        if (!t->name)
            continue; /* missing: reported */
        char key[64];
        snprintf(key, sizeof key, "%s.name", prefix);
        if (!*t->name || strpbrk(t->name, ",\"\n\r"))
            diag_error(d, file, cfg_member_line(g[i], "name"), key,
                       "%s; expected a name of at least one character "
                       "without a comma, quote or line break",
                       *t->name ? "the name holds a comma, quote or line "
                                  "break"
                                : "the name is empty");
        for (int k = 0; k < i; k++)
            if (c->tc[k].name && strcmp(c->tc[k].name, t->name) == 0) {
                diag_error(d, file, cfg_member_line(g[i], "name"), key,
                           "\"%s\" is the name of "
                           "network.traffic_classes[%d] too; give each "
                           "class its own name",
                           t->name, k);
                break;
            }
    }
    if (d->errors != before)
        return;
    /* SC'20 §II-E: "the sum of the minimum bandwidth requirements of the
     * different traffic classes does not exceed the available bandwidth" */
    uint32_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += tc_per_mille(c->tc[i].min_share);
    if (sum > 1000) {
        diag_error(d, file, c->tcs_line, "network.traffic_classes",
                   "the min_share values add up to %.3f of a link; "
                   "expected at most 1 (SC'20 §II-E: the minimum "
                   "bandwidths of the classes do not exceed the link's)",
                   sum / 1000.0);
        return;
    }
    c->n_tcs = (uint32_t)n;
}

static const char *const sections[] = { "experiment", "system", "probe",
                                        "network", "traffic", "sampling",
                                        "jobs", "mpi", "app_aware",
                                        "production", "impact", NULL };

/* A routing the system's family cannot use is an error at `line`. */
static void check_family(const struct experiment *e, const struct routing *r,
                         const char *file, int line, const char *key,
                         struct diag *d)
{
    if (!r || !e->builder || route_supports(r, e->builder->family))
        return;
    const struct topo_family *f = e->builder->family;
    char ok[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < routing_registry.n; i++) {
        const struct routing *o =
            (const struct routing *)routing_registry.entries[i];
        if (!route_supports(o, f))
            continue;
        int n = snprintf(ok + used, sizeof ok - used, "%s%s",
                         used ? ", " : "", o->base.name);
        if (n < 0 || (size_t)n >= sizeof ok - used)
            break;
        used += (size_t)n;
    }
    diag_error(d, file, line, key,
               "routing \"%s\" does not support the %s topology family; "
               "routings for %s: %s",
               r->base.name, f->name, f->name,
               used ? ok : "(none)");
}


/* Every part's keys of the network section, each with a block to read
 * into: the experiment's (into e->net), the network model's (into *np),
 * each routing family's and each rate controller's (into blocks of store,
 * zeroed). For checking
 * the section before a system exists; experiment_net_params reads it
 * again onto the system's defaults. Returns the number of parts. */
static size_t network_parts(struct experiment *e, struct net_params *np,
                            unsigned char *store, size_t cap,
                            struct cfg_part *parts, size_t max)
{
    const struct net_part *rp[NET_MAX_PARTS];
    size_t k = route_parts(rp, NET_MAX_PARTS), n = 0, used = 0;
    k += cc_parts(rp + k, NET_MAX_PARTS - k);
    parts[n++] = (struct cfg_part){ net_routing_keys, &e->net };
    parts[n++] = (struct cfg_part){ net_param_keys, np };
    for (size_t i = 0; i < k && n + 1 < max; i++) {
        size_t at = (used + 7u) & ~(size_t)7u;
        assert(at + rp[i]->params_size <= cap); /* NET_PART_STORE */
        memset(store + at, 0, rp[i]->params_size);
        parts[n++] = (struct cfg_part){ rp[i]->keys, store + at };
        used = at + rp[i]->params_size;
    }
    parts[n++] = (struct cfg_part){ net_keys, &e->net };
    return n;
}

static void load_network(struct experiment *e, struct diag *d)
{
    config_setting_t *g = cfg_section(e->cfg, "network");
    memset(&e->net, 0, sizeof e->net);
    if (!g)
        return;
    static const char *const skip[] = { "traffic_classes", NULL };
    struct net_params np;
    _Alignas(8) unsigned char store[NET_PART_STORE];
    struct cfg_part parts[3 + NET_MAX_PARTS];
    memset(&np, 0, sizeof np);
    size_t n = network_parts(e, &np, store, sizeof store, parts,
                             sizeof parts / sizeof parts[0]);
    cfg_read_parts(e->cfg, g, "network", parts, n, skip, d);
    config_setting_t *ls = config_setting_get_member(g, "traffic_classes");
    if (ls)
        load_tcs(e, ls, d);
    if (e->net.routing) /* given, and registered */
        check_family(e, (const struct routing *)e->net.routing,
                     cfg_path(e->cfg), cfg_member_line(g, "routing"),
                     "network.routing", d);
    if (e->net.cc.n) { /* given, and every name registered */
        const struct nic_ctl *cc[CFG_LIST_MAX];
        for (uint32_t i = 0; i < e->net.cc.n; i++)
            cc[i] = (const struct nic_ctl *)e->net.cc.v[i];
        char err[128];
        if (cc_check_list(cc, e->net.cc.n, err, sizeof err) != 0)
            diag_error(d, e->net.cc.file, e->net.cc.line[0],
                       "network.congestion_control", "%s", err);
    }
}

/* traffic.csv writes each load with TRAFFIC_LOAD_DECIMALS decimals (and
 * the samplers' files are named with them): two loads of traffic.loads
 * (group g) that differ only past them would be two rows alike (loads
 * given twice are refused by the schema). */
static void check_load_rows(struct experiment *e, config_setting_t *g,
                            struct diag *d)
{
    const struct cfg_floats *l = &e->traffic.loads;
    config_setting_t *ls = config_setting_get_member(g, "loads");
    if (!ls || l->n < 2)
        return;
    for (uint32_t i = 1; i < l->n; i++)
        for (uint32_t j = 0; j < i; j++) {
            char a[32], b[32];
            snprintf(a, sizeof a, "%.*f", TRAFFIC_LOAD_DECIMALS, l->v[i]);
            snprintf(b, sizeof b, "%.*f", TRAFFIC_LOAD_DECIMALS, l->v[j]);
            if (strcmp(a, b) != 0)
                continue;
            config_setting_t *el = config_setting_get_elem(ls, i);
            char key[40];
            snprintf(key, sizeof key, "traffic.loads[%u]", i);
            diag_error(d, cfg_file_of(e->cfg, el), cfg_line(el), key,
                       "%g is %s in traffic.csv, as traffic.loads[%u] (%g) "
                       "is; expected loads apart in their first %d decimals",
                       l->v[i], a, j, l->v[j], TRAFFIC_LOAD_DECIMALS);
            break;
        }
}

static void load_traffic(struct experiment *e, struct diag *d)
{
    config_setting_t *g = cfg_section(e->cfg, "traffic");
    traffic_sweep_defaults(&e->traffic);
    e->has_traffic = g != NULL;
    if (!g)
        return;
    cfg_read(e->cfg, g, "traffic", traffic_keys, &e->traffic, NULL, d);
    check_load_rows(e, g, d);
    int pat = traffic_pattern_find(e->traffic.pattern);
    assert(pat >= 0); /* a CFG_CHOICE of traffic_pattern_names */
    e->traffic.p.pattern = (enum traffic_pattern)pat;
    const struct cfg_names *rs = &e->traffic.routings;
    for (uint32_t i = 0; i < rs->n; i++)
        check_family(e, (const struct routing *)rs->v[i], rs->file,
                     rs->line[i], "traffic.routings", d);
}

/* After load_traffic and jobs_load: the samplers run inside the traffic
 * runs and the job runs (exp/job_counters.h). */
static void load_sampling(struct experiment *e, struct diag *d)
{
    config_setting_t *g = cfg_section(e->cfg, "sampling");
    sampler_config_defaults(&e->sampling);
    e->has_sampling = g != NULL;
    if (!g)
        return;
    cfg_read(e->cfg, g, "sampling", sampler_keys, &e->sampling, NULL, d);
    const struct sampler_config *c = &e->sampling;
    if ((c->nic || c->rtr || c->links) && !e->has_traffic && !e->jobs.n) {
        const char *key = c->nic ? "nic" : c->rtr ? "rtr" : "links";
        char full[32];
        snprintf(full, sizeof full, "sampling.%s", key);
        diag_error(d, cfg_path(e->cfg), cfg_member_line(g, key), full,
                   "the counters are read during the traffic runs and the "
                   "jobs' runs, and this file has neither a traffic section "
                   "nor a jobs list");
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* experiment.name names the results folder, results/<name>: it must be
 * one folder name there, not a way out of it, and not cut short. */
static void check_name(struct experiment *e, config_setting_t *ex,
                       struct diag *d)
{
    const char *n = e->info.name;
    const char *why = NULL;
    size_t len = strlen(n);
    if (len == 0)
        why = "the name is empty";
    else if (len > EXPERIMENT_NAME_MAX)
        why = "the name is too long";
    else if (strchr(n, '/'))
        why = "the name holds a \"/\"";
    else if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
        why = "the name is \".\" or \"..\"";
    else
        for (const char *p = n; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                why = "the name holds a control character";
    if (!why)
        return;
    diag_error(d, cfg_file_of(e->cfg, ex), cfg_member_line(ex, "name"),
               "experiment.name",
               "%s (%zu characters); expected 1 to %d characters without "
               "\"/\", not \".\" or \"..\": it names the results folder, "
               "results/<name>",
               why, len, EXPERIMENT_NAME_MAX);
    e->info.name = NULL;
}

/* The system section: a built-in system (name) or a builder (topology),
 * then the builder's keys over the system's values. */
static void load_system(struct experiment *e, struct diag *d)
{
    config_setting_t *sys = cfg_section(e->cfg, "system");
    if (!sys) {
        diag_error(d, cfg_path(e->cfg), 0, "system",
                   "missing section \"system\"; expected system = { name = "
                   "\"<built-in system>\"; } or system = { topology = "
                   "\"<builder>\"; ... }");
    } else {
        e->system_line = cfg_line(sys);
        static const char *const choice[] = { "name", "topology", NULL };
        const char **skip = cfg_members_except(sys, choice);
        struct system_choice c = { 0 };
        int before_sys = d->errors;
        cfg_read(e->cfg, sys, "system", system_keys, &c, skip, d);
        free(skip);
        if (c.system && c.builder) {
            diag_error(d, cfg_path(e->cfg), e->system_line, "system",
                       "give either name (a built-in system) or topology (a "
                       "builder), not both");
        } else if (!c.system && !c.builder) {
            if (d->errors == before_sys)
                diag_error(d, cfg_path(e->cfg), e->system_line, "system",
                           "expected system.name (a built-in system: dfsim "
                           "list system) or system.topology (a builder: "
                           "dfsim list topology)");
        } else {
            if (c.system) {
                e->system = (const struct topo_system *)c.system;
                e->builder = e->system->builder;
            } else {
                e->builder = (const struct topo_builder *)c.builder;
            }
            e->builder->defaults(&e->params);
            if (e->system)
                e->system->set(&e->params);
            union topo_params before = e->params;
            cfg_read(e->cfg, sys, "system", e->builder->params, &e->params,
                     choice, d);
            e->overridden = e->system &&
                            memcmp(&before, &e->params, sizeof before) != 0;
        }
    }
}

static void load_probe(struct experiment *e, struct diag *d)
{
    config_setting_t *pr = cfg_section(e->cfg, "probe");
    if (pr) {
        cfg_read(e->cfg, pr, "probe", probe_keys, &e->probe, NULL, d);
        /* -1 asks for the system's default; other negative values are
         * mistakes, not a silent default */
        double rd = e->probe.router_delay_ns;
        if (rd < 0 && rd != -1.0) {
            config_setting_t *k = config_setting_get_member(pr,
                                                            "router_delay_ns");
            diag_error(d, cfg_path(e->cfg), k ? cfg_line(k) : cfg_line(pr),
                       "probe.router_delay_ns",
                       "value %g; expected a delay >= 0 ns, or -1 for the "
                       "system's default",
                       rd);
        }
    }
}

/* What the jobs name that other sections define: their traffic classes
 * (the network's list) and their delay sensitivity (a controller that reads
 * it). */
static void resolve_jobs(struct experiment *e, struct diag *d)
{
    if (!e->net.tcs_line || e->net.n_tcs) {
        /* the jobs' classes (a job's traffic_class), unless the list was
         * rejected (reported) */
        const char *names[NET_MAX_TCS];
        for (uint32_t k = 0; k < e->net.n_tcs; k++)
            names[k] = e->net.tc[k].name;
        jobs_resolve_classes(e->jobs.job, e->jobs.n, "jobs", names,
                             e->net.n_tcs, d);
        jobs_resolve_classes(e->impact.victim, e->impact.n_victims,
                             "impact.victims", names, e->net.n_tcs, d);
        jobs_resolve_classes(e->impact.aggressor, e->impact.n_aggressors,
                             "impact.aggressors", names, e->net.n_tcs, d);
    }
    /* a controller that reads the jobs' delay sensitivity (Netscope)
     * among the network's or the impact study's */
    bool ns = false;
    for (uint32_t k = 0; k < e->net.cc.n; k++)
        ns = ns || ((const struct nic_ctl *)e->net.cc.v[k])->sensitivity;
    for (uint32_t k = 0; k < e->impact.ccs.n; k++)
        ns = ns ||
             ((const struct nic_ctl *)e->impact.ccs.v[k])->sensitivity;
    jobs_check_sensitivity(e->jobs.job, e->jobs.n, "jobs", ns, d);
    jobs_check_sensitivity(e->impact.victim, e->impact.n_victims,
                           "impact.victims", ns, d);
    jobs_check_sensitivity(e->impact.aggressor, e->impact.n_aggressors,
                           "impact.aggressors", ns, d);
}

int experiment_load(struct experiment *e, const char *path,
                    int64_t seed_override, struct diag *d)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    e->info.seed = 1;
    e->info.time_limit = 10000 * SIMTIME_MS;
    e->info.runs = 1;
    probe_defaults(&e->probe);
    int errors = d->errors;
    e->cfg = cfg_open(path, d);
    if (!e->cfg)
        return -1;
    cfg_check_sections(e->cfg, sections, d);

    config_setting_t *ex = cfg_section(e->cfg, "experiment");
    if (ex)
        cfg_read(e->cfg, ex, "experiment", experiment_keys, &e->info, NULL, d);
    if (e->info.name)
        check_name(e, ex, d);
    if (!e->info.name) {
        /* the file's base name without its extension */
        char *name = e->name_buf;
        snprintf(name, sizeof e->name_buf, "%s", base_name(path));
        char *dot = strrchr(name, '.');
        if (dot && dot != name)
            *dot = '\0';
        e->info.name = name;
    }
    if (seed_override >= 0)
        e->info.seed = seed_override;

    load_system(e, d);

    load_probe(e, d);

    load_network(e, d);
    load_traffic(e, d);
    /* the mpi section's defaults are those of the MPI software the
     * system's family ran (mpi/params.c dmpi_defaults_for) */
    jobs_load(e->cfg, &e->jobs,
              e->builder ? e->builder->family->mpi_stack : NULL, d);
    load_sampling(e, d);
    impact_load(e->cfg, &e->impact, cfg_section(e->cfg, "jobs") != NULL,
                e->jobs.prod.on, d);
    resolve_jobs(e, d);
    if (e->impact.on && ex && config_setting_get_member(ex, "runs"))
        diag_error(d, cfg_path(e->cfg), cfg_member_line(ex, "runs"),
                   "experiment.runs",
                   "repeats a jobs list; the impact section repeats its "
                   "placements with impact.runs");

    if (d->errors > errors) {
        experiment_free(e);
        return -1;
    }
    return 0;
}

#define HAS(name) (g && config_setting_get_member(g, name))

/* Read the keys of `part` (schema keys) from the network section g into
 * out, ignoring every other member (load_network checked them all). */
static void read_part(const struct experiment *e, config_setting_t *g,
                      const struct cfg_key *keys, void *out)
{
    struct cfg_part part = { keys, out };
    const char **skip = cfg_members_outside(g, &part, 1);
    struct diag quiet;
    diag_init(&quiet);
    cfg_read_parts(e->cfg, g, "network", &part, 1, skip, &quiet);
    free(skip);
}

/* The family's defaults (of t, whose family alone is read), then every
 * key the network section gives: the network model's own, then each
 * routing family's parameters, whose defaults follow the model's final
 * parameters (a key derived from the buffers follows them); the
 * parameters before the checks. */
static void net_from_file(const struct experiment *e, const struct topo *t,
                          struct net_params *p)
{
    net_params_defaults(p, t);
    p->routing = route_default(t->family);
    config_setting_t *g = e->cfg ? cfg_section(e->cfg, "network") : NULL;
    const struct net_config *c = &e->net;
    if (g)
        read_part(e, g, net_param_keys, p);
    int rc = route_parts_add(p, t);
    if (rc == 0)
        rc = cc_parts_add(p, t);
    assert(rc == 0); /* every part's block fits NET_PART_STORE (tested) */
    for (uint32_t i = 0; g && i < p->parts.n; i++) {
        const struct net_part *part = p->parts.part[i];
        void *block = p->parts.store + p->parts.off[i];
        read_part(e, g, part->keys, block);
        if (part->derive)
            part->derive(block, p, t, g);
    }
    if (HAS("routing"))
        p->routing = (const struct routing *)c->routing;
    const struct nic_ctl *cc[CFG_LIST_MAX];
    uint32_t n_cc = 1;
    cc[0] = (const struct nic_ctl *)registry_find(
        &cc_registry, t->family->congestion_control);
    if (HAS("congestion_control")) {
        n_cc = c->cc.n;
        for (uint32_t i = 0; i < n_cc; i++)
            cc[i] = (const struct nic_ctl *)c->cc.v[i];
    }
    char err[128];
    rc = cc_set(p, t, cc, n_cc, err, sizeof err);
    assert(rc == 0); /* load_network checked the list */
    /* the traffic classes: the minimum shares in per mille (net_init
     * gives the unallocated rest to the class with the least) */
    if (c->n_tcs) {
        p->n_tcs = c->n_tcs;
        for (uint32_t k = 0; k < c->n_tcs; k++)
            p->tc[k] = (struct net_tc){
                .weight = tc_per_mille(c->tc[k].min_share),
                .priority = c->tc[k].priority ? 1 : 0 };
    }
}

/* What needs the whole set of network keys. Deadlock freedom needs a VC
 * per route segment (route/route.h; net_nexthop_init refuses fewer): 4 on
 * the dragonflies, the dateline pair on the torus; twice as many with
 * vc_rule "hop", which local_order "both" needs. Reported to d at the
 * keys' lines of the network section g of `file`. */
static void check_route_vcs(const struct topo *t, const struct net_params *p,
                            config_setting_t *g, const char *file,
                            struct diag *d)
{
    uint32_t need = t->family->route_vcs;
    bool df = !topo_is(t->family, TOPO_SHAPE_TORUS);
    if (df && p->vc_rule == NET_VC_HOP) {
        int ln = cfg_given_line(g, "vcs"); /* else the rule's own line */
        if (p->vcs < 2 * need)
            diag_error(d, file, ln ? ln : cfg_member_line(g, "vc_rule"),
                       "network.vcs",
                       "vcs = %u is too few for vc_rule = \"hop\" (two "
                       "VCs per route segment): expected vcs = %u",
                       p->vcs, 2 * need);
    } else if (p->vcs < need) {
        diag_error(d, file, cfg_member_line(g, "vcs"), "network.vcs",
                   "vcs = %u is too few: %s %u VCs per class to be "
                   "deadlock-free (route/route.h)",
                   p->vcs,
                   t->family->route_vcs_why, need);
    }
    if (!df && p->vc_rule == NET_VC_HOP)
        diag_error(d, file, cfg_member_line(g, "vc_rule"), "network.vc_rule",
                   "\"hop\" numbers a dragonfly route's VCs; a torus's are "
                   "its dateline pair: expected \"segment\" (or no "
                   "vc_rule)");
    if (df && p->local_order == NET_LOCAL_BOTH && p->vc_rule != NET_VC_HOP)
        diag_error(d, file, cfg_member_line(g, "local_order"),
                   "network.local_order", "\"both\" mixes the two orders "
                   "of a group's local hops in one route segment, which can "
                   "close a cycle of channels on one VC: expected "
                   "network.vc_rule = \"hop\" (with vcs = 8) beside it");
}

int experiment_net_params(const struct experiment *e, const struct topo *t,
                          struct net_params *p, struct diag *d)
{
    net_from_file(e, t, p);
    config_setting_t *g = e->cfg ? cfg_section(e->cfg, "network") : NULL;
    const char *file = e->cfg ? cfg_path(e->cfg) : e->path;
    int before = d->errors;
    /* what each part's values must satisfy together (a throttled pair's
     * least window below its largest, RED's thresholds in order) */
    for (uint32_t i = 0; i < p->parts.n; i++) {
        const struct net_part *part = p->parts.part[i];
        const char *key = NULL;
        char why[192], full[64];
        if (!part->check ||
            part->check(p->parts.store + p->parts.off[i], p, &key, why,
                        sizeof why) == 0)
            continue;
        snprintf(full, sizeof full, "network.%s", key);
        diag_error(d, file, g ? cfg_member_line(g, key) : 0, full, "%s",
                   why);
    }
    const struct net_config *c = &e->net;
    if (c->n_tcs && 2 * p->vcs * c->n_tcs > NET_MAX_VCS)
        diag_error(d, c->tcs_file, c->tcs_line, "network.traffic_classes",
                   "%u classes of 2 x vcs = %u VCs each need %u VCs on a "
                   "port, which has %d; expected at most %u classes (the %s "
                   "needs vcs >= %u)",
                   c->n_tcs, 2 * p->vcs, 2 * p->vcs * c->n_tcs, NET_MAX_VCS,
                   NET_MAX_VCS / (2 * p->vcs),
                   topo_is(t->family, TOPO_SHAPE_TORUS) ? "torus"
                                                        : "dragonfly",
                   t->family->route_vcs);

    check_route_vcs(t, p, g, file, d);

    /* The largest packet is a PUT request or a GET response carrying
     * max_payload bytes. */
    uint32_t req = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t rsp = net_rsp_flits(p, NET_GET, p->max_payload);
    uint32_t big = req > rsp ? req : rsp;
    if (big > UINT16_MAX) {
        diag_error(d, file, cfg_member_line(g, "max_payload"), "network.max_payload",
                   "%u bytes make packets of %u flits; a packet holds at "
                   "most 65535",
                   p->max_payload, big);
    } else {
        static const struct {
            const char *key;
            size_t offset;
        } bufs[] = {
            { "buffer_local", offsetof(struct net_params, buf_local) },
            { "buffer_global", offsetof(struct net_params, buf_global) },
            { "buffer_endpoint", offsetof(struct net_params, buf_endpoint) },
        };
        for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
            uint32_t v;
            memcpy(&v, (const char *)p + bufs[i].offset, sizeof v);
            if (v >= big)
                continue;
            /* at the buffer's key, or at max_payload that made packets
             * bigger than the default buffer */
            const char *at = HAS(bufs[i].key) || !HAS("max_payload")
                                 ? bufs[i].key
                                 : "max_payload";
            char key[64];
            snprintf(key, sizeof key, "network.%s", at);
            diag_error(d, file, cfg_member_line(g, at), key,
                       "%s holds %u flits per VC, less than the largest "
                       "packet (%u flits: a %s of max_payload = %u bytes); "
                       "virtual cut-through needs room for a whole packet",
                       bufs[i].key, v, big,
                       req >= rsp ? "PUT request" : "GET response",
                       p->max_payload);
        }
    }
#undef HAS

    if (e->has_traffic) {
        config_setting_t *tg = e->cfg ? cfg_section(e->cfg, "traffic") : NULL;
        const struct traffic_params *tp = &e->traffic.p;
        if (tp->size > (int64_t)p->max_payload)
            diag_error(d, file, cfg_member_line(tg, "size"), "traffic.size",
                       "%" PRId64 " bytes do not fit in one packet of "
                       "max_payload = %u bytes; expected at most %u, or 0 "
                       "for a full packet",
                       tp->size, p->max_payload, p->max_payload);
        if (tp->pattern == TRAFFIC_HOTSPOT &&
            (tp->hotspot_node >= t->n_nodes ||
             t->nodes[tp->hotspot_node].n_nics == 0))
            diag_error(d, file, cfg_member_line(tg, "hotspot_node"),
                       "traffic.hotspot_node",
                       "node %u %s; the system has %u nodes, 0 to %u",
                       tp->hotspot_node,
                       tp->hotspot_node >= t->n_nodes ? "does not exist"
                                                      : "has no NIC",
                       t->n_nodes, t->n_nodes ? t->n_nodes - 1 : 0);
    }
    /* the jobs' checks that need the system: the production fill's share
     * and sizes (exp/production.h) */
    jobs_check(&e->jobs, t, d);
    impact_check(&e->impact, t, d);
    return d->errors > before ? -1 : 0;
}

int experiment_check_sampling(const struct experiment *e, const struct net *n,
                              struct diag *d)
{
    int before = d->errors;
    const struct sampler_config *c = &e->sampling;
    const struct {
        bool on;
        enum sampler_kind kind;
        const char *key;
        const struct cfg_strings *names;
    } lists[] = {
        { c->nic, SAMPLER_NIC, "sampling.nic_metrics", &c->nic_metrics },
        { c->rtr, SAMPLER_RTR, "sampling.rtr_metrics", &c->rtr_metrics },
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        if (!lists[i].on)
            continue; /* a list of a sampler that is off is not read */
        const struct cfg_strings *l = lists[i].names;
        for (uint32_t k = 0; k < l->n; k++) {
            char why[1400], key[64];
            if (sampler_check_metric(n, lists[i].kind, l->v[k], why,
                                     sizeof why) == 0)
                continue;
            snprintf(key, sizeof key, "%s[%u]", lists[i].key, k);
            diag_error(d, l->file, l->line[k], key, "%s", why);
        }
    }
    return d->errors > before ? -1 : 0;
}

/* Whether the experiment reads counters during its traffic or job runs. */
static bool sampling_on(const struct experiment *e)
{
    return (e->has_traffic || e->jobs.n) &&
           (e->sampling.nic || e->sampling.rtr || e->sampling.links);
}

/* The traffic runs' network (and the job runs' for the samplers' names),
 * built once: a parameter set net_init
 * refuses, or a counter name the samplers cannot read, is reported up
 * front rather than after the probe. */
static int check_network(const struct experiment *e, const struct topo *t,
                         const struct net_params *np, struct diag *d)
{
    struct sim *s = malloc(sizeof *s);
    struct net *n = malloc(sizeof *n);
    struct net_params p = *np;
    p.counters = p.counters || sampling_on(e);
    int rc = -1;
    if (!s || !n || sim_init(s, EVQ_DEFAULT, net_entities(t)) != 0) {
        if (s)
            sim_free(s);
        diag_error(d, NULL, 0, "network", "out of memory");
        goto done;
    }
    rc = net_init(n, t, &p, s, 0, d);
    if (rc == 0) {
        if (sampling_on(e))
            rc = experiment_check_sampling(e, n, d);
        net_free(n);
    }
    sim_free(s);
done:
    free(s);
    free(n);
    return rc;
}

int experiment_check_run(const struct experiment *e, const struct topo *t,
                         const struct net_params *np, struct diag *d)
{
    int before = d->errors;
    if (e->has_traffic || sampling_on(e))
        check_network(e, t, np, d);
    if (d->errors == before && e->jobs.n)
        jobs_check_run(&e->jobs, t, np, (uint64_t)e->info.seed, d);
    if (d->errors == before && e->impact.on) {
        const struct impact_config *ic = &e->impact;
        uint32_t n = ic->n_victims + ic->n_aggressors;
        struct job_config *all = calloc(n ? n : 1, sizeof *all);
        if (!all) {
            diag_error(d, NULL, 0, "impact", "out of memory");
            return -1;
        }
        /* copies whose names still point into ic's jobs */
        memcpy(all, ic->victim, ic->n_victims * sizeof *all);
        memcpy(all + ic->n_victims, ic->aggressor,
               ic->n_aggressors * sizeof *all);
        jobs_check_controllers(all, n, &e->jobs.awr, t, np, d);
        free(all);
    }
    return d->errors > before ? -1 : 0;
}

/* Line of a dotted "system.<key>" in the experiment's system group. */
static int system_key_line(const void *ctx, const char *key)
{
    const struct experiment *e = ctx;
    config_setting_t *sys = cfg_section(e->cfg, "system");
    if (!sys || strncmp(key, "system.", 7) != 0)
        return 0;
    config_setting_t *k = config_setting_get_member(sys, key + 7);
    return k ? cfg_line(k) : 0;
}

/* Whether some run keeps the network's counters: the samplers, a job's
 * model or the app-aware controller. */
static bool needs_counters(const struct experiment *e)
{
    if (sampling_on(e))
        return true;
    const struct job_config *lists[3] = { e->jobs.job, e->impact.victim,
                                          e->impact.aggressor };
    uint32_t n[3] = { e->jobs.n, e->impact.n_victims,
                      e->impact.n_aggressors };
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < n[l]; i++) {
            const struct job_config *j = &lists[l][i];
            if (j->model || (j->routing &&
                             ((const struct nic_ctl *)j->routing)->counters))
                return true;
            for (uint32_t v = 0; v < j->variants.n; v++)
                if (((const struct nic_ctl *)j->variants.v[v])->counters)
                    return true;
        }
    return false;
}

/* The budget's `extra`: the network model under the file's network
 * section, with the counters the runs keep, and the event queue; none
 * for an experiment that only probes (exp/probe.c keeps a few arrays). */
static size_t run_bytes(const void *ctx, const struct topo_counts *c)
{
    const struct experiment *e = ctx;
    if (!e->has_traffic && !e->jobs.n && !e->impact.on)
        return 0;
    struct topo family;
    memset(&family, 0, sizeof family);
    family.family = c->family;
    struct net_params p;
    net_from_file(e, &family, &p);
    p.counters = p.counters || needs_counters(e);
    return net_estimate_bytes(&p, c) +
           sim_init_bytes(c->routers + c->nics + 1);
}

int experiment_build_topo(const struct experiment *e, struct topo *t,
                          struct diag *d)
{
    const char *name = e->system ? e->system->base.name : e->builder->base.name;
    const char *desc = e->system ? e->system->description
                                 : e->builder->base.help;
    if (e->overridden)
        desc = "a built-in system with parameters changed by the experiment "
               "file";
    struct topo_where w = { .file = cfg_path(e->cfg),
                            .line = e->system_line,
                            .key_line = system_key_line,
                            .ctx = e };
    /* entity ids: routers, NICs and a sampler (exp/traffic.c) */
    struct topo_budget b = { .max_bytes = e->max_memory,
                             .limit_from = e->max_memory_from,
                             .max_entities = EVQ_CREATOR_MAX,
                             .extra_what = "network model and event queue",
                             .extra = run_bytes, .ctx = e };
    return topo_build_within(t, e->builder, &e->params, name, desc, &b, d,
                             &w);
}

void experiment_free(struct experiment *e)
{
    jobs_config_free(&e->jobs);
    impact_free(&e->impact);
    if (e->cfg)
        cfg_close(e->cfg);
    e->cfg = NULL;
}

void experiment_print_keys(FILE *out)
{
    fprintf(out, "experiment = { ... }\n");
    cfg_print_schema(out, "experiment", experiment_keys, 2);
    fprintf(out, "system = { ... }\n");
    cfg_print_schema(out, "system", system_keys, 2);
    for (size_t i = 0; i < topo_builder_registry.n; i++) {
        const struct topo_builder *b =
            (const struct topo_builder *)topo_builder_registry.entries[i];
        fprintf(out, "  with topology = \"%s\" (or a built-in %s system):\n",
                b->base.name, b->base.name);
        cfg_print_schema(out, "system", b->params, 4);
    }
    fprintf(out, "probe = { ... }\n");
    cfg_print_schema(out, "probe", probe_keys, 2);
    fprintf(out, "network = { ... }\n");
    cfg_print_schema(out, "network", net_routing_keys, 2);
    cfg_print_schema(out, "network", net_param_keys, 2);
    const struct net_part *rp[NET_MAX_PARTS];
    size_t k = route_parts(rp, NET_MAX_PARTS);
    for (size_t i = 0; i < k; i++)
        cfg_print_schema(out, "network", rp[i]->keys, 2);
    cfg_print_schema(out, "network", net_keys, 2);
    fprintf(out, "traffic_classes = ( { ... }, ... )  "
                 "network.traffic_classes: one group per traffic class "
                 "(Slingshot, SC'20 §II-E; the generic dragonfly as a "
                 "what-if; none: one class); a job's traffic_class names "
                 "one, the first is the default:\n");
    cfg_print_schema(out, "traffic_classes", tc_keys, 2);
    fprintf(out, "traffic = { ... }\n");
    cfg_print_schema(out, "traffic", traffic_keys, 2);
    fprintf(out, "sampling = { ... }\n");
    cfg_print_schema(out, "sampling", sampler_keys, 2);
    jobs_print_keys(out);
    impact_print_keys(out);
}
