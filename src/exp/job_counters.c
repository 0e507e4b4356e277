/* exp/job_counters.c — the counters of a job run (see job_counters.h). */
#include "exp/job_counters.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The routers job j's nodes attach to (first NIC of each), ascending,
 * without repeats. */
static int job_routers(const struct topo *t, const struct job_counters_spec *js,
                       struct job_counters_job *jj)
{
    jj->routers = malloc((js->n_nodes ? js->n_nodes : 1) *
                         sizeof *jj->routers);
    if (!jj->routers)
        return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < js->n_nodes; i++) {
        const struct topo_node *nd = &t->nodes[js->nodes[i]];
        if (nd->n_nics)
            jj->routers[k++] = t->nics[nd->nic[0]].router;
    }
    qsort(jj->routers, k, sizeof *jj->routers, cmp_u32);
    uint32_t u = 0;
    for (uint32_t i = 0; i < k; i++)
        if (u == 0 || jj->routers[u - 1] != jj->routers[i])
            jj->routers[u++] = jj->routers[i];
    jj->n_routers = u;
    return 0;
}

int job_counters_init(struct job_counters *jc, struct net *n,
                      struct sim *s, uint32_t ev_type, uint32_t entity,
                      const struct job_counters_spec *spec, uint32_t n_jobs,
                      const struct job_counters_params *p, struct diag *d)
{
    memset(jc, 0, sizeof *jc);
    jc->n = n;
    jc->s = s;
    const struct topo *t = n->t;
    if (p->sampling && sampler_enabled(p->sampling)) {
        jc->node_job = calloc(t->n_nodes ? t->n_nodes : 1,
                              sizeof *jc->node_job);
        if (!jc->node_job)
            goto oom;
        for (uint32_t j = 0; j < n_jobs; j++)
            for (uint32_t i = 0; i < spec[j].n_nodes; i++)
                jc->node_job[spec[j].nodes[i]] = j + 1;
        struct sampler_params sp = *p->sampling;
        sp.node_job = jc->node_job;
        if (sampler_init(&jc->sm, n, s, ev_type, entity, &sp, d) != 0)
            return -1;
        jc->sampling = true;
    }
    if (p->links_path) {
        if (links_build(&jc->L, t) != 0)
            goto oom;
        jc->links_on = true;
        jc->links_path = p->links_path;
        jc->summary_path = p->summary_path;
        for (uint32_t j = 0; j < n_jobs; j++)
            jc->n_report += spec[j].report;
        jc->job = calloc(jc->n_report ? jc->n_report : 1, sizeof *jc->job);
        if (!jc->job)
            goto oom;
        uint32_t k = 0;
        for (uint32_t j = 0; j < n_jobs; j++) {
            if (!spec[j].report)
                continue;
            /* the report's jobs are the first n_report of the run (the
             * file's, before the fill's): job j is entry j, as on_job
             * takes it */
            assert(k == j);
            struct job_counters_job *jj = &jc->job[k++];
            jj->name = spec[j].name;
            jj->n_nodes = spec[j].n_nodes;
            jj->before = calloc(jc->L.n ? jc->L.n : 1, sizeof *jj->before);
            jj->after = calloc(jc->L.n ? jc->L.n : 1, sizeof *jj->after);
            if (!jj->before || !jj->after ||
                job_routers(t, &spec[j], jj) != 0)
                goto oom;
        }
    }
    return 0;
oom:
    diag_error(d, NULL, 0, "sampling", "out of memory");
    return -1;
}

/* The counts of job jj's routers' links into snap. */
static void snapshot(const struct job_counters *jc,
                     const struct job_counters_job *jj,
                     struct link_counts *snap)
{
    for (uint32_t k = 0; k < jj->n_routers; k++) {
        uint32_t r = jj->routers[k];
        for (uint32_t i = jc->L.first_link[r]; i < jc->L.first_link[r + 1];
             i++)
            links_read(&jc->L, jc->n, i, &snap[i]);
    }
}

void job_counters_on_job(void *ctx, uint32_t job, bool end)
{
    struct job_counters *jc = ctx;
    if (!jc->links_on || job >= jc->n_report)
        return;
    struct job_counters_job *jj = &jc->job[job];
    if (!end) {
        jj->begun = true;
        jj->start = jc->s->now;
        snapshot(jc, jj, jj->before);
    } else if (jj->begun) {
        jj->ended = true;
        jj->end = jc->s->now;
        snapshot(jc, jj, jj->after);
    }
}

/* CUG'13 Figs. 6-7's view of a job: per link direction, the counts of
 * each of the job's routers (its links of that direction summed), their
 * mean and maximum over the routers ("filled bars ... average per-Gemini
 * ...; error bars ... the Gemini with the most"). */
#define MAX_DIRS 16
struct job_summary {
    const char *dir[MAX_DIRS];
    double mean[MAX_DIRS][3], max[MAX_DIRS][3]; /* bytes, in, out stalls */
    uint32_t nd;
};

static void summarize(const struct job_counters *jc,
                      const struct job_counters_job *jj,
                      struct job_summary *js)
{
    memset(js, 0, sizeof *js);
    for (uint32_t k = 0; k < jj->n_routers; k++) {
        uint32_t r = jj->routers[k];
        double here[MAX_DIRS][3] = { { 0 } };
        for (uint32_t i = jc->L.first_link[r]; i < jc->L.first_link[r + 1];
             i++) {
            const char *name = link_dir(&jc->L.link[i]);
            uint32_t d = 0;
            while (d < js->nd && strcmp(js->dir[d], name) != 0)
                d++;
            if (d == js->nd) {
                assert(js->nd < MAX_DIRS); /* Gemini has the most: 7 */
                js->dir[js->nd++] = name;
            }
            const struct link_counts *a = &jj->after[i], *b = &jj->before[i];
            struct link_metrics m;
            struct link_counts dc = {
                { a->flits[0] - b->flits[0], a->flits[1] - b->flits[1] },
                { a->pkts[0] - b->pkts[0], a->pkts[1] - b->pkts[1] },
                a->in_stall - b->in_stall, a->cr_stall - b->cr_stall };
            link_metrics(&jc->L, jc->n, i, &dc, jj->end - jj->start, &m);
            here[d][0] += m.traffic_bytes;
            here[d][1] += (double)dc.in_stall;
            here[d][2] += (double)dc.cr_stall;
        }
        for (uint32_t d = 0; d < js->nd; d++)
            for (int c = 0; c < 3; c++) {
                js->mean[d][c] += here[d][c];
                if (here[d][c] > js->max[d][c])
                    js->max[d][c] = here[d][c];
            }
    }
    double n = jj->n_routers ? (double)jj->n_routers : 1;
    for (uint32_t d = 0; d < js->nd; d++)
        for (int c = 0; c < 3; c++)
            js->mean[d][c] /= n;
}

static void write_summary(FILE *f, const struct job_summary *js,
                          uint32_t n_routers)
{
    fprintf(f, "# summary: per router, each direction's links summed; mean "
               "and max over the job's %" PRIu32 " routers (CUG'13 Figs. "
               "6-7)\n#\tDIR\tTRAFFIC_B_MEAN\tTRAFFIC_B_MAX\t"
               "INQ_STALLS_MEAN\tINQ_STALLS_MAX\tOUTQ_STALLS_MEAN\t"
               "OUTQ_STALLS_MAX\n",
            n_routers);
    for (uint32_t d = 0; d < js->nd; d++)
        fprintf(f, "#\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n",
                js->dir[d], js->mean[d][0], js->max[d][0], js->mean[d][1],
                js->max[d][1], js->mean[d][2], js->max[d][2]);
}

/* The report, and with summary_path its summaries as CSV: a row per job
 * and link direction, the figures of write_summary. */
static int write_report(const struct job_counters *jc)
{
    FILE *f = fopen(jc->links_path, "w");
    FILE *c = jc->summary_path ? fopen(jc->summary_path, "w") : NULL;
    if (!f || (jc->summary_path && !c)) {
        if (f)
            fclose(f);
        if (c)
            fclose(c);
        return -1;
    }
    fprintf(f, "# the Gemini performance counter library's report per job "
               "(Pedretti et al., CUG'13 Fig. 4): the routers of the job's "
               "nodes, every logical link's counts from the job's start to "
               "its end\n");
    if (c)
        fprintf(c, "job,dir,routers,traffic_b_mean,traffic_b_max,"
                   "inq_stalls_mean,inq_stalls_max,outq_stalls_mean,"
                   "outq_stalls_max\n");
    for (uint32_t j = 0; j < jc->n_report; j++) {
        const struct job_counters_job *jj = &jc->job[j];
        if (!jj->ended) {
            fprintf(f, "# job %s: %s; no report\n", jj->name,
                    jj->begun ? "did not end" : "did not begin");
            continue;
        }
        fprintf(f,
                "# job %s: %" PRIu32 " nodes on %" PRIu32 " routers, "
                "%.3f to %.3f us\n",
                jj->name, jj->n_nodes, jj->n_routers,
                (double)jj->start / (double)SIMTIME_US,
                (double)jj->end / (double)SIMTIME_US);
        links_report(f, &jc->L, jc->n, jj->routers, jj->n_routers,
                     jj->before, jj->after, jj->end - jj->start);
        struct job_summary js;
        summarize(jc, jj, &js);
        write_summary(f, &js, jj->n_routers);
        for (uint32_t d = 0; c && d < js.nd; d++)
            fprintf(c, "%s,%s,%" PRIu32 ",%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n",
                    jj->name, js.dir[d], jj->n_routers, js.mean[d][0],
                    js.max[d][0], js.mean[d][1], js.max[d][1],
                    js.mean[d][2], js.max[d][2]);
    }
    int bad = ferror(f) || (c && ferror(c));
    bad |= fclose(f) != 0;
    bad |= c && fclose(c) != 0;
    return bad ? -1 : 0;
}

int job_counters_finish(struct job_counters *jc, struct diag *d)
{
    int rc = 0;
    if (jc->sampling)
        sampler_sample_now(&jc->sm);
    if (jc->sampling && sampler_status(&jc->sm, d) != 0)
        rc = -1;
    if (jc->links_on) {
        errno = 0;
        if (write_report(jc) != 0) {
            diag_error(d, jc->links_path, 0, "sampling.links",
                       "cannot write: %s",
                       strerror(errno ? errno : EIO));
            rc = -1;
        }
    }
    return rc;
}

void job_counters_free(struct job_counters *jc)
{
    if (jc->sampling)
        sampler_free(&jc->sm);
    for (uint32_t j = 0; jc->job && j < jc->n_report; j++) {
        free(jc->job[j].routers);
        free(jc->job[j].before);
        free(jc->job[j].after);
    }
    free(jc->job);
    if (jc->links_on)
        links_free(&jc->L);
    free(jc->node_job);
    memset(jc, 0, sizeof *jc);
}
