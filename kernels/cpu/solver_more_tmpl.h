/*
 * solver_more_tmpl.h — the symmetric indefinite factorisation (Bunch-Kaufman
 * LDL^T), its solve and the product of a triangle with its adjoint, for one
 * element type; included by solver_more.c once per type with these macros
 * defined:
 *   MT      element type (float, double, float complex, double complex)
 *   MR      its real component type
 *   MSUF    name suffix (s, d, c, z)
 *   MCX     1 for complex types
 * solver_more.c describes the methods; no include guard on purpose (the
 * file undefines its parameters at the end).
 *
 * Both triangles run one code path, the lower one: the upper triangle of A
 * is the lower triangle of J A J (J the reversal), so the upper routines
 * are the lower ones with every index i read as n-1-i. A lower-triangle
 * Bunch-Kaufman factorisation of J A J, stored back through the reversal,
 * is exactly LAPACK's upper representation (A = U D U^T, U = P(n) U(n) ...,
 * 2x2 blocks at (k-1, k) with ipiv(k-1) = ipiv(k) < 0), so the results have
 * LAPACK's layout and pivot convention for either triangle.
 */

#define MCAT2(a, b) a##_##b
#define MCAT(a, b) MCAT2(a, b)
#define MFN(name) MCAT(name, MSUF)

#if MCX
#define MABS1(x) ((MR)(fabs((double)creal(x)) + fabs((double)cimag(x))))
#define MISNAN(x) (isnan(creal(x)) || isnan(cimag(x)))
#else
#define MABS1(x) ((MR)fabs((double)(x)))
#define MISNAN(x) isnan(x)
#endif

/* Element (i, j) of the mirrored view: A itself, or J A J for the upper
 * triangle. Callers use i >= j only (the stored triangle). */
#define MAT(i, j)                                                                                  \
    (*(up ? a + (size_t)(n - 1 - (j)) * (size_t)lda + (size_t)(n - 1 - (i))                        \
          : a + (size_t)(j) * (size_t)lda + (size_t)(i)))
/* Row i of B in the same view (B is never mirrored by columns). */
#define MBT(i, j) (*(b + (size_t)(j) * (size_t)ldb + (size_t)(up ? n - 1 - (i) : (i))))

static inline void MFN(swap)(MT *x, MT *y) {
    const MT t = *x;
    *x = *y;
    *y = t;
}

/* Bunch-Kaufman with LAPACK sytf2's choices (alpha = (1 + sqrt 17) / 8,
 * the first largest candidate, |re| + |im| for complex types). ipiv NULL:
 * no pivoting, 1x1 blocks only. Returns info: the first (lower) or last
 * (upper) 1-based index of an exactly zero D(k,k); the factorisation goes
 * on past it, as LAPACK's does. */
static int MFN(sytrf)(int up, int n, MT *a, int lda, int32_t *ipiv) {
    const double alpha = (1.0 + sqrt(17.0)) / 8.0;
    int info = 0;
    int k = 0;
    while (k < n) {
        int kstep = 1, kp = k;
        const MR absakk = MABS1(MAT(k, k));
        int imax = k;
        MR colmax = 0;
        if (ipiv)
            for (int i = k + 1; i < n; i++) {
                const MR v = MABS1(MAT(i, k));
                if (v > colmax) {
                    colmax = v;
                    imax = i;
                }
            }
        if ((absakk > colmax ? absakk : colmax) == 0 || MISNAN(MAT(k, k))) {
            /* A zero column: D(k,k) = 0, nothing to eliminate. */
            if (!info)
                info = (up ? n - 1 - k : k) + 1;
        } else {
            if (ipiv && absakk < alpha * colmax) {
                MR rowmax = 0;
                for (int j = k; j < imax; j++) {
                    const MR v = MABS1(MAT(imax, j));
                    rowmax = v > rowmax ? v : rowmax;
                }
                for (int j = imax + 1; j < n; j++) {
                    const MR v = MABS1(MAT(j, imax));
                    rowmax = v > rowmax ? v : rowmax;
                }
                if (absakk >= alpha * colmax * (colmax / rowmax)) {
                    kp = k;
                } else if (MABS1(MAT(imax, imax)) >= alpha * rowmax) {
                    kp = imax;
                } else {
                    kp = imax;
                    kstep = 2;
                }
            }
            const int kk = k + kstep - 1;
            if (kp != kk) {
                /* Rows and columns kk and kp of the trailing matrix. */
                for (int i = kp + 1; i < n; i++)
                    MFN(swap)(&MAT(i, kk), &MAT(i, kp));
                for (int j = kk + 1; j < kp; j++)
                    MFN(swap)(&MAT(j, kk), &MAT(kp, j));
                MFN(swap)(&MAT(kk, kk), &MAT(kp, kp));
                if (kstep == 2)
                    MFN(swap)(&MAT(k + 1, k), &MAT(kp, k));
            }
            if (kstep == 1) {
                /* A22 -= x x^T / d11, then L21 = x / d11. */
                const MT r1 = (MT)1 / MAT(k, k);
                for (int j = k + 1; j < n; j++) {
                    const MT xj = r1 * MAT(j, k);
                    for (int i = j; i < n; i++)
                        MAT(i, j) -= MAT(i, k) * xj;
                }
                for (int i = k + 1; i < n; i++)
                    MAT(i, k) *= r1;
            } else if (k < n - 2) {
                /* The 2x2 pivot's update, as sytf2 scales it. */
                MT d21 = MAT(k + 1, k);
                const MT d11 = MAT(k + 1, k + 1) / d21;
                const MT d22 = MAT(k, k) / d21;
                const MT t = (MT)1 / (d11 * d22 - (MT)1);
                d21 = t / d21;
                for (int j = k + 2; j < n; j++) {
                    const MT wk = d21 * (d11 * MAT(j, k) - MAT(j, k + 1));
                    const MT wkp1 = d21 * (d22 * MAT(j, k + 1) - MAT(j, k));
                    for (int i = j; i < n; i++)
                        MAT(i, j) -= MAT(i, k) * wk + MAT(i, k + 1) * wkp1;
                    MAT(j, k) = wk;
                    MAT(j, k + 1) = wkp1;
                }
            }
        }
        if (ipiv) {
            const int32_t v = (int32_t)((up ? n - 1 - kp : kp) + 1);
            ipiv[up ? n - 1 - k : k] = kstep == 1 ? v : -v;
            if (kstep == 2)
                ipiv[up ? n - 2 - k : k + 1] = -v;
        }
        k += kstep;
    }
    return info;
}

/* Solves A X = B (nrhs columns of b) from sytrf's factors. piv: the
 * pivots in the mirrored view, 0-based, negative (-1 - kp) for the two
 * rows of a 2x2 block, already checked (solver_more.c); NULL: none. */
static void MFN(sytrs)(int up, int n, int nrhs, const MT *ac, int lda, const int32_t *piv, MT *b,
                       int ldb) {
    MT *a = (MT *)ac; /* read only; MAT yields lvalues */
    /* L D X' = B. */
    for (int k = 0; k < n;) {
        if (!piv || piv[k] >= 0) {
            const int kp = piv ? piv[k] : k;
            for (int j = 0; j < nrhs; j++) {
                if (kp != k)
                    MFN(swap)(&MBT(k, j), &MBT(kp, j));
                const MT bk = MBT(k, j);
                for (int i = k + 1; i < n; i++)
                    MBT(i, j) -= MAT(i, k) * bk;
                MBT(k, j) = bk / MAT(k, k);
            }
            k += 1;
        } else {
            const int kp = -1 - piv[k];
            const MT akm1k = MAT(k + 1, k);
            const MT akm1 = MAT(k, k) / akm1k;
            const MT ak = MAT(k + 1, k + 1) / akm1k;
            const MT denom = akm1 * ak - (MT)1;
            for (int j = 0; j < nrhs; j++) {
                if (kp != k + 1)
                    MFN(swap)(&MBT(k + 1, j), &MBT(kp, j));
                const MT b0 = MBT(k, j), b1 = MBT(k + 1, j);
                for (int i = k + 2; i < n; i++)
                    MBT(i, j) -= MAT(i, k) * b0 + MAT(i, k + 1) * b1;
                const MT bkm1 = b0 / akm1k, bk = b1 / akm1k;
                MBT(k, j) = (ak * bkm1 - bk) / denom;
                MBT(k + 1, j) = (akm1 * bk - bkm1) / denom;
            }
            k += 2;
        }
    }
    /* L^T X = X'. */
    for (int k = n - 1; k >= 0;) {
        const int two = piv && piv[k] < 0;
        const int kp = !piv ? k : two ? -1 - piv[k] : piv[k];
        for (int j = 0; j < nrhs; j++) {
            MT s0 = 0, s1 = 0;
            for (int i = k + 1; i < n; i++) {
                s0 += MAT(i, k) * MBT(i, j);
                if (two)
                    s1 += MAT(i, k - 1) * MBT(i, j);
            }
            MBT(k, j) -= s0;
            if (two)
                MBT(k - 1, j) -= s1;
            if (kp != k)
                MFN(swap)(&MBT(k, j), &MBT(kp, j));
        }
        k -= two ? 2 : 1;
    }
}

/* sytri's singularity test: the first (lower) or last (upper) 1-based
 * index k of a 1x1 block with D(k,k) exactly zero, else 0. */
static int MFN(sytri_zero)(int up, int n, const MT *ac, int lda, const int32_t *piv) {
    MT *a = (MT *)ac;
    for (int k = 0; k < n; k++) {
        if (piv && piv[k] < 0) {
            k++; /* a 2x2 block is nonsingular by construction */
            continue;
        }
        if (MAT(k, k) == (MT)0)
            return (up ? n - 1 - k : k) + 1;
    }
    return 0;
}

#if MCX
#define MCONJ(x) conj(x)
#define MREAL(x) creal(x)
#define MIMAG(x) cimag(x)
#else
#define MCONJ(x) (x)
#define MREAL(x) (x)
#define MIMAG(x) 0
#endif

/* LAPACK's larfg: H^H (alpha; x) = (beta; 0) with H = I - tau v v^H,
 * v = (1; x'), beta real; x (length k, stride 1 in the mirrored view's
 * column) is overwritten with x', *alpha with beta. Without LAPACK's
 * rescaling of tiny beta (the matrices are scaled by the caller's data;
 * see docs/numerics.md). */
static MT MFN(larfg)(int k, MT *alpha, MT *const *x) {
    double xnorm = 0;
    for (int i = 0; i < k; i++) {
        const double re = (double)MREAL(*x[i]), im = (double)MIMAG(*x[i]);
        xnorm = hypot(xnorm, hypot(re, im));
    }
    const double ar = (double)MREAL(*alpha), ai = (double)MIMAG(*alpha);
    if (xnorm == 0 && ai == 0)
        return 0;
    const double beta = -copysign(hypot(hypot(ar, ai), xnorm), ar);
#if MCX
    const MT tau = (MT)((beta - ar) / beta) - (MT)(ai / beta) * I;
#else
    const MT tau = (MT)((beta - ar) / beta);
#endif
    const MT scale = (MT)1 / (*alpha - (MT)beta);
    for (int i = 0; i < k; i++)
        *x[i] *= scale;
    *alpha = (MT)beta;
    return tau;
}

/* sytd2 / hetd2 on the mirrored lower triangle: A = Q T Q^H with d, e real
 * (n and n - 1 entries), tau (n - 1), reflectors stored as LAPACK stores
 * them for the triangle. w: n + n pointers' worth of scratch (n MT and n
 * MT *). */
static void MFN(sytrd)(int up, int n, MT *a, int lda, MR *d, MR *e, MT *tau, MT *w, MT **xp) {
    if (n == 0)
        return;
    MAT(0, 0) = (MT)MREAL(MAT(0, 0));
    for (int i = 0; i < n - 1; i++) {
        const int k = n - i - 1; /* the reflector's length */
        MT alpha = MAT(i + 1, i);
        for (int r = 0; r < k - 1; r++)
            xp[r] = &MAT(i + 2 + r, i);
        const MT taui = MFN(larfg)(k - 1, &alpha, xp);
        const MR ei = (MR)MREAL(alpha);
        if (taui != (MT)0) {
            MAT(i + 1, i) = 1;
            /* v = A(i+1:n, i); w = taui A22 v (Hermitian, lower stored). */
            for (int r = 0; r < k; r++)
                w[r] = 0;
            for (int c = 0; c < k; c++) {
                const MT vc = MAT(i + 1 + c, i);
                w[c] += (MT)MREAL(MAT(i + 1 + c, i + 1 + c)) * vc;
                for (int r = c + 1; r < k; r++) {
                    const MT arc = MAT(i + 1 + r, i + 1 + c);
                    w[r] += arc * vc;
                    w[c] += MCONJ(arc) * MAT(i + 1 + r, i);
                }
            }
            for (int r = 0; r < k; r++)
                w[r] *= taui;
            /* w -= (taui / 2) (w^H v) v */
            MT wv = 0;
            for (int r = 0; r < k; r++)
                wv += MCONJ(w[r]) * MAT(i + 1 + r, i);
            const MT alpha2 = (MT)(-0.5) * taui * wv;
            for (int r = 0; r < k; r++)
                w[r] += alpha2 * MAT(i + 1 + r, i);
            /* A22 -= v w^H + w v^H (lower triangle; real diagonal). */
            for (int c = 0; c < k; c++) {
                const MT vc = MAT(i + 1 + c, i), wc = w[c];
                for (int r = c; r < k; r++)
                    MAT(i + 1 + r, i + 1 + c) -= MAT(i + 1 + r, i) * MCONJ(wc) + w[r] * MCONJ(vc);
                MAT(i + 1 + c, i + 1 + c) = (MT)MREAL(MAT(i + 1 + c, i + 1 + c));
            }
        } else {
            MAT(i + 1, i + 1) = (MT)MREAL(MAT(i + 1, i + 1));
        }
        MAT(i + 1, i) = (MT)ei;
        d[up ? n - 1 - i : i] = (MR)MREAL(MAT(i, i));
        e[up ? n - 2 - i : i] = ei;
        tau[up ? n - 2 - i : i] = taui;
    }
    d[up ? 0 : n - 1] = (MR)MREAL(MAT(n - 1, n - 1));
}

/* H = I - tau v v^H (or its adjoint with conj(tau)) applied to the m x n
 * matrix c from the left (H c) or the right (c H); v has m (left) or n
 * (right) entries; y is scratch of n (left) or m (right) entries. */
static void MFN(apply_h)(int left, int m, int n, const MT *v, MT tau, MT *c, int ldc, MT *y) {
    if (tau == (MT)0)
        return;
    if (left) {
        for (int j = 0; j < n; j++) {
            MT *cj = c + (size_t)j * (size_t)ldc;
            MT s = 0;
            for (int i = 0; i < m; i++)
                s += MCONJ(v[i]) * cj[i];
            s *= tau;
            for (int i = 0; i < m; i++)
                cj[i] -= v[i] * s;
        }
    } else {
        for (int i = 0; i < m; i++)
            y[i] = 0;
        for (int j = 0; j < n; j++) {
            const MT *cj = c + (size_t)j * (size_t)ldc;
            for (int i = 0; i < m; i++)
                y[i] += cj[i] * v[j];
        }
        for (int j = 0; j < n; j++) {
            MT *cj = c + (size_t)j * (size_t)ldc;
            const MT f = tau * MCONJ(v[j]);
            for (int i = 0; i < m; i++)
                cj[i] -= y[i] * f;
        }
    }
}

/* op(Q) c or c op(Q) for Q = H(o_0) H(o_1) ... H(o_{K-1}) of K = nq - 1
 * reflectors, explicit in v (column r of nq entries is reflector r) with
 * taus t; o is ascending for LOWER, descending for UPPER (LAPACK's order);
 * adj: op(Q) = Q^H. */
static void MFN(apply_q)(int lower, int left, int adj, int m, int n, int nq, const MT *v,
                         const MT *t, MT *c, int ldc, MT *y) {
    const int kq = nq - 1;
    /* Q c: the last factor first; Q^H c: H(o_0)^H first; c Q: H(o_0)
     * first; c Q^H: the last factor's adjoint first. */
    const int first_o0 = left ? adj : !adj;
    for (int s = 0; s < kq; s++) {
        const int pos = first_o0 ? s : kq - 1 - s; /* position in the product */
        const int r = lower ? pos : kq - 1 - pos;  /* reflector index */
        const MT tau = adj ? MCONJ(t[r]) : t[r];
        MFN(apply_h)(left, m, n, v + (size_t)r * (size_t)nq, tau, c, ldc, y);
    }
}

#undef MCONJ
#undef MREAL
#undef MIMAG
#undef MAT
#undef MBT
#undef MABS1
#undef MISNAN
#undef MFN
#undef MCAT
#undef MCAT2
#undef MT
#undef MR
#undef MSUF
#undef MCX
