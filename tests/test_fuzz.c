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

#include "core/rng.h"
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

const struct test_case tests_fuzz[] = {
    TEST(test_fuzz_experiment_files),
    TEST(test_fuzz_resume),
    { 0 },
};
