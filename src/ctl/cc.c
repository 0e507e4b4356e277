/* ctl/cc.c — the rate controllers' registry, the controller "none", the
 * choice of a network's controllers and the endpoint-pair table (see
 * cc.h). */
#include "ctl/cc.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/route.h"

/* ---- none: no congestion control (Aries, Gemini) ------------------- */

/* No hooks: a network whose list is "none" runs no rate controller, and
 * its NICs send while their outstanding-request limit and credits allow. */
const struct nic_ctl cc_none = {
    .base = { "none", "no congestion control: a NIC sends while its "
                      "outstanding-request limit and credits allow (Aries, "
                      "Gemini); what ICS'21's tables measured as Cray's "
                      "static rate control (docs/congestion.md)" },
    .roles = NIC_CTL_RATE,
};

static const struct reg_entry *const cc_entries[] = {
#define RATE_CTL(x) &cc_##x.base,
#include "ctl/rate.def"
#undef RATE_CTL
};

const struct registry cc_registry = {
    .kind = "cc",
    .help = "congestion control at the NICs (network.congestion_control; "
            "several listed run together)",
    .entries = cc_entries,
    .n = sizeof cc_entries / sizeof cc_entries[0],
};

/* ---- a network's controllers --------------------------------------- */

size_t cc_parts(const struct net_part **out, size_t cap)
{
    return net_registry_parts(&cc_registry, offsetof(struct nic_ctl, part),
                              out, cap);
}

int cc_parts_add(struct net_params *p, const struct topo *t)
{
    return net_registry_parts_add(p, t, &cc_registry,
                                  offsetof(struct nic_ctl, part));
}

int cc_check_list(const struct nic_ctl *const *c, uint32_t n, char *err,
                  size_t len)
{
    for (uint32_t i = 0; i < n; i++) {
        /* "none" means no controller at all (Aries and Gemini NICs send while
         * their ORB and credits allow); listed beside another it would mean
         * nothing, so it is refused rather than ignored */
        if (c[i] == &cc_none && n > 1) {
            snprintf(err, len, "\"none\" cannot run beside other "
                     "controllers");
            return -1;
        }
        for (uint32_t k = 0; k < i; k++)
            if (c[k] == c[i]) {
                snprintf(err, len, "\"%s\" is listed twice",
                         c[i]->base.name);
                return -1;
            }
    }
    if (n > NET_MAX_CTLS) {
        snprintf(err, len, "%u controllers; at most %d run together", n,
                 NET_MAX_CTLS);
        return -1;
    }
    return 0;
}

int cc_set(struct net_params *p, const struct topo *t,
           const struct nic_ctl *const *names, uint32_t n, char *err,
           size_t len)
{
    p->n_cc = 0;
    if (cc_check_list(names, n, err, len) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const struct nic_ctl *c = names[i];
        if (c == &cc_none)
            continue;
        if (c->part && !net_part_block(p, c->part, t)) {
            snprintf(err, len, "no room for the parameters of %s "
                     "(NET_PART_STORE)", c->base.name);
            return -1;
        }
        p->cc[p->n_cc++] = c;
    }
    return 0;
}

void cc_net_defaults(struct net_params *p, const struct topo *t)
{
    route_net_defaults(p, t);
    int rc = cc_parts_add(p, t);
    const struct nic_ctl *c = (const struct nic_ctl *)registry_find(
        &cc_registry, t->family->congestion_control);
    char err[128];
    if (rc == 0 && c)
        rc = cc_set(p, t, &c, 1, err, sizeof err);
    /* the descriptors and NET_PART_STORE are tested (test_cc) */
    assert(rc == 0 && c);
    (void)rc;
}

const char *cc_name(const struct net_params *p, char *buf, size_t len)
{
    if (p->n_cc == 0) {
        snprintf(buf, len, "none");
        return buf;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < p->n_cc && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? "+" : "",
                         p->cc[i]->base.name);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return buf;
}

bool cc_reads_sensitivity(const struct nic_ctl *const *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (c[i]->sensitivity)
            return true;
    return false;
}

/* ---- the pair table ------------------------------------------------ */

/* Slingshot's control "tracks every in-flight packet between every pair
 * of endpoints" (SC'20 §II-D): a state per (source, destination) pair.
 * Only the pairs with something to remember are kept — packets in
 * flight, or a window or rate below the NIC's own — in an open-addressed
 * table, so that its size follows the pairs in play (an incast of N
 * sources: N entries), not the machine's N^2. */
static inline uint64_t pair_key(uint32_t src, uint32_t dst)
{
    return (uint64_t)src << 32 | dst;
}

/* A 64-bit mix (the finaliser of SplitMix64) of a key: its top bits
 * choose the segment, its low bits the slot. */
static inline uint64_t pair_hash(uint64_t k)
{
    k ^= k >> 30;
    k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27;
    k *= UINT64_C(0x94d049bb133111eb);
    k ^= k >> 31;
    return k;
}

_Static_assert((CC_PAIR_SEGS & (CC_PAIR_SEGS - 1)) == 0 &&
                   CC_PAIR_SEGS > 1 && CC_PAIR_SEGS <= 256,
               "segments: a power of two, from the hash's top 8 bits");
#define SEG_SHIFT (64 - __builtin_ctz(CC_PAIR_SEGS))

static inline struct cc_pair_seg *seg_of(const struct cc_pairs *t,
                                         uint64_t h)
{
    return (struct cc_pair_seg *)&t->seg[h >> SEG_SHIFT];
}

static inline uint32_t slot_of(const struct cc_pair_seg *g, uint64_t h)
{
    return (uint32_t)h & (g->cap - 1);
}

static int seg_init(struct cc_pair_seg *g, uint32_t cap)
{
    uint32_t c = 16;
    while (c < cap)
        c *= 2;
    g->e = malloc((size_t)c * sizeof *g->e);
    if (!g->e)
        return -1;
    for (uint32_t i = 0; i < c; i++)
        g->e[i].key = CC_PAIR_FREE;
    g->cap = c;
    g->n = 0;
    return 0;
}

int cc_pairs_init(struct cc_pairs *t, uint32_t cap)
{
    memset(t, 0, sizeof *t);
    for (uint32_t s = 0; s < CC_PAIR_SEGS; s++)
        if (seg_init(&t->seg[s], cap / CC_PAIR_SEGS) != 0) {
            cc_pairs_free(t);
            return -1;
        }
    return 0;
}

void cc_pairs_free(struct cc_pairs *t)
{
    for (uint32_t s = 0; s < CC_PAIR_SEGS; s++)
        free(t->seg[s].e);
    memset(t, 0, sizeof *t);
}

struct cc_pair *cc_pairs_find(const struct cc_pairs *t, uint32_t src,
                              uint32_t dst)
{
    uint64_t k = pair_key(src, dst), h = pair_hash(k);
    const struct cc_pair_seg *g = seg_of(t, h);
    for (uint32_t i = slot_of(g, h);; i = (i + 1) & (g->cap - 1)) {
        if (g->e[i].key == k)
            return &g->e[i];
        if (g->e[i].key == CC_PAIR_FREE)
            return NULL;
    }
}

/* Segment g doubled: its entries placed again in an array twice as big
 * (the others untouched). */
static int grow(struct cc_pair_seg *g)
{
    struct cc_pair_seg ng;
    if (seg_init(&ng, g->cap * 2) != 0)
        return -1;
    for (uint32_t i = 0; i < g->cap; i++) {
        if (g->e[i].key == CC_PAIR_FREE)
            continue;
        uint32_t j = slot_of(&ng, pair_hash(g->e[i].key));
        while (ng.e[j].key != CC_PAIR_FREE)
            j = (j + 1) & (ng.cap - 1);
        ng.e[j] = g->e[i];
        ng.n++;
    }
    free(g->e);
    *g = ng;
    return 0;
}

struct cc_pair *cc_pairs_get(struct cc_pairs *t, uint32_t src, uint32_t dst,
                             uint32_t win)
{
    struct cc_pair *e = cc_pairs_find(t, src, dst);
    if (e)
        return e;
    uint64_t k = pair_key(src, dst), h = pair_hash(k);
    struct cc_pair_seg *g = seg_of(t, h);
    /* kept at most half full: linear probing's runs stay short */
    if (2 * (g->n + 1) > g->cap && grow(g) != 0)
        return NULL;
    uint32_t i = slot_of(g, h);
    while (g->e[i].key != CC_PAIR_FREE)
        i = (i + 1) & (g->cap - 1);
    g->e[i] = (struct cc_pair){ .key = k, .win = win };
    g->n++;
    t->n++;
    return &g->e[i];
}

void cc_pairs_del(struct cc_pairs *t, struct cc_pair *e)
{
    struct cc_pair_seg *g = seg_of(t, pair_hash(e->key));
    uint32_t mask = g->cap - 1, i = (uint32_t)(e - g->e);
    /* backward shift: move up every later entry of the run that would no
     * longer be found past the hole */
    for (uint32_t j = (i + 1) & mask; g->e[j].key != CC_PAIR_FREE;
         j = (j + 1) & mask) {
        uint32_t home = slot_of(g, pair_hash(g->e[j].key));
        /* j's entry may fill hole i unless its home lies in (i, j] */
        bool stays = i <= j ? (home > i && home <= j)
                            : (home > i || home <= j);
        if (!stays) {
            g->e[i] = g->e[j];
            i = j;
        }
    }
    g->e[i].key = CC_PAIR_FREE;
    g->n--;
    t->n--;
}
