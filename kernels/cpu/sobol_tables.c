/*
 * sobol_tables.c — the Sobol direction numbers and scramble constants of all
 * TRN_SOBOL_MAX_DIMS dimensions, computed once per process at first use from
 * Joe & Kuo's packed polynomials and initial numbers (sobol_joe_kuo.c).
 *
 * Invariants. Each table is built exactly once (pthread_once) into static
 * storage, and never changes afterwards, so readers need no lock and the
 * pointers handed out (also to applications, by trnrandGetDirectionVectors32
 * and friends) stay valid for the life of the process. The storage is
 * zero-initialised static data: untouched pages cost no memory, so a process
 * that never uses Sobol pays nothing. If the packed stream does not decode to
 * exactly TRN_SOBOL_MAX_DIMS - 1 well-formed records, every accessor returns
 * NULL rather than a partial table.
 *
 * The recurrence (Bratley & Fox 1988; Joe & Kuo's notes): for a dimension
 * with polynomial x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1 and initial
 * m_1 .. m_s,
 *     m_k = 2 a_1 m_(k-1) ^ 4 a_2 m_(k-2) ^ ... ^ 2^(s-1) a_(s-1) m_(k-s+1)
 *           ^ 2^s m_(k-s) ^ m_(k-s)                     for k > s,
 * and the direction number of bit b (0-based) is v[b] = m_(b+1) << (W-1-b),
 * W = 32 or 64. Dimension 0 is the van der Corput sequence, v[b] = 2^(W-1-b).
 * The 32-bit numbers are the top halves of the 64-bit ones (the recurrence
 * is the same; only the shift differs), which is how they are made here.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/cpu/sobol.h"

#define JK_MAXDEG 18

static uint64_t dir64[TRN_SOBOL_MAX_DIMS][64];
static uint32_t dir32[TRN_SOBOL_MAX_DIMS][32];
static uint32_t scr32[TRN_SOBOL_MAX_DIMS];
static uint64_t scr64[TRN_SOBOL_MAX_DIMS];
static int dir_ok;

/* Reads the packed stream: base64 characters to bits, most significant
 * first. */
typedef struct jk_reader {
    const char *p;
    uint32_t acc;       /* pending bits, right-aligned */
    unsigned have;      /* how many */
    unsigned long used; /* bits consumed */
    int bad;            /* a character outside the alphabet, or the end */
} jk_reader;

static int b64_value(char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static uint32_t jk_read(jk_reader *r, unsigned width) {
    while (r->have < width) {
        const int v = b64_value(*r->p);
        if (v < 0) {
            r->bad = 1;
            return 0;
        }
        r->p++;
        r->acc = (r->acc << 6) | (uint32_t)v;
        r->have += 6;
    }
    r->have -= width;
    r->used += width;
    const uint32_t out = (r->acc >> r->have) & ((UINT32_C(1) << width) - 1u);
    r->acc &= (UINT32_C(1) << r->have) - 1u;
    return out;
}

/* Direction numbers of one dimension from its degree s, inner coefficients
 * a (a_1 the most significant of s - 1 bits) and m[0 .. s-1]. */
static void jk_directions(unsigned s, uint32_t a, const uint64_t *m0, uint64_t *v) {
    uint64_t m[64];
    for (unsigned k = 0; k < s; k++)
        m[k] = m0[k];
    for (unsigned k = s; k < 64; k++) {
        uint64_t x = m[k - s] ^ (m[k - s] << s);
        for (unsigned i = 1; i < s; i++)
            if ((a >> (s - 1 - i)) & 1u)
                x ^= m[k - i] << i;
        m[k] = x;
    }
    for (unsigned b = 0; b < 64; b++)
        v[b] = m[b] << (63 - b);
}

static void build_directions(void) {
    for (unsigned b = 0; b < 64; b++)
        dir64[0][b] = UINT64_C(1) << (63 - b);
    jk_reader r = {trn_sobol_jk_base64, 0, 0, 0, 0};
    for (unsigned j = 1; j < TRN_SOBOL_MAX_DIMS; j++) {
        const unsigned s = jk_read(&r, 5);
        if (r.bad || s < 1 || s > JK_MAXDEG)
            return;
        const uint32_t a = s > 1 ? jk_read(&r, s - 1) : 0;
        uint64_t m[JK_MAXDEG];
        m[0] = 1;
        for (unsigned i = 2; i <= s; i++)
            m[i - 1] = ((uint64_t)jk_read(&r, i - 1) << 1) | 1u;
        if (r.bad)
            return;
        jk_directions(s, a, m, dir64[j]);
    }
    if (r.used != trn_sobol_jk_bits)
        return;
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j++)
        for (unsigned b = 0; b < 32; b++)
            dir32[j][b] = (uint32_t)(dir64[j][b] >> 32);
    dir_ok = 1;
}

static void build_scramble(void) {
    for (unsigned j = 0; j < TRN_SOBOL_MAX_DIMS; j++) {
        scr32[j] = trn_sobol_scramble_constant(j);
        scr64[j] = trn_sobol64_scramble_constant(j);
    }
}

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static pthread_once_t scr_once = PTHREAD_ONCE_INIT;

const uint32_t (*trn_sobol_directions32(void))[32] {
    pthread_once(&dir_once, build_directions);
    return dir_ok ? (const uint32_t(*)[32])dir32 : NULL;
}

const uint64_t (*trn_sobol_directions64(void))[64] {
    pthread_once(&dir_once, build_directions);
    return dir_ok ? (const uint64_t(*)[64])dir64 : NULL;
}

const uint32_t *trn_sobol_scramble_constants32(void) {
    pthread_once(&scr_once, build_scramble);
    return scr32;
}

const uint64_t *trn_sobol_scramble_constants64(void) {
    pthread_once(&scr_once, build_scramble);
    return scr64;
}
