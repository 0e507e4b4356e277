/* route/hash.c — the deterministic Aries modes (SC'19 §2.2; XC white
 * paper: "where the runtime requires ordered packet delivery, the route is
 * selected using a deterministic hash computed on fields from the packet
 * header"). Which header fields the hardware hashes is not public: here
 * source NIC, destination NIC and packet number for MIN_HASH and
 * NMIN_HASH (a message's packets spread over paths), source and
 * destination only for IN_ORDER (one path per pair: in order). */
#include "route/df.h"

/* NMIN_HASH: the intermediate router from the hash. */
static uint32_t nmin_decide(struct net *n, uint32_t r, struct packet *p,
                            simtime now)
{
    (void)now;
    /* a function of the packet's header fields alone: no load is read,
     * and the same packet of a message between the same pair always
     * takes the same intermediate */
    uint64_t hv = df_hash3(p->src_nic, p->dst_nic, p->index);
    uint32_t x = df_random_mid(n, r, p->dst_router, hv, true);
    if (x != p->dst_router) {
        p->flags |= PKT_NONMIN;
        p->mid = x;
    }
    return NET_NONE;
}

const struct routing routing_min_hash = {
    .base = { "MIN_HASH", "minimal, path from a hash of source, destination "
                          "and packet" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .pick = df_pick_hash,
    .exit = df_exit_hash,
};

const struct routing routing_nmin_hash = {
    .base = { "NMIN_HASH", "non-minimal, intermediate from a hash of "
                           "source, destination and packet" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .decide = nmin_decide,
    .pick = df_pick_hash,
    .exit = df_exit_hash,
};

const struct routing routing_in_order = {
    .base = { "IN_ORDER", "minimal, one path per source-destination pair "
                          "(in order)" },
    .shapes = DF_SHAPES,
    .route = df_route,
    .pick = df_pick_pair,
    .exit = df_exit_pair,
};
