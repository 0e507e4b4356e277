/* core/config_internal.h — what the files of the schema engine share, and
 * nothing outside them sees (no other file includes this): the record of
 * an open experiment file and the helpers that more than one of them
 * calls. config.h says what the engine does; it is one concern per file:
 *   config.c       opening: the text read (config_include.c), its
 *                  wrapped integer literals checked (where libconfig 1.5
 *                  cannot be trusted with them), parsed; the tree's
 *                  accessors
 *   config_include.c  the file and the files it @includes read, checked
 *                  and expanded into one text; its lines mapped back
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
#include <sys/types.h>

#include "core/config.h"

/* Lines [from, ...) of the text libconfig parsed (the experiment file
 * with its @includes expanded) are lines [line, ...) of file `file`, an
 * index in cfg_file.files. */
struct cfg_seg {
    int from, file, line;
};

/* An integer literal libconfig wrapped, at file:line (file one of
 * cfg_file.files). */
struct cfg_bad {
    const char *file;
    int line;
};

struct cfg_file {
    config_t cfg;        /* libconfig's tree; owns every string we hand out */
    char *path;          /* name used in diagnostics */
    char **files;        /* files[0] is path; then every @include'd file
                            once, as opened: the including file's folder
                            and the name written */
    size_t n_files, cap_files;
    struct cfg_seg *segs; /* the parsed text's lines, by `from` */
    size_t n_segs, cap_segs;
    struct cfg_bad *bad; /* lines holding a wrapped literal */
    size_t n_bad, cap_bad;
};

/* A file read whole (cfg_read_file): its NUL-terminated text and its
 * identity (an @include cycle is the same file twice). */
struct cfg_text {
    char *text;
    size_t len;
    dev_t dev;
    ino_t ino;
};

/* Long enough for every dotted key and list a person would write; longer
 * ones are truncated in messages, never overflowed. */
enum { KEY_CAP = 256, LIST_CAP = 1024 };

/* config.c: whether s is on a line whose integer literal libconfig
 * wrapped (reported when the file was opened: s is not checked again). */
bool cfg_is_bad_line(const struct cfg_file *f, const config_setting_t *s);
/* config.c: if *pp is at a comment or a string (libconfig's lexical
 * rules), move it past it, counting newlines in *line: 1, or 2 if it is
 * a block comment or a string the text ends inside; 0 if *pp is at
 * neither. A line comment stops before its newline. */
int cfg_skip_comment_or_string(const char **pp, int *line);

/* config_include.c: dir/name (name alone if dir is NULL or name is
 * absolute), and the folder of a path (NULL if it has no '/': the
 * working folder); malloc'd, NULL out of memory. */
char *cfg_join_dir(const char *dir, const char *name);
char *cfg_dir_of(const char *path);
/* config_include.c: read `path` whole into t if it is a regular file of
 * at most CFG_FILE_MAX bytes, checked on the open descriptor before a
 * byte is read (a FIFO is opened without waiting for a writer). Returns
 * 0; an errno value; or -1 with `why` (capacity cap) saying what the
 * file is instead: "a FIFO", "16777217 bytes". */
int cfg_read_file(const char *path, struct cfg_text *t, char *why,
                  size_t cap);
/* config_include.c: f's top file's text (files[0], identity `id`, NULL
 * for a text given in memory) with every @include line replaced by the
 * included file's text, looked up in the folder of the file holding the
 * line (`dir` for the top one; NULL: the working folder); f->files and
 * f->segs filled. Returns the malloc'd text (its length in *len), or
 * NULL after reporting every mistake of the @includes to d. */
char *cfg_expand(struct cfg_file *f, const char *text,
                 const struct cfg_text *id, const char *dir, size_t *len,
                 struct diag *d);
/* config_include.c: file index and own line of line `line` of the parsed
 * text. */
void cfg_map_line(const struct cfg_file *f, int line, int *file, int *orig);
/* config_include.c: every setting under s given its own file's line and
 * name (libconfig numbered the lines of the expanded text). */
void cfg_place_settings(struct cfg_file *f, config_setting_t *s);

/* config_read.c: printf-style text appended to buf (capacity cap); the
 * dotted key prefix.name; what key k accepts, as a phrase (with `full`,
 * its range; with `article`, "an integer" rather than "integer"). */
void cfg_cat(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cfg_dotted(char *buf, size_t cap, const char *prefix, const char *name);
void cfg_describe(char *buf, size_t cap, const struct cfg_key *k, bool full,
                  bool article);

#endif
