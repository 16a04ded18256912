/*
 * test_solver_tiled.c — potrf, potri, getrf (with pivoting) and geqrf on matrices
 * big enough to be tiled
 * (ops/solver_tile.h: n >= 4 tiles of 256), run as a task graph over every
 * core, through real trnscid daemons of 1 and 2 cores, in S, D, C and Z,
 * lower and upper (how a step's tasks are shared among 3 or more shards is
 * tests/unit/test_solver_tile.c's).
 *
 * Checks:
 *  - the factor is bitwise the same on 1 and 2 cores (the task graph
 *    depends only on the shape; docs/numerics.md "Tiled factorisations");
 *  - backward error, probed with random vectors v in long double: for the
 *    computed factor F (A + dA = F F^H with |dA| <= gamma_{n+1} |F||F^H|,
 *    Higham Thm 10.3, which a tiled right-looking Cholesky satisfies as the
 *    blocked one does: each element is the same sum of products in another
 *    order), r = A v - F (F^H v) satisfies |r| <= gamma_{n+1} |F| (|F^H| |v|)
 *    componentwise; complex arithmetic doubles the constant (2 gamma_{n+2}),
 *    as in test_solver.c. A wrong tile (a missing or doubled update) puts
 *    r near |A||v|, orders of magnitude over the bound;
 *  - the triangle not referenced comes back bitwise unchanged;
 *  - LAPACK's info: a negative pivot or a NaN placed in the third diagonal
 *    tile gives info = its index, as potrf does; the op still succeeds;
 *  - the boundaries: n = 769 (4 tiles, the last one 1 wide) is tiled, n = 768
 *    (3 tiles) is not; both correct.
 * potri (after the tiled potrf): D, Z lower and upper, S lower; the
 * inverse bitwise alike on 1 and 2 cores, the residual A X v - v along
 * random vectors within 3 n u (6 n u complex) || |A| |X| |v| ||, and an
 * exactly zero diagonal element giving LAPACK's info with A unchanged.
 * getrf: square (S, D, C, Z), tall, wide and 2300 square (D): factors, pivots and info
 * bitwise alike on 1 and 2 cores, the backward error of P A = L U within
 * Higham's Thm 9.3 bound along a random vector (gamma_min(m,n) |L||U|), and
 * an exactly zero column giving LAPACK's info (its index) while the
 * factorisation goes on.
 * geqrf: square (S, D, C, Z), tall and wide (D): factors and tau bitwise
 * alike on 1 and 2 cores, and R keeping every column's norm (Q unitary).
 * Cholesky matrices: Hermitian, strictly diagonally dominant with a positive
 * diagonal, hence positive definite (Gershgorin); lda = n + 5.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "solver_test.h"

#define NDAEMONS 2
static th_daemon daemons[NDAEMONS]; /* 1 and 2 cores */

#define LOWER TRNBLAS_FILL_MODE_LOWER
#define UPPER TRNBLAS_FILL_MODE_UPPER

/* The host matrix: Hermitian, diagonal n + 1, off-diagonal entries of
 * modulus < 1 (seeded, so every daemon gets the same), the other triangle
 * (not referenced) filled with 7. */
static void *make_matrix(ty t, int n, int ld, int lower) {
    void *h = malloc((size_t)ld * n * esize(t));
    assert_non_null(h);
    st_rng = 0x9e3779b9u + (uint32_t)n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            lcplx v = 7;
            if (i == j)
                v = n + 1;
            else if (stored)
                v = is_complex(t) ? 0.7L * st_uniform() + 0.7L * I * st_uniform() : st_uniform();
            put(t, h, (size_t)j * ld + i, v);
        }
    return h;
}

/* What run_on runs: potrf, potri, or potrf and then potri. */
#define RUN_POTRF 1
#define RUN_POTRI 2

/* Runs potrf and/or potri (what) of the n x n matrix h (ld) on the daemon
 * at addr; returns the downloaded result and sets *info (the last one's). */
static void *run_on(const char *addr, int what, ty t, int n, int ld, int lower, const void *h,
                    int *info_out) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t handle;
    assert_int_equal(trnsolverDnCreate(&handle), TRNSOLVER_STATUS_SUCCESS);
    const size_t bytes = (size_t)ld * n * esize(t);
    void *dev = NULL;
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    int *info = st_info_alloc(1);
    if (what & RUN_POTRF)
        assert_int_equal(
            ST_CALL(t, potrf, handle, lower ? LOWER : UPPER, n, dev, ld, NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
    if (what & RUN_POTRI)
        assert_int_equal(
            ST_CALL(t, potri, handle, lower ? LOWER : UPPER, n, dev, ld, NULL, 0, info),
            TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    *info_out = st_read_int(info);
    void *got = malloc(bytes);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(handle), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return got;
}

/* F(i, l): the lower factor of the result (upper: U^H). */
static lcplx f_at(ty t, const void *g, int ld, int lower, int i, int l) {
    if (l > i)
        return 0;
    return lower ? get(t, g, (size_t)l * ld + i) : conjl(get(t, g, (size_t)i * ld + l));
}

/* A(i, j) of the Hermitian matrix whose uplo triangle h holds. */
static lcplx a_at(ty t, const void *h, int ld, int lower, int i, int j) {
    const int stored = lower ? i >= j : i <= j;
    return stored ? get(t, h, (size_t)j * ld + i) : conjl(get(t, h, (size_t)i * ld + j));
}

/* The backward-error probe of the header, with three random vectors;
 * returns the worst |r_i| / bound_i. */
static long double probe(ty t, int n, int ld, int lower, const void *h, const void *g) {
    lcplx *v = malloc((size_t)n * sizeof(*v)), *w = malloc((size_t)n * sizeof(*w));
    long double *av = malloc((size_t)n * sizeof(*av)), *aw = malloc((size_t)n * sizeof(*aw));
    assert_true(v && w && av && aw);
    const long double bound_c = is_complex(t) ? 2.0L * st_gamma(t, n + 2) : st_gamma(t, n + 1);
    long double worst = 0;
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < n; i++) {
            v[i] = st_uniform();
            av[i] = fabsl(creall(v[i]));
        }
        /* w = F^H v and |F^H| |v|. */
        for (int l = 0; l < n; l++) {
            lcplx s = 0;
            long double sa = 0;
            for (int i = l; i < n; i++) {
                const lcplx f = f_at(t, g, ld, lower, i, l);
                s += conjl(f) * v[i];
                sa += cabsl(f) * av[i];
            }
            w[l] = s;
            aw[l] = sa;
        }
        for (int i = 0; i < n; i++) {
            lcplx fw = 0, av_i = 0;
            long double fa = 0;
            for (int l = 0; l <= i; l++) {
                const lcplx f = f_at(t, g, ld, lower, i, l);
                fw += f * w[l];
                fa += cabsl(f) * aw[l];
            }
            for (int j = 0; j < n; j++)
                av_i += a_at(t, h, ld, lower, i, j) * v[j];
            const long double r = cabsl(av_i - fw), b = bound_c * fa;
            const long double ratio = r / b;
            if (!(ratio <= 1.0L))
                fail_msg("%s potrf n=%d %s: |r_%d| = %Lg > bound %Lg", ty_name[t], n,
                         lower ? "lower" : "upper", i, r, b);
            worst = ratio > worst ? ratio : worst;
        }
    }
    free(v);
    free(w);
    free(av);
    free(aw);
    return worst;
}

/* The triangle potrf must not touch came back as it went. */
static void untouched(ty t, int n, int ld, int lower, const void *h, const void *g) {
    const size_t es = esize(t);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int stored = lower ? i >= j : i <= j;
            const size_t at = ((size_t)j * ld + i) * es;
            if (!stored && memcmp((const char *)h + at, (const char *)g + at, es) != 0)
                fail_msg("%s potrf n=%d: element (%d, %d) outside the triangle changed", ty_name[t],
                         n, i, j);
        }
}

static void check(ty t, int n, int lower) {
    const int ld = n + 5;
    void *h = make_matrix(t, n, ld, lower);
    void *got[NDAEMONS];
    for (int d = 0; d < NDAEMONS; d++) {
        int info = -1;
        got[d] = run_on(daemons[d].unix_addr, RUN_POTRF, t, n, ld, lower, h, &info);
        assert_int_equal(info, 0);
    }
    const size_t bytes = (size_t)ld * n * esize(t);
    for (int d = 1; d < NDAEMONS; d++)
        if (memcmp(got[0], got[d], bytes) != 0)
            fail_msg("%s potrf n=%d %s: the factor on %d cores differs from the one on 1",
                     ty_name[t], n, lower ? "lower" : "upper", d + 1);
    untouched(t, n, ld, lower, h, got[0]);
    char what[80];
    snprintf(what, sizeof(what), "potrf n=%d %s |r| / bound", n, lower ? "L" : "U");
    st_note(what, probe(t, n, ld, lower, h, got[0]), 1.0L);
    for (int d = 0; d < NDAEMONS; d++)
        free(got[d]);
    free(h);
}

static void test_tiled_factors(void **state) {
    (void)state;
    for (int k = 0; k < 4; k++)
        for (int lower = 0; lower < 2; lower++)
            check(all_types[k], 1300, lower); /* 6 tiles, the last 20 wide */
    check(TY_D, 1024, 1);                     /* 4 whole tiles */
    check(TY_D, 769, 0);                      /* 4 tiles, the last 1 wide */
    check(TY_D, 768, 1);                      /* 3 tiles: not tiled */
    /* 12 tiles: the first updates take blocks of 2 block columns, which
     * the 2-core daemon's shards claim as they go (ops/solver_tile.h). */
    check(TY_D, 3000, 1);
    check(TY_D, 3000, 0);
}

/* potri's residual along three random vectors v: with X the computed
 * inverse (Hermitian, from the triangle g holds), r = A (X v) - v in long
 * double; ||r||_2 <= c n u || |A| (|X| |v|) ||_2 with c = 3 (6 complex), the
 * bound test_solver.c holds LAPACK's potri to (A's condition number is
 * below 3 here). Returns the worst ratio. */
static long double inverse_probe(ty t, int n, int ld, int lower, const void *h, const void *g) {
    lcplx *v = malloc((size_t)n * sizeof(*v)), *y = malloc((size_t)n * sizeof(*y));
    long double *av = malloc((size_t)n * sizeof(*av)), *ay = malloc((size_t)n * sizeof(*ay));
    assert_true(v && y && av && ay);
    const long double c = 3.0L * n * st_u(t) * (is_complex(t) ? 2 : 1);
    long double worst = 0;
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < n; i++) {
            v[i] = st_uniform();
            av[i] = fabsl(creall(v[i]));
        }
        for (int i = 0; i < n; i++) { /* y = X v, ay = |X| |v| */
            lcplx s = 0;
            long double sa = 0;
            for (int j = 0; j < n; j++) {
                const lcplx x = a_at(t, g, ld, lower, i, j);
                s += x * v[j];
                sa += cabsl(x) * av[j];
            }
            y[i] = s;
            ay[i] = sa;
        }
        long double rn = 0, bn = 0;
        for (int i = 0; i < n; i++) {
            lcplx s = 0;
            long double sa = 0;
            for (int j = 0; j < n; j++) {
                const lcplx a = a_at(t, h, ld, lower, i, j);
                s += a * y[j];
                sa += cabsl(a) * ay[j];
            }
            const lcplx r = s - v[i];
            rn += creall(r * conjl(r));
            bn += sa * sa;
        }
        const long double ratio = sqrtl(rn) / (c * sqrtl(bn));
        if (!(ratio <= 1.0L))
            fail_msg("%s potri n=%d %s: ||A X v - v|| / bound = %Lg", ty_name[t], n,
                     lower ? "lower" : "upper", ratio);
        worst = ratio > worst ? ratio : worst;
    }
    free(v);
    free(y);
    free(av);
    free(ay);
    return worst;
}

/* potri over every core (ops/solver_inv_tile.h) after the tiled potrf: the
 * inverse bitwise the same on 1 and 2 cores, the other triangle untouched,
 * the residual within inverse_probe's bound. Then a factor with an exactly
 * zero diagonal element in the third tile: info = its index and the matrix
 * unchanged, on every core count, as LAPACK's potri. */
static void test_tiled_potri(void **state) {
    (void)state;
    const int n = 1300, ld = n + 5;
    const ty types[] = {TY_D, TY_Z, TY_S};
    for (int k = 0; k < 3; k++)
        for (int lower = 0; lower < 2; lower++) {
            const ty t = types[k];
            if (t == TY_S && !lower)
                continue;
            void *h = make_matrix(t, n, ld, lower);
            void *got[NDAEMONS];
            for (int d = 0; d < NDAEMONS; d++) {
                int info = -1;
                got[d] =
                    run_on(daemons[d].unix_addr, RUN_POTRF | RUN_POTRI, t, n, ld, lower, h, &info);
                assert_int_equal(info, 0);
            }
            const size_t bytes = (size_t)ld * n * esize(t);
            for (int d = 1; d < NDAEMONS; d++)
                if (memcmp(got[0], got[d], bytes) != 0)
                    fail_msg("%s potri n=%d %s: the inverse on %d cores differs from the one on 1",
                             ty_name[t], n, lower ? "lower" : "upper", d + 1);
            untouched(t, n, ld, lower, h, got[0]);
            char what[80];
            snprintf(what, sizeof(what), "potri n=%d %s ||AXv - v|| / bound", n, lower ? "L" : "U");
            st_note(what, inverse_probe(t, n, ld, lower, h, got[0]), 1.0L);
            for (int d = 0; d < NDAEMONS; d++)
                free(got[d]);
            free(h);
        }
    const int p = 2 * 256 + 77;
    for (int lower = 0; lower < 2; lower++) {
        void *h = make_matrix(TY_D, n, ld, lower); /* taken as the factor itself */
        put(TY_D, h, (size_t)p * ld + p, 0.0L);
        for (int d = 0; d < NDAEMONS; d++) {
            int info = -1;
            void *g = run_on(daemons[d].unix_addr, RUN_POTRI, TY_D, n, ld, lower, h, &info);
            if (info != p + 1)
                fail_msg("potri with a zero at %d on %d cores: info %d, want %d", p, d + 1, info,
                         p + 1);
            assert_memory_equal(g, h, (size_t)ld * n * esize(TY_D));
            free(g);
        }
        free(h);
    }
}

/* A pivot that makes the leading minor of order p + 1 indefinite (a
 * negative diagonal entry, or a NaN) in the third diagonal tile: info =
 * p + 1 on every core count, as LAPACK's potrf. */
static void test_tiled_not_spd(void **state) {
    (void)state;
    const int n = 1300, ld = n + 5, p = 2 * 256 + 77;
    for (int nan = 0; nan < 2; nan++)
        for (int k = 0; k < 4; k++) {
            const ty t = all_types[k];
            void *h = make_matrix(t, n, ld, 1);
            put(t, h, (size_t)p * ld + p, nan ? (lcplx)NAN : -1.0L);
            for (int d = 0; d < NDAEMONS; d++) {
                int info = -1;
                free(run_on(daemons[d].unix_addr, RUN_POTRF, t, n, ld, 1, h, &info));
                if (info != p + 1)
                    fail_msg("%s potrf with a %s at %d on %d cores: info %d, want %d", ty_name[t],
                             nan ? "NaN" : "negative pivot", p, d + 1, info, p + 1);
            }
            free(h);
        }
}

/* ---- LU with partial pivoting ---------------------------------------- */

/* getrf of the m x n matrix h (ld) on the daemon at addr: the result, with
 * the pivots in piv (min(m, n)) and *info. */
static void *lu_on(const char *addr, ty t, int m, int n, int ld, const void *h, int *piv,
                   int *info_out) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t handle;
    assert_int_equal(trnsolverDnCreate(&handle), TRNSOLVER_STATUS_SUCCESS);
    const size_t bytes = (size_t)ld * n * esize(t), pbytes = (size_t)(m < n ? m : n) * sizeof(int);
    void *dev = NULL;
    int *dpiv = NULL;
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dpiv, pbytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    int *info = st_info_alloc(1);
    assert_int_equal(ST_CALL(t, getrf, handle, m, n, dev, ld, NULL, dpiv, info),
                     TRNSOLVER_STATUS_SUCCESS);
    *info_out = st_read_int(info);
    void *got = malloc(bytes);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(piv, dpiv, pbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnsciFree(dpiv), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(handle), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return got;
}

/* Backward error of P A = L U along a random vector v in long double:
 * |(P^T A) v - L (U v)| <= c gamma_mn |L| (|U| |v|) componentwise (Higham
 * Thm 9.3; complex: 2 gamma_{mn+1}). */
static void lu_probe(ty t, int m, int n, int ld, const void *h, const void *g, const int *piv) {
    const int mn = m < n ? m : n;
    const long double c = is_complex(t) ? 2.0L * st_gamma(t, mn + 1) : st_gamma(t, mn);
    int *row = malloc((size_t)m * sizeof(int));
    lcplx *v = malloc((size_t)n * sizeof(*v)), *w = malloc((size_t)mn * sizeof(*w));
    long double *aw = malloc((size_t)mn * sizeof(*aw));
    assert_true(row && v && w && aw);
    for (int r = 0; r < m; r++)
        row[r] = r;
    for (int r = 0; r < mn; r++) {
        assert_true(piv[r] >= r + 1 && piv[r] <= m);
        const int p = piv[r] - 1, x = row[r];
        row[r] = row[p];
        row[p] = x;
    }
    for (int j = 0; j < n; j++)
        v[j] = st_uniform();
    for (int i = 0; i < mn; i++) {
        lcplx x = 0;
        long double ax = 0;
        for (int j = i; j < n; j++) {
            const lcplx e = get(t, g, (size_t)j * ld + i);
            x += e * v[j];
            ax += cabsl(e) * fabsl(creall(v[j]));
        }
        w[i] = x;
        aw[i] = ax;
    }
    for (int i = 0; i < m; i++) {
        lcplx lw = 0, pav = 0;
        long double b = 0;
        for (int l = 0; l <= (i < mn - 1 ? i : mn - 1); l++) {
            const lcplx e = l == i ? 1.0L : get(t, g, (size_t)l * ld + i);
            lw += e * w[l];
            b += cabsl(e) * aw[l];
        }
        for (int j = 0; j < n; j++)
            pav += get(t, h, (size_t)j * ld + row[i]) * v[j];
        if (!(cabsl(pav - lw) <= c * b))
            fail_msg("%s getrf %dx%d row %d: |r| = %Lg > %Lg", ty_name[t], m, n, i, cabsl(pav - lw),
                     c * b);
    }
    free(row);
    free(v);
    free(w);
    free(aw);
}

/* getrf of square, tall and wide matrices: factors, pivots and info
 * bitwise alike on 1 and 2 cores, and within the backward-error bound; an
 * exactly zero column gives its index as info. */
static void test_tiled_lu(void **state) {
    (void)state;
    /* The last: 9 x 9 tiles, updates in blocks of 2 block columns. */
    const int shapes[][2] = {{1300, 1300}, {1400, 800}, {800, 1400}, {2300, 2300}};
    for (int k = 0; k < 4; k++)
        for (int q = 0; q < 4; q++) {
            const ty t = all_types[k];
            const int m = shapes[q][0], n = shapes[q][1], ld = m + 3, mn = m < n ? m : n;
            if (q && t != TY_D)
                continue; /* tall, wide and large: D only */
            void *h = malloc((size_t)ld * n * esize(t));
            assert_non_null(h);
            st_rng = 0x51ed27u + (uint32_t)q;
            for (size_t e = 0; e < (size_t)ld * n; e++)
                put(t, h, e, is_complex(t) ? st_uniform() + I * st_uniform() : st_uniform());
            if (q == 0 && t == TY_D) /* an exactly zero column: info = 701 */
                for (int i = 0; i < m; i++)
                    put(t, h, (size_t)700 * ld + i, 0);
            int *piv[NDAEMONS], info[NDAEMONS];
            void *got[NDAEMONS];
            for (int d = 0; d < NDAEMONS; d++) {
                piv[d] = malloc((size_t)mn * sizeof(int));
                assert_non_null(piv[d]);
                got[d] = lu_on(daemons[d].unix_addr, t, m, n, ld, h, piv[d], &info[d]);
            }
            assert_int_equal(info[0], q == 0 && t == TY_D ? 701 : 0);
            for (int d = 1; d < NDAEMONS; d++) {
                assert_int_equal(info[d], info[0]);
                assert_memory_equal(piv[d], piv[0], (size_t)mn * sizeof(int));
                if (memcmp(got[0], got[d], (size_t)ld * n * esize(t)) != 0)
                    fail_msg("%s getrf %dx%d: the factors on %d cores differ from 1 core's",
                             ty_name[t], m, n, d + 1);
            }
            if (info[0] == 0)
                lu_probe(t, m, n, ld, h, got[0], piv[0]);
            for (int d = 0; d < NDAEMONS; d++) {
                free(got[d]);
                free(piv[d]);
            }
            free(h);
        }
}

/* ---- QR ----------------------------------------------------------------- */

/* geqrf on the daemon at addr: the factors, with tau (min(m, n)). */
static void *qr_on(const char *addr, ty t, int m, int n, int ld, const void *h, void *tau) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsolverDnHandle_t handle;
    assert_int_equal(trnsolverDnCreate(&handle), TRNSOLVER_STATUS_SUCCESS);
    const size_t bytes = (size_t)ld * n * esize(t), tbytes = (size_t)(m < n ? m : n) * esize(t);
    void *dev = NULL, *dtau = NULL;
    assert_int_equal(trnsciMalloc(&dev, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dtau, tbytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    int *info = st_info_alloc(1);
    int lwork = 0;
    assert_int_equal(ST_CALL(t, geqrf_bufferSize, handle, m, n, dev, ld, &lwork),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(ST_CALL(t, geqrf, handle, m, n, dev, ld, dtau, NULL, 0, info),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(st_read_int(info), 0);
    void *got = malloc(bytes);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(tau, dtau, tbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciFree(dev), trnsciSuccess);
    assert_int_equal(trnsciFree(dtau), trnsciSuccess);
    assert_int_equal(trnsciFree(info), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(handle), TRNSOLVER_STATUS_SUCCESS);
    trnsciDeviceReset();
    return got;
}

/* geqrf of square (S, D, C, Z), tall and wide (D) matrices: factors and
 * tau bitwise alike on 1 and 2 cores, and R (A's upper triangle after the
 * call) with |R| reproducing A's column norms: for every column j,
 * sum_i<=j |R_ij|^2 = ||A_j||^2 to within c m u ||A_j||^2 (Q is unitary;
 * Higham Thm 19.4), which a wrong reflector or a missed update breaks. */
static void test_tiled_qr(void **state) {
    (void)state;
    const int shapes[][2] = {{1300, 1300}, {1400, 800}, {800, 1400}};
    for (int k = 0; k < 4; k++)
        for (int q = 0; q < 3; q++) {
            const ty t = all_types[k];
            if (q && t != TY_D)
                continue;
            const int m = shapes[q][0], n = shapes[q][1], ld = m + 3, mn = m < n ? m : n;
            void *h = malloc((size_t)ld * n * esize(t));
            assert_non_null(h);
            st_rng = 0x7e57u + (uint32_t)q;
            for (size_t e = 0; e < (size_t)ld * n; e++)
                put(t, h, e, is_complex(t) ? st_uniform() + I * st_uniform() : st_uniform());
            void *tau[NDAEMONS], *got[NDAEMONS];
            for (int d = 0; d < NDAEMONS; d++) {
                tau[d] = malloc((size_t)mn * esize(t));
                assert_non_null(tau[d]);
                got[d] = qr_on(daemons[d].unix_addr, t, m, n, ld, h, tau[d]);
            }
            for (int d = 1; d < NDAEMONS; d++) {
                assert_memory_equal(tau[d], tau[0], (size_t)mn * esize(t));
                if (memcmp(got[0], got[d], (size_t)ld * n * esize(t)) != 0)
                    fail_msg("%s geqrf %dx%d: the factors on %d cores differ from 1 core's",
                             ty_name[t], m, n, d + 1);
            }
            const long double c = 8.0L * m * st_u(t) * (is_complex(t) ? 2.0L : 1.0L);
            for (int j = 0; j < n; j++) {
                long double an = 0, rn = 0;
                for (int i = 0; i < m; i++) {
                    an += creall(get(t, h, (size_t)j * ld + i) *
                                 conjl(get(t, h, (size_t)j * ld + i)));
                    if (i <= j)
                        rn += creall(get(t, got[0], (size_t)j * ld + i) *
                                     conjl(get(t, got[0], (size_t)j * ld + i)));
                }
                if (!(fabsl(an - rn) <= c * an))
                    fail_msg("%s geqrf %dx%d column %d: ||R_j||^2 = %Lg, ||A_j||^2 = %Lg",
                             ty_name[t], m, n, j, rn, an);
            }
            for (int d = 0; d < NDAEMONS; d++) {
                free(got[d]);
                free(tau[d]);
            }
            free(h);
        }
}

int main(void) {
    if (th_daemons_start(daemons, NDAEMONS, NULL) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_factors), cmocka_unit_test(test_tiled_not_spd),
        cmocka_unit_test(test_tiled_potri),   cmocka_unit_test(test_tiled_lu),
        cmocka_unit_test(test_tiled_qr),
    };
    int failed =
        cmocka_run_group_tests_name("tiled potrf, potri, getrf and geqrf", tests, NULL, NULL);
    failed += th_daemons_stop_checked(daemons, NDAEMONS, "trnscid");
    st_report("solver_tiled");
    return failed ? 1 : 0;
}
