/* exp/jobs.c — see jobs.h. */
#include "exp/jobs.h"

#include <inttypes.h>
#include <libconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/idlist.h"
#include "core/rng.h"
#include "core/sim.h"
#include "core/time.h"
#include "exp/job_counters.h"
#include "exp/offered.h"
#include "ctl/cc.h"
#include "ctl/sc19_model.h"
#include "exp/stats.h"
#include "route/route.h"

/* Most ranks per node: Aries nodes of the studies had up to 68 cores
 * (KNL) or 2 x 36 hardware threads; 256 leaves room for SMT. */
#define PPN_MAX 256
/* Most nodes a job asks for: a Cray XC has at most ~10^4 nodes; the cap
 * keeps nodes x ppn within 32 bits. */
#define NODES_MAX (1u << 24)

#define JOB(type_, key, field, text, ...)                                    \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct job_config, field), .help = text,            \
      __VA_ARGS__ }

static const char *const variant_orders[] = { "alternate", "shuffled",
                                               NULL };

static const struct cfg_key job_keys[] = {
    JOB(CFG_STRING, "name", name,
        "the job's name in results (default: its workload's name, or "
        "<workload>-<index> when another job runs the same workload)"),
    JOB(CFG_NAME, "workload", workload,
        "what the job runs (dfsim list workload; its keys go in this "
        "group too: dfsim list workload NAME, docs/workloads/NAME.md)",
        .reg = &workload_registry, .required = true),
    JOB(CFG_UINT32, "nodes", nodes,
        "nodes the job asks for (required, except with list, pair and "
        "same: there all the job's nodes)",
        .min = 1, .max = NODES_MAX),
    JOB(CFG_UINT32, "ppn", ppn,
        "ranks per node; rank r runs on the job's node r / ppn (1)",
        .min = 1, .max = PPN_MAX),
    JOB(CFG_NAME, "allocation", allocation,
        "how its nodes are chosen (linear)", .reg = &allocation_registry),
    JOB(CFG_STRING, "node_list", node_list,
        "allocation = \"list\": node ids in rank order, ranges allowed "
        "(\"0-15,32,40-47\")"),
    JOB(CFG_CHOICE, "distance", distance,
        "allocation = \"pair\": how far apart its two nodes are",
        .choices = alloc_distance_names),
    JOB(CFG_FLOAT, "busy", busy,
        "allocation = \"fragmented\": share of the free nodes other users "
        "hold (0.5)",
        .fmin = 0, .fmax = 0.99),
    JOB(CFG_UINT32, "max_block", max_block,
        "allocation = \"fragmented\": largest run of nodes another user "
        "holds (32)",
        .min = 1, .max = NODES_MAX),
    JOB(CFG_TIME, "start_us", start,
        "when its ranks start, us of simulated time (0)",
        .unit_ps = SIMTIME_US, .fmin = 0, .fmax = 1e9),
    JOB(CFG_STRING, "after", after,
        "the name of a job this one follows: it starts start_us after "
        "that job has ended (with allocation = \"same\", on its nodes)"),
    JOB(CFG_BOOL, "background", background,
        "a congestor: runs until every foreground job has ended, then "
        "stops (false)"),
    JOB(CFG_NAME, "routing", routing,
        "the routing controller of its messages (dfsim list controller; "
        "\"network\": network.routing)",
        .reg = &controller_registry),
    JOB(CFG_NAMES, "variants", variants,
        "controllers alternated iteration by iteration on the same "
        "allocation (SC'19 §3); instead of routing",
        .reg = &controller_registry),
    JOB(CFG_CHOICE, "variant_order", variant_order,
        "with variants: \"alternate\" (iteration i runs variant i mod n, "
        "SC'19 §3) or \"shuffled\" (each round of n iterations runs them "
        "all in a random order, so that a periodic background cannot lock "
        "onto one) (alternate)",
        .choices = variant_orders),
    JOB(CFG_UINT32, "warmup", warmup,
        "first iterations left out of variants.csv (0)",
        .min = 0, .max = UINT32_MAX - 1),
    JOB(CFG_STRING, "traffic_class", traffic_class,
        "the traffic class of its messages: a name of "
        "network.traffic_classes (the first class) [Slingshot, dragonfly]"),
    JOB(CFG_BOOL, "model", model,
        "estimate each iteration by SC'19's model (Eq. 2) from rank 0's "
        "NIC counters: model_us in iterations.csv (false)"),
    JOB(CFG_FLOAT, "delay_sensitivity", delay_sensitivity,
        "with network.congestion_control = \"netscope\": its NICs' c_a, "
        "the delay sensitivity that softens their rate cuts (ICS'21 "
        "Table 3: MILC 6.67, LAMMPS 0.47, AMG 0) "
        "(network.netscope_sensitivity)",
        .fmin = 0, .fmax = 1e6),
    { .name = NULL },
};

/* ---- the app_aware section: struct awr_params ---------------------------- */

#define AWR_KEY(type_, key, field, text, ...)                                \
    { .name = key, .type = type_,                                            \
      .offset = offsetof(struct awr_params, field), .help = text,            \
      __VA_ARGS__ }

static const struct cfg_key awr_keys[] = {
    AWR_KEY(CFG_UINT64, "cutoff", cutoff,
            "bytes sent with ADAPTIVE_3 before a decision (4096, "
            "AWR_CUTOFF)", .min = 0, .max = INT64_MAX),
    AWR_KEY(CFG_FLOAT, "factor_lat", factor_lat,
            "latency of ADAPTIVE_0 over ADAPTIVE_3 (1.2)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_FLOAT, "factor_stalls", factor_stalls,
            "stalls of ADAPTIVE_3 over ADAPTIVE_0 (5.0)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_UINT32, "max_freshness", max_freshness,
            "decisions a stored sample of the other mode lives (5)",
            .min = 0, .max = 1 << 20),
    AWR_KEY(CFG_BOOL, "remove_srin", remove_srin,
            "stalls = REQ_STALLED - RSP_STALLED (true, REMOVE_SRIN)"),
    AWR_KEY(CFG_FLOAT, "cycles_to_us", cycles_to_us,
            "NIC cycle, us (0.00125: 800 MHz)", .fmin = 1e-9, .fmax = 1),
    AWR_KEY(CFG_UINT32, "packet_bytes", packet_bytes,
            "bytes per request packet (64)", .min = 1, .max = 1 << 20),
    AWR_KEY(CFG_FLOAT, "flits_per_packet", flits_per_packet,
            "request flits per PUT packet (5)", .fmin = 1e-6, .fmax = 1e6),
    AWR_KEY(CFG_FLOAT, "get_flit_div", get_flit_div,
            "GET requests' flits divided by this (5)", .fmin = 1e-6,
            .fmax = 1e6),
    AWR_KEY(CFG_UINT32, "max_outstanding", max_outstanding,
            "outstanding packets of a NIC in the model's alpha (1024)",
            .min = 1, .max = 1 << 24),
    AWR_KEY(CFG_BOOL, "eq3", eq3,
            "compare Eq. 3's two costs instead of the library's divided "
            "test (false)"),
    AWR_KEY(CFG_BOOL, "variant_restart", variant_restart,
            "with variants: take a new counter baseline when another "
            "variant has posted from the NIC since app-aware's last read "
            "(false: the deltas since its own last read, as the library)"),
    { .name = NULL },
};

/* ---- the mpi section: struct dmpi_params -------------------------------- */

#define MPI_U32(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT32,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_U64(key, field, lo, hi, text)                                    \
    { .name = key, .type = CFG_UINT64,                                       \
      .offset = offsetof(struct dmpi_params, field), .min = lo, .max = hi,  \
      .help = text }
#define MPI_NS(key, field, text)                                             \
    { .name = key, .type = CFG_TIME,                                         \
      .offset = offsetof(struct dmpi_params, field), .unit_ps = SIMTIME_NS, \
      .fmin = 0, .fmax = 1e9, .help = text }

static const struct cfg_key mpi_keys[] = {
    MPI_U32("smsg_max", smsg_max, 0, UINT32_MAX,
            "largest message sent as one SMSG PUT, bytes (16; Pedretti "
            "§V-D)"),
    MPI_U32("eager_max", eager_max, 0, UINT32_MAX,
            "largest eager message, bytes (4096)"),
    MPI_U32("rdv_get_max", rdv_get_max, 0, UINT32_MAX,
            "largest GET-rendezvous message; larger ones use the PUT "
            "rendezvous, bytes (262144)"),
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

/* ---- reading ------------------------------------------------------------ */

static bool has_key(config_setting_t *g, const char *key)
{
    return config_setting_get_member(g, key) != NULL;
}


/* What is wrong with j's node_list at p (idlist_next said st). */
static void node_list_error(const struct job_config *j, int line,
                            const char *key, enum idlist_status st,
                            uint64_t a, uint64_t b, const char *p,
                            struct diag *d)
{
    switch (st) {
    case IDLIST_NOT_ID:
        diag_error(d, j->file, line, key,
                   "expected node ids and ranges like \"0-15,32,40-47\", "
                   "got \"%s\" at \"%s\"",
                   j->node_list, p);
        break;
    case IDLIST_NO_END:
        diag_error(d, j->file, line, key, "a range needs an end: \"%s\"",
                   j->node_list);
        break;
    case IDLIST_BAD_RANGE:
        diag_error(d, j->file, line, key,
                   "range %llu-%llu: expected a first id <= the last, both "
                   "below 4294967295",
                   (unsigned long long)a, (unsigned long long)b);
        break;
    default:
        diag_error(d, j->file, line, key,
                   "expected ',' between node ids, got \"%s\"", p);
        break;
    }
}

/* Parse "0-15,32,40-47" into j->list. Errors name the key's line. */
static int parse_node_list(struct job_config *j, config_setting_t *g,
                           const char *prefix, struct diag *d)
{
    char key[64];
    snprintf(key, sizeof key, "%s.node_list", prefix);
    int line = cfg_member_line(g, "node_list");
    uint64_t total = 0;
    uint32_t cap = 0;
    j->n_list = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *p = j->node_list;
        uint32_t n = 0;
        uint64_t a = 0, b = 0;
        enum idlist_status st;
        while ((st = idlist_next(&p, &a, &b)) == IDLIST_RANGE) {
            if (pass == 0) {
                total += b - a + 1;
                if (total > NODES_MAX) {
                    diag_error(d, j->file, line, key,
                               "more than %u nodes", NODES_MAX);
                    return -1;
                }
            } else {
                for (uint64_t v = a; v <= b; v++)
                    j->list[n++] = (uint32_t)v;
            }
        }
        if (st != IDLIST_END) {
            node_list_error(j, line, key, st, a, b, p, d);
            return -1;
        }
        if (pass == 0) {
            if (total == 0) {
                diag_error(d, j->file, line, key,
                           "expected at least one node id");
                return -1;
            }
            cap = (uint32_t)total;
            j->list = malloc(cap * sizeof *j->list);
            if (!j->list) {
                diag_error(d, j->file, line, key, "out of memory");
                return -1;
            }
        }
    }
    j->n_list = cap;
    return 0;
}

/* A key that only `policy` takes is an error under another policy. */
static void only_with(struct job_config *j, config_setting_t *g,
                      const char *prefix, const char *key,
                      enum alloc_policy policy, enum alloc_policy has,
                      struct diag *d)
{
    if (has == policy || !has_key(g, key))
        return;
    char k[64];
    snprintf(k, sizeof k, "%s.%s", prefix, key);
    diag_error(d, j->file, cfg_member_line(g, key), k,
               "applies to allocation = \"%s\" only; this job's allocation "
               "is \"%s\"",
               alloc_policy_names[policy], alloc_policy_names[has]);
}

uint32_t jobs_ranks(const struct job_config *j)
{
    return j->nodes * j->ppn;
}

/* The allocation's own checks and the node count it implies. */
static void check_allocation(struct job_config *j, config_setting_t *g,
                             const char *prefix, struct diag *d)
{
    enum alloc_policy p =
        ((const struct alloc_policy_entry *)j->allocation)->policy;
    only_with(j, g, prefix, "node_list", ALLOC_LIST, p, d);
    only_with(j, g, prefix, "distance", ALLOC_PAIR, p, d);
    only_with(j, g, prefix, "busy", ALLOC_FRAGMENTED, p, d);
    only_with(j, g, prefix, "max_block", ALLOC_FRAGMENTED, p, d);
    char key[64];
    snprintf(key, sizeof key, "%s.nodes", prefix);
    bool given = has_key(g, "nodes");
    if (p == ALLOC_LIST) {
        if (!j->node_list) {
            diag_error(d, j->file, j->line, prefix,
                       "allocation = \"list\" needs node_list (\"0-15,32\")");
            return;
        }
        if (parse_node_list(j, g, prefix, d) != 0)
            return;
        if (given && j->nodes != j->n_list)
            diag_error(d, j->file, cfg_member_line(g, "nodes"), key,
                       "%u nodes, but node_list names %u", j->nodes,
                       j->n_list);
        j->nodes = j->n_list;
    } else if (p == ALLOC_PAIR) {
        if (!j->distance)
            diag_error(d, j->file, j->line, prefix,
                       "allocation = \"pair\" needs distance (one of "
                       "same-router, same-chassis, same-group, "
                       "different-groups)");
        if (given && j->nodes != 2)
            diag_error(d, j->file, cfg_member_line(g, "nodes"), key,
                       "a pair is 2 nodes, not %u", j->nodes);
        j->nodes = 2;
    } else if (p == ALLOC_SAME) {
        if (!j->after)
            diag_error(d, j->file, j->line, prefix,
                       "allocation = \"same\" takes the nodes of the job "
                       "named by after; this job has no after");
    } else if (!given) {
        diag_error(d, j->file, j->line, prefix,
                   "missing required key \"%s\" (how many nodes the job "
                   "asks for)",
                   key);
    }
}

/* Call the workload's own init on the job's rank count, so that a
 * parameter it refuses (a grid that does not hold the ranks) is reported
 * at the job's line before anything runs. */
static void check_workload(const struct job_config *j, uint32_t index,
                           const char *prefix, struct diag *d)
{
    const struct workload *w = (const struct workload *)j->workload;
    _Alignas(16) unsigned char state[WORKLOAD_STATE_MAX];
    struct workload_env env = { .nranks = jobs_ranks(j), .ppn = j->ppn,
                                .seed = 0, .job = index };
    char err[256];
    if (w->init(state, j->params, &env, err, sizeof err) != 0) {
        diag_error(d, j->file, j->line, prefix, "%s on %u ranks: %s",
                   w->base.name, env.nranks, err);
        return;
    }
    w->free(state);
}

void jobs_job_defaults(struct job_config *j)
{
    memset(j, 0, offsetof(struct job_config, params));
    j->ppn = 1;
    j->allocation = allocation_registry.entries[ALLOC_LINEAR];
    j->busy = ALLOC_DEFAULT_BUSY;
    j->max_block = ALLOC_DEFAULT_MAX_BLOCK;
}

int jobs_check_sensitivity(const struct job_config *j, uint32_t n,
                           const char *prefix, bool netscope,
                           struct diag *d)
{
    int errors = 0;
    for (uint32_t i = 0; i < n && !netscope; i++) {
        if (!j[i].ds_line)
            continue;
        char key[96];
        snprintf(key, sizeof key, "%s[%u].delay_sensitivity", prefix, i);
        diag_error(d, j[i].file, j[i].ds_line, key,
                   "is read only by Netscope's rate control; expected "
                   "network.congestion_control = \"netscope\"");
        errors++;
    }
    return errors;
}

int jobs_resolve_classes(struct job_config *j, uint32_t n,
                         const char *prefix, const char *const *names,
                         uint32_t n_names, struct diag *d)
{
    int before = d->errors;
    for (uint32_t i = 0; i < n; i++) {
        j[i].tc = 0;
        if (!j[i].traffic_class)
            continue;
        uint32_t k = 0;
        while (k < n_names && strcmp(names[k], j[i].traffic_class) != 0)
            k++;
        if (k < n_names) {
            j[i].tc = (uint8_t)k;
            continue;
        }
        char key[64], known[512] = "";
        size_t used = 0;
        for (uint32_t c = 0; c < n_names; c++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s",
                             c ? ", " : "", names[c]);
            if (w < 0 || (size_t)w >= sizeof known - used)
                break;
            used += (size_t)w;
        }
        snprintf(key, sizeof key, "%s[%u].traffic_class", prefix, i);
        if (n_names == 0)
            diag_error(d, j[i].file, j[i].tc_line, key,
                       "\"%s\": the network has no traffic classes; "
                       "expected network.traffic_classes = ( { name = "
                       "\"%s\"; min_share = ...; }, ... ) first",
                       j[i].traffic_class, j[i].traffic_class);
        else
            diag_error(d, j[i].file, j[i].tc_line, key,
                       "\"%s\" is not a class of network.traffic_classes; "
                       "known: %s",
                       j[i].traffic_class, known);
    }
    return d->errors - before;
}

/* A job's name goes unquoted into the CSV files and names its rows: it
 * must be there and hold no comma, quote or line break. Its warm-up must
 * leave iterations to measure (with variants, one per variant), or its
 * statistics would be of nothing, printed as 0 as if measured. */
static void check_name_warmup(const struct job_config *j,
                              const struct workload *w, config_setting_t *g,
                              const char *prefix, struct diag *d)
{
    char key[48];
    if (j->name && (!*j->name || strpbrk(j->name, ",\"\n\r"))) {
        snprintf(key, sizeof key, "%s.name", prefix);
        diag_error(d, j->file, cfg_member_line(g, "name"), key,
                   "%s; expected a name of at least one character without "
                   "a comma, quote or line break (it names the job's rows "
                   "in the CSV files)",
                   *j->name ? "the name holds a comma, quote or line break"
                            : "the name is empty");
    }
    if (!j->warmup || j->background)
        return;
    uint32_t iters = 0;
    for (const struct cfg_key *k = w->keys; k && k->name; k++)
        if (strcmp(k->name, "iterations") == 0 && k->type == CFG_UINT32)
            iters = *(const uint32_t *)((const char *)j->params + k->offset);
    uint32_t need = j->variants.n > 1 ? j->variants.n : 1;
    if (iters > 0 && (j->warmup >= iters || iters - j->warmup < need)) {
        snprintf(key, sizeof key, "%s.warmup", prefix);
        diag_error(d, j->file, cfg_member_line(g, "warmup"), key,
                   "%u warm-up iterations leave %u of the job's %u "
                   "iterations to measure; expected warmup < iterations%s",
                   j->warmup, j->warmup < iters ? iters - j->warmup : 0,
                   iters,
                   need > 1 ? " with one measured iteration per variant "
                              "at least"
                            : "");
    }
}

static void load_job(struct cfg_file *f, config_setting_t *g, uint32_t i,
                     struct job_config *j, const char *const *common,
                     struct diag *d)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "jobs[%u]", i);
    jobs_job_defaults(j);
    j->file = cfg_file_of(f, g);
    j->line = cfg_line(g);
    int before = d->errors;
    const char **skip = cfg_members_except(g, common);
    if (!skip) {
        diag_error(d, j->file, j->line, prefix, "out of memory");
        return;
    }
    cfg_read(f, g, prefix, job_keys, j, skip, d);
    free(skip);
    j->tc_line = cfg_member_line(g, "traffic_class");
    j->ds_line = cfg_given_line(g, "delay_sensitivity");
    const struct workload *w = (const struct workload *)j->workload;
    if (!w)
        return; /* missing or unknown: reported */
    w->defaults(j->params);
    cfg_read(f, g, prefix, w->keys, j->params, common, d);
    if (j->allocation)
        check_allocation(j, g, prefix, d);
    check_name_warmup(j, w, g, prefix, d);
    if (j->routing && j->variants.n)
        diag_error(d, j->file, cfg_member_line(g, "variants"), prefix,
                   "give routing (one controller) or variants (several, "
                   "alternated), not both");
    if (j->variant_order && j->variants.n < 2)
        diag_error(d, j->file, cfg_member_line(g, "variant_order"), prefix,
                   "variant_order orders alternated variants; this job has "
                   "%s",
                   j->variants.n ? "one" : "none (variants = [...])");
    if (j->variants.n > CTL_MAX_VARIANTS)
        diag_error(d, j->file, cfg_member_line(g, "variants"), prefix,
                   "%u variants; at most %d", j->variants.n,
                   CTL_MAX_VARIANTS);
    if (j->model && (!w->msg_bytes || w->msg_bytes(j->params) == 0))
        diag_error(d, j->file, cfg_member_line(g, "model"), prefix,
                   "the model estimates one message per iteration; %s has "
                   "no message size (the microbenchmarks with bytes have)",
                   w->base.name);
    if (j->background == false && w->endless && w->endless(j->params))
        diag_error(d, j->file, j->line, prefix,
                   "%s runs until it is stopped unless given iterations: "
                   "make it a background job (background = true) or give "
                   "iterations",
                   w->base.name);
    if (d->errors == before &&
        ((const struct alloc_policy_entry *)j->allocation)->policy !=
            ALLOC_SAME)
        check_workload(j, i, prefix, d); /* same: once the job it follows
                                            is known (link_jobs) */
}

/* Default names, and names that are unique. */
static void name_jobs(struct jobs_config *jc, struct diag *d)
{
    for (uint32_t i = 0; i < jc->n; i++) {
        struct job_config *j = &jc->job[i];
        if (j->name || !j->workload)
            continue;
        bool shared = false;
        for (uint32_t k = 0; k < jc->n; k++)
            shared = shared || (k != i && jc->job[k].workload == j->workload);
        if (shared)
            snprintf(j->name_buf, sizeof j->name_buf, "%s-%u",
                     j->workload->name, i);
        else
            snprintf(j->name_buf, sizeof j->name_buf, "%s",
                     j->workload->name);
        j->name = j->name_buf;
    }
    for (uint32_t i = 0; i < jc->n; i++)
        for (uint32_t k = 0; k < i; k++)
            if (jc->job[i].name && jc->job[k].name &&
                strcmp(jc->job[i].name, jc->job[k].name) == 0) {
                char key[32];
                snprintf(key, sizeof key, "jobs[%u].name", i);
                diag_error(d, jc->job[i].file, jc->job[i].line, key,
                           "\"%s\" is the name of jobs[%u] too; give each "
                           "job its own name",
                           jc->job[i].name, k);
                break;
            }
}

/* Resolve `after` names; a chain must not loop or wait on a background
 * job; "same" jobs without a node count take their predecessor's. */
static void link_jobs(struct jobs_config *jc, struct diag *d)
{
    int before = d->errors;
    for (uint32_t i = 0; i < jc->n; i++) {
        struct job_config *j = &jc->job[i];
        if (!j->after)
            continue;
        char key[32];
        snprintf(key, sizeof key, "jobs[%u].after", i);
        uint32_t k = 0;
        while (k < jc->n && !(jc->job[k].name &&
                              strcmp(jc->job[k].name, j->after) == 0))
            k++;
        if (k == jc->n || k == i) {
            diag_error(d, j->file, j->line, key,
                       k == i ? "\"%s\" is this job; expected another "
                                "job's name"
                              : "no job is called \"%s\"; expected the "
                                "name of another job of the list",
                       j->after);
            continue;
        }
        if (jc->job[k].background)
            diag_error(d, j->file, j->line, key,
                       "\"%s\" is a background job, which ends only when "
                       "the foreground jobs have; expected a foreground "
                       "job",
                       j->after);
        j->after_job = k;
    }
    if (d->errors != before)
        return;
    for (uint32_t i = 0; i < jc->n; i++) {
        uint32_t k = i, steps = 0;
        while (jc->job[k].after && steps++ <= jc->n)
            k = jc->job[k].after_job;
        if (steps > jc->n) {
            diag_error(d, jc->job[i].file, jc->job[i].line, "after",
                       "job \"%s\" waits for itself through a chain of "
                       "after keys; expected a chain that starts at a job "
                       "without after",
                       jc->job[i].name);
            return;
        }
    }
    /* node counts down the chains (acyclic now: n passes settle them) */
    for (uint32_t pass = 0; pass < jc->n; pass++)
        for (uint32_t i = 0; i < jc->n; i++) {
            struct job_config *j = &jc->job[i];
            const struct alloc_policy_entry *a =
                (const struct alloc_policy_entry *)j->allocation;
            if (a && a->policy == ALLOC_SAME && !j->nodes)
                j->nodes = jc->job[j->after_job].nodes;
        }
    for (uint32_t i = 0; i < jc->n; i++) {
        struct job_config *j = &jc->job[i];
        const struct alloc_policy_entry *a =
            (const struct alloc_policy_entry *)j->allocation;
        if (!a || a->policy != ALLOC_SAME)
            continue;
        char key[32];
        snprintf(key, sizeof key, "jobs[%u]", i);
        const struct job_config *f = &jc->job[j->after_job];
        uint32_t twin = 0;
        while (twin < i &&
               !(jc->job[twin].after && jc->job[twin].after_job ==
                     j->after_job &&
                 ((const struct alloc_policy_entry *)jc->job[twin]
                      .allocation)->policy == ALLOC_SAME))
            twin++;
        if (twin < i)
            diag_error(d, j->file, j->line, key,
                       "jobs[%u] takes the nodes of \"%s\" too and starts "
                       "when it ends, so the two would share nodes at the "
                       "same time; expected one to follow the other "
                       "(after = \"%s\")",
                       twin, f->name, jc->job[twin].name);
        else if (j->nodes > f->nodes)
            diag_error(d, j->file, j->line, key,
                       "%u nodes, but \"%s\", whose nodes it takes, has %u",
                       j->nodes, f->name, f->nodes);
        else
            check_workload(j, i, key, d);
    }
}

/* Protocol thresholds in order. */
static void check_mpi(struct cfg_file *f, config_setting_t *ms,
                      const struct dmpi_params *p, struct diag *d)
{
    if (p->smsg_max > p->eager_max)
        diag_error(d, cfg_file_of(f, ms), cfg_member_line(ms, "smsg_max"),
                   "mpi.smsg_max",
                   "%u is above eager_max (%u); expected smsg_max <= "
                   "eager_max <= rdv_get_max",
                   p->smsg_max, p->eager_max);
    if (p->eager_max > p->rdv_get_max)
        diag_error(d, cfg_file_of(f, ms), cfg_member_line(ms, "eager_max"),
                   "mpi.eager_max",
                   "%u is above rdv_get_max (%u); expected smsg_max <= "
                   "eager_max <= rdv_get_max",
                   p->eager_max, p->rdv_get_max);
}

/* With a production section: the other users are the fill's jobs, so a
 * job's own phantom users (allocation "fragmented") would leave their
 * nodes idle and unknown to the fill; and the fill's job names are its
 * own. */
static void check_with_fill(const struct jobs_config *jc, struct diag *d)
{
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        char key[48];
        if (j->allocation &&
            ((const struct alloc_policy_entry *)j->allocation)->policy ==
                ALLOC_FRAGMENTED) {
            snprintf(key, sizeof key, "jobs[%u].allocation", i);
            diag_error(d, j->file, j->line, key,
                       "\"fragmented\" holds nodes for phantom other users, "
                       "and with a production section the other users are "
                       "the fill's jobs; expected another allocation "
                       "(linear, random, pair, ...: the fill takes the "
                       "nodes left)");
        }
        if (j->name && strncmp(j->name, "bg-", 3) == 0) {
            snprintf(key, sizeof key, "jobs[%u].name", i);
            diag_error(d, j->file, j->line, key,
                       "\"%s\": names starting with \"bg-\" are the "
                       "production fill's (bg-000-<workload>, ...); expected "
                       "another name",
                       j->name);
        }
    }
}

int jobs_load(struct cfg_file *f, struct jobs_config *jc, struct diag *d)
{
    int before = d->errors;
    memset(jc, 0, sizeof *jc);
    dmpi_defaults(&jc->mpi);
    awr_defaults(&jc->awr);
    config_setting_t *js = cfg_section(f, "jobs");
    config_setting_t *ms = cfg_section(f, "mpi");
    config_setting_t *as = cfg_section(f, "app_aware");
    /* an impact section's runs are jobs too (exp/impact.h) */
    bool runs_jobs = js || cfg_section(f, "impact");
    if (as) {
        cfg_read(f, as, "app_aware", awr_keys, &jc->awr, NULL, d);
        if (!runs_jobs)
            diag_error(d, cfg_file_of(f, as), cfg_line(as), "app_aware",
                       "the app-aware controller's parameters apply to "
                       "jobs, and this file has no jobs list");
    }
    if (ms) {
        cfg_read(f, ms, "mpi", mpi_keys, &jc->mpi, NULL, d);
        check_mpi(f, ms, &jc->mpi, d);
        if (!runs_jobs)
            diag_error(d, cfg_file_of(f, ms), cfg_line(ms), "mpi",
                       "the MPI layer's parameters apply to jobs, and this "
                       "file has no jobs list");
    }
    production_load(f, &jc->prod, js != NULL, d);
    if (!js)
        return d->errors - before;
    int n = cfg_groups(f, js, "jobs", NULL, 0, d);
    if (n <= 0)
        return d->errors - before;
    config_setting_t **g = calloc((size_t)n, sizeof *g);
    jc->job = calloc((size_t)n, sizeof *jc->job);
    if (!g || !jc->job) {
        free(g);
        diag_error(d, cfg_path(f), cfg_line(js), "jobs", "out of memory");
        return d->errors - before;
    }
    jc->n = (uint32_t)n;
    cfg_groups(f, js, "jobs", g, n, d);

    const char *common[sizeof job_keys / sizeof job_keys[0]];
    size_t nc = 0;
    for (const struct cfg_key *k = job_keys; k->name; k++)
        common[nc++] = k->name;
    common[nc] = NULL;
    for (uint32_t i = 0; i < jc->n; i++) {
        if (g[i])
            load_job(f, g[i], i, &jc->job[i], common, d);
        else
            jobs_job_defaults(&jc->job[i]); /* reported by cfg_groups */
    }
    free(g);
    name_jobs(jc, d);
    if (d->errors == before)
        link_jobs(jc, d);
    bool fg = false;
    for (uint32_t i = 0; i < jc->n; i++)
        fg = fg || !jc->job[i].background;
    if (!fg && d->errors == before)
        diag_error(d, cfg_file_of(f, js), cfg_line(js), "jobs",
                   "every job is a background job; a run lasts until the "
                   "foreground jobs end, so at least one must be one");
    if (jc->prod.on)
        check_with_fill(jc, d);
    return d->errors - before;
}

void jobs_config_free(struct jobs_config *jc)
{
    for (uint32_t i = 0; jc->job && i < jc->n; i++)
        free(jc->job[i].list);
    free(jc->job);
    jc->job = NULL;
    jc->n = 0;
    production_free(&jc->prod);
}

uint32_t jobs_file_nodes(const struct jobs_config *jc)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        if (((const struct alloc_policy_entry *)j->allocation)->policy !=
            ALLOC_SAME)
            n += j->nodes;
    }
    return n;
}

int jobs_check(const struct jobs_config *jc, const struct topo *t,
               struct diag *d)
{
    return production_check(&jc->prod, t, jobs_file_nodes(jc), d);
}

void jobs_alloc_requests(const struct jobs_config *jc,
                         struct alloc_request *req)
{
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        struct alloc_request *r = &req[i];
        alloc_request_init(r);
        r->job = j->name;
        r->file = j->file;
        r->line = j->line;
        r->policy = ((const struct alloc_policy_entry *)j->allocation)->policy;
        r->nodes = j->nodes;
        r->ppn = j->ppn;
        r->list = j->list;
        r->n_list = j->n_list;
        if (j->distance)
            r->distance = (enum alloc_distance)alloc_distance_find(
                j->distance);
        r->busy = j->busy;
        r->max_block = j->max_block;
        r->same_as = j->after_job;
    }
}

/* ---- running ------------------------------------------------------------ */

/* t in microseconds with 6 decimals: exact picoseconds, locale-free. */
static void put_us(FILE *f, simtime t)
{
    fprintf(f, "%" PRIu64 ".%06" PRIu64, t / SIMTIME_US, t % SIMTIME_US);
}

/* ---- where the packets went (mpi.h: struct dmpi_paths) ------------------ */

#define PATHS_ANY UINT32_MAX /* paths_sum: whatever the variant */

/* The packets of job r's iterations first .. last-1 that ran variant v
 * of cj (PATHS_ANY: all of them); last may exceed the iterations
 * counted (UINT32_MAX: every post, those after the last mark too). */
static struct dmpi_paths paths_sum(const struct dmpi_job_result *r,
                                   const struct ctl_job *cj, uint32_t first,
                                   uint32_t last, uint32_t v)
{
    struct dmpi_paths w;
    memset(&w, 0, sizeof w);
    if (last > r->n_paths)
        last = r->n_paths;
    for (uint32_t k = first; k < last; k++)
        if (v == PATHS_ANY || ctl_variant(cj, k) == v)
            dmpi_paths_add(&w, &r->paths[k]);
    return w;
}

static uint64_t paths_pkts(const struct dmpi_paths *w)
{
    return w->pkts[PKT_REQ] + w->pkts[PKT_RSP];
}

/* The share of w's packets routed non-minimally and their mean
 * router-to-router hops, requests and responses together (NaN without
 * packets). */
static double paths_nonmin(const struct dmpi_paths *w)
{
    uint64_t n = paths_pkts(w);
    return n ? (double)(w->nonmin[PKT_REQ] + w->nonmin[PKT_RSP]) / (double)n
             : NAN;
}

static double paths_hops(const struct dmpi_paths *w)
{
    uint64_t n = paths_pkts(w);
    return n ? (double)(w->hops[PKT_REQ] + w->hops[PKT_RSP]) / (double)n
             : NAN;
}

/* The CSV fields packets,nonmin_share,hops_mean (6 decimals; the last
 * two empty without packets, as undefined figures are elsewhere). */
static void put_paths(FILE *f, const struct dmpi_paths *w)
{
    fprintf(f, "%" PRIu64 ",", paths_pkts(w));
    if (paths_pkts(w))
        fprintf(f, "%.6f,%.6f", paths_nonmin(w), paths_hops(w));
    else
        fputc(',', f);
}

/* The console's two columns: the non-minimal share in per cent and the
 * mean hops ("-" without packets). */
#define PATHS_HEAD " %8s %6s"
static void table_paths(FILE *f, const struct dmpi_paths *w)
{
    if (paths_pkts(w))
        fprintf(f, " %7.1f%% %6.2f", 100 * paths_nonmin(w), paths_hops(w));
    else
        fprintf(f, " %8s %6s", "-", "-");
}

/* A number of the model for iteration k as a CSV field ("" if none). */
static void put_model(FILE *f, const struct sc19_model *mr, uint32_t j,
                      uint32_t k, int which)
{
    double v = sc19_model_value(mr, j, k, which);
    if (!isnan(v))
        fprintf(f, "%.6f", v);
}

/* Set up the SC'19 model for the jobs that ask for it (ctl/sc19_model.h):
 * rank 0's NIC and one message of the workload's size each. -1 out of
 * memory (reported). */
static int model_init(struct sc19_model *mr, const struct jobs_config *jc,
                      const struct net *net, const struct dmpi *m,
                      struct diag *d)
{
    if (sc19_model_init(mr, net, &jc->awr, jc->n) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    for (uint32_t j = 0; j < jc->n; j++) {
        const struct job_config *jb = &jc->job[j];
        if (!jb->model)
            continue;
        const struct workload *w = (const struct workload *)jb->workload;
        uint32_t nic = dmpi_rank_nic(m, dmpi_rank_id(m, j, 0));
        int missing = 0;
        if (sc19_model_job(mr, j, nic, w->msg_bytes(jb->params),
                           &missing) != 0) {
            const char *unit, *what = ctr_describe(
                net, &(struct ctr_ref){ .reg = (uint8_t)missing }, &unit);
            (void)unit;
            diag_error(d, jb->file, jb->line, jb->name, "the model reads a "
                       "NIC counter of %s, which a %s system's NICs do not "
                       "keep", what, net->t->family->name);
            return -1;
        }
    }
    return 0;
}

/* One state buffer per job, aligned for any workload's struct. */
struct wl_state {
    _Alignas(16) unsigned char b[WORKLOAD_STATE_MAX];
};

/* The header lines of the result files, one place for both uses: with
 * the first run's rows (out->header), or ahead of any run
 * (jobs_write_headers). */
static const char jobs_head[] =
    "run,job,name,workload,nodes,ppn,ranks,allocation,background,start_us,"
    "end_us,time_us,finished,iterations,msgs,bytes,packets,nonmin_share,"
    "hops_mean,msg_us\n";
static const char iterations_head[] =
    "run,job,name,iteration,variant,counted,end_us,time_us,model_us,lat_us,"
    "stall_cycles,packets,nonmin_share,hops_mean\n";
static const char ranks_head[] = "run,job,name,rank,node,end_us\n";

static void metrics_header(FILE *f)
{
    fprintf(f, "run,job,name,workload,metric,unit,avg,p99,values\n");
}

static void variants_header(FILE *f)
{
    fprintf(f, "run,job,name,variant,iterations,median_us,q1_us,q3_us,"
               "qcd,ci_lo_us,ci_hi_us,min_us,max_us,mean_us,normalized,"
               "model_corr,bytes");
    /* every mode a controller may add, so that the runs' rows line up
     * whatever modes each run used */
    for (uint32_t k = 0; k < CTL_SHARE_MODES; k++)
        fprintf(f, ",share_%s", ctl_share_names[k]);
    fprintf(f, ",packets,nonmin_share,hops_mean\n");
}

void jobs_write_headers(const struct jobs_output *out)
{
    if (out->jobs)
        fputs(jobs_head, out->jobs);
    if (out->iterations)
        fputs(iterations_head, out->iterations);
    if (out->ranks)
        fputs(ranks_head, out->ranks);
    if (out->metrics)
        metrics_header(out->metrics);
    if (out->variants)
        variants_header(out->variants);
    if (out->load)
        offered_csv_header(out->load);
}

/* metrics.csv: the workloads' own figures (GPCNeT's), 3 decimals. */
static void write_metrics(const struct jobs_config *jc, const struct dmpi *m,
                          const struct wl_state *state, FILE *f,
                          FILE *table, uint32_t run, bool header)
{
    if (f && header)
        metrics_header(f);
    bool head = false;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct workload *w = (const struct workload *)j->workload;
        struct workload_metric x;
        if (!w->metric || w->metric(state[i].b, &m->res[i], &x) != 0)
            continue;
        if (f)
            fprintf(f, "%u,%u,%s,%s,%s,%s,%.3f,%.3f,%u\n", run, i, j->name,
                    w->base.name, x.name, x.unit, x.avg, x.p99, x.n);
        if (table && !j->fill) {
            if (!head)
                fprintf(table, "\n%-20s %-12s %-10s %12s %12s\n", "job",
                        "metric", "unit", "average", "99th pct");
            head = true;
            fprintf(table, "%-20s %-12s %-10s %12.1f %12.1f\n", j->name,
                    x.name, x.unit, x.avg, x.p99);
        }
    }
}

/* variants.csv: per job and variant, the statistics of its iteration
 * times after `warmup` (SC'19 §3), its median over the job's first
 * variant's, and where its bytes went (the report pools these files'
 * rows over runs: exp/report.h). */
static int write_variants(const struct jobs_config *jc, const struct dmpi *m,
                          const struct ctl_run *c,
                          const struct sc19_model *mr,
                          const struct jobs_output *out)
{
    FILE *f = out->variants, *table = out->table;
    if (f && out->header)
        variants_header(f);
    bool head = false;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        const struct dmpi_job_result *r = &m->res[i];
        const struct ctl_job *cj = &c->job[i];
        if (j->background)
            continue;
        uint32_t n = r->n_iter ? r->n_iter : 1;
        double *t = malloc(3 * (size_t)n * sizeof *t);
        if (!t)
            return -1;
        double *est = t + n, *scratch = t + 2 * n;
        double base = 0;
        for (uint32_t v = 0; v < cj->n; v++) {
            uint32_t cnt = 0;
            for (uint32_t k = 0; k < r->n_iter; k++) {
                if (k >= j->warmup && ctl_variant(cj, k) == v) {
                    est[cnt] = sc19_model_value(mr, i, k, SC19_EST);
                    t[cnt++] = (double)r->iter_time[k] / (double)SIMTIME_US;
                }
            }
            double corr = stats_correlation(t, est, cnt);
            struct stats_summary st;
            stats_summarize(t, cnt, scratch, &st);
            if (v == 0)
                base = st.median;
            double norm = base > 0 ? st.median / base : 0;
            uint64_t total = 0;
            for (uint32_t k = 0; k < c->n->n_modes; k++)
                total += ctl_bytes(c, i, v, k);
            /* the packets of the iterations its statistics count */
            struct dmpi_paths w = paths_sum(r, cj, j->warmup, r->n_iter, v);
            if (f) {
                fprintf(f, "%u,%u,%s,%s,%u,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
                           "%.6f,%.6f,%.6f,%.6f,",
                        out->run, i, j->name, cj->v[v]->base.name, cnt,
                        st.median, st.q1, st.q3, st.qcd, st.ci_lo, st.ci_hi,
                        st.min, st.max, st.mean, norm);
                if (!isnan(corr))
                    fprintf(f, "%.6f", corr);
                fprintf(f, ",%" PRIu64, total);
                for (uint32_t k = 0; k < CTL_SHARE_MODES; k++) {
                    uint64_t b = ctl_bytes_named(c, i, v, ctl_share_names[k]);
                    fprintf(f, ",%.6f",
                            total ? (double)b / (double)total : 0.0);
                }
                fputc(',', f);
                put_paths(f, &w);
                fputc('\n', f);
            }
            if (table && cj->n > 1) {
                if (!head)
                    fprintf(table, "\n%-20s %-10s %6s %12s %8s %10s" PATHS_HEAD
                                   "\n",
                            "job", "variant", "iters", "median (us)",
                            "QCD", "normalized", "non-min", "hops");
                head = true;
                if (cnt)
                    fprintf(table, "%-20s %-10s %6u %12.3f %8.4f %10.3f",
                            j->name, cj->v[v]->base.name, cnt, st.median,
                            st.qcd, norm);
                else /* no iteration measured: no figure that looks so */
                    fprintf(table, "%-20s %-10s %6u %12s %8s %10s", j->name,
                            cj->v[v]->base.name, cnt, "-", "-", "-");
                table_paths(table, &w);
                fputc('\n', table);
            }
        }
        free(t);
    }
    return 0;
}

static int write_results(const struct jobs_config *jc, const struct dmpi *m,
                         const struct ctl_run *c,
                         const struct sc19_model *mr, uint32_t *const *nodes,
                         const struct wl_state *state,
                         const struct jobs_output *out)
{
    if (out->jobs) {
        if (out->header)
            fputs(jobs_head, out->jobs);
        for (uint32_t i = 0; i < jc->n; i++) {
            const struct job_config *j = &jc->job[i];
            const struct dmpi_job_result *r = &m->res[i];
            fprintf(out->jobs, "%u,%u,%s,%s,%u,%u,%u,%s,%d,", out->run, i, j->name,
                    j->workload->name, j->nodes, j->ppn, jobs_ranks(j),
                    j->allocation->name, j->background ? 1 : 0);
            if (r->start != SIMTIME_MAX) /* empty: a chained job that
                                            never started */
                put_us(out->jobs, r->start);
            fputc(',', out->jobs);
            if (r->finished) {
                put_us(out->jobs, r->end);
                fputc(',', out->jobs);
                put_us(out->jobs, r->end - r->start);
            } else {
                fputc(',', out->jobs);
            }
            fprintf(out->jobs, ",%d,%u,%" PRIu64 ",%" PRIu64 ",",
                    r->finished ? 1 : 0, r->n_iter, r->msgs, r->bytes);
            /* every packet of the run, warm-up and all */
            struct dmpi_paths w =
                paths_sum(r, &c->job[i], 0, UINT32_MAX, PATHS_ANY);
            put_paths(out->jobs, &w);
            /* Netscope's M: the mean network message time (mpi.h) */
            fputc(',', out->jobs);
            if (r->msg_timed)
                put_us(out->jobs, (r->msg_time + r->msg_timed / 2) /
                                      r->msg_timed);
            fputc('\n', out->jobs);
        }
    }
    if (out->iterations) {
        if (out->header)
            fputs(iterations_head, out->iterations);
        for (uint32_t i = 0; i < jc->n; i++) {
            const struct dmpi_job_result *r = &m->res[i];
            const struct ctl_job *cj = &c->job[i];
            for (uint32_t k = 0; k < r->n_iter; k++) {
                fprintf(out->iterations, "%u,%u,%s,%u,%s,%d,", out->run, i,
                        jc->job[i].name, k,
                        cj->v[ctl_variant(cj, k)]->base.name,
                        !jc->job[i].background && k >= jc->job[i].warmup);
                put_us(out->iterations, r->iter_end[k]);
                fputc(',', out->iterations);
                put_us(out->iterations, r->iter_time[k]);
                for (int w = 0; w < 3; w++) {
                    fputc(',', out->iterations);
                    put_model(out->iterations, mr, i, k, w);
                }
                fputc(',', out->iterations);
                struct dmpi_paths w = paths_sum(r, cj, k, k + 1, PATHS_ANY);
                put_paths(out->iterations, &w);
                fputc('\n', out->iterations);
            }
        }
    }
    if (out->ranks) {
        if (out->header)
            fputs(ranks_head, out->ranks);
        for (uint32_t i = 0; i < jc->n; i++) {
            const struct job_config *j = &jc->job[i];
            const struct dmpi_job_result *r = &m->res[i];
            for (uint32_t k = 0; k < r->n_ranks; k++) {
                fprintf(out->ranks, "%u,%u,%s,%u,%u,", out->run, i, j->name, k,
                        alloc_rank_node(nodes[i], j->ppn, k));
                if (r->rank_end[k] != SIMTIME_MAX)
                    put_us(out->ranks, r->rank_end[k]);
                fputc('\n', out->ranks);
            }
        }
    }
    if (out->table) {
        fprintf(out->table, "%-20s %-18s %7s %12s %14s %10s" PATHS_HEAD
                            "\n",
                "job", "workload", "ranks", "start (us)", "run time (us)",
                "iterations", "non-min", "hops");
        uint32_t fill_jobs = 0, fill_nodes = 0;
        for (uint32_t i = 0; i < jc->n; i++) {
            const struct job_config *j = &jc->job[i];
            const struct dmpi_job_result *r = &m->res[i];
            if (j->fill) { /* one line for all (jobs.csv lists each) */
                fill_jobs++;
                fill_nodes += j->nodes;
                continue;
            }
            char time[32], start[32] = "(never)";
            if (r->start != SIMTIME_MAX)
                snprintf(start, sizeof start, "%.3f",
                         (double)r->start / (double)SIMTIME_US);
            if (r->finished)
                snprintf(time, sizeof time, "%.3f",
                         (double)(r->end - r->start) / (double)SIMTIME_US);
            else
                snprintf(time, sizeof time, "%s",
                         j->background ? "(stopped)" : "(unfinished)");
            fprintf(out->table, "%-20s %-18s %7u %12s %14s %10u",
                    j->name, j->workload->name, jobs_ranks(j), start, time,
                    r->n_iter);
            struct dmpi_paths w =
                paths_sum(r, &c->job[i], 0, UINT32_MAX, PATHS_ANY);
            table_paths(out->table, &w);
            fputc('\n', out->table);
        }
        if (fill_jobs)
            fprintf(out->table,
                    "+ %u background jobs of the production fill on %u "
                    "nodes (bg-*: jobs.csv)\n",
                    fill_jobs, fill_nodes);
    }
    write_metrics(jc, m, state, out->metrics, out->table, out->run,
                  out->header);
    return write_variants(jc, m, c, mr, out);
}

static uint32_t jobs_finished(const struct dmpi *m)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->n_jobs; i++)
        k += m->res[i].finished;
    return k;
}

/* Where the foreground jobs are: the share of their planned iterations
 * (planned[j], 0: not known) marked so far, -1 if none is known. */
static double fg_share(const struct dmpi *m, const uint32_t *planned)
{
    uint64_t done = 0, all = 0;
    for (uint32_t j = 0; j < m->n_jobs; j++) {
        if (m->job[j].background || !planned[j])
            continue;
        uint32_t k = m->res[j].finished ? planned[j] : dmpi_job_marks(m, j);
        done += k < planned[j] ? k : planned[j];
        all += planned[j];
    }
    return all ? (double)done / (double)all : -1;
}

/* Run until the foreground jobs end, the queue empties or `limit`, in
 * steps of simulated time so that progress can be shown (with planned[j]
 * the iterations job j will mark, 0 if not known: how far the
 * foreground jobs are). */
static void run_until(struct sim *s, struct dmpi *m, simtime limit,
                      FILE *progress, const struct jobs_observer *obs,
                      const struct net *net, const uint32_t *planned)
{
    const simtime step = 10 * SIMTIME_US;
    double t0 = time_wall_seconds(), shown = t0;
    simtime next = obs && obs->period ? s->now + obs->period : SIMTIME_MAX;
    while (!dmpi_done(m) && !m->error && !sim_failed(s) && !sim_interrupt &&
           evq_size(&s->q) > 0) {
        const struct event *e = evq_peek(&s->q);
        if (e->time > limit)
            break;
        if (e->time >= next) { /* the observer's instant: nothing before */
            if (next > s->now && !sim_run_before(s, next))
                break;
            obs->at(obs->ctx, net, false);
            next = next + obs->period < next ? SIMTIME_MAX
                                             : next + obs->period;
            continue;
        }
        simtime until = e->time + step;
        if (until > limit || until < e->time)
            until = limit;
        if (until >= next)
            until = next - 1;
        sim_run(s, until);
        double now = time_wall_seconds();
        if (progress && now - shown >= 2.0) {
            /* the first foreground job running: with jobs one after
             * another, where the experiment is */
            uint32_t r = 0;
            while (r < m->n_jobs &&
                   (m->job[r].background || m->res[r].finished ||
                    m->res[r].start == SIMTIME_MAX ||
                    m->res[r].start > s->now))
                r++;
            char at[96] = "", share[64] = "";
            if (r < m->n_jobs && planned[r]) {
                uint32_t it = dmpi_job_marks(m, r) + 1; /* under way */
                snprintf(at, sizeof at, " (iteration %u of %u)",
                         it < planned[r] ? it : planned[r], planned[r]);
            }
            double f = fg_share(m, planned);
            if (f >= 0)
                snprintf(share, sizeof share,
                         ", %.0f %% of the measured jobs' iterations", 100 * f);
            fprintf(progress,
                    "  %.1f us simulated, %u of %u jobs ended%s, %.0f s%s%s%s\n",
                    (double)s->now / (double)SIMTIME_US, jobs_finished(m),
                    m->n_jobs, share, now - t0,
                    r < m->n_jobs ? ", running " : "",
                    r < m->n_jobs ? m->job[r].name : "", at);
            shown = now;
        }
    }
    /* when the foreground ends the layer stops the run (sim_stop); the
     * background jobs' traffic still in flight is left undelivered */
}

/* The start of the measured window: the earliest start of a foreground
 * job that does not wait for another. */
static simtime window_start(const struct jobs_config *jc)
{
    simtime t0 = SIMTIME_MAX;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        if (!j->background && !j->after && j->start < t0)
            t0 = j->start;
    }
    return t0 == SIMTIME_MAX ? 0 : t0;
}

void jobs_capture_free(struct jobs_capture *c)
{
    for (uint32_t i = 0; c->job && i < c->n; i++) {
        free(c->job[i].nodes);
        free(c->job[i].iter);
    }
    free(c->job);
    c->job = NULL;
    c->n = 0;
}

/* Copy what out->capture asks for from the collected results. -1: out of
 * memory (nothing captured). */
static int capture(struct jobs_capture *c, const struct jobs_config *jc,
                   const struct dmpi *m, uint32_t *const *nodes)
{
    c->job = calloc(jc->n ? jc->n : 1, sizeof *c->job);
    if (!c->job)
        return -1;
    c->n = jc->n;
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct dmpi_job_result *r = &m->res[i];
        struct jobs_capture_job *cj = &c->job[i];
        uint32_t nn = jc->job[i].nodes;
        cj->nodes = malloc((nn ? nn : 1) * sizeof *cj->nodes);
        cj->iter = malloc((r->n_iter ? r->n_iter : 1) * sizeof *cj->iter);
        if (!cj->nodes || !cj->iter) {
            jobs_capture_free(c);
            return -1;
        }
        memcpy(cj->nodes, nodes[i], nn * sizeof *cj->nodes);
        cj->n_nodes = nn;
        cj->finished = r->finished;
        cj->n_iter = r->n_iter;
        cj->msg_time = r->msg_time;
        cj->msg_timed = r->msg_timed;
        for (uint32_t k = 0; k < r->n_iter; k++)
            cj->iter[k] = r->iter_time[k];
    }
    return 0;
}

/* The controllers of job j, the i-th of its run. */
static void ctl_job_of(struct ctl_job *c, const struct job_config *j,
                       uint32_t i, uint64_t seed)
{
    c->name = j->name;
    c->file = j->file;
    c->line = j->line;
    if (j->variants.n) {
        c->n = j->variants.n;
        c->shuffled = j->variant_order &&
                      strcmp(j->variant_order, "shuffled") == 0;
        c->order_key = rng_stream(seed, RNG_JOB, i).key;
        for (uint32_t v = 0; v < j->variants.n; v++)
            c->v[v] = (const struct nic_ctl *)j->variants.v[v];
    } else if (j->routing) {
        c->n = 1;
        c->v[0] = (const struct nic_ctl *)j->routing;
    }
}

/* A run of jobs set up and not yet run: everything run_all builds before
 * the first event, so that a check (jobs_check_run) and a run go through
 * the same code and a check finds every error a run would find before
 * its first event. */
struct setup {
    uint32_t n;                 /* jobs */
    struct alloc_request *req;  /* [n] */
    uint32_t **nodes;           /* [n]: placed */
    struct wl_state *state;     /* [n] */
    struct dmpi_job_spec *spec; /* [n] */
    struct ctl_job *cj;         /* [n] */
    uint32_t inited;            /* workloads initialised */
    struct sim s;
    struct net net;
    struct dmpi m;
    struct ctl_run ctl;
    struct sc19_model mr;
    struct offered off;
    struct job_counters ctr;    /* counters read during the run */
    bool sim_ok, net_ok, mpi_ok, ctl_ok;
};

static void teardown(struct setup *u, const struct jobs_config *jc)
{
    offered_free(&u->off);
    job_counters_free(&u->ctr);
    if (u->mpi_ok)
        dmpi_free(&u->m);
    if (u->ctl_ok)
        ctl_run_free(&u->ctl);
    sc19_model_free(&u->mr);
    if (u->net_ok)
        net_free(&u->net);
    if (u->sim_ok)
        sim_free(&u->s);
    for (uint32_t i = 0; i < u->inited; i++)
        ((const struct workload *)jc->job[i].workload)->free(u->state[i].b);
    if (u->nodes)
        alloc_free(u->nodes, u->n);
    free(u->nodes);
    free(u->req);
    free(u->state);
    free(u->spec);
    free(u->cj);
}

/* The jobs are placed: each is told to the network's rate controllers
 * with its NICs and its parameters (Netscope takes a job's
 * delay_sensitivity for its NICs; every other NIC keeps
 * network.netscope_sensitivity). Returns 0, or -1 out of memory. */
static int jobs_tell_controllers(struct net *net, const struct topo *t,
                                 const struct jobs_config *jc,
                                 uint32_t *const *nodes, uint32_t n)
{
    if (!net->cc_on)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct job_config *j = &jc->job[i];
        uint32_t *nics = malloc(((size_t)j->nodes * TOPO_MAX_NICS + 1) *
                                sizeof *nics);
        if (!nics)
            return -1;
        uint32_t k = 0;
        for (uint32_t q = 0; q < j->nodes; q++) {
            const struct topo_node *nd = &t->nodes[nodes[i][q]];
            for (uint32_t c = 0; c < nd->n_nics; c++)
                nics[k++] = nd->nic[c];
        }
        struct nic_job job = { .job = i, .nics = nics, .n_nics = k,
                               .has_sensitivity = j->ds_line != 0,
                               .sensitivity = j->delay_sensitivity };
        net_ctl_job(net, &job);
        free(nics);
    }
    return 0;
}

/* Place the jobs of jc (the file's, and the fill's if any) with the
 * seed's streams, initialise their workloads, build the network, the
 * controllers, the MPI layer, the model and the offered-load meters.
 * Returns 0, or -1 after reporting to d (then teardown all the same). */
static int setup(struct setup *u, const struct jobs_config *jc,
                 const struct topo *t, const struct net_params *np,
                 uint64_t seed, uint32_t extra_entities, struct diag *d)
{
    uint32_t n = jc->n;
    memset(u, 0, sizeof *u);
    u->n = n;
    u->req = calloc(n ? n : 1, sizeof *u->req);
    u->nodes = calloc(n ? n : 1, sizeof *u->nodes);
    u->state = calloc(n ? n : 1, sizeof *u->state);
    u->spec = calloc(n ? n : 1, sizeof *u->spec);
    u->cj = calloc(n ? n : 1, sizeof *u->cj);
    if (!u->req || !u->nodes || !u->state || !u->spec || !u->cj) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    jobs_alloc_requests(jc, u->req);
    for (uint32_t i = 0; i < n; i++)
        ctl_job_of(&u->cj[i], &jc->job[i], i, seed);
    if (alloc_place(t, u->req, n, seed, u->nodes, d) != 0)
        return -1;
    for (; u->inited < n; u->inited++) {
        uint32_t i = u->inited;
        const struct job_config *j = &jc->job[i];
        const struct workload *w = (const struct workload *)j->workload;
        struct workload_env env = { .nranks = jobs_ranks(j), .ppn = j->ppn,
                                    .seed = seed, .job = i };
        char err[256];
        if (w->init(u->state[i].b, j->params, &env, err, sizeof err)) {
            diag_error(d, j->file, j->line, j->name, "%s: %s", w->base.name,
                       err);
            return -1;
        }
        u->spec[i] = (struct dmpi_job_spec){
            .name = j->name, .nodes = u->nodes[i], .n_nodes = j->nodes,
            .ppn = j->ppn, .app = w->app(u->state[i].b),
            .start = j->start, .background = j->background,
            .chained = j->after != NULL, .after = j->after_job,
            .tc = j->tc,
        };
    }
    if (sim_init(&u->s, EVQ_DEFAULT, net_entities(t) + extra_entities) !=
        0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    u->sim_ok = true;
    struct net_params p = *np;
    p.counters = p.counters || ctl_needs_counters(u->cj, n);
    for (uint32_t i = 0; i < n; i++)
        p.counters = p.counters || jc->job[i].model;
    if (net_init(&u->net, t, &p, &u->s, seed, d) != 0)
        return -1;
    u->net_ok = true;
    if (jobs_tell_controllers(&u->net, t, jc, u->nodes, n) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    struct ctl_params cp = { .n = 1, .ctl = { &ctl_app_aware },
                             .params = { &jc->awr } };
    if (ctl_run_init(&u->ctl, &u->net, u->cj, n, &cp, d) != 0)
        return -1;
    u->ctl_ok = true;
    if (dmpi_init(&u->m, &u->s, &u->net, &jc->mpi, u->spec, n, NET_EV_COUNT,
                  d) != 0)
        return -1;
    u->mpi_ok = true;
    ctl_attach(&u->ctl, &u->m);
    if (model_init(&u->mr, jc, &u->net, &u->m, d) != 0)
        return -1;
    u->m.on_mark = sc19_model_mark;
    u->m.mark_ctx = &u->mr;
    if (offered_init(&u->off, &u->net) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct job_config *j = &jc->job[i];
        offered_add_job(&u->off,
                        j->fill         ? OFFERED_FILL
                        : j->background ? OFFERED_BACKGROUND
                                        : OFFERED_MEASURED,
                        u->nodes[i], j->nodes);
    }
    return 0;
}

/* The counters of the run (exp/job_counters.h), on jobs placed by setup:
 * the sampler's events are the type after dmpi's, created by the entity
 * past the network's. */
static int start_counters(struct setup *u, const struct jobs_config *jc,
                          const struct topo *t,
                          const struct job_counters_params *cp,
                          struct diag *d)
{
    struct job_counters_spec *spec =
        calloc(u->n ? u->n : 1, sizeof *spec);
    if (!spec) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < u->n; i++)
        spec[i] = (struct job_counters_spec){
            .name = jc->job[i].name, .nodes = u->nodes[i],
            .n_nodes = jc->job[i].nodes, .report = !jc->job[i].fill };
    int rc = job_counters_init(&u->ctr, &u->net, &u->s, NET_EV_COUNT + 1,
                               net_entities(t), spec, u->n, cp, d);
    free(spec);
    u->m.on_job = job_counters_on_job;
    u->m.job_ctx = &u->ctr;
    return rc;
}

/* Place the jobs of jc (the file's, and the fill's if any), run them and
 * write what they did. */
static int run_all(const struct jobs_config *jc, const struct topo *t,
                   const struct net_params *np, uint64_t seed, simtime limit,
                   const struct jobs_output *out, simtime *end,
                   struct diag *d)
{
    struct setup *u = malloc(sizeof *u);
    if (!u) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    int rc = -1;
    struct net_params p = *np;
    bool ctr = job_counters_on(out->counters);
    p.counters = p.counters || out->observer || ctr; /* they read them */
    /* the sampler creates its events as an entity of its own, past the
     * network's, so that every other event keeps its place */
    if (setup(u, jc, t, &p, seed, ctr ? 1 : 0, d) != 0)
        goto done;
    struct sim *s = &u->s;
    struct dmpi *m = &u->m;
    if (ctr && start_counters(u, jc, t, out->counters, d) != 0)
        goto done;
    const struct jobs_observer *obs = out->observer;
    /* the window opens when the first measured job starts: what the
     * background sent before does not count */
    simtime t0 = window_start(jc);
    if (t0 > 0 && t0 <= limit)
        sim_run_before(s, t0);
    offered_start(&u->off, t0);
    if (obs)
        obs->at(obs->ctx, &u->net, false);
    uint32_t *planned = calloc(m->n_jobs ? m->n_jobs : 1, sizeof *planned);
    if (!planned) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    for (uint32_t j = 0; j < jc->n && j < m->n_jobs; j++) {
        const struct workload *w = (const void *)jc->job[j].workload;
        planned[j] = w->iterations ? w->iterations(jc->job[j].params) : 0;
    }
    run_until(s, m, limit, out->progress, obs, &u->net, planned);
    free(planned);
    if (sim_interrupt && !dmpi_done(m)) {
        rc = SIM_INTERRUPTED; /* nothing of the run is written */
        goto done;
    }
    if (obs)
        obs->at(obs->ctx, &u->net, true);
    offered_end(&u->off, s->now);
    if (m->error) {
        diag_error(d, NULL, 0, "jobs", "%s", m->why);
        goto done;
    }
    if (sim_failed(s) || u->mr.oom || dmpi_collect(m) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    if (write_results(jc, m, &u->ctl, &u->mr, u->nodes, u->state, out) !=
        0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    if (ctr && job_counters_finish(&u->ctr, d) != 0)
        goto done;
    offered_write(&u->off, out->load, out->header, out->run, out->table);
    if (out->capture && capture(out->capture, jc, m, u->nodes) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    *end = s->now;
    rc = dmpi_done(m) ? 0 : 1;
    if (rc == 1 && evq_size(&s->q) == 0) {
        rc = -1;
        diag_error(d, NULL, 0, "jobs",
                   "the run stopped at %.3f us with a foreground job "
                   "waiting for a message that never comes (deadlock)",
                   (double)s->now / (double)SIMTIME_US);
    }
done:
    teardown(u, jc);
    free(u);
    return rc;
}

/* ---- the production fill ------------------------------------------------ */

/* The jobs of a run with a production section: the file's jobs are placed
 * as run_all will place them (same requests, same seed: the same nodes),
 * the fill is drawn around them, and ext gets the file's jobs then one
 * background job per fill job on the nodes it drew (allocation
 * "production": a list). Free ext with free_fill. */
static int with_fill(const struct jobs_config *jc, const struct topo *t,
                     uint64_t seed, struct jobs_config *ext, struct diag *d)
{
    uint32_t n = jc->n;
    struct alloc_request *req = calloc(n ? n : 1, sizeof *req);
    uint32_t **nodes = calloc(n ? n : 1, sizeof *nodes);
    uint8_t *taken = calloc(t->n_nodes ? t->n_nodes : 1, 1);
    struct production_fill fill = { 0 };
    int rc = -1;
    memset(ext, 0, sizeof *ext);
    if (!req || !nodes || !taken) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    jobs_alloc_requests(jc, req);
    if (alloc_place(t, req, n, seed, nodes, d) != 0)
        goto done;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < jc->job[i].nodes; k++)
            taken[nodes[i][k]] = 1;
    if (production_draw(&jc->prod, t, taken, seed, &fill, d) != 0)
        goto done;
    ext->job = calloc((size_t)n + fill.n, sizeof *ext->job);
    if (!ext->job) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    memcpy(ext->job, jc->job, n * sizeof *jc->job);
    for (uint32_t i = 0; i < n; i++)
        if (jc->job[i].name == jc->job[i].name_buf)
            ext->job[i].name = ext->job[i].name_buf;
    ext->n = n + fill.n;
    ext->mpi = jc->mpi;
    ext->awr = jc->awr;
    for (uint32_t k = 0; k < fill.n; k++) {
        struct production_job *f = &fill.job[k];
        const struct production_entry *e = &jc->prod.mix[f->entry];
        struct job_config *j = &ext->job[n + k];
        jobs_job_defaults(j);
        snprintf(j->name_buf, sizeof j->name_buf, "bg-%03u-%s", k,
                 e->name ? e->name : e->workload->name);
        j->name = j->name_buf;
        j->workload = e->workload;
        j->nodes = f->n_nodes;
        j->ppn = e->ppn;
        j->allocation = &production_allocation.base;
        j->list = f->nodes; /* now the job's */
        j->n_list = f->n_nodes;
        f->nodes = NULL;
        j->start = f->start;
        j->background = true;
        j->fill = true;
        j->routing = e->routing;
        j->file = e->file;
        j->line = e->line;
        memcpy(j->params, e->params, sizeof j->params);
    }
    rc = 0;
done:
    if (nodes)
        alloc_free(nodes, n);
    free(nodes);
    free(req);
    free(taken);
    production_fill_free(&fill);
    return rc;
}

/* Free what with_fill made (the file's jobs' node lists are jc's). */
static void free_fill(struct jobs_config *ext, uint32_t n_file)
{
    for (uint32_t i = n_file; ext->job && i < ext->n; i++)
        free(ext->job[i].list);
    free(ext->job);
    ext->job = NULL;
    ext->n = 0;
}

/* Set up jc's jobs (ext: with the fill) and tear them down unrun. */
static int check_setup(const struct jobs_config *jc, const struct topo *t,
                       const struct net_params *np, uint64_t seed,
                       struct diag *d)
{
    struct setup *u = malloc(sizeof *u);
    if (!u) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    int rc = setup(u, jc, t, np, seed, 0, d);
    teardown(u, jc);
    free(u);
    return rc;
}

int jobs_check_run(const struct jobs_config *jc, const struct topo *t,
                   const struct net_params *np, uint64_t seed,
                   struct diag *d)
{
    if (jc->n == 0)
        return 0;
    if (!jc->prod.on)
        return check_setup(jc, t, np, seed, d);
    struct jobs_config ext;
    if (with_fill(jc, t, seed, &ext, d) != 0) {
        free_fill(&ext, jc->n);
        return -1;
    }
    int rc = check_setup(&ext, t, np, seed, d);
    free_fill(&ext, jc->n);
    return rc;
}

int jobs_check_controllers(const struct job_config *jobs, uint32_t n,
                           const struct awr_params *ap, const struct topo *t,
                           const struct net_params *np, struct diag *d)
{
    struct ctl_job *cj = calloc(n ? n : 1, sizeof *cj);
    struct sim *s = malloc(sizeof *s);
    struct net *net = malloc(sizeof *net);
    int rc = -1;
    if (!cj || !s || !net) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        ctl_job_of(&cj[i], &jobs[i], i, 0);
    if (sim_init(s, EVQ_DEFAULT, net_entities(t)) != 0) {
        sim_free(s);
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    struct net_params p = *np;
    p.counters = p.counters || ctl_needs_counters(cj, n);
    if (net_init(net, t, &p, s, 0, d) == 0) {
        struct ctl_run c;
        struct ctl_params cp = { .n = 1, .ctl = { &ctl_app_aware },
                                 .params = { ap } };
        if (ctl_run_init(&c, net, cj, n, &cp, d) == 0) {
            ctl_run_free(&c);
            rc = 0;
        }
        net_free(net);
    }
    sim_free(s);
done:
    free(cj);
    free(s);
    free(net);
    return rc;
}

int jobs_run(const struct jobs_config *jc, const struct topo *t,
             const struct net_params *np, uint64_t seed, simtime limit,
             const struct jobs_output *out, simtime *end, struct diag *d)
{
    if (!jc->prod.on)
        return run_all(jc, t, np, seed, limit, out, end, d);
    struct jobs_config ext;
    if (with_fill(jc, t, seed, &ext, d) != 0) {
        free_fill(&ext, jc->n);
        return -1;
    }
    int rc = run_all(&ext, t, np, seed, limit, out, end, d);
    free_fill(&ext, jc->n);
    return rc;
}

/* ---- documentation ------------------------------------------------------ */

void jobs_print_keys(FILE *out)
{
    fprintf(out, "jobs = ( { ... }, ... )  one group per job:\n");
    cfg_print_schema(out, "jobs", job_keys, 2);
    fprintf(out, "mpi = { ... }\n");
    cfg_print_schema(out, "mpi", mpi_keys, 2);
    fprintf(out, "app_aware = { ... }\n");
    cfg_print_schema(out, "app_aware", awr_keys, 2);
    production_print_keys(out);
}

void jobs_print_workload_keys(FILE *out, const struct workload *w)
{
    cfg_print_schema(out, "", w->keys, 2);
}
