/*
 * solver_irs.c — cuSOLVER's mixed-precision iterative refinement solvers
 * (IRS): for a general A X = B, trnsolverDn<t1><t2>gesv and
 * trnsolverDnIRSXgesv (docs/numerics.md, "IRS gesv"); for the full-rank
 * least-squares problem min ||A X - B|| with A m x n, m >= n,
 * trnsolverDn<t1><t2>gels and trnsolverDnIRSXgels (at the end of the file:
 * a Householder QR in the lower precision, the augmented-system refinement,
 * the same niters codes with -3 for an FP32 R with a zero diagonal entry,
 * and the fallback's main-precision QR, whose exactly zero R(i,i) gives
 * info = i; GMRES refinements run the classical one for gels).
 *
 * The LU factorisation with partial pivoting is made in a lower precision
 * and X refined in the main one (the type of A, B and X), as LAPACK's dsgesv:
 *
 *   LU = P (A rounded to the lowest format), in FP32 arithmetic;
 *   x0 = U \ L \ P b (FP32 triangular solves);
 *   repeat: r = b - A x (main precision); stop when for every column
 *           ||r||_inf <= ||x||_inf ||A||_inf tol (tol defaults to sqrt(n)
 *           times the main precision's unit roundoff); c = LU \ r (FP32);
 *           x += c.
 *
 * With a GMRES refinement each correction instead comes from one
 * GMRES(m) cycle on A d = r right-preconditioned by the LU (gm_cycle), and
 * niters counts GMRES steps.
 *
 * The lowest formats binary16, bfloat16 and TF32 are emulated: each entry
 * of A is rounded to FP32 and then to the format (kernels/cpu/lowprec.h),
 * and that matrix is factorised in FP32. What a Tensor Engine would round
 * inside the factorisation is not modelled; the factor therefore carries
 * the format's representation error of A, which is what limits the
 * convergence rate (about kappa(A) u_low per step).
 *
 * niters, as cuSOLVER reports it: > 0 refinement steps taken; 0 when the
 * lowest precision is the main one (a plain LU solve in it) or with
 * refinement NONE; negative when refinement failed: -2 an entry of A does
 * not fit the lowest format, -3 the low-precision LU met a zero pivot, -5
 * a non-finite residual or correction, -max_iters no convergence. After a
 * failure A X = B is solved again by an LU in the main precision unless
 * the fallback is disabled (X is then the last iterate, unspecified for -2
 * and -3). info = i > 0: U(i,i) of the main-precision LU is exactly zero.
 * The pivots of the LU whose solution X is (low or main precision) go to
 * ipiv when given. A, B are only read (B through a copy, so X may be B).
 * One core; workspace allocated here
 * (without memory the op fails with TRN_KSTATUS_NO_MEMORY, naming the
 * amount).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/lowprec.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define COL LAPACK_COL_MAJOR
#define NOMEM (-1)

/* cuSOLVER's negative niters. */
#define IRS_OVERFLOW_A (-2)
#define IRS_LU_FAILED (-3)
#define IRS_NONFINITE (-5)

/* Component k of a double (dbl) or float array. */
static double comp(const void *p, size_t k, int dbl) {
    return dbl ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

static void set_comp(void *p, size_t k, int dbl, double v) {
    if (dbl)
        ((double *)p)[k] = v;
    else
        ((float *)p)[k] = (float)v;
}

/* |element| of an array of nc components per element (1 real, 2 complex). */
static double elem_abs(const void *p, size_t e, int nc, int dbl) {
    return nc == 1 ? fabs(comp(p, e, dbl)) : hypot(comp(p, 2 * e, dbl), comp(p, 2 * e + 1, dbl));
}

/* v rounded to the lowest format (through FP32); infinite when it does not
 * fit. */
static float round_low(trn_irs_prec p, double v) {
    const float f = (float)v;
    switch (p) {
    case TRN_IRS_PREC_16F: return lp_fp16(f);
    case TRN_IRS_PREC_16BF: return lp_bf16(f);
    case TRN_IRS_PREC_TF32: return lp_round_rne(f, LP_TF32_DROP);
    default: return f;
    }
}

/* The rows x cols main-precision matrix src (leading dimension lds) into
 * the FP32 array dst (leading dimension rows), rounded to p. Returns -1
 * when an entry is not finite after rounding. */
static int to_low(trn_irs_prec p, int nc, int dbl, int rows, int cols, const void *src, int lds,
                  float *dst) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            for (int c = 0; c < nc; c++) {
                const float f =
                    round_low(p, comp(src, ((size_t)j * (size_t)lds + (size_t)i) * nc + c, dbl));
                if (!isfinite(f))
                    return -1;
                dst[((size_t)j * (size_t)rows + (size_t)i) * nc + c] = f;
            }
    return 0;
}

typedef struct irs_run {
    const trn_solver_refine_desc *d;
    trn_dtype low; /* R32F or C32F */
    int nc, dbl;
    size_t es; /* bytes of a main-precision element */
} irs_run;

/* The main-precision LU solve into X; pivots into piv (n). Returns LAPACK's
 * info or NOMEM. */
static int solve_full(const irs_run *g, lapack_int *piv, trn_kmsg *msg) {
    const trn_solver_refine_desc *d = g->d;
    const int n = d->n;
    void *f = trn_solver_alloc((size_t)n * (size_t)n, g->es);
    if (!f) {
        trn_kmsg_no_memory(msg, 0, (size_t)n * (size_t)n * g->es,
                           "the main-precision LU of IRSXgesv (n %d)", n);
        return NOMEM;
    }
    trn_solver_copy(n, n, g->es, d->a, d->lda, f, n);
    lapack_int info = TRN_LAPACK4(d->type, getrf_work, COL, n, n, f, n, piv);
    if (info == 0) {
        trn_solver_copy(n, d->nrhs, g->es, d->b, d->ldb, d->x, d->ldx);
        info = TRN_LAPACK4(d->type, getrs_work, COL, 'N', n, d->nrhs, f, n, piv, d->x, d->ldx);
    }
    free(f);
    return (int)info;
}

/* ||A||_inf into *out; NOMEM when the row sums cannot be allocated. */
static int norm_inf(const irs_run *g, trn_kmsg *msg, double *out) {
    const trn_solver_refine_desc *d = g->d;
    const int n = d->n;
    double *row = trn_solver_alloc((size_t)n, sizeof(double));
    if (!row) {
        trn_kmsg_no_memory(msg, 0, (size_t)n * sizeof(double), "the row sums of ||A||_inf");
        return NOMEM;
    }
    memset(row, 0, (size_t)n * sizeof(double));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            row[i] += elem_abs(d->a, (size_t)j * (size_t)d->lda + (size_t)i, g->nc, g->dbl);
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m = row[i] > m || isnan(row[i]) ? row[i] : m;
    free(row);
    *out = m;
    return 0;
}

/* ||column j||_inf of an n-row array with leading dimension ld. */
static double col_inf(const irs_run *g, const void *p, int ld, int j) {
    double m = 0.0;
    for (int i = 0; i < g->d->n; i++) {
        const double v = elem_abs(p, (size_t)j * (size_t)ld + (size_t)i, g->nc, g->dbl);
        m = v > m || isnan(v) ? v : m;
    }
    return m;
}

/* ---- GMRES refinement ------------------------------------------------------------------ */

/* The inner solver of the GMRES refinements (Carson and Higham 2018): the
 * correction equation A d = r by GMRES(m) right-preconditioned with the
 * low-precision LU, in double complex arithmetic whatever the main type (a
 * real problem stays real: every rotation of real data is real), to a
 * relative residual of GM_INNER_TOL. */
#define GM_INNER_TOL 1e-4
#define GM_RESTART 50

typedef struct gm_ws {
    int n, m, precond;
    const irs_run *g;
    const float *lu;
    const lapack_int *piv;
    double complex *a;       /* A, n x n */
    double complex *v;       /* (m + 1) Arnoldi vectors of n */
    double complex *h;       /* (m + 1) x m Hessenberg, column-major */
    double complex *gv;      /* m + 1: the rotated right-hand side */
    double complex *sn;      /* m */
    double *cs;              /* m */
    double complex *z, *w;   /* scratch of gm_cycle */
    double complex *rb, *db; /* a column's residual and correction */
    float *low;              /* n x nc: a vector in the LU's type */
} gm_ws;

static void gm_free(gm_ws *s) {
    free(s->a);
    free(s->v);
    free(s->h);
    free(s->gv);
    free(s->sn);
    free(s->cs);
    free(s->z);
    free(s->w);
    free(s->rb);
    free(s->db);
    free(s->low);
}

static int gm_alloc(gm_ws *s, const irs_run *g, const float *lu, const lapack_int *piv,
                    trn_kmsg *msg) {
    const trn_solver_refine_desc *d = g->d;
    const int n = d->n;
    int m = n < GM_RESTART ? n : GM_RESTART;
    m = m < d->max_iters ? m : d->max_iters;
    *s = (gm_ws){.n = n, .m = m > 0 ? m : 1, .g = g, .lu = lu, .piv = piv};
    s->precond = d->refine != TRN_IRS_REFINE_GMRES_NOPCOND;
    m = s->m;
    const size_t nn = (size_t)n * (size_t)n;
    s->a = trn_solver_alloc(nn, sizeof(double complex));
    s->v = trn_solver_alloc((size_t)(m + 1) * (size_t)n, sizeof(double complex));
    s->h = trn_solver_alloc((size_t)(m + 1) * (size_t)m, sizeof(double complex));
    s->gv = trn_solver_alloc((size_t)m + 1, sizeof(double complex));
    s->sn = trn_solver_alloc((size_t)m, sizeof(double complex));
    s->cs = trn_solver_alloc((size_t)m, sizeof(double));
    s->z = trn_solver_alloc((size_t)n, sizeof(double complex));
    s->w = trn_solver_alloc((size_t)n, sizeof(double complex));
    s->rb = trn_solver_alloc((size_t)n, sizeof(double complex));
    s->db = trn_solver_alloc((size_t)n, sizeof(double complex));
    s->low = trn_solver_alloc((size_t)n * (size_t)g->nc, sizeof(float));
    if (!s->a || !s->v || !s->h || !s->gv || !s->sn || !s->cs || !s->z || !s->w || !s->rb ||
        !s->db || !s->low) {
        gm_free(s);
        trn_kmsg_no_memory(msg, 0,
                           (nn + (size_t)(m + 2) * (size_t)(n + m)) * sizeof(double complex),
                           "the GMRES refinement's Krylov basis (n %d, restart %d)", n, m);
        return NOMEM;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const size_t e = (size_t)j * (size_t)d->lda + (size_t)i;
            s->a[(size_t)j * n + i] =
                g->nc == 1 ? comp(d->a, e, g->dbl)
                           : comp(d->a, 2 * e, g->dbl) + I * comp(d->a, 2 * e + 1, g->dbl);
        }
    return 0;
}

/* out = M^-1 in (the LU solve in FP32), or in itself without preconditioning. */
static void gm_prec(const gm_ws *s, const double complex *in, double complex *out) {
    const int n = s->n;
    if (!s->precond) {
        memcpy(out, in, (size_t)n * sizeof(*out));
        return;
    }
    for (int i = 0; i < n; i++) {
        if (s->g->nc == 1) {
            s->low[i] = (float)creal(in[i]);
        } else {
            s->low[2 * i] = (float)creal(in[i]);
            s->low[2 * i + 1] = (float)cimag(in[i]);
        }
    }
    TRN_LAPACK4(s->g->low, getrs_work, COL, 'N', n, 1, (void *)s->lu, n, (lapack_int *)s->piv,
                (void *)s->low, n);
    for (int i = 0; i < n; i++)
        out[i] = s->g->nc == 1 ? s->low[i] : s->low[2 * i] + I * s->low[2 * i + 1];
}

static double gm_norm(int n, const double complex *x) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += creal(x[i]) * creal(x[i]) + cimag(x[i]) * cimag(x[i]);
    return sqrt(sum);
}

/* One GMRES(m) cycle of at most `budget` steps on A d = r (r: n entries),
 * d into dout (neither may be s->z or s->w). Returns the steps taken. */
static int gm_cycle(gm_ws *s, const double complex *r, int budget, double complex *dout) {
    const int n = s->n, m = s->m < budget ? s->m : budget;
    const double complex one = 1.0, zero = 0.0;
    const double beta = gm_norm(n, r);
    memset(dout, 0, (size_t)n * sizeof(*dout));
    if (!(beta > 0.0) || m < 1)
        return 0;
    for (int i = 0; i < n; i++)
        s->v[i] = r[i] / beta;
    memset(s->gv, 0, (size_t)(s->m + 1) * sizeof(*s->gv));
    s->gv[0] = beta;
    const size_t ldh = (size_t)s->m + 1;
    int k = 0;
    while (k < m) {
        double complex *vk = s->v + (size_t)k * n, *vn = s->v + (size_t)(k + 1) * n;
        gm_prec(s, vk, s->z);
        TRN_LIB(cblas_zgemv)
        (CblasColMajor, CblasNoTrans, n, n, &one, s->a, n, s->z, 1, &zero, s->w, 1);
        double complex *hk = s->h + (size_t)k * ldh;
        for (int i = 0; i <= k; i++) { /* modified Gram-Schmidt */
            const double complex *vi = s->v + (size_t)i * n;
            double complex dot = 0.0;
            for (int l = 0; l < n; l++)
                dot += conj(vi[l]) * s->w[l];
            hk[i] = dot;
            for (int l = 0; l < n; l++)
                s->w[l] -= dot * vi[l];
        }
        const double hn = gm_norm(n, s->w);
        hk[k + 1] = hn;
        for (int l = 0; l < n; l++)
            vn[l] = hn > 0.0 ? s->w[l] / hn : 0.0;
        for (int i = 0; i < k; i++) { /* the earlier rotations */
            const double complex t = s->cs[i] * hk[i] + s->sn[i] * hk[i + 1];
            hk[i + 1] = -conj(s->sn[i]) * hk[i] + s->cs[i] * hk[i + 1];
            hk[i] = t;
        }
        const double aa = cabs(hk[k]), nu = hypot(aa, hn);
        if (nu == 0.0) { /* A M^-1 is singular on this space */
            s->cs[k] = 1.0;
            s->sn[k] = 0.0;
        } else if (aa == 0.0) {
            s->cs[k] = 0.0;
            s->sn[k] = 1.0;
        } else {
            s->cs[k] = aa / nu;
            s->sn[k] = (hk[k] / aa) * hn / nu;
        }
        hk[k] = s->cs[k] * hk[k] + s->sn[k] * hn;
        hk[k + 1] = 0.0;
        s->gv[k + 1] = -conj(s->sn[k]) * s->gv[k];
        s->gv[k] = s->cs[k] * s->gv[k];
        k++;
        if (cabs(s->gv[k]) <= GM_INNER_TOL * beta || hn == 0.0)
            break;
    }
    /* y = H(1:k, 1:k) \ g(1:k), then d = M^-1 V y. */
    for (int i = k - 1; i >= 0; i--) {
        double complex t = s->gv[i];
        for (int j = i + 1; j < k; j++)
            t -= s->h[(size_t)j * ldh + i] * s->gv[j];
        const double complex hii = s->h[(size_t)i * ldh + i];
        s->gv[i] = hii != 0.0 ? t / hii : 0.0;
    }
    memset(s->w, 0, (size_t)n * sizeof(*s->w));
    for (int j = 0; j < k; j++)
        for (int l = 0; l < n; l++)
            s->w[l] += s->gv[j] * s->v[(size_t)j * n + l];
    gm_prec(s, s->w, dout);
    return k;
}

/* x += the GMRES correction of every column of r (main precision, leading
 * dimension n); *used: the most inner steps a column took. */
static void gm_correct(gm_ws *s, const void *r, int budget, int *used) {
    const irs_run *g = s->g;
    const trn_solver_refine_desc *d = g->d;
    const int n = s->n;
    *used = 0;
    for (int j = 0; j < d->nrhs; j++) {
        for (int i = 0; i < n; i++) {
            const size_t e = (size_t)j * (size_t)n + (size_t)i;
            s->rb[i] = g->nc == 1 ? comp(r, e, g->dbl)
                                  : comp(r, 2 * e, g->dbl) + I * comp(r, 2 * e + 1, g->dbl);
        }
        const int k = gm_cycle(s, s->rb, budget, s->db);
        *used = k > *used ? k : *used;
        for (int i = 0; i < n; i++) {
            const size_t xi = (size_t)j * (size_t)d->ldx + (size_t)i;
            if (g->nc == 1) {
                set_comp(d->x, xi, g->dbl, comp(d->x, xi, g->dbl) + creal(s->db[i]));
            } else {
                set_comp(d->x, 2 * xi, g->dbl, comp(d->x, 2 * xi, g->dbl) + creal(s->db[i]));
                set_comp(d->x, 2 * xi + 1, g->dbl,
                         comp(d->x, 2 * xi + 1, g->dbl) + cimag(s->db[i]));
            }
        }
    }
}

/* The mixed-precision solve: *niters (>= 0 converged, < 0 failed), *eta
 * the last max_j ||r_j||_inf / (||x_j||_inf ||A||_inf), *maxed set when
 * the iteration limit stopped it (-max_iters may equal another code),
 * pivots into piv.
 * Returns 0, or NOMEM (posted to msg). */
static int refine(const irs_run *g, lapack_int *piv, trn_kmsg *msg, int *niters, int *maxed,
                  double *eta) {
    const trn_solver_refine_desc *d = g->d;
    const int n = d->n, nrhs = d->nrhs, nc = g->nc, dbl = g->dbl;
    const size_t nn = (size_t)n * (size_t)n, nb = (size_t)n * (size_t)nrhs;
    float *lu = trn_solver_alloc(nn * (size_t)nc, sizeof(float));
    float *c = trn_solver_alloc(nb * (size_t)nc, sizeof(float));
    void *r = trn_solver_alloc(nb, g->es);
    int ret = NOMEM;
    double anorm = 0.0;
    gm_ws gm = {0};
    *eta = NAN;
    *niters = 0;
    *maxed = 0;
    if (!lu || !c || !r) {
        trn_kmsg_no_memory(msg, 0, (nn + nb) * (size_t)nc * sizeof(float) + nb * g->es,
                           "the low-precision LU and residuals of IRSXgesv (n %d, nrhs %d)", n,
                           nrhs);
        goto out;
    }
    if (norm_inf(g, msg, &anorm) != 0)
        goto out;
    ret = 0;
    if (to_low(d->lowest, nc, dbl, n, n, d->a, d->lda, lu) != 0) {
        *niters = IRS_OVERFLOW_A;
        goto out;
    }
    if (TRN_LAPACK4(g->low, getrf_work, COL, n, n, (void *)lu, n, piv) != 0) {
        *niters = IRS_LU_FAILED;
        goto out;
    }
    /* x0 = LU \ b: b in FP32 (not rounded further: the triangular solves
     * are FP32 ones whatever the lowest format). */
    if (to_low(TRN_IRS_PREC_32F, nc, dbl, n, nrhs, d->b, d->ldb, c) != 0) {
        *niters = IRS_NONFINITE;
        goto out;
    }
    TRN_LAPACK4(g->low, getrs_work, COL, 'N', n, nrhs, (void *)lu, n, piv, (void *)c, n);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < nc; k++)
                set_comp(d->x, ((size_t)j * (size_t)d->ldx + (size_t)i) * nc + k, dbl,
                         c[((size_t)j * (size_t)n + (size_t)i) * nc + k]);
    if (d->refine == TRN_IRS_REFINE_NONE) {
        *niters = 0;
        goto out;
    }
    const int gmres = d->refine != TRN_IRS_REFINE_CLASSICAL;
    if (gmres && gm_alloc(&gm, g, lu, piv, msg) != 0) {
        ret = NOMEM;
        goto out;
    }
    int total = 0; /* GMRES: inner steps, what niters counts */
    for (int it = 0;; it++) {
        trn_solver_copy(n, nrhs, g->es, d->b, d->ldb, r, n);
        trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, n, nrhs, n, -1.0, d->a, d->lda, d->x,
                      d->ldx, 1.0, r, n);
        int conv = 1, finite = 1;
        double rmax = 0.0, e = 0.0;
        for (int j = 0; j < nrhs; j++) {
            const double rn = col_inf(g, r, n, j), xn = col_inf(g, d->x, d->ldx, j);
            if (!isfinite(rn) || !isfinite(xn))
                finite = 0;
            if (!(rn <= xn * anorm * d->tol))
                conv = 0;
            rmax = rn > rmax ? rn : rmax;
            const double ej = xn * anorm > 0.0 ? rn / (xn * anorm) : (rn > 0.0 ? INFINITY : 0.0);
            e = ej > e ? ej : e;
        }
        *eta = finite ? e : NAN;
        if (d->history) {
            d->history[2 * (size_t)it] = it;
            d->history[2 * (size_t)it + 1] = finite ? rmax : NAN;
        }
        if (!finite) {
            *niters = IRS_NONFINITE;
            goto out;
        }
        if (conv) {
            *niters = gmres ? total : it;
            goto out;
        }
        if ((gmres ? total : it) >= d->max_iters) {
            *niters = -d->max_iters;
            *maxed = 1;
            goto out;
        }
        if (gmres) {
            int used = 0;
            gm_correct(&gm, r, d->max_iters - total, &used);
            total += used > 0 ? used : 1; /* a cycle that cannot move still counts */
            continue;
        }
        if (to_low(TRN_IRS_PREC_32F, nc, dbl, n, nrhs, r, n, c) != 0) {
            *niters = IRS_NONFINITE;
            goto out;
        }
        TRN_LAPACK4(g->low, getrs_work, COL, 'N', n, nrhs, (void *)lu, n, piv, (void *)c, n);
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < n; i++)
                for (int k = 0; k < nc; k++) {
                    const size_t xi = ((size_t)j * (size_t)d->ldx + (size_t)i) * nc + k;
                    set_comp(d->x, xi, dbl,
                             comp(d->x, xi, dbl) + c[((size_t)j * (size_t)n + (size_t)i) * nc + k]);
                }
    }
out:
    gm_free(&gm);
    free(lu);
    free(c);
    free(r);
    return ret;
}

static int solve_full_ls(const irs_run *g, trn_kmsg *msg);
static int refine_ls(const irs_run *g, trn_kmsg *msg, int *niters, int *maxed, double *eta);

/* info = 0 and a zeroed history; for an empty problem (n or nrhs 0) also
 * converged stats, and returns 1: nothing else to do. */
static int irs_start(const trn_solver_refine_desc *d) {
    const int32_t zero = 0;
    memcpy(d->info, &zero, sizeof(zero));
    if (d->history)
        memset(d->history, 0, 2 * ((size_t)d->max_iters + 1) * sizeof(double));
    if (d->n == 0 || d->nrhs == 0) {
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_CONVERGED, 0.0);
        return 1;
    }
    return 0;
}

/* What a run ends with: info (LAPACK's, or NOMEM), the iterations and the
 * stats status, and the last backward error. */
typedef struct irs_outcome {
    int info, niters, status;
    double eta;
} irs_outcome;

/* Refines in the lowest precision, or solves in the main precision when
 * that is the lowest; after a failed refinement solves again in the main
 * precision unless the fallback is off. ls: least squares (gels), else LU
 * (gesv) with the pivots in piv. dl is the request with B replaced by its
 * private copy. */
static irs_outcome irs_drive(const trn_solver_refine_desc *dl, int ls, lapack_int *piv,
                             trn_kmsg *msg) {
    const int cx = dl->type == TRN_DTYPE_C32F || dl->type == TRN_DTYPE_C64F;
    const irs_run g = {dl, cx ? TRN_DTYPE_C32F : TRN_DTYPE_R32F, cx ? 2 : 1,
                       dl->type == TRN_DTYPE_R64F || dl->type == TRN_DTYPE_C64F,
                       trn_dtype_size(dl->type)};
    const int same = dl->lowest == TRN_IRS_PREC_64F || (dl->lowest == TRN_IRS_PREC_32F && !g.dbl);
    irs_outcome o = {0, 0, TRN_SOLVER_ST_CONVERGED, 0.0};
    if (same) {
        o.info = ls ? solve_full_ls(&g, msg) : solve_full(&g, piv, msg);
        return o;
    }
    int maxed = 0;
    const int rc = ls ? refine_ls(&g, msg, &o.niters, &maxed, &o.eta)
                      : refine(&g, piv, msg, &o.niters, &maxed, &o.eta);
    if (rc != 0)
        o.info = NOMEM;
    else if (o.niters < 0) {
        o.status = maxed ? TRN_SOLVER_ST_MAX_ITERS : TRN_SOLVER_ST_NONFINITE;
        if (dl->fallback) {
            o.status = TRN_SOLVER_ST_FALLBACK;
            o.info = ls ? solve_full_ls(&g, msg) : solve_full(&g, piv, msg);
        }
    }
    return o;
}

trn_kstatus trn_cpu_irs_gesv(const trn_solver_refine_desc *d, trn_kmsg *msg) {
    if (irs_start(d))
        return TRN_KSTATUS_OK;
    /* B is read at every step while X is written: a private copy keeps the
     * solve right when the caller passes dX == dB. */
    const size_t es = trn_dtype_size(d->type), nb = (size_t)d->n * (size_t)d->nrhs;
    lapack_int *piv = trn_solver_alloc((size_t)d->n, sizeof(lapack_int));
    void *bcopy = trn_solver_alloc(nb, es);
    if (!piv || !bcopy) {
        free(piv);
        free(bcopy);
        return trn_kmsg_no_memory(msg, 0, (size_t)d->n * sizeof(lapack_int) + nb * es,
                                  "the pivots and the copy of B of IRSXgesv (n %d, nrhs %d)", d->n,
                                  d->nrhs);
    }
    trn_solver_copy(d->n, d->nrhs, es, d->b, d->ldb, bcopy, d->n);
    trn_solver_refine_desc dl = *d;
    dl.b = bcopy;
    dl.ldb = d->n;
    const irs_outcome o = irs_drive(&dl, 0, piv, msg);
    free(bcopy);
    if (o.info == NOMEM) {
        free(piv);
        return TRN_KSTATUS_NO_MEMORY;
    }
    if (o.info > 0)
        memcpy(d->info, &(int32_t){o.info}, sizeof(int32_t));
    if (d->ipiv)
        for (int i = 0; i < d->n; i++)
            memcpy(d->ipiv + i, &(int32_t){piv[i]}, sizeof(int32_t));
    free(piv);
    trn_solver_put_stats(d->stats, o.niters, o.status, o.eta);
    return TRN_KSTATUS_OK;
}

/* ---- IRS gels ---------------------------------------------------------------------------- */

/* Q^H c (trans) or Q c of the Householder QR (f, tau) of type t, on the
 * rows x cols matrix c: ormqr for real types, unmqr for complex ones.
 * lwork -1 is LAPACK's workspace query. */
static lapack_int qmul(trn_dtype t, int trans, int rows, int cols, int k, const void *f, int ldf,
                       const void *tau, void *c, int ldc, void *work, lapack_int lwork) {
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const char tr = !trans ? 'N' : cx ? 'C' : 'T';
    void *a = (void *)f, *tu = (void *)tau;
    return TRN_BY_TYPE(
        t,
        TRN_LIB(LAPACKE_sormqr_work)(COL, 'L', tr, rows, cols, k, a, ldf, tu, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_dormqr_work)(COL, 'L', tr, rows, cols, k, a, ldf, tu, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_cunmqr_work)(COL, 'L', tr, rows, cols, k, a, ldf, tu, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_zunmqr_work)(COL, 'L', tr, rows, cols, k, a, ldf, tu, c, ldc, work, lwork));
}

/* The workspace (elements of t) geqrf of the m x n f and qmul on m x cols
 * matrices ask for. */
static size_t qr_lwork(trn_dtype t, int m, int n, int cols, void *f, void *tau, void *c) {
    trn_lapack_query q = {0};
    lapack_int lw = 1;
    if (TRN_LAPACK4(t, geqrf_work, COL, m, n, f, m, tau, (void *)&q, -1) == 0)
        lw = trn_lapack_lwork(t, &q);
    memset(&q, 0, sizeof(q));
    if (qmul(t, 1, m, cols, n, f, m, tau, c, m, &q, -1) == 0) {
        const lapack_int l2 = trn_lapack_lwork(t, &q);
        lw = l2 > lw ? l2 : lw;
    }
    return (size_t)lw;
}

/* ||A||_1 (largest column sum) and ||A||_inf (largest row sum) of the
 * m x n A; NOMEM when the row sums cannot be allocated. */
static int norms_1_inf(const irs_run *g, trn_kmsg *msg, double *n1, double *ninf) {
    const trn_solver_refine_desc *d = g->d;
    double *row = trn_solver_alloc((size_t)d->m, sizeof(double));
    if (!row) {
        trn_kmsg_no_memory(msg, 0, (size_t)d->m * sizeof(double), "the row sums of ||A||_inf");
        return NOMEM;
    }
    memset(row, 0, (size_t)d->m * sizeof(double));
    double c1 = 0.0, ri = 0.0;
    for (int j = 0; j < d->n; j++) {
        double col = 0.0;
        for (int i = 0; i < d->m; i++) {
            const double v = elem_abs(d->a, (size_t)j * (size_t)d->lda + (size_t)i, g->nc, g->dbl);
            col += v;
            row[i] += v;
        }
        c1 = col > c1 || isnan(col) ? col : c1;
    }
    for (int i = 0; i < d->m; i++)
        ri = row[i] > ri || isnan(row[i]) ? row[i] : ri;
    free(row);
    *n1 = c1;
    *ninf = ri;
    return 0;
}

/* ||column j||_inf of a rows-row array with leading dimension ld. */
static double vec_inf(const irs_run *g, const void *p, int rows, int ld, int j) {
    double m = 0.0;
    for (int i = 0; i < rows; i++) {
        const double v = elem_abs(p, (size_t)j * (size_t)ld + (size_t)i, g->nc, g->dbl);
        m = v > m || isnan(v) ? v : m;
    }
    return m;
}

/* The main-precision least-squares solve into X (LAPACK's gels for a full
 * rank A: Householder QR, Q^H B, R \ that). Returns 0, i > 0 when R(i,i)
 * is exactly zero (X is then not written), or NOMEM. */
static int solve_full_ls(const irs_run *g, trn_kmsg *msg) {
    const trn_solver_refine_desc *d = g->d;
    const int m = d->m, n = d->n, nrhs = d->nrhs;
    const size_t mn = (size_t)m * (size_t)n, mb = (size_t)m * (size_t)nrhs;
    void *f = trn_solver_alloc(mn, g->es), *tau = trn_solver_alloc((size_t)n, g->es);
    void *c = trn_solver_alloc(mb, g->es), *work = NULL;
    int info = NOMEM;
    size_t lw = 0;
    if (f && tau && c) {
        lw = qr_lwork(d->type, m, n, nrhs, f, tau, c);
        work = trn_solver_alloc(lw, g->es);
    }
    if (!work) {
        trn_kmsg_no_memory(msg, 0, (mn + mb + (size_t)n + lw) * g->es,
                           "the main-precision QR of IRSXgels (m %d, n %d)", m, n);
        goto out;
    }
    trn_solver_copy(m, n, g->es, d->a, d->lda, f, m);
    TRN_LAPACK4(d->type, geqrf_work, COL, m, n, f, m, tau, work, (lapack_int)lw);
    info = 0;
    for (int j = 0; j < n && !info; j++)
        if (elem_abs(f, (size_t)j * (size_t)m + (size_t)j, g->nc, g->dbl) == 0.0)
            info = j + 1;
    if (info)
        goto out;
    trn_solver_copy(m, nrhs, g->es, d->b, d->ldb, c, m);
    qmul(d->type, 1, m, nrhs, n, f, m, tau, c, m, work, (lapack_int)lw);
    trn_blas_trsm(d->type, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, f, m, c,
                  m);
    trn_solver_copy(n, nrhs, g->es, c, m, d->x, d->ldx);
out:
    free(f);
    free(tau);
    free(c);
    free(work);
    return info;
}

/* dst (main precision, leading dimension ldd) += the FP32 rows x cols
 * array src (leading dimension lds). */
static void add_low(const irs_run *g, int rows, int cols, const float *src, int lds, void *dst,
                    int ldd) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            for (int k = 0; k < g->nc; k++) {
                const size_t di = ((size_t)j * (size_t)ldd + (size_t)i) * g->nc + k;
                set_comp(dst, di, g->dbl,
                         comp(dst, di, g->dbl) +
                             src[((size_t)j * (size_t)lds + (size_t)i) * g->nc + k]);
            }
}

/* The mixed-precision least-squares solve, refining x and the residual r
 * together on the augmented system [I A; A^H 0] [r; x] = [b; 0] (Bjorck's
 * refinement, which converges at a rate of about kappa(A) u_low for large
 * residuals too, where refining x alone stalls): with A ~ Q [R; 0] the low
 * precision QR, each correction of (f, g) = (b - r - A x, -A^H r) is
 *   d = R^-H g, e = Q^H f, dx = R \ (e(1:n) - d), dr = Q [d; e(n+1:m)].
 * A step stops once every column has
 *   ||A^H (b - A x)||_inf <= tol ||A||_1 (||A||_inf ||x||_inf + ||b||_inf),
 * the normal equations' residual against its rounding-error scale.
 * Outputs as refine(). */
static int refine_ls(const irs_run *g, trn_kmsg *msg, int *niters, int *maxed, double *eta) {
    const trn_solver_refine_desc *d = g->d;
    const int m = d->m, n = d->n, nrhs = d->nrhs, nc = g->nc, dbl = g->dbl;
    const size_t mn = (size_t)m * (size_t)n, mb = (size_t)m * (size_t)nrhs,
                 nb = (size_t)n * (size_t)nrhs;
    float *f = trn_solver_alloc(mn * (size_t)nc, sizeof(float));
    float *tau = trn_solver_alloc((size_t)n * (size_t)nc, sizeof(float));
    float *e = trn_solver_alloc(mb * (size_t)nc, sizeof(float));
    float *v = trn_solver_alloc(mb * (size_t)nc, sizeof(float));
    float *dd = trn_solver_alloc(nb * (size_t)nc, sizeof(float));
    void *r = trn_solver_alloc(mb, g->es), *t = trn_solver_alloc(mb, g->es);
    void *s = trn_solver_alloc(nb, g->es), *work = NULL;
    size_t lw = 0;
    int ret = NOMEM;
    double a1 = 0.0, ainf = 0.0;
    *eta = NAN;
    *niters = 0;
    *maxed = 0;
    if (f && tau && e && v && dd && r && t && s) {
        lw = qr_lwork(g->low, m, n, nrhs, f, tau, e);
        work = trn_solver_alloc(lw * (size_t)nc, sizeof(float));
    }
    if (!work) {
        trn_kmsg_no_memory(msg, 0,
                           (mn + 2 * mb + nb + (size_t)n + lw) * (size_t)nc * sizeof(float) +
                               (2 * mb + nb) * g->es,
                           "the low-precision QR and residuals of IRSXgels (m %d, n %d, nrhs %d)",
                           m, n, nrhs);
        goto out;
    }
    if (norms_1_inf(g, msg, &a1, &ainf) != 0)
        goto out;
    ret = 0;
    if (to_low(d->lowest, nc, dbl, m, n, d->a, d->lda, f) != 0) {
        *niters = IRS_OVERFLOW_A;
        goto out;
    }
    TRN_LAPACK4(g->low, geqrf_work, COL, m, n, (void *)f, m, (void *)tau, (void *)work,
                (lapack_int)lw);
    for (int j = 0; j < n; j++) { /* R \ cannot be applied: rank-deficient in FP32 */
        const double rjj = elem_abs(f, (size_t)j * (size_t)m + (size_t)j, nc, 0);
        if (!(rjj > 0.0) || !isfinite(rjj)) {
            *niters = IRS_LU_FAILED;
            goto out;
        }
    }
    /* x0 = R \ (Q^H b)(1:n) in FP32; r0 = b - A x0. */
    if (to_low(TRN_IRS_PREC_32F, nc, dbl, m, nrhs, d->b, d->ldb, e) != 0) {
        *niters = IRS_NONFINITE;
        goto out;
    }
    qmul(g->low, 1, m, nrhs, n, f, m, tau, e, m, work, (lapack_int)lw);
    trn_blas_trsm(g->low, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, f, m, e,
                  m);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < nc; k++)
                set_comp(d->x, ((size_t)j * (size_t)d->ldx + (size_t)i) * nc + k, dbl,
                         e[((size_t)j * (size_t)m + (size_t)i) * nc + k]);
    if (d->refine == TRN_IRS_REFINE_NONE)
        goto out;
    trn_solver_copy(m, nrhs, g->es, d->b, d->ldb, r, m);
    trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, m, nrhs, n, -1.0, d->a, d->lda, d->x, d->ldx,
                  1.0, r, m);
    for (int it = 0;; it++) {
        /* t = b - A x, s = A^H t: the test. */
        trn_solver_copy(m, nrhs, g->es, d->b, d->ldb, t, m);
        trn_blas_gemm(d->type, CblasNoTrans, CblasNoTrans, m, nrhs, n, -1.0, d->a, d->lda, d->x,
                      d->ldx, 1.0, t, m);
        trn_blas_gemm(d->type, CblasConjTrans, CblasNoTrans, n, nrhs, m, 1.0, d->a, d->lda, t, m,
                      0.0, s, n);
        int conv = 1, finite = 1;
        double smax = 0.0, ev = 0.0;
        for (int j = 0; j < nrhs; j++) {
            const double sn = vec_inf(g, s, n, n, j), xn = vec_inf(g, d->x, n, d->ldx, j);
            const double bn = vec_inf(g, d->b, m, d->ldb, j), rn = vec_inf(g, r, m, m, j);
            if (!isfinite(sn) || !isfinite(xn) || !isfinite(rn))
                finite = 0;
            const double den = a1 * (ainf * xn + bn);
            if (!(sn <= den * d->tol))
                conv = 0;
            smax = sn > smax ? sn : smax;
            const double ej = den > 0.0 ? sn / den : (sn > 0.0 ? INFINITY : 0.0);
            ev = ej > ev ? ej : ev;
        }
        *eta = finite ? ev : NAN;
        if (d->history) {
            d->history[2 * (size_t)it] = it;
            d->history[2 * (size_t)it + 1] = finite ? smax : NAN;
        }
        if (!finite) {
            *niters = IRS_NONFINITE;
            goto out;
        }
        if (conv) {
            *niters = it;
            goto out;
        }
        if (it >= d->max_iters) {
            *niters = -d->max_iters;
            *maxed = 1;
            goto out;
        }
        /* f = t - r into t; g = -A^H r into s. */
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < m; i++)
                for (int k = 0; k < nc; k++) {
                    const size_t q = ((size_t)j * (size_t)m + (size_t)i) * nc + k;
                    set_comp(t, q, dbl, comp(t, q, dbl) - comp(r, q, dbl));
                }
        trn_blas_gemm(d->type, CblasConjTrans, CblasNoTrans, n, nrhs, m, -1.0, d->a, d->lda, r, m,
                      0.0, s, n);
        if (to_low(TRN_IRS_PREC_32F, nc, dbl, n, nrhs, s, n, dd) != 0 ||
            to_low(TRN_IRS_PREC_32F, nc, dbl, m, nrhs, t, m, e) != 0) {
            *niters = IRS_NONFINITE;
            goto out;
        }
        trn_blas_trsm(g->low, CblasLeft, CblasUpper, CblasConjTrans, CblasNonUnit, n, nrhs, 1.0, f,
                      m, dd, n);
        qmul(g->low, 1, m, nrhs, n, f, m, tau, e, m, work, (lapack_int)lw);
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < m; i++)
                for (int k = 0; k < nc; k++) {
                    const size_t q = ((size_t)j * (size_t)m + (size_t)i) * nc + k;
                    if (i < n) {
                        const float dv = dd[((size_t)j * (size_t)n + (size_t)i) * nc + k];
                        v[q] = dv;
                        e[q] -= dv;
                    } else {
                        v[q] = e[q];
                    }
                }
        trn_blas_trsm(g->low, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, f, m,
                      e, m);
        qmul(g->low, 0, m, nrhs, n, f, m, tau, v, m, work, (lapack_int)lw);
        add_low(g, n, nrhs, e, m, d->x, d->ldx);
        add_low(g, m, nrhs, v, m, r, m);
    }
out:
    free(f);
    free(tau);
    free(e);
    free(v);
    free(dd);
    free(r);
    free(t);
    free(s);
    free(work);
    return ret;
}

trn_kstatus trn_cpu_irs_gels(const trn_solver_refine_desc *d, trn_kmsg *msg) {
    if (irs_start(d))
        return TRN_KSTATUS_OK;
    /* B is read at every step while X is written: a private copy keeps the
     * solve right when the caller passes dX == dB. */
    const size_t es = trn_dtype_size(d->type), mb = (size_t)d->m * (size_t)d->nrhs;
    void *bcopy = trn_solver_alloc(mb, es);
    if (!bcopy)
        return trn_kmsg_no_memory(msg, 0, mb * es, "the copy of B of IRSXgels (m %d, nrhs %d)",
                                  d->m, d->nrhs);
    trn_solver_copy(d->m, d->nrhs, es, d->b, d->ldb, bcopy, d->m);
    trn_solver_refine_desc dl = *d;
    dl.b = bcopy;
    dl.ldb = d->m;
    const irs_outcome o = irs_drive(&dl, 1, NULL, msg);
    free(bcopy);
    if (o.info == NOMEM)
        return TRN_KSTATUS_NO_MEMORY;
    if (o.info > 0)
        memcpy(d->info, &(int32_t){o.info}, sizeof(int32_t));
    trn_solver_put_stats(d->stats, o.niters, o.status, o.eta);
    return TRN_KSTATUS_OK;
}
