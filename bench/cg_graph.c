/*
 * cg_graph.c — conjugate gradient with no synchronize inside the loop: a loop
 * of launched calls and a captured iteration graph through trnscid, against
 * the same algorithm on the same CPU kernels in this process, in the same run.
 *
 * Role and placement. A benchmark (bench/), not a test: one JSON object on
 * stdout, progress on stderr. bench/run_cg_graph.sh starts trnscid with one
 * core under `taskset -c $DAEMON_CPU` and runs this program under `taskset -c
 * $BENCH_CPU`; with --inproc-cpu (the script passes DAEMON_CPU) the in-process
 * side pins its thread to the daemon's CPU for its samples, so both sides
 * compute on the same CPU. DAEMON_CPU = BENCH_CPU puts everything on one CPU.
 * The script also gives this process the daemon's OpenBLAS kernel set
 * (OPENBLAS_CORETYPE), so that both sides run the same Level 1 kernels.
 *
 * The problem: A = the 2D Poisson matrix, the 5-point Laplacian on an m x m
 * grid (--m, default 100: n = m^2 = 10^4 unknowns, 5n - 4m stored entries;
 * 4 on the diagonal, -1 for each grid neighbour), CSR with int32 indices,
 * zero-based, columns ascending; single precision; b = 2^50 u with u uniform
 * in [-1, 1) (bench_fill; --b-scale-log2 changes the 50), x0 = 0. Plain CG
 * (Hestenes-Stiefel), --iters iterations (default 1,000), no convergence test
 * and no synchronize inside the loop. Why the scale: in finite precision the
 * recursively updated residual of CG keeps falling after the true residual
 * has stagnated, here by about 10^-0.057 per iteration in r.r, 57 decades
 * over 1,000 iterations; from b uniform in [-1, 1) (r.r = 3.3e3) it reaches
 * the subnormal range near iteration 725 and then 0, and 0 * rcp(0) gives a
 * NaN alpha. A power-of-two scale changes no rounding (every iterate is
 * scaled exactly; alpha and beta are scale-free), and 2^50 puts r.r at 1e33
 * at the start (p . Ap stays below 1e35 < FLT_MAX = 3.4e38) and at 1.8e-23
 * after 1,000 iterations, 15 decades above FLT_MIN = 1.2e-38: the whole run
 * is normal numbers (checked).
 *
 * Device state: vectors x, r, p, Ap (n floats each) and one array S of
 * scalars, all trnsciMalloc'd: S[0] = rr (r.r), S[1] = rr_new, S[2] = pAp,
 * S[3] = beta, S[4..5] = (alpha, -alpha), S[6] = 1, S[7..8] = (1, -1). The
 * trnblas handle is in TRNBLAS_POINTER_MODE_DEVICE, so dot results and axpy /
 * scal scalars are those device words; trnsparse takes host scalars (it has
 * no device pointer mode), and its alpha = 1, beta = 0 are constants. One
 * iteration is these 10 calls, all on one stream:
 *   1. trnsparseSpMV(N, 1, A, p, 0, Ap)                     Ap = A p
 *   2. trnblasSdot(n, p, Ap, &S[2])                         pAp = p . Ap
 *   3. trntensorElementwiseTrinaryExecute:                  S[4+i] = (rr * rcp(pAp)) * (1, -1)[i]
 *        D = S[4..5] (mode i, extent 2), A = S[0] (a scalar: no modes),
 *        B = S[2] (a scalar) with opB = TRNTENSOR_OP_RCP, C = S[7..8] (mode i),
 *        opAB = opABC = TRNTENSOR_OP_MUL, alpha = beta = gamma = 1:
 *        alpha = rr / pAp and -alpha in one op
 *   4. trnblasSaxpy(n, &S[4], p, x)                         x += alpha p
 *   5. trnblasSaxpy(n, &S[5], Ap, r)                        r -= alpha Ap
 *   6. trnblasSdot(n, r, r, &S[1])                          rr_new = r . r
 *   7. trntensorElementwiseBinaryExecute:                   beta = rr_new * rcp(rr)
 *        D = S[3], A = S[1], C = S[0] with opC = TRNTENSOR_OP_RCP,
 *        opAC = TRNTENSOR_OP_MUL (all scalars: no modes)
 *   8. trnblasSscal(n, &S[3], p)                            p = beta p
 *   9. trnblasSaxpy(n, &S[6], r, p)                         p += 1 r  (p = r + beta p)
 *  10. trnblasScopy(1, &S[1], &S[0])                        rr = rr_new
 * Three sides per round (rounds alternate the order; medians reported):
 *  - loop: the state reset (untimed), then --iters x these 10 calls launched,
 *    then one trnsciStreamSynchronize; timed from the first launch to the
 *    end of the synchronize;
 *  - graph: ONE iteration (the 10 calls) captured once with
 *    trnsciStreamBeginCapture / EndCapture and instantiated once (both timed
 *    apart), then per round: reset, --iters trnsciGraphLaunch, one
 *    synchronize;
 *  - in process: the same iteration on host arrays calling the daemon's CPU
 *    kernels directly: the daemon's own SpMV kernel (trn_cpu_spmm of
 *    kernels/cpu/sparse_spmm.c, linked from the trnsci_kernels static library
 *    the daemon is built from, one shard as on a one-core daemon),
 *    cblas_sdot / cblas_saxpy / cblas_sscal of OpenBLAS (single-threaded,
 *    the routines the daemon's kernels/cpu/blas1.c calls), alpha and beta as
 *    kernels/cpu/tensor_ew.c computes them (in double, rounded once to
 *    float: (float)(((double)rr * (1.0 / (double)pAp)) * s)), and rr = rr_new
 *    as an assignment.
 * Figures: ms per solve and us per iteration; ratio_loop = in-process time /
 * loop time and ratio_graph = in-process time / graph time; targets 0.5 and
 * 0.8. Also the time until the last launch returned, the client's CPU time,
 * and with --daemon-pid the daemon's threads' busy fractions.
 *
 * Checked, every side of every round. (1) Agreement: with the same kernel set
 * on both sides the three variants perform the same IEEE single-precision
 * operations in the same order on the same data (SpMV: one kernel, whose
 * order never depends on the split; Level 1: the same OpenBLAS kernels,
 * whose summation order depends only on n; alpha and beta: the same double
 * expressions), and a graph runs bitwise the same calls as the loop
 * (include/trnsci/trnsci_graph.h). Error analysis therefore bounds their
 * difference by 0: the tolerance is zero, x and r must agree bit for bit
 * with the first round's in-process result, and so must the residual norms.
 * When the kernel sets differ (OPENBLAS_CORETYPE not set to the daemon's),
 * each dot's rounding differs by up to gamma_n sum |x_i y_i| (Higham 3.1)
 * and CG, which is not forward stable, lets those differences grow over the
 * iterations until the recursive residuals share no digits; then only (2)
 * is required and the JSON says "bitwise_expected": false. (2) Convergence,
 * always: ||b - A x|| / ||b|| (in double on the host from the downloaded x)
 * must be <= --max-rel-residual (default 1e-4): CG's bound
 * 2((sqrt(k) - 1) / (sqrt(k) + 1))^i on the relative A-norm error, with
 * k = kappa(A) = 4.1e3 for m = 100, is 6e-14 after 1,000 iterations, so what
 * remains is single-precision rounding, whose attainable accuracy is of the
 * order of u kappa(A) = 2.5e-4 at worst (u = 2^-24) and 7.9e-6 here. Also
 * the recursive residual r.r must still be a normal float (>= FLT_MIN, see
 * the scale of b), and nothing may be NaN. Exit status 3 on a failed check.
 *
 * usage: bench_cg_graph [--addr ADDR] [--label NAME] [--m M] [--iters K]
 *          [--rounds R] [--inproc-cpu CPU] [--daemon-pid PID] [--b-scale-log2 E]
 *          [--max-rel-residual X] [--target-loop X] [--target-graph Y]
 */
#define _GNU_SOURCE
#include <cblas.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "kernels/cpu/cpu_kernels.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsparse.h"
#include "trnsci/trntensor.h"

#define MAX_ROUNDS 101
#define CALLS_PER_ITER 10

static void die(const char *what) {
    fprintf(stderr, "bench_cg_graph: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        if ((call) != 0)                                                                           \
            die(what);                                                                             \
    } while (0)

typedef struct options {
    const char *addr, *label;
    int m, iters, rounds, inproc_cpu, daemon_pid, b_scale_log2;
    double max_rel_residual, target_loop, target_graph;
} options;

static void usage(void) {
    fputs("usage: bench_cg_graph [--addr ADDR] [--label NAME] [--m M] [--iters K] [--rounds R]\n"
          "         [--inproc-cpu CPU] [--daemon-pid PID] [--b-scale-log2 E]\n"
          "         [--max-rel-residual X] [--target-loop X] [--target-graph Y]\n",
          stderr);
    exit(2);
}

static void parse(int argc, char **argv, options *o) {
    *o = (options){NULL, "local", 100, 1000, 7, -1, 0, 50, 1e-4, 0.5, 0.8};
    const bench_opt opts[] = {{"--addr", BENCH_OPT_STR, &o->addr},
                              {"--label", BENCH_OPT_STR, &o->label},
                              {"--m", BENCH_OPT_INT, &o->m},
                              {"--iters", BENCH_OPT_INT, &o->iters},
                              {"--rounds", BENCH_OPT_INT, &o->rounds},
                              {"--inproc-cpu", BENCH_OPT_INT, &o->inproc_cpu},
                              {"--daemon-pid", BENCH_OPT_INT, &o->daemon_pid},
                              {"--b-scale-log2", BENCH_OPT_INT, &o->b_scale_log2},
                              {"--max-rel-residual", BENCH_OPT_DOUBLE, &o->max_rel_residual},
                              {"--target-loop", BENCH_OPT_DOUBLE, &o->target_loop},
                              {"--target-graph", BENCH_OPT_DOUBLE, &o->target_graph},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, NULL) != 0)
        usage();
    if (o->m < 2 || o->m > 4096 || o->iters < 1 || o->rounds < 1 || o->rounds > MAX_ROUNDS ||
        o->b_scale_log2 < -60 || o->b_scale_log2 > 60) {
        fprintf(stderr,
                "bench_cg_graph: need 2 <= m <= 4096, iters >= 1, 1 <= rounds <= %d, "
                "|b-scale-log2| <= 60\n",
                MAX_ROUNDS);
        exit(2);
    }
}

/* ---- placement and time ------------------------------------------------------------- */

static bench_pin g_pin; /* the in-process side's CPU (--inproc-cpu) */

/* ---- the problem ---------------------------------------------------------------------- */

typedef struct problem {
    int m, n, nnz;
    int32_t *off, *col;
    float *val, *b;
} problem;

static void poisson(problem *pb, int m, int scale_log2) {
    pb->m = m;
    pb->n = m * m;
    pb->nnz = 5 * m * m - 4 * m;
    pb->off = malloc((size_t)(pb->n + 1) * sizeof(int32_t));
    pb->col = malloc((size_t)pb->nnz * sizeof(int32_t));
    pb->val = malloc((size_t)pb->nnz * sizeof(float));
    pb->b = malloc((size_t)pb->n * sizeof(float));
    if (!pb->off || !pb->col || !pb->val || !pb->b) {
        fprintf(stderr, "bench_cg_graph: out of host memory\n");
        exit(1);
    }
    int k = 0;
    for (int iy = 0; iy < m; iy++)
        for (int ix = 0; ix < m; ix++) {
            const int i = iy * m + ix;
            pb->off[i] = k;
            if (iy > 0)
                pb->col[k] = i - m, pb->val[k++] = -1.0f;
            if (ix > 0)
                pb->col[k] = i - 1, pb->val[k++] = -1.0f;
            pb->col[k] = i, pb->val[k++] = 4.0f;
            if (ix < m - 1)
                pb->col[k] = i + 1, pb->val[k++] = -1.0f;
            if (iy < m - 1)
                pb->col[k] = i + m, pb->val[k++] = -1.0f;
        }
    pb->off[pb->n] = k;
    if (k != pb->nnz) {
        fprintf(stderr, "bench_cg_graph: built %d entries, expected %d\n", k, pb->nnz);
        exit(1);
    }
    bench_fill(pb->b, (size_t)pb->n, 4242u + (unsigned)m);
    for (int i = 0; i < pb->n; i++)
        pb->b[i] = ldexpf(pb->b[i], scale_log2);
}

/* ||b - A x|| / ||b|| in double. */
static double true_rel_residual(const problem *pb, const float *x) {
    double num = 0, den = 0;
    for (int i = 0; i < pb->n; i++) {
        double ax = 0;
        for (int k = pb->off[i]; k < pb->off[i + 1]; k++)
            ax += (double)pb->val[k] * (double)x[pb->col[k]];
        const double d = (double)pb->b[i] - ax;
        num += d * d;
        den += (double)pb->b[i] * (double)pb->b[i];
    }
    return sqrt(num) / sqrt(den);
}

static double norm2(const float *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (double)v[i] * (double)v[i];
    return sqrt(s);
}

/* ---- the in-process side ---------------------------------------------------------------- */

typedef struct host_cg {
    float *x, *r, *p, *ap;
    float rr;
    trn_spmm_desc spmv; /* Ap = 1 A p + 0 Ap, as the validator makes it */
} host_cg;

static void host_setup(host_cg *h, const problem *pb) {
    const size_t bytes = (size_t)pb->n * sizeof(float);
    h->x = aligned_alloc(64, (bytes + 63) / 64 * 64);
    h->r = aligned_alloc(64, (bytes + 63) / 64 * 64);
    h->p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    h->ap = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!h->x || !h->r || !h->p || !h->ap) {
        fprintf(stderr, "bench_cg_graph: out of host memory\n");
        exit(1);
    }
    trn_spmm_desc *d = &h->spmv;
    memset(d, 0, sizeof(*d));
    d->op_a = TRN_TRANS_N;
    d->alpha = 1.0;
    d->beta = 0.0;
    d->a = (trn_sp_mat){.format = TRN_SP_CSR,
                        .type = TRN_DTYPE_R32F,
                        .idx64 = 0,
                        .base = 0,
                        .rows = pb->n,
                        .cols = pb->n,
                        .brows = pb->n,
                        .bcols = pb->n,
                        .nnz = pb->nnz,
                        .rb = 1,
                        .cb = 1,
                        .offsets = pb->off,
                        .indices = pb->col,
                        .values = pb->val};
    const trn_dn_mat vec = {.type = TRN_DTYPE_R32F,
                            .rows = pb->n,
                            .cols = 1,
                            .ld = pb->n > 1 ? pb->n : 1,
                            .row_major = 0,
                            .batch = 1};
    d->b = vec;
    d->b.values = h->p;
    d->c = vec;
    d->c.values = h->ap;
}

static void host_reset(host_cg *h, const problem *pb) {
    const size_t bytes = (size_t)pb->n * sizeof(float);
    memset(h->x, 0, bytes);
    memcpy(h->r, pb->b, bytes);
    memcpy(h->p, pb->b, bytes);
    h->rr = cblas_sdot(pb->n, h->r, 1, h->r, 1);
}

/* The iteration the daemon runs, on the same kernels. */
static void host_iterations(host_cg *h, int n, int iters) {
    trn_kmsg msg;
    memset(&msg, 0, sizeof(msg));
    float rr = h->rr;
    for (int it = 0; it < iters; it++) {
        if (trn_cpu_spmm(&h->spmv, &msg, 0, 1) != TRN_KSTATUS_OK) { /* 1 */
            fprintf(stderr, "bench_cg_graph: in-process SpMV failed: %s\n", msg.text);
            exit(1);
        }
        const float pap = cblas_sdot(n, h->p, 1, h->ap, 1); /* 2 */
        /* 3: kernels/cpu/tensor_ew.c's trinary op, in double, one rounding. */
        const double q = (1.0 * (double)rr) * (1.0 * (1.0 / (double)pap));
        const float alpha = (float)(q * (1.0 * 1.0)), nalpha = (float)(q * (1.0 * -1.0));
        cblas_saxpy(n, alpha, h->p, 1, h->x, 1);                                      /* 4 */
        cblas_saxpy(n, nalpha, h->ap, 1, h->r, 1);                                    /* 5 */
        const float rrn = cblas_sdot(n, h->r, 1, h->r, 1);                            /* 6 */
        const float beta = (float)((1.0 * (double)rrn) * (1.0 * (1.0 / (double)rr))); /* 7 */
        cblas_sscal(n, beta, h->p, 1);                                                /* 8 */
        cblas_saxpy(n, 1.0f, h->r, 1, h->p, 1);                                       /* 9 */
        rr = rrn;                                                                     /* 10 */
    }
    h->rr = rr;
}

/* ---- the trnsci side ---------------------------------------------------------------- */

typedef struct dev_cg {
    trnsciStream_t s;
    trnblasHandle_t bh;
    trnsparseHandle_t sh;
    trntensorHandle_t th;
    trntensorPlan_t alpha_plan, beta_plan;
    trnsparseSpMatDescr_t A;
    trnsparseDnVecDescr_t vp, vap;
    int32_t *off, *col;
    float *val, *b, *x, *r, *p, *ap, *S;
    trnsciGraphExec_t graph;
    double capture_ms, instantiate_ms;
} dev_cg;

static void sparse_ok(trnsparseStatus_t st, const char *what) {
    if (st != TRNSPARSE_STATUS_SUCCESS)
        die(what);
}

static void tensor_ok(trntensorStatus_t st, const char *what) {
    if (st != TRNTENSOR_STATUS_SUCCESS)
        die(what);
}

static void blas_ok(trnblasStatus_t st, const char *what) {
    if (st != TRNBLAS_STATUS_SUCCESS)
        die(what);
}

/* One CG iteration: the 10 calls of the comment at the top, launched. */
static void dev_iteration(const dev_cg *d, int n) {
    const float one = 1.0f, zero = 0.0f;
    float *S = d->S;
    sparse_ok(trnsparseSpMV(d->sh, TRNSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->vp, &zero,
                            d->vap, TRNSCI_R_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
              "trnsparseSpMV");                                                    /* 1 */
    blas_ok(trnblasSdot(d->bh, n, d->p, 1, d->ap, 1, &S[2]), "trnblasSdot (pAp)"); /* 2 */
    tensor_ok(trntensorElementwiseTrinaryExecute(d->th, d->alpha_plan, &one, &S[0], &one, &S[2],
                                                 &one, &S[7], &S[4], d->s),
              "trntensorElementwiseTrinaryExecute (alpha)");                       /* 3 */
    blas_ok(trnblasSaxpy(d->bh, n, &S[4], d->p, 1, d->x, 1), "trnblasSaxpy (x)");  /* 4 */
    blas_ok(trnblasSaxpy(d->bh, n, &S[5], d->ap, 1, d->r, 1), "trnblasSaxpy (r)"); /* 5 */
    blas_ok(trnblasSdot(d->bh, n, d->r, 1, d->r, 1, &S[1]), "trnblasSdot (rr)");   /* 6 */
    tensor_ok(trntensorElementwiseBinaryExecute(d->th, d->beta_plan, &one, &S[1], &one, &S[0],
                                                &S[3], d->s),
              "trntensorElementwiseBinaryExecute (beta)");                        /* 7 */
    blas_ok(trnblasSscal(d->bh, n, &S[3], d->p, 1), "trnblasSscal (p)");          /* 8 */
    blas_ok(trnblasSaxpy(d->bh, n, &S[6], d->r, 1, d->p, 1), "trnblasSaxpy (p)"); /* 9 */
    blas_ok(trnblasScopy(d->bh, 1, &S[1], 1, &S[0], 1), "trnblasScopy (rr)");     /* 10 */
}

static void dev_setup(dev_cg *d, const problem *pb) {
    const int n = pb->n;
    const size_t vb = (size_t)n * sizeof(float);
    CHECK(trnsciStreamCreate(&d->s), "trnsciStreamCreate");
    blas_ok(trnblasCreate(&d->bh), "trnblasCreate");
    blas_ok(trnblasSetStream(d->bh, d->s), "trnblasSetStream");
    blas_ok(trnblasSetPointerMode(d->bh, TRNBLAS_POINTER_MODE_DEVICE), "trnblasSetPointerMode");
    sparse_ok(trnsparseCreate(&d->sh), "trnsparseCreate");
    sparse_ok(trnsparseSetStream(d->sh, d->s), "trnsparseSetStream");
    tensor_ok(trntensorCreate(&d->th), "trntensorCreate");
    CHECK(trnsciMalloc((void **)&d->off, (size_t)(n + 1) * sizeof(int32_t)), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->col, (size_t)pb->nnz * sizeof(int32_t)), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->val, (size_t)pb->nnz * sizeof(float)), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->b, vb), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->x, vb), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->r, vb), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->p, vb), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->ap, vb), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d->S, 16 * sizeof(float)), "trnsciMalloc");
    CHECK(
        trnsciMemcpy(d->off, pb->off, (size_t)(n + 1) * sizeof(int32_t), trnsciMemcpyHostToDevice),
        "trnsciMemcpy (offsets)");
    CHECK(
        trnsciMemcpy(d->col, pb->col, (size_t)pb->nnz * sizeof(int32_t), trnsciMemcpyHostToDevice),
        "trnsciMemcpy (indices)");
    CHECK(trnsciMemcpy(d->val, pb->val, (size_t)pb->nnz * sizeof(float), trnsciMemcpyHostToDevice),
          "trnsciMemcpy (values)");
    CHECK(trnsciMemcpy(d->b, pb->b, vb, trnsciMemcpyHostToDevice), "trnsciMemcpy (b)");
    const float consts[16] = {0, 0, 0, 0, 0, 0, 1.0f, 1.0f, -1.0f};
    CHECK(trnsciMemcpy(d->S, consts, sizeof(consts), trnsciMemcpyHostToDevice), "trnsciMemcpy (S)");
    sparse_ok(trnsparseCreateCsr(&d->A, n, n, pb->nnz, d->off, d->col, d->val, TRNSPARSE_INDEX_32I,
                                 TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_32F),
              "trnsparseCreateCsr");
    sparse_ok(trnsparseCreateDnVec(&d->vp, n, d->p, TRNSCI_R_32F), "trnsparseCreateDnVec");
    sparse_ok(trnsparseCreateDnVec(&d->vap, n, d->ap, TRNSCI_R_32F), "trnsparseCreateDnVec");

    /* The scalar ops: tensors of no modes (scalars) and of one mode of 2. */
    const int64_t two = 2, dummy = 1;
    const int32_t mode_i[1] = {'i'};
    trntensorTensorDescriptor_t scal, pair;
    tensor_ok(trntensorCreateTensorDescriptor(d->th, &scal, 0, &dummy, NULL, TRNSCI_R_32F, 4),
              "trntensorCreateTensorDescriptor (scalar)");
    tensor_ok(trntensorCreateTensorDescriptor(d->th, &pair, 1, &two, NULL, TRNSCI_R_32F, 4),
              "trntensorCreateTensorDescriptor (pair)");
    trntensorOperationDescriptor_t op;
    tensor_ok(trntensorCreateElementwiseTrinary(
                  d->th, &op, scal, mode_i, TRNTENSOR_OP_IDENTITY, scal, mode_i, TRNTENSOR_OP_RCP,
                  pair, mode_i, TRNTENSOR_OP_IDENTITY, pair, mode_i, TRNTENSOR_OP_MUL,
                  TRNTENSOR_OP_MUL, TRNTENSOR_COMPUTE_DESC_32F),
              "trntensorCreateElementwiseTrinary");
    tensor_ok(trntensorCreatePlan(d->th, &d->alpha_plan, op, NULL, 0), "trntensorCreatePlan");
    trntensorDestroyOperationDescriptor(op);
    tensor_ok(trntensorCreateElementwiseBinary(d->th, &op, scal, mode_i, TRNTENSOR_OP_IDENTITY,
                                               scal, mode_i, TRNTENSOR_OP_RCP, scal, mode_i,
                                               TRNTENSOR_OP_MUL, TRNTENSOR_COMPUTE_DESC_32F),
              "trntensorCreateElementwiseBinary");
    tensor_ok(trntensorCreatePlan(d->th, &d->beta_plan, op, NULL, 0), "trntensorCreatePlan");
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(scal);
    trntensorDestroyTensorDescriptor(pair);

    /* The iteration graph: one iteration captured. */
    const int64_t c0 = bench_now_ns();
    CHECK(trnsciStreamBeginCapture(d->s, trnsciStreamCaptureModeGlobal),
          "trnsciStreamBeginCapture");
    dev_iteration(d, n);
    trnsciGraph_t g;
    CHECK(trnsciStreamEndCapture(d->s, &g), "trnsciStreamEndCapture");
    const int64_t c1 = bench_now_ns();
    CHECK(trnsciGraphInstantiate(&d->graph, g, 0), "trnsciGraphInstantiate");
    const int64_t c2 = bench_now_ns();
    trnsciGraphDestroy(g);
    d->capture_ms = (double)(c1 - c0) * 1e-6;
    d->instantiate_ms = (double)(c2 - c1) * 1e-6;
}

/* x = 0, r = p = b, S[0] = r . r (the daemon's dot), then wait: untimed. */
static void dev_reset(const dev_cg *d, int n) {
    const size_t vb = (size_t)n * sizeof(float);
    CHECK(trnsciMemset(d->x, 0, vb), "trnsciMemset (x)");
    CHECK(trnsciMemcpy(d->r, d->b, vb, trnsciMemcpyDeviceToDevice), "trnsciMemcpy (r)");
    CHECK(trnsciMemcpy(d->p, d->b, vb, trnsciMemcpyDeviceToDevice), "trnsciMemcpy (p)");
    blas_ok(trnblasSdot(d->bh, n, d->r, 1, d->r, 1, &d->S[0]), "trnblasSdot (rr0)");
    CHECK(trnsciStreamSynchronize(d->s), "trnsciStreamSynchronize");
}

/* ---- checks --------------------------------------------------------------------------- */

enum { SIDE_LOOP, SIDE_GRAPH, SIDE_INPROC, NSIDES };
static const char *const side_name[NSIDES] = {"loop", "graph", "in process"};

typedef struct result {
    float *x, *r; /* the first round's in-process result: the reference */
    double rnorm[NSIDES], rel_res[NSIDES], rr[NSIDES];
    int mismatches[NSIDES]; /* rounds whose x or r were not bitwise the reference */
} result;

static void check_side(result *res, const problem *pb, int side, const float *x, const float *r,
                       float rr, int bitwise_expected, double max_rel, int round) {
    const size_t vb = (size_t)pb->n * sizeof(float);
    const double rn = norm2(r, pb->n), rel = true_rel_residual(pb, x);
    res->rnorm[side] = rn;
    res->rel_res[side] = rel;
    res->rr[side] = rr;
    const int same = memcmp(x, res->x, vb) == 0 && memcmp(r, res->r, vb) == 0;
    if (!same)
        res->mismatches[side]++;
    if (isnan(rn) || !(rel <= max_rel) || !(rel < 1.0) || !(rr >= FLT_MIN) ||
        (bitwise_expected && !same)) {
        fprintf(stderr,
                "bench_cg_graph: %s, round %d: ||r|| = %.6g, r.r = %.6g, ||b - Ax|| / ||b|| = "
                "%.3g (max %.3g), bitwise equal to the in-process result: %s (expected: %s)\n",
                side_name[side], round, rn, (double)rr, rel, max_rel, same ? "yes" : "no",
                bitwise_expected ? "yes" : "no");
        exit(3);
    }
}

int main(int argc, char **argv) {
    options o;
    parse(argc, argv, &o);
    bench_pin_init(&g_pin, o.inproc_cpu);
    openblas_set_num_threads(1);
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    if (trnsciInit(o.addr))
        die("trnsciInit");
    trnsciSelfTestSummary selftest;
    const int have_selftest =
        trnsciDaemonSelfTest(o.addr, 0, NULL, 0, NULL, &selftest) == trnsciSuccess;
    const char *core = openblas_get_corename();
    const int bitwise_expected = have_selftest && strcmp(core, selftest.blasCore) == 0;
    if (!bitwise_expected)
        fprintf(stderr,
                "bench_cg_graph: this process runs OpenBLAS's %s kernels, the daemon %s: the "
                "variants cannot agree bitwise (set OPENBLAS_CORETYPE=%s)\n",
                core, have_selftest ? selftest.blasCore : "unknown",
                have_selftest ? selftest.blasCore : "?");

    problem pb;
    poisson(&pb, o.m, o.b_scale_log2);
    const int n = pb.n;
    const size_t vb = (size_t)n * sizeof(float);
    host_cg h;
    host_setup(&h, &pb);
    dev_cg d;
    memset(&d, 0, sizeof(d));
    dev_setup(&d, &pb);
    fprintf(stderr,
            "bench_cg_graph (%s): n = %d, nnz = %d, %d iterations; iteration graph: capture %.3f "
            "ms, instantiate %.3f ms\n",
            o.label, n, pb.nnz, o.iters, d.capture_ms, d.instantiate_ms);

    result res;
    memset(&res, 0, sizeof(res));
    res.x = malloc(vb);
    res.r = malloc(vb);
    float *gx = malloc(vb), *gr = malloc(vb);
    /* The reference: the in-process solve, once, before any timing. */
    host_reset(&h, &pb);
    host_iterations(&h, n, o.iters);
    memcpy(res.x, h.x, vb);
    memcpy(res.r, h.r, vb);

    double ms[NSIDES][MAX_ROUNDS], launch_ms[2][MAX_ROUNDS], cpu_ms[2][MAX_ROUNDS];
    static bench_thread_sample d0[BENCH_MAX_THREADS], d1[BENCH_MAX_THREADS];
    static bench_acc_set dacc[2];
    double wall_ms[2] = {0, 0};
    int cpu_during[NSIDES] = {-1, -1, -1};
    for (int r = -1; r < o.rounds; r++) { /* round -1: warm-up, not recorded */
        for (int j = 0; j < NSIDES; j++) {
            const int side = (j + (r < 0 ? 0 : r)) % NSIDES;
            double s;
            if (side == SIDE_INPROC) {
                host_reset(&h, &pb);
                bench_pin_enter(&g_pin, "bench_cg_graph");
                const int64_t t0 = bench_now_ns();
                host_iterations(&h, n, o.iters);
                s = (double)(bench_now_ns() - t0) * 1e-9;
                cpu_during[side] = sched_getcpu();
                bench_pin_leave(&g_pin);
                check_side(&res, &pb, side, h.x, h.r, h.rr, bitwise_expected, o.max_rel_residual,
                           r + 1);
            } else {
                dev_reset(&d, n);
                const int nd0 =
                    o.daemon_pid ? bench_sample_threads(o.daemon_pid, d0, BENCH_MAX_THREADS, 1) : 0;
                const double c0 = bench_process_cpu_s();
                const int64_t t0 = bench_now_ns();
                for (int it = 0; it < o.iters; it++) {
                    if (side == SIDE_LOOP)
                        dev_iteration(&d, n);
                    else
                        CHECK(trnsciGraphLaunch(d.graph, d.s), "trnsciGraphLaunch");
                }
                const int64_t t1 = bench_now_ns();
                CHECK(trnsciStreamSynchronize(d.s), "trnsciStreamSynchronize");
                const int64_t t2 = bench_now_ns();
                const double c1 = bench_process_cpu_s();
                s = (double)(t2 - t0) * 1e-9;
                cpu_during[side] = sched_getcpu();
                if (r >= 0) {
                    launch_ms[side][r] = (double)(t1 - t0) * 1e-6;
                    cpu_ms[side][r] = (c1 - c0) * 1e3;
                    wall_ms[side] += s * 1e3;
                    if (o.daemon_pid) {
                        const int nd1 =
                            bench_sample_threads(o.daemon_pid, d1, BENCH_MAX_THREADS, 1);
                        bench_acc_add(&dacc[side], d0, nd0, d1, nd1);
                    }
                }
                CHECK(trnsciMemcpy(gx, d.x, vb, trnsciMemcpyDeviceToHost), "trnsciMemcpy (x)");
                CHECK(trnsciMemcpy(gr, d.r, vb, trnsciMemcpyDeviceToHost), "trnsciMemcpy (r)");
                float grr = 0;
                CHECK(trnsciMemcpy(&grr, d.S, sizeof(grr), trnsciMemcpyDeviceToHost),
                      "trnsciMemcpy (rr)");
                check_side(&res, &pb, side, gx, gr, grr, bitwise_expected, o.max_rel_residual,
                           r + 1);
            }
            if (r >= 0)
                ms[side][r] = s * 1e3;
        }
        if (r >= 0)
            fprintf(stderr,
                    "bench_cg_graph (%s): round %d: loop %.2f ms, graph %.2f ms, in process %.2f "
                    "ms (%d iterations)\n",
                    o.label, r + 1, ms[SIDE_LOOP][r], ms[SIDE_GRAPH][r], ms[SIDE_INPROC][r],
                    o.iters);
    }

    const int R = o.rounds;
    double us_it[NSIDES][MAX_ROUNDS];
    for (int s = 0; s < NSIDES; s++)
        for (int r = 0; r < R; r++)
            us_it[s][r] = ms[s][r] * 1e3 / o.iters;
    const double m_loop = bench_stats_copy(ms[SIDE_LOOP], R).median,
                 m_graph = bench_stats_copy(ms[SIDE_GRAPH], R).median,
                 m_ip = bench_stats_copy(ms[SIDE_INPROC], R).median;
    const double ratio_loop = m_ip / m_loop, ratio_graph = m_ip / m_graph;
    double rr0 = 0;
    for (int i = 0; i < n; i++)
        rr0 += (double)pb.b[i] * pb.b[i];

    printf("{\n  \"benchmark\": \"cg_graph\",\n  \"transport\": \"%s\",\n", o.label);
    printf("  \"address\": \"%s\",\n", o.addr ? o.addr : "(default)");
    printf("  \"problem\": \"2D Poisson (5-point, m x m grid), CSR int32, float, b = 2^%d x "
           "uniform [-1, 1), x0 = 0\",\n",
           o.b_scale_log2);
    printf("  \"m\": %d,\n  \"n\": %d,\n  \"nnz\": %d,\n  \"iterations\": %d,\n  \"rounds\": "
           "%d,\n",
           o.m, n, pb.nnz, o.iters, R);
    printf("  \"iteration\": \"spmv, sdot, tensor trinary (+-alpha = rr*rcp(pAp)*(1,-1)), saxpy "
           "x, saxpy r, sdot, tensor binary (beta = rr_new*rcp(rr)), sscal p, saxpy p, scopy rr: "
           "%d calls, device pointer mode\",\n",
           CALLS_PER_ITER);
    printf("  \"in_process\": \"the daemon's SpMV kernel (trn_cpu_spmm, trnsci_kernels), OpenBLAS "
           "cblas_sdot/saxpy/sscal, alpha and beta as tensor_ew.c computes them\",\n");
    printf("  \"graph\": {\"nodes\": %d, \"capture_ms\": %.3f, \"instantiate_ms\": %.3f},\n",
           CALLS_PER_ITER, d.capture_ms, d.instantiate_ms);
    bench_json_stats("loop_ms", ms[SIDE_LOOP], R, ",");
    bench_json_stats("graph_ms", ms[SIDE_GRAPH], R, ",");
    bench_json_stats("in_process_ms", ms[SIDE_INPROC], R, ",");
    bench_json_stats("loop_us_per_iteration", us_it[SIDE_LOOP], R, ",");
    bench_json_stats("graph_us_per_iteration", us_it[SIDE_GRAPH], R, ",");
    bench_json_stats("in_process_us_per_iteration", us_it[SIDE_INPROC], R, ",");
    bench_json_stats("loop_launch_ms", launch_ms[SIDE_LOOP], R, ",");
    bench_json_stats("graph_launch_ms", launch_ms[SIDE_GRAPH], R, ",");
    bench_json_stats("loop_client_cpu_ms", cpu_ms[SIDE_LOOP], R, ",");
    bench_json_stats("graph_client_cpu_ms", cpu_ms[SIDE_GRAPH], R, ",");
    printf("  \"ratio_loop\": %.4f,\n  \"ratio_graph\": %.4f,\n", ratio_loop, ratio_graph);
    printf("  \"targets\": {\"loop\": %.2f, \"loop_met\": %s, \"graph\": %.2f, \"graph_met\": "
           "%s},\n",
           o.target_loop, ratio_loop >= o.target_loop ? "true" : "false", o.target_graph,
           ratio_graph >= o.target_graph ? "true" : "false");
    printf("  \"check\": {\"bitwise_expected\": %s, \"rounds_not_bitwise\": {\"loop\": %d, "
           "\"graph\": %d, \"in_process\": %d}, \"initial_residual_norm\": %.6g, "
           "\"residual_norm\": {\"loop\": %.6g, \"graph\": %.6g, \"in_process\": %.6g}, "
           "\"true_rel_residual\": {\"loop\": %.3g, \"graph\": %.3g, \"in_process\": %.3g}, "
           "\"final_rr\": {\"loop\": %.6g, \"graph\": %.6g, \"in_process\": %.6g}, "
           "\"max_rel_residual\": %.3g, \"agree\": true},\n",
           bitwise_expected ? "true" : "false", res.mismatches[SIDE_LOOP],
           res.mismatches[SIDE_GRAPH], res.mismatches[SIDE_INPROC], sqrt(rr0), res.rnorm[SIDE_LOOP],
           res.rnorm[SIDE_GRAPH], res.rnorm[SIDE_INPROC], res.rel_res[SIDE_LOOP],
           res.rel_res[SIDE_GRAPH], res.rel_res[SIDE_INPROC], res.rr[SIDE_LOOP], res.rr[SIDE_GRAPH],
           res.rr[SIDE_INPROC], o.max_rel_residual);
    printf("  \"openblas\": {\"core\": \"%s\"},\n", core);
    printf("  \"daemon_openblas\": {\"core\": \"%s\"},\n",
           have_selftest ? selftest.blasCore : "unknown");
    char dcpus[64] = "";
    if (o.daemon_pid)
        bench_cpus_allowed(o.daemon_pid, dcpus, sizeof(dcpus));
    printf("  \"placement\": {\"bench_cpus\": \"%s\", \"inproc_cpu\": %d, "
           "\"bench_cpu_during_loop\": %d, \"bench_cpu_during_graph\": %d, "
           "\"cpu_during_in_process\": %d, \"daemon_cpus_allowed\": \"%s\"",
           cpus, g_pin.cpu, cpu_during[SIDE_LOOP], cpu_during[SIDE_GRAPH], cpu_during[SIDE_INPROC],
           dcpus);
    if (o.daemon_pid) {
        printf(",\n");
        bench_json_threads("daemon_threads_during_loop", &dacc[SIDE_LOOP], 3, wall_ms[SIDE_LOOP],
                           ",");
        bench_json_threads("daemon_threads_during_graph", &dacc[SIDE_GRAPH], 3, wall_ms[SIDE_GRAPH],
                           "");
        printf("  }\n}\n");
    } else {
        printf("}\n}\n");
    }
    fflush(stdout);

    trnsciGraphExecDestroy(d.graph);
    trntensorDestroyPlan(d.alpha_plan);
    trntensorDestroyPlan(d.beta_plan);
    trntensorDestroy(d.th);
    trnsparseDestroySpMat(d.A);
    trnsparseDestroyDnVec(d.vp);
    trnsparseDestroyDnVec(d.vap);
    trnsparseDestroy(d.sh);
    trnblasDestroy(d.bh);
    trnsciStreamDestroy(d.s);
    trnsciFree(d.off);
    trnsciFree(d.col);
    trnsciFree(d.val);
    trnsciFree(d.b);
    trnsciFree(d.x);
    trnsciFree(d.r);
    trnsciFree(d.p);
    trnsciFree(d.ap);
    trnsciFree(d.S);
    trnsciDeviceReset();
    free(h.x);
    free(h.r);
    free(h.p);
    free(h.ap);
    free(res.x);
    free(res.r);
    free(gx);
    free(gr);
    free(pb.off);
    free(pb.col);
    free(pb.val);
    free(pb.b);
    return 0;
}
