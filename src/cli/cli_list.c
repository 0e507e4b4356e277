/* cli/cli_list.c — `dfsim list [KIND]`: the registered parts by kind;
 * `dfsim list workload NAME`: a workload's keys. */
#include <stdio.h>
#include <string.h>

#include "app/workload.h"
#include "cli/cli.h"
#include "core/registry.h"
#include "exp/jobs.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dfsim list [KIND]\n"
                 "       dfsim list workload NAME\n\n"
                 "List the registered parts of one kind, or of every kind;\n"
                 "or the keys a job running workload NAME takes (besides\n"
                 "the keys of every job: dfsim run --help).\n"
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

int cli_list(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
                     strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "workload") == 0) {
        const struct reg_entry *e = registry_find(&workload_registry,
                                                  argv[2]);
        if (!e) {
            char names[1024];
            registry_names(&workload_registry, names, sizeof names);
            fprintf(stderr, "dfsim list: unknown workload \"%s\"; known: "
                            "%s\n", argv[2], names);
            return 2;
        }
        const struct workload *w = (const struct workload *)e;
        printf("%s — %s\nkeys (in its job's group; docs/workloads/%s.md):\n",
               e->name, e->help, e->name);
        jobs_print_workload_keys(stdout, w);
        return 0;
    }
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
