/*
 * trn_fp16.h — 16-bit floating-point storage types for host code: IEEE
 * binary16 ("half") and bfloat16, with exact widening to float and rounding
 * from float to nearest, ties to even. The counterpart of CUDA's
 * cuda_fp16.h and cuda_bf16.h for what host code does with them: hold the
 * 16-bit elements trnblasHgemm, trnblasGemmEx and trnfftXt read and write,
 * and convert them.
 *
 * Names. Host code written against cuda_fp16.h / cuda_bf16.h ports by the
 * renames of docs/rosetta.md, which replace the header name and leave
 * these names alone, so the CUDA spellings are provided as they are:
 * __half, __nv_bfloat16, __float2half, __float2half_rn, __half2float,
 * __float2bfloat16, __float2bfloat16_rn, __bfloat162float. The trnsci
 * names (trnsciHalf, trnsciBfloat16, trnsciFloatToHalf, ...) are the same
 * types and functions; define TRNSCI_NO_CUDA_FP16_NAMES before including
 * this header to get only those (the CUDA names begin with two
 * underscores, which C and C++ reserve for the implementation).
 *
 * Differences from CUDA: the types are plain structs holding the encoding
 * in `x` (CUDA's __half_raw layout): no arithmetic operators, no half2 or
 * device intrinsics. In C, a value built with a brace initialiser,
 * {0x3c00}, is 1.0 in half; in C++ the CUDA names are classes that convert
 * values to and from float (below), so there {1.0f} is 1.0. Conversions are host functions and
 * never depend on the floating-point environment.
 *
 * Rounding (float → 16 bits): to nearest, ties to even, with subnormal
 * results (half below 2^-14 in steps of 2^-24; bfloat16 as float's),
 * overflow to infinity (half: |x| >= 65520, the midpoint between 65504 and
 * 2^16; bfloat16: past the largest bfloat16 by half a step), signed zeros
 * and infinities kept, and a NaN giving a quiet NaN of the same sign that
 * keeps the leading payload bits that fit. Widening (16 bits → float) is
 * exact, payloads included.
 */
#ifndef TRNSCI_TRN_FP16_H
#define TRNSCI_TRN_FP16_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* IEEE 754 binary16: 1 sign bit, 5 exponent bits, 10 fraction bits. */
typedef struct trnsciHalf {
    uint16_t x;
} trnsciHalf;

/* bfloat16: the top 16 bits of a float (1 + 8 + 7). */
typedef struct trnsciBfloat16 {
    uint16_t x;
} trnsciBfloat16;

static inline uint32_t trnsci_fp16_float_bits_(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static inline float trnsci_fp16_bits_float_(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* half → float, exact. */
static inline float trnsciHalfToFloat(trnsciHalf h) {
    const uint32_t sign = (uint32_t)(h.x & 0x8000u) << 16;
    const uint32_t e = (uint32_t)(h.x >> 10) & 0x1fu, m = h.x & 0x3ffu;
    if (e == 0) { /* zero or subnormal: m * 2^-24, exact in float */
        const float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    if (e == 31) /* infinity or NaN, payload kept */
        return trnsci_fp16_bits_float_(sign | 0x7f800000u | (m << 13));
    return trnsci_fp16_bits_float_(sign | ((e + 112u) << 23) | (m << 13)); /* rebias 15 → 127 */
}

/* float → half, rounded to nearest, ties to even. */
static inline trnsciHalf trnsciFloatToHalf(float f) {
    const uint32_t u = trnsci_fp16_float_bits_(f);
    const uint32_t sign = (u >> 16) & 0x8000u, ax = u & 0x7fffffffu;
    trnsciHalf h;
    if (ax > 0x7f800000u) { /* NaN: quiet, leading payload bits kept */
        h.x = (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    } else if (ax >= 0x477ff000u) { /* from 65520 (and infinity): infinity */
        h.x = (uint16_t)(sign | 0x7c00u);
    } else if (ax >= 0x38800000u) { /* normal: drop 13 bits, rebias 127 → 15 */
        uint32_t r = ax - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u); /* a carry into the exponent is right */
        h.x = (uint16_t)(sign | (r >> 13));
    } else if (ax > 0x33000000u) { /* (2^-25, 2^-14): multiples of 2^-24 */
        const uint32_t e = ax >> 23, mant = (ax & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126u - e; /* |x| * 2^24 = mant * 2^(e - 126); 14 <= shift <= 24 */
        const uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1u);
        h.x = (uint16_t)(sign | (q + (rem > halfway || (rem == halfway && (q & 1u)))));
    } else { /* up to 2^-25 (a tie, to the even 0): zero */
        h.x = (uint16_t)sign;
    }
    return h;
}

/* bfloat16 → float, exact. */
static inline float trnsciBfloat16ToFloat(trnsciBfloat16 b) {
    return trnsci_fp16_bits_float_((uint32_t)b.x << 16);
}

/* float → bfloat16, rounded to nearest, ties to even (float's subnormals
 * round as its normals do: the encoding is monotonic in the magnitude). */
static inline trnsciBfloat16 trnsciFloatToBfloat16(float f) {
    const uint32_t u = trnsci_fp16_float_bits_(f);
    trnsciBfloat16 b;
    if ((u & 0x7fffffffu) > 0x7f800000u)
        b.x = (uint16_t)((u >> 16) | 0x40u); /* NaN: quiet, leading payload bits kept */
    else
        b.x = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    return b;
}

#ifndef TRNSCI_NO_CUDA_FP16_NAMES
/* cuda_fp16.h / cuda_bf16.h names (see the top of this file). */
#ifdef __cplusplus
} /* the classes below are C++ */

/* In C++, __half and __nv_bfloat16 are classes derived from trnsciHalf and
 * trnsciBfloat16 (the same 2 bytes; a pointer to one converts to a pointer
 * to the trnsci type), which convert from float, double (through float)
 * and int, rounding to nearest even, and to float, exactly, as CUDA's
 * host-side classes do: `__half v[] = {1.0f, 2.0f};` holds 1 and 2 and
 * static_cast<float>(v[0]) is 1.0f. So a brace initialiser converts the
 * value in C++ ({1} is 1.0), as in CUDA, and sets the encoding in C. */
struct __half : trnsciHalf {
    __half() = default;
    __half(trnsciHalf h) : trnsciHalf(h) {}
    __half(float f) : trnsciHalf(trnsciFloatToHalf(f)) {}
    __half(double f) : trnsciHalf(trnsciFloatToHalf((float)f)) {}
    __half(int i) : trnsciHalf(trnsciFloatToHalf((float)i)) {}
    operator float() const { return trnsciHalfToFloat(*this); }
};

struct __nv_bfloat16 : trnsciBfloat16 {
    __nv_bfloat16() = default;
    __nv_bfloat16(trnsciBfloat16 b) : trnsciBfloat16(b) {}
    __nv_bfloat16(float f) : trnsciBfloat16(trnsciFloatToBfloat16(f)) {}
    __nv_bfloat16(double f) : trnsciBfloat16(trnsciFloatToBfloat16((float)f)) {}
    __nv_bfloat16(int i) : trnsciBfloat16(trnsciFloatToBfloat16((float)i)) {}
    operator float() const { return trnsciBfloat16ToFloat(*this); }
};
#else
typedef trnsciHalf __half;
typedef trnsciBfloat16 __nv_bfloat16;
#endif

static inline __half __float2half(float f) {
    return trnsciFloatToHalf(f);
}
static inline __half __float2half_rn(float f) {
    return trnsciFloatToHalf(f);
}
static inline float __half2float(__half h) {
    return trnsciHalfToFloat(h);
}
static inline __nv_bfloat16 __float2bfloat16(float f) {
    return trnsciFloatToBfloat16(f);
}
static inline __nv_bfloat16 __float2bfloat16_rn(float f) {
    return trnsciFloatToBfloat16(f);
}
static inline float __bfloat162float(__nv_bfloat16 b) {
    return trnsciBfloat16ToFloat(b);
}
#ifdef __cplusplus
extern "C" {
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif
