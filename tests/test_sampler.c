/* tests/test_sampler.c — counter sampling into LDMS-style CSV
 * (exp/sampler).
 *
 * The files are read back as a user's script would: the header is exactly
 * store_csv's layout with the samplers' metric names; there is one row per
 * producer and sample, samples every interval strictly before the end of
 * the run; values are cumulative and never decrease; a sample taken after
 * the network has drained shows each sender's packets exactly; the
 * sampler stops on its own (the end time, or nothing else left to do).
 * Sampling changes no result of a traffic run. Bad names and intervals
 * are errors naming them, with file and line in experiment files; a file
 * that cannot be written is reported, at init or after the run; and
 * `dfsim run` writes the files next to traffic.csv. */
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sim.h"
#include "exp/experiment.h"
#include "exp/sampler.h"
#include "exp/traffic.h"
#include "net/counters.h"
#include "net/links.h"
#include "net/net.h"
#include "ctl/cc.h"
#include "route/route.h"
#include "topo/topo.h"

/* ---- helpers --------------------------------------------------------- */

/* A CSV file of a sampler, parsed: the header's columns and the rows'
 * fields (numbers where they are numbers). */
struct table {
    char *text;
    char **col;              /* header columns */
    uint32_t n_col;
    uint32_t n_rows;
    char **time, **producer; /* [row] */
    uint64_t *usec, *comp, *job, *app;
    uint64_t *val;           /* [row * (n_col - 6) + metric] */
};

static void table_free(struct table *t)
{
    free(t->text);
    free(t->col);
    free(t->time);
    free(t->producer);
    free(t->usec);
    free(t->comp);
    free(t->job);
    free(t->app);
    free(t->val);
    memset(t, 0, sizeof *t);
}

/* Split text (modified in place) into lines and fields. Returns 0, or -1
 * if a row has another number of fields than the header. */
static int table_read(struct table *t, const char *path)
{
    memset(t, 0, sizeof *t);
    t->text = read_text(path);
    CHECK(t->text != NULL);
    if (!t->text)
        return -1;
    uint32_t lines = 0;
    for (const char *p = t->text; *p; p++)
        lines += *p == '\n';
    CHECK(lines >= 1);
    if (lines < 1)
        return -1;
    char *line = t->text;
    char *nl = strchr(line, '\n');
    *nl = '\0';
    /* header */
    uint32_t cols = 1;
    for (char *p = line; *p; p++)
        cols += *p == ',';
    t->col = calloc(cols, sizeof *t->col);
    t->n_col = cols;
    char *f = line;
    for (uint32_t c = 0; c < cols; c++) {
        char *comma = strchr(f, ',');
        if (comma)
            *comma = '\0';
        t->col[c] = f;
        f = comma ? comma + 1 : f + strlen(f);
    }
    uint32_t m = cols > 6 ? cols - 6 : 0;
    t->n_rows = lines - 1;
    size_t r = t->n_rows ? t->n_rows : 1;
    t->time = calloc(r, sizeof *t->time);
    t->producer = calloc(r, sizeof *t->producer);
    t->usec = calloc(r, sizeof *t->usec);
    t->comp = calloc(r, sizeof *t->comp);
    t->job = calloc(r, sizeof *t->job);
    t->app = calloc(r, sizeof *t->app);
    t->val = calloc(r * (m ? m : 1), sizeof *t->val);
    line = nl + 1;
    for (uint32_t i = 0; i < t->n_rows; i++) {
        nl = strchr(line, '\n');
        *nl = '\0';
        uint32_t c = 0;
        for (f = line; f; c++) {
            char *comma = strchr(f, ',');
            if (comma)
                *comma = '\0';
            if (c == 0)
                t->time[i] = f;
            else if (c == 1)
                t->usec[i] = strtoull(f, NULL, 10);
            else if (c == 2)
                t->producer[i] = f;
            else if (c == 3)
                t->comp[i] = strtoull(f, NULL, 10);
            else if (c == 4)
                t->job[i] = strtoull(f, NULL, 10);
            else if (c == 5)
                t->app[i] = strtoull(f, NULL, 10);
            else if (c < cols)
                t->val[(size_t)i * m + c - 6] = strtoull(f, NULL, 10);
            f = comma ? comma + 1 : NULL;
        }
        if (c != cols) {
            fprintf(stderr, "  %s: row %u has %u fields, header %u\n", path,
                    i + 1, c, cols);
            return -1;
        }
        line = nl + 1;
    }
    return 0;
}

static uint32_t table_metric(const struct table *t, const char *name)
{
    for (uint32_t c = 6; c < t->n_col; c++)
        if (strcmp(t->col[c], name) == 0)
            return c - 6;
    return UINT32_MAX;
}

/* Every metric of every producer never decreases from one of its rows to
 * the next; rows come sample by sample, producers in order. Returns the
 * number of decreases. */
static uint64_t table_decreases(const struct table *t, uint32_t n_prod)
{
    uint32_t m = t->n_col - 6;
    uint64_t bad = 0;
    for (uint32_t i = n_prod; i < t->n_rows; i++)
        for (uint32_t k = 0; k < m; k++)
            bad += t->val[(size_t)i * m + k] <
                   t->val[(size_t)(i - n_prod) * m + k];
    return bad;
}

/* name in this test's scratch folder, which the runner removes after the
 * test (test_temps_remove) */
static const char *temp_path(const char *name)
{
    static char buf[4][256];
    static int next;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/dfsim-test-%d-sampler", (int)getpid());
    CHECK(mkdir(dir, 0700) == 0 || errno == EEXIST);
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static int build(struct topo *t, const char *builder, uint32_t a, uint32_t b,
                 uint32_t c, uint32_t e)
{
    const struct topo_builder *bl = (const struct topo_builder *)
        registry_find(&topo_builder_registry, builder);
    CHECK(bl != NULL);
    if (!bl)
        return -1;
    union topo_params prm;
    bl->defaults(&prm);
    if (strcmp(builder, "dragonfly") == 0) {
        prm.dragonfly.p = a;
        prm.dragonfly.a = b;
        prm.dragonfly.h = c;
        prm.dragonfly.g = e;
    } else {
        prm.torus.x = a;
        prm.torus.y = b;
        prm.torus.z = c;
    }
    struct diag d;
    diag_init(&d);
    int rc = topo_build(t, bl, &prm, builder, "test", &d, NULL);
    CHECK(rc == 0);
    return rc;
}

static struct traffic_params quick(double load)
{
    struct traffic_params p;
    traffic_defaults(&p);
    p.load = load;
    p.warmup_us = 1;
    p.measure_us = 3;
    p.drain_us = 10;
    return p;
}

static int run(const struct topo *t, const struct traffic_params *tp,
               enum evq_impl impl, struct traffic_result *r)
{
    struct net_params np;
    cc_net_defaults(&np, t);
    struct diag d;
    diag_init(&d);
    int rc = traffic_run(t, &np, tp, 1, impl, r, &d);
    CHECK(rc == 0);
    return rc;
}

/* ---- the files ------------------------------------------------------- */

/* A run that stops at its horizon (no drain): 4 us sampled every 0.3 us
 * is floor(4 / 0.3) = 13 samples, at 0.3 .. 3.9 us; one row per node and
 * per router each, in LDMS's layout. */
static void test_layout_and_rows(void)
{
    struct topo t;
    if (build(&t, "dragonfly", 2, 4, 2, 0) != 0) /* 36 routers, 72 nodes */
        return;
    struct traffic_params tp = quick(0.4);
    tp.drain_us = 0;
    tp.sampling.interval = 300 * SIMTIME_NS;
    tp.sampling.nic = tp.sampling.rtr = true;
    tp.sampling.nic_path = temp_path("nic.csv");
    tp.sampling.rtr_path = temp_path("rtr.csv");
    struct traffic_result r;
    if (run(&t, &tp, EVQ_HEAP4, &r) != 0) {
        topo_free(&t);
        return;
    }
    CHECK(!r.drained);
    CHECK_EQ_U(r.end, 4 * SIMTIME_US);
    CHECK_EQ_U(r.samples, 13);

    struct table nic, rtr;
    if (table_read(&nic, tp.sampling.nic_path) == 0) {
        static const char *const want[] = {
            "#Time", "Time_usec", "ProducerName", "component_id", "job_id",
            "app_id", "NIC_REQ_PKTS", "NIC_REQ_FLITS", "NIC_REQ_STALLED",
            "NIC_PI_PKTS", "NIC_PI_FLITS",
        };
        CHECK_EQ_U(nic.n_col, sizeof want / sizeof want[0]);
        for (size_t c = 0; c < nic.n_col && c < sizeof want / sizeof *want;
             c++)
            CHECK(strcmp(nic.col[c], want[c]) == 0);
        CHECK_EQ_U(nic.n_rows, 13 * t.n_nodes);
        for (uint32_t i = 0; i < nic.n_rows; i++) {
            uint32_t k = i / t.n_nodes + 1, node = i % t.n_nodes;
            /* sample k at k x 0.3 us, in whole microseconds */
            uint64_t us = k * 300 / 1000;
            char tm[32], name[32];
            snprintf(tm, sizeof tm, "0.%06llu", (unsigned long long)us);
            CHECK(strcmp(nic.time[i], tm) == 0);
            CHECK_EQ_U(nic.usec[i], us);
            CHECK_EQ_U(nic.comp[i], node);
            snprintf(name, sizeof name, "nid%06u", node);
            CHECK(strcmp(nic.producer[i], name) == 0);
            CHECK_EQ_U(nic.job[i] + nic.app[i], 0);
        }
        CHECK_EQ_U(table_decreases(&nic, t.n_nodes), 0);
        /* the NIC counts its requests in NIC flits: header + 4 */
        uint32_t pk = table_metric(&nic, "NIC_REQ_PKTS");
        uint32_t fl = table_metric(&nic, "NIC_REQ_FLITS");
        uint64_t pkts = 0;
        for (uint32_t i = 12 * t.n_nodes; i < nic.n_rows; i++) {
            CHECK_EQ_U(nic.val[(size_t)i * 5 + fl],
                       5 * nic.val[(size_t)i * 5 + pk]);
            pkts += nic.val[(size_t)i * 5 + pk];
        }
        CHECK(pkts > 100);
    }
    table_free(&nic);

    if (table_read(&rtr, tp.sampling.rtr_path) == 0) {
        CHECK(rtr.n_col > 6 + 23);
        CHECK(strcmp(rtr.col[0], "#Time") == 0 &&
              strcmp(rtr.col[5], "app_id") == 0);
        CHECK(strcmp(rtr.col[6], "PORT_0_RX_FLITS_VC0") == 0);
        CHECK_EQ_U(rtr.n_rows, 13 * t.n_routers);
        char name[32];
        topo_router_name(&t, 5, name, sizeof name);
        CHECK(strcmp(rtr.producer[5], name) == 0);
        CHECK_EQ_U(rtr.comp[t.n_routers + 5], 5);
        CHECK_EQ_U(table_decreases(&rtr, t.n_routers), 0);
        /* traffic went through: flits received somewhere by the end */
        uint64_t sum = 0;
        uint32_t m = rtr.n_col - 6;
        for (uint32_t i = 12 * t.n_routers; i < rtr.n_rows; i++)
            for (uint32_t k = 0; k < m; k++)
                sum += strstr(rtr.col[6 + k], "RX_FLITS") != NULL
                           ? rtr.val[(size_t)i * m + k]
                           : 0;
        CHECK(sum > 1000);
    }
    table_free(&rtr);
    unlink(tp.sampling.nic_path);
    unlink(tp.sampling.rtr_path);
    topo_free(&t);
}

/* Sampling on or off: the same run, to the last delivery (the events
 * counted are the model's). With either event queue. */
static void test_sampling_changes_nothing(void)
{
    struct topo t;
    if (build(&t, "dragonfly", 2, 4, 2, 0) != 0)
        return;
    struct traffic_params tp = quick(0.5);
    struct traffic_result off, on, pair;
    if (run(&t, &tp, EVQ_HEAP4, &off) == 0) {
        tp.sampling.interval = 250 * SIMTIME_NS;
        tp.sampling.nic = tp.sampling.rtr = true;
        tp.sampling.nic_path = temp_path("nic.csv");
        tp.sampling.rtr_path = temp_path("rtr.csv");
        if (run(&t, &tp, EVQ_HEAP4, &on) == 0 &&
            run(&t, &tp, EVQ_PAIRING, &pair) == 0) {
            CHECK(off.drained && on.drained);
            CHECK_EQ_U(off.samples, 0);
            CHECK(on.samples > 10);
            CHECK_EQ_U(on.hash, off.hash);
            CHECK_EQ_U(on.packets, off.packets);
            CHECK_EQ_U(on.generated, off.generated);
            CHECK_EQ_U(on.refused, off.refused);
            CHECK_EQ_U(on.end, off.end);
            CHECK_EQ_U(on.net_hops, off.net_hops);
            CHECK_EQ_U(on.net_packets, off.net_packets);
            CHECK_EQ_U(on.events, off.events);
            CHECK(on.lat_mean_ns == off.lat_mean_ns &&
                  on.lat_median_ns == off.lat_median_ns &&
                  on.lat_p99_ns == off.lat_p99_ns &&
                  on.lat_max_ns == off.lat_max_ns &&
                  on.offered == off.offered &&
                  on.accepted == off.accepted &&
                  on.frac_nonmin == off.frac_nonmin);
            CHECK_EQ_U(pair.hash, off.hash);
            CHECK_EQ_U(pair.samples, on.samples);
        }
        unlink(tp.sampling.nic_path);
        unlink(tp.sampling.rtr_path);
    }
    topo_free(&t);
}

/* ---- the links report (sampling.links) -------------------------------- */

struct links_file {
    uint32_t blocks;      /* router lines ("\t<name>") */
    uint32_t links;       /* link lines */
    uint64_t pkts[2];     /* VC0_PKTS and VC1_PKTS summed over links */
    uint64_t bytes;       /* TRAFFIC_B summed */
    double max_used;      /* largest PCT_USED_BW */
};

static int links_file_read(const char *path, struct links_file *lf)
{
    memset(lf, 0, sizeof *lf);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (line[0] == '\t') {
            lf->blocks++;
            continue;
        }
        char dir[8], dest[64];
        double gbs, pct, used;
        unsigned long long f0, f1, p0, p1, is, cs, b;
        int k = sscanf(line, "%7s %63s %lf %llu %llu %llu %llu %llu %llu "
                             "%llu %lf %lf",
                       dir, dest, &gbs, &f0, &f1, &p0, &p1, &is, &cs, &b,
                       &pct, &used);
        CHECK_EQ_U(k, 12);
        lf->links++;
        lf->pkts[0] += p0;
        lf->pkts[1] += p1;
        lf->bytes += b;
        if (used > lf->max_used)
            lf->max_used = used;
    }
    fclose(f);
    return 0;
}

/* The report covers exactly the measurement window: the window [w, w+m)
 * of one run equals [0, w+m) minus [0, w) of two other runs of the same
 * traffic (the window changes no event). Turning it on changes nothing. */
static void test_links_report(void)
{
    struct topo t;
    if (build(&t, "dragonfly", 2, 4, 2, 0) != 0) /* 36 routers */
        return;
    struct links L;
    CHECK(links_build(&L, &t) == 0);
    struct traffic_params tp = quick(0.5);
    struct traffic_result off, on;
    struct links_file mid = { 0 }, all = { 0 }, head = { 0 };
    if (run(&t, &tp, EVQ_HEAP4, &off) == 0) {
        tp.sampling.links_path = temp_path("links.txt");
        if (run(&t, &tp, EVQ_HEAP4, &on) == 0 &&
            links_file_read(tp.sampling.links_path, &mid) == 0) {
            CHECK_EQ_U(on.hash, off.hash);
            CHECK_EQ_U(on.events, off.events);
            CHECK_EQ_U(on.end, off.end);
            CHECK_EQ_U(mid.blocks, t.n_routers);
            CHECK_EQ_U(mid.links, L.n);
            CHECK(mid.pkts[0] > 1000 && mid.pkts[1] > 1000);
            CHECK(mid.bytes > 0);
            CHECK(mid.max_used > 1 && mid.max_used <= 100.0);
        }
        double w = tp.warmup_us, m = tp.measure_us;
        tp.warmup_us = 0;
        tp.measure_us = w + m;
        if (run(&t, &tp, EVQ_HEAP4, &on) == 0)
            links_file_read(tp.sampling.links_path, &all);
        tp.measure_us = w;
        if (run(&t, &tp, EVQ_HEAP4, &on) == 0)
            links_file_read(tp.sampling.links_path, &head);
        for (int c = 0; c < 2; c++) {
            CHECK(head.pkts[c] > 0);
            CHECK_EQ_U(all.pkts[c] - head.pkts[c], mid.pkts[c]);
        }
        unlink(tp.sampling.links_path);
    }
    links_free(&L);
    topo_free(&t);
}

/* ---- the sampler on its own ----------------------------------------- */

struct h {
    struct topo t;
    struct sim s;
    struct net n;
};

enum { EV_SAMPLE = NET_EV_COUNT };

static int setup(struct h *h, const char *system)
{
    memset(h, 0, sizeof *h);
    struct diag d;
    diag_init(&d);
    if (topo_build_system(&h->t, system, &d) != 0 ||
        sim_init(&h->s, EVQ_HEAP4, net_entities(&h->t) + 1) != 0)
        return -1;
    struct net_params np;
    cc_net_defaults(&np, &h->t);
    np.counters = true;
    return net_init(&h->n, &h->t, &np, &h->s, 1, &d);
}

static void teardown(struct h *h)
{
    net_free(&h->n);
    sim_free(&h->s);
    topo_free(&h->t);
}

/* The node of NIC `nic` and its row in the last sample. */
static uint64_t last_value(const struct table *tb, uint32_t n_prod,
                           uint32_t node, uint32_t metric)
{
    uint32_t m = tb->n_col - 6;
    uint32_t row = tb->n_rows - n_prod + node; /* every node has a NIC */
    CHECK_EQ_U(tb->comp[row], node);
    return tb->val[(size_t)row * m + metric];
}

/* Known messages on a 64-node Aries chassis: the network drains, the
 * next sample finds nothing else to do, writes the drained state and is
 * the last; each sender's REQ_PKTS there is what it sent. */
static void test_last_sample_after_drain(void)
{
    struct h h;
    if (setup(&h, "voltrino") != 0) {
        CHECK(0);
        return;
    }
    struct sampler sm;
    struct sampler_params sp;
    sampler_defaults(&sp);
    sp.interval = SIMTIME_US;
    sp.until = 1000 * SIMTIME_US;
    sp.nic = true;
    sp.nic_path = temp_path("nic.csv");
    struct diag d;
    diag_init(&d);
    uint32_t ent = net_entities(&h.t);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, ent, &sp, &d) == 0);
    /* NIC i belongs to node i on an Aries system */
    CHECK_EQ_U(h.t.nics[7].node, 7);
    net_send(&h.n, 7, 60, NET_PUT, 640, 0, 0);   /* 10 packets */
    net_send(&h.n, 20, 3, NET_GET, 128, 0, 0);   /* 2 requests */
    net_send(&h.n, 41, 7, NET_PUT, 64, 0, 0);
    net_send(&h.n, 41, 8, NET_PUT, 64, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK_EQ_U(net_in_flight(&h.n), 0);
    simtime last = h.n.st.last_delivery;
    /* the samples: every us up to the first one that finds nothing else
     * pending, just after the drain (credits still on their way back
     * when the last packet lands may keep it going one more us) */
    CHECK_EQ_U(h.s.now, sm.samples * SIMTIME_US);
    CHECK(h.s.now > last && h.s.now <= last + 2 * SIMTIME_US);
    sampler_free(&sm);

    struct table tb;
    if (table_read(&tb, sp.nic_path) == 0) {
        uint32_t N = h.t.n_nodes;
        CHECK_EQ_U(tb.n_rows, sm.samples * N);
        CHECK_EQ_U(table_decreases(&tb, N), 0);
        uint32_t pk = table_metric(&tb,
                                   "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS");
        uint32_t pi = table_metric(&tb,
                                   "AR_NIC_RSPMON_PARB_EVENT_CNTR_PI_PKTS");
        CHECK(pk == 0 && pi != UINT32_MAX);
        CHECK_EQ_U(last_value(&tb, N, 7, pk), 10);
        CHECK_EQ_U(last_value(&tb, N, 20, pk), 2);
        CHECK_EQ_U(last_value(&tb, N, 41, pk), 2);
        uint64_t all = 0;
        for (uint32_t i = 0; i < N; i++)
            all += last_value(&tb, N, i, pk);
        CHECK_EQ_U(all, 14);
        /* written to the host: the PUTs' requests at their destinations,
         * the GET's responses back at its source */
        CHECK_EQ_U(last_value(&tb, N, 60, pi), 10);
        CHECK_EQ_U(last_value(&tb, N, 20, pi), 2);
        CHECK_EQ_U(last_value(&tb, N, 8, pi), 1);
    }
    table_free(&tb);
    unlink(sp.nic_path);
    teardown(&h);
}

/* `until` ends the sampling while the network is still busy: with samples
 * every 1 us before 2.5 us, two, however long the run goes on. The router
 * sampler's rows name the Aries routers (cnames). */
static void test_until(void)
{
    struct h h;
    if (setup(&h, "voltrino") != 0) {
        CHECK(0);
        return;
    }
    struct sampler sm;
    struct sampler_params sp;
    sampler_defaults(&sp);
    sp.interval = SIMTIME_US;
    sp.until = 2500 * SIMTIME_NS;
    sp.rtr = true;
    sp.rtr_path = temp_path("rtr.csv");
    struct diag d;
    diag_init(&d);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, net_entities(&h.t), &sp,
                       &d) == 0);
    net_send(&h.n, 0, 63, NET_PUT, 64 * 1024, 0, 0); /* ~7 us of packets */
    sim_run(&h.s, SIMTIME_MAX);
    CHECK(h.n.st.last_delivery > 5 * SIMTIME_US);
    CHECK_EQ_U(sm.samples, 2);
    sampler_free(&sm);
    struct table tb;
    if (table_read(&tb, sp.rtr_path) == 0) {
        CHECK_EQ_U(tb.n_rows, 2 * h.t.n_routers);
        char name[32];
        CHECK(strcmp(tb.producer[1], topo_router_name(&h.t, 1, name,
                                                      sizeof name)) == 0);
        CHECK(strcmp(tb.col[6], "AR_RTR_0_0_INQ_PRF_INCOMING_FLIT_VC0") == 0);
        /* processor tiles are last, four counters each */
        CHECK(strcmp(tb.col[tb.n_col - 1],
                     "AR_RTR_PT_5_7_INQ_PRF_RSP_ROWBUS_STALL_CNT") == 0);
        CHECK_EQ_U(table_decreases(&tb, h.t.n_routers), 0);
    }
    table_free(&tb);
    unlink(sp.rtr_path);
    teardown(&h);
}

/* A write that fails during the run (the disk full: /dev/full put in
 * place of the file) stops the sampling, not the run, and is reported
 * after it. */
static void test_write_failure(void)
{
    struct h h;
    if (setup(&h, "voltrino") != 0) {
        CHECK(0);
        return;
    }
    struct sampler sm;
    struct sampler_params sp;
    sampler_defaults(&sp);
    sp.interval = SIMTIME_US;
    sp.until = 100 * SIMTIME_US;
    sp.nic = true;
    sp.nic_path = temp_path("full.csv");
    struct capture c;
    cap_init(&c);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, net_entities(&h.t), &sp,
                       &c.d) == 0);
    CHECK(sampler_status(&sm, &c.d) == 0);
    FILE *full = fopen("/dev/full", "w");
    CHECK(full != NULL);
    if (full) {
        fclose(sm.set[SAMPLER_NIC].f);
        sm.set[SAMPLER_NIC].f = full;
    }
    net_send(&h.n, 0, 63, NET_PUT, 64 * 1024, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    CHECK_EQ_U(net_in_flight(&h.n), 0);
    CHECK_EQ_U(sm.samples, 0);
    CHECK(sampler_status(&sm, &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "full.csv failed after 0 samples: No "
                                     "space left on device");
    cap_free(&c);
    sampler_free(&sm);
    unlink(sp.nic_path);
    teardown(&h);
}

/* A name the sampler cannot read is an error naming it; so are a tile
 * counter in the NIC list, a NIC counter in the router list, interval 0
 * and a network without counters. Nothing is written then. */
static void test_bad_metrics(void)
{
    struct h h;
    if (setup(&h, "voltrino") != 0) {
        CHECK(0);
        return;
    }
    static const char *const nic_bad[] = {
        "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS", "AR_NIC_BOGUS_PKTS",
        "AR_RTR_0_0_INQ_PRF_ROWBUS_STALL_CNT",
    };
    static const char *const rtr_bad[] = {
        "AR_RTR_9_9_INQ_PRF_ROWBUS_STALL_CNT",
        "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS",
        "AR_RTR_0_0_INQ_PRF_ROWBUS_STALL_CNT",
    };
    struct sampler sm;
    struct sampler_params sp;
    sampler_defaults(&sp);
    sp.interval = SIMTIME_US;
    sp.until = 10 * SIMTIME_US;
    sp.nic = sp.rtr = true;
    sp.nic_path = temp_path("bad-nic.csv");
    sp.rtr_path = temp_path("bad-rtr.csv");
    sp.nic_metrics = nic_bad;
    sp.n_nic_metrics = 3;
    sp.rtr_metrics = rtr_bad;
    sp.n_rtr_metrics = 3;
    struct capture c;
    cap_init(&c);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, net_entities(&h.t), &sp,
                       &c.d) != 0);
    CHECK_EQ_U(c.d.errors, 4);
    const char *msg = cap_text(&c);
    CHECK_STR_CONTAINS(msg, "error: sampling.nic_metrics: no NIC counter "
                            "named \"AR_NIC_BOGUS_PKTS\" on aries NICs; NIC "
                            "counters: AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS"
                            ", ");
    CHECK_STR_CONTAINS(msg, "error: sampling.nic_metrics: "
                            "\"AR_RTR_0_0_INQ_PRF_ROWBUS_STALL_CNT\" is a "
                            "router tile counter, not a NIC counter");
    CHECK_STR_CONTAINS(msg, "error: sampling.rtr_metrics: no router of this "
                            "aries system has a tile counter named "
                            "\"AR_RTR_9_9_INQ_PRF_ROWBUS_STALL_CNT\"");
    CHECK_STR_CONTAINS(msg, "error: sampling.rtr_metrics: "
                            "\"AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS\" is a "
                            "NIC counter, not a router tile counter");
    cap_free(&c);
    struct stat st;
    CHECK(stat(sp.nic_path, &st) != 0 && stat(sp.rtr_path, &st) != 0);

    /* interval 0 */
    sp.nic_metrics = sp.rtr_metrics = NULL;
    sp.interval = 0;
    cap_init(&c);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, net_entities(&h.t), &sp,
                       &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "error: sampling.interval_us: the "
                                     "interval is 0");
    cap_free(&c);

    /* a file that cannot be written */
    sp.interval = SIMTIME_US;
    sp.rtr = false;
    sp.nic_path = "/dev/full";
    cap_init(&c);
    CHECK(sampler_init(&sm, &h.n, &h.s, EV_SAMPLE, net_entities(&h.t), &sp,
                       &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "error: sampling: cannot write "
                                     "/dev/full: ");
    cap_free(&c);
    teardown(&h);

    /* no counters */
    struct topo t;
    struct sim s;
    struct net n;
    struct diag d;
    diag_init(&d);
    CHECK(topo_build_system(&t, "voltrino", &d) == 0);
    CHECK(sim_init(&s, EVQ_HEAP4, net_entities(&t) + 1) == 0);
    struct net_params np;
    cc_net_defaults(&np, &t);
    CHECK(net_init(&n, &t, &np, &s, 1, &d) == 0);
    sp.interval = SIMTIME_US;
    cap_init(&c);
    CHECK(sampler_init(&sm, &n, &s, EV_SAMPLE, net_entities(&t), &sp,
                       &c.d) != 0);
    CHECK_STR_CONTAINS(cap_text(&c), "the network keeps no counters");
    cap_free(&c);
    net_free(&n);
    sim_free(&s);
    topo_free(&t);
}

/* ---- experiment files and dfsim run ------------------------------------ */

/* Load `text`; with a built system, also check the sampling section's
 * names against the network. Returns the errors; messages in c. */
static int load(const char *text, struct capture *c, const char **path)
{
    *path = write_temp("sampling.cfg", text);
    CHECK(*path != NULL);
    if (!*path)
        return -1;
    struct experiment e;
    if (experiment_load(&e, *path, -1, &c->d) != 0)
        return c->d.errors;
    struct topo t;
    if (experiment_build_topo(&e, &t, &c->d) == 0) {
        struct net_params p;
        if (experiment_net_params(&e, &t, &p, &c->d) == 0) {
            struct sim s;
            struct net n;
            p.counters = true;
            CHECK(sim_init(&s, EVQ_HEAP4, net_entities(&t)) == 0);
            if (net_init(&n, &t, &p, &s, 0, &c->d) == 0) {
                experiment_check_sampling(&e, &n, &c->d);
                net_free(&n);
            }
            sim_free(&s);
        }
        topo_free(&t);
    }
    experiment_free(&e);
    return c->d.errors;
}

static void expect(const char *text, int errors, const char *want)
{
    struct capture c;
    cap_init(&c);
    const char *path;
    CHECK_EQ_U(load(text, &c, &path), errors);
    char line[1024];
    snprintf(line, sizeof line, "%s:%s", path, want);
    CHECK_STR_CONTAINS(cap_text(&c), line);
    cap_free(&c);
}

static void test_section(void)
{
    const char *path = write_temp(
        "sampling.cfg", "system = { name = \"voltrino\"; };\n"
                        "traffic = { };\n"
                        "sampling = {\n"
                        "  interval_us = 0.5;\n"
                        "  nic = true; rtr = true;\n"
                        "  nic_metrics = [\"AR_NIC_NETMON_ORB_EVENT_CNTR_"
                        "REQ_FLITS\",\n"
                        "                 \"AR_NIC_NETMON_ORB_EVENT_CNTR_"
                        "REQ_STALLED\"];\n"
                        "  rtr_metrics = \"AR_RTR_1_2_COLBUF_PERF_STALL_RQ\";"
                        "\n"
                        "};\n");
    struct capture c;
    cap_init(&c);
    struct experiment e;
    CHECK(path && experiment_load(&e, path, -1, &c.d) == 0);
    if (c.d.errors) {
        fprintf(stderr, "%s", cap_text(&c));
        cap_free(&c);
        return;
    }
    CHECK(e.has_sampling);
    CHECK_NEAR(e.sampling.interval_us, 0.5, 0);
    CHECK(e.sampling.nic && e.sampling.rtr);
    CHECK_EQ_U(e.sampling.nic_metrics.n, 2);
    CHECK_EQ_U(e.sampling.nic_metrics.line[1], 7);
    CHECK(strcmp(e.sampling.nic_metrics.v[1],
                 "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED") == 0);
    CHECK_EQ_U(e.sampling.rtr_metrics.n, 1);
    struct sampler_params sp;
    sampler_config_params(&e.sampling, &sp);
    CHECK_EQ_U(sp.interval, 500 * SIMTIME_NS);
    CHECK_EQ_U(sp.n_nic_metrics, 2);
    CHECK(sp.rtr_metrics == e.sampling.rtr_metrics.v);
    experiment_free(&e);
    cap_free(&c);

    /* no section: off */
    cap_init(&c);
    path = write_temp("sampling.cfg", "system = { name = \"voltrino\"; };\n");
    CHECK(path && experiment_load(&e, path, -1, &c.d) == 0);
    if (!c.d.errors) {
        CHECK(!e.has_sampling && !e.sampling.nic && !e.sampling.rtr);
        sampler_config_params(&e.sampling, &sp);
        CHECK(!sampler_enabled(&sp));
        experiment_free(&e);
    }
    cap_free(&c);

    expect("system = { name = \"voltrino\"; };\n"
           "traffic = { };\n"
           "sampling = {\n"
           "  interval_us = 0;\n"
           "};\n",
           1,
           "4: error: sampling.interval_us: value 0 is out of range; "
           "expected a number in [0.001, 1e+06]\n");
    expect("system = { name = \"voltrino\"; };\n"
           "traffic = { };\n"
           "sampling = { interval_us = -2.0; nic = 1; };\n",
           2, "3: error: sampling.nic: expected true or false, got an "
              "integer\n");
    expect("system = { name = \"voltrino\"; };\n"
           "sampling = {\n"
           "  nic = true;\n"
           "};\n",
           1,
           "3: error: sampling.nic: the counters are read during the "
           "traffic runs and the jobs' runs, and this file has neither a "
           "traffic section nor a jobs list\n");
    expect("system = { name = \"voltrino\"; };\n"
           "traffic = { };\n"
           "sampling = {\n"
           "  nic = true;\n"
           "  nic_metrics = [\"AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_PKTS\",\n"
           "                 \"REQ_PKTS\"];\n"
           "};\n",
           1,
           "6: error: sampling.nic_metrics[1]: no NIC counter named "
           "\"REQ_PKTS\" on aries NICs; NIC counters: ");
    expect("system = { name = \"voltrino\"; };\n"
           "traffic = { };\n"
           "sampling = {\n"
           "  rtr = true;\n"
           "  rtr_metrics = (1, \"x\");\n"
           "};\n",
           1,
           "5: error: sampling.rtr_metrics[0]: expected a string, got an "
           "integer\n");
    expect("system = { name = \"voltrino\"; };\n"
           "traffic = { };\n"
           "sampling = { rate = 2; };\n",
           1, "3: error: unknown key \"sampling.rate\"; accepted keys: "
              "interval_us, nic, rtr, links, nic_metrics, rtr_metrics\n");
    /* a list of a sampler that is off is not checked */
    struct capture q;
    cap_init(&q);
    const char *p2;
    CHECK_EQ_U(load("system = { name = \"voltrino\"; };\n"
                    "traffic = { };\n"
                    "sampling = { nic = true; rtr_metrics = \"x\"; };\n",
                    &q, &p2),
               0);
    cap_free(&q);
}

static void test_cli(void)
{
    static char out[1 << 16], err[1 << 16];
    const char *cfg = write_temp(
        "sampling.cfg", "system = { topology = \"torus\"; x = 2; y = 2; "
                        "z = 2; };\n"
                        "probe = { pairs = 1; };\n"
                        "traffic = { loads = [0.1, 0.2]; warmup_us = 0.5; "
                        "measure_us = 1.0; };\n"
                        "sampling = { interval_us = 1.0; nic = true; "
                        "rtr = true; };\n");
    char dir[64] = "/tmp/dfsim-sampling-XXXXXX";
    CHECK(cfg != NULL && mkdtemp(dir) != NULL);
    const char *a1[] = { "run", cfg, "-o", dir, NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "nic_samples_*.csv, rtr_samples_*.csv)");
    CHECK_STR_CONTAINS(err, "traffic 2/2: DOR uniform load 0.200: ");
    CHECK_STR_CONTAINS(err, " samples (");
    static const char *const files[] = {
        "nic_samples_DOR_0.1000.csv", "nic_samples_DOR_0.2000.csv",
        "rtr_samples_DOR_0.1000.csv", "rtr_samples_DOR_0.2000.csv",
        "traffic.csv", "probe.csv", "topology.json", "experiment.settings",
        "experiment.files",
    };
    /* Gemini: the NIC's request counters; cnames; the tiles' six */
    static const char nic_head[] =
        "#Time,Time_usec,ProducerName,component_id,job_id,app_id,"
        "GM_ORB_PERF_VC0_PKTS,GM_ORB_PERF_VC0_FLITS,GM_ORB_PERF_VC0_STALLED\n"
        "0.000001,1,c0-0c0s0n0,0,0,0,";
    static const char rtr_head[] =
        "#Time,Time_usec,ProducerName,component_id,job_id,app_id,"
        "GM_0_0_TILE_PERFORMANCE_COUNTERS_0,GM_0_0_TILE_PERFORMANCE_"
        "COUNTERS_1,";
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        if (i < 4) {
            const char *head = i < 2 ? nic_head : rtr_head;
            char *text = read_text(p);
            CHECK(text != NULL);
            if (text)
                CHECK(strncmp(text, head, strlen(head)) == 0);
            free(text);
        }
        CHECK(unlink(p) == 0);
    }
    /* the sweep's report (exp/traffic_report.h; the figures only where
     * gnuplot is installed) */
    static const char *const report[] = {
        "report.html", "traffic.dat", "traffic.gp", "traffic.log",
        "traffic_latency.svg", "traffic_accepted.svg", "traffic_paths.svg" };
    for (size_t i = 0; i < sizeof report / sizeof report[0]; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, report[i]);
        CHECK(unlink(p) == 0 || i >= 3);
    }
    CHECK(rmdir(dir) == 0); /* nothing else was written */

    /* a bad name: exit 1 with file and line, nothing run */
    cfg = write_temp("sampling.cfg",
                     "system = { topology = \"torus\"; x = 2; y = 2; z = 2; "
                     "};\n"
                     "traffic = { };\n"
                     "sampling = {\n"
                     "  rtr = true;\n"
                     "  rtr_metrics = [\"GM_0_0_TILE_PERFORMANCE_COUNTERS_9\"];"
                     "\n"
                     "};\n");
    const char *a2[] = { "run", cfg, "-o", "/tmp/dfsim-sampling-never",
                         NULL };
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 1);
    char want[512];
    snprintf(want, sizeof want,
             "%s:5: error: sampling.rtr_metrics[0]: no router of this torus "
             "system has a tile counter named "
             "\"GM_0_0_TILE_PERFORMANCE_COUNTERS_9\"",
             cfg);
    CHECK_STR_CONTAINS(err, want);
    CHECK_EQ_U(strlen(out), 0);
    struct stat st;
    CHECK(stat("/tmp/dfsim-sampling-never", &st) != 0);
    unlink(cfg);
}

const struct test_case tests_sampler[] = {
    TEST(test_layout_and_rows),
    TEST(test_sampling_changes_nothing),
    TEST(test_links_report),
    TEST(test_last_sample_after_drain),
    TEST(test_until),
    TEST(test_write_failure),
    TEST(test_bad_metrics),
    TEST(test_section),
    TEST(test_cli),
    { 0 },
};
