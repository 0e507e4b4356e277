/* exp/manifest.c — experiment.files (see manifest.h): read, marked, sealed,
 * checked against the files, written whole. */
#include "exp/manifest.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hash.h"
#include "exp/outdir.h"

uint64_t manifest_hash(uint64_t h, const void *p, size_t n)
{
    return fnv1a(h, p, n);
}

bool manifest_name_ok(const char *name)
{
    return name && *name && !strchr(name, '/') && !strchr(name, '\n') &&
           strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

void manifest_free(struct manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].name);
    free(m->v);
    memset(m, 0, sizeof *m);
}

struct manifest_entry *manifest_find(const struct manifest *m,
                                     const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->v[i].name, name) == 0)
            return &m->v[i];
    return NULL;
}

/* e (its name now m's) at the end of m. 0, or -1 out of memory (e's
 * name freed). */
static int append(struct manifest *m, struct manifest_entry e)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 32;
        struct manifest_entry *v = realloc(m->v, cap * sizeof *v);
        if (!v) {
            free(e.name);
            return -1;
        }
        m->v = v;
        m->cap = cap;
    }
    m->v[m->n++] = e;
    return 0;
}

/* The entry of name, added (open, nothing vouched for) if new; NULL when
 * out of memory. */
static struct manifest_entry *entry_of(struct manifest *m, const char *name)
{
    struct manifest_entry *e = manifest_find(m, name);
    if (e)
        return e;
    struct manifest_entry n = { .name = strdup(name),
                                .hash = MANIFEST_HASH_START };
    if (!n.name || append(m, n) != 0)
        return NULL;
    return &m->v[m->n - 1];
}

/* One line "STATE SIZE HASH NAME" into e (name malloc'd). 0 or -1. */
static int parse_line(char *line, struct manifest_entry *e)
{
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n')
        line[--len] = '\0';
    char state[8], *end;
    int at = 0;
    if (sscanf(line, "%7s %n", state, &at) != 1 || at == 0)
        return -1;
    bool done = strcmp(state, "done") == 0;
    if (!done && strcmp(state, "open") != 0)
        return -1;
    const char *p = line + at;
    if (*p < '0' || *p > '9')
        return -1;
    errno = 0;
    unsigned long long size = strtoull(p, &end, 10);
    if (errno || *end != ' ')
        return -1;
    p = end + 1;
    for (int i = 0; i < 16; i++)
        if (!p[i] || !strchr("0123456789abcdef", p[i]))
            return -1;
    unsigned long long hash = strtoull(p, &end, 16);
    if (end != p + 16 || *end != ' ' || !manifest_name_ok(end + 1))
        return -1;
    *e = (struct manifest_entry){ .name = strdup(end + 1), .size = size,
                                  .hash = hash, .done = done };
    return e->name ? 0 : -1;
}

int manifest_read(struct manifest *m, const char *dir, FILE *err)
{
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_FILE);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        fprintf(err, "dfsim run: cannot read %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        no++;
        if (line[0] == '#')
            continue;
        struct manifest_entry e;
        if (parse_line(line, &e) != 0) {
            fprintf(err, "dfsim run: %s:%ld: expected \"done|open SIZE "
                         "HASH NAME\" (HASH 16 hex digits, NAME a file of "
                         "the folder), got \"%.80s\"\n",
                    path, no, line);
            rc = -1;
        } else if (manifest_find(m, e.name)) {
            fprintf(err, "dfsim run: %s:%ld: %s is listed twice\n", path, no,
                    e.name);
            free(e.name);
            rc = -1;
        } else if (append(m, e) != 0) {
            fprintf(err, "dfsim run: out of memory\n");
            rc = -1;
        }
    }
    free(line);
    if (rc == 0 && ferror(f)) {
        fprintf(err, "dfsim run: cannot read %s: %s\n", path,
                strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc != 0)
        manifest_free(m);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    const struct manifest_entry *x = a, *y = b;
    return strcmp(x->name, y->name);
}

int manifest_write(struct manifest *m, const char *dir, FILE *err)
{
    /* sorted in place: the order of m is nobody's */
    if (m->n) /* an empty list has no array */
        qsort(m->v, m->n, sizeof *m->v, by_name);
    struct outfile o;
    if (outfile_open(&o, dir, MANIFEST_FILE, err) != 0)
        return -1;
    fputs("# experiment.files: every file dfsim wrote in this folder for "
          "its experiment (experiment.settings), but these two\n"
          "# STATE SIZE HASH NAME: done, the file is SIZE bytes; open, "
          "being written, its first SIZE bytes; HASH their 64-bit FNV-1a\n",
          o.f);
    for (size_t i = 0; i < m->n; i++) {
        const struct manifest_entry *e = &m->v[i];
        fprintf(o.f, "%s %" PRIu64 " %016" PRIx64 " %s\n",
                e->done ? "done" : "open", e->size, e->hash, e->name);
    }
    return outfile_commit(&o, err);
}

/* Hash dir/name's bytes from `from` (whose hash so far is *hash) to its
 * end, or to `upto` bytes if it is longer: *hash continued, *size the
 * bytes hashed in all (from + those read). 0, or -1 (errno set). */
static int hash_file(const char *dir, const char *name, uint64_t from,
                     uint64_t upto, uint64_t *size, uint64_t *hash)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    if (from && fseeko(f, (off_t)from, SEEK_SET) != 0) {
        fclose(f);
        return -1;
    }
    unsigned char buf[1 << 14];
    uint64_t at = from, h = *hash;
    size_t r;
    while (at < upto) {
        size_t want = upto - at < sizeof buf ? (size_t)(upto - at)
                                             : sizeof buf;
        if ((r = fread(buf, 1, want, f)) == 0)
            break;
        h = manifest_hash(h, buf, r);
        at += r;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        errno = EIO;
        return -1;
    }
    *size = at;
    *hash = h;
    return 0;
}

/* Entry e's file as it is now: its size and hash from e's open prefix
 * on (a done entry, or a file shorter than the prefix: from the start),
 * done or still open. 0 or -1 (reported). */
static int take(struct manifest_entry *e, const char *dir, bool done,
                FILE *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, e->name);
    struct stat st;
    uint64_t from = 0, hash = MANIFEST_HASH_START, size;
    if (stat(path, &st) != 0)
        goto fail;
    if (!e->done && (uint64_t)st.st_size >= e->size) {
        from = e->size;
        hash = e->hash;
    }
    if (hash_file(dir, e->name, from, UINT64_MAX, &size, &hash) != 0)
        goto fail;
    e->size = size;
    e->hash = hash;
    e->done = done;
    return 0;
fail:
    fprintf(err, "dfsim run: cannot read %s to list it in %s: %s\n", path,
            MANIFEST_FILE, strerror(errno));
    return -1;
}

int manifest_mark(const char *dir, const char *const *names, size_t n,
                  enum manifest_how how, FILE *err)
{
    struct manifest m;
    if (manifest_read(&m, dir, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct manifest_entry *e = entry_of(&m, names[i]);
        if (!e) {
            fprintf(err, "dfsim run: out of memory\n");
            rc = -1;
        } else if (how == MANIFEST_WRITING) {
            e->done = false;
            e->size = 0;
            e->hash = MANIFEST_HASH_START;
        } else {
            rc = take(e, dir, how == MANIFEST_DONE, err);
        }
    }
    if (rc == 0)
        rc = manifest_write(&m, dir, err);
    manifest_free(&m);
    return rc;
}

/* Whether dir/name, or dir/name.tmp if tmp, exists. */
static bool present(const char *dir, const char *name, bool tmp)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, tmp ? ".tmp" : "");
    return access(path, F_OK) == 0;
}

int manifest_seal(const char *dir, FILE *err)
{
    struct manifest m;
    int rc = manifest_read(&m, dir, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0; /* none: nothing to seal */
    size_t k = 0;
    for (size_t i = 0; i < m.n; i++) {
        struct manifest_entry e = m.v[i];
        if (!e.done && present(dir, e.name, false)) {
            if (rc == 0)
                rc = take(&e, dir, true, err);
        } else if (!e.done && !present(dir, e.name, true)) {
            free(e.name); /* listed, never written */
            continue;
        }
        m.v[k++] = e;
    }
    m.n = k;
    if (rc == 0)
        rc = manifest_write(&m, dir, err);
    manifest_free(&m);
    return rc;
}

int manifest_check(const struct manifest *m, const char *dir, FILE *err)
{
    for (size_t i = 0; i < m->n; i++) {
        const struct manifest_entry *e = &m->v[i];
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->name);
        struct stat st;
        if (stat(path, &st) != 0) {
            if (!e->done && e->size == 0)
                continue; /* listed, nothing written yet */
            fprintf(err, "dfsim run: %s: changed since dfsim wrote it: "
                         "missing (%s)\n",
                    path, strerror(errno));
            return -1;
        }
        uint64_t have = (uint64_t)st.st_size;
        if (e->done ? have != e->size : have < e->size) {
            fprintf(err, "dfsim run: %s: changed since dfsim wrote it: size "
                         "%" PRIu64 ", manifest says %s%" PRIu64 "\n",
                    path, have, e->done ? "" : "at least ", e->size);
            return -1;
        }
        uint64_t size, hash = MANIFEST_HASH_START;
        if (hash_file(dir, e->name, 0, e->size, &size, &hash) != 0) {
            fprintf(err, "dfsim run: cannot read %s: %s\n", path,
                    strerror(errno));
            return -1;
        }
        if (size != e->size || hash != e->hash) {
            fprintf(err, "dfsim run: %s: changed since dfsim wrote it: its "
                         "bytes differ (FNV-1a hash %016" PRIx64 ", manifest "
                         "says %016" PRIx64 ")\n",
                    path, hash, e->hash);
            return -1;
        }
    }
    return 0;
}
