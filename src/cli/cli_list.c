/* cli/cli_list.c — `dfsim list [KIND]`: the registered parts by kind;
 * `dfsim list workload NAME`: a workload's keys. */
#include <stdio.h>
#include <string.h>

#include "app/workload.h"
#include "cli/cli.h"
#include "core/registry.h"
#include "core/config.h"
#include "exp/alloc.h"
#include "exp/jobs.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dfsim list [KIND]\n"
                 "       dfsim list workload NAME\n"
                 "       dfsim list allocation NAME\n\n"
                 "List the registered parts of one kind, or of every kind;\n"
                 "or the keys a job running workload NAME, or placed by\n"
                 "allocation policy NAME, takes (besides the keys of every\n"
                 "job: dfsim run --help).\n"
                 "Kinds:");
    for (size_t i = 0; registries[i]; i++)
        fprintf(out, " %s", registries[i]->kind);
    fprintf(out, "\n");
}

static void list_kind(const struct registry *r)
{
    printf("%s — %s\n", r->kind, r->help);
    if (r->n == 0)
        printf("  (none registered yet)\n");
    int w = 16;
    for (size_t i = 0; i < r->n; i++)
        if ((int)strlen(r->entries[i]->name) > w)
            w = (int)strlen(r->entries[i]->name);
    for (size_t i = 0; i < r->n; i++)
        printf("  %-*s %s\n", w, r->entries[i]->name, r->entries[i]->help);
}

/* `dfsim list workload NAME` / `allocation NAME`: the part's own keys
 * in a job's group. 0, or 2 for an unknown name. */
static int list_keys(const char *kind, const char *name)
{
    bool workload = strcmp(kind, "workload") == 0;
    const struct registry *r = workload ? &workload_registry
                                        : &allocation_registry;
    const struct reg_entry *e = registry_find(r, name);
    if (!e) {
        char names[1024];
        registry_names(r, names, sizeof names);
        fprintf(stderr, "dfsim list: unknown %s \"%s\"; known: %s\n", kind,
                name, names);
        return 2;
    }
    printf("%s — %s\n", e->name, e->help);
    if (workload) {
        printf("keys (in its job's group; docs/workloads/%s.md):\n",
               e->name);
        jobs_print_workload_keys(stdout, (const struct workload *)e);
        return 0;
    }
    const struct cfg_key *keys = alloc_policy_of(e)->keys;
    if (!keys || !keys->name)
        printf("no keys of its own\n");
    else {
        printf("keys (in its job's group, beside allocation = \"%s\"):\n",
               e->name);
        cfg_print_schema(stdout, "", keys, 2);
    }
    return 0;
}

int cli_list(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
                     strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && (strcmp(argv[1], "workload") == 0 ||
                      strcmp(argv[1], "allocation") == 0))
        return list_keys(argv[1], argv[2]);
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "dfsim list: unexpected argument \"%s\"\n",
                argv[argc - 1]);
        usage(stderr);
        return 2;
    }
    if (argc == 2) {
        const struct registry *r = registry_kind(argv[1]);
        if (!r) {
            fprintf(stderr, "dfsim list: unknown kind \"%s\"; known:",
                    argv[1]);
            for (size_t i = 0; registries[i]; i++)
                fprintf(stderr, " %s", registries[i]->kind);
            fprintf(stderr, "\n");
            return 2;
        }
        list_kind(r);
        return 0;
    }
    for (size_t i = 0; registries[i]; i++) {
        if (i)
            printf("\n");
        list_kind(registries[i]);
    }
    return 0;
}
