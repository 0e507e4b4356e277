/* exp/probe.h — the zero-load latency probe: single packets between node
 * pairs at every minimal-path distance, moved hop by hop through the event
 * engine along minimal routes.
 *
 * What is modelled: a packet's head crossing each router (a fixed router
 * delay) and each link (the wire latency of the cable), virtual cut-through
 * so the packet's size is serialised once, at the slowest link of the path;
 * the route is chosen hop by hop at random among the minimal next hops,
 * from the router's own random stream. What is not: contention, buffers,
 * credits, NIC packetisation — that is the network model's work. The probe
 * is dfsim's "sonar" (Pedretti et al.'s ping experiments): it shows the
 * shape of a system and checks its minimal paths end to end.
 */
#ifndef DFSIM_PROBE_H
#define DFSIM_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/config.h"
#include "topo/topo.h"

struct probe_params {
    int64_t size;           /* bytes per packet */
    uint32_t pairs;         /* node pairs per hop count */
    double router_delay_ns; /* per router crossed; < 0: the family's default */
};

extern const struct cfg_key probe_keys[];
void probe_defaults(struct probe_params *p);

/* The router delay used for topology t when p asks for the default:
 * Aries about 100 ns per hop (XC white paper figures quoted by LANL PPT),
 * Rosetta 350 ns (SC'20 §II-A, measured), generic dragonfly 100 ns (CODES
 * default), Gemini 100 ns (not in our sources: an assumption). */
double probe_router_delay_ns(const struct probe_params *p,
                             const struct topo *t);

struct probe_summary {
    uint32_t hops;        /* minimal router-to-router hops of the class */
    uint32_t pairs;       /* pairs measured */
    double mean_ns, min_ns, max_ns;
};

/* Run the probe on t with seed; write one CSV row per pair to csv (flushed
 * as each packet arrives) and up to cap class summaries into out. Returns
 * the number of classes, -1 on failure (reported to d), or SIM_INTERRUPTED
 * if a signal stopped it (core/sim.h). */
int probe_run(const struct topo *t, const struct probe_params *p,
              uint64_t seed, FILE *csv, struct probe_summary *out,
              uint32_t cap, struct diag *d);

#endif
