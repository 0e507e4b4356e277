/* cli/cli_topo.c — `dfsim topo SYSTEM [--json] [--partitions P]`:
 * describe a built-in system with the figures an architect checks, or how
 * one simulation of it would be dealt over P processes (net/partition.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "net/params.h"
#include "net/partition.h"
#include "topo/topo.h"

static void usage(FILE *out)
{
    char names[1024];
    registry_names(&topo_system_registry, names, sizeof names);
    fprintf(out,
            "usage: dfsim topo SYSTEM [--json] [--partitions P]\n\n"
            "Describe a built-in system: routers, nodes, groups, ports and "
            "links by kind,\ncables, diameter on minimal paths, bisection "
            "and global bandwidth.\n\n"
            "  --json            one JSON object instead of text\n"
            "  --partitions P    how one run would be split over P processes"
            " instead:\n"
            "                    whole groups (torus: planes) per part, the "
            "cut links,\n"
            "                    the lookahead and the imbalance "
            "(docs/performance.md)\n\n"
            "Systems: %s\n",
            names);
}

/* P from the text s: digits only, below 2^32; -1 otherwise. */
static long long parse_parts(const char *s)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) ||
        strlen(s) > 10)
        return -1;
    unsigned long long v = strtoull(s, NULL, 10);
    return v > UINT32_MAX ? -1 : (long long)v;
}

/* t dealt over P parts under its family's network defaults (the router
 * delay: an experiment file may change it, not the lookahead, which the
 * credits set), printed. */
static int print_partition(const struct topo *t, uint32_t P, int json)
{
    struct net_params np;
    net_params_defaults(&np, t);
    struct diag d;
    diag_init(&d);
    struct partition pt;
    if (partition_make(t, &np, P, &pt, &d) != 0)
        return 1;
    if (json)
        partition_print_json(stdout, t, &pt);
    else
        partition_print(stdout, t, &pt);
    partition_free(&pt);
    return 0;
}

int cli_topo(int argc, char **argv)
{
    const char *name = NULL;
    int json = 0;
    long long parts = -1; /* -1: no --partitions */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--partitions") == 0) {
            parts = parse_parts(i + 1 < argc ? argv[++i] : NULL);
            if (parts < 0) {
                fprintf(stderr, "dfsim topo: --partitions wants a number of "
                                "processes, 1 or more\n");
                usage(stderr);
                return 2;
            }
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
    if (parts >= 0) {
        int rc = print_partition(&t, (uint32_t)parts, json);
        topo_free(&t);
        return rc;
    }
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
