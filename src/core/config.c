/* core/config.c — experiment files read through schemas (see config.h).
 *
 * libconfig parses the text; this file only walks the parsed tree. Every
 * member of a group is matched against the schema, checked for type and
 * range, and stored; anything that does not fit is reported through the
 * struct diag with file, line and dotted key, and reading goes on so that a
 * user sees every mistake of a file in one run.
 *
 * Invariant: values are stored into the caller's struct only when they pass
 * every check, so after errors `out` still holds valid (default) values.
 * Strings point into libconfig's tree and live until cfg_close.
 *
 * Types are strict: libconfig's auto-conversion stays off, so `radix =
 * "48"` or `load = true` are errors, not silent conversions. The one
 * conversion allowed is an integer where a number (CFG_FLOAT) is expected,
 * because `load = 1` is what anyone would write.
 *
 * libconfig 1.5 (Debian 12) silently wraps integer literals that do not fit
 * in 32 bits unless they carry the `L` suffix (5000000000 reads as
 * 705032704, 0xffffffff as -1), and saturates 64-bit ones. The tree keeps no
 * trace of that, so check_literals() scans the text once, with libconfig's
 * lexical rules for comments, strings, names and numbers, and reports such
 * literals itself; settings on those lines are then not checked again.
 */
#include "core/config.h"
#include "core/time.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Append printf-style text to buf (holding a string, capacity cap),
 * truncating silently. */
static void cat(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

static void dotted(char *buf, size_t cap, const char *prefix, const char *name)
{
    if (prefix && *prefix)
        snprintf(buf, cap, "%s.%s", prefix, name ? name : "");
    else
        snprintf(buf, cap, "%s", name ? name : "");
}

/* "a, b, c" from a NULL-terminated list, appended to buf. */
static void join(char *buf, size_t cap, const char *const *names, bool first)
{
    for (size_t i = 0; names && names[i]; i++, first = false)
        cat(buf, cap, "%s%s", first ? "" : ", ", names[i]);
}

/* libconfig 1.5 opens `@include "x"` as include_dir/x but records the
 * name as written; diagnostics name the file that was actually read. */
static char *join_dir(const char *dir, const char *name)
{
    if (!dir || name[0] == '/')
        return strdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static const char *inc_path(const struct cfg_file *f, const char *name)
{
    for (size_t i = 0; i < f->n_inc; i++)
        if (f->inc_paths[i] && strcmp(f->cfg.filenames[i], name) == 0)
            return f->inc_paths[i];
    return name;
}

/* The file a setting came from: the opened file, or an @include'd one. */
static const char *file_of(const struct cfg_file *f, const config_setting_t *s)
{
    const char *file = s ? config_setting_source_file(s) : NULL;
    return file ? inc_path(f, file) : f->path;
}

static const char *got_name(int type)
{
    switch (type) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "an integer";
    case CONFIG_TYPE_FLOAT: return "a float";
    case CONFIG_TYPE_BOOL: return "a boolean";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_LIST: return "a list";
    case CONFIG_TYPE_ARRAY: return "an array";
    case CONFIG_TYPE_GROUP: return "a group";
    default: return "nothing";
    }
}

/* The accepted range of an integer key: the schema's, and for CFG_UINT32
 * never wider than [0, UINT32_MAX]. Returns false when unbounded. */
static bool int_range(const struct cfg_key *k, int64_t *lo, int64_t *hi)
{
    bool ranged = !(k->min == 0 && k->max == 0);
    *lo = ranged ? k->min : INT64_MIN;
    *hi = ranged ? k->max : INT64_MAX;
    if ((k->type == CFG_UINT64 || k->type == CFG_CYCLES) && *lo < 0) {
        *lo = 0;
        return true;
    }
    if (k->type == CFG_UINT32) {
        if (*lo < 0)
            *lo = 0;
        if (*hi > (int64_t)UINT32_MAX)
            *hi = UINT32_MAX;
        return true;
    }
    return ranged;
}

static bool float_ranged(const struct cfg_key *k)
{
    return !(k->fmin == 0 && k->fmax == 0);
}

/* What a key accepts, as a phrase: "an integer", "one of (a, b)". With
 * `full`, ranges are included too. `article` selects "an integer" (error
 * messages) or "integer" (the schema listing). */
static void describe(char *buf, size_t cap, const struct cfg_key *k,
                     bool full, bool article)
{
    int64_t lo, hi;
    buf[0] = '\0';
    switch (k->type) {
    case CFG_INT:
    case CFG_UINT32:
    case CFG_UINT64:
    case CFG_CYCLES:
        cat(buf, cap, "%s", article ? "an integer" : "integer");
        if (full && int_range(k, &lo, &hi))
            cat(buf, cap, " in [%" PRId64 ", %" PRId64 "]", lo, hi);
        break;
    case CFG_FLOAT:
    case CFG_TIME:
        cat(buf, cap, "%s", article ? "a number" : "number");
        if (full && float_ranged(k))
            cat(buf, cap, " in [%g, %g]", k->fmin, k->fmax);
        break;
    case CFG_BOOL:
        cat(buf, cap, "true or false");
        break;
    case CFG_STRING:
        cat(buf, cap, "%s", article ? "a string" : "string");
        break;
    case CFG_CHOICE:
    case CFG_ENUM:
        cat(buf, cap, "one of (");
        join(buf, cap, k->choices, true);
        cat(buf, cap, ")");
        break;
    case CFG_NAME: {
        char names[LIST_CAP];
        registry_names(k->reg, names, sizeof names);
        cat(buf, cap, "%s%s name (%s)", article ? "a " : "", k->reg->kind,
            names);
        break;
    }
    case CFG_GROUP:
        cat(buf, cap, "%s", article ? "a group { ... }" : "group { ... }");
        break;
    case CFG_FLOATS:
        cat(buf, cap, "%s", article ? "a list of numbers" : "list of numbers");
        if (full && float_ranged(k))
            cat(buf, cap, " in [%g, %g]", k->fmin, k->fmax);
        break;
    case CFG_NAMES: {
        char names[LIST_CAP];
        registry_names(k->reg, names, sizeof names);
        cat(buf, cap, "%slist of %s names (%s)", article ? "a " : "",
            k->reg->kind, names);
        break;
    }
    case CFG_STRINGS:
        cat(buf, cap, "%s", article ? "a list of strings" : "list of strings");
        break;
    case CFG_END:
        break;
    }
}

static bool in_list(const char *const *list, const char *name)
{
    for (size_t i = 0; list && list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

static const struct cfg_key *find_key(const struct cfg_key *schema,
                                      const char *name)
{
    for (const struct cfg_key *k = schema; k->type != CFG_END; k++)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

/* ---- wrapped integer literals (libconfig 1.5) ---------------------------- */

static void note_bad_line(struct cfg_file *f, int line)
{
    if (f->n_bad == f->cap_bad) {
        size_t cap = f->cap_bad ? 2 * f->cap_bad : 8;
        int *p = realloc(f->bad_lines, cap * sizeof *p);
        if (!p)
            return; /* only costs a possible second message for the line */
        f->bad_lines = p;
        f->cap_bad = cap;
    }
    f->bad_lines[f->n_bad++] = line;
}

static bool is_bad_line(const struct cfg_file *f, const config_setting_t *s)
{
    if (config_setting_source_file(s))
        return false; /* an @include'd file: not scanned */
    for (size_t i = 0; i < f->n_bad; i++)
        if (f->bad_lines[i] == (int)config_setting_source_line(s))
            return true;
    return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*';
}
static bool is_name_char(char c)
{
    return is_name_start(c) || is_digit(c) || c == '-' || c == '_';
}

/* The number starting at p (a sign, a digit or ".digit"): its length, and
 * whether libconfig would store it wrapped or saturated. */
static size_t scan_number(const char *p, bool *bad)
{
    const char *q = p;
    bool hex = false, is_float = false, wide = false;
    if (*q == '+' || *q == '-')
        q++;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && is_xdigit(q[2])) {
        hex = true;
        q += 2;
        while (is_xdigit(*q))
            q++;
    } else {
        while (is_digit(*q))
            q++;
        if (*q == '.') {
            is_float = true;
            q++;
            while (is_digit(*q))
                q++;
        }
        if ((*q == 'e' || *q == 'E') &&
            (is_digit(q[1]) ||
             ((q[1] == '+' || q[1] == '-') && is_digit(q[2])))) {
            is_float = true;
            q += 2;
            while (is_digit(*q))
                q++;
        }
    }
    if (!is_float && *q == 'L') {
        wide = true;
        q++;
        if (*q == 'L')
            q++;
    }
    *bad = false;
    if (is_float)
        return (size_t)(q - p);

    errno = 0;
    if (hex) {
        unsigned long long v = strtoull(p, NULL, 16);
        *bad = errno == ERANGE ||
               v > (wide ? (unsigned long long)INT64_MAX : 0x7fffffffULL);
    } else {
        long long v = strtoll(p, NULL, 10);
        *bad = errno == ERANGE ||
               (!wide && (v < INT32_MIN || v > INT32_MAX));
    }
    return (size_t)(q - p);
}

/* If *pp is at a comment or a string (libconfig's lexical rules: #, //
 * and block comments; strings with backslash escapes), move it past it,
 * counting the newlines in *line, and return true. A line comment stops
 * before its newline. */
static bool skip_comment_or_string(const char **pp, int *line)
{
    const char *p = *pp;
    if (p[0] == '#' || (p[0] == '/' && p[1] == '/')) {
        while (*p && *p != '\n')
            p++;
    } else if (p[0] == '/' && p[1] == '*') {
        for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
            *line += *p == '\n';
        if (*p)
            p += 2;
    } else if (p[0] == '"') {
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            *line += *p == '\n';
        }
        if (*p)
            p++;
    } else {
        return false;
    }
    *pp = p;
    return true;
}

/* Report every integer literal of `text` that libconfig 1.5 stores with a
 * different value than written. Returns the number of errors. */
static int check_literals(struct cfg_file *f, const char *text,
                          struct diag *d)
{
    int line = 1, errors = 0;
    const char *p = text;
    while (*p) {
        char c = *p;
        if (c == '\n') {
            line++;
            p++;
        } else if (skip_comment_or_string(&p, &line)) {
            continue;
        } else if (is_name_start(c)) {
            while (is_name_char(*p))
                p++;
        } else if (is_digit(c) || (c == '.' && is_digit(p[1])) ||
                   ((c == '+' || c == '-') &&
                    (is_digit(p[1]) || (p[1] == '.' && is_digit(p[2]))))) {
            bool bad;
            size_t n = scan_number(p, &bad);
            if (bad) {
                int len = n > 64 ? 64 : (int)n;
                bool wide = p[n - 1] == 'L';
                if (wide)
                    diag_error(d, f->path, line, NULL,
                               "integer %.*s does not fit in 64 bits", len,
                               p);
                else
                    diag_error(d, f->path, line, NULL,
                               "integer %.*s does not fit in 32 bits; write "
                               "%.*sL for a 64-bit integer",
                               len, p, len, p);
                note_bad_line(f, line);
                errors++;
            }
            p += n;
        } else {
            p++;
        }
    }
    return errors;
}

/* ---- @include ------------------------------------------------------------ */

static int slurp(const char *path, char **text, size_t *len);
static int check_include(const char *name, int line, const char *inc,
                         const char *dir, int depth, struct diag *d);

/* libconfig 1.5 opens an @include'd name with fopen and reads it through
 * its flex scanner, which on a read error (a directory: fopen succeeds,
 * read fails) ends the whole process ("input in flex scanner failed",
 * exit status 2; hyperrealm/libconfig#292), and would wait forever on a
 * FIFO. So before libconfig sees a text, check_includes finds its
 * @include lines as libconfig's scanner does (`@include "name"` at the
 * start of a line, after spaces or tabs, outside comments and strings;
 * \\ and \" escapes in the name) and reports every one naming something
 * that exists but is not a regular file; the regular files it includes
 * are checked the same way, as deep as libconfig follows them (10 levels;
 * deeper, libconfig reports it). A name that does not exist is left to
 * libconfig ("cannot open include file"). Returns the number of errors. */
#define CFG_INCLUDE_DEPTH 10

static int check_includes(const char *name, const char *text,
                          const char *dir, int depth, struct diag *d)
{
    int line = 1, errors = 0;
    const char *p = text;
    bool line_start = true;
    while (*p) {
        char c = *p;
        if (line_start) {
            line_start = false;
            const char *q = p;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, "@include", 8) == 0 &&
                (q[8] == ' ' || q[8] == '\t')) {
                for (q += 8; *q == ' ' || *q == '\t'; q++)
                    ;
                if (*q == '"') {
                    char inc[4096];
                    size_t n = 0;
                    for (q++; *q && *q != '"' && *q != '\n'; q++) {
                        if (*q == '\\' && (q[1] == '\\' || q[1] == '"'))
                            q++;
                        if (n + 1 < sizeof inc)
                            inc[n++] = *q;
                    }
                    inc[n] = '\0';
                    errors += check_include(name, line, inc, dir, depth, d);
                    p = *q == '"' ? q + 1 : q;
                    continue;
                }
            }
        }
        if (c == '\n') {
            line++;
            p++;
            line_start = true;
        } else if (!skip_comment_or_string(&p, &line)) {
            p++;
        }
    }
    return errors;
}

/* One `@include "inc"` at name:line (see check_includes). */
static int check_include(const char *name, int line, const char *inc,
                         const char *dir, int depth, struct diag *d)
{
    char *path = join_dir(dir, inc);
    if (!path) {
        diag_error(d, name, line, NULL, "out of memory");
        return 1;
    }
    struct stat st;
    int errors = 0;
    if (stat(path, &st) != 0) {
        /* libconfig says it cannot open it */
    } else if (!S_ISREG(st.st_mode)) {
        diag_error(d, name, line, NULL,
                   "@include \"%s\": %s is %s; expected a regular file",
                   inc, path,
                   S_ISDIR(st.st_mode)    ? "a directory"
                   : S_ISFIFO(st.st_mode) ? "a FIFO"
                                          : "not a regular file");
        errors = 1;
    } else if (depth + 1 < CFG_INCLUDE_DEPTH) {
        char *text = NULL;
        size_t len = 0;
        if (slurp(path, &text, &len) == 0) {
            if (!memchr(text, '\0', len))
                errors = check_includes(path, text, dir, depth + 1, d);
            free(text);
        } /* unreadable: libconfig says so */
    }
    free(path);
    return errors;
}

/* ---- opening ------------------------------------------------------------- */

/* Parse text; `dir` (may be NULL) is where @include looks. */
static struct cfg_file *open_text(const char *name, const char *text,
                                  size_t len, const char *dir,
                                  struct diag *d)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        diag_error(d, name, line, NULL,
                   "the file contains a NUL byte (not a text file?)");
        return NULL;
    }

    struct cfg_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(name))) {
        free(f);
        diag_error(d, name, 0, NULL, "out of memory");
        return NULL;
    }
    config_init(&f->cfg);
    config_set_auto_convert(&f->cfg, 0); /* types are checked, not coerced */
    if (dir)
        config_set_include_dir(&f->cfg, dir);

    if (check_includes(name, text, dir, 0, d) != 0) {
        cfg_close(f);
        return NULL;
    }
    if (config_read_string(&f->cfg, text) != CONFIG_TRUE) {
        const char *file = config_error_file(&f->cfg);
        char *full = file ? join_dir(dir, file) : NULL;
        diag_error(d, full ? full : file ? file : name,
                   config_error_line(&f->cfg), NULL, "%s",
                   config_error_text(&f->cfg));
        free(full);
        cfg_close(f);
        return NULL;
    }
    if (f->cfg.num_filenames) {
        f->inc_paths = calloc(f->cfg.num_filenames, sizeof *f->inc_paths);
        for (size_t i = 0; f->inc_paths && i < f->cfg.num_filenames; i++)
            f->inc_paths[i] = join_dir(dir, f->cfg.filenames[i]);
        f->n_inc = f->inc_paths ? f->cfg.num_filenames : 0;
    }
    check_literals(f, text, d);
    return f;
}

/* Read all of `path` into a NUL-terminated malloc'd buffer. Returns 0, or
 * an errno value. */
static int slurp(const char *path, char **text, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return errno;
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        if (cap - n < 2) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                err = ENOMEM;
                break;
            }
            buf = p;
            cap *= 2;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n - 1, in);
        n += got;
        if (got == 0) {
            if (ferror(in))
                err = errno ? errno : EIO;
            break;
        }
    }
    fclose(in);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

struct cfg_file *cfg_open(const char *path, struct diag *d)
{
    char *text = NULL;
    size_t len = 0;
    int err = slurp(path, &text, &len);
    if (err) {
        diag_error(d, path, 0, NULL, "cannot read: %s", strerror(err));
        return NULL;
    }
    /* @include "x.cfg" is found next to the file that includes it. */
    char *dir = NULL;
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        dir = strndup(path, n);
    }
    struct cfg_file *f = open_text(path, text, len, dir, d);
    free(dir);
    free(text);
    return f;
}

struct cfg_file *cfg_open_string(const char *name, const char *text,
                                 struct diag *d)
{
    return open_text(name, text, strlen(text), NULL, d);
}

void cfg_close(struct cfg_file *f)
{
    if (!f)
        return;
    config_destroy(&f->cfg);
    for (size_t i = 0; i < f->n_inc; i++)
        free(f->inc_paths[i]);
    free(f->inc_paths);
    free(f->bad_lines);
    free(f->path);
    free(f);
}

const char *cfg_path(const struct cfg_file *f) { return f->path; }

struct config_setting_t *cfg_root(struct cfg_file *f)
{
    return config_root_setting(&f->cfg);
}

struct config_setting_t *cfg_section(struct cfg_file *f, const char *name)
{
    return config_setting_get_member(config_root_setting(&f->cfg), name);
}

int cfg_line(const struct config_setting_t *s)
{
    return s ? (int)config_setting_source_line(s) : 0;
}

/* ---- reading ------------------------------------------------------------- */

int cfg_member_line(struct config_setting_t *g, const char *name)
{
    config_setting_t *k = g ? config_setting_get_member(g, name) : NULL;
    return k ? cfg_line(k) : cfg_line(g);
}

int cfg_given_line(struct config_setting_t *g, const char *name)
{
    config_setting_t *k = g ? config_setting_get_member(g, name) : NULL;
    return k ? cfg_line(k) : 0;
}

static void wrong_type(struct cfg_file *f, const config_setting_t *s,
                       const char *key, const struct cfg_key *k,
                       struct diag *d)
{
    char want[LIST_CAP];
    describe(want, sizeof want, k, false, true);
    diag_error(d, file_of(f, s), cfg_line(s), key, "expected %s, got %s",
               want, got_name(config_setting_type(s)));
}

static bool is_int(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static void read_list(struct cfg_file *f, config_setting_t *s,
                      const char *key, const struct cfg_key *k, char *dst,
                      struct diag *d);

/* Check one setting against its key and store it into out. */
static void read_value(struct cfg_file *f, config_setting_t *s,
                       const char *key, const struct cfg_key *k, void *out,
                       struct diag *d)
{
    char *dst = (char *)out + k->offset;
    const char *file = file_of(f, s);
    int line = cfg_line(s);
    int type = config_setting_type(s);

    switch (k->type) {
    case CFG_INT:
    case CFG_UINT32:
    case CFG_UINT64:
    case CFG_CYCLES: {
        if (!is_int(s)) {
            wrong_type(f, s, key, k, d);
            return;
        }
        if (is_bad_line(f, s))
            return; /* the literal itself was reported */
        int64_t v = config_setting_get_int64(s), lo, hi;
        if (int_range(k, &lo, &hi) && (v < lo || v > hi)) {
            diag_error(d, file, line, key,
                       "value %" PRId64 " is out of range; expected an "
                       "integer in [%" PRId64 ", %" PRId64 "]",
                       v, lo, hi);
            return;
        }
        if (k->type == CFG_CYCLES)
            *(uint64_t *)dst = time_from_cycles((uint64_t)v, k->hz);
        else if (k->type == CFG_INT)
            *(int64_t *)dst = v;
        else if (k->type == CFG_UINT64)
            *(uint64_t *)dst = (uint64_t)v;
        else
            *(uint32_t *)dst = (uint32_t)v;
        return;
    }
    case CFG_FLOAT:
    case CFG_TIME: {
        double v;
        if (type == CONFIG_TYPE_FLOAT) {
            v = config_setting_get_float(s);
        } else if (is_int(s)) {
            if (is_bad_line(f, s))
                return;
            v = (double)config_setting_get_int64(s);
        } else {
            wrong_type(f, s, key, k, d);
            return;
        }
        if (!isfinite(v)) {
            diag_error(d, file, line, key,
                       "value %g is out of range; expected a finite number",
                       v);
            return;
        }
        if (float_ranged(k) && (v < k->fmin || v > k->fmax)) {
            diag_error(d, file, line, key,
                       "value %g is out of range; expected a number in "
                       "[%g, %g]",
                       v, k->fmin, k->fmax);
            return;
        }
        if (k->type == CFG_FLOAT) {
            *(double *)dst = v;
            return;
        }
        double ps = v * (double)k->unit_ps;
        if (v < 0 || ps > 9.2e18) {
            diag_error(d, file, line, key,
                       "value %g is out of range; expected a duration "
                       ">= 0 and below 9.2e18 ps",
                       v);
            return;
        }
        *(uint64_t *)dst = (uint64_t)llround(ps);
        return;
    }
    case CFG_BOOL:
        if (type != CONFIG_TYPE_BOOL) {
            wrong_type(f, s, key, k, d);
            return;
        }
        *(bool *)dst = config_setting_get_bool(s) != 0;
        return;
    case CFG_STRING:
    case CFG_CHOICE:
    case CFG_ENUM:
    case CFG_NAME: {
        if (type != CONFIG_TYPE_STRING) {
            wrong_type(f, s, key, k, d);
            return;
        }
        const char *v = config_setting_get_string(s);
        if ((k->type == CFG_CHOICE || k->type == CFG_ENUM) &&
            !in_list(k->choices, v)) {
            char list[LIST_CAP] = "";
            join(list, sizeof list, k->choices, true);
            diag_error(d, file, line, key, "\"%s\" is not one of: %s", v,
                       list);
            return;
        }
        if (k->type == CFG_NAME) {
            const struct reg_entry *e = registry_find(k->reg, v);
            if (!e) {
                char list[LIST_CAP];
                registry_names(k->reg, list, sizeof list);
                diag_error(d, file, line, key,
                           "%s \"%s\" is not registered; known: %s",
                           k->reg->kind, v, list);
                return;
            }
            *(const struct reg_entry **)dst = e;
            return;
        }
        if (k->type == CFG_ENUM) {
            uint8_t i = 0;
            while (strcmp(k->choices[i], v) != 0)
                i++;
            *(uint8_t *)dst = i;
            return;
        }
        *(const char **)dst = v;
        return;
    }
    case CFG_GROUP:
        cfg_read(f, s, key, k->sub, dst, NULL, d);
        return;
    case CFG_FLOATS:
    case CFG_NAMES:
    case CFG_STRINGS:
        read_list(f, s, key, k, dst, d);
        return;
    case CFG_END:
        return;
    }
}

/* A list key (CFG_FLOATS, CFG_NAMES, CFG_STRINGS): a libconfig list
 * ( ... ) or array [ ... ] whose every element is read as the scalar key
 * would read it (so an element's message names it as key[i] and its own
 * line), or one scalar, a list of one. Stored only when every element
 * passes. */
static void read_list(struct cfg_file *f, config_setting_t *s,
                      const char *key, const struct cfg_key *k, char *dst,
                      struct diag *d)
{
    int type = config_setting_type(s);
    bool multi = type == CONFIG_TYPE_LIST || type == CONFIG_TYPE_ARRAY;
    bool floats = k->type == CFG_FLOATS;
    bool strings = k->type == CFG_STRINGS;
    int max = strings ? CFG_STRINGS_MAX : CFG_LIST_MAX;
    bool scalar_ok = floats ? (type == CONFIG_TYPE_FLOAT || is_int(s))
                            : type == CONFIG_TYPE_STRING;
    if (!multi && !scalar_ok) {
        wrong_type(f, s, key, k, d);
        return;
    }
    int n = multi ? config_setting_length(s) : 1;
    if (n == 0) {
        diag_error(d, file_of(f, s), cfg_line(s), key,
                   "expected at least one value, got an empty %s",
                   type == CONFIG_TYPE_LIST ? "list" : "array");
        return;
    }
    if (n > max) {
        diag_error(d, file_of(f, s), cfg_line(s), key,
                   "%d values are too many; expected at most %d", n, max);
        return;
    }
    struct cfg_key elem = *k;
    elem.type = floats ? CFG_FLOAT : strings ? CFG_STRING : CFG_NAME;
    elem.offset = 0;
    /* values are kept here until every element has passed */
    static_assert(CFG_STRINGS_MAX >= CFG_LIST_MAX, "list buffers");
    union {
        double v[CFG_LIST_MAX];
        const struct reg_entry *names[CFG_LIST_MAX];
        const char *strs[CFG_STRINGS_MAX];
    } val;
    int lines[CFG_STRINGS_MAX];
    int before = d->errors;
    for (int i = 0; i < n; i++) {
        config_setting_t *e = multi ? config_setting_get_elem(s, (unsigned)i)
                                    : s;
        char ekey[KEY_CAP];
        if (multi)
            snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        else
            snprintf(ekey, sizeof ekey, "%s", key);
        lines[i] = cfg_line(e);
        if (floats)
            read_value(f, e, ekey, &elem, &val.v[i], d);
        else if (strings)
            read_value(f, e, ekey, &elem, &val.strs[i], d);
        else
            read_value(f, e, ekey, &elem, &val.names[i], d);
    }
    if (d->errors != before)
        return;
    if (floats) {
        struct cfg_floats *out = (struct cfg_floats *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.v, (size_t)n * sizeof val.v[0]);
        out->file = file_of(f, s);
        out->line = cfg_line(s);
    } else if (strings) {
        struct cfg_strings *out = (struct cfg_strings *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.strs, (size_t)n * sizeof val.strs[0]);
        memcpy(out->line, lines, (size_t)n * sizeof lines[0]);
        out->file = file_of(f, s);
    } else {
        struct cfg_names *out = (struct cfg_names *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.names, (size_t)n * sizeof val.names[0]);
        memcpy(out->line, lines, (size_t)n * sizeof lines[0]);
        out->file = file_of(f, s);
    }
}

int cfg_read(struct cfg_file *f, struct config_setting_t *group,
             const char *prefix, const struct cfg_key *schema, void *out,
             const char *const *skip, struct diag *d)
{
    struct cfg_part part = { schema, out };
    return cfg_read_parts(f, group, prefix, &part, 1, skip, d);
}

int cfg_read_parts(struct cfg_file *f, struct config_setting_t *group,
                   const char *prefix, const struct cfg_part *parts,
                   size_t n_parts, const char *const *skip, struct diag *d)
{
    int before = d->errors;
    char key[KEY_CAP];

    if (group && config_setting_type(group) != CONFIG_TYPE_GROUP) {
        diag_error(d, file_of(f, group), cfg_line(group),
                   prefix && *prefix ? prefix : NULL,
                   "expected a group { ... }, got %s",
                   got_name(config_setting_type(group)));
        return d->errors - before;
    }

    int n = group ? config_setting_length(group) : 0;
    for (int i = 0; i < n; i++) {
        config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
        const char *name = config_setting_name(s);
        dotted(key, sizeof key, prefix, name);
        const struct cfg_key *k = NULL;
        size_t j = 0;
        for (; j < n_parts && !k; j++)
            k = find_key(parts[j].keys, name);
        if (k) {
            read_value(f, s, key, k, parts[j - 1].out, d);
        } else if (!in_list(skip, name)) {
            char list[LIST_CAP] = "";
            bool first = true;
            for (size_t p = 0; p < n_parts; p++)
                for (const struct cfg_key *a = parts[p].keys;
                     a->type != CFG_END; a++) {
                    cat(list, sizeof list, "%s%s", first ? "" : ", ",
                        a->name);
                    first = false;
                }
            join(list, sizeof list, skip, first);
            diag_error(d, file_of(f, s), cfg_line(s), NULL,
                       "unknown key \"%s\"; accepted keys: %s", key, list);
        }
    }

    /* An absent group has no line: report at the file. */
    for (size_t p = 0; p < n_parts; p++)
        for (const struct cfg_key *k = parts[p].keys; k->type != CFG_END;
             k++) {
            if (!k->required ||
                (group && config_setting_get_member(group, k->name)))
                continue;
            dotted(key, sizeof key, prefix, k->name);
            diag_error(d, group ? file_of(f, group) : f->path,
                       cfg_line(group), NULL, "missing required key \"%s\"",
                       key);
        }
    return d->errors - before;
}

int cfg_groups(struct cfg_file *f, struct config_setting_t *s,
               const char *key, struct config_setting_t **out, int cap,
               struct diag *d)
{
    int type = config_setting_type(s);
    if (type == CONFIG_TYPE_GROUP) {
        if (cap > 0)
            out[0] = s;
        return 1;
    }
    if (type != CONFIG_TYPE_LIST) {
        diag_error(d, file_of(f, s), cfg_line(s), key,
                   "expected a list of groups ( { ... }, { ... } ), got %s",
                   got_name(type));
        return -1;
    }
    int n = config_setting_length(s);
    if (n == 0) {
        diag_error(d, file_of(f, s), cfg_line(s), key,
                   "expected at least one group { ... }, got an empty list");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        bool group = config_setting_type(e) == CONFIG_TYPE_GROUP;
        if (!group && cap == 0) {
            char ekey[KEY_CAP];
            snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
            diag_error(d, file_of(f, e), cfg_line(e), ekey,
                       "expected a group { ... }, got %s",
                       got_name(config_setting_type(e)));
        }
        if (i < cap)
            out[i] = group ? e : NULL;
    }
    return n;
}

const char **cfg_members_except(struct config_setting_t *group,
                                const char *const *keep)
{
    int n = group ? config_setting_length(group) : 0;
    const char **out = calloc((size_t)n + 1, sizeof *out);
    if (!out)
        return NULL;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *name =
            config_setting_name(config_setting_get_elem(group, (unsigned)i));
        if (name && !in_list(keep, name))
            out[k++] = name;
    }
    return out;
}

const char **cfg_members_outside(struct config_setting_t *group,
                                 const struct cfg_part *parts, size_t n)
{
    int m = group ? config_setting_length(group) : 0;
    const char **out = calloc((size_t)m + 1, sizeof *out);
    if (!out)
        return NULL;
    int k = 0;
    for (int i = 0; i < m; i++) {
        const char *name =
            config_setting_name(config_setting_get_elem(group, (unsigned)i));
        bool known = false;
        for (size_t j = 0; j < n && !known; j++)
            known = find_key(parts[j].keys, name) != NULL;
        if (name && !known)
            out[k++] = name;
    }
    return out;
}

const char *cfg_file_of(const struct cfg_file *f,
                        const struct config_setting_t *s)
{
    return file_of(f, s);
}

int cfg_check_sections(struct cfg_file *f, const char *const *sections,
                       struct diag *d)
{
    int before = d->errors;
    config_setting_t *root = config_root_setting(&f->cfg);
    int n = config_setting_length(root);
    for (int i = 0; i < n; i++) {
        config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
        const char *name = config_setting_name(s);
        if (in_list(sections, name))
            continue;
        char list[LIST_CAP] = "";
        join(list, sizeof list, sections, true);
        diag_error(d, file_of(f, s), cfg_line(s), NULL,
                   "unknown section \"%s\"; accepted sections: %s", name,
                   list);
    }
    return d->errors - before;
}

/* ---- documentation ------------------------------------------------------- */

/* Width of the widest dotted key of a schema, nested groups included. */
static size_t key_width(const char *prefix, const struct cfg_key *schema)
{
    size_t w = 0;
    char key[KEY_CAP];
    for (const struct cfg_key *k = schema; k->type != CFG_END; k++) {
        dotted(key, sizeof key, prefix, k->name);
        size_t n = strlen(key);
        if (n > w)
            w = n;
        if (k->type == CFG_GROUP) {
            n = key_width(key, k->sub);
            if (n > w)
                w = n;
        }
    }
    return w;
}

static void print_keys(FILE *out, const char *prefix,
                       const struct cfg_key *schema, int indent, int width)
{
    char key[KEY_CAP], what[LIST_CAP];
    for (const struct cfg_key *k = schema; k->type != CFG_END; k++) {
        dotted(key, sizeof key, prefix, k->name);
        describe(what, sizeof what, k, true, false);
        if (k->required)
            cat(what, sizeof what, ", required");
        fprintf(out, "%*s%-*s  %s  %s\n", indent, "", width, key, what,
                k->help ? k->help : "");
        if (k->type == CFG_GROUP)
            print_keys(out, key, k->sub, indent, width);
    }
}

void cfg_print_schema(FILE *out, const char *prefix,
                      const struct cfg_key *schema, int indent)
{
    size_t w = key_width(prefix, schema);
    print_keys(out, prefix, schema, indent < 0 ? 0 : indent,
               w > KEY_CAP ? KEY_CAP : (int)w);
}
