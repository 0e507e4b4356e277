/* tests/test_input.c — what an experiment file may be, and what it may
 * include (issue 57): integers that do not fit their key, wherever they
 * are written; @include resolved from the including file, a missing one
 * named, a cycle refused; only regular files of at most CFG_FILE_MAX
 * bytes read, refused before a byte is read otherwise; lists whose
 * repeated entries would make two indistinguishable rows of results; and
 * `dfsim counters`' columns.
 *
 * Files are written under a scratch folder /tmp/dfsim-test-PID-input
 * (removed after each test by the runner) and the diagnostics compared
 * whole: a message that names the wrong file or line fails. */
#include "test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config.h"
#include "exp/experiment.h"

/* ---- scaffolding ---------------------------------------------------------- */

struct t_part {
    int64_t size;   /* [1, 1 << 30] */
    uint32_t pairs; /* the type's own range */
    int64_t shift;  /* any int64 */
};

static const struct cfg_key part_keys[] = {
    { .name = "size", .type = CFG_INT, .min = 1, .max = (int64_t)1 << 30,
      .offset = offsetof(struct t_part, size), .help = "bytes" },
    { .name = "pairs", .type = CFG_UINT32,
      .offset = offsetof(struct t_part, pairs), .help = "pairs" },
    { .name = "shift", .type = CFG_INT,
      .offset = offsetof(struct t_part, shift), .help = "shift" },
    { .type = CFG_END },
};

/* The scratch folder, made on first use: /tmp/dfsim-test-PID-input. */
static const char *scratch(void)
{
    static char dir[128];
    snprintf(dir, sizeof dir, "/tmp/dfsim-test-%d-input", (int)getpid());
    mkdir(dir, 0700);
    return dir;
}

/* Write `text` to scratch()/rel (its folder made if missing); returns the
 * full path (a static buffer of 8 in turn). */
static const char *put(const char *rel, const char *text)
{
    static char paths[8][256];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", scratch(), rel);
    for (char *s = p + strlen(scratch()) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0'; /* each folder on the way */
        mkdir(p, 0700);
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    if (!f)
        return p;
    fputs(text, f);
    fclose(f);
    return p;
}

/* scratch()/rel in buf. */
static const char *at(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/%s", scratch(), rel);
    return buf;
}

/* Open `path` and read its section `part` through part_keys; the
 * diagnostics in c. Returns the errors. */
static int read_part(const char *path, struct t_part *out, struct capture *c)
{
    out->size = 1;
    out->pairs = 1;
    out->shift = 0;
    struct cfg_file *f = cfg_open(path, &c->d);
    if (!f)
        return c->d.errors;
    cfg_read(f, cfg_section(f, "part"), "part", part_keys, out, NULL, &c->d);
    cfg_close(f);
    return c->d.errors;
}

/* Open `path` (which must be refused) and compare the whole of what was
 * said with `want`. */
static void expect_refused(const char *path, const char *want)
{
    struct capture c;
    cap_init(&c);
    struct t_part p;
    CHECK(read_part(path, &p, &c) > 0);
    if (strcmp(cap_text(&c), want) != 0) {
        test_failures++;
        fprintf(stderr, "  %s: expected:\n%s  got:\n%s", path, want,
                cap_text(&c));
    }
    cap_free(&c);
}

/* ---- item 6: integers that do not fit ---------------------------------- */

/* A literal libconfig 1.5 would wrap (5000000000 -> 705032704) is an error
 * naming the file it is written in: the included file as the top one. */
static void test_input_wide_literal_in_include(void)
{
    char want[2048], top[256];
    const char *part = put("wide/part.cfg", "\n  size = 5000000000;\n");
    const char *path = put("wide/main.cfg",
                           "part = {\n  @include \"part.cfg\"\n};\n");
    snprintf(want, sizeof want,
             "%s:2: error: integer 5000000000 does not fit in 32 bits; "
             "write 5000000000L for a 64-bit integer\n", part);
    expect_refused(path, want);

    /* the top file (already checked before issue 57) */
    path = put("wide/top.cfg", "part = {\n  pairs = 4294967296;\n};\n");
    snprintf(want, sizeof want,
             "%s:2: error: integer 4294967296 does not fit in 32 bits; "
             "write 4294967296L for a 64-bit integer\n",
             at(top, sizeof top, "wide/top.cfg"));
    expect_refused(path, want);

    /* two levels down, a hex literal and a 64-bit one past 64 bits */
    put("wide/sub/deep.cfg", "pairs = 0x100000000;\n"
                             "shift = 99999999999999999999L;\n");
    part = put("wide/sub/mid.cfg", "@include \"deep.cfg\"\n");
    path = put("wide/main.cfg", "part = {\n  @include \"sub/mid.cfg\"\n};\n");
    at(top, sizeof top, "wide/sub/deep.cfg");
    snprintf(want, sizeof want,
             "%s:1: error: integer 0x100000000 does not fit in 32 bits; "
             "write 0x100000000L for a 64-bit integer\n"
             "%s:2: error: integer 99999999999999999999L does not fit in "
             "64 bits\n", top, top);
    expect_refused(path, want);
}

/* A 64-bit literal is checked against its key's type: 4294967296L is too
 * much for a 32-bit key, in an included file as in the top one. */
static void test_input_wide_value_range_checked(void)
{
    char want[2048];
    const char *part = put("range/part.cfg", "pairs = 4294967296L;\n"
                                             "size = 5000000000L;\n"
                                             "shift = -5000000000L;\n");
    const char *path = put("range/main.cfg",
                           "part = {\n@include \"part.cfg\"\n};\n");
    snprintf(want, sizeof want,
             "%s:1: error: part.pairs: value 4294967296 is out of range; "
             "expected an integer in [0, 4294967295]\n"
             "%s:2: error: part.size: value 5000000000 is out of range; "
             "expected an integer in [1, 1073741824]\n", part, part);
    expect_refused(path, want);

    struct capture c;
    cap_init(&c);
    struct t_part p;
    put("range/part.cfg", "pairs = 4294967295L;\nshift = -5000000000L;\n");
    CHECK_EQ_U(read_part(path, &p, &c), 0);
    CHECK_EQ_U(p.pairs, 4294967295u);
    CHECK(p.shift == -5000000000LL);
    cap_free(&c);
}

/* The same through dfsim run: the included file's wrapped number is
 * refused, never run with 705032704-byte packets. */
static void test_input_wide_literal_run(void)
{
    char out[1 << 14], err[1 << 14], want[512];
    const char *part = put("run/sub/probe.cfg",
                           "probe = {\n  size = 5000000000;\n  pairs = 1;\n"
                           "};\n");
    const char *path = put("run/exp.cfg",
                           "experiment = { name = \"probe\"; };\n"
                           "system = { name = \"voltrino\"; };\n"
                           "@include \"sub/probe.cfg\"\n");
    char dir[256];
    const char *a[] = { "run", path, "-o", at(dir, sizeof dir, "run/out"),
                        "--quick", NULL };
    int rc = run_dfsim(a, out, sizeof out, err, sizeof err);
    CHECK_EQ_U(rc, 1);
    snprintf(want, sizeof want, "%s:2: error: integer 5000000000 does not "
             "fit in 32 bits", part);
    CHECK_STR_CONTAINS(err, want);
    CHECK(!strstr(out, "705032704"));
}

/* ---- item 6: where @include looks ----------------------------------------- */

/* A nested @include is found next to the file that holds the @include line
 * (docs/experiment-files.md), not next to the top file. */
static void test_input_nested_include_relative(void)
{
    put("nest/sub/size.cfg", "size = 64;\n");
    put("nest/size.cfg", "size = 128;\n"); /* the wrong one */
    put("nest/sub/part.cfg", "part = {\n  @include \"size.cfg\"\n"
                             "  pairs = 8;\n};\n");
    const char *path = put("nest/main.cfg", "@include \"sub/part.cfg\"\n");
    struct capture c;
    cap_init(&c);
    struct t_part p;
    CHECK_EQ_U(read_part(path, &p, &c), 0);
    CHECK_EQ_U(p.size, 64);
    CHECK_EQ_U(p.pairs, 8);
    cap_free(&c);

    /* and a mistake in the nested file names it, at its own line; the
     * line after an @include is the including file's */
    char want[2048], inc[256], top[256];
    unlink(at(inc, sizeof inc, "nest/size.cfg"));
    put("nest/sub/size.cfg", "\n\nsize = 0;\n");
    put("nest/sub/part.cfg", "part = {\n  @include \"size.cfg\"\n"
                             "  pairs = -1;\n};\n");
    snprintf(want, sizeof want,
             "%s:3: error: part.size: value 0 is out of range; expected an "
             "integer in [1, 1073741824]\n"
             "%s:3: error: part.pairs: value -1 is out of range; expected "
             "an integer in [0, 4294967295]\n",
             at(inc, sizeof inc, "nest/sub/size.cfg"),
             at(top, sizeof top, "nest/sub/part.cfg"));
    expect_refused(path, want);
}

/* A missing include is named, with the line that includes it. */
static void test_input_missing_include_named(void)
{
    char want[2048], missing[256];
    const char *path = put("miss/main.cfg",
                           "part = {\n  size = 2;\n  @include \"nope.cfg\"\n"
                           "};\n");
    snprintf(want, sizeof want,
             "%s:3: error: @include \"nope.cfg\": cannot read %s: No such "
             "file or directory\n",
             path, at(missing, sizeof missing, "miss/nope.cfg"));
    expect_refused(path, want);

    /* one level down */
    const char *mid = put("miss/sub/mid.cfg", "\n@include \"gone.cfg\"\n");
    path = put("miss/main.cfg", "@include \"sub/mid.cfg\"\n");
    snprintf(want, sizeof want,
             "%s:2: error: @include \"gone.cfg\": cannot read %s: No such "
             "file or directory\n",
             mid, at(missing, sizeof missing, "miss/sub/gone.cfg"));
    expect_refused(path, want);
}

/* A file that includes itself, directly or through others, is refused at
 * the @include that closes the cycle. */
static void test_input_include_cycle(void)
{
    char want[2048], a[256], b[256], dir[256];
    at(a, sizeof a, "cycle/a.cfg");
    at(b, sizeof b, "cycle/sub/b.cfg");
    at(dir, sizeof dir, "cycle");
    put("cycle/sub/b.cfg", "pairs = 2;\n@include \"../a.cfg\"\n");
    const char *path = put("cycle/a.cfg",
                           "part = {\n  @include \"sub/b.cfg\"\n};\n");
    snprintf(want, sizeof want,
             "%s:2: error: @include \"../a.cfg\": an @include cycle: %s -> "
             "%s -> %s/sub/../a.cfg\n",
             b, a, b, dir);
    expect_refused(path, want);

    path = put("cycle/self.cfg", "@include \"self.cfg\"\n");
    snprintf(want, sizeof want,
             "%s:1: error: @include \"self.cfg\": an @include cycle: %s -> "
             "%s\n", path, path, path);
    expect_refused(path, want);
}

/* ---- item 7: what may be read ---------------------------------------------- */

/* CFG_FILE_MAX as docs/experiment-files.md states it: 16 MiB. */
enum { LIMIT = 16 << 20 };

/* expect_refused with `want` a format of one %s (the path) followed by
 * the limit wherever a %d stands. */
static void expect_limit(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void expect_limit(const char *path, const char *fmt, ...)
{
    char want[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    expect_refused(path, want);
}

/* A FIFO, a directory, a device: refused before they are read (a FIFO
 * without a writer would block the open forever: the alarm ends the test
 * if it does), as the file named or as an included one. */
static void test_input_not_regular_refused(void)
{
    char fifo[256];
    at(fifo, sizeof fifo, "fifo.cfg");
    scratch();
    CHECK(mkfifo(fifo, 0600) == 0);
    alarm(20);
    expect_limit(fifo, "%s: error: cannot read: a FIFO; expected a regular "
                 "file of at most %d bytes\n", fifo, LIMIT);
    alarm(0);
    expect_limit("/dev/zero", "/dev/zero: error: cannot read: a character "
                 "device; expected a regular file of at most %d bytes\n",
                 LIMIT);
    expect_limit("/tmp", "/tmp: error: cannot read: a directory; expected "
                 "a regular file of at most %d bytes\n", LIMIT);

    const char *path = put("main.cfg", "part = {\n"
                                       "@include \"fifo.cfg\"\n"
                                       "@include \"/dev/zero\"\n};\n");
    alarm(20);
    expect_limit(path,
                 "%s:2: error: @include \"fifo.cfg\": %s is a FIFO; "
                 "expected a regular file of at most %d bytes\n"
                 "%s:3: error: @include \"/dev/zero\": /dev/zero is a "
                 "character device; expected a regular file of at most %d "
                 "bytes\n",
                 path, fifo, LIMIT, path, LIMIT);
    alarm(0);
    unlink(fifo);
}

/* A regular file over CFG_FILE_MAX bytes is refused before it is read
 * (sparse: it costs no disk), as the file named or as an included one;
 * so is a text that its includes make larger than that. */
static void test_input_size_limit(void)
{
    char big[256];
    at(big, sizeof big, "big.cfg");
    scratch();
    FILE *f = fopen(big, "w");
    CHECK(f && ftruncate(fileno(f), LIMIT + 1) == 0);
    if (f)
        fclose(f);
    expect_limit(big, "%s: error: cannot read: %d bytes; expected a regular "
                 "file of at most %d bytes\n", big, LIMIT + 1, LIMIT);
    const char *path = put("main.cfg", "part = {\n  @include \"big.cfg\"\n"
                                       "};\n");
    expect_limit(path, "%s:2: error: @include \"big.cfg\": %s is %d bytes; "
                 "expected a regular file of at most %d bytes\n",
                 path, big, LIMIT + 1, LIMIT);
    unlink(big);

    /* 3 files of 6 MiB each within the limit, 18 MiB together: the third
     * @include is refused */
    size_t n = (size_t)6 << 20;
    char *text = malloc(n);
    CHECK(text != NULL);
    if (!text)
        return;
    memset(text, ' ', n - 1);
    text[n - 1] = '\0';
    put("six.cfg", text);
    free(text);
    path = put("main.cfg", "@include \"six.cfg\"\n@include \"six.cfg\"\n"
                           "@include \"six.cfg\"\n");
    expect_limit(path, "%s:3: error: @include \"six.cfg\": the text with "
                 "its @includes would pass %d bytes\n", path, LIMIT);
}

/* Whether a reader waits on `fifo` `after` seconds from now: a helper
 * process opens its writing end then (which succeeds only if a reader has
 * it open, and ends that reader's wait with an empty text). Start it,
 * run what may block, then finish_watch: true if someone was waiting. */
static pid_t watch_fifo(const char *fifo, unsigned after)
{
    pid_t pid = fork();
    if (pid == 0) {
        sleep(after);
        int fd = open(fifo, O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            close(fd);
        _exit(fd >= 0 ? 1 : 0);
    }
    return pid;
}

static bool finish_watch(pid_t pid)
{
    if (pid < 0)
        return false;
    kill(pid, SIGKILL); /* done before `after`: nobody waited */
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 1;
}

/* dfsim run on /dev/zero or on a FIFO ends at once with an error (it read
 * /dev/zero to 2.1 GB, and waited on a FIFO forever). */
static void test_input_run_not_regular(void)
{
    char out[4096], err[4096], fifo[256];
    const char *a[] = { "run", "/dev/zero", "-o", "/nonexistent", NULL };
    CHECK_EQ_U(run_dfsim(a, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "/dev/zero: error: cannot read: a character "
                            "device; expected a regular file");
    at(fifo, sizeof fifo, "run.fifo");
    scratch();
    CHECK(mkfifo(fifo, 0600) == 0);
    a[1] = fifo;
    pid_t w = watch_fifo(fifo, 5);
    CHECK_EQ_U(run_dfsim(a, out, sizeof out, err, sizeof err), 1);
    CHECK(!finish_watch(w));
    CHECK_STR_CONTAINS(err, "error: cannot read: a FIFO; expected a "
                            "regular file");
    unlink(fifo);
}

/* ---- item 10b: a value listed twice ----------------------------------------- */

/* Append printf-style text to buf (capacity cap). */
static void cfg_cat_test(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cfg_cat_test(char *buf, size_t cap, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, cap - used, fmt, ap);
    va_end(ap);
}

/* Load experiment file `text` (written to scratch()/exp.cfg) and compare
 * what was said with `tmpl`, in which each @ stands for the file's path;
 * n_errors errors. */
static void expect_load(const char *text, const char *tmpl, int n_errors)
{
    const char *path = put("exp.cfg", text);
    struct capture c;
    cap_init(&c);
    struct experiment e;
    int rc = experiment_load(&e, path, -1, &c.d);
    CHECK(rc != 0);
    if (rc == 0)
        experiment_free(&e);
    CHECK_EQ_U(c.d.errors, n_errors);
    char want[2048] = "";
    for (const char *t = tmpl; *t; t++)
        if (*t == '@')
            cfg_cat_test(want, sizeof want, "%s", path);
        else
            cfg_cat_test(want, sizeof want, "%c", *t);
    if (strcmp(cap_text(&c), want) != 0) {
        test_failures++;
        fprintf(stderr, "  expected:\n%s  got:\n%s", want, cap_text(&c));
    }
    cap_free(&c);
}

#define EXP_HEAD "experiment = { name = \"dup\"; seed = 1; };\n" \
                 "system = { name = \"voltrino\"; };\n"

/* traffic.csv has a row per routing and load: a routing or a load given
 * twice would be two rows alike. Loads are written with 4 decimals
 * there, so two that differ further down are alike too. */
static void test_input_duplicate_traffic(void)
{
    expect_load(EXP_HEAD
                "traffic = {\n"
                "  loads = [0.1, 0.2,\n"
                "           0.1];\n"
                "  routings = [\"minimal\", \"UGAL\", \"minimal\"];\n"
                "};\n",
                "@:5: error: traffic.loads[2]: 0.1 is traffic.loads[0] "
                "too; expected each load once\n"
                "@:6: error: traffic.routings[2]: \"minimal\" is "
                "traffic.routings[0] too; expected each routing once\n", 2);
    expect_load(EXP_HEAD
                "traffic = {\n"
                "  loads = [0.1, 0.10001];\n"
                "};\n",
                "@:4: error: traffic.loads[1]: 0.10001 is 0.1000 in "
                "traffic.csv, as traffic.loads[0] (0.1) is; expected loads "
                "apart in their first 4 decimals\n", 1);
}

/* variants.csv has a row per job and variant: a controller given twice
 * among a job's variants would be two rows alike. */
static void test_input_duplicate_variants(void)
{
    expect_load(EXP_HEAD
                "jobs = ( { workload = \"pingpong\"; nodes = 2;\n"
                "  bytes = 8; iterations = 4;\n"
                "  variants = [\"default\", \"high-bias\",\n"
                "              \"default\"]; } );\n",
                "@:6: error: jobs[0].variants[2]: \"default\" is "
                "jobs[0].variants[0] too; expected each variant once\n", 1);
}

/* impact's rows are per share and controller; both lists refused a
 * repeated value already before issue 57 (impact.c): kept so. */
static void test_input_duplicate_impact(void)
{
    expect_load(EXP_HEAD
                "impact = {\n"
                "  shares = [0.5, 0.5];\n"
                "  congestion_controls = [\"none\", \"cray\", \"none\"];\n"
                "  victims = ( { workload = \"pingpong\"; bytes = 8;\n"
                "                iterations = 2; } );\n"
                "  aggressors = ( { workload = \"gpcnet-congestors\"; } );\n"
                "};\n",
                "@:4: error: impact.shares[1]: 0.5 is impact.shares[0] "
                "too; expected each share once\n"
                "@:5: error: impact.congestion_controls[2]: \"none\" is "
                "impact.congestion_controls[0] too; expected each "
                "controller once\n", 2);
}

/* A counter named twice in sampling.nic_metrics or rtr_metrics would be
 * two columns alike. */
static void test_input_duplicate_metrics(void)
{
    expect_load(EXP_HEAD
                "traffic = { loads = [0.1]; };\n"
                "sampling = {\n"
                "  nic_metrics = [\"AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS\",\n"
                "                 \"AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS\"];\n"
                "};\n",
                "@:6: error: sampling.nic_metrics[1]: "
                "\"AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS\" is "
                "sampling.nic_metrics[0] too; expected each counter once\n",
                1);
}

/* ---- item 10d: dfsim counters' columns ----------------------------------- */

/* Every line of `dfsim counters` has its unit and its meaning where the
 * header says ("unit", "counts"), whatever the length of the names: Aries
 * has names of 52 characters (AR_RTR_0_0_INQ_PRF_INCOMING_PKT_VC0_
 * FILTER_FLIT0_CNT), Slingshot and Gemini shorter ones. */
static void test_input_counters_columns(void)
{
    static char out[1 << 18], err[4096];
    static const char *const systems[] = { "xc-12cab", "voltrino", "shandy",
                                           "cielo", NULL };
    for (size_t s = 0; systems[s]; s++) {
        const char *a[] = { "counters", systems[s], NULL };
        CHECK_EQ_U(run_dfsim(a, out, sizeof out, err, sizeof err), 0);
        const char *head = strstr(out, "\n# name ");
        CHECK(head != NULL);
        if (!head)
            continue;
        head++;
        const char *unit = strstr(head, " unit "), *counts =
                                                       strstr(head, " counts");
        CHECK(unit && counts);
        if (!unit || !counts)
            continue;
        size_t u = (size_t)(unit + 1 - head), c = (size_t)(counts + 1 - head);
        size_t longest = 0, bad = 0, lines = 0;
        for (const char *p = strchr(head, '\n') + 1; *p;) {
            const char *eol = strchr(p, '\n');
            size_t len = eol ? (size_t)(eol - p) : strlen(p);
            if (*p != '#') {
                size_t name = strcspn(p, " ");
                longest = name > longest ? name : longest;
                lines++;
                if (!(len > c && p[u - 1] == ' ' && p[u] != ' ' &&
                      p[c - 1] == ' ' && p[c] != ' ')) {
                    if (bad++ == 0)
                        fprintf(stderr, "  %s: not in the header's "
                                "columns (%zu, %zu):\n%.*s\n", systems[s],
                                u, c, (int)len, p);
                }
            }
            if (!eol)
                break;
            p = eol + 1;
        }
        CHECK(lines > 100);
        CHECK(u > longest);
        CHECK_EQ_U(bad, 0);
    }
}

const struct test_case tests_input[] = {
    TEST(test_input_wide_literal_in_include),
    TEST(test_input_wide_value_range_checked),
    TEST(test_input_wide_literal_run),
    TEST(test_input_nested_include_relative),
    TEST(test_input_missing_include_named),
    TEST(test_input_include_cycle),
    TEST(test_input_not_regular_refused),
    TEST(test_input_size_limit),
    TEST(test_input_run_not_regular),
    TEST(test_input_duplicate_traffic),
    TEST(test_input_duplicate_variants),
    TEST(test_input_duplicate_impact),
    TEST(test_input_duplicate_metrics),
    TEST(test_input_counters_columns),
    { 0 },
};
