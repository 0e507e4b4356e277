/* app/otf2_trace.h — an OTF2 archive of an MPI program, read as the
 * otf2 workload replays it (app/otf2.c): the definitions whole, the
 * events of each rank streamed.
 *
 * What is read (the records Score-P writes for MPI, and dfsim's own
 * tracer, docs/tracer.md, writes the same):
 *   definitions  the clock's resolution; strings; regions (an MPI call is a
 *                region of paradigm MPI, or one whose name begins "MPI_");
 *                the group of type COMM_LOCATIONS, whose i-th member is the
 *                location of MPI_COMM_WORLD's rank i (so rank i of the
 *                trace is rank i of the job); every communicator's group
 *                (COMM_GROUP: its members are world ranks, in the
 *                communicator's rank order; COMM_SELF: the rank alone);
 *                local definitions' mapping tables, applied by libotf2 to
 *                every event
 *   events       Enter and Leave; MpiSend, MpiRecv, MpiIsend,
 *                MpiIsendComplete, MpiIrecvRequest, MpiIrecv,
 *                MpiRequestTest, MpiRequestCancelled, MpiCollectiveBegin,
 *                MpiCollectiveEnd; NonBlockingCollectiveRequest and
 *                -Complete; the one-sided RmaPut, RmaGet, RmaAtomic and
 *                the window synchronisation (RmaCollectiveEnd: a fence;
 *                RmaReleaseLock, RmaSync, RmaGroupSync,
 *                RmaOpCompleteRemote: completion), a
 *                window's communicator from its RmaWin definition; every
 *                other record (threads, metrics, I/O, lock requests,
 *                RMA completion notices) is passed over.
 *
 * Streaming: each rank's events come from its own libotf2 event reader,
 * one record at a time, into a small queue of decoded records: the
 * replay looks ahead only as far as it must (an MPI_Irecv's source and
 * size are recorded at its completion), so a trace larger than memory
 * replays (memory: the definitions, plus each rank's look-ahead).
 */
#ifndef DFSIM_APP_OTF2_TRACE_H
#define DFSIM_APP_OTF2_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum otf2_rec_kind {
    OR_ENTER,       /* a: region */
    OR_LEAVE,       /* a: region */
    OR_SEND,        /* a: receiver (rank in comm), comm, tag, bytes */
    OR_RECV,        /* a: sender, comm, tag, bytes */
    OR_ISEND,       /* a: receiver, comm, tag, bytes, req */
    OR_ISEND_DONE,  /* req */
    OR_IRECV_REQ,   /* req */
    OR_IRECV,       /* a: sender, comm, tag, bytes, req (completed) */
    OR_TEST,        /* req: tested, not complete */
    OR_CANCEL,      /* req */
    OR_COLL_BEGIN,
    OR_COLL_END,    /* op: OTF2_CollectiveOp, comm, a: root, bytes: sent,
                       bytes2: received */
    OR_NBC_REQ,     /* req: a non-blocking collective called */
    OR_NBC_DONE,    /* as OR_COLL_END, and req: it completed */
    OR_RMA_PUT,     /* a: remote (rank in the window's communicator),
                       comm: the window's communicator, bytes */
    OR_RMA_GET,     /* likewise */
    OR_RMA_ATOMIC,  /* likewise; bytes: sent, bytes2: received */
    OR_RMA_FENCE,   /* RmaCollectiveEnd: op, comm (the window's) */
    OR_SKIP,        /* MPI calls that held nothing the replay acts on
                       (tests that completed nothing), read ahead and
                       dropped: bytes = the time inside them, ticks;
                       time = the last one's Leave (otf2_read.c:
                       collapse) */
    OR_RMA_FLUSH,   /* RmaReleaseLock, RmaSync, RmaGroupSync,
                       RmaOpCompleteRemote (MPI_Win_flush): the rank's
                       one-sided operations complete */
};

struct otf2_rec {
    uint8_t kind;   /* enum otf2_rec_kind */
    uint8_t op;     /* OR_COLL_END: the collective */
    uint32_t a;     /* see the kinds */
    uint32_t comm;  /* global communicator reference */
    uint32_t tag;
    uint64_t bytes, bytes2;
    uint64_t req;
    uint64_t time;  /* ticks of the trace's clock */
    uint64_t pos;   /* the event's position in its location (1-based) */
};

/* A communicator: its ranks as world ranks, in its rank order. */
struct otf2_comm {
    bool defined;
    bool world;        /* its ranks are the world's, in the world's order */
    uint32_t index;    /* dense number of the communicator (tags) */
    uint32_t size;
    uint32_t *member;  /* [size] */
    const char *name;
};

struct otf2_stream;   /* otf2_read.c */
struct otf2_trace {
    char *path;           /* the anchor file, as given */
    void *reader;         /* OTF2_Reader */
    uint64_t resolution;  /* clock ticks per second */
    uint32_t nranks;
    uint64_t *location;   /* [nranks]: rank i's location */
    char **string;        /* [n_strings] */
    uint32_t n_strings;
    uint32_t *region_name; /* [n_regions]: string ref */
    uint8_t *region_mpi;   /* [n_regions]: an MPI call */
    uint32_t n_regions;
    struct otf2_comm *comm; /* [n_comms], by reference */
    uint32_t *win_comm;   /* [n_wins]: each RMA window's communicator */
    uint32_t n_wins;
    uint32_t n_comms, n_comm_defined;
    struct otf2_stream *stream; /* [nranks] */
    uint32_t lookahead_max; /* the most records one rank's queue held */
    void *callbacks;      /* OTF2_EvtReaderCallbacks, every rank's */
    char err[320];        /* the first error while reading events */
};

/* Open the archive whose anchor file is `path` and read its definitions:
 * 0, or -1 with a sentence in err naming the file (cannot be read, not
 * an OTF2 archive, no MPI locations, a communicator over a group never
 * defined, ...) and nothing to free. */
int otf2_trace_open(struct otf2_trace *t, const char *path, char *err,
                    size_t cap);
void otf2_trace_close(struct otf2_trace *t);

/* The i-th record not yet taken of rank r (0: the next), reading ahead
 * as needed; NULL at the end of the rank's events or on a read error
 * (then t->err says which, naming the file, rank and event). */
const struct otf2_rec *otf2_peek(struct otf2_trace *t, uint32_t r,
                                 uint32_t i);
/* Read rank r's events again from the first (a repeated replay): 0, or
 * -1 with t->err set. */
int otf2_rewind(struct otf2_trace *t, uint32_t r);
/* Looking ahead: the record at index *i of rank r's queue (or the next
 * one read, when calls collapsed behind *i: every record that stays is
 * returned once), *i advanced past it; NULL at the end or on a read
 * error. For scans for a completion (an MPI_Irecv's, a non-blocking
 * collective's). */
const struct otf2_rec *otf2_ahead(struct otf2_trace *t, uint32_t r,
                                  uint32_t *i);
/* Take rank r's next record (after a peek that returned it). */
void otf2_take(struct otf2_trace *t, uint32_t r);

/* The name of region `region` ("?" if undefined); whether it is an MPI
 * call. */
const char *otf2_region_name(const struct otf2_trace *t, uint32_t region);
bool otf2_region_is_mpi(const struct otf2_trace *t, uint32_t region);

/* Communicator `ref`, or NULL when the trace never defined it. */
const struct otf2_comm *otf2_comm_of(const struct otf2_trace *t,
                                     uint32_t ref);

/* Ticks of the trace's clock as picoseconds. */
uint64_t otf2_ticks_ps(const struct otf2_trace *t, uint64_t ticks);

/* What a trace holds (`dfsim trace FILE`; issue 56's validation: the
 * replay's messages and bytes against the trace's). Sizes by bucket:
 * bucket 0 holds messages of 0 or 1 byte, bucket k > 0 those of
 * 2^(k-1) + 1 .. 2^k bytes. */
#define OTF2_SIZE_BUCKETS 40
#define OTF2_COLL_OPS 23 /* OTF2_CollectiveOp's values */
struct otf2_stats {
    uint32_t nranks, n_comms;
    uint64_t records;                  /* records read (all ranks) */
    uint64_t calls;                    /* MPI calls (Enter of an MPI region
                                          at depth 0) */
    uint64_t sends, send_bytes;        /* MpiSend + MpiIsend */
    uint64_t recvs, recv_bytes;        /* MpiRecv + MpiIrecv (completed) */
    uint64_t size_msgs[OTF2_SIZE_BUCKETS], size_bytes[OTF2_SIZE_BUCKETS];
    uint64_t coll_calls[OTF2_COLL_OPS], coll_sent[OTF2_COLL_OPS];
    uint64_t rank_send_min, rank_send_max; /* send bytes of one rank */
    double span_s;                     /* first to last record, longest rank */
    double mpi_share;                  /* time inside MPI calls / span, mean
                                          over ranks */
};

/* The size bucket of a message of b bytes (struct otf2_stats). */
uint32_t otf2_size_bucket(uint64_t b);
/* Read every rank's records once: 0, or -1 with t->err set. */
int otf2_trace_stats(struct otf2_trace *t, struct otf2_stats *s);
/* OTF2's name of collective op (e.g. "ALLREDUCE"), "?" if unknown. */
const char *otf2_coll_name(uint8_t op);

#endif
