/*
 * blas2.c — trnblas Level 2 (gemv, gbmv, symv, hemv, trmv, trsv, ger, geru,
 * gerc, syr, syr2, her, her2, and the band and packed tbmv, tbsv, tpmv,
 * tpsv, sbmv, hbmv, spmv, hpmv, spr, hpr, spr2, hpr2). Each routine resolves its device pointers,
 * encodes one Blas2Op and queues it on the handle's stream; the daemon
 * validates shapes and extents (validate_blas2.c) and its message for a
 * rejected call is available from trnsciGetLastErrorMessage.
 *
 * Scalars: in host pointer mode alpha and beta are read during the call and
 * travel by value; in device pointer mode they travel as device pointers,
 * read by the daemon when the op runs (Blas2Op.alpha_ptr / beta_ptr).
 *
 * The helpers blas3.c shares (blas_internal.h: trn_blas_check_scalars,
 * trn_blas_resolve, trn_blas_queue) are defined here.
 */
#include <stdio.h>

#include "client/blas_internal.h"

trnblasStatus_t trn_blas_check_scalars(trnblasHandle_t handle, const char *name, const void *a,
                                       const void *b) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!a || !b)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: a scalar argument (alpha or beta) is NULL", name));
    return TRNBLAS_STATUS_SUCCESS;
}

trnsciError_t trn_blas_resolve(trn_client *c, const char *routine, const trn_blas_operand *ops,
                               size_t n) {
    char what[80];
    for (size_t i = 0; i < n; i++) {
        snprintf(what, sizeof(what), "%s: %s", routine, ops[i].arg);
        const trnsciError_t e = ops[i].p ? trn_client_resolve(c, ops[i].p, what, ops[i].ref) : 0;
        if (e != trnsciSuccess)
            return e;
    }
    return trnsciSuccess;
}

trnblasStatus_t trn_blas_queue(trn_client *c, trnblasHandle_t handle, Trnsci__V1__Op *op) {
    const trnsciError_t e = trn_client_submit(c, handle->stream, op);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

#define F2(f) TRNSCI__V1__BLAS2_FUNCTION__BLAS2_##f

typedef struct blas2_args {
    const char *name; /* "gemv", ... for messages */
    Trnsci__V1__Blas2Function fn;
    Trnsci__V1__DataType type;
    int trans, uplo, diag;
    int m, n, kl, ku, k;
    double a_re, a_im, b_re, b_im;
    const void *alpha_dev, *beta_dev; /* device-mode scalars, or NULL */
    const void *A;
    int lda;
    int packed; /* A is packed storage (named AP) */
    const void *x;
    int incx;
    const void *y;
    int incy;
} blas2_args;

static trnblasStatus_t blas2_submit(trnblasHandle_t handle, const blas2_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    /* The band and packed routines are protocol 1.12's. */
    if (g->fn >= F2(TBMV) && (e = trn_client_need_minor(c, 12, g->name)))
        return trn_blas_status(e);
    Trnsci__V1__BufferRef a = TRNSCI__V1__BUFFER_REF__INIT, x = TRNSCI__V1__BUFFER_REF__INIT,
                          y = TRNSCI__V1__BUFFER_REF__INIT, ap = TRNSCI__V1__BUFFER_REF__INIT,
                          bp = TRNSCI__V1__BUFFER_REF__INIT;
    const trn_blas_operand ops[] = {{g->A, g->packed ? "AP" : "A", &a},
                                    {g->x, "x", &x},
                                    {g->y, "y", &y},
                                    {g->alpha_dev, "alpha", &ap},
                                    {g->beta_dev, "beta", &bp}};
    if ((e = trn_blas_resolve(c, g->name, ops, sizeof(ops) / sizeof(ops[0]))))
        return trn_blas_status(e);
    Trnsci__V1__Scalar alpha = trn_blas_scalar(g->a_re, g->a_im),
                       beta = trn_blas_scalar(g->b_re, g->b_im);
    Trnsci__V1__Blas2Op b = TRNSCI__V1__BLAS2_OP__INIT;
    b.function = g->fn;
    b.type = g->type;
    b.trans = (Trnsci__V1__Operation)g->trans;
    b.uplo = (Trnsci__V1__FillMode)g->uplo;
    b.diag = (Trnsci__V1__DiagType)g->diag;
    b.m = g->m;
    b.n = g->n;
    b.kl = g->kl;
    b.ku = g->ku;
    b.k = g->k;
    b.alpha = &alpha;
    b.a = &a;
    b.lda = g->lda;
    b.x = &x;
    b.incx = g->incx;
    b.beta = &beta;
    b.y = &y;
    b.incy = g->incy;
    b.alpha_ptr = &ap;
    b.beta_ptr = &bp;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS2;
    op.blas2 = &b;
    return trn_blas_queue(c, handle, &op);
}

#define GEMV(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##gemv(trnblasHandle_t handle, trnblasOperation_t trans, int m,      \
                                     int n, const TY *alpha, const TY *A, int lda, const TY *x,    \
                                     int incx, const TY *beta, TY *y, int incy) {                  \
        SCALARS("gemv", alpha, beta);                                                              \
        const blas2_args g = {.name = "gemv",                                                      \
                              .fn = F2(GEMV),                                                      \
                              .type = DT,                                                          \
                              .trans = trans,                                                      \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }                                                                                              \
    trnblasStatus_t trnblas##T##gbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m,      \
                                     int n, int kl, int ku, const TY *alpha, const TY *A, int lda, \
                                     const TY *x, int incx, const TY *beta, TY *y, int incy) {     \
        SCALARS("gbmv", alpha, beta);                                                              \
        const blas2_args g = {.name = "gbmv",                                                      \
                              .fn = F2(GBMV),                                                      \
                              .type = DT,                                                          \
                              .trans = trans,                                                      \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .kl = kl,                                                            \
                              .ku = ku,                                                            \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
GEMV(S, float, R32)
GEMV(D, double, R64)
GEMV(C, trnComplex, C32)
GEMV(Z, trnDoubleComplex, C64)

/* symv (S, D, C, Z) and hemv (C, Z). */
#define SYMV(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const TY *alpha, const TY *A, int lda, const TY *x, int incx,    \
                                  const TY *beta, TY *y, int incy) {                               \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SYMV(Ssymv, SYMV, "symv", S, float, R32)
SYMV(Dsymv, SYMV, "symv", D, double, R64)
SYMV(Csymv, SYMV, "symv", C, trnComplex, C32)
SYMV(Zsymv, SYMV, "symv", Z, trnDoubleComplex, C64)
SYMV(Chemv, HEMV, "hemv", C, trnComplex, C32)
SYMV(Zhemv, HEMV, "hemv", Z, trnDoubleComplex, C64)

/* trmv and trsv: no scalars. */
#define TRXV(NAME, F, NM, TY, DT)                                                                  \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo,                  \
                                  trnblasOperation_t trans, trnblasDiagType_t diag, int n,         \
                                  const TY *A, int lda, TY *x, int incx) {                         \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .trans = trans,                                                      \
                              .uplo = uplo,                                                        \
                              .diag = diag,                                                        \
                              .n = n,                                                              \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
TRXV(Strmv, TRMV, "trmv", float, R32)
TRXV(Dtrmv, TRMV, "trmv", double, R64)
TRXV(Ctrmv, TRMV, "trmv", trnComplex, C32)
TRXV(Ztrmv, TRMV, "trmv", trnDoubleComplex, C64)
TRXV(Strsv, TRSV, "trsv", float, R32)
TRXV(Dtrsv, TRSV, "trsv", double, R64)
TRXV(Ctrsv, TRSV, "trsv", trnComplex, C32)
TRXV(Ztrsv, TRSV, "trsv", trnDoubleComplex, C64)

/* ger (S, D), geru and gerc (C, Z). */
#define GER(NAME, F, NM, T, TY, DT)                                                                \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, int m, int n, const TY *alpha,           \
                                  const TY *x, int incx, const TY *y, int incy, TY *A, int lda) {  \
        SCALARS(NM, alpha, alpha);                                                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
GER(Sger, GER, "ger", S, float, R32)
GER(Dger, GER, "ger", D, double, R64)
GER(Cgeru, GER, "ger", C, trnComplex, C32)
GER(Zgeru, GER, "ger", Z, trnDoubleComplex, C64)
GER(Cgerc, GERC, "gerc", C, trnComplex, C32)
GER(Zgerc, GERC, "gerc", Z, trnDoubleComplex, C64)

/* syr (S, D, C, Z) and her (C, Z; alpha real: AT is its type). */
#define SYR(NAME, F, NM, T, AT, TY, DT)                                                            \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const AT *alpha, const TY *x, int incx, TY *A, int lda) {        \
        SCALARS(NM, alpha, alpha);                                                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SYR(Ssyr, SYR, "syr", S, float, float, R32)
SYR(Dsyr, SYR, "syr", D, double, double, R64)
SYR(Csyr, SYR, "syr", C, trnComplex, trnComplex, C32)
SYR(Zsyr, SYR, "syr", Z, trnDoubleComplex, trnDoubleComplex, C64)
SYR(Cher, HER, "her", S, float, trnComplex, C32)
SYR(Zher, HER, "her", D, double, trnDoubleComplex, C64)

/* syr2 (S, D, C, Z) and her2 (C, Z). */
#define SYR2(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const TY *alpha, const TY *x, int incx, const TY *y, int incy,   \
                                  TY *A, int lda) {                                                \
        SCALARS(NM, alpha, alpha);                                                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SYR2(Ssyr2, SYR2, "syr2", S, float, R32)
SYR2(Dsyr2, SYR2, "syr2", D, double, R64)
SYR2(Csyr2, SYR2, "syr2", C, trnComplex, C32)
SYR2(Zsyr2, SYR2, "syr2", Z, trnDoubleComplex, C64)
SYR2(Cher2, HER2, "her2", C, trnComplex, C32)
SYR2(Zher2, HER2, "her2", Z, trnDoubleComplex, C64)

/* tbmv, tbsv (band) and tpmv, tpsv (packed): no scalars. */
#define TBXV(NAME, F, NM, TY, DT)                                                                  \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo,                  \
                                  trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,  \
                                  const TY *A, int lda, TY *x, int incx) {                         \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .trans = trans,                                                      \
                              .uplo = uplo,                                                        \
                              .diag = diag,                                                        \
                              .n = n,                                                              \
                              .k = k,                                                              \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
#define TPXV(NAME, F, NM, TY, DT)                                                                  \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo,                  \
                                  trnblasOperation_t trans, trnblasDiagType_t diag, int n,         \
                                  const TY *AP, TY *x, int incx) {                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .trans = trans,                                                      \
                              .uplo = uplo,                                                        \
                              .diag = diag,                                                        \
                              .n = n,                                                              \
                              .A = AP,                                                             \
                              .packed = 1,                                                         \
                              .x = x,                                                              \
                              .incx = incx};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
TBXV(Stbmv, TBMV, "tbmv", float, R32)
TBXV(Dtbmv, TBMV, "tbmv", double, R64)
TBXV(Ctbmv, TBMV, "tbmv", trnComplex, C32)
TBXV(Ztbmv, TBMV, "tbmv", trnDoubleComplex, C64)
TBXV(Stbsv, TBSV, "tbsv", float, R32)
TBXV(Dtbsv, TBSV, "tbsv", double, R64)
TBXV(Ctbsv, TBSV, "tbsv", trnComplex, C32)
TBXV(Ztbsv, TBSV, "tbsv", trnDoubleComplex, C64)
TPXV(Stpmv, TPMV, "tpmv", float, R32)
TPXV(Dtpmv, TPMV, "tpmv", double, R64)
TPXV(Ctpmv, TPMV, "tpmv", trnComplex, C32)
TPXV(Ztpmv, TPMV, "tpmv", trnDoubleComplex, C64)
TPXV(Stpsv, TPSV, "tpsv", float, R32)
TPXV(Dtpsv, TPSV, "tpsv", double, R64)
TPXV(Ctpsv, TPSV, "tpsv", trnComplex, C32)
TPXV(Ztpsv, TPSV, "tpsv", trnDoubleComplex, C64)

/* sbmv (S, D) and hbmv (C, Z): band. */
#define SBMV(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k,    \
                                  const TY *alpha, const TY *A, int lda, const TY *x, int incx,    \
                                  const TY *beta, TY *y, int incy) {                               \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              .k = k,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = A,                                                              \
                              .lda = lda,                                                          \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SBMV(Ssbmv, SBMV, "sbmv", S, float, R32)
SBMV(Dsbmv, SBMV, "sbmv", D, double, R64)
SBMV(Chbmv, HBMV, "hbmv", C, trnComplex, C32)
SBMV(Zhbmv, HBMV, "hbmv", Z, trnDoubleComplex, C64)

/* spmv (S, D) and hpmv (C, Z): packed. */
#define SPMV(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const TY *alpha, const TY *AP, const TY *x, int incx,            \
                                  const TY *beta, TY *y, int incy) {                               \
        SCALARS(NM, alpha, beta);                                                                  \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              BETA_OF(T, beta),                                                    \
                              .A = AP,                                                             \
                              .packed = 1,                                                         \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SPMV(Sspmv, SPMV, "spmv", S, float, R32)
SPMV(Dspmv, SPMV, "spmv", D, double, R64)
SPMV(Chpmv, HPMV, "hpmv", C, trnComplex, C32)
SPMV(Zhpmv, HPMV, "hpmv", Z, trnDoubleComplex, C64)

/* spr (S, D) and hpr (C, Z; alpha real: AT is its type). */
#define SPR(NAME, F, NM, T, AT, TY, DT)                                                            \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const AT *alpha, const TY *x, int incx, TY *AP) {                \
        SCALARS(NM, alpha, alpha);                                                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = AP,                                                             \
                              .packed = 1,                                                         \
                              .x = x,                                                              \
                              .incx = incx};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SPR(Sspr, SPR, "spr", S, float, float, R32)
SPR(Dspr, SPR, "spr", D, double, double, R64)
SPR(Chpr, HPR, "hpr", S, float, trnComplex, C32)
SPR(Zhpr, HPR, "hpr", D, double, trnDoubleComplex, C64)

/* spr2 (S, D) and hpr2 (C, Z). */
#define SPR2(NAME, F, NM, T, TY, DT)                                                               \
    trnblasStatus_t trnblas##NAME(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,           \
                                  const TY *alpha, const TY *x, int incx, const TY *y, int incy,   \
                                  TY *AP) {                                                        \
        SCALARS(NM, alpha, alpha);                                                                 \
        const blas2_args g = {.name = NM,                                                          \
                              .fn = F2(F),                                                         \
                              .type = DT,                                                          \
                              .uplo = uplo,                                                        \
                              .n = n,                                                              \
                              ALPHA_OF(T, alpha),                                                  \
                              .A = AP,                                                             \
                              .packed = 1,                                                         \
                              .x = x,                                                              \
                              .incx = incx,                                                        \
                              .y = y,                                                              \
                              .incy = incy};                                                       \
        return blas2_submit(handle, &g);                                                           \
    }
SPR2(Sspr2, SPR2, "spr2", S, float, R32)
SPR2(Dspr2, SPR2, "spr2", D, double, R64)
SPR2(Chpr2, HPR2, "hpr2", C, trnComplex, C32)
SPR2(Zhpr2, HPR2, "hpr2", Z, trnDoubleComplex, C64)
