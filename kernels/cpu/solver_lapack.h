/*
 * solver_lapack.h — LAPACKE and CBLAS calls dispatched on the element type,
 * for the trnsolver kernels that wrap LAPACK (solver_factor.c,
 * solver_eigen.c, solver_jacobi.c). Internal to kernels/cpu/.
 *
 * Every LAPACK call uses the LAPACKE *_work form in column-major layout: it
 * goes straight to the Fortran routine, with no NaN scan of the inputs and no
 * hidden allocation; the kernels allocate workspace themselves (a workspace
 * query first) so that running out of memory fails the op cleanly.
 */
#ifndef TRN_KERNELS_CPU_SOLVER_LAPACK_H
#define TRN_KERNELS_CPU_SOLVER_LAPACK_H

#include <cblas.h>
#include <complex.h>
#include <lapacke.h>

#include "kernels/cpu/routines.h"
#include "ops/op.h"

/* e_s, e_d, e_c or e_z by the element type t (all are compiled; only the
 * one of t is evaluated). Pointer arguments are void *, converted
 * implicitly. */
#define TRN_BY_TYPE(t, e_s, e_d, e_c, e_z)                                                         \
    ((t) == TRN_DTYPE_R32F   ? (e_s)                                                               \
     : (t) == TRN_DTYPE_R64F ? (e_d)                                                               \
     : (t) == TRN_DTYPE_C32F ? (e_c)                                                               \
                             : (e_z))

/* LAPACKE_<s|d|c|z><name>(args) for routines named alike in all types. */
#define TRN_LAPACK4(t, name, ...)                                                                  \
    TRN_BY_TYPE(t, TRN_LIB(LAPACKE_s##name)(__VA_ARGS__), TRN_LIB(LAPACKE_d##name)(__VA_ARGS__),   \
                TRN_LIB(LAPACKE_c##name)(__VA_ARGS__), TRN_LIB(LAPACKE_z##name)(__VA_ARGS__))

/* What a LAPACK workspace query writes into work[0]. */
typedef union trn_lapack_query {
    float s;
    double d;
    float complex c;
    double complex z;
} trn_lapack_query;

/* The workspace length a query returned (at least 1). */
static inline lapack_int trn_lapack_lwork(trn_dtype t, const trn_lapack_query *q) {
    const double v = TRN_BY_TYPE(t, (double)q->s, q->d, (double)crealf(q->c), creal(q->z));
    return v < 1.0 ? 1 : v > 2147483647.0 ? 2147483647 : (lapack_int)v;
}

/* CBLAS trsm / gemm with scalar alpha (and beta) given as doubles. */
void trn_blas_trsm(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                   CBLAS_DIAG diag, int m, int n, double alpha, const void *a, int lda, void *b,
                   int ldb);
void trn_blas_gemm(trn_dtype t, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                   double alpha, const void *a, int lda, const void *b, int ldb, double beta,
                   void *c, int ldc);
/* CBLAS trmm (non-unit diagonal) with a real alpha: B = alpha op(A) B
 * (left) or alpha B op(A) (right). */
void trn_blas_trmm(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int m,
                   int n, double alpha, const void *a, int lda, void *b, int ldb);
/* C = alpha A op(A)^H + beta C (trans N) or alpha A^H A + beta C (trans C,
 * or T for real types) on C's uplo triangle: syrk for real types, herk for
 * complex ones. */
void trn_blas_herk(trn_dtype t, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, double alpha,
                   const void *a, int lda, double beta, void *c, int ldc);
/* trn_blas_trsm with alpha 1, the triangle cut in halves down to 32 and
 * the off-diagonal parts as GEMMs (kernels/cpu/trsm_split.c): faster on a
 * wide triangle; the split depends on the shape alone. */
void trn_blas_trsm_split(trn_dtype t, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                         CBLAS_DIAG diag, int m, int n, const void *a, int lda, void *b, int ldb);

#endif
