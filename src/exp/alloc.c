/* exp/alloc.c — placing jobs on nodes; the model is in alloc.h, each
 * policy in its own file (alloc_internal.h lists them). Here: the
 * registry, requests, the helpers the policies share, and alloc_place,
 * which checks every request, then places them in order by their
 * policies' `place`, then by their `place_late`.
 */
#include "exp/alloc_internal.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/steps.h"

static const struct reg_entry *const policy_entries[] = {
#define ALLOC_POLICY(x) &alloc_##x.base,
#include "exp/alloc_policies.def"
#undef ALLOC_POLICY
};

const struct registry allocation_registry = {
    .kind = "allocation",
    .help = "allocation policies (linear, interleaved, random, list, pair, "
            "fragmented, same)",
    .entries = policy_entries,
    .n = sizeof policy_entries / sizeof policy_entries[0],
};

void alloc_params_defaults(const struct alloc_policy *p, void *block)
{
    assert(p->params_size <= ALLOC_PARAMS_MAX);
    memset(block, 0, ALLOC_PARAMS_MAX);
    if (p->defaults)
        memcpy(block, p->defaults, p->params_size);
}

void alloc_request_init(struct alloc_request *r)
{
    memset(r, 0, sizeof *r);
    r->policy = &alloc_linear;
    r->ppn = 1;
}

void alloc_free(uint32_t **out, uint32_t n)
{
    for (uint32_t j = 0; out && j < n; j++) {
        free(out[j]);
        out[j] = NULL;
    }
}

/* ---- what the policies share -------------------------------------------- */

void alloc_job_name(const struct alloc_state *p, uint32_t j, char *buf,
                    size_t cap)
{
    if (p->req[j].job)
        snprintf(buf, cap, "\"%s\"", p->req[j].job);
    else
        snprintf(buf, cap, "#%u", j);
}

void alloc_job_error(struct alloc_state *p, uint32_t j, const char *fmt, ...)
{
    char name[128], msg[768];
    alloc_job_name(p, j, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(p->d, p->req[j].file, p->req[j].line, NULL, "job %s: %s",
               name, msg);
}

const char *alloc_node_label(const struct topo *t, uint32_t n, char *buf,
                             size_t cap)
{
    if (n < t->n_nodes && t->nodes[n].n_nics > 0)
        return topo_node_name(t, n, buf, cap);
    snprintf(buf, cap, "no NIC");
    return buf;
}

uint32_t alloc_collect_free(struct alloc_state *p)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < p->t->n_nodes; i++, steps_add(1))
        if (p->state[i] == NODE_FREE)
            p->free_ids[m++] = i;
    return m;
}

uint32_t alloc_lowest_free(struct alloc_state *p, uint32_t k)
{
    uint32_t n = p->t->n_nodes, m = 0, i = p->lowest;
    while (i < n && p->state[i] != NODE_FREE)
        i++;
    p->lowest = i;
    for (; i < n && m < k; i++)
        if (p->state[i] == NODE_FREE)
            p->free_ids[m++] = i;
    steps_add(i - p->lowest + 1);
    return m;
}

void alloc_not_enough(struct alloc_state *p, uint32_t j, uint32_t asked,
                      uint32_t free_nodes)
{
    alloc_job_error(p, j, "%s allocation asks for %u nodes, only %u of the "
                    "%u nodes are free", p->req[j].policy->base.name, asked,
                    free_nodes, p->t->n_nodes);
}

int alloc_give(struct alloc_state *p, uint32_t j, const uint32_t *ids,
               uint32_t k)
{
    uint32_t *o = malloc((k ? k : 1) * sizeof *o);
    if (!o) {
        alloc_job_error(p, j, "out of memory placing %u nodes", k);
        return -1;
    }
    for (uint32_t i = 0; i < k; i++) {
        assert(p->state[ids[i]] == NODE_FREE);
        p->state[ids[i]] = NODE_TAKEN;
        p->owner[ids[i]] = j;
        o[i] = ids[i];
    }
    p->out[j] = o;
    p->given[j] = k;
    return 0;
}

/* Rejection of the short top range, then the remainder. */
uint64_t alloc_below64(struct rng *r, uint64_t n)
{
    assert(n > 0);
    uint64_t threshold = (0 - n) % n; /* 2^64 mod n */
    uint64_t x;
    do
        x = rng_u64(r);
    while (x < threshold);
    return x % n;
}

/* ---- placing ------------------------------------------------------------ */

/* Request j's problems: its policy's own, and a count where one is
 * needed (after the policy's, so that its messages come first). */
static int check_request(struct alloc_state *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    const struct alloc_policy *pol = r->policy;
    if (!pol || (!pol->place && !pol->place_late)) {
        alloc_job_error(p, j, "no allocation policy");
        return -1;
    }
    int bad = pol->check_request ? pol->check_request(p, j) : 0;
    if (!pol->nodes_optional && r->nodes == 0) {
        alloc_job_error(p, j, "%s allocation asks for no nodes",
                        pol->base.name);
        bad = -1;
    }
    return bad;
}

#define N_POLICIES (sizeof policy_entries / sizeof policy_entries[0])

/* Whether pol is among done[0..*n), added if not: the policies whose
 * place_late has run (a handful, however many jobs). */
static bool seen_before(const struct alloc_policy **done, uint32_t *n,
                        const struct alloc_policy *pol)
{
    for (uint32_t k = 0; k < *n; k++)
        if (done[k] == pol)
            return true;
    assert(*n < N_POLICIES); /* every policy is registered */
    done[(*n)++] = pol;
    return false;
}

int alloc_place(const struct topo *t, const struct alloc_request *req,
                uint32_t n, uint64_t seed, uint32_t **out, struct diag *d)
{
    assert(t && d && (n == 0 || (req && out)));
    for (uint32_t j = 0; j < n; j++)
        out[j] = NULL;
    size_t nn = t->n_nodes ? t->n_nodes : 1, nj = n ? n : 1;
    uint8_t *valid = calloc(nj, 1);
    struct alloc_state p = {
        .t = t, .req = req, .seed = seed, .n = n, .out = out, .d = d,
        .errors0 = d->errors,
        .given = calloc(nj, sizeof(uint32_t)),
        .valid = valid,
        .state = calloc(nn, 1),
        .owner = malloc(nn * sizeof(uint32_t)),
        .free_ids = malloc(nn * sizeof(uint32_t)),
        .mark = calloc(nn, 1),
    };
    if (!p.state || !p.owner || !p.free_ids || !p.mark || !valid ||
        !p.given) {
        diag_error(d, NULL, 0, NULL, "out of memory placing %u jobs", n);
        goto done;
    }
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        p.owner[i] = UINT32_MAX;
        if (t->nodes[i].n_nics == 0)
            p.state[i] = NODE_NO_NIC;
    }
    for (uint32_t j = 0; j < n; j++)
        valid[j] = check_request(&p, j) == 0;
    for (uint32_t j = 0; j < n; j++)
        if (valid[j] && req[j].policy->place)
            req[j].policy->place(&p, j);
    /* the policies that place from what the others were given (same),
     * each once */
    const struct alloc_policy *done[N_POLICIES];
    uint32_t n_done = 0;
    for (uint32_t j = 0; j < n; j++, steps_add(1))
        if (valid[j] && req[j].policy->place_late &&
            !seen_before(done, &n_done, req[j].policy))
            req[j].policy->place_late(&p);
done:
    free(p.state);
    free(p.owner);
    free(p.free_ids);
    free(p.mark);
    free(p.given);
    free(valid);
    if (d->errors > p.errors0) {
        alloc_free(out, n);
        return -1;
    }
    return 0;
}
