/*
 * blas2.c — argument rules of the trnblas Level 2 op (Blas2Op), as
 * cuBLAS and reference BLAS state them (the CUBLAS_STATUS_INVALID_VALUE
 * cases: an unknown trans, uplo or diag, FILL_MODE_FULL, m, n, kl, ku or k
 * < 0, lda too small (band storage: below k + 1), an increment of 0, a type
 * the routine does not have), plus the memory-safety checks cuBLAS
 * leaves to the caller: every operand the op may touch lies inside one of
 * the session's buffers (packed storage: n (n + 1) / 2 elements).
 *
 * A descriptor with m = n = 0 does nothing. What is touched follows reference BLAS's quick returns:
 * nothing for an empty shape; with alpha = 0 known here (host pointer mode) A and x are not read (y
 * = beta y only, and nothing at all when beta = 1) and the rank updates do nothing. A scalar given
 * by device pointer is read when the op runs, so its operands are checked as if it were not
 * special.
 */
#include <stdio.h>
#include <string.h>

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"

static const char *blas2_name(trn_blas2_fn fn) {
    switch (fn) {
    case TRN_BLAS2_GEMV: return "gemv";
    case TRN_BLAS2_GBMV: return "gbmv";
    case TRN_BLAS2_SYMV: return "symv";
    case TRN_BLAS2_HEMV: return "hemv";
    case TRN_BLAS2_TRMV: return "trmv";
    case TRN_BLAS2_TRSV: return "trsv";
    case TRN_BLAS2_GER: return "ger";
    case TRN_BLAS2_GERC: return "gerc";
    case TRN_BLAS2_SYR: return "syr";
    case TRN_BLAS2_SYR2: return "syr2";
    case TRN_BLAS2_HER: return "her";
    case TRN_BLAS2_HER2: return "her2";
    case TRN_BLAS2_TBMV: return "tbmv";
    case TRN_BLAS2_TBSV: return "tbsv";
    case TRN_BLAS2_TPMV: return "tpmv";
    case TRN_BLAS2_TPSV: return "tpsv";
    case TRN_BLAS2_SBMV: return "sbmv";
    case TRN_BLAS2_HBMV: return "hbmv";
    case TRN_BLAS2_SPMV: return "spmv";
    case TRN_BLAS2_HPMV: return "hpmv";
    case TRN_BLAS2_SPR: return "spr";
    case TRN_BLAS2_HPR: return "hpr";
    case TRN_BLAS2_SPR2: return "spr2";
    case TRN_BLAS2_HPR2: return "hpr2";
    }
    return "blas2";
}

/* The routine's arguments: which of trans/uplo/diag it takes, whether m is
 * its own (else the matrix is n x n), and which vectors and scalars. */
typedef struct blas2_shape {
    unsigned trans : 1, uplo : 1, diag : 1, has_m : 1, y : 1, beta : 1, alpha : 1, update : 1,
        complex_only : 1, real_only : 1, band : 1, packed : 1;
} blas2_shape;

static blas2_shape shape_of(trn_blas2_fn fn) {
    blas2_shape sh = {0};
    switch (fn) {
    case TRN_BLAS2_GEMV:
    case TRN_BLAS2_GBMV: sh.trans = sh.has_m = sh.y = sh.beta = sh.alpha = 1; break;
    case TRN_BLAS2_HEMV: sh.complex_only = 1; /* fall through */
    case TRN_BLAS2_SYMV: sh.uplo = sh.y = sh.beta = sh.alpha = 1; break;
    case TRN_BLAS2_TRMV:
    case TRN_BLAS2_TRSV: sh.trans = sh.uplo = sh.diag = 1; break;
    case TRN_BLAS2_GERC: sh.complex_only = 1; /* fall through */
    case TRN_BLAS2_GER: sh.has_m = sh.y = sh.alpha = sh.update = 1; break;
    case TRN_BLAS2_HER: sh.complex_only = 1; /* fall through */
    case TRN_BLAS2_SYR: sh.uplo = sh.alpha = sh.update = 1; break;
    case TRN_BLAS2_HER2: sh.complex_only = 1; /* fall through */
    case TRN_BLAS2_SYR2: sh.uplo = sh.y = sh.alpha = sh.update = 1; break;
    case TRN_BLAS2_TBMV:
    case TRN_BLAS2_TBSV: sh.trans = sh.uplo = sh.diag = sh.band = 1; break;
    case TRN_BLAS2_TPMV:
    case TRN_BLAS2_TPSV: sh.trans = sh.uplo = sh.diag = sh.packed = 1; break;
    case TRN_BLAS2_SBMV: sh.real_only = 1; /* fall through */
    case TRN_BLAS2_HBMV:
        sh.complex_only = fn == TRN_BLAS2_HBMV;
        sh.uplo = sh.y = sh.beta = sh.alpha = sh.band = 1;
        break;
    case TRN_BLAS2_SPMV: sh.real_only = 1; /* fall through */
    case TRN_BLAS2_HPMV:
        sh.complex_only = fn == TRN_BLAS2_HPMV;
        sh.uplo = sh.y = sh.beta = sh.alpha = sh.packed = 1;
        break;
    case TRN_BLAS2_SPR: sh.real_only = 1; /* fall through */
    case TRN_BLAS2_HPR:
        sh.complex_only = fn == TRN_BLAS2_HPR;
        sh.uplo = sh.alpha = sh.update = sh.packed = 1;
        break;
    case TRN_BLAS2_SPR2: sh.real_only = 1; /* fall through */
    case TRN_BLAS2_HPR2:
        sh.complex_only = fn == TRN_BLAS2_HPR2;
        sh.uplo = sh.y = sh.alpha = sh.update = sh.packed = 1;
        break;
    }
    return sh;
}

/* An increment: an int, and not 0 (cuBLAS and reference BLAS refuse 0). */
static trn_wire_code check_inc(trn_vctx *vx, const char *fn, const char *name, int64_t v,
                               int *out) {
    if (trn_vk_int(vx, fn, name, v, out))
        return TRN_WIRE_INVALID_ARGUMENT;
    if (*out == 0) {
        trn_vmsg(vx, "%s: %s=0 is not allowed (it must not be 0)", fn, name);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* Packed storage of an n x n triangle: n (n + 1) / 2 elements (AP). */
static trn_wire_code packed_region(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, trn_dtype t,
                                   int n, const char *fn, void **out) {
    uint64_t count, bytes;
    if (ck_mul((uint64_t)n, (uint64_t)n + 1, &count) ||
        ck_mul(count / 2, trn_dtype_size(t), &bytes)) {
        trn_vmsg(vx, "%s: the extent of AP (n=%d) overflows 64 bits", fn, n);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return trn_vregion_named(vx, ref, bytes, trn_vk_align(t), fn, "AP", out);
}

/* Enums and numbers: everything but the operands. */
static trn_wire_code check_args(trn_vctx *vx, const Trnsci__V1__Blas2Op *b, trn_blas2_desc *out,
                                const blas2_shape *sh, const char *fn) {
    if (trn_vk_dtype(b->type, &out->type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int cx = trn_dtype_is_complex(out->type);
    if (sh->complex_only && !cx) {
        trn_vmsg(vx, "%s: data type %d is not C_32F or C_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (sh->real_only && cx) {
        trn_vmsg(vx, "%s: data type %d is not R_32F or R_64F", fn, (int)b->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->trans = TRN_TRANS_N;
    if (sh->trans && trn_vk_trans(b->trans, &out->trans)) {
        trn_vmsg(vx, "%s: trans=%d must be OP_N, OP_T or OP_C", fn, (int)b->trans);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!cx && out->trans == TRN_TRANS_C)
        out->trans = TRN_TRANS_T; /* the same operation for real matrices */
    out->uplo = TRN_UPLO_LOWER;
    if (sh->uplo && trn_vk_uplo(b->uplo, &out->uplo)) {
        trn_vmsg(vx, "%s: uplo=%d must be FILL_MODE_LOWER or FILL_MODE_UPPER", fn, (int)b->uplo);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->diag = TRN_DIAG_NON_UNIT;
    if (sh->diag && trn_vk_diag(b->diag, &out->diag)) {
        trn_vmsg(vx, "%s: diag=%d must be DIAG_NON_UNIT or DIAG_UNIT", fn, (int)b->diag);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if ((sh->has_m && trn_vk_dim(vx, fn, "m", b->m, &out->m)) ||
        trn_vk_dim(vx, fn, "n", b->n, &out->n))
        return TRN_WIRE_INVALID_ARGUMENT;
    if (!sh->has_m)
        out->m = out->n;
    out->kl = out->ku = 0;
    if (out->fn == TRN_BLAS2_GBMV &&
        (trn_vk_dim(vx, fn, "kl", b->kl, &out->kl) || trn_vk_dim(vx, fn, "ku", b->ku, &out->ku)))
        return TRN_WIRE_INVALID_ARGUMENT;
    out->k = 0;
    if (sh->band && trn_vk_dim(vx, fn, "k", b->k, &out->k))
        return TRN_WIRE_INVALID_ARGUMENT;
    if (sh->band) {
        /* Band storage of a triangle: k + 1 rows (k < INT_MAX: k + 1 fits). */
        if (out->k == INT32_MAX) {
            trn_vmsg(vx, "%s: k + 1 = 2147483648 does not fit in int", fn);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (trn_vk_ld(vx, fn, "lda", b->lda, out->k + 1, "k + 1", &out->lda))
            return TRN_WIRE_INVALID_ARGUMENT;
    } else if (sh->packed) {
        out->lda = 1; /* packed storage has no leading dimension */
    } else if (out->fn == TRN_BLAS2_GBMV) {
        /* Band storage: kl + ku + 1 rows, each column's band. */
        const int64_t band = (int64_t)out->kl + out->ku + 1;
        if (band > INT32_MAX) {
            trn_vmsg(vx, "gbmv: kl + ku + 1 = %lld does not fit in int", (long long)band);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (trn_vk_ld(vx, fn, "lda", b->lda, (int)band, "kl + ku + 1", &out->lda))
            return TRN_WIRE_INVALID_ARGUMENT;
    } else if (trn_vk_ld(vx, fn, "lda", b->lda, out->m, sh->has_m ? "m" : "n", &out->lda)) {
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (check_inc(vx, fn, "incx", b->incx, &out->incx) ||
        (sh->y && check_inc(vx, fn, "incy", b->incy, &out->incy)))
        return TRN_WIRE_INVALID_ARGUMENT;
    if (!sh->y)
        out->incy = 1;
    /* Scalars: real types (and HER's alpha) have no imaginary part. */
    out->alpha = trn_vk_scalar(b->alpha);
    out->beta = trn_vk_scalar(b->beta);
    if (!cx || out->fn == TRN_BLAS2_HER || out->fn == TRN_BLAS2_HPR)
        out->alpha.im = 0.0;
    if (!cx)
        out->beta.im = 0.0;
    if (!sh->alpha)
        out->alpha = (trn_scalar){1.0, 0.0};
    if (!sh->beta)
        out->beta = (trn_scalar){0.0, 0.0};
    return TRN_WIRE_OK;
}

static trn_wire_code validate_blas2(trn_vctx *vx, const Trnsci__V1__Blas2Op *b,
                                    trn_blas2_desc *out) {
    memset(out, 0, sizeof(*out));
    if (b->function < TRNSCI__V1__BLAS2_FUNCTION__BLAS2_GEMV ||
        b->function > TRNSCI__V1__BLAS2_FUNCTION__BLAS2_HPR2) {
        trn_vmsg(vx, "blas2: function %d is not one of GEMV .. HPR2", (int)b->function);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->fn = (trn_blas2_fn)b->function; /* the wire enum's values are trn_blas2_fn's */
    const char *fn = blas2_name(out->fn);
    const blas2_shape sh = shape_of(out->fn);
    trn_wire_code rc = check_args(vx, b, out, &sh, fn);
    if (rc != TRN_WIRE_OK)
        return rc;

    if (out->m == 0 || out->n == 0) {
        out->m = out->n = 0; /* nothing is read or written */
        return TRN_WIRE_OK;
    }
    /* Known scalars that make operands unread (reference BLAS). */
    const int alpha_dev = sh.alpha && b->alpha_ptr && b->alpha_ptr->buffer_id;
    const int beta_dev = sh.beta && b->beta_ptr && b->beta_ptr->buffer_id;
    const int alpha0 = !alpha_dev && trn_vblas_is(&out->alpha, 0.0);
    const int beta1 = !beta_dev && trn_vblas_is(&out->beta, 1.0);
    if (alpha0 && (sh.update || beta1)) {
        out->m = out->n = 0; /* nothing is read or written */
        return TRN_WIRE_OK;
    }
    const trn_dtype t = out->type;
    rc = trn_vblas_dev_scalar(vx, alpha_dev ? b->alpha_ptr : NULL, t,
                              out->fn == TRN_BLAS2_HER || out->fn == TRN_BLAS2_HPR, fn, "alpha",
                              &out->alpha_ptr);
    if (rc == TRN_WIRE_OK)
        rc = trn_vblas_dev_scalar(vx, beta_dev ? b->beta_ptr : NULL, t, 0, fn, "beta",
                                  &out->beta_ptr);
    if (rc != TRN_WIRE_OK)
        return rc;
    const int reads_ax = !alpha0;

    /* Vector lengths: op(A) is m x n for gemv/gbmv (x has n elements and y
     * m without a transpose), x has m elements and y n for ger. */
    int xlen = out->n, ylen = out->n;
    if (out->fn == TRN_BLAS2_GEMV || out->fn == TRN_BLAS2_GBMV) {
        xlen = out->trans == TRN_TRANS_N ? out->n : out->m;
        ylen = out->trans == TRN_TRANS_N ? out->m : out->n;
    } else if (out->fn == TRN_BLAS2_GER || out->fn == TRN_BLAS2_GERC) {
        xlen = out->m;
    }
    const int arows = out->fn == TRN_BLAS2_GBMV ? out->kl + out->ku + 1
                      : sh.band                 ? out->k + 1
                                                : out->m;
    if (reads_ax && sh.packed)
        rc = packed_region(vx, b->a, t, out->n, fn, &out->a);
    else if (reads_ax)
        rc = trn_vblas_matrix(vx, b->a, t, arows, out->n, out->lda, fn, "A", &out->a);
    if (rc == TRN_WIRE_OK && reads_ax)
        rc = trn_vblas_vector(vx, b->x, t, xlen, out->incx, fn, "x", &out->x);
    if (rc == TRN_WIRE_OK && sh.y)
        rc = trn_vblas_vector(vx, b->y, t, ylen, out->incy, fn, "y", &out->y);
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(blas2, validate_blas2(vx, op->blas2, &out->u.blas2))
