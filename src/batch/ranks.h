/* ranks.h - the processes that share a run: one, or the ranks of an MPI job
 * (trainmc built with -DTRAINMC_MPI=ON and started by mpirun or srun).
 *
 * Two implementations, chosen by CMake: ranks_single.c (the plain build: no
 * MPI at all, one process, rank 0 of 1) and ranks_mpi.c (MPI_COMM_WORLD).
 * Callers never test which one they have.
 *
 * Work is split into contiguous blocks, one per rank in rank order
 * (tmc_ranks_split); results come back to every rank in item order
 * (tmc_ranks_share), so a rank can add them in a fixed order and get the same
 * bits as one process would.
 *
 * Functions marked collective must be called by every rank, in the same
 * order: a rank that skipped one would leave the others waiting forever. So
 * a failure that only some ranks may see (memory, a file one node cannot
 * read) goes through tmc_ranks_agree before the next collective call.
 * Without tmc_ranks_init (unit tests, the benchmark) the process is rank 0 of
 * 1 and collective calls return at once. */
#ifndef TMC_RANKS_H
#define TMC_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Start MPI (MPI_Init_thread, MPI_THREAD_FUNNELED: only the calling thread
 * talks to MPI; worker threads only compute) and arrange for MPI_Finalize at
 * exit. argc, argv as main's. Returns 0, or -1 with err set. The plain build
 * does nothing and returns 0. */
int tmc_ranks_init(int *argc, char ***argv, tmc_error *err);

/* End MPI with the process's exit code rc and return rc. rc = 0, a failure
 * every rank agreed on (tmc_ranks_agree), or a single rank: MPI_Finalize.
 * Any other failure may be this rank's alone (a usage error is every rank's,
 * but nothing says so) while other ranks wait for it in a collective call:
 * MPI_Abort(rc) ends every rank, with a notice from MPI, so none waits
 * forever. The plain build only returns rc. */
int tmc_ranks_finalize(int rc);

/* This process's rank: 0 .. ranks - 1 (0 without MPI). */
int tmc_ranks_self(void);

/* This rank's block [*first, *end) of n items: n cut into contiguous
 * blocks, one per rank in rank order, whose sizes differ by at most 1 (a
 * block is empty when n < ranks and its rank gets none). */
void tmc_ranks_split(long n, long *first, long *end);

/* Collective. rc is this rank's status (0: fine) and err its message when
 * rc != 0 (err may be NULL: then there is no message to pass on). Returns
 * the status of the lowest-numbered failing rank (0 when none failed) and
 * gives every rank that rank's message in err, as "rank R of K: MESSAGE"
 * when R is not 0. Every rank then takes the same path. */
int tmc_ranks_agree(int rc, tmc_error *err);

/* Collective: 1 if this rank's digest equals rank 0's, else 0 (each rank
 * learns its own answer; pass it to tmc_ranks_agree). */
int tmc_ranks_same(uint64_t digest);

/* Collective: the sum of v over all ranks. */
long tmc_ranks_sum(long v);

/* Collective: items[n], `size` bytes each, in groups of `group` consecutive
 * items (the last may be shorter), the groups split over ranks by
 * tmc_ranks_split. Each rank has filled the items of its own groups; after
 * the call every rank holds all n, bit for bit (every rank runs the same
 * binary, so bytes are values). Returns 0, or -1 with err set, on every rank
 * alike, when n exceeds what one MPI call can move (INT_MAX items). */
int tmc_ranks_share(void *items, size_t size, long n, long group, tmc_error *err);

#endif
