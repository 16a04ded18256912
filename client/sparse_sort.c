/*
 * sparse_sort.c — cuSPARSE's sorting helpers: CreateIdentityPermutation,
 * Xcoosort (by row or by column), Xcsrsort and Xcscsort.
 *
 * The sort runs in the calling process: the call waits for the handle's
 * stream, reads the index arrays (and P) back, sorts them, and writes them
 * again, so it is right on both transports and costs two copies of the
 * arrays. COO entries are sorted by (row, column) (by column: (column,
 * row)), CSR rows by column within each row, CSC columns by row within each
 * column, ties kept in their order: the order cuSPARSE's results have
 * (NVIDIA's coosort sample checks it). P, when given, is permuted with
 * the entries (P_out[i] = P_in[old position of entry i]), so starting from
 * the identity it gathers values into the sorted order. No workspace is
 * used: the _bufferSizeExt calls report 0 bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/sparse_internal.h"

/* One entry's sort key and its position before the sort. */
typedef struct sort_entry {
    int major, minor, at;
} sort_entry;

static int by_key(const void *pa, const void *pb) {
    const sort_entry *a = pa, *b = pb;
    if (a->major != b->major)
        return a->major < b->major ? -1 : 1;
    if (a->minor != b->minor)
        return a->minor < b->minor ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at; /* stable */
}

static trnsparseStatus_t sizes_ok(const char *fn, int m, int n, int nnz) {
    if (m < 0 || n < 0 || nnz < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: m = %d, n = %d, nnz = %d (need >= 0)",
                               fn, m, n, nnz);
    return TRNSPARSE_STATUS_SUCCESS;
}

/* The handle's stream, waited for. */
static trnsparseStatus_t drain(trnsparseHandle_t handle, const char *fn) {
    if (!handle)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: handle is NULL", fn);
    trnsciStream_t s = NULL;
    trnsparseStatus_t st = trnsparseGetStream(handle, &s);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        return st;
    const trnsciError_t e = trnsciStreamSynchronize(s);
    return e == trnsciSuccess ? TRNSPARSE_STATUS_SUCCESS : trn_sparse_status(e);
}

static trnsparseStatus_t down(void *host, const void *dev, size_t bytes) {
    const trnsciError_t e =
        bytes ? trnsciMemcpy(host, dev, bytes, trnsciMemcpyDeviceToHost) : trnsciSuccess;
    return e == trnsciSuccess ? TRNSPARSE_STATUS_SUCCESS : trn_sparse_status(e);
}

static trnsparseStatus_t up(void *dev, const void *host, size_t bytes) {
    const trnsciError_t e =
        bytes ? trnsciMemcpy(dev, host, bytes, trnsciMemcpyHostToDevice) : trnsciSuccess;
    return e == trnsciSuccess ? TRNSPARSE_STATUS_SUCCESS : trn_sparse_status(e);
}

/* Sorts nnz entries keyed (major[i], minor[i]) and moves minor (and major
 * when it is an array of the entries, not NULL) and P with them. majors
 * gives each entry's major key when major is NULL (CSR/CSC: the row or
 * column the pointer array puts it in). */
static trnsparseStatus_t sort_entries(const char *fn, trnsparseHandle_t handle, int nnz,
                                      int *major_dev, const int *majors, int *minor_dev,
                                      int *p_dev) {
    trnsparseStatus_t st = drain(handle, fn);
    if (st != TRNSPARSE_STATUS_SUCCESS || nnz == 0)
        return st;
    const size_t bytes = (size_t)nnz * sizeof(int);
    int *major = malloc(bytes), *minor = malloc(bytes), *p = p_dev ? malloc(bytes) : NULL,
        *tmp = malloc(bytes);
    sort_entry *e = malloc((size_t)nnz * sizeof(*e));
    if (!major || !minor || !tmp || !e || (p_dev && !p)) {
        st = trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of host memory for %d entries",
                             fn, nnz);
        goto out;
    }
    if ((major_dev && (st = down(major, major_dev, bytes)) != TRNSPARSE_STATUS_SUCCESS) ||
        (st = down(minor, minor_dev, bytes)) != TRNSPARSE_STATUS_SUCCESS ||
        (p_dev && (st = down(p, p_dev, bytes)) != TRNSPARSE_STATUS_SUCCESS))
        goto out;
    for (int i = 0; i < nnz; i++)
        e[i] = (sort_entry){major_dev ? major[i] : majors[i], minor[i], i};
    qsort(e, (size_t)nnz, sizeof(*e), by_key);
    for (int i = 0; i < nnz; i++)
        tmp[i] = minor[e[i].at];
    if ((st = up(minor_dev, tmp, bytes)) != TRNSPARSE_STATUS_SUCCESS)
        goto out;
    if (major_dev) {
        for (int i = 0; i < nnz; i++)
            tmp[i] = major[e[i].at];
        if ((st = up(major_dev, tmp, bytes)) != TRNSPARSE_STATUS_SUCCESS)
            goto out;
    }
    if (p_dev) {
        for (int i = 0; i < nnz; i++)
            tmp[i] = p[e[i].at];
        st = up(p_dev, tmp, bytes);
    }
out:
    free(major), free(minor), free(p), free(tmp), free(e);
    return st;
}

trnsparseStatus_t trnsparseCreateIdentityPermutation(trnsparseHandle_t handle, int n, int *p) {
    const char *fn = "trnsparseCreateIdentityPermutation";
    if (n < 0)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: n = %d < 0", fn, n);
    trnsparseStatus_t st = drain(handle, fn);
    if (st != TRNSPARSE_STATUS_SUCCESS || n == 0)
        return st;
    int *h = malloc((size_t)n * sizeof(int));
    if (!h)
        return trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of host memory", fn);
    for (int i = 0; i < n; i++)
        h[i] = i;
    st = up(p, h, (size_t)n * sizeof(int));
    free(h);
    return st;
}

trnsparseStatus_t trnsparseXcoosort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *cooRowsA, const int *cooColsA,
                                                  size_t *pBufferSizeInBytes) {
    (void)cooRowsA, (void)cooColsA;
    const char *fn = "trnsparseXcoosort_bufferSizeExt";
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!pBufferSizeInBytes)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBufferSizeInBytes is NULL", fn);
    const trnsparseStatus_t st = sizes_ok(fn, m, n, nnz);
    if (st == TRNSPARSE_STATUS_SUCCESS)
        *pBufferSizeInBytes = 0;
    return st;
}

trnsparseStatus_t trnsparseXcoosortByRow(trnsparseHandle_t handle, int m, int n, int nnz,
                                         int *cooRowsA, int *cooColsA, int *P, void *pBuffer) {
    (void)pBuffer;
    const char *fn = "trnsparseXcoosortByRow";
    const trnsparseStatus_t st = sizes_ok(fn, m, n, nnz);
    return st != TRNSPARSE_STATUS_SUCCESS
               ? st
               : sort_entries(fn, handle, nnz, cooRowsA, NULL, cooColsA, P);
}

trnsparseStatus_t trnsparseXcoosortByColumn(trnsparseHandle_t handle, int m, int n, int nnz,
                                            int *cooRowsA, int *cooColsA, int *P, void *pBuffer) {
    (void)pBuffer;
    const char *fn = "trnsparseXcoosortByColumn";
    const trnsparseStatus_t st = sizes_ok(fn, m, n, nnz);
    return st != TRNSPARSE_STATUS_SUCCESS
               ? st
               : sort_entries(fn, handle, nnz, cooColsA, NULL, cooRowsA, P);
}

/* CSR (CSC): the entries of each row (column) sorted by column (row); the
 * pointer array (m + 1 or n + 1 entries, descrA's base) says whose they are,
 * and must be non-decreasing from base to base + nnz. */
static trnsparseStatus_t compressed_sort(const char *fn, trnsparseHandle_t handle, int outer,
                                         int nnz, const trnsparseMatDescr_t descrA,
                                         const int *ptr_dev, int *ind_dev, int *p_dev) {
    if (!descrA)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: descrA is NULL", fn);
    trnsparseStatus_t st = drain(handle, fn);
    if (st != TRNSPARSE_STATUS_SUCCESS || nnz == 0)
        return st;
    const int base = trnsparseGetMatIndexBase(descrA) == TRNSPARSE_INDEX_BASE_ONE ? 1 : 0;
    int *ptr = malloc(((size_t)outer + 1) * sizeof(int)),
        *owner = malloc((size_t)nnz * sizeof(int));
    if (!ptr || !owner) {
        st = trn_sparse_fail(trnsciErrorMemoryAllocation, "%s: out of host memory", fn);
        goto out;
    }
    if ((st = down(ptr, ptr_dev, ((size_t)outer + 1) * sizeof(int))) != TRNSPARSE_STATUS_SUCCESS)
        goto out;
    if (ptr[0] != base || ptr[outer] != base + nnz) {
        st = trn_sparse_fail(trnsciErrorInvalidValue,
                             "%s: the pointer array runs from %d to %d, not %d to %d", fn, ptr[0],
                             ptr[outer], base, base + nnz);
        goto out;
    }
    for (int r = 0; r < outer; r++) {
        if (ptr[r + 1] < ptr[r]) {
            st = trn_sparse_fail(trnsciErrorInvalidValue,
                                 "%s: the pointer array decreases at %d (%d, then %d)", fn, r,
                                 ptr[r], ptr[r + 1]);
            goto out;
        }
        for (int k = ptr[r] - base; k < ptr[r + 1] - base; k++)
            owner[k] = r;
    }
    st = sort_entries(fn, handle, nnz, NULL, owner, ind_dev, p_dev);
out:
    free(ptr), free(owner);
    return st;
}

trnsparseStatus_t trnsparseXcsrsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *csrRowPtrA, const int *csrColIndA,
                                                  size_t *pBufferSizeInBytes) {
    return trnsparseXcoosort_bufferSizeExt(handle, m, n, nnz, csrRowPtrA, csrColIndA,
                                           pBufferSizeInBytes);
}

trnsparseStatus_t trnsparseXcsrsort(trnsparseHandle_t handle, int m, int n, int nnz,
                                    const trnsparseMatDescr_t descrA, const int *csrRowPtrA,
                                    int *csrColIndA, int *P, void *pBuffer) {
    (void)pBuffer;
    const char *fn = "trnsparseXcsrsort";
    const trnsparseStatus_t st = sizes_ok(fn, m, n, nnz);
    return st != TRNSPARSE_STATUS_SUCCESS
               ? st
               : compressed_sort(fn, handle, m, nnz, descrA, csrRowPtrA, csrColIndA, P);
}

trnsparseStatus_t trnsparseXcscsort_bufferSizeExt(trnsparseHandle_t handle, int m, int n, int nnz,
                                                  const int *cscColPtrA, const int *cscRowIndA,
                                                  size_t *pBufferSizeInBytes) {
    return trnsparseXcoosort_bufferSizeExt(handle, m, n, nnz, cscColPtrA, cscRowIndA,
                                           pBufferSizeInBytes);
}

trnsparseStatus_t trnsparseXcscsort(trnsparseHandle_t handle, int m, int n, int nnz,
                                    const trnsparseMatDescr_t descrA, const int *cscColPtrA,
                                    int *cscRowIndA, int *P, void *pBuffer) {
    (void)pBuffer;
    const char *fn = "trnsparseXcscsort";
    const trnsparseStatus_t st = sizes_ok(fn, m, n, nnz);
    return st != TRNSPARSE_STATUS_SUCCESS
               ? st
               : compressed_sort(fn, handle, n, nnz, descrA, cscColPtrA, cscRowIndA, P);
}
