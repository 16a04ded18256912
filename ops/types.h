/*
 * types.h — the element types, scalars, matrix conventions and kernel
 * statuses every op descriptor (ops/<family>.h) is written in.
 */
#ifndef TRN_OPS_TYPES_H
#define TRN_OPS_TYPES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef enum trn_dtype {
    TRN_DTYPE_R32F = 1,
    TRN_DTYPE_R64F = 2,
    TRN_DTYPE_C32F = 3,
    TRN_DTYPE_C64F = 4,
    /* 16-bit and integer storage: GEMM (trnblasHgemm, GemmEx) and, R16F and
     * R16BF, Level 1's Ex rows (ops/blas.h), computed in FP32 or int32
     * (docs/numerics.md); every other op's validator refuses them
     * (trn_vk_dtype maps none of them). */
    TRN_DTYPE_R16F = 5,  /* IEEE binary16 */
    TRN_DTYPE_R16BF = 6, /* bfloat16 */
    TRN_DTYPE_R8I = 7,
    TRN_DTYPE_R32I = 8,
    TRN_DTYPE_C8I = 9, /* complex int8: re, im interleaved (GEMM's A and B only) */
} trn_dtype;

/* The case labels of the GEMM-only storage types, for switches over a
 * dtype in kernels that never see them (validation refuses them there). */
#define TRN_DTYPE_GEMM_ONLY_CASES                                                                  \
    case TRN_DTYPE_R16F:                                                                           \
    case TRN_DTYPE_R16BF:                                                                          \
    case TRN_DTYPE_R8I:                                                                            \
    case TRN_DTYPE_R32I:                                                                           \
    case TRN_DTYPE_C8I

/* Bytes per element of a dtype (0 for an unknown value). */
static inline size_t trn_dtype_size(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return 4;
    case TRN_DTYPE_R64F: return 8;
    case TRN_DTYPE_C32F: return 8;
    case TRN_DTYPE_C64F: return 16;
    case TRN_DTYPE_R16F:
    case TRN_DTYPE_R16BF: return 2;
    case TRN_DTYPE_R8I: return 1;
    case TRN_DTYPE_R32I: return 4;
    case TRN_DTYPE_C8I: return 2;
    }
    return 0;
}

/* Whether t is complex (C32F, C64F), single precision (R32F, C32F), and
 * the real type of its components. */
static inline int trn_dtype_is_complex(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
}
static inline int trn_dtype_is_single(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
}
static inline trn_dtype trn_dtype_real(trn_dtype t) {
    return trn_dtype_is_single(t) ? TRN_DTYPE_R32F : TRN_DTYPE_R64F;
}

typedef enum trn_trans {
    TRN_TRANS_N = 0,
    TRN_TRANS_T = 1,
    TRN_TRANS_C = 2,
} trn_trans;

typedef struct trn_scalar {
    double re, im;
} trn_scalar;

/* Which triangle is stored (cublasFillMode_t; FULL never reaches a kernel),
 * whether the diagonal is implicitly 1, and the side a special matrix
 * multiplies from. Values are cuBLAS's. */
typedef enum trn_uplo { TRN_UPLO_LOWER = 0, TRN_UPLO_UPPER = 1 } trn_uplo;
typedef enum trn_diag { TRN_DIAG_NON_UNIT = 0, TRN_DIAG_UNIT = 1 } trn_diag;
typedef enum trn_side { TRN_SIDE_LEFT = 0, TRN_SIDE_RIGHT = 1 } trn_side;

/* Status of running a descriptor (kernels return these). */
typedef enum trn_kstatus {
    TRN_KSTATUS_OK = 0,
    TRN_KSTATUS_UNSUPPORTED = 1, /* the backend has no kernel for this op */
    TRN_KSTATUS_FAILED = 2,      /* the kernel itself reported failure */
    TRN_KSTATUS_NO_MEMORY = 3,   /* the kernel could not allocate its workspace */
    /* A step of a sequence op (scheduler/sched.h) succeeded and ends the
     * sequence early: later steps (and loop rounds) do not run, and the op
     * completes as if it had returned OK. Elsewhere it means OK. */
    TRN_KSTATUS_SEQ_DONE = 4,
} trn_kstatus;

/* Why a kernel failed, in words, for the client (the next synchronize
 * reports it instead of a generic "failed in the compute backend"). Every
 * shard of an op shares one; when several post, the lowest rank wins (e.g.
 * the first bad row), so the message does not depend on timing. The
 * scheduler initialises it when the op is submitted and points each stage's
 * descriptor at it; the service reads it after the op's last shard. */
#define TRN_KMSG_LEN 200 /* fits the session's 256-byte async message with its prefix */
typedef struct trn_kmsg {
    atomic_int busy; /* a poster is writing */
    int set;
    int bad_input; /* the op's input data broke a rule: INVALID_ARGUMENT */
    uint64_t rank;
    char text[TRN_KMSG_LEN];
} trn_kmsg;

void trn_kmsg_init(trn_kmsg *m);
/* Records text (printf format) unless a message of lower or equal rank is
 * there already. bad_input: the failure is the caller's data (the client
 * sees trnsciErrorInvalidValue), not the backend. Safe to call from several
 * shards at once. */
void trn_kmsg_post(trn_kmsg *m, uint64_t rank, int bad_input, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Messages about memory rank above every position a bad-input message can
 * name, so that when one shard finds bad input and another runs out of
 * memory, the client is told about its input (which retrying cannot fix).
 * A shard adds its index: the lowest shard's message wins, whatever the
 * timing. */
#define TRN_KMSG_RANK_NO_MEMORY (UINT64_C(1) << 62)

/* A kernel's workspace allocation failed: posts "the daemon is out of
 * memory for its workspace: <bytes> bytes for <what> could not be
 * allocated" (what: printf format) at rank TRN_KMSG_RANK_NO_MEMORY + shard,
 * not as bad input, and returns TRN_KSTATUS_NO_MEMORY. m may be NULL. */
trn_kstatus trn_kmsg_no_memory(trn_kmsg *m, int shard, size_t bytes, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

#endif
