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
 *
 * Batches. The work of a batched op is the sequence of (matrix, block of 24
 * columns) units, matrix by matrix; a shard takes a contiguous run of units,
 * so it computes whole matrices, or column blocks of one matrix cut at
 * multiples of 24 as above: any split gives the same bits.
 *
 * Precision modes other than plain FP32/FP64 go to gemm_lowprec.c (bfloat16,
 * TF32, binary16 inputs; split bfloat16 products) and gemm_ozaki.c (FP64
 * from exact FP32 products), and 16-bit or int8 storage to gemm_narrow.c,
 * one matrix and column block at a time.
 */
#include <cblas.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"
#include "kernels/cpu/blas_gemm.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"

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

static trn_kstatus gemm_blas(const trn_gemm_one *g) {
    const trn_gemm_desc *d = g->d;
    const int ncols = g->j1 - g->j0;
    /* Validation leaves A and B unset when they are not read (alpha = 0 or
     * k = 0); k = 0 makes BLAS compute C = beta C without touching them. */
    const int k = (g->a && g->b) ? d->k : 0;
    const enum CBLAS_TRANSPOSE ta = to_cblas(d->transa), tb = to_cblas(d->transb);
    const size_t es = trn_dtype_size(d->type);
    const char *b = g->b ? (const char *)g->b + b_col_offset(d, (size_t)g->j0) * es : NULL;
    char *c = (char *)g->c + (size_t)g->j0 * (size_t)d->ldc * es;

    switch (d->type) {
    case TRN_DTYPE_R32F:
        TRN_LIB(cblas_sgemm)
        (CblasColMajor, ta, tb, d->m, ncols, k, (float)g->alpha.re, g->a, d->lda, (const float *)b,
         d->ldb, (float)g->beta.re, (float *)c, d->ldc);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_R64F:
        TRN_LIB(cblas_dgemm)
        (CblasColMajor, ta, tb, d->m, ncols, k, g->alpha.re, g->a, d->lda, (const double *)b,
         d->ldb, g->beta.re, (double *)c, d->ldc);
        return TRN_KSTATUS_OK;
    case TRN_DTYPE_C32F: {
        const float alpha[2] = {(float)g->alpha.re, (float)g->alpha.im};
        const float beta[2] = {(float)g->beta.re, (float)g->beta.im};
        TRN_LIB(cblas_cgemm)
        (CblasColMajor, ta, tb, d->m, ncols, k, alpha, g->a, d->lda, b, d->ldb, beta, c, d->ldc);
        return TRN_KSTATUS_OK;
    }
    case TRN_DTYPE_C64F: {
        const double alpha[2] = {g->alpha.re, g->alpha.im};
        const double beta[2] = {g->beta.re, g->beta.im};
        TRN_LIB(cblas_zgemm)
        (CblasColMajor, ta, tb, d->m, ncols, k, alpha, g->a, d->lda, b, d->ldb, beta, c, d->ldc);
        return TRN_KSTATUS_OK;
    }
    case TRN_DTYPE_R16F:
    case TRN_DTYPE_R16BF:
    case TRN_DTYPE_R8I:
    case TRN_DTYPE_R32I:
    case TRN_DTYPE_C8I: break; /* gemm_narrow.c */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

trn_kstatus trn_cpu_gemm_one(const trn_gemm_one *g) {
    if (trn_gemm_narrow(g->d)) /* 16-bit or int8 storage, whatever alpha */
        return trn_cpu_gemm_narrow(g);
    if (!g->a || !g->b) /* no product: C = beta C in any mode */
        return gemm_blas(g);
    switch (g->d->compute) {
    case TRN_COMPUTE_DEFAULT:
    case TRN_COMPUTE_32F:
    case TRN_COMPUTE_64F: return gemm_blas(g);
    case TRN_COMPUTE_32F_FAST_16BF:
    case TRN_COMPUTE_32F_FAST_TF32:
    case TRN_COMPUTE_32F_FAST_16F:
    case TRN_COMPUTE_32F_BF16X3:
    case TRN_COMPUTE_32F_BF16X9: return trn_cpu_gemm_lowprec(g);
    case TRN_COMPUTE_64F_EMULATED: return trn_cpu_gemm_ozaki(g);
    case TRN_COMPUTE_16F:
    case TRN_COMPUTE_32I: break; /* narrow storage only, above */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* A scalar of the data type, read from device memory (device pointer mode)
 * or taken from the descriptor. */
static trn_scalar scalar_at(trn_dtype t, const void *p, trn_scalar v) {
    if (!p)
        return v;
    switch (t) {
    case TRN_DTYPE_R32F: {
        float x;
        memcpy(&x, p, sizeof(x));
        return (trn_scalar){x, 0.0};
    }
    case TRN_DTYPE_R64F: {
        double x;
        memcpy(&x, p, sizeof(x));
        return (trn_scalar){x, 0.0};
    }
    case TRN_DTYPE_C32F: {
        float x[2];
        memcpy(x, p, sizeof(x));
        return (trn_scalar){x[0], x[1]};
    }
    case TRN_DTYPE_C64F: {
        double x[2];
        memcpy(x, p, sizeof(x));
        return (trn_scalar){x[0], x[1]};
    }
    case TRN_DTYPE_R16F: { /* COMPUTE_16F's half scalars */
        trnsciHalf h;
        memcpy(&h.x, p, sizeof(h.x));
        return (trn_scalar){trnsciHalfToFloat(h), 0.0};
    }
    case TRN_DTYPE_R32I: { /* COMPUTE_32I's */
        int32_t x;
        memcpy(&x, p, sizeof(x));
        return (trn_scalar){x, 0.0};
    }
    case TRN_DTYPE_R16BF:
    case TRN_DTYPE_R8I:
    case TRN_DTYPE_C8I: break; /* never a scale type */
    }
    return v;
}

/* Operand `base` of matrix i: listed, strided (elements), or absent. */
static const void *matrix_at(const void *const *list, const void *base, size_t i, size_t stride,
                             size_t es) {
    if (list)
        return list[i];
    return base ? (const char *)base + i * stride * es : NULL;
}

trn_kstatus trn_cpu_gemm(const trn_gemm_desc *d, trn_kmsg *msg, int shard, int nshards) {
    if (d->m == 0 || d->n == 0)
        return TRN_KSTATUS_OK;
    if (d->split_stage == TRN_GEMM_SPLIT_AHEAD) /* the conversion stage (copy engine) */
        return trn_cpu_gemm_split_ahead(d, msg, shard, nshards);
    const size_t batch = d->batch > 1 ? d->batch : 1;
    const size_t blocks = ((size_t)d->n + GEMM_SHARD_COL_ALIGN - 1) / GEMM_SHARD_COL_ALIGN;
    size_t lo, hi;
    trn_cpu_shard_range(batch * blocks, shard, nshards, &lo, &hi);
    const size_t es = trn_dtype_size(d->type), es_ab = trn_dtype_size(trn_gemm_ab_type(d));
    const trn_dtype st = trn_gemm_scale_type(d);
    const trn_scalar alpha = scalar_at(st, d->alpha_ptr, d->alpha);
    const trn_scalar beta = scalar_at(st, d->beta_ptr, d->beta);
    const int no_product = alpha.re == 0.0 && alpha.im == 0.0;
    for (size_t u = lo; u < hi;) {
        const size_t i = u / blocks, first = u % blocks;
        const size_t last = hi - i * blocks < blocks ? hi - i * blocks : blocks;
        const size_t j1 = last * GEMM_SHARD_COL_ALIGN;
        trn_gemm_one g = {
            .d = d,
            .a = matrix_at(d->a_list, d->a, i, d->stride_a, es_ab),
            .b = matrix_at(d->b_list, d->b, i, d->stride_b, es_ab),
            .c = (void *)matrix_at((const void *const *)d->c_list, d->c, i, d->stride_c, es),
            .batch = (uint32_t)i,
            .j0 = (int)(first * GEMM_SHARD_COL_ALIGN),
            .j1 = j1 < (size_t)d->n ? (int)j1 : d->n,
            .alpha = alpha,
            .beta = beta,
            .kmsg = msg,
            .shard = shard,
        };
        /* A device-mode alpha of 0: BLAS computes C = beta C without A and B. */
        if (no_product)
            g.a = g.b = NULL;
        const trn_kstatus st = trn_cpu_gemm_one(&g);
        if (st != TRN_KSTATUS_OK)
            return st;
        u = (i + 1) * blocks;
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(gemm, trn_cpu_gemm(&op->u.gemm, op->kmsg, shard, nshards))
