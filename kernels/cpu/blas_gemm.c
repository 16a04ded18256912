/*
 * blas_gemm.c — S/D/C/Z GEMM on the CPU backend through OpenBLAS's CBLAS.
 *
 * OpenBLAS runs single-threaded (set in backend_cpu.c's core_init); parallelism
 * comes from the scheduler running shards on several workers. A shard owns a
 * contiguous block of C's columns, so shards never write the same memory.
 *
 * Reproducibility. Each element of C is computed by one shard, with the same
 * k-blocking as the whole op (OpenBLAS blocks k by k alone and m by m alone),
 * but OpenBLAS feeds C's columns to its micro-kernels in panels of
 * 3 x UNROLL_N columns (6 x UNROLL_N on AVX-512 kernels), counted from the
 * first column of the call, and narrower tail panels round differently.
 * Measured with OpenBLAS 0.3.21's Haswell kernels: splitting an SGEMM at a
 * column that is not a multiple of 12 (CGEMM/ZGEMM: 6; DGEMM: at an odd
 * column) changes the last bits of the columns after the cut. So shards start
 * at multiples of GEMM_SHARD_COL_ALIGN = 24 columns, a multiple of those panel
 * widths for UNROLL_N = 1, 2, 4 or 8 (the x86-64 kernels' values) that still
 * splits n = 2048 in two within 1 % (1032 + 1016 columns). Then a sharded GEMM
 * is bitwise equal to the unsharded one and its result does not depend on the
 * core count. The scheduler decides how many shards; this file decides where
 * they start.
 */
#include <cblas.h>

#include "kernels/cpu/cpu_kernels.h"

static enum CBLAS_TRANSPOSE to_cblas(trn_trans t) {
    switch (t) {
    case TRN_TRANS_T: return CblasTrans;
    case TRN_TRANS_C: return CblasConjTrans;
    case TRN_TRANS_N: break;
    }
    return CblasNoTrans;
}

/* Column j of op(B) starts at element offset j*ldb (B not transposed) or j
 * (B transposed: column j of op(B) is row j of B). */
static size_t b_col_offset(const trn_gemm_desc *d, size_t j) {
    return d->transb == TRN_TRANS_N ? j * (size_t)d->ldb : j;
}

/* Shards start at multiples of this many columns of C (see above). */
#define GEMM_SHARD_COL_ALIGN 24

/* Columns [*lo, *hi) of C for shard `shard` of `nshards`: the n columns cut
 * into blocks of GEMM_SHARD_COL_ALIGN (the last may be shorter), and the
 * blocks shared out as evenly as trn_cpu_shard_range does. */
static void gemm_shard_cols(size_t n, int shard, int nshards, size_t *lo, size_t *hi) {
    const size_t blocks = (n + GEMM_SHARD_COL_ALIGN - 1) / GEMM_SHARD_COL_ALIGN;
    size_t blo, bhi;
    trn_cpu_shard_range(blocks, shard, nshards, &blo, &bhi);
    *lo = blo * GEMM_SHARD_COL_ALIGN < n ? blo * GEMM_SHARD_COL_ALIGN : n;
    *hi = bhi * GEMM_SHARD_COL_ALIGN < n ? bhi * GEMM_SHARD_COL_ALIGN : n;
}

trn_kstatus trn_cpu_gemm(const trn_gemm_desc *d, int shard, int nshards) {
    size_t lo, hi;
    gemm_shard_cols((size_t)d->n, shard, nshards, &lo, &hi);
    if (hi == lo || d->m == 0)
        return TRN_KSTATUS_OK;
    const int ncols = (int)(hi - lo);
    /* Validation leaves A and B unset when they are not read (alpha = 0 or
     * k = 0); k = 0 makes BLAS compute C = beta C without touching them. */
    const int k = (d->a && d->b) ? d->k : 0;
    const enum CBLAS_TRANSPOSE ta = to_cblas(d->transa), tb = to_cblas(d->transb);
    const size_t es = trn_dtype_size(d->type);
    const char *b = d->b ? (const char *)d->b + b_col_offset(d, lo) * es : NULL;
    char *c = (char *)d->c + lo * (size_t)d->ldc * es;

    switch (d->type) {
    case TRN_DTYPE_R32F:
        cblas_sgemm(CblasColMajor, ta, tb, d->m, ncols, k, (float)d->alpha.re, d->a, d->lda,
                    (const float *)b, d->ldb, (float)d->beta.re, (float *)c, d->ldc);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_R64F:
        cblas_dgemm(CblasColMajor, ta, tb, d->m, ncols, k, d->alpha.re, d->a, d->lda,
                    (const double *)b, d->ldb, d->beta.re, (double *)c, d->ldc);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C32F: {
        const float alpha[2] = {(float)d->alpha.re, (float)d->alpha.im};
        const float beta[2] = {(float)d->beta.re, (float)d->beta.im};
        cblas_cgemm(CblasColMajor, ta, tb, d->m, ncols, k, alpha, d->a, d->lda, b, d->ldb, beta, c,
                    d->ldc);
        return TRN_KSTATUS_OK;
    }
    case TRN_DTYPE_C64F: {
        const double alpha[2] = {d->alpha.re, d->alpha.im};
        const double beta[2] = {d->beta.re, d->beta.im};
        cblas_zgemm(CblasColMajor, ta, tb, d->m, ncols, k, alpha, d->a, d->lda, b, d->ldb, beta, c,
                    d->ldc);
        return TRN_KSTATUS_OK;
    }
    }
    return TRN_KSTATUS_UNSUPPORTED;
}
