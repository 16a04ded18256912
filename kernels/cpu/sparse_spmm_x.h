/*
 * sparse_spmm_x.h — SpMV/SpMM on complex (C_32F, C_64F) and 16-bit
 * (R_16F, R_16BF, computed in FP32) values (kernels/cpu/sparse_spmm_x.c),
 * called by trn_cpu_spmm (sparse_spmm.c) for one product of a batch.
 */
#ifndef TRN_KERNELS_CPU_SPARSE_SPMM_X_H
#define TRN_KERNELS_CPU_SPARSE_SPMM_X_H

#include "ops/op.h"

/* Shard `shard` of `nshards` of C = alpha op(A) op(B) + beta C: C's
 * columns split as trn_spmm_split says (rows when alpha = 0). Returns 0,
 * TRN_SP_BAD or TRN_SP_NOMEM, posted to msg (sparse_common.h). */
int trn_cpu_spmm_x(const trn_spmm_desc *d, int shard, int nshards, trn_kmsg *msg);

#endif
