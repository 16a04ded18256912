/*
 * blas_internal.h — what the trnblas client files share: the handle, the
 * mapping of runtime errors to cuBLAS statuses, and the scalar helpers the
 * routine wrappers are written with. Internal to client/.
 */
#ifndef TRN_CLIENT_BLAS_INTERNAL_H
#define TRN_CLIENT_BLAS_INTERNAL_H

#include <string.h>

#include "client/client.h"
#include "trnsci/trnblas.h"

struct trnblasContext {
    trnsciStream_t stream;
    trnblasPointerMode_t mode;
    trnblasMath_t math;
    unsigned long long sr_seed; /* stochastic rounding (trnblasSetStochasticRoundingSeed) */
    void *scratch;              /* device buffer for host-mode results, or NULL */
    uint64_t scratch_gen;       /* the session it belongs to (trn_client.generation) */
};

/* Bytes of the scratch buffer: the largest result (a double complex). */
#define SCRATCH_BYTES 16

/* The cuBLAS status for a runtime error (the message stays recorded). */
trnblasStatus_t trn_blas_status(trnsciError_t e);

/* Wire data types. */
#define R32 TRNSCI__V1__DATA_TYPE__R_32F
#define R64 TRNSCI__V1__DATA_TYPE__R_64F
#define C32 TRNSCI__V1__DATA_TYPE__C_32F
#define C64 TRNSCI__V1__DATA_TYPE__C_64F

/* Whether scalar pointers are device pointers (never dereferenced here);
 * used inside routines whose handle argument is named `handle`. */
#define DEV (handle->mode == TRNBLAS_POINTER_MODE_DEVICE)

/* Component i of a host complex scalar, read with memcpy: callers pass
 * float[2] / double[2] arrays that lack trnComplex's 8-byte or
 * trnDoubleComplex's 16-byte alignment, and a struct access would let the
 * compiler assume it. */
static inline double trn_blas_part(const void *p, int i, int f32) {
    if (f32) {
        float v;
        memcpy(&v, (const char *)p + (size_t)i * sizeof(v), sizeof(v));
        return v;
    }
    double v;
    memcpy(&v, (const char *)p + (size_t)i * sizeof(v), sizeof(v));
    return v;
}

/* Real and imaginary parts of a host scalar of each type (S, D, C, Z). */
#define RE_S(p) ((double)*(p))
#define IM_S(p) 0.0
#define RE_D(p) (*(p))
#define IM_D(p) 0.0
#define RE_C(p) trn_blas_part((p), 0, 1)
#define IM_C(p) trn_blas_part((p), 1, 1)
#define RE_Z(p) trn_blas_part((p), 0, 0)
#define IM_Z(p) trn_blas_part((p), 1, 0)

#endif
