/*
 * blas_operands.c — operand checks shared by the Level 2 and
 * Level 3 validators (blas2.c, blas3.c): a matrix, a
 * strided vector, a device-pointer-mode scalar. Each computes the operand's
 * byte extent with overflow-checked arithmetic and resolves it inside one of
 * the session's buffers, naming it "<routine>: <argument>" in messages.
 */
#include <stdio.h>

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"

trn_wire_code trn_vblas_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                               int rows, int cols, int ld, const char *fn, const char *name,
                               void **out) {
    uint64_t bytes;
    if (ck_matrix_bytes((uint64_t)rows, (uint64_t)cols, (uint64_t)ld, trn_dtype_size(t), &bytes)) {
        trn_vmsg(vx, "%s: the extent of %s (%d x %d, ld=%d) overflows 64 bits", fn, name, rows,
                 cols, ld);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    char what[48];
    snprintf(what, sizeof(what), "%s: %s", fn, name);
    return trn_vregion(vx, ref, bytes, trn_vblas_align(t), what, out);
}

trn_wire_code trn_vblas_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t, int len,
                               int inc, const char *fn, const char *name, void **out) {
    uint64_t bytes = 0;
    if (len > 0 && trn_vblas_vec_bytes(len, inc, trn_dtype_size(t), &bytes)) {
        trn_vmsg(vx, "%s: the extent of %s (%d elements, inc=%d) overflows 64 bits", fn, name, len,
                 inc);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    char what[48];
    snprintf(what, sizeof(what), "%s: %s", fn, name);
    return trn_vregion(vx, ref, bytes, trn_vblas_align(t), what, out);
}

trn_wire_code trn_vblas_dev_scalar(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                                   int real_only, const char *fn, const char *name,
                                   const void **out) {
    *out = NULL;
    if (!ref || ref->buffer_id == 0)
        return TRN_WIRE_OK;
    const uint64_t align = trn_vblas_align(t);
    char what[48];
    snprintf(what, sizeof(what), "%s: %s", fn, name);
    void *p = NULL;
    const trn_wire_code rc =
        trn_vregion(vx, ref, real_only ? align : trn_dtype_size(t), align, what, &p);
    *out = p;
    return rc;
}
