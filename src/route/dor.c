/* route/dor.c — Gemini torus routing: dimension order X, Y, Z, the
 * shorter way round (ties go +), as Pedretti et al. observed on Cielo
 * ("traversing the X dimension first, Y next, then Z last ... the
 * shortest number of hops possible is taken in each dimension"); among
 * the parallel tiles of one direction (a logical link is several tiles,
 * Pedretti et al. §III) the least loaded (flits waiting plus credits in
 * use). VC 1 of the class after
 * crossing the wrap-around link of the current dimension (the dateline),
 * VC 0 again in a new dimension. */
#include "route/route.h"

#include <assert.h>

static void dor_route(struct net *n, uint32_t r, struct packet *p,
                      simtime now)
{
    const struct topo *t = n->t;
    const uint32_t size[3] = { t->p.torus.x, t->p.torus.y, t->p.torus.z };
    const uint16_t *cur = t->routers[r].pos;
    const uint16_t *dst = t->routers[p->dst_router].pos;
    /* the first dimension, from the one being routed on, in which the
     * packet is not yet at its destination's coordinate: X before Y before
     * Z, so the channel dependencies never turn back to an earlier
     * dimension */
    for (uint32_t d = p->dim; d < 3; d++) {
        if (cur[d] == dst[d])
            continue;
        if (d != p->dim) {
            p->dim = (uint8_t)d;
            /* a new dimension starts on VC 0 of the class again: its ring's
             * dateline has not been crossed */
            p->seg = 0;
        }
        uint32_t fwd = (dst[d] + size[d] - cur[d]) % size[d];
        /* the shorter way round the ring; a tie (half a ring) goes + */
        bool plus = fwd <= size[d] - fwd;
        uint32_t dir = 2 * d + (plus ? 0 : 1);
        size_t e = net_nh(n, r, dir);
        assert(n->nh_count[e] > 0);
        uint32_t port = net_nh_port(n, r, e, 0);
        if (n->nh_count[e] > 1) {
            uint32_t bl = net_port_load_local(n, port, now);
            for (uint32_t i = 1; i < n->nh_count[e]; i++) {
                uint32_t pi = net_nh_port(n, r, e, i);
                uint32_t l = net_port_load_local(n, pi, now);
                if (l < bl) {
                    bl = l;
                    port = pi;
                }
            }
        }
        p->out_port = port;
        p->out_vc = net_vc(n, p, p->seg);
        /* Dateline: a packet that crosses the ring's wrap-around link
         * continues on VC 1, so that no cycle of channel dependencies closes
         * around a ring (the torus needs 2 VCs per class: net/nexthop.c
         * refuses fewer). */
        bool wrap = plus ? cur[d] == size[d] - 1 : cur[d] == 0;
        if (wrap)
            p->seg = 1;
        return;
    }
    assert(0 && "dor_route called at the destination");
}

const struct routing routing_dor = {
    .base = { "DOR", "torus dimension order X, Y, Z on the shortest "
                     "direction" },
    .shapes = 1u << TOPO_SHAPE_TORUS,
    .route = dor_route,
};
