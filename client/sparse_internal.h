/*
 * sparse_internal.h — what the trnsparse client files (client/sparse*.c)
 * share: the handle and descriptor structures, the status mapping, and the
 * helpers that turn descriptors into wire messages. Internal to client/.
 *
 * A descriptor is a plain host record of what the user passed; nothing is
 * checked against device memory until a routine sends it (the daemon
 * resolves the pointers and checks the extents).
 */
#ifndef TRN_CLIENT_SPARSE_INTERNAL_H
#define TRN_CLIENT_SPARSE_INTERNAL_H

#include "client/client.h"
#include "trnsci/trnsparse.h"

struct trnsparseContext {
    trnsciStream_t stream;
};

struct trnsparseSpMatDescr {
    trnsparseFormat_t format;
    int64_t rows, cols, nnz; /* BSR: blocks */
    int64_t rb, cb;          /* BSR block size (1 otherwise) */
    trnsparseOrder_t order;  /* BSR blocks */
    void *offsets, *indices, *rowind, *values;
    trnsparseIndexType_t offType, idxType;
    trnsparseIndexBase_t base;
    trnsciDataType valueType;
    trnsparseFillMode_t fill; /* attributes (trnsparseSpMatSetAttribute); 0: LOWER */
    trnsparseDiagType_t diag; /* 0: NON_UNIT */
    /* Blocked-ELL: rb = cb = ellBlockSize, ellCols the values' width, nnz
     * rows * ellCols; Sliced-ELL: rb = sliceSize, valuesSize
     * sellValuesSize (sparse_ell.c). */
    int64_t ellCols, valuesSize;
    /* Strided batch (trnsparseCsrSetStridedBatch, CooSetStridedBatch); 0
     * or 1: one matrix. */
    int batchCount;
    int64_t offsetsBatchStride, batchStride;
};

struct trnsparseSpVecDescr {
    int64_t size, nnz;
    void *indices, *values;
    trnsparseIndexType_t idxType;
    trnsparseIndexBase_t base;
    trnsciDataType valueType;
};

struct trnsparseDnVecDescr {
    int64_t size;
    void *values;
    trnsciDataType type;
};

struct trnsparseDnMatDescr {
    int64_t rows, cols, ld;
    void *values;
    trnsciDataType type;
    trnsparseOrder_t order;
    int batchCount;
    int64_t batchStride;
};

/* A new sparse matrix descriptor, a copy of *d, after the checks every
 * format shares (sizes >= 0, known enum values; fn names the routine). */
trnsparseStatus_t trn_sparse_make_spmat(const char *fn, trnsparseSpMatDescr_t *out,
                                        const struct trnsparseSpMatDescr *d);

/* The cuSPARSE status for a runtime error (the message stays recorded). */
trnsparseStatus_t trn_sparse_status(trnsciError_t e);
/* Records e with a message and returns its status. */
trnsparseStatus_t trn_sparse_fail(trnsciError_t e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The wire type of a value/compute type: R_32F, R_64F (C_32F, C_64F pass
 * for the daemon to refuse); any other type fails NOT_SUPPORTED naming fn. */
trnsciError_t trn_sparse_wire_type(trnsciDataType t, const char *fn, const char *what,
                                   Trnsci__V1__DataType *out);

/* Wire forms of descriptors. Each keeps its sub-messages (refs) in the
 * struct, so a filled one must not be copied. */
typedef struct trn_wire_spmat {
    Trnsci__V1__SparseMatrix m;
    Trnsci__V1__BufferRef off, idx, rowind, val;
} trn_wire_spmat;

typedef struct trn_wire_dnmat {
    Trnsci__V1__DenseMatrix m;
    Trnsci__V1__BufferRef val;
} trn_wire_dnmat;

typedef struct trn_wire_dnvec {
    Trnsci__V1__DenseVector v;
    Trnsci__V1__BufferRef val;
} trn_wire_dnvec;

/* fn names the routine and `name` the argument in errors ("spmv", "matA"). */
trnsciError_t trn_sparse_wire_spmat(trn_client *c, trnsparseConstSpMatDescr_t d, const char *fn,
                                    const char *name, trn_wire_spmat *w);
trnsciError_t trn_sparse_wire_dnmat(trn_client *c, trnsparseConstDnMatDescr_t d, const char *fn,
                                    const char *name, trn_wire_dnmat *w);
trnsciError_t trn_sparse_wire_dnvec(trn_client *c, trnsparseConstDnVecDescr_t d, const char *fn,
                                    const char *name, trn_wire_dnvec *w);

/* Elements of es bytes from device pointer p to the end of its allocation
 * (0 for NULL or a pointer the table does not know). */
int64_t trn_sparse_capacity(trn_client *c, const void *p, int64_t es);

/* A host scalar of the compute type as a double (0 for NULL: checked by the
 * caller). */
double trn_sparse_scalar(const void *p, trnsciDataType computeType);

/* Both host scalars of the compute type as wire scalars. */
void trn_sparse_scalars(const void *alpha, const void *beta, trnsciDataType computeType,
                        Trnsci__V1__Scalar *al, Trnsci__V1__Scalar *be);
/* The same for SpMV/SpMM: complex computeTypes read (re, im) pairs. */
void trn_sparse_spmm_scalars(const void *alpha, const void *beta, trnsciDataType computeType,
                             Trnsci__V1__Scalar *al, Trnsci__V1__Scalar *be);

/* A _bufferSize routine: the daemon needs no external buffer, so *bufferSize
 * is 0 (NOT_INITIALIZED for a NULL handle, INVALID_VALUE for a NULL
 * bufferSize, naming fn). */
trnsparseStatus_t trn_sparse_no_buffer(trnsparseHandle_t handle, const char *fn,
                                       size_t *bufferSize);

/* The start of every routine: a handle, a connected client. NULL with the
 * status in *st when either is missing. */
trn_client *trn_sparse_begin(trnsparseHandle_t handle, trnsparseStatus_t *st);

/* Queues op on the handle's stream; the status of the outcome. */
trnsparseStatus_t trn_sparse_submit(trn_client *c, trnsparseHandle_t handle, Trnsci__V1__Op *op);

/* SpGEMM's state between phases (sparse_spgemm.c, sparse_spgemm_reuse.c):
 * C's row counts, written by the count pass into a device buffer of the
 * caller's. */
struct trnsparseSpGEMMDescr {
    void *counts;     /* externalBuffer2 of the last _compute (reuse: externalBuffer4), or NULL */
    int64_t rows;     /* rows of A then */
    uint64_t session; /* the session it belongs to (trn_client.generation) */
};

/* Sends one SpGEMM pass: the count pass (fill 0: C's row offsets into
 * counts) or the fill pass (C's offsets, indices and values, checked
 * against counts). */
trnsparseStatus_t
trn_sparse_spgemm_pass(trn_client *c, trnsparseHandle_t handle, const char *fn, int fill,
                       trnsparseOperation_t opA, trnsparseOperation_t opB, const void *alpha,
                       trnsparseConstSpMatDescr_t matA, trnsparseConstSpMatDescr_t matB,
                       const void *beta, trnsparseConstSpMatDescr_t matC,
                       trnsciDataType computeType, trnsparseSpGEMMAlg_t alg, void *counts);

/* SpMM, screened when rowBounds and colBounds are given (sparse.c). */
trnsparseStatus_t trn_sparse_spmm(trnsparseHandle_t handle, const char *fn,
                                  trnsparseOperation_t opA, trnsparseOperation_t opB,
                                  const void *alpha, trnsparseConstSpMatDescr_t matA,
                                  trnsparseConstDnMatDescr_t matB, const void *beta,
                                  trnsparseDnMatDescr_t matC, trnsparseConstDnVecDescr_t rowBounds,
                                  trnsparseConstDnVecDescr_t colBounds, double threshold,
                                  trnsciDataType computeType, trnsparseSpMMAlg_t alg);

#endif
