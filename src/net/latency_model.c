/* net/latency_model.c — Netscope's network latency model (see
 * latency_model.h; ICS'21 §4.2): per measurement window, each link's
 * expected queueing Q_l from its stall counters, then the latency of a
 * node pair as the mean of Q_l and of the link count over the paths the
 * routing may take, minimal and Valiant, and the fit of the constants
 * against ping-pong round trips (§6.1). The sums over paths are built
 * from per-group tables of the dimension-order paths inside a group, so
 * that a pair costs O(global links between its groups), not a walk of
 * every path. */
#include "net/latency_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/counters.h"
#include "topo/topo.h"

bool latm_supported(const struct topo *t)
{
    return topo_is(t->family, TOPO_SHAPE_DRAGONFLY);
}

/* The stall counters the model reads: T_s of Eq. 6 for a router-to-router
 * link, the credit stalls of its tiles (the output waiting for credits:
 * the link is blocked downstream); at the source, the NIC's request
 * stall (the paper's nic2hsn signal, AR_NIC_NETMON_ORB_EVENT_CNTR_
 * REQ_STALLED); at the destination, the credit stalls of the router's
 * ports into the NIC. */
static uint64_t link_stall(const struct latm *m, uint32_t i)
{
    const struct link *l = &m->L.link[i];
    uint64_t s = 0;
    for (uint32_t k = 0; k < l->count; k++) {
        struct ctr_ref r = { CTR_TILE_CR_STALL, 2, 0, 0,
                             m->L.tile[l->first + k] };
        s += ctr_value(m->n, &r);
    }
    return s;
}

static uint64_t inj_stall(const struct latm *m, uint32_t nic)
{
    struct ctr_ref r = { CTR_NIC_STALLED, 0, 0, 0, nic };
    return ctr_value(m->n, &r);
}

static uint64_t ej_stall(const struct latm *m, uint32_t nic)
{
    const struct topo_nic *tn = &m->n->t->nics[nic];
    uint64_t s = 0;
    for (uint32_t k = 0; k < tn->n_ports; k++) {
        struct ctr_ref r = { CTR_TILE_CR_STALL, 2, 0, 0,
                             tn->first_port + k };
        s += ctr_value(m->n, &r);
    }
    return s;
}

void latm_free(struct latm *m)
{
    links_free(&m->L);
    free(m->port_link);
    free(m->link_prev);
    free(m->inj_prev);
    free(m->ej_prev);
    free(m->q_link);
    free(m->q_inj);
    free(m->q_ej);
    free(m->local_first);
    free(m->lq);
    free(m->ln);
    free(m->out_q);
    free(m->out_n);
    free(m->in_q);
    free(m->in_n);
    free(m->tout_q);
    free(m->tout_n);
    free(m->tin_q);
    free(m->tin_n);
    free(m->stamp);
    memset(m, 0, sizeof *m);
}

/* Snapshots of every stall counter the model reads. */
static void snapshot(struct latm *m)
{
    const struct topo *t = m->n->t;
    for (uint32_t i = 0; i < m->L.n; i++)
        m->link_prev[i] = link_stall(m, i);
    for (uint32_t c = 0; c < t->n_nics; c++) {
        m->inj_prev[c] = inj_stall(m, c);
        m->ej_prev[c] = ej_stall(m, c);
    }
    m->t_prev = m->n->s->now;
}

int latm_init(struct latm *m, const struct net *n)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    const struct topo *t = n->t;
    size_t R = t->n_routers ? t->n_routers : 1, C = t->n_nics ? t->n_nics : 1;
    size_t G = t->n_groups ? t->n_groups : 1;
    if (links_build(&m->L, t) != 0)
        return -1;
    size_t Ln = m->L.n ? m->L.n : 1;
    m->local_first = calloc(G + 1, sizeof *m->local_first);
    size_t cells = 0;
    if (m->local_first)
        for (uint32_t g = 0; g < t->n_groups; g++) {
            m->local_first[g] = (uint32_t)cells;
            cells += (size_t)n->group_size[g] * n->group_size[g];
        }
    if (cells == 0)
        cells = 1;
    m->port_link = malloc((t->n_ports ? t->n_ports : 1) *
                          sizeof *m->port_link);
    m->link_prev = calloc(Ln, sizeof *m->link_prev);
    m->q_link = calloc(Ln, sizeof *m->q_link);
    m->inj_prev = calloc(C, sizeof *m->inj_prev);
    m->ej_prev = calloc(C, sizeof *m->ej_prev);
    m->q_inj = calloc(C, sizeof *m->q_inj);
    m->q_ej = calloc(C, sizeof *m->q_ej);
    m->lq = calloc(cells, sizeof *m->lq);
    m->ln = calloc(cells, sizeof *m->ln);
    m->out_q = calloc(R, sizeof *m->out_q);
    m->out_n = calloc(R, sizeof *m->out_n);
    m->in_q = calloc(R, sizeof *m->in_q);
    m->in_n = calloc(R, sizeof *m->in_n);
    m->tout_q = calloc(R, sizeof *m->tout_q);
    m->tout_n = calloc(R, sizeof *m->tout_n);
    m->tin_q = calloc(R, sizeof *m->tin_q);
    m->tin_n = calloc(R, sizeof *m->tin_n);
    m->stamp = calloc(R, sizeof *m->stamp);
    if (!m->local_first || !m->port_link || !m->link_prev || !m->q_link ||
        !m->inj_prev || !m->ej_prev || !m->q_inj || !m->q_ej || !m->lq ||
        !m->ln || !m->out_q || !m->out_n || !m->in_q || !m->in_n ||
        !m->tout_q || !m->tout_n || !m->tin_q || !m->tin_n || !m->stamp) {
        latm_free(m);
        return -1;
    }
    for (uint32_t p = 0; p < t->n_ports; p++)
        m->port_link[p] = UINT32_MAX;
    for (uint32_t i = 0; i < m->L.n; i++) {
        const struct link *l = &m->L.link[i];
        for (uint32_t k = 0; k < l->count; k++)
            m->port_link[m->L.tile[l->first + k]] = i;
    }
    for (uint32_t i = 0; i < m->L.n; i++)
        /* Q_l of an idle link: 100 / (100 - 0) = 1 waiting time */
        m->q_link[i] = 1;
    for (uint32_t c = 0; c < t->n_nics; c++)
        m->q_inj[c] = m->q_ej[c] = 1;
    m->window = 1; /* stamps of 0 are stale */
    snapshot(m);
    return 0;
}

double latm_stalled_pct(double stall, double cycles)
{
    double pct = cycles > 0 ? 100.0 * stall / cycles : 0; /* Eq. 6 */
    return pct > LATM_MAX_PCT ? LATM_MAX_PCT : pct;
}

double latm_queueing(double stall, double cycles)
{
    /* Eqs. 6-11: the link is stalled in a cycle with probability p = T_s /
     * T_m (the maximum-likelihood estimate), the wait is geometric, and its
     * expectation 1 / (1 - p) = 100 / (100 - P); P is capped (LATM_MAX_PCT)
     * as a link stalled for the whole window has no finite one */
    return 100.0 / (100.0 - latm_stalled_pct(stall, cycles));
}

/* The dimension-order path from r to x, both of group g, by the routing
 * tables (route/df.c df_toward_local: parallel ports lead to one
 * neighbour, one logical link). */
static void local_path(const struct latm *m, uint32_t r, uint32_t x,
                       double *q, uint8_t *hops)
{
    const struct net *n = m->n;
    const struct topo *t = n->t;
    uint32_t local_x = x - n->group_first[t->routers[x].group];
    double s = 0;
    uint8_t h = 0;
    /* the path the minimal routes take inside a group, hop by hop by the
     * next-hop tables (Aries: green then black, at most 2 hops); the bound
     * only guards a malformed table */
    while (r != x && h < 8) {
        uint32_t port = net_nh_port(n, r, net_nh(n, r, local_x), 0);
        s += m->q_link[m->port_link[port]];
        h++;
        r = t->ports[t->ports[port].peer].router;
    }
    *q = s;
    *hops = h;
}

simtime latm_window(struct latm *m)
{
    const struct net *n = m->n;
    const struct topo *t = n->t;
    simtime len = n->s->now - m->t_prev;
    if (len == 0)
        return 0;
    /* one measurement window: T_m in counter cycles, each link's T_s the
     * stall count since the last window averaged over its tiles (gpcdr's
     * per-direction division) */
    double cycles = (double)len * 1e-12 / links_cycle_s(n), pt = 0;
    for (uint32_t i = 0; i < m->L.n; i++) {
        uint64_t s = link_stall(m, i);
        uint32_t tiles = m->L.link[i].count ? m->L.link[i].count : 1;
        double st = (double)(s - m->link_prev[i]) / tiles;
        m->q_link[i] = latm_queueing(st, cycles);
        pt += latm_stalled_pct(st, cycles);
    }
    m->pt_links = m->L.n ? pt / m->L.n : 0;
    for (uint32_t c = 0; c < t->n_nics; c++) {
        uint64_t si = inj_stall(m, c), se = ej_stall(m, c);
        uint32_t ports = t->nics[c].n_ports ? t->nics[c].n_ports : 1;
        m->q_inj[c] = latm_queueing((double)(si - m->inj_prev[c]), cycles);
        m->q_ej[c] =
            latm_queueing((double)(se - m->ej_prev[c]) / ports, cycles);
    }
    snapshot(m);
    latm_refresh(m);
    return len;
}

void latm_refresh(struct latm *m)
{
    const struct net *n = m->n;
    const struct topo *t = n->t;
    /* the dimension-order paths inside each group, and their sums */
    for (uint32_t g = 0; g < t->n_groups; g++) {
        uint32_t first = n->group_first[g], sz = n->group_size[g];
        for (uint32_t i = 0; i < sz; i++) {
            m->out_q[first + i] = m->out_n[first + i] = 0;
            m->in_q[first + i] = m->in_n[first + i] = 0;
        }
        for (uint32_t i = 0; i < sz; i++)
            for (uint32_t j = 0; j < sz; j++) {
                size_t k = m->local_first[g] + (size_t)i * sz + j;
                local_path(m, first + i, first + j, &m->lq[k], &m->ln[k]);
                m->out_q[first + i] += m->lq[k];
                m->out_n[first + i] += m->ln[k];
                m->in_q[first + j] += m->lq[k];
                m->in_n[first + j] += m->ln[k];
            }
    }
    m->window++; /* the cached totals are stale */
}

static size_t lidx(const struct latm *m, uint32_t r, uint32_t x)
{
    const struct net *n = m->n;
    uint32_t g = n->t->routers[r].group, sz = n->group_size[g];
    return m->local_first[g] + (size_t)(r - n->group_first[g]) * sz +
           (x - n->group_first[g]);
}

/* The i-th global link from group g to group h: the router owning it (x),
 * the router at its far end (y) and its Q_l. */
static void global_link(const struct latm *m, uint32_t g, uint32_t h,
                        uint32_t i, uint32_t *x, uint32_t *y, double *q)
{
    const struct topo *t = m->n->t;
    size_t k = (size_t)g * t->n_groups + h;
    uint32_t gp = t->pair_port[t->pair_start[k] + i];
    *x = t->ports[gp].router;
    *y = t->ports[t->ports[gp].peer].router;
    *q = m->q_link[m->port_link[gp]];
}

static uint32_t pair_count(const struct topo *t, uint32_t g, uint32_t h)
{
    size_t k = (size_t)g * t->n_groups + h;
    return t->pair_start[k + 1] - t->pair_start[k];
}

/* Minimal paths between routers a and b (no endpoints): mean sum of Q_l
 * and of links over them. */
static void minimal(const struct latm *m, uint32_t a, uint32_t b, double *q,
                    double *nl)
{
    const struct topo *t = m->n->t;
    uint32_t ga = t->routers[a].group, gb = t->routers[b].group;
    if (ga == gb) {
        size_t k = lidx(m, a, b);
        *q = m->lq[k];
        *nl = m->ln[k];
        return;
    }
    uint32_t cnt = pair_count(t, ga, gb);
    double sq = 0, sn = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t x, y;
        double gq;
        global_link(m, ga, gb, i, &x, &y, &gq);
        size_t k1 = lidx(m, a, x), k2 = lidx(m, y, b);
        /* a minimal path between groups: to the global link's router, the
         * global link, from its far end on (XC white paper: minimal routing
         * "will take exactly one global optical hop"); every global link
         * joining the groups equally likely, as the minimal modes draw them */
        sq += m->lq[k1] + gq + m->lq[k2];
        sn += m->ln[k1] + 1.0 + m->ln[k2];
    }
    *q = cnt ? sq / cnt : 0;
    *nl = cnt ? sn / cnt : 0;
}

/* Sums over the routers I of group h of the minimal paths a -> I (out)
 * or I -> b (!out). */
static void group_sum(const struct latm *m, uint32_t r, uint32_t h, bool out,
                      double *q, double *nl)
{
    const struct net *n = m->n;
    const struct topo *t = n->t;
    uint32_t gr = t->routers[r].group;
    if (gr == h) {
        *q = out ? m->out_q[r] : m->in_q[r];
        *nl = out ? m->out_n[r] : m->in_n[r];
        return;
    }
    double sz = n->group_size[h];
    uint32_t cnt = out ? pair_count(t, gr, h) : pair_count(t, h, gr);
    double sq = 0, sn = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t x, y;
        double gq;
        if (out) { /* r -> x, the global link, y -> every I of h */
            global_link(m, gr, h, i, &x, &y, &gq);
            size_t k = lidx(m, r, x);
            /* the paths r -> every I of h through this link: sz copies of the
             * path to the link and across it, plus the landing router y's
             * paths to all of h, summed once in out_q[y] */
            sq += sz * (m->lq[k] + gq) + m->out_q[y];
            sn += sz * (m->ln[k] + 1.0) + m->out_n[y];
        } else { /* every I of h -> x, the global link, y -> r */
            global_link(m, h, gr, i, &x, &y, &gq);
            size_t k = lidx(m, y, r);
            sq += m->in_q[x] + sz * (gq + m->lq[k]);
            sn += m->in_n[x] + sz * (1.0 + m->ln[k]);
        }
    }
    *q = cnt ? sq / cnt : 0;
    *nl = cnt ? sn / cnt : 0;
}

/* Router r's sums over every router of the system, cached per window. */
static void totals(struct latm *m, uint32_t r)
{
    /* Valiant's intermediate may be any router of the system: a router's
     * sums over all of them are computed once per window and reused by
     * every pair it is an end of */
    if (m->stamp[r] == m->window)
        return;
    const struct topo *t = m->n->t;
    double oq = 0, on = 0, iq = 0, in = 0;
    for (uint32_t h = 0; h < t->n_groups; h++) {
        double q, nl;
        group_sum(m, r, h, true, &q, &nl);
        oq += q, on += nl;
        group_sum(m, r, h, false, &q, &nl);
        iq += q, in += nl;
    }
    m->tout_q[r] = oq, m->tout_n[r] = on;
    m->tin_q[r] = iq, m->tin_n[r] = in;
    m->stamp[r] = m->window;
}

/* Non-minimal (Valiant) paths a -> I -> b, I as route/df.c
 * df_random_mid draws it: between groups, any router of a third group
 * (of the two groups when there are only two); inside a group, any of
 * the group's; never a or b. Returns false when there is none. */
static bool valiant(struct latm *m, uint32_t a, uint32_t b, double *q,
                    double *nl)
{
    const struct net *n = m->n;
    const struct topo *t = n->t;
    uint32_t ga = t->routers[a].group, gb = t->routers[b].group;
    double sq, sn, count, mq, mn;
    /* Between groups the intermediate router is any of a third group's
     * (route/df.c df_random_mid; XC white paper: non-minimal traffic is
     * spread "uniformly over intermediate groups"): the sums over every
     * router of the system less those of the two groups. With two groups
     * or inside one, any router but a and b. */
    if (ga != gb && t->n_groups >= 3) {
        totals(m, a);
        totals(m, b);
        double q1, n1, q2, n2, q3, n3, q4, n4;
        group_sum(m, a, ga, true, &q1, &n1);
        group_sum(m, a, gb, true, &q2, &n2);
        group_sum(m, b, ga, false, &q3, &n3);
        group_sum(m, b, gb, false, &q4, &n4);
        /* the sums over all intermediates, less those in a's and b's groups
         * (the intermediate is of a third group) */
        sq = m->tout_q[a] - q1 - q2 + m->tin_q[b] - q3 - q4;
        sn = m->tout_n[a] - n1 - n2 + m->tin_n[b] - n3 - n4;
        count = (double)t->n_routers - n->group_size[ga] - n->group_size[gb];
    } else {
        if (ga == gb) {
            double q1, n1, q2, n2;
            group_sum(m, a, ga, true, &q1, &n1);
            group_sum(m, b, ga, false, &q2, &n2);
            sq = q1 + q2, sn = n1 + n2;
            count = n->group_size[ga];
        } else {
            totals(m, a);
            totals(m, b);
            sq = m->tout_q[a] + m->tin_q[b];
            sn = m->tout_n[a] + m->tin_n[b];
            count = t->n_routers;
        }
        /* without I = a (a -> a -> b) and I = b (a -> b -> b) */
        minimal(m, a, b, &mq, &mn);
        sq -= 2 * mq, sn -= 2 * mn;
        count -= 2;
    }
    if (count <= 0)
        return false;
    *q = sq / count;
    *nl = sn / count;
    return true;
}

void latm_pair(struct latm *m, uint32_t src, uint32_t dst,
               struct latm_paths *out)
{
    const struct topo *t = m->n->t;
    uint32_t a = t->nics[src].router, b = t->nics[dst].router;
    /* both ends count as links: the source NIC's injection and the last
     * router's ports into the destination NIC ("all the intermediary links
     * that include connections between processors, NICs, and network
     * tiles", ICS'21 §4.2) */
    double ends = m->q_inj[src] + m->q_ej[dst];
    double q, nl;
    minimal(m, a, b, &q, &nl);
    out->q_min = ends + q;
    out->n_min = 2 + nl;
    if (a != b && valiant(m, a, b, &q, &nl)) {
        out->q_non = ends + q;
        out->n_non = 2 + nl;
    } else { /* no other path: the minimal one */
        out->q_non = out->q_min;
        out->n_non = out->n_min;
    }
}

void latm_add(struct latm_paths *acc, const struct latm_paths *a, double x)
{
    acc->q_min += x * a->q_min;
    acc->n_min += x * a->n_min;
    acc->q_non += x * a->q_non;
    acc->n_non += x * a->n_non;
}

double latm_delay(const struct latm_fit *f, const struct latm_paths *p)
{
    double q = f->w * p->q_min + (1 - f->w) * p->q_non;
    double nl = f->w * p->n_min + (1 - f->w) * p->n_non;
    return f->k1 * q + f->k2 * nl;
}

/* Weighted least squares y = b0 + b1 x1 + b2 x2 over n points, point i
 * weighing wt[i]. A column that varies by less than LATM_MIN_CV of its
 * mean (its weighted coefficient of variation) cannot be told from the
 * constant term by data of this kind: it is taken as constant, the
 * intercept carries it (its coefficient 0); so is x2 when collinear
 * with x1. Returns the weighted residual sum of squares. */
static double ols3(const double *x1, const double *x2, const double *y,
                   const double *wt, uint32_t n, double b[3])
{
    double sw = 0, m1 = 0, m2 = 0, my = 0;
    for (uint32_t i = 0; i < n; i++) {
        sw += wt[i];
        m1 += wt[i] * x1[i], m2 += wt[i] * x2[i], my += wt[i] * y[i];
    }
    m1 /= sw, m2 /= sw, my /= sw;
    double s11 = 0, s22 = 0, s12 = 0, s1y = 0, s2y = 0;
    for (uint32_t i = 0; i < n; i++) {
        double d1 = x1[i] - m1, d2 = x2[i] - m2, dy = y[i] - my;
        s11 += wt[i] * d1 * d1, s22 += wt[i] * d2 * d2;
        s12 += wt[i] * d1 * d2;
        s1y += wt[i] * d1 * dy, s2y += wt[i] * d2 * dy;
    }
    double c = LATM_MIN_CV * LATM_MIN_CV * sw;
    bool v1 = s11 > 0 && s11 > c * m1 * m1;
    bool v2 = s22 > 0 && s22 > c * m2 * m2;
    double det = s11 * s22 - s12 * s12;
    b[1] = b[2] = 0;
    if (v1 && v2 && det > 1e-9 * s11 * s22) {
        b[1] = (s22 * s1y - s12 * s2y) / det;
        b[2] = (s11 * s2y - s12 * s1y) / det;
    } else if (v1) {
        b[1] = s1y / s11;
    } else if (v2) {
        b[2] = s2y / s22;
    }
    b[0] = my - b[1] * m1 - b[2] * m2;
    double sse = 0;
    for (uint32_t i = 0; i < n; i++) {
        double e = y[i] - (b[0] + b[1] * x1[i] + b[2] * x2[i]);
        sse += wt[i] * e * e;
    }
    return sse;
}

void latm_fit(const struct latm_paths *rt, const double *rtt, uint32_t n,
              bool relative, struct latm_fit *f)
{
    *f = (struct latm_fit){ .n = n, .k0 = NAN, .k1 = NAN, .k2 = NAN,
                            .w = NAN };
    if (n < 3)
        return;
    double *x1 = malloc(3 * (size_t)n * sizeof *x1);
    if (!x1)
        return;
    double *x2 = x1 + n, *wt = x2 + n;
    for (uint32_t i = 0; i < n; i++)
        wt[i] = relative && rtt[i] > 0 ? 1.0 / (rtt[i] * rtt[i]) : 1.0;
    double best = INFINITY;
    /* w, the share of minimal paths, enters the model non-linearly: a grid
     * of 0.01 with a linear least-squares fit of k0, k1, k2 at each point,
     * the least error kept */
    for (int step = 0; step <= 100; step++) {
        double w = step / 100.0, b[3];
        /* y = k0 + k1 E + (k1 + k2) N with E = Q - N, the queueing
         * above an idle path's (Q_l >= 1): the congestion term apart
         * from the length, which the intercept may have to carry */
        for (uint32_t i = 0; i < n; i++) {
            x2[i] = w * rt[i].n_min + (1 - w) * rt[i].n_non;
            x1[i] = w * rt[i].q_min + (1 - w) * rt[i].q_non - x2[i];
        }
        double sse = ols3(x1, x2, rtt, wt, n, b);
        if (sse < best * (1 - 1e-12)) { /* the first w of the least
                                            error (rounding aside) */
            best = sse;
            f->w = w, f->k0 = b[0], f->k1 = b[1], f->k2 = b[2] - b[1];
        }
    }
    free(x1);
}
