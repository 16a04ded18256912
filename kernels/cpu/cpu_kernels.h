/*
 * cpu_kernels.h — the CPU backend's kernels, one file per family.
 * Internal to kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_KERNELS_H
#define TRN_KERNELS_CPU_KERNELS_H

#include "kernels/op.h"

/* Shard s of n of the half-open range [0, total): [*lo, *hi). Contiguous,
 * deterministic, and covering the range exactly once over all shards. */
void trn_cpu_shard_range(size_t total, int shard, int nshards, size_t *lo, size_t *hi);

trn_kstatus trn_cpu_memset(const trn_memset_desc *d, int shard, int nshards);
trn_kstatus trn_cpu_copy(const trn_copy_desc *d, int shard, int nshards);
/* Shards split C into blocks of columns that start at multiples of 24
 * (blas_gemm.c explains why). */
trn_kstatus trn_cpu_gemm(const trn_gemm_desc *d, int shard, int nshards);
/* Philox4x32-10 stream and its distributions (rand.c, docs/numerics.md).
 * Shards own ranges of elements that start at even indices. Sobol ops
 * (d->gen != TRN_RAND_PHILOX) go to sobol.c, whose shards own contiguous
 * element ranges. */
trn_kstatus trn_cpu_rand(const trn_rand_desc *d, int shard, int nshards);

#endif
