/* results/impact_nodeseconds.h — ICS'21 Fig. 6's node-seconds increase
 * from an impact study run with node_seconds (exp/impact.h): per
 * (victim, aggressor, share) and run r,
 *
 *     I_r = (N_v T_v,with + N_a T_a,with) / (N_v T_v,alone + N_a T_a,alone)
 *
 * (T a job's whole time, N its nodes), and its mean, 99th percentile
 * (Hyndman & Fan type 7, results/stats.h; the tail the paper plots) and
 * maximum over the runs whose four times all finished. Written to
 * impact_nodeseconds.csv:
 *
 *   victim,aggressor,share,victim_nodes,aggressor_nodes,runs,
 *   victim_alone_us,victim_with_us,aggressor_alone_us,aggressor_with_us,
 *   increase_mean,increase_p99,increase_max
 *
 * (the times: means over those runs; the aggressor named
 * <aggressor>/<controller> with congestion_controls), and as a table on
 * the terminal. */
#ifndef DFSIM_RESULTS_IMPACT_NODESECONDS_H
#define DFSIM_RESULTS_IMPACT_NODESECONDS_H

#include "core/diag.h"
#include "exp/impact.h"

/* The file into dir and the table on stdout (nothing without
 * node_seconds). 0, or -1 after reporting to d. */
int impact_nodeseconds_write(const struct impact_data *x, const char *dir,
                             struct diag *d);

#endif
