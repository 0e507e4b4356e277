/* core/registry.h — named, pluggable parts (STYLE.md "pluggable parts").
 *
 * Every policy struct (topology builder, built-in system, routing algorithm,
 * controller, workload, allocation policy) begins with a `struct reg_entry`
 * holding its name (the key in experiment files) and a one-line help. Each
 * kind has one registry table, filled by an X-macro list in its folder, so
 * adding a policy is adding a file and a line. Lookup is by exact name and
 * happens while the experiment is read, never on the hot path.
 */
#ifndef DFSIM_REGISTRY_H
#define DFSIM_REGISTRY_H

#include <stddef.h>

struct reg_entry {
    const char *name; /* key in experiment files and on the command line */
    const char *help; /* one line for `dfsim list` */
};

struct registry {
    const char *kind;                      /* "topology", "routing", ... */
    const char *help;                      /* what this kind of part is */
    const struct reg_entry *const *entries;
    size_t n;
};

/* The entry called `name`, or NULL. */
const struct reg_entry *registry_find(const struct registry *r,
                                      const char *name);

/* "a, b, c" (the known names, for error messages) into buf. */
void registry_names(const struct registry *r, char *buf, size_t cap);

/* All kinds, for `dfsim list`; NULL-terminated. */
extern const struct registry *const registries[];

/* The registry of `kind` (singular, e.g. "routing"), or NULL. */
const struct registry *registry_kind(const char *kind);

#endif
