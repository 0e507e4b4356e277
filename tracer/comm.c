/* tracer/comm.c — communicators: their ids in the trace, and the calls
 * that make and free them.
 *
 * Ids: MPI_COMM_WORLD is 0, MPI_COMM_SELF 1. A new communicator's rank 0
 * names it 2 + k * n + w (w its world rank, k how many communicators it
 * has named before, n the world's size), which no other rank can name,
 * and sends it to the others with PMPI_Bcast on the new communicator
 * while the creating call is being traced. That rank also keeps its
 * definition (parent, members in world ranks) for the global definitions
 * (tracer/defs.c). Ids are therefore unique but not dense.
 *
 * Records, as Score-P's (SCOREP_Mpi_C_Cg.c, SCOREP_Mpi_C_Topo.c): Enter,
 * MpiCollectiveBegin, CommCreate(new) on the ranks that got one,
 * MpiCollectiveEnd(CREATE_HANDLE, the parent, no root, 0, 0), Leave;
 * MPI_Comm_free: Enter, MpiCollectiveBegin, CommDestroy(comm),
 * MpiCollectiveEnd(DESTROY_HANDLE, comm, no root, 0, 0), Leave.
 * Intercommunicators and communicators made by calls not wrapped here
 * (MPI_Comm_create_group, MPI_Comm_idup, graph topologies) have no id:
 * their events carry OTF2_UNDEFINED_COMM. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

struct comm_entry {
    MPI_Comm handle;
    uint32_t id;
};

/* The communicators with an id (world and self are not stored), and the
 * definitions this rank keeps (trace_comm_pack's words). */
static struct {
    struct comm_entry *e;
    size_t n, cap;
    uint32_t led; /* communicators this rank has named */
    uint32_t *words;
    size_t n_words, cap_words;
} comms;

void trace_comm_init(void)
{
    comms.n = 0;
    comms.n_words = 0;
    comms.led = 0;
}

uint32_t trace_comm_ref(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return TRACE_COMM_WORLD;
    if (comm == MPI_COMM_SELF)
        return TRACE_COMM_SELF;
    for (size_t i = comms.n; i-- > 0;)
        if (comms.e[i].handle == comm)
            return comms.e[i].id;
    return OTF2_UNDEFINED_COMM;
}

static void comm_remember(MPI_Comm comm, uint32_t id)
{
    if (comms.n == comms.cap) {
        size_t cap = comms.cap ? 2 * comms.cap : 16;
        struct comm_entry *e = realloc(comms.e, cap * sizeof *e);
        if (!e)
            return;
        comms.e = e;
        comms.cap = cap;
    }
    comms.e[comms.n++] = (struct comm_entry){ comm, id };
}

static void comm_forget(MPI_Comm comm)
{
    for (size_t i = comms.n; i-- > 0;)
        if (comms.e[i].handle == comm) {
            comms.e[i] = comms.e[--comms.n];
            return;
        }
}

/* Append w to the kept definitions. */
static void keep_word(uint32_t w)
{
    if (comms.n_words == comms.cap_words) {
        size_t cap = comms.cap_words ? 2 * comms.cap_words : 256;
        uint32_t *p = realloc(comms.words, cap * sizeof *p);
        if (!p)
            return;
        comms.words = p;
        comms.cap_words = cap;
    }
    comms.words[comms.n_words++] = w;
}

/* Keep comm's definition: id, parent, region, size, world ranks. */
static void keep_definition(MPI_Comm comm, uint32_t id, uint32_t parent,
                            enum trace_region r)
{
    int n = 0;
    MPI_Group g, world;
    PMPI_Comm_size(comm, &n);
    int *ranks = malloc(2 * (size_t)n * sizeof *ranks);
    if (!ranks)
        return;
    PMPI_Comm_group(comm, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    PMPI_Group_translate_ranks(g, n, ranks, world, ranks + n);
    PMPI_Group_free(&g);
    PMPI_Group_free(&world);
    keep_word(id);
    keep_word(parent);
    keep_word((uint32_t)r);
    keep_word((uint32_t)n);
    for (int i = 0; i < n; i++)
        keep_word((uint32_t)ranks[n + i]);
    free(ranks);
}

uint32_t *trace_comm_pack(int *n)
{
    uint32_t *p = malloc((comms.n_words + 1) * sizeof *p);
    *n = p ? (int)comms.n_words : 0;
    if (p && comms.n_words)
        memcpy(p, comms.words, comms.n_words * sizeof *p);
    return p;
}

/* Agree on the id of the new communicator comm (collective over it). */
static uint32_t comm_agree(MPI_Comm comm, MPI_Comm parent,
                           enum trace_region r)
{
    int me = 0;
    uint32_t id = 0;
    PMPI_Comm_rank(comm, &me);
    if (me == 0) {
        id = 2u + comms.led++ * (uint32_t)tracer.size + (uint32_t)tracer.rank;
        keep_definition(comm, id, trace_comm_ref(parent), r);
    }
    PMPI_Bcast(&id, 1, MPI_UINT32_T, 0, comm);
    comm_remember(comm, id);
    return id;
}

/* ---- the records around a creating call -------------------------------- */

static void create_begin(enum trace_region r)
{
    trace_enter(r);
    OTF2_EvtWriter_MpiCollectiveBegin(tracer.evt, NULL, trace_now());
}

static void create_end(enum trace_region r, int rc, MPI_Comm parent,
                       MPI_Comm made)
{
    int inter = 0;
    if (rc == MPI_SUCCESS && made != MPI_COMM_NULL &&
        PMPI_Comm_test_inter(made, &inter) == MPI_SUCCESS && !inter) {
        uint32_t id = comm_agree(made, parent, r);
        OTF2_EvtWriter_CommCreate(tracer.evt, NULL, trace_now(), id);
    }
    OTF2_EvtWriter_MpiCollectiveEnd(tracer.evt, NULL, trace_now(),
                                    OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                    trace_comm_ref(parent),
                                    OTF2_UNDEFINED_UINT32, 0, 0);
    trace_leave(r);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Comm_dup(comm, newcomm);
    create_begin(TR_MPI_Comm_dup);
    int rc = PMPI_Comm_dup(comm, newcomm);
    create_end(TR_MPI_Comm_dup, rc, comm, *newcomm);
    return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Comm_split(comm, color, key, newcomm);
    create_begin(TR_MPI_Comm_split);
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    create_end(TR_MPI_Comm_split, rc, comm, *newcomm);
    return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Comm_split_type(comm, type, key, info, newcomm);
    create_begin(TR_MPI_Comm_split_type);
    int rc = PMPI_Comm_split_type(comm, type, key, info, newcomm);
    create_end(TR_MPI_Comm_split_type, rc, comm, *newcomm);
    return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Comm_create(comm, group, newcomm);
    create_begin(TR_MPI_Comm_create);
    int rc = PMPI_Comm_create(comm, group, newcomm);
    create_end(TR_MPI_Comm_create, rc, comm, *newcomm);
    return rc;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
    create_begin(TR_MPI_Cart_create);
    int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
    create_end(TR_MPI_Cart_create, rc, comm, *newcomm);
    return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    if (!tracer.on)
        return PMPI_Cart_sub(comm, remain_dims, newcomm);
    create_begin(TR_MPI_Cart_sub);
    int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
    create_end(TR_MPI_Cart_sub, rc, comm, *newcomm);
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!tracer.on)
        return PMPI_Comm_free(comm);
    MPI_Comm was = *comm;
    uint32_t id = trace_comm_ref(was);
    create_begin(TR_MPI_Comm_free);
    int rc = PMPI_Comm_free(comm);
    OTF2_EvtWriter_CommDestroy(tracer.evt, NULL, trace_now(), id);
    OTF2_EvtWriter_MpiCollectiveEnd(tracer.evt, NULL, trace_now(),
                                    OTF2_COLLECTIVE_OP_DESTROY_HANDLE, id,
                                    OTF2_UNDEFINED_UINT32, 0, 0);
    trace_leave(TR_MPI_Comm_free);
    if (rc == MPI_SUCCESS)
        comm_forget(was);
    return rc;
}
