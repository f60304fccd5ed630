/* plan-1.x: the design board against the reference design's figures
 * (docs/model.md 1, 3.2-3.4, 4, 5) and the variants it poses as exercises
 * (reference design, exercises 10-1, 10-2, 10-3, 10-5), computed by hand in
 * the comments. Figures are quoted to the precision docs/model.md prints them,
 * so each check allows half a unit of the last printed digit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "plan.h"
#include "support.h"

#define P_QWEN3_8B 8190735360L /* docs/model.md 1 */

static void near(double got, double want, double half_unit, const char *what)
{
    if (!(fabs(got - want) <= half_unit))
        fail_msg("%s: got %.6g, expected %.6g (+- %.3g)", what, got, want, half_unit);
}

/* experiments/NAME.json with up to three --set overrides (NULL: none). */
static tmc_experiment load(const char *name, const char *set1, const char *set2,
                           const char *set3)
{
    const char *sets[3] = {set1, set2, set3};
    return test_load(name, sets, set3 ? 3 : set2 ? 2 : set1 ? 1 : 0);
}

static tmc_plan plan_of(const tmc_experiment *x)
{
    tmc_plan p;
    tmc_plan_compute(x, &p);
    return p;
}

/* The model file's recipe with other gradient and weight formats. */
static tmc_model qwen(double weights_bytes, double grads_bytes)
{
    tmc_model m = {1, P_QWEN3_8B, 4.31e14, 8192, weights_bytes, grads_bytes, 4, 4, 4};
    return m;
}

static double card_gib(const tmc_model *m, int stage, long cards)
{
    return tmc_plan_state_card_bytes(m, stage, cards) / TMC_GIB;
}

/* plan-1.1: docs/model.md 1, memory: 16 B/param = 131.1 GB; ZeRO-3 3.8 / 2.5 GiB
 * at 32 / 48 cards, 13.8 / 12.5 GiB with 10 GiB of activations; the
 * reference design's margins 8.2 / 9.5 GiB. */
static void test_memory_design(void **state)
{
    (void)state;
    tmc_experiment x32 = load("design-32", NULL, NULL, NULL);
    tmc_experiment x48 = load("design-48", NULL, NULL, NULL);
    tmc_plan p32 = plan_of(&x32), p48 = plan_of(&x48);
    assert_true(p48.memory.enabled);
    near(p48.memory.bytes_per_param, 16, 0, "bytes per parameter");
    near(p48.memory.total_bytes / TMC_GB, 131.1, 0.05, "resident state (GB)");
    near(p32.memory.state_gib, 3.8, 0.05, "ZeRO-3 state per card at 32 (GiB)");
    near(p48.memory.state_gib, 2.5, 0.05, "ZeRO-3 state per card at 48 (GiB)");
    near(p32.memory.card_gib, 13.8, 0.05, "per card with activations at 32 (GiB)");
    near(p48.memory.card_gib, 12.5, 0.05, "per card with activations at 48 (GiB)");
    near(p32.memory.margin_gib, 8.2, 0.05, "margin at 32 (GiB)");
    near(p48.memory.margin_gib, 9.5, 0.05, "margin at 48 (GiB)");
    assert_true(p32.memory.fits && p48.memory.fits);
}

/* plan-1.2: reference design 10.2 (figure 10-16): ZeRO-3 on 8 cards holds
 * 15.3 GiB, with 10 GiB 25.3 GiB: does not fit 22 GiB, over by 3.3 GiB; on
 * 16 cards 7.6 GiB, 17.6 GiB in all. */
static void test_memory_8_cards(void **state)
{
    (void)state;
    tmc_experiment x8 = load("design-48", "job.cards=8", NULL, NULL);
    tmc_experiment x16 = load("design-48", "job.cards=16", NULL, NULL);
    tmc_plan p8 = plan_of(&x8), p16 = plan_of(&x16);
    near(p8.memory.state_gib, 15.3, 0.05, "ZeRO-3 state at 8 cards (GiB)");
    near(p8.memory.card_gib, 25.3, 0.05, "per card at 8 cards (GiB)");
    near(-p8.memory.margin_gib, 3.3, 0.05, "over by (GiB)");
    assert_false(p8.memory.fits);
    near(p16.memory.state_gib, 7.6, 0.05, "ZeRO-3 state at 16 cards (GiB)");
    near(p16.memory.card_gib, 17.6, 0.05, "per card at 16 cards (GiB)");
    assert_true(p16.memory.fits);
}

/* plan-1.3: exercise 10-1. FP32 gradients: 2 + 4 + 4 + 4 + 4 = 18 B/param,
 * 18 x 8,190,735,360 = 147,433,236,480 B = 147.4 GB. On 8 cards:
 *   ZeRO-0  18 B/param                 = 147,433,236,480 B = 137.31 GiB
 *   ZeRO-1  2 + 4 + 12/8 = 7.5 B/param =  61,430,515,200 B =  57.21 GiB
 *   ZeRO-2  2 + 16/8     = 4 B/param   =  32,762,941,440 B =  30.51 GiB
 *   ZeRO-3  18/8         = 2.25 B/param =  18,429,154,560 B =  17.16 GiB
 * 6 GiB of activations and two module buffers of 3 GiB: live together
 * 6 + 3 + 3 = 12 GiB, reusing one space 6 + 3 = 9 GiB; so at ZeRO-3 the
 * peak is 17.16 + 12 = 29.16 GiB or 17.16 + 9 = 26.16 GiB, neither fits
 * 22 GiB (and with BF16 gradients 15.26 + 12 = 27.26 or 24.26 GiB). */
static void test_exercise_fp32_grads(void **state)
{
    (void)state;
    tmc_model m = qwen(2, 4);
    near(tmc_plan_state_bytes_per_param(&m) * P_QWEN3_8B / TMC_GB, 147.4, 0.05, "FP32 grads (GB)");
    near(card_gib(&m, 0, 8), 137.31, 0.005, "ZeRO-0, 8 cards (GiB)");
    near(card_gib(&m, 1, 8), 57.21, 0.005, "ZeRO-1, 8 cards (GiB)");
    near(card_gib(&m, 2, 8), 30.51, 0.005, "ZeRO-2, 8 cards (GiB)");
    near(card_gib(&m, 3, 8), 17.16, 0.005, "ZeRO-3, 8 cards (GiB)");
    assert_true(tmc_plan_state_card_bytes(&m, 4, 8) < 0);
    assert_true(tmc_plan_state_card_bytes(&m, 3, 0) < 0);

    tmc_experiment x = load("design-48", "job.cards=8", "model.grads_bytes_per_param=4",
                            "memory={\"usable_gib\": 22, \"activations_gib\": 6, "
                            "\"buffer_gib\": 3, \"buffer_count\": 2}");
    tmc_plan together = plan_of(&x);
    near(together.memory.transient_gib, 12, 1e-12, "buffers together (GiB)");
    near(together.memory.card_gib, 29.16, 0.005, "peak, buffers together (GiB)");
    x.memory.buffers_reused = 1;
    tmc_plan reused = plan_of(&x);
    near(reused.memory.transient_gib, 9, 1e-12, "buffers reused (GiB)");
    near(reused.memory.card_gib, 26.16, 0.005, "peak, buffers reused (GiB)");
    assert_false(together.memory.fits || reused.memory.fits);
    x.model.grads_bytes_per_param = 2;
    near(plan_of(&x).memory.card_gib, 24.26, 0.005, "BF16 grads, reused (GiB)");
}

/* plan-1.4: exercise 10-3. An FP8 weight copy (E4M3 with a FP32 scale per
 * 128 x 128 block, about 1.0002 B/param, reference design 10.2): 15.0002
 * B/param; ZeRO-3 per card 15.0002 P / 32 = 3.58 GiB, margin 22 - 13.58 =
 * 8.42 GiB; 15.0002 P / 48 = 2.38 GiB, margin 9.62 GiB. Activations and
 * buffers at 20 GiB instead of 10: 3.81 + 20 = 23.81 and 2.54 + 20 = 22.54
 * GiB, so neither design fits any more. */
static void test_exercise_fp8_and_activations(void **state)
{
    (void)state;
    tmc_experiment x32 = load("design-32", "model.weights_bytes_per_param=1.0002", NULL, NULL);
    tmc_experiment x48 = load("design-48", "model.weights_bytes_per_param=1.0002", NULL, NULL);
    tmc_plan p32 = plan_of(&x32), p48 = plan_of(&x48);
    near(p32.memory.state_gib, 3.58, 0.005, "FP8 copy, 32 cards (GiB)");
    near(p32.memory.margin_gib, 8.42, 0.005, "FP8 copy, 32 cards, margin (GiB)");
    near(p48.memory.state_gib, 2.38, 0.005, "FP8 copy, 48 cards (GiB)");
    near(p48.memory.margin_gib, 9.62, 0.005, "FP8 copy, 48 cards, margin (GiB)");

    x32 = load("design-32", "memory.activations_gib=20", NULL, NULL);
    x48 = load("design-48", "memory.activations_gib=20", NULL, NULL);
    p32 = plan_of(&x32);
    p48 = plan_of(&x48);
    near(p32.memory.card_gib, 23.81, 0.005, "20 GiB activations, 32 cards (GiB)");
    near(p48.memory.card_gib, 22.54, 0.005, "20 GiB activations, 48 cards (GiB)");
    assert_false(p32.memory.fits || p48.memory.fits);
}

/* plan-1.5: the feasibility line and its return value; an experiment
 * without the plan's sections (the format before them) still loads, and
 * is reported as not checked. */
static void test_feasibility(void **state)
{
    (void)state;
    char line[256];
    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    assert_int_equal(tmc_plan_feasibility(&x, line, sizeof line), 1);
    assert_string_equal(line, "memory: 12.54 of 22.00 GiB per card (ZeRO-3 state 2.54 + "
                              "activations and buffers 10.00 GiB): fits, margin 9.46 GiB");
    x = load("design-48", "job.cards=8", NULL, NULL);
    assert_int_equal(tmc_plan_feasibility(&x, line, sizeof line), 0);
    assert_string_equal(line, "memory: 25.26 of 22.00 GiB per card (ZeRO-3 state 15.26 + "
                              "activations and buffers 10.00 GiB): does not fit, 3.26 GiB over");
    x = load("design-48", "memory=null", NULL, NULL);
    assert_int_equal(tmc_plan_feasibility(&x, line, sizeof line), -1);
    assert_string_equal(line, "memory: not checked (the experiment has no \"memory\" section)");
    assert_int_equal(tmc_plan_feasibility(&x, line, 8), -1); /* truncated, terminated */
    assert_string_equal(line, "memory:");

    static const char *old_format =
        "{\"name\": \"old\", \"job\": {\"steps\": 100, \"cards\": 8, \"flop_per_step\": 1e15,"
        " \"peak_flops\": 1e14, \"efficiency\": 0.5}, \"checkpoint\": {\"interval_s\": 600,"
        " \"save_s\": 10, \"restore_s\": 60}, \"deadline\": {\"days\": 1}}";
    tmc_error err = {""};
    if (tmc_config_parse(old_format, "old.json", "", NULL, 0, &x, &err))
        fail_msg("%s", err.msg);
    x = test_keep(&x);
    tmc_plan p = plan_of(&x);
    assert_false(p.memory.enabled || p.work.enabled || p.link.enabled ||
                 p.checkpoint.enabled || p.input.enabled || p.scaling.enabled ||
                 p.scale_up.enabled);
    assert_int_equal(tmc_plan_feasibility(&x, line, sizeof line), -1);
    assert_string_equal(line, "memory: not checked (the experiment has no \"model\" section)");
}

/* plan-1.6: docs/model.md 1, work and step: 31,790 steps of 3,145,728 tokens;
 * F_step = 384 x 4.31e14 = 1.655e17; m = 12 / 8 micro-batches; ZeRO-3 link
 * V = 3 m (d-1)/d 2P: 571.3 GB = 17.9 s at 32 cards, 385 GB = 12.0 s at 48,
 * at 32 GB/s; step times 78.9 / 52.8 s. */
static void test_step(void **state)
{
    (void)state;
    tmc_experiment x32 = load("design-32", NULL, NULL, NULL);
    tmc_experiment x48 = load("design-48", NULL, NULL, NULL);
    tmc_plan p32 = plan_of(&x32), p48 = plan_of(&x48);
    assert_int_equal(p48.work.steps, 31790);
    near(p48.work.batch_tokens, 3145728, 0, "tokens per step");
    near(p48.work.flop_per_step, 1.655e17, 0.0005e17, "F_step");
    assert_int_equal(p32.link.micro_batches, 12);
    assert_int_equal(p48.link.micro_batches, 8);
    near(p48.link.bytes / TMC_GB, 385, 0.5, "ZeRO-3 volume at 48 cards (GB)");
    near(p32.link.link_s, 17.9, 0.05, "link time at 32 cards (s)");
    near(p48.link.link_s, 12.0, 0.05, "link time at 48 cards (s)");
    assert_true(tmc_plan_link_bytes(&x48.model, 0, 8) < 0);
    /* docs/model.md adds 0.58 s to mu already rounded (78.3 + 0.58 = 78.9; exact
     * 78.267 + 0.58 = 78.847), so the step times allow the two roundings. */
    near(p32.cf.step_s, 78.9, 0.1, "t_s at 32 cards");
    near(p48.cf.step_s, 52.8, 0.1, "t_s at 48 cards");
}

/* plan-1.7: docs/model.md 1 and 5, the deadline: budget 25 x 86,400 / 31,790 =
 * 67.9 s; 48-card ceiling 67.9 / 1.0108 = 67.2 s; completion 34.3 d (misses)
 * and 24.6 d (meets); 32 cards need 47 % efficiency. Exercise 10-2: the
 * 30-day budget 30 x 86,400 / 31,790 = 81.5 s; ignoring recovery, 32 cards
 * need 40 % x 78.267 / (67.946 - 0.58) = 46.5 %, with it (L = 1.016 %)
 * 40 % x 78.267 / (67.946 / 1.01016 - 0.58) = 47.0 %. */
static void test_deadline(void **state)
{
    (void)state;
    tmc_experiment x32 = load("design-32", NULL, NULL, NULL);
    tmc_experiment x48 = load("design-48", NULL, NULL, NULL);
    tmc_plan p32 = plan_of(&x32), p48 = plan_of(&x48);
    near(p48.deadline.budget_step_s, 67.9, 0.05, "step budget (s)");
    near(p48.deadline.ceiling_step_s, 67.2, 0.05, "48-card ceiling (s)");
    near(p48.deadline.full_budget_step_s, 81.5, 0.05, "30-day budget (s)");
    near(p32.cf.completion_days, 34.3, 0.05, "32-card completion (days)");
    near(p48.cf.completion_days, 24.6, 0.05, "48-card completion (days)");
    assert_false(p32.deadline.meets);
    assert_true(p48.deadline.meets);
    near(100 * p32.deadline.efficiency_needed, 47, 0.5, "efficiency needed at 32 cards (%)");
    near(100 * p32.deadline.efficiency_needed_no_recovery, 46.5, 0.05, "... without recovery");
    assert_true(isinf(tmc_plan_efficiency_needed(0.4, 50, 60, 0.01, 60)));
}

/* plan-1.8: docs/model.md 5, sensitivities at 48 cards: prefetch failing exposes
 * the 12.0 s link in place of the 0.08 s of exposed communication (which is
 * part of the link's traffic), step 52.758 - 0.08 + 12.030 = 64.71 s, still
 * under the 67.2 s ceiling (the source's "about 64.8" counts the 0.08 s
 * twice); eight cards sharing one 25 GB/s NIC move the 385 GB in 15.4 s and,
 * with prefetch failing, miss (52.758 - 0.08 + 15.399 = 68.08 s > 67.2 s,
 * docs/model.md's 68.1 s); efficiency 30 % gives a step of about 70.2 s,
 * which misses. */
static void test_sensitivities(void **state)
{
    (void)state;
    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    tmc_plan p = plan_of(&x);
    near(p.link.exposed_step_s, 64.708, 0.001, "step with the link exposed (s)");
    assert_true(p.link.exposed_step_s <= p.deadline.ceiling_step_s);
    x = load("design-48", "interconnect.link_gb_per_s=25", NULL, NULL);
    p = plan_of(&x);
    near(p.link.link_s, 15.4, 0.05, "link through a shared 25 GB/s NIC (s)");
    near(p.link.exposed_step_s, 68.08, 0.005, "step with that link exposed (s)");
    assert_true(p.link.exposed_step_s > p.deadline.ceiling_step_s);
    x = load("design-48", "job.efficiency=0.3", NULL, NULL);
    p = plan_of(&x);
    near(p.cf.step_s, 70.2, 0.05, "step at 30 % efficiency (s)");
    assert_true(p.cf.step_s > p.deadline.ceiling_step_s);
}

/* plan-1.9: docs/model.md 3.2-3.4, checkpoint and storage: 14 B/param =
 * 114,670,295,040 bytes, 16.38 s at 7 GB/s; Young's optimum at 48 cards
 * sqrt(2 x 16.38 x 606,600) = 4457.8 s (closed form, tested in cf-1.5). The
 * 3.3 example: 112 GB at 7 GB/s takes 16 s, so a snapshot every 10 s asks
 * 11.2 GB/s and the backlog grows, every 20 s asks 5.6 GB/s and keeps up.
 * Exercise 10-5: the shortest period for the 114.67 GB snapshot is 16.38 s;
 * the design's interval (34 steps, 1793.8 s) asks about 64 MB/s (reference
 * design 10.4). */
static void test_checkpoint(void **state)
{
    (void)state;
    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    tmc_plan p = plan_of(&x);
    near(p.checkpoint.bytes, 114670295040.0, 0, "snapshot (bytes)");
    near(p.checkpoint.save_s, 16.38, 0.005, "save at 7 GB/s (s)");
    near(p.checkpoint.interval_gb_per_s * 1000, 64, 0.5, "write rate of the interval (MB/s)");
    near(p.cf.young_interval_s, 4457.8, 0.05, "Young's optimum (s)");
    double shortest = tmc_plan_min_snapshot_period_s(112e9, 7);
    near(shortest, 16, 1e-12, "112 GB at 7 GB/s (s)");
    near(112e9 / 10 / TMC_GB, 11.2, 1e-12, "every 10 s (GB/s)");
    near(112e9 / 20 / TMC_GB, 5.6, 1e-12, "every 20 s (GB/s)");
    assert_true(10 < shortest && 20 >= shortest);
}

/* plan-1.10: docs/model.md 4, input: 4 processes x 2 = 8 sequences/s against
 * 384 / 52.8 s = 7.27/s; one paused for 60 s: (7.273 - 6) x 60 = 76.4
 * sequences of prefetch, refilled at 8 - 7.273 = 0.727/s in 105 s. docs/model.md
 * divides by t_s rounded to 52.8 s; with the unrounded 52.758 s the board
 * shows 7.28/s, 76.7 sequences and 106.3 s. */
static void test_input(void **state)
{
    (void)state;
    tmc_input_pipeline in = {1, 4, 2, 1, 60};
    double demand = 384 / 52.8; /* docs/model.md's rounded t_s */
    double queue = tmc_plan_prefetch_sequences(&in, demand);
    near(demand, 7.3, 0.05, "demand (sequences/s)");
    near(queue, 76, 0.5, "prefetch queue (sequences)");
    near(tmc_plan_refill_s(&in, demand, queue), 105, 0.5, "refill (s)");

    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    tmc_plan p = plan_of(&x);
    near(p.input.supply_per_s, 8, 0, "supply (sequences/s)");
    near(p.input.queue_sequences, 76.7, 0.05, "prefetch at t_s = 52.758 s");
    near(p.input.refill_s, 106.3, 0.05, "refill at t_s = 52.758 s");
    /* 32 cards ask 384 / 78.847 = 4.87/s: three processes (6/s) keep up. */
    x = load("design-32", NULL, NULL, NULL);
    p = plan_of(&x);
    near(p.input.queue_sequences, 0, 0, "no prefetch needed at 32 cards");
    near(p.input.refill_s, 0, 0, "nothing to refill");
    in.processes = 3; /* 6/s can never refill against 7.27/s */
    in.paused_processes = 1;
    assert_true(isinf(tmc_plan_refill_s(&in, demand, 10)));
}

/* plan-1.11: docs/model.md 1, critical batch, S(B) = S_min (1 + B_noise / B):
 * B_noise = 2M, B = 3,145,728: S_min = 31,790 / 1.63578 = 19,434; weak
 * scaling to 1,536 cards (B = 1,536 x 8 x 8,192 = 100,663,296 tokens)
 * needs 19,434 x 1.01987 = 19,820 steps of 52.758 s: 19.4 -> 12.1 days;
 * the ceiling is 1.64x. Exercise 10-2: 96 cards weak (B = 6,291,456):
 * 19,434 x 1.31789 = 25,612 steps, 15.64 days; strong (B fixed): mu =
 * 52.178 x 48 / 96 = 26.089 s, t_s 26.669 s, 31,790 steps, 9.81 days;
 * 1,536 cards strong: mu 1.631 s, t_s 2.211 s, 0.81 days (a quarter
 * sequence per card, which the formula does not forbid); B_noise = 20M:
 * ceiling 1 + 2e7 / 3,145,728 = 7.36x. */
static void test_batch_scaling(void **state)
{
    (void)state;
    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    tmc_plan p = plan_of(&x);
    near(p.scaling.s_min, 19434, 0.5, "S_min");
    near(p.scaling.weak_batch_tokens, 100663296, 0, "weak batch at 1,536 cards");
    near(p.scaling.weak_steps, 19820, 0.5, "weak steps at 1,536 cards");
    near(p.scaling.base_days, 19.4, 0.05, "48 cards (days)");
    near(p.scaling.weak_days, 12.1, 0.05, "1,536 cards, weak (days)");
    near(p.scaling.ceiling, 1.64, 0.005, "ceiling");
    near(p.scaling.strong_days, 0.81, 0.005, "1,536 cards, strong (days)");
    near(tmc_plan_critical_steps(100, 1, 1), 200, 0, "S(B_noise) = 2 S_min");

    x = load("design-48", "critical_batch.scale_to_cards=96", NULL, NULL);
    p = plan_of(&x);
    near(p.scaling.weak_steps, 25612, 0.5, "weak steps at 96 cards");
    near(p.scaling.weak_days, 15.64, 0.005, "96 cards, weak (days)");
    near(p.scaling.strong_step_s, 26.669, 0.0005, "96 cards, strong step (s)");
    near(p.scaling.strong_days, 9.81, 0.005, "96 cards, strong (days)");
    x = load("design-48", "critical_batch.noise_scale_tokens=2e7", NULL, NULL);
    near(plan_of(&x).scaling.ceiling, 7.36, 0.005, "ceiling at B_noise = 20M");
}

/* plan-1.12: docs/model.md 1, scale-up, F = 6ND = 6 x 1e12 x 2e13 = 1.2e26 FLOP
 * on 16,384 cards at 40 %: A100 679 d, H100 214 d, B200 94 d; B200 needs
 * 1.2e26 / (90 x 86,400 x 2.25e15 x 0.4) = 17,146.8 -> 17,147 cards for 90
 * days; at 50 % MFU 75 d. */
static void test_scale_up(void **state)
{
    (void)state;
    tmc_experiment x = load("design-48", NULL, NULL, NULL);
    tmc_plan p = plan_of(&x);
    near(p.scale_up.flop, 1.2e26, 0, "6ND");
    assert_string_equal(p.scale_up.acc[0].name, "A100");
    assert_string_equal(p.scale_up.acc[2].name, "B200");
    near(p.scale_up.acc[0].days, 679, 0.5, "A100 (days)");
    near(p.scale_up.acc[1].days, 214, 0.5, "H100 (days)");
    near(p.scale_up.acc[2].days, 94, 0.5, "B200 (days)");
    near(p.scale_up.acc[2].cards_needed, 17147, 0, "B200 cards for 90 days");
    assert_false(p.scale_up.acc[0].meets || p.scale_up.acc[1].meets || p.scale_up.acc[2].meets);
    near(tmc_plan_6nd_days(1e12, 2e13, 16384, 2250e12, 0.5), 75, 0.5, "B200 at 50 % (days)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_design),
        cmocka_unit_test(test_memory_8_cards),
        cmocka_unit_test(test_exercise_fp32_grads),
        cmocka_unit_test(test_exercise_fp8_and_activations),
        cmocka_unit_test(test_feasibility),
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_sensitivities),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_input),
        cmocka_unit_test(test_batch_scaling),
        cmocka_unit_test(test_scale_up),
    };
    return cmocka_run_group_tests_name("plan-1", tests, NULL, NULL);
}
