/* cli/kinds.c — every kind of pluggable part, for `dfsim list` and for the
 * experiment-file schemas. Kinds whose parts arrive with later work (the
 * network model brings routing algorithms, the application layer workloads
 * and allocation policies, the control systems controllers) are listed
 * already so that `dfsim list` shows the whole plan; their registries are
 * filled where those parts live. */
#include "app/workload.h"
#include "core/registry.h"
#include "ctl/ctl.h"
#include "exp/alloc.h"
#include "route/route.h"
#include "topo/topo.h"


const struct registry *const registries[] = {
    &topo_builder_registry, &topo_system_registry, &routing_registry,
    &controller_registry,   &workload_registry,    &allocation_registry,
    NULL,
};
