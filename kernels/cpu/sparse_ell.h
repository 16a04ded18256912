/*
 * sparse_ell.h — SpMV/SpMM with a Blocked-ELL or Sliced-ELL A
 * (kernels/cpu/sparse_ell.c), called by trn_cpu_spmm (sparse_spmm.c).
 */
#ifndef TRN_KERNELS_CPU_SPARSE_ELL_H
#define TRN_KERNELS_CPU_SPARSE_ELL_H

#include "ops/op.h"

/* C = alpha A B + beta C (op N; alpha != 0) for the block rows (slices) of
 * shard `shard` of `nshards` (even ranges: every block row or slice has
 * the same number of stored slots per row). 0, or TRN_SP_BAD /
 * TRN_SP_NOMEM after posting the reason. */
int trn_cpu_spmm_ell(const trn_spmm_desc *d, int shard, int nshards, trn_kmsg *msg);

#endif
