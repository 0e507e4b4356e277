/* net/partition.h — one simulation's machine dealt over P processes
 * (issue 54, first part): which part each router belongs to (and with it
 * its NICs, their nodes and the ranks on them), the links the cut crosses
 * and the lookahead, the least delay of any event that crosses a cut.
 *
 * What a part is (docs/parallel-inventory.md, DESIGN.md §7 "Partitions"):
 *  - a dragonfly (every family whose shape is TOPO_SHAPE_DRAGONFLY): a
 *    block of consecutive whole groups. A cut inside a group would cross
 *    copper or backplane links (2.5-10 ns) and split the group-wide reads
 *    of the inventory's §3;
 *  - a torus: a slab of consecutive whole planes across one dimension.
 *    The dimension is the one whose balanced cut gives the largest
 *    lookahead (Gemini's X links are all 3 m cables, 15 ns; Y and Z mix
 *    0.5 and 2.5 ns links with cables, topo/torus.c medium_of); among
 *    equal lookaheads the longest dimension (the brief's choice: thinner
 *    slabs, the most parts), then the fewest cut links, then the lower.
 * Blocks are balanced by load, routers breaking ties: by NICs (every NIC a
 * source, as in a traffic run), or by the ranks a run of jobs places on
 * them (partition_make_dim). The blocks whose loads have the least sum
 * of squares (then their routers), which keeps neighbouring blocks within
 * one unit's load of each other. Nothing random: the same topology, parameters and P give the
 * same partition.
 *
 * The lookahead. Three kinds of event cross a cut link (the inventory's
 * §1): a packet's ARRIVE at the next router, at now + wire + router_delay
 * (net/router.c transmit); a credit return to the upstream output, at
 * left + wire >= now + wire, where `wire` is the input port's link latency
 * (net/router.c in_advance and transmit, net/credits.c
 * net_credit_return); the far end's published load, read a wire latency
 * late (net/publish.c net_port_load_far). The wire latency of a port is
 * the topology's (topo_port.latency, copied into net_out.latency and
 * net_in.latency by net/net.c ports_init), so the lookahead is the least
 * of those over the cut ports: the credit return's wire latency, unless a
 * negative router delay were possible (it is not: simtime is unsigned). */
#ifndef DFSIM_NET_PARTITION_H
#define DFSIM_NET_PARTITION_H

#include <stdint.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/time.h"
#include "net/params.h"
#include "topo/topo.h"

/* What a part holds. `first_unit` and `units` are its groups (dragonfly)
 * or planes (torus): [first_unit, first_unit + units). A node is counted
 * in the part of its first NIC's router, which runs its ranks
 * (mpi/mpi.c: a rank's events belong to that NIC's entity). */
struct partition_part {
    uint32_t first_unit, units;
    uint32_t routers, nics, nodes;
    uint64_t load;             /* what it was balanced by: its NICs, or the
                                  ranks placed on them (partition_make_dim) */
    uint32_t cut_links;        /* links from this part to any other */
};

/* Which event sets the lookahead on a cut link. */
enum partition_event {
    PARTITION_NONE,            /* no cut: P = 1 */
    PARTITION_CREDIT,          /* a credit return: the wire latency */
    PARTITION_ARRIVE,          /* a packet's arrival: wire + router delay */
};

struct partition {
    uint32_t parts;            /* P */
    uint32_t units;            /* groups or planes of the machine */
    const char *unit_word;     /* "group" or "plane" */
    int dim;                   /* torus: the dimension cut (0 x, 1 y, 2 z);
                                  -1 on a dragonfly */
    uint32_t n_routers;        /* entries of router_part */
    uint32_t *router_part;     /* [router] -> its part */
    struct partition_part *part;   /* [P] */
    uint32_t *cut;             /* [a * P + b]: links between parts a and b
                                  (ports of a whose peer is in b); 0 on the
                                  diagonal, symmetric */
    uint32_t cut_links;        /* links whose ends are in two parts */
    /* the lookahead: the least delay of an event crossing a cut link;
     * SIMTIME_MAX when nothing is cut (P = 1) */
    simtime lookahead;
    enum partition_event sets; /* which event gives it */
    uint32_t sets_port;        /* a cut port with that least delay (the
                                  lowest id; TOPO_NONE without a cut) */
    simtime arrive_min;        /* the least ARRIVE delay over the cut
                                  (wire + router delay); SIMTIME_MAX */
    simtime credit_min;        /* the least credit-return delay (wire) */
};

/* The largest P that t can be split into: its groups on a dragonfly, its
 * longest dimension on a torus. */
uint32_t partition_max(const struct topo *t);

/* Deal t's routers over P parts under network parameters p (its router
 * delay), into *out. 0, or -1 reported to d: P = 0, P above
 * partition_max (the message names the maximum), out of memory. */
int partition_make(const struct topo *t, const struct net_params *p,
                   uint32_t P, struct partition *out, struct diag *d);

/* The same, a torus cut across dimension dim (0 x, 1 y, 2 z) whatever
 * cut is best (dim -1: the best; ignored on a dragonfly); P at most that
 * dimension's planes. The blocks balanced by load[router] (the work
 * expected there: the ranks a run of jobs places on its NICs,
 * exp/jobs_win.c)
 * instead of NICs, routers still breaking ties; NULL: by NICs. */
int partition_make_dim(const struct topo *t, const struct net_params *p,
                       uint32_t P, int dim, const uint32_t *load,
                       struct partition *out, struct diag *d);

/* Router r's unit: its group (dim -1, a dragonfly) or its plane across
 * dimension dim (a torus). */
uint32_t partition_unit_of(const struct topo *t, int dim, uint32_t r);

/* The units a windowed run cuts between, the same for every P (the links
 * whose credits wait for the windows' end must not depend on P): a
 * dragonfly's groups (-1); a torus's planes across the dimension its best
 * two-part cut crosses (the largest lookahead). -2: reported to d. */
int partition_cut_dim(const struct topo *t, const struct net_params *p,
                      struct diag *d);

/* A windowed run's window: the least wire latency of a link between two
 * units of dim (what a credit return across a cut takes at least; a
 * packet's arrival takes a router delay more), whatever the partitions,
 * so that the windows are the same for every P. A system of one unit:
 * 100 ns. */
simtime partition_window(const struct topo *t, int dim);

void partition_free(struct partition *pt);

/* The event's name ("credit return", "packet arrival", "none"). */
const char *partition_event_name(enum partition_event e);

/* Max load of a part over the mean (1 when balanced; 0 without load). */
double partition_imbalance(const struct partition *pt);

/* `dfsim topo NAME --partitions P`, as text and as one JSON object
 * (net/partition_print.c). */
void partition_print(FILE *out, const struct topo *t,
                     const struct partition *pt);
void partition_print_json(FILE *out, const struct topo *t,
                          const struct partition *pt);

/* The parts' units on one line: "groups 0-2 | 3-13". */
void partition_print_blocks(FILE *out, const struct partition *pt);

#endif
