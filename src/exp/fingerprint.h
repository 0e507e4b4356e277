/* exp/fingerprint.h — what an experiment file says, normalised, so that a
 * results folder can tell whether it belongs to the experiment being run.
 *
 * The fingerprint is the parsed settings of the file (with its @include's)
 * as one line per scalar, `dotted.key[i] = value`, sorted by key: comments,
 * layout, key order inside a group, `1` versus `1.0` and `5L` versus `5`
 * make no difference; any value, list element, key added or removed does.
 * The seed is the one the run uses (--seed replaces experiment.seed).
 * `dfsim run` writes it to DIR/experiment.settings before anything else and
 * compares it on --resume and before reusing a folder (cli/cli_run.c). */
#ifndef DFSIM_FINGERPRINT_H
#define DFSIM_FINGERPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"

#define FINGERPRINT_FILE "experiment.settings"

/* The normalised settings of f with experiment.seed set to seed (and, for
 * a run cut short by `dfsim run --quick`, the line "dfsim.quick = 1", so
 * that a quick run's folder is never taken for the real run's; for runs in
 * windows, `dfsim run --partitions P` with any P, "dfsim.windowed = 1":
 * their rules differ from the classic run's, exp/traffic_win.c), as a
 * malloc'd, NUL-terminated text (free it), or NULL out of memory. */
char *fingerprint_text(struct cfg_file *f, int64_t seed, bool quick,
                       bool windowed);

/* The settings `dfsim run PATH --seed seed [--quick]` alone records
 * (windowed as the file's experiment.windowed asks, as cli_run.c decides
 * without --partitions), or NULL when the file cannot be read or parsed
 * (nothing said: its run says why) or out of memory. For the scoreboard,
 * which must know before running what a folder's run would record. */
char *fingerprint_file(const char *path, int64_t seed, bool quick);

/* Compare `stored` (a folder's fingerprint) with `now` (this run's): 0 if
 * they hold the same settings; otherwise the number of differing keys,
 * the first `max_lines` of them printed to out, one a line, as
 * "  key: VALUE in <now_name>, VALUE when the folder was started" (or
 * "absent"). Comment lines (#) are ignored. */
int fingerprint_diff(const char *stored, const char *now,
                     const char *now_name, FILE *out, int max_lines);

#endif
