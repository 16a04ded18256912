/*
 * blas_gemv_batched.c — trnblas<t>gemvBatched and gemvStridedBatched:
 * batchCount independent gemvs, y_i = alpha op(A_i) x_i + beta y_i.
 *
 * Each product travels as one Blas2Op GEMV on the handle's stream, in batch
 * order (Level 2 is bound by memory bandwidth; the daemon runs each on one
 * core or splits a large one into tiles). Every entry is checked by the
 * validator before the first is queued, so an invalid entry fails the call
 * with nothing done, naming the entry. Strided batches place entry i at
 * A + i*strideA, x + i*stridex, y + i*stridey elements (strides >= 0);
 * pointer-array batches read the device arrays Aarray, xarray and yarray
 * when called, after the stream's earlier work, as gemmBatched does.
 */
#include <stdio.h>
#include <stdlib.h>

#include "client/blas_internal.h"
#include "client/validate.h"

typedef struct gemvb_args {
    const char *name; /* "gemvBatched", "gemvStridedBatched" */
    Trnsci__V1__DataType type;
    size_t es;
    int trans, m, n;
    double a_re, a_im, b_re, b_im;
    const void *alpha_dev, *beta_dev;
    int lda, incx, incy, batch;
    /* strided */
    const void *A, *x, *y;
    long long sa, sx, sy;
    /* pointer arrays (device), or NULL */
    const void *aarr, *xarr, *yarr;
} gemvb_args;

static trnsciError_t run_batch(trn_client *c, trnblasHandle_t handle, const gemvb_args *g) {
    const size_t nb = (size_t)g->batch;
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    const trn_blas_operand sops[] = {{g->alpha_dev, "alpha", &ap}, {g->beta_dev, "beta", &bp}};
    trnsciError_t e = trn_blas_resolve(c, g->name, sops, 2);
    if (e)
        return e;
    void **ptrs = malloc(3 * nb * sizeof(void *));
    Trnsci__V1__BufferRef *refs = malloc(3 * nb * sizeof(*refs));
    Trnsci__V1__BufferRef **rp = malloc(3 * nb * sizeof(*rp));
    if (!ptrs || !refs || !rp) {
        e = trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory for %zu products", g->name,
                     nb);
        goto out;
    }
    if (g->aarr) {
        e = trn_blas_resolve_array(c, handle->stream, g->aarr, nb, g->name, "Aarray", ptrs, refs,
                                   rp);
        if (e == trnsciSuccess)
            e = trn_blas_resolve_array(c, handle->stream, g->xarr, nb, g->name, "xarray", ptrs + nb,
                                       refs + nb, rp + nb);
        if (e == trnsciSuccess)
            e = trn_blas_resolve_array(c, handle->stream, g->yarr, nb, g->name, "yarray",
                                       ptrs + 2 * nb, refs + 2 * nb, rp + 2 * nb);
    } else {
        const void *base[3] = {g->A, g->x, g->y};
        const long long stride[3] = {g->sa, g->sx, g->sy};
        static const char *const what[3] = {"A", "x", "y"};
        for (size_t i = 0; i < nb && e == trnsciSuccess; i++)
            for (int o = 0; o < 3 && e == trnsciSuccess; o++) {
                /* NULL stays NULL (A and x need not be given when alpha = 0). */
                size_t off = 0;
                if (__builtin_mul_overflow((size_t)stride[o], i, &off) ||
                    __builtin_mul_overflow(off, g->es, &off)) {
                    e = trn_fail(trnsciErrorInvalidValue,
                                 "%s: %s of product %zu is beyond the "
                                 "address space",
                                 g->name, what[o], i);
                    break;
                }
                const void *p = base[o] ? (const char *)base[o] + off : NULL;
                char nm[40];
                snprintf(nm, sizeof(nm), "%s of product %zu", what[o], i);
                trn_blas_operand one = {p, nm, &refs[o * nb + i]};
                e = trn_blas_resolve(c, g->name, &one, 1);
                if (p == NULL)
                    refs[o * nb + i] = (Trnsci__V1__BufferRef)TRNSCI__V1__BUFFER_REF__INIT;
            }
    }
    if (e != trnsciSuccess)
        goto out;
    Trnsci__V1__Scalar alpha = trn_blas_scalar(g->a_re, g->a_im),
                       beta = trn_blas_scalar(g->b_re, g->b_im);
    Trnsci__V1__Blas2Op b = TRNSCI__V1__BLAS2_OP__INIT;
    b.function = TRNSCI__V1__BLAS2_FUNCTION__BLAS2_GEMV;
    b.type = g->type;
    b.trans = (Trnsci__V1__Operation)g->trans;
    b.m = g->m;
    b.n = g->n;
    b.alpha = &alpha;
    b.lda = g->lda;
    b.incx = g->incx;
    b.beta = &beta;
    b.incy = g->incy;
    b.alpha_ptr = &ap;
    b.beta_ptr = &bp;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS2;
    op.blas2 = &b;
    /* Every entry checked before the first is queued. */
    for (size_t pass = 0; pass < 2 && e == trnsciSuccess; pass++)
        for (size_t i = 0; i < nb && e == trnsciSuccess; i++) {
            b.a = &refs[i];
            b.x = &refs[nb + i];
            b.y = &refs[2 * nb + i];
            if (pass == 1) {
                e = trn_client_submit(c, handle->stream, &op);
                continue;
            }
            char msg[256];
            const trn_wire_code rc = trn_client_validate(c, &op, msg, sizeof(msg));
            if (rc != TRN_WIRE_OK)
                e = trn_fail(trn_error_from_wire(rc), "%s: product %zu: %s", g->name, i, msg);
        }
out:
    free(ptrs);
    free(refs);
    free(rp);
    return e;
}

static trnblasStatus_t gemvb_submit(trnblasHandle_t handle, const gemvb_args *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->batch < 0)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: batchCount=%d is negative", g->name, g->batch));
    if (g->sa < 0 || g->sx < 0 || g->sy < 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: strides must be >= 0 (strideA=%lld, stridex=%lld, "
                                        "stridey=%lld)",
                                        g->name, g->sa, g->sx, g->sy));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (g->batch > 0)
        e = run_batch(c, handle, g);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

#define GEMVB(T, TY, DT)                                                                           \
    trnblasStatus_t trnblas##T##gemvBatched(                                                       \
        trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, const TY *alpha,           \
        const TY *const Aarray[], int lda, const TY *const xarray[], int incx, const TY *beta,     \
        TY *const yarray[], int incy, int batchCount) {                                            \
        SCALARS("gemvBatched", alpha, beta);                                                       \
        const gemvb_args g = {.name = "gemvBatched",                                               \
                              .type = DT,                                                          \
                              .es = sizeof(TY),                                                    \
                              .trans = trans,                                                      \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .a_re = DEV ? 0 : RE_##T(alpha),                                     \
                              .a_im = DEV ? 0 : IM_##T(alpha),                                     \
                              .alpha_dev = DEV ? (const void *)alpha : NULL,                       \
                              .b_re = DEV ? 0 : RE_##T(beta),                                      \
                              .b_im = DEV ? 0 : IM_##T(beta),                                      \
                              .beta_dev = DEV ? (const void *)beta : NULL,                         \
                              .lda = lda,                                                          \
                              .incx = incx,                                                        \
                              .incy = incy,                                                        \
                              .batch = batchCount,                                                 \
                              .aarr = Aarray,                                                      \
                              .xarr = xarray,                                                      \
                              .yarr = yarray};                                                     \
        if (batchCount > 0 && (!Aarray || !xarray || !yarray))                                     \
            return trn_blas_status(                                                                \
                trn_fail(trnsciErrorInvalidValue, "gemvBatched: a pointer array is NULL"));        \
        return gemvb_submit(handle, &g);                                                           \
    }                                                                                              \
    trnblasStatus_t trnblas##T##gemvStridedBatched(                                                \
        trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, const TY *alpha,           \
        const TY *A, int lda, long long int strideA, const TY *x, int incx, long long int stridex, \
        const TY *beta, TY *y, int incy, long long int stridey, int batchCount) {                  \
        SCALARS("gemvStridedBatched", alpha, beta);                                                \
        const gemvb_args g = {.name = "gemvStridedBatched",                                        \
                              .type = DT,                                                          \
                              .es = sizeof(TY),                                                    \
                              .trans = trans,                                                      \
                              .m = m,                                                              \
                              .n = n,                                                              \
                              .a_re = DEV ? 0 : RE_##T(alpha),                                     \
                              .a_im = DEV ? 0 : IM_##T(alpha),                                     \
                              .alpha_dev = DEV ? (const void *)alpha : NULL,                       \
                              .b_re = DEV ? 0 : RE_##T(beta),                                      \
                              .b_im = DEV ? 0 : IM_##T(beta),                                      \
                              .beta_dev = DEV ? (const void *)beta : NULL,                         \
                              .lda = lda,                                                          \
                              .incx = incx,                                                        \
                              .incy = incy,                                                        \
                              .batch = batchCount,                                                 \
                              .A = A,                                                              \
                              .x = x,                                                              \
                              .y = y,                                                              \
                              .sa = strideA,                                                       \
                              .sx = stridex,                                                       \
                              .sy = stridey};                                                      \
        return gemvb_submit(handle, &g);                                                           \
    }
GEMVB(S, float, R32)
GEMVB(D, double, R64)
GEMVB(C, trnComplex, C32)
GEMVB(Z, trnDoubleComplex, C64)
