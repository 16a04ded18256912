/*
 * test_runtime_port.c — the CUDA runtime calls a ported program needs
 * beyond the basics, through a real trnscid started with `--cores 2
 * --copy-engines 1 --max-session-bytes 1G`, over the local transport and
 * over gRPC on a Unix socket:
 *  - devices: trnsciSetDevice/GetDevice, trnsciGetDeviceProperties and
 *    trnsciDeviceGetAttribute against what the daemon was started with (2
 *    cores, a 1 GiB quota) and what its Status reply says (protocol minor),
 *    versions (TRNSCIRT_VERSION, 0 without a daemon), bad ordinals and NULLs;
 *  - trnsciMemGetInfo: the quota, and free memory falling by exactly an
 *    allocation's size (gRPC; the local transport also caps it by the
 *    machine's available memory, which moves);
 *  - streams created with flags and priorities;
 *  - pinned memory: round trips checked against the host data; on the local
 *    transport a host-to-device copy from pinned memory returns while a
 *    long GEMM queued before it on the stream is still running (the stream
 *    is not ready right after the call), where a pageable copy waits for it;
 *    trnsciHostGetDevicePointer (pinned memory used by a memset op); the CUDA
 *    errors of trnsciFree/trnsciFreeHost mix-ups and bad flags;
 *  - host registration and its error codes;
 *  - 2D copies and memsets of every kind against a plain nested loop, with
 *    the padding between rows checked untouched, and a refused call
 *    checked to have changed nothing;
 *  - trnsciMallocAsync/trnsciFreeAsync: a buffer freed in stream order
 *    while a copy from it still waits behind a long GEMM is copied intact.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "long_op.h"
#include "trnsci/trnblas.h"

static th_daemon dmn;
static char grpc_dir[256];
static char grpc_addr[320];

typedef struct transport {
    const char *name;
    const char *addr;
    int mapped;
} transport;

static transport local_t = {"local", NULL, 1}, grpc_t = {"grpc", NULL, 0};

static const transport *tr(void **state) {
    return (const transport *)*state;
}

#define QUOTA (1ULL << 30)
#define CORES 2

static void expect_message(const char *needle) {
    const char *msg = trnsciGetLastErrorMessage();
    if (!strstr(msg, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, needle);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xff);
}

/* ---- a long op: an SGEMM of 2048 (17 GFLOP: hundreds of ms on 2 cores) ---- */

/* ---- devices and versions ---------------------------------------------------------- */

static void test_devices(void **state) {
    const transport *t = tr(state);
    assert_int_equal(trnsciInit(t->addr), trnsciSuccess);
    int n = -1, dev = -1;
    assert_int_equal(trnsciGetDeviceCount(&n), trnsciSuccess);
    assert_int_equal(n, 1);
    assert_int_equal(trnsciSetDevice(0), trnsciSuccess);
    assert_int_equal(trnsciSetDevice(1), trnsciErrorInvalidDevice);
    expect_message("device 1");
    assert_int_equal(trnsciSetDevice(-1), trnsciErrorInvalidDevice);
    assert_int_equal(trnsciGetDevice(&dev), trnsciSuccess);
    assert_int_equal(dev, 0);
    assert_int_equal(trnsciGetDevice(NULL), trnsciErrorInvalidValue);

    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(dmn.unix_addr, &st), trnsciSuccess);
    assert_int_equal(st.protocolMajor, 1); /* the protocol is the status's, not the device's */
    trnsciDeviceProp p;
    memset(&p, 0xff, sizeof(p));
    assert_int_equal(trnsciGetDeviceProperties(&p, 0), trnsciSuccess);
    assert_non_null(strstr(p.name, "trnscid"));
    assert_non_null(strstr(p.name, "2 cores"));
    assert_int_equal(p.multiProcessorCount, CORES);
    assert_int_equal(p.major, 8); /* the capability of the features provided */
    assert_int_equal(p.minor, 0);
    if (t->mapped) {
        const uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
        assert_true((uint64_t)p.totalGlobalMem == (phys < QUOTA ? phys : QUOTA));
    } else {
        assert_true((uint64_t)p.totalGlobalMem == QUOTA);
    }
    /* Device memory is the process's own only when it is mapped here;
     * pinned host memory is mapped on the local transport either way. */
    assert_int_equal(p.integrated, t->mapped && !th_opaque_pointers());
    assert_int_equal(p.canMapHostMemory, t->mapped);
    assert_int_equal(p.warpSize, 1);
    assert_int_equal(p.maxThreadsPerBlock, 1);
    assert_int_equal(p.unifiedAddressing, 1);
    assert_int_equal(p.concurrentKernels, 1);
    assert_int_equal(p.sharedMemPerBlock, 0);
    assert_int_equal(p.streamPrioritiesSupported, 0);
    assert_int_equal(trnsciGetDeviceProperties(NULL, 0), trnsciErrorInvalidValue);
    assert_int_equal(trnsciGetDeviceProperties(&p, 1), trnsciErrorInvalidDevice);

    /* Each attribute is its property. */
    const struct {
        trnsciDeviceAttr attr;
        int want;
    } attrs[] = {
        {trnsciDevAttrMultiProcessorCount, CORES},
        {trnsciDevAttrComputeCapabilityMajor, 8},
        {trnsciDevAttrComputeCapabilityMinor, 0},
        {trnsciDevAttrWarpSize, 1},
        {trnsciDevAttrMaxThreadsPerBlock, 1},
        {trnsciDevAttrMaxBlockDimX, 1},
        {trnsciDevAttrMaxGridDimX, 1},
        {trnsciDevAttrIntegrated, t->mapped && !th_opaque_pointers()},
        {trnsciDevAttrCanMapHostMemory, t->mapped},
        {trnsciDevAttrUnifiedAddressing, 1},
        {trnsciDevAttrConcurrentKernels, 1},
        {trnsciDevAttrAsyncEngineCount, 1},
        {trnsciDevAttrMaxPitch, INT_MAX},
        {trnsciDevAttrMaxSharedMemoryPerBlock, 0},
        {trnsciDevAttrManagedMemory, 0},
        {trnsciDevAttrMemoryPoolsSupported, 1},
        {trnsciDevAttrComputeMode, 0},
        {trnsciDevAttrStreamPrioritiesSupported, 0},
    };
    for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
        int v = -7;
        assert_int_equal(trnsciDeviceGetAttribute(&v, attrs[i].attr, 0), trnsciSuccess);
        if (v != attrs[i].want)
            fail_msg("attribute %d: %d, want %d", (int)attrs[i].attr, v, attrs[i].want);
    }
    int v;
    assert_int_equal(trnsciDeviceGetAttribute(&v, (trnsciDeviceAttr)9999, 0),
                     trnsciErrorInvalidValue);
    expect_message("unknown attribute 9999");
    assert_int_equal(trnsciDeviceGetAttribute(&v, trnsciDevAttrWarpSize, 1),
                     trnsciErrorInvalidDevice);
    assert_int_equal(trnsciDeviceGetAttribute(NULL, trnsciDevAttrWarpSize, 0),
                     trnsciErrorInvalidValue);

    int rt = 0, drv = 0;
    assert_int_equal(trnsciRuntimeGetVersion(&rt), trnsciSuccess);
    assert_int_equal(rt, 12000);
    assert_int_equal(TRNSCIRT_VERSION, 12000);
    assert_int_equal(trnsciDriverGetVersion(&drv), trnsciSuccess);
    assert_int_equal(drv, 12000);
    assert_int_equal(trnsciRuntimeGetVersion(NULL), trnsciErrorInvalidValue);
    assert_int_equal(trnsciDriverGetVersion(NULL), trnsciErrorInvalidValue);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* Without a daemon: driver version 0 and success, as CUDA without a driver. */
static void test_driver_version_without_daemon(void **state) {
    (void)state;
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    char addr[300];
    snprintf(addr, sizeof(addr), "unix:%s/nobody-here.sock", grpc_dir);
    setenv("TRNSCI_ADDR", addr, 1);
    int drv = 42;
    assert_int_equal(trnsciDriverGetVersion(&drv), trnsciSuccess);
    assert_int_equal(drv, 0);
    assert_int_equal(trnsciSetDevice(0), trnsciErrorNoDevice);
    unsetenv("TRNSCI_ADDR");
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_mem_get_info(void **state) {
    const transport *t = tr(state);
    assert_int_equal(trnsciInit(t->addr), trnsciSuccess);
    size_t free0, total, free1, total1;
    assert_int_equal(trnsciMemGetInfo(&free0, &total), trnsciSuccess);
    const uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    assert_true((uint64_t)total == (t->mapped && phys < QUOTA ? phys : QUOTA));
    assert_true(free0 <= total);
    const size_t n = 64u << 20;
    void *d;
    assert_int_equal(trnsciMalloc(&d, n), trnsciSuccess);
    assert_int_equal(trnsciMemGetInfo(&free1, &total1), trnsciSuccess);
    assert_true(total1 == total);
    if (t->mapped)
        assert_true(free1 <= total - n);
    else
        assert_true(free0 - free1 == n);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnsciMemGetInfo(NULL, &total), trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemGetInfo(&free0, NULL), trnsciErrorInvalidValue);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- streams with flags and priorities ------------------------------------------------- */

static void test_stream_flags(void **state) {
    assert_int_equal(trnsciInit(tr(state)->addr), trnsciSuccess);
    trnsciStream_t a, b, c;
    assert_int_equal(trnsciStreamCreateWithFlags(&a, trnsciStreamDefault), trnsciSuccess);
    assert_int_equal(trnsciStreamCreateWithFlags(&b, trnsciStreamNonBlocking), trnsciSuccess);
    unsigned flags = 99;
    assert_int_equal(trnsciStreamGetFlags(a, &flags), trnsciSuccess);
    assert_int_equal(flags, trnsciStreamDefault);
    assert_int_equal(trnsciStreamGetFlags(b, &flags), trnsciSuccess);
    assert_int_equal(flags, trnsciStreamNonBlocking);
    assert_int_equal(trnsciStreamGetFlags(NULL, &flags), trnsciSuccess);
    assert_int_equal(flags, trnsciStreamDefault);
    assert_int_equal(trnsciStreamGetFlags(a, NULL), trnsciErrorInvalidValue);
    assert_int_equal(trnsciStreamCreateWithFlags(&c, 0x2), trnsciErrorInvalidValue);
    expect_message("unknown flags");
    assert_int_equal(trnsciStreamCreateWithFlags(NULL, 0), trnsciErrorInvalidValue);

    int least = 5, greatest = 5, prio = 5;
    assert_int_equal(trnsciDeviceGetStreamPriorityRange(&least, &greatest), trnsciSuccess);
    assert_int_equal(least, 0);
    assert_int_equal(greatest, 0);
    assert_int_equal(trnsciDeviceGetStreamPriorityRange(NULL, NULL), trnsciSuccess);
    assert_int_equal(trnsciStreamCreateWithPriority(&c, trnsciStreamNonBlocking, -5),
                     trnsciSuccess);
    assert_int_equal(trnsciStreamGetPriority(c, &prio), trnsciSuccess);
    assert_int_equal(prio, 0);
    assert_int_equal(trnsciStreamGetFlags(c, &flags), trnsciSuccess);
    assert_int_equal(flags, trnsciStreamNonBlocking);
    assert_int_equal(trnsciStreamGetPriority(c, NULL), trnsciErrorInvalidValue);
    assert_int_equal(trnsciStreamCreateWithPriority(&c, 0x10, 0), trnsciErrorInvalidValue);

    /* Work runs on them. */
    enum { N = 4096 };
    unsigned char *d, host[N];
    assert_int_equal(trnsciMalloc((void **)&d, N), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(d, 0x3c, N, b), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(host, d, N, trnsciMemcpyDeviceToHost, b), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(b), trnsciSuccess);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(host[i], 0x3c);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnsciStreamDestroy(a), trnsciSuccess);
    assert_int_equal(trnsciStreamDestroy(b), trnsciSuccess);
    assert_int_equal(trnsciStreamDestroy(c), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- pinned memory --------------------------------------------------------------------- */

static void test_pinned(void **state) {
    const transport *t = tr(state);
    assert_int_equal(trnsciInit(t->addr), trnsciSuccess);
    const size_t n = (3u << 20) + 123;
    unsigned char *pin, *pin2, *want = malloc(n), *d;
    assert_non_null(want);
    fill_pattern(want, n, 5);
    assert_int_equal(trnsciMallocHost((void **)&pin, n), trnsciSuccess);
    assert_int_equal(
        trnsciHostAlloc((void **)&pin2, n, trnsciHostAllocPortable | trnsciHostAllocMapped),
        trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&d, n), trnsciSuccess);
    memcpy(pin, want, n);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);

    long_op l;
    long_op_init(&l);
    long_op_queue(&l, s);
    assert_int_equal(trnsciMemcpyAsync(d, pin, n, trnsciMemcpyHostToDevice, s), trnsciSuccess);
    if (t->mapped) /* queued behind the GEMM, not done by this thread */
        assert_int_equal(trnsciStreamQuery(s), trnsciErrorNotReady);
    memset(pin2, 0, n);
    assert_int_equal(trnsciMemcpyAsync(pin2, d, n, trnsciMemcpyDeviceToHost, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_memory_equal(pin2, want, n);

    /* trnsciMemcpyDefault treats pinned memory as host memory. */
    assert_int_equal(trnsciMemset(d, 0, n), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(d + 7, pin + 7, n - 7, trnsciMemcpyDefault, s),
                     trnsciSuccess);
    memset(pin2, 0xee, n);
    assert_int_equal(trnsciMemcpyAsync(pin2, d, n, trnsciMemcpyDefault, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(pin2[i], 0);
    assert_memory_equal(pin2 + 7, want + 7, n - 7);
    /* And the synchronous copies. */
    memset(pin2, 0, n);
    assert_int_equal(trnsciMemcpy(pin2, d, n, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(pin2 + 7, want + 7, n - 7);

    /* The device pointer of pinned memory: itself on the local transport, where a
     * library routine can use it (a memset through it, read back through the
     * host address); none over gRPC. */
    void *dp = NULL;
    if (t->mapped) {
        assert_int_equal(trnsciHostGetDevicePointer(&dp, pin2 + 10, 0), trnsciSuccess);
        assert_ptr_equal(dp, pin2 + 10);
        assert_int_equal(trnsciMemsetAsync(dp, 0x6b, 5, s), trnsciSuccess);
        assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
        for (size_t i = 10; i < 15; i++)
            assert_int_equal(pin2[i], 0x6b);
        assert_int_equal(pin2[15], want[15]);
    } else {
        assert_int_equal(trnsciHostGetDevicePointer(&dp, pin2, 0), trnsciErrorInvalidValue);
    }
    assert_int_equal(trnsciHostGetDevicePointer(&dp, want, 0), trnsciErrorInvalidValue);
    expect_message("not pinned memory");
    assert_int_equal(trnsciHostGetDevicePointer(&dp, pin2, 1), trnsciErrorInvalidValue);
    assert_int_equal(trnsciHostGetDevicePointer(NULL, pin2, 0), trnsciErrorInvalidValue);
    assert_int_equal(trnsciHostGetDevicePointer(&dp, d, 0), trnsciErrorInvalidValue);

    /* Mix-ups are CUDA's errors. */
    assert_int_equal(trnsciFree(pin), trnsciErrorInvalidValue);
    expect_message("trnsciFreeHost");
    assert_int_equal(trnsciFreeHost(d), trnsciErrorInvalidValue);
    assert_int_equal(trnsciFreeHost(pin + 1), trnsciErrorInvalidValue);
    assert_int_equal(trnsciFreeHost(NULL), trnsciSuccess);
    void *z = (void *)1;
    assert_int_equal(trnsciMallocHost(&z, 0), trnsciSuccess);
    assert_null(z);
    assert_int_equal(trnsciMallocHost(NULL, 16), trnsciErrorInvalidValue);
    assert_int_equal(trnsciHostAlloc(&z, 16, 0x80), trnsciErrorInvalidValue);
    expect_message("unknown flags");

    assert_int_equal(trnsciFreeHost(pin), trnsciSuccess);
    assert_int_equal(trnsciFreeHost(pin), trnsciErrorInvalidValue);
    assert_int_equal(trnsciFreeHost(pin2), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    long_op_free(&l);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    if (t->mapped) {
        /* trnsciDeviceReset frees pinned memory, as cudaDeviceReset does. */
        assert_int_equal(trnsciMallocHost((void **)&pin, 4096), trnsciSuccess);
        assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
        assert_int_equal(trnsciFreeHost(pin), trnsciErrorInvalidValue);
    }
    free(want);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- registration ------------------------------------------------------------------------ */

static void test_host_register(void **state) {
    assert_int_equal(trnsciInit(tr(state)->addr), trnsciSuccess);
    enum { N = 1 << 16 };
    unsigned char *h = malloc(N), *back = malloc(N), *d;
    assert_non_null(h);
    assert_non_null(back);
    fill_pattern(h, N, 9);
    assert_int_equal(trnsciHostRegister(h, N, trnsciHostRegisterDefault), trnsciSuccess);
    assert_int_equal(trnsciHostRegister(h + 100, 10, 0), trnsciErrorHostMemoryAlreadyRegistered);
    assert_string_equal(trnsciGetErrorName(trnsciErrorHostMemoryAlreadyRegistered),
                        "trnsciErrorHostMemoryAlreadyRegistered");
    assert_int_equal(trnsciHostRegister(back, N,
                                        trnsciHostRegisterPortable | trnsciHostRegisterMapped |
                                            trnsciHostRegisterReadOnly),
                     trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&d, N), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(d, h, N, trnsciMemcpyDefault, NULL), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(back, d, N, trnsciMemcpyDefault, NULL), trnsciSuccess);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_memory_equal(back, h, N);

    assert_int_equal(trnsciHostRegister(NULL, N, 0), trnsciErrorInvalidValue);
    assert_int_equal(trnsciHostRegister(h, 0, 0), trnsciErrorInvalidValue);
    unsigned char other[64];
    assert_int_equal(trnsciHostRegister(other, sizeof(other), trnsciHostRegisterIoMemory),
                     trnsciErrorNotSupported);
    assert_int_equal(trnsciHostRegister(other, sizeof(other), 0x100), trnsciErrorInvalidValue);

    assert_int_equal(trnsciHostUnregister(h + 1), trnsciErrorHostMemoryNotRegistered);
    assert_int_equal(trnsciHostUnregister(h), trnsciSuccess);
    assert_int_equal(trnsciHostUnregister(h), trnsciErrorHostMemoryNotRegistered);
    assert_string_equal(trnsciGetErrorName(trnsciErrorHostMemoryNotRegistered),
                        "trnsciErrorHostMemoryNotRegistered");
    assert_int_equal(trnsciHostUnregister(NULL), trnsciErrorHostMemoryNotRegistered);
    assert_int_equal(trnsciHostUnregister(back), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    free(h);
    free(back);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- 2D copies and memsets --------------------------------------------------------------- */

enum { W = 40, H = 7, DP = 96, SP = 50, HP = 64 };

/* Reference: the bytes a 2D copy leaves in dst (a plain nested loop). */
static void ref_copy_2d(unsigned char *dst, size_t dp, const unsigned char *src, size_t sp,
                        size_t w, size_t h) {
    for (size_t r = 0; r < h; r++)
        for (size_t c = 0; c < w; c++)
            dst[r * dp + c] = src[r * sp + c];
}

static void test_memcpy_2d(void **state) {
    assert_int_equal(trnsciInit(tr(state)->addr), trnsciSuccess);
    const size_t dbytes = (H - 1) * DP + W, sbytes = (H - 1) * SP + W, hbytes = (H - 1) * HP + W;
    unsigned char src[(H - 1) * SP + W], want[(H - 1) * DP + W], got[(H - 1) * DP + W];
    unsigned char hwant[(H - 1) * HP + W], hgot[(H - 1) * HP + W];
    fill_pattern(src, sbytes, 1);
    unsigned char *d, *d2;
    assert_int_equal(trnsciMalloc((void **)&d, dbytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&d2, dbytes), trnsciSuccess);

    /* Host to device: rows land at the device pitch, padding untouched. */
    assert_int_equal(trnsciMemset(d, 0xab, dbytes), trnsciSuccess);
    memset(want, 0xab, dbytes);
    ref_copy_2d(want, DP, src, SP, W, H);
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, W, H, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, dbytes);

    /* Device to host at a third pitch. */
    memset(hgot, 0x11, hbytes);
    memset(hwant, 0x11, hbytes);
    ref_copy_2d(hwant, HP, want, DP, W, H);
    assert_int_equal(trnsciMemcpy2D(hgot, HP, d, DP, W, H, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_memory_equal(hgot, hwant, hbytes);

    /* Device to device, and the default kind. */
    assert_int_equal(trnsciMemset(d2, 0x22, dbytes), trnsciSuccess);
    unsigned char want2[(H - 1) * DP + W];
    memset(want2, 0x22, dbytes);
    ref_copy_2d(want2, DP, want, DP, W - 3, H - 1);
    assert_int_equal(trnsciMemcpy2D(d2, DP, d, DP, W - 3, H - 1, trnsciMemcpyDefault),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, d2, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want2, dbytes);

    /* Host to host. */
    memset(hgot, 0x11, hbytes);
    memset(hwant, 0x11, hbytes);
    ref_copy_2d(hwant, HP, src, SP, W, H);
    assert_int_equal(trnsciMemcpy2D(hgot, HP, src, SP, W, H, trnsciMemcpyHostToHost),
                     trnsciSuccess);
    assert_memory_equal(hgot, hwant, hbytes);

    /* The Async forms on a stream, and a contiguous (pitch = width) one. */
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    fill_pattern(src, sbytes, 2);
    memset(want, 0xab, dbytes);
    assert_int_equal(trnsciMemsetAsync(d, 0xab, dbytes, s), trnsciSuccess);
    ref_copy_2d(want, DP, src, SP, W, H);
    assert_int_equal(trnsciMemcpy2DAsync(d, DP, src, SP, W, H, trnsciMemcpyHostToDevice, s),
                     trnsciSuccess);
    memset(hgot, 0x11, hbytes);
    memset(hwant, 0x11, hbytes);
    ref_copy_2d(hwant, HP, want, DP, W, H);
    assert_int_equal(trnsciMemcpy2DAsync(hgot, HP, d, DP, W, H, trnsciMemcpyDeviceToHost, s),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy2DAsync(d2, DP, d, DP, DP, H - 1, trnsciMemcpyDeviceToDevice, s),
                     trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_memory_equal(hgot, hwant, hbytes);
    assert_int_equal(trnsciMemcpy(got, d2, (H - 1) * DP, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, (H - 1) * DP);

    /* Bad arguments change nothing. */
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy2D(d, W - 1, src, SP, W, H, trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidPitchValue);
    assert_string_equal(trnsciGetErrorName(trnsciErrorInvalidPitchValue),
                        "trnsciErrorInvalidPitchValue");
    assert_int_equal(trnsciMemcpy2D(d, DP, src, W - 1, W, H, trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidPitchValue);
    assert_int_equal(trnsciMemcpy2DAsync(d, DP, src, 1, W, H, trnsciMemcpyHostToDevice, s),
                     trnsciErrorInvalidPitchValue);
    /* One row too many: the last one would run past the allocation. */
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, W, H + 1, trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidValue);
    expect_message("past the end");
    assert_int_equal(trnsciMemcpy2DAsync(d, DP, src, SP, W, H + 1, trnsciMemcpyHostToDevice, s),
                     trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemcpy2D(hgot, HP, d, DP, W + DP, 1, trnsciMemcpyDeviceToHost),
                     trnsciErrorInvalidPitchValue);
    assert_int_equal(trnsciMemcpy2D(NULL, DP, src, SP, W, H, trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, W, H, (trnsciMemcpyKind)7),
                     trnsciErrorInvalidMemcpyDirection);
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, W, SIZE_MAX / 4, trnsciMemcpyHostToDevice),
                     trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, 0, H, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy2D(d, DP, src, SP, W, 0, trnsciMemcpyHostToDevice), trnsciSuccess);
    unsigned char after[(H - 1) * DP + W];
    assert_int_equal(trnsciMemcpy(after, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(after, got, dbytes);

    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnsciFree(d2), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_memset_2d(void **state) {
    assert_int_equal(trnsciInit(tr(state)->addr), trnsciSuccess);
    const size_t dbytes = (H - 1) * DP + W;
    unsigned char want[(H - 1) * DP + W], got[(H - 1) * DP + W];
    unsigned char *d;
    assert_int_equal(trnsciMalloc((void **)&d, dbytes), trnsciSuccess);
    assert_int_equal(trnsciMemset(d, 0x11, dbytes), trnsciSuccess);
    memset(want, 0x11, dbytes);
    for (size_t r = 0; r < H; r++)
        memset(want + r * DP, 0x5a, W);
    assert_int_equal(trnsciMemset2D(d, DP, 0x5a, W, H), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, dbytes);

    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    for (size_t r = 1; r < H - 1; r++)
        memset(want + r * DP + 3, 0x100 + 0xc3 - 0x100, W - 5);
    assert_int_equal(trnsciMemset2DAsync(d + DP + 3, DP, 0x1c3, W - 5, H - 2, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, dbytes);
    /* pitch = width: one contiguous memset. */
    assert_int_equal(trnsciMemset2DAsync(d, 8, 0x77, 8, 4, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    memset(want, 0x77, 32);
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, dbytes);

    /* Bad arguments change nothing. */
    assert_int_equal(trnsciMemset2D(d, W - 1, 0, W, H), trnsciErrorInvalidValue);
    expect_message("pitch");
    assert_int_equal(trnsciMemset2D(d, DP, 0, W, H + 1), trnsciErrorInvalidValue);
    expect_message("past the end");
    assert_int_equal(trnsciMemset2DAsync(d, DP, 0, W, H + 1, s), trnsciErrorInvalidValue);
    assert_int_equal(trnsciMemset2D(want, DP, 0, W, H), trnsciErrorInvalidValue);
    expect_message("not a trnsci device pointer");
    assert_int_equal(trnsciMemset2D(d, DP, 0, 0, H), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, d, dbytes, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, dbytes);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    assert_int_equal(trnsciFree(d), trnsciSuccess);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- stream-ordered allocation ----------------------------------------------------------- */

static void test_malloc_async(void **state) {
    assert_int_equal(trnsciInit(tr(state)->addr), trnsciSuccess);
    trnsciStream_t s;
    assert_int_equal(trnsciStreamCreate(&s), trnsciSuccess);
    const size_t n = (1u << 20) + 5;
    unsigned char *a, *b, *want = malloc(n), *got = malloc(n);
    assert_non_null(want);
    assert_non_null(got);
    fill_pattern(want, n, 3);
    assert_int_equal(trnsciMallocAsync((void **)&a, n, s), trnsciSuccess);
    assert_int_equal(trnsciMallocAsync((void **)&b, n, s), trnsciSuccess);
    assert_int_equal(trnsciMemcpyAsync(a, want, n, trnsciMemcpyHostToDevice, s), trnsciSuccess);
    long_op l;
    long_op_init(&l);
    long_op_queue(&l, s);
    /* Queued behind the GEMM; a is freed in stream order before it runs. */
    assert_int_equal(trnsciMemcpyAsync(b, a, n, trnsciMemcpyDeviceToDevice, s), trnsciSuccess);
    assert_int_equal(trnsciFreeAsync(a, s), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(s), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(got, b, n, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(got, want, n);
    /* a is gone. */
    assert_int_equal(trnsciFree(a), trnsciErrorInvalidValue);
    assert_int_equal(trnsciFreeAsync(a, s), trnsciErrorInvalidValue);
    expect_message("trnsciFreeAsync");
    assert_int_equal(trnsciFreeAsync(want, s), trnsciErrorInvalidValue);
    assert_int_equal(trnsciFreeAsync(NULL, s), trnsciSuccess);
    assert_int_equal(trnsciMallocAsync(NULL, 16, s), trnsciErrorInvalidValue);
    expect_message("trnsciMallocAsync");
    void *z = (void *)1;
    assert_int_equal(trnsciMallocAsync(&z, 0, s), trnsciSuccess);
    assert_null(z);
    assert_int_equal(trnsciMallocAsync(&z, 2 * QUOTA, s), trnsciErrorMemoryAllocation);
    assert_int_equal(trnsciFreeAsync(b, NULL), trnsciSuccess);
    long_op_free(&l);
    assert_int_equal(trnsciStreamDestroy(s), trnsciSuccess);
    free(want);
    free(got);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static int check_idle(void **state) {
    (void)state;
    return th_wait_daemon_idle(dmn.unix_addr, 10000) == 0 ? 0 : -1;
}

int main(void) {
    snprintf(grpc_dir, sizeof(grpc_dir), "/tmp/trnsci-rtport-XXXXXX");
    if (!mkdtemp(grpc_dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(grpc_addr, sizeof(grpc_addr), "grpc+unix:%s/grpc.sock", grpc_dir);
    const char *const args[] = {"--cores",  "2",       "--copy-engines",      "1",
                                "--listen", grpc_addr, "--max-session-bytes", "1G",
                                NULL};
    if (th_daemon_start(&dmn, args) != 0) {
        fprintf(stderr, "could not start trnscid --cores 2\n");
        return 1;
    }
    local_t.addr = dmn.unix_addr;
    grpc_t.addr = grpc_addr;
    void *L = &local_t, *G = &grpc_t;
#define BOTH(fn)                                                                                   \
    cmocka_unit_test_prestate_setup_teardown(fn, NULL, check_idle, L),                             \
        cmocka_unit_test_prestate_setup_teardown(fn, NULL, check_idle, G)
    const struct CMUnitTest tests[] = {
        BOTH(test_devices),      cmocka_unit_test(test_driver_version_without_daemon),
        BOTH(test_mem_get_info), BOTH(test_stream_flags),
        BOTH(test_pinned),       BOTH(test_host_register),
        BOTH(test_memcpy_2d),    BOTH(test_memset_2d),
        BOTH(test_malloc_async),
    };
    int failed = cmocka_run_group_tests_name("runtime_port", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&dmn, "trnscid");
    th_remove_dir(grpc_dir);
    return failed ? 1 : 0;
}
