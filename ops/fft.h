/*
 * fft.h — trnfft: transform types, a plan's shape and its variants, and
 * the descriptor of a batch of transforms.
 */
#ifndef TRN_OPS_FFT_H
#define TRN_OPS_FFT_H

#include "ops/types.h"

/* FFT types: cuFFT's six, then the half (IEEE binary16) and bfloat16
 * storage of cufftXtMakePlanMany, computed in float. */
typedef enum trn_fft_type {
    TRN_FFT_C2C = 1,
    TRN_FFT_R2C = 2,
    TRN_FFT_C2R = 3,
    TRN_FFT_Z2Z = 4,
    TRN_FFT_D2Z = 5,
    TRN_FFT_Z2D = 6,
    TRN_FFT_C2C_16F = 7,
    TRN_FFT_R2C_16F = 8,
    TRN_FFT_C2R_16F = 9,
    TRN_FFT_C2C_16BF = 10,
    TRN_FFT_R2C_16BF = 11,
    TRN_FFT_C2R_16BF = 12,
} trn_fft_type;
#define TRN_FFT_TYPE_LAST TRN_FFT_C2R_16BF

#define TRN_FFT_MAX_RANK 3
/* Pointer and distance alignment (bytes) of the "aligned" plan variants:
 * the SIMD alignment FFTW checks with fftw_alignment_of. */
#define TRN_FFT_ALIGN 16

/* What an FFT plan is prepared for: one transform of rank sizes n with its
 * layout (ops/fft_shape.h). Batch and distances are not part of it: a
 * batch runs as repeated single transforms, so every batch size shares one
 * plan and any split of a batch over cores gives the same bits. All values
 * are validated to fit in int. */
typedef struct trn_fft_shape {
    trn_fft_type type;
    int rank;
    int n[TRN_FFT_MAX_RANK];
    int basic; /* the basic layout: embeds are the logical sizes, strides 1 */
    int inembed[TRN_FFT_MAX_RANK], istride;
    int onembed[TRN_FFT_MAX_RANK], ostride;
} trn_fft_shape;

/* Planning effort (FFTW's estimate / measure / patient). */
typedef enum trn_plan_effort {
    TRN_PLAN_ESTIMATE = 0,
    TRN_PLAN_MEASURE = 1,
    TRN_PLAN_PATIENT = 2,
} trn_plan_effort;

/* Variants of an FFT plan: one FFTW plan each, prepared when first needed.
 * Bits: inverse (C2R/Z2D always), in place, unaligned (a pointer or a
 * distance not a multiple of TRN_FFT_ALIGN bytes). */
#define TRN_FFT_VARIANT_INVERSE 1u
#define TRN_FFT_VARIANT_INPLACE 2u
#define TRN_FFT_VARIANT_UNALIGNED 4u
#define TRN_FFT_VARIANTS 8u

/* batch transforms of plan's shape: transform b reads in + b*idist and
 * writes out + b*odist (distances in elements of the input's and the
 * output's type). plan is the backend's prepared plan, held by the op. */
typedef struct trn_fft_desc {
    void *plan;
    trn_fft_type type;
    unsigned variant; /* TRN_FFT_VARIANT_* bits */
    const void *in;
    void *out;
    size_t batch;
    size_t idist, odist;
    double points; /* elements of one transform (product of n), for the cost */
    /* A step of one large transform run on every core (ops/fft_step.h),
     * never on the wire: 0 (TRN_FFTSTEP_NONE) for an ordinary batch. The
     * step sees its data as a rows x cols row-major matrix; block is its
     * tile (columns, or slabs, per task). */
    int fftstep_kind;
    int fftstep_rows, fftstep_cols, fftstep_block;
} trn_fft_desc;

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_FFT_KINDS(X) X(FFT, 32, FFT_EXEC, fft, fft, "fft", "fft", "fft", CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field). */
#define TRN_FFT_DESCS(X) X(trn_fft_desc, fft)

#endif
