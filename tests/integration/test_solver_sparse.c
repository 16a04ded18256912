/*
 * test_solver_sparse.c — trnsolver's Krylov solvers (CG, GMRES(30),
 * BiCGStab) on trnsparse CSR and BSR operators (trnsolverCreateSparseOperator)
 * through a real trnscid over the local transport and gRPC over TCP, with
 * no, Jacobi, block-Jacobi (16 x 16 blocks) and SSOR (omega 1.3)
 * preconditioning.
 *
 * Problems (a 32 x 32 interior grid, n = 1024, Dirichlet boundaries, the
 * matrix scaled by h^2): the 2D Poisson matrix (5-point Laplacian, SPD) and
 * a non-symmetric convection-diffusion matrix with first-order upwind
 * convection at grid Peclet numbers 10 (x) and 5 (y). b = A 1 + 0.1 noise,
 * x0 = 0. Each is stored as CSR (int32, base 0), BSR with 4 x 4 blocks
 * (int32, base 0, column-major blocks, explicit zeros inside blocks), and,
 * for the format paths only, CSR with int64 indices and base 1 and BSR with
 * 2 x 2 row-major blocks (int64, base 1). Every solver x preconditioner that
 * applies runs (CG on Poisson only), in FP32 (tolerance 1e-4) and FP64
 * (1e-10).
 *
 * Checks, against references independent of the daemon:
 *  - status CONVERGED and the TRUE relative residual ||b - A x||_2 / ||b||_2
 *    recomputed here in long double from the stored A, b and the returned x.
 *    The daemon stops on its own residual, computed in the working
 *    precision u: each component of fl(b - A x) is within gamma_{k+1}
 *    (|b| + |A||x|) of the exact one (Higham, Accuracy and Stability,
 *    §3.5), k the most stored entries of a row of the operator as the
 *    kernel walks it (5 for CSR; 12 to 20 with the explicit zeros of BSR),
 *    and the norm is taken in double (negligible). So the true residual
 *    must be at most tol + e and within e of the recorded residual, with
 *    e = gamma_{k+1} || |b| + |A||x| ||_2 / ||b||_2 computed here per solve.
 *  - iterations against scipy.sparse.linalg's (solver_sparse_ref.py under
 *    Debian's python3, same matrix as stored, same b, tolerance,
 *    preconditioner and restart; run once): at most 2 x scipy's + 10 (FP32
 *    rounding and a different GMRES preconditioning side may cost some
 *    iterations; a broken preconditioner or operator costs far more, or
 *    never converges). SSOR must cut CG's iterations on Poisson.
 *  - bad input: a non-square or COO matrix, a NULL descriptor, a type
 *    mismatch (INVALID_VALUE at the call); garbage row offsets and column
 *    indices in CSR and BSR (the call succeeds: contents are not arguments;
 *    the next synchronize fails with trnsciErrorInvalidValue and a message
 *    naming the array and position), after which the daemon still solves.
 */
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
#include "trnsci/trnsparse.h"

static th_daemon daemon_under_test;

#define GRID 32
#define NK (GRID * GRID)
#define NNZ_MAX (5 * NK)

/* A host CSR matrix in long double (values as the type stores them). */
typedef struct lcsr {
    int64_t rowptr[NK + 1];
    int col[NNZ_MAX];
    long double val[NNZ_MAX];
} lcsr;

enum { M_POISSON, M_CONV, NMAT };
static const char *const mname[] = {"poisson", "convection"};
static const char *const pname[] = {"none", "jacobi", "bjacobi16", "ssor1.3"};
#define NPC 4

/* Formats: the first two run every combination, the last two one each. */
typedef struct fmt {
    const char *name;
    int bsr, bs, idx64, base, row_major;
} fmt;
static const fmt fmts[] = {
    {"csr", 0, 1, 0, 0, 0},
    {"bsr4", 1, 4, 0, 0, 0},
    {"csr-i64-base1", 0, 1, 1, 1, 0},
    {"bsr2-row-i64-base1", 1, 2, 1, 1, 1},
};

/* The problems, as each type stores them, and scipy's iteration counts. */
static lcsr *prob[NMAT][2];
static long double *rhs[NMAT][2];
static int ref_iters[NMAT][2][NMETH][NPC];

static int ty_i(ty t) {
    return t == TY_S ? 0 : 1;
}

static long double round_to(ty t, long double v) {
    return t == TY_S ? (long double)(float)v : (long double)(double)v;
}

/* The 5-point operator with upwind convection (grid Peclet px, py): -1 - px
 * west, -1 - py south, -1 east and north, 4 + px + py on the diagonal;
 * columns in increasing order. */
static lcsr *grid_csr(ty t, long double px, long double py) {
    lcsr *a = calloc(1, sizeof(*a));
    assert_non_null(a);
    int64_t q = 0;
    for (int y = 0; y < GRID; y++)
        for (int x = 0; x < GRID; x++) {
            const int i = y * GRID + x;
            const struct {
                int ok, j;
                long double v;
            } e[5] = {
                {y > 0, i - GRID, -1.0L - py},   {x > 0, i - 1, -1.0L - px},
                {1, i, 4.0L + px + py},          {x < GRID - 1, i + 1, -1.0L},
                {y < GRID - 1, i + GRID, -1.0L},
            };
            for (int k = 0; k < 5; k++)
                if (e[k].ok) {
                    a->col[q] = e[k].j;
                    a->val[q++] = round_to(t, e[k].v);
                }
            a->rowptr[i + 1] = q;
        }
    return a;
}

/* ---- device copies in each format ---------------------------------------------------- */

typedef struct dev_mat {
    void *off, *idx, *val;
    trnsparseSpMatDescr_t descr;
    int maxrow; /* most stored entries of an element row (explicit zeros included) */
} dev_mat;

static void *upload(const void *host, size_t bytes) {
    void *d;
    assert_int_equal(trnsciMalloc(&d, bytes ? bytes : 8), trnsciSuccess);
    if (bytes)
        assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void put_index(void *p, int64_t k, int64_t v, int idx64) {
    if (idx64)
        ((int64_t *)p)[k] = v;
    else
        ((int32_t *)p)[k] = (int32_t)v;
}

/* Uploads a in format f and type t; corrupt (may be NULL) edits the host
 * arrays (offsets, indices) before the upload. */
static void make_dev(const lcsr *a, ty t, const fmt *f, dev_mat *d,
                     void (*corrupt)(void *off, void *idx, int idx64)) {
    const size_t is = f->idx64 ? 8 : 4, es = esize(t);
    const int bs = f->bs, nb = NK / bs;
    /* Block structure: block (I, J) is stored when any entry falls in it. */
    int *mark = malloc((size_t)nb * sizeof(int));
    int64_t *bptr = calloc((size_t)nb + 1, sizeof(int64_t));
    int *bcol = malloc((size_t)NNZ_MAX * sizeof(int));
    assert_true(mark && bptr && bcol);
    for (int j = 0; j < nb; j++)
        mark[j] = -1;
    int64_t nnzb = 0;
    for (int bi = 0; bi < nb; bi++) {
        const int64_t start = nnzb;
        for (int i = bi * bs; i < (bi + 1) * bs; i++)
            for (int64_t p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
                if (mark[a->col[p] / bs] != bi) {
                    mark[a->col[p] / bs] = bi;
                    bcol[nnzb++] = a->col[p] / bs;
                }
        for (int64_t x = start + 1; x < nnzb; x++) /* insertion sort: few blocks per row */
            for (int64_t y = x; y > start && bcol[y - 1] > bcol[y]; y--) {
                const int tmp = bcol[y];
                bcol[y] = bcol[y - 1];
                bcol[y - 1] = tmp;
            }
        bptr[bi + 1] = nnzb;
    }
    const size_t bsz = (size_t)bs * (size_t)bs;
    void *off = calloc((size_t)nb + 1, is), *idx = calloc((size_t)nnzb, is);
    void *val = calloc((size_t)nnzb * bsz, es);
    assert_true(off && idx && val);
    d->maxrow = 0;
    for (int bi = 0; bi <= nb; bi++)
        put_index(off, bi, bptr[bi] + f->base, f->idx64);
    for (int bi = 0; bi < nb; bi++) {
        const int row = (int)(bptr[bi + 1] - bptr[bi]) * bs;
        d->maxrow = row > d->maxrow ? row : d->maxrow;
        for (int64_t p = bptr[bi]; p < bptr[bi + 1]; p++) {
            put_index(idx, p, bcol[p] + f->base, f->idx64);
            for (int ii = 0; ii < bs; ii++) {
                const int i = bi * bs + ii;
                for (int64_t q = a->rowptr[i]; q < a->rowptr[i + 1]; q++) {
                    if (a->col[q] / bs != bcol[p])
                        continue;
                    const int jj = a->col[q] % bs;
                    const size_t e = f->row_major ? (size_t)ii * bs + jj : (size_t)jj * bs + ii;
                    put(t, val, (size_t)p * bsz + e, a->val[q]);
                }
            }
        }
    }
    if (corrupt)
        corrupt(off, idx, f->idx64);
    d->off = upload(off, ((size_t)nb + 1) * is);
    d->idx = upload(idx, (size_t)nnzb * is);
    d->val = upload(val, (size_t)nnzb * bsz * es);
    const trnsparseIndexType_t it = f->idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t base =
        f->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    const trnsciDataType vt = t == TY_S ? TRNSCI_R_32F : TRNSCI_R_64F;
    if (f->bsr)
        assert_int_equal(
            trnsparseCreateBsr(&d->descr, nb, nb, nnzb, bs, bs, d->off, d->idx, d->val, it, it,
                               base, vt, f->row_major ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL),
            TRNSPARSE_STATUS_SUCCESS);
    else
        assert_int_equal(
            trnsparseCreateCsr(&d->descr, NK, NK, nnzb, d->off, d->idx, d->val, it, it, base, vt),
            TRNSPARSE_STATUS_SUCCESS);
    free(mark);
    free(bptr);
    free(bcol);
    free(off);
    free(idx);
    free(val);
}

static void free_dev(dev_mat *d) {
    assert_int_equal(trnsparseDestroySpMat(d->descr), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(d->off), trnsciSuccess);
    assert_int_equal(trnsciFree(d->idx), trnsciSuccess);
    assert_int_equal(trnsciFree(d->val), trnsciSuccess);
}

/* ---- the scipy reference --------------------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *ext, const void *p,
                       size_t bytes) {
    char path[600];
    snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(p, 1, bytes, fp), bytes);
    fclose(fp);
}

static double tol_of(ty t) {
    return t == TY_S ? 1e-4 : 1e-10;
}

/* Builds the problems and runs solver_sparse_ref.py once for all solves. */
static int make_problems(void) {
    char dir[] = "/tmp/trnsci-solver-sparse-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char path[600];
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    FILE *man = fopen(path, "w");
    if (!man)
        return -1;
    st_rng = 0x50a75e5eULL;
    for (int m = 0; m < NMAT; m++)
        for (int ti = 0; ti < 2; ti++) {
            const ty t = ti ? TY_D : TY_S;
            lcsr *a = m == M_POISSON ? grid_csr(t, 0, 0) : grid_csr(t, 10.0L, 5.0L);
            long double *b = calloc(NK, sizeof(long double));
            double *bd = calloc(NK, sizeof(double)), *vd = calloc(NNZ_MAX, sizeof(double));
            int32_t *cd = calloc(NNZ_MAX, sizeof(int32_t));
            assert_true(b && bd && vd && cd);
            for (int i = 0; i < NK; i++) {
                long double s = 0;
                for (int64_t p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
                    s += a->val[p];
                b[i] = round_to(t, s + 0.1L * st_uniform());
                bd[i] = (double)b[i];
            }
            const int64_t nnz = a->rowptr[NK];
            for (int64_t p = 0; p < nnz; p++) {
                vd[p] = (double)a->val[p];
                cd[p] = a->col[p];
            }
            char name[32];
            snprintf(name, sizeof(name), "%s_%d", mname[m], ti);
            write_file(dir, name, "rowptr", a->rowptr, sizeof(a->rowptr));
            write_file(dir, name, "col", cd, (size_t)nnz * sizeof(int32_t));
            write_file(dir, name, "val", vd, (size_t)nnz * sizeof(double));
            write_file(dir, name, "b", bd, NK * sizeof(double));
            for (int k = 0; k < NMETH; k++)
                for (int pc = 0; pc < NPC; pc++)
                    if (k != K_CG || m == M_POISSON)
                        fprintf(man, "%s %s %s %g\n", name, kname[k], pname[pc], tol_of(t));
            prob[m][ti] = a;
            rhs[m][ti] = b;
            free(bd);
            free(vd);
            free(cd);
        }
    fclose(man);
    const char *const argv[] = {PYTHON3, SOLVER_SPARSE_REF_PY, dir, NULL};
    const int rc = th_run(argv, NULL);
    snprintf(path, sizeof(path), "%s/out.txt", dir);
    FILE *out = rc == 0 ? fopen(path, "r") : NULL;
    int bad = !out;
    for (int m = 0; m < NMAT && !bad; m++)
        for (int ti = 0; ti < 2 && !bad; ti++)
            for (int k = 0; k < NMETH && !bad; k++)
                for (int pc = 0; pc < NPC && !bad; pc++) {
                    if (k == K_CG && m != M_POISSON)
                        continue;
                    double rel;
                    bad = fscanf(out, "%d %lg", &ref_iters[m][ti][k][pc], &rel) != 2 ||
                          !(rel <= 1.01 * tol_of(ti ? TY_D : TY_S));
                }
    if (out)
        fclose(out);
    th_remove_dir(dir);
    if (bad)
        fprintf(stderr, "solver_sparse_ref.py failed (exit %d)\n", rc);
    return bad ? -1 : 0;
}

/* ---- solves ---------------------------------------------------------------------------- */

/* The device vectors of one problem: b, x, the record. */
typedef struct vecs {
    void *b, *x;
    trnsolverIterResult_t *res;
} vecs;

static vecs make_vecs(ty t, const long double *b) {
    vecs v;
    void *bh = malloc(NK * esize(t));
    assert_non_null(bh);
    for (int i = 0; i < NK; i++)
        put(t, bh, (size_t)i, b[i]);
    v.b = upload(bh, NK * esize(t));
    assert_int_equal(trnsciMalloc(&v.x, NK * esize(t)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&v.res, sizeof(*v.res)), trnsciSuccess);
    free(bh);
    return v;
}

static void free_vecs(vecs *v) {
    assert_int_equal(trnsciFree(v->b), trnsciSuccess);
    assert_int_equal(trnsciFree(v->x), trnsciSuccess);
    assert_int_equal(trnsciFree(v->res), trnsciSuccess);
}

/* One solve from x = 0, checked as the file comment says; returns the
 * iterations. */
static int solve(trnsolverDnHandle_t h, ty t, int m, const fmt *f, const dev_mat *d, const vecs *v,
                 kmethod k, int pc) {
    const lcsr *a = prob[m][ty_i(t)];
    const long double *b = rhs[m][ty_i(t)];
    const double tol = tol_of(t);
    trnsolverOperator_t op;
    assert_int_equal(trnsolverCreateSparseOperator(&op, d->descr), TRNSOLVER_STATUS_SUCCESS);
    trnsolverIterParams_t p;
    assert_int_equal(trnsolverCreateIterParams(&p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetTolerance(p, tol), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverIterParamsSetPreconditioner(p, (trnsolverPrecond_t)pc, 16,
                                                          pc == TRNSOLVER_PRECOND_SSOR ? 1.3 : 0.0),
                     TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciMemset(v->x, 0, NK * esize(t)), trnsciSuccess);
    assert_int_equal(call_krylov(h, t, k, op, v->b, v->x, p, v->res), TRNSOLVER_STATUS_SUCCESS);
    const trnsolverIterResult_t r = read_result(v->res);
    void *xh = malloc(NK * esize(t));
    assert_non_null(xh);
    assert_int_equal(trnsciMemcpy(xh, v->x, NK * esize(t), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    long double rn = 0, bn = 0, en = 0;
    for (int i = 0; i < NK; i++) {
        long double s = b[i], mag = fabsl(b[i]);
        for (int64_t q = a->rowptr[i]; q < a->rowptr[i + 1]; q++) {
            const long double xv = creall(get(t, xh, (size_t)a->col[q]));
            s -= a->val[q] * xv;
            mag += fabsl(a->val[q] * xv);
        }
        rn += s * s;
        bn += b[i] * b[i];
        en += mag * mag;
    }
    const long double rel = sqrtl(rn / bn);
    const long double e = st_gamma(t, d->maxrow + 1) * sqrtl(en / bn);
    const int want = ref_iters[m][ty_i(t)][k][pc];
    if (r.status != TRNSOLVER_ITER_CONVERGED || !(rel <= tol + e) ||
        !(fabsl(rel - r.residual) <= e + 1e-3L * rel) || r.iterations > 2 * want + 10)
        fail_msg("%s %s %s %s precond %s: status %d after %d iterations (scipy %d), recorded "
                 "residual %g, true %Lg (tolerance %g + rounding %Lg)",
                 ty_name[t], mname[m], f->name, kname[k], pname[pc], r.status, r.iterations, want,
                 r.residual, rel, tol, e);
    char name[80];
    snprintf(name, sizeof(name), "%s %s true residual / (tol + e)", ty_name[t], kname[k]);
    st_note(name, rel / (tol + e), 1.0L);
    snprintf(name, sizeof(name), "%s iterations / scipy's", kname[k]);
    st_note(name, (long double)r.iterations / (want > 0 ? want : 1), 2.0L);
    free(xh);
    assert_int_equal(trnsolverDestroyIterParams(p), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    return r.iterations;
}

/* Every solver x preconditioner of matrix m in the main formats (the first
 * transport; the second runs FP64 block-Jacobi only) and one solve in each
 * of the other formats. */
static void run_matrix(int m) {
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    for (int ti = 0; ti < 2; ti++) {
        const ty t = ti ? TY_D : TY_S;
        vecs v = make_vecs(t, rhs[m][ti]);
        for (size_t fi = 0; fi < sizeof(fmts) / sizeof(fmts[0]); fi++) {
            const fmt *f = &fmts[fi];
            const int main_fmt = fi < 2;
            if (!st_full && (!main_fmt || t == TY_S))
                continue;
            dev_mat d;
            make_dev(prob[m][ti], t, f, &d, NULL);
            for (int k = 0; k < NMETH; k++) {
                if (k == K_CG && m != M_POISSON)
                    continue;
                int its[NPC] = {0};
                for (int pc = 0; pc < NPC; pc++) {
                    const int one = pc == TRNSOLVER_PRECOND_BLOCK_JACOBI && k == K_BICGSTAB;
                    if ((!main_fmt || !st_full) && !one)
                        continue;
                    its[pc] = solve(h, t, m, f, &d, &v, (kmethod)k, pc);
                }
                if (k == K_CG && main_fmt && st_full &&
                    !(its[TRNSOLVER_PRECOND_SSOR] < its[TRNSOLVER_PRECOND_NONE]))
                    fail_msg("%s %s cg: SSOR took %d iterations, none %d", ty_name[t], f->name,
                             its[TRNSOLVER_PRECOND_SSOR], its[TRNSOLVER_PRECOND_NONE]);
            }
            free_dev(&d);
        }
        free_vecs(&v);
    }
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

static void test_poisson(void **state) {
    (void)state;
    run_matrix(M_POISSON);
}

static void test_convection(void **state) {
    (void)state;
    run_matrix(M_CONV);
}

/* ---- bad input ------------------------------------------------------------------------- */

static void corrupt_first(void *off, void *idx, int idx64) {
    (void)idx;
    put_index(off, 0, 1, idx64); /* base 0: must be 0 */
}
static void corrupt_decreasing(void *off, void *idx, int idx64) {
    (void)idx;
    put_index(off, 5, 3, idx64); /* below off[4] */
}
static void corrupt_past_nnz(void *off, void *idx, int idx64) {
    (void)idx;
    put_index(off, 9, 1000000, idx64);
}
static void corrupt_col(void *off, void *idx, int idx64) {
    (void)off;
    put_index(idx, 7, 5000, idx64);
}
static void corrupt_negative_col(void *off, void *idx, int idx64) {
    (void)off;
    put_index(idx, 3, -1, idx64);
}

/* Solves with a corrupted copy: the call succeeds, the next synchronize
 * reports needle; x and the record are not written. */
static void expect_bad(trnsolverDnHandle_t h, const fmt *f, void (*corrupt)(void *, void *, int),
                       const char *needle) {
    dev_mat d;
    make_dev(prob[M_POISSON][1], TY_D, f, &d, corrupt);
    vecs v = make_vecs(TY_D, rhs[M_POISSON][1]);
    trnsolverOperator_t op;
    assert_int_equal(trnsolverCreateSparseOperator(&op, d.descr), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciMemset(v.res, 0x7f, sizeof(*v.res)), trnsciSuccess);
    assert_int_equal(trnsolverDgmres(h, op, v.b, v.x, NULL, v.res), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    st_expect_message(needle);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess); /* reported once */
    const trnsolverIterResult_t r = read_result(v.res);
    assert_int_equal(r.iterations, 0x7f7f7f7f);
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    free_vecs(&v);
    free_dev(&d);
}

static void test_bad_input(void **state) {
    (void)state;
    trnsolverDnHandle_t h;
    assert_int_equal(trnsolverDnCreate(&h), TRNSOLVER_STATUS_SUCCESS);
    double *buf;
    assert_int_equal(trnsciMalloc((void **)&buf, 4096), trnsciSuccess);
    trnsparseSpMatDescr_t sq, coo;
    trnsolverOperator_t op = NULL;
    /* Non-square, COO, NULL. */
    assert_int_equal(trnsparseCreateCsr(&sq, 4, 5, 4, buf, buf + 8, buf + 16, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverCreateSparseOperator(&op, sq), TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("square");
    assert_int_equal(trnsparseCreateCoo(&coo, 4, 4, 4, buf, buf + 8, buf + 16, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsolverCreateSparseOperator(&op, coo), TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("CSR or BSR");
    assert_int_equal(trnsolverCreateSparseOperator(&op, NULL), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsolverCreateSparseOperator(NULL, coo), TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(trnsparseDestroySpMat(sq), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseDestroySpMat(coo), TRNSPARSE_STATUS_SUCCESS);
    /* A double matrix with a float routine; x past its allocation (n). */
    dev_mat d;
    make_dev(prob[M_POISSON][1], TY_D, &fmts[0], &d, NULL);
    assert_int_equal(trnsolverCreateSparseOperator(&op, d.descr), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnsolverScg(h, op, (float *)buf, (float *)buf + 8, NULL, NULL),
                     TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("type");
    assert_int_equal(trnsolverDcg(h, op, buf, buf + 8, NULL, NULL), TRNSOLVER_STATUS_INVALID_VALUE);
    st_expect_message("cg: b");
    assert_int_equal(trnsolverDestroyOperator(op), TRNSOLVER_STATUS_SUCCESS);
    free_dev(&d);
    /* Garbage contents, CSR and BSR, both index types. */
    expect_bad(h, &fmts[0], corrupt_first, "csrRowOffsets[0] = 1 is not the index base 0");
    expect_bad(h, &fmts[0], corrupt_decreasing, "csrRowOffsets[5] = 3 is less than");
    expect_bad(h, &fmts[2], corrupt_past_nnz, "csrRowOffsets[9] = 1000000 is beyond");
    expect_bad(h, &fmts[0], corrupt_col, "csrColInd[7] = 5000 is outside [0, 1023]");
    expect_bad(h, &fmts[2], corrupt_negative_col, "csrColInd[3] = -1 is outside [1, 1024]");
    expect_bad(h, &fmts[1], corrupt_col, "bsrColInd[7] = 5000 is outside [0, 255]");
    expect_bad(h, &fmts[3], corrupt_decreasing, "bsrRowOffsets[5] = 3 is less than");
    /* The daemon is alive and solves. */
    make_dev(prob[M_POISSON][1], TY_D, &fmts[0], &d, NULL);
    vecs v = make_vecs(TY_D, rhs[M_POISSON][1]);
    (void)solve(h, TY_D, M_POISSON, &fmts[0], &d, &v, K_CG, TRNSOLVER_PRECOND_JACOBI);
    free_vecs(&v);
    free_dev(&d);
    assert_int_equal(trnsciFree(buf), trnsciSuccess);
    assert_int_equal(trnsolverDnDestroy(h), TRNSOLVER_STATUS_SUCCESS);
}

int main(void) {
    if (make_problems() != 0)
        return 1;
    st_daemon = &daemon_under_test;
    if (th_daemon_start(&daemon_under_test, NULL) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poisson),
        cmocka_unit_test(test_convection),
        cmocka_unit_test(test_bad_input),
    };
    int failed = cmocka_run_group_tests_name("solver sparse over the local transport", tests,
                                             st_connect_unix, st_disconnect);
    failed +=
        cmocka_run_group_tests_name("solver sparse over tcp", tests, st_connect_tcp, st_disconnect);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    st_report("solver_sparse");
    for (int m = 0; m < NMAT; m++)
        for (int ti = 0; ti < 2; ti++) {
            free(prob[m][ti]);
            free(rhs[m][ti]);
        }
    return failed ? 1 : 0;
}
