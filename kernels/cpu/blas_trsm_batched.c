/*
 * blas_trsm_batched.c — trnblas<t>trsmBatched on the CPU: every matrix of
 * one op's pointer arrays solved by OpenBLAS's trsm (single-threaded inside
 * the worker, through the self-tested routine table: routines.h), op(A_i)
 * X = alpha B_i or X op(A_i) = alpha B_i in place in B_i.
 *
 * A shard takes its contiguous range of the batch (whole matrices, as the
 * cost model's shard limit says), so any split gives the bits of the
 * unsplit op: each matrix is one library call whatever the core count.
 * Validation guarantees the B_i share no element and no A_i overlaps a
 * B_j, so shards never race. With a host alpha of 0 the A_i are not
 * resolved (NULL) and each B_i is set to 0, as BLAS does without reading
 * A; a device-mode alpha is read here, once per shard.
 */
#include <cblas.h>
#include <string.h>

#include "kernels/cpu/cblas_map.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"

/* B_i (m x n, leading dimension ld, es bytes per element) set to 0. */
static void zero_matrix(void *b, int m, int n, int ld, size_t es) {
    for (int j = 0; j < n; j++)
        memset((unsigned char *)b + (size_t)j * (size_t)ld * es, 0, (size_t)m * es);
}

trn_kstatus trn_cpu_trsm_batched(const trn_lu_batched_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)d->batch, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    const int m = d->m, n = d->nrhs;
    double al[2] = {d->alpha.re, d->alpha.im};
    float af[2];
    const int f32 = d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F;
    const int cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F;
    if (d->alpha_ptr) {
        if (f32) {
            memcpy(af, d->alpha_ptr, (cx ? 2 : 1) * sizeof(float));
            al[0] = af[0];
            al[1] = cx ? af[1] : 0.0;
        } else {
            memcpy(al, d->alpha_ptr, (cx ? 2 : 1) * sizeof(double));
            if (!cx)
                al[1] = 0.0;
        }
    }
    af[0] = (float)al[0];
    af[1] = (float)al[1];
    const enum CBLAS_ORDER o = CblasColMajor;
    const enum CBLAS_SIDE sd = trn_cb_side(d->side);
    const enum CBLAS_UPLO ul = trn_cb_uplo(d->uplo);
    const enum CBLAS_TRANSPOSE tr = trn_cb_trans(d->trans);
    const enum CBLAS_DIAG dg = trn_cb_diag(d->diag);
    const size_t es = trn_dtype_size(d->type);
    for (size_t i = lo; i < hi; i++) {
        void *b = d->c[i];
        const void *a = d->a[i];
        if (!a) { /* host alpha = 0: A not read */
            zero_matrix(b, m, n, d->ldc, es);
            continue;
        }
        switch (d->type) {
        case TRN_DTYPE_R32F:
            TRN_LIB(cblas_strsm)(o, sd, ul, tr, dg, m, n, af[0], a, d->lda, b, d->ldc);
            break;
        case TRN_DTYPE_R64F:
            TRN_LIB(cblas_dtrsm)(o, sd, ul, tr, dg, m, n, al[0], a, d->lda, b, d->ldc);
            break;
        case TRN_DTYPE_C32F:
            TRN_LIB(cblas_ctrsm)(o, sd, ul, tr, dg, m, n, af, a, d->lda, b, d->ldc);
            break;
        case TRN_DTYPE_C64F:
            TRN_LIB(cblas_ztrsm)(o, sd, ul, tr, dg, m, n, al, a, d->lda, b, d->ldc);
            break;
        TRN_DTYPE_GEMM_ONLY_CASES:
            return TRN_KSTATUS_UNSUPPORTED; /* validation admits none */
        }
    }
    return TRN_KSTATUS_OK;
}
