/* tracer/defs.c — the global definitions of a trace, in the convention
 * dfsim's otf2 workload reads and Score-P writes (docs/tracer.md):
 *
 *   ClockProperties   resolution 1e9 (ns of CLOCK_MONOTONIC), global
 *                     offset the earliest event, length to the latest
 *   SystemTreeNode 0  this host
 *   LocationGroup r   "MPI Rank r", PROCESS, for every rank r
 *   Location r        "Master thread", CPU_THREAD, its number of events
 *   Region i          "MPI_Send", ... (tracer/regions.def), paradigm MPI,
 *                     Score-P's role; every one, entered or not
 *   Group 0           COMM_LOCATIONS: locations 0..n-1 (world rank order)
 *   Group 1           COMM_SELF (no members)
 *   Group 2...        COMM_GROUP: world ranks in a communicator's order,
 *                     one per distinct member list (2: MPI_COMM_WORLD's)
 *   Comm 0, 1         "MPI_COMM_WORLD" (group 2), "MPI_COMM_SELF" (group 1)
 *   Comm 2...         every other communicator, named for the call that
 *                     made it, with its parent; parents come first.
 *   RmaWin 0...       every window, named as Score-P names them
 *                     ("MPI_Win_create window", "MPI_Win_allocate
 *                     window"), with the communicator it was made on,
 *                     flag CREATE_DESTROY_EVENTS; in rank order, then
 *                     creation order.
 *
 * The ranks' events name a communicator by the id its rank 0 gave it
 * (tracer/comm.c: unique, not dense); the global definitions number them
 * densely, and every rank's local definitions hold the mapping table
 * (OTF2_MAPPING_COMM) from the one to the other, which OTF2's readers
 * apply as they read events, as they do for Score-P's traces; windows
 * the same (OTF2_MAPPING_RMA_WIN). */
#define _DEFAULT_SOURCE /* gethostname */
#include "defs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name;
    OTF2_RegionRole role;
} regions[TR_COUNT] = {
#define REGION(n, r) [TR_##n] = { #n, OTF2_REGION_ROLE_##r },
#include "regions.def"
#undef REGION
};

struct writer {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next_string;
};

/* A new String definition holding s. */
static OTF2_StringRef str(struct writer *wr, const char *s)
{
    OTF2_StringRef ref = wr->next_string++;
    OTF2_GlobalDefWriter_WriteString(wr->w, ref, s);
    return ref;
}

static void write_clock(struct writer *wr, const struct defs_input *in)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (int r = 0; r < in->size; r++) {
        const uint64_t *p = in->per_rank + 3 * r;
        if (p[1] < first)
            first = p[1];
        if (p[2] > last)
            last = p[2];
    }
    if (first > last)
        first = last;
    OTF2_GlobalDefWriter_WriteClockProperties(wr->w, 1000000000u, first,
                                              last - first,
                                              OTF2_UNDEFINED_TIMESTAMP);
}

static void write_locations(struct writer *wr, const struct defs_input *in)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(wr->w, 0, str(wr, host),
                                             str(wr, "node"),
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_StringRef thread = str(wr, "Master thread");
    for (int r = 0; r < in->size; r++) {
        char name[64];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        OTF2_GlobalDefWriter_WriteLocationGroup(
            wr->w, (OTF2_LocationGroupRef)r, str(wr, name),
            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
            OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(
            wr->w, (OTF2_LocationRef)r, thread, OTF2_LOCATION_TYPE_CPU_THREAD,
            in->per_rank[3 * r], (OTF2_LocationGroupRef)r);
    }
}

static void write_regions(struct writer *wr, const struct defs_input *in)
{
    OTF2_StringRef empty = str(wr, "");
    for (int i = 0; i < TR_COUNT; i++) {
        OTF2_StringRef name = str(wr, regions[i].name);
        OTF2_GlobalDefWriter_WriteRegion(wr->w, (OTF2_RegionRef)i, name, name,
                                         empty, regions[i].role,
                                         OTF2_PARADIGM_MPI,
                                         OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
}

/* One communicator of comm_words. */
struct comm_def {
    uint32_t id, parent, region, n;
    const uint32_t *members; /* world ranks */
    OTF2_GroupRef group;
    bool written;
};

static void write_group(struct writer *wr, OTF2_GroupRef ref,
                        OTF2_GroupType type, uint32_t n, const uint32_t *m)
{
    uint64_t *members = calloc(n + 1u, sizeof *members);
    if (!members)
        return;
    for (uint32_t i = 0; i < n; i++)
        members[i] = m[i];
    OTF2_GlobalDefWriter_WriteGroup(wr->w, ref, str(wr, ""), type,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    n, members);
    free(members);
}

/* comm_words cut into comm_defs; their number (*out malloc'd). */
static uint32_t parse_comms(const struct defs_input *in,
                            struct comm_def **out)
{
    uint32_t n = 0, cap = 16;
    struct comm_def *c = malloc(cap * sizeof *c);
    for (int i = 0; c && i + 4 <= in->n_comm_words;) {
        const uint32_t *w = in->comm_words + i;
        if (i + 4 + (int)w[3] > in->n_comm_words)
            break;
        if (n == cap) {
            struct comm_def *g = realloc(c, 2 * cap * sizeof *c);
            if (!g)
                break;
            c = g;
            cap *= 2;
        }
        c[n++] = (struct comm_def){ .id = w[0], .parent = w[1],
                                    .region = w[2], .n = w[3],
                                    .members = w + 4 };
        i += 4 + (int)w[3];
    }
    *out = c;
    return c ? n : 0;
}

/* Groups 0..2 and one per distinct member list of the comms. */
static void write_groups(struct writer *wr, int size, struct comm_def *c,
                         uint32_t n)
{
    uint32_t *world = calloc((size_t)size + 1, sizeof *world);
    if (!world)
        return;
    for (int r = 0; r < size; r++)
        world[r] = (uint32_t)r;
    write_group(wr, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, (uint32_t)size, world);
    write_group(wr, 1, OTF2_GROUP_TYPE_COMM_SELF, 0, world);
    write_group(wr, 2, OTF2_GROUP_TYPE_COMM_GROUP, (uint32_t)size, world);
    OTF2_GroupRef next = 3;
    for (uint32_t i = 0; i < n; i++) {
        size_t bytes = c[i].n * sizeof(uint32_t);
        c[i].group = OTF2_UNDEFINED_GROUP;
        if (c[i].n == (uint32_t)size && memcmp(c[i].members, world, bytes) == 0)
            c[i].group = 2;
        for (uint32_t j = 0; j < i && c[i].group == OTF2_UNDEFINED_GROUP; j++)
            if (c[j].n == c[i].n && memcmp(c[j].members, c[i].members, bytes) == 0)
                c[i].group = c[j].group;
        if (c[i].group == OTF2_UNDEFINED_GROUP) {
            c[i].group = next++;
            write_group(wr, c[i].group, OTF2_GROUP_TYPE_COMM_GROUP, c[i].n,
                        c[i].members);
        }
    }
    free(world);
}

/* The index of comm id in c, or n. */
static uint32_t comm_index(const struct comm_def *c, uint32_t n, uint32_t id)
{
    uint32_t i = 0;
    while (i < n && c[i].id != id)
        i++;
    return i;
}

/* The comms in definition order, each after its parent (a parent that
 * is world, self or unknown counts as defined); their number. */
static uint32_t order_comms(struct comm_def *c, uint32_t n, uint32_t *order)
{
    uint32_t k = 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p = comm_index(c, n, c[i].parent);
            if (c[i].written || (p < n && !c[p].written))
                continue;
            order[k++] = i;
            c[i].written = progress = true;
        }
    }
    return k;
}

uint32_t defs_comm_order(const struct defs_input *in, uint32_t **order)
{
    struct comm_def *c = NULL;
    uint32_t n = parse_comms(in, &c);
    uint32_t *idx = malloc((n + 1) * sizeof *idx);
    *order = malloc((n + 1) * sizeof **order);
    uint32_t k = idx && *order ? order_comms(c, n, idx) : 0;
    for (uint32_t i = 0; i < k; i++)
        (*order)[i] = c[idx[i]].id;
    free(idx);
    free(c);
    return k;
}

/* The dense id of the communicator a rank named id. */
static uint32_t dense_id(const uint32_t *order, uint32_t k, uint32_t id)
{
    if (id == TRACE_COMM_WORLD || id == TRACE_COMM_SELF)
        return id;
    for (uint32_t i = 0; i < k; i++)
        if (order[i] == id)
            return 2 + i;
    return OTF2_UNDEFINED_COMM;
}

/* Comm definitions: world, self, then the others in order. */
static void write_comms(struct writer *wr, const struct comm_def *c,
                        uint32_t n, const uint32_t *order, uint32_t k)
{
    OTF2_GlobalDefWriter_WriteComm(wr->w, TRACE_COMM_WORLD,
                                   str(wr, "MPI_COMM_WORLD"), 2,
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteComm(wr->w, TRACE_COMM_SELF,
                                   str(wr, "MPI_COMM_SELF"), 1,
                                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    for (uint32_t i = 0; i < k; i++) {
        const struct comm_def *d = &c[comm_index(c, n, order[i])];
        const char *name = d->region < TR_COUNT ? regions[d->region].name : "";
        OTF2_GlobalDefWriter_WriteComm(wr->w, 2 + i, str(wr, name), d->group,
                                       dense_id(order, k, d->parent),
                                       OTF2_COMM_FLAG_NONE);
    }
}

uint32_t defs_win_order(const struct defs_input *in, uint32_t **order)
{
    uint32_t k = in->n_win_words > 0 ? (uint32_t)in->n_win_words / 3 : 0;
    *order = malloc((k + 1) * sizeof **order);
    if (!*order)
        return 0;
    for (uint32_t i = 0; i < k; i++)
        (*order)[i] = in->win_words[3 * i];
    return k;
}

/* RmaWin i for the i-th window of win_words, its communicator's id made
 * dense. */
static void write_wins(struct writer *wr, const struct defs_input *in,
                       const uint32_t *order, uint32_t k)
{
    for (int i = 0; i + 3 <= in->n_win_words; i += 3) {
        const uint32_t *w = in->win_words + i;
        const char *name = w[2] == TR_MPI_Win_allocate
                               ? "MPI_Win_allocate window"
                               : "MPI_Win_create window";
        OTF2_GlobalDefWriter_WriteRmaWin(wr->w, (OTF2_RmaWinRef)(i / 3),
                                         str(wr, name),
                                         dense_id(order, k, w[1]),
                                         OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
    }
}

void defs_write(OTF2_GlobalDefWriter *w, const struct defs_input *in)
{
    struct writer wr = { .w = w };
    write_clock(&wr, in);
    write_locations(&wr, in);
    write_regions(&wr, in);
    struct comm_def *c = NULL;
    uint32_t n = parse_comms(in, &c), *order = NULL;
    uint32_t k = defs_comm_order(in, &order);
    write_groups(&wr, in->size, c, n);
    if (order) {
        write_comms(&wr, c, n, order, k);
        write_wins(&wr, in, order, k);
    }
    free(order);
    free(c);
}
