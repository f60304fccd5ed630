/* plan.c - the design board's formulas, each cited in plan.h. */
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

/* Reference accelerators for the 6ND scale-up, BF16 dense peak FLOP/s
 * (docs/model.md 1: H100 989 T is the reference design's; A100 312 T and B200
 * about 2,250 T are read back from its charts and 1T example). */
static const struct {
    const char *name;
    double peak_flops;
} accelerators[TMC_PLAN_ACCELERATORS] = {
    {"A100", 312e12}, {"H100", 989e12}, {"B200", 2250e12}};

/* ---------- memory ---------- */

static double optimizer_bytes_per_param(const tmc_model *m)
{
    return m->master_bytes_per_param + m->adam_m_bytes_per_param + m->adam_v_bytes_per_param;
}

double tmc_plan_state_bytes_per_param(const tmc_model *m)
{
    return m->weights_bytes_per_param + m->grads_bytes_per_param + optimizer_bytes_per_param(m);
}

double tmc_plan_state_card_bytes(const tmc_model *m, int zero_stage, long cards)
{
    if (zero_stage < 0 || zero_stage > 3 || cards < 1)
        return -1;
    double w = m->weights_bytes_per_param, g = m->grads_bytes_per_param;
    double o = optimizer_bytes_per_param(m), d = (double)cards;
    /* Each stage moves one more state from "every card" to "one shard each". */
    double replicated = (zero_stage < 3 ? w : 0) + (zero_stage < 2 ? g : 0) +
                        (zero_stage < 1 ? o : 0);
    double sharded = tmc_plan_state_bytes_per_param(m) - replicated;
    return (double)m->parameters * (replicated + sharded / d);
}

double tmc_plan_transient_gib(const tmc_memory *mem)
{
    long live = mem->buffers_reused ? (mem->buffer_count > 0) : mem->buffer_count;
    return mem->activations_gib + (double)live * mem->buffer_gib;
}

static void plan_memory(const tmc_experiment *x, tmc_plan_memory *pm)
{
    pm->enabled = x->model.enabled && x->memory.enabled;
    if (!pm->enabled)
        return;
    const tmc_model *m = &x->model;
    pm->bytes_per_param = tmc_plan_state_bytes_per_param(m);
    pm->total_bytes = pm->bytes_per_param * (double)m->parameters;
    for (int stage = 0; stage < 4; stage++)
        pm->stage_gib[stage] = tmc_plan_state_card_bytes(m, stage, x->job.cards) / TMC_GIB;
    pm->state_gib = pm->stage_gib[x->memory.zero_stage];
    pm->transient_gib = tmc_plan_transient_gib(&x->memory);
    pm->card_gib = pm->state_gib + pm->transient_gib;
    pm->usable_gib = x->memory.usable_gib;
    pm->margin_gib = pm->usable_gib - pm->card_gib;
    pm->fits = pm->card_gib <= pm->usable_gib;
}

/* ---------- work and step ---------- */

long tmc_plan_micro_batches(long batch_sequences, long cards)
{
    if (batch_sequences < 1 || cards < 1)
        return -1;
    return (batch_sequences + cards - 1) / cards;
}

double tmc_plan_link_bytes(const tmc_model *m, long cards, long micro_batches)
{
    if (cards < 1 || micro_batches < 0)
        return -1;
    double d = (double)cards;
    double per_param = 2 * m->weights_bytes_per_param + m->grads_bytes_per_param;
    return (double)micro_batches * (d - 1) / d * per_param * (double)m->parameters;
}

static void plan_work(const tmc_experiment *x, tmc_plan_work *w)
{
    w->enabled = x->model.enabled && x->batch.enabled;
    if (!w->enabled)
        return;
    double sequences = (double)x->batch.sequences;
    w->batch_tokens = sequences * (double)x->model.sequence_tokens;
    w->steps = tmc_closed_form_steps(x->batch.train_tokens, sequences,
                                     (double)x->model.sequence_tokens);
    w->flop_per_step = sequences * x->model.flop_per_sequence;
}

static void plan_link(const tmc_experiment *x, double step_s, tmc_plan_link *l)
{
    l->enabled = x->model.enabled && x->batch.enabled && x->interconnect.enabled;
    if (!l->enabled)
        return;
    l->micro_batches = tmc_plan_micro_batches(x->batch.sequences, x->job.cards);
    l->bytes = tmc_plan_link_bytes(&x->model, x->job.cards, l->micro_batches);
    l->link_s = l->bytes / (x->interconnect.link_gb_per_s * TMC_GB);
    /* the exposed communication is part of the link's traffic: when prefetch
     * fails, the whole link is exposed instead of that part (issue 14) */
    l->exposed_step_s = step_s - fmin(x->job.exposed_comm_s, l->link_s) + l->link_s;
}

/* ---------- deadline ---------- */

double tmc_plan_efficiency_needed(double efficiency, double compute_s, double budget_step_s,
                                  double overhead, double fixed_s)
{
    double allowed = budget_step_s / (1 + overhead) - fixed_s;
    return allowed > 0 ? efficiency * compute_s / allowed : INFINITY;
}

static void plan_deadline(const tmc_experiment *x, const tmc_closed_form *cf,
                          tmc_plan_deadline *d)
{
    double steps = (double)x->job.steps;
    double fixed = x->job.exposed_comm_s + x->job.input_wait_s;
    double compute = cf->step_s - fixed; /* mu, plus the straggler term with jitter */
    double eff = x->job.efficiency;
    d->budget_step_s = cf->budget_step_s;
    d->full_budget_step_s = x->deadline.days * TMC_DAY_S / steps;
    d->ceiling_step_s = cf->budget_step_s / (1 + cf->overhead_young);
    d->base_days = cf->failure_free_s / TMC_DAY_S;
    d->meets = cf->completion_days <= x->deadline.days;
    d->efficiency_needed = tmc_plan_efficiency_needed(eff, compute, cf->budget_step_s,
                                                      cf->overhead_young, fixed);
    d->efficiency_needed_no_recovery =
        tmc_plan_efficiency_needed(eff, compute, cf->budget_step_s, 0, fixed);
}

/* ---------- checkpoint ---------- */

double tmc_plan_checkpoint_bytes(const tmc_model *m)
{
    return (m->weights_bytes_per_param + optimizer_bytes_per_param(m)) * (double)m->parameters;
}

double tmc_plan_min_snapshot_period_s(double bytes, double write_gb_per_s)
{
    return bytes / (write_gb_per_s * TMC_GB);
}

static void plan_checkpoint(const tmc_experiment *x, double interval_s, tmc_plan_checkpoint *c)
{
    c->enabled = x->model.enabled && x->storage.enabled;
    if (!c->enabled)
        return;
    c->bytes = tmc_plan_checkpoint_bytes(&x->model);
    c->save_s = tmc_plan_min_snapshot_period_s(c->bytes, x->storage.write_gb_per_s);
    c->interval_gb_per_s = c->bytes / interval_s / TMC_GB;
}

/* ---------- input pipeline ---------- */

static double supply_per_s(const tmc_input_pipeline *in, long running)
{
    return (double)running * in->process_sequences_per_s;
}

double tmc_plan_prefetch_sequences(const tmc_input_pipeline *in, double demand_per_s)
{
    double paused = supply_per_s(in, in->processes - in->paused_processes);
    return demand_per_s > paused ? (demand_per_s - paused) * in->pause_s : 0;
}

double tmc_plan_refill_s(const tmc_input_pipeline *in, double demand_per_s, double queue)
{
    double surplus = supply_per_s(in, in->processes) - demand_per_s;
    if (queue <= 0)
        return 0;
    return surplus > 0 ? queue / surplus : INFINITY;
}

static void plan_input(const tmc_experiment *x, double step_s, tmc_plan_input *p)
{
    const tmc_input_pipeline *in = &x->input_pipeline;
    p->enabled = in->enabled && x->batch.enabled;
    if (!p->enabled)
        return;
    p->supply_per_s = supply_per_s(in, in->processes);
    p->paused_supply_per_s = supply_per_s(in, in->processes - in->paused_processes);
    p->demand_per_s = (double)x->batch.sequences / step_s;
    p->queue_sequences = tmc_plan_prefetch_sequences(in, p->demand_per_s);
    p->refill_s = tmc_plan_refill_s(in, p->demand_per_s, p->queue_sequences);
}

/* ---------- batch scaling ---------- */

double tmc_plan_critical_steps(double s_min, double noise_tokens, double batch_tokens)
{
    return s_min * (1 + noise_tokens / batch_tokens);
}

/* Step time of the experiment's job on `cards` cards, each card's compute
 * scaled by `work` (1: the same per-card work, weak scaling). */
static double step_on(const tmc_experiment *x, long cards, double work)
{
    tmc_job job = x->job;
    job.flop_per_step *= work * (double)cards / (double)x->job.cards;
    job.cards = cards;
    return tmc_closed_form_step_s(&job, &x->jitter);
}

static void plan_scaling(const tmc_experiment *x, double step_s, tmc_plan_scaling *s)
{
    s->enabled = x->critical_batch.enabled && x->batch.enabled && x->model.enabled;
    if (!s->enabled)
        return;
    double noise = x->critical_batch.noise_scale_tokens, steps = (double)x->job.steps;
    double growth = (double)x->critical_batch.scale_to_cards / (double)x->job.cards;
    s->cards = x->critical_batch.scale_to_cards;
    s->batch_tokens = (double)x->batch.sequences * (double)x->model.sequence_tokens;
    s->ceiling = 1 + noise / s->batch_tokens;
    s->s_min = steps / s->ceiling;
    s->base_days = steps * step_s / TMC_DAY_S;
    s->weak_batch_tokens = s->batch_tokens * growth;
    s->weak_steps = tmc_plan_critical_steps(s->s_min, noise, s->weak_batch_tokens);
    s->weak_step_s = step_on(x, s->cards, 1);
    s->weak_days = s->weak_steps * s->weak_step_s / TMC_DAY_S;
    s->strong_step_s = step_on(x, s->cards, 1 / growth);
    s->strong_days = steps * s->strong_step_s / TMC_DAY_S;
}

/* ---------- scale-up ---------- */

double tmc_plan_6nd_days(double parameters, double tokens, double cards, double peak_flops,
                         double efficiency)
{
    return 6 * parameters * tokens / (cards * peak_flops * efficiency) / TMC_DAY_S;
}

double tmc_plan_6nd_cards(double parameters, double tokens, double days, double peak_flops,
                          double efficiency)
{
    return ceil(tmc_plan_6nd_days(parameters, tokens, 1, peak_flops, efficiency) / days);
}

static void plan_scale_up(const tmc_scale_up *u, tmc_plan_scale_up *p)
{
    p->enabled = u->enabled;
    if (!p->enabled)
        return;
    p->flop = 6 * u->parameters * u->tokens;
    for (int i = 0; i < TMC_PLAN_ACCELERATORS; i++) {
        tmc_plan_accelerator *a = &p->acc[i];
        a->name = accelerators[i].name;
        a->peak_flops = accelerators[i].peak_flops;
        a->days = tmc_plan_6nd_days(u->parameters, u->tokens, (double)u->cards, a->peak_flops,
                                    u->efficiency);
        a->meets = a->days <= u->deadline_days;
        a->cards_needed = tmc_plan_6nd_cards(u->parameters, u->tokens, u->deadline_days,
                                             a->peak_flops, u->efficiency);
    }
}

/* ---------- the board ---------- */

void tmc_plan_compute(const tmc_experiment *x, tmc_plan *p)
{
    tmc_closed_form_compute(x, &p->cf);
    plan_memory(x, &p->memory);
    plan_work(x, &p->work);
    plan_link(x, p->cf.step_s, &p->link);
    plan_deadline(x, &p->cf, &p->deadline);
    plan_checkpoint(x, p->cf.interval_s, &p->checkpoint);
    plan_input(x, p->cf.step_s, &p->input);
    plan_scaling(x, p->cf.step_s, &p->scaling);
    plan_scale_up(&x->scale_up, &p->scale_up);
    tmc_closed_form_spare_pool(x, &p->cf, &p->spares);
}

int tmc_plan_feasibility(const tmc_experiment *x, char *line, size_t n)
{
    tmc_plan_memory m;
    plan_memory(x, &m);
    if (!m.enabled) {
        snprintf(line, n, "memory: not checked (the experiment has no \"%s\" section)",
                 x->model.enabled ? "memory" : "model");
        return -1;
    }
    int len = snprintf(line, n, "memory: %.2f of %.2f GiB per card (ZeRO-%ld state %.2f + "
                                "activations and buffers %.2f GiB): ",
                       m.card_gib, m.usable_gib, x->memory.zero_stage, m.state_gib,
                       m.transient_gib);
    if (len >= 0 && (size_t)len < n)
        snprintf(line + len, n - (size_t)len,
                 m.fits ? "fits, margin %.2f GiB" : "does not fit, %.2f GiB over",
                 fabs(m.margin_gib));
    return m.fits;
}
