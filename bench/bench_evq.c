/* bench/bench_evq.c — event-queue speed, in the manner of SQLite's
 * speedtest1: fixed work, printed figures, and a hash of the answers so a
 * speed-up that changes the order of events is caught.
 *
 * Workload: the classic "hold" model of priority-queue benchmarks (Jones,
 * "An empirical comparison of priority-queue and event-set
 * implementations", CACM 1986). Fill the queue with QUEUE events, then
 * repeat OPS times: pop the first event, push a successor at its time plus
 * an exponentially distributed increment (mean 1 us). The queue length
 * stays at QUEUE, as in a simulation with that many pending events. Keys
 * are built the way struct sim builds them: evq_key(entity, that entity's
 * own sequence number), with the popped event's target as the entity.
 *
 * For each implementation, in a child process of its own (so that peak RSS
 * is its own): events per second (one pop + one push = one event) measured
 * with CLOCK_MONOTONIC, peak RSS (getrusage ru_maxrss), and a 64-bit FNV-1a
 * hash of the popped (time, key) sequence. The two hashes must be equal;
 * the program exits 1 if they differ or a run fails.
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
#include <time.h>
#include <unistd.h>

#include "core/evq.h"
#include "core/rng.h"
#include "core/time.h"

#define QUEUE 100000u                   /* pending events (entities) */
#define OPS 20000000.0                  /* pop+push pairs at scale 1 */
#define MEAN_PS (1.0 * (double)SIMTIME_US) /* mean time increment */
#define SEED 20240601u

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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct result run_hold(enum evq_impl impl, uint64_t ops)
{
    struct result res = { 0 };
    struct evq q;
    uint64_t *seq = calloc(QUEUE, sizeof *seq);
    if (!seq || evq_init(&q, impl, QUEUE) != 0) {
        free(seq);
        return res;
    }
    struct rng r = rng_stream(SEED, RNG_TEST, 0);
    for (uint32_t i = 0; i < QUEUE; i++) {
        struct event e = {
            .time = (simtime)rng_exp(&r, MEAN_PS),
            .key = evq_key(i, seq[i]++),
            .target = i,
        };
        if (evq_push(&q, &e) != 0)
            goto out;
    }

    uint64_t h = FNV_OFFSET;
    double t0 = now_s();
    for (uint64_t k = 0; k < ops; k++) {
        struct event e;
        if (!evq_pop(&q, &e))
            goto out;
        h = fnv_u64(fnv_u64(h, e.time), e.key);
        uint32_t who = e.target;
        e.time += (simtime)rng_exp(&r, MEAN_PS);
        e.key = evq_key(who, seq[who]++);
        if (evq_push(&q, &e) != 0)
            goto out;
    }
    res.seconds = now_s() - t0;
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
static struct result run_child(enum evq_impl impl, uint64_t ops)
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
        struct result r = run_hold(impl, ops);
        ssize_t w = write(fd[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
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

    printf("event queue, hold model: %u pending events, %" PRIu64
           " pop+push, increments exp(mean %.0f ps), seed %u\n",
           QUEUE, ops, MEAN_PS, SEED);
    printf("%-8s %14s %10s %12s  %-18s %s\n", "queue", "events/s",
           "ns/event", "peak RSS", "hash (time,key)", "final time");

    static const struct {
        enum evq_impl impl;
        const char *name;
    } impls[] = { { EVQ_HEAP4, "heap4" }, { EVQ_PAIRING, "pairing" } };
    struct result res[2];
    int failed = 0;
    for (int i = 0; i < 2; i++) {
        res[i] = run_child(impls[i].impl, ops);
        if (!res[i].ok) {
            printf("%-8s run failed (out of memory?)\n", impls[i].name);
            failed = 1;
            continue;
        }
        double rate = (double)res[i].events / res[i].seconds;
        char when[32];
        printf("%-8s %14.0f %10.1f %9ld KiB  %016" PRIx64 "  %s\n",
               impls[i].name, rate, 1e9 / rate, res[i].max_rss_kb,
               res[i].hash, time_format(when, sizeof when, res[i].final_time));
        fflush(stdout);
    }
    if (failed)
        return 1;
    if (res[0].hash != res[1].hash || res[0].final_time != res[1].final_time) {
        printf("MISMATCH: the two queues popped different sequences\n");
        return 1;
    }
    printf("hashes agree; heap4 is %.2fx pairing\n",
           res[1].seconds / res[0].seconds);
    return 0;
}
