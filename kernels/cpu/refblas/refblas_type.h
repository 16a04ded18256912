/*
 * refblas_type.h — the element type of one instantiation of the in-tree
 * BLAS templates (refblas1_tmpl.h, refblas2_tmpl.h, refblas3_tmpl.h), and
 * its scalar arithmetic. Included by each template, so once per type in a
 * translation unit; no include guard on purpose: every inclusion first
 * undefines what the previous one defined, then defines, from RB_KIND
 * (1 float, 2 double, 3 float complex, 4 double complex):
 *   T, R      the element type and its real type
 *   CX        1 for complex types
 *   SGL       1 for single precision
 *   RB_P      the routine letter (s, d, c, z): RB_FN(axpy) is
 *             trn_ref_cblas_saxpy, RB_FNI(amax) trn_ref_cblas_isamax
 *   RB_PR     the prefix of routines of a vector that return a real
 *             (s, d, sc, dz): RB_FNR(nrm2) is trn_ref_cblas_scnrm2
 *   RB_PX     complex only: the prefix of routines with real scalars on a
 *             complex vector (cs, zd): RB_FNX(scal) is trn_ref_cblas_csscal
 *   ST(name)  a static helper's name for this type (name_s, ...)
 *   VP, CVP   the CBLAS type of a vector argument (float *, void *, and
 *             const versions); SARG the type of a scalar argument given by
 *             value for real types and by pointer for complex ones, GETS(p)
 *             its value
 * and the arithmetic MUL(a, b), CJ(a) (conjugate), RMUL(r, a) (real times
 * element), DIV(a, b), ABS1(a) (|re| + |im|), RE(a), IM(a), MK(re, im).
 *
 * Complex products are written out in real arithmetic: C's complex '*'
 * checks its result for NaN and then calls __mulsc3, which would sit in
 * every inner loop and stop vectorisation. For finite operands the values
 * are the same; like BLAS, no Annex G recovery of infinities is attempted.
 * Complex division uses Smith's algorithm (no overflow of |b|^2).
 */
#include "kernels/cpu/refblas/refblas_common.h"

#undef T
#undef R
#undef CX
#undef SGL
#undef RB_P
#undef RB_PR
#undef RB_PX
#undef MK
#undef RE
#undef IM
#undef RABS
#undef VP
#undef CVP
#undef SARG
#undef GETS
#undef ST
#undef RB_FN
#undef RB_FNR
#undef RB_FNX
#undef RB_FNI
#undef MUL
#undef CJ
#undef RMUL
#undef DIV
#undef ABS1

#if RB_KIND == 1
#define T float
#define R float
#define CX 0
#define SGL 1
#define RB_P s
#define RB_PR s
#elif RB_KIND == 2
#define T double
#define R double
#define CX 0
#define SGL 0
#define RB_P d
#define RB_PR d
#elif RB_KIND == 3
#define T float complex
#define R float
#define CX 1
#define SGL 1
#define RB_P c
#define RB_PR sc
#define RB_PX cs
#define MK(re, im) CMPLXF(re, im)
#define RE(a) crealf(a)
#define IM(a) cimagf(a)
#elif RB_KIND == 4
#define T double complex
#define R double
#define CX 1
#define SGL 0
#define RB_P z
#define RB_PR dz
#define RB_PX zd
#define MK(re, im) CMPLX(re, im)
#define RE(a) creal(a)
#define IM(a) cimag(a)
#else
#error "RB_KIND must be 1 (float), 2 (double), 3 (float complex) or 4 (double complex)"
#endif

#if SGL
#define RABS(r) fabsf(r)
#else
#define RABS(r) fabs(r)
#endif

#if CX
#define VP void *
#define CVP const void *
#define SARG const void *
#define GETS(p) ST(gets)(p)
#else
#define VP T *
#define CVP const T *
#define SARG T
#define GETS(p) (p)
#define MK(re, im) (re)
#define RE(a) (a)
#define IM(a) ((R)0)
#endif

#define ST(name) RB_CAT3(name, _, RB_P)
#define RB_FN(name) RB_CAT3(trn_ref_cblas_, RB_P, name)
#define RB_FNR(name) RB_CAT3(trn_ref_cblas_, RB_PR, name)
#define RB_FNX(name) RB_CAT3(trn_ref_cblas_, RB_PX, name)
#define RB_FNI(name) RB_CAT4(trn_ref_cblas_, i, RB_P, name)

#define MUL(a, b) ST(mul)(a, b)
#define CJ(a) ST(cj)(a)
#define RMUL(r, a) ST(rmul)(r, a)
#define DIV(a, b) ST(div)(a, b)
#define ABS1(a) ST(abs1)(a)

static inline T ST(mul)(const T a, const T b) {
#if CX
    return MK(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b));
#else
    return a * b;
#endif
}

static inline T ST(cj)(const T a) {
#if CX
    return MK(RE(a), -IM(a));
#else
    return a;
#endif
}

static inline T ST(rmul)(const R r, const T a) {
#if CX
    return MK(r * RE(a), r * IM(a));
#else
    return r * a;
#endif
}

static inline R ST(abs1)(const T a) {
#if CX
    return RABS(RE(a)) + RABS(IM(a));
#else
    return RABS(a);
#endif
}

static inline T ST(div)(const T a, const T b) {
#if CX
    const R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);
    if (RABS(br) >= RABS(bi)) {
        const R r = bi / br, d = br + bi * r;
        return MK((ar + ai * r) / d, (ai - ar * r) / d);
    }
    const R r = br / bi, d = bi + br * r;
    return MK((ar * r + ai) / d, (ai * r - ar) / d);
#else
    return a / b;
#endif
}

#if CX
/* A complex scalar argument (two reals). */
static inline T ST(gets)(const void *p) {
    const R *v = (const R *)p;
    return MK(v[0], v[1]);
}
#endif
