/* core/config_internal.h — what the files of the schema engine share, and
 * nothing outside them sees (no other file includes this): the record of
 * an open experiment file and the helpers that more than one of them
 * calls. config.h says what the engine does; it is one concern per file:
 *   config.c       opening: the text read, its wrapped integer literals
 *                  and @include lines checked (where libconfig 1.5 cannot
 *                  be trusted with them), parsed; the tree's accessors
 *   config_read.c  reading groups and values through schemas: every
 *                  member matched, checked and stored, every mistake
 *                  reported
 *   config_doc.c   printing schemas as documentation (dfsim run --help)
 * A function one of them defines and another calls has the cfg_ prefix
 * and is declared here (in config.h only if it is public); what one file
 * alone uses stays static there, without the prefix.
 */
#ifndef DFSIM_CORE_CONFIG_INTERNAL_H
#define DFSIM_CORE_CONFIG_INTERNAL_H

#include <libconfig.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"

struct cfg_file {
    config_t cfg;        /* libconfig's tree; owns every string we hand out */
    char *path;          /* name used in diagnostics */
    int *bad_lines;      /* lines of the main text holding a wrapped literal */
    size_t n_bad, cap_bad;
    char **inc_paths;    /* @include'd files as opened: include_dir/name,
                            parallel to cfg.filenames */
    size_t n_inc;
};

/* Long enough for every dotted key and list a person would write; longer
 * ones are truncated in messages, never overflowed. */
enum { KEY_CAP = 256, LIST_CAP = 1024 };

/* config.c: whether s is on a line of the main text whose integer literal
 * libconfig wrapped (reported when the file was opened: s is not checked
 * again). */
bool cfg_is_bad_line(const struct cfg_file *f, const config_setting_t *s);

/* config_read.c: printf-style text appended to buf (capacity cap); the
 * dotted key prefix.name; what key k accepts, as a phrase (with `full`,
 * its range; with `article`, "an integer" rather than "integer"). */
void cfg_cat(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cfg_dotted(char *buf, size_t cap, const char *prefix, const char *name);
void cfg_describe(char *buf, size_t cap, const struct cfg_key *k, bool full,
                  bool article);

#endif
