/*
 * check.h — what a self-test check is made of: cases, operands in guarded
 * memory, long double references and error bounds.
 *
 * A check runs one candidate implementation of one routine (st_check.fn,
 * a function of the routine's CBLAS/LAPACKE/FFTW type) over many cases. A
 * case places its operands in guarded slots (guard.h), fills what the
 * routine may read with random values and everything it must not read or
 * write with a NaN sentinel, calls the candidate, and then compares:
 *   - each result against a reference computed here in long double from
 *     the inputs, within a bound from error analysis (k·u·Σ|terms| and
 *     the like, stated where each check computes it);
 *   - every byte the routine must not write (padding, the other triangle,
 *     the gaps of a strided vector, read-only operands) with what it was.
 * A NaN that reaches a result means the routine read something it must
 * not (a sentinel) or broke; either way it fails.
 *
 * The first failing case of a candidate is described in st_check.failure;
 * st_check.current names the case running, for a crash report.
 */
#ifndef TRN_ST_CHECK_H
#define TRN_ST_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/cpu/selftest/guard.h"

#define ST_TEXT 320
#define ST_CASE 200

typedef enum st_type { ST_S = 0, ST_D = 1, ST_C = 2, ST_Z = 3 } st_type;

/* A long double complex number (real types use re only). */
typedef struct st_lc {
    long double re, im;
} st_lc;

typedef struct st_scratch st_scratch;

typedef struct st_check {
    int id;         /* the routine (trn_routine_id) */
    const void *fn; /* the candidate under test */
    st_guard *guard;
    uint64_t rng;
    /* Results. */
    unsigned cases, failed;
    double worst; /* largest error / bound over all comparisons */
    char failure[ST_TEXT];
    char current[ST_CASE];
    /* The case running. */
    int case_failed;
    st_place place;
    st_scratch *scratch; /* reused when the next case starts, freed at st_check_end */
} st_check;

void st_check_begin(st_check *c, int id, const void *fn, st_guard *g);
/* Frees what the last case held. */
void st_check_end(st_check *c);

/* Starts a case described by fmt (printf). */
void st_case(st_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records that the case failed, and why (the first failure is kept). */
void st_fail(st_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Temporary memory that lives until the next case (zeroed; not from
 * malloc). Never NULL: the self-test runs in a child process, which aborts
 * when out of memory (the parent then reports the check as crashed). */
void *st_alloc(st_check *c, size_t bytes);
/* A uniform random number in [-1, 1). */
double st_rand(st_check *c);

/* Element types. */
size_t st_esize(st_type t);          /* bytes of one element */
size_t st_csize(st_type t);          /* bytes of one real component */
int st_is_cx(st_type t);             /* complex */
long double st_unit(st_type t);      /* unit roundoff: 2^-24 or 2^-53 */
const char *st_type_name(st_type t); /* "S", "D", "C", "Z" */

/* The factor f of the error bounds: 2 for real arithmetic (one rounding of
 * a product and of a sum), 5 for complex (a complex product and sum). */
static inline long double st_factor(st_type t) {
    return st_is_cx(t) ? 5.0L : 2.0L;
}

/* A scalar as a routine takes it: by value (real) or pointed to. */
typedef union st_scalar {
    float s;
    double d;
    float c[2];
    double z[2];
} st_scalar;
/* v in t's representation (rounded). */
st_scalar st_scalar_of(st_type t, st_lc v);
/* v rounded to t, as a routine sees it. */
st_lc st_rounded(st_type t, st_lc v);
/* A random value of type t (each component uniform in [-1, 1)). */
st_lc st_rand_value(st_check *c, st_type t);

/* Element i of an array of type t, and its store (rounded to t). */
static inline st_lc st_get(st_type t, const void *p, ptrdiff_t i) {
    st_lc v = {0, 0};
    switch (t) {
    case ST_S: v.re = ((const float *)p)[i]; break;
    case ST_D: v.re = ((const double *)p)[i]; break;
    case ST_C:
        v.re = ((const float *)p)[2 * i];
        v.im = ((const float *)p)[2 * i + 1];
        break;
    case ST_Z:
        v.re = ((const double *)p)[2 * i];
        v.im = ((const double *)p)[2 * i + 1];
        break;
    }
    return v;
}
static inline void st_put(st_type t, void *p, ptrdiff_t i, st_lc v) {
    switch (t) {
    case ST_S: ((float *)p)[i] = (float)v.re; break;
    case ST_D: ((double *)p)[i] = (double)v.re; break;
    case ST_C:
        ((float *)p)[2 * i] = (float)v.re;
        ((float *)p)[2 * i + 1] = (float)v.im;
        break;
    case ST_Z:
        ((double *)p)[2 * i] = (double)v.re;
        ((double *)p)[2 * i + 1] = (double)v.im;
        break;
    }
}
/* The NaN sentinel in element i (both components), and whether element i
 * still holds it bit for bit. */
void st_put_sentinel(st_type t, void *p, ptrdiff_t i);

/* Long double complex arithmetic. */
static inline st_lc st_lc_make(long double re, long double im) {
    st_lc v = {re, im};
    return v;
}
static inline st_lc st_add(st_lc a, st_lc b) {
    return st_lc_make(a.re + b.re, a.im + b.im);
}
static inline st_lc st_sub(st_lc a, st_lc b) {
    return st_lc_make(a.re - b.re, a.im - b.im);
}
static inline st_lc st_mul(st_lc a, st_lc b) {
    return st_lc_make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
static inline st_lc st_conj(st_lc a) {
    return st_lc_make(a.re, -a.im);
}
st_lc st_div(st_lc a, st_lc b);
/* |a| (the modulus), and |re| + |im| (BLAS's "absolute value" of asum and
 * i?amax). */
long double st_abs(st_lc a);
long double st_abs1(st_lc a);
/* A cheap upper bound of |a| for error bounds: |re| + |im| <= √2·|a|. */
static inline long double st_mag(st_lc a) {
    return (a.re < 0 ? -a.re : a.re) + (a.im < 0 ? -a.im : a.im);
}

/* Compares got with want: passes when |got − want| <= bound (and got is
 * not NaN). Records max(err/bound) into worst; on failure st_fail with
 * "what: got …, want …". Returns 1 when it passed. */
int st_expect(st_check *c, const char *what, st_lc got, st_lc want, long double bound);
/* The fast path of st_expect for loops over many entries: returns 1 when
 * got is within bound of want by the cheap measure st_mag (which implies
 * the exact one) and records the ratio; 0 when the caller must call
 * st_expect (with the entry's name) to decide and report. */
static inline int st_near(st_check *c, st_lc got, st_lc want, long double bound) {
    const long double d = st_mag(st_sub(got, want));
    if (!(d <= bound)) /* also NaN */
        return 0;
    if (bound > 0 && (double)(d / bound) > c->worst)
        c->worst = (double)(d / bound);
    return 1;
}
/* Exact equality of two integers. */
int st_expect_int(st_check *c, const char *what, long long got, long long want);

/* ---- operands ------------------------------------------------------------------ */

/* A vector of n elements with increment inc in a guarded slot. */
typedef struct st_vec {
    st_type t;
    int n, inc;
    unsigned char *p;    /* the operand as the routine sees it (lowest address) */
    unsigned char *init; /* its bytes before the call */
    size_t bytes;
} st_vec;

/* Bytes spanned by n elements of size es with increment inc (>= 1 element). */
size_t st_vec_span(int n, int inc, size_t es);
/* Places v (slot) and fills its elements with random values (the gaps of
 * a strided vector with the sentinel). Returns 0, or -1 (case failed). */
int st_vec_make(st_check *c, int slot, st_vec *v, st_type t, int n, int inc);
/* The same with `spare` elements (sentinels) after the vector's last
 * element before the guard: where a kernel gives the routine such slack
 * (st_vec_gaps then also checks they were not written). */
int st_vec_make_spare(st_check *c, int slot, st_vec *v, st_type t, int n, int inc, int spare);
/* Element i (0 … n−1) of the BLAS sequence, before the call. */
st_lc st_vec_at(const st_vec *v, int i);
/* Element i as it is now. */
st_lc st_vec_now(const st_vec *v, int i);
/* Overwrites element i (before the call, in both the operand and init). */
void st_vec_set(st_vec *v, int i, st_lc x);
/* Every element the sentinel, before the call (an output the routine must
 * not read: y of gemv with beta = 0). */
void st_vec_poison(st_vec *v);
/* After the call: the gaps of a strided vector unchanged. */
void st_vec_gaps(st_check *c, const char *name, const st_vec *v);
/* After the call: element i against want[i] within bound[i], and the gaps
 * unchanged. */
void st_vec_check(st_check *c, const char *name, const st_vec *v, const st_lc *want,
                  const long double *bound);
/* After the call: every byte as it was (a read-only operand). */
void st_vec_unchanged(st_check *c, const char *name, const st_vec *v);

/* Which part of a matrix a routine references. */
typedef enum st_part { ST_ALL = 0, ST_UPPER = 1, ST_LOWER = 2 } st_part;

/* A column-major matrix in a guarded slot. */
typedef struct st_mat {
    st_type t;
    int rows, cols, ld;
    st_part part;  /* referenced entries: all, or a triangle (square) */
    int unit_diag; /* the diagonal is not referenced (taken as 1) */
    int real_diag; /* the diagonal's imaginary parts are not referenced (taken as 0) */
    unsigned char *p;
    unsigned char *init;
    size_t bytes;
} st_mat;

/* Places m (slot) with ld >= rows; fills referenced entries with random
 * values and everything else (padding rows, the other triangle, a unit
 * diagonal, the imaginary parts of a real diagonal) with the sentinel. The
 * operand ends with its last column's last row, so reading past it faults.
 * Returns 0, or -1 (case failed). */
int st_mat_make(st_check *c, int slot, st_mat *m, st_type t, int rows, int cols, int ld,
                st_part part, int unit_diag, int real_diag);
/* Whether entry (i, j) is one the routine may read. */
static inline int st_mat_referenced(const st_mat *m, int i, int j) {
    if (i >= m->rows)
        return 0;
    if (m->part == ST_UPPER && i > j)
        return 0;
    if (m->part == ST_LOWER && i < j)
        return 0;
    if (m->unit_diag && i == j)
        return 0;
    return 1;
}

/* The stored entry (i, j) of base (m's layout), its imaginary part 0 on a
 * real diagonal. */
static inline st_lc st_mat_stored(const st_mat *m, const unsigned char *base, int i, int j) {
    st_lc v = st_get(m->t, base, (ptrdiff_t)j * m->ld + i);
    if (i == j && m->real_diag)
        v.im = 0;
    return v;
}

/* Entry (i, j) as the routine must interpret it, before the call: 0 outside
 * the referenced part, 1 on a unit diagonal, the real part on a real
 * diagonal; `sym` fills the other triangle by symmetry (1) or Hermitian
 * symmetry (2) instead of 0. */
static inline st_lc st_mat_at(const st_mat *m, int i, int j, int sym) {
    if (i == j && m->unit_diag)
        return st_lc_make(1, 0);
    if (st_mat_referenced(m, i, j))
        return st_mat_stored(m, m->init, i, j);
    if (sym && m->part != ST_ALL && st_mat_referenced(m, j, i)) {
        const st_lc v = st_mat_stored(m, m->init, j, i);
        return sym == 2 ? st_conj(v) : v;
    }
    return st_lc_make(0, 0);
}
/* The stored entry (i, j) now. */
static inline st_lc st_mat_now(const st_mat *m, int i, int j) {
    return st_get(m->t, m->p, (ptrdiff_t)j * m->ld + i);
}
/* Overwrites the referenced entry (i, j) before the call. */
void st_mat_set(st_mat *m, int i, int j, st_lc x);
/* The stored entry (i, j) becomes the sentinel, before the call (storage the
 * routine must not read, e.g. outside a band). */
void st_mat_poison(st_mat *m, int i, int j);
/* Every entry the sentinel (C of gemm with beta = 0). */
void st_mat_poison_all(st_mat *m);
/* Makes a triangular m well conditioned for a solve: |diagonal| in [1, 2]
 * (a random imaginary part for complex), the rest of its triangle divided
 * by its order; T = D(I + N) with ‖N‖ small. */
void st_mat_condition(st_check *c, st_mat *m);
/* After the call: the entries of part `out` (a triangle or all; with the
 * diagonal's imaginary parts expected to be exactly 0 when real_diag_out)
 * against want (column-major rows×cols, leading dimension rows) within
 * bound; every other byte unchanged. */
void st_mat_check(st_check *c, const char *name, const st_mat *m, st_part out, int real_diag_out,
                  const st_lc *want, const long double *bound);
void st_mat_unchanged(st_check *c, const char *name, const st_mat *m);
/* After the call: every byte outside part `out` unchanged (padding, the
 * other triangle), and, when real_diag_out, the diagonal's imaginary parts
 * exactly 0; the entries of `out` are checked elsewhere. Returns 1 when
 * all of that holds. */
int st_mat_untouched(st_check *c, const char *name, const st_mat *m, st_part out,
                     int real_diag_out);

#endif
