/*
 * gemm.c — the GEMM family's argument rules: one GEMM, strided and
 * pointer-array batches, compute types (precision modes), device-mode
 * scalars. cuBLAS's INVALID_VALUE rules for the shapes, NOT_SUPPORTED for a
 * compute type the data type cannot take, plus what cuBLAS leaves to the
 * caller: every matrix lies inside one of the session's buffers, and the C
 * matrices of a batch do not overlap (cuBLAS leaves overlapping outputs
 * undefined; here shards of one batch run concurrently, so they are refused).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"
#include "trnsci_wire.h"

static const char *dtype_name(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return "R_32F";
    case TRN_DTYPE_R64F: return "R_64F";
    case TRN_DTYPE_C32F: return "C_32F";
    case TRN_DTYPE_C64F: return "C_64F";
    case TRN_DTYPE_R16F: return "R_16F";
    case TRN_DTYPE_R16BF: return "R_16BF";
    case TRN_DTYPE_R8I: return "R_8I";
    case TRN_DTYPE_R32I: return "R_32I";
    case TRN_DTYPE_C8I: return "C_8I";
    }
    return "?";
}

/* GEMM's data types: the kit's four and the narrow storage types
 * (protocol 1.13; C_8I 1.14), which no other op takes. */
static int gemm_dtype(Trnsci__V1__DataType t, trn_dtype *out) {
    switch (t) {
    case TRNSCI__V1__DATA_TYPE__R_16F: *out = TRN_DTYPE_R16F; return 0;
    case TRNSCI__V1__DATA_TYPE__R_16BF: *out = TRN_DTYPE_R16BF; return 0;
    case TRNSCI__V1__DATA_TYPE__R_8I: *out = TRN_DTYPE_R8I; return 0;
    case TRNSCI__V1__DATA_TYPE__R_32I: *out = TRN_DTYPE_R32I; return 0;
    case TRNSCI__V1__DATA_TYPE__C_8I: *out = TRN_DTYPE_C8I; return 0;
    default: return trn_vk_dtype(t, out);
    }
}

/* The narrow storage combinations (cublasGemmEx's table, real types):
 * A, B in R_16F with C in R_16F (COMPUTE_16F or 32F) or R_32F (32F); A, B
 * in R_16BF with C in R_16BF or R_32F (32F); A, B in R_8I with C in R_32I
 * (32I) or R_32F (32F); and the complex row: A, B in C_8I with C in C_32F
 * (32F). COMPUTE_DEFAULT is 32F, except for R_32I C (32I). */
static trn_wire_code narrow_compute(trn_vctx *vx, Trnsci__V1__ComputeType c, trn_dtype ab,
                                    trn_dtype ct, trn_compute *out) {
    trn_compute k;
    switch (c) {
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_DEFAULT:
        k = ct == TRN_DTYPE_R32I ? TRN_COMPUTE_32I : TRN_COMPUTE_32F;
        break;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32F: k = TRN_COMPUTE_32F; break;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F: k = TRN_COMPUTE_16F; break;
    case TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32I: k = TRN_COMPUTE_32I; break;
    default:
        if (trn_vk_compute_bits(c) < 0) {
            trn_vmsg(vx, "gemm: compute type %d is not one of COMPUTE_DEFAULT .. COMPUTE_32I",
                     (int)c);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        trn_vmsg(vx,
                 "gemm: compute type %d does not take A and B in %s (16-bit and R_8I storage: "
                 "COMPUTE_16F, COMPUTE_32F or COMPUTE_32I)",
                 (int)c, dtype_name(ab));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    int ok = 0;
    switch (ab) {
    case TRN_DTYPE_R16F:
        ok = (ct == TRN_DTYPE_R16F && (k == TRN_COMPUTE_16F || k == TRN_COMPUTE_32F)) ||
             (ct == TRN_DTYPE_R32F && k == TRN_COMPUTE_32F);
        break;
    case TRN_DTYPE_R16BF:
        ok = (ct == TRN_DTYPE_R16BF || ct == TRN_DTYPE_R32F) && k == TRN_COMPUTE_32F;
        break;
    case TRN_DTYPE_R8I:
        ok = (ct == TRN_DTYPE_R32I && k == TRN_COMPUTE_32I) ||
             (ct == TRN_DTYPE_R32F && k == TRN_COMPUTE_32F);
        break;
    case TRN_DTYPE_C8I: ok = ct == TRN_DTYPE_C32F && k == TRN_COMPUTE_32F; break;
    default: break;
    }
    if (!ok) {
        trn_vmsg(vx,
                 "gemm: A and B in %s, C in %s with compute type %d is not supported (R_16F: C "
                 "R_16F with COMPUTE_16F or 32F, or R_32F with 32F; R_16BF: C R_16BF or R_32F with "
                 "32F; R_8I: C R_32I with 32I or R_32F with 32F; C_8I: C C_32F with 32F)",
                 dtype_name(ab), dtype_name(ct), (int)c);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    *out = k;
    return TRN_WIRE_OK;
}

/* COMPUTE_32I's scalars are int32 values: refused unless integers in range
 * (the kernel converts them without a check). */
static int int32_scalar(double v) {
    return v >= -2147483648.0 && v <= 2147483647.0 && v == (double)(int64_t)v;
}

static int is32(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
}

/* The compute type for data type t; DEFAULT is t's own precision. */
static trn_wire_code compute_of(trn_vctx *vx, Trnsci__V1__ComputeType c, trn_dtype t,
                                trn_compute *out) {
    if (c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_16F || c == TRNSCI__V1__COMPUTE_TYPE__COMPUTE_32I) {
        trn_vmsg(vx, "gemm: compute type %d takes R_16F or R_8I data, not %s", (int)c,
                 dtype_name(t));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    const int bits = trn_vk_compute_bits(c);
    if (bits < 0) {
        trn_vmsg(vx, "gemm: compute type %d is not one of COMPUTE_DEFAULT .. COMPUTE_32F_FAST_16F",
                 (int)c);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (bits == 0) {
        *out = is32(t) ? TRN_COMPUTE_32F : TRN_COMPUTE_64F;
        return TRN_WIRE_OK;
    }
    if ((bits == 32) != is32(t)) {
        trn_vmsg(vx, "gemm: compute type %d is a %dF mode and takes %s data, not %s", (int)c, bits,
                 bits == 32 ? "R_32F or C_32F" : "R_64F or C_64F", dtype_name(t));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    *out = (trn_compute)c; /* the wire's values are trn_compute's */
    return TRN_WIRE_OK;
}

/* Strided batches: matrix b of C starts b*stride elements in, and overlaps
 * matrix 0 (so matrix b' overlaps b' + b) when b*stride = di + dj*ldc with
 * |di| < m, 0 <= dj < n. The search runs over b or over dj, whichever is
 * shorter; the caller has checked that the extent fits in a buffer, so
 * either loop is bounded by the elements of C (work the op does anyway). */
static int strided_c_overlap(const trn_gemm_desc *d, uint64_t *second) {
    if (d->batch < 2 || d->m == 0 || d->n == 0)
        return 0;
    const uint64_t m = (uint64_t)d->m, n = (uint64_t)d->n, ld = (uint64_t)d->ldc;
    const uint64_t s = d->stride_c, last = d->batch - 1;
    if (s == 0) {
        *second = 1;
        return 1;
    }
    const uint64_t span = (n - 1) * ld + m; /* elements from matrix 0's first to past its last */
    if (last <= n) {
        for (uint64_t b = 1; b <= last && b <= span / s; b++)
            if (trn_vk_matrices_collide(b * s, m, n, ld)) {
                *second = b;
                return 1;
            }
        return 0;
    }
    for (uint64_t dj = 0; dj < n; dj++) {
        /* The least b >= 1 with b*s >= dj*ld - (m-1), and whether it is <=
         * dj*ld + (m-1). */
        const uint64_t centre = dj * ld, lo = centre > m - 1 ? centre - (m - 1) : 0;
        uint64_t b = (lo + s - 1) / s;
        if (b == 0)
            b = 1;
        if (b <= last && b * s <= centre + (m - 1)) {
            *second = b;
            return 1;
        }
    }
    return 0;
}

static trn_wire_code check_stride(trn_vctx *vx, const char *name, int64_t v, size_t *out) {
    if (v < 0) {
        trn_vmsg(vx, "gemm: %s=%lld must be >= 0", name, (long long)v);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (size_t)v;
    return TRN_WIRE_OK;
}

/* The pointer-array form: resolves every listed matrix into the arrays of
 * `owned` memory the descriptor keeps. */
static trn_wire_code resolve_lists(trn_vctx *vx, const Trnsci__V1__GemmOp *g, trn_gemm_desc *out,
                                   int reads_ab, uint64_t a_bytes, uint64_t b_bytes,
                                   uint64_t c_bytes, uint64_t align_ab) {
    const size_t nb = out->batch;
    if (nb > TRNSCI_WIRE_MAX_POINTER_BATCH) {
        trn_vmsg(vx, "gemm: batch_count=%zu pointer-array matrices exceed %d per op", nb,
                 TRNSCI_WIRE_MAX_POINTER_BATCH);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (g->n_c_array != nb || (reads_ab && (g->n_a_array != nb || g->n_b_array != nb))) {
        trn_vmsg(vx,
                 "gemm: pointer arrays hold %zu (A), %zu (B) and %zu (C) matrices, not "
                 "batch_count=%zu",
                 g->n_a_array, g->n_b_array, g->n_c_array, nb);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    void **lists = trn_vowned(vx, 3 * (uint64_t)nb * sizeof(void *));
    if (nb && !lists) {
        trn_vmsg(vx, "gemm: daemon out of memory for %zu pointer-array matrices", nb);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    const uint64_t align = trn_vk_align(out->type);
    char what[48];
    trn_wire_code rc = TRN_WIRE_OK;
    for (size_t i = 0; i < nb && rc == TRN_WIRE_OK; i++) {
        if (reads_ab) {
            snprintf(what, sizeof(what), "gemm: Aarray[%zu]", i);
            rc = trn_vregion_many(vx, g->a_array[i], a_bytes, align_ab, what, &lists[i]);
            snprintf(what, sizeof(what), "gemm: Barray[%zu]", i);
            if (rc == TRN_WIRE_OK)
                rc = trn_vregion_many(vx, g->b_array[i], b_bytes, align_ab, what, &lists[nb + i]);
        }
        snprintf(what, sizeof(what), "gemm: Carray[%zu]", i);
        if (rc == TRN_WIRE_OK)
            rc = trn_vregion_many(vx, g->c_array[i], c_bytes, align, what, &lists[2 * nb + i]);
    }
    out->a_list = (const void *const *)lists;
    out->b_list = (const void *const *)(lists + nb);
    out->c_list = lists + 2 * nb;
    if (rc == TRN_WIRE_OK)
        rc = trn_vk_disjoint(vx, "gemm", "Carray", out->c_list, nb, (uint64_t)out->m,
                             (uint64_t)out->n, (uint64_t)out->ldc, trn_dtype_size(out->type));
    return rc;
}

static trn_wire_code validate_gemm(trn_vctx *vx, const Trnsci__V1__GemmOp *g, trn_gemm_desc *out) {
    *out = (trn_gemm_desc){.batch = 1};
    if (gemm_dtype(g->type, &out->type)) {
        trn_vmsg(vx,
                 "gemm: data type %d is not R_32F, R_64F, C_32F, C_64F, R_16F, R_16BF, R_8I, "
                 "R_32I or C_8I",
                 (int)g->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_dtype ab = out->type;
    if (g->ab_type != TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED && gemm_dtype(g->ab_type, &ab)) {
        trn_vmsg(vx,
                 "gemm: ab_type %d is not R_32F, R_64F, C_32F, C_64F, R_16F, R_16BF, R_8I, "
                 "R_32I or C_8I",
                 (int)g->ab_type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int narrow = ab != out->type || out->type >= TRN_DTYPE_R16F;
    if (ab != out->type)
        out->ab_type = ab;
    if (trn_vk_trans(g->transa, &out->transa) || trn_vk_trans(g->transb, &out->transb)) {
        trn_vmsg(vx, "gemm: transa=%d / transb=%d must be OP_N, OP_T or OP_C", (int)g->transa,
                 (int)g->transb);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (trn_vk_dim(vx, "gemm", "m", g->m, &out->m) || trn_vk_dim(vx, "gemm", "n", g->n, &out->n) ||
        trn_vk_dim(vx, "gemm", "k", g->k, &out->k))
        return TRN_WIRE_INVALID_ARGUMENT;
    int batch;
    if (trn_vk_dim(vx, "gemm", "batch_count", g->batch_count, &batch))
        return TRN_WIRE_INVALID_ARGUMENT;
    out->batch = batch > 1 ? (size_t)batch : 1;
    if (check_stride(vx, "stride_a", g->stride_a, &out->stride_a) ||
        check_stride(vx, "stride_b", g->stride_b, &out->stride_b) ||
        check_stride(vx, "stride_c", g->stride_c, &out->stride_c))
        return TRN_WIRE_INVALID_ARGUMENT;
    trn_wire_code rc = narrow ? narrow_compute(vx, g->compute_type, ab, out->type, &out->compute)
                              : compute_of(vx, g->compute_type, out->type, &out->compute);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (g->stochastic_rounding && out->compute != TRN_COMPUTE_32F_FAST_16BF &&
        out->compute != TRN_COMPUTE_32F_FAST_TF32) {
        trn_vmsg(vx,
                 "gemm: stochastic rounding applies to COMPUTE_32F_FAST_16BF and "
                 "COMPUTE_32F_FAST_TF32 only, not compute type %d",
                 (int)g->compute_type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->stochastic = g->stochastic_rounding ? 1 : 0;
    out->seed = g->rounding_seed;

    /* Stored shapes: A is rows_a × cols_a, B is rows_b × cols_b. */
    const int a_n = out->transa == TRN_TRANS_N;
    const int b_n = out->transb == TRN_TRANS_N;
    const int rows_a = a_n ? out->m : out->k, cols_a = a_n ? out->k : out->m;
    const int rows_b = b_n ? out->k : out->n, cols_b = b_n ? out->n : out->k;
    if (trn_vk_ld(vx, "gemm", "lda", g->lda, rows_a, a_n ? "m" : "k", &out->lda) ||
        trn_vk_ld(vx, "gemm", "ldb", g->ldb, rows_b, b_n ? "k" : "n", &out->ldb) ||
        trn_vk_ld(vx, "gemm", "ldc", g->ldc, out->m, "m", &out->ldc))
        return TRN_WIRE_INVALID_ARGUMENT;

    out->alpha = trn_vk_scalar(g->alpha);
    out->beta = trn_vk_scalar(g->beta);
    if (out->compute == TRN_COMPUTE_32I &&
        (!int32_scalar(out->alpha.re) || !int32_scalar(out->beta.re))) {
        trn_vmsg(vx, "gemm: COMPUTE_32I's alpha=%g and beta=%g must be int32 values", out->alpha.re,
                 out->beta.re);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const uint64_t es = trn_dtype_size(out->type), es_ab = trn_dtype_size(ab);
    const uint64_t align = trn_vk_align(out->type), align_ab = trn_vk_align(ab);
    const trn_dtype st = trn_gemm_scale_type(out);
    const uint64_t es_scale = trn_dtype_size(st), align_scale = trn_vk_align(st);
    const int alpha_dev = g->alpha_ptr && g->alpha_ptr->buffer_id;
    const int beta_dev = g->beta_ptr && g->beta_ptr->buffer_id;
    const int empty = out->m == 0 || out->n == 0;

    /* A and B are read only when there is a product to form (BLAS: "when
     * alpha is zero A and B need not be set"; a device-mode alpha is unknown
     * until the op runs, so A and B must then be valid); C whenever C is
     * non-empty. */
    const int reads_ab =
        !empty && out->k > 0 && (alpha_dev || out->alpha.re != 0.0 || out->alpha.im != 0.0);
    uint64_t a_bytes = 0, b_bytes = 0, c_bytes;
    if (reads_ab &&
        (ck_matrix_bytes((uint64_t)rows_a, (uint64_t)cols_a, (uint64_t)out->lda, es_ab, &a_bytes) ||
         ck_matrix_bytes((uint64_t)rows_b, (uint64_t)cols_b, (uint64_t)out->ldb, es_ab,
                         &b_bytes))) {
        trn_vmsg(vx, "gemm: the extent of A or B overflows 64 bits");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (ck_matrix_bytes((uint64_t)out->m, (uint64_t)out->n, (uint64_t)out->ldc, es, &c_bytes)) {
        trn_vmsg(vx, "gemm: the extent of C overflows 64 bits");
        return TRN_WIRE_INVALID_ARGUMENT;
    }

    /* Device-mode scalars (elements of the scale type), read only when C is
     * written. */
    void *p = NULL;
    if (!empty && alpha_dev) {
        rc = trn_vregion(vx, g->alpha_ptr, es_scale, align_scale, "gemm: alpha", &p);
        out->alpha_ptr = p;
    }
    if (rc == TRN_WIRE_OK && !empty && beta_dev) {
        rc = trn_vregion(vx, g->beta_ptr, es_scale, align_scale, "gemm: beta", &p);
        out->beta_ptr = p;
    }
    if (rc != TRN_WIRE_OK)
        return rc;

    const int listed = g->n_a_array || g->n_b_array || g->n_c_array;
    if (listed) {
        if ((g->a && g->a->buffer_id) || (g->b && g->b->buffer_id) || (g->c && g->c->buffer_id)) {
            trn_vmsg(vx, "gemm: a, b and c must be unset with pointer arrays");
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (empty)
            return TRN_WIRE_OK; /* nothing to write: the lists are not needed */
        return resolve_lists(vx, g, out, reads_ab, a_bytes, b_bytes, c_bytes, align_ab);
    }

    /* One GEMM or strided batches: each operand spans its matrices. */
    const uint64_t nb = out->batch;
    if (trn_vk_batch_bytes(a_bytes, nb, out->stride_a, es_ab, &a_bytes) ||
        trn_vk_batch_bytes(b_bytes, nb, out->stride_b, es_ab, &b_bytes) ||
        trn_vk_batch_bytes(c_bytes, nb, out->stride_c, es, &c_bytes)) {
        trn_vmsg(vx, "gemm: the extent of batch_count=%llu matrices overflows 64 bits",
                 (unsigned long long)nb);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    void *a = NULL, *b = NULL;
    if (reads_ab) {
        rc = trn_vregion(vx, g->a, a_bytes, align_ab, "gemm: A", &a);
        if (rc == TRN_WIRE_OK)
            rc = trn_vregion(vx, g->b, b_bytes, align_ab, "gemm: B", &b);
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vregion(vx, g->c, c_bytes, align, "gemm: C", &out->c);
    out->a = a;
    out->b = b;
    uint64_t second;
    if (rc == TRN_WIRE_OK && strided_c_overlap(out, &second)) {
        trn_vmsg(vx, "gemm: stride_c=%zu makes C matrices 0 and %llu overlap (m=%d, n=%d, ldc=%d)",
                 out->stride_c, (unsigned long long)second, out->m, out->n, out->ldc);
        rc = TRN_WIRE_INVALID_ARGUMENT;
    }
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(gemm, validate_gemm(vx, op->gemm, &out->u.gemm))
