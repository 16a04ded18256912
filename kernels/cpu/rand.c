/*
 * rand.c — trnrand on the CPU backend: the Philox4x32-10 stream of
 * ops/op.h and its distributions (docs/numerics.md, "trnrand streams",
 * is the normative definition; this file implements it).
 *
 * The stream. Raw word j (0 <= j < 2^64, indices taken modulo 2^64) of the
 * stream of seed s is element j mod 4 of
 *     philox4x32_10(counter {lo32(j/4), hi32(j/4), 0, 0}, key {lo32(s), hi32(s)})
 * computed with Random123's philox4x32_R(10, ...). Element i of the output
 * consumes words offset + w*i .. offset + w*i + w - 1, w =
 * trn_rand_words_per_element(dist). One Philox call gives four consecutive
 * words; the kernel makes one call per block of four words it touches in a
 * chunk of RAND_CHUNK_WORDS words (the first and last block of a chunk may be
 * used in part, so an offset that is not a multiple of 4 costs one extra call
 * per chunk).
 *
 * Distributions (u32f, u64f and the Box-Muller pair are the only formulas):
 *   U32           out[i] = word(offset + i)
 *   UNIFORM_F32   out[i] = u32f(word(offset + i)), where in float arithmetic
 *                 u32f(x) = (float)x * 0x1p-32f + 0x1p-33f, in [2^-33, 1]
 *                 (cuRAND's x * CURAND_2POW32_INV + CURAND_2POW32_INV/2)
 *   UNIFORM_F64   out[i] = u64f(word(offset + 2i), word(offset + 2i + 1)),
 *                 where z = lo ^ ((uint64_t)hi << 21) (< 2^53) and in double
 *                 arithmetic u64f(lo, hi) = (double)z * 0x1p-53 + 0x1p-54, in
 *                 [2^-54, 1] (cuRAND's _curand_uniform_double_hq)
 *   NORMAL_*      pair m = elements 2m, 2m+1: u1, u2 = u32f of words 2m, 2m+1
 *                 (F32) or u64f of words 4m, 4m+1 and 4m+2, 4m+3 (F64), taken
 *                 as doubles; in double arithmetic r = sqrt(-2 log u1),
 *                 t = TWO_PI * u2, z0 = r cos t, z1 = r sin t, and
 *                 out[2m + e] = mean + stddev * z_e, rounded once to the
 *                 output type
 *   LOGNORMAL_*   out[2m + e] = exp(mean + stddev * z_e) in double, rounded
 *                 once to the output type
 *   EXPONENTIAL_F32  out[i] = (0 - log(u32f(word(offset + i)))) / lambda in
 *                 double, rounded once to float (0 - ... keeps u = 1 at +0)
 *   EXPONENTIAL_F64  out[i] = (0 - log(u)) / lambda, u = UNIFORM_F64's
 *                 element i
 *   POISSON       out[i] = k0 + (smallest j with cdf[j] >= u), u = u64f of
 *                 words 2i, 2i+1 (UNIFORM_F64's element i), cdf the table of
 *                 rand_poisson_table: the Poisson(lambda) CDF on [k0, k1]
 *                 from the pmf recurrence, normalised (see there)
 *   GAMMA_*, BETA_*, TRUNCNORMAL_*, LHS_*  rand_ext.c
 * (word numbers relative to the op's first word, offset). The daemon only
 * sends even n for the normal kinds; for an odd n the kernel still computes
 * the last pair and stores only its z0.
 *
 * Other word streams. XORWOW, MRG32k3a, MT19937 and MTGP32 ops (d->gen) use
 * the same element formulas on their own raw words (rand_seq.h,
 * docs/numerics.md), produced by a rand_src that each shard positions once
 * at its first word (skip-ahead, MT19937's block start, or stepping each of
 * MTGP32's interleaved states to its first word there) and then steps; the
 * Philox-only extensions are refused (TRN_KSTATUS_UNSUPPORTED) for them.
 *
 * Sharding. The n elements are cut into ceil(n/2) pairs and the pairs shared
 * out with trn_cpu_shard_range, so shard boundaries are even element indices
 * and a Box-Muller pair never straddles two shards. Since every element is a
 * function of (seed, its own word index, mean, stddev) only, computed by the
 * same code whatever shard or chunk it falls in, the output is bitwise the
 * same for any nshards and for any split of a request into calls that
 * advance offset by w per element.
 *
 * Floating point: the conversions u32f and u64f are exact products by powers
 * of two plus one rounding, so they do not depend on FMA contraction. The
 * Box-Muller arithmetic is done in double with FLT_EVAL_METHOD == 0 (checked
 * below) and the project's ISO C mode (GCC: -ffp-contract=off), through one
 * call site per distribution, so every element of a process sees the same
 * operations. log, cos, sin and exp come from the C library: the results of
 * the normal kinds are reproducible for a given libm, not across libms. The
 * Poisson table uses only +, *, / and floor (correctly rounded), so Poisson
 * output is the same on every IEEE-754 machine.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <Random123/philox.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/rand_ext.h"
#include "kernels/cpu/rand_seq.h"
#include "kernels/cpu/sobol.h"

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "rand.c needs FLT_EVAL_METHOD == 0 (float and double evaluated in their own type)"
#endif

/* 2*pi rounded to double (0x1.921fb54442d18p+2). */
#define RAND_TWO_PI 6.283185307179586476925286766559

/* Words generated per chunk into a stack buffer: a multiple of 4 (whole
 * Philox blocks), and CHUNK/w is even for w = 1, 2 so chunks hold whole
 * pairs. 4 KiB stays in L1. */
#define RAND_CHUNK_WORDS 1024

static philox4x32_key_t rand_key(uint64_t seed) {
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    return k;
}

/* The four words of block b = j/4: counter {lo32(b), hi32(b), 0, 0}. */
static philox4x32_ctr_t rand_block(philox4x32_key_t key, uint64_t block) {
    philox4x32_ctr_t c = {{(uint32_t)block, (uint32_t)(block >> 32), 0, 0}};
    return philox4x32_R(10, c, key);
}

/* Words first .. first + count - 1 (modulo 2^64) of the stream into out: one
 * Philox call per block of four, the first and last block used in part when
 * first or first + count is not a multiple of 4. */
static void rand_words(philox4x32_key_t key, uint64_t first, size_t count, uint32_t *out) {
    uint64_t j = first;
    size_t done = 0;
    unsigned lane = (unsigned)(j & 3u);
    if (lane != 0 && count > 0) {
        const philox4x32_ctr_t r = rand_block(key, j >> 2);
        while (lane < 4 && done < count)
            out[done++] = r.v[lane++];
        j += done;
    }
    while (count - done >= 4) {
        const philox4x32_ctr_t r = rand_block(key, j >> 2);
        out[done] = r.v[0];
        out[done + 1] = r.v[1];
        out[done + 2] = r.v[2];
        out[done + 3] = r.v[3];
        done += 4;
        j += 4;
    }
    if (done < count) {
        const philox4x32_ctr_t r = rand_block(key, j >> 2);
        for (unsigned l = 0; done < count; l++)
            out[done++] = r.v[l];
    }
}

/* The word source of an op: Philox computes any word from its index; the
 * sequential generators (XORWOW) keep a state positioned at word pos and
 * reach another word by skip-ahead (rand_seq.c). A shard's chunks are
 * contiguous, so it skips once, to its first word, and then steps. */
typedef struct rand_src {
    trn_rand_gen gen;
    uint64_t seed;
    philox4x32_key_t key; /* Philox */
    int positioned;       /* sequential: the state is at word pos */
    uint64_t pos;
    trn_xorwow xw;
    trn_mrg32k3a mrg;
    trn_mt19937 mt; /* 2.5 KB: rand_src lives on the worker's stack */
    /* MTGP32: mtgp_states generators (malloc'd by trn_cpu_rand, ~420 KB),
     * each seeded when first used (mtgp_live) and then only stepped. */
    trn_mtgp32 *mtgp;
    unsigned mtgp_states;
    uint8_t mtgp_live[TRN_RAND_MTGP_STATES_DEFAULT];
} rand_src;

static void rand_src_init(rand_src *s, const trn_rand_desc *d) {
    s->gen = d->gen;
    s->seed = d->seed;
    s->key = rand_key(d->seed);
    s->positioned = 0;
    s->pos = 0;
    s->mtgp = NULL;
    s->mtgp_states = d->mtgp_states;
}

/* MTGP32 words first .. first + count - 1 in cuRAND's layout (rand_seq.h):
 * runs of 256 consecutive outputs of one state, the states in turn. Within
 * one call and across calls with growing first, each state's outputs are
 * needed in increasing order, so a state only ever steps forward. */
static void rand_mtgp_words(rand_src *s, uint64_t first, size_t count, uint32_t *out) {
    const uint64_t nb = s->mtgp_states, round = TRN_MTGP_RUN * nb;
    if (!s->positioned || first < s->pos)
        memset(s->mtgp_live, 0, sizeof(s->mtgp_live));
    size_t done = 0;
    while (done < count) {
        const uint64_t j = first + done;
        const unsigned b = (unsigned)((j / TRN_MTGP_RUN) % nb);
        const uint64_t k = TRN_MTGP_RUN * (j / round) + j % TRN_MTGP_RUN;
        size_t run = (size_t)(TRN_MTGP_RUN - j % TRN_MTGP_RUN);
        if (run > count - done)
            run = count - done;
        trn_mtgp32 *st = &s->mtgp[b];
        if (!s->mtgp_live[b]) {
            trn_mtgp32_init(st, b, trn_mtgp32_state_seed(s->seed, b));
            s->mtgp_live[b] = 1;
        }
        trn_mtgp32_skip(st, k - st->k);
        for (size_t i = 0; i < run; i++)
            out[done + i] = trn_mtgp32_next(st);
        done += run;
    }
}

/* Words first .. first + count - 1 of the op's stream into out. */
static void rand_src_words(rand_src *s, uint64_t first, size_t count, uint32_t *out) {
    if (s->gen == TRN_RAND_PHILOX) {
        rand_words(s->key, first, count, out);
        return;
    }
    if (s->gen == TRN_RAND_MTGP32) {
        rand_mtgp_words(s, first, count, out);
        s->positioned = 1;
        s->pos = first + count;
        return;
    }
    /* Word j is the output of step j + 1 from the seeded state. */
    const int restart = !s->positioned || first < s->pos;
    const uint64_t skip = restart ? first : first - s->pos;
    if (s->gen == TRN_RAND_XORWOW) {
        if (restart)
            trn_xorwow_seed(&s->xw, s->seed);
        trn_xorwow_skip(&s->xw, skip);
        for (size_t k = 0; k < count; k++)
            out[k] = trn_xorwow_next(&s->xw);
    } else if (s->gen == TRN_RAND_MT19937) {
        /* Blocks of 2^16 words, each its own init_by_array generator: start
         * at the block of first unless the state is already in it. */
        uint64_t j = first;
        if (restart || (first >> TRN_MT_BLOCK_BITS) != (s->pos >> TRN_MT_BLOCK_BITS) ||
            (s->pos & (TRN_MT_BLOCK_WORDS - 1)) == 0) {
            trn_mt19937_block(&s->mt, s->seed, first >> TRN_MT_BLOCK_BITS);
            for (uint64_t k = first & ~(TRN_MT_BLOCK_WORDS - 1); k < first; k++)
                (void)trn_mt19937_next(&s->mt);
        } else {
            for (uint64_t k = s->pos; k < first; k++)
                (void)trn_mt19937_next(&s->mt);
        }
        for (size_t k = 0; k < count; k++, j++) {
            if (k > 0 && (j & (TRN_MT_BLOCK_WORDS - 1)) == 0)
                trn_mt19937_block(&s->mt, s->seed, j >> TRN_MT_BLOCK_BITS);
            out[k] = trn_mt19937_next(&s->mt);
        }
    } else {
        if (restart)
            trn_mrg32k3a_seed(&s->mrg, s->seed);
        trn_mrg32k3a_skip(&s->mrg, skip);
        for (size_t k = 0; k < count; k++)
            out[k] = trn_mrg32k3a_word(trn_mrg32k3a_next(&s->mrg));
    }
    s->positioned = 1;
    s->pos = first + count;
}

/* (0, 1] from one word: x*2^-32 + 2^-33 in float. (float)x rounds to
 * nearest; the product is exact; the sum rounds once. Smallest 2^-33 (x = 0);
 * x >= 2^32 - 128 round to 2^32 and give exactly 1. */
static float rand_u32f(uint32_t x) {
    return (float)x * 0x1p-32f + 0x1p-33f;
}

/* (0, 1] from two words: z = lo ^ (hi << 21) is uniform on [0, 2^53) and
 * exact in double; z*2^-53 is exact and adding 2^-54 rounds once. Smallest
 * 2^-54 (z = 0); z = 2^53 - 1 rounds (to even) to exactly 1. */
static double rand_u64f(uint32_t lo, uint32_t hi) {
    const uint64_t z = (uint64_t)lo ^ ((uint64_t)hi << 21);
    return (double)z * 0x1p-53 + 0x1p-54;
}

/* ---- Poisson by inversion --------------------------------------------------
 *
 * The table of one lambda (0 < lambda <= TRN_RAND_POISSON_LAMBDA_MAX), in
 * double arithmetic, relative weights w(k) = pmf(k) / pmf(m) around the mode
 * m = floor(lambda):
 *     w(m) = 1
 *     w(k - 1) = w(k) * (k / lambda)          for k = m, m - 1, ..., k0 + 1
 *     w(k + 1) = w(k) * (lambda / (k + 1))    for k = m, m + 1, ..., k1 - 1
 * (each bracket one rounded division, then one rounded product). The walk
 * down stops at k0 = 0 or at the last k whose w(k - 1) would be below
 * RAND_POISSON_TAIL, the walk up at the last k1 whose w(k1 + 1) would be
 * below it. Then s_j = w(k0) + ... + w(k0 + j) summed in that order and
 * cdf[j] = s_j / s_last, so cdf is non-decreasing and its last entry is
 * exactly 1: every u in (0, 1] finds an index. No exp, log or lgamma is
 * involved; the normalisation replaces pmf(m). The table depends on lambda
 * only, so every shard builds the same one. */

/* Weights below this (relative to the mode's) are left out: far below the
 * 2^-54 grid of u, see docs/numerics.md for the mass that is cut. */
#define RAND_POISSON_TAIL 0x1p-80

typedef struct rand_poisson {
    uint32_t k0; /* value of cdf[0] */
    size_t len;  /* entries: k0 .. k0 + len - 1 */
    double *cdf; /* malloc'd */
} rand_poisson;

/* One walk of the recurrence from the mode: steps down (dir < 0) or up,
 * storing w into out[m - k] or out[k - m] when out is not NULL. Returns the
 * number of steps taken. */
static size_t rand_poisson_walk(double lambda, uint32_t m, int dir, double *out) {
    double w = 1.0;
    size_t steps = 0;
    uint64_t k = m;
    for (;;) {
        double v;
        if (dir < 0) {
            if (k == 0)
                break;
            v = w * ((double)k / lambda);
        } else {
            v = w * (lambda / (double)(k + 1));
        }
        if (v < RAND_POISSON_TAIL)
            break;
        w = v;
        k = dir < 0 ? k - 1 : k + 1;
        steps++;
        if (out)
            out[steps] = w;
    }
    return steps;
}

/* Builds the table of lambda. Returns 0, or -1 when out of memory (with
 * *bytes what it asked for). */
static int rand_poisson_table(double lambda, rand_poisson *t, size_t *bytes) {
    const uint32_t m = (uint32_t)floor(lambda);
    const size_t down = rand_poisson_walk(lambda, m, -1, NULL);
    const size_t up = rand_poisson_walk(lambda, m, 1, NULL);
    const size_t len = down + 1 + up;
    double *lo = malloc((down + 1) * sizeof(double)), *cdf = malloc(len * sizeof(double));
    if (!lo || !cdf) {
        free(lo);
        free(cdf);
        *bytes = (down + 1 + len) * sizeof(double);
        return -1;
    }
    /* lo[d] = w(m - d); cdf[down + d] = w(m + d) for now. */
    lo[0] = 1.0;
    rand_poisson_walk(lambda, m, -1, lo);
    cdf[down] = 1.0;
    rand_poisson_walk(lambda, m, 1, cdf + down);
    for (size_t d = 1; d <= down; d++)
        cdf[down - d] = lo[d];
    free(lo);
    double s = 0.0;
    for (size_t j = 0; j < len; j++) {
        s += cdf[j];
        cdf[j] = s;
    }
    for (size_t j = 0; j < len; j++)
        cdf[j] /= s;
    t->k0 = m - (uint32_t)down;
    t->len = len;
    t->cdf = cdf;
    return 0;
}

/* The smallest k0 + j with cdf[j] >= u (cdf[len - 1] = 1 >= u). */
static uint32_t rand_poisson_invert(const rand_poisson *t, double u) {
    size_t lo = 0, hi = t->len - 1;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (t->cdf[mid] >= u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return t->k0 + (uint32_t)lo;
}

static int rand_is_f32(trn_rand_dist d) {
    return d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_LOGNORMAL_F32;
}

static int rand_is_log(trn_rand_dist d) {
    return d == TRN_RAND_LOGNORMAL_F32 || d == TRN_RAND_LOGNORMAL_F64;
}

/* Elements i .. i + cnt - 1 (i even) of a normal or log-normal op from their
 * words in buf (w*cnt words, rounded up to a whole pair). */
static void rand_normal_chunk(const trn_rand_desc *d, const uint32_t *buf, size_t i, size_t cnt) {
    const int f32 = rand_is_f32(d->dist), lg = rand_is_log(d->dist);
    for (size_t k = 0; k < cnt; k += 2) {
        double u1, u2;
        if (f32) {
            u1 = (double)rand_u32f(buf[k]);
            u2 = (double)rand_u32f(buf[k + 1]);
        } else {
            u1 = rand_u64f(buf[2 * k], buf[2 * k + 1]);
            u2 = rand_u64f(buf[2 * k + 2], buf[2 * k + 3]);
        }
        const double r = sqrt(-2.0 * log(u1));
        const double t = RAND_TWO_PI * u2;
        double v[2] = {d->mean + d->stddev * (r * cos(t)), d->mean + d->stddev * (r * sin(t))};
        if (lg) {
            v[0] = exp(v[0]);
            v[1] = exp(v[1]);
        }
        const size_t ne = cnt - k < 2 ? cnt - k : 2;
        for (size_t e = 0; e < ne; e++) {
            if (f32)
                ((float *)d->dst)[i + k + e] = (float)v[e];
            else
                ((double *)d->dst)[i + k + e] = v[e];
        }
    }
}

trn_kstatus trn_cpu_rand(const trn_rand_desc *d, trn_kmsg *msg, int shard, int nshards) {
    if (trn_rand_gen_is_quasi(d->gen))
        return trn_cpu_sobol(d, shard, nshards); /* sobol.c */
    if (d->gen != TRN_RAND_PHILOX && d->gen != TRN_RAND_XORWOW && d->gen != TRN_RAND_MRG32K3A &&
        d->gen != TRN_RAND_MT19937 && d->gen != TRN_RAND_MTGP32)
        return TRN_KSTATUS_UNSUPPORTED;
    /* A kernel called with an MTGP32 layout or range the daemon would not
     * send refuses rather than index out of range or step for hours. */
    if (d->gen == TRN_RAND_MTGP32 && ((d->mtgp_states != TRN_RAND_MTGP_STATES_DEFAULT &&
                                       d->mtgp_states != TRN_RAND_MTGP_STATES_LEGACY) ||
                                      d->offset > TRN_RAND_MTGP_MAX_WORDS ||
                                      (uint64_t)d->n * trn_rand_words_per_element(d->dist) >
                                          TRN_RAND_MTGP_MAX_WORDS - d->offset))
        return TRN_KSTATUS_FAILED;
    switch (d->dist) {
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64:
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64:
        /* Philox sub-streams: Philox generators only. */
        if (d->gen != TRN_RAND_PHILOX)
            return TRN_KSTATUS_UNSUPPORTED;
        return trn_cpu_rand_ext(d, shard, nshards);    /* rand_ext.c */
    case TRN_RAND_U64: return TRN_KSTATUS_UNSUPPORTED; /* Sobol64 only */
    default: break;
    }
    const unsigned w = trn_rand_words_per_element(d->dist);
    if (w == 0)
        return TRN_KSTATUS_UNSUPPORTED;
    if ((d->dist == TRN_RAND_EXPONENTIAL_F32 || d->dist == TRN_RAND_EXPONENTIAL_F64) &&
        !(d->lambda > 0.0))
        return TRN_KSTATUS_FAILED;
    /* Shards own whole pairs: boundaries at even elements. */
    size_t plo, phi;
    trn_cpu_shard_range(d->n / 2 + (d->n & 1u), shard, nshards, &plo, &phi);
    const size_t lo = 2 * plo < d->n ? 2 * plo : d->n, hi = 2 * phi < d->n ? 2 * phi : d->n;
    rand_src src;
    rand_src_init(&src, d);
    if (d->gen == TRN_RAND_MTGP32 && lo < hi) {
        src.mtgp = malloc(src.mtgp_states * sizeof(trn_mtgp32));
        if (!src.mtgp)
            return trn_kmsg_no_memory(msg, shard, src.mtgp_states * sizeof(trn_mtgp32),
                                      "the MTGP32 states");
    }
    const size_t chunk = RAND_CHUNK_WORDS / w;
    uint32_t buf[RAND_CHUNK_WORDS];
    rand_poisson pt = {0, 0, NULL};
    if (d->dist == TRN_RAND_POISSON && lo < hi) {
        /* The daemon checks the range; a kernel called with a lambda outside
         * it refuses rather than loop or index out of range. */
        if (!(d->lambda > 0.0 && d->lambda <= TRN_RAND_POISSON_LAMBDA_MAX)) {
            free(src.mtgp);
            return TRN_KSTATUS_FAILED;
        }
        size_t bytes = 0;
        if (rand_poisson_table(d->lambda, &pt, &bytes) != 0) {
            free(src.mtgp);
            return trn_kmsg_no_memory(msg, shard, bytes, "the Poisson table of lambda %g",
                                      d->lambda);
        }
    }

    for (size_t i = lo; i < hi; i += chunk) {
        const size_t cnt = hi - i < chunk ? hi - i : chunk;
        const uint64_t first = d->offset + (uint64_t)w * (uint64_t)i;
        switch (d->dist) {
        case TRN_RAND_U32: rand_src_words(&src, first, cnt, (uint32_t *)d->dst + i); break;
        case TRN_RAND_UNIFORM_F32: {
            float *o = (float *)d->dst + i;
            rand_src_words(&src, first, cnt, buf);
            for (size_t k = 0; k < cnt; k++)
                o[k] = rand_u32f(buf[k]);
            break;
        }
        case TRN_RAND_UNIFORM_F64: {
            double *o = (double *)d->dst + i;
            rand_src_words(&src, first, 2 * cnt, buf);
            for (size_t k = 0; k < cnt; k++)
                o[k] = rand_u64f(buf[2 * k], buf[2 * k + 1]);
            break;
        }
        case TRN_RAND_NORMAL_F32:
        case TRN_RAND_NORMAL_F64:
        case TRN_RAND_LOGNORMAL_F32:
        case TRN_RAND_LOGNORMAL_F64:
            /* An odd cnt happens only at the end of an odd n: the last pair's
             * words are still generated whole (chunk is even, so this fits). */
            rand_src_words(&src, first, (size_t)w * (cnt + (cnt & 1u)), buf);
            rand_normal_chunk(d, buf, i, cnt);
            break;
        case TRN_RAND_POISSON: {
            uint32_t *o = (uint32_t *)d->dst + i;
            rand_src_words(&src, first, 2 * cnt, buf);
            for (size_t k = 0; k < cnt; k++)
                o[k] = rand_poisson_invert(&pt, rand_u64f(buf[2 * k], buf[2 * k + 1]));
            break;
        }
        case TRN_RAND_EXPONENTIAL_F32: {
            float *o = (float *)d->dst + i;
            rand_src_words(&src, first, cnt, buf);
            for (size_t k = 0; k < cnt; k++)
                o[k] = (float)((0.0 - log((double)rand_u32f(buf[k]))) / d->lambda);
            break;
        }
        case TRN_RAND_EXPONENTIAL_F64: {
            double *o = (double *)d->dst + i;
            rand_src_words(&src, first, 2 * cnt, buf);
            for (size_t k = 0; k < cnt; k++)
                o[k] = (0.0 - log(rand_u64f(buf[2 * k], buf[2 * k + 1]))) / d->lambda;
            break;
        }
        default: break; /* dispatched above */
        }
    }
    free(pt.cdf);
    free(src.mtgp);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(rand, trn_cpu_rand(&op->u.rand, op->kmsg, shard, nshards))
