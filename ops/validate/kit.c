/*
 * kit.c — the family-neutral checks of the validators (kit.h).
 */
#include "ops/validate/kit.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/checked.h"

int trn_vk_dtype(Trnsci__V1__DataType t, trn_dtype *out) {
    switch (t) {
    case TRNSCI__V1__DATA_TYPE__R_32F: *out = TRN_DTYPE_R32F; return 0;
    case TRNSCI__V1__DATA_TYPE__R_64F: *out = TRN_DTYPE_R64F; return 0;
    case TRNSCI__V1__DATA_TYPE__C_32F: *out = TRN_DTYPE_C32F; return 0;
    case TRNSCI__V1__DATA_TYPE__C_64F: *out = TRN_DTYPE_C64F; return 0;
    default: return -1;
    }
}

int trn_vk_trans(Trnsci__V1__Operation op, trn_trans *out) {
    switch (op) {
    case TRNSCI__V1__OPERATION__OP_N: *out = TRN_TRANS_N; return 0;
    case TRNSCI__V1__OPERATION__OP_T: *out = TRN_TRANS_T; return 0;
    case TRNSCI__V1__OPERATION__OP_C: *out = TRN_TRANS_C; return 0;
    default: return -1;
    }
}

int trn_vk_uplo(Trnsci__V1__FillMode u, trn_uplo *out) {
    switch (u) {
    case TRNSCI__V1__FILL_MODE__FILL_MODE_LOWER: *out = TRN_UPLO_LOWER; return 0;
    case TRNSCI__V1__FILL_MODE__FILL_MODE_UPPER: *out = TRN_UPLO_UPPER; return 0;
    default: return -1;
    }
}

int trn_vk_diag(Trnsci__V1__DiagType d, trn_diag *out) {
    switch (d) {
    case TRNSCI__V1__DIAG_TYPE__DIAG_NON_UNIT: *out = TRN_DIAG_NON_UNIT; return 0;
    case TRNSCI__V1__DIAG_TYPE__DIAG_UNIT: *out = TRN_DIAG_UNIT; return 0;
    default: return -1;
    }
}

int trn_vk_side(Trnsci__V1__SideMode s, trn_side *out) {
    switch (s) {
    case TRNSCI__V1__SIDE_MODE__SIDE_LEFT: *out = TRN_SIDE_LEFT; return 0;
    case TRNSCI__V1__SIDE_MODE__SIDE_RIGHT: *out = TRN_SIDE_RIGHT; return 0;
    default: return -1;
    }
}

trn_wire_code trn_vk_real_dtype(trn_vctx *vx, const char *fn, const char *name,
                                Trnsci__V1__DataType t, trn_dtype *out) {
    trn_dtype d;
    if (trn_vk_dtype(t, &d) != 0) {
        trn_vmsg(vx, "%s: %s: data type %d is not R_32F or R_64F", fn, name, (int)t);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (trn_dtype_is_complex(d)) {
        trn_vmsg(vx, "%s: %s: complex types are not supported yet (R_32F, R_64F)", fn, name);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    *out = d;
    return TRN_WIRE_OK;
}

int trn_vk_compute_bits(Trnsci__V1__ComputeType c) {
    switch (c) {
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT: return 0;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16BF:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_TF32:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X3:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_BF16X9:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F_FAST_16F: return 32;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F:
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_64F_EMULATED: return 64;
    default: return -1;
    }
}

trn_scalar trn_vk_scalar(const Trnsci__V1__Scalar *s) {
    trn_scalar v = {0.0, 0.0};
    if (s) {
        v.re = s->re;
        v.im = s->im;
    }
    return v;
}

trn_wire_code trn_vk_dim(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out) {
    if (v < 0 || v > INT_MAX) {
        trn_vmsg(vx, "%s: %s=%lld is outside 0..%d", fn, name, (long long)v, INT_MAX);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (int)v;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vk_ld(trn_vctx *vx, const char *fn, const char *name, int64_t ld, int rows,
                        const char *rows_expr, int *out) {
    const int64_t need = rows > 1 ? rows : 1;
    if (ld < need || ld > INT_MAX) {
        trn_vmsg(vx, "%s: %s=%lld must be >= max(1, %s) = %lld and <= %d", fn, name, (long long)ld,
                 rows_expr, (long long)need, INT_MAX);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (int)ld;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vk_int(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out) {
    if (v < INT_MIN || v > INT_MAX) {
        trn_vmsg(vx, "%s: %s=%lld is outside %d..%d", fn, name, (long long)v, INT_MIN, INT_MAX);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (int)v;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vk_count(trn_vctx *vx, const char *fn, const char *name, int64_t v, int dflt,
                           int *out) {
    if (v < 0 || v > INT_MAX) {
        trn_vmsg(vx, "%s: %s=%lld is outside 0..%d (0: the default)", fn, name, (long long)v,
                 INT_MAX);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = v == 0 ? dflt : (int)v;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vk_tol(trn_vctx *vx, const char *fn, const char *name, double v, double dflt,
                         double *out) {
    if (!isfinite(v) || v < 0.0) {
        trn_vmsg(vx, "%s: %s=%g must be finite and >= 0 (0: the default)", fn, name, v);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = v == 0.0 ? dflt : v;
    return TRN_WIRE_OK;
}

int trn_vk_vector_bytes(int n, int inc, uint64_t es, uint64_t *out) {
    const uint64_t a = inc < 0 ? (uint64_t)(-(int64_t)inc) : (uint64_t)inc;
    uint64_t t;
    if (n < 1 || ck_mul(a, (uint64_t)n - 1, &t) || ck_add(t, 1, &t) || ck_mul(t, es, &t))
        return -1;
    *out = t;
    return 0;
}

int trn_vk_batch_bytes(uint64_t one, uint64_t batch, uint64_t stride, uint64_t es, uint64_t *out) {
    uint64_t t;
    if (one == 0 || batch <= 1) {
        *out = batch == 0 ? 0 : one;
        return 0;
    }
    if (ck_mul(batch - 1, stride, &t) || ck_mul(t, es, &t) || ck_add(t, one, &t))
        return -1;
    *out = t;
    return 0;
}

trn_wire_code trn_vk_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int rows, int cols,
                            int ld, uint64_t es, uint64_t align, const char *fn, const char *name,
                            void **out) {
    uint64_t bytes;
    if (rows < 0 || cols < 0 || ld < 0) {
        trn_vmsg(vx, "%s: %s (%d x %d, ld=%d) is not a matrix", fn, name, rows, cols, ld);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (ck_matrix_bytes((uint64_t)rows, (uint64_t)cols, (uint64_t)ld, es, &bytes)) {
        trn_vmsg(
            vx,
            "%s: the extent of %s (%d x %d, ld=%d) overflows 64 bits; %s: %s cannot be addressed",
            fn, name, rows, cols, ld, fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return trn_vregion_named(vx, ref, bytes, align, fn, name, out);
}

trn_wire_code trn_vk_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int n, int inc,
                            uint64_t es, uint64_t align, const char *fn, const char *name,
                            void **out) {
    uint64_t bytes = 0;
    if (n < 0) {
        trn_vmsg(vx, "%s: %s has n=%d < 0 elements", fn, name, n);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (n > 0 && trn_vk_vector_bytes(n, inc, es, &bytes)) {
        trn_vmsg(vx,
                 "%s: the extent of %s (%d elements, inc=%d) overflows 64 bits; %s: %s cannot be "
                 "addressed",
                 fn, name, n, inc, fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return trn_vregion_named(vx, ref, bytes, align, fn, name, out);
}

trn_wire_code trn_vk_array(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t count,
                           uint64_t es, uint64_t align, const char *fn, const char *name,
                           void **out) {
    uint64_t bytes;
    if (ck_mul(count, es, &bytes)) {
        trn_vmsg(
            vx,
            "%s: the extent of %s (%llu elements) overflows 64 bits; %s: %s cannot be addressed",
            fn, name, (unsigned long long)count, fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return trn_vregion_named(vx, ref, bytes, align, fn, name, out);
}

/* ---- overlap of listed matrices ----------------------------------------------------- */

/* Whether two m×n column-major matrices with leading dimension ld >= m whose
 * first elements are `delta` elements apart share an element: delta =
 * di + dj*ld with |di| < m, |dj| < n, and since ld >= m only dj = delta/ld
 * (di >= 0) or dj = delta/ld + 1 (di < 0) can work. */
int trn_vk_matrices_collide(uint64_t delta, uint64_t m, uint64_t n, uint64_t ld) {
    const uint64_t q = delta / ld, r = delta % ld;
    if (q + 1 <= n && r + 1 <= m)
        return 1;
    return q + 2 <= n && r != 0 && ld - r + 1 <= m;
}

/* The same for matrices `bytes` bytes apart with elements of es bytes: the
 * elements [x, x+es) and [y, y+es) overlap when |x - y| < es. */
static int matrices_overlap(uint64_t bytes, uint64_t es, uint64_t m, uint64_t n, uint64_t ld) {
    const uint64_t d = bytes / es;
    return trn_vk_matrices_collide(d, m, n, ld) ||
           (bytes % es != 0 && trn_vk_matrices_collide(d + 1, m, n, ld));
}

typedef struct placed {
    uintptr_t addr;
    size_t index;
} placed;

static int by_addr(const void *x, const void *y) {
    const uintptr_t a = ((const placed *)x)->addr, b = ((const placed *)y)->addr;
    return a < b ? -1 : a > b;
}

/* Sorted by address, each matrix is compared only with those that start
 * inside its extent. */
trn_wire_code trn_vk_disjoint(trn_vctx *vx, const char *fn, const char *name, void *const *mats,
                              size_t count, uint64_t rows, uint64_t cols, uint64_t ld,
                              uint64_t es) {
    if (count < 2 || rows == 0 || cols == 0)
        return TRN_WIRE_OK;
    const uint64_t bytes = ((cols - 1) * ld + rows) * es; /* validated: fits a buffer */
    placed *tmp = malloc(count * sizeof(*tmp));
    if (!tmp) {
        trn_vmsg(vx, "%s: the daemon is out of memory for %zu matrices", fn, count);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    for (size_t i = 0; i < count; i++)
        tmp[i] = (placed){(uintptr_t)mats[i], i};
    qsort(tmp, count, sizeof(*tmp), by_addr);
    trn_wire_code rc = TRN_WIRE_OK;
    for (size_t i = 0; i + 1 < count && rc == TRN_WIRE_OK; i++)
        for (size_t j = i + 1; j < count && tmp[j].addr - tmp[i].addr < bytes; j++)
            if (matrices_overlap(tmp[j].addr - tmp[i].addr, es, rows, cols, ld)) {
                const size_t a = tmp[i].index < tmp[j].index ? tmp[i].index : tmp[j].index;
                const size_t b = tmp[i].index < tmp[j].index ? tmp[j].index : tmp[i].index;
                trn_vmsg(vx, "%s: %s[%zu] and %s[%zu] overlap", fn, name, a, name, b);
                rc = TRN_WIRE_INVALID_ARGUMENT;
                break;
            }
    free(tmp);
    return rc;
}
