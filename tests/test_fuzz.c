/* tests/test_fuzz.c — fuzzing the experiment-file reader and the resume
 * path on a fixed corpus (issue 18): every example file (examples/ *.cfg),
 * and the results folders of two small experiments, mutated from a seeded
 * stream — bytes changed, lines deleted, duplicated, swapped or cut short,
 * numbers replaced by extreme ones, strings emptied or lengthened. Each
 * mutant must be accepted or refused with an error that names the file;
 * nothing may crash (each test runs in a child process of its own; a
 * crash fails it with its signal, and the sanitised build adds ASan's and
 * UBSan's checks). Each accepted file is also built as far as the run
 * would before anything runs (topology, network parameters, run 0 set up
 * unrun) under a small memory budget, and the first few of them
 * (DFSIM_FUZZ_RUNS, default 2) run end to end, cut short (dfsim run
 * --quick).
 *
 * test_fuzz_include_chains gives the reader what is not a file to read
 * (a FIFO, a folder, /dev/zero) and chains of @includes cut from the
 * examples, with a missing file, a cycle or such a file at one link
 * (issue 57).
 *
 * make test runs a fixed number of cases from seed 1; to run longer, by
 * hand:
 *     DFSIM_FUZZ_N=20000 DFSIM_FUZZ_SEED=7 DFSIM_FUZZ_RUNS=500 \
 *         DFSIM_BIN=build-san/dfsim build-san/dfsim-tests fuzz/
 * The case under test is kept in $TMPDIR/dfsim-fuzz-case.cfg (or the
 * mutated results file beside it), so a crash leaves what caused it; each
 * line the test prints names its seed and case. */
#include "test.h"

#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/rng.h"
#include "exp/fingerprint.h"
#include "exp/experiment.h"
#include "exp/manifest.h"
#include "net/net.h"
#include "topo/topo.h"

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end ? dflt : (uint64_t)v;
}

/* ---- mutations ----------------------------------------------------------- */

struct buf {
    char *s;
    size_t n, cap;
};

static void buf_set(struct buf *b, const char *s, size_t n)
{
    if (n + 1 > b->cap) {
        b->cap = 2 * (n + 1);
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            abort();
    }
    memcpy(b->s, s, n);
    b->s[n] = '\0';
    b->n = n;
}

/* Replace bytes [at, at + len) of b by `with` (wn bytes). */
static void buf_splice(struct buf *b, size_t at, size_t len, const char *with,
                       size_t wn)
{
    size_t n = b->n - len + wn;
    char *t = malloc(n + 1);
    if (!t)
        abort();
    memcpy(t, b->s, at);
    memcpy(t + at, with, wn);
    memcpy(t + at + wn, b->s + at + len, b->n - at - len);
    buf_set(b, t, n);
    free(t);
}

/* The start of line k (0-based) of b and its length with the newline. */
static size_t line_at(const struct buf *b, size_t k, size_t *len)
{
    size_t at = 0;
    for (size_t i = 0; i < k && at < b->n; i++) {
        const char *nl = memchr(b->s + at, '\n', b->n - at);
        at = nl ? (size_t)(nl - b->s) + 1 : b->n;
    }
    const char *nl = memchr(b->s + at, '\n', b->n - at);
    *len = (nl ? (size_t)(nl - b->s) + 1 : b->n) - at;
    return at;
}

static size_t lines_of(const struct buf *b)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++)
        k += b->s[i] == '\n';
    return k + 1;
}

static bool is_num(char c)
{
    return (c >= '0' && c <= '9') || c == '.';
}

static void mutate_once(struct rng *r, struct buf *b)
{
    static const char punct[] = "{}()[];=\",#\n0-.eL\\ \t:/*";
    static const char *const numbers[] = {
        "0", "-1", "1e308", "-1e308", "4294967296", "4294967295",
        "9223372036854775807", "-9223372036854775808", "1e-320", "0.0",
        "99999999999999999999999", "2147483648", "65536", "1e9", "0x7fffffff",
        "-0", "3.5",
    };
    static const char *const strings[] = {
        "\"\"", "\"../../x\"", "\"a,b\"", "\"\\n\"", "\"default\"",
        "\"random\"", "\"none\"", "\"ADAPTIVE_3\"",
    };
    if (b->n == 0) {
        buf_set(b, "x", 1);
        return;
    }
    size_t nl = lines_of(b);
    switch (rng_below(r, 9)) {
    case 0: { /* one byte changed */
        size_t at = rng_below(r, (uint32_t)b->n);
        char c = punct[rng_below(r, sizeof punct - 1)];
        buf_splice(b, at, 1, &c, 1);
        break;
    }
    case 1: { /* a byte inserted */
        size_t at = rng_below(r, (uint32_t)b->n + 1);
        char c = punct[rng_below(r, sizeof punct - 1)];
        buf_splice(b, at, 0, &c, 1);
        break;
    }
    case 2: { /* a line deleted */
        size_t len, at = line_at(b, rng_below(r, (uint32_t)nl), &len);
        buf_splice(b, at, len, "", 0);
        break;
    }
    case 3: { /* a line duplicated */
        size_t len, at = line_at(b, rng_below(r, (uint32_t)nl), &len);
        char *t = malloc(len + 1);
        if (!t)
            abort();
        memcpy(t, b->s + at, len);
        buf_splice(b, at, 0, t, len);
        free(t);
        break;
    }
    case 4: { /* two lines swapped (the first moved after the second) */
        size_t k1 = rng_below(r, (uint32_t)nl), k2 = rng_below(r, (uint32_t)nl);
        if (k1 == k2)
            break;
        if (k1 > k2) {
            size_t t = k1;
            k1 = k2, k2 = t;
        }
        size_t l1, a1 = line_at(b, k1, &l1);
        char *t = malloc(l1 + 1);
        if (!t)
            abort();
        memcpy(t, b->s + a1, l1);
        buf_splice(b, a1, l1, "", 0);
        size_t l2, a2 = line_at(b, k2 - 1, &l2);
        buf_splice(b, a2 + l2, 0, t, l1);
        free(t);
        break;
    }
    case 5: /* cut short */
        b->n = rng_below(r, (uint32_t)b->n);
        b->s[b->n] = '\0';
        break;
    case 6:
    case 7: { /* a number replaced by an extreme one */
        size_t start = rng_below(r, (uint32_t)b->n), at = start;
        while (at < b->n && !(b->s[at] >= '0' && b->s[at] <= '9'))
            at++;
        if (at == b->n)
            break;
        size_t end = at;
        while (end < b->n && is_num(b->s[end]))
            end++;
        const char *w = numbers[rng_below(r, sizeof numbers /
                                                 sizeof numbers[0])];
        buf_splice(b, at, end - at, w, strlen(w));
        break;
    }
    default: { /* a string replaced */
        size_t at = rng_below(r, (uint32_t)b->n);
        const char *q = memchr(b->s + at, '"', b->n - at);
        if (!q)
            break;
        size_t a = (size_t)(q - b->s);
        const char *e = memchr(b->s + a + 1, '"', b->n - a - 1);
        if (!e)
            break;
        size_t len = (size_t)(e - b->s) + 1 - a;
        if (rng_below(r, 4) == 0) { /* a long one */
            size_t n = 300 + rng_below(r, 5000);
            char *t = malloc(n + 3);
            if (!t)
                abort();
            t[0] = '"';
            memset(t + 1, 'a' + (char)rng_below(r, 26), n);
            t[n + 1] = '"';
            buf_splice(b, a, len, t, n + 2);
            free(t);
        } else {
            const char *w = strings[rng_below(r, sizeof strings /
                                                     sizeof strings[0])];
            buf_splice(b, a, len, w, strlen(w));
        }
        break;
    }
    }
}

static void mutate(struct rng *r, struct buf *b)
{
    uint32_t k = 1 + rng_below(r, 3);
    for (uint32_t i = 0; i < k; i++)
        mutate_once(r, b);
}

/* Where case file or folder `name` is kept: $TMPDIR/dfsim-fuzz-<name>. */
static void case_path(char *p, size_t cap, const char *name)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(p, cap, "%.900s/dfsim-fuzz-%s", tmp && *tmp ? tmp : "/tmp",
             name);
}

static bool write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(s, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* ---- the experiment-file reader ------------------------------------------ */

/* Whether a refusal reads as one: an error naming the file. */
static bool names_error(const char *text, const char *path)
{
    return strstr(text, "error") && strstr(text, path);
}

/* Run accepted mutant `path` end to end, cut short (dfsim run --quick):
 * it must end (0, or 1 with an error said), never crash. Returns false
 * after a failure (the case is kept for reproduction). */
static bool run_quick(const char *path, uint64_t seed, uint64_t i,
                      const char *from)
{
    static char out[1 << 16], err[1 << 16];
    char dir[1024];
    case_path(dir, sizeof dir, "run");
    rm_dir(dir);
    const char *a[] = { "run", path, "-o", dir, "--quick", "--force", NULL };
    int rc = run_dfsim(a, out, sizeof out, err, sizeof err);
    bool sanitizer = strstr(err, "Sanitizer") || strstr(err, "runtime error:");
    bool fine = !sanitizer && (rc == 0 || (rc == 1 && strstr(err, "error")));
    if (!fine) {
        test_failures++;
        fprintf(stderr, "  seed %llu case %llu (%s): dfsim run --quick exit "
                "%d (the case is kept in %s):\n%s\n",
                (unsigned long long)seed, (unsigned long long)i, from, rc,
                path, err);
        return false;
    }
    rm_dir(dir);
    return true;
}

static void test_fuzz_experiment_files(void)
{
    uint64_t n = env_u64("DFSIM_FUZZ_N", 300);
    uint64_t seed = env_u64("DFSIM_FUZZ_SEED", 1);
    glob_t g;
    char pat[1024];
    snprintf(pat, sizeof pat, "%s", src_path("examples/*.cfg"));
    CHECK(glob(pat, 0, NULL, &g) == 0);
    CHECK(g.gl_pathc >= 10);
    if (g.gl_pathc == 0)
        return;
    struct buf orig[64] = { { 0 } };
    size_t nf = g.gl_pathc < 64 ? g.gl_pathc : 64;
    for (size_t i = 0; i < nf; i++) {
        char *t = read_text(g.gl_pathv[i]);
        CHECK(t != NULL);
        buf_set(&orig[i], t ? t : "", t ? strlen(t) : 0);
        free(t);
    }
    char path[1024];
    case_path(path, sizeof path, "case.cfg");
    fprintf(stderr, "  fuzz: %llu cases from seed %llu over %zu example "
            "files; the case under test is kept in %s\n",
            (unsigned long long)n, (unsigned long long)seed, nf, path);
    struct rng r = rng_stream(seed, RNG_TEST, 18);
    struct buf b = { 0 };
    uint64_t accepted = 0, built = 0, refused = 0, ran = 0;
    uint64_t runs = env_u64("DFSIM_FUZZ_RUNS", 2);
    for (uint64_t i = 0; i < n; i++) {
        size_t f = rng_below(&r, (uint32_t)nf);
        buf_set(&b, orig[f].s, orig[f].n);
        mutate(&r, &b);
        if (!write_file(path, b.s, b.n)) {
            CHECK(!"the case could not be written");
            break;
        }
        struct capture c;
        cap_init(&c);
        struct experiment e;
        int rc = experiment_load(&e, path, -1, &c.d);
        if (rc != 0) {
            refused++;
            if (!names_error(cap_text(&c), path)) {
                test_failures++;
                fprintf(stderr, "  seed %llu case %llu (%s): refused "
                        "without an error naming the file:\n%s\n",
                        (unsigned long long)seed, (unsigned long long)i,
                        g.gl_pathv[f], cap_text(&c));
            }
            cap_free(&c);
            continue;
        }
        accepted++;
        if (strstr(cap_text(&c), "error")) {
            test_failures++;
            fprintf(stderr, "  seed %llu case %llu: accepted with an "
                    "error:\n%s\n", (unsigned long long)seed,
                    (unsigned long long)i, cap_text(&c));
        }
        /* as far as the run goes before anything runs, on a budget */
        e.max_memory = (size_t)96 << 20;
        e.max_memory_from = "the fuzz test";
        struct topo t;
        int stage = 0;
        bool big = false; /* not set up further: slow, not broken */
        if (experiment_build_topo(&e, &t, &c.d) == 0) {
            stage = 1;
            big = t.n_nodes > 4096;
            struct net_params np;
            if (!big && experiment_net_params(&e, &t, &np, &c.d) == 0) {
                stage = 2;
                if (experiment_check_run(&e, &t, &np, &c.d) == 0)
                    stage = 3;
            }
            topo_free(&t);
        }
        built += stage == 3;
        if (stage < 3 && !big && !names_error(cap_text(&c), path)) {
            test_failures++;
            fprintf(stderr, "  seed %llu case %llu (%s): stopped at stage %d "
                    "without an error naming the file:\n%s\n",
                    (unsigned long long)seed, (unsigned long long)i,
                    g.gl_pathv[f], stage, cap_text(&c));
        }
        experiment_free(&e);
        cap_free(&c);
        if (stage == 3 && ran < runs) {
            ran++;
            if (!run_quick(path, seed, i, g.gl_pathv[f]))
                break;
        }
    }
    fprintf(stderr, "  fuzz: %llu refused, %llu accepted (%llu set up to "
            "run, %llu of them run)\n", (unsigned long long)refused,
            (unsigned long long)accepted, (unsigned long long)built,
            (unsigned long long)ran);
    /* the corpus is mostly valid files: a share of the mutants keeps
     * them so, and most mutations break them */
    CHECK(refused > 0 && accepted > 0);
    unlink(path);
    free(b.s);
    for (size_t i = 0; i < nf; i++)
        free(orig[i].s);
    globfree(&g);
}

/* ---- the resume path ------------------------------------------------------ */

static bool copy_dir(const char *from, const char *to)
{
    DIR *d = opendir(from);
    if (!d)
        return false;
    mkdir(to, 0755);
    bool ok = true;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char a[2048], b[2048];
        snprintf(a, sizeof a, "%.1000s/%.255s", from, de->d_name);
        snprintf(b, sizeof b, "%.1000s/%.255s", to, de->d_name);
        char *t = read_text(a);
        if (!t) {
            ok = false;
            continue;
        }
        ok = write_file(b, t, strlen(t)) && ok;
        free(t);
    }
    closedir(d);
    return ok;
}

/* The result files of a folder that --resume reads back, sorted. */
static size_t result_files(const char *dir, char names[][64], size_t cap)
{
    static const char *const read_back[] = {
        "runs.csv", "experiment.settings", "jobs.csv", "iterations.csv",
        "ranks.csv", "metrics.csv", "variants.csv", "load.csv",
        "traffic.csv",
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof read_back / sizeof read_back[0]; i++) {
        char p[1200];
        snprintf(p, sizeof p, "%.1000s/%s", dir, read_back[i]);
        if (access(p, F_OK) == 0 && n < cap)
            snprintf(names[n++], 64, "%.63s", read_back[i]);
    }
    return n;
}

/* Finished results folders of two small experiments (a jobs experiment
 * with three runs, a traffic sweep of three loads), each file mutated,
 * resumed: dfsim goes on or refuses with an error; it never crashes. */
static void test_fuzz_resume(void)
{
    static char out[1 << 16], err[1 << 16];
    uint64_t n = env_u64("DFSIM_FUZZ_N", 300) / 20 + 4;
    uint64_t seed = env_u64("DFSIM_FUZZ_SEED", 1);
    static const char *const cfgs[] = {
        "experiment = { seed = 5; runs = 3; };\n"
        "system = { name = \"xc-12cab\"; };\n"
        "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
        "  bytes = 64; nodes = 2; iterations = 3; } );\n",
        "experiment = { seed = 5; };\n"
        "system = { topology = \"dragonfly\"; p = 2; a = 4; h = 2; };\n"
        "traffic = { loads = [0.1, 0.2, 0.3]; warmup_us = 0.2;\n"
        "  measure_us = 0.3; drain_us = 2.0; };\n",
    };
    struct rng r = rng_stream(seed, RNG_TEST, 1818);
    struct buf b = { 0 };
    for (size_t k = 0; k < 2; k++) {
        char cfg_name[32];
        snprintf(cfg_name, sizeof cfg_name, "fuzz-resume%zu.cfg", k);
        const char *cfg = write_temp(cfg_name, cfgs[k]);
        char done[1024], dir[1024];
        case_path(done, sizeof done, k ? "done1" : "done0");
        case_path(dir, sizeof dir, "resumed");
        rm_dir(done);
        const char *a0[] = { "run", cfg, "-o", done, NULL };
        int rc = run_dfsim(a0, out, sizeof out, err, sizeof err);
        CHECK_EQ_U(rc, 0);
        if (rc != 0) {
            fprintf(stderr, "%s\n", err);
            unlink(cfg);
            continue;
        }
        char names[16][64];
        size_t nn = result_files(done, names, 16);
        CHECK(nn >= 2);
        for (uint64_t i = 0; i < n && nn; i++) {
            rm_dir(dir);
            CHECK(copy_dir(done, dir));
            const char *name = names[rng_below(&r, (uint32_t)nn)];
            char p[1200];
            snprintf(p, sizeof p, "%.1000s/%.63s", dir, name);
            char *t = read_text(p);
            CHECK(t != NULL);
            if (!t)
                continue;
            buf_set(&b, t, strlen(t));
            free(t);
            mutate(&r, &b);
            CHECK(write_file(p, b.s, b.n));
            /* listed as dfsim's in the manifest (exp/manifest.h), so that
             * --resume reads the mutated file back rather than refusing
             * it as changed since dfsim wrote it (tests/test_outdir.c) */
            const char *const mutated[] = { name };
            if (strcmp(name, "experiment.settings") != 0)
                CHECK_EQ_U(manifest_mark(dir, mutated, 1, MANIFEST_DONE,
                                         stderr),
                           0);
            const char *a1[] = { "run", cfg, "-o", dir, "--resume", NULL };
            rc = run_dfsim(a1, out, sizeof out, err, sizeof err);
            /* went on (0), or refused (1 or 2) saying why — never
             * killed by a signal (-1), never a sanitizer's report */
            bool sanitizer = strstr(err, "Sanitizer") ||
                             strstr(err, "runtime error:");
            bool said = strstr(err, "error") || strstr(err, "dfsim");
            bool fine = !sanitizer &&
                        (rc == 0 || ((rc == 1 || rc == 2) && said));
            if (!fine) {
                test_failures++;
                fprintf(stderr, "  seed %llu, %s, case %llu: %s mutated, "
                        "--resume exit %d (kept in %s):\n%s\n",
                        (unsigned long long)seed, k ? "traffic" : "jobs",
                        (unsigned long long)i, name, rc, dir, err);
                rm_dir(done);
                unlink(cfg);
                free(b.s);
                return;
            }
        }
        rm_dir(dir);
        rm_dir(done);
        unlink(cfg);
    }
    free(b.s);
}

/* ---- what the reader is given: other files, include chains -------------- */

/* The line starts of b where it may be cut into two whole texts: outside
 * block comments and strings (libconfig's lexical rules), at most cap of
 * them into at. */
static size_t cut_points(const struct buf *b, size_t *at, size_t cap)
{
    size_t n = 0;
    bool block = false, str = false;
    for (size_t i = 0; i < b->n; i++) {
        char c = b->s[i];
        if (block) {
            if (c == '*' && b->s[i + 1] == '/')
                block = false, i++;
            continue;
        }
        if (str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                str = false;
            continue;
        }
        if (c == '#' || (c == '/' && b->s[i + 1] == '/')) {
            while (i < b->n && b->s[i] != '\n')
                i++;
        } else if (c == '/' && b->s[i + 1] == '*') {
            block = true;
            i++;
            continue;
        } else if (c == '"') {
            str = true;
            continue;
        }
        if (i + 1 < b->n && b->s[i] == '\n' && n < cap)
            at[n++] = i + 1;
    }
    return n;
}

/* Folders of a chain's parts, below the case's folder. */
static const char *const part_dirs[] = { "", "a", "a/b", "c" };

/* A chain of parts: part 0 is root/top.cfg, part j root/dir[j]/p<j>.cfg. */
struct chain {
    char root[1024];
    int k;          /* parts */
    int dir[6];     /* index in part_dirs */
    size_t from[6]; /* part j is text [from[j], from[j + 1]) */
};

static void part_path(const struct chain *c, int j, char *p, size_t cap)
{
    const char *d = part_dirs[c->dir[j]];
    if (j == 0)
        snprintf(p, cap, "%s/top.cfg", c->root);
    else
        snprintf(p, cap, "%s/%s%sp%d.cfg", c->root, d, *d ? "/" : "", j);
}

/* The name part `from` @includes part `to` by: relative to its folder. */
static void rel_name(const struct chain *c, int from, int to, char *p,
                     size_t cap)
{
    p[0] = '\0';
    for (const char *d = part_dirs[c->dir[from]]; *d; d++)
        if (d == part_dirs[c->dir[from]] || d[-1] == '/')
            strncat(p, "../", cap - strlen(p) - 1);
    const char *d = part_dirs[c->dir[to]];
    size_t n = strlen(p);
    if (to == 0)
        snprintf(p + n, cap - n, "top.cfg");
    else
        snprintf(p + n, cap - n, "%s%sp%d.cfg", d, *d ? "/" : "", to);
}

/* Write part j: its text, then `@include "inc"` (inc NULL: none). */
static bool write_part(const struct chain *c, const struct buf *b, int j,
                       const char *inc)
{
    size_t end = j + 1 < c->k ? c->from[j + 1] : b->n;
    struct buf t = { 0 };
    buf_set(&t, b->s + c->from[j], end - c->from[j]);
    if (inc) {
        char line[1200];
        snprintf(line, sizeof line, "@include \"%s\"\n", inc);
        buf_splice(&t, t.n, 0, line, strlen(line));
    }
    char p[1200];
    part_path(c, j, p, sizeof p);
    bool ok = write_file(p, t.s, t.n);
    free(t.s);
    return ok;
}

/* Write the chain of b cut at its cut points: each part @includes the
 * next at its end. */
static bool write_chain(const struct chain *c, const struct buf *b)
{
    bool ok = true;
    for (int j = 0; j < c->k; j++) {
        char inc[1200];
        if (j + 1 < c->k)
            rel_name(c, j, j + 1, inc, sizeof inc);
        ok = write_part(c, b, j, j + 1 < c->k ? inc : NULL) && ok;
    }
    return ok;
}

/* cfg_open(path)'s fingerprint (NULL if refused), what was said in c. */
static char *open_fingerprint(const char *path, struct capture *c)
{
    struct cfg_file *f = cfg_open(path, &c->d);
    if (!f)
        return NULL;
    char *fp = fingerprint_text(f, 1, false, false);
    cfg_close(f);
    return fp;
}

/* Part j's @include of the next replaced by a fault (a missing file, a
 * part already being included, a FIFO, a folder, /dev/zero): refused at
 * part j's @include line, naming the fault; never a wait or a crash. */
static void check_fault(const struct chain *c, const struct buf *b, int j,
                        uint32_t fault, const char *fifo, uint64_t i)
{
    char inc[1200], top[1200], part[1200], name[32];
    static const char *const says[] = { "cannot read", "an @include cycle",
                                        "is a FIFO", "is a directory",
                                        "is a character device" };
    if (fault == 0)
        snprintf(inc, sizeof inc, "nope.cfg");
    else if (fault == 1)
        rel_name(c, j, (int)(i % (uint64_t)(j + 1)), inc, sizeof inc);
    else if (fault == 2)
        snprintf(inc, sizeof inc, "%s", fifo);
    else if (fault == 3)
        snprintf(inc, sizeof inc, "%s/a", c->root);
    else
        snprintf(inc, sizeof inc, "/dev/zero");
    CHECK(write_part(c, b, j, inc));
    part_path(c, 0, top, sizeof top);
    part_path(c, j, part, sizeof part);
    snprintf(name, sizeof name, "%s:", strrchr(part, '/') + 1);
    struct capture cap;
    cap_init(&cap);
    char *fp = open_fingerprint(top, &cap);
    const char *t = cap_text(&cap);
    if (fp || !strstr(t, name) || !strstr(t, "@include") ||
        !strstr(t, says[fault])) {
        test_failures++;
        fprintf(stderr, "  case %llu: part %d's @include \"%s\" (%s): "
                "expected it refused at %s, got:\n%s\n",
                (unsigned long long)i, j, inc, says[fault], name, t);
    }
    free(fp);
    cap_free(&cap);
}

/* Example files cut at random line starts into 2 to 5 parts in random
 * folders, each @including the next by a name relative to its own
 * folder: the chain reads as the whole file (the same settings); with
 * one @include replaced by a fault it is refused, naming the fault, at
 * that line; mutated (as test_fuzz_experiment_files does), it is
 * accepted, or refused with an error naming a file of the chain. A
 * FIFO, a folder, /dev/zero or /dev/null as the experiment file is
 * refused naming it. The alarm ends the test if anything waits. */
static void test_fuzz_include_chains(void)
{
    uint64_t n = env_u64("DFSIM_FUZZ_N", 300) / 5 + 1;
    uint64_t seed = env_u64("DFSIM_FUZZ_SEED", 1);
    alarm(600);
    struct chain c = { .k = 0 };
    case_path(c.root, sizeof c.root, "chain");
    rm_dir(c.root);
    char p[1200], fifo[1200];
    CHECK(mkdir(c.root, 0700) == 0);
    for (size_t d = 1; d < sizeof part_dirs / sizeof part_dirs[0]; d++) {
        snprintf(p, sizeof p, "%s/%s", c.root, part_dirs[d]);
        mkdir(p, 0700);
    }
    snprintf(fifo, sizeof fifo, "%s/fifo.cfg", c.root);
    CHECK(mkfifo(fifo, 0600) == 0);

    /* not files to read */
    const char *odd[] = { fifo, c.root, "/dev/zero", "/dev/null" };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        struct capture cap;
        cap_init(&cap);
        struct experiment e;
        CHECK(experiment_load(&e, odd[i], -1, &cap.d) != 0);
        CHECK(names_error(cap_text(&cap), odd[i]));
        CHECK_STR_CONTAINS(cap_text(&cap), "expected a regular file");
        cap_free(&cap);
    }

    glob_t g;
    snprintf(p, sizeof p, "%s", src_path("examples/*.cfg"));
    CHECK(glob(p, 0, NULL, &g) == 0);
    struct rng r = rng_stream(seed, RNG_TEST, 57);
    struct buf b = { 0 };
    uint64_t refused = 0;
    for (uint64_t i = 0; i < n && g.gl_pathc; i++) {
        char *text = read_text(g.gl_pathv[rng_below(&r, (uint32_t)
                                                     g.gl_pathc)]);
        CHECK(text != NULL);
        if (!text)
            break;
        if (strstr(text, "@include")) {
            /* its own @include names a file beside it, which the
             * chain's folders do not hold: not a whole file to split */
            free(text);
            continue;
        }
        buf_set(&b, text, strlen(text));
        free(text);
        size_t at[4096];
        size_t m = cut_points(&b, at, 4096);
        c.k = 1 + (int)rng_below(&r, 4) + 1;
        if (m < 8)
            continue;
        c.from[0] = 0;
        c.dir[0] = 0;
        for (int j = 1; j < c.k; j++) { /* increasing cut points */
            size_t lo = c.from[j - 1];
            size_t pick;
            do
                pick = at[rng_below(&r, (uint32_t)m)];
            while (pick <= lo && lo < at[m - 1]);
            c.from[j] = pick > lo ? pick : b.n;
            c.dir[j] = (int)rng_below(&r, 4);
        }
        /* (past the last cut point the remaining parts are empty, which
         * a file may be) */
        CHECK(write_chain(&c, &b));
        snprintf(p, sizeof p, "%s/whole.cfg", c.root);
        CHECK(write_file(p, b.s, b.n));
        struct capture cw, cc;
        cap_init(&cw);
        cap_init(&cc);
        char *whole = open_fingerprint(p, &cw);
        part_path(&c, 0, p, sizeof p);
        char *chained = open_fingerprint(p, &cc);
        if (!whole || !chained || strcmp(whole, chained) != 0 ||
            strstr(cap_text(&cc), "error")) {
            test_failures++;
            fprintf(stderr, "  case %llu: the chain of %d parts (%s) does "
                    "not read as the whole file:\n%s\n",
                    (unsigned long long)i, c.k, c.root, cap_text(&cc));
            free(whole);
            free(chained);
            cap_free(&cw);
            cap_free(&cc);
            break;
        }
        free(whole);
        free(chained);
        cap_free(&cw);
        cap_free(&cc);

        /* a fault at one @include */
        int j = (int)rng_below(&r, (uint32_t)c.k - 1);
        check_fault(&c, &b, j, rng_below(&r, 5), fifo, i);
        CHECK(write_chain(&c, &b));

        /* one part mutated */
        j = (int)rng_below(&r, (uint32_t)c.k);
        struct buf t = { 0 };
        size_t end = j + 1 < c.k ? c.from[j + 1] : b.n;
        buf_set(&t, b.s + c.from[j], end - c.from[j]);
        mutate(&r, &t);
        char inc[1200];
        if (j + 1 < c.k) {
            rel_name(&c, j, j + 1, inc, sizeof inc);
            char line[1300];
            snprintf(line, sizeof line, "\n@include \"%s\"\n", inc);
            buf_splice(&t, t.n, 0, line, strlen(line));
        }
        part_path(&c, j, p, sizeof p);
        CHECK(write_file(p, t.s, t.n));
        free(t.s);
        struct capture cm;
        cap_init(&cm);
        struct experiment e;
        part_path(&c, 0, p, sizeof p);
        if (experiment_load(&e, p, -1, &cm.d) == 0) {
            CHECK(!strstr(cap_text(&cm), "error"));
            experiment_free(&e);
        } else {
            refused++;
            if (!names_error(cap_text(&cm), c.root)) {
                test_failures++;
                fprintf(stderr, "  case %llu: part %d mutated, refused "
                        "without naming a file of the chain:\n%s\n",
                        (unsigned long long)i, j, cap_text(&cm));
            }
        }
        cap_free(&cm);
    }
    fprintf(stderr, "  fuzz: %llu include chains from seed %llu (%llu "
            "mutants refused)\n", (unsigned long long)n,
            (unsigned long long)seed, (unsigned long long)refused);
    alarm(0);
    free(b.s);
    globfree(&g);
    rm_dir(c.root);
}

const struct test_case tests_fuzz[] = {
    TEST(test_fuzz_experiment_files),
    TEST(test_fuzz_resume),
    TEST(test_fuzz_include_chains),
    { 0 },
};
