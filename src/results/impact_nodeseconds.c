/* results/impact_nodeseconds.c — ICS'21 Fig. 6's node-seconds increase
 * (see impact_nodeseconds.h). */
#include "results/impact_nodeseconds.h"

#include <math.h>
#include <stdlib.h>

#include "exp/manifest.h"
#include "results/impact_results.h"
#include "results/stats.h"

/* One (victim, aggressor g of the cells, share) row: its runs' increases
 * into inc (their count returned) and the four mean times into t. */
static uint32_t cell(const struct impact_data *x, uint32_t g, uint32_t s,
                     uint32_t v, double nv, double na, double *inc,
                     double t[4])
{
    const struct impact_config *ic = x->ic;
    uint32_t runs = ic->runs, n_a = x->n_a, n = 0;
    size_t k = ((size_t)(g * x->n_sh + s) * x->n_v + v) * runs,
           iv = ((size_t)(g / n_a * x->n_sh + s) * x->n_v + v) * runs,
           al = ((size_t)g * x->n_sh + s) * runs;
    t[0] = t[1] = t[2] = t[3] = 0;
    for (uint32_t r = 0; r < runs; r++) {
        double tv0 = x->ns_iso[iv + r], tv1 = x->ns_con_v[k + r],
               ta0 = x->ns_alone[al + r], ta1 = x->ns_con_a[k + r];
        double alone = nv * tv0 + na * ta0;
        if (isnan(tv0) || isnan(tv1) || isnan(ta0) || isnan(ta1) ||
            !(alone > 0))
            continue;
        inc[n++] = (nv * tv1 + na * ta1) / alone;
        t[0] += tv0, t[1] += tv1, t[2] += ta0, t[3] += ta1;
    }
    for (int i = 0; i < 4; i++)
        t[i] = n ? t[i] / n : NAN;
    return n;
}

int impact_nodeseconds_write(const struct impact_data *x, const char *dir,
                             struct diag *d)
{
    const struct impact_config *ic = x->ic;
    if (!ic->node_seconds)
        return 0;
    const struct impact_config *shown = ic->ccs.n ? &x->view : ic;
    char path[4096];
    snprintf(path, sizeof path, "%s/impact_nodeseconds.csv", dir);
    static const char *const name[] = { "impact_nodeseconds.csv" };
    double *inc = malloc(2 * (size_t)ic->runs * sizeof *inc);
    FILE *f = inc && manifest_mark(dir, name, 1, MANIFEST_WRITING,
                                   stderr) == 0
                  ? fopen(path, "w")
                  : NULL;
    if (!f) {
        free(inc);
        diag_error(d, path, 0, "impact", "cannot write the file");
        return -1;
    }
    fprintf(f, "victim,aggressor,share,victim_nodes,aggressor_nodes,runs,"
               "victim_alone_us,victim_with_us,aggressor_alone_us,"
               "aggressor_with_us,increase_mean,increase_p99,"
               "increase_max\n");
    printf("\nnode-seconds with / alone (ICS'21 Fig. 6), over the runs:\n"
           "  %-16s %-24s %6s %5s %9s %9s %9s\n", "victim", "aggressor",
           "share", "runs", "mean", "p99", "max");
    for (uint32_t g = 0; g < x->n_cc * x->n_a; g++)
        for (uint32_t s = 0; s < x->n_sh; s++)
            for (uint32_t v = 0; v < x->n_v; v++) {
                double sh = ic->shares.v[s];
                uint32_t na = impact_aggressor_nodes(x->study_nodes, sh),
                         nv = impact_victim_nodes(ic, v, x->study_nodes, sh);
                double t[4], q[3] = { NAN, NAN, NAN };
                uint32_t n = cell(x, g, s, v, nv, na, inc, t);
                struct stats_summary st;
                if (n && stats_summarize(inc, n, inc + ic->runs, &st) == 0) {
                    q[0] = st.mean;
                    q[1] = stats_quantile_sorted(inc + ic->runs, n, 0.99);
                    q[2] = st.max;
                }
                fprintf(f, "%s,%s,%.6f,%u,%u,%u", ic->victim[v].name,
                        shown->aggressor[g].name, sh, nv, na, n);
                for (int i = 0; i < 4; i++)
                    impact_csv_num(f, t[i], true);
                for (int i = 0; i < 3; i++)
                    impact_csv_num(f, q[i], true);
                fputc('\n', f);
                printf("  %-16s %-24s %6.2f %5u %9.3f %9.3f %9.3f\n",
                       ic->victim[v].name, shown->aggressor[g].name, sh, n,
                       q[0], q[1], q[2]);
            }
    free(inc);
    if (fclose(f) != 0) {
        diag_error(d, path, 0, "impact", "cannot write the file");
        return -1;
    }
    return 0;
}
