/* net/nic_ctl.h — the controllers beside a NIC: one interface for the
 * routing choosers and the rate controllers, and the stack a network
 * holds.
 *
 * What is modelled: on the real machines these systems sit between the
 * application and the NIC and act through what a NIC exposes — the
 * routing mode of a uGNI post (SC'19's library, Cray MPI's environment),
 * a delay before a message is posted (Netscope's MPI wrapper, ICS'21
 * §5), the NIC's own injection (Slingshot's endpoint congestion control,
 * SC'20 §II-D; DCQCN's reaction point; Cray's congestion protection) —
 * and learn through what the NIC and the switches report: counters,
 * end-to-end acknowledgements and the congestion marks they carry. A
 * controller here is one `const struct nic_ctl` of hooks at those places,
 * each optional:
 *
 *   a message is posted   route (its routing mode), posted, switched
 *                         (another process ran on the NIC), sleep and
 *                         sleeping (the poster waits first)
 *   the NIC serves it     admit_msg (when a message may start), admit
 *                         (when a pair's next request may go), inject
 *                         (a request left), ack (its response is back,
 *                         with its marks), tick (every period)
 *   a router routes       mark (a packet routed to an output with more
 *                         than mark_above flits waiting: ECN, endpoint
 *                         congestion marks)
 *   a job is placed       job (its NICs and its parameters: ICS'21's
 *                         delay sensitivity c_a)
 *
 * Two roles, by where a controller is chosen: a routing chooser
 * (NIC_CTL_ROUTE) per job in its `variants` — Cray MPI's static modes,
 * SC'19's application-aware routing (ctl/ctl.h runs them); a rate
 * controller (NIC_CTL_RATE) per network in network.congestion_control,
 * where several may be listed and run on every NIC together, in order
 * (the stack below). A NIC thus runs a routing chooser and any number of
 * rate controllers at once: app-aware routing beside DCQCN, Netscope over
 * Slingshot's control.
 *
 * Combining rate controllers: a message or a request may go when every
 * controller admits it (the first that holds it back names the time to
 * ask again); a poster sleeps until the latest of their sleeps; every
 * controller sees every injection, acknowledgement, tick and job; a
 * router output marks what each marking controller marks.
 *
 * Parameters: a controller's keys are its own (`part`: a struct net_part,
 * net/net.h; its block is in net_params.parts), read from the network
 * section for a rate controller.
 */
#ifndef DFSIM_NET_NIC_CTL_H
#define DFSIM_NET_NIC_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/time.h"

struct net;
struct net_part;
struct packet;
struct message;

/* A message a process posts to the network, as a controller sees it (the
 * MPI layer fills it: mpi/mpi.c). */
struct nic_post {
    uint32_t job;   /* the posting rank's job */
    uint32_t iter;  /* and its iteration (marks so far) */
    uint32_t src_nic, dst_nic;
    uint64_t bytes;
    bool get;       /* a GET (else a PUT) */
    bool smsg;      /* an SMSG mailbox send: a message of at most smsg_max
                       bytes, or a control message (RTS, FIN) */
    bool alltoall;  /* posted by a rank inside MPI_Alltoall */
};

/* A job placed on the machine, as its controllers see it. */
struct nic_job {
    uint32_t job;           /* its index in the run */
    const uint32_t *nics;   /* the NICs of its nodes */
    uint32_t n_nics;
    bool has_sensitivity;   /* it gives a delay sensitivity */
    double sensitivity;     /* ICS'21's c_a (§4.1, Table 3) */
};

/* What a controller's init tells the NIC about itself. */
struct nic_ctl_setup {
    simtime period;         /* tick every this (0: never) */
    uint32_t mark_above;    /* the router-output hook is asked only for
                               outputs with more flits waiting
                               (UINT32_MAX: never) */
};

enum {
    NIC_CTL_ROUTE = 1,      /* chooses each message's routing mode; per
                               job (its variants) */
    NIC_CTL_RATE = 2,       /* controls when a NIC sends; per network
                               (network.congestion_control) */
};

struct nic_ctl {
    struct reg_entry base;       /* name and one line of help */
    uint32_t roles;              /* NIC_CTL_* */
    const struct net_part *part; /* its parameters and their keys (NULL:
                                    none) */
    const char *mode;            /* ROUTE: the mode of every post (NULL:
                                    network.routing, the network's mode 0) */
    const char *a2a_mode;        /* ... and of MPI_Alltoall's (NULL: as
                                    mode) */
    bool counters;               /* reads the NICs' counters: the network
                                    keeps them */
    bool sensitivity;            /* reads the jobs' delay_sensitivity
                                    (job) */
    /* Set up on n with its parameters (its part's block; NULL without
     * one); state in *st, what the NIC needs to know in *setup (zeroed,
     * mark_above UINT32_MAX, before the call). 0, or -1 with a sentence
     * in err. */
    int (*init)(void **st, struct net *n, const void *params,
                struct nic_ctl_setup *setup, char *err, size_t len);
    void (*free)(void *st);

    /* -- a message is posted (the MPI layer) -- */
    /* the net mode of post q; modes[0], modes[1] are the net indexes of
     * `mode` and `a2a_mode` */
    uint8_t (*route)(void *st, const struct nic_post *q,
                     const uint8_t modes[2]);
    /* post q has gone to the NIC with net mode `mode` */
    void (*posted)(void *st, const struct nic_post *q, uint8_t mode);
    /* the next post from NIC nic comes from another job's process
     * (other_job) or another variant of the same job than its last */
    void (*switched)(void *st, uint32_t nic, bool other_job);
    /* a process of NIC nic posts `bytes` at now: when the sleep the
     * controller puts it in ends, or an earlier time to look again with
     * `sleeping` (<= now: no sleep) */
    simtime (*sleep)(void *st, uint32_t nic, uint64_t bytes, simtime now);
    simtime (*sleeping)(void *st, uint32_t nic, simtime now);

    /* -- the NIC serves its messages -- */
    /* when message m, none of it sent yet, may start at its NIC */
    simtime (*admit_msg)(void *st, const struct message *m, simtime now);
    /* when NIC src's next request to dst may go: <= now now,
     * SIMTIME_MAX when an ack comes */
    simtime (*admit)(void *st, uint32_t src, uint32_t dst, simtime now);
    /* request p left its NIC */
    void (*inject)(void *st, const struct packet *p, simtime now);
    /* response p (its marks the request's) is back at its source */
    void (*ack)(void *st, const struct packet *p, simtime now);
    /* every setup.period */
    void (*tick)(void *st, simtime now);
    /* the tick acts on each NIC alone, from that NIC's own counters
     * (Netscope's per-process window): a run split over partitions ticks
     * each partition's NICs at the exact tick times (net_xp_ticks) */
    bool tick_per_nic;
    /* a tick that decides for the machine at once (Cray's supervisor), in
     * two halves so that a run split over partitions can add up its
     * input over them (net_cc_take_ticks_split): tick_count reads the
     * network's own NICs at `now` (a partition's: net_owns) and returns
     * what the decision counts; tick_decide decides from the machine's
     * total. In one process tick is tick_decide(tick_count). NULL: a
     * machine-wide tick that cannot be split. */
    uint64_t (*tick_count)(void *st, simtime now);
    void (*tick_decide)(void *st, simtime now, uint64_t total);

    /* -- a router routes packet p to an output with q flits waiting
     * (q > setup.mark_above): set its marks (PKT_MARK_*) -- */
    void (*mark)(void *st, struct net *n, uint32_t router, struct packet *p,
                 uint32_t q);

    /* -- a job is placed -- */
    void (*job)(void *st, const struct nic_job *j);
};

/* Most rate controllers a network runs together. */
#define NET_MAX_CTLS 4

/* The rate controllers of a network, in the order they were listed
 * (net_init sets them up from net_params.cc). */
struct net_ctl_stack {
    uint32_t n;
    const struct nic_ctl *ctl[NET_MAX_CTLS];
    void *st[NET_MAX_CTLS];
    simtime period[NET_MAX_CTLS];
    simtime next_tick[NET_MAX_CTLS]; /* SIMTIME_MAX: no ticks */
    simtime first_tick;              /* the least of next_tick */
    uint32_t n_mark;                 /* of them, those that mark */
    uint8_t mark[NET_MAX_CTLS];      /* their indexes */
    uint32_t mark_above;             /* the least of their mark_above */
};

#endif
