/*
 * blas1.c — BLAS Level 1 on the CPU backend through OpenBLAS's CBLAS.
 *
 * Every routine runs as one shard (the scheduler has no sharding rule for
 * Level 1), so a reduction's result does not depend on the core count.
 * Increments follow reference BLAS: x and y point to the lowest element of
 * their vectors also for negative increments, which is what validation
 * checked. Complex rotations with a complex s (cuBLAS Crot/Zrot; CBLAS has
 * only the real-s csrot/zdrot) are a plain loop here. i?amax/i?amin return
 * cuBLAS's 1-based index.
 *
 * Complex dots with an increment other than 1 are a plain loop too: OpenBLAS
 * 0.3.21's cdotu/cdotc/zdotu/zdotc kernels (Haswell, the ones picked here)
 * then read one element past the end of x in the direction of travel, which
 * faults when the vector ends at the end of a mapping (found with vectors
 * placed against guard pages; every other routine used here stays inside
 * |inc|(n-1)+1 elements for increments -3..3), and some strided shapes of
 * tests/integration/test_blas1.c come out wrong beyond the error bound. The
 * loop accumulates in the vector's precision, like reference BLAS.
 *
 * With the descriptor's `compensated` flag, dot, nrm2 and asum run the
 * compensated loops of blas1_compensated.c instead. 16-bit data (the Ex
 * routines' half-precision rows) runs blas1_narrow.c.
 *
 * rotm is a plain loop (reference BLAS's), and rotg / rotmg in device
 * pointer mode compute with ops/blas_rot.h, the code host pointer mode runs
 * in the caller, so both modes give the same bits.
 */
#include <cblas.h>
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "ops/blas_rot.h"

/* Start of a vector's traversal: element 0 of the BLAS sequence. */
static ptrdiff_t first(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* x' = c x + s y, y' = c y - conj(s) x, with complex s (LAPACK CROT). */
static void crot_loop(int n, float complex *x, int incx, float complex *y, int incy, float c,
                      float complex s) {
    ptrdiff_t ix = first(n, incx), iy = first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy) {
        const float complex xv = x[ix], yv = y[iy];
        x[ix] = c * xv + s * yv;
        y[iy] = c * yv - conjf(s) * xv;
    }
}

static void zrot_loop(int n, double complex *x, int incx, double complex *y, int incy, double c,
                      double complex s) {
    ptrdiff_t ix = first(n, incx), iy = first(n, incy);
    for (int i = 0; i < n; i++, ix += incx, iy += incy) {
        const double complex xv = x[ix], yv = y[iy];
        x[ix] = c * xv + s * yv;
        y[iy] = c * yv - conj(s) * xv;
    }
}

/* sum x_i y_i (conj(x_i) y_i when conj), reference BLAS order. */
static void cdot_loop(int n, const float *x, int incx, const float *y, int incy, int conj,
                      float *out) {
    ptrdiff_t ix = first(n, incx) * 2, iy = first(n, incy) * 2;
    float re = 0.0f, im = 0.0f;
    const float sg = conj ? -1.0f : 1.0f;
    for (int i = 0; i < n; i++, ix += 2 * (ptrdiff_t)incx, iy += 2 * (ptrdiff_t)incy) {
        const float xr = x[ix], xi = sg * x[ix + 1], yr = y[iy], yi = y[iy + 1];
        re += xr * yr - xi * yi;
        im += xr * yi + xi * yr;
    }
    out[0] = re;
    out[1] = im;
}

static void zdot_loop(int n, const double *x, int incx, const double *y, int incy, int conj,
                      double *out) {
    ptrdiff_t ix = first(n, incx) * 2, iy = first(n, incy) * 2;
    double re = 0.0, im = 0.0;
    const double sg = conj ? -1.0 : 1.0;
    for (int i = 0; i < n; i++, ix += 2 * (ptrdiff_t)incx, iy += 2 * (ptrdiff_t)incy) {
        const double xr = x[ix], xi = sg * x[ix + 1], yr = y[iy], yi = y[iy + 1];
        re += xr * yr - xi * yi;
        im += xr * yi + xi * yr;
    }
    out[0] = re;
    out[1] = im;
}

/* Reference BLAS's srotm / drotm: (x, y) := H (x, y) with H from param
 * (flag -2: nothing; -1: all four; 0: h11 = h22 = 1; 1: h12 = 1, h21 = -1). */
#define ROTM_LOOP(R, NAME)                                                                         \
    static void NAME(int n, R *x, int incx, R *y, int incy, const R p[5]) {                        \
        const R flag = p[0], h11 = p[1], h21 = p[2], h12 = p[3], h22 = p[4];                       \
        if (n <= 0 || flag == -2)                                                                  \
            return;                                                                                \
        ptrdiff_t ix = first(n, incx), iy = first(n, incy);                                        \
        for (int i = 0; i < n; i++, ix += incx, iy += incy) {                                      \
            const R w = x[ix], z = y[iy];                                                          \
            if (flag < 0) {                                                                        \
                x[ix] = w * h11 + z * h12;                                                         \
                y[iy] = w * h21 + z * h22;                                                         \
            } else if (flag == 0) {                                                                \
                x[ix] = w + z * h12;                                                               \
                y[iy] = w * h21 + z;                                                               \
            } else {                                                                               \
                x[ix] = w * h11 + z;                                                               \
                y[iy] = -w + h22 * z;                                                              \
            }                                                                                      \
        }                                                                                          \
    }
ROTM_LOOP(float, srotm_loop)
ROTM_LOOP(double, drotm_loop)

/* ROTM: H from the descriptor or from device memory (read now). */
static void run_rotm(const trn_blas1_desc *d) {
    if (d->type == TRN_DTYPE_R32F) {
        float p[5];
        if (d->sp[0])
            memcpy(p, d->sp[0], sizeof(p));
        else
            for (int i = 0; i < 5; i++)
                p[i] = (float)d->param[i];
        srotm_loop(d->n, d->x, d->incx, d->y, d->incy, p);
    } else {
        double p[5];
        if (d->sp[0])
            memcpy(p, d->sp[0], sizeof(p));
        else
            memcpy(p, d->param, sizeof(p));
        drotm_loop(d->n, d->x, d->incx, d->y, d->incy, p);
    }
}

/* ROTG, ROTMG in device pointer mode: every argument is read into locals
 * before anything is written (they may overlap), computed by the routines
 * host pointer mode uses (ops/blas_rot.h), and written back. */
#define ROT_SCALARS(R, CT, ROTG_R, ROTG_C, ROTMG)                                                  \
    do {                                                                                           \
        if (d->fn == TRN_BLAS1_ROTMG) {                                                            \
            R v[4], p[5];                                                                          \
            for (int i = 0; i < 4; i++)                                                            \
                memcpy(&v[i], d->sp[i], sizeof(R));                                                \
            memcpy(p, d->sp[4], sizeof(p));                                                        \
            ROTMG(&v[0], &v[1], &v[2], v[3], p);                                                   \
            for (int i = 0; i < 3; i++)                                                            \
                memcpy(d->sp[i], &v[i], sizeof(R));                                                \
            memcpy(d->sp[4], p, sizeof(p));                                                        \
        } else if (d->type == CT) {                                                                \
            R a[2], b[2], c, s[2];                                                                 \
            memcpy(a, d->sp[0], sizeof(a));                                                        \
            memcpy(b, d->sp[1], sizeof(b));                                                        \
            ROTG_C(a, b, &c, s);                                                                   \
            memcpy(d->sp[0], a, sizeof(a));                                                        \
            memcpy(d->sp[2], &c, sizeof(c));                                                       \
            memcpy(d->sp[3], s, sizeof(s));                                                        \
        } else {                                                                                   \
            R a, b, c, s;                                                                          \
            memcpy(&a, d->sp[0], sizeof(a));                                                       \
            memcpy(&b, d->sp[1], sizeof(b));                                                       \
            ROTG_R(&a, &b, &c, &s);                                                                \
            memcpy(d->sp[0], &a, sizeof(a));                                                       \
            memcpy(d->sp[1], &b, sizeof(b));                                                       \
            memcpy(d->sp[2], &c, sizeof(c));                                                       \
            memcpy(d->sp[3], &s, sizeof(s));                                                       \
        }                                                                                          \
    } while (0)

static void run_rot_scalars(const trn_blas1_desc *d) {
    if (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F)
        ROT_SCALARS(float, TRN_DTYPE_C32F, trn_rotg_s, trn_rotg_c, trn_rotmg_s);
    else
        ROT_SCALARS(double, TRN_DTYPE_C64F, trn_rotg_d, trn_rotg_z, trn_rotmg_d);
}

static trn_kstatus run_s(const trn_blas1_desc *d) {
    float *x = d->x, *y = d->y;
    const int n = d->n;
    const float a = (float)d->alpha.re;
    switch (d->fn) {
    case TRN_BLAS1_AXPY: TRN_LIB(cblas_saxpy)(n, a, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SCAL: TRN_LIB(cblas_sscal)(n, a, x, d->incx); break;
    case TRN_BLAS1_COPY: TRN_LIB(cblas_scopy)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SWAP: TRN_LIB(cblas_sswap)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_ROT: TRN_LIB(cblas_srot)(n, x, d->incx, y, d->incy, a, (float)d->beta.re); break;
    case TRN_BLAS1_DOT: *(float *)d->result = TRN_LIB(cblas_sdot)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_NRM2: *(float *)d->result = TRN_LIB(cblas_snrm2)(n, x, d->incx); break;
    case TRN_BLAS1_ASUM: *(float *)d->result = TRN_LIB(cblas_sasum)(n, x, d->incx); break;
    case TRN_BLAS1_IAMAX:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_isamax)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_IAMIN:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_isamin)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_DOTC:
    case TRN_BLAS1_ROTM:
    case TRN_BLAS1_ROTG:
    case TRN_BLAS1_ROTMG: return TRN_KSTATUS_UNSUPPORTED;
    }
    return TRN_KSTATUS_OK;
}

static trn_kstatus run_d(const trn_blas1_desc *d) {
    double *x = d->x, *y = d->y;
    const int n = d->n;
    const double a = d->alpha.re;
    switch (d->fn) {
    case TRN_BLAS1_AXPY: TRN_LIB(cblas_daxpy)(n, a, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SCAL: TRN_LIB(cblas_dscal)(n, a, x, d->incx); break;
    case TRN_BLAS1_COPY: TRN_LIB(cblas_dcopy)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SWAP: TRN_LIB(cblas_dswap)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_ROT: TRN_LIB(cblas_drot)(n, x, d->incx, y, d->incy, a, d->beta.re); break;
    case TRN_BLAS1_DOT:
        *(double *)d->result = TRN_LIB(cblas_ddot)(n, x, d->incx, y, d->incy);
        break;
    case TRN_BLAS1_NRM2: *(double *)d->result = TRN_LIB(cblas_dnrm2)(n, x, d->incx); break;
    case TRN_BLAS1_ASUM: *(double *)d->result = TRN_LIB(cblas_dasum)(n, x, d->incx); break;
    case TRN_BLAS1_IAMAX:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_idamax)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_IAMIN:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_idamin)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_DOTC:
    case TRN_BLAS1_ROTM:
    case TRN_BLAS1_ROTG:
    case TRN_BLAS1_ROTMG: return TRN_KSTATUS_UNSUPPORTED;
    }
    return TRN_KSTATUS_OK;
}

static trn_kstatus run_c(const trn_blas1_desc *d) {
    void *x = d->x, *y = d->y;
    const int n = d->n;
    const float a[2] = {(float)d->alpha.re, (float)d->alpha.im};
    switch (d->fn) {
    case TRN_BLAS1_AXPY: TRN_LIB(cblas_caxpy)(n, a, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SCAL:
        if (d->real_scalar)
            TRN_LIB(cblas_csscal)(n, a[0], x, d->incx);
        else
            TRN_LIB(cblas_cscal)(n, a, x, d->incx);
        break;
    case TRN_BLAS1_COPY: TRN_LIB(cblas_ccopy)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SWAP: TRN_LIB(cblas_cswap)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_ROT:
        if (d->real_scalar)
            TRN_LIB(cblas_csrot)(n, x, d->incx, y, d->incy, a[0], (float)d->beta.re);
        else
            crot_loop(n, x, d->incx, y, d->incy, a[0],
                      CMPLXF((float)d->beta.re, (float)d->beta.im));
        break;
    case TRN_BLAS1_DOT:
    case TRN_BLAS1_DOTC: {
        const int conj = d->fn == TRN_BLAS1_DOTC;
        if (d->incx != 1 || d->incy != 1)
            cdot_loop(n, x, d->incx, y, d->incy, conj, d->result);
        else if (conj)
            TRN_LIB(cblas_cdotc_sub)(n, x, 1, y, 1, d->result);
        else
            TRN_LIB(cblas_cdotu_sub)(n, x, 1, y, 1, d->result);
        break;
    }
    case TRN_BLAS1_NRM2: *(float *)d->result = TRN_LIB(cblas_scnrm2)(n, x, d->incx); break;
    case TRN_BLAS1_ASUM: *(float *)d->result = TRN_LIB(cblas_scasum)(n, x, d->incx); break;
    case TRN_BLAS1_IAMAX:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_icamax)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_IAMIN:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_icamin)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_ROTM:
    case TRN_BLAS1_ROTG:
    case TRN_BLAS1_ROTMG: return TRN_KSTATUS_UNSUPPORTED;
    }
    return TRN_KSTATUS_OK;
}

static trn_kstatus run_z(const trn_blas1_desc *d) {
    void *x = d->x, *y = d->y;
    const int n = d->n;
    const double a[2] = {d->alpha.re, d->alpha.im};
    switch (d->fn) {
    case TRN_BLAS1_AXPY: TRN_LIB(cblas_zaxpy)(n, a, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SCAL:
        if (d->real_scalar)
            TRN_LIB(cblas_zdscal)(n, a[0], x, d->incx);
        else
            TRN_LIB(cblas_zscal)(n, a, x, d->incx);
        break;
    case TRN_BLAS1_COPY: TRN_LIB(cblas_zcopy)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_SWAP: TRN_LIB(cblas_zswap)(n, x, d->incx, y, d->incy); break;
    case TRN_BLAS1_ROT:
        if (d->real_scalar)
            TRN_LIB(cblas_zdrot)(n, x, d->incx, y, d->incy, a[0], d->beta.re);
        else
            zrot_loop(n, x, d->incx, y, d->incy, a[0], CMPLX(d->beta.re, d->beta.im));
        break;
    case TRN_BLAS1_DOT:
    case TRN_BLAS1_DOTC: {
        const int conj = d->fn == TRN_BLAS1_DOTC;
        if (d->incx != 1 || d->incy != 1)
            zdot_loop(n, x, d->incx, y, d->incy, conj, d->result);
        else if (conj)
            TRN_LIB(cblas_zdotc_sub)(n, x, 1, y, 1, d->result);
        else
            TRN_LIB(cblas_zdotu_sub)(n, x, 1, y, 1, d->result);
        break;
    }
    case TRN_BLAS1_NRM2: *(double *)d->result = TRN_LIB(cblas_dznrm2)(n, x, d->incx); break;
    case TRN_BLAS1_ASUM: *(double *)d->result = TRN_LIB(cblas_dzasum)(n, x, d->incx); break;
    case TRN_BLAS1_IAMAX:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_izamax)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_IAMIN:
        *(int32_t *)d->result = (int32_t)TRN_LIB(cblas_izamin)(n, x, d->incx) + 1;
        break;
    case TRN_BLAS1_ROTM:
    case TRN_BLAS1_ROTG:
    case TRN_BLAS1_ROTMG: return TRN_KSTATUS_UNSUPPORTED;
    }
    return TRN_KSTATUS_OK;
}

/* The value of a reduction over no elements. */
static void write_zero(const trn_blas1_desc *d) {
    const size_t es = trn_dtype_size(d->type);
    unsigned char *r = d->result;
    size_t bytes = es;
    if (d->fn == TRN_BLAS1_NRM2 || d->fn == TRN_BLAS1_ASUM)
        bytes = (d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F) ? 4 : 8;
    else if (d->fn == TRN_BLAS1_IAMAX || d->fn == TRN_BLAS1_IAMIN)
        bytes = sizeof(int32_t);
    for (size_t i = 0; i < bytes; i++)
        r[i] = 0; /* +0.0 and integer 0 are all-zero bytes */
}

/* A scalar read from device memory: a real component, or a complex element
 * when complex (the layout validation checked). */
static trn_scalar load_scalar(trn_dtype t, const void *p, int is_cx) {
    trn_scalar v = {0.0, 0.0};
    if (t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F) {
        float f[2] = {0.0f, 0.0f};
        memcpy(f, p, is_cx ? 2 * sizeof(float) : sizeof(float));
        v.re = f[0];
        v.im = f[1];
    } else {
        double f[2] = {0.0, 0.0};
        memcpy(f, p, is_cx ? 2 * sizeof(double) : sizeof(double));
        v.re = f[0];
        v.im = f[1];
    }
    return v;
}

/* DOT, DOTC, NRM2, ASUM with compensated accumulation (blas1_compensated.c). */
static void run_compensated(const trn_blas1_desc *d) {
    const int cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F;
    const int f32 = d->type == TRN_DTYPE_R32F || d->type == TRN_DTYPE_C32F;
    const int comps = cx ? 2 : 1;
    switch (d->fn) {
    case TRN_BLAS1_DOT:
    case TRN_BLAS1_DOTC:
        if (cx && f32)
            trn_comp_cdot_s(d->n, d->x, d->incx, d->y, d->incy, d->fn == TRN_BLAS1_DOTC, d->result);
        else if (cx)
            trn_comp_cdot_d(d->n, d->x, d->incx, d->y, d->incy, d->fn == TRN_BLAS1_DOTC, d->result);
        else if (f32)
            *(float *)d->result = trn_comp_dot_s(d->n, d->x, d->incx, d->y, d->incy);
        else
            *(double *)d->result = trn_comp_dot_d(d->n, d->x, d->incx, d->y, d->incy);
        break;
    case TRN_BLAS1_NRM2:
        if (f32)
            *(float *)d->result = trn_comp_nrm2_s(d->n, d->x, d->incx, comps);
        else
            *(double *)d->result = trn_comp_nrm2_d(d->n, d->x, d->incx, comps);
        break;
    case TRN_BLAS1_ASUM:
        if (f32)
            *(float *)d->result = trn_comp_asum_s(d->n, d->x, d->incx, comps);
        else
            *(double *)d->result = trn_comp_asum_d(d->n, d->x, d->incx, comps);
        break;
    default: break;
    }
}

static int compensable(trn_blas1_fn fn) {
    return fn == TRN_BLAS1_DOT || fn == TRN_BLAS1_DOTC || fn == TRN_BLAS1_NRM2 ||
           fn == TRN_BLAS1_ASUM;
}

trn_kstatus trn_cpu_blas1(const trn_blas1_desc *desc, int shard, int nshards) {
    if (shard != 0 || nshards < 1)
        return TRN_KSTATUS_OK; /* one shard does all (see above) */
    if (desc->type == TRN_DTYPE_R16F || desc->type == TRN_DTYPE_R16BF)
        return trn_cpu_blas1_narrow(desc); /* n = 0 included: it writes the 0 result */
    trn_blas1_desc local = *desc;
    const trn_blas1_desc *d = &local;
    const int cx = desc->type == TRN_DTYPE_C32F || desc->type == TRN_DTYPE_C64F;
    if (desc->alpha_ptr) /* AXPY/SCAL alpha, ROT c (always real) */
        local.alpha = load_scalar(desc->type, desc->alpha_ptr,
                                  cx && !desc->real_scalar && desc->fn != TRN_BLAS1_ROT);
    if (desc->beta_ptr) /* ROT s */
        local.beta = load_scalar(desc->type, desc->beta_ptr, cx && !desc->real_scalar);
    if (d->fn == TRN_BLAS1_ROTG || d->fn == TRN_BLAS1_ROTMG) {
        run_rot_scalars(d);
        return TRN_KSTATUS_OK;
    }
    if (d->fn == TRN_BLAS1_ROTM) {
        run_rotm(d);
        return TRN_KSTATUS_OK;
    }
    if (d->n == 0) {
        if (d->result)
            write_zero(d);
        return TRN_KSTATUS_OK;
    }
    if (d->compensated && compensable(d->fn)) {
        run_compensated(d);
        return TRN_KSTATUS_OK;
    }
    switch (d->type) {
    case TRN_DTYPE_R32F: return run_s(d);
    case TRN_DTYPE_R64F: return run_d(d);
    case TRN_DTYPE_C32F: return run_c(d);
    case TRN_DTYPE_C64F:
        return run_z(d);
    TRN_DTYPE_GEMM_ONLY_CASES:
        break; /* GEMM only */
    }
    return TRN_KSTATUS_UNSUPPORTED;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(blas1, trn_cpu_blas1(&op->u.blas1, shard, nshards))
