/*
 * selftest.h — the daemon's use of the CPU backend's self-test
 * (kernels/cpu/selftest/selftest.h): at start-up, before anything is
 * served; on demand (`trnsci selftest`); and `trnscid --self-test`.
 *
 * Every run starts trnscid again as its child processes (--self-test-child)
 * so that a routine that crashes costs a child, never the daemon, and a
 * child of a running daemon inherits none of its threads or locks. A run's
 * verdicts are installed in the routine table (a failing routine is never
 * called again), logged, and kept as the latest report for Status and the
 * metrics.
 *
 * Threads: the start-up run blocks trnscid_start; an on-demand run happens
 * on a thread of its own (one at a time; a request during a run waits for
 * it), which answers its callers when done. trn_selftest_destroy stops and
 * joins it. The latest report is guarded by a mutex.
 */
#ifndef TRN_DAEMON_SELFTEST_H
#define TRN_DAEMON_SELFTEST_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/cpu/selftest/selftest.h"

typedef struct trn_selftest trn_selftest;

/* Child processes at once, at most (one per configured core below that). */
#define TRN_SELFTEST_MAX_WORKERS 8

/* NULL when out of memory. workers: child processes at once. why: why
 * OpenBLAS runs the kernel set it does (blas_coretype.h), kept for the
 * report. */
trn_selftest *trn_selftest_create(int workers, const char *blas_why);
/* Stops an on-demand run and joins its thread (its callers are answered
 * with an error); later requests are answered with an error at once. The
 * latest report stays readable. */
void trn_selftest_stop(trn_selftest *st);
/* Stops and frees. */
void trn_selftest_destroy(trn_selftest *st);

/* The start-up run: checks, installs, logs a line per routine that did not
 * pass with its library routine and a summary. Returns 0, or -1 with err
 * when the checks could not run (the daemon must not serve then). */
int trn_selftest_startup(trn_selftest *st, char *err, size_t errlen);

/* About a report: when it finished (Unix ms), whether it was an on-demand
 * run, and why OpenBLAS runs the kernel set it does. */
typedef struct trn_selftest_meta {
    uint64_t finished_unix_ms;
    int on_demand;
    const char *blas_why;
} trn_selftest_meta;

/* Receives a report (valid during the call), or NULL with err when the run
 * could not be made or the daemon is stopping. */
typedef void (*trn_selftest_done_fn)(void *arg, const trn_st_report *r,
                                     const trn_selftest_meta *meta, const char *err);
/* Starts an on-demand run, or joins the one running. Returns 0, or -1 when
 * out of memory (done is then not called). */
int trn_selftest_request(trn_selftest *st, trn_selftest_done_fn done, void *arg);

/* Calls fn with the latest report (NULL with err before the first run),
 * under the lock: fn must not call back into st. */
void trn_selftest_read(trn_selftest *st, trn_selftest_done_fn fn, void *arg);

/* trnscid --self-test: runs the checks with `workers` children, prints
 * what did not pass and a summary to stdout. Returns the exit status: 0
 * when every routine passed with its library routine, 1 when some did not
 * (replaced or refused: the lines say which), 2 when the checks could not
 * run. */
int trn_selftest_cli(int workers, const char *blas_why);

/* trnscid --self-test-child FD WORKER WORKERS FIRST_ID FIRST_CAND PARENT:
 * the child's body. argv points after the flag; returns the exit status.
 * The child dies by SIGKILL when its parent (the daemon, pid PARENT) dies,
 * and exits with TRN_SELFTEST_CHILD_ORPHANED at once when PARENT is no
 * longer its parent. */
#define TRN_SELFTEST_CHILD_ORPHANED 3
int trn_selftest_child(int argc, char **argv);

#endif
