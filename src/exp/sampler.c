/* exp/sampler.c — periodic counter sampling (see sampler.h).
 *
 * At init every (producer, metric) pair is resolved once into a struct
 * ctr_ref, and every producer's constant columns (",name,id,0,0") are
 * formatted once; a sample is then, per producer, a row built in one
 * preallocated buffer from ctr_value() and written with one fwrite. Nothing
 * here changes the network: ctr_value only reads.
 */
#include "exp/sampler.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

void sampler_defaults(struct sampler_params *p)
{
    memset(p, 0, sizeof *p);
}

/* ---- metric lists ------------------------------------------------------- */

/* A growing list of names (setup only). */
struct names {
    char **v;
    uint32_t *tile;          /* router lists: tile of each name */
    uint64_t *seq;           /* and its place in the listing */
    size_t n, cap;
    bool oom;
};

static void names_free(struct names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    free(l->tile);
    free(l->seq);
    memset(l, 0, sizeof *l);
}

static void names_push(struct names *l, const char *name, uint32_t tile)
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        uint32_t *t = v ? realloc(l->tile, cap * sizeof *t) : NULL;
        uint64_t *q = t ? realloc(l->seq, cap * sizeof *q) : NULL;
        if (v)
            l->v = v;
        if (t)
            l->tile = t;
        if (!q) {
            l->oom = true;
            return;
        }
        l->seq = q;
        l->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) {
        l->oom = true;
        return;
    }
    l->v[l->n] = copy;
    l->tile[l->n] = tile;
    l->seq[l->n] = l->n;
    l->n++;
}

/* The NIC registers of metric_set_nic, by what they count (sampler.h):
 * requests sent (packets, flits, stalled cycles), then the RSPMON PARB
 * counters towards the host. A family that lacks one skips it. */
static const struct {
    uint8_t reg, cls;
} nic_default[] = {
    { CTR_NIC_PKTS, 0 },    { CTR_NIC_FLITS, 0 },    { CTR_NIC_STALLED, 0 },
    { CTR_NIC_PI_PKTS, 0 }, { CTR_NIC_PI_FLITS, 0 }, { CTR_NIC_PI_STALLED, 0 },
};

struct pick {
    uint8_t reg, cls;
    char name[160];
};

static void pick_cb(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct pick *p = ctx;
    if (!p->name[0] && r->reg == p->reg && r->cls == p->cls)
        snprintf(p->name, sizeof p->name, "%s", name);
}

static void nic_defaults(const struct net *n, uint32_t nic,
                         struct names *out)
{
    uint32_t router = n->t->nics[nic].router;
    for (size_t i = 0; i < sizeof nic_default / sizeof nic_default[0]; i++) {
        struct pick p = { .reg = nic_default[i].reg,
                          .cls = nic_default[i].cls };
        ctr_names(n, router, nic, true, false, pick_cb, &p);
        if (p.name[0])
            names_push(out, p.name, 0);
    }
}

/* The union over routers of their tile counters: each tile's names as
 * listed by the first router on which that tile is cabled, tiles in
 * ascending order. */
struct tile_union {
    const struct net *n;
    uint32_t router;
    uint32_t *owner;         /* [tile]: router whose names it has, or NONE */
    uint32_t n_tiles;
    struct names *out;
};

static void union_cb(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct tile_union *u = ctx;
    uint32_t tile = u->n->t->ports[r->obj].index;
    assert(tile < u->n_tiles);
    if (u->owner[tile] == TOPO_NONE)
        u->owner[tile] = u->router;
    if (u->owner[tile] == u->router)
        names_push(u->out, name, tile);
}

static int by_tile(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b; /* (tile << 40 | seq) keys */
    return *x < *y ? -1 : *x > *y;
}

static int rtr_defaults(const struct net *n, struct names *out)
{
    const struct topo *t = n->t;
    uint32_t n_tiles = 1;
    for (uint32_t p = 0; p < t->n_ports; p++)
        if (t->ports[p].index + 1u > n_tiles)
            n_tiles = t->ports[p].index + 1u;
    struct tile_union u = { .n = n, .n_tiles = n_tiles, .out = out };
    u.owner = malloc(n_tiles * sizeof *u.owner);
    if (!u.owner)
        return -1;
    for (uint32_t i = 0; i < n_tiles; i++)
        u.owner[i] = TOPO_NONE;
    /* only the routers that are the first to cable some tile can add
     * names: list those alone (listing every router costs ~50 ms on a
     * thousand routers) */
    uint32_t *first = malloc(n_tiles * sizeof *first);
    if (!first) {
        free(u.owner);
        return -1;
    }
    for (uint32_t i = 0; i < n_tiles; i++)
        first[i] = TOPO_NONE;
    for (uint32_t r = 0; r < n->n_routers; r++) {
        const struct topo_router *tr = &t->routers[r];
        bool adds = false;
        for (uint32_t i = 0; i < tr->n_ports; i++) {
            uint32_t tile = t->ports[tr->first_port + i].index;
            if (first[tile] == TOPO_NONE) {
                first[tile] = r;
                adds = true;
            }
        }
        if (adds) {
            u.router = r;
            ctr_names(n, r, TOPO_NONE, false, true, union_cb, &u);
        }
    }
    free(first);
    free(u.owner);
    if (out->oom)
        return -1;
    /* names came router by router: order them by tile, keeping each
     * tile's own listing order */
    uint64_t *key = malloc((out->n ? out->n : 1) * sizeof *key);
    char **v = malloc((out->n ? out->n : 1) * sizeof *v);
    if (!key || !v) {
        free(key);
        free(v);
        return -1;
    }
    assert(out->n < (UINT64_C(1) << 40));
    for (size_t i = 0; i < out->n; i++)
        key[i] = (uint64_t)out->tile[i] << 40 | out->seq[i];
    qsort(key, out->n, sizeof *key, by_tile);
    for (size_t i = 0; i < out->n; i++)
        v[i] = out->v[key[i] & ((UINT64_C(1) << 40) - 1)];
    memcpy(out->v, v, out->n * sizeof *v);
    free(key);
    free(v);
    return 0;
}

/* ---- checking names ----------------------------------------------------- */

struct list_ctx {
    char *buf;
    size_t cap;
    bool first;
};

static void list_cb(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct list_ctx *l = ctx;
    size_t used = strlen(l->buf);
    if (used + 1 < l->cap)
        snprintf(l->buf + used, l->cap - used, "%s%s", l->first ? "" : ", ",
                 name);
    l->first = false;
}

/* The first node with a NIC, or TOPO_NONE. */
static uint32_t first_nic(const struct topo *t)
{
    for (uint32_t i = 0; i < t->n_nodes; i++)
        if (t->nodes[i].n_nics)
            return t->nodes[i].nic[0];
    return TOPO_NONE;
}

int sampler_check_metric(const struct net *n, enum sampler_kind k,
                         const char *name, char *why, size_t cap)
{
    const struct topo *t = n->t;
    struct ctr_ref r;
    uint32_t nic = first_nic(t);
    bool is_nic = nic != TOPO_NONE &&
                  ctr_find(n, t->nics[nic].router, nic, name, &r) == 0 &&
                  r.reg < CTR_TILE_IN_FLITS;
    if (k == SAMPLER_NIC) {
        if (is_nic)
            return 0;
        bool is_tile = false;
        for (uint32_t rt = 0; rt < n->n_routers && !is_tile; rt++)
            is_tile = ctr_find(n, rt, TOPO_NONE, name, &r) == 0;
        if (is_tile) {
            snprintf(why, cap, "\"%s\" is a router tile counter, not a NIC "
                     "counter; the router sampler reads it "
                     "(sampling.rtr_metrics)", name);
            return -1;
        }
        char list[1024] = "";
        struct list_ctx l = { list, sizeof list, true };
        if (nic != TOPO_NONE)
            ctr_names(n, t->nics[nic].router, nic, true, false, list_cb, &l);
        snprintf(why, cap, "no NIC counter named \"%s\" on %s NICs; NIC "
                 "counters: %s", name, t->family->name,
                 list[0] ? list : "(none)");
        return -1;
    }
    for (uint32_t rt = 0; rt < n->n_routers; rt++)
        if (ctr_find(n, rt, TOPO_NONE, name, &r) == 0)
            return 0;
    if (is_nic) {
        snprintf(why, cap, "\"%s\" is a NIC counter, not a router tile "
                 "counter; the NIC sampler reads it (sampling.nic_metrics)",
                 name);
        return -1;
    }
    char first[160] = "";
    struct pick p = { .reg = CTR_TILE_IN_FLITS, .cls = 0 };
    if (n->n_routers)
        ctr_names(n, 0, TOPO_NONE, false, true, pick_cb, &p);
    snprintf(first, sizeof first, "%s", p.name);
    snprintf(why, cap, "no router of this %s system has a tile counter "
             "named \"%s\"%s%s%s (net/counters.h lists the names)",
             t->family->name, name,
             first[0] ? "; router 0's first is \"" : "", first,
             first[0] ? "\"" : "");
    return -1;
}

/* ---- setup -------------------------------------------------------------- */

static void set_free(struct sampler_set *st)
{
    if (st->f)
        fclose(st->f);
    free(st->path);
    free(st->ref);
    free(st->prefix);
    free(st->prefix_at);
    free(st->line);
    memset(st, 0, sizeof *st);
}

void sampler_free(struct sampler *sm)
{
    for (int k = 0; k < SAMPLER_KINDS; k++)
        set_free(&sm->set[k]);
}

/* The producers of a kind: nodes with a NIC (their first), or routers. */
static uint32_t producers(const struct net *n, enum sampler_kind k)
{
    if (k == SAMPLER_RTR)
        return n->n_routers;
    uint32_t c = 0;
    for (uint32_t i = 0; i < n->t->n_nodes; i++)
        c += n->t->nodes[i].n_nics > 0;
    return c;
}

static const char *const kind_key[SAMPLER_KINDS] = {
    [SAMPLER_NIC] = "sampling.nic_metrics",
    [SAMPLER_RTR] = "sampling.rtr_metrics",
};

/* Open, resolve and write the header of one sampler. */
/* The producer's row prefixes (",name,component_id,job_id,app_id") and its
 * counter references, producer by producer. */
static int set_bind(struct sampler_set *st, const struct net *n,
                    enum sampler_kind k, const char *const *metrics,
                    const uint32_t *node_job)
{
    const struct topo *t = n->t;
    uint32_t n_metrics = st->n_metrics;
    size_t cells = (size_t)st->n_prod * n_metrics;
    st->ref = malloc((cells ? cells : 1) * sizeof *st->ref);
    st->prefix_at = malloc(((size_t)st->n_prod + 1) * sizeof *st->prefix_at);
    size_t pcap = (size_t)st->n_prod * 48 + 1;
    st->prefix = malloc(pcap);
    if (!st->ref || !st->prefix_at || !st->prefix)
        return -1;
    size_t used = 0, widest = 0;
    uint32_t p = 0;
    uint32_t count = k == SAMPLER_RTR ? n->n_routers : t->n_nodes;
    for (uint32_t id = 0; id < count; id++) {
        uint32_t router = id, nic = TOPO_NONE;
        char name[64];
        if (k == SAMPLER_NIC) {
            if (!t->nodes[id].n_nics)
                continue;
            nic = t->nodes[id].nic[0];
            router = t->nics[nic].router;
            topo_node_name(t, id, name, sizeof name);
        } else {
            topo_router_name(t, id, name, sizeof name);
        }
        for (uint32_t m = 0; m < n_metrics; m++) {
            struct ctr_ref *r = &st->ref[(size_t)p * n_metrics + m];
            /* a tile counter found on the previous router names the same
             * tile here: rebind it rather than parse the name again */
            if (k == SAMPLER_RTR && p > 0 &&
                r[-(ptrdiff_t)n_metrics].reg != CTR_REG_COUNT) {
                *r = r[-(ptrdiff_t)n_metrics];
                if (ctr_ref_rebind(n, r, router) != 0)
                    *r = (struct ctr_ref){ .reg = CTR_REG_COUNT };
                continue;
            }
            if (ctr_find(n, router, nic, metrics[m], r) != 0 ||
                (k == SAMPLER_NIC) != (r->reg < CTR_TILE_IN_FLITS)) {
                /* a tile not cabled on this router: reads 0 */
                assert(k == SAMPLER_RTR);
                *r = (struct ctr_ref){ .reg = CTR_REG_COUNT };
            }
        }
        if (pcap - used < 160) {
            char *q = realloc(st->prefix, 2 * pcap);
            if (!q)
                return -1;
            st->prefix = q;
            pcap *= 2;
        }
        st->prefix_at[p] = (uint32_t)used;
        uint32_t job = k == SAMPLER_NIC && node_job ? node_job[id] : 0;
        int w = snprintf(st->prefix + used, pcap - used,
                         ",%s,%" PRIu32 ",%" PRIu32 ",0", name, id, job);
        assert(w > 0 && (size_t)w < pcap - used);
        used += (size_t)w;
        if ((size_t)w > widest)
            widest = (size_t)w;
        p++;
    }
    assert(p == st->n_prod);
    st->prefix_at[p] = (uint32_t)used;
    /* a row: "<s>.<us>,<us>" + prefix + ",<u64>" per metric + "\n" */
    st->line_cap = 64 + widest + (size_t)n_metrics * 21 + 2;
    st->line = malloc(st->line_cap);
    return st->line ? 0 : -1;
}

/* The file and its header line. */
static int set_open(struct sampler_set *st, const char *path,
                    const char *const *metrics, struct diag *d)
{
    st->f = fopen(path, "w");
    if (!st->f) {
        diag_error(d, NULL, 0, "sampling", "cannot write %s: %s", path,
                   strerror(errno));
        return -1;
    }
    /* store_csv's header (ldms-store_csv.rst; store_csv.c prints
     * "#Time,Time_usec,ProducerName" then the set's metrics, of which
     * component_id, job_id and app_id are the first three) */
    fputs("#Time,Time_usec,ProducerName,component_id,job_id,app_id", st->f);
    for (uint32_t m = 0; m < st->n_metrics; m++) {
        fputc(',', st->f);
        fputs(metrics[m], st->f);
    }
    fputc('\n', st->f);
    if (fflush(st->f) != 0 || ferror(st->f)) {
        diag_error(d, NULL, 0, "sampling", "cannot write %s: %s", path,
                   strerror(errno));
        return -1;
    }
    return 0;
}

static int set_init(struct sampler_set *st, const struct net *n,
                    enum sampler_kind k, const char *path,
                    const char *const *metrics, uint32_t n_metrics,
                    const uint32_t *node_job, struct diag *d)
{
    const struct topo *t = n->t;
    struct names def = { 0 };
    int rc = -1;
    if (!path) {
        diag_error(d, NULL, 0, "sampling", "no file given for the %s sampler",
                   k == SAMPLER_NIC ? "NIC" : "router");
        return -1;
    }
    st->n_prod = producers(n, k);
    if (!metrics) {
        if (k == SAMPLER_NIC) {
            uint32_t nic = first_nic(t);
            if (nic != TOPO_NONE)
                nic_defaults(n, nic, &def);
        } else if (rtr_defaults(n, &def) != 0) {
            goto oom;
        }
        if (def.oom)
            goto oom;
        metrics = (const char *const *)def.v;
        n_metrics = (uint32_t)def.n;
    } else {
        /* every name first, so that all bad ones are reported at once */
        int bad = 0;
        for (uint32_t m = 0; m < n_metrics; m++) {
            char why[1400];
            if (sampler_check_metric(n, k, metrics[m], why,
                                     sizeof why) != 0) {
                diag_error(d, NULL, 0, kind_key[k], "%s", why);
                bad++;
            }
        }
        if (bad)
            goto out;
    }
    st->n_metrics = n_metrics;
    if (set_bind(st, n, k, metrics, node_job) != 0 ||
        !(st->path = strdup(path)))
        goto oom;
    rc = set_open(st, path, metrics, d);
    goto out;
oom:
    diag_error(d, NULL, 0, "sampling", "out of memory");
out:
    names_free(&def);
    return rc;
}

/* ---- sampling ----------------------------------------------------------- */

/* Decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        *p++ = tmp[--k];
    return p;
}

static int write_sample(struct sampler *sm, struct sampler_set *st)
{
    const struct net *n = sm->n;
    simtime now = sm->s->now;
    uint64_t sec = now / SIMTIME_S;
    uint64_t usec = now % SIMTIME_S / SIMTIME_US;
    char head[48];
    int hl = snprintf(head, sizeof head, "%" PRIu64 ".%06" PRIu64 ",%" PRIu64,
                      sec, usec, usec);
    assert(hl > 0 && (size_t)hl < sizeof head);
    for (uint32_t p = 0; p < st->n_prod; p++) {
        char *q = st->line;
        memcpy(q, head, (size_t)hl);
        q += hl;
        size_t pl = st->prefix_at[p + 1] - st->prefix_at[p];
        memcpy(q, st->prefix + st->prefix_at[p], pl);
        q += pl;
        const struct ctr_ref *r = &st->ref[(size_t)p * st->n_metrics];
        for (uint32_t m = 0; m < st->n_metrics; m++) {
            *q++ = ',';
            q = put_u64(q, r[m].reg == CTR_REG_COUNT ? 0
                                                    : ctr_value(n, &r[m]));
        }
        *q++ = '\n';
        assert((size_t)(q - st->line) <= st->line_cap);
        if (fwrite(st->line, 1, (size_t)(q - st->line), st->f) !=
            (size_t)(q - st->line))
            return -1;
    }
    return fflush(st->f);
}

/* One sample of every set at the current time; 0, or -1 (sm->err set:
 * no further sample). */
static int sample(struct sampler *sm)
{
    if (sm->err)
        return -1;
    for (int k = 0; k < SAMPLER_KINDS; k++) {
        errno = 0;
        if (sm->set[k].f && write_sample(sm, &sm->set[k]) != 0) {
            sm->err = errno ? errno : EIO;
            sm->err_set = k;
            return -1;
        }
    }
    sm->samples++;
    sm->last = sm->s->now;
    return 0;
}

void sampler_sample_now(struct sampler *sm)
{
    if (!sm->samples || sm->last != sm->s->now)
        sample(sm);
}

static void on_sample(struct sim *s, const struct event *e, void *ctx)
{
    struct sampler *sm = ctx;
    if (sample(sm) != 0)
        return; /* no further sample */
    /* the next one, unless the run is over: past `until`, or nothing else
     * left to happen (only this sampler would keep the clock going) */
    simtime next = s->now + sm->interval;
    if (next < sm->until && next > s->now && evq_size(&s->q) > 0)
        sim_schedule(s, sm->entity, next, sm->entity, sm->ev_type, 0);
}

int sampler_init(struct sampler *sm, struct net *n, struct sim *s,
                 uint32_t ev_type, uint32_t entity,
                 const struct sampler_params *sp, struct diag *d)
{
    memset(sm, 0, sizeof *sm);
    assert(sp->driven || (ev_type >= NET_EV_COUNT && ev_type < SIM_MAX_TYPES));
    assert(sp->driven || entity < s->n_entities);
    sm->n = n;
    sm->s = s;
    sm->ev_type = ev_type;
    sm->entity = entity;
    sm->interval = sp->interval;
    sm->until = sp->until;
    if (sp->interval == 0) {
        diag_error(d, NULL, 0, "sampling.interval_us",
                   "the interval is 0; expected a time > 0");
        return -1;
    }
    if (!n->ct.nic) {
        diag_error(d, NULL, 0, "sampling",
                   "the network keeps no counters (net_params.counters is "
                   "off)");
        return -1;
    }
    int bad = 0;
    if (sp->nic)
        bad += set_init(&sm->set[SAMPLER_NIC], n, SAMPLER_NIC, sp->nic_path,
                        sp->nic_metrics, sp->n_nic_metrics, sp->node_job,
                        d) != 0;
    if (sp->rtr)
        bad += set_init(&sm->set[SAMPLER_RTR], n, SAMPLER_RTR, sp->rtr_path,
                        sp->rtr_metrics, sp->n_rtr_metrics, NULL,
                        d) != 0;
    if (bad) {
        sampler_free(sm);
        return -1;
    }
    if (sp->driven)
        return 0;
    sim_on(s, ev_type, on_sample, sm);
    /* the first multiple of the interval after now (at setup: interval) */
    simtime first = (s->now / sp->interval + 1) * sp->interval;
    if ((sp->nic || sp->rtr) && first > s->now && first < sp->until)
        sim_schedule(s, entity, first, entity, ev_type, 0);
    return 0;
}

int sampler_status(const struct sampler *sm, struct diag *d)
{
    if (!sm->err)
        return 0;
    diag_error(d, NULL, 0, "sampling",
               "writing %s failed after %" PRIu64 " samples: %s",
               sm->set[sm->err_set].path, sm->samples, strerror(sm->err));
    return -1;
}

/* ---- experiment files --------------------------------------------------- */

const struct cfg_key sampler_keys[] = {
    { .name = "interval_us", .type = CFG_FLOAT,
      .offset = offsetof(struct sampler_config, interval_us), .fmin = 0.001,
      .fmax = 1e6,
      .help = "simulated us between two samples; Time has whole us as "
              "LDMS's (1)" },
    { .name = "nic", .type = CFG_BOOL,
      .offset = offsetof(struct sampler_config, nic),
      .help = "sample the NIC counters of every node into nic_samples.csv, "
              "as LDMS's aries_nic_mmr (false)" },
    { .name = "rtr", .type = CFG_BOOL,
      .offset = offsetof(struct sampler_config, rtr),
      .help = "sample the tile counters of every router into "
              "rtr_samples.csv, as LDMS's aries_rtr_mmr (false)" },
    { .name = "links", .type = CFG_BOOL,
      .offset = offsetof(struct sampler_config, links),
      .help = "traffic runs: write links.txt, every router's logical "
              "links over the measurement window, as the Gemini monitor "
              "library's report (Pedretti et al. Fig. 4); job runs: "
              "job_links.txt, each job's routers over its run, with the "
              "per-router mean and max of Figs. 6-7 (false)" },
    { .name = "nic_metrics", .type = CFG_STRINGS,
      .offset = offsetof(struct sampler_config, nic_metrics),
      .help = "NIC counter names, one column each (requests sent: packets, "
              "flits, stalls; packets, flits, stalls to the host)",
      .once = "counter" },
    { .name = "rtr_metrics", .type = CFG_STRINGS,
      .offset = offsetof(struct sampler_config, rtr_metrics),
      .help = "router tile counter names, one column each (every tile "
              "counter of the machine)",
      .once = "counter" },
    { .name = NULL },
};

void sampler_config_defaults(struct sampler_config *c)
{
    memset(c, 0, sizeof *c);
    c->interval_us = 1;
}

void sampler_config_params(const struct sampler_config *c,
                           struct sampler_params *p)
{
    sampler_defaults(p);
    p->interval = (simtime)llround(c->interval_us * (double)SIMTIME_US);
    p->until = SIMTIME_MAX;
    p->nic = c->nic;
    p->rtr = c->rtr;
    if (c->nic_metrics.n) {
        p->nic_metrics = c->nic_metrics.v;
        p->n_nic_metrics = c->nic_metrics.n;
    }
    if (c->rtr_metrics.n) {
        p->rtr_metrics = c->rtr_metrics.v;
        p->n_rtr_metrics = c->rtr_metrics.n;
    }
}
