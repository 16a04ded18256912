/*
 * check_blas2.c — the self-test's checks of the BLAS Level 2 routines.
 *
 * Shapes: square and rectangular matrices from 1×1 to 257×31 (odd sizes,
 * sizes around multiples of 8/16/32/64), lda = m and m + 3, increment
 * pairs with negative and non-unit values, every transpose, both
 * triangles, unit and non-unit diagonals, beta = 0 with y holding NaNs
 * (BLAS does not read y then), alpha = 0. Entries the routine must not
 * read (the other triangle, a unit diagonal, the imaginary parts of a
 * Hermitian diagonal, band storage outside the band) hold NaNs.
 *
 * Bounds (u the unit roundoff, f = 2 real, 5 complex; k the length of
 * each inner product):
 *   gemv, gbmv, symv, hemv, trmv: (k+2)·f·u·(|α|·Σ|a_ij||x_j| + |β||y_i|);
 *   trsv: backward error, |T·x̂ − b|_i ≤ (n+1)·f·u·(|T|·|x̂|)_i with T
 *         well conditioned (off-diagonal entries scaled by 1/n);
 *   ger, geru, gerc, syr, her, syr2, her2: 2·f·u·(|α||x_i||y_j| + |a_ij|)
 *         per rank-1 term.
 *
 * hemv is checked as blas2.c calls it: on contiguous x and y with one
 * spare element after y (OpenBLAS 0.3.21's zhemv reads one element past y
 * on every kernel set); the spare element must not be written.
 */
#include <math.h>
#include <stdio.h>

#include "kernels/cpu/selftest/checks.h"

typedef enum kind { K_GEMV, K_GBMV, K_SYMV, K_TRMV, K_TRSV, K_GER, K_GERC, K_SYR, K_SYR2 } kind;

#define E(name, k, t)                                                                              \
    { TRN_R_##name, k, t }
static const st_entry table[] = {
    E(cblas_sgemv, K_GEMV, ST_S), E(cblas_dgemv, K_GEMV, ST_D), E(cblas_cgemv, K_GEMV, ST_C),
    E(cblas_zgemv, K_GEMV, ST_Z), E(cblas_sgbmv, K_GBMV, ST_S), E(cblas_dgbmv, K_GBMV, ST_D),
    E(cblas_cgbmv, K_GBMV, ST_C), E(cblas_zgbmv, K_GBMV, ST_Z), E(cblas_ssymv, K_SYMV, ST_S),
    E(cblas_dsymv, K_SYMV, ST_D), E(cblas_chemv, K_SYMV, ST_C), E(cblas_zhemv, K_SYMV, ST_Z),
    E(cblas_strmv, K_TRMV, ST_S), E(cblas_dtrmv, K_TRMV, ST_D), E(cblas_ctrmv, K_TRMV, ST_C),
    E(cblas_ztrmv, K_TRMV, ST_Z), E(cblas_strsv, K_TRSV, ST_S), E(cblas_dtrsv, K_TRSV, ST_D),
    E(cblas_ctrsv, K_TRSV, ST_C), E(cblas_ztrsv, K_TRSV, ST_Z), E(cblas_sger, K_GER, ST_S),
    E(cblas_dger, K_GER, ST_D),   E(cblas_cgeru, K_GER, ST_C),  E(cblas_zgeru, K_GER, ST_Z),
    E(cblas_cgerc, K_GERC, ST_C), E(cblas_zgerc, K_GERC, ST_Z), E(cblas_ssyr, K_SYR, ST_S),
    E(cblas_dsyr, K_SYR, ST_D),   E(cblas_cher, K_SYR, ST_C),   E(cblas_zher, K_SYR, ST_Z),
    E(cblas_ssyr2, K_SYR2, ST_S), E(cblas_dsyr2, K_SYR2, ST_D), E(cblas_cher2, K_SYR2, ST_C),
    E(cblas_zher2, K_SYR2, ST_Z),
};
#undef E

/* (m, n) of the general routines; the square ones use n. */
static const int shapes[][2] = {{1, 1},   {1, 7},    {7, 1},   {5, 3},   {8, 8},
                                {17, 9},  {16, 33},  {33, 64}, {64, 33}, {65, 65},
                                {31, 97}, {100, 37}, {257, 31}};
#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))
static const int incs[][2] = {{1, 1}, {-2, 3}, {3, -1}};
#define NINCS ((int)(sizeof(incs) / sizeof(incs[0])))

static int cx_transposes(st_type t) {
    return st_is_cx(t) ? 3 : 2; /* N, T, and C for complex (C is T for real) */
}

static CBLAS_UPLO uplo_of(int upper) {
    return upper ? CblasUpper : CblasLower;
}

/* A random scalar of type t, rounded to it; `mode` 0 random, 1 zero, 2 one. */
static st_lc scalar(st_check *c, st_type t, int mode) {
    if (mode == 1)
        return st_lc_make(0, 0);
    if (mode == 2)
        return st_lc_make(1, 0);
    const st_scalar a = st_scalar_of(t, st_lc_make(st_rand(c), st_is_cx(t) ? st_rand(c) : 0));
    return st_get(t, &a, 0);
}

/* op(A)(i, j) from A's entries before the call. */
static st_lc op_at(const st_mat *a, int trans, int i, int j, int sym) {
    if (trans == 0)
        return st_mat_at(a, i, j, sym);
    const st_lc v = st_mat_at(a, j, i, sym);
    return trans == 2 ? st_conj(v) : v;
}

/* want = alpha·M·x + beta·y (beta = 0: y not used) for the rows×cols
 * operator M given by `entry`, with the bound described at the top. */
typedef st_lc (*entry_fn)(const void *ctx, int i, int j);

static void matvec_ref(entry_fn entry, const void *ctx, int rows, int cols, st_lc alpha,
                       const st_vec *x, st_lc beta, const st_vec *y, st_lc *want,
                       long double *bound) {
    const long double u = st_unit(x->t), f = st_factor(x->t);
    const int use_y = beta.re != 0 || beta.im != 0;
    for (int i = 0; i < rows; i++) {
        st_lc s = {0, 0};
        long double mag = 0;
        for (int j = 0; j < cols; j++) {
            const st_lc a = entry(ctx, i, j), xj = st_vec_at(x, j);
            s = st_add(s, st_mul(a, xj));
            mag += st_mag(a) * st_mag(xj);
        }
        want[i] = st_mul(alpha, s);
        mag *= st_mag(alpha);
        if (use_y) {
            const st_lc yi = st_vec_at(y, i);
            want[i] = st_add(want[i], st_mul(beta, yi));
            mag += st_mag(beta) * st_mag(yi);
        }
        bound[i] = (long double)(cols + 2) * f * u * mag;
    }
}

/* ---- gemv ------------------------------------------------------------------------------- */

typedef struct op_ctx {
    const st_mat *a;
    int trans, sym;
} op_ctx;

static st_lc op_entry(const void *ctx, int i, int j) {
    const op_ctx *o = ctx;
    return op_at(o->a, o->trans, i, j, o->sym);
}

static void call_gemv(st_check *c, st_type t, int tr, int m, int n, st_lc alpha, const st_mat *a,
                      const st_vec *x, st_lc beta, st_vec *y) {
    const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
    const CBLAS_TRANSPOSE ct = st_cblas_trans(tr);
    switch (t) {
    case ST_S:
        ((__typeof__(&cblas_sgemv))c->fn)(CblasColMajor, ct, m, n, al.s, (const float *)a->p, a->ld,
                                          (const float *)x->p, x->inc, be.s, (float *)y->p, y->inc);
        break;
    case ST_D:
        ((__typeof__(&cblas_dgemv))c->fn)(CblasColMajor, ct, m, n, al.d, (const double *)a->p,
                                          a->ld, (const double *)x->p, x->inc, be.d, (double *)y->p,
                                          y->inc);
        break;
    case ST_C:
        ((__typeof__(&cblas_cgemv))c->fn)(CblasColMajor, ct, m, n, al.c, a->p, a->ld, x->p, x->inc,
                                          be.c, y->p, y->inc);
        break;
    case ST_Z:
        ((__typeof__(&cblas_zgemv))c->fn)(CblasColMajor, ct, m, n, al.z, a->p, a->ld, x->p, x->inc,
                                          be.z, y->p, y->inc);
        break;
    }
}

static void check_gemv(st_check *c, st_type t) {
    int cas = 0;
    for (int tr = 0; tr < cx_transposes(t); tr++)
        for (int s = 0; s < NSHAPES; s++)
            for (int p = 0; p < NINCS; p++, cas++) {
                const int m = shapes[s][0], n = shapes[s][1];
                const int lda = m + (cas % 2 ? 3 : 0);
                const int bmode = cas % 5 == 1 ? 1 : cas % 5 == 3 ? 2 : 0;
                const int amode = cas % 11 == 7 ? 1 : 0;
                const int ylen = tr == 0 ? m : n, xlen = tr == 0 ? n : m;
                st_case(c, "trans=%s m=%d n=%d lda=%d incx=%d incy=%d alpha=%s beta=%s",
                        st_trans_name(tr), m, n, lda, incs[p][0], incs[p][1],
                        amode ? "0" : "random",
                        bmode == 1   ? "0"
                        : bmode == 2 ? "1"
                                     : "random");
                st_mat a;
                st_vec x, y;
                if (st_mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 0, 0) ||
                    st_vec_make(c, 1, &x, t, xlen, incs[p][0]) ||
                    st_vec_make(c, 2, &y, t, ylen, incs[p][1]))
                    continue;
                const st_lc alpha = scalar(c, t, amode), beta = scalar(c, t, bmode);
                if (bmode == 1 && amode == 0)
                    st_vec_poison(&y);
                call_gemv(c, t, tr, m, n, alpha, &a, &x, beta, &y);
                st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)ylen);
                long double *bound = st_alloc(c, sizeof(long double) * (size_t)ylen);
                const op_ctx o = {&a, tr, 0};
                matvec_ref(op_entry, &o, ylen, xlen, alpha, &x, beta, &y, want, bound);
                if (amode && bmode == 2)
                    for (int i = 0; i < ylen; i++)
                        want[i] = st_vec_at(&y, i), bound[i] = 0; /* a quick return */
                st_vec_check(c, "y", &y, want, bound);
                st_mat_unchanged(c, "A", &a);
                st_vec_unchanged(c, "x", &x);
            }
}

/* ---- gbmv ------------------------------------------------------------------------------- */

typedef struct band_ctx {
    const st_mat *a; /* band storage: (ku + i − j, j) holds A(i, j) */
    int m, n, kl, ku, trans;
} band_ctx;

static st_lc band_at(const band_ctx *b, int i, int j) {
    if (i < 0 || j < 0 || i >= b->m || j >= b->n || i - j > b->kl || j - i > b->ku)
        return st_lc_make(0, 0);
    return st_mat_at(b->a, b->ku + i - j, j, 0);
}

static st_lc band_entry(const void *ctx, int i, int j) {
    const band_ctx *b = ctx;
    if (b->trans == 0)
        return band_at(b, i, j);
    const st_lc v = band_at(b, j, i);
    return b->trans == 2 ? st_conj(v) : v;
}

static const int bands[][2] = {{0, 0}, {1, 0}, {0, 2}, {2, 1}, {3, 5}};
#define NBANDS ((int)(sizeof(bands) / sizeof(bands[0])))

static void check_gbmv(st_check *c, st_type t) {
    int cas = 0;
    for (int tr = 0; tr < cx_transposes(t); tr++)
        for (int s = 0; s < NSHAPES; s += 2)
            for (int bd = 0; bd < NBANDS; bd++, cas++) {
                const int m = shapes[s][0], n = shapes[s][1];
                const int kl = bands[bd][0], ku = bands[bd][1];
                const int rows = kl + ku + 1, lda = rows + (cas % 2 ? 2 : 0);
                const int incx = incs[cas % NINCS][0], incy = incs[cas % NINCS][1];
                const int bmode = cas % 4 == 1 ? 1 : 0;
                const int ylen = tr == 0 ? m : n, xlen = tr == 0 ? n : m;
                st_case(c, "trans=%s m=%d n=%d kl=%d ku=%d lda=%d incx=%d incy=%d beta=%s",
                        st_trans_name(tr), m, n, kl, ku, lda, incx, incy, bmode ? "0" : "random");
                st_mat a;
                st_vec x, y;
                if (st_mat_make(c, 0, &a, t, rows, n, lda, ST_ALL, 0, 0) ||
                    st_vec_make(c, 1, &x, t, xlen, incx) || st_vec_make(c, 2, &y, t, ylen, incy))
                    continue;
                /* Storage that holds no entry of A: the sentinel. */
                for (int j = 0; j < n; j++)
                    for (int r = 0; r < rows; r++) {
                        const int i = r - ku + j;
                        if (i < 0 || i >= m)
                            st_mat_poison(&a, r, j);
                    }
                const st_lc alpha = scalar(c, t, 0), beta = scalar(c, t, bmode);
                if (bmode == 1)
                    st_vec_poison(&y);
                const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
                const CBLAS_TRANSPOSE ct = st_cblas_trans(tr);
                switch (t) {
                case ST_S:
                    ((__typeof__(&cblas_sgbmv))c->fn)(CblasColMajor, ct, m, n, kl, ku, al.s,
                                                      (const float *)a.p, lda, (const float *)x.p,
                                                      incx, be.s, (float *)y.p, incy);
                    break;
                case ST_D:
                    ((__typeof__(&cblas_dgbmv))c->fn)(CblasColMajor, ct, m, n, kl, ku, al.d,
                                                      (const double *)a.p, lda, (const double *)x.p,
                                                      incx, be.d, (double *)y.p, incy);
                    break;
                case ST_C:
                    ((__typeof__(&cblas_cgbmv))c->fn)(CblasColMajor, ct, m, n, kl, ku, al.c, a.p,
                                                      lda, x.p, incx, be.c, y.p, incy);
                    break;
                case ST_Z:
                    ((__typeof__(&cblas_zgbmv))c->fn)(CblasColMajor, ct, m, n, kl, ku, al.z, a.p,
                                                      lda, x.p, incx, be.z, y.p, incy);
                    break;
                }
                st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)ylen);
                long double *bound = st_alloc(c, sizeof(long double) * (size_t)ylen);
                const band_ctx b = {&a, m, n, kl, ku, tr};
                matvec_ref(band_entry, &b, ylen, xlen, alpha, &x, beta, &y, want, bound);
                st_vec_check(c, "y", &y, want, bound);
                st_mat_unchanged(c, "A", &a);
                st_vec_unchanged(c, "x", &x);
            }
}

/* ---- symv, hemv ------------------------------------------------------------------------ */

static void check_symv(st_check *c, st_type t) {
    const int herm = st_is_cx(t);
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int s = 0; s < NSHAPES; s++)
            for (int p = 0; p < NINCS; p++, cas++) {
                if (herm && p > 0)
                    continue; /* unit increments (see the top of the file) */
                const int n = shapes[s][1];
                const int lda = n + (cas % 2 ? 3 : 0);
                const int bmode = cas % 4 == 1 ? 1 : 0;
                st_case(c, "uplo=%s n=%d lda=%d incx=%d incy=%d beta=%s%s", up ? "U" : "L", n, lda,
                        incs[p][0], incs[p][1], bmode ? "0" : "random",
                        herm ? " (one spare element after y)" : "");
                st_mat a;
                st_vec x, y;
                if (st_mat_make(c, 0, &a, t, n, n, lda, up ? ST_UPPER : ST_LOWER, 0, herm) ||
                    st_vec_make(c, 1, &x, t, n, incs[p][0]) ||
                    st_vec_make_spare(c, 2, &y, t, n, incs[p][1], herm))
                    continue;
                const st_lc alpha = scalar(c, t, 0), beta = scalar(c, t, bmode);
                if (bmode == 1)
                    st_vec_poison(&y);
                const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
                const CBLAS_UPLO ul = uplo_of(up);
                switch (t) {
                case ST_S:
                    ((__typeof__(&cblas_ssymv))c->fn)(CblasColMajor, ul, n, al.s,
                                                      (const float *)a.p, lda, (const float *)x.p,
                                                      x.inc, be.s, (float *)y.p, y.inc);
                    break;
                case ST_D:
                    ((__typeof__(&cblas_dsymv))c->fn)(CblasColMajor, ul, n, al.d,
                                                      (const double *)a.p, lda, (const double *)x.p,
                                                      x.inc, be.d, (double *)y.p, y.inc);
                    break;
                case ST_C:
                    ((__typeof__(&cblas_chemv))c->fn)(CblasColMajor, ul, n, al.c, a.p, lda, x.p,
                                                      x.inc, be.c, y.p, y.inc);
                    break;
                case ST_Z:
                    ((__typeof__(&cblas_zhemv))c->fn)(CblasColMajor, ul, n, al.z, a.p, lda, x.p,
                                                      x.inc, be.z, y.p, y.inc);
                    break;
                }
                st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)n);
                long double *bound = st_alloc(c, sizeof(long double) * (size_t)n);
                const op_ctx o = {&a, 0, herm ? 2 : 1};
                matvec_ref(op_entry, &o, n, n, alpha, &x, beta, &y, want, bound);
                st_vec_check(c, "y", &y, want, bound);
                st_mat_unchanged(c, "A", &a);
                st_vec_unchanged(c, "x", &x);
            }
}

/* ---- trmv, trsv ------------------------------------------------------------------------- */

static void call_tr(st_check *c, st_type t, int solve, int up, int tr, int unit, int n,
                    const st_mat *a, st_vec *x) {
    const CBLAS_UPLO ul = uplo_of(up);
    const CBLAS_TRANSPOSE ct = st_cblas_trans(tr);
    const CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
    switch (t) {
    case ST_S:
        if (solve)
            ((__typeof__(&cblas_strsv))c->fn)(CblasColMajor, ul, ct, dg, n, (const float *)a->p,
                                              a->ld, (float *)x->p, x->inc);
        else
            ((__typeof__(&cblas_strmv))c->fn)(CblasColMajor, ul, ct, dg, n, (const float *)a->p,
                                              a->ld, (float *)x->p, x->inc);
        break;
    case ST_D:
        if (solve)
            ((__typeof__(&cblas_dtrsv))c->fn)(CblasColMajor, ul, ct, dg, n, (const double *)a->p,
                                              a->ld, (double *)x->p, x->inc);
        else
            ((__typeof__(&cblas_dtrmv))c->fn)(CblasColMajor, ul, ct, dg, n, (const double *)a->p,
                                              a->ld, (double *)x->p, x->inc);
        break;
    case ST_C:
        if (solve)
            ((__typeof__(&cblas_ctrsv))c->fn)(CblasColMajor, ul, ct, dg, n, a->p, a->ld, x->p,
                                              x->inc);
        else
            ((__typeof__(&cblas_ctrmv))c->fn)(CblasColMajor, ul, ct, dg, n, a->p, a->ld, x->p,
                                              x->inc);
        break;
    case ST_Z:
        if (solve)
            ((__typeof__(&cblas_ztrsv))c->fn)(CblasColMajor, ul, ct, dg, n, a->p, a->ld, x->p,
                                              x->inc);
        else
            ((__typeof__(&cblas_ztrmv))c->fn)(CblasColMajor, ul, ct, dg, n, a->p, a->ld, x->p,
                                              x->inc);
        break;
    }
}

static void check_tr(st_check *c, st_type t, int solve) {
    const long double u = st_unit(t), f = st_factor(t);
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int tr = 0; tr < cx_transposes(t); tr++)
            for (int unit = 0; unit <= 1; unit++)
                for (int s = 0; s < NSHAPES; s += 2, cas++) {
                    const int n = shapes[s][1];
                    const int lda = n + (cas % 2 ? 3 : 0);
                    const int inc = incs[cas % NINCS][cas % 2];
                    st_case(c, "uplo=%s trans=%s diag=%s n=%d lda=%d incx=%d", up ? "U" : "L",
                            st_trans_name(tr), unit ? "U" : "N", n, lda, inc);
                    st_mat a;
                    st_vec x;
                    if (st_mat_make(c, 0, &a, t, n, n, lda, up ? ST_UPPER : ST_LOWER, unit, 0) ||
                        st_vec_make(c, 1, &x, t, n, inc))
                        continue;
                    st_mat_condition(c, &a);
                    call_tr(c, t, solve, up, tr, unit, n, &a, &x);
                    st_mat_unchanged(c, "A", &a);
                    if (!solve) {
                        st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)n);
                        long double *bound = st_alloc(c, sizeof(long double) * (size_t)n);
                        const op_ctx o = {&a, tr, 0};
                        matvec_ref(op_entry, &o, n, n, st_lc_make(1, 0), &x, st_lc_make(0, 0), &x,
                                   want, bound);
                        st_vec_check(c, "x", &x, want, bound);
                        continue;
                    }
                    /* Residual of the computed solution against the old x (b). */
                    char what[48];
                    for (int i = 0; i < n; i++) {
                        st_lc r = {0, 0};
                        long double mag = 0;
                        for (int j = 0; j < n; j++) {
                            const st_lc aij = op_at(&a, tr, i, j, 0), xj = st_vec_now(&x, j);
                            r = st_add(r, st_mul(aij, xj));
                            mag += st_mag(aij) * st_mag(xj);
                        }
                        const long double bound = (long double)(n + 1) * f * u * mag;
                        if (st_near(c, r, st_vec_at(&x, i), bound))
                            continue;
                        snprintf(what, sizeof(what), "(op(A)·x − b)[%d]", i);
                        if (!st_expect(c, what, r, st_vec_at(&x, i), bound))
                            break;
                    }
                    st_vec_gaps(c, "x", &x);
                }
}

/* ---- rank-1 and rank-2 updates ---------------------------------------------------------- */

static void check_ger(st_check *c, st_type t, int conj) {
    const long double u = st_unit(t), f = st_factor(t);
    int cas = 0;
    for (int s = 0; s < NSHAPES; s++)
        for (int p = 0; p < NINCS; p++, cas++) {
            const int m = shapes[s][0], n = shapes[s][1];
            const int lda = m + (cas % 2 ? 3 : 0);
            st_case(c, "m=%d n=%d lda=%d incx=%d incy=%d", m, n, lda, incs[p][0], incs[p][1]);
            st_mat a;
            st_vec x, y;
            if (st_mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 0, 0) ||
                st_vec_make(c, 1, &x, t, m, incs[p][0]) || st_vec_make(c, 2, &y, t, n, incs[p][1]))
                continue;
            const st_lc alpha = scalar(c, t, 0);
            const st_scalar al = st_scalar_of(t, alpha);
            switch (t) {
            case ST_S:
                ((__typeof__(&cblas_sger))c->fn)(CblasColMajor, m, n, al.s, (const float *)x.p,
                                                 x.inc, (const float *)y.p, y.inc, (float *)a.p,
                                                 lda);
                break;
            case ST_D:
                ((__typeof__(&cblas_dger))c->fn)(CblasColMajor, m, n, al.d, (const double *)x.p,
                                                 x.inc, (const double *)y.p, y.inc, (double *)a.p,
                                                 lda);
                break;
            case ST_C:
                if (conj)
                    ((__typeof__(&cblas_cgerc))c->fn)(CblasColMajor, m, n, al.c, x.p, x.inc, y.p,
                                                      y.inc, a.p, lda);
                else
                    ((__typeof__(&cblas_cgeru))c->fn)(CblasColMajor, m, n, al.c, x.p, x.inc, y.p,
                                                      y.inc, a.p, lda);
                break;
            case ST_Z:
                if (conj)
                    ((__typeof__(&cblas_zgerc))c->fn)(CblasColMajor, m, n, al.z, x.p, x.inc, y.p,
                                                      y.inc, a.p, lda);
                else
                    ((__typeof__(&cblas_zgeru))c->fn)(CblasColMajor, m, n, al.z, x.p, x.inc, y.p,
                                                      y.inc, a.p, lda);
                break;
            }
            const size_t count = (size_t)m * (size_t)n;
            st_lc *want = st_alloc(c, sizeof(st_lc) * count);
            long double *bound = st_alloc(c, sizeof(long double) * count);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++) {
                    st_lc yj = st_vec_at(&y, j);
                    if (conj)
                        yj = st_conj(yj);
                    const st_lc xi = st_vec_at(&x, i), aij = st_mat_at(&a, i, j, 0);
                    const size_t k = (size_t)j * (size_t)m + (size_t)i;
                    want[k] = st_add(aij, st_mul(alpha, st_mul(xi, yj)));
                    bound[k] = 2 * f * u * (st_mag(alpha) * st_mag(xi) * st_mag(yj) + st_mag(aij));
                }
            st_mat_check(c, "A", &a, ST_ALL, 0, want, bound);
            st_vec_unchanged(c, "x", &x);
            st_vec_unchanged(c, "y", &y);
        }
}

/* syr/her (two = 0) and syr2/her2 (two = 1) on the uplo triangle. */
static void check_syr(st_check *c, st_type t, int two) {
    const long double u = st_unit(t), f = st_factor(t);
    const int herm = st_is_cx(t);
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int s = 0; s < NSHAPES; s++)
            for (int p = 0; p < NINCS; p++, cas++) {
                const int n = shapes[s][1];
                const int lda = n + (cas % 2 ? 3 : 0);
                st_case(c, "uplo=%s n=%d lda=%d incx=%d incy=%d", up ? "U" : "L", n, lda,
                        incs[p][0], incs[p][1]);
                const st_part part = up ? ST_UPPER : ST_LOWER;
                st_mat a;
                st_vec x, y;
                if (st_mat_make(c, 0, &a, t, n, n, lda, part, 0, herm) ||
                    st_vec_make(c, 1, &x, t, n, incs[p][0]) ||
                    st_vec_make(c, 2, &y, t, n, incs[p][1]))
                    continue;
                /* her takes a real alpha; her2 a complex one. */
                st_lc alpha = scalar(c, t, 0);
                if (herm && !two)
                    alpha.im = 0;
                const st_scalar al = st_scalar_of(t, alpha);
                const CBLAS_UPLO ul = uplo_of(up);
                switch (t) {
                case ST_S:
                    if (two)
                        ((__typeof__(&cblas_ssyr2))c->fn)(
                            CblasColMajor, ul, n, al.s, (const float *)x.p, x.inc,
                            (const float *)y.p, y.inc, (float *)a.p, lda);
                    else
                        ((__typeof__(&cblas_ssyr))c->fn)(CblasColMajor, ul, n, al.s,
                                                         (const float *)x.p, x.inc, (float *)a.p,
                                                         lda);
                    break;
                case ST_D:
                    if (two)
                        ((__typeof__(&cblas_dsyr2))c->fn)(
                            CblasColMajor, ul, n, al.d, (const double *)x.p, x.inc,
                            (const double *)y.p, y.inc, (double *)a.p, lda);
                    else
                        ((__typeof__(&cblas_dsyr))c->fn)(CblasColMajor, ul, n, al.d,
                                                         (const double *)x.p, x.inc, (double *)a.p,
                                                         lda);
                    break;
                case ST_C:
                    if (two)
                        ((__typeof__(&cblas_cher2))c->fn)(CblasColMajor, ul, n, al.c, x.p, x.inc,
                                                          y.p, y.inc, a.p, lda);
                    else
                        ((__typeof__(&cblas_cher))c->fn)(CblasColMajor, ul, n, al.c[0], x.p, x.inc,
                                                         a.p, lda);
                    break;
                case ST_Z:
                    if (two)
                        ((__typeof__(&cblas_zher2))c->fn)(CblasColMajor, ul, n, al.z, x.p, x.inc,
                                                          y.p, y.inc, a.p, lda);
                    else
                        ((__typeof__(&cblas_zher))c->fn)(CblasColMajor, ul, n, al.z[0], x.p, x.inc,
                                                         a.p, lda);
                    break;
                }
                const size_t count = (size_t)n * (size_t)n;
                st_lc *want = st_alloc(c, sizeof(st_lc) * count);
                long double *bound = st_alloc(c, sizeof(long double) * count);
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++) {
                        const size_t k = (size_t)j * (size_t)n + (size_t)i;
                        if ((up && i > j) || (!up && i < j)) {
                            want[k] = st_lc_make(0, 0);
                            bound[k] = 0;
                            continue;
                        }
                        const st_lc xi = st_vec_at(&x, i), xj = st_vec_at(&x, j);
                        const st_lc yi = st_vec_at(&y, i), yj = st_vec_at(&y, j);
                        const st_lc aij = st_mat_at(&a, i, j, 0);
                        /* x y^H: conj on the right for Hermitian routines. */
                        const st_lc cxj = herm ? st_conj(xj) : xj, cyj = herm ? st_conj(yj) : yj;
                        st_lc w = st_add(aij, st_mul(alpha, st_mul(xi, two ? cyj : cxj)));
                        long double mag =
                            st_mag(aij) + st_mag(alpha) * st_mag(xi) * st_mag(two ? yj : xj);
                        if (two) {
                            const st_lc ca = herm ? st_conj(alpha) : alpha;
                            w = st_add(w, st_mul(ca, st_mul(yi, cxj)));
                            mag += st_mag(alpha) * st_mag(yi) * st_mag(xj);
                        }
                        if (herm && i == j)
                            w.im = 0;
                        want[k] = w;
                        bound[k] = 2 * f * u * mag;
                    }
                st_mat_check(c, "A", &a, part, herm, want, bound);
                st_vec_unchanged(c, "x", &x);
                if (two)
                    st_vec_unchanged(c, "y", &y);
            }
}

void st_check_blas2(st_check *c) {
    const st_entry *e = st_find_entry(table, sizeof(table) / sizeof(table[0]), c->id);
    if (!e)
        return;
    const st_type t = e->t;
    switch ((kind)e->kind) {
    case K_GEMV: check_gemv(c, t); break;
    case K_GBMV: check_gbmv(c, t); break;
    case K_SYMV: check_symv(c, t); break;
    case K_TRMV: check_tr(c, t, 0); break;
    case K_TRSV: check_tr(c, t, 1); break;
    case K_GER: check_ger(c, t, 0); break;
    case K_GERC: check_ger(c, t, 1); break;
    case K_SYR: check_syr(c, t, 0); break;
    case K_SYR2: check_syr(c, t, 1); break;
    }
}
