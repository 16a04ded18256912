/*
 * blas_rot.c — rotg and rotmg's scalar computations (blas_rot.h), in the
 * precision of their type as reference BLAS computes them.
 */
#include "ops/blas_rot.h"

#include <float.h>
#include <math.h>

#define ROTG_REAL(R, NAME, ABS, SQRT, COPYSIGN, TINY)                                              \
    void NAME(R *a, R *b, R *c, R *s) {                                                            \
        const R safmin = TINY, safmax = (R)1 / TINY;                                               \
        const R anorm = ABS(*a), bnorm = ABS(*b);                                                  \
        if (bnorm == 0) {                                                                          \
            *c = 1;                                                                                \
            *s = 0;                                                                                \
            *b = 0;                                                                                \
            return;                                                                                \
        }                                                                                          \
        if (anorm == 0) {                                                                          \
            *c = 0;                                                                                \
            *s = 1;                                                                                \
            *a = *b;                                                                               \
            *b = 1;                                                                                \
            return;                                                                                \
        }                                                                                          \
        R scl = anorm > bnorm ? anorm : bnorm;                                                     \
        scl = scl < safmin ? safmin : scl > safmax ? safmax : scl;                                 \
        const R sigma = anorm > bnorm ? COPYSIGN((R)1, *a) : COPYSIGN((R)1, *b);                   \
        const R as = *a / scl, bs = *b / scl;                                                      \
        const R r = sigma * (scl * SQRT(as * as + bs * bs));                                       \
        *c = *a / r;                                                                               \
        *s = *b / r;                                                                               \
        const R z = anorm > bnorm ? *s : *c != 0 ? (R)1 / *c : (R)1;                               \
        *a = r;                                                                                    \
        *b = z;                                                                                    \
    }
ROTG_REAL(float, trn_rotg_s, fabsf, sqrtf, copysignf, FLT_MIN)
ROTG_REAL(double, trn_rotg_d, fabs, sqrt, copysign, DBL_MIN)

#define ROTG_CX(R, NAME, HYPOT, SQRT)                                                              \
    void NAME(R a[2], const R b[2], R *c, R s[2]) {                                                \
        const R abs_a = HYPOT(a[0], a[1]);                                                         \
        if (abs_a == 0) {                                                                          \
            *c = 0;                                                                                \
            s[0] = 1;                                                                              \
            s[1] = 0;                                                                              \
            a[0] = b[0];                                                                           \
            a[1] = b[1];                                                                           \
            return;                                                                                \
        }                                                                                          \
        const R scale = abs_a + HYPOT(b[0], b[1]);                                                 \
        const R ar = a[0] / scale, ai = a[1] / scale, br = b[0] / scale, bi = b[1] / scale;        \
        const R norm = scale * SQRT(ar * ar + ai * ai + br * br + bi * bi);                        \
        const R alr = a[0] / abs_a, ali = a[1] / abs_a;                                            \
        *c = abs_a / norm;                                                                         \
        /* s = alpha conj(b) / norm */                                                             \
        s[0] = (alr * b[0] + ali * b[1]) / norm;                                                   \
        s[1] = (ali * b[0] - alr * b[1]) / norm;                                                   \
        a[0] = alr * norm;                                                                         \
        a[1] = ali * norm;                                                                         \
    }
ROTG_CX(float, trn_rotg_c, hypotf, sqrtf)
ROTG_CX(double, trn_rotg_z, hypot, sqrt)

/* Reference BLAS's srotmg / drotmg (the classic routine: H is completed
 * from its implied form only while flag >= 0). */
#define ROTMG(R, NAME, ABS)                                                                        \
    void NAME(R *d1p, R *d2p, R *x1p, R y1, R param[5]) {                                          \
        const R gam = 4096, gamsq = gam * gam, rgamsq = (R)1 / gamsq;                              \
        R d1 = *d1p, d2 = *d2p, x1 = *x1p;                                                         \
        R flag = -1, h11 = 0, h12 = 0, h21 = 0, h22 = 0;                                           \
        int zero = d1 < 0;                                                                         \
        if (!zero) {                                                                               \
            const R p2 = d2 * y1;                                                                  \
            if (p2 == 0) {                                                                         \
                param[0] = -2;                                                                     \
                return;                                                                            \
            }                                                                                      \
            const R p1 = d1 * x1, q2 = p2 * y1, q1 = p1 * x1;                                      \
            if (ABS(q1) > ABS(q2)) {                                                               \
                h21 = -y1 / x1;                                                                    \
                h12 = p2 / p1;                                                                     \
                const R u = 1 - h12 * h21;                                                         \
                if (u <= 0) {                                                                      \
                    zero = 1;                                                                      \
                } else {                                                                           \
                    flag = 0;                                                                      \
                    d1 /= u;                                                                       \
                    d2 /= u;                                                                       \
                    x1 *= u;                                                                       \
                }                                                                                  \
            } else if (q2 < 0) {                                                                   \
                zero = 1;                                                                          \
            } else {                                                                               \
                flag = 1;                                                                          \
                h11 = p1 / p2;                                                                     \
                h22 = x1 / y1;                                                                     \
                const R u = 1 + h11 * h22, t = d2 / u;                                             \
                d2 = d1 / u;                                                                       \
                d1 = t;                                                                            \
                x1 = y1 * u;                                                                       \
            }                                                                                      \
        }                                                                                          \
        if (zero) {                                                                                \
            flag = -1;                                                                             \
            h11 = h12 = h21 = h22 = 0;                                                             \
            d1 = d2 = x1 = 0;                                                                      \
        }                                                                                          \
        /* Rescale d1 and d2 into [gam^-2, gam^2], H with them. */                                 \
        while (d1 != 0 && (d1 <= rgamsq || d1 >= gamsq)) {                                         \
            if (flag == 0) {                                                                       \
                h11 = h22 = 1;                                                                     \
                flag = -1;                                                                         \
            } else if (flag > 0) {                                                                 \
                h21 = -1;                                                                          \
                h12 = 1;                                                                           \
                flag = -1;                                                                         \
            }                                                                                      \
            if (d1 <= rgamsq) {                                                                    \
                d1 *= gamsq;                                                                       \
                x1 /= gam;                                                                         \
                h11 /= gam;                                                                        \
                h12 /= gam;                                                                        \
            } else {                                                                               \
                d1 /= gamsq;                                                                       \
                x1 *= gam;                                                                         \
                h11 *= gam;                                                                        \
                h12 *= gam;                                                                        \
            }                                                                                      \
        }                                                                                          \
        while (d2 != 0 && (ABS(d2) <= rgamsq || ABS(d2) >= gamsq)) {                               \
            if (flag == 0) {                                                                       \
                h11 = h22 = 1;                                                                     \
                flag = -1;                                                                         \
            } else if (flag > 0) {                                                                 \
                h21 = -1;                                                                          \
                h12 = 1;                                                                           \
                flag = -1;                                                                         \
            }                                                                                      \
            if (ABS(d2) <= rgamsq) {                                                               \
                d2 *= gamsq;                                                                       \
                h21 /= gam;                                                                        \
                h22 /= gam;                                                                        \
            } else {                                                                               \
                d2 /= gamsq;                                                                       \
                h21 *= gam;                                                                        \
                h22 *= gam;                                                                        \
            }                                                                                      \
        }                                                                                          \
        if (flag < 0) {                                                                            \
            param[1] = h11;                                                                        \
            param[2] = h21;                                                                        \
            param[3] = h12;                                                                        \
            param[4] = h22;                                                                        \
        } else if (flag == 0) {                                                                    \
            param[2] = h21;                                                                        \
            param[3] = h12;                                                                        \
        } else {                                                                                   \
            param[1] = h11;                                                                        \
            param[4] = h22;                                                                        \
        }                                                                                          \
        param[0] = flag;                                                                           \
        *d1p = d1;                                                                                 \
        *d2p = d2;                                                                                 \
        *x1p = x1;                                                                                 \
    }
ROTMG(float, trn_rotmg_s, fabsf)
ROTMG(double, trn_rotmg_d, fabs)
