/* net/counters.c — counter names, units and contexts (see counters.h).
 *
 * A family's counters are two small tables of name patterns: one for the
 * NIC, one per kind of tile. A pattern may hold one VC number, written
 * "%v" (repeated for the Aries filter counters, whose two numbers must
 * agree). Lookup matches a name against the patterns; listing expands
 * them. Nothing here runs during the simulation.
 */
#include "net/counters.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/time.h"
#include "topo/topo.h"

enum vc_use {
    VC_NONE,  /* no VC in the name */
    VC_EACH,  /* one counter per VC: %v is the VC */
    VC_CLASS, /* the sum over a class's VCs: %v is the class's first VC */
};

struct ctr_def {
    const char *pat;
    uint8_t reg, cls, vc;
};

/* ---- the catalogue ------------------------------------------------- */

/* Aries NIC counters: the names the SC'19 library reads through PAPI
 * (repo:DanieleDeSensi/awr awr.c: REQ_FLITS, REQ_STALLED, RSP_NET_TRACK,
 * RSP_TRACK_2, RSP_STALLED) and the rest of their block in gpcd's list
 * (repo:ovis-hpc/gpcd gpcd_lib_ari_names.h; our reference notes §3.1).
 * REQ_* are the ORB's outbound requests, RSP_* the responses coming back
 * to it (counters.h); RSP_PKTS counts those responses, as RSP_NET_TRACK
 * does. */
static const struct ctr_def aries_nic[] = {
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS", CTR_NIC_FLITS, 0, 0 },
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED", CTR_NIC_STALLED, 0, 0 },
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS", CTR_NIC_PKTS, 0, 0 },
    /* the ORB's inbound side: the responses to this NIC's requests */
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_FLITS", CTR_NIC_RSP_IN_FLITS, 0, 0 },
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_PKTS", CTR_NIC_NET_TRACK, 0, 0 },
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_STALLED", CTR_NIC_RSP_IN_STALLED, 0,
      0 },
    { "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_NET_TRACK", CTR_NIC_NET_TRACK, 0,
      0 },
    { "AR_NIC_ORB_PRF_NET_RSP_TRACK_1", CTR_NIC_TRACK_ALL, 0, 0 },
    { "AR_NIC_ORB_PRF_NET_RSP_TRACK_2", CTR_NIC_TRACK_NET, 0, 0 },
    { "AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_PKTS", CTR_NIC_PI_PKTS, 0, 0 },
    { "AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_FLITS", CTR_NIC_PI_FLITS, 0, 0 },
    { "AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_STALLED", CTR_NIC_PI_STALLED, 0,
      0 },
};

/* Aries network tiles (rows 0-4), registers of gpcd's ar_nt_mmrs_h.h
 * (named AR_RTR_<row>_<col>_<reg>, as LDMS's aries_rtr_mmr metric sets
 * and repo:LLNL/ariesncl list them): 8 VCs per tile, requests on
 * 0-3 and responses on 4-7 (the white paper's "four VCs for requests and
 * four for responses"). The FILTER counters are what Cray's gpcdr sums
 * as a tile's "stalled"; what they count "depends on configuration in
 * use for congestion monitoring" (gpcdr-init_split.conf): here the
 * routed packets' wait in the input queue, as on Gemini (counters.h). */
static const struct ctr_def aries_ntile[] = {
    { "INQ_PRF_INCOMING_FLIT_VC%v", CTR_TILE_IN_FLITS, 0, VC_EACH },
    { "INQ_PRF_INCOMING_PKT_VC%v_FILTER_FLIT%v_CNT", CTR_TILE_VC_STALL, 0,
      VC_EACH },
    { "INQ_PRF_ROWBUS_STALL_CNT", CTR_TILE_IN_STALL, 0, VC_NONE },
    { "COLBUF_PERF_STALL_RQ", CTR_TILE_CR_STALL, 0, VC_NONE },
    { "COLBUF_PERF_STALL_RS", CTR_TILE_CR_STALL, 1, VC_NONE },
};

/* Aries processor tiles (row 5): the public lists (repo:LLNL/ariesncl,
 * LDMS's metric sets) name only VC0 and VC4 of their incoming flits and
 * a request and a response row-bus stall; read as the request and the
 * response class, each summed over its VCs (inferred: VC0-3 requests,
 * VC4-7 responses, not documented in what we read). */
static const struct ctr_def aries_ptile[] = {
    { "INQ_PRF_INCOMING_FLIT_VC%v", CTR_TILE_IN_FLITS, 0, VC_CLASS },
    { "INQ_PRF_INCOMING_FLIT_VC%v", CTR_TILE_IN_FLITS, 1, VC_CLASS },
    { "INQ_PRF_REQ_ROWBUS_STALL_CNT", CTR_TILE_VC_STALL, 0, VC_CLASS },
    { "INQ_PRF_RSP_ROWBUS_STALL_CNT", CTR_TILE_VC_STALL, 1, VC_CLASS },
};

/* Gemini's NIC (gpcd_lib_gem_names.h): VC0 the requests the ORB sends,
 * VC1 the responses coming back to it, read as on Aries
 * (docs/counters.md, "The ORB's two directions"). */
static const struct ctr_def gemini_nic[] = {
    { "GM_ORB_PERF_VC0_FLITS", CTR_NIC_FLITS, 0, 0 },
    { "GM_ORB_PERF_VC0_PKTS", CTR_NIC_PKTS, 0, 0 },
    { "GM_ORB_PERF_VC0_STALLED", CTR_NIC_STALLED, 0, 0 },
    /* VC1: the responses coming back to the ORB, as on Aries */
    { "GM_ORB_PERF_VC1_FLITS", CTR_NIC_RSP_IN_FLITS, 0, 0 },
    { "GM_ORB_PERF_VC1_PKTS", CTR_NIC_NET_TRACK, 0, 0 },
    { "GM_ORB_PERF_VC1_STALLED", CTR_NIC_RSP_IN_STALLED, 0, 0 },
};

/* Pedretti et al. Table I, in counter order 0..5; the gpcd name is
 * GM_<r>_<c>_TILE_PERFORMANCE_COUNTERS_<k>, the documented one
 * GM_TILE_PERF_<doc>:<r>:<c>. */
static const struct ctr_def gemini_tile[] = {
    { "VC0_PHIT_CNT", CTR_TILE_IN_FLITS, 0, VC_CLASS },
    { "VC1_PHIT_CNT", CTR_TILE_IN_FLITS, 1, VC_CLASS },
    { "VC0_PKT_CNT", CTR_TILE_IN_PKTS, 0, VC_CLASS },
    { "VC1_PKT_CNT", CTR_TILE_IN_PKTS, 1, VC_CLASS },
    { "INQ_STALL", CTR_TILE_IN_STALL, 0, VC_NONE },
    { "CREDIT_STALL", CTR_TILE_CR_STALL, 2, VC_NONE },
};

/* The generic dragonfly's NIC: dfsim's names for the same meanings, the
 * responses a NIC sends counted apart (cls 1). */
static const struct ctr_def generic_nic[] = {
    { "NIC_REQ_FLITS", CTR_NIC_FLITS, 0, 0 },
    { "NIC_REQ_PKTS", CTR_NIC_PKTS, 0, 0 },
    { "NIC_REQ_STALLED", CTR_NIC_STALLED, 0, 0 },
    { "NIC_RSP_FLITS", CTR_NIC_FLITS, 1, 0 },
    { "NIC_RSP_PKTS", CTR_NIC_PKTS, 1, 0 },
    { "NIC_RSP_STALLED", CTR_NIC_STALLED, 1, 0 },
    { "NIC_RSP_NET_TRACK", CTR_NIC_NET_TRACK, 0, 0 },
    { "NIC_RSP_TRACK_NET", CTR_NIC_TRACK_NET, 0, 0 },
    { "NIC_RSP_TRACK_ALL", CTR_NIC_TRACK_ALL, 0, 0 },
    { "NIC_PI_PKTS", CTR_NIC_PI_PKTS, 0, 0 },
    { "NIC_PI_FLITS", CTR_NIC_PI_FLITS, 0, 0 },
};

/* Slingshot's Cassini NIC: the public names of HPE's counter list
 * (HewlettPackard/shs-cassini-headers, include/cassini_cntr_desc.h, whose
 * descriptions these follow) where one counts exactly what the model's
 * counter counts; dfsim's names for the rest (Cassini has no public
 * counter of request or response flits, nor a summed request-response
 * latency: pct_req_rsp_latency_* is a histogram of unpublished bins).
 *   pct_ptls_response       "Number of Portals response packets sent to
 *                           HNI from OXE"
 *   pct_responses_received  "Number of response packets received"
 *   parbs_tarb_pi_posted_blocked_cnt  "cycles in which the TARB was
 *                           blocked waiting for posted credits to send to
 *                           the PI" (host back-pressure on writes: 0, the
 *                           model's host sinks at line rate)
 * Cassini counts cycles of its 1 GHz clock (shs-cxi-driver cass_core.h
 * C1_CLK_FREQ_HZ). The Rosetta switch's counters are not public: its
 * ports keep dfsim's names (generic_port). */
static const struct ctr_def cassini_nic[] = {
    { "NIC_REQ_FLITS", CTR_NIC_FLITS, 0, 0 },
    { "NIC_REQ_PKTS", CTR_NIC_PKTS, 0, 0 },
    { "NIC_REQ_STALLED", CTR_NIC_STALLED, 0, 0 },
    { "NIC_RSP_FLITS", CTR_NIC_FLITS, 1, 0 },
    { "pct_ptls_response", CTR_NIC_PKTS, 1, 0 },
    { "NIC_RSP_STALLED", CTR_NIC_STALLED, 1, 0 },
    { "pct_responses_received", CTR_NIC_NET_TRACK, 0, 0 },
    { "NIC_RSP_TRACK_NET", CTR_NIC_TRACK_NET, 0, 0 },
    { "NIC_RSP_TRACK_ALL", CTR_NIC_TRACK_ALL, 0, 0 },
    { "NIC_PI_PKTS", CTR_NIC_PI_PKTS, 0, 0 },
    { "NIC_PI_FLITS", CTR_NIC_PI_FLITS, 0, 0 },
    { "parbs_tarb_pi_posted_blocked_cnt", CTR_NIC_PI_STALLED, 0, 0 },
};

/* Slingshot and generic router ports (dfsim's names): flits arriving per
 * VC, flits and packets sent per class, input-queue and credit stalls,
 * as the Gemini tile counts them. */
static const struct ctr_def generic_port[] = {
    { "RX_FLITS_VC%v", CTR_TILE_IN_FLITS, 0, VC_EACH },
    { "RX_PKTS_VC%v", CTR_TILE_IN_PKTS, 0, VC_EACH },
    { "TX_FLITS_REQ", CTR_TILE_OUT_FLITS, 0, VC_NONE },
    { "TX_FLITS_RSP", CTR_TILE_OUT_FLITS, 1, VC_NONE },
    { "TX_PKTS_REQ", CTR_TILE_OUT_PKTS, 0, VC_NONE },
    { "TX_PKTS_RSP", CTR_TILE_OUT_PKTS, 1, VC_NONE },
    { "INQ_STALL", CTR_TILE_IN_STALL, 0, VC_NONE },
    { "CREDIT_STALL_REQ", CTR_TILE_CR_STALL, 0, VC_NONE },
    { "CREDIT_STALL_RSP", CTR_TILE_CR_STALL, 1, VC_NONE },
};

#define DEFS(a) a, sizeof a / sizeof a[0]

/* A family's counter set (struct topo_family.counters names it): its
 * names, their clock and units, and how tile counters are named. */
struct ctr_set {
    const char *name;
    uint64_t hz;               /* stall and latency counters count cycles
                                  of this clock */
    const char *cycles_unit, *tile_flit_unit, *nic_flit_unit;
    const struct ctr_def *nic; /* the NIC's counters */
    size_t n_nic;
    /* the tile counter `name` of router `router`: 0 and *r, or -1 */
    int (*find_tile)(const struct net *n, uint32_t router, const char *name,
                     struct ctr_ref *r);
    /* every counter name of tile `tile` (port p), each to fn; how many */
    size_t (*tile_names)(const struct net *n, uint32_t tile, uint32_t p,
                         void (*fn)(void *, const char *,
                                    const struct ctr_ref *),
                         void *ctx);
};

static const struct ctr_set *ctr_set_of(const struct net *n);

/* ---- values -------------------------------------------------------- */

/* A waiting time kept as net.h says: closed intervals minus the open
 * one's start, so `now` is added back while it is open. */
static simtime open_time(simtime acc, bool open, simtime now)
{
    return acc + (open ? now : 0);
}

uint64_t ctr_value(const struct net *n, const struct ctr_ref *r)
{
    const struct net_count *k = &n->ct;
    simtime now = n->s->now;
    uint64_t hz = ctr_set_of(n)->hz;
    /* Stall and latency counts are kept as exact times (ps) and converted to
     * the family's counter clock only here, at the read: cycles of 800 MHz
     * on Aries and Gemini (Cray's gpcdr turns a count into 1.25 ns), 1 GHz
     * on Slingshot's Cassini. */
    if (r->reg < CTR_TILE_IN_FLITS) {
        const struct net_nic_count *c = &k->nic[r->obj];
        switch ((enum ctr_reg)r->reg) {
        case CTR_NIC_FLITS:
            return c->flits[r->cls];
        case CTR_NIC_PKTS:
            return c->pkts[r->cls];
        case CTR_NIC_STALLED:
            return time_to_cycles(net_nic_stalled(c, r->cls, now), hz);
        case CTR_NIC_NET_TRACK:
            return c->net_track;
        case CTR_NIC_TRACK_NET:
            return time_to_cycles(c->track_net, hz);
        case CTR_NIC_TRACK_ALL:
            return time_to_cycles(c->track_all, hz);
        case CTR_NIC_PI_PKTS:
            return c->pi_pkts;
        case CTR_NIC_PI_FLITS:
            return c->pi_flits;
        case CTR_NIC_RSP_IN_FLITS:
            return c->rsp_in_flits;
        default:
            /* CTR_NIC_PI_STALLED, CTR_NIC_RSP_IN_STALLED: the model's
             * NIC sinks what arrives at line rate (net.h) */
            return 0;
        }
    }
    uint32_t p = r->obj;
    uint64_t sum = 0;
    switch ((enum ctr_reg)r->reg) {
    case CTR_TILE_IN_FLITS:
        for (uint32_t v = r->vc_lo; v < r->vc_hi; v++)
            sum += net_ivc_count(net_ivc_at(n, p, v))->flits;
        return sum;
    case CTR_TILE_IN_PKTS:
        for (uint32_t v = r->vc_lo; v < r->vc_hi; v++)
            sum += net_ivc_count(net_ivc_at(n, p, v))->pkts;
        return sum;
    case CTR_TILE_VC_STALL:
        for (uint32_t v = r->vc_lo; v < r->vc_hi; v++) {
            const struct net_vc_count *cv =
                net_ivc_count(net_ivc_at(n, p, v));
            sum += open_time(cv->stall, cv->nwait > 0, now);
        }
        return time_to_cycles(sum, hz);
    /* the union over the tile's VCs: counted while any routed packet
     * waits, not once per waiting VC (INQ_PRF_ROWBUS_STALL_CNT, Gemini's
     * INQ_STALL) */
    case CTR_TILE_IN_STALL:
        return time_to_cycles(
            open_time(n->in[p].stall, n->in[p].nwait > 0, now), hz);
    /* the output idle while a packet of the class (2: of either) lacks
     * downstream credits (COLBUF_PERF_STALL_RQ/_RS; Gemini's CREDIT_STALL,
     * "output stall cycles", CUG'13 Table I) */
    case CTR_TILE_CR_STALL: {
        return time_to_cycles(
            open_time(k->out[p].cr_stall[r->cls],
                      (n->out[p].cr_open >> r->cls) & 1u, now),
            hz);
    }
    case CTR_TILE_OUT_FLITS:
        return k->out[p].flits[r->cls];
    case CTR_TILE_OUT_PKTS:
        return k->out[p].pkts[r->cls];
    default:
        return 0;
    }
}

/* ---- names --------------------------------------------------------- */

/* Match `s` against pattern `pat`; each "%v" reads a decimal number, and
 * all must be equal (*v gets it; -1 if the pattern has none). */
static bool match(const char *pat, const char *s, long *v)
{
    *v = -1;
    while (*pat) {
        if (pat[0] == '%' && pat[1] == 'v') {
            if (*s < '0' || *s > '9')
                return false;
            char *end;
            long x = strtol(s, &end, 10);
            if (*v >= 0 && x != *v)
                return false;
            *v = x;
            s = end;
            pat += 2;
            continue;
        }
        if (*pat++ != *s++)
            return false;
    }
    return *s == '\0';
}

/* The VC range a definition selects for VC number v, or false. */
static bool def_vcs(const struct net *n, const struct ctr_def *d, long v,
                    struct ctr_ref *r)
{
    uint32_t vcs = n->p.vcs;
    switch ((enum vc_use)d->vc) {
    case VC_NONE:
        r->vc_lo = 0, r->vc_hi = (uint8_t)n->V;
        return v < 0;
    case VC_EACH:
        if (v < 0 || v >= (long)n->V)
            return false;
        r->vc_lo = (uint8_t)v, r->vc_hi = (uint8_t)(v + 1);
        return true;
    /* a register that counts a packet class as one (Gemini's VC0 for
     * requests, VC1 for responses; Aries's processor tiles): the sum over
     * that class's VCs of the model */
    case VC_CLASS:
        if (v >= 0 && v != (long)(d->cls * vcs))
            return false;
        r->vc_lo = (uint8_t)(d->cls * vcs);
        r->vc_hi = (uint8_t)((d->cls + 1) * vcs);
        return true;
    }
    return false;
}

static bool find_def(const struct net *n, const struct ctr_def *defs,
                     size_t k, const char *s, uint32_t obj,
                     struct ctr_ref *r)
{
    for (size_t i = 0; i < k; i++) {
        long v;
        if (!match(defs[i].pat, s, &v))
            continue;
        *r = (struct ctr_ref){ .reg = defs[i].reg, .cls = defs[i].cls,
                               .obj = obj };
        if (def_vcs(n, &defs[i], v, r))
            return true;
    }
    return false;
}

/* The port of router `router` with tile number `tile`, or TOPO_NONE. */
static uint32_t tile_port(const struct net *n, uint32_t router, long tile)
{
    const struct topo_router *tr = &n->t->routers[router];
    for (uint32_t i = 0; i < tr->n_ports; i++)
        if (n->t->ports[tr->first_port + i].index == tile)
            return tr->first_port + i;
    return TOPO_NONE;
}

int ctr_ref_rebind(const struct net *n, struct ctr_ref *r, uint32_t router)
{
    assert(r->reg >= CTR_TILE_IN_FLITS && r->reg < CTR_REG_COUNT);
    uint32_t p = tile_port(n, router, n->t->ports[r->obj].index);
    if (p == TOPO_NONE)
        return -1;
    r->obj = p;
    return 0;
}

/* Read "<num>_" or "<num>:" at *s; -1 if absent. */
static long number(const char **s, char sep)
{
    if (**s < '0' || **s > '9')
        return -1;
    char *end;
    long x = strtol(*s, &end, 10);
    if (*end != sep && !(sep == '\0' && *end == '\0'))
        return -1;
    *s = end + (*end ? 1 : 0);
    return x;
}

/* Aries: network tiles AR_RTR_<row>_<col>_ (rows 0..4), processor tiles
 * AR_RTR_PT_5_<col>_ (tiles 40..47). */
static int aries_find_tile(const struct net *n, uint32_t router,
                           const char *name, struct ctr_ref *r)
{
    const char *s = name;
    long row, col;
    /* processor tiles: row 5 of the 6 x 8 matrix, tiles 40-47 (the NICs'
     * ports: topo/aries.c) */
    if (strncmp(s, "AR_RTR_PT_5_", 12) == 0) {
        s += 12;
        if ((col = number(&s, '_')) < 0 || col >= 8)
            return -1;
        uint32_t p = tile_port(n, router, 40 + col);
        return p != TOPO_NONE && find_def(n, DEFS(aries_ptile), s, p, r)
                   ? 0
                   : -1;
    }
    if (strncmp(s, "AR_RTR_", 7) != 0)
        return -1;
    s += 7;
    if ((row = number(&s, '_')) < 0 || row >= 5 ||
        (col = number(&s, '_')) < 0 || col >= 8)
        return -1;
    uint32_t p = tile_port(n, router, row * 8 + col);
    return p != TOPO_NONE && find_def(n, DEFS(aries_ntile), s, p, r) ? 0
                                                                       : -1;
}

/* Gemini: the documented GM_TILE_PERF_<doc>:<row>:<col> or gpcd's
 * GM_<row>_<col>_TILE_PERFORMANCE_COUNTERS_<k>. */
static int gemini_find_tile(const struct net *n, uint32_t router,
                            const char *name, struct ctr_ref *r)
{
    const char *s = name;
    long row, col;
    size_t which = SIZE_MAX;
    if (strncmp(s, "GM_TILE_PERF_", 13) == 0) {
        s += 13;
        const char *colon = strchr(s, ':');
        if (!colon)
            return -1;
        for (size_t i = 0; i < 6; i++)
            if (strlen(gemini_tile[i].pat) == (size_t)(colon - s) &&
                strncmp(gemini_tile[i].pat, s, (size_t)(colon - s)) == 0)
                which = i;
        s = colon + 1;
        if ((row = number(&s, ':')) < 0 || (col = number(&s, '\0')) < 0)
            return -1;
    } else if (strncmp(s, "GM_", 3) == 0) {
        s += 3;
        if ((row = number(&s, '_')) < 0 || (col = number(&s, '_')) < 0 ||
            strncmp(s, "TILE_PERFORMANCE_COUNTERS_", 26) != 0)
            return -1;
        s += 26;
        long k = number(&s, '\0');
        if (k < 0 || k > 5)
            return -1;
        which = (size_t)k;
    } else {
        return -1;
    }
    if (which == SIZE_MAX || row >= 6 || col >= 8)
        return -1;
    uint32_t p = tile_port(n, router, row * 8 + col);
    if (p == TOPO_NONE)
        return -1;
    *r = (struct ctr_ref){ .reg = gemini_tile[which].reg,
                           .cls = gemini_tile[which].cls, .obj = p };
    return def_vcs(n, &gemini_tile[which], -1, r) ? 0 : -1;
}

/* Slingshot switches and generic routers: PORT_<port>_ (dfsim's names). */
static int generic_find_tile(const struct net *n, uint32_t router,
                             const char *name, struct ctr_ref *r)
{
    const char *s = name;
    if (strncmp(s, "PORT_", 5) != 0)
        return -1;
    s += 5;
    long port = number(&s, '_');
    if (port < 0)
        return -1;
    uint32_t p = tile_port(n, router, port);
    return p != TOPO_NONE && find_def(n, DEFS(generic_port), s, p, r) ? 0
                                                                        : -1;
}

int ctr_find(const struct net *n, uint32_t router, uint32_t nic,
             const char *name, struct ctr_ref *ref)
{
    if (!n->ct.nic || router >= n->n_routers)
        return -1;
    const struct ctr_set *set = ctr_set_of(n);
    if (nic != TOPO_NONE && find_def(n, set->nic, set->n_nic, name, nic, ref))
        return 0;
    return set->find_tile(n, router, name, ref);
}

/* Expand a definition's name(s) for one object, with prefix. */
static size_t expand(const struct net *n, const struct ctr_def *d,
                     const char *prefix, uint32_t obj,
                     void (*fn)(void *, const char *, const struct ctr_ref *),
                     void *ctx)
{
    char buf[160];
    uint32_t lo = 0, hi = 1;
    if (d->vc == VC_EACH)
        hi = n->V;
    else if (d->vc == VC_CLASS)
        lo = d->cls * n->p.vcs, hi = lo + 1;
    size_t count = 0;
    for (uint32_t v = lo; v < hi; v++) {
        size_t len = (size_t)snprintf(buf, sizeof buf, "%s", prefix);
        for (const char *p = d->pat; *p && len + 4 < sizeof buf; p++) {
            if (p[0] == '%' && p[1] == 'v') {
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%u", v);
                p++;
            } else {
                buf[len++] = *p;
            }
        }
        buf[len] = '\0';
        struct ctr_ref r = { .reg = d->reg, .cls = d->cls, .obj = obj };
        def_vcs(n, d, d->vc == VC_NONE ? -1 : (long)v, &r);
        fn(ctx, buf, &r);
        count++;
    }
    return count;
}

/* The tile names of the sets (struct ctr_set.tile_names). */
static size_t aries_tile_names(const struct net *n, uint32_t tile,
                               uint32_t p,
                               void (*fn)(void *, const char *,
                                          const struct ctr_ref *),
                               void *ctx)
{
    char prefix[48];
    const struct ctr_def *d;
    size_t k, count = 0;
    if (tile >= 40) {
        snprintf(prefix, sizeof prefix, "AR_RTR_PT_5_%u_", tile - 40);
        d = aries_ptile, k = sizeof aries_ptile / sizeof *d;
    } else {
        snprintf(prefix, sizeof prefix, "AR_RTR_%u_%u_", tile / 8, tile % 8);
        d = aries_ntile, k = sizeof aries_ntile / sizeof *d;
    }
    for (size_t i = 0; i < k; i++)
        count += expand(n, &d[i], prefix, p, fn, ctx);
    return count;
}

static size_t gemini_tile_names(const struct net *n, uint32_t tile,
                                uint32_t p,
                                void (*fn)(void *, const char *,
                                           const struct ctr_ref *),
                                void *ctx)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "GM_%u_%u_", tile / 8, tile % 8);
    for (size_t i = 0; i < 6; i++) {
        char nm[112];
        snprintf(nm, sizeof nm, "%sTILE_PERFORMANCE_COUNTERS_%zu", prefix, i);
        struct ctr_ref r = { .reg = gemini_tile[i].reg,
                             .cls = gemini_tile[i].cls, .obj = p };
        def_vcs(n, &gemini_tile[i], -1, &r);
        fn(ctx, nm, &r);
    }
    return 6;
}

static size_t generic_tile_names(const struct net *n, uint32_t tile,
                                 uint32_t p,
                                 void (*fn)(void *, const char *,
                                            const struct ctr_ref *),
                                 void *ctx)
{
    char prefix[48];
    size_t count = 0;
    snprintf(prefix, sizeof prefix, "PORT_%u_", tile);
    for (size_t i = 0; i < sizeof generic_port / sizeof *generic_port; i++)
        count += expand(n, &generic_port[i], prefix, p, fn, ctx);
    return count;
}

/* The sets, by the name a family's descriptor gives. Aries and Gemini
 * count 800 MHz cycles (the NIC clock; Cray's gpcdr converts tile stalls
 * at 1.25 ns per count); the others count nanoseconds. */
static const struct ctr_set ctr_sets[] = {
    { "aries", TIME_HZ_ARIES_NIC, "cycles (800 MHz)", "flits",
      "NIC flits (16 B)", DEFS(aries_nic), aries_find_tile,
      aries_tile_names },
    { "gemini", TIME_HZ_GEMINI, "cycles (800 MHz)", "phits (3 B)",
      "NIC flits (16 B)", DEFS(gemini_nic), gemini_find_tile,
      gemini_tile_names },
    { "rosetta", UINT64_C(1000000000), "cycles (1 GHz)", "bytes", "flits",
      DEFS(cassini_nic), generic_find_tile, generic_tile_names },
    { "generic", UINT64_C(1000000000), "ns", "flits", "flits",
      DEFS(generic_nic), generic_find_tile, generic_tile_names },
};

static const struct ctr_set *ctr_set_of(const struct net *n)
{
    const char *name = n->t->family->counters;
    for (size_t i = 0; i < sizeof ctr_sets / sizeof ctr_sets[0]; i++)
        if (strcmp(ctr_sets[i].name, name) == 0)
            return &ctr_sets[i];
    assert(!"a family names a counter set of ctr_sets");
    return &ctr_sets[sizeof ctr_sets / sizeof ctr_sets[0] - 1];
}

uint64_t ctr_hz(const struct net *n)
{
    return ctr_set_of(n)->hz;
}

double ctr_cycle_s(const struct net *n)
{
    return 1.0 / (double)ctr_set_of(n)->hz;
}

int ctr_nic_ref_or_zero(const struct net *n, uint32_t nic,
                        enum ctr_reg reg, uint8_t cls, struct ctr_ref *ref)
{
    if (ctr_nic_ref(n, nic, reg, cls, ref) == 0)
        return 0;
    if (!n->ct.nic || nic >= n->n_nics || reg != CTR_NIC_RSP_IN_STALLED)
        return -1;
    *ref = (struct ctr_ref){ .reg = (uint8_t)reg, .cls = cls, .vc_lo = 0,
                             .vc_hi = (uint8_t)n->V, .obj = nic };
    return 0;
}

int ctr_nic_ref(const struct net *n, uint32_t nic, enum ctr_reg reg,
                uint8_t cls, struct ctr_ref *ref)
{
    /* a controller asks for a meaning, not a name, so that it runs on any
     * family whose NICs count that meaning (ctl/awr.c written for Aries
     * runs on Slingshot's Cassini names); a meaning no name of the family
     * counts is refused */
    if (!n->ct.nic || nic >= n->n_nics || reg >= CTR_TILE_IN_FLITS)
        return -1;
    /* only what the family's NICs count: a meaning its table names */
    const struct ctr_set *set = ctr_set_of(n);
    bool named = false;
    for (size_t i = 0; i < set->n_nic && !named; i++)
        named = set->nic[i].reg == reg && set->nic[i].cls == cls;
    if (!named)
        return -1;
    *ref = (struct ctr_ref){ .reg = (uint8_t)reg, .cls = cls, .vc_lo = 0,
                             .vc_hi = (uint8_t)n->V, .obj = nic };
    return 0;
}

size_t ctr_names(const struct net *n, uint32_t router, uint32_t nic,
                 bool nic_counters, bool tile_counters,
                 void (*fn)(void *ctx, const char *name,
                            const struct ctr_ref *ref),
                 void *ctx)
{
    const struct ctr_set *set = ctr_set_of(n);
    size_t count = 0;
    if (nic_counters && nic != TOPO_NONE)
        for (size_t i = 0; i < set->n_nic; i++)
            count += expand(n, &set->nic[i], "", nic, fn, ctx);
    if (!tile_counters)
        return count;
    const struct topo_router *tr = &n->t->routers[router];
    uint32_t last = 0; /* highest tile number */
    for (uint32_t i = 0; i < tr->n_ports; i++)
        if (n->t->ports[tr->first_port + i].index > last)
            last = n->t->ports[tr->first_port + i].index;
    for (uint32_t tile = 0; tile <= last; tile++) { /* in tile order */
        uint32_t p = tile_port(n, router, tile);
        if (p == TOPO_NONE || n->t->ports[p].kind == PORT_UNUSED)
            continue;
        count += set->tile_names(n, tile, p, fn, ctx);
    }
    return count;
}

/* ---- contexts ------------------------------------------------------ */

int ctr_ctx_init(struct ctr_ctx *c, const struct net *n)
{
    memset(c, 0, sizeof *c);
    c->net = n;
    return n->ct.nic ? 0 : -1;
}

int ctr_ctx_init_job(struct ctr_ctx *c, const struct net *n,
                     const uint32_t *nodes, size_t count)
{
    if (ctr_ctx_init(c, n) != 0)
        return -1;
    /* "users can only access counters on the NICs and tiles associated with
     * their jobs" (SC'19 §2.3): a job's context may read the routers its
     * nodes' NICs attach to, and no other */
    c->allowed = calloc(n->n_routers ? n->n_routers : 1, 1);
    if (!c->allowed)
        return -1;
    for (size_t i = 0; i < count; i++) {
        const struct topo_node *tn = &n->t->nodes[nodes[i]];
        for (uint32_t k = 0; k < tn->n_nics; k++)
            c->allowed[n->t->nics[tn->nic[k]].router] = 1;
    }
    return 0;
}

void ctr_ctx_free(struct ctr_ctx *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->name[i]);
    free(c->name);
    free(c->ref);
    free(c->val);
    free(c->prev);
    free(c->allowed);
    memset(c, 0, sizeof *c);
}

static int ctx_push(struct ctr_ctx *c, const char *name,
                    const struct ctr_ref *r)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct ctr_ref *ref = realloc(c->ref, cap * sizeof *ref);
        if (!ref)
            return -1;
        c->ref = ref;
        char **nm = realloc(c->name, cap * sizeof *nm);
        if (!nm)
            return -1;
        c->name = nm;
        uint64_t *v = realloc(c->val, cap * sizeof *v);
        if (!v)
            return -1;
        c->val = v;
        v = realloc(c->prev, cap * sizeof *v);
        if (!v)
            return -1;
        c->prev = v;
        c->cap = cap;
    }
    size_t len = strlen(name) + 1;
    char *copy = malloc(len);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    c->name[c->n] = copy;
    c->ref[c->n] = *r;
    c->val[c->n] = c->prev[c->n] = 0;
    c->n++;
    return 0;
}

int ctr_ctx_add_router(struct ctr_ctx *c, uint32_t router, uint32_t nic,
                       const char *name, struct diag *d)
{
    const struct net *n = c->net;
    char rn[64];
    if (router >= n->n_routers) {
        diag_error(d, NULL, 0, "counters", "no router %u", router);
        return -1;
    }
    if (c->allowed && !c->allowed[router]) {
        diag_error(d, NULL, 0, "counters", "%s: router %s is not the job's "
                   "(a job reads only its own routers' NICs and tiles)",
                   name, topo_router_name(n->t, router, rn, sizeof rn));
        return -1;
    }
    struct ctr_ref r;
    if (ctr_find(n, router, nic, name, &r) != 0) {
        diag_error(d, NULL, 0, "counters", "no counter named '%s' on %s "
                   "(`dfsim counters SYSTEM --router R` lists them)", name,
                   topo_router_name(n->t, router, rn, sizeof rn));
        return -1;
    }
    if (ctx_push(c, name, &r) != 0) {
        diag_error(d, NULL, 0, "counters", "out of memory");
        return -1;
    }
    return 0;
}

int ctr_ctx_add(struct ctr_ctx *c, uint32_t node, const char *name,
                struct diag *d)
{
    const struct net *n = c->net;
    if (node >= n->t->n_nodes) {
        diag_error(d, NULL, 0, "counters", "no node %u", node);
        return -1;
    }
    uint32_t nic = n->t->nodes[node].nic[0];
    return ctr_ctx_add_router(c, n->t->nics[nic].router, nic, name, d);
}

void ctr_ctx_read(struct ctr_ctx *c)
{
    /* gpcd's read: every counter of the context at one instant, the last
     * values kept for the deltas the controllers and samplers use */
    memcpy(c->prev, c->val, c->n * sizeof *c->val);
    c->t_prev = c->t_val;
    c->t_val = c->net->s->now;
    for (size_t i = 0; i < c->n; i++)
        c->val[i] = ctr_value(c->net, &c->ref[i]);
}

/* ---- descriptions (dfsim counters) ---------------------------------- */

const char *ctr_describe(const struct net *n, const struct ctr_ref *r,
                         const char **unit)
{
    const struct ctr_set *set = ctr_set_of(n);
    const char *cycles = set->cycles_unit;
    const char *tile_flits = set->tile_flit_unit;
    const char *nic_flits = set->nic_flit_unit;
    bool rsp = r->cls == 1;
    switch ((enum ctr_reg)r->reg) {
    case CTR_NIC_FLITS:
        *unit = nic_flits;
        return rsp ? "responses sent" : "requests sent";
    case CTR_NIC_PKTS:
        *unit = "packets";
        return rsp ? "responses sent" : "requests sent";
    case CTR_NIC_STALLED:
        *unit = cycles;
        return rsp ? "next response ready, held back by back-pressure"
                   : "next request ready, held back by back-pressure";
    case CTR_NIC_NET_TRACK:
        *unit = "responses";
        return "responses received for this NIC's requests";
    case CTR_NIC_TRACK_NET:
        *unit = cycles;
        return "request to response latency, summed (NIC queue excluded)";
    case CTR_NIC_TRACK_ALL:
        *unit = cycles;
        return "message to response latency, summed (NIC queue included)";
    case CTR_NIC_PI_PKTS:
        *unit = "packets";
        return "written to the host";
    case CTR_NIC_PI_FLITS:
        *unit = nic_flits;
        return "written to the host";
    case CTR_NIC_PI_STALLED:
        *unit = cycles;
        return "host push-back (always 0: the host sinks at line rate)";
    case CTR_NIC_RSP_IN_FLITS:
        *unit = nic_flits;
        return "responses received for this NIC's requests";
    case CTR_NIC_RSP_IN_STALLED:
        *unit = cycles;
        return "a response arriving for this NIC's requests held back "
               "(always 0: the NIC sinks at line rate)";
    case CTR_TILE_IN_FLITS:
        *unit = tile_flits;
        return "arrived at the tile";
    case CTR_TILE_IN_PKTS:
        *unit = "packets";
        return "arrived at the tile";
    case CTR_TILE_VC_STALL:
        *unit = cycles;
        return "a routed packet of the VC(s) waits to leave the input queue";
    case CTR_TILE_IN_STALL:
        *unit = cycles;
        return "a routed packet waits to leave the input queue";
    case CTR_TILE_CR_STALL:
        *unit = cycles;
        return r->cls == 2 ? "output idle, a packet waits for credits"
               : rsp       ? "output idle, a response waits for credits"
                           : "output idle, a request waits for credits";
    case CTR_TILE_OUT_FLITS:
        *unit = tile_flits;
        return rsp ? "responses sent by the tile" : "requests sent by the tile";
    case CTR_TILE_OUT_PKTS:
        *unit = "packets";
        return rsp ? "responses sent by the tile" : "requests sent by the tile";
    default:
        *unit = "";
        return "";
    }
}
