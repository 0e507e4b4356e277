/* cli/cli_list.c — `dfsim list [KIND]`: the registered parts by kind. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/registry.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dfsim list [KIND]\n\n"
                 "List the registered parts of one kind, or of every kind.\n"
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
    for (size_t i = 0; i < r->n; i++)
        printf("  %-16s %s\n", r->entries[i]->name, r->entries[i]->help);
}

int cli_list(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 ||
                     strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
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
