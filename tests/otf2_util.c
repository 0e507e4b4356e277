/* tests/otf2_util.c — see otf2_util.h. */
#include "otf2_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define TW_MAX_REGIONS 64
#define TW_MAX_COMMS 16
#define TW_MAX_RANKS 64

struct tw {
    OTF2_Archive *ar;
    uint32_t n;
    OTF2_EvtWriter *ev[TW_MAX_RANKS];
    uint64_t last;                       /* latest timestamp */
    const char *region[TW_MAX_REGIONS];  /* names (static strings) */
    uint32_t n_regions;
    struct { const char *name; uint32_t members[TW_MAX_RANKS], n; }
        comm[TW_MAX_COMMS];
    uint32_t n_comms;
    uint32_t win_comm[TW_MAX_COMMS];
    uint32_t n_wins;
};

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft,
                                OTF2_LocationRef loc, void *cb, bool final)
{
    (void)ud, (void)ft, (void)loc, (void)cb, (void)final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft,
                                 OTF2_LocationRef loc)
{
    (void)ud, (void)ft, (void)loc;
    return 0;
}
static OTF2_FlushCallbacks flush = { pre_flush, post_flush };

struct tw *tw_open(const char *dir, uint32_t nranks)
{
    if (nranks == 0 || nranks > TW_MAX_RANKS)
        return NULL;
    struct tw *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->n = nranks;
    w->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
                              1024 * 1024, 4 * 1024 * 1024,
                              OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!w->ar) {
        free(w);
        return NULL;
    }
    OTF2_Archive_SetFlushCallbacks(w->ar, &flush, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(w->ar);
    OTF2_Archive_OpenEvtFiles(w->ar);
    for (uint32_t r = 0; r < nranks; r++)
        w->ev[r] = OTF2_Archive_GetEvtWriter(w->ar, r);
    uint32_t world[TW_MAX_RANKS];
    for (uint32_t r = 0; r < nranks; r++)
        world[r] = r;
    tw_comm(w, "MPI_COMM_WORLD", world, nranks);
    return w;
}

uint32_t tw_comm(struct tw *w, const char *name, const uint32_t *members,
                 uint32_t n)
{
    uint32_t c = w->n_comms++;
    w->comm[c].name = name;
    w->comm[c].n = n;
    memcpy(w->comm[c].members, members, n * sizeof *members);
    return c;
}

static uint32_t region(struct tw *w, const char *name)
{
    for (uint32_t i = 0; i < w->n_regions; i++)
        if (strcmp(w->region[i], name) == 0)
            return i;
    w->region[w->n_regions] = name;
    return w->n_regions++;
}

static OTF2_EvtWriter *at(struct tw *w, uint32_t r, uint64_t t)
{
    if (t > w->last)
        w->last = t;
    return w->ev[r];
}

void tw_enter(struct tw *w, uint32_t r, uint64_t t, const char *name)
{
    OTF2_EvtWriter_Enter(at(w, r, t), NULL, t, region(w, name));
}
void tw_leave(struct tw *w, uint32_t r, uint64_t t, const char *name)
{
    OTF2_EvtWriter_Leave(at(w, r, t), NULL, t, region(w, name));
}
void tw_send(struct tw *w, uint32_t r, uint64_t t, uint32_t to,
             uint32_t comm, uint32_t tag, uint64_t bytes)
{
    OTF2_EvtWriter_MpiSend(at(w, r, t), NULL, t, to, comm, tag, bytes);
}
void tw_recv(struct tw *w, uint32_t r, uint64_t t, uint32_t from,
             uint32_t comm, uint32_t tag, uint64_t bytes)
{
    OTF2_EvtWriter_MpiRecv(at(w, r, t), NULL, t, from, comm, tag, bytes);
}
void tw_isend(struct tw *w, uint32_t r, uint64_t t, uint32_t to,
              uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req)
{
    OTF2_EvtWriter_MpiIsend(at(w, r, t), NULL, t, to, comm, tag, bytes, req);
}
void tw_isend_done(struct tw *w, uint32_t r, uint64_t t, uint64_t req)
{
    OTF2_EvtWriter_MpiIsendComplete(at(w, r, t), NULL, t, req);
}
void tw_irecv_req(struct tw *w, uint32_t r, uint64_t t, uint64_t req)
{
    OTF2_EvtWriter_MpiIrecvRequest(at(w, r, t), NULL, t, req);
}
void tw_test(struct tw *w, uint32_t r, uint64_t t, uint64_t req)
{
    OTF2_EvtWriter_MpiRequestTest(at(w, r, t), NULL, t, req);
}
void tw_irecv(struct tw *w, uint32_t r, uint64_t t, uint32_t from,
              uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req)
{
    OTF2_EvtWriter_MpiIrecv(at(w, r, t), NULL, t, from, comm, tag, bytes,
                            req);
}
void tw_coll(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
             const char *name, uint8_t op, uint32_t comm, uint32_t root,
             uint64_t sent, uint64_t received)
{
    tw_enter(w, r, t, name);
    OTF2_EvtWriter_MpiCollectiveBegin(at(w, r, t), NULL, t);
    OTF2_EvtWriter_MpiCollectiveEnd(at(w, r, t2), NULL, t2, op, comm, root,
                                    sent, received);
    tw_leave(w, r, t2, name);
}
uint32_t tw_win(struct tw *w, uint32_t comm)
{
    w->win_comm[w->n_wins] = comm;
    return w->n_wins++;
}
void tw_rma_put(struct tw *w, uint32_t r, uint64_t t, uint32_t win,
                uint32_t to, uint64_t bytes)
{
    tw_enter(w, r, t, "MPI_Put");
    OTF2_EvtWriter_RmaPut(at(w, r, t), NULL, t, win, to, bytes, 1);
    tw_leave(w, r, t, "MPI_Put");
}
void tw_rma_get(struct tw *w, uint32_t r, uint64_t t, uint32_t win,
                uint32_t from, uint64_t bytes)
{
    tw_enter(w, r, t, "MPI_Get");
    OTF2_EvtWriter_RmaGet(at(w, r, t), NULL, t, win, from, bytes, 2);
    tw_leave(w, r, t, "MPI_Get");
}
void tw_fence(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
              uint32_t win)
{
    tw_enter(w, r, t, "MPI_Win_fence");
    OTF2_EvtWriter_RmaCollectiveBegin(at(w, r, t), NULL, t);
    OTF2_EvtWriter_RmaCollectiveEnd(at(w, r, t2), NULL, t2,
                                    OTF2_COLLECTIVE_OP_BARRIER,
                                    OTF2_RMA_SYNC_LEVEL_PROCESS |
                                        OTF2_RMA_SYNC_LEVEL_MEMORY,
                                    win, OTF2_UNDEFINED_UINT32, 0, 0);
    tw_leave(w, r, t2, "MPI_Win_fence");
}
void tw_nbc(struct tw *w, uint32_t r, uint64_t t, const char *region,
            uint64_t req)
{
    tw_enter(w, r, t, region);
    OTF2_EvtWriter_NonBlockingCollectiveRequest(at(w, r, t), NULL, t, req);
    tw_leave(w, r, t, region);
}
void tw_nbc_done(struct tw *w, uint32_t r, uint64_t t, uint8_t op,
                 uint32_t comm, uint32_t root, uint64_t sent,
                 uint64_t received, uint64_t req)
{
    OTF2_EvtWriter_NonBlockingCollectiveComplete(at(w, r, t), NULL, t, op,
                                                 comm, root, sent, received,
                                                 req);
}
void tw_call_send(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
                  uint32_t to, uint32_t tag, uint64_t bytes)
{
    tw_enter(w, r, t, "MPI_Send");
    tw_send(w, r, t, to, 0, tag, bytes);
    tw_leave(w, r, t2, "MPI_Send");
}
void tw_call_recv(struct tw *w, uint32_t r, uint64_t t, uint64_t t2,
                  uint32_t from, uint32_t tag, uint64_t bytes)
{
    tw_enter(w, r, t, "MPI_Recv");
    tw_recv(w, r, t2, from, 0, tag, bytes);
    tw_leave(w, r, t2, "MPI_Recv");
}

/* Strings: 0 "", 1 "node", 2 "rank", 3.. regions, then communicators. */
static void write_defs(struct tw *w, OTF2_GlobalDefWriter *g)
{
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, w->last + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(g, 0, "");
    OTF2_GlobalDefWriter_WriteString(g, 1, "node");
    OTF2_GlobalDefWriter_WriteString(g, 2, "rank");
    uint32_t s = 3;
    for (uint32_t i = 0; i < w->n_regions; i++) {
        OTF2_GlobalDefWriter_WriteString(g, s, w->region[i]);
        bool mpi = strncmp(w->region[i], "MPI_", 4) == 0;
        OTF2_GlobalDefWriter_WriteRegion(
            g, i, s, s, 0, OTF2_REGION_ROLE_FUNCTION,
            mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
            OTF2_REGION_FLAG_NONE, 0, 0, 0);
        s++;
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint64_t members[TW_MAX_RANKS];
    for (uint32_t r = 0; r < w->n; r++) {
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, r, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
            OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, r, 2,
                                           OTF2_LOCATION_TYPE_CPU_THREAD, 0,
                                           r);
        members[r] = r;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    w->n, members);
    for (uint32_t c = 0; c < w->n_comms; c++) {
        for (uint32_t i = 0; i < w->comm[c].n; i++)
            members[i] = w->comm[c].members[i];
        OTF2_GlobalDefWriter_WriteGroup(g, c + 1, 0,
                                        OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, w->comm[c].n,
                                        members);
        OTF2_GlobalDefWriter_WriteString(g, s, w->comm[c].name);
        OTF2_GlobalDefWriter_WriteComm(g, c, s++, c + 1, OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_NONE);
    }
    for (uint32_t i = 0; i < w->n_wins; i++)
        OTF2_GlobalDefWriter_WriteRmaWin(g, i, 0, w->win_comm[i],
                                         OTF2_RMA_WIN_FLAG_NONE);
}

int tw_close(struct tw *w)
{
    for (uint32_t r = 0; r < w->n; r++)
        OTF2_Archive_CloseEvtWriter(w->ar, w->ev[r]);
    OTF2_Archive_CloseEvtFiles(w->ar);
    /* empty local definitions, as every archive has (readers open them) */
    OTF2_Archive_OpenDefFiles(w->ar);
    for (uint32_t r = 0; r < w->n; r++)
        OTF2_Archive_CloseDefWriter(w->ar,
                                    OTF2_Archive_GetDefWriter(w->ar, r));
    OTF2_Archive_CloseDefFiles(w->ar);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
    int rc = g ? 0 : -1;
    if (g)
        write_defs(w, g);
    if (OTF2_Archive_Close(w->ar) != OTF2_SUCCESS)
        rc = -1;
    free(w);
    return rc;
}
