/*
 * test_npy.c — the .npy reader and writer (tools/npy.c): valid files of
 * every accepted form (versions 1.0, 2.0 and 3.0, '<f8' and '<f4', C and
 * Fortran order, scalar and empty shapes, double quotes, Python 2 "3L"
 * extents, keys in any order) read back the values at the right logical
 * positions; save -> load round trips; and malformed files are refused with
 * a message naming the rule: bad magic, unknown version, header running
 * past the file or over the size limit, missing / unknown / repeated keys,
 * other dtypes and byte orders, bad booleans, negative, overflowing and too
 * many extents, unterminated strings, trailing characters, data one byte
 * short or long. Every truncation of a valid file and a few thousand
 * deterministic byte mutations of its header must fail cleanly or parse
 * (the sanitizer build checks that nothing is read out of bounds).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tools/npy.h"

/* A file image: magic, version, header text (padded to keep the data
 * aligned, ending in '\n'), then `bytes` of data. Returns its length. */
static size_t build(unsigned char *out, int major, const char *dict, const void *data,
                    size_t bytes) {
    const size_t pre = major == 1 ? 10 : 12;
    const size_t len = strlen(dict);
    const size_t hlen = len + 1 + (64 - (pre + len + 1) % 64) % 64;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    out[8] = (unsigned char)(hlen & 0xff);
    out[9] = (unsigned char)(hlen >> 8);
    if (major != 1) {
        out[10] = (unsigned char)(hlen >> 16);
        out[11] = 0;
    }
    memcpy(out + pre, dict, len);
    memset(out + pre + len, ' ', hlen - len - 1);
    out[pre + hlen - 1] = '\n';
    if (bytes)
        memcpy(out + pre + hlen, data, bytes);
    return pre + hlen + bytes;
}

static unsigned char img[4096];

static void expect_bad(const void *buf, size_t len, const char *needle) {
    npy_array a;
    char err[256] = "";
    if (npy_parse(buf, len, &a, err, sizeof(err)) == 0) {
        npy_free(&a);
        fail_msg("parsed a bad file (expected \"%s\")", needle);
    }
    if (!strstr(err, needle))
        fail_msg("message \"%s\" does not contain \"%s\"", err, needle);
}

static void test_valid(void **state) {
    (void)state;
    const double d[6] = {0, 1, 2, 3, 4, 5};
    npy_array a;
    char err[256];
    /* C order 2 x 3: a[i][j] = 3 i + j. */
    size_t n = build(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", d, 48);
    assert_int_equal(npy_parse(img, n, &a, err, sizeof(err)), 0);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.count, 6);
    assert_int_equal(a.elem_size, 8);
    uint64_t idx[2] = {1, 2};
    assert_true(npy_at(&a, npy_offset(&a, idx)) == 5.0);
    npy_free(&a);
    /* Fortran order, float32, version 2.0, double quotes, 3L, any key order. */
    const float f[6] = {0, 1, 2, 3, 4, 5};
    n = build(img, 2, "{\"shape\": (2L, 3L), \"fortran_order\": True, \"descr\": \"<f4\"}", f, 24);
    assert_int_equal(npy_parse(img, n, &a, err, sizeof(err)), 0);
    assert_int_equal(a.fortran_order, 1);
    assert_int_equal(a.elem_size, 4);
    idx[0] = 1;
    idx[1] = 2; /* F order: 1 + 2 * 2 = 5 */
    assert_true(npy_at(&a, npy_offset(&a, idx)) == 5.0);
    idx[0] = 1;
    idx[1] = 0;
    assert_true(npy_at(&a, npy_offset(&a, idx)) == 1.0);
    npy_free(&a);
    /* Version 3.0, a scalar, and an empty array. */
    n = build(img, 3, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", d + 4, 8);
    assert_int_equal(npy_parse(img, n, &a, err, sizeof(err)), 0);
    assert_int_equal(a.ndim, 0);
    assert_int_equal(a.count, 1);
    assert_true(npy_at(&a, 0) == 4.0);
    npy_free(&a);
    n = build(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", NULL, 0);
    assert_int_equal(npy_parse(img, n, &a, err, sizeof(err)), 0);
    assert_int_equal(a.count, 0);
    assert_null(a.data);
    npy_free(&a);
}

static void test_roundtrip(void **state) {
    (void)state;
    char path[] = "/tmp/trnsci-npy-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    double d[24];
    for (int i = 0; i < 24; i++)
        d[i] = i * 0.5 - 3.0;
    const uint64_t shape[3] = {2, 3, 4};
    char err[256];
    for (int fo = 0; fo < 2; fo++) {
        assert_int_equal(npy_save(path, d, 8, 3, shape, fo, err, sizeof(err)), 0);
        npy_array a;
        if (npy_load(path, &a, err, sizeof(err)) != 0)
            fail_msg("%s", err);
        assert_int_equal(a.ndim, 3);
        assert_int_equal(a.fortran_order, fo);
        assert_int_equal(a.shape[2], 4);
        assert_memory_equal(a.data, d, sizeof(d));
        npy_free(&a);
    }
    const uint64_t one[1] = {5};
    const float f[5] = {1, 2, 3, 4, 5};
    assert_int_equal(npy_save(path, f, 4, 1, one, 0, err, sizeof(err)), 0);
    npy_array a;
    assert_int_equal(npy_load(path, &a, err, sizeof(err)), 0);
    assert_int_equal(a.ndim, 1);
    assert_int_equal(a.shape[0], 5);
    assert_memory_equal(a.data, f, sizeof(f));
    npy_free(&a);
    /* A file that is not there, and a truncated one. */
    FILE *t = fopen(path, "wb");
    fwrite("\x93NUMPY\x01\x00\x40", 1, 9, t);
    fclose(t);
    assert_int_equal(npy_load(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, path));
    unlink(path);
    assert_int_equal(npy_load(path, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "No such file"));
}

static void test_malformed(void **state) {
    (void)state;
    const double d[4] = {1, 2, 3, 4};
    size_t n;
    n = build(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d, 32);
    img[1] = 'X';
    expect_bad(img, n, "magic");
    expect_bad(img, 5, "magic");
    n = build(img, 4, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d, 32);
    expect_bad(img, n, "version 4.0");
    n = build(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d, 32);
    img[9] = 0x7f; /* header length past the end */
    expect_bad(img, n, "runs past the end");
    n = build(img, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d, 32);
    img[11] = 0x10; /* 2^28 bytes of header */
    expect_bad(img, n, "limit");
    const struct {
        const char *dict, *needle;
    } bad[] = {
        {"{'descr': '<f8', 'shape': (4,), }", "all required"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'x': 1}", "unknown key"},
        {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (4,)}", "twice"},
        {"{'descr': '>f8', 'fortran_order': False, 'shape': (4,), }", "'>f8' is not supported"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", "'<i4' is not supported"},
        {"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (4,), }", "True or False"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (-4,), }", "non-negative"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}", "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4)}",
         "overflows"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,4)}", "more than 8"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4 4)}", "expected ','"},
        {"{'descr: '<f8', 'fortran_order': False, 'shape': (4,), }", "expected ':'"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } x", "trailing"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), ", "expected"},
        {"['descr', '<f8']", "expected '{'"},
        {"{'de\\scr': '<f8'}", "escapes"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        n = build(img, 1, bad[i].dict, d, 32);
        expect_bad(img, n, bad[i].needle);
    }
    n = build(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d, 32);
    expect_bad(img, n - 1, "data bytes");
    img[n] = 0;
    expect_bad(img, n + 1, "data bytes");
}

/* Every prefix of a valid file, and byte mutations of its header. */
static void test_truncations_and_mutations(void **state) {
    (void)state;
    const double d[4] = {1, 2, 3, 4};
    const size_t n =
        build(img, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", d, 32);
    npy_array a;
    char err[256];
    for (size_t len = 0; len < n; len++) {
        /* A fresh copy of exactly len bytes, so ASan sees any over-read. */
        unsigned char *p = malloc(len ? len : 1);
        memcpy(p, img, len);
        assert_int_equal(npy_parse(p, len, &a, err, sizeof(err)), -1);
        free(p);
    }
    uint64_t s = 12345;
    for (int it = 0; it < 3000; it++) {
        unsigned char *p = malloc(n);
        memcpy(p, img, n);
        for (int k = 0; k < 3; k++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            const size_t at = (size_t)(s >> 33) % 80; /* the prefix and header */
            p[at] = (unsigned char)(s >> 20);
        }
        if (npy_parse(p, n, &a, err, sizeof(err)) == 0) {
            assert_true(a.count * (uint64_t)a.elem_size <= n);
            npy_free(&a);
        }
        free(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_truncations_and_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
