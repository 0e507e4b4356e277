/* app/otf2_stats.c — what a trace holds (app/otf2_trace.h: struct
 * otf2_stats), read once, rank after rank, through the same streaming
 * reader the replay uses. */
#include "app/otf2_trace.h"

#include <string.h>

static const char *const coll_names[OTF2_COLL_OPS] = {
    "BARRIER", "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV",
    "ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW",
    "ALLREDUCE", "REDUCE", "REDUCE_SCATTER", "SCAN", "EXSCAN",
    "REDUCE_SCATTER_BLOCK", "CREATE_HANDLE", "DESTROY_HANDLE", "ALLOCATE",
    "DEALLOCATE", "CREATE_HANDLE_AND_ALLOCATE",
    "DESTROY_HANDLE_AND_DEALLOCATE",
};

const char *otf2_coll_name(uint8_t op)
{
    return op < OTF2_COLL_OPS ? coll_names[op] : "?";
}

uint32_t otf2_size_bucket(uint64_t b)
{
    uint32_t k = 0;
    while (k + 1 < OTF2_SIZE_BUCKETS && (UINT64_C(1) << k) < b)
        k++;
    return k;
}

/* One rank's records: into s; its send bytes and MPI time returned. */
static int rank_stats(struct otf2_trace *t, uint32_t r, struct otf2_stats *s,
                      uint64_t *sent, double *share)
{
    const struct otf2_rec *e;
    uint64_t first = 0, last = 0, in_mpi = 0, entered = 0;
    uint32_t depth = 0;
    bool any = false;
    *sent = 0;
    while ((e = otf2_peek(t, r, 0)) != NULL) {
        if (!any)
            first = e->time;
        any = true;
        last = e->time;
        s->records++;
        bool mpi = (e->kind == OR_ENTER || e->kind == OR_LEAVE) &&
                   otf2_region_is_mpi(t, e->a);
        if (mpi && e->kind == OR_ENTER && depth++ == 0) {
            s->calls++;
            entered = e->time;
        } else if (mpi && e->kind == OR_LEAVE && depth && --depth == 0) {
            in_mpi += e->time - entered;
        }
        if (e->kind == OR_SEND || e->kind == OR_ISEND) {
            s->sends++;
            s->send_bytes += e->bytes;
            *sent += e->bytes;
            s->size_msgs[otf2_size_bucket(e->bytes)]++;
            s->size_bytes[otf2_size_bucket(e->bytes)] += e->bytes;
        } else if (e->kind == OR_RECV || e->kind == OR_IRECV) {
            s->recvs++;
            s->recv_bytes += e->bytes;
        } else if (e->kind == OR_COLL_END && e->op < OTF2_COLL_OPS) {
            s->coll_calls[e->op]++;
            s->coll_sent[e->op] += e->bytes;
        }
        otf2_take(t, r);
    }
    if (t->err[0])
        return -1;
    double span = (double)(last - first) / (double)t->resolution;
    if (span > s->span_s)
        s->span_s = span;
    *share = last > first ? (double)in_mpi / (double)(last - first) : 0;
    return 0;
}

int otf2_trace_stats(struct otf2_trace *t, struct otf2_stats *s)
{
    memset(s, 0, sizeof *s);
    s->nranks = t->nranks;
    s->n_comms = t->n_comm_defined;
    s->rank_send_min = UINT64_MAX;
    double share = 0;
    for (uint32_t r = 0; r < t->nranks; r++) {
        uint64_t sent;
        double sh;
        if (rank_stats(t, r, s, &sent, &sh) != 0)
            return -1;
        share += sh;
        if (sent < s->rank_send_min)
            s->rank_send_min = sent;
        if (sent > s->rank_send_max)
            s->rank_send_max = sent;
    }
    s->mpi_share = t->nranks ? share / t->nranks : 0;
    return 0;
}
