/*
 * blas.h — argument checks shared by the trnblas validators
 * (validate_blas*.c). Each writes a message naming the routine `fn` and the
 * argument into err and returns -1 when the rule is broken, 0 otherwise.
 * Internal to ops/validate/
 */
#ifndef TRN_OPS_VALIDATE_BLAS_H
#define TRN_OPS_VALIDATE_BLAS_H

#include "ops/validate/validate.h"

/* Wire enums to descriptor enums; -1 for a value outside the enum (protobuf-c
 * passes unknown values through). */
int trn_vblas_dtype(Trnsci__V1__DataType t, trn_dtype *out);
int trn_vblas_trans(Trnsci__V1__Operation op, trn_trans *out);

/* A dimension: 0 <= v <= INT_MAX. */
int trn_vblas_dim(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out);
/* A leading dimension: max(1, rows) <= ld <= INT_MAX; rows_expr names rows
 * in the message ("m"). */
int trn_vblas_ld(trn_vctx *vx, const char *fn, const char *name, int64_t ld, int rows,
                 const char *rows_expr, int *out);
/* An int argument that travelled as int64 (increments may be negative). */
int trn_vblas_int(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out);

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

/* ---- Level 2 and Level 3 (blas_operands.c) ------------------------ */

static inline int trn_vblas_complex(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
}

/* Wire fill mode, diagonal type and side to descriptor enums; -1 for any
 * other value, FILL_MODE_FULL included (no Level 2/3 routine takes it). */
static inline int trn_vblas_uplo(Trnsci__V1__FillMode u, trn_uplo *out) {
    if (u != TRNSCI__V1__FILL_MODE__FILL_MODE_LOWER && u != TRNSCI__V1__FILL_MODE__FILL_MODE_UPPER)
        return -1;
    *out = u == TRNSCI__V1__FILL_MODE__FILL_MODE_LOWER ? TRN_UPLO_LOWER : TRN_UPLO_UPPER;
    return 0;
}
static inline int trn_vblas_diag(Trnsci__V1__DiagType d, trn_diag *out) {
    if (d != TRNSCI__V1__DIAG_TYPE__DIAG_NON_UNIT && d != TRNSCI__V1__DIAG_TYPE__DIAG_UNIT)
        return -1;
    *out = d == TRNSCI__V1__DIAG_TYPE__DIAG_UNIT ? TRN_DIAG_UNIT : TRN_DIAG_NON_UNIT;
    return 0;
}
static inline int trn_vblas_side(Trnsci__V1__SideMode s, trn_side *out) {
    if (s != TRNSCI__V1__SIDE_MODE__SIDE_LEFT && s != TRNSCI__V1__SIDE_MODE__SIDE_RIGHT)
        return -1;
    *out = s == TRNSCI__V1__SIDE_MODE__SIDE_LEFT ? TRN_SIDE_LEFT : TRN_SIDE_RIGHT;
    return 0;
}

/* A scalar known at validation time (host pointer mode) that is exactly v. */
static inline int trn_vblas_is(const trn_scalar *s, double re) {
    return s->re == re && s->im == 0.0;
}

/* The operand `fn: name`, a column-major rows x cols matrix of type t with
 * leading dimension ld >= rows: checks its extent for 64-bit overflow and
 * resolves its region (trn_validate_region, element-aligned). An empty
 * matrix resolves to NULL when no buffer is given. */
trn_wire_code trn_vblas_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                               int rows, int cols, int ld, const char *fn, const char *name,
                               void **out);
/* The vector `fn: name` of len >= 1 elements with increment inc (any sign;
 * 0 reads one element), as trn_vblas_matrix. */
trn_wire_code trn_vblas_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t, int len,
                               int inc, const char *fn, const char *name, void **out);
/* A device-pointer-mode scalar `fn: name` when ref names a buffer (an
 * element of t, or its real component when real_only): resolves it and sets
 * *given. With no buffer, *out = NULL and *given = 0. */
trn_wire_code trn_vblas_dev_scalar(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                                   int real_only, const char *fn, const char *name,
                                   const void **out);

#endif
