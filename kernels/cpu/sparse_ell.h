/*
 * sparse_ell.h — SpMV/SpMM with a Blocked-ELL or Sliced-ELL A, and dense to
 * Blocked-ELL (kernels/cpu/sparse_ell.c), called by trn_cpu_spmm
 * (sparse_spmm.c) and trn_cpu_spconvert (sparse_convert.c); the slice check
 * also serves the triangular solves (sparse_spsv.c).
 */
#ifndef TRN_KERNELS_CPU_SPARSE_ELL_H
#define TRN_KERNELS_CPU_SPARSE_ELL_H

#include "ops/op.h"

/* C = alpha A B + beta C (op N; alpha != 0) for the block rows (slices) of
 * shard `shard` of `nshards` (even ranges: every block row or slice has
 * the same number of stored slots per row). 0, or TRN_SP_BAD /
 * TRN_SP_NOMEM after posting the reason. */
int trn_cpu_spmm_ell(const trn_spmm_desc *d, int shard, int nshards, trn_kmsg *msg);

/* Entries [*p0, *p1) of slice s of a Sliced-ELL matrix, its offsets
 * checked (start at the base, not decreasing, within nnz + base, a
 * multiple of the slice size apart); TRN_SP_BAD after posting a broken
 * rule. */
int trn_cpu_sell_slice(const trn_sp_mat *a, int64_t s, int64_t *p0, int64_t *p1, trn_kmsg *msg);

/* DenseToSparse into a Blocked-ELL dst whose block columns are given:
 * block rows [lo, hi) of its values from the dense matrix (0 for empty
 * slots and for columns past the matrix). 0 or TRN_SP_BAD. */
int trn_cpu_dense_to_bell(const trn_spconvert_desc *d, int64_t lo, int64_t hi, trn_kmsg *msg);

#endif
