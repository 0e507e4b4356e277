/* exp/jobs.c — see jobs.h. */
#include "exp/jobs.h"
#include "exp/jobs_internal.h"

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
#include "route/route.h"

/* ---- reading ------------------------------------------------------------ */

/* With a production section: the other users are the fill's jobs, so a
 * job's own phantom users (a policy with phantom_users: "fragmented")
 * would leave their nodes idle and unknown to the fill; and the fill's
 * job names are its own. */
static void check_with_fill(const struct jobs_config *jc, struct diag *d)
{
    for (uint32_t i = 0; i < jc->n; i++) {
        const struct job_config *j = &jc->job[i];
        char key[48];
        if (alloc_policy_of(j->allocation)->phantom_users) {
            snprintf(key, sizeof key, "jobs[%u].allocation", i);
            diag_error(d, j->file, j->line, key,
                       "\"%s\" holds nodes for phantom other users, and "
                       "with a production section the other users are the "
                       "fill's jobs; expected another allocation (linear, "
                       "random, pair, ...: the fill takes the nodes left)",
                       j->allocation->name);
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

int jobs_load(struct cfg_file *f, struct jobs_config *jc,
              const char *mpi_stack, struct diag *d)
{
    int before = d->errors;
    memset(jc, 0, sizeof *jc);
    if (dmpi_defaults_for(&jc->mpi, mpi_stack) != 0)
        diag_error(d, cfg_path(f), 0, "mpi",
                   "no protocol defaults for the MPI stack \"%s\" (a bug)",
                   mpi_stack);
    awr_defaults(&jc->awr);
    config_setting_t *js = cfg_section(f, "jobs");
    config_setting_t *ms = cfg_section(f, "mpi");
    config_setting_t *as = cfg_section(f, "app_aware");
    /* an impact section's runs are jobs too (exp/impact.h) */
    bool runs_jobs = js || cfg_section(f, "impact");
    if (as) {
        cfg_read(f, as, "app_aware", awr_param_keys, &jc->awr, NULL, d);
        if (!runs_jobs)
            diag_error(d, cfg_file_of(f, as), cfg_line(as), "app_aware",
                       "the app-aware controller's parameters apply to "
                       "jobs, and this file has no jobs list");
    }
    if (ms) {
        cfg_read(f, ms, "mpi", dmpi_param_keys, &jc->mpi, NULL, d);
        struct dmpi_params_problem pr[3];
        uint32_t np = dmpi_params_check(&jc->mpi, pr);
        for (uint32_t k = 0; k < np; k++) {
            char full[48];
            snprintf(full, sizeof full, "mpi.%s", pr[k].key);
            diag_error(d, cfg_file_of(f, ms), cfg_member_line(ms, pr[k].key),
                       full, "%s", pr[k].why);
        }
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

    for (uint32_t i = 0; i < jc->n; i++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "jobs[%u]", i);
        if (g[i])
            jobspec_read(f, g[i], prefix, i, JOBSPEC_JOB, &jc->job[i], d);
        else
            jobs_job_defaults(&jc->job[i]); /* reported by cfg_groups */
    }
    free(g);
    jobspec_name(jc->job, jc->n, "jobs", d);
    if (d->errors == before)
        jobspec_link(jc->job, jc->n, d);
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
        jobs_job_free(&jc->job[i]);
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
        if (!alloc_policy_of(j->allocation)->reuses_nodes)
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
        r->policy = alloc_policy_of(j->allocation);
        r->params = j->alloc_params;
        r->nodes = j->nodes;
        r->ppn = j->ppn;
        r->follows = j->after_job;
    }
}

/* ---- running ------------------------------------------------------------ */

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
simtime jobs_window_start(const struct jobs_config *jc)
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

int jobs_capture_fill(struct jobs_capture *c, const struct jobs_config *jc,
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

void jobs_teardown(struct setup *u, const struct jobs_config *jc)
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
    for (uint32_t i = u->state0_gone ? 1 : 0; i < u->inited; i++)
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

int jobs_setup(struct setup *u, const struct jobs_config *jc,
               const struct topo *t, const struct net_params *np,
               uint64_t seed, uint32_t extra_entities,
               const struct jobs_part *part, struct diag *d)
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
                                    .seed = seed, .job = i,
                                    .file = j->file };
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
            .after_marks = j->after_marks,
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
    if (net_init_part(&u->net, t, &p, &u->s, seed,
                      part ? part->part_of : NULL, part ? part->me : 0,
                      d) != 0)
        return -1;
    u->net_ok = true;
    /* a split run's exchange before the MPI layer, which then runs only
     * this partition's ranks */
    if (part && net_xp_init(&u->net, part->part_of, part->parts, part->me,
                            part->dim, d) != 0)
        return -1;
    if (jobs_tell_controllers(&u->net, t, jc, u->nodes, n) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    struct ctl_params cp = { .n = 1, .ctl = { &ctl_app_aware },
                             .params = { &jc->awr } };
    if (ctl_run_init(&u->ctl, &u->net, u->cj, n, &cp, d) != 0)
        return -1;
    u->ctl_ok = true;
    struct dmpi_params mp = jc->mpi;
    mp.noise_seed = seed; /* each node's noise phase (mpi.h) */
    if (dmpi_init(&u->m, &u->s, &u->net, &mp, u->spec, n, NET_EV_COUNT,
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

int jobs_start_counters(struct setup *u, const struct jobs_config *jc,
                        const struct job_counters_params *cp, struct net *n,
                        struct sim *s, uint32_t entity, struct diag *d)
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
    int rc = job_counters_init(&u->ctr, n, s, NET_EV_COUNT + 1, entity,
                               spec, u->n, cp, d);
    free(spec);
    return rc;
}

/* ---- a branch at job 0's release (struct jobs_branch) ------------------ */

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

bool jobs_branch_same(const struct job_config *a, const struct job_config *b)
{
    return a->nodes == b->nodes && a->ppn == b->ppn &&
           a->allocation == b->allocation &&
           memcmp(a->alloc_params, b->alloc_params,
                  sizeof a->alloc_params) == 0 &&
           a->start == b->start && same_str(a->after, b->after) &&
           a->after_job == b->after_job && a->after_marks == b->after_marks &&
           a->background == b->background && a->fill == b->fill &&
           a->routing == b->routing &&
           memcmp(&a->variants, &b->variants, sizeof a->variants) == 0 &&
           same_str(a->variant_order, b->variant_order) && !a->model &&
           !b->model && a->tc == b->tc && (a->ds_line != 0) == (b->ds_line != 0) &&
           a->delay_sensitivity == b->delay_sensitivity;
}

/* The run's jobs with job 0 replaceable (a copy), and what a branch
 * changes. */
struct branching {
    const struct jobs_branch *b;
    struct jobs_config jc;
    struct setup *u;
    uint32_t *planned;
    uint64_t seed;
};

/* mpi's on_release: job 0's release, the branch point. */
static void at_release(void *ctx, uint32_t job)
{
    struct branching *x = ctx;
    struct job_config *j0 = &x->jc.job[0];
    struct dmpi *m = &x->u->m;
    if (!j0->after || !j0->after_marks || j0->after_job != job)
        return;
    m->on_release = NULL; /* once */
    const struct job_config *alt = x->b->at(x->b->ctx);
    if (!alt)
        return;
    if (!jobs_branch_same(j0, alt)) {
        m->error = -1;
        snprintf(m->why, sizeof m->why,
                 "job \"%s\" cannot branch into \"%s\" at its release "
                 "(not the same nodes, routing or start): a bug",
                 j0->name, alt->name);
        return;
    }
    ((const struct workload *)j0->workload)->free(x->u->state[0].b);
    *j0 = *alt;
    if (alt->name == alt->name_buf)
        j0->name = j0->name_buf;
    const struct workload *w = (const struct workload *)j0->workload;
    struct workload_env env = { .nranks = jobs_ranks(j0), .ppn = j0->ppn,
                                .seed = x->seed, .job = 0,
                                .file = j0->file };
    char err[200];
    if (w->init(x->u->state[0].b, j0->params, &env, err, sizeof err)) {
        x->u->state0_gone = true;
        m->error = -1;
        snprintf(m->why, sizeof m->why, "%s: %s: %s", j0->name,
                 w->base.name, err);
        return;
    }
    m->job[0].app = w->app(x->u->state[0].b);
    m->job[0].name = j0->name;
    x->u->cj[0].name = j0->name;
    x->u->cj[0].file = j0->file;
    x->u->cj[0].line = j0->line;
    x->planned[0] = w->iterations ? w->iterations(j0->params) : 0;
}

/* With out->branch: jc's jobs copied into x (job 0 then replaceable);
 * returns the copy to run, or NULL (memory). */
static const struct jobs_config *branch_copy(struct branching *x,
                                             const struct jobs_config *jc,
                                             const struct jobs_output *out,
                                             uint64_t seed)
{
    *x = (struct branching){ .b = out->branch, .jc = *jc, .seed = seed };
    x->jc.job = malloc((jc->n ? jc->n : 1) * sizeof *x->jc.job);
    if (!x->jc.job)
        return NULL;
    memcpy(x->jc.job, jc->job, jc->n * sizeof *jc->job);
    for (uint32_t i = 0; i < jc->n; i++)
        if (jc->job[i].name == jc->job[i].name_buf)
            x->jc.job[i].name = x->jc.job[i].name_buf;
    return &x->jc;
}

/* What watches run_all's run besides its results: the counters' samples
 * and reports (ctr) and where the packets wait (out->waits). */
static int run_observers(struct setup *u, const struct jobs_config *jc,
                         const struct topo *t, const struct jobs_output *out,
                         bool ctr, struct diag *d)
{
    /* the sampler's events are the type after dmpi's, created by the
     * entity past the network's */
    if (ctr && jobs_start_counters(u, jc, out->counters, &u->net, &u->s,
                                   net_entities(t), d) != 0)
        return -1;
    if (ctr) {
        u->m.on_job = job_counters_on_job;
        u->m.job_ctx = &u->ctr;
    }
    if (out->waits && dmpi_waits_on(&u->m) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    return 0;
}

/* Place the jobs of jc (the file's, and the fill's if any), run them and
 * write what they did. */
static int run_all(const struct jobs_config *jc, const struct topo *t,
                   const struct net_params *np, uint64_t seed, simtime limit,
                   const struct jobs_output *out, simtime *end,
                   struct diag *d)
{
    if (out->partitions)
        return jobs_win_run(jc, t, np, seed, limit, out, end, d);
    struct setup *u = malloc(sizeof *u);
    if (!u) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        return -1;
    }
    int rc = -1;
    struct net_params p = *np;
    bool ctr = job_counters_on(out->counters);
    p.counters = p.counters || out->observer || ctr; /* they read them */
    struct branching br = { 0 };
    if (out->branch && !ctr && jc->n &&
        !(jc = branch_copy(&br, jc, out, seed))) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        free(u);
        return -1;
    }
    /* the sampler creates its events as an entity of its own, past the
     * network's, so that every other event keeps its place */
    if (jobs_setup(u, jc, t, &p, seed, ctr ? 1 : 0, NULL, d) != 0)
        goto done;
    struct sim *s = &u->s;
    struct dmpi *m = &u->m;
    if (run_observers(u, jc, t, out, ctr, d) != 0)
        goto done;
    const struct jobs_observer *obs = out->observer;
    /* the window opens when the first measured job starts: what the
     * background sent before does not count */
    simtime t0 = jobs_window_start(jc);
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
    if (br.b) { /* the branch point armed */
        br.u = u;
        br.planned = planned;
        m->on_release = at_release;
        m->release_ctx = &br;
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
    struct jobs_run_view view = { .jc = jc, .m = m, .c = &u->ctl,
                                  .mr = &u->mr, .nodes = u->nodes,
                                  .state = u->state };
    if (out->writer && out->writer->write(&view, out) != 0) {
        diag_error(d, NULL, 0, "jobs", "out of memory");
        goto done;
    }
    if (ctr && job_counters_finish(&u->ctr, d) != 0)
        goto done;
    offered_write(&u->off, out->load, out->header, out->run, out->table);
    if (out->capture &&
        jobs_capture_fill(out->capture, jc, m, u->nodes) != 0) {
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
    jobs_teardown(u, jc);
    free(u);
    free(br.jc.job);
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
        j->allocation = &alloc_production.base;
        struct alloc_list_params *lp = (void *)j->alloc_params;
        lp->ids = f->nodes; /* now the job's */
        lp->n = f->n_nodes;
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
        jobs_job_free(&ext->job[i]);
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
    int rc = jobs_setup(u, jc, t, np, seed, 0, NULL, d);
    jobs_teardown(u, jc);
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
    jobspec_print_keys(out, "jobs", JOBSPEC_JOB);
    fprintf(out, "mpi = { ... }\n");
    cfg_print_schema(out, "mpi", dmpi_param_keys, 2);
    fprintf(out, "app_aware = { ... }\n");
    cfg_print_schema(out, "app_aware", awr_param_keys, 2);
    production_print_keys(out);
}

void jobs_print_workload_keys(FILE *out, const struct workload *w)
{
    cfg_print_schema(out, "", w->keys, 2);
}
