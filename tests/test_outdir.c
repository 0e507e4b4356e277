/* tests/test_outdir.c — what dfsim may do to a results folder (issue 57,
 * items 1, 2 and 10): every folder lists the files dfsim wrote there
 * (experiment.files, with their sizes and hashes); --force removes only
 * those and refuses a folder holding anything else; an interrupted run
 * leaves no sampler file of the run it cut; --resume refuses results
 * changed since dfsim wrote them. Each test here failed before its fix. */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exp/fingerprint.h"

static char out[1 << 17], err[1 << 17];

/* The manifest's name (exp/manifest.h), spelled out: the test checks the
 * documented name, not whatever the code calls it. */
#define MANIFEST "experiment.files"

/* The experiment: one valiant point on df1056 (~0.1 s). */
static const char traffic_text[] =
    "system = { name = \"df1056\"; }; traffic = { pattern = \"uniform\"; "
    "routings = [\"valiant\"]; loads = [0.1]; warmup_us = 0.5; "
    "measure_us = 0.5; };\n";

/* A small jobs experiment (ping-pong runs on xc-12cab). */
static const char *jobs_cfg(const char *name, int runs)
{
    char text[512];
    snprintf(text, sizeof text,
             "experiment = { seed = 5; runs = %d; };\n"
             "system = { name = \"xc-12cab\"; };\n"
             "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
             "  bytes = 4096; nodes = 2; iterations = 4; } );\n",
             runs);
    return write_temp(name, text);
}

/* The manifest's hash, written here from its definition (FNV-1a, 64
 * bits: offset basis 14695981039346656037, prime 1099511628211). */
static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The bytes of dir/name and their number (NULL if unreadable). */
static char *bytes_of(const char *dir, const char *name, size_t *n)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    struct stat st;
    char *b = NULL;
    if (fstat(fileno(f), &st) == 0 && (b = malloc((size_t)st.st_size + 1)))
        *n = fread(b, 1, (size_t)st.st_size, f);
    fclose(f);
    return b;
}

/* Whether the manifest of dir lists name as done with its current size
 * and hash. */
static bool listed_done(const char *dir, const char *name)
{
    size_t n = 0;
    char *b = bytes_of(dir, name, &n);
    char *m = dir_read(dir, MANIFEST);
    char line[512];
    snprintf(line, sizeof line, "\ndone %zu %016llx %s\n", n,
             (unsigned long long)(b ? fnv1a(b, n) : 0), name);
    bool ok = b && m && strstr(m, line);
    if (!ok)
        fprintf(stderr, "  %s: no line \"%s\" in its manifest\n", name,
                line + 1);
    free(b);
    free(m);
    return ok;
}

/* Item 1, the case: a folder of files dfsim never wrote (and
 * the experiment file) is refused with --force, naming the folder and
 * the files, telling the user to name a new folder; nothing is removed
 * or written. (It removed all three, by their extensions.) */
static void test_force_keeps_others_files(void)
{
    char dir[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    dir_write(dir, "measurements.csv", "a,b\n1,2\n");
    dir_write(dir, "README.txt", "my notes\n");
    dir_write(dir, "plot.gp", "plot sin(x)\n");
    dir_write(dir, "exp.cfg", traffic_text);
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/exp.cfg", dir);
    const char *argv[] = { "run", cfg, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, dir);
    CHECK_STR_CONTAINS(err, "measurements.csv");
    CHECK_STR_CONTAINS(err, "README.txt");
    CHECK_STR_CONTAINS(err, "plot.gp");
    CHECK_STR_CONTAINS(err, "files dfsim did not write");
    CHECK_STR_CONTAINS(err, "name a new folder with -o");
    char *m = dir_read(dir, "measurements.csv"), *r = dir_read(dir, "README.txt"),
         *g = dir_read(dir, "plot.gp");
    CHECK(m && strcmp(m, "a,b\n1,2\n") == 0);
    CHECK(r && strcmp(r, "my notes\n") == 0);
    CHECK(g && strcmp(g, "plot sin(x)\n") == 0);
    CHECK(!dir_has(dir, FINGERPRINT_FILE) && !dir_has(dir, "traffic.csv"));
    free(m);
    free(r);
    free(g);
    rm_dir(dir);
}

/* --force over another experiment's folder removes exactly the files its
 * manifest lists (and a leftover .tmp of one of them), the experiment
 * file lying there kept; a folder with one file more is refused, naming
 * it, and left as it was; so is a folder of an older dfsim (results, no
 * manifest), saying why. */
static void test_force_removes_listed_only(void)
{
    char dir[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *jobs = jobs_cfg("force-jobs.cfg", 1);
    const char *a1[] = { "run", jobs, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK(dir_has(dir, "jobs.csv") && dir_has(dir, MANIFEST));

    /* another experiment, forced: the jobs' files go */
    dir_write(dir, "exp.cfg", traffic_text);
    dir_write(dir, "report.html.tmp", "<html>cut");
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/exp.cfg", dir);
    const char *a2[] = { "run", cfg, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 0);
    CHECK(!dir_has(dir, "jobs.csv") && !dir_has(dir, "runs.csv"));
    CHECK(!dir_has(dir, "report.html.tmp"));
    CHECK(dir_has(dir, "exp.cfg") && dir_has(dir, "traffic.csv"));

    /* one file dfsim did not write: refused, nothing removed (exp.cfg
     * is not this run's experiment file: another file too) */
    unlink(cfg);
    dir_write(dir, "notes.md", "mine\n");
    const char *a3[] = { "run", jobs, "-o", dir, "--force", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, dir);
    CHECK_STR_CONTAINS(err, "notes.md");
    CHECK(dir_has(dir, "notes.md") && dir_has(dir, "traffic.csv"));
    CHECK(!dir_has(dir, "jobs.csv"));

    /* an older dfsim's folder: its settings, no manifest */
    char p[256];
    snprintf(p, sizeof p, "%s/notes.md", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/%s", dir, MANIFEST);
    unlink(p);
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, "no " MANIFEST);
    CHECK(dir_has(dir, "traffic.csv") && !dir_has(dir, "jobs.csv"));
    unlink(jobs);
    rm_dir(dir);
}

/* Every file of a run is in its manifest, done, with its size and its
 * FNV-1a hash; nothing else is listed, and neither the manifest nor the
 * settings are. */
static void test_manifest_lists_every_file(void)
{
    char dir[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "every.cfg",
        "experiment = { seed = 2; runs = 2; };\n"
        "system = { name = \"voltrino\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1, 0.2];\n"
        "  warmup_us = 0.5; measure_us = 0.5; };\n"
        "sampling = { interval_us = 1.0; nic = true; rtr = true; "
        "links = true; };\n"
        "jobs = ( { name = \"pp\"; workload = \"pingpong\";\n"
        "  bytes = 4096; nodes = 2; iterations = 4; } );\n");
    const char *argv[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(argv, out, sizeof out, err, sizeof err), 0);
    char *m = dir_read(dir, MANIFEST);
    CHECK(m && strncmp(m, "# ", 2) == 0);
    int files = 0, lines = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *nm = e->d_name;
        if (nm[0] == '.' || strcmp(nm, MANIFEST) == 0 ||
            strcmp(nm, FINGERPRINT_FILE) == 0)
            continue;
        files++;
        CHECK(listed_done(dir, nm));
    }
    if (d)
        closedir(d);
    for (const char *q = m; q && *q; q = strchr(q, '\n') + 1) {
        lines += *q != '#';
        if (!strchr(q, '\n'))
            break;
    }
    CHECK(files > 20); /* samples, links, jobs' files, reports */
    CHECK_EQ_U(lines, files);
    CHECK(m && !strstr(m, " " FINGERPRINT_FILE "\n") &&
          !strstr(m, " " MANIFEST "\n"));
    free(m);
    unlink(cfg);
    rm_dir(dir);
}

/* Start dfsim with argv; once dir/name (or its .tmp) holds `lines`
 * lines, SIGINT it. Its exit status, or -1 if it ended first. */
static int sigint_when(const char *const argv[], const char *dir,
                       const char *name, int lines)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return interrupt_dfsim(argv, path, lines, SIGINT, err, sizeof err);
}

/* Item 2: SIGINT while a traffic point samples its counters leaves no
 * sampler file of that point, not even a partial one under its final
 * name (it left 1,665 of 64,897 lines), and no .tmp; the finished
 * point's files are whole and listed; --resume then gives the folder of
 * an uninterrupted sweep, byte for byte, its manifest too. */
static void test_sigint_leaves_no_partial_samples(void)
{
    char whole[64] = "/tmp/dfsim-outdir-XXXXXX";
    char cut[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(whole) != NULL && mkdtemp(cut) != NULL);
    const char *cfg = write_temp(
        "cut.cfg",
        "experiment = { seed = 3; };\n"
        "system = { name = \"df1056\"; };\n"
        "traffic = { pattern = \"uniform\"; loads = [0.1, 0.2];\n"
        "  routings = [\"minimal\"]; warmup_us = 1.0; measure_us = 2.0; };\n"
        "sampling = { interval_us = 0.25; nic = true; links = true; };\n");
    const char *a1[] = { "run", cfg, "-o", whole, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);

    /* cut while the second point is some samples in */
    const char *a2[] = { "run", cfg, "-o", cut, NULL };
    CHECK_EQ_U(sigint_when(a2, cut, "nic_samples_minimal_0.2000.csv", 3000),
               130);
    CHECK_STR_CONTAINS(err, "dfsim run: interrupted (SIGINT)");
    CHECK(!dir_has(cut, "nic_samples_minimal_0.2000.csv"));
    CHECK(!dir_has(cut, "links_minimal_0.2000.txt"));
    CHECK(!dir_has(cut, "nic_samples_minimal_0.2000.csv.tmp"));
    CHECK(!dir_has(cut, "links_minimal_0.2000.txt.tmp"));
    DIR *d = opendir(cut);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        CHECK(!(n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0));
    }
    if (d)
        closedir(d);
    /* the first point's, whole: as the uninterrupted run's */
    char *a = dir_read(whole, "nic_samples_minimal_0.1000.csv");
    char *b = dir_read(cut, "nic_samples_minimal_0.1000.csv");
    CHECK(a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
    CHECK(listed_done(cut, "nic_samples_minimal_0.1000.csv"));

    const char *a3[] = { "run", cfg, "-o", cut, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a3, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "resuming: traffic runs 1-1 of 2 were done");
    CHECK_EQ_U(same_files(whole, cut), 0);
    unlink(cfg);
    rm_dir(whole);
    rm_dir(cut);
}

/* Item 10a: --resume over results changed since dfsim wrote them
 * (iterations.csv cut by a line; then one byte of it changed, its size
 * kept) is refused, naming the file and what differs, and touches
 * nothing; the folder as dfsim left it resumes. (It trusted runs.csv and
 * went on.) */
static void test_resume_refuses_changed_results(void)
{
    char dir[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = jobs_cfg("changed.cfg", 2);
    const char *a1[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    size_t n = 0;
    char *it = bytes_of(dir, "iterations.csv", &n);
    CHECK(it && n > 2);
    if (!it || n <= 2) {
        free(it);
        rm_dir(dir);
        return;
    }
    const char *a2[] = { "run", cfg, "-o", dir, "--resume", NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 0);

    /* the last line cut off */
    size_t cut = n - 1;
    while (cut > 0 && it[cut - 1] != '\n')
        cut--;
    char p[256], msg[512];
    snprintf(p, sizeof p, "%s/iterations.csv", dir);
    CHECK(truncate(p, (off_t)cut) == 0);
    char *runs = dir_read(dir, "runs.csv");
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    snprintf(msg, sizeof msg, "%s: changed since dfsim wrote it: size %zu, "
                              "manifest says %zu", p, cut, n);
    CHECK_STR_CONTAINS(err, msg);
    CHECK_STR_CONTAINS(err, "--resume");
    char *runs2 = dir_read(dir, "runs.csv");
    CHECK(runs && runs2 && strcmp(runs, runs2) == 0);
    size_t n2 = 0;
    char *it2 = bytes_of(dir, "iterations.csv", &n2);
    CHECK_EQ_U(n2, cut); /* not rewritten */

    /* same size, one byte changed */
    it[n - 2] = it[n - 2] == '1' ? '2' : '1';
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(it, 1, n, f);
        fclose(f);
    }
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    snprintf(msg, sizeof msg, "%s: changed since dfsim wrote it: its bytes "
                              "differ (FNV-1a hash ", p);
    CHECK_STR_CONTAINS(err, msg);
    free(it);
    free(it2);
    free(runs);
    free(runs2);
    unlink(cfg);
    rm_dir(dir);
}

/* Item 10c: a run admitted under --max-memory does not go past it
 * unsaid. This xc-12cab sweep point is estimated at 63.6 MiB before its
 * first packet and admitted under 96 MiB; at load 0.9 its packets in
 * flight take it to 119 MiB at its peak (measured without gnuplot; the
 * estimate does not count them). It used to pass, exit 0; now it fails
 * saying so, its row not written. Whatever the estimate becomes, the
 * rule holds: refused before it runs, or within the limit at its peak,
 * or failed saying it went over. */
static void test_max_memory_kept(void)
{
    char dir[64] = "/tmp/dfsim-outdir-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *cfg = write_temp(
        "mem.cfg", "system = { name = \"xc-12cab\"; };\n"
                   "traffic = { loads = [0.9]; warmup_us = 0.5; "
                   "measure_us = 0.5; drain_us = 0.2; };\n");
    const char *argv[] = { "run", cfg, "-o", dir, "--max-memory", "96M",
                           NULL };
    int rc = run_dfsim(argv, out, sizeof out, err, sizeof err);
    long peak = run_last_maxrss_kib(); /* gnuplot's too, if it ran */
    bool refused = rc == 1 && strstr(err, "needs about");
    bool within = rc == 0 && peak >= 0 && peak <= 96 * 1024;
    bool said = rc == 1 && strstr(err, "more than the 96.0 MiB allowed "
                                       "(--max-memory)") &&
                strstr(err, "at its peak");
    if (!(refused || within || said))
        fprintf(stderr, "  exit %d, peak %ld KiB over 96 MiB allowed:\n"
                        "%s\n", rc, peak, err);
    CHECK(refused || within || said);
    CHECK(!refused); /* admitted: the case this test is about */
    CHECK_STR_CONTAINS(err, "traffic point 1/1 took ");
    char *csv = dir_read(dir, "traffic.csv");
    CHECK(csv && !strstr(csv, "\nADAPTIVE_0,")); /* no row */
    free(csv);
    unlink(cfg);
    rm_dir(dir);
}

const struct test_case tests_outdir[] = {
    TEST(test_force_keeps_others_files),
    TEST(test_force_removes_listed_only),
    TEST(test_manifest_lists_every_file),
    TEST(test_sigint_leaves_no_partial_samples),
    TEST(test_resume_refuses_changed_results),
    TEST(test_max_memory_kept),
    { 0 },
};
