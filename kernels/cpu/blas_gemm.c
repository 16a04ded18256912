/*
 * blas_gemm.c — S/D/C/Z GEMM on the CPU backend through OpenBLAS's CBLAS.
 *
 * OpenBLAS runs single-threaded (set in backend_cpu.c's core_init); parallelism
 * comes from the scheduler running shards on several workers. A shard owns a
 * contiguous block of C's columns, so shards never write the same memory.
 * OpenBLAS may block a narrow shard differently from a wide one, so bitwise
 * reproducibility rests on the scheduler choosing the shard count from the
 * request and the configured core count only.
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

trn_kstatus trn_cpu_gemm(const trn_gemm_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->n, shard, nshards, &lo, &hi);
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
