/*
 * solver_sp.c — trnsolverSp (cuSOLVER's cusolverSp): the handle, the direct
 * solvers csrlsvqr / csrlsvchol and their Host forms, and the batched QR
 * solve. Each solve is one SolverKrylovOp (CSRLSVQR / CSRLSVCHOL, protocol
 * 1.14; complex types 1.15) carrying the CSR arrays as a SparseMatrix; the singularity index
 * comes back in a 16-byte iteration record in device memory, allocated for
 * the call, which the call then waits for (singularity is a host output).
 * The Host forms stage their arrays through device memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/solver_internal.h"
#include "trnsci/trnsolverSp.h"

struct trnsolverSpContext {
    trnsciStream_t stream;
};

struct csrqrInfo {
    int m, n, nnz; /* from the analysis; 0 before it */
    int analysed;
};

static trnsolverStatus_t fail(trnsolverStatus_t st, trnsciError_t e, const char *fmt,
                              const char *fn) {
    trn_fail(e, fmt, fn);
    return st;
}

trnsolverStatus_t trnsolverSpCreate(trnsolverSpHandle_t *handle) {
    if (!handle)
        return fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue, "%s: handle is NULL",
                    "trnsolverSpCreate");
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    trnsolverSpHandle_t h = calloc(1, sizeof(*h));
    if (!h)
        return TRNSOLVER_STATUS_ALLOC_FAILED;
    *handle = h;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverSpDestroy(trnsolverSpHandle_t handle) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    free(handle);
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverSpSetStream(trnsolverSpHandle_t handle, trnsciStream_t streamId) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverSpGetStream(trnsolverSpHandle_t handle, trnsciStream_t *streamId) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return TRNSOLVER_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return TRNSOLVER_STATUS_SUCCESS;
}

/* A failure's code and message, kept across the frees of the cleanup,
 * which would replace them. */
typedef struct sp_saved {
    trnsciError_t e;
    char msg[512];
} sp_saved;

static void sp_save(sp_saved *v) {
    v->e = trnsciPeekAtLastError();
    snprintf(v->msg, sizeof(v->msg), "%s", trnsciGetLastErrorMessage());
}

static void sp_restore(const sp_saved *v) {
    (void)trn_fail(v->e != trnsciSuccess ? v->e : trnsciErrorInvalidValue, "%s", v->msg);
}

/* Bytes of an element of the four value types. */
static size_t sp_esize(trnsciDataType t) {
    return t == TRNSCI_R_32F ? 4 : t == TRNSCI_C_64F ? 16 : 8;
}

static int sp_complex(trnsciDataType t) {
    return t == TRNSCI_C_32F || t == TRNSCI_C_64F;
}

typedef struct sp_call {
    Trnsci__V1__SolverFunction fn;
    const char *name;
    trnsciDataType type;
    int m, nnz;
    trnsparseMatDescr_t descr;
    const void *val;
    const int *rowptr, *colind;
    const void *b;
    double tol;
    int reorder;
    void *x;
} sp_call;

/* Queues the solve; with singularity, waits and reads it back. */
static trnsolverStatus_t sp_solve(trnsolverSpHandle_t handle, const sp_call *g, int *singularity) {
    if (!handle) {
        trn_fail(trnsciErrorInvalidValue, "%s: handle is NULL", g->name);
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!g->descr)
        return fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue, "%s: descrA is NULL",
                    g->name);
    if (trnsparseGetMatType(g->descr) != TRNSPARSE_MATRIX_TYPE_GENERAL)
        return fail(TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED, trnsciErrorInvalidValue,
                    "%s: descrA's matrix type is not GENERAL", g->name);
    if (g->m < 0 || g->nnz < 0) {
        trn_fail(trnsciErrorInvalidValue, "%s: m=%d and nnz=%d must be >= 0", g->name, g->m,
                 g->nnz);
        return TRNSOLVER_STATUS_INVALID_VALUE;
    }
    if ((e = trn_client_need_minor(c, sp_complex(g->type) ? 15 : 14, g->name)) != trnsciSuccess)
        return trn_solver_status(e);
    trnsparseConstSpMatDescr_t sp = NULL;
    if (trnsparseCreateConstCsr(&sp, g->m, g->m, g->nnz, g->rowptr, g->colind, g->val,
                                TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                trnsparseGetMatIndexBase(g->descr),
                                g->type) != TRNSPARSE_STATUS_SUCCESS)
        return trn_solver_status(trnsciErrorInvalidValue);
    trn_wire_spmat wm;
    void *rec = NULL;
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    Trnsci__V1__BufferRef b, x, stats = TRNSCI__V1__BUFFER_REF__INIT;
    e = trn_sparse_wire_spmat(c, sp, g->name, "A", &wm);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, g->b, g->name, "b", "", &b);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, g->x, g->name, "x", "", &x);
    if (e == trnsciSuccess && singularity) {
        e = trnsciMalloc(&rec, sizeof(trnsolverIterResult_t));
        if (e == trnsciSuccess)
            e = trn_client_resolve(c, rec, "singularity record", &stats);
    }
    if (e != trnsciSuccess) {
        st = trn_solver_status(e);
        goto out;
    }
    Trnsci__V1__SolverKrylovOp w = TRNSCI__V1__SOLVER_KRYLOV_OP__INIT;
    w.function = g->fn;
    w.type = g->type == TRNSCI_R_32F   ? SV_R32
             : g->type == TRNSCI_R_64F ? SV_R64
             : g->type == TRNSCI_C_32F ? SV_C32
                                       : SV_C64;
    w.n = g->m;
    w.matrix_case = TRNSCI__V1__SOLVER_KRYLOV_OP__MATRIX_SPARSE;
    w.sparse = &wm.m;
    w.b = &b;
    w.x = &x;
    w.tolerance = g->tol;
    w.reorder = g->reorder;
    w.stats = rec ? &stats : NULL;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_KRYLOV;
    op.solver_krylov = &w;
    e = trn_client_submit(c, handle->stream, &op);
    if (e == trnsciSuccess && singularity) {
        trnsolverIterResult_t r;
        e = trnsciStreamSynchronize(handle->stream);
        if (e == trnsciSuccess)
            e = trnsciMemcpy(&r, rec, sizeof(r), trnsciMemcpyDeviceToHost);
        if (e == trnsciSuccess)
            *singularity = r.iterations;
    }
    st = trn_solver_status(e);
    if (e == trnsciSuccess)
        trn_ok();
out:;
    sp_saved sv;
    sp_save(&sv);
    if (rec)
        trnsciFree(rec);
    trnsparseDestroySpMat(sp);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        sp_restore(&sv);
    return st;
}

/* The Host forms: the arrays through device memory, x back. */
static trnsolverStatus_t sp_host(trnsolverSpHandle_t handle, const sp_call *h, int *singularity) {
    if (!singularity)
        return fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue,
                    "%s: singularity is NULL", h->name);
    if (h->m < 0 || h->nnz < 0)
        return sp_solve(handle, h, singularity); /* its message */
    const size_t es = sp_esize(h->type);
    const size_t m = (size_t)h->m, nnz = (size_t)h->nnz;
    void *d[5] = {NULL, NULL, NULL, NULL, NULL};
    const size_t bytes[5] = {nnz * es + 1, (m + 1) * sizeof(int), nnz * sizeof(int) + 1, m * es + 1,
                             m * es + 1};
    const void *src[5] = {h->val, h->rowptr, h->colind, h->b, h->x};
    const size_t copy[5] = {nnz * es, h->rowptr ? (m + 1) * sizeof(int) : 0, nnz * sizeof(int),
                            m * es, m * es};
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trnsciError_t e = trnsciSuccess;
    for (int i = 0; i < 5 && e == trnsciSuccess; i++) {
        if (copy[i] && !src[i]) {
            trn_fail(trnsciErrorInvalidValue, "%s: a host array is NULL", h->name);
            st = TRNSOLVER_STATUS_INVALID_VALUE;
            goto out;
        }
        e = trnsciMalloc(&d[i], bytes[i]);
        if (e == trnsciSuccess && copy[i])
            e = trnsciMemcpy(d[i], src[i], copy[i], trnsciMemcpyHostToDevice);
    }
    if (e != trnsciSuccess) {
        st = trn_solver_status(e);
        goto out;
    }
    sp_call g = *h;
    g.val = d[0];
    g.rowptr = d[1];
    g.colind = d[2];
    g.b = d[3];
    g.x = d[4];
    st = sp_solve(handle, &g, singularity);
    if (st == TRNSOLVER_STATUS_SUCCESS && m) {
        e = trnsciMemcpy(h->x, d[4], m * es, trnsciMemcpyDeviceToHost);
        st = trn_solver_status(e);
    }
out:;
    sp_saved sv;
    sp_save(&sv);
    for (int i = 0; i < 5; i++)
        if (d[i])
            trnsciFree(d[i]);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        sp_restore(&sv);
    else
        trn_ok();
    return st;
}

#define SV_QR SV_FN(CSRLSVQR)
#define SV_CHOL SV_FN(CSRLSVCHOL)

#define SP_SOLVER(NAME, FN, TY, T, R, HOST)                                                        \
    trnsolverStatus_t trnsolverSp##NAME(trnsolverSpHandle_t handle, int m, int nnz,                \
                                        const trnsparseMatDescr_t descrA, const T *csrVal,         \
                                        const int *csrRowPtr, const int *csrColInd, const T *b,    \
                                        R tol, int reorder, T *x, int *singularity) {              \
        const sp_call g = {FN,        #NAME,     TY, m,           nnz,     descrA, csrVal,         \
                           csrRowPtr, csrColInd, b,  (double)tol, reorder, x};                     \
        return HOST ? sp_host(handle, &g, singularity)                                             \
                    : (singularity ? sp_solve(handle, &g, singularity)                             \
                                   : fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue, \
                                          "%s: singularity is NULL", #NAME));                      \
    }

SP_SOLVER(Scsrlsvqr, SV_QR, TRNSCI_R_32F, float, float, 0)
SP_SOLVER(Dcsrlsvqr, SV_QR, TRNSCI_R_64F, double, double, 0)
SP_SOLVER(Scsrlsvchol, SV_CHOL, TRNSCI_R_32F, float, float, 0)
SP_SOLVER(Dcsrlsvchol, SV_CHOL, TRNSCI_R_64F, double, double, 0)
SP_SOLVER(ScsrlsvqrHost, SV_QR, TRNSCI_R_32F, float, float, 1)
SP_SOLVER(DcsrlsvqrHost, SV_QR, TRNSCI_R_64F, double, double, 1)
SP_SOLVER(ScsrlsvcholHost, SV_CHOL, TRNSCI_R_32F, float, float, 1)
SP_SOLVER(DcsrlsvcholHost, SV_CHOL, TRNSCI_R_64F, double, double, 1)
/* The complex types (protocol 1.15): tol is real. */
SP_SOLVER(Ccsrlsvqr, SV_QR, TRNSCI_C_32F, trnComplex, float, 0)
SP_SOLVER(Zcsrlsvqr, SV_QR, TRNSCI_C_64F, trnDoubleComplex, double, 0)
SP_SOLVER(Ccsrlsvchol, SV_CHOL, TRNSCI_C_32F, trnComplex, float, 0)
SP_SOLVER(Zcsrlsvchol, SV_CHOL, TRNSCI_C_64F, trnDoubleComplex, double, 0)
SP_SOLVER(CcsrlsvqrHost, SV_QR, TRNSCI_C_32F, trnComplex, float, 1)
SP_SOLVER(ZcsrlsvqrHost, SV_QR, TRNSCI_C_64F, trnDoubleComplex, double, 1)
SP_SOLVER(CcsrlsvcholHost, SV_CHOL, TRNSCI_C_32F, trnComplex, float, 1)
SP_SOLVER(ZcsrlsvcholHost, SV_CHOL, TRNSCI_C_64F, trnDoubleComplex, double, 1)

/* ---- batched QR ------------------------------------------------------------------------ */

trnsolverStatus_t trnsolverSpCreateCsrqrInfo(csrqrInfo_t *info) {
    if (!info)
        return TRNSOLVER_STATUS_INVALID_VALUE;
    *info = calloc(1, sizeof(**info));
    return *info ? TRNSOLVER_STATUS_SUCCESS : TRNSOLVER_STATUS_ALLOC_FAILED;
}

trnsolverStatus_t trnsolverSpDestroyCsrqrInfo(csrqrInfo_t info) {
    free(info);
    return TRNSOLVER_STATUS_SUCCESS;
}

/* The checks the batched calls share; m == n only. */
static trnsolverStatus_t batch_args(trnsolverSpHandle_t handle, const char *fn, int m, int n,
                                    int nnz, const trnsparseMatDescr_t descrA, csrqrInfo_t info) {
    if (!handle)
        return TRNSOLVER_STATUS_NOT_INITIALIZED;
    if (!descrA || !info || m < 0 || n < 0 || nnz < 0 || m < n) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: m=%d, n=%d, nnzA=%d (m >= n >= 0, nnzA >= 0), descrA and info must be given",
                 fn, m, n, nnz);
        return TRNSOLVER_STATUS_INVALID_VALUE;
    }
    if (trnsparseGetMatType(descrA) != TRNSPARSE_MATRIX_TYPE_GENERAL)
        return fail(TRNSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED, trnsciErrorInvalidValue,
                    "%s: descrA's matrix type is not GENERAL", fn);
    if (m != n)
        return fail(TRNSOLVER_STATUS_NOT_SUPPORTED, trnsciErrorNotSupported,
                    "%s: least squares (m > n) is not supported", fn);
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverSpXcsrqrAnalysisBatched(trnsolverSpHandle_t handle, int m, int n,
                                                   int nnzA, const trnsparseMatDescr_t descrA,
                                                   const int *csrRowPtrA, const int *csrColIndA,
                                                   csrqrInfo_t info) {
    (void)csrRowPtrA;
    (void)csrColIndA;
    const trnsolverStatus_t st =
        batch_args(handle, "XcsrqrAnalysisBatched", m, n, nnzA, descrA, info);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    info->m = m;
    info->n = n;
    info->nnz = nnzA;
    info->analysed = 1;
    return TRNSOLVER_STATUS_SUCCESS;
}

static trnsolverStatus_t buffer_info(trnsolverSpHandle_t handle, const char *fn, int m, int n,
                                     int nnzA, const trnsparseMatDescr_t descrA, int batchSize,
                                     csrqrInfo_t info, size_t *internal, size_t *work) {
    const trnsolverStatus_t st = batch_args(handle, fn, m, n, nnzA, descrA, info);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (!internal || !work || batchSize < 0)
        return fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue,
                    "%s: batchSize < 0 or a size pointer is NULL", fn);
    *internal = 0;
    *work = 1;
    return TRNSOLVER_STATUS_SUCCESS;
}

static trnsolverStatus_t qrsv_batched(trnsolverSpHandle_t handle, const char *fn, trnsciDataType ty,
                                      int m, int n, int nnzA, const trnsparseMatDescr_t descrA,
                                      const void *val, const int *rowptr, const int *colind,
                                      const void *b, void *x, int batchSize, csrqrInfo_t info) {
    trnsolverStatus_t st = batch_args(handle, fn, m, n, nnzA, descrA, info);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (batchSize < 0)
        return fail(TRNSOLVER_STATUS_INVALID_VALUE, trnsciErrorInvalidValue, "%s: batchSize < 0",
                    fn);
    const size_t es = sp_esize(ty);
    for (int j = 0; j < batchSize && st == TRNSOLVER_STATUS_SUCCESS; j++) {
        const sp_call g = {SV_QR,
                           fn,
                           ty,
                           m,
                           nnzA,
                           descrA,
                           (const char *)val + (size_t)j * (size_t)nnzA * es,
                           rowptr,
                           colind,
                           (const char *)b + (size_t)j * (size_t)m * es,
                           0.0,
                           0,
                           (char *)x + (size_t)j * (size_t)m * es};
        st = sp_solve(handle, &g, NULL);
    }
    return st;
}

trnsolverStatus_t trnsolverSpScsrqrBufferInfoBatched(trnsolverSpHandle_t handle, int m, int n,
                                                     int nnzA, const trnsparseMatDescr_t descrA,
                                                     const float *csrValA, const int *csrRowPtrA,
                                                     const int *csrColIndA, int batchSize,
                                                     csrqrInfo_t info, size_t *internalDataInBytes,
                                                     size_t *workspaceInBytes) {
    (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;
    return buffer_info(handle, "ScsrqrBufferInfoBatched", m, n, nnzA, descrA, batchSize, info,
                       internalDataInBytes, workspaceInBytes);
}

trnsolverStatus_t trnsolverSpDcsrqrBufferInfoBatched(trnsolverSpHandle_t handle, int m, int n,
                                                     int nnzA, const trnsparseMatDescr_t descrA,
                                                     const double *csrValA, const int *csrRowPtrA,
                                                     const int *csrColIndA, int batchSize,
                                                     csrqrInfo_t info, size_t *internalDataInBytes,
                                                     size_t *workspaceInBytes) {
    (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;
    return buffer_info(handle, "DcsrqrBufferInfoBatched", m, n, nnzA, descrA, batchSize, info,
                       internalDataInBytes, workspaceInBytes);
}

trnsolverStatus_t trnsolverSpScsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA, const float *csrValA,
                                             const int *csrRowPtrA, const int *csrColIndA,
                                             const float *b, float *x, int batchSize,
                                             csrqrInfo_t info, void *pBuffer) {
    (void)pBuffer;
    return qrsv_batched(handle, "ScsrqrsvBatched", TRNSCI_R_32F, m, n, nnzA, descrA, csrValA,
                        csrRowPtrA, csrColIndA, b, x, batchSize, info);
}

trnsolverStatus_t trnsolverSpDcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const double *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const double *b, double *x,
                                             int batchSize, csrqrInfo_t info, void *pBuffer) {
    (void)pBuffer;
    return qrsv_batched(handle, "DcsrqrsvBatched", TRNSCI_R_64F, m, n, nnzA, descrA, csrValA,
                        csrRowPtrA, csrColIndA, b, x, batchSize, info);
}

trnsolverStatus_t trnsolverSpCcsrqrBufferInfoBatched(
    trnsolverSpHandle_t handle, int m, int n, int nnzA, const trnsparseMatDescr_t descrA,
    const trnComplex *csrValA, const int *csrRowPtrA, const int *csrColIndA, int batchSize,
    csrqrInfo_t info, size_t *internalDataInBytes, size_t *workspaceInBytes) {
    (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;
    return buffer_info(handle, "CcsrqrBufferInfoBatched", m, n, nnzA, descrA, batchSize, info,
                       internalDataInBytes, workspaceInBytes);
}

trnsolverStatus_t trnsolverSpZcsrqrBufferInfoBatched(
    trnsolverSpHandle_t handle, int m, int n, int nnzA, const trnsparseMatDescr_t descrA,
    const trnDoubleComplex *csrValA, const int *csrRowPtrA, const int *csrColIndA, int batchSize,
    csrqrInfo_t info, size_t *internalDataInBytes, size_t *workspaceInBytes) {
    (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;
    return buffer_info(handle, "ZcsrqrBufferInfoBatched", m, n, nnzA, descrA, batchSize, info,
                       internalDataInBytes, workspaceInBytes);
}

trnsolverStatus_t trnsolverSpCcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const trnComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const trnComplex *b,
                                             trnComplex *x, int batchSize, csrqrInfo_t info,
                                             void *pBuffer) {
    (void)pBuffer;
    return qrsv_batched(handle, "CcsrqrsvBatched", TRNSCI_C_32F, m, n, nnzA, descrA, csrValA,
                        csrRowPtrA, csrColIndA, b, x, batchSize, info);
}

trnsolverStatus_t trnsolverSpZcsrqrsvBatched(trnsolverSpHandle_t handle, int m, int n, int nnzA,
                                             const trnsparseMatDescr_t descrA,
                                             const trnDoubleComplex *csrValA, const int *csrRowPtrA,
                                             const int *csrColIndA, const trnDoubleComplex *b,
                                             trnDoubleComplex *x, int batchSize, csrqrInfo_t info,
                                             void *pBuffer) {
    (void)pBuffer;
    return qrsv_batched(handle, "ZcsrqrsvBatched", TRNSCI_C_64F, m, n, nnzA, descrA, csrValA,
                        csrRowPtrA, csrColIndA, b, x, batchSize, info);
}
