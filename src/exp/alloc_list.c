/* exp/alloc_list.c — list: exactly the node ids given, in that order
 * (key node_list, "0-15,32,40-47"; SC'19 Fig. 8 places its jobs on chosen
 * groups this way). Every id must name a free node with a NIC, once. The
 * production fill's jobs are lists too, under their own name
 * (alloc_production). Draws nothing.
 */
#include "exp/alloc_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/idlist.h"

_Static_assert(sizeof(struct alloc_list_params) <= ALLOC_PARAMS_MAX,
               "list: block");

#define KEY(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct alloc_list_params, field), .help = text,     \
      __VA_ARGS__ }

static const struct cfg_key keys[] = {
    KEY(CFG_STRING, "node_list", node_list,
        "allocation = \"list\": node ids in rank order, ranges allowed "
        "(\"0-15,32,40-47\")"),
    { .name = NULL },
};

static const struct alloc_list_params defaults = { 0 };

/* What is wrong with node_list at p (idlist_next said st). */
static void node_list_error(const struct alloc_list_params *lp,
                            const struct alloc_job *job, int line,
                            const char *key, enum idlist_status st,
                            uint64_t a, uint64_t b, const char *p,
                            struct diag *d)
{
    switch (st) {
    case IDLIST_NOT_ID:
        diag_error(d, job->file, line, key,
                   "expected node ids and ranges like \"0-15,32,40-47\", "
                   "got \"%s\" at \"%s\"",
                   lp->node_list, p);
        break;
    case IDLIST_NO_END:
        diag_error(d, job->file, line, key, "a range needs an end: \"%s\"",
                   lp->node_list);
        break;
    case IDLIST_BAD_RANGE:
        diag_error(d, job->file, line, key,
                   "range %llu-%llu: expected a first id <= the last, both "
                   "below 4294967295",
                   (unsigned long long)a, (unsigned long long)b);
        break;
    default:
        diag_error(d, job->file, line, key,
                   "expected ',' between node ids, got \"%s\"", p);
        break;
    }
}

/* Parse node_list into lp->ids (two passes: count, then fill). Errors
 * name the key's line. */
static int parse_node_list(struct alloc_list_params *lp,
                           const struct alloc_job *job, struct diag *d)
{
    char key[64];
    snprintf(key, sizeof key, "%s.node_list", job->prefix);
    int line = cfg_member_line(job->g, "node_list");
    uint64_t total = 0;
    lp->n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *p = lp->node_list;
        uint32_t n = 0;
        uint64_t a = 0, b = 0;
        enum idlist_status st;
        while ((st = idlist_next(&p, &a, &b)) == IDLIST_RANGE) {
            if (pass == 0) {
                total += b - a + 1;
                if (total > ALLOC_NODES_MAX) {
                    diag_error(d, job->file, line, key,
                               "more than %u nodes", ALLOC_NODES_MAX);
                    return -1;
                }
            } else {
                for (uint64_t v = a; v <= b; v++)
                    lp->ids[n++] = (uint32_t)v;
            }
        }
        if (st != IDLIST_END) {
            node_list_error(lp, job, line, key, st, a, b, p, d);
            return -1;
        }
        if (pass == 0) {
            if (total == 0) {
                diag_error(d, job->file, line, key,
                           "expected at least one node id");
                return -1;
            }
            lp->ids = malloc(total * sizeof *lp->ids);
            if (!lp->ids) {
                diag_error(d, job->file, line, key, "out of memory");
                return -1;
            }
        }
    }
    lp->n = (uint32_t)total;
    return 0;
}

/* node_list is required; it gives the count, which nodes, if given, must
 * agree with. */
static void check(void *params, struct alloc_job *job, struct diag *d)
{
    struct alloc_list_params *lp = params;
    if (!lp->node_list) {
        diag_error(d, job->file, job->line, job->prefix,
                   "allocation = \"list\" needs node_list (\"0-15,32\")");
        return;
    }
    if (parse_node_list(lp, job, d) != 0)
        return;
    char key[64];
    snprintf(key, sizeof key, "%s.nodes", job->prefix);
    if (job->nodes_given && job->nodes != lp->n)
        diag_error(d, job->file, cfg_member_line(job->g, "nodes"), key,
                   "%u nodes, but node_list names %u", job->nodes, lp->n);
    job->nodes = lp->n;
}

static void list_free(void *params)
{
    struct alloc_list_params *lp = params;
    free(lp->ids);
    lp->ids = NULL;
    lp->n = 0;
}

static int check_request(struct alloc_state *p, uint32_t j)
{
    const struct alloc_request *r = &p->req[j];
    const struct alloc_list_params *lp = alloc_params(p, j);
    if (!lp->ids || lp->n == 0) {
        alloc_job_error(p, j, "list allocation with an empty node list");
        return -1;
    }
    if (r->nodes != 0 && r->nodes != lp->n) {
        alloc_job_error(p, j, "asks for %u nodes but lists %u", r->nodes,
                        lp->n);
        return -1;
    }
    return 0;
}

/* One entry's problem (out of range, twice, no NIC, taken), or 0. */
static int entry_bad(struct alloc_state *p, uint32_t j, uint32_t i,
                     uint32_t v)
{
    const struct topo *t = p->t;
    char nm[64], other[128];
    if (v >= t->n_nodes) {
        alloc_job_error(p, j, "list entry %u: node %u is out of range (the "
                        "system has nodes 0..%u)", i, v, t->n_nodes - 1);
        return 1;
    }
    if (p->mark[v]) {
        if (p->mark[v] == 1)
            alloc_job_error(p, j, "list entry %u: node %u (%s) is listed "
                            "more than once", i, v,
                            alloc_node_label(t, v, nm, sizeof nm));
        p->mark[v] = 2;
        return 1;
    }
    p->mark[v] = 1;
    switch ((enum node_state)p->state[v]) {
    case NODE_FREE:
        return 0;
    case NODE_NO_NIC:
        alloc_job_error(p, j, "list entry %u: node %u has no NIC", i, v);
        return 1;
    case NODE_TAKEN:
    case NODE_PHANTOM:
        alloc_job_name(p, p->owner[v], other, sizeof other);
        alloc_job_error(p, j, "list entry %u: node %u (%s) is already "
                        "taken by %s%s", i, v,
                        alloc_node_label(t, v, nm, sizeof nm),
                        p->state[v] == NODE_PHANTOM
                            ? "the other users of fragmented job "
                            : "job ",
                        other);
        return 1;
    }
    return 1;
}

static void place_list(struct alloc_state *p, uint32_t j)
{
    const struct alloc_list_params *lp = alloc_params(p, j);
    int bad = 0;
    for (uint32_t i = 0; i < lp->n; i++)
        bad |= entry_bad(p, j, i, lp->ids[i]);
    for (uint32_t i = 0; i < lp->n; i++)
        if (lp->ids[i] < p->t->n_nodes)
            p->mark[lp->ids[i]] = 0;
    if (!bad)
        alloc_give(p, j, lp->ids, lp->n);
}

const struct alloc_policy alloc_list = {
    .base = { .name = "list",
              .help = "exactly the nodes given (node_list)" },
    .keys = keys,
    .params_size = sizeof(struct alloc_list_params),
    .defaults = &defaults,
    .nodes_optional = true,
    .check = check,
    .free = list_free,
    .check_request = check_request,
    .place = place_list,
};

const struct alloc_policy alloc_production = {
    .base = { .name = "production",
              .help = "a job of the production fill: the nodes it drew "
                      "(exp/production.h)" },
    .params_size = sizeof(struct alloc_list_params),
    .defaults = &defaults,
    .nodes_optional = true,
    .free = list_free,
    .check_request = check_request,
    .place = place_list,
};
