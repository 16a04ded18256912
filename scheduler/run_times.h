/*
 * run_times.h — the measured run times of one kind of work, for the
 * scheduler's estimates.
 *
 * A compiled kernel program runs one shape, so its runs take about the same
 * time: the scheduler estimates its next run from its last ones, not from a
 * nominal rate (docs/neuron.md, "Cost model"). A record keeps the last
 * TRN_RUN_TIMES_KEPT times and answers their lower median, so that one
 * slow run in that many (a first run that loads the program onto its core,
 * a fault) does not move the estimate, and a run that found its operands
 * already in the core's memory counts as what it was.
 *
 * Lock-free: notes and reads may race (a read may see a sample of a note in
 * progress, never a torn one).
 */
#ifndef TRN_SCHEDULER_RUN_TIMES_H
#define TRN_SCHEDULER_RUN_TIMES_H

#include <stdatomic.h>
#include <stdint.h>

#define TRN_RUN_TIMES_KEPT 5

typedef struct trn_run_times {
    _Atomic uint64_t ns[TRN_RUN_TIMES_KEPT]; /* 0: no sample yet */
    _Atomic unsigned next;                   /* the slot the next note takes */
} trn_run_times;

/* Notes one run of ns nanoseconds (0 counts as 1). */
void trn_run_times_note(trn_run_times *rt, uint64_t ns);

/* The lower median of the kept runs, or 0 when none was noted. */
uint64_t trn_run_times_estimate(const trn_run_times *rt);

#endif
