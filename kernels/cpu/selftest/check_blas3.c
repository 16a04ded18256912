/*
 * check_blas3.c — the self-test's checks of the BLAS Level 3 routines.
 *
 * Shapes: from 1×1×1 to 100×37×65 compared entry by entry, and shapes
 * beyond the libraries' blocking sizes (up to 520×260×400) compared by
 * Freivalds' projection: Ĉ·v against α·A·(B·v) + β·C·v for a random v,
 * which is O(n²) in long double and finds a wrong entry unless errors
 * cancel. Every transpose, side, triangle and diagonal; lda/ldb/ldc above
 * the rows; beta = 0 with C holding NaNs (not read), alpha = 0.
 *
 * Bounds (u the unit roundoff, f = 2 real, 5 complex, k the inner
 * dimension): a product entry within (k+2)·f·u·(|α|·(|A||B|)_ij +
 * |β||c_ij|) (Freivalds: the same bound applied to |A||B||v|); trsm by its
 * residual, |op(A)·X̂ − α·B| ≤ (k+1)·f·u·|op(A)||X̂| + f·u·|α||B| entry by
 * entry, with op(A) well conditioned.
 */
#include <math.h>
#include <stdio.h>

#include "kernels/cpu/selftest/checks.h"

typedef enum kind { K_GEMM, K_SYMM, K_HEMM, K_SYRK, K_HERK, K_SYR2K, K_HER2K, K_TRMM, K_TRSM } kind;

#define E(name, k, t)                                                                              \
    { TRN_R_##name, k, t }
static const st_entry table[] = {
    E(cblas_sgemm, K_GEMM, ST_S),   E(cblas_dgemm, K_GEMM, ST_D),   E(cblas_cgemm, K_GEMM, ST_C),
    E(cblas_zgemm, K_GEMM, ST_Z),   E(cblas_ssymm, K_SYMM, ST_S),   E(cblas_dsymm, K_SYMM, ST_D),
    E(cblas_csymm, K_SYMM, ST_C),   E(cblas_zsymm, K_SYMM, ST_Z),   E(cblas_chemm, K_HEMM, ST_C),
    E(cblas_zhemm, K_HEMM, ST_Z),   E(cblas_ssyrk, K_SYRK, ST_S),   E(cblas_dsyrk, K_SYRK, ST_D),
    E(cblas_csyrk, K_SYRK, ST_C),   E(cblas_zsyrk, K_SYRK, ST_Z),   E(cblas_cherk, K_HERK, ST_C),
    E(cblas_zherk, K_HERK, ST_Z),   E(cblas_ssyr2k, K_SYR2K, ST_S), E(cblas_dsyr2k, K_SYR2K, ST_D),
    E(cblas_csyr2k, K_SYR2K, ST_C), E(cblas_zsyr2k, K_SYR2K, ST_Z), E(cblas_cher2k, K_HER2K, ST_C),
    E(cblas_zher2k, K_HER2K, ST_Z), E(cblas_strmm, K_TRMM, ST_S),   E(cblas_dtrmm, K_TRMM, ST_D),
    E(cblas_ctrmm, K_TRMM, ST_C),   E(cblas_ztrmm, K_TRMM, ST_Z),   E(cblas_strsm, K_TRSM, ST_S),
    E(cblas_dtrsm, K_TRSM, ST_D),   E(cblas_ctrsm, K_TRSM, ST_C),   E(cblas_ztrsm, K_TRSM, ST_Z),
};
#undef E

/* (m, n, k): small ones checked entry by entry, the last ones (beyond the
 * blocking of OpenBLAS's kernels) by projection. */
static const int shapes[][3] = {{1, 1, 1},   {1, 7, 3},    {7, 1, 5},    {5, 3, 1},
                                {8, 8, 8},   {17, 9, 33},  {16, 33, 15}, {33, 24, 31},
                                {31, 40, 9}, {65, 17, 21}, {100, 37, 6}, {24, 65, 40}};
#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))
/* Beyond the blocking of OpenBLAS's kernels (its GEMM_P/GEMM_Q are at most
 * 768/448 for the real types and 384/224 for the complex ones), with
 * dimensions that are not multiples of any unrolling. */
static const int big_real[3] = {803, 97, 481}, big_cx[3] = {403, 61, 233};
/* Entry-by-entry references up to this many multiply-adds. */
#define DIRECT_MAX 6000L

/* Whether combination `combo` of `ncombo` (transposes, sides, …) runs shape
 * s: each small shape in half of the combinations, the big one (s ==
 * NSHAPES) in the first and the last. */
static int take(int s, int combo, int ncombo) {
    if (s == NSHAPES)
        return combo == 0 || combo == ncombo - 1;
    return s == 0 || (s + combo) % 2 == 0;
}

/* mode 0 random, 1 zero, 2 one; real_only for herk's alpha and beta. */
static st_lc scalar(st_check *c, st_type t, int mode, int real_only) {
    if (mode == 1)
        return st_lc_make(0, 0);
    if (mode == 2)
        return st_lc_make(1, 0);
    st_lc v = st_lc_make(st_rand(c), st_is_cx(t) && !real_only ? st_rand(c) : 0);
    const st_scalar a = st_scalar_of(t, v);
    return st_get(t, &a, 0);
}

/* ---- operands as the references read them ------------------------------------------------- */

/* A read-only view of a matrix operand in long double: op(M) before the
 * call (trans 0/1/2 = N/T/C; sym 1 or 2 fills the unreferenced triangle
 * symmetrically or Hermitian), or the result now, completed from its
 * triangle `part` by sym. */
typedef struct dense {
    const st_mat *m;
    int rows, cols;
    int trans, sym, now;
    st_part part;
} dense;

static st_lc at(const dense *d, int i, int j) {
    if (d->now) {
        const int in = d->part == ST_ALL || (d->part == ST_UPPER ? i <= j : i >= j);
        if (in)
            return st_mat_now(d->m, i, j);
        const st_lc v = st_mat_now(d->m, j, i);
        return d->sym == 2 ? st_conj(v) : v;
    }
    if (!d->trans)
        return st_mat_at(d->m, i, j, d->sym);
    const st_lc v = st_mat_at(d->m, j, i, d->sym);
    return d->trans == 2 ? st_conj(v) : v;
}

static dense dense_op(const st_mat *m, int trans, int sym) {
    const dense d = {m,     trans ? m->cols : m->rows, trans ? m->rows : m->cols, trans, sym, 0,
                     ST_ALL};
    return d;
}

static dense dense_now(const st_mat *m, st_part part, int sym) {
    const dense d = {m, m->rows, m->cols, 0, sym, 1, part};
    return d;
}

/* One term alpha·L·R of a result. */
typedef struct term {
    st_lc alpha;
    const dense *l, *r;
} term;

/* Checks the result C (part `part`, Hermitian diagonal when herm) against
 * Σ terms + beta·C0 (C0 from C's initial contents completed by `sym`; not
 * used when beta = 0). Entry by entry, or by projection when big. */
static void check_result(st_check *c, const st_mat *cm, st_part part, int herm, int sym,
                         const term *terms, int nterms, st_lc beta, int big) {
    const long double u = st_unit(cm->t), f = st_factor(cm->t);
    const int rows = cm->rows, cols = cm->cols;
    const int use_c = beta.re != 0 || beta.im != 0;
    const int kdim = terms[0].l->cols;
    if (!big) {
        const size_t count = (size_t)rows * (size_t)cols;
        st_lc *want = st_alloc(c, sizeof(st_lc) * count);
        long double *bound = st_alloc(c, sizeof(long double) * count);
        for (int j = 0; j < cols; j++)
            for (int i = 0; i < rows; i++) {
                st_lc w = {0, 0};
                long double mag = 0;
                for (int t = 0; t < nterms; t++) {
                    st_lc s = {0, 0};
                    long double m = 0;
                    for (int l = 0; l < kdim; l++) {
                        const st_lc a = at(terms[t].l, i, l), b = at(terms[t].r, l, j);
                        s = st_add(s, st_mul(a, b));
                        m += st_mag(a) * st_mag(b);
                    }
                    w = st_add(w, st_mul(terms[t].alpha, s));
                    mag += st_mag(terms[t].alpha) * m;
                }
                if (use_c) {
                    const st_lc c0 = st_mat_at(cm, i, j, sym);
                    w = st_add(w, st_mul(beta, c0));
                    mag += st_mag(beta) * st_mag(c0);
                }
                if (herm && i == j)
                    w.im = 0;
                const size_t k = (size_t)j * (size_t)rows + (size_t)i;
                want[k] = w;
                bound[k] = (long double)(nterms * kdim + 2) * f * u * mag;
            }
        st_mat_check(c, "C", cm, part, herm, want, bound);
        return;
    }
    if (!st_mat_untouched(c, "C", cm, part, herm))
        return;
    /* Freivalds: got = Ĉ·v, want = Σ alpha·L·(R·v) + beta·C0·v. */
    const dense now = dense_now(cm, part, sym);
    st_lc *v = st_alloc(c, sizeof(st_lc) * (size_t)cols);
    for (int j = 0; j < cols; j++)
        v[j] = st_lc_make(st_rand(c), st_is_cx(cm->t) ? st_rand(c) : 0);
    st_lc *rv = st_alloc(c, sizeof(st_lc) * (size_t)(kdim > 0 ? kdim : 1));
    long double *rm = st_alloc(c, sizeof(long double) * (size_t)(kdim > 0 ? kdim : 1));
    st_lc *want = st_alloc(c, sizeof(st_lc) * (size_t)rows);
    long double *mag = st_alloc(c, sizeof(long double) * (size_t)rows);
    for (int t = 0; t < nterms; t++) {
        for (int l = 0; l < kdim; l++) {
            rv[l] = st_lc_make(0, 0);
            rm[l] = 0;
            for (int j = 0; j < cols; j++) {
                rv[l] = st_add(rv[l], st_mul(at(terms[t].r, l, j), v[j]));
                rm[l] += st_mag(at(terms[t].r, l, j)) * st_mag(v[j]);
            }
        }
        for (int i = 0; i < rows; i++) {
            st_lc s = {0, 0};
            long double m = 0;
            for (int l = 0; l < kdim; l++) {
                s = st_add(s, st_mul(at(terms[t].l, i, l), rv[l]));
                m += st_mag(at(terms[t].l, i, l)) * rm[l];
            }
            want[i] = st_add(want[i], st_mul(terms[t].alpha, s));
            mag[i] += st_mag(terms[t].alpha) * m;
        }
    }
    if (use_c)
        for (int j = 0; j < cols; j++)
            for (int i = 0; i < rows; i++) {
                const st_lc c0 = st_mat_at(cm, i, j, sym);
                want[i] = st_add(want[i], st_mul(beta, st_mul(c0, v[j])));
                mag[i] += st_mag(beta) * st_mag(c0) * st_mag(v[j]);
            }
    char what[48];
    for (int i = 0; i < rows; i++) {
        st_lc got = {0, 0};
        for (int j = 0; j < cols; j++)
            got = st_add(got, st_mul(at(&now, i, j), v[j]));
        const long double bound = (long double)(nterms * kdim + 2) * f * u * mag[i];
        if (st_near(c, got, want[i], bound))
            continue;
        snprintf(what, sizeof(what), "(C·v)[%d]", i);
        if (!st_expect(c, what, got, want[i], bound))
            return;
    }
}

/* ---- gemm --------------------------------------------------------------------------------- */

static void call_gemm(st_check *c, st_type t, int ta, int tb, int m, int n, int k, st_lc alpha,
                      const st_mat *a, const st_mat *b, st_lc beta, st_mat *cm) {
    const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
    const CBLAS_TRANSPOSE ca = st_cblas_trans(ta), cb = st_cblas_trans(tb);
    switch (t) {
    case ST_S:
        ((__typeof__(&cblas_sgemm))c->fn)(CblasColMajor, ca, cb, m, n, k, al.s, (const float *)a->p,
                                          a->ld, (const float *)b->p, b->ld, be.s, (float *)cm->p,
                                          cm->ld);
        break;
    case ST_D:
        ((__typeof__(&cblas_dgemm))c->fn)(CblasColMajor, ca, cb, m, n, k, al.d,
                                          (const double *)a->p, a->ld, (const double *)b->p, b->ld,
                                          be.d, (double *)cm->p, cm->ld);
        break;
    case ST_C:
        ((__typeof__(&cblas_cgemm))c->fn)(CblasColMajor, ca, cb, m, n, k, al.c, a->p, a->ld, b->p,
                                          b->ld, be.c, cm->p, cm->ld);
        break;
    case ST_Z:
        ((__typeof__(&cblas_zgemm))c->fn)(CblasColMajor, ca, cb, m, n, k, al.z, a->p, a->ld, b->p,
                                          b->ld, be.z, cm->p, cm->ld);
        break;
    }
}

/* The shape of case s: small, or big (s == NSHAPES; gemm's real one is
 * larger: its real blocking is). */
static void shape(int s, st_type t, int gemm, int *m, int *n, int *k) {
    const int *p = s < NSHAPES ? shapes[s] : gemm && !st_is_cx(t) ? big_real : big_cx;
    *m = p[0];
    *n = p[1];
    *k = p[2];
}

static int is_big(int m, int n, int k) {
    return (long)m * n * k > DIRECT_MAX;
}

static void check_gemm(st_check *c, st_type t) {
    const int ntr = st_is_cx(t) ? 3 : 2;
    int cas = 0;
    for (int ta = 0; ta < ntr; ta++)
        for (int tb = 0; tb < ntr; tb++)
            for (int s = 0; s < NSHAPES + 1; s++, cas++) {
                int m, n, k;
                shape(s, t, 1, &m, &n, &k);
                if (!take(s, ta * ntr + tb, ntr * ntr))
                    continue;
                const int pad = cas % 3 == 1 ? 3 : 0;
                const int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
                const int bmode = cas % 5 == 1 ? 1 : cas % 5 == 3 ? 2 : 0;
                const int amode = cas % 13 == 5 ? 1 : 0;
                st_case(c,
                        "transa=%s transb=%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d alpha=%s beta=%s",
                        st_trans_name(ta), st_trans_name(tb), m, n, k, ar + pad, br + pad, m + pad,
                        amode ? "0" : "random",
                        bmode == 1   ? "0"
                        : bmode == 2 ? "1"
                                     : "random");
                st_mat a, b, cm;
                if (st_mat_make(c, 0, &a, t, ar, ac, ar + pad, ST_ALL, 0, 0) ||
                    st_mat_make(c, 1, &b, t, br, bc, br + pad, ST_ALL, 0, 0) ||
                    st_mat_make(c, 2, &cm, t, m, n, m + pad, ST_ALL, 0, 0))
                    continue;
                const st_lc alpha = scalar(c, t, amode, 0), beta = scalar(c, t, bmode, 0);
                if (bmode == 1)
                    st_mat_poison_all(&cm);
                call_gemm(c, t, ta, tb, m, n, k, alpha, &a, &b, beta, &cm);
                const dense da = dense_op(&a, ta, 0), db = dense_op(&b, tb, 0);
                const term tm = {alpha, &da, &db};
                check_result(c, &cm, ST_ALL, 0, 0, &tm, 1, beta, is_big(m, n, k));
                st_mat_unchanged(c, "A", &a);
                st_mat_unchanged(c, "B", &b);
            }
}

/* ---- symm, hemm -------------------------------------------------------------------------- */

static void check_symm(st_check *c, st_type t, int herm) {
    int cas = 0;
    for (int right = 0; right <= 1; right++)
        for (int up = 0; up <= 1; up++)
            for (int s = 0; s < NSHAPES + 1; s++, cas++) {
                int m, n, k;
                shape(s, t, 0, &m, &n, &k);
                if (!take(s, right * 2 + up, 4))
                    continue;
                const int na = right ? n : m, pad = cas % 3 == 1 ? 2 : 0;
                const int bmode = cas % 4 == 1 ? 1 : 0;
                st_case(c, "side=%s uplo=%s m=%d n=%d lda=%d ldb=%d ldc=%d beta=%s",
                        right ? "R" : "L", up ? "U" : "L", m, n, na + pad, m + pad, m + pad,
                        bmode ? "0" : "random");
                st_mat a, b, cm;
                if (st_mat_make(c, 0, &a, t, na, na, na + pad, up ? ST_UPPER : ST_LOWER, 0, herm) ||
                    st_mat_make(c, 1, &b, t, m, n, m + pad, ST_ALL, 0, 0) ||
                    st_mat_make(c, 2, &cm, t, m, n, m + pad, ST_ALL, 0, 0))
                    continue;
                const st_lc alpha = scalar(c, t, 0, 0), beta = scalar(c, t, bmode, 0);
                if (bmode)
                    st_mat_poison_all(&cm);
                const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
                const CBLAS_SIDE sd = right ? CblasRight : CblasLeft;
                const CBLAS_UPLO ul = up ? CblasUpper : CblasLower;
                switch (t) {
                case ST_S:
                    ((__typeof__(&cblas_ssymm))c->fn)(CblasColMajor, sd, ul, m, n, al.s,
                                                      (const float *)a.p, a.ld, (const float *)b.p,
                                                      b.ld, be.s, (float *)cm.p, cm.ld);
                    break;
                case ST_D:
                    ((__typeof__(&cblas_dsymm))c->fn)(
                        CblasColMajor, sd, ul, m, n, al.d, (const double *)a.p, a.ld,
                        (const double *)b.p, b.ld, be.d, (double *)cm.p, cm.ld);
                    break;
                case ST_C:
                    if (herm)
                        ((__typeof__(&cblas_chemm))c->fn)(CblasColMajor, sd, ul, m, n, al.c, a.p,
                                                          a.ld, b.p, b.ld, be.c, cm.p, cm.ld);
                    else
                        ((__typeof__(&cblas_csymm))c->fn)(CblasColMajor, sd, ul, m, n, al.c, a.p,
                                                          a.ld, b.p, b.ld, be.c, cm.p, cm.ld);
                    break;
                case ST_Z:
                    if (herm)
                        ((__typeof__(&cblas_zhemm))c->fn)(CblasColMajor, sd, ul, m, n, al.z, a.p,
                                                          a.ld, b.p, b.ld, be.z, cm.p, cm.ld);
                    else
                        ((__typeof__(&cblas_zsymm))c->fn)(CblasColMajor, sd, ul, m, n, al.z, a.p,
                                                          a.ld, b.p, b.ld, be.z, cm.p, cm.ld);
                    break;
                }
                const dense da = dense_op(&a, 0, herm ? 2 : 1), db = dense_op(&b, 0, 0);
                const term tm = {alpha, right ? &db : &da, right ? &da : &db};
                check_result(c, &cm, ST_ALL, 0, 0, &tm, 1, beta, is_big(m, n, na));
                st_mat_unchanged(c, "A", &a);
                st_mat_unchanged(c, "B", &b);
            }
}

/* ---- syrk, herk, syr2k, her2k ----------------------------------------------------------- */

static void call_rank_k(st_check *c, st_type t, kind kd, int up, int tr, int n, int k, st_lc alpha,
                        const st_mat *a, const st_mat *b, st_lc beta, st_mat *cm) {
    const st_scalar al = st_scalar_of(t, alpha), be = st_scalar_of(t, beta);
    const CBLAS_UPLO ul = up ? CblasUpper : CblasLower;
    const CBLAS_TRANSPOSE ct = st_cblas_trans(tr);
    const int two = kd == K_SYR2K || kd == K_HER2K;
    switch (t) {
    case ST_S:
        if (two)
            ((__typeof__(&cblas_ssyr2k))c->fn)(CblasColMajor, ul, ct, n, k, al.s,
                                               (const float *)a->p, a->ld, (const float *)b->p,
                                               b->ld, be.s, (float *)cm->p, cm->ld);
        else
            ((__typeof__(&cblas_ssyrk))c->fn)(CblasColMajor, ul, ct, n, k, al.s,
                                              (const float *)a->p, a->ld, be.s, (float *)cm->p,
                                              cm->ld);
        break;
    case ST_D:
        if (two)
            ((__typeof__(&cblas_dsyr2k))c->fn)(CblasColMajor, ul, ct, n, k, al.d,
                                               (const double *)a->p, a->ld, (const double *)b->p,
                                               b->ld, be.d, (double *)cm->p, cm->ld);
        else
            ((__typeof__(&cblas_dsyrk))c->fn)(CblasColMajor, ul, ct, n, k, al.d,
                                              (const double *)a->p, a->ld, be.d, (double *)cm->p,
                                              cm->ld);
        break;
    case ST_C:
        switch (kd) {
        case K_SYRK:
            ((__typeof__(&cblas_csyrk))c->fn)(CblasColMajor, ul, ct, n, k, al.c, a->p, a->ld, be.c,
                                              cm->p, cm->ld);
            break;
        case K_HERK:
            ((__typeof__(&cblas_cherk))c->fn)(CblasColMajor, ul, ct, n, k, al.c[0], a->p, a->ld,
                                              be.c[0], cm->p, cm->ld);
            break;
        case K_SYR2K:
            ((__typeof__(&cblas_csyr2k))c->fn)(CblasColMajor, ul, ct, n, k, al.c, a->p, a->ld, b->p,
                                               b->ld, be.c, cm->p, cm->ld);
            break;
        default:
            ((__typeof__(&cblas_cher2k))c->fn)(CblasColMajor, ul, ct, n, k, al.c, a->p, a->ld, b->p,
                                               b->ld, be.c[0], cm->p, cm->ld);
            break;
        }
        break;
    case ST_Z:
        switch (kd) {
        case K_SYRK:
            ((__typeof__(&cblas_zsyrk))c->fn)(CblasColMajor, ul, ct, n, k, al.z, a->p, a->ld, be.z,
                                              cm->p, cm->ld);
            break;
        case K_HERK:
            ((__typeof__(&cblas_zherk))c->fn)(CblasColMajor, ul, ct, n, k, al.z[0], a->p, a->ld,
                                              be.z[0], cm->p, cm->ld);
            break;
        case K_SYR2K:
            ((__typeof__(&cblas_zsyr2k))c->fn)(CblasColMajor, ul, ct, n, k, al.z, a->p, a->ld, b->p,
                                               b->ld, be.z, cm->p, cm->ld);
            break;
        default:
            ((__typeof__(&cblas_zher2k))c->fn)(CblasColMajor, ul, ct, n, k, al.z, a->p, a->ld, b->p,
                                               b->ld, be.z[0], cm->p, cm->ld);
            break;
        }
        break;
    }
}

/* C = alpha·op(A)·op(A)ᵀ (or ᴴ) + beta·C, and the rank-2k forms, on the
 * uplo triangle. op(A) is n×k: A itself (trans N) or its (conjugate)
 * transpose. */
static void check_rank_k(st_check *c, st_type t, kind kd) {
    const int herm = kd == K_HERK || kd == K_HER2K;
    const int two = kd == K_SYR2K || kd == K_HER2K;
    /* Transposes: N and T, or N and C (Hermitian); real T also as C. */
    const int trs[2] = {0, herm ? 2 : 1};
    int cas = 0;
    for (int up = 0; up <= 1; up++)
        for (int ti = 0; ti < 2; ti++)
            for (int s = 0; s < NSHAPES + 1; s++, cas++) {
                int m, n, k;
                shape(s, t, 0, &m, &n, &k);
                (void)m;
                if (!take(s, up * 2 + ti, 4))
                    continue;
                const int tr = trs[ti];
                const int ar = tr ? k : n, ac = tr ? n : k, pad = cas % 3 == 1 ? 2 : 0;
                const int bmode = cas % 4 == 1 ? 1 : 0;
                st_case(c, "uplo=%s trans=%s n=%d k=%d lda=%d ldc=%d beta=%s", up ? "U" : "L",
                        st_trans_name(tr), n, k, ar + pad, n + pad, bmode ? "0" : "random");
                const st_part part = up ? ST_UPPER : ST_LOWER;
                st_mat a, b, cm;
                if (st_mat_make(c, 0, &a, t, ar, ac, ar + pad, ST_ALL, 0, 0) ||
                    st_mat_make(c, 1, &b, t, ar, ac, ar + pad, ST_ALL, 0, 0) ||
                    st_mat_make(c, 2, &cm, t, n, n, n + pad, part, 0, herm))
                    continue;
                const st_lc alpha = scalar(c, t, 0, kd == K_HERK);
                const st_lc beta = scalar(c, t, bmode, herm);
                if (bmode)
                    st_mat_poison_all(&cm);
                call_rank_k(c, t, kd, up, tr, n, k, alpha, &a, &b, beta, &cm);
                /* L = op(A) (n×k), R = op(A)ᵀ or ᴴ (k×n). */
                const int back = tr ? 0 : (herm ? 2 : 1);
                const dense la = dense_op(&a, tr, 0), ra = dense_op(&a, back, 0);
                const dense lb = dense_op(&b, tr, 0), rb = dense_op(&b, back, 0);
                term tm[2] = {{alpha, &la, two ? &rb : &ra}, {alpha, &lb, &ra}};
                if (two && herm)
                    tm[1].alpha = st_conj(alpha);
                check_result(c, &cm, part, herm, herm ? 2 : 1, tm, two ? 2 : 1, beta,
                             is_big(n, n, k));
                st_mat_unchanged(c, "A", &a);
                if (two)
                    st_mat_unchanged(c, "B", &b);
            }
}

/* ---- trmm, trsm ---------------------------------------------------------------------------- */

static void call_tr(st_check *c, st_type t, int solve, int right, int up, int tr, int unit, int m,
                    int n, st_lc alpha, const st_mat *a, st_mat *b) {
    const st_scalar al = st_scalar_of(t, alpha);
    const CBLAS_SIDE sd = right ? CblasRight : CblasLeft;
    const CBLAS_UPLO ul = up ? CblasUpper : CblasLower;
    const CBLAS_TRANSPOSE ct = st_cblas_trans(tr);
    const CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
    switch (t) {
    case ST_S:
        if (solve)
            ((__typeof__(&cblas_strsm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.s,
                                              (const float *)a->p, a->ld, (float *)b->p, b->ld);
        else
            ((__typeof__(&cblas_strmm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.s,
                                              (const float *)a->p, a->ld, (float *)b->p, b->ld);
        break;
    case ST_D:
        if (solve)
            ((__typeof__(&cblas_dtrsm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.d,
                                              (const double *)a->p, a->ld, (double *)b->p, b->ld);
        else
            ((__typeof__(&cblas_dtrmm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.d,
                                              (const double *)a->p, a->ld, (double *)b->p, b->ld);
        break;
    case ST_C:
        if (solve)
            ((__typeof__(&cblas_ctrsm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.c, a->p,
                                              a->ld, b->p, b->ld);
        else
            ((__typeof__(&cblas_ctrmm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.c, a->p,
                                              a->ld, b->p, b->ld);
        break;
    case ST_Z:
        if (solve)
            ((__typeof__(&cblas_ztrsm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.z, a->p,
                                              a->ld, b->p, b->ld);
        else
            ((__typeof__(&cblas_ztrmm))c->fn)(CblasColMajor, sd, ul, ct, dg, m, n, al.z, a->p,
                                              a->ld, b->p, b->ld);
        break;
    }
}

/* trsm: the residual op(A)·X̂ − alpha·B (left) or X̂·op(A) − alpha·B (right),
 * entry by entry or projected. */
static void check_solution(st_check *c, const st_mat *bm, const dense *opa, int right, st_lc alpha,
                           int big) {
    const long double u = st_unit(bm->t), f = st_factor(bm->t);
    const int m = bm->rows, n = bm->cols, k = opa->rows;
    if (!st_mat_untouched(c, "B", bm, ST_ALL, 0))
        return;
    const dense x = dense_now(bm, ST_ALL, 0);
    const dense *l = right ? &x : opa, *r = right ? opa : &x;
    char what[48];
    if (!big) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                st_lc s = {0, 0};
                long double mag = 0;
                for (int q = 0; q < k; q++) {
                    const st_lc a = at(l, i, q), b = at(r, q, j);
                    s = st_add(s, st_mul(a, b));
                    mag += st_mag(a) * st_mag(b);
                }
                const st_lc b0 = st_mat_at(bm, i, j, 0);
                const long double bound =
                    (long double)(k + 1) * f * u * mag + f * u * st_mag(alpha) * st_mag(b0);
                if (st_near(c, s, st_mul(alpha, b0), bound))
                    continue;
                snprintf(what, sizeof(what), "(op(A)·X)(%d,%d)", i, j);
                if (!st_expect(c, what, s, st_mul(alpha, b0), bound))
                    return;
            }
        return;
    }
    st_lc *v = st_alloc(c, sizeof(st_lc) * (size_t)n);
    for (int j = 0; j < n; j++)
        v[j] = st_lc_make(st_rand(c), st_is_cx(bm->t) ? st_rand(c) : 0);
    /* r·v, then l·(r·v), with magnitudes. */
    st_lc *rv = st_alloc(c, sizeof(st_lc) * (size_t)k);
    long double *rm = st_alloc(c, sizeof(long double) * (size_t)k);
    for (int q = 0; q < k; q++) /* r has k rows on either side */
        for (int j = 0; j < n; j++) {
            rv[q] = st_add(rv[q], st_mul(at(r, q, j), v[j]));
            rm[q] += st_mag(at(r, q, j)) * st_mag(v[j]);
        }
    for (int i = 0; i < m; i++) {
        st_lc got = {0, 0}, want = {0, 0};
        long double mag = 0, bmag = 0;
        for (int q = 0; q < k; q++) {
            got = st_add(got, st_mul(at(l, i, q), rv[q]));
            mag += st_mag(at(l, i, q)) * rm[q];
        }
        for (int j = 0; j < n; j++) {
            const st_lc b0 = st_mat_at(bm, i, j, 0);
            want = st_add(want, st_mul(st_mul(alpha, b0), v[j]));
            bmag += st_mag(alpha) * st_mag(b0) * st_mag(v[j]);
        }
        const long double bound = (long double)(k + 1) * f * u * mag + f * u * bmag;
        if (st_near(c, got, want, bound))
            continue;
        snprintf(what, sizeof(what), "(op(A)·X·v)[%d]", i);
        if (!st_expect(c, what, got, want, bound))
            return;
    }
}

static void check_tr(st_check *c, st_type t, int solve) {
    const int ntr = st_is_cx(t) ? 3 : 2;
    int cas = 0;
    for (int right = 0; right <= 1; right++)
        for (int up = 0; up <= 1; up++)
            for (int tr = 0; tr < ntr; tr++)
                for (int unit = 0; unit <= 1; unit++)
                    for (int s = 0; s < NSHAPES + 1; s++, cas++) {
                        /* A third of the small shapes per combination. */
                        const int combo = ((right * 2 + up) * ntr + tr) * 2 + unit;
                        if (s < NSHAPES ? (s + combo) % 3 != 0 : !take(s, combo, 8 * ntr))
                            continue;
                        int m, n, k;
                        shape(s, t, 0, &m, &n, &k);
                        (void)k;
                        const int na = right ? n : m, pad = cas % 3 == 1 ? 2 : 0;
                        const int amode = !solve && cas % 9 == 4 ? 1 : 0;
                        st_case(c, "side=%s uplo=%s trans=%s diag=%s m=%d n=%d lda=%d ldb=%d%s",
                                right ? "R" : "L", up ? "U" : "L", st_trans_name(tr),
                                unit ? "U" : "N", m, n, na + pad, m + pad, amode ? " alpha=0" : "");
                        st_mat a, b;
                        if (st_mat_make(c, 0, &a, t, na, na, na + pad, up ? ST_UPPER : ST_LOWER,
                                        unit, 0) ||
                            st_mat_make(c, 1, &b, t, m, n, m + pad, ST_ALL, 0, 0))
                            continue;
                        st_mat_condition(c, &a);
                        const st_lc alpha = scalar(c, t, amode, 0);
                        call_tr(c, t, solve, right, up, tr, unit, m, n, alpha, &a, &b);
                        st_mat_unchanged(c, "A", &a);
                        const dense opa = dense_op(&a, tr, 0);
                        const int bigcase = is_big(m, n, na);
                        if (solve) {
                            check_solution(c, &b, &opa, right, alpha, bigcase);
                            continue;
                        }
                        const dense db = dense_op(&b, 0, 0);
                        const term tm = {alpha, right ? &db : &opa, right ? &opa : &db};
                        check_result(c, &b, ST_ALL, 0, 0, &tm, 1, st_lc_make(0, 0), bigcase);
                    }
}

void st_check_blas3(st_check *c) {
    const st_entry *e = st_find_entry(table, sizeof(table) / sizeof(table[0]), c->id);
    if (!e)
        return;
    const st_type t = e->t;
    switch ((kind)e->kind) {
    case K_GEMM: check_gemm(c, t); break;
    case K_SYMM: check_symm(c, t, 0); break;
    case K_HEMM: check_symm(c, t, 1); break;
    case K_SYRK:
    case K_HERK:
    case K_SYR2K:
    case K_HER2K: check_rank_k(c, t, (kind)e->kind); break;
    case K_TRMM: check_tr(c, t, 0); break;
    case K_TRSM: check_tr(c, t, 1); break;
    }
}
