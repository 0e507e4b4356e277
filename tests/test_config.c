/* tests/test_config.c — experiment files read through schemas (core/config).
 *
 * Every test reads a small text through the schema below and asserts on the
 * exact diagnostics, line numbers included: a message that names the wrong
 * line, key or file fails. Diagnostics go to an open_memstream buffer. */
#include "test.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"

/* ---- the schema under test ----------------------------------------------- */

struct t_inner {
    int64_t depth;
    bool on;
};

struct t_conf {
    int64_t count;                /* required, [1, 64] */
    int64_t offset;               /* any integer */
    uint32_t seed;                /* [0, UINT32_MAX] */
    uint32_t ports;               /* [2, 8] */
    double load;                  /* [0, 1] */
    double scale;                 /* any finite number */
    bool verbose;
    const char *label;
    const char *mode;             /* one of mode_choices */
    const struct reg_entry *algo; /* a name in t_registry */
    struct t_inner inner;
};

static const struct reg_entry t_min = { "min", "minimal paths" };
static const struct reg_entry t_valiant = { "valiant", "random detour" };
static const struct reg_entry *const t_entries[] = { &t_min, &t_valiant };
static const struct registry t_registry = {
    .kind = "routing",
    .help = "test routing algorithms",
    .entries = t_entries,
    .n = 2,
};

static const char *const mode_choices[] = { "fast", "exact", NULL };

static const struct cfg_key inner_schema[] = {
    { .name = "depth", .type = CFG_INT, .min = 0, .max = 9, .required = true,
      .offset = offsetof(struct t_inner, depth), .help = "nesting depth" },
    { .name = "on", .type = CFG_BOOL,
      .offset = offsetof(struct t_inner, on), .help = "switch" },
    { .type = CFG_END },
};

static const struct cfg_key t_schema[] = {
    { .name = "count", .type = CFG_INT, .min = 1, .max = 64, .required = true,
      .offset = offsetof(struct t_conf, count), .help = "how many" },
    { .name = "offset", .type = CFG_INT,
      .offset = offsetof(struct t_conf, offset), .help = "signed shift" },
    { .name = "seed", .type = CFG_UINT32,
      .offset = offsetof(struct t_conf, seed), .help = "random seed" },
    { .name = "ports", .type = CFG_UINT32, .min = 2, .max = 8,
      .offset = offsetof(struct t_conf, ports), .help = "ports" },
    { .name = "load", .type = CFG_FLOAT, .fmin = 0, .fmax = 1,
      .offset = offsetof(struct t_conf, load), .help = "offered load" },
    { .name = "scale", .type = CFG_FLOAT,
      .offset = offsetof(struct t_conf, scale), .help = "factor" },
    { .name = "verbose", .type = CFG_BOOL,
      .offset = offsetof(struct t_conf, verbose), .help = "chatty" },
    { .name = "label", .type = CFG_STRING,
      .offset = offsetof(struct t_conf, label), .help = "a name" },
    { .name = "mode", .type = CFG_CHOICE, .choices = mode_choices,
      .offset = offsetof(struct t_conf, mode), .help = "speed or accuracy" },
    { .name = "algo", .type = CFG_NAME, .reg = &t_registry,
      .offset = offsetof(struct t_conf, algo), .help = "routing" },
    { .name = "inner", .type = CFG_GROUP, .sub = inner_schema,
      .offset = offsetof(struct t_conf, inner), .help = "nested part" },
    { .type = CFG_END },
};

#define ACCEPTED                                                             \
    "count, offset, seed, ports, load, scale, verbose, label, mode, algo, "  \
    "inner"

static const char *const t_sections[] = { "sys", "other", NULL };

static void t_defaults(struct t_conf *c)
{
    *c = (struct t_conf){
        .count = 4, .offset = -1, .seed = 7, .ports = 4, .load = 0.5,
        .scale = 2.0, .verbose = false, .label = "none", .mode = "fast",
        .algo = &t_min, .inner = { .depth = 1, .on = false },
    };
}

/* ---- capturing diagnostics ----------------------------------------------- */


/* Parse `text` as "t.cfg", check its sections and read section "sys" into
 * conf (defaults first). Returns the open file (NULL on a parse error). */
static struct cfg_file *read_sys(const char *text, struct t_conf *conf,
                                 struct capture *c)
{
    t_defaults(conf);
    struct cfg_file *f = cfg_open_string("t.cfg", text, &c->d);
    if (!f)
        return NULL;
    cfg_check_sections(f, t_sections, &c->d);
    cfg_read(f, cfg_section(f, "sys"), "sys", t_schema, conf, NULL, &c->d);
    return f;
}

/* Read `text` and expect exactly one error, the line `want`. */
static void expect_one(const char *text, const char *want)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    cfg_close(read_sys(text, &conf, &c));
    CHECK_EQ_U(c.d.errors, 1);
    CHECK_STR_CONTAINS(cap_text(&c), want);
    cap_free(&c);
}

/* ---- valid files --------------------------------------------------------- */

static void test_valid_fills_every_field(void)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    struct cfg_file *f = read_sys(
        "# a comment\n"
        "sys = {\n"
        "  count = 64;      // upper bound is inclusive\n"
        "  offset = -5000000000L;\n"
        "  seed = 4294967295L;\n"
        "  ports = 2;\n"
        "  load = 1;        /* an integer is a number */\n"
        "  scale = -2.5e3;\n"
        "  verbose = true;\n"
        "  label = \"run \\\"one\\\"\";\n"
        "  mode = \"exact\";\n"
        "  algo = \"valiant\";\n"
        "  inner = { depth = 9; on = true; };\n"
        "};\n"
        "other = { anything = 1; };\n",
        &conf, &c);
    CHECK(f != NULL);
    CHECK_EQ_U(c.d.errors, 0);
    CHECK(strcmp(cap_text(&c), "") == 0);
    CHECK(conf.count == 64);
    CHECK(conf.offset == -5000000000LL);
    CHECK_EQ_U(conf.seed, 4294967295u);
    CHECK_EQ_U(conf.ports, 2);
    CHECK_NEAR(conf.load, 1.0, 0);
    CHECK_NEAR(conf.scale, -2500.0, 0);
    CHECK(conf.verbose);
    CHECK(conf.label && strcmp(conf.label, "run \"one\"") == 0);
    CHECK(conf.mode && strcmp(conf.mode, "exact") == 0);
    CHECK(conf.algo == &t_valiant);
    CHECK(conf.inner.depth == 9);
    CHECK(conf.inner.on);
    CHECK_EQ_U(cfg_line(cfg_section(f, "other")), 15);
    CHECK(strcmp(cfg_path(f), "t.cfg") == 0);
    cfg_close(f);
    cap_free(&c);
}

static void test_absent_keys_keep_defaults(void)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    struct cfg_file *f = read_sys("sys = {\n  count = 3;\n  inner = { depth "
                                  "= 2; };\n};\n",
                                  &conf, &c);
    CHECK(f != NULL);
    CHECK_EQ_U(c.d.errors, 0);
    CHECK(conf.count == 3);
    CHECK(conf.offset == -1);
    CHECK_EQ_U(conf.seed, 7);
    CHECK_EQ_U(conf.ports, 4);
    CHECK_NEAR(conf.load, 0.5, 0);
    CHECK_NEAR(conf.scale, 2.0, 0);
    CHECK(!conf.verbose);
    CHECK(strcmp(conf.label, "none") == 0);
    CHECK(strcmp(conf.mode, "fast") == 0);
    CHECK(conf.algo == &t_min);
    CHECK(conf.inner.depth == 2);
    CHECK(!conf.inner.on);
    cfg_close(f);
    cap_free(&c);
}

/* A bad value leaves the default in place. */
static void test_bad_value_keeps_default(void)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    cfg_close(read_sys("sys = { count = 99; mode = \"slow\"; load = 2.0; "
                       "seed = -1; algo = \"x\"; };\n",
                       &conf, &c));
    CHECK_EQ_U(c.d.errors, 5);
    CHECK(conf.count == 4);
    CHECK(strcmp(conf.mode, "fast") == 0);
    CHECK_NEAR(conf.load, 0.5, 0);
    CHECK_EQ_U(conf.seed, 7);
    CHECK(conf.algo == &t_min);
    cap_free(&c);
}

/* ---- unknown keys and sections ------------------------------------------- */

static void test_unknown_key(void)
{
    expect_one("sys = {\n"
               "  count = 2;\n"
               "\n"
               "  cuont = 3;\n"
               "};\n",
               "t.cfg:4: error: unknown key \"sys.cuont\"; accepted keys: "
               ACCEPTED "\n");
}

static void test_unknown_key_nested(void)
{
    expect_one("sys = {\n"
               "  count = 2;\n"
               "  inner = {\n"
               "    depth = 1;\n"
               "    deep = 2;\n"
               "  };\n"
               "};\n",
               "t.cfg:5: error: unknown key \"sys.inner.deep\"; accepted "
               "keys: depth, on\n");
}

/* Keys in `skip` are neither read nor reported, and are listed as
 * accepted. */
static void test_skip_keys(void)
{
    static const char *const skip[] = { "type", NULL };
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    t_defaults(&conf);
    struct cfg_file *f = cfg_open_string(
        "t.cfg", "sys = {\n count = 2;\n type = \"x\";\n typo = 1;\n};\n",
        &c.d);
    CHECK(f != NULL);
    int n = cfg_read(f, cfg_section(f, "sys"), "sys", t_schema, &conf, skip,
                     &c.d);
    CHECK_EQ_U(n, 1);
    CHECK_STR_CONTAINS(cap_text(&c), "t.cfg:4: error: unknown key "
                                     "\"sys.typo\"; accepted keys: " ACCEPTED
                                     ", type\n");
    CHECK(conf.count == 2);
    cfg_close(f);
    cap_free(&c);
}

static void test_unknown_section(void)
{
    expect_one("sys = { count = 1; };\n"
               "other = {};\n"
               "systm = { count = 1; };\n",
               "t.cfg:3: error: unknown section \"systm\"; accepted "
               "sections: sys, other\n");
}

/* ---- wrong types --------------------------------------------------------- */

static void test_wrong_type_each(void)
{
    static const struct {
        const char *value, *want;
    } cases[] = {
        { "count = \"3\";", "t.cfg:3: error: sys.count: expected an "
                            "integer, got a string\n" },
        { "count = 3.0;", "t.cfg:3: error: sys.count: expected an integer, "
                          "got a float\n" },
        { "seed = true;", "t.cfg:3: error: sys.seed: expected an integer, "
                          "got a boolean\n" },
        { "load = \"0.5\";", "t.cfg:3: error: sys.load: expected a number, "
                             "got a string\n" },
        { "scale = [1.0, 2.0];", "t.cfg:3: error: sys.scale: expected a "
                                 "number, got an array\n" },
        { "verbose = 1;", "t.cfg:3: error: sys.verbose: expected true or "
                          "false, got an integer\n" },
        { "verbose = \"yes\";", "t.cfg:3: error: sys.verbose: expected true "
                                "or false, got a string\n" },
        { "label = 5;", "t.cfg:3: error: sys.label: expected a string, got "
                        "an integer\n" },
        { "label = (\"a\", 1);", "t.cfg:3: error: sys.label: expected a "
                                 "string, got a list\n" },
        { "mode = 1;", "t.cfg:3: error: sys.mode: expected one of (fast, "
                       "exact), got an integer\n" },
        { "algo = { x = 1; };", "t.cfg:3: error: sys.algo: expected a "
                                "routing name (min, valiant), got a "
                                "group\n" },
        { "inner = 1;", "t.cfg:3: error: sys.inner: expected a group { ... "
                        "}, got an integer\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "sys = {\n  count = 1;\n  %s\n};\n",
                 cases[i].value);
        if (strncmp(cases[i].value, "count", 5) == 0)
            snprintf(text, sizeof text, "sys = {\n\n  %s\n};\n",
                     cases[i].value);
        struct capture c;
        struct t_conf conf;
        cap_init(&c);
        cfg_close(read_sys(text, &conf, &c));
        CHECK_EQ_U(c.d.errors, 1);
        CHECK_STR_CONTAINS(cap_text(&c), cases[i].want);
        cap_free(&c);
    }
}

static void test_section_not_a_group(void)
{
    expect_one("\nsys = 5;\n",
               "t.cfg:2: error: sys: expected a group { ... }, got an "
               "integer\n");
}

/* ---- ranges -------------------------------------------------------------- */

static void test_int_out_of_range(void)
{
    expect_one("sys = {\n  count = 99;\n};\n",
               "t.cfg:2: error: sys.count: value 99 is out of range; "
               "expected an integer in [1, 64]\n");
    expect_one("sys = {\n  count = 0;\n};\n",
               "t.cfg:2: error: sys.count: value 0 is out of range; "
               "expected an integer in [1, 64]\n");
    expect_one("sys = {\n  count = 1;\n  inner = { depth = -1; };\n};\n",
               "t.cfg:3: error: sys.inner.depth: value -1 is out of range; "
               "expected an integer in [0, 9]\n");
}

static void test_uint32_negative(void)
{
    expect_one("sys = {\n  count = 1;\n  seed = -1;\n};\n",
               "t.cfg:3: error: sys.seed: value -1 is out of range; "
               "expected an integer in [0, 4294967295]\n");
}

static void test_uint32_too_large(void)
{
    expect_one("sys = {\n  count = 1;\n  seed = 4294967296L;\n};\n",
               "t.cfg:3: error: sys.seed: value 4294967296 is out of range; "
               "expected an integer in [0, 4294967295]\n");
    expect_one("sys = {\n  count = 1;\n  ports = 9;\n};\n",
               "t.cfg:3: error: sys.ports: value 9 is out of range; "
               "expected an integer in [2, 8]\n");
}

static void test_float_out_of_range(void)
{
    expect_one("sys = {\n  count = 1;\n  load = 1.5;\n};\n",
               "t.cfg:3: error: sys.load: value 1.5 is out of range; "
               "expected a number in [0, 1]\n");
    expect_one("sys = {\n  count = 1;\n  load = -1;\n};\n",
               "t.cfg:3: error: sys.load: value -1 is out of range; "
               "expected a number in [0, 1]\n");
}

/* libconfig reads 1e999 as infinity; an unbounded float still rejects it. */
static void test_float_not_finite(void)
{
    expect_one("sys = {\n  count = 1;\n  scale = -1e999;\n};\n",
               "t.cfg:3: error: sys.scale: value -inf is out of range; "
               "expected a finite number\n");
}

/* libconfig 1.5 wraps integers past 32 bits written without L; dfsim
 * reports the literal instead of reading the wrapped value. */
static void test_wide_literal_needs_L(void)
{
    expect_one("sys = {\n  count = 1;\n  offset = 5000000000;\n};\n",
               "t.cfg:3: error: integer 5000000000 does not fit in 32 bits; "
               "write 5000000000L for a 64-bit integer\n");
    expect_one("sys = {\n  count = 1;\n  seed = 0xffffffff;\n};\n",
               "t.cfg:3: error: integer 0xffffffff does not fit in 32 bits; "
               "write 0xffffffffL for a 64-bit integer\n");
    expect_one("sys = {\n  count = 1;\n  offset = -2147483649;\n};\n",
               "t.cfg:3: error: integer -2147483649 does not fit in 32 "
               "bits; write -2147483649L for a 64-bit integer\n");
    expect_one("sys = {\n  count = 1;\n  offset = 99999999999999999999L;\n"
               "};\n",
               "t.cfg:3: error: integer 99999999999999999999L does not fit "
               "in 64 bits\n");
}

/* Digits in strings, comments and names, floats and the 32-bit limits
 * themselves are not mistaken for wide literals. */
static void test_wide_literal_scan_is_lexical(void)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    struct cfg_file *f = read_sys(
        "# 5000000000\n"
        "sys = {\n"
        "  count = 1; // 5000000000\n"
        "  /* 5000000000\n"
        "     99999999999 */\n"
        "  label = \"5000000000 \\\" 6000000000\";\n"
        "  offset = -2147483648;\n"
        "  scale = 50000000000.0;\n"
        "};\n"
        "other = { x5000000000 = 1; y = 2147483647; z = 0x7fffffff; "
        "w = 1e10; v = .50000000000; };\n",
        &conf, &c);
    CHECK(f != NULL);
    CHECK_EQ_U(c.d.errors, 0);
    CHECK(strcmp(cap_text(&c), "") == 0);
    CHECK(conf.offset == INT32_MIN);
    CHECK_NEAR(conf.scale, 5e10, 0);
    cfg_close(f);
    cap_free(&c);
}

/* ---- choices and names --------------------------------------------------- */

static void test_unknown_choice(void)
{
    expect_one("sys = {\n  count = 1;\n  mode = \"slow\";\n};\n",
               "t.cfg:3: error: sys.mode: \"slow\" is not one of: fast, "
               "exact\n");
}

static void test_unregistered_name(void)
{
    expect_one("sys = {\n  count = 1;\n\n  algo = \"ugal-g\";\n};\n",
               "t.cfg:4: error: sys.algo: routing \"ugal-g\" is not "
               "registered; known: min, valiant\n");
}

/* ---- required keys ------------------------------------------------------- */

static void test_missing_required_key(void)
{
    expect_one("\n\nsys = {\n  load = 0.1;\n};\n",
               "t.cfg:3: error: missing required key \"sys.count\"\n");
    expect_one("sys = {\n  count = 1;\n  inner = {\n    on = true;\n  };\n"
               "};\n",
               "t.cfg:3: error: missing required key \"sys.inner.depth\"\n");
}

/* An absent section has no line; its required keys are reported at the
 * file. */
static void test_missing_section(void)
{
    expect_one("other = {};\n",
               "t.cfg: error: missing required key \"sys.count\"\n");
}

/* ---- parse errors and files ---------------------------------------------- */

static void test_syntax_error(void)
{
    struct capture c;
    cap_init(&c);
    const char *path = write_temp("syntax.cfg", "sys = {\n"
                                                "  count = 1;\n"
                                                "  load = ;\n"
                                                "};\n");
    CHECK(path != NULL);
    struct cfg_file *f = cfg_open(path, &c.d);
    CHECK(f == NULL);
    CHECK_EQ_U(c.d.errors, 1);
    char want[512];
    snprintf(want, sizeof want, "%s:3: error: syntax error\n", path);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);
    unlink(path);
}

/* libconfig itself rejects a key given twice; the message has the line of
 * the second one. */
static void test_duplicate_key(void)
{
    struct capture c;
    cap_init(&c);
    const char *path = write_temp("dup.cfg", "sys = {\n"
                                             "  count = 1;\n"
                                             "  load = 0.2;\n"
                                             "  count = 2;\n"
                                             "};\n");
    CHECK(path != NULL);
    struct cfg_file *f = cfg_open(path, &c.d);
    CHECK(f == NULL);
    CHECK_EQ_U(c.d.errors, 1);
    char want[512];
    snprintf(want, sizeof want, "%s:4: error: duplicate setting name\n",
             path);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);
    unlink(path);
    expect_one("sys = { count = 1; };\nsys = { count = 2; };\n",
               "t.cfg:2: error: duplicate setting name\n");
}

static void test_unreadable_file(void)
{
    struct capture c;
    cap_init(&c);
    CHECK(cfg_open("/nonexistent/dfsim/exp.cfg", &c.d) == NULL);
    CHECK(cfg_open("/tmp", &c.d) == NULL);
    CHECK_EQ_U(c.d.errors, 2);
    CHECK(strcmp(cap_text(&c),
                 "/nonexistent/dfsim/exp.cfg: error: cannot read: No such "
                 "file or directory\n"
                 "/tmp: error: cannot read: a directory; expected a "
                 "regular file of at most 16777216 bytes\n") == 0);
    cap_free(&c);
}

/* A NUL byte would end libconfig's reading silently; it is an error. */
static void test_nul_byte(void)
{
    struct capture c;
    cap_init(&c);
    const char *path = write_temp("nul.cfg", "sys = {\n  count = 1;\n");
    CHECK(path != NULL);
    FILE *out = fopen(path, "a");
    CHECK(out != NULL);
    if (out) {
        fputs("  x", out);
        fputc('\0', out);
        fputs("\n};\n", out);
        fclose(out);
    }
    CHECK(cfg_open(path, &c.d) == NULL);
    char want[512];
    snprintf(want, sizeof want,
             "%s:3: error: the file contains a NUL byte (not a text "
             "file?)\n",
             path);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);
    unlink(path);
}

/* @include finds its file next to the including one, and a mistake inside
 * the included file names that file. */
static void test_include_names_its_file(void)
{
    char inc_name[64], main_text[256], want[512];
    snprintf(inc_name, sizeof inc_name, "dfsim-test-%d-part.cfg",
             (int)getpid());
    const char *part = write_temp("part.cfg", "\n  bogus = 1;\n");
    snprintf(main_text, sizeof main_text,
             "sys = {\n  count = 1;\n  @include \"%s\"\n};\n", inc_name);
    const char *path = write_temp("main.cfg", main_text);
    CHECK(part != NULL && path != NULL);

    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    t_defaults(&conf);
    struct cfg_file *f = cfg_open(path, &c.d);
    CHECK(f != NULL);
    if (f) {
        cfg_read(f, cfg_section(f, "sys"), "sys", t_schema, &conf, NULL,
                 &c.d);
        cfg_close(f);
    }
    CHECK_EQ_U(c.d.errors, 1);
    snprintf(want, sizeof want, "%s:2: error: unknown key \"sys.bogus\"",
             part);
    CHECK_STR_CONTAINS(cap_text(&c), want);
    cap_free(&c);

    /* A syntax error inside the included file names it too. */
    write_temp("part.cfg", "\n  bogus = ;\n");
    cap_init(&c);
    CHECK(cfg_open(path, &c.d) == NULL);
    CHECK_EQ_U(c.d.errors, 1);
    snprintf(want, sizeof want, "%s:2: error: syntax error\n", part);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);
    unlink(part);
    unlink(path);
}

/* @include of something that is not a regular file: libconfig 1.5's
 * scanner would end the process on a directory ("input in flex scanner
 * failed", exit status 2) and wait forever on a FIFO; it is reported, with
 * the including file and line, before it is read — also from an included
 * file (looked up next to it), and not from a commented-out line. */
static void test_include_not_a_regular_file(void)
{
    char sub[64], dir[128], main_text[512], want[512];
    snprintf(sub, sizeof sub, "dfsim-test-%d-dir", (int)getpid());
    snprintf(dir, sizeof dir, "/tmp/%s", sub);
    CHECK(mkdir(dir, 0700) == 0);
    snprintf(main_text, sizeof main_text,
             "/* @include \"%s\"\n"
             "   @include \"%s\" */\n"
             "sys = {\n  count = 1;\n  @include \"%s\"\n};\n",
             sub, sub, sub);
    const char *path = write_temp("main.cfg", main_text);
    CHECK(path != NULL);
    struct capture c;
    cap_init(&c);
    CHECK(cfg_open(path, &c.d) == NULL);
    CHECK_EQ_U(c.d.errors, 1);
    snprintf(want, sizeof want,
             "%s:5: error: @include \"%s\": %s is a directory; expected a "
             "regular file of at most 16777216 bytes\n",
             path, sub, dir);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);

    /* one level down: the included file names it */
    char part[64];
    snprintf(part, sizeof part, "dfsim-test-%d-part.cfg", (int)getpid());
    snprintf(main_text, sizeof main_text, "count = 1;\n  \t@include \"%s\"\n",
             sub);
    const char *ppath = write_temp("part.cfg", main_text);
    snprintf(main_text, sizeof main_text, "@include \"%s\"\n", part);
    path = write_temp("main.cfg", main_text);
    CHECK(ppath != NULL && path != NULL);
    cap_init(&c);
    CHECK(cfg_open(path, &c.d) == NULL);
    CHECK_EQ_U(c.d.errors, 1);
    snprintf(want, sizeof want, "%s:2: error: @include \"%s\": %s is a "
             "directory; expected a regular file of at most 16777216 "
             "bytes\n", ppath, sub, dir);
    CHECK(strcmp(cap_text(&c), want) == 0);
    cap_free(&c);
    unlink(ppath);
    unlink(path);
    rmdir(dir);
}

/* ---- several errors ------------------------------------------------------ */

static void test_all_errors_reported(void)
{
    struct capture c;
    struct t_conf conf;
    cap_init(&c);
    const char *path = write_temp("many.cfg", "sys = {\n"
                                              "  count = 100;\n"
                                              "  seed = -3;\n"
                                              "  verbose = 1;\n"
                                              "  colour = \"red\";\n"
                                              "  algo = \"ugal\";\n"
                                              "  inner = { on = 2; };\n"
                                              "};\n"
                                              "extra = {};\n");
    struct cfg_file *f = cfg_open(path, &c.d);
    CHECK(f != NULL);
    if (f) {
        t_defaults(&conf);
        CHECK_EQ_U(cfg_check_sections(f, t_sections, &c.d), 1);
        CHECK_EQ_U(cfg_read(f, cfg_section(f, "sys"), "sys", t_schema, &conf,
                            NULL, &c.d),
                   7);
        cfg_close(f);
    }
    CHECK_EQ_U(c.d.errors, 8);
    const char *lines[] = {
        ":9: error: unknown section \"extra\"",
        ":2: error: sys.count: value 100 is out of range",
        ":3: error: sys.seed: value -3 is out of range",
        ":4: error: sys.verbose: expected true or false, got an integer",
        ":5: error: unknown key \"sys.colour\"",
        ":6: error: sys.algo: routing \"ugal\" is not registered",
        ":7: error: sys.inner.on: expected true or false, got an integer",
        ":7: error: missing required key \"sys.inner.depth\"",
    };
    /* In this order, each once. */
    const char *text = cap_text(&c);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char want[256];
        snprintf(want, sizeof want, "%s%s", path, lines[i]);
        const char *at = strstr(text, want);
        CHECK_STR_CONTAINS(text, want);
        if (at)
            text = at + strlen(want);
    }
    cap_free(&c);
    unlink(path);
}

/* ---- lists --------------------------------------------------------------- */

struct l_conf {
    struct cfg_floats loads;
    struct cfg_names algos;
};

static const struct cfg_key l_schema[] = {
    { .name = "loads", .type = CFG_FLOATS, .fmin = 0, .fmax = 1,
      .offset = offsetof(struct l_conf, loads), .help = "offered loads" },
    { .name = "algos", .type = CFG_NAMES, .reg = &t_registry,
      .offset = offsetof(struct l_conf, algos), .help = "routings" },
    { .type = CFG_END },
};

/* Read `text`'s section "sys" through l_schema; defaults: loads [0.5],
 * algos [min]. Returns the number of errors; the messages are in c. */
static int read_lists(const char *text, struct l_conf *conf,
                      struct capture *c)
{
    memset(conf, 0, sizeof *conf);
    conf->loads.n = 1;
    conf->loads.v[0] = 0.5;
    conf->algos.n = 1;
    conf->algos.v[0] = &t_min;
    struct cfg_file *f = cfg_open_string("t.cfg", text, &c->d);
    if (!f)
        return -1;
    cfg_read(f, cfg_section(f, "sys"), "sys", l_schema, conf, NULL, &c->d);
    /* the stored file names live as long as f: check them now */
    if (conf->loads.file)
        CHECK(strcmp(conf->loads.file, "t.cfg") == 0);
    cfg_close(f);
    return c->d.errors;
}

static void test_list_valid(void)
{
    struct capture c;
    struct l_conf conf;
    cap_init(&c);
    CHECK_EQ_U(read_lists("sys = {\n"
                          "  loads = [0.1, 0.5,\n"
                          "           1.0];\n"
                          "  algos = [\"valiant\",\n"
                          "           \"min\"];\n"
                          "};\n",
                          &conf, &c),
               0);
    CHECK_EQ_U(conf.loads.n, 3);
    CHECK_NEAR(conf.loads.v[0], 0.1, 0);
    CHECK_NEAR(conf.loads.v[1], 0.5, 0);
    CHECK_NEAR(conf.loads.v[2], 1.0, 0);
    CHECK_EQ_U(conf.loads.line, 2);
    CHECK_EQ_U(conf.algos.n, 2);
    CHECK(conf.algos.v[0] == &t_valiant && conf.algos.v[1] == &t_min);
    CHECK_EQ_U(conf.algos.line[0], 4);
    CHECK_EQ_U(conf.algos.line[1], 5);
    CHECK(strcmp(cap_text(&c), "") == 0);
    cap_free(&c);

    /* a libconfig list ( ... ) may mix integers and floats; one scalar is
     * a list of one */
    cap_init(&c);
    CHECK_EQ_U(read_lists("sys = { loads = (0.25, 1); algos = \"valiant\"; "
                          "};\n",
                          &conf, &c),
               0);
    CHECK_EQ_U(conf.loads.n, 2);
    CHECK_NEAR(conf.loads.v[0], 0.25, 0);
    CHECK_NEAR(conf.loads.v[1], 1.0, 0);
    CHECK_EQ_U(conf.algos.n, 1);
    CHECK(conf.algos.v[0] == &t_valiant);
    cap_free(&c);

    cap_init(&c);
    CHECK_EQ_U(read_lists("sys = { loads = 0.75; };\n", &conf, &c), 0);
    CHECK_EQ_U(conf.loads.n, 1);
    CHECK_NEAR(conf.loads.v[0], 0.75, 0);
    CHECK_EQ_U(conf.algos.n, 1); /* absent: the default */
    CHECK(conf.algos.v[0] == &t_min);
    cap_free(&c);

    /* as many as CFG_LIST_MAX */
    char text[2048] = "sys = { loads = [";
    for (int i = 0; i < CFG_LIST_MAX; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s0.%d",
                 i ? ", " : "", i % 10);
    snprintf(text + strlen(text), sizeof text - strlen(text), "]; };\n");
    cap_init(&c);
    CHECK_EQ_U(read_lists(text, &conf, &c), 0);
    CHECK_EQ_U(conf.loads.n, CFG_LIST_MAX);
    CHECK_NEAR(conf.loads.v[CFG_LIST_MAX - 1], 0.3, 1e-12);
    cap_free(&c);
}

/* Each mistake in a list: one message naming the element and its line;
 * the list keeps its default. */
static void test_list_errors(void)
{
    static const struct {
        const char *text, *want;
        int errors;
    } cases[] = {
        { "sys = {\n  loads = [];\n};\n",
          "t.cfg:2: error: sys.loads: expected at least one value, got an "
          "empty array\n", 1 },
        { "sys = {\n  loads = ();\n};\n",
          "t.cfg:2: error: sys.loads: expected at least one value, got an "
          "empty list\n", 1 },
        { "sys = {\n  loads = (0.1,\n    \"x\");\n};\n",
          "t.cfg:3: error: sys.loads[1]: expected a number, got a string\n",
          1 },
        { "sys = {\n  loads = [0.1,\n   0.2,\n   1.5];\n};\n",
          "t.cfg:4: error: sys.loads[2]: value 1.5 is out of range; "
          "expected a number in [0, 1]\n", 1 },
        { "sys = {\n  loads = -0.5;\n};\n",
          "t.cfg:2: error: sys.loads: value -0.5 is out of range; expected "
          "a number in [0, 1]\n", 1 },
        { "sys = {\n  loads = \"high\";\n};\n",
          "t.cfg:2: error: sys.loads: expected a list of numbers, got a "
          "string\n", 1 },
        { "sys = {\n  loads = { a = 1; };\n};\n",
          "t.cfg:2: error: sys.loads: expected a list of numbers, got a "
          "group\n", 1 },
        { "sys = {\n  loads = ([0.1], 0.2);\n};\n",
          "t.cfg:2: error: sys.loads[0]: expected a number, got an array\n",
          1 },
        { "sys = {\n  algos = [\"min\",\n  \"ugal-g\"];\n};\n",
          "t.cfg:3: error: sys.algos[1]: routing \"ugal-g\" is not "
          "registered; known: min, valiant\n", 1 },
        { "sys = {\n  algos = 3;\n};\n",
          "t.cfg:2: error: sys.algos: expected a list of routing names "
          "(min, valiant), got an integer\n", 1 },
        { "sys = {\n  algos = [1, 2];\n};\n",
          "t.cfg:2: error: sys.algos[1]: expected a routing name (min, "
          "valiant), got an integer\n", 2 },
        { "sys = {\n  algos = \"mni\";\n};\n",
          "t.cfg:2: error: sys.algos: routing \"mni\" is not registered; "
          "known: min, valiant\n", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct capture c;
        struct l_conf conf;
        cap_init(&c);
        CHECK_EQ_U(read_lists(cases[i].text, &conf, &c), cases[i].errors);
        CHECK_STR_CONTAINS(cap_text(&c), cases[i].want);
        CHECK_EQ_U(conf.loads.n, 1);
        CHECK_NEAR(conf.loads.v[0], 0.5, 0);
        CHECK_EQ_U(conf.algos.n, 1);
        CHECK(conf.algos.v[0] == &t_min);
        cap_free(&c);
    }

    /* one more than CFG_LIST_MAX */
    char text[2048] = "sys = {\n  loads = [";
    for (int i = 0; i <= CFG_LIST_MAX; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s0.5",
                 i ? ", " : "");
    snprintf(text + strlen(text), sizeof text - strlen(text), "];\n};\n");
    struct capture c;
    struct l_conf conf;
    cap_init(&c);
    CHECK_EQ_U(read_lists(text, &conf, &c), 1);
    char want[128];
    snprintf(want, sizeof want, "t.cfg:2: error: sys.loads: %d values are "
             "too many; expected at most %d\n", CFG_LIST_MAX + 1,
             CFG_LIST_MAX);
    CHECK_STR_CONTAINS(cap_text(&c), want);
    CHECK_EQ_U(conf.loads.n, 1);
    cap_free(&c);
}

static void test_list_print_schema(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    cfg_print_schema(out, "sys", l_schema, 2);
    fclose(out);
    CHECK_STR_CONTAINS(buf, "  sys.loads  list of numbers in [0, 1]  "
                            "offered loads\n");
    CHECK_STR_CONTAINS(buf, "  sys.algos  list of routing names (min, "
                            "valiant)  routings\n");
    free(buf);
}

/* ---- documentation ------------------------------------------------------- */

static void test_print_schema(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    cfg_print_schema(out, "sys", t_schema, 2);
    fclose(out);
    CHECK_STR_CONTAINS(buf, "  sys.count        integer in [1, 64], "
                            "required  how many\n");
    CHECK_STR_CONTAINS(buf, "  sys.seed         integer in [0, 4294967295]"
                            "  random seed\n");
    CHECK_STR_CONTAINS(buf, "  sys.offset       integer  signed shift\n");
    CHECK_STR_CONTAINS(buf, "  sys.load         number in [0, 1]  offered "
                            "load\n");
    CHECK_STR_CONTAINS(buf, "  sys.verbose      true or false  chatty\n");
    CHECK_STR_CONTAINS(buf, "  sys.mode         one of (fast, exact)  speed "
                            "or accuracy\n");
    CHECK_STR_CONTAINS(buf, "  sys.algo         routing name (min, valiant)"
                            "  routing\n");
    CHECK_STR_CONTAINS(buf, "  sys.inner        group { ... }  nested part\n"
                            "  sys.inner.depth  integer in [0, 9], required"
                            "  nesting depth\n");
    size_t lines = 0;
    for (const char *p = buf; p && *p; p++)
        lines += *p == '\n';
    CHECK_EQ_U(lines, 13);
    free(buf);
}

const struct test_case tests_config[] = {
    TEST(test_valid_fills_every_field),
    TEST(test_absent_keys_keep_defaults),
    TEST(test_bad_value_keeps_default),
    TEST(test_unknown_key),
    TEST(test_unknown_key_nested),
    TEST(test_skip_keys),
    TEST(test_unknown_section),
    TEST(test_wrong_type_each),
    TEST(test_section_not_a_group),
    TEST(test_int_out_of_range),
    TEST(test_uint32_negative),
    TEST(test_uint32_too_large),
    TEST(test_float_out_of_range),
    TEST(test_float_not_finite),
    TEST(test_wide_literal_needs_L),
    TEST(test_wide_literal_scan_is_lexical),
    TEST(test_unknown_choice),
    TEST(test_unregistered_name),
    TEST(test_missing_required_key),
    TEST(test_missing_section),
    TEST(test_syntax_error),
    TEST(test_duplicate_key),
    TEST(test_unreadable_file),
    TEST(test_nul_byte),
    TEST(test_include_names_its_file),
    TEST(test_include_not_a_regular_file),
    TEST(test_all_errors_reported),
    TEST(test_print_schema),
    TEST(test_list_valid),
    TEST(test_list_errors),
    TEST(test_list_print_schema),
    { 0 },
};
