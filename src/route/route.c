/* route/route.c — the routing registry, the routing tables, and the
 * family defaults (see route.h). */
#include "route/route.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ROUTING(x) extern const struct routing routing_##x;
#include "route/modes.def"
#undef ROUTING

static const struct reg_entry *const routing_entries[] = {
#define ROUTING(x) &routing_##x.base,
#include "route/modes.def"
#undef ROUTING
};

const struct registry routing_registry = {
    .kind = "routing",
    .help = "routing modes (minimal, valiant, UGAL, Aries ADAPTIVE_0..3, "
            "MIN_HASH, NMIN_HASH, IN_ORDER, SS_ADAPTIVE, DOR)",
    .entries = routing_entries,
    .n = sizeof routing_entries / sizeof routing_entries[0],
};

const struct routing *route_default(const struct topo_family *f)
{
    const struct routing *r =
        (const struct routing *)registry_find(&routing_registry, f->routing);
    assert(r && route_supports(r, f)); /* the descriptors are tested */
    return r;
}

size_t route_parts(const struct net_part **out, size_t cap)
{
    return net_registry_parts(&routing_registry,
                              offsetof(struct routing, part), out, cap);
}

int route_parts_add(struct net_params *p, const struct topo *t)
{
    return net_registry_parts_add(p, t, &routing_registry,
                                  offsetof(struct routing, part));
}

void route_net_defaults(struct net_params *p, const struct topo *t)
{
    net_params_defaults(p, t);
    p->routing = route_default(t->family);
    int rc = route_parts_add(p, t);
    assert(rc == 0); /* NET_PART_STORE holds every mode's (tested) */
    (void)rc;
}
