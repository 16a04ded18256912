/*
 * solver_bidiag_tmpl.h — the bidiagonal reduction (gebrd) and the forming
 * of its Q or P^H (orgbr / ungbr) for one element type; included by
 * solver_bidiag.c once per type with these macros defined:
 *   BT      element type (float, double, float complex, double complex)
 *   BR      its real component type
 *   BSUF    name suffix (s, d, c, z)
 *   BCX     1 for complex types
 * solver_bidiag.c describes the methods; no include guard on purpose (the
 * file undefines its parameters at the end).
 */

#define BCAT2(a, b) a##_##b
#define BCAT(a, b) BCAT2(a, b)
#define BFN(name) BCAT(name, BSUF)

#if BCX
#define BCONJ(x) conj(x)
#define BREAL(x) creal(x)
#define BIMAG(x) cimag(x)
#else
#define BCONJ(x) (x)
#define BREAL(x) (x)
#define BIMAG(x) 0
#endif

/* Element (i, j) of the column-major a with leading dimension lda. */
#define BA(i, j) a[(size_t)(j) * (size_t)lda + (size_t)(i)]

/* LAPACK's larfg on k entries of x at stride inc: H^H (alpha; x) =
 * (beta; 0), H = I - tau v v^H, v = (1; x'), beta real; x becomes x',
 * *alpha beta. As sytrd's (solver_more_tmpl.h), without LAPACK's rescaling
 * of a tiny beta (docs/numerics.md). */
static BT BFN(bd_larfg)(int k, BT *alpha, BT *x, size_t inc) {
    double xnorm = 0;
    for (int i = 0; i < k; i++) {
        const BT xi = x[(size_t)i * inc];
        xnorm = hypot(xnorm, hypot((double)BREAL(xi), (double)BIMAG(xi)));
    }
    const double ar = (double)BREAL(*alpha), ai = (double)BIMAG(*alpha);
    if (xnorm == 0 && ai == 0)
        return 0;
    const double beta = -copysign(hypot(hypot(ar, ai), xnorm), ar);
#if BCX
    const BT tau = (BT)((beta - ar) / beta) - (BT)(ai / beta) * I;
#else
    const BT tau = (BT)((beta - ar) / beta);
#endif
    const BT scale = (BT)1 / (*alpha - (BT)beta);
    for (int i = 0; i < k; i++)
        x[(size_t)i * inc] *= scale;
    *alpha = (BT)beta;
    return tau;
}

#if BCX
/* Conjugates entries j0 .. n-1 of row i (LAPACK's lacgv). */
static void BFN(bd_conj_row)(BT *a, int lda, int i, int j0, int n) {
    for (int j = j0; j < n; j++)
        BA(i, j) = conj(BA(i, j));
}
#endif

/* gebd2 for m >= n: Q^H A P = B upper bidiagonal, d (n) its diagonal, e
 * (n - 1) its superdiagonal; Q = H(0) ... H(n-1) with H(i) = I - tauq(i)
 * v v^H, v(i) = 1, v(i+1:m) in A(i+1:m, i); P = G(0) ... G(n-2) with G(i) =
 * I - taup(i) u u^H, u(i+1) = 1, u(i+2:n) conjugated in A(i, i+2:n);
 * taup(n-1) = 0. LAPACK's storage and sign choices. */
static void BFN(gebrd)(int m, int n, BT *a, int lda, BR *d, BR *e, BT *tauq, BT *taup) {
    for (int i = 0; i < n; i++) {
        /* H(i) annihilates A(i+1:m, i); H(i)^H is applied to A(i:m, i+1:n). */
        BT alpha = BA(i, i);
        const int i1 = i + 1 < m ? i + 1 : m - 1;
        const BT tq = BFN(bd_larfg)(m - i - 1, &alpha, &BA(i1, i), 1);
        tauq[i] = tq;
        d[i] = (BR)BREAL(alpha);
        if (tq != (BT)0) {
            BA(i, i) = 1;
            const BT tc = BCONJ(tq);
            for (int j = i + 1; j < n; j++) {
                BT s = 0;
                for (int r = i; r < m; r++)
                    s += BCONJ(BA(r, i)) * BA(r, j);
                s *= tc;
                for (int r = i; r < m; r++)
                    BA(r, j) -= BA(r, i) * s;
            }
        }
        BA(i, i) = (BT)d[i];
        if (i + 1 >= n) {
            taup[i] = 0;
            continue;
        }
        /* G(i) annihilates A(i, i+2:n) (of the conjugated row); it is
         * applied to A(i+1:m, i+1:n) from the right. */
#if BCX
        BFN(bd_conj_row)(a, lda, i, i + 1, n);
#endif
        alpha = BA(i, i + 1);
        const int j2 = i + 2 < n ? i + 2 : n - 1;
        const BT tp = BFN(bd_larfg)(n - i - 2, &alpha, &BA(i, j2), (size_t)lda);
        taup[i] = tp;
        e[i] = (BR)BREAL(alpha);
        if (tp != (BT)0) {
            BA(i, i + 1) = 1;
            for (int r = i + 1; r < m; r++) {
                BT s = 0;
                for (int j = i + 1; j < n; j++)
                    s += BA(r, j) * BA(i, j);
                s *= tp;
                for (int j = i + 1; j < n; j++)
                    BA(r, j) -= s * BCONJ(BA(i, j));
            }
        }
#if BCX
        BFN(bd_conj_row)(a, lda, i, i + 1, n);
#endif
        BA(i, i + 1) = (BT)e[i];
    }
}

/* c (rows x cols, leading dimension rows) := the first cols columns of
 * H(0) ... H(nref-1), H(i) = I - tau(i) v v^H with v explicit in column i
 * of v (rows entries, zero above row i + shift, 1 there). */
static void BFN(bd_form)(int rows, int cols, int nref, int shift, const BT *v, const BT *tau,
                         BT *c) {
    for (int j = 0; j < cols; j++)
        for (int r = 0; r < rows; r++)
            c[(size_t)j * (size_t)rows + (size_t)r] = r == j ? (BT)1 : (BT)0;
    for (int i = nref - 1; i >= 0; i--) {
        const BT t = tau[i];
        if (t == (BT)0)
            continue;
        const BT *vi = v + (size_t)i * (size_t)rows;
        for (int j = 0; j < cols; j++) {
            BT *cj = c + (size_t)j * (size_t)rows;
            BT s = 0;
            for (int r = i + shift; r < rows; r++)
                s += BCONJ(vi[r]) * cj[r];
            s *= t;
            for (int r = i + shift; r < rows; r++)
                cj[r] -= vi[r] * s;
        }
    }
}

/* orgbr / ungbr on A (m x n) from gebrd's reflectors in A and tau. left:
 * Q's first n columns (m >= k: Q = H(0) ... H(k-1); m < k: H(0) ...
 * H(m-2), reflectors one row down); right: P^H's first m rows (k < n: P =
 * G(0) ... G(k-1); k >= n: G(0) ... G(n-2), one column right). ws holds
 * rows * max(nref, 0) + nref + rows * cols elements (orgbr_ws). */
static void BFN(orgbr)(int left, int m, int n, int k, BT *a, int lda, const BT *tau, BT *ws) {
    const int rows = left ? m : n, cols = left ? n : m;
    const int shift = left ? (m >= k ? 0 : 1) : (k < n ? 0 : 1);
    int nref = shift ? rows - 1 : k;
    if (nref < 0)
        nref = 0;
    BT *v = ws, *t = ws + (size_t)rows * (size_t)nref, *c = t + nref;
    for (int i = 0; i < nref; i++) {
        BT *vi = v + (size_t)i * (size_t)rows;
        for (int r = 0; r < rows; r++) {
            const int at = i + shift;
            vi[r] = r < at ? (BT)0 : r == at ? (BT)1 : left ? BA(r, i) : BCONJ(BA(i, r));
        }
        t[i] = tau[i];
    }
    BFN(bd_form)(rows, cols, nref, shift, v, t, c);
    for (int j = 0; j < n; j++)
        for (int r = 0; r < m; r++)
            BA(r, j) = left ? c[(size_t)j * (size_t)rows + (size_t)r]
                            : BCONJ(c[(size_t)r * (size_t)rows + (size_t)j]);
}

#undef BA
#undef BCONJ
#undef BREAL
#undef BIMAG
#undef BFN
#undef BCAT
#undef BCAT2
#undef BT
#undef BR
#undef BSUF
#undef BCX
