/* exp/impact_data.c — the congestion-impact study's collected data
 * (struct impact_data, exp/impact.h): its arrays made and freed
 * (exp/impact_data.h). */
#include "exp/impact_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An array of n samples and their values (NULL: nothing). */
static void samples_free(struct impact_sample *s, uint32_t n)
{
    for (uint32_t i = 0; s && i < n; i++)
        free(s[i].v);
    free(s);
}

int impact_sample_add(struct impact_sample *s, const simtime *v, uint32_t n)
{
    if (s->n + n > s->cap) {
        uint32_t cap = s->cap ? s->cap : 64;
        while (cap < s->n + n)
            cap *= 2;
        simtime *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = cap;
    }
    if (n) /* a victim stopped before its first iteration adds none */
        memcpy(s->v + s->n, v, n * sizeof *v);
    s->n += n;
    return 0;
}

/* An array of n vectors and their values (NULL: nothing). */
static void dvecs_free(struct impact_dvec *d, uint32_t n)
{
    for (uint32_t i = 0; d && i < n; i++)
        free(d[i].v);
    free(d);
}

/* *v: n NaNs (at least one); 0, or -1 out of memory. */
static int nan_array(double **v, size_t n)
{
    *v = malloc((n ? n : 1) * sizeof **v);
    for (size_t i = 0; *v && i < n; i++)
        (*v)[i] = NAN;
    return *v ? 0 : -1;
}

int impact_data_alloc(struct impact_data *x, const struct impact_config *ic,
                      uint32_t n_cc, uint32_t n_iso, uint32_t n_cells)
{
    uint32_t n_v = ic->n_victims, n_a = ic->n_aggressors, n_ca = n_cc * n_a;
    x->n_iso = n_iso; /* what impact_data_free frees, from the first */
    x->n_cells = n_cells;
    x->n_cc = n_cc;
    x->iso = calloc(n_iso, sizeof *x->iso);
    x->con = calloc(n_cells, sizeof *x->con);
    x->iso_done = calloc(n_iso, sizeof *x->iso_done);
    x->iso_run = malloc((size_t)(n_iso ? n_iso : 1) * ic->runs *
                        sizeof *x->iso_run);
    x->con_run = malloc((size_t)(n_cells ? n_cells : 1) * ic->runs *
                        sizeof *x->con_run);
    x->con_done = calloc(n_cells, sizeof *x->con_done);
    struct impact_config *view = &x->view; /* the cells' aggressors, named */
    *view = *ic;
    view->aggressor = NULL;
    if (ic->ccs.n) {
        view->n_aggressors = n_ca;
        view->aggressor = calloc(n_ca ? n_ca : 1, sizeof *view->aggressor);
        for (uint32_t c = 0; view->aggressor && c < n_ca; c++) {
            struct job_config *j = &view->aggressor[c];
            *j = ic->aggressor[c % n_a];
            snprintf(j->name_buf, sizeof j->name_buf, "%s/%s",
                     ic->aggressor[c % n_a].name,
                     ic->ccs.v[c / n_a]->name);
            j->name = j->name_buf;
        }
    }
    x->per_victim = ic->runs * ic->shares.n * n_cc * (1 + n_a);
    size_t pts = (size_t)n_v * x->per_victim;
    x->pt_t = calloc(pts, sizeof *x->pt_t);
    x->pt_m = calloc(pts, sizeof *x->pt_m);
    x->pt_stall = calloc(pts, sizeof *x->pt_stall);
    x->pt_n = calloc(n_v, sizeof *x->pt_n);
    x->pt_sp = calloc(pts, sizeof *x->pt_sp);
    x->pt_rt = calloc(pts, sizeof *x->pt_rt);
    x->pt_sim = calloc(pts, sizeof *x->pt_sim);
    x->pt_agg = calloc(pts, sizeof *x->pt_agg);
    x->pt_share = calloc(pts, sizeof *x->pt_share);
    if (ic->ccs.n) {
        x->nlat = calloc(n_cc, sizeof *x->nlat);
        x->ntraf = calloc(n_cc, sizeof *x->ntraf);
    }
    size_t n_alone = (size_t)n_ca * ic->shares.n * ic->runs;
    if (ic->node_seconds &&
        (nan_array(&x->ns_iso, (size_t)n_iso * ic->runs) != 0 ||
         nan_array(&x->ns_con_v, (size_t)n_cells * ic->runs) != 0 ||
         nan_array(&x->ns_con_a, (size_t)n_cells * ic->runs) != 0 ||
         nan_array(&x->ns_alone, n_alone) != 0))
        return -1;
    if (!x->iso || !x->con || !x->iso_done || !x->con_done ||
        !x->iso_run || !x->con_run || !x->pt_t || !x->pt_m || !x->pt_n ||
        !x->pt_stall || !x->pt_sp || !x->pt_rt || !x->pt_sim ||
        !x->pt_agg || !x->pt_share ||
        (ic->ccs.n && (!view->aggressor || !x->nlat || !x->ntraf)))
        return -1;
    for (uint32_t i = 0; i < n_iso; i++)
        x->iso_done[i] = true;
    for (size_t i = 0; i < (size_t)n_iso * ic->runs; i++)
        x->iso_run[i] = NAN;
    for (size_t i = 0; i < (size_t)n_cells * ic->runs; i++)
        x->con_run[i] = NAN;
    for (uint32_t i = 0; i < n_cells; i++)
        x->con_done[i] = true;
    return 0;
}

void impact_data_free(struct impact_data *x)
{
    samples_free(x->iso, x->n_iso);
    samples_free(x->con, x->n_cells);
    free(x->iso_done);
    free(x->iso_run);
    free(x->con_run);
    free(x->con_done);
    free(x->pt_t);
    free(x->pt_m);
    free(x->pt_stall);
    free(x->pt_n);
    free(x->pt_sp);
    free(x->pt_rt);
    free(x->pt_sim);
    free(x->pt_agg);
    free(x->pt_share);
    dvecs_free(x->nlat, x->n_cc);
    dvecs_free(x->ntraf, x->n_cc);
    free(x->view.aggressor);
    free(x->ns_iso);
    free(x->ns_con_v);
    free(x->ns_con_a);
    free(x->ns_alone);
    memset(x, 0, sizeof *x);
}
