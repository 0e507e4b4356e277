/* exp/journal.c — the units a study has finished, appended as they are
 * committed and read back by --resume (exp/journal.h says the format). */
#include "exp/journal.h"

#include <stdlib.h>
#include <string.h>

#include "exp/manifest.h"

static const char magic[8] = { 'd', 'f', 's', 'i', 'm', 'U', '1', '\n' };
static const char head_magic[8] = { 'd', 'f', 's', 'i', 'm', 'J', '2', '\n' };

int journal_start(struct journal *j, const char *dir, const char *name,
                  uint64_t layout, FILE *err)
{
    memset(j, 0, sizeof *j);
    j->dir = dir;
    j->name = name;
    if (manifest_mark(dir, &name, 1, MANIFEST_WRITING, err) != 0)
        return -1;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    j->f = fopen(path, "wb");
    if (!j->f || fwrite(head_magic, sizeof head_magic, 1, j->f) != 1 ||
        fwrite(&layout, sizeof layout, 1, j->f) != 1 || fflush(j->f) != 0) {
        fprintf(err, "dfsim: cannot write %s\n", path);
        if (j->f)
            fclose(j->f);
        j->f = NULL;
        return -1;
    }
    return 0;
}

int journal_add(struct journal *j, uint32_t u, const struct par_unit *in,
                FILE *err)
{
    if (!j->f)
        return 0;
    uint32_t head[2] = { u, in->n };
    uint64_t h = manifest_hash(MANIFEST_HASH_START, head, sizeof head);
    int ok = fwrite(magic, sizeof magic, 1, j->f) == 1 &&
             fwrite(head, sizeof head, 1, j->f) == 1;
    for (uint32_t i = 0; i < in->n && ok; i++) {
        uint64_t len = in->len[i];
        h = manifest_hash(h, &len, sizeof len);
        ok = fwrite(&len, sizeof len, 1, j->f) == 1;
    }
    for (uint32_t i = 0; i < in->n && ok; i++) {
        h = manifest_hash(h, in->part[i], in->len[i]);
        ok = in->len[i] == 0 ||
             fwrite(in->part[i], in->len[i], 1, j->f) == 1;
    }
    ok = ok && fwrite(&h, sizeof h, 1, j->f) == 1 && fflush(j->f) == 0;
    if (!ok) {
        fprintf(err, "dfsim: cannot write %s/%s\n", j->dir, j->name);
        return -1;
    }
    return manifest_mark(j->dir, &j->name, 1, MANIFEST_GROWN, err);
}

int journal_end(struct journal *j, int done, FILE *err)
{
    if (!j->f)
        return 0;
    int rc = fclose(j->f) == 0 ? 0 : -1;
    j->f = NULL;
    if (rc == 0 && done)
        rc = manifest_mark(j->dir, &j->name, 1, MANIFEST_DONE, err);
    return rc;
}

/* One record into *u (its parts malloc'd) if the next bytes of f are
 * unit `want`'s, whole and checking: 1; else 0 (u empty); -1 out of
 * memory. */
static int read_record(FILE *f, uint32_t want, struct par_unit *u)
{
    memset(u, 0, sizeof *u);
    char m[sizeof magic];
    uint32_t head[2];
    if (fread(m, sizeof m, 1, f) != 1 || memcmp(m, magic, sizeof m) != 0 ||
        fread(head, sizeof head, 1, f) != 1 || head[0] != want ||
        head[1] > PAR_PARTS)
        return 0;
    uint64_t h = manifest_hash(MANIFEST_HASH_START, head, sizeof head);
    uint64_t len[PAR_PARTS];
    for (uint32_t i = 0; i < head[1]; i++) {
        if (fread(&len[i], sizeof len[i], 1, f) != 1 || len[i] > (1ULL << 40))
            return 0;
        h = manifest_hash(h, &len[i], sizeof len[i]);
    }
    for (uint32_t i = 0; i < head[1]; i++) {
        u->part[i] = malloc(len[i] ? len[i] : 1);
        if (!u->part[i]) {
            u->n = i;
            par_unit_free(u);
            return -1;
        }
        u->len[i] = len[i];
        u->n = i + 1;
        if (len[i] && fread(u->part[i], len[i], 1, f) != 1) {
            par_unit_free(u);
            return 0;
        }
        h = manifest_hash(h, u->part[i], len[i]);
    }
    uint64_t sum;
    if (fread(&sum, sizeof sum, 1, f) != 1 || sum != h) {
        par_unit_free(u);
        return 0;
    }
    u->n = head[1];
    return 1;
}

/* Whether f's header is `layout`'s: 1; 0 a file cut short within it
 * (no units); JOURNAL_FOREIGN, why[] said. */
static int read_header(FILE *f, uint64_t layout, char why[160])
{
    char m[sizeof head_magic];
    uint64_t l;
    size_t got = fread(m, 1, sizeof m, f);
    if (got >= sizeof magic && memcmp(m, magic, sizeof magic) == 0) {
        snprintf(why, 160, "its records start without a layout header: "
                           "written by an older dfsim");
        return JOURNAL_FOREIGN;
    }
    if (memcmp(m, head_magic, got) != 0) {
        snprintf(why, 160, "not a dfsim journal (it does not start with "
                           "\"dfsimJ2\")");
        return JOURNAL_FOREIGN;
    }
    if (got < sizeof m || fread(&l, sizeof l, 1, f) != 1)
        return 0;
    if (l != layout) {
        snprintf(why, 160, "its simulations' results are laid out as "
                           "%016llx, this study's as %016llx: another "
                           "dfsim, or other options",
                 (unsigned long long)l, (unsigned long long)layout);
        return JOURNAL_FOREIGN;
    }
    return 1;
}

int64_t journal_read(const char *dir, const char *name, uint64_t layout,
                     uint32_t max, struct par_unit **out, char why[160])
{
    *out = NULL;
    why[0] = '\0';
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int hr = read_header(f, layout, why);
    if (hr != 1) {
        fclose(f);
        return hr;
    }
    struct par_unit *v = calloc(max ? max : 1, sizeof *v);
    if (!v) {
        fclose(f);
        return -1;
    }
    uint32_t n = 0;
    int r = 1;
    while (n < max && (r = read_record(f, n, &v[n])) == 1)
        n++;
    fclose(f);
    if (r < 0) {
        for (uint32_t i = 0; i < n; i++)
            par_unit_free(&v[i]);
        free(v);
        return -1;
    }
    *out = v;
    return n;
}

void journal_units_free(struct par_unit **v, int64_t n)
{
    for (int64_t u = 0; *v && u < n; u++)
        par_unit_free(&(*v)[u]);
    free(*v);
    *v = NULL;
}
