/* tests/test_awr.c — the SC'19 application-aware routing controller
 * (ctl/awr.h): the sample from hand-computed counter deltas, the decision
 * at and around its threshold both ways, f and alpha, the cumulative
 * cutoff, SMSG and MPI_Alltoall, the stored samples' freshness, and an
 * end-to-end run on an Aries network whose NIC counters it reads. */
#include "test.h"
#include "mpi_util.h"

#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/sim.h"
#include "ctl/awr.h"
#include "net/counters.h"
#include "net/net.h"
#include "route/route.h"
#include "topo/topo.h"

/* Mode indexes of the detached controllers: not 0, 1, 3, so that nothing
 * can pass by confusing an index with a bias. */
enum { M0 = 4, M1 = 5, M3 = 6 };

/* Cumulative counters that grow by a chosen sample: `pkts` responses of
 * `lat` cycles each, `flits` request flits stalled `stall` cycles each. */
static void grow(struct awr_counters *c, uint64_t flits, uint64_t stall,
                 uint64_t pkts, uint64_t lat)
{
    c->req_flits += flits;
    c->req_stalled += flits * stall;
    c->rsp_net_track += pkts;
    c->rsp_track2 += pkts * lat;
}

static struct awr_msg msg(uint32_t nic, uint32_t dst, uint64_t bytes)
{
    return (struct awr_msg){ .nic = nic, .dst_nic = dst, .bytes = bytes };
}

/* ---- constants, f, alpha -------------------------------------------- */

static void test_awr_defaults(void)
{
    struct awr_params p;
    memset(&p, 0xff, sizeof p);
    awr_defaults(&p);
    CHECK_EQ_U(p.cutoff, 4096);
    CHECK(p.factor_lat == 1.2);
    CHECK(p.factor_stalls == 5.0);
    CHECK_EQ_U(p.max_freshness, 5);
    CHECK(p.remove_srin);
    CHECK(p.cycles_to_us == 1.25e-3);
    CHECK_EQ_U(p.packet_bytes, 64);
    CHECK(p.flits_per_packet == 5.0);
    CHECK(p.get_flit_div == 5.0);
    CHECK_EQ_U(p.max_outstanding, 1024);
    CHECK(!p.eq3);
}

/* f = size / 12.8 (awr.c: 64/5.0, not the integer 12), GETs / 5 more;
 * alpha = ceil((ceil(size/64) - 1 + 512) / 1024). */
static void test_awr_flits_alpha(void)
{
    struct awr_params p;
    awr_defaults(&p);
    static const struct {
        uint64_t bytes;
        double put, get, alpha;
    } k[] = {
        { 1, 1 / 12.8, 1 / 64.0, 1 },       /* p = 1: ceil(512/1024) */
        { 64, 5, 1, 1 },                    /* one packet: 5 flits */
        { 4096, 320, 64, 1 },               /* p = 64: ceil(575/1024) */
        { 32832, 2565, 513, 1 },            /* p = 513: 1024/1024 */
        { 32833, 32833 / 12.8, 32833 / 64.0, 2 }, /* p = 514: 1025/1024 */
        { 65536, 5120, 1024, 2 },           /* p = 1024: ceil(1535/1024) */
        { 64u << 20, 5242880, 1048576, 1025 }, /* p = 2^20: 1024.499.. */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        CHECK_NEAR(awr_num_flits(&p, k[i].bytes, false), k[i].put,
                   1e-9 * k[i].put);
        CHECK_NEAR(awr_num_flits(&p, k[i].bytes, true), k[i].get,
                   1e-9 * k[i].get);
        CHECK(awr_alpha(&p, k[i].bytes) == k[i].alpha);
    }
    /* the integer 64/5 = 12 would give 341.33 flits for 4 KiB */
    CHECK(awr_num_flits(&p, 4096, false) < 4096 / 12.0 - 1);
    /* parameters are used: 32 B packets of 2 flits, 4 outstanding */
    p.packet_bytes = 32, p.flits_per_packet = 2, p.max_outstanding = 4;
    CHECK_NEAR(awr_num_flits(&p, 64, false), 4, 1e-12);
    CHECK(awr_alpha(&p, 64) == 1);  /* p = 2: ceil(3/4) */
    CHECK(awr_alpha(&p, 128) == 2); /* p = 4: ceil(5/4) */
}

/* ---- the sample ------------------------------------------------------- */

static void test_awr_sample(void)
{
    struct awr_params p;
    awr_defaults(&p);
    struct awr_counters a = { .req_flits = 1000, .req_stalled = 500,
                              .rsp_stalled = 100, .rsp_net_track = 10,
                              .rsp_track2 = 2000 };
    struct awr_counters b = { .req_flits = 1800, .req_stalled = 2100,
                              .rsp_stalled = 500, .rsp_net_track = 18,
                              .rsp_track2 = 10000 };
    double l = -1, s = -1;
    /* L = 8000 / 8 = 1000 cycles = 1.25 us; s = (1600 - 400) / 800 = 1.5
     * cycles = 1.875e-3 us per flit */
    CHECK(awr_sample(&p, &a, &b, &l, &s));
    CHECK_NEAR(l, 1.25, 1e-12);
    CHECK_NEAR(s, 1.875e-3, 1e-15);
    /* without REMOVE_SRIN: 1600 / 800 = 2 cycles */
    p.remove_srin = false;
    CHECK(awr_sample(&p, &a, &b, &l, &s));
    CHECK_NEAR(s, 2.5e-3, 1e-15);
    /* more response stalls than request stalls: clamped at 0, only when
     * they are subtracted */
    p.remove_srin = true;
    b.rsp_stalled = 100 + 2000;
    CHECK(awr_sample(&p, &a, &b, &l, &s));
    CHECK(s == 0);
    CHECK_NEAR(l, 1.25, 1e-12);
    p.remove_srin = false;
    CHECK(awr_sample(&p, &a, &b, &l, &s));
    CHECK_NEAR(s, 2.5e-3, 1e-15);
    /* no response tracked, or no request flit: no sample, outputs kept */
    p.remove_srin = true;
    struct awr_counters c = b;
    c.rsp_net_track = a.rsp_net_track;
    l = s = 7;
    CHECK(!awr_sample(&p, &a, &c, &l, &s));
    CHECK(l == 7 && s == 7);
    c = b;
    c.req_flits = a.req_flits;
    CHECK(!awr_sample(&p, &a, &c, &l, &s));
    CHECK(l == 7 && s == 7);
    /* deltas are modulo 2^64 (a counter that wrapped) */
    struct awr_counters w = { .req_flits = UINT64_MAX - 99,
                              .rsp_net_track = UINT64_MAX, .rsp_track2 = 5 };
    struct awr_counters x = { .req_flits = 700, .req_stalled = 800,
                              .rsp_net_track = 1, .rsp_track2 = 805 };
    CHECK(awr_sample(&p, &w, &x, &l, &s));
    CHECK_NEAR(l, 400 * 1.25e-3, 1e-12); /* 800 cycles / 2 responses */
    CHECK_NEAR(s, 1.25e-3, 1e-15);       /* 800 cycles / 800 flits */
    /* cycles_to_us is the conversion used for both */
    p.cycles_to_us = 1e-3;
    CHECK(awr_sample(&p, &w, &x, &l, &s));
    CHECK_NEAR(l, 0.4, 1e-12);
    CHECK_NEAR(s, 1e-3, 1e-15);
}

/* The first read only sets the baseline; a read with nothing new keeps
 * the previous sample. */
static void test_awr_first_read_skipped(void)
{
    struct awr_params p;
    awr_defaults(&p);
    struct awr a;
    CHECK(awr_init_detached(&a, &p, 2, M0, M1, M3) == 0);
    struct awr_counters c = { .req_flits = 5000, .req_stalled = 9000,
                              .rsp_net_track = 900, .rsp_track2 = 999999 };
    struct awr_msg m = msg(1, 0, 5000);
    awr_sent_with(&a, &m, M0, &c);
    const struct awr_nic *s = &a.nic[1];
    CHECK_EQ_U(s->st.reads, 1);
    CHECK_EQ_U(s->st.samples, 0);
    CHECK(s->have_prev && !s->have_sample);
    CHECK_EQ_U(s->prev.req_flits, 5000);
    grow(&c, 100, 3, 4, 600); /* s = 3 cycles, L = 600 cycles */
    awr_sent_with(&a, &m, M0, &c);
    CHECK_EQ_U(s->st.reads, 2);
    CHECK_EQ_U(s->st.samples, 1);
    CHECK(s->have_sample);
    CHECK_NEAR(s->lat_us, 0.75, 1e-12);
    CHECK_NEAR(s->stall_us, 3.75e-3, 1e-15);
    /* nothing tracked since: the read happens, the sample stays */
    c.req_flits += 50;
    awr_sent_with(&a, &m, M0, &c);
    CHECK_EQ_U(s->st.reads, 3);
    CHECK_EQ_U(s->st.samples, 1);
    CHECK_NEAR(s->lat_us, 0.75, 1e-12);
    CHECK_EQ_U(s->prev.req_flits, 5150);
    /* NIC 0 untouched */
    CHECK_EQ_U(a.nic[0].st.reads, 0);
    CHECK(!a.nic[0].have_prev);
    /* after a restart the next read is a baseline again: traffic in
     * between (another variant's) makes no sample; the old one stays */
    awr_restart(&a, 1);
    CHECK(!s->have_prev && s->have_sample);
    grow(&c, 100, 30, 4, 6000);
    awr_sent_with(&a, &m, M0, &c);
    CHECK_EQ_U(s->st.samples, 1);
    CHECK_NEAR(s->lat_us, 0.75, 1e-12);
    grow(&c, 100, 3, 4, 600);
    awr_sent_with(&a, &m, M0, &c);
    CHECK_EQ_U(s->st.samples, 2);
    CHECK_NEAR(s->lat_us, 0.75, 1e-12);
    /* a reset (another job's process on the node) forgets the sample and
     * the decision state too; the statistics stay */
    a.nic[1].choice = AWR_LOW_LAT;
    a.nic[1].pre_bytes = 77;
    awr_reset(&a, 1);
    CHECK(!s->have_prev && !s->have_sample);
    CHECK_EQ_U(s->choice, AWR_LOW_STALLS);
    CHECK_EQ_U(s->last_mode, AWR_MODE_NONE);
    CHECK_EQ_U(s->pre_bytes, 0);
    CHECK_EQ_U(s->st.samples, 2);
    CHECK_EQ_U(s->st.reads, 5);
    awr_free(&a);
}

/* ---- the decision ----------------------------------------------------- */

/* Hand-computed thresholds with exact binary values. */
static void test_awr_decide_threshold(void)
{
    struct awr_params p;
    awr_defaults(&p);
    /* On AD0: L = 3, AD3's Lo = 2, s = 0.25, so = 0.5: factor = alpha *
     * (3 - 2) / (0.5 - 0.25) = 4 alpha; AD3 iff f < factor. */
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 4, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 3.999, 1) ==
          AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 4.001, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 7.999, 2) ==
          AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 8, 2) ==
          AWR_LOW_STALLS);
    /* On AD3: L = 2, AD0's Lo = 3, s = 0.5, so = 0.25: factor = alpha *
     * (3 - 2) / (0.5 - 0.25) = 4 alpha; AD0 iff f > factor. */
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 4, 1) == AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 4.001, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 3.999, 1) ==
          AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 12, 3) == AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 12.001, 3) ==
          AWR_LOW_STALLS);
    /* Eq. 3 compared directly gives the same answers off the threshold
     * (and stays on the tie) */
    p.eq3 = true;
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 4, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 3.999, 1) ==
          AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.25, 2, 0.5, 4.001, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 4, 1) == AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 4.001, 1) ==
          AWR_LOW_STALLS);
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.5, 3, 0.25, 3.999, 1) ==
          AWR_LOW_LAT);
}

/* From measured (L, s) and a message size, through the scaled estimates:
 * on AD0 factor = alpha (L - L/1.2) / (5s - s) = alpha L / (24 s); on AD3
 * factor = alpha (1.2L - L) / (s - s/5) = alpha L / (4 s). */
static void test_awr_decide_estimates(void)
{
    struct awr_params p;
    awr_defaults(&p);
    double lo, so;
    awr_estimate(&p, AWR_LOW_LAT, 2.0, 0.5, &lo, &so);
    CHECK_NEAR(lo, 2.4, 1e-12);
    CHECK_NEAR(so, 0.1, 1e-12);
    awr_estimate(&p, AWR_LOW_STALLS, 2.4, 0.1, &lo, &so);
    CHECK_NEAR(lo, 2.0, 1e-12);
    CHECK_NEAR(so, 0.5, 1e-12);
    /* L = 1.2 us, s = 0.0125 us (10 cycles): on AD0 factor = 1.2 / 0.3 =
     * 4 flits, i.e. 51.2 B of PUT or 256 B of GET (alpha 1) */
    double l = 1.2, s = 0.0125;
    struct {
        enum awr_choice cur;
        uint64_t bytes;
        bool get;
        enum awr_choice want;
    } k[] = {
        { AWR_LOW_STALLS, 48, false, AWR_LOW_LAT },    /* f = 3.75 */
        { AWR_LOW_STALLS, 56, false, AWR_LOW_STALLS }, /* f = 4.375 */
        { AWR_LOW_STALLS, 240, true, AWR_LOW_LAT },    /* f = 3.75 */
        { AWR_LOW_STALLS, 272, true, AWR_LOW_STALLS }, /* f = 4.25 */
        /* on AD3 factor = 1.2 / 0.05 = 24 flits = 307.2 B PUT */
        { AWR_LOW_LAT, 300, false, AWR_LOW_LAT },      /* f = 23.4 */
        { AWR_LOW_LAT, 320, false, AWR_LOW_STALLS },   /* f = 25 */
        { AWR_LOW_LAT, 1500, true, AWR_LOW_LAT },      /* f = 23.4 */
        { AWR_LOW_LAT, 1600, true, AWR_LOW_STALLS },   /* f = 25 */
        /* 64 KiB: alpha 2, on AD3 factor 48 flits; f = 5120 */
        { AWR_LOW_LAT, 65536, false, AWR_LOW_STALLS },
        /* 64 MiB: alpha 1025, AD3 factor 24600, f = 5242880 */
        { AWR_LOW_LAT, 64u << 20, false, AWR_LOW_STALLS },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        awr_estimate(&p, k[i].cur, l, s, &lo, &so);
        enum awr_choice c =
            awr_decide(&p, k[i].cur, l, s, lo, so,
                       awr_num_flits(&p, k[i].bytes, k[i].get),
                       awr_alpha(&p, k[i].bytes));
        if (c != k[i].want)
            fprintf(stderr, "  case %zu: %llu B %s\n", i,
                    (unsigned long long)k[i].bytes, k[i].get ? "GET" : "PUT");
        CHECK(c == k[i].want);
    }
    /* alpha matters: with a large latency, 64 MiB on AD3 stays there only
     * because alpha = 1025 (factor = 1025 L / (4 s)); with alpha 1 it
     * would switch */
    double big_l = 30000;
    awr_estimate(&p, AWR_LOW_LAT, big_l, s, &lo, &so);
    double f = awr_num_flits(&p, 64u << 20, false);
    CHECK(awr_decide(&p, AWR_LOW_LAT, big_l, s, lo, so, f,
                     awr_alpha(&p, 64u << 20)) == AWR_LOW_LAT);
    CHECK(awr_decide(&p, AWR_LOW_LAT, big_l, s, lo, so, f, 1) ==
          AWR_LOW_STALLS);
}

/* Equal stalls: no division by zero, the lower latency wins, the current
 * mode on a tie (what the library's IEEE infinities and NaN give). */
static void test_awr_decide_zero_division(void)
{
    struct awr_params p;
    awr_defaults(&p);
    for (int eq3 = 0; eq3 <= 1; eq3++) {
        p.eq3 = eq3;
        /* s = 0 measured: the estimates have s too, so the denominator is
         * 0. On AD0 AD3's estimated latency is lower: AD3 even for 64 MiB */
        double lo, so;
        awr_estimate(&p, AWR_LOW_STALLS, 2.0, 0, &lo, &so);
        CHECK(so == 0);
        CHECK(awr_decide(&p, AWR_LOW_STALLS, 2.0, 0, lo, so, 5242880, 1025) ==
              AWR_LOW_LAT);
        /* On AD3 AD0's estimated latency is higher: stay */
        awr_estimate(&p, AWR_LOW_LAT, 2.0, 0, &lo, &so);
        CHECK(awr_decide(&p, AWR_LOW_LAT, 2.0, 0, lo, so, 5242880, 1025) ==
              AWR_LOW_LAT);
        /* stored samples with equal stalls (> 0) */
        CHECK(awr_decide(&p, AWR_LOW_LAT, 2.0, 0.3, 1.5, 0.3, 1, 1) ==
              AWR_LOW_STALLS);
        CHECK(awr_decide(&p, AWR_LOW_LAT, 2.0, 0.3, 2.5, 0.3, 1, 1) ==
              AWR_LOW_LAT);
        CHECK(awr_decide(&p, AWR_LOW_STALLS, 2.0, 0.3, 2.5, 0.3, 1, 1) ==
              AWR_LOW_STALLS);
        CHECK(awr_decide(&p, AWR_LOW_STALLS, 2.0, 0.3, 1.5, 0.3, 1, 1) ==
              AWR_LOW_LAT);
        /* a tie on everything: stay, either way */
        CHECK(awr_decide(&p, AWR_LOW_STALLS, 2.0, 0.3, 2.0, 0.3, 9, 1) ==
              AWR_LOW_STALLS);
        CHECK(awr_decide(&p, AWR_LOW_LAT, 2.0, 0.3, 2.0, 0.3, 9, 1) ==
              AWR_LOW_LAT);
        CHECK(awr_decide(&p, AWR_LOW_LAT, 0, 0, 0, 0, 9, 1) == AWR_LOW_LAT);
        CHECK(awr_decide(&p, AWR_LOW_STALLS, 0, 0, 0, 0, 9, 1) ==
              AWR_LOW_STALLS);
    }
}

/* A stored sample can put the stall difference on the other side: AD3
 * measured better on both latency and stalls while on AD0. The library's
 * divided form then keeps AD0; Eq. 3 compared directly takes AD3. */
static void test_awr_decide_negative_denominator(void)
{
    struct awr_params p;
    awr_defaults(&p);
    /* on AD0: L = 3, s = 0.5; AD3 stored: Lo = 2, so = 0.25 */
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.5, 2, 0.25, 1, 1) ==
          AWR_LOW_STALLS);
    p.eq3 = true;
    CHECK(awr_decide(&p, AWR_LOW_STALLS, 3, 0.5, 2, 0.25, 1, 1) ==
          AWR_LOW_LAT);
    /* on AD3: L = 2, s = 0.25; AD0 stored worse on both: the library's
     * factor (3 - 2) / (0.25 - 0.5) = -4 < f sends it to AD0, Eq. 3
     * stays */
    p.eq3 = false;
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.25, 3, 0.5, 1000, 1) ==
          AWR_LOW_STALLS);
    p.eq3 = true;
    CHECK(awr_decide(&p, AWR_LOW_LAT, 2, 0.25, 3, 0.5, 1000, 1) ==
          AWR_LOW_LAT);
}

/* ---- the controller, per message ------------------------------------- */

/* Cumulative cutoff: AD3 and no read while the cumulative size is within
 * 4096 B; above it the decision runs (once a sample exists) and the count
 * resets; reads are gated by their own count. */
static void test_awr_cutoff(void)
{
    struct awr_params p;
    awr_defaults(&p);
    struct awr a;
    CHECK(awr_init_detached(&a, &p, 3, M0, M1, M3) == 0);
    struct awr_nic *s = &a.nic[2];
    struct awr_counters c = { 0 };
    struct awr_msg m = msg(2, 0, 1000);
    for (int i = 1; i <= 4; i++) { /* 1000 .. 4000 B */
        grow(&c, 100, 1, 10, 500);
        CHECK_EQ_U(awr_select(&a, &m), M3);
        awr_sent_with(&a, &m, M3, &c);
        CHECK_EQ_U(s->pre_bytes, 1000u * (unsigned)i);
    }
    CHECK_EQ_U(s->st.reads, 0);
    CHECK_EQ_U(s->st.below_cutoff, 4);
    CHECK_EQ_U(s->st.below_cutoff_bytes, 4000);
    CHECK_EQ_U(s->st.decisions, 0);
    /* 5000 B: over, but no sample yet: the mode stays (AD3, the last),
     * the count is not reset; the read after it is the baseline */
    CHECK_EQ_U(awr_select(&a, &m), M3);
    CHECK_EQ_U(s->pre_bytes, 5000);
    CHECK_EQ_U(s->st.no_sample, 1);
    awr_sent_with(&a, &m, M3, &c);
    CHECK_EQ_U(s->st.reads, 1);
    CHECK_EQ_U(s->post_bytes, 0);
    /* 4096 more bytes: within the read cutoff again, no read */
    struct awr_msg m4k = msg(2, 0, 4096);
    CHECK_EQ_U(awr_select(&a, &m4k), M3);
    CHECK_EQ_U(s->st.no_sample, 2);
    grow(&c, 320, 1, 64, 800);
    awr_sent_with(&a, &m4k, M3, &c);
    CHECK_EQ_U(s->st.reads, 1);
    CHECK_EQ_U(s->post_bytes, 4096);
    CHECK(!s->have_sample);
    /* one more byte: over both cutoffs; still no sample at the select,
     * a sample at the read */
    struct awr_msg m1 = msg(2, 0, 1);
    CHECK_EQ_U(awr_select(&a, &m1), M3);
    CHECK_EQ_U(s->st.no_sample, 3);
    awr_sent_with(&a, &m1, M3, &c);
    CHECK_EQ_U(s->st.reads, 2);
    CHECK(s->have_sample);
    CHECK_NEAR(s->lat_us, 1.0, 1e-12); /* 64 x 800 cycles / 64 */
    /* now a decision, and the count resets; L = 1 us, s = 1.25e-3 us: on
     * AD0 the factor is 1 / (24 * 1.25e-3) = 33 flits, 1 B goes AD3 */
    CHECK_EQ_U(s->pre_bytes, 9097);
    CHECK_EQ_U(awr_select(&a, &m1), M3);
    CHECK_EQ_U(s->st.decisions, 1);
    CHECK_EQ_U(s->st.to_low_lat, 1);
    CHECK_EQ_U(s->pre_bytes, 0);
    /* the next 4096 B go AD3 without a decision, the byte after decides */
    CHECK_EQ_U(awr_select(&a, &m4k), M3);
    CHECK_EQ_U(s->st.decisions, 1);
    CHECK_EQ_U(s->pre_bytes, 4096);
    awr_select(&a, &m1);
    CHECK_EQ_U(s->st.decisions, 2);
    CHECK_EQ_U(s->pre_bytes, 0);
    /* a fresh NIC: a first message over the cutoff keeps the MPI
     * library's own mode, AD0 (AD1 inside MPI_Alltoall) */
    struct awr_msg big = msg(0, 1, 1 << 20);
    CHECK_EQ_U(awr_select(&a, &big), M0);
    struct awr_msg big2 = msg(1, 0, 1 << 20);
    big2.alltoall = true;
    CHECK_EQ_U(awr_select(&a, &big2), M1);
    /* the cutoff is a parameter */
    awr_free(&a);
    p.cutoff = 0;
    CHECK(awr_init_detached(&a, &p, 1, M0, M1, M3) == 0);
    struct awr_msg one = msg(0, 0, 1);
    CHECK_EQ_U(awr_select(&a, &one), M0); /* over at once, no sample */
    awr_sent_with(&a, &one, M0, &c);
    CHECK_EQ_U(a.nic[0].st.reads, 1);
    awr_free(&a);
}

/* A detached controller whose NIC 0 has the sample L = 1.25 us, s =
 * 0.0125 us (10 cycles): on AD0 the factor is 1.25 / 0.3 = 4.17 flits. */
static void stalled_nic(struct awr *a, const struct awr_params *p,
                        struct awr_counters *c)
{
    CHECK(awr_init_detached(a, p, 2, M0, M1, M3) == 0);
    memset(c, 0, sizeof *c);
    struct awr_msg m = msg(0, 1, 8192);
    awr_sent_with(a, &m, M0, c);
    grow(c, 1000, 10, 100, 1000);
    awr_sent_with(a, &m, M0, c);
    CHECK(a->nic[0].have_sample);
    CHECK_NEAR(a->nic[0].stall_us, 0.0125, 1e-15);
}

/* SMSG sends always go AD3, even where a decision would say AD0, count
 * neither towards the cutoff nor for reads; MPI_Alltoall maps AD0 to AD1
 * and leaves AD3 alone. */
static void test_awr_smsg_alltoall(void)
{
    struct awr_params p;
    awr_defaults(&p);
    /* the estimates below are the factor-scaled ones: the library's rule,
     * under which the stored sample of another size is not reused */
    p.same_message = true;
    struct awr a;
    struct awr_counters c;
    stalled_nic(&a, &p, &c);
    struct awr_nic *s = &a.nic[0];
    uint64_t pre = s->pre_bytes, post = s->post_bytes, reads = s->st.reads;
    struct awr_msg sm = msg(0, 1, 1 << 20);
    sm.smsg = true;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U(awr_select(&a, &sm), M3);
        awr_sent_with(&a, &sm, M3, &c);
    }
    CHECK_EQ_U(s->pre_bytes, pre);
    CHECK_EQ_U(s->post_bytes, post);
    CHECK_EQ_U(s->st.reads, reads);
    CHECK_EQ_U(s->st.decisions, 0);
    CHECK_EQ_U(s->st.smsg, 3);
    CHECK_EQ_U(s->st.msgs[AWR_AD3], 3);
    CHECK_EQ_U(s->st.bytes[AWR_AD3], 3u << 20);
    CHECK_EQ_U(s->last_mode, M3);
    /* the same 1 MiB not as SMSG: decided, AD0 (f = 81920 > 17 x 4.17:
     * alpha = ceil((16384 - 1 + 512) / 1024) = 17) */
    struct awr_msg big = msg(0, 1, 1 << 20);
    CHECK_EQ_U(awr_select(&a, &big), M0);
    CHECK_EQ_U(s->st.decisions, 1);
    CHECK_EQ_U(s->choice, AWR_LOW_STALLS);
    /* inside MPI_Alltoall: AD1 instead of AD0 */
    big.alltoall = true;
    CHECK_EQ_U(awr_select(&a, &big), M1);
    grow(&c, 1000, 10, 100, 1000); /* the same sample again */
    awr_sent_with(&a, &big, M1, &c);
    CHECK_EQ_U(s->st.samples, 2);
    CHECK_NEAR(s->stall_us, 0.0125, 1e-15);
    CHECK_EQ_U(s->st.msgs[AWR_AD1], 1);
    CHECK_EQ_U(s->choice, AWR_LOW_STALLS); /* the state is "low stalls" */
    /* a small alltoall message decided AD3 stays AD3: 4057 B within the
     * cutoff, then 40 B over it (f = 3.125 < 4.17) */
    struct awr_msg fill = msg(0, 1, 4057), small = msg(0, 1, 40);
    fill.alltoall = small.alltoall = true;
    CHECK_EQ_U(awr_select(&a, &fill), M3);
    CHECK_EQ_U(s->st.decisions, 2);
    CHECK_EQ_U(awr_select(&a, &small), M3);
    CHECK_EQ_U(s->st.decisions, 3);
    CHECK_EQ_U(s->choice, AWR_LOW_LAT);
    /* from AD3, 1 MiB outside the alltoall: AD0 (factor 17 x 1.25 /
     * (4 x 0.0125) = 425 < 81920) */
    big.alltoall = false;
    CHECK_EQ_U(awr_select(&a, &big), M0);
    CHECK_EQ_U(s->choice, AWR_LOW_STALLS);
    /* SMSG inside an alltoall: AD3 still */
    sm.alltoall = true;
    CHECK_EQ_U(awr_select(&a, &sm), M3);
    awr_free(&a);
}

/* A new controller of 3 NICs with parameters p whose NIC 0, for message
 * m (cutoff 0), has read a baseline and the AD0 sample, gone to AD3
 * (decision 1) and read the AD3 sample; c: the counters, from 0. */
static void start_on_ad3(struct awr *a, const struct awr_params *p,
                         const struct awr_msg *m, struct awr_counters *c)
{
    CHECK(awr_init_detached(a, p, 3, M0, M1, M3) == 0);
    memset(c, 0, sizeof *c);
    awr_select(a, m);
    awr_sent_with(a, m, M0, c);
    awr_select(a, m);
    grow(c, 500, 1, 50, 2000);
    awr_sent_with(a, m, M0, c);
    CHECK_EQ_U(awr_select(a, m), M3);
    grow(c, 500, 40, 50, 800);
    awr_sent_with(a, m, M3, c);
}

/* Freshness: the sample stored in one mode is used in the other instead
 * of the scaled estimate only while fresh (max 5, less one per decision
 * taken in the other mode: 4 uses) and for the same endpoint and size.
 * Every decision here has cutoff 0 and a read after each message.
 * AD0 sample: L = 2.5 us (2000 cycles), s = 1 cycle (1.25e-3 us).
 * AD3 sample: L = 1.0 us (800 cycles), s = 40 cycles (0.05 us).
 * A 192 B PUT (f = 15): on AD0 the estimate's factor is 2.5/(24*1.25e-3)
 * = 83 (AD3). On AD3 the stored AD0 sample gives factor (2.5 - 1.0) /
 * (0.05 - 0.00125) = 30.8 (stay AD3), the estimate 0.2 / (0.8 * 0.05) =
 * 5 (AD0): the outcome shows which was used. */
static void test_awr_freshness(void)
{
    struct awr_params p;
    awr_defaults(&p);
    p.cutoff = 0;
    struct awr a;
    CHECK(awr_init_detached(&a, &p, 3, M0, M1, M3) == 0);
    struct awr_nic *s = &a.nic[0];
    struct awr_counters c = { 0 };
    struct awr_msg m = msg(0, 1, 192);
    /* baseline, then the AD0 sample */
    CHECK_EQ_U(awr_select(&a, &m), M0);
    awr_sent_with(&a, &m, M0, &c);
    CHECK_EQ_U(awr_select(&a, &m), M0);
    grow(&c, 500, 1, 50, 2000);
    awr_sent_with(&a, &m, M0, &c);
    CHECK_NEAR(s->lat_us, 2.5, 1e-12);
    /* decision 1, on AD0: to AD3, the AD0 sample stored fresh */
    CHECK_EQ_U(awr_select(&a, &m), M3);
    const struct awr_stored *ad0 = &s->stored[AWR_LOW_STALLS];
    const struct awr_stored *ad3 = &s->stored[AWR_LOW_LAT];
    CHECK_EQ_U(ad0->fresh, 5);
    CHECK_EQ_U(ad0->bytes, 192);
    CHECK_EQ_U(ad0->dst_nic, 1);
    CHECK_NEAR(ad0->lat_us, 2.5, 1e-12);
    CHECK_EQ_U(s->st.stored_used, 0);
    /* decisions 2..5, on AD3: the stored AD0 sample (fresh 4, 3, 2, 1)
     * keeps AD3 */
    for (uint32_t i = 1; i <= 4; i++) {
        grow(&c, 500, 40, 50, 800);
        awr_sent_with(&a, &m, M3, &c);
        CHECK_EQ_U(awr_select(&a, &m), M3);
        CHECK_EQ_U(ad0->fresh, 5 - i);
        CHECK_EQ_U(s->st.stored_used, i);
        CHECK_EQ_U(ad3->fresh, 5); /* refreshed at every AD3 decision */
        CHECK_NEAR(ad3->lat_us, 1.0, 1e-12);
    }
    /* decision 6: stale (0), the estimate says AD0 */
    grow(&c, 500, 40, 50, 800);
    awr_sent_with(&a, &m, M3, &c);
    CHECK_EQ_U(awr_select(&a, &m), M0);
    CHECK_EQ_U(ad0->fresh, 0);
    CHECK_EQ_U(s->st.stored_used, 4);
    /* back on AD0: the stored AD3 sample (fresh 5 -> 4) is used there */
    grow(&c, 500, 1, 50, 2000);
    awr_sent_with(&a, &m, M0, &c);
    uint64_t used = s->st.stored_used;
    awr_select(&a, &m);
    CHECK_EQ_U(ad3->fresh, 4);
    CHECK_EQ_U(s->st.stored_used, used + 1);
    CHECK_EQ_U(s->st.decisions, 7);
    awr_free(&a);

    /* SC'19 Algorithm 1 (the default): a fresh stored sample serves any
     * message, here one to another endpoint: the stored AD0 sample keeps
     * AD3, as it did for m above */
    start_on_ad3(&a, &p, &m, &c);
    s = &a.nic[0];
    ad0 = &s->stored[AWR_LOW_STALLS];
    struct awr_msg other_dst = msg(0, 2, 192);
    CHECK_EQ_U(awr_select(&a, &other_dst), M3);
    CHECK_EQ_U(ad0->fresh, 4);
    CHECK_EQ_U(s->st.stored_used, 1);
    awr_free(&a);

    /* The authors' library (same_message): endpoint or size not the stored
     * ones: the estimate (AD0), though fresh; freshness still decremented.
     * Same start, decision 1 to AD3. */
    p.same_message = true;
    start_on_ad3(&a, &p, &m, &c);
    s = &a.nic[0];
    ad0 = &s->stored[AWR_LOW_STALLS];
    CHECK_EQ_U(awr_select(&a, &other_dst), M0);
    CHECK_EQ_U(ad0->fresh, 4);
    CHECK_EQ_U(s->st.stored_used, 0);
    /* the same start again, then a size that differs: 193 B, f = 15.08
     * (the estimate says AD0 for it, the stored sample would say AD3) */
    awr_free(&a);
    start_on_ad3(&a, &p, &m, &c);
    s = &a.nic[0];
    ad0 = &s->stored[AWR_LOW_STALLS];
    struct awr_msg other_size = msg(0, 1, 193);
    CHECK_EQ_U(awr_select(&a, &other_size), M0);
    CHECK_EQ_U(ad0->fresh, 4);
    CHECK_EQ_U(s->st.stored_used, 0);
    awr_free(&a);

    /* max_freshness is a parameter: 1 means a stored sample is never
     * used (decremented to 0 before the test, as in the library) */
    p.max_freshness = 1;
    start_on_ad3(&a, &p, &m, &c);
    s = &a.nic[0];
    CHECK_EQ_U(awr_select(&a, &m), M0);
    CHECK_EQ_U(s->st.stored_used, 0);
    awr_free(&a);
}

/* ---- end to end --------------------------------------------------------- */

static int add_mode(struct net *n, const char *name)
{
    const struct reg_entry *e = registry_find(&routing_registry, name);
    CHECK(e != NULL);
    return e ? net_add_mode(n, (const struct routing *)e) : -1;
}

static uint64_t counter(struct net *n, uint32_t nic, const char *name)
{
    struct ctr_ref r;
    if (ctr_find(n, n->t->nics[nic].router, nic, name, &r) != 0)
        return UINT64_MAX;
    return ctr_value(n, &r);
}

/* Post message m through the controller and the network. */
static uint8_t post(struct awr *a, struct net *n, const struct awr_msg *m)
{
    uint8_t mode = awr_select(a, m);
    CHECK(net_send(n, m->nic, m->dst_nic, m->get ? NET_GET : NET_PUT,
                   (uint32_t)m->bytes, mode, 0) != NET_NONE);
    awr_sent(a, m, mode);
    return mode;
}

/* xc-12cab with counters: init resolves the five counters of every NIC;
 * an incast of 24 x 64 KiB PUTs, posted through the controller, gives
 * every sender a sample from non-zero deltas (L as the counters say,
 * stalls at the senders in the destination's group) and then decisions. */
static void test_awr_end_to_end(void)
{
    struct mpi_h h;
    CHECK(mpi_h_setup(&h, "xc-12cab", true) == 0);
    int ad1 = add_mode(&h.n, "ADAPTIVE_1");
    int ad3 = add_mode(&h.n, "ADAPTIVE_3");
    CHECK(strcmp(h.n.modes[0]->base.name, "ADAPTIVE_0") == 0);
    CHECK(ad1 > 0 && ad3 > 0);
    struct awr_params p;
    awr_defaults(&p);
    struct awr a;
    char err[256] = "";
    CHECK(awr_init(&a, &p, &h.n, 0, (uint8_t)ad1, (uint8_t)ad3, err,
                   sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "  %s\n", err);
    CHECK_EQ_U(a.n_nics, h.n.n_nics);
    /* the references: NIC counters of each NIC, in awr_counters order */
    /* RSP_STALLED: the ORB's inbound responses (net/counters.h) */
    static const uint8_t regs[AWR_NCTR] = { CTR_NIC_FLITS, CTR_NIC_STALLED,
                                            CTR_NIC_RSP_IN_STALLED,
                                            CTR_NIC_NET_TRACK,
                                            CTR_NIC_TRACK_NET };
    static const uint8_t cls[AWR_NCTR] = { 0, 0, 0, 0, 0 };
    for (uint32_t i = 0; i < a.n_nics; i += 97)
        for (int k = 0; k < AWR_NCTR; k++) {
            const struct ctr_ref *r = &a.ref[(size_t)i * AWR_NCTR + k];
            CHECK_EQ_U(r->reg, regs[k]);
            CHECK_EQ_U(r->cls, cls[k]);
            CHECK_EQ_U(r->obj, i);
        }

    uint32_t dst = 0, rd = h.t.nics[dst].router;
    uint32_t step = h.t.n_nics / 24;
    /* a small message first: AD3, no read */
    struct awr_msg small = msg(step - 1, dst, 1000);
    CHECK_EQ_U(post(&a, &h.n, &small), ad3);
    CHECK_EQ_U(a.nic[step - 1].st.reads, 0);
    /* the incast: over the cutoff, no sample yet: the last mode (AD3 for
     * the first sender, AD0 for the others); the reads are baselines */
    struct awr_counters base[25];
    for (uint32_t i = 1; i <= 24; i++) {
        struct awr_msg m = msg(i * step - 1, dst, 64 * 1024);
        uint8_t mode = post(&a, &h.n, &m);
        CHECK_EQ_U(mode, i == 1 ? (unsigned)ad3 : 0u);
        CHECK_EQ_U(a.nic[m.nic].st.reads, 1);
        CHECK(a.nic[m.nic].have_prev);
        CHECK(!a.nic[m.nic].have_sample);
        base[i] = a.nic[m.nic].prev;
    }
    sim_run(&h.s, SIMTIME_MAX);
    /* a second message each: its read gives the sample of the first */
    uint32_t stalled = 0, local = 0;
    for (uint32_t i = 1; i <= 24; i++) {
        uint32_t nic = i * step - 1;
        struct awr_msg m = msg(nic, dst, 8192);
        post(&a, &h.n, &m);
        const struct awr_nic *s = &a.nic[nic];
        CHECK_EQ_U(s->st.reads, 2);
        CHECK_EQ_U(s->st.samples, 1);
        CHECK(s->have_sample);
        /* the read is the counters at this instant */
        uint64_t fl = counter(&h.n, nic,
                              "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS");
        uint64_t st = counter(&h.n, nic,
                              "AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_STALLED");
        uint64_t rs = counter(&h.n, nic,
                              "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_STALLED");
        uint64_t tk = counter(&h.n, nic,
                              "AR_NIC_NETMON_ORB_EVENT_CNTR_RSP_NET_TRACK");
        uint64_t t2 = counter(&h.n, nic, "AR_NIC_ORB_PRF_NET_RSP_TRACK_2");
        CHECK_EQ_U(s->prev.req_flits, fl);
        CHECK_EQ_U(s->prev.req_stalled, st);
        CHECK_EQ_U(s->prev.rsp_stalled, rs);
        CHECK_EQ_U(s->prev.rsp_net_track, tk);
        CHECK_EQ_U(s->prev.rsp_track2, t2);
        /* non-zero deltas: the 64 KiB are in them (1024 packets of 5
         * NIC flits, each answered) */
        const struct awr_counters *b = &base[i];
        CHECK(fl - b->req_flits >= 1024u * 5);
        CHECK(tk - b->rsp_net_track >= 1024);
        CHECK(t2 > b->rsp_track2);
        /* the sample is those deltas, by hand */
        double l = (double)(t2 - b->rsp_track2) /
                   (double)(tk - b->rsp_net_track) * 1.25e-3;
        double sr = ((double)(st - b->req_stalled) -
                     (double)(rs - b->rsp_stalled)) /
                    (double)(fl - b->req_flits) * 1.25e-3;
        CHECK_NEAR(s->lat_us, l, 1e-9 * l);
        CHECK_NEAR(s->stall_us, sr > 0 ? sr : 0, 1e-12);
        /* quiet Aries L is about 500 cycles (0.64 us); an incast is
         * slower, well below a millisecond */
        CHECK(s->lat_us > 0.5 && s->lat_us < 1000);
        if (h.t.routers[h.t.nics[nic].router].group ==
            h.t.routers[rd].group) {
            local++;
            stalled += s->stall_us > 0;
        }
    }
    fprintf(stderr, "  awr e2e: %u of the %u senders in the destination's "
            "group saw stalls; sender 1: L = %.2f us, s = %.2g us/flit\n",
            stalled, local, a.nic[step - 1].lat_us,
            a.nic[step - 1].stall_us);
    CHECK(local >= 1);
    CHECK(stalled >= 1);
    /* third messages: Algorithm 1 runs on every sender */
    for (uint32_t i = 1; i <= 24; i++) {
        struct awr_msg m = msg(i * step - 1, dst, 64 * 1024);
        uint8_t mode = post(&a, &h.n, &m);
        CHECK(mode == 0 || mode == (uint8_t)ad3);
        CHECK_EQ_U(a.nic[m.nic].st.decisions, 1);
    }
    sim_run(&h.s, SIMTIME_MAX);
    struct awr_stats tot;
    awr_totals(&a, &tot);
    CHECK_EQ_U(tot.decisions, 24);
    CHECK_EQ_U(tot.reads, 24 * 3);
    CHECK_EQ_U(tot.msgs[AWR_AD0] + tot.msgs[AWR_AD1] + tot.msgs[AWR_AD3],
               1 + 24 * 3);
    CHECK_EQ_U(tot.bytes[AWR_AD0] + tot.bytes[AWR_AD1] + tot.bytes[AWR_AD3],
               1000 + 24 * (2 * 65536 + 8192));
    CHECK_EQ_U(tot.below_cutoff, 1);
    CHECK_EQ_U(h.n.st.msgs_done, 1 + 24 * 3);
    awr_free(&a);

    /* errors: a mode that is not configured */
    CHECK(awr_init(&a, &p, &h.n, 0, (uint8_t)ad1, 7, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "routing mode 7 is not configured");
    p.factor_lat = 0;
    CHECK(awr_init(&a, &p, &h.n, 0, (uint8_t)ad1, (uint8_t)ad3, err,
                   sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "scaling factors");
    awr_free(&a); /* harmless after a failed init */
    mpi_h_teardown(&h);

    /* errors: no counters kept */
    CHECK(mpi_h_setup(&h, "xc-12cab", false) == 0);
    awr_defaults(&p);
    CHECK(awr_init(&a, &p, &h.n, 0, 0, 0, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "net_params.counters");
    mpi_h_teardown(&h);

    /* another family's NICs (Slingshot): the same five counters by their
     * meanings, the library's cycle-to-microsecond factor scaled from
     * Aries' 800 MHz to the Cassini counters' 1 GHz; on Aries it stays
     * the library's own, to the bit */
    CHECK(mpi_h_setup(&h, "malbec", true) == 0);
    CHECK(awr_init(&a, &p, &h.n, 0, 0, 0, err, sizeof err) == 0);
    CHECK(a.p.cycles_to_us == p.cycles_to_us * 0.8);
    net_send(&h.n, 0, h.t.n_nics - 1, NET_PUT, 8192, 0, 0);
    sim_run(&h.s, SIMTIME_MAX);
    struct awr_counters c;
    awr_read(&a, 0, &c);
    struct ctr_ref ref;
    CHECK(ctr_find(&h.n, h.t.nics[0].router, 0, "NIC_REQ_FLITS", &ref) ==
          0);
    CHECK(c.req_flits > 0 && c.req_flits == ctr_value(&h.n, &ref));
    CHECK(ctr_find(&h.n, h.t.nics[0].router, 0, "pct_responses_received",
                   &ref) == 0); /* Cassini's name (net/counters.c) */
    CHECK(c.rsp_net_track == 2 && c.rsp_net_track == ctr_value(&h.n, &ref));
    awr_free(&a);
    mpi_h_teardown(&h);
    CHECK(mpi_h_setup(&h, "xc-12cab", true) == 0);
    CHECK(awr_init(&a, &p, &h.n, 0, 0, 0, err, sizeof err) == 0);
    CHECK(a.p.cycles_to_us == p.cycles_to_us);
    awr_free(&a);
    mpi_h_teardown(&h);
}

const struct test_case tests_awr[] = {
    TEST(test_awr_defaults),
    TEST(test_awr_flits_alpha),
    TEST(test_awr_sample),
    TEST(test_awr_first_read_skipped),
    TEST(test_awr_decide_threshold),
    TEST(test_awr_decide_estimates),
    TEST(test_awr_decide_zero_division),
    TEST(test_awr_decide_negative_denominator),
    TEST(test_awr_cutoff),
    TEST(test_awr_smsg_alltoall),
    TEST(test_awr_freshness),
    TEST(test_awr_end_to_end),
    { 0 },
};
