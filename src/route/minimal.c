/* route/minimal.c — minimal routing: random among the minimal next hops
 * at every router (the exit global link and the parallel tiles drawn
 * from the router's stream). */
#include "route/df.h"

const struct routing routing_minimal = {
    .base = { "minimal", "random among minimal paths at every router" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .pick = df_pick_random,
    .exit = df_exit_random,
};
