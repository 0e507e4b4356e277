/* exp/fingerprint.c — an experiment file's settings, normalised (see
 * fingerprint.h). The parsed libconfig tree is walked depth first; every
 * scalar becomes one line, `key = value`, with integers in decimal, floats
 * with 17 significant digits (an integral float prints as an integer, so
 * `1` and `1.0` agree: dfsim reads both as the same number), strings quoted
 * with \" and \\ escaped, and empty groups and lists as `{ }` / `( )` so
 * that their presence counts. The lines are sorted by key: groups are
 * unordered, while a list element's index is part of its key. */
#include "exp/fingerprint.h"

#include <inttypes.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

struct lines {
    char **v;
    size_t n, cap;
    int oom;
};

static void add_line(struct lines *l, const char *key, const char *val)
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    size_t len = strlen(key) + strlen(val) + 4;
    char *s = malloc(len);
    if (!s) {
        l->oom = 1;
        return;
    }
    snprintf(s, len, "%s = %s", key, val);
    l->v[l->n++] = s;
}

/* A string value, quoted; NULL out of memory. */
static char *quote(const char *s)
{
    size_t len = 3;
    for (const char *p = s; *p; p++)
        len += (*p == '"' || *p == '\\' || *p == '\n') ? 2 : 1;
    char *q = malloc(len), *o = q;
    if (!q)
        return NULL;
    *o++ = '"';
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '\n')
            *o++ = '\\';
        *o++ = *p == '\n' ? 'n' : *p;
    }
    *o++ = '"';
    *o = '\0';
    return q;
}

static void walk(struct lines *l, const config_setting_t *s, const char *key,
                 int64_t seed)
{
    char val[64];
    int type = config_setting_type(s);
    switch (type) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        if (strcmp(key, "experiment.seed") == 0)
            return; /* the run's seed is added once, by fingerprint_text */
        snprintf(val, sizeof val, "%lld", config_setting_get_int64(s));
        add_line(l, key, val);
        return;
    case CONFIG_TYPE_FLOAT: {
        double x = config_setting_get_float(s);
        if (x == (double)(long long)x && x > -1e15 && x < 1e15)
            snprintf(val, sizeof val, "%lld", (long long)x);
        else
            snprintf(val, sizeof val, "%.17g", x);
        add_line(l, key, val);
        return;
    }
    case CONFIG_TYPE_BOOL:
        add_line(l, key, config_setting_get_bool(s) ? "true" : "false");
        return;
    case CONFIG_TYPE_STRING: {
        const char *str = config_setting_get_string(s);
        char *q = quote(str ? str : "");
        if (!q) {
            l->oom = 1;
            return;
        }
        add_line(l, key, q);
        free(q);
        return;
    }
    default:
        break;
    }
    int n = config_setting_length(s);
    bool group = type == CONFIG_TYPE_GROUP;
    if (n == 0) {
        add_line(l, key, group ? "{ }" : "( )");
        return;
    }
    for (int i = 0; i < n && !l->oom; i++) {
        const config_setting_t *c = config_setting_get_elem(s, (unsigned)i);
        size_t len = strlen(key) + 32 +
                     (group && c->name ? strlen(c->name) : 0);
        char *sub = malloc(len);
        if (!sub) {
            l->oom = 1;
            return;
        }
        if (group)
            snprintf(sub, len, "%s%s%s", key, *key ? "." : "",
                     c->name ? c->name : "?");
        else
            snprintf(sub, len, "%s[%d]", key, i);
        walk(l, c, sub, seed);
        free(sub);
    }
}

/* Length of the key of a line: up to " = ". */
static size_t key_len(const char *line)
{
    const char *eq = strstr(line, " = ");
    return eq ? (size_t)(eq - line) : strlen(line);
}

static int cmp_keys(const char *a, size_t la, const char *b, size_t lb)
{
    int c = memcmp(a, b, la < lb ? la : lb);
    if (c)
        return c;
    return la < lb ? -1 : la > lb;
}

static int cmp_lines(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    int c = cmp_keys(a, key_len(a), b, key_len(b));
    return c ? c : strcmp(a, b);
}

char *fingerprint_text(struct cfg_file *f, int64_t seed, bool quick,
                       bool windowed)
{
    struct lines l = { 0 };
    config_setting_t *root = cfg_root(f);
    if (root)
        walk(&l, root, "", seed);
    char val[32];
    snprintf(val, sizeof val, "%" PRId64, seed);
    add_line(&l, "experiment.seed", val);
    if (quick)
        add_line(&l, "dfsim.quick", "1");
    if (windowed)
        add_line(&l, "dfsim.windowed", "1");
    char *text = NULL;
    if (!l.oom) {
        qsort(l.v, l.n, sizeof *l.v, cmp_lines);
        static const char head[] =
            "# dfsim: the settings of the experiment this folder holds, "
            "normalised;\n# dfsim run --resume and a rerun into this folder "
            "compare them.\n";
        size_t len = sizeof head;
        for (size_t i = 0; i < l.n; i++)
            len += strlen(l.v[i]) + 1;
        text = malloc(len);
        if (text) {
            char *o = text;
            memcpy(o, head, sizeof head - 1);
            o += sizeof head - 1;
            for (size_t i = 0; i < l.n; i++) {
                size_t k = strlen(l.v[i]);
                memcpy(o, l.v[i], k);
                o += k;
                *o++ = '\n';
            }
            *o = '\0';
        }
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.v[i]);
    free(l.v);
    return text;
}

/* The next setting line of *p (comments and blank lines skipped): its
 * start and length, *p moved past it; NULL at the end. */
static const char *next_line(const char **p, size_t *len)
{
    while (**p) {
        const char *s = *p;
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        *p = nl ? nl + 1 : s + n;
        if (n && *s != '#') {
            *len = n;
            return s;
        }
    }
    return NULL;
}

static void print_side(FILE *out, const char *line, size_t len)
{
    if (!line) {
        fputs("absent", out);
        return;
    }
    size_t k = key_len(line);
    if (k + 3 <= len)
        fprintf(out, "%.*s", (int)(len - k - 3), line + k + 3);
    else
        fputs("?", out);
}

static void report(FILE *out, int *n, int max_lines, const char *key,
                   size_t klen, const char *now, size_t now_len,
                   const char *old, size_t old_len, const char *now_name)
{
    if (out && *n < max_lines) {
        fprintf(out, "  %.*s: ", (int)klen, key);
        print_side(out, now, now_len);
        fprintf(out, " in %s, ", now_name);
        print_side(out, old, old_len);
        fputs(" when the folder was started\n", out);
    }
    (*n)++;
}

int fingerprint_diff(const char *stored, const char *now,
                     const char *now_name, FILE *out, int max_lines)
{
    const char *ps = stored, *pn = now;
    size_t ls = 0, ln = 0;
    const char *s = next_line(&ps, &ls), *c = next_line(&pn, &ln);
    int n = 0;
    while (s || c) {
        size_t ks = s ? key_len(s) : 0, kn = c ? key_len(c) : 0;
        if (ks > ls)
            ks = ls;
        if (kn > ln)
            kn = ln;
        int order = !s ? 1 : !c ? -1 : cmp_keys(s, ks, c, kn);
        if (order < 0) { /* only in the folder's */
            report(out, &n, max_lines, s, ks, NULL, 0, s, ls, now_name);
            s = next_line(&ps, &ls);
        } else if (order > 0) { /* only in this run's */
            report(out, &n, max_lines, c, kn, c, ln, NULL, 0, now_name);
            c = next_line(&pn, &ln);
        } else {
            if (ls != ln || memcmp(s, c, ls) != 0)
                report(out, &n, max_lines, c, kn, c, ln, s, ls, now_name);
            s = next_line(&ps, &ls);
            c = next_line(&pn, &ln);
        }
    }
    if (out && n > max_lines)
        fprintf(out, "  ... and %d more\n", n - max_lines);
    return n;
}

char *fingerprint_file(const char *path, int64_t seed, bool quick)
{
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        return NULL;
    struct diag d; /* quiet: the run reports what is wrong with the file */
    diag_init(&d);
    d.out = null;
    struct cfg_file *f = cfg_open(path, &d);
    char *text = NULL;
    if (f) {
        int windowed = 0;
        config_setting_t *ex = cfg_section(f, "experiment");
        if (ex)
            config_setting_lookup_bool(ex, "windowed", &windowed);
        text = fingerprint_text(f, seed, quick, windowed != 0);
        cfg_close(f);
    }
    fclose(null);
    return text;
}
