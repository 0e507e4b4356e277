/* results/traffic_results.h — a traffic sweep's table and report page. */
#ifndef DFSIM_RESULTS_TRAFFIC_RESULTS_H
#define DFSIM_RESULTS_TRAFFIC_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "exp/experiment.h"
#include "exp/traffic.h"

/* The sweep's table of res[0..done) on stdout and, with report, its page
 * (traffic.html beside a jobs or impact report, else report.html) and
 * figures in outdir. Returns 0, or -1 if the page could not be written. */
int traffic_results(const struct experiment *e, const struct net_params *base,
                    const char *outdir, const struct traffic_result *res,
                    uint32_t done, bool report);

/* The sweep's page: report.html, or traffic.html beside a jobs or impact
 * report. */
const char *traffic_results_page(const struct experiment *e);

#endif
