/* exp/impact_branch.c — see impact_branch.h. */
#include "exp/impact_branch.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/sim.h"

/* A child's file: this tag, its status, the number of texts, each as
 * its length and bytes, then the progress line likewise. */
static const char tag[8] = { 'd', 'f', 's', 'i', 'm', 'b', 'r', '1' };

int impact_branch_init(struct impact_branch *b, uint32_t cap)
{
    *b = (struct impact_branch){ .me = -1, .cap = cap };
    b->child = calloc(cap ? cap : 1, sizeof *b->child);
    return b->child ? 0 : -1;
}

static int find(const struct impact_branch *b, uint32_t u)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (b->child[i].unit == u)
            return (int)i;
    return -1;
}

int impact_branch_has(const struct impact_branch *b, uint32_t u)
{
    return find(b, u) >= 0;
}

int impact_branch_fork(struct impact_branch *b, const uint32_t *units,
                       uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (b->n == b->cap || find(b, units[k]) >= 0)
            continue; /* simulated as usual */
        struct impact_child *c = &b->child[b->n];
        *c = (struct impact_child){ .unit = units[k] };
        c->out = tmpfile();
        if (!c->out) {
            fprintf(stderr, "  impact: no temporary file for simulation "
                            "%u's branch (%s): simulated from the start\n",
                    units[k] + 1, strerror(errno));
            continue;
        }
        fflush(NULL); /* nothing buffered is written twice */
        pid_t pid = fork();
        if (pid == 0) {
            b->me = (int)b->n;
            return (int)k;
        }
        if (pid < 0) {
            fprintf(stderr, "  impact: cannot fork simulation %u's branch "
                            "(%s): simulated from the start\n",
                    units[k] + 1, strerror(errno));
            fclose(c->out);
            continue;
        }
        c->pid = pid;
        b->n++;
    }
    return -1;
}

static int put(FILE *f, const void *p, size_t len)
{
    uint64_t n = len;
    return fwrite(&n, sizeof n, 1, f) == 1 &&
                   (len == 0 || fwrite(p, 1, len, f) == len)
               ? 0
               : -1;
}

void impact_branch_exit(struct impact_branch *b, int status,
                        const struct par_unit *res, const char *log,
                        size_t log_len)
{
    FILE *f = b->child[b->me].out;
    int32_t st = status;
    uint32_t n = res->n;
    int bad = fwrite(tag, sizeof tag, 1, f) != 1 ||
              fwrite(&st, sizeof st, 1, f) != 1 ||
              fwrite(&n, sizeof n, 1, f) != 1;
    for (uint32_t i = 0; !bad && i < n; i++)
        bad = put(f, res->part[i], res->len[i]) != 0;
    bad = bad || put(f, log, log_len) != 0 || fflush(f) != 0;
    _exit(bad ? 1 : 0);
}

/* A text of the file: its length and bytes into *p (malloc'd, with a
 * NUL after them); 0 or -1. */
static int get(FILE *f, char **p, size_t *len)
{
    uint64_t n;
    *p = NULL;
    if (fread(&n, sizeof n, 1, f) != 1 || n > ((uint64_t)1 << 40))
        return -1;
    *p = malloc((size_t)n + 1);
    if (!*p || (n && fread(*p, 1, (size_t)n, f) != (size_t)n))
        return -1;
    (*p)[n] = '\0';
    *len = (size_t)n;
    return 0;
}

static int read_result(FILE *f, int *status, struct par_unit *res,
                       char **log, size_t *log_len)
{
    char t[sizeof tag];
    int32_t st;
    uint32_t n;
    if (fseek(f, 0, SEEK_SET) != 0 || fread(t, sizeof t, 1, f) != 1 ||
        memcmp(t, tag, sizeof tag) != 0 || fread(&st, sizeof st, 1, f) != 1 ||
        fread(&n, sizeof n, 1, f) != 1 || n > PAR_PARTS)
        return -1;
    res->n = n;
    for (uint32_t i = 0; i < n; i++)
        if (get(f, &res->part[i], &res->len[i]) != 0)
            return -1;
    *status = st;
    return get(f, log, log_len);
}

int impact_branch_take(struct impact_branch *b, uint32_t u, int *status,
                       struct par_unit *res, FILE *log)
{
    int i = find(b, u);
    if (i < 0)
        return 0;
    struct impact_child c = b->child[i];
    b->child[i] = b->child[--b->n];
    int ws = 0;
    pid_t w;
    bool told = false;
    /* interrupted while the child runs (a signal to this process
     * alone): the child is told to stop too, and its unit comes back
     * interrupted */
    while ((w = waitpid(c.pid, &ws, 0)) < 0 && errno == EINTR)
        if (sim_interrupt && !told) {
            kill(c.pid, SIGTERM);
            told = true;
        }
    char *text = NULL;
    size_t len = 0;
    int rc = -1;
    if (w == c.pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
        read_result(c.out, status, res, &text, &len) == 0) {
        fwrite(text, 1, len, log);
        b->taken += *status == 0;
        rc = 1;
    } else {
        par_unit_free(res);
        fprintf(stderr, "  impact: the branch of simulation %u %s: "
                        "simulated from the start\n", u + 1,
                w != c.pid                ? "was lost"
                : WIFSIGNALED(ws)         ? "was killed"
                : WIFEXITED(ws) && WEXITSTATUS(ws) == 0
                    ? "left an unreadable result"
                    : "failed");
    }
    free(text);
    fclose(c.out);
    return rc;
}

void impact_branch_free(struct impact_branch *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        kill(b->child[i].pid, SIGTERM);
        while (waitpid(b->child[i].pid, NULL, 0) < 0 && errno == EINTR)
            ;
        fclose(b->child[i].out);
    }
    free(b->child);
    *b = (struct impact_branch){ .me = -1, .taken = b->taken };
}
