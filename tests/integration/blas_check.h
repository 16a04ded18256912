/*
 * blas_check.h — what the trnblas Level 2 and Level 3 integration tests
 * share: operands placed at an element offset inside a larger allocation
 * filled with random values (so that leading dimensions larger than the
 * rows, strides and padding are exercised), error bounds, and a check that
 * compares the written elements with a reference and every other element of
 * the allocation bitwise with what was uploaded.
 *
 * Error bounds (Higham, Accuracy and Stability of Numerical Algorithms,
 * 2nd ed.): u = 2^-24 (S, C) or 2^-53 (D, Z), gamma_k = k u / (1 - k u). A
 * real result computed through a chain of at most k roundings of sums and
 * products of terms t_i is within gamma_k sum |t_i| of the exact value
 * (Lemma 3.1, §3.1-3.5). A complex multiplication is accurate to sqrt(2)
 * gamma_2 and an addition to gamma_1 relative to the operands' moduli
 * (Lemma 3.5), so each complex operation costs at most 2 sqrt(2) u and a
 * chain of k of them stays within 2 gamma_{2k} sum |t_i| (2 gamma_{2k} >=
 * 4 k u > 2 sqrt(2) k u): bound(t, k) is gamma_k for real types and
 * 2 gamma_{2k} for complex ones. Each test states its k.
 */
#ifndef TRN_TESTS_BLAS_CHECK_H
#define TRN_TESTS_BLAS_CHECK_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "typed.h"

static long double unit_roundoff(ty t) {
    return (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
}

static long double gam(ty t, long double k) {
    const long double u = unit_roundoff(t);
    return k * u / (1.0L - k * u);
}

/* |re| + |im| >= |z|: the magnitudes summed into bounds (an upper bound of
 * the modulus, and much cheaper than cabsl); measured errors use cabsl. */
static long double mag1(lcplx z) {
    return fabsl(creall(z)) + fabsl(cimagl(z));
}

/* The relative bound of a chain of k roundings (see above). */
static long double bound_k(ty t, long double k) {
    return is_complex(t) ? 2.0L * gam(t, 2.0L * k) : gam(t, k);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static long double uniform(void) { /* [-1, 1), xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    const uint64_t r = rng_state * 2685821657736338717ULL;
    return (long double)(r >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

static lcplx random_el(ty t) {
    return is_complex(t) ? uniform() + I * uniform() : uniform();
}

/* Element i of buf as typed.h's get(), but built with CMPLXL so that a NaN
 * imaginary part does not turn the real part into NaN (x + I*NaN does). */
static lcplx get_el(ty t, const void *buf, size_t i) {
    switch (t) {
    case TY_S: return ((const float *)buf)[i];
    case TY_D: return ((const double *)buf)[i];
    case TY_C: return CMPLXL(((const float *)buf)[2 * i], ((const float *)buf)[2 * i + 1]);
    case TY_Z: return CMPLXL(((const double *)buf)[2 * i], ((const double *)buf)[2 * i + 1]);
    }
    return 0;
}

/* The real type of t. */
static ty real_of(ty t) {
    return (t == TY_S || t == TY_C) ? TY_S : TY_D;
}

/* An allocation of `total` elements of type t, random, and its host copy. */
typedef struct buf {
    ty t;
    size_t total;
    void *host, *dev;
} buf;

static void buf_init(buf *b, ty t, size_t total) {
    b->t = t;
    b->total = total ? total : 1;
    b->host = malloc(b->total * esize(t));
    if (!b->host)
        abort();
    for (size_t i = 0; i < b->total; i++)
        put(t, b->host, i, random_el(t));
    b->dev = NULL;
}

/* Uploads the host copy (call after changing it). */
static int buf_upload(buf *b) {
    if (!b->dev && trnsciMalloc(&b->dev, b->total * esize(b->t)) != trnsciSuccess)
        return -1;
    return trnsciMemcpy(b->dev, b->host, b->total * esize(b->t), trnsciMemcpyHostToDevice) ==
                   trnsciSuccess
               ? 0
               : -1;
}

static void *buf_download(const buf *b) {
    void *r = malloc(b->total * esize(b->t));
    if (!r || trnsciMemcpy(r, b->dev, b->total * esize(b->t), trnsciMemcpyDeviceToHost))
        abort();
    return r;
}

static void buf_free(buf *b) {
    if (b->dev)
        trnsciFree(b->dev);
    free(b->host);
    b->host = b->dev = NULL;
}

/* A column-major rows x cols matrix at element offset off of a buffer,
 * with leading dimension ld; element (i, j) is at off + i + j ld. */
typedef struct mat {
    buf b;
    int rows, cols, ld;
    size_t off;
} mat;

static void mat_init(mat *m, ty t, int rows, int cols, int ld, size_t off) {
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->off = off;
    buf_init(&m->b, t, off + (size_t)ld * (size_t)(cols > 0 ? cols : 1) + 5);
}

static size_t mat_idx(const mat *m, int i, int j) {
    return m->off + (size_t)i + (size_t)j * (size_t)m->ld;
}

static lcplx mat_get(const mat *m, int i, int j) {
    return get_el(m->b.t, m->b.host, mat_idx(m, i, j));
}

static void mat_set(mat *m, int i, int j, lcplx v) {
    put(m->b.t, m->b.host, mat_idx(m, i, j), v);
}

static void *mat_ptr(const mat *m) {
    return (char *)m->b.dev + m->off * esize(m->b.t);
}

/* A vector of n elements with increment inc (not 0) at element offset off;
 * element i is at off + i inc, or off + (n - 1 - i)|inc| when inc < 0. */
typedef struct vec {
    buf b;
    int n, inc;
    size_t off;
} vec;

static inline void vec_init(vec *v, ty t, int n, int inc, size_t off) {
    v->n = n;
    v->inc = inc;
    v->off = off;
    const size_t span = n > 0 ? (size_t)abs(inc) * (size_t)(n - 1) + 1 : 0;
    buf_init(&v->b, t, off + span + 4);
}

static size_t vec_idx(const vec *v, int i) {
    return v->off +
           (v->inc > 0 ? (size_t)i * (size_t)v->inc : (size_t)(v->n - 1 - i) * (size_t)(-v->inc));
}

static inline lcplx vec_get(const vec *v, int i) {
    return get_el(v->b.t, v->b.host, vec_idx(v, i));
}

/* NaN in every element of v (an output that must not be read). */
static inline void vec_nan(vec *v) {
    for (int i = 0; i < v->n; i++)
        put(v->b.t, v->b.host, vec_idx(v, i), NAN);
}

static inline void *vec_ptr(const vec *v) {
    return (char *)v->b.dev + v->off * esize(v->b.t);
}

/* What an op must leave in a buffer: want/bound for the elements it writes,
 * every other element as uploaded (bitwise). */
typedef struct expect {
    size_t total;
    lcplx *want;
    long double *bound;
    unsigned char *written;
} expect;

static void expect_init(expect *e, const buf *b) {
    e->total = b->total;
    e->want = calloc(b->total, sizeof(lcplx));
    e->bound = calloc(b->total, sizeof(long double));
    e->written = calloc(b->total, 1);
    if (!e->want || !e->bound || !e->written)
        abort();
}

static void expect_set(expect *e, size_t idx, lcplx want, long double bound) {
    e->want[idx] = want;
    e->bound[idx] = bound;
    e->written[idx] = 1;
}

static void expect_free(expect *e) {
    free(e->want);
    free(e->bound);
    free(e->written);
}

/* Frees up to three expectations and three buffers (NULL: none). */
static void release(expect *e1, expect *e2, expect *e3, buf *b1, buf *b2, buf *b3) {
    expect *const e[] = {e1, e2, e3};
    buf *const b[] = {b1, b2, b3};
    for (int i = 0; i < 3; i++) {
        if (e[i])
            expect_free(e[i]);
        if (b[i])
            buf_free(b[i]);
    }
}

/* The worst |got - want| / bound seen per routine and type (a bound of 0
 * counts only exact results), for the report at the end of a test program:
 * how much of each bound the results used. */
typedef struct worst_entry {
    const char *what; /* " gemv", ... (a string literal) */
    ty t;
    long double ratio;
} worst_entry;
static worst_entry worst[64];
static int nworst;

static void note_ratio(const char *what, ty t, long double ratio) {
    int i = 0;
    while (i < nworst && (worst[i].t != t || strcmp(worst[i].what, what) != 0))
        i++;
    if (i == nworst) {
        if (nworst == 64)
            return;
        worst[nworst++] = (worst_entry){what, t, 0.0L};
    }
    if (ratio > worst[i].ratio)
        worst[i].ratio = ratio;
}

/* Prints the table of note_ratio on stderr. */
static void print_worst(void) {
    fprintf(stderr, "worst error / bound:");
    for (int i = 0; i < nworst; i++)
        fprintf(stderr, "%s %s%s %.3Lg", i % 6 ? "," : "\n ", ty_name[worst[i].t],
                worst[i].what + 1, worst[i].ratio);
    fprintf(stderr, "\n");
}

/* Downloads b and compares it with e; returns the number of mismatches
 * (the first few printed, named `what`). */
static size_t check(const char *what, const buf *b, const expect *e) {
    void *got = buf_download(b);
    const size_t es = esize(b->t);
    size_t bad = 0;
    for (size_t i = 0; i < b->total; i++) {
        if (e->written[i]) {
            const lcplx g = get_el(b->t, got, i);
            const long double err = cabsl(g - e->want[i]);
            if (!(err <= e->bound[i])) {
                if (bad++ < 4)
                    fprintf(stderr, "%s%s: element %zu is %Lg%+Lgi, want %Lg%+Lgi (bound %Lg)\n",
                            ty_name[b->t], what, i, creall(g), cimagl(g), creall(e->want[i]),
                            cimagl(e->want[i]), e->bound[i]);
            } else if (e->bound[i] > 0 && e->bound[i] < INFINITY) {
                note_ratio(what, b->t, err / e->bound[i]);
            }
        } else if (memcmp((char *)got + i * es, (char *)b->host + i * es, es) != 0) {
            if (bad++ < 4)
                fprintf(stderr, "%s%s: element %zu, which must not be written, changed\n",
                        ty_name[b->t], what, i);
        }
    }
    free(got);
    return bad;
}

/* A scalar in each of the four types (and their real parts), for host
 * pointer mode. */
typedef struct scal {
    float s;
    double d;
    trnComplex c;
    trnDoubleComplex z;
} scal;

static scal mk_scal(lcplx v) {
    const scal s = {(float)creall(v),
                    (double)creall(v),
                    {(float)creall(v), (float)cimagl(v)},
                    {(double)creall(v), (double)cimagl(v)}};
    return s;
}

/* The value a kernel of type t sees: the scalar rounded to t. */
static lcplx scal_val(ty t, lcplx v) {
    const scal s = mk_scal(v);
    switch (t) {
    case TY_S: return s.s;
    case TY_D: return s.d;
    case TY_C: return CMPLXL(s.c.x, s.c.y);
    case TY_Z: return CMPLXL(s.z.x, s.z.y);
    }
    return 0;
}

/* ---- for the cmocka tests (include cmocka.h first) ---------------------- */

/* The daemon the test program started (th_daemon_start in main). */
static th_daemon daemon_under_test;

/* Group setups and teardown: connect over the unix socket or TCP; end the
 * session and wait until the daemon holds nothing of it. */
/* Types the routine cases run in: all four over the unix socket; S and Z
 * over TCP, where the same messages travel and only the transport differs
 * (it keeps the tests' time down). */
static int type_step = 1;

static int connect_unix(void **state) {
    (void)state;
    type_step = 1;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    type_step = TY_Z - TY_S;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

/* Shards run so far by each of the daemon's core workers (up to 8), for
 * checking that an op was split: returns the number of core workers. */
static inline int core_shards(uint64_t shards[8]) {
    trnsciWorkerInfo w[16];
    int count = 0, n = 0;
    assert_int_equal(trnsciDaemonGetWorkers(daemon_under_test.unix_addr, w, 16, &count),
                     trnsciSuccess);
    for (int i = 0; i < count && i < 16; i++)
        if (strcmp(w[i].engine, "core") == 0 && n < 8)
            shards[n++] = w[i].usage.shards;
    return n;
}

/* That the core workers together ran at least `least` more shards than in
 * before. (Which worker takes a shard depends on timing; how many shards an
 * op has does not.) */
static inline void expect_shards_ran(const uint64_t before[8], int n, uint64_t least) {
    uint64_t after[8], ran = 0;
    assert_int_equal(core_shards(after), n);
    for (int i = 0; i < n; i++)
        ran += after[i] - before[i];
    if (ran < least)
        fail_msg("the core workers ran %llu shards, expected at least %llu",
                 (unsigned long long)ran, (unsigned long long)least);
}

/* A call must give INVALID_VALUE with the daemon's message containing
 * needle (the routine and the argument). */
static void expect_invalid(trnblasStatus_t st, const char *needle) {
    if (st != TRNBLAS_STATUS_INVALID_VALUE)
        fail_msg("expected INVALID_VALUE (\"%s\"), got %d: %s", needle, (int)st,
                 trnsciGetLastErrorMessage());
    if (!strstr(trnsciGetLastErrorMessage(), needle))
        fail_msg("message \"%s\" does not name \"%s\"", trnsciGetLastErrorMessage(), needle);
}

static int device_mode;      /* the handles of the cases use device pointer mode */
static void *dev_scalars;    /* device memory for them (device_mode) */
static scal host_scalars[2]; /* host memory for them (host mode) */

/* Sets the handle's mode for the cases. */
static void set_mode(trnblasHandle_t h) {
    assert_int_equal(trnblasSetPointerMode(h, device_mode ? TRNBLAS_POINTER_MODE_DEVICE
                                                          : TRNBLAS_POINTER_MODE_HOST),
                     TRNBLAS_STATUS_SUCCESS);
}

/* The pointer to pass for scalar `slot` (0: alpha, 1: beta) of value v, of
 * type t or of its real type when real. */
static const void *sarg(ty t, lcplx v, int slot, int real) {
    const ty st = real ? real_of(t) : t;
    host_scalars[slot] = mk_scal(v);
    const scal *s = &host_scalars[slot];
    const void *hp = st == TY_S   ? (const void *)&s->s
                     : st == TY_D ? (const void *)&s->d
                     : st == TY_C ? (const void *)&s->c
                                  : (const void *)&s->z;
    if (!device_mode)
        return hp;
    char *d = (char *)dev_scalars + 16 * slot;
    assert_int_equal(trnsciMemcpy(d, hp, esize(st), trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

/* Every routine case of the test program, in the pointer mode device_mode
 * says (each test program defines it). */
static void run_all_types(void);

/* The cases with alpha and beta in host memory (read during the call). */
static void test_host_mode(void **state) {
    (void)state;
    device_mode = 0;
    run_all_types();
}

/* The same cases with alpha and beta in device memory (read when each op
 * runs; uploaded by a synchronous copy just before the call). */
static void test_device_mode(void **state) {
    (void)state;
    assert_int_equal(trnsciMalloc(&dev_scalars, 64), trnsciSuccess);
    device_mode = 1;
    run_all_types();
    device_mode = 0;
    assert_int_equal(trnsciFree(dev_scalars), trnsciSuccess);
}

/* Element (i, j) of op(A), read through getf. */
static inline lcplx op_el(trnblasOperation_t tr, lcplx (*getf)(const mat *, int, int), const mat *a,
                          int i, int j) {
    if (tr == TRNBLAS_OP_N)
        return getf(a, i, j);
    const lcplx v = getf(a, j, i);
    return tr == TRNBLAS_OP_C ? conjl(v) : v;
}

/* NaN in every element the routine must not read: the other triangle and,
 * Hermitian, the imaginary parts of the diagonal; unit: the diagonal. */
static void poison(mat *a, int n, int upper, int herm, int unit) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i == j && unit)
                mat_set(a, i, j, CMPLXL(NAN, NAN));
            else if (i == j && herm)
                mat_set(a, i, j, CMPLXL(creall(mat_get(a, i, j)), NAN));
            else if (i != j && (upper ? i > j : i < j))
                mat_set(a, i, j, CMPLXL(NAN, NAN));
        }
}

/* Element (i, j) of op(T), T the uplo triangle of a (unit: ones on the
 * diagonal). */
static int tri_upper, tri_unit;
static inline lcplx tri_get(const mat *a, int i, int j) {
    if (i == j && tri_unit)
        return 1;
    if (tri_upper ? i > j : i < j)
        return 0;
    return mat_get(a, i, j);
}

/* A well-conditioned n x n triangular matrix in the upper or lower
 * triangle of a: a diagonal of modulus 1..2 and off-diagonal elements of
 * modulus <= 1/n (diagonally dominant, so solves stay within a small
 * multiple of the right-hand side); NaN elsewhere (poison), and sets the
 * triangle tri_get reads. */
static inline void tri_fill(mat *a, int n, int upper, int unit) {
    tri_upper = upper, tri_unit = unit;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const lcplx v = mat_get(a, i, j);
            mat_set(a, i, j, i == j ? (cabsl(v) + 1) * (v / (cabsl(v) + 1e-30L)) : v / n);
        }
    poison(a, n, upper, 0, unit);
}

#endif
