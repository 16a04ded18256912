/*
 * blas_rot.h — the scalar computations of BLAS's rotg and rotmg, shared by
 * libtrnsci (host pointer mode: computed in the caller, as cuBLAS does) and
 * the CPU kernels (device pointer mode: computed when the op runs), so that
 * both modes give the same bits.
 *
 * rotg constructs the Givens rotation [c s; -conj(s) c] that zeros b:
 *  - real: r = sign * sqrt(a^2 + b^2) with the sign of the larger of |a|,
 *    |b| (b's on ties), c = a / r, s = b / r; a becomes r and b becomes
 *    reference BLAS's z (s when |a| > |b|, 1 / c when c != 0, else 1);
 *    a = b = 0 gives c = 1, s = 0, r = z = 0. The norm is computed with a
 *    scale factor so that it overflows only when r does (LAPACK 3.10's
 *    srotg; the same results as the classic routine otherwise).
 *  - complex: a = 0 gives c = 0, s = 1 and a = b (cuBLAS's and classic
 *    BLAS's convention); else norm = sqrt(|a|^2 + |b|^2) (scaled),
 *    c = |a| / norm, s = (a / |a|) conj(b) / norm, a = (a / |a|) norm;
 *    b is not modified.
 * rotmg constructs reference BLAS's modified Givens transformation H
 * (param = flag, h11, h21, h12, h22; flag -1: all four given, 0: h11 = h22
 * = 1 implied, 1: h21 = -1 and h12 = 1 implied, -2: H = I) with the
 * rescaling constant gam = 4096 (d1 and |d2| kept within [gam^-2, gam^2]).
 * d1 < 0, or a case that would make the scaled factor non-positive, zeros
 * d1, d2, x1 and H with flag -1.
 */
#ifndef TRN_OPS_BLAS_ROT_H
#define TRN_OPS_BLAS_ROT_H

/* a, b, s: complex values as (re, im) pairs for the c / z forms. */
void trn_rotg_s(float *a, float *b, float *c, float *s);
void trn_rotg_d(double *a, double *b, double *c, double *s);
void trn_rotg_c(float a[2], const float b[2], float *c, float s[2]);
void trn_rotg_z(double a[2], const double b[2], double *c, double s[2]);

void trn_rotmg_s(float *d1, float *d2, float *x1, float y1, float param[5]);
void trn_rotmg_d(double *d1, double *d2, double *x1, double y1, double param[5]);

#endif
