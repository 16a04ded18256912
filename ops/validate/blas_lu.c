/*
 * blas_lu.c — argument rules of cuBLAS's batched LU and QR (BlasLuBatchedOp:
 * getrfBatched, getrsBatched, getriBatched, matinvBatched, geqrfBatched,
 * gelsBatched), as cuBLAS states them (CUBLAS_STATUS_INVALID_VALUE: m < 0,
 * n < 0, nrhs < 0, an unknown trans, a leading dimension below max(1, n)
 * (max(1, m) for the QR routines), matinvBatched with n > 32;
 * CUBLAS_STATUS_NOT_SUPPORTED, here UNIMPLEMENTED: gelsBatched with m < n
 * or a trans other than OP_N), and of trsmBatched (trsm's: side, uplo,
 * trans, diag, m, n >= 0, lda >= max(1, k) for A of order k, ldb >=
 * max(1, m)), plus the memory-safety checks cuBLAS leaves
 * to the caller: every listed matrix and tau vector, the pivot array (n
 * int32 per matrix) and the info array (one int32 per matrix) lie inside
 * the session's buffers.
 *
 * The batch is split over cores by matrices, so what one matrix's work
 * writes must not be touched by another's: the written matrices may not
 * share an element with one another (interleaved layouts that share none
 * are accepted, as for GEMM's Carray), and no written region (a written
 * matrix's extent, the pivots getrf writes, the info array) may intersect
 * a region another matrix's work reads or writes. cuBLAS leaves such
 * overlaps undefined; here they would race.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"
#include "ops/validate/kit.h"
#include "trnsci_wire.h"

#define BAD TRN_WIRE_INVALID_ARGUMENT

static const char *lu_name(trn_lu_fn fn) {
    switch (fn) {
    case TRN_LU_GETRF: return "getrfBatched";
    case TRN_LU_GETRS: return "getrsBatched";
    case TRN_LU_GETRI: return "getriBatched";
    case TRN_LU_MATINV: return "matinvBatched";
    case TRN_LU_GEQRF: return "geqrfBatched";
    case TRN_LU_GELS: return "gelsBatched";
    case TRN_LU_TRSM: return "trsmBatched";
    }
    return "LU batched";
}

static int lu_fn_of(Trnsci__V1__BlasLuFunction f, trn_lu_fn *out) {
    switch (f) {
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_GETRF: *out = TRN_LU_GETRF; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_GETRS: *out = TRN_LU_GETRS; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_GETRI: *out = TRN_LU_GETRI; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_MATINV: *out = TRN_LU_MATINV; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_GEQRF: *out = TRN_LU_GEQRF; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_GELS: *out = TRN_LU_GELS; return 0;
    case TRNSCI__V1__BLAS_LU_FUNCTION__LU_TRSM: *out = TRN_LU_TRSM; return 0;
    default: return -1;
    }
}

/* The QR routines' scalar arguments: m, n, lda (rows m), and gels's trans,
 * nrhs and ldc (rows m). What cuBLAS calls invalid is checked before what
 * it does not support (gels with m < n or a transpose). */
static trn_wire_code check_qr_shape(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                    trn_lu_batched_desc *out) {
    const char *fn = lu_name(out->fn);
    if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
        trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
        return BAD;
    out->trans = TRN_TRANS_N;
    out->nrhs = 0;
    out->ldc = 1;
    if (out->fn == TRN_LU_GEQRF)
        return TRN_WIRE_OK;
    if (trn_vk_trans(w->trans, &out->trans)) {
        trn_vmsg(vx, "%s: trans=%d is not OP_N, OP_T or OP_C", fn, (int)w->trans);
        return BAD;
    }
    if (trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs) ||
        trn_vk_ld(vx, fn, "ldc", w->ldc, out->m, "m", &out->ldc))
        return BAD;
    if (out->trans != TRN_TRANS_N) {
        trn_vmsg(vx, "%s: only trans=OP_N is supported (as cuBLAS's)", fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (out->m < out->n) {
        trn_vmsg(vx,
                 "%s: m=%d < n=%d: only overdetermined systems (m >= n) are supported (as "
                 "cuBLAS's)",
                 fn, out->m, out->n);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    return TRN_WIRE_OK;
}

/* trsmBatched's scalar arguments, trsm's rules: the descriptor's m and nrhs
 * are B's rows and columns (trsm's m and n), its n the order of A. */
static trn_wire_code check_trsm_shape(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                      trn_lu_batched_desc *out) {
    const char *fn = lu_name(out->fn);
    if (trn_vk_side(w->side, &out->side)) {
        trn_vmsg(vx, "%s: side=%d must be SIDE_LEFT or SIDE_RIGHT", fn, (int)w->side);
        return BAD;
    }
    if (trn_vk_uplo(w->uplo, &out->uplo)) {
        trn_vmsg(vx, "%s: uplo=%d must be FILL_MODE_LOWER or FILL_MODE_UPPER", fn, (int)w->uplo);
        return BAD;
    }
    if (trn_vk_trans(w->trans, &out->trans)) {
        trn_vmsg(vx, "%s: trans=%d must be OP_N, OP_T or OP_C", fn, (int)w->trans);
        return BAD;
    }
    if (!trn_dtype_is_complex(out->type) && out->trans == TRN_TRANS_C)
        out->trans = TRN_TRANS_T;
    if (trn_vk_diag(w->diag, &out->diag)) {
        trn_vmsg(vx, "%s: diag=%d must be DIAG_NON_UNIT or DIAG_UNIT", fn, (int)w->diag);
        return BAD;
    }
    if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->nrhs))
        return BAD;
    const int left = out->side == TRN_SIDE_LEFT;
    out->n = left ? out->m : out->nrhs;
    if (trn_vk_ld(vx, fn, "lda", w->lda, out->n, left ? "m" : "n", &out->lda) ||
        trn_vk_ld(vx, fn, "ldb", w->ldc, out->m, "m", &out->ldc))
        return BAD;
    out->alpha = trn_vk_scalar(w->alpha);
    return TRN_WIRE_OK;
}

/* The scalar arguments: function, type, n, nrhs, trans, lda, ldc. */
static trn_wire_code check_shape(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                 trn_lu_batched_desc *out) {
    if (lu_fn_of(w->function, &out->fn)) {
        trn_vmsg(vx, "LU batched: function %d is not GETRF .. GELS or TRSM", (int)w->function);
        return BAD;
    }
    const char *fn = lu_name(out->fn);
    if (trn_vk_dtype(w->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)w->type);
        return BAD;
    }
    if (out->fn == TRN_LU_GEQRF || out->fn == TRN_LU_GELS)
        return check_qr_shape(vx, w, out);
    if (out->fn == TRN_LU_TRSM)
        return check_trsm_shape(vx, w, out);
    if (trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
        trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda))
        return BAD;
    if (out->fn == TRN_LU_MATINV && out->n > TRN_LU_MATINV_MAX_N) {
        trn_vmsg(vx, "%s: n=%d must be <= %d (as cuBLAS's)", fn, out->n, TRN_LU_MATINV_MAX_N);
        return BAD;
    }
    out->m = out->n;
    out->nrhs = out->fn == TRN_LU_GETRS ? 0 : out->n;
    out->trans = TRN_TRANS_N;
    if (out->fn == TRN_LU_GETRS) {
        if (trn_vk_trans(w->trans, &out->trans)) {
            trn_vmsg(vx, "%s: trans=%d is not OP_N, OP_T or OP_C", fn, (int)w->trans);
            return BAD;
        }
        if (trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs))
            return BAD;
    }
    out->ldc = 1;
    if (out->fn != TRN_LU_GETRF &&
        trn_vk_ld(vx, fn, out->fn == TRN_LU_GETRS ? "ldb" : "ldc", w->ldc, out->n, "n", &out->ldc))
        return BAD;
    return TRN_WIRE_OK;
}

/* The batch: as many matrices in c as in a (none for getrf), at most
 * TRNSCI_WIRE_MAX_POINTER_BATCH per op. */
static trn_wire_code check_batch(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                 trn_lu_batched_desc *out) {
    const char *fn = lu_name(out->fn);
    if (w->n_a > TRNSCI_WIRE_MAX_POINTER_BATCH) {
        trn_vmsg(vx, "%s: %zu matrices exceed %u per op", fn, w->n_a,
                 TRNSCI_WIRE_MAX_POINTER_BATCH);
        return BAD;
    }
    const size_t want_c = out->fn == TRN_LU_GETRF || out->fn == TRN_LU_GEQRF ? 0 : w->n_a;
    if (w->n_c != want_c) {
        trn_vmsg(vx, "%s: %s lists %zu matrices but Aarray lists %zu", fn,
                 out->fn == TRN_LU_GETRS || out->fn == TRN_LU_TRSM ? "Barray" : "Carray", w->n_c,
                 w->n_a);
        return BAD;
    }
    const size_t want_tau = out->fn == TRN_LU_GEQRF ? w->n_a : 0;
    if (w->n_tau != want_tau) {
        trn_vmsg(vx, "%s: TauArray lists %zu vectors but %zu are expected", fn, w->n_tau, want_tau);
        return BAD;
    }
    out->batch = (int)w->n_a;
    return TRN_WIRE_OK;
}

/* The pivot and info arrays. Pivots are optional except for matinv, which
 * takes none; getrs has no info array (its info is the caller's). */
static trn_wire_code check_arrays(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                  trn_lu_batched_desc *out) {
    const char *fn = lu_name(out->fn);
    const int has_pivots = w->pivots && w->pivots->buffer_id != 0;
    const int has_info = w->info && w->info->buffer_id != 0;
    void *p = NULL;
    out->pivots = NULL;
    out->info = NULL;
    const int qr = out->fn == TRN_LU_GEQRF || out->fn == TRN_LU_GELS;
    if ((out->fn == TRN_LU_MATINV || out->fn == TRN_LU_TRSM || qr) && has_pivots) {
        trn_vmsg(vx, "%s: takes no pivot array", fn);
        return BAD;
    }
    if (has_pivots) {
        uint64_t count;
        if (ck_mul((uint64_t)out->n, (uint64_t)out->batch, &count)) {
            trn_vmsg(vx, "%s: the pivot array's extent overflows 64 bits", fn);
            return BAD;
        }
        if (trn_vk_array(vx, w->pivots, count, sizeof(int32_t), sizeof(int32_t), fn, "PivotArray",
                         &p))
            return BAD;
        out->pivots = p;
    }
    if (out->fn == TRN_LU_GETRS || out->fn == TRN_LU_GEQRF || out->fn == TRN_LU_TRSM) {
        if (has_info) {
            trn_vmsg(vx, "%s: takes no info array", fn);
            return BAD;
        }
        return TRN_WIRE_OK;
    }
    if (out->fn == TRN_LU_GELS && !has_info) /* devInfoArray is optional */
        return TRN_WIRE_OK;
    if (!has_info && out->batch > 0) {
        trn_vmsg(vx, "%s: infoArray is required", fn);
        return BAD;
    }
    if (trn_vk_array(vx, w->info, (uint64_t)out->batch, sizeof(int32_t), sizeof(int32_t), fn,
                     "infoArray", &p))
        return BAD;
    out->info = p;
    return TRN_WIRE_OK;
}

/* One region for the cross-matrix check: its bytes, and whether the op
 * writes it (written matrices are told apart, as they may interleave). */
typedef struct region {
    uintptr_t lo, hi;
    int writes; /* 1: written array, 2: written matrix of Aarray, 3: of Carray, 0: read */
    const char *name;
    size_t index;
} region;

static int by_start(const void *x, const void *y) {
    const uintptr_t a = ((const region *)x)->lo, b = ((const region *)y)->lo;
    return a < b ? -1 : a > b;
}

static void add(region *r, size_t *n, const void *p, uint64_t bytes, int writes, const char *name,
                size_t index) {
    if (p && bytes)
        r[(*n)++] = (region){(uintptr_t)p, (uintptr_t)p + bytes, writes, name, index};
}

/* No written region intersects another region, but for two written
 * matrices (trn_vk_disjoint judges those element by element). */
static trn_wire_code check_crossings(trn_vctx *vx, const trn_lu_batched_desc *d, uint64_t a_bytes,
                                     uint64_t c_bytes, uint64_t tau_bytes) {
    const char *fn = lu_name(d->fn);
    const size_t nb = (size_t)d->batch;
    region *r = malloc((3 * nb + 2) * sizeof(*r));
    if (!r) {
        trn_vmsg(vx, "%s: the daemon is out of memory for %zu matrices", fn, nb);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    const char *c_name = d->fn == TRN_LU_GETRS || d->fn == TRN_LU_TRSM ? "Barray" : "Carray";
    const int a_writes =
        d->fn == TRN_LU_GETRF || d->fn == TRN_LU_GEQRF || d->fn == TRN_LU_GELS ? 2 : 0;
    size_t n = 0;
    for (size_t i = 0; i < nb; i++) {
        add(r, &n, d->a[i], a_bytes, a_writes, "Aarray", i);
        if (d->c)
            add(r, &n, d->c[i], c_bytes, 3, c_name, i);
        if (d->tau)
            add(r, &n, d->tau[i], tau_bytes, 1, "TauArray", i);
    }
    add(r, &n, d->pivots, (uint64_t)d->n * nb * sizeof(int32_t), d->fn == TRN_LU_GETRF,
        "PivotArray", 0);
    add(r, &n, d->info, nb * sizeof(int32_t), 1, "infoArray", 0);
    qsort(r, n, sizeof(*r), by_start);
    trn_wire_code rc = TRN_WIRE_OK;
    for (size_t i = 0; i < n && rc == TRN_WIRE_OK; i++)
        for (size_t j = i + 1; j < n && r[j].lo < r[i].hi; j++) {
            /* Two written matrices of one list: judged by trn_vk_disjoint. */
            const int both_matrices = r[i].writes >= 2 && r[i].writes == r[j].writes;
            if ((!r[i].writes && !r[j].writes) || both_matrices)
                continue;
            trn_vmsg(vx, "%s: %s[%zu] and %s[%zu] overlap, and one of them is written", fn,
                     r[i].name, r[i].index, r[j].name, r[j].index);
            rc = BAD;
            break;
        }
    free(r);
    return rc;
}

static trn_wire_code validate_lu_batched(trn_vctx *vx, const Trnsci__V1__BlasLuBatchedOp *w,
                                         trn_lu_batched_desc *out) {
    *out = (trn_lu_batched_desc){0};
    trn_wire_code rc = check_shape(vx, w, out);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (check_batch(vx, w, out) || check_arrays(vx, w, out))
        return BAD;
    const char *fn = lu_name(out->fn);
    const int trsm = out->fn == TRN_LU_TRSM;
    if (trsm && (out->m == 0 || out->nrhs == 0 || out->batch == 0)) {
        out->batch = 0; /* nothing is read or written */
        return TRN_WIRE_OK;
    }
    /* trsm with a host alpha of 0 sets B to 0 without reading A (BLAS). */
    if (trsm && w->alpha_ptr && w->alpha_ptr->buffer_id) {
        rc = trn_vblas_dev_scalar(vx, w->alpha_ptr, out->type, 0, fn, "alpha", &out->alpha_ptr);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    const int reads_a = !trsm || out->alpha_ptr || !trn_vblas_is(&out->alpha, 0.0);
    const size_t nb = (size_t)out->batch;
    const uint64_t es = trn_dtype_size(out->type), al = trn_vk_align(out->type);
    /* The pointer arrays live as long as the references (vx->refs->owned). */
    void **ptrs = trn_vowned(vx, 3 * (uint64_t)nb * sizeof(void *));
    if (nb && !ptrs) {
        trn_vmsg(vx, "%s: the daemon is out of memory for %zu matrices", fn, nb);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    out->a = ptrs;
    out->c = out->fn == TRN_LU_GETRF || out->fn == TRN_LU_GEQRF ? NULL : ptrs + nb;
    out->tau = out->fn == TRN_LU_GEQRF ? ptrs + 2 * nb : NULL;
    const uint64_t k = (uint64_t)(out->m < out->n ? out->m : out->n);
    const uint64_t a_rows = (uint64_t)(trsm ? out->n : out->m); /* trsm: A is n x n */
    uint64_t a_bytes, c_bytes, tau_bytes;
    if (ck_matrix_bytes(a_rows, (uint64_t)out->n, (uint64_t)out->lda, es, &a_bytes) ||
        ck_matrix_bytes((uint64_t)out->m, (uint64_t)out->nrhs, (uint64_t)out->ldc, es, &c_bytes) ||
        ck_mul(k, es, &tau_bytes)) {
        trn_vmsg(vx, "%s: the extent of a matrix overflows 64 bits", fn);
        return BAD;
    }
    char what[64];
    const char *c_name = out->fn == TRN_LU_GETRS || trsm ? "Barray" : "Carray";
    for (size_t i = 0; i < nb && rc == TRN_WIRE_OK; i++) {
        snprintf(what, sizeof(what), "%s: Aarray[%zu]", fn, i);
        ptrs[i] = NULL;
        if (reads_a)
            rc = trn_vregion_many(vx, w->a[i], a_bytes, al, what, &ptrs[i]);
        if (rc == TRN_WIRE_OK && out->c) {
            snprintf(what, sizeof(what), "%s: %s[%zu]", fn, c_name, i);
            rc = trn_vregion_many(vx, w->c[i], c_bytes, al, what, &ptrs[nb + i]);
        }
        if (rc == TRN_WIRE_OK && out->tau) {
            snprintf(what, sizeof(what), "%s: TauArray[%zu]", fn, i);
            rc = trn_vregion_many(vx, w->tau[i], tau_bytes, al, what, &ptrs[2 * nb + i]);
        }
    }
    if (rc != TRN_WIRE_OK)
        return rc;
    const int a_written =
        out->fn == TRN_LU_GETRF || out->fn == TRN_LU_GEQRF || out->fn == TRN_LU_GELS;
    if (a_written)
        rc = trn_vk_disjoint(vx, fn, "Aarray", out->a, nb, (uint64_t)out->m, (uint64_t)out->n,
                             (uint64_t)out->lda, es);
    if (rc == TRN_WIRE_OK && out->c)
        rc = trn_vk_disjoint(vx, fn, c_name, out->c, nb, (uint64_t)out->m, (uint64_t)out->nrhs,
                             (uint64_t)out->ldc, es);
    return rc == TRN_WIRE_OK ? check_crossings(vx, out, a_bytes, c_bytes, tau_bytes) : rc;
}

/* The table's entry (ops/validate/validate.h). */
TRN_VALIDATE_ENTRY(lu_batched, validate_lu_batched(vx, op->lu_batched, &out->u.lu_batched))
