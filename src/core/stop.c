/* stop.c - the stop flag (stop.h). */
#include "stop.h"

/* Set by a signal handler: the one global of the library, because a handler
 * cannot reach anything else. */
static volatile sig_atomic_t stop_requested;

void tmc_stop_request(void)
{
    stop_requested = 1;
}

int tmc_stop_requested(void)
{
    return stop_requested != 0;
}

const volatile sig_atomic_t *tmc_stop_flag(void)
{
    return &stop_requested;
}
