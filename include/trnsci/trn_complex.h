/*
 * trn_complex.h — complex scalar types (the cuComplex.h analog).
 *
 * Layout is two consecutive reals, real part first (x), as cuComplex, C99
 * _Complex and std::complex, so arrays of any of them can be passed as-is.
 */
#ifndef TRNSCI_TRN_COMPLEX_H
#define TRNSCI_TRN_COMPLEX_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __attribute__((aligned(8))) trnFloatComplex {
    float x, y;
} trnFloatComplex;

typedef struct __attribute__((aligned(16))) trnDoubleComplex {
    double x, y;
} trnDoubleComplex;

typedef trnFloatComplex trnComplex;

static inline trnFloatComplex make_trnFloatComplex(float r, float i) {
    trnFloatComplex z = {r, i};
    return z;
}
static inline trnDoubleComplex make_trnDoubleComplex(double r, double i) {
    trnDoubleComplex z = {r, i};
    return z;
}
static inline trnComplex make_trnComplex(float r, float i) {
    return make_trnFloatComplex(r, i);
}

#ifdef __cplusplus
}
#endif

#endif
