/* tests/cli_util.c — run the dfsim executable from tests and capture what it
 * prints, so command-line behaviour (exit codes, diagnostics) is tested in C
 * like everything else. */
#define _DEFAULT_SOURCE /* wait4: the child's own peak memory */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dfsim_bin(void)
{
    const char *b = getenv("DFSIM_BIN");
    return b && *b ? b : "build/dfsim";
}

const char *src_path(const char *rel)
{
    static char buf[4][1024];
    static int next;
    const char *root = getenv("DFSIM_SRC");
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", root && *root ? root : ".", rel);
    return p;
}

/* Read all of fd into buf (at most cap-1 bytes kept), NUL-terminate. */
static void slurp(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    char tmp[4096];
    ssize_t r;
    while ((r = read(fd, tmp, sizeof tmp)) > 0) {
        for (ssize_t i = 0; i < r && n + 1 < cap; i++)
            buf[n++] = tmp[i];
    }
    if (cap)
        buf[n] = '\0';
}

/* args[0..cap): the program, then argv (cut to fit), NULL-terminated. */
static void dfsim_args(const char **args, size_t cap,
                       const char *const argv[])
{
    size_t n = 0;
    args[n++] = dfsim_bin();
    for (size_t i = 0; argv[i] && n + 1 < cap; i++)
        args[n++] = argv[i];
    args[n] = NULL;
}

/* The peak resident memory of the last child run_args waited for, KiB. */
static long last_maxrss_kib = -1;

long run_last_maxrss_kib(void)
{
    return last_maxrss_kib;
}

/* Run args[0] with args, its standard output and error into out and
 * err; with `mpi`, in the environment mpirun needs here (see
 * run_dfsim_mpi). Returns its exit status, or -1. */
static int run_args(const char *const *args, bool mpi, char *out,
                    size_t out_cap, char *err, size_t err_cap)
{
    char out_path[] = "/tmp/dfsim-test-outXXXXXX";
    char err_path[] = "/tmp/dfsim-test-errXXXXXX";
    int ofd = mkstemp(out_path), efd = mkstemp(err_path);
    if (ofd < 0 || efd < 0)
        return -1;
    unlink(out_path);
    unlink(err_path);

    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(ofd, 1);
        dup2(efd, 2);
        if (mpi) {
            /* CI runs as root, which mpirun refuses unless told; Open
             * MPI's own allocations are not freed at MPI_Finalize, which
             * LeakSanitizer would report as dfsim's (the single-process
             * tests check dfsim's leaks) */
            setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
            setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
            setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
            execvp(args[0], (char *const *)args);
        } else {
            execv(args[0], (char *const *)args);
        }
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    last_maxrss_kib = -1;
    if (wait4(pid, &status, 0, &ru) < 0)
        return -1;
    last_maxrss_kib = ru.ru_maxrss;
    lseek(ofd, 0, SEEK_SET);
    lseek(efd, 0, SEEK_SET);
    if (out)
        slurp(ofd, out, out_cap);
    if (err)
        slurp(efd, err, err_cap);
    close(ofd);
    close(efd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_dfsim(const char *const argv[], char *out, size_t out_cap, char *err,
              size_t err_cap)
{
    const char *args[64];
    dfsim_args(args, sizeof args / sizeof args[0], argv);
    return run_args(args, false, out, out_cap, err, err_cap);
}

int run_dfsim_mpi(int np, const char *const argv[], char *out,
                  size_t out_cap, char *err, size_t err_cap)
{
    char n[16];
    snprintf(n, sizeof n, "%d", np);
    const char *args[72] = { "mpirun", "--oversubscribe", "-np", n };
    dfsim_args(args + 4, sizeof args / sizeof args[0] - 4, argv);
    return run_args(args, true, out, out_cap, err, err_cap);
}

int run_program(const char *const argv[], char *out, size_t out_cap,
                char *err, size_t err_cap)
{
    return run_args(argv, true, out, out_cap, err, err_cap);
}

const char *write_temp(const char *name, const char *text)
{
    static char paths[8][256];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "/tmp/dfsim-test-%d-%s", (int)getpid(), name);
    FILE *f = fopen(p, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return p;
}

bool have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

void rm_dir(const char *path)
{
    struct stat st;
    if (!path || lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[4200];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            rm_dir(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

void temp_dirs(char (*dir)[64], int n, const char *tag)
{
    for (int i = 0; i < n; i++) {
        snprintf(dir[i], sizeof dir[i], "/tmp/dfsim-%s-XXXXXX", tag);
        CHECK(mkdtemp(dir[i]) != NULL);
    }
}

void rm_dirs(char (*dir)[64], int n)
{
    for (int i = 0; i < n; i++)
        rm_dir(dir[i]);
}

void test_temps_remove(void)
{
    char pat[64];
    snprintf(pat, sizeof pat, "/tmp/dfsim-test-%d-*", (int)getpid());
    glob_t g;
    if (glob(pat, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            rm_dir(g.gl_pathv[i]);
        globfree(&g);
    }
}

char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = 0, cap = 4096, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *p = realloc(buf, cap * 2);
            if (!p)
                free(buf);
            buf = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Complete lines (ending in a newline) of file path; 0 if missing. */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = 0, c;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

int interrupt_dfsim(const char *const argv[], const char *watch, int lines,
                    int sig, char *err, size_t err_cap)
{
    char err_path[] = "/tmp/dfsim-test-errXXXXXX";
    int efd = mkstemp(err_path);
    if (efd < 0)
        return -1;
    unlink(err_path);
    const char *args[64];
    dfsim_args(args, sizeof args / sizeof args[0], argv);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(efd);
        return -1;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 1);
        dup2(efd, 2);
        execv(args[0], (char *const *)args);
        _exit(127);
    }
    /* poll every 5 ms, at most 120 s (a sanitizer build is slow) */
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 24000; i++) {
        /* the file, or its NAME.tmp while dfsim writes it */
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp", watch);
        if (count_lines(watch) >= lines || count_lines(tmp) >= lines)
            break;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            ended = true; /* finished (or failed) before the rows came */
            break;
        }
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    if (!ended) {
        kill(pid, sig);
        if (waitpid(pid, &status, 0) < 0)
            status = -1;
    }
    lseek(efd, 0, SEEK_SET);
    if (err)
        slurp(efd, err, err_cap);
    close(efd);
    if (ended)
        return -1; /* not interrupted: the caller's test is void */
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int same_files(const char *a, const char *b)
{
    int differ = 0, n_a = 0, n_b = 0;
    DIR *d = opendir(a);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        n_a++;
        char pa[4200], pb[4200];
        snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
        snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
        char *ta = read_text(pa), *tb = read_text(pb);
        if (!ta || !tb || strcmp(ta, tb) != 0) {
            fprintf(stderr, "  %s differs from %s\n", pb, pa);
            differ++;
        }
        free(ta);
        free(tb);
    }
    closedir(d);
    if (!(d = opendir(b)))
        return -1;
    while ((e = readdir(d)))
        n_b += e->d_name[0] != '.';
    closedir(d);
    if (n_a != n_b) {
        fprintf(stderr, "  %s holds %d files, %s %d\n", a, n_a, b, n_b);
        differ++;
    }
    return differ;
}

/* ---- diagnostics captured in memory ------------------------------------ */

void cap_init(struct capture *c)
{
    diag_init(&c->d);
    c->d.max_errors = 0;
    c->text = NULL;
    c->len = 0;
    c->d.out = open_memstream(&c->text, &c->len);
}

const char *cap_text(struct capture *c)
{
    fflush(c->d.out);
    return c->text ? c->text : "";
}

void cap_free(struct capture *c)
{
    fclose(c->d.out);
    free(c->text);
}

char *dir_read(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return read_text(p);
}

bool dir_has(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

void dir_write(const char *dir, const char *name, const char *text)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}
