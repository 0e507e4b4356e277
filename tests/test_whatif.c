/* tests/test_whatif.c — the cross-generation what-ifs (examples/
 * whatif-*.cfg) are their same-generation twins with one key changed.
 *
 * Each what-if's header names its twin and the key:
 *     # twin: examples/<twin>.cfg
 *     # differs in: <key path>
 * Both files are parsed (libconfig) and compared setting by setting; a
 * difference outside the key (the experiment's name and description
 * aside) means the comparison docs/what-if.md reports is not the one the
 * header states, and fails here, naming the setting. A what-if that does
 * not differ from its twin at all fails too.
 */
#include "test.h"

#include <glob.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Settings of a and b that differ, by path, into out (one per line);
 * returns their number. A member present in one group only is one
 * difference (its path); so is a value or list that differs. */
static int compare(const config_setting_t *a, const config_setting_t *b,
                   const char *path, FILE *out)
{
    int ta = config_setting_type(a), tb = config_setting_type(b);
    if (ta != tb) {
        fprintf(out, "%s\n", path);
        return 1;
    }
    char sub[512];
    int n = 0;
    switch (ta) {
    case CONFIG_TYPE_GROUP:
        for (int i = 0; i < config_setting_length(a); i++) {
            const config_setting_t *x =
                config_setting_get_elem(a, (unsigned)i);
            const char *name = config_setting_name(x);
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", name);
            const config_setting_t *y = config_setting_get_member(b, name);
            if (!y) {
                fprintf(out, "%s\n", sub);
                n++;
            } else {
                n += compare(x, y, sub, out);
            }
        }
        for (int i = 0; i < config_setting_length(b); i++) {
            const config_setting_t *y =
                config_setting_get_elem(b, (unsigned)i);
            const char *name = config_setting_name(y);
            if (!config_setting_get_member(a, name)) {
                fprintf(out, "%s%s%s\n", path, *path ? "." : "", name);
                n++;
            }
        }
        return n;
    case CONFIG_TYPE_LIST:
    case CONFIG_TYPE_ARRAY:
        if (config_setting_length(a) != config_setting_length(b)) {
            fprintf(out, "%s\n", path);
            return 1;
        }
        for (int i = 0; i < config_setting_length(a); i++) {
            snprintf(sub, sizeof sub, "%s[%d]", path, i);
            n += compare(config_setting_get_elem(a, (unsigned)i),
                         config_setting_get_elem(b, (unsigned)i), sub, out);
        }
        return n;
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
    case CONFIG_TYPE_BOOL:
        n = config_setting_get_int64(a) != config_setting_get_int64(b);
        break;
    case CONFIG_TYPE_FLOAT:
        n = config_setting_get_float(a) != config_setting_get_float(b);
        break;
    case CONFIG_TYPE_STRING:
        n = strcmp(config_setting_get_string(a),
                   config_setting_get_string(b)) != 0;
        break;
    default:
        n = 1;
        break;
    }
    if (n)
        fprintf(out, "%s\n", path);
    return n;
}

/* The value after `# <tag>` in the header of path, into buf; 0 or -1. */
static int header_value(const char *path, const char *tag, char *buf,
                        size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    size_t tl = strlen(tag);
    int rc = -1;
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        const char *p = line + 1;
        while (*p == ' ')
            p++;
        if (strncmp(p, tag, tl) != 0)
            continue;
        p += tl;
        while (*p == ' ')
            p++;
        snprintf(buf, len, "%s", p);
        buf[strcspn(buf, " \n")] = '\0';
        rc = buf[0] ? 0 : -1;
        break;
    }
    fclose(f);
    return rc;
}

/* Whether `diff` (a setting's path) lies under `key`, or is one the
 * comparison leaves aside. */
static bool allowed(const char *diff, const char *key)
{
    if (strcmp(diff, "experiment.name") == 0 ||
        strcmp(diff, "experiment.description") == 0)
        return true;
    size_t k = strlen(key);
    return strncmp(diff, key, k) == 0 &&
           (diff[k] == '\0' || diff[k] == '.' || diff[k] == '[');
}

/* The differences of what-if file `path` outside its stated key, into
 * out; -1 if its header or a file cannot be read, else their number (and
 * a what-if equal to its twin counts one). */
static int whatif_check(const char *path, const char *root, FILE *out)
{
    char twin_rel[256], key[128], twin[1024];
    if (header_value(path, "twin:", twin_rel, sizeof twin_rel) != 0 ||
        header_value(path, "differs in:", key, sizeof key) != 0) {
        fprintf(out, "%s: expected \"# twin: examples/<file>.cfg\" and "
                     "\"# differs in: <key>\" in its header\n", path);
        return -1;
    }
    snprintf(twin, sizeof twin, "%s/%s", root, twin_rel);
    config_t a, b;
    config_init(&a);
    config_init(&b);
    /* an @include is read from the examples' folder, as dfsim reads it
     * (core/config_include.c) */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", twin);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    config_set_include_dir(&a, dir);
    config_set_include_dir(&b, dir);
    int rc = -1;
    if (config_read_file(&a, twin) != CONFIG_TRUE) {
        fprintf(out, "%s: its twin %s cannot be read\n", path, twin);
    } else if (config_read_file(&b, path) != CONFIG_TRUE) {
        fprintf(out, "%s: cannot be read\n", path);
    } else {
        char *text = NULL;
        size_t len = 0;
        FILE *diffs = open_memstream(&text, &len);
        int n = compare(config_root_setting(&a), config_root_setting(&b),
                        "", diffs);
        fclose(diffs);
        rc = 0;
        int under = 0;
        for (char *line = strtok(text, "\n"); line;
             line = strtok(NULL, "\n")) {
            if (!allowed(line, key)) {
                fprintf(out, "%s: %s differs from %s (only %s may)\n", path,
                        line, twin_rel, key);
                rc++;
            } else if (strncmp(line, "experiment.", 11) != 0) {
                under++;
            }
        }
        if (n >= 0 && under == 0) {
            fprintf(out, "%s: the same as %s in %s\n", path, twin_rel, key);
            rc++;
        }
        free(text);
    }
    config_destroy(&a);
    config_destroy(&b);
    return rc;
}

/* Every shipped what-if differs from its twin in its stated key only. */
static void test_whatif_one_key(void)
{
    char pat[1024];
    snprintf(pat, sizeof pat, "%s", src_path("examples/whatif-*.cfg"));
    glob_t g;
    CHECK_EQ_U(glob(pat, 0, NULL, &g), 0);
    CHECK(g.gl_pathc >= 4);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        int bad = whatif_check(g.gl_pathv[i], src_path("."), out);
        fclose(out);
        if (bad)
            fprintf(stderr, "%s", text);
        CHECK_EQ_U(bad, 0);
        free(text);
    }
    globfree(&g);
}

/* Plant what-if `name` (the header naming twin.cfg and the key network,
 * then body) under root, check it against its twin; the number of
 * differences outside the key, the report in *text (to free). */
static int plant(const char *root, const char *name, const char *body,
                 char **text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fprintf(f, "# twin: twin.cfg\n# differs in: network\n%s", body);
        fclose(f);
    }
    size_t len;
    FILE *out = open_memstream(text, &len);
    int n = whatif_check(p, root, out);
    fclose(out);
    return n;
}

/* The check finds a second difference, and a what-if equal to its twin;
 * it lets a difference under the key (a member of its group) pass. */
static void test_whatif_planted(void)
{
    char root[64], tw[256];
    snprintf(root, sizeof root, "/tmp/dfsim-test-%d-whatif", (int)getpid());
    mkdir(root, 0755);
    snprintf(tw, sizeof tw, "%s/twin.cfg", root);
    FILE *f = fopen(tw, "w");
    if (f) {
        fputs("experiment = { name = \"t\"; seed = 1; };\n"
              "system = { name = \"crystal\"; };\n"
              "impact = { shares = [0.1, 0.5]; runs = 1; };\n", f);
        fclose(f);
    }
    char *text;
    /* the key added, the name changed: passes */
    CHECK_EQ_U(plant(root, "ok.cfg",
                     "experiment = { name = \"w\"; seed = 1; };\n"
                     "network = { congestion_control = [\"slingshot\"]; };\n"
                     "system = { name = \"crystal\"; };\n"
                     "impact = { shares = [0.1, 0.5]; runs = 1; };\n",
                     &text),
               0);
    free(text);
    /* a share changed besides the key */
    CHECK_EQ_U(plant(root, "two.cfg",
                     "experiment = { name = \"w\"; seed = 1; };\n"
                     "network = { congestion_control = \"slingshot\"; };\n"
                     "system = { name = \"crystal\"; };\n"
                     "impact = { shares = [0.1, 0.9]; runs = 1; };\n",
                     &text),
               1);
    CHECK_STR_CONTAINS(text, "impact.shares[1] differs from twin.cfg "
                             "(only network may)");
    free(text);
    /* nothing changed but the name */
    CHECK_EQ_U(plant(root, "same.cfg",
                     "experiment = { name = \"w\"; seed = 1; };\n"
                     "system = { name = \"crystal\"; };\n"
                     "impact = { shares = [0.1, 0.5]; runs = 1; };\n",
                     &text),
               1);
    CHECK_STR_CONTAINS(text, "the same as twin.cfg in network");
    free(text);
    rm_dir(root);
}

const struct test_case tests_whatif[] = {
    TEST(test_whatif_one_key),
    TEST(test_whatif_planted),
    { 0 },
};
