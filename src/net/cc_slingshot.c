/* net/cc_slingshot.c — Slingshot's endpoint congestion control, as far as
 * SC'20 §II-D describes it; the algorithm is not public, and what is
 * inferred is marked so.
 *
 * From the paper: the control "tracks every in-flight packet between every
 * pair of endpoints", using the end-to-end acknowledgements (§II-A: "used
 * to track the outstanding packets between every pair of network
 * endpoints"); it "can distinguish between jobs that are victims of
 * congestion and those who are contributing to congestion, applying stiff
 * and fast back-pressure to the sources that are contributing", and "only
 * throttles those streams of packets who are contributing to the endpoint
 * congestion, without negatively affecting other jobs or other streams of
 * packets within the same job".
 *
 * Model (inferred):
 *  - per pair (source NIC, destination NIC), the requests outstanding
 *    (sent, response not yet back) and a window, in packets; a pair at its
 *    window waits for an ack, the NIC's other pairs go on (cc.h);
 *  - contribution is learnt from the marks its responses carry back: the
 *    last switch marks a request it routes to the destination's port while
 *    more than mark_flits wait there (net.c). Only streams toward a
 *    congested endpoint pass that port, so only they are marked: a stream
 *    that shares links with the congestion tree elsewhere is not;
 *  - stiff: a marked ack cuts the window to half of what the pair has in
 *    flight (not of a nominal window, which may be far above it), at most
 *    once per round trip (the marked packet's own), down to window_min;
 *  - recovery: each unmarked ack adds increase/window, `increase` packets
 *    per round trip, up to window_max;
 *  - a pair at its full window with nothing in flight is forgotten.
 * Defaults (net.c): window_max = the NIC's outstanding limit (an
 * unthrottled pair is limited by the NIC alone, so victims pay nothing),
 * window_min 1 packet, increase 1 packet per round trip (TCP-like
 * additive increase), mark_flits four of the largest packets (a queue
 * deeper than what a few sources' packets arriving together leave: more
 * arrives at the port than it drains). */
#include "net/cc.h"

#include <stdio.h>
#include <stdlib.h>

#include "net/net.h"

#define FP 256u /* window fixed point: 1/256 packet */

struct sls {
    struct cc_pairs t;
    uint32_t wmax, wmin, inc; /* FP */
};

static int sls_init(void **st, struct net *n, char *err, size_t len)
{
    const struct cc_params *p = &n->p.ccp;
    uint32_t wmax = p->window_max ? p->window_max : n->p.max_outstanding;
    if (p->window_min < 1 || wmax < p->window_min || wmax > (1u << 22)) {
        snprintf(err, len, "slingshot congestion control needs 1 <= "
                           "cc_window_min <= cc_window_max <= 4194304");
        return -1;
    }
    struct sls *s = calloc(1, sizeof *s);
    if (!s || cc_pairs_init(&s->t, 1024) != 0) {
        free(s);
        snprintf(err, len, "out of memory");
        return -1;
    }
    s->wmax = wmax * FP;
    s->wmin = p->window_min * FP;
    s->inc = p->increase * FP;
    *st = s;
    return 0;
}

static void sls_free(void *st)
{
    struct sls *s = st;
    if (s)
        cc_pairs_free(&s->t);
    free(s);
}

static simtime sls_admit(void *st, uint32_t src, uint32_t dst, simtime now)
{
    struct sls *s = st;
    const struct cc_pair *e = cc_pairs_find(&s->t, src, dst);
    if (!e || (uint64_t)(e->out + 1) * FP <= e->win)
        return now;
    return SIMTIME_MAX; /* an ack reopens it */
}

static void sls_sent(void *st, const struct packet *p, simtime now)
{
    struct sls *s = st;
    (void)now;
    struct cc_pair *e = cc_pairs_get(&s->t, p->src_nic, p->dst_nic, s->wmax);
    if (e) /* else out of memory: the pair goes untracked */
        e->out++;
}

static void sls_acked(void *st, const struct packet *p, simtime now)
{
    struct sls *s = st;
    /* a response: it goes from the request's destination to its source */
    struct cc_pair *e = cc_pairs_find(&s->t, p->dst_nic, p->src_nic);
    if (!e)
        return;
    if (e->out)
        e->out--;
    if (p->mark & PKT_MARK_ENDPOINT) {
        if (now >= e->cut_until) {
            uint64_t in = (uint64_t)(e->out + 1) * FP;
            uint64_t w = (in < e->win ? in : e->win) / 2;
            e->win = (uint32_t)(w > s->wmin ? w : s->wmin);
            /* the response's t_created: its request left the source */
            e->cut_until = now + (now - p->t_created);
        }
    } else if (e->win < s->wmax) {
        uint64_t w = e->win + (uint64_t)s->inc * FP / e->win;
        e->win = (uint32_t)(w < s->wmax ? w : s->wmax);
    }
    if (e->out == 0 && e->win >= s->wmax)
        cc_pairs_del(&s->t, e);
}

const struct cc_ops cc_slingshot = {
    .base = { "slingshot", "Slingshot endpoint congestion control: per "
                           "endpoint-pair windows cut by the marks of a "
                           "congested destination port (SC'20 §II-D; "
                           "inferred)" },
    .init = sls_init,
    .free = sls_free,
    .admit = sls_admit,
    .sent = sls_sent,
    .acked = sls_acked,
};

uint32_t cc_slingshot_window(const void *st, uint32_t src, uint32_t dst)
{
    const struct sls *s = st;
    const struct cc_pair *e = cc_pairs_find(&s->t, src, dst);
    return e ? e->win / FP : s->wmax / FP;
}
