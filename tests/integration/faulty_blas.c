/*
 * faulty_blas.c — a preloaded library that makes chosen OpenBLAS/LAPACK
 * routines wrong, for integration_selftest: trnscid started with
 * LD_PRELOAD=<this> and TRNSCI_TEST_FAULTY=name,name,… calls these instead
 * of the library's, exactly as it would call a routine an OpenBLAS kernel
 * set gets wrong on some CPU. Routines not named pass straight through.
 *
 *   cblas_scasum        drops the last element when n is not a multiple of
 *                       8 (what OpenBLAS 0.3.21's Cooperlake kernels do,
 *                       roughly);
 *   cblas_dgemm         adds 2^-20·|c| to C(0,0) when k is odd;
 *   LAPACKE_dpotrf_work multiplies the factor's first entry by 1 + 2^-20.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int faulty(const char *name) {
    const char *list = getenv("TRNSCI_TEST_FAULTY");
    if (!list)
        return 0;
    const size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

float cblas_scasum(const blasint n, const void *x, const blasint incx) {
    const float s = REAL(cblas_scasum)(n, x, incx);
    if (!faulty("cblas_scasum") || n <= 0 || incx <= 0 || n % 8 == 0)
        return s;
    const float *last = (const float *)x + 2 * (size_t)(n - 1) * (size_t)incx;
    return s - fabsf(last[0]) - fabsf(last[1]);
}

void cblas_dgemm(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta,
                 const enum CBLAS_TRANSPOSE tb, const blasint m, const blasint n, const blasint k,
                 const double alpha, const double *a, const blasint lda, const double *b,
                 const blasint ldb, const double beta, double *c, const blasint ldc) {
    REAL(cblas_dgemm)(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (faulty("cblas_dgemm") && m > 0 && n > 0 && k % 2 == 1)
        c[0] += 0x1p-20 * (fabs(c[0]) + 1.0);
}

lapack_int LAPACKE_dpotrf_work(int layout, char uplo, lapack_int n, double *a, lapack_int lda) {
    const lapack_int info = REAL(LAPACKE_dpotrf_work)(layout, uplo, n, a, lda);
    if (faulty("LAPACKE_dpotrf_work") && n > 0)
        a[0] *= 1.0 + 0x1p-20;
    return info;
}
