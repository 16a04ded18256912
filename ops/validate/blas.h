/*
 * blas.h — the operands of the trnblas validators (blas*.c, gemm.c): the
 * kit's checks (kit.h) named "<routine>: <argument>" and sized by the
 * element type. Internal to ops/validate/.
 */
#ifndef TRN_OPS_VALIDATE_BLAS_H
#define TRN_OPS_VALIDATE_BLAS_H

#include "ops/validate/kit.h"

/* A scalar known at validation time (host pointer mode) that is exactly v. */
static inline int trn_vblas_is(const trn_scalar *s, double re) {
    return s->re == re && s->im == 0.0;
}

/* The operand `fn: name`, a column-major rows x cols matrix of type t with
 * leading dimension ld >= rows: checks its extent for 64-bit overflow and
 * resolves its region (trn_vk_matrix, element-aligned). An empty
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
