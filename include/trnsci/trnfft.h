/*
 * trnfft.h — fast Fourier transforms (the cuFFT analog).
 *
 * A plan describes a batch of 1-, 2- or 3-dimensional transforms of one type
 * and layout; Exec* runs it on device memory. Semantics are cuFFT's:
 * transforms are unnormalised in both directions (a forward then an inverse
 * transform multiplies by the product of the sizes), real-to-complex outputs
 * and complex-to-real inputs hold the n[rank-1]/2 + 1 non-redundant
 * (Hermitian) elements of the last dimension, and the basic layout (no
 * inembed/onembed) of an in-place real transform pads each real row to
 * 2*(n[rank-1]/2 + 1) elements. Any size is allowed (primes and odd sizes
 * included).
 *
 * Plans live in the daemon's plan cache, shared by every process that uses
 * the daemon: planning (choosing an algorithm by measuring, the expensive
 * step) happens once per shape and layout, and a plan another process — or
 * an earlier run of the daemon, when it keeps a cache directory — prepared
 * is ready at once. trnfftPlan* return as soon as the daemon has checked the
 * arguments and found or queued the plan; the first Exec* of a plan nobody
 * has prepared yet waits, on the daemon's side, for the preparation. Exec*
 * are asynchronous like trnblas routines: they return once the daemon has
 * validated and queued the transform on the plan's stream; the result is in
 * device memory after a synchronising call that covers the stream.
 *
 * On failure, trnsciGetLastErrorMessage() says why (the library's or the
 * daemon's explanation). Handles are per process and thread-safe.
 *
 * Deviations from cuFFT are listed in docs/rosetta.md.
 */
#ifndef TRNSCI_TRNFFT_H
#define TRNSCI_TRNFFT_H

#include <stddef.h>

#include <trnsci/trn_complex.h>
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cufftResult. */
typedef enum trnfftResult {
    TRNFFT_SUCCESS = 0,
    TRNFFT_INVALID_PLAN = 1,  /* not a live handle, or no plan made on it yet */
    TRNFFT_ALLOC_FAILED = 2,  /* out of memory, or a daemon limit */
    TRNFFT_INVALID_TYPE = 3,  /* unknown type, or Exec* of another type than the plan's */
    TRNFFT_INVALID_VALUE = 4, /* a bad pointer, direction, stride or distance */
    TRNFFT_INTERNAL_ERROR = 5,
    TRNFFT_EXEC_FAILED = 6,    /* the daemon could not queue the transform */
    TRNFFT_SETUP_FAILED = 7,   /* no daemon reachable, or the session ended */
    TRNFFT_INVALID_SIZE = 8,   /* a size <= 0, or sizes whose product overflows */
    TRNFFT_UNALIGNED_DATA = 9, /* not returned */
    TRNFFT_INCOMPLETE_PARAMETER_LIST = 10,
    TRNFFT_INVALID_DEVICE = 11, /* not returned */
    TRNFFT_PARSE_ERROR = 12,    /* not returned */
    TRNFFT_NO_WORKSPACE = 13,   /* not returned */
    TRNFFT_NOT_IMPLEMENTED = 14,
    TRNFFT_LICENSE_ERROR = 15, /* not returned */
    TRNFFT_NOT_SUPPORTED = 16, /* the daemon does not serve FFTs */
} trnfftResult;

/* Values are those of cufftType. */
typedef enum trnfftType {
    TRNFFT_R2C = 0x2a, /* float real → complex (forward) */
    TRNFFT_C2R = 0x2c, /* complex → float real (inverse) */
    TRNFFT_C2C = 0x29,
    TRNFFT_D2Z = 0x6a,
    TRNFFT_Z2D = 0x6c,
    TRNFFT_Z2Z = 0x69,
} trnfftType;

#define TRNFFT_FORWARD (-1)
#define TRNFFT_INVERSE 1

typedef float trnfftReal;
typedef double trnfftDoubleReal;
typedef trnFloatComplex trnfftComplex;
typedef trnDoubleComplex trnfftDoubleComplex;

/* A plan (cufftHandle): a small integer naming a plan of this process. */
typedef int trnfftHandle;

/* Library version as CUFFT_VERSION encodes it: major*1000 + minor*100 + patch. */
#define TRNFFT_VERSION 100

/* Creates an empty handle for trnfftMakePlan*; the runtime is initialised
 * (connecting to the daemon) if it is not yet. TRNFFT_INVALID_VALUE when
 * plan is NULL. */
trnfftResult trnfftCreate(trnfftHandle *plan);

/* Makes a plan on a handle from trnfftCreate: batch transforms of size nx
 * (1d), nx×ny (2d, ny contiguous) or nx×ny×nz (3d), of type, in the basic
 * layout. *workSize (may be NULL) is set to 0: the plan needs no work area
 * (see trnfftGetSize). TRNFFT_INVALID_PLAN for a handle that is not live or already has a
 * plan; TRNFFT_INVALID_SIZE for a size or batch <= 0 or a total that does
 * not fit; TRNFFT_INVALID_TYPE for an unknown type. */
trnfftResult trnfftMakePlan1d(trnfftHandle plan, int nx, trnfftType type, int batch,
                              size_t *workSize);
trnfftResult trnfftMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type, size_t *workSize);
trnfftResult trnfftMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type,
                              size_t *workSize);
/* The advanced layout, as cufftMakePlanMany: rank 1..3 sizes n[] (outermost
 * first); element x of transform b of the input is at
 * b*idist + istride*(x[0]*inembed[1]*..*inembed[rank-1] + .. + x[rank-1]),
 * likewise the output with onembed/ostride/odist. inembed and onembed both
 * NULL selects the basic layout (strides and dists ignored); inembed[0] and
 * onembed[0] are not used; inembed[i] >= the logical size of dimension i.
 * Input and output regions of different transforms may not overlap except
 * in place. TRNFFT_INVALID_VALUE for a bad stride, dist or embed. */
trnfftResult trnfftMakePlanMany(trnfftHandle plan, int rank, int *n, int *inembed, int istride,
                                int idist, int *onembed, int ostride, int odist, trnfftType type,
                                int batch, size_t *workSize);
/* trnfftMakePlanMany with 64-bit sizes, embeds, strides, distances and
 * batch, as cufftMakePlanMany64. Each value must still be at most
 * 2^31 - 1 (the daemon's limit; the distances between transforms times the
 * batch may exceed it, as with trnfftMakePlanMany): a size or batch beyond
 * gives TRNFFT_INVALID_SIZE, an embed, stride or distance beyond
 * TRNFFT_INVALID_VALUE. */
trnfftResult trnfftMakePlanMany64(trnfftHandle plan, int rank, long long int *n,
                                  long long int *inembed, long long int istride,
                                  long long int idist, long long int *onembed,
                                  long long int ostride, long long int odist, trnfftType type,
                                  long long int batch, size_t *workSize);

/* trnfftCreate followed by trnfftMakePlan*: on failure *plan is not a live
 * handle. */
trnfftResult trnfftPlan1d(trnfftHandle *plan, int nx, trnfftType type, int batch);
trnfftResult trnfftPlan2d(trnfftHandle *plan, int nx, int ny, trnfftType type);
trnfftResult trnfftPlan3d(trnfftHandle *plan, int nx, int ny, int nz, trnfftType type);
trnfftResult trnfftPlanMany(trnfftHandle *plan, int rank, int *n, int *inembed, int istride,
                            int idist, int *onembed, int ostride, int odist, trnfftType type,
                            int batch);

/* Runs the plan on device memory: odata = FFT(idata), in place when
 * idata == odata. direction is TRNFFT_FORWARD or TRNFFT_INVERSE for
 * C2C/Z2Z; R2C/D2Z are forward and C2R/Z2D inverse. As in cuFFT, a C2R/Z2D
 * transform may overwrite its input. TRNFFT_INVALID_TYPE when the plan is of
 * another type; TRNFFT_INVALID_VALUE for a direction that is neither, or a
 * pointer that is not device memory of this process or too small for the
 * plan's layout (the daemon's message gives the extent needed);
 * TRNFFT_EXEC_FAILED when the daemon cannot queue it. Asynchronous. */
trnfftResult trnfftExecC2C(trnfftHandle plan, trnfftComplex *idata, trnfftComplex *odata,
                           int direction);
trnfftResult trnfftExecR2C(trnfftHandle plan, trnfftReal *idata, trnfftComplex *odata);
trnfftResult trnfftExecC2R(trnfftHandle plan, trnfftComplex *idata, trnfftReal *odata);
trnfftResult trnfftExecZ2Z(trnfftHandle plan, trnfftDoubleComplex *idata,
                           trnfftDoubleComplex *odata, int direction);
trnfftResult trnfftExecD2Z(trnfftHandle plan, trnfftDoubleReal *idata, trnfftDoubleComplex *odata);
trnfftResult trnfftExecZ2D(trnfftHandle plan, trnfftDoubleComplex *idata, trnfftDoubleReal *odata);

/* Later Exec* of the plan queue on stream (NULL: the default stream). */
trnfftResult trnfftSetStream(trnfftHandle plan, trnsciStream_t stream);

/* Work areas. A cuFFT plan needs a work area in device memory, which cuFFT
 * allocates at MakePlan unless told not to (trnfftSetAutoAllocation(plan,
 * 0)) and which the caller then provides (trnfftSetWorkArea). A trnfft plan
 * needs none: the daemon's kernels allocate their own scratch (FFTW's
 * buffers, and the float copies of half and bfloat16 transforms) outside
 * the session's allocations, for the duration of each transform. So every
 * work-area size below is 0 bytes, and a program that allocates a work area
 * of that size and sets it runs unchanged. */

/* The work area the plan needs in device memory: 0. TRNFFT_INVALID_PLAN
 * for a handle that is not live, TRNFFT_INVALID_VALUE when workSize is
 * NULL. */
trnfftResult trnfftGetSize(trnfftHandle plan, size_t *workSize);

/* The work area a plan of these arguments would need, before it is made
 * (cufftGetSize*d, cufftGetSizeMany(64)) on a live handle from
 * trnfftCreate, or without a handle (cufftEstimate*): *workSize = 0. The
 * arguments are checked as trnfftMakePlan* checks them in the caller's
 * process (sizes, batch, type, rank, embeds given in pairs), with the same
 * results; strides and distances are not looked at. TRNFFT_INVALID_PLAN
 * for a handle that is not live (GetSize*), TRNFFT_INVALID_VALUE for a NULL
 * workSize. No daemon is contacted. */
trnfftResult trnfftEstimate1d(int nx, trnfftType type, int batch, size_t *workSize);
trnfftResult trnfftEstimate2d(int nx, int ny, trnfftType type, size_t *workSize);
trnfftResult trnfftEstimate3d(int nx, int ny, int nz, trnfftType type, size_t *workSize);
trnfftResult trnfftEstimateMany(int rank, int *n, int *inembed, int istride, int idist,
                                int *onembed, int ostride, int odist, trnfftType type, int batch,
                                size_t *workSize);
trnfftResult trnfftGetSize1d(trnfftHandle plan, int nx, trnfftType type, int batch,
                             size_t *workSize);
trnfftResult trnfftGetSize2d(trnfftHandle plan, int nx, int ny, trnfftType type, size_t *workSize);
trnfftResult trnfftGetSize3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type,
                             size_t *workSize);
trnfftResult trnfftGetSizeMany(trnfftHandle plan, int rank, int *n, int *inembed, int istride,
                               int idist, int *onembed, int ostride, int odist, trnfftType type,
                               int batch, size_t *workArea);
trnfftResult trnfftGetSizeMany64(trnfftHandle plan, int rank, long long int *n,
                                 long long int *inembed, long long int istride, long long int idist,
                                 long long int *onembed, long long int ostride, long long int odist,
                                 trnfftType type, long long int batch, size_t *workSize);

/* Sets the plan's work area: accepted for any live handle and any pointer
 * (NULL included), which is never read, written or kept, since the plan
 * needs 0 bytes; Exec* behave the same with or without it.
 * TRNFFT_INVALID_PLAN for a handle that is not live. */
trnfftResult trnfftSetWorkArea(trnfftHandle plan, void *workArea);

/* Whether MakePlan allocates the work area (cuFFT's default, 1) or leaves
 * it to the caller (0): accepted for a live handle, before or after
 * MakePlan, with no effect (there is nothing to allocate).
 * TRNFFT_INVALID_PLAN for a handle that is not live. */
trnfftResult trnfftSetAutoAllocation(trnfftHandle plan, int autoAllocate);

/* Releases the handle; the plan stays in the daemon's cache for the next
 * user. Transforms already queued complete. */
trnfftResult trnfftDestroy(trnfftHandle plan);

/* TRNFFT_VERSION. TRNFFT_INVALID_VALUE when version is NULL. */
trnfftResult trnfftGetVersion(int *version);

/* "TRNFFT_SUCCESS", ... and a sentence; for results not in the enum,
 * "TRNFFT_UNKNOWN". */
const char *trnfftGetStatusName(trnfftResult result);
const char *trnfftGetStatusString(trnfftResult result);

#ifdef __cplusplus
}
#endif

#endif
