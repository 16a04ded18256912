/*
 * test_nrtsim.c — the libnrt simulator (tests/nrtsim/libnrt.so.1) and the
 * simulated compiler (nrtsim-cc), used as the backend uses them: the
 * library is opened by kernels/neuron/nrt_loader.c's trn_nrt_api_load from
 * its path, and NEFFs come from running nrtsim-cc.
 *
 * The library reads its environment at nrt_init, so each test sets the
 * variables it needs before init; setup gives every test a fresh temporary
 * NRTSIM_LOCK_DIR (parallel test runs own their cores separately) and the
 * defaults, teardown closes the runtime. Children are forked for what must
 * be another process (ownership, a hung execution, a fresh fault reading);
 * a child ends with _exit and reports through its exit status.
 *
 * GEMM error bounds. For element (i, j) of one batch entry: s = sum_p a_p b_p
 * (exact), S = sum_p |a_p| |b_p|; complex: per component a real sum of 2k
 * products (re: Ar Br and -Ai Bi; im: Ar Bi and Ai Br), and S = sum_p
 * (|Ar| + |Ai|)(|Br| + |Bi|) bounds both components' magnitude sums.
 * u = 2^-24 (FP32), r = 2^-8 (bfloat16: 8 significant bits, round to
 * nearest), gamma_n = n u / (1 - n u), L = number of products per component
 * (k, or 2k for c32). No value of the test data is near underflow.
 *  - fp32: the FP32 dot product of L terms (each product rounded, L - 1
 *    additions): |s^ - s| <= gamma_L S.
 *  - bf16: each input x^ = x (1 + e), |e| <= r; products of two bfloat16
 *    values are exact in FP32 (16 significant bits), so
 *    |sum a^ b^ - s| <= (2r + r^2) S, and their FP32 sum adds
 *    gamma_L sum |a^||b^| <= gamma_L (1 + r)^2 S.
 *  - bf16x3: x = hi + lo + rho with |x - hi| <= r |x|, |lo| <= r (1 + r)|x|
 *    and |rho| <= r |x - hi| <= r^2 |x| (x - hi is exact in FP32). With
 *    X = hi + lo, ab = AB + A rho_b + rho_a b and AB = the three kept
 *    products + lo_a lo_b, so the dropped part is at most
 *    (r^2 (1 + r)^2 + (1 + r^2) r^2 + r^2) |a||b| <= 3.02 r^2 |a||b|; the
 *    three kept products are exact and 3L of them are added in FP32:
 *    gamma_3L times their magnitudes, <= (1 + r)^2 (1 + 2r) |a||b| each.
 * In every mode, with E the bound above and M the bound of sum |products|
 * ((1 + r)^2 for bf16, (1 + r)^2 (1 + 2r) for bf16x3, 1 for fp32),
 * |s^| <= M (1 + gamma) S, and alpha and beta applied in FP32 (at most 3
 * roundings deep for c32, 2 for f32) give
 *   |d^ - d| <= |alpha| E + gamma_3 (|alpha| M (1 + gamma) S + |beta| |c|),
 * with complex magnitudes taken as |re| + |im|. The double reference's own
 * error (products exact in double, sums of 2L terms: <= 2L 2^-53 S) is
 * added as |alpha| 2L 2^-52 S.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "kernels/neuron/nrt_api.h"
#include "kernels/neuron/program.h"

static trn_nrt_api api;
static char root[256];      /* this run's temporary directory */
static char workdir[512];   /* the current test's (lock dir, files) */
static char kernel_py[600]; /* an NKI source with "def gemm(" */
static unsigned test_seq;

/* ---- helpers: files, processes, stderr ---- */

static void write_file(const char *path, const char *text) {
    char tmp[700];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    /* A rename: a new inode, so a rewrite is seen even within one mtime tick. */
    assert_int_equal(rename(tmp, path), 0);
}

/* The file's bytes (NUL-terminated), its length in *len. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

static void path_in(char *out, size_t len, const char *name) {
    snprintf(out, len, "%s/%s", workdir, name);
}

/* Redirects this process's stderr into the file name (in workdir). */
static int stderr_to(const char *name) {
    char path[700];
    path_in(path, sizeof(path), name);
    fflush(stderr);
    const int saved = dup(2);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    return saved;
}

/* Restores stderr and returns what went to name (malloc'd). */
static char *stderr_back(int saved, const char *name) {
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char path[700];
    path_in(path, sizeof(path), name);
    char *text = read_file(path, NULL);
    assert_non_null(text);
    return text;
}

/* Runs fn(arg) in a child with stderr to errname; its exit status. */
static int in_child(int (*fn)(void *), void *arg, const char *errname) {
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char path[700];
        path_in(path, sizeof(path), errname);
        const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        _exit(fn(arg) & 0xff);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Runs nrtsim-cc with args (NULL-terminated); its exit status, its
 * stdout and stderr (malloc'd) in *out and *err when asked for. */
static int run_cc(const char *const *args, char **out, char **err) {
    char opath[700], epath[700];
    path_in(opath, sizeof(opath), "cc.out");
    path_in(epath, sizeof(epath), "cc.err");
    const char *argv[16] = {NRTSIM_CC};
    for (int i = 0; args[i] && i < 14; i++)
        argv[i + 1] = args[i];
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        execv(NRTSIM_CC, (char *const *)argv);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    char *o = read_file(opath, NULL), *e = read_file(epath, NULL);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    return WEXITSTATUS(status);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static void init_ok(void) {
    assert_int_equal(api.init(TRN_NRT_FRAMEWORK_NO_FW, "", ""), 0);
}

/* ---- setup ---- */

static const char *const sim_env[] = {
    "NRTSIM_CORES",     "NEURON_RT_VISIBLE_CORES", "NRTSIM_HBM_MB",     "NRTSIM_DISPATCH_US",
    "NRTSIM_DMA_GBPS",  "NRTSIM_GFLOPS",           "NRTSIM_TIMEOUT_MS", "NRTSIM_FAULTS",
    "NRTSIM_FAIL_INIT", "NRTSIM_CC_FAIL",          "NRTSIM_LOCK_DIR",   "NRTSIM_TRACE",
    "NRTSIM_HBM_GBPS",
};

static int setup(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(sim_env) / sizeof(sim_env[0]); i++)
        unsetenv(sim_env[i]);
    snprintf(workdir, sizeof(workdir), "%s/t%u", root, ++test_seq);
    if (mkdir(workdir, 0700) != 0)
        return -1;
    char locks[700];
    path_in(locks, sizeof(locks), "locks");
    setenv("NRTSIM_LOCK_DIR", locks, 1);
    setenv("NRTSIM_CC_MS", "0", 1);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    api.close();
    return 0;
}

static int group_setup(void **state) {
    (void)state;
    snprintf(root, sizeof(root), "/tmp/nrtsim-test-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    char err[512];
    if (trn_nrt_api_load(&api, NRTSIM_LIB, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    snprintf(kernel_py, sizeof(kernel_py), "%s/gemm.py", root);
    FILE *f = fopen(kernel_py, "w");
    if (!f)
        return -1;
    fputs("import nki\n\n@nki.jit\ndef gemm(at, b, c, scal):\n    pass\n\n"
          "@nki.jit\ndef gemm_seq(*tensors, nodes):\n    pass\n",
          f);
    fclose(f);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    trn_nrt_api_unload(&api);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- version, symbols, init ---- */

static void test_version_and_symbols(void **state) {
    (void)state;
    trn_nrt_version v;
    assert_int_equal(api.get_version(&v, sizeof(v)), TRN_NRT_SUCCESS);
    assert_int_equal(v.rt_major, 2);
    assert_int_equal(v.rt_minor, 0);
    assert_string_equal(v.rt_detail, "nrtsim (trnsci libnrt simulator)");
    assert_int_equal(api.get_version(&v, sizeof(v) - 1), TRN_NRT_INVALID);
    /* The runtime's other entry point, and nothing of the simulator's own. */
    assert_non_null(dlsym(api.dl, "nrt_get_tensor_from_tensor_set"));
    assert_null(dlsym(api.dl, "trn_nprog_gemm_parse"));
    assert_null(dlsym(api.dl, "nrtsim_bf16"));
    assert_null(dlsym(api.dl, "nrtsim_lock"));
}

static uint32_t visible_with(const char *cores, const char *visible) {
    setenv("NRTSIM_CORES", cores, 1);
    setenv("NEURON_RT_VISIBLE_CORES", visible, 1);
    init_ok();
    uint32_t n = 0;
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_SUCCESS);
    api.close();
    return n;
}

static trn_nrt_status init_with(const char *cores, const char *visible) {
    setenv("NRTSIM_CORES", cores, 1);
    setenv("NEURON_RT_VISIBLE_CORES", visible, 1);
    const int saved = stderr_to("init.err");
    const trn_nrt_status st = api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "");
    free(stderr_back(saved, "init.err"));
    api.close();
    return st;
}

static void test_init_and_visible_cores(void **state) {
    (void)state;
    uint32_t n = 99;
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_UNINITIALIZED);
    init_ok();
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_SUCCESS);
    assert_int_equal(n, 2); /* the default machine, all visible */
    const int saved = stderr_to("twice.err");
    assert_int_equal(api.init(TRN_NRT_FRAMEWORK_NO_FW, "", ""), TRN_NRT_FAILURE);
    free(stderr_back(saved, "twice.err"));
    api.close();
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_UNINITIALIZED);

    assert_int_equal(visible_with("8", "1"), 1);
    assert_int_equal(visible_with("8", "0-3"), 4);
    assert_int_equal(visible_with("8", "0,2"), 2);
    assert_int_equal(visible_with("8", "0-1,5,7"), 4);
    assert_int_equal(visible_with("8", "6-7"), 2);
    unsetenv("NEURON_RT_VISIBLE_CORES");
    setenv("NRTSIM_CORES", "4", 1);
    init_ok();
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_SUCCESS);
    assert_int_equal(n, 4);
    api.close();

    const char *bad[] = {"2", "0-2", "x", "3-1", "1,", ",1", "-1", "1 2", "0--1", ""};
    for (size_t i = 0; i + 1 < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(init_with("2", bad[i]), TRN_NRT_INVALID);
    assert_int_equal(init_with("0", "0"), TRN_NRT_INVALID);
    assert_int_equal(init_with("65", "0"), TRN_NRT_INVALID);
    /* The failures took nothing: the cores are free. */
    assert_int_equal(init_with("2", "0-1"), TRN_NRT_SUCCESS);
}

static void test_visible_core_out_of_range_message(void **state) {
    (void)state;
    setenv("NEURON_RT_VISIBLE_CORES", "5", 1);
    const int saved = stderr_to("range.err");
    assert_int_equal(api.init(TRN_NRT_FRAMEWORK_NO_FW, "", ""), TRN_NRT_INVALID);
    char *msg = stderr_back(saved, "range.err");
    assert_non_null(strstr(msg, "NeuronCore 5"));
    free(msg);
}

static void test_fail_init(void **state) {
    (void)state;
    setenv("NRTSIM_FAIL_INIT", "nrtsim: injected: the Neuron driver is not loaded", 1);
    const int saved = stderr_to("fail.err");
    assert_int_equal(api.init(TRN_NRT_FRAMEWORK_NO_FW, "", ""), TRN_NRT_FAILURE);
    char *msg = stderr_back(saved, "fail.err");
    assert_non_null(strstr(msg, "nrtsim: injected: the Neuron driver is not loaded"));
    free(msg);
    uint32_t n;
    assert_int_equal(api.get_visible_nc_count(&n), TRN_NRT_UNINITIALIZED);
    unsetenv("NRTSIM_FAIL_INIT");
    init_ok();
}

/* ---- ownership ---- */

/* In a child of an initialized parent: drop the inherited runtime (its
 * descriptors: the parent's locks stay the parent's), ask for arg's cores. */
static int child_init(void *arg) {
    api.close();
    setenv("NEURON_RT_VISIBLE_CORES", (const char *)arg, 1);
    return api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "");
}

/* The child asks for 0-1 (refused: 1 is the parent's), then for 0 alone:
 * the refused init released core 0 again. */
static int child_init_twice(void *arg) {
    (void)arg;
    const int first = child_init("0-1");
    const int second = child_init("0");
    return first == TRN_NRT_RESOURCE && second == TRN_NRT_SUCCESS ? 0 : 100 + first;
}

static void test_ownership_across_processes(void **state) {
    (void)state;
    setenv("NEURON_RT_VISIBLE_CORES", "1", 1);
    init_ok();
    assert_int_equal(in_child(child_init, "1", "child1.err"), TRN_NRT_RESOURCE);
    char path[700], want[128];
    path_in(path, sizeof(path), "child1.err");
    char *msg = read_file(path, NULL);
    snprintf(want, sizeof(want), "NeuronCore 1 is in use by another process (pid %ld)",
             (long)getpid());
    assert_non_null(strstr(msg, want));
    free(msg);
    /* Another core is free; a refused init released what it had taken. */
    assert_int_equal(in_child(child_init, "0", "child0.err"), TRN_NRT_SUCCESS);
    assert_int_equal(in_child(child_init_twice, NULL, "child2.err"), 0);
    /* The children's nrt_close did not take the parent's core away. */
    assert_int_equal(in_child(child_init, "1", "child3.err"), TRN_NRT_RESOURCE);
    api.close();
    assert_int_equal(in_child(child_init, "1", "child4.err"), TRN_NRT_SUCCESS);
    /* The lock directory is shared by every user. */
    char locks[700];
    path_in(locks, sizeof(locks), "locks");
    struct stat st;
    assert_int_equal(stat(locks, &st), 0);
    assert_int_equal(st.st_mode & 07777, 01777);
}

/* ---- tensors ---- */

static trn_nrt_tensor *tensor(trn_nrt_placement pl, int nc, size_t size) {
    trn_nrt_tensor *t = NULL;
    assert_int_equal(api.tensor_allocate(pl, nc, size, "t", &t), TRN_NRT_SUCCESS);
    assert_non_null(t);
    return t;
}

static void test_tensor_bounds(void **state) {
    (void)state;
    trn_nrt_tensor *t = NULL;
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 16, "x", &t),
                     TRN_NRT_UNINITIALIZED);
    init_ok();
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 0, "x", &t), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 2, 16, "x", &t),
                     TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, -1, 16, "x", &t),
                     TRN_NRT_INVALID);
    assert_null(t);
    t = tensor(TRN_NRT_PLACEMENT_DEVICE, 1, 64);
    assert_int_equal(api.tensor_get_size(t), 64);
    unsigned char in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = (unsigned char)(i * 7 + 1);
    memset(out, 0, sizeof(out));
    assert_int_equal(api.tensor_read(t, out, 0, 64), TRN_NRT_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out[i], 0); /* fresh tensors are zero */
    assert_int_equal(api.tensor_write(t, in, 0, 64), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_write(t, in, 60, 5), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_write(t, in, 65, 0), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_write(t, in, SIZE_MAX, 2), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_write(t, in, 2, SIZE_MAX), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_read(t, out, 1, 64), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_read(t, out, SIZE_MAX - 3, 8), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_read(t, out, 64, 0), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_read(t, out, 10, 20), TRN_NRT_SUCCESS);
    assert_memory_equal(out, in + 10, 20);

    trn_nrt_tensor *h = tensor(TRN_NRT_PLACEMENT_HOST, 0, 32);
    assert_int_equal(api.tensor_copy(t, 8, h, 4, 28), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_read(h, out, 4, 28), TRN_NRT_SUCCESS);
    assert_memory_equal(out, in + 8, 28);
    assert_int_equal(api.tensor_copy(t, 8, h, 5, 28), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_copy(t, 40, h, 0, 25), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_copy(t, SIZE_MAX, h, 0, 1), TRN_NRT_INVALID);

    api.tensor_free(&t);
    assert_null(t);
    api.tensor_free(&t); /* NULL is tolerated */
    api.tensor_free(NULL);
    api.tensor_free(&h);
    assert_null(h);
}

static void test_slices(void **state) {
    (void)state;
    init_ok();
    trn_nrt_tensor *t = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 100), *s = NULL, *ss = NULL;
    unsigned char in[100], out[100];
    for (int i = 0; i < 100; i++)
        in[i] = (unsigned char)(255 - i);
    assert_int_equal(api.tensor_write(t, in, 0, 100), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_allocate_slice(t, 90, 11, "s", &s), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate_slice(t, 101, 0, "s", &s), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate_slice(t, 10, 0, "s", &s), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate_slice(t, SIZE_MAX, 2, "s", &s), TRN_NRT_INVALID);
    assert_int_equal(api.tensor_allocate_slice(t, 20, 50, "s", &s), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_get_size(s), 50);
    assert_int_equal(api.tensor_read(s, out, 0, 50), TRN_NRT_SUCCESS);
    assert_memory_equal(out, in + 20, 50);
    assert_int_equal(api.tensor_read(s, out, 1, 50), TRN_NRT_INVALID);
    /* A slice of a slice, and writes through it seen in the parent. */
    assert_int_equal(api.tensor_allocate_slice(s, 5, 10, "ss", &ss), TRN_NRT_SUCCESS);
    const unsigned char mark[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assert_int_equal(api.tensor_write(ss, mark, 0, 10), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_read(t, out, 25, 10), TRN_NRT_SUCCESS);
    assert_memory_equal(out, mark, 10);
    assert_int_equal(api.tensor_write(ss, mark, 1, 10), TRN_NRT_INVALID);
    /* The memory outlives the parent while a slice uses it. */
    api.tensor_free(&t);
    assert_int_equal(api.tensor_read(ss, out, 0, 10), TRN_NRT_SUCCESS);
    assert_memory_equal(out, mark, 10);
    api.tensor_free(&s);
    assert_int_equal(api.tensor_read(ss, out, 0, 10), TRN_NRT_SUCCESS);
    api.tensor_free(&ss);
    /* Tensors left to nrt_close are freed by it (ASan checks the leaks). */
    (void)tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 10);
    trn_nrt_tensor *left = tensor(TRN_NRT_PLACEMENT_HOST, 1, 10), *lslice = NULL;
    assert_int_equal(api.tensor_allocate_slice(left, 0, 5, "l", &lslice), TRN_NRT_SUCCESS);
}

static void test_device_capacity(void **state) {
    (void)state;
    setenv("NRTSIM_HBM_MB", "1", 1);
    init_ok();
    trn_nrt_tensor *a = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 1 << 20), *b = NULL, *s = NULL;
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 1, "b", &b),
                     TRN_NRT_RESOURCE);
    /* Another core's memory, and host memory, are not core 0's. */
    trn_nrt_tensor *other = tensor(TRN_NRT_PLACEMENT_DEVICE, 1, 1 << 20);
    trn_nrt_tensor *host = tensor(TRN_NRT_PLACEMENT_HOST, 0, 4 << 20);
    /* A slice holds its parent's memory: nothing is given back yet. */
    assert_int_equal(api.tensor_allocate_slice(a, 0, 16, "s", &s), TRN_NRT_SUCCESS);
    api.tensor_free(&a);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 1, "b", &b),
                     TRN_NRT_RESOURCE);
    api.tensor_free(&s);
    b = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, (1 << 20) - 100);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 101, "c", &a),
                     TRN_NRT_RESOURCE);
    trn_nrt_tensor *c = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 100);
    api.tensor_free(&b);
    api.tensor_free(&c);
    api.tensor_free(&other);
    api.tensor_free(&host);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, SIZE_MAX, "huge", &a),
                     TRN_NRT_RESOURCE);
}

/* ---- NEFF: compile, load, tensor info ---- */

/* Compiles kernel's params with nrtsim-cc into name (in workdir); the
 * NEFF's bytes. */
static char *compile_kernel_neff(const char *kernel, const char *params, const char *name,
                                 size_t *len) {
    char out[700];
    path_in(out, sizeof(out), name);
    const char *args[] = {"compile", "--source", kernel_py, "--kernel", kernel, "--params",
                          params,    "--target", "trn2",    "--output", out,    NULL};
    char *err = NULL;
    const int rc = run_cc(args, NULL, &err);
    if (rc != 0)
        fprintf(stderr, "nrtsim-cc: %s", err);
    assert_int_equal(rc, 0);
    free(err);
    char *neff = read_file(out, len);
    assert_non_null(neff);
    return neff;
}

static char *compile_neff(const char *params, const char *name, size_t *len) {
    return compile_kernel_neff("gemm", params, name, len);
}

static trn_nrt_model *load_params(const char *params, int core) {
    size_t len;
    char *neff = compile_neff(params, "m.neff", &len);
    trn_nrt_model *m = NULL;
    assert_int_equal(api.load(neff, len, core, 1, &m), TRN_NRT_SUCCESS);
    free(neff);
    return m;
}

static void test_load_and_tensor_info(void **state) {
    (void)state;
    size_t len;
    char *neff = compile_neff("dtype=c32 mode=bf16x3 m=3 n=5 k=7 batch=2", "c.neff", &len);
    trn_nrt_model *m = NULL;
    assert_int_equal(api.load(neff, len, 0, 1, &m), TRN_NRT_UNINITIALIZED);
    init_ok();
    assert_int_equal(api.load(neff, len, -1, -1, &m), TRN_NRT_SUCCESS);
    trn_nrt_tensor_info_array *info = NULL;
    assert_int_equal(api.get_model_tensor_info(m, &info), TRN_NRT_SUCCESS);
    assert_int_equal(info->tensor_count, 5);
    const struct {
        const char *name;
        trn_nrt_usage usage;
        uint32_t ndim, shape[4];
    } want[] = {{"at", TRN_NRT_USAGE_INPUT, 4, {2, 2, 7, 3}},
                {"b", TRN_NRT_USAGE_INPUT, 4, {2, 2, 7, 5}},
                {"c", TRN_NRT_USAGE_INPUT, 4, {2, 2, 3, 5}},
                {"scal", TRN_NRT_USAGE_INPUT, 1, {4}},
                {"d", TRN_NRT_USAGE_OUTPUT, 4, {2, 2, 3, 5}}};
    for (size_t i = 0; i < 5; i++) {
        const trn_nrt_tensor_info *t = &info->tensor_array[i];
        assert_string_equal(t->name, want[i].name);
        assert_int_equal(t->usage, want[i].usage);
        assert_int_equal(t->dtype, TRN_NRT_DTYPE_FLOAT32);
        assert_int_equal(t->ndim, want[i].ndim);
        size_t elems = 1;
        for (uint32_t d = 0; d < t->ndim; d++) {
            assert_int_equal(t->shape[d], want[i].shape[d]);
            elems *= t->shape[d];
        }
        assert_int_equal(t->size, elems * 4);
    }
    assert_int_equal(api.free_model_tensor_info(info), TRN_NRT_SUCCESS);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    assert_int_equal(api.unload(m), TRN_NRT_INVALID_HANDLE);

    /* Placement: core 1 exists; core 2 does not; nc_count beyond the
     * visible cores is NRT_LOAD_NOT_ENOUGH_NC. */
    const int saved = stderr_to("load.err");
    assert_int_equal(api.load(neff, len, 1, 1, &m), TRN_NRT_SUCCESS);
    trn_nrt_model *m2 = NULL;
    assert_int_equal(api.load(neff, len, 2, 1, &m2), TRN_NRT_INVALID);
    assert_int_equal(api.load(neff, len, -2, 1, &m2), TRN_NRT_INVALID);
    assert_int_equal(api.load(neff, len, 0, 0, &m2), TRN_NRT_INVALID);
    assert_int_equal(api.load(neff, len, 0, 3, &m2), TRN_NRT_LOAD_NOT_ENOUGH_NC);
    assert_int_equal(api.load(neff, len, 1, 2, &m2), TRN_NRT_LOAD_NOT_ENOUGH_NC);
    free(stderr_back(saved, "load.err"));
    assert_null(m2);
    /* A model left loaded is unloaded by nrt_close. */
    free(neff);
}

static void test_model_capacity(void **state) {
    (void)state;
    setenv("NRTSIM_HBM_MB", "1", 1);
    init_ok();
    size_t len;
    /* Four 256 KiB tensors (at, b, c, d) plus the NEFF: over 1 MiB. */
    char *big = compile_neff("dtype=f32 mode=fp32 m=256 n=256 k=256 batch=1", "big.neff", &len);
    trn_nrt_model *m = NULL;
    const int saved = stderr_to("cap.err");
    assert_int_equal(api.load(big, len, 0, 1, &m), TRN_NRT_RESOURCE);
    free(stderr_back(saved, "cap.err"));
    free(big);
    /* Four 64 KiB tensors: 256 KiB and the NEFF's bytes. */
    char *small = compile_neff("dtype=f32 mode=fp32 m=128 n=128 k=128 batch=1", "s.neff", &len);
    assert_int_equal(api.load(small, len, 0, 1, &m), TRN_NRT_SUCCESS);
    const size_t charged = 4 * 65536 + 8 + len;
    trn_nrt_tensor *t = NULL;
    assert_int_equal(
        api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, (1 << 20) - charged + 1, "t", &t),
        TRN_NRT_RESOURCE);
    t = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, (1 << 20) - charged);
    api.tensor_free(&t);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    t = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 1 << 20);
    api.tensor_free(&t);
    free(small);
}

/* nrt_load of bytes copied into a buffer of exactly len bytes (ASan sees
 * any read past it). */
static trn_nrt_status load_exact(const char *bytes, size_t len) {
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, bytes, len);
    trn_nrt_model *m = NULL;
    const trn_nrt_status st = api.load(copy, len, 0, 1, &m);
    free(copy);
    if (st == TRN_NRT_SUCCESS)
        assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    else
        assert_null(m);
    return st;
}

/* The NEFF with the first occurrence of from replaced by to. */
static trn_nrt_status load_edited(const char *neff, const char *from, const char *to) {
    const char *at = strstr(neff, from);
    assert_non_null(at);
    const size_t head = (size_t)(at - neff), tail = strlen(at + strlen(from));
    char *e = malloc(head + strlen(to) + tail + 1);
    assert_non_null(e);
    memcpy(e, neff, head);
    memcpy(e + head, to, strlen(to));
    memcpy(e + head + strlen(to), at + strlen(from), tail + 1);
    const trn_nrt_status st = load_exact(e, strlen(e));
    free(e);
    return st;
}

static void test_malformed_neff(void **state) {
    (void)state;
    init_ok();
    size_t len;
    char *neff = compile_neff("dtype=f32 mode=bf16 m=4 n=3 k=2 batch=2", "x.neff", &len);
    const int saved = stderr_to("neff.err");
    assert_int_equal(load_exact(neff, len), TRN_NRT_SUCCESS);
    /* Every truncation. */
    for (size_t l = 0; l < len; l++)
        assert_int_equal(load_exact(neff, l), TRN_NRT_INVALID);
    trn_nrt_model *m = NULL;
    assert_int_equal(api.load(NULL, 10, 0, 1, &m), TRN_NRT_INVALID);
    /* Garbage, and a byte flipped anywhere (some flips are harmless: a
     * digit of the hash; all must be handled without a crash). */
    char garbage[512];
    for (size_t i = 0; i < sizeof(garbage); i++)
        garbage[i] = (char)(i * 131 + 7);
    assert_int_equal(load_exact(garbage, sizeof(garbage)), TRN_NRT_INVALID);
    for (size_t i = 0; i < len; i++) {
        char *flip = malloc(len);
        memcpy(flip, neff, len);
        flip[i] ^= 0x20;
        (void)load_exact(flip, len);
        flip[i] = '\0';
        assert_int_equal(load_exact(flip, len), TRN_NRT_INVALID);
        free(flip);
    }
    /* Edits: wrong magic, target, kernel, params, sizes, huge numbers. */
    const char *edits[][2] = {
        {"NRTSIM-NEFF 1", "NRTSIM-NEFF 2"},
        {"target trn2", "target trn3"},
        {"kernel gemm", "kernel conv"},
        {"mode=bf16", "mode=bf17"},
        {"m=4", "m=99999999999999999999"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 60 4 2 1 2 4"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 4 2 1 2 4 1"},
        {"tensor at input float32 64 4 2 1 2 4",
         "tensor at input float32 18446744073709551616 4 2 1 2 4"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 99 2 1 2 4"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 9 2 1 2 4"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 0"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 4 4294967296 1 2 4"},
        {"tensor at input float32 64 4 2 1 2 4", "tensor at input float32 64 2 8 2"},
        {"tensor at input", "tensor at output"},
        {"tensor at input float32", "tensor at input int32"},
        {"tensor at ", "tensor a/t "},
        {"tensor scal", "tensor scal input float32 8 1 2\ntensor scal"},
        {"tensor d output float32 96 4 2 1 4 3\n", ""},
        {"end\n", "end\nmore\n"},
        {"end\n", "end"},
        {"end\n", ""},
        {"params ", "params  "},
        {"\ntarget", "\r\ntarget"},
    };
    for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
        if (load_edited(neff, edits[i][0], edits[i][1]) != TRN_NRT_INVALID)
            fail_msg("edit %zu (\"%s\") was accepted", i, edits[i][1]);
    }
    /* A long line, and too many tensors. */
    char *longline = malloc(len + 4096);
    snprintf(longline, len + 4096, "%.*s%0*d\nend\n", (int)(strstr(neff, "tensor") - neff), neff,
             2000, 0);
    assert_int_equal(load_exact(longline, strlen(longline)), TRN_NRT_INVALID);
    free(longline);
    free(stderr_back(saved, "neff.err"));
    free(neff);
}

/* ---- execute: the gemm program ---- */

typedef struct gemm_case {
    trn_nprog_gemm g;
    float *at, *b, *c, *d;
    float scal[4];
    size_t n_at, n_b, n_c;
} gemm_case;

static uint64_t rng = 0x2545f4914f6cdd1dull;

static float uniform(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 11) * 0x1p-52 - 1.0);
}

static void case_init(gemm_case *t, int cplx, trn_nprog_mode mode, int m, int n, int k, int batch) {
    memset(t, 0, sizeof(*t));
    t->g = (trn_nprog_gemm){.complex = cplx, .mode = mode, .m = m, .n = n, .k = k, .batch = batch};
    const size_t p = cplx ? 2 : 1;
    t->n_at = (size_t)batch * p * (size_t)k * (size_t)m;
    t->n_b = (size_t)batch * p * (size_t)k * (size_t)n;
    t->n_c = (size_t)batch * p * (size_t)m * (size_t)n;
    t->at = malloc(t->n_at * sizeof(float));
    t->b = malloc(t->n_b * sizeof(float));
    t->c = malloc(t->n_c * sizeof(float));
    t->d = malloc(t->n_c * sizeof(float));
    assert_true(t->at && t->b && t->c && t->d);
    for (size_t i = 0; i < t->n_at; i++)
        t->at[i] = uniform();
    for (size_t i = 0; i < t->n_b; i++)
        t->b[i] = uniform();
    for (size_t i = 0; i < t->n_c; i++)
        t->c[i] = uniform();
    const float s[4] = {1.5f, -0.75f, 0.0f, 0.0f}, sc[4] = {0.8f, -0.6f, 0.3f, 0.4f};
    memcpy(t->scal, cplx ? sc : s, sizeof(t->scal));
}

static void case_free(gemm_case *t) {
    free(t->at);
    free(t->b);
    free(t->c);
    free(t->d);
}

/* A tensor holding n floats of data (or zeros) named name, in set. */
static void bind_tensor(trn_nrt_tensor_set *set, const char *name, const float *data, size_t n,
                        int core, trn_nrt_tensor **out) {
    assert_int_equal(
        api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, core, n * sizeof(float), name, out),
        TRN_NRT_SUCCESS);
    if (data)
        assert_int_equal(api.tensor_write(*out, data, 0, n * sizeof(float)), TRN_NRT_SUCCESS);
    assert_int_equal(api.add_tensor_to_tensor_set(set, name, *out), TRN_NRT_SUCCESS);
}

/* Runs t on model m (core core): the status; D read into t->d. */
static trn_nrt_status case_run(gemm_case *t, trn_nrt_model *m, int core) {
    trn_nrt_tensor_set *in = NULL, *out = NULL;
    trn_nrt_tensor *ts[5];
    assert_int_equal(api.allocate_tensor_set(&in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&out), TRN_NRT_SUCCESS);
    bind_tensor(in, "at", t->at, t->n_at, core, &ts[0]);
    bind_tensor(in, "b", t->b, t->n_b, core, &ts[1]);
    bind_tensor(in, "c", t->c, t->n_c, core, &ts[2]);
    bind_tensor(in, "scal", t->scal, t->g.complex ? 4 : 2, core, &ts[3]);
    bind_tensor(out, "d", NULL, t->n_c, core, &ts[4]);
    const trn_nrt_status st = api.execute(m, in, out);
    if (st == TRN_NRT_SUCCESS)
        assert_int_equal(api.tensor_read(ts[4], t->d, 0, t->n_c * sizeof(float)), 0);
    for (int i = 0; i < 5; i++)
        api.tensor_free(&ts[i]);
    api.destroy_tensor_set(&in);
    api.destroy_tensor_set(&out);
    assert_null(in);
    return st;
}

static char *params_of(const trn_nprog_gemm *g, char *buf) {
    assert_true(trn_nprog_gemm_format(g, buf, TRN_NPROG_PARAMS_LEN) > 0);
    return buf;
}

static double gamma_n(double n) {
    const double u = 0x1p-24;
    return n * u / (1 - n * u);
}

/* E and M of the header's bounds for the mode, with L products. */
static void mode_bound(trn_nprog_mode mode, double L, double *e, double *mfac) {
    const double r = 0x1p-8;
    *e = gamma_n(L);
    *mfac = 1 + gamma_n(L);
    switch (mode) {
    case TRN_NPROG_FP32: break;
    case TRN_NPROG_BF16:
        *e = 2 * r + r * r + gamma_n(L) * (1 + r) * (1 + r);
        *mfac = (1 + r) * (1 + r) * (1 + gamma_n(L));
        break;
    case TRN_NPROG_BF16X3:
        *e = 3.02 * r * r + gamma_n(3 * L) * (1 + r) * (1 + r) * (1 + 2 * r);
        *mfac = (1 + r) * (1 + r) * (1 + 2 * r) * (1 + gamma_n(3 * L));
        break;
    }
}

/* Element (i, j) of batch entry e in double: s (re, im) and S. */
static void reference(const gemm_case *t, size_t e, int i, int j, double s[2], double *mag) {
    const trn_nprog_gemm *g = &t->g;
    const size_t P = g->complex ? 2 : 1, km = (size_t)g->k * g->m, kn = (size_t)g->k * g->n;
    const float *a = t->at + e * P * km, *b = t->b + e * P * kn;
    double re = 0, im = 0, S = 0;
    for (int p = 0; p < g->k; p++) {
        const double ar = a[(size_t)p * g->m + i], br = b[(size_t)p * g->n + j];
        if (!g->complex) {
            re += ar * br;
            S += fabs(ar) * fabs(br);
            continue;
        }
        const double ai = a[km + (size_t)p * g->m + i], bi = b[kn + (size_t)p * g->n + j];
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
        S += (fabs(ar) + fabs(ai)) * (fabs(br) + fabs(bi));
    }
    s[0] = re;
    s[1] = im;
    *mag = S;
}

/* Checks t->d against the reference; returns the largest |error| / the
 * fp32 mode's bound (to show that a mode is not fp32 in disguise). */
static double case_check(const gemm_case *t, int beta_zero) {
    const trn_nprog_gemm *g = &t->g;
    const size_t P = g->complex ? 2 : 1, mn = (size_t)g->m * g->n;
    const double L = g->complex ? 2.0 * g->k : g->k;
    double e, mfac, e32, m32;
    mode_bound(g->mode, L, &e, &mfac);
    mode_bound(TRN_NPROG_FP32, L, &e32, &m32);
    const double ar = t->scal[0], ai = g->complex ? t->scal[1] : 0;
    const double br = beta_zero ? 0 : t->scal[P], bi = g->complex && !beta_zero ? t->scal[3] : 0;
    const double alpha = fabs(ar) + fabs(ai), beta = fabs(br) + fabs(bi);
    double worst32 = 0;
    for (size_t be = 0; be < (size_t)g->batch; be++) {
        const float *c = t->c + be * P * mn, *d = t->d + be * P * mn;
        for (int i = 0; i < g->m; i++) {
            for (int j = 0; j < g->n; j++) {
                double s[2], S;
                reference(t, be, i, j, s, &S);
                const size_t x = (size_t)i * g->n + j;
                const double cr = beta ? c[x] : 0, ci = beta && g->complex ? c[mn + x] : 0;
                const double want[2] = {ar * s[0] - ai * s[1] + br * cr - bi * ci,
                                        ar * s[1] + ai * s[0] + br * ci + bi * cr};
                const double cmag = fabs(cr) + fabs(ci);
                const double bound = alpha * e * S + gamma_n(3) * (alpha * mfac * S + beta * cmag) +
                                     alpha * 2 * L * 0x1p-52 * S;
                const double b32 = alpha * e32 * S + gamma_n(3) * (alpha * m32 * S + beta * cmag);
                for (size_t p = 0; p < P; p++) {
                    const double got = d[p * mn + x], err = fabs(got - want[p]);
                    if (!(err <= bound))
                        fail_msg("%s %s: batch %zu (%d, %d) plane %zu: %.9g, want %.9g (error "
                                 "%.3g > bound %.3g)",
                                 g->complex ? "c32" : "f32",
                                 g->mode == TRN_NPROG_FP32   ? "fp32"
                                 : g->mode == TRN_NPROG_BF16 ? "bf16"
                                                             : "bf16x3",
                                 be, i, j, p, got, want[p], err, bound);
                    if (err / b32 > worst32)
                        worst32 = err / b32;
                }
            }
        }
    }
    return worst32;
}

static void run_mode(int cplx, trn_nprog_mode mode) {
    gemm_case t;
    /* Sizes that cross the Tensor Engine's 128-row and 512-column tiles. */
    case_init(&t, cplx, mode, 130, 520, 257, 3);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 1);
    assert_int_equal(case_run(&t, m, 1), TRN_NRT_SUCCESS);
    const double worst32 = case_check(&t, 0);
    /* bf16 is not fp32 in disguise: somewhere its error exceeds the fp32
     * bound (here by 6x for c32, 50x for f32; the data are fixed). */
    if (mode == TRN_NPROG_BF16)
        assert_true(worst32 > 2);
    if (mode == TRN_NPROG_FP32)
        assert_true(worst32 <= 1);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    case_free(&t);
}

static void test_gemm_f32_modes(void **state) {
    (void)state;
    init_ok();
    run_mode(0, TRN_NPROG_FP32);
    run_mode(0, TRN_NPROG_BF16);
    run_mode(0, TRN_NPROG_BF16X3);
}

static void test_gemm_c32_modes(void **state) {
    (void)state;
    init_ok();
    run_mode(1, TRN_NPROG_FP32);
    run_mode(1, TRN_NPROG_BF16);
    run_mode(1, TRN_NPROG_BF16X3);
}

static void test_gemm_beta_zero_nan(void **state) {
    (void)state;
    init_ok();
    for (int cplx = 0; cplx < 2; cplx++) {
        gemm_case t;
        case_init(&t, cplx, TRN_NPROG_FP32, 17, 33, 9, 2);
        for (size_t i = 0; i < t.n_c; i++)
            t.c[i] = NAN;
        t.scal[cplx ? 2 : 1] = 0.0f;
        t.scal[3] = 0.0f;
        char params[TRN_NPROG_PARAMS_LEN];
        trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
        assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
        for (size_t i = 0; i < t.n_c; i++)
            assert_false(isnan(t.d[i]));
        (void)case_check(&t, 1);
        assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
        case_free(&t);
    }
}

/* Runs the layout=cm program of t's shape with ta, tb on t's operands,
 * laid out column by column as program.h says; its d [B][N][M] into out. */
static void colmajor_run(const gemm_case *t, int ta, int tb, float *out) {
    const int m = t->g.m, n = t->g.n, k = t->g.k, B = t->g.batch;
    trn_nprog_gemm g = t->g;
    g.layout = TRN_NPROG_COLMAJOR, g.ta = ta, g.tb = tb;
    const size_t lda = ta ? k : m, ldb = tb ? n : k, ldc = m;
    const size_t ea = (size_t)m * k, eb = (size_t)k * n, ec = (size_t)m * n;
    float *a = malloc(ea * B * 4), *b = malloc(eb * B * 4), *c = malloc(ec * B * 4);
    assert_true(a && b && c);
    for (int e = 0; e < B; e++) {
        const float *at = t->at + (size_t)e * k * m, *pb = t->b + (size_t)e * k * n,
                    *pc = t->c + (size_t)e * m * n;
        for (int l = 0; l < k; l++) {
            for (int i = 0; i < m; i++) /* op(A)(i, l) = at[l][i] */
                a[e * ea + (ta ? l + (size_t)i * lda : i + (size_t)l * lda)] = at[l * m + i];
            for (int j = 0; j < n; j++) /* op(B)(l, j) = b[l][j] */
                b[e * eb + (tb ? j + (size_t)l * ldb : l + (size_t)j * ldb)] = pb[l * n + j];
        }
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                c[e * ec + i + (size_t)j * ldc] = pc[i * n + j];
    }
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *model = load_params(params_of(&g, params), 0);
    trn_nrt_tensor_set *in = NULL, *outs = NULL;
    trn_nrt_tensor *ts[5];
    assert_int_equal(api.allocate_tensor_set(&in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&outs), TRN_NRT_SUCCESS);
    bind_tensor(in, "a", a, ea * B, 0, &ts[0]);
    bind_tensor(in, "b", b, eb * B, 0, &ts[1]);
    bind_tensor(in, "c", c, ec * B, 0, &ts[2]);
    bind_tensor(in, "scal", t->scal, 2, 0, &ts[3]);
    bind_tensor(outs, "d", NULL, (size_t)B * m * n, 0, &ts[4]);
    assert_int_equal(api.execute(model, in, outs), TRN_NRT_SUCCESS);
    assert_int_equal(api.tensor_read(ts[4], out, 0, (size_t)B * m * n * 4), TRN_NRT_SUCCESS);
    for (int i = 0; i < 5; i++)
        api.tensor_free(&ts[i]);
    api.destroy_tensor_set(&in);
    api.destroy_tensor_set(&outs);
    assert_int_equal(api.unload(model), TRN_NRT_SUCCESS);
    free(a);
    free(b);
    free(c);
}

/* Rule (program.h, layout=cm): the column-major program computes, element
 * for element and bit for bit, what the packed program computes on the
 * same matrices, for every ta/tb pair and mode. The packed program is
 * checked against double by the tests above; the kernel itself by
 * tests/nki (nki_gemm). */
static void test_gemm_colmajor(void **state) {
    (void)state;
    init_ok();
    for (int mode = TRN_NPROG_FP32; mode <= TRN_NPROG_BF16X3; mode++) {
        gemm_case t;
        case_init(&t, 0, (trn_nprog_mode)mode, 37, 21, 130, 2);
        char params[TRN_NPROG_PARAMS_LEN];
        trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
        assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
        assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
        float *out = malloc(t.n_c * 4);
        assert_non_null(out);
        for (int pair = 0; pair < 4; pair++) {
            colmajor_run(&t, pair & 1, pair >> 1, out);
            for (int e = 0; e < t.g.batch; e++)
                for (int i = 0; i < t.g.m; i++)
                    for (int j = 0; j < t.g.n; j++) {
                        const size_t at = (size_t)e * t.g.m * t.g.n;
                        const float want = t.d[at + (size_t)i * t.g.n + j],
                                    got = out[at + (size_t)j * t.g.m + i];
                        if (memcmp(&want, &got, 4) != 0)
                            fail_msg("mode %d ta %d tb %d: (%d,%d) of %d is %a, packed %a", mode,
                                     pair & 1, pair >> 1, i, j, e, got, want);
                    }
        }
        free(out);
        case_free(&t);
    }
}

/* One product a b (1x1x1, alpha 1, beta 0) in mode. */
static float one_product(trn_nprog_mode mode, float a, float b) {
    gemm_case t;
    case_init(&t, 0, mode, 1, 1, 1, 1);
    t.at[0] = a;
    t.b[0] = b;
    t.scal[0] = 1.0f;
    t.scal[1] = 0.0f;
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    const float d = t.d[0];
    case_free(&t);
    return d;
}

static void test_gemm_rounding(void **state) {
    (void)state;
    init_ok();
    /* bfloat16 keeps 7 fraction bits: 1 + 2^-8 is a tie, to even (1);
     * 1 + 3 2^-8 a tie to 1 + 2^-6; 1 + 2^-8 + 2^-20 rounds up. */
    assert_true(one_product(TRN_NPROG_BF16, 1.0f + 0x1p-8f, 1.0f) == 1.0f);
    assert_true(one_product(TRN_NPROG_BF16, 1.0f + 0x3p-8f, 1.0f) == 1.0f + 0x1p-6f);
    assert_true(one_product(TRN_NPROG_BF16, 1.0f + 0x1p-8f + 0x1p-20f, 1.0f) == 1.0f + 0x1p-7f);
    assert_true(one_product(TRN_NPROG_BF16, -(1.0f + 0x3p-8f), 1.0f) == -(1.0f + 0x1p-6f));
    /* bf16x3: hi + lo carries 16 bits; lo lo (here 2^-18) is dropped. */
    const float x = 1.0f + 0x1p-9f;
    assert_true(one_product(TRN_NPROG_BF16X3, x, x) == 1.0f + 0x1p-8f);
    assert_true(one_product(TRN_NPROG_FP32, x, x) == 1.0f + 0x1p-8f + 0x1p-18f);
}

static void test_execute_binding(void **state) {
    (void)state;
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 4, 4, 4, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    trn_nrt_tensor_set *in = NULL, *out = NULL;
    trn_nrt_tensor *ts[6];
    assert_int_equal(api.allocate_tensor_set(&in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&out), TRN_NRT_SUCCESS);
    bind_tensor(in, "at", t.at, t.n_at, 0, &ts[0]);
    bind_tensor(in, "b", t.b, t.n_b, 0, &ts[1]);
    bind_tensor(in, "c", t.c, t.n_c, 0, &ts[2]);
    bind_tensor(out, "d", NULL, t.n_c, 0, &ts[4]);
    int saved = stderr_to("bind.err");
    assert_int_equal(api.execute(m, in, out), TRN_NRT_INVALID);
    char *msg = stderr_back(saved, "bind.err");
    assert_non_null(strstr(msg, "\"scal\""));
    free(msg);
    bind_tensor(in, "scal", t.scal, 3, 0, &ts[3]); /* one float too many */
    saved = stderr_to("bind.err");
    assert_int_equal(api.execute(m, in, out), TRN_NRT_INVALID);
    msg = stderr_back(saved, "bind.err");
    assert_non_null(strstr(msg, "\"scal\""));
    free(msg);
    /* Rebinding a name replaces the tensor. */
    api.tensor_free(&ts[3]);
    bind_tensor(in, "scal", t.scal, 2, 0, &ts[3]);
    trn_nrt_tensor *got = NULL;
    trn_nrt_status (*get)(trn_nrt_tensor_set *, const char *, trn_nrt_tensor **);
    void *sym = dlsym(api.dl, "nrt_get_tensor_from_tensor_set");
    memcpy(&get, &sym, sizeof(get));
    assert_int_equal(get(in, "scal", &got), TRN_NRT_SUCCESS);
    assert_ptr_equal(got, ts[3]);
    assert_int_equal(get(in, "nothing", &got), TRN_NRT_INVALID);
    /* The output set is where outputs are looked for. */
    saved = stderr_to("bind.err");
    assert_int_equal(api.execute(m, out, in), TRN_NRT_INVALID);
    free(stderr_back(saved, "bind.err"));
    assert_int_equal(api.execute(m, in, out), TRN_NRT_SUCCESS);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    assert_int_equal(api.execute(m, in, out), TRN_NRT_INVALID_HANDLE);
    for (int i = 0; i < 5; i++)
        api.tensor_free(&ts[i]);
    api.destroy_tensor_set(&in);
    api.destroy_tensor_set(&out);
    api.destroy_tensor_set(&out);
    case_free(&t);
}

/* ---- several threads ---- */

/* Rule (program.h, gemm_seq): a sequence's nodes run in one execution,
 * each exactly as the gemm program runs it, an operand "dI" being node I's
 * result as it wrote it: every d is bitwise that of the gemm programs run
 * one by one (whose results test_gemm_*_modes check against double). The
 * NEFF declares atJ/bJ/cJ only for "in" operands, scal [J][2P] and every
 * dJ; one missing is refused. Node 1's op(A) is d0 transposed (its at is
 * d0); node 2 adds beta d1 (its c is d1). */
static void test_gemm_sequence(void **state) {
    (void)state;
    init_ok();
    const char *params = "dtype=c32 mode=bf16x3 nodes=3 g0=130x64x20x1:in,in,in "
                         "g1=64x7x130x1:d0,in,in g2=64x7x5x1:in,in,d1";
    size_t len;
    char *neff = compile_kernel_neff("gemm_seq", params, "seq.neff", &len);
    assert_int_equal(load_edited(neff, "tensor b1 input", "tensor x1 input"), TRN_NRT_INVALID);
    assert_int_equal(load_edited(neff, "tensor d1 output", "tensor e1 output"), TRN_NRT_INVALID);
    trn_nrt_model *m = NULL;
    assert_int_equal(api.load(neff, len, 0, 1, &m), TRN_NRT_SUCCESS);
    free(neff);
    gemm_case t[3];
    case_init(&t[0], 1, TRN_NPROG_BF16X3, 130, 64, 20, 1);
    case_init(&t[1], 1, TRN_NPROG_BF16X3, 64, 7, 130, 1);
    case_init(&t[2], 1, TRN_NPROG_BF16X3, 64, 7, 5, 1);
    t[2].scal[2] = -0.5f; /* node 2 adds beta d1 */
    /* The sequence: inputs at0 b0 c0, b1 c1, at2 b2; scal [3][4]. */
    trn_nrt_tensor_set *in = NULL, *out = NULL;
    trn_nrt_tensor *ts[11];
    int nt = 0;
    assert_int_equal(api.allocate_tensor_set(&in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&out), TRN_NRT_SUCCESS);
    bind_tensor(in, "at0", t[0].at, t[0].n_at, 0, &ts[nt++]);
    bind_tensor(in, "b0", t[0].b, t[0].n_b, 0, &ts[nt++]);
    bind_tensor(in, "c0", t[0].c, t[0].n_c, 0, &ts[nt++]);
    bind_tensor(in, "b1", t[1].b, t[1].n_b, 0, &ts[nt++]);
    bind_tensor(in, "c1", t[1].c, t[1].n_c, 0, &ts[nt++]);
    bind_tensor(in, "at2", t[2].at, t[2].n_at, 0, &ts[nt++]);
    bind_tensor(in, "b2", t[2].b, t[2].n_b, 0, &ts[nt++]);
    float scal[12];
    for (int j = 0; j < 3; j++)
        memcpy(scal + 4 * j, t[j].scal, sizeof(t[j].scal));
    bind_tensor(in, "scal", scal, 12, 0, &ts[nt++]);
    const int first_d = nt;
    for (int j = 0; j < 3; j++) {
        char name[16];
        snprintf(name, sizeof(name), "d%d", j);
        bind_tensor(out, name, NULL, t[j].n_c, 0, &ts[nt++]);
    }
    assert_int_equal(api.execute(m, in, out), TRN_NRT_SUCCESS);
    float *seq_d[3];
    for (int j = 0; j < 3; j++) {
        seq_d[j] = malloc(t[j].n_c * sizeof(float));
        assert_non_null(seq_d[j]);
        assert_int_equal(api.tensor_read(ts[first_d + j], seq_d[j], 0, t[j].n_c * sizeof(float)),
                         TRN_NRT_SUCCESS);
    }
    /* The same nodes through the gemm program, one by one. */
    for (int j = 0; j < 3; j++) {
        if (j == 1)
            memcpy(t[1].at, t[0].d, t[0].n_c * sizeof(float)); /* at1 = d0 */
        if (j == 2)
            memcpy(t[2].c, t[1].d, t[1].n_c * sizeof(float)); /* c2 = d1 */
        char buf[TRN_NPROG_PARAMS_LEN];
        trn_nrt_model *g = load_params(params_of(&t[j].g, buf), 0);
        assert_int_equal(case_run(&t[j], g, 0), TRN_NRT_SUCCESS);
        assert_int_equal(api.unload(g), TRN_NRT_SUCCESS);
        if (memcmp(seq_d[j], t[j].d, t[j].n_c * sizeof(float)) != 0)
            fail_msg("node %d: the sequence's d differs from the gemm program's", j);
    }
    for (int j = 0; j < 3; j++) /* and each against double, from what it read */
        (void)case_check(&t[j], 0);
    for (int i = 0; i < nt; i++)
        api.tensor_free(&ts[i]);
    api.destroy_tensor_set(&in);
    api.destroy_tensor_set(&out);
    assert_int_equal(api.unload(m), TRN_NRT_SUCCESS);
    for (int j = 0; j < 3; j++) {
        free(seq_d[j]);
        case_free(&t[j]);
    }
}

typedef struct thread_arg {
    trn_nrt_model *m;
    int core, failures;
    const gemm_case *ref;
} thread_arg;

static void *thread_main(void *p) {
    thread_arg *a = p;
    gemm_case t = *a->ref;
    t.d = malloc(t.n_c * sizeof(float));
    for (int it = 0; it < 10; it++) {
        /* No cmocka assertions off the main thread: count failures. */
        trn_nrt_tensor_set *in = NULL, *out = NULL;
        trn_nrt_tensor *ts[5] = {0};
        const char *names[5] = {"at", "b", "c", "scal", "d"};
        const float *data[5] = {t.at, t.b, t.c, t.scal, NULL};
        const size_t n[5] = {t.n_at, t.n_b, t.n_c, 2, t.n_c};
        int ok = api.allocate_tensor_set(&in) == 0 && api.allocate_tensor_set(&out) == 0;
        for (int i = 0; ok && i < 5; i++) {
            ok = api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, a->core, n[i] * 4, names[i],
                                     &ts[i]) == 0 &&
                 (!data[i] || api.tensor_write(ts[i], data[i], 0, n[i] * 4) == 0) &&
                 api.add_tensor_to_tensor_set(i < 4 ? in : out, names[i], ts[i]) == 0;
        }
        ok = ok && api.execute(a->m, in, out) == 0 &&
             api.tensor_read(ts[4], t.d, 0, t.n_c * 4) == 0 &&
             memcmp(t.d, a->ref->d, t.n_c * 4) == 0;
        a->failures += !ok;
        for (int i = 0; i < 5; i++)
            api.tensor_free(&ts[i]);
        api.destroy_tensor_set(&in);
        api.destroy_tensor_set(&out);
    }
    free(t.d);
    return NULL;
}

static void test_threads(void **state) {
    (void)state;
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_BF16X3, 40, 70, 50, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m[2] = {load_params(params_of(&t.g, params), 0),
                           load_params(params_of(&t.g, params), 1)};
    assert_int_equal(case_run(&t, m[0], 0), TRN_NRT_SUCCESS);
    pthread_t th[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){.m = m[i % 2], .core = i % 2, .ref = &t};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    case_free(&t);
}

/* ---- fault injection ---- */

static void faults_file(const char *text) {
    char path[700];
    path_in(path, sizeof(path), "faults");
    write_file(path, text);
}

static void use_faults_file(void) {
    char path[700];
    path_in(path, sizeof(path), "faults");
    setenv("NRTSIM_FAULTS", path, 1);
}

static void test_fault_exec_error_and_alloc(void **state) {
    (void)state;
    use_faults_file();
    faults_file("# armed before init\nexec_error core=0 count=2\n");
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 3, 3, 3, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m0 = load_params(params_of(&t.g, params), 0);
    trn_nrt_model *m1 = load_params(params_of(&t.g, params), 1);
    assert_int_equal(case_run(&t, m1, 1), TRN_NRT_SUCCESS); /* another core */
    assert_int_equal(case_run(&t, m0, 0), TRN_NRT_EXEC_COMPLETED_WITH_ERR);
    assert_int_equal(case_run(&t, m0, 0), TRN_NRT_EXEC_COMPLETED_WITH_ERR);
    assert_int_equal(case_run(&t, m0, 0), TRN_NRT_SUCCESS);
    /* Rewritten: armed again (and for core 1 now). */
    faults_file("exec_error core=1 count=1\nalloc_fail core=0 count=2\n");
    assert_int_equal(case_run(&t, m1, 1), TRN_NRT_EXEC_COMPLETED_WITH_ERR);
    assert_int_equal(case_run(&t, m1, 1), TRN_NRT_SUCCESS);
    trn_nrt_tensor *x = NULL;
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 8, "x", &x),
                     TRN_NRT_RESOURCE);
    x = tensor(TRN_NRT_PLACEMENT_HOST, 0, 8); /* host memory is not the core's */
    api.tensor_free(&x);
    x = tensor(TRN_NRT_PLACEMENT_DEVICE, 1, 8);
    api.tensor_free(&x);
    assert_int_equal(api.tensor_allocate(TRN_NRT_PLACEMENT_DEVICE, 0, 8, "x", &x),
                     TRN_NRT_RESOURCE);
    x = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 8);
    api.tensor_free(&x);
    /* A line not understood is reported and skipped. */
    faults_file("exec_error core=0\nexplode core=0 count=1\nexec_error core=0 count=1\n"
                "alloc_fail core=64 count=1\nhang core=0 count=1\n");
    const int saved = stderr_to("faults.err");
    assert_int_equal(case_run(&t, m0, 0), TRN_NRT_EXEC_COMPLETED_WITH_ERR);
    char *msg = stderr_back(saved, "faults.err");
    assert_non_null(strstr(msg, "faults:1:"));
    assert_non_null(strstr(msg, "faults:2:"));
    assert_non_null(strstr(msg, "faults:4:"));
    assert_non_null(strstr(msg, "faults:5:"));
    free(msg);
    assert_int_equal(case_run(&t, m0, 0), TRN_NRT_SUCCESS);
    case_free(&t);
}

/* A fresh process reads the file anew: its counts are its own. */
static int child_exec_after_faults(void *arg) {
    const gemm_case *t = arg;
    api.close();
    char locks[700];
    path_in(locks, sizeof(locks), "child-locks"); /* the parent owns the cores */
    setenv("NRTSIM_LOCK_DIR", locks, 1);
    if (api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "") != 0)
        return 90;
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t->g, params), 0);
    gemm_case c = *t;
    return case_run(&c, m, 0) == TRN_NRT_EXEC_COMPLETED_WITH_ERR ? 0 : 91;
}

static void test_fault_counts_per_process(void **state) {
    (void)state;
    use_faults_file();
    faults_file("exec_error core=0 count=1\n");
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 2, 2, 2, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_EXEC_COMPLETED_WITH_ERR);
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
    assert_int_equal(in_child(child_exec_after_faults, &t, "child.err"), 0);
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
    case_free(&t);
}

static void test_fault_timeout(void **state) {
    (void)state;
    use_faults_file();
    setenv("NRTSIM_TIMEOUT_MS", "120", 1);
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 2, 2, 2, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    faults_file("timeout core=0 count=1\n"); /* armed after init: seen by its change */
    const double t0 = now_s();
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_TIMEOUT);
    assert_true(now_s() - t0 >= 0.120);
    assert_int_equal(case_run(&t, m, 0), TRN_NRT_SUCCESS);
    case_free(&t);
}

/* In a child: executes on core 0 with a hang armed; writes to the pipe only
 * if the execution ever returns. */
static int child_hang(void *arg) {
    const int fd = *(const int *)arg;
    api.close();
    char locks[700];
    path_in(locks, sizeof(locks), "child-locks");
    setenv("NRTSIM_LOCK_DIR", locks, 1);
    if (api.init(TRN_NRT_FRAMEWORK_NO_FW, "", "") != 0)
        return 90;
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 2, 2, 2, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    const char ready = 'r', back = 'x';
    if (write(fd, &ready, 1) != 1)
        return 92;
    (void)case_run(&t, m, 0);
    if (write(fd, &back, 1) != 1)
        return 93;
    return 0;
}

static void test_fault_hang(void **state) {
    (void)state;
    use_faults_file();
    faults_file("hang core=0\n");
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        _exit(child_hang(&fds[1]));
    }
    close(fds[1]);
    char c = 0;
    assert_int_equal(read(fds[0], &c, 1), 1);
    assert_int_equal(c, 'r');
    /* 300 ms after it started executing, it has neither returned nor exited. */
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
    assert_int_equal(read(fds[0], &c, 1), -1);
    assert_int_equal(errno, EAGAIN);
    int status;
    assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    close(fds[0]);
}

/* ---- timing model ---- */

static void test_timing_model(void **state) {
    (void)state;
    /* 2 64^3 = 524288 flop at 0.002 GFLOP/s: 262.144 ms, plus 20 ms. */
    setenv("NRTSIM_GFLOPS", "0.002", 1);
    setenv("NRTSIM_DISPATCH_US", "20000", 1);
    setenv("NRTSIM_DMA_GBPS", "0.01", 1);
    setenv("NRTSIM_HBM_GBPS", "0.004", 1);
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 64, 64, 64, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m = load_params(params_of(&t.g, params), 0);
    /* case_run's writes are DMA too: time the execute alone. */
    trn_nrt_tensor_set *in = NULL, *out = NULL;
    trn_nrt_tensor *ts[5];
    assert_int_equal(api.allocate_tensor_set(&in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&out), TRN_NRT_SUCCESS);
    bind_tensor(in, "at", t.at, t.n_at, 0, &ts[0]);
    bind_tensor(in, "b", t.b, t.n_b, 0, &ts[1]);
    bind_tensor(in, "c", t.c, t.n_c, 0, &ts[2]);
    bind_tensor(in, "scal", t.scal, 2, 0, &ts[3]);
    bind_tensor(out, "d", NULL, t.n_c, 0, &ts[4]);
    double w0 = now_s(), c0 = cpu_s();
    assert_int_equal(api.execute(m, in, out), TRN_NRT_SUCCESS);
    double wall = now_s() - w0, cpu = cpu_s() - c0;
    assert_true(wall >= 0.282144);
    assert_true(cpu < 0.1); /* slept, not spun */
    /* 1 MiB to a device tensor at 10^7 B/s: 104.9 ms; a host tensor: none. */
    trn_nrt_tensor *dev = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 1 << 20);
    char *buf = calloc(1, 1 << 20);
    w0 = now_s();
    c0 = cpu_s();
    assert_int_equal(api.tensor_write(dev, buf, 0, 1 << 20), TRN_NRT_SUCCESS);
    wall = now_s() - w0;
    cpu = cpu_s() - c0;
    assert_true(wall >= 0.1048576);
    assert_true(cpu < 0.05);
    trn_nrt_tensor *host = tensor(TRN_NRT_PLACEMENT_HOST, 0, 1 << 20);
    w0 = now_s();
    assert_int_equal(api.tensor_copy(host, 0, dev, 0, 1 << 19), TRN_NRT_SUCCESS);
    assert_true(now_s() - w0 >= 0.0524288);
    /* Within core 0's memory at NRTSIM_HBM_GBPS (4 10^6 B/s, set slower
     * than the host's so that the bound tells the rates apart): 131 ms. */
    trn_nrt_tensor *dev2 = tensor(TRN_NRT_PLACEMENT_DEVICE, 0, 1 << 19);
    w0 = now_s();
    assert_int_equal(api.tensor_copy(dev, 0, dev2, 0, 1 << 19), TRN_NRT_SUCCESS);
    assert_true(now_s() - w0 >= 0.131072);
    free(buf);
    for (int i = 0; i < 5; i++)
        api.tensor_free(&ts[i]);
    api.destroy_tensor_set(&in);
    api.destroy_tensor_set(&out);
    case_free(&t);
}

/* One execution of a prepared model and sets, on a thread of its own. */
typedef struct exec_job {
    trn_nrt_model *m;
    trn_nrt_tensor_set *in, *out;
    trn_nrt_tensor *ts[5];
    trn_nrt_status st;
} exec_job;

static void *exec_main(void *p) {
    exec_job *j = p;
    j->st = api.execute(j->m, j->in, j->out);
    return NULL;
}

static void job_prepare(exec_job *j, const gemm_case *t, trn_nrt_model *m, int core) {
    j->m = m;
    assert_int_equal(api.allocate_tensor_set(&j->in), TRN_NRT_SUCCESS);
    assert_int_equal(api.allocate_tensor_set(&j->out), TRN_NRT_SUCCESS);
    bind_tensor(j->in, "at", t->at, t->n_at, core, &j->ts[0]);
    bind_tensor(j->in, "b", t->b, t->n_b, core, &j->ts[1]);
    bind_tensor(j->in, "c", t->c, t->n_c, core, &j->ts[2]);
    bind_tensor(j->in, "scal", t->scal, 2, core, &j->ts[3]);
    bind_tensor(j->out, "d", NULL, t->n_c, core, &j->ts[4]);
}

static void job_release(exec_job *j) {
    for (int i = 0; i < 5; i++)
        api.tensor_free(&j->ts[i]);
    api.destroy_tensor_set(&j->in);
    api.destroy_tensor_set(&j->out);
}

/* Two executions at once on cores (c0, c1): the wall time of both. */
static double two_at_once(const gemm_case *t, trn_nrt_model *m[2], int c0, int c1) {
    exec_job jobs[2] = {0};
    job_prepare(&jobs[0], t, m[c0], c0);
    job_prepare(&jobs[1], t, m[c1], c1);
    pthread_t th[2];
    const double t0 = now_s();
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, exec_main, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    const double wall = now_s() - t0;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(jobs[i].st, TRN_NRT_SUCCESS);
        job_release(&jobs[i]);
    }
    return wall;
}

static void test_one_execution_per_core(void **state) {
    (void)state;
    /* 2 48^3 = 221184 flop at 0.002 GFLOP/s: 110.6 ms an execution. */
    setenv("NRTSIM_GFLOPS", "0.002", 1);
    char trace[700];
    path_in(trace, sizeof(trace), "trace");
    setenv("NRTSIM_TRACE", trace, 1);
    init_ok();
    gemm_case t;
    case_init(&t, 0, TRN_NPROG_FP32, 48, 48, 48, 1);
    char params[TRN_NPROG_PARAMS_LEN];
    trn_nrt_model *m[2] = {load_params(params_of(&t.g, params), 0),
                           load_params(params_of(&t.g, params), 1)};
    /* One core runs them one after the other: the modelled times add up.
     * Two cores run them side by side: their executions overlap in the
     * trace (modelled start, end), which no load on the machine can make
     * them do on one core. */
    assert_true(two_at_once(&t, m, 0, 0) >= 0.2211);
    (void)two_at_once(&t, m, 0, 1);
    size_t len = 0;
    char *text = read_file(trace, &len);
    assert_non_null(text);
    unsigned long long b[2][3] = {{0}}, e[2][3] = {{0}}; /* per core: its 3 executions */
    int n[2] = {0, 0};
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int core;
        unsigned long long lb, le;
        if (sscanf(line, "exec %d %llu %llu", &core, &lb, &le) == 3 && core >= 0 && core < 2 &&
            n[core] < 3) {
            b[core][n[core]] = lb;
            e[core][n[core]++] = le;
        }
    }
    free(text);
    assert_true(n[0] == 3 && n[1] == 1);
    /* Core 0's first two did not overlap; its third overlapped core 1's. */
    assert_true(b[0][1] >= e[0][0] || b[0][0] >= e[0][1]);
    assert_true(b[0][2] < e[1][0] && b[1][0] < e[0][2]);
    case_free(&t);
}

/* ---- the compiler ---- */

static uint64_t fnv1a64(const char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void test_compiler(void **state) {
    (void)state;
    char *out = NULL, *err = NULL;
    assert_int_equal(run_cc((const char *[]){"--version", NULL}, &out, NULL), 0);
    assert_string_equal(out, "nrtsim-cc 1.0 (simulated neuronx-cc)\n");
    free(out);

    /* The NEFF names the source by its hash. */
    size_t len, srclen;
    char *neff = compile_neff("dtype=f32 mode=fp32 m=1 n=2 k=3 batch=4", "h.neff", &len);
    char *src = read_file(kernel_py, &srclen);
    char want[64];
    snprintf(want, sizeof(want), "\nsource fnv1a64:%016llx\n",
             (unsigned long long)fnv1a64(src, srclen));
    assert_non_null(strstr(neff, want));
    assert_non_null(strstr(neff, "\ntarget trn2\n"));
    free(src);
    free(neff);

    char o[700], other[700];
    path_in(o, sizeof(o), "o.neff");
    path_in(other, sizeof(other), "other.py");
    write_file(other, "def conv(x):\n    pass\n");
    const char *p7 = "dtype=f32 mode=fp32 m=7 n=2 k=3 batch=1";
    /* Injected failure. */
    setenv("NRTSIM_CC_FAIL", "m=7 ", 1);
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", kernel_py, "--kernel", "gemm", "--params",
                                p7, "--target", "trn1", "--output", o, NULL},
               NULL, &err),
        1);
    assert_non_null(strstr(err, "nrtsim-cc: error: injected failure for dtype=f32 mode=fp32 m=7"));
    free(err);
    unsetenv("NRTSIM_CC_FAIL");
    assert_int_equal(access(o, F_OK), -1);
    /* No "def gemm(" in the source. */
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", other, "--kernel", "gemm", "--params", p7,
                                "--target", "trn1", "--output", o, NULL},
               NULL, &err),
        1);
    assert_non_null(strstr(err, "def gemm("));
    free(err);
    /* A kernel the source defines but the compiler does not know. */
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", other, "--kernel", "conv", "--params", p7,
                                "--target", "trn1", "--output", o, NULL},
               NULL, &err),
        1);
    assert_non_null(strstr(err, "unknown kernel"));
    free(err);
    /* Bad parameters, target, missing source, bad command line. */
    const char *bad_params[] = {"dtype=f64 mode=fp32 m=1 n=1 k=1 batch=1",
                                "dtype=f32 mode=fp32 m=0 n=1 k=1 batch=1",
                                "dtype=f32 mode=fp32 m=1 n=1 k=1"};
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(run_cc((const char *[]){"compile", "--source", kernel_py, "--kernel",
                                                 "gemm", "--params", bad_params[i], "--target",
                                                 "trn1", "--output", o, NULL},
                                NULL, NULL),
                         1);
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", kernel_py, "--kernel", "gemm", "--params",
                                p7, "--target", "inf2", "--output", o, NULL},
               NULL, NULL),
        1);
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", "/nonexistent/k.py", "--kernel", "gemm",
                                "--params", p7, "--target", "trn1", "--output", o, NULL},
               NULL, NULL),
        1);
    assert_int_equal(run_cc((const char *[]){"compile", "--source", kernel_py, NULL}, NULL, NULL),
                     2);
    assert_int_equal(access(o, F_OK), -1);
    /* The simulated compile time (default 150 ms). */
    unsetenv("NRTSIM_CC_MS");
    const double t0 = now_s();
    assert_int_equal(
        run_cc((const char *[]){"compile", "--source", kernel_py, "--kernel", "gemm", "--params",
                                p7, "--target", "trn1", "--output", o, NULL},
               NULL, NULL),
        0);
    assert_true(now_s() - t0 >= 0.150);
    assert_int_equal(access(o, R_OK), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_version_and_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_init_and_visible_cores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_visible_core_out_of_range_message, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_init, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ownership_across_processes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tensor_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slices, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device_capacity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_and_tensor_info, setup, teardown),
        cmocka_unit_test_setup_teardown(test_model_capacity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_neff, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_rounding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_f32_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_c32_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_beta_zero_nan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_colmajor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_execute_binding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_exec_error_and_alloc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_counts_per_process, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fault_hang, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timing_model, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_execution_per_core, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compiler, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_sequence, setup, teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
