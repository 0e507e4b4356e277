/* main.c — the dfsim command: dispatch to a subcommand (cli/). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    { "run", cli_run, "run an experiment file" },
    { "topo", cli_topo, "describe a built-in system" },
    { "list", cli_list, "list registered topologies, systems, policies" },
    { "counters", cli_counters, "list a system's hardware counters" },
    { "scoreboard", cli_scoreboard,
      "run the reproductions' rows and judge them against the papers" },
    { "trace", cli_trace, "summarise an OTF2 trace of an MPI program" },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: dfsim COMMAND [ARGS]   (dfsim COMMAND --help)\n"
                 "       dfsim --version\n\n"
                 "dfsim simulates HPC interconnects: Cray Aries and Gemini, "
                 "HPE Slingshot, Kim-Dally dragonflies.\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("dfsim %s\nbuilt from commit %s\n", DFSIM_VERSION,
               dfsim_build() + strlen(DFSIM_VERSION) + 1);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "dfsim: unknown command \"%s\"\n", argv[1]);
    usage(stderr);
    return 2;
}
