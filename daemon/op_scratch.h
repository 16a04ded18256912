/*
 * op_scratch.h — memory an op owns between its stages: the output of a
 * conversion stage that its compute stage reads (ops/convert_stage.h).
 *
 * Where: in the executors' shared space when kernels run in executor
 * processes (daemon/exec_space.h: a conversion stage runs in the daemon on
 * a copy engine, the compute stage in an executor, and both must see the
 * memory at one address), else on the heap.
 *
 * Reuse: a fresh mapping costs a page fault per page on first touch (10-50
 * us each on the machines measured, daemon/bufmem.h), more than the
 * conversion itself. So blocks given back are kept, up to a byte budget,
 * and handed to the next op that fits in one; trim gives them all back
 * (the daemon's idle trim).
 *
 * Bound: the blocks in use are capped (max_bytes); past the cap get says
 * no and the op converts inline, as it would without a pool. A queued op
 * holds its block until it completes, so the cap is what keeps a deep queue
 * of large ops from holding memory it does not use yet.
 *
 * Thread-safe (one lock). The pool belongs to the daemon's service.
 */
#ifndef TRN_DAEMON_OP_SCRATCH_H
#define TRN_DAEMON_OP_SCRATCH_H

#include <stddef.h>

#include "daemon/exec_space.h"

typedef struct trn_op_scratch trn_op_scratch;

/* A pool over sp (NULL: heap memory) lending at most max_bytes at a time
 * and keeping up to keep_bytes of blocks given back. NULL when out of
 * memory. */
trn_op_scratch *trn_op_scratch_create(trn_exec_space *sp, size_t max_bytes, size_t keep_bytes);
/* Gives every kept block back (every block taken must have been put). */
void trn_op_scratch_destroy(trn_op_scratch *p);

/* A block of at least bytes (not zeroed, 4096-byte aligned) and its size
 * in *len, or NULL when the memory cannot be had or the pool has lent its
 * max_bytes. */
void *trn_op_scratch_get(trn_op_scratch *p, size_t bytes, size_t *len);
/* Gives back a block trn_op_scratch_get returned (NULL: no-op). */
void trn_op_scratch_put(trn_op_scratch *p, void *block, size_t len);
/* Frees the blocks kept for reuse. */
void trn_op_scratch_trim(trn_op_scratch *p);

#endif
