/* tracer/rma.c — one-sided communication (MPI-3 RMA): windows, their ids,
 * the operations and the synchronisation calls.
 *
 * Window ids: a new window's rank 0 in its communicator names it
 * k * n + w (w its world rank, k how many windows it has named before,
 * n the world's size: no other rank can name it) and sends it to the
 * others with PMPI_Bcast on the window's communicator, inside the
 * creating call; it keeps the definition (id, the communicator's id, the
 * creating region) for the global definitions, where windows are
 * numbered densely and every rank's local definitions map its ids
 * (OTF2_MAPPING_RMA_WIN), as for communicators (tracer/defs.c). The
 * RmaWin definition names the communicator the window was made on; the
 * "remote" of every RMA record is a rank in that communicator.
 *
 * Records, as Score-P 9's (src/adapters/mpi/c/wrappers/SCOREP_Mpi_C_Rma.c,
 * scorep_mpi_rma_request.c):
 *
 *   Win_create/_allocate  Enter, RmaCollectiveBegin, call, RmaWinCreate(w),
 *                         RmaCollectiveEnd(CREATE_HANDLE (_AND_ALLOCATE),
 *                         PROCESS, w, no root, 0, 0), Leave
 *   Win_free              Enter, RmaCollectiveBegin, call, RmaWinDestroy(w),
 *                         RmaCollectiveEnd(DESTROY_HANDLE (_AND_DEALLOCATE
 *                         for an allocated window), PROCESS, w, ...), Leave
 *   Put, Get              Enter, RmaPut/RmaGet(w, target, origin bytes, m),
 *                         call, Leave
 *   Accumulate            RmaAtomic(w, target, ACCUMULATE, origin bytes, 0, m)
 *   Get_accumulate        RmaAtomic(w, target, FETCH_AND_ACCUMULATE, origin
 *                         bytes, result bytes, m)
 *   Win_fence             Enter, RmaCollectiveBegin, call, the window's
 *                         pending operations completed locally, RmaCollectiveEnd(
 *                         BARRIER, PROCESS|MEMORY, w, no root, 0, 0), Leave
 *   Win_lock(type, r)     Enter, RmaRequestLock(w, r, 0, EXCLUSIVE|SHARED),
 *                         call, Leave (no RmaAcquireLock: Score-P writes none)
 *   Win_lock_all          the same, remote OTF2_UNDEFINED_UINT32, SHARED
 *   Win_unlock(r)         Enter, call, r's pending operations completed fully,
 *                         RmaReleaseLock(w, r, 0), Leave
 *   Win_unlock_all        every target's, RmaReleaseLock(w, undefined, 0)
 *   Win_flush(r), _all    Enter, call, completed fully, Leave
 *   Win_flush_local(r), _local_all  Enter, call, completed locally, Leave
 *
 * The matching id m: a pending operation is kept per (window, target);
 * a Put/Get/Accumulate to a target with one pending reuses its id, else
 * takes a new one from the request counter (trace_request_id). "Completed
 * locally" writes RmaOpCompleteNonBlocking(w, m) unless already written;
 * "fully" that, then RmaOpCompleteRemote(w, m), and forgets the pending
 * operation; a fence completes locally and forgets. Completions are
 * written in the order of the targets' ranks. RmaOpCompleteBlocking is
 * not written (Score-P's MPI adapter writes none). Nothing is recorded
 * for a target of MPI_PROC_NULL. Post/start/complete/wait, Win_sync,
 * dynamic and shared windows and the request-based Rput/Rget are not
 * wrapped (docs/tracer.md). */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#define WIN_UNDEFINED OTF2_UNDEFINED_RMA_WIN

struct win_entry {
    MPI_Win handle;
    uint32_t id;
};

/* A (window, target) with operations not yet completed. */
struct pending {
    uint32_t win;
    int target;
    uint64_t id;        /* the matching id */
    bool local_done;    /* RmaOpCompleteNonBlocking written */
};

static struct {
    struct win_entry *e;
    size_t n, cap;
    uint32_t led;       /* windows this rank has named */
    uint32_t *words;    /* kept definitions: id, comm, region */
    size_t n_words, cap_words;
    struct pending *p;  /* sorted by (win, target) */
    size_t n_p, cap_p;
} wins;

void trace_win_init(void)
{
    wins.n = wins.n_words = wins.n_p = 0;
    wins.led = 0;
}

uint32_t *trace_win_pack(int *n)
{
    uint32_t *p = malloc((wins.n_words + 1) * sizeof *p);
    *n = p ? (int)wins.n_words : 0;
    if (p && wins.n_words)
        memcpy(p, wins.words, wins.n_words * sizeof *p);
    return p;
}

/* Room for one more element in *a (of *cap, size sz); false if none. */
static bool grow(void **a, size_t n, size_t *cap, size_t sz, size_t first)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? 2 * *cap : first;
    void *p = realloc(*a, c * sz);
    if (!p)
        return false;
    *a = p;
    *cap = c;
    return true;
}

static uint32_t win_ref(MPI_Win w)
{
    for (size_t i = wins.n; i-- > 0;)
        if (wins.e[i].handle == w)
            return wins.e[i].id;
    return WIN_UNDEFINED;
}

static void keep_definition(uint32_t id, MPI_Comm comm, enum trace_region r)
{
    uint32_t d[3] = { id, trace_comm_ref(comm), (uint32_t)r };
    for (int i = 0; i < 3; i++) {
        if (!grow((void **)&wins.words, wins.n_words, &wins.cap_words,
                  sizeof *wins.words, 64))
            return;
        wins.words[wins.n_words++] = d[i];
    }
}

/* Agree on the id of the new window w over comm (collective). */
static uint32_t win_agree(MPI_Win w, MPI_Comm comm, enum trace_region r)
{
    int me = 0;
    uint32_t id = 0;
    PMPI_Comm_rank(comm, &me);
    if (me == 0) {
        id = wins.led++ * (uint32_t)tracer.size + (uint32_t)tracer.rank;
        keep_definition(id, comm, r);
    }
    PMPI_Bcast(&id, 1, MPI_UINT32_T, 0, comm);
    if (grow((void **)&wins.e, wins.n, &wins.cap, sizeof *wins.e, 16))
        wins.e[wins.n++] = (struct win_entry){ w, id };
    return id;
}

/* Forget window w and its pending operations. */
static void win_forget(MPI_Win w, uint32_t id)
{
    for (size_t i = wins.n; i-- > 0;)
        if (wins.e[i].handle == w) {
            wins.e[i] = wins.e[--wins.n];
            break;
        }
    size_t k = 0;
    for (size_t i = 0; i < wins.n_p; i++)
        if (wins.p[i].win != id)
            wins.p[k++] = wins.p[i];
    wins.n_p = k;
}

/* ---- pending operations ------------------------------------------------ */

/* The index of the first pending operation at or after (win, target). */
static size_t pend_lower(uint32_t win, int target)
{
    size_t lo = 0, hi = wins.n_p;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const struct pending *p = &wins.p[mid];
        if (p->win < win || (p->win == win && p->target < target))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The matching id of a new operation to target: the pending one's, else
 * a new one (and the operation is pending). */
static uint64_t matching_id(uint32_t win, int target)
{
    size_t i = pend_lower(win, target);
    if (i < wins.n_p && wins.p[i].win == win && wins.p[i].target == target)
        return wins.p[i].id;
    uint64_t id = trace_request_id();
    if (!grow((void **)&wins.p, wins.n_p, &wins.cap_p, sizeof *wins.p, 16))
        return id;
    memmove(&wins.p[i + 1], &wins.p[i], (wins.n_p - i) * sizeof *wins.p);
    wins.p[i] = (struct pending){ win, target, id, false };
    wins.n_p++;
    return id;
}

enum completion {
    LOCAL, /* flush_local: RmaOpCompleteNonBlocking once; kept */
    FENCE, /* fence: RmaOpCompleteNonBlocking once; forgotten */
    FULL,  /* flush, unlock: NonBlocking once, RmaOpCompleteRemote; forgotten */
};

/* Complete win's pending operations to target (every target if
 * all_targets), in target order. */
static void complete(uint32_t win, int target, bool all_targets,
                     enum completion how)
{
    size_t i = pend_lower(win, all_targets ? -2147483647 - 1 : target);
    size_t k = i;
    for (; i < wins.n_p && wins.p[i].win == win &&
           (all_targets || wins.p[i].target == target); i++) {
        struct pending *p = &wins.p[i];
        if (!p->local_done)
            OTF2_EvtWriter_RmaOpCompleteNonBlocking(tracer.evt, NULL,
                                                    trace_now(), win, p->id);
        p->local_done = true;
        if (how == FULL)
            OTF2_EvtWriter_RmaOpCompleteRemote(tracer.evt, NULL, trace_now(),
                                               win, p->id);
        if (how == LOCAL)
            wins.p[k++] = *p;
    }
    memmove(&wins.p[k], &wins.p[i], (wins.n_p - i) * sizeof *wins.p);
    wins.n_p -= i - k;
}

/* ---- windows ----------------------------------------------------------- */

static void rma_coll_begin(enum trace_region r)
{
    trace_enter(r);
    OTF2_EvtWriter_RmaCollectiveBegin(tracer.evt, NULL, trace_now());
}

static void rma_coll_end(enum trace_region r, OTF2_CollectiveOp op,
                         OTF2_RmaSyncLevel level, uint32_t win)
{
    OTF2_EvtWriter_RmaCollectiveEnd(tracer.evt, NULL, trace_now(), op, level,
                                    win, OTF2_UNDEFINED_UINT32, 0, 0);
    trace_leave(r);
}

/* After a creating call on comm: the window's id, and RmaWinCreate. */
static uint32_t created(enum trace_region r, int rc, MPI_Win w, MPI_Comm comm)
{
    if (rc != MPI_SUCCESS || w == MPI_WIN_NULL)
        return WIN_UNDEFINED;
    uint32_t id = win_agree(w, comm, r);
    OTF2_EvtWriter_RmaWinCreate(tracer.evt, NULL, trace_now(), id);
    return id;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win)
{
    if (!tracer.on)
        return PMPI_Win_create(base, size, disp_unit, info, comm, win);
    rma_coll_begin(TR_MPI_Win_create);
    int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
    uint32_t id = created(TR_MPI_Win_create, rc, *win, comm);
    rma_coll_end(TR_MPI_Win_create, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                 OTF2_RMA_SYNC_LEVEL_PROCESS, id);
    return rc;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    if (!tracer.on)
        return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    rma_coll_begin(TR_MPI_Win_allocate);
    int rc = PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
    uint32_t id = created(TR_MPI_Win_allocate, rc, *win, comm);
    rma_coll_end(TR_MPI_Win_allocate,
                 OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE,
                 OTF2_RMA_SYNC_LEVEL_PROCESS, id);
    return rc;
}

/* DESTROY_HANDLE, or _AND_DEALLOCATE for a window MPI allocated
 * (Score-P's scorep_mpi_win_collective_type). */
static OTF2_CollectiveOp destroy_op(MPI_Win w)
{
    int *flavor = NULL, flag = 0;
    PMPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    if (flag && flavor && (*flavor == MPI_WIN_FLAVOR_ALLOCATE ||
                           *flavor == MPI_WIN_FLAVOR_SHARED))
        return OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
    return OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
}

int MPI_Win_free(MPI_Win *win)
{
    if (!tracer.on)
        return PMPI_Win_free(win);
    MPI_Win was = *win;
    uint32_t id = win_ref(was);
    OTF2_CollectiveOp op = destroy_op(was);
    rma_coll_begin(TR_MPI_Win_free);
    int rc = PMPI_Win_free(win);
    OTF2_EvtWriter_RmaWinDestroy(tracer.evt, NULL, trace_now(), id);
    rma_coll_end(TR_MPI_Win_free, op, OTF2_RMA_SYNC_LEVEL_PROCESS, id);
    if (rc == MPI_SUCCESS)
        win_forget(was, id);
    return rc;
}

/* ---- operations -------------------------------------------------------- */

int MPI_Put(const void *oaddr, int ocount, MPI_Datatype otype, int target,
            MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Put(oaddr, ocount, otype, target, tdisp, tcount, ttype,
                        win);
    trace_enter(TR_MPI_Put);
    if (target != MPI_PROC_NULL) {
        uint32_t w = win_ref(win);
        uint64_t m = matching_id(w, target);
        OTF2_EvtWriter_RmaPut(tracer.evt, NULL, trace_now(), w,
                              (uint32_t)target, trace_bytes(ocount, otype), m);
    }
    int rc = PMPI_Put(oaddr, ocount, otype, target, tdisp, tcount, ttype, win);
    trace_leave(TR_MPI_Put);
    return rc;
}

int MPI_Get(void *oaddr, int ocount, MPI_Datatype otype, int target,
            MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Get(oaddr, ocount, otype, target, tdisp, tcount, ttype,
                        win);
    trace_enter(TR_MPI_Get);
    if (target != MPI_PROC_NULL) {
        uint32_t w = win_ref(win);
        uint64_t m = matching_id(w, target);
        OTF2_EvtWriter_RmaGet(tracer.evt, NULL, trace_now(), w,
                              (uint32_t)target, trace_bytes(ocount, otype), m);
    }
    int rc = PMPI_Get(oaddr, ocount, otype, target, tdisp, tcount, ttype, win);
    trace_leave(TR_MPI_Get);
    return rc;
}

/* RmaAtomic of type to target, unless MPI_PROC_NULL. */
static void atomic(MPI_Win win, int target, OTF2_RmaAtomicType type,
                   uint64_t sent, uint64_t received)
{
    if (target == MPI_PROC_NULL)
        return;
    uint32_t w = win_ref(win);
    uint64_t m = matching_id(w, target);
    OTF2_EvtWriter_RmaAtomic(tracer.evt, NULL, trace_now(), w,
                             (uint32_t)target, type, sent, received, m);
}

int MPI_Accumulate(const void *oaddr, int ocount, MPI_Datatype otype,
                   int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                   MPI_Op op, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Accumulate(oaddr, ocount, otype, target, tdisp, tcount,
                               ttype, op, win);
    trace_enter(TR_MPI_Accumulate);
    atomic(win, target, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE,
           trace_bytes(ocount, otype), 0);
    int rc = PMPI_Accumulate(oaddr, ocount, otype, target, tdisp, tcount,
                             ttype, op, win);
    trace_leave(TR_MPI_Accumulate);
    return rc;
}

int MPI_Get_accumulate(const void *oaddr, int ocount, MPI_Datatype otype,
                       void *raddr, int rcount, MPI_Datatype rtype,
                       int target, MPI_Aint tdisp, int tcount,
                       MPI_Datatype ttype, MPI_Op op, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Get_accumulate(oaddr, ocount, otype, raddr, rcount, rtype,
                                   target, tdisp, tcount, ttype, op, win);
    trace_enter(TR_MPI_Get_accumulate);
    atomic(win, target, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE,
           trace_bytes(ocount, otype), trace_bytes(rcount, rtype));
    int rc = PMPI_Get_accumulate(oaddr, ocount, otype, raddr, rcount, rtype,
                                 target, tdisp, tcount, ttype, op, win);
    trace_leave(TR_MPI_Get_accumulate);
    return rc;
}

/* ---- synchronisation --------------------------------------------------- */

int MPI_Win_fence(int assert_, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_fence(assert_, win);
    rma_coll_begin(TR_MPI_Win_fence);
    int rc = PMPI_Win_fence(assert_, win);
    uint32_t w = win_ref(win);
    complete(w, 0, true, FENCE);
    rma_coll_end(TR_MPI_Win_fence, OTF2_COLLECTIVE_OP_BARRIER,
                 OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, w);
    return rc;
}

int MPI_Win_lock(int type, int rank, int assert_, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_lock(type, rank, assert_, win);
    trace_enter(TR_MPI_Win_lock);
    OTF2_EvtWriter_RmaRequestLock(tracer.evt, NULL, trace_now(), win_ref(win),
                                  (uint32_t)rank, 0,
                                  type == MPI_LOCK_EXCLUSIVE
                                      ? OTF2_LOCK_EXCLUSIVE
                                      : OTF2_LOCK_SHARED);
    int rc = PMPI_Win_lock(type, rank, assert_, win);
    trace_leave(TR_MPI_Win_lock);
    return rc;
}

int MPI_Win_lock_all(int assert_, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_lock_all(assert_, win);
    trace_enter(TR_MPI_Win_lock_all);
    OTF2_EvtWriter_RmaRequestLock(tracer.evt, NULL, trace_now(), win_ref(win),
                                  OTF2_UNDEFINED_UINT32, 0, OTF2_LOCK_SHARED);
    int rc = PMPI_Win_lock_all(assert_, win);
    trace_leave(TR_MPI_Win_lock_all);
    return rc;
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_unlock(rank, win);
    trace_enter(TR_MPI_Win_unlock);
    int rc = PMPI_Win_unlock(rank, win);
    uint32_t w = win_ref(win);
    complete(w, rank, false, FULL);
    OTF2_EvtWriter_RmaReleaseLock(tracer.evt, NULL, trace_now(), w,
                                  (uint32_t)rank, 0);
    trace_leave(TR_MPI_Win_unlock);
    return rc;
}

int MPI_Win_unlock_all(MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_unlock_all(win);
    trace_enter(TR_MPI_Win_unlock_all);
    int rc = PMPI_Win_unlock_all(win);
    uint32_t w = win_ref(win);
    complete(w, 0, true, FULL);
    OTF2_EvtWriter_RmaReleaseLock(tracer.evt, NULL, trace_now(), w,
                                  OTF2_UNDEFINED_UINT32, 0);
    trace_leave(TR_MPI_Win_unlock_all);
    return rc;
}

/* A flush of region r: its PMPI call's rc, then the completions. */
static int flushed(enum trace_region r, int rc, MPI_Win win, int rank,
                   bool all_targets, enum completion how)
{
    complete(win_ref(win), rank, all_targets, how);
    trace_leave(r);
    return rc;
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_flush(rank, win);
    trace_enter(TR_MPI_Win_flush);
    return flushed(TR_MPI_Win_flush, PMPI_Win_flush(rank, win), win, rank,
                   false, FULL);
}

int MPI_Win_flush_all(MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_flush_all(win);
    trace_enter(TR_MPI_Win_flush_all);
    return flushed(TR_MPI_Win_flush_all, PMPI_Win_flush_all(win), win, 0,
                   true, FULL);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_flush_local(rank, win);
    trace_enter(TR_MPI_Win_flush_local);
    return flushed(TR_MPI_Win_flush_local, PMPI_Win_flush_local(rank, win),
                   win, rank, false, LOCAL);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    if (!tracer.on)
        return PMPI_Win_flush_local_all(win);
    trace_enter(TR_MPI_Win_flush_local_all);
    return flushed(TR_MPI_Win_flush_local_all, PMPI_Win_flush_local_all(win),
                   win, 0, true, LOCAL);
}
