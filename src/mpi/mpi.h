/* mpi/mpi.h — the MPI-like layer: ranks that run programs of MPI calls on
 * the simulated machine.
 *
 * What is modelled (issue 5; DESIGN.md §1 "MPI-like layer"): every rank
 * of every job sits on a node (its first NIC) and executes the stream of
 * operations its workload emits (mpi/op.h) one after the other:
 *
 *  - compute phases are delays;
 *  - each MPI call costs the host an overhead (LogP's o): o_send for a
 *    send or a one-sided call, o_recv for every receive that completes;
 *    a message a call starts reaches the NIC one host-interface crossing
 *    (host_latency) later, and received data reaches the host one
 *    crossing after the NIC has it;
 *  - point-to-point messages are matched MPI's way: a receive matches the
 *    first message from its source (or any) with its tag (or any) in the
 *    order the sender sent them (non-overtaking: envelopes carry a
 *    per-pair sequence number and the receiver takes them in that order
 *    even when adaptive routing reorders them); messages that arrive
 *    before their receive wait in the unexpected queue;
 *  - the wire protocol depends on the size, as Cray MPI's over Gemini and
 *    Aries (Pedretti et al., CUG 2013, §V-D: four protocols seen in the
 *    tile counters; XC white paper §"Cray XC Network Software Stack"):
 *      bytes <= smsg_max (16)        one PUT of header + data (SMSG mailbox)
 *      bytes <= eager_max (4 KiB)    one PUT of header + data into the
 *                                    receiver's eager buffer, copied out
 *                                    at the receive (copy_ps_per_byte)
 *      bytes <= rdv_get_max (256 KiB) GET rendezvous: the sender PUTs a
 *                                    request-to-send (header); the matched
 *                                    receiver GETs the data from the
 *                                    sender, then PUTs a FIN (header) back
 *      larger                        PUT rendezvous (block transfer): RTS,
 *                                    the receiver GETs a header-sized
 *                                    descriptor from the sender (the
 *                                    "small number of destination to
 *                                    source GET transactions" of §V-D),
 *                                    whose arrival at the sender starts the
 *                                    PUT of the data; the receive completes
 *                                    when the data has arrived (remote
 *                                    completion event), the send when the
 *                                    PUT is acknowledged;
 *    a send of the two eager protocols completes when the network has
 *    acknowledged its PUT (uGNI's local completion);
 *  - two ranks of one node exchange through shared memory (Nemesis):
 *    the message is at the receiver shm_latency plus one copy after the
 *    send, which is then complete; nothing enters the network;
 *  - one-sided DMPI_PUT / DMPI_GET go straight to the network (no header,
 *    no matching) and complete at the next DMPI_FLUSH;
 *  - before a rank posts a send, put or get to a rank of another node,
 *    the network's congestion controller may put it to sleep (Netscope's
 *    MPI wrapper, net_cc_sleep: the sleep hook of struct nic_ctl;
 *    ctl/netscope.c): it computes and posts nothing until woken;
 *  - collectives become point-to-point messages with the algorithm an
 *    MPI library picks by size and rank count (mpi/coll.h);
 *  - DMPI_MARK records the end of an iteration. An iteration's time is
 *    the span from the previous iteration's end (the job's start for the
 *    first) to its end, both taken at the last rank to mark — unless the
 *    workload times it: a rank that passed a DMPI_TSTART and then a
 *    DMPI_TSTOP since its previous mark measured that interval (the
 *    benchmark's own MPI_Wtime() pair, e.g. around the exchange that
 *    follows a barrier), and the iteration's time is the longest interval
 *    any rank measured (blink's max_duration).
 *
 * Where each job's packets went (SC'19 §4.1: adaptive routing's
 * non-minimal paths cost small messages latency): every packet of every
 * network message a rank posts, its requests and their responses, is
 * counted when it reaches its destination NIC (the net's `delivered`
 * hook) under the job and the iteration its poster was in when it posted
 * (marks made so far), whenever it arrives: a response still in flight
 * when its poster has moved on counts where its message was sent. Per
 * class, packets, those routed non-minimally (PKT_NONMIN) and their
 * router-to-router hops; packets still in the network when the run stops
 * are not counted. The poster's job and iteration travel with each
 * message (its second cookie, struct message.origin); the counts per job
 * are a flat array indexed by iteration, grown when a message is posted
 * (and, where the message's target runs in another partition, at the
 * first packet of an iteration the counts there have not reached).
 *
 * Jobs start at their start offset, a chained job that long after the
 * job it follows has ended; a background job (a congestor) runs
 * until every foreground job has finished, then the run stops. Each job's
 * result: start, end (its last rank's end), every rank's end, and its
 * iterations: iteration i ends when the last rank marks it.
 *
 * Events: one type (a rank resumes), created and handled by the NIC
 * entity of the rank's node, so that a rank's events keep their keys
 * whatever other ranks do; the network's hooks (message arrived at its
 * destination, message done at its source) run in the handler of the NIC
 * concerned, and the layer answers there. Deterministic: no random
 * numbers, no global counters in event keys.
 *
 * Memory: requests, transfers and queues live in flat arrays with free
 * lists that grow by doubling (never once the largest set in flight has
 * been reached); a rank's program is fetched in batches into a buffer of
 * its own. A transfer is two records, one at each end (p2p.c), so that
 * the two ends can run in different partitions of one simulation: the
 * receiver's is made from the envelope the sender mails (struct
 * dmpi_env), as the header of its message tells a real receiver.
 */
#ifndef DFSIM_MPI_H
#define DFSIM_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "core/keymap.h"

#include "core/diag.h"
#include "core/sim.h"
#include "core/time.h"
#include "mpi/coll.h"
#include "mpi/op.h"
#include "net/net.h"

/* The layer's parameters; defaults from dmpi_defaults. */
struct dmpi_params {
    uint32_t smsg_max;       /* largest SMSG message, bytes (16) */
    uint32_t eager_max;      /* largest eager message, bytes (4096) */
    uint32_t rdv_get_max;    /* largest GET-rendezvous message (262144) */
    uint32_t header_bytes;   /* MPI header and control messages (64) */
    simtime o_send;          /* host overhead of a send or one-sided call */
    simtime o_recv;          /* host overhead of a completed receive */
    simtime host_latency;    /* one host-interface crossing: a call's
                                message reaches the NIC this much later,
                                received data the host likewise */
    uint64_t copy_ps_per_kib; /* eager receive copy, ps per KiB */
    simtime shm_latency;     /* ranks of one node: shared-memory latency
                                (the copy costs copy_ps_per_kib) */
    double compute_scale;    /* every compute phase (DMPI_COMPUTE: the
                                workloads' and the reductions' combining)
                                takes this times its length: a faster or
                                slower host, or --quick's short check
                                (1.0) */
    /* Host noise (operating-system interference), as the detours of
     * Hoefler, Schneider and Lumsdaine, "Characterizing the Influence of
     * System Noise on Large-Scale Applications by Simulation" (SC'10):
     * every node's host stops for noise_detour once every noise_period,
     * at a phase of its own drawn from rng_stream(noise_seed, RNG_NOISE,
     * node); host work (compute, the calls' overheads, the receives'
     * debt) that meets a detour finishes that much later, waiting for
     * messages does not. 0: none (the default: the papers' experiments
     * measure the network; SC'19 §3.3 and Fig. 4 show the noise on one
     * node) */
    simtime noise_period;
    simtime noise_detour;
    uint64_t noise_seed;     /* the run's seed (the jobs runner sets it) */
    struct dmpi_coll_params coll;
};

void dmpi_defaults(struct dmpi_params *p);

/* dmpi_defaults, then the protocol switches of MPI software stack
 * `stack` (a topology family's mpi_stack; NULL or "ugni": Cray MPI over
 * uGNI, dmpi_defaults' own; "verbs-rxm": Cray MPI over libfabric's
 * verbs;ofi_rxm, as SC'20's Slingshot systems ran it). Returns 0, or -1
 * for a stack it does not know (p keeps dmpi_defaults'). */
int dmpi_defaults_for(struct dmpi_params *p, const char *stack);

/* Its keys: the experiment file's mpi section, into a struct dmpi_params
 * (core/config.h schema). */
extern const struct cfg_key dmpi_param_keys[];

/* What p's values must satisfy together (the protocols' thresholds in
 * order, smsg_max <= eager_max <= rdv_get_max): each problem's key and
 * why into out; returns how many. */
struct dmpi_params_problem {
    const char *key;
    char why[160];
};
uint32_t dmpi_params_check(const struct dmpi_params *p,
                           struct dmpi_params_problem out[3]);

/* A job's program: fill out[0..cap) with the next operations of rank
 * `rank` (0 .. ranks-1 of the job) and return how many; 0 means the rank
 * has finished. Called when the rank has executed everything it was
 * given before, from the rank's NIC's event handler. */
struct dmpi_comm;
struct dmpi_app {
    void *ctx;
    uint32_t (*next)(void *ctx, uint32_t rank, struct dmpi_op *out,
                     uint32_t cap);
    /* A collective whose `req` is c > 0 runs over the program's
     * communicator c as rank `rank` sees it (a trace's sub-communicator,
     * app/otf2.c): fill *out and return true, false if there is no such
     * communicator (the run fails). Its messages carry the op's `tag`
     * (the program numbers its communicators' collectives) instead of the
     * job's collective tags. NULL: collectives are over the whole job. */
    bool (*comm)(void *ctx, uint32_t rank, uint32_t c,
                 struct dmpi_comm *out);
    /* After next returned 0: NULL if rank `rank` has finished, else why
     * its program cannot go on (a trace that cannot be read further);
     * the run fails with that sentence. NULL: never. */
    const char *(*why)(void *ctx, uint32_t rank);
};

/* A communicator of a program (struct dmpi_app.comm): `size` ranks, the
 * caller is rank `me`, member[i] is rank i's rank in the job. */
struct dmpi_comm {
    uint32_t size, me;
    const uint32_t *member;
};

/* One job: its ranks (rank r on node nodes[r / ppn], its first NIC), its
 * program and when it starts. */
struct dmpi_job_spec {
    const char *name;
    const uint32_t *nodes; /* n_nodes node ids */
    uint32_t n_nodes;
    uint32_t ppn;          /* ranks per node (>= 1) */
    struct dmpi_app app;
    simtime start;         /* its ranks start at this time; chained:
                              this long after job `after` has ended */
    bool background;       /* runs until every foreground job is done */
    bool chained;          /* starts when job `after` ends (the next
                              command of a batch script) */
    uint32_t after;
    uint32_t after_marks;  /* chained, > 0: starts instead when every
                              rank of job `after` has marked this many
                              iterations or ended (GPCNeT's canaries,
                              released by an MPI_Ibarrier once the
                              congestors' warm-up pass is done); every
                              follower of one job that waits for marks
                              waits for the same number */
    uint8_t tc;            /* traffic class of every message its ranks
                              post (< the net's n_tcs; 0: the first, the
                              only one by default): requests and their
                              responses travel in it (net_send_tc) */
};

/* Where the packets of the messages a job's ranks posted in one
 * iteration went, by class (enum pkt_class: requests, and the responses
 * that came back for them). */
struct dmpi_paths {
    uint64_t pkts[2];   /* delivered to their destination NIC */
    uint64_t nonmin[2]; /* of them, routed non-minimally (PKT_NONMIN) */
    uint64_t hops[2];   /* their router-to-router hops */
};

/* a += b. */
static inline void dmpi_paths_add(struct dmpi_paths *a,
                                  const struct dmpi_paths *b)
{
    for (int c = 0; c < 2; c++) {
        a->pkts[c] += b->pkts[c];
        a->nonmin[c] += b->nonmin[c];
        a->hops[c] += b->hops[c];
    }
}

/* Where a job's packets waited (dmpi_waits_on): per class (PKT_REQ,
 * PKT_RSP), place and VC within the class at the router's input (the
 * route segment, net/net.h), the hops made and the time waited before
 * them (net_hooks.hop): place 0 (PORT_UNUSED, never a hop's) is the
 * packet's own NIC, before injection — a request's wait since its
 * message was handed over, behind its message's earlier packets
 * included, a response's since its request was delivered — any other
 * the kind of the router port it waited to cross (enum port_kind:
 * Aries's processor tile is the ejection to a NIC, rank-1 green, rank-2
 * black, rank-3 optical), the time it spent at that router beyond the
 * pipeline delay: credits, arbitration, the packets ahead of it in its
 * input VC and the tiles' buffers. */
struct dmpi_waits {
    uint64_t hops[2][PORT_KIND_COUNT][NET_MAX_SEGS];
    simtime wait[2][PORT_KIND_COUNT][NET_MAX_SEGS]; /* summed */
    simtime max[2][PORT_KIND_COUNT][NET_MAX_SEGS];  /* the longest */
};

/* What a job measured. Times are absolute simulation times. */
struct dmpi_job_result {
    simtime start, end;    /* end: its last rank finished (background
                              jobs: SIMTIME_MAX if stopped before);
                              start: SIMTIME_MAX for a chained job that
                              never started */
    bool started;          /* its first rank has begun (on_job called) */
    bool finished;
    uint32_t n_ranks;
    simtime *rank_end;     /* [n_ranks], SIMTIME_MAX if not finished */
    uint32_t n_iter;       /* iterations marked by every rank */
    simtime *iter_end;     /* [n_iter]: the last rank's mark */
    simtime *iter_time;    /* [n_iter]: the iteration's time (above: the
                              span between iter_ends, or the longest
                              interval a rank timed) */
    uint64_t msgs, bytes;  /* messages sent (point-to-point, collectives'
                              and one-sided PUTs and GETs: the bytes
                              moved), their bytes */
    simtime msg_time;      /* the network messages its ranks posted (data
                              and protocol: eager, RTS, CTS, FIN, the
                              data's PUT or GET): each from its hand-over
                              to the NIC to its arrival (a PUT's last
                              request delivered, a GET's last response
                              back), summed — Netscope's message delivery
                              time M (ICS'21 §4.1), measured */
    uint64_t msg_timed;    /* ... how many */
    struct dmpi_paths *paths; /* [n_paths]: the packets of the network
                              messages its ranks posted in iteration i
                              (marks made when posting; i >= n_iter:
                              after the last complete iteration) */
    uint32_t n_paths, paths_cap;
    struct dmpi_waits *waits; /* where its packets waited, or NULL
                              (dmpi_waits_on) */
};

/* An MPI envelope: what a point-to-point message's header tells its
 * receiver, mailed by the sender's half of the transfer when the message
 * leaves the host (p2p.c): the receiver's layer makes its half of the
 * transfer from it (dmpi_env_in) and finds it again when the message
 * arrives, by the sender's NIC and the sender's half's id. */
struct dmpi_env {
    uint32_t src, dst;    /* global ranks */
    uint32_t tag, seq;    /* the MPI tag; the per (src, dst) number */
    uint64_t bytes;
    uint32_t src_nic;     /* the sender's NIC */
    uint32_t sxid;        /* the sender's half */
    uint8_t proto;        /* enum dmpi_proto */
};

/* A run split over partitions (net/xpart.h): what this partition's ranks
 * of a job did, for the window's reduction (dmpi_split_apply). */
struct dmpi_part_job {
    uint64_t ended;       /* ranks that ended */
    simtime end_at;       /* the latest end (0: none) */
    uint64_t marked;      /* ranks that marked release_k iterations or
                             ended short of them (GPCNeT's release) */
    simtime marked_at;    /* the latest of those (0: none) */
};

struct dmpi_req;      /* mpi.c */
struct dmpi_xfer;
struct dmpi_rank;

struct dmpi {
    struct sim *s;
    struct net *n;
    const struct topo *t;
    struct dmpi_params p;
    uint32_t ev_resume;      /* the event type the layer registered */

    struct dmpi_rank *rank;  /* [n_ranks], all jobs' ranks, job by job */
    uint32_t n_ranks;
    uint32_t *job_first;     /* [n_jobs + 1]: ranks of job j */
    struct dmpi_job_spec *job;
    struct dmpi_job_result *res;
    uint32_t n_jobs, fg_left; /* foreground jobs not finished yet */
    uint32_t *follow_first;  /* [n_jobs + 1]: job j's followers are */
    uint32_t *follow;        /*   follow[follow_first[j] .. [j + 1]), the
                                chained jobs after it in job order */
    uint32_t *release_k;     /* [n_jobs]: the marks job j's followers
                                wait for (after_marks; 0: none waits) */
    uint32_t *release_left;  /* [n_jobs]: its ranks short of them */

    struct dmpi_req *req;    /* requests, free list through `next` */
    uint32_t req_cap, req_free, req_live;
    struct dmpi_xfer *xf;    /* transfers' halves at this end (p2p.c) */
    uint32_t xf_cap, xf_free, xf_live;
    struct keymap env;       /* envelopes in ahead of their message:
                                sender's NIC << 32 | its half -> the
                                receiver's half */
    /* Where an envelope goes when its message leaves the sender's host:
     * NULL, to this layer (dmpi_env_in); a run split over partitions
     * hands those of another partition's ranks to it. */
    void (*mail)(void *ctx, const struct dmpi_env *e);
    void *mail_ctx;

    /* The routing mode of each network message the layer posts (index
     * into the net's modes; NULL: mode 0), and a call after the post:
     * the controllers beside the NIC (ctl/) plug in here, as the SC'19
     * library wrapped uGNI's posts. */
    uint8_t (*route_mode)(void *ctx, const struct nic_post *q);
    void (*route_sent)(void *ctx, const struct nic_post *q, uint8_t mode);
    void *route_ctx;
    /* Called when rank r of job j marks the end of its iteration i (at
     * the simulation's current time); NULL: nothing. */
    void (*on_mark)(void *ctx, uint32_t job, uint32_t r, uint32_t i);
    void *mark_ctx;
    /* Called when job j begins (its first rank runs its first
     * operations; end false) and when its last rank has finished (end
     * true), at the simulation's current time; NULL: nothing. The
     * counter reports of job runs (exp/jobs.h) take their snapshots
     * here, as the Gemini library is called by the application itself. */
    void (*on_job)(void *ctx, uint32_t job, bool end);
    void *job_ctx;
    /* Called when job `job`'s followers that wait for its marks are
     * released (GPCNeT's release), before any of them starts, in one
     * process (not a split run's window end); NULL: none. It may
     * replace a follower's program (dmpi_job_spec.app, .name): the jobs
     * layer's branch point (exp/jobs.h, struct jobs_branch). */
    void (*on_release)(void *ctx, uint32_t job);
    void *release_ctx;

    /* A run split over partitions (the network's xp set, net/xpart.h):
     * this layer runs the ranks of its own partition's NICs only; a
     * job's end and its ranks' release marks are counted here (part) and
     * acted on at a window's end, from the sums over every partition
     * (dmpi_split_apply; docs/parallel-inventory.md M8-M10). */
    bool split;
    struct dmpi_part_job *part; /* [n_jobs] */
    uint64_t part_events;    /* ends and release marks counted so far */
    bool *released;          /* [n_jobs]: its followers released */

    int error;               /* -1: out of memory or a program error,
                                reported in `why` */
    char why[256];
};

/* Set up jobs spec[0..n_jobs) on network n (whose hooks the layer takes)
 * and simulation s; events of type ev_type (>= NET_EV_COUNT) are the
 * layer's. Schedules every rank's start. Returns 0, or -1 with the
 * reason reported to d (a node without a NIC, ppn 0, out of memory). */
int dmpi_init(struct dmpi *m, struct sim *s, struct net *n,
              const struct dmpi_params *p, const struct dmpi_job_spec *spec,
              uint32_t n_jobs, uint32_t ev_type, struct diag *d);
void dmpi_free(struct dmpi *m);

/* Count where every job's packets wait from now on (res[j].waits; the
 * network's hop hook: each hop then also writes its packet's cold half).
 * In one process only: a split run's far partition releases its copy of
 * a message once its requests are in, while its responses still travel
 * there, so a hop could not tell whose it is. 0, or -1 out of memory. */
int dmpi_waits_on(struct dmpi *m);

/* After the run: fill every job's iterations (n_iter: the fewest marks
 * of any rank, leaving out ranks that ended without marking at all, such
 * as a passive RMA target; iter_end[i]: the last rank's i-th mark;
 * iter_time[i]: its time, as the comment at the top says). 0, or -1 out
 * of memory. */
int dmpi_collect(struct dmpi *m);

/* A split run at a window's end T (every partition there): sum[j] the
 * sums over every partition of their part[j] (ended, marked: added;
 * end_at, marked_at: the latest). A job whose every rank has ended is
 * over, at its last rank's end; its followers start their offset after
 * it, or at T if that is past (a launcher's start cannot be known a
 * window ahead: docs/parallel-inventory.md M9); when every foreground job
 * is over the run is done (dmpi_done: the driver stops at T, M10). A job
 * whose every rank has marked its followers' iterations releases them
 * likewise (M9b). The same on every partition, in job order. */
void dmpi_split_apply(struct dmpi *m, const struct dmpi_part_job *sum,
                      simtime T);

/* A split run's end (exp/jobs_win.c): this partition's results into p —
 * per job its messages, bytes, message times and packet counts and
 * whether it started, and the end and marks of each of its ranks — and
 * another partition's, so packed, added into m (a layer of the same
 * run). Before dmpi_collect. dmpi_unpack_add: 0, or -1 out of memory or
 * a malformed buffer. */
struct pack;
struct unpack;
void dmpi_pack(const struct dmpi *m, struct pack *p);
int dmpi_unpack_add(struct dmpi *m, struct unpack *u);

/* Envelope e reaches the receiver's layer (its rank's partition): the
 * receiver's half of its transfer is made, to be found when its message
 * arrives (struct dmpi.mail). Out of memory: the run fails. */
void dmpi_env_in(struct dmpi *m, const struct dmpi_env *e);

/* Transfers and requests not yet given back (0 and 0 once the network
 * has drained after every rank finished: nothing leaks). */
void dmpi_in_use(const struct dmpi *m, uint32_t *xfers, uint32_t *reqs);

/* The iterations job j's furthest rank has marked so far (during the
 * run: for progress lines). */
uint32_t dmpi_job_marks(const struct dmpi *m, uint32_t job);

/* Whether every foreground job has finished. */
static inline bool dmpi_done(const struct dmpi *m)
{
    return m->fg_left == 0;
}

/* The global rank id of rank r of job j, and its NIC. */
uint32_t dmpi_rank_id(const struct dmpi *m, uint32_t job, uint32_t r);
uint32_t dmpi_rank_nic(const struct dmpi *m, uint32_t global_rank);

/* Which protocol a point-to-point message of `bytes` uses. */
enum dmpi_proto { DMPI_SMSG, DMPI_EAGER, DMPI_RDV_GET, DMPI_RDV_PUT };
enum dmpi_proto dmpi_protocol(const struct dmpi_params *p, uint64_t bytes);
extern const char *const dmpi_proto_names[];

#endif
