/*
 * blas_internal.h — what the trnblas client files share: the handle, the
 * mapping of runtime errors to cuBLAS statuses, and the scalar helpers the
 * routine wrappers are written with. Internal to client/.
 */
#ifndef TRN_CLIENT_BLAS_INTERNAL_H
#define TRN_CLIENT_BLAS_INTERNAL_H

#include "client/client.h"
#include "trnsci/trnblas.h"

struct trnblasContext {
    trnsciStream_t stream;
    trnblasPointerMode_t mode;
    trnblasMath_t math;
    unsigned long long sr_seed; /* stochastic rounding (trnblasSetStochasticRoundingSeed) */
    void *scratch;        /* device buffer for host-mode results, or NULL */
    uint64_t scratch_gen; /* the session it belongs to (trn_client.generation) */
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

/* Real and imaginary parts of a host scalar of each type (S, D, C, Z). */
#define RE_S(p) ((double)*(p))
#define IM_S(p) 0.0
#define RE_D(p) (*(p))
#define IM_D(p) 0.0
#define RE_C(p) ((double)(p)->x)
#define IM_C(p) ((double)(p)->y)
#define RE_Z(p) ((p)->x)
#define IM_Z(p) ((p)->y)

#endif
