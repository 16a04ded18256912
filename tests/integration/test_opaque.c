/*
 * test_opaque.c — the opaque-pointer memory model on the local transport
 * (docs/neuron.md, "Memory model"), through a real trnscid started with
 * `--device-pointers opaque --cores 2` on the CPU backend:
 *  - a device pointer is not mapped into the process (its page is PROT_NONE
 *    in /proc/self/maps), the device reports itself not integrated but able
 *    to map host memory, and pinned host memory is mapped;
 *  - host↔device copies through the staging buffer: sizes around the
 *    staging buffer's size (TRNSCI_WIRE_STAGING_BYTES) and unaligned offsets, checked byte for
 *    byte against the host data, with the bytes beside the copied range
 *    checked untouched; memsets; device-to-device copies;
 *  - stream order: asynchronous uploads, a SAXPY and an asynchronous download
 *    on one stream give the SAXPY of the host data (small integers: exact);
 *  - pinned memory copied directly (no staging) both ways, synchronously
 *    and on a stream;
 *  - four threads copying at once through the one staging buffer, each
 *    reading back exactly its own data;
 *  - a local client older than protocol 1.14 is refused at OpenSession
 *    with a message naming the reason (FAILED_PRECONDITION).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

#define MIB ((size_t)1 << 20)

static th_daemon dmn;

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 9)) & 0xff);
}

/* The permissions /proc/self/maps gives the mapping holding p ("---p"), or
 * "" when none does. */
static void page_perms(const void *p, char perms[5]) {
    perms[0] = '\0';
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512];
    const uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char pr[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) == 3 && a >= lo && a < hi) {
            memcpy(perms, pr, 5);
            break;
        }
    }
    fclose(f);
}

static void test_pointers_are_opaque(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    void *d = NULL, *h = NULL;
    assert_int_equal(trnsciMalloc(&d, 3 * 4096), trnsciSuccess);
    char perms[5];
    page_perms(d, perms);
    assert_string_equal(perms, "---p");
    int v = -1;
    assert_int_equal(trnsciDeviceGetAttribute(&v, trnsciDevAttrIntegrated, 0), trnsciSuccess);
    assert_int_equal(v, 0);
    assert_int_equal(trnsciDeviceGetAttribute(&v, trnsciDevAttrCanMapHostMemory, 0), trnsciSuccess);
    assert_int_equal(v, 1);
    /* Pinned memory is shared memory the process maps and writes. */
    assert_int_equal(trnsciMallocHost(&h, 4096), trnsciSuccess);
    page_perms(h, perms);
    assert_string_equal(perms, "rw-s");
    memset(h, 0x5a, 4096);
    assert_int_equal(trnsciFreeHost(h), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
}

/* Uploads n bytes at offset off of a device buffer whose other bytes hold
 * another pattern, downloads the whole buffer and compares. */
static void roundtrip(size_t n, size_t off) {
    const size_t size = n + off + 5;
    unsigned char *base = malloc(size), *data = malloc(n), *back = malloc(size);
    assert_non_null(base);
    assert_non_null(data);
    assert_non_null(back);
    fill_pattern(base, size, 1);
    fill_pattern(data, n, 2);
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, size), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, base, size, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy((char *)d + off, data, n, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    memset(back, 0, size);
    assert_int_equal(trnsciMemcpy(back, d, size, trnsciMemcpyDeviceToHost), trnsciSuccess);
    memcpy(base + off, data, n); /* what the buffer must hold now */
    if (memcmp(back, base, size) != 0)
        fail_msg("round trip of %zu bytes at offset %zu differs", n, off);
    /* trnsciMemcpyDefault infers the direction from the pointers. */
    memset(back, 0, size);
    assert_int_equal(trnsciMemcpy(back, (char *)d + off, n, trnsciMemcpyDefault), trnsciSuccess);
    assert_memory_equal(back, data, n);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    free(base);
    free(data);
    free(back);
}

static void test_staged_copies(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    const size_t st = TRNSCI_WIRE_STAGING_BYTES; /* one staged Write/Read */
    const size_t sizes[] = {1, 4095, MIB + 1, st - 1, st, st + 1, 2 * st + MIB / 2};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        roundtrip(sizes[i], 0);
        roundtrip(sizes[i], 3);
    }
}

static void test_memset_and_device_copy(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    const size_t n = TRNSCI_WIRE_STAGING_BYTES + 2 * MIB + 17;
    unsigned char *host = malloc(n), *back = malloc(n);
    assert_non_null(host);
    assert_non_null(back);
    fill_pattern(host, n, 3);
    void *a = NULL, *b = NULL;
    assert_int_equal(trnsciMalloc(&a, n), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&b, n), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(a, host, n, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(b, a, n, trnsciMemcpyDeviceToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemset((char *)b + 100, 0xee, 1000), trnsciSuccess);
    memset(host + 100, 0xee, 1000);
    assert_int_equal(trnsciMemcpy(back, b, n, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(back, host, n);
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciFree(b), trnsciSuccess);
    free(host);
    free(back);
}

static void test_stream_order(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    const int n = 2500000; /* 9.5 MiB per vector: several staged Writes */
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
    float *out = malloc(sizeof(float) * (size_t)n);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(out);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000);
        y[i] = (float)(i % 7);
    }
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSetStream(h, s), TRNBLAS_STATUS_SUCCESS);
    float *dx = NULL, *dy = NULL;
    assert_int_equal(trnsciMalloc((void **)&dx, sizeof(float) * (size_t)n), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dy, sizeof(float) * (size_t)n), trnsciSuccess);
    assert_int_equal(
        trnsciMemcpyAsync(dx, x, sizeof(float) * (size_t)n, trnsciMemcpyHostToDevice, s),
        trnsciSuccess);
    assert_int_equal(
        trnsciMemcpyAsync(dy, y, sizeof(float) * (size_t)n, trnsciMemcpyHostToDevice, s),
        trnsciSuccess);
    /* The sources may be reused once the calls return. */
    memset(x, 0, sizeof(float) * (size_t)n);
    const float alpha = 2.0f;
    assert_int_equal(trnblasSaxpy(h, n, &alpha, dx, 1, dy, 1), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(
        trnsciMemcpyAsync(out, dy, sizeof(float) * (size_t)n, trnsciMemcpyDeviceToHost, s),
        trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    /* 2·x + y of integers below 2^24: exact in FP32. */
    for (int i = 0; i < n; i++)
        if (out[i] != 2.0f * (float)(i % 1000) + (float)(i % 7))
            fail_msg("element %d: %g", i, (double)out[i]);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnsciFree(dx), trnsciSuccess);
    assert_int_equal(trnsciFree(dy), trnsciSuccess);
    free(x);
    free(y);
    free(out);
}

static void test_pinned_direct(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    const size_t n = 3 * MIB + 5;
    unsigned char *pin = NULL, *pin2 = NULL, *want = malloc(n);
    assert_non_null(want);
    fill_pattern(want, n, 9);
    assert_int_equal(trnsciMallocHost((void **)&pin, n), trnsciSuccess);
    assert_int_equal(trnsciMallocHost((void **)&pin2, n), trnsciSuccess);
    memcpy(pin, want, n);
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, n), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, pin, n, trnsciMemcpyHostToDevice), trnsciSuccess);
    memset(pin2, 0, n);
    assert_int_equal(trnsciMemcpy(pin2, d, n, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(pin2, want, n);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(d, 0, n, s), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(d, pin, n, trnsciMemcpyHostToDevice, s), trnsciSuccess);
    memset(pin2, 0, n);
    assert_int_equal(trnsciMemcpyAsync(pin2, d, n, trnsciMemcpyDeviceToHost, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_memory_equal(pin2, want, n);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnsciFreeHost(pin), trnsciSuccess);
    assert_int_equal(trnsciFreeHost(pin2), trnsciSuccess);
    free(want);
}

typedef struct copier {
    unsigned seed;
    int failures;
} copier;

static void *copy_loop(void *arg) {
    copier *c = arg;
    const size_t n = 2 * MIB + c->seed;
    unsigned char *data = malloc(n), *back = malloc(n);
    void *d = NULL;
    if (!data || !back || trnsciMalloc(&d, n) != trnsciSuccess) {
        c->failures++;
        goto out;
    }
    for (int round = 0; round < 8; round++) {
        fill_pattern(data, n, c->seed * 100 + (unsigned)round);
        memset(back, 0, n);
        if (trnsciMemcpy(d, data, n, trnsciMemcpyHostToDevice) != trnsciSuccess ||
            trnsciMemcpy(back, d, n, trnsciMemcpyDeviceToHost) != trnsciSuccess ||
            memcmp(back, data, n) != 0)
            c->failures++;
    }
    trnsciFree(d);
out:
    free(data);
    free(back);
    return NULL;
}

static void test_threads_share_staging(void **state) {
    (void)state;
    assert_int_equal(trnsciInit(dmn.unix_addr), trnsciSuccess);
    pthread_t t[4];
    copier c[4];
    for (int i = 0; i < 4; i++) {
        c[i] = (copier){.seed = (unsigned)i + 1, .failures = 0};
        assert_int_equal(pthread_create(&t[i], NULL, copy_loop, &c[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(c[i].failures, 0);
    }
}

/* ---- an older client, on the raw wire (docs/protocol.md, "Frames") ---- */

static int read_all(int fd, void *p, size_t n) {
    for (size_t got = 0; got < n;) {
        const ssize_t r = read(fd, (char *)p + got, n - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static void test_old_client_refused(void **state) {
    (void)state;
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    const char *path = dmn.unix_addr + strlen("unix:");
    assert_true(strlen(path) < sizeof(sa.sun_path));
    memcpy(sa.sun_path, path, strlen(path) + 1);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    Trnsci__V1__OpenSessionRequest req = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    req.protocol_minor = 13;
    req.client_name = "old-libtrnsci";
    uint8_t body[256];
    const size_t len = trnsci__v1__open_session_request__pack(&req, body);
    const trn_local_hdr h = {(uint32_t)len, TRN_WIRE_OPEN_SESSION, 0, 7};
    assert_int_equal(write(fd, &h, sizeof(h)), (ssize_t)sizeof(h));
    assert_int_equal(write(fd, body, len), (ssize_t)len);
    trn_local_hdr r;
    assert_int_equal(read_all(fd, &r, sizeof(r)), 0);
    assert_int_equal(r.tag, 7);
    assert_int_equal(r.kind, TRN_WIRE_FAILED_PRECONDITION);
    char msg[512] = "";
    assert_true(r.len < sizeof(msg));
    assert_int_equal(read_all(fd, msg, r.len), 0);
    if (!strstr(msg, "opaque") || !strstr(msg, "1.14"))
        fail_msg("refusal \"%s\" does not say why", msg);
    close(fd);
}

static int reset(void **state) {
    (void)state;
    trnsciDeviceReset();
    return 0;
}

int main(void) {
    const char *const args[] = {"--cores", "2", "--device-pointers", "opaque", NULL};
    if (th_daemon_start(&dmn, args) != 0) {
        fprintf(stderr, "could not start trnscid --device-pointers opaque\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_pointers_are_opaque, reset),
        cmocka_unit_test_teardown(test_staged_copies, reset),
        cmocka_unit_test_teardown(test_memset_and_device_copy, reset),
        cmocka_unit_test_teardown(test_stream_order, reset),
        cmocka_unit_test_teardown(test_pinned_direct, reset),
        cmocka_unit_test_teardown(test_threads_share_staging, reset),
        cmocka_unit_test(test_old_client_refused),
    };
    int failed = cmocka_run_group_tests_name("opaque", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&dmn, "trnscid");
    return failed ? 1 : 0;
}
