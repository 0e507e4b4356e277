/* tests/main.c — runs every registered test, or those whose name contains
 * the first argument, and ends with "N passed, N failed". Exit status 1 if
 * any failed.
 *
 * With more than one job (DFSIM_TEST_JOBS, default: the processors online)
 * every test runs in a child process of its own, that many at a time; what
 * a test prints is kept until its turn comes, so the output is the same
 * lines in the same order as one job's, and a test that crashes fails
 * alone (its signal named); DFSIM_TEST_JOBS=1 runs them so one after
 * another. DFSIM_TEST_JOBS=0 runs them one after another in this process
 * (for a debugger). DFSIM_TEST_TIMES=1 ends each passing test's line with
 * its wall-clock seconds (to find the slow ones).
 *
 * Under AddressSanitizer a child looks for leaks before it exits (_exit
 * skips LeakSanitizer's own check at exit), so that what a test allocates
 * in this process and loses fails it, as a leak in a run of build/dfsim
 * fails that run. */
#include "test.h"

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>

/* Leaks that are not dfsim's. libconfig 1.5 (Debian's libconfig9
 * 1.5-0.4) loses a string token that its grammar discards while
 * recovering from a syntax error (`"x" = 1;`): hyperrealm/libconfig
 * issue #142, fixed upstream in 1.7.3 by pull request #155. The fuzz
 * tests feed it such files. libotf2 3.0.2 (Debian's libotf2-trace-dev)
 * loses the archive it was building when OTF2_Reader_Open fails on a file
 * that is not an anchor file (otf2_archive_open's allocations, never
 * freed on that path); test_otf2_bad_archives_named opens such a file.
 * libotf2 has no frame pointers, so its leaks' stacks end in the library:
 * they are matched by its name. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:strbuf_append\nleak:libopen-trace-format2.so\n";
}

/* The checks a child's leaks count as. */
static int child_leaks(void)
{
    return __lsan_do_recoverable_leak_check() ? 1 : 0;
}
#else
static int child_leaks(void)
{
    return 0;
}
#endif

int test_failures;

#define TESTS(m) extern const struct test_case tests_##m[];
#include "tests.def"
#undef TESTS

static const struct {
    const char *module;
    const struct test_case *cases;
} modules[] = {
#define TESTS(m) { #m, tests_##m },
#include "tests.def"
#undef TESTS
};

struct job {
    const struct test_case *t;
    char name[256];
    pid_t pid;     /* running; 0: not started or reaped */
    FILE *out;     /* its stdout and stderr */
    int status;    /* wait status once reaped */
    bool done;
    double t0, secs; /* wall-clock start and duration (DFSIM_TEST_TIMES) */
};

static bool show_times; /* DFSIM_TEST_TIMES set: each line ends with its seconds */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int report(struct job *j, int *passed, int *failed)
{
    /* what the test printed, then its line */
    char buf[4096];
    size_t n;
    fflush(stdout);
    rewind(j->out);
    while ((n = fread(buf, 1, sizeof buf, j->out)) > 0)
        fwrite(buf, 1, n, stderr);
    fclose(j->out);
    fflush(stderr);
    int st = j->status;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        (*passed)++;
        if (show_times)
            printf("ok   %s (%.2f s)\n", j->name, j->secs);
        else
            printf("ok   %s\n", j->name);
    } else {
        (*failed)++;
        if (WIFSIGNALED(st))
            printf("FAIL %s (killed by signal %d: %s)\n", j->name,
                   WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            printf("FAIL %s (%d checks failed)\n", j->name,
                   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    fflush(stdout);
    return 0;
}

static void start(struct job *j)
{
    j->out = tmpfile();
    j->t0 = now_s();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = j->out ? fork() : -1;
    if (pid == 0) {
        dup2(fileno(j->out), 1);
        dup2(fileno(j->out), 2);
        test_failures = 0;
        j->t->fn();
        test_temps_remove();
        fflush(stdout);
        test_failures += child_leaks();
        fflush(stderr);
        _exit(test_failures > 255 ? 255 : test_failures);
    }
    if (pid < 0) { /* no child: run it here */
        if (!j->out)
            j->out = tmpfile();
        test_failures = 0;
        j->t->fn();
        test_temps_remove();
        j->status = (test_failures > 255 ? 255 : test_failures) << 8;
        j->secs = now_s() - j->t0;
        j->done = true;
        return;
    }
    j->pid = pid;
}

static int run_parallel(struct job *jobs, size_t n, long width)
{
    int passed = 0, failed = 0;
    size_t next = 0, shown = 0;
    long running = 0;
    while (shown < n) {
        while (running < width && next < n) {
            start(&jobs[next]);
            running += jobs[next].pid > 0;
            next++;
        }
        while (shown < next && jobs[shown].done)
            report(&jobs[shown++], &passed, &failed);
        if (shown == n)
            break;
        int st;
        pid_t pid = wait(&st);
        if (pid < 0)
            break;
        for (size_t i = shown; i < next; i++)
            if (jobs[i].pid == pid) {
                jobs[i].status = st;
                jobs[i].secs = now_s() - jobs[i].t0;
                jobs[i].done = true;
                jobs[i].pid = 0;
                running--;
            }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed || shown < n ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    const char *env = getenv("DFSIM_TEST_JOBS");
    long width = env && *env ? strtol(env, NULL, 10)
                             : sysconf(_SC_NPROCESSORS_ONLN);
    if (width < 0)
        width = 1;
    const char *times = getenv("DFSIM_TEST_TIMES");
    show_times = times && *times && strcmp(times, "0") != 0;

    size_t n = 0, cap = 0;
    struct job *jobs = NULL;
    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++) {
        for (const struct test_case *t = modules[m].cases; t->name; t++) {
            char full[256];
            snprintf(full, sizeof full, "%s/%s", modules[m].module, t->name);
            if (filter && !strstr(full, filter))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                struct job *g = realloc(jobs, cap * sizeof *g);
                if (!g) {
                    fprintf(stderr, "dfsim-tests: out of memory\n");
                    free(jobs);
                    return EXIT_FAILURE;
                }
                jobs = g;
            }
            memset(&jobs[n], 0, sizeof jobs[n]);
            jobs[n].t = t;
            snprintf(jobs[n].name, sizeof jobs[n].name, "%s", full);
            n++;
        }
    }
    if (width > 0) {
        int rc = run_parallel(jobs, n, width);
        free(jobs);
        return rc;
    }
    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        test_failures = 0;
        double t0 = now_s();
        jobs[i].t->fn();
        test_temps_remove();
        fflush(stderr);
        if (test_failures == 0) {
            passed++;
            if (show_times)
                printf("ok   %s (%.2f s)\n", jobs[i].name, now_s() - t0);
            else
                printf("ok   %s\n", jobs[i].name);
        } else {
            failed++;
            printf("FAIL %s (%d checks failed)\n", jobs[i].name,
                   test_failures);
        }
        fflush(stdout);
    }
    free(jobs);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
