/* core/time.c — see time.h. The conversions are inline there; this file
 * holds what is not on the hot path: printing a time for people. The printed
 * value is exact (integer arithmetic only), so a log line never disagrees
 * with the picosecond count it came from. */
#include "core/time.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

double time_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *time_format(char *buf, size_t cap, simtime t)
{
    static const struct {
        simtime scale; /* picoseconds in one unit */
        int digits;    /* decimal digits of the remainder */
        const char *name;
    } units[] = {
        { SIMTIME_S, 12, "s" },
        { SIMTIME_MS, 9, "ms" },
        { SIMTIME_US, 6, "us" },
        { SIMTIME_NS, 3, "ns" },
    };

    if (!cap)
        return buf;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (t < units[i].scale)
            continue;
        uint64_t whole = t / units[i].scale, frac = t % units[i].scale;
        int digits = units[i].digits;
        if (frac == 0) {
            snprintf(buf, cap, "%" PRIu64 " %s", whole, units[i].name);
            return buf;
        }
        while (frac % 10 == 0) { /* strip trailing zeros */
            frac /= 10;
            digits--;
        }
        snprintf(buf, cap, "%" PRIu64 ".%0*" PRIu64 " %s", whole, digits,
                 frac, units[i].name);
        return buf;
    }
    snprintf(buf, cap, "%" PRIu64 " ps", t);
    return buf;
}
