/* core/config_read.c — experiment files read through schemas (see
 * config.h): groups, values and lists of an open file (config.c) checked
 * against their keys and stored; config_internal.h says what the files of
 * the schema engine share.
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
 */
#include "core/config.h"
#include "core/config_internal.h"
#include "core/time.h"

#include <assert.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Append printf-style text to buf (holding a string, capacity cap),
 * truncating silently. */
void cfg_cat(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

void cfg_dotted(char *buf, size_t cap, const char *prefix, const char *name)
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
        cfg_cat(buf, cap, "%s%s", first ? "" : ", ", names[i]);
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
void cfg_describe(char *buf, size_t cap, const struct cfg_key *k,
                  bool full, bool article)
{
    int64_t lo, hi;
    buf[0] = '\0';
    switch (k->type) {
    case CFG_INT:
    case CFG_UINT32:
    case CFG_UINT64:
    case CFG_CYCLES:
        cfg_cat(buf, cap, "%s", article ? "an integer" : "integer");
        if (full && int_range(k, &lo, &hi))
            cfg_cat(buf, cap, " in [%" PRId64 ", %" PRId64 "]", lo, hi);
        break;
    case CFG_FLOAT:
    case CFG_TIME:
        cfg_cat(buf, cap, "%s", article ? "a number" : "number");
        if (full && float_ranged(k))
            cfg_cat(buf, cap, " in [%g, %g]", k->fmin, k->fmax);
        break;
    case CFG_BOOL:
        cfg_cat(buf, cap, "true or false");
        break;
    case CFG_STRING:
        cfg_cat(buf, cap, "%s", article ? "a string" : "string");
        break;
    case CFG_CHOICE:
    case CFG_ENUM:
        cfg_cat(buf, cap, "one of (");
        join(buf, cap, k->choices, true);
        cfg_cat(buf, cap, ")");
        break;
    case CFG_NAME: {
        char names[LIST_CAP];
        registry_names(k->reg, names, sizeof names);
        cfg_cat(buf, cap, "%s%s name (%s)", article ? "a " : "",
                k->reg->kind, names);
        break;
    }
    case CFG_GROUP:
        cfg_cat(buf, cap, "%s",
                article ? "a group { ... }" : "group { ... }");
        break;
    case CFG_FLOATS:
        cfg_cat(buf, cap, "%s",
                article ? "a list of numbers" : "list of numbers");
        if (full && float_ranged(k))
            cfg_cat(buf, cap, " in [%g, %g]", k->fmin, k->fmax);
        break;
    case CFG_NAMES: {
        char names[LIST_CAP];
        registry_names(k->reg, names, sizeof names);
        cfg_cat(buf, cap, "%slist of %s names (%s)", article ? "a " : "",
                k->reg->kind, names);
        break;
    }
    case CFG_STRINGS:
        cfg_cat(buf, cap, "%s",
                article ? "a list of strings" : "list of strings");
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
    cfg_describe(want, sizeof want, k, false, true);
    diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
               "expected %s, got %s", want,
               got_name(config_setting_type(s)));
}

static bool is_int(const config_setting_t *s)
{
    int t = config_setting_type(s);
    return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static void read_list(struct cfg_file *f, config_setting_t *s,
                      const char *key, const struct cfg_key *k, char *dst,
                      struct diag *d);

/* An integer key (CFG_INT, CFG_UINT32, CFG_UINT64, CFG_CYCLES): an
 * integer in the key's range, stored in the key's type (a CFG_CYCLES
 * count converted to picoseconds). */
static void read_int(struct cfg_file *f, config_setting_t *s,
                     const char *key, const struct cfg_key *k, char *dst,
                     struct diag *d)
{
    if (!is_int(s)) {
        wrong_type(f, s, key, k, d);
        return;
    }
    if (cfg_is_bad_line(f, s))
        return; /* the literal itself was reported */
    int64_t v = config_setting_get_int64(s), lo, hi;
    if (int_range(k, &lo, &hi) && (v < lo || v > hi)) {
        diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
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
}

/* A number key (CFG_FLOAT, CFG_TIME): a float or an integer, finite and
 * in the key's range; a CFG_TIME one stored as picoseconds. */
static void read_number(struct cfg_file *f, config_setting_t *s,
                        const char *key, const struct cfg_key *k, char *dst,
                        struct diag *d)
{
    const char *file = cfg_file_of(f, s);
    int line = cfg_line(s);
    double v;
    if (config_setting_type(s) == CONFIG_TYPE_FLOAT) {
        v = config_setting_get_float(s);
    } else if (is_int(s)) {
        if (cfg_is_bad_line(f, s))
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
}

/* A string key (CFG_STRING, CFG_CHOICE, CFG_ENUM, CFG_NAME): a string; a
 * choice one of the key's choices (CFG_ENUM stores its index), a name
 * one registered in the key's registry (stored as its entry). */
static void read_string(struct cfg_file *f, config_setting_t *s,
                        const char *key, const struct cfg_key *k, char *dst,
                        struct diag *d)
{
    const char *file = cfg_file_of(f, s);
    int line = cfg_line(s);
    if (config_setting_type(s) != CONFIG_TYPE_STRING) {
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
}

/* Check one setting against its key and store it into out. */
static void read_value(struct cfg_file *f, config_setting_t *s,
                       const char *key, const struct cfg_key *k, void *out,
                       struct diag *d)
{
    char *dst = (char *)out + k->offset;

    switch (k->type) {
    case CFG_INT:
    case CFG_UINT32:
    case CFG_UINT64:
    case CFG_CYCLES:
        read_int(f, s, key, k, dst, d);
        return;
    case CFG_FLOAT:
    case CFG_TIME:
        read_number(f, s, key, k, dst, d);
        return;
    case CFG_BOOL:
        if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
            wrong_type(f, s, key, k, d);
            return;
        }
        *(bool *)dst = config_setting_get_bool(s) != 0;
        return;
    case CFG_STRING:
    case CFG_CHOICE:
    case CFG_ENUM:
    case CFG_NAME:
        read_string(f, s, key, k, dst, d);
        return;
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

/* The values of a list key while its elements are read. */
union list_vals {
    double v[CFG_LIST_MAX];
    const struct reg_entry *names[CFG_LIST_MAX];
    const char *strs[CFG_STRINGS_MAX];
};

/* A list key with `once`: each element of list s (n of them, values in
 * val) equal to an earlier one is an error at its own line, naming the
 * earlier one. Returns the number of errors. */
static int check_once(struct cfg_file *f, config_setting_t *s,
                      const char *key, const struct cfg_key *k,
                      const union list_vals *val, int n, struct diag *d)
{
    int errors = 0;
    for (int i = 1; i < n; i++) {
        int j = 0;
        if (k->type == CFG_FLOATS)
            while (j < i && val->v[j] != val->v[i])
                j++;
        else if (k->type == CFG_NAMES)
            while (j < i && val->names[j] != val->names[i])
                j++;
        else
            while (j < i && strcmp(val->strs[j], val->strs[i]) != 0)
                j++;
        if (j == i)
            continue;
        config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char ekey[KEY_CAP], shown[KEY_CAP];
        snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        if (k->type == CFG_FLOATS)
            snprintf(shown, sizeof shown, "%g", val->v[i]);
        else
            snprintf(shown, sizeof shown, "\"%s\"",
                     k->type == CFG_NAMES ? val->names[i]->name
                                          : val->strs[i]);
        diag_error(d, cfg_file_of(f, e), cfg_line(e), ekey,
                   "%s is %s[%d] too; expected each %s once", shown, key, j,
                   k->once);
        errors++;
    }
    return errors;
}

/* A list key (CFG_FLOATS, CFG_NAMES, CFG_STRINGS): a libconfig list
 * ( ... ) or array [ ... ] whose every element is read as the scalar key
 * would read it (so an element's message names it as key[i] and its own
 * line), or one scalar, a list of one. Stored only when every element
 * passes (and, with `once`, no value is given twice). */
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
        diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
                   "expected at least one value, got an empty %s",
                   type == CONFIG_TYPE_LIST ? "list" : "array");
        return;
    }
    if (n > max) {
        diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
                   "%d values are too many; expected at most %d", n, max);
        return;
    }
    struct cfg_key elem = *k;
    elem.type = floats ? CFG_FLOAT : strings ? CFG_STRING : CFG_NAME;
    elem.offset = 0;
    /* values are kept here until every element has passed */
    static_assert(CFG_STRINGS_MAX >= CFG_LIST_MAX, "list buffers");
    union list_vals val;
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
    if (multi && k->once && check_once(f, s, key, k, &val, n, d))
        return;
    if (floats) {
        struct cfg_floats *out = (struct cfg_floats *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.v, (size_t)n * sizeof val.v[0]);
        out->file = cfg_file_of(f, s);
        out->line = cfg_line(s);
    } else if (strings) {
        struct cfg_strings *out = (struct cfg_strings *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.strs, (size_t)n * sizeof val.strs[0]);
        memcpy(out->line, lines, (size_t)n * sizeof lines[0]);
        out->file = cfg_file_of(f, s);
    } else {
        struct cfg_names *out = (struct cfg_names *)dst;
        out->n = (uint32_t)n;
        memcpy(out->v, val.names, (size_t)n * sizeof val.names[0]);
        memcpy(out->line, lines, (size_t)n * sizeof lines[0]);
        out->file = cfg_file_of(f, s);
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
        diag_error(d, cfg_file_of(f, group), cfg_line(group),
                   prefix && *prefix ? prefix : NULL,
                   "expected a group { ... }, got %s",
                   got_name(config_setting_type(group)));
        return d->errors - before;
    }

    int n = group ? config_setting_length(group) : 0;
    for (int i = 0; i < n; i++) {
        config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
        const char *name = config_setting_name(s);
        cfg_dotted(key, sizeof key, prefix, name);
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
                    cfg_cat(list, sizeof list, "%s%s", first ? "" : ", ",
                            a->name);
                    first = false;
                }
            join(list, sizeof list, skip, first);
            diag_error(d, cfg_file_of(f, s), cfg_line(s), NULL,
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
            cfg_dotted(key, sizeof key, prefix, k->name);
            diag_error(d, group ? cfg_file_of(f, group) : f->path,
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
        diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
                   "expected a list of groups ( { ... }, { ... } ), got %s",
                   got_name(type));
        return -1;
    }
    int n = config_setting_length(s);
    if (n == 0) {
        diag_error(d, cfg_file_of(f, s), cfg_line(s), key,
                   "expected at least one group { ... }, got an empty list");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        bool group = config_setting_type(e) == CONFIG_TYPE_GROUP;
        if (!group && cap == 0) {
            char ekey[KEY_CAP];
            snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
            diag_error(d, cfg_file_of(f, e), cfg_line(e), ekey,
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
        diag_error(d, cfg_file_of(f, s), cfg_line(s), NULL,
                   "unknown section \"%s\"; accepted sections: %s", name,
                   list);
    }
    return d->errors - before;
}
