/*
 * blas.c — argument rules of trnblas Level 1, as cuBLAS states them
 * (cublasStatus INVALID_VALUE cases), plus the memory-safety checks cuBLAS
 * leaves to the caller: every vector must lie inside one of the session's
 * buffers; and the argument checks every BLAS validator shares
 * (blas.h). The GEMM family is in gemm.c.
 */
#include <limits.h>
#include <stdio.h>

#include "ops/validate/blas.h"

#include "ops/validate/checked.h"

/* ---- Level 1 ------------------------------------------------------------- */

static const char *blas1_name(trn_blas1_fn fn) {
    switch (fn) {
    case TRN_BLAS1_AXPY: return "axpy";
    case TRN_BLAS1_SCAL: return "scal";
    case TRN_BLAS1_COPY: return "copy";
    case TRN_BLAS1_SWAP: return "swap";
    case TRN_BLAS1_DOT: return "dot";
    case TRN_BLAS1_DOTC: return "dotc";
    case TRN_BLAS1_NRM2: return "nrm2";
    case TRN_BLAS1_ASUM: return "asum";
    case TRN_BLAS1_IAMAX: return "iamax";
    case TRN_BLAS1_IAMIN: return "iamin";
    case TRN_BLAS1_ROT: return "rot";
    case TRN_BLAS1_ROTM: return "rotm";
    case TRN_BLAS1_ROTG: return "rotg";
    case TRN_BLAS1_ROTMG: return "rotmg";
    }
    return "blas1";
}

static int blas1_fn_of(Trnsci__V1__Blas1Function f, trn_blas1_fn *out) {
    if (f < TRNSCI__V1__BLAS1_FUNCTION__BLAS1_AXPY || f > TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROTMG)
        return -1;
    *out = (trn_blas1_fn)f; /* the wire enum's values are trn_blas1_fn's */
    return 0;
}

/* ROTM's H: 5 values by value (host pointer mode), or a device array of 5
 * real components (scalars[0]), read only when there is work. */
static trn_wire_code rotm_param(trn_vctx *vx, const Trnsci__V1__Blas1Op *b, trn_blas1_desc *out,
                                int n, uint64_t comp) {
    if (b->n_scalars > 1 || (b->n_scalars == 1 && b->n_param)) {
        trn_vmsg(vx, "rotm: param is given both by value and in device memory");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (b->n_scalars == 1) {
        if (n == 0)
            return TRN_WIRE_OK;
        return trn_vregion_named(vx, b->scalars[0], 5 * comp, comp, "rotm", "param", &out->sp[0]);
    }
    if (b->n_param != 5) {
        trn_vmsg(vx, "rotm: param has %zu values, not 5 (flag, h11, h21, h12, h22)", b->n_param);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 5; i++)
        out->param[i] = b->param[i];
    return TRN_WIRE_OK;
}

/* ROTG, ROTMG: device pointer mode only (host mode computes in the caller);
 * every scalar argument a region of its own (they may share a buffer: one
 * shard reads them all before writing). */
static trn_wire_code validate_rot_scalars(trn_vctx *vx, const Trnsci__V1__Blas1Op *b,
                                          trn_blas1_desc *out, const char *fn) {
    static const char *const rotg_names[] = {"a", "b", "c", "s"};
    static const char *const rotmg_names[] = {"d1", "d2", "x1", "y1", "param"};
    const int rotg = out->fn == TRN_BLAS1_ROTG;
    const size_t want = rotg ? 4 : 5;
    if (b->n_scalars != want) {
        trn_vmsg(vx, "%s: %zu scalar arguments in device memory, not %zu", fn, b->n_scalars, want);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t es = trn_dtype_size(out->type);
    const uint64_t comp = (out->type == TRN_DTYPE_R32F || out->type == TRN_DTYPE_C32F) ? 4 : 8;
    out->n = 0;
    for (size_t i = 0; i < want; i++) {
        uint64_t bytes = comp;
        if (rotg && i != 2)
            bytes = es; /* a, b, s: elements; c: a real component */
        else if (!rotg && i == 4)
            bytes = 5 * comp;
        const trn_wire_code rc = trn_vregion_named(
            vx, b->scalars[i], bytes, comp, fn, rotg ? rotg_names[i] : rotmg_names[i], &out->sp[i]);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    return TRN_WIRE_OK;
}

/* The 16-bit storage types of cuBLAS's Level 1 Ex rows (protocol 1.14):
 * 1 and *out set for R_16F / R_16BF, else 0. */
static int half_type(Trnsci__V1__DataType t, trn_dtype *out) {
    switch (t) {
    case TRNSCI__V1__DATA_TYPE__R_16F: *out = TRN_DTYPE_R16F; return 1;
    case TRNSCI__V1__DATA_TYPE__R_16BF: *out = TRN_DTYPE_R16BF; return 1;
    default: return 0;
    }
}

/* The routines cuBLAS's Ex forms offer on 16-bit data (AxpyEx, ScalEx,
 * DotEx/DotcEx on real data, Nrm2Ex, RotEx). */
static int half_fn(trn_blas1_fn fn) {
    return fn == TRN_BLAS1_AXPY || fn == TRN_BLAS1_SCAL || fn == TRN_BLAS1_DOT ||
           fn == TRN_BLAS1_NRM2 || fn == TRN_BLAS1_ROT;
}

/* Bytes (and alignment) of one real component of type t. */
static uint64_t component_bytes(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F:
    case TRN_DTYPE_C32F: return 4;
    case TRN_DTYPE_R16F:
    case TRN_DTYPE_R16BF: return 2;
    default: return 8;
    }
}

static trn_wire_code validate_blas1(trn_vctx *vx, const Trnsci__V1__Blas1Op *b,
                                    trn_blas1_desc *out) {
    if (blas1_fn_of(b->function, &out->fn)) {
        trn_vmsg(vx, "blas1: function %d is not one of AXPY .. ROTMG", (int)b->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const char *fn = blas1_name(out->fn);
    const int half = half_type(b->type, &out->type);
    if (half && !half_fn(out->fn)) {
        trn_vmsg(vx, "%s: data type %d (16-bit) is for axpy, scal, dot, nrm2 and rot only", fn,
                 (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (half && (b->real_scalar || b->compensated)) {
        trn_vmsg(vx, "%s: real_scalar and compensated do not apply to 16-bit data", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!half && trn_vk_dtype(b->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F, C_64F, R_16F or R_16BF", fn,
                 (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int cx = out->type == TRN_DTYPE_C32F || out->type == TRN_DTYPE_C64F;
    if (out->fn == TRN_BLAS1_DOTC && !cx) {
        trn_vmsg(vx, "dotc: data type %d is not C_32F or C_64F", (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (b->real_scalar && !(cx && (out->fn == TRN_BLAS1_SCAL || out->fn == TRN_BLAS1_ROT))) {
        trn_vmsg(vx, "%s: real_scalar applies to C_32F/C_64F scal and rot only", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if ((out->fn == TRN_BLAS1_ROTM || out->fn == TRN_BLAS1_ROTMG) && cx) {
        trn_vmsg(vx, "%s: data type %d is not R_32F or R_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (out->fn == TRN_BLAS1_ROTG || out->fn == TRN_BLAS1_ROTMG)
        return validate_rot_scalars(vx, b, out, fn);
    if (out->fn != TRN_BLAS1_ROTM && b->n_scalars) {
        trn_vmsg(vx, "%s: takes no scalars array", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    int n;
    if (trn_vk_int(vx, fn, "n", b->n, &n) || trn_vk_int(vx, fn, "incx", b->incx, &out->incx) ||
        trn_vk_int(vx, fn, "incy", b->incy, &out->incy))
        return TRN_WIRE_INVALID_ARGUMENT;
    out->real_scalar = b->real_scalar ? 1 : 0;
    out->compensated = b->compensated ? 1 : 0;
    out->alpha = trn_vk_scalar(b->alpha);
    out->beta = trn_vk_scalar(b->beta);

    const int uses_y = out->fn == TRN_BLAS1_AXPY || out->fn == TRN_BLAS1_COPY ||
                       out->fn == TRN_BLAS1_SWAP || out->fn == TRN_BLAS1_DOT ||
                       out->fn == TRN_BLAS1_DOTC || out->fn == TRN_BLAS1_ROT ||
                       out->fn == TRN_BLAS1_ROTM;
    const int x_only = !uses_y && out->fn != TRN_BLAS1_SCAL ? 1 : 0; /* the reductions of x */
    const int reduces = out->fn >= TRN_BLAS1_DOT && out->fn <= TRN_BLAS1_IAMIN;
    /* BLAS: nothing to do for n <= 0, nor for incx <= 0 in the routines of x
     * alone (scal, nrm2, asum, i?amax, i?amin: the result is then 0). */
    if (n < 0 || ((x_only || out->fn == TRN_BLAS1_SCAL) && out->incx <= 0))
        n = 0;
    out->n = n;

    const uint64_t es = trn_dtype_size(out->type);
    const uint64_t comp = component_bytes(out->type);
    uint64_t x_bytes = 0, y_bytes = 0;
    if (n > 0 && trn_vk_vector_bytes(n, out->incx, es, &x_bytes)) {
        trn_vmsg(vx, "%s: the extent of x (n=%d, incx=%d) overflows 64 bits", fn, n, out->incx);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (n > 0 && uses_y && trn_vk_vector_bytes(n, out->incy, es, &y_bytes)) {
        trn_vmsg(vx, "%s: the extent of y (n=%d, incy=%d) overflows 64 bits", fn, n, out->incy);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    void *p = NULL;
    out->x = out->y = out->result = NULL;
    trn_wire_code rc = TRN_WIRE_OK;
    if (n > 0) {
        rc = trn_vregion_named(vx, b->x, x_bytes, comp, fn, "x", &p);
        out->x = p;
        if (rc == TRN_WIRE_OK && uses_y) {
            rc = trn_vregion_named(vx, b->y, y_bytes, comp, fn, "y", &p);
            out->y = p;
        }
    }
    /* Device-mode scalars, read only when there is work. AXPY/SCAL alpha and
     * ROT s are elements of the type (a real component with real_scalar);
     * ROT c is a real component. */
    const int takes_alpha =
        out->fn == TRN_BLAS1_AXPY || out->fn == TRN_BLAS1_SCAL || out->fn == TRN_BLAS1_ROT;
    out->alpha_ptr = out->beta_ptr = NULL;
    if (rc == TRN_WIRE_OK && n > 0 && takes_alpha && b->alpha_ptr && b->alpha_ptr->buffer_id) {
        /* AxpyEx, ScalEx on 16-bit data: alphaType R_32F, a float. */
        const int f32_alpha = half && out->fn != TRN_BLAS1_ROT;
        const uint64_t bytes = f32_alpha                                        ? 4
                               : (out->fn == TRN_BLAS1_ROT || out->real_scalar) ? comp
                                                                                : es;
        rc = trn_vregion_named(vx, b->alpha_ptr, bytes, f32_alpha ? 4 : comp, fn,
                               out->fn == TRN_BLAS1_ROT ? "c" : "alpha", &p);
        out->alpha_ptr = p;
    }
    if (rc == TRN_WIRE_OK && n > 0 && out->fn == TRN_BLAS1_ROT && b->beta_ptr &&
        b->beta_ptr->buffer_id) {
        rc = trn_vregion_named(vx, b->beta_ptr, out->real_scalar ? comp : es, comp, fn, "s", &p);
        out->beta_ptr = p;
    }
    if (rc == TRN_WIRE_OK && out->fn == TRN_BLAS1_ROTM)
        rc = rotm_param(vx, b, out, n, comp);
    if (rc == TRN_WIRE_OK && reduces) {
        uint64_t r_bytes = es, r_align = comp;
        if (out->fn == TRN_BLAS1_NRM2 || out->fn == TRN_BLAS1_ASUM)
            r_bytes = comp;
        else if (out->fn == TRN_BLAS1_IAMAX || out->fn == TRN_BLAS1_IAMIN)
            r_bytes = r_align = sizeof(int32_t);
        rc = trn_vregion_named(vx, b->result, r_bytes, r_align, fn, "result", &p);
        out->result = p;
    }
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(blas1, validate_blas1(vx, op->blas1, &out->u.blas1))
