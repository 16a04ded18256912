/*
 * solver_more.c — trnsolver's symmetric indefinite routines and helpers on
 * the CPU: sytrf (Bunch-Kaufman LDL^T), sytrs (the solve, for Xsytrs),
 * sytri (the inverse), laswp (row interchanges) and lauum (U U^H or L^H L).
 *
 * sytrf and sytrs are in-tree (solver_more_tmpl.h), written to LAPACK
 * sytf2's and sytrs's algorithms: the same pivot choices, the same storage
 * of L (or U) and D, the same 1-based pivots with LAPACK's negative pair
 * for a 2x2 block. Complex types are complex symmetric (A = A^T, no
 * conjugation), as cuSOLVER's Csytrf/Zsytrf and LAPACK's csytrf are. They
 * are unblocked: O(n^3/3) multiply-adds at Level-2 speed. sytri is a solve
 * with the identity's columns (n^3 more work than LAPACK's sytri, the same
 * result within rounding), written back to A's triangle only. lauum is a
 * triangular multiply (BLAS trmm through the routine table) on a private
 * copy of the triangle; laswp moves rows itself.
 *
 * Pivots given by the caller (sytrs, sytri, laswp) are device memory the
 * client can change at any time: the kernel reads them once into its own
 * array, checks every one (in [1, n], or [1, lda] for laswp; a negative
 * one paired with an equal neighbour), and fails the op with a message
 * naming the first bad one before touching A or B.
 *
 * sytrd is LAPACK's sytd2/hetd2 (unblocked; the same reflectors, d, e and
 * tau layout for either triangle, through the same reversal as sytrf);
 * orgtr and ormtr expand the reflectors into explicit vectors and apply
 * them one at a time (orgtr to the identity), O(n^3) at Level-2 speed.
 *
 * info is written with LAPACK's meaning on every run but laswp's (which
 * has none); it is 0 for sytrd, orgtr and ormtr. Everything runs on one
 * core.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_more.h"
#include "kernels/cpu/solver_util.h"

#define MT float
#define MR float
#define MSUF s
#define MCX 0
#include "kernels/cpu/solver_more_tmpl.h"

#define MT double
#define MR double
#define MSUF d
#define MCX 0
#include "kernels/cpu/solver_more_tmpl.h"

#define MT float complex
#define MR float
#define MSUF c
#define MCX 1
#include "kernels/cpu/solver_more_tmpl.h"

#define MT double complex
#define MR double
#define MSUF z
#define MCX 1
#include "kernels/cpu/solver_more_tmpl.h"

/* The caller's pivots in the mirrored view of solver_more_tmpl.h, 0-based,
 * -1 - kp for a 2x2 block's two rows; into piv (n entries). Returns 0, or
 * -1 with the first bad entry posted. */
static int read_pivots(const trn_solver_dense_desc *d, trn_kmsg *msg, int32_t *piv) {
    const int n = d->n, up = !d->lower;
    const char *fn = trn_solver_name(d->fn, d->type);
    memcpy(piv, d->ipiv, (size_t)n * sizeof(int32_t)); /* read once */
    for (int k = 0; k < n; k++) {
        const int at = up ? n - 1 - k : k;
        const int32_t raw = piv[at];
        if (raw == 0 || raw < -n || raw > n) {
            trn_kmsg_post(msg, 0, 1, "%s: ipiv[%d] = %d is not a pivot of order n = %d", fn, at,
                          (int)raw, n);
            return -1;
        }
        if (raw < 0) {
            const int at2 = up ? n - 2 - k : k + 1;
            if (k + 1 >= n || piv[at2] != raw) {
                trn_kmsg_post(msg, 0, 1,
                              "%s: ipiv[%d] = %d starts a 2x2 block but ipiv[%d] is not %d "
                              "(sytrf's pivots are expected)",
                              fn, at, (int)raw, k + 1 < n ? at2 : at, (int)raw);
                return -1;
            }
            k++; /* the block's second row */
        }
    }
    return 0;
}

/* Mirrored, 0-based pivots from raw (caller's layout, checked). */
static void mirror_pivots(int up, int n, const int32_t *raw, int32_t *out) {
    for (int k = 0; k < n; k++) {
        const int32_t r = raw[up ? n - 1 - k : k];
        const int32_t mag = r < 0 ? -r : r;
        const int32_t kp = up ? n - mag : mag - 1;
        out[k] = r < 0 ? -1 - kp : kp;
    }
}

static void sytrs_any(trn_dtype t, int up, int n, int nrhs, const void *a, int lda,
                      const int32_t *piv, void *b, int ldb) {
    switch (t) {
    case TRN_DTYPE_R32F: sytrs_s(up, n, nrhs, a, lda, piv, b, ldb); break;
    case TRN_DTYPE_R64F: sytrs_d(up, n, nrhs, a, lda, piv, b, ldb); break;
    case TRN_DTYPE_C32F: sytrs_c(up, n, nrhs, a, lda, piv, b, ldb); break;
    case TRN_DTYPE_C64F:
        sytrs_z(up, n, nrhs, a, lda, piv, b, ldb);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
}

/* c = the n x n identity (leading dimension n). */
static void identity(trn_dtype t, int n, void *c) {
    const size_t es = trn_dtype_size(t);
    memset(c, 0, (size_t)n * (size_t)n * es);
    const float one_f = 1.0f;
    const double one_d = 1.0;
    const int f32 = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    for (int j = 0; j < n; j++)
        memcpy((char *)c + ((size_t)j * (size_t)n + (size_t)j) * es,
               f32 ? (const void *)&one_f : (const void *)&one_d,
               f32 ? sizeof(one_f) : sizeof(one_d));
}

/* w = triu(A) then w = w U^H (upper), or w = tril(A) then w = L^H w
 * (lower); the triangle of w back into A. */
static void lauum(const trn_solver_dense_desc *d, void *w) {
    const trn_dtype t = d->type;
    const int n = d->n;
    const size_t es = trn_dtype_size(t);
    trn_solver_copy_triangle(d->lower, n, es, d->a, d->lda, w, n, 1);
    const CBLAS_SIDE side = d->lower ? CblasLeft : CblasRight;
    const CBLAS_UPLO uplo = d->lower ? CblasLower : CblasUpper;
    trn_blas_trmm(t, side, uplo, trn_dtype_is_complex(t) ? CblasConjTrans : CblasTrans, n, n, 1.0,
                  d->a, d->lda, w, n);
    trn_solver_copy_triangle(d->lower, n, es, w, n, d->a, d->lda, 0);
}

/* LAPACK laswp's order: rows k1 .. k2 (incx > 0) or k2 .. k1 (incx < 0),
 * row i with row ipiv[k1 - 1 + (i - k1) |incx|] (counted from the end for
 * incx < 0); every pivot checked against lda first. */
static trn_kstatus laswp(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    if (d->incx == 0 || d->n == 0)
        return TRN_KSTATUS_OK;
    const int count = d->k2 - d->k + 1;
    const int inc = d->incx < 0 ? -d->incx : d->incx;
    const size_t bytes = (size_t)count * sizeof(int32_t);
    int32_t *p = trn_solver_ws_get(bytes);
    if (!p)
        return trn_kmsg_no_memory(msg, 0, bytes, "laswp's copy of devIpiv");
    /* p[s] is the pivot of the s-th interchange, in the order they run. */
    for (int s = 0; s < count; s++) {
        const size_t at = d->incx > 0 ? (size_t)(d->k - 1) + (size_t)s * (size_t)inc
                                      : (size_t)(d->k - 1) + (size_t)(count - 1 - s) * (size_t)inc;
        memcpy(&p[s], d->ipiv + at, sizeof(int32_t));
        if (p[s] < 1 || p[s] > d->lda) {
            trn_kmsg_post(msg, 0, 1, "laswp: devIpiv[%zu] = %d is not a row of A (1 .. lda = %d)",
                          at, (int)p[s], d->lda);
            trn_solver_ws_put(p, bytes);
            return TRN_KSTATUS_FAILED;
        }
    }
    const size_t es = trn_dtype_size(d->type);
    char *a = d->a;
    unsigned char tmp[16];
    for (int s = 0; s < count; s++) {
        const int row = d->incx > 0 ? d->k - 1 + s : d->k2 - 1 - s;
        const int other = p[s] - 1;
        if (other == row)
            continue;
        for (int j = 0; j < d->n; j++) {
            char *x = a + ((size_t)j * (size_t)d->lda + (size_t)row) * es;
            char *y = a + ((size_t)j * (size_t)d->lda + (size_t)other) * es;
            memcpy(tmp, x, es);
            memcpy(x, y, es);
            memcpy(y, tmp, es);
        }
    }
    trn_solver_ws_put(p, bytes);
    return TRN_KSTATUS_OK;
}

/* Writes one (1 + 0i) of type t at p. */
static void put_one(trn_dtype t, void *p) {
    const float one_f = 1.0f;
    const double one_d = 1.0;
    const size_t es = trn_dtype_size(t);
    memset(p, 0, es);
    if (t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F)
        memcpy(p, &one_f, sizeof(one_f));
    else
        memcpy(p, &one_d, sizeof(one_d));
}

/* The nq - 1 reflectors sytrd stored in A (order nq, LAPACK's layout for
 * the triangle) as explicit columns of v (nq entries each). */
static void reflectors(trn_dtype t, int lower, int nq, const void *a, int lda, void *v) {
    const size_t es = trn_dtype_size(t);
    const char *ac = a;
    char *vc = v;
    for (int r = 0; r < nq - 1; r++) {
        char *col = vc + (size_t)r * (size_t)nq * es;
        memset(col, 0, (size_t)nq * es);
        if (lower) {
            put_one(t, col + (size_t)(r + 1) * es);
            memcpy(col + (size_t)(r + 2) * es,
                   ac + ((size_t)r * (size_t)lda + (size_t)(r + 2)) * es,
                   (size_t)(nq - r - 2) * es);
        } else {
            put_one(t, col + (size_t)r * es);
            memcpy(col, ac + (size_t)(r + 1) * (size_t)lda * es, (size_t)r * es);
        }
    }
}

/* sytrd/hetrd, orgtr/ungtr, ormtr/unmtr. */
static trn_kstatus tridiagonal(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t);
    const int up = !d->lower;
    const int nq = d->fn == TRN_SOLVER_ORMTR ? (d->left ? d->m : d->n) : d->n;
    if (nq == 0 || (d->fn == TRN_SOLVER_ORMTR && (d->m == 0 || d->n == 0)))
        return TRN_KSTATUS_OK;
    const int kq = nq - 1;
    const int mn = d->m > d->n ? d->m : d->n;
    /* sytrd: n scratch elements and n pointers; orgtr/ormtr: the
     * reflectors, their taus, a vector, and orgtr's n x n Q. */
    const size_t v_bytes = (size_t)nq * (size_t)kq * es, t_bytes = (size_t)(kq > 0 ? kq : 1) * es;
    const size_t y_bytes = (size_t)(mn > nq ? mn : nq) * es;
    const size_t q_bytes = d->fn == TRN_SOLVER_ORGTR ? (size_t)nq * (size_t)nq * es : 0;
    /* sytrd: the pointer array first (aligned for pointers), the vector
     * after it at a 16-byte boundary. */
    const size_t xp_bytes = ((size_t)nq * sizeof(void *) + 15) & ~(size_t)15;
    const size_t bytes = d->fn == TRN_SOLVER_SYTRD ? xp_bytes + (size_t)nq * es
                                                   : v_bytes + t_bytes + y_bytes + q_bytes;
    unsigned char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the workspace of %s (order %d)",
                                  trn_solver_name(d->fn, t), nq);
    if (d->fn == TRN_SOLVER_SYTRD) {
        void *xp = ws;
        void *w = ws + xp_bytes;
        switch (t) {
        case TRN_DTYPE_R32F: sytrd_s(up, nq, d->a, d->lda, d->d, d->e, d->tau, w, xp); break;
        case TRN_DTYPE_R64F: sytrd_d(up, nq, d->a, d->lda, d->d, d->e, d->tau, w, xp); break;
        case TRN_DTYPE_C32F: sytrd_c(up, nq, d->a, d->lda, d->d, d->e, d->tau, w, xp); break;
        case TRN_DTYPE_C64F:
            sytrd_z(up, nq, d->a, d->lda, d->d, d->e, d->tau, w, xp);
            break;
        TRN_DTYPE_GEMM_ONLY_CASES:
            break;
        }
        trn_solver_ws_put(ws, bytes);
        return TRN_KSTATUS_OK;
    }
    void *v = ws, *tau = ws + v_bytes, *y = ws + v_bytes + t_bytes;
    reflectors(t, d->lower, nq, d->a, d->lda, v);
    memcpy(tau, d->tau, (size_t)kq * es);
    void *c = d->b;
    int ldc = d->ldb, m = d->m, n = d->n, left = d->left, adj = d->trans != TRN_TRANS_N;
    if (d->fn == TRN_SOLVER_ORGTR) {
        c = ws + v_bytes + t_bytes + y_bytes;
        identity(t, nq, c);
        ldc = m = n = nq;
        left = 1;
        adj = 0;
    }
    switch (t) {
    case TRN_DTYPE_R32F: apply_q_s(d->lower, left, adj, m, n, nq, v, tau, c, ldc, y); break;
    case TRN_DTYPE_R64F: apply_q_d(d->lower, left, adj, m, n, nq, v, tau, c, ldc, y); break;
    case TRN_DTYPE_C32F: apply_q_c(d->lower, left, adj, m, n, nq, v, tau, c, ldc, y); break;
    case TRN_DTYPE_C64F:
        apply_q_z(d->lower, left, adj, m, n, nq, v, tau, c, ldc, y);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
    if (d->fn == TRN_SOLVER_ORGTR)
        for (int j = 0; j < nq; j++)
            memcpy((char *)d->a + (size_t)j * (size_t)d->lda * es,
                   (const char *)c + (size_t)j * (size_t)nq * es, (size_t)nq * es);
    trn_solver_ws_put(ws, bytes);
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_solver_more(const trn_solver_dense_desc *d, trn_kmsg *msg, int *info) {
    const trn_dtype t = d->type;
    const int n = d->n, up = !d->lower;
    *info = 0;
    switch (d->fn) {
    case TRN_SOLVER_SYTRF:
        *info = TRN_BY_TYPE(
            t, sytrf_s(up, n, d->a, d->lda, d->ipiv), sytrf_d(up, n, d->a, d->lda, d->ipiv),
            sytrf_c(up, n, d->a, d->lda, d->ipiv), sytrf_z(up, n, d->a, d->lda, d->ipiv));
        return TRN_KSTATUS_OK;
    case TRN_SOLVER_LASWP: return laswp(d, msg);
    case TRN_SOLVER_SYTRD:
    case TRN_SOLVER_ORGTR:
    case TRN_SOLVER_ORMTR: return tridiagonal(d, msg);
    case TRN_SOLVER_LAUUM: {
        if (n == 0)
            return TRN_KSTATUS_OK;
        const size_t bytes = (size_t)n * (size_t)n * trn_dtype_size(t);
        void *w = trn_solver_ws_get(bytes);
        if (!w)
            return trn_kmsg_no_memory(msg, 0, bytes, "lauum's copy of the triangle (n %d)", n);
        lauum(d, w);
        trn_solver_ws_put(w, bytes);
        return TRN_KSTATUS_OK;
    }
    case TRN_SOLVER_SYTRS:
    case TRN_SOLVER_SYTRI: break;
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
    if (n == 0)
        return TRN_KSTATUS_OK;
    /* sytrs and sytri: the pivots (2n int32: the raw copy, then the
     * mirrored ones) and, for sytri, the n x n right-hand side. */
    const size_t es = trn_dtype_size(t);
    const size_t piv_bytes = d->ipiv ? 2 * (size_t)n * sizeof(int32_t) : 0;
    const size_t rhs_off = (piv_bytes + 63) & ~(size_t)63;
    const size_t bytes = rhs_off + (d->fn == TRN_SOLVER_SYTRI ? (size_t)n * (size_t)n * es : 0);
    if (bytes == 0) {
        sytrs_any(t, up, n, d->nrhs, d->a, d->lda, NULL, d->b, d->ldb);
        return TRN_KSTATUS_OK;
    }
    unsigned char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the workspace of %s (n %d)",
                                  trn_solver_name(d->fn, t), n);
    trn_kstatus st = TRN_KSTATUS_OK;
    int32_t *piv = NULL;
    if (d->ipiv) {
        int32_t *raw = (int32_t *)(void *)ws;
        if (read_pivots(d, msg, raw)) {
            st = TRN_KSTATUS_FAILED;
            goto done;
        }
        piv = raw + n;
        mirror_pivots(up, n, raw, piv);
    }
    if (d->fn == TRN_SOLVER_SYTRS) {
        sytrs_any(t, up, n, d->nrhs, d->a, d->lda, piv, d->b, d->ldb);
        goto done;
    }
    *info = TRN_BY_TYPE(
        t, sytri_zero_s(up, n, d->a, d->lda, piv), sytri_zero_d(up, n, d->a, d->lda, piv),
        sytri_zero_c(up, n, d->a, d->lda, piv), sytri_zero_z(up, n, d->a, d->lda, piv));
    if (*info == 0) {
        void *x = ws + rhs_off;
        identity(t, n, x);
        sytrs_any(t, up, n, n, d->a, d->lda, piv, x, n);
        trn_solver_copy_triangle(d->lower, n, es, x, n, d->a, d->lda, 0);
    }
done:
    trn_solver_ws_put(ws, bytes);
    return st;
}
