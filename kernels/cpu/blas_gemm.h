/*
 * blas_gemm.h — one GEMM of a batch, restricted to a block of C's columns:
 * what blas_gemm.c (the sharding over batch and columns, the FP32/FP64
 * path) hands to the precision-mode kernels. Internal to kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_BLAS_GEMM_H
#define TRN_KERNELS_CPU_BLAS_GEMM_H

#include "ops/op.h"

/* C[:, j0:j1) = alpha op(A) op(B)[:, j0:j1) + beta C[:, j0:j1) for matrix
 * `batch` of d's batch. a and b are that matrix's operands (NULL when not
 * read: then the product is zero); c its output; alpha and beta resolved
 * (device pointer mode read already). The shape, transposes, leading
 * dimensions, compute type and rounding come from d. */
typedef struct trn_gemm_one {
    const trn_gemm_desc *d;
    const void *a, *b;
    void *c;
    uint32_t batch;
    int j0, j1;
    trn_scalar alpha, beta;
    /* Where a precision mode that cannot allocate its workspace says so
     * (may be NULL), and the shard it runs in (the message's rank). */
    trn_kmsg *kmsg;
    int shard;
} trn_gemm_one;

/* One GEMM of g in g->d's compute type: BLAS for 32F/64F, the precision
 * modes' kernels otherwise (A or B NULL: C = beta C). trntensor's
 * contractions (tensor.c) call it per batch element and column block.
 * TRN_KSTATUS_NO_MEMORY (posted to g->kmsg): a precision mode could not
 * allocate its workspace, and C is unchanged. */
trn_kstatus trn_cpu_gemm_one(const trn_gemm_one *g);
/* FAST_16BF, FAST_TF32, FAST_16F, BF16X3, BF16X9 on R32F / C32F data
 * (gemm_lowprec.c). */
trn_kstatus trn_cpu_gemm_lowprec(const trn_gemm_one *g);
/* The conversion stage of such a GEMM (ops/convert_stage.h): shard `shard`
 * of nshards writes its share of the columns of op(A) and op(B), cut into
 * pieces, to d->pieces_a and d->pieces_b, the layout trn_cpu_gemm_lowprec
 * reads when d->split_stage is TRN_GEMM_SPLIT_DONE. */
trn_kstatus trn_cpu_gemm_split_ahead(const trn_gemm_desc *d, trn_kmsg *kmsg, int shard,
                                     int nshards);
/* 16-bit and int8 storage (trn_gemm_narrow: COMPUTE_16F, 32F and 32I
 * with R16F, R16BF, R8I or C8I A and B; gemm_narrow.c). */
trn_kstatus trn_cpu_gemm_narrow(const trn_gemm_one *g);
/* 64F_EMULATED on R64F / C64F data (gemm_ozaki.c). */
trn_kstatus trn_cpu_gemm_ozaki(const trn_gemm_one *g);

/* Element (i, p) of op(X) for a stored X with leading dimension ld: X is
 * used as is (N) or transposed (T, C; C also conjugates, which the caller
 * applies to complex data). */
static inline size_t trn_gemm_op_index(trn_trans t, size_t i, size_t p, size_t ld) {
    return t == TRN_TRANS_N ? i + p * ld : p + i * ld;
}

#endif
