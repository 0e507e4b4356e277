/* mpi/p2p.c — point-to-point: how a transfer crosses the network.
 *
 * A request is a send or a receive a rank has posted; a transfer ("xfer")
 * is one point-to-point message between two ranks, from its send to its
 * completion at both ends, kept in two halves, one at each end
 * (mpi_internal.h): the sender's, made by the send; the receiver's, made
 * from the envelope the sender mails as the message leaves its host
 * (dmpi_env_in). Every network message of a transfer carries the
 * poster's half's id and, once known, the other end's in its cookie
 * (msg_tag); each end reads and writes only its own half, so the two
 * ends may run in different partitions of one simulation. The protocol
 * (SMSG, eager, GET or PUT rendezvous) follows the size (mpi.h).
 *
 * Non-overtaking: the sender numbers its envelopes per destination; the
 * receiver keeps, per source, the next number it expects, and holds an
 * envelope that arrives early (adaptive routing) until those before it
 * have arrived. Both tables are small open-addressed maps per rank.
 */
#include <inttypes.h>
#include <string.h>

#include "mpi/mpi_internal.h"

/* Room in job j's packet counts for its iteration `iter`. 0, or -1 (the
 * run fails). */
static int paths_room(struct dmpi *m, uint32_t j, uint32_t iter)
{
    struct dmpi_job_result *res = &m->res[j];
    if (iter < res->n_paths)
        return 0;
    if (dmpi_grow((void **)&res->paths, &res->paths_cap, sizeof *res->paths,
                  iter + 1) != 0) {
        dmpi_fail(m, "out of memory for the packet counts");
        return -1;
    }
    memset(&res->paths[res->n_paths], 0,
           (size_t)(iter + 1 - res->n_paths) * sizeof *res->paths);
    res->n_paths = iter + 1;
    return 0;
}

/* Hand a network message of a transfer to the NIC of `from`, in the
 * routing mode the controller (if any) chooses and in the traffic class
 * of the rank's job (SC'20 §II-E: "the job scheduler will assign to each
 * job a small number of traffic classes"; MPI picks one from an
 * environment variable): every message of a job, control messages and
 * rendezvous GETs included, and their responses (net/nic.c). own: the
 * poster's half of the transfer; far: the other end's, XF_NONE if the
 * poster does not know it yet. */
static void send_net(struct dmpi *m, uint32_t from, uint32_t to,
                     enum net_op op, uint64_t bytes, uint32_t own,
                     uint32_t far, enum kind k)
{
    const struct dmpi_rank *rk = &m->rank[from];
    struct nic_post q = {
        .job = rk->job, .iter = rk->n_marks, .src_nic = rk->nic,
        .dst_nic = m->rank[to].nic, .bytes = bytes,
        .get = op == NET_GET,
        /* which uGNI path the message takes, for a routing controller: small
         * control messages and the smallest data go by SMSG mailboxes, which
         * the SC'19 library always sends with ADAPTIVE_3 (ctl/awr.c) */
        .smsg = k == K_RTS || k == K_FIN ||
                (k == K_EAGER && m->xf[own].proto == DMPI_SMSG),
        .alltoall = rk->in_coll && rk->coll_code == DMPI_ALLTOALL,
    };
    uint8_t mode = m->route_mode ? m->route_mode(m->route_ctx, &q) : 0;
    if (bytes > UINT32_MAX) {
        dmpi_fail(m, "a message of %" PRIu64 " bytes is larger than the "
                     "network takes (4 GiB - 1)", bytes);
        return;
    }
    /* where its packets will count: room for this iteration's counts
     * now, so that a packet's arrival only adds */
    if (paths_room(m, q.job, q.iter) != 0)
        return;
    /* its poster's job and iteration travel with it (on_delivered) */
    uint32_t id = net_send_tc(m->n, q.src_nic, q.dst_nic, op,
                              (uint32_t)bytes, mode, m->job[q.job].tc,
                              msg_tag(own, far, k), origin_of(q.job, q.iter));
    if (id == NET_NONE) {
        dmpi_fail(m, "out of memory for network messages");
        return;
    }
    if (m->route_sent)
        m->route_sent(m->route_ctx, &q, mode);
}

void p2p_send_later(struct dmpi *m, uint32_t xid, enum kind k)
{
    uint32_t e = m->rank[m->xf[xid].src].entity;
    /* the call reaches the NIC one host-interface crossing after the rank
     * made it (XC white paper, "Aries Performance": 0.8 us for an 8-byte
     * put, and "latency is controlled by the number of host interface
     * crossings"; 300 ns each, docs/mpi.md) */
    sim_schedule(m->s, e, now(m) + m->p.host_latency, e, m->ev_resume,
                 INJECT_FLAG | (uint64_t)xid << 4 | k);
}

static void envelope_arrived(struct dmpi *m, uint32_t xid);
static void req_done(struct dmpi *m, uint32_t id);

/* The envelope of the sender's half sxid. */
static struct dmpi_env env_of(const struct dmpi *m, uint32_t sxid)
{
    const struct dmpi_xfer *x = &m->xf[sxid];
    return (struct dmpi_env){ .src = x->src, .dst = x->dst, .tag = x->tag,
                              .seq = x->seq, .bytes = x->bytes,
                              .src_nic = m->rank[x->src].nic, .sxid = sxid,
                              .proto = x->proto };
}

/* The receiver's half made from envelope e: its id, or NONE (the run
 * fails). */
static uint32_t half_from(struct dmpi *m, const struct dmpi_env *e)
{
    uint32_t rxid = xf_new(m);
    if (rxid == NONE)
        return NONE;
    m->xf[rxid] = (struct dmpi_xfer){
        .next = NONE, .src = e->src, .dst = e->dst, .tag = e->tag,
        .seq = e->seq, .bytes = e->bytes, .sreq = NONE, .rreq = NONE,
        .far = e->sxid, .proto = e->proto };
    return rxid;
}

static uint64_t env_key(uint32_t src_nic, uint32_t sxid)
{
    return (uint64_t)src_nic << 32 | sxid;
}

void dmpi_env_in(struct dmpi *m, const struct dmpi_env *e)
{
    uint32_t rxid = half_from(m, e);
    if (rxid == NONE)
        return;
    if (keymap_put(&m->env, env_key(e->src_nic, e->sxid), rxid) != 0)
        dmpi_fail(m, "out of memory for MPI envelopes");
}

void p2p_inject(struct dmpi *m, uint64_t arg)
{
    uint32_t xid = (uint32_t)((arg & ~INJECT_FLAG) >> 4);
    enum kind k = (enum kind)(arg & 15);
    const struct dmpi_xfer *x = &m->xf[xid];
    if (k == K_EAGER || k == K_RTS) {
        /* the envelope leaves with the message's header */
        struct dmpi_env e = env_of(m, xid);
        if (m->mail)
            m->mail(m->mail_ctx, &e);
        else
            dmpi_env_in(m, &e);
        x = &m->xf[xid];
    }
    switch (k) {
    case K_LOCAL: { /* copied into the receiver's shared buffer: the send
                       is complete, the envelope is at the receiver (of
                       the same node) */
        struct dmpi_env e = env_of(m, xid);
        uint32_t sid = x->sreq, rxid = half_from(m, &e);
        if (rxid == NONE)
            return;
        envelope_arrived(m, rxid);
        xf_release(m, xid);
        req_done(m, sid);
        break;
    }
    /* What each kind puts on the wire: an eager message is one PUT of the
     * MPI header and its data, an RTS or a FIN a header-sized PUT, the
     * rendezvous data a GET (the receiver pulls it) or, past rdv_get_max, a
     * PUT after the receiver's descriptor GET (CTS); one-sided calls carry
     * no header. */
    case K_EAGER:
        send_net(m, x->src, x->dst, NET_PUT, m->p.header_bytes + x->bytes,
                 xid, XF_NONE, k);
        break;
    case K_RTS:
        send_net(m, x->src, x->dst, NET_PUT, m->p.header_bytes, xid,
                 XF_NONE, k);
        break;
    case K_RMA_PUT:
        send_net(m, x->src, x->dst, NET_PUT, x->bytes, xid, XF_NONE, k);
        break;
    default:
        send_net(m, x->src, x->dst, NET_GET, x->bytes, xid, XF_NONE, k);
        break;
    }
}

/* ---- requests complete ------------------------------------------------- */

static void req_done(struct dmpi *m, uint32_t id)
{
    struct dmpi_req *q = &m->req[id];
    struct dmpi_rank *rk = &m->rank[q->rank];
    uint32_t g = q->rank;
    if (q->kind == R_RECV) /* the data crosses to the host (unless it came
                              through shared memory), MPI sees it */
        /* the host learns of it one crossing after the NIC (none through
         * shared memory), then MPI's receive overhead o_recv: paid by the rank
         * before it runs on (its debt) */
        rk->debt += (q->local ? 0 : m->p.host_latency) + m->p.o_recv;
    if (q->handle) { /* a handled request: only DMPI_WAIT waits for it */
        rk->hreq[q->handle] = NONE;
    } else {
        assert(rk->open > 0);
        rk->open--;
    }
    bool handled = q->handle != 0;
    bool woke = (rk->wait == W_REQ && rk->wait_req == id) ||
                (rk->wait == W_ALL && rk->open == 0 && !handled);
    req_release(m, id);
    if (woke && handled && rk->wait_more)
        resume_at(m, g, now(m)); /* the call's other waits first */
    else if (woke)
        wake(m, g);
}

/* ---- matching ---------------------------------------------------------- */

static bool matches(const struct dmpi_req *q, const struct dmpi_xfer *x)
{
    return (q->peer == NONE || q->peer == x->src) &&
           (q->tag == DMPI_ANY || q->tag == x->tag);
}

static void rdv_start(struct dmpi *m, uint32_t xid);

/* The receiver's half xid meets receive rid: the receive's data is on
 * its way or here. */
static void matched(struct dmpi *m, uint32_t xid, uint32_t rid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_req *q = &m->req[rid];
    /* MPI: a message longer than the receive buffer is an error
     * (MPI_ERR_TRUNCATE), not a silent cut */
    if (x->bytes > q->bytes) {
        dmpi_fail(m, "rank %u of job %u receives %" PRIu64 " bytes from "
                     "rank %u into a buffer of %" PRIu64 " (MPI_ERR_TRUNCATE)",
                  m->rank[x->dst].r, m->rank[x->dst].job, x->bytes,
                  m->rank[x->src].r, q->bytes);
        return;
    }
    x->rreq = rid;
    q->xfer = xid;
    q->local = m->rank[x->src].node == m->rank[x->dst].node;
    if (x->proto == DMPI_SMSG || x->proto == DMPI_EAGER) {
        /* the data is here: copy it out of the eager buffer */
        if (x->proto == DMPI_EAGER)
            /* an eager message lands in the receiver's eager buffer and is
             * copied out when matched (~10 GB/s memcpy, copy_ps_per_kib) */
            m->rank[x->dst].debt += x->bytes * m->p.copy_ps_per_kib / 1024;
        xf_release(m, xid); /* the receiver is done with it */
        req_done(m, rid);
    } else {
        rdv_start(m, xid);
    }
}

/* An envelope's turn has come at its receiver: match it with the first
 * posted receive it fits, or queue it as unexpected. */
static void envelope_in(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_rank *rk = &m->rank[x->dst];
    uint32_t prev = NONE;
    /* MPI's matching: the first posted receive, in posting order, whose
     * source and tag (or wildcards) fit */
    for (uint32_t q = rk->posted_head; q != NONE;
         prev = q, q = m->req[q].next) {
        if (!matches(&m->req[q], x))
            continue;
        uint32_t nx = m->req[q].next;
        if (prev == NONE)
            rk->posted_head = nx;
        else
            m->req[prev].next = nx;
        if (rk->posted_tail == q)
            rk->posted_tail = prev;
        m->req[q].next = NONE;
        matched(m, xid, q);
        return;
    }
    x->next = NONE;
    if (rk->unexp_head == NONE)
        rk->unexp_head = xid;
    else
        m->xf[rk->unexp_tail].next = xid;
    rk->unexp_tail = xid;
}

/* An envelope (eager data or RTS) reached its receiver: take it in the
 * sender's order. */
static void envelope_arrived(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    struct dmpi_rank *rk = &m->rank[x->dst];
    uint32_t *expect = dmpi_seq_slot(m, &rk->recv_seq, x->src);
    if (!expect)
        return;
    /* MPI's non-overtaking rule between a pair: adaptive routing may
     * deliver a later envelope first (its packets took another path), so
     * it waits until those sent before it have been taken in */
    if (x->seq != *expect) { /* ahead of its turn: hold it */
        x->next = rk->early_head;
        rk->early_head = xid;
        return;
    }
    uint32_t src = x->src;
    envelope_in(m, xid);
    ++*expect;
    /* those held for the next numbers */
    for (bool found = true; found && rk->early_head != NONE;) {
        found = false;
        uint32_t prev = NONE;
        for (uint32_t e = rk->early_head; e != NONE;
             prev = e, e = m->xf[e].next) {
            if (m->xf[e].src != src || m->xf[e].seq != *expect)
                continue;
            if (prev == NONE)
                rk->early_head = m->xf[e].next;
            else
                m->xf[prev].next = m->xf[e].next;
            envelope_in(m, e);
            ++*expect;
            found = true;
            break;
        }
    }
}

/* Rank g posts receive rid: match it with the first fitting unexpected
 * envelope, or queue it. */
void p2p_recv_post(struct dmpi *m, uint32_t g, uint32_t rid)
{
    struct dmpi_rank *rk = &m->rank[g];
    uint32_t prev = NONE;
    for (uint32_t x = rk->unexp_head; x != NONE;
         prev = x, x = m->xf[x].next) {
        if (!matches(&m->req[rid], &m->xf[x]))
            continue;
        uint32_t nx = m->xf[x].next;
        if (prev == NONE)
            rk->unexp_head = nx;
        else
            m->xf[prev].next = nx;
        if (rk->unexp_tail == x)
            rk->unexp_tail = prev;
        matched(m, x, rid);
        return;
    }
    m->req[rid].next = NONE;
    if (rk->posted_head == NONE)
        rk->posted_head = rid;
    else
        m->req[rk->posted_tail].next = rid;
    rk->posted_tail = rid;
}

/* ---- protocols --------------------------------------------------------- */

/* Rank g sends: the request sid of `bytes` to global rank dst. */
void p2p_send_start(struct dmpi *m, uint32_t g, uint32_t sid,
                       uint32_t dst, uint32_t tag, uint64_t bytes)
{
    uint32_t xid = xf_new(m);
    uint32_t *seq = dmpi_seq_slot(m, &m->rank[g].send_seq, dst);
    if (xid == NONE || !seq)
        return;
    struct dmpi_xfer *x = &m->xf[xid];
    /* the protocol follows the size as Cray MPI's does (Pedretti et al.
     * §V-D, seen in the Gemini tile counters): SMSG up to 16 B, an eager
     * PUT up to 4 KiB, GET rendezvous up to 256 KiB, PUT rendezvous above
     * (mpi/params.c) */
    *x = (struct dmpi_xfer){ .next = NONE, .src = g, .dst = dst,
                             .tag = tag, .seq = (*seq)++, .bytes = bytes,
                             .sreq = sid, .rreq = NONE, .far = XF_NONE,
                             .proto = (uint8_t)dmpi_protocol(&m->p, bytes) };
    m->req[sid].xfer = xid;
    struct dmpi_job_result *res = &m->res[m->rank[g].job];
    res->msgs++;
    res->bytes += bytes;
    if (m->rank[g].node == m->rank[dst].node) {
        /* shared memory: one copy into the receiver's buffer, whatever
         * the size (single-copy transfers for large messages); matched
         * like an eager message, without a second copy */
        x->proto = DMPI_SMSG;
        uint32_t e = m->rank[g].entity;
        sim_schedule(m->s, e,
                     now(m) + m->p.shm_latency +
                         bytes * m->p.copy_ps_per_kib / 1024,
                     e, m->ev_resume,
                     INJECT_FLAG | (uint64_t)xid << 4 | K_LOCAL);
        return;
    }
    p2p_send_later(m, xid,
                   x->proto == DMPI_SMSG || x->proto == DMPI_EAGER ? K_EAGER
                                                                   : K_RTS);
}

/* A rendezvous transfer's receiver's half is matched (whose NIC's handler
 * this runs in, or the receiver's own resume). */
static void rdv_start(struct dmpi *m, uint32_t xid)
{
    struct dmpi_xfer *x = &m->xf[xid];
    /* The matched receiver drives the rendezvous: up to rdv_get_max it GETs
     * the data from the sender's buffer ("8 KB to 256 KB use a GET based
     * protocol", Pedretti et al. §V-D), so the data travels in GET
     * responses; above, it GETs a header-sized descriptor ("a small number
     * of destination to source GET transactions") whose arrival makes the
     * sender PUT the data. */
    if (x->proto == DMPI_RDV_GET)
        send_net(m, x->dst, x->src, NET_GET, x->bytes, xid, x->far,
                 K_GETDATA);
    else
        send_net(m, x->dst, x->src, NET_GET, m->p.header_bytes, xid, x->far,
                 K_CTS);
}

/* Network message msg of the layer has arrived at t: its time to its
 * poster's job's M (struct dmpi_job_result.msg_time). */
static void time_msg(struct dmpi *m, const struct message *msg, simtime t)
{
    struct dmpi_job_result *r = &m->res[msg->origin >> 32];
    r->msg_time += t - msg->t_created;
    r->msg_timed++;
}

/* A network message's requests have all reached its destination. */
static void on_msg_arrived(void *ctx, uint32_t mid, const struct message *msg,
                           simtime t)
{
    struct dmpi *m = ctx;
    (void)mid;
    uint32_t own = tag_own(msg->tag), far = tag_far(msg->tag);
    /* Netscope's M, a message's delivery time (ICS'21 §4.1), measured: a
     * PUT's when its last request has arrived, a GET's when its last
     * response is back (on_msg_done) */
    if (msg->op == NET_PUT) /* its data is there */
        time_msg(m, msg, t);
    switch (tag_kind(msg->tag)) {
    case K_EAGER:
    case K_RTS: { /* at the receiver: its half, made from the envelope */
        uint32_t rxid;
        if (keymap_take(&m->env, env_key(msg->src_nic, own), &rxid))
            envelope_arrived(m, rxid);
        else /* its envelope could not be stored: the run has failed */
            assert(m->error);
        break;
    }
    case K_CTS: { /* the descriptor request reached the sender: PUT */
        struct dmpi_xfer *x = &m->xf[far];
        x->far = own; /* the receiver's half, for the PUT's arrival */
        send_net(m, x->src, x->dst, NET_PUT, x->bytes, far, own, K_PUTDATA);
        break;
    }
    case K_PUTDATA: { /* the data is at the receiver */
        uint32_t r = m->xf[far].rreq;
        xf_release(m, far);
        req_done(m, r);
        break;
    }
    case K_FIN: { /* the sender learns the receiver has the data */
        uint32_t s = m->xf[far].sreq;
        xf_release(m, far);
        req_done(m, s);
        break;
    }
    default:
        break; /* GETs' requests, one-sided PUTs: nothing at the target */
    }
}

/* A packet of one of the layer's messages reached its destination NIC
 * (a request at the target, a response back at the poster): count it
 * where its message was posted, which travels with the message. No
 * allocation where the poster runs: the counts were made room for at the
 * post; at a target in another partition, room is made at the first
 * packet of an iteration the counts there have not reached. */
static void on_delivered(void *ctx, const struct packet *p, simtime t)
{
    struct dmpi *m = ctx;
    (void)t;
    uint64_t o = m->n->msg[net_pkt_cold(m->n, p)->msg].origin;
    uint32_t job = (uint32_t)(o >> 32), iter = (uint32_t)o;
    if (iter >= m->res[job].n_paths && paths_room(m, job, iter) != 0)
        return;
    struct dmpi_paths *w = &m->res[job].paths[iter];
    w->pkts[p->cls]++;
    w->nonmin[p->cls] += (p->flags & PKT_NONMIN) != 0;
    w->hops[p->cls] += p->hops;
}

/* Where the packet waited before this hop (mpi.h, struct dmpi_waits):
 * at its NIC, or at the router it leaves by `port`. */
static void on_hop(void *ctx, const struct packet *p, uint32_t port,
                   bool at_nic, simtime waited, simtime t)
{
    struct dmpi *m = ctx;
    (void)t;
    uint64_t o = m->n->msg[net_pkt_cold(m->n, p)->msg].origin;
    struct dmpi_waits *w = m->res[(uint32_t)(o >> 32)].waits;
    uint32_t at = at_nic ? PORT_UNUSED : m->t->ports[port].kind;
    uint32_t vc = p->vc % m->n->p.vcs;
    w->hops[p->cls][at][vc]++;
    w->wait[p->cls][at][vc] += waited;
    if (waited > w->max[p->cls][at][vc])
        w->max[p->cls][at][vc] = waited;
}

void p2p_waits_hook(struct dmpi *m)
{
    m->n->hooks.hop = on_hop;
}

/* A network message is complete at its source (PUT acknowledged, GET
 * data back). */
static void on_msg_done(void *ctx, uint32_t mid, const struct message *msg,
                        simtime t)
{
    struct dmpi *m = ctx;
    (void)mid;
    uint32_t own = tag_own(msg->tag);
    if (msg->op == NET_GET) /* its data is back */
        time_msg(m, msg, t);
    switch (tag_kind(msg->tag)) {
    case K_EAGER: { /* the sender's buffer is free */
        uint32_t s = m->xf[own].sreq;
        xf_release(m, own);
        req_done(m, s);
        break;
    }
    /* GET rendezvous: the sender's buffer is free only once the receiver
     * says so (FIN), a control PUT back */
    case K_GETDATA: { /* the receiver has the data: FIN to the sender */
        struct dmpi_xfer *x = &m->xf[own];
        uint32_t r = x->rreq;
        send_net(m, x->dst, x->src, NET_PUT, m->p.header_bytes, XF_NONE,
                 x->far, K_FIN);
        xf_release(m, own);
        req_done(m, r);
        break;
    }
    case K_PUTDATA: { /* acknowledged: the send is complete */
        uint32_t s = m->xf[own].sreq;
        xf_release(m, own);
        req_done(m, s);
        break;
    }
    case K_RMA_PUT:
    case K_RMA_GET: {
        uint32_t g = m->xf[own].src;
        struct dmpi_rank *rk = &m->rank[g];
        xf_release(m, own);
        assert(rk->rma_open > 0);
        if (--rk->rma_open == 0 && rk->wait == W_RMA)
            wake(m, g);
        break;
    }
    default:
        break; /* RTS, CTS, FIN acknowledged: nothing to do */
    }
}

void p2p_hooks(struct dmpi *m)
{
    m->n->hooks.ctx = m;
    m->n->hooks.delivered = on_delivered;
    m->n->hooks.msg_arrived = on_msg_arrived;
    m->n->hooks.msg_done = on_msg_done;
}
