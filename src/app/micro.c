/* app/micro.c — MPI microbenchmarks (see micro.h): each kind's program,
 * an iteration at a time, as the benchmark it follows writes it — SST
 * ember's motifs (pingpong, allreduce, alltoall, bcast, barrier, incast;
 * repo:sstsimulator/sst-elements, our reference notes §2), the OSU
 * micro-benchmarks' osu_bw and osu_bibw, and the blink benchmarks the
 * SC'20 study ran (pw-ping-pong_b, inc_put). Every iteration ends with a
 * mark, so the layer reports per-iteration times as the maximum over
 * ranks. */
#include "app/micro.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

const char *const micro_kind_names[] = { "pingpong", "allreduce",
                                         "alltoall", "bcast",
                                         "barrier",  "incast",
                                         "bw",       "bibw",
                                         "bisection", "pw-pingpong",
                                         "put-incast", NULL };

int micro_init(struct micro *mb, const struct micro_params *p,
               uint32_t nranks, char *err, size_t err_cap)
{
    mb->p = *p;
    mb->nranks = nranks;
    mb->iter = mb->sub = NULL;
    bool pair = p->kind == MICRO_PINGPONG || p->kind == MICRO_BW ||
                p->kind == MICRO_BIBW;
    bool needs_peer = pair || p->kind == MICRO_BCAST ||
                      p->kind == MICRO_INCAST || p->kind == MICRO_PUT_INCAST;
    if (needs_peer && p->peer >= nranks) {
        snprintf(err, err_cap, "%s: rank %u is not one of the job's %u",
                 micro_kind_names[p->kind], p->peer, nranks);
        return -1;
    }
    if (pair && (p->peer == 0 || nranks < 2)) {
        snprintf(err, err_cap, "%s: needs 2 ranks or more and a partner "
                 "other than rank 0", micro_kind_names[p->kind]);
        return -1;
    }
    bool stream = p->kind == MICRO_BW || p->kind == MICRO_BIBW ||
                  p->kind == MICRO_BISECTION;
    if (p->kind == MICRO_BISECTION && (nranks < 2 || nranks % 2)) {
        snprintf(err, err_cap, "bisection: needs an even number of ranks "
                 "(half exchange with the other half), got %u", nranks);
        return -1;
    }
    if ((p->kind == MICRO_PW_PINGPONG || p->kind == MICRO_PUT_INCAST) &&
        nranks < 2) {
        snprintf(err, err_cap, "%s: needs 2 ranks or more, got %u",
                 micro_kind_names[p->kind], nranks);
        return -1;
    }
    if (p->barrier_after && p->barrier_after >= p->iterations) {
        snprintf(err, err_cap, "%s: barrier_after %u: the barrier comes "
                 "before one of the %u iterations (0 to %u)",
                 micro_kind_names[p->kind], p->barrier_after, p->iterations,
                 p->iterations - 1);
        return -1;
    }
    if (stream && p->window == 0) {
        snprintf(err, err_cap, "%s: the window must be 1 or more",
                 micro_kind_names[p->kind]);
        return -1;
    }
    if (p->bytes == 0 && p->kind != MICRO_BARRIER) {
        snprintf(err, err_cap, "%s: bytes must be 1 or more",
                 micro_kind_names[p->kind]);
        return -1;
    }
    mb->iter = calloc(nranks ? nranks : 1, sizeof *mb->iter);
    mb->sub = calloc(nranks ? nranks : 1, sizeof *mb->sub);
    if (!mb->iter || !mb->sub) {
        micro_free(mb);
        snprintf(err, err_cap, "out of memory");
        return -1;
    }
    return 0;
}

void micro_free(struct micro *mb)
{
    free(mb->iter);
    free(mb->sub);
    mb->iter = mb->sub = NULL;
}

static struct dmpi_op op(uint8_t code, uint32_t peer, uint64_t bytes)
{
    return (struct dmpi_op){ .code = code, .peer = peer, .bytes = bytes };
}

/* Operations of one iteration at most (pw-pingpong's: compute, barrier,
 * two timer marks, four messages, the mark). */
#define MICRO_ITER_OPS 9

/* One iteration of rank r into out (at most MICRO_ITER_OPS operations);
 * returns the count. */
static uint32_t iteration(const struct micro *mb, uint32_t r,
                          struct dmpi_op *out)
{
    const struct micro_params *p = &mb->p;
    uint32_t k = 0;
    if (p->compute)
        out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                     .arg = p->compute };
    switch (p->kind) {
    /* emberpingpong: blocking send then receive on rank 0, the reverse on
     * its partner; the other ranks only mark (the round trip is the
     * iteration, ember reports half of it) */
    case MICRO_PINGPONG:
        if (r == 0) {
            out[k++] = op(DMPI_SEND, p->peer, p->bytes);
            out[k++] = op(DMPI_RECV, p->peer, p->bytes);
        } else if (r == p->peer) {
            out[k++] = op(DMPI_RECV, 0, p->bytes);
            out[k++] = op(DMPI_SEND, 0, p->bytes);
        }
        break;
    case MICRO_ALLREDUCE:
        out[k++] = op(DMPI_ALLREDUCE, 0, p->bytes);
        break;
    case MICRO_ALLTOALL:
        out[k++] = op(DMPI_ALLTOALL, 0, p->bytes);
        break;
    case MICRO_BCAST:
        out[k++] = op(DMPI_BCAST, p->peer, p->bytes);
        break;
    case MICRO_BARRIER:
        out[k++] = op(DMPI_BARRIER, 0, 0);
        break;
    /* emberincast: every rank but the target sends, blocking; the target
     * posts a receive from each and waits for all */
    case MICRO_INCAST: /* the target's iteration is incast_target's */
        out[k++] = op(DMPI_SEND, p->peer, p->bytes);
        break;
    case MICRO_PW_PINGPONG: { /* pw-ping-pong_b.c: tag 0 out, 1 back */
        /* rank r of the first half pings r + n/2 (tag 0) and waits for the
         * pong (tag 1), timing that round trip alone; the second half serves
         * first, the first half after its own ping (blink's pw-ping-pong_b,
         * SC'20's ping-pong victim): the slowest pair's round trip is the
         * iteration's (the layer keeps the longest timed interval) */
        uint32_t h = mb->nranks / 2;
        bool first = r < h;
        uint32_t q = first ? r + h : r - h;
        out[k++] = op(DMPI_BARRIER, 0, 0);
        if (r == 2 * h)
            break; /* the odd rank out: the barrier only */
        struct dmpi_op ping = op(DMPI_SEND, q, p->bytes),
                       pong = op(DMPI_RECV, q, p->bytes),
                       serve_in = op(DMPI_RECV, q, p->bytes),
                       serve_out = op(DMPI_SEND, q, p->bytes);
        pong.tag = serve_out.tag = 1;
        if (!first) {
            out[k++] = serve_in;
            out[k++] = serve_out;
        }
        out[k++] = op(DMPI_TSTART, 0, 0);
        out[k++] = ping;
        out[k++] = pong;
        out[k++] = op(DMPI_TSTOP, 0, 0);
        if (first) {
            out[k++] = serve_in;
            out[k++] = serve_out;
        }
        break;
    }
    case MICRO_PUT_INCAST: /* inc_put.c: barrier, fence, Put, fence */
        out[k++] = op(DMPI_BARRIER, 0, 0);
        if (r != p->peer) {
            out[k++] = op(DMPI_PUT, p->peer, p->bytes);
            out[k++] = op(DMPI_FLUSH, 0, 0);
        }
        out[k++] = op(DMPI_BARRIER, 0, 0);
        /* SC'20 Fig. 12's bursty incast: after every `burst` iterations the
         * ranks pause `gap` (1 to 10^6 messages, 1 to 10^6 us in the paper) */
        if (p->burst && p->gap && (mb->iter[r] + 1) % p->burst == 0)
            out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                         .arg = p->gap };
        break;
    default:
        break;
    }
    out[k++] = (struct dmpi_op){ .code = DMPI_MARK };
    return k;
}

/* The incast target's iteration: receives from every other rank, in
 * pieces that fit the layer's batch (sub[r]: receives already emitted). */
static uint32_t incast_target(struct micro *mb, uint32_t r,
                              struct dmpi_op *out, uint32_t cap)
{
    uint32_t k = 0;
    if (mb->sub[r] == 0 && mb->p.compute)
        out[k++] = (struct dmpi_op){ .code = DMPI_COMPUTE,
                                     .arg = mb->p.compute };
    /* n - 1 receives may not fit one batch of the layer's (64 operations):
     * they go out over several calls, sub[r] keeping the place, the waitall
     * and the mark only in the last */
    while (mb->sub[r] < mb->nranks && k + 2 < cap) {
        uint32_t s = mb->sub[r]++;
        if (s != r)
            out[k++] = op(DMPI_IRECV, s, mb->p.bytes);
    }
    if (mb->sub[r] == mb->nranks && k + 2 <= cap) {
        out[k++] = op(DMPI_WAITALL, 0, 0);
        out[k++] = (struct dmpi_op){ .code = DMPI_MARK,
                                     .arg = mb->iter[r] };
        mb->sub[r] = 0;
        mb->iter[r]++;
    }
    return k;
}

/* Operation i of rank r's streaming iteration (bw, bibw, bisection), as
 * OSU's osu_bw / osu_bibw: the sender posts `window` MPI_Isends then
 * MPI_Waitall then receives a 4-byte ack (tag 101); the receiver posts
 * `window` MPI_Irecvs, MPI_Waitall, sends the ack; in bibw both post
 * their receives, then their sends, then MPI_Waitall, and there is no
 * ack. Other ranks only mark. In bisection every rank is a bibw rank
 * whose partner is r + n/2 (mod n). Returns false past the end (the mark
 * is the last). */
#define OSU_ACK_BYTES 4
#define OSU_ACK_TAG 101
static bool stream_op(const struct micro *mb, uint32_t r, uint32_t i,
                      struct dmpi_op *o)
{
    const struct micro_params *p = &mb->p;
    uint32_t w = p->window;
    /* the barrier first, then the iteration's compute (osu_mbw_mr
     * times from its end) */
    if (p->barrier_after && mb->iter[r] == p->barrier_after) {
        if (i == 0) {
            *o = op(DMPI_BARRIER, 0, 0);
            return true;
        }
        i--;
    }
    if (p->compute) {
        if (i == 0) {
            *o = (struct dmpi_op){ .code = DMPI_COMPUTE, .arg = p->compute };
            return true;
        }
        i--;
    }
    bool sender = r == 0, receiver = r == p->peer;
    uint32_t other = sender ? p->peer : 0;
    if (p->kind == MICRO_BISECTION) {
        sender = receiver = true;
        other = (r + mb->nranks / 2) % mb->nranks;
    }
    uint32_t n = 0; /* ops before the mark */
    if ((p->kind == MICRO_BIBW || p->kind == MICRO_BISECTION) &&
        (sender || receiver)) {
        n = 2 * w + 1;
        if (i < w)
            *o = op(DMPI_IRECV, other, p->bytes);
        else if (i < 2 * w)
            *o = op(DMPI_ISEND, other, p->bytes);
        else if (i == 2 * w)
            *o = op(DMPI_WAITALL, 0, 0);
    } else if (sender || receiver) {
        n = w + 2;
        if (i < w)
            *o = op(sender ? DMPI_ISEND : DMPI_IRECV, other, p->bytes);
        else if (i == w)
            *o = op(DMPI_WAITALL, 0, 0);
        else if (i == w + 1) {
            *o = op(sender ? DMPI_RECV : DMPI_SEND, other, OSU_ACK_BYTES);
            o->tag = OSU_ACK_TAG;
        }
    }
    if (i == n)
        *o = (struct dmpi_op){ .code = DMPI_MARK, .arg = mb->iter[r] };
    return i <= n;
}

static uint32_t stream_next(struct micro *mb, uint32_t r,
                            struct dmpi_op *out, uint32_t cap)
{
    uint32_t k = 0;
    while (k < cap && mb->iter[r] < mb->p.iterations) {
        if (stream_op(mb, r, mb->sub[r], &out[k])) {
            bool mark = out[k].code == DMPI_MARK;
            k++;
            mb->sub[r]++;
            if (!mark)
                continue;
        }
        mb->sub[r] = 0;
        mb->iter[r]++;
    }
    return k;
}

static uint32_t micro_next(void *ctx, uint32_t r, struct dmpi_op *out,
                           uint32_t cap)
{
    struct micro *mb = ctx;
    if (mb->iter[r] >= mb->p.iterations)
        return 0;
    if (mb->p.kind == MICRO_INCAST && r == mb->p.peer)
        return incast_target(mb, r, out, cap);
    if (mb->p.kind == MICRO_BW || mb->p.kind == MICRO_BIBW ||
        mb->p.kind == MICRO_BISECTION)
        return stream_next(mb, r, out, cap);
    if (cap < MICRO_ITER_OPS)
        return 0; /* the layer always offers more (mpi.c's BATCH) */
    uint32_t k = iteration(mb, r, out);
    out[k - 1].arg = mb->iter[r]++;
    return k;
}

struct dmpi_app micro_app(struct micro *mb)
{
    return (struct dmpi_app){ .ctx = mb, .next = micro_next };
}
