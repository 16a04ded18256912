/*
 * test_blas_rot.c — trnblas rotg (S, D, C, Z), rotmg and rotm (S, D)
 * through a real trnscid, over the unix socket and over TCP, in both
 * pointer modes.
 *
 * References:
 *  - rotg and rotmg against scipy.linalg.blas (blas_rot_ref.py under
 *    Debian's python3: the BLAS scipy links), plus their defining
 *    identities in long double: rotg's r = c a + s b with |r| =
 *    sqrt(|a|^2 + |b|^2), the sign of the larger of a, b (real), z by
 *    reference BLAS's rule; rotmg's H [x1; y1] = [x1'; 0] and
 *    H^T diag(d1', d2') H = diag(d1, d2).
 *  - rotm against a loop in long double written here.
 * Tolerances, u = 2^-24 (S, C) or 2^-53 (D, Z), each stated as a multiple
 * of u times the magnitude of the terms (Higham, §3.1-3.6):
 *  - rotg: the norm is a scaled sum of at most 4 squares and a square root,
 *    within 4u relative (the scaling is exact to rounding of a / scale,
 *    another u per term); c and s divide by it (one more u) and complex s
 *    multiplies by a / |a| (2 sqrt(2) u): 12u (real) and 24u (complex)
 *    relative to max(1, |value|) for c, s; r and z the same relative to
 *    |r|, |z|. scipy's values are checked against ours at the same bound
 *    where its BLAS's unscaled sum of squares does not overflow.
 *  - rotmg: h11, h12, h21, h22 are one or two divisions and a product
 *    (3u), u = 1 -+ h12 h21 three more, d1', d2', x1' one more each, and
 *    rescaling by powers of two is exact: 16u relative per value against
 *    scipy (flag exactly); the identities within 32u relative to the
 *    magnitudes of their terms.
 *  - rotm: each output is at most two products and a sum: 3u times
 *    |h_i1 w| + |h_i2 z| (complex does not arise).
 * Device pointer mode must give bitwise the host mode's results (the same
 * code computes both). Edge cases: rotg with a = 0, b = 0, both 0, |a| =
 * |b|; rotmg with d1 < 0 (H = 0, flag -1), y1 = 0 (flag -2), rescaling of
 * d1 once and twice (2^70) and of d2 below gam^-2. Bad input: NULL
 * scalars, rotm param of a complex type or in host memory in device mode.
 */
#include <complex.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "harness.h"
#include "trnsci/trnblas.h"

static th_daemon daemon_under_test;

typedef enum { T_S, T_D, T_C, T_Z } ty;
static const char tchar[] = {'s', 'd', 'c', 'z'};

static long double ulp(ty t) {
    return (t == T_S || t == T_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
}

/* Rounds to the type's real precision. */
static long double rnd(ty t, long double v) {
    return (t == T_S || t == T_C) ? (long double)(float)v : (long double)(double)v;
}

static int within(long double got, long double want, long double bound) {
    return fabsl(got - want) <= bound;
}

/* ---- the scipy reference ---------------------------------------------------------- */

typedef struct rotg_case {
    ty t;
    long double ar, ai, br, bi;
} rotg_case;

typedef struct rotmg_case {
    ty t;
    long double d1, d2, x1, y1;
} rotmg_case;

static const rotg_case rotg_cases[] = {
    {T_S, 3, 0, 4, 0},
    {T_S, -0.7L, 0, 0.3L, 0},
    {T_S, 0.25L, 0, -0.75L, 0},
    {T_S, 0, 0, -2, 0},
    {T_S, 1.5L, 0, 0, 0},
    {T_S, 0, 0, 0, 0},
    {T_S, -2, 0, 2, 0},
    {T_S, 1e30L, 0, 3e30L, 0},
    {T_D, 3, 0, 4, 0},
    {T_D, -0.7L, 0, 0.3L, 0},
    {T_D, 0.1L, 0, -0.9L, 0},
    {T_D, 0, 0, -2, 0},
    {T_D, 5, 0, 0, 0},
    {T_D, 0, 0, 0, 0},
    {T_D, 1e300L, 0, -1e300L, 0},
    {T_C, 1, 1, 2, -1},
    {T_C, -0.5L, 0.25L, 0.1L, 0.9L},
    {T_C, 0, 0, 2, -1},
    {T_C, 0.5L, -0.5L, 0, 0},
    {T_C, 3, 0, 4, 0},
    {T_Z, 1, 1, 2, -1},
    {T_Z, -0.5L, 0.25L, 0.1L, 0.9L},
    {T_Z, 0, 0, -3, 4},
    {T_Z, 0.3L, 0.4L, 0, 0},
    {T_Z, 1e200L, 1e200L, 1e200L, -1e200L},
};
#define N_ROTG (sizeof(rotg_cases) / sizeof(rotg_cases[0]))

static const rotmg_case rotmg_cases[] = {
    {T_S, 1, 2, 1, 2},         {T_S, 2, 1, 3, 0.5L},
    {T_S, 0.5L, 4, -1, 0.25L}, {T_S, -1, 2, 1, 2},
    {T_S, 1, 2, 1, 0},         {T_S, 1, 0, 3, 2},
    {T_S, 1e-9L, 1, 1, 1},     {T_S, 1, -3, 0.1L, 1},
    {T_D, 1, 2, 1, 2},         {T_D, 2, 1, 3, 0.5L},
    {T_D, 0.5L, 4, -1, 0.25L}, {T_D, -1, 2, 1, 2},
    {T_D, 1, 2, 1, 0},         {T_D, 0x1p70L, 1, 1, 0x1p-10L},
    {T_D, 1, 1e-9L, 3, 1e-3L}, {T_D, 1e9L, 1, 1, 1},
    {T_D, 1, 1e10L, 1, 0.5L},  {T_D, 3, 5, 0.2L, -0.7L},
};
#define N_ROTMG (sizeof(rotmg_cases) / sizeof(rotmg_cases[0]))

static long double ref_rotg[N_ROTG][3];
static long double ref_rotmg[N_ROTMG][5];

/* Runs blas_rot_ref.py on every case; 0 on success. */
static int run_reference(void) {
    char dir[] = "/tmp/trnsci-rot-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char in[128], out[128];
    snprintf(in, sizeof(in), "%s/in.txt", dir);
    snprintf(out, sizeof(out), "%s/out.txt", dir);
    FILE *f = fopen(in, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < N_ROTG; i++) {
        const rotg_case *k = &rotg_cases[i];
        fprintf(f, "rotg %c %a %a %a %a\n", tchar[k->t], (double)rnd(k->t, k->ar),
                (double)rnd(k->t, k->ai), (double)rnd(k->t, k->br), (double)rnd(k->t, k->bi));
    }
    for (size_t i = 0; i < N_ROTMG; i++) {
        const rotmg_case *k = &rotmg_cases[i];
        fprintf(f, "rotmg %c %a %a %a %a\n", tchar[k->t], (double)rnd(k->t, k->d1),
                (double)rnd(k->t, k->d2), (double)rnd(k->t, k->x1), (double)rnd(k->t, k->y1));
    }
    fclose(f);
    const char *const argv[] = {PYTHON3, BLAS_ROT_REF_PY, in, out, NULL};
    int rc = th_run(argv, NULL);
    FILE *g = rc == 0 ? fopen(out, "r") : NULL;
    for (size_t i = 0; g && i < N_ROTG; i++)
        for (int j = 0; j < 3; j++) {
            double v;
            if (fscanf(g, "%la", &v) != 1)
                rc = -1;
            ref_rotg[i][j] = v;
        }
    for (size_t i = 0; g && i < N_ROTMG; i++)
        for (int j = 0; j < 5; j++) {
            double v;
            if (fscanf(g, "%la", &v) != 1)
                rc = -1;
            ref_rotmg[i][j] = v;
        }
    if (g)
        fclose(g);
    else
        rc = -1;
    th_remove_dir(dir);
    return rc;
}

/* ---- rotg ---------------------------------------------------------------------- */

/* Host storage of one case's arguments and results, any type. */
typedef struct rotg_io {
    double a[2], b[2], c, s[2];
} rotg_io;

/* Calls trnblas?rotg with the values in io (converted to the type), in the
 * handle's pointer mode (device: through dev, 64 bytes). */
static trnblasStatus_t call_rotg(trnblasHandle_t h, ty t, rotg_io *io, void *dev) {
    union {
        float f[8];
        double d[8];
    } u;
    memset(&u, 0, sizeof(u));
    /* layout: a at 0, b at 2, c at 4, s at 6 (elements of the real type) */
    for (int i = 0; i < 2; i++) {
        if (t == T_S || t == T_C) {
            u.f[i] = (float)io->a[i];
            u.f[2 + i] = (float)io->b[i];
        } else {
            u.d[i] = io->a[i];
            u.d[2 + i] = io->b[i];
        }
    }
    const size_t rs = (t == T_S || t == T_C) ? 4 : 8;
    char *base = (char *)&u;
    if (dev)
        assert_int_equal(trnsciMemcpy(dev, base, 64, trnsciMemcpyHostToDevice), trnsciSuccess);
    char *p = dev ? (char *)dev : base;
    trnblasStatus_t st = TRNBLAS_STATUS_INTERNAL_ERROR;
    switch (t) {
    case T_S:
        st = trnblasSrotg(h, (float *)p, (float *)(p + 2 * rs), (float *)(p + 4 * rs),
                          (float *)(p + 6 * rs));
        break;
    case T_D:
        st = trnblasDrotg(h, (double *)p, (double *)(p + 2 * rs), (double *)(p + 4 * rs),
                          (double *)(p + 6 * rs));
        break;
    case T_C:
        st = trnblasCrotg(h, (trnComplex *)p, (trnComplex *)(p + 2 * rs), (float *)(p + 4 * rs),
                          (trnComplex *)(p + 6 * rs));
        break;
    case T_Z:
        st = trnblasZrotg(h, (trnDoubleComplex *)p, (trnDoubleComplex *)(p + 2 * rs),
                          (double *)(p + 4 * rs), (trnDoubleComplex *)(p + 6 * rs));
        break;
    }
    if (st != TRNBLAS_STATUS_SUCCESS)
        return st;
    if (dev)
        assert_int_equal(trnsciMemcpy(base, dev, 64, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < 2; i++) {
        io->a[i] = rs == 4 ? u.f[i] : u.d[i];
        io->b[i] = rs == 4 ? u.f[2 + i] : u.d[2 + i];
        io->s[i] = rs == 4 ? u.f[6 + i] : u.d[6 + i];
    }
    io->c = rs == 4 ? u.f[4] : u.d[4];
    return st;
}

static void check_rotg(size_t i, const rotg_io *in, const rotg_io *got) {
    const rotg_case *k = &rotg_cases[i];
    const ty t = k->t;
    const int cx = t == T_C || t == T_Z;
    const long double u = ulp(t), tol = (cx ? 24 : 12) * u;
    const long double complex a = in->a[0] + I * (long double)in->a[1];
    const long double complex b = in->b[0] + I * (long double)in->b[1];
    const long double c = got->c;
    const long double complex s = got->s[0] + I * (long double)got->s[1];
    const long double complex r = got->a[0] + I * (long double)got->a[1];
    /* against scipy, where its BLAS's unscaled sum of squares does not
     * overflow (the 1e30 / 1e200 / 1e300 cases are checked by the
     * identities below only) */
    const long double big = fmaxl(cabsl(a), cabsl(b));
    const long double maxval = (t == T_S || t == T_C) ? 3.4e38L : 1.79e308L;
    if (big * big < maxval && (!within(c, ref_rotg[i][0], tol * fmaxl(1, fabsl(c))) ||
                               !within(creall(s), ref_rotg[i][1], tol * fmaxl(1, cabsl(s))) ||
                               !within(cimagl(s), ref_rotg[i][2], tol * fmaxl(1, cabsl(s)))))
        fail_msg("%crotg case %zu: c=%Lg s=%Lg%+Lgi, scipy c=%Lg s=%Lg%+Lgi", tchar[t], i, c,
                 creall(s), cimagl(s), ref_rotg[i][0], ref_rotg[i][1], ref_rotg[i][2]);
    /* identities */
    const long double norm = sqrtl(creall(a * conjl(a)) + creall(b * conjl(b)));
    if (!cx) {
        if (norm == 0) {
            assert_true(c == 1 && creall(s) == 0 && creall(r) == 0 && got->b[0] == 0);
            return;
        }
        const long double sigma =
            fabsl(creall(a)) > fabsl(creall(b)) ? copysignl(1, creall(a)) : copysignl(1, creall(b));
        if (!within(creall(r), sigma * norm, tol * norm))
            fail_msg("%crotg case %zu: r=%Lg, want %Lg", tchar[t], i, creall(r), sigma * norm);
        if (!within(c * creall(a) + creall(s) * creall(b), creall(r), tol * norm))
            fail_msg("%crotg case %zu: c a + s b != r", tchar[t], i);
        const long double z = fabsl(creall(a)) > fabsl(creall(b)) ? creall(s) : c != 0 ? 1 / c : 1;
        if (!within(got->b[0], z, tol * fmaxl(1, fabsl(z))))
            fail_msg("%crotg case %zu: z=%g, want %Lg", tchar[t], i, got->b[0], z);
        return;
    }
    /* complex: b is not modified; a = 0 gives c = 0, s = 1, r = b */
    assert_true(got->b[0] == in->b[0] && got->b[1] == in->b[1]);
    if (cabsl(a) == 0) {
        assert_true(c == 0 && creall(s) == 1 && cimagl(s) == 0);
        assert_true(got->a[0] == in->b[0] && got->a[1] == in->b[1]);
        return;
    }
    const long double complex want_r = a / cabsl(a) * norm;
    if (cabsl(r - want_r) > tol * norm)
        fail_msg("%crotg case %zu: r=%Lg%+Lgi, want %Lg%+Lgi", tchar[t], i, creall(r), cimagl(r),
                 creall(want_r), cimagl(want_r));
    if (cabsl(c * a + s * b - r) > 2 * tol * norm)
        fail_msg("%crotg case %zu: c a + s b != r", tchar[t], i);
    if (fabsl(c * c + creall(s * conjl(s)) - 1) > 2 * tol)
        fail_msg("%crotg case %zu: c^2 + |s|^2 != 1", tchar[t], i);
}

/* ---- rotmg ---------------------------------------------------------------------- */

typedef struct rotmg_io {
    double d1, d2, x1, y1, param[5];
} rotmg_io;

static trnblasStatus_t call_rotmg(trnblasHandle_t h, ty t, rotmg_io *io, void *dev) {
    union {
        float f[12];
        double d[12];
    } u;
    memset(&u, 0, sizeof(u));
    const int f32 = t == T_S;
    const double in[9] = {io->d1,       io->d2,       io->x1,       io->y1,      io->param[0],
                          io->param[1], io->param[2], io->param[3], io->param[4]};
    for (int i = 0; i < 9; i++) {
        if (f32)
            u.f[i] = (float)in[i];
        else
            u.d[i] = in[i];
    }
    const size_t rs = f32 ? 4 : 8;
    if (dev)
        assert_int_equal(trnsciMemcpy(dev, &u, 96, trnsciMemcpyHostToDevice), trnsciSuccess);
    char *p = dev ? (char *)dev : (char *)&u;
    const trnblasStatus_t st =
        f32 ? trnblasSrotmg(h, (float *)p, (float *)(p + rs), (float *)(p + 2 * rs),
                            (const float *)(p + 3 * rs), (float *)(p + 4 * rs))
            : trnblasDrotmg(h, (double *)p, (double *)(p + rs), (double *)(p + 2 * rs),
                            (const double *)(p + 3 * rs), (double *)(p + 4 * rs));
    if (st != TRNBLAS_STATUS_SUCCESS)
        return st;
    if (dev)
        assert_int_equal(trnsciMemcpy(&u, dev, 96, trnsciMemcpyDeviceToHost), trnsciSuccess);
    double o[9];
    for (int i = 0; i < 9; i++)
        o[i] = f32 ? u.f[i] : u.d[i];
    io->d1 = o[0], io->d2 = o[1], io->x1 = o[2], io->y1 = o[3];
    memcpy(io->param, o + 4, sizeof(io->param));
    return st;
}

/* H from param, its implied elements filled in. */
static void full_h(const double p[5], long double h[4] /* h11 h21 h12 h22 */) {
    if (p[0] < 0 && p[0] != -2) {
        h[0] = p[1], h[1] = p[2], h[2] = p[3], h[3] = p[4];
    } else if (p[0] == 0) {
        h[0] = 1, h[1] = p[2], h[2] = p[3], h[3] = 1;
    } else if (p[0] == 1) {
        h[0] = p[1], h[1] = -1, h[2] = 1, h[3] = p[4];
    } else {
        h[0] = 1, h[1] = 0, h[2] = 0, h[3] = 1;
    }
}

static void check_rotmg(size_t i, const rotmg_io *in, const rotmg_io *got) {
    const rotmg_case *k = &rotmg_cases[i];
    const ty t = k->t;
    const long double u = ulp(t);
    const long double *ref = ref_rotmg[i];
    if (got->param[0] != (double)ref[0])
        fail_msg("%crotmg case %zu: flag %g, scipy %Lg", tchar[t], i, got->param[0], ref[0]);
    const double flag = got->param[0];
    /* the elements param holds for this flag */
    const int used[5] = {1, flag != 0 && flag != -2, flag != 1 && flag != -2,
                         flag != 1 && flag != -2, flag != 0 && flag != -2};
    for (int j = 1; j < 5; j++)
        if (used[j] && !within(got->param[j], ref[j], 16 * u * fmaxl(1e-300L, fabsl(ref[j]))))
            fail_msg("%crotmg case %zu: param[%d] = %a, scipy %La", tchar[t], i, j, got->param[j],
                     ref[j]);
    if (flag == -2) {
        assert_true(got->d1 == in->d1 && got->d2 == in->d2 && got->x1 == in->x1);
        return;
    }
    long double h[4];
    full_h(got->param, h);
    if (flag == -1 && h[0] == 0 && h[1] == 0 && h[2] == 0 && h[3] == 0) {
        assert_true(got->d1 == 0 && got->d2 == 0 && got->x1 == 0);
        return;
    }
    const long double x1 = in->x1, y1 = in->y1;
    /* H [x1; y1] = [x1'; 0] */
    const long double e1 = h[0] * x1 + h[2] * y1, m1 = fabsl(h[0] * x1) + fabsl(h[2] * y1);
    const long double e2 = h[1] * x1 + h[3] * y1, m2 = fabsl(h[1] * x1) + fabsl(h[3] * y1);
    if (!within(got->x1, e1, 32 * u * m1) || !within(e2, 0, 32 * u * m2))
        fail_msg("%crotmg case %zu: H [x1; y1] = [%Lg; %Lg], x1' = %g", tchar[t], i, e1, e2,
                 got->x1);
    /* H^T diag(d1', d2') H = diag(d1, d2) */
    const long double d1 = got->d1, d2 = got->d2;
    const long double g11 = d1 * h[0] * h[0] + d2 * h[1] * h[1];
    const long double g22 = d1 * h[2] * h[2] + d2 * h[3] * h[3];
    const long double g12 = d1 * h[0] * h[2] + d2 * h[1] * h[3];
    const long double m11 = fabsl(d1 * h[0] * h[0]) + fabsl(d2 * h[1] * h[1]);
    const long double m22 = fabsl(d1 * h[2] * h[2]) + fabsl(d2 * h[3] * h[3]);
    const long double m12 = fabsl(d1 * h[0] * h[2]) + fabsl(d2 * h[1] * h[3]);
    if (!within(g11, in->d1, 32 * u * m11) || !within(g22, in->d2, 32 * u * m22) ||
        !within(g12, 0, 32 * u * m12))
        fail_msg("%crotmg case %zu: H^T D' H = [%Lg %Lg; . %Lg], want diag(%g, %g)", tchar[t], i,
                 g11, g12, g22, in->d1, in->d2);
}

/* ---- the cases in one pointer mode -------------------------------------------------- */

static void run_scalar_cases(int device) {
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    void *dev = NULL;
    if (device) {
        assert_int_equal(trnsciMalloc(&dev, 128), trnsciSuccess);
        assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE),
                         TRNBLAS_STATUS_SUCCESS);
    }
    for (size_t i = 0; i < N_ROTG; i++) {
        const rotg_case *k = &rotg_cases[i];
        const rotg_io in = {{(double)rnd(k->t, k->ar), (double)rnd(k->t, k->ai)},
                            {(double)rnd(k->t, k->br), (double)rnd(k->t, k->bi)},
                            0,
                            {0, 0}};
        rotg_io io = in;
        if (k->t == T_S || k->t == T_D)
            io.a[1] = io.b[1] = 0;
        assert_int_equal(call_rotg(h, k->t, &io, dev), TRNBLAS_STATUS_SUCCESS);
        check_rotg(i, &in, &io);
        if (device) { /* bitwise the host mode's results */
            trnblasHandle_t hh;
            assert_int_equal(trnblasCreate(&hh), TRNBLAS_STATUS_SUCCESS);
            rotg_io host = in;
            assert_int_equal(call_rotg(hh, k->t, &host, NULL), TRNBLAS_STATUS_SUCCESS);
            assert_memory_equal(&host, &io, sizeof(io));
            assert_int_equal(trnblasDestroy(hh), TRNBLAS_STATUS_SUCCESS);
        }
    }
    for (size_t i = 0; i < N_ROTMG; i++) {
        const rotmg_case *k = &rotmg_cases[i];
        const rotmg_io in = {(double)rnd(k->t, k->d1),
                             (double)rnd(k->t, k->d2),
                             (double)rnd(k->t, k->x1),
                             (double)rnd(k->t, k->y1),
                             {7, 7, 7, 7, 7}};
        rotmg_io io = in;
        assert_int_equal(call_rotmg(h, k->t, &io, dev), TRNBLAS_STATUS_SUCCESS);
        check_rotmg(i, &in, &io);
        if (device) {
            trnblasHandle_t hh;
            assert_int_equal(trnblasCreate(&hh), TRNBLAS_STATUS_SUCCESS);
            rotmg_io host = in;
            assert_int_equal(call_rotmg(hh, k->t, &host, NULL), TRNBLAS_STATUS_SUCCESS);
            assert_memory_equal(&host, &io, sizeof(io));
            assert_int_equal(trnblasDestroy(hh), TRNBLAS_STATUS_SUCCESS);
        }
    }
    if (dev)
        assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void test_rotg_rotmg_host(void **state) {
    (void)state;
    run_scalar_cases(0);
}

static void test_rotg_rotmg_device(void **state) {
    (void)state;
    run_scalar_cases(1);
}

/* ---- rotm ---------------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static long double uniform(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (long double)((rng * 2685821657736338717ULL) >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

/* One rotm call on vectors of n elements with increments incx, incy at an
 * offset inside padded allocations; everything but the elements must come
 * back unchanged. */
static void rotm_case(ty t, int device, int n, int incx, int incy, double flag) {
    const int f32 = t == T_S;
    const size_t es = f32 ? 4 : 8, off = 3;
    const size_t spanx = n > 0 ? (size_t)abs(incx) * (size_t)(n - 1) + 1 : 0;
    const size_t spany = n > 0 ? (size_t)abs(incy) * (size_t)(n - 1) + 1 : 0;
    const size_t totx = off + spanx + 4, toty = off + spany + 4;
    long double *hx = malloc(totx * sizeof(long double)), *hy = malloc(toty * sizeof(long double));
    void *bx = malloc(totx * es), *by = malloc(toty * es), *gx = malloc(totx * es),
         *gy = malloc(toty * es);
    assert_true(hx && hy && bx && by && gx && gy);
    for (size_t i = 0; i < totx; i++) {
        hx[i] = rnd(t, uniform());
        if (f32)
            ((float *)bx)[i] = (float)hx[i];
        else
            ((double *)bx)[i] = (double)hx[i];
    }
    for (size_t i = 0; i < toty; i++) {
        hy[i] = rnd(t, uniform());
        if (f32)
            ((float *)by)[i] = (float)hy[i];
        else
            ((double *)by)[i] = (double)hy[i];
    }
    double p[5] = {flag, (double)rnd(t, uniform()), (double)rnd(t, uniform()),
                   (double)rnd(t, uniform()), (double)rnd(t, uniform())};
    float pf[5];
    for (int i = 0; i < 5; i++)
        pf[i] = (float)p[i];
    void *dx, *dy, *dp = NULL;
    assert_int_equal(trnsciMalloc(&dx, totx * es), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dy, toty * es), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dx, bx, totx * es, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dy, by, toty * es, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const void *param = f32 ? (const void *)pf : (const void *)p;
    if (device) {
        assert_int_equal(trnsciMalloc(&dp, 5 * es), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(dp, param, 5 * es, trnsciMemcpyHostToDevice), trnsciSuccess);
        param = dp;
        assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE),
                         TRNBLAS_STATUS_SUCCESS);
    }
    char *px = (char *)dx + off * es, *py = (char *)dy + off * es;
    const trnblasStatus_t st =
        f32 ? trnblasSrotm(h, n, (float *)px, incx, (float *)py, incy, param)
            : trnblasDrotm(h, n, (double *)px, incx, (double *)py, incy, param);
    assert_int_equal(st, TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(gx, dx, totx * es, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(gy, dy, toty * es, trnsciMemcpyDeviceToHost), trnsciSuccess);
    /* expected */
    unsigned char *wx = calloc(totx, 1), *wy = calloc(toty, 1);
    assert_true(wx && wy);
    long double hh[4];
    double pr[5];
    for (int i = 0; i < 5; i++)
        pr[i] = f32 ? (double)pf[i] : p[i];
    full_h(pr, hh);
    const long double u = ulp(t);
    for (int i = 0; i < n && flag != -2; i++) {
        const size_t ix = off + (incx > 0 ? (size_t)i * incx : (size_t)(n - 1 - i) * -incx);
        const size_t iy = off + (incy > 0 ? (size_t)i * incy : (size_t)(n - 1 - i) * -incy);
        const long double w = hx[ix], z = hy[iy];
        const long double ex = hh[0] * w + hh[2] * z, ey = hh[1] * w + hh[3] * z;
        const long double bx_ = 3 * u * (fabsl(hh[0] * w) + fabsl(hh[2] * z));
        const long double by_ = 3 * u * (fabsl(hh[1] * w) + fabsl(hh[3] * z));
        const long double gxv = f32 ? ((float *)gx)[ix] : ((double *)gx)[ix];
        const long double gyv = f32 ? ((float *)gy)[iy] : ((double *)gy)[iy];
        if (!within(gxv, ex, bx_) || !within(gyv, ey, by_))
            fail_msg("%crotm flag=%g n=%d incx=%d incy=%d element %d: (%Lg, %Lg), want (%Lg, "
                     "%Lg)",
                     tchar[t], flag, n, incx, incy, i, gxv, gyv, ex, ey);
        wx[ix] = wy[iy] = 1;
    }
    for (size_t i = 0; i < totx; i++)
        if (!wx[i] && memcmp((char *)gx + i * es, (char *)bx + i * es, es))
            fail_msg("%crotm: x element %zu changed", tchar[t], i);
    for (size_t i = 0; i < toty; i++)
        if (!wy[i] && memcmp((char *)gy + i * es, (char *)by + i * es, es))
            fail_msg("%crotm: y element %zu changed", tchar[t], i);
    free(wx);
    free(wy);
    free(hx);
    free(hy);
    free(bx);
    free(by);
    free(gx);
    free(gy);
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    assert_int_equal(trnsciFree(dy), trnsciSuccess);
    if (dp)
        assert_int_equal(trnsciFree(dp), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static void run_rotm(int device) {
    static const double flags[] = {-1, 0, 1, -2};
    static const int shapes[][3] = {{1, 1, 1},   {17, 1, 1}, {9, -2, 3},
                                    {12, 3, -1}, {0, 1, 1},  {-2, 1, 1}};
    for (int t = T_S; t <= T_D; t++)
        for (size_t f = 0; f < 4; f++)
            for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
                rotm_case((ty)t, device, shapes[s][0], shapes[s][1], shapes[s][2], flags[f]);
}

static void test_rotm_host(void **state) {
    (void)state;
    run_rotm(0);
}

static void test_rotm_device(void **state) {
    (void)state;
    run_rotm(1);
}

/* ---- bad input ---------------------------------------------------------------------- */

static void test_bad_input(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    float a = 1, b = 2, c, s, p[5] = {-1, 1, 0, 0, 1};
    const trnblasStatus_t inv = TRNBLAS_STATUS_INVALID_VALUE;
    assert_int_equal(trnblasSrotg(h, &a, &b, NULL, &s), inv);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "rotg"));
    assert_int_equal(trnblasSrotg(NULL, &a, &b, &c, &s), TRNBLAS_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnblasSrotmg(h, &a, &b, &c, NULL, p), inv);
    assert_int_equal(trnblasSrotm(h, 4, NULL, 1, NULL, 1, NULL), inv);
    /* x outside any allocation */
    float hx[4] = {0}, *dx;
    assert_int_equal(trnsciMalloc((void **)&dx, 4 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnblasSrotm(h, 4, hx, 1, dx, 1, p), inv);
    assert_int_equal(trnblasSrotm(h, 4, dx, 1, dx + 1, 1, p), inv); /* y runs past */
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "rotm: y"));
    /* device pointer mode: host scalars are not device memory */
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSrotm(h, 4, dx, 1, dx, 1, p), inv);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "param"));
    assert_int_equal(trnblasSrotg(h, &a, &b, &c, &s), inv);
    assert_int_equal(
        trnblasDrotmg(h, (double *)dx, (double *)dx, (double *)dx, (double *)dx, (double *)dx),
        inv); /* param: 5 doubles do not fit in 16 bytes */
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "rotmg: param"));
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    if (run_reference() != 0) {
        fprintf(stderr, "blas_rot_ref.py failed\n");
        return 1;
    }
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotg_rotmg_host), cmocka_unit_test(test_rotg_rotmg_device),
        cmocka_unit_test(test_rotm_host),       cmocka_unit_test(test_rotm_device),
        cmocka_unit_test(test_bad_input),
    };
    int failed =
        cmocka_run_group_tests_name("blas rot over unix socket", tests, connect_unix, disconnect);
    failed += cmocka_run_group_tests_name("blas rot over tcp", tests, connect_tcp, disconnect);
    const int rc = th_daemon_stop(&daemon_under_test);
    if (rc != 0) {
        fprintf(stderr, "trnscid exited with %d (expected a clean 0)\n", rc);
        failed++;
    }
    return failed ? 1 : 0;
}
