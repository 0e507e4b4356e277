/* tests/test_coll.c — mpi/coll: collectives expanded to point-to-point ops.
 *
 * The expansions of all p ranks run together in a small abstract
 * interpreter: each rank executes its ops in order; ISEND and IRECV open
 * requests; a send matches the earliest posted unmatched receive of its
 * destination with the same source and tag, a receive the earliest
 * unmatched send to it (MPI's non-overtaking order); a WAITALL blocks until
 * every open request of the rank is matched — rendezvous semantics, the
 * strictest, so a schedule that finishes here finishes under any eager
 * protocol too. The loop runs until no rank can progress.
 *
 * Information flow: every rank holds, per piece of the buffer, the set of
 * ranks whose input it contains (a bitset, p <= 64). A send carries the
 * sender's sets of the pieces its annotation names (DMPI_COLL_ARG) as they
 * were when it was posted; the receiver applies them when its WAITALL
 * completes: SUM requires the sets to be disjoint (a reduction that counts
 * a rank twice is wrong) and joins them, COPY replaces, UNION joins. The
 * end state is then checked against what the collective means.
 */
#include "test.h"

#include <stdbool.h>
#include <stdlib.h>

#include "mpi/coll.h"

#define MAXP 64
#define MAXC 64 /* pieces tracked */

struct req {
    uint32_t rank, peer, tag;
    bool send, matched;
    uint64_t bytes, arg;
    uint32_t payload; /* index into run.payload (annotated sends) */
    uint32_t match;   /* the matching request */
};

struct list {
    uint32_t *v;
    uint32_t n, cap;
};

static void list_push(struct list *l, uint32_t x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = x;
}

static void list_remove(struct list *l, uint32_t i)
{
    memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof *l->v);
    l->n--;
}

struct run {
    uint32_t p, nchunks;
    struct dmpi_op *ops[MAXP];
    uint32_t nops[MAXP], pc[MAXP];
    struct list open[MAXP];   /* a rank's open requests, in post order */
    struct list usend[MAXP];  /* unmatched sends to rank d, in order */
    struct list urecv[MAXP];  /* unmatched receives of rank d, in order */
    struct req *reqs;
    uint32_t nreqs, capreqs;
    uint64_t *payload;
    uint32_t npayload, cappayload;
    uint64_t have[MAXP][MAXC];
    /* statistics */
    uint64_t sent_msgs[MAXP], sent_bytes[MAXP], recv_msgs[MAXP];
    uint64_t recv_from[MAXP][MAXP], compute_ps[MAXP], sum_bytes[MAXP];
    uint64_t pending_sum[MAXP], max_msg;
    /* errors */
    int bad_op, bad_tag, bad_peer, bad_size, size_mismatch, arg_mismatch,
        bad_arg, overlap, open_at_end;
};

static uint32_t new_req(struct run *r)
{
    if (r->nreqs == r->capreqs) {
        r->capreqs = r->capreqs ? 2 * r->capreqs : 1024;
        r->reqs = realloc(r->reqs, r->capreqs * sizeof *r->reqs);
    }
    memset(&r->reqs[r->nreqs], 0, sizeof r->reqs[0]);
    return r->nreqs++;
}

static void link_reqs(struct run *r, uint32_t s, uint32_t v)
{
    struct req *rs = &r->reqs[s], *rv = &r->reqs[v];
    rs->matched = rv->matched = true;
    rs->match = v, rv->match = s;
    if (rs->bytes != rv->bytes)
        r->size_mismatch++;
    if (rs->arg != rv->arg)
        r->arg_mismatch++;
    r->recv_from[rv->rank][rs->rank] += rs->bytes;
    r->recv_msgs[rv->rank]++;
}

/* Check an annotation's pieces against the run's piece count. */
static bool arg_ok(const struct run *r, uint64_t arg)
{
    uint32_t first = DMPI_COLL_ARG_FIRST(arg), n = DMPI_COLL_ARG_COUNT(arg);
    uint32_t how = DMPI_COLL_ARG_HOW(arg);
    return first < r->nchunks && n >= 1 && n <= r->nchunks &&
           how >= DMPI_COLL_COPY && how <= DMPI_COLL_UNION;
}

static void post(struct run *r, uint32_t rank, struct dmpi_op *op)
{
    uint32_t i = new_req(r);
    struct req *q = &r->reqs[i];
    q->rank = rank, q->peer = op->peer, q->tag = op->tag;
    q->send = op->code == DMPI_ISEND;
    q->bytes = op->bytes, q->arg = op->arg;
    if (op->bytes == 0 || op->bytes > r->max_msg)
        r->bad_size++;
    if (op->arg && !arg_ok(r, op->arg)) {
        r->bad_arg++;
        q->arg = op->arg = 0;
    }
    list_push(&r->open[rank], i);
    if (q->send) {
        r->sent_msgs[rank]++;
        r->sent_bytes[rank] += op->bytes;
        if (q->arg) { /* snapshot the pieces sent */
            uint32_t first = DMPI_COLL_ARG_FIRST(q->arg);
            uint32_t n = DMPI_COLL_ARG_COUNT(q->arg);
            if (r->npayload + n > r->cappayload) {
                r->cappayload = 2 * (r->npayload + n);
                r->payload =
                    realloc(r->payload, r->cappayload * sizeof *r->payload);
            }
            q->payload = r->npayload;
            for (uint32_t k = 0; k < n; k++)
                r->payload[r->npayload++] =
                    r->have[rank][(first + k) % r->nchunks];
        }
        struct list *l = &r->urecv[q->peer];
        for (uint32_t k = 0; k < l->n; k++) {
            struct req *v = &r->reqs[l->v[k]];
            if (v->peer == rank && v->tag == q->tag) {
                link_reqs(r, i, l->v[k]);
                list_remove(l, k);
                return;
            }
        }
        list_push(&r->usend[q->peer], i);
    } else {
        /* SUM volume: the pieces of a split message add up at the last. */
        if (!op->arg)
            r->pending_sum[rank] += op->bytes;
        else {
            if (DMPI_COLL_ARG_HOW(op->arg) == DMPI_COLL_SUM)
                r->sum_bytes[rank] += r->pending_sum[rank] + op->bytes;
            r->pending_sum[rank] = 0;
        }
        struct list *l = &r->usend[rank];
        for (uint32_t k = 0; k < l->n; k++) {
            struct req *s = &r->reqs[l->v[k]];
            if (s->rank == q->peer && s->tag == q->tag) {
                link_reqs(r, l->v[k], i);
                list_remove(l, k);
                return;
            }
        }
        list_push(&r->urecv[rank], i);
    }
}

/* WAITALL: done if every open request is matched; then the received pieces
 * are applied in the order their receives were posted. */
static bool waitall(struct run *r, uint32_t rank)
{
    struct list *o = &r->open[rank];
    for (uint32_t k = 0; k < o->n; k++)
        if (!r->reqs[o->v[k]].matched)
            return false;
    for (uint32_t k = 0; k < o->n; k++) {
        struct req *v = &r->reqs[o->v[k]];
        if (v->send || !v->arg || v->arg != r->reqs[v->match].arg)
            continue;
        const uint64_t *pl = &r->payload[r->reqs[v->match].payload];
        uint32_t first = DMPI_COLL_ARG_FIRST(v->arg);
        uint32_t n = DMPI_COLL_ARG_COUNT(v->arg);
        for (uint32_t j = 0; j < n; j++) {
            uint64_t *h = &r->have[rank][(first + j) % r->nchunks];
            switch (DMPI_COLL_ARG_HOW(v->arg)) {
            case DMPI_COLL_SUM:
                if (*h & pl[j])
                    r->overlap++;
                *h |= pl[j];
                break;
            case DMPI_COLL_COPY:
                *h = pl[j];
                break;
            default:
                *h |= pl[j];
            }
        }
    }
    o->n = 0;
    return true;
}

/* Run rank `rank` until it blocks or ends; returns whether it moved. */
static bool step(struct run *r, uint32_t rank)
{
    bool moved = false;
    while (r->pc[rank] < r->nops[rank]) {
        struct dmpi_op *op = &r->ops[rank][r->pc[rank]];
        switch (op->code) {
        case DMPI_ISEND:
        case DMPI_IRECV:
            if (op->tag < DMPI_TAG_COLL || op->tag == DMPI_ANY)
                r->bad_tag++;
            if (op->peer >= r->p || op->peer == rank) {
                r->bad_peer++;
                break;
            }
            post(r, rank, op);
            break;
        case DMPI_WAITALL:
            if (!waitall(r, rank))
                return moved;
            break;
        case DMPI_COMPUTE:
            r->compute_ps[rank] += op->arg;
            break;
        default:
            r->bad_op++;
        }
        r->pc[rank]++;
        moved = true;
    }
    return moved;
}

/* Expand `op` for every rank (each program the concatenation of the
 * collectives in ops[0..nops), numbered seq0, seq0 + 1, ...) and run. */
static void run_ops(struct run *r, const struct dmpi_coll_params *prm,
                    const struct dmpi_op *cops, uint32_t ncops, uint32_t p,
                    uint32_t seq0)
{
    r->p = p;
    r->max_msg = prm->max_msg_bytes;
    for (uint32_t rank = 0; rank < p; rank++) {
        uint32_t total = 0;
        for (uint32_t c = 0; c < ncops; c++)
            total += dmpi_coll_expand(prm, &cops[c], rank, p, seq0 + c, NULL,
                                      0);
        r->ops[rank] = malloc((total + 1) * sizeof(struct dmpi_op));
        uint32_t at = 0;
        for (uint32_t c = 0; c < ncops; c++)
            at += dmpi_coll_expand(prm, &cops[c], rank, p, seq0 + c,
                                   r->ops[rank] + at, total - at);
        CHECK_EQ_U(at, total);
        r->nops[rank] = total;
    }
    for (bool moved = true; moved;) {
        moved = false;
        for (uint32_t rank = 0; rank < p; rank++)
            moved |= step(r, rank);
    }
}

static void run_free(struct run *r)
{
    for (uint32_t i = 0; i < MAXP; i++) {
        free(r->ops[i]);
        free(r->open[i].v);
        free(r->usend[i].v);
        free(r->urecv[i].v);
    }
    free(r->reqs);
    free(r->payload);
    free(r);
}

/* Every rank done, nothing open or unmatched, no malformed op. Returns
 * whether all of that held (so a failing case is reported once). */
static bool check_clean(struct run *r)
{
    int before = test_failures;
    uint32_t stuck = 0, open = 0, leftover = 0;
    for (uint32_t i = 0; i < r->p; i++) {
        stuck += r->pc[i] != r->nops[i];
        open += r->open[i].n;
        leftover += r->usend[i].n + r->urecv[i].n;
    }
    CHECK_EQ_U(stuck, 0);
    CHECK_EQ_U(open, 0);
    CHECK_EQ_U(leftover, 0);
    CHECK_EQ_U(r->bad_op, 0);
    CHECK_EQ_U(r->bad_tag, 0);
    CHECK_EQ_U(r->bad_peer, 0);
    CHECK_EQ_U(r->bad_size, 0);
    CHECK_EQ_U(r->size_mismatch, 0);
    CHECK_EQ_U(r->arg_mismatch, 0);
    CHECK_EQ_U(r->bad_arg, 0);
    CHECK_EQ_U(r->overlap, 0);
    return test_failures == before;
}

static uint32_t ceil_log2(uint32_t p)
{
    uint32_t k = 0;
    while ((1ull << k) < p)
        k++;
    return k;
}

static uint32_t floor_pof2(uint32_t p)
{
    uint32_t x = 1;
    while (x * 2 <= p)
        x *= 2;
    return x;
}

static uint64_t all_of(uint32_t p)
{
    return p == 64 ? UINT64_MAX : (1ull << p) - 1;
}

/* Pieces of a collective as coll.h numbers them. */
static uint32_t pieces(const char *algo, uint8_t code, uint32_t p)
{
    if (!strcmp(algo, "rabenseifner"))
        return floor_pof2(p);
    if (code == DMPI_ALLGATHER || !strncmp(algo, "scatter-", 8))
        return p;
    return 1;
}

static struct run *new_run(const char *algo, const struct dmpi_op *op,
                           uint32_t p)
{
    struct run *r = calloc(1, sizeof *r);
    r->nchunks = pieces(algo, op->code, p);
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t c = 0; c < r->nchunks; c++) {
            switch (op->code) {
            case DMPI_BCAST:
                r->have[i][c] = i == op->peer ? 1ull << i : 0;
                break;
            case DMPI_ALLGATHER:
                r->have[i][c] = c == i ? 1ull << i : 0;
                break;
            default:
                r->have[i][c] = 1ull << i;
            }
        }
    return r;
}

/* What the collective means, checked on the end state. */
static void check_result(const struct run *r, const struct dmpi_op *op,
                         const char *algo)
{
    uint32_t p = r->p;
    int before = test_failures;
    for (uint32_t i = 0; i < p; i++) {
        for (uint32_t c = 0; c < r->nchunks; c++) {
            uint64_t h = r->have[i][c];
            switch (op->code) {
            case DMPI_BARRIER:
            case DMPI_ALLREDUCE:
                CHECK_EQ_U(h, all_of(p));
                break;
            case DMPI_REDUCE:
                if (i == op->peer)
                    CHECK_EQ_U(h, all_of(p));
                break;
            case DMPI_BCAST: {
                /* pieces of ceil(bytes / p); empty ones carry nothing */
                uint64_t ss = (op->bytes + p - 1) / p;
                if (strncmp(algo, "scatter-", 8) || c * ss < op->bytes)
                    CHECK_EQ_U(h, 1ull << op->peer);
                break;
            }
            case DMPI_ALLGATHER:
                CHECK_EQ_U(h, 1ull << c);
                break;
            }
        }
        if (op->code == DMPI_ALLTOALL)
            for (uint32_t s = 0; s < p; s++)
                CHECK_EQ_U(r->recv_from[i][s], s == i ? 0 : op->bytes);
        if (test_failures != before)
            return; /* one rank's worth of messages is enough */
    }
}

/* The textbook volumes of each algorithm (messages not split). */
static void check_volume(const struct run *r, const struct dmpi_op *op,
                         const char *algo, const struct dmpi_coll_params *prm)
{
    uint32_t p = r->p, k = ceil_log2(p), pp = floor_pof2(p);
    uint64_t n = op->bytes, msgs = 0, bytes = 0;
    for (uint32_t i = 0; i < p; i++)
        msgs += r->sent_msgs[i], bytes += r->sent_bytes[i];
    if (!strcmp(algo, "dissemination")) {
        for (uint32_t i = 0; i < p; i++) {
            CHECK_EQ_U(r->sent_msgs[i], k);
            CHECK_EQ_U(r->sent_bytes[i], k * prm->barrier_bytes);
        }
    } else if (!strcmp(algo, "binomial")) {
        /* a tree: p - 1 messages of n bytes; the root sends (bcast) or
         * receives (reduce) ceil(log2 p) of them */
        CHECK_EQ_U(msgs, p - 1);
        CHECK_EQ_U(bytes, (p - 1) * n);
        if (op->code == DMPI_BCAST)
            CHECK_EQ_U(r->sent_msgs[op->peer], k);
        else
            CHECK_EQ_U(r->recv_msgs[op->peer], k);
    } else if (!strcmp(algo, "recursive-doubling") &&
               op->code == DMPI_ALLREDUCE) {
        uint32_t rem = p - pp, kk = ceil_log2(pp);
        for (uint32_t i = 0; i < p; i++) {
            uint64_t want = i >= 2 * rem ? kk : i % 2 ? kk + 1 : 1;
            CHECK_EQ_U(r->sent_msgs[i], want);
            CHECK_EQ_U(r->sent_bytes[i], want * n);
        }
    } else if (!strcmp(algo, "rabenseifner")) {
        /* reduce-scatter and allgather each move (p' - 1) n bytes in all
         * among the p' ranks, plus n per folded pair each way */
        uint32_t rem = p - pp;
        CHECK_EQ_U(bytes, 2 * (uint64_t)(pp - 1) * n + 2 * rem * n);
        if (rem == 0)
            for (uint32_t i = 0; i < p; i++) {
                CHECK_EQ_U(r->sent_msgs[i], 2 * k);
                CHECK_NEAR(r->sent_bytes[i], 2.0 * (p - 1) / p * (double)n,
                           (double)(p * prm->datatype_bytes));
            }
    } else if (op->code == DMPI_ALLGATHER) {
        uint64_t want_msgs = !strcmp(algo, "ring") ? p - 1 : k;
        for (uint32_t i = 0; i < p; i++) {
            CHECK_EQ_U(r->sent_msgs[i], want_msgs);
            CHECK_EQ_U(r->sent_bytes[i], (p - 1) * n);
        }
    } else if (op->code == DMPI_ALLTOALL) {
        for (uint32_t i = 0; i < p; i++) {
            CHECK_EQ_U(r->sent_msgs[i], p - 1);
            CHECK_EQ_U(r->sent_bytes[i], (p - 1) * n);
        }
    } else if (!strncmp(algo, "scatter-", 8)) {
        /* the root's scatter sends everything but its own piece; the
         * allgather makes log2 p (p - 1 on a ring) exchanges per rank */
        uint64_t ss = (n + p - 1) / p;
        uint32_t ag = !strcmp(algo, "scatter-ring") ? p - 1 : k;
        CHECK(r->sent_msgs[op->peer] >= ag);
        CHECK(r->sent_msgs[op->peer] - ag <= k);
        CHECK(r->sent_bytes[op->peer] >= n - (ss < n ? ss : n));
        for (uint32_t i = 0; i < p; i++)
            if (i != op->peer)
                CHECK(r->sent_msgs[i] >= ag);
    } else {
        CHECK(!"no volume rule for this algorithm");
    }
    /* reductions compute over exactly what they receive to combine */
    for (uint32_t i = 0; i < p; i++)
        CHECK_EQ_U(r->compute_ps[i],
                   prm->reduce_ps_per_byte * r->sum_bytes[i]);
    if (op->code == DMPI_REDUCE || op->code == DMPI_ALLREDUCE) {
        uint64_t s = 0;
        for (uint32_t i = 0; i < p; i++)
            s += r->sum_bytes[i];
        CHECK(s > 0);
    }
}

static const uint32_t ps[] = { 1, 2, 3, 4, 5, 6, 7, 8, 13, 16, 31, 32, 64 };
static const uint64_t sizes[] = { 1,     7,      8,      1000,    2048,
                                  2049,  4096,   12287,  12288,   32768,
                                  32769, 65536,  81920,  524287,  524288,
                                  1u << 20 };

static const uint8_t codes[] = { DMPI_BARRIER,   DMPI_BCAST,
                                 DMPI_REDUCE,    DMPI_ALLREDUCE,
                                 DMPI_ALLGATHER, DMPI_ALLTOALL };

/* One case: run, then check cleanliness, meaning and volumes. */
static void run_case(const struct dmpi_coll_params *prm, uint8_t code,
                     uint32_t p, uint64_t bytes, uint32_t root, bool volumes,
                     int *fails)
{
    struct dmpi_op op = { .code = code, .peer = root, .bytes = bytes };
    const char *algo = dmpi_coll_algorithm(prm, &op, p);
    struct run *r = new_run(algo, &op, p);
    int before = test_failures;
    run_ops(r, prm, &op, 1, p, 7);
    if (check_clean(r)) {
        if (!strcmp(algo, "none")) {
            for (uint32_t i = 0; i < p; i++)
                CHECK_EQ_U(r->nops[i], 0);
        } else {
            check_result(r, &op, algo);
            if (volumes)
                check_volume(r, &op, algo, prm);
        }
    }
    if (test_failures != before && (*fails)++ < 5)
        fprintf(stderr, "  ^ code %u p %u bytes %llu root %u algo %s\n",
                code, p, (unsigned long long)bytes, root, algo);
    run_free(r);
}

static void test_coll_all_cases(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    int fails = 0;
    for (size_t c = 0; c < sizeof codes; c++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                uint32_t p = ps[i];
                if (codes[c] == DMPI_BARRIER && s > 0)
                    continue; /* size does not matter */
                uint32_t root = (codes[c] == DMPI_BCAST ||
                                 codes[c] == DMPI_REDUCE)
                                    ? (uint32_t)(s * 5 % p)
                                    : 0;
                run_case(&prm, codes[c], p, sizes[s], root, true, &fails);
            }
}

/* Odd thresholds and every root: each algorithm reached with roots other
 * than 0, non-power-of-two p, and pieces smaller than a byte. */
static void test_coll_roots_and_tiny_pieces(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    prm.bcast_short_msg_size = 1;
    prm.bcast_min_procs = 2;
    prm.allreduce_short_msg_size = 0;
    prm.datatype_bytes = 1;
    int fails = 0;
    const uint32_t pp[] = { 2, 3, 5, 8, 12, 16 };
    const uint64_t bb[] = { 1, 3, 17, 100, 4097 };
    for (size_t i = 0; i < sizeof pp / sizeof pp[0]; i++)
        for (size_t s = 0; s < sizeof bb / sizeof bb[0]; s++)
            for (uint32_t root = 0; root < pp[i]; root++) {
                run_case(&prm, DMPI_BCAST, pp[i], bb[s], root, true, &fails);
                run_case(&prm, DMPI_REDUCE, pp[i], bb[s], root, true,
                         &fails);
            }
    /* bcast long: ring even for a power of two */
    prm.bcast_long_msg_size = 2;
    for (size_t i = 0; i < sizeof pp / sizeof pp[0]; i++)
        for (size_t s = 0; s < sizeof bb / sizeof bb[0]; s++)
            run_case(&prm, DMPI_BCAST, pp[i], bb[s], pp[i] - 1, true, &fails);
    /* Rabenseifner with counts just at p' (pieces of one element, the last
     * partial) */
    for (uint32_t p = 2; p <= 33; p++)
        for (uint64_t b = floor_pof2(p); b < floor_pof2(p) + 3; b++)
            run_case(&prm, DMPI_ALLREDUCE, p, b, 0, true, &fails);
    /* scattered alltoall without throttle, and with a throttle of 3 */
    prm.alltoall_throttle = 0;
    run_case(&prm, DMPI_ALLTOALL, 13, 100, 0, true, &fails);
    prm.alltoall_throttle = 3;
    for (uint32_t p = 2; p <= 13; p++)
        run_case(&prm, DMPI_ALLTOALL, p, 100, 0, true, &fails);
}

/* Messages above max_msg_bytes go as several, still matching. */
static void test_coll_split_messages(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    prm.max_msg_bytes = 1000;
    int fails = 0;
    for (size_t c = 0; c < sizeof codes; c++)
        for (uint32_t p = 2; p <= 9; p += 7)
            for (uint64_t b = 999; b <= 100000; b = b * 9 + 1)
                run_case(&prm, codes[c], p, b, p / 2, false, &fails);
    /* a 1 MiB allreduce on 2 ranks with 64 KiB messages: each half is 8 */
    prm.max_msg_bytes = 65536;
    struct dmpi_op op = { .code = DMPI_ALLREDUCE, .bytes = 1u << 20 };
    struct dmpi_op out[64];
    uint32_t n = dmpi_coll_expand(&prm, &op, 0, 2, 0, out, 64);
    uint32_t sends = 0;
    for (uint32_t i = 0; i < n && i < 64; i++)
        sends += out[i].code == DMPI_ISEND;
    CHECK_EQ_U(sends, 16);
    CHECK(n <= 64);
}

static void test_coll_algorithm_thresholds(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
#define ALGO(code_, p_, bytes_)                                              \
    dmpi_coll_algorithm(&prm,                                                \
                        &(struct dmpi_op){ .code = (code_),                  \
                                           .bytes = (bytes_) },              \
                        (p_))
    CHECK(!strcmp(ALGO(DMPI_BARRIER, 5, 0), "dissemination"));
    CHECK(!strcmp(ALGO(DMPI_BARRIER, 1, 0), "none"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 1, 8), "none"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 4, 0), "none"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 4, 2048), "recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 4, 2049), "rabenseifner"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 1024, 8184), "recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 1024, 8185), "rabenseifner"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 64, 12287), "binomial"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 64, 12288), "scatter-recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 7, 1u << 20), "binomial"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 8, 12288), "scatter-recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 12, 12288), "scatter-ring"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 16, 524287), "scatter-recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_BCAST, 16, 524288), "scatter-ring"));
    CHECK(!strcmp(ALGO(DMPI_REDUCE, 16, 1u << 20), "binomial"));
    CHECK(!strcmp(ALGO(DMPI_ALLGATHER, 16, 32767), "recursive-doubling"));
    CHECK(!strcmp(ALGO(DMPI_ALLGATHER, 16, 32768), "ring"));
    CHECK(!strcmp(ALGO(DMPI_ALLGATHER, 5, 16383), "bruck"));
    CHECK(!strcmp(ALGO(DMPI_ALLGATHER, 5, 16384), "ring"));
    CHECK(!strcmp(ALGO(DMPI_ALLTOALL, 5, 32768), "scattered"));
    CHECK(!strcmp(ALGO(DMPI_ALLTOALL, 5, 32769), "pairwise"));
    prm.allreduce_short_msg_size = 100;
    CHECK(!strcmp(ALGO(DMPI_ALLREDUCE, 4, 101), "rabenseifner"));
    prm.bcast_min_procs = 100;
    CHECK(!strcmp(ALGO(DMPI_BCAST, 64, 1u << 20), "binomial"));
#undef ALGO
}

/* The rounds of the textbook algorithms, rank by rank. */
static void test_coll_partners(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    struct dmpi_op out[256];
    /* pairwise on 8 ranks: round k with 5 ^ k, receive posted first */
    struct dmpi_op a2a = { .code = DMPI_ALLTOALL, .bytes = 1u << 20 };
    uint32_t n = dmpi_coll_expand(&prm, &a2a, 5, 8, 0, out, 256);
    CHECK_EQ_U(n, 7 * 3);
    for (uint32_t k = 1; k < 8 && n == 21; k++) {
        const struct dmpi_op *o = &out[(k - 1) * 3];
        CHECK_EQ_U(o[0].code, DMPI_IRECV);
        CHECK_EQ_U(o[1].code, DMPI_ISEND);
        CHECK_EQ_U(o[2].code, DMPI_WAITALL);
        CHECK_EQ_U(o[0].peer, 5 ^ k);
        CHECK_EQ_U(o[1].peer, 5 ^ k);
        CHECK_EQ_U(o[1].bytes, 1u << 20);
    }
    /* pairwise on 6 ranks: send to r + k, receive from r - k */
    n = dmpi_coll_expand(&prm, &a2a, 1, 6, 0, out, 256);
    CHECK_EQ_U(n, 5 * 3);
    for (uint32_t k = 1; k < 6 && n == 15; k++) {
        CHECK_EQ_U(out[(k - 1) * 3].peer, (1 + 6 - k) % 6);
        CHECK_EQ_U(out[(k - 1) * 3 + 1].peer, (1 + k) % 6);
    }
    /* dissemination on 13 ranks: 4 rounds, to r + 2^k */
    struct dmpi_op bar = { .code = DMPI_BARRIER };
    n = dmpi_coll_expand(&prm, &bar, 11, 13, 0, out, 256);
    CHECK_EQ_U(n, 4 * 3);
    for (uint32_t k = 0; k < 4 && n == 12; k++) {
        CHECK_EQ_U(out[k * 3].peer, (11 + 13 - (1u << k)) % 13);
        CHECK_EQ_U(out[k * 3 + 1].peer, (11 + (1u << k)) % 13);
        CHECK_EQ_U(out[k * 3 + 1].bytes, 8);
    }
    /* recursive-doubling allreduce on 6: rank 0 folds into 1 and waits;
     * rank 1 combines then exchanges with new ranks 1, 2 = real 3, 4 */
    struct dmpi_op ar = { .code = DMPI_ALLREDUCE, .bytes = 8 };
    n = dmpi_coll_expand(&prm, &ar, 0, 6, 0, out, 256);
    CHECK_EQ_U(n, 4);
    CHECK_EQ_U(out[0].code, DMPI_ISEND);
    CHECK_EQ_U(out[0].peer, 1);
    CHECK_EQ_U(out[2].code, DMPI_IRECV);
    CHECK_EQ_U(out[2].peer, 1);
    n = dmpi_coll_expand(&prm, &ar, 1, 6, 0, out, 256);
    /* recv+wait+compute, 2 x (recv, send, wait, compute), send+wait */
    CHECK_EQ_U(n, 3 + 2 * 4 + 2);
    if (n == 13) {
        CHECK_EQ_U(out[0].peer, 0);
        CHECK_EQ_U(out[2].code, DMPI_COMPUTE);
        CHECK_EQ_U(out[2].arg, 8 * prm.reduce_ps_per_byte);
        CHECK_EQ_U(out[3].peer, 3);
        CHECK_EQ_U(out[7].peer, 4);
        CHECK_EQ_U(out[11].peer, 0);
        CHECK_EQ_U(out[11].code, DMPI_ISEND);
    }
}

static void test_coll_tags_and_cap(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    struct dmpi_op op = { .code = DMPI_ALLREDUCE, .bytes = 1u << 16 };
    struct dmpi_op full[512], part[512];
    const uint32_t seqs[] = { 0, 1, 2, 0x3fffffff, 0x40000000, UINT32_MAX };
    uint32_t tags[6];
    for (int i = 0; i < 6; i++) {
        uint32_t n = dmpi_coll_expand(&prm, &op, 3, 13, seqs[i], full, 512);
        CHECK(n > 0 && n <= 512);
        tags[i] = full[0].tag;
        for (uint32_t k = 0; k < n && k < 512; k++)
            if (full[k].code == DMPI_ISEND || full[k].code == DMPI_IRECV) {
                CHECK(full[k].tag >= DMPI_TAG_COLL);
                CHECK(full[k].tag != DMPI_ANY);
                CHECK_EQ_U(full[k].tag, tags[i]);
            }
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            CHECK(tags[i] != tags[j]);
    /* consecutive seqs differ across the 2^30 wrap; the period is 2^30 */
    CHECK(tags[3] != tags[4]);
    CHECK(tags[5] != tags[0]);
    CHECK_EQ_U(tags[4], tags[0]);

    /* the cap protocol, for every collective */
    for (size_t c = 0; c < sizeof codes; c++) {
        struct dmpi_op o = { .code = codes[c], .bytes = 5000, .peer = 2 };
        uint32_t need = dmpi_coll_expand(&prm, &o, 1, 13, 4, NULL, 0);
        CHECK(need > 0 && need < 500);
        uint32_t got = dmpi_coll_expand(&prm, &o, 1, 13, 4, full, 512);
        CHECK_EQ_U(got, need);
        for (uint32_t cap = 0; cap < need; cap += 3) {
            memset(part, 0xab, sizeof part);
            CHECK_EQ_U(dmpi_coll_expand(&prm, &o, 1, 13, 4, part, cap), need);
            CHECK(!memcmp(part, full, cap * sizeof *part));
            CHECK_EQ_U(((unsigned char *)&part[cap])[0], 0xab);
        }
        memset(part, 0xab, sizeof part);
        CHECK_EQ_U(dmpi_coll_expand(&prm, &o, 1, 13, 4, part, need), need);
        CHECK(!memcmp(part, full, need * sizeof *part));
        CHECK_EQ_U(((unsigned char *)&part[need])[0], 0xab);
    }
    /* one rank: nothing at all */
    for (size_t c = 0; c < sizeof codes; c++) {
        struct dmpi_op o = { .code = codes[c], .bytes = 5000 };
        CHECK_EQ_U(dmpi_coll_expand(&prm, &o, 0, 1, 0, full, 512), 0);
    }
}

/* Several collectives back to back in one program, different seqs: they
 * all finish and every message finds its receive with the right size. */
static void test_coll_sequence(void)
{
    struct dmpi_coll_params prm;
    dmpi_coll_defaults(&prm);
    const struct dmpi_op seq[] = {
        { .code = DMPI_BCAST, .peer = 3, .bytes = 100 },
        { .code = DMPI_BCAST, .peer = 9, .bytes = 200 },
        { .code = DMPI_ALLREDUCE, .bytes = 8 },
        { .code = DMPI_REDUCE, .peer = 4, .bytes = 1u << 16 },
        { .code = DMPI_ALLTOALL, .bytes = 4096 },
        { .code = DMPI_BARRIER },
        { .code = DMPI_ALLGATHER, .bytes = 70000 },
        { .code = DMPI_BCAST, .peer = 0, .bytes = 1u << 20 },
    };
    const uint32_t pp[] = { 10, 13, 16 };
    for (int i = 0; i < 3; i++) {
        struct run *r = calloc(1, sizeof *r);
        r->nchunks = MAXC;
        run_ops(r, &prm, seq, sizeof seq / sizeof seq[0], pp[i], 100);
        check_clean(r);
        run_free(r);
    }
}

const struct test_case tests_coll[] = {
    TEST(test_coll_algorithm_thresholds),
    TEST(test_coll_partners),
    TEST(test_coll_tags_and_cap),
    TEST(test_coll_all_cases),
    TEST(test_coll_roots_and_tiny_pieces),
    TEST(test_coll_split_messages),
    TEST(test_coll_sequence),
    { 0 },
};
