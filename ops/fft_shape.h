/*
 * fft_shape.h — the layout rules of an FFT plan, in one place.
 *
 * cuFFT's layout (cufftPlanMany): element x of transform b on a side is at
 * b*dist + stride*(x[0]*embed[1]*..*embed[rank-1] + .. + x[rank-1]). The
 * validator uses these rules to bound a transform's extent in memory, the
 * backend to plan the same layout, and the plan cache to name plans (a plan
 * key is the text trn_plan_spec_format writes, and a persisted cache is a
 * list of such keys).
 *
 * Invariant: a trn_fft_shape passed here has been through
 * trn_fft_shape_check (every size, embed and stride positive and each
 * side's span of one transform below 2^62 elements).
 */
#ifndef TRN_KERNELS_FFT_SHAPE_H
#define TRN_KERNELS_FFT_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/op.h"

/* One side (input or output) of one transform. */
typedef struct trn_fft_side {
    int rank;
    int n[TRN_FFT_MAX_RANK];     /* logical sizes on this side (Hermitian-halved if complex) */
    int embed[TRN_FFT_MAX_RANK]; /* storage sizes; embed[0] unused */
    int stride;
    int cplx; /* elements are complex (not "complex": <complex.h> defines it) */
    int dbl;  /* double precision */
    int half; /* TRN_FFT_HALF_* storage (computed in float) */
} trn_fft_side;

/* 16-bit storage of the half and bfloat16 types. */
#define TRN_FFT_HALF_NONE 0
#define TRN_FFT_HALF_16F 1  /* IEEE binary16 */
#define TRN_FFT_HALF_16BF 2 /* bfloat16 */

/* Whether type is double precision / has complex input / complex output /
 * is complex-to-complex / is C2R-like (inverse only); its 16-bit storage
 * (TRN_FFT_HALF_*). */
int trn_fft_type_double(trn_fft_type t);
int trn_fft_in_complex(trn_fft_type t);
int trn_fft_out_complex(trn_fft_type t);
int trn_fft_type_c2c(trn_fft_type t);
int trn_fft_type_c2r(trn_fft_type t);
int trn_fft_type_half(trn_fft_type t);
/* Bytes of one element of a side. */
size_t trn_fft_elem_size(const trn_fft_side *side);
/* "c2c", "r2c", ... (NULL for an unknown value). */
const char *trn_fft_type_name(trn_fft_type t);

/* The two sides of shape when executed in place or not: the basic layout
 * of an in-place real transform pads real rows to 2*(n/2+1) elements. */
void trn_fft_sides(const trn_fft_shape *shape, int inplace, trn_fft_side *in, trn_fft_side *out);

/* Elements one transform spans on a side: 1 + the offset of its last
 * element. */
uint64_t trn_fft_span(const trn_fft_side *side);
/* Elements of the side's embedded block (product of embed[], embed[0]
 * included): the basic layout's distance between transforms. */
uint64_t trn_fft_block(const trn_fft_side *side);
/* Points of one transform: the product of the logical sizes. */
double trn_fft_points(const trn_fft_shape *shape);

/* Checks a shape built from a client's numbers (sizes >= 1, embeds >= the
 * logical sizes on their side, strides >= 1, spans below 2^62 elements).
 * Returns 0, or -1 with err naming the value. */
int trn_fft_shape_check(const trn_fft_shape *shape, char *err, size_t errlen);

/* The plan key of spec: "fft c2c 1024x1024 basic measure",
 * "fft r2c 64 in=64:2 out=40:1 estimate", ...; tensor contractions'
 * keys come from ops/tensor_plan.h ("tensor contract ..."). Returns the length written
 * (truncated like snprintf). */
int trn_plan_spec_format(const trn_plan_spec *spec, char *buf, size_t len);
/* Parses a key written by trn_plan_spec_format and checks the shape.
 * Returns 0, or -1 with err saying what is wrong. */
int trn_plan_spec_parse(const char *key, trn_plan_spec *spec, char *err, size_t errlen);

const char *trn_plan_effort_name(trn_plan_effort e);
/* Parses "estimate", "measure", "patient"; -1 for anything else. */
int trn_plan_effort_parse(const char *s);

#endif
