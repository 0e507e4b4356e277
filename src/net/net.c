/* net/net.c — the network model's set-up and teardown: net_init builds
 * the records of ports, VCs, tile buffers, credit blocks and NICs from
 * the topology and the parameters, refuses what the model cannot run,
 * and registers the routers' and the NICs' events (router.c, nic.c);
 * also the routing modes a run adds, the model's memory (net_bytes,
 * net_estimate_bytes), the bandwidth-delay products and the drain check.
 * net.h says what the model is; net_internal.h which file models what.
 *
 * Invariants it sets up (net.h; net_check_drained checks them once the
 * network is empty): every output VC to a router starts with the
 * capacity of its downstream buffer in credits, the NICs of an endpoint
 * port with the port's own; buffers and queues start empty (records of
 * zeros: core/zmem.h); NICs sharing a port are numbered consecutively.
 * The sources of its figures are with their code (the traffic classes'
 * weights: SC'20 §II-E and §III-B; load publication: the XC white
 * paper); each family's defaults are in net/params.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/zmem.h"
#include "net/net_internal.h"
#include "net/routing.h"
#include "net/xpart.h"

/* ---- records ------------------------------------------------------ */

/* The sizes net.h promises. */
_Static_assert(sizeof(struct packet) == 64, "packet: one line");
_Static_assert(sizeof(struct packet_cold) == 32, "packet_cold: 32 bytes");
_Static_assert(sizeof(struct message) == 64, "message: one line");
_Static_assert(sizeof(struct net_out) == 64, "net_out: one line");
_Static_assert(sizeof(struct net_in) == 32, "net_in: half a line");
_Static_assert(sizeof(struct net_ovc) == 16, "net_ovc: 16 bytes");
_Static_assert(sizeof(struct net_ivc) == 8, "net_ivc: 8 bytes");
_Static_assert(sizeof(struct net_ivc) + sizeof(struct net_vc_count) == 40,
               "an input VC and its counting: 40 bytes");
_Static_assert(sizeof(struct net_out_count) == 64, "net_out_count: a line");
_Static_assert(NET_MAX_VCS <= 16, "net_out.vcs_waiting: a bit per VC; "
               "CR_VC: 4 bits");
_Static_assert(sizeof(struct net_nic) == 64, "net_nic: one line");
_Static_assert(sizeof(struct net_nic_count) == 128,
               "net_nic_count: two lines");

/* ---- set-up ------------------------------------------------------- */

/* A mode reads published loads: which, by aries_load. With the credit
 * estimate the global ports publish their load (to the routers of their
 * group: XC white paper, "downstream load information is propagated from
 * router-to-router"). Called before any traffic. */
static void set_publish(struct net *n)
{
    if (n->publish != NET_PUB_NONE)
        return;
    if (n->p.aries_load == NET_ARIES_OCCUPANCY) {
        n->publish = NET_PUB_INPUT;
        return;
    }
    /* Only the global ports publish: a candidate's downstream term is the
     * load of the global link it leaves the group by, on another router of
     * the group (route/aries.c); the first hop's own port is read directly,
     * exact near-end and credits in use. */
    n->publish = NET_PUB_GLOBAL;
    for (uint32_t i = 0; i < n->n_ports; i++)
        if (net_owns(n, n->t->ports[i].router) &&
            n->out[i].peer != TOPO_NONE &&
            topo_port_class((enum port_kind)n->t->ports[i].kind) ==
                PCLASS_GLOBAL)
            n->out[i].publish = 1;
}

/* The block of mode r's parameters in n (its part's: the one the
 * parameters hold, else the part's defaults), or NULL with the reason in
 * err: no room for it, or values its part refuses. A mode without a part
 * has none (a pointer to an empty block). */
static const void *mode_params(struct net *n, const struct routing *r,
                               char *err, size_t len)
{
    static const char none = 0;
    if (!r->part)
        return &none;
    void *b = net_part_block(&n->p, r->part, n->t);
    if (!b) {
        snprintf(err, len, "no room for the parameters of %s (NET_MAX_PARTS "
                 "%d, NET_PART_STORE %d bytes)", r->part->name, NET_MAX_PARTS,
                 NET_PART_STORE);
        return NULL;
    }
    const char *key = NULL;
    char why[128];
    if (r->part->check && r->part->check(b, &n->p, &key, why, sizeof why)) {
        snprintf(err, len, "%s: %s", key, why);
        return NULL;
    }
    return b;
}

int net_add_mode(struct net *n, const struct routing *r)
{
    for (uint32_t i = 0; i < n->n_modes; i++)
        if (n->modes[i] == r)
            return (int)i;
    if (n->n_modes == NET_MAX_MODES)
        return -1;
    char err[160];
    const void *mp = mode_params(n, r, err, sizeof err);
    if (!mp)
        return -1;
    n->mode_params[n->n_modes] = mp;
    n->modes[n->n_modes] = r;
    if (r->publish && n->p.publish_period)
        set_publish(n);
    return (int)n->n_modes++;
}

#define ALLOC(ptr, count)                                                  \
    do {                                                                   \
        size_t count_ = (count);                                           \
        (ptr) = calloc(count_ ? count_ : 1, sizeof *(ptr));                \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

/* Zeroed, aligned to cache lines, and backed by the system only where
 * touched (core/zmem.h): the records sized by the system, whose empty
 * state is zeros wherever traffic may never come (the tiles' row and
 * column buffers). Freed with zmem_free. */
#define ALLOC_LINES(ptr, count)                                            \
    do {                                                                   \
        (ptr) = zmem_lines((count), sizeof *(ptr));                        \
        if (!(ptr))                                                        \
            goto oom;                                                      \
    } while (0)

/* The classes' weights (n->p.tc[].weight) from their minimum bandwidths,
 * per mille of a link: SC'20 §II-E, "the sum of the minimum bandwidth
 * requirements of the different traffic classes does not exceed the
 * available bandwidth"; what is not allocated goes to the class with the
 * least (SC'20 §III-B measured it so: minimums of 80 % and 10 %, two
 * bisection jobs got 80 % and 20 %). With no minimums the classes share
 * equally. */
static int tc_weights(struct net *n, struct diag *d)
{
    struct net_tc *c = n->p.tc;
    uint32_t sum = 0, least = 0;
    for (uint32_t k = 0; k < n->n_tcs; k++) {
        sum += c[k].weight;
        if (c[k].weight < c[least].weight)
            least = k;
    }
    if (sum > 1000) {
        diag_error(d, NULL, 0, "network.traffic_classes",
                   "the minimum bandwidths add up to %.1f %% of a link; at "
                   "most 100 %%", sum / 10.0);
        return -1;
    }
    if (sum == 0) {
        for (uint32_t k = 0; k < n->n_tcs; k++)
            c[k].weight = 1;
        return 0;
    }
    /* start-time fair queueing with these weights (router.c tc_pick): the
     * least-guaranteed class gets the unallocated rest, as SC'20 §III-B's
     * 80 % / 10 % test gave 80 % and 20 % */
    c[least].weight += 1000 - sum;
    for (uint32_t k = 0; k < n->n_tcs; k++)
        if (!c[k].weight)
            c[k].weight = 1; /* a class without a guarantee still moves */
    return 0;
}

/* Set up the rate controllers of n->p.cc, in order, each with its
 * parameters (its part's block in n->p.parts, or its defaults): the
 * stack's ticks and marking threshold from what each init says. */
static int ctl_init(struct net *n, struct diag *d)
{
    struct net_ctl_stack *k = &n->ctl;
    k->first_tick = SIMTIME_MAX;
    k->mark_above = UINT32_MAX;
    if (n->p.n_cc > NET_MAX_CTLS) {
        diag_error(d, NULL, 0, "network.congestion_control", "more than %d "
                   "controllers", NET_MAX_CTLS);
        return -1;
    }
    for (uint32_t i = 0; i < n->p.n_cc; i++) {
        const struct nic_ctl *c = n->p.cc[i];
        const void *params = NULL;
        if (c->part && !(params = net_part_block(&n->p, c->part, n->t))) {
            diag_error(d, NULL, 0, "network.congestion_control", "%s: no "
                       "room for its parameters (NET_PART_STORE)",
                       c->base.name);
            return -1;
        }
        struct nic_ctl_setup setup = { .period = 0, .mark_above = UINT32_MAX };
        char err[160] = "";
        if (c->init && c->init(&k->st[k->n], n, params, &setup, err,
                               sizeof err) != 0) {
            diag_error(d, NULL, 0, "network.congestion_control", "%s: %s",
                       c->base.name, err);
            return -1;
        }
        k->ctl[k->n] = c;
        k->period[k->n] = setup.period;
        /* the first tick one period in; the ticks are taken lazily, when the
         * network next does something (nic.c cc_ticks) */
        k->next_tick[k->n] = c->tick && setup.period ? setup.period
                                                     : SIMTIME_MAX;
        if (k->next_tick[k->n] < k->first_tick)
            k->first_tick = k->next_tick[k->n];
        /* the routers look once at the least of the marking controllers'
         * thresholds (router.c route_here); each checks its own */
        if (c->mark && setup.mark_above != UINT32_MAX) {
            k->mark[k->n_mark++] = (uint8_t)k->n;
            if (setup.mark_above < k->mark_above)
                k->mark_above = setup.mark_above;
        }
        k->n++;
    }
    n->cc_on = k->n > 0;
    return 0;
}

/* net_init's checks of what the model can run under p (each refusal
 * reported to d): the traffic classes and their minimum bandwidths
 * (tc_weights sets their weights), the VCs a port has room for, an
 * entity for every router and NIC, and packets that fit a credit's 16
 * bits and every buffer (virtual cut-through moves a packet only into
 * room for all of it). Sets n->n_tcs. */
static int check_params(struct net *n, const struct topo *t,
                        const struct net_params *p, struct diag *d)
{
    const struct sim *s = n->s;
    n->n_tcs = p->n_tcs ? p->n_tcs : 1;
    if (n->n_tcs > NET_MAX_TCS) {
        diag_error(d, NULL, 0, "network.traffic_classes",
                   "%u classes; at most %d", n->n_tcs, NET_MAX_TCS);
        return -1;
    }
    /* a port holds at most 16 VCs: requests and responses, vcs each, per
     * traffic class (SC'20 §II-E: each class its own buffers); the
     * dragonflies' routes need 4 per class (route/df.c), so two classes at
     * most there */
    if (p->vcs < 1 || p->vcs > NET_MAX_SEGS ||
        2 * p->vcs * n->n_tcs > NET_MAX_VCS) {
        diag_error(d, NULL, 0, "network.vcs",
                   "%u per class with %u traffic class(es): a port has at "
                   "most %d VCs (2 x vcs x classes, vcs <= %d)", p->vcs,
                   n->n_tcs, NET_MAX_VCS, NET_MAX_SEGS);
        return -1;
    }
    if (n->n_tcs > 1 && tc_weights(n, d) != 0)
        return -1;
    if (s->n_entities < net_entities(t)) {
        diag_error(d, NULL, 0, "network", "simulation has %u entities, the "
                   "network needs %u", s->n_entities, net_entities(t));
        return -1;
    }
    if (p->max_payload < 1 || p->flit_bytes < 1) {
        diag_error(d, NULL, 0, "network", "max_payload and flit_bytes must "
                   "be at least 1");
        return -1;
    }
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    /* a packet's flits are counted in 16 bits (struct packet): Slingshot's
     * 4 KiB + 62 B in bytes fits, a larger max_payload may not */
    if (big > 0xffff) {
        diag_error(d, NULL, 0, "network.max_payload",
                   "packets of %u flits are too large (at most 65535)", big);
        return -1;
    }
    /* virtual cut-through moves a packet only into room for all of it: a
     * buffer smaller than the largest packet would never take one */
    if (p->buf_local < big || p->buf_global < big || p->buf_endpoint < big) {
        diag_error(d, NULL, 0, "network.buffer_local",
                   "every buffer must hold the largest packet (%u flits)",
                   big);
        return -1;
    }
    if (p->router == NET_ROUTER_TILED &&
        (p->row_buffer < big || p->col_buffer < big)) {
        diag_error(d, NULL, 0, p->row_buffer < big ? "network.row_buffer"
                                                    : "network.col_buffer",
                   "row and column buffers must hold the largest packet "
                   "(%u flits)", big);
        return -1;
    }
    return 0;
}

/* Tiled routers: the tile matrix (n->cols, n->rows): tile_columns
 * columns, or by default the fewest whose square holds the largest
 * router's ports, and the rows its ports then fill; refused (reported to
 * d) beyond 255 of either, or when its row and column buffers cannot be
 * numbered. */
static int tile_shape(struct net *n, const struct topo *t,
                      const struct net_params *p, struct diag *d)
{
    size_t PV = (size_t)t->n_ports * n->V;
    uint32_t cols = p->tile_columns;
    if (!cols) {
        uint32_t radix = 0;
        for (uint32_t r = 0; r < t->n_routers; r++)
            if (t->routers[r].n_ports > radix)
                radix = t->routers[r].n_ports;
        /* the squarest matrix (the model's choice where a router's layout is
         * not given); Aries and Gemini set 8 columns for their 6 x 8 tiles */
        while (cols * cols < radix)
            cols++;
    }
    if (cols < 1 || cols > 255) {
        diag_error(d, NULL, 0, "network.tile_columns",
                   "%u columns; expected 1 to 255", cols);
        return -1;
    }
    /* the rows the largest router's ports fill: Aries 48 tiles / 8 = 6 */
    uint32_t rows = 1;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        uint32_t k = (t->routers[r].n_ports + cols - 1) / cols;
        if (k > rows)
            rows = k;
    }
    if (rows > 255) {
        diag_error(d, NULL, 0, "network.tile_columns",
                   "%u columns make %u tile rows; expected at most 255",
                   cols, rows);
        return -1;
    }
    size_t bufs = PV * (cols > rows ? cols : rows);
    if (bufs >= NET_RB_IDLE) {
        /* row and column buffers are numbered in 32 bits */
        diag_error(d, NULL, 0, "network.tile_columns",
                   "%zu row or column buffers; expected fewer than "
                   "2^32 - 2 (fewer ports, VCs or tile columns)", bufs);
        return -1;
    }
    n->cols = cols;
    n->rows = rows;
    return 0;
}

/* net_init's arrays, sized by the system (net_dims, dims_bytes: what
 * they take); -1 when out of memory (net_init reports it). */
static int alloc_records(struct net *n, const struct topo *t)
{
    size_t P = t->n_ports, PV = P * n->V;
    if (n->p.router == NET_ROUTER_TILED) {
        /* all zeros is an empty row buffer not waiting (rb_wnext) and an
         * empty column buffer without waiters: nothing to initialise, so
         * the pages of idle routers are never touched (core/zmem.h) */
        ALLOC_LINES(n->rowbuf, PV * n->cols);
        ALLOC_LINES(n->colbuf, PV * n->rows);
        ALLOC_LINES(n->colbuf_occ, PV * n->rows);
    }
    ALLOC_LINES(n->out, P);
    ALLOC_LINES(n->in, P);
    ALLOC_LINES(n->ovc, PV);
    /* input VCs 40 bytes apart with counting (struct net_vc_count after
     * each), 8 without */
    n->ivc_size = sizeof(struct net_ivc) +
                  (n->p.counters ? sizeof(struct net_vc_count) : 0);
    n->ivc = zmem_lines(PV * n->ivc_size, 1);
    if (!n->ivc)
        goto oom;
    n->cr_cw = net_cr_credit_words(n->V);
    n->cr_stride = net_cr_block_words(n->V);
    ALLOC_LINES(n->cr_queue, P * n->cr_stride);
    ALLOC_LINES(n->cr_due, P);
    for (size_t i = 0; i < P; i++)
        if (net_owns(n, t->ports[i].router))
            n->cr_due[i] = SIMTIME_MAX;
    ALLOC_LINES(n->pub, P * NET_PUB_DEPTH);
    if (n->n_tcs > 1)
        ALLOC(n->tc_tag, P * (n->n_tcs + 1));
    ALLOC(n->buf_cap, P);
    ALLOC(n->port_class, P);
    ALLOC_LINES(n->nic, t->n_nics);
    ALLOC(n->nic_inj, t->n_nics);
    ALLOC(n->router_rng, t->n_routers);
    ALLOC(n->nic_rng, t->n_nics);
    if (n->p.counters) {
        struct net_count *k = &n->ct;
        ALLOC_LINES(k->out, P);
        ALLOC_LINES(k->nic, t->n_nics);
        for (uint32_t c = 0; c < t->n_nics; c++)
            if (net_owns(n, t->nics[c].router))
                k->nic[c].since[0] = k->nic[c].since[1] = SIMTIME_MAX;
    }
    return 0;
oom:
    return -1;
}

uint64_t net_ser_fp(const struct net_params *p, const struct topo_port *tp)
{
    if (!tp->bw)
        return 0;
    /* ps per flit * 1024, with the link-layer efficiency on links between
     * routers (not on-chip NIC links) */
    double ps = (double)p->flit_bytes * 1e12 / (double)tp->bw;
    if (tp->medium != MEDIUM_ONCHIP)
        ps = ps * p->link_eff_den / p->link_eff_num;
    return (uint64_t)(ps * 1024.0 + 0.5);
}

/* Every port's output and input records from its topology port: what the
 * hot path reads of the topology copied in, its buffer's capacity by its
 * class, its serialization time per flit; -1 (reported to d) for a link
 * too slow for the model's fixed point. */
static int ports_init(struct net *n, const struct topo *t,
                      const struct net_params *p, struct diag *d)
{
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        struct net_out *o = &n->out[i];
        struct net_in *in = &n->in[i];
        enum port_class pc = topo_port_class((enum port_kind)tp->kind);
        n->port_class[i] = (uint8_t)pc;
        n->buf_cap[i] = pc == PCLASS_GLOBAL ? p->buf_global
                        : pc == PCLASS_ENDPOINT ? p->buf_endpoint
                                                : p->buf_local;
        if (n->buf_cap[i] > UINT16_MAX) /* past a credit block's 16 bits */
            n->cr_big = true;
        uint64_t fp = net_ser_fp(p, tp);
        if (fp > UINT32_MAX) {
            diag_error(d, NULL, 0, "network", "port %u: a flit takes "
                       "%.0f ps, more than the model handles", i,
                       (double)fp / 1024.0);
            return -1;
        }
        /* a partition writes the records of its own routers' ports alone
         * (the others' pages are never touched: core/zmem.h); nothing it
         * runs reads another's — a packet or a credit return crossing a
         * cut goes as a record (net/xpart.h) */
        if (!net_owns(n, tp->router))
            continue;
        o->wake = SIMTIME_MAX;
        o->router = tp->router;
        o->peer = tp->peer;
        o->peer_router =
            tp->peer != TOPO_NONE ? t->ports[tp->peer].router : TOPO_NONE;
        o->latency = tp->latency;
        o->nic = NET_NONE;
        if (n->cols) {
            /* tile i of its router: row i / cols, column i % cols */
            uint32_t k = i - t->routers[tp->router].first_port;
            o->col = (uint8_t)(k % n->cols);
            o->row = (uint8_t)(k / n->cols);
        }
        in->up = tp->peer != TOPO_NONE ? tp->peer : i;
        in->latency = tp->latency;
        if (tp->bw) {
            o->ser_fp = (uint32_t)fp;
            if (tp->peer != TOPO_NONE)
                /* The credits a link running at full rate has in use with
                 * nothing queued downstream read as the link's own, not as
                 * far-end load: far_light % of its bandwidth-delay product (50
                 * %, not public, route/aries.c), so an idle or busy but
                 * unblocked link reads 0 in the Aries estimate. */
                o->own = (uint32_t)((uint64_t)net_port_bdp(n, i) *
                                    p->far_light / 100);
        }
    }
    return 0;
}

/* Every output VC's credits at the start: a port to a router has its
 * downstream buffer's capacity, an endpoint port's NICs the port's own
 * buffer's. */
static void credits_init(struct net *n, const struct topo *t)
{
    for (uint32_t i = 0; i < t->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        if (!net_owns(n, tp->router))
            continue; /* another partition's */
        /* the input VCs are empty as zeroed (ivc_head) */
        for (uint32_t v = 0; v < n->V; v++) {
            struct net_ovc *w = net_ovc_at(n, i, v);
            w->wait_head = w->wait_tail = NET_NONE;
            /* a port to a router starts with its downstream buffer's room; a
             * port to a NIC needs none (the NIC sinks what its port grants it,
             * and a request waits for a response slot instead, router.c), so
             * it starts with more than any run takes */
            w->credits = tp->peer != TOPO_NONE
                             ? (int32_t)n->buf_cap[tp->peer]
                             : INT32_MAX / 2;
        }
        if (topo_port_class((enum port_kind)tp->kind) == PCLASS_ENDPOINT)
            for (uint32_t v = 0; v < n->V; v++) {
                /* the NICs' credits in the credit block if they fit */
                if (n->buf_cap[i] <= UINT16_MAX)
                    net_port_credits(n, i)[v] = (uint16_t)n->buf_cap[i];
                else
                    net_ovc_at(n, i, v)->inj_credits =
                        (int32_t)n->buf_cap[i];
            }
    }
}

/* Every NIC's record, empty queues, and random stream; its endpoint
 * ports learn the NICs injecting on them. -1 (reported to d) when NICs
 * sharing a port are not numbered consecutively. */
static int nics_init(struct net *n, const struct topo *t, uint64_t seed,
                     struct diag *d)
{
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        if (!net_owns(n, tn->router))
            continue; /* another partition's (its ports too) */
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            struct net_out *o = &n->out[tn->first_port + k];
            if (o->nic == NET_NONE)
                o->nic = c;
            o->nics++;
        }
        n->nic[c] = (struct net_nic){ .req_head = NET_NONE,
                                      .req_tail = NET_NONE,
                                      .rsp_head = NET_NONE,
                                      .rsp_tail = NET_NONE,
                                      .wake_at = SIMTIME_MAX };
        n->nic_rng[c] = rng_stream(seed, RNG_NIC, c);
    }
    /* NICs sharing a port must be numbered consecutively (Aries NIC
     * pairs): the credit handler wakes out.nic .. out.nic + nics - 1 */
    for (uint32_t c = 0; c < t->n_nics; c++) {
        const struct topo_nic *tn = &t->nics[c];
        if (!net_owns(n, tn->router))
            continue; /* its ports' records are another partition's */
        for (uint32_t k = 0; k < tn->n_ports; k++) {
            uint32_t port = tn->first_port + k;
            if (c >= n->out[port].nic + n->out[port].nics) {
                diag_error(d, NULL, 0, "network", "NICs sharing port %u "
                           "are not numbered consecutively", port);
                return -1;
            }
        }
    }
    return 0;
}

int net_init(struct net *n, const struct topo *t, const struct net_params *p,
             struct sim *s, uint64_t seed, struct diag *d)
{
    return net_init_part(n, t, p, s, seed, NULL, 0, d);
}

int net_init_part(struct net *n, const struct topo *t,
                  const struct net_params *p, struct sim *s, uint64_t seed,
                  const uint32_t *part_of, uint32_t me, struct diag *d)
{
    memset(n, 0, sizeof *n);
    n->own_of = part_of;
    n->own_me = me;
    if (!p->routing) { /* net_params_defaults leaves it to the caller */
        diag_error(d, NULL, 0, "network.routing", "no routing mode given "
                   "(route_net_defaults sets the family's)");
        return -1;
    }
    n->t = t;
    n->s = s;
    n->p = *p;
    for (uint32_t i = 0; i < p->n_cc; i++)
        /* Counting costs nothing unless asked for (counters.h): a controller
         * that steers by the NICs' stall counters (Netscope, Cray's, SC'19's
         * library) turns it on for the whole network. */
        if (p->cc[i]->counters) /* a controller reads them */
            n->p.counters = true;
    n->seed = seed;
    n->n_routers = t->n_routers;
    n->n_nics = t->n_nics;
    n->n_ports = t->n_ports;
    n->pkt_free = n->msg_free = NET_NONE;
    if (check_params(n, t, p, d) != 0)
        return -1;
    n->V = 2 * p->vcs * n->n_tcs;
    if (p->router == NET_ROUTER_TILED && tile_shape(n, t, p, d) != 0)
        return -1;
    if (alloc_records(n, t) != 0)
        goto oom;
    if (ports_init(n, t, p, d) != 0) {
        net_free(n);
        return -1;
    }
    credits_init(n, t);
    if (nics_init(n, t, seed, d) != 0) {
        net_free(n);
        return -1;
    }
    for (uint32_t r = 0; r < t->n_routers; r++)
        /* each router and each NIC draws from its own stream (adaptive
         * routing's random candidates, RED's marks, Netscope's rounding): a
         * draw depends on the seed and the entity alone, not on the order in
         * which the events of different entities ran */
        n->router_rng[r] = rng_stream(seed, RNG_ROUTER, r);
    {
        char err[160];
        n->mode_params[0] = mode_params(n, p->routing, err, sizeof err);
        if (!n->mode_params[0]) {
            diag_error(d, NULL, 0, "network.routing", "%s", err);
            net_free(n);
            return -1;
        }
    }
    n->modes[0] = p->routing;
    n->n_modes = 1;
    if (p->routing->publish && p->publish_period)
        set_publish(n);
    if (net_nexthop_init(n, d) < 0) {
        net_free(n);
        return -1;
    }
    if (ctl_init(n, d) != 0) {
        net_free(n);
        return -1;
    }
    net_router_register(n);
    net_nic_register(n);
    return 0;
oom:
    diag_error(d, NULL, 0, "network", "out of memory building the model of "
               "%u ports", t->n_ports);
    net_free(n);
    return -1;
}

void net_free(struct net *n)
{
    net_xp_free(n);
    for (uint32_t i = n->ctl.n; i-- > 0;)
        if (n->ctl.ctl[i]->free)
            n->ctl.ctl[i]->free(n->ctl.st[i]);
    net_nexthop_free(n);
    free(n->pkt_raw);
    free(n->pkt_cold);
    free(n->msg);
    zmem_free(n->out);
    zmem_free(n->in);
    zmem_free(n->ovc);
    zmem_free(n->ivc);
    zmem_free(n->rowbuf);
    zmem_free(n->colbuf);
    zmem_free(n->colbuf_occ);
    zmem_free(n->cr_queue);
    zmem_free(n->cr_due);
    free(n->tc_tag);
    zmem_free(n->pub);
    free(n->port_class);
    free(n->buf_cap);
    zmem_free(n->nic);
    free(n->nic_inj);
    free(n->router_rng);
    free(n->nic_rng);
    struct net_count *k = &n->ct;
    zmem_free(k->out);
    zmem_free(k->nic);
    memset(n, 0, sizeof *n);
}

/* The bandwidth-delay product of topology port tp under p, flits (see
 * net_port_bdp); 0 for a port without a peer. */
static uint32_t bdp_of(const struct net_params *p, const struct topo_port *tp)
{
    if (tp->peer == TOPO_NONE || !tp->bw)
        return 0;
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    double ps = (double)p->flit_bytes * 1e12 / (double)tp->bw;
    if (tp->medium != MEDIUM_ONCHIP)
        ps = ps * p->link_eff_den / p->link_eff_num;
    /* a credit loop: the packet's head crosses the wire, the next router
     * takes it a pipeline delay later, and its credits come back over the
     * wire; plus the packet itself, the credits held while it is sent */
    double loop = 2.0 * tp->latency + (double)p->router_delay;
    return (uint32_t)(loop / ps + 0.5) + big;
}

uint32_t net_max_bdp(const struct net_params *p, const struct topo *t)
{
    uint32_t bdp = 0;
    for (uint32_t i = 0; i < t->n_ports; i++) {
        uint32_t b = bdp_of(p, &t->ports[i]);
        if (b > bdp)
            bdp = b;
    }
    return bdp;
}

uint32_t net_port_bdp(const struct net *n, uint32_t port)
{
    const struct net_out *o = &n->out[port];
    const struct net_params *p = &n->p;
    uint32_t big = net_req_flits(p, NET_PUT, p->max_payload);
    uint32_t bigr = net_rsp_flits(p, NET_GET, p->max_payload);
    if (bigr > big)
        big = bigr;
    /* a packet's credits come back 2 x wire + the next router's pipeline
     * delay + its serialization after it starts */
    double ps = o->ser_fp / 1024.0;
    double loop = 2.0 * o->latency + (double)p->router_delay;
    return (uint32_t)(loop / ps + 0.5) + big;
}

/* What sizes the arrays net_init makes whatever the traffic: the shape
 * of the system and the parameters alone. One function for net_bytes
 * (of a network) and net_estimate_bytes (of one not yet built), so that
 * the two cannot drift apart. */
struct net_dims {
    size_t P;                 /* ports */
    uint32_t V;               /* VCs per port */
    uint32_t ivc_size;        /* bytes of an input VC record */
    uint32_t cols, rows;      /* tile buffers per port and VC; 0: none */
    uint32_t n_tcs;
    uint32_t nics, routers;
    bool counters;
    uint32_t groups, m;       /* dragonflies: groups, routers per group;
                                 m = 0: a torus */
    size_t nh_total;          /* next-hop port entries */
    uint32_t nh_rows;         /* distinct rows of next hops */
};

static size_t dims_bytes(const struct net_dims *k)
{
    const struct net *n = NULL; /* for sizeof only */
    size_t P = k->P, PV = P * k->V;
    size_t b = zmem_lines_bytes(P, sizeof *n->out) +
               zmem_lines_bytes(P, sizeof *n->in) +
               zmem_lines_bytes(PV, sizeof *n->ovc) +
               zmem_lines_bytes(PV * k->ivc_size, 1) +
               zmem_lines_bytes(P * net_cr_block_words(k->V),
                                sizeof *n->cr_queue) +
               zmem_lines_bytes(P, sizeof *n->cr_due) +
               zmem_lines_bytes(P * NET_PUB_DEPTH, sizeof *n->pub);
    if (k->cols)
        b += zmem_lines_bytes(PV * k->cols, sizeof *n->rowbuf) +
             zmem_lines_bytes(PV * k->rows, sizeof *n->colbuf) +
             zmem_lines_bytes(PV * k->rows, sizeof *n->colbuf_occ);
    b += P * (sizeof *n->buf_cap + sizeof *n->port_class);
    if (k->n_tcs > 1)
        b += P * (k->n_tcs + 1) * sizeof *n->tc_tag;
    b += zmem_lines_bytes(k->nics, sizeof *n->nic) +
         (size_t)k->nics * (sizeof *n->nic_inj + sizeof *n->nic_rng);
    b += (size_t)k->routers * sizeof *n->router_rng;
    if (k->counters)
        b += zmem_lines_bytes(P, sizeof *n->ct.out) +
             zmem_lines_bytes(k->nics, sizeof *n->ct.nic);
    /* routing tables (net/nexthop.c) */
    size_t per = k->m ? k->m : 6; /* next hops kept per row */
    b += (size_t)k->routers * sizeof *n->nh_row;
    b += (size_t)k->nh_rows * per * (sizeof *n->nh_first + 1);
    b += k->nh_total * sizeof *n->nh_port;
    if (k->m)
        b += (size_t)k->groups * (sizeof *n->group_first +
                                  sizeof *n->group_size);
    return b;
}

size_t net_bytes(const struct net *n)
{
    struct net_dims k = {
        .P = n->n_ports, .V = n->V, .ivc_size = n->ivc_size,
        .cols = n->rowbuf ? n->cols : 0, .rows = n->rowbuf ? n->rows : 0,
        .n_tcs = n->tc_tag ? n->n_tcs : 1, .nics = n->n_nics,
        .routers = n->n_routers, .counters = n->ct.out != NULL,
        .groups = n->group_first ? n->t->n_groups : 0,
        .m = n->group_first ? n->m : 0, .nh_total = n->nh_total,
        .nh_rows = n->nh_rows,
    };
    return dims_bytes(&k) +
           (size_t)n->pkt_cap * (sizeof *n->pkt + sizeof *n->pkt_cold) +
           (size_t)n->msg_cap * sizeof *n->msg;
}

size_t net_estimate_bytes(const struct net_params *p,
                          const struct topo_counts *c)
{
    uint32_t n_tcs = p->n_tcs ? p->n_tcs : 1;
    struct net_dims k = {
        .P = (size_t)c->routers * c->ports_per_router,
        .V = 2 * p->vcs * n_tcs,
        .ivc_size = (uint32_t)(sizeof(struct net_ivc) +
                               (p->counters ? sizeof(struct net_vc_count)
                                            : 0)),
        .n_tcs = n_tcs, .nics = c->nics, .routers = c->routers,
        .counters = p->counters,
    };
    if (p->router == NET_ROUTER_TILED) {
        uint32_t cols = p->tile_columns, radix = c->ports_per_router;
        if (!cols)
            while (cols * cols < radix)
                cols++;
        k.cols = cols ? cols : 1;
        k.rows = (radix + k.cols - 1) / k.cols;
        if (k.rows < 1)
            k.rows = 1;
    }
    /* routers wired alike share a row of next hops (net/nexthop.c): one
     * row on a torus, one per place in a group on a dragonfly (the
     * systems dfsim builds wire every group alike) */
    if (topo_is(c->family, TOPO_SHAPE_TORUS)) {
        k.nh_rows = 1;
        k.nh_total = c->ports_per_router ? c->ports_per_router : 1;
    } else {
        k.groups = c->groups;
        k.m = c->routers_per_group;
        /* a system of part of a group (Voltrino) has fewer places */
        uint32_t places = k.m < c->routers ? k.m : c->routers;
        k.nh_rows = places;
        k.nh_total = (size_t)places * (places ? places - 1 : 0);
        if (!k.nh_total)
            k.nh_total = 1;
    }
    return dims_bytes(&k);
}

int net_check_drained(struct net *n, struct diag *d)
{
    int bad = 0;
    for (uint32_t i = 0; i < n->n_ports; i++)
        /* the credit returns still in the queues are due by the end of time:
         * applied, every VC must be back at its buffer's capacity (a
         * partition: its own ports) */
        if (net_owns(n, n->t->ports[i].router))
            net_credit_sync(n, i, SIMTIME_MAX);
#define FAIL(...)                                                          \
    do {                                                                   \
        if (bad++ < 10)                                                    \
            diag_error(d, NULL, 0, "conservation", __VA_ARGS__);           \
    } while (0)
    if (n->pkt_live)
        FAIL("%u packets still in the network", n->pkt_live);
    if (n->msg_live)
        FAIL("%u messages not complete", n->msg_live);
    /* a partition injects what others deliver: its driver checks the
     * sums (exp/traffic_win.c) */
    if (!n->xp && n->st.injected[PKT_REQ] != n->st.delivered[PKT_REQ])
        FAIL("%llu requests injected, %llu delivered",
             (unsigned long long)n->st.injected[PKT_REQ],
             (unsigned long long)n->st.delivered[PKT_REQ]);
    if (!n->xp && n->st.injected[PKT_RSP] != n->st.delivered[PKT_RSP])
        FAIL("%llu responses injected, %llu delivered",
             (unsigned long long)n->st.injected[PKT_RSP],
             (unsigned long long)n->st.delivered[PKT_RSP]);
    /* the model's end-to-end rule: every request answered by exactly one
     * response */
    if (!n->xp && n->st.delivered[PKT_REQ] != n->st.delivered[PKT_RSP])
        FAIL("%llu requests delivered but %llu responses",
             (unsigned long long)n->st.delivered[PKT_REQ],
             (unsigned long long)n->st.delivered[PKT_RSP]);
    for (uint32_t i = 0; i < n->n_ports; i++) {
        const struct topo_port *tp = &n->t->ports[i];
        const struct net_out *o = &n->out[i];
        if (!net_owns(n, tp->router))
            continue;
        if (n->in[i].occ || o->qflits || o->vcs_waiting || o->used)
            FAIL("port %u not empty (buffer %u, queue %u, VCs waiting 0x%x, "
                 "in flight %u)", i, n->in[i].occ, o->qflits,
                 (unsigned)o->vcs_waiting, o->used);
        for (uint32_t v = 0; v < n->V; v++) {
            const struct net_ovc *w = net_ovc_at(n, i, v);
            int32_t cr = net_port_credits(n, i)[v];
            if (tp->peer != TOPO_NONE &&
                w->credits + cr != (int32_t)n->buf_cap[tp->peer])
                FAIL("port %u VC %u: %d credits, capacity %u", i, v,
                     w->credits + cr, n->buf_cap[tp->peer]);
            if (tp->peer == TOPO_NONE && tp->kind != PORT_UNUSED &&
                w->inj_credits + cr != (int32_t)n->buf_cap[i])
                FAIL("NIC port %u VC %u: %d credits, capacity %u", i, v,
                     w->inj_credits + cr, n->buf_cap[i]);
            if (ivc_head(net_ivc_at(n, i, v)) != NET_NONE)
                FAIL("port %u VC %u: input FIFO not empty", i, v);
            for (uint32_t c = 0; n->rowbuf && c < n->cols; c++) {
                const struct net_rowbuf *rb = net_rowbuf_at(n, i, v, c);
                if (rb->occ)
                    FAIL("port %u VC %u: row buffer %u not empty (%u "
                         "flits)", i, v, c, rb->occ);
                if (rb_wnext(rb) != NET_RB_IDLE)
                    FAIL("port %u VC %u: row buffer %u still listed as "
                         "waiting", i, v, c);
            }
            for (uint32_t rw = 0; n->colbuf && rw < n->rows; rw++) {
                uint32_t raw = n->colbuf_occ[net_colbuf_index(n, i, rw, v)];
                uint32_t occ = raw & NET_COL_OCC;
                if (occ || (raw & NET_COL_WAITERS))
                    FAIL("port %u VC %u: column buffer of row %u not "
                         "empty (%u flits)", i, v, rw, occ);
            }
        }
    }
#undef FAIL
    return bad ? -1 : 0;
}
