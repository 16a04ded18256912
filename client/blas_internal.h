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
    unsigned long long sr_seed;   /* stochastic rounding (trnblasSetStochasticRoundingSeed) */
    void *scratch;                /* device buffer for host-mode results, or NULL */
    uint64_t scratch_gen;         /* the session it belongs to (trn_client.generation) */
    trnblasAtomicsMode_t atomics; /* trnblasSetAtomicsMode: recorded, no effect */
    void *workspace;              /* trnblasSetWorkspace: recorded, not needed */
    size_t workspace_bytes;
    /* Emulation controls (blas_emulation.c); calloc's zeros are cuBLAS's
     * defaults except special_values, set by trnblasCreate. */
    trnblasEmulationStrategy_t emu_strategy;
    trnsciEmulationSpecialValuesSupport emu_special;
    trnsciEmulationMantissaControl emu_control;
    int emu_max_bits;   /* 0: the default configuration */
    int emu_bit_offset; /* for DYNAMIC control */
    int *emu_bits_ptr;  /* device int written by FP64-emulated GEMMs, or NULL */
};

/* Bytes of the scratch buffer: the largest result (a double complex). */
#define SCRATCH_BYTES 16

/* The cuBLAS status for a runtime error (the message stays recorded). */
trnblasStatus_t trn_blas_status(trnsciError_t e);

/* blas_emulation.c. Before a GEMM with wire compute type `compute` is
 * queued: TRNBLAS_STATUS_INVALID_VALUE (naming `routine`) when it runs
 * FP64-emulated under a handle state cuBLAS rejects (a mantissa bit offset
 * with FIXED control), SUCCESS otherwise. */
trnblasStatus_t trn_blas_emulation_check(trnblasHandle_t handle, const char *routine,
                                         Trnsci__V1__ComputeType compute);
/* After it was queued: writes the mantissa bit count to the handle's bit
 * count pointer, in stream order, when the GEMM runs FP64-emulated and the
 * pointer is set. */
trnsciError_t trn_blas_emulation_report(trnblasHandle_t handle, Trnsci__V1__ComputeType compute);

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

/* Level 2 and 3 (blas2.c, blas3.c): a NULL handle gives NOT_INITIALIZED, a
 * NULL scalar pointer (alpha, beta; b may repeat a) INVALID_VALUE naming
 * the routine `name`; TRNBLAS_STATUS_SUCCESS otherwise. */
trnblasStatus_t trn_blas_check_scalars(trnblasHandle_t handle, const char *name, const void *a,
                                       const void *b);
/* A device-pointer argument `arg` of a routine: p (NULL: buffer 0) to be
 * resolved into *ref. */
typedef struct trn_blas_operand {
    const void *p;
    const char *arg;
    Trnsci__V1__BufferRef *ref;
} trn_blas_operand;

/* Resolves each operand, naming it "<routine>: <arg>" in errors. */
trnsciError_t trn_blas_resolve(trn_client *c, const char *routine, const trn_blas_operand *ops,
                               size_t n);

/* Level 1 (blas.c): one Blas1Op with the routine's checks, pointer modes
 * and result handling; Level 1 Ex (blas_ex.c) submits through it too. */
typedef struct trn_blas1_args {
    const char *name; /* "axpy", ... for messages */
    Trnsci__V1__Blas1Function fn;
    Trnsci__V1__DataType type;
    int n;
    double a_re, a_im, b_re, b_im;
    int real_scalar;
    const void *x;
    int incx;
    const void *y;
    int incy;
    const void *alpha_dev, *beta_dev; /* device-mode scalars, or NULL */
    void *result;                     /* reductions: host or device pointer (pointer mode) */
    size_t result_bytes;              /* 0 for the routines without a result */
    /* The protocol minor the op needs (0: any); ops that need one are
     * never compensated (the 16-bit rows of the Ex routines). */
    unsigned minor;
} trn_blas1_args;
trnblasStatus_t trn_blas1_submit(trnblasHandle_t handle, const trn_blas1_args *g);

/* Queues op on the handle's stream; the cuBLAS status of the outcome (the
 * last error is cleared on success). */
trnblasStatus_t trn_blas_queue(trn_client *c, trnblasHandle_t handle, Trnsci__V1__Op *op);

/* A cuBLAS device pointer array (Aarray, ...) of count entries: reads it
 * after the stream's earlier work (directly from the shared mapping on the
 * local transport, with a device-to-host copy otherwise) into scratch, and
 * resolves each pointer into refs[i] with rp[i] = &refs[i], naming entry i
 * "<routine>: <name>[i]" in errors. */
trnsciError_t trn_blas_resolve_array(trn_client *c, trnsciStream_t stream, const void *arr,
                                     size_t count, const char *routine, const char *name,
                                     void **scratch, Trnsci__V1__BufferRef *refs,
                                     Trnsci__V1__BufferRef **rp);

/* A wire scalar. */
static inline Trnsci__V1__Scalar trn_blas_scalar(double re, double im) {
    Trnsci__V1__Scalar s = TRNSCI__V1__SCALAR__INIT;
    s.re = re;
    s.im = im;
    return s;
}

/* trn_blas_check_scalars, returning its status from the routine when it is
 * not SUCCESS. */
#define SCALARS(name, a, b)                                                                        \
    do {                                                                                           \
        const trnblasStatus_t st_ = trn_blas_check_scalars(handle, name, a, b);                    \
        if (st_)                                                                                   \
            return st_;                                                                            \
    } while (0)

/* Designated initialisers of a host-mode scalar of type T (S, D, C, Z) read
 * now, or of its device pointer (device pointer mode), for the args
 * structs of blas2.c and blas3.c. */
#define ALPHA_OF(T, p)                                                                             \
    .a_re = DEV ? 0 : RE_##T(p), .a_im = DEV ? 0 : IM_##T(p),                                      \
    .alpha_dev = DEV ? (const void *)(p) : NULL
#define BETA_OF(T, p)                                                                              \
    .b_re = DEV ? 0 : RE_##T(p), .b_im = DEV ? 0 : IM_##T(p),                                      \
    .beta_dev = DEV ? (const void *)(p) : NULL

#endif
