/*
 * blas_operands.c — the operands of the Level 2 and Level 3 validators
 * (blas2.c, blas3.c): a matrix, a strided vector, a device-pointer-mode
 * scalar, each the kit's region named "<routine>: <argument>" and sized by
 * the element type.
 */
#include <stdio.h>

#include "ops/validate/blas.h"

trn_wire_code trn_vblas_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                               int rows, int cols, int ld, const char *fn, const char *name,
                               void **out) {
    return trn_vk_matrix(vx, ref, rows, cols, ld, trn_dtype_size(t), trn_vk_align(t), fn, name,
                         out);
}

trn_wire_code trn_vblas_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t, int len,
                               int inc, const char *fn, const char *name, void **out) {
    return trn_vk_vector(vx, ref, len, inc, trn_dtype_size(t), trn_vk_align(t), fn, name, out);
}

trn_wire_code trn_vblas_dev_scalar(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                                   int real_only, const char *fn, const char *name,
                                   const void **out) {
    *out = NULL;
    if (!ref || ref->buffer_id == 0)
        return TRN_WIRE_OK;
    const uint64_t align = trn_vk_align(t);
    char what[48];
    snprintf(what, sizeof(what), "%s: %s", fn, name);
    void *p = NULL;
    const trn_wire_code rc =
        trn_vregion(vx, ref, real_only ? align : trn_dtype_size(t), align, what, &p);
    *out = p;
    return rc;
}
