/*
 * alternatives.c — library routines that compute what a failing routine
 * computes, and the stubs of routines nothing correct was found for.
 *
 * Alternatives (each is a candidate of its routine, checked like any
 * other before it is used; each calls the library directly):
 *   scasum, dzasum  as sasum/dasum over the 2n real components;
 *   scnrm2, dznrm2  as snrm2/dnrm2 over the 2n real components (strided:
 *                   the norms of the real and imaginary parts, combined
 *                   with hypot);
 *   sgemm, cgemm    in double precision by dgemm/zgemm on widened copies,
 *                   rounded once (more accurate than the float routine;
 *                   about half its speed, far above a plain loop); without
 *                   memory for the copies they run the in-tree kernel;
 *   FFTW planners   with FFTW_NO_SIMD: FFTW's scalar codelets.
 *
 * Stubs: a refused LAPACK routine returns an illegal-argument info without
 * touching its operands; a refused FFTW planner plans nothing (NULL). The
 * op that called them fails with the routine's name (routines.h).
 */
#include <math.h>
#include <stdlib.h>

#include "kernels/cpu/refblas/refblas.h"
#include "kernels/cpu/selftest/checks.h"

/* ---- asum and nrm2 of complex vectors --------------------------------------------- */

static float alt_scasum(const blasint n, const void *x, const blasint incx) {
    if (n <= 0 || incx <= 0)
        return 0.0f;
    const float *r = x;
    if (incx == 1)
        return cblas_sasum(2 * n, r, 1);
    return cblas_sasum(n, r, 2 * incx) + cblas_sasum(n, r + 1, 2 * incx);
}

static double alt_dzasum(const blasint n, const void *x, const blasint incx) {
    if (n <= 0 || incx <= 0)
        return 0.0;
    const double *r = x;
    if (incx == 1)
        return cblas_dasum(2 * n, r, 1);
    return cblas_dasum(n, r, 2 * incx) + cblas_dasum(n, r + 1, 2 * incx);
}

static float alt_scnrm2(const blasint n, const void *x, const blasint incx) {
    if (n <= 0 || incx <= 0)
        return 0.0f;
    const float *r = x;
    if (incx == 1)
        return cblas_snrm2(2 * n, r, 1);
    return (float)hypot(cblas_snrm2(n, r, 2 * incx), cblas_snrm2(n, r + 1, 2 * incx));
}

static double alt_dznrm2(const blasint n, const void *x, const blasint incx) {
    if (n <= 0 || incx <= 0)
        return 0.0;
    const double *r = x;
    if (incx == 1)
        return cblas_dnrm2(2 * n, r, 1);
    return hypot(cblas_dnrm2(n, r, 2 * incx), cblas_dnrm2(n, r + 1, 2 * incx));
}

/* ---- GEMM in double -------------------------------------------------------------------- */

/* rows × cols of a column-major float matrix (ld) into a packed double one;
 * comps = 2 for complex. */
static void widen(const float *a, int rows, int cols, int ld, int comps, double *out) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows * comps; i++)
            out[(size_t)j * (size_t)rows * (size_t)comps + (size_t)i] =
                a[(size_t)j * (size_t)ld * (size_t)comps + (size_t)i];
}

static void narrow(const double *a, int rows, int cols, int comps, float *out, int ld) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows * comps; i++)
            out[(size_t)j * (size_t)ld * (size_t)comps + (size_t)i] =
                (float)a[(size_t)j * (size_t)rows * (size_t)comps + (size_t)i];
}

/* C = alpha op(A) op(B) + beta C through the double routine; comps 1 or 2.
 * Returns -1 without memory for the copies. */
static int gemm_widened(int comps, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k,
                        const float *alpha, const float *a, int lda, const float *b, int ldb,
                        const float *beta, float *c, int ldc) {
    const int ar = ta == CblasNoTrans ? m : k, ac = ta == CblasNoTrans ? k : m;
    const int br = tb == CblasNoTrans ? k : n, bc = tb == CblasNoTrans ? n : k;
    const size_t na = (size_t)ar * (size_t)ac * (size_t)comps,
                 nb = (size_t)br * (size_t)bc * (size_t)comps,
                 nc = (size_t)m * (size_t)n * (size_t)comps;
    double *w = malloc((na + nb + nc) * sizeof(double));
    if (!w)
        return -1;
    double *wa = w, *wb = w + na, *wc = w + na + nb;
    widen(a, ar, ac, lda, comps, wa);
    widen(b, br, bc, ldb, comps, wb);
    const int beta_zero = beta[0] == 0.0f && (comps == 1 || beta[1] == 0.0f);
    if (!beta_zero) /* C is not read when beta is 0 */
        widen(c, m, n, ldc, comps, wc);
    const double al[2] = {alpha[0], comps == 2 ? alpha[1] : 0.0};
    const double be[2] = {beta[0], comps == 2 ? beta[1] : 0.0};
    if (comps == 1)
        cblas_dgemm(CblasColMajor, ta, tb, m, n, k, al[0], wa, ar > 0 ? ar : 1, wb, br > 0 ? br : 1,
                    be[0], wc, m > 0 ? m : 1);
    else
        cblas_zgemm(CblasColMajor, ta, tb, m, n, k, al, wa, ar > 0 ? ar : 1, wb, br > 0 ? br : 1,
                    be, wc, m > 0 ? m : 1);
    narrow(wc, m, n, comps, c, ldc);
    free(w);
    return 0;
}

static void alt_sgemm(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE ta,
                      const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n,
                      const blasint k, const float alpha, const float *a, const blasint lda,
                      const float *b, const blasint ldb, const float beta, float *c,
                      const blasint ldc) {
    if (order == CblasColMajor && m > 0 && n > 0 &&
        gemm_widened(1, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc) == 0)
        return;
    trn_ref_cblas_sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

static void alt_cgemm(const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE ta,
                      const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n,
                      const blasint k, const void *alpha, const void *a, const blasint lda,
                      const void *b, const blasint ldb, const void *beta, void *c,
                      const blasint ldc) {
    if (order == CblasColMajor && m > 0 && n > 0 &&
        gemm_widened(2, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) == 0)
        return;
    trn_ref_cblas_cgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* ---- FFTW without SIMD ----------------------------------------------------------------- */

static fftwf_plan alt_fftwf_dft(int rank, const int *n, int howmany, fftwf_complex *in,
                                const int *inembed, int istride, int idist, fftwf_complex *out,
                                const int *onembed, int ostride, int odist, int sign,
                                unsigned flags) {
    return fftwf_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride,
                               odist, sign, flags | FFTW_NO_SIMD);
}

static fftwf_plan alt_fftwf_r2c(int rank, const int *n, int howmany, float *in, const int *inembed,
                                int istride, int idist, fftwf_complex *out, const int *onembed,
                                int ostride, int odist, unsigned flags) {
    return fftwf_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                   ostride, odist, flags | FFTW_NO_SIMD);
}

static fftwf_plan alt_fftwf_c2r(int rank, const int *n, int howmany, fftwf_complex *in,
                                const int *inembed, int istride, int idist, float *out,
                                const int *onembed, int ostride, int odist, unsigned flags) {
    return fftwf_plan_many_dft_c2r(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                   ostride, odist, flags | FFTW_NO_SIMD);
}

static fftw_plan alt_fftw_dft(int rank, const int *n, int howmany, fftw_complex *in,
                              const int *inembed, int istride, int idist, fftw_complex *out,
                              const int *onembed, int ostride, int odist, int sign,
                              unsigned flags) {
    return fftw_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride,
                              odist, sign, flags | FFTW_NO_SIMD);
}

static fftw_plan alt_fftw_r2c(int rank, const int *n, int howmany, double *in, const int *inembed,
                              int istride, int idist, fftw_complex *out, const int *onembed,
                              int ostride, int odist, unsigned flags) {
    return fftw_plan_many_dft_r2c(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                  ostride, odist, flags | FFTW_NO_SIMD);
}

static fftw_plan alt_fftw_c2r(int rank, const int *n, int howmany, fftw_complex *in,
                              const int *inembed, int istride, int idist, double *out,
                              const int *onembed, int ostride, int odist, unsigned flags) {
    return fftw_plan_many_dft_c2r(rank, n, howmany, in, inembed, istride, idist, out, onembed,
                                  ostride, odist, flags | FFTW_NO_SIMD);
}

/* Each alternative has its routine's exact type. */
static __typeof__(&cblas_scasum) const check_scasum = alt_scasum;
static __typeof__(&cblas_dzasum) const check_dzasum = alt_dzasum;
static __typeof__(&cblas_scnrm2) const check_scnrm2 = alt_scnrm2;
static __typeof__(&cblas_dznrm2) const check_dznrm2 = alt_dznrm2;
static __typeof__(&cblas_sgemm) const check_sgemm = alt_sgemm;
static __typeof__(&cblas_cgemm) const check_cgemm = alt_cgemm;
static __typeof__(&fftwf_plan_many_dft) const check_fftwf_dft = alt_fftwf_dft;
static __typeof__(&fftwf_plan_many_dft_r2c) const check_fftwf_r2c = alt_fftwf_r2c;
static __typeof__(&fftwf_plan_many_dft_c2r) const check_fftwf_c2r = alt_fftwf_c2r;
static __typeof__(&fftw_plan_many_dft) const check_fftw_dft = alt_fftw_dft;
static __typeof__(&fftw_plan_many_dft_r2c) const check_fftw_r2c = alt_fftw_r2c;
static __typeof__(&fftw_plan_many_dft_c2r) const check_fftw_c2r = alt_fftw_c2r;

void *st_alternative(int id, const char **name) {
    switch (id) {
    case TRN_R_cblas_scasum: *name = "cblas_sasum over 2n reals"; return (void *)check_scasum;
    case TRN_R_cblas_dzasum: *name = "cblas_dasum over 2n reals"; return (void *)check_dzasum;
    case TRN_R_cblas_scnrm2: *name = "cblas_snrm2 over 2n reals"; return (void *)check_scnrm2;
    case TRN_R_cblas_dznrm2: *name = "cblas_dnrm2 over 2n reals"; return (void *)check_dznrm2;
    case TRN_R_cblas_sgemm: *name = "cblas_dgemm on widened copies"; return (void *)check_sgemm;
    case TRN_R_cblas_cgemm: *name = "cblas_zgemm on widened copies"; return (void *)check_cgemm;
    case TRN_R_fftwf_plan_many_dft: *name = "FFTW without SIMD"; return (void *)check_fftwf_dft;
    case TRN_R_fftwf_plan_many_dft_r2c: *name = "FFTW without SIMD"; return (void *)check_fftwf_r2c;
    case TRN_R_fftwf_plan_many_dft_c2r: *name = "FFTW without SIMD"; return (void *)check_fftwf_c2r;
    case TRN_R_fftw_plan_many_dft: *name = "FFTW without SIMD"; return (void *)check_fftw_dft;
    case TRN_R_fftw_plan_many_dft_r2c: *name = "FFTW without SIMD"; return (void *)check_fftw_r2c;
    case TRN_R_fftw_plan_many_dft_c2r: *name = "FFTW without SIMD"; return (void *)check_fftw_c2r;
    default: break;
    }
    return NULL;
}

/* ---- refusal stubs ----------------------------------------------------------------------- */

/* LAPACK's info for "argument 1 had an illegal value": the kernels treat a
 * negative info as a failure, and the op fails naming the refused routine. */
#define REFUSED_INFO (-1)

#define STUB_POTRF(p, T)                                                                           \
    static lapack_int stub_##p##potrf(int l, char u, lapack_int n, T *a, lapack_int lda) {         \
        (void)l, (void)u, (void)n, (void)a, (void)lda;                                             \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##potri(int l, char u, lapack_int n, T *a, lapack_int lda) {         \
        (void)l, (void)u, (void)n, (void)a, (void)lda;                                             \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##potrs(int l, char u, lapack_int n, lapack_int nrhs, const T *a,    \
                                      lapack_int lda, T *b, lapack_int ldb) {                      \
        (void)l, (void)u, (void)n, (void)nrhs, (void)a, (void)lda, (void)b, (void)ldb;             \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##getrf(int l, lapack_int m, lapack_int n, T *a, lapack_int lda,     \
                                      lapack_int *ipiv) {                                          \
        (void)l, (void)m, (void)n, (void)a, (void)lda, (void)ipiv;                                 \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##getrs(int l, char t, lapack_int n, lapack_int nrhs, const T *a,    \
                                      lapack_int lda, const lapack_int *ipiv, T *b,                \
                                      lapack_int ldb) {                                            \
        (void)l, (void)t, (void)n, (void)nrhs, (void)a, (void)lda, (void)ipiv, (void)b, (void)ldb; \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##geqrf(int l, lapack_int m, lapack_int n, T *a, lapack_int lda,     \
                                      T *tau, T *work, lapack_int lwork) {                         \
        (void)l, (void)m, (void)n, (void)a, (void)lda, (void)tau, (void)work, (void)lwork;         \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##orgqr(int l, lapack_int m, lapack_int n, lapack_int k, T *a,       \
                                      lapack_int lda, const T *tau, T *work, lapack_int lwork) {   \
        (void)l, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)tau, (void)work,             \
            (void)lwork;                                                                           \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##ormqr(int l, char side, char t, lapack_int m, lapack_int n,        \
                                      lapack_int k, const T *a, lapack_int lda, const T *tau,      \
                                      T *c, lapack_int ldc, T *work, lapack_int lwork) {           \
        (void)l, (void)side, (void)t, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)tau,    \
            (void)c, (void)ldc, (void)work, (void)lwork;                                           \
        return REFUSED_INFO;                                                                       \
    }
STUB_POTRF(s, float)
STUB_POTRF(d, double)
STUB_POTRF(c, lapack_complex_float)
STUB_POTRF(z, lapack_complex_double)

#define STUB_REAL_EIG(p, T)                                                                        \
    static lapack_int stub_##p##syevd(int l, char jobz, char u, lapack_int n, T *a,                \
                                      lapack_int lda, T *w, T *work, lapack_int lwork,             \
                                      lapack_int *iwork, lapack_int liwork) {                      \
        (void)l, (void)jobz, (void)u, (void)n, (void)a, (void)lda, (void)w, (void)work,            \
            (void)lwork, (void)iwork, (void)liwork;                                                \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##sygvd(int l, lapack_int itype, char jobz, char u, lapack_int n,    \
                                      T *a, lapack_int lda, T *b, lapack_int ldb, T *w, T *work,   \
                                      lapack_int lwork, lapack_int *iwork, lapack_int liwork) {    \
        (void)l, (void)itype, (void)jobz, (void)u, (void)n, (void)a, (void)lda, (void)b,           \
            (void)ldb, (void)w, (void)work, (void)lwork, (void)iwork, (void)liwork;                \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##gesvd(int l, char ju, char jv, lapack_int m, lapack_int n, T *a,   \
                                      lapack_int lda, T *s, T *u, lapack_int ldu, T *vt,           \
                                      lapack_int ldvt, T *work, lapack_int lwork) {                \
        (void)l, (void)ju, (void)jv, (void)m, (void)n, (void)a, (void)lda, (void)s, (void)u,       \
            (void)ldu, (void)vt, (void)ldvt, (void)work, (void)lwork;                              \
        return REFUSED_INFO;                                                                       \
    }
STUB_REAL_EIG(s, float)
STUB_REAL_EIG(d, double)

#define STUB_REAL_GEEV(p, T)                                                                       \
    static lapack_int stub_##p##geev(int l, char jl, char jr, lapack_int n, T *a, lapack_int lda,  \
                                     T *wr, T *wi, T *vl, lapack_int ldvl, T *vr, lapack_int ldvr, \
                                     T *work, lapack_int lwork) {                                  \
        (void)l, (void)jl, (void)jr, (void)n, (void)a, (void)lda, (void)wr, (void)wi, (void)vl,    \
            (void)ldvl, (void)vr, (void)ldvr, (void)work, (void)lwork;                             \
        return REFUSED_INFO;                                                                       \
    }
STUB_REAL_GEEV(s, float)
STUB_REAL_GEEV(d, double)

#define STUB_CX_EIG(p, T, R)                                                                       \
    static lapack_int stub_##p##heevd(int l, char jobz, char u, lapack_int n, T *a,                \
                                      lapack_int lda, R *w, T *work, lapack_int lwork, R *rwork,   \
                                      lapack_int lrwork, lapack_int *iwork, lapack_int liwork) {   \
        (void)l, (void)jobz, (void)u, (void)n, (void)a, (void)lda, (void)w, (void)work,            \
            (void)lwork, (void)rwork, (void)lrwork, (void)iwork, (void)liwork;                     \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##hegvd(int l, lapack_int itype, char jobz, char u, lapack_int n,    \
                                      T *a, lapack_int lda, T *b, lapack_int ldb, R *w, T *work,   \
                                      lapack_int lwork, R *rwork, lapack_int lrwork,               \
                                      lapack_int *iwork, lapack_int liwork) {                      \
        (void)l, (void)itype, (void)jobz, (void)u, (void)n, (void)a, (void)lda, (void)b,           \
            (void)ldb, (void)w, (void)work, (void)lwork, (void)rwork, (void)lrwork, (void)iwork,   \
            (void)liwork;                                                                          \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##gesvd(int l, char ju, char jv, lapack_int m, lapack_int n, T *a,   \
                                      lapack_int lda, R *s, T *u, lapack_int ldu, T *vt,           \
                                      lapack_int ldvt, T *work, lapack_int lwork, R *rwork) {      \
        (void)l, (void)ju, (void)jv, (void)m, (void)n, (void)a, (void)lda, (void)s, (void)u,       \
            (void)ldu, (void)vt, (void)ldvt, (void)work, (void)lwork, (void)rwork;                 \
        return REFUSED_INFO;                                                                       \
    }
STUB_CX_EIG(c, lapack_complex_float, float)
STUB_CX_EIG(z, lapack_complex_double, double)

#define STUB_CX_GEEV(p, T, R)                                                                      \
    static lapack_int stub_##p##geev(int l, char jl, char jr, lapack_int n, T *a, lapack_int lda,  \
                                     T *w, T *vl, lapack_int ldvl, T *vr, lapack_int ldvr,         \
                                     T *work, lapack_int lwork, R *rwork) {                        \
        (void)l, (void)jl, (void)jr, (void)n, (void)a, (void)lda, (void)w, (void)vl, (void)ldvl,   \
            (void)vr, (void)ldvr, (void)work, (void)lwork, (void)rwork;                            \
        return REFUSED_INFO;                                                                       \
    }
STUB_CX_GEEV(c, lapack_complex_float, float)
STUB_CX_GEEV(z, lapack_complex_double, double)

static fftwf_plan stub_fftwf_dft(int rank, const int *n, int howmany, fftwf_complex *in,
                                 const int *inembed, int istride, int idist, fftwf_complex *out,
                                 const int *onembed, int ostride, int odist, int sign,
                                 unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)sign, (void)flags;
    return NULL;
}

static fftwf_plan stub_fftwf_r2c(int rank, const int *n, int howmany, float *in, const int *inembed,
                                 int istride, int idist, fftwf_complex *out, const int *onembed,
                                 int ostride, int odist, unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)flags;
    return NULL;
}

static fftwf_plan stub_fftwf_c2r(int rank, const int *n, int howmany, fftwf_complex *in,
                                 const int *inembed, int istride, int idist, float *out,
                                 const int *onembed, int ostride, int odist, unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)flags;
    return NULL;
}

static fftw_plan stub_fftw_dft(int rank, const int *n, int howmany, fftw_complex *in,
                               const int *inembed, int istride, int idist, fftw_complex *out,
                               const int *onembed, int ostride, int odist, int sign,
                               unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)sign, (void)flags;
    return NULL;
}

static fftw_plan stub_fftw_r2c(int rank, const int *n, int howmany, double *in, const int *inembed,
                               int istride, int idist, fftw_complex *out, const int *onembed,
                               int ostride, int odist, unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)flags;
    return NULL;
}

static fftw_plan stub_fftw_c2r(int rank, const int *n, int howmany, fftw_complex *in,
                               const int *inembed, int istride, int idist, double *out,
                               const int *onembed, int ostride, int odist, unsigned flags) {
    (void)rank, (void)n, (void)howmany, (void)in, (void)inembed, (void)istride, (void)idist,
        (void)out, (void)onembed, (void)ostride, (void)odist, (void)flags;
    return NULL;
}

/* The tridiagonal reduction and the tridiagonal eigensolver of the tiled
 * syevd (solver_eig_tile.c). */
#define STUB_TRD(p, T, R)                                                                          \
    static lapack_int stub_##p##sytrd(int l, char u, lapack_int n, T *a, lapack_int lda, R *d,     \
                                      R *e, T *tau, T *work, lapack_int lwork) {                   \
        (void)l, (void)u, (void)n, (void)a, (void)lda, (void)d, (void)e, (void)tau, (void)work,    \
            (void)lwork;                                                                           \
        return REFUSED_INFO;                                                                       \
    }
STUB_TRD(s, float, float)
STUB_TRD(d, double, double)
STUB_TRD(c, lapack_complex_float, float)
STUB_TRD(z, lapack_complex_double, double)

#define STUB_STEDC(p, R)                                                                           \
    static lapack_int stub_##p##stedc(int l, char compz, lapack_int n, R *d, R *e, R *z,           \
                                      lapack_int ldz, R *work, lapack_int lwork,                   \
                                      lapack_int *iwork, lapack_int liwork) {                      \
        (void)l, (void)compz, (void)n, (void)d, (void)e, (void)z, (void)ldz, (void)work,           \
            (void)lwork, (void)iwork, (void)liwork;                                                \
        return REFUSED_INFO;                                                                       \
    }
STUB_STEDC(s, float)
STUB_STEDC(d, double)

/* The bidiagonal reduction, its Q and P^H, and the bidiagonal QR iteration
 * of the tiled gesvd (solver_svd_tile.c). */
#define STUB_BRD(p, T, R)                                                                          \
    static lapack_int stub_##p##gebrd(int l, lapack_int m, lapack_int n, T *a, lapack_int lda,     \
                                      R *d, R *e, T *tauq, T *taup, T *work, lapack_int lwork) {   \
        (void)l, (void)m, (void)n, (void)a, (void)lda, (void)d, (void)e, (void)tauq, (void)taup,   \
            (void)work, (void)lwork;                                                               \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##orgbr(int l, char v, lapack_int m, lapack_int n, lapack_int k,     \
                                      T *a, lapack_int lda, const T *tau, T *work,                 \
                                      lapack_int lwork) {                                          \
        (void)l, (void)v, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)tau, (void)work,    \
            (void)lwork;                                                                           \
        return REFUSED_INFO;                                                                       \
    }                                                                                              \
    static lapack_int stub_##p##bdsqr(                                                             \
        int l, char u, lapack_int n, lapack_int ncvt, lapack_int nru, lapack_int ncc, R *d, R *e,  \
        T *vt, lapack_int ldvt, T *uu, lapack_int ldu, T *c, lapack_int ldc, R *work) {            \
        (void)l, (void)u, (void)n, (void)ncvt, (void)nru, (void)ncc, (void)d, (void)e, (void)vt,   \
            (void)ldvt, (void)uu, (void)ldu, (void)c, (void)ldc, (void)work;                       \
        return REFUSED_INFO;                                                                       \
    }
STUB_BRD(s, float, float)
STUB_BRD(d, double, double)
STUB_BRD(c, lapack_complex_float, float)
STUB_BRD(z, lapack_complex_double, double)

/* The stub of each LAPACK and FFTW routine, typed as the routine. */
#define STUBS(X)                                                                                   \
    X(LAPACKE_spotrf_work, stub_spotrf)                                                            \
    X(LAPACKE_dpotrf_work, stub_dpotrf)                                                            \
    X(LAPACKE_cpotrf_work, stub_cpotrf)                                                            \
    X(LAPACKE_zpotrf_work, stub_zpotrf)                                                            \
    X(LAPACKE_spotrs_work, stub_spotrs)                                                            \
    X(LAPACKE_dpotrs_work, stub_dpotrs)                                                            \
    X(LAPACKE_cpotrs_work, stub_cpotrs) X(LAPACKE_zpotrs_work, stub_zpotrs) X(                     \
        LAPACKE_spotri_work, stub_spotri) X(LAPACKE_dpotri_work,                                   \
                                            stub_dpotri) X(LAPACKE_cpotri_work,                    \
                                                           stub_cpotri) X(LAPACKE_zpotri_work,     \
                                                                          stub_zpotri)             \
        X(LAPACKE_sgetrf_work, stub_sgetrf) X(LAPACKE_dgetrf_work, stub_dgetrf) X(                 \
            LAPACKE_cgetrf_work,                                                                   \
            stub_cgetrf) X(LAPACKE_zgetrf_work,                                                    \
                           stub_zgetrf) X(LAPACKE_sgetrs_work,                                     \
                                          stub_sgetrs) X(LAPACKE_dgetrs_work,                      \
                                                         stub_dgetrs) X(LAPACKE_cgetrs_work,       \
                                                                        stub_cgetrs)               \
            X(LAPACKE_zgetrs_work, stub_zgetrs) X(LAPACKE_sgeqrf_work, stub_sgeqrf) X(             \
                LAPACKE_dgeqrf_work,                                                               \
                stub_dgeqrf) X(LAPACKE_cgeqrf_work,                                                \
                               stub_cgeqrf) X(LAPACKE_zgeqrf_work,                                 \
                                              stub_zgeqrf) X(LAPACKE_sorgqr_work,                  \
                                                             stub_sorgqr) X(LAPACKE_dorgqr_work,   \
                                                                            stub_dorgqr)           \
                X(LAPACKE_cungqr_work, stub_corgqr) X(LAPACKE_zungqr_work, stub_zorgqr) X(         \
                    LAPACKE_sormqr_work,                                                           \
                    stub_sormqr) X(LAPACKE_dormqr_work,                                            \
                                   stub_dormqr) X(LAPACKE_cunmqr_work,                             \
                                                  stub_cormqr) X(LAPACKE_zunmqr_work, stub_zormqr) \
                    X(LAPACKE_ssyevd_work, stub_ssyevd) X(LAPACKE_dsyevd_work, stub_dsyevd) X(     \
                        LAPACKE_cheevd_work,                                                       \
                        stub_cheevd) X(LAPACKE_zheevd_work,                                        \
                                       stub_zheevd) X(LAPACKE_ssygvd_work,                         \
                                                      stub_ssygvd) X(LAPACKE_dsygvd_work,          \
                                                                     stub_dsygvd)                  \
                        X(LAPACKE_chegvd_work, stub_chegvd) X(LAPACKE_zhegvd_work, stub_zhegvd) X( \
                            LAPACKE_sgesvd_work,                                                   \
                            stub_sgesvd) X(LAPACKE_dgesvd_work,                                    \
                                           stub_dgesvd) X(LAPACKE_cgesvd_work,                     \
                                                          stub_cgesvd) X(LAPACKE_zgesvd_work,      \
                                                                         stub_zgesvd)              \
                            X(LAPACKE_sgeev_work, stub_sgeev) X(LAPACKE_dgeev_work, stub_dgeev) X( \
                                LAPACKE_cgeev_work, stub_cgeev) X(LAPACKE_zgeev_work, stub_zgeev)  \
                                X(LAPACKE_ssytrd_work,                                             \
                                  stub_ssytrd) X(LAPACKE_dsytrd_work,                              \
                                                 stub_dsytrd) X(LAPACKE_chetrd_work, stub_csytrd)  \
                                    X(LAPACKE_zhetrd_work, stub_zsytrd) X(                         \
                                        LAPACKE_sstedc_work,                                       \
                                        stub_sstedc) X(LAPACKE_dstedc_work,                        \
                                                       stub_dstedc) X(LAPACKE_sgebrd_work,         \
                                                                      stub_sgebrd)                 \
                                        X(LAPACKE_dgebrd_work, stub_dgebrd) X(                     \
                                            LAPACKE_cgebrd_work,                                   \
                                            stub_cgebrd) X(LAPACKE_zgebrd_work,                    \
                                                           stub_zgebrd) X(LAPACKE_sorgbr_work,     \
                                                                          stub_sorgbr)             \
                                            X(LAPACKE_dorgbr_work, stub_dorgbr) X(                 \
                                                LAPACKE_cungbr_work,                               \
                                                stub_corgbr) X(LAPACKE_zungbr_work,                \
                                                               stub_zorgbr) X(LAPACKE_sbdsqr_work, \
                                                                              stub_sbdsqr)         \
                                                X(LAPACKE_dbdsqr_work,                             \
                                                  stub_dbdsqr) X(LAPACKE_cbdsqr_work, stub_cbdsqr) \
                                                    X(LAPACKE_zbdsqr_work, stub_zbdsqr) X(         \
                                                        fftwf_plan_many_dft,                       \
                                                        stub_fftwf_dft) X(fftwf_plan_many_dft_r2c, \
                                                                          stub_fftwf_r2c)          \
                                                        X(fftwf_plan_many_dft_c2r, stub_fftwf_c2r) \
                                                            X(fftw_plan_many_dft, stub_fftw_dft)   \
                                                                X(fftw_plan_many_dft_r2c,          \
                                                                  stub_fftw_r2c)                   \
                                                                    X(fftw_plan_many_dft_c2r,      \
                                                                      stub_fftw_c2r)

void *st_refusal_stub(int id) {
    switch (id) {
#define CASE(name, stub)                                                                           \
    case TRN_R_##name: {                                                                           \
        __typeof__(&name) const f = stub;                                                          \
        return (void *)f;                                                                          \
    }
        STUBS(CASE)
#undef CASE
    default: break;
    }
    return NULL;
}
