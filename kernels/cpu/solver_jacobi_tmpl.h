/*
 * solver_jacobi_tmpl.h — the Jacobi eigensolver and one-sided Jacobi SVD for
 * one element type; included by solver_jacobi.c once per type with these
 * macros defined:
 *   JT      element type (float, double, float complex, double complex)
 *   JR      its real component type
 *   JA      accumulation type (double, or double complex)
 *   JSUF    name suffix (s, d, c, z)
 *   JCX     1 for complex types
 *   JDT     the trn_dtype
 *   JEPS    the machine epsilon of JR
 * solver_jacobi.c describes the methods; no include guard on purpose (the
 * file undefines its parameters at the end).
 */

#define JCAT2(a, b) a##_##b
#define JCAT(a, b) JCAT2(a, b)
#define JFN(name) JCAT(name, JSUF)

#if JCX
#define JCONJ(x) conj(x)
#define JABS2(x) (creal(x) * creal(x) + cimag(x) * cimag(x))
#define JRE(x) creal(x)
#else
#define JCONJ(x) (x)
#define JABS2(x) ((x) * (x))
#define JRE(x) (x)
#endif

/* x^H y over n elements, accumulated in JA. */
static JA JFN(dotc)(int n, const JT *x, const JT *y) {
    JA s = 0;
    for (int i = 0; i < n; i++)
        s += JCONJ((JA)x[i]) * (JA)y[i];
    return s;
}

/* The plane rotation of columns x, y (length n): x' = c x - s conj(e) y,
 * y' = s e x + c y, where e is the unit phase (1 for real types). The
 * complex products are written out: C's complex product checks for NaN
 * and does not vectorize (for finite operands the values are the same). */
static void JFN(rotate)(int n, JT *restrict x, JT *restrict y, double c, double s, JA e) {
#if JCX
    const JR a = (JR)c;
    const JT bb = (JT)(s * JCONJ(e)), gg = (JT)(s * e);
    const JR br = JRE(bb), bi = cimag(bb), gr = JRE(gg), gi = cimag(gg);
    JR *xr = (JR *)x, *yr = (JR *)y;
    for (int i = 0; i < n; i++) {
        const JR u = xr[2 * i], ui = xr[2 * i + 1], v = yr[2 * i], vi = yr[2 * i + 1];
        xr[2 * i] = a * u - (br * v - bi * vi);
        xr[2 * i + 1] = a * ui - (br * vi + bi * v);
        yr[2 * i] = (gr * u - gi * ui) + a * v;
        yr[2 * i + 1] = (gr * ui + gi * u) + a * vi;
    }
#else
    const JT a = (JT)c, b = (JT)(s * JCONJ(e)), g = (JT)(s * e);
    for (int i = 0; i < n; i++) {
        const JT xi = x[i], yi = y[i];
        x[i] = a * xi - b * yi;
        y[i] = g * xi + a * yi;
    }
#endif
}

/* Rotation parameters of the Hermitian 2 x 2 [[app, g], [conj g, aqq]]
 * (Rutishauser; Golub and Van Loan, Algorithm 8.5.1): t = tan(theta),
 * |t| <= 1, and the phase e = g / |g|. */
static void JFN(schur2)(double app, double aqq, JA g, double *c, double *s, double *t, JA *e) {
    const double ag = sqrt(JABS2(g));
    const double zeta = (aqq - app) / (2.0 * ag);
    const double tt = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
    *t = tt;
    *c = 1.0 / sqrt(1.0 + tt * tt);
    *s = tt * *c;
    *e = g / ag;
}

/* A rotation's phase e (1 for real types). */
static JA JFN(phase)(const jac_rot *r) {
#if JCX
    return r->er + I * r->ei;
#else
    return r->er;
#endif
}

/* The exponent that scales the rows x cols matrix a (only its lower or
 * upper triangle when tri is 1 or 0; all of it when tri < 0) into [0.5, 1). */
static int JFN(exponent)(const JT *a, int lda, int rows, int cols, int tri) {
    double amax = 0.0;
    for (int j = 0; j < cols; j++)
        for (int i = tri == 1 ? j : 0; i < (tri == 0 ? j + 1 : rows); i++) {
            const double x = sqrt(JABS2((JA)a[(size_t)j * lda + i]));
            if (x > amax)
                amax = x;
        }
    return jac_exponent(amax);
}

/* v = I (n x n, leading dimension n); nothing when v is NULL. */
static void JFN(identity)(JT *v, int n) {
    if (v)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                v[(size_t)j * n + i] = i == j ? 1 : 0;
}

/* The Frobenius norm of count contiguous elements. */
static double JFN(fro)(const JT *a, size_t count) {
    double s = 0.0;
    for (size_t i = 0; i < count; i++)
        s += JABS2((JA)a[i]);
    return sqrt(s);
}

/* The rotations of the disjoint pairs (pp[i], qq[i]) of the Hermitian w
 * (n x n) as it is, into rot, skipping negligible pairs. floor_abs is the
 * absolute skip threshold, eps ||A||_F / n of the whole problem (also when
 * w is a block subproblem). Returns the pairs to rotate. */
static int JFN(jparams)(const JT *w, int n, const int *pp, const int *qq, int npairs,
                        double floor_abs, jac_rot *rot) {
    int nr = 0;
    for (int i = 0; i < npairs; i++) {
        const int p = pp[i], q = qq[i];
        const JA g = w[(size_t)q * n + p];
        const double app = JRE(w[(size_t)p * n + p]), aqq = JRE(w[(size_t)q * n + q]);
        const double ag2 = JABS2(g);
        /* Negligible against the diagonal (relative accuracy) or against
         * the matrix: skip (bounds what is left, solver_jacobi.c). */
        const double small = JEPS * sqrt(fabs(app) * fabs(aqq));
        if (ag2 == 0 || ag2 <= small * small || ag2 <= floor_abs * floor_abs)
            continue;
        jac_rot *r = &rot[nr++];
        JA e;
        JFN(schur2)(app, aqq, g, &r->c, &r->s, &r->t, &e);
        r->p = p;
        r->q = q;
        r->er = creal(e);
        r->ei = cimag(e);
        r->app = app;
        r->aqq = aqq;
        r->ag = sqrt(ag2);
    }
    return nr;
}

/* w J and v J (v may be NULL): the column rotations of rot (contiguous). */
static void JFN(jcols)(JT *w, JT *v, int n, const jac_rot *rot, int nr) {
    for (int i = 0; i < nr; i++) {
        const jac_rot *r = &rot[i];
        const JA e = JFN(phase)(r);
        JFN(rotate)(n, w + (size_t)r->p * n, w + (size_t)r->q * n, r->c, r->s, e);
        if (v)
            JFN(rotate)(n, v + (size_t)r->p * n, v + (size_t)r->q * n, r->c, r->s, e);
    }
}

/* Each rotated pair's 2 x 2 block of w set to its exact diagonal form. */
static void JFN(jexact)(JT *w, int n, const jac_rot *rot, int nr) {
    for (int i = 0; i < nr; i++) {
        const jac_rot *r = &rot[i];
        w[(size_t)r->p * n + r->p] = (JT)(r->app - r->t * r->ag);
        w[(size_t)r->q * n + r->q] = (JT)(r->aqq + r->t * r->ag);
        w[(size_t)r->q * n + r->p] = w[(size_t)r->p * n + r->q] = 0;
    }
}

/* One round of the parallel ordering on the full Hermitian w (n x n): the
 * 2 x 2 problems of the disjoint pairs (p[i], q[i]) are solved from w as it
 * is (jparams), then w = J^H w J for J the product of their rotations: the
 * column rotations (contiguous), then the row rotations column by column
 * (each column's elements of every pair: contiguous too), then each pair's
 * 2 x 2 block set to its exact diagonal form. v (may be NULL) accumulates
 * J. Returns the pairs rotated. */
static int JFN(jround)(JT *w, JT *v, int n, const int *pp, const int *qq, int npairs,
                       double floor_abs, jac_rot *rot, JT *coef) {
    const int nr = JFN(jparams)(w, n, pp, qq, npairs, floor_abs, rot);
    JFN(jcols)(w, v, n, rot, nr);
    /* J^H (w J): rows p, q of every column: x' = c x - s e y, y' = s conj(e)
     * x + c y (the column rotation with the phase conjugated). */
    for (int i = 0; i < nr; i++) {
        const JA e = JFN(phase)(&rot[i]);
        coef[3 * i] = (JT)rot[i].c;
        coef[3 * i + 1] = (JT)(rot[i].s * e);
        coef[3 * i + 2] = (JT)(rot[i].s * JCONJ(e));
    }
    for (int k = 0; k < n; k++) {
        JT *col = w + (size_t)k * n;
        for (int i = 0; i < nr; i++) {
            const JT *cf = coef + 3 * i;
            const JT x = col[rot[i].p], y = col[rot[i].q];
            col[rot[i].p] = cf[0] * x - cf[1] * y;
            col[rot[i].q] = cf[2] * x + cf[0] * y;
        }
    }
    JFN(jexact)(w, n, rot, nr);
    return nr;
}

/* The Frobenius norm of the off-diagonal of the n x n w. */
static double JFN(offnorm)(const JT *w, int n) {
    double off = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (i != j)
                off += JABS2((JA)w[(size_t)j * n + i]);
    return sqrt(off);
}

/* The scalar method's sweeps on the full n x n w (and v), from sweep 0
 * until converged, nothing rotated, or max_sweeps. Returns info (0 or
 * n + 1); *off is the off-diagonal norm at exit. */
static int JFN(jscalar)(JT *w, JT *v, int n, double norm, double tol, int max_sweeps, int *players,
                        jac_rot *rot, JT *coef, int *sweeps, double *off) {
    const int m = n + (n & 1); /* players of the tournament: n, plus a bye when odd */
    int *pp = players + m, *qq = pp + m / 2;
    const double floor_abs = JEPS * norm / n;
    for (int sweep = 0;; sweep++) {
        *off = JFN(offnorm)(w, n);
        if (*off <= tol * norm)
            return 0;
        if (sweep == max_sweeps)
            return n + 1;
        *sweeps = sweep + 1;
        int rotated = 0;
        for (int i = 0; i < m; i++)
            players[i] = i;
        for (int round = 0; round < m - 1; round++) {
            const int np = jac_round(players, m, n, pp, qq);
            rotated += JFN(jround)(w, v, n, pp, qq, np, floor_abs, rot, coef);
        }
        if (!rotated) { /* nothing left above the working precision */
            *off = JFN(offnorm)(w, n);
            return 0;
        }
    }
}

/* Ascending eigenvalues (cuSOLVER's syevj always sorts) from order's
 * values (index j: column j of v, n x n, leading dimension n), scaled back
 * by 2^ex, after the polish of v (scratch: 2 n^2 elements or NULL); with
 * vectors, A receives v. Returns 0 or JAC_NOMEM (posted to msg). */
static int JFN(jfinish)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int ex, jac_pair *order,
                        JT *v, JT *scratch) {
    const int n = d->n;
    if (v && jac_polish(JDT, n, v, scratch, msg) != 0)
        return JAC_NOMEM;
    qsort(order, (size_t)n, sizeof(jac_pair), jac_ascending);
    JR *ev = d->w;
    for (int j = 0; j < n; j++)
        ev[j] = (JR)ldexp(order[j].value, ex);
    if (v) {
        JT *out = d->a;
        for (int j = 0; j < n; j++)
            memcpy(out + (size_t)j * d->lda, v + (size_t)order[j].index * n,
                   (size_t)n * sizeof(JT));
    }
    return 0;
}

/* ---- the blocked method (solver_jacobi.c says why and how) ---------------------------- */

/* x' = c x - sp y, y' = sm x + c y elementwise over len (the row rotations
 * of jcross); separate, non-overlapping runs, so the loop vectorizes. For
 * complex types the products are written out (C's complex product checks
 * for NaN and does not vectorize; for finite operands the values are the
 * same). */
static void JFN(jrowrun)(int len, JT *restrict x, JT *restrict y, const JR *restrict c,
                         const JT *restrict sp, const JT *restrict sm) {
#if JCX
    JR *xr = (JR *)x, *yr = (JR *)y;
    const JR *pr = (const JR *)sp, *mr = (const JR *)sm;
    for (int i = 0; i < len; i++) {
        const JR a = xr[2 * i], ai = xr[2 * i + 1], g = yr[2 * i], gi = yr[2 * i + 1];
        const JR u = pr[2 * i], ui = pr[2 * i + 1], d = mr[2 * i], di = mr[2 * i + 1];
        xr[2 * i] = c[i] * a - (u * g - ui * gi);
        xr[2 * i + 1] = c[i] * ai - (u * gi + ui * g);
        yr[2 * i] = (d * a - di * ai) + c[i] * g;
        yr[2 * i + 1] = (d * ai + di * a) + c[i] * gi;
    }
#else
    for (int i = 0; i < len; i++) {
        const JT a = x[i], g = y[i];
        x[i] = c[i] * a - sp[i] * g;
        y[i] = sm[i] * a + c[i] * g;
    }
#endif
}

/* Cross round r of a visit to two blocks of b indices each (h, q: 2b x 2b,
 * packed): the pairs (i, b + (i + r) mod b), i < b; as jround, but the row
 * rotations run as two contiguous runs per column (rows i < b - r against
 * rows b + r + i, the others against rows r + i) that vectorize. A skipped
 * pair's rows get c = 1, s = 0, which leaves their values as they are.
 * cf holds 3 b reals' room (c) and 2 b elements (s e, s conj(e)). Returns
 * the pairs rotated. */
static int JFN(jcross)(JT *h, JT *q, int b, int r, double floor_abs, int *pp, int *qq, jac_rot *rot,
                       JT *cf) {
    const int s = 2 * b;
    for (int i = 0; i < b; i++) {
        pp[i] = i;
        qq[i] = b + (i + r) % b;
    }
    const int nr = JFN(jparams)(h, s, pp, qq, b, floor_abs, rot);
    if (!nr)
        return 0;
    JFN(jcols)(h, q, s, rot, nr);
    JT *sp = cf, *sm = sp + b;
    JR *c = (JR *)(sm + b);
    for (int i = 0; i < b; i++) {
        c[i] = 1;
        sp[i] = sm[i] = 0;
    }
    for (int k = 0; k < nr; k++) {
        const int i = rot[k].p;
        const JA e = JFN(phase)(&rot[k]);
        c[i] = (JR)rot[k].c;
        sp[i] = (JT)(rot[k].s * e);
        sm[i] = (JT)(rot[k].s * JCONJ(e));
    }
    for (int k = 0; k < s; k++) {
        JT *col = h + (size_t)k * s;
        JFN(jrowrun)(b - r, col, col + b + r, c, sp, sm);
        JFN(jrowrun)(r, col + b - r, col + b, c + b - r, sp + b - r, sm + b - r);
    }
    JFN(jexact)(h, s, rot, nr);
    return nr;
}

/* One visit of the blocked sweep to the pair of blocks I, J of b indices
 * each: scalar Jacobi on their 2b x 2b Hermitian subproblem h (packed, I's
 * indices first), its rotations accumulated in q (packed, set to I here).
 * It rotates each pair (p in I, q in J) once, in b cross rounds of b
 * disjoint pairs, preceded, when diag_i (diag_j) is set, by the pairs
 * inside I (J) in the round-robin ordering, so that a sweep meets every
 * pair of indices exactly once, as the scalar method's does. players holds
 * 4 b + 4 ints, rot b, coef 3 b. Returns the rotations applied. */
static long JFN(jvisit)(JT *h, JT *q, int b, int diag_i, int diag_j, double floor_abs, int *players,
                        jac_rot *rot, JT *coef) {
    const int s = 2 * b, mb = b + (b & 1);
    for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++)
            q[(size_t)j * s + i] = i == j ? 1 : 0;
    int *pi = players, *pj = pi + mb, *pp = pj + mb, *qq = pp + b + 1;
    long total = 0;
    if (diag_i || diag_j) { /* both blocks' tournaments side by side */
        for (int k = 0; k < mb; k++)
            pi[k] = pj[k] = k;
        for (int r = 0; r < mb - 1; r++) {
            int np = 0;
            if (diag_i)
                np += jac_round(pi, mb, b, pp, qq);
            if (diag_j) {
                const int k = jac_round(pj, mb, b, pp + np, qq + np);
                for (int x = np; x < np + k; x++) {
                    pp[x] += b;
                    qq[x] += b;
                }
                np += k;
            }
            total += JFN(jround)(h, q, s, pp, qq, np, floor_abs, rot, coef);
        }
    }
    for (int r = 0; r < b; r++)
        total += JFN(jcross)(h, q, b, r, floor_abs, pp, qq, rot, coef);
    return total;
}

/* Element (i, j) of the Hermitian matrix held by d (its uplo triangle),
 * scaled by sc (as the scalar method's copy); the diagonal's imaginary part
 * dropped. */
static JT JFN(input)(const trn_solver_eigen_desc *d, int i, int j, double sc) {
    const JT *a = d->a;
    const size_t lda = (size_t)d->lda;
    if (i == j)
        return (JT)JRE((JT)(sc * (JA)a[(size_t)j * lda + j]));
    const int mine = d->lower ? i > j : i < j;
    const JT x = (JT)(sc * (JA)a[mine ? (size_t)j * lda + i : (size_t)i * lda + j]);
    return mine ? x : JCONJ(x);
}

/* The offset of the b x b block at slots (k, l) of a slot-ordered matrix
 * (np x np, leading dimension np). */
static inline size_t JFN(blk)(int np, int b, int k, int l) {
    return (size_t)l * b * np + (size_t)k * b;
}

/* x in the seating arr from the input held by d, the padding zero: the
 * blocks (k, l) with k / 2 >= l / 2, the lower triangle of pair tiles. */
static void JFN(jfill)(const trn_solver_eigen_desc *d, double sc, JT *x, int np, int b, int m,
                       const int *arr) {
    const int n = d->n;
    for (int l = 0; l < m; l++)
        for (int k = l & ~1; k < m; k++) {
            JT *o = x + JFN(blk)(np, b, k, l);
            for (int c = 0; c < b; c++)
                for (int r = 0; r < b; r++) {
                    const int i = arr[k] * b + r, j = arr[l] * b + c;
                    o[(size_t)c * np + r] = i < n && j < n ? JFN(input)(d, i, j, sc) : (JT)0;
                }
        }
}

/* dst in the seating arr from src in the seating whose inverse is where
 * (block -> slot): each block dst stores is the same pair of blocks of src,
 * read transposed and conjugated where src stores the other triangle. */
static void JFN(jpermute)(const JT *src, JT *dst, int np, int b, int m, const int *arr,
                          const int *where) {
    for (int l = 0; l < m; l++)
        for (int k = l & ~1; k < m; k++) {
            const int ks = where[arr[k]], ls = where[arr[l]];
            JT *o = dst + JFN(blk)(np, b, k, l);
            if (ks / 2 >= ls / 2) {
                const JT *in = src + JFN(blk)(np, b, ks, ls);
                for (int c = 0; c < b; c++)
                    memcpy(o + (size_t)c * np, in + (size_t)c * np, (size_t)b * sizeof(JT));
            } else {
                const JT *in = src + JFN(blk)(np, b, ls, ks);
                for (int c = 0; c < b; c++)
                    for (int r = 0; r < b; r++)
                        o[(size_t)c * np + r] = JCONJ(in[(size_t)r * np + c]);
            }
        }
}

/* The Frobenius norm of the Hermitian matrix whose lower triangle of pair
 * tiles (s x s) x holds: of its off-diagonal (with_diag 0), or all of it. */
static double JFN(jnorm)(const JT *x, int np, int s, int with_diag) {
    const int tiles = np / s;
    double sum = 0.0;
    for (int q = 0; q < tiles; q++)
        for (int p = q; p < tiles; p++) {
            const JT *t = x + (size_t)q * s * np + (size_t)p * s;
            double ts = 0.0;
            for (int c = 0; c < s; c++)
                for (int r = 0; r < s; r++)
                    if (with_diag || p != q || r != c)
                        ts += JABS2((JA)t[(size_t)c * np + r]);
            sum += p == q ? ts : 2.0 * ts;
        }
    return sqrt(sum);
}

/* One round of a block sweep on w (seating arr): each pair's visit from its
 * diagonal tile, then w <- Q^H w Q on the lower triangle of pair tiles (w2
 * = w Q down each pair's columns, then w = Q^H w2 along each pair's rows,
 * one GEMM each; a pair that rotated nothing is copied), each diagonal
 * tile replaced by its visit's result, and v <- v Q (v: n x np, block X's
 * columns at X b). diag flags the blocks whose inner pairs are still to be
 * met this sweep; hq holds 2 s^2 per pair (h, q), t n s. Returns the
 * rotations applied. */
static long JFN(jbround)(JT *w, JT *w2, JT *v, int n, int np, int b, int m, const int *arr,
                         int *diag, int *ident, double floor_abs, JT *hq, JT *t, int *players,
                         jac_rot *rot, JT *coef) {
    const int s = 2 * b, pairs = m / 2;
    const size_t ss = (size_t)s * s, es = sizeof(JT);
    long rotated = 0;
    for (int p = 0; p < pairs; p++) {
        JT *h = hq + 2 * ss * p, *q = h + ss;
        const JT *tile = w + JFN(blk)(np, b, 2 * p, 2 * p);
        for (int c = 0; c < s; c++)
            memcpy(h + (size_t)c * s, tile + (size_t)c * np, s * es);
        const long r = JFN(jvisit)(h, q, b, diag[arr[2 * p]], diag[arr[2 * p + 1]], floor_abs,
                                   players, rot, coef);
        diag[arr[2 * p]] = diag[arr[2 * p + 1]] = 0;
        ident[p] = r == 0;
        rotated += r;
    }
    if (!rotated)
        return 0; /* w stays as it is */
    for (int q = 0; q < pairs; q++) {
        const size_t o = JFN(blk)(np, b, 2 * q, 2 * q);
        const int rows = np - q * s;
        if (ident[q])
            for (int c = 0; c < s; c++)
                memcpy(w2 + o + (size_t)c * np, w + o + (size_t)c * np, (size_t)rows * es);
        else
            trn_blas_gemm(JDT, CblasNoTrans, CblasNoTrans, rows, s, s, 1.0, w + o, np,
                          hq + 2 * ss * q + ss, s, 0.0, w2 + o, np);
    }
    for (int p = 0; p < pairs; p++) {
        const size_t o = (size_t)p * s;
        const int cols = (p + 1) * s;
        const JT *h = hq + 2 * ss * p;
        if (ident[p]) {
            for (int c = 0; c < cols; c++)
                memcpy(w + o + (size_t)c * np, w2 + o + (size_t)c * np, s * es);
            continue;
        }
        trn_blas_gemm(JDT, CblasConjTrans, CblasNoTrans, s, cols, s, 1.0, h + ss, s, w2 + o, np,
                      0.0, w + o, np);
        /* The visit's tile: Q^H h Q as the rotations left it, Hermitian to
         * rounding, rather than the GEMMs' recomputation. */
        JT *tile = w + JFN(blk)(np, b, 2 * p, 2 * p);
        for (int c = 0; c < s; c++)
            memcpy(tile + (size_t)c * np, h + (size_t)c * s, s * es);
    }
    if (v)
        for (int p = 0; p < pairs; p++) {
            if (ident[p])
                continue;
            JT *vi = v + (size_t)arr[2 * p] * b * n, *vj = v + (size_t)arr[2 * p + 1] * b * n;
            const JT *q = hq + 2 * ss * p + ss;
            memcpy(t, vi, (size_t)n * b * es);
            memcpy(t + (size_t)n * b, vj, (size_t)n * b * es);
            trn_blas_gemm(JDT, CblasNoTrans, CblasNoTrans, n, b, s, 1.0, t, n, q, s, 0.0, vi, n);
            trn_blas_gemm(JDT, CblasNoTrans, CblasNoTrans, n, b, s, 1.0, t, n, q + (size_t)b * s, s,
                          0.0, vj, n);
        }
    return rotated;
}

/* The blocked method's sweeps on w (seating arr, where: updated as the
 * seating moves; players: the tournament), from sweep 0 until converged, a
 * sweep rotated nothing, or max_sweeps. Returns info (0 or n + 1); *off is
 * the off-diagonal norm at exit, *w the current matrix (w and w2 trade
 * places every round). */
static int JFN(jbsweeps)(JT **w, JT **w2, JT *v, int n, int np, int b, int m, double norm,
                         double tol, int max_sweeps, int *players, int **arr, int **where,
                         int **arr2, int **where2, int *diag, int *ident, JT *hq, JT *t, int *ipl,
                         jac_rot *rot, JT *coef, int *sweeps, double *off) {
    const int s = 2 * b;
    const double floor_abs = JEPS * norm / n;
    for (int sweep = 0;; sweep++) {
        *off = JFN(jnorm)(*w, np, s, 0);
        if (*off <= tol * norm)
            return 0;
        if (sweep == max_sweeps)
            return n + 1;
        *sweeps = sweep + 1;
        long rotated = 0;
        for (int k = 0; k < m; k++)
            diag[k] = 1;
        for (int round = 0; round < m - 1; round++) {
            rotated += JFN(jbround)(*w, *w2, v, n, np, b, m, *arr, diag, ident, floor_abs, hq, t,
                                    ipl, rot, coef);
            /* The next round's seating, and w rearranged to it. */
            jac_advance(players, m);
            jac_arrange(players, m, *arr2, *where2);
            JFN(jpermute)(*w, *w2, np, b, m, *arr2, *where);
            JT *x = *w;
            *w = *w2;
            *w2 = x;
            int *y = *arr;
            *arr = *arr2;
            *arr2 = y;
            y = *where;
            *where = *where2;
            *where2 = y;
        }
        if (!rotated) { /* nothing left above the working precision */
            *off = JFN(jnorm)(*w, np, s, 0);
            return 0;
        }
    }
}

/* syevj by blocks: nblk (even) blocks of b = ceil(n / nblk) indices, the
 * matrix padded with zeros to np = nblk b. One allocation holds the
 * workspace. Returns info (0, n + 1) or JAC_NOMEM (posted to msg). */
static int JFN(syevj_blocked)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int nblk, int *sweeps,
                              double *residual) {
    const int n = d->n, m = nblk, pairs = m / 2;
    const int b = (n + m - 1) / m, np = m * b, s = 2 * b;
    const size_t npp = (size_t)np * (size_t)np, ss = (size_t)s * (size_t)s;
    /* w, w2, v, the pairs' h and q, the gather buffer t, the visit's
     * coefficients; the rotations; the eigenvalue order; the ints (the
     * tournament, two seatings and their inverses, the block and pair
     * flags, the visit's players). */
    const size_t nel = 2 * npp + (d->vectors ? (size_t)n * np : 0) + 2 * ss * pairs +
                       (size_t)n * s + 3 * ((size_t)b + 1);
    const size_t nints = 7 * (size_t)m + 4 * (size_t)b + 4;
    const size_t o_rot = (nel * sizeof(JT) + 63) & ~(size_t)63;
    const size_t o_order = o_rot + (((size_t)b + 1) * sizeof(jac_rot) + 63) / 64 * 64;
    const size_t o_int = o_order + ((size_t)n * sizeof(jac_pair) + 63) / 64 * 64;
    const size_t bytes = o_int + nints * sizeof(int);
    char *ws = trn_solver_alloc(bytes, 1);
    if (!ws) {
        trn_kmsg_no_memory(msg, 0, bytes, "syevj's working copy of A%s (n %d, %d blocks of %d)",
                           d->vectors ? " and V" : "", n, m, b);
        return JAC_NOMEM;
    }
    JT *w = (JT *)ws, *w2 = w + npp, *v = d->vectors ? w2 + npp : NULL;
    JT *hq = w2 + npp + (d->vectors ? (size_t)n * np : 0), *t = hq + 2 * ss * pairs;
    JT *coef = t + (size_t)n * s;
    jac_rot *rot = (jac_rot *)(ws + o_rot);
    jac_pair *order = (jac_pair *)(ws + o_order);
    int *players = (int *)(ws + o_int), *arr = players + m, *where = arr + m, *arr2 = where + m;
    int *where2 = arr2 + m, *diag = where2 + m, *ident = diag + m, *ipl = ident + m;

    /* Scaled by a power of two so that squares neither overflow nor
     * underflow (exact). */
    const int ex = JFN(exponent)(d->a, d->lda, n, n, d->lower);
    for (int i = 0; i < m; i++)
        players[i] = i;
    jac_arrange(players, m, arr, where);
    JFN(jfill)(d, ldexp(1.0, -ex), w, np, b, m, arr);
    if (v) { /* I, and zero in the padding's columns */
        memset(v, 0, (size_t)n * np * sizeof(JT));
        for (int j = 0; j < n; j++)
            v[(size_t)j * n + j] = 1;
    }
    const double norm = JFN(jnorm)(w, np, s, 1);
    double off = 0.0;
    const int info =
        JFN(jbsweeps)(&w, &w2, v, n, np, b, m, norm, d->tol, d->max_sweeps, players, &arr, &where,
                      &arr2, &where2, diag, ident, hq, t, ipl, rot, coef, sweeps, &off);
    *residual = ldexp(off, ex);
    for (int i = 0; i < n; i++) {
        const int k = where[i / b] * b + i % b;
        order[i].value = JRE(w[(size_t)k * np + k]);
        order[i].index = i;
    }
    /* w and w2 (2 np^2 >= 2 n^2) are free now: the polish's scratch. */
    const int rc = JFN(jfinish)(d, msg, ex, order, v, w < w2 ? w : w2);
    free(ws);
    return rc ? rc : info;
}

/* Jacobi on the Hermitian matrix held by d (its uplo triangle): the blocked
 * method from 4 blocks on (jac_blocks), else the scalar one. Returns info:
 * 0, n + 1 without convergence; JAC_NOMEM (posted to msg). */
static int JFN(syevj)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int *sweeps,
                      double *residual) {
    const int n = d->n;
    const int lda = d->lda;
    const JT *a = d->a;
    *sweeps = 0;
    *residual = 0.0;
    if (n == 0)
        return 0;
    const int nblk = jac_blocks(n);
    if (nblk)
        return JFN(syevj_blocked)(d, msg, nblk, sweeps, residual);
    const int m = n + (n & 1);
    JT *w = trn_solver_alloc((size_t)n * (size_t)n, sizeof(JT));
    JT *v = d->vectors ? trn_solver_alloc((size_t)n * (size_t)n, sizeof(JT)) : NULL;
    jac_pair *order = trn_solver_alloc((size_t)n, sizeof(jac_pair));
    int *players = trn_solver_alloc((size_t)m * 2, sizeof(int));
    jac_rot *rot = trn_solver_alloc((size_t)m / 2, sizeof(jac_rot));
    JT *coef = trn_solver_alloc((size_t)m / 2 * 3, sizeof(JT));
    if (!w || (d->vectors && !v) || !order || !players || !rot || !coef) {
        free(w);
        free(v);
        free(order);
        free(players);
        free(rot);
        free(coef);
        const size_t nn = (size_t)n * (size_t)n;
        trn_kmsg_no_memory(msg, 0,
                           nn * sizeof(JT) * (d->vectors ? 2 : 1) + (size_t)n * sizeof(jac_pair) +
                               (size_t)m * 2 * sizeof(int) + (size_t)m / 2 * sizeof(jac_rot) +
                               (size_t)m / 2 * 3 * sizeof(JT),
                           "syevj's working copy of A%s (n %d)", d->vectors ? " and V" : "", n);
        return JAC_NOMEM;
    }
    /* The full matrix from the triangle, scaled by a power of two so that
     * squares neither overflow nor underflow (exact). */
    const int ex = JFN(exponent)(a, lda, n, n, d->lower);
    const double sc = ldexp(1.0, -ex);
    for (int j = 0; j < n; j++)
        for (int i = d->lower ? j : 0; i < (d->lower ? n : j + 1); i++) {
            const JT x = (JT)(sc * (JA)a[(size_t)j * lda + i]);
            if (i == j) {
                w[(size_t)j * n + j] = (JT)JRE(x);
            } else {
                w[(size_t)j * n + i] = x;
                w[(size_t)i * n + j] = JCONJ(x);
            }
        }
    JFN(identity)(v, n);
    const double norm = JFN(fro)(w, (size_t)n * (size_t)n);
    double off = 0.0;
    const int info =
        JFN(jscalar)(w, v, n, norm, d->tol, d->max_sweeps, players, rot, coef, sweeps, &off);
    free(players);
    free(rot);
    free(coef);
    *residual = ldexp(off, ex);
    for (int j = 0; j < n; j++) {
        order[j].value = JRE(w[(size_t)j * n + j]);
        order[j].index = j;
    }
    free(w);
    const int rc = JFN(jfinish)(d, msg, ex, order, v, NULL);
    free(v);
    free(order);
    return rc ? rc : info;
}

/* One-sided Jacobi SVD. Returns info: 0, min(m, n) + 1 without
 * convergence, -5 for non-finite input, JAC_NOMEM (posted to msg),
 * JAC_FAILED. */
static int JFN(gesvdj)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int *sweeps,
                       double *residual) {
    const int m = d->m, n = d->n, lda = d->lda;
    const int tall = m >= n;
    const int nr = tall ? m : n, nc = tall ? n : m; /* B = A (tall) or A^H */
    const JT *a = d->a;
    *sweeps = 0;
    *residual = 0.0;
    if (nc == 0)
        return 0;
    JT *b = trn_solver_alloc((size_t)nr * (size_t)nc, sizeof(JT));
    JT *v = d->vectors ? trn_solver_alloc((size_t)nc * (size_t)nc, sizeof(JT)) : NULL;
    double *nrm = trn_solver_alloc((size_t)nc, sizeof(double));
    jac_pair *order = trn_solver_alloc((size_t)nc, sizeof(jac_pair));
    if (!b || (d->vectors && !v) || !nrm || !order) {
        free(b);
        free(v);
        free(nrm);
        free(order);
        trn_kmsg_no_memory(
            msg, 0,
            ((size_t)nr * (size_t)nc + (d->vectors ? (size_t)nc * (size_t)nc : 0)) * sizeof(JT) +
                (size_t)nc * (sizeof(double) + sizeof(jac_pair)),
            "gesvdj's working copy of A%s (%d x %d)", d->vectors ? " and V" : "", m, n);
        return JAC_NOMEM;
    }
    const int ex = JFN(exponent)(a, lda, m, n, -1);
    const double sc = ldexp(1.0, -ex);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const JT x = (JT)(sc * (JA)a[(size_t)j * lda + i]);
            if (tall)
                b[(size_t)j * nr + i] = x;
            else
                b[(size_t)i * nr + j] = JCONJ(x);
        }
    JFN(identity)(v, nc);
    const double norm = JFN(fro)(b, (size_t)nr * (size_t)nc);

    int info = nc + 1;
    double esum = 0.0;
    for (int sweep = 0; sweep < d->max_sweeps; sweep++) {
        for (int j = 0; j < nc; j++)
            nrm[j] = JRE(JFN(dotc)(nr, b + (size_t)j * nr, b + (size_t)j * nr));
        esum = 0.0;
        int rotated = 0;
        for (int p = 0; p < nc - 1; p++)
            for (int q = p + 1; q < nc; q++) {
                const double al = nrm[p], be = nrm[q];
                if (al == 0 || be == 0)
                    continue;
                JT *bp = b + (size_t)p * nr, *bq = b + (size_t)q * nr;
                const JA g = JFN(dotc)(nr, bp, bq);
                const double ag2 = JABS2(g);
                /* The off-diagonal of U^H A V = S + E that this pair adds
                 * (U = B S^-1): |g|^2 (1/al + 1/be). */
                esum += ag2 * (1.0 / al + 1.0 / be);
                if (ag2 == 0 || ag2 <= JEPS * JEPS * al * be)
                    continue;
                double c, s, t;
                JA e;
                JFN(schur2)(al, be, g, &c, &s, &t, &e);
                JFN(rotate)(nr, bp, bq, c, s, e);
                if (v)
                    JFN(rotate)(nc, v + (size_t)p * nc, v + (size_t)q * nc, c, s, e);
                const double ag = sqrt(ag2);
                nrm[p] = al - t * ag;
                nrm[q] = be + t * ag;
                rotated = 1;
            }
        *sweeps = sweep + 1;
        if (!rotated || sqrt(esum) <= d->tol * norm) {
            info = 0;
            break;
        }
    }
    *residual = ldexp(sqrt(esum), ex);

    if (v && jac_polish(JDT, nc, v, NULL, msg) != 0) {
        free(b);
        free(v);
        free(nrm);
        free(order);
        return JAC_NOMEM;
    }
    /* Singular values: the column norms, descending. */
    for (int j = 0; j < nc; j++) {
        order[j].value = sqrt(JRE(JFN(dotc)(nr, b + (size_t)j * nr, b + (size_t)j * nr)));
        order[j].index = j;
    }
    qsort(order, (size_t)nc, sizeof(jac_pair), jac_descending);
    JR *sv = d->w;
    int rank = 0;
    for (int j = 0; j < nc; j++) {
        sv[j] = (JR)ldexp(order[j].value, ex);
        if (order[j].value > 0)
            rank = j + 1;
    }
    int rc = info;
    if (d->vectors) {
        /* Left vectors of B: its normalised columns; right vectors: v. For a
         * wide A (B = A^H) they swap roles. */
        JT *ub = tall ? d->u : d->v; /* receives B's left vectors */
        const int ldub = tall ? d->ldu : d->ldv;
        const int ub_cols = tall ? (d->econ ? nc : m) : (d->econ ? nc : n);
        JT *vb = tall ? d->v : d->u; /* receives v */
        const int ldvb = tall ? d->ldv : d->ldu;
        for (int j = 0; j < nc; j++) {
            const JT *src = b + (size_t)order[j].index * nr;
            JT *dst = ub + (size_t)j * ldub;
            const double sj = order[j].value;
            for (int i = 0; i < nr; i++)
                dst[i] = sj > 0 ? (JT)((JA)src[i] / sj) : 0;
            memcpy(vb + (size_t)j * ldvb, v + (size_t)order[j].index * nc, (size_t)nc * sizeof(JT));
        }
        if (rank < ub_cols) {
            const int c = jac_complete(JDT, nr, rank, ub_cols, ub, ldub, msg);
            if (c != 0)
                rc = c;
        }
    }
    free(b);
    free(v);
    free(nrm);
    free(order);
    return rc;
}

#undef JCONJ
#undef JABS2
#undef JRE
#undef JFN
#undef JCAT
#undef JCAT2
/* The parameters too: the next instantiation defines its own. */
#undef JT
#undef JR
#undef JA
#undef JSUF
#undef JCX
#undef JDT
#undef JEPS
