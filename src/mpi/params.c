/* mpi/params.c — the mpi section: its keys, their defaults (with their
 * sources) and checks, and the protocol a message size selects. */
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "mpi/mpi.h"

const char *const dmpi_proto_names[] = { "smsg", "eager", "rendezvous-get",
                                         "rendezvous-put", NULL };

/* ---- its keys: the mpi section ----------------------------------------- */

#define MPI_U32(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT32,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_U64(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT64,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_TIME(key, field, unit, text)                                     \
    { .name = key, .type = CFG_TIME,                                         \
      .offset = offsetof(struct dmpi_params, field), .unit_ps = unit,       \
      .fmin = 0, .fmax = 1e9, .help = text }
#define MPI_NS(key, field, text) MPI_TIME(key, field, SIMTIME_NS, text)

const struct cfg_key dmpi_param_keys[] = {
    MPI_U32("smsg_max", smsg_max, 0, UINT32_MAX,
            "largest message sent as one SMSG PUT, bytes (16; Pedretti "
            "§V-D; Slingshot 64: docs/mpi.md)"),
    MPI_U32("eager_max", eager_max, 0, UINT32_MAX,
            "largest eager message, bytes (4096; Slingshot 131072)"),
    MPI_U32("rdv_get_max", rdv_get_max, 0, UINT32_MAX,
            "largest GET-rendezvous message; larger ones use the PUT "
            "rendezvous, bytes (262144; Slingshot 4294967295)"),
    MPI_U32("header_bytes", header_bytes, 1, 65536,
            "MPI header and control messages, bytes (64)"),
    MPI_NS("o_send_ns", o_send,
           "host overhead of a send or one-sided call, ns (250; XC white "
           "paper Fig. 11)"),
    MPI_NS("o_recv_ns", o_recv,
           "host overhead of a completed receive, ns (250)"),
    MPI_NS("host_latency_ns", host_latency,
           "one host-interface crossing, ns (300)"),
    MPI_NS("copy_ns_per_kib", copy_ps_per_kib,
           "eager receive copy (and shared-memory copy), ns per KiB (100)"),
    MPI_NS("shm_latency_ns", shm_latency,
           "latency between two ranks of one node, ns (100)"),
    { .name = "compute_scale", .type = CFG_FLOAT,
      .offset = offsetof(struct dmpi_params, compute_scale), .fmin = 0,
      .fmax = 1e6,
      .help = "every compute phase (a workload's, a reduction's "
              "combining) takes this times its length: a faster (< 1) or "
              "slower host (1.0; --quick: 0.01)" },
    MPI_TIME("noise_period_us", noise_period, SIMTIME_US,
             "host noise: every node's host stops once a period, at a "
             "random phase of its own (Hoefler et al. SC'10's detours), "
             "us (0: no noise)"),
    MPI_TIME("noise_detour_us", noise_detour, SIMTIME_US,
             "how long each stop lasts, us; below noise_period_us (0)"),
    MPI_U64("allreduce_short_msg_size", coll.allreduce_short_msg_size, 0,
            INT64_MAX,
            "recursive-doubling allreduce at or below, bytes (2048, MPICH "
            "CVAR)"),
    MPI_U64("bcast_short_msg_size", coll.bcast_short_msg_size, 0, INT64_MAX,
            "binomial bcast below, bytes (12288)"),
    MPI_U64("bcast_long_msg_size", coll.bcast_long_msg_size, 0, INT64_MAX,
            "scatter + recursive-doubling allgather bcast below, ring at "
            "and above, bytes (524288)"),
    MPI_U32("bcast_min_procs", coll.bcast_min_procs, 0, UINT32_MAX,
            "binomial bcast with fewer ranks (8)"),
    MPI_U32("alltoall_throttle", coll.alltoall_throttle, 0, UINT32_MAX,
            "requests per block of the scattered alltoall; 0: all at once "
            "(32)"),
    MPI_U64("allgather_short_msg_size", coll.allgather_short_msg_size, 0,
            INT64_MAX, "Bruck allgather when ranks x bytes is below (81920)"),
    MPI_U64("allgather_long_msg_size", coll.allgather_long_msg_size, 0,
            INT64_MAX,
            "recursive-doubling allgather when ranks x bytes is below and "
            "ranks a power of two (524288)"),
    MPI_U64("alltoall_medium_msg_size", coll.alltoall_medium_msg_size, 0,
            INT64_MAX,
            "scattered alltoall at or below, pairwise above, bytes (32768)"),
    MPI_U64("datatype_bytes", coll.datatype_bytes, 1, 1 << 20,
            "element size of reductions, bytes (8: MPI_DOUBLE)"),
    MPI_U64("barrier_bytes", coll.barrier_bytes, 1, 1 << 20,
            "size of a barrier message, bytes (8)"),
    MPI_U64("reduce_ps_per_byte", coll.reduce_ps_per_byte, 0, 1 << 20,
            "combining cost per byte received, ps (100)"),
    MPI_U64("max_msg_bytes", coll.max_msg_bytes, 1, UINT32_MAX,
            "largest collective message; larger ones are split "
            "(4294967295)"),
    { .name = NULL },
};

uint32_t dmpi_params_check(const struct dmpi_params *p,
                           struct dmpi_params_problem out[3])
{
    /* the protocols' thresholds in order */
    uint32_t n = 0;
    if (p->smsg_max > p->eager_max) {
        out[n].key = "smsg_max";
        snprintf(out[n++].why, sizeof out[0].why, "%u is above eager_max "
                 "(%u); expected smsg_max <= eager_max <= rdv_get_max",
                 p->smsg_max, p->eager_max);
    }
    if (p->eager_max > p->rdv_get_max) {
        out[n].key = "eager_max";
        snprintf(out[n++].why, sizeof out[0].why, "%u is above rdv_get_max "
                 "(%u); expected smsg_max <= eager_max <= rdv_get_max",
                 p->eager_max, p->rdv_get_max);
    }
    if (p->noise_period && p->noise_detour >= p->noise_period) {
        out[n].key = "noise_detour_us";
        snprintf(out[n++].why, sizeof out[0].why, "%g us is not below "
                 "noise_period_us (%g us): the host would never run",
                 (double)p->noise_detour / SIMTIME_US,
                 (double)p->noise_period / SIMTIME_US);
    }
    return n;
}

void dmpi_defaults(struct dmpi_params *p)
{
    memset(p, 0, sizeof *p);
    /* Protocol switches: Pedretti et al. §V-D (Cray MPI on Gemini): 1-16 B
     * one PUT, 32 B-4 KiB eager PUTs, 8-256 KiB GET-based, >= 512 KiB
     * PUT-based; an MPI header of about 64 bytes ("the MPI header appears
     * to be around 64 bytes"). */
    p->smsg_max = 16;
    p->eager_max = 4096;
    p->rdv_get_max = 256 * 1024;
    p->header_bytes = 64;
    /* Host overheads (LogP o). The XC white paper (§"Network
     * performance", Fig. 11) measures 0.8 us for an 8-byte user-space PUT
     * and about 1.3 us for an 8-byte MPI message: the difference, 0.5 us,
     * is the MPI software on both sides; split evenly. */
    p->o_send = 250 * SIMTIME_NS;
    p->o_recv = 250 * SIMTIME_NS;
    /* One host-interface (PCIe) crossing. The white paper's 0.8 us for an
     * 8-byte user-space PUT is two crossings (the NIC reads the source's
     * memory, writes the target's) plus about 0.2 us of NIC and network
     * (a router hop is ~100 ns): (0.8 - 0.2) / 2 = 0.3 us. */
    p->host_latency = 300 * SIMTIME_NS;
    /* Copy out of the eager buffer at ~10 GB/s (a memcpy of a few KiB in
     * cache on a Xeon E5 node): 100 ns per KiB. */
    p->copy_ps_per_kib = 100 * 1000;
    /* Ranks of one node exchange through shared memory, as MPICH's
     * Nemesis does: a cache line between cores (~100 ns) then the copy. */
    p->shm_latency = 100 * SIMTIME_NS;
    /* the hosts compute as the workloads' figures say (their sources:
     * app/) */
    p->compute_scale = 1.0;
    dmpi_coll_defaults(&p->coll);
}

int dmpi_defaults_for(struct dmpi_params *p, const char *stack)
{
    dmpi_defaults(p);
    if (!stack || strcmp(stack, "ugni") == 0)
        return 0;
    if (strcmp(stack, "verbs-rxm") != 0)
        return -1;
    /* SC'20 §II-G: Slingshot's MPI traffic went through libfabric, Cray
     * having "contributed with new features to the libfabric open-source
     * verbs provider and RxM utility provider", over ConnectX-5 NICs.
     * RxM's protocols (fi_rxm(7) and fi_verbs(7), libfabric 1.17,
     * Debian's libfabric-dev): a message smaller than
     * FI_OFI_RXM_BUFFER_SIZE ("default: ~16k") goes eager, copied at the
     * receiver; up to FI_OFI_RXM_SAR_LIMIT (128 KiB) by segmentation and
     * reassembly — segments of that buffer, pushed without a handshake
     * and copied out: an eager protocol here; larger by rendezvous, the
     * receiver reading the data by RMA ("RMA read/write ... used for
     * implementing rendezvous protocol for large messages") — the GET
     * rendezvous, for every size (RxM has no PUT-based one). Data up to
     * FI_VERBS_INLINE_SIZE (64 B) rides in the work request itself, as
     * an SMSG does. Cray MPICH's CH4 netmod hands every size to the
     * provider, so these are MPI's switches. The host costs stay the XC
     * white paper's: SC'20 Fig. 5's per-layer RTT/2 are not in its text
     * (a documented assumption, docs/mpi.md). */
    p->smsg_max = 64;
    p->eager_max = 128 * 1024;
    p->rdv_get_max = UINT32_MAX;
    return 0;
}

enum dmpi_proto dmpi_protocol(const struct dmpi_params *p, uint64_t bytes)
{
    if (bytes <= p->smsg_max)
        return DMPI_SMSG;
    if (bytes <= p->eager_max)
        return DMPI_EAGER;
    if (bytes <= p->rdv_get_max)
        return DMPI_RDV_GET;
    return DMPI_RDV_PUT;
}
