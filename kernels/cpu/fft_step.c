/*
 * fft_step.c — the tile tasks of a single large FFT's steps
 * (ops/fft_step.h) on the CPU with FFTW. A shard runs the contiguous run
 * of its step's tasks trn_cpu_shard_range gives it; every task writes its
 * own columns or slabs.
 *
 * COLS and PENCILS gather their block of columns into the worker's
 * workspace (trn_solver_ws_get: reused from op to op, page-aligned, so the
 * sub-plan made for aligned contiguous data in place applies to each
 * column), transform each with fftw(f)_execute_dft, and scatter them back
 * (COLS: twiddled, one contiguous run per column). SLABS executes the slab
 * plan (C2C, Z2Z, R2C, D2Z, C2R or Z2D) on the client's arrays where they
 * are, slab s
 * at in + s idist and out + s odist (the step's variant says whether they
 * are aligned). Every shard executes the same FFTW plan.
 *
 * Twiddles W_N^m = exp(-+2 pi i m / N), N = rows x cols, m = c k < N for
 * column c and row k: the product T1[m / rows] T2[m % rows] of two tables,
 * T1[q] = W_N^(q rows) (cols entries) and T2[r] = W_N^r (rows entries),
 * each entry computed in long double and rounded to double, the product in
 * double (relative error a few units of double rounding; docs/numerics.md).
 * The tables are built per shard: rows + cols sincos calls, next to the
 * rows x cols FFT work of the step. A twiddle depends on (c, k) alone.
 * R2C_POST and C2R_PRE (1D real transforms) run no plan: their twiddles
 * W_n^(-+k) come from two tables the same way, of about sqrt(m) entries each.
 */
#include <fftw3.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_util.h"
#include "ops/fft_step.h"

/* The twiddle tables of step d (N = rows x cols), 2 doubles per entry. */
static void twiddle_tables(const trn_fft_desc *d, double *t1, double *t2) {
    const size_t rows = (size_t)d->fftstep_rows, cols = (size_t)d->fftstep_cols;
    const long double n = (long double)rows * (long double)cols;
    const long double sign = (d->variant & TRN_FFT_VARIANT_INVERSE) ? 1.0L : -1.0L;
    const long double two_pi = 6.283185307179586476925286766559005768L;
    for (size_t q = 0; q < cols; q++) {
        const long double a = two_pi * (long double)(q * rows) / n;
        t1[2 * q] = (double)cosl(a);
        t1[2 * q + 1] = (double)(sign * sinl(a));
    }
    for (size_t r = 0; r < rows; r++) {
        const long double a = two_pi * (long double)r / n;
        t2[2 * r] = (double)cosl(a);
        t2[2 * r + 1] = (double)(sign * sinl(a));
    }
}

/* The workspace's distance between gathered columns, in elements: rows
 * and a cache line or two more, even. Column b sits at b ld: with ld = rows
 * a power of two, the gather's writes of one row (one element per column)
 * would all fall in the same cache set and evict one another (measured: the
 * steps of a 2^18-point transform ran 3x slower). Even, so that every
 * column stays 16-byte aligned for the plan made for aligned data. */
static size_t ws_ld(size_t rows) {
    return rows + 8 + (rows & 1);
}

/* One precision's tasks: T the real type, EXEC FFTW's new-array execute,
 * CPLX its complex type. The workspace holds column b at ws + 2 b ld. */
#define FFT_STEP_IMPL(SUF, T, EXEC, REXEC, CEXEC, CPLX)                                            \
    static void gather_##SUF(const T *src, size_t cols, size_t rows, size_t ld, size_t c0,         \
                             size_t w, T *t) {                                                     \
        for (size_t r = 0; r < rows; r++) {                                                        \
            const T *s = src + 2 * (r * cols + c0);                                                \
            for (size_t b = 0; b < w; b++) {                                                       \
                t[2 * (b * ld + r)] = s[2 * b];                                                    \
                t[2 * (b * ld + r) + 1] = s[2 * b + 1];                                            \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void scatter_##SUF(const T *t, size_t cols, size_t rows, size_t ld, size_t c0,          \
                              size_t w, T *dst) {                                                  \
        for (size_t r = 0; r < rows; r++) {                                                        \
            T *s = dst + 2 * (r * cols + c0);                                                      \
            for (size_t b = 0; b < w; b++) {                                                       \
                s[2 * b] = t[2 * (b * ld + r)];                                                    \
                s[2 * b + 1] = t[2 * (b * ld + r) + 1];                                            \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* Column c (rows elements at t) times W^(c k), into dst contiguously. */                      \
    static void twiddle_##SUF(const T *t, size_t rows, size_t c, const double *t1,                 \
                              const double *t2, T *dst) {                                          \
        const size_t cq = c / rows, cr = c % rows;                                                 \
        size_t q = 0, r = 0; /* c k = q rows + r */                                                \
        for (size_t k = 0; k < rows; k++) {                                                        \
            const double wr = t1[2 * q] * t2[2 * r] - t1[2 * q + 1] * t2[2 * r + 1];               \
            const double wi = t1[2 * q] * t2[2 * r + 1] + t1[2 * q + 1] * t2[2 * r];               \
            const double xr = t[2 * k], xi = t[2 * k + 1];                                         \
            dst[2 * k] = (T)(xr * wr - xi * wi);                                                   \
            dst[2 * k + 1] = (T)(xr * wi + xi * wr);                                               \
            q += cq;                                                                               \
            r += cr;                                                                               \
            if (r >= rows) {                                                                       \
                r -= rows;                                                                         \
                q++;                                                                               \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void tasks_##SUF(const trn_fft_desc *d, void *plan, size_t lo, size_t hi, T *ws,        \
                            const double *t1, const double *t2) {                                  \
        const size_t rows = (size_t)d->fftstep_rows, cols = (size_t)d->fftstep_cols;               \
        const size_t ld = ws_ld(rows);                                                             \
        const int real = d->type == TRN_FFT_R2C || d->type == TRN_FFT_D2Z;                         \
        const int c2r = d->type == TRN_FFT_C2R || d->type == TRN_FFT_Z2D;                          \
        const T *in = d->in;                                                                       \
        T *out = d->out;                                                                           \
        for (size_t t = lo; t < hi; t++) {                                                         \
            size_t c0, c1;                                                                         \
            trn_fftstep_task(d, t, &c0, &c1);                                                      \
            if (d->fftstep_kind == TRN_FFTSTEP_SLABS) {                                            \
                for (size_t s = c0; s < c1; s++)                                                   \
                    if (real)                                                                      \
                        REXEC(plan, (T *)in + s * d->idist, (CPLX *)(out + 2 * s * d->odist));     \
                    else if (c2r)                                                                  \
                        CEXEC(plan, (CPLX *)(in + 2 * s * d->idist), out + s * d->odist);          \
                    else                                                                           \
                        EXEC(plan, (CPLX *)(in + 2 * s * d->idist),                                \
                             (CPLX *)(out + 2 * s * d->odist));                                    \
                continue;                                                                          \
            }                                                                                      \
            const size_t w = c1 - c0;                                                              \
            gather_##SUF(in, cols, rows, ld, c0, w, ws);                                           \
            for (size_t b = 0; b < w; b++)                                                         \
                EXEC(plan, (CPLX *)(ws + 2 * b * ld), (CPLX *)(ws + 2 * b * ld));                  \
            if (d->fftstep_kind == TRN_FFTSTEP_PENCILS) {                                          \
                scatter_##SUF(ws, cols, rows, ld, c0, w, out);                                     \
                continue;                                                                          \
            }                                                                                      \
            for (size_t b = 0; b < w; b++)                                                         \
                twiddle_##SUF(ws + 2 * b * ld, rows, c0 + b, t1, t2, out + 2 * (c0 + b) * rows);   \
        }                                                                                          \
    }

/* R2C_POST (ops/fft_step.h): pairs k, m - k for k in [lo, hi) of
 * 0 .. m/2, in place on out; W_n^k = t1[k >> lb] t2[k & (L - 1)]. */
#define POST_IMPL(SUF, T)                                                                          \
    static void post_##SUF(const trn_fft_desc *d, size_t lo, size_t hi, const double *t1,          \
                           const double *t2, unsigned lb) {                                        \
        const size_t m = (size_t)d->fftstep_rows, mask = ((size_t)1 << lb) - 1;                    \
        T *z = d->out;                                                                             \
        for (size_t k = lo; k < hi; k++) {                                                         \
            const size_t p = m - k, pz = p % m;                                                    \
            const double ar = z[2 * k], ai = z[2 * k + 1], br = z[2 * pz], bi = z[2 * pz + 1];     \
            for (int side = 0; side < (p != k ? 2 : 1); side++) {                                  \
                /* X[j] = E - i W^j O, E = (a + conj b) / 2, O = (a - conj b) / 2. */              \
                const size_t j = side ? p : k;                                                     \
                const double xr = side ? br : ar, xi = side ? bi : ai;                             \
                const double yr = side ? ar : br, yi = side ? -ai : -bi;                           \
                const double er = 0.5 * (xr + yr), ei = 0.5 * (xi + yi);                           \
                const double or_ = 0.5 * (xr - yr), oi = 0.5 * (xi - yi);                          \
                const double *u = t1 + 2 * (j >> lb), *v = t2 + 2 * (j & mask);                    \
                const double wr = u[0] * v[0] - u[1] * v[1], wi = u[0] * v[1] + u[1] * v[0];       \
                const double pr = wr * or_ - wi * oi, pi = wr * oi + wi * or_;                     \
                z[2 * j] = (T)(er + pi);                                                           \
                z[2 * j + 1] = (T)(ei - pr);                                                       \
            }                                                                                      \
        }                                                                                          \
    }

/* C2R_PRE (ops/fft_step.h): pairs k, m - k for k in [lo, hi) of 0 .. m/2,
 * in place on the input; t1, t2 hold W_n^-j. Z[m] is not formed (k = 0's
 * partner is the input's last element, X[m]). */
#define PRE_IMPL(SUF, T)                                                                           \
    static void pre_##SUF(const trn_fft_desc *d, size_t lo, size_t hi, const double *t1,           \
                          const double *t2, unsigned lb) {                                         \
        const size_t m = (size_t)d->fftstep_rows, mask = ((size_t)1 << lb) - 1;                    \
        T *x = d->out;                                                                             \
        for (size_t k = lo; k < hi; k++) {                                                         \
            const size_t p = m - k;                                                                \
            const double ar = x[2 * k], ai = x[2 * k + 1], br = x[2 * p], bi = x[2 * p + 1];       \
            for (int side = 0; side < (p != k && p < m ? 2 : 1); side++) {                         \
                /* Z[j] = E + i W^-j O, E = a + conj b, O = a - conj b. */                         \
                const size_t j = side ? p : k;                                                     \
                const double xr = side ? br : ar, xi = side ? bi : ai;                             \
                const double yr = side ? ar : br, yi = side ? -ai : -bi;                           \
                const double er = xr + yr, ei = xi + yi, or_ = xr - yr, oi = xi - yi;              \
                const double *u = t1 + 2 * (j >> lb), *v = t2 + 2 * (j & mask);                    \
                const double wr = u[0] * v[0] - u[1] * v[1], wi = u[0] * v[1] + u[1] * v[0];       \
                const double pr = wr * or_ - wi * oi, pi = wr * oi + wi * or_;                     \
                x[2 * j] = (T)(er - pi);                                                           \
                x[2 * j + 1] = (T)(ei + pr);                                                       \
            }                                                                                      \
        }                                                                                          \
    }

POST_IMPL(c, float)
POST_IMPL(z, double)
PRE_IMPL(c, float)
PRE_IMPL(z, double)

/* W_{2m}^k (sign -1; +1: its conjugate) for k <= m as t1[k >> lb]
 * t2[k & (2^lb - 1)] (long double, rounded to double); lb about half of
 * log2 m. */
static void post_tables(size_t m, unsigned lb, double sign, double *t1, double *t2) {
    const long double n = 2.0L * (long double)m;
    const long double two_pi = 6.283185307179586476925286766559005768L;
    const size_t L = (size_t)1 << lb;
    for (size_t q = 0; q <= (m >> lb); q++) {
        const long double a = two_pi * (long double)(q * L) / n;
        t1[2 * q] = (double)cosl(a);
        t1[2 * q + 1] = sign * (double)sinl(a);
    }
    for (size_t r = 0; r < L; r++) {
        const long double a = two_pi * (long double)r / n;
        t2[2 * r] = (double)cosl(a);
        t2[2 * r + 1] = sign * (double)sinl(a);
    }
}

static trn_kstatus post_step(const trn_fft_desc *d, trn_kmsg *msg, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range(trn_fftstep_tasks(d), shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    size_t k0, k1, unused;
    trn_fftstep_task(d, lo, &k0, &unused);
    trn_fftstep_task(d, hi - 1, &unused, &k1);
    const size_t m = (size_t)d->fftstep_rows;
    unsigned lb = 0;
    while (((size_t)1 << (2 * lb)) < m)
        lb++;
    const size_t bytes = (((m >> lb) + 1) + ((size_t)1 << lb)) * 2 * sizeof(double);
    double *t1 = trn_solver_ws_get(bytes);
    if (!t1)
        return trn_kmsg_no_memory(msg, shard, bytes, "the twiddle tables of a parallel R2C/C2R");
    double *t2 = t1 + 2 * ((m >> lb) + 1);
    const int pre = d->fftstep_kind == TRN_FFTSTEP_C2R_PRE;
    post_tables(m, lb, pre ? 1.0 : -1.0, t1, t2);
    const int dbl = d->type == TRN_FFT_D2Z || d->type == TRN_FFT_Z2D;
    if (pre && dbl)
        pre_z(d, k0, k1, t1, t2, lb);
    else if (pre)
        pre_c(d, k0, k1, t1, t2, lb);
    else if (dbl)
        post_z(d, k0, k1, t1, t2, lb);
    else
        post_c(d, k0, k1, t1, t2, lb);
    trn_solver_ws_put(t1, bytes);
    return TRN_KSTATUS_OK;
}

FFT_STEP_IMPL(c, float, fftwf_execute_dft, fftwf_execute_dft_r2c, fftwf_execute_dft_c2r,
              fftwf_complex)
FFT_STEP_IMPL(z, double, fftw_execute_dft, fftw_execute_dft_r2c, fftw_execute_dft_c2r, fftw_complex)

trn_kstatus trn_cpu_fft_step(const trn_fft_desc *d, void *plan, trn_kmsg *msg, int shard,
                             int nshards) {
    if (d->fftstep_kind == TRN_FFTSTEP_R2C_POST || d->fftstep_kind == TRN_FFTSTEP_C2R_PRE)
        return post_step(d, msg, shard, nshards);
    size_t lo, hi;
    trn_cpu_shard_range(trn_fftstep_tasks(d), shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    const int dbl = d->type == TRN_FFT_Z2Z || d->type == TRN_FFT_D2Z || d->type == TRN_FFT_Z2D;
    const size_t es = dbl ? 16 : 8, rows = (size_t)d->fftstep_rows;
    const size_t cols = (size_t)d->fftstep_cols;
    /* Workspace: the gathered block, then (COLS) the two twiddle tables. */
    size_t bytes = 0, tw = 0;
    if (d->fftstep_kind != TRN_FFTSTEP_SLABS)
        bytes = (size_t)d->fftstep_block * ws_ld(rows) * es;
    if (d->fftstep_kind == TRN_FFTSTEP_COLS)
        tw = (rows + cols) * 2 * sizeof(double);
    void *ws = NULL;
    if (bytes + tw) {
        ws = trn_solver_ws_get(bytes + tw);
        if (!ws)
            return trn_kmsg_no_memory(msg, shard, bytes + tw,
                                      "the workspace of a parallel FFT's tile (%zu columns of %zu)",
                                      (size_t)d->fftstep_block, rows);
    }
    double *t1 = NULL, *t2 = NULL;
    if (tw) {
        t1 = (double *)((char *)ws + bytes);
        t2 = t1 + 2 * cols;
        twiddle_tables(d, t1, t2);
    }
    if (dbl)
        tasks_z(d, plan, lo, hi, ws, t1, t2);
    else
        tasks_c(d, plan, lo, hi, ws, t1, t2);
    if (ws)
        trn_solver_ws_put(ws, bytes + tw);
    return TRN_KSTATUS_OK;
}
