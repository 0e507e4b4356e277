/* cli/cli_counters.c — `dfsim counters SYSTEM [--router R] [--nic N]`:
 * list the hardware counters of one router's tiles and one NIC by the
 * names dfsim reads them under (net/counters.h), with unit and meaning —
 * what `gpcd`'s and PAPI's users look up before adding counters to a
 * context, and what the sampling section's metric lists take. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sim.h"
#include "net/counters.h"
#include "net/net.h"
#include "topo/topo.h"
#include "ctl/cc.h"
#include "route/route.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dfsim counters SYSTEM [--router R] [--nic N] [--list]\n\n"
            "List the hardware counters of router R's tiles (default 0) "
            "and of NIC N\n(default: the first NIC on router R), one per "
            "line: name, unit, what it\ncounts (src/net/counters.h, "
            "docs/counters.md). --list is the default action.\n\n"
            "  --router R   router id (0 .. routers-1; `dfsim topo SYSTEM` "
            "counts them)\n"
            "  --nic N      NIC id; its router is listed unless --router "
            "is given too,\n               which must then be the NIC's\n");
}

/* The columns are as wide as the longest name and unit (a first pass
 * measures them: Aries has names of 52 characters), and never narrower
 * than these. */
enum { NAME_MIN = 48, UNIT_MIN = 18 };

struct lister {
    const struct net *n;
    size_t count;
    int name_w, unit_w; /* column widths */
};

static void measure_one(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct lister *l = ctx;
    const char *unit;
    (void)ctr_describe(l->n, r, &unit);
    int n = (int)strlen(name), u = (int)strlen(unit);
    if (n > l->name_w)
        l->name_w = n;
    if (u > l->unit_w)
        l->unit_w = u;
}

static void print_one(void *ctx, const char *name, const struct ctr_ref *r)
{
    struct lister *l = ctx;
    const char *unit;
    const char *what = ctr_describe(l->n, r, &unit);
    printf("%-*s %-*s %s\n", l->name_w, name, l->unit_w, unit, what);
    l->count++;
}

static int id_arg(const char *opt, const char *s, uint32_t limit,
                  uint32_t *out)
{
    unsigned long long v;
    if (cli_parse_u64(s, &v) != 0 || v >= limit) {
        fprintf(stderr,
                "dfsim counters: %s \"%s\": expected an id from 0 to %u\n",
                opt, s, limit ? limit - 1 : 0);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int cli_counters(int argc, char **argv)
{
    const char *name = NULL, *router_s = NULL, *nic_s = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--list") == 0) {
            continue;
        } else if ((strcmp(argv[i], "--router") == 0 ||
                    strcmp(argv[i], "--nic") == 0)) {
            if (i + 1 == argc) {
                fprintf(stderr, "dfsim counters: %s expects an id\n",
                        argv[i]);
                usage(stderr);
                return 2;
            }
            *(argv[i][2] == 'r' ? &router_s : &nic_s) = argv[i + 1];
            i++;
        } else if (argv[i][0] == '-' || name) {
            fprintf(stderr, "dfsim counters: unexpected argument \"%s\"\n",
                    argv[i]);
            usage(stderr);
            return 2;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        fprintf(stderr, "dfsim counters: expected a system name\n");
        usage(stderr);
        return 2;
    }
    struct diag d;
    diag_init(&d);
    struct topo t;
    if (topo_build_system(&t, name, &d) != 0)
        return 1;
    int rc = 2;
    uint32_t router = 0, nic = TOPO_NONE;
    if ((router_s && id_arg("--router", router_s, t.n_routers, &router)) ||
        (nic_s && id_arg("--nic", nic_s, t.n_nics, &nic)))
        goto out_topo;
    if (nic != TOPO_NONE) {
        if (!router_s)
            router = t.nics[nic].router;
        else if (t.nics[nic].router != router) {
            fprintf(stderr, "dfsim counters: NIC %u sits on router %u, not "
                    "on router %u\n", nic, t.nics[nic].router, router);
            goto out_topo;
        }
    } else {
        for (uint32_t c = 0; c < t.n_nics && nic == TOPO_NONE; c++)
            if (t.nics[c].router == router)
                nic = c;
    }

    rc = 1;
    struct sim s;
    struct net n;
    struct net_params p;
    cc_net_defaults(&p, &t);
    p.counters = true;
    if (sim_init(&s, EVQ_DEFAULT, net_entities(&t)) != 0) {
        fprintf(stderr, "dfsim counters: out of memory\n");
        sim_free(&s);
        goto out_topo;
    }
    if (net_init(&n, &t, &p, &s, 0, &d) == 0) {
        char rn[64], nn[64] = "none";
        if (nic != TOPO_NONE)
            topo_node_name(&t, t.nics[nic].node, nn, sizeof nn);
        printf("# %s: router %u (%s)", name, router,
               topo_router_name(&t, router, rn, sizeof rn));
        if (nic != TOPO_NONE)
            printf(", NIC %u of node %s", nic, nn);
        struct lister l = { .n = &n, .name_w = NAME_MIN,
                            .unit_w = UNIT_MIN };
        ctr_names(&n, router, nic, nic != TOPO_NONE, true, measure_one, &l);
        printf("\n# %-*s %-*s %s\n", l.name_w - 2, "name", l.unit_w, "unit",
               "counts");
        ctr_names(&n, router, nic, nic != TOPO_NONE, true, print_one, &l);
        printf("# %zu counters\n", l.count);
        net_free(&n);
        rc = 0;
    }
    sim_free(&s);
out_topo:
    topo_free(&t);
    return rc;
}
