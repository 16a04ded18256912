/*
 * test_soak.c — 32 concurrent client processes against one daemon, half on
 * the local transport and half on gRPC over TCP, for a bounded time
 * (TRNSCI_SOAK_SECONDS, default 4; the long form is 600, docs/security.md).
 *
 * Each client loops over a random mix, every result checked against an
 * independent reference:
 *   - SGEMM of small integers against an exact loop (th_sgemm_round);
 *   - a 256-point C2C FFT of a unit impulse: every output exactly 1 + 0i
 *     (x_0 sits at index 0 of every sub-transform, so it is only ever
 *     multiplied by w^0 = 1, and adding the zero inputs is exact);
 *   - Philox uniforms: the same seed and offset twice give identical
 *     numbers, all in (0, 1];
 *   - a host → device → device → host round trip of random bytes;
 *   - invalid requests: SGEMM with lda = 0 (TRNBLAS_STATUS_INVALID_VALUE),
 *     a 0-point FFT plan (TRNFFT_INVALID_SIZE), freeing a pointer the
 *     client does not own (an error, not a crash).
 * What the run must show: no wrong or lost result (every call returns and
 * is checked), the same daemon process throughout (no restart), nothing
 * held afterwards, and on the Release build a resident set that does not
 * grow by more than 32 MiB + 10% between the end of warm-up (a third of the
 * run) and the end. ASan's quarantine grows by design, so the sanitizer build
 * reports the figures without the bound. Prints ops/s and the p99 latency.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnrand.h"

#define CLIENTS 32
#define MAX_SAMPLES 100000

static th_daemon dmn;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double soak_seconds(void) {
    const char *v = getenv("TRNSCI_SOAK_SECONDS");
    const double s = v ? atof(v) : 4.0;
    return s > 0 ? s : 4.0;
}

/* ---- the client ---------------------------------------------------------------- */

static int op_fft(void) {
    enum { N = 256 };
    trnfftComplex *d = NULL, h[N];
    trnfftHandle p;
    memset(h, 0, sizeof(h));
    h[0].x = 1;
    int bad = 1;
    if (trnsciMalloc((void **)&d, sizeof(h)) ||
        trnsciMemcpy(d, h, sizeof(h), trnsciMemcpyHostToDevice))
        goto out;
    if (trnfftPlan1d(&p, N, TRNFFT_C2C, 1) != TRNFFT_SUCCESS)
        goto out;
    const int ok = trnfftExecC2C(p, d, d, TRNFFT_FORWARD) == TRNFFT_SUCCESS &&
                   trnsciMemcpy(h, d, sizeof(h), trnsciMemcpyDeviceToHost) == trnsciSuccess;
    trnfftDestroy(p);
    if (!ok)
        goto out;
    bad = 0;
    for (int i = 0; i < N; i++)
        bad |= h[i].x != 1.0f || h[i].y != 0.0f;
out:
    trnsciFree(d);
    return bad;
}

static int op_rand(unsigned long long seed) {
    enum { N = 1000 };
    float *d = NULL, x[N], y[N];
    trnrandGenerator_t g;
    int bad = 1;
    if (trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10))
        return 1;
    if (trnsciMalloc((void **)&d, sizeof(x)) || trnrandSetPseudoRandomGeneratorSeed(g, seed) ||
        trnrandGenerateUniform(g, d, N) ||
        trnsciMemcpy(x, d, sizeof(x), trnsciMemcpyDeviceToHost) ||
        trnrandSetGeneratorOffset(g, 0) || trnrandGenerateUniform(g, d, N) ||
        trnsciMemcpy(y, d, sizeof(y), trnsciMemcpyDeviceToHost))
        goto out;
    bad = memcmp(x, y, sizeof(x)) != 0;
    for (int i = 0; i < N; i++)
        bad |= !(x[i] > 0.0f && x[i] <= 1.0f);
out:
    trnsciFree(d);
    trnrandDestroyGenerator(g);
    return bad;
}

static int op_copy(unsigned *seed) {
    enum { N = 4096 };
    unsigned char in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (unsigned char)rand_r(seed);
    void *a = NULL, *b = NULL;
    int bad = 1;
    if (!trnsciMalloc(&a, N) && !trnsciMalloc(&b, N) &&
        !trnsciMemcpy(a, in, N, trnsciMemcpyHostToDevice) &&
        !trnsciMemcpy(b, a, N, trnsciMemcpyDeviceToDevice) &&
        !trnsciMemcpy(out, b, N, trnsciMemcpyDeviceToHost))
        bad = memcmp(in, out, N) != 0;
    trnsciFree(a);
    trnsciFree(b);
    return bad;
}

/* Requests the daemon or the library must refuse, cleanly. */
static int op_invalid(trnblasHandle_t h, int which) {
    const float one = 1;
    float *p = NULL;
    switch (which) {
    case 0:
        if (trnsciMalloc((void **)&p, 64 * sizeof(float)))
            return 1;
        {
            const int refused = trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 4, 4, &one, p, 0, p,
                                             4, &one, p, 4) == TRNBLAS_STATUS_INVALID_VALUE;
            trnsciFree(p);
            return !refused;
        }
    case 1: {
        trnfftHandle plan;
        return trnfftPlan1d(&plan, 0, TRNFFT_C2C, 1) != TRNFFT_INVALID_SIZE;
    }
    default: {
        int local = 0;
        return trnsciFree(&local) == trnsciSuccess; /* not a device pointer of this client */
    }
    }
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs the mix until the deadline and writes "ops wrong p99_us\n" to fd. */
static int soaker(const char *addr, int fd) {
    unsigned seed = (unsigned)getpid();
    trnblasHandle_t h;
    if (trnsciInit(addr) || trnblasCreate(&h))
        return 20;
    double *lat = malloc(MAX_SAMPLES * sizeof(double));
    if (!lat)
        return 21;
    const double end = now_s() + soak_seconds();
    long ops = 0, wrong = 0;
    int n = 0;
    while (now_s() < end) {
        const int kind = (int)(rand_r(&seed) % 6);
        const double t0 = now_s();
        int bad;
        switch (kind) {
        case 0: bad = th_sgemm_round(h, (int)ops) != 0; break;
        case 1: bad = op_fft(); break;
        case 2: bad = op_rand(rand_r(&seed)); break;
        case 3: bad = op_copy(&seed); break;
        default: bad = op_invalid(h, (int)(rand_r(&seed) % 3)); break;
        }
        if (n < MAX_SAMPLES)
            lat[n++] = now_s() - t0;
        ops++;
        wrong += bad;
    }
    qsort(lat, (size_t)n, sizeof(double), cmp_double);
    const double p99 = n ? lat[(size_t)((n - 1) * 0.99)] : 0;
    free(lat);
    trnblasDestroy(h);
    trnsciDeviceReset();
    char line[128];
    const int len = snprintf(line, sizeof(line), "%ld %ld %.0f\n", ops, wrong, p99 * 1e6);
    return write(fd, line, (size_t)len) == len ? 0 : 22;
}

/* ---- the run ------------------------------------------------------------------- */

static void test_soak(void **state) {
    (void)state;
    const double seconds = soak_seconds();
    const pid_t dpid = dmn.pid;
    char out[CLIENTS][320];
    pid_t kids[CLIENTS];
    const double t0 = now_s();
    for (int i = 0; i < CLIENTS; i++) {
        snprintf(out[i], sizeof(out[i]), "%s/soak-%d.out", dmn.dir, i);
        FILE *f = fopen(out[i], "w");
        assert_non_null(f);
        kids[i] = th_spawn_role("soaker", i % 2 ? dmn.tcp_addr : dmn.unix_addr, fileno(f));
        fclose(f);
        assert_true(kids[i] > 0);
    }
    /* Resident set at the end of warm-up and at the end of the run. */
    while (now_s() - t0 < seconds / 3)
        usleep(20000);
    const long rss_warm = th_status_kb(dpid, "VmRSS:");
    long rss_end = rss_warm;
    while (now_s() - t0 < seconds) {
        usleep(20000);
        rss_end = th_status_kb(dpid, "VmRSS:");
    }
    long ops = 0, wrong = 0;
    double p99 = 0;
    for (int i = 0; i < CLIENTS; i++) {
        assert_int_equal(th_wait_child(kids[i]), 0);
        FILE *f = fopen(out[i], "r");
        assert_non_null(f);
        long o = -1, w = -1;
        double p = 0;
        assert_int_equal(fscanf(f, "%ld %ld %lf", &o, &w, &p), 3);
        fclose(f);
        ops += o;
        wrong += w;
        p99 = p > p99 ? p : p99;
        assert_true(o > 0);
    }
    const double wall = now_s() - t0;
    fprintf(stderr,
            "soak: %d clients (16 local, 16 gRPC), %.1f s: %ld ops, %.0f ops/s, worst client p99 "
            "%.0f us, %ld wrong; daemon RSS %ld kB after warm-up, %ld kB at the end\n",
            CLIENTS, wall, ops, (double)ops / seconds, p99, wrong, rss_warm, rss_end);
    assert_int_equal(wrong, 0);
    assert_int_equal(kill(dpid, 0), 0); /* the same daemon, never restarted */
    assert_int_equal(th_wait_daemon_idle(dmn.unix_addr, 15000), 0);
#ifndef TRNSCI_TEST_NO_RSS_BOUND
    assert_true(rss_end - rss_warm <= 32 * 1024 + rss_warm / 10);
#endif
}

static int setup(void **state) {
    (void)state;
    return th_daemon_start(&dmn, NULL);
}

static int teardown(void **state) {
    (void)state;
    return th_daemon_stop_checked(&dmn, "trnscid");
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "soaker") == 0)
        return soaker(argv[3], atoi(argv[4]));
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
    return cmocka_run_group_tests_name("soak", tests, setup, teardown);
}
