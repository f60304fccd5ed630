/* stop.h - the process's stop flag: a signal handler asks every running
 * replica, E[max] simulation and search to stop soon; they read it at segment
 * boundaries (engine.h: every TMC_STEPS_PER_STOP_CHECK steps) and return what
 * they have, marked as stopped. */
#ifndef TMC_STOP_H
#define TMC_STOP_H

#include <signal.h>

/* Ask everything running to stop soon. Safe to call from a signal handler
 * (it only sets a sig_atomic_t). A stopped replica has stopped = 1 and
 * meaningless times. */
void tmc_stop_request(void);

/* 1 once tmc_stop_request has been called. */
int tmc_stop_requested(void);

/* The flag tmc_stop_request sets, for a caller that passes stop flags (the
 * command line, through trainmc.h's tmc_run_options.stop). */
const volatile sig_atomic_t *tmc_stop_flag(void);

#endif
