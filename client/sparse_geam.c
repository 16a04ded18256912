/*
 * sparse_geam.c — trnsparse's C = alpha A + beta B for CSR matrices,
 * cuSPARSE's legacy csrgeam2 renamed: trnsparseXcsrgeam2Nnz (C's row
 * offsets and its entry count), trnsparse{S,D,C,Z}csrgeam2_bufferSizeExt
 * (0: no caller buffer) and trnsparse{S,D,C,Z}csrgeam2 (C's indices and
 * values). Each computing call is one SpGeamOp (protocol 1.14; complex
 * values 1.15, the scalars' imaginary parts in Scalar.im); the daemon's
 * validator (ops/validate/sparse_geam.c) has the argument rules, this
 * file the legacy ones (NULL handle, descriptors and scalars, matrix type
 * GENERAL). Xcsrgeam2Nnz waits when nnzTotalDevHostPtr is given: it is a
 * host pointer (TRNSPARSE_POINTER_MODE_HOST, the only mode), filled from
 * C's last offset after the count has run. csrgeam2 does not wait: C's
 * indices and values count as long as their allocations, and the kernel
 * checks C's offsets against that.
 */
#include "client/sparse_internal.h"

#define GEAM_MINOR 14u
#define GEAM_COMPLEX_MINOR 15u

/* A CSR record of a legacy matrix (32-bit indices, the descriptor's base). */
static struct trnsparseSpMatDescr csr(int m, int n, int nnz, const int *rowPtr, const int *colInd,
                                      const void *val, const trnsparseMatDescr_t descr,
                                      trnsciDataType t) {
    return (struct trnsparseSpMatDescr){
        .format = TRNSPARSE_FORMAT_CSR,
        .rows = m,
        .cols = n,
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
}

/* The legacy checks: a handle, three GENERAL descriptors. */
static trn_client *geam_begin(trnsparseHandle_t handle, const char *fn,
                              const trnsparseMatDescr_t da, const trnsparseMatDescr_t db,
                              const trnsparseMatDescr_t dc, unsigned minor, trnsparseStatus_t *st) {
    trn_client *c = trn_sparse_begin(handle, st);
    if (!c)
        return NULL;
    if (!da || !db || !dc) {
        *st = trn_sparse_fail(trnsciErrorInvalidValue, "%s: descrA, descrB or descrC is NULL", fn);
        return NULL;
    }
    if (trnsparseGetMatType(da) != TRNSPARSE_MATRIX_TYPE_GENERAL ||
        trnsparseGetMatType(db) != TRNSPARSE_MATRIX_TYPE_GENERAL ||
        trnsparseGetMatType(dc) != TRNSPARSE_MATRIX_TYPE_GENERAL) {
        *st = trn_sparse_fail(trnsciErrorNotSupported,
                              "%s: only TRNSPARSE_MATRIX_TYPE_GENERAL is supported", fn);
        return NULL;
    }
    const trnsciError_t e = trn_client_need_minor(c, minor, fn);
    if (e != trnsciSuccess) {
        *st = trn_sparse_status(e);
        return NULL;
    }
    return c;
}

/* Queues the op on A, B, C (records on the caller's stack). */
static trnsparseStatus_t geam_submit(trn_client *c, trnsparseHandle_t handle, const char *fn,
                                     int fill, const double alpha[2], const double beta[2],
                                     const struct trnsparseSpMatDescr *a,
                                     const struct trnsparseSpMatDescr *b,
                                     const struct trnsparseSpMatDescr *cm) {
    trn_wire_spmat wa, wb, wc;
    trnsciError_t e = trn_sparse_wire_spmat(c, a, fn, "A", &wa);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, b, fn, "B", &wb);
    if (e == trnsciSuccess)
        e = trn_sparse_wire_spmat(c, cm, fn, "C", &wc);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    Trnsci__V1__SpGeamOp w = TRNSCI__V1__SP_GEAM_OP__INIT;
    Trnsci__V1__Scalar al = TRNSCI__V1__SCALAR__INIT, be = TRNSCI__V1__SCALAR__INIT;
    al.re = alpha[0];
    al.im = alpha[1];
    be.re = beta[0];
    be.im = beta[1];
    w.fill = fill;
    w.alpha = &al;
    w.beta = &be;
    w.a = &wa.m;
    w.b = &wb.m;
    w.c = &wc.m;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SPGEAM;
    op.spgeam = &w;
    return trn_sparse_submit(c, handle, &op);
}

trnsparseStatus_t trnsparseXcsrgeam2Nnz(trnsparseHandle_t handle, int m, int n,
                                        const trnsparseMatDescr_t descrA, int nnzA,
                                        const int *csrSortedRowPtrA, const int *csrSortedColIndA,
                                        const trnsparseMatDescr_t descrB, int nnzB,
                                        const int *csrSortedRowPtrB, const int *csrSortedColIndB,
                                        const trnsparseMatDescr_t descrC, int *csrSortedRowPtrC,
                                        int *nnzTotalDevHostPtr, void *workspace) {
    (void)workspace;
    const char *fn = "Xcsrgeam2Nnz";
    trnsparseStatus_t st;
    trn_client *c = geam_begin(handle, fn, descrA, descrB, descrC, GEAM_MINOR, &st);
    if (!c)
        return st;
    const double zero[2] = {0.0, 0.0};
    const struct trnsparseSpMatDescr a =
        csr(m, n, nnzA, csrSortedRowPtrA, csrSortedColIndA, NULL, descrA, TRNSCI_R_32F);
    const struct trnsparseSpMatDescr b =
        csr(m, n, nnzB, csrSortedRowPtrB, csrSortedColIndB, NULL, descrB, TRNSCI_R_32F);
    const struct trnsparseSpMatDescr cm =
        csr(m, n, 0, csrSortedRowPtrC, NULL, NULL, descrC, TRNSCI_R_32F);
    st = geam_submit(c, handle, fn, 0, zero, zero, &a, &b, &cm);
    if (st != TRNSPARSE_STATUS_SUCCESS || !nnzTotalDevHostPtr)
        return st;
    /* The count, after it has run (errors it found are reported here). */
    trnsciError_t e = trnsciStreamSynchronize(handle->stream);
    int last = 0;
    if (e == trnsciSuccess)
        e = trnsciMemcpy(&last, csrSortedRowPtrC + m, sizeof(int), trnsciMemcpyDeviceToHost);
    if (e != trnsciSuccess)
        return trn_sparse_status(e);
    *nnzTotalDevHostPtr = last - (int)trnsparseGetMatIndexBase(descrC);
    trn_ok();
    return TRNSPARSE_STATUS_SUCCESS;
}

/* A host scalar of type t as (re, im). */
static void scalar_of(const void *p, trnsciDataType t, double out[2]) {
    out[0] = out[1] = 0.0;
    if (t == TRNSCI_C_32F) {
        out[0] = ((const float *)p)[0];
        out[1] = ((const float *)p)[1];
    } else if (t == TRNSCI_C_64F) {
        out[0] = ((const double *)p)[0];
        out[1] = ((const double *)p)[1];
    } else {
        out[0] = trn_sparse_scalar(p, t);
    }
}

/* csrgeam2 of type t (alpha, beta: host scalars of t, checked non-NULL). */
static trnsparseStatus_t geam(trnsparseHandle_t handle, const char *fn, trnsciDataType t, int m,
                              int n, const void *alpha, const trnsparseMatDescr_t descrA, int nnzA,
                              const void *valA, const int *rowA, const int *colA, const void *beta,
                              const trnsparseMatDescr_t descrB, int nnzB, const void *valB,
                              const int *rowB, const int *colB, const trnsparseMatDescr_t descrC,
                              void *valC, const int *rowC, int *colC, size_t *bufferSize) {
    trnsparseStatus_t st;
    const int cx = t == TRNSCI_C_32F || t == TRNSCI_C_64F;
    trn_client *c =
        geam_begin(handle, fn, descrA, descrB, descrC, cx ? GEAM_COMPLEX_MINOR : GEAM_MINOR, &st);
    if (!c)
        return st;
    if (!alpha || !beta)
        return trn_sparse_fail(trnsciErrorInvalidValue, "%s: alpha or beta is NULL", fn);
    if (bufferSize) {
        *bufferSize = 0;
        trn_ok();
        return TRNSPARSE_STATUS_SUCCESS;
    }
    /* C's arrays count as long as their allocations (nothing waits for
     * Xcsrgeam2Nnz's count): the kernel checks C's offsets against them. */
    const int64_t es = t == TRNSCI_C_64F         ? 16
                       : t == TRNSCI_R_64F || cx ? 8
                                                 : 4,
                  ci = trn_sparse_capacity(c, colC, 4), cv = trn_sparse_capacity(c, valC, es);
    const int64_t cap = ci < cv ? ci : cv;
    const int nnzC = cap > INT32_MAX ? INT32_MAX : (int)cap;
    double al[2], be[2];
    scalar_of(alpha, t, al);
    scalar_of(beta, t, be);
    const struct trnsparseSpMatDescr a = csr(m, n, nnzA, rowA, colA, valA, descrA, t);
    const struct trnsparseSpMatDescr b = csr(m, n, nnzB, rowB, colB, valB, descrB, t);
    const struct trnsparseSpMatDescr cm = csr(m, n, nnzC, rowC, colC, valC, descrC, t);
    return geam_submit(c, handle, fn, 1, al, be, &a, &b, &cm);
}

#define GEAM_ROUTINES(T, P, DT)                                                                    \
    trnsparseStatus_t trnsparse##P##csrgeam2_bufferSizeExt(                                        \
        trnsparseHandle_t handle, int m, int n, const T *alpha, const trnsparseMatDescr_t descrA,  \
        int nnzA, const T *csrSortedValA, const int *csrSortedRowPtrA,                             \
        const int *csrSortedColIndA, const T *beta, const trnsparseMatDescr_t descrB, int nnzB,    \
        const T *csrSortedValB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,          \
        const trnsparseMatDescr_t descrC, const T *csrSortedValC, const int *csrSortedRowPtrC,     \
        const int *csrSortedColIndC, size_t *pBufferSizeInBytes) {                                 \
        if (handle && !pBufferSizeInBytes)                                                         \
            return trn_sparse_fail(trnsciErrorInvalidValue, "%s: pBufferSizeInBytes is NULL",      \
                                   #P "csrgeam2_bufferSizeExt");                                   \
        return geam(handle, #P "csrgeam2_bufferSizeExt", DT, m, n, alpha, descrA, nnzA,            \
                    csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, beta, descrB, nnzB,         \
                    csrSortedValB, csrSortedRowPtrB, csrSortedColIndB, descrC,                     \
                    (void *)csrSortedValC, csrSortedRowPtrC, (int *)csrSortedColIndC,              \
                    pBufferSizeInBytes);                                                           \
    }                                                                                              \
    trnsparseStatus_t trnsparse##P##csrgeam2(                                                      \
        trnsparseHandle_t handle, int m, int n, const T *alpha, const trnsparseMatDescr_t descrA,  \
        int nnzA, const T *csrSortedValA, const int *csrSortedRowPtrA,                             \
        const int *csrSortedColIndA, const T *beta, const trnsparseMatDescr_t descrB, int nnzB,    \
        const T *csrSortedValB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,          \
        const trnsparseMatDescr_t descrC, T *csrSortedValC, int *csrSortedRowPtrC,                 \
        int *csrSortedColIndC, void *pBuffer) {                                                    \
        (void)pBuffer;                                                                             \
        return geam(handle, #P "csrgeam2", DT, m, n, alpha, descrA, nnzA, csrSortedValA,           \
                    csrSortedRowPtrA, csrSortedColIndA, beta, descrB, nnzB, csrSortedValB,         \
                    csrSortedRowPtrB, csrSortedColIndB, descrC, csrSortedValC, csrSortedRowPtrC,   \
                    csrSortedColIndC, NULL);                                                       \
    }

GEAM_ROUTINES(float, S, TRNSCI_R_32F)
GEAM_ROUTINES(double, D, TRNSCI_R_64F)
GEAM_ROUTINES(trnComplex, C, TRNSCI_C_32F)
GEAM_ROUTINES(trnDoubleComplex, Z, TRNSCI_C_64F)
