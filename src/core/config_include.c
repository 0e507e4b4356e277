/* core/config_include.c — an experiment file and the files it @includes
 * read into one text (config.h; config_internal.h says what the files of
 * the schema engine share): each file checked before a byte of it is
 * read (a regular file of at most CFG_FILE_MAX bytes), each @include line
 * found as libconfig's scanner finds it and replaced by the text of the
 * file it names, looked up in the folder of the file that holds the
 * @include line; and the map from the lines of that text back to each
 * file's own lines.
 *
 * Why not libconfig's own @include: libconfig 1.5 (Debian 12) looks up
 * every @include, nested ones too, in one include_dir (the top file's
 * folder), says "cannot open include file" without naming it, follows a
 * cycle until "include file nesting too deep", reads a FIFO or /dev/zero
 * without end and ends the process on a directory (its flex scanner's
 * "input in flex scanner failed"); config_set_include_func, which would
 * let dfsim open the files itself, came with libconfig 1.7. So libconfig
 * is handed the expanded text, which holds no @include line, and the
 * lines it gives settings are mapped back (cfg_place_settings).
 */
#include "core/config.h"
#include "core/config_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files nested at most this deep, the top one included (libconfig 1.5's
 * MAX_INCLUDE_DEPTH); names of included files at most NAME_CAP - 1
 * bytes (PATH_MAX). */
enum { INCLUDE_DEPTH = 10, NAME_CAP = 4096 };

char *cfg_join_dir(const char *dir, const char *name)
{
    if (!dir || name[0] == '/')
        return strdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

char *cfg_path_from(const char *file, const char *name)
{
    char *dir = file ? cfg_dir_of(file) : NULL;
    char *p = cfg_join_dir(dir, name);
    free(dir);
    return p;
}

char *cfg_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return NULL;
    return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* ---- reading one file ---------------------------------------------------- */

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* The bytes of open regular file fd (`size` of them when it was
 * checked), NUL-terminated: at most CFG_FILE_MAX + 1 of them, so that a
 * file grown past the limit since is seen to be. Returns 0 or an errno
 * value. */
static int read_fd(int fd, size_t size, char **text, size_t *len)
{
    size_t cap = size + 2, n = 0; /* one byte more than expected, and NUL */
    char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        if (n + 1 == cap) {
            if (n > CFG_FILE_MAX)
                break;
            size_t ncap = cap * 2 > (size_t)CFG_FILE_MAX + 2
                              ? (size_t)CFG_FILE_MAX + 2
                              : cap * 2;
            char *p = realloc(buf, ncap);
            if (!p) {
                free(buf);
                return ENOMEM;
            }
            buf = p;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int err = errno;
            free(buf);
            return err;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

int cfg_read_file(const char *path, struct cfg_text *t, char *why,
                  size_t cap)
{
    /* O_NONBLOCK: opening a FIFO that has no writer returns at once
     * (it would wait for one), so that fstat can say what it is */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat st;
    int err = fstat(fd, &st) != 0 ? errno : 0;
    if (!err && !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "%s", kind_of(st.st_mode));
        err = -1;
    } else if (!err && st.st_size > CFG_FILE_MAX) {
        snprintf(why, cap, "%lld bytes", (long long)st.st_size);
        err = -1;
    } else if (!err) {
        err = read_fd(fd, (size_t)st.st_size, &t->text, &t->len);
        if (!err && t->len > CFG_FILE_MAX) {
            snprintf(why, cap, "more than %d bytes", CFG_FILE_MAX);
            free(t->text);
            err = -1;
        }
        t->dev = st.st_dev;
        t->ino = st.st_ino;
    }
    close(fd);
    return err;
}

/* ---- the expanded text --------------------------------------------------- */

struct expand {
    struct cfg_file *f;
    struct diag *d;
    char *out;     /* the text so far (NUL-terminated once it has any) */
    size_t len, cap;
    int line;      /* the line of out being written, from 1 */
    int depth;     /* files being expanded: [0, depth), the top one first */
    int chain[INCLUDE_DEPTH];    /* their indices in f->files */
    dev_t dev[INCLUDE_DEPTH];    /* and their identities, when known (a */
    ino_t ino[INCLUDE_DEPTH];    /* text given in memory has none) */
    bool known[INCLUDE_DEPTH];
    bool oom;
};

static void emit(struct expand *x, const char *s, size_t n)
{
    if (x->oom || n == 0)
        return;
    if (x->len + n + 1 > x->cap) {
        size_t cap = x->cap ? x->cap : 4096;
        while (cap < x->len + n + 1)
            cap *= 2;
        char *p = realloc(x->out, cap);
        if (!p) {
            x->oom = true;
            return;
        }
        x->out = p;
        x->cap = cap;
    }
    memcpy(x->out + x->len, s, n);
    x->len += n;
    x->out[x->len] = '\0';
    for (size_t i = 0; i < n; i++)
        x->line += s[i] == '\n';
}

/* From the line being written on, the text is file's from its line
 * `line` on. */
static void seg_begin(struct expand *x, int file, int line)
{
    struct cfg_file *f = x->f;
    if (f->n_segs && f->segs[f->n_segs - 1].from == x->line) {
        f->segs[f->n_segs - 1].file = file; /* nothing of the last one */
        f->segs[f->n_segs - 1].line = line;
        return;
    }
    if (f->n_segs == f->cap_segs) {
        size_t cap = f->cap_segs ? 2 * f->cap_segs : 16;
        struct cfg_seg *p = realloc(f->segs, cap * sizeof *p);
        if (!p) {
            x->oom = true;
            return;
        }
        f->segs = p;
        f->cap_segs = cap;
    }
    f->segs[f->n_segs++] = (struct cfg_seg){ x->line, file, line };
}

/* The index of `path` in f->files, added if new (-1: out of memory). */
static int file_index(struct cfg_file *f, const char *path)
{
    for (size_t i = 0; i < f->n_files; i++)
        if (strcmp(f->files[i], path) == 0)
            return (int)i;
    if (f->n_files == f->cap_files) {
        size_t cap = f->cap_files ? 2 * f->cap_files : 8;
        char **p = realloc(f->files, cap * sizeof *p);
        if (!p)
            return -1;
        f->files = p;
        f->cap_files = cap;
    }
    if (!(f->files[f->n_files] = strdup(path)))
        return -1;
    return (int)f->n_files++;
}

void cfg_map_line(const struct cfg_file *f, int line, int *file, int *orig)
{
    size_t lo = 0, hi = f->n_segs; /* the last segment from <= line */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->segs[mid].from <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || line <= 0) {
        *file = 0;
        *orig = line;
        return;
    }
    const struct cfg_seg *s = &f->segs[lo - 1];
    *file = s->file;
    *orig = s->line + (line - s->from);
}

void cfg_place_settings(struct cfg_file *f, config_setting_t *s)
{
    if (s->line > 0) {
        int file, line;
        cfg_map_line(f, (int)s->line, &file, &line);
        s->line = (unsigned)line;
        s->file = file > 0 ? f->files[file] : NULL;
    }
    if (config_setting_is_aggregate(s))
        for (int i = 0; i < config_setting_length(s); i++)
            cfg_place_settings(f, config_setting_get_elem(s, (unsigned)i));
}

/* ---- @include lines ------------------------------------------------------ */

/* Whether the line at p is an @include line, as libconfig's scanner has
 * it (`@include "` at the start of a line, after spaces or tabs; \\ and
 * \" escapes in the name): 0 if not; 1 with the name in `name` and *end
 * after the closing quote; -1 with *why saying what is wrong with it and
 * *end at the end of the line. After the name, only a comment may follow
 * on the line: what follows is put on a line of its own in the expanded
 * text, where another @include would be taken for one. */
static int include_line(const char *p, char *name, const char **end,
                        const char **why)
{
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "@include", 8) != 0 || (p[8] != ' ' && p[8] != '\t'))
        return 0;
    for (p += 8; *p == ' ' || *p == '\t'; p++)
        ;
    if (*p != '"')
        return 0; /* not libconfig's either: a syntax error it reports */
    size_t n = 0;
    for (p++; *p && *p != '"' && *p != '\n'; p++) {
        if (*p == '\\' && (p[1] == '\\' || p[1] == '"'))
            p++;
        if (n + 1 < NAME_CAP)
            name[n] = *p;
        n++;
    }
    name[n < NAME_CAP ? n : NAME_CAP - 1] = '\0';
    const char *q = *p == '"' ? p + 1 : p;
    while (*q == ' ' || *q == '\t' || *q == '\r')
        q++;
    bool rest_ok = !*q || *q == '\n' || *q == '#' ||
                   (q[0] == '/' && (q[1] == '/' || q[1] == '*'));
    *why = *p != '"'   ? "expected the name's closing \" on its line"
           : n == 0    ? "expected a file name, got \"\""
           : n >= NAME_CAP ? "the name is longer than 4095 bytes"
           : !rest_ok  ? "expected nothing after the name but a comment"
                       : NULL;
    if (*why) {
        *end = strchr(p, '\n');
        if (!*end)
            *end = p + strlen(p);
        return -1;
    }
    *end = p + 1;
    return 1;
}

static int expand_file(struct expand *x, int idx, const char *text,
                       const char *dir);

/* "a -> b -> path": the chain of files being expanded from the first
 * one that is `path`'s file, into buf. */
static void cycle_text(const struct expand *x, int from, const char *path,
                       char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = from; i < x->depth; i++)
        cfg_cat(buf, cap, "%s -> ", x->f->files[x->chain[i]]);
    cfg_cat(buf, cap, "%s", path);
}

/* The depth in x's chain of the file t is (a cycle), or -1. */
static int in_chain(const struct expand *x, const struct cfg_text *t)
{
    for (int i = 0; i < x->depth; i++)
        if (x->known[i] && x->dev[i] == t->dev && x->ino[i] == t->ino)
            return i;
    return -1;
}

/* The text of `path`, named `inc` at from:line, expanded into x in place
 * of the @include line. Returns the number of errors. */
static int include_text(struct expand *x, const char *from, int line,
                        const char *inc, const char *path,
                        struct cfg_text *t)
{
    int cycle = in_chain(x, t);
    const char *nul = memchr(t->text, '\0', t->len);
    if (cycle >= 0) {
        char chain[4096];
        cycle_text(x, cycle, path, chain, sizeof chain);
        diag_error(x->d, from, line, NULL,
                   "@include \"%s\": an @include cycle: %s", inc, chain);
    } else if (x->depth == INCLUDE_DEPTH) {
        diag_error(x->d, from, line, NULL,
                   "@include \"%s\": files nested more than %d deep",
                   inc, INCLUDE_DEPTH);
    } else if (x->len + t->len > CFG_FILE_MAX) {
        diag_error(x->d, from, line, NULL,
                   "@include \"%s\": the text with its @includes would "
                   "pass %d bytes", inc, CFG_FILE_MAX);
    } else if (nul) {
        int at = 1;
        for (const char *p = t->text; p < nul; p++)
            at += *p == '\n';
        diag_error(x->d, path, at, NULL,
                   "the file contains a NUL byte (not a text file?)");
    } else {
        int idx = file_index(x->f, path);
        char *dir = cfg_dir_of(path);
        if (idx < 0 || (!dir && strchr(path, '/'))) {
            free(dir);
            diag_error(x->d, from, line, NULL, "out of memory");
            return 1;
        }
        x->chain[x->depth] = idx;
        x->dev[x->depth] = t->dev;
        x->ino[x->depth] = t->ino;
        x->known[x->depth++] = true;
        int errors = expand_file(x, idx, t->text, dir);
        x->depth--;
        if (x->len && x->out[x->len - 1] != '\n')
            emit(x, "\n", 1); /* the including file goes on on a new line */
        free(dir);
        return errors;
    }
    return 1;
}

/* `@include "inc"` at from:line, looked up in `dir` (NULL: the working
 * folder). Returns the number of errors. */
static int include(struct expand *x, const char *from, int line,
                   const char *inc, const char *dir)
{
    char *path = cfg_join_dir(dir, inc);
    if (!path) {
        diag_error(x->d, from, line, NULL, "out of memory");
        return 1;
    }
    struct cfg_text t;
    char why[64];
    int errors = 1;
    int err = cfg_read_file(path, &t, why, sizeof why);
    if (err > 0) {
        diag_error(x->d, from, line, NULL, "@include \"%s\": cannot read "
                   "%s: %s", inc, path, strerror(err));
    } else if (err < 0) {
        diag_error(x->d, from, line, NULL, "@include \"%s\": %s is %s; "
                   "expected a regular file of at most %d bytes",
                   inc, path, why, CFG_FILE_MAX);
    } else {
        errors = include_text(x, from, line, inc, path, &t);
        free(t.text);
    }
    free(path);
    return errors;
}

/* Copy file idx's `text` into x, its @include lines expanded; `dir` is
 * where its @includes are looked up. Returns the number of errors. */
static int expand_file(struct expand *x, int idx, const char *text,
                       const char *dir)
{
    const char *name = x->f->files[idx];
    int line = 1, errors = 0;
    const char *p = text, *copied = text;
    bool line_start = true;
    seg_begin(x, idx, 1);
    while (*p) {
        if (line_start) {
            line_start = false;
            char inc[NAME_CAP];
            const char *end, *why;
            int k = include_line(p, inc, &end, &why);
            if (k != 0) {
                emit(x, copied, (size_t)(p - copied));
                if (k < 0) {
                    diag_error(x->d, name, line, NULL, "@include: %s", why);
                    errors++;
                } else {
                    errors += include(x, name, line, inc, dir);
                }
                seg_begin(x, idx, line); /* the rest of the line */
                copied = p = end;
                continue;
            }
        }
        int at = line;
        char c = *p;
        int k = c == '\n' ? 0 : cfg_skip_comment_or_string(&p, &line);
        if (c == '\n') {
            line++;
            p++;
            line_start = true;
        } else if (k == 0) {
            p++;
        } else if (k == 2 && idx > 0) {
            /* in libconfig's scanner it would go on into the including
             * file's text */
            diag_error(x->d, name, at, NULL, "the file ends inside a %s",
                       c == '"' ? "string" : "comment");
            errors++;
        }
    }
    emit(x, copied, (size_t)(p - copied));
    return errors;
}

char *cfg_expand(struct cfg_file *f, const char *text,
                 const struct cfg_text *id, const char *dir, size_t *len,
                 struct diag *d)
{
    struct expand x = { .f = f, .d = d, .line = 1, .depth = 1 };
    x.chain[0] = 0;
    x.known[0] = id != NULL;
    if (id) {
        x.dev[0] = id->dev;
        x.ino[0] = id->ino;
    }
    int errors = expand_file(&x, 0, text, dir);
    if (!errors && x.oom) {
        diag_error(d, f->path, 0, NULL, "out of memory");
        errors++;
    } else if (!errors && x.len > CFG_FILE_MAX) {
        diag_error(d, f->path, 0, NULL, "the text with its @includes "
                   "passes %d bytes", CFG_FILE_MAX);
        errors++;
    }
    if (!errors && !x.out)
        x.out = strdup("");
    if (errors || !x.out) {
        if (!errors)
            diag_error(d, f->path, 0, NULL, "out of memory");
        free(x.out);
        return NULL;
    }
    *len = x.len;
    return x.out;
}
