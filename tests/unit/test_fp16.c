/*
 * test_fp16.c — trn_fp16.h's conversions against numpy (Debian's
 * /usr/bin/python3), exhaustively where the domain is 16 bits:
 *  - half → float for all 65536 half patterns, bitwise against numpy's
 *    float16 → float32 (payloads of NaNs included);
 *  - bfloat16 → float for all 65536 patterns, bitwise against the top
 *    half of a float32;
 *  - float → half against numpy's float32 → float16 (round to nearest
 *    even), bitwise for every non-NaN input, NaN for NaN, on: every half
 *    value, every midpoint between neighbouring halves (the ties, among them
 *    the subnormal ones and 65520, the overflow threshold) and the floats
 *    next to each midpoint on both sides, 2^20 random float bit patterns,
 *    and the extremes (float subnormals, largest float, infinities);
 *  - float → bfloat16 on the same inputs plus every bfloat16 midpoint and
 *    its neighbours, against round to nearest even worked out in float64
 *    by python (the two bfloat16 neighbours of x by truncation, the nearer
 *    one, the even one on a tie), an algorithm independent of the header's
 *    add-and-truncate.
 * Both sides are exact: no tolerance.
 */
#define _GNU_SOURCE /* pipe2 */
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

#include "include/trnsci/trn_fp16.h"
#include "tests/integration/numpy_coproc.h"

/* Reads the directory's files and prints "ok" or the first mismatch. */
static const char *const script =
    "import numpy as np, sys\n"
    "d = sys.stdin.readline().strip()\n"
    "def rd(name, t): return np.fromfile(d + '/' + name, dtype=t)\n"
    "bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)\n"
    "def fail(what, i, got, want):\n"
    "    print('FAIL %s at %d: got %#x, want %#x' % (what, i, got, want)); sys.exit(0)\n"
    "h2f = rd('h2f.bin', np.uint32)\n"
    "want = bits.view(np.float16).astype(np.float32).view(np.uint32)\n"
    "bad = np.nonzero(h2f != want)[0]\n"
    "if len(bad): fail('half->float', bad[0], h2f[bad[0]], want[bad[0]])\n"
    "b2f = rd('b2f.bin', np.uint32)\n"
    "want = bits.astype(np.uint32) << 16\n"
    "bad = np.nonzero(b2f != want)[0]\n"
    "if len(bad): fail('bf16->float', bad[0], b2f[bad[0]], want[bad[0]])\n"
    "x = rd('x.bin', np.float32)\n"
    "with np.errstate(over='ignore', invalid='ignore'):\n"
    "    want = x.astype(np.float16).view(np.uint16)\n"
    "got = rd('f2h.bin', np.uint16)\n"
    "nan = np.isnan(x)\n"
    "gotnan = ((got & 0x7c00) == 0x7c00) & ((got & 0x3ff) != 0)\n"
    "bad = np.nonzero((~nan & (got != want)) | (nan & ~gotnan))[0]\n"
    "if len(bad): fail('float->half of %r' % x[bad[0]], bad[0], got[bad[0]], want[bad[0]])\n"
    "# bfloat16: nearest of the truncation t and the next encoding up\n"
    "xb = x.view(np.uint32)\n"
    "sign = (xb >> 16) & 0x8000\n"
    "t = (xb >> 16) & 0x7fff\n"
    "def val(b):\n"
    "    b = b.astype(np.float64); e = np.floor(b / 128); f = b - e * 128\n"
    "    return np.where(e == 0, f * 2.0**-133, (1 + f / 128) * 2.0**(e - 127))\n"
    "ax = np.abs(x.astype(np.float64))\n"
    "with np.errstate(invalid='ignore'):\n"
    "    lo = val(t); hi = val(t + 1)\n"
    "    dl = ax - lo; dh = hi - ax\n"
    "    up = (dh < dl) | ((dh == dl) & (t % 2 == 1))\n"
    "want = (sign | np.where(up, t + 1, t)).astype(np.uint16)\n"
    "inf = np.isinf(x)\n"
    "want = np.where(inf, sign | 0x7f80, want).astype(np.uint16)\n"
    "got = rd('f2b.bin', np.uint16)\n"
    "gotnan = ((got & 0x7f80) == 0x7f80) & ((got & 0x7f) != 0)\n"
    "bad = np.nonzero((~nan & (got != want)) | (nan & ~gotnan))[0]\n"
    "if len(bad): fail('float->bf16 of %r' % x[bad[0]], bad[0], got[bad[0]], want[bad[0]])\n"
    "print('ok %d' % len(x))\n";

static void write_file(const char *dir, const char *name, const void *p, size_t bytes) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, bytes, f), bytes);
    fclose(f);
}

typedef struct floats {
    float *v;
    size_t n, cap;
} floats;

static void push(floats *s, float v) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1u << 16;
        s->v = realloc(s->v, s->cap * sizeof(float));
        assert_non_null(s->v);
    }
    s->v[s->n++] = v;
}

/* A value, the floats next to it, and their negatives. */
static void push_around(floats *s, float v) {
    const float near[3] = {v, nextafterf(v, -INFINITY), nextafterf(v, INFINITY)};
    for (int i = 0; i < 3; i++) {
        push(s, near[i]);
        push(s, -near[i]);
    }
}

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static void test_conversions(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-fp16-XXXXXX";
    assert_non_null(mkdtemp(dir));
    uint32_t *h2f = malloc(65536 * sizeof(uint32_t)), *b2f = malloc(65536 * sizeof(uint32_t));
    assert_true(h2f && b2f);
    floats x = {0};
    for (uint32_t i = 0; i < 65536; i++) {
        const trnsciHalf h = {(uint16_t)i};
        const trnsciBfloat16 b = {(uint16_t)i};
        const float fh = trnsciHalfToFloat(h), fb = trnsciBfloat16ToFloat(b);
        memcpy(&h2f[i], &fh, 4);
        memcpy(&b2f[i], &fb, 4);
        push(&x, fh);
        push(&x, fb);
    }
    /* Midpoints between neighbouring positive halves (0x0000..0x7c00: the
     * last is the midpoint between 65504 and 2^16) and bfloat16s, and the
     * floats next to them; every midpoint is exact in float. */
    for (uint32_t i = 0; i < 0x7c00u; i++) {
        const double h0 = trnsciHalfToFloat((trnsciHalf){(uint16_t)i});
        const double h1 =
            i + 1 < 0x7c00u ? trnsciHalfToFloat((trnsciHalf){(uint16_t)(i + 1)}) : 65536.0;
        push_around(&x, (float)((h0 + h1) / 2));
    }
    for (uint32_t i = 0; i < 0x7f80u; i++) {
        const double b0 = trnsciBfloat16ToFloat((trnsciBfloat16){(uint16_t)i});
        const double b1 =
            i + 1 < 0x7f80u ? trnsciBfloat16ToFloat((trnsciBfloat16){(uint16_t)(i + 1)}) : 0x1p128;
        push_around(&x, (float)((b0 + b1) / 2)); /* the last: just below infinity */
    }
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < (1 << 20); i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        push(&x, bits_float((uint32_t)(r >> 32)));
    }
    const float extremes[] = {0x1p-149f,       0x1p-126f,       0x1.fffffep127f, INFINITY,
                              0x1p-25f,        0x1.000002p-25f, 0x1.8p-24f,      65504.0f,
                              65519.99609375f, 65520.0f};
    for (size_t i = 0; i < sizeof(extremes) / sizeof(extremes[0]); i++)
        push_around(&x, extremes[i]);
    push(&x, bits_float(0x7f800001u)); /* signalling NaN */
    push(&x, bits_float(0xffc00000u));
    uint16_t *f2h = malloc(x.n * 2), *f2b = malloc(x.n * 2);
    assert_true(f2h && f2b);
    for (size_t i = 0; i < x.n; i++) {
        f2h[i] = trnsciFloatToHalf(x.v[i]).x;
        f2b[i] = trnsciFloatToBfloat16(x.v[i]).x;
        /* The CUDA names are the same functions. */
        assert_int_equal(__float2half(x.v[i]).x, f2h[i]);
        assert_int_equal(__float2bfloat16_rn(x.v[i]).x, f2b[i]);
    }
    write_file(dir, "h2f.bin", h2f, 65536 * 4);
    write_file(dir, "b2f.bin", b2f, 65536 * 4);
    write_file(dir, "x.bin", x.v, x.n * 4);
    write_file(dir, "f2h.bin", f2h, x.n * 2);
    write_file(dir, "f2b.bin", f2b, x.n * 2);
    FILE *in = NULL, *out = NULL;
    pid_t pid;
    numpy_coproc_start(dir, script, &in, &out, &pid);
    fprintf(in, "%s\n", dir);
    fflush(in);
    char reply[256] = "";
    if (!fgets(reply, sizeof(reply), out))
        reply[0] = 0;
    numpy_coproc_stop(&in, &out, pid);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    if (strncmp(reply, "ok", 2) != 0)
        fail_msg("numpy: %s", reply);
    printf("numpy: %s", reply);
    free(h2f);
    free(b2f);
    free(f2h);
    free(f2b);
    free(x.v);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_conversions)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
