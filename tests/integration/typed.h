/*
 * typed.h — the four BLAS element types as one type for tests: reading and
 * writing elements of S/D/C/Z arrays as long double complex, so a reference
 * can be computed once for all of them.
 */
#ifndef TRN_TESTS_TYPED_H
#define TRN_TESTS_TYPED_H

#include <complex.h>
#include <stddef.h>

typedef long double complex lcplx;
typedef enum { TY_S, TY_D, TY_C, TY_Z } ty;

static const char *const ty_name[] = {"S", "D", "C", "Z"};

static inline size_t esize(ty t) {
    return t == TY_S ? 4 : t == TY_D ? 8 : t == TY_C ? 8 : 16;
}

static inline int is_complex(ty t) {
    return t == TY_C || t == TY_Z;
}

/* Element i of buf := v (the real part only for S and D). */
static inline void put(ty t, void *buf, size_t i, lcplx v) {
    switch (t) {
    case TY_S: ((float *)buf)[i] = (float)creall(v); break;
    case TY_D: ((double *)buf)[i] = (double)creall(v); break;
    case TY_C:
        ((float *)buf)[2 * i] = (float)creall(v);
        ((float *)buf)[2 * i + 1] = (float)cimagl(v);
        break;
    case TY_Z:
        ((double *)buf)[2 * i] = (double)creall(v);
        ((double *)buf)[2 * i + 1] = (double)cimagl(v);
        break;
    }
}

static inline lcplx get(ty t, const void *buf, size_t i) {
    switch (t) {
    case TY_S: return ((const float *)buf)[i];
    case TY_D: return ((const double *)buf)[i];
    case TY_C:
        return ((const float *)buf)[2 * i] + I * (long double)((const float *)buf)[2 * i + 1];
    case TY_Z:
        return ((const double *)buf)[2 * i] + I * (long double)((const double *)buf)[2 * i + 1];
    }
    return 0;
}

#endif
