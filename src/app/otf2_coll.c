/* app/otf2_coll.c — a trace's collectives as the layer's operations.
 *
 * The buffer size. A trace records what each rank sent and received in
 * the call (MpiCollectiveEnd's sizeSent / sizeReceived), by Score-P's
 * rules (its scorep_mpi_coll_bytes_* functions; dfsim's tracer follows
 * them, docs/tracer.md), with N the communicator's size, B the buffer
 * (per rank; per peer for all-to-all):
 *   bcast      root: sent N·B, received B; others: 0, B       -> B = received
 *   reduce,    root: B, N·B (in place: 0, (N-1)·B);
 *   gather     others: B, 0                                   -> B = sent, or
 *                                                                received/(N-1)
 *   scatter    the reverse of gather                          -> B = received,
 *                                                                or sent/(N-1)
 *   allreduce, allgather, alltoall: N·B both (in place (N-1)·B)
 *                                                             -> sent/N, or
 *                                                                sent/(N-1)
 *   scan       sent (N-me)·B, received (me+1)·B (in place one block less)
 *   v-forms, reduce_scatter: totals only.
 * Every rank of a correct program derives the same B (its call has the
 * same signature), so the layer's schedules match.
 *
 * What runs. Barrier, bcast, reduce, allreduce, allgather and alltoall
 * are the layer's own (MPICH's algorithms, mpi/coll.h): over the whole
 * job when the communicator's ranks are the world's in order (exactly as
 * a native workload's), else over the communicator's ranks (struct
 * dmpi_app.comm). scan and exscan run as an allreduce of B (MPICH's scan
 * is recursive doubling over the whole vector, the same exchange as the
 * short allreduce). The others have only per-rank totals in a trace, so
 * each rank sends what it recorded, spread evenly over its peers:
 *   gather(v)        every rank sends its B to the root (MPICH's gatherv
 *                    is linear; its gather is a binomial tree: not
 *                    modelled, a linear gather instead)
 *   scatter(v)       the root sends sent/(N-1) to each (linear, as MPICH's
 *                    scatterv)
 *   allgatherv       each rank sends its block to every other
 *   alltoallv, w     each rank sends sent/N to every other (MPICH's
 *                    alltoallv posts them all, throttled; per-peer sizes
 *                    are not in the trace)
 *   reduce_scatter   each rank sends sent/N to every other, then combines
 *                    what it received (MPICH's pairwise exchange)
 *   communicator creation (CREATE_HANDLE): an allgather of 8 bytes (MPICH's
 *                    comm_split gathers every rank's colour and key)
 *   destroy, allocate, deallocate: nothing.
 * A receive of these takes whatever arrives (its buffer is the network's
 * largest message): the sender's size decides.
 */
#include "app/otf2_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include <otf2/otf2.h>

#include "mpi/coll.h"

uint32_t otf2_comm_rank(const struct otf2_comm *c, uint32_t r)
{
    if (c->member[0] == UINT32_MAX) /* MPI_COMM_SELF */
        return 0;
    if (c->world)
        return r < c->size ? r : UINT32_MAX;
    for (uint32_t i = 0; i < c->size; i++)
        if (c->member[i] == r)
            return i;
    return UINT32_MAX;
}

/* B from what one rank sent and received (the table above). */
static uint64_t buffer_bytes(uint8_t op, uint32_t n, uint32_t me,
                             uint64_t sent, uint64_t recv)
{
    uint64_t n1 = n > 1 ? n - 1 : 1;
    switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
        return recv;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
        return sent ? sent : recv / n1;
    case OTF2_COLLECTIVE_OP_SCATTER:
        return recv ? recv : sent / n1;
    case OTF2_COLLECTIVE_OP_SCAN:
        return recv % (me + 1) == 0 ? recv / (me + 1) : recv / (me ? me : 1);
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return me ? recv / me : sent / n1;
    default: /* allreduce, allgather, alltoall */
        return sent % n == 0 ? sent / n : sent / n1;
    }
}

/* The layer's code for a collective it runs itself, or 0. */
static uint8_t native_code(uint8_t op)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return DMPI_BARRIER;
    case OTF2_COLLECTIVE_OP_BCAST: return DMPI_BCAST;
    case OTF2_COLLECTIVE_OP_REDUCE: return DMPI_REDUCE;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN: return DMPI_ALLREDUCE;
    case OTF2_COLLECTIVE_OP_ALLGATHER: return DMPI_ALLGATHER;
    case OTF2_COLLECTIVE_OP_ALLTOALL: return DMPI_ALLTOALL;
    default: return 0;
    }
}

/* This collective's tag on communicator c: its own for every call. */
static int coll_tag(struct otf2_replay *p, uint32_t r,
                    const struct otf2_comm *c, uint32_t *tag)
{
    struct otf2_rank *k = &p->rank[r];
    if (!k->cseq) {
        k->cseq = calloc(p->t.n_comm_defined, sizeof *k->cseq);
        if (!k->cseq)
            return -1;
    }
    *tag = OTF2_TAG_COLL | c->index << OTF2_TAG_BITS |
           (k->cseq[c->index]++ & (OTF2_TAG_LIMIT - 1));
    return 0;
}

/* Point-to-point parts of the collectives the layer does not run. */
struct spread {
    struct otf2_replay *p;
    struct otf2_rank *k;
    const struct otf2_comm *c;
    uint32_t me, tag;
    int rc;
};

static void put(struct spread *s, uint8_t code, uint32_t peer, uint64_t b)
{
    if (s->rc == 0)
        s->rc = otf2_emit(s->p, s->k, code, s->c->member[peer], s->tag,
                          b ? b : 1, 0, 0);
}

/* Each rank in `from` sends `b` to each rank in `to`, then waits: from
 * and to are "all" (UINT32_MAX) or one root. */
static void spread(struct spread *s, uint32_t from, uint32_t to, uint64_t b)
{
    uint32_t n = s->c->size;
    for (uint32_t q = 0; q < n; q++) /* its receives first */
        if (q != s->me && (to == UINT32_MAX || to == s->me) &&
            (from == UINT32_MAX || from == q))
            put(s, DMPI_IRECV, q, UINT32_MAX);
    for (uint32_t i = 1; i < n; i++) { /* sends in a shifted order */
        uint32_t q = (s->me + i) % n;
        if ((from == UINT32_MAX || from == s->me) &&
            (to == UINT32_MAX || to == q))
            put(s, DMPI_ISEND, q, b);
    }
    if (s->rc == 0)
        s->rc = otf2_emit(s->p, s->k, DMPI_WAITALL, 0, 0, 0, 0, 0);
}

static int spread_coll(struct otf2_replay *p, uint32_t r,
                       const struct otf2_rec *e, const struct otf2_comm *c,
                       uint32_t me)
{
    struct spread s = { p, &p->rank[r], c, me, 0, 0 };
    if (coll_tag(p, r, c, &s.tag) != 0)
        return otf2_fail(p, r, e, "out of memory");
    uint32_t n = c->size, root = e->a;
    uint64_t per = e->bytes / (n > 1 ? n : 1);
    switch (e->op) {
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        spread(&s, UINT32_MAX, root, me == root ? 0 : e->bytes);
        break;
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        spread(&s, root, UINT32_MAX, e->bytes / (n > 1 ? n - 1 : 1));
        break;
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
        spread(&s, UINT32_MAX, UINT32_MAX, per);
        break;
    default: { /* reduce_scatter, _block */
        spread(&s, UINT32_MAX, UINT32_MAX, per);
        struct dmpi_coll_params cp;
        dmpi_coll_defaults(&cp);
        uint64_t ps = per * (n - 1) * cp.reduce_ps_per_byte;
        if (s.rc == 0 && ps)
            s.rc = otf2_emit(p, s.k, DMPI_COMPUTE, 0, 0, 0, ps, 0);
        break;
    }
    }
    return s.rc ? otf2_fail(p, r, e, "out of memory") : 0;
}

static bool rooted(uint8_t op)
{
    return op == OTF2_COLLECTIVE_OP_BCAST || op == OTF2_COLLECTIVE_OP_REDUCE ||
           op == OTF2_COLLECTIVE_OP_GATHER || op == OTF2_COLLECTIVE_OP_GATHERV ||
           op == OTF2_COLLECTIVE_OP_SCATTER ||
           op == OTF2_COLLECTIVE_OP_SCATTERV;
}

int otf2_collective(struct otf2_replay *p, uint32_t r,
                    const struct otf2_rec *e)
{
    char why[160];
    const struct otf2_comm *c = otf2_comm_of(&p->t, e->comm);
    uint32_t me = c ? otf2_comm_rank(c, r) : UINT32_MAX;
    if (!c || me == UINT32_MAX) {
        snprintf(why, sizeof why, "a collective on communicator %u, %s",
                 e->comm, c ? "of which the rank is not a member"
                            : "which was never defined");
        return otf2_fail(p, r, e, why);
    }
    if (rooted(e->op) && e->a >= c->size) {
        snprintf(why, sizeof why, "a collective rooted at rank %u of "
                 "communicator \"%s\", which has %u", e->a, c->name, c->size);
        return otf2_fail(p, r, e, why);
    }
    if (c->size == 1 || e->op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE ||
        e->op == OTF2_COLLECTIVE_OP_ALLOCATE ||
        e->op == OTF2_COLLECTIVE_OP_DEALLOCATE ||
        e->op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE)
        return 0;
    if (c->index >= OTF2_COMM_LIMIT) {
        snprintf(why, sizeof why, "communicator %u: the replay takes at most "
                 "%u communicators", c->index, OTF2_COMM_LIMIT);
        return otf2_fail(p, r, e, why);
    }
    uint8_t code = native_code(e->op);
    uint64_t b = buffer_bytes(e->op, c->size, me, e->bytes, e->bytes2);
    if (e->op == OTF2_COLLECTIVE_OP_CREATE_HANDLE ||
        e->op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE) {
        code = DMPI_ALLGATHER;
        b = 8;
    }
    if (!code)
        return spread_coll(p, r, e, c, me);
    uint32_t root = rooted(e->op) ? e->a : 0;
    struct otf2_rank *k = &p->rank[r];
    if (c->world)
        return otf2_emit(p, k, code, root, 0, b, 0, 0)
                   ? otf2_fail(p, r, e, "out of memory") : 0;
    uint32_t tag;
    if (coll_tag(p, r, c, &tag) != 0 ||
        otf2_emit(p, k, code, root, tag, b, 0, e->comm + 1) != 0)
        return otf2_fail(p, r, e, "out of memory");
    return 0;
}
