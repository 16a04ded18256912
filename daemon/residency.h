/*
 * residency.h — where big GEMMs' inputs were last moved: for each core, the
 * GEMMs it ran (or whose inputs it moved ahead) lately, so that the
 * scheduler can place a GEMM on the core whose memory holds its inputs
 * (trn_sched_config.locate; docs/neuron.md, "Placement by location").
 *
 * A record is the daemon's belief, not the executor's state: a core holds an
 * operand in an input tensor of a loaded program, one per tensor set, so
 * the records keep at most TRN_RESIDENCY_SETS operands of a program part
 * on a core (the most recent). The executor may have evicted the program
 * since, or put the operand in the other set; a wrong belief costs time
 * only, never a result, because the executor decides by the write clock
 * whether what it holds is current (ops/write_clock.h), and so do the
 * records: an operand written after it was moved is no longer believed
 * there.
 *
 * Only GEMMs whose A and B together are TRN_RESIDENCY_MIN_BYTES or more are
 * recorded: below that a move costs about a dispatch, and placing them
 * would cost more than it saves.
 *
 * Thread-safe (one lock): notes come from the cores' workers after their
 * ops ran, lookups from whichever worker takes an op.
 */
#ifndef TRN_DAEMON_RESIDENCY_H
#define TRN_DAEMON_RESIDENCY_H

#include <stdint.h>

#include "ops/write_clock.h"

struct trn_op_desc;

#define TRN_RESIDENCY_MIN_BYTES ((uint64_t)1 << 20)
#define TRN_RESIDENCY_SETS 2 /* the tensor sets of a loaded program */

typedef struct trn_residency trn_residency;

/* Records for ncores cores, judged current by clock and by the core's
 * epoch: epoch(ctx, core) changes when what the core's memory held is gone
 * (its executor was restarted). It is called under the records' lock (and
 * the scheduler's): it must not block. NULL when out of memory. */
trn_residency *trn_residency_create(int ncores, const trn_write_clock *clock,
                                    unsigned (*epoch)(void *ctx, int core), void *ctx);
void trn_residency_destroy(trn_residency *r);

/* Core `core` moved op's A and B into its memory for plan part (plan,
 * part) — plan is any pointer naming the program, compared only — after
 * the clock read `tick` and the core's epoch read `epoch` (both before the
 * op was dispatched). Ignores ops other than GEMMs without pointer lists,
 * and small ones. */
void trn_residency_note(trn_residency *r, int core, const struct trn_op_desc *op, const void *plan,
                        unsigned part, uint64_t tick, unsigned epoch);

/* Whether op is one the records keep: a GEMM without pointer lists whose A
 * and B are TRN_RESIDENCY_MIN_BYTES or more (also what a chain may peek
 * at: the backend moves such a GEMM's inputs ahead). */
int trn_residency_big_gemm(const struct trn_op_desc *op);

/* The core's epoch now (the epoch callback's), for trn_residency_note. */
unsigned trn_residency_epoch(const trn_residency *r, int core);

/* The core whose memory holds the most of op's A and B bytes, current, for
 * plan part (plan, part): `here` when no other core holds more. *extra:
 * how many more bytes that core holds than `here` does (what running op
 * here would move that running it there would not). */
int trn_residency_locate(trn_residency *r, const struct trn_op_desc *op, const void *plan,
                         unsigned part, int here, uint64_t *extra);

#endif
