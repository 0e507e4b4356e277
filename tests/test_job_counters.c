/* tests/test_job_counters.c — the counters of job runs
 * (exp/job_counters.h): LDMS samples with the job on each node, the
 * Gemini library's per-job links report, and that reading them changes
 * no result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

/* Two jobs on Voltrino: a 64 KiB ping-pong between two routers of a
 * chassis and an 8-node all-to-all that ends first. */
#define JOBS                                                                 \
    "experiment = { name = \"jc\"; seed = 3; };\n"                          \
    "system = { name = \"voltrino\"; };\n"                                  \
    "probe = { pairs = 1; };\n"                                             \
    "jobs = (\n"                                                            \
    "  { name = \"pp\"; workload = \"pingpong\"; allocation = \"pair\";\n"  \
    "    distance = \"same-chassis\"; bytes = 65536; iterations = 5; },\n"  \
    "  { name = \"a2a\"; workload = \"alltoall\"; nodes = 8;\n"             \
    "    bytes = 4096; iterations = 3; }\n"                                 \
    ");\n"

/* The columns of a NIC sample row: Time, Time_usec, ProducerName,
 * component_id, job_id, app_id, then the default metrics (REQ_PKTS,
 * REQ_FLITS, ...). */
struct row {
    double time;
    char name[64];
    unsigned node, job;
    unsigned long long req_pkts, req_flits;
};

static int parse_row(const char *line, struct row *r)
{
    unsigned usec, app;
    return sscanf(line, "%lf,%u,%63[^,],%u,%u,%u,%llu,%llu", &r->time, &usec,
                  r->name, &r->node, &r->job, &app, &r->req_pkts,
                  &r->req_flits) == 8
               ? 0
               : -1;
}

/* The router of an Aries node name: c0-0c0s4n2 -> c0-0c0s4a0. */
static void router_of(const char *node, char *out, size_t cap)
{
    snprintf(out, cap, "%s", node);
    char *n = strrchr(out, 'n');
    if (n && (size_t)(n - out) + 3 <= cap)
        strcpy(n, "a0");
}

static double field_end_us(const char *jobs_csv, const char *job)
{
    /* run,job,name,workload,nodes,ppn,ranks,allocation,background,
     * start_us,end_us,... */
    char key[64];
    snprintf(key, sizeof key, ",%s,", job);
    const char *p = strstr(jobs_csv, key);
    if (!p)
        return -1;
    for (int comma = 0; comma < 8 && *p; p++)
        comma += *p == ',';
    /* p now points past the comma before start_us */
    double start, end;
    return sscanf(p, "%lf,%lf", &start, &end) == 2 ? end : -1;
}

static void test_job_run_counters(void)
{
    static char out[1 << 16], err[1 << 16];
    const char *plain = write_temp("jc-plain.cfg", JOBS);
    char plain_copy[256];
    snprintf(plain_copy, sizeof plain_copy, "%s", plain ? plain : "");
    const char *sampled = write_temp(
        "jc-sampled.cfg",
        JOBS "sampling = { interval_us = 5.0; nic = true; rtr = true;\n"
             "             links = true; };\n");
    char d1[64] = "/tmp/dfsim-jc-a-XXXXXX", d2[64] = "/tmp/dfsim-jc-b-XXXXXX";
    CHECK(plain && sampled && mkdtemp(d1) && mkdtemp(d2));
    const char *a1[] = { "run", plain_copy, "-o", d1, "--force", NULL };
    const char *a2[] = { "run", sampled, "-o", d2, "--force", NULL };
    CHECK_EQ_U(run_dfsim(a1, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_U(run_dfsim(a2, out, sizeof out, err, sizeof err), 0);
    CHECK_STR_CONTAINS(out, "nic_samples.csv, rtr_samples.csv, "
                            "job_links.txt, job_links_summary.csv, "
                            "jobs.csv");

    /* reading the counters changes no result */
    static const char *const same[] = { "jobs.csv", "iterations.csv",
                                        "ranks.csv", "variants.csv",
                                        "runs.csv", "load.csv" };
    char p1[256], p2[256];
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        snprintf(p1, sizeof p1, "%s/%s", d1, same[i]);
        snprintf(p2, sizeof p2, "%s/%s", d2, same[i]);
        char *t1 = read_text(p1), *t2 = read_text(p2);
        CHECK(t1 && t2 && strcmp(t1, t2) == 0);
        free(t1);
        free(t2);
    }

    snprintf(p2, sizeof p2, "%s/jobs.csv", d2);
    char *jobs = read_text(p2);
    double end_pp = jobs ? field_end_us(jobs, "pp") : -1;
    double end_a2a = jobs ? field_end_us(jobs, "a2a") : -1;
    CHECK(end_pp > 0 && end_a2a > 0 && end_a2a < end_pp);
    free(jobs);

    /* ranks.csv: the node of every rank; job j's nodes carry job_id j+1 */
    snprintf(p2, sizeof p2, "%s/ranks.csv", d2);
    char *ranks = read_text(p2);
    unsigned job_of[64] = { 0 };
    unsigned n_ranks = 0;
    if (ranks) {
        char *save = NULL;
        for (char *l = strtok_r(ranks, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
            unsigned run, job, rank, node;
            char name[32];
            if (sscanf(l, "%u,%u,%31[^,],%u,%u", &run, &job, name, &rank,
                       &node) == 5 && node < 64) {
                job_of[node] = job + 1;
                n_ranks++;
            }
        }
    }
    free(ranks);
    CHECK_EQ_U(n_ranks, 10);

    /* nic_samples.csv: every node each sample, job_id as placed, counts
     * never decreasing, idle nodes silent, the last sample at the run's
     * end */
    snprintf(p2, sizeof p2, "%s/nic_samples.csv", d2);
    char *nic = read_text(p2);
    CHECK(nic != NULL);
    unsigned long long last_pkts[64] = { 0 }, last_flits[64] = { 0 };
    char name_of[64][64] = { { 0 } };
    double last_time = 0;
    unsigned rows = 0, bad = 0, wrong_job = 0, backwards = 0, noisy = 0;
    if (nic) {
        CHECK(strncmp(nic, "#Time,Time_usec,ProducerName,component_id,"
                           "job_id,app_id,AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_"
                           "PKTS,AR_NIC_NETMON_ORB_EVENT_CNTR_REQ_FLITS,",
                      114) == 0);
        char *save = NULL;
        for (char *l = strtok_r(nic, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
            if (l[0] == '#')
                continue;
            struct row r;
            if (parse_row(l, &r) != 0 || r.node >= 64) {
                bad++;
                continue;
            }
            rows++;
            wrong_job += r.job != job_of[r.node];
            backwards += r.req_pkts < last_pkts[r.node] ||
                         r.req_flits < last_flits[r.node];
            noisy += r.job == 0 && r.req_flits != 0;
            last_pkts[r.node] = r.req_pkts;
            last_flits[r.node] = r.req_flits;
            snprintf(name_of[r.node], sizeof name_of[r.node], "%s", r.name);
            last_time = r.time;
        }
    }
    free(nic);
    CHECK_EQ_U(bad, 0);
    CHECK(rows > 64 && rows % 64 == 0);
    CHECK_EQ_U(wrong_job, 0);
    CHECK_EQ_U(backwards, 0);
    CHECK_EQ_U(noisy, 0);
    /* Time has whole microseconds: the run's end, truncated */
    CHECK_NEAR(last_time * 1e6, (double)(long)end_pp, 1e-6);
    for (unsigned i = 0; i < 64; i++)
        if (job_of[i])
            CHECK(last_flits[i] > 0);

    /* job_links.txt: each job's routers over its run; on a ping-pong
     * router the processor tiles' request packets are what the NICs of
     * that router sent (all jobs ran inside pp's run) */
    snprintf(p2, sizeof p2, "%s/job_links.txt", d2);
    char *links = read_text(p2);
    CHECK(links != NULL);
    if (links) {
        char want[128];
        snprintf(want, sizeof want,
                 "# job pp: 2 nodes on 2 routers, 0.000 to %.3f us\n",
                 end_pp);
        CHECK_STR_CONTAINS(links, want);
        CHECK_STR_CONTAINS(links, "# job a2a: 8 nodes on ");
        unsigned checked = 0;
        for (unsigned i = 0; i < 64; i++) {
            if (job_of[i] != 1)
                continue;
            char router[64], head[80];
            router_of(name_of[i], router, sizeof router);
            unsigned long long sent = 0;
            for (unsigned k = 0; k < 64; k++) {
                char rk[64];
                router_of(name_of[k], rk, sizeof rk);
                if (strcmp(rk, router) == 0)
                    sent += last_pkts[k];
            }
            /* the first block of this router: pp's report comes first */
            snprintf(head, sizeof head, "\t%s\n", router);
            const char *b = strstr(links, head);
            const char *pt = b ? strstr(b, "\nPT\t") : NULL;
            double gbs;
            unsigned long long f0, f1, k0, k1;
            char peer[64];
            CHECK(pt && sscanf(pt + 4, "%63s %lf %llu %llu %llu %llu", peer,
                               &gbs, &f0, &f1, &k0, &k1) == 6);
            if (pt) {
                CHECK_EQ_U(k0, sent);
                checked++;
            }
        }
        CHECK_EQ_U(checked, 2);
        /* the summary of pp (CUG'13 Figs. 6-7): the mean and max of its
         * two routers' processor-tile traffic, read from its blocks */
        const char *pp = strstr(links, "# job pp:");
        const char *a2a = strstr(links, "# job a2a:");
        double traffic[2] = { 0 };
        unsigned found = 0;
        for (const char *q = pp; q && a2a && found < 2 &&
                                 (q = strstr(q + 1, "\nPT\t")) && q < a2a;) {
            char peer[64];
            double g, c[7];
            if (sscanf(q + 4, "%63s %lf %lf %lf %lf %lf %lf %lf %lf", peer,
                       &g, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5],
                       &c[6]) == 9)
                traffic[found++] = c[6];
        }
        CHECK_EQ_U(found, 2);
        const char *sum = pp ? strstr(pp, "#\tPT\t") : NULL;
        double mean = -1, max = -1;
        CHECK(sum && sum < a2a &&
              sscanf(sum + 4, "%lf %lf", &mean, &max) == 2);
        CHECK(traffic[0] > 0 && traffic[1] > 0);
        CHECK_NEAR(mean, (traffic[0] + traffic[1]) / 2, 1.0);
        CHECK_NEAR(max, traffic[0] > traffic[1] ? traffic[0] : traffic[1],
                   0.5);
        /* job_links_summary.csv: the same summary, a row per job and
         * direction */
        snprintf(p2, sizeof p2, "%s/job_links_summary.csv", d2);
        char *csv = read_text(p2);
        CHECK(csv && strncmp(csv, "job,dir,routers,traffic_b_mean,"
                                  "traffic_b_max,inq_stalls_mean,", 52) == 0);
        const char *row = csv ? strstr(csv, "\npp,PT,2,") : NULL;
        double cm = -1, cx = -1;
        CHECK(row && sscanf(row + strlen("\npp,PT,2,"), "%lf,%lf", &cm, &cx) == 2);
        CHECK_NEAR(cm, mean, 0.5);
        CHECK_NEAR(cx, max, 0.5);
        CHECK(csv && strstr(csv, "\na2a,PT,") != NULL);
        free(csv);
    }
    free(links);
    rm_dir(d1);
    rm_dir(d2);
    unlink(plain_copy);
    unlink(sampled);
}

/* A sampling section needs runs to sample. */
static void test_needs_runs(void)
{
    static char out[1 << 14], err[1 << 14];
    const char *cfg = write_temp("jc-none.cfg",
                                 "system = { name = \"voltrino\"; };\n"
                                 "sampling = {\n"
                                 "  links = true;\n"
                                 "};\n");
    const char *a[] = { "run", cfg, "-o", "/tmp/dfsim-jc-never", NULL };
    CHECK(cfg != NULL);
    CHECK_EQ_U(run_dfsim(a, out, sizeof out, err, sizeof err), 1);
    CHECK_STR_CONTAINS(err, ":3: error: sampling.links: the counters are "
                            "read during the traffic runs and the jobs' "
                            "runs, and this file has neither");
    unlink(cfg);
}

const struct test_case tests_job_counters[] = {
    TEST(test_job_run_counters),
    TEST(test_needs_runs),
    { 0 },
};
