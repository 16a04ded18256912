/*
 * blas3.c — trnblas Level 3 beyond GEMM (symm, hemm, syrk, herk, syr2k,
 * her2k, trsm, trmm, and the cuBLAS extensions geam and dgmm). Each routine
 * resolves its device pointers, encodes one Blas3Op and queues it on the
 * handle's stream; the daemon validates shapes, extents and the in-place
 * rules (validate_blas3.c) and its message for a rejected call is available
 * from trnsciGetLastErrorMessage.
 *
 * Scalars: in host pointer mode alpha and beta are read during the call and
 * travel by value; in device pointer mode they travel as device pointers,
 * read by the daemon when the op runs (Blas3Op.alpha_ptr / beta_ptr).
 */
#include "client/blas_internal.h"

#define F3(f) TRNSCI__V1__BLAS3_FUNCTION__BLAS3_##f

typedef struct blas3_args {
    const char *name; /* "symm", ... for messages */
    Trnsci__V1__Blas3Function fn;
    Trnsci__V1__DataType type;
    int side, uplo, transa, transb, diag;
    int m, n, k;
    double a_re, a_im, b_re, b_im;
    const void *alpha_dev, *beta_dev; /* device-mode scalars, or NULL */
    const void *A;
    int lda;
    const void *B;
    int ldb;
    const void *C;
    int ldc;
    const void *x;
    int incx;
} blas3_args;

static trnblasStatus_t blas3_submit(trnblasHandle_t handle, const blas3_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->fn >= F3(SYRKX) && (e = trn_client_need_minor(c, 12, g->name))) /* protocol 1.12 */
        return trn_blas_status(e);
    Trnsci__V1__BufferRef a = TRNSCI__V1__BUFFER_REF__INIT, b = TRNSCI__V1__BUFFER_REF__INIT,
                          cr = TRNSCI__V1__BUFFER_REF__INIT, x = TRNSCI__V1__BUFFER_REF__INIT,
                          ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    const trn_blas_operand ops[] = {{g->A, "A", &a},
                                    {g->B, "B", &b},
                                    {g->C, "C", &cr},
                                    {g->x, "x", &x},
                                    {g->alpha_dev, "alpha", &ap},
                                    {g->beta_dev, "beta", &bp}};
    if ((e = trn_blas_resolve(c, g->name, ops, sizeof(ops) / sizeof(ops[0]))))
        return trn_blas_status(e);
    Trnsci__V1__Scalar alpha = trn_blas_scalar(g->a_re, g->a_im),
                       beta = trn_blas_scalar(g->b_re, g->b_im);
    Trnsci__V1__Blas3Op op3 = TRNSCI__V1__BLAS3_OP__INIT;
    op3.function = g->fn;
    op3.type = g->type;
    op3.side = (Trnsci__V1__SideMode)g->side;
    op3.uplo = (Trnsci__V1__FillMode)g->uplo;
    op3.transa = (Trnsci__V1__Operation)g->transa;
    op3.transb = (Trnsci__V1__Operation)g->transb;
    op3.diag = (Trnsci__V1__DiagType)g->diag;
    op3.m = g->m;
    op3.n = g->n;
    op3.k = g->k;
    op3.alpha = &alpha;
    op3.a = &a;
    op3.lda = g->lda;
    op3.b = &b;
    op3.ldb = g->ldb;
    op3.beta = &beta;
    op3.c = &cr;
    op3.ldc = g->ldc;
    op3.x = &x;
    op3.incx = g->incx;
    op3.alpha_ptr = &ap;
    op3.beta_ptr = &bp;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS3;
    op.blas3 = &op3;
    return trn_blas_queue(c, handle, &op);
}

/* symm (S, D, C, Z) and hemm (C, Z). */
#define SYMM(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasSideMode_t side,                  \
                                  trnblasFillMode_t uplo, int m, int n, const TY *alpha,           \
                                  const TY *A, int lda, const TY *B, int ldb, const TY *beta,      \
                                  TY *C, int ldc) {                                                \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas3_args g = {.name = NM,                                                          \
                              .fn = F3(F),                                                         \
                              .type = DT,                                                          \
                              .side = side,                                                        \
                              .uplo = uplo,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .B = B,                                                              \
                              .ldb = ldb,                                                          \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }
SYMM(Ssymm, SYMM, "symm", S, float, R32)
SYMM(Dsymm, SYMM, "symm", D, double, R64)
SYMM(Csymm, SYMM, "symm", C, trnComplex, C32)
SYMM(Zsymm, SYMM, "symm", Z, trnDoubleComplex, C64)
SYMM(Chemm, HEMM, "hemm", C, trnComplex, C32)
SYMM(Zhemm, HEMM, "hemm", Z, trnDoubleComplex, C64)

/* syrk (S, D, C, Z) and herk (C, Z; alpha and beta real, of type ST). */
#define SYRK(NAME, F, NM, T, ST, TY, DT)                                                           \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo,                  \
                                  trnblasOperation_t trans, int n, int k, const ST *alpha,         \
                                  const TY *A, int lda, const ST *beta, TY *C, int ldc) {          \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas3_args g = {.name = NM,                                                          \
                              .fn = F3(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .transa = trans,                                                     \
                              .n = n,                                                              \
                              .k = k,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }
SYRK(Ssyrk, SYRK, "syrk", S, float, float, R32)
SYRK(Dsyrk, SYRK, "syrk", D, double, double, R64)
SYRK(Csyrk, SYRK, "syrk", C, trnComplex, trnComplex, C32)
SYRK(Zsyrk, SYRK, "syrk", Z, trnDoubleComplex, trnDoubleComplex, C64)
SYRK(Cherk, HERK, "herk", S, float, trnComplex, C32)
SYRK(Zherk, HERK, "herk", D, double, trnDoubleComplex, C64)

/* syr2k (S, D, C, Z) and her2k (C, Z; beta real, of type BT read as TB). */
#define SYR2K(NAME, F, NM, T, TB, BT, TY, DT)                                                      \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo,                  \
                                  trnblasOperation_t trans, int n, int k, const TY *alpha,         \
                                  const TY *A, int lda, const TY *B, int ldb, const BT *beta,      \
                                  TY *C, int ldc) {                                                \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas3_args g = {.name = NM,                                                          \
                              .fn = F3(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .transa = trans,                                                     \
                              .n = n,                                                              \
                              .k = k,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(TB, beta),                                                   \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .B = B,                                                              \
                              .ldb = ldb,                                                          \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }
SYR2K(Ssyr2k, SYR2K, "syr2k", S, S, float, float, R32)
SYR2K(Dsyr2k, SYR2K, "syr2k", D, D, double, double, R64)
SYR2K(Csyr2k, SYR2K, "syr2k", C, C, trnComplex, trnComplex, C32)
SYR2K(Zsyr2k, SYR2K, "syr2k", Z, Z, trnDoubleComplex, trnDoubleComplex, C64)
SYR2K(Cher2k, HER2K, "her2k", C, S, float, trnComplex, C32)
SYR2K(Zher2k, HER2K, "her2k", Z, D, double, trnDoubleComplex, C64)
/* syrkx and herkx: syr2k's and her2k's parameter lists. */
SYR2K(Ssyrkx, SYRKX, "syrkx", S, S, float, float, R32)
SYR2K(Dsyrkx, SYRKX, "syrkx", D, D, double, double, R64)
SYR2K(Csyrkx, SYRKX, "syrkx", C, C, trnComplex, trnComplex, C32)
SYR2K(Zsyrkx, SYRKX, "syrkx", Z, Z, trnDoubleComplex, trnDoubleComplex, C64)
SYR2K(Cherkx, HERKX, "herkx", C, S, float, trnComplex, C32)
SYR2K(Zherkx, HERKX, "herkx", Z, D, double, trnDoubleComplex, C64)

/* trsm (in place on B) and trmm (out of place into C). */
#define TRXM(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##trsm(trnblasHandle_t handle, trnblasSideMode_t side,               \
                                     trnblasFillMode_t uplo, trnblasOperation_t trans,             \
                                     trnblasDiagType_t diag, int m, int n, const TY *alpha,        \
                                     const TY *A, int lda, TY *B, int ldb) {                       \
        SCALARS("trsm", alpha, alpha);                                                             \
        const blas3_args g = {.name = "trsm",                                                      \
                              .fn = F3(TRSM),                                                      \
                              .type = DT,                                                          \
                              .side = side,                                                        \
                              .uplo = uplo,                                                        \
                              .transa = trans,                                                     \
                              .diag = diag,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .B = B,                                                              \
                              .ldb = ldb};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }                                                                                              \
    trnblasStatus_t trnblas##T##trmm(trnblasHandle_t handle, trnblasSideMode_t side,               \
                                     trnblasFillMode_t uplo, trnblasOperation_t trans,             \
                                     trnblasDiagType_t diag, int m, int n, const TY *alpha,        \
                                     const TY *A, int lda, const TY *B, int ldb, TY *C, int ldc) { \
        SCALARS("trmm", alpha, alpha);                                                             \
        const blas3_args g = {.name = "trmm",                                                      \
                              .fn = F3(TRMM),                                                      \
                              .type = DT,                                                          \
                              .side = side,                                                        \
                              .uplo = uplo,                                                        \
                              .transa = trans,                                                     \
                              .diag = diag,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .B = B,                                                              \
                              .ldb = ldb,                                                          \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }
TRXM(S, float, R32)
TRXM(D, double, R64)
TRXM(C, trnComplex, C32)
TRXM(Z, trnDoubleComplex, C64)

/* geam and dgmm, the cuBLAS extensions. */
#define GEAM(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##geam(trnblasHandle_t handle, trnblasOperation_t transa,            \
                                     trnblasOperation_t transb, int m, int n, const TY *alpha,     \
                                     const TY *A, int lda, const TY *beta, const TY *B, int ldb,   \
                                     TY *C, int ldc) {                                             \
        SCALARS("geam", alpha, beta);                                                              \
        const blas3_args g = {.name = "geam",                                                      \
                              .fn = F3(GEAM),                                                      \
                              .type = DT,                                                          \
                              .transa = transa,                                                    \
                              .transb = transb,                                                    \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .B = B,                                                              \
                              .ldb = ldb,                                                          \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }                                                                                              \
    trnblasStatus_t trnblas##T##dgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n, \
                                     const TY *A, int lda, const TY *x, int incx, TY *C,           \
                                     int ldc) {                                                    \
        const blas3_args g = {.name = "dgmm",                                                      \
                              .fn = F3(DGMM),                                                      \
                              .type = DT,                                                          \
                              .side = mode,                                                        \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .C = C,                                                              \
                              .ldc = ldc};                                                         \
        return blas3_submit(handle, &g);                                                           \
    }
GEAM(S, float, R32)
GEAM(D, double, R64)
GEAM(C, trnComplex, C32)
GEAM(Z, trnDoubleComplex, C64)
