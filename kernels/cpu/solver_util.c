/*
 * solver_util.c — shared pieces of the trnsolver kernels: accurate inner
 * products (solver_util.h explains the accumulation), the iteration record,
 * workspace allocation, finiteness checks and matrix copies.
 */
#include "kernels/cpu/solver_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double trn_sdot_acc(int n, const float *x, const float *y) {
    /* Four partial sums: the compiler may vectorise, the order is fixed. */
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += (double)x[i] * (double)y[i];
        s1 += (double)x[i + 1] * (double)y[i + 1];
        s2 += (double)x[i + 2] * (double)y[i + 2];
        s3 += (double)x[i + 3] * (double)y[i + 3];
    }
    for (; i < n; i++)
        s0 += (double)x[i] * (double)y[i];
    return (s0 + s1) + (s2 + s3);
}

double trn_ddot_acc(int n, const double *x, const double *y) {
    /* Dot2 (Ogita, Rump, Oishi 2005, Algorithm 5.3): TwoProduct by fma,
     * TwoSum (Knuth) on the running sum, errors summed in c. */
    double s = 0.0, c = 0.0;
    for (int i = 0; i < n; i++) {
        const double p = x[i] * y[i];
        const double pe = fma(x[i], y[i], -p);
        const double t = s + p;
        const double z = t - s;
        const double se = (s - (t - z)) + (p - z);
        s = t;
        c += se + pe;
    }
    return s + c;
}

double trn_snrm2_acc(int n, const float *x) {
    return sqrt(trn_sdot_acc(n, x, x));
}

double trn_dnrm2_acc(int n, const double *x) {
    return sqrt(trn_ddot_acc(n, x, x));
}

void trn_solver_put_stats(trn_solver_stats *stats, int iterations, int status, double residual) {
    if (!stats)
        return;
    trn_solver_stats v = {.iterations = iterations, .status = status, .residual = residual};
    memcpy(stats, &v, sizeof(v));
}

void *trn_solver_alloc(size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

int trn_solver_nonfinite(trn_dtype t, int rows, int cols, const void *a, int ld) {
    const size_t comps = (t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F) ? 2 : 1;
    const int single = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    for (int j = 0; j < cols; j++) {
        const size_t off = (size_t)j * (size_t)ld * comps;
        const size_t len = (size_t)rows * comps;
        if (single) {
            const float *c = (const float *)a + off;
            for (size_t i = 0; i < len; i++)
                if (!isfinite(c[i]))
                    return 1;
        } else {
            const double *c = (const double *)a + off;
            for (size_t i = 0; i < len; i++)
                if (!isfinite(c[i]))
                    return 1;
        }
    }
    return 0;
}

void trn_solver_copy(int rows, int cols, size_t es, const void *src, int lds, void *dst, int ldd) {
    if (rows <= 0 || cols <= 0)
        return;
    for (int j = 0; j < cols; j++)
        memmove((char *)dst + (size_t)j * (size_t)ldd * es,
                (const char *)src + (size_t)j * (size_t)lds * es, (size_t)rows * es);
}
