/*
 * lowprec.h — rounding FP32 values to the narrower formats a Tensor Engine
 * multiplies (docs/numerics.md, "Precision modes"): bfloat16 (8-bit
 * significand, FP32's exponent range), TF32 (11-bit significand, FP32's
 * range) and IEEE binary16. Results are returned as the FP32 value of the
 * rounded number, which is what an FP32 GEMM then multiplies: the product of
 * two bfloat16 values (16 significant bits) is exact in FP32, so an FP32
 * GEMM of rounded inputs is the Tensor Engine's bf16-in / FP32-accumulate
 * computation.
 *
 * Round to nearest, ties to even, or stochastically: up with probability
 * equal to the distance from the value below, in units of the gap, from a
 * random word the caller supplies (stochastic_bits). Infinities pass
 * through, NaNs stay NaN, and a value that rounds past the largest finite
 * number becomes infinite (as the hardware conversions do). Internal to
 * kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_LOWPREC_H
#define TRN_KERNELS_CPU_LOWPREC_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <Random123/philox.h>

static inline uint32_t lp_bits(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}

static inline float lp_float(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* Keeps the top 32 - drop bits of x's encoding, rounding the dropped ones
 * to nearest, ties to even (a carry into the exponent is the right answer,
 * up to infinity). */
static inline float lp_round_rne(float x, unsigned drop) {
    uint32_t u = lp_bits(x);
    const uint32_t mask = (UINT32_C(1) << drop) - 1;
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it quiet and a NaN */
        return lp_float((u | 0x00400000u) & ~mask);
    u += (mask >> 1) + ((u >> drop) & 1u);
    return lp_float(u & ~mask);
}

/* The same with stochastic rounding: adds `rnd`'s low drop bits before
 * truncating, so x rounds away from zero with probability (|x| - |down|) /
 * gap, where down is x truncated. */
static inline float lp_round_sr(float x, unsigned drop, uint32_t rnd) {
    uint32_t u = lp_bits(x);
    const uint32_t mask = (UINT32_C(1) << drop) - 1;
    if ((u & 0x7fffffffu) >= 0x7f800000u) /* Inf stays, NaN stays a quiet NaN */
        return (u & 0x7fffffffu) == 0x7f800000u ? x : lp_float((u | 0x00400000u) & ~mask);
    u += rnd & mask;
    return lp_float(u & ~mask);
}

/* bfloat16 keeps 16 bits of the encoding, TF32 19 (1 + 8 + 10). */
#define LP_BF16_DROP 16u
#define LP_TF32_DROP 13u

static inline float lp_bf16(float x) {
    return lp_round_rne(x, LP_BF16_DROP);
}

/* IEEE binary16: 11-bit significand and exponents -14..15 (subnormals below
 * 2^-14, infinity from 65520 up), round to nearest even. In the normal range
 * this is TF32's rounding (both keep 10 fraction bits); a result past 65504
 * (the largest binary16) is infinite, and below 2^-14 the quantum is the
 * fixed 2^-24 of binary16's subnormals (x * 2^24 is exact and nearbyintf
 * rounds it to nearest even). Bit operations rather than a conversion to
 * _Float16, which without F16C instructions is a slow library call. */
static inline float lp_fp16(float x) {
    const float ax = x < 0 ? -x : x;
    if (!(ax >= 0x1p-14f)) /* subnormal, zero or NaN */
        return ax != ax ? x : nearbyintf(x * 0x1p24f) * 0x1p-24f;
    const float r = lp_round_rne(x, LP_TF32_DROP);
    if (r > 65504.0f || r < -65504.0f)
        return r > 0 ? __builtin_inff() : -__builtin_inff();
    return r;
}

/* Random words for stochastic rounding: word `index` of the Philox4x32-10
 * stream of key `seed` with counter words 2 and 3 set to `batch` and `tag`
 * (which operand: docs/numerics.md, "Stochastic rounding"). Fills out[0..n)
 * with the words index0 .. index0 + n - 1. */
static inline void lp_random_words(uint64_t seed, uint32_t batch, uint32_t tag, uint64_t index0,
                                   size_t n, uint32_t *out) {
    const philox4x32_key_t key = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    size_t i = 0;
    while (i < n) {
        const uint64_t idx = index0 + i, block = idx / 4;
        const philox4x32_ctr_t ctr = {{(uint32_t)block, (uint32_t)(block >> 32), batch, tag}};
        const philox4x32_ctr_t r = philox4x32_R(10, ctr, key);
        for (unsigned w = (unsigned)(idx % 4); w < 4 && i < n; w++, i++)
            out[i] = r.v[w];
    }
}

#endif
