/*
 * test_cxx_defaults.cpp — a C++17 program written as CUDA C++ host code is,
 * renamed: it leaves out the arguments cuda_runtime_api.h gives defaults to
 * (trnsciMemcpyAsync/trnsciMemsetAsync/trnsciMemcpy2DAsync/
 * trnsciMemset2DAsync without a stream, trnsciEventRecord without a stream,
 * trnsciStreamWaitEvent without flags) and uses trn_complex.h's helpers and
 * trn_fp16.h's half and bfloat16 types under their CUDA names,
 * against a real trnscid over the local transport and over gRPC (TCP).
 * Results are checked against the host data they were made from and, for
 * the complex helpers, against std::complex.
 */
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "harness.h"
}
#include <trnsci/trn_complex.h>
#include <trnsci/trn_fp16.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #cond,             \
                         trnsciGetLastErrorMessage());                                             \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#define OK(call) CHECK((call) == trnsciSuccess)

static void run(const char *addr) {
    OK(trnsciInit(addr));
    const size_t n = (1u << 20) + 3;
    std::vector<unsigned char> host(n), back(n, 0);
    for (size_t i = 0; i < n; i++)
        host[i] = static_cast<unsigned char>(i * 37u + 11u);
    unsigned char *a = nullptr, *b = nullptr, *c = nullptr;
    OK(trnsciMalloc(reinterpret_cast<void **>(&a), n));
    OK(trnsciMalloc(reinterpret_cast<void **>(&b), n));
    OK(trnsciMalloc(reinterpret_cast<void **>(&c), n));
    trnsciStream_t s;
    OK(trnsciStreamCreateWithFlags(&s, trnsciStreamNonBlocking));
    trnsciEvent_t ev;
    OK(trnsciEventCreateWithFlags(&ev, trnsciEventDisableTiming));

    // Default stream (stream = 0) for the copy, the memset and the record.
    OK(trnsciMemcpyAsync(a, host.data(), n, trnsciMemcpyHostToDevice));
    OK(trnsciMemsetAsync(b, 0x5a, n));
    OK(trnsciEventRecord(ev));
    // flags = 0: s waits for the default stream's work so far.
    OK(trnsciStreamWaitEvent(s, ev));
    OK(trnsciMemcpyAsync(c, a, n, trnsciMemcpyDeviceToDevice, s));
    OK(trnsciStreamSynchronize(s));
    OK(trnsciMemcpy(back.data(), c, n, trnsciMemcpyDeviceToHost));
    CHECK(std::memcmp(back.data(), host.data(), n) == 0);

    // The 2D forms without a stream: 8 rows of 100 bytes, pitch 256.
    const size_t w = 100, h = 8, pitch = 256;
    OK(trnsciMemset2DAsync(c, pitch, 0x21, w, h));
    OK(trnsciMemcpy2DAsync(b, pitch, c, pitch, w / 2, h, trnsciMemcpyDeviceToDevice));
    OK(trnsciStreamSynchronize(nullptr));
    OK(trnsciMemcpy(back.data(), b, n, trnsciMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t row = i / pitch, col = i % pitch;
        const unsigned char want = row < h && col < w / 2 ? 0x21 : 0x5a;
        bad += back[i] != want;
    }
    CHECK(bad == 0);

    OK(trnsciEventDestroy(ev));
    OK(trnsciStreamDestroy(s));
    OK(trnsciFree(a));
    OK(trnsciFree(b));
    OK(trnsciFree(c));
    OK(trnsciDeviceReset());
}

// trn_complex.h from C++: products of small integers (exact) against
// std::complex, a division within its error bound.
static void complex_helpers() {
    const trnComplex x = make_trnComplex(3, -2), y = make_trnComplex(-1, 4);
    const std::complex<float> sx(3, -2), sy(-1, 4);
    const trnComplex p = trnCmulf(x, y);
    CHECK(p.x == (sx * sy).real() && p.y == (sx * sy).imag());
    // (5 + 14i) / (-1 + 4i) = 3 - 2i; the scaled division rounds (its scale,
    // 1/5, is inexact): within 10 u |a| / |b| (u = 2^-24, the bound
    // tests/unit/test_trn_complex.c derives).
    const trnComplex q = trnCdivf(make_trnComplex(5, 14), y);
    const double qb = 10 * std::ldexp(1.0, -24) * std::abs(std::complex<double>(5, 14)) /
                      std::abs(std::complex<double>(-1, 4));
    CHECK(std::abs(q.x - 3.0) <= qb && std::abs(q.y + 2.0) <= qb);
    CHECK(trnCabsf(make_trnComplex(3, 4)) == 5.0f);
    const trnDoubleComplex d = trnComplexFloatToDouble(trnConjf(x));
    CHECK(trnCreal(d) == 3.0 && trnCimag(d) == 2.0);
}

// trn_fp16.h from C++ under cuda_fp16.h's and cuda_bf16.h's names: exact
// values round-trip, 1 + 2^-11 (a tie) rounds to the even 1 in half, 1 + 2^-8
// to 1 in bfloat16; and an Hgemm of 2 x 2 halves on the daemon (1 + 3 = 4,
// exact).
static void fp16_helpers(const char *addr) {
    const __half h = __float2half(1.5f);
    CHECK(h.x == 0x3c00u + 0x200u && __half2float(h) == 1.5f);
    CHECK(__float2half_rn(1.0f + std::ldexp(1.0f, -11)).x == 0x3c00u);
    const __nv_bfloat16 b = __float2bfloat16(-2.0f);
    CHECK(b.x == 0xc000u && __bfloat162float(b) == -2.0f);
    CHECK(__float2bfloat16_rn(1.0f + std::ldexp(1.0f, -8)).x == 0x3f80u);
    // CUDA's C++ conversions: float initialisers and static_cast<float>.
    const __half hv[] = {1.0f, 2.5f, 1.0f + std::ldexp(1.0f, -11), 3};
    CHECK(hv[0].x == 0x3c00u && static_cast<float>(hv[1]) == 2.5f && hv[2].x == 0x3c00u &&
          static_cast<float>(hv[3]) == 3.0f);
    const __nv_bfloat16 bv[] = {-2.0f, 0.5};
    CHECK(bv[0].x == 0xc000u && static_cast<float>(bv[1]) == 0.5f);
    CHECK(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2);
    OK(trnsciInit(addr));
    trnblasHandle_t handle = nullptr;
    CHECK(trnblasCreate(&handle) == TRNBLAS_STATUS_SUCCESS);
    const __half one = __float2half(1.0f), zero = __float2half(0.0f);
    const __half a[4] = {one, one, one, __float2half(3.0f)}; // [[1, 1], [1, 3]]
    __half *d = nullptr;
    OK(trnsciMalloc(reinterpret_cast<void **>(&d), sizeof(a) * 2));
    OK(trnsciMemcpy(d, a, sizeof(a), trnsciMemcpyHostToDevice));
    CHECK(trnblasHgemm(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &zero, d + 4,
                       2) == TRNBLAS_STATUS_SUCCESS);
    __half c[4];
    OK(trnsciMemcpy(c, d + 4, sizeof(c), trnsciMemcpyDeviceToHost));
    // [[1, 1], [1, 3]]^2 = [[2, 4], [4, 10]] (column-major).
    CHECK(__half2float(c[0]) == 2.0f && __half2float(c[1]) == 4.0f && __half2float(c[2]) == 4.0f &&
          __half2float(c[3]) == 10.0f);
    OK(trnsciFree(d));
    CHECK(trnblasDestroy(handle) == TRNBLAS_STATUS_SUCCESS);
}

// The typed allocation overloads (float **, no cast), and GemmEx with a
// trnsciDataType_t compute type (cuBLAS's pre-11 C++ overload): R_32F is
// COMPUTE_32F, so the product of [[1, 2], [3, 4]] with itself is exact.
static void cuda_cxx_overloads(const char *addr) {
    OK(trnsciInit(addr));
    trnblasHandle_t handle = nullptr;
    CHECK(trnblasCreate(&handle) == TRNBLAS_STATUS_SUCCESS);
    const float a[4] = {1, 3, 2, 4}, one = 1, zero = 0;
    float *d = nullptr;
    OK(trnsciMalloc(&d, sizeof(a) * 2));
    OK(trnsciMemcpy(d, a, sizeof(a), trnsciMemcpyHostToDevice));
    CHECK(trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, d, TRNSCI_R_32F, 2, d,
                        TRNSCI_R_32F, 2, &zero, d + 4, TRNSCI_R_32F, 2, TRNSCI_R_32F,
                        TRNBLAS_GEMM_DEFAULT) == TRNBLAS_STATUS_SUCCESS);
    float c[4];
    OK(trnsciMemcpy(c, d + 4, sizeof(c), trnsciMemcpyDeviceToHost));
    // [[1, 2], [3, 4]]^2 = [[7, 10], [15, 22]] (column-major).
    CHECK(c[0] == 7 && c[1] == 15 && c[2] == 10 && c[3] == 22);
    // A data type that is no compute type is refused by GemmEx itself.
    CHECK(trnblasGemmEx(handle, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, d, TRNSCI_R_32F, 2, d,
                        TRNSCI_R_32F, 2, &zero, d + 4, TRNSCI_R_32F, 2, TRNSCI_R_8U,
                        TRNBLAS_GEMM_DEFAULT) != TRNBLAS_STATUS_SUCCESS);
    OK(trnsciFree(d));
    CHECK(trnblasDestroy(handle) == TRNBLAS_STATUS_SUCCESS);
}

int main() {
    complex_helpers();
    th_daemon dmn;
    if (th_daemon_start(&dmn, nullptr) != 0) {
        std::fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    run(dmn.unix_addr);
    run(dmn.tcp_addr);
    fp16_helpers(dmn.unix_addr);
    cuda_cxx_overloads(dmn.unix_addr);
    failures += th_daemon_stop_checked(&dmn, "trnscid");
    std::printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
