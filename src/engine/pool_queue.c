/* pool_queue.c - the spare pool as a queue (pool_queue.h). */
#include "pool_queue.h"

#include <stdlib.h>

int tmc_pool_queue_start(tmc_pool_queue *q, long room)
{
    *q = (tmc_pool_queue){.room = room > 0 ? room : 1};
    q->ring = malloc((size_t)q->room * sizeof *q->ring);
    return q->ring ? 0 : -1;
}

void tmc_pool_queue_end(tmc_pool_queue *q)
{
    free(q->ring);
    *q = (tmc_pool_queue){0};
}

void tmc_pool_queue_push(tmc_pool_queue *q, tmc_pool_node node)
{
    q->ring[(q->head + q->n++) % q->room] = node;
}

tmc_pool_node tmc_pool_queue_pop(tmc_pool_queue *q)
{
    tmc_pool_node node = q->ring[q->head];
    q->head = (q->head + 1) % q->room;
    q->n--;
    return node;
}
