/*
 * sparse_common.c — helpers shared by the trnsparse kernels: the row
 * structure of compressed formats, the nnz-balanced deterministic row split,
 * the structure checks and their messages, and the strided dense product
 * (sparse_common.h has the contract).
 */
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/routines.h"

#include <cblas.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

int trn_sp_no_memory(trn_kmsg *msg, int shard, size_t bytes, const char *what, ...) {
    char w[TRN_KMSG_LEN];
    va_list ap;
    va_start(ap, what);
    vsnprintf(w, sizeof(w), what, ap);
    va_end(ap);
    trn_kmsg_no_memory(msg, shard, bytes, "%s", w);
    return TRN_SP_NOMEM;
}

trn_sp_rows trn_sp_rows_of(const trn_sp_mat *a, const char *mat) {
    trn_sp_rows s = {
        .off = a->offsets,
        .idx = a->indices,
        .nrows = a->format == TRN_SP_CSC ? a->cols : a->brows,
        .ncols = a->format == TRN_SP_CSC ? a->rows : a->bcols,
        .nnz = a->nnz,
        .base = a->base,
        .idx64 = a->idx64,
        .format = a->format,
        .mat = mat,
    };
    return s;
}

/* Offset of row r clamped to [0, nnz]: whatever the array holds. */
static uint64_t clamped_offset(const trn_sp_rows *s, int64_t r) {
    const int64_t v = trn_sp_ld(s->off, r, s->idx64);
    if (v <= s->base)
        return 0;
    return v - s->base > s->nnz ? (uint64_t)s->nnz : (uint64_t)(v - s->base);
}

/* Stored entries before row r plus one per row: non-decreasing in r for
 * valid offsets (and harmless for any others: the search below only ever
 * moves forward). */
static uint64_t row_weight(const trn_sp_rows *s, int64_t r) {
    return clamped_offset(s, r) + (uint64_t)r;
}

/* total * t / n without overflow (t <= n). */
static uint64_t share(uint64_t total, int t, int n) {
    const uint64_t q = total / (uint64_t)n, rem = total % (uint64_t)n;
    return q * (uint64_t)t + rem * (uint64_t)t / (uint64_t)n;
}

void trn_sp_row_split(const trn_sp_rows *s, int shard, int nshards, int64_t *lo, int64_t *hi) {
    if (nshards <= 1 || s->nrows == 0) {
        *lo = 0;
        *hi = shard == 0 ? s->nrows : 0;
        return;
    }
    /* Split points f(0) = 0 <= f(1) <= ... <= f(n) = nrows: f(t) is the first
     * row at or after f(t-1) whose weight reaches t/n of the total. Every
     * shard computes the points the same way from the same memory, so
     * neighbours agree on their shared end and the ranges never overlap. */
    const uint64_t total = row_weight(s, s->nrows);
    int64_t f_prev = 0, f = 0;
    for (int t = 1; t <= shard + 1; t++) {
        f_prev = f;
        if (t == nshards) {
            f = s->nrows;
            break;
        }
        const uint64_t target = share(total, t, nshards);
        int64_t a = f_prev, b = s->nrows; /* the first r in [a, b] with weight >= target */
        while (a < b) {
            const int64_t mid = a + (b - a) / 2;
            if (row_weight(s, mid) >= target)
                b = mid;
            else
                a = mid + 1;
        }
        f = a;
    }
    *lo = f_prev;
    *hi = f;
}

int trn_sp_row_bounds(const trn_sp_rows *s, int64_t r, trn_kmsg *msg, int64_t *p0, int64_t *p1) {
    const char *name = trn_sp_array_name(s->format, TRN_SP_OFFSETS);
    const int64_t v0 = trn_sp_ld(s->off, r, s->idx64), v1 = trn_sp_ld(s->off, r + 1, s->idx64);
    if (r == 0 && v0 != s->base) {
        trn_kmsg_post(msg, 0, 1, "%s: %s[0] = %lld is not the index base %d", s->mat, name,
                      (long long)v0, s->base);
        return -1;
    }
    if (v0 < s->base) {
        trn_kmsg_post(msg, (uint64_t)r, 1, "%s: %s[%lld] = %lld is below the index base %d", s->mat,
                      name, (long long)r, (long long)v0, s->base);
        return -1;
    }
    if (v1 < v0) {
        trn_kmsg_post(msg, (uint64_t)r, 1,
                      "%s: %s[%lld] = %lld is less than %s[%lld] = %lld (offsets must not "
                      "decrease)",
                      s->mat, name, (long long)r + 1, (long long)v1, name, (long long)r,
                      (long long)v0);
        return -1;
    }
    if (v1 - s->base > s->nnz) {
        trn_kmsg_post(msg, (uint64_t)r, 1, "%s: %s[%lld] = %lld is beyond nnz + base = %lld",
                      s->mat, name, (long long)r + 1, (long long)v1, (long long)s->nnz + s->base);
        return -1;
    }
    *p0 = v0 - s->base;
    *p1 = v1 - s->base;
    return 0;
}

int trn_sp_row_fail(const trn_sp_rows *s, int64_t r, trn_kmsg *msg) {
    int64_t p0, p1;
    if (trn_sp_row_bounds(s, r, msg, &p0, &p1) == 0)
        trn_kmsg_post(msg, (uint64_t)r, 1, "%s: %s around row %lld changed while the op ran",
                      s->mat, trn_sp_array_name(s->format, TRN_SP_OFFSETS), (long long)r);
    return -1;
}

int trn_sp_bad_index(trn_kmsg *msg, uint64_t rank, const char *mat, trn_sp_format f,
                     trn_sp_array which, int64_t p, int64_t v, int base, int64_t n,
                     const char *where) {
    trn_kmsg_post(msg, rank, 1, "%s: %s[%lld] = %lld is outside [%d, %lld]%s", mat,
                  trn_sp_array_name(f, which), (long long)p, (long long)v, base,
                  (long long)n - 1 + base, where);
    return -1;
}

/* ---- the strided dense product --------------------------------------------------- */

/* How a BLAS call sees an operand of rows x cols with strides (r, c): as
 * stored column-major (trans 0) or as the transpose of a column-major
 * matrix (a row-major one, trans 1), with its leading dimension; -1 when
 * neither fits. */
static int blas_view(int64_t r, int64_t c, int64_t rows, int64_t cols, int *trans, int *ld) {
    const int64_t need_c = rows > 1 ? rows : 1, need_r = cols > 1 ? cols : 1;
    if ((r == 1 || rows <= 1) && c >= need_c && c <= INT_MAX) {
        *trans = 0;
        *ld = (int)c;
        return 0;
    }
    if ((c == 1 || cols <= 1) && r >= need_r && r <= INT_MAX) {
        *trans = 1;
        *ld = (int)r;
        return 0;
    }
    return -1;
}

/* Below this many multiply-adds a loop beats the call. */
#define GEMM_MIN_BLAS 4096.0

#define DEFINE_GEMM_LOOP(T, SFX)                                                                   \
    static void gemm_loop_##SFX(int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t ar,  \
                                int64_t ac, const T *b, int64_t br, int64_t bc, T beta, T *c,      \
                                int64_t cr, int64_t cc) {                                          \
        for (int64_t i = 0; i < m; i++)                                                            \
            for (int64_t j = 0; j < n; j++) {                                                      \
                T acc = 0;                                                                         \
                for (int64_t p = 0; p < k; p++)                                                    \
                    acc += a[i * ar + p * ac] * b[p * br + j * bc];                                \
                T *cp = &c[i * cr + j * cc];                                                       \
                *cp = beta == 0 ? alpha * acc : alpha * acc + beta * *cp;                          \
            }                                                                                      \
    }
DEFINE_GEMM_LOOP(float, s)
DEFINE_GEMM_LOOP(double, d)

void trn_sp_gemm(trn_dtype t, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                 int64_t ar, int64_t ac, const void *b, int64_t br, int64_t bc, double beta,
                 void *c, int64_t cr, int64_t cc) {
    if (m <= 0 || n <= 0)
        return;
    /* BLAS computes a column-major C; a row-major C is computed as
     * C^T = B^T A^T. A C that is neither takes the loop. */
    const int ccol = cr == 1 || m <= 1, crow = !ccol && (cc == 1 || n <= 1);
    const int64_t M = crow ? n : m, N = crow ? m : n;
    const void *A = crow ? b : a, *B = crow ? a : b;
    const int64_t Ar = crow ? bc : ar, Ac = crow ? br : ac;
    const int64_t Br = crow ? ac : br, Bc = crow ? ar : bc;
    const int64_t Cc = crow ? cr : cc;
    int ta, tb, lda, ldb, tc, ldc;
    const int blas = (ccol || crow) && (double)m * (double)n * (double)k >= GEMM_MIN_BLAS &&
                     M <= INT_MAX && N <= INT_MAX && k <= INT_MAX &&
                     blas_view(Ar, Ac, M, k, &ta, &lda) == 0 &&
                     blas_view(Br, Bc, k, N, &tb, &ldb) == 0 &&
                     blas_view(1, Cc, M, N, &tc, &ldc) == 0 && tc == 0;
    if (blas && t == TRN_DTYPE_R32F) {
        TRN_LIB(cblas_sgemm)
        (CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)M,
         (int)N, (int)k, (float)alpha, A, lda, B, ldb, (float)beta, c, ldc);
    } else if (blas) {
        TRN_LIB(cblas_dgemm)
        (CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, (int)M,
         (int)N, (int)k, alpha, A, lda, B, ldb, beta, c, ldc);
    } else if (t == TRN_DTYPE_R32F) {
        gemm_loop_s(m, n, k, (float)alpha, a, ar, ac, b, br, bc, (float)beta, c, cr, cc);
    } else {
        gemm_loop_d(m, n, k, alpha, a, ar, ac, b, br, bc, beta, c, cr, cc);
    }
}
