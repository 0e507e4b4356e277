/* exp/par.c — an experiment's independent runs dealt over MPI ranks
 * (exp/par.h). A unit's output travels as one message to rank 0: status
 * (int32), number of texts (uint32), their lengths (uint64 each), then
 * the texts. Sends do not wait for rank 0 (MPI_Isend): the sender goes
 * on with its next unit and keeps the buffer until the send completes. */
#include "exp/par.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 17 };

static int rank_, size_ = 1;
static bool on_;
/* Split runs (par_set_split): the ranks in groups of P_ consecutive
 * ones, each group running its units together, one partition a rank, on
 * its own communicator; P_ 1: every rank alone */
static int P_ = 1;
static MPI_Comm group_ = MPI_COMM_NULL;

/* sends not yet known to be complete */
static MPI_Request *req_;
static char **req_buf_;
static size_t n_req_, cap_req_;

/* Started by a process manager: Open MPI's mpirun (OMPI_COMM_WORLD_SIZE),
 * or a PMI/PMIx one (MPICH's hydra, Slurm's srun). */
static bool launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") ||
           getenv("PMIX_RANK");
}

int par_start(void)
{
    if (on_ || !launched())
        return 0;
    /* the units' messages are small; Open MPI's single-copy transfer
     * between processes (CMA) is refused in many containers, where it
     * aborts the job: plain copies unless the user chose otherwise */
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        fprintf(stderr, "dfsim run: MPI_Init failed\n");
        return -1;
    }
    on_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (rank_ != 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "dfsim run: rank %d: cannot silence its output\n",
                rank_);
        return -1;
    }
    return 0;
}

/* Free the buffers of completed sends; with `all`, wait for every one. */
static void reap(bool all)
{
    size_t k = 0;
    for (size_t i = 0; i < n_req_; i++) {
        int done = 0;
        if (all)
            MPI_Wait(&req_[i], MPI_STATUS_IGNORE), done = 1;
        else
            MPI_Test(&req_[i], &done, MPI_STATUS_IGNORE);
        if (done) {
            free(req_buf_[i]);
        } else {
            req_[k] = req_[i];
            req_buf_[k++] = req_buf_[i];
        }
    }
    n_req_ = k;
}

void par_stop(void)
{
    if (!on_)
        return;
    reap(true);
    free(req_);
    free(req_buf_);
    req_ = NULL;
    req_buf_ = NULL;
    n_req_ = cap_req_ = 0;
    fflush(stdout);
    MPI_Finalize();
    on_ = false;
    rank_ = 0;
    size_ = 1;
}

int par_rank(void)
{
    return rank_;
}

int par_size(void)
{
    return size_;
}

int par_agree(int rc)
{
    if (!on_)
        return rc;
    int all[2] = { rank_ == 0 ? rc : 0, rc != 0 ? rank_ : size_ };
    int r0 = all[0];
    MPI_Bcast(&r0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (r0 != 0)
        return r0;
    int first;
    MPI_Allreduce(&all[1], &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size_)
        return 0;
    int v = rc;
    MPI_Bcast(&v, 1, MPI_INT, first, MPI_COMM_WORLD);
    return v;
}

const char *par_where(void)
{
    static char buf[32];
    if (size_ <= 1)
        return "";
    snprintf(buf, sizeof buf, " on rank %d", rank_);
    return buf;
}

long par_bcast(long v)
{
    if (on_)
        MPI_Bcast(&v, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    return v;
}

void par_unit_free(struct par_unit *u)
{
    for (uint32_t i = 0; i < u->n; i++)
        free(u->part[i]);
    memset(u, 0, sizeof *u);
}

/* A unit that cannot travel whole: rank 0 is still told it failed (an
 * 8-byte message goes at once), so that it does not wait for it. */
static int send_failed(struct par_unit *u)
{
    par_unit_free(u);
    int32_t head[2] = { -1, 0 };
    MPI_Send(head, (int)sizeof head, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
    return -1;
}

/* Rank 0 lost a unit's output (no memory for it, or a message it cannot
 * read): the ranks cannot finish the experiment, so all stop. */
static void give_up(const char *why, int from)
{
    fprintf(stderr, "dfsim run: %s (from rank %d); stopping every rank "
                    "(MPI_Abort)\n", why, from);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* not reached */
}

int par_send(struct par_unit *u)
{
    size_t head = 8 + 8 * (size_t)u->n, size = head;
    for (uint32_t i = 0; i < u->n; i++)
        size += u->len[i];
    if (size > (size_t)0x7fffffff) {
        fprintf(stderr, "dfsim run: rank %d: a unit's output of %zu bytes is "
                        "more than one MPI message carries (2 GiB)\n",
                rank_, size);
        return send_failed(u);
    }
    char *buf = malloc(size);
    if (buf && n_req_ == cap_req_) {
        size_t cap = cap_req_ ? 2 * cap_req_ : 16;
        MPI_Request *r = realloc(req_, cap * sizeof *r);
        if (r)
            req_ = r;
        char **b = r ? realloc(req_buf_, cap * sizeof *b) : NULL;
        if (b) {
            req_buf_ = b;
            cap_req_ = cap;
        }
    }
    if (!buf || n_req_ == cap_req_) {
        fprintf(stderr, "dfsim run: rank %d: out of memory\n", rank_);
        free(buf);
        return send_failed(u);
    }
    int32_t status = u->status;
    uint32_t n = u->n;
    memcpy(buf, &status, 4);
    memcpy(buf + 4, &n, 4);
    size_t at = head;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t len = u->len[i];
        memcpy(buf + 8 + 8 * i, &len, 8);
        if (len)
            memcpy(buf + at, u->part[i], len);
        at += len;
    }
    par_unit_free(u);
    MPI_Isend(buf, (int)size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD,
              &req_[n_req_]);
    req_buf_[n_req_++] = buf;
    reap(false);
    return 0;
}

int par_recv(int from, bool wait, struct par_unit *u)
{
    MPI_Status st;
    if (wait) {
        MPI_Probe(from, TAG, MPI_COMM_WORLD, &st);
    } else {
        int flag = 0;
        MPI_Iprobe(from, TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return 0;
    }
    int size = 0;
    MPI_Get_count(&st, MPI_BYTE, &size);
    char *buf = malloc(size > 0 ? (size_t)size : 1);
    if (!buf)
        give_up("out of memory for a unit's results", from);
    MPI_Recv(buf, size, MPI_BYTE, from, TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    memset(u, 0, sizeof *u);
    int32_t status;
    uint32_t n;
    bool ok = size >= 8;
    if (ok) {
        memcpy(&status, buf, 4);
        memcpy(&n, buf + 4, 4);
        ok = n <= PAR_PARTS && (size_t)size >= 8 + 8 * (size_t)n;
    }
    size_t at = ok ? 8 + 8 * (size_t)n : 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        uint64_t len;
        memcpy(&len, buf + 8 + 8 * i, 8);
        ok = len <= (size_t)size - at;
        char *p = ok ? malloc(len + 1) : NULL;
        if (ok && !p)
            give_up("out of memory for a unit's results", from);
        if (!ok)
            break;
        memcpy(p, buf + at, len);
        p[len] = '\0';
        u->part[i] = p;
        u->len[i] = len;
        u->n = i + 1;
        at += len;
    }
    free(buf);
    if (!ok)
        give_up("a malformed message (a bug)", from);
    u->status = status;
    return 1;
}

/* Rank 0's side of par_deal: held[u - first] are its own units run and
 * not yet committed (ran[u - first] says which). */
struct deal {
    uint32_t first, total, next; /* next: the next unit to commit */
    int status;                  /* the first unit's status that was not 0 */
    struct par_unit *held;
    bool *ran;
    par_commit_fn *commit;
    void *ctx;
};

static void commit_one(struct deal *dl, uint32_t u, struct par_unit *in)
{
    if (dl->status == 0) {
        dl->status = dl->commit(dl->ctx, u, in);
    }
    par_unit_free(in);
    dl->next++;
}

/* Commit units in order while they are here (with wait: until the end,
 * waiting for the other ranks'). */
static void commit_ready(struct deal *dl, bool wait)
{
    while (dl->next < dl->total) {
        uint32_t u = dl->next;
        int from = par_owner(u, dl->first, size_ / P_) * P_;
        if (from == 0) {
            if (!dl->ran[u - dl->first]) {
                if (!wait)
                    return;
                /* rank 0 stopped before it: not run */
                dl->held[u - dl->first].status = PAR_NOT_RUN;
            }
            commit_one(dl, u, &dl->held[u - dl->first]);
            continue;
        }
        struct par_unit in;
        if (par_recv(from, wait, &in) == 0)
            return;
        commit_one(dl, u, &in);
    }
}

int par_set_split(uint32_t parts)
{
    if (group_ != MPI_COMM_NULL)
        MPI_Comm_free(&group_);
    P_ = 1;
    if (!on_ || parts <= 1)
        return 0;
    if (size_ % (int)parts != 0)
        return -1;
    P_ = (int)parts;
    MPI_Comm_split(MPI_COMM_WORLD, rank_ / P_, rank_ % P_, &group_);
    return 0;
}

bool par_split(void) { return P_ > 1; }

int par_group_size(void) { return P_; }

int par_group_rank(void) { return rank_ % P_; }

int par_groups(void) { return size_ / P_; }

void *par_group_comm(void) { return &group_; }

/* The first rank's rc of a group if not 0, else its first other rank's
 * that is not 0, else 0 (par_agree over the group). */
static int group_agree(int rc)
{
    if (P_ <= 1)
        return rc;
    int me = rank_ % P_;
    int r0 = me == 0 ? rc : 0;
    MPI_Bcast(&r0, 1, MPI_INT, 0, group_);
    if (r0 != 0)
        return r0;
    int mine = rc != 0 ? me : P_, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, group_);
    if (first == P_)
        return 0;
    int v = rc;
    MPI_Bcast(&v, 1, MPI_INT, first, group_);
    return v;
}

/* Every rank but rank 0: its group's units, run with the group; a
 * group's leader (its first rank, not rank 0) sends each unit's output
 * to rank 0, the others drop theirs (the same: a split run's results are
 * merged on every rank of its group). */
static int deal_member(uint32_t first, uint32_t total, par_run_fn *run,
                       void *ctx)
{
    int status = 0, G = size_ / P_, g = rank_ / P_;
    bool leader = rank_ % P_ == 0;
    for (uint32_t u = first; u < total; u++) {
        if (par_owner(u, first, G) != g)
            continue;
        struct par_unit out = { .status = PAR_NOT_RUN };
        if (status == 0) {
            out.status = run(ctx, u, &out);
            status = group_agree(out.status);
            out.status = status;
        }
        if (leader && par_send(&out) != 0 && status == 0)
            status = -1;
        if (!leader)
            par_unit_free(&out);
    }
    return status;
}

int par_deal(uint32_t first, uint32_t total, par_run_fn *run,
             par_commit_fn *commit, void *ctx)
{
    int status = 0;
    /* units are dealt over the groups (of one rank each unless split);
     * a group's first rank is its leader, rank 0 leads group 0 */
    int G = size_ / P_;
    if (rank_ != 0)
        return deal_member(first, total, run, ctx);
    struct deal dl = { .first = first, .total = total, .next = first,
                       .commit = commit, .ctx = ctx };
    uint32_t n = total > first ? total - first : 0;
    dl.held = calloc(n ? n : 1, sizeof *dl.held);
    dl.ran = calloc(n ? n : 1, sizeof *dl.ran);
    if (!dl.held || !dl.ran) {
        if (on_) /* the other ranks' results would never be taken */
            give_up("out of memory for the units' results", 0);
        fprintf(stderr, "dfsim run: out of memory\n");
        free(dl.held);
        free(dl.ran);
        return -1;
    }
    for (uint32_t u = first; u < total; u++) {
        if (par_owner(u, first, G) != 0)
            continue;
        if (status != 0)
            break;
        struct par_unit *out = &dl.held[u - first];
        out->status = run(ctx, u, out);
        dl.ran[u - first] = true;
        commit_ready(&dl, false);
        /* with its group: on only if the unit and what was committed so
         * far went well (the others in the group stop with rank 0) */
        status = group_agree(out->status != 0 ? out->status : dl.status);
    }
    commit_ready(&dl, true);
    for (uint32_t i = 0; i < n; i++)
        par_unit_free(&dl.held[i]);
    free(dl.held);
    free(dl.ran);
    return dl.status;
}
