/*
 * blas_helpers.c — cuBLAS's helper functions that are not BLAS routines:
 * trnblasSetMatrix / GetMatrix / SetVector / GetVector (and their Async
 * forms), the workspace, the atomics mode and trnblasGetProperty.
 *
 * The copies are strided host <-> device copies of `count` blocks of
 * `block` bytes, block i at src + i * spitch and dst + i * dpitch (a
 * column of a matrix, or one element of a vector). On the local transport
 * device memory is mapped into this process: the whole device range is
 * checked once, the copy is ordered after the work it must follow (as
 * trnsciMemcpy / trnsciMemcpyAsync order theirs) and done here. Over gRPC
 * a contiguous range is one trnsciMemcpy(Async); a strided one is one copy
 * per block, so that device bytes between the blocks are never written.
 *
 * Statuses are cuBLAS's: INVALID_VALUE for the argument rules, and
 * MAPPING_ERROR when device memory cannot be accessed (a pointer that is not
 * inside a trnsci allocation, or a range that runs past it).
 */
#include <stdint.h>
#include <stdio.h>

#include "client/blas_internal.h"
#include "client/graph.h"

/* A failed device access as cuBLAS reports it. */
static trnblasStatus_t copy_status(trnsciError_t e) {
    if (e == trnsciSuccess) {
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if (e == trnsciErrorInvalidValue || e == trnsciErrorInvalidMemcpyDirection)
        return TRNBLAS_STATUS_MAPPING_ERROR;
    return trn_blas_status(e);
}

/* The bytes a strided operand spans: (count - 1) * pitch + block, or
 * SIZE_MAX when that overflows. */
static size_t span_of(size_t count, size_t block, size_t pitch) {
    if (count == 0)
        return 0;
    if (pitch != 0 && count - 1 > (SIZE_MAX - block) / pitch)
        return SIZE_MAX;
    return (count - 1) * pitch + block;
}

typedef struct strided {
    const char *name; /* "trnblasSetMatrix", ... */
    int to_device;    /* host -> device, else device -> host */
    size_t count, block;
    const char *src;
    size_t spitch;
    char *dst;
    size_t dpitch;
    int async;
    trnsciStream_t stream;
} strided;

static trnsciError_t copy_strided(const strided *s) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (s->count == 0 || s->block == 0)
        return trnsciSuccess;
    const char *dev = s->to_device ? s->dst : s->src;
    const size_t dpitch = s->to_device ? s->dpitch : s->spitch;
    const size_t dspan = span_of(s->count, s->block, dpitch);
    if (dspan == SIZE_MAX)
        return trn_fail(trnsciErrorInvalidValue, "%s: the device operand's extent overflows",
                        s->name);
    char what[64];
    snprintf(what, sizeof(what), "%s: %s", s->name,
             s->to_device ? "the device destination" : "the device source");
    Trnsci__V1__BufferRef ref;
    if ((e = trn_memory_device_range(c, dev, dspan, what, &ref)))
        return e;
    if (s->async &&
        (e = trn_capture_refuse_stream(
             c, s->stream, s->to_device ? "a host-to-device copy" : "a device-to-host copy")))
        return e;
    const trnsciMemcpyKind kind =
        s->to_device ? trnsciMemcpyHostToDevice : trnsciMemcpyDeviceToHost;
    const int contiguous = s->count == 1 || (s->spitch == s->block && s->dpitch == s->block);
    if (contiguous) {
        const size_t bytes = s->count * s->block; /* no overflow: it is dspan */
        return s->async ? trnsciMemcpyAsync(s->dst, s->src, bytes, kind, s->stream)
                        : trnsciMemcpy(s->dst, s->src, bytes, kind);
    }
    if (c->mapped) {
        e = s->async ? trn_client_order_after_stream(c, s->stream) : trn_client_order_after_work(c);
        if (e)
            return e;
        for (size_t i = 0; i < s->count; i++)
            memmove(s->dst + i * s->dpitch, s->src + i * s->spitch, s->block);
        return trnsciSuccess;
    }
    for (size_t i = 0; i < s->count && e == trnsciSuccess; i++) {
        char *d = s->dst + i * s->dpitch;
        const char *p = s->src + i * s->spitch;
        e = s->async ? trnsciMemcpyAsync(d, p, s->block, kind, s->stream)
                     : trnsciMemcpy(d, p, s->block, kind);
    }
    return e;
}

/* cuBLAS's rules for matrices: rows, cols >= 0; elemSize, lda, ldb > 0. */
static trnblasStatus_t matrix_copy(const char *name, int to_device, int rows, int cols,
                                   int elemSize, const void *A, int lda, void *B, int ldb,
                                   int async, trnsciStream_t stream) {
    if (rows < 0 || cols < 0 || elemSize <= 0 || lda <= 0 || ldb <= 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: rows=%d and cols=%d must be >= 0, elemSize=%d, "
                                        "lda=%d and ldb=%d > 0",
                                        name, rows, cols, elemSize, lda, ldb));
    if (rows == 0 || cols == 0) {
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if (!A || !B)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: A or B is NULL", name));
    const size_t es = (size_t)elemSize;
    const strided s = {.name = name,
                       .to_device = to_device,
                       .count = (size_t)cols,
                       .block = (size_t)rows * es,
                       .src = A,
                       .spitch = (size_t)lda * es,
                       .dst = B,
                       .dpitch = (size_t)ldb * es,
                       .async = async,
                       .stream = stream};
    return copy_status(copy_strided(&s));
}

/* cuBLAS's rules for vectors: elemSize, incx, incy > 0; n <= 0 copies
 * nothing. */
static trnblasStatus_t vector_copy(const char *name, int to_device, int n, int elemSize,
                                   const void *x, int incx, void *y, int incy, int async,
                                   trnsciStream_t stream) {
    if (elemSize <= 0 || incx <= 0 || incy <= 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "%s: elemSize=%d, incx=%d and incy=%d must be > 0", name,
                                        elemSize, incx, incy));
    if (n <= 0) {
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if (!x || !y)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue, "%s: x or y is NULL", name));
    const size_t es = (size_t)elemSize;
    const strided s = {.name = name,
                       .to_device = to_device,
                       .count = (size_t)n,
                       .block = es,
                       .src = x,
                       .spitch = (size_t)incx * es,
                       .dst = y,
                       .dpitch = (size_t)incy * es,
                       .async = async,
                       .stream = stream};
    return copy_status(copy_strided(&s));
}

trnblasStatus_t trnblasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                 int ldb) {
    return matrix_copy("trnblasSetMatrix", 1, rows, cols, elemSize, A, lda, B, ldb, 0, NULL);
}

trnblasStatus_t trnblasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                 int ldb) {
    return matrix_copy("trnblasGetMatrix", 0, rows, cols, elemSize, A, lda, B, ldb, 0, NULL);
}

trnblasStatus_t trnblasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                      void *B, int ldb, trnsciStream_t stream) {
    return matrix_copy("trnblasSetMatrixAsync", 1, rows, cols, elemSize, A, lda, B, ldb, 1, stream);
}

trnblasStatus_t trnblasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                      void *B, int ldb, trnsciStream_t stream) {
    return matrix_copy("trnblasGetMatrixAsync", 0, rows, cols, elemSize, A, lda, B, ldb, 1, stream);
}

trnblasStatus_t trnblasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr,
                                 int incy) {
    return vector_copy("trnblasSetVector", 1, n, elemSize, x, incx, devicePtr, incy, 0, NULL);
}

trnblasStatus_t trnblasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
    return vector_copy("trnblasGetVector", 0, n, elemSize, x, incx, y, incy, 0, NULL);
}

trnblasStatus_t trnblasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx,
                                      void *devicePtr, int incy, trnsciStream_t stream) {
    return vector_copy("trnblasSetVectorAsync", 1, n, elemSize, hostPtr, incx, devicePtr, incy, 1,
                       stream);
}

trnblasStatus_t trnblasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx,
                                      void *hostPtr, int incy, trnsciStream_t stream) {
    return vector_copy("trnblasGetVectorAsync", 0, n, elemSize, devicePtr, incx, hostPtr, incy, 1,
                       stream);
}

/* ---- workspace, atomics, properties --------------------------------------- */

trnblasStatus_t trnblasSetWorkspace(trnblasHandle_t handle, void *workspace,
                                    size_t workspaceSizeInBytes) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (workspaceSizeInBytes == 0 || !workspace) {
        handle->workspace = NULL; /* back to the default (none is needed) */
        handle->workspace_bytes = 0;
        trn_ok();
        return TRNBLAS_STATUS_SUCCESS;
    }
    if ((uintptr_t)workspace % 256u != 0)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetWorkspace: workspace %p is not aligned to 256 "
                                        "bytes",
                                        workspace));
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    Trnsci__V1__BufferRef ref;
    if ((e = trn_memory_device_range(c, workspace, workspaceSizeInBytes,
                                     "trnblasSetWorkspace: workspace", &ref)))
        return trn_blas_status(e);
    handle->workspace = workspace;
    handle->workspace_bytes = workspaceSizeInBytes;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasSetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (mode != TRNBLAS_ATOMICS_NOT_ALLOWED && mode != TRNBLAS_ATOMICS_ALLOWED)
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasSetAtomicsMode: mode %d is not NOT_ALLOWED (0) "
                                        "or ALLOWED (1)",
                                        (int)mode));
    handle->atomics = mode;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t *mode) {
    if (!handle)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "trnblasGetAtomicsMode: mode is NULL"));
    *mode = handle->atomics;
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}

trnblasStatus_t trnblasGetProperty(trnsciLibraryPropertyType type, int *value) {
    if (!value)
        return trn_blas_status(
            trn_fail(trnsciErrorInvalidValue, "trnblasGetProperty: value is NULL"));
    switch (type) {
    case TRNSCI_MAJOR_VERSION: *value = TRNSCI_VERSION_MAJOR; break;
    case TRNSCI_MINOR_VERSION: *value = TRNSCI_VERSION_MINOR; break;
    case TRNSCI_PATCH_LEVEL: *value = TRNSCI_VERSION_PATCH; break;
    default:
        return trn_blas_status(trn_fail(trnsciErrorInvalidValue,
                                        "trnblasGetProperty: type %d is not MAJOR_VERSION (0), "
                                        "MINOR_VERSION (1) or PATCH_LEVEL (2)",
                                        (int)type));
    }
    trn_ok();
    return TRNBLAS_STATUS_SUCCESS;
}
