/* ctl/app_aware.c — SC'19's application-aware routing as a routing
 * controller (ctl.h's struct ctl_ops): the decision logic is ctl/awr.c;
 * this file hands it each post and tells it when another process has run
 * on the node. */
#include <stdio.h>
#include <stdlib.h>

#include "ctl/ctl.h"

static int aware_init(void **st, struct net *n, const struct ctl_params *p,
                      char *err, size_t len)
{
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
    if (awr_init(a, p->app_aware, n, (uint8_t)a0, (uint8_t)a1, (uint8_t)a3,
                 err, len) != 0) {
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

static struct awr_msg msg_of(const struct dmpi_post *q)
{
    return (struct awr_msg){ .nic = q->src_nic, .dst_nic = q->dst_nic,
                             .bytes = q->bytes, .get = q->get,
                             .smsg = q->smsg, .alltoall = q->alltoall };
}

static uint8_t aware_select(void *st, const struct dmpi_post *q,
                            const uint8_t modes[2])
{
    (void)modes; /* awr_select picks among the three it was given */
    struct awr_msg m = msg_of(q);
    return awr_select(st, &m);
}

static void aware_sent(void *st, const struct dmpi_post *q, uint8_t mode)
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

const struct ctl_ops ctl_app_aware = {
    .base = { .name = "app-aware",
              .help = "SC'19 application-aware routing: ADAPTIVE_0 or _3 "
                      "per message from the NIC's counters [Aries]" },
    .mode = "ADAPTIVE_0", .a2a_mode = "ADAPTIVE_1", .counters = true,
    .init = aware_init, .free = aware_free, .select = aware_select,
    .sent = aware_sent, .switched = aware_switched,
};
