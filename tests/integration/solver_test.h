/*
 * solver_test.h — what the trnsolver integration tests (test_solver*.c)
 * share: a seeded generator, matrices in device memory with padding that
 * must come back untouched, test-matrix constructions, and long double
 * helpers for residuals. Header-only (static functions); include after
 * cmocka.h.
 *
 * Elements are handled as long double complex through typed.h, so one
 * reference computation serves S, D, C and Z. u is the unit roundoff of a
 * type and gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability, §3.1).
 */
#ifndef TRN_TESTS_SOLVER_TEST_H
#define TRN_TESTS_SOLVER_TEST_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trnsci/trnsolver.h"
#include "typed.h"

static const ty all_types[] = {TY_S, TY_D, TY_C, TY_Z};

/* t's position in all_types (the index of per-type problem tables). */
static inline int st_type_index(ty t) {
    return t == TY_S ? 0 : t == TY_D ? 1 : t == TY_C ? 2 : 3;
}

/* The IRS routines' precision pairs as cuSOLVER names them (main type,
 * lowest precision letter or 0 for the main one, the two-letter prefix):
 * V(t, L, T1T2) for each, for tables of <T1T2>gesv or <T1T2>gels. */
#define ST_IRS_VARIANTS(V)                                                                         \
    V(TY_D, 0, DD), V(TY_D, 'S', DS), V(TY_D, 'H', DH), V(TY_D, 'B', DB), V(TY_D, 'X', DX),        \
        V(TY_S, 0, SS), V(TY_S, 'H', SH), V(TY_S, 'B', SB), V(TY_S, 'X', SX), V(TY_Z, 0, ZZ),      \
        V(TY_Z, 'C', ZC), V(TY_Z, 'K', ZK), V(TY_Z, 'E', ZE), V(TY_Z, 'Y', ZY), V(TY_C, 0, CC),    \
        V(TY_C, 'K', CK), V(TY_C, 'E', CE), V(TY_C, 'Y', CY)

static inline long double st_u(ty t) {
    return (t == TY_S || t == TY_C) ? ldexpl(1.0L, -24) : ldexpl(1.0L, -53);
}

static inline long double st_gamma(ty t, long double k) {
    const long double u = st_u(t);
    return k * u / (1.0L - k * u);
}

/* xorshift64*: [-1, 1). */
static uint64_t st_rng = 0x9e3779b97f4a7c15ULL;
static inline long double st_uniform(void) {
    st_rng ^= st_rng >> 12;
    st_rng ^= st_rng << 25;
    st_rng ^= st_rng >> 27;
    const uint64_t r = st_rng * 2685821657736338717ULL;
    return (long double)(r >> 11) * ldexpl(1.0L, -52) - 1.0L;
}

static inline lcplx st_random(ty t) {
    return is_complex(t) ? st_uniform() + I * st_uniform() : st_uniform();
}

/* A rows x cols matrix with leading dimension ld at element offset off of a
 * device allocation of `total` elements; `host` is what was uploaded (all
 * of it, padding included). */
typedef struct st_mat {
    ty t;
    int rows, cols, ld;
    size_t off, total;
    void *host, *dev;
} st_mat;

#define ST_PAD 7

/* Element (i, j) of the upload. */
static inline lcplx st_at(const st_mat *m, int i, int j) {
    return get(m->t, m->host, m->off + (size_t)j * (size_t)m->ld + (size_t)i);
}

static inline void st_set(st_mat *m, int i, int j, lcplx v) {
    put(m->t, m->host, m->off + (size_t)j * (size_t)m->ld + (size_t)i, v);
}

/* Host side only: padding random, the matrix zero. */
static inline void st_alloc(st_mat *m, ty t, int rows, int cols, int ld) {
    m->t = t;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->off = ST_PAD;
    m->total = m->off + (size_t)ld * (size_t)(cols > 0 ? cols : 0) + ST_PAD;
    m->host = malloc(m->total * esize(t));
    assert_non_null(m->host);
    for (size_t i = 0; i < m->total; i++)
        put(t, m->host, i, st_random(t));
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            st_set(m, i, j, 0);
    m->dev = NULL;
}

static inline void st_upload(st_mat *m) {
    if (!m->dev)
        assert_int_equal(trnsciMalloc(&m->dev, m->total * esize(m->t)), trnsciSuccess);
    assert_int_equal(
        trnsciMemcpy(m->dev, m->host, m->total * esize(m->t), trnsciMemcpyHostToDevice),
        trnsciSuccess);
}

/* The device pointer of element (0, 0). */
static inline void *st_ptr(const st_mat *m) {
    return (char *)m->dev + m->off * esize(m->t);
}

/* Downloads everything; fails if an element outside the rows x cols
 * window, other than those `may_write` allows, differs from the upload. */
static inline void *st_download(const st_mat *m, int (*may_write)(int i, int j, void *ctx),
                                void *ctx) {
    const size_t es = esize(m->t);
    unsigned char *h = malloc(m->total * es);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, m->dev, m->total * es, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (size_t s = 0; s < m->total; s++) {
        int inside = 0;
        if (s >= m->off && s < m->off + (size_t)m->ld * (size_t)m->cols) {
            const int i = (int)((s - m->off) % (size_t)m->ld);
            const int j = (int)((s - m->off) / (size_t)m->ld);
            inside = i < m->rows && (!may_write || may_write(i, j, ctx));
        }
        if (!inside && memcmp(h + s * es, (unsigned char *)m->host + s * es, es) != 0)
            fail_msg("element %zu (outside what the routine may write) was modified", s);
    }
    return h;
}

static inline int st_never(int i, int j, void *ctx) {
    (void)i;
    (void)j;
    (void)ctx;
    return 0;
}

/* Fails if anything of m, its window included, differs from the upload. */
static inline void st_untouched(const st_mat *m) {
    free(st_download(m, st_never, NULL));
}

/* Element (i, j) of a download of m. */
static inline lcplx st_got(const st_mat *m, const void *h, int i, int j) {
    return get(m->t, h, m->off + (size_t)j * (size_t)m->ld + (size_t)i);
}

static inline void st_free(st_mat *m) {
    if (m->dev)
        assert_int_equal(trnsciFree(m->dev), trnsciSuccess);
    free(m->host);
    m->dev = m->host = NULL;
}

/* ---- int and real vectors in device memory --------------------------------------- */

static inline int *st_info_alloc(int count) {
    int *d = NULL;
    assert_int_equal(trnsciMalloc((void **)&d, (size_t)(count > 0 ? count : 1) * sizeof(int)),
                     trnsciSuccess);
    assert_int_equal(trnsciMemset(d, 0x5a, (size_t)(count > 0 ? count : 1) * sizeof(int)),
                     trnsciSuccess);
    return d;
}

static inline int st_read_int(const int *dev) {
    int v = 0;
    assert_int_equal(trnsciMemcpy(&v, dev, sizeof(v), trnsciMemcpyDeviceToHost), trnsciSuccess);
    return v;
}

/* ---- matrices --------------------------------------------------------------------- */

/* Dense n x n long double complex matrices, column-major, leading dim n. */
static inline lcplx *st_lmat(int rows, int cols) {
    lcplx *a = calloc((size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1), sizeof(lcplx));
    assert_non_null(a);
    return a;
}

/* c = a * b (a: m x k, b: k x n), optionally with the first operand
 * conjugate-transposed (a then k x m). */
static inline void st_lmul(int m, int n, int k, const lcplx *a, int ah, const lcplx *b, lcplx *c) {
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            lcplx s = 0;
            for (int l = 0; l < k; l++)
                s += (ah ? conjl(a[(size_t)i * k + l]) : a[(size_t)l * m + i]) *
                     b[(size_t)j * k + l];
            c[(size_t)j * m + i] = s;
        }
}

static inline long double st_lfro(int rows, int cols, const lcplx *a) {
    long double s = 0;
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
        s += creall(a[i] * conjl(a[i]));
    return sqrtl(s);
}

/* A random unitary n x n matrix: a product of three Householder
 * reflections I - 2 v v^H with random unit v. */
static inline lcplx *st_unitary(ty t, int n) {
    lcplx *q = st_lmat(n, n);
    for (int i = 0; i < n; i++)
        q[(size_t)i * n + i] = 1;
    lcplx *v = st_lmat(n, 1);
    for (int r = 0; r < 3; r++) {
        long double nv = 0;
        for (int i = 0; i < n; i++) {
            v[i] = st_random(t);
            nv += creall(v[i] * conjl(v[i]));
        }
        nv = sqrtl(nv);
        for (int i = 0; i < n; i++)
            v[i] /= nv;
        /* q = q (I - 2 v v^H) */
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += q[(size_t)l * n + i] * v[l];
            for (int j = 0; j < n; j++)
                q[(size_t)j * n + i] -= 2 * s * conjl(v[j]);
        }
    }
    free(v);
    return q;
}

/* P diag(d) Q^H for n x n P, Q. */
static inline lcplx *st_pdq(int n, const lcplx *p, const long double *d, const lcplx *q) {
    lcplx *a = st_lmat(n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            for (int l = 0; l < n; l++)
                s += p[(size_t)l * n + i] * d[l] * conjl(q[(size_t)l * n + j]);
            a[(size_t)j * n + i] = s;
        }
    return a;
}

/* Singular values (or eigenvalues) geometrically spaced from 1 down to
 * 1/kappa. */
static inline long double *st_spectrum(int n, long double kappa) {
    long double *d = calloc((size_t)(n > 0 ? n : 1), sizeof(long double));
    assert_non_null(d);
    for (int l = 0; l < n; l++)
        d[l] = n > 1 ? powl(kappa, -(long double)l / (n - 1)) : 1.0L;
    return d;
}

/* A Hermitian positive definite n x n matrix with eigenvalues geometrically
 * spaced from 1 down to 1/kappa: Q diag(lambda) Q^H with Q = st_unitary.
 * With pw != NULL also *pw = Q diag(lambda^power) Q^H. */
static inline lcplx *st_spd_pow(ty t, int n, long double kappa, long double power, lcplx **pw) {
    lcplx *q = st_unitary(t, n);
    long double *d = st_spectrum(n, kappa);
    lcplx *a = st_pdq(n, q, d, q);
    for (int i = 0; i < n; i++)
        a[(size_t)i * n + i] = creall(a[(size_t)i * n + i]);
    if (pw) {
        for (int l = 0; l < n; l++)
            d[l] = powl(d[l], power);
        *pw = st_pdq(n, q, d, q);
    }
    free(q);
    free(d);
    return a;
}

static inline lcplx *st_spd(ty t, int n, long double kappa) {
    return st_spd_pow(t, n, kappa, 1.0L, NULL);
}

/* A general (non-normal) n x n matrix with 2-norm condition number kappa:
 * P diag(sigma) Q^H with independent unitary P, Q. */
static inline lcplx *st_general(ty t, int n, long double kappa) {
    lcplx *p = st_unitary(t, n), *q = st_unitary(t, n);
    long double *d = st_spectrum(n, kappa);
    lcplx *a = st_pdq(n, p, d, q);
    free(p);
    free(q);
    free(d);
    return a;
}

/* Puts the n x n long double matrix into m (rows x cols window). */
static inline void st_fill(st_mat *m, const lcplx *a) {
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++)
            st_set(m, i, j, a[(size_t)j * m->rows + i]);
}

/* The window of m (as uploaded) as a long double matrix. */
static inline lcplx *st_take(const st_mat *m) {
    lcplx *a = st_lmat(m->rows, m->cols);
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++)
            a[(size_t)j * m->rows + i] = st_at(m, i, j);
    return a;
}

/* The window of a download of m as a long double matrix. */
static inline lcplx *st_take_got(const st_mat *m, const void *h) {
    lcplx *a = st_lmat(m->rows, m->cols);
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++)
            a[(size_t)j * m->rows + i] = st_got(m, h, i, j);
    return a;
}

/* ---- exchange with the numpy/scipy reference scripts ---------------------------------
 * A test writes each problem to DIR/NAME.EXT in the type's own binary
 * layout, lists it in DIR/manifest.txt, runs the script once, and reads the
 * answers back from DIR/NAME.out as doubles. */

/* numpy's name of the type, as the manifests spell it. */
static inline const char *st_np_name(ty t) {
    return t == TY_S ? "f32" : t == TY_D ? "f64" : t == TY_C ? "c64" : "c128";
}

/* The values as the type stores them (rounded), back in long double, so the
 * reference solves exactly the problem the library is given. */
static inline void st_round_to(ty t, lcplx *a, size_t count) {
    unsigned char tmp[16];
    for (size_t i = 0; i < count; i++) {
        put(t, tmp, 0, a[i]);
        a[i] = get(t, tmp, 0);
    }
}

/* A fresh directory from the template dir (ending in XXXXXX, rewritten in
 * place) and its manifest open for writing; NULL on failure. */
static inline FILE *st_open_manifest(char *dir) {
    if (!mkdtemp(dir))
        return NULL;
    char path[600];
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    return fopen(path, "w");
}

/* count elements of a, stored as type t, to DIR/NAME.EXT. */
static inline void st_write_raw(const char *dir, const char *name, const char *ext, ty t,
                                size_t count, const lcplx *a) {
    char path[600];
    snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    unsigned char tmp[16];
    for (size_t i = 0; i < count; i++) {
        put(t, tmp, 0, a[i]);
        assert_int_equal(fwrite(tmp, esize(t), 1, fp), 1);
    }
    fclose(fp);
}

/* The doubles of DIR/NAME.out (at most max of them; exactly max if exact,
 * else at least one: some answers are shorter when fewer values are
 * selected), or NULL if the file is missing or too short. */
static inline double *st_read_out(const char *dir, const char *name, size_t max, int exact) {
    char path[600];
    snprintf(path, sizeof(path), "%s/%s.out", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    double *v = calloc(max, sizeof(double));
    const size_t got = v ? fread(v, sizeof(double), max, fp) : 0;
    fclose(fp);
    if (got == 0 || (exact && got != max)) {
        free(v);
        return NULL;
    }
    return v;
}

/* Calls trnsolverDn<S|D|C|Z><fn>(args) by the type (pointer arguments are
 * void *). */
#define ST_CALL(t, fn, ...)                                                                        \
    ((t) == TY_S   ? trnsolverDnS##fn(__VA_ARGS__)                                                 \
     : (t) == TY_D ? trnsolverDnD##fn(__VA_ARGS__)                                                 \
     : (t) == TY_C ? trnsolverDnC##fn(__VA_ARGS__)                                                 \
                   : trnsolverDnZ##fn(__VA_ARGS__))

/* The same for routines whose complex forms are named apart (orgqr/ungqr). */
#define ST_CALL2(t, rfn, cfn, ...)                                                                 \
    ((t) == TY_S   ? trnsolverDnS##rfn(__VA_ARGS__)                                                \
     : (t) == TY_D ? trnsolverDnD##rfn(__VA_ARGS__)                                                \
     : (t) == TY_C ? trnsolverDnC##cfn(__VA_ARGS__)                                                \
                   : trnsolverDnZ##cfn(__VA_ARGS__))

/* The worst measured value of each named check (its error over the
 * tolerance's scale, as the check defines it), printed at the end so the
 * margins can be read off the test log. */
typedef struct st_worst {
    char what[80];
    long double worst, limit;
} st_worst;
static st_worst st_worsts[160];
static int st_nworst;

static inline void st_note(const char *what, long double value, long double limit) {
    for (int i = 0; i < st_nworst; i++)
        if (!strcmp(st_worsts[i].what, what)) {
            if (value > st_worsts[i].worst)
                st_worsts[i].worst = value;
            return;
        }
    if (st_nworst < (int)(sizeof(st_worsts) / sizeof(st_worsts[0]))) {
        snprintf(st_worsts[st_nworst].what, sizeof(st_worsts[0].what), "%s", what);
        st_worsts[st_nworst].worst = value;
        st_worsts[st_nworst++].limit = limit;
    }
}

static inline void st_report(const char *test) {
    for (int i = 0; i < st_nworst; i++)
        printf("%s: worst %-34s %10.3Lg (limit %Lg)\n", test, st_worsts[i].what, st_worsts[i].worst,
               st_worsts[i].limit);
}

/* cmocka group setup/teardown for a test file's daemon (st_daemon, set by
 * main): connect over the local transport or TCP; reset and wait until the
 * daemon holds nothing of the session. st_full is 1 in the first
 * transport's group, for files that run their larger cases only once. */
/* A check of a ratio against its limit, noted for the end-of-test report. */
static inline void st_check_ratio(const char *what, ty t, long double r, long double limit) {
    char name[80];
    snprintf(name, sizeof(name), "%s %s", ty_name[t], what);
    st_note(name, r, limit);
    if (!(r <= limit))
        fail_msg("%s %s: ratio %Lg > %Lg", ty_name[t], what, r, limit);
}

/* Uploads an n x n Hermitian matrix with only the uplo triangle meaningful
 * (junk in the other, so a routine that reads it is caught). */
static inline void st_upload_tri(st_mat *m, ty t, int n, const lcplx *a, int lower, int ld) {
    st_alloc(m, t, n, n, ld);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int mine = lower ? i >= j : i <= j;
            st_set(m, i, j, mine ? a[(size_t)j * n + i] : 1e30L);
        }
    st_upload(m);
}

static th_daemon *st_daemon;
static int st_full;

/* Starts d, the daemon every test of the file talks to. */
static inline int st_start(th_daemon *d) {
    st_daemon = d;
    if (th_daemon_start(d, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return -1;
    }
    return 0;
}

/* Runs the group over the local transport, then over TCP: the number of
 * failures. */
#define ST_RUN_BOTH(title, tests)                                                                  \
    (cmocka_run_group_tests_name(title " over the local transport", tests, st_connect_unix,        \
                                 st_disconnect) +                                                  \
     cmocka_run_group_tests_name(title " over tcp", tests, st_connect_tcp, st_disconnect))

/* Stops the daemon (a failure unless it exits cleanly) and prints the
 * margins under the name report. */
static inline int st_finish(const char *report) {
    const int failed = th_daemon_stop_checked(st_daemon, "trnscid");
    st_report(report);
    return failed;
}

static inline int st_connect_unix(void **state) {
    (void)state;
    st_full = 1;
    return trnsciInit(st_daemon->unix_addr) == trnsciSuccess ? 0 : -1;
}

static inline int st_connect_tcp(void **state) {
    (void)state;
    st_full = 0;
    return trnsciInit(st_daemon->tcp_addr) == trnsciSuccess ? 0 : -1;
}

static inline int st_disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(st_daemon->unix_addr, 5000);
}

static inline void st_expect_message(const char *needle) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, needle);
}

/* The Krylov solvers by method and type (test_solver_iter.c,
 * test_solver_sparse.c), and their iteration record read back. */
typedef enum { K_CG, K_GMRES, K_BICGSTAB, NMETH } kmethod;
static const char *const kname[] = {"cg", "gmres", "bicgstab"};

static inline trnsolverStatus_t call_krylov(trnsolverDnHandle_t h, ty t, kmethod k,
                                            trnsolverOperator_t op, const void *b, void *x,
                                            trnsolverIterParams_t p, trnsolverIterResult_t *res) {
    if (t == TY_S)
        return k == K_CG      ? trnsolverScg(h, op, b, x, p, res)
               : k == K_GMRES ? trnsolverSgmres(h, op, b, x, p, res)
                              : trnsolverSbicgstab(h, op, b, x, p, res);
    return k == K_CG      ? trnsolverDcg(h, op, b, x, p, res)
           : k == K_GMRES ? trnsolverDgmres(h, op, b, x, p, res)
                          : trnsolverDbicgstab(h, op, b, x, p, res);
}

static inline trnsolverIterResult_t read_result(const trnsolverIterResult_t *dev) {
    trnsolverIterResult_t r;
    memset(&r, 0xff, sizeof(r));
    assert_int_equal(trnsciMemcpy(&r, dev, sizeof(r), trnsciMemcpyDeviceToHost), trnsciSuccess);
    return r;
}

#endif
