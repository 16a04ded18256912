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
 * by 2^ex, after the polish of v; with vectors, A receives v. Returns 0 or
 * JAC_NOMEM (posted to msg). */
static int JFN(jfinish)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int ex, jac_pair *order,
                        JT *v) {
    const int n = d->n;
    if (v && jac_polish(JDT, n, v, msg) != 0)
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

/* Jacobi on the Hermitian matrix held by d (its uplo triangle), in the
 * parallel (round-robin) ordering. Returns info: 0, n + 1 without
 * convergence; JAC_NOMEM (posted to msg). */
static int JFN(syevj)(const trn_solver_eigen_desc *d, trn_kmsg *msg, int *sweeps,
                      double *residual) {
    const int n = d->n;
    const int lda = d->lda;
    const JT *a = d->a;
    *sweeps = 0;
    *residual = 0.0;
    if (n == 0)
        return 0;
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
    const int rc = JFN(jfinish)(d, msg, ex, order, v);
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

    if (v && jac_polish(JDT, nc, v, msg) != 0) {
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
