/*
 * sparse_tridiag.c — trnsparse's banded solves, cuSPARSE's legacy
 * tridiagonal and pentadiagonal routines renamed: <t>gtsv2,
 * <t>gtsv2_nopivot, <t>gtsv2StridedBatch, <t>gtsvInterleavedBatch,
 * <t>gpsvInterleavedBatch and their _bufferSizeExt, for S/D/C/Z. Each
 * solve is one SparseBandedOp (protocol 1.14), asynchronous like
 * cuSPARSE's. The daemon's validator (ops/validate/sparse_tridiag.c) has
 * the argument rules; a _bufferSizeExt asks the same validator in this
 * process (nothing is sent), so it fails exactly when the solve would, and
 * reports 0 bytes: the daemon needs no caller buffer, and pBuffer is never
 * read (it may be NULL).
 */
#include "client/sparse_internal.h"
#include "client/validate.h"

#define BANDED_MINOR 14u

/* One call's wire form: the message and its buffer references. */
typedef struct banded_call {
    Trnsci__V1__SparseBandedOp w;
    Trnsci__V1__BufferRef ds, dl, d, du, dw, x;
} banded_call;

/* What a routine passes (unused pointers NULL, unused numbers 0). */
typedef struct banded_args {
    Trnsci__V1__SparseBanded fn;
    Trnsci__V1__DataType type;
    const char *name;
    int algo, m, n, ldb, batch, stride;
    const void *ds, *dl, *d, *du, *dw;
    void *x;
} banded_args;

/* Resolves the pointers into cl (NULL pointers stay buffer 0: the
 * validator decides whether the routine needed them). */
static trnsciError_t banded_wire(trn_client *c, const banded_args *a, banded_call *cl) {
    *cl = (banded_call){.w = TRNSCI__V1__SPARSE_BANDED_OP__INIT};
    Trnsci__V1__BufferRef *refs[] = {&cl->ds, &cl->dl, &cl->d, &cl->du, &cl->dw, &cl->x};
    const void *ptrs[] = {a->ds, a->dl, a->d, a->du, a->dw, a->x};
    static const char *const names[] = {"ds", "dl", "d", "du", "dw", "x"};
    const int gtsv2 = a->fn == TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV2 ||
                      a->fn == TRNSCI__V1__SPARSE_BANDED__SPARSE_GTSV2_NOPIVOT;
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        *refs[i] = (Trnsci__V1__BufferRef)TRNSCI__V1__BUFFER_REF__INIT;
        const char *nm = i == 5 && gtsv2 ? "B" : names[i];
        const trnsciError_t e = trn_client_resolve_named(c, ptrs[i], a->name, nm, NULL, refs[i]);
        if (e != trnsciSuccess)
            return e;
    }
    Trnsci__V1__SparseBandedOp *w = &cl->w;
    w->function = a->fn;
    w->type = a->type;
    w->m = a->m;
    w->n = a->n;
    w->ldb = a->ldb;
    w->batch_count = a->batch;
    w->batch_stride = a->stride;
    w->algo = a->algo;
    w->ds = &cl->ds;
    w->dl = &cl->dl;
    w->d = &cl->d;
    w->du = &cl->du;
    w->dw = &cl->dw;
    w->x = &cl->x;
    return trnsciSuccess;
}

/* The solve (bufferSize NULL) or its _bufferSizeExt. */
static trnsparseStatus_t banded(trnsparseHandle_t handle, const banded_args *a,
                                size_t *bufferSize) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    trnsciError_t e = trn_client_need_minor(c, BANDED_MINOR, a->name);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    banded_call cl;
    if ((e = banded_wire(c, a, &cl)) != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPARSE_BANDED;
    op.sparse_banded = &cl.w;
    if (bufferSize) {
        char msg[256];
        const trn_wire_code rc = trn_client_validate(c, &op, msg, sizeof(msg));
        if (rc != TRN_WIRE_OK)
            return trn_sparse_status(trn_fail(trn_error_from_wire(rc), "%s", msg));
        *bufferSize = 0;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    return trn_sparse_submit(c, handle, &op);
}

static trnsparseStatus_t need_size(trnsparseHandle_t handle, const char *fn, size_t *p) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!p)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: bufferSizeInBytes is NULL", fn);
    return TRNSPARSE_STATUS_SUCCESS;
}

#define FN(f) TRNSCI__V1__SPARSE_BANDED__SPARSE_##f
#define UNPAREN(...) __VA_ARGS__

/* One routine R of letter P and wire type W, cuSPARSE function F: both
 * trnsparse<P><R>_bufferSizeExt(handle, SIZE_PARAMS, size_t *SZ) and
 * trnsparse<P><R>(handle, SOLVE_PARAMS, void *pBuffer), which pass the
 * validator the same banded_args: the rest of the arguments (algo, m, n,
 * ldb, batch, stride, ds, dl, d, du, dw, x), written once. */
#define BANDED_ROUTINE(P, R, W, F, SIZE_PARAMS, SZ, SOLVE_PARAMS, ...)                             \
    trnsparseStatus_t trnsparse##P##R##_bufferSizeExt(trnsparseHandle_t handle,                    \
                                                      UNPAREN SIZE_PARAMS, size_t *SZ) {           \
        const char *nm = #P #R "_bufferSizeExt";                                                   \
        const trnsparseStatus_t s = need_size(handle, nm, SZ);                                     \
        if (s != TRNSPARSE_STATUS_SUCCESS)                                                         \
            return s;                                                                              \
        const banded_args a = {FN(F), W, nm, __VA_ARGS__};                                         \
        return banded(handle, &a, SZ);                                                             \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##R(trnsparseHandle_t handle, UNPAREN SOLVE_PARAMS,              \
                                      void *pBuffer) {                                             \
        (void)pBuffer;                                                                             \
        const banded_args a = {FN(F), W, #P #R, __VA_ARGS__};                                      \
        return banded(handle, &a, NULL);                                                           \
    }

/* The routines of one type: T the element type, P the letter, W the wire
 * type. */
#define BANDED_ROUTINES(T, P, W)                                                                   \
    BANDED_ROUTINE(P, gtsv2, W, GTSV2,                                                             \
                   (int m, int n, const T *dl, const T *d, const T *du, const T *B, int ldb),      \
                   bufferSizeInBytes,                                                              \
                   (int m, int n, const T *dl, const T *d, const T *du, T *B, int ldb), 0, m, n,   \
                   ldb, 1, 0, NULL, dl, d, du, NULL, (void *)B)                                    \
    BANDED_ROUTINE(P, gtsv2_nopivot, W, GTSV2_NOPIVOT,                                             \
                   (int m, int n, const T *dl, const T *d, const T *du, const T *B, int ldb),      \
                   bufferSizeInBytes,                                                              \
                   (int m, int n, const T *dl, const T *d, const T *du, T *B, int ldb), 0, m, n,   \
                   ldb, 1, 0, NULL, dl, d, du, NULL, (void *)B)                                    \
    BANDED_ROUTINE(                                                                                \
        P, gtsv2StridedBatch, W, GTSV2_STRIDED,                                                    \
        (int m, const T *dl, const T *d, const T *du, const T *x, int batchCount,                  \
         int batchStride),                                                                         \
        bufferSizeInBytes,                                                                         \
        (int m, const T *dl, const T *d, const T *du, T *x, int batchCount, int batchStride), 0,   \
        m, 1, 0, batchCount, batchStride, NULL, dl, d, du, NULL, (void *)x)                        \
    BANDED_ROUTINE(                                                                                \
        P, gtsvInterleavedBatch, W, GTSV_INTERLEAVED,                                              \
        (int algo, int m, const T *dl, const T *d, const T *du, const T *x, int batchCount),       \
        pBufferSizeInBytes, (int algo, int m, T *dl, T *d, T *du, T *x, int batchCount), algo, m,  \
        1, 0, batchCount, 0, NULL, dl, d, du, NULL, (void *)x)                                     \
    BANDED_ROUTINE(P, gpsvInterleavedBatch, W, GPSV_INTERLEAVED,                                   \
                   (int algo, int m, const T *ds, const T *dl, const T *d, const T *du,            \
                    const T *dw, const T *x, int batchCount),                                      \
                   pBufferSizeInBytes,                                                             \
                   (int algo, int m, T *ds, T *dl, T *d, T *du, T *dw, T *x, int batchCount),      \
                   algo, m, 1, 0, batchCount, 0, ds, dl, d, du, dw, (void *)x)

BANDED_ROUTINES(float, S, TRNSCI__V1__DATA_TYPE__R_32F)
BANDED_ROUTINES(double, D, TRNSCI__V1__DATA_TYPE__R_64F)
BANDED_ROUTINES(trnComplex, C, TRNSCI__V1__DATA_TYPE__C_32F)
BANDED_ROUTINES(trnDoubleComplex, Z, TRNSCI__V1__DATA_TYPE__C_64F)
