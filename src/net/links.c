/* net/links.c — logical links (see links.h): the tiles of a router that
 * lead the same way to the same neighbour, counted together as the
 * Gemini performance counter library and LDMS's gpcdr report them
 * (Pedretti et al. §III and Fig. 4; repo:ovis-hpc/ldms gemini.h, whose
 * link aggregation is "based on Kevin Pedretti's ... link aggregation
 * library"). A Gemini X or Z link is 8 tiles, Y 4, the host link 8; an
 * Aries rank-2 link 3 tiles, a rank-3 link the optical tiles to one
 * router of another group. Nothing here runs during the simulation. */
#include "net/links.h"

#include <stdlib.h>
#include <string.h>

#include "net/counters.h"
#include "topo/topo.h"

int links_build(struct links *L, const struct topo *t)
{
    memset(L, 0, sizeof *L);
    L->link = calloc(t->n_ports ? t->n_ports : 1, sizeof *L->link);
    L->tile = calloc(t->n_ports ? t->n_ports : 1, sizeof *L->tile);
    L->first_link = calloc((size_t)t->n_routers + 1, sizeof *L->first_link);
    if (!L->link || !L->tile || !L->first_link) {
        links_free(L);
        return -1;
    }
    uint32_t nt = 0;
    for (uint32_t r = 0; r < t->n_routers; r++) {
        const struct topo_router *tr = &t->routers[r];
        L->first_link[r] = L->n;
        /* tiles of r in port order; a tile joins the link of an earlier
         * tile with the same kind and the same far-end router */
        for (uint32_t i = 0; i < tr->n_ports; i++) {
            uint32_t p = tr->first_port + i;
            const struct topo_port *tp = &t->ports[p];
            if (tp->kind == PORT_UNUSED)
                continue;
            uint32_t peer = tp->peer == TOPO_NONE ? TOPO_NONE
                                                  : t->ports[tp->peer].router;
            uint32_t k = L->first_link[r];
            while (k < L->n &&
                   !(L->link[k].kind == tp->kind && L->link[k].peer == peer))
                k++;
            if (k == L->n)
                L->link[L->n++] = (struct link){ .router = r, .peer = peer,
                                                 .kind = tp->kind };
            L->link[k].count++;
            /* a link's bandwidth is its tiles' together (a Gemini X link:
             * 8 cable tiles of 1.17 GB/s, the 9.38 GB/s Pedretti et al.
             * Fig. 4 prints; topo/torus.c) */
            L->link[k].bw += tp->bw;
        }
        /* lay the tiles out link by link */
        for (uint32_t k = L->first_link[r]; k < L->n; k++) {
            L->link[k].first = nt;
            nt += L->link[k].count;
            L->link[k].count = 0;
        }
        for (uint32_t i = 0; i < tr->n_ports; i++) {
            uint32_t p = tr->first_port + i;
            const struct topo_port *tp = &t->ports[p];
            if (tp->kind == PORT_UNUSED)
                continue;
            uint32_t peer = tp->peer == TOPO_NONE ? TOPO_NONE
                                                  : t->ports[tp->peer].router;
            uint32_t k = L->first_link[r];
            while (!(L->link[k].kind == tp->kind && L->link[k].peer == peer))
                k++;
            L->tile[L->link[k].first + L->link[k].count++] = p;
        }
    }
    L->first_link[t->n_routers] = L->n;
    return 0;
}

void links_free(struct links *L)
{
    free(L->link);
    free(L->tile);
    free(L->first_link);
    memset(L, 0, sizeof *L);
}

const char *link_dir(const struct link *l)
{
    switch ((enum port_kind)l->kind) {
    case PORT_TORUS_XP: return "X+";
    case PORT_TORUS_XM: return "X-";
    case PORT_TORUS_YP: return "Y+";
    case PORT_TORUS_YM: return "Y-";
    case PORT_TORUS_ZP: return "Z+";
    case PORT_TORUS_ZM: return "Z-";
    case PORT_TORUS_HOST: return "HH";
    case PORT_ARIES_GREEN: return "R1";
    case PORT_ARIES_BLACK: return "R2";
    case PORT_ARIES_OPTICAL: return "R3";
    case PORT_ARIES_PROC: return "PT";
    case PORT_SS_LOCAL:
    case PORT_DF_LOCAL: return "L";
    case PORT_SS_GLOBAL:
    case PORT_DF_GLOBAL: return "G";
    case PORT_SS_EDGE:
    case PORT_DF_TERMINAL: return "E";
    default: return "?";
    }
}

void links_read(const struct links *L, const struct net *n, uint32_t i,
                struct link_counts *c)
{
    memset(c, 0, sizeof *c);
    const struct link *l = &L->link[i];
    uint8_t vcs = (uint8_t)n->p.vcs;
    for (uint32_t k = 0; k < l->count; k++) {
        uint32_t p = L->tile[l->first + k];
        /* by packet class, as the Gemini library's VC0 (requests) and VC1
         * (responses) columns: the class's vcs VCs summed, those of the first
         * traffic class (Aries and Gemini have no others) */
        for (uint8_t cls = 0; cls < 2; cls++) {
            uint8_t lo = (uint8_t)(cls * vcs), hi = (uint8_t)(lo + vcs);
            struct ctr_ref f = { CTR_TILE_IN_FLITS, cls, lo, hi, p };
            struct ctr_ref pk = { CTR_TILE_IN_PKTS, cls, lo, hi, p };
            c->flits[cls] += ctr_value(n, &f);
            c->pkts[cls] += ctr_value(n, &pk);
        }
        struct ctr_ref is = { CTR_TILE_IN_STALL, 0, 0, 0, p };
        /* the input stall of the link's tiles and their outputs' credit stall
         * (a packet of either class): gpcdr's inq_stall and credit_stall, PC4
         * and PC5 of a Gemini tile */
        struct ctr_ref cs = { CTR_TILE_CR_STALL, 2, 0, 0, p };
        c->in_stall += ctr_value(n, &is);
        c->cr_stall += ctr_value(n, &cs);
    }
}

double links_cycle_s(const struct net *n)
{
    return ctr_cycle_s(n);
}

void link_metrics(const struct links *L, const struct net *n, uint32_t i,
                  const struct link_counts *d, simtime interval,
                  struct link_metrics *m)
{
    const struct link *l = &L->link[i];
    double secs = (double)interval * 1e-12;
    /* gpcdr's traffic: flits times the flit size (Gemini: (PC0 + PC1) x 3 B
     * phits; gpcdr takes an Aries flit as 20/3 B where the model's is 6);
     * percent time stalled, Netscope Eq. 6, P = 100 T_s / T_m, with T_s the
     * credit-stall time per tile of the link, as gpcdr divides by the tiles
     * per direction */
    m->traffic_bytes = (double)(d->flits[0] + d->flits[1]) * n->p.flit_bytes;
    m->stall_s =
        l->count ? (double)d->cr_stall * links_cycle_s(n) / l->count : 0;
    m->pct_stalled = secs > 0 ? 100.0 * m->stall_s / secs : 0;
    m->used_bw_pct = secs > 0 && l->bw ? 100.0 * m->traffic_bytes / secs /
                                             (double)l->bw
                                       : 0;
}

void links_report(FILE *out, const struct links *L, const struct net *n,
                  const uint32_t *routers, uint32_t count,
                  const struct link_counts *before,
                  const struct link_counts *after, simtime interval)
{
    const struct topo *t = n->t;
    /* the layout of the Gemini library's report (Pedretti et al. Fig. 4):
     * per router its name, then a line per logical link */
    fprintf(out, "#\tDEST\n#\tSRC\tGB/s\tVC0_FLITS\tVC1_FLITS\tVC0_PKTS\t"
                 "VC1_PKTS\tINQ_STALLS\tOUTQ_STALLS\tTRAFFIC_B\t"
                 "PCT_STALLED\tPCT_USED_BW\n");
    uint32_t total = routers ? count : t->n_routers;
    for (uint32_t j = 0; j < total; j++) {
        uint32_t r = routers ? routers[j] : j;
        char name[64];
        fprintf(out, "\t%s\n", topo_router_name(t, r, name, sizeof name));
        for (uint32_t i = L->first_link[r]; i < L->first_link[r + 1]; i++) {
            const struct link *l = &L->link[i];
            struct link_counts d = {
                { after[i].flits[0] - before[i].flits[0],
                  after[i].flits[1] - before[i].flits[1] },
                { after[i].pkts[0] - before[i].pkts[0],
                  after[i].pkts[1] - before[i].pkts[1] },
                after[i].in_stall - before[i].in_stall,
                after[i].cr_stall - before[i].cr_stall
            };
            struct link_metrics m;
            link_metrics(L, n, i, &d, interval, &m);
            char peer[64];
            if (l->peer == TOPO_NONE)
                snprintf(peer, sizeof peer, "%s", name);
            else
                topo_router_name(t, l->peer, peer, sizeof peer);
            fprintf(out, "%s\t%s\t%.2f\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t"
                         "%.0f\t%.3f\t%.3f\n",
                    link_dir(l), peer, (double)l->bw * 1e-9,
                    (unsigned long long)d.flits[0],
                    (unsigned long long)d.flits[1],
                    (unsigned long long)d.pkts[0],
                    (unsigned long long)d.pkts[1],
                    (unsigned long long)d.in_stall,
                    (unsigned long long)d.cr_stall, m.traffic_bytes,
                    m.pct_stalled, m.used_bw_pct);
        }
    }
}
