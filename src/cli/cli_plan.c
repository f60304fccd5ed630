/* cli_plan.c - `trainmc plan`: the design board of one experiment (plan.h),
 * as text and optionally JSON. Deterministic: no simulation. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assumed_output.h"
#include "cli.h"
#include "cost.h"
#include "options.h"
#include "output.h"
#include "plan.h"

static const tmc_cli_command command = {
    "plan", TMC_CLI_PLAN, "EXPERIMENT.json",
    "usage: trainmc plan EXPERIMENT.json [options]\n"
    "\n"
    "Print the experiment's design board (docs/model.md 1, 3-5), without simulating:\n"
    "resident state per card by ZeRO stage against usable memory; compute, ZeRO-3\n"
    "link time and step time; steps from tokens and batch; step budget, ceiling,\n"
    "Young overhead, completion and the efficiency needed; checkpoint size and\n"
    "save time; the prefetch queue a paused input process needs; critical-batch\n"
    "weak and strong scaling; 6ND days and cards on A100, H100 and B200.\n"
    "Parts whose experiment sections are absent are skipped.\n"};

/* ---------- text ---------- */

/* v rounded to an integer with thousands separators: 114,670,295,040;
 * from 1e15 on "%.4g" (2.226e+29): "%.0f" would run past the 32 digits
 * and 40 characters kept here, cutting the number and overflowing t.s
 * (issue 33 item 4). */
typedef struct {
    char s[40];
} ntext;

static ntext commas(double v)
{
    char digits[32];
    ntext t;
    if (!(fabs(v) < 1e15)) {
        snprintf(t.s, sizeof t.s, "%.4g", v);
        return t;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t len = strlen(digits), k = 0;
    if (v <= -0.5)
        t.s[k++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            t.s[k++] = ',';
        t.s[k++] = digits[i];
    }
    t.s[k] = '\0';
    return t;
}

static void text_memory(FILE *f, const tmc_experiment *x, const tmc_plan_memory *m)
{
    const tmc_model *md = &x->model;
    char line[512];
    fprintf(f, "Memory      resident state %.4g bytes/param x %s parameters = %.1f GB\n"
               "            (weights %.4g, gradients %.4g, master %.4g, Adam m %.4g, v %.4g)\n",
            m->bytes_per_param, commas((double)md->parameters).s, m->total_bytes / TMC_GB,
            md->weights_bytes_per_param, md->grads_bytes_per_param, md->master_bytes_per_param,
            md->adam_m_bytes_per_param, md->adam_v_bytes_per_param);
    fprintf(f, "            per card on %ld cards: ZeRO-0 %.2f, ZeRO-1 %.2f, ZeRO-2 %.2f, "
               "ZeRO-3 %.2f GiB\n",
            x->job.cards, m->stage_gib[0], m->stage_gib[1], m->stage_gib[2], m->stage_gib[3]);
    tmc_plan_feasibility(x, line, sizeof line);
    fprintf(f, "            %s\n", line);
}

static void text_work(FILE *f, const tmc_experiment *x, const tmc_plan_work *w)
{
    fprintf(f, "Work        %.4g tokens / (%ld x %s = %s tokens per step) = %s steps "
               "(job.steps %s)\n",
            x->batch.train_tokens, x->batch.sequences, commas((double)x->model.sequence_tokens).s,
            commas(w->batch_tokens).s, commas((double)w->steps).s,
            commas((double)x->job.steps).s);
    fprintf(f, "            F_step = %ld x %.4g = %.4g FLOP (job.flop_per_step %.4g)\n",
            x->batch.sequences, x->model.flop_per_sequence, w->flop_per_step,
            x->job.flop_per_step);
}

static void text_step(FILE *f, const tmc_experiment *x, const tmc_plan *p)
{
    const tmc_job *j = &x->job;
    fprintf(f, "Step        compute %.3f s per card (%.4g FLOP / (%ld x %.4g TFLOP/s x %.1f %%))\n",
            p->cf.compute_s, j->flop_per_step, j->cards, j->peak_flops / 1e12,
            100 * j->efficiency);
    /* Overlap can hide the link only behind a longer compute (docs/model.md 5). */
    if (p->link.enabled)
        fprintf(f, "            ZeRO-3 link %.2f GB per card (%ld micro-batches) = %.3f s at "
                   "%.4g GB/s, %s\n",
                p->link.bytes / TMC_GB, p->link.micro_batches, p->link.link_s,
                x->interconnect.link_gb_per_s,
                p->link.link_s < p->cf.compute_s ? "shorter than compute: can hide under it"
                                                 : "longer than compute: cannot all hide");
    double stragglers = p->cf.step_s - p->cf.compute_s - j->exposed_comm_s - j->input_wait_s;
    fprintf(f, "            step t_s = %.3f compute", p->cf.compute_s);
    if (p->cf.emax_coeff > 0)
        fprintf(f, " + %.3f stragglers (c_N %.4f)", stragglers, p->cf.emax_coeff);
    fprintf(f, " + %.3f exposed comm + %.3f input = %.3f s\n", j->exposed_comm_s,
            j->input_wait_s, p->cf.step_s);
    if (p->link.enabled)
        fprintf(f, "            if prefetch fails and the link is exposed: %.3f s\n",
                p->link.exposed_step_s);
}

static void text_deadline(FILE *f, const tmc_experiment *x, const tmc_plan *p)
{
    const tmc_plan_deadline *d = &p->deadline;
    double train = x->deadline.days - x->deadline.reserve_days;
    fprintf(f, "Deadline    budget %.3f s/step (%.4g of %.4g days; %.3f s without the reserve)\n",
            d->budget_step_s, train, x->deadline.days, d->full_budget_step_s);
    int searched = x->checkpoint.interval_rule == TMC_INTERVAL_OPTIMAL; /* by a run */
    fprintf(f, "            Young L %.3f %% (interval %.1f s%s, optimum %.1f s); ceiling "
               "%.3f s/step, %s %.3f s\n",
            100 * p->cf.overhead_young, p->cf.interval_s,
            searched ? ": the closed form's; \"optimal\" is searched when run" : "",
            p->cf.young_interval_s,
            d->ceiling_step_s, p->cf.step_s <= d->ceiling_step_s ? "margin" : "over by",
            fabs(d->ceiling_step_s - p->cf.step_s));
    fprintf(f, "            completion %.4g + %.3f x (1 + L) = %.3f days: %s the %.4g-day "
               "deadline\n",
            x->deadline.reserve_days, d->base_days, p->cf.completion_days,
            d->meets ? "meets" : "misses", x->deadline.days);
    fprintf(f, "            efficiency needed %.1f %% (%.1f %% without recovery); "
               "configured %.1f %%\n",
            100 * d->efficiency_needed, 100 * d->efficiency_needed_no_recovery,
            100 * x->job.efficiency);
    tmc_cost_summary c;
    tmc_summary young = {.mean = p->cf.completion_days};
    tmc_cost_summarize(x, &p->cf, &young, &c);
    fprintf(f, "            %.0f card-hours (%ld cards held, Young's T%s)", c.closed_form,
            c.cards_held, c.offset_days > 0 ? ", reserve not billed" : "");
    if (c.priced)
        fprintf(f, ", cost %.6g (%.4g a card-hour + %.4g fixed)", c.money_closed_form,
                c.price_per_card_hour, c.fixed);
    fprintf(f, "\n");
}

static void text_checkpoint(FILE *f, const tmc_experiment *x, const tmc_plan *p)
{
    const tmc_plan_checkpoint *c = &p->checkpoint;
    fprintf(f, "Checkpoint  %.4g bytes/param = %s bytes; save %.3f s at %.4g GB/s "
               "(checkpoint.save_s %.4g)\n",
            c->bytes / (double)x->model.parameters, commas(c->bytes).s, c->save_s,
            x->storage.write_gb_per_s, x->checkpoint.save_s);
    fprintf(f, "            storage absorbs a snapshot every %.3f s or longer; every %.1f s "
               "asks %.3f GB/s\n",
            c->save_s, p->cf.interval_s, c->interval_gb_per_s);
}

static void text_input(FILE *f, const tmc_experiment *x, const tmc_plan *p)
{
    const tmc_plan_input *in = &p->input;
    const tmc_input_pipeline *ip = &x->input_pipeline;
    fprintf(f, "Input       %ld processes x %.4g = %.2f sequences/s against %ld / %.3f s = "
               "%.2f needed\n",
            ip->processes, ip->process_sequences_per_s, in->supply_per_s, x->batch.sequences,
            p->cf.step_s, in->demand_per_s);
    if (in->queue_sequences > 0)
        fprintf(f, "            %ld paused for %.4g s: prefetch %.1f sequences, refilled in "
                   "%.1f s\n",
                ip->paused_processes, ip->pause_s, in->queue_sequences, in->refill_s);
    else
        fprintf(f, "            %ld paused for %.4g s: no prefetch needed, the others supply "
                   "%.2f sequences/s\n",
                ip->paused_processes, ip->pause_s, in->paused_supply_per_s);
}

static void text_scaling(FILE *f, const tmc_experiment *x, const tmc_plan_scaling *s)
{
    double per_card = (double)x->batch.sequences / (double)s->cards;
    fprintf(f, "Batch       B %s tokens, B_noise %s: S_min %s steps; ceiling %.3fx\n",
            commas(s->batch_tokens).s, commas(x->critical_batch.noise_scale_tokens).s,
            commas(s->s_min).s, s->ceiling);
    fprintf(f, "            weak scaling to %s cards (B %s): %s steps x %.3f s = %.2f days "
               "(from %.2f)\n",
            commas((double)s->cards).s, commas(s->weak_batch_tokens).s,
            commas(s->weak_steps).s, s->weak_step_s, s->weak_days, s->base_days);
    fprintf(f, "            strong scaling to %s cards (B fixed): %s steps x %.3f s = %.2f "
               "days%s\n",
            commas((double)s->cards).s, commas((double)x->job.steps).s, s->strong_step_s,
            s->strong_days, per_card < 1 ? " (fewer sequences than cards)" : "");
}

static void text_scale_up(FILE *f, const tmc_scale_up *u, const tmc_plan_scale_up *p)
{
    double pct = 100 * u->efficiency; /* below 0.05 %, "%.1f" would print 0.0 */
    fprintf(f, "Scale-up    6ND = 6 x %.4g x %.4g = %.4g FLOP on %s cards at %.*f %%, "
               "deadline %.4g days\n",
            u->parameters, u->tokens, p->flop, commas((double)u->cards).s,
            pct >= 0.05 ? 1 : 2 - (int)floor(log10(pct)), pct, u->deadline_days);
    for (int i = 0; i < TMC_PLAN_ACCELERATORS; i++) {
        const tmc_plan_accelerator *a = &p->acc[i];
        char days[32]; /* "%.1f" of 1e19 days prints 20 digits of nothing */
        snprintf(days, sizeof days, a->days < 1e7 ? "%.1f" : "%.4g", a->days);
        fprintf(f, "            %s %5.0f TFLOP/s %8s days %-6s %10s cards for %.4g days\n",
                a->name, a->peak_flops / 1e12, days, a->meets ? "meets" : "misses",
                commas(a->cards_needed).s, u->deadline_days);
    }
}

/* The parts skipped, and the sections each needs. */
static void text_skipped(FILE *f, const tmc_plan *p)
{
    const struct {
        int enabled;
        const char *what;
    } parts[] = {
        {p->memory.enabled, "memory: needs model, memory"},
        {p->work.enabled, "work: needs model, batch"},
        {p->link.enabled, "ZeRO-3 link: needs model, batch, interconnect"},
        {p->checkpoint.enabled, "checkpoint size: needs model, storage"},
        {p->input.enabled, "input: needs input_pipeline, batch"},
        {p->scaling.enabled, "batch scaling: needs critical_batch, batch, model"},
        {p->scale_up.enabled, "scale-up: needs scale_up"},
    };
    int any = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (!parts[i].enabled)
            fprintf(f, "%s%s\n", any++ ? "            " : "Skipped     ", parts[i].what);
}

/* A pool's size in its units, and in cards when a unit is more than one. */
static void text_units(FILE *f, long units, double unit_cards)
{
    int node = unit_cards > 1;
    fprintf(f, "%ld %s%s", units, node ? "unit" : "card", units == 1 ? "" : "s");
    if (node)
        fprintf(f, " (%.0f cards)", (double)units * unit_cards);
}

/* The spare pool a run needs (docs/model.md 3.21). */
static void text_spares(FILE *f, const tmc_plan *p)
{
    const tmc_spare_pool_form *s = &p->spares;
    if (!s->enabled)
        return;
    if (s->burst_share > 0) /* a unit is a node; a burst takes several */
        fprintf(f, "Spares      %.3g cards a unit (a node), %.3f failures a day take one a "
                   "repair of %.3g h, bursts (%.3g %% of them) %.3g on average: %.3f units "
                   "in repair on average\n", s->unit_cards, s->rate * TMC_DAY_S,
                s->repair_s / TMC_HOUR_S, 100 * s->burst_share, s->burst_nodes,
                s->in_repair_mean);
    else
        fprintf(f, "Spares      %.3g card%s a failure, %.3f failures a day take a repair of "
                   "%.3g h: %.3f units in repair on average\n", s->unit_cards,
                s->unit_cards == 1 ? "" : "s", s->rate * TMC_DAY_S, s->repair_s / TMC_HOUR_S,
                s->in_repair_mean);
    fprintf(f, "            a pool of ");
    text_units(f, s->units_10pct, s->unit_cards);
    fprintf(f, " keeps P(wait) per failure below 10 %%, ");
    text_units(f, s->units_1pct, s->unit_cards);
    fprintf(f, " below 1 %%\n");
    if (s->units < 0) {
        fprintf(f, "            this run: unlimited spares, no wait\n");
        return;
    }
    fprintf(f, "            this run: ");
    text_units(f, s->units, s->unit_cards);
    fprintf(f, ", P(wait) %.1f %%, %.3g h a failure, %.3f days a run (in Young's T)\n",
            100 * p->cf.spare_wait_p, p->cf.spare_wait_per_failure_s / TMC_HOUR_S,
            p->cf.spare_wait_s / TMC_DAY_S);
}

static void plan_text(FILE *f, const tmc_experiment *x, const tmc_plan *p)
{
    fprintf(f, "trainmc plan: %s (%s%s%s)\n\n", x->name, x->path, x->source[0] ? "; source: " : "",
            x->source);
    if (p->memory.enabled)
        text_memory(f, x, &p->memory);
    if (p->work.enabled)
        text_work(f, x, &p->work);
    text_step(f, x, p);
    text_deadline(f, x, p);
    text_spares(f, p);
    tmc_assumed_output_text(f, x, &p->cf); /* what the deadline's answer assumes */
    if (p->checkpoint.enabled)
        text_checkpoint(f, x, p);
    if (p->input.enabled)
        text_input(f, x, p);
    if (p->scaling.enabled)
        text_scaling(f, x, &p->scaling);
    if (p->scale_up.enabled)
        text_scale_up(f, &x->scale_up, &p->scale_up);
    text_skipped(f, p);
}

/* ---------- JSON ---------- */

/* Add numbers under names: pairs of (name, value), ended by NULL. An infinite
 * value becomes null (JSON has no infinity). */
static void add_numbers(cJSON *obj, ...)
{
    va_list ap;
    va_start(ap, obj);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        double v = va_arg(ap, double);
        if (isfinite(v))
            cJSON_AddNumberToObject(obj, name, v);
        else
            cJSON_AddNullToObject(obj, name);
    }
    va_end(ap);
}

/* A sub-object `name`, or null (returned NULL) when the part is skipped. */
static cJSON *part(cJSON *doc, const char *name, int enabled)
{
    if (enabled)
        return cJSON_AddObjectToObject(doc, name);
    cJSON_AddNullToObject(doc, name);
    return NULL;
}

static void json_memory(cJSON *doc, const tmc_experiment *x, const tmc_plan_memory *m)
{
    cJSON *o = part(doc, "memory", m->enabled);
    if (!o)
        return;
    add_numbers(o, "bytes_per_param", m->bytes_per_param, "total_bytes", m->total_bytes,
                "zero_stage", (double)x->memory.zero_stage, "state_gib", m->state_gib,
                "transient_gib", m->transient_gib, "card_gib", m->card_gib, "usable_gib",
                m->usable_gib, "margin_gib", m->margin_gib, (char *)NULL);
    cJSON_AddItemToObject(o, "state_gib_by_zero_stage", cJSON_CreateDoubleArray(m->stage_gib, 4));
    cJSON_AddBoolToObject(o, "fits", m->fits);
}

static void json_step(cJSON *doc, const tmc_experiment *x, const tmc_plan *p)
{
    cJSON *w = part(doc, "work", p->work.enabled);
    if (w)
        add_numbers(w, "batch_tokens", p->work.batch_tokens, "steps", (double)p->work.steps,
                    "flop_per_step", p->work.flop_per_step, (char *)NULL);
    cJSON *s = cJSON_AddObjectToObject(doc, "step");
    add_numbers(s, "compute_s", p->cf.compute_s, "exposed_comm_s", x->job.exposed_comm_s,
                "input_wait_s", x->job.input_wait_s, "step_s", p->cf.step_s, (char *)NULL);
    cJSON *l = part(doc, "link", p->link.enabled);
    if (l)
        add_numbers(l, "micro_batches", (double)p->link.micro_batches, "bytes", p->link.bytes,
                    "link_s", p->link.link_s, "exposed_step_s", p->link.exposed_step_s,
                    (char *)NULL);
}

static void json_deadline(cJSON *doc, const tmc_experiment *x, const tmc_plan *p)
{
    const tmc_plan_deadline *d = &p->deadline;
    cJSON *o = cJSON_AddObjectToObject(doc, "deadline");
    add_numbers(o, "budget_step_s", d->budget_step_s, "full_budget_step_s",
                d->full_budget_step_s, "ceiling_step_s", d->ceiling_step_s, "overhead_young",
                p->cf.overhead_young, "interval_s", p->cf.interval_s, "young_interval_s",
                p->cf.young_interval_s, "base_days", d->base_days, "completion_days",
                p->cf.completion_days, "efficiency_needed", d->efficiency_needed,
                "efficiency_needed_no_recovery", d->efficiency_needed_no_recovery,
                (char *)NULL);
    cJSON_AddBoolToObject(o, "meets", d->meets);
    tmc_cost_summary c;
    tmc_summary young = {.mean = p->cf.completion_days};
    tmc_cost_summarize(x, &p->cf, &young, &c);
    add_numbers(o, "cards_held", (double)c.cards_held, "card_hours", c.closed_form,
                (char *)NULL);
    if (c.priced)
        add_numbers(o, "cost", c.money_closed_form, (char *)NULL);
    else
        cJSON_AddNullToObject(o, "cost");
}

static void json_supply(cJSON *doc, const tmc_plan *p)
{
    cJSON *c = part(doc, "checkpoint", p->checkpoint.enabled);
    if (c)
        add_numbers(c, "bytes", p->checkpoint.bytes, "save_s", p->checkpoint.save_s,
                    "min_snapshot_period_s", p->checkpoint.save_s, "interval_gb_per_s",
                    p->checkpoint.interval_gb_per_s, (char *)NULL);
    cJSON *i = part(doc, "input", p->input.enabled);
    if (i)
        add_numbers(i, "supply_per_s", p->input.supply_per_s, "paused_supply_per_s",
                    p->input.paused_supply_per_s, "demand_per_s", p->input.demand_per_s,
                    "prefetch_sequences", p->input.queue_sequences, "refill_s",
                    p->input.refill_s, (char *)NULL);
}

static void json_scaling(cJSON *doc, const tmc_plan *p)
{
    const tmc_plan_scaling *s = &p->scaling;
    cJSON *o = part(doc, "batch_scaling", s->enabled);
    if (o)
        add_numbers(o, "batch_tokens", s->batch_tokens, "s_min", s->s_min, "ceiling",
                    s->ceiling, "cards", (double)s->cards, "base_days", s->base_days,
                    "weak_batch_tokens", s->weak_batch_tokens, "weak_steps", s->weak_steps,
                    "weak_step_s", s->weak_step_s, "weak_days", s->weak_days, "strong_step_s",
                    s->strong_step_s, "strong_days", s->strong_days, (char *)NULL);
    cJSON *u = part(doc, "scale_up", p->scale_up.enabled);
    if (!u)
        return;
    add_numbers(u, "flop", p->scale_up.flop, (char *)NULL);
    cJSON *list = cJSON_AddArrayToObject(u, "accelerators");
    for (int k = 0; k < TMC_PLAN_ACCELERATORS; k++) {
        const tmc_plan_accelerator *a = &p->scale_up.acc[k];
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", a->name);
        add_numbers(item, "peak_flops", a->peak_flops, "days", a->days, "cards_needed",
                    a->cards_needed, (char *)NULL);
        cJSON_AddBoolToObject(item, "meets", a->meets);
        cJSON_AddItemToArray(list, item);
    }
}

/* The pool a run needs (docs/model.md 3.21); null without failures that
 * take hardware. */
static void json_spares(cJSON *doc, const tmc_plan *p)
{
    const tmc_spare_pool_form *s = &p->spares;
    cJSON *o = part(doc, "spares", s->enabled);
    if (!o)
        return;
    add_numbers(o, "unit_cards", s->unit_cards, "rate_per_day", s->rate * TMC_DAY_S,
                "repair_s", s->repair_s, "in_repair_mean", s->in_repair_mean,
                "units_10pct", (double)s->units_10pct, "units_1pct", (double)s->units_1pct,
                "burst_share", s->burst_share, "burst_nodes", s->burst_nodes,
                "units", s->units < 0 ? INFINITY : (double)s->units,
                "wait_p", p->cf.spare_wait_p,
                "wait_per_failure_s", p->cf.spare_wait_per_failure_s,
                "wait_days", p->cf.spare_wait_s / TMC_DAY_S, (char *)NULL);
}

static cJSON *plan_json(const tmc_experiment *x, const tmc_plan *p)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "experiment", x->name);
    cJSON_AddStringToObject(doc, "source", x->source);
    json_memory(doc, x, &p->memory);
    json_step(doc, x, p);
    json_deadline(doc, x, p);
    json_spares(doc, p);
    json_supply(doc, p);
    json_scaling(doc, p);
    cJSON_AddItemToObject(doc, "assumed", tmc_assumed_output_json(x, &p->cf));
    return doc;
}

/* The plan of x, printed, and with --json written. */
static int plan(const tmc_experiment *x, const tmc_cli_options *o)
{
    int rc;
    if (tmc_window_on(x)) { /* the board plans a fixed amount of work */
        fprintf(stderr, "trainmc: %s: window: `trainmc plan` plans a fixed amount of work; a "
                        "calendar window's goodput is `trainmc run`'s\n", x->path);
        return 2;
    }
    tmc_outfile out = {0};
    if (o->json_path && (rc = tmc_cli_open_output(&out, o->json_path, x)))
        return rc;
    tmc_plan p;
    tmc_plan_compute(x, &p);
    plan_text(stdout, x, &p);
    if (tmc_cli_check_stdout()) { /* the report is lost: no JSON of it either */
        if (o->json_path)
            tmc_output_abort(&out);
        return 1;
    }
    return o->json_path ? tmc_cli_write_json(&out, plan_json(x, &p)) : 0;
}

int tmc_cli_plan(int argc, char **argv)
{
    return tmc_cli_main(&command, argc, argv, plan);
}
