/* pool_queue.h - a fleet's spare pool handed out in the order its nodes
 * came back (failures.spare_order "fifo", issue 36 part 3): AIReSim's host
 * selection takes the first idle servers of its working pool, to which a
 * repaired server is appended, so a node back from repair waits behind every
 * node already idle. A ring of whole nodes, each with its kind (as last
 * seen), its record (node_history.h; -1: none) and when it was last seen
 * good, so that aging is looked at when it leaves (exact: memoryless). */
#ifndef TMC_POOL_QUEUE_H
#define TMC_POOL_QUEUE_H

typedef struct {
    char bad;    /* 1: bad when last seen */
    long id;     /* its record (retirement), or -1 */
    double seen; /* when it was last seen good, s (aging) */
} tmc_pool_node;

typedef struct {
    tmc_pool_node *ring;
    long room, head, n;
} tmc_pool_queue;

/* Room for `room` >= 1 nodes. Returns -1 if memory runs out. */
int tmc_pool_queue_start(tmc_pool_queue *q, long room);

void tmc_pool_queue_end(tmc_pool_queue *q);

/* Node `node` joins the back; the caller never exceeds the room. */
void tmc_pool_queue_push(tmc_pool_queue *q, tmc_pool_node node);

/* The node at the front, taken off; the caller asks only when n > 0. */
tmc_pool_node tmc_pool_queue_pop(tmc_pool_queue *q);

#endif
