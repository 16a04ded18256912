/*
 * sparse.c — argument rules of trnsparse's matrices and of SpMV and
 * SpMM, as cuSPARSE's generic API states them (CUSPARSE_STATUS_INVALID_VALUE
 * and NOT_SUPPORTED cases), plus the memory-safety checks cuSPARSE leaves to
 * the caller: every array of every operand must lie inside one of the
 * session's buffers, with extents computed in overflow-checked arithmetic.
 *
 * What is NOT checked here: the contents of row offsets and indices. The
 * client can rewrite them after Submit (shared memory, or a Write), so the
 * kernels check every offset and index they read (kernels/cpu/sparse_check.h).
 * What IS checked makes those kernel checks sufficient: every value an index
 * array can hold that passes the kernel's range test addresses memory inside
 * the arrays validated here.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ops/validate/sparse.h"

#include "ops/sparse_names.h"
#include "ops/validate/checked.h"

static uint64_t comp_size(trn_dtype t) {
    return trn_vk_align(t); /* 16-bit values (SpMV, SpMM): 2 */
}

static int format_of(Trnsci__V1__SparseFormat f, trn_sp_format *out) {
    switch (f) {
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSR: *out = TRN_SP_CSR; return 0;
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSC: *out = TRN_SP_CSC; return 0;
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_COO: *out = TRN_SP_COO; return 0;
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_BSR: *out = TRN_SP_BSR; return 0;
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_BLOCKED_ELL: *out = TRN_SP_BELL; return 0;
    case TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_SLICED_ELL: *out = TRN_SP_SELL; return 0;
    default: return -1;
    }
}

/* 0: int32, 1: int64, -1: not an index type this library takes. */
static int index_of(Trnsci__V1__SparseIndexType t) {
    switch (t) {
    case TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_32I: return 0;
    case TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_64I: return 1;
    default: return -1;
    }
}

/* One array of a sparse matrix: count elements of es bytes, aligned to
 * align, named "<fn>: <name> <array>". */
trn_wire_code trn_vsp_array(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t count,
                            uint64_t es, uint64_t align, const char *fn, const char *name,
                            const char *array, void **out) {
    /* The full name is made only for a message: a refused region has no
     * side effect, so checking again under it gives the same refusal. */
    if (trn_vk_array(vx, ref, count, es, align, fn, array, out) == TRN_WIRE_OK)
        return TRN_WIRE_OK;
    char operand[96];
    snprintf(operand, sizeof(operand), "%s %s", name, array);
    return trn_vk_array(vx, ref, count, es, align, fn, operand, out);
}

/* A value type: R_32F or R_64F, and C_32F or C_64F when complex_ok. The
 * 16-bit types are SpMV's and SpMM's alone (trn_vsp_spmm_dtype): here they
 * are a type the routine does not support, not an unknown one. */
static trn_wire_code value_type(trn_vctx *vx, const char *fn, const char *name,
                                Trnsci__V1__DataType w, int complex_ok, trn_dtype *out) {
    if (w == TRNSCI__V1__DATA_TYPE__R_16F || w == TRNSCI__V1__DATA_TYPE__R_16BF) {
        trn_vmsg(vx, "%s: %s: data type %d (%s) is supported by SpMV and SpMM only", fn, name,
                 (int)w, w == TRNSCI__V1__DATA_TYPE__R_16F ? "R_16F" : "R_16BF");
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (complex_ok && trn_vk_dtype(w, out) == 0)
        return TRN_WIRE_OK;
    return trn_vk_real_dtype(vx, fn, name, w, out);
}

trn_wire_code trn_vsp_matrix(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                             const char *name, unsigned formats, unsigned arrays, trn_sp_mat *out) {
    *out = (trn_sp_mat){0};
    if (!w) {
        trn_vmsg(vx, "%s: %s: no sparse matrix given", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_sp_format f;
    if (format_of(w->format, &f)) {
        trn_vmsg(vx,
                 "%s: %s: format %d is not CSR (1), CSC (2), COO (3), BLOCKED_ELL (5), BSR (6) "
                 "or SLICED_ELLPACK (7)",
                 fn, name, (int)w->format);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!(formats & TRN_VSP_FMT(f))) {
        trn_vmsg(vx, "%s: %s: %s matrices are not supported by this routine", fn, name,
                 trn_sp_format_name(f));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    trn_wire_code rc =
        (arrays & TRN_VSP_SPMM_TYPES)
            ? trn_vsp_spmm_dtype(vx, fn, name, w->type, &out->type)
            : value_type(vx, fn, name, w->type, arrays & TRN_VSP_COMPLEX, &out->type);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int it = index_of(w->index_type);
    const int ot = f == TRN_SP_COO ? it : index_of(w->offsets_type);
    if (it < 0 || ot < 0) {
        trn_vmsg(vx,
                 "%s: %s: index type %d (offsets %d) is not CUSPARSE_INDEX_32I (2) or "
                 "CUSPARSE_INDEX_64I (3)",
                 fn, name, (int)w->index_type, (int)w->offsets_type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (it != ot) {
        trn_vmsg(vx, "%s: %s: offsets and indices of different index types are not supported", fn,
                 name);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (w->index_base > 1) {
        trn_vmsg(vx, "%s: %s: index base %u is not 0 or 1", fn, name, w->index_base);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->format = f;
    out->idx64 = it;
    out->base = (int)w->index_base;
    out->batch = 1;
    if (f == TRN_SP_BELL || f == TRN_SP_SELL)
        return trn_vsp_ell(vx, w, fn, name, arrays, out);
    if ((w->batch_count > 1 || w->batch_count < 0) && !(arrays & TRN_VSP_BATCH)) {
        trn_vmsg(vx, "%s: %s: batch count %lld is %s", fn, name, (long long)w->batch_count,
                 w->batch_count < 0 ? "negative" : "not supported by this routine");
        return w->batch_count < 0 ? TRN_WIRE_INVALID_ARGUMENT : TRN_WIRE_UNIMPLEMENTED;
    }
    /* Every index and offset the arrays hold (index + base, up to nnz + base)
     * must be representable in the index type. */
    const int64_t limit = it ? INT64_MAX - 1 : INT32_MAX;
    const char *unit = f == TRN_SP_BSR ? " (blocks)" : "";
    if (w->rows < 0 || w->cols < 0 || w->nnz < 0 || w->rows > limit || w->cols > limit ||
        w->nnz > limit - out->base) {
        trn_vmsg(vx,
                 "%s: %s: rows=%lld, cols=%lld, nnz=%lld%s must be >= 0 and fit the %s index "
                 "type with base %d",
                 fn, name, (long long)w->rows, (long long)w->cols, (long long)w->nnz, unit,
                 it ? "64-bit" : "32-bit", out->base);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->brows = w->rows;
    out->bcols = w->cols;
    out->nnz = w->nnz;
    out->rb = out->cb = 1;
    if (f == TRN_SP_BSR) {
        if (w->row_block < 1 || w->col_block < 1 || w->row_block > INT32_MAX ||
            w->col_block > INT32_MAX) {
            trn_vmsg(vx, "%s: %s: block size %lld x %lld must be >= 1 and fit in int", fn, name,
                     (long long)w->row_block, (long long)w->col_block);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (w->block_order != TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_UNSPECIFIED &&
            w->block_order != TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_COL &&
            w->block_order != TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_ROW) {
            trn_vmsg(vx, "%s: %s: block order %d is not COL (1) or ROW (2)", fn, name,
                     (int)w->block_order);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        out->rb = w->row_block;
        out->cb = w->col_block;
        out->block_row_major = w->block_order == TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_ROW;
    }
    uint64_t rows, cols;
    if (ck_mul((uint64_t)w->rows, (uint64_t)out->rb, &rows) ||
        ck_mul((uint64_t)w->cols, (uint64_t)out->cb, &cols) || rows > INT64_MAX ||
        cols > INT64_MAX) {
        trn_vmsg(vx, "%s: %s: %lld x %lld blocks of %lld x %lld overflow 64 bits", fn, name,
                 (long long)w->rows, (long long)w->cols, (long long)out->rb, (long long)out->cb);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->rows = (int64_t)rows;
    out->cols = (int64_t)cols;
    if (!arrays)
        return TRN_WIRE_OK;

    const uint64_t isz = it ? 8 : 4;
    const uint64_t noff = f == TRN_SP_COO   ? 0
                          : f == TRN_SP_CSC ? (uint64_t)w->cols + 1
                                            : (uint64_t)w->rows + 1;
    uint64_t nval;
    if (ck_mul((uint64_t)w->nnz, (uint64_t)out->rb * (uint64_t)out->cb, &nval)) {
        trn_vmsg(vx, "%s: %s: %lld blocks of %lld x %lld overflow 64 bits", fn, name,
                 (long long)w->nnz, (long long)out->rb, (long long)out->cb);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    uint64_t noff_all = noff, nnz_all = (uint64_t)w->nnz, nval_all = nval;
    if (w->batch_count > 1) {
        rc = trn_vsp_batch(vx, w, fn, name, f, noff, nval, &noff_all, &nnz_all, &nval_all, out);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if ((arrays & TRN_VSP_OFFSETS) && f != TRN_SP_COO)
        rc = trn_vsp_array(vx, w->offsets, noff_all, isz, isz, fn, name,
                           trn_sp_array_name(f, TRN_SP_OFFSETS), &out->offsets);
    if (rc == TRN_WIRE_OK && (arrays & TRN_VSP_INDICES))
        rc = trn_vsp_array(vx, w->indices, nnz_all, isz, isz, fn, name,
                           trn_sp_array_name(f, TRN_SP_INDICES), &out->indices);
    if (rc == TRN_WIRE_OK && (arrays & TRN_VSP_ROWIND) && f == TRN_SP_COO)
        rc = trn_vsp_array(vx, w->row_indices, nnz_all, isz, isz, fn, name,
                           trn_sp_array_name(f, TRN_SP_ROWIND), &out->rowind);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (arrays & TRN_VSP_VALUES) {
        const uint64_t es = trn_dtype_size(out->type);
        rc = trn_vsp_array(vx, w->values, nval_all, es, comp_size(out->type), fn, name,
                           trn_sp_array_name(f, TRN_SP_VALUES), &out->values);
    }
    return rc;
}

trn_wire_code trn_vsp_spmm_dtype(trn_vctx *vx, const char *fn, const char *name,
                                 Trnsci__V1__DataType t, trn_dtype *out) {
    switch (t) {
    case TRNSCI__V1__DATA_TYPE__R_16F: *out = TRN_DTYPE_R16F; return TRN_WIRE_OK;
    case TRNSCI__V1__DATA_TYPE__R_16BF: *out = TRN_DTYPE_R16BF; return TRN_WIRE_OK;
    default: break;
    }
    if (trn_vk_dtype(t, out) == 0)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: %s: data type %d is not R_32F, R_64F, C_32F, C_64F, R_16F or R_16BF", fn,
             name, (int)t);
    return TRN_WIRE_INVALID_ARGUMENT;
}

static const char *type_name(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return "R_32F";
    case TRN_DTYPE_R64F: return "R_64F";
    case TRN_DTYPE_C32F: return "C_32F";
    case TRN_DTYPE_C64F: return "C_64F";
    case TRN_DTYPE_R16F: return "R_16F";
    case TRN_DTYPE_R16BF: return "R_16BF";
    default: return "?";
    }
}

/* A dense operand's data type, which must be `type` (the sparse matrix's). */
static trn_wire_code same_type(trn_vctx *vx, const char *fn, const char *name,
                               Trnsci__V1__DataType w, trn_dtype type) {
    trn_dtype t;
    /* 16-bit types come from SpMV/SpMM only. */
    const trn_wire_code rc = type == TRN_DTYPE_R16F || type == TRN_DTYPE_R16BF
                                 ? trn_vsp_spmm_dtype(vx, fn, name, w, &t)
                                 : value_type(vx, fn, name, w, trn_dtype_is_complex(type), &t);
    if (rc != TRN_WIRE_OK || t == type)
        return rc;
    trn_vmsg(vx, "%s: %s: its data type must be the sparse matrix's (%s)", fn, name,
             type_name(type));
    return TRN_WIRE_UNIMPLEMENTED;
}

static int order_of(Trnsci__V1__SparseOrder o, int *row_major) {
    switch (o) {
    case TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_UNSPECIFIED:
    case TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_COL: *row_major = 0; return 0;
    case TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_ROW: *row_major = 1; return 0;
    default: return -1;
    }
}

trn_wire_code trn_vsp_dense(trn_vctx *vx, const Trnsci__V1__DenseMatrix *w, const char *fn,
                            const char *name, trn_dtype type, int allow_batch, int resolve,
                            trn_dn_mat *out) {
    *out = (trn_dn_mat){0};
    if (!w) {
        trn_vmsg(vx, "%s: %s: no dense matrix given", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const trn_dtype t = type;
    trn_wire_code rc = same_type(vx, fn, name, w->type, type);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (order_of(w->order, &out->row_major)) {
        trn_vmsg(vx, "%s: %s: order %d is not COL (1) or ROW (2)", fn, name, (int)w->order);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (w->rows < 0 || w->cols < 0) {
        trn_vmsg(vx, "%s: %s: rows=%lld, cols=%lld must be >= 0", fn, name, (long long)w->rows,
                 (long long)w->cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int64_t inner = out->row_major ? w->cols : w->rows;
    const int64_t outer = out->row_major ? w->rows : w->cols;
    const int64_t need = inner > 1 ? inner : 1;
    if (w->ld < need) {
        trn_vmsg(vx, "%s: %s: ld=%lld must be >= max(1, %s) = %lld", fn, name, (long long)w->ld,
                 out->row_major ? "cols" : "rows", (long long)need);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    int64_t batch = w->batch_count > 1 ? w->batch_count : 1;
    if (w->batch_count < 0 || (batch > 1 && !allow_batch)) {
        trn_vmsg(vx, "%s: %s: batch count %lld is %s", fn, name, (long long)w->batch_count,
                 w->batch_count < 0 ? "negative" : "not supported here");
        return w->batch_count < 0 ? TRN_WIRE_INVALID_ARGUMENT : TRN_WIRE_UNIMPLEMENTED;
    }
    const uint64_t es = trn_dtype_size(t);
    uint64_t one, span = 0, total;
    if (ck_matrix_bytes((uint64_t)inner, (uint64_t)outer, (uint64_t)w->ld, es, &one)) {
        trn_vmsg(vx, "%s: %s: its extent overflows 64 bits", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    span = one / es;
    total = one;
    if (batch > 1 && one > 0) {
        if (w->batch_stride < 0 || (uint64_t)w->batch_stride < span) {
            trn_vmsg(vx, "%s: %s: batch stride %lld must be >= the %llu elements one matrix spans",
                     fn, name, (long long)w->batch_stride, (unsigned long long)span);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (trn_vk_batch_bytes(one, (uint64_t)batch, (uint64_t)w->batch_stride, es, &total)) {
            trn_vmsg(vx, "%s: %s: the extent of %lld batched matrices overflows 64 bits", fn, name,
                     (long long)batch);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    out->type = t;
    out->rows = w->rows;
    out->cols = w->cols;
    out->ld = w->ld;
    out->batch = batch;
    out->stride = batch > 1 ? w->batch_stride : 0;
    if (!resolve)
        return TRN_WIRE_OK;
    return trn_vregion_named(vx, w->values, total, comp_size(t), fn, name, &out->values);
}

trn_wire_code trn_vsp_vector(trn_vctx *vx, const Trnsci__V1__DenseVector *w, const char *fn,
                             const char *name, trn_dtype type, int64_t size, int resolve,
                             trn_dn_mat *out) {
    *out = (trn_dn_mat){0};
    if (!w) {
        trn_vmsg(vx, "%s: %s: no dense vector given", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const trn_dtype t = type;
    trn_wire_code rc = same_type(vx, fn, name, w->type, type);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (w->size < 0 || (size >= 0 && w->size != size)) {
        if (size >= 0)
            trn_vmsg(vx, "%s: %s: size %lld must be %lld", fn, name, (long long)w->size,
                     (long long)size);
        else
            trn_vmsg(vx, "%s: %s: size %lld must be >= 0", fn, name, (long long)w->size);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->type = t;
    out->rows = w->size;
    out->cols = 1;
    out->ld = w->size > 1 ? w->size : 1;
    out->batch = 1;
    if (!resolve)
        return TRN_WIRE_OK;
    return trn_vsp_array(vx, w->values, (uint64_t)w->size, trn_dtype_size(t), comp_size(t), fn,
                         name, "values", &out->values);
}

trn_wire_code trn_vsp_op(trn_vctx *vx, const char *fn, const char *name, Trnsci__V1__Operation op,
                         trn_trans *out) {
    switch (op) {
    case TRNSCI__V1__OPERATION__OP_N: *out = TRN_TRANS_N; return TRN_WIRE_OK;
    case TRNSCI__V1__OPERATION__OP_T:
    case TRNSCI__V1__OPERATION__OP_C: *out = TRN_TRANS_T; return TRN_WIRE_OK;
    default:
        trn_vmsg(vx, "%s: %s=%d is not NON_TRANSPOSE, TRANSPOSE or CONJUGATE_TRANSPOSE", fn, name,
                 (int)op);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
}

trn_wire_code trn_vsp_compute(trn_vctx *vx, const char *fn, Trnsci__V1__DataType compute,
                              trn_dtype type) {
    trn_dtype t;
    const trn_wire_code rc =
        value_type(vx, fn, "computeType", compute, trn_dtype_is_complex(type), &t);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (t != type) {
        trn_vmsg(vx, "%s: computeType must be the matrices' type (%s)", fn, type_name(type));
        return TRN_WIRE_UNIMPLEMENTED;
    }
    return TRN_WIRE_OK;
}

static double scalar_re(const Trnsci__V1__Scalar *s) {
    return s ? s->re : 0.0;
}

static double scalar_im(const Trnsci__V1__Scalar *s) {
    return s ? s->im : 0.0;
}

/* computeType of an SpMV/SpMM on values of `type`: the type itself for
 * real and complex values, R_32F for 16-bit ones (cuSPARSE's tables). */
static trn_wire_code spmm_compute(trn_vctx *vx, const char *fn, Trnsci__V1__DataType compute,
                                  trn_dtype type) {
    trn_dtype t;
    const trn_wire_code rc = trn_vsp_spmm_dtype(vx, fn, "computeType", compute, &t);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int half = type == TRN_DTYPE_R16F || type == TRN_DTYPE_R16BF;
    if (t == (half ? TRN_DTYPE_R32F : type))
        return TRN_WIRE_OK;
    if (type == TRN_DTYPE_R32F || type == TRN_DTYPE_R64F)
        trn_vmsg(vx, "%s: computeType must be the matrices' type (%s)", fn, type_name(type));
    else
        trn_vmsg(vx, "%s: computeType must be %s for %s values", fn,
                 half ? "R_32F" : type_name(type), type_name(type));
    return TRN_WIRE_UNIMPLEMENTED;
}

/* The complex parts of an SpMV/SpMM (after A's type is known): alpha's and
 * beta's imaginary parts and the conjugations, all 0 for real values. */
static void spmm_complex(trn_spmm_desc *d, const Trnsci__V1__Scalar *alpha,
                         const Trnsci__V1__Scalar *beta, Trnsci__V1__Operation op_a,
                         Trnsci__V1__Operation op_b) {
    if (!trn_dtype_is_complex(d->a.type)) {
        d->alpha_im = d->beta_im = 0.0;
        return;
    }
    d->alpha_im = scalar_im(alpha);
    d->beta_im = scalar_im(beta);
    d->conj_a = op_a == TRNSCI__V1__OPERATION__OP_C;
    d->conj_b = op_b == TRNSCI__V1__OPERATION__OP_C;
}

#define ALL_FORMATS                                                                                \
    (TRN_VSP_FMT(TRN_SP_CSR) | TRN_VSP_FMT(TRN_SP_CSC) | TRN_VSP_FMT(TRN_SP_COO) |                 \
     TRN_VSP_FMT(TRN_SP_BSR))
#define ELL_FORMATS (TRN_VSP_FMT(TRN_SP_BELL) | TRN_VSP_FMT(TRN_SP_SELL))

/* Blocked-ELL and Sliced-ELL: op(A) = A only (cuSPARSE's rule too). */
static trn_wire_code ell_op(trn_vctx *vx, const char *fn, const trn_spmm_desc *d) {
    if ((d->a.format != TRN_SP_BELL && d->a.format != TRN_SP_SELL) || d->op_a == TRN_TRANS_N)
        return TRN_WIRE_OK;
    trn_vmsg(vx, "%s: opA must be NON_TRANSPOSE for a %s matA", fn,
             trn_sp_format_name(d->a.format));
    return TRN_WIRE_UNIMPLEMENTED;
}

static trn_wire_code validate_spmv(trn_vctx *vx, const Trnsci__V1__SpMVOp *w, trn_spmm_desc *out) {
    const char *fn = "spmv";
    *out = (trn_spmm_desc){0};
    trn_wire_code rc = trn_vsp_op(vx, fn, "opA", w->op_a, &out->op_a);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->alpha = scalar_re(w->alpha);
    out->beta = scalar_re(w->beta);
    /* alpha's imaginary part counts only for complex values (known below). */
    const int reads_a = out->alpha != 0.0 || scalar_im(w->alpha) != 0.0;
    rc = trn_vsp_matrix(vx, w->a, fn, "matA", ALL_FORMATS | ELL_FORMATS,
                        (reads_a ? TRN_VSP_ALL : 0) | TRN_VSP_SPMM_TYPES, &out->a);
    if (rc == TRN_WIRE_OK)
        rc = spmm_compute(vx, fn, w->compute_type, out->a.type);
    if (rc == TRN_WIRE_OK)
        rc = ell_op(vx, fn, out);
    if (rc != TRN_WIRE_OK)
        return rc;
    spmm_complex(out, w->alpha, w->beta, w->op_a, TRNSCI__V1__OPERATION__OP_N);
    const int n = out->op_a == TRN_TRANS_N;
    const int64_t m = n ? out->a.rows : out->a.cols, k = n ? out->a.cols : out->a.rows;
    rc = trn_vsp_vector(vx, w->x, fn, "vecX", out->a.type, k, reads_a, &out->b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_vector(vx, w->y, fn, "vecY", out->a.type, m, 1, &out->c);
    return rc;
}

static trn_wire_code validate_spmm(trn_vctx *vx, const Trnsci__V1__SpMMOp *w, trn_spmm_desc *out) {
    const char *fn = w->row_bounds || w->col_bounds ? "spmm (screened)" : "spmm";
    *out = (trn_spmm_desc){0};
    trn_trans opb;
    trn_wire_code rc = trn_vsp_op(vx, fn, "opA", w->op_a, &out->op_a);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_op(vx, fn, "opB", w->op_b, &opb);
    if (rc != TRN_WIRE_OK)
        return rc;
    if ((w->row_bounds || w->col_bounds) && out->op_a != TRN_TRANS_N) {
        trn_vmsg(vx, "%s: opA must be NON_TRANSPOSE", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    out->alpha = scalar_re(w->alpha);
    out->beta = scalar_re(w->beta);
    const int screened = w->row_bounds || w->col_bounds;
    /* alpha's imaginary part counts only for complex values (screening
     * takes real ones only). */
    const int reads_a = out->alpha != 0.0 || (!screened && scalar_im(w->alpha) != 0.0);
    if (w->one_row) { /* gemvi: a COO row without row indices, op N, no batch */
        if (screened || !w->a || w->a->format != TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_COO ||
            w->a->rows != 1 || out->op_a != TRN_TRANS_N) {
            trn_vmsg(vx, "%s: one_row needs an unscreened COO matA with rows = 1 and opA N", fn);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        out->one_row = 1;
    }
    const unsigned arrays = !reads_a       ? 0
                            : out->one_row ? TRN_VSP_INDICES | TRN_VSP_VALUES
                                           : TRN_VSP_ALL;
    rc = trn_vsp_matrix(vx, w->a, fn, "matA", screened ? ALL_FORMATS : ALL_FORMATS | ELL_FORMATS,
                        arrays | (screened || out->one_row ? 0 : TRN_VSP_BATCH) |
                            (screened ? 0 : TRN_VSP_SPMM_TYPES),
                        &out->a);
    if (rc == TRN_WIRE_OK)
        rc = spmm_compute(vx, fn, w->compute_type, out->a.type);
    if (rc == TRN_WIRE_OK)
        rc = ell_op(vx, fn, out);
    if (rc == TRN_WIRE_OK)
        spmm_complex(out, w->alpha, w->beta, w->op_a, w->op_b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->b, fn, "matB", out->a.type, !screened, reads_a, &out->b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_dense(vx, w->c, fn, "matC", out->a.type, !screened, 1, &out->c);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* A strided batch (cuSPARSE: C_i = A_i B_i, A broadcast when its batch
     * count is 1, B likewise): C's count is the batch's. */
    if ((out->a.batch != 1 && out->a.batch != out->c.batch) ||
        (out->b.batch != 1 && out->b.batch != out->c.batch) ||
        (out->c.batch > 1 && out->a.batch == 1 && out->b.batch == 1)) {
        trn_vmsg(vx,
                 "%s: batch counts do not match: matA %lld, matB %lld, matC %lld (matA and matB "
                 "must each have 1 or matC's, and one of them matC's when it is > 1)",
                 fn, (long long)out->a.batch, (long long)out->b.batch, (long long)out->c.batch);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (opb == TRN_TRANS_T) { /* op(B) = B^T is B read in the other order */
        const int64_t r = out->b.rows;
        out->b.rows = out->b.cols;
        out->b.cols = r;
        out->b.row_major = !out->b.row_major;
    }
    const int n = out->op_a == TRN_TRANS_N;
    const int64_t m = n ? out->a.rows : out->a.cols, k = n ? out->a.cols : out->a.rows;
    if (out->b.rows != k || out->c.rows != m || out->c.cols != out->b.cols) {
        trn_vmsg(vx,
                 "%s: shapes do not match: op(A) is %lld x %lld, op(B) %lld x %lld, C %lld x %lld",
                 fn, (long long)m, (long long)k, (long long)out->b.rows, (long long)out->b.cols,
                 (long long)out->c.rows, (long long)out->c.cols);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!w->row_bounds && !w->col_bounds)
        return TRN_WIRE_OK;
    /* trnsparseSpMMScreened: bounds per (block) row and column of A. */
    if (!w->row_bounds || !w->col_bounds) {
        trn_vmsg(vx, "%s: rowBounds and colBounds must both be given", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (isnan(w->threshold)) {
        trn_vmsg(vx, "%s: threshold is NaN", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_dn_mat rb, cb;
    rc =
        trn_vsp_vector(vx, w->row_bounds, fn, "rowBounds", out->a.type, out->a.brows, reads_a, &rb);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsp_vector(vx, w->col_bounds, fn, "colBounds", out->a.type, out->a.bcols, reads_a,
                            &cb);
    if (rc != TRN_WIRE_OK)
        return rc;
    /* Both bounds or neither: with alpha = 0 or an empty A nothing is
     * screened, and the kernel sees an unscreened op. */
    if (rb.values && cb.values) {
        out->row_bounds = rb.values;
        out->col_bounds = cb.values;
    }
    out->threshold = w->threshold;
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(spmv, validate_spmv(vx, op->spmv, &out->u.spmm))
TRN_VALIDATE_ENTRY(spmm, validate_spmm(vx, op->spmm, &out->u.spmm))
