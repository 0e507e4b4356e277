/* exp/offered.c — see offered.h. */
#include "exp/offered.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"
#include "topo/topo.h"

const char *const offered_class_names[] = {
    [OFFERED_MEASURED] = "measured",
    [OFFERED_BACKGROUND] = "background",
    [OFFERED_FILL] = "fill",
};

int offered_init(struct offered *o, const struct net *n)
{
    memset(o, 0, sizeof *o);
    o->net = n;
    o->nic_class = malloc(n->n_nics ? n->n_nics : 1);
    if (!o->nic_class)
        return -1;
    memset(o->nic_class, OFFERED_CLASSES, n->n_nics);
    o->inj_bw = topo_injection_bw(n->t);
    o->global_bw = topo_global_bw(n->t);
    return 0;
}

void offered_free(struct offered *o)
{
    free(o->nic_class);
    o->nic_class = NULL;
}

void offered_add_job(struct offered *o, enum offered_class c,
                     const uint32_t *nodes, uint32_t n_nodes)
{
    const struct topo *t = o->net->t;
    o->jobs[c]++;
    for (uint32_t i = 0; i < n_nodes; i++) {
        const struct topo_node *nd = &t->nodes[nodes[i]];
        for (uint32_t k = 0; k < nd->n_nics; k++) {
            uint32_t nic = nd->nic[k];
            if (o->nic_class[nic] != OFFERED_CLASSES)
                continue; /* a node of an earlier job (jobs one after
                             another on one allocation): its first job's
                             class */
            o->nic_class[nic] = (uint8_t)c;
            o->own_bw[c] += topo_nic_injection_bw(t, nic);
            if (k == 0)
                o->nodes[c]++;
        }
    }
}

static void sums(const struct offered *o, struct offered_sums *s)
{
    memset(s, 0, OFFERED_CLASSES * sizeof *s);
    for (uint32_t nic = 0; nic < o->net->n_nics; nic++) {
        uint8_t c = o->nic_class[nic];
        if (c == OFFERED_CLASSES)
            continue;
        uint64_t flits, data;
        net_nic_injected(o->net, nic, &flits, &data);
        s[c].flits += flits;
        s[c].data += data;
    }
}

void offered_start(struct offered *o, simtime t0)
{
    o->t0 = t0;
    sums(o, o->at0);
}

void offered_end(struct offered *o, simtime t1)
{
    o->t1 = t1;
    sums(o, o->at1);
}

void offered_get(const struct offered *o, enum offered_class c,
                 struct offered_figures *f)
{
    f->bytes = (o->at1[c].flits - o->at0[c].flits) * o->net->p.flit_bytes;
    f->data = o->at1[c].data - o->at0[c].data;
    double window = o->t1 > o->t0 ? (double)(o->t1 - o->t0) / 1e12 : 0;
    double rate = window > 0 ? (double)f->bytes / window : NAN;
    f->gbps = rate / 1e9;
    f->injection = o->inj_bw > 0 ? rate / o->inj_bw : NAN;
    f->global = o->global_bw > 0 ? rate / o->global_bw : NAN;
    f->own = o->own_bw[c] > 0 ? rate / o->own_bw[c] : NAN;
}

/* A share as a CSV field: 6 decimals, empty when undefined. */
static void put_share(FILE *f, double v)
{
    fputc(',', f);
    if (!isnan(v))
        fprintf(f, "%.6f", v);
}

/* A share as a percentage for the table, or "-". */
static const char *pct(double v, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.1f %%", 100 * v);
    return buf;
}

void offered_csv_header(FILE *csv)
{
    fprintf(csv, "run,class,jobs,nodes,start_us,window_us,bytes,"
                 "data_bytes,gbps,injection_share,global_share,own_share\n");
}

void offered_write(const struct offered *o, FILE *csv, bool header,
                   uint32_t run, FILE *table)
{
    simtime w = o->t1 > o->t0 ? o->t1 - o->t0 : 0;
    if (csv) {
        if (header)
            offered_csv_header(csv);
        for (int c = 0; c < OFFERED_CLASSES; c++) {
            struct offered_figures f;
            offered_get(o, (enum offered_class)c, &f);
            fprintf(csv, "%u,%s,%u,%u,%" PRIu64 ".%06" PRIu64 ",%" PRIu64
                         ".%06" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
                    run, offered_class_names[c], o->jobs[c], o->nodes[c],
                    o->t0 / SIMTIME_US, o->t0 % SIMTIME_US, w / SIMTIME_US,
                    w % SIMTIME_US, f.bytes, f.data);
            if (!isnan(f.gbps))
                fprintf(csv, "%.6f", f.gbps);
            put_share(csv, f.injection);
            put_share(csv, f.global);
            put_share(csv, f.own);
            fputc('\n', csv);
        }
    }
    if (!table)
        return;
    if (w == 0) { /* the run stopped before the measured jobs started */
        fprintf(table,
                "\noffered load: none measured (the run ended at %.3f us, "
                "before the measured jobs started at %.3f us)\n",
                (double)o->t1 / (double)SIMTIME_US,
                (double)o->t0 / (double)SIMTIME_US);
        return;
    }
    fprintf(table,
            "\noffered load, %.3f to %.3f us (bytes the NICs injected; "
            "shares of the system's injection bandwidth, %.1f GB/s, of its "
            "global bandwidth, %.1f GB/s, and of the class's own NICs):\n",
            (double)o->t0 / (double)SIMTIME_US,
            (double)o->t1 / (double)SIMTIME_US, o->inj_bw / 1e9,
            o->global_bw / 1e9);
    fprintf(table, "  %-11s %6s %7s %10s %10s %10s %10s\n", "class", "jobs",
            "nodes", "GB/s", "injection", "global", "own NICs");
    for (int c = 0; c < OFFERED_CLASSES; c++) {
        struct offered_figures f;
        offered_get(o, (enum offered_class)c, &f);
        char a[32], b[32], d[32];
        fprintf(table, "  %-11s %6u %7u %10.2f %10s %10s %10s\n",
                offered_class_names[c], o->jobs[c], o->nodes[c],
                isnan(f.gbps) ? 0.0 : f.gbps, pct(f.injection, a, sizeof a),
                pct(f.global, b, sizeof b), pct(f.own, d, sizeof d));
    }
}

void offered_pack(const struct offered *o, struct pack *p)
{
    for (int c = 0; c < OFFERED_CLASSES; c++) {
        pack_u64(p, o->at0[c].flits);
        pack_u64(p, o->at0[c].data);
        pack_u64(p, o->at1[c].flits);
        pack_u64(p, o->at1[c].data);
    }
}

void offered_unpack_add(struct offered *o, struct unpack *u)
{
    for (int c = 0; c < OFFERED_CLASSES; c++) {
        o->at0[c].flits += unpack_u64(u);
        o->at0[c].data += unpack_u64(u);
        o->at1[c].flits += unpack_u64(u);
        o->at1[c].data += unpack_u64(u);
    }
}
