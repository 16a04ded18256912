/*
 * test_fft_step.c — one large FFT cut into steps of tile tasks
 * (ops/fft_step.h) and their CPU kernel (kernels/cpu/fft_step.c), run here
 * step by step with the shards of each step run one after the other:
 *  - which shapes are split (thresholds, batch, type, layout, in place);
 *  - every step's tasks cover its columns or slabs once, in order;
 *  - C2C/Z2Z in 1D (out of place and in place through scratch), 2D, 3D,
 *    R2C/D2Z in 1D (a complex transform of half the size, then the post
 *    step), 2D and 3D, and C2R/Z2D in 1D (a pre step, then the complex
 *    inverse of half the size);
 *  - the whole transform with every step cut into 1, 2 and 3 shards is
 *    bitwise the same (the daemon refuses more cores than CPUs, so this is
 *    where 3 shards are checked);
 *  - it is within 8 log2(N) u (relative, 2-norm; u the working precision's
 *    unit roundoff) of a reference: a long double DFT (O(N^2), small 1D
 *    sizes) or FFTW's plan of the whole transform in double (Higham, §24.1:
 *    both are within c log2(N) u of the exact one; see
 *    tests/integration/test_fft_parallel.c for the constant).
 */
#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "kernels/cpu/cpu_kernels.h"
#include "ops/fft_shape.h"
#include "ops/fft_step.h"

static void test_which_are_split(void **state) {
    (void)state;
    trn_fft_shape s = {.type = TRN_FFT_C2C, .rank = 1, .n = {1 << 22}, .basic = 1};
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 2);
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INVERSE), 2);
    assert_int_equal(trn_fftstep_count(&s, 2, 0), 0);                       /* a batch */
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INPLACE), 2); /* through scratch */
    assert_int_equal(trn_fftstep_scratch_bytes(&s, TRN_FFT_VARIANT_INPLACE), (size_t)8 << 22);
    assert_int_equal(trn_fftstep_scratch_bytes(&s, 0), 0);
    s.n[0] = 1 << 28; /* its scratch above the bound: not split in place */
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INPLACE), 0);
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 2);
    s.n[0] = (1 << 18) - 2;
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 0); /* below the threshold */
    s.n[0] = 262147;                                  /* prime */
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 0);
    s.n[0] = 1 << 18;
    s.type = TRN_FFT_R2C; /* real 1D: n/2 complex, then the post step */
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 3);
    /* In place through a scratch array of the n/2-point complex transform. */
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INPLACE), 3);
    assert_int_equal(trn_fftstep_scratch_bytes(&s, TRN_FFT_VARIANT_INPLACE), (size_t)8 << 17);
    assert_int_equal(trn_fftstep_scratch_bytes(&s, 0), 0);
    s.type = TRN_FFT_Z2D; /* and C2R/Z2D: a pre step, then the complex inverse */
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INVERSE), 3);
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INVERSE | TRN_FFT_VARIANT_INPLACE),
                     3);
    assert_int_equal(trn_fftstep_scratch_bytes(&s, TRN_FFT_VARIANT_INPLACE), (size_t)16 << 17);
    s.type = TRN_FFT_R2C;
    s.n[0] = (1 << 18) + 2; /* n/2 = 131073 = 3 x 43691: no factor of 16 */
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 0);
    s.n[0] = 1 << 18;
    s = (trn_fft_shape){.type = TRN_FFT_D2Z, .rank = 2, .n = {512, 512}, .basic = 1};
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 2);
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INPLACE), 2); /* padded slabs */
    s.type = TRN_FFT_C2R; /* pencils on the input, then the slabs */
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INVERSE), 2);
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INVERSE | TRN_FFT_VARIANT_INPLACE),
                     2);
    s = (trn_fft_shape){.type = TRN_FFT_Z2Z, .rank = 1, .n = {1 << 18}, .basic = 1};
    s.type = TRN_FFT_Z2Z;
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 2);
    assert_int_equal(trn_fftstep_factor(1 << 18), 512);
    assert_int_equal(trn_fftstep_factor(3 << 17), 512);
    assert_int_equal(trn_fftstep_factor(1 << 21), 1024);
    /* A strided layout is not split; an advanced one equal to the basic is. */
    s = (trn_fft_shape){.type = TRN_FFT_Z2Z,
                        .rank = 2,
                        .n = {512, 512},
                        .inembed = {0, 512},
                        .istride = 1,
                        .onembed = {0, 512},
                        .ostride = 1};
    assert_int_equal(trn_fftstep_count(&s, 1, TRN_FFT_VARIANT_INPLACE), 2);
    s.istride = 2;
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 0);
    /* 2D/3D: an outer dimension too short. */
    s = (trn_fft_shape){.type = TRN_FFT_C2C, .rank = 3, .n = {8, 256, 256}, .basic = 1};
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 0);
    s.n[0] = 16;
    assert_int_equal(trn_fftstep_count(&s, 1, 0), 2);
}

/* The plans of a shape's steps, made here (FFTW_ESTIMATE). */
typedef struct steps {
    int n;
    trn_fft_desc d[TRN_FFTSTEP_MAX_STEPS];
    void *plan[TRN_FFTSTEP_MAX_STEPS];
} steps;

static void make_steps(const trn_fft_shape *shape, const trn_fft_desc *whole, void *scratch,
                       steps *st) {
    const int real1d =
        shape->rank == 1 && (shape->type == TRN_FFT_R2C || shape->type == TRN_FFT_D2Z ||
                             shape->type == TRN_FFT_C2R || shape->type == TRN_FFT_Z2D);
    st->n = real1d ? 3 : 2;
    for (int s = 0; s < st->n; s++) {
        trn_plan_spec spec = {.family = TRN_PLAN_FFT, .effort = TRN_PLAN_ESTIMATE};
        trn_fftstep_step(shape, whole, s, scratch, &st->d[s], &spec.u.fft);
        st->plan[s] = NULL;
        if (spec.u.fft.rank > 0) { /* R2C_POST runs no plan */
            trn_kstatus why;
            char err[256];
            st->plan[s] = trn_cpu_fft_plan_create(&spec, &why, err, sizeof(err));
            assert_non_null(st->plan[s]);
            assert_int_equal(
                trn_cpu_fft_plan_build(st->plan[s], st->d[s].variant, err, sizeof(err)),
                TRN_KSTATUS_OK);
        }
        st->d[s].plan = st->plan[s];
        /* The tasks cover [0, len) once, in order. */
        const trn_fft_desc *d = &st->d[s];
        const size_t len =
            (size_t)(d->fftstep_kind == TRN_FFTSTEP_SLABS      ? d->fftstep_rows
                     : d->fftstep_kind >= TRN_FFTSTEP_R2C_POST ? d->fftstep_rows / 2 + 1
                                                               : d->fftstep_cols);
        size_t next = 0;
        for (size_t t = 0; t < trn_fftstep_tasks(d); t++) {
            size_t lo, hi;
            trn_fftstep_task(d, t, &lo, &hi);
            assert_int_equal(lo, next);
            assert_true(hi > lo);
            next = hi;
        }
        assert_int_equal(next, len);
    }
}

static void free_steps(steps *st) {
    for (int s = 0; s < st->n; s++)
        if (st->plan[s])
            trn_cpu_fft_plan_release(st->plan[s]);
}

/* Runs the steps, each cut into nshards shards run in turn. */
static void run(const steps *st, int nshards) {
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    for (int s = 0; s < st->n; s++)
        for (int k = 0; k < nshards; k++)
            assert_int_equal(trn_cpu_fft(&st->d[s], &msg, k, nshards), TRN_KSTATUS_OK);
}

/* Relative 2-norm distance of got (the working precision) from ref. */
static double rel_err(const void *got, int dbl, const double *ref, size_t n) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < 2 * n; i++) {
        const double g = dbl ? ((const double *)got)[i] : (double)((const float *)got)[i];
        num += (g - ref[i]) * (g - ref[i]);
        den += ref[i] * ref[i];
    }
    return sqrt(num / den);
}

/* One shape: steps on 1, 2, 3 shards bitwise alike and near the reference
 * (a long double DFT when naive, else FFTW's whole plan in double). */
static void check_shape(trn_fft_type type, int rank, const int *n, int inverse, int inplace,
                        int naive) {
    const int dbl = type == TRN_FFT_Z2Z;
    trn_fft_shape shape = {.type = type, .rank = rank, .basic = 1};
    size_t N = 1;
    for (int d = 0; d < rank; d++) {
        shape.n[d] = n[d];
        N *= (size_t)n[d];
    }
    const size_t bytes = N * (dbl ? 16 : 8);
    double *x = malloc(2 * N * sizeof(double));
    void *in = fftw_malloc(bytes), *out[3];
    assert_non_null(x);
    assert_non_null(in);
    uint64_t r = 0x853c49e6748fea9bull + N;
    for (size_t i = 0; i < 2 * N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        const double v = (double)(r >> 11) * 0x1p-52 - 1.0;
        if (dbl)
            ((double *)in)[i] = x[i] = v;
        else
            x[i] = ((float *)in)[i] = (float)v;
    }
    for (int k = 0; k < 3; k++) {
        void *src = in;
        if (inplace) {
            src = fftw_malloc(bytes);
            assert_non_null(src);
            memcpy(src, in, bytes);
        }
        out[k] = inplace ? src : fftw_malloc(bytes);
        assert_non_null(out[k]);
        const trn_fft_desc whole = {.type = type,
                                    .variant = (inverse ? TRN_FFT_VARIANT_INVERSE : 0) |
                                               (inplace ? TRN_FFT_VARIANT_INPLACE : 0),
                                    .in = src,
                                    .out = out[k],
                                    .batch = 1,
                                    .points = (double)N};
        steps st;
        const size_t sb = trn_fftstep_scratch_bytes(&shape, whole.variant);
        void *scratch = sb ? fftw_malloc(sb) : NULL;
        make_steps(&shape, &whole, scratch, &st);
        run(&st, k + 1);
        free_steps(&st);
        fftw_free(scratch);
    }
    assert_memory_equal(out[0], out[1], bytes);
    assert_memory_equal(out[0], out[2], bytes);
    /* The reference. */
    double *ref = fftw_malloc(2 * N * sizeof(double));
    assert_non_null(ref);
    const double sign = inverse ? 1.0 : -1.0;
    if (naive) {
        long double *w = malloc(2 * N * sizeof(long double));
        assert_non_null(w);
        for (size_t m = 0; m < N; m++) {
            const long double a = sign * 6.283185307179586476925286766559005768L * m / N;
            w[2 * m] = cosl(a);
            w[2 * m + 1] = sinl(a);
        }
        for (size_t k = 0; k < N; k++) {
            long double re = 0.0L, im = 0.0L;
            for (size_t j = 0; j < N; j++) {
                const size_t m = (j * k) % N;
                re += x[2 * j] * w[2 * m] - x[2 * j + 1] * w[2 * m + 1];
                im += x[2 * j] * w[2 * m + 1] + x[2 * j + 1] * w[2 * m];
            }
            ref[2 * k] = (double)re;
            ref[2 * k + 1] = (double)im;
        }
        free(w);
    } else {
        double *xc = fftw_malloc(2 * N * sizeof(double));
        assert_non_null(xc);
        fftw_plan p = fftw_plan_dft(rank, n, (fftw_complex *)xc, (fftw_complex *)ref,
                                    inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
        assert_non_null(p);
        memcpy(xc, x, 2 * N * sizeof(double));
        fftw_execute(p);
        fftw_destroy_plan(p);
        fftw_free(xc);
    }
    const double u = dbl ? 0x1p-53 : 0x1p-24;
    const double err = rel_err(out[0], dbl, ref, N), bound = 8.0 * log2((double)N) * u;
    if (!(err <= bound))
        fail_msg("rank %d n0 %d: relative error %.3g above %.3g", rank, n[0], err, bound);
    fftw_free(ref);
    for (int k = 0; k < 3; k++)
        fftw_free(out[k]);
    fftw_free(in);
    free(x);
}

/* An R2C or D2Z transform (out of place, or in place with the real rows
 * padded to 2 (n_last / 2 + 1); 1D in place through the op's scratch
 * array): steps on 1, 2, 3 shards bitwise alike and near FFTW's whole D2Z
 * plan. */
static void check_real_at(trn_fft_type type, int rank, const int *n, int inplace) {
    const int dbl = type == TRN_FFT_D2Z;
    trn_fft_shape shape = {.type = type, .rank = rank, .basic = 1};
    size_t N = 1;
    for (int d = 0; d < rank; d++) {
        shape.n[d] = n[d];
        N *= (size_t)n[d];
    }
    const size_t M = N / (size_t)n[rank - 1] * (size_t)(n[rank - 1] / 2 + 1);
    const size_t rs = dbl ? 8 : 4;
    double *x = fftw_malloc(N * sizeof(double)), *ref = fftw_malloc(2 * M * sizeof(double));
    void *in = fftw_malloc(N * rs), *out[3];
    assert_non_null(x);
    assert_non_null(ref);
    assert_non_null(in);
    uint64_t r = 0x9e3779b97f4a7c15ull + N;
    for (size_t i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        const double v = (double)(r >> 11) * 0x1p-52 - 1.0;
        if (dbl)
            ((double *)in)[i] = x[i] = v;
        else
            x[i] = ((float *)in)[i] = (float)v;
    }
    const size_t last = (size_t)n[rank - 1], pad = 2 * (last / 2 + 1);
    for (int k = 0; k < 3; k++) {
        out[k] = fftw_malloc(2 * M * rs);
        assert_non_null(out[k]);
        if (inplace) /* each row of the last dimension into its padded row */
            for (size_t row = 0; row < N / last; row++)
                memcpy((char *)out[k] + row * pad * rs, (const char *)in + row * last * rs,
                       last * rs);
        const trn_fft_desc whole = {.type = type,
                                    .variant = inplace ? TRN_FFT_VARIANT_INPLACE : 0,
                                    .in = inplace ? out[k] : in,
                                    .out = out[k],
                                    .batch = 1,
                                    .points = (double)N};
        steps st;
        const size_t sb = trn_fftstep_scratch_bytes(&shape, whole.variant); /* 1D in place */
        void *scratch = sb ? fftw_malloc(sb) : NULL;
        make_steps(&shape, &whole, scratch, &st);
        run(&st, k + 1);
        free_steps(&st);
        fftw_free(scratch);
    }
    assert_memory_equal(out[0], out[1], 2 * M * rs);
    assert_memory_equal(out[0], out[2], 2 * M * rs);
    fftw_plan p = fftw_plan_dft_r2c(rank, n, x, (fftw_complex *)ref, FFTW_ESTIMATE);
    assert_non_null(p);
    fftw_execute(p); /* ESTIMATE leaves x as it is */
    fftw_destroy_plan(p);
    const double err = rel_err(out[0], dbl, ref, M);
    const double bound = 8.0 * log2((double)N) * (dbl ? 0x1p-53 : 0x1p-24);
    if (!(err <= bound))
        fail_msg("real rank %d n0 %d%s: relative error %.3g above %.3g", rank, n[0],
                 inplace ? " in place" : "", err, bound);
    for (int k = 0; k < 3; k++)
        fftw_free(out[k]);
    fftw_free(in);
    fftw_free(ref);
    fftw_free(x);
}

static void check_real(trn_fft_type type, int rank, const int *n) {
    check_real_at(type, rank, n, 0);
}

/* A 1D C2R or Z2D transform (out of place, or in place: the n reals in
 * the first n of the input's 2 (n/2 + 1)) of the Hermitian half of a
 * real signal's DFT: steps on 1, 2, 3 shards bitwise alike and near n x
 * (the unnormalised inverse). */
static void check_c2r_at(trn_fft_type type, int n, int inplace) {
    const int dbl = type == TRN_FFT_Z2D;
    const size_t m = (size_t)n / 2, rs = dbl ? 8 : 4;
    trn_fft_shape shape = {.type = type, .rank = 1, .n = {n}, .basic = 1};
    double *x = fftw_malloc((size_t)n * sizeof(double)), *h = fftw_malloc(2 * (m + 1) * 8);
    assert_non_null(x);
    assert_non_null(h);
    uint64_t r = 0x2545f4914f6cdd1dull + (uint64_t)n;
    for (int i = 0; i < n; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (double)(r >> 11) * 0x1p-52 - 1.0;
    }
    fftw_plan p = fftw_plan_dft_r2c(1, &n, x, (fftw_complex *)h, FFTW_ESTIMATE);
    assert_non_null(p);
    fftw_execute(p);
    fftw_destroy_plan(p);
    void *out[3];
    for (int k = 0; k < 3; k++) {
        void *in = fftw_malloc(2 * (m + 1) * rs); /* overwritten: one per run */
        out[k] = inplace ? in : fftw_malloc((size_t)n * rs);
        assert_non_null(in);
        assert_non_null(out[k]);
        for (size_t i = 0; i < 2 * (m + 1); i++) {
            if (dbl)
                ((double *)in)[i] = h[i];
            else
                ((float *)in)[i] = (float)h[i];
        }
        const trn_fft_desc whole = {.type = type,
                                    .variant = TRN_FFT_VARIANT_INVERSE |
                                               (inplace ? TRN_FFT_VARIANT_INPLACE : 0),
                                    .in = in,
                                    .out = out[k],
                                    .batch = 1,
                                    .points = (double)n};
        steps st;
        const size_t sb = trn_fftstep_scratch_bytes(&shape, whole.variant);
        void *scratch = sb ? fftw_malloc(sb) : NULL;
        make_steps(&shape, &whole, scratch, &st);
        run(&st, k + 1);
        free_steps(&st);
        fftw_free(scratch);
        if (!inplace)
            fftw_free(in);
    }
    assert_memory_equal(out[0], out[1], (size_t)n * rs);
    assert_memory_equal(out[0], out[2], (size_t)n * rs);
    /* Against n x: the input h is x's transform rounded to the working
     * precision, whose own error is within the same bound. */
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        const double g = dbl ? ((double *)out[0])[i] : (double)((float *)out[0])[i];
        const double want = (double)n * x[i];
        num += (g - want) * (g - want);
        den += want * want;
    }
    const double err = sqrt(num / den), bound = 8.0 * log2((double)n) * (dbl ? 0x1p-53 : 0x1p-24);
    if (!(err <= bound))
        fail_msg("c2r n %d%s: relative error %.3g above %.3g", n, inplace ? " in place" : "", err,
                 bound);
    for (int k = 0; k < 3; k++)
        fftw_free(out[k]);
    fftw_free(h);
    fftw_free(x);
}

static void check_c2r(trn_fft_type type, int n) {
    check_c2r_at(type, n, 0);
}

static void test_real(void **state) {
    (void)state;
    const int a[2] = {96, 80}, b[3] = {20, 24, 18}, c[3] = {32, 30, 33};
    check_real(TRN_FFT_D2Z, 2, a);
    check_real(TRN_FFT_R2C, 2, a);
    check_real(TRN_FFT_D2Z, 3, b);
    check_real(TRN_FFT_R2C, 3, c);       /* odd last size, unaligned slabs */
    check_real_at(TRN_FFT_D2Z, 2, a, 1); /* in place: padded real slabs */
    check_real_at(TRN_FFT_R2C, 3, c, 1);
    const int d1[1] = {2 * 96 * 64}, e1[1] = {1 << 18}, f1[1] = {2 * 3 * 5 * 7 * 11 * 13 * 16};
    check_real(TRN_FFT_D2Z, 1, d1); /* 1D: complex n/2, then the post step */
    check_real(TRN_FFT_R2C, 1, e1);
    check_real(TRN_FFT_D2Z, 1, f1);
    check_c2r(TRN_FFT_Z2D, 2 * 96 * 64);
    check_c2r(TRN_FFT_C2R, 1 << 18);
    check_c2r(TRN_FFT_Z2D, 2 * 3 * 5 * 7 * 11 * 13 * 16);
    /* 1D in place: the columns through the op's scratch array. */
    check_real_at(TRN_FFT_D2Z, 1, d1, 1);
    check_real_at(TRN_FFT_R2C, 1, e1, 1);
    check_c2r_at(TRN_FFT_Z2D, 2 * 96 * 64, 1);
    check_c2r_at(TRN_FFT_C2R, 1 << 18, 1);
}

static void test_1d(void **state) {
    (void)state;
    const int small[1] = {96 * 64}, big[1] = {1 << 18}, odd[1] = {3 * 5 * 7 * 11 * 13 * 16};
    check_shape(TRN_FFT_Z2Z, 1, small, 0, 0, 1);
    check_shape(TRN_FFT_C2C, 1, small, 1, 0, 1);
    check_shape(TRN_FFT_Z2Z, 1, big, 1, 0, 0);
    check_shape(TRN_FFT_C2C, 1, big, 0, 0, 0);
    check_shape(TRN_FFT_Z2Z, 1, odd, 0, 0, 0);
    check_shape(TRN_FFT_Z2Z, 1, small, 1, 1, 1); /* in place, through scratch */
    check_shape(TRN_FFT_C2C, 1, big, 0, 1, 0);
}

static void test_multi_dim(void **state) {
    (void)state;
    const int a[2] = {96, 80}, b[3] = {20, 24, 18}, c[3] = {64, 64, 65};
    check_shape(TRN_FFT_Z2Z, 2, a, 0, 0, 0);
    check_shape(TRN_FFT_C2C, 2, a, 1, 1, 0);
    check_shape(TRN_FFT_Z2Z, 3, b, 1, 0, 0);
    check_shape(TRN_FFT_C2C, 3, c, 0, 1, 0); /* odd slabs: the unaligned slab plan */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_are_split),
        cmocka_unit_test(test_1d),
        cmocka_unit_test(test_multi_dim),
        cmocka_unit_test(test_real),
    };
    return cmocka_run_group_tests_name("fft steps", tests, NULL, NULL);
}
