/* topo/builders.h — what the builders share with topo.c (not for users of
 * the topology: they see topo.h only). */
#ifndef DFSIM_TOPO_BUILDERS_H
#define DFSIM_TOPO_BUILDERS_H

#include "topo/topo.h"

#define TOPO_BUILDER(x) extern const struct topo_builder topo_builder_##x;
#include "topo/builders.def"
#undef TOPO_BUILDER
#define TOPO_SYSTEM(x) extern const struct topo_system topo_system_##x;
#include "topo/systems.def"
#undef TOPO_SYSTEM

/* The allocation levels of a family of groups without a chassis level
 * (struct topo_family level_key, level_size; topo.c). */
uint32_t topo_level_key_groups(const struct topo *t, uint32_t r, int level);
uint32_t topo_level_size_groups(const struct topo *t, int level);

/* Bandwidth in bytes/s from a rate in GB/s (10^9 bytes). */
static inline uint64_t topo_GBps(double gbytes)
{
    return (uint64_t)(gbytes * 1e9 + 0.5);
}

/* Wire latency from an assumed cable length. Signals travel in copper and
 * fibre at about 2/3 of c, 5 ns per metre; lengths are the builders'
 * documented assumptions (the papers give upper bounds only). */
static inline uint32_t topo_wire_ps(double metres)
{
    return (uint32_t)(metres * 5000.0 + 0.5);
}

void aries_router_name(const struct topo *t, uint32_t r, char *buf,
                       size_t cap);
void slingshot_router_name(const struct topo *t, uint32_t r, char *buf,
                           size_t cap);
void torus_router_name(const struct topo *t, uint32_t r, char *buf,
                       size_t cap);

#endif
