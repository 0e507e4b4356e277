/* ctl/app_aware.c — SC'19's application-aware routing as a routing
 * controller (a struct nic_ctl of role NIC_CTL_ROUTE, net/nic_ctl.h): the
 * decision logic is ctl/awr.c;
 * this file hands it each post and tells it when another process has run
 * on the node. */
#include <stdio.h>
#include <stdlib.h>

#include "ctl/ctl.h"

static int aware_init(void **st, struct net *n, const void *params,
                      struct nic_ctl_setup *setup, char *err, size_t len)
{
    (void)setup;
    if (!params) {
        snprintf(err, len, "no parameters (the app_aware section)");
        return -1;
    }
    /* ADAPTIVE_0 for the low-stalls choice, ADAPTIVE_1 in its place
     * inside MPI_Alltoall (Cray MPI's default there), ADAPTIVE_3 for the
     * low-latency choice (SC'19 §4.2) */
    int a0 = ctl_net_mode(n, "ADAPTIVE_0", err, len);
    int a1 = a0 < 0 ? -1 : ctl_net_mode(n, "ADAPTIVE_1", err, len);
    int a3 = a1 < 0 ? -1 : ctl_net_mode(n, "ADAPTIVE_3", err, len);
    if (a3 < 0)
        return -1;
    struct awr *a = malloc(sizeof *a);
    if (!a) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    if (awr_init(a, params, n, (uint8_t)a0, (uint8_t)a1, (uint8_t)a3, err,
                 len) != 0) {
        free(a);
        return -1;
    }
    *st = a;
    return 0;
}

static void aware_free(void *st)
{
    awr_free(st);
    free(st);
}

static struct awr_msg msg_of(const struct nic_post *q)
{
    return (struct awr_msg){ .nic = q->src_nic, .dst_nic = q->dst_nic,
                             .bytes = q->bytes, .get = q->get,
                             .smsg = q->smsg, .alltoall = q->alltoall };
}

static uint8_t aware_route(void *st, const struct nic_post *q,
                           const uint8_t modes[2])
{
    (void)modes; /* awr_select picks among the three it was given */
    struct awr_msg m = msg_of(q);
    return awr_select(st, &m);
}

static void aware_posted(void *st, const struct nic_post *q, uint8_t mode)
{
    struct awr_msg m = msg_of(q);
    awr_sent(st, &m, mode);
}

/* Another job's process starts from a clean state (the library lives in
 * the process); another variant of the same job restarts the counter
 * deltas only if asked (awr_params.variant_restart). */
static void aware_switched(void *st, uint32_t nic, bool other_job)
{
    struct awr *a = st;
    if (other_job)
        awr_reset(a, nic);
    else if (a->p.variant_restart)
        awr_restart(a, nic);
}

const struct nic_ctl ctl_app_aware = {
    .base = { .name = "app-aware",
              .help = "SC'19 application-aware routing: ADAPTIVE_0 or _3 "
                      "per message from the NIC's counters (Aries; other "
                      "dragonflies' NICs by the counters' meanings)" },
    .roles = NIC_CTL_ROUTE,
    .mode = "ADAPTIVE_0", .a2a_mode = "ADAPTIVE_1", .counters = true,
    .init = aware_init, .free = aware_free, .route = aware_route,
    .posted = aware_posted, .switched = aware_switched,
};
