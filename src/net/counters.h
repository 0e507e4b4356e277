/* net/counters.h — the hardware performance counters, by their names.
 *
 * What is modelled (issue 4; DESIGN.md §2 "Stalls"): the counters that the
 * papers' systems read, named as the hardware names them and counting what
 * the papers found them to count. The network model (router.c, nic.c)
 * keeps the raw counts when net_params.counters is set; this module names
 * them, converts them to the hardware's units and offers the interface of
 * Cray's gpcd library (Pedretti et al. Fig. 1) and PAPI: look a counter
 * up by name, add it to a context, read the context, take deltas between
 * reads.
 *
 * Aries (SC'19 §2.3; names from gpcd/LDMS, see
 * shared/reference/papers-and-workloads.md §3):
 *   NIC, NIC-side 16-byte flits (SC'19 §2.1: header + 1..4 payload flits),
 *   cycles of the 800 MHz NIC clock:
 *   The ORB (output request buffer) is the NIC block that sends this
 *   NIC's requests and tracks their responses (XC white paper, "Ordering
 *   and Completion": "the SSID and output request buffer (ORB) blocks on
 *   the output side"), so its REQ counters count requests going out and
 *   its RSP counters the responses coming back in — as RSP_NET_TRACK
 *   does, and as the SC'19 library's own names for the two stall ratios
 *   say (awr.c: "sr_in", from RSP_STALLED, against "sr_out"). Responses
 *   this NIC sends for others' requests leave by another block (the
 *   processor tiles' INQ_PRF_INCOMING_FLIT_VC4 count them).
 *     AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS / _REQ_PKTS   requests sent
 *     AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED   cycles in which the NIC's
 *         next request was ready but not forwarded because of
 *         back-pressure (no credits on any of its processor tiles, for it
 *         or for the response ahead of it on the path they share); busy
 *         tiles are not back-pressure
 *     AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_FLITS / _RSP_PKTS   responses
 *         received for this NIC's requests
 *     AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_STALLED   cycles such a response
 *         was held back on its way in: always 0, the model's NIC sinks
 *         what arrives at line rate
 *     AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_NET_TRACK   responses received for
 *         this NIC's requests (the SC'19 library's latency divisor)
 *     AR_NIC_ORB_PRF_NET_RSP_TRACK_2   cumulative request->response latency
 *         in cycles, from the request leaving the NIC (NIC queue excluded)
 *     AR_NIC_ORB_PRF_NET_RSP_TRACK_1   the same from the message being
 *         handed to the NIC (queue included). Public sources name this
 *         register without saying what it holds; this is dfsim's choice.
 *     AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_PKTS / _PI_FLITS   packets and NIC
 *         flits written to the host (PUT requests, GET responses)
 *     AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_STALLED   always 0: the model's host
 *         sinks at line rate
 *   Router tiles AR_RTR_<row>_<col>_ (network tiles, rows 0..4) counting
 *   network flits and 800 MHz cycles (Cray's gpcdr converts these stalls at
 *   1.25 ns per count):
 *     INQ_PRF_INCOMING_FLIT_VC<v>   flits arriving at the tile on VC v
 *         (VCs 0..3 requests, 4..7 responses)
 *     INQ_PRF_INCOMING_PKT_VC<v>_FILTER_FLIT<v>_CNT   cycles a routed
 *         packet of input VC v waits to leave the input queue (the filter
 *         configuration that gpcdr's "stalled" metric sums): on the tiled
 *         routers until it enters its output's column buffer, "the
 *         destination tile's output queue" (CUG'13 §VI, of Gemini's input
 *         stalls); on routers without output queues until it leaves
 *     INQ_PRF_ROWBUS_STALL_CNT   cycles any routed packet of the tile
 *         waits so (the union over its VCs)
 *     COLBUF_PERF_STALL_RQ / _RS   cycles the tile's output is idle while a
 *         request / response packet waits for downstream credits
 *   Processor tiles AR_RTR_PT_5_<col>_: INQ_PRF_INCOMING_FLIT_VC0 (request
 *   flits from the NICs) and _VC4 (responses), INQ_PRF_REQ_ROWBUS_STALL_CNT
 *   and INQ_PRF_RSP_ROWBUS_STALL_CNT.
 *
 * Gemini (Pedretti et al. Table I; tiles GM_<row>_<col>, 3-byte phits,
 * 800 MHz), both the gpcd names and the documentation names:
 *   GM_<r>_<c>_TILE_PERFORMANCE_COUNTERS_0 = GM_TILE_PERF_VC0_PHIT_CNT:<r>:<c>
 *     request phits arriving at the tile; _1 / VC1_PHIT_CNT responses;
 *   _2 / VC0_PKT_CNT, _3 / VC1_PKT_CNT   packets arriving;
 *   _4 / INQ_STALL     cycles a packet waits in the tile's input queue;
 *   _5 / CREDIT_STALL  cycles the tile's output waits for credits.
 *   NIC: GM_ORB_PERF_VC0_{FLITS,PKTS,STALLED} (requests sent) and
 *   GM_ORB_PERF_VC1_{FLITS,PKTS,STALLED} (responses received), as on
 *   Aries.
 *
 * Slingshot's Cassini NIC: HPE's public names where one counts what the
 * model counts (pct_ptls_response: responses sent; pct_responses_received:
 * responses received for its requests; parbs_tarb_pi_posted_blocked_cnt:
 * host back-pressure, 0), dfsim's NIC_* names below for the rest (no
 * public Cassini counter splits flits into requests and responses or sums
 * latencies); 1 GHz cycles (net/counters.c cites the sources).
 * Slingshot switches and generic dragonfly routers (names dfsim's own; the
 * Rosetta registers are not public): PORT_<p>_RX_FLITS_VC<v>,
 * PORT_<p>_RX_PKTS_VC<v>, PORT_<p>_TX_FLITS_REQ/_RSP, PORT_<p>_TX_PKTS_REQ/
 * _RSP, PORT_<p>_INQ_STALL, PORT_<p>_CREDIT_STALL_REQ/_RSP (flits are
 * bytes on Slingshot; cycles at 1 GHz, i.e. nanoseconds); NIC counters
 * NIC_REQ_FLITS, NIC_REQ_PKTS, NIC_REQ_STALLED, NIC_RSP_FLITS,
 * NIC_RSP_PKTS, NIC_RSP_STALLED, NIC_RSP_NET_TRACK, NIC_RSP_TRACK_NET,
 * NIC_RSP_TRACK_ALL, NIC_PI_PKTS, NIC_PI_FLITS.
 *
 * Access as on the real machine: a context made for a job reads only the
 * NICs and tiles of the routers the job's nodes sit on (SC'19 §2.3: "users
 * can only access counters on the NICs and tiles associated with their
 * jobs"); a context for analysis tools sees the whole machine.
 *
 * Reading costs nothing in the model: counters are computed from the raw
 * counts at the time of the read and never change the simulation.
 */
#ifndef DFSIM_NET_COUNTERS_H
#define DFSIM_NET_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "net/net.h"

/* What a counter register counts. */
enum ctr_reg {
    /* per NIC; cls selects requests (0) or responses (1) */
    CTR_NIC_FLITS,
    CTR_NIC_PKTS,
    CTR_NIC_STALLED,
    CTR_NIC_NET_TRACK,
    CTR_NIC_TRACK_NET, /* latency, NIC queue excluded (RSP_TRACK_2) */
    CTR_NIC_TRACK_ALL, /* latency, NIC queue included (RSP_TRACK_1) */
    CTR_NIC_PI_PKTS,
    CTR_NIC_PI_FLITS,
    CTR_NIC_PI_STALLED,
    CTR_NIC_RSP_IN_FLITS,   /* responses received for its requests */
    CTR_NIC_RSP_IN_STALLED, /* their stalls on the way in (always 0) */
    /* per port (tile); VCs [vc_lo, vc_hi) are summed */
    CTR_TILE_IN_FLITS,
    CTR_TILE_IN_PKTS,
    CTR_TILE_VC_STALL,  /* routed packets of the VCs waiting */
    CTR_TILE_IN_STALL,  /* any packet waiting (union over VCs) */
    CTR_TILE_CR_STALL,  /* cls: output idle, a packet of cls lacks credits
                           (cls 2: of either class) */
    CTR_TILE_OUT_FLITS, /* cls: sent */
    CTR_TILE_OUT_PKTS,
    CTR_REG_COUNT
};

/* One counter of one NIC or port. */
struct ctr_ref {
    uint8_t reg;          /* enum ctr_reg */
    uint8_t cls;          /* class, for the registers that have one */
    uint8_t vc_lo, vc_hi; /* VCs summed, for the per-VC registers */
    uint32_t obj;         /* NIC id or port id */
};

/* Find counter `name` as seen from router `router` (its tiles) and NIC
 * `nic` (the NIC counters; TOPO_NONE: none). Returns 0 and sets *ref, or
 * -1 if no such counter exists there. The net must keep counters. */
int ctr_find(const struct net *n, uint32_t router, uint32_t nic,
             const char *name, struct ctr_ref *ref);

/* Move tile counter `r` (found by ctr_find on some router) to the same
 * tile of router `router`: what ctr_find would give for the same name
 * there, without parsing it again. Returns 0, or -1 if that router has no
 * such tile (r unchanged). */
int ctr_ref_rebind(const struct net *n, struct ctr_ref *r, uint32_t router);

/* Current value of a counter, in the hardware's units (counts, flits,
 * cycles), at the simulation's current time. */
uint64_t ctr_value(const struct net *n, const struct ctr_ref *ref);

/* Every counter name of NIC `nic` (if nic_counters and nic != TOPO_NONE)
 * and of the tiles of router `router` (if tile_counters), NIC first, then
 * tile by tile in tile order, each passed to fn; returns how many. */
size_t ctr_names(const struct net *n, uint32_t router, uint32_t nic,
                 bool nic_counters, bool tile_counters,
                 void (*fn)(void *ctx, const char *name,
                            const struct ctr_ref *ref),
                 void *ctx);

/* The clock of n's stall and latency counters, Hz (the family's counter
 * set: Aries and Gemini 800 MHz; Slingshot's Cassini NIC 1 GHz,
 * shs-cxi-driver cass_core.h C1_CLK_FREQ_HZ; the generic dragonfly
 * nanoseconds), and seconds per count. */
uint64_t ctr_hz(const struct net *n);
double ctr_cycle_s(const struct net *n);

/* The NIC counter of NIC `nic` that counts `reg` (a CTR_NIC_* meaning)
 * for class cls, whatever the family names it: what a controller that
 * reads counters by meaning uses (ctl/awr.c, ctl/sc19_model.c), so that
 * it runs on every family whose NICs count it. 0 and *ref, or -1 if the
 * network keeps no counters or the family's NICs have no such counter
 * (its table names none: Gemini's NICs keep no latency sums). */
int ctr_nic_ref(const struct net *n, uint32_t nic, enum ctr_reg reg,
                uint8_t cls, struct ctr_ref *ref);

/* The same, but a counter the model always reads as 0 (an arriving
 * response held back, CTR_NIC_RSP_IN_STALLED: the model's NIC sinks at
 * line rate) is given where the family names none, reading 0 as it
 * would: for SC'19's REMOVE_SRIN, which subtracts it. */
int ctr_nic_ref_or_zero(const struct net *n, uint32_t nic,
                        enum ctr_reg reg, uint8_t cls, struct ctr_ref *ref);

/* What counter r counts, in words, and its unit (sets *unit). */
const char *ctr_describe(const struct net *n, const struct ctr_ref *r,
                         const char **unit);

/* ---- contexts (gpcd_context_t) ------------------------------------- */

struct ctr_ctx {
    const struct net *net;
    uint8_t *allowed;        /* [n_routers] routers it may read; NULL: all */
    struct ctr_ref *ref;     /* counters added, in order */
    char **name;             /* their names */
    uint64_t *val, *prev;    /* last read, and the read before */
    simtime t_val, t_prev;   /* when */
    size_t n, cap;
};

/* A context that may read every counter of the machine (analysis tools). */
int ctr_ctx_init(struct ctr_ctx *c, const struct net *n);

/* A context for a job on nodes[0..count): it may read only the NICs of
 * those nodes and the tiles of the routers they sit on. */
int ctr_ctx_init_job(struct ctr_ctx *c, const struct net *n,
                     const uint32_t *nodes, size_t count);

void ctr_ctx_free(struct ctr_ctx *c);

/* Add counter `name` of node `node` (its router's tiles, its first NIC).
 * Reports to d (key "counters") and returns -1 if the name is unknown or
 * the context may not read that router. */
int ctr_ctx_add(struct ctr_ctx *c, uint32_t node, const char *name,
                struct diag *d);

/* Add counter `name` of router `router` (tile counters, and the NIC
 * counters of NIC `nic`, which must sit on it; TOPO_NONE: none). */
int ctr_ctx_add_router(struct ctr_ctx *c, uint32_t router, uint32_t nic,
                       const char *name, struct diag *d);

/* Read every counter of the context now; the previous values are kept. */
void ctr_ctx_read(struct ctr_ctx *c);

/* Counter i: value at the last read, and change between the last two. */
static inline uint64_t ctr_ctx_value(const struct ctr_ctx *c, size_t i)
{
    return c->val[i];
}
static inline uint64_t ctr_ctx_delta(const struct ctr_ctx *c, size_t i)
{
    return c->val[i] - c->prev[i];
}

#endif
