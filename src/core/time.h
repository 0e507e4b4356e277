/* core/time.h — simulated time: an integer count of picoseconds.
 *
 * What is modelled: the one clock of the simulation (DESIGN.md §2). Every
 * timestamp, delay and duration is a `simtime`, an unsigned 64-bit count of
 * picoseconds; 2^64 ps is about 213 days of simulated time, far beyond any
 * run. Hardware clocks (Aries NIC 800 MHz, Aries router 875 MHz, Gemini
 * 800 MHz) are not whole numbers of picoseconds per cycle (1/875 MHz =
 * 1142.857... ps), so a cycle count is never converted by multiplying with a
 * rounded period — that drifts by 0.857 ps per cycle, 0.75 ns per
 * microsecond. Conversions go through this one helper family instead, which
 * computes on the whole count with a 128-bit intermediate.
 *
 * Invariant: time_from_cycles(n, hz) is the exact value n * 10^12 / hz
 * rounded to the nearest picosecond (ties up), for every n whose result fits
 * in 64 bits; so n cycles and n + m cycles differ by the rounded value of m
 * cycles to within 1 ps, whatever n is (no accumulated drift).
 * time_to_cycles is its exact inverse on that grid (the cycles *completed*
 * by time t, so it rounds down between edges); time_serialize rounds up (a
 * link is busy until the last byte has left it).
 *
 * The conversions are inline: serialization time is computed for every
 * packet hop. When the product fits in 64 bits (always, for packet sizes and
 * cycle counts below about 1.8e7) they use one 64-bit division; otherwise a
 * 128-bit one.
 */
#ifndef DFSIM_TIME_H
#define DFSIM_TIME_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t simtime; /* picoseconds since the start of the run */

__extension__ typedef unsigned __int128 time_u128; /* gcc/clang extension */

#define SIMTIME_PS ((simtime)1)
#define SIMTIME_NS ((simtime)1000)
#define SIMTIME_US ((simtime)1000000)
#define SIMTIME_MS ((simtime)1000000000)
#define SIMTIME_S ((simtime)1000000000000)
#define SIMTIME_MAX UINT64_MAX /* "never"; also the `until` of an open run */

/* Named clocks, in Hz. Always pass these (or a configured value) to the
 * helpers below; never write a cycle period in picoseconds.
 *
 * Aries NIC: "The Aries NIC can perform a 64-byte read or write every five
 * cycles (10.2 GB/s at 800MHz)" — Alverson et al., Cray XC Series Network
 * (Cray white paper WP-Aries01-1112), section "Aries Performance".
 * Aries router: "Each processor tile can inject a 48-bit flit per clock
 * cycle — at 875 MHz this equates to 5.25 GB/s" — same paper and section.
 * Gemini router: "Count of output stall cycles (router operates at
 * 800 MHz)" — Pedretti et al., Using the Cray Gemini Performance Counters
 * (CUG 2013), Table I (GM_TILE_PERF_CREDIT_STALL). */
#define TIME_HZ_ARIES_NIC UINT64_C(800000000)
#define TIME_HZ_ARIES_ROUTER UINT64_C(875000000)
#define TIME_HZ_GEMINI UINT64_C(800000000)

/* The picoseconds in one second, as the numerator of every conversion. */
#define TIME_PS_PER_S UINT64_C(1000000000000)

/* Duration of `cycles` cycles of a clock of `hz` Hz: cycles * 10^12 / hz
 * rounded to the nearest picosecond. hz must be > 0 and the result must fit
 * in a simtime (asserted); 10^15 cycles of any clock of 1 MHz or more do. */
static inline simtime time_from_cycles(uint64_t cycles, uint64_t hz)
{
    assert(hz > 0);
    if (cycles <= (UINT64_MAX - hz / 2) / TIME_PS_PER_S)
        return (cycles * TIME_PS_PER_S + hz / 2) / hz;
    time_u128 r = ((time_u128)cycles * TIME_PS_PER_S + hz / 2) / hz;
    assert(r <= UINT64_MAX);
    return (simtime)r;
}

/* Cycles of a clock of `hz` Hz completed at time t: the number of clock
 * edges n >= 1 with time_from_cycles(n, hz) <= t. This is the floor of the
 * cycle count *on the same rounded grid* that time_from_cycles produces,
 * floor((t * hz + ceil(hz / 2) - 1) / 10^12), rather than floor(t * hz /
 * 10^12) of the unrounded grid: the two differ at an edge that
 * time_from_cycles rounded down (at 875 MHz, edge 5 is at 5714 ps while
 * 5 * 1142.857 = 5714.29), and only the former makes the pair consistent:
 * time_to_cycles(time_from_cycles(n, hz), hz) == n for every n, and
 * time_from_cycles(c, hz) <= t < time_from_cycles(c + 1, hz) for
 * c = time_to_cycles(t, hz). hz must be in (0, 10^12]. */
static inline uint64_t time_to_cycles(simtime t, uint64_t hz)
{
    assert(hz > 0 && hz <= TIME_PS_PER_S);
    uint64_t bias = hz - hz / 2 - 1; /* ceil(hz / 2) - 1 */
    if (t <= (UINT64_MAX - bias) / hz)
        return (t * hz + bias) / TIME_PS_PER_S;
    return (uint64_t)(((time_u128)t * hz + bias) / TIME_PS_PER_S);
}

/* Time to push `bytes` bytes through a link of `bytes_per_s` bytes per
 * second: ceil(bytes * 10^12 / bytes_per_s). bytes_per_s must be > 0. A zero
 * byte transfer takes zero time. */
static inline simtime time_serialize(uint64_t bytes, uint64_t bytes_per_s)
{
    assert(bytes_per_s > 0);
    if (bytes <= (UINT64_MAX - bytes_per_s) / TIME_PS_PER_S)
        return (bytes * TIME_PS_PER_S + bytes_per_s - 1) / bytes_per_s;
    time_u128 r = ((time_u128)bytes * TIME_PS_PER_S + bytes_per_s - 1) /
                  bytes_per_s;
    assert(r <= UINT64_MAX);
    return (simtime)r;
}

/* Seconds, for reports and rates (never fed back into the model). */
static inline double time_to_seconds(simtime t)
{
    return (double)t / (double)TIME_PS_PER_S;
}

/* Write t in a human unit ("0 ps", "812 ps", "12.191 ns", "1.500000 s"
 * style: the largest unit in which the value is >= 1, with the exact
 * remainder as decimals, trailing zeros removed) into buf, NUL-terminated
 * and truncated to cap bytes. Returns buf, so it can be used as a printf
 * argument. For logs and diagnostics; results files use integer ps. */
const char *time_format(char *buf, size_t cap, simtime t);

/* Seconds of the host's monotonic clock: wall time, for progress lines
 * and benchmarks only, never in results (they are a function of the
 * input and seed alone). */
double time_wall_seconds(void);

#endif
