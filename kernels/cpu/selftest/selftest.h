/*
 * selftest.h — the CPU backend's self-test of the outside routines its
 * kernels call (kernels/cpu/routines.h), as the daemon and the tests run
 * it.
 *
 * trn_st_run checks every routine in child processes, `workers` at a time:
 * each child runs the checks of its share of the routines (checks.h) and
 * reports each candidate's verdict over a pipe. A child that dies (a
 * routine read outside its operands, or aborted) or stalls is replaced by
 * a new one that carries on after the candidate it was running, which is
 * recorded as crashed or timed out; so no routine can take the daemon
 * down, however broken. For each routine the candidates are tried in order
 * (the library's routine, an alternative, the in-tree kernel) until one
 * passes; trn_st_install then points the routine table at the winners and
 * refuses the routines none of whose candidates passed.
 *
 * How a child starts is the caller's: trnscid starts itself again with
 * --self-test-child (exec, so that a running daemon's threads and locks
 * are not inherited), a unit test forks.
 */
#ifndef TRN_KERNELS_CPU_SELFTEST_H
#define TRN_KERNELS_CPU_SELFTEST_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernels/cpu/routines.h"

#define TRN_ST_MAX_CANDIDATES 4
#define TRN_ST_TEXT 320

typedef enum trn_st_verdict {
    TRN_ST_UNTRIED = 0, /* an earlier candidate passed */
    TRN_ST_PASSED = 1,
    TRN_ST_FAILED = 2,    /* a result was wrong, or an operand written it must not */
    TRN_ST_CRASHED = 3,   /* the child died in the check (a read outside the operands) */
    TRN_ST_TIMED_OUT = 4, /* the check stalled */
} trn_st_verdict;

/* "passed", "failed", "crashed", "timed out", "not tried". */
const char *trn_st_verdict_name(trn_st_verdict v);

typedef struct trn_st_candidate_result {
    const char *name; /* "OpenBLAS", "cblas_sasum over 2n reals", "in-tree" (static) */
    trn_st_verdict verdict;
    uint32_t cases;           /* cases run */
    uint32_t failed;          /* cases that failed */
    double worst;             /* largest error / bound seen (up to √2 above the exact ratio) */
    double ms;                /* time the check took */
    char detail[TRN_ST_TEXT]; /* the first failure, or how it crashed */
} trn_st_candidate_result;

typedef struct trn_st_routine_result {
    int checked; /* the routine was part of the run */
    int ncand;
    trn_st_candidate_result cand[TRN_ST_MAX_CANDIDATES];
    int chosen; /* the candidate that passed first, or -1: refused */
} trn_st_routine_result;

typedef struct trn_st_report {
    trn_st_routine_result r[TRN_ROUTINE_COUNT];
    unsigned checked, passed, replaced, refused; /* routines */
    double seconds;                              /* wall time of the run */
    int workers;
    char blas_core[32];    /* openblas_get_corename() of the children */
    char blas_config[160]; /* openblas_get_config() */
} trn_st_report;

/* A routine's library candidate replaced (tests: inject a faulty routine;
 * only with fork mode, where the child shares the parent's memory). */
typedef struct trn_st_override {
    int id;
    void *fn;
} trn_st_override;

typedef struct trn_st_options {
    int workers;       /* children at once, at least 1 */
    unsigned stall_ms; /* a child silent this long is killed (0: 20 s) */
    /* Starts a child that runs trn_st_child_main(fd, worker, workers,
     * first_id, first_cand) and exits; returns its pid or -1. NULL: fork()
     * and run it in the forked child. */
    pid_t (*spawn)(void *arg, int fd, int worker, int workers, int first_id, int first_cand);
    void *spawn_arg;
    /* When it becomes nonzero the run stops: children are killed, the
     * routines not yet checked have no verdict, and trn_st_run returns -1. */
    const atomic_int *cancel;
    /* Fork mode only: */
    int (*want)(int id); /* run only the routines it accepts; NULL: all */
    const trn_st_override *overrides;
    int noverrides;
} trn_st_options;

/* Runs the self-test. Returns 0, or -1 with err when a child process could
 * not be started or the run was cancelled: the report is then incomplete
 * (routines without a verdict would be refused) and must not be installed. */
int trn_st_run(const trn_st_options *o, trn_st_report *out, char *err, size_t errlen);

/* Points the routine table at each checked routine's chosen candidate, or
 * refuses it. Routines not checked keep what they have. */
void trn_st_install(const trn_st_report *r);

/* Installs candidate `chosen` of routine id (its index in the candidate
 * list), or refuses the routine when chosen < 0. */
void trn_st_install_choice(int id, int chosen);

/* The name of the candidate a routine uses after trn_st_install ("OpenBLAS",
 * "in-tree", …; "refused"). */
const char *trn_st_used_name(const trn_st_report *r, int id);

/* One line about a routine that did not pass with its first candidate:
 * "cblas_scasum failed (n=9 incx=1 …: got …, want …): replaced by
 * cblas_sasum over 2n reals". */
void trn_st_describe(const trn_st_report *r, int id, char *buf, size_t len);

/* The body of a child (exec mode: trnscid --self-test-child). Returns the
 * exit status. */
int trn_st_child_main(int fd, int worker, int workers, int first_id, int first_cand);

#endif
