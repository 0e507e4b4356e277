/* exp/experiment.h — an experiment file, read and validated.
 *
 * Sections (libconfig groups; examples/example.cfg documents every key):
 *   experiment { name, seed }            what the run is called, its seed
 *   system     { name | topology, ... }  a built-in system, or a builder
 *                                        with its parameters; parameters
 *                                        given with a name override it
 *   probe      { size, pairs, ... }      the zero-load latency probe
 * Every key, type, range and name is checked; all mistakes are reported
 * together (file:line: key: what was expected) and the load fails.
 */
#ifndef DFSIM_EXPERIMENT_H
#define DFSIM_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/diag.h"
#include "exp/config.h"
#include "exp/probe.h"
#include "topo/topo.h"

struct experiment_info {
    const char *name; /* experiment.name (default: the file's base name) */
    int64_t seed;     /* experiment.seed */
};

struct system_choice {
    const struct reg_entry *system;  /* system.name, or NULL */
    const struct reg_entry *builder; /* system.topology, or NULL */
};

struct experiment {
    const char *path;
    struct cfg_file *cfg;
    struct experiment_info info;
    const struct topo_system *system;   /* NULL when built from a builder */
    const struct topo_builder *builder;
    union topo_params params;
    bool overridden;                    /* parameters changed from system's */
    int system_line;
    struct probe_params probe;
    char name_buf[128];                 /* default name storage */
};

/* Read and validate `path`. seed_override >= 0 replaces experiment.seed.
 * Returns 0, or -1 with every problem reported to d. */
int experiment_load(struct experiment *e, const char *path,
                    int64_t seed_override, struct diag *d);

/* Build the experiment's topology into t. */
int experiment_build_topo(const struct experiment *e, struct topo *t,
                          struct diag *d);

void experiment_free(struct experiment *e);

/* Print every section's keys (for `dfsim run --help`). */
void experiment_print_keys(FILE *out);

#endif
