/* tracer/req.c — requests: the table of the point-to-point requests in
 * flight, and the calls that complete, test, start, cancel and free them.
 *
 * Records, as Score-P's (SCOREP_Mpi_C_Request.c and
 * scorep_mpi_request_mgmt.c): inside the wait or test that completes a
 * request, before its Leave, MpiIsendComplete(id) for a send, or
 * MpiIrecv(source, comm, tag, bytes received, id) from the status for a
 * receive; MpiRequestCancelled(id) instead if MPI_Cancel was called on it
 * and the status says it was cancelled. A test that completes nothing
 * writes MpiRequestTest(id) for each request it tested that is still
 * pending. MPI_Start(all) of a persistent request gives it a new id and
 * writes MpiIsend (a send) or MpiIrecvRequest (a receive); Score-P keeps
 * one id per persistent request, ours are fresh so that every id names
 * one transfer. A request freed by MPI_Request_free while pending
 * completes unseen: no record.
 *
 * A non-blocking collective's request (tracer/icoll.c) completes with
 * NonBlockingCollectiveComplete(op, comm, root, sent, received, id), the
 * values its call computed, in the same places (SCOREP_MPI_REQUEST_TYPE_
 * ICOLL in scorep_mpi_request_mgmt.c); a test that leaves it pending
 * writes MpiRequestTest(id) as for the others.
 *
 * Requests the tracer did not make (generalised requests, those of
 * unwrapped calls, MPI_REQUEST_NULL) are passed through with no record.
 *
 * Handles are not unique: Open MPI returns one shared, already complete
 * request (ompi_request_empty) for every send its shared-memory path
 * finished at once, so the table keeps one entry per request made, keyed
 * by handle, and a completion takes the entry made through the same
 * MPI_Request variable if there is one, else the oldest of that handle. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

struct req_entry {
    MPI_Request key;
    const MPI_Request *where; /* the variable MPI wrote the handle to */
    uint64_t id;      /* 0: a persistent request not started */
    uint64_t bytes;   /* sent (a send) or posted (a receive); an icoll's sent */
    uint64_t received; /* an icoll's bytes received */
    uint32_t comm;
    int peer, tag;    /* an icoll: its root (-1: none) and OTF2 op */
    uint8_t used, send, persistent, active, cancel;
    uint8_t icoll;    /* a non-blocking collective's */
};

/* Open addressing with linear probing, a power-of-two size, at most half
 * full; deletion shifts the run back (no tombstones). */
static struct {
    struct req_entry *e;
    size_t cap, n;
} reqs;

/* Scratch copies of the caller's request and status arrays. */
static struct {
    MPI_Request *h;
    MPI_Status *st;
    size_t cap;
} scratch;

static size_t slot_of(MPI_Request r)
{
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (reqs.cap - 1);
}

/* The entry of request r held in variable *where (NULL: any), else the
 * oldest of handle r; NULL if none. */
static struct req_entry *req_find(MPI_Request r, const MPI_Request *where)
{
    struct req_entry *best = NULL;
    if (!reqs.n || r == MPI_REQUEST_NULL)
        return NULL;
    for (size_t i = slot_of(r); reqs.e[i].used; i = (i + 1) & (reqs.cap - 1)) {
        struct req_entry *e = &reqs.e[i];
        if (e->key != r)
            continue;
        if (where && e->where == where)
            return e;
        if (!best || e->id < best->id)
            best = e;
    }
    return best;
}

static void req_remove(struct req_entry *e)
{
    size_t mask = reqs.cap - 1, i = (size_t)(e - reqs.e), j = i;
    reqs.e[i].used = 0;
    reqs.n--;
    for (;;) {
        j = (j + 1) & mask;
        if (!reqs.e[j].used)
            return;
        size_t home = slot_of(reqs.e[j].key);
        /* move e[j] back to i unless its home lies in (i, j] */
        if ((j > i && (home <= i || home > j)) ||
            (j < i && (home <= i && home > j))) {
            reqs.e[i] = reqs.e[j];
            reqs.e[j].used = 0;
            i = j;
        }
    }
}

static bool req_grow(void)
{
    size_t cap = reqs.cap ? 2 * reqs.cap : 256;
    struct req_entry *old = reqs.e, *e = calloc(cap, sizeof *e);
    size_t old_cap = reqs.cap;
    if (!e)
        return false;
    reqs.e = e;
    reqs.cap = cap;
    reqs.n = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].used)
            continue;
        size_t s = slot_of(old[i].key);
        while (e[s].used)
            s = (s + 1) & (cap - 1);
        e[s] = old[i];
        reqs.n++;
    }
    free(old);
    return true;
}

void trace_req_init(void)
{
    if (reqs.e)
        memset(reqs.e, 0, reqs.cap * sizeof *reqs.e);
    reqs.n = 0;
}

/* The new entry of *req (zeroed but for key, where and used), or NULL. */
static struct req_entry *req_new(MPI_Request *req)
{
    if (2 * (reqs.n + 1) > reqs.cap && !req_grow())
        return NULL;
    size_t s = slot_of(*req);
    while (reqs.e[s].used)
        s = (s + 1) & (reqs.cap - 1);
    reqs.e[s] = (struct req_entry){ .key = *req, .where = req, .used = 1 };
    reqs.n++;
    return &reqs.e[s];
}

void trace_req_add(MPI_Request *req, uint64_t id, bool send, bool persistent,
                   int peer, int tag, uint32_t comm, uint64_t bytes)
{
    struct req_entry *e = req_new(req);
    if (!e)
        return;
    e->id = id;
    e->bytes = bytes;
    e->comm = comm;
    e->peer = peer;
    e->tag = tag;
    e->send = send;
    e->persistent = persistent;
    e->active = !persistent;
}

void trace_req_add_icoll(MPI_Request *req, uint64_t id, OTF2_CollectiveOp op,
                         uint32_t comm, int root, uint64_t sent,
                         uint64_t received)
{
    struct req_entry *e = req_new(req);
    if (!e)
        return;
    e->id = id;
    e->bytes = sent;
    e->received = received;
    e->comm = comm;
    e->peer = root;
    e->tag = (int)op;
    e->icoll = e->active = 1;
}

/* Room for n handles and statuses in scratch; false if none. */
static bool scratch_fit(size_t n)
{
    if (n <= scratch.cap)
        return true;
    MPI_Request *h = realloc(scratch.h, n * sizeof *h);
    if (h)
        scratch.h = h;
    MPI_Status *st = realloc(scratch.st, n * sizeof *st);
    if (st)
        scratch.st = st;
    if (!h || !st)
        return false;
    scratch.cap = n;
    return true;
}

/* ---- the records --------------------------------------------------------*/

/* Request r (the handle before the call, held in *where) completed with
 * status st. */
static void completed(MPI_Request r, const MPI_Request *where,
                      const MPI_Status *st)
{
    struct req_entry *e = req_find(r, where);
    if (!e || !e->active)
        return;
    int cancelled = 0, bytes = 0;
    if (e->cancel)
        PMPI_Test_cancelled(st, &cancelled);
    uint64_t t = trace_now();
    if (cancelled) {
        OTF2_EvtWriter_MpiRequestCancelled(tracer.evt, NULL, t, e->id);
    } else if (e->icoll) {
        OTF2_EvtWriter_NonBlockingCollectiveComplete(
            tracer.evt, NULL, t, (OTF2_CollectiveOp)e->tag, e->comm,
            e->peer < 0 ? OTF2_UNDEFINED_UINT32 : (uint32_t)e->peer, e->bytes,
            e->received, e->id);
    } else if (e->send) {
        OTF2_EvtWriter_MpiIsendComplete(tracer.evt, NULL, t, e->id);
    } else if (st->MPI_SOURCE != MPI_PROC_NULL) {
        if (PMPI_Get_count(st, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0)
            bytes = 0;
        OTF2_EvtWriter_MpiIrecv(tracer.evt, NULL, t, (uint32_t)st->MPI_SOURCE,
                                e->comm, (uint32_t)st->MPI_TAG,
                                (uint64_t)bytes, e->id);
    }
    if (e->persistent)
        e->active = e->cancel = 0;
    else
        req_remove(e);
}

/* Request r (held in *where) was tested and is still pending. */
static void tested(MPI_Request r, const MPI_Request *where)
{
    struct req_entry *e = req_find(r, where);
    if (e && e->active)
        OTF2_EvtWriter_MpiRequestTest(tracer.evt, NULL, trace_now(), e->id);
}

/* A persistent request r was started. */
static void started(MPI_Request r)
{
    struct req_entry *e = req_find(r, NULL);
    if (!e || !e->persistent)
        return;
    e->active = 1;
    e->cancel = 0;
    e->id = trace_request_id();
    if (e->send)
        OTF2_EvtWriter_MpiIsend(tracer.evt, NULL, trace_now(),
                                (uint32_t)e->peer, e->comm, (uint32_t)e->tag,
                                e->bytes, e->id);
    else
        OTF2_EvtWriter_MpiIrecvRequest(tracer.evt, NULL, trace_now(), e->id);
}

/* ---- waits ------------------------------------------------------------- */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Wait(req, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    MPI_Request h = *req;
    trace_enter(TR_MPI_Wait);
    int rc = PMPI_Wait(req, st);
    if (rc == MPI_SUCCESS)
        completed(h, req, st);
    trace_leave(TR_MPI_Wait);
    return rc;
}

/* The caller's statuses, or scratch ones if it ignores them. */
static MPI_Status *statuses(MPI_Status *given)
{
    return given == MPI_STATUSES_IGNORE ? scratch.st : given;
}

int MPI_Waitall(int n, MPI_Request reqs_[], MPI_Status sts[])
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Waitall(n, reqs_, sts);
    MPI_Status *st = statuses(sts);
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Waitall);
    int rc = PMPI_Waitall(n, reqs_, st);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        completed(scratch.h[i], &reqs_[i], &st[i]);
    trace_leave(TR_MPI_Waitall);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs_[], int *index, MPI_Status *status)
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Waitany(n, reqs_, index, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Waitany);
    int rc = PMPI_Waitany(n, reqs_, index, st);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
        completed(scratch.h[*index], &reqs_[*index], st);
    trace_leave(TR_MPI_Waitany);
    return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs_[], int *outcount, int indices[],
                 MPI_Status sts[])
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Waitsome(n, reqs_, outcount, indices, sts);
    MPI_Status *st = statuses(sts);
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Waitsome);
    int rc = PMPI_Waitsome(n, reqs_, outcount, indices, st);
    for (int i = 0; rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED &&
                    i < *outcount; i++)
        completed(scratch.h[indices[i]], &reqs_[indices[i]], &st[i]);
    trace_leave(TR_MPI_Waitsome);
    return rc;
}

/* ---- tests ------------------------------------------------------------- */

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    if (!tracer.on)
        return PMPI_Test(req, flag, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    MPI_Request h = *req;
    trace_enter(TR_MPI_Test);
    int rc = PMPI_Test(req, flag, st);
    if (rc == MPI_SUCCESS && *flag)
        completed(h, req, st);
    else if (rc == MPI_SUCCESS)
        tested(h, req);
    trace_leave(TR_MPI_Test);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs_[], int *flag, MPI_Status sts[])
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Testall(n, reqs_, flag, sts);
    MPI_Status *st = statuses(sts);
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Testall);
    int rc = PMPI_Testall(n, reqs_, flag, st);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        if (*flag)
            completed(scratch.h[i], &reqs_[i], &st[i]);
        else
            tested(scratch.h[i], &reqs_[i]);
    }
    trace_leave(TR_MPI_Testall);
    return rc;
}

int MPI_Testany(int n, MPI_Request reqs_[], int *index, int *flag,
                MPI_Status *status)
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Testany(n, reqs_, index, flag, status);
    MPI_Status own;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Testany);
    int rc = PMPI_Testany(n, reqs_, index, flag, st);
    if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
        completed(scratch.h[*index], &reqs_[*index], st);
    else if (rc == MPI_SUCCESS && !*flag)
        for (int i = 0; i < n; i++)
            tested(scratch.h[i], &reqs_[i]);
    trace_leave(TR_MPI_Testany);
    return rc;
}

int MPI_Testsome(int n, MPI_Request reqs_[], int *outcount, int indices[],
                 MPI_Status sts[])
{
    if (!tracer.on || n <= 0 || !scratch_fit((size_t)n))
        return PMPI_Testsome(n, reqs_, outcount, indices, sts);
    MPI_Status *st = statuses(sts);
    memcpy(scratch.h, reqs_, (size_t)n * sizeof *reqs_);
    trace_enter(TR_MPI_Testsome);
    int rc = PMPI_Testsome(n, reqs_, outcount, indices, st);
    int done = rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED ? *outcount : 0;
    for (int i = 0; i < done; i++) {
        completed(scratch.h[indices[i]], &reqs_[indices[i]], &st[i]);
        scratch.h[indices[i]] = MPI_REQUEST_NULL;
    }
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        tested(scratch.h[i], &reqs_[i]);
    trace_leave(TR_MPI_Testsome);
    return rc;
}

/* ---- start, cancel, free ----------------------------------------------- */

int MPI_Start(MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Start(req);
    trace_enter(TR_MPI_Start);
    int rc = PMPI_Start(req);
    if (rc == MPI_SUCCESS)
        started(*req);
    trace_leave(TR_MPI_Start);
    return rc;
}

int MPI_Startall(int n, MPI_Request reqs_[])
{
    if (!tracer.on)
        return PMPI_Startall(n, reqs_);
    trace_enter(TR_MPI_Startall);
    int rc = PMPI_Startall(n, reqs_);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        started(reqs_[i]);
    trace_leave(TR_MPI_Startall);
    return rc;
}

int MPI_Cancel(MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Cancel(req);
    trace_enter(TR_MPI_Cancel);
    struct req_entry *e = req_find(*req, req);
    int rc = PMPI_Cancel(req);
    if (rc == MPI_SUCCESS && e)
        e->cancel = 1;
    trace_leave(TR_MPI_Cancel);
    return rc;
}

int MPI_Request_free(MPI_Request *req)
{
    if (!tracer.on)
        return PMPI_Request_free(req);
    MPI_Request h = *req;
    trace_enter(TR_MPI_Request_free);
    int rc = PMPI_Request_free(req);
    struct req_entry *e = rc == MPI_SUCCESS ? req_find(h, req) : NULL;
    if (e)
        req_remove(e);
    trace_leave(TR_MPI_Request_free);
    return rc;
}
