/* node_history.c - the fleet's named nodes (node_history.h).
 * Invariants: a record in use is either at a place, list[place][pos[id]]
 * == id, or in repair (pos -1); free_ids holds the others. */
#include "node_history.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>

int tmc_node_history_start(tmc_node_history *h, long k, double window_s, long nodes)
{
    *h = (tmc_node_history){.k = k, .window_s = window_s, .cap = nodes};
    size_t n = (size_t)(nodes > 0 ? nodes : 1);
    /* over the whole run a count decides, and k times a node (k up to 1000,
     * 1e5 nodes: 800 MB) are not needed */
    h->times = isfinite(window_s) ? malloc(n * (size_t)k * sizeof *h->times) : NULL;
    h->n_times = malloc(n * sizeof *h->n_times);
    h->pos = malloc(n * sizeof *h->pos);
    h->place = malloc(n * sizeof *h->place);
    h->free_ids = malloc(n * sizeof *h->free_ids);
    int ok = (h->times || !isfinite(window_s)) && h->n_times && h->pos && h->place &&
             h->free_ids;
    for (int p = 0; p < TMC_NODE_PLACES; p++)
        ok = ok && (h->list[p] = malloc(n * sizeof *h->list[p]));
    if (!ok) {
        tmc_node_history_end(h);
        return -1;
    }
    for (long id = nodes - 1; id >= 0; id--) /* 0 taken first: the order is immaterial */
        h->free_ids[h->n_free++] = id;
    return 0;
}

void tmc_node_history_end(tmc_node_history *h)
{
    free(h->times);
    free(h->n_times);
    free(h->pos);
    free(h->place);
    free(h->free_ids);
    for (int p = 0; p < TMC_NODE_PLACES; p++)
        free(h->list[p]);
    *h = (tmc_node_history){0};
}

/* Take list entry i of `place` off it (the last moves into its slot). */
static long take_off(tmc_node_history *h, tmc_node_place place, long i)
{
    long id = h->list[place][i], last = h->list[place][--h->count[place]];
    h->list[place][i] = last;
    h->pos[last] = i;
    h->pos[id] = -1;
    return id;
}

long tmc_node_history_pick(tmc_node_history *h, gsl_rng *r, tmc_node_place place, long n)
{
    if (h->count[place] == 0)
        return -1;
    long u = (long)gsl_rng_uniform_int(r, (unsigned long)n);
    return u < h->count[place] ? take_off(h, place, u) : -1;
}

void tmc_node_history_put(tmc_node_history *h, long id, tmc_node_place place)
{
    if (id < 0)
        return;
    h->place[id] = (int)place;
    h->pos[id] = h->count[place];
    h->list[place][h->count[place]++] = id;
}

long tmc_node_history_fail(tmc_node_history *h, long id, double t)
{
    if (id < 0) {
        if (h->n_free == 0)
            return -1;
        id = h->free_ids[--h->n_free];
        h->n_times[id] = 0;
        h->pos[id] = -1;
    }
    if (h->times)
        h->times[id * h->k + h->n_times[id] % h->k] = t; /* over the oldest */
    h->n_times[id]++;
    return id;
}

int tmc_node_history_retires(tmc_node_history *h, long id, double at)
{
    if (id < 0 || h->n_times[id] < h->k)
        return 0;
    long recent = h->k; /* the whole run: the count decides */
    if (h->times) /* the ring holds the last k: each since at - w counts */
        for (long j = recent = 0; j < h->k; j++)
            recent += h->times[id * h->k + j] >= at - h->window_s;
    if (recent < h->k)
        return 0;
    h->free_ids[h->n_free++] = id;
    return 1;
}

void tmc_node_history_age(tmc_node_history *h, gsl_rng *r, tmc_node_place from, long goods,
                          long aged)
{
    long named = h->count[from];
    if (named == 0 || aged <= 0)
        return;
    long moved = (long)gsl_ran_hypergeometric(r, (unsigned)named, (unsigned)(goods - named),
                                              (unsigned)aged);
    tmc_node_place to = from == TMC_NODE_JOB_GOOD ? TMC_NODE_JOB_BAD : TMC_NODE_POOL_BAD;
    for (; moved > 0; moved--)
        tmc_node_history_put(h, take_off(h, from, (long)gsl_rng_uniform_int(
                                                      r, (unsigned long)h->count[from])),
                             to);
}
