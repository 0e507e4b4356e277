/* core/config.c — experiment files opened (see config.h): the text read,
 * checked where libconfig 1.5 cannot be trusted with it, and parsed into
 * libconfig's tree; the tree's accessors. Reading the tree through
 * schemas is config_read.c's, printing schemas config_doc.c's
 * (config_internal.h: what the files share).
 *
 * libconfig 1.5 (Debian 12) silently wraps integer literals that do not fit
 * in 32 bits unless they carry the `L` suffix (5000000000 reads as
 * 705032704, 0xffffffff as -1), and saturates 64-bit ones. The tree keeps no
 * trace of that, so check_literals() scans the text once, with libconfig's
 * lexical rules for comments, strings, names and numbers, and reports such
 * literals itself; settings on those lines are then not checked again.
 */
#include "core/config.h"
#include "core/config_internal.h"

#include <errno.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
const char *cfg_file_of(const struct cfg_file *f,
                        const struct config_setting_t *s)
{
    const char *file = s ? config_setting_source_file(s) : NULL;
    return file ? inc_path(f, file) : f->path;
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

bool cfg_is_bad_line(const struct cfg_file *f, const config_setting_t *s)
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
