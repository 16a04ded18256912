/*
 * op.h — plain C op descriptors: what a kernel computes.
 *
 * daemon/ turns a validated wire request into one of these; scheduler/ queues
 * and shards them; a backend under kernels/ computes them. Nothing here knows
 * about protobuf, sessions or transports.
 *
 * Invariant: a descriptor that reaches a backend has been fully validated —
 * every pointer/extent lies inside memory the daemon owns for the duration of
 * the op, every dimension fits the backend library's integer type. Kernels
 * never check arguments again.
 */
#ifndef TRN_KERNELS_OP_H
#define TRN_KERNELS_OP_H

#include <stddef.h>
#include <stdint.h>

typedef enum trn_dtype {
    TRN_DTYPE_R32F = 1,
    TRN_DTYPE_R64F = 2,
    TRN_DTYPE_C32F = 3,
    TRN_DTYPE_C64F = 4,
} trn_dtype;

/* Bytes per element of a dtype (0 for an unknown value). */
static inline size_t trn_dtype_size(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return 4;
    case TRN_DTYPE_R64F: return 8;
    case TRN_DTYPE_C32F: return 8;
    case TRN_DTYPE_C64F: return 16;
    }
    return 0;
}

typedef enum trn_trans {
    TRN_TRANS_N = 0,
    TRN_TRANS_T = 1,
    TRN_TRANS_C = 2,
} trn_trans;

typedef enum trn_op_kind {
    TRN_OP_MEMSET = 1,
    TRN_OP_COPY = 2,
    TRN_OP_GEMM = 16,
} trn_op_kind;

typedef struct trn_scalar {
    double re, im;
} trn_scalar;

typedef struct trn_memset_desc {
    void *dst;
    int value;
    size_t bytes;
} trn_memset_desc;

typedef struct trn_copy_desc {
    void *dst;
    const void *src;
    size_t bytes;
} trn_copy_desc;

/* Column-major C = alpha op(A) op(B) + beta C; dimensions fit in int. */
typedef struct trn_gemm_desc {
    trn_dtype type;
    trn_trans transa, transb;
    int m, n, k;
    trn_scalar alpha, beta;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    void *c;
    int ldc;
} trn_gemm_desc;

typedef struct trn_op_desc {
    trn_op_kind kind;
    union {
        trn_memset_desc memset;
        trn_copy_desc copy;
        trn_gemm_desc gemm;
    } u;
} trn_op_desc;

/* Status of running a descriptor (kernels return these). */
typedef enum trn_kstatus {
    TRN_KSTATUS_OK = 0,
    TRN_KSTATUS_UNSUPPORTED = 1, /* the backend has no kernel for this op */
    TRN_KSTATUS_FAILED = 2,      /* the kernel itself reported failure */
} trn_kstatus;

/* Estimated cost in floating-point operations (or bytes touched for data
 * movement); what the scheduler shards and shares cores by. */
double trn_op_cost(const trn_op_desc *op);

#endif
