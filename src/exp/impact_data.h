/* exp/impact_data.h — the congestion-impact study's collected data
 * (struct impact_data, exp/impact.h): making its arrays, adding a
 * simulation's samples; impact_data_free (exp/impact.h) frees them. For
 * exp/impact_sim.c. */
#ifndef DFSIM_EXP_IMPACT_DATA_H
#define DFSIM_EXP_IMPACT_DATA_H

#include <stdint.h>

#include "core/time.h"
#include "exp/impact.h"

/* x's arrays for the study of ic (n_cc controllers, n_iso isolated
 * cells, n_cells congested ones), their samples empty, every run
 * counted finished until one is not, the per-run means NaN; and with
 * congestion_controls the cells' aggressors named
 * <aggressor>/<controller> (x->view). 0, or -1 out of memory. */
int impact_data_alloc(struct impact_data *x, const struct impact_config *ic,
                      uint32_t n_cc, uint32_t n_iso, uint32_t n_cells);

/* n more values v into s. 0, or -1 out of memory (s unchanged). */
int impact_sample_add(struct impact_sample *s, const simtime *v, uint32_t n);

#endif
