/* stragglers.c - the compute time of steps (stragglers.h). */
#include "stragglers.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "rng_pcg.h"

/* Pauses on one card need the maxima of N - 1 cards and of one card,
 * independent parts only (the common part is added once per step). */
static int init_pauses(tmc_straggler_model *m, const tmc_experiment *x,
                       const tmc_closed_form *cf)
{
    const tmc_pauses *p = &x->pauses;
    m->pause_every = p->enabled ? p->every_steps : 0;
    m->pause_s = p->enabled ? p->duration_s : 0;
    m->pause_one = p->enabled && p->cards == TMC_PAUSE_ONE && x->job.cards > 1;
    if (!m->pause_one)
        return 0;
    tmc_jitter indep = x->jitter;
    if (indep.kind == TMC_JITTER_NORMAL)
        indep.cv *= sqrt(1 - indep.rho), indep.rho = 0;
    return tmc_dist_max_init(&m->rest, &indep, cf->compute_s, x->job.cards - 1) ||
           tmc_dist_max_init(&m->single, &indep, cf->compute_s, 1);
}

/* The segment lengths that recur: K, the last segment's, and a
 * forecast's first (from its step done to the next multiple of K); two or
 * more steps (one step is one draw either way). */
static int recurring_lengths(const tmc_experiment *x, long k, long n[TMC_SEGMENT_LAWS])
{
    long steps = x->job.steps, done = x->observed.enabled ? x->observed.steps_done : 0;
    long want[TMC_SEGMENT_LAWS] = {k, steps % k, done % k ? k - done % k : 0};
    if (want[2] > steps - done)
        want[2] = steps - done;
    int count = 0;
    for (int i = 0; i < TMC_SEGMENT_LAWS; i++) {
        int seen = want[i] < 2;
        for (int j = 0; j < count; j++)
            seen |= n[j] == want[i];
        if (!seen)
            n[count++] = want[i];
    }
    return count;
}

/* A law built (build_laws) into *l: 1 when kept (counted in
 * m's error and bytes), 0 when its bound is above
 * TMC_SEGMENT_MAX_ERROR_SIGMA (freed). */
static int keep_law(tmc_straggler_model *m, tmc_segment_law *l, tmc_segment_law *built)
{
    if (built->error_sigma > TMC_SEGMENT_MAX_ERROR_SIGMA) {
        tmc_segment_law_free(built);
        return 0;
    }
    *l = *built;
    m->law_error = fmax(m->law_error, l->error_sigma);
    m->law_bytes += l->bytes;
    return 1;
}

/* The laws still to build, taken one at a time by each thread. */
typedef struct {
    tmc_segment_law *l;
    const long *n;
    int count;
    const tmc_jitter *j;
    double mu_s;
    long cards;
    atomic_int next;
    atomic_int failed; /* laws that failed */
} law_queue;

static void *build_from(void *arg)
{
    law_queue *q = arg;
    for (int i; (i = atomic_fetch_add(&q->next, 1)) < q->count;)
        if (tmc_segment_law_init(&q->l[i], q->j, q->mu_s, q->cards, q->n[i]))
            atomic_fetch_add(&q->failed, 1);
    return NULL;
}

#define MAX_BUILDERS 16 /* more threads than laws would wait */

/* The laws of n[0..count-1] steps into built[], each as
 * tmc_segment_law_init, on up to `threads` threads (this one included): a
 * law is built by one thread, so its table is the same bits whatever the
 * count. A law costs about 16 ms whatever its length, a run builds up to
 * eight, and `cheapest` builds them for every plan. Returns how many failed
 * (those hold no table, low NULL; the others are the caller's to free). */
static int build_laws(tmc_segment_law *built, const long *n, int count,
                      const tmc_experiment *x, const tmc_closed_form *cf, int threads)
{
    law_queue q = {.l = built, .n = n, .count = count, .j = &x->jitter,
                   .mu_s = cf->compute_s, .cards = x->job.cards};
    atomic_init(&q.next, 0);
    atomic_init(&q.failed, 0);
    int helpers = (threads < count ? threads : count) - 1, started = 0;
    if (helpers > MAX_BUILDERS)
        helpers = MAX_BUILDERS;
    pthread_t tid[MAX_BUILDERS];
    while (started < helpers && pthread_create(&tid[started], NULL, build_from, &q) == 0)
        started++; /* none started: this thread builds them all */
    build_from(&q);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return atomic_load(&q.failed);
}

static void free_laws(tmc_segment_law *l, int count)
{
    for (int i = 0; i < count; i++)
        tmc_segment_law_free(&l[i]);
}

/* Segments mode: the laws of the recurring lengths; one whose measured
 * error is above TMC_SEGMENT_MAX_ERROR_SIGMA is dropped (that length is
 * drawn step by step). */
static int init_laws(tmc_straggler_model *m, const tmc_experiment *x, const tmc_closed_form *cf,
                     int threads)
{
    long n[TMC_SEGMENT_LAWS];
    tmc_segment_law built[TMC_SEGMENT_LAWS];
    int count = recurring_lengths(x, cf->interval_steps, n), kept = 0;
    if (build_laws(built, n, count, x, cf, threads)) {
        free_laws(built, count);
        return -1;
    }
    for (int i = 0; i < count; i++)
        kept += keep_law(m, &m->law[kept], &built[i]);
    return 0;
}

int tmc_stragglers_init(tmc_straggler_model *m, const tmc_experiment *x,
                        const tmc_closed_form *cf, int segments, int threads)
{
    memset(m, 0, sizeof *m);
    m->segments = segments;
    m->fixed_s = x->job.exposed_comm_s + x->job.input_wait_s;
    m->cards = x->job.cards;
    const tmc_slow_cards *sc = &x->slow_cards;
    m->slow_fraction = sc->enabled ? sc->fraction : 0;
    m->slow_factor = sc->enabled ? sc->factor : 1;
    m->detect_after = sc->enabled ? sc->detect_after_steps : 0;
    m->drift = x->slowdown;
    m->ahead = !segments && !x->pauses.enabled && m->slow_fraction == 0 && !m->drift.enabled;
    if (init_pauses(m, x, cf) ||
        tmc_dist_max_init(&m->max, &x->jitter, cf->compute_s, x->job.cards))
        return -1;
    m->ahead = m->ahead && m->max.low && m->max.common_s == 0;
    if (segments && m->max.sigma > 0 && init_laws(m, x, cf, threads))
        return -1;
    return 0;
}

int tmc_stragglers_init_blocks(tmc_straggler_model *m, const tmc_experiment *x,
                               const tmc_closed_form *cf, int threads)
{
    m->block_steps = 2 * cf->interval_steps;
    if (m->max.sigma == 0) { /* no jitter: a block's sum is known */
        m->blocks = TMC_BLOCK_LAWS;
        return 0;
    }
    long n[TMC_BLOCK_LAWS];
    tmc_segment_law built[TMC_BLOCK_LAWS];
    for (int b = 0; b < TMC_BLOCK_LAWS; b++)
        n[b] = m->block_steps << b;
    build_laws(built, n, TMC_BLOCK_LAWS, x, cf, threads);
    /* kept up to the first too coarse (the larger ones are too, and a law
     * that failed past it is not wanted) */
    int b = 0, failed = 0;
    while (b < TMC_BLOCK_LAWS && !(failed = !built[b].low) &&
           keep_law(m, &m->block[b], &built[b]))
        b++;
    m->blocks = b;
    free_laws(built + b, TMC_BLOCK_LAWS - b); /* a too coarse one is already freed */
    return failed ? -1 : 0;
}

double tmc_stragglers_block_max(const tmc_straggler_model *m, int b)
{
    double n = (double)tmc_stragglers_block_steps(m, b);
    return m->max.sigma == 0 ? n * m->max.mu : m->block[b].max_s;
}

void tmc_stragglers_block_prefetch(const tmc_straggler_model *m, const gsl_rng *r)
{
    if (m->max.sigma == 0) /* no jitter: no law, nothing drawn */
        return;
    uint32_t u = tmc_rng_pcg_peek(r);
    for (int b = 0; b < m->blocks; b++)
        tmc_dist_table_prefetch(m->block[b].low, u);
}

double tmc_stragglers_block(const tmc_straggler_model *m, tmc_stragglers *s, int b, gsl_rng *r)
{
    s->steps_simulated += (double)tmc_stragglers_block_steps(m, b);
    return m->max.sigma == 0 ? tmc_stragglers_block_max(m, b) /* no jitter: known */
                             : tmc_segment_law_draw(&m->block[b], r);
}

void tmc_stragglers_free(tmc_straggler_model *m)
{
    tmc_dist_max_free(&m->max);
    tmc_dist_max_free(&m->rest);
    tmc_dist_max_free(&m->single);
    for (int i = 0; i < TMC_SEGMENT_LAWS; i++)
        tmc_segment_law_free(&m->law[i]);
    for (int b = 0; b < TMC_BLOCK_LAWS; b++)
        tmc_segment_law_free(&m->block[b]);
}

void tmc_stragglers_start(const tmc_straggler_model *m, tmc_stragglers *s, gsl_rng *r)
{
    s->steps_run = 0;
    s->steps_simulated = 0;
    s->used = s->held = 0;
    s->slow = m->slow_fraction > 0
        ? (long)gsl_ran_binomial(r, m->slow_fraction, (unsigned)m->cards) : 0;
}

/* The common part of a step (correlated jitter), s. */
static double common(const tmc_straggler_model *m, gsl_rng *r)
{
    return m->max.common_s > 0 ? m->max.common_s * gsl_ran_gaussian_ziggurat(r, 1.0) : 0;
}

/* The slowest-card time of a step with a pause: all cards stop, or one
 * does, max(A_{N-1}, B + p), plus the step's common part. */
static double paused_step(const tmc_straggler_model *m, gsl_rng *r)
{
    if (!m->pause_one)
        return tmc_dist_sample_max(&m->max, r) + m->pause_s;
    double a = tmc_dist_sample_max(&m->rest, r);
    double b = tmc_dist_sample_max(&m->single, r) + m->pause_s;
    return fmax(fmax(a, b) + common(m, r), 0);
}

/* The slowest card of a step with s->slow slow cards: the normal group's
 * maximum and factor x the slow group's (each from the table at v^(n/m)),
 * a pausing card when the step has one (a normal card while any is left,
 * else a slow one), and the step's common part. */
static double slow_step(const tmc_straggler_model *m, const tmc_stragglers *s, int paused,
                        gsl_rng *r)
{
    long slow = s->slow, normal = m->cards - slow;
    int one = paused && m->pause_one, one_normal = one && normal > 0;
    int one_slow = one && !one_normal; /* then slow = N >= 2 */
    normal -= one_normal;
    slow -= one_slow;
    double c = common(m, r);
    double x = normal > 0 ? tmc_dist_sample_max_of(&m->max, r, normal) + c : 0;
    if (one_normal)
        x = fmax(x, tmc_dist_sample_max(&m->single, r) + m->pause_s + c);
    x = fmax(x, m->slow_factor * (tmc_dist_sample_max_of(&m->max, r, slow) + c));
    if (one_slow)
        x = fmax(x, m->slow_factor * (tmc_dist_sample_max(&m->single, r) + c) + m->pause_s);
    if (paused && !m->pause_one)
        x += m->pause_s;
    return fmax(x, 0);
}

/* One step of any kind. */
static double any_step(const tmc_straggler_model *m, const tmc_stragglers *s, int paused,
                       gsl_rng *r)
{
    if (s->slow > 0)
        return slow_step(m, s, paused, r);
    return paused ? paused_step(m, r) : tmc_dist_sample_max(&m->max, r);
}

/* A segment under way. Its step i (from 1) ends at t + S_i + i fixed_s,
 * S_i the summed slowest-card times of its first i steps (added in order,
 * or, drawn ahead, differences of running sums): the same formula gives
 * the segment's end (engine.c), and it never decreases with i, so a stretch
 * of steps that ends within the limit has no step past it. */
typedef struct {
    double t;    /* the segment's start, s */
    double sum;  /* S_i, s */
    long i;      /* steps drawn */
    double prev; /* S_(i-1), set when step i is the first past the limit */
    double drift, prev_drift; /* what the drift added to S_i and S_(i-1), s */
} seg_clock;

static int past(const seg_clock *c, double fixed, double limit)
{
    return c->t + c->sum + (double)c->i * fixed > limit;
}

/* Plain steps are drawn in batches: their running sums first, which depend
 * on nothing but the stream (tmc_dist_max_sums), then one look at the limit
 * for the whole batch. The batch is gone through again, step by step, only
 * when the limit falls inside it. */
#define BATCH 32

/* The limit falls inside batch p (running sums from c->sum, drawn from
 * stream state `start`; its last step is past the limit): count the batch
 * up to its first step past the limit and leave the stream just after that
 * step's draw, as if drawn one by one. */
static long cut_in_batch(const double *p, int b, double fixed, double limit,
                         tmc_pcg32_state start, tmc_pcg32_state *rs, seg_clock *c)
{
    int i = 0;
    seg_clock at = {c->t, p[0], c->i + 1, c->sum, 0, 0};
    while (!past(&at, fixed, limit) && i < b - 1)
        at.prev = p[i], i++, at.sum = p[i], at.i++;
    *c = at;
    for (int j = 0; j <= i; j++)
        tmc_rng_pcg_step(&start);
    *rs = start;
    return i + 1;
}

/* n plain steps (no pause, no slow card, independent jitter only): the hot
 * loop. Returns the steps done: n, or fewer when the last one ended past
 * the limit. */
static long plain_steps(const tmc_straggler_model *m, gsl_rng *r, long n, double limit,
                        seg_clock *c)
{
    tmc_pcg32_state *rs = r->state;
    double p[BATCH], fixed = m->fixed_s;
    for (long done = 0; done < n;) {
        int b = n - done < BATCH ? (int)(n - done) : BATCH;
        tmc_pcg32_state start = *rs;
        seg_clock after = {c->t, tmc_dist_max_sums(&m->max, rs, c->sum, p, b), c->i + b, 0, 0,
                           0};
        if (past(&after, fixed, limit))
            return done + cut_in_batch(p, b, fixed, limit, start, rs, c);
        *c = after;
        done += b;
    }
    return n;
}

/* TMC_AHEAD more plain draws into s->prefix. */
static void draw_ahead(const tmc_straggler_model *m, tmc_stragglers *s, gsl_rng *r)
{
    s->prefix[0] = 0;
    tmc_dist_max_sums(&m->max, r->state, 0, s->prefix + 1, TMC_AHEAD);
    s->used = 0, s->held = TMC_AHEAD;
}

/* n plain steps from the draws held ahead (model.ahead); returns the steps
 * done, fewer than n when the last one ended past the limit. S_i is the
 * segment's sum before, plus prefix differences: it never decreases with
 * i, so the cut inside a stretch is found by bisection. */
static long ahead_steps(const tmc_straggler_model *m, tmc_stragglers *s, gsl_rng *r, long n,
                        double limit, seg_clock *c)
{
    double fixed = m->fixed_s;
    for (long done = 0; done < n;) {
        if (s->used == s->held)
            draw_ahead(m, s, r);
        int b = s->held - s->used < n - done ? s->held - s->used : (int)(n - done);
        const double *p = s->prefix + s->used;
        seg_clock after = {c->t, c->sum + (p[b] - p[0]), c->i + b, 0, 0, 0};
        if (!past(&after, fixed, limit)) {
            *c = after, s->used += b, done += b;
            continue;
        }
        int lo = 0, hi = b; /* step lo + 1 .. hi: the first one past the limit */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            seg_clock at = {c->t, c->sum + (p[mid] - p[0]), c->i + mid, 0, 0, 0};
            if (past(&at, fixed, limit))
                hi = mid;
            else
                lo = mid;
        }
        *c = (seg_clock){c->t, c->sum + (p[hi] - p[0]), c->i + hi,
                         c->sum + (p[hi - 1] - p[0]), 0, 0};
        s->used += hi;
        return done + hi;
    }
    return n;
}

/* Step i + 1 of a segment under way, of slowest-card time y: with a
 * drift, y times f(h) at its start, h from the last (re)start. */
static void add_step(const tmc_straggler_model *m, const tmc_stragglers *s, seg_clock *c,
                     double y)
{
    c->prev = c->sum, c->prev_drift = c->drift;
    if (m->drift.enabled) {
        double start = c->t + c->sum + (double)c->i * m->fixed_s;
        double extra = tmc_slowdown_extra(&m->drift, start - s->fresh_at) * y;
        c->drift += extra, y += extra;
    }
    c->sum += y;
    c->i++;
}

/* Steps first + 1 .. first + n, one by one (stragglers.h). The pause and
 * stop-check steps are found by counting, so the plain stretches between
 * them run the hot loop when no slow card is in the job. */
static double draw_steps(const tmc_straggler_model *m, tmc_stragglers *s, long first,
                         long n, double t, double limit, gsl_rng *r,
                         const volatile sig_atomic_t *stop, int *cut)
{
    long k = m->pause_every, next_pause = k ? first + k - first % k : -1;
    long last = first + n;
    int fast = s->slow == 0 && m->max.low && m->max.common_s == 0 && !m->drift.enabled;
    seg_clock c = {t, 0, 0, 0, 0, 0};
    for (long step = first + 1; step <= last; step++) {
        if (fast && step != next_pause) { /* plain steps up to a pause or a check */
            long end = ((step - 1) | (TMC_STEPS_PER_STOP_CHECK - 1)) + 1; /* next check */
            if (end > last)
                end = last;
            if (k && next_pause <= end)
                end = next_pause - 1;
            long done = m->ahead ? ahead_steps(m, s, r, end - step + 1, limit, &c)
                                 : plain_steps(m, r, end - step + 1, limit, &c);
            s->steps_simulated += done;
            step += done - 1;
        } else {
            int paused = step == next_pause;
            if (paused)
                next_pause += k;
            add_step(m, s, &c, any_step(m, s, paused, r));
            s->steps_simulated++;
            if (!past(&c, m->fixed_s, limit))
                s->steps_run += s->slow > 0;
        }
        if (past(&c, m->fixed_s, limit)) {
            s->done_steps = c.i - 1, s->done_sum = c.prev, s->done_drift_s = c.prev_drift;
            return *cut = TMC_CUT_LIMIT, c.sum;
        }
        if ((step & (TMC_STEPS_PER_STOP_CHECK - 1)) == 0 && *stop)
            return *cut = TMC_CUT_STOP, c.sum;
    }
    s->drift_s = c.drift;
    return c.sum;
}

#define TMC_AHEAD_BLOCKS 4

/* The law of n steps (segments mode), or NULL. */
static const tmc_segment_law *law_of(const tmc_straggler_model *m, long n)
{
    for (int i = 0; i < TMC_SEGMENT_LAWS && m->law[i].low; i++)
        if (m->law[i].n == n)
            return &m->law[i];
    return NULL;
}

/* A draw of law l. The first law's (K, the length that recurs) are made
 * TMC_AHEAD at a time into s->prefix and used in order: independent table
 * reads overlap, where one at a time each waits for the last. With blocks
 * a run of single segments is short (the few before an arrival), so the
 * batch is TMC_AHEAD_BLOCKS: a replica does not draw hundreds it never
 * uses. The stream's order is then the batch's, the same in every run. */
static double law_draw(const tmc_straggler_model *m, tmc_stragglers *s, const tmc_segment_law *l,
                       gsl_rng *r)
{
    if (l != &m->law[0])
        return tmc_segment_law_draw(l, r);
    if (s->used == s->held) {
        int batch = m->blocks ? TMC_AHEAD_BLOCKS : TMC_AHEAD;
        for (int i = 0; i < batch; i++)
            s->prefix[i] = tmc_segment_law_draw(l, r);
        s->used = 0, s->held = batch;
    }
    return s->prefix[s->used++];
}

/* The segment drawn whole from its law l: the sum (pauses of all cards
 * added), and the steps simulated (those begun by the limit when it ends
 * past it, at the segment's own mean step). */
static double whole(const tmc_straggler_model *m, tmc_stragglers *s, const tmc_segment_law *l,
                    long n, long paused, double t, double limit, gsl_rng *r)
{
    double sum = law_draw(m, s, l, r) + (double)paused * m->pause_s;
    double took = sum + (double)n * m->fixed_s, into = limit - t;
    if (took <= into) { /* the usual case: no division */
        s->steps_simulated += (double)n;
        return sum;
    }
    long begun = (long)(into / (took / (double)n)) + 1;
    s->steps_simulated += (double)(begun < n ? begun : n);
    return sum;
}

double tmc_stragglers_segment(const tmc_straggler_model *m, tmc_stragglers *s, long first,
                              long n, double t, double limit, int notice, gsl_rng *r,
                              const volatile sig_atomic_t *stop, int *cut)
{
    long paused = tmc_stragglers_paused(m, first, n);
    *cut = TMC_CUT_NONE;
    s->drift_s = s->done_drift_s = 0;
    if (m->drift.enabled) /* each step's time depends on the clock */
        return draw_steps(m, s, first, n, t, limit, r, stop, cut);
    if (m->max.sigma == 0 && s->slow == 0 && !(paused && m->pause_one)) {
        if (!notice || t + n * (m->max.mu + m->fixed_s) + paused * m->pause_s <= limit) {
            s->steps_simulated += n; /* no jitter: the same sum either way */
            return n * m->max.mu + paused * m->pause_s;
        }
    }
    const tmc_segment_law *l = m->segments && s->slow == 0 && !(paused && m->pause_one)
                                   ? law_of(m, n) : NULL;
    if (l && (!notice || t + l->max_s + paused * m->pause_s + n * m->fixed_s < limit)) {
        double sum = whole(m, s, l, n, paused, t, limit, r);
        if (((first ^ (first + n)) & -(long)TMC_STEPS_PER_STOP_CHECK) && *stop)
            *cut = TMC_CUT_STOP;
        return sum;
    }
    return draw_steps(m, s, first, n, t, limit, r, stop, cut);
}
