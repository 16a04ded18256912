/*
 * test_neuron_store.c — the Neuron backend's pieces that need no runtime:
 * kernel-program parameters (kernels/neuron/program.c), NEFF addresses and
 * the store on disk (neff_store.c), and running the compiler
 * (neff_compile.c) with stand-in compilers written as shell scripts:
 *
 *  - parameters: round trip, and every malformed text refused (a tensor
 *    over 2^40 bytes included);
 *  - addresses: the same inputs give the same address; any change of the
 *    source, kernel, parameters, compiler version or target gives another,
 *    and fields do not run into each other;
 *  - the store: absent, present after put (whole bytes back), a failure
 *    remembered with its message, unreadable entries reported;
 *  - the compiler: its --version's first line; success; a failure's exit
 *    status and words in the message; a compile past its deadline killed
 *    (with what it started) in time.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernels/neuron/neff_compile.h"
#include "kernels/neuron/neff_store.h"
#include "kernels/neuron/program.h"

static char dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/trnsci-neff-unit-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *name, const char *text, mode_t mode) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

/* ---- parameters ------------------------------------------------------------------ */

static void test_program_params(void **state) {
    (void)state;
    const trn_nprog_gemm g = {1, TRN_NPROG_BF16X3, 300, 512, 129, 3, .layout = TRN_NPROG_PACKED};
    char text[TRN_NPROG_PARAMS_LEN], err[200];
    assert_true(trn_nprog_gemm_format(&g, text, sizeof(text)) > 0);
    assert_string_equal(text, "dtype=c32 mode=bf16x3 m=300 n=512 k=129 batch=3");
    trn_nprog_gemm back;
    assert_int_equal(trn_nprog_gemm_parse(text, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &g, sizeof(g));
    const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(&g);
    assert_true(b.at == 3ull * 2 * 129 * 300 * 4 && b.b == 3ull * 2 * 129 * 512 * 4 &&
                b.c == 3ull * 2 * 300 * 512 * 4 && b.scal == 16);
    const char *bad[] = {
        "dtype=f64 mode=fp32 m=1 n=1 k=1 batch=1",
        "dtype=f32 mode=fp16 m=1 n=1 k=1 batch=1",
        "dtype=f32 mode=fp32 m=0 n=1 k=1 batch=1",
        "dtype=f32 mode=fp32 m=1 n=-1 k=1 batch=1",
        "dtype=f32 mode=fp32 m=1 n=1 k=1",
        "dtype=f32 mode=fp32 m=1x n=1 k=1 batch=1",
        "dtype=f32 mode=fp32 m=99999999999 n=1 k=1 batch=1",
        "dtype=f32 mode=fp32 m=2000000000 n=2000000000 k=1 batch=1", /* 2^40 bytes */
        "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (trn_nprog_gemm_parse(bad[i], &back, err, sizeof(err)) == 0)
            fail_msg("accepted \"%s\"", bad[i]);

    /* The thread keeps its last text: shapes that differ in one field
     * each, in turn and again, each give their own text, and the kept text
     * never overruns a buffer too short for it. */
    const trn_nprog_gemm v[] = {
        {0, TRN_NPROG_FP32, 8, 8, 8, 1, .layout = TRN_NPROG_PACKED},
        {1, TRN_NPROG_FP32, 8, 8, 8, 1, .layout = TRN_NPROG_PACKED},
        {0, TRN_NPROG_BF16, 8, 8, 8, 1, .layout = TRN_NPROG_PACKED},
        {0, TRN_NPROG_FP32, 9, 8, 8, 1, .layout = TRN_NPROG_PACKED},
        {0, TRN_NPROG_FP32, 8, 9, 8, 1, .layout = TRN_NPROG_PACKED},
        {0, TRN_NPROG_FP32, 8, 8, 9, 1, .layout = TRN_NPROG_PACKED},
        {0, TRN_NPROG_FP32, 8, 8, 8, 2, .layout = TRN_NPROG_PACKED},
    };
    const char *const want[] = {
        "dtype=f32 mode=fp32 m=8 n=8 k=8 batch=1", "dtype=c32 mode=fp32 m=8 n=8 k=8 batch=1",
        "dtype=f32 mode=bf16 m=8 n=8 k=8 batch=1", "dtype=f32 mode=fp32 m=9 n=8 k=8 batch=1",
        "dtype=f32 mode=fp32 m=8 n=9 k=8 batch=1", "dtype=f32 mode=fp32 m=8 n=8 k=9 batch=1",
        "dtype=f32 mode=fp32 m=8 n=8 k=8 batch=2",
    };
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
            for (int twice = 0; twice < 2; twice++) {
                memset(text, '#', sizeof(text));
                assert_int_equal(trn_nprog_gemm_format(&v[i], text, sizeof(text)),
                                 (int)strlen(want[i]));
                assert_string_equal(text, want[i]);
                char shorter[39]; /* one byte short of the text and its NUL */
                assert_int_equal(strlen(want[i]), sizeof(shorter));
                memset(shorter, '#', sizeof(shorter));
                assert_int_equal(trn_nprog_gemm_format(&v[i], shorter, sizeof(shorter)), -1);
            }
}

/* Rule (program.h, layout=cm): the column-major program's text carries
 * the transpositions and round-trips; its tensors hold the same elements as
 * the packed program's, A and B in their stored shapes; it is real only. */
static void test_program_params_colmajor(void **state) {
    (void)state;
    trn_nprog_gemm g = {0, TRN_NPROG_BF16, 70, 50, 90, 2, .layout = TRN_NPROG_COLMAJOR};
    g.ta = 1, g.tb = 0;
    char text[TRN_NPROG_PARAMS_LEN], err[200];
    assert_true(trn_nprog_gemm_format(&g, text, sizeof(text)) > 0);
    assert_string_equal(text, "dtype=f32 mode=bf16 m=70 n=50 k=90 batch=2 layout=cm ta=t tb=n");
    trn_nprog_gemm back;
    assert_int_equal(trn_nprog_gemm_parse(text, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &g, sizeof(g));
    const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(&g);
    assert_true(b.at == 2ull * 70 * 90 * 4 && b.b == 2ull * 50 * 90 * 4 &&
                b.c == 2ull * 70 * 50 * 4 && b.d == b.c && b.scal == 8);
    /* A is K x M stored (ta=t): M columns of K; B is K x N: N columns. */
    int rows, cols;
    trn_nprog_gemm_stored(&g, 0, &rows, &cols);
    assert_true(rows == 90 && cols == 70);
    trn_nprog_gemm_stored(&g, 1, &rows, &cols);
    assert_true(rows == 90 && cols == 50);
    const char *bad[] = {
        "dtype=c32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm ta=n tb=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=rm ta=n tb=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm ta=c tb=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm ta=n tb=x",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm ta=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm tb=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm ta=nn tb=n",
        "dtype=f32 mode=fp32 m=4 n=4 k=4 batch=1 layout=cm",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (trn_nprog_gemm_parse(bad[i], &back, err, sizeof(err)) == 0)
            fail_msg("accepted \"%s\"", bad[i]);
    /* Formatting refuses what parsing would. */
    g.complex = 1;
    assert_int_equal(trn_nprog_gemm_format(&g, text, sizeof(text)), -1);
}

/* ---- addresses ------------------------------------------------------------------- */

/* Rule (program.h, "gemm_seq"): a sequence's text round-trips; each node's
 * operands come from the program's inputs or an earlier node's result of
 * exactly the operand's shape and batch; anything else is refused with
 * the node named, and formatting an invalid sequence, or into too small a
 * buffer, fails. */
static void test_sequence_params(void **state) {
    (void)state;
    /* Y = W2 (W1 X): T (1024 x 64) = W1 (1024 x 256) X, Y (512 x 64) = W2 T,
     * then Z = W3 X3 + Y (its C is d1). */
    trn_nprog_seq s;
    memset(&s, 0, sizeof(s));
    s.complex = 0;
    s.mode = TRN_NPROG_BF16X3;
    s.nodes = 3;
    const trn_nprog_gemm n0 = {0, TRN_NPROG_BF16X3, 1024, 64, 256, 1, .layout = TRN_NPROG_PACKED},
                         n1 = {0, TRN_NPROG_BF16X3, 512, 64, 1024, 1, .layout = TRN_NPROG_PACKED},
                         n2 = {0, TRN_NPROG_BF16X3, 512, 64, 7, 1, .layout = TRN_NPROG_PACKED};
    s.node[0] = n0;
    s.node[1] = n1;
    s.node[2] = n2;
    const int src[3][3] = {{TRN_NPROG_SEQ_IN, TRN_NPROG_SEQ_IN, TRN_NPROG_SEQ_IN},
                           {TRN_NPROG_SEQ_IN, 0, TRN_NPROG_SEQ_IN},
                           {TRN_NPROG_SEQ_IN, TRN_NPROG_SEQ_IN, 1}};
    memcpy(s.src, src, sizeof(src));
    char text[TRN_NPROG_SEQ_PARAMS_LEN], err[300];
    const char *want = "dtype=f32 mode=bf16x3 nodes=3 g0=1024x64x256x1:in,in,in "
                       "g1=512x64x1024x1:in,d0,in g2=512x64x7x1:in,in,d1";
    assert_int_equal(trn_nprog_seq_format(&s, text, sizeof(text)), (int)strlen(want));
    assert_string_equal(text, want);
    trn_nprog_seq back;
    assert_int_equal(trn_nprog_seq_parse(text, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &s, sizeof(s));
    assert_int_equal(trn_nprog_seq_format(&s, text, strlen(want)), -1); /* no room for the NUL */
    /* at from an earlier d: op(A) = d0^T, so at = d0 when M0 = K and N0 = M */
    assert_int_equal(trn_nprog_seq_parse("dtype=c32 mode=fp32 nodes=2 g0=8x16x4x2:in,in,in "
                                         "g1=16x3x8x2:d0,in,in",
                                         &back, err, sizeof(err)),
                     0);
    assert_int_equal(back.src[1][0], 0);
    assert_int_equal(back.complex, 1);
    /* Long text: 8 nodes with 10-digit m and 2-digit batch, each C the d
     * before (c32: 2^31 - 1 x 64 x 8 bytes, just under 2^40), fits; one
     * more doubling of batch does not pass the check. */
    trn_nprog_seq big;
    memset(&big, 0, sizeof(big));
    big.complex = 1;
    big.mode = TRN_NPROG_BF16X3;
    big.nodes = TRN_NPROG_SEQ_MAX;
    for (int j = 0; j < TRN_NPROG_SEQ_MAX; j++) {
        big.node[j] =
            (trn_nprog_gemm){1, TRN_NPROG_BF16X3, 2147483647, 1, 1, 64, .layout = TRN_NPROG_PACKED};
        big.src[j][0] = big.src[j][1] = TRN_NPROG_SEQ_IN;
        big.src[j][2] = j ? j - 1 : TRN_NPROG_SEQ_IN;
    }
    const int len = trn_nprog_seq_format(&big, text, sizeof(text));
    assert_true(len > 0 && len < TRN_NPROG_SEQ_PARAMS_LEN);
    assert_int_equal(trn_nprog_seq_parse(text, &back, err, sizeof(err)), 0);
    assert_memory_equal(&back, &big, sizeof(big));
    for (int j = 0; j < TRN_NPROG_SEQ_MAX; j++)
        big.node[j].batch = 128;
    assert_int_equal(trn_nprog_seq_format(&big, text, sizeof(text)), -1); /* 2^40 bytes */
    const char *bad[] = {
        "dtype=f32 mode=fp32 nodes=1 g0=1x1x1x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=9 g0=1x1x1x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=1x1x1x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=1x1x1x1:in,in,in g1=1x1x1x1:in,d1,in",
        "dtype=f32 mode=fp32 nodes=2 g0=1x1x1x1:d0,in,in g1=1x1x1x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x1:in,d0,in", /* K != 4 */
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x2:in,in,d0", /* batch */
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x1:in,in,d0 g2=1x1x1x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x1:in,in,d0 ",
        "dtype=f32 mode=fp32 nodes=2 g0=0x2x3x1:in,in,in g1=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=-4x2x3x1:in,in,in g1=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=04x2x3x1:in,in,in g1=4x2x3x1:in,in,in", /* one text */
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3:in,in,in g1=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g1=4x2x3x1:in,in,in g0=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp32 nodes=2 g0=4x2x3x1:in,in,x g1=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp16 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x1:in,in,in",
        "dtype=f64 mode=fp32 nodes=2 g0=4x2x3x1:in,in,in g1=4x2x3x1:in,in,in",
        "dtype=f32 mode=fp32 m=1 n=1 k=1 batch=1",
        "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (trn_nprog_seq_parse(bad[i], &back, err, sizeof(err)) == 0)
            fail_msg("accepted \"%s\"", bad[i]);
    assert_int_equal(trn_nprog_seq_parse(bad[5], &back, err, sizeof(err)), -1);
    if (!strstr(err, "node 1: b is 3x2 (batch 1), but d0 is 4x2 (batch 1)"))
        fail_msg("message \"%s\"", err);
    s.src[1][1] = 1; /* not an earlier node */
    assert_int_equal(trn_nprog_seq_format(&s, text, sizeof(text)), -1);
}

static void test_addresses(void **state) {
    (void)state;
    const char text[] = "def gemm(at, b, c, scal):\n    pass\n";
    trn_neff_source s = {text, sizeof(text) - 1, "gemm", "dtype=f32", "cc 1", "trn1"};
    char a[TRN_NEFF_ADDRESS_LEN], b[TRN_NEFF_ADDRESS_LEN];
    trn_neff_address(&s, a);
    trn_neff_address(&s, b);
    assert_string_equal(a, b);
    assert_int_equal(strlen(a), 32);
    trn_neff_source v[6];
    for (int i = 0; i < 6; i++)
        v[i] = s;
    v[0].text_len--;
    v[1].kernel = "gemm2";
    v[2].params = "dtype=c32";
    v[3].compiler_version = "cc 2";
    v[4].target = "trn2";
    v[5].kernel = "gem"; /* "gem" + "mdtype=f32" must not equal "gemm" + "dtype=f32" */
    v[5].params = "mdtype=f32";
    for (int i = 0; i < 6; i++) {
        trn_neff_address(&v[i], b);
        if (strcmp(a, b) == 0)
            fail_msg("change %d kept the address", i);
    }
}

/* ---- the store ------------------------------------------------------------------- */

static void test_store(void **state) {
    (void)state;
    const int fd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    void *bytes = NULL;
    size_t size = 0;
    char msg[300];
    const char *addr = "0123456789abcdef0123456789abcdef";
    assert_int_equal(trn_neff_store_get(fd, addr, &bytes, &size, msg, sizeof(msg)),
                     TRN_NEFF_ABSENT);
    write_file("tmp.neff", "NEFF\0bytes", 0600);
    assert_int_equal(trn_neff_store_put(fd, "tmp.neff", addr, msg, sizeof(msg)), 0);
    assert_int_equal(trn_neff_store_get(fd, addr, &bytes, &size, msg, sizeof(msg)),
                     TRN_NEFF_PRESENT);
    assert_int_equal(size, 4);
    assert_memory_equal(bytes, "NEFF", 4);
    free(bytes);
    char path[256];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%s.neff", dir, addr);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* executors read it as another user */

    const char *failed = "fedcba9876543210fedcba9876543210";
    assert_int_equal(trn_neff_store_fail(fd, failed, "kernel.py:3: syntax error"), 0);
    assert_int_equal(trn_neff_store_get(fd, failed, &bytes, &size, msg, sizeof(msg)),
                     TRN_NEFF_FAILED);
    assert_string_equal(msg, "kernel.py:3: syntax error");

    /* A directory where a NEFF should be: reported, not read. */
    const char *odd = "00000000000000000000000000000000";
    snprintf(path, sizeof(path), "%s/%s.neff", dir, odd);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_int_equal(trn_neff_store_get(fd, odd, &bytes, &size, msg, sizeof(msg)), TRN_NEFF_ERROR);
    assert_non_null(strstr(msg, "not a file"));
    close(fd);
}

/* ---- the compiler ---------------------------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static trn_neff_compile_job job_for(const char *compiler, const char *out, int timeout_ms) {
    const trn_neff_compile_job j = {compiler, "k.py", "gemm", "m=1", "trn1", out, timeout_ms};
    return j;
}

static void test_compiler(void **state) {
    (void)state;
    char cc[200], out[200], msg[600], version[100];
    /* Writes its output (the argument after --output), or fails, or hangs,
     * as its first argument after "compile" ... is not needed: the script's
     * name says what it does. */
    write_file("good",
               "#!/bin/sh\n"
               "[ \"$1\" = --version ] && { echo 'good-cc 3.1'; echo more; exit 0; }\n"
               "while [ $# -gt 0 ]; do [ \"$1\" = --output ] && echo neff > \"$2\"; "
               "shift; done\n",
               0755);
    write_file("bad",
               "#!/bin/sh\necho 'k.py:1: kernel gemm: tile of 129 partitions' >&2\n"
               "exit 3\n",
               0755);
    write_file("slow", "#!/bin/sh\nsleep 30 &\nsleep 30\n", 0755);

    snprintf(cc, sizeof(cc), "%s/good", dir);
    assert_int_equal(trn_neff_compiler_version(cc, version, sizeof(version), msg, sizeof(msg)), 0);
    assert_string_equal(version, "good-cc 3.1");
    snprintf(out, sizeof(out), "%s/out.neff", dir);
    trn_neff_compile_job j = job_for(cc, out, 10000);
    assert_int_equal(trn_neff_compile(&j, msg, sizeof(msg)), 0);
    assert_int_equal(access(out, R_OK), 0);

    snprintf(cc, sizeof(cc), "%s/bad", dir);
    j = job_for(cc, out, 10000);
    assert_int_equal(trn_neff_compile(&j, msg, sizeof(msg)), -1);
    assert_non_null(strstr(msg, "tile of 129 partitions"));
    assert_non_null(strstr(msg, "exit status 3"));
    assert_int_equal(trn_neff_compiler_version(cc, version, sizeof(version), msg, sizeof(msg)), -1);

    snprintf(cc, sizeof(cc), "%s/slow", dir);
    j = job_for(cc, out, 300);
    const double t0 = now_s();
    assert_int_equal(trn_neff_compile(&j, msg, sizeof(msg)), -1);
    /* Killed at the deadline, its background sleep with it (else the pipe
     * would stay open until that ended). */
    assert_true(now_s() - t0 < 5);
    assert_non_null(strstr(msg, "deadline"));

    snprintf(cc, sizeof(cc), "%s/missing", dir);
    j = job_for(cc, out, 1000);
    assert_int_equal(trn_neff_compile(&j, msg, sizeof(msg)), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_params),
        cmocka_unit_test(test_program_params_colmajor),
        cmocka_unit_test(test_sequence_params),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test_setup_teardown(test_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compiler, setup, teardown),
    };
    return cmocka_run_group_tests_name("neuron_store", tests, NULL, NULL);
}
