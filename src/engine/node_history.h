/* node_history.h - the fleet's nodes that carry their failures (issue 36
 * part 3): retirement after k failures within w days
 * (failures.retire_after_failures, retire_window_days; AIReSim's
 * ThresholdRemoval).
 *
 * The fleet (failures.c) is counts: the job's and the pool's nodes of each
 * kind (good, bad), and one repair per node. Every choice of a node among
 * those of a kind at a place is uniform, so a node that has never failed is
 * like any other there, and only nodes that have failed need a name: a
 * record of their last k failure times. A node picked among n of a kind at
 * a place is a named one with probability (named there) / n, and then a
 * uniform one of them; the counts stay failures.c's. A node in repair is
 * named by its repair (failures.h, repair_unit). The records never
 * outnumber the fleet's nodes, so they are allocated once per replica.
 *
 * Retirement: when a node's repair ends, it leaves the fleet if it has
 * failed k times within the w days before (AIReSim checks at the end of the
 * repair, counting the failures since end - w); since a node in repair
 * does not fail, that is known when the repair starts, and a node that
 * will retire never returns to the pool, so nothing can take it. */
#ifndef TMC_NODE_HISTORY_H
#define TMC_NODE_HISTORY_H

#include <gsl/gsl_rng.h>

/* Where a named node is (a node in repair is its repair's). */
typedef enum {
    TMC_NODE_JOB_GOOD,
    TMC_NODE_JOB_BAD,
    TMC_NODE_POOL_GOOD,
    TMC_NODE_POOL_BAD,
    TMC_NODE_PLACES
} tmc_node_place;

typedef struct {
    long k;            /* failures that retire a node */
    double window_s;   /* w, s (INFINITY: every failure since the start) */
    long cap;          /* records: the fleet's nodes */
    double *times;     /* k per record: its last k failure times, a ring (NULL
                          over the whole run, when the count decides) */
    long *n_times;     /* failures recorded (the ring holds min(n, k)) */
    long *pos;         /* its index in its place's list (-1: in repair) */
    int *place;
    long *list[TMC_NODE_PLACES]; /* the named nodes at each place */
    long count[TMC_NODE_PLACES];
    long *free_ids;    /* records not in use, a stack */
    long n_free;
} tmc_node_history;

/* Records for a fleet of `nodes` nodes, retiring at k failures within
 * window_s seconds (INFINITY: ever). Returns -1 if memory runs out. */
int tmc_node_history_start(tmc_node_history *h, long k, double window_s, long nodes);

void tmc_node_history_end(tmc_node_history *h);

/* A node picked uniformly among the n >= 1 of a kind at `place`: its record
 * (taken off the place), or -1 when it has none. One draw from r, made only
 * when the place holds named nodes. */
long tmc_node_history_pick(tmc_node_history *h, gsl_rng *r, tmc_node_place place, long n);

/* Record `id` (>= 0; -1 does nothing) is now at `place`. */
void tmc_node_history_put(tmc_node_history *h, long id, tmc_node_place place);

/* A node (record id, or -1 for one never named) failed at t, s: its record,
 * a new one if it had none. Returns -1 only if the records ran out, which
 * a fleet of `nodes` cannot do. */
long tmc_node_history_fail(tmc_node_history *h, long id, double t);

/* 1 when node `id` (>= 0) retires at `at`, s: its failures since at - w
 * number k or more (its record is then freed); else 0. -1: 0. */
int tmc_node_history_retires(tmc_node_history *h, long id, double at);

/* Aging: `aged` of the `goods` good nodes at place `from` (JOB_GOOD or
 * POOL_GOOD) turned bad; the named ones among them (hypergeometric, drawn
 * from r only when `from` holds named nodes) move to the bad place. */
void tmc_node_history_age(tmc_node_history *h, gsl_rng *r, tmc_node_place from, long goods,
                          long aged);

#endif
