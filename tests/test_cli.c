/* tests/test_cli.c — the dfsim command line, run as a program.
 *
 * Each test runs build/dfsim (or $DFSIM_BIN) with run_dfsim() and asserts
 * on the exit status AND on what was printed: usage texts, listings, and
 * for bad input the exact message — file, line, dotted key and the accepted
 * values. Bad experiment files are written with write_temp(); results go
 * into folders made with mkdtemp() and removed afterwards. The examples
 * under examples/ are found through src_path() (DFSIM_SRC).
 */
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/time.h"

/* ---- helpers --------------------------------------------------------- */

enum { CAP = 1 << 18, MAX_ARGS = 16 };

/* What the last dfsim() run printed. */
static char out[CAP], err[CAP];

/* Run dfsim with the arguments up to NULL; returns the exit status and
 * leaves stdout in `out` and stderr in `err`. */
static int dfsim(const char *first, ...)
{
    const char *argv[MAX_ARGS + 1];
    size_t n = 0;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && n < MAX_ARGS;
         a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    out[0] = err[0] = '\0';
    return run_dfsim(argv, out, sizeof out, err, sizeof err);
}

/* A fresh temporary folder; the caller removes it with rm_dir(). */
static char *temp_dir(char buf[64])
{
    snprintf(buf, 64, "/tmp/dfsim-cli-XXXXXX");
    if (!mkdtemp(buf)) {
        test_failures++;
        fprintf(stderr, "  mkdtemp: %s\n", strerror(errno));
        return NULL;
    }
    return buf;
}

/* a + "/" + b into buf */
static const char *join(char *buf, size_t cap, const char *a, const char *b)
{
    snprintf(buf, cap, "%s/%s", a, b);
    return buf;
}

/* Whole file into a malloc'd NUL-terminated string, or NULL. */
static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Does some line of text start with prefix? */
static bool has_line(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, prefix, n) == 0)
            return true;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return false;
}

/* ---- probe.csv --------------------------------------------------------- */

struct csv_stats {
    unsigned rows;            /* data rows */
    unsigned bad;             /* rows not of 6 fields or with hops != class */
    unsigned per_class[16];   /* rows per class_hops */
    double sum_ns[16];        /* summed latency per class */
};

/* Parse probe.csv text: header, then pair,class_hops,src,dst,hops,ns. */
static bool parse_probe_csv(const char *text, struct csv_stats *s)
{
    memset(s, 0, sizeof *s);
    static const char header[] = "pair,class_hops,src,dst,hops,latency_ns\n";
    if (!text || strncmp(text, header, strlen(header)) != 0)
        return false;
    for (const char *p = text + strlen(header); *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            return false; /* every row ends with a newline */
        char line[256];
        size_t len = (size_t)(eol - p);
        if (len >= sizeof line)
            return false;
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol + 1;

        const char *field[6];
        int nf = 0;
        char *q = line;
        field[nf++] = q;
        for (; *q && nf <= 6; q++)
            if (*q == ',') {
                *q = '\0';
                if (nf < 6)
                    field[nf] = q + 1;
                nf++;
            }
        s->rows++;
        if (nf != 6) {
            s->bad++;
            continue;
        }
        char *end1, *end2, *end3;
        unsigned long cls = strtoul(field[1], &end1, 10);
        unsigned long hops = strtoul(field[4], &end2, 10);
        double ns = strtod(field[5], &end3);
        if (*end1 || *end2 || *end3 || !*field[2] || !*field[3] ||
            cls != hops || cls >= 16 || !(ns > 0)) {
            s->bad++;
            continue;
        }
        s->per_class[cls]++;
        s->sum_ns[cls] += ns;
    }
    return true;
}

/* The src,dst columns of every row, joined, into buf. */
static void pair_columns(const char *text, char *buf, size_t cap)
{
    buf[0] = '\0';
    const char *p = text ? strchr(text, '\n') : NULL;
    size_t used = 0;
    while (p && *++p) {
        const char *c1 = strchr(p, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        const char *c4 = c2 ? strchr(c2 + 1, ',') : NULL;
        c4 = c4 ? strchr(c4 + 1, ',') : NULL;
        const char *eol = strchr(p, '\n');
        if (!c4 || !eol || c4 > eol)
            break;
        size_t n = (size_t)(c4 - c2);
        if (used + n + 1 >= cap)
            break;
        memcpy(buf + used, c2, n);
        used += n;
        buf[used++] = ';';
        buf[used] = '\0';
        p = eol;
    }
}

/* Run an experiment file into dir (replacing what is there); check exit 0, probe.csv (minimal paths
 * only) and topology.json. Returns probe.csv's text (caller frees). */
static char *run_ok(const char *cfg, const char *dir, const char *seed)
{
    /* --force: the tests run several experiments into one folder */
    int rc = seed ? dfsim("run", cfg, "-o", dir, "--seed", seed, "--force",
                          NULL)
                  : dfsim("run", cfg, "-o", dir, "--force", NULL);
    CHECK_EQ_U(rc, 0);
    if (rc != 0)
        fprintf(stderr, "  %s: %s", cfg, err);
    CHECK_STR_CONTAINS(out, "zero-load probe:");
    char path[1024];
    char *json = read_text(join(path, sizeof path, dir, "topology.json"));
    CHECK(json && json[0] == '{' && strstr(json, "\"routers\": "));
    free(json);
    char *csv = read_text(join(path, sizeof path, dir, "probe.csv"));
    struct csv_stats s;
    CHECK(parse_probe_csv(csv, &s));
    CHECK(s.rows > 0);
    CHECK_EQ_U(s.bad, 0);
    return csv;
}

/* ---- usage and listings ------------------------------------------------- */

static void test_help(void)
{
    CHECK_EQ_U(dfsim("--help", NULL), 0);
    CHECK(has_line(out, "usage: dfsim COMMAND"));
    CHECK(has_line(out, "  run "));
    CHECK(has_line(out, "  topo "));
    CHECK(has_line(out, "  list "));
    CHECK_EQ_U(strlen(err), 0);

    CHECK_EQ_U(dfsim("run", "--help", NULL), 0);
    CHECK(has_line(out, "usage: dfsim run FILE [-o DIR] [--seed N]"));
    CHECK_STR_CONTAINS(out, "  system.cables_per_pair ");
    CHECK_STR_CONTAINS(out, "  probe.size ");
    CHECK_EQ_U(strlen(err), 0);

    CHECK_EQ_U(dfsim("topo", "--help", NULL), 0);
    CHECK(has_line(out, "usage: dfsim topo SYSTEM [--json]"));
    CHECK_STR_CONTAINS(out, "xc-12cab");

    CHECK_EQ_U(dfsim("list", "--help", NULL), 0);
    CHECK(has_line(out, "usage: dfsim list [KIND]"));
    CHECK_STR_CONTAINS(out, "allocation");
}

/* dfsim --version (and -V) prints the release, as cli.h has it, and the
 * commit. */
static void test_version(void)
{
    CHECK_EQ_U(dfsim("--version", NULL), 0);
    CHECK_STR_CONTAINS(out, "dfsim " DFSIM_VERSION "\n");
    /* and the commit it was built from, as the library has it */
    char line[128];
    snprintf(line, sizeof line, "built from commit %s\n",
             dfsim_build() + strlen(DFSIM_VERSION " "));
    CHECK_STR_CONTAINS(out, line);
    CHECK_EQ_U(strlen(err), 0);
    CHECK_EQ_U(dfsim("-V", NULL), 0);
    CHECK_STR_CONTAINS(out, "dfsim " DFSIM_VERSION "\n");
    CHECK_EQ_U(dfsim("--help", NULL), 0);
    CHECK(has_line(out, "       dfsim --version"));
}

static void test_no_command(void)
{
    CHECK_EQ_U(dfsim(NULL), 2);
    CHECK(has_line(err, "usage: dfsim COMMAND"));
    CHECK_EQ_U(strlen(out), 0);
}

static void test_unknown_command(void)
{
    CHECK_EQ_U(dfsim("frob", NULL), 2);
    CHECK(has_line(err, "dfsim: unknown command \"frob\""));
    CHECK(has_line(err, "usage: dfsim COMMAND"));
    CHECK_EQ_U(strlen(out), 0);
}

static const char *const kinds[] = { "topology", "system", "routing",
                                     "controller", "workload", "allocation",
                                     NULL };

static const char *const systems[] = {
    "xc-12cab", "xc-12cab-full", "xc-16cab", "xc-16cab-full",
    "crystal",  "voltrino",      "cori",     "shandy",
    "malbec",   "slingshot-max", "df1056",   "cielo",
    NULL,
};

static void test_list_every_kind(void)
{
    CHECK_EQ_U(dfsim("list", NULL), 0);
    for (size_t i = 0; kinds[i]; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s — ", kinds[i]);
        CHECK(has_line(out, head));
        if (!has_line(out, head))
            fprintf(stderr, "  kind %s not listed\n", kinds[i]);
    }
    CHECK(has_line(out, "  aries "));
    CHECK(has_line(out, "  cielo "));
}

/* `dfsim counters`: every counter of a router and its NIC, by name, with
 * unit and meaning; the count line matches the lines; bad ids are refused. */
static void test_counters_list(void)
{
    CHECK_EQ_U(dfsim("counters", "xc-12cab", NULL), 0);
    CHECK(has_line(out, "# xc-12cab: router 0 (c0-0c0s0a0), NIC 0 of node "
                        "c0-0c0s0n0"));
    CHECK(has_line(out, "AR_NIC_ORB_PRF_NET_RSP_TRACK_2 "));
    CHECK(has_line(out, "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED "));
    CHECK(has_line(out, "AR_RTR_4_5_COLBUF_PERF_STALL_RS "));
    CHECK(!has_line(out, "AR_RTR_4_7_")); /* 6 groups: 5 optical tiles */
    CHECK(has_line(out, "AR_RTR_PT_5_0_INQ_PRF_INCOMING_FLIT_VC4 "));
    unsigned lines = 0, told = 0;
    for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
        if (*p != '#')
            lines++;
        else
            (void)sscanf(p, "# %u counters", &told);
        if (!strchr(p, '\n'))
            break;
    }
    CHECK(lines > 700);
    CHECK_EQ_U(lines, told);
    /* a torus router, its NIC by id; the router follows the NIC */
    CHECK_EQ_U(dfsim("counters", "cielo", "--nic", "6", NULL), 0);
    CHECK(has_line(out, "# cielo: router 3 "));
    CHECK(has_line(out, "GM_ORB_PERF_VC1_STALLED "));
    CHECK(has_line(out, "GM_5_7_TILE_PERFORMANCE_COUNTERS_5 "));
    CHECK_EQ_U(dfsim("counters", "crystal", "--router", "9999", NULL), 2);
    CHECK(has_line(err, "dfsim counters: --router \"9999\": expected an id "
                        "from 0 to"));
    CHECK_EQ_U(dfsim("counters", "crystal", "--nic", "5", "--router", "0",
                     NULL),
               2);
    /* crystal's blade 0 is a service blade: NIC 5 is on its third */
    CHECK(has_line(err, "dfsim counters: NIC 5 sits on router 2, not on "
                        "router 0"));
    CHECK_EQ_U(dfsim("counters", "nosuch", NULL), 1);
    CHECK_EQ_U(dfsim("counters", NULL), 2);
    CHECK(has_line(err, "dfsim counters: expected a system name"));
}

static void test_list_systems(void)
{
    CHECK_EQ_U(dfsim("list", "system", NULL), 0);
    CHECK(has_line(out, "system — "));
    const char *prev = out;
    for (size_t i = 0; systems[i]; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %-16s ", systems[i]);
        const char *at = strstr(out, line);
        CHECK(at != NULL);
        CHECK(!at || at > prev); /* in the order of systems.def */
        if (!at || at <= prev)
            fprintf(stderr, "  system %s missing or out of order\n",
                    systems[i]);
        if (at)
            prev = at;
    }
    CHECK(!has_line(out, "topology — "));
}

static void test_list_unknown_kind(void)
{
    CHECK_EQ_U(dfsim("list", "nosuch", NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim list: unknown kind \"nosuch\"; known: "
                            "topology system routing controller workload "
                            "allocation cc\n");
    CHECK_EQ_U(strlen(out), 0);
}

/* An allocation policy's own keys, as a workload's (issue 53's
 * left-alone list: it printed an error); an unknown one is named. */
static void test_list_allocation_keys(void)
{
    CHECK_EQ_U(dfsim("list", "allocation", "fragmented", NULL), 0);
    CHECK_STR_CONTAINS(out, "keys (in its job's group, beside allocation = "
                            "\"fragmented\"):\n");
    CHECK_STR_CONTAINS(out, "  busy ");
    CHECK_STR_CONTAINS(out, "  max_block ");
    CHECK_EQ_U(dfsim("list", "allocation", "random", NULL), 0);
    CHECK_STR_CONTAINS(out, "no keys of its own\n");
    CHECK_EQ_U(dfsim("list", "allocation", "nosuch", NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim list: unknown allocation \"nosuch\"; "
                            "known: linear,");
}

static void test_topo_unknown_system(void)
{
    CHECK_EQ_U(dfsim("topo", "nosuch", NULL), 1);
    CHECK_STR_CONTAINS(err, "\"nosuch\"");
    for (size_t i = 0; systems[i]; i++)
        CHECK_STR_CONTAINS(err, systems[i]);
    CHECK_EQ_U(strlen(out), 0);
}

static void test_topo_json(void)
{
    CHECK_EQ_U(dfsim("topo", "xc-12cab", "--json", NULL), 0);
    CHECK_STR_CONTAINS(out, "\"system\": \"xc-12cab\"");
    CHECK_STR_CONTAINS(out, "\"routers\": 576,");
    CHECK_STR_CONTAINS(out, "\"global_cables\": 180,");
    /* one JSON object: brackets balance outside strings, nothing after */
    int depth = 0;
    bool in_str = false, closed = false, underflow = false, trailing = false;
    const char *p = out + strspn(out, " \n");
    CHECK(*p == '{');
    for (; *p; p++) {
        if (closed && *p != ' ' && *p != '\n')
            trailing = true;
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = false;
        } else if (*p == '"') {
            in_str = true;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            underflow = underflow || --depth < 0;
            closed = closed || depth == 0;
        }
    }
    CHECK(!in_str);
    CHECK(closed);
    CHECK_EQ_U(depth, 0);
    CHECK(!underflow);
    CHECK(!trailing);
    CHECK_EQ_U(strlen(err), 0);
}

/* ---- dfsim run: the command line ------------------------------------- */

static void test_run_missing_file(void)
{
    char dir[64], path[1024], res[1024];
    if (!temp_dir(dir))
        return;
    join(path, sizeof path, dir, "absent.cfg");
    join(res, sizeof res, dir, "out");
    CHECK_EQ_U(dfsim("run", path, "-o", res, NULL), 1);
    char want[1200];
    snprintf(want, sizeof want,
             "%s: error: cannot read: No such file or directory\n", path);
    CHECK_STR_CONTAINS(err, want);
    CHECK(!exists(res));
    rm_dir(dir);
}

static void test_run_bad_seed(void)
{
    const char *cfg = src_path("examples/probe.cfg");
    CHECK_EQ_U(dfsim("run", cfg, "--seed", "abc", NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim run: --seed expects a non-negative "
                            "integer, got \"abc\"");
    CHECK_EQ_U(dfsim("run", "--seed", "-3", cfg, NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim run: --seed expects a non-negative "
                            "integer, got \"-3\"");
    CHECK_EQ_U(dfsim("run", cfg, "--seed", "99999999999999999999", NULL), 2);
    CHECK_STR_CONTAINS(err, "got \"99999999999999999999\"");
    CHECK_EQ_U(strlen(out), 0);
}

static void test_run_file_count(void)
{
    char cfg[1024];
    snprintf(cfg, sizeof cfg, "%s", src_path("examples/probe.cfg"));
    CHECK_EQ_U(dfsim("run", cfg, cfg, NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim run: expected one experiment FILE\n");
    CHECK(has_line(err, "usage: dfsim run FILE"));
    CHECK_EQ_U(dfsim("run", NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim run: expected one experiment FILE\n");
    CHECK_EQ_U(strlen(out), 0);
}

static void test_run_unknown_option(void)
{
    const char *cfg = src_path("examples/probe.cfg");
    CHECK_EQ_U(dfsim("run", cfg, "--frob", NULL), 2);
    CHECK_STR_CONTAINS(err, "dfsim run: unknown option \"--frob\"\n");
    CHECK(has_line(err, "usage: dfsim run FILE"));
    CHECK_EQ_U(dfsim("run", "-x", cfg, NULL), 2);
    CHECK_STR_CONTAINS(err, "\"-x\"");
    CHECK_EQ_U(dfsim("run", cfg, "-o", NULL), 2); /* -o without a folder */
    CHECK_STR_CONTAINS(err, "\"-o\"");
    CHECK_EQ_U(strlen(out), 0);
}

/* ---- dfsim run: bad experiment files ------------------------------------ */

/* Write `text` as a temporary experiment file, run it and check: exit
 * status 1, nothing on stdout, no results folder, and stderr holding
 * "<file>:<line>: error: " (line 0: "<file>: error: ") followed on the same
 * line by each of the NULL-terminated `want` strings. Returns whether all
 * held. */
static bool bad_file(const char *name, const char *text, int line,
                     const char *const *want)
{
    int before = test_failures;
    const char *cfg = write_temp(name, text);
    char dir[64], res[1024];
    CHECK(cfg != NULL);
    if (!cfg || !temp_dir(dir))
        return false;
    join(res, sizeof res, dir, "out");
    CHECK_EQ_U(dfsim("run", cfg, "-o", res, NULL), 1);
    CHECK_EQ_U(strlen(out), 0);
    CHECK(!exists(res));

    char head[512];
    if (line > 0)
        snprintf(head, sizeof head, "%s:%d: error: ", cfg, line);
    else
        snprintf(head, sizeof head, "%s: error: ", cfg);
    const char *at = strstr(err, head);
    CHECK_STR_CONTAINS(err, head);
    if (at) {
        const char *eol = strchr(at, '\n');
        size_t n = eol ? (size_t)(eol - at) : strlen(at);
        char msg[2048];
        snprintf(msg, sizeof msg, "%.*s", (int)n, at);
        for (size_t i = 0; want && want[i]; i++)
            CHECK_STR_CONTAINS(msg, want[i]);
    }
    unlink(cfg);
    rm_dir(dir);
    return test_failures == before;
}

static void test_bad_unknown_key(void)
{
    bad_file("unknown-key.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = {\n"
             "  name = \"xc-12cab\";\n"
             "  cabinets = 3;\n"
             "};\n",
             4,
             (const char *const[]){
                 "unknown key \"system.cabinets\"; accepted keys: ",
                 "groups", "chassis_last", "cables_per_pair",
                 "cabinets_per_row", "name", "topology", NULL });
    /* a typo in the probe section */
    bad_file("unknown-probe-key.cfg",
             "system = { name = \"xc-12cab\"; };\n"
             "probe = {\n"
             "  sise = 64;\n"
             "};\n",
             3,
             (const char *const[]){
                 "unknown key \"probe.sise\"; accepted keys: size, pairs, "
                 "router_delay_ns",
                 NULL });
}

static void test_bad_unknown_section(void)
{
    bad_file("unknown-section.cfg",
             "system = { name = \"xc-12cab\"; };\n"
             "\n"
             "sytem = { name = \"xc-12cab\"; };\n",
             3,
             (const char *const[]){
                 "unknown section \"sytem\"; accepted sections: experiment, "
                 "system, probe",
                 NULL });
}

static void test_bad_types(void)
{
    bad_file("seed-string.cfg",
             "experiment = {\n"
             "  seed = \"one\";\n"
             "};\n"
             "system = { name = \"xc-12cab\"; };\n",
             2,
             (const char *const[]){
                 "experiment.seed: expected an integer, got a string", NULL });
    bad_file("size-float.cfg",
             "system = { name = \"xc-12cab\"; };\n"
             "probe = {\n"
             "  pairs = 2;\n"
             "  size = 1.5;\n"
             "};\n",
             4,
             (const char *const[]){
                 "probe.size: expected an integer, got a float", NULL });
    bad_file("groups-string.cfg",
             "system = {\n"
             "  topology = \"aries\";\n"
             "  groups = \"six\";\n"
             "};\n",
             3,
             (const char *const[]){
                 "system.groups: expected an integer, got a string", NULL });
    bad_file("name-integer.cfg",
             "system = {\n"
             "  name = 12;\n"
             "};\n",
             2,
             (const char *const[]){ "system.name: expected a system name (",
                                    "xc-12cab", "cielo", "got an integer",
                                    NULL });
}

static void test_bad_ranges(void)
{
    bad_file("pairs-zero.cfg",
             "system = { name = \"xc-12cab\"; };\n"
             "probe = {\n"
             "  pairs = 0;\n"
             "};\n",
             3,
             (const char *const[]){
                 "probe.pairs: value 0 is out of range; expected an integer "
                 "in [1, 10000]",
                 NULL });
    bad_file("chassis-last.cfg",
             "system = {\n"
             "  name = \"xc-12cab\";\n"
             "  chassis_last = 7;\n"
             "};\n",
             3,
             (const char *const[]){
                 "system.chassis_last: value 7 is out of range; expected an "
                 "integer in [1, 6]",
                 NULL });
    bad_file("seed-wide.cfg",
             "experiment = { seed = 5000000000; };\n"
             "system = { name = \"xc-12cab\"; };\n",
             1,
             (const char *const[]){
                 "integer 5000000000 does not fit in 32 bits; write "
                 "5000000000L",
                 NULL });
    bad_file("router-delay.cfg",
             "system = { name = \"xc-12cab\"; };\n"
             "probe = {\n"
             "  size = 64;\n"
             "  router_delay_ns = -0.5;\n"
             "};\n",
             4,
             (const char *const[]){
                 "probe.router_delay_ns: value -0.5; expected a delay >= 0 "
                 "ns, or -1 for the system's default",
                 NULL });
}

static void test_bad_system_name(void)
{
    bad_file("system-name.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = {\n"
             "  name = \"xc-13cab\";\n"
             "};\n",
             3,
             (const char *const[]){
                 "system.name: system \"xc-13cab\" is not registered; known: ",
                 "xc-12cab, ", "malbec", "cielo", NULL });
}

static void test_bad_topology_name(void)
{
    bad_file("topology-name.cfg",
             "system = {\n"
             "  topology = \"fattree\";\n"
             "};\n",
             2,
             (const char *const[]){
                 "system.topology: topology \"fattree\" is not registered; "
                 "known: aries, slingshot, dragonfly, torus",
                 NULL });
}

static void test_bad_name_and_topology(void)
{
    bad_file("both.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = {\n"
             "  name = \"xc-12cab\";\n"
             "  topology = \"aries\";\n"
             "};\n",
             2,
             (const char *const[]){ "system: ", "name (a built-in system)",
                                    "topology (a builder)", "not both",
                                    NULL });
}

static void test_bad_neither_name_nor_topology(void)
{
    bad_file("neither.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = {\n"
             "  # nothing chosen\n"
             "};\n",
             2,
             (const char *const[]){ "system: expected system.name",
                                    "or system.topology", NULL });
    bad_file("no-system.cfg",
             "experiment = { name = \"t\"; };\n"
             "probe = { size = 64; };\n",
             0,
             (const char *const[]){ "system: missing section \"system\"",
                                    NULL });
}

static void test_bad_other_builders_key(void)
{
    bad_file("other-builder.cfg",
             "system = {\n"
             "  name = \"xc-12cab\";\n"
             "  p = 4;\n"
             "};\n",
             3,
             (const char *const[]){
                 "unknown key \"system.p\"; accepted keys: groups, "
                 "chassis_last, cables_per_pair, nodes, cabinets_per_row",
                 NULL });
    bad_file("other-builder2.cfg",
             "system = {\n"
             "  topology = \"torus\";\n"
             "  x = 4;\n"
             "  switches_per_group = 8;\n"
             "};\n",
             4,
             (const char *const[]){
                 "unknown key \"system.switches_per_group\"; accepted keys: "
                 "x, y, z",
                 NULL });
}

static void test_bad_builder_parameters(void)
{
    /* Caught by the builder, not the schema: 49 is within [0, 240] but a
     * 6-group XC has 240 connectors per group, so 48 per pair at most. */
    bad_file("cables.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = { topology = \"aries\"; groups = 6; "
             "cables_per_pair = 49; };\n",
             2,
             (const char *const[]){ "system.cables_per_pair: ", "49",
                                    "expected 1 to 48", NULL });
    /* the same through a built-in system whose values are overridden */
    bad_file("cables-sys.cfg",
             "system = { name = \"xc-12cab-full\"; cables_per_pair = 49; };\n",
             1,
             (const char *const[]){ "system.cables_per_pair: ",
                                    "expected 1 to 48", NULL });
    bad_file("dragonfly-g.cfg",
             "system = { topology = \"dragonfly\"; a = 4; h = 2; g = 10; };\n",
             1,
             (const char *const[]){ "system.g: ", "at most 9 groups", NULL });
    /* the builder's complaint names the line of the key itself */
    bad_file("cables-line.cfg",
             "system = {\n"
             "  topology = \"aries\";\n"
             "  groups = 6;\n"
             "  cables_per_pair = 49;\n"
             "};\n",
             4,
             (const char *const[]){ "system.cables_per_pair: ",
                                    "expected 1 to 48", NULL });
}

static void test_bad_syntax(void)
{
    bad_file("syntax.cfg",
             "experiment = { name = \"t\"; };\n"
             "system = {\n"
             "  name = \"xc-12cab\";\n"
             "  groups = ;\n"
             "};\n",
             4, (const char *const[]){ "syntax error", NULL });
}

static void test_bad_many_errors(void)
{
    const char *text = "experiment = {\n"
                       "  seed = \"one\";\n"          /* 2 */
                       "};\n"
                       "system = {\n"
                       "  name = \"xc-12cab\";\n"
                       "  cabinets = 3;\n"            /* 6 */
                       "  chassis_last = 0;\n"        /* 7 */
                       "};\n"
                       "probe = {\n"
                       "  size = 1.5;\n"              /* 10 */
                       "  pairs = 0;\n"               /* 11 */
                       "};\n"
                       "extra = { };\n";              /* 13 */
    const char *cfg = write_temp("many.cfg", text);
    CHECK(cfg != NULL);
    if (!cfg)
        return;
    CHECK_EQ_U(dfsim("run", cfg, "-o", "/nonexistent/never", NULL), 1);
    static const struct {
        int line;
        const char *msg;
    } want[] = {
        { 2, "experiment.seed: expected an integer, got a string" },
        { 6, "unknown key \"system.cabinets\"" },
        { 7, "system.chassis_last: value 0 is out of range" },
        { 10, "probe.size: expected an integer, got a float" },
        { 11, "probe.pairs: value 0 is out of range" },
        { 13, "unknown section \"extra\"" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char line[512];
        snprintf(line, sizeof line, "%s:%d: error: %s", cfg, want[i].line,
                 want[i].msg);
        CHECK_STR_CONTAINS(err, line);
    }
    char total[512];
    snprintf(total, sizeof total, "dfsim run: %s: 6 errors\n", cfg);
    CHECK_STR_CONTAINS(err, total);
    CHECK_EQ_U(strlen(out), 0);
    unlink(cfg);
}

/* ---- dfsim run: good runs -------------------------------------------- */

static void test_run_default(void)
{
    char dir[64];
    if (!temp_dir(dir))
        return;
    char *csv = run_ok(src_path("examples/probe.cfg"), dir, NULL);
    CHECK(has_line(out, "experiment  probe (seed 1)"));
    CHECK(has_line(out, "system      xc-12cab (aries)"));
    struct csv_stats s;
    CHECK(parse_probe_csv(csv, &s));
    /* xc-12cab: minimal paths of 0 to 4 router hops, 8 pairs each; a
     * packet going further on minimal paths takes longer. */
    CHECK_EQ_U(s.rows, 5 * 8);
    for (unsigned h = 0; h < 5; h++) {
        CHECK_EQ_U(s.per_class[h], 8);
        if (h > 0)
            CHECK(s.sum_ns[h] > s.sum_ns[h - 1]);
    }
    CHECK_EQ_U(s.per_class[5], 0);
    char path[1024];
    char *json = read_text(join(path, sizeof path, dir, "topology.json"));
    CHECK_STR_CONTAINS(json, "\"routers\": 576,");
    CHECK_STR_CONTAINS(json, "\"global_cables\": 180,");
    free(json);
    free(csv);
    rm_dir(dir);
}

static void test_run_deterministic(void)
{
    char d1[64], d2[64];
    if (!temp_dir(d1))
        return;
    if (!temp_dir(d2)) {
        rm_dir(d1);
        return;
    }
    const char *cfg = src_path("examples/probe.cfg");
    char *a = run_ok(cfg, d1, NULL);
    char *b = run_ok(cfg, d2, NULL);
    CHECK(a && b && strcmp(a, b) == 0);
    /* --seed 1 is the file's own seed */
    char sub[1024];
    char *c = run_ok(cfg, join(sub, sizeof sub, d2, "seed1"), "1");
    CHECK(a && c && strcmp(a, c) == 0);
    free(a);
    free(b);
    free(c);
    rm_dir(d1);
    rm_dir(d2);
}

/* A traffic run shows its progress in slices of simulated time; a run
 * whose events are further apart than a slice (a light load on a small
 * torus) must still end (the slicing once restarted from the last
 * event's time and never got past such a gap). */
static void test_run_sparse_traffic_ends(void)
{
    static char so[1 << 15], se[1 << 15];
    char dir[64];
    if (!temp_dir(dir))
        return;
    const char *cfg = write_temp(
        "sparse.cfg", "system = { topology = \"torus\"; x = 2; y = 2; "
                      "z = 2; };\n"
                      "probe = { pairs = 1; };\n"
                      "traffic = { loads = [0.001]; warmup_us = 5.0; "
                      "measure_us = 20.0; };\n");
    CHECK(cfg != NULL);
    const char *argv[] = { "run", cfg, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(argv, so, sizeof so, se, sizeof se), 0);
    CHECK_STR_CONTAINS(se, "traffic 1/1: DOR uniform load 0.001: ");
    unlink(cfg);
    rm_dir(dir);
}

static void test_run_seed_changes_pairs(void)
{
    char d1[64], d2[64];
    if (!temp_dir(d1))
        return;
    if (!temp_dir(d2)) {
        rm_dir(d1);
        return;
    }
    const char *cfg = src_path("examples/probe.cfg");
    char *a = run_ok(cfg, d1, NULL);
    char *b = run_ok(cfg, d2, "2");
    CHECK(has_line(out, "experiment  probe (seed 2)"));
    static char pa[CAP / 4], pb[CAP / 4];
    pair_columns(a, pa, sizeof pa);
    pair_columns(b, pb, sizeof pb);
    CHECK(strlen(pa) > 0 && strlen(pb) > 0);
    CHECK(strcmp(pa, pb) != 0);
    struct csv_stats s;
    CHECK(parse_probe_csv(b, &s));
    CHECK_EQ_U(s.rows, 5 * 8);
    free(a);
    free(b);
    rm_dir(d1);
    rm_dir(d2);
}

static void test_run_creates_nested_output(void)
{
    char dir[64], res[1024], path[1100];
    if (!temp_dir(dir))
        return;
    join(res, sizeof res, dir, "a/b/c");
    free(run_ok(src_path("examples/probe.cfg"), res, NULL));
    CHECK(exists(join(path, sizeof path, res, "probe.csv")));
    CHECK(exists(join(path, sizeof path, res, "topology.json")));
    char want[1200];
    snprintf(want, sizeof want, "results in %s/", res);
    CHECK_STR_CONTAINS(out, want);
    rm_dir(dir);
}

/* Every example in examples/ runs, so that none can rot: each as it is,
 * cut short by --quick (experiment_quicken: one run, one load per
 * routing, short windows, two iterations a job, starts compressed to
 * 10 us and at most 1 ms of simulated time past them; the checks are the real
 * file's). Each must exit 0,
 * write its probe, the files of its sections and, with jobs,
 * report.html; with gnuplot installed, none may say that
 * gnuplot is missing (a cut-short run with nothing to plot says that
 * instead). A new example is picked up by the glob. The examples are
 * dealt over EXAMPLE_PARTS tests (the k-th takes every EXAMPLE_PARTS-th,
 * from k), which the suite runs side by side: with their iterations
 * counted, the 41 quick runs take ~45 s (bench/quick_iterations.sh). */
#define EXAMPLE_PARTS 4

static void run_examples(size_t part)
{
    bool gnuplot = have_gnuplot();
    char pat[1024];
    snprintf(pat, sizeof pat, "%s", src_path("examples/*.cfg"));
    glob_t g;
    CHECK_EQ_U(glob(pat, 0, NULL, &g), 0);
    CHECK(g.gl_pathc >= 22);
    for (size_t i = part; i < g.gl_pathc; i += EXAMPLE_PARTS) {
        const char *cfg = g.gl_pathv[i];
        char dir[64], path[1100];
        if (!temp_dir(dir))
            break;
        int rc = dfsim("run", cfg, "-o", dir, "--quick", NULL);
        CHECK_EQ_U(rc, 0);
        if (rc != 0)
            fprintf(stderr, "  %s: %s\n", cfg, err);
        CHECK(has_line(out, "experiment  "));
        CHECK(has_line(out, "quick       --quick: every part cut short"));
        CHECK(exists(join(path, sizeof path, dir, "probe.csv")));
        char *text = read_text(cfg);
        bool jobs = text && (strstr(text, "\njobs = (") ||
                             strstr(text, "\nimpact = {"));
        bool traffic = text && strstr(text, "\ntraffic = {");
        free(text);
        if (jobs)
            CHECK(exists(join(path, sizeof path, dir, "report.html")));
        if (traffic)
            CHECK(exists(join(path, sizeof path, dir, "traffic.csv")));
        if (gnuplot && strstr(err, "gnuplot missing")) {
            fprintf(stderr, "  %s: %s\n", cfg, err);
            CHECK(!strstr(err, "gnuplot missing"));
        }
        rm_dir(dir);
    }
    globfree(&g);
}

static void test_run_examples_0(void) { run_examples(0); }
static void test_run_examples_1(void) { run_examples(1); }
static void test_run_examples_2(void) { run_examples(2); }
static void test_run_examples_3(void) { run_examples(3); }

/* A built-in system's parameters may be overridden; the run says so. A
 * builder's own parameters are not "a built-in system changed". */
static void test_run_overrides(void)
{
    static const char changed[] = "a built-in system with parameters "
                                  "changed by the experiment file";
    const char *cfg = write_temp("override.cfg",
                                 "system = {\n"
                                 "  name = \"xc-12cab\";\n"
                                 "  groups = 3;\n"
                                 "};\n"
                                 "probe = { pairs = 1; };\n");
    char dir[64];
    CHECK(cfg != NULL);
    if (!cfg || !temp_dir(dir))
        return;
    free(run_ok(cfg, dir, NULL));
    CHECK(has_line(out, "system      xc-12cab (aries)"));
    CHECK_STR_CONTAINS(out, changed);
    CHECK(has_line(out, "routers     288"));
    CHECK(has_line(out, "groups      3"));

    /* same values as the preset: not a change */
    cfg = write_temp("override.cfg", "system = { name = \"xc-12cab\"; "
                                     "groups = 6; };\n");
    free(run_ok(cfg, dir, NULL));
    CHECK(!strstr(out, changed));
    CHECK(has_line(out, "routers     576"));

    cfg = write_temp("override.cfg", "system = { topology = \"torus\"; "
                                     "x = 2; y = 2; z = 2; };\n");
    free(run_ok(cfg, dir, NULL));
    CHECK(has_line(out, "system      torus (torus)"));
    CHECK(!strstr(out, changed));
    CHECK(has_line(out, "routers     8"));
    unlink(cfg);
    rm_dir(dir);
}

/* Every key `dfsim run --help` lists is documented in examples/example.cfg:
 * its dotted name is mentioned and its setting shown ("key = "), and a
 * builder's keys sit in that builder's block, which starts where the file
 * first says topology = "<builder>" and ends where it names another. */
static void test_example_documents_every_key(void)
{
    CHECK_EQ_U(dfsim("run", "--help", NULL), 0);
    char *ex = read_text(src_path("examples/example.cfg"));
    CHECK(ex != NULL);
    if (!ex)
        return;
    char builder[64] = "";
    unsigned keys = 0, builders = 0;
    /* the schema listing follows the usage text */
    const char *listing = strstr(out, "\nexperiment = { ... }\n");
    CHECK(listing != NULL);
    for (const char *p = listing ? listing + 1 : ""; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1000 ? len : 1000),
                 p);
        p += len + (eol ? 1 : 0);

        const char *w = strstr(line, "with topology = \"");
        if (w) {
            w += strlen("with topology = \"");
            snprintf(builder, sizeof builder, "%.*s",
                     (int)strcspn(w, "\""), w);
            builders++;
            continue;
        }
        if (line[0] != ' ') {
            builder[0] = '\0'; /* a new section */
            continue;
        }
        /* "  section.key   what it accepts  help" */
        const char *k = line + strspn(line, " ");
        size_t klen = strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_.");
        CHECK(klen > 0 && klen < 100 && k[klen] == ' ' && strchr(k, '.'));
        if (!(klen > 0 && klen < 100 && k[klen] == ' ' && strchr(k, '.')))
            continue;
        char key[128], setting[128];
        snprintf(key, sizeof key, "%.*s", (int)klen, k);
        snprintf(setting, sizeof setting, "%s = ", strchr(key, '.') + 1);
        keys++;

        /* the part of the file that documents it */
        const char *from = ex, *to = ex + strlen(ex);
        if (builder[0]) {
            char open[128];
            snprintf(open, sizeof open, "topology = \"%s\"", builder);
            from = strstr(ex, open);
            if (!from) {
                test_failures++;
                fprintf(stderr, "  example.cfg: no block for builder %s "
                                "(no %s)\n", builder, open);
                continue;
            }
            for (const char *q = strstr(from + 1, "topology = \""); q;
                 q = strstr(q + 1, "topology = \"")) {
                if (strncmp(q, open, strlen(open)) != 0) {
                    to = q;
                    break;
                }
            }
        }
        size_t n = (size_t)(to - from);
        char *part = strndup(from, n);
        CHECK(part != NULL);
        if (!part)
            continue;
        if (!strstr(part, key) || !strstr(part, setting)) {
            test_failures++;
            fprintf(stderr, "  example.cfg does not document %s%s%s (\"%s\" "
                            "and \"%s\")\n", key,
                    builder[0] ? " in the block of builder " : "", builder,
                    key, setting);
        }
        free(part);
    }
    CHECK(keys >= 20);
    CHECK_EQ_U(builders, 4);
    free(ex);
}

const struct test_case tests_cli[] = {
    TEST(test_help),
    TEST(test_version),
    TEST(test_no_command),
    TEST(test_unknown_command),
    TEST(test_list_every_kind),
    TEST(test_list_systems),
    TEST(test_counters_list),
    TEST(test_list_unknown_kind),
    TEST(test_list_allocation_keys),
    TEST(test_topo_unknown_system),
    TEST(test_topo_json),
    TEST(test_run_missing_file),
    TEST(test_run_bad_seed),
    TEST(test_run_file_count),
    TEST(test_run_unknown_option),
    TEST(test_bad_unknown_key),
    TEST(test_bad_unknown_section),
    TEST(test_bad_types),
    TEST(test_bad_ranges),
    TEST(test_bad_system_name),
    TEST(test_bad_topology_name),
    TEST(test_bad_name_and_topology),
    TEST(test_bad_neither_name_nor_topology),
    TEST(test_bad_other_builders_key),
    TEST(test_bad_builder_parameters),
    TEST(test_bad_syntax),
    TEST(test_bad_many_errors),
    TEST(test_run_default),
    TEST(test_run_deterministic),
    TEST(test_run_seed_changes_pairs),
    TEST(test_run_creates_nested_output),
    TEST(test_run_sparse_traffic_ends),
    TEST(test_run_examples_0),
    TEST(test_run_examples_1),
    TEST(test_run_examples_2),
    TEST(test_run_examples_3),
    TEST(test_run_overrides),
    TEST(test_example_documents_every_key),
    { 0 },
};
