/*
 * exec_space.h — the memory the daemon and its executor processes see at the
 * same addresses (daemon/executor.h): every buffer, and the arrays a
 * validated op points into.
 *
 * Why the same addresses: a validated op (ops/op.h) is a descriptor full of
 * pointers — into buffers, into arrays of operand pointers. Executors run
 * exactly that descriptor, copied by value into their request slot, so
 * every pointer in it must mean the same thing in both processes. The space
 * is created before the executors' parent (daemon/zygote.h) is forked, so
 * each executor inherits two regions at the daemon's addresses:
 *
 *   - the buffer range: an address range reserved with no access. Each
 *     buffer is a memfd the daemon maps at a place in the range it chooses
 *     (trn_exec_space_map); executors are sent the memfd and map it at the
 *     same place. Released buffers go back to no access in the daemon, and
 *     executors are told to do the same before anything else is mapped
 *     there (messages on one executor's channel are handled in order).
 *   - the op arena: a shared anonymous mapping from which validated ops'
 *     arrays are allocated (trn_exec_space_arena_alloc). It stays writable
 *     in executors: some ops keep their shards' partial results there
 *     (trntensor's MP2 energy), and shards run in different executors.
 *
 * Executors subscribe with a channel (a unix socket); from then on every
 * map and unmap is sent to them, and a new subscriber first gets every live
 * buffer. Each message advances the space's generation; a request carries
 * the generation of its dispatch and an executor applies messages until it
 * has reached it (trn_exec_space_apply), so it never runs an op on a buffer
 * it has not mapped.
 *
 * Thread-safe: one lock guards the range allocator, the registry of mapped
 * buffers and the subscribers; the arena has its own.
 */
#ifndef TRN_DAEMON_EXEC_SPACE_H
#define TRN_DAEMON_EXEC_SPACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct trn_exec_space trn_exec_space;

/* Reserves range_bytes of addresses for buffers and maps an op arena of
 * arena_bytes (neither takes memory until used). NULL with err on failure. */
trn_exec_space *trn_exec_space_create(uint64_t range_bytes, uint64_t arena_bytes, char *err,
                                      size_t errlen);
/* Unmaps everything (every buffer must have been unmapped). */
void trn_exec_space_destroy(trn_exec_space *sp);

/* Maps the memfd fd (len bytes, read-write, shared) at a free place of the
 * range and registers it; the space keeps its own duplicate of fd. Returns
 * the address, or NULL with errno set (the range is full: ENOMEM). */
void *trn_exec_space_map(trn_exec_space *sp, int fd, uint64_t len);
/* A new descriptor (close-on-exec) of the memfd mapped at addr, or -1 when
 * nothing is mapped there or descriptors have run out. */
int trn_exec_space_dup_fd(trn_exec_space *sp, const void *addr);
/* Unmaps a buffer trn_exec_space_map returned and tells the executors. */
void trn_exec_space_unmap(trn_exec_space *sp, void *addr, uint64_t len);

/* Zeroed memory of the op arena (8-byte aligned), or NULL when it is full. */
void *trn_exec_space_arena_alloc(trn_exec_space *sp, size_t bytes);
void trn_exec_space_arena_free(trn_exec_space *sp, void *p);

/* The planning board: the daemon's planning knowledge (FFTW wisdom) as
 * text, so that an executor prepares exactly the plan the daemon's plan
 * cache prepared, in milliseconds, and again after a restart. One writer
 * (the plan cache's planner thread) publishes after every part it prepares;
 * executors read it under a sequence lock. Text longer than the board
 * (TRN_EXEC_BOARD_BYTES) is not published: executors then plan alone. */
#define TRN_EXEC_BOARD_BYTES ((uint64_t)16 << 20)
void trn_exec_space_board_publish(trn_exec_space *sp, const char *text);
/* In an executor: a malloc'd copy of the board's text when it changed
 * since *gen (which is updated), else NULL. */
char *trn_exec_space_board_take(trn_exec_space *sp, uint64_t *gen);
/* The back board, the other way: the planner executor (its one writer)
 * publishes the knowledge a plan it prepared for the daemon gave it; the
 * daemon's planner thread takes it (daemon/executor.h, trn_exec_pool_plan).
 * publish returns -1 when the text does not fit. */
int trn_exec_space_back_publish(trn_exec_space *sp, const char *text);
char *trn_exec_space_back_take(trn_exec_space *sp, uint64_t *gen);

/* The generation a request dispatched now must wait for. */
uint64_t trn_exec_space_generation(trn_exec_space *sp);
/* Sends every live buffer to the executor on channel fd and subscribes it
 * to what follows. Returns 0, or -1 (the channel failed). */
int trn_exec_space_subscribe(trn_exec_space *sp, int fd);
void trn_exec_space_unsubscribe(trn_exec_space *sp, int fd);
/* fn(ctx) is called after every unmap is sent, outside the lock (the pool
 * wakes idle executors to apply it). NULL: none. Set before buffers exist. */
void trn_exec_space_set_unmap_hook(trn_exec_space *sp, void (*fn)(void *ctx), void *ctx);

/* ---- the executor's side ---- */

/* In an executor: applies the messages on channel fd until the generation
 * *gen (the executor's, updated) reaches want. Returns 0, or -1 when the
 * channel closed or a mapping failed (the executor must exit). */
int trn_exec_space_apply(trn_exec_space *sp, int fd, uint64_t *gen, uint64_t want);
/* In an idle executor: applies whatever messages are queued on channel fd
 * without waiting (so a freed buffer's memory leaves it soon). 0, or -1 as
 * above. */
int trn_exec_space_apply_queued(trn_exec_space *sp, int fd, uint64_t *gen);

#endif
