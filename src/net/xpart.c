/* net/xpart.c — what crosses between the partitions of one network
 * (net/xpart.h says what and why). */
#include "net/xpart.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "core/slots.h"
#include "core/vec.h"
#include "net/net_internal.h"
#include "net/nic_ctl.h"
#include "net/partition.h"

/* With aries_load "occupancy": the input ports of this partition's
 * routers that a router of another partition reads (N3), each with its
 * reader's partition, once a link's latency is short enough that no
 * entry a reader needs leaves the ring before it reads (xpart.h). 0, or
 * -1 reported. */
static int pub_ports(struct net *n, struct diag *d)
{
    struct net_xp *x = n->xp;
    const struct topo *t = n->t;
    simtime most = (simtime)(NET_PUB_DEPTH - 3) * n->p.publish_period;
    uint32_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        k = 0;
        for (uint32_t i = 0; i < n->n_ports; i++) {
            uint32_t dp = t->ports[i].peer;
            if (dp == TOPO_NONE || t->ports[i].nic != TOPO_NONE ||
                x->part_of[t->ports[dp].router] != x->me ||
                x->part_of[t->ports[i].router] == x->me)
                continue;
            if (pass == 0 && n->out[i].latency > most) {
                diag_error(d, NULL, 0, "partitions",
                           "a link between partitions is %.1f ns long, more "
                           "than the %u publication periods the routers' "
                           "rings keep (%.1f ns): a windowed run cannot "
                           "split aries_load \"occupancy\" there",
                           (double)n->out[i].latency / SIMTIME_NS,
                           NET_PUB_DEPTH - 3, (double)most / SIMTIME_NS);
                return -1;
            }
            if (pass == 1) {
                x->pub_port[k] = dp;
                x->pub_to[k] = x->part_of[t->ports[i].router];
            }
            k++;
        }
        if (pass == 0 && k &&
            (!(x->pub_port = calloc(k, sizeof *x->pub_port)) ||
             !(x->pub_to = calloc(k, sizeof *x->pub_to)) ||
             !(x->pub_sent = calloc(k, sizeof *x->pub_sent)))) {
            diag_error(d, NULL, 0, "partitions", "out of memory");
            return -1;
        }
    }
    x->n_pub_port = k;
    return 0;
}

int net_xp_init(struct net *n, const uint32_t *part_of, uint32_t parts,
                uint32_t me, int dim, struct diag *d)
{
    const struct topo *t = n->t;
    /* the far end's occupancy as it is now (publish_cycles 0: N4) would
     * be read across the cut at no delay */
    if (n->p.aries_load == NET_ARIES_OCCUPANCY && !n->p.publish_period) {
        diag_error(d, NULL, 0, "partitions",
                   "a windowed run cannot read the far end's occupancy as "
                   "it is now (aries_load \"occupancy\" with publish_cycles "
                   "0): give publish_cycles > 0 (the hardware's 10)");
        return -1;
    }
    /* controllers acting at the source alone split as they are (per-pair
     * and per-NIC state, marks carried by the packets: Slingshot's,
     * DCQCN, app-aware routing; inventory C3-C7), and so do ticks that
     * act on each NIC alone (Netscope, dcqcn-stall: inventory N8, C1),
     * taken at their exact times at the windows' ends (net_xp_next_tick);
     * a machine-wide decision too when its input adds up over the
     * partitions (tick_count: Cray's supervisor, C2) */
    for (uint32_t i = 0; i < n->ctl.n; i++)
        if (n->ctl.ctl[i]->tick && !n->ctl.ctl[i]->tick_per_nic &&
            !n->ctl.ctl[i]->tick_count) {
            diag_error(d, NULL, 0, "partitions",
                       "a windowed run does not yet split the "
                       "machine-wide tick of the %s rate controller "
                       "(network.congestion_control)",
                       n->ctl.ctl[i]->base.name);
            return -1;
        }
    struct net_xp *x = calloc(1, sizeof *x);
    if (!x || !(x->defer = calloc(n->n_ports, 1)) ||
        !(x->box = calloc(parts, sizeof *x->box))) {
        if (x)
            free(x->defer);
        free(x);
        diag_error(d, NULL, 0, "partitions", "out of memory");
        return -1;
    }
    x->parts = parts;
    x->me = me;
    x->part_of = part_of;
    /* the links between units (groups, or planes across dim): whatever
     * P, a cut crosses only these */
    for (uint32_t i = 0; i < n->n_ports; i++) {
        const struct topo_port *tp = &t->ports[i];
        x->defer[i] = tp->peer != TOPO_NONE &&
                      partition_unit_of(t, dim, tp->router) !=
                          partition_unit_of(t, dim,
                                            t->ports[tp->peer].router);
    }
    n->xp = x;
    if (n->p.aries_load == NET_ARIES_OCCUPANCY && pub_ports(n, d) != 0) {
        net_xp_free(n);
        return -1;
    }
    return 0;
}

void net_xp_free(struct net *n)
{
    struct net_xp *x = n->xp;
    if (!x)
        return;
    for (uint32_t i = 0; i < x->parts; i++) {
        free(x->box[i].pkt);
        free(x->box[i].cr);
        free(x->box[i].mail);
        free(x->box[i].pub);
    }
    free(x->pub_port);
    free(x->pub_to);
    free(x->pub_sent);
    free(x->box);
    free(x->defer);
    keymap_free(&x->fm);
    free(x);
    n->xp = NULL;
}

/* The partition of the NIC whose message a packet belongs to: a
 * request's source, a response's destination. */
static uint32_t home_part(const struct net *n, const struct packet *p)
{
    uint32_t nic = p->cls == PKT_REQ ? p->src_nic : p->dst_nic;
    return n->xp->part_of[n->t->nics[nic].router];
}

void net_xp_ship(struct net *n, uint32_t r, uint32_t id, simtime at,
                 uint32_t target)
{
    struct net_xp *x = n->xp;
    const struct packet *p = &n->pkt[id];
    struct xp_box *b = &x->box[x->part_of[target]];
    if (vec_reserve((void **)&b->pkt, &b->cap_pkt, b->n_pkt + 1,
                    sizeof *b->pkt) != 0) {
        x->oom = true;
        sim_stop(n->s);
        return;
    }
    struct xp_pkt *v = &b->pkt[b->n_pkt++];
    v->at = at;
    v->key = sim_take_key(n->s, r);
    v->target = target;
    v->p = *p;
    v->c = n->pkt_cold[id];
    bool home = home_part(n, p) == x->me;
    if (home)
        v->c.home = v->c.msg;
    /* a request's message: at home, or its copy here (a foreign one, or
     * the one it passed through with, which goes with it) */
    if (p->cls == PKT_REQ) {
        v->m = n->msg[v->c.msg];
        if (!home && x->part_of[p->dst_router] != x->me)
            slots_release(MSG_SLOTS(n), v->c.msg);
    } else {
        memset(&v->m, 0, sizeof v->m);
    }
    slots_release(PKT_SLOTS(n), id);
}

void net_xp_credit(struct net *n, uint32_t r, uint32_t up, uint32_t vc,
                   uint32_t flits, simtime at)
{
    struct net_xp *x = n->xp;
    struct xp_box *b = &x->box[x->part_of[n->t->ports[up].router]];
    if (vec_reserve((void **)&b->cr, &b->cap_cr, b->n_cr + 1,
                    sizeof *b->cr) != 0) {
        x->oom = true;
        sim_stop(n->s);
        return;
    }
    b->cr[b->n_cr++] = (struct xp_cr){ .at = at,
                                       .key = sim_take_key(n->s, r),
                                       .up = up, .vc = vc, .flits = flits };
}

void net_xp_mail(struct net *n, uint32_t part, const struct xp_mail *m)
{
    struct net_xp *x = n->xp;
    struct xp_box *b = &x->box[part];
    if (vec_reserve((void **)&b->mail, &b->cap_mail, b->n_mail + 1,
                    sizeof *b->mail) != 0) {
        x->oom = true;
        sim_stop(n->s);
        return;
    }
    b->mail[b->n_mail++] = *m;
}

simtime net_xp_next_tick(const struct net *n)
{
    return n->ctl.first_tick;
}

/* ---- foreign messages --------------------------------------------- */

static uint64_t fm_key_of(const struct message *m, uint32_t home)
{
    return (uint64_t)m->src_nic << 32 | home;
}

/* The copy of a request's message here (made at its first request):
 * its id, NET_NONE when out of memory. The copy keeps the largest
 * packets and bytes cut that any of its requests saw at its source: once
 * a request cut after the last has arrived they are final (xpart.h). */
static uint32_t fm_get(struct net *n, const struct message *m, uint32_t home)
{
    struct net_xp *x = n->xp;
    uint64_t key = fm_key_of(m, home);
    const uint32_t *known = keymap_get(&x->fm, key);
    if (known) {
        struct message *c = &n->msg[*known];
        if (m->packets > c->packets)
            c->packets = m->packets;
        if (m->sent > c->sent)
            c->sent = m->sent;
        return *known;
    }
    uint32_t id = slots_alloc(MSG_SLOTS(n));
    if (id == NET_NONE)
        return NET_NONE;
    if (keymap_put(&x->fm, key, id) != 0) {
        slots_release(MSG_SLOTS(n), id);
        return NET_NONE;
    }
    struct message *c = &n->msg[id];
    *c = *m;
    c->next = NET_NONE;
    c->req_arrived = c->rsp_arrived = 0;
    return id;
}

void net_xp_msg_arrived(struct net *n, uint32_t mid, uint32_t home)
{
    struct net_xp *x = n->xp;
    const struct message *m = &n->msg[mid];
    if (x->part_of[n->t->nics[m->src_nic].router] == x->me)
        return; /* its own: it stays for its responses */
    uint32_t id;
    bool held = keymap_take(&x->fm, fm_key_of(m, home), &id);
    (void)held;
    assert(held && id == mid); /* made when its first request came */
    slots_release(MSG_SLOTS(n), mid);
}

/* ---- the window's end --------------------------------------------- */

/* Packet v, arrived: under an id of this pool, its message found. */
static int receive_packet(struct net *n, const struct xp_pkt *v)
{
    struct net_xp *x = n->xp;
    uint32_t id = net_pkt_alloc(n);
    if (id == NET_NONE)
        return -1;
    struct packet *p = &n->pkt[id];
    *p = v->p;
    p->next = p->in_next = NET_NONE;
    struct packet_cold *c = &n->pkt_cold[id];
    *c = v->c;
    if (home_part(n, p) == x->me) {
        c->msg = c->home; /* home again (or never left, transit aside) */
    } else if (p->cls == PKT_REQ &&
               x->part_of[p->dst_router] == x->me) {
        c->msg = fm_get(n, &v->m, c->home);
        if (c->msg == NET_NONE)
            return -1;
    } else if (p->cls == PKT_REQ) {
        /* passing through to a third partition: its message as it came,
         * in this pool until it leaves (net_xp_ship) */
        c->msg = slots_alloc(MSG_SLOTS(n));
        if (c->msg == NET_NONE)
            return -1;
        n->msg[c->msg] = v->m;
    } else {
        c->msg = NET_NONE; /* a response passing through */
    }
    sim_schedule_key(n->s, v->at, v->key, v->target, NET_EV_ARRIVE, id);
    return 0;
}

int net_xp_receive(struct net *n, const struct xp_pkt *pkt, size_t n_pkt,
                   const struct xp_cr *cr, size_t n_cr,
                   const struct xp_mail *mail, size_t n_mail)
{
    struct net_xp *x = n->xp;
    for (size_t i = 0; i < n_mail; i++)
        if (x->mail_in)
            x->mail_in(x->mail_ctx, &mail[i]);
    for (size_t i = 0; i < n_pkt; i++)
        if (receive_packet(n, &pkt[i]) != 0)
            return -1;
    for (size_t i = 0; i < n_cr; i++)
        net_credit_write_key(n, cr[i].up, cr[i].vc, cr[i].flits, cr[i].at,
                             cr[i].key);
    return 0;
}

int net_xp_flush(struct net *n)
{
    struct net_xp *x = n->xp;
    if (n->publish != NET_PUB_INPUT)
        return 0;
    for (uint32_t k = 0; k < x->n_pub_port; k++) {
        uint32_t port = x->pub_port[k];
        const struct net_in *in = &n->in[port];
        const uint64_t *ring = n->pub + (size_t)port * NET_PUB_DEPTH;
        uint64_t sent = x->pub_sent[k];
        struct xp_box *b = &x->box[x->pub_to[k]];
        /* oldest to newest: each entry after the newest sent, and that
         * one again if its epoch's value changed since */
        for (uint8_t j = in->pub_n; j > 0; j--) {
            uint64_t w = ring[(in->pub_top + NET_PUB_DEPTH + 1u - j) %
                              NET_PUB_DEPTH];
            if (sent && ((w >> 24) < ((sent - 1) >> 24) || w == sent - 1))
                continue;
            if (vec_reserve((void **)&b->pub, &b->cap_pub, b->n_pub + 1,
                            sizeof *b->pub) != 0) {
                x->oom = true;
                return -1;
            }
            b->pub[b->n_pub++] = (struct xp_pub){ .port = port, .word = w };
            sent = w + 1;
        }
        x->pub_sent[k] = sent;
    }
    return 0;
}

void net_xp_receive_pub(struct net *n, const struct xp_pub *pub, size_t n_pub)
{
    for (size_t i = 0; i < n_pub; i++)
        net_pub_record(n, pub[i].port, pub[i].word & ((UINT64_C(1) << 24) - 1),
                       (simtime)(pub[i].word >> 24) * n->p.publish_period);
}

void net_xp_clear(struct net *n)
{
    struct net_xp *x = n->xp;
    for (uint32_t i = 0; i < x->parts; i++)
        x->box[i].n_pkt = x->box[i].n_cr = x->box[i].n_mail =
            x->box[i].n_pub = 0;
}
