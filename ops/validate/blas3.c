/*
 * blas3.c — argument rules of the trnblas Level 3 op (Blas3Op:
 * symm, hemm, syrk, herk, syr2k, her2k, trsm, trmm, geam, dgmm), as cuBLAS
 * and reference BLAS state them (the CUBLAS_STATUS_INVALID_VALUE cases: an
 * unknown side, uplo, trans or diag, FILL_MODE_FULL, a transpose the
 * routine does not take, m, n or k < 0, a leading dimension too small, geam's
 * improper in-place forms), plus the memory-safety checks cuBLAS leaves to
 * the caller: every operand the op may touch lies inside one of the
 * session's buffers.
 *
 * What is touched follows reference BLAS's quick returns: nothing for an
 * empty shape (the descriptor then has m = n = 0); with alpha = 0 known here
 * (host pointer mode) A and B are not read, and with beta = 1 too nothing is
 * done; syrk..her2k with k = 0 read neither A nor B; geam reads A only when
 * alpha != 0 and B only when beta != 0. A scalar given by device pointer is
 * read when the op runs, so its operands are checked as if it were not
 * special.
 *
 * In place: trsm overwrites B; trmm may be given C = B (then ldc must be
 * ldb); geam may be given C = A (ldc = lda, transa = OP_N) or C = B (ldc =
 * ldb, transb = OP_N) and refuses any other C equal to A or B, as cuBLAS
 * does; dgmm may be given C = A (ldc = lda). Other overlaps are the
 * caller's to avoid, as in cuBLAS (the results are then undefined, but no
 * memory outside the operands is touched).
 */
#include <stdio.h>
#include <string.h>

#include "ops/validate/blas.h"

static const char *blas3_name(trn_blas3_fn fn) {
    switch (fn) {
    case TRN_BLAS3_SYMM: return "symm";
    case TRN_BLAS3_HEMM: return "hemm";
    case TRN_BLAS3_SYRK: return "syrk";
    case TRN_BLAS3_HERK: return "herk";
    case TRN_BLAS3_SYR2K: return "syr2k";
    case TRN_BLAS3_HER2K: return "her2k";
    case TRN_BLAS3_TRSM: return "trsm";
    case TRN_BLAS3_TRMM: return "trmm";
    case TRN_BLAS3_GEAM: return "geam";
    case TRN_BLAS3_DGMM: return "dgmm";
    case TRN_BLAS3_SYRKX: return "syrkx";
    case TRN_BLAS3_HERKX: return "herkx";
    }
    return "blas3";
}

static int is_rank_k(trn_blas3_fn fn) {
    return fn == TRN_BLAS3_SYRK || fn == TRN_BLAS3_HERK || fn == TRN_BLAS3_SYR2K ||
           fn == TRN_BLAS3_HER2K || fn == TRN_BLAS3_SYRKX || fn == TRN_BLAS3_HERKX;
}

/* Enums and numbers: everything but the operands. */
static trn_wire_code check_enums(trn_vctx *vx, const Trnsci__V1__Blas3Op *b, trn_blas3_desc *out,
                                 const char *fn) {
    const trn_blas3_fn f = out->fn;
    if (trn_vk_dtype(b->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int cx = trn_dtype_is_complex(out->type);
    const int herm =
        f == TRN_BLAS3_HEMM || f == TRN_BLAS3_HERK || f == TRN_BLAS3_HER2K || f == TRN_BLAS3_HERKX;
    if (herm && !cx) {
        trn_vmsg(vx, "%s: data type %d is not C_32F or C_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int takes_side = f == TRN_BLAS3_SYMM || f == TRN_BLAS3_HEMM || f == TRN_BLAS3_TRSM ||
                           f == TRN_BLAS3_TRMM || f == TRN_BLAS3_DGMM;
    if (takes_side && trn_vk_side(b->side, &out->side)) {
        trn_vmsg(vx, "%s: side=%d must be SIDE_LEFT or SIDE_RIGHT", fn, (int)b->side);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int takes_uplo = f != TRN_BLAS3_GEAM && f != TRN_BLAS3_DGMM;
    if (takes_uplo && trn_vk_uplo(b->uplo, &out->uplo)) {
        trn_vmsg(vx, "%s: uplo=%d must be FILL_MODE_LOWER or FILL_MODE_UPPER", fn, (int)b->uplo);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int takes_trans =
        is_rank_k(f) || f == TRN_BLAS3_TRSM || f == TRN_BLAS3_TRMM || f == TRN_BLAS3_GEAM;
    if (takes_trans) {
        const char *name = f == TRN_BLAS3_GEAM ? "transa" : "trans";
        if (trn_vk_trans(b->transa, &out->transa)) {
            trn_vmsg(vx, "%s: %s=%d must be OP_N, OP_T or OP_C", fn, name, (int)b->transa);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        /* Reference BLAS: complex syrk/syr2k take N or T, herk/her2k N or
         * C; for real types C is T. */
        if (cx && (f == TRN_BLAS3_SYRK || f == TRN_BLAS3_SYR2K || f == TRN_BLAS3_SYRKX) &&
            out->transa == TRN_TRANS_C) {
            trn_vmsg(vx, "%s: trans=OP_C is not allowed for complex types (OP_N or OP_T)", fn);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if ((f == TRN_BLAS3_HERK || f == TRN_BLAS3_HER2K || f == TRN_BLAS3_HERKX) &&
            out->transa == TRN_TRANS_T) {
            trn_vmsg(vx, "%s: trans=OP_T is not allowed (OP_N or OP_C)", fn);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!cx && out->transa == TRN_TRANS_C)
            out->transa = TRN_TRANS_T;
    }
    if (f == TRN_BLAS3_GEAM) {
        if (trn_vk_trans(b->transb, &out->transb)) {
            trn_vmsg(vx, "geam: transb=%d must be OP_N, OP_T or OP_C", (int)b->transb);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (!cx && out->transb == TRN_TRANS_C)
            out->transb = TRN_TRANS_T;
    }
    if ((f == TRN_BLAS3_TRSM || f == TRN_BLAS3_TRMM) && trn_vk_diag(b->diag, &out->diag)) {
        trn_vmsg(vx, "%s: diag=%d must be DIAG_NON_UNIT or DIAG_UNIT", fn, (int)b->diag);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* Dimensions and leading dimensions. Stored shapes go to *ar x *ac (A) and
 * *br x *bc (B); C is m x n. */
static trn_wire_code check_dims(trn_vctx *vx, const Trnsci__V1__Blas3Op *b, trn_blas3_desc *out,
                                const char *fn, int *ar, int *ac, int *br, int *bc) {
    const trn_blas3_fn f = out->fn;
    if (is_rank_k(f)) {
        if (trn_vk_dim(vx, fn, "n", b->n, &out->n) || trn_vk_dim(vx, fn, "k", b->k, &out->k))
            return TRN_WIRE_INVALID_ARGUMENT;
        out->m = out->n;
    } else if (trn_vk_dim(vx, fn, "m", b->m, &out->m) || trn_vk_dim(vx, fn, "n", b->n, &out->n)) {
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int m = out->m, n = out->n, k = out->k;
    const int ka = out->side == TRN_SIDE_LEFT ? m : n; /* order of a side's A */
    const char *ka_name = out->side == TRN_SIDE_LEFT ? "m" : "n";
    const int an = out->transa == TRN_TRANS_N, bn = out->transb == TRN_TRANS_N;
    const char *a_rows = "m", *b_rows = NULL, *c_rows = "m";
    *br = *bc = 0;
    switch (f) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
        *ar = *ac = ka;
        a_rows = ka_name;
        *br = m, *bc = n, b_rows = "m";
        break;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
        *ar = an ? n : k, *ac = an ? k : n;
        a_rows = an ? "n" : "k";
        c_rows = "n";
        if (f != TRN_BLAS3_SYRK && f != TRN_BLAS3_HERK)
            *br = *ar, *bc = *ac, b_rows = a_rows;
        break;
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM:
        *ar = *ac = ka;
        a_rows = ka_name;
        *br = m, *bc = n, b_rows = "m";
        if (f == TRN_BLAS3_TRSM)
            c_rows = NULL;
        break;
    case TRN_BLAS3_GEAM:
        *ar = an ? m : n, *ac = an ? n : m;
        a_rows = an ? "m" : "n";
        *br = bn ? m : n, *bc = bn ? n : m;
        b_rows = bn ? "m" : "n";
        break;
    case TRN_BLAS3_DGMM: *ar = m, *ac = n; break;
    }
    if (trn_vk_ld(vx, fn, "lda", b->lda, *ar, a_rows, &out->lda) ||
        (b_rows && trn_vk_ld(vx, fn, "ldb", b->ldb, *br, b_rows, &out->ldb)) ||
        (c_rows && trn_vk_ld(vx, fn, "ldc", b->ldc, m, c_rows, &out->ldc)))
        return TRN_WIRE_INVALID_ARGUMENT;
    if (f == TRN_BLAS3_DGMM && trn_vk_int(vx, fn, "incx", b->incx, &out->incx))
        return TRN_WIRE_INVALID_ARGUMENT;
    return TRN_WIRE_OK;
}

/* cuBLAS's in-place rules (see the top of the file); 0 when they hold. */
static trn_wire_code check_in_place(trn_vctx *vx, const trn_blas3_desc *d) {
    switch (d->fn) {
    case TRN_BLAS3_TRMM:
        if (d->b && d->c == d->b && d->ldc != d->ldb) {
            trn_vmsg(vx, "trmm: C is B (in place) but ldc=%d differs from ldb=%d", d->ldc, d->ldb);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_BLAS3_GEAM:
        if (d->a && d->c == d->a && (d->ldc != d->lda || d->transa != TRN_TRANS_N)) {
            trn_vmsg(vx,
                     "geam: C is A (in place), which needs ldc = lda (%d, %d) and transa = OP_N",
                     d->ldc, d->lda);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (d->b && d->c == d->b && (d->ldc != d->ldb || d->transb != TRN_TRANS_N)) {
            trn_vmsg(vx,
                     "geam: C is B (in place), which needs ldc = ldb (%d, %d) and transb = OP_N",
                     d->ldc, d->ldb);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    case TRN_BLAS3_DGMM:
        if (d->c == d->a && d->ldc != d->lda) {
            trn_vmsg(vx, "dgmm: C is A (in place) but ldc=%d differs from lda=%d", d->ldc, d->lda);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        return TRN_WIRE_OK;
    default: break;
    }
    return TRN_WIRE_OK;
}

static trn_wire_code validate_blas3(trn_vctx *vx, const Trnsci__V1__Blas3Op *b,
                                    trn_blas3_desc *out) {
    memset(out, 0, sizeof(*out));
    if (b->function < TRNSCI__V1__BLAS3_FUNCTION__BLAS3_SYMM ||
        b->function > TRNSCI__V1__BLAS3_FUNCTION__BLAS3_HERKX) {
        trn_vmsg(vx, "blas3: function %d is not one of SYMM .. HERKX", (int)b->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->fn = (trn_blas3_fn)b->function; /* the wire enum's values are trn_blas3_fn's */
    const trn_blas3_fn f = out->fn;
    const char *fn = blas3_name(f);
    int ar = 0, ac = 0, br = 0, bc = 0;
    trn_wire_code rc = check_enums(vx, b, out, fn);
    if (rc == TRN_WIRE_OK)
        rc = check_dims(vx, b, out, fn, &ar, &ac, &br, &bc);
    if (rc != TRN_WIRE_OK)
        return rc;

    /* Scalars: HERK's alpha and beta and HER2K's beta are real; real types
     * have no imaginary parts. */
    const trn_dtype t = out->type;
    const int cx = trn_dtype_is_complex(t);
    const int alpha_real = f == TRN_BLAS3_HERK,
              beta_real = alpha_real || f == TRN_BLAS3_HER2K || f == TRN_BLAS3_HERKX;
    const int takes_beta = f != TRN_BLAS3_TRSM && f != TRN_BLAS3_TRMM && f != TRN_BLAS3_DGMM;
    out->alpha = trn_vk_scalar(b->alpha);
    out->beta = trn_vk_scalar(b->beta);
    if (!cx || alpha_real)
        out->alpha.im = 0.0;
    if (!cx || beta_real)
        out->beta.im = 0.0;
    if (f == TRN_BLAS3_DGMM)
        out->alpha = (trn_scalar){1.0, 0.0};
    if (!takes_beta)
        out->beta = (trn_scalar){0.0, 0.0};

    if (out->m == 0 || out->n == 0) {
        out->m = out->n = out->k = 0; /* nothing is read or written */
        return TRN_WIRE_OK;
    }
    const int alpha_dev = f != TRN_BLAS3_DGMM && b->alpha_ptr && b->alpha_ptr->buffer_id;
    const int beta_dev = takes_beta && b->beta_ptr && b->beta_ptr->buffer_id;
    const int alpha0 = !alpha_dev && trn_vblas_is(&out->alpha, 0.0);
    const int beta0 = !beta_dev && trn_vblas_is(&out->beta, 0.0);
    const int beta1 = !beta_dev && trn_vblas_is(&out->beta, 1.0);
    /* Whether A and B are read, and whether C (B for trsm) is touched. */
    int reads_a = !alpha0, reads_b = !alpha0, touches_c = 1;
    switch (f) {
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX:
        reads_a = reads_b = !alpha0 && out->k > 0;
        touches_c = reads_a || !beta1;
        reads_b = reads_b && f != TRN_BLAS3_SYRK && f != TRN_BLAS3_HERK;
        break;
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM: touches_c = !(alpha0 && beta1); break;
    case TRN_BLAS3_TRSM: reads_b = 1; break; /* B is the in/out matrix */
    case TRN_BLAS3_TRMM: break;
    case TRN_BLAS3_GEAM: reads_b = !beta0; break;
    case TRN_BLAS3_DGMM: reads_a = 1, reads_b = 0; break;
    }
    if (!touches_c) {
        out->m = out->n = out->k = 0;
        return TRN_WIRE_OK;
    }
    rc = trn_vblas_dev_scalar(vx, alpha_dev ? b->alpha_ptr : NULL, t, alpha_real, fn, "alpha",
                              &out->alpha_ptr);
    if (rc == TRN_WIRE_OK)
        rc = trn_vblas_dev_scalar(vx, beta_dev ? b->beta_ptr : NULL, t, beta_real, fn, "beta",
                                  &out->beta_ptr);
    void *a = NULL, *x = NULL;
    if (rc == TRN_WIRE_OK && reads_a)
        rc = trn_vblas_matrix(vx, b->a, t, ar, ac, out->lda, fn, "A", &a);
    if (rc == TRN_WIRE_OK && reads_b)
        rc = trn_vblas_matrix(vx, b->b, t, br, bc, out->ldb, fn, "B", &out->b);
    if (rc == TRN_WIRE_OK && f != TRN_BLAS3_TRSM)
        rc = trn_vblas_matrix(vx, b->c, t, out->m, out->n, out->ldc, fn, "C", &out->c);
    if (rc == TRN_WIRE_OK && f == TRN_BLAS3_DGMM)
        rc = trn_vblas_vector(vx, b->x, t, out->side == TRN_SIDE_LEFT ? out->m : out->n, out->incx,
                              fn, "x", &x);
    out->a = a;
    out->x = x;
    if (rc == TRN_WIRE_OK && check_in_place(vx, out))
        rc = TRN_WIRE_INVALID_ARGUMENT;
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(blas3, validate_blas3(vx, op->blas3, &out->u.blas3))
