/*
 * trsm_split.c — a triangular solve cut in halves: the triangle split at
 * its middle, one half solved, the other's right-hand sides updated by a
 * GEMM, the other half solved, recursively down to TRSM_LEAF. The tiled
 * factorisations' panel and row-block solves use it (solver_tile.c):
 * OpenBLAS's own trsm on a 256-wide triangle runs at 17-23 GFLOP/s on one
 * core of these machines where this runs at 22-30 (docs/benchmarks.md,
 * "Tiled factorisations"), because most of its flops become GEMM.
 *
 * The split points depend only on the triangle's order, so the result is
 * a function of the operands and the shape, never of where it runs. It is
 * the blocked substitution LAPACK's own blocked routines use; its rounding
 * differs from trsm's in the order of the sums only.
 */
#include "kernels/cpu/solver_lapack.h"

#include "kernels/cpu/cpu_kernels.h"

/* Below this order the library's trsm solves the triangle. */
#define TRSM_LEAF 32

/* Whether op(A) is lower triangular: stored lower and not transposed, or
 * stored upper and transposed. */
static int op_lower(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans) {
    return (uplo == CblasLower) == (trans == CblasNoTrans);
}

/* Block (r, c) of A, at rows r and columns c (elements). */
static const void *blk(trn_dtype t, const void *a, int lda, int r, int c) {
    return (const char *)a + ((size_t)c * (size_t)lda + (size_t)r) * trn_dtype_size(t);
}

static void *blk_mut(trn_dtype t, void *a, int lda, int r, int c) {
    return (char *)a + ((size_t)c * (size_t)lda + (size_t)r) * trn_dtype_size(t);
}

/* A split at h: its stored off-diagonal block (lower: A_21, upper: A_12),
 * which with the solve's own trans is op(A)'s off-diagonal block as a GEMM
 * operand (op(A)_21 when op(A) is lower, op(A)_12 when upper). */
static const void *off_block(trn_dtype t, const void *a, int lda, CBLAS_UPLO uplo, int h) {
    return uplo == CblasLower ? blk(t, a, lda, h, 0) : blk(t, a, lda, 0, h);
}

void trn_blas_trsm_split(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                         CBLAS_DIAG diag, int m, int n, const void *a, int lda, void *b, int ldb) {
    const int order = side == CblasLeft ? m : n;
    if (order <= TRSM_LEAF || m <= 0 || n <= 0) {
        trn_blas_trsm(t, side, uplo, trans, diag, m, n, 1.0, a, lda, b, ldb);
        return;
    }
    const int h = order / 2, rest = order - h;
    const void *a11 = a, *a22 = blk(t, a, lda, h, h);
    const void *off = off_block(t, a, lda, uplo, h);
    const int lower = op_lower(uplo, trans);
    if (side == CblasLeft) {
        /* op(A) X = B with B = [B1; B2] split at row h. Lower: X1 first,
         * then B2 -= op(A)_21 X1; upper: X2 first, then B1 -= op(A)_12 X2. */
        void *b1 = b, *b2 = blk_mut(t, b, ldb, h, 0);
        if (lower) {
            trn_blas_trsm_split(t, side, uplo, trans, diag, h, n, a11, lda, b1, ldb);
            trn_blas_gemm(t, trans, CblasNoTrans, rest, n, h, -1.0, off, lda, b1, ldb, 1.0, b2,
                          ldb);
            trn_blas_trsm_split(t, side, uplo, trans, diag, rest, n, a22, lda, b2, ldb);
        } else {
            trn_blas_trsm_split(t, side, uplo, trans, diag, rest, n, a22, lda, b2, ldb);
            trn_blas_gemm(t, trans, CblasNoTrans, h, n, rest, -1.0, off, lda, b2, ldb, 1.0, b1,
                          ldb);
            trn_blas_trsm_split(t, side, uplo, trans, diag, h, n, a11, lda, b1, ldb);
        }
        return;
    }
    /* X op(A) = B with B = [B1 B2] split at column h. Upper: X1 first, then
     * B2 -= X1 op(A)_12; lower: X2 first, then B1 -= X2 op(A)_21. */
    void *b1 = b, *b2 = blk_mut(t, b, ldb, 0, h);
    if (!lower) {
        trn_blas_trsm_split(t, side, uplo, trans, diag, m, h, a11, lda, b1, ldb);
        trn_blas_gemm(t, CblasNoTrans, trans, m, rest, h, -1.0, b1, ldb, off, lda, 1.0, b2, ldb);
        trn_blas_trsm_split(t, side, uplo, trans, diag, m, rest, a22, lda, b2, ldb);
    } else {
        trn_blas_trsm_split(t, side, uplo, trans, diag, m, rest, a22, lda, b2, ldb);
        trn_blas_gemm(t, CblasNoTrans, trans, m, h, rest, -1.0, b2, ldb, off, lda, 1.0, b1, ldb);
        trn_blas_trsm_split(t, side, uplo, trans, diag, m, h, a11, lda, b1, ldb);
    }
}
