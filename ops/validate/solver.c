/*
 * solver.c — argument rules of the trnsolver dense routines
 * (factorisations and solves, potrfBatched/potrsBatched, eigenvalue problems
 * and SVDs), as cuSOLVER and LAPACK state them (CUSOLVER_STATUS_INVALID_VALUE
 * cases), plus the memory-safety checks cuSOLVER leaves to the caller: every
 * operand must lie inside one of the session's buffers. `info` is required:
 * the kernel always writes it.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/solver.h"

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"

#define BAD TRN_WIRE_INVALID_ARGUMENT

trn_wire_code trn_vsolver_uplo(trn_vctx *vx, const char *fn, int64_t uplo, int *lower) {
    if (uplo != 0 && uplo != 1) {
        trn_vmsg(vx, "%s: uplo=%lld must be TRNBLAS_FILL_MODE_LOWER (0) or UPPER (1)", fn,
                 (long long)uplo);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *lower = uplo == 0;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vsolver_info(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                               int32_t **out) {
    char what[48];
    snprintf(what, sizeof(what), "%s: info", fn);
    void *p = NULL;
    const trn_wire_code rc = trn_vregion(vx, ref, sizeof(int32_t), sizeof(int32_t), what, &p);
    *out = p;
    return rc;
}

trn_wire_code trn_vsolver_stats(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                                trn_solver_stats **out) {
    char what[48];
    snprintf(what, sizeof(what), "%s: result", fn);
    void *p = NULL;
    *out = NULL;
    if (!ref || ref->buffer_id == 0)
        return TRN_WIRE_OK; /* optional */
    const trn_wire_code rc = trn_vregion(vx, ref, sizeof(trn_solver_stats), 8, what, &p);
    *out = p;
    return rc;
}

/* Real component size (the alignment a kernel may assume). */
static uint64_t comp_size(trn_dtype t) {
    return trn_vk_align(t);
}

/* ---- factorisations and solves ------------------------------------------------- */

/* The function, one of lo .. hi (`range` names them in the message), and
 * a known data type. */
static trn_wire_code fn_and_type(trn_vctx *vx, Trnsci__V1__SolverFunction f,
                                 Trnsci__V1__SolverFunction lo, Trnsci__V1__SolverFunction hi,
                                 const char *range, Trnsci__V1__DataType t, trn_solver_fn *fn,
                                 trn_dtype *type) {
    if (f < lo || f > hi) {
        trn_vmsg(vx, "solver: function %d is not %s", (int)f, range);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *fn = (trn_solver_fn)f; /* the wire's numbers are trn_solver_fn's */
    if (trn_vk_dtype(t, type)) {
        trn_vmsg(vx, "%s: data type %d is not R_32F, R_64F, C_32F or C_64F",
                 trn_solver_name(*fn, TRN_DTYPE_R64F), (int)t);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

static trn_wire_code validate_solver_dense(trn_vctx *vx, const Trnsci__V1__SolverDenseOp *w,
                                           trn_solver_dense_desc *out) {
    /* 16 and 17 are the batched Cholesky's (SolverBatchedOp). */
    if (w->function == TRNSCI__V1__SOLVER_FUNCTION__SOLVER_POTRF_BATCHED ||
        w->function == TRNSCI__V1__SOLVER_FUNCTION__SOLVER_POTRS_BATCHED) {
        trn_vmsg(vx, "solver: function %d is not a SolverDenseOp function", (int)w->function);
        return BAD;
    }
    if (fn_and_type(vx, w->function, TRNSCI__V1__SOLVER_FUNCTION__SOLVER_POTRF,
                    TRNSCI__V1__SOLVER_FUNCTION__SOLVER_ORGBR, "one of POTRF .. ORGBR", w->type,
                    &out->fn, &out->type))
        return BAD;
    const char *fn = trn_solver_name(out->fn, out->type);
    const uint64_t es = trn_dtype_size(out->type), al = comp_size(out->type);
    out->lower = 0;
    out->trans = TRN_TRANS_N;
    out->left = 1;
    out->m = out->n = out->k = out->nrhs = 0;
    out->lda = out->ldb = 1;
    out->a = out->b = out->tau = NULL;
    out->ipiv = NULL;
    out->info = NULL;
    out->k2 = 0;
    out->incx = 0;
    out->d = out->e = out->taup = NULL;
    void *p = NULL;
    trn_wire_code rc = TRN_WIRE_OK;

    switch (out->fn) {
    case TRN_SOLVER_POTRF:
    case TRN_SOLVER_POTRI:
    case TRN_SOLVER_POTRS:
    case TRN_SOLVER_SYTRF:
    case TRN_SOLVER_SYTRI:
    case TRN_SOLVER_SYTRS:
    case TRN_SOLVER_LAUUM:
    case TRN_SOLVER_SYTRD:
    case TRN_SOLVER_ORGTR:
        if (trn_vsolver_uplo(vx, fn, w->uplo, &out->lower) ||
            trn_vk_dim(vx, fn, "n", w->n, &out->n))
            return BAD;
        out->m = out->n;
        if ((out->fn == TRN_SOLVER_POTRS || out->fn == TRN_SOLVER_SYTRS) &&
            (trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs) ||
             trn_vk_ld(vx, fn, "ldb", w->ldb, out->n, "n", &out->ldb)))
            return BAD;
        if (trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda))
            return BAD;
        break;
    case TRN_SOLVER_GETRF:
    case TRN_SOLVER_GEQRF:
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
            return BAD;
        break;
    case TRN_SOLVER_GETRS:
        if (trn_vk_trans(w->trans, &out->trans)) {
            trn_vmsg(vx, "%s: trans=%d must be OP_N, OP_T or OP_C", fn, (int)w->trans);
            return BAD;
        }
        if (trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_dim(vx, fn, "nrhs", w->nrhs, &out->nrhs) ||
            trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda) ||
            trn_vk_ld(vx, fn, "ldb", w->ldb, out->n, "n", &out->ldb))
            return BAD;
        out->m = out->n;
        break;
    case TRN_SOLVER_ORGQR:
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_dim(vx, fn, "k", w->k, &out->k))
            return BAD;
        if (out->n > out->m || out->k > out->n) {
            trn_vmsg(vx, "%s: m=%d, n=%d, k=%d must satisfy m >= n >= k >= 0", fn, out->m, out->n,
                     out->k);
            return BAD;
        }
        if (trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
            return BAD;
        break;
    case TRN_SOLVER_ORMQR: {
        if (w->side != 0 && w->side != 1) {
            trn_vmsg(vx, "%s: side=%lld must be TRNBLAS_SIDE_LEFT (0) or RIGHT (1)", fn,
                     (long long)w->side);
            return BAD;
        }
        out->left = w->side == 0;
        const Trnsci__V1__Operation other = trn_dtype_is_complex(out->type)
                                                ? TRNSCI__V1__OPERATION__OP_C
                                                : TRNSCI__V1__OPERATION__OP_T;
        if (w->trans != TRNSCI__V1__OPERATION__OP_N && w->trans != other) {
            trn_vmsg(vx, "%s: trans=%d must be OP_N or %s", fn, (int)w->trans,
                     trn_dtype_is_complex(out->type) ? "OP_C" : "OP_T");
            return BAD;
        }
        out->trans = w->trans == TRNSCI__V1__OPERATION__OP_N ? TRN_TRANS_N
                     : trn_dtype_is_complex(out->type)       ? TRN_TRANS_C
                                                             : TRN_TRANS_T;
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_dim(vx, fn, "k", w->k, &out->k))
            return BAD;
        const int nq = out->left ? out->m : out->n;
        if (out->k > nq) {
            trn_vmsg(vx, "%s: k=%d must be <= %s=%d", fn, out->k, out->left ? "m" : "n", nq);
            return BAD;
        }
        if (trn_vk_ld(vx, fn, "lda", w->lda, nq, out->left ? "m" : "n", &out->lda) ||
            trn_vk_ld(vx, fn, "ldc", w->ldb, out->m, "m", &out->ldb))
            return BAD;
        break;
    }
    case TRN_SOLVER_ORMTR: {
        if (trn_vsolver_uplo(vx, fn, w->uplo, &out->lower))
            return BAD;
        if (w->side != 0 && w->side != 1) {
            trn_vmsg(vx, "%s: side=%lld must be TRNBLAS_SIDE_LEFT (0) or RIGHT (1)", fn,
                     (long long)w->side);
            return BAD;
        }
        out->left = w->side == 0;
        const Trnsci__V1__Operation other = trn_dtype_is_complex(out->type)
                                                ? TRNSCI__V1__OPERATION__OP_C
                                                : TRNSCI__V1__OPERATION__OP_T;
        if (w->trans != TRNSCI__V1__OPERATION__OP_N && w->trans != other) {
            trn_vmsg(vx, "%s: trans=%d must be OP_N or %s", fn, (int)w->trans,
                     trn_dtype_is_complex(out->type) ? "OP_C" : "OP_T");
            return BAD;
        }
        out->trans = w->trans == TRNSCI__V1__OPERATION__OP_N ? TRN_TRANS_N
                     : trn_dtype_is_complex(out->type)       ? TRN_TRANS_C
                                                             : TRN_TRANS_T;
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n))
            return BAD;
        const int nq = out->left ? out->m : out->n;
        if (trn_vk_ld(vx, fn, "lda", w->lda, nq, out->left ? "m" : "n", &out->lda) ||
            trn_vk_ld(vx, fn, "ldc", w->ldb, out->m, "m", &out->ldb))
            return BAD;
        break;
    }
    case TRN_SOLVER_GEBRD:
        /* cuSOLVER's gebrd takes m >= n only (LAPACK's also m < n). */
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n))
            return BAD;
        if (out->m < out->n) {
            trn_vmsg(vx, "%s: m=%d must be >= n=%d", fn, out->m, out->n);
            return BAD;
        }
        if (trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
            return BAD;
        break;
    case TRN_SOLVER_ORGBR: {
        /* LAPACK's orgbr: Q (LEFT, vect 'Q') is m x n with m >= n >=
         * min(m, k); P^H (RIGHT, vect 'P') is m x n with n >= m >=
         * min(n, k); k counts gebrd's columns (Q) or rows (P^H). */
        if (w->side != 0 && w->side != 1) {
            trn_vmsg(vx, "%s: side=%lld must be TRNBLAS_SIDE_LEFT (0) or RIGHT (1)", fn,
                     (long long)w->side);
            return BAD;
        }
        out->left = w->side == 0;
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_dim(vx, fn, "k", w->k, &out->k))
            return BAD;
        const int big = out->left ? out->m : out->n, small = out->left ? out->n : out->m;
        const int low = big < out->k ? big : out->k;
        if (small > big || small < low) {
            trn_vmsg(vx, "%s: m=%d, n=%d, k=%d must satisfy %s", fn, out->m, out->n, out->k,
                     out->left ? "m >= n >= min(m, k) (side LEFT)"
                               : "n >= m >= min(n, k) (side RIGHT)");
            return BAD;
        }
        if (trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
            return BAD;
        break;
    }
    case TRN_SOLVER_LASWP:
        /* LAPACK's laswp: A has lda rows (the interchanges may reach any
         * of them); rows k1 .. k2 are interchanged with the rows ipiv
         * names, which the kernel checks against lda. */
        if (trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_ld(vx, fn, "lda", w->lda, 1, "1", &out->lda))
            return BAD;
        out->m = out->lda;
        if (w->k < 1 || w->k2 < w->k || w->k2 > out->lda) {
            trn_vmsg(vx, "%s: k1=%lld, k2=%lld must satisfy 1 <= k1 <= k2 <= lda=%d", fn,
                     (long long)w->k, (long long)w->k2, out->lda);
            return BAD;
        }
        out->k = (int)w->k;
        out->k2 = (int)w->k2;
        if (w->incx < -INT_MAX || w->incx > INT_MAX) {
            trn_vmsg(vx, "%s: incx=%lld must be in [-%d, %d]", fn, (long long)w->incx, INT_MAX,
                     INT_MAX);
            return BAD;
        }
        out->incx = (int)w->incx;
        break;
    default: break; /* not reached: fn_and_type checked the range */
    }

    /* Operands, in the order of the parameter list. */
    switch (out->fn) {
    case TRN_SOLVER_ORMQR: {
        const int nq = out->left ? out->m : out->n;
        rc = trn_vk_matrix(vx, w->a, nq, out->k, out->lda, es, al, fn, "A", &out->a);
        break;
    }
    case TRN_SOLVER_POTRS:
    case TRN_SOLVER_GETRS:
    case TRN_SOLVER_SYTRS:
        rc = trn_vk_matrix(vx, w->a, out->n, out->n, out->lda, es, al, fn, "A", &out->a);
        break;
    case TRN_SOLVER_ORMTR: {
        const int nq = out->left ? out->m : out->n;
        rc = trn_vk_matrix(vx, w->a, nq, nq, out->lda, es, al, fn, "A", &out->a);
        break;
    }
    default:
        rc = trn_vk_matrix(vx, w->a, out->m, out->n, out->lda, es, al, fn, "A", &out->a);
        break;
    }
    if (rc != TRN_WIRE_OK)
        return rc;

    if (out->fn == TRN_SOLVER_GETRF || out->fn == TRN_SOLVER_GETRS) {
        /* Buffer 0: no pivoting (cuSOLVER's devIpiv = NULL). */
        if (w->ipiv && w->ipiv->buffer_id) {
            const int np =
                out->fn == TRN_SOLVER_GETRF ? (out->m < out->n ? out->m : out->n) : out->n;
            rc = trn_vk_array(vx, w->ipiv, (uint64_t)np, sizeof(int32_t), sizeof(int32_t), fn,
                              "devIpiv", &p);
            if (rc != TRN_WIRE_OK)
                return rc;
            out->ipiv = p;
        }
    }
    if (out->fn == TRN_SOLVER_SYTRF || out->fn == TRN_SOLVER_SYTRI || out->fn == TRN_SOLVER_SYTRS) {
        /* Buffer 0: no pivoting (cuSOLVER's sytrf with devIpiv = NULL). */
        if (w->ipiv && w->ipiv->buffer_id) {
            rc = trn_vk_array(vx, w->ipiv, (uint64_t)out->n, sizeof(int32_t), sizeof(int32_t), fn,
                              "ipiv", &p);
            if (rc != TRN_WIRE_OK)
                return rc;
            out->ipiv = p;
        }
    }
    if (out->fn == TRN_SOLVER_LASWP && out->incx != 0 && out->n > 0) {
        /* LAPACK's extent of ipiv: k1 + (k2 - k1) |incx| elements. */
        const uint64_t inc = (uint64_t)(out->incx < 0 ? -(int64_t)out->incx : out->incx);
        uint64_t span, count;
        if (ck_mul((uint64_t)(out->k2 - out->k), inc, &span) ||
            ck_add(span, (uint64_t)out->k, &count)) {
            trn_vmsg(vx, "%s: the extent of devIpiv overflows 64 bits", fn);
            return BAD;
        }
        rc = trn_vk_array(vx, w->ipiv, count, sizeof(int32_t), sizeof(int32_t), fn, "devIpiv", &p);
        if (rc != TRN_WIRE_OK)
            return rc;
        out->ipiv = p;
    }
    if (out->fn == TRN_SOLVER_SYTRD || out->fn == TRN_SOLVER_ORGTR || out->fn == TRN_SOLVER_ORMTR) {
        /* nq - 1 reflectors (nq the order of Q); sytrd's d (n) and e (n - 1)
         * are of the real type. */
        const int nq = out->fn != TRN_SOLVER_ORMTR ? out->n : out->left ? out->m : out->n;
        const uint64_t nr = nq > 1 ? (uint64_t)(nq - 1) : 0;
        rc = trn_vk_array(vx, w->tau, nr, es, al, fn, "tau", &out->tau);
        if (rc == TRN_WIRE_OK && out->fn == TRN_SOLVER_SYTRD)
            rc = trn_vk_array(vx, w->d, (uint64_t)out->n, al, al, fn, "d", &out->d);
        if (rc == TRN_WIRE_OK && out->fn == TRN_SOLVER_SYTRD)
            rc = trn_vk_array(vx, w->e, nr, al, al, fn, "e", &out->e);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (out->fn == TRN_SOLVER_GEBRD) {
        /* m >= n: d, tauq and taup have n entries, e n - 1 (d, e real). */
        const uint64_t nn = (uint64_t)out->n, ne = out->n > 1 ? (uint64_t)(out->n - 1) : 0;
        rc = trn_vk_array(vx, w->d, nn, al, al, fn, "D", &out->d);
        if (rc == TRN_WIRE_OK)
            rc = trn_vk_array(vx, w->e, ne, al, al, fn, "E", &out->e);
        if (rc == TRN_WIRE_OK)
            rc = trn_vk_array(vx, w->tau, nn, es, al, fn, "TAUQ", &out->tau);
        if (rc == TRN_WIRE_OK)
            rc = trn_vk_array(vx, w->taup, nn, es, al, fn, "TAUP", &out->taup);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (out->fn == TRN_SOLVER_ORGBR) {
        const int big = out->left ? out->m : out->n;
        const int ntau = big < out->k ? big : out->k;
        rc = trn_vk_array(vx, w->tau, (uint64_t)ntau, es, al, fn, "tau", &out->tau);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (out->fn == TRN_SOLVER_GEQRF || out->fn == TRN_SOLVER_ORGQR || out->fn == TRN_SOLVER_ORMQR) {
        const int ntau = out->fn == TRN_SOLVER_GEQRF ? (out->m < out->n ? out->m : out->n) : out->k;
        rc = trn_vk_array(vx, w->tau, (uint64_t)ntau, es, al, fn, "tau", &out->tau);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (out->fn == TRN_SOLVER_POTRS || out->fn == TRN_SOLVER_GETRS || out->fn == TRN_SOLVER_ORMQR ||
        out->fn == TRN_SOLVER_SYTRS || out->fn == TRN_SOLVER_ORMTR) {
        const int c_op = out->fn == TRN_SOLVER_ORMQR || out->fn == TRN_SOLVER_ORMTR;
        const int rows = c_op ? out->m : out->n;
        const int cols = c_op ? out->n : out->nrhs;
        rc = trn_vk_matrix(vx, w->b, rows, cols, out->ldb, es, al, fn, c_op ? "C" : "B", &out->b);
        if (rc != TRN_WIRE_OK)
            return rc;
    }
    if (out->fn == TRN_SOLVER_LASWP)
        return TRN_WIRE_OK; /* cuSOLVER's laswp has no devInfo */
    return trn_vsolver_info(vx, w->info, fn, &out->info);
}

/* ---- potrfBatched / potrsBatched --------------------------------------------- */

static trn_wire_code validate_solver_batched(trn_vctx *vx, const Trnsci__V1__SolverBatchedOp *w,
                                             trn_solver_batched_desc *out) {
    if (fn_and_type(vx, w->function, TRNSCI__V1__SOLVER_FUNCTION__SOLVER_POTRF_BATCHED,
                    TRNSCI__V1__SOLVER_FUNCTION__SOLVER_POTRS_BATCHED,
                    "POTRF_BATCHED or POTRS_BATCHED", w->type, &out->fn, &out->type))
        return BAD;
    const char *fn = trn_solver_name(out->fn, out->type);
    const int potrs = out->fn == TRN_SOLVER_POTRS_BATCHED;
    out->nrhs = 0;
    out->ldb = 1;
    out->a = out->b = NULL;
    out->info = NULL;
    if (trn_vsolver_uplo(vx, fn, w->uplo, &out->lower) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
        trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda))
        return BAD;
    if (potrs) {
        if (w->nrhs != 1) {
            trn_vmsg(vx, "%s: nrhs=%lld must be 1 (as cuSOLVER's)", fn, (long long)w->nrhs);
            return BAD;
        }
        out->nrhs = 1;
        if (trn_vk_ld(vx, fn, "ldb", w->ldb, out->n, "n", &out->ldb))
            return BAD;
        if (w->n_b != w->n_a) {
            trn_vmsg(vx, "%s: Barray has %zu matrices but Aarray has %zu", fn, w->n_b, w->n_a);
            return BAD;
        }
    } else if (w->n_b != 0) {
        trn_vmsg(vx, "%s: takes no B matrices (%zu given)", fn, w->n_b);
        return BAD;
    }
    if (w->n_a > (size_t)INT_MAX) {
        trn_vmsg(vx, "%s: batchSize=%zu is larger than %d", fn, w->n_a, INT_MAX);
        return BAD;
    }
    out->batch = (int)w->n_a;
    const uint64_t es = trn_dtype_size(out->type), al = comp_size(out->type);
    /* The pointer arrays live as long as the references (vx->refs->owned). */
    const size_t slots = (size_t)out->batch * (potrs ? 2u : 1u);
    void **ptrs = trn_vowned(vx, (uint64_t)slots * sizeof(void *));
    if (slots && !ptrs) {
        trn_vmsg(vx, "%s: the daemon is out of memory for %d matrices", fn, out->batch);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    uint64_t a_bytes, b_bytes;
    if (ck_matrix_bytes((uint64_t)out->n, (uint64_t)out->n, (uint64_t)out->lda, es, &a_bytes) ||
        ck_matrix_bytes((uint64_t)out->n, (uint64_t)out->nrhs, (uint64_t)out->ldb, es, &b_bytes)) {
        trn_vmsg(vx, "%s: the extent of a matrix overflows 64 bits", fn);
        return BAD;
    }
    /* info first: the matrices may fill refs' fixed slots. */
    char what[64];
    trn_wire_code rc;
    if (potrs) {
        rc = trn_vsolver_info(vx, w->info, fn, &out->info);
    } else {
        void *p = NULL;
        rc = trn_vk_array(vx, w->info, (uint64_t)out->batch, sizeof(int32_t), sizeof(int32_t), fn,
                          "infoArray", &p);
        out->info = p;
    }
    for (int i = 0; i < out->batch && rc == TRN_WIRE_OK; i++) {
        snprintf(what, sizeof(what), "%s: Aarray[%d]", fn, i);
        rc = trn_vregion_many(vx, w->a[i], a_bytes, al, what, &ptrs[i]);
        if (rc == TRN_WIRE_OK && potrs) {
            snprintf(what, sizeof(what), "%s: Barray[%d]", fn, i);
            rc = trn_vregion_many(vx, w->b[i], b_bytes, al, what, &ptrs[out->batch + i]);
        }
    }
    out->a = ptrs;
    out->b = potrs ? ptrs + out->batch : NULL;
    return rc;
}

/* ---- eigenvalue problems and SVDs -------------------------------------------- */

static trn_wire_code jobz_of(trn_vctx *vx, const char *fn, int64_t jobz, int *vectors) {
    if (jobz != 0 && jobz != 1) {
        trn_vmsg(vx, "%s: jobz=%lld must be TRNSOLVER_EIG_MODE_NOVECTOR (0) or _VECTOR (1)", fn,
                 (long long)jobz);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *vectors = (int)jobz;
    return TRN_WIRE_OK;
}

static trn_wire_code job_char(trn_vctx *vx, const char *fn, const char *name, int64_t v,
                              char *out) {
    if (v != 'A' && v != 'S' && v != 'O' && v != 'N') {
        trn_vmsg(vx, "%s: %s=%lld must be 'A', 'S', 'O' or 'N'", fn, name, (long long)v);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (char)v;
    return TRN_WIRE_OK;
}

/* LAPACK's rule for a leading dimension that may be unreferenced: >= 1, and
 * >= rows when the matrix is written. */
static int ld_maybe(trn_vctx *vx, const char *fn, const char *name, int64_t ld, int used, int rows,
                    const char *rows_expr, int *out) {
    return trn_vk_ld(vx, fn, name, ld, used ? rows : 1, used ? rows_expr : "1", out);
}

/* Xgeev (cuSOLVER's rules): jobvl NOVECTOR only (VECTOR is not
 * supported, as cuSOLVER's), jobvr either; lda >= max(1, n), ldvl >= 1,
 * ldvr >= n with VR wanted (else >= 1); W is n complex values, or 2n
 * reals (WR then WI) for a real A with w_split; VR (n x n, A's type) only
 * with jobvr VECTOR: a real A's complex pairs in LAPACK's two columns. */
static trn_wire_code validate_geev(trn_vctx *vx, const Trnsci__V1__SolverEigenOp *w,
                                   trn_solver_eigen_desc *out) {
    const char *fn = trn_solver_name(out->fn, out->type);
    const uint64_t es = trn_dtype_size(out->type), al = comp_size(out->type);
    if (w->jobvl == 1) {
        trn_vmsg(vx,
                 "%s: jobvl=TRNSOLVER_EIG_MODE_VECTOR is not supported (left eigenvectors; "
                 "cuSOLVER's Xgeev takes NOVECTOR only)",
                 fn);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (w->jobvl != 0) {
        trn_vmsg(vx, "%s: jobvl=%lld must be TRNSOLVER_EIG_MODE_NOVECTOR (0)", fn,
                 (long long)w->jobvl);
        return BAD;
    }
    if (w->jobz != 0 && w->jobz != 1) {
        trn_vmsg(vx, "%s: jobvr=%lld must be TRNSOLVER_EIG_MODE_NOVECTOR (0) or _VECTOR (1)", fn,
                 (long long)w->jobz);
        return BAD;
    }
    out->vectors = (int)w->jobz;
    if (w->w_split != 0 && (w->w_split != 1 || trn_dtype_is_complex(out->type))) {
        trn_vmsg(vx, "%s: w_split=%lld must be 0, or 1 with a real A", fn, (long long)w->w_split);
        return BAD;
    }
    out->w_split = (int)w->w_split;
    int ldvl = 1;
    if (trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
        trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda) ||
        trn_vk_ld(vx, fn, "ldvl", w->ldvl, 1, "1", &ldvl) ||
        ld_maybe(vx, fn, "ldvr", w->ldv, out->vectors, out->n, "n", &out->ldv))
        return BAD;
    out->m = out->n;
    const int n = out->n;
    trn_wire_code rc = trn_vk_matrix(vx, w->a, n, n, out->lda, es, al, fn, "A", &out->a);
    if (rc == TRN_WIRE_OK) /* 2n reals either way: n complex, or WR then WI */
        rc = trn_vk_array(vx, w->w, 2 * (uint64_t)n, al, al, fn, "W", &out->w);
    if (rc == TRN_WIRE_OK && out->vectors)
        rc = trn_vk_matrix(vx, w->v, n, n, out->ldv, es, al, fn, "VR", &out->v);
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_info(vx, w->info, fn, &out->info);
    return rc;
}

/* Protocol 1.15's functions are cast like the others (fn_and_type); their
 * numbers are checked here, beside the cast, as wire_enums.c checks the
 * older ones. */
_Static_assert((int)TRN_SOLVER_SYGVDX == (int)TRNSCI__V1__SOLVER_FUNCTION__SOLVER_SYGVDX,
               "SYGVDX is the wire's");
_Static_assert((int)TRN_SOLVER_SYGVJ == (int)TRNSCI__V1__SOLVER_FUNCTION__SOLVER_SYGVJ,
               "SYGVJ is the wire's");
_Static_assert((int)TRN_SOLVER_GESVDA_STRIDED_BATCHED ==
                   (int)TRNSCI__V1__SOLVER_FUNCTION__SOLVER_GESVDA_STRIDED_BATCHED,
               "GESVDA_STRIDED_BATCHED is the wire's");

/* sygvdx's selection (cuSOLVER's and LAPACK's sygvx rules): range ALL, I
 * with 1 <= il <= iu <= n (il = 1, iu = 0 when n = 0), or V with finite
 * vl < vu. Needs out->n. */
static int selection(trn_vctx *vx, const Trnsci__V1__SolverEigenOp *w, const char *fn,
                     trn_solver_eigen_desc *out) {
    const int n = out->n;
    switch (w->range) {
    case TRN_EIG_RANGE_ALL: break;
    case TRN_EIG_RANGE_I: {
        const int ok =
            n > 0 ? (w->il >= 1 && w->il <= w->iu && w->iu <= n) : (w->il == 1 && w->iu == 0);
        if (!ok) {
            trn_vmsg(vx,
                     "%s: il=%lld, iu=%lld must satisfy 1 <= il <= iu <= n=%d (il = 1, iu = 0 "
                     "when n = 0)",
                     fn, (long long)w->il, (long long)w->iu, n);
            return -1;
        }
        out->il = (int)w->il;
        out->iu = (int)w->iu;
        break;
    }
    case TRN_EIG_RANGE_V:
        if (!isfinite(w->vl) || !isfinite(w->vu) || !(w->vl < w->vu)) {
            trn_vmsg(vx, "%s: vl=%g, vu=%g must be finite with vl < vu", fn, w->vl, w->vu);
            return -1;
        }
        out->vl = w->vl;
        out->vu = w->vu;
        break;
    default:
        trn_vmsg(vx,
                 "%s: range=%lld must be TRNSOLVER_EIG_RANGE_ALL (1001), _I (1002) or _V (1003)",
                 fn, (long long)w->range);
        return -1;
    }
    out->range = (int)w->range;
    return 0;
}

/* A stride of a strided batch: at least `least` elements and within int64
 * (cuSOLVER's long long). */
static int stride_of(trn_vctx *vx, const char *fn, const char *name, int64_t v, int64_t least,
                     const char *least_expr, int64_t *out) {
    if (v < least) {
        trn_vmsg(vx, "%s: %s=%lld must be >= %s = %lld", fn, name, (long long)v, least_expr,
                 (long long)least);
        return -1;
    }
    *out = v;
    return 0;
}

/* One operand of a strided batch: batch matrices rows x cols (leading
 * dimension ld) stride elements apart, resolved as one region. */
static trn_wire_code strided(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int rows, int cols,
                             int ld, int64_t stride, int batch, uint64_t es, uint64_t al,
                             const char *fn, const char *name, void **out) {
    uint64_t one, bytes;
    char what[64];
    *out = NULL;
    if (ck_matrix_bytes((uint64_t)rows, (uint64_t)cols, (uint64_t)ld, es, &one) ||
        trn_vk_batch_bytes(one, (uint64_t)batch, (uint64_t)stride, es, &bytes)) {
        trn_vmsg(vx, "%s: the extent of %s overflows 64 bits", fn, name);
        return BAD;
    }
    if (bytes == 0)
        return TRN_WIRE_OK;
    snprintf(what, sizeof(what), "%s: %s", fn, name);
    return trn_vregion(vx, ref, bytes, al, what, out);
}

/* gesvdaStridedBatched: cuSOLVER's rules (m >= n, 1 <= rank <= n, leading
 * dimensions, strides at least one matrix apart, which also keeps the
 * written matrices of a batch disjoint). */
static trn_wire_code validate_gesvda(trn_vctx *vx, const Trnsci__V1__SolverEigenOp *w,
                                     const char *fn, uint64_t es, uint64_t al,
                                     trn_solver_eigen_desc *out) {
    if (jobz_of(vx, fn, w->jobz, &out->vectors) || trn_vk_dim(vx, fn, "m", w->m, &out->m) ||
        trn_vk_dim(vx, fn, "n", w->n, &out->n))
        return BAD;
    const int m = out->m, n = out->n;
    if (m < n) {
        trn_vmsg(vx, "%s: m=%d must be >= n=%d (gesvda supports tall matrices only)", fn, m, n);
        return BAD;
    }
    if (w->rank < 1 || w->rank > n) {
        trn_vmsg(vx, "%s: rank=%lld must satisfy 1 <= rank <= n=%d", fn, (long long)w->rank, n);
        return BAD;
    }
    out->rank = (int)w->rank;
    const int r = out->rank;
    if (trn_vk_ld(vx, fn, "lda", w->lda, m, "m", &out->lda) ||
        trn_vk_ld(vx, fn, "ldu", w->ldu, m, "m", &out->ldu) ||
        trn_vk_ld(vx, fn, "ldv", w->ldv, n, "n", &out->ldv) ||
        stride_of(vx, fn, "strideA", w->stride_a, (int64_t)out->lda * n, "lda*n", &out->stride_a) ||
        stride_of(vx, fn, "strideS", w->stride_s, r, "rank", &out->stride_s) ||
        stride_of(vx, fn, "strideU", w->stride_u, (int64_t)out->ldu * r, "ldu*rank",
                  &out->stride_u) ||
        stride_of(vx, fn, "strideV", w->stride_v, (int64_t)out->ldv * r, "ldv*rank",
                  &out->stride_v))
        return BAD;
    if (w->batch < 0 || w->batch > INT_MAX) {
        trn_vmsg(vx, "%s: batchSize=%lld must be in [0, %d]", fn, (long long)w->batch, INT_MAX);
        return BAD;
    }
    out->batch = (int)w->batch;
    const int b = out->batch;
    void *p = NULL;
    trn_wire_code rc =
        strided(vx, w->a, m, n, out->lda, out->stride_a, b, es, al, fn, "A", &out->a);
    if (rc == TRN_WIRE_OK)
        rc = strided(vx, w->w, r, 1, r, out->stride_s, b, al, al, fn, "S", &out->w);
    if (rc == TRN_WIRE_OK && out->vectors)
        rc = strided(vx, w->u, m, r, out->ldu, out->stride_u, b, es, al, fn, "U", &out->u);
    if (rc == TRN_WIRE_OK && out->vectors)
        rc = strided(vx, w->v, n, r, out->ldv, out->stride_v, b, es, al, fn, "V", &out->v);
    if (rc == TRN_WIRE_OK) {
        rc = trn_vk_array(vx, w->info, (uint64_t)b, sizeof(int32_t), sizeof(int32_t), fn, "info",
                          &p);
        out->info = p;
    }
    if (rc == TRN_WIRE_OK && w->residuals && w->residuals->buffer_id) {
        rc = trn_vk_array(vx, w->residuals, (uint64_t)b, sizeof(double), sizeof(double), fn,
                          "h_R_nrmF", &p);
        out->residuals = p;
    }
    return rc;
}

static trn_wire_code validate_solver_eigen(trn_vctx *vx, const Trnsci__V1__SolverEigenOp *w,
                                           trn_solver_eigen_desc *out) {
    /* 32 .. 36, and protocol 1.15's 37 (GEEV) and 38 .. 40. */
    if (fn_and_type(vx, w->function, TRNSCI__V1__SOLVER_FUNCTION__SOLVER_SYEVD,
                    TRNSCI__V1__SOLVER_FUNCTION__SOLVER_GESVDA_STRIDED_BATCHED,
                    "one of SYEVD .. GESVDA_STRIDED_BATCHED", w->type, &out->fn, &out->type))
        return BAD;
    const char *fn = trn_solver_name(out->fn, out->type);
    const uint64_t es = trn_dtype_size(out->type), al = comp_size(out->type);
    out->vectors = 0;
    out->lower = 0;
    out->itype = 1;
    out->jobu = out->jobvt = 'N';
    out->econ = 0;
    out->m = out->n = 0;
    out->lda = out->ldb = out->ldu = out->ldv = 1;
    out->a = out->b = out->w = out->u = out->v = out->rwork = NULL;
    out->info = NULL;
    out->tol = 0.0;
    out->max_sweeps = 0;
    out->stats = NULL;
    out->w_split = 0;
    out->range = TRN_EIG_RANGE_ALL;
    out->vl = out->vu = 0.0;
    out->il = out->iu = 0;
    out->meig = NULL;
    out->rank = 0;
    out->stride_a = out->stride_s = out->stride_u = out->stride_v = 0;
    out->batch = 1;
    out->residuals = NULL;
    const double eps = al == 4 ? FLT_EPSILON : DBL_EPSILON;
    trn_wire_code rc;
    if (out->fn == TRN_SOLVER_GESVDA_STRIDED_BATCHED)
        return validate_gesvda(vx, w, fn, es, al, out);

    if (out->fn == TRN_SOLVER_GEEV)
        return validate_geev(vx, w, out);
    if (out->fn == TRN_SOLVER_GESVD || out->fn == TRN_SOLVER_GESVDJ) {
        if (trn_vk_dim(vx, fn, "m", w->m, &out->m) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_ld(vx, fn, "lda", w->lda, out->m, "m", &out->lda))
            return BAD;
    } else {
        if (trn_vsolver_uplo(vx, fn, w->uplo, &out->lower) ||
            jobz_of(vx, fn, w->jobz, &out->vectors) || trn_vk_dim(vx, fn, "n", w->n, &out->n) ||
            trn_vk_ld(vx, fn, "lda", w->lda, out->n, "n", &out->lda))
            return BAD;
        out->m = out->n;
    }
    const int m = out->m, n = out->n, p = m < n ? m : n;
    int u_cols = 0, v_rows = 0, v_cols = 0; /* U: m x u_cols; V(T): v_rows x v_cols */

    switch (out->fn) {
    case TRN_SOLVER_SYGVDX:
        if (selection(vx, w, fn, out))
            return BAD;
        /* fall through */
    case TRN_SOLVER_SYGVD:
    case TRN_SOLVER_SYGVJ:
        if (w->itype < 1 || w->itype > 3) {
            trn_vmsg(vx, "%s: itype=%lld must be TRNSOLVER_EIG_TYPE_1, _2 or _3", fn,
                     (long long)w->itype);
            return BAD;
        }
        out->itype = (int)w->itype;
        if (trn_vk_ld(vx, fn, "ldb", w->ldb, n, "n", &out->ldb))
            return BAD;
        break;
    case TRN_SOLVER_GESVD:
        if (job_char(vx, fn, "jobu", w->jobu, &out->jobu) ||
            job_char(vx, fn, "jobvt", w->jobvt, &out->jobvt))
            return BAD;
        if (out->jobu == 'O' && out->jobvt == 'O') {
            trn_vmsg(vx, "%s: jobu and jobvt cannot both be 'O'", fn);
            return BAD;
        }
        if (m < n) {
            trn_vmsg(vx, "%s: m=%d must be >= n=%d (cuSOLVER's gesvd supports m >= n only)", fn, m,
                     n);
            return BAD;
        }
        u_cols = out->jobu == 'A' ? m : out->jobu == 'S' ? p : 0;
        v_rows = out->jobvt == 'A' ? n : out->jobvt == 'S' ? p : 0;
        v_cols = v_rows ? n : 0;
        if (ld_maybe(vx, fn, "ldu", w->ldu, u_cols > 0, m, "m", &out->ldu) ||
            ld_maybe(vx, fn, "ldvt", w->ldv, v_rows > 0, v_rows,
                     out->jobvt == 'A' ? "n" : "min(m,n)", &out->ldv))
            return BAD;
        break;
    case TRN_SOLVER_GESVDJ:
        if (jobz_of(vx, fn, w->jobz, &out->vectors))
            return BAD;
        if (w->econ != 0 && w->econ != 1) {
            trn_vmsg(vx, "%s: econ=%lld must be 0 or 1", fn, (long long)w->econ);
            return BAD;
        }
        out->econ = (int)w->econ;
        if (trn_vk_ld(vx, fn, "ldu", w->ldu, m, "m", &out->ldu) ||
            trn_vk_ld(vx, fn, "ldv", w->ldv, n, "n", &out->ldv))
            return BAD;
        if (out->vectors) {
            u_cols = out->econ ? p : m;
            v_rows = n;
            v_cols = out->econ ? p : n;
        }
        break;
    default: break;
    }
    if (out->fn == TRN_SOLVER_SYEVJ || out->fn == TRN_SOLVER_GESVDJ ||
        out->fn == TRN_SOLVER_SYGVJ) {
        if (trn_vk_tol(vx, fn, "tolerance", w->tolerance, eps, &out->tol) ||
            trn_vk_count(vx, fn, "max_sweeps", w->max_sweeps, 100, &out->max_sweeps))
            return BAD;
        if (out->tol < eps)
            out->tol = eps; /* below the working precision no sweep can reach it */
    }

    rc = trn_vk_matrix(vx, w->a, m, n, out->lda, es, al, fn, "A", &out->a);
    const int gen =
        out->fn == TRN_SOLVER_SYGVD || out->fn == TRN_SOLVER_SYGVDX || out->fn == TRN_SOLVER_SYGVJ;
    if (rc == TRN_WIRE_OK && gen) {
        rc = trn_vk_matrix(vx, w->b, n, n, out->ldb, es, al, fn, "B", &out->b);
    }
    if (rc == TRN_WIRE_OK) {
        const int is_svd = out->fn == TRN_SOLVER_GESVD || out->fn == TRN_SOLVER_GESVDJ;
        rc = trn_vk_array(vx, w->w, (uint64_t)(is_svd ? p : n), al, al, fn, is_svd ? "S" : "W",
                          &out->w);
    }
    if (rc == TRN_WIRE_OK && u_cols > 0) {
        rc = trn_vk_matrix(vx, w->u, m, u_cols, out->ldu, es, al, fn, "U", &out->u);
    }
    if (rc == TRN_WIRE_OK && v_rows > 0) {
        rc = trn_vk_matrix(vx, w->v, v_rows, v_cols, out->ldv, es, al, fn,
                           out->fn == TRN_SOLVER_GESVD ? "VT" : "V", &out->v);
    }
    if (rc == TRN_WIRE_OK && out->fn == TRN_SOLVER_GESVD && w->rwork && w->rwork->buffer_id) {
        rc = trn_vk_array(vx, w->rwork, (uint64_t)(p > 1 ? p - 1 : 0), al, al, fn, "rwork",
                          &out->rwork);
    }
    if (rc == TRN_WIRE_OK)
        rc = trn_vsolver_info(vx, w->info, fn, &out->info);
    if (rc == TRN_WIRE_OK && (out->fn == TRN_SOLVER_SYEVJ || out->fn == TRN_SOLVER_GESVDJ ||
                              out->fn == TRN_SOLVER_SYGVJ))
        rc = trn_vsolver_stats(vx, w->stats, fn, &out->stats);
    if (rc == TRN_WIRE_OK && out->fn == TRN_SOLVER_SYGVDX && w->meig && w->meig->buffer_id) {
        void *p = NULL;
        rc = trn_vk_array(vx, w->meig, 1, sizeof(int32_t), sizeof(int32_t), fn, "meig", &p);
        out->meig = p;
    }
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(solver_dense, validate_solver_dense(vx, op->solver_dense, &out->u.solver_dense))
TRN_VALIDATE_ENTRY(solver_batched,
                   validate_solver_batched(vx, op->solver_batched, &out->u.solver_batched))
TRN_VALIDATE_ENTRY(solver_eigen, validate_solver_eigen(vx, op->solver_eigen, &out->u.solver_eigen))
