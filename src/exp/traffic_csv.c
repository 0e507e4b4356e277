/* exp/traffic_csv.c — traffic.csv's rows, written and read back (for
 * --resume): traffic_csv_header, traffic_csv_row, traffic_csv_parse
 * (traffic.h). */
#include "exp/traffic.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void traffic_csv_header(FILE *out)
{
    fprintf(out, "routing,pattern,load,offered,accepted,packets,lat_mean_ns,"
                 "lat_median_ns,lat_p99_ns,lat_max_ns,hops_mean,"
                 "frac_minimal,drained,deadlock,events,hash,refused,"
                 "saturated,backlog,fill_ns,steady\n");
}

void traffic_csv_row(FILE *out, const char *routing, const char *pattern,
                     double load, const struct traffic_result *r)
{
    fprintf(out, "%s,%s,%.*f,%.6f,%.6f,%" PRIu64 ",", routing, pattern,
            TRAFFIC_LOAD_DECIMALS, load, r->offered, r->accepted,
            r->packets);
    if (r->packets)
        fprintf(out, "%.3f,%.0f,%.0f,%.3f,%.4f,%.6f,", r->lat_mean_ns,
                r->lat_median_ns, r->lat_p99_ns, r->lat_max_ns, r->hops_mean,
                1.0 - r->frac_nonmin);
    else
        fputs(",,,,,,", out); /* nothing measured: no latency */
    fprintf(out,
            "%d,%d,%" PRIu64 ",%016" PRIx64 ",%" PRIu64 ",%d,%.4f,%.1f,%d\n",
            r->drained ? 1 : 0, r->deadlock ? 1 : 0, r->events, r->hash,
            r->refused, r->saturated ? 1 : 0, r->backlog, r->fill_ns,
            r->steady ? 1 : 0);
}

/* The next comma-separated field of *p as a double (an empty field: 0,
 * *empty set); advances *p past the comma. -1 if it is not a number. */
static int field_double(const char **p, double *v, bool *empty)
{
    const char *s = *p;
    if (*s == ',') {
        *v = 0;
        *empty = true;
        *p = s + 1;
        return 0;
    }
    char *end;
    *v = strtod(s, &end);
    if (end == s || *end != ',')
        return -1;
    *p = end + 1;
    return 0;
}

int traffic_csv_parse(const char *line, const char *routing,
                      const char *pattern, double load,
                      struct traffic_result *r)
{
    char head[256];
    int k = snprintf(head, sizeof head, "%s,%s,%.*f,", routing, pattern,
                     TRAFFIC_LOAD_DECIMALS, load);
    if (k <= 0 || (size_t)k >= sizeof head ||
        strncmp(line, head, (size_t)k) != 0)
        return -1;
    memset(r, 0, sizeof *r);
    int end = -1;
    if (sscanf(line + k, "%lf,%lf,%" SCNu64 ",%n", &r->offered,
               &r->accepted, &r->packets, &end) != 3 ||
        end < 0)
        return -1;
    const char *p = line + k + end;
    double minimal = 0;
    double *lat[6] = { &r->lat_mean_ns, &r->lat_median_ns, &r->lat_p99_ns,
                       &r->lat_max_ns, &r->hops_mean, &minimal };
    for (int i = 0; i < 6; i++) {
        bool empty = false;
        if (field_double(&p, lat[i], &empty) != 0 ||
            empty != (r->packets == 0))
            return -1;
    }
    int drained = 0, deadlock = 0, saturated = 0, steady = 0;
    end = -1;
    if (sscanf(p,
               "%d,%d,%" SCNu64 ",%" SCNx64 ",%" SCNu64 ",%d,%lf,%lf,%d%n",
               &drained, &deadlock, &r->events, &r->hash, &r->refused,
               &saturated, &r->backlog, &r->fill_ns, &steady, &end) != 9 ||
        end < 0 || strcmp(p + end, "\n") != 0)
        return -1;
    r->frac_nonmin = r->packets ? 1.0 - minimal : 0.0;
    r->drained = drained != 0;
    r->deadlock = deadlock != 0;
    r->saturated = saturated != 0;
    r->steady = steady != 0;
    return 0;
}
