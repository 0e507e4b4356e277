/* tests/test_time.c — core/time: picosecond clock conversions.
 *
 * The checks compare against the defining inequalities (what "rounded to
 * nearest", "floor" and "ceil" mean, evaluated in 128-bit integers) rather
 * than against values copied from the implementation, plus a few numbers
 * worked out by hand from the papers' clocks. */
#include "test.h"

#include "core/rng.h"
#include "core/time.h"

/* |from * hz - cycles * 10^12| <= hz / 2: the definition of rounding to
 * the nearest picosecond. */
static int is_nearest(simtime from, uint64_t cycles, uint64_t hz)
{
    time_u128 exact = (time_u128)cycles * TIME_PS_PER_S;
    time_u128 got = (time_u128)from * hz;
    time_u128 err = got > exact ? got - exact : exact - got;
    return 2 * err <= hz;
}

static void test_time_units(void)
{
    CHECK_EQ_U(SIMTIME_NS, 1000 * SIMTIME_PS);
    CHECK_EQ_U(SIMTIME_US, 1000 * SIMTIME_NS);
    CHECK_EQ_U(SIMTIME_MS, 1000 * SIMTIME_US);
    CHECK_EQ_U(SIMTIME_S, 1000 * SIMTIME_MS);
    CHECK_EQ_U(TIME_PS_PER_S, SIMTIME_S);
    /* The clocks of the papers (white paper "Aries Performance"; Pedretti
     * et al. Table I). */
    CHECK_EQ_U(TIME_HZ_ARIES_NIC, 800000000);
    CHECK_EQ_U(TIME_HZ_ARIES_ROUTER, 875000000);
    CHECK_EQ_U(TIME_HZ_GEMINI, 800000000);
}

static void test_time_875mhz_no_drift(void)
{
    const uint64_t hz = TIME_HZ_ARIES_ROUTER;
    /* One second of cycles is exactly one second. */
    CHECK_EQ_U(time_from_cycles(875000000, hz), SIMTIME_S);
    /* 7 cycles at 875 MHz = 7 / 0.875 ns = 8 ns, exactly. */
    CHECK_EQ_U(time_from_cycles(7, hz), 8000);
    /* One cycle is 1142.857.. ps: rounds to 1143. */
    CHECK_EQ_U(time_from_cycles(1, hz), 1143);
    /* A rounded period accumulated would drift: 875e6 * 1143 ps is 0.15 ms
     * too long. The helper does not, at any offset: 7 more cycles are
     * always exactly 8000 ps more, and every value is the nearest ps. */
    CHECK(875000000ull * time_from_cycles(1, hz) != SIMTIME_S);
    int bad_step = 0, bad_round = 0;
    for (uint64_t n = 0; n < 200000; n++) {
        if (time_from_cycles(n + 7, hz) - time_from_cycles(n, hz) != 8000)
            bad_step++;
        if (!is_nearest(time_from_cycles(n, hz), n, hz))
            bad_round++;
    }
    CHECK_EQ_U(bad_step, 0);
    CHECK_EQ_U(bad_round, 0);
    /* 800 MHz has an exact period of 1250 ps. */
    CHECK_EQ_U(time_from_cycles(1, TIME_HZ_ARIES_NIC), 1250);
    CHECK_EQ_U(time_from_cycles(800000000, TIME_HZ_GEMINI), SIMTIME_S);
}

static void test_time_round_trip(void)
{
    const uint64_t clocks[] = { TIME_HZ_ARIES_NIC, TIME_HZ_ARIES_ROUTER,
                                TIME_HZ_GEMINI, 1000000, 3, 999999937 };
    struct rng r = rng_stream(1, RNG_TEST, 0);
    int bad_cycles = 0, bad_bracket = 0;
    for (size_t c = 0; c < sizeof clocks / sizeof clocks[0]; c++) {
        uint64_t hz = clocks[c];
        /* Counts whose duration fits in 64 bits: < hz * 10^7 (10^19 ps). */
        uint64_t lim = hz < 100000000 ? hz * 10000000 : 1000000000000000ull;
        for (int i = 0; i < 20000; i++) {
            /* Small counts densely, then random ones up to 1e15. */
            uint64_t n = i < 10000 ? (uint64_t)i : rng_u64(&r) % lim;
            if (time_to_cycles(time_from_cycles(n, hz), hz) != n)
                bad_cycles++;
            /* Any time lies between the edge of the cycle count it maps to
             * and the next edge. */
            simtime t = i < 10000 ? (simtime)i
                                  : rng_u64(&r) % (SIMTIME_S * 1000);
            uint64_t k = time_to_cycles(t, hz);
            if (!(time_from_cycles(k, hz) <= t &&
                  t < time_from_cycles(k + 1, hz)))
                bad_bracket++;
        }
    }
    CHECK_EQ_U(bad_cycles, 0);
    CHECK_EQ_U(bad_bracket, 0);
    /* Between edges, the count is of completed cycles: 8 ns at 875 MHz is
     * 7 cycles, 1 ps earlier only 6. */
    CHECK_EQ_U(time_to_cycles(8000, TIME_HZ_ARIES_ROUTER), 7);
    CHECK_EQ_U(time_to_cycles(7999, TIME_HZ_ARIES_ROUTER), 6);
    CHECK_EQ_U(time_to_cycles(SIMTIME_S, TIME_HZ_ARIES_ROUTER), 875000000);
}

static void test_time_serialize(void)
{
    /* 64 bytes on a 5.25 GB/s Aries link: 64e12 / 5.25e9 = 12190.48 ps,
     * rounded up: the link is busy until the last byte is out. */
    simtime s = time_serialize(64, 5250000000ull);
    CHECK_EQ_U(s, 12191);
    CHECK((time_u128)s * 5250000000ull >= (time_u128)64 * TIME_PS_PER_S);
    CHECK((time_u128)(s - 1) * 5250000000ull < (time_u128)64 * TIME_PS_PER_S);
    /* A 48-bit flit at 5.25 GB/s is one 875 MHz cycle (rounded up). */
    CHECK_EQ_U(time_serialize(6, 5250000000ull), 1143);
    CHECK_EQ_U(time_serialize(5250000000ull, 5250000000ull), SIMTIME_S);
    CHECK_EQ_U(time_serialize(0, 5250000000ull), 0);
    CHECK_EQ_U(time_serialize(1, 1000000000000ull), 1);
    /* The ceiling, against its definition, for random sizes and rates,
     * including sizes that need the 128-bit path. */
    struct rng r = rng_stream(2, RNG_TEST, 0);
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t bytes = i % 2 ? rng_u64(&r) % 100000
                               : rng_u64(&r) % (1ull << 40);
        uint64_t bps = 1 + rng_u64(&r) % 100000000000ull;
        simtime t = time_serialize(bytes, bps);
        time_u128 need = (time_u128)bytes * TIME_PS_PER_S;
        if (!((time_u128)t * bps >= need &&
              (t == 0 || (time_u128)(t - 1) * bps < need)))
            bad++;
    }
    CHECK_EQ_U(bad, 0);
}

static void test_time_overflow_free(void)
{
    /* 10^15 cycles overflow 64 bits when multiplied by 10^12; the helpers
     * must still be exact. At 800 MHz: 1.25e18 ps exactly. */
    const uint64_t n = 1000000000000000ull;
    CHECK_EQ_U(time_from_cycles(n, TIME_HZ_GEMINI), 1250000000000000000ull);
    simtime t = time_from_cycles(n, TIME_HZ_ARIES_ROUTER);
    CHECK(is_nearest(t, n, TIME_HZ_ARIES_ROUTER));
    CHECK(t / SIMTIME_S == 1142857); /* 1e15 / 875e6 s = 1142857.14 s */
    CHECK_EQ_U(time_to_cycles(t, TIME_HZ_ARIES_ROUTER), n);
    CHECK_EQ_U(time_to_cycles(UINT64_MAX, 1000000000000ull), UINT64_MAX);
    CHECK_EQ_U(time_serialize(n, 1000000000000000ull), SIMTIME_S);
}

static void test_time_seconds_and_format(void)
{
    CHECK_NEAR(time_to_seconds(SIMTIME_S + SIMTIME_S / 2), 1.5, 0);
    CHECK_NEAR(time_to_seconds(12191), 12191e-12, 1e-24);
    char b[32];
    CHECK(strcmp(time_format(b, sizeof b, 0), "0 ps") == 0);
    CHECK(strcmp(time_format(b, sizeof b, 812), "812 ps") == 0);
    CHECK(strcmp(time_format(b, sizeof b, 12191), "12.191 ns") == 0);
    CHECK(strcmp(time_format(b, sizeof b, 8000), "8 ns") == 0);
    CHECK(strcmp(time_format(b, sizeof b, 1500 * SIMTIME_MS), "1.5 s") == 0);
    CHECK(strcmp(time_format(b, sizeof b, SIMTIME_US + 1), "1.000001 us")
          == 0);
    CHECK(strcmp(time_format(b, sizeof b, 3 * SIMTIME_MS + 40 * SIMTIME_US),
                 "3.04 ms") == 0);
    char tiny[4];
    time_format(tiny, sizeof tiny, 12191);
    CHECK(strlen(tiny) == 3); /* truncated, still terminated */
}

const struct test_case tests_time[] = {
    TEST(test_time_units),
    TEST(test_time_875mhz_no_drift),
    TEST(test_time_round_trip),
    TEST(test_time_serialize),
    TEST(test_time_overflow_free),
    TEST(test_time_seconds_and_format),
    { 0 },
};
