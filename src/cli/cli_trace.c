/* cli/cli_trace.c — `dfsim trace FILE`: what an OTF2 trace of an MPI
 * program holds, as the otf2 workload reads it (app/otf2_trace.h): its
 * ranks and communicators, its MPI calls, its point-to-point messages
 * and bytes by size, its collectives. Before replaying a trace, and to
 * set it beside a proxy application (docs/workloads/otf2.md). */
#include <stdio.h>
#include <string.h>

#include "app/otf2_trace.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim trace FILE\n\n"
            "Summarise the OTF2 trace whose anchor file is FILE "
            "(DIR/traces.otf2): ranks,\ncommunicators, MPI calls, "
            "point-to-point messages and bytes by size, collectives\n"
            "by operation (docs/workloads/otf2.md). Exit 1 if it cannot "
            "be read.\n");
}

static void print_sizes(const struct otf2_stats *s)
{
    printf("\nmessages by size (sends)\n  %-22s %12s %16s\n", "bytes",
           "messages", "bytes");
    for (uint32_t k = 0; k < OTF2_SIZE_BUCKETS; k++) {
        if (!s->size_msgs[k])
            continue;
        char range[40];
        if (k == 0)
            snprintf(range, sizeof range, "0 - 1");
        else
            snprintf(range, sizeof range, "%llu - %llu",
                     (unsigned long long)(UINT64_C(1) << (k - 1)) + 1,
                     (unsigned long long)UINT64_C(1) << k);
        printf("  %-22s %12llu %16llu\n", range,
               (unsigned long long)s->size_msgs[k],
               (unsigned long long)s->size_bytes[k]);
    }
}

static void print_stats(const char *path, const struct otf2_stats *s)
{
    printf("trace          %s\n", path);
    printf("ranks          %u\n", s->nranks);
    printf("communicators  %u\n", s->n_comms);
    printf("records        %llu\n", (unsigned long long)s->records);
    printf("MPI calls      %llu\n", (unsigned long long)s->calls);
    printf("span           %.6f s (longest rank, first to last record)\n",
           s->span_s);
    printf("time in MPI    %.1f %% (mean over ranks)\n", 100 * s->mpi_share);
    printf("sends          %llu messages, %llu bytes (per rank %llu to "
           "%llu bytes)\n",
           (unsigned long long)s->sends, (unsigned long long)s->send_bytes,
           (unsigned long long)(s->nranks ? s->rank_send_min : 0),
           (unsigned long long)s->rank_send_max);
    printf("receives       %llu messages, %llu bytes\n",
           (unsigned long long)s->recvs, (unsigned long long)s->recv_bytes);
    if (s->sends)
        print_sizes(s);
    bool any = false;
    for (uint8_t op = 0; op < OTF2_COLL_OPS; op++) {
        if (!s->coll_calls[op])
            continue;
        if (!any)
            printf("\ncollectives (calls summed over ranks)\n  %-28s %12s "
                   "%16s\n", "operation", "calls", "bytes sent");
        any = true;
        printf("  %-28s %12llu %16llu\n", otf2_coll_name(op),
               (unsigned long long)s->coll_calls[op],
               (unsigned long long)s->coll_sent[op]);
    }
}

int cli_trace(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        usage(stderr);
        return 2;
    }
    struct otf2_trace t;
    char err[400];
    if (otf2_trace_open(&t, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "error: %s\n", err);
        return 1;
    }
    struct otf2_stats s;
    int rc = otf2_trace_stats(&t, &s);
    if (rc != 0)
        fprintf(stderr, "error: %s\n", t.err);
    else
        print_stats(argv[1], &s);
    otf2_trace_close(&t);
    return rc ? 1 : 0;
}
