/* cli/cli_topo.c — `dfsim topo SYSTEM [--json]`: describe a built-in
 * system with the figures an architect checks. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "topo/topo.h"

static void usage(FILE *out)
{
    char names[1024];
    registry_names(&topo_system_registry, names, sizeof names);
    fprintf(out,
            "usage: dfsim topo SYSTEM [--json]\n\n"
            "Describe a built-in system: routers, nodes, groups, ports and "
            "links by kind,\ncables, diameter on minimal paths, bisection "
            "and global bandwidth.\n\n"
            "  --json   one JSON object instead of text\n\n"
            "Systems: %s\n",
            names);
}

int cli_topo(int argc, char **argv)
{
    const char *name = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-' || name) {
            fprintf(stderr, "dfsim topo: unexpected argument \"%s\"\n",
                    argv[i]);
            usage(stderr);
            return 2;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        fprintf(stderr, "dfsim topo: expected a system name\n");
        usage(stderr);
        return 2;
    }
    struct diag d;
    diag_init(&d);
    struct topo t;
    if (topo_build_system(&t, name, &d) != 0)
        return 1;
    struct topo_figures f;
    if (topo_figures(&t, &f) != 0) {
        fprintf(stderr, "dfsim topo: out of memory\n");
        topo_free(&t);
        return 1;
    }
    if (json)
        topo_print_json(stdout, &t, &f);
    else
        topo_print(stdout, &t, &f);
    topo_free(&t);
    return 0;
}
