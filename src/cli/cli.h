/* cli/cli.h — the dfsim subcommands. Each takes the arguments after its
 * name (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 bad input (experiment file, system name) or failed run,
 * 2 bad command line. */
#ifndef DFSIM_CLI_H
#define DFSIM_CLI_H

/* `dfsim --version`: the release; raise it with each change of the
 * result files' layout or of a model that changes results. */
#define DFSIM_VERSION "0.11.0"

/* The release and the commit this dfsim was built from: "0.11.0
 * 43d0e31abcde" (cli/version.c; the scoreboard's kept values name it). */
const char *dfsim_build(void);

int cli_run(int argc, char **argv);
int cli_topo(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_counters(int argc, char **argv);
int cli_scoreboard(int argc, char **argv);
int cli_trace(int argc, char **argv);

/* Parse a non-negative decimal integer that fits in uint64; 0 on success. */
int cli_parse_u64(const char *s, unsigned long long *out);

/* SIGINT and SIGTERM to `handler` with sigaction `flags` (0, or
 * SA_RESETHAND: a second signal ends the process at once); NULL: back
 * to the default. */
void cli_catch_stop(void (*handler)(int), int flags);

#endif
