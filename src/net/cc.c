/* net/cc.c — the congestion-control registry, the controller "none" and
 * the endpoint-pair table (see cc.h). */
#include "net/cc.h"

#include <stdlib.h>

#include "net/net.h"

/* ---- none: no congestion control (Aries, Gemini) ------------------- */

static int none_init(void **st, struct net *n, char *err, size_t len)
{
    (void)n, (void)err, (void)len;
    *st = NULL;
    return 0;
}

static void none_free(void *st)
{
    (void)st;
}

static simtime none_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    (void)st, (void)src, (void)dst;
    return now;
}

static void none_packet(void *st, const struct packet *p, simtime now)
{
    (void)st, (void)p, (void)now;
}

const struct cc_ops cc_none = {
    .base = { "none", "no congestion control: a NIC sends while its "
                      "outstanding-request limit and credits allow (Aries, "
                      "Gemini); what ICS'21's tables measured as Cray's "
                      "static rate control (docs/congestion.md)" },
    .init = none_init,
    .free = none_free,
    .admit = none_admit,
    .sent = none_packet,
    .acked = none_packet,
};

static const struct reg_entry *const cc_entries[] = {
    &cc_none.base,
    &cc_slingshot.base,
    &cc_dcqcn.base,
    &cc_netscope.base,
    &cc_dcqcn_stall.base,
    &cc_cray.base,
};

const struct registry cc_registry = {
    .kind = "cc",
    .help = "congestion control at the NICs (network.congestion_control)",
    .entries = cc_entries,
    .n = sizeof cc_entries / sizeof cc_entries[0],
};

double cc_nic_line_rate(const struct net *n)
{
    if (n->t->n_nics == 0)
        return 1.0;
    /* full-size PUT requests, back to back, from a NIC alone on its
     * endpoint ports, each max_payload bytes; or its flit path, a header
     * flit and the data's NIC flits per packet, if slower */
    const struct net_params *p = &n->p;
    double pkts = net_nic_rate_alone(
                      n, 0, net_req_flits(p, NET_PUT, p->max_payload)) /
                  1e12; /* per ps */
    if (p->nic_flit_time) {
        uint32_t f = 1 + (p->max_payload + p->nic_flit_bytes - 1) /
                             p->nic_flit_bytes;
        double fr = 1.0 / ((double)f * (double)p->nic_flit_time);
        if (fr < pkts)
            pkts = fr;
    }
    return pkts * (double)p->max_payload;
}

simtime cc_nic_req_stall(const struct net *n, uint32_t nic, simtime now)
{
    return net_nic_stalled(&n->ct.nic[nic], PKT_REQ, now);
}

/* ---- the pair table ------------------------------------------------ */

static inline uint64_t pair_key(uint32_t src, uint32_t dst)
{
    return (uint64_t)src << 32 | dst;
}

/* A 64-bit mix (the finaliser of SplitMix64) spreading keys over slots. */
static inline uint32_t pair_slot(const struct cc_pairs *t, uint64_t k)
{
    k ^= k >> 30;
    k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27;
    k *= UINT64_C(0x94d049bb133111eb);
    k ^= k >> 31;
    return (uint32_t)k & (t->cap - 1);
}

int cc_pairs_init(struct cc_pairs *t, uint32_t cap)
{
    uint32_t c = 16;
    while (c < cap)
        c *= 2;
    t->e = malloc((size_t)c * sizeof *t->e);
    if (!t->e)
        return -1;
    for (uint32_t i = 0; i < c; i++)
        t->e[i].key = CC_PAIR_FREE;
    t->cap = c;
    t->n = 0;
    return 0;
}

void cc_pairs_free(struct cc_pairs *t)
{
    free(t->e);
    t->e = NULL;
    t->cap = t->n = 0;
}

struct cc_pair *cc_pairs_find(const struct cc_pairs *t, uint32_t src,
                              uint32_t dst)
{
    uint64_t k = pair_key(src, dst);
    for (uint32_t i = pair_slot(t, k);; i = (i + 1) & (t->cap - 1)) {
        if (t->e[i].key == k)
            return &t->e[i];
        if (t->e[i].key == CC_PAIR_FREE)
            return NULL;
    }
}

static int grow(struct cc_pairs *t)
{
    struct cc_pairs nt;
    if (cc_pairs_init(&nt, t->cap * 2) != 0)
        return -1;
    for (uint32_t i = 0; i < t->cap; i++) {
        if (t->e[i].key == CC_PAIR_FREE)
            continue;
        uint32_t j = pair_slot(&nt, t->e[i].key);
        while (nt.e[j].key != CC_PAIR_FREE)
            j = (j + 1) & (nt.cap - 1);
        nt.e[j] = t->e[i];
        nt.n++;
    }
    free(t->e);
    *t = nt;
    return 0;
}

struct cc_pair *cc_pairs_get(struct cc_pairs *t, uint32_t src, uint32_t dst,
                             uint32_t win)
{
    struct cc_pair *e = cc_pairs_find(t, src, dst);
    if (e)
        return e;
    if (2 * (t->n + 1) > t->cap && grow(t) != 0)
        return NULL;
    uint64_t k = pair_key(src, dst);
    uint32_t i = pair_slot(t, k);
    while (t->e[i].key != CC_PAIR_FREE)
        i = (i + 1) & (t->cap - 1);
    t->e[i] = (struct cc_pair){ .key = k, .win = win };
    t->n++;
    return &t->e[i];
}

void cc_pairs_del(struct cc_pairs *t, struct cc_pair *e)
{
    uint32_t mask = t->cap - 1, i = (uint32_t)(e - t->e);
    /* backward shift: move up every later entry of the run that would no
     * longer be found past the hole */
    for (uint32_t j = (i + 1) & mask; t->e[j].key != CC_PAIR_FREE;
         j = (j + 1) & mask) {
        uint32_t home = pair_slot(t, t->e[j].key);
        /* j's entry may fill hole i unless its home lies in (i, j] */
        bool stays = i <= j ? (home > i && home <= j)
                            : (home > i || home <= j);
        if (!stays) {
            t->e[i] = t->e[j];
            i = j;
        }
    }
    t->e[i].key = CC_PAIR_FREE;
    t->n--;
}
