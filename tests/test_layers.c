/* tests/test_layers.c — the include graph keeps DESIGN.md §7's layer order.
 *
 * The folders of src/ are layers: core < topo < net < route < mpi <
 * app, ctl < exp < results < cli (par/ and tools/, which link the real
 * MPI, sit above everything they use; src/main.c is the top). A file may
 * include headers of its own folder and of the folders below it; an
 * include from a lower layer to a higher one, or between two folders of
 * the same rank (app and ctl know nothing of each other), is a defect:
 * it makes the lower part impossible to understand, test or reuse
 * without the higher one. This test reads every #include "..." of the
 * tree (DFSIM_SRC) and fails on each such arrow, naming file and line;
 * a folder of src/ that is not in the table below fails too, so that a
 * new part is given its place on purpose.
 */
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The layer order (DESIGN.md §7), lowest first; equal ranks are
 * siblings. "" is src/ itself (main.c). */
static const struct layer {
    const char *dir;
    int rank;
} layers[] = {
    { "core", 0 }, { "topo", 1 }, { "net", 2 }, { "route", 3 },
    { "mpi", 4 },  { "app", 5 },  { "ctl", 5 }, { "exp", 6 },
    { "results", 7 }, { "cli", 8 }, { "par", 9 }, { "tools", 9 },
    { "", 10 },
};

static int layer_rank(const char *dir)
{
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        if (strcmp(layers[i].dir, dir) == 0)
            return layers[i].rank;
    return -1;
}

/* The folder of an include's path ("net/net.h" -> "net"; "x.h" -> the
 * including file's own folder), into buf. */
static void include_dir(const char *inc, const char *own, char *buf,
                        size_t cap)
{
    const char *slash = strchr(inc, '/');
    if (!slash) {
        snprintf(buf, cap, "%s", own);
        return;
    }
    size_t k = (size_t)(slash - inc);
    if (k >= cap)
        k = cap - 1;
    memcpy(buf, inc, k);
    buf[k] = '\0';
}

/* Check one file of folder `dir` (rank `rank`); each back-arrow is
 * appended to *out as "path:line: dir -> other (\"inc\")". Returns the
 * number found. */
static int check_file(const char *path, const char *dir, int rank,
                      FILE *out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(out, "%s: cannot be read\n", path);
        return 1;
    }
    char line[1024], inc[256], to[64];
    int bad = 0, ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != '#')
            continue;
        s++;
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, "include", 7) != 0)
            continue;
        s += 7;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != '"')
            continue; /* <system.h> */
        const char *e = strchr(s + 1, '"');
        if (!e || (size_t)(e - s - 1) >= sizeof inc)
            continue;
        memcpy(inc, s + 1, (size_t)(e - s - 1));
        inc[e - s - 1] = '\0';
        include_dir(inc, dir, to, sizeof to);
        if (strcmp(to, dir) == 0)
            continue;
        int r = layer_rank(to);
        if (r < 0) {
            fprintf(out, "%s:%d: includes \"%s\" from folder \"%s\", which "
                    "has no layer\n", path, ln, inc, to);
            bad++;
        } else if (r >= rank) {
            fprintf(out, "%s:%d: %s -> %s (\"%s\"): %s\n", path, ln,
                    *dir ? dir : "src", to, inc,
                    r == rank ? "between sibling layers"
                              : "from a lower layer to a higher one");
            bad++;
        }
    }
    fclose(f);
    return bad;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a > b && strcmp(s + a - b, tail) == 0;
}

/* .c, .h, and the .def registries (which are included, and read alike). */
static bool is_source(const char *name)
{
    return ends_with(name, ".c") || ends_with(name, ".h") ||
           ends_with(name, ".def");
}

/* Call visit(path, dir, ctx) on every source file of root/src (dir: its
 * folder under src/, "" for src/ itself), folder by folder; a folder for
 * which folder_ok(dir, path, ctx) returns false is not entered (NULL: all
 * are). Returns the sum of visit's returns, or 1 if root/src cannot be
 * read (said into out). */
static int walk_sources(const char *root, FILE *out,
                        bool (*folder_ok)(const char *dir, const char *path,
                                          void *ctx),
                        int (*visit)(const char *path, const char *dir,
                                     void *ctx),
                        void *ctx)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/src", root);
    DIR *top = opendir(path);
    if (!top) {
        fprintf(out, "%s: cannot be read\n", path);
        return 1;
    }
    int n = 0;
    struct dirent *de;
    while ((de = readdir(top))) {
        if (de->d_name[0] == '.')
            continue;
        char sub[1300];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        if (stat(sub, &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            if (is_source(de->d_name))
                n += visit(sub, "", ctx);
            continue;
        }
        if (folder_ok && !folder_ok(de->d_name, sub, ctx))
            continue;
        DIR *d = opendir(sub);
        if (!d)
            continue;
        struct dirent *fe;
        while ((fe = readdir(d))) {
            if (!is_source(fe->d_name))
                continue;
            char fp[1600];
            snprintf(fp, sizeof fp, "%s/%s", sub, fe->d_name);
            n += visit(fp, de->d_name, ctx);
        }
        closedir(d);
    }
    closedir(top);
    return n;
}

struct layer_walk {
    FILE *out;
    int unknown; /* folders without a layer */
};

/* layers_check's folder: one with a layer, else reported. */
static bool layer_known(const char *dir, const char *path, void *ctx)
{
    struct layer_walk *w = ctx;
    if (layer_rank(dir) >= 0)
        return true;
    fprintf(w->out, "%s: folder \"%s\" has no layer (tests/test_layers.c: "
            "give it its place in DESIGN.md §7's order)\n", path, dir);
    w->unknown++;
    return false;
}

static int layer_visit(const char *path, const char *dir, void *ctx)
{
    struct layer_walk *w = ctx;
    return check_file(path, dir, layer_rank(dir), w->out);
}

/* Check every source file of root/src; arrows and unknown folders are
 * reported into out. Returns their number (or 1 + that if root/src
 * cannot be read). */
static int layers_check(const char *root, FILE *out)
{
    struct layer_walk w = { out, 0 };
    int bad = walk_sources(root, out, layer_known, layer_visit, &w);
    return bad + w.unknown;
}

/* The tree itself: no include runs up or sideways. */
static void test_layers_tree(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int bad = layers_check(src_path("."), out);
    fclose(out);
    if (bad)
        fprintf(stderr, "%s", text);
    CHECK_EQ_U(bad, 0);
    free(text);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The checker finds what it must: a planted back-arrow (topo including
 * exp), an arrow between siblings (ctl including app), and a folder
 * with no layer; and lets downward and same-folder includes pass. */
static void test_layers_planted(void)
{
    char root[64], p[256];
    snprintf(root, sizeof root, "/tmp/dfsim-test-%d-layers", (int)getpid());
    const char *dirs[] = { "", "/src", "/src/topo", "/src/ctl",
                           "/src/exp", "/src/newpart" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s%s", root, dirs[i]);
        mkdir(p, 0755);
    }
    snprintf(p, sizeof p, "%s/src/topo/t.c", root);
    write_file(p, "#include \"topo/t.h\"\n#include \"core/arena.h\"\n"
                  "#include <stdio.h>\n  #  include \"exp/x.h\"\n");
    snprintf(p, sizeof p, "%s/src/ctl/c.h", root);
    write_file(p, "#include \"app/workload.h\"\n#include \"mpi/mpi.h\"\n");
    snprintf(p, sizeof p, "%s/src/exp/e.c", root);
    write_file(p, "#include \"ctl/ctl.h\"\n#include \"local.h\"\n");

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int bad = layers_check(root, out);
    fclose(out);
    CHECK_EQ_U(bad, 3);
    CHECK_STR_CONTAINS(text, "src/topo/t.c:4: topo -> exp (\"exp/x.h\"): "
                             "from a lower layer to a higher one");
    CHECK_STR_CONTAINS(text, "src/ctl/c.h:1: ctl -> app (\"app/workload.h\")"
                             ": between sibling layers");
    CHECK_STR_CONTAINS(text, "folder \"newpart\" has no layer");
    CHECK(strstr(text, "e.c") == NULL);
    free(text);
    rm_dir(root);
}

/* What differs between the topology families is read from the family's
 * descriptor (struct topo_family) everywhere above topo/: no file outside
 * src/topo/ names a family's number. */
static bool not_topo(const char *dir, const char *path, void *ctx)
{
    (void)path;
    (void)ctx;
    return strcmp(dir, "topo") != 0;
}

/* The lines of file path naming a family's number, reported to stderr. */
static int names_family(const char *path, const char *dir, void *ctx)
{
    static const char *const ids[] = { "TOPO_ARIES", "TOPO_SLINGSHOT",
                                       "TOPO_DRAGONFLY", "TOPO_TORUS",
                                       "family->id", NULL };
    (void)dir;
    (void)ctx;
    char line[1024];
    int found = 0;
    FILE *f = fopen(path, "r");
    for (int ln = 1; f && fgets(line, sizeof line, f); ln++)
        for (size_t i = 0; ids[i]; i++)
            if (strstr(line, ids[i])) {
                fprintf(stderr, "  %s:%d: names %s\n", path, ln, ids[i]);
                found++;
            }
    if (f)
        fclose(f);
    return found;
}

static void test_families_are_descriptors(void)
{
    CHECK_EQ_U(walk_sources(src_path("."), stderr, not_topo, names_family,
                            NULL),
               0);
}

/* ---- sizes ------------------------------------------------------------ */

/* A part stays readable in one sitting: no function body (from its
 * opening brace at column 0 to its closing one) over FUNC_MAX lines, no
 * source file over FILE_MAX lines. What is longer is split along the
 * steps it takes; an exception is named here, with its reason. */
enum { FUNC_MAX = 120, FILE_MAX = 1000 };

static const char *const size_exceptions[] = {
    NULL,
};

static bool size_excepted(const char *what)
{
    for (size_t i = 0; size_exceptions[i]; i++)
        if (strstr(what, size_exceptions[i]))
            return true;
    return false;
}

/* The file's long bodies and its length, reported into out; returns
 * their number. */
static int sizes_check_file(const char *path, FILE *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096], name[256] = "", prev[4096] = "";
    int bad = 0, ln = 0, open_at = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '{' && !open_at) {
            open_at = ln;
            /* the function's name: the word before the first '(' of the
             * signature's first line (or of the line above the brace) */
            const char *paren = strchr(prev, '(');
            size_t n = 0;
            if (paren) {
                const char *b = paren;
                while (b > prev && (b[-1] == '_' || (b[-1] >= 'a' &&
                       b[-1] <= 'z') || (b[-1] >= 'A' && b[-1] <= 'Z') ||
                       (b[-1] >= '0' && b[-1] <= '9')))
                    b--;
                n = (size_t)(paren - b);
                if (n >= sizeof name)
                    n = sizeof name - 1;
                memcpy(name, b, n);
            }
            name[n] = '\0';
        } else if (line[0] == '}' && open_at) {
            int len = ln - open_at + 1;
            char what[1400];
            snprintf(what, sizeof what, "%s:%s", path, name);
            if (len > FUNC_MAX && !size_excepted(what)) {
                fprintf(out, "%s:%d: %s: a body of %d lines (at most %d)\n",
                        path, open_at, name, len, FUNC_MAX);
                bad++;
            }
            open_at = 0;
        }
        /* the signature's first line: one that starts at column 0 with a
         * name and holds a '(' */
        if (!open_at && line[0] != ' ' && line[0] != '{' &&
            line[0] != '}' && line[0] != '#' && line[0] != '/' &&
            strchr(line, '('))
            snprintf(prev, sizeof prev, "%s", line);
    }
    fclose(f);
    if (ln > FILE_MAX && !size_excepted(path)) {
        fprintf(out, "%s: %d lines (at most %d)\n", path, ln, FILE_MAX);
        bad++;
    }
    return bad;
}

static int sizes_visit(const char *path, const char *dir, void *out)
{
    (void)dir;
    return sizes_check_file(path, out);
}

static int sizes_check(const char *root, FILE *out)
{
    return walk_sources(root, out, NULL, sizes_visit, out);
}

static void test_sizes_tree(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int bad = sizes_check(src_path("."), out);
    fclose(out);
    if (bad)
        fprintf(stderr, "%s", text);
    CHECK_EQ_U(bad, 0);
    free(text);
}

/* The checker finds a planted long function (named) and a long file, and
 * lets a function of FUNC_MAX lines pass. */
static void test_sizes_planted(void)
{
    char root[64], p[256];
    snprintf(root, sizeof root, "/tmp/dfsim-test-%d-sizes", (int)getpid());
    const char *dirs[] = { "", "/src", "/src/net" };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s%s", root, dirs[i]);
        mkdir(p, 0755);
    }
    snprintf(p, sizeof p, "%s/src/net/long.c", root);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("static int fits(int a,\n                int b)\n{\n", f);
    for (int i = 0; i < FUNC_MAX - 3; i++)
        fputs("    a += b;\n", f);
    fputs("    return a;\n}\n\nint too_long(void)\n{\n", f);
    for (int i = 0; i < FUNC_MAX; i++)
        fputs("    x++;\n", f);
    fputs("}\n", f);
    for (int i = 0; i < FILE_MAX; i++)
        fputs("/* */\n", f);
    fclose(f);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    int bad = sizes_check(root, out);
    fclose(out);
    CHECK_EQ_U(bad, 2);
    CHECK_STR_CONTAINS(text, "long.c:125: too_long: a body of 122 lines");
    CHECK_STR_CONTAINS(text, "long.c: 1246 lines (at most 1000)");
    CHECK(strstr(text, "fits") == NULL);
    free(text);
    rm_dir(root);
}

const struct test_case tests_layers[] = {
    TEST(test_layers_tree),
    TEST(test_layers_planted),
    TEST(test_families_are_descriptors),
    TEST(test_sizes_tree),
    TEST(test_sizes_planted),
    { 0 },
};
