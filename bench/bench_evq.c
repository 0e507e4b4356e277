/* bench/bench_evq.c — event-queue speed, in the manner of SQLite's
 * speedtest1: fixed work, printed figures, and a hash of the answers so a
 * speed-up that changes the order of events is caught.
 *
 * Workload: the classic "hold" model of priority-queue benchmarks (Jones,
 * "An empirical comparison of priority-queue and event-set
 * implementations", CACM 1986). Fill the queue with QUEUE events, then
 * repeat OPS times: pop the first event, push a successor at its time plus
 * a random increment. The queue length stays at QUEUE, as in a simulation
 * with that many pending events. Keys are built the way struct sim builds
 * them: evq_key(entity, that entity's own sequence number), with the popped
 * event's target as the entity. Three workloads:
 *   classic   100k pending, increments exponential with mean 1 us (the
 *             figure this benchmark has always printed);
 *   net-10k   10k pending, increments like a network simulation's: mostly
 *             exponential with mean 100 ns (hops, serialisation, credits),
 *             and 5 % uniform in [1, 10] us (timers, end-to-end replies);
 *   net-100k  the same with 100k pending (a large partition).
 *
 * For each workload and implementation, in a child process of its own (so
 * that peak RSS is its own): events per second (one pop + one push = one
 * event) measured with CLOCK_MONOTONIC, peak RSS (getrusage ru_maxrss), and
 * a 64-bit FNV-1a hash of the popped (time, key) sequence. The hashes of a
 * workload must all be equal; the program exits 1 if they differ or a run
 * fails.
 *
 * Usage: bench_evq [scale]   — scale (default 1, > 0) multiplies OPS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/evq.h"
#include "core/rng.h"
#include "core/time.h"

#define OPS 10000000.0 /* pop+push pairs per run at scale 1 */
#define SEED 20240601u

struct workload {
    const char *name;
    uint32_t queue;    /* pending events (entities) */
    double mean_ps;    /* mean of the exponential increments */
    uint32_t far_pct;  /* percent of increments uniform in [far_lo, far_hi] */
    simtime far_lo, far_hi;
};

static const struct workload workloads[] = {
    { "classic", 100000, 1.0 * (double)SIMTIME_US, 0, 0, 0 },
    { "net-10k", 10000, 100.0 * (double)SIMTIME_NS, 5, SIMTIME_US,
      10 * SIMTIME_US },
    { "net-100k", 100000, 100.0 * (double)SIMTIME_NS, 5, SIMTIME_US,
      10 * SIMTIME_US },
};
#define N_WORKLOADS (sizeof workloads / sizeof workloads[0])

static const struct {
    enum evq_impl impl;
    const char *name;
} impls[] = {
    { EVQ_HEAP4, "heap4" },
    { EVQ_PAIRING, "pairing" },
    { EVQ_CALENDAR, "calendar" },
};
#define N_IMPLS (sizeof impls / sizeof impls[0])

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

/* FNV-1a over the 8 bytes of v, least significant first (the same on any
 * byte order). */
static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= FNV_PRIME;
    }
    return h;
}

struct result {
    int ok;          /* 1 if the run completed */
    uint64_t hash;   /* FNV-1a of popped (time, key) */
    uint64_t events; /* pop+push pairs done */
    double seconds;  /* wall clock of the hold loop */
    long max_rss_kb; /* peak resident set of the process */
    uint64_t final_time;
};

/* A time increment of workload w. */
static simtime increment(const struct workload *w, struct rng *r)
{
    if (w->far_pct && rng_below(r, 100) < w->far_pct)
        return w->far_lo + rng_u64(r) % (w->far_hi - w->far_lo + 1);
    return (simtime)rng_exp(r, w->mean_ps);
}

static struct result run_hold(const struct workload *w, enum evq_impl impl,
                              uint64_t ops)
{
    struct result res = { 0 };
    struct evq q;
    uint64_t *seq = calloc(w->queue, sizeof *seq);
    if (!seq || evq_init(&q, impl, w->queue) != 0) {
        free(seq);
        return res;
    }
    struct rng r = rng_stream(SEED, RNG_TEST, 0);
    for (uint32_t i = 0; i < w->queue; i++) {
        struct event e = {
            .time = increment(w, &r),
            .key = evq_key(i, seq[i]++),
            .target = i,
        };
        if (evq_push(&q, &e) != 0)
            goto out;
    }

    uint64_t h = FNV_OFFSET;
    double t0 = time_wall_seconds();
    for (uint64_t k = 0; k < ops; k++) {
        struct event e;
        if (!evq_pop(&q, &e))
            goto out;
        h = fnv_u64(fnv_u64(h, e.time), e.key);
        uint32_t who = e.target;
        e.time += increment(w, &r);
        e.key = evq_key(who, seq[who]++);
        if (evq_push(&q, &e) != 0)
            goto out;
    }
    res.seconds = time_wall_seconds() - t0;
    res.hash = h;
    res.events = ops;
    res.final_time = evq_peek(&q)->time;
    res.ok = 1;
out:
    evq_free(&q);
    free(seq);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        res.max_rss_kb = ru.ru_maxrss;
    return res;
}

/* Run one implementation in a child process; its result comes back
 * through a pipe. */
static struct result run_child(const struct workload *w, enum evq_impl impl,
                               uint64_t ops)
{
    struct result res = { 0 };
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "bench_evq: pipe: %s\n", strerror(errno));
        return res;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bench_evq: fork: %s\n", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return res;
    }
    if (pid == 0) {
        close(fd[0]);
        struct result r = run_hold(w, impl, ops);
        ssize_t put = write(fd[1], &r, sizeof r);
        _exit(put == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = 0;
    while (got < (ssize_t)sizeof res) {
        ssize_t n = read(fd[0], (char *)&res + got, sizeof res - (size_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += n;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof res || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        res.ok = 0;
    return res;
}

int main(int argc, char **argv)
{
    double scale = 1.0;
    if (argc > 2 || (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                                   strcmp(argv[1], "--help") == 0))) {
        fprintf(stderr, "usage: %s [scale]   (scale > 0 multiplies the "
                        "%.0f operations; default 1)\n",
                argv[0], OPS);
        return argc == 2 ? 0 : 2;
    }
    if (argc == 2) {
        char *end;
        errno = 0;
        scale = strtod(argv[1], &end);
        if (errno || end == argv[1] || *end || !(scale > 0) || scale > 1e4) {
            fprintf(stderr, "bench_evq: scale \"%s\" is not a number in "
                            "(0, 10000]\n", argv[1]);
            return 2;
        }
    }
    uint64_t ops = (uint64_t)(OPS * scale);
    if (ops == 0)
        ops = 1;

    printf("event queue, hold model: %" PRIu64 " pop+push per run, seed %u\n",
           ops, SEED);
    int failed = 0;
    for (size_t k = 0; k < N_WORKLOADS; k++) {
        const struct workload *w = &workloads[k];
        char mean[32], lo[32], hi[32];
        printf("\n%s: %u pending events, increments exp(mean %s)", w->name,
               w->queue, time_format(mean, sizeof mean, (simtime)w->mean_ps));
        if (w->far_pct)
            printf(", %u%% uniform in [%s, %s]", w->far_pct,
                   time_format(lo, sizeof lo, w->far_lo),
                   time_format(hi, sizeof hi, w->far_hi));
        printf("\n%-9s %14s %10s %12s  %-18s %s\n", "queue", "events/s",
               "ns/event", "peak RSS", "hash (time,key)", "final time");
        struct result res[N_IMPLS];
        int ok = 1;
        for (size_t i = 0; i < N_IMPLS; i++) {
            res[i] = run_child(w, impls[i].impl, ops);
            if (!res[i].ok) {
                printf("%-9s run failed (out of memory?)\n", impls[i].name);
                ok = 0;
                continue;
            }
            double rate = (double)res[i].events / res[i].seconds;
            char when[32];
            printf("%-9s %14.0f %10.1f %9ld KiB  %016" PRIx64 "  %s\n",
                   impls[i].name, rate, 1e9 / rate, res[i].max_rss_kb,
                   res[i].hash,
                   time_format(when, sizeof when, res[i].final_time));
            fflush(stdout);
        }
        for (size_t i = 1; ok && i < N_IMPLS; i++) {
            if (res[i].hash != res[0].hash ||
                res[i].final_time != res[0].final_time) {
                printf("MISMATCH: %s and %s popped different sequences\n",
                       impls[0].name, impls[i].name);
                ok = 0;
            }
        }
        if (!ok) {
            failed = 1;
            continue;
        }
        printf("hashes agree; time per event relative to heap4:");
        for (size_t i = 1; i < N_IMPLS; i++)
            printf(" %s %.2fx%s", impls[i].name,
                   res[i].seconds / res[0].seconds,
                   i + 1 < N_IMPLS ? "," : "\n");
    }
    return failed;
}
