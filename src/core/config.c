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
 * The text it scans and libconfig parses is the file with its @includes
 * expanded (config_include.c), so the check covers included files too.
 */
#include "core/config.h"
#include "core/config_internal.h"

#include <errno.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file a setting came from: the opened file, or an @include'd one
 * (cfg_place_settings gave included settings their file's name). */
const char *cfg_file_of(const struct cfg_file *f,
                        const struct config_setting_t *s)
{
    const char *file = s ? config_setting_source_file(s) : NULL;
    return file ? file : f->path;
}

/* ---- wrapped integer literals (libconfig 1.5) ---------------------------- */

/* Note a wrapped literal at file:line; false if one was noted there
 * already (a file included twice is reported once). */
static bool note_bad_line(struct cfg_file *f, const char *file, int line)
{
    for (size_t i = 0; i < f->n_bad; i++)
        if (f->bad[i].file == file && f->bad[i].line == line)
            return false;
    if (f->n_bad == f->cap_bad) {
        size_t cap = f->cap_bad ? 2 * f->cap_bad : 8;
        struct cfg_bad *p = realloc(f->bad, cap * sizeof *p);
        if (!p)
            return true; /* only costs a possible second message */
        f->bad = p;
        f->cap_bad = cap;
    }
    f->bad[f->n_bad++] = (struct cfg_bad){ file, line };
    return true;
}

bool cfg_is_bad_line(const struct cfg_file *f, const config_setting_t *s)
{
    const char *file = cfg_file_of(f, s);
    for (size_t i = 0; i < f->n_bad; i++)
        if (f->bad[i].file == file &&
            f->bad[i].line == (int)config_setting_source_line(s))
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

/* libconfig's lexical rules: #, // and block comments; strings with
 * backslash escapes (config_internal.h). */
int cfg_skip_comment_or_string(const char **pp, int *line)
{
    const char *p = *pp;
    int found = 1;
    if (p[0] == '#' || (p[0] == '/' && p[1] == '/')) {
        while (*p && *p != '\n')
            p++;
    } else if (p[0] == '/' && p[1] == '*') {
        for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
            *line += *p == '\n';
        found = *p ? 1 : 2;
        if (*p)
            p += 2;
    } else if (p[0] == '"') {
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1])
                p++;
            *line += *p == '\n';
        }
        found = *p ? 1 : 2;
        if (*p)
            p++;
    } else {
        return 0;
    }
    *pp = p;
    return found;
}

/* Report every integer literal of `text` (the parsed text: the file with
 * its @includes) that libconfig 1.5 stores with a different value than
 * written, at its own file and line. Returns the number of errors. */
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
        } else if (cfg_skip_comment_or_string(&p, &line)) {
            continue;
        } else if (is_name_start(c)) {
            while (is_name_char(*p))
                p++;
        } else if (is_digit(c) || (c == '.' && is_digit(p[1])) ||
                   ((c == '+' || c == '-') &&
                    (is_digit(p[1]) || (p[1] == '.' && is_digit(p[2]))))) {
            bool bad;
            size_t n = scan_number(p, &bad);
            int file, at;
            cfg_map_line(f, line, &file, &at);
            if (bad && note_bad_line(f, f->files[file], at)) {
                int len = n > 64 ? 64 : (int)n;
                bool wide = p[n - 1] == 'L';
                if (wide)
                    diag_error(d, f->files[file], at, NULL,
                               "integer %.*s does not fit in 64 bits", len,
                               p);
                else
                    diag_error(d, f->files[file], at, NULL,
                               "integer %.*s does not fit in 32 bits; write "
                               "%.*sL for a 64-bit integer",
                               len, p, len, p);
                errors++;
            }
            p += n;
        } else {
            p++;
        }
    }
    return errors;
}

/* ---- opening ------------------------------------------------------------- */

/* Parse `text` (len bytes), the top file `name` (its identity id; NULL
 * for a text held in memory); `dir` (may be NULL: the working folder) is
 * where its @includes are looked up. */
static struct cfg_file *open_text(const char *name, const char *text,
                                  size_t len, const char *dir,
                                  const struct cfg_text *id, struct diag *d)
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
    if (!f || !(f->path = strdup(name)) ||
        !(f->files = malloc(8 * sizeof *f->files))) {
        if (f)
            free(f->path);
        free(f);
        diag_error(d, name, 0, NULL, "out of memory");
        return NULL;
    }
    f->files[0] = f->path;
    f->n_files = 1;
    f->cap_files = 8;
    config_init(&f->cfg);
    config_set_auto_convert(&f->cfg, 0); /* types are checked, not coerced */
    /* The text libconfig parses holds no @include line (cfg_expand
     * replaced them); were its scanner to see one all the same, it would
     * look in a folder that holds nothing and say so, never read a file
     * the way libconfig 1.5 does (a FIFO: forever). */
    config_set_include_dir(&f->cfg, "/dev/null");

    size_t n = 0;
    char *all = cfg_expand(f, text, id, dir, &n, d);
    if (!all) {
        cfg_close(f);
        return NULL;
    }
    if (config_read_string(&f->cfg, all) != CONFIG_TRUE) {
        int file, line;
        cfg_map_line(f, config_error_line(&f->cfg), &file, &line);
        diag_error(d, f->files[file], line, NULL, "%s",
                   config_error_text(&f->cfg));
        free(all);
        cfg_close(f);
        return NULL;
    }
    cfg_place_settings(f, config_root_setting(&f->cfg));
    check_literals(f, all, d);
    free(all);
    return f;
}

struct cfg_file *cfg_open(const char *path, struct diag *d)
{
    struct cfg_text t;
    char why[64];
    int err = cfg_read_file(path, &t, why, sizeof why);
    if (err > 0) {
        diag_error(d, path, 0, NULL, "cannot read: %s", strerror(err));
        return NULL;
    }
    if (err < 0) {
        diag_error(d, path, 0, NULL, "cannot read: %s; expected a regular "
                   "file of at most %d bytes", why, CFG_FILE_MAX);
        return NULL;
    }
    /* @include "x.cfg" is found next to the file that includes it. */
    char *dir = cfg_dir_of(path);
    struct cfg_file *f = open_text(path, t.text, t.len, dir, &t, d);
    free(dir);
    free(t.text);
    return f;
}

struct cfg_file *cfg_open_string(const char *name, const char *text,
                                 struct diag *d)
{
    return open_text(name, text, strlen(text), NULL, NULL, d);
}

void cfg_close(struct cfg_file *f)
{
    if (!f)
        return;
    config_destroy(&f->cfg);
    for (size_t i = 1; i < f->n_files; i++) /* files[0] is path */
        free(f->files[i]);
    free(f->files);
    free(f->segs);
    free(f->bad);
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
