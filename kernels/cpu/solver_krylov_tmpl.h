/*
 * solver_krylov_tmpl.h — CG, restarted GMRES and BiCGStab for one working
 * precision; included by solver_krylov.c with these macros defined:
 *   KT    the vector element type (float or double)
 *   KSUF  name suffix (s or d)
 *   KK    the problem type (trn_kry_s or trn_kry_d)
 *   KDOT  the accurate inner product (trn_sdot_acc or trn_ddot_acc)
 *   KACC, KACC_ADD, KACC_FIN  the same taken in pieces (trn_sacc, ...)
 * Scalars (step lengths, Hessenberg entries, rotations) are doubles in both
 * precisions. No include guard on purpose (the file undefines its
 * parameters at the end).
 */

#ifndef KCHUNK
#define KCHUNK 512 /* elements per piece of a fused loop: a multiple of 4 */
#endif

#define KCAT2(a, b) a##_##b
#define KCAT(a, b) KCAT2(a, b)
#define KFN(name) KCAT(name, KSUF)

static double KFN(nrm)(int n, const KT *x) {
    return sqrt(KDOT(n, x, x));
}

/* r = b - A x. */
static void KFN(resid)(const KK *k, const KT *b, const KT *x, KT *r) {
    k->apply(k->actx, x, r);
    for (int i = 0; i < k->n; i++)
        r[i] = b[i] - r[i];
}

static void KFN(prec)(const KK *k, const KT *r, KT *z) {
    if (k->prec)
        k->prec(k->pctx, r, z);
    else
        memcpy(z, r, (size_t)k->n * sizeof(KT));
}

/* The b = 0 case, common to the three: x = 0 solves it exactly. */
static int KFN(zero_rhs)(int n, KT *x, int *iters, double *relres) {
    memset(x, 0, (size_t)n * sizeof(KT));
    *iters = 0;
    *relres = 0.0;
    return TRN_SOLVER_ST_CONVERGED;
}

/* r = b - A x at the start: NONFINITE, CONVERGED (nothing to do) or
 * MAX_ITERS (iterate). */
static int KFN(first)(const KK *k, const KT *b, const KT *x, KT *r, double bn, double tol) {
    KFN(resid)(k, b, x, r);
    const double rn = KFN(nrm)(k->n, r);
    if (!isfinite(bn) || !isfinite(rn))
        return TRN_SOLVER_ST_NONFINITE;
    return rn / bn <= tol ? TRN_SOLVER_ST_CONVERGED : TRN_SOLVER_ST_MAX_ITERS;
}

/* The status from how the loop ended and the recomputed residual. */
static int KFN(final)(const KK *k, const KT *b, const KT *x, KT *r, double bn, double tol, int st,
                      double *relres) {
    KFN(resid)(k, b, x, r);
    *relres = KFN(nrm)(k->n, r) / bn;
    if (!isfinite(*relres))
        return TRN_SOLVER_ST_NONFINITE;
    if (st == TRN_SOLVER_ST_MAX_ITERS && *relres <= tol)
        return TRN_SOLVER_ST_CONVERGED;
    return st;
}

int KFN(trn_cg)(const KK *k, const KT *b, KT *x, double tol, int maxit, int *iters,
                double *relres) {
    const int n = k->n;
    const double bn = KFN(nrm)(n, b);
    *iters = 0;
    *relres = 0.0;
    if (bn == 0.0)
        return KFN(zero_rhs)(n, x, iters, relres);
    KT *r = trn_solver_alloc((size_t)n * 4, sizeof(KT));
    if (!r) {
        trn_kmsg_no_memory(k->msg, 0, (size_t)n * 4 * sizeof(KT), "the CG vectors (4 x %d)", n);
        return -1;
    }
    /* Without a preconditioner z is r itself (no copy) and r.z is r.r,
     * the dot the convergence test takes anyway. */
    KT *p = r + n, *q = p + n, *z = k->prec ? q + n : r;
    int it = 0;
    int st = KFN(first)(k, b, x, r, bn, tol);
    if (st != TRN_SOLVER_ST_MAX_ITERS)
        goto done;
    double rn, rr;
    if (k->prec)
        k->prec(k->pctx, r, z);
    memcpy(p, z, (size_t)n * sizeof(KT));
    double rz = KDOT(n, r, z);
    while (it < maxit) {
        double pq;
        if (k->apply_dot) {
            pq = k->apply_dot(k->actx, p, q);
        } else {
            k->apply(k->actx, p, q);
            pq = KDOT(n, p, q);
        }
        if (!isfinite(pq) || !isfinite(rz)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (!(pq > 0.0) || !(rz > 0.0)) {
            st = TRN_SOLVER_ST_BREAKDOWN; /* A or M is not positive definite */
            break;
        }
        const double alpha = rz / pq;
        KACC acc;
        memset(&acc, 0, sizeof(acc));
        for (int i0 = 0; i0 < n; i0 += KCHUNK) { /* r . r while r is in cache */
            const int i1 = n - i0 < KCHUNK ? n : i0 + KCHUNK;
            for (int i = i0; i < i1; i++) {
                x[i] += (KT)alpha * p[i];
                r[i] -= (KT)alpha * q[i];
            }
            KACC_ADD(&acc, i1 - i0, r + i0, r + i0);
        }
        it++;
        rr = KACC_FIN(&acc);
        rn = sqrt(rr);
        if (!isfinite(rn)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (rn / bn <= tol) {
            KFN(resid)(k, b, x, r); /* the recurrence may have drifted */
            rr = KDOT(n, r, r);
            rn = sqrt(rr);
            if (rn / bn <= tol) {
                st = TRN_SOLVER_ST_CONVERGED;
                break;
            }
            if (k->prec) /* residual replacement: restart the recurrence */
                k->prec(k->pctx, r, z);
            memcpy(p, z, (size_t)n * sizeof(KT));
            rz = k->prec ? KDOT(n, r, z) : rr;
            continue;
        }
        if (k->prec)
            k->prec(k->pctx, r, z);
        const double rz_new = k->prec ? KDOT(n, r, z) : rr;
        const double beta = rz_new / rz;
        rz = rz_new;
        for (int i = 0; i < n; i++)
            p[i] = z[i] + (KT)beta * p[i];
    }
done:
    *iters = it;
    st = KFN(final)(k, b, x, r, bn, tol, st, relres);
    free(r);
    return st;
}

int KFN(trn_gmres)(const KK *k, const KT *b, KT *x, double tol, int maxit, int m, int *iters,
                   double *relres) {
    const int n = k->n;
    const double bn = KFN(nrm)(n, b);
    *iters = 0;
    *relres = 0.0;
    if (bn == 0.0)
        return KFN(zero_rhs)(n, x, iters, relres);
    if (m < 1)
        m = 1;
    KT *v = trn_solver_alloc((size_t)n * (size_t)(m + 3), sizeof(KT));
    double *h = trn_solver_alloc((size_t)(m + 1) * (size_t)m + 4 * (size_t)m + 1, sizeof(double));
    if (!v || !h) {
        free(v);
        free(h);
        trn_kmsg_no_memory(k->msg, 0,
                           (size_t)n * (size_t)(m + 3) * sizeof(KT) +
                               ((size_t)(m + 1) * (size_t)m + 4 * (size_t)m + 1) * sizeof(double),
                           "the GMRES(%d) basis (%d x %d)", m, n, m + 3);
        return -1;
    }
    KT *w = v + (size_t)n * (size_t)(m + 1), *z = w + n;
    double *cs = h + (size_t)(m + 1) * (size_t)m, *sn = cs + m, *y = sn + m, *g = y + m;
#define H(i, j) h[(size_t)(j) * (size_t)(m + 1) + (size_t)(i)]
    int st = TRN_SOLVER_ST_MAX_ITERS, it = 0;
    KFN(resid)(k, b, x, w);
    double beta = KFN(nrm)(n, w);
    for (;;) {
        if (!isfinite(beta) || !isfinite(bn)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (beta / bn <= tol) {
            st = TRN_SOLVER_ST_CONVERGED;
            break;
        }
        if (it >= maxit)
            break;
        for (int i = 0; i < n; i++)
            v[i] = (KT)(w[i] / beta);
        g[0] = beta;
        int j = 0, stop = 0;
        while (j < m && it < maxit && !stop) {
            KT *vj = v + (size_t)j * (size_t)n;
            KFN(prec)(k, vj, z);
            k->apply(k->actx, z, w);
            for (int i = 0; i <= j; i++) { /* modified Gram-Schmidt */
                const KT *vi = v + (size_t)i * (size_t)n;
                const double hij = KDOT(n, w, vi);
                H(i, j) = hij;
                for (int l = 0; l < n; l++)
                    w[l] -= (KT)hij * vi[l];
            }
            const double hn = KFN(nrm)(n, w);
            H(j + 1, j) = hn;
            for (int i = 0; i < j; i++) { /* the earlier rotations */
                const double a = H(i, j), c = H(i + 1, j);
                H(i, j) = cs[i] * a + sn[i] * c;
                H(i + 1, j) = -sn[i] * a + cs[i] * c;
            }
            const double a = H(j, j), c = H(j + 1, j);
            const double rr = hypot(a, c);
            cs[j] = rr == 0.0 ? 1.0 : a / rr;
            sn[j] = rr == 0.0 ? 0.0 : c / rr;
            H(j, j) = rr;
            H(j + 1, j) = 0.0;
            g[j + 1] = -sn[j] * g[j];
            g[j] = cs[j] * g[j];
            j++;
            it++;
            if (!isfinite(hn) || !isfinite(g[j])) {
                st = TRN_SOLVER_ST_NONFINITE;
                stop = 2;
            } else if (hn == 0.0) {
                stop = 1; /* the Krylov space is invariant: the least-squares solution is exact */
            } else {
                KT *vn = v + (size_t)j * (size_t)n;
                for (int l = 0; l < n; l++)
                    vn[l] = (KT)(w[l] / hn);
                if (fabs(g[j]) / bn <= tol)
                    stop = 1;
            }
        }
        if (stop == 2)
            break;
        /* y = H(0:j, 0:j)^-1 g(0:j); a zero diagonal (singular A) drops
         * that direction. */
        for (int i = j - 1; i >= 0; i--) {
            double s = g[i];
            for (int l = i + 1; l < j; l++)
                s -= H(i, l) * y[l];
            y[i] = H(i, i) != 0.0 ? s / H(i, i) : 0.0;
        }
        for (int l = 0; l < n; l++)
            w[l] = 0;
        for (int i = 0; i < j; i++) {
            const KT *vi = v + (size_t)i * (size_t)n;
            for (int l = 0; l < n; l++)
                w[l] += (KT)y[i] * vi[l];
        }
        KFN(prec)(k, w, z);
        for (int l = 0; l < n; l++)
            x[l] += z[l];
        const double prev = beta;
        KFN(resid)(k, b, x, w);
        beta = KFN(nrm)(n, w);
        if (stop == 1 && beta / bn > tol && !(beta < prev)) {
            st = TRN_SOLVER_ST_BREAKDOWN; /* an invariant space that holds no better x */
            break;
        }
    }
#undef H
    *iters = it;
    st = KFN(final)(k, b, x, w, bn, tol, st, relres);
    free(v);
    free(h);
    return st;
}

int KFN(trn_bicgstab)(const KK *k, const KT *b, KT *x, double tol, int maxit, int *iters,
                      double *relres) {
    const int n = k->n;
    const double bn = KFN(nrm)(n, b);
    *iters = 0;
    *relres = 0.0;
    if (bn == 0.0)
        return KFN(zero_rhs)(n, x, iters, relres);
    KT *r = trn_solver_alloc((size_t)n * 7, sizeof(KT));
    if (!r) {
        trn_kmsg_no_memory(k->msg, 0, (size_t)n * 7 * sizeof(KT), "the BiCGStab vectors (7 x %d)",
                           n);
        return -1;
    }
    KT *r0 = r + n, *p = r0 + n, *v = p + n, *ph = v + n, *sh = ph + n, *t = sh + n;
    int it = 0;
    int st = KFN(first)(k, b, x, r, bn, tol);
    if (st != TRN_SOLVER_ST_MAX_ITERS)
        goto done;
    double rn;
    memcpy(r0, r, (size_t)n * sizeof(KT));
    double rho = 1.0, alpha = 1.0, omega = 1.0;
    memset(p, 0, (size_t)n * sizeof(KT));
    memset(v, 0, (size_t)n * sizeof(KT));
    while (it < maxit) {
        const double rho_new = KDOT(n, r0, r);
        if (!isfinite(rho_new)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (rho_new == 0.0 || omega == 0.0) {
            st = TRN_SOLVER_ST_BREAKDOWN;
            break;
        }
        const double beta = (rho_new / rho) * (alpha / omega);
        for (int i = 0; i < n; i++)
            p[i] = r[i] + (KT)beta * (p[i] - (KT)omega * v[i]);
        KFN(prec)(k, p, ph);
        k->apply(k->actx, ph, v);
        const double r0v = KDOT(n, r0, v);
        if (r0v == 0.0 || !isfinite(r0v)) {
            st = isfinite(r0v) ? TRN_SOLVER_ST_BREAKDOWN : TRN_SOLVER_ST_NONFINITE;
            break;
        }
        alpha = rho_new / r0v;
        for (int i = 0; i < n; i++)
            r[i] -= (KT)alpha * v[i]; /* r is now s */
        it++;
        if (KFN(nrm)(n, r) / bn <= tol) {
            for (int i = 0; i < n; i++)
                x[i] += (KT)alpha * ph[i];
            KFN(resid)(k, b, x, r);
            if (KFN(nrm)(n, r) / bn <= tol) {
                st = TRN_SOLVER_ST_CONVERGED;
                break;
            }
            memcpy(r0, r, (size_t)n * sizeof(KT)); /* restart from the true residual */
            rho = alpha = omega = 1.0;
            memset(p, 0, (size_t)n * sizeof(KT));
            memset(v, 0, (size_t)n * sizeof(KT));
            continue;
        }
        KFN(prec)(k, r, sh);
        k->apply(k->actx, sh, t);
        const double tt = KDOT(n, t, t), ts = KDOT(n, t, r);
        if (!isfinite(tt) || !isfinite(ts)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (tt == 0.0) {
            st = TRN_SOLVER_ST_BREAKDOWN;
            break;
        }
        omega = ts / tt;
        for (int i = 0; i < n; i++) {
            x[i] += (KT)alpha * ph[i] + (KT)omega * sh[i];
            r[i] -= (KT)omega * t[i];
        }
        rho = rho_new;
        rn = KFN(nrm)(n, r);
        if (!isfinite(rn)) {
            st = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (rn / bn <= tol) {
            KFN(resid)(k, b, x, r);
            if (KFN(nrm)(n, r) / bn <= tol) {
                st = TRN_SOLVER_ST_CONVERGED;
                break;
            }
            memcpy(r0, r, (size_t)n * sizeof(KT));
            rho = alpha = omega = 1.0;
            memset(p, 0, (size_t)n * sizeof(KT));
            memset(v, 0, (size_t)n * sizeof(KT));
        }
    }
done:
    *iters = it;
    st = KFN(final)(k, b, x, r, bn, tol, st, relres);
    free(r);
    return st;
}

#undef KFN
#undef KCAT
#undef KCAT2
/* The parameters too: the next instantiation defines its own. */
#undef KT
#undef KSUF
#undef KK
#undef KDOT
#undef KACC
#undef KACC_ADD
#undef KACC_FIN
