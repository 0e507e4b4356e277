/* cli/kinds.c — every kind of pluggable part, for `dfsim list` and for the
 * experiment-file schemas. Each registry is filled where its parts live:
 * topology builders and systems (topo/), routing modes (route/), routing
 * controllers (ctl/), workloads (app/), allocation policies (exp/),
 * congestion controllers at the NICs (ctl/cc.h). */
#include "app/workload.h"
#include "core/registry.h"
#include "ctl/ctl.h"
#include "exp/alloc.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/topo.h"

const struct registry *const registries[] = {
    &topo_builder_registry, &topo_system_registry, &routing_registry,
    &controller_registry,   &workload_registry,    &allocation_registry,
    &cc_registry,           NULL,
};
