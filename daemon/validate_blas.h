/*
 * validate_blas.h — argument checks shared by the trnblas validators
 * (validate_blas*.c). Each writes a message naming the routine `fn` and the
 * argument into err and returns -1 when the rule is broken, 0 otherwise.
 * Internal to daemon/.
 */
#ifndef TRN_DAEMON_VALIDATE_BLAS_H
#define TRN_DAEMON_VALIDATE_BLAS_H

#include "daemon/validate.h"

/* Wire enums to descriptor enums; -1 for a value outside the enum (protobuf-c
 * passes unknown values through). */
int trn_vblas_dtype(Trnsci__V1__DataType t, trn_dtype *out);
int trn_vblas_trans(Trnsci__V1__Operation op, trn_trans *out);

/* A dimension: 0 <= v <= INT_MAX. */
int trn_vblas_dim(const char *fn, const char *name, int64_t v, int *out, char *err, size_t errlen);
/* A leading dimension: max(1, rows) <= ld <= INT_MAX; rows_expr names rows
 * in the message ("m"). */
int trn_vblas_ld(const char *fn, const char *name, int64_t ld, int rows, const char *rows_expr,
                 int *out, char *err, size_t errlen);
/* An int argument that travelled as int64 (increments may be negative). */
int trn_vblas_int(const char *fn, const char *name, int64_t v, int *out, char *err, size_t errlen);

/* Bytes of a vector of n >= 1 elements of es bytes with increment inc:
 * (|inc|(n-1)+1)·es; -1 on 64-bit overflow. */
int trn_vblas_vec_bytes(int n, int inc, uint64_t es, uint64_t *out);

/* A wire scalar (absent: 0). */
trn_scalar trn_vblas_scalar(const Trnsci__V1__Scalar *s);

/* The alignment a kernel may assume of a dtype's elements: the size of its
 * real component. */
static inline uint64_t trn_vblas_align(trn_dtype t) {
    return (t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F) ? 4 : 8;
}

#endif
