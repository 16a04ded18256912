/*
 * blas_gemm.c — trnblas's GEMM family: <t>gemm, <t>gemmStridedBatched,
 * <t>gemmBatched (H: half storage), GemmEx, GemmBatchedEx,
 * GemmStridedBatchedEx (also on 16-bit, int8 and complex int8 storage), and
 * <t>gemmGroupedBatched / GemmGroupedBatchedEx (and their _64 forms: one
 * pointer-array batch per group, see below). Every routine
 * becomes one GemmOp (pointer-array batches: one per TRNSCI_WIRE_MAX_POINTER_BATCH
 * matrices, queued in order on the handle's stream); the daemon validates
 * shapes and extents (daemon/validate_gemm.c).
 *
 * What is decided here: the compute type (from the routine, the GemmEx
 * computeType and the handle's math mode), where alpha and beta come from
 * (pointer mode), stochastic rounding (math flag and seed), the emulation
 * controls' check and bit count report (blas_emulation.c), and, for
 * pointer-array batches, the device pointers the arrays hold: the arrays
 * are read when the routine is called, after the handle's stream's earlier
 * work (a deviation from cuBLAS, which reads them when the kernel runs;
 * docs/rosetta.md).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/blas_internal.h"
#include "client/validate.h"

/* Matrices per GemmOp of a pointer-array batch (the daemon's limit is
 * GEMM_MAX_POINTER_BATCH in daemon/validate_gemm.c). */

typedef struct gemm_call {
    const char *name;             /* the routine, for messages */
    Trnsci__V1__DataType type;    /* C's */
    Trnsci__V1__DataType ab_type; /* A and B's when it is not C's, else unset */
    /* The type of the host scalars when it is not `type` (16-bit and int8
     * storage: R_16F, R_32F or R_32I), else unset. */
    Trnsci__V1__DataType scale;
    trnblasOperation_t transa, transb;
    int m, n, k;
    const void *alpha, *beta; /* host or device pointers, of the data type */
    const void *a, *b;        /* one GEMM or strided batches */
    void *c;
    int lda, ldb, ldc;
    long long stride_a, stride_b, stride_c;
    int batch;  /* batchCount; 1 for a single GEMM */
    int listed; /* pointer-array batches: a_arr, b_arr, c_arr */
    const void *const *a_arr, *const *b_arr;
    void *const *c_arr;
    Trnsci__V1__ComputeType compute;
    /* Grouped batches: the arrays' entries already resolved (A's at
     * pre[0..batch), B's at pre[stride..], C's at pre[2 stride..]), and
     * whether to only ask the validator (nothing is queued). */
    Trnsci__V1__BufferRef **pre;
    size_t pre_stride;
    int check_only;
} gemm_call;

/* The compute type of the legacy routines under the handle's math mode. */
static Trnsci__V1__ComputeType legacy_compute(const trnblasHandle_t handle,
                                              Trnsci__V1__DataType t) {
    const unsigned math = (unsigned)handle->math, mode = math & 0x7u;
    if (t == R32 || t == C32) {
        if (mode == TRNBLAS_TF32_TENSOR_OP_MATH)
            return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32;
        if (mode == TRNBLAS_FP32_EMULATED_BF16X9_MATH)
            return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X9;
        return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
    }
    if (mode != TRNBLAS_PEDANTIC_MATH && (math & TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH))
        return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
    return TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F;
}

/* A host scalar of data type t. Read with memcpy: callers often pass the
 * address of a double[2] or float[2], which has less than trnDoubleComplex's
 * 16-byte alignment. */
static Trnsci__V1__Scalar host_scalar(Trnsci__V1__DataType t, const void *p) {
    Trnsci__V1__Scalar v = TRNSCI__V1__SCALAR__INIT;
    float f[2] = {0, 0};
    double d[2] = {0, 0};
    switch (t) {
    case TRNSCI__V1__DATA_TYPE__R_16F: {
        trnsciHalf h;
        memcpy(&h.x, p, sizeof(h.x));
        v.re = trnsciHalfToFloat(h);
        break;
    }
    case TRNSCI__V1__DATA_TYPE__R_32I: {
        int32_t x;
        memcpy(&x, p, sizeof(x));
        v.re = x;
        break;
    }
    case R32:
    case C32:
        memcpy(f, p, (t == C32 ? 2 : 1) * sizeof(float));
        v.re = f[0];
        v.im = f[1];
        break;
    case R64:
    case C64:
        memcpy(d, p, (t == C64 ? 2 : 1) * sizeof(double));
        v.re = d[0];
        v.im = d[1];
        break;
    default: break;
    }
    return v;
}

/* Queues one GemmOp built from g and the given operands. */
static trnsciError_t submit_op(trn_client *c, trnblasHandle_t handle, Trnsci__V1__GemmOp *op) {
    Trnsci__V1__Op o = TRNSCI__V1__OP__INIT;
    o.kind_case = TRNSCI__V1__OP__KIND_GEMM;
    o.gemm = op;
    return trn_client_submit(c, handle->stream, &o);
}

/* Pointer-array batches: resolves the matrices the arrays name and queues
 * them TRNSCI_WIRE_MAX_POINTER_BATCH at a time. */
static trnsciError_t submit_listed(trn_client *c, trnblasHandle_t handle, const gemm_call *g,
                                   Trnsci__V1__GemmOp *op) {
    const size_t nb = (size_t)g->batch;
    trnsciError_t e = trnsciSuccess;
    if (g->pre) { /* a group of a grouped batch: resolved by the caller */
        for (size_t i0 = 0; i0 < nb && e == trnsciSuccess; i0 += TRNSCI_WIRE_MAX_POINTER_BATCH) {
            const size_t len =
                nb - i0 < TRNSCI_WIRE_MAX_POINTER_BATCH ? nb - i0 : TRNSCI_WIRE_MAX_POINTER_BATCH;
            op->batch_count = (int64_t)len;
            op->n_a_array = op->n_b_array = op->n_c_array = len;
            op->a_array = g->pre + i0;
            op->b_array = g->pre + g->pre_stride + i0;
            op->c_array = g->pre + 2 * g->pre_stride + i0;
            if (!g->check_only) {
                e = submit_op(c, handle, op);
                continue;
            }
            char msg[256];
            Trnsci__V1__Op o = TRNSCI__V1__OP__INIT;
            o.kind_case = TRNSCI__V1__OP__KIND_GEMM;
            o.gemm = op;
            const trn_wire_code rc = trn_client_validate(c, &o, msg, sizeof(msg));
            if (rc != TRN_WIRE_OK)
                e = trn_fail(trn_error_from_wire(rc), "%s: %s", g->name, msg);
        }
        return e;
    }
    void **ptrs = malloc(3 * nb * sizeof(void *));
    Trnsci__V1__BufferRef *refs = malloc(3 * nb * sizeof(*refs));
    Trnsci__V1__BufferRef **rp = malloc(3 * nb * sizeof(*rp));
    if (!ptrs || !refs || !rp) {
        e = trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory for %zu matrices", g->name,
                     nb);
        goto out;
    }
    const void *const arrays[3] = {g->a_arr, g->b_arr, g->c_arr};
    const char *const names[3] = {"Aarray", "Barray", "Carray"};
    for (int w = 0; w < 3 && e == trnsciSuccess; w++) {
        const size_t at = (size_t)w * nb;
        e = trn_blas_resolve_array(c, handle->stream, arrays[w], nb, g->name, names[w], ptrs + at,
                                   refs + at, rp + at);
    }
    for (size_t i0 = 0; i0 < nb && e == trnsciSuccess; i0 += TRNSCI_WIRE_MAX_POINTER_BATCH) {
        const size_t len =
            nb - i0 < TRNSCI_WIRE_MAX_POINTER_BATCH ? nb - i0 : TRNSCI_WIRE_MAX_POINTER_BATCH;
        op->batch_count = (int64_t)len;
        op->n_a_array = op->n_b_array = op->n_c_array = len;
        op->a_array = rp + i0;
        op->b_array = rp + nb + i0;
        op->c_array = rp + 2 * nb + i0;
        e = submit_op(c, handle, op);
    }
out:
    free(ptrs);
    free(refs);
    free(rp);
    return e;
}

static trnblasStatus_t gemm_submit(trnblasHandle_t handle, const gemm_call *g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!g->alpha || !g->beta)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", g->name));
    if (g->batch < 0)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: batchCount=%d is negative", g->name, g->batch));
    if (g->batch == 0) { /* nothing to compute */
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    const trnblasStatus_t est = trn_blas_emulation_check(handle, g->name, g->compute);
    if (est)
        return est;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    /* Batches, compute types other than the data type's own and device
     * scalars are protocol 1.4 fields: a 1.3 daemon would ignore them. */
    const int plain = g->batch == 1 && !g->listed && !DEV &&
                      (g->compute == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F ||
                       g->compute == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F);
    if (!plain && (e = trn_client_need_minor(c, 4, g->name)))
        return trn_blas_status(e);
    /* 16-bit and int8 storage are protocol 1.13's, complex int8 (C_8I)
     * 1.14's: an older daemon would refuse the data type (or ignore
     * ab_type). */
    const unsigned narrow_minor = g->ab_type == TRNSCI__V1__DATA_TYPE__C_8I ? 14u : 13u;
    if (g->scale && (e = trn_client_need_minor(c, narrow_minor, g->name)))
        return trn_blas_status(e);
    Trnsci__V1__GemmOp op = TRNSCI__V1__GEMM_OP__INIT;
    Trnsci__V1__Scalar alpha = TRNSCI__V1__SCALAR__INIT, beta = TRNSCI__V1__SCALAR__INIT;
    Trnsci__V1__BufferRef ap = TRNSCI__V1__BUFFER_REF__INIT, bp = TRNSCI__V1__BUFFER_REF__INIT;
    char what[64];
    if (DEV) {
        snprintf(what, sizeof(what), "%s: alpha", g->name);
        if ((e = trn_client_resolve(c, g->alpha, what, &ap)))
            return trn_blas_status(e);
        snprintf(what, sizeof(what), "%s: beta", g->name);
        if ((e = trn_client_resolve(c, g->beta, what, &bp)))
            return trn_blas_status(e);
    } else {
        alpha = host_scalar(g->scale ? g->scale : g->type, g->alpha);
        beta = host_scalar(g->scale ? g->scale : g->type, g->beta);
    }
    op.type = g->type;
    op.ab_type = g->ab_type;
    op.transa = (Trnsci__V1__Operation)g->transa;
    op.transb = (Trnsci__V1__Operation)g->transb;
    op.m = g->m;
    op.n = g->n;
    op.k = g->k;
    op.alpha = &alpha;
    op.beta = &beta;
    op.alpha_ptr = &ap;
    op.beta_ptr = &bp;
    op.lda = g->lda;
    op.ldb = g->ldb;
    op.ldc = g->ldc;
    op.compute_type = g->compute;
    op.stochastic_rounding = (handle->math & TRNBLAS_STOCHASTIC_ROUNDING_MATH) &&
                             (g->compute == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF ||
                              g->compute == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32);
    op.rounding_seed = handle->sr_seed;
    if (g->listed) {
        e = submit_listed(c, handle, g, &op);
    } else {
        Trnsci__V1__BufferRef a, b, cref;
        snprintf(what, sizeof(what), "%s: A", g->name);
        if ((e = trn_client_resolve(c, g->a, what, &a)))
            return trn_blas_status(e);
        snprintf(what, sizeof(what), "%s: B", g->name);
        if ((e = trn_client_resolve(c, g->b, what, &b)))
            return trn_blas_status(e);
        snprintf(what, sizeof(what), "%s: C", g->name);
        if ((e = trn_client_resolve(c, g->c, what, &cref)))
            return trn_blas_status(e);
        op.a = &a;
        op.b = &b;
        op.c = &cref;
        op.batch_count = g->batch;
        op.stride_a = g->stride_a;
        op.stride_b = g->stride_b;
        op.stride_c = g->stride_c;
        e = submit_op(c, handle, &op);
    }
    if (e == trnsciSuccess && !g->check_only)
        e = trn_blas_emulation_report(handle, g->compute);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_blas_status(e);
}

/* ---- <t>gemm, <t>gemmStridedBatched, <t>gemmBatched ---------------------- */

/* A single GEMM (strides 0, batch 1) or strided batches. */
static gemm_call strided(const char *name, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                         int n, int k, const void *alpha, const void *A, int lda, long long sa,
                         const void *B, int ldb, long long sb, const void *beta, void *C, int ldc,
                         long long sc, int batch) {
    return (gemm_call){.name = name,
                       .transa = ta,
                       .transb = tb,
                       .m = m,
                       .n = n,
                       .k = k,
                       .alpha = alpha,
                       .beta = beta,
                       .a = A,
                       .b = B,
                       .c = C,
                       .lda = lda,
                       .ldb = ldb,
                       .ldc = ldc,
                       .stride_a = sa,
                       .stride_b = sb,
                       .stride_c = sc,
                       .batch = batch};
}

/* Pointer-array batches. */
static gemm_call listed(const char *name, trnblasOperation_t ta, trnblasOperation_t tb, int m,
                        int n, int k, const void *alpha, const void *const *Aa, int lda,
                        const void *const *Ba, int ldb, const void *beta, void *const *Ca, int ldc,
                        int batch) {
    return (gemm_call){.name = name,
                       .transa = ta,
                       .transb = tb,
                       .m = m,
                       .n = n,
                       .k = k,
                       .alpha = alpha,
                       .beta = beta,
                       .lda = lda,
                       .ldb = ldb,
                       .ldc = ldc,
                       .batch = batch,
                       .listed = 1,
                       .a_arr = Aa,
                       .b_arr = Ba,
                       .c_arr = Ca};
}

/* The legacy routines: the data type's precision under the math mode. */
static trnblasStatus_t legacy_submit(trnblasHandle_t handle, gemm_call g, Trnsci__V1__DataType t) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    g.type = t;
    g.compute = legacy_compute(handle, t);
    return gemm_submit(handle, &g);
}

#define GEMM(T, TY, DT)                                                                            \
    trnblasStatus_t trnblas##T##gemm(trnblasHandle_t handle, trnblasOperation_t transa,            \
                                     trnblasOperation_t transb, int m, int n, int k,               \
                                     const TY *alpha, const TY *A, int lda, const TY *B, int ldb,  \
                                     const TY *beta, TY *C, int ldc) {                             \
        return legacy_submit(handle,                                                               \
                             strided("gemm", transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, \
                                     beta, C, ldc, 0, 1),                                          \
                             DT);                                                                  \
    }                                                                                              \
    trnblasStatus_t trnblas##T##gemmStridedBatched(                                                \
        trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m,       \
        int n, int k, const TY *alpha, const TY *A, int lda, long long int strideA, const TY *B,   \
        int ldb, long long int strideB, const TY *beta, TY *C, int ldc, long long int strideC,     \
        int batchCount) {                                                                          \
        return legacy_submit(handle,                                                               \
                             strided("gemmStridedBatched", transa, transb, m, n, k, alpha, A, lda, \
                                     strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount), \
                             DT);                                                                  \
    }                                                                                              \
    trnblasStatus_t trnblas##T##gemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,     \
                                            trnblasOperation_t transb, int m, int n, int k,        \
                                            const TY *alpha, const TY *const Aarray[], int lda,    \
                                            const TY *const Barray[], int ldb, const TY *beta,     \
                                            TY *const Carray[], int ldc, int batchCount) {         \
        return legacy_submit(handle,                                                               \
                             listed("gemmBatched", transa, transb, m, n, k, alpha,                 \
                                    (const void *const *)Aarray, lda, (const void *const *)Barray, \
                                    ldb, beta, (void *const *)Carray, ldc, batchCount),            \
                             DT);                                                                  \
    }
GEMM(S, float, R32)
GEMM(D, double, R64)
GEMM(C, trnComplex, C32)
GEMM(Z, trnDoubleComplex, C64)

/* Hgemm: half storage and scalars, COMPUTE_16F (FP32 sums, one rounding to
 * half: docs/numerics.md). */
static trnblasStatus_t half_submit(trnblasHandle_t handle, gemm_call g) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    g.type = TRNSCI__V1__DATA_TYPE__R_16F;
    g.scale = TRNSCI__V1__DATA_TYPE__R_16F;
    g.compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F;
    return gemm_submit(handle, &g);
}

trnblasStatus_t trnblasHgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnsciHalf *alpha, const trnsciHalf *A, int lda,
                             const trnsciHalf *B, int ldb, const trnsciHalf *beta, trnsciHalf *C,
                             int ldc) {
    return half_submit(handle, strided("Hgemm", transa, transb, m, n, k, alpha, A, lda, 0, B, ldb,
                                       0, beta, C, ldc, 0, 1));
}

trnblasStatus_t trnblasHgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k,
                                           const trnsciHalf *alpha, const trnsciHalf *A, int lda,
                                           long long int strideA, const trnsciHalf *B, int ldb,
                                           long long int strideB, const trnsciHalf *beta,
                                           trnsciHalf *C, int ldc, long long int strideC,
                                           int batchCount) {
    return half_submit(handle,
                       strided("HgemmStridedBatched", transa, transb, m, n, k, alpha, A, lda,
                               strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount));
}

trnblasStatus_t trnblasHgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const trnsciHalf *alpha, const trnsciHalf *const Aarray[],
                                    int lda, const trnsciHalf *const Barray[], int ldb,
                                    const trnsciHalf *beta, trnsciHalf *const Carray[], int ldc,
                                    int batchCount) {
    return half_submit(handle, listed("HgemmBatched", transa, transb, m, n, k, alpha,
                                      (const void *const *)Aarray, lda, (const void *const *)Barray,
                                      ldb, beta, (void *const *)Carray, ldc, batchCount));
}

/* ---- GemmEx and its batched forms ----------------------------------------- */

/* The wire data type of a supported Atype = Btype = Ctype. */
static int ex_type(trnsciDataType_t t, Trnsci__V1__DataType *out) {
    switch (t) {
    case TRNSCI_R_32F: *out = R32; return 0;
    case TRNSCI_R_64F: *out = R64; return 0;
    case TRNSCI_C_32F: *out = C32; return 0;
    case TRNSCI_C_64F: *out = C64; return 0;
    default: return -1;
    }
}

static int algo_ok(trnblasGemmAlgo_t a) {
    const int v = (int)a;
    return v == TRNBLAS_GEMM_DEFAULT || (v >= TRNBLAS_GEMM_ALGO0 && v <= TRNBLAS_GEMM_ALGO23) ||
           (v >= TRNBLAS_GEMM_DEFAULT_TENSOR_OP && v <= TRNBLAS_GEMM_ALGO15_TENSOR_OP) ||
           v == TRNBLAS_GEMM_AUTOTUNE;
}

/* The wire compute type of computeType for data type t, under the math
 * mode; -1 when the combination is not supported. */
static int ex_compute(trnblasHandle_t handle, trnblasComputeType_t ct, Trnsci__V1__DataType t,
                      Trnsci__V1__ComputeType *out) {
    const int f32 = t == R32 || t == C32;
    switch (ct) {
    case TRNBLAS_COMPUTE_32F:
        if (!f32)
            return -1;
        *out = legacy_compute(handle, t);
        return 0;
    case TRNBLAS_COMPUTE_32F_PEDANTIC: *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F; return f32 - 1;
    case TRNBLAS_COMPUTE_32F_FAST_16F:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16F;
        return f32 - 1;
    case TRNBLAS_COMPUTE_32F_FAST_16BF:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF;
        return f32 - 1;
    case TRNBLAS_COMPUTE_32F_FAST_TF32:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32;
        return f32 - 1;
    case TRNBLAS_COMPUTE_32F_EMULATED_16BFX9:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X9;
        return f32 - 1;
    case TRNBLAS_COMPUTE_32F_BF16X3:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X3;
        return f32 - 1;
    case TRNBLAS_COMPUTE_64F:
        if (f32)
            return -1;
        *out = legacy_compute(handle, t);
        return 0;
    case TRNBLAS_COMPUTE_64F_PEDANTIC: *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F; return -f32;
    case TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
        *out = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED;
        return -f32;
    default: return -1;
    }
}

/* 16-bit and int8 storage (cublasGemmEx's table): A, B in R_16F with C in
 * R_16F (COMPUTE_16F[_PEDANTIC]: half scalars, or COMPUTE_32F[_PEDANTIC]:
 * float scalars) or R_32F (32F); A, B in R_16BF with C in R_16BF or R_32F
 * (32F); A, B in R_8I with C in R_32I (COMPUTE_32I[_PEDANTIC], int32
 * scalars) or R_32F (32F); A, B in C_8I with C in C_32F (32F, complex
 * float scalars; protocol 1.14). The math mode
 * changes none of them (16-bit and int8 values are exact in every input
 * format it selects). 1: filled g; 0: not a narrow combination; -1: a narrow
 * type in an unsupported combination. */
static int ex_narrow(trnsciDataType_t at, trnsciDataType_t bt, trnsciDataType_t ctype,
                     trnblasComputeType_t ct, gemm_call *g) {
    const int narrow_ab =
        at == TRNSCI_R_16F || at == TRNSCI_R_16BF || at == TRNSCI_R_8I || at == TRNSCI_C_8I;
    const int narrow_c = ctype == TRNSCI_R_16F || ctype == TRNSCI_R_16BF || ctype == TRNSCI_R_32I;
    if (!narrow_ab && !narrow_c && bt != TRNSCI_R_16F && bt != TRNSCI_R_16BF && bt != TRNSCI_R_8I &&
        bt != TRNSCI_C_8I)
        return 0;
    if (at != bt)
        return -1;
    const int c16 = ct == TRNBLAS_COMPUTE_16F || ct == TRNBLAS_COMPUTE_16F_PEDANTIC;
    const int c32 = ct == TRNBLAS_COMPUTE_32F || ct == TRNBLAS_COMPUTE_32F_PEDANTIC;
    const int c32i = ct == TRNBLAS_COMPUTE_32I || ct == TRNBLAS_COMPUTE_32I_PEDANTIC;
    if (at == TRNSCI_C_8I) { /* the complex row: C in C_32F, complex float scalars */
        if (ctype != TRNSCI_C_32F || !c32)
            return -1;
        g->type = C32;
        g->ab_type = TRNSCI__V1__DATA_TYPE__C_8I;
        g->compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
        g->scale = C32;
        return 1;
    }
    Trnsci__V1__DataType ab, c;
    switch (at) {
    case TRNSCI_R_16F: ab = TRNSCI__V1__DATA_TYPE__R_16F; break;
    case TRNSCI_R_16BF: ab = TRNSCI__V1__DATA_TYPE__R_16BF; break;
    case TRNSCI_R_8I: ab = TRNSCI__V1__DATA_TYPE__R_8I; break;
    default: return -1;
    }
    switch (ctype) {
    case TRNSCI_R_16F: c = TRNSCI__V1__DATA_TYPE__R_16F; break;
    case TRNSCI_R_16BF: c = TRNSCI__V1__DATA_TYPE__R_16BF; break;
    case TRNSCI_R_32I: c = TRNSCI__V1__DATA_TYPE__R_32I; break;
    case TRNSCI_R_32F: c = R32; break;
    default: return -1;
    }
    int ok;
    if (at == TRNSCI_R_16F)
        ok = (ctype == TRNSCI_R_16F && (c16 || c32)) || (ctype == TRNSCI_R_32F && c32);
    else if (at == TRNSCI_R_16BF)
        ok = (ctype == TRNSCI_R_16BF || ctype == TRNSCI_R_32F) && c32;
    else
        ok = (ctype == TRNSCI_R_32I && c32i) || (ctype == TRNSCI_R_32F && c32);
    if (!ok)
        return -1;
    g->type = c;
    g->ab_type = ab == c ? TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED : ab;
    if (c16) {
        g->compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F;
        g->scale = TRNSCI__V1__DATA_TYPE__R_16F;
    } else if (c32i) {
        g->compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32I;
        g->scale = TRNSCI__V1__DATA_TYPE__R_32I;
    } else {
        g->compute = TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F;
        g->scale = R32;
    }
    return 1;
}

/* Checks GemmEx's types, compute type and algorithm and fills g's. */
static trnblasStatus_t ex_prepare(trnblasHandle_t handle, trnsciDataType_t at, trnsciDataType_t bt,
                                  trnsciDataType_t ctype, trnblasComputeType_t ct,
                                  trnblasGemmAlgo_t algo, gemm_call *g) {
    const char *name = g->name;
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!algo_ok(algo))
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: algo %d is not a trnblasGemmAlgo_t", name, (int)algo));
    const int narrow = ex_narrow(at, bt, ctype, ct, g);
    if (narrow > 0)
        return TRNBLAS_STATUS_SUCCESS;
    if (narrow < 0)
        return trn_blas_status(trn_fail(
            trnsciErrorNotSupported,
            "%s: Atype %d, Btype %d, Ctype %d with computeType %d is not supported: 16-bit and "
            "int8 storage take A, B in R_16F with C in R_16F (COMPUTE_16F or 32F) or R_32F "
            "(32F), R_16BF with C in R_16BF or R_32F (32F), R_8I with C in R_32I (32I) or "
            "R_32F (32F), C_8I with C in C_32F (32F)",
            name, (int)at, (int)bt, (int)ctype, (int)ct));
    if (at != bt || bt != ctype || ex_type(ctype, &g->type))
        return trn_blas_status(trn_fail(
            trnsciErrorNotSupported,
            "%s: Atype %d, Btype %d, Ctype %d: supported are equal types R_32F, R_64F, C_32F "
            "or C_64F, and the 16-bit and int8 combinations (docs/rosetta.md)",
            name, (int)at, (int)bt, (int)ctype));
    if (ex_compute(handle, ct, g->type, &g->compute))
        return trn_blas_status(
            trn_fail(trnsciErrorNotSupported,
                     "%s: computeType %d is not supported with data type %d (docs/rosetta.md)",
                     name, (int)ct, (int)ctype));
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                              trnblasOperation_t transb, int m, int n, int k, const void *alpha,
                              const void *A, trnsciDataType_t Atype, int lda, const void *B,
                              trnsciDataType_t Btype, int ldb, const void *beta, void *C,
                              trnsciDataType_t Ctype, int ldc, trnblasComputeType_t computeType,
                              trnblasGemmAlgo_t algo) {
    gemm_call g =
        strided("GemmEx", transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
    const trnblasStatus_t st = ex_prepare(handle, Atype, Btype, Ctype, computeType, algo, &g);
    return st ? st : gemm_submit(handle, &g);
}

trnblasStatus_t trnblasGemmBatchedEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                     trnblasOperation_t transb, int m, int n, int k,
                                     const void *alpha, const void *const Aarray[],
                                     trnsciDataType_t Atype, int lda, const void *const Barray[],
                                     trnsciDataType_t Btype, int ldb, const void *beta,
                                     void *const Carray[], trnsciDataType_t Ctype, int ldc,
                                     int batchCount, trnblasComputeType_t computeType,
                                     trnblasGemmAlgo_t algo) {
    gemm_call g = listed("GemmBatchedEx", transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb,
                         beta, Carray, ldc, batchCount);
    const trnblasStatus_t st = ex_prepare(handle, Atype, Btype, Ctype, computeType, algo, &g);
    return st ? st : gemm_submit(handle, &g);
}

trnblasStatus_t trnblasGemmStridedBatchedEx(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, trnsciDataType_t Atype, int lda, long long int strideA,
    const void *B, trnsciDataType_t Btype, int ldb, long long int strideB, const void *beta,
    void *C, trnsciDataType_t Ctype, int ldc, long long int strideC, int batchCount,
    trnblasComputeType_t computeType, trnblasGemmAlgo_t algo) {
    gemm_call g = strided("GemmStridedBatchedEx", transa, transb, m, n, k, alpha, A, lda, strideA,
                          B, ldb, strideB, beta, C, ldc, strideC, batchCount);
    const trnblasStatus_t st = ex_prepare(handle, Atype, Btype, Ctype, computeType, algo, &g);
    return st ? st : gemm_submit(handle, &g);
}

/* ---- gemmGroupedBatched ------------------------------------------------------------------
 *
 * group_count groups of pointer-array GEMMs; group g has group_size[g]
 * problems sharing transa, transb, m, n, k, alpha, lda, ldb, beta and ldc
 * (the host arrays' entry g), and takes the next group_size[g] entries of
 * Aarray, Barray and Carray. Built as one pointer-array GemmOp batch per
 * group, queued in group order on the handle's stream (the cheapest correct
 * design: a group is exactly a gemmBatched call). The three device arrays
 * are read once; every group's scalar arguments are checked here and every
 * group's op by the validator before the first group is queued, so an
 * invalid group fails the call with nothing done. The _64 forms share the code:
 * `wide` says the size arrays hold int64_t, each entry of which must fit in
 * int (NOT_SUPPORTED naming it otherwise, as blas_64.c). */

typedef struct grouped_call {
    const char *name;
    int wide;
    const trnblasOperation_t *transa, *transb;
    const void *m, *n, *k, *lda, *ldb, *ldc, *size; /* int or int64_t host arrays */
    const void *alpha, *beta;                       /* host arrays of the scalar type */
    size_t scalar_bytes;
    const void *const *a_arr, *const *b_arr;
    void *const *c_arr;
    int64_t group_count;
} grouped_call;

/* Entry g of a host size array, as int; records the error and returns -1
 * when it does not fit (only _64 arrays can hold such values). */
static int grouped_at(const grouped_call *gc, const void *arr, const char *arg, int64_t g,
                      int *out) {
    const int64_t v = gc->wide ? ((const int64_t *)arr)[g] : ((const int *)arr)[g];
    if (v < INT_MIN || v > INT_MAX) {
        (void)trn_fail(trnsciErrorNotSupported,
                       "%s: %s[%lld] = %lld does not fit in 32 bits (trnsci's sizes and leading "
                       "dimensions are 32-bit int)",
                       gc->name, arg, (long long)g, (long long)v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

typedef struct grouped_one {
    trnblasOperation_t ta, tb;
    int m, n, k, lda, ldb, ldc, size;
} grouped_one;

/* Group g's arguments, checked with gemm's rules (the validator checks them
 * again when the group is queued; checking here first keeps a bad group
 * from leaving earlier groups queued). */
static trnsciError_t grouped_get(const grouped_call *gc, int64_t g, grouped_one *o) {
    if (grouped_at(gc, gc->m, "m_array", g, &o->m) || grouped_at(gc, gc->n, "n_array", g, &o->n) ||
        grouped_at(gc, gc->k, "k_array", g, &o->k) ||
        grouped_at(gc, gc->lda, "lda_array", g, &o->lda) ||
        grouped_at(gc, gc->ldb, "ldb_array", g, &o->ldb) ||
        grouped_at(gc, gc->ldc, "ldc_array", g, &o->ldc) ||
        grouped_at(gc, gc->size, "group_size", g, &o->size))
        return trnsciErrorNotSupported;
    o->ta = gc->transa[g];
    o->tb = gc->transb[g];
    const char *bad = NULL;
    if (o->ta != TRNBLAS_OP_N && o->ta != TRNBLAS_OP_T && o->ta != TRNBLAS_OP_C)
        bad = "transa_array";
    else if (o->tb != TRNBLAS_OP_N && o->tb != TRNBLAS_OP_T && o->tb != TRNBLAS_OP_C)
        bad = "transb_array";
    else if (o->m < 0)
        bad = "m_array";
    else if (o->n < 0)
        bad = "n_array";
    else if (o->k < 0)
        bad = "k_array";
    else if (o->size < 0)
        bad = "group_size";
    else {
        const int ra = o->ta == TRNBLAS_OP_N ? o->m : o->k,
                  rb = o->tb == TRNBLAS_OP_N ? o->k : o->n;
        if (o->lda < (ra > 1 ? ra : 1))
            bad = "lda_array";
        else if (o->ldb < (rb > 1 ? rb : 1))
            bad = "ldb_array";
        else if (o->ldc < (o->m > 1 ? o->m : 1))
            bad = "ldc_array";
    }
    if (bad)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %s[%lld] is invalid (transa %d, transb %d, m %d, n %d, k %d, lda %d, "
                        "ldb %d, ldc %d, group_size %d)",
                        gc->name, bad, (long long)g, (int)o->ta, (int)o->tb, o->m, o->n, o->k,
                        o->lda, o->ldb, o->ldc, o->size);
    return trnsciSuccess;
}

/* scale: the host scalars' type when it is not `type` (16-bit storage:
 * R_32F), else unset. */
static trnblasStatus_t grouped_submit(trnblasHandle_t handle, const grouped_call *gc,
                                      Trnsci__V1__DataType type, Trnsci__V1__ComputeType compute,
                                      Trnsci__V1__DataType scale) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (gc->group_count < 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: group_count=%lld is negative",
                                        gc->name, (long long)gc->group_count));
    if (gc->group_count == 0) {
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if (!gc->transa || !gc->transb || !gc->m || !gc->n || !gc->k || !gc->alpha || !gc->lda ||
        !gc->ldb || !gc->beta || !gc->ldc || !gc->size)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: a per-group host array is NULL", gc->name));
    if (DEV)
        return trn_blas_status(trn_fail(trnsciErrorNotSupported,
                                        "%s: alpha_array and beta_array are host arrays: the "
                                        "device pointer mode is not supported",
                                        gc->name));
    /* Every group checked, and the problems counted, before any is queued. */
    int64_t total = 0;
    for (int64_t g = 0; g < gc->group_count; g++) {
        grouped_one o;
        const trnsciError_t e = grouped_get(gc, g, &o);
        if (e != trnsciSuccess)
            return trn_blas_status(e);
        total += o.size; /* at most group_count * INT_MAX: no overflow */
    }
    if (total == 0) {
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if (!gc->a_arr || !gc->b_arr || !gc->c_arr)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "%s: Aarray, Barray or Carray is NULL", gc->name));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    /* The three device arrays are read once, after the stream's earlier
     * work; every group is then validated before the first is queued. */
    const size_t nb = (size_t)total;
    trnblasStatus_t st = TRNBLAS_STATUS_SUCCESS;
    void **ptrs = malloc(3 * nb * sizeof(void *));
    Trnsci__V1__BufferRef *refs = malloc(3 * nb * sizeof(*refs));
    Trnsci__V1__BufferRef **rp = malloc(3 * nb * sizeof(*rp));
    if (!ptrs || !refs || !rp) {
        e = trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory for %zu matrices", gc->name,
                     nb);
        goto out;
    }
    const void *const arrays[3] = {gc->a_arr, gc->b_arr, gc->c_arr};
    const char *const names[3] = {"Aarray", "Barray", "Carray"};
    for (int w = 0; w < 3 && e == trnsciSuccess; w++)
        e = trn_blas_resolve_array(c, handle->stream, arrays[w], nb, gc->name, names[w],
                                   ptrs + (size_t)w * nb, refs + (size_t)w * nb,
                                   rp + (size_t)w * nb);
    for (int pass = 0; pass < 2 && e == trnsciSuccess && st == TRNBLAS_STATUS_SUCCESS; pass++) {
        size_t at = 0;
        for (int64_t g = 0; g < gc->group_count && st == TRNBLAS_STATUS_SUCCESS; g++) {
            grouped_one o;
            (void)grouped_get(gc, g, &o);
            if (o.size == 0)
                continue;
            char name[80];
            snprintf(name, sizeof(name), "%s (group %lld)", gc->name, (long long)g);
            const char *al = (const char *)gc->alpha + (size_t)g * gc->scalar_bytes;
            const char *be = (const char *)gc->beta + (size_t)g * gc->scalar_bytes;
            gemm_call one = listed(name, o.ta, o.tb, o.m, o.n, o.k, al, NULL, o.lda, NULL, o.ldb,
                                   be, NULL, o.ldc, o.size);
            one.type = type;
            one.compute = compute;
            one.scale = scale;
            one.pre = rp + at;
            one.pre_stride = nb;
            one.check_only = pass == 0;
            st = gemm_submit(handle, &one);
            at += (size_t)o.size;
        }
    }
out:
    free(ptrs);
    free(refs);
    free(rp);
    if (e != trnsciSuccess)
        return trn_blas_status(e);
    return st;
}

#define GROUPED(T, TY, DT, SFX, IT, CT)                                                            \
    trnblasStatus_t trnblas##T##gemmGroupedBatched##SFX(                                           \
        trnblasHandle_t handle, const trnblasOperation_t transa_array[],                           \
        const trnblasOperation_t transb_array[], const IT m_array[], const IT n_array[],           \
        const IT k_array[], const TY alpha_array[], const TY *const Aarray[],                      \
        const IT lda_array[], const TY *const Barray[], const IT ldb_array[],                      \
        const TY beta_array[], TY *const Carray[], const IT ldc_array[], CT group_count,           \
        const IT group_size[]) {                                                                   \
        const grouped_call gc = {.name = "gemmGroupedBatched" #SFX,                                \
                                 .wide = sizeof(IT) == 8,                                          \
                                 .transa = transa_array,                                           \
                                 .transb = transb_array,                                           \
                                 .m = m_array,                                                     \
                                 .n = n_array,                                                     \
                                 .k = k_array,                                                     \
                                 .lda = lda_array,                                                 \
                                 .ldb = ldb_array,                                                 \
                                 .ldc = ldc_array,                                                 \
                                 .size = group_size,                                               \
                                 .alpha = alpha_array,                                             \
                                 .beta = beta_array,                                               \
                                 .scalar_bytes = sizeof(TY),                                       \
                                 .a_arr = (const void *const *)Aarray,                             \
                                 .b_arr = (const void *const *)Barray,                             \
                                 .c_arr = (void *const *)Carray,                                   \
                                 .group_count = group_count};                                      \
        if (!handle)                                                                               \
            return TRNBLAS_STATUS_NOT_INITIALIZED;                                                 \
        return grouped_submit(handle, &gc, DT, legacy_compute(handle, DT), 0);                     \
    }
GROUPED(S, float, R32, , int, int)
GROUPED(D, double, R64, , int, int)
GROUPED(S, float, R32, _64, int64_t, int64_t)
GROUPED(D, double, R64, _64, int64_t, int64_t)

/* The Ex forms (cublasGemmGroupedBatchedEx's table): Atype = Btype = Ctype,
 * R_32F or R_64F with the compute types GemmEx takes for them and scalars
 * of the data type, or R_16F or R_16BF with COMPUTE_32F[_PEDANTIC] and
 * float scalars (GemmEx's 16-bit rows: exact widening, FP32 sums, one
 * rounding to C's type; protocol 1.13). */
static trnblasStatus_t grouped_ex(trnblasHandle_t handle, grouped_call *gc, trnsciDataType_t at,
                                  trnsciDataType_t bt, trnsciDataType_t ctype,
                                  trnblasComputeType_t ct) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    const int half = ctype == TRNSCI_R_16F || ctype == TRNSCI_R_16BF;
    if (at != bt || bt != ctype || (ctype != TRNSCI_R_32F && ctype != TRNSCI_R_64F && !half))
        return trn_blas_status(trn_fail(trnsciErrorNotSupported,
                                        "%s: Atype %d, Btype %d, Ctype %d: supported are equal "
                                        "types R_32F, R_64F, R_16F or R_16BF",
                                        gc->name, (int)at, (int)bt, (int)ctype));
    if (half && ct != TRNBLAS_COMPUTE_32F && ct != TRNBLAS_COMPUTE_32F_PEDANTIC)
        return trn_blas_status(trn_fail(trnsciErrorNotSupported,
                                        "%s: computeType %d is not supported with R_16F or R_16BF "
                                        "data (TRNBLAS_COMPUTE_32F is)",
                                        gc->name, (int)ct));
    gemm_call g = {.name = gc->name};
    const trnblasStatus_t st = ex_prepare(handle, at, bt, ctype, ct, TRNBLAS_GEMM_DEFAULT, &g);
    if (st != TRNBLAS_STATUS_SUCCESS)
        return st;
    gc->scalar_bytes = ctype == TRNSCI_R_64F ? sizeof(double) : sizeof(float);
    return grouped_submit(handle, gc, g.type, g.compute, g.scale);
}

#define GROUPED_EX(SFX, IT, CT)                                                                    \
    trnblasStatus_t trnblasGemmGroupedBatchedEx##SFX(                                              \
        trnblasHandle_t handle, const trnblasOperation_t transa_array[],                           \
        const trnblasOperation_t transb_array[], const IT m_array[], const IT n_array[],           \
        const IT k_array[], const void *alpha_array, const void *const Aarray[],                   \
        trnsciDataType_t Atype, const IT lda_array[], const void *const Barray[],                  \
        trnsciDataType_t Btype, const IT ldb_array[], const void *beta_array,                      \
        void *const Carray[], trnsciDataType_t Ctype, const IT ldc_array[], CT group_count,        \
        const IT group_size[], trnblasComputeType_t computeType) {                                 \
        grouped_call gc = {.name = "GemmGroupedBatchedEx" #SFX,                                    \
                           .wide = sizeof(IT) == 8,                                                \
                           .transa = transa_array,                                                 \
                           .transb = transb_array,                                                 \
                           .m = m_array,                                                           \
                           .n = n_array,                                                           \
                           .k = k_array,                                                           \
                           .lda = lda_array,                                                       \
                           .ldb = ldb_array,                                                       \
                           .ldc = ldc_array,                                                       \
                           .size = group_size,                                                     \
                           .alpha = alpha_array,                                                   \
                           .beta = beta_array,                                                     \
                           .a_arr = Aarray,                                                        \
                           .b_arr = Barray,                                                        \
                           .c_arr = Carray,                                                        \
                           .group_count = group_count};                                            \
        return grouped_ex(handle, &gc, Atype, Btype, Ctype, computeType);                          \
    }
GROUPED_EX(, int, int)
GROUPED_EX(_64, int64_t, int64_t)
