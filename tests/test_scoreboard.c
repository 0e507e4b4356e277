/* tests/test_scoreboard.c — the reproductions as data (results/
 * scoreboard.h, `dfsim scoreboard`): a rows file read with every problem
 * at its line, a number read from exactly one row of a result file, the
 * status computed by the row's rule, and the whole pipeline run on a
 * small experiment over two seeds, resumed and written the same. */
#include "test.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/hash.h"
#include "exp/fingerprint.h"
#include "results/scoreboard.h"

static char out[1 << 16], err[1 << 16];

static struct sb_row row_of(const char *column, const char *const *where,
                            uint32_t n_where)
{
    struct sb_row r;
    memset(&r, 0, sizeof r);
    r.column = column;
    r.where.n = n_where;
    for (uint32_t i = 0; i < n_where; i++)
        r.where.v[i] = where[i];
    r.paper_value = r.paper_min = r.paper_max = NAN;
    r.tolerance = 0.2;
    r.claim_ref = 1.0;
    return r;
}

/* Problems of a rows file, each at its line; a good file's defaults. */
static void test_scoreboard_load(void)
{
    const char *bad = write_temp(
        "rows-bad.cfg",
        "rows = (\n"
        "  { id = \"a b\"; experiment = \"x.cfg\"; file = \"f.csv\";\n"
        "    column = \"c\"; where = [\"nope\"]; },\n"
        "  { id = \"ok\"; experiment = \"x.cfg\"; file = \"f.csv\";\n"
        "    column = \"c\"; claim = \"sideways\"; },\n"
        "  { id = \"ok\"; experiment = \"x.cfg\"; file = \"f.csv\";\n"
        "    column = \"c\"; paper_value = 2.0; seeds = [1.5]; },\n"
        "  { id = \"half\"; paper_value = 2.0; experiment = \"x.cfg\"; },\n"
        "  { id = \"both\"; not_reproduced = \"no model\";\n"
        "    experiment = \"x.cfg\"; },\n"
        "  { id = \"ctx\"; context = true; claim = \"above\";\n"
        "    experiment = \"x.cfg\"; file = \"f.csv\"; column = \"c\"; },\n"
        "  { id = \"ratio\"; claim = \"above\"; experiment = \"x.cfg\";\n"
        "    file = \"f.csv\"; column = \"a/b/c\"; over = [\"x\"]; },\n"
        "  { id = \"most\"; claim = \"above\"; experiment = \"x.cfg\";\n"
        "    file = \"f.csv\"; column = \"c\"; reduce = \"max\";\n"
        "    over = [\"v=1\"]; },\n"
        "  { id = \"mean\"; claim = \"above\"; experiment = \"x.cfg\";\n"
        "    file = \"f.csv\"; column = \"c\"; reduce = \"mean\"; }\n"
        ");\n");
    struct capture c;
    cap_init(&c);
    struct sb_rows rows;
    CHECK(sb_load(bad, &rows, &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), ":2: error: rows[0]: id \"a b\": expected "
                               "letters, digits, - and _ only");
    CHECK_STR_CONTAINS(cap_text(&c), ":2: error: rows[0]: no paper_value, "
                               "paper_min, paper_max or claim");
    CHECK_STR_CONTAINS(cap_text(&c), ":3: error: rows[0]: where \"nope\": "
                               "expected \"column=value\"");
    CHECK_STR_CONTAINS(cap_text(&c), ":5: error: rows[1].claim");
    CHECK_STR_CONTAINS(cap_text(&c), "rows[2]: seed 1.5: expected an integer");
    CHECK_STR_CONTAINS(cap_text(&c), "rows[2]: id \"ok\" is also row 1's");
    CHECK_STR_CONTAINS(cap_text(&c), ":8: error: rows[3]: expected "
                               "experiment, file and column (a row that "
                               "runs) or not_reproduced = \"reason\"");
    CHECK_STR_CONTAINS(cap_text(&c), ":9: error: rows[4]: not_reproduced "
                               "with an experiment");
    CHECK_STR_CONTAINS(cap_text(&c), ":11: error: rows[5]: context = true "
                               "with a paper value or claim");
    CHECK_STR_CONTAINS(cap_text(&c), "rows[6]: column \"a/b/c\": expected "
                               "a column or A/B");
    CHECK_STR_CONTAINS(cap_text(&c), ":14: error: rows[6]: over \"x\": "
                               "expected \"column=value\"");
    CHECK_STR_CONTAINS(cap_text(&c), ":15: error: rows[7]: reduce with "
                               "over: expected one of them");
    CHECK_STR_CONTAINS(cap_text(&c), ":19: error: rows[8].reduce");
    cap_free(&c);

    const char *good = write_temp(
        "rows-good.cfg",
        "rows = ( { id = \"r1\"; experiment = \"x.cfg\"; file = \"f.csv\";\n"
        "           column = \"c\"; paper_max = 1.5; } );\n");
    cap_init(&c);
    CHECK_EQ_U(sb_load(good, &rows, &c.d), 0);
    if (c.d.errors == 0) {
        CHECK_EQ_U(rows.n, 1);
        const struct sb_row *r = &rows.row[0];
        CHECK_EQ_U(r->seeds.n, 3); /* three seeds by default */
        CHECK(r->seeds.v[0] == 1 && r->seeds.v[2] == 3);
        CHECK(isnan(r->paper_value) && r->paper_max == 1.5);
        CHECK(r->tolerance == 0.2 && !r->claim);
        sb_free(&rows);
    }
    cap_free(&c);
    unlink(bad);
    unlink(good);
}

/* The number of exactly one row, quoted fields and all; every other case
 * a reason, never a guess. */
static void test_scoreboard_extract(void)
{
    const char *csv = write_temp(
        "sb.csv", "victim,aggressor,share,impact,note\n"
                  "a,x,0.5,2.5,\"fit needs >= 3 points, have 2\"\n"
                  "a,y,0.5,1.25,\n"
                  "b,x,0.5,,\n"
                  "c,x,0.5,3,\n"
                  "c,x,0.5,4,\n");
    static const char *const ax[] = { "victim=a", "aggressor=x" };
    static const char *const ay[] = { "victim=a", "aggressor=y" };
    static const char *const bx[] = { "victim=b", "aggressor=x" };
    static const char *const cx[] = { "victim=c", "aggressor=x" };
    static const char *const zz[] = { "victim=z" };
    static const char *const q[] = { "bogus=1" };
    char why[512];
    double v = 0;
    struct sb_row r = row_of("impact", ax, 2);
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 2.5);
    r = row_of("impact", ay, 2);
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 1.25);
    r = row_of("note", ax, 2); /* a quoted comma stays in its field */
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "note = \"fit needs >= 3 points, have 2\", not "
                            "a number");
    r = row_of("impact", bx, 2);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "impact = \"\", not a number");
    r = row_of("impact", cx, 2);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "several rows match");
    r = row_of("impact", zz, 1);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no row matches");
    r = row_of("impact", q, 1);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no column \"bogus\"");
    r = row_of("missing", ax, 2);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no column \"missing\"");
    CHECK(sb_extract("/nonexistent/x.csv", &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "cannot read");

    /* A/B: a row's A over its B */
    r = row_of("impact/share", ax, 2);
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 5.0);
    r = row_of("impact/nope", ax, 2);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no column \"nope\"");
    r = row_of("impact/note", ax, 2);
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "not a number");
    /* over: one row's column over another row's */
    r = row_of("impact", ax, 2);
    r.over.n = 2;
    r.over.v[0] = ay[0];
    r.over.v[1] = ay[1];
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 2.0);
    r.over.n = 1;
    r.over.v[0] = "victim=c"; /* two rows: not a guess */
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "several rows match the row's `over`");
    r.over.v[0] = "victim=z";
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no row matches the row's `over`");
    /* reduce: the largest (smallest) of the rows where picks, one or
     * several; none is still an error, and a blank among them too */
    static const char *const x[] = { "aggressor=x" };
    static const char *const cxs[] = { "victim=c", "aggressor=x" };
    r = row_of("impact", cxs, 2);
    r.reduce = "max";
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 4.0);
    r.reduce = "min";
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 3.0);
    r = row_of("impact", ay, 2); /* one row: itself */
    r.reduce = "max";
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 1.25);
    r = row_of("impact", zz, 1);
    r.reduce = "max";
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "no row matches the row's `where`");
    r = row_of("impact", x, 1); /* b's blank among a's and c's */
    r.reduce = "max";
    CHECK(sb_extract(csv, &r, &v, why, sizeof why) != 0);
    CHECK_STR_CONTAINS(why, "impact = \"\", not a number");
    r = row_of("impact/share", cxs, 2);
    r.reduce = "max";
    CHECK_EQ_U(sb_extract(csv, &r, &v, why, sizeof why), 0);
    CHECK(v == 8.0);
    unlink(csv);
}

/* The status by the row's rule: median of the seeds, tolerance around a
 * value, a bound, a claim; nothing measured is "not run". */
static void test_scoreboard_judge(void)
{
    struct sb_row r = row_of("c", NULL, 0);
    struct sb_result x = { .n = 4, .v = { 3.0, 2.0, 2.6, 9.0 } };
    r.paper_value = 2.85;
    sb_judge(&r, &x);
    CHECK(x.median == 2.8 && x.lo == 2.0 && x.hi == 9.0);
    CHECK_EQ_U(x.status, SB_AGREES); /* within 20 % */
    r.paper_value = 5.0;
    sb_judge(&r, &x);
    CHECK_EQ_U(x.status, SB_DISAGREES); /* no claim to fall back on */
    r.claim = "above";
    sb_judge(&r, &x);
    CHECK_EQ_U(x.status, SB_IN_KIND);
    r.claim = "below";
    sb_judge(&r, &x);
    CHECK_EQ_U(x.status, SB_DISAGREES);
    r.paper_value = NAN;
    r.paper_max = 1.5;
    x = (struct sb_result){ .n = 3, .v = { 1.2, 1.6, 1.4 } };
    sb_judge(&r, &x);
    CHECK(x.median == 1.4);
    CHECK_EQ_U(x.status, SB_AGREES);
    r.paper_min = 1.45;
    sb_judge(&r, &x);
    CHECK_EQ_U(x.status, SB_DISAGREES); /* below the bound, above 1 */
    x = (struct sb_result){ .n = 0 };
    sb_judge(&r, &x);
    CHECK_EQ_U(x.status, SB_NOT_RUN);
    CHECK(isnan(x.median));
}

/* The pipeline: two seeds of a small traffic sweep, the accepted load
 * read and judged; the table says --quick and is the same bytes when
 * the runs are resumed; a row whose number cannot be read fails the
 * command, naming the row's line and the reason. */
static void test_scoreboard_pipeline(void)
{
    const char *exp = write_temp(
        "sb-exp.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
        "  routings = [\"minimal\"]; warmup_us = 3.0; measure_us = 3.0; };\n");
    char rows_text[1024];
    snprintf(rows_text, sizeof rows_text,
             "rows = (\n"
             "  { id = \"accepted\"; paper_value = 0.1; tolerance = 0.05;\n"
             "    experiment = \"%s\"; seeds = [1, 2];\n"
             "    file = \"traffic.csv\"; column = \"accepted\";\n"
             "    where = [\"routing=minimal\"]; },\n"
             "  { id = \"wrong\"; claim = \"below\";\n"
             "    experiment = \"%s\"; seeds = [1];\n"
             "    file = \"traffic.csv\"; column = \"no_such\"; },\n"
             "  { id = \"hops\"; quantity = \"mean hops\"; context = true;\n"
             "    experiment = \"%s\"; seeds = [1, 2];\n"
             "    file = \"traffic.csv\"; column = \"hops_mean\";\n"
             "    where = [\"routing=minimal\"]; },\n"
             "  { id = \"fig-2\"; paper = \"P'20\"; figure = \"Fig. 2\";\n"
             "    quantity = \"a switch's latency\";\n"
             "    not_reproduced = \"no switch model\"; }\n"
             ");\n",
             exp, exp, exp);
    const char *rows = write_temp("sb-rows.cfg", rows_text);
    char dir[64] = "/tmp/dfsim-sb-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *argv[] = { "scoreboard", rows, "-o", dir, "-j", "2", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "sb-rows.cfg:6: row wrong, seed 1: ");
    CHECK_STR_CONTAINS(err, "traffic.csv: no column \"no_such\"");
    /* the runs are the experiment's, shared by its rows */
    char base[512], sub[600];
    snprintf(base, sizeof base, "%s", exp + 1); /* less the first '/' */
    base[strlen(base) - 4] = '\0';              /* less ".cfg" */
    for (char *p = base; *p; p++)
        *p = *p == '/' ? '_' : *p;
    for (int seed = 1; seed <= 2; seed++) {
        snprintf(sub, sizeof sub, "%s/seed-%d/traffic.csv", base, seed);
        CHECK(dir_has(dir, sub));
    }
    char *md = dir_read(dir, "scoreboard.md");
    CHECK(md != NULL);
    if (md) {
        CHECK_STR_CONTAINS(md, "| accepted | ");
        CHECK_STR_CONTAINS(md, ", 2 | agrees | ");
        CHECK_STR_CONTAINS(md, "| wrong | ");
        CHECK_STR_CONTAINS(md, " | - | not run | below 1 | ");
        CHECK_STR_CONTAINS(md, "4 rows: 1 agree, 0 in kind, 0 disagree, 1 "
                               "not run, 1 not reproduced, 1 context.");
        CHECK_STR_CONTAINS(md, "| P'20 | 1 | 0 | 0 | 0 | 0 | 1 | 0 |\n"
                               "| all | 4 | 1 | 0 | 0 | 1 | 1 | 1 |\n");
        /* a context row: its number, no paper's, status context */
        CHECK_STR_CONTAINS(md, "| hops | - | - | mean hops | - | ");
        CHECK_STR_CONTAINS(md, ", 2 | context | - | ");
        CHECK_STR_CONTAINS(md, "| fig-2 | P'20 | Fig. 2 | a switch's "
                               "latency | no switch model |\n");
        CHECK_STR_CONTAINS(md, "the median (bar)](scoreboard.svg)\n");
        /* a row not reproduced runs nothing */
        CHECK(!strstr(out, "fig-2 seed"));
        CHECK_STR_CONTAINS(out, "fig-2                                    "
                                "not reproduced");
        CHECK(!strstr(md, "--quick"));
    }
    /* the picture: a strip for each row that runs, a dot for each seed
     * with a number, the paper's band for the one with a value */
    char *svg = dir_read(dir, "scoreboard.svg");
    CHECK(svg != NULL);
    if (svg) {
        uint32_t dots = 0, bands = 0;
        for (const char *p = svg; (p = strstr(p, "<circle")); p++)
            dots++;
        for (const char *p = svg; (p = strstr(p, "fill=\"#ddd\"")); p++)
            bands++;
        CHECK_EQ_U(dots, 4);
        CHECK_EQ_U(bands, 1);
        CHECK_STR_CONTAINS(svg, ">accepted</text>");
        CHECK_STR_CONTAINS(svg, ">wrong</text>");
        CHECK(!strstr(svg, ">fig-2</text>"));
        CHECK_STR_CONTAINS(svg, "</svg>\n");
    }
    free(svg);
    /* again, one run at a time: the runs are read back, the table is the
     * same bytes */
    argv[4] = "-j";
    argv[5] = "1";
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    char *again = dir_read(dir, "scoreboard.md");
    CHECK(md && again && strcmp(md, again) == 0);
    free(md);
    free(again);
    /* --no-run: nothing starts, the finished runs are read, the others'
     * rows say so */
    snprintf(sub, sizeof sub, "%s/%s/seed-2.done", dir, base);
    CHECK_EQ_U(unlink(sub), 0);
    const char *nr[] = { "scoreboard", rows, "-o", dir, "--no-run", NULL };
    CHECK_EQ_U(run_dfsim(nr, out, sizeof out, err, sizeof err), 1);
    CHECK(!strstr(out, " seed 1 ..."));
    CHECK_STR_CONTAINS(err, "row accepted, seed 2: the run has not "
                            "finished");
    md = dir_read(dir, "scoreboard.md");
    CHECK(md && strstr(md, "`dfsim scoreboard ") &&
          strstr(md, " --no-run`") && strstr(md, ", 1 | agrees | "));
    /* and says so: `wrong` never had a number, `accepted` and `hops` one
     * seed of their 2 */
    CHECK(md && strstr(md, "**The runs finished so far (--no-run): rows "
                           "not run yet 1, rows with fewer seeds than "
                           "their own 2;"));
    free(md);
    rm_dir(dir);

    /* --quick says so at the top */
    CHECK(mkdtemp(strcpy(dir, "/tmp/dfsim-sb-XXXXXX")) != NULL);
    const char *qv[] = { "scoreboard", rows, "-o", dir, "--quick", NULL };
    CHECK_EQ_U(run_dfsim(qv, out, sizeof out, err, sizeof err), 1);
    md = dir_read(dir, "scoreboard.md");
    CHECK(md && strstr(md, "**--quick: every run was cut short."));
    free(md);
    /* a bad -j is said, nothing runs */
    const char *bj[] = { "scoreboard", rows, "-o", dir, "-j", "0", NULL };
    CHECK_EQ_U(run_dfsim(bj, out, sizeof out, err, sizeof err), 2);
    CHECK_STR_CONTAINS(err, "-j \"0\": expected the number of runs at once");
    rm_dir(dir);
    unlink(rows);
    unlink(exp);
}

/* The line of md that starts with "| id | ", or "" (a copy, static). */
static const char *md_line(const char *md, const char *id)
{
    static char line[2048];
    char key[64];
    snprintf(key, sizeof key, "\n| %s | ", id);
    const char *p = md ? strstr(md, key) : NULL;
    line[0] = '\0';
    if (p) {
        size_t n = strcspn(p + 1, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p + 1);
    }
    return line;
}

/* test_scoreboard_keep's rows: two on exp's seeds 1 and 2, and with
 * `offered` a third on its seed 1. */
static void keep_rows(char *text, size_t cap, const char *exp, bool offered)
{
    int n = snprintf(
        text, cap,
        "rows = (\n"
        "  { id = \"accepted\"; paper_value = 0.1; tolerance = 0.05;\n"
        "    experiment = \"%s\"; seeds = [1, 2];\n"
        "    file = \"traffic.csv\"; column = \"accepted\";\n"
        "    where = [\"routing=minimal\"]; },\n"
        "  { id = \"hops\"; context = true;\n"
        "    experiment = \"%s\"; seeds = [1, 2];\n"
        "    file = \"traffic.csv\"; column = \"hops_mean\"; }",
        exp, exp);
    if (offered)
        n += snprintf(text + n, cap - (size_t)n,
                      ",\n  { id = \"offered\"; context = true;\n"
                      "    experiment = \"%s\"; seeds = [1];\n"
                      "    file = \"traffic.csv\"; column = \"offered\"; }",
                      exp);
    snprintf(text + n, cap - (size_t)n, "\n);\n");
}

/* Write text into path less each line's last column (a kept-values
 * file as written before `input`). */
static void keep_cut_input(const char *path, const char *text)
{
    FILE *f = text ? fopen(path, "w") : NULL;
    CHECK(f != NULL);
    if (!f)
        return;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
        const char *comma = end;
        while (comma > p && *comma != ',')
            comma--;
        fprintf(f, "%.*s\n", (int)(comma - p), p);
        p = nl ? nl + 1 : end;
    }
    fclose(f);
}

/* --keep: each seed's value kept with the dfsim that measured it; a
 * scoreboard whose run folders are gone (another machine) runs nothing
 * and gives the same rows from the kept values; a row added on the same
 * experiment runs the seed it lacks, and only that one; a malformed
 * line is an error at its line, a row no longer in the file a warning
 * (and the line dropped); a file without `input` read as the current
 * experiment's; a finished run read with its own mark; a changed
 * experiment file drops its values and runs again; no --keep with
 * --quick. */
static void test_scoreboard_keep(void)
{
    const char *exp = write_temp(
        "sbk-exp.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
        "  routings = [\"minimal\"]; warmup_us = 2.0; measure_us = 2.0; };\n");
    char text[1024], keep[600], dir[64] = "/tmp/dfsim-sbk-XXXXXX";
    keep_rows(text, sizeof text, exp, false);
    const char *rows = write_temp("sbk-rows.cfg", text);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(keep, sizeof keep, "%s/measured.csv", dir);
    char d1[128], d2[128], d3[128];
    snprintf(d1, sizeof d1, "%s/one", dir);
    snprintf(d2, sizeof d2, "%s/two", dir);
    snprintf(d3, sizeof d3, "%s/three", dir);
    const char *argv[] = { "scoreboard", rows, "-o", d1, "--keep", keep,
                           NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *kept = read_text(keep), *md1 = dir_read(d1, "scoreboard.md");
    char line[256];
    snprintf(line, sizeof line,
             "row,seed,value,read,dfsim,input\naccepted,1,");
    CHECK(kept && strncmp(kept, line, strlen(line)) == 0);
    snprintf(line, sizeof line, ",%s,", dfsim_build());
    CHECK(kept && strstr(kept, line));
    uint32_t lines = 0;
    for (const char *p = kept; p && (p = strchr(p, '\n')); p++)
        lines++;
    CHECK_EQ_U(lines, 5);
    CHECK(md1 && strstr(md1, "4 values (a row's seeds): 4 from this "
                             "scoreboard's runs, 0 kept from earlier"));
    snprintf(line, sizeof line, "measured by dfsim %s (4).", dfsim_build());
    CHECK(md1 && strstr(md1, line));
    /* a run's mark names the dfsim that ran it */
    char base[512], sub[700];
    snprintf(base, sizeof base, "%s", exp + 1);
    base[strlen(base) - 4] = '\0';
    for (char *p = base; *p; p++)
        *p = *p == '/' ? '_' : *p;
    snprintf(sub, sizeof sub, "%s/%s/seed-1.done", d1, base);
    char *mark = read_text(sub);
    snprintf(line, sizeof line, "%s\nwall_s ", dfsim_build());
    CHECK(mark && strncmp(mark, line, strlen(line)) == 0);
    /* and its wall time, whole seconds */
    const char *w = mark ? mark + strlen(line) : NULL;
    CHECK(w && *w >= '0' && *w <= '9' && w[strspn(w, "0123456789")] == '\n');
    free(mark);

    /* another machine: no run folders; nothing runs, the rows the same */
    argv[3] = d2;
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK(!strstr(out, " seed 1 ...") && !strstr(out, " seed 2 ..."));
    char *md2 = dir_read(d2, "scoreboard.md"), *kept2 = read_text(keep);
    CHECK(md2 && strstr(md2, "4 values (a row's seeds): 0 from this "
                             "scoreboard's runs, 4 kept from earlier"));
    char first[2048];
    snprintf(first, sizeof first, "%s", md_line(md1, "accepted"));
    CHECK(strcmp(first, md_line(md2, "accepted")) == 0);
    CHECK(md_line(md1, "accepted")[0] != '\0');
    snprintf(first, sizeof first, "%s", md_line(md1, "hops"));
    CHECK(first[0] && strcmp(first, md_line(md2, "hops")) == 0);
    CHECK(kept && kept2 && strcmp(kept, kept2) == 0);
    free(kept2);

    /* --forget: a pattern that matches no experiment drops nothing (all
     * kept: nothing runs); one that matches drops its rows' values, said,
     * and their seeds run again; --forget needs --keep */
    char d5[128];
    snprintf(d5, sizeof d5, "%s/five", dir);
    const char *f0[] = { "scoreboard", rows, "-o", d5, "--keep", keep,
                         "--forget", "examples/none-*.cfg", NULL };
    CHECK_EQ_U(run_dfsim(f0, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(err, "--forget examples/none-*.cfg: 0 kept values "
                            "dropped");
    CHECK(!strstr(out, " seed 1 ..."));
    const char *f1[] = { "scoreboard", rows, "-o", d5, "--keep", keep,
                         "--forget", "/tmp/*sbk-exp*", NULL };
    CHECK_EQ_U(run_dfsim(f1, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(err, "--forget /tmp/*sbk-exp*: 4 kept values "
                            "dropped");
    CHECK_STR_CONTAINS(out, " seed 1 ...");
    CHECK_STR_CONTAINS(out, " seed 2 ...");
    char *md5 = dir_read(d5, "scoreboard.md");
    CHECK(md5 && strstr(md5, "4 values (a row's seeds): 4 from this "
                             "scoreboard's runs, 0 kept from earlier"));
    CHECK(md5 && strstr(md5, " --forget '/tmp/*sbk-exp*'`")); /* said */
    free(md5);
    const char *f2[] = { "scoreboard", rows, "--forget", "x", NULL };
    CHECK_EQ_U(run_dfsim(f2, out, sizeof out, err, sizeof err), 2);
    CHECK_STR_CONTAINS(err, "--forget without --keep");

    /* a row added on the same experiment: seed 1 runs, seed 2 does not */
    keep_rows(text, sizeof text, exp, true);
    const char *rows3 = write_temp("sbk-rows3.cfg", text);
    const char *a3[] = { "scoreboard", rows3, "-o", d3, "--keep", keep,
                         NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, " seed 1 ...");
    CHECK(!strstr(out, " seed 2 ..."));
    kept2 = read_text(keep);
    CHECK(kept2 && strstr(kept2, "\noffered,1,"));

    /* a row gone from the rows file: its lines dropped, said */
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(err, "measured.csv:6: warning: row: \"offered\" seed "
                            "1 is no longer a row's seed: dropped");
    free(kept2);
    kept2 = read_text(keep);
    CHECK(kept && kept2 && strcmp(kept, kept2) == 0);

    /* a row that reads another column: its kept values are not its own
     * any more; dropped, said, and its seeds run again */
    keep_rows(text, sizeof text, exp, false);
    char *col = strstr(text, "\"hops_mean\"");
    CHECK(col != NULL);
    if (col)
        memcpy(col, "\"packets\"  ", 11);
    const char *rows4 = write_temp("sbk-rows4.cfg", text);
    char d4[128];
    snprintf(d4, sizeof d4, "%s/four", dir);
    const char *a4[] = { "scoreboard", rows4, "-o", d4, "--keep", keep,
                         NULL };
    CHECK_EQ_U(run_dfsim(a4, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(err, "measured.csv:4: warning: read: \"hops\" seed 1 "
                            "was kept when the row read another");
    CHECK_STR_CONTAINS(out, " seed 1 ...");
    CHECK_STR_CONTAINS(out, " seed 2 ...");
    /* and back: the first rows' values again (the runs are in d1) */
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    free(kept2);
    kept2 = read_text(keep);
    CHECK(kept && kept2 && strcmp(kept, kept2) == 0);
    unlink(rows4);

    FILE *f;
    /* a file written before `input` (five columns): read, its values
     * taken as the experiment's now, written back with the column */
    keep_cut_input(keep, kept2);
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    CHECK(!strstr(err, "warning"));
    free(kept2);
    kept2 = read_text(keep);
    CHECK(kept && kept2 && strcmp(kept, kept2) == 0);

    /* a finished run is read as it is: its mark's dfsim, not this one */
    const char *a1[] = { "scoreboard", rows, "-o", d1, "--keep", keep,
                         NULL };
    f = fopen(sub, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("0.0.0 earlier\n", f);
        fclose(f);
    }
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK(!strstr(out, " seed 1 ..."));
    free(kept2);
    kept2 = read_text(keep);
    CHECK(kept2 && strstr(kept2, ",0.0.0 earlier,"));

    /* the experiment file changed: its kept values dropped, said, and
     * the folder's finished run of the old file run again (--force) */
    char *was = read_text(exp);
    CHECK(was != NULL);
    f = fopen(exp, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("experiment = { description = \"changed\"; };\n", f);
        fclose(f);
    }
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(err, "measured.csv:2: warning: input: \"accepted\" "
                            "seed 1 was measured before");
    CHECK_STR_CONTAINS(err, "holds a run of another version of");
    CHECK_STR_CONTAINS(out, " seed 1 ...");
    CHECK_STR_CONTAINS(out, " seed 2 ...");
    CHECK(!strstr(out, "failed"));
    free(kept2);
    kept2 = read_text(keep);
    CHECK(kept2 && !strstr(kept2, "earlier"));
    f = was ? fopen(exp, "w") : NULL;
    if (f) {
        fputs(was, f);
        fclose(f);
    }
    free(was);

    /* bad lines, each at its line */
    f = fopen(keep, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("accepted,2,abc,0,x,0000000000000000\n"
              "hops,-1,0.5,0,x,0000000000000000\n", f);
        fclose(f);
    }
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "measured.csv:6: error: value: \"abc\": expected a "
                            "finite number");
    CHECK_STR_CONTAINS(err, "measured.csv:7: error: seed: \"-1\": expected "
                            "a seed");
    const char *q[] = { "scoreboard", rows, "--quick", "--keep", keep, NULL };
    CHECK_EQ_U(run_dfsim(q, out, sizeof out, err, sizeof err), 2);
    CHECK_STR_CONTAINS(err, "--keep with --quick");
    free(kept);
    free(kept2);
    free(md1);
    free(md2);
    rm_dir(dir);
    unlink(rows);
    unlink(rows3);
    unlink(exp);
}

/* SIGINT to a scoreboard mid-run: it passes the signal to its run, which
 * keeps the points it finished, starts no other and writes no table;
 * the same command then goes on and writes the table an uninterrupted
 * scoreboard writes. */
static void test_scoreboard_interrupted(void)
{
    const char *exp = write_temp(
        "sb-int.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1, 0.2, 0.3, 0.4];\n"
        "  routings = [\"minimal\"]; warmup_us = 3.0; measure_us = 3.0; };\n");
    char rows_text[1024];
    snprintf(rows_text, sizeof rows_text,
             "rows = (\n"
             "  { id = \"acc\"; claim = \"above\"; claim_ref = 0.0;\n"
             "    experiment = \"%s\"; seeds = [1, 2];\n"
             "    file = \"traffic.csv\"; column = \"accepted\";\n"
             "    where = [\"routing=minimal\", \"load=0.4000\"]; }\n"
             ");\n",
             exp);
    const char *rows = write_temp("sb-int-rows.cfg", rows_text);
    char dir[64] = "/tmp/dfsim-sb-XXXXXX", ref[64] = "/tmp/dfsim-sb-XXXXXX";
    CHECK(mkdtemp(dir) != NULL && mkdtemp(ref) != NULL);
    char base[512], watch[700];
    snprintf(base, sizeof base, "%s", exp + 1);
    base[strlen(base) - 4] = '\0';
    for (char *p = base; *p; p++)
        *p = *p == '/' ? '_' : *p;
    snprintf(watch, sizeof watch, "%s/%s/seed-1/traffic.csv", dir, base);
    const char *argv[] = { "scoreboard", rows, "-o", dir, NULL };
    int rc = interrupt_dfsim(argv, watch, 2, SIGINT, err, sizeof err);
    CHECK_EQ_U(rc, 130);
    if (rc == 130) {
        CHECK_STR_CONTAINS(err, "dfsim scoreboard: interrupted (SIGINT): no "
                                "table written");
        CHECK(!dir_has(dir, "scoreboard.md"));
        char sub[800];
        snprintf(sub, sizeof sub, "%s/seed-2", base);
        CHECK(!dir_has(dir, sub)); /* never started */
        snprintf(sub, sizeof sub, "%s/seed-1/traffic.csv", base);
        CHECK(dir_has(dir, sub)); /* its finished points kept */
    }
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    const char *rv[] = { "scoreboard", rows, "-o", ref, NULL };
    CHECK_EQ_U(run_dfsim(rv, out, sizeof out, err, sizeof err), 0);
    char *a = dir_read(dir, "scoreboard.md"), *b = dir_read(ref, "scoreboard.md");
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(a && strstr(a, ", 2 | in kind | "));
    free(a);
    free(b);
    rm_dir(dir);
    rm_dir(ref);
    unlink(rows);
    unlink(exp);
}

/* One scoreboard a folder (outdir_lock): a lock of a live process of
 * this host, or of another host, refuses a second scoreboard (exit 1,
 * nothing run), while --no-run still reads the folder; a lock whose
 * process has ended is taken over; the lock is gone when the scoreboard
 * ends. */
static void test_scoreboard_lock(void)
{
    const char *exp = write_temp(
        "sb-lock.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
        "  routings = [\"minimal\"]; warmup_us = 1.0; measure_us = 1.0; };\n");
    char rows_text[1024];
    snprintf(rows_text, sizeof rows_text,
             "rows = (\n"
             "  { id = \"acc\"; claim = \"above\"; claim_ref = 0.0;\n"
             "    experiment = \"%s\"; seeds = [1];\n"
             "    file = \"traffic.csv\"; column = \"accepted\";\n"
             "    where = [\"routing=minimal\", \"load=0.1000\"]; }\n"
             ");\n",
             exp);
    const char *rows = write_temp("sb-lock-rows.cfg", rows_text);
    char dir[64] = "/tmp/dfsim-sb-XXXXXX", host[256] = "", lock[128];
    CHECK(mkdtemp(dir) != NULL);
    CHECK(gethostname(host, sizeof host - 1) == 0);
    snprintf(lock, sizeof lock, "%s/scoreboard.lock", dir);
    const char *argv[] = { "scoreboard", rows, "-o", dir, NULL };
    const char *nr[] = { "scoreboard", rows, "-o", dir, "--no-run", NULL };

    /* held by this test's own process, alive */
    FILE *f = fopen(lock, "w");
    CHECK(f && fprintf(f, "%ld %s\n", (long)getpid(), host) > 0);
    if (f)
        fclose(f);
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    char held[300];
    snprintf(held, sizeof held, "is held by process %ld on %s, which is "
             "still running", (long)getpid(), host);
    CHECK_STR_CONTAINS(err, held);
    CHECK_STR_CONTAINS(err, "another scoreboard is running on");
    CHECK(!dir_has(dir, "scoreboard.md"));
    /* --no-run reads meanwhile (nothing finished: exit 1, a table) */
    CHECK_EQ_U(run_dfsim(nr, out, sizeof out, err, sizeof err), 1);
    CHECK(dir_has(dir, "scoreboard.md"));
    CHECK(dir_has(dir, "scoreboard.lock"));

    /* held on another host: cannot be checked, refused */
    f = fopen(lock, "w");
    CHECK(f && fprintf(f, "4242 not-%s\n", host) > 0);
    if (f)
        fclose(f);
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "which this host cannot check");

    /* left by a process that has ended: taken over, run, released */
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    CHECK(child > 0 && waitpid(child, NULL, 0) == child);
    f = fopen(lock, "w");
    CHECK(f && fprintf(f, "%ld %s\n", (long)child, host) > 0);
    if (f)
        fclose(f);
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char ended[200];
    snprintf(ended, sizeof ended, "was left by process %ld, which has "
             "ended: taken over", (long)child);
    CHECK_STR_CONTAINS(err, ended);
    CHECK(!dir_has(dir, "scoreboard.lock"));
    CHECK_STR_CONTAINS(out, "acc");
    rm_dir(dir);
    unlink(rows);
    unlink(exp);
}

/* Runs go in rounds: every row's first seed, then the second ones, so
 * that a scoreboard cut short has a number for as many rows as it can. */
static void test_scoreboard_rounds(void)
{
    const char *a = write_temp(
        "sb-ra.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1];\n"
        "  routings = [\"minimal\"]; warmup_us = 1.0; measure_us = 1.0; };\n");
    const char *b = write_temp(
        "sb-rb.cfg",
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.2];\n"
        "  routings = [\"minimal\"]; warmup_us = 1.0; measure_us = 1.0; };\n");
    char text[1024];
    snprintf(text, sizeof text,
             "rows = (\n"
             "  { id = \"a\"; claim = \"above\"; claim_ref = 0.0;\n"
             "    experiment = \"%s\"; seeds = [1, 2];\n"
             "    file = \"traffic.csv\"; column = \"accepted\"; },\n"
             "  { id = \"b\"; claim = \"above\"; claim_ref = 0.0;\n"
             "    experiment = \"%s\"; seeds = [1];\n"
             "    file = \"traffic.csv\"; column = \"accepted\"; }\n"
             ");\n",
             a, b);
    const char *rows = write_temp("sb-rounds.cfg", text);
    char dir[64] = "/tmp/dfsim-sb-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    /* the kept values too (one path for both runs, since the table names
     * it; removed between them, else the second would run nothing) */
    char keep[128];
    snprintf(keep, sizeof keep, "/tmp/dfsim-test-%d-kept.csv", (int)getpid());
    const char *argv[] = { "scoreboard", rows, "-o", dir, "--keep", keep,
                           NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *kept1 = read_text(keep);
    CHECK(kept1 != NULL);
    unlink(keep);
    char want[3][600];
    snprintf(want[0], sizeof want[0], "[1/3] %s seed 1 ...", a);
    snprintf(want[1], sizeof want[1], "[2/3] %s seed 1 ...", b);
    snprintf(want[2], sizeof want[2], "[3/3] %s seed 2 ...", a);
    const char *p0 = strstr(out, want[0]), *p1 = strstr(out, want[1]),
               *p2 = strstr(out, want[2]);
    CHECK(p0 && p1 && p2 && p0 < p1 && p1 < p2);
    /* under mpirun -np 2 the three runs are dealt (rank 0: a's seed 1;
     * rank 1: b's seed 1 and a's seed 2, exp/par.h), each run a child
     * that does not join the ranks' job; rank 0's table is the one
     * process's, byte for byte, and so are every run's traffic.csv and
     * the kept values */
    char dir2[64] = "/tmp/dfsim-sb-XXXXXX";
    CHECK(mkdtemp(dir2) != NULL);
    const char *argv2[] = { "scoreboard", rows, "-o", dir2, "--keep", keep,
                            NULL };
    CHECK_EQ_U(run_dfsim_mpi(2, argv2, out, sizeof out, err, sizeof err), 0);
    char *kept2 = read_text(keep);
    CHECK(kept1 && kept2 && strcmp(kept1, kept2) == 0);
    free(kept1);
    free(kept2);
    unlink(keep);
    CHECK(strstr(out, want[0]) != NULL);
    CHECK(strstr(out, want[1]) == NULL); /* rank 1's: not said by 0 */
    char run_a2[600]; /* a's seed 2, run by rank 1 (cli_scoreboard.c
                         seed_dir: the path less .cfg, '/' as '_') */
    snprintf(run_a2, sizeof run_a2, "%.*s/seed-2/traffic.csv",
             (int)(strlen(a) - 5), a + 1);
    for (char *q = run_a2; *q && q < strstr(run_a2, "/seed-2"); q++)
        if (*q == '/')
            *q = '_';
    for (int k = 0; k < 2; k++) {
        const char *name = k ? run_a2 : "scoreboard.md";
        char *m1 = dir_read(dir, name), *m2 = dir_read(dir2, name);
        CHECK(m1 && m2 && strcmp(m1, m2) == 0);
        if (!m1 || !m2)
            fprintf(stderr, "  %s: missing\n", name);
        free(m1);
        free(m2);
    }
    rm_dir(dir2);
    rm_dir(dir);
    unlink(rows);
    unlink(a);
    unlink(b);
}

/* The shipped rows file is well formed: reproduce/rows.cfg loads, its
 * experiments exist, and the values kept in reproduce/measured.csv are
 * its rows'. */
/* A row without seeds runs 1, 1 + R, 1 + 2R, R its experiment's runs
 * (experiment.runs or impact.runs), so that no two seeds share a run;
 * a row's own seeds stay; one run: 1, 2, 3. */
static void test_scoreboard_seed_spacing(void)
{
    const char *e8 = write_temp("sbs-e8.cfg", "experiment = { runs = 8; };\n");
    const char *i4 = write_temp("sbs-i4.cfg", "impact = { runs = 4; };\n");
    const char *e1 = write_temp("sbs-e1.cfg", "experiment = { seed = 5; };\n");
    char text[2048];
    snprintf(text, sizeof text,
             "rows = (\n"
             "{ id = \"a\"; paper = \"p\"; figure = \"f\"; quantity = \"q\";\n"
             "  paper_value = 1.0; experiment = \"%s\"; file = \"x.csv\";\n"
             "  column = \"c\"; },\n"
             "{ id = \"b\"; paper = \"p\"; figure = \"f\"; quantity = \"q\";\n"
             "  paper_value = 1.0; experiment = \"%s\"; file = \"x.csv\";\n"
             "  column = \"c\"; },\n"
             "{ id = \"c\"; paper = \"p\"; figure = \"f\"; quantity = \"q\";\n"
             "  paper_value = 1.0; experiment = \"%s\"; file = \"x.csv\";\n"
             "  column = \"c\"; seeds = [2, 3]; },\n"
             "{ id = \"d\"; paper = \"p\"; figure = \"f\"; quantity = \"q\";\n"
             "  paper_value = 1.0; experiment = \"%s\"; file = \"x.csv\";\n"
             "  column = \"c\"; } );\n",
             e8, i4, e8, e1);
    const char *rf = write_temp("sbs-rows.cfg", text);
    struct capture c;
    cap_init(&c);
    struct sb_rows rows;
    CHECK_EQ_U(sb_load(rf, &rows, &c.d), 0);
    if (c.d.errors == 0) {
        sb_space_seeds(&rows, NULL);
        static const double want[4][3] = {
            { 1, 9, 17 }, { 1, 5, 9 }, { 2, 3, 0 }, { 1, 2, 3 } };
        static const uint32_t n[4] = { 3, 3, 2, 3 };
        for (uint32_t k = 0; k < 4 && k < rows.n; k++) {
            CHECK_EQ_U(rows.row[k].seeds.n, n[k]);
            for (uint32_t i = 0; i < n[k]; i++)
                CHECK_NEAR(rows.row[k].seeds.v[i], want[k][i], 0);
        }
        sb_free(&rows);
    } else {
        fprintf(stderr, "%s", cap_text(&c));
    }
    cap_free(&c);
    unlink(e8);
    unlink(i4);
    unlink(e1);
    unlink(rf);
}

static void test_scoreboard_rows_file(void)
{
    struct capture c;
    cap_init(&c);
    struct sb_rows rows;
    CHECK_EQ_U(sb_load(src_path("reproduce/rows.cfg"), &rows, &c.d), 0);
    if (c.d.errors == 0) {
        sb_space_seeds(&rows, src_path("."));
        CHECK(rows.n >= 5);
        for (uint32_t k = 0; k < rows.n; k++)
            CHECK(rows.row[k].not_reproduced ||
                  access(src_path(rows.row[k].experiment), R_OK) == 0);
        /* the kept values (make reproduce's): well formed, every line a
         * seed of a row the file still has, measured on the experiment's
         * settings as they are now (a stale line would be dropped with a
         * warning: an example changed without its kept values deleted) */
        for (uint32_t k = 0; k < rows.n; k++)
            for (uint32_t i = 0; i < rows.row[k].seeds.n &&
                                 !rows.row[k].not_reproduced; i++) {
                char path[4096];
                snprintf(path, sizeof path, "%s",
                         src_path(rows.row[k].experiment));
                char *now = fingerprint_file(
                    path, (int64_t)rows.row[k].seeds.v[i], false);
                CHECK(now != NULL);
                rows.row[k].input[i] =
                    now ? fnv1a(FNV1A_START, now, strlen(now)) : 0;
                free(now);
            }
        const char *kept = src_path("reproduce/measured.csv");
        struct sb_keep k;
        if (access(kept, R_OK) == 0) {
            CHECK_EQ_U(sb_keep_load(kept, &rows, &k, &c.d), 0);
            if (strlen(cap_text(&c)) != 0)
                fprintf(stderr, "%s", cap_text(&c));
            CHECK_EQ_U(strlen(cap_text(&c)), 0);
            CHECK(c.d.errors == 0 && k.n > 0);
            sb_keep_free(&k);
        }
        sb_free(&rows);
    } else {
        fprintf(stderr, "%s", cap_text(&c));
    }
    cap_free(&c);
}

const struct test_case tests_scoreboard[] = {
    TEST(test_scoreboard_load),
    TEST(test_scoreboard_extract),
    TEST(test_scoreboard_judge),
    TEST(test_scoreboard_pipeline),
    TEST(test_scoreboard_keep),
    TEST(test_scoreboard_interrupted),
    TEST(test_scoreboard_lock),
    TEST(test_scoreboard_rounds),
    TEST(test_scoreboard_rows_file),
    TEST(test_scoreboard_seed_spacing),
    { 0 },
};
