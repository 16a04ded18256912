/*
 * sparse_ilu.c — trnsparse's incomplete factorisations, cuSPARSE's legacy
 * IC0 and ILU0 renamed: csric02Info_t / csrilu02Info_t with their
 * Create/Destroy, trnsparse{S,D,C,Z}csric02_bufferSize, _analysis, csric02,
 * trnsparseXcsric02_zeroPivot, and the same for csrilu02. An info object
 * owns a 4-byte device slot where the daemon writes the zero pivot of the
 * last analysis or factorisation queued with it (-1: none); zeroPivot
 * waits for the handle's stream and reads it. Analysis and factorisation
 * are each one SpIlu0Op (protocol 1.14), asynchronous; the daemon's
 * validator (ops/validate/sparse_ilu.c) has the argument rules. C and Z
 * need a 1.15 daemon.
 */
#include <stdlib.h>

#include "client/sparse_complex.h"
#include "client/sparse_internal.h"

#define ILU_MINOR 14u

struct csric02Info {
    int32_t *pivot; /* device: one int32 */
};

struct csrilu02Info {
    int32_t *pivot;
};

/* A new slot holding -1. */
static trnsparseStatus_t slot_new(const char *fn, int32_t **out) {
    void *p = NULL;
    trnsciError_t e = trnsciMalloc(&p, sizeof(int32_t));
    if (e == trnsciSuccess)
        e = trnsciMemset(p, 0xff, sizeof(int32_t));
    if (e != trnsciSuccess) {
        trnsciFree(p);
        return trn_sparse_fail(e, "%s: could not allocate the pivot slot", fn);
    }
    *out = p;
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseCreateCsric02Info(csric02Info_t *info) {
    if (!info)
        return trn_sparse_fail(trnsciErrorInvalidValue, "trnsparseCreateCsric02Info: info is NULL");
    csric02Info_t p = calloc(1, sizeof(*p));
    if (!p)
        return trn_sparse_fail(trnsciErrorMemoryAllocation,
                               "trnsparseCreateCsric02Info: out of memory");
    const trnsparseStatus_t st = slot_new("trnsparseCreateCsric02Info", &p->pivot);
    if (st != TRNSPARSE_STATUS_SUCCESS) {
        free(p);
        return st;
    }
    *info = p;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDestroyCsric02Info(csric02Info_t info) {
    if (info) {
        trnsciFree(info->pivot);
        free(info);
    }
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseCreateCsrilu02Info(csrilu02Info_t *info) {
    if (!info)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "trnsparseCreateCsrilu02Info: info is NULL");
    csrilu02Info_t p = calloc(1, sizeof(*p));
    if (!p)
        return trn_sparse_fail(trnsciErrorMemoryAllocation,
                               "trnsparseCreateCsrilu02Info: out of memory");
    const trnsparseStatus_t st = slot_new("trnsparseCreateCsrilu02Info", &p->pivot);
    if (st != TRNSPARSE_STATUS_SUCCESS) {
        free(p);
        return st;
    }
    *info = p;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseDestroyCsrilu02Info(csrilu02Info_t info) {
    if (info) {
        trnsciFree(info->pivot);
        free(info);
    }
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* Queues the analysis or the factorisation (slot: the info's pivot). */
static trnsparseStatus_t ilu_run(trnsparseHandle_t handle, const char *fn, int cholesky,
                                 int analysis, trnsciDataType t, int m, int nnz,
                                 const trnsparseMatDescr_t descr, const void *val,
                                 const int *rowPtr, const int *colInd, int32_t *slot,
                                 trnsparseSolvePolicy_t policy) {
    trnsparseStatus_t st;
    trn_client *c = trn_sparse_begin(handle, &st);
    if (!c)
        return st;
    if (!descr || !slot)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: descrA or info is NULL", fn);
    if (policy != TRNSPARSE_SOLVE_POLICY_NO_LEVEL && policy != TRNSPARSE_SOLVE_POLICY_USE_LEVEL)
        return trn_sparse_fail(trnsciErrorInvalidValue,
                               "%s: policy %d is not TRNSPARSE_SOLVE_POLICY_NO_LEVEL (0) or "
                               "_USE_LEVEL (1)",
                               fn, (int)policy);
    if (trnsparseGetMatType(descr) != TRNSPARSE_MATRIX_TYPE_GENERAL)
        return trn_sparse_fail(trnsciErrorNotSupported,
                               "%s: descrA: only TRNSPARSE_MATRIX_TYPE_GENERAL is supported", fn);
    trnsciError_t e = trn_client_need_minor(c, ILU_MINOR, fn);
    if (e == trnsciSuccess)
        e = trn_sparse_complex_minor(c, t, fn);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    const struct trnsparseSpMatDescr a = {
        .format = TRNSPARSE_FORMAT_CSR,
        .rows = m,
        .cols = m,
        .nnz = nnz,
        .rb = 1,
        .cb = 1,
        .offsets = (void *)rowPtr,
        .indices = (void *)colInd,
        .values = (void *)val,
        .offType = TRNSPARSE_INDEX_32I,
        .idxType = TRNSPARSE_INDEX_32I,
        .base = trnsparseGetMatIndexBase(descr),
        .valueType = t,
    };
    trn_wire_spmat wa;
    Trnsci__V1__BufferRef pv = TRNSCI__V1__BUFFER_REF__INIT;
    e = trn_sparse_wire_spmat(c, &a, fn, "A", &wa);
    if (e == trnsciSuccess)
        e = trn_client_resolve_named(c, slot, fn, "info", NULL, &pv);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__SpIlu0Op w = TRNSCI__V1__SP_ILU0_OP__INIT;
    w.cholesky = cholesky;
    w.analysis = analysis;
    w.a = &wa.m;
    w.pivot = &pv;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPILU0;
    op.spilu0 = &w;
    return trn_sparse_submit(c, handle, &op);
}

/* zeroPivot: waits for the stream, reads the slot. */
static trnsparseStatus_t zero_pivot(trnsparseHandle_t handle, const char *fn, int32_t *slot,
                                    int *position) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!slot || !position)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: info or position is NULL", fn);
    trnsciError_t e = trnsciStreamSynchronize(handle->stream);
    int32_t v = -1;
    if (e == trnsciSuccess)
        e = trnsciMemcpy(&v, slot, sizeof(v), trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    *position = v;
    if (v >= 0) { /* a finding, not an error of the call: the message says where */
        trn_ok();
        return TRNSPARSE_STATUS_ZERO_PIVOT;
    }
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

trnsparseStatus_t trnsparseXcsric02_zeroPivot(trnsparseHandle_t handle, csric02Info_t info,
                                              int *position) {
    return zero_pivot(handle, "Xcsric02_zeroPivot", info ? info->pivot : NULL, position);
}

trnsparseStatus_t trnsparseXcsrilu02_zeroPivot(trnsparseHandle_t handle, csrilu02Info_t info,
                                               int *position) {
    return zero_pivot(handle, "Xcsrilu02_zeroPivot", info ? info->pivot : NULL, position);
}

static trnsparseStatus_t buffer_size(trnsparseHandle_t handle, const char *fn, const void *info,
                                     int *size) {
    if (!handle)
        return TRNSPARSE_STATUS_NOT_INITIALIZED;
    if (!info || !size)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: info or pBufferSizeInBytes is NULL",
                               fn);
    *size = 0;
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

#define ILU_ROUTINES(T, P, DT)                                                                     \
    trnsparseStatus_t trnsparse##P##csric02_bufferSize(                                            \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA, T *csrValA,    \
        const int *csrRowPtrA, const int *csrColIndA, csric02Info_t info,                          \
        int *pBufferSizeInBytes) {                                                                 \
        (void)m, (void)nnz, (void)descrA, (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;       \
        return buffer_size(handle, #P "csric02_bufferSize", info, pBufferSizeInBytes);             \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csric02_analysis(                                              \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,                \
        const T *csrValA, const int *csrRowPtrA, const int *csrColIndA, csric02Info_t info,        \
        trnsparseSolvePolicy_t policy, void *pBuffer) {                                            \
        (void)pBuffer;                                                                             \
        return ilu_run(handle, #P "csric02_analysis", 1, 1, DT, m, nnz, descrA, csrValA,           \
                       csrRowPtrA, csrColIndA, info ? info->pivot : NULL, policy);                 \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csric02(                                                       \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,                \
        T *csrValA_valM, const int *csrRowPtrA, const int *csrColIndA, csric02Info_t info,         \
        trnsparseSolvePolicy_t policy, void *pBuffer) {                                            \
        (void)pBuffer;                                                                             \
        return ilu_run(handle, #P "csric02", 1, 0, DT, m, nnz, descrA, csrValA_valM, csrRowPtrA,   \
                       csrColIndA, info ? info->pivot : NULL, policy);                             \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csrilu02_bufferSize(                                           \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA, T *csrValA,    \
        const int *csrRowPtrA, const int *csrColIndA, csrilu02Info_t info,                         \
        int *pBufferSizeInBytes) {                                                                 \
        (void)m, (void)nnz, (void)descrA, (void)csrValA, (void)csrRowPtrA, (void)csrColIndA;       \
        return buffer_size(handle, #P "csrilu02_bufferSize", info, pBufferSizeInBytes);            \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csrilu02_analysis(                                             \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,                \
        const T *csrValA, const int *csrRowPtrA, const int *csrColIndA, csrilu02Info_t info,       \
        trnsparseSolvePolicy_t policy, void *pBuffer) {                                            \
        (void)pBuffer;                                                                             \
        return ilu_run(handle, #P "csrilu02_analysis", 0, 1, DT, m, nnz, descrA, csrValA,          \
                       csrRowPtrA, csrColIndA, info ? info->pivot : NULL, policy);                 \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csrilu02(                                                      \
        trnsparseHandle_t handle, int m, int nnz, const trnsparseMatDescr_t descrA,                \
        T *csrValA_valM, const int *csrRowPtrA, const int *csrColIndA, csrilu02Info_t info,        \
        trnsparseSolvePolicy_t policy, void *pBuffer) {                                            \
        (void)pBuffer;                                                                             \
        return ilu_run(handle, #P "csrilu02", 0, 0, DT, m, nnz, descrA, csrValA_valM, csrRowPtrA,  \
                       csrColIndA, info ? info->pivot : NULL, policy);                             \
    }

ILU_ROUTINES(float, S, TRNSCI_R_32F)
ILU_ROUTINES(double, D, TRNSCI_R_64F)
ILU_ROUTINES(trnComplex, C, TRNSCI_C_32F)
ILU_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)
