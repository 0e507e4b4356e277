/* bench/bench_net.c — how much network dfsim simulates per second.
 *
 * Fixed configurations (issue 3): the df1056 dragonfly under uniform random
 * traffic at 30 % and 90 % offered load with UGAL-L, and Cori (34 Aries
 * groups, 13,056 nodes) under uniform random traffic at 50 % with
 * ADAPTIVE_0. For each it prints simulated packet-hops (router-to-router
 * hops of every packet delivered, requests and responses) per wall-clock
 * second, link traversals per second (NIC links included), events per
 * second, the peak resident memory of the process so far, and a hash of
 * the results (which must not change when only speed changes).
 *
 * Usage: bench_net [--quick] [N...]
 *   --quick  shorter simulated windows
 *   N        run only configuration N (1, 2, 3 in the order above)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/registry.h"
#include "exp/traffic.h"
#include "route/route.h"
#include "topo/topo.h"

struct config {
    const char *system, *routing;
    double load, warmup_us, measure_us;
};

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
}

int main(int argc, char **argv)
{
    bool quick = false, only[4] = { false }, any = false;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quick") == 0) {
            quick = true;
        } else if (strlen(argv[a]) == 1 && argv[a][0] >= '1' &&
                   argv[a][0] <= '3') {
            only[argv[a][0] - '0'] = any = true;
        } else {
            fprintf(stderr, "bench_net: unknown argument '%s' (expected "
                            "--quick or a configuration 1..3)\n", argv[a]);
            return 2;
        }
    }
    const struct config cfgs[] = {
        { "df1056", "UGAL", 0.30, 2, quick ? 5 : 20 },
        { "df1056", "UGAL", 0.90, 2, quick ? 5 : 20 },
        { "cori", "ADAPTIVE_0", 0.50, 0.5, quick ? 0.5 : 2 },
    };
    printf("%-8s %-10s %5s %8s %10s %12s %12s %12s %9s %16s\n", "system",
           "routing", "load", "wall_s", "events", "events/s",
           "pkt-hops/s", "links/s", "peak_MiB", "hash");
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        if (any && !only[i + 1])
            continue;
        const struct config *c = &cfgs[i];
        struct topo t;
        struct diag d;
        diag_init(&d);
        if (topo_build_system(&t, c->system, &d) != 0)
            return 1;
        struct net_params np;
        net_params_defaults(&np, &t);
        np.routing = (const struct routing *)registry_find(&routing_registry,
                                                           c->routing);
        struct traffic_params tp;
        traffic_defaults(&tp);
        tp.pattern = TRAFFIC_UNIFORM;
        tp.load = c->load;
        tp.warmup_us = c->warmup_us;
        tp.measure_us = c->measure_us;
        tp.drain_us = c->measure_us;
        struct traffic_result r;
        double t0 = wall();
        if (traffic_run(&t, &np, &tp, 1, EVQ_HEAP4, &r, &d) != 0)
            return 1;
        double w = wall() - t0;
        printf("%-8s %-10s %5.2f %8.2f %10llu %12.0f %12.0f %12.0f %9.1f "
               "%016llx\n", c->system, c->routing, c->load, w,
               (unsigned long long)r.events, (double)r.events / w,
               (double)r.net_hops / w,
               (double)(r.net_hops + 2 * r.net_packets) / w, peak_mib(),
               (unsigned long long)r.hash);
        fflush(stdout);
        topo_free(&t);
    }
    return 0;
}
