/*
 * trnfftXt.h — cuFFT's extensible API (the cufftXt.h analog): plans of any
 * of the data types cufftXtMakePlanMany takes, run by trnfftXtExec.
 *
 * A plan is a batch of C2C, R2C or C2R transforms whose input and output
 * types are given as trnsciDataType values, with a complex execution type
 * of the same precision:
 *
 *   inputtype      outputtype     executiontype   transform
 *   TRNSCI_C_16F   TRNSCI_C_16F   TRNSCI_C_16F    C2C, half storage
 *   TRNSCI_R_16F   TRNSCI_C_16F   TRNSCI_C_16F    R2C, half storage
 *   TRNSCI_C_16F   TRNSCI_R_16F   TRNSCI_C_16F    C2R, half storage
 *   TRNSCI_C_16BF  TRNSCI_C_16BF  TRNSCI_C_16BF   C2C, bfloat16 storage
 *   TRNSCI_R_16BF  TRNSCI_C_16BF  TRNSCI_C_16BF   R2C, bfloat16 storage
 *   TRNSCI_C_16BF  TRNSCI_R_16BF  TRNSCI_C_16BF   C2R, bfloat16 storage
 *   TRNSCI_C_32F   TRNSCI_C_32F   TRNSCI_C_32F    C2C (TRNFFT_C2C)
 *   TRNSCI_R_32F   TRNSCI_C_32F   TRNSCI_C_32F    R2C (TRNFFT_R2C)
 *   TRNSCI_C_32F   TRNSCI_R_32F   TRNSCI_C_32F    C2R (TRNFFT_C2R)
 *   TRNSCI_C_64F   TRNSCI_C_64F   TRNSCI_C_64F    Z2Z
 *   TRNSCI_R_64F   TRNSCI_C_64F   TRNSCI_C_64F    D2Z
 *   TRNSCI_C_64F   TRNSCI_R_64F   TRNSCI_C_64F    Z2D
 *
 * Half (IEEE binary16: 11-bit significand, largest finite 65504) and
 * bfloat16 (8-bit significand, float's exponent range) values are stored as
 * 16-bit elements, complex ones as two of them, real part first. Their
 * transforms compute in float, as cuFFT's do: each transform's values are
 * converted to float (exactly), transformed with the float algorithm, and
 * rounded to the storage type on store (to nearest, ties to even; results
 * beyond the type's range become infinite). docs/numerics.md states the
 * error bound. Any size is allowed (cuFFT's half and bfloat16 transforms
 * take powers of two only). The float and double types are the plans
 * trnfftMakePlanMany makes, and trnfftExec* run them too.
 *
 * Layouts, semantics (unnormalised; Hermitian halves; in place when input
 * == output) and results are trnfft.h's; sizes, embeds, strides, distances
 * and the batch are 64-bit as in cufftXtMakePlanMany, each at most
 * 2^31 - 1. Deviations from cuFFT are listed in docs/rosetta.md.
 */
#ifndef TRNSCI_TRNFFTXT_H
#define TRNSCI_TRNFFTXT_H

#include <stddef.h>

#include <trnsci/library_types.h>
#include <trnsci/trnfft.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes a plan on a handle from trnfftCreate (cufftXtMakePlanMany): rank
 * 1..3 sizes n[] and the layout of trnfftMakePlanMany (inembed and onembed
 * both NULL: the basic layout), of the types in the table above.
 * *workSize (may be NULL) is set to 0: the plan needs no work area.
 * TRNFFT_INVALID_TYPE for a combination of types not in the table;
 * TRNFFT_INVALID_SIZE for a size or batch < 1 or > 2^31 - 1;
 * TRNFFT_INVALID_VALUE for a bad rank, embed, stride or distance;
 * TRNFFT_INVALID_PLAN for a handle that is not live or already has a plan;
 * TRNFFT_NOT_SUPPORTED for half or bfloat16 types on a daemon older than
 * protocol 1.12. */
trnfftResult trnfftXtMakePlanMany(trnfftHandle plan, int rank, long long int *n,
                                  long long int *inembed, long long int istride,
                                  long long int idist, trnsciDataType inputtype,
                                  long long int *onembed, long long int ostride,
                                  long long int odist, trnsciDataType outputtype,
                                  long long int batch, size_t *workSize,
                                  trnsciDataType executiontype);

/* The work area such a plan needs (cufftXtGetSizeMany), on a live handle:
 * *workSize = 0, after the checks trnfftXtMakePlanMany makes in the
 * caller's process. TRNFFT_INVALID_VALUE when workSize is NULL. */
trnfftResult trnfftXtGetSizeMany(trnfftHandle plan, int rank, long long int *n,
                                 long long int *inembed, long long int istride, long long int idist,
                                 trnsciDataType inputtype, long long int *onembed,
                                 long long int ostride, long long int odist,
                                 trnsciDataType outputtype, long long int batch, size_t *workSize,
                                 trnsciDataType executiontype);

/* Runs any plan (cufftXtExec), whatever its types or the call that made
 * it: output = FFT(input) on device memory, in place when input == output.
 * direction is TRNFFT_FORWARD or TRNFFT_INVERSE for C2C plans and ignored
 * for R2C (forward) and C2R (inverse) ones. Results, checks and
 * asynchrony are trnfftExec*'s: TRNFFT_INVALID_PLAN for a handle without a
 * plan, TRNFFT_INVALID_VALUE for a bad direction or a pointer that is not
 * device memory of this process or too small for the plan's layout. */
trnfftResult trnfftXtExec(trnfftHandle plan, void *input, void *output, int direction);

#ifdef __cplusplus
}
#endif

#endif
