/*
 * check_lapack.c — the self-test's checks of the LAPACK routines, in the
 * LAPACKE *_work forms and column-major layout the trnsolver kernels use:
 * a workspace query (lwork = -1) with the candidate itself, then the call
 * with what it asked for.
 *
 * Every reference is computed here in long double from the operands as
 * stored, never by another LAPACK call. Inputs are built with a known
 * answer: diagonally dominant Hermitian matrices (potrf); triangular
 * factors L = D + N, D real in [1, 2], N small (potrs, potri, B = L·Lᴴ of
 * sygvd); LU factors from a long double LU of a random matrix (getrs, up
 * to n = 33; made directly beyond); Householder reflectors made as larfg
 * makes them from random vectors (orgqr, ormqr); A = Q·D·Qᴴ and A = U·Σ·Vᴴ
 * with Q, U, V products of random reflectors and chosen eigenvalues (a
 * repeated pair, a small one) or singular values (distinct, one tiny).
 * Results are probed with the unit vectors e_j (column by column: an
 * entry-by-entry check) while that costs at most DIRECT_MAX multiply-adds,
 * and beyond that with a random vector w (Freivalds: the result applied to
 * w against the reference applied to w, O(n²)).
 *
 * Shapes: n = 1, 2, small odd n, n around 32 and 64 (LAPACK's and
 * OpenBLAS's block sizes switch there) and one larger n, 72 to 160 (above
 * 128 where LAPACK blocks only beyond it: geqrf, orgqr, gebrd); m > n and
 * m < n (getrf, geqrf, gesvd on both sides of gesvd's QR/LQ threshold
 * 1.6); lda above the rows (the padding holds NaNs and must stay
 * untouched); both triangles; every trans and side the routine accepts;
 * jobz N and V; itype 1, 2, 3; every jobu/jobvt pair but (O, O); singular
 * and indefinite inputs for getrf's and potrf's info. What LAPACK documents
 * as not referenced (the other triangle) holds NaNs, so a routine that
 * reads it fails. syevd/heevd, sygvd/hegvd, gesvd and the complex potri run
 * as the kernels run them, on matrices followed by a slack of one column
 * and 256 bytes (Debian's OpenBLAS reads up to one element into it;
 * solver_util.h): reads there are tolerated, writes are not. Workspaces
 * are plain zeroed heap memory (st_alloc) of the length the query asked
 * for, inside larger blocks as the kernels' are: the Prescott kernels'
 * ssyevd reads just past its work array.
 *
 * Bounds (u the unit roundoff, f = 2 real, 5 complex; each from the
 * routine's backward error):
 *   potrf  |A − L̂·L̂ᴴ| ≤ f(n+1)u·|L̂||L̂ᴴ| (Cholesky: γ_{n+1}|L̂||L̂ᴴ|);
 *   potrs  |L·Lᴴ·X̂ − B| ≤ 2f(n+1)u·|L||Lᴴ||X̂| (two triangular solves, each
 *          (T + ΔT)·x̂ = b with |ΔT| ≤ γ_n|T|);
 *   potri  ‖A·X̂ − I‖₂ ≤ 2f(n+1)u·φ²ψ²: A·X̂ − I = L·E·L⁻¹ + L·Eᴴ·X̂_L + A·F
 *          with trtri's |E| ≤ γ_n|X̂_L||L| and lauum's |F| ≤ γ_n|X̂_L|ᴴ|X̂_L|,
 *          so γ_n·κ₂(A) thrice; φ ≥ ‖L‖₂, ψ ≥ ‖L⁻¹‖₂ from L = D + N:
 *          φ = max d + ‖N‖_F, ψ = 1/(min d − ‖N‖_F);
 *   getrf  |P·A − L̂·Û| ≤ f(k+1)u·|L̂||Û|, k = min(m, n) (LU: γ_k|L̂||Û|);
 *          |l_ij| ≤ 1, √2 complex (pivots by |re| + |im|);
 *   getrs  |op(A)·X̂ − B| ≤ 2f(n+1)u·op(|L||U|)·|X̂|, A = Pᵀ·L·U (two solves);
 *   geqrf  ‖a_j − Q̂·r̂_j‖₂ ≤ f·k(m+4)u·‖a_j‖₂: k reflectors, each applied
 *          with error (2m+7)u (a dot product, a scaling, an axpy; |τ|‖v‖² ≤ 2);
 *          ‖(Q̂ᴴQ̂ − I)·w‖₂ ≤ f·k(2m+8)u·‖w‖₂: each reflector's |τ|²‖v‖² =
 *          2·Re τ holds to β's error (nrm2, (m+1)u) and τ's and v's
 *          roundings (3u), times 2·Re τ ≤ 4;
 *   orgqr, ormqr  against the same rounded reflectors applied in long
 *          double: column j of Q, of op(Q)·C (side L) or row j of C·op(Q)
 *          (side R) within f·k(nq+4)u·‖c_j‖₂, nq the order of Q;
 *   syevd  with p = 8f(n+1)u (tridiagonal reduction's reflectors, 2(n+1)u
 *          per vector, and about two implicit QR sweeps per eigenvalue of
 *          plane rotations at 6u each): |λ̂_i − d_i| ≤ p·‖A‖_F (Weyl, with
 *          A's rounding), ‖A·V̂ − V̂·Λ̂‖₂ ≤ p·‖A‖_F, ‖V̂ᴴV̂ − I‖₂ ≤ p;
 *   sygvd  p as for syevd, B = L·Lᴴ, ‖B‖₂ ≤ φ², ‖B⁻¹‖₂ ≤ ψ², κ = φ²ψ²:
 *          |λ̂_i − d_i| ≤ p·(‖A‖_F‖B⁻¹‖₂ + κ|d_i|) (itype 1; ‖A‖_F‖B‖₂ for
 *          2, 3): the reduction's error and B's Cholesky error as a relative
 *          perturbation κu; the residual (A·Z − B·Z·Λ, A·B·Z − Z·Λ, B·A·Z −
 *          Z·Λ) within p·φψ times the norms of its two terms (the standard
 *          problem's residual mapped back through L, ‖Z‖₂ ≤ ψ for itype 1,
 *          2 and φ for 3); Zᴴ·B·Z = I (itype 1, 2), Zᴴ·B⁻¹·Z = I (3)
 *          within 3p·κ;
 *   gesvd  p = 8f(max(m,n)+1)u (bidiagonal reduction and QR sweeps, as
 *          for syevd): |σ̂_i − σ_i| ≤ p·σ_max + u‖A‖_F (Weyl, with A's
 *          rounding), ‖A − Û·Σ̂·V̂ᴴ‖₂ ≤ p·σ_max, ‖ÛᴴÛ − I‖₂, ‖V̂ᴴV̂ − I‖₂ ≤ p;
 *          with one side only, W = Aᴴ·Û (or A·V̂) must have WᴴW = Σ̂² within
 *          3p·σ_max² (which fixes Û up to phases when the σ are distinct);
 *   geev   p = 8f(n+1)u (Hessenberg reduction and QR sweeps, as for syevd)
 *          on A = U·T·Uᴴ of known eigenvalues spaced ≥ 1 and off-diagonal
 *          part below 0.1 per entry (condition numbers near 1): every
 *          computed eigenvalue within 16p·‖A‖_F of a distinct exact one,
 *          ‖A·v − λ·v‖₂ ≤ 16p·‖A‖_F and | ‖v‖₂ − 1 | ≤ 4p per eigenpair.
 *   sytrd  (uplo L, as the tiled syevd calls it) on A = Q·D·Qᴴ as for syevd,
 *          p as for syevd: with Q̂ the product of the returned reflectors
 *          and T̂ the tridiagonal matrix of d and e, ‖(Q̂ᴴ·A·Q̂ − T̂)·w‖₂ ≤
 *          p·‖A‖_F‖w‖₂ and ‖(Q̂ᴴQ̂ − I)·w‖₂ ≤ p‖w‖₂; the upper triangle
 *          untouched;
 *   stedc  (compz I) on random tridiagonal T, and on one with repeated
 *          diagonal entries and a zero off-diagonal entry (deflation and
 *          splitting), p as for syevd: eigenvalues ascending, ‖(T·Ẑ − Ẑ·Λ̂)·w‖₂
 *          ≤ p·‖T‖_F‖w‖₂, ‖(ẐᵀẐ − I)·w‖₂ ≤ p‖w‖₂, and |Σλ̂ − Σd| ≤ n·p·‖T‖_F.
 *   gebrd  (m ≥ n, as the tiled gesvd calls it) p = 8f(m+1)u: with Q̂, P̂ the
 *          products of the returned reflectors and B̂ the upper bidiagonal
 *          matrix of d and e, ‖(A·P̂ − Q̂·B̂)·w‖₂ ≤ p·‖A‖_F‖w‖₂, ‖(Q̂ᴴQ̂ − I)·w‖₂
 *          and ‖(P̂ᴴP̂ − I)·w‖₂ ≤ p‖w‖₂;
 *   orgbr  'Q' as orgqr (the same reflectors, the same bound); 'P' (k ≥ n)
 *          on reflectors stored in rows as gebrd stores them: every entry of
 *          P̂ᴴ·w within f·n(n+4)u·Σ|w_j| of Pᴴ·w;
 *   bdsqr  (uplo U) on a random bidiagonal B with U = VT = I, p = 8f(n+1)u:
 *          σ̂ non-negative and descending, ‖(B − Û·Σ̂·V̂T)·w‖₂ ≤ p‖B‖_F‖w‖₂,
 *          Û and V̂T orthonormal within p; then VT's rotations alone on
 *          random columns C (ncvt only) within 2p‖C‖_F of V̂T·C, and U's
 *          alone on random rows C (nru only) within 2p‖C‖_F of C·Û: the
 *          one-sided calls the tiled gesvd's blocks make.
 * Info: 0 on every case but the built failures: a negative pivot at k
 * after a dominant leading block (potrf: k+1) and a zero column j with
 * m ≥ n or j < m (getrf: j+1).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/selftest/checks.h"
#include "ops/solver_eig_tile.h"

typedef enum kind {
    K_POTRF,
    K_POTRS,
    K_POTRI,
    K_GETRF,
    K_GETRS,
    K_GEQRF,
    K_ORGQR,
    K_ORMQR,
    K_SYEVD,
    K_SYGVD,
    K_GESVD,
    K_GEEV,
    K_SYTRD,
    K_STEDC,
    K_GEBRD,
    K_ORGBR,
    K_BDSQR,
} kind;

#define E(name, k, t)                                                                              \
    { TRN_R_LAPACKE_##name##_work, k, t }
static const st_entry table[] = {
    E(spotrf, K_POTRF, ST_S), E(dpotrf, K_POTRF, ST_D), E(cpotrf, K_POTRF, ST_C),
    E(zpotrf, K_POTRF, ST_Z), E(spotrs, K_POTRS, ST_S), E(dpotrs, K_POTRS, ST_D),
    E(cpotrs, K_POTRS, ST_C), E(zpotrs, K_POTRS, ST_Z), E(spotri, K_POTRI, ST_S),
    E(dpotri, K_POTRI, ST_D), E(cpotri, K_POTRI, ST_C), E(zpotri, K_POTRI, ST_Z),
    E(sgetrf, K_GETRF, ST_S), E(dgetrf, K_GETRF, ST_D), E(cgetrf, K_GETRF, ST_C),
    E(zgetrf, K_GETRF, ST_Z), E(sgetrs, K_GETRS, ST_S), E(dgetrs, K_GETRS, ST_D),
    E(cgetrs, K_GETRS, ST_C), E(zgetrs, K_GETRS, ST_Z), E(sgeqrf, K_GEQRF, ST_S),
    E(dgeqrf, K_GEQRF, ST_D), E(cgeqrf, K_GEQRF, ST_C), E(zgeqrf, K_GEQRF, ST_Z),
    E(sorgqr, K_ORGQR, ST_S), E(dorgqr, K_ORGQR, ST_D), E(cungqr, K_ORGQR, ST_C),
    E(zungqr, K_ORGQR, ST_Z), E(sormqr, K_ORMQR, ST_S), E(dormqr, K_ORMQR, ST_D),
    E(cunmqr, K_ORMQR, ST_C), E(zunmqr, K_ORMQR, ST_Z), E(ssyevd, K_SYEVD, ST_S),
    E(dsyevd, K_SYEVD, ST_D), E(cheevd, K_SYEVD, ST_C), E(zheevd, K_SYEVD, ST_Z),
    E(ssygvd, K_SYGVD, ST_S), E(dsygvd, K_SYGVD, ST_D), E(chegvd, K_SYGVD, ST_C),
    E(zhegvd, K_SYGVD, ST_Z), E(sgesvd, K_GESVD, ST_S), E(dgesvd, K_GESVD, ST_D),
    E(cgesvd, K_GESVD, ST_C), E(zgesvd, K_GESVD, ST_Z), E(sgeev, K_GEEV, ST_S),
    E(dgeev, K_GEEV, ST_D),   E(cgeev, K_GEEV, ST_C),   E(zgeev, K_GEEV, ST_Z),
    E(ssytrd, K_SYTRD, ST_S), E(dsytrd, K_SYTRD, ST_D), E(chetrd, K_SYTRD, ST_C),
    E(zhetrd, K_SYTRD, ST_Z), E(sstedc, K_STEDC, ST_S), E(dstedc, K_STEDC, ST_D),
    E(sgebrd, K_GEBRD, ST_S), E(dgebrd, K_GEBRD, ST_D), E(cgebrd, K_GEBRD, ST_C),
    E(zgebrd, K_GEBRD, ST_Z), E(sorgbr, K_ORGBR, ST_S), E(dorgbr, K_ORGBR, ST_D),
    E(cungbr, K_ORGBR, ST_C), E(zungbr, K_ORGBR, ST_Z), E(sbdsqr, K_BDSQR, ST_S),
    E(dbdsqr, K_BDSQR, ST_D), E(cbdsqr, K_BDSQR, ST_C), E(zbdsqr, K_BDSQR, ST_Z),
};
#undef E

#define COL LAPACK_COL_MAJOR
/* Unit-vector probes (an exact, entry-by-entry check) up to this many
 * multiply-adds per check; random probes beyond. */
#define DIRECT_MAX 40000L
#define NRANDOM 1
/* The largest workspace a query may ask for (elements). */
#define LWORK_MAX (1L << 26)

/* ---- scalars ----------------------------------------------------------------------------- */

static st_type real_of(st_type t) {
    return t == ST_S || t == ST_C ? ST_S : ST_D;
}

/* Element k of an array of type t: st_get and st_put, inlined for the
 * bulk transfers between operands and long double matrices. */
static inline st_lc raw_get(st_type t, const unsigned char *p, size_t k) {
    switch (t) {
    case ST_S: return st_lc_make(((const float *)(const void *)p)[k], 0);
    case ST_D: return st_lc_make(((const double *)(const void *)p)[k], 0);
    case ST_C:
        return st_lc_make(((const float *)(const void *)p)[2 * k],
                          ((const float *)(const void *)p)[2 * k + 1]);
    case ST_Z:
        return st_lc_make(((const double *)(const void *)p)[2 * k],
                          ((const double *)(const void *)p)[2 * k + 1]);
    }
    return st_lc_make(0, 0);
}

static inline void raw_put(st_type t, unsigned char *p, size_t k, st_lc v) {
    switch (t) {
    case ST_S: ((float *)(void *)p)[k] = (float)v.re; break;
    case ST_D: ((double *)(void *)p)[k] = (double)v.re; break;
    case ST_C:
        ((float *)(void *)p)[2 * k] = (float)v.re;
        ((float *)(void *)p)[2 * k + 1] = (float)v.im;
        break;
    case ST_Z:
        ((double *)(void *)p)[2 * k] = (double)v.re;
        ((double *)(void *)p)[2 * k + 1] = (double)v.im;
        break;
    }
}

static st_lc scaled(st_lc v, long double s) {
    return st_lc_make(v.re * s, v.im * s);
}

static long double mag(st_lc v) {
    return v.im == 0 ? fabsl(v.re) : sqrtl(v.re * v.re + v.im * v.im);
}

static long double mag2(st_lc v) {
    return v.re * v.re + v.im * v.im;
}

/* st_expect, formatting the description only when the comparison fails
 * (the passing ones, nearly all, only record their error / bound ratio). */
__attribute__((format(printf, 5, 6))) static int
expect_at(st_check *c, st_lc got, st_lc want, long double bound, const char *fmt, ...) {
    const long double err = mag(st_sub(got, want));
    if (err <= bound) { /* false for a NaN */
        const double r = bound > 0 ? (double)(err / bound) : 0.0;
        if (r > c->worst)
            c->worst = r;
        return 1;
    }
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return st_expect(c, what, got, want, bound);
}

/* A norm (want 0) within bound. */
#define expect_small(c, err, bound, ...)                                                           \
    expect_at(c, st_lc_make(err, 0), st_lc_make(0, 0), bound, __VA_ARGS__)

/* ---- long double vectors and matrices ---------------------------------------------------- */

static st_lc *vnew(st_check *c, int n) {
    return st_alloc(c, sizeof(st_lc) * (size_t)(n > 0 ? n : 1));
}

static long double *rnew(st_check *c, int n) {
    return st_alloc(c, sizeof(long double) * (size_t)(n > 0 ? n : 1));
}

static long double vnorm(const st_lc *x, int n) {
    long double s = 0;
    for (int i = 0; i < n; i++)
        s += mag2(x[i]);
    return sqrtl(s);
}

static long double vdist(const st_lc *x, const st_lc *y, int n) {
    long double s = 0;
    for (int i = 0; i < n; i++)
        s += mag2(st_sub(x[i], y[i]));
    return sqrtl(s);
}

/* A column-major long double matrix, with its entries' magnitudes once
 * dm_abs has run; tri says which entries may be nonzero (products skip
 * the others). */
typedef struct dmat {
    int rows, cols;
    st_part tri;
    int cx; /* 0: every imaginary part is 0 (products take a real path) */
    st_lc *v;
    long double *m;
} dmat;

static dmat dm_new(st_check *c, int rows, int cols) {
    dmat d = {rows, cols, ST_ALL, 1, NULL, NULL};
    d.v =
        st_alloc(c, sizeof(st_lc) * (size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1));
    return d;
}

static st_lc *el(const dmat *d, int i, int j) {
    return &d->v[(size_t)j * (size_t)d->rows + (size_t)i];
}

static void dm_abs(st_check *c, dmat *d) {
    const size_t count = (size_t)d->rows * (size_t)d->cols;
    d->m = st_alloc(c, sizeof(long double) * (count ? count : 1));
    for (size_t k = 0; k < count; k++)
        d->m[k] = mag(d->v[k]);
}

static long double dm_frob(const dmat *d) {
    return vnorm(d->v, d->rows * d->cols);
}

/* y = op(A)·x (op 0: A, 1: Aᵀ, 2: Aᴴ) and, when ym, ym = |op(A)|·xm (A's
 * magnitudes computed). x and y do not overlap. */
static void mv(const dmat *a, int op, const st_lc *x, const long double *xm, st_lc *y,
               long double *ym) {
    if (op == 0) {
        for (int i = 0; i < a->rows; i++) {
            y[i] = st_lc_make(0, 0);
            if (ym)
                ym[i] = 0;
        }
    }
    for (int j = 0; j < a->cols; j++) {
        /* The rows of column j that may be nonzero. */
        const int i0 = a->tri == ST_LOWER ? j : 0;
        const int i1 = a->tri == ST_UPPER && j + 1 < a->rows ? j + 1 : a->rows;
        const st_lc *col = el(a, 0, j);
        const long double *cm = ym ? &a->m[(size_t)j * (size_t)a->rows] : NULL;
        if (op == 0) {
            const st_lc xj = x[j];
            if (!a->cx)
                for (int i = i0; i < i1; i++) {
                    y[i].re += col[i].re * xj.re;
                    y[i].im += col[i].re * xj.im;
                }
            else if (xj.re != 0 || xj.im != 0)
                for (int i = i0; i < i1; i++)
                    y[i] = st_add(y[i], st_mul(col[i], xj));
            if (ym && xm[j] != 0)
                for (int i = i0; i < i1; i++)
                    ym[i] += cm[i] * xm[j];
            continue;
        }
        st_lc s = {0, 0};
        long double sm = 0;
        if (!a->cx)
            for (int i = i0; i < i1; i++) {
                s.re += col[i].re * x[i].re;
                s.im += col[i].re * x[i].im;
            }
        else if (op == 2)
            for (int i = i0; i < i1; i++)
                s = st_add(s, st_mul(st_conj(col[i]), x[i]));
        else
            for (int i = i0; i < i1; i++)
                s = st_add(s, st_mul(col[i], x[i]));
        if (ym) {
            for (int i = i0; i < i1; i++)
                sm += cm[i] * xm[i];
            ym[j] = sm;
        }
        y[j] = s;
    }
}

/* The operands here have neither a unit nor a real diagonal (mat_make), so
 * entry (i, j) is the stored one: before the call (init) or now (p). */
static st_lc in_at(const st_mat *m, int i, int j) {
    return raw_get(m->t, m->init, (size_t)j * (size_t)m->ld + (size_t)i);
}

static st_lc now_at(const st_mat *m, int i, int j) {
    return raw_get(m->t, m->p, (size_t)j * (size_t)m->ld + (size_t)i);
}

/* Overwrites entry (i, j) before the call (st_mat_set). */
static void set_at(st_mat *m, int i, int j, st_lc v) {
    const size_t k = (size_t)j * (size_t)m->ld + (size_t)i;
    raw_put(m->t, m->p, k, v);
    raw_put(m->t, m->init, k, v);
}

/* The matrix as the routine interprets it before the call (st_mat_at): sym
 * fills the other triangle by symmetry (1) or Hermitian symmetry (2), else
 * it is 0. */
static dmat mat_in(st_check *c, const st_mat *m, int sym) {
    dmat d = dm_new(c, m->rows, m->cols);
    d.cx = st_is_cx(m->t);
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++) {
            if (m->part == ST_ALL || (m->part == ST_UPPER ? i <= j : i >= j))
                *el(&d, i, j) = in_at(m, i, j);
            else if (sym)
                *el(&d, i, j) = sym == 2 ? st_conj(in_at(m, j, i)) : in_at(m, j, i);
        }
    return d;
}

/* The leading rows × cols block of the matrix as stored now. */
static dmat mat_out(st_check *c, const st_mat *m, int rows, int cols) {
    dmat d = dm_new(c, rows, cols);
    d.cx = st_is_cx(m->t);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            *el(&d, i, j) = now_at(m, i, j);
    return d;
}

/* The Hermitian (or symmetric) matrix whose `up` triangle is stored now. */
static dmat mat_herm_out(st_check *c, const st_mat *m, int up, int cx) {
    const int n = m->rows;
    dmat d = dm_new(c, n, n);
    d.cx = cx;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int in = up ? i <= j : i >= j;
            const st_lc v = in ? now_at(m, i, j) : now_at(m, j, i);
            *el(&d, i, j) = !in && cx ? st_conj(v) : v;
        }
    return d;
}

/* Stores d (rounded) into the referenced entries of m, before the call. */
static void mat_put(st_mat *m, const dmat *d) {
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++) {
            if ((m->part == ST_UPPER && i > j) || (m->part == ST_LOWER && i < j))
                continue;
            set_at(m, i, j, *el(d, i, j));
        }
}

/* ---- operands ---------------------------------------------------------------------------- */

/* st_mat_make with the referenced entries random; with `slack`, followed by
 * one more column and 256 bytes of sentinels, as the kernels' private copies
 * are (trn_solver_priv_bytes). */
static int mat_make(st_check *c, int slot, st_mat *m, st_type t, int rows, int cols, int ld,
                    st_part part, int slack) {
    int extra = 0;
    if (slack) {
        const long col_bytes = (long)ld * (long)st_esize(t);
        extra = 1 + (int)((256 + col_bytes - 1) / col_bytes);
    }
    if (st_mat_make(c, slot, m, t, rows, cols + extra, ld, part, 0, 0))
        return -1;
    for (int j = cols; j < cols + extra; j++)
        for (int i = 0; i < rows; i++)
            st_mat_poison(m, i, j);
    m->cols = cols;
    return 0;
}

/* st_mat_untouched, and the bytes after the last element (the slack)
 * unchanged. */
static int untouched(st_check *c, const char *name, const st_mat *m, st_part out, int real_diag) {
    if (!st_mat_untouched(c, name, m, out, real_diag))
        return 0;
    const size_t es = st_esize(m->t);
    const size_t end = m->rows > 0 && m->cols > 0
                           ? ((size_t)(m->cols - 1) * (size_t)m->ld + (size_t)m->rows) * es
                           : 0;
    if (end < m->bytes && memcmp(m->p + end, m->init + end, m->bytes - end) != 0) {
        st_fail(c, "%s: wrote past its last element (into the %zu bytes after it)", name,
                m->bytes - end);
        return 0;
    }
    return 1;
}

/* An output vector of n elements of type t (the sentinel in each). */
static int out_vec(st_check *c, int slot, st_vec *v, st_type t, int n) {
    if (st_vec_make(c, slot, v, t, n, 1))
        return -1;
    st_vec_poison(v);
    return 0;
}

/* n lapack_ints in a guarded slot. */
static lapack_int *int_vec(st_check *c, int slot, int n) {
    lapack_int *p = st_guard_place(c->guard, slot, sizeof(lapack_int) * (size_t)(n > 0 ? n : 1),
                                   c->place, sizeof(lapack_int));
    if (!p)
        st_fail(c, "out of memory for an operand of %d integers", n);
    return p;
}

/* What a workspace query writes into work[0]. */
typedef union query {
    float s;
    double d;
    float c[2];
    double z[2];
} query;

/* The length a query asked for (at least 1), or -1 (the case failed). */
static int query_len(st_check *c, const char *what, st_type t, const query *q) {
    const double v = t == ST_S || t == ST_C ? (double)q->c[0] : q->z[0];
    if (!(v >= 0 && v <= (double)LWORK_MAX)) {
        st_fail(c, "the workspace query returned %s = %g", what, v);
        return -1;
    }
    return v < 1 ? 1 : (int)v;
}

/* ---- probes ------------------------------------------------------------------------------ */

/* Probes of an operator on n-vectors costing `cost` multiply-adds each: the
 * unit vectors while n of them fit in DIRECT_MAX, else NRANDOM random ones. */
typedef struct probes {
    int count, unit;
} probes;

static probes probes_for(int n, long cost) {
    probes p = {n, 1};
    if ((long)n * cost > DIRECT_MAX) {
        p.count = NRANDOM;
        p.unit = 0;
    }
    return p;
}

/* Probe k into w (and |w| into wm), its name for messages ("e_3",
 * "random") into name. */
static void probe_make(st_check *c, st_type t, const probes *p, int k, int n, st_lc *w,
                       long double *wm, char name[16]) {
    for (int j = 0; j < n; j++) {
        w[j] = p->unit ? st_lc_make(j == k, 0) : st_rand_value(c, t);
        if (wm)
            wm[j] = mag(w[j]);
    }
    if (p->unit)
        snprintf(name, 16, "e_%d", k);
    else
        snprintf(name, 16, "random");
}

/* ---- Householder reflectors -------------------------------------------------------------- */

/* H = I − tau·v·vᴴ acting on rows off … off+len−1, v[0] = 1. */
typedef struct refl {
    int off, len;
    int cx; /* 0: tau and v real */
    st_lc tau;
    st_lc *v;
} refl;

/* A reflector as larfg makes it from random (alpha, x): H·(alpha; x) =
 * (beta; 0). Rounded to t (v and tau) when `round`; else exactly unitary in
 * long double (to build test matrices). */
static refl refl_make(st_check *c, st_type t, int off, int len, int round) {
    refl h = {off, len, st_is_cx(t), {0, 0}, vnew(c, len)};
    const st_lc alpha = st_rand_value(c, t);
    long double xn2 = 0;
    for (int i = 1; i < len; i++) {
        h.v[i] = st_rand_value(c, t);
        xn2 += mag2(h.v[i]);
    }
    h.v[0] = st_lc_make(1, 0);
    if (xn2 == 0 && alpha.im == 0)
        return h; /* tau = 0: H = I */
    const long double beta = -copysignl(sqrtl(mag2(alpha) + xn2), alpha.re);
    h.tau = st_lc_make((beta - alpha.re) / beta, -alpha.im / beta);
    const st_lc s = st_div(st_lc_make(1, 0), st_sub(alpha, st_lc_make(beta, 0)));
    for (int i = 1; i < len; i++)
        h.v[i] = st_mul(h.v[i], s);
    if (round) {
        h.tau = st_rounded(t, h.tau);
        for (int i = 1; i < len; i++)
            h.v[i] = st_rounded(t, h.v[i]);
    }
    return h;
}

/* x ← H·x, or Hᴴ·x when conj. */
static void refl_apply(const refl *h, int conj, st_lc *x) {
    st_lc s = {0, 0};
    st_lc *y = x + h->off;
    if (!h->cx) {
        for (int i = 0; i < h->len; i++) {
            s.re += h->v[i].re * y[i].re;
            s.im += h->v[i].re * y[i].im;
        }
        const st_lc ts = scaled(s, h->tau.re);
        for (int i = 0; i < h->len; i++) {
            y[i].re -= ts.re * h->v[i].re;
            y[i].im -= ts.im * h->v[i].re;
        }
        return;
    }
    for (int i = 0; i < h->len; i++)
        s = st_add(s, st_mul(st_conj(h->v[i]), y[i]));
    const st_lc ts = st_mul(conj ? st_conj(h->tau) : h->tau, s);
    for (int i = 0; i < h->len; i++)
        y[i] = st_sub(y[i], st_mul(ts, h->v[i]));
}

/* x ← Q·x or Qᴴ·x (ct), Q = H_0·H_1·…·H_{k−1}. */
static void q_apply(const refl *h, int k, int ct, st_lc *x) {
    if (!ct)
        for (int i = k - 1; i >= 0; i--)
            refl_apply(&h[i], 0, x);
    else
        for (int i = 0; i < k; i++)
            refl_apply(&h[i], 1, x);
}

/* M ← H·M (conj 0) or Hᴴ·M. */
static void refl_left(const refl *h, int conj, dmat *m) {
    for (int j = 0; j < m->cols; j++)
        refl_apply(h, conj, el(m, 0, j));
}

/* M ← M·H (conj 0) or M·Hᴴ: M − τ·(M·v)·vᴴ (τ̄ for Hᴴ). */
static void refl_right(st_check *c, const refl *h, int conj, dmat *m) {
    st_lc *q = vnew(c, m->rows);
    for (int k = 0; k < h->len; k++) {
        const st_lc vk = h->v[k], *col = el(m, 0, h->off + k);
        for (int i = 0; i < m->rows; i++)
            q[i] = st_add(q[i], st_mul(col[i], vk));
    }
    const st_lc tau = conj ? st_conj(h->tau) : h->tau;
    for (int k = 0; k < h->len; k++) {
        const st_lc f = st_mul(tau, st_conj(h->v[k]));
        st_lc *col = el(m, 0, h->off + k);
        for (int i = 0; i < m->rows; i++)
            col[i] = st_sub(col[i], st_mul(q[i], f));
    }
}

/* r dense random reflectors of order n (a random unitary Q = H_0·…·H_{r−1}). */
static refl *random_unitary(st_check *c, st_type t, int n, int r) {
    refl *h = st_alloc(c, sizeof(refl) * (size_t)(r > 0 ? r : 1));
    for (int i = 0; i < r; i++)
        h[i] = refl_make(c, t, 0, n, 0);
    return h;
}

/* How many reflectors make the random unitaries of order n: all of them
 * for small n, fewer for large n (each costs O(n²) to apply to a matrix). */
static int unitary_count(int n) {
    return n <= 12 ? n : n <= 40 ? 6 : n <= 80 ? 4 : 2;
}

/* The Hermitian matrix Q·diag(d)·Qᴴ, one reflector at a time as sytrd
 * applies them: H·M·Hᴴ = M − v·wᴴ − w·vᴴ with p = M·v and
 * w = τ̄·p − (|τ|²·vᴴp/2)·v (real vᴴp: M is Hermitian). */
static dmat herm_from_eig(st_check *c, st_type t, int n, const long double *d) {
    dmat m = dm_new(c, n, n);
    m.cx = st_is_cx(t);
    for (int i = 0; i < n; i++)
        *el(&m, i, i) = st_lc_make(d[i], 0);
    const int r = unitary_count(n);
    const refl *q = random_unitary(c, t, n, r);
    st_lc *p = vnew(c, n), *w = vnew(c, n);
    for (int k = r - 1; k >= 0; k--) {
        const st_lc *v = q[k].v, tau = q[k].tau;
        mv(&m, 0, v, NULL, p, NULL);
        long double beta = 0;
        for (int i = 0; i < n; i++)
            beta += st_mul(st_conj(v[i]), p[i]).re;
        const long double h = mag2(tau) * beta / 2;
        for (int i = 0; i < n; i++)
            w[i] = st_sub(st_mul(st_conj(tau), p[i]), scaled(v[i], h));
        for (int j = 0; j < n; j++) {
            const st_lc wj = st_conj(w[j]), vj = st_conj(v[j]);
            for (int i = j; i < n; i++)
                *el(&m, i, j) = st_sub(*el(&m, i, j), st_add(st_mul(v[i], wj), st_mul(w[i], vj)));
        }
        for (int j = 0; j < n; j++) {
            el(&m, j, j)->im = 0;
            for (int i = j + 1; i < n; i++)
                *el(&m, j, i) = st_conj(*el(&m, i, j));
        }
    }
    return m;
}

/* n eigenvalues in [-1, 1), ascending: from n = 3 a small one (about
 * 1e-4), from n = 4 a repeated pair. */
static long double *eigenvalues(st_check *c, int n) {
    long double *d = rnew(c, n);
    for (int i = 0; i < n; i++)
        d[i] = st_rand(c);
    if (n >= 3)
        d[2] = 1e-4L * st_rand(c);
    if (n >= 4)
        d[n - 1] = d[0];
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
            const long double x = d[j];
            d[j] = d[j - 1];
            d[j - 1] = x;
        }
    return d;
}

/* ---- triangular factors ------------------------------------------------------------------ */

/* A lower triangular L = D + N: D real in [1, 2], N on w subdiagonals with
 * entries r/√(4n·w) (‖N‖_F < 1/√2), rounded to t; phi ≥ ‖L‖₂ and
 * psi ≥ ‖L⁻¹‖₂ (L = D(I + D⁻¹N)). */
typedef struct trifac {
    dmat l;
    int w;
    long double phi, psi;
} trifac;

static trifac factor_make(st_check *c, st_type t, int n, int w) {
    trifac f = {dm_new(c, n, n), w < 1 ? 1 : w, 0, 0};
    const long double s = 1 / sqrtl(4.0L * n * f.w);
    long double dmin = 2, dmax = 1, nn = 0;
    for (int j = 0; j < n; j++) {
        const long double d = st_rounded(t, st_lc_make(1.5L + 0.5L * st_rand(c), 0)).re;
        *el(&f.l, j, j) = st_lc_make(d, 0);
        dmin = d < dmin ? d : dmin;
        dmax = d > dmax ? d : dmax;
        for (int i = j + 1; i < n && i <= j + f.w; i++) {
            const st_lc v = st_rounded(t, scaled(st_rand_value(c, t), s));
            *el(&f.l, i, j) = v;
            nn += mag2(v);
        }
    }
    f.phi = dmax + sqrtl(nn);
    f.psi = 1 / (dmin - sqrtl(nn));
    f.l.tri = ST_LOWER;
    f.l.cx = st_is_cx(t);
    dm_abs(c, &f.l);
    return f;
}

/* x ← L⁻¹·x (ct 0) or L⁻ᴴ·x (ct 1) for a lower triangular L with a real
 * diagonal (the factors here). */
static void tri_solve(const dmat *l, int ct, st_lc *x) {
    const int n = l->rows;
    if (!ct) {
        for (int i = 0; i < n; i++) {
            st_lc s = x[i];
            for (int k = 0; k < i; k++)
                s = st_sub(s, st_mul(*el(l, i, k), x[k]));
            x[i] = scaled(s, 1 / el(l, i, i)->re);
        }
        return;
    }
    for (int i = n - 1; i >= 0; i--) {
        st_lc s = x[i];
        for (int k = i + 1; k < n; k++)
            s = st_sub(s, st_mul(st_conj(*el(l, k, i)), x[k]));
        x[i] = scaled(s, 1 / el(l, i, i)->re);
    }
}

/* B = L·Lᴴ, L with w subdiagonals. */
static dmat gram(st_check *c, const trifac *f) {
    const int n = f->l.rows;
    dmat b = dm_new(c, n, n);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            st_lc s = {0, 0};
            for (int k = i - f->w > 0 ? i - f->w : 0; k <= j; k++)
                s = st_add(s, st_mul(*el(&f->l, i, k), st_conj(*el(&f->l, j, k))));
            *el(&b, i, j) = s;
            *el(&b, j, i) = st_conj(s);
        }
    return b;
}

/* L·M·Lᴴ (banded L). */
static dmat congruence(st_check *c, const trifac *f, const dmat *m) {
    const int n = m->rows;
    dmat g = dm_new(c, n, n), a = dm_new(c, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            st_lc s = {0, 0};
            for (int k = i - f->w > 0 ? i - f->w : 0; k <= i; k++)
                s = st_add(s, st_mul(*el(&f->l, i, k), *el(m, k, j)));
            *el(&g, i, j) = s;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            st_lc s = {0, 0};
            for (int k = j - f->w > 0 ? j - f->w : 0; k <= j; k++)
                s = st_add(s, st_mul(*el(&g, i, k), st_conj(*el(&f->l, j, k))));
            *el(&a, i, j) = s;
        }
    return a;
}

/* x ← L⁻ᴴ·x for banded L. */
static void band_solve_h(const trifac *f, st_lc *x) {
    const int n = f->l.rows;
    for (int i = n - 1; i >= 0; i--) {
        st_lc s = x[i];
        for (int k = i + 1; k < n && k <= i + f->w; k++)
            s = st_sub(s, st_mul(st_conj(*el(&f->l, k, i)), x[k]));
        x[i] = scaled(s, 1 / el(&f->l, i, i)->re);
    }
}

/* L⁻ᴴ·M·L⁻¹ for Hermitian M (banded L): Y = L⁻ᴴ·M, then (L⁻ᴴ·Yᴴ)ᴴ. */
static dmat inv_congruence(st_check *c, const trifac *f, const dmat *m) {
    const int n = m->rows;
    dmat y = dm_new(c, n, n), a = dm_new(c, n, n);
    for (int j = 0; j < n; j++) {
        memcpy(el(&y, 0, j), el(m, 0, j), sizeof(st_lc) * (size_t)n);
        band_solve_h(f, el(&y, 0, j));
    }
    st_lc *x = vnew(c, n);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            x[i] = st_conj(*el(&y, j, i));
        band_solve_h(f, x);
        for (int i = 0; i < n; i++)
            *el(&a, j, i) = st_conj(x[i]);
    }
    return a;
}

/* Hermitian part (diagonal real) of a nearly Hermitian matrix. */
static void hermitize(dmat *a) {
    for (int j = 0; j < a->cols; j++) {
        el(a, j, j)->im = 0;
        for (int i = j + 1; i < a->rows; i++) {
            const st_lc v = scaled(st_add(*el(a, i, j), st_conj(*el(a, j, i))), 0.5L);
            *el(a, i, j) = v;
            *el(a, j, i) = st_conj(v);
        }
    }
}

/* Stores factor L in the `up` triangle of m: L itself, or U = Lᴴ. */
static void factor_put(st_mat *m, const dmat *l, int up) {
    const int n = l->rows;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            if (up)
                set_at(m, j, i, st_conj(*el(l, i, j)));
            else
                set_at(m, i, j, *el(l, i, j));
        }
}

/* The lower triangular F with A = F·Fᴴ from a stored triangle: L, or Uᴴ. */
static dmat factor_get(st_check *c, const st_mat *m, int up) {
    const int n = m->rows;
    dmat f = dm_new(c, n, n);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            *el(&f, i, j) = up ? st_conj(now_at(m, j, i)) : now_at(m, i, j);
    f.tri = ST_LOWER;
    f.cx = st_is_cx(m->t);
    return f;
}

/* Checks A0 = F·Fᴴ (F from the routine's output) entry by entry or
 * projected: (F·(Fᴴ·w))_i within f(n+1)u·(|F|·(|Fᴴ|·|w|))_i of (A0·w)_i. */
static void check_llh(st_check *c, st_type t, const char *name, dmat *f, const dmat *a0) {
    const int n = f->rows;
    const long double u = st_unit(t), fa = st_factor(t);
    dm_abs(c, f);
    const probes p = probes_for(n, 2L * n * n);
    st_lc *w = vnew(c, n), *y = vnew(c, n), *z = vnew(c, n), *want = vnew(c, n);
    long double *wm = rnew(c, n), *ym = rnew(c, n), *zm = rnew(c, n);
    char pn[16];
    for (int k = 0; k < p.count; k++) {
        probe_make(c, t, &p, k, n, w, wm, pn);
        mv(f, 2, w, wm, y, ym);
        mv(f, 0, y, ym, z, zm);
        if (p.unit)
            for (int i = 0; i < n; i++)
                want[i] = *el(a0, i, k);
        else
            mv(a0, 0, w, NULL, want, NULL);
        for (int i = 0; i < n; i++)
            if (!expect_at(c, z[i], want[i], fa * (n + 1) * u * zm[i],
                           "(%s)·w, w = %s, row %d (want A·w)", name, pn, i))
                return;
    }
}

/* ---- potrf ------------------------------------------------------------------------------- */

static lapack_int call_potrf(const st_check *c, st_type t, char uplo, int n, st_mat *a) {
    switch (t) {
    case ST_S: return ((__typeof__(&LAPACKE_spotrf_work))c->fn)(COL, uplo, n, (float *)a->p, a->ld);
    case ST_D:
        return ((__typeof__(&LAPACKE_dpotrf_work))c->fn)(COL, uplo, n, (double *)a->p, a->ld);
    case ST_C:
        return ((__typeof__(&LAPACKE_cpotrf_work))c->fn)(COL, uplo, n, (lapack_complex_float *)a->p,
                                                         a->ld);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zpotrf_work))c->fn)(COL, uplo, n,
                                                         (lapack_complex_double *)a->p, a->ld);
    }
    return -1000;
}

/* A Hermitian matrix, diagonally dominant with a diagonal of 1.5n + 1 + [0, 1)
 * (|a_ij| < √2), so positive definite; the diagonal entry `neg` (when >= 0)
 * is −1 instead: the leading minors of order neg+1 and above are not
 * positive, those below are. */
static void potrf_input(st_check *c, st_mat *a, int neg) {
    const int n = a->rows;
    for (int j = 0; j < n; j++)
        set_at(a, j, j, st_lc_make(j == neg ? -1.0L : 1.5L * n + 1.5L + 0.5L * st_rand(c), 0));
}

static const int potrf_sizes[] = {1, 2, 3, 17, 31, 33, 64, 65, 140};
/* Not positive definite: (n, the negative pivot). */
static const int potrf_bad[][2] = {{1, 0}, {6, 3}, {40, 39}, {80, 70}};

static void check_potrf(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(potrf_sizes) / sizeof(potrf_sizes[0]));
    const int nb = (int)(sizeof(potrf_bad) / sizeof(potrf_bad[0]));
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int s = 0; s < ns + nb / 2; s++, cas++) {
            const int bad = s >= ns, n = bad ? potrf_bad[2 * (s - ns) + up][0] : potrf_sizes[s];
            const int neg = bad ? potrf_bad[2 * (s - ns) + up][1] : -1;
            const int lda = n + (cas % 2 ? 3 : 0);
            const st_part part = up ? ST_UPPER : ST_LOWER;
            if (bad)
                st_case(c,
                        "uplo=%s n=%d lda=%d, not positive definite (A(%d,%d) = -1: want info=%d)",
                        up ? "U" : "L", n, lda, neg, neg, neg + 1);
            else
                st_case(c, "uplo=%s n=%d lda=%d", up ? "U" : "L", n, lda);
            st_mat a;
            if (mat_make(c, 0, &a, t, n, n, lda, part, 0))
                continue;
            potrf_input(c, &a, neg);
            const lapack_int info = call_potrf(c, t, up ? 'U' : 'L', n, &a);
            if (!st_expect_int(c, "info", info, bad ? neg + 1 : 0) ||
                !untouched(c, "A", &a, part, cx && !bad))
                continue;
            if (bad)
                continue;
            dmat f = factor_get(c, &a, up);
            const dmat a0 = mat_in(c, &a, cx ? 2 : 1);
            check_llh(c, t, up ? "Uᴴ·U" : "L·Lᴴ", &f, &a0);
        }
}

/* ---- potrs ------------------------------------------------------------------------------- */

static lapack_int call_potrs(const st_check *c, st_type t, char uplo, int n, int nrhs,
                             const st_mat *a, st_mat *b) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_spotrs_work))c->fn)(COL, uplo, n, nrhs, (const float *)a->p,
                                                         a->ld, (float *)b->p, b->ld);
    case ST_D:
        return ((__typeof__(&LAPACKE_dpotrs_work))c->fn)(COL, uplo, n, nrhs, (const double *)a->p,
                                                         a->ld, (double *)b->p, b->ld);
    case ST_C:
        return ((__typeof__(&LAPACKE_cpotrs_work))c->fn)(COL, uplo, n, nrhs,
                                                         (const lapack_complex_float *)a->p, a->ld,
                                                         (lapack_complex_float *)b->p, b->ld);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zpotrs_work))c->fn)(COL, uplo, n, nrhs,
                                                         (const lapack_complex_double *)a->p, a->ld,
                                                         (lapack_complex_double *)b->p, b->ld);
    }
    return -1000;
}

/* The last size runs once (uplo L). */
static const int potrs_sizes[] = {1, 2, 5, 17, 32, 33, 64, 130};

static void check_potrs(st_check *c, st_type t) {
    const int ns = (int)(sizeof(potrs_sizes) / sizeof(potrs_sizes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int s = 0; s < ns - up; s++, cas++) {
            const int n = potrs_sizes[s], nrhs = cas % 2 ? 3 : 1;
            const int lda = n + (cas % 3 == 1 ? 2 : 0), ldb = n + (cas % 3 == 2 ? 3 : 0);
            st_case(c, "uplo=%s n=%d nrhs=%d lda=%d ldb=%d", up ? "U" : "L", n, nrhs, lda, ldb);
            st_mat a, b;
            if (mat_make(c, 0, &a, t, n, n, lda, up ? ST_UPPER : ST_LOWER, 0) ||
                mat_make(c, 1, &b, t, n, nrhs, ldb, ST_ALL, 0))
                continue;
            const trifac f = factor_make(c, t, n, n - 1);
            factor_put(&a, &f.l, up);
            const lapack_int info = call_potrs(c, t, up ? 'U' : 'L', n, nrhs, &a, &b);
            st_mat_unchanged(c, "A", &a);
            if (!st_expect_int(c, "info", info, 0) || !untouched(c, "B", &b, ST_ALL, 0))
                continue;
            /* L·(Lᴴ·x̂_j) against b_j. */
            st_lc *x = vnew(c, n), *y = vnew(c, n), *z = vnew(c, n);
            long double *xm = rnew(c, n), *ym = rnew(c, n), *zm = rnew(c, n);
            for (int j = 0; j < nrhs && !c->case_failed; j++) {
                for (int i = 0; i < n; i++) {
                    x[i] = now_at(&b, i, j);
                    xm[i] = mag(x[i]);
                }
                mv(&f.l, 2, x, xm, y, ym);
                mv(&f.l, 0, y, ym, z, zm);
                for (int i = 0; i < n; i++)
                    if (!expect_at(c, z[i], in_at(&b, i, j), 2 * fa * (n + 1) * u * zm[i],
                                   "(A·X)(%d,%d) (want B's)", i, j))
                        break;
            }
        }
}

/* ---- potri ------------------------------------------------------------------------------- */

static lapack_int call_potri(const st_check *c, st_type t, char uplo, int n, st_mat *a) {
    switch (t) {
    case ST_S: return ((__typeof__(&LAPACKE_spotri_work))c->fn)(COL, uplo, n, (float *)a->p, a->ld);
    case ST_D:
        return ((__typeof__(&LAPACKE_dpotri_work))c->fn)(COL, uplo, n, (double *)a->p, a->ld);
    case ST_C:
        return ((__typeof__(&LAPACKE_cpotri_work))c->fn)(COL, uplo, n, (lapack_complex_float *)a->p,
                                                         a->ld);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zpotri_work))c->fn)(COL, uplo, n,
                                                         (lapack_complex_double *)a->p, a->ld);
    }
    return -1000;
}

static const int potri_sizes[] = {1, 2, 3, 9, 32, 33, 65, 130};

static void check_potri(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(potri_sizes) / sizeof(potri_sizes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int s = 0; s < ns; s++, cas++) {
            const int n = potri_sizes[s], lda = n + (cas % 2 ? 2 : 0);
            const st_part part = up ? ST_UPPER : ST_LOWER;
            st_case(c, "uplo=%s n=%d lda=%d", up ? "U" : "L", n, lda);
            st_mat a;
            /* The kernels run the complex potri on a copy with slack. */
            if (mat_make(c, 0, &a, t, n, n, lda, part, cx))
                continue;
            const trifac f = factor_make(c, t, n, n - 1);
            factor_put(&a, &f.l, up);
            const lapack_int info = call_potri(c, t, up ? 'U' : 'L', n, &a);
            if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, part, cx))
                continue;
            const dmat x = mat_herm_out(c, &a, up, cx);
            /* A·(X̂·w) − w = L·(Lᴴ·(X̂·w)) − w. */
            const long double bound = 2 * fa * (n + 1) * u * f.phi * f.phi * f.psi * f.psi;
            const probes p = probes_for(n, 2L * n * n);
            st_lc *w = vnew(c, n), *y = vnew(c, n), *z = vnew(c, n);
            char pn[16];
            for (int k = 0; k < p.count; k++) {
                probe_make(c, t, &p, k, n, w, NULL, pn);
                mv(&x, 0, w, NULL, y, NULL);
                mv(&f.l, 2, y, NULL, z, NULL);
                mv(&f.l, 0, z, NULL, y, NULL);
                if (!expect_small(c, vdist(y, w, n), bound * vnorm(w, n), "‖(A·X − I)·w‖₂, w = %s",
                                  pn))
                    break;
            }
        }
}

/* ---- getrf ------------------------------------------------------------------------------- */

static lapack_int call_getrf(const st_check *c, st_type t, int m, int n, st_mat *a,
                             lapack_int *ipiv) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgetrf_work))c->fn)(COL, m, n, (float *)a->p, a->ld, ipiv);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgetrf_work))c->fn)(COL, m, n, (double *)a->p, a->ld, ipiv);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgetrf_work))c->fn)(COL, m, n, (lapack_complex_float *)a->p,
                                                         a->ld, ipiv);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgetrf_work))c->fn)(COL, m, n, (lapack_complex_double *)a->p,
                                                         a->ld, ipiv);
    }
    return -1000;
}

/* (m, n, a zero column or -1). */
static const int getrf_shapes[][3] = {
    {1, 1, -1},   {1, 6, -1},   {6, 1, -1},   {2, 2, -1},   {3, 7, -1},     {7, 3, -1},
    {17, 17, -1}, {33, 20, -1}, {20, 33, -1}, {64, 64, -1}, {65, 40, -1},   {40, 65, -1},
    {8, 8, 3},    {40, 30, 0},  {70, 70, 45}, {5, 9, 4},    {150, 130, -1},
};

static void check_getrf(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(getrf_shapes) / sizeof(getrf_shapes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    const long double lmax = (cx ? sqrtl(2.0L) : 1.0L) * (1 + 4 * u);
    for (int s = 0; s < ns; s++) {
        const int m = getrf_shapes[s][0], n = getrf_shapes[s][1], zc = getrf_shapes[s][2];
        const int k = m < n ? m : n, lda = m + (s % 2 ? 3 : 0);
        if (zc >= 0)
            st_case(c, "m=%d n=%d lda=%d, column %d zero (want info=%d)", m, n, lda, zc, zc + 1);
        else
            st_case(c, "m=%d n=%d lda=%d", m, n, lda);
        st_mat a;
        if (mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 0))
            continue;
        lapack_int *ipiv = int_vec(c, 1, k);
        if (!ipiv)
            continue;
        for (int i = 0; i < k; i++)
            ipiv[i] = -7;
        if (zc >= 0)
            for (int i = 0; i < m; i++)
                set_at(&a, i, zc, st_lc_make(0, 0));
        const lapack_int info = call_getrf(c, t, m, n, &a, ipiv);
        if (!st_expect_int(c, "info", info, zc + 1) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        int ok = 1;
        for (int i = 0; i < k && ok; i++)
            if (ipiv[i] < i + 1 || ipiv[i] > m) {
                st_fail(c, "ipiv[%d] = %d, want a row in [%d, %d]", i, (int)ipiv[i], i + 1, m);
                ok = 0;
            }
        /* L (m×k, unit diagonal), U (k×n), P·A. */
        dmat l = dm_new(c, m, k), r = dm_new(c, k, n), pa = mat_in(c, &a, 0);
        for (int j = 0; j < k && ok; j++) {
            *el(&l, j, j) = st_lc_make(1, 0);
            for (int i = j + 1; i < m && ok; i++) {
                *el(&l, i, j) = now_at(&a, i, j);
                const long double lm = mag(*el(&l, i, j));
                if (!(lm <= lmax)) {
                    st_fail(c, "|L(%d,%d)| = %.9Lg, above %.9Lg (partial pivoting)", i, j, lm,
                            lmax);
                    ok = 0;
                }
            }
        }
        if (!ok)
            continue;
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j && i < k; i++)
                *el(&r, i, j) = now_at(&a, i, j);
        for (int i = 0; i < k; i++) {
            const int p = ipiv[i] - 1;
            for (int j = 0; j < n && p != i; j++) {
                const st_lc x = *el(&pa, i, j);
                *el(&pa, i, j) = *el(&pa, p, j);
                *el(&pa, p, j) = x;
            }
        }
        l.tri = ST_LOWER;
        r.tri = ST_UPPER;
        l.cx = r.cx = cx;
        dm_abs(c, &l);
        dm_abs(c, &r);
        const probes pr = probes_for(n, (long)(m + n) * k);
        st_lc *w = vnew(c, n), *y = vnew(c, k), *z = vnew(c, m), *want = vnew(c, m);
        long double *wm = rnew(c, n), *ym = rnew(c, k), *zm = rnew(c, m);
        char pn[16];
        for (int q = 0; q < pr.count && !c->case_failed; q++) {
            probe_make(c, t, &pr, q, n, w, wm, pn);
            mv(&r, 0, w, wm, y, ym);
            mv(&l, 0, y, ym, z, zm);
            if (pr.unit)
                for (int i = 0; i < m; i++)
                    want[i] = *el(&pa, i, q);
            else
                mv(&pa, 0, w, NULL, want, NULL);
            for (int i = 0; i < m; i++)
                if (!expect_at(c, z[i], want[i], fa * (k + 1) * u * zm[i],
                               "(L·U)·w, w = %s, row %d (want P·A·w)", pn, i))
                    break;
        }
    }
}

/* ---- getrs ------------------------------------------------------------------------------- */

static lapack_int call_getrs(const st_check *c, st_type t, char trans, int n, int nrhs,
                             const st_mat *a, const lapack_int *ipiv, st_mat *b) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgetrs_work))c->fn)(COL, trans, n, nrhs, (const float *)a->p,
                                                         a->ld, ipiv, (float *)b->p, b->ld);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgetrs_work))c->fn)(COL, trans, n, nrhs, (const double *)a->p,
                                                         a->ld, ipiv, (double *)b->p, b->ld);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgetrs_work))c->fn)(COL, trans, n, nrhs,
                                                         (const lapack_complex_float *)a->p, a->ld,
                                                         ipiv, (lapack_complex_float *)b->p, b->ld);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgetrs_work))c->fn)(
            COL, trans, n, nrhs, (const lapack_complex_double *)a->p, a->ld, ipiv,
            (lapack_complex_double *)b->p, b->ld);
    }
    return -1000;
}

/* LU factors of order n in l (unit lower) and r (upper), rounded to t, and
 * pivots (1-based): a long double LU with partial pivoting of a random
 * matrix up to n = 33; beyond, factors made directly (|l_ij| small, |u_ii|
 * in [1, 2]) with random pivots, which costs O(n²). */
static void lu_factors(st_check *c, st_type t, int n, dmat *l, dmat *r, lapack_int *ipiv) {
    *l = dm_new(c, n, n);
    *r = dm_new(c, n, n);
    l->cx = r->cx = st_is_cx(t);
    if (n > 33) {
        const long double s = 1 / sqrtl(4.0L * n * n);
        for (int j = 0; j < n; j++) {
            ipiv[j] = j + 1 + (int)((st_rand(c) + 1) / 2 * (n - j));
            if (ipiv[j] > n)
                ipiv[j] = n;
            const long double d = st_rand(c);
            *el(r, j, j) =
                st_rounded(t, st_lc_make(d < 0 ? d - 1 : d + 1, st_is_cx(t) ? st_rand(c) : 0));
            *el(l, j, j) = st_lc_make(1, 0);
            for (int i = 0; i < j; i++)
                *el(r, i, j) = st_rounded(t, scaled(st_rand_value(c, t), s));
            for (int i = j + 1; i < n; i++)
                *el(l, i, j) = st_rounded(t, scaled(st_rand_value(c, t), s));
        }
        return;
    }
    dmat a = dm_new(c, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            *el(&a, i, j) = st_rand_value(c, t);
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (mag(*el(&a, i, k)) > mag(*el(&a, p, k)))
                p = i;
        ipiv[k] = p + 1;
        for (int j = 0; j < n && p != k; j++) {
            const st_lc x = *el(&a, k, j);
            *el(&a, k, j) = *el(&a, p, j);
            *el(&a, p, j) = x;
        }
        const st_lc piv = *el(&a, k, k);
        for (int i = k + 1; i < n; i++)
            *el(&a, i, k) = st_div(*el(&a, i, k), piv);
        for (int j = k + 1; j < n; j++) {
            const st_lc x = *el(&a, k, j);
            for (int i = k + 1; i < n; i++)
                *el(&a, i, j) = st_sub(*el(&a, i, j), st_mul(*el(&a, i, k), x));
        }
    }
    for (int j = 0; j < n; j++) {
        *el(l, j, j) = st_lc_make(1, 0);
        for (int i = 0; i < n; i++)
            *(i > j ? el(l, i, j) : el(r, i, j)) = st_rounded(t, *el(&a, i, j));
    }
}

/* The row interchanges of ipiv on x and xm: P·x (forward) or Pᵀ·x. */
static void permute(const lapack_int *ipiv, int n, int forward, st_lc *x, long double *xm) {
    for (int s = 0; s < n; s++) {
        const int i = forward ? s : n - 1 - s, p = ipiv[i] - 1;
        if (p == i)
            continue;
        const st_lc v = x[i];
        x[i] = x[p];
        x[p] = v;
        const long double vm = xm[i];
        xm[i] = xm[p];
        xm[p] = vm;
    }
}

/* The last size runs once (trans N). */
static const int getrs_sizes[] = {1, 2, 5, 17, 33, 64, 130};

static void check_getrs(st_check *c, st_type t) {
    const int ns = (int)(sizeof(getrs_sizes) / sizeof(getrs_sizes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    static const char trs[] = {'N', 'T', 'C'};
    int cas = 0;
    for (int tr = 0; tr < 3; tr++)
        for (int s = 0; s < (tr ? ns - 1 : ns); s++, cas++) {
            const int n = getrs_sizes[s], nrhs = 1 + cas % 3;
            const int lda = n + (cas % 2 ? 1 : 0), ldb = n + (cas % 4 == 1 ? 2 : 0);
            st_case(c, "trans=%c n=%d nrhs=%d lda=%d ldb=%d", trs[tr], n, nrhs, lda, ldb);
            st_mat a, b;
            if (mat_make(c, 0, &a, t, n, n, lda, ST_ALL, 0) ||
                mat_make(c, 1, &b, t, n, nrhs, ldb, ST_ALL, 0))
                continue;
            lapack_int *ipiv = int_vec(c, 2, n);
            if (!ipiv)
                continue;
            dmat l, r;
            lu_factors(c, t, n, &l, &r, ipiv);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    set_at(&a, i, j, *(i > j ? el(&l, i, j) : el(&r, i, j)));
            lapack_int *piv0 = st_alloc(c, sizeof(lapack_int) * (size_t)n);
            memcpy(piv0, ipiv, sizeof(lapack_int) * (size_t)n);
            const lapack_int info = call_getrs(c, t, trs[tr], n, nrhs, &a, ipiv, &b);
            st_mat_unchanged(c, "A", &a);
            if (memcmp(piv0, ipiv, sizeof(lapack_int) * (size_t)n) != 0)
                st_fail(c, "ipiv: a read-only operand was written");
            if (!st_expect_int(c, "info", info, 0) || !untouched(c, "B", &b, ST_ALL, 0))
                continue;
            l.tri = ST_LOWER;
            r.tri = ST_UPPER;
            dm_abs(c, &l);
            dm_abs(c, &r);
            /* op(A)·x̂ with A = Pᵀ·L·U. */
            const int op = tr == 0 ? 0 : tr == 1 ? 1 : (st_is_cx(t) ? 2 : 1);
            st_lc *x = vnew(c, n), *y = vnew(c, n);
            long double *xm = rnew(c, n), *ym = rnew(c, n);
            for (int j = 0; j < nrhs && !c->case_failed; j++) {
                for (int i = 0; i < n; i++) {
                    x[i] = now_at(&b, i, j);
                    xm[i] = mag(x[i]);
                }
                if (op == 0) {
                    mv(&r, 0, x, xm, y, ym);
                    mv(&l, 0, y, ym, x, xm);
                    permute(ipiv, n, 0, x, xm);
                } else {
                    permute(ipiv, n, 1, x, xm);
                    mv(&l, op, x, xm, y, ym);
                    mv(&r, op, y, ym, x, xm);
                }
                for (int i = 0; i < n; i++)
                    if (!expect_at(c, x[i], in_at(&b, i, j), 2 * fa * (n + 1) * u * xm[i],
                                   "(op(A)·X)(%d,%d) (want B's)", i, j))
                        break;
            }
        }
}

/* ---- geqrf ------------------------------------------------------------------------------- */

static lapack_int call_geqrf(const st_check *c, st_type t, int m, int n, st_mat *a, void *tau,
                             void *work, int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgeqrf_work))c->fn)(COL, m, n, (float *)a->p, a->ld, tau, work,
                                                         lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgeqrf_work))c->fn)(COL, m, n, (double *)a->p, a->ld, tau,
                                                         work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgeqrf_work))c->fn)(COL, m, n, (lapack_complex_float *)a->p,
                                                         a->ld, tau, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgeqrf_work))c->fn)(COL, m, n, (lapack_complex_double *)a->p,
                                                         a->ld, tau, work, lwork);
    }
    return -1000;
}

static const int geqrf_shapes[][2] = {{1, 1},   {1, 5},   {5, 1},    {2, 2},
                                      {7, 4},   {4, 7},   {17, 17},  {40, 33},
                                      {33, 40}, {64, 64}, {100, 65}, {160, 130}};

static void check_geqrf(st_check *c, st_type t) {
    const int ns = (int)(sizeof(geqrf_shapes) / sizeof(geqrf_shapes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    for (int s = 0; s < ns; s++) {
        const int m = geqrf_shapes[s][0], n = geqrf_shapes[s][1], k = m < n ? m : n;
        const int lda = m + (s % 2 ? 2 : 0);
        st_case(c, "m=%d n=%d lda=%d", m, n, lda);
        st_mat a;
        st_vec tau;
        if (mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 0) || out_vec(c, 1, &tau, t, k))
            continue;
        query q = {0};
        lapack_int info = call_geqrf(c, t, m, n, &a, tau.p, &q, -1);
        const int lwork = info == 0 ? query_len(c, "work[0]", t, &q) : 0;
        if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info = call_geqrf(c, t, m, n, &a, tau.p, work, lwork);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        /* The reflectors and R from the output. */
        refl *h = st_alloc(c, sizeof(refl) * (size_t)k);
        for (int i = 0; i < k; i++) {
            h[i] = (refl){i, m - i, st_is_cx(t), st_vec_now(&tau, i), vnew(c, m - i)};
            h[i].v[0] = st_lc_make(1, 0);
            for (int r = 1; r < m - i; r++)
                h[i].v[r] = now_at(&a, i + r, i);
        }
        dmat r = dm_new(c, m, n), a0 = mat_in(c, &a, 0);
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j && i < k; i++)
                *el(&r, i, j) = now_at(&a, i, j);
        r.tri = ST_UPPER;
        r.cx = st_is_cx(t);
        const long double e = fa * k * (m + 4) * u, eo = fa * k * (2 * m + 8) * u;
        long double *cn = rnew(c, n);
        for (int j = 0; j < n; j++)
            cn[j] = vnorm(el(&a0, 0, j), m);
        /* Q·(R·w) against A·w. */
        const probes p = probes_for(n, (long)m * n + 2L * m * k);
        st_lc *w = vnew(c, n), *y = vnew(c, m), *want = vnew(c, m);
        long double *wm = rnew(c, n);
        char pn[16];
        for (int q2 = 0; q2 < p.count; q2++) {
            probe_make(c, t, &p, q2, n, w, wm, pn);
            mv(&r, 0, w, NULL, y, NULL);
            q_apply(h, k, 0, y);
            mv(&a0, 0, w, NULL, want, NULL);
            long double b = 0;
            for (int j = 0; j < n; j++)
                b += wm[j] * cn[j];
            if (!expect_small(c, vdist(y, want, m), e * b, "‖(A − Q·R)·w‖₂, w = %s", pn))
                break;
        }
        if (c->case_failed)
            continue;
        /* Qᴴ·(Q·w) against w. */
        const probes po = probes_for(m, 4L * m * k);
        st_lc *x = vnew(c, m), *x0 = vnew(c, m);
        for (int q2 = 0; q2 < po.count; q2++) {
            probe_make(c, t, &po, q2, m, x0, NULL, pn);
            memcpy(x, x0, sizeof(st_lc) * (size_t)m);
            q_apply(h, k, 0, x);
            q_apply(h, k, 1, x);
            if (!expect_small(c, vdist(x, x0, m), eo * vnorm(x0, m), "‖(Qᴴ·Q − I)·w‖₂, w = %s", pn))
                break;
        }
    }
}

/* ---- orgqr, ormqr ------------------------------------------------------------------------ */

/* k reflectors of order nq as geqrf leaves them, rounded to t, stored in
 * the first k columns of a (below the diagonal; the rest stays random, as
 * R would be) and in tau. */
static refl *qr_reflectors(st_check *c, st_type t, int nq, int k, st_mat *a, st_vec *tau) {
    refl *h = st_alloc(c, sizeof(refl) * (size_t)(k > 0 ? k : 1));
    for (int i = 0; i < k; i++) {
        h[i] = refl_make(c, t, i, nq - i, 1);
        for (int r = 1; r < nq - i; r++)
            set_at(a, i + r, i, h[i].v[r]);
        st_vec_set(tau, i, h[i].tau);
    }
    return h;
}

static lapack_int call_orgqr(const st_check *c, st_type t, int m, int n, int k, st_mat *a,
                             const void *tau, void *work, int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sorgqr_work))c->fn)(COL, m, n, k, (float *)a->p, a->ld, tau,
                                                         work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dorgqr_work))c->fn)(COL, m, n, k, (double *)a->p, a->ld, tau,
                                                         work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cungqr_work))c->fn)(COL, m, n, k, (lapack_complex_float *)a->p,
                                                         a->ld, tau, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zungqr_work))c->fn)(
            COL, m, n, k, (lapack_complex_double *)a->p, a->ld, tau, work, lwork);
    }
    return -1000;
}

/* (m, n, k), k <= n <= m. */
static const int orgqr_shapes[][3] = {{1, 1, 1},    {1, 1, 0},    {4, 1, 1},     {5, 3, 3},
                                      {6, 6, 4},    {9, 5, 0},    {17, 17, 17},  {40, 33, 33},
                                      {64, 40, 31}, {65, 65, 64}, {100, 64, 40}, {160, 135, 130}};

/* orgqr, or orgbr 'Q' (which forms Q from the same reflectors). */
typedef lapack_int (*q_caller)(const st_check *c, st_type t, int m, int n, int k, st_mat *a,
                               const void *tau, void *work, int lwork);

/* Q's first n columns against the reflectors applied to the identity's,
 * each case's name after `prefix`. */
static void check_q_columns(st_check *c, st_type t, const char *prefix, q_caller call) {
    const int ns = (int)(sizeof(orgqr_shapes) / sizeof(orgqr_shapes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    for (int s = 0; s < ns; s++) {
        const int m = orgqr_shapes[s][0], n = orgqr_shapes[s][1], k = orgqr_shapes[s][2];
        const int lda = m + (s % 2 ? 0 : 3);
        st_case(c, "%sm=%d n=%d k=%d lda=%d", prefix, m, n, k, lda);
        st_mat a;
        st_vec tau;
        if (mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 0) || st_vec_make(c, 1, &tau, t, k, 1))
            continue;
        const refl *h = qr_reflectors(c, t, m, k, &a, &tau);
        query q = {0};
        lapack_int info = call(c, t, m, n, k, &a, tau.p, &q, -1);
        const int lwork = info == 0 ? query_len(c, "work[0]", t, &q) : 0;
        if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info = call(c, t, m, n, k, &a, tau.p, work, lwork);
        st_vec_unchanged(c, "tau", &tau);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        const long double e = fa * k * (m + 4) * u;
        const dmat qh = mat_out(c, &a, m, n);
        const probes p = probes_for(n, 2L * m * k + (long)m * n);
        st_lc *w = vnew(c, m), *y = vnew(c, m);
        long double *wm = rnew(c, n);
        char pn[16];
        for (int q2 = 0; q2 < p.count && !c->case_failed; q2++) {
            probe_make(c, t, &p, q2, n, w, wm, pn); /* w[n..m) stays 0 */
            long double b = 0;
            for (int j = 0; j < n; j++)
                b += wm[j];
            mv(&qh, 0, w, NULL, y, NULL);
            q_apply(h, k, 0, w);
            for (int i = 0; i < m; i++)
                if (!expect_at(c, y[i], w[i], e * b, "Q·w, w = %s, row %d", pn, i))
                    break;
            memset(w, 0, sizeof(st_lc) * (size_t)m);
        }
    }
}

static void check_orgqr(st_check *c, st_type t) {
    check_q_columns(c, t, "", call_orgqr);
}

static lapack_int call_ormqr(const st_check *c, st_type t, char side, char trans, int m, int n,
                             int k, const st_mat *a, const void *tau, st_mat *cm, void *work,
                             int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sormqr_work))c->fn)(COL, side, trans, m, n, k,
                                                         (const float *)a->p, a->ld, tau,
                                                         (float *)cm->p, cm->ld, work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dormqr_work))c->fn)(COL, side, trans, m, n, k,
                                                         (const double *)a->p, a->ld, tau,
                                                         (double *)cm->p, cm->ld, work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cunmqr_work))c->fn)(
            COL, side, trans, m, n, k, (const lapack_complex_float *)a->p, a->ld, tau,
            (lapack_complex_float *)cm->p, cm->ld, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zunmqr_work))c->fn)(
            COL, side, trans, m, n, k, (const lapack_complex_double *)a->p, a->ld, tau,
            (lapack_complex_double *)cm->p, cm->ld, work, lwork);
    }
    return -1000;
}

/* (order of Q, the other dimension of C, k). */
static const int ormqr_shapes[][3] = {{1, 1, 1},   {1, 4, 0},   {6, 4, 3},     {9, 2, 9},
                                      {33, 8, 33}, {65, 7, 64}, {120, 10, 100}};

static void check_ormqr(st_check *c, st_type t) {
    const int ns = (int)(sizeof(ormqr_shapes) / sizeof(ormqr_shapes[0]));
    const int cx = st_is_cx(t);
    const long double u = st_unit(t), fa = st_factor(t);
    int cas = 0;
    for (int right = 0; right <= 1; right++)
        for (int tr = 0; tr <= 1; tr++)
            for (int s = 0; s < ns; s++, cas++) {
                const int nq = ormqr_shapes[s][0], other = ormqr_shapes[s][1];
                const int k = ormqr_shapes[s][2];
                const int m = right ? other : nq, n = right ? nq : other;
                const int lda = nq + (cas % 2 ? 2 : 0), ldc = m + (cas % 3 == 1 ? 3 : 0);
                const char side = right ? 'R' : 'L', trans = tr ? (cx ? 'C' : 'T') : 'N';
                st_case(c, "side=%c trans=%c m=%d n=%d k=%d lda=%d ldc=%d", side, trans, m, n, k,
                        lda, ldc);
                st_mat a, cm;
                st_vec tau;
                if (mat_make(c, 0, &a, t, nq, k, lda, ST_ALL, 0) ||
                    st_vec_make(c, 1, &tau, t, k, 1) ||
                    mat_make(c, 2, &cm, t, m, n, ldc, ST_ALL, 0))
                    continue;
                const refl *h = qr_reflectors(c, t, nq, k, &a, &tau);
                query q = {0};
                lapack_int info = call_ormqr(c, t, side, trans, m, n, k, &a, tau.p, &cm, &q, -1);
                const int lwork = info == 0 ? query_len(c, "work[0]", t, &q) : 0;
                if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
                    continue;
                void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
                info = call_ormqr(c, t, side, trans, m, n, k, &a, tau.p, &cm, work, lwork);
                st_mat_unchanged(c, "A", &a);
                st_vec_unchanged(c, "tau", &tau);
                if (!st_expect_int(c, "info", info, 0) || !untouched(c, "C", &cm, ST_ALL, 0))
                    continue;
                const long double e = fa * k * (nq + 4) * u;
                const dmat c0 = mat_in(c, &cm, 0), ch = mat_out(c, &cm, m, n);
                /* Side L: op(Q)·C·w = op(Q)·(C·w), column j of C within e·‖c_j‖.
                 * Side R: C·op(Q)·w = C·(op(Q)·w), row i within e·‖c_i‖. */
                const probes p = probes_for(n, 2L * m * n + 2L * k * nq);
                st_lc *w = vnew(c, n), *want = vnew(c, m), *got = vnew(c, m), *x = vnew(c, n);
                long double *wm = rnew(c, n), *bound = rnew(c, m);
                char pn[16];
                for (int q2 = 0; q2 < p.count && !c->case_failed; q2++) {
                    probe_make(c, t, &p, q2, n, w, wm, pn);
                    mv(&ch, 0, w, NULL, got, NULL);
                    if (!right) {
                        mv(&c0, 0, w, NULL, want, NULL);
                        q_apply(h, k, tr, want);
                        long double b = 0;
                        for (int j = 0; j < n; j++)
                            b += wm[j] * vnorm(el(&c0, 0, j), m);
                        for (int i = 0; i < m; i++)
                            bound[i] = e * b;
                    } else {
                        memcpy(x, w, sizeof(st_lc) * (size_t)n);
                        q_apply(h, k, tr, x);
                        mv(&c0, 0, x, NULL, want, NULL);
                        const long double wn = vnorm(w, n);
                        for (int i = 0; i < m; i++) {
                            long double r2 = 0;
                            for (int j = 0; j < n; j++)
                                r2 += mag2(*el(&c0, i, j));
                            bound[i] = e * sqrtl(r2) * wn;
                        }
                    }
                    for (int i = 0; i < m; i++)
                        if (!expect_at(c, got[i], want[i], bound[i], "%s·w, w = %s, row %d",
                                       right ? "C·op(Q)" : "op(Q)·C", pn, i))
                            break;
                }
            }
}

/* ---- syevd, heevd ------------------------------------------------------------------------ */

/* Workspace lengths of syevd/heevd/sygvd/hegvd. */
typedef struct eig_ws {
    void *work, *rwork;
    lapack_int *iwork;
    int lwork, lrwork, liwork;
} eig_ws;

static lapack_int call_syevd(const st_check *c, st_type t, char jobz, char uplo, int n, st_mat *a,
                             st_vec *w, const eig_ws *ws) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_ssyevd_work))c->fn)(COL, jobz, uplo, n, (float *)a->p, a->ld,
                                                         (float *)w->p, ws->work, ws->lwork,
                                                         ws->iwork, ws->liwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dsyevd_work))c->fn)(COL, jobz, uplo, n, (double *)a->p, a->ld,
                                                         (double *)w->p, ws->work, ws->lwork,
                                                         ws->iwork, ws->liwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cheevd_work))c->fn)(
            COL, jobz, uplo, n, (lapack_complex_float *)a->p, a->ld, (float *)w->p, ws->work,
            ws->lwork, ws->rwork, ws->lrwork, ws->iwork, ws->liwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zheevd_work))c->fn)(
            COL, jobz, uplo, n, (lapack_complex_double *)a->p, a->ld, (double *)w->p, ws->work,
            ws->lwork, ws->rwork, ws->lrwork, ws->iwork, ws->liwork);
    }
    return -1000;
}

static lapack_int call_sygvd(const st_check *c, st_type t, int itype, char jobz, char uplo, int n,
                             st_mat *a, st_mat *b, st_vec *w, const eig_ws *ws) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_ssygvd_work))c->fn)(
            COL, itype, jobz, uplo, n, (float *)a->p, a->ld, (float *)b->p, b->ld, (float *)w->p,
            ws->work, ws->lwork, ws->iwork, ws->liwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dsygvd_work))c->fn)(
            COL, itype, jobz, uplo, n, (double *)a->p, a->ld, (double *)b->p, b->ld, (double *)w->p,
            ws->work, ws->lwork, ws->iwork, ws->liwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_chegvd_work))c->fn)(
            COL, itype, jobz, uplo, n, (lapack_complex_float *)a->p, a->ld,
            (lapack_complex_float *)b->p, b->ld, (float *)w->p, ws->work, ws->lwork, ws->rwork,
            ws->lrwork, ws->iwork, ws->liwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zhegvd_work))c->fn)(
            COL, itype, jobz, uplo, n, (lapack_complex_double *)a->p, a->ld,
            (lapack_complex_double *)b->p, b->ld, (double *)w->p, ws->work, ws->lwork, ws->rwork,
            ws->lrwork, ws->iwork, ws->liwork);
    }
    return -1000;
}

/* The query's answers into ws, allocated. Returns -1 when the case failed. */
static int eig_ws_alloc(st_check *c, st_type t, lapack_int info, const query *qw, const query *qr,
                        lapack_int qi, eig_ws *ws) {
    if (!st_expect_int(c, "info of the workspace query", info, 0))
        return -1;
    ws->lwork = query_len(c, "work[0]", t, qw);
    ws->lrwork = st_is_cx(t) ? query_len(c, "rwork[0]", real_of(t), qr) : 0;
    if (ws->lwork < 0 || ws->lrwork < 0)
        return -1;
    if (qi < 1 || qi > LWORK_MAX) {
        st_fail(c, "the workspace query returned iwork[0] = %d", (int)qi);
        return -1;
    }
    ws->liwork = (int)qi;
    ws->work = st_alloc(c, st_esize(t) * (size_t)ws->lwork);
    ws->rwork = st_alloc(c, st_esize(real_of(t)) * (size_t)(ws->lrwork > 0 ? ws->lrwork : 1));
    ws->iwork = st_alloc(c, sizeof(lapack_int) * (size_t)ws->liwork);
    return 0;
}

/* Eigenvalues ascending, each within bound[i] of want[i]. */
static int check_eigenvalues(st_check *c, const st_vec *w, const long double *want,
                             const long double *bound) {
    for (int i = 0; i < w->n; i++) {
        const long double l = st_vec_now(w, i).re;
        if (i > 0 && !(st_vec_now(w, i - 1).re <= l)) {
            st_fail(c, "W[%d] = %.9Lg > W[%d] = %.9Lg: eigenvalues not ascending", i - 1,
                    st_vec_now(w, i - 1).re, i, l);
            return 0;
        }
        if (!expect_at(c, st_lc_make(l, 0), st_lc_make(want[i], 0), bound[i], "W[%d]", i))
            return 0;
    }
    return 1;
}

/* The last size with jobz V only. */
static const int syevd_sizes[] = {1, 2, 3, 8, 26, 33, 64, 100};

/* The eigensolvers' and gesvd's p(n)·u: 8f(n+1)u (see the top). */
static long double eig_unit(st_type t, int n) {
    return 8 * st_factor(t) * (n + 1) * st_unit(t);
}

static void check_syevd(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(syevd_sizes) / sizeof(syevd_sizes[0]));
    int cas = 0;
    for (int s = 0; s < ns; s++)
        for (int v = s == ns - 1; v <= 1; v++, cas++) {
            const int n = syevd_sizes[s], up = (s + v) % 2, lda = n + (cas % 3 == 1 ? 2 : 0);
            const char jobz = v ? 'V' : 'N', uplo = up ? 'U' : 'L';
            const st_part part = up ? ST_UPPER : ST_LOWER;
            st_case(c, "jobz=%c uplo=%c n=%d lda=%d", jobz, uplo, n, lda);
            st_mat a;
            st_vec w;
            if (mat_make(c, 0, &a, t, n, n, lda, part, 1) || out_vec(c, 1, &w, real_of(t), n))
                continue;
            const long double *d = eigenvalues(c, n);
            const dmat ad = herm_from_eig(c, t, n, d);
            mat_put(&a, &ad);
            query qw = {0}, qr = {0};
            lapack_int qi = 0;
            eig_ws ws = {&qw, &qr, &qi, -1, -1, -1};
            lapack_int info = call_syevd(c, t, jobz, uplo, n, &a, &w, &ws);
            if (eig_ws_alloc(c, t, info, &qw, &qr, qi, &ws))
                continue;
            info = call_syevd(c, t, jobz, uplo, n, &a, &w, &ws);
            if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, v ? ST_ALL : part, 0))
                continue;
            const dmat a0 = mat_in(c, &a, cx ? 2 : 1);
            const long double an = dm_frob(&a0), e = eig_unit(t, n);
            long double *bound = rnew(c, n);
            for (int i = 0; i < n; i++)
                bound[i] = e * an;
            if (!check_eigenvalues(c, &w, d, bound) || !v)
                continue;
            /* A·(V·w) − V·(Λ·w), and Vᴴ·(V·w) − w. */
            const dmat vh = mat_out(c, &a, n, n);
            const probes p = probes_for(n, 4L * n * n);
            st_lc *x = vnew(c, n), *y = vnew(c, n), *z = vnew(c, n), *lw = vnew(c, n);
            char pn[16];
            for (int k = 0; k < p.count; k++) {
                probe_make(c, t, &p, k, n, x, NULL, pn);
                const long double xn = vnorm(x, n);
                mv(&vh, 0, x, NULL, y, NULL);
                mv(&a0, 0, y, NULL, z, NULL);
                for (int i = 0; i < n; i++)
                    lw[i] = scaled(x[i], st_vec_now(&w, i).re);
                mv(&vh, 0, lw, NULL, y, NULL);
                if (!expect_small(c, vdist(z, y, n), e * an * xn, "‖(A·V − V·Λ)·w‖₂, w = %s", pn))
                    break;
                mv(&vh, 0, x, NULL, y, NULL);
                mv(&vh, 2, y, NULL, z, NULL);
                if (!expect_small(c, vdist(z, x, n), e * xn, "‖(Vᴴ·V − I)·w‖₂, w = %s", pn))
                    break;
            }
        }
}

/* ---- sygvd, hegvd ------------------------------------------------------------------------ */

static const int sygvd_sizes[] = {1, 2, 5, 9, 20, 33, 40};

static void check_sygvd(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(sygvd_sizes) / sizeof(sygvd_sizes[0]));
    /* Every (itype, jobz, uplo) once on a small size, then itype 1 and 3
     * with vectors above sygst's block size 64 (itype 2 and 3 share its
     * blocked branch; 3 back-transforms with trmm). */
    for (int q = 0; q < 14; q++) {
        const int big = q >= 12;
        const int itype = big ? 1 + 2 * (q - 12) : 1 + q / 4, v = big ? 1 : (q / 2) % 2;
        const int up = big ? q == 13 : q % 2;
        const int n = big ? (q == 12 ? 80 : 72) : sygvd_sizes[q % ns];
        const int lda = n + (q % 3 == 1 ? 2 : 0), ldb = n + (q % 3 == 2 ? 1 : 0);
        const char jobz = v ? 'V' : 'N', uplo = up ? 'U' : 'L';
        const st_part part = up ? ST_UPPER : ST_LOWER;
        st_case(c, "itype=%d jobz=%c uplo=%c n=%d lda=%d ldb=%d", itype, jobz, uplo, n, lda, ldb);
        st_mat a, b;
        st_vec w;
        if (mat_make(c, 0, &a, t, n, n, lda, part, 1) ||
            mat_make(c, 1, &b, t, n, n, ldb, part, 1) || out_vec(c, 2, &w, real_of(t), n))
            continue;
        /* B = L·Lᴴ; A = L·M·Lᴴ (itype 1) or L⁻ᴴ·M·L⁻¹ (2, 3), M = Q·D·Qᴴ. */
        const trifac f = factor_make(c, t, n, n <= 40 ? n - 1 : 4);
        const long double *d = eigenvalues(c, n);
        const dmat mm = herm_from_eig(c, t, n, d);
        dmat ad = itype == 1 ? congruence(c, &f, &mm) : inv_congruence(c, &f, &mm);
        hermitize(&ad);
        const dmat bd = gram(c, &f);
        mat_put(&a, &ad);
        mat_put(&b, &bd);
        query qw = {0}, qr = {0};
        lapack_int qi = 0;
        eig_ws ws = {&qw, &qr, &qi, -1, -1, -1};
        lapack_int info = call_sygvd(c, t, itype, jobz, uplo, n, &a, &b, &w, &ws);
        if (eig_ws_alloc(c, t, info, &qw, &qr, qi, &ws))
            continue;
        info = call_sygvd(c, t, itype, jobz, uplo, n, &a, &b, &w, &ws);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, v ? ST_ALL : part, 0) ||
            !untouched(c, "B", &b, part, cx))
            continue;
        const dmat a0 = mat_in(c, &a, cx ? 2 : 1), b0 = mat_in(c, &b, cx ? 2 : 1);
        const long double an = dm_frob(&a0), e = eig_unit(t, n);
        const long double bn = f.phi * f.phi, bi = f.psi * f.psi, kappa = bn * bi;
        const long double abn = an * (itype == 1 ? bi : bn);
        long double *bound = rnew(c, n), dmax = 0;
        for (int i = 0; i < n; i++) {
            bound[i] = e * (abn + kappa * fabsl(d[i]));
            dmax = fabsl(d[i]) > dmax ? fabsl(d[i]) : dmax;
        }
        if (!check_eigenvalues(c, &w, d, bound))
            continue;
        /* B's Cholesky factor, as potrf's. */
        dmat fb = factor_get(c, &b, up);
        check_llh(c, t, up ? "B: Uᴴ·U" : "B: L·Lᴴ", &fb, &b0);
        if (c->case_failed || !v)
            continue;
        const dmat z = mat_out(c, &a, n, n);
        /* ‖Z‖₂ ≤ ψ (Z = L⁻ᴴ·V) or φ (Z = L·V); the residual's two terms:
         * ‖A‖‖Z‖ + ‖B‖‖Z‖max|d| (itype 1), ‖A‖‖B‖‖Z‖ + ‖Z‖max|d| (2, 3). */
        const long double zn = itype == 3 ? f.phi : f.psi;
        const long double terms = itype == 1 ? an + bn * dmax : an * bn + dmax;
        const long double rb = e * f.phi * f.psi * terms * zn, nb = 3 * e * kappa;
        const probes p = probes_for(n, 6L * n * n);
        st_lc *x = vnew(c, n), *y = vnew(c, n), *y2 = vnew(c, n), *r1 = vnew(c, n),
              *r2 = vnew(c, n);
        char pn[16];
        static const char *const res_name[] = {"", "A·Z − B·Z·Λ", "A·B·Z − Z·Λ", "B·A·Z − Z·Λ"};
        for (int k = 0; k < p.count; k++) {
            probe_make(c, t, &p, k, n, x, NULL, pn);
            const long double xn = vnorm(x, n);
            mv(&z, 0, x, NULL, y, NULL); /* y = Z·x */
            for (int i = 0; i < n; i++)
                r2[i] = scaled(x[i], st_vec_now(&w, i).re);
            mv(&z, 0, r2, NULL, y2, NULL); /* y2 = Z·Λ·x */
            if (itype == 1) {
                mv(&a0, 0, y, NULL, r1, NULL);
                mv(&b0, 0, y2, NULL, r2, NULL);
            } else {
                mv(itype == 2 ? &b0 : &a0, 0, y, NULL, r2, NULL);
                mv(itype == 2 ? &a0 : &b0, 0, r2, NULL, r1, NULL);
                memcpy(r2, y2, sizeof(st_lc) * (size_t)n);
            }
            if (!expect_small(c, vdist(r1, r2, n), rb * xn, "‖(%s)·w‖₂, w = %s", res_name[itype],
                              pn))
                break;
            /* Zᴴ·B·Z·x or Zᴴ·B⁻¹·Z·x, against x. */
            if (itype == 3) {
                memcpy(r1, y, sizeof(st_lc) * (size_t)n);
                tri_solve(&f.l, 0, r1);
                tri_solve(&f.l, 1, r1);
            } else {
                mv(&b0, 0, y, NULL, r1, NULL);
            }
            mv(&z, 2, r1, NULL, r2, NULL);
            if (!expect_small(c, vdist(r2, x, n), nb * xn, "‖(Zᴴ·%s·Z − I)·w‖₂, w = %s",
                              itype == 3 ? "B⁻¹" : "B", pn))
                break;
        }
    }
}

/* ---- gesvd ------------------------------------------------------------------------------- */

static lapack_int call_gesvd(const st_check *c, st_type t, char jobu, char jobvt, int m, int n,
                             st_mat *a, st_vec *s, void *u, int ldu, void *vt, int ldvt, void *work,
                             int lwork, void *rwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgesvd_work))c->fn)(COL, jobu, jobvt, m, n, (float *)a->p,
                                                         a->ld, (float *)s->p, u, ldu, vt, ldvt,
                                                         work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgesvd_work))c->fn)(COL, jobu, jobvt, m, n, (double *)a->p,
                                                         a->ld, (double *)s->p, u, ldu, vt, ldvt,
                                                         work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgesvd_work))c->fn)(
            COL, jobu, jobvt, m, n, (lapack_complex_float *)a->p, a->ld, (float *)s->p, u, ldu, vt,
            ldvt, work, lwork, rwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgesvd_work))c->fn)(
            COL, jobu, jobvt, m, n, (lapack_complex_double *)a->p, a->ld, (double *)s->p, u, ldu,
            vt, ldvt, work, lwork, rwork);
    }
    return -1000;
}

/* A = U·Σ·Vᴴ with random U, V; sigma: descending distinct values in
 * (0, 1], the last (from min(m, n) = 2) 1e-6. */
static dmat svd_input(st_check *c, st_type t, int m, int n, long double *sigma) {
    const int p = m < n ? m : n;
    for (int i = 0; i < p; i++)
        sigma[i] = (p - i + 0.4L * st_rand(c)) / p;
    if (p >= 2)
        sigma[p - 1] = 1e-6L;
    dmat a = dm_new(c, m, n);
    a.cx = st_is_cx(t);
    for (int i = 0; i < p; i++)
        *el(&a, i, i) = st_lc_make(sigma[i], 0);
    const int ru = unitary_count(m), rv = unitary_count(n);
    const refl *hu = random_unitary(c, t, m, ru), *hv = random_unitary(c, t, n, rv);
    for (int i = rv - 1; i >= 0; i--)
        refl_right(c, &hv[i], 1, &a);
    for (int i = ru - 1; i >= 0; i--)
        refl_left(&hu[i], 0, &a);
    return a;
}

/* ‖(Xᴴ·X − I)·w‖ for the columns of X (rows when `rows`), within bound. */
static void check_orthonormal(st_check *c, st_type t, const char *name, const dmat *x, int rows,
                              long double bound) {
    const int k = rows ? x->rows : x->cols, len = rows ? x->cols : x->rows;
    const probes p = probes_for(k, 2L * k * len);
    st_lc *w = vnew(c, k), *y = vnew(c, len), *z = vnew(c, k);
    char pn[16];
    for (int q = 0; q < p.count; q++) {
        probe_make(c, t, &p, q, k, w, NULL, pn);
        mv(x, rows ? 2 : 0, w, NULL, y, NULL);
        mv(x, rows ? 0 : 2, y, NULL, z, NULL);
        if (!expect_small(c, vdist(z, w, k), bound * vnorm(w, k), "‖(%s − I)·w‖₂, w = %s", name,
                          pn))
            return;
    }
}

/* (m, n) pairs: m ≥ 1.6n (gesvd's QR first), m ≥ n below that, and the
 * transposed ones. */
static const int gesvd_tall[][2] = {{9, 4}, {6, 5}, {40, 9}, {33, 31}, {5, 1}, {1, 1}};
static const int gesvd_wide[][2] = {{5, 6}, {4, 9}, {31, 33}, {9, 40}, {1, 5}, {2, 2}};
static const char gesvd_jobs[] = "NOSA";

static void check_gesvd(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const long double u = st_unit(t);
    const int nt = (int)(sizeof(gesvd_tall) / sizeof(gesvd_tall[0]));
    int cas = 0;
    /* 15 job pairs × 2 shapes, then two large ones. */
    for (int q = 0; q < 32; q++) {
        int ju, jv, m, n;
        if (q < 30) {
            const int pair = q / 2 + (q / 2 >= 5); /* skip (O, O) = 5 */
            ju = pair / 4;
            jv = pair % 4;
            const int sh = (q / 2 + (q % 2) * 3) % nt;
            m = q % 2 ? gesvd_wide[sh][0] : gesvd_tall[sh][0];
            n = q % 2 ? gesvd_wide[sh][1] : gesvd_tall[sh][1];
        } else { /* blocked gebrd (min(m, n) > 128) without vectors; vectors at 90 × 50 */
            ju = q == 30 ? 0 : 2;
            jv = q == 30 ? 0 : 3;
            m = q == 30 ? 140 : 90;
            n = q == 30 ? 130 : 50;
        }
        const char jobu = gesvd_jobs[ju], jobvt = gesvd_jobs[jv];
        const int p = m < n ? m : n;
        const int ucols = jobu == 'A' ? m : jobu == 'S' ? p : 0;
        const int vrows = jobvt == 'A' ? n : jobvt == 'S' ? p : 0;
        const int lda = m + (cas % 2 ? 1 : 0), ldu = ucols ? m + (cas % 3 == 1 ? 2 : 0) : 1;
        const int ldvt = vrows ? vrows + (cas % 3 == 2 ? 3 : 0) : 1;
        cas++;
        st_case(c, "jobu=%c jobvt=%c m=%d n=%d lda=%d ldu=%d ldvt=%d", jobu, jobvt, m, n, lda, ldu,
                ldvt);
        st_mat a, um, vm;
        st_vec s;
        if (mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 1) || out_vec(c, 1, &s, real_of(t), p) ||
            mat_make(c, 2, &um, t, ucols ? m : 1, ucols ? ucols : 1, ldu, ST_ALL, 1) ||
            mat_make(c, 3, &vm, t, vrows ? vrows : 1, vrows ? n : 1, ldvt, ST_ALL, 1))
            continue;
        st_mat_poison_all(&um);
        st_mat_poison_all(&vm);
        long double *sigma = rnew(c, p);
        const dmat ad = svd_input(c, t, m, n, sigma);
        mat_put(&a, &ad);
        void *rwork = cx ? st_alloc(c, st_esize(real_of(t)) * (size_t)(5 * p)) : NULL;
        query q0 = {0};
        lapack_int info =
            call_gesvd(c, t, jobu, jobvt, m, n, &a, &s, um.p, ldu, vm.p, ldvt, &q0, -1, rwork);
        const int lwork = info == 0 ? query_len(c, "work[0]", t, &q0) : 0;
        if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info =
            call_gesvd(c, t, jobu, jobvt, m, n, &a, &s, um.p, ldu, vm.p, ldvt, work, lwork, rwork);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        if (!ucols)
            st_mat_unchanged(c, "U (not referenced)", &um);
        else if (!untouched(c, "U", &um, ST_ALL, 0))
            continue;
        if (!vrows)
            st_mat_unchanged(c, "VT (not referenced)", &vm);
        else if (!untouched(c, "VT", &vm, ST_ALL, 0))
            continue;
        if (c->case_failed)
            continue;
        /* Singular values. */
        const dmat a0 = mat_in(c, &a, 0);
        const long double e = eig_unit(t, m > n ? m : n), smax = sigma[0];
        const long double sb = e * smax + u * dm_frob(&a0);
        char pn[16];
        for (int i = 0; i < p; i++) {
            const long double v = st_vec_now(&s, i).re;
            if (!(v >= 0) || (i > 0 && !(v <= st_vec_now(&s, i - 1).re))) {
                st_fail(c,
                        "S[%d] = %.9Lg after S[%d] = %.9Lg: singular values not descending and "
                        "non-negative",
                        i, v, i > 0 ? i - 1 : 0, st_vec_now(&s, i > 0 ? i - 1 : 0).re);
                break;
            }
            if (!expect_at(c, st_lc_make(v, 0), st_lc_make(sigma[i], 0), sb, "S[%d]", i))
                break;
        }
        if (c->case_failed || (!ucols && jobu != 'O' && !vrows && jobvt != 'O'))
            continue;
        /* U (m × p or m × m) and VT (p × n or n × n), wherever they are. */
        const int hu = jobu != 'N', hv = jobvt != 'N';
        const dmat uh = jobu == 'O' ? mat_out(c, &a, m, p) : mat_out(c, &um, m, ucols);
        const dmat vh = jobvt == 'O' ? mat_out(c, &a, p, n) : mat_out(c, &vm, vrows, n);
        if (hu)
            check_orthonormal(c, t, "Uᴴ·U", &uh, 0, e);
        if (hv && !c->case_failed)
            check_orthonormal(c, t, "VT·VTᴴ", &vh, 1, e);
        if (c->case_failed)
            continue;
        st_lc *w = vnew(c, n), *x = vnew(c, m > n ? m : n), *y = vnew(c, m > n ? m : n),
              *z = vnew(c, m > n ? m : n);
        if (hu && hv) {
            /* A·w − U·(Σ·(VT·w)), U and VT cut to p. */
            const probes pr = probes_for(n, 3L * m * n);
            for (int k = 0; k < pr.count; k++) {
                probe_make(c, t, &pr, k, n, w, NULL, pn);
                mv(&a0, 0, w, NULL, z, NULL);
                for (int i = 0; i < p; i++) {
                    st_lc sum = {0, 0};
                    for (int j = 0; j < n; j++)
                        sum = st_add(sum, st_mul(*el(&vh, i, j), w[j]));
                    x[i] = scaled(sum, st_vec_now(&s, i).re);
                }
                for (int i = 0; i < m; i++) {
                    st_lc sum = {0, 0};
                    for (int j = 0; j < p; j++)
                        sum = st_add(sum, st_mul(*el(&uh, i, j), x[j]));
                    y[i] = sum;
                }
                if (!expect_small(c, vdist(y, z, m), e * smax * vnorm(w, n),
                                  "‖(A − U·Σ·VT)·w‖₂, w = %s", pn))
                    break;
            }
            continue;
        }
        /* One side: W = Aᴴ·U or A·V (p columns), WᴴW against Σ². */
        const probes pr = probes_for(p, 4L * m * n);
        for (int k = 0; k < pr.count; k++) {
            probe_make(c, t, &pr, k, p, w, NULL, pn);
            const long double wn = vnorm(w, p);
            if (hu) {
                for (int i = 0; i < m; i++) { /* x = U_p·w */
                    st_lc sum = {0, 0};
                    for (int j = 0; j < p; j++)
                        sum = st_add(sum, st_mul(*el(&uh, i, j), w[j]));
                    x[i] = sum;
                }
                mv(&a0, 2, x, NULL, y, NULL);
                mv(&a0, 0, y, NULL, z, NULL);
                for (int j = 0; j < p; j++) { /* x = U_pᴴ·z */
                    st_lc sum = {0, 0};
                    for (int i = 0; i < m; i++)
                        sum = st_add(sum, st_mul(st_conj(*el(&uh, i, j)), z[i]));
                    x[j] = sum;
                }
            } else {
                for (int j = 0; j < n; j++) { /* x = VT_pᴴ·w */
                    st_lc sum = {0, 0};
                    for (int i = 0; i < p; i++)
                        sum = st_add(sum, st_mul(st_conj(*el(&vh, i, j)), w[i]));
                    x[j] = sum;
                }
                mv(&a0, 0, x, NULL, y, NULL);
                mv(&a0, 2, y, NULL, z, NULL);
                for (int i = 0; i < p; i++) { /* x = VT_p·z */
                    st_lc sum = {0, 0};
                    for (int j = 0; j < n; j++)
                        sum = st_add(sum, st_mul(*el(&vh, i, j), z[j]));
                    x[i] = sum;
                }
            }
            for (int i = 0; i < p; i++) {
                const long double sv = st_vec_now(&s, i).re;
                y[i] = scaled(w[i], sv * sv);
            }
            if (!expect_small(c, vdist(x, y, p), 3 * e * smax * smax * wn,
                              "‖(WᴴW − Σ²)·w‖₂, W = %s, w = %s", hu ? "Aᴴ·U" : "A·V", pn))
                break;
        }
    }
}

/* ---- geev ------------------------------------------------------------------------------- */

static lapack_int call_geev(const st_check *c, st_type t, char jobvr, int n, st_mat *a, st_vec *w,
                            st_vec *wi, void *vl, void *vr, int ldvr, void *work, int lwork,
                            void *rwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgeev_work))c->fn)(COL, 'N', jobvr, n, (float *)a->p, a->ld,
                                                        (float *)w->p, (float *)wi->p, vl, 1, vr,
                                                        ldvr, work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgeev_work))c->fn)(COL, 'N', jobvr, n, (double *)a->p, a->ld,
                                                        (double *)w->p, (double *)wi->p, vl, 1, vr,
                                                        ldvr, work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgeev_work))c->fn)(
            COL, 'N', jobvr, n, (lapack_complex_float *)a->p, a->ld, (lapack_complex_float *)w->p,
            vl, 1, vr, ldvr, work, lwork, rwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgeev_work))c->fn)(
            COL, 'N', jobvr, n, (lapack_complex_double *)a->p, a->ld, (lapack_complex_double *)w->p,
            vl, 1, vr, ldvr, work, lwork, rwork);
    }
    return -1000;
}

/* The last size with vectors only. */
static const int geev_sizes[] = {1, 2, 3, 7, 16, 40};

/* geev (jobvl 'N', the only form the kernels call) on A = U·T·Uᴴ, U a
 * random unitary, T upper (quasi-)triangular with eigenvalues 1, 2, …, n
 * (real types: every third k with k + 1 < n a pair k+1 ± 0.75i as a 2x2
 * block) and strictly upper entries below 0.1 in magnitude, so every
 * eigenvalue is well separated (spacing ≥ 1) and well conditioned. Each
 * computed eigenvalue must lie within 16·p(n)·u·‖A‖_F of a distinct
 * exact one; each right eigenvector v (real types: a pair's VR(:,j) ±
 * i·VR(:,j+1)) must have ‖v‖₂ = 1 within p(n)·u and ‖A·v − λ·v‖₂ ≤
 * 16·p(n)·u·‖A‖_F (the backward error of the Hessenberg QR). */
static void check_geev(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(geev_sizes) / sizeof(geev_sizes[0]));
    int cas = 0;
    for (int s = 0; s < ns; s++)
        for (int v = s == ns - 1; v <= 1; v++, cas++) {
            const int n = geev_sizes[s], lda = n + (cas % 2), ldvr = v ? n + (cas % 3 == 1) : 1;
            const char jobvr = v ? 'V' : 'N';
            st_case(c, "jobvr=%c n=%d lda=%d ldvr=%d", jobvr, n, lda, ldvr);
            st_mat a, vm;
            st_vec w, wi;
            if (mat_make(c, 0, &a, t, n, n, lda, ST_ALL, 1) || out_vec(c, 1, &w, t, n) ||
                out_vec(c, 2, &wi, real_of(t), n) ||
                mat_make(c, 3, &vm, t, v ? n : 1, v ? n : 1, ldvr, ST_ALL, 1))
                continue;
            st_mat_poison_all(&vm);
            /* T, its eigenvalues lam, then A = U·T·Uᴴ. */
            st_lc *lam = vnew(c, n);
            dmat ad = dm_new(c, n, n);
            ad.cx = cx;
            for (int k = 0; k < n; k++) {
                const int pair = !cx && k % 3 == 0 && k + 1 < n;
                *el(&ad, k, k) = st_lc_make(k + 1, 0);
                lam[k] = st_lc_make(k + 1, 0);
                if (pair) {
                    *el(&ad, k + 1, k + 1) = st_lc_make(k + 1, 0);
                    *el(&ad, k, k + 1) = st_lc_make(0.75L, 0);
                    *el(&ad, k + 1, k) = st_lc_make(-0.75L, 0);
                    lam[k] = st_lc_make(k + 1, 0.75L);
                    lam[k + 1] = st_lc_make(k + 1, -0.75L);
                }
                for (int j = k + 1 + pair; j < n; j++)
                    *el(&ad, k, j) = st_lc_make(0.1L * (2 * st_rand(c) - 1),
                                                cx ? 0.1L * (2 * st_rand(c) - 1) : 0);
                k += pair;
            }
            const int r = unitary_count(n);
            const refl *h = random_unitary(c, t, n, r);
            for (int i = r - 1; i >= 0; i--) {
                refl_left(&h[i], 0, &ad);
                refl_right(c, &h[i], 1, &ad);
            }
            mat_put(&a, &ad);
            void *rwork = cx ? st_alloc(c, st_esize(real_of(t)) * (size_t)(2 * n)) : NULL;
            query q0 = {0}, dummy = {0};
            void *vr = v ? (void *)vm.p : (void *)&dummy;
            lapack_int info =
                call_geev(c, t, jobvr, n, &a, &w, &wi, &dummy, vr, ldvr, &q0, -1, rwork);
            const int lwork = info == 0 ? query_len(c, "work[0]", t, &q0) : 0;
            if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
                continue;
            void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
            info = call_geev(c, t, jobvr, n, &a, &w, &wi, &dummy, vr, ldvr, work, lwork, rwork);
            if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0) ||
                (v && !untouched(c, "VR", &vm, ST_ALL, 0)))
                continue;
            const dmat a0 = mat_in(c, &a, 0);
            const long double e = eig_unit(t, n), bound = 16 * e * dm_frob(&a0);
            /* The computed eigenvalues: matched to distinct exact ones. */
            st_lc *got = vnew(c, n);
            int *used = st_alloc(c, sizeof(int) * (size_t)n);
            memset(used, 0, sizeof(int) * (size_t)n);
            int ok = 1;
            for (int j = 0; j < n && ok; j++) {
                got[j] = cx ? st_vec_now(&w, j)
                            : st_lc_make(st_vec_now(&w, j).re, st_vec_now(&wi, j).re);
                int best = 0;
                for (int k = 1; k < n; k++)
                    if (mag(st_sub(got[j], lam[k])) < mag(st_sub(got[j], lam[best])))
                        best = k;
                if (used[best]) {
                    st_fail(c, "W[%d] = %.9Lg%+.9Lgi: its nearest eigenvalue is taken twice", j,
                            got[j].re, got[j].im);
                    ok = 0;
                    break;
                }
                used[best] = 1;
                ok = expect_at(c, got[j], lam[best], bound, "W[%d]", j);
            }
            if (!ok || !v)
                continue;
            /* The right eigenvectors. */
            const dmat vo = mat_out(c, &vm, n, n);
            st_lc *x = vnew(c, n), *y = vnew(c, n);
            for (int j = 0; j < n && ok; j++) {
                const int pair = !cx && got[j].im != 0;
                const int j0 = pair && got[j].im < 0 ? j - 1 : j; /* the pair's first column */
                if (pair && (j0 < 0 || j0 + 1 >= n)) {
                    st_fail(c, "W[%d] is complex but has no partner column in VR", j);
                    break;
                }
                /* v = VR(:,j0) ± i·VR(:,j0+1) for a pair (+ for its first). */
                for (int i = 0; i < n; i++) {
                    x[i] = *el(&vo, i, j0);
                    if (pair)
                        x[i].im = j0 == j ? el(&vo, i, j0 + 1)->re : -el(&vo, i, j0 + 1)->re;
                }
                if (!expect_small(c, fabsl(vnorm(x, n) - 1), 4 * e, "| ‖VR[:,%d]‖₂ − 1 |", j))
                    break;
                mv(&a0, 0, x, NULL, y, NULL);
                for (int i = 0; i < n; i++)
                    y[i] = st_sub(y[i], st_mul(got[j], x[i]));
                ok = expect_small(c, vnorm(y, n), bound, "‖A·v − λ·v‖₂ for W[%d]", j);
            }
        }
}

/* ---- sytrd, hetrd, stedc (the tiled syevd's parts) --------------------------------------- */

static lapack_int call_sytrd(const st_check *c, st_type t, int n, st_mat *a, st_vec *d, st_vec *e,
                             st_vec *tau, void *work, int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_ssytrd_work))c->fn)(COL, 'L', n, (float *)a->p, a->ld,
                                                         (float *)d->p, (float *)e->p,
                                                         (float *)tau->p, work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dsytrd_work))c->fn)(COL, 'L', n, (double *)a->p, a->ld,
                                                         (double *)d->p, (double *)e->p,
                                                         (double *)tau->p, work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_chetrd_work))c->fn)(
            COL, 'L', n, (lapack_complex_float *)a->p, a->ld, (float *)d->p, (float *)e->p,
            (lapack_complex_float *)tau->p, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zhetrd_work))c->fn)(
            COL, 'L', n, (lapack_complex_double *)a->p, a->ld, (double *)d->p, (double *)e->p,
            (lapack_complex_double *)tau->p, work, lwork);
    }
    return -1000;
}

/* y = T·x, T the real symmetric tridiagonal matrix of d (n) and e (n − 1). */
static void tri_mv(const long double *d, const long double *e, int n, const st_lc *x, st_lc *y) {
    for (int i = 0; i < n; i++) {
        y[i] = scaled(x[i], d[i]);
        if (i > 0)
            y[i] = st_add(y[i], scaled(x[i - 1], e[i - 1]));
        if (i + 1 < n)
            y[i] = st_add(y[i], scaled(x[i + 1], e[i]));
    }
}

/* Up to 140: past sytrd's crossover to its blocked code (32) and its
 * block size. */
static const int sytrd_sizes[] = {1, 2, 3, 8, 33, 70, 140};

static void check_sytrd(st_check *c, st_type t) {
    const int cx = st_is_cx(t);
    const int ns = (int)(sizeof(sytrd_sizes) / sizeof(sytrd_sizes[0]));
    for (int s = 0; s < ns; s++) {
        const int n = sytrd_sizes[s], lda = n + (s % 2 ? 3 : 0), m1 = n > 1 ? n - 1 : 1;
        st_case(c, "uplo=L n=%d lda=%d", n, lda);
        st_mat a;
        st_vec d, e, tau;
        /* e and tau with TRN_EIG_TILE_VEC_SLACK elements past n, as the
         * tiled syevd gives them: sytd2 uses tau(i .. n-1) as symv's y, and
         * OpenBLAS's symv kernels of some kernel sets (Prescott) touch
         * elements past y's end. */
        if (mat_make(c, 0, &a, t, n, n, lda, ST_LOWER, 1) || out_vec(c, 1, &d, real_of(t), n) ||
            out_vec(c, 2, &e, real_of(t), n + TRN_EIG_TILE_VEC_SLACK) ||
            out_vec(c, 3, &tau, t, n + TRN_EIG_TILE_VEC_SLACK))
            continue;
        const dmat ad = herm_from_eig(c, t, n, eigenvalues(c, n));
        mat_put(&a, &ad);
        query q = {0};
        lapack_int info = call_sytrd(c, t, n, &a, &d, &e, &tau, &q, -1);
        if (!st_expect_int(c, "info of the workspace query", info, 0))
            continue;
        const int lwork = query_len(c, "work[0]", t, &q);
        if (lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info = call_sytrd(c, t, n, &a, &d, &e, &tau, work, lwork);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_LOWER, 0))
            continue;
        const dmat a0 = mat_in(c, &a, cx ? 2 : 1);
        const long double an = dm_frob(&a0), p = eig_unit(t, n);
        /* The reflectors H_i (rows i+1 …), v = (1, A(i+2 … n−1, i)). */
        refl *h = st_alloc(c, sizeof(refl) * (size_t)m1);
        for (int i = 0; i + 1 < n; i++) {
            h[i] = (refl){i + 1, n - i - 1, cx, st_vec_now(&tau, i), vnew(c, n - i - 1)};
            h[i].v[0] = st_lc_make(1, 0);
            for (int r = 1; r < n - i - 1; r++)
                h[i].v[r] = now_at(&a, i + 1 + r, i);
        }
        long double *dd = rnew(c, n), *ee = rnew(c, m1);
        for (int i = 0; i < n; i++)
            dd[i] = st_vec_now(&d, i).re;
        for (int i = 0; i + 1 < n; i++)
            ee[i] = st_vec_now(&e, i).re;
        const probes pr = probes_for(n, 4L * n * n);
        st_lc *x = vnew(c, n), *y = vnew(c, n), *z = vnew(c, n);
        char pn[16];
        for (int k = 0; k < pr.count; k++) {
            probe_make(c, t, &pr, k, n, x, NULL, pn);
            const long double xn = vnorm(x, n);
            memcpy(y, x, sizeof(st_lc) * (size_t)n);
            q_apply(h, n - 1, 0, y); /* Q·w */
            mv(&a0, 0, y, NULL, z, NULL);
            q_apply(h, n - 1, 1, z); /* Qᴴ·A·Q·w */
            tri_mv(dd, ee, n, x, y);
            if (!expect_small(c, vdist(z, y, n), p * an * xn, "‖(Qᴴ·A·Q − T)·w‖₂, w = %s", pn))
                break;
            memcpy(y, x, sizeof(st_lc) * (size_t)n);
            q_apply(h, n - 1, 0, y);
            q_apply(h, n - 1, 1, y);
            if (!expect_small(c, vdist(y, x, n), p * xn, "‖(Qᴴ·Q − I)·w‖₂, w = %s", pn))
                break;
        }
    }
}

static lapack_int call_stedc(const st_check *c, st_type t, int n, st_vec *d, st_vec *e, st_mat *z,
                             void *work, int lwork, lapack_int *iwork, int liwork) {
    if (t == ST_S)
        return ((__typeof__(&LAPACKE_sstedc_work))c->fn)(COL, 'I', n, (float *)d->p, (float *)e->p,
                                                         (float *)z->p, z->ld, work, lwork, iwork,
                                                         liwork);
    return ((__typeof__(&LAPACKE_dstedc_work))c->fn)(COL, 'I', n, (double *)d->p, (double *)e->p,
                                                     (double *)z->p, z->ld, work, lwork, iwork,
                                                     liwork);
}

/* Past stedc's SMLSIZ (25), where it divides and conquers. */
static const int stedc_sizes[] = {1, 2, 3, 8, 26, 33, 64, 100};

static void check_stedc(st_check *c, st_type t) {
    const int ns = (int)(sizeof(stedc_sizes) / sizeof(stedc_sizes[0]));
    for (int q = 0; q < ns + 2; q++) {
        const int special = q >= ns, n = special ? (q == ns ? 40 : 90) : stedc_sizes[q];
        const int ldz = n + (q % 2 ? 2 : 0), m1 = n > 1 ? n - 1 : 1;
        st_case(c, "compz=I n=%d ldz=%d%s", n, ldz, special ? " (repeated d, a zero e)" : "");
        st_vec d, e;
        st_mat z;
        if (st_vec_make(c, 0, &d, t, n, 1) || st_vec_make(c, 1, &e, t, m1, 1) ||
            mat_make(c, 2, &z, t, n, n, ldz, ST_ALL, 0))
            continue;
        st_mat_poison_all(&z);
        if (special) { /* d in pairs, e[n/2] = 0: the problem splits and deflates */
            for (int i = 1; i < n; i += 2)
                st_vec_set(&d, i, st_vec_at(&d, i - 1));
            st_vec_set(&e, n / 2, st_lc_make(0, 0));
        }
        long double *dd = rnew(c, n), *ee = rnew(c, m1), tn = 0, tr = 0;
        for (int i = 0; i < n; i++) {
            dd[i] = st_vec_at(&d, i).re;
            tn += dd[i] * dd[i];
            tr += dd[i];
        }
        for (int i = 0; i + 1 < n; i++) {
            ee[i] = st_vec_at(&e, i).re;
            tn += 2 * ee[i] * ee[i];
        }
        tn = sqrtl(tn);
        query qw = {0};
        lapack_int qi = 0;
        lapack_int info = call_stedc(c, t, n, &d, &e, &z, &qw, -1, &qi, -1);
        if (!st_expect_int(c, "info of the workspace query", info, 0))
            continue;
        const int lwork = query_len(c, "work[0]", t, &qw);
        if (lwork < 0)
            continue;
        if (qi < 1 || qi > LWORK_MAX) {
            st_fail(c, "the workspace query returned iwork[0] = %d", (int)qi);
            continue;
        }
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        lapack_int *iwork = st_alloc(c, sizeof(lapack_int) * (size_t)qi);
        info = call_stedc(c, t, n, &d, &e, &z, work, lwork, iwork, (int)qi);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "Z", &z, ST_ALL, 0))
            continue;
        const long double p = eig_unit(t, n);
        long double sum = 0;
        for (int i = 0; i < n; i++) {
            const long double l = st_vec_now(&d, i).re;
            if (i > 0 && !(st_vec_now(&d, i - 1).re <= l)) {
                st_fail(c, "D[%d] > D[%d]: eigenvalues not ascending", i - 1, i);
                break;
            }
            sum += l;
        }
        if (c->case_failed || !expect_small(c, fabsl(sum - tr), n * p * tn, "|Σλ − trace T|"))
            continue;
        const dmat zh = mat_out(c, &z, n, n);
        const probes pr = probes_for(n, 4L * n * n);
        st_lc *x = vnew(c, n), *y = vnew(c, n), *u = vnew(c, n), *lw = vnew(c, n);
        char pn[16];
        for (int k = 0; k < pr.count; k++) {
            probe_make(c, t, &pr, k, n, x, NULL, pn);
            const long double xn = vnorm(x, n);
            mv(&zh, 0, x, NULL, y, NULL);
            tri_mv(dd, ee, n, y, u);
            for (int i = 0; i < n; i++)
                lw[i] = scaled(x[i], st_vec_now(&d, i).re);
            mv(&zh, 0, lw, NULL, y, NULL);
            if (!expect_small(c, vdist(u, y, n), p * tn * xn, "‖(T·Z − Z·Λ)·w‖₂, w = %s", pn))
                break;
            mv(&zh, 0, x, NULL, y, NULL);
            mv(&zh, 2, y, NULL, u, NULL);
            if (!expect_small(c, vdist(u, x, n), p * xn, "‖(ZᵀZ − I)·w‖₂, w = %s", pn))
                break;
        }
    }
}

/* ---- gebrd, orgbr / ungbr, bdsqr (the tiled gesvd's parts) ------------------------------- */

static lapack_int call_gebrd(const st_check *c, st_type t, int m, int n, st_mat *a, st_vec *d,
                             st_vec *e, st_vec *tq, st_vec *tp, void *work, int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sgebrd_work))c->fn)(
            COL, m, n, (float *)a->p, a->ld, (float *)d->p, (float *)e->p, (float *)tq->p,
            (float *)tp->p, work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dgebrd_work))c->fn)(
            COL, m, n, (double *)a->p, a->ld, (double *)d->p, (double *)e->p, (double *)tq->p,
            (double *)tp->p, work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cgebrd_work))c->fn)(
            COL, m, n, (lapack_complex_float *)a->p, a->ld, (float *)d->p, (float *)e->p,
            (lapack_complex_float *)tq->p, (lapack_complex_float *)tp->p, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zgebrd_work))c->fn)(
            COL, m, n, (lapack_complex_double *)a->p, a->ld, (double *)d->p, (double *)e->p,
            (lapack_complex_double *)tq->p, (lapack_complex_double *)tp->p, work, lwork);
    }
    return -1000;
}

/* gebrd's P = G_0·…·G_{n−2}: G_i acts on entries i+1 …, u = (1, conj of row
 * i of a from column i+2: gebrd reduces the row's conjugate and stores the
 * conjugate of its reflector). */
static refl *brd_p(st_check *c, st_type t, const st_mat *a, const st_vec *taup, int n) {
    const int k = n > 1 ? n - 1 : 0;
    refl *g = st_alloc(c, sizeof(refl) * (size_t)(k > 0 ? k : 1));
    for (int i = 0; i < k; i++) {
        g[i] = (refl){i + 1, n - i - 1, st_is_cx(t), st_vec_now(taup, i), vnew(c, n - i - 1)};
        g[i].v[0] = st_lc_make(1, 0);
        for (int r = 1; r < n - i - 1; r++)
            g[i].v[r] = st_conj(now_at(a, i, i + 1 + r));
    }
    return g;
}

/* (m, n), m >= n (the tiled gesvd's shape); 140: past gebrd's crossover to
 * its blocked code (128). */
static const int gebrd_shapes[][2] = {{1, 1},   {3, 2},   {5, 5},    {9, 4},
                                      {33, 31}, {70, 40}, {150, 140}};

static void check_gebrd(st_check *c, st_type t) {
    const int ns = (int)(sizeof(gebrd_shapes) / sizeof(gebrd_shapes[0]));
    for (int s = 0; s < ns; s++) {
        const int m = gebrd_shapes[s][0], n = gebrd_shapes[s][1], lda = m + (s % 2 ? 3 : 0);
        st_case(c, "m=%d n=%d lda=%d", m, n, lda);
        st_mat a;
        st_vec d, e, tq, tp;
        if (mat_make(c, 0, &a, t, m, n, lda, ST_ALL, 1) || out_vec(c, 1, &d, real_of(t), n) ||
            out_vec(c, 2, &e, real_of(t), n > 1 ? n - 1 : 1) || out_vec(c, 3, &tq, t, n) ||
            out_vec(c, 4, &tp, t, n))
            continue;
        query q = {0};
        lapack_int info = call_gebrd(c, t, m, n, &a, &d, &e, &tq, &tp, &q, -1);
        const int lwork = info == 0 ? query_len(c, "work[0]", t, &q) : 0;
        if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info = call_gebrd(c, t, m, n, &a, &d, &e, &tq, &tp, work, lwork);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        const dmat a0 = mat_in(c, &a, 0);
        const long double an = dm_frob(&a0), p = eig_unit(t, m);
        refl *hq = st_alloc(c, sizeof(refl) * (size_t)n);
        for (int i = 0; i < n; i++) { /* Q's reflectors, below the diagonal */
            hq[i] = (refl){i, m - i, st_is_cx(t), st_vec_now(&tq, i), vnew(c, m - i)};
            hq[i].v[0] = st_lc_make(1, 0);
            for (int r = 1; r < m - i; r++)
                hq[i].v[r] = now_at(&a, i + r, i);
        }
        const refl *gp = brd_p(c, t, &a, &tp, n);
        const probes pr = probes_for(n, 4L * m * n);
        st_lc *x = vnew(c, n), *y = vnew(c, n), *z = vnew(c, m), *b = vnew(c, m);
        char pn[16];
        for (int k = 0; k < pr.count && !c->case_failed; k++) {
            probe_make(c, t, &pr, k, n, x, NULL, pn);
            const long double xn = vnorm(x, n);
            memcpy(y, x, sizeof(st_lc) * (size_t)n);
            q_apply(gp, n - 1, 0, y); /* P·w */
            mv(&a0, 0, y, NULL, z, NULL);
            for (int i = 0; i < m; i++) { /* Q·B·w, B upper bidiagonal */
                b[i] = st_lc_make(0, 0);
                if (i < n)
                    b[i] = scaled(x[i], st_vec_now(&d, i).re);
                if (i + 1 < n)
                    b[i] = st_add(b[i], scaled(x[i + 1], st_vec_now(&e, i).re));
            }
            q_apply(hq, n, 0, b);
            if (!expect_small(c, vdist(z, b, m), p * an * xn, "‖(A·P − Q·B)·w‖₂, w = %s", pn))
                break;
            memcpy(y, x, sizeof(st_lc) * (size_t)n);
            q_apply(gp, n - 1, 0, y);
            q_apply(gp, n - 1, 1, y);
            if (!expect_small(c, vdist(y, x, n), p * xn, "‖(Pᴴ·P − I)·w‖₂, w = %s", pn))
                break;
            memset(z, 0, sizeof(st_lc) * (size_t)m); /* w padded with zeros to m */
            memcpy(z, x, sizeof(st_lc) * (size_t)n);
            memcpy(b, z, sizeof(st_lc) * (size_t)m);
            q_apply(hq, n, 0, z);
            q_apply(hq, n, 1, z);
            if (!expect_small(c, vdist(z, b, m), p * xn, "‖(Qᴴ·Q − I)·w‖₂, w = %s", pn))
                break;
        }
    }
}

static lapack_int call_orgbr(const st_check *c, st_type t, char vect, int m, int n, int k,
                             st_mat *a, const void *tau, void *work, int lwork) {
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sorgbr_work))c->fn)(COL, vect, m, n, k, (float *)a->p, a->ld,
                                                         tau, work, lwork);
    case ST_D:
        return ((__typeof__(&LAPACKE_dorgbr_work))c->fn)(COL, vect, m, n, k, (double *)a->p, a->ld,
                                                         tau, work, lwork);
    case ST_C:
        return ((__typeof__(&LAPACKE_cungbr_work))c->fn)(
            COL, vect, m, n, k, (lapack_complex_float *)a->p, a->ld, tau, work, lwork);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zungbr_work))c->fn)(
            COL, vect, m, n, k, (lapack_complex_double *)a->p, a->ld, tau, work, lwork);
    }
    return -1000;
}

/* orgbr 'Q' with m >= k forms Q from reflectors stored as geqrf's are. */
static lapack_int call_orgbr_q(const st_check *c, st_type t, int m, int n, int k, st_mat *a,
                               const void *tau, void *work, int lwork) {
    return call_orgbr(c, t, 'Q', m, n, k, a, tau, work, lwork);
}

/* (n, k), k >= n: P^H of order n from n - 1 reflectors stored in rows, as
 * gebrd leaves them (the tiled gesvd's case). */
static const int orgbr_p_shapes[][2] = {{1, 1},   {2, 2},   {5, 5},    {17, 17},
                                        {40, 41}, {70, 70}, {140, 140}};

static void check_orgbr_p(st_check *c, st_type t) {
    const int ns = (int)(sizeof(orgbr_p_shapes) / sizeof(orgbr_p_shapes[0]));
    const long double u = st_unit(t), fa = st_factor(t);
    for (int s = 0; s < ns; s++) {
        const int n = orgbr_p_shapes[s][0], k = orgbr_p_shapes[s][1], lda = n + (s % 2 ? 0 : 3);
        const int r = n > 1 ? n - 1 : 0;
        st_case(c, "vect=P m=n=%d k=%d lda=%d", n, k, lda);
        st_mat a;
        st_vec tau;
        if (mat_make(c, 0, &a, t, n, n, lda, ST_ALL, 1) || st_vec_make(c, 1, &tau, t, k, 1))
            continue;
        refl *g = st_alloc(c, sizeof(refl) * (size_t)(r > 0 ? r : 1));
        for (int i = 0; i < r; i++) { /* G_i on entries i+1 …; row i holds conj(u) */
            g[i] = refl_make(c, t, i + 1, n - i - 1, 1);
            for (int j = 1; j < n - i - 1; j++)
                set_at(&a, i, i + 1 + j, st_conj(g[i].v[j]));
            st_vec_set(&tau, i, g[i].tau);
        }
        query q = {0};
        lapack_int info = call_orgbr(c, t, 'P', n, n, k, &a, tau.p, &q, -1);
        const int lwork = info == 0 ? query_len(c, "work[0]", t, &q) : 0;
        if (!st_expect_int(c, "info of the workspace query", info, 0) || lwork < 0)
            continue;
        void *work = st_alloc(c, st_esize(t) * (size_t)lwork);
        info = call_orgbr(c, t, 'P', n, n, k, &a, tau.p, work, lwork);
        st_vec_unchanged(c, "tau", &tau);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "A", &a, ST_ALL, 0))
            continue;
        const long double e = fa * n * (n + 4) * u;
        const dmat xh = mat_out(c, &a, n, n);
        const probes p = probes_for(n, 3L * n * n);
        st_lc *w = vnew(c, n), *y = vnew(c, n);
        long double *wm = rnew(c, n);
        char pn[16];
        for (int q2 = 0; q2 < p.count && !c->case_failed; q2++) {
            probe_make(c, t, &p, q2, n, w, wm, pn);
            long double b = 0;
            for (int j = 0; j < n; j++)
                b += wm[j];
            mv(&xh, 0, w, NULL, y, NULL);
            q_apply(g, r, 1, w); /* Pᴴ·w, P = G_0·…·G_{n−2} */
            for (int i = 0; i < n; i++)
                if (!expect_at(c, y[i], w[i], e * b, "Pᴴ·w, w = %s, row %d", pn, i))
                    break;
        }
    }
}

static void check_orgbr(st_check *c, st_type t) {
    check_q_columns(c, t, "vect=Q ", call_orgbr_q);
    check_orgbr_p(c, t);
}

static lapack_int call_bdsqr(const st_check *c, st_type t, int n, int ncvt, int nru, st_vec *d,
                             st_vec *e, void *vt, int ldvt, void *u, int ldu, void *work) {
    query cq; /* ncc = 0: C is not referenced */
    void *cp = &cq;
    switch (t) {
    case ST_S:
        return ((__typeof__(&LAPACKE_sbdsqr_work))c->fn)(
            COL, 'U', n, ncvt, nru, 0, (float *)d->p, (float *)e->p, vt, ldvt, u, ldu, cp, 1, work);
    case ST_D:
        return ((__typeof__(&LAPACKE_dbdsqr_work))c->fn)(COL, 'U', n, ncvt, nru, 0, (double *)d->p,
                                                         (double *)e->p, vt, ldvt, u, ldu, cp, 1,
                                                         work);
    case ST_C:
        return ((__typeof__(&LAPACKE_cbdsqr_work))c->fn)(
            COL, 'U', n, ncvt, nru, 0, (float *)d->p, (float *)e->p, vt, ldvt, u, ldu, cp, 1, work);
    case ST_Z:
        return ((__typeof__(&LAPACKE_zbdsqr_work))c->fn)(COL, 'U', n, ncvt, nru, 0, (double *)d->p,
                                                         (double *)e->p, vt, ldvt, u, ldu, cp, 1,
                                                         work);
    }
    return -1000;
}

/* The identity into every entry of m. */
static void set_identity(st_mat *m) {
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++)
            set_at(m, i, j, st_lc_make(i == j, 0));
}

/* d and e (slots ds, ds + 1) holding the bidiagonal dd, ee. */
static int bidiag_make(st_check *c, st_type t, int ds, int n, const long double *dd,
                       const long double *ee, st_vec *d, st_vec *e) {
    if (st_vec_make(c, ds, d, real_of(t), n, 1) ||
        st_vec_make(c, ds + 1, e, real_of(t), n > 1 ? n - 1 : 1, 1))
        return -1;
    for (int i = 0; i < n; i++)
        st_vec_set(d, i, st_lc_make(dd[i], 0));
    for (int i = 0; i + 1 < n; i++)
        st_vec_set(e, i, st_lc_make(ee[i], 0));
    return 0;
}

/* ‖(X − Y)·w‖₂ over probes w, X one side's result (rows x cols) and Y = L·R
 * its expected value, within bound·‖w‖₂. */
static void check_product(st_check *c, st_type t, const char *name, const dmat *x, const dmat *l,
                          const dmat *r, long double bound) {
    const probes p = probes_for(x->cols, 2L * x->rows * x->cols + (long)r->rows * r->cols);
    st_lc *w = vnew(c, x->cols), *y = vnew(c, r->rows), *z = vnew(c, x->rows),
          *g = vnew(c, x->rows);
    char pn[16];
    for (int q = 0; q < p.count; q++) {
        probe_make(c, t, &p, q, x->cols, w, NULL, pn);
        mv(r, 0, w, NULL, y, NULL);
        mv(l, 0, y, NULL, z, NULL);
        mv(x, 0, w, NULL, g, NULL);
        if (!expect_small(c, vdist(g, z, x->rows), bound * vnorm(w, x->cols), "‖(%s)·w‖₂, w = %s",
                          name, pn))
            return;
    }
}

/* Past bdsqr's 2 x 2 blocks and its sorting; the one-sided calls are the
 * tiled gesvd's blocks: the same rotations as the two-sided call. */
static const int bdsqr_sizes[] = {1, 2, 3, 8, 33, 70};

static void check_bdsqr(st_check *c, st_type t) {
    const int ns = (int)(sizeof(bdsqr_sizes) / sizeof(bdsqr_sizes[0]));
    for (int s = 0; s < ns; s++) {
        const int n = bdsqr_sizes[s], ldv = n + 1, ldu = n + 2, k = n / 2 + 1, r = 5;
        /* One case (its scratch holds the two-sided result the one-sided
         * calls are compared with). */
        st_case(c, "uplo=U n=%d ldvt=%d ldu=%d: ncvt=nru=n, then ncvt=%d, then nru=%d", n, ldv, ldu,
                k, r);
        st_vec d, e;
        st_mat vt, u;
        long double *dd = rnew(c, n), *ee = rnew(c, n), bn = 0;
        for (int i = 0; i < n; i++) {
            dd[i] = st_rand_value(c, real_of(t)).re;
            ee[i] = i + 1 < n ? st_rand_value(c, real_of(t)).re : 0;
            bn += dd[i] * dd[i] + ee[i] * ee[i];
        }
        bn = sqrtl(bn);
        if (bidiag_make(c, t, 0, n, dd, ee, &d, &e) ||
            mat_make(c, 2, &vt, t, n, n, ldv, ST_ALL, 1) ||
            mat_make(c, 3, &u, t, n, n, ldu, ST_ALL, 1))
            continue;
        set_identity(&vt);
        set_identity(&u);
        void *work = st_alloc(c, sizeof(double) * 4 * (size_t)(n + 1));
        lapack_int info = call_bdsqr(c, t, n, n, n, &d, &e, vt.p, ldv, u.p, ldu, work);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "VT", &vt, ST_ALL, 0) ||
            !untouched(c, "U", &u, ST_ALL, 0))
            continue;
        const long double p = eig_unit(t, n);
        long double *sv = rnew(c, n);
        for (int i = 0; i < n && !c->case_failed; i++) {
            sv[i] = st_vec_now(&d, i).re;
            if (!(sv[i] >= 0) || (i > 0 && !(sv[i - 1] >= sv[i])))
                st_fail(c, "D[%d] = %Lg: singular values not non-negative and descending", i,
                        sv[i]);
        }
        const dmat vth = mat_out(c, &vt, n, n), uh = mat_out(c, &u, n, n);
        dmat us = mat_out(c, &u, n, n); /* U·S */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                *el(&us, i, j) = scaled(*el(&us, i, j), sv[j]);
        dmat b = dm_new(c, n, n);
        for (int i = 0; i < n; i++) {
            *el(&b, i, i) = st_lc_make(dd[i], 0);
            if (i + 1 < n)
                *el(&b, i, i + 1) = st_lc_make(ee[i], 0);
        }
        if (c->case_failed)
            continue;
        check_product(c, t, "B − U·S·VT", &b, &us, &vth, p * bn);
        check_orthonormal(c, t, "Uᴴ·U", &uh, 0, p);
        check_orthonormal(c, t, "VT·VTᴴ", &vth, 1, p);
        if (c->case_failed)
            continue;
        /* VT's rotations alone, on k random columns C: VT·C. */
        st_vec d2, e2;
        st_mat cm;
        if (bidiag_make(c, t, 4, n, dd, ee, &d2, &e2) ||
            mat_make(c, 6, &cm, t, n, k, ldv, ST_ALL, 1))
            continue;
        const dmat c0 = mat_in(c, &cm, 0);
        st_lc none[2];
        info = call_bdsqr(c, t, n, k, 0, &d2, &e2, cm.p, ldv, none, 1, work);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "VT", &cm, ST_ALL, 0))
            continue;
        dmat got = mat_out(c, &cm, n, k);
        check_product(c, t, "VT(ncvt only) − VT·C", &got, &vth, &c0, 2 * p * dm_frob(&c0));
        /* U's rotations alone, on r random rows C: C·U. */
        if (c->case_failed || bidiag_make(c, t, 4, n, dd, ee, &d2, &e2) ||
            mat_make(c, 6, &cm, t, r, n, r + 1, ST_ALL, 1))
            continue;
        const dmat c1 = mat_in(c, &cm, 0);
        info = call_bdsqr(c, t, n, 0, r, &d2, &e2, none, 1, cm.p, r + 1, work);
        if (!st_expect_int(c, "info", info, 0) || !untouched(c, "U", &cm, ST_ALL, 0))
            continue;
        got = mat_out(c, &cm, r, n);
        check_product(c, t, "U(nru only) − C·U", &got, &c1, &uh, 2 * p * dm_frob(&c1));
    }
}

void st_check_lapack(st_check *c) {
    const st_entry *e = st_find_entry(table, sizeof(table) / sizeof(table[0]), c->id);
    if (!e)
        return;
    const st_type t = e->t;
    switch ((kind)e->kind) {
    case K_POTRF: check_potrf(c, t); break;
    case K_POTRS: check_potrs(c, t); break;
    case K_POTRI: check_potri(c, t); break;
    case K_GETRF: check_getrf(c, t); break;
    case K_GETRS: check_getrs(c, t); break;
    case K_GEQRF: check_geqrf(c, t); break;
    case K_ORGQR: check_orgqr(c, t); break;
    case K_ORMQR: check_ormqr(c, t); break;
    case K_SYEVD: check_syevd(c, t); break;
    case K_SYGVD: check_sygvd(c, t); break;
    case K_GESVD: check_gesvd(c, t); break;
    case K_GEEV: check_geev(c, t); break;
    case K_SYTRD: check_sytrd(c, t); break;
    case K_STEDC: check_stedc(c, t); break;
    case K_GEBRD: check_gebrd(c, t); break;
    case K_ORGBR: check_orgbr(c, t); break;
    case K_BDSQR: check_bdsqr(c, t); break;
    }
}
