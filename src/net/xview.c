/* net/xview.c — see xview.h. */
#include "net/xview.h"

#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"
#include "net/xpart.h"

int net_view_init(struct net_view *v, const struct net *net)
{
    memset(v, 0, sizeof *v);
    v->n = *net;
    v->s = *net->s;
    v->n.s = &v->s;
    size_t P = net->n_ports, C = net->n_nics, PV = P * net->V;
    v->n.out = calloc(P ? P : 1, sizeof *v->n.out);
    v->n.in = calloc(P ? P : 1, sizeof *v->n.in);
    v->n.ivc = calloc(PV ? PV : 1, net->ivc_size);
    v->n.ct.out = net->ct.out ? calloc(P ? P : 1, sizeof *v->n.ct.out)
                              : NULL;
    v->n.ct.nic = net->ct.nic ? calloc(C ? C : 1, sizeof *v->n.ct.nic)
                              : NULL;
    v->ok = v->n.out && v->n.in && v->n.ivc &&
            (!net->ct.out || v->n.ct.out) && (!net->ct.nic || v->n.ct.nic);
    if (!v->ok) {
        net_view_free(v);
        return -1;
    }
    return 0;
}

void net_view_free(struct net_view *v)
{
    free(v->n.out);
    free(v->n.in);
    free(v->n.ivc);
    free(v->n.ct.out);
    free(v->n.ct.nic);
    memset(v, 0, sizeof *v);
}

void net_view_at(struct net_view *v, simtime T)
{
    v->s.now = T;
}

/* Port i's records: its output and input, its input VCs, its counts. */
static void port_pack(const struct net *n, uint32_t i, struct pack *p)
{
    pack_bytes(p, &n->out[i], sizeof n->out[i]);
    pack_bytes(p, &n->in[i], sizeof n->in[i]);
    pack_bytes(p, net_ivc_at(n, i, 0), (size_t)n->V * n->ivc_size);
    if (n->ct.out)
        pack_bytes(p, &n->ct.out[i], sizeof n->ct.out[i]);
}

static void port_unpack(struct net *n, uint32_t i, struct unpack *u)
{
    unpack_bytes(u, &n->out[i], sizeof n->out[i]);
    unpack_bytes(u, &n->in[i], sizeof n->in[i]);
    unpack_bytes(u, net_ivc_at(n, i, 0), (size_t)n->V * n->ivc_size);
    if (n->ct.out)
        unpack_bytes(u, &n->ct.out[i], sizeof n->ct.out[i]);
}

void net_view_pack(const struct net *net, struct pack *p)
{
    const struct topo *t = net->t;
    for (uint32_t i = 0; i < net->n_ports; i++)
        if (net_owns(net, t->ports[i].router))
            port_pack(net, i, p);
    for (uint32_t c = 0; net->ct.nic && c < net->n_nics; c++)
        if (net_owns(net, t->nics[c].router))
            pack_bytes(p, &net->ct.nic[c], sizeof net->ct.nic[c]);
}

/* Whether router r is partition part's (in v's split). */
static bool of_part(const struct net_view *v, uint32_t r, uint32_t part)
{
    return !v->n.xp || v->n.xp->part_of[r] == part;
}

int net_view_add(struct net_view *v, uint32_t part, struct unpack *u)
{
    struct net *n = &v->n;
    const struct topo *t = n->t;
    for (uint32_t i = 0; i < n->n_ports; i++)
        if (of_part(v, t->ports[i].router, part))
            port_unpack(n, i, u);
    for (uint32_t c = 0; n->ct.nic && c < n->n_nics; c++)
        if (of_part(v, t->nics[c].router, part))
            unpack_bytes(u, &n->ct.nic[c], sizeof n->ct.nic[c]);
    return u->bad ? -1 : 0;
}
