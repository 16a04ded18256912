/*
 * test_solver_kpar.c — the steps of a CG, a BiCGStab or a GMRES run over
 * every core (ops/solver_kpar.h) and their CPU kernel, driven here as the
 * scheduler drives a looping sequence: SETUP once, then the looped steps
 * (CG: APPLY and UPDATE; BiCGStab: DIR, APPLY, HALF, APPLY, UPDATE; GMRES:
 * two of one fn) round after round
 * until a step returns TRN_KSTATUS_SEQ_DONE, each step's shards called one
 * after the other (in order, or backwards: any order the workers might
 * take them in).
 *
 * Checks:
 *  - the row blocks: a multiple of 512 rows in [512, 8192], a function of n
 *    alone; the shards' block runs are contiguous, cover every block once
 *    and are never empty while there are blocks for them;
 *  - which solves qualify (CG, BiCGStab, GMRES up to a restart of
 *    TRN_KGM_MAX_RESTART; S or D, no or Jacobi preconditioning, big enough)
 *    and which do not (a larger restart, SSOR, a small operator);
 *  - x, the iteration count, the status and the residual are bitwise the
 *    same for 1, 2, 3 and 7 shards, forwards and backwards (the fixed block
 *    order of every reduction), on a CSR and a dense operator, S and D, no
 *    and Jacobi preconditioning; the solve converges (recorded residual at
 *    most tol) in about the iterations of the one-kernel CG (the same
 *    method; only the rounding of its dots and of q = A p differ): within
 *    5 % + 2;
 *  - the same for BiCGStab (S and D, no and Jacobi, CSR and dense) on a
 *    nonsymmetric grid matrix (the neighbours east and west -1.3 and -0.7:
 *    a convection term), bitwise alike over 1, 2, 3 and 7 shards either
 *    way; converged within 10 % + 3 iterations of the one-kernel BiCGStab
 *    (the same method and stopping rule; its dots are whole-vector, so its
 *    rounding and its iteration count may differ a little);
 *  - BiCGStab's edges against the one-kernel solve: r^ . v = 0 at the first
 *    step (A the cyclic shift, b = e_0: v = e_{n-1}) is BREAKDOWN after 0
 *    iterations with x = 0 and residual 1, as the one-kernel solve says;
 *    max_iters 0 is MAX_ITERS after 0; b = 0 is x = 0, CONVERGED after 0;
 *    a NaN in b is NONFINITE; a limit of 4 is MAX_ITERS after 4, x within
 *    1e-10 of the one-kernel's;
 *  - GMRES(30), (7) and (1) the same way (within 10 % + 3 iterations of the
 *    one-kernel GMRES: classical Gram-Schmidt twice where needed against
 *    its modified one), and its edges against the one-kernel solve (b = 0,
 *    limits 0 and 4, a NaN, an invariant Krylov space with the exact x,
 *    one with no better x: BREAKDOWN);
 *  - an iteration limit ends it with MAX_ITERS after exactly that many;
 *  - the scratch starts as NaN bytes (the daemon's is not zeroed): nothing
 *    is read before it is written.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tests/common/checked_routines.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_kpar.h"

static void test_blocks(void **state) {
    (void)state;
    const int64_t ns[] = {1, 511, 512, 1000, 32768, 40000, 100000, 524288, 1000000, 1 << 30};
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
        const int64_t b = trn_kpar_block(ns[k]), nb = trn_kpar_nblocks(ns[k]);
        assert_true(b >= 512 && b <= 8192 && b % 512 == 0);
        assert_true(nb * b >= ns[k] && (nb - 1) * b < ns[k]);
        for (int S = 1; S <= 7; S++) {
            int64_t next = 0;
            for (int s = 0; s < S; s++) {
                int64_t lo, hi;
                trn_kpar_shard_blocks(nb, s, S, &lo, &hi);
                assert_int_equal(lo, next);
                assert_true(hi > lo || nb < S);
                next = hi;
            }
            assert_int_equal(next, nb);
        }
    }
    assert_int_equal(trn_kpar_block(1000000), 8192);
}

/* The shifted 5-point grid matrix (g x g) in CSR: 4.1 + 0.5 (i mod 7) on
 * the diagonal, -1 to the neighbours. */
typedef struct grid {
    int n, nnz;
    int32_t *rowptr, *col;
    double *vd;
    float *vs;
    double *dense_d;
    float *dense_s;
} grid;

static void make_grid(grid *m, int g, int dense, int skew) {
    const int n = g * g;
    memset(m, 0, sizeof(*m));
    m->n = n;
    m->rowptr = malloc(((size_t)n + 1) * sizeof(int32_t));
    m->col = malloc((size_t)n * 5 * sizeof(int32_t));
    m->vd = malloc((size_t)n * 5 * sizeof(double));
    m->vs = malloc((size_t)n * 5 * sizeof(float));
    assert_true(m->rowptr && m->col && m->vd && m->vs);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const int x = i % g, y = i / g;
        m->rowptr[i] = k;
        const int nb[5] = {y > 0 ? i - g : -1, x > 0 ? i - 1 : -1, i, x < g - 1 ? i + 1 : -1,
                           y < g - 1 ? i + g : -1};
        for (int e = 0; e < 5; e++)
            if (nb[e] >= 0) {
                m->col[k] = nb[e];
                m->vd[k] = nb[e] == i       ? 4.1 + 0.5 * (i % 7)
                           : !skew          ? -1.0
                           : nb[e] == i + 1 ? -1.3
                           : nb[e] == i - 1 ? -0.7
                                            : -1.0;
                m->vs[k] = (float)m->vd[k];
                k++;
            }
    }
    m->rowptr[n] = k;
    m->nnz = k;
    if (dense) {
        m->dense_d = calloc((size_t)n * n, sizeof(double));
        m->dense_s = calloc((size_t)n * n, sizeof(float));
        assert_true(m->dense_d && m->dense_s);
        for (int i = 0; i < n; i++)
            for (int p = m->rowptr[i]; p < m->rowptr[i + 1]; p++) {
                m->dense_d[(size_t)m->col[p] * n + i] = m->vd[p];
                m->dense_s[(size_t)m->col[p] * n + i] = m->vs[p];
            }
    }
}

static void free_grid(grid *m) {
    free(m->rowptr);
    free(m->col);
    free(m->vd);
    free(m->vs);
    free(m->dense_d);
    free(m->dense_s);
}

static trn_solver_fn method = TRN_SOLVER_CG; /* what whole() makes */
static int restart = 30;                     /* and its GMRES's restart */

static trn_solver_krylov_desc whole(const grid *m, trn_dtype t, int dense, int pc, const void *b,
                                    void *x, trn_solver_stats *st, int maxit) {
    trn_solver_krylov_desc d;
    memset(&d, 0, sizeof(d));
    d.fn = method;
    d.type = t;
    d.op.n = m->n;
    if (dense) {
        d.op.kind = TRN_LINOP_DENSE;
        d.op.a = t == TRN_DTYPE_R32F ? (const void *)m->dense_s : (const void *)m->dense_d;
        d.op.lda = m->n;
    } else {
        d.op.kind = TRN_LINOP_SPARSE;
        trn_sp_mat *s = &d.op.sp;
        s->format = TRN_SP_CSR;
        s->type = t;
        s->rows = s->cols = s->brows = s->bcols = m->n;
        s->nnz = m->nnz;
        s->rb = s->cb = 1;
        s->offsets = m->rowptr;
        s->indices = m->col;
        s->values = t == TRN_DTYPE_R32F ? (void *)m->vs : (void *)m->vd;
        s->batch = 1;
    }
    d.b = b;
    d.x = x;
    d.tol = t == TRN_DTYPE_R32F ? 1e-5 : 1e-10;
    d.max_iters = maxit;
    d.restart = restart;
    d.precond = pc ? TRN_PRECOND_JACOBI : TRN_PRECOND_NONE;
    d.stats = st;
    return d;
}

/* Runs the sequence of w with every step cut into S shards (backwards:
 * called last shard first), as the scheduler would. */
static void run_sequence(const trn_solver_krylov_desc *w, int S, int backwards) {
    trn_kpar_layout l;
    assert_int_equal(trn_kpar_layout_of(w, &l), 0);
    /* The daemon's scratch is not zeroed (daemon/op_scratch.h): NaN bytes
     * here, so that reading anything not written first shows. */
    void *scratch = malloc(l.total);
    assert_non_null(scratch);
    memset(scratch, 0xff, l.total);
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    trn_solver_krylov_desc d = trn_kpar_step(w, 0, scratch, l.total);
    trn_kstatus k = trn_cpu_solver_krylov(&d, &msg, 0, 1);
    assert_true(k == TRN_KSTATUS_OK || k == TRN_KSTATUS_SEQ_DONE);
    const int64_t nblk = trn_kpar_nblocks(w->op.n);
    const int shards = nblk < S ? (int)nblk : S;
    long rounds = 0;
    const int first = trn_kpar_loop_first(w), last = trn_kpar_loop_last(w);
    while (k != TRN_KSTATUS_SEQ_DONE) {
        /* The loop ends: GMRES takes two or three steps per column and
         * two per restart, of two steps a round. */
        assert_true(rounds++ < 3L * w->max_iters + 8);
        for (int s = first; s <= last && k != TRN_KSTATUS_SEQ_DONE; s++) {
            d = trn_kpar_step(w, s, scratch, l.total);
            trn_kstatus step = TRN_KSTATUS_OK;
            for (int j = 0; j < shards; j++) {
                const trn_kstatus r =
                    trn_cpu_solver_krylov(&d, &msg, backwards ? shards - 1 - j : j, shards);
                assert_true(r == TRN_KSTATUS_OK || r == TRN_KSTATUS_SEQ_DONE);
                if (j > 0)
                    assert_int_equal(r, step); /* every shard takes the same decision */
                step = r;
            }
            k = step;
        }
    }
    free(scratch);
}

static void check_alike(const grid *m, trn_dtype t, int dense, int pc, int maxit) {
    const int n = m->n;
    const size_t es = t == TRN_DTYPE_R32F ? sizeof(float) : sizeof(double);
    char *b = malloc((size_t)n * es), *x0 = calloc((size_t)n, es), *x = malloc((size_t)n * es);
    assert_true(b && x0 && x);
    uint64_t rng = 88172645463325252ULL;
    for (int i = 0; i < n; i++) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        const double v = (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (t == TRN_DTYPE_R32F)
            ((float *)b)[i] = (float)v;
        else
            ((double *)b)[i] = v;
    }
    trn_solver_stats st0, st;
    const int S[] = {1, 2, 3, 7};
    for (int k = 0; k < 4; k++)
        for (int back = 0; back < (S[k] > 1 ? 2 : 1); back++) {
            memset(x, 0, (size_t)n * es);
            memset(&st, 0xff, sizeof(st));
            const trn_solver_krylov_desc w = whole(m, t, dense, pc, b, x, &st, maxit);
            assert_true(trn_kpar_nblocks(n) >= 2);
            run_sequence(&w, S[k], back);
            if (k == 0) {
                memcpy(x0, x, (size_t)n * es);
                st0 = st;
                continue;
            }
            if (memcmp(&st, &st0, sizeof(st)) != 0 || memcmp(x, x0, (size_t)n * es) != 0)
                fail_msg("type %d dense %d precond %d: %d shards%s differ from 1 (%d iterations, "
                         "%.17g; 1 shard: %d, %.17g)",
                         (int)t, dense, pc, S[k], back ? " backwards" : "", st.iterations,
                         st.residual, st0.iterations, st0.residual);
        }
    /* The one-kernel solve on the same problem. */
    trn_solver_stats one;
    memset(x, 0, (size_t)n * es);
    const trn_solver_krylov_desc w = whole(m, t, dense, pc, b, x, &one, maxit);
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    assert_int_equal(trn_cpu_solver_krylov(&w, &msg, 0, 1), TRN_KSTATUS_OK);
    if (maxit < 100) {
        assert_int_equal(st0.status, TRN_SOLVER_ST_MAX_ITERS);
        assert_int_equal(st0.iterations, maxit);
    } else {
        assert_int_equal(st0.status, TRN_SOLVER_ST_CONVERGED);
        assert_true(st0.residual <= w.tol);
        assert_int_equal(one.status, TRN_SOLVER_ST_CONVERGED);
        if (method == TRN_SOLVER_CG)
            assert_true(abs(st0.iterations - one.iterations) <= 2 + one.iterations / 20);
        else if (abs(st0.iterations - one.iterations) > 3 + one.iterations / 10)
            fail_msg("%s type %d dense %d precond %d: %d iterations, one kernel %d",
                     trn_solver_name(method, t), (int)t, dense, pc, st0.iterations, one.iterations);
    }
    free(b);
    free(x0);
    free(x);
}

static void test_alike(void **state) {
    (void)state;
    method = TRN_SOLVER_CG;
    grid m;
    make_grid(&m, 100, 0, 0); /* n = 10000: 20 blocks of 512 */
    for (int t = 0; t < 2; t++)
        for (int pc = 0; pc < 2; pc++)
            check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 0, pc, 1000);
    check_alike(&m, TRN_DTYPE_R64F, 0, 0, 7);
    free_grid(&m);
    make_grid(&m, 40, 1, 0); /* n = 1600: 4 blocks of 512, the last 64 */
    for (int t = 0; t < 2; t++)
        check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 1, t, 1000);
    free_grid(&m);
}

static void test_eligible(void **state) {
    (void)state;
    grid m;
    make_grid(&m, 400, 0, 0); /* ~800k entries */
    double b = 0, x = 0;
    trn_solver_krylov_desc d = whole(&m, TRN_DTYPE_R64F, 0, 1, &b, &x, NULL, 10);
    assert_true(trn_kpar_eligible(&d));
    d.type = TRN_DTYPE_R32F;
    assert_true(trn_kpar_eligible(&d));
    d.precond = TRN_PRECOND_SSOR; /* sequential sweeps: one kernel */
    assert_false(trn_kpar_eligible(&d));
    d.precond = TRN_PRECOND_NONE;
    d.fn = TRN_SOLVER_GMRES;
    d.restart = TRN_KGM_MAX_RESTART;
    assert_true(trn_kpar_eligible(&d));
    assert_int_equal(trn_kpar_nsteps(&d), TRN_KGM_STEPS);
    d.restart = TRN_KGM_MAX_RESTART + 1; /* a larger basis: one kernel */
    assert_false(trn_kpar_eligible(&d));
    d.fn = TRN_SOLVER_BICGSTAB;
    assert_true(trn_kpar_eligible(&d));
    assert_int_equal(trn_kpar_nsteps(&d), TRN_KBI_STEPS);
    d.precond = TRN_PRECOND_BLOCK_JACOBI;
    assert_false(trn_kpar_eligible(&d));
    d.precond = TRN_PRECOND_JACOBI;
    d.type = TRN_DTYPE_C64F;
    assert_false(trn_kpar_eligible(&d));
    d.type = TRN_DTYPE_R64F;
    d.op.sp.nnz = TRN_KPAR_MIN_ELEMS - 1; /* small */
    assert_false(trn_kpar_eligible(&d));
    d.fn = TRN_SOLVER_CG;
    assert_false(trn_kpar_eligible(&d));
    free_grid(&m);
}

/* BiCGStab on the nonsymmetric grid: bitwise alike over the shard counts,
 * and converged as the one-kernel BiCGStab. */
static void test_bicg_alike(void **state) {
    (void)state;
    method = TRN_SOLVER_BICGSTAB;
    grid m;
    make_grid(&m, 100, 0, 1);
    for (int t = 0; t < 2; t++)
        for (int pc = 0; pc < 2; pc++)
            check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 0, pc, 1000);
    check_alike(&m, TRN_DTYPE_R64F, 0, 1, 7);
    check_alike(&m, TRN_DTYPE_R32F, 0, 0, 3);
    free_grid(&m);
    make_grid(&m, 40, 1, 1);
    for (int t = 0; t < 2; t++)
        check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 1, !t, 1000);
    free_grid(&m);
    method = TRN_SOLVER_CG;
}

/* GMRES(restart) on the nonsymmetric grid, as BiCGStab above; restart 1
 * (every column a cycle), 7 and 30, and one cycle cut by the limit. */
static void test_gmres_alike(void **state) {
    (void)state;
    method = TRN_SOLVER_GMRES;
    grid m;
    make_grid(&m, 100, 0, 1);
    for (int t = 0; t < 2; t++)
        for (int pc = 0; pc < 2; pc++)
            check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 0, pc, 1000);
    restart = 7;
    check_alike(&m, TRN_DTYPE_R64F, 0, 1, 1000);
    restart = 1;
    check_alike(&m, TRN_DTYPE_R64F, 0, 0, 1000);
    restart = 30;
    check_alike(&m, TRN_DTYPE_R64F, 0, 0, 11);
    free_grid(&m);
    make_grid(&m, 40, 1, 1);
    for (int t = 0; t < 2; t++)
        check_alike(&m, t ? TRN_DTYPE_R32F : TRN_DTYPE_R64F, 1, !t, 1000);
    free_grid(&m);
    method = TRN_SOLVER_CG;
}

/* Runs the method's solve of (m, b) over 3 shards and as one kernel from
 * x = 0; both records and x must mean the same. */
static void edge_vs_one_kernel(const grid *m, const double *b, int maxit, int want, int want_it) {
    const int n = m->n;
    double *x = calloc((size_t)n, sizeof(double)), *x1 = calloc((size_t)n, sizeof(double));
    assert_true(x && x1);
    trn_solver_stats st, one;
    memset(&st, 0xff, sizeof(st));
    trn_solver_krylov_desc w = whole(m, TRN_DTYPE_R64F, 0, 0, b, x, &st, maxit);
    w.tol = 1e-10;
    run_sequence(&w, 3, 1);
    w = whole(m, TRN_DTYPE_R64F, 0, 0, b, x1, &one, maxit);
    w.tol = 1e-10;
    trn_kmsg msg;
    trn_kmsg_init(&msg);
    assert_int_equal(trn_cpu_solver_krylov(&w, &msg, 0, 1), TRN_KSTATUS_OK);
    if (st.status != want || st.iterations != want_it || one.status != want ||
        one.iterations != want_it)
        fail_msg("%s edge: status %d after %d (one kernel %d after %d), want %d after %d",
                 trn_solver_name(method, TRN_DTYPE_R64F), st.status, st.iterations, one.status,
                 one.iterations, want, want_it);
    if (isnan(one.residual))
        assert_true(isnan(st.residual));
    else
        assert_true(st.residual == one.residual ||
                    fabs(st.residual - one.residual) <= 1e-12 * fabs(one.residual));
    if (want_it == 0 && want != TRN_SOLVER_ST_NONFINITE) {
        assert_memory_equal(x, x1, (size_t)n * sizeof(double));
    } else if (want != TRN_SOLVER_ST_NONFINITE) {
        /* The scalars differ by a few u (both dots accurate, grouped
         * differently); four iterations on this A (its symmetric part has
         * eigenvalues in [0.1, 11.1], Gershgorin: kappa_2 <= 111) carry
         * that to at most ~4 kappa few u, well under 1e-10 of max |x|. */
        double e = 0, xm = 0;
        for (int i = 0; i < n; i++) {
            e = fmax(e, fabs(x[i] - x1[i]));
            xm = fmax(xm, fabs(x1[i]));
        }
        assert_true(e <= 1e-10 * xm);
    }
    free(x);
    free(x1);
}

/* The edges every method has, against the one-kernel solve of the grid m
 * (n = 1600): b = 0 (x = 0, CONVERGED after 0); limits of 0 and 4 (MAX_ITERS
 * after that many, x within 1e-10 of the one kernel's); a NaN in b
 * (NONFINITE). Leaves method set and b zeroed. */
static void shared_edges(trn_solver_fn fn, const grid *m, double *b) {
    const int n = m->n;
    method = fn;
    memset(b, 0, (size_t)n * sizeof(double));
    edge_vs_one_kernel(m, b, 100, TRN_SOLVER_ST_CONVERGED, 0);
    for (int i = 0; i < n; i++)
        b[i] = 1.0 + (i % 5);
    edge_vs_one_kernel(m, b, 0, TRN_SOLVER_ST_MAX_ITERS, 0);
    edge_vs_one_kernel(m, b, 4, TRN_SOLVER_ST_MAX_ITERS, 4);
    b[n / 2] = NAN;
    edge_vs_one_kernel(m, b, 100, TRN_SOLVER_ST_NONFINITE, 0);
    memset(b, 0, (size_t)n * sizeof(double));
}

static void test_bicg_edges(void **state) {
    (void)state;
    grid m;
    make_grid(&m, 40, 0, 1); /* n = 1600 */
    const int n = m.n;
    double *b = calloc((size_t)n, sizeof(double));
    assert_non_null(b);
    shared_edges(TRN_SOLVER_BICGSTAB, &m, b);
    /* The cyclic shift A e_j = e_{j-1}: with b = e_0, v = A b = e_{n-1} is
     * orthogonal to r^ = b, exactly. */
    for (int i = 0; i < n; i++) {
        m.rowptr[i] = i;
        m.col[i] = (i + 1) % n;
        m.vd[i] = 1.0;
    }
    m.rowptr[n] = n;
    m.nnz = n;
    b[0] = 1.0;
    edge_vs_one_kernel(&m, b, 100, TRN_SOLVER_ST_BREAKDOWN, 0);
    method = TRN_SOLVER_CG;
    free(b);
    free_grid(&m);
}

/* GMRES's edges against the one-kernel solve: b = 0; limits of 0 and 4
 * (MAX_ITERS, x within 1e-10 of the one kernel's); a NaN in b; the Krylov
 * space invariant at once (A diagonal, b = e_5: one column, h_{1,0} = 0,
 * the exact x: CONVERGED after 1); and an invariant space that holds no
 * better x (A the nilpotent shift A e_j = e_{j-1}, A e_0 = 0, b = e_0:
 * A b = 0, so h_{0,0} = h_{1,0} = 0, y = 0 and x stays 0: BREAKDOWN after
 * 1, residual 1). */
static void test_gmres_edges(void **state) {
    (void)state;
    grid m;
    make_grid(&m, 40, 0, 1); /* n = 1600 */
    const int n = m.n;
    double *b = calloc((size_t)n, sizeof(double));
    assert_non_null(b);
    shared_edges(TRN_SOLVER_GMRES, &m, b);
    b[5] = 2.0;
    for (int i = 0; i < n; i++) { /* diagonal */
        m.rowptr[i] = i;
        m.col[i] = i;
        m.vd[i] = 1.0 + (i % 3);
    }
    m.rowptr[n] = n;
    m.nnz = n;
    edge_vs_one_kernel(&m, b, 100, TRN_SOLVER_ST_CONVERGED, 1);
    for (int i = 0; i < n; i++) { /* the nilpotent shift: column 0, row n - 1 empty */
        m.rowptr[i] = i;
        m.col[i] = i + 1 < n ? i + 1 : 0;
        m.vd[i] = 1.0;
    }
    m.rowptr[n] = n - 1;
    m.nnz = n - 1;
    memset(b, 0, (size_t)n * sizeof(double));
    b[0] = 1.0;
    edge_vs_one_kernel(&m, b, 100, TRN_SOLVER_ST_BREAKDOWN, 1);
    method = TRN_SOLVER_CG;
    free(b);
    free_grid(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks),      cmocka_unit_test(test_eligible),
        cmocka_unit_test(test_alike),       cmocka_unit_test(test_bicg_alike),
        cmocka_unit_test(test_bicg_edges),  cmocka_unit_test(test_gmres_alike),
        cmocka_unit_test(test_gmres_edges),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
