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
/* BLAS Level 1 (blas1.c): always one shard (trn_sched_shard_count has no
 * rule for it), so reductions are bitwise reproducible. */
trn_kstatus trn_cpu_blas1(const trn_blas1_desc *d, int shard, int nshards);
/* FFTs with FFTW (fft.c): plans of one FFTW plan per variant, built on the
 * plan cache's planner thread; shards own contiguous ranges of the batch. */
void *trn_cpu_fft_plan_create(const trn_plan_spec *spec, char *err, size_t errlen);
trn_kstatus trn_cpu_fft_plan_build(void *plan, unsigned variant, char *err, size_t errlen);
uint64_t trn_cpu_fft_plan_bytes(const void *plan);
void trn_cpu_fft_plan_release(void *plan);
int trn_cpu_fft_wisdom_load(const char *dir, char *err, size_t errlen);
int trn_cpu_fft_wisdom_save(const char *dir, char *err, size_t errlen);
trn_kstatus trn_cpu_fft(const trn_fft_desc *d, int shard, int nshards);
/* Philox4x32-10 stream and its distributions (rand.c, docs/numerics.md).
 * Shards own ranges of elements that start at even indices. Sobol ops
 * (d->gen != TRN_RAND_PHILOX) go to sobol.c, whose shards own contiguous
 * element ranges. */
trn_kstatus trn_cpu_rand(const trn_rand_desc *d, int shard, int nshards);
/* trnsparse SpMV/SpMM (sparse_spmm.c): splits follow trn_spmm_split; a bad
 * offset or index fails the op with its position in msg. */
trn_kstatus trn_cpu_spmm(const trn_spmm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* SpGEMM (sparse_spgemm.c): the count pass is one shard, the fill splits
 * A's rows by C's entries. */
trn_kstatus trn_cpu_spgemm(const trn_spgemm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* SDDMM (sparse_sddmm.c): C's rows split by entries. */
trn_kstatus trn_cpu_sddmm(const trn_sddmm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* Block-sparse attention (sparse_attention.c): shards own (batch entry,
 * block row) pairs. */
trn_kstatus trn_cpu_attention(const trn_attn_desc *d, trn_kmsg *msg, int shard, int nshards);
/* Schwarz bounds (sparse_screen.c): one shard. */
trn_kstatus trn_cpu_schwarz(const trn_schwarz_desc *d, int shard, int nshards);
/* Format conversions (sparse_convert.c): splits follow trn_spconvert_split. */
trn_kstatus trn_cpu_spconvert(const trn_spconvert_desc *d, trn_kmsg *msg, int shard,
                              int nshards);

#endif
