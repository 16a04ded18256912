/*
 * core_copy.h — one copy of a matrix in a NeuronCore's memory, bound by
 * every program on that core that reads it.
 *
 * A real GEMM's column-major tensors hold a matrix's bytes exactly as they
 * lie in host memory when its leading dimension is its rows (program.h,
 * layout=cm). Such a span of memory is copied once into a tensor of its
 * own on the core (a core copy), and each program that reads it binds a
 * slice of that tensor into its input tensor set in place of its own
 * tensor (nrt_tensor_allocate_slice): a weight read by GEMMs of several
 * programs, or by one program's GEMMs over parts of a batch, crosses from
 * the host once after each write and is never copied again on the core.
 *
 * Invariants:
 * - A copy is current for [lo, hi) inside it while the write clock says
 *   those bytes have not been written since the copy's tick. A stale copy
 *   of exactly the span asked for is written again in place: its bytes
 *   then equal memory as it is, so what any other binder's still-current
 *   part reads is unchanged.
 * - A copy bound by any tensor set is never freed. Unbound copies are the
 *   first thing freed when the core's memory is full. The copies' memory
 *   (allocation, eviction, the bindings a freed program drops) is the
 *   runtime's (nc_runtime.c); this file decides what is bound where.
 * - Binding and unbinding run on the core's worker with no move of the
 *   core queued (the DMA queue writes only programs' own tensors, so the
 *   worker unbinds a set before it queues moves into it). Everything here
 *   takes rt->lock (eviction under that lock drains the DMA queue, so no
 *   queued job may take it), but lets it go while a copy is written from
 *   the host, the copy pinned.
 */
#ifndef TRN_KERNELS_NEURON_CORE_COPY_H
#define TRN_KERNELS_NEURON_CORE_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/neuron/nc_runtime.h"

/* Binds input ti of ld's set `set` (ld busy, on its core's worker) to a
 * current core copy of the n bytes at host, n being the tensor's size:
 * one that holds them already, else the stale copy of exactly them
 * written again, else a new one (making room from unbound copies of the
 * core only). Returns 0 with *since (the tick the bytes are current from)
 * and *moved (bytes written from the host: 0 or n), or -1 when no copy
 * can be bound (the caller writes its own tensor). Bytes written into a
 * copy are counted in rt->traffic's to_cores here, bound or not. */
int trn_nc_copy_bind(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti, const void *host,
                     size_t n, uint64_t *since, size_t *moved);

/* Gives input ti of ld's set `set` its own tensor back, holding nothing
 * known (ld busy): 0, or -1 when the runtime refused and it stays bound.
 * Before anything writes that tensor. */
int trn_nc_copy_unbind(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti);
/* The same for every input of the set (before moves into it are queued:
 * a refusal shows when one is written, trn_nc_copy_bound_tensor). */
void trn_nc_copy_unbind_set(trn_nc_runtime *rt, trn_nc_loaded *ld, int set);

/* The tensor ld's set binds for input ti: a core copy's slice, or its own. */
trn_nrt_tensor *trn_nc_copy_bound_tensor(const trn_nc_loaded *ld, int set, int ti);

#endif
