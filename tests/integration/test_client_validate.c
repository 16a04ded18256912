/*
 * test_client_validate.c — libtrnsci validates each op before sending it
 * (client/validate.h).
 *
 * Over the local transport and gRPC, each call below passes the library's
 * own argument checks but breaks a rule only the validators know (an operand
 * past the end of its allocation, an extent that overflows, a batch that
 * does not fit its buffer). Checked:
 *  - it fails with the CUDA library's status, and the daemon receives no
 *    request for it (trnscid_requests_total of the transport is unchanged);
 *  - with TRNSCI_CLIENT_VALIDATE=0 the same call goes to the daemon (the
 *    count grows), which fails it with the same status and the very same
 *    message: the client's judgement is the daemon's (launches blocking,
 *    TRNSCI_LAUNCH_BLOCKING=1, so that the daemon's refusal is the call's
 *    error rather than the next synchronize's: test_launch.c covers that);
 *  - a valid call still reaches the daemon.
 */
#include <limits.h>
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
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"

static th_daemon daemon_;
static int metrics_port;

/* The value of the sample `series` on the daemon's /metrics page. */
static double sample(const char *series) {
    const double v = th_metrics_sample(metrics_port, series);
    assert_true(v >= 0);
    return v;
}

enum { C_GEMM, C_AXPY, C_POTRF, C_FFT, NCASES };
static const char *const case_names[NCASES] = {"sgemm", "daxpy", "dpotrf", "fft c2c"};

typedef struct outcome {
    int status;
    char msg[512];
    double requests; /* the transport's requests the call made */
} outcome;

typedef struct objects {
    trnblasHandle_t blas;
    trnsolverDnHandle_t solver;
    trnfftHandle fft;
    float *a, *b, *c;
    double *x, *y;
    trnfftComplex *sig;
    int *info;
} objects;

static void make(objects *o) {
    assert_int_equal(trnblasCreate(&o->blas), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsolverDnCreate(&o->solver), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnfftPlan1d(&o->fft, 1024, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    /* A holds 64 floats: a 16 x 16 A is 256. */
    assert_int_equal(trnsciMalloc((void **)&o->a, 64 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->b, 256 * sizeof(float)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->c, 256 * sizeof(float)), trnsciSuccess);
    /* x holds 20 doubles: 10 of them 3 apart span 28. */
    assert_int_equal(trnsciMalloc((void **)&o->x, 20 * sizeof(double)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->y, 10 * sizeof(double)), trnsciSuccess);
    /* 512 points of a 1024-point transform. */
    assert_int_equal(trnsciMalloc((void **)&o->sig, 512 * sizeof(trnfftComplex)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&o->info, sizeof(int)), trnsciSuccess);
}

static void unmake(objects *o) {
    assert_int_equal(trnfftDestroy(o->fft), TRNFFT_SUCCESS);
    assert_int_equal(trnsolverDnDestroy(o->solver), TRNSOLVER_STATUS_SUCCESS);
    assert_int_equal(trnblasDestroy(o->blas), TRNBLAS_STATUS_SUCCESS);
    trnsciFree(o->a);
    trnsciFree(o->b);
    trnsciFree(o->c);
    trnsciFree(o->x);
    trnsciFree(o->y);
    trnsciFree(o->sig);
    trnsciFree(o->info);
}

static int call(const objects *o, int which) {
    const float one = 1.0f, zero = 0.0f;
    const double two = 2.0;
    switch (which) {
    case C_GEMM:
        return trnblasSgemm(o->blas, TRNBLAS_OP_N, TRNBLAS_OP_N, 16, 16, 16, &one, o->a, 16, o->b,
                            16, &zero, o->c, 16);
    case C_AXPY: return trnblasDaxpy(o->blas, 10, &two, o->x, 3, o->y, 1);
    case C_POTRF:
        /* An n x n matrix with lda = n = INT_MAX: its extent overflows. */
        return trnsolverDnDpotrf(o->solver, TRNBLAS_FILL_MODE_LOWER, INT_MAX, o->y, INT_MAX, NULL,
                                 0, o->info);
    case C_FFT: return trnfftExecC2C(o->fft, o->sig, o->sig, TRNFFT_FORWARD);
    }
    return -1;
}

/* Makes the objects and runs each bad call, recording what it gave. */
static void run_cases(const char *series, outcome out[NCASES]) {
    objects o;
    make(&o);
    for (int i = 0; i < NCASES; i++) {
        const double before = sample(series);
        out[i].status = call(&o, i);
        snprintf(out[i].msg, sizeof(out[i].msg), "%s", trnsciGetLastErrorMessage());
        out[i].requests = sample(series) - before;
        if (out[i].status == 0)
            fail_msg("%s: the bad call succeeded", case_names[i]);
    }
    /* A valid call still reaches the daemon. */
    const double before = sample(series);
    const double two = 2.0;
    assert_int_equal(trnblasDaxpy(o.blas, 10, &two, o.x, 2, o.y, 1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_true(sample(series) - before >= 1);
    unmake(&o);
}

static void check_transport(const char *addr, const char *series) {
    outcome client[NCASES], daemon[NCASES];
    unsetenv("TRNSCI_CLIENT_VALIDATE");
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    run_cases(series, client);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    setenv("TRNSCI_CLIENT_VALIDATE", "0", 1);
    setenv("TRNSCI_LAUNCH_BLOCKING", "1", 1);
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    run_cases(series, daemon);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    unsetenv("TRNSCI_CLIENT_VALIDATE");
    unsetenv("TRNSCI_LAUNCH_BLOCKING");
    for (int i = 0; i < NCASES; i++) {
        if (client[i].requests != 0)
            fail_msg("%s (%s): the client sent %g requests for a call it could refuse",
                     case_names[i], series, client[i].requests);
        if (daemon[i].requests < 1)
            fail_msg("%s (%s): with TRNSCI_CLIENT_VALIDATE=0 no request reached the daemon",
                     case_names[i], series);
        assert_int_equal(client[i].status, daemon[i].status);
        if (strcmp(client[i].msg, daemon[i].msg) != 0)
            fail_msg("%s (%s): the client said \"%s\", the daemon \"%s\"", case_names[i], series,
                     client[i].msg, daemon[i].msg);
    }
    /* The messages name the operand and the rule. */
    assert_non_null(strstr(client[C_GEMM].msg, "gemm: A: needs 1024 bytes at offset 0"));
    assert_non_null(strstr(client[C_AXPY].msg, "axpy: x: needs 224 bytes"));
    assert_non_null(strstr(client[C_POTRF].msg, "overflows 64 bits"));
    assert_non_null(strstr(client[C_FFT].msg, "fft exec: idata"));
    assert_int_equal(client[C_GEMM].status, TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(client[C_POTRF].status, TRNSOLVER_STATUS_INVALID_VALUE);
    assert_int_equal(client[C_FFT].status, TRNFFT_INVALID_VALUE);
}

static void test_local(void **state) {
    (void)state;
    check_transport(daemon_.unix_addr, "trnscid_requests_total{transport=\"local\"}");
}

static void test_grpc(void **state) {
    (void)state;
    check_transport(daemon_.tcp_addr, "trnscid_requests_total{transport=\"grpc\"}");
}

int main(void) {
    metrics_port = th_free_port();
    char listen[64];
    snprintf(listen, sizeof(listen), "127.0.0.1:%d", metrics_port);
    const char *const args[] = {"--cores", "1", "--metrics-listen", listen, NULL};
    if (th_daemon_start(&daemon_, args) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local),
        cmocka_unit_test(test_grpc),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    failed += th_daemon_stop_checked(&daemon_, "the daemon");
    return failed;
}
