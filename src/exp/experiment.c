/* exp/experiment.c — see experiment.h. */
#include "exp/experiment.h"

#include <libconfig.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct cfg_key experiment_keys[] = {
    { .name = "name", .type = CFG_STRING,
      .offset = offsetof(struct experiment_info, name),
      .help = "name of the experiment (default: the file's base name)" },
    { .name = "seed", .type = CFG_INT,
      .offset = offsetof(struct experiment_info, seed), .min = 0,
      .max = INT64_MAX,
      .help = "seed of every random stream (default 1; --seed overrides)" },
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

static const char *const sections[] = { "experiment", "system", "probe",
                                        NULL };

/* Names of the members of `group` other than `keep`, NULL-terminated, for
 * the skip list of a first pass that only reads `keep`. */
static const char **members_except(config_setting_t *group,
                                   const char *const *keep)
{
    int n = group ? config_setting_length(group) : 0;
    const char **out = calloc((size_t)n + 1, sizeof *out);
    if (!out)
        return NULL;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *name = config_setting_name(config_setting_get_elem(group,
                                                                       (unsigned)i));
        bool kept = false;
        for (size_t j = 0; keep[j]; j++)
            kept = kept || (name && strcmp(name, keep[j]) == 0);
        if (name && !kept)
            out[k++] = name;
    }
    return out;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int experiment_load(struct experiment *e, const char *path,
                    int64_t seed_override, struct diag *d)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    e->info.seed = 1;
    probe_defaults(&e->probe);
    int errors = d->errors;
    e->cfg = cfg_open(path, d);
    if (!e->cfg)
        return -1;
    cfg_check_sections(e->cfg, sections, d);

    config_setting_t *ex = cfg_section(e->cfg, "experiment");
    if (ex)
        cfg_read(e->cfg, ex, "experiment", experiment_keys, &e->info, NULL, d);
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

    config_setting_t *sys = cfg_section(e->cfg, "system");
    if (!sys) {
        diag_error(d, cfg_path(e->cfg), 0, "system",
                   "missing section \"system\"; expected system = { name = "
                   "\"<built-in system>\"; } or system = { topology = "
                   "\"<builder>\"; ... }");
    } else {
        e->system_line = cfg_line(sys);
        static const char *const choice[] = { "name", "topology", NULL };
        const char **skip = members_except(sys, choice);
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

    if (d->errors > errors) {
        experiment_free(e);
        return -1;
    }
    return 0;
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
    return topo_build(t, e->builder, &e->params, name, desc, d, &w);
}

void experiment_free(struct experiment *e)
{
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
}
