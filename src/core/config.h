/* core/config.h — experiment files: libconfig syntax read through schemas.
 *
 * Experiment files are written by people, in libconfig's format (comments,
 * groups, lists, typed scalars; https://hyperrealm.github.io/libconfig/),
 * parsed by the Debian package libconfig-dev. dfsim never reads a setting
 * directly: each group of the file is read through a *schema*, a table of
 * `struct cfg_key` that names every accepted key with its type, range,
 * accepted names and where it is stored. The schema is the single source of
 * truth: it validates (unknown keys, wrong types, out-of-range values,
 * unknown names are errors naming file, line, key and what was expected), it
 * fills the caller's struct, and it documents (`dfsim run --help`, and
 * the test that examples/example.cfg mentions every key).
 *
 * Errors are collected in a struct diag; reading goes on after an error so a
 * user sees every mistake at once.
 */
#ifndef DFSIM_CORE_CONFIG_H
#define DFSIM_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/registry.h"

enum cfg_type {
    CFG_END = 0, /* terminates a schema */
    CFG_INT,     /* int64_t at offset; libconfig integer (or 64-bit L) */
    CFG_UINT32,  /* uint32_t at offset; libconfig integer in [min, max] */
    CFG_UINT64,  /* uint64_t at offset; libconfig integer in [min, max]
                    (never below 0) */
    CFG_TIME,    /* a duration: a number (or an integer) in the unit of
                    `unit_ps` picoseconds, the unit the key's name ends
                    with (compute_us: 1000000), in [fmin, fmax] of that
                    unit; stored as uint64_t picoseconds (core/time.h
                    simtime), rounded to the nearest */
    CFG_FLOAT,   /* double at offset; libconfig float, or an integer */
    CFG_BOOL,    /* bool at offset; libconfig true/false */
    CFG_STRING,  /* const char * at offset (owned by the struct cfg_file) */
    CFG_CHOICE,  /* const char * at offset; one of `choices` */
    CFG_ENUM,    /* uint8_t at offset: the index in `choices` of the one
                    given (a name stored as the number its user keeps) */
    CFG_CYCLES,  /* a duration given in cycles of a clock of `hz`: an
                    integer in [min, max], stored as uint64_t picoseconds
                    (core/time.h time_from_cycles) */
    CFG_NAME,    /* const struct reg_entry * at offset; a name in `reg` */
    CFG_GROUP,   /* nested group read with `sub`, stored at offset */
    CFG_FLOATS,  /* struct cfg_floats at offset; a list or array of
                    numbers, each checked like CFG_FLOAT, or one number */
    CFG_NAMES,   /* struct cfg_names at offset; a list or array of names
                    in `reg`, each checked like CFG_NAME, or one name */
    CFG_STRINGS, /* struct cfg_strings at offset; a list or array of
                    strings (checked later by their user: counter names),
                    or one string */
};

/* Most values a list key holds (CFG_FLOATS, CFG_NAMES). */
#define CFG_LIST_MAX 64
/* Most strings a CFG_STRINGS key holds: a counter list of LDMS's
 * aries_rtr_mmr names a few hundred registers. */
#define CFG_STRINGS_MAX 1024

/* A list of numbers: `loads = [0.1, 0.5, 0.9];` (or `loads = 0.5;`, a
 * list of one). Each element is checked against the key's [fmin, fmax]. */
struct cfg_floats {
    uint32_t n;              /* values given, 1 .. CFG_LIST_MAX once read */
    double v[CFG_LIST_MAX];
    const char *file;        /* where the list was written (NULL: default) */
    int line;
};

/* A list of registered names: `routings = ["minimal", "UGAL"];` (or
 * `routings = "UGAL";`). Each element is looked up in the key's `reg`. */
struct cfg_names {
    uint32_t n;
    const struct reg_entry *v[CFG_LIST_MAX];
    int line[CFG_LIST_MAX];  /* line of each name, for later checks */
    const char *file;        /* where the list was written (NULL: default) */
};

/* A list of strings: `nic_metrics = ["A", "B"];` (or `nic_metrics = "A";`).
 * Only the type is checked here; what the strings mean is checked by their
 * user, which can name each one's line. */
struct cfg_strings {
    uint32_t n;
    const char *v[CFG_STRINGS_MAX]; /* owned by the struct cfg_file */
    int line[CFG_STRINGS_MAX];      /* line of each string */
    const char *file;               /* where the list was written (NULL:
                                       default) */
};

struct cfg_key {
    const char *name;         /* key as written in the file */
    enum cfg_type type;
    size_t offset;            /* where the value goes in the caller's struct */
    const char *help;         /* one line: meaning, unit, default */
    int64_t min, max;         /* CFG_INT / CFG_UINT32: inclusive range,
                                 ignored when min == max == 0 */
    double fmin, fmax;        /* CFG_FLOAT, CFG_FLOATS: inclusive range,
                                 ignored when fmin == fmax == 0 */
    const char *const *choices;   /* CFG_CHOICE, CFG_ENUM: NULL-terminated
                                     list */
    const struct registry *reg;   /* CFG_NAME, CFG_NAMES: the registry of
                                     that kind */
    const struct cfg_key *sub;    /* CFG_GROUP: schema of the nested group */
    uint64_t unit_ps;             /* CFG_TIME: picoseconds per unit */
    uint64_t hz;                  /* CFG_CYCLES: the clock */
    bool required;                /* missing ⇒ error */
    double quick;                 /* CFG_UINT32, CFG_UINT64: `dfsim run
                                     --quick` caps the value here (0: not
                                     capped): a workload's size per rank
                                     or message, so that a quick run's
                                     iteration fits its short window */
    const char *once;             /* CFG_FLOATS, CFG_NAMES, CFG_STRINGS:
                                     each value may be given only once
                                     (each would be a row, or a column, of
                                     results like another): the noun of
                                     one value in the message ("load") */
};

/* The most bytes an experiment file may hold, and the most its text may
 * hold with its @includes expanded: 16 MiB. Files are read whole, so a
 * name that is no experiment file (/dev/zero, a disk image) must be
 * refused before it is read; the largest experiment file written so far,
 * examples/example.cfg (every key, explained), is 78 KB, 200 times
 * smaller, and a counter list of a few thousand names is a few tens of
 * KB. */
#define CFG_FILE_MAX (16 << 20)

/* An open experiment file. */
struct cfg_file;
struct config_setting_t;

/* Parse `path`. On a syntax error, an unreadable file or one that is not
 * a regular file of at most CFG_FILE_MAX bytes (checked before it is
 * read): report to d (file, line, what is wrong) and return NULL.
 * `@include "x"` is looked up in the folder of the file holding the
 * @include line (x itself if absolute); a missing, unreadable or
 * irregular x, an @include cycle, files nested over 10 deep or a text
 * over CFG_FILE_MAX bytes with its includes are errors at that line.
 * Integer literals that libconfig 1.5 would silently wrap (past 32 bits
 * without `L`), in any of the files, are reported too, at their file and
 * line, but the file is still returned so that reading can go on. */
/* A path written in `file`'s keys (a trace), found as an @include is:
 * from `file`'s folder when relative (`file` NULL: as written). A new
 * string, NULL out of memory. */
char *cfg_path_from(const char *file, const char *name);

struct cfg_file *cfg_open(const char *path, struct diag *d);
/* Parse text held in memory; `name` is used in diagnostics, and its
 * @includes are looked up from the working folder. */
struct cfg_file *cfg_open_string(const char *name, const char *text,
                                 struct diag *d);
void cfg_close(struct cfg_file *f);
const char *cfg_path(const struct cfg_file *f);

/* The file's root group (every section), for walking the whole tree. */
struct config_setting_t *cfg_root(struct cfg_file *f);

/* The top-level group `name` of the file, or NULL if absent. */
struct config_setting_t *cfg_section(struct cfg_file *f, const char *name);

/* Line of a setting in its file (0 if unknown). */
int cfg_line(const struct config_setting_t *s);

/* Line of member `name` of group g, or the group's own line if g has no
 * such member (g may be NULL: 0). */
int cfg_member_line(struct config_setting_t *g, const char *name);
/* The line of g's member `name`, or 0 if g has none (whether a key was
 * given, and where). */
int cfg_given_line(struct config_setting_t *g, const char *name);

/* Read `group` through `schema` into `out`. Keys absent from the file keep
 * the value `out` already has (the caller sets defaults first), and so do
 * keys whose value is rejected. `prefix` is the dotted path used in
 * messages ("system", "system.aries"). Every key of `group` not in `schema`
 * is an error listing the accepted keys. Keys whose name is in `skip`
 * (NULL-terminated, may be NULL) are ignored, so two schemas can share one
 * group. `group` may be NULL (an absent section): then only its required
 * keys are reported, at the file without a line. A list key keeps its
 * value unless every element passes; its elements are named key[i] in
 * messages, at their own lines. Returns the number of errors added to d. */
int cfg_read(struct cfg_file *f, struct config_setting_t *group,
             const char *prefix, const struct cfg_key *schema, void *out,
             const char *const *skip, struct diag *d);

/* One part's keys and the block they fill (cfg_read_parts). */
struct cfg_part {
    const struct cfg_key *keys;
    void *out;
};

/* cfg_read for a group whose keys belong to several parts (the network
 * section: the network model's, each routing family's, each
 * controller's): each member is read into the block of the first part
 * whose schema has it; a member of none (nor of `skip`) is an error
 * listing every part's keys. Returns the number of errors added to d. */
int cfg_read_parts(struct cfg_file *f, struct config_setting_t *group,
                   const char *prefix, const struct cfg_part *parts,
                   size_t n_parts, const char *const *skip, struct diag *d);

/* The groups of a list of groups, `key = ( { ... }, { ... } );` (a
 * single group `key = { ... };` is a list of one): stores up to cap
 * elements into out and returns how many the list has. A setting of
 * another type or an empty list is an error at its line (naming `key`)
 * and gives -1. An element that is not a group is stored as NULL, and
 * reported (as key[i]) by a call with cap 0: count first with cap 0,
 * then fetch. */
int cfg_groups(struct cfg_file *f, struct config_setting_t *s,
               const char *key, struct config_setting_t **out, int cap,
               struct diag *d);

/* Names of the members of `group` other than those in `keep`
 * (NULL-terminated), NULL-terminated and malloc'd (free it; NULL out of
 * memory): the skip list of a pass that reads only `keep`. */
const char **cfg_members_except(struct config_setting_t *group,
                                const char *const *keep);

/* Names of the members of `group` that none of parts[0..n) has a key
 * for, NULL-terminated and malloc'd (free it; NULL out of memory): the
 * skip list of a pass that reads only those parts' keys. */
const char **cfg_members_outside(struct config_setting_t *group,
                                 const struct cfg_part *parts, size_t n);

/* The file a setting was read from (the experiment file, or a file it
 * @include's). */
const char *cfg_file_of(const struct cfg_file *f,
                        const struct config_setting_t *s);

/* Check that every top-level group of the file is one of `sections`
 * (NULL-terminated); report the others. Returns the number of errors. */
int cfg_check_sections(struct cfg_file *f, const char *const *sections,
                       struct diag *d);

/* Print a schema as documentation, one key a line, indented by `indent`. */
void cfg_print_schema(FILE *out, const char *prefix,
                      const struct cfg_key *schema, int indent);

#endif
