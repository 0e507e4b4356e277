/* bench/workload_mix.c — what each job of an experiment file asks of the
 * network, from its program alone (no simulation): the operations its
 * ranks post, tallied (issue 56's validation (b): the otf2 replay of a
 * real LAMMPS trace beside the lammps proxy, by the same method).
 *
 * Per job: point-to-point sends (DMPI_SEND / DMPI_ISEND of the program,
 * not the messages collectives become) and their bytes, per rank (min,
 * max) and by size (the buckets of `dfsim trace`: 0-1 B, then 2^(k-1)+1
 * .. 2^k); collective calls by operation (summed over ranks, with their
 * buffers' bytes); compute (DMPI_COMPUTE, summed over ranks, ms). The
 * otf2 replay's collectives over a sub-communicator count as calls; those
 * it spreads as point-to-point (v-forms) count as sends with tags of the
 * replay's collective range (>= 2^29), listed apart.
 *
 * Usage: workload_mix FILE   (any experiment file with jobs; without one,
 * as `make bench` runs every bench program, it says where it is used and
 * exits 0: bench/replay_speed.sh runs it on examples/traces/lammps-mix.cfg
 * after `make traces`) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/otf2_trace.h"
#include "app/workload.h"
#include "core/diag.h"
#include "exp/experiment.h"
#include "exp/jobs.h"
#include "exp/jobspec.h"

#define BUCKETS OTF2_SIZE_BUCKETS
#define TAG_REPLAY_COLL (UINT32_C(1) << 29)

struct mix {
    uint64_t sends, bytes, coll_sends, coll_bytes;
    uint64_t size_msgs[BUCKETS], size_bytes[BUCKETS];
    uint64_t coll_calls[DMPI_CODE_COUNT], coll_buf[DMPI_CODE_COUNT];
    uint64_t rank_min, rank_max;
    double compute_ms;
};

static const char *coll_name(uint8_t c)
{
    static const char *const n[] = { "BARRIER", "BCAST", "REDUCE",
                                     "ALLREDUCE", "ALLGATHER", "ALLTOALL" };
    return c >= DMPI_BARRIER && c <= DMPI_ALLTOALL ? n[c - DMPI_BARRIER]
                                                   : "?";
}

/* Rank r's whole program into m; its send bytes. */
static uint64_t drain(struct dmpi_app a, uint32_t r, struct mix *m)
{
    struct dmpi_op ops[256];
    uint64_t sent = 0;
    uint32_t n;
    while ((n = a.next(a.ctx, r, ops, 256)) > 0) {
        for (uint32_t i = 0; i < n; i++) {
            const struct dmpi_op *o = &ops[i];
            if (o->code == DMPI_SEND || o->code == DMPI_ISEND) {
                if (o->tag >= TAG_REPLAY_COLL && o->tag < DMPI_TAG_COLL) {
                    m->coll_sends++;
                    m->coll_bytes += o->bytes;
                    continue;
                }
                m->sends++;
                m->bytes += o->bytes;
                sent += o->bytes;
                m->size_msgs[otf2_size_bucket(o->bytes)]++;
                m->size_bytes[otf2_size_bucket(o->bytes)] += o->bytes;
            } else if (o->code >= DMPI_BARRIER && o->code <= DMPI_ALLTOALL) {
                m->coll_calls[o->code]++;
                m->coll_buf[o->code] += o->bytes;
            } else if (o->code == DMPI_COMPUTE) {
                m->compute_ms += (double)o->arg / 1e9;
            }
        }
    }
    return sent;
}

static void print_mix(const char *name, uint32_t ranks, const struct mix *m)
{
    printf("== %s (%u ranks)\n", name, ranks);
    printf("sends          %" PRIu64 " messages, %" PRIu64 " bytes (per rank "
           "%" PRIu64 " to %" PRIu64 ")\n", m->sends, m->bytes, m->rank_min,
           m->rank_max);
    if (m->coll_sends)
        printf("spread coll.   %" PRIu64 " messages, %" PRIu64 " bytes\n",
               m->coll_sends, m->coll_bytes);
    printf("compute        %.3f ms (summed over ranks)\n", m->compute_ms);
    printf("  %-22s %12s %16s\n", "bytes", "messages", "bytes");
    for (uint32_t k = 0; k < BUCKETS; k++)
        if (m->size_msgs[k])
            printf("  %10" PRIu64 " - %-9" PRIu64 " %12" PRIu64 " %16" PRIu64
                   "\n", k ? (UINT64_C(1) << (k - 1)) + 1 : 0,
                   UINT64_C(1) << k, m->size_msgs[k], m->size_bytes[k]);
    for (uint8_t c = DMPI_BARRIER; c <= DMPI_ALLTOALL; c++)
        if (m->coll_calls[c])
            printf("  %-22s %12" PRIu64 " calls %10" PRIu64 " bytes\n",
                   coll_name(c), m->coll_calls[c], m->coll_buf[c]);
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        printf("workload_mix: no experiment file; bench/replay_speed.sh "
               "runs it on examples/traces/lammps-mix.cfg after make "
               "traces\n");
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: workload_mix FILE\n");
        return 2;
    }
    struct diag d;
    diag_init(&d);
    struct experiment e;
    if (experiment_load(&e, argv[1], -1, &d) != 0)
        return 1;
    int rc = 0;
    for (uint32_t j = 0; j < e.jobs.n; j++) {
        const struct job_config *jc = &e.jobs.job[j];
        const struct workload *w = (const struct workload *)jc->workload;
        _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
        struct workload_env env = { .nranks = jobs_ranks(jc), .ppn = jc->ppn,
                                    .seed = (uint64_t)e.info.seed, .job = j,
                                    .file = jc->file };
        char err[512];
        if (w->init(state, jc->params, &env, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", jc->name, err);
            rc = 1;
            continue;
        }
        struct dmpi_app a = w->app(state);
        struct mix *m = calloc(1, sizeof *m);
        if (!m) {
            w->free(state);
            return 1;
        }
        m->rank_min = UINT64_MAX;
        for (uint32_t r = 0; r < env.nranks; r++) {
            uint64_t s = drain(a, r, m);
            m->rank_min = s < m->rank_min ? s : m->rank_min;
            m->rank_max = s > m->rank_max ? s : m->rank_max;
        }
        print_mix(jc->name, env.nranks, m);
        free(m);
        w->free(state);
    }
    experiment_free(&e);
    return rc;
}
