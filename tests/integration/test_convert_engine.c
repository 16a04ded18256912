/*
 * test_convert_engine.c — conversions of their own (ops/convert_stage.h,
 * trn_convert_standalone: a sparse format conversion, a tensor permutation
 * from FP64 to FP32) run on the copy engine while the cores compute, and on
 * the idle cores otherwise, with the same result either way.
 *
 * One daemon: 2 cores and its one copy engine, metrics on. Which engine
 * ran a shard is read from trnscid_worker_shards_total{engine=...}:
 *  - idle: a CSR -> CSC conversion and an FP64 -> FP32 permutation run on
 *    the cores (no copy-engine shard);
 *  - busy: the same conversions on a second stream, launched just after a
 *    long SGEMM on a first (both cores busy with it), run on the copy
 *    engine (at least one copy-engine shard each);
 *  - both results equal the host's (the CSC built by a counting sort of
 *    the CSR's entries, each column's rows in order; each double rounded
 *    to float once), bit for bit, idle and busy alike;
 *  - run-ahead (scheduler/sched.h): the permutation and the CSR -> CSC
 *    conversion queued behind the long
 *    SGEMM on the SGEMM's own stream, touching none of its memory, run
 *    while it computes (copy-engine shards; in its turn the cores would be
 *    idle and take it); a permutation of the SGEMM's C queued behind it
 *    waits for it (the result is the finished C transposed).
 */
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
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsparse.h"
#include "trnsci/trntensor.h"

#include "long_op.h"

static th_daemon daemon_;
static int metrics_port;

/* The shards workers of `engine` ("core", "copy") ran so far. */
static double engine_shards(const char *engine) {
    static char page[1 << 17];
    assert_int_equal(th_http_get(metrics_port, "/metrics", page, sizeof(page)), 200);
    char key[96];
    snprintf(key, sizeof(key), "\ntrnscid_worker_shards_total{engine=\"%s\"", engine);
    double total = 0;
    for (const char *p = strstr(page, key); p; p = strstr(p + 1, key)) {
        const char *v = strchr(p + 1, ' ');
        if (v)
            total += strtod(v + 1, NULL);
    }
    return total;
}

/* The daemon's ops run ahead of their turn so far (trnscid_ops_run_ahead_total). */
static double run_ahead_ops(void) {
    const double v = th_metrics_sample(metrics_port, "trnscid_ops_run_ahead_total");
    assert_true(v >= 0);
    return v;
}

static void *upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void *download(const void *dev, size_t bytes) {
    void *h = malloc(bytes);
    assert_non_null(h);
    assert_int_equal(trnsciMemcpy(h, dev, bytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    return h;
}

/* The cores' work: a long SGEMM (long_op.h) on a stream of its own, and
 * a second stream for the conversion. Everything is allocated and
 * uploaded before the SGEMM starts, since trnsciMalloc, trnsciFree and
 * trnsciMemcpy wait for the device. */
typedef struct busy {
    long_op op;
    trnsciStream_t gemm, convert;
} busy;

static void busy_make(busy *b) {
    long_op_init(&b->op);
    assert_int_equal(trnsciStreamCreateWithFlags(&b->gemm, trnsciStreamNonBlocking), trnsciSuccess);
    assert_int_equal(trnsciStreamCreateWithFlags(&b->convert, trnsciStreamNonBlocking),
                     trnsciSuccess);
}

static void busy_start(busy *b) {
    long_op_queue(&b->op, b->gemm);
}

static void busy_free(busy *b) {
    assert_int_equal(trnsciStreamSynchronize(b->gemm), trnsciSuccess);
    long_op_free(&b->op);
    assert_int_equal(trnsciStreamDestroy(b->gemm), trnsciSuccess);
    assert_int_equal(trnsciStreamDestroy(b->convert), trnsciSuccess);
}

/* ---- CSR -> CSC --------------------------------------------------------- */

enum { M = 60000, N = 50000, PER_ROW = 7 };

typedef struct csr {
    int nnz;
    int *rowptr, *col;
    double *val;
} csr;

static void csr_make(csr *a) {
    a->nnz = M * PER_ROW;
    a->rowptr = malloc((M + 1) * sizeof(int));
    a->col = malloc((size_t)a->nnz * sizeof(int));
    a->val = malloc((size_t)a->nnz * sizeof(double));
    assert_true(a->rowptr && a->col && a->val);
    uint32_t x = 12345;
    for (int i = 0; i <= M; i++)
        a->rowptr[i] = i * PER_ROW;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < PER_ROW; k++) { /* sorted, distinct columns */
            x = x * 1664525u + 1013904223u;
            a->col[i * PER_ROW + k] = k * (N / PER_ROW) + (int)(x >> 8) % (N / PER_ROW);
            a->val[i * PER_ROW + k] = (double)(x >> 4) / 16777216.0 - 64.0;
        }
}

/* The CSC of a on the host: a counting sort by column, rows in order. */
static void csc_of(const csr *a, int *colptr, int *row, double *val) {
    memset(colptr, 0, (N + 1) * sizeof(int));
    for (int e = 0; e < a->nnz; e++)
        colptr[a->col[e] + 1]++;
    for (int j = 0; j < N; j++)
        colptr[j + 1] += colptr[j];
    int *next = malloc(N * sizeof(int));
    assert_non_null(next);
    memcpy(next, colptr, N * sizeof(int));
    for (int i = 0; i < M; i++)
        for (int e = a->rowptr[i]; e < a->rowptr[i + 1]; e++) {
            const int at = next[a->col[e]]++;
            row[at] = i;
            val[at] = a->val[e];
        }
    free(next);
}

/* Converts a on the daemon, beside an SGEMM when `beside` is not NULL
 * (behind it on its stream when `behind`, else on a stream of its own), and
 * checks the result against the host's; returns the copy-engine shards it
 * took. */
static double csr_to_csc(const csr *a, busy *beside, int behind) {
    const trnsciStream_t stream = !beside ? 0 : behind ? beside->gemm : beside->convert;
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSetStream(h, stream), TRNSPARSE_STATUS_SUCCESS);
    int *drp = upload(a->rowptr, (M + 1) * sizeof(int));
    int *dci = upload(a->col, (size_t)a->nnz * sizeof(int));
    double *dv = upload(a->val, (size_t)a->nnz * sizeof(double));
    int *dcp = NULL, *dri = NULL;
    double *dcv = NULL;
    assert_int_equal(trnsciMalloc((void **)&dcp, (N + 1) * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dri, (size_t)a->nnz * sizeof(int)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dcv, (size_t)a->nnz * sizeof(double)), trnsciSuccess);
    size_t ws = 0;
    assert_int_equal(trnsparseCsr2cscEx2_bufferSize(h, M, N, a->nnz, dv, drp, dci, dcv, dcp, dri,
                                                    TRNSCI_R_64F, TRNSPARSE_ACTION_NUMERIC,
                                                    TRNSPARSE_INDEX_BASE_ZERO,
                                                    TRNSPARSE_CSR2CSC_ALG1, &ws),
                     TRNSPARSE_STATUS_SUCCESS);
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, ws ? ws : 1), trnsciSuccess);
    const double before = engine_shards("copy");
    if (beside)
        busy_start(beside);
    assert_int_equal(trnsparseCsr2cscEx2(h, M, N, a->nnz, dv, drp, dci, dcv, dcp, dri, TRNSCI_R_64F,
                                         TRNSPARSE_ACTION_NUMERIC, TRNSPARSE_INDEX_BASE_ZERO,
                                         TRNSPARSE_CSR2CSC_ALG1, buf),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamSynchronize(stream), trnsciSuccess);
    const double copy = engine_shards("copy") - before;
    if (beside)
        assert_int_equal(trnsciStreamSynchronize(beside->gemm), trnsciSuccess);
    int *cp = download(dcp, (N + 1) * sizeof(int)), *ri = download(dri, a->nnz * sizeof(int));
    double *cv = download(dcv, (size_t)a->nnz * sizeof(double));
    int *wcp = malloc((N + 1) * sizeof(int)), *wri = malloc((size_t)a->nnz * sizeof(int));
    double *wcv = malloc((size_t)a->nnz * sizeof(double));
    assert_true(wcp && wri && wcv);
    csc_of(a, wcp, wri, wcv);
    assert_memory_equal(cp, wcp, (N + 1) * sizeof(int));
    assert_memory_equal(ri, wri, (size_t)a->nnz * sizeof(int));
    assert_memory_equal(cv, wcv, (size_t)a->nnz * sizeof(double));
    free(cp);
    free(ri);
    free(cv);
    free(wcp);
    free(wri);
    free(wcv);
    void *const devs[] = {drp, dci, dv, dcp, dri, dcv, buf};
    for (size_t k = 0; k < sizeof(devs) / sizeof(devs[0]); k++)
        assert_int_equal(trnsciFree(devs[k]), trnsciSuccess);
    assert_int_equal(trnsparseDestroy(h), TRNSPARSE_STATUS_SUCCESS);
    return copy;
}

static void test_sparse(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(daemon_.unix_addr), trnsciSuccess);
    csr a;
    csr_make(&a);
    const double core_before = engine_shards("core");
    assert_true(csr_to_csc(&a, NULL, 0) == 0); /* idle: on the cores */
    assert_true(engine_shards("core") > core_before);
    busy b;
    busy_make(&b);
    const double copy = csr_to_csc(&a, &b, 0);
    /* Behind the SGEMM on its own stream: its arrays (ops/span.h) miss the
     * SGEMM's memory, so it runs ahead of its turn on the copy engine. */
    const double before = run_ahead_ops();
    const double ahead = csr_to_csc(&a, &b, 1);
    const double ran_ahead = run_ahead_ops() - before;
    busy_free(&b);
    if (!(copy >= 1))
        fail_msg("the conversion beside a GEMM ran %g shards on the copy engine", copy);
    if (!(ahead >= 1) || ran_ahead != 1)
        fail_msg("the conversion behind a GEMM: %g copy-engine shards, %g ops run ahead", ahead,
                 ran_ahead);
    free(a.rowptr);
    free(a.col);
    free(a.val);
    trnsciDeviceReset();
}

/* ---- FP64 -> FP32 permutation ------------------------------------------- */

/* B (ba, float) = A (ab, double) transposed, beside an SGEMM when `beside`
 * is not NULL (behind it on its stream when `behind`, else on a stream of
 * its own); checked against the host's rounding of each element; returns
 * the copy-engine shards it took. */
static double permute(const double *host, int64_t e0, int64_t e1, busy *beside, int behind) {
    const trnsciStream_t stream = !beside ? 0 : behind ? beside->gemm : beside->convert;
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const size_t count = (size_t)(e0 * e1);
    double *da = upload(host, count * sizeof(double));
    float *db = NULL;
    assert_int_equal(trnsciMalloc((void **)&db, count * sizeof(float)), trnsciSuccess);
    const int64_t ext_a[2] = {e0, e1}, ext_b[2] = {e1, e0};
    const int32_t mode_a[2] = {'a', 'b'}, mode_b[2] = {'b', 'a'};
    trntensorTensorDescriptor_t ta, tb;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &ta, 2, ext_a, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &tb, 2, ext_b, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op;
    assert_int_equal(trntensorCreatePermutation(h, &op, ta, mode_a, TRNTENSOR_OP_IDENTITY, tb,
                                                mode_b, TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const double alpha = 1.0, before = engine_shards("copy");
    if (beside)
        busy_start(beside);
    assert_int_equal(trntensorPermute(h, plan, &alpha, da, db, stream), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamSynchronize(stream), trnsciSuccess);
    const double copy = engine_shards("copy") - before;
    if (beside)
        assert_int_equal(trnsciStreamSynchronize(beside->gemm), trnsciSuccess);
    float *got = download(db, count * sizeof(float));
    for (int64_t j = 0; j < e1; j++)
        for (int64_t i = 0; i < e0; i++) {
            const float want = (float)host[j * e0 + i]; /* A(i, j) -> B(j, i) */
            if (memcmp(&got[i * e1 + j], &want, sizeof(float)) != 0)
                fail_msg("B(%lld, %lld) = %a, want %a", (long long)j, (long long)i,
                         (double)got[i * e1 + j], (double)want);
        }
    free(got);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(ta);
    trntensorDestroyTensorDescriptor(tb);
    assert_int_equal(trnsciFree(da), trnsciSuccess);
    assert_int_equal(trnsciFree(db), trnsciSuccess);
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
    return copy;
}

static void test_tensor(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(daemon_.unix_addr), trnsciSuccess);
    const int64_t e0 = 1500, e1 = 1100;
    double *host = malloc((size_t)(e0 * e1) * sizeof(double));
    assert_non_null(host);
    uint64_t x = 777;
    for (int64_t k = 0; k < e0 * e1; k++) { /* doubles that do not fit a float exactly */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        host[k] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 1e3;
    }
    assert_true(permute(host, e0, e1, NULL, 0) == 0); /* idle: on the cores */
    busy b;
    busy_make(&b);
    const double copy = permute(host, e0, e1, &b, 0);
    /* Behind the SGEMM on its own stream: it reads and writes none of the
     * SGEMM's memory, so it runs ahead of its turn, while the cores
     * compute (on the copy engine). */
    const double before = run_ahead_ops();
    const double ahead = permute(host, e0, e1, &b, 1);
    const double ran_ahead = run_ahead_ops() - before;
    busy_free(&b);
    if (!(copy >= 1))
        fail_msg("the permutation beside a GEMM ran %g shards on the copy engine", copy);
    if (!(ahead >= 1) || ran_ahead != 1)
        fail_msg("the permutation behind a GEMM: %g copy-engine shards, %g ops run ahead", ahead,
                 ran_ahead);
    free(host);
    trnsciDeviceReset();
}

/* A permutation of the SGEMM's own C queued behind it on its stream must
 * not run ahead: it reads what the SGEMM writes. P = C transposed (float
 * to float), checked against the finished C. */
static void test_behind_its_input(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(daemon_.unix_addr), trnsciSuccess);
    busy b;
    busy_make(&b);
    const size_t count = (size_t)LONG_N * LONG_N;
    float *a = malloc(count * sizeof(float));
    assert_non_null(a);
    uint64_t x = 4242;
    for (size_t k = 0; k < count; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        a[k] = (float)((double)(x >> 11) / 9007199254740992.0 - 0.5);
    }
    assert_int_equal(trnsciMemcpy(b.op.a, a, count * sizeof(float), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemset(b.op.c, 0, count * sizeof(float)), trnsciSuccess);
    float *dp = NULL;
    assert_int_equal(trnsciMalloc((void **)&dp, count * sizeof(float)), trnsciSuccess);
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t ext[2] = {LONG_N, LONG_N};
    const int32_t mode_c[2] = {'a', 'b'}, mode_p[2] = {'b', 'a'};
    trntensorTensorDescriptor_t tc;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &tc, 2, ext, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op;
    assert_int_equal(trntensorCreatePermutation(h, &op, tc, mode_c, TRNTENSOR_OP_IDENTITY, tc,
                                                mode_p, TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const float alpha = 1.0f;
    const double before = run_ahead_ops();
    busy_start(&b);
    assert_int_equal(trntensorPermute(h, plan, &alpha, b.op.c, dp, b.gemm),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamSynchronize(b.gemm), trnsciSuccess);
    float *c = download(b.op.c, count * sizeof(float)), *p = download(dp, count * sizeof(float));
    size_t bad = 0, nonzero = 0;
    for (size_t i = 0; i < LONG_N; i++)
        for (size_t j = 0; j < LONG_N; j++) {
            bad += memcmp(&p[i * LONG_N + j], &c[j * LONG_N + i], sizeof(float)) != 0;
            nonzero += c[j * LONG_N + i] != 0.0f;
        }
    if (bad || nonzero < count / 2)
        fail_msg("%zu of P differ from the finished C transposed (%zu of C nonzero)", bad, nonzero);
    assert_true(run_ahead_ops() == before); /* it waited for its turn */
    free(a);
    free(c);
    free(p);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(tc);
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(dp), trnsciSuccess);
    busy_free(&b);
    trnsciDeviceReset();
}

int main(void) {
    char listen[64];
    metrics_port = th_free_port();
    snprintf(listen, sizeof(listen), "127.0.0.1:%d", metrics_port);
    const char *const args[] = {"--cores", "2", "--metrics-listen", listen, "--run-ahead",
                                "on",      NULL};
    if (th_daemon_start(&daemon_, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_tensor),
        cmocka_unit_test(test_behind_its_input),
    };
    int failed = cmocka_run_group_tests_name("conversions on the copy engine", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&daemon_, "trnscid");
    return failed ? 1 : 0;
}
