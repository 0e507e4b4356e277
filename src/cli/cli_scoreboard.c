/* cli/cli_scoreboard.c — `dfsim scoreboard ROWS [-o DIR] [-j N] [--quick]
 * [--no-run] [--write FILE]`: every row of a rows file (results/scoreboard.h) run
 * over its seeds, each seed as `dfsim run EXPERIMENT -o
 * DIR/EXPERIMENT/seed-S --seed S --resume` in a child process, N
 * children at once, every row's first seed before any second (rows of
 * one experiment share its runs; a run
 * finished before is read back, one cut short goes on: the scoreboard
 * resumes as its runs do), then the number read from each, the rows
 * judged, the table written to DIR/scoreboard.md (and FILE). The table
 * depends on the runs' results only, not on N or the order they end in;
 * rows marked not_reproduced run nothing. --no-run starts nothing and
 * reads the runs that finished before (each leaves DIR/EXPERIMENT/
 * seed-S.done, naming the dfsim that ran it and, "wall_s N", the wall
 * seconds of its last start): the state of a scoreboard that is still
 * running or was cut short, its other rows "not run". A folder whose
 * run was started from another version of its experiment file is run
 * again from the start (--force), never read. Under `mpirun -np R` (or srun)
 * the runs are dealt over the ranks as an experiment's units are
 * (exp/par.h: par_owner, in the rounds' order), each rank N at once in
 * its own children, over a folder every rank sees (a cluster's shared
 * file system); rank 0 writes the table once every rank is done, reading
 * the others' runs from their .done marks. --keep FILE keeps each
 * seed's value with the dfsim that measured it (results/scoreboard.h),
 * so that the table outlives the runs' folders: a session's machine. A
 * scoreboard that runs holds DIR/scoreboard.lock (its PID and host): a
 * second one on the same folder is refused, a lock whose process has
 * ended taken over. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/hash.h"
#include "core/time.h"
#include "exp/fingerprint.h"
#include "exp/outdir.h"
#include "exp/par.h"
#include "results/scoreboard.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim scoreboard ROWS [-o DIR] [-j N] [--quick] "
            "[--no-run] [--write FILE]\n"
            "                        [--keep FILE [--forget PATTERN]...]"
            "\n\n"
            "Run every row of ROWS (a rows file: results/scoreboard.h, "
            "reproduce/rows.cfg)\nover its seeds, read each row's number "
            "from its results, judge it against the\npaper's and write "
            "the table to DIR/scoreboard.md.\n\n"
            "  -o DIR        results (default results/scoreboard; each "
            "experiment's seed\n"
            "                in DIR/EXPERIMENT/seed-S, shared by its rows, "
            "resumed if cut short)\n"
            "  -j N          N runs at once, each a process (1)\n"
            "  --no-run      run nothing: the table from the runs finished "
            "before (a long\n"
            "                scoreboard's state; the others' rows \"not "
            "run\")\n"
            "  --quick       every run with --quick: checks the pipeline, "
            "not the numbers\n"
            "                (DIR default results/scoreboard-quick)\n"
            "  --write FILE  the table also to FILE (docs/reproductions.md)\n"
            "  --keep FILE   each seed's value kept in FILE with the dfsim "
            "that measured\n"
            "                it (reproduce/measured.csv): a seed whose rows "
            "are all kept is\n"
            "                not run again, a run finished in DIR "
            "replaces its values; a value\n"
            "                measured before its experiment file "
            "changed is measured again\n"
            "  --forget PATTERN  drop the kept values of the rows whose "
            "experiment matches\n"
            "                the shell pattern (\"examples/sc20-*.cfg\"): "
            "the model they run\n"
            "                changed; measured again, or read from DIR's "
            "runs (repeatable)\n"
            "\nUnder mpirun -np R (or srun) the runs are dealt over the "
            "ranks, each N at\nonce, in a folder every rank sees; rank 0 "
            "writes the table.\n");
}

/* The folder of an experiment's seed: out/<its path, '/' as '_', less
 * .cfg>/seed-S, so that rows reading the same run share it (it runs
 * once: the next row's --resume finds it finished). */
static void seed_dir(char *dir, size_t cap, const char *out,
                     const char *experiment, long long seed)
{
    char name[1024];
    snprintf(name, sizeof name, "%s", experiment);
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".cfg") == 0)
        name[n - 4] = '\0';
    for (char *p = name; *p; p++)
        if (*p == '/')
            *p = '_';
    snprintf(dir, cap, "%s/%s/seed-%lld", out,
             name[0] == '_' ? name + 1 : name, seed);
}

/* The environment of a run: this process's, less the variables of an
 * MPI launcher (mpirun, srun), so that the child of a rank runs on its
 * own instead of joining the rank's job (par_start looks for them).
 * Built before the fork: after it, in a process with MPI's threads, the
 * child calls only what is async-signal-safe. NULL out of memory. */
static char **run_environment(void)
{
    static const char *const prefix[] = { "OMPI_", "PMIX_", "PMI_" };
    extern char **environ;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc((n + 1) * sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool drop = false;
        for (size_t j = 0; j < sizeof prefix / sizeof *prefix; j++)
            drop = drop ||
                   strncmp(environ[i], prefix[j], strlen(prefix[j])) == 0;
        if (!drop)
            env[k++] = environ[i];
    }
    env[k] = NULL;
    return env;
}

/* Start `dfsim run` of experiment's seed into dir, by this executable in
 * a child, its output into dir.log: the child's pid, or -1. `fresh`: the
 * folder holds a run of another version of the experiment, replaced
 * (--force) rather than resumed. */
static pid_t start_seed(const char *experiment, long long seed,
                        const char *dir, bool quick, bool fresh)
{
    char seed_s[32], log[4200];
    snprintf(seed_s, sizeof seed_s, "%lld", seed);
    if (outdir_make(dir) != 0)
        return -1;
    snprintf(log, sizeof log, "%s.log", dir);
    const char *argv[10] = { "dfsim", "run", experiment, "-o", dir,
                             "--seed", seed_s,
                             fresh ? "--force" : "--resume",
                             quick ? "--quick" : NULL, NULL };
    char **env = run_environment();
    int fd = env ? open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
    if (fd < 0) {
        free(env);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        /* a process group of its own: a terminal's ^C reaches the
         * scoreboard, which passes it on once (a second signal would end
         * the run at once, SA_RESETHAND in cli_run.c) */
        setpgid(0, 0);
        if (dup2(fd, 1) >= 0 && dup2(fd, 2) >= 0)
            execve("/proc/self/exe", (char *const *)argv, env);
        _exit(127);
    }
    close(fd);
    free(env);
    return pid;
}

/* One run of the scoreboard: an experiment's seed, shared by the rows
 * that read it. */
struct sb_run {
    const char *experiment;
    long long seed;
    char dir[4096];
    pid_t pid;
    int ok;                      /* -1 not yet, 0 failed, 1 finished,
                                    2 not run (--no-run), 3 another
                                    rank's, 4 its rows' values kept */
    uint64_t input;              /* hash of the settings it records (0:
                                    the file could not be read) */
    bool fresh;                  /* its folder holds another version's */
    double t0;                   /* wall clock at its start, s */
};

/* A run that exited 0 leaves dir.done beside dir.log (--no-run reads
 * it), naming the dfsim that ran it (dfsim_build: the kept values'
 * record); one that starts or fails has none. */
static void mark_done(const char *dir, bool done, double wall)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.done", dir);
    if (!done) {
        unlink(path);
        return;
    }
    FILE *f = fopen(path, "w");
    if (f) {
        /* the run's cost for rows.cfg's comments: wall seconds of its
         * last start (a resumed run's remainder), with `jobs` at once */
        fprintf(f, "%s\nwall_s %.0f\n", dfsim_build(), wall);
        fclose(f);
    }
}

static bool is_done(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.done", dir);
    return access(path, F_OK) == 0;
}

/* A run finished, of the experiment as its file is now. */
static bool finished(const struct sb_run *x)
{
    return !x->fresh && is_done(x->dir);
}

/* Each run's settings hash, into the rows that read it (kept values'
 * `input`); a run whose folder was started with other settings (the
 * experiment file changed since) is run again from the start, said; a
 * run finished before is read as it is (ok 1: its mark keeps naming the
 * dfsim that ran it; resuming it would mark it again with this one). */
static void plan_inputs(struct sb_rows *rows, struct sb_run *run,
                        uint32_t n_run, bool quick)
{
    for (uint32_t j = 0; j < n_run; j++) {
        char *now = fingerprint_file(run[j].experiment, run[j].seed, quick);
        if (now)
            run[j].input = fnv1a(FNV1A_START, now, strlen(now));
        char *stored = now ? outdir_slurp(run[j].dir, FINGERPRINT_FILE)
                           : NULL;
        int differ = stored ? fingerprint_diff(stored, now, NULL, NULL, 0)
                            : 0;
        if (differ) {
            run[j].fresh = true;
            fprintf(stderr, "dfsim scoreboard: %s holds a run of another "
                    "version of %s (%d setting%s differ%s): %s\n",
                    run[j].dir, run[j].experiment, differ,
                    differ == 1 ? "" : "s", differ == 1 ? "s" : "",
                    is_done(run[j].dir) ? "not read, run again"
                                        : "run again from the start");
        }
        free(stored);
        free(now);
        if (finished(&run[j]))
            run[j].ok = 1;
    }
    for (uint32_t k = 0; k < rows->n; k++) {
        struct sb_row *r = &rows->row[k];
        for (uint32_t i = 0; i < r->seeds.n && !r->not_reproduced; i++)
            for (uint32_t j = 0; j < n_run; j++)
                if (run[j].seed == (long long)r->seeds.v[i] &&
                    strcmp(run[j].experiment, r->experiment) == 0)
                    r->input[i] = run[j].input;
    }
}

/* The dfsim a finished run's .done mark names into by ("unrecorded": a
 * mark older than the record). */
static void done_by(const char *dir, char *by, size_t cap)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.done", dir);
    FILE *f = fopen(path, "r");
    by[0] = '\0';
    if (f) {
        if (!fgets(by, (int)cap, f))
            by[0] = '\0';
        fclose(f);
    }
    by[strcspn(by, "\r\n")] = '\0';
    if (!by[0] || strchr(by, ','))
        snprintf(by, cap, "unrecorded");
}

/* The runs rows need, each once, in rounds: every row's first seed in
 * the rows' order, then every row's second, and so on — so that a
 * scoreboard cut short (or read with --no-run while it runs) has a
 * number for as many rows as it can. How many (at most cap). */
static uint32_t plan_runs(const struct sb_rows *rows, const char *out,
                          struct sb_run *run, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < SB_SEEDS_MAX; i++)
        for (uint32_t k = 0; k < rows->n; k++) {
            const struct sb_row *r = &rows->row[k];
            if (i >= r->seeds.n || r->not_reproduced)
                continue;
            char dir[4096];
            seed_dir(dir, sizeof dir, out, r->experiment,
                     (long long)r->seeds.v[i]);
            uint32_t j = 0;
            while (j < n && strcmp(run[j].dir, dir) != 0)
                j++;
            if (j < n || n == cap)
                continue;
            run[n] = (struct sb_run){ .experiment = r->experiment,
                                      .seed = (long long)r->seeds.v[i],
                                      .pid = -1, .ok = -1 };
            memcpy(run[n++].dir, dir, sizeof dir);
        }
    return n;
}

/* SIGINT, SIGTERM: start no more runs, pass the signal on to the live
 * ones (each keeps what it finished and ends), write no table. */
static volatile sig_atomic_t sb_stop;

static void on_stop(int sig)
{
    sb_stop = sig;
}


/* Child pid's end: its run's state, said on stdout. */
static void ended(struct sb_run *run, uint32_t n, pid_t pid, int status)
{
    for (uint32_t j = 0; j < n; j++)
        if (run[j].pid == pid && run[j].ok < 0) {
            run[j].ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
            double wall = time_wall_seconds() - run[j].t0;
            mark_done(run[j].dir, run[j].ok, wall);
            printf("  %s seed %lld %s (%.0f s)\n", run[j].experiment,
                   run[j].seed,
                   run[j].ok ? "done" : sb_stop ? "interrupted" : "failed",
                   wall);
            fflush(stdout);
        }
}

/* Every run, `jobs` at a time; each start and end said on stdout.
 * Returns false when a signal stopped it (sb_stop). */
static bool run_all(struct sb_run *run, uint32_t n, uint32_t jobs,
                    bool quick)
{
    uint32_t next = 0, live = 0;
    bool passed_on = false;
    while (live > 0 || (next < n && !sb_stop)) {
        while (live < jobs && next < n && !sb_stop) {
            struct sb_run *x = &run[next++];
            if (x->ok != -1) /* another rank's, kept, finished before */
                continue;
            printf("  [%u/%u] %s seed %lld ...\n", next, n, x->experiment,
                   x->seed);
            mark_done(x->dir, false, 0);
            x->t0 = time_wall_seconds();
            x->pid = start_seed(x->experiment, x->seed, x->dir, quick,
                                x->fresh);
            if (x->pid < 0) {
                x->ok = 0;
                printf("  %s seed %lld failed: no process started\n",
                       x->experiment, x->seed);
            } else {
                live++;
            }
        }
        if (sb_stop && !passed_on) {
            for (uint32_t j = 0; j < next; j++)
                if (run[j].ok < 0 && run[j].pid > 0)
                    kill(run[j].pid, (int)sb_stop);
            passed_on = true;
        }
        if (live == 0)
            continue;
        int status;
        pid_t pid = wait(&status);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; /* no child left: cannot happen while live > 0 */
        }
        ended(run, n, pid, status);
        live--;
    }
    return !sb_stop;
}

enum { RAN_TABLE = -1 }; /* run_ranks: this rank writes the table */

/* The lock a running scoreboard holds in its folder (exp/outdir.h). */
#define SB_LOCK "scoreboard.lock"

/* The runs, dealt over the ranks (one rank without mpirun), `jobs` at a
 * time on each; then every rank waits for the others, and rank 0 reads
 * their runs' ends from the .done marks. RAN_TABLE on rank 0 when every
 * run was tried; else the exit status: 0 on another rank, 1 if the
 * ranks could not start, 130 when a signal stopped the runs (said). */
static int run_ranks(struct sb_run *run, uint32_t n_run, long jobs,
                     bool quick, const char *out)
{
    if (par_start() != 0)
        return 1;
    /* one scoreboard a folder: two would start the same seeds twice and
     * mark each other's runs (rank 0 holds it for every rank) */
    char why[4400] = "";
    int locked = par_rank() == 0 ? outdir_lock(out, SB_LOCK, why, sizeof why)
                                 : 0;
    if (locked > 0)
        fprintf(stderr, "dfsim scoreboard: %s: taken over\n", why);
    if (par_agree(locked < 0 ? 1 : 0) != 0) {
        if (locked < 0)
            fprintf(stderr, "dfsim scoreboard: %s: another scoreboard is "
                    "running on %s (--no-run reads it meanwhile); wait for "
                    "it, or remove the lock if that process is gone\n", why,
                    out);
        par_stop();
        return 1;
    }
    for (uint32_t j = 0; j < n_run; j++)
        if (run[j].ok < 0 && par_owner(j, 0, par_size()) != par_rank())
            run[j].ok = 3;
    cli_catch_stop(on_stop, 0);
    bool whole = run_all(run, n_run, (uint32_t)jobs, quick);
    cli_catch_stop(NULL, 0);
    whole = par_agree(whole ? 0 : 1) == 0 && whole;
    for (uint32_t j = 0; j < n_run; j++)
        if (run[j].ok == 3)
            run[j].ok = finished(&run[j]);
    bool rank0 = par_rank() == 0;
    if (rank0)
        outdir_unlock(out, SB_LOCK);
    par_stop();
    if (!whole && rank0)
        fprintf(stderr,
                "dfsim scoreboard: interrupted (%s): no table written; the "
                "runs keep what they finished, and the same command goes "
                "on from there (--no-run: the table from the runs finished "
                "so far)\n",
                sb_stop == SIGINT ? "SIGINT" : "SIGTERM");
    if (!whole)
        return 130;
    return rank0 ? RAN_TABLE : 0;
}

/* Row r's number from each of its seeds' runs into res, judged: a
 * finished run's (then kept in keep, if any, with the dfsim its mark
 * names), else the value kept before; each failure said on stderr.
 * -1 when a value could not be kept (out of memory), else 0. */
static int read_row(const struct sb_row *r, const char *out,
                    const struct sb_run *run, uint32_t n_run,
                    struct sb_keep *keep, struct sb_result *res)
{
    memset(res, 0, sizeof *res);
    int rc = 0;
    for (uint32_t i = 0; i < r->seeds.n && !r->not_reproduced; i++) {
        long long seed = (long long)r->seeds.v[i];
        char dir[4096], csv[4400], why[512];
        seed_dir(dir, sizeof dir, out, r->experiment, seed);
        uint32_t j = 0;
        while (j < n_run && strcmp(run[j].dir, dir) != 0)
            j++;
        const struct sb_kept *kept =
            keep ? sb_keep_find(keep, r->id, seed) : NULL;
        if ((j == n_run || run[j].ok != 1) && kept) {
            res->by[res->n] = kept->dfsim;
            res->v[res->n++] = kept->v;
            res->kept++;
            continue;
        }
        if (j == n_run || run[j].ok != 1) {
            fprintf(stderr,
                    "dfsim scoreboard: %s:%d: row %s, seed %lld: %s (%s.log)"
                    "\n",
                    r->src, r->line, r->id, seed,
                    j < n_run && run[j].ok == 2 ? "the run has not finished"
                                                : "the run failed",
                    dir);
            continue;
        }
        snprintf(csv, sizeof csv, "%s/%s", dir, r->file);
        double v;
        if (sb_extract(csv, r, &v, why, sizeof why) != 0) {
            fprintf(stderr, "dfsim scoreboard: %s:%d: row %s, seed %lld: %s\n",
                    r->src, r->line, r->id, seed, why);
            continue;
        }
        char by[256];
        done_by(dir, by, sizeof by);
        if (keep && sb_keep_set(keep, r->id, seed, v, by) != 0)
            rc = -1;
        kept = keep ? sb_keep_find(keep, r->id, seed) : NULL;
        res->by[res->n] = kept ? kept->dfsim : NULL;
        res->v[res->n++] = v;
    }
    sb_judge(r, res);
    return rc;
}

/* The runs whose every row has its seed's value kept: not run again
 * (unless finished in the folder, whose values then replace them). */
static void skip_kept(const struct sb_rows *rows, const struct sb_keep *keep,
                      struct sb_run *run, uint32_t n_run)
{
    for (uint32_t j = 0; j < n_run; j++) {
        bool all = !finished(&run[j]);
        for (uint32_t k = 0; k < rows->n && all; k++) {
            const struct sb_row *r = &rows->row[k];
            bool reads = false;
            for (uint32_t i = 0; i < r->seeds.n && !r->not_reproduced; i++)
                reads = reads ||
                        ((long long)r->seeds.v[i] == run[j].seed &&
                         strcmp(r->experiment, run[j].experiment) == 0);
            all = !reads || sb_keep_find(keep, r->id, run[j].seed);
        }
        if (all)
            run[j].ok = 4;
    }
}

/* What a scoreboard file holds. */
struct sb_doc {
    const struct sb_rows *rows;
    const struct sb_result *res;
    const char *command;
    bool quick, partial;         /* --quick; --no-run */
    const char *keep;            /* --keep's file, or NULL */
    const char *svg;             /* for the table: the picture's name */
};

/* File path, whole or not at all (temporary, then renamed): the table,
 * or the picture when `picture`. */
static int write_file(const char *path, const struct sb_doc *doc,
                      bool picture)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "dfsim scoreboard: cannot write %s: %s\n", tmp,
                strerror(errno));
        return -1;
    }
    if (picture)
        sb_svg(f, doc->rows, doc->res);
    else
        sb_markdown(f, doc->rows, doc->res, doc->command, doc->quick,
                    doc->partial, doc->svg, doc->keep);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "dfsim scoreboard: cannot write %s: %s\n", path,
                strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The table into path and the picture beside it (path less ".md", plus
 * ".svg"), which the table shows by that name. */
static int write_table(const char *path, struct sb_doc *doc)
{
    char svg[4200];
    size_t n = strlen(path);
    if (n > 3 && strcmp(path + n - 3, ".md") == 0)
        n -= 3;
    snprintf(svg, sizeof svg, "%.*s.svg", (int)n, path);
    const char *base = strrchr(svg, '/');
    doc->svg = base ? base + 1 : svg;
    return write_file(svg, doc, true) != 0 || write_file(path, doc, false) != 0
               ? -1
               : 0;
}

/* The command line. */
struct sb_opts {
    const char *file, *out, *write, *keep;
    bool quick, no_run;
    long jobs;
    const char *forget[16];
    uint32_t n_forget;
};

/* Parse argv into o: 0, or the exit status (--help: 0 after the usage,
 * said; else 2) in *rc and -1. */
static int parse_opts(int argc, char **argv, struct sb_opts *o, int *rc)
{
    *o = (struct sb_opts){ .jobs = 1 };
    *rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            *rc = 0;
            return -1;
        } else if (!strcmp(a, "--quick") || !strcmp(a, "--no-run")) {
            *(a[2] == 'q' ? &o->quick : &o->no_run) = true;
        } else if (!strcmp(a, "-j") && i + 1 < argc) {
            char *end;
            errno = 0;
            o->jobs = strtol(argv[++i], &end, 10);
            if (errno || end == argv[i] || *end || o->jobs < 1 ||
                o->jobs > 256) {
                fprintf(stderr, "dfsim scoreboard: -j \"%s\": expected the "
                        "number of runs at once, 1 to 256\n", argv[i]);
                return -1;
            }
        } else if (!strcmp(a, "--forget") && i + 1 < argc) {
            uint32_t cap = sizeof o->forget / sizeof o->forget[0];
            if (o->n_forget == cap) {
                fprintf(stderr, "dfsim scoreboard: --forget \"%s\": at "
                        "most %u patterns\n", argv[i + 1], cap);
                return -1;
            }
            o->forget[o->n_forget++] = argv[++i];
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--write") ||
                    !strcmp(a, "--keep")) &&
                   i + 1 < argc) {
            *(a[1] == 'o' ? &o->out : a[2] == 'w' ? &o->write : &o->keep) =
                argv[++i];
        } else if (a[0] == '-' || o->file) {
            fprintf(stderr, "dfsim scoreboard: unexpected argument \"%s\"\n",
                    a);
            usage(stderr);
            return -1;
        } else {
            o->file = a;
        }
    }
    const char *why = !o->file ? "expected a rows file"
                      : o->n_forget && !o->keep
                          ? "--forget without --keep: there are no kept "
                            "values to forget"
                      : o->quick && o->keep
                          ? "--keep with --quick: a cut-short run's numbers "
                            "are no values to keep"
                          : NULL;
    if (why) {
        fprintf(stderr, "dfsim scoreboard: %s\n", why);
        if (!o->file)
            usage(stderr);
        return -1;
    }
    if (!o->out)
        o->out = o->quick ? "results/scoreboard-quick" : "results/scoreboard";
    return 0;
}

/* The command that writes the table, for its generated-by line. */
static void command_line(const struct sb_opts *o, char *buf, size_t cap)
{
    int at = snprintf(buf, cap, "dfsim scoreboard %s%s%s%s%s", o->file,
                      o->quick ? " --quick" : "",
                      o->no_run ? " --no-run" : "", o->keep ? " --keep " : "",
                      o->keep ? o->keep : "");
    for (uint32_t i = 0; i < o->n_forget && at > 0 && (size_t)at < cap; i++)
        at += snprintf(buf + at, cap - (size_t)at, " --forget '%s'",
                       o->forget[i]);
}

int cli_scoreboard(int argc, char **argv)
{
    struct sb_opts o;
    int prc;
    if (parse_opts(argc, argv, &o, &prc) != 0)
        return prc;
    struct diag d;
    diag_init(&d);
    struct sb_rows rows;
    if (sb_load(o.file, &rows, &d) != 0)
        return 1;
    sb_space_seeds(&rows, NULL);
    struct sb_keep keep = { 0 };
    uint32_t cap = rows.n * SB_SEEDS_MAX;
    struct sb_result *res = calloc(rows.n ? rows.n : 1, sizeof *res);
    struct sb_run *run = calloc(cap ? cap : 1, sizeof *run);
    int rc = 1;
    if (!res || !run || outdir_make(o.out) != 0) {
        fprintf(stderr, "dfsim scoreboard: cannot use %s%s\n", o.out,
                res && run ? "" : ": out of memory");
        goto done;
    }
    uint32_t n_run = plan_runs(&rows, o.out, run, cap);
    plan_inputs(&rows, run, n_run, o.quick);
    if (o.keep && sb_keep_load(o.keep, &rows, &keep, &d) != 0)
        goto done;
    for (uint32_t i = 0; i < o.n_forget; i++) {
        uint32_t gone = sb_keep_forget(&keep, &rows, &o.forget[i], 1);
        fprintf(stderr, "dfsim scoreboard: --forget %s: %u kept value%s "
                "dropped (measured again, or read from the runs in %s)\n",
                o.forget[i], gone, gone == 1 ? "" : "s", o.out);
    }
    if (o.keep)
        skip_kept(&rows, &keep, run, n_run);
    for (uint32_t j = 0; j < n_run && o.no_run; j++)
        if (run[j].ok != 4)
            run[j].ok = finished(&run[j]) ? 1 : 2;
    int ran = o.no_run ? RAN_TABLE
                       : run_ranks(run, n_run, o.jobs, o.quick, o.out);
    if (ran != RAN_TABLE) {
        rc = ran;
        goto done;
    }
    rc = 0;
    for (uint32_t k = 0; k < rows.n; k++) {
        if (read_row(&rows.row[k], o.out, run, n_run,
                     o.keep ? &keep : NULL, &res[k]) != 0)
            rc = -1;
        printf("%-40s %s\n", rows.row[k].id, sb_status_names[res[k].status]);
    }
    if (o.keep && (rc != 0 || sb_keep_write(o.keep, &rows, &keep) != 0)) {
        fprintf(stderr, "dfsim scoreboard: cannot write %s: %s\n", o.keep,
                rc ? "out of memory" : strerror(errno));
        rc = -1;
    }
    char command[600], md[4200];
    command_line(&o, command, sizeof command);
    snprintf(md, sizeof md, "%s/scoreboard.md", o.out);
    struct sb_doc doc = { .rows = &rows, .res = res, .command = command,
                          .quick = o.quick, .partial = o.no_run,
                          .keep = o.keep };
    if (rc == 0)
        rc = write_table(md, &doc);
    if (rc == 0 && o.write)
        rc = write_table(o.write, &doc);
    uint32_t failed = 0;
    for (uint32_t k = 0; k < rows.n; k++)
        failed += !rows.row[k].not_reproduced && res[k].n < rows.row[k].seeds.n;
    if (rc == 0)
        printf("\nscoreboard: %s%s%s%s%s\n", md, o.write ? " and " : "",
               o.write ? o.write : "", o.keep ? "; values kept in " : "",
               o.keep ? o.keep : "");
    rc = rc != 0 || failed ? 1 : 0;
done:
    free(run);
    free(res);
    sb_keep_free(&keep);
    sb_free(&rows);
    return rc;
}
