/*
 * test_core_copy.c — one copy of a matrix per NeuronCore, bound by the
 * programs that read it (kernels/neuron/core_copy.h), on the simulated
 * runtime in this process.
 *
 * Rules checked:
 * - Two programs that read the same span of memory bind one copy of it:
 *   the second bind moves nothing, and both compute with it.
 * - A copy holds memory as it is: once the memory is written (the write
 *   clock says so), binding it writes it again, in place, and every
 *   program bound to it computes with the new contents.
 * - A span inside a current copy binds a slice of it and moves nothing.
 * - When the core's memory is full, copies no program binds are freed to
 *   make room; a bound copy never is, nor is an idle program unloaded for
 *   a copy: binding then fails, and the caller keeps its own tensor.
 * - A program bound to part of a copy reads W as it is after another
 *   program's binding writes the whole copy again in place.
 * - A write into a copy that fails (the simulator's write_fail fault cuts
 *   it off half way) leaves no binder holding anything, and the copy
 *   current for nothing, until a bind writes it whole again.
 * - Unbinding gives the set its own tensor back: the program computes
 *   with what is written there.
 * - A copy is the core's own: a program on another core makes its own
 *   copy, and the simulator refuses a tensor of another core's memory.
 * Products are of small integers, so exact in FP32: compared exactly.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernels/neuron/core_copy.h"
#include "kernels/neuron/nc_runtime.h"
#include "ops/write_clock.h"

#define N 64 /* W is N x N: 16 KiB */

static char dir[64];
static trn_nc_runtime rt;
static trn_write_clock *wclock;
static float w[N * N]; /* host memory the copies copy */

/* The simulated NEFF of the layout=cm gemm program m x n x k (batch 1). */
static void *neff_of(int m, int n, int k, size_t *size) {
    char params[128], out[128];
    snprintf(params, sizeof(params),
             "dtype=f32 mode=fp32 m=%d n=%d k=%d batch=1 layout=cm ta=n tb=n", m, n, k);
    snprintf(out, sizeof(out), "%s/p.neff", dir);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(NRTSIM_CC, NRTSIM_CC, "compile", "--source", NKI_DIR "/gemm.py", "--kernel", "gemm",
              "--params", params, "--target", "trn2", "--output", out, (char *)NULL);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    FILE *f = fopen(out, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    void *bytes = malloc(*size);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, *size, f), *size);
    fclose(f);
    return bytes;
}

/* The program m x n x k loaded on core (busy, as a run has it). */
static trn_nc_loaded *load(int m, int n, int k, int core, trn_nc_loaded **home) {
    size_t size = 0;
    void *neff = neff_of(m, n, k, &size);
    trn_nrt_status kind;
    char msg[256];
    trn_nc_loaded *ld = trn_nc_load(&rt, neff, size, core, home, &kind, msg, sizeof(msg));
    free(neff);
    if (!ld)
        fail_msg("load: %s", msg);
    return ld;
}

static int port(const trn_nc_loaded *ld, const char *name) {
    const int ti = trn_nc_port_index(ld, name, 0, 0);
    assert_true(ti >= 0);
    return ti;
}

static void put(const trn_nc_loaded *ld, const char *name, const void *host, size_t n) {
    const int ti = port(ld, name);
    assert_true(ld->t[ti].size == n);
    assert_int_equal(rt.api.tensor_write(ld->t[ti].tensor[0], host, 0, n), TRN_NRT_SUCCESS);
}

/* Binds ld's a to the n bytes at host; returns the bytes moved. */
static size_t bind_a(trn_nc_loaded *ld, const void *host, size_t n) {
    uint64_t since;
    size_t moved = 99;
    if (trn_nc_copy_bind(&rt, ld, 0, port(ld, "a"), host, n, &since, &moved) != 0)
        fail_msg("binding %zu bytes failed", n);
    return moved;
}

static int copies_on(int core) {
    int n = 0;
    for (const trn_nc_core_copy *c = rt.core_copy_list; c; c = c->next)
        n += c->core == core;
    return n;
}

/* Runs ld (m x n x k, a bound or written) with B[l][j] = l - j, C 0, alpha
 * 1, beta 0, and checks D = A B exactly, A being m x k from a (leading
 * dimension m). */
/* Runs ld (m x n x k, a bound or written) with B = b (k x n), C 0, alpha
 * 1, beta 0, and reads D into d. 0, or -1 when a call failed (no cmocka
 * assertion: workers' threads call it too). */
static int product(const trn_nc_loaded *ld, int m, int n, int k, const float *b, float *d) {
    const size_t bn = sizeof(float) * (size_t)k * n, cn = sizeof(float) * (size_t)m * n;
    const float scal[2] = {1, 0};
    float *c = calloc((size_t)m * n, sizeof(float));
    size_t bsize = 0, csize = 0, ssize = 0, dsize = 0;
    trn_nrt_tensor *bt = trn_nc_port(ld, 0, "b", 0, 1, &bsize),
                   *ct = trn_nc_port(ld, 0, "c", 0, 2, &csize),
                   *st = trn_nc_port(ld, 0, "scal", 0, 3, &ssize);
    const trn_nrt_tensor *dt = trn_nc_port(ld, 0, "d", 1, 0, &dsize);
    const int ok = c && bt && ct && st && dt && bsize == bn && csize == cn &&
                   ssize == sizeof(scal) && dsize == cn && !rt.api.tensor_write(bt, b, 0, bn) &&
                   !rt.api.tensor_write(ct, c, 0, cn) && !rt.api.tensor_write(st, scal, 0, ssize) &&
                   !rt.api.execute(ld->model, ld->in[0], ld->out[0]) &&
                   !rt.api.tensor_read(dt, d, 0, cn);
    free(c);
    return ok ? 0 : -1;
}

/* Checks D = A B exactly for B[l][j] = l - j (product), A being m x k
 * from a (leading dimension m). */
static void run_check(trn_nc_loaded *ld, int m, int n, int k, const float *a, const char *what) {
    float *b = malloc(sizeof(float) * (size_t)k * n), *d = malloc(sizeof(float) * (size_t)m * n);
    assert_true(b && d);
    for (int j = 0; j < n; j++)
        for (int l = 0; l < k; l++)
            b[l + j * k] = (float)(l - j);
    if (product(ld, m, n, k, b, d) != 0)
        fail_msg("%s: the program did not run", what);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double want = 0;
            for (int l = 0; l < k; l++)
                want += (double)a[i + l * m] * b[l + j * k];
            if (d[i + j * m] != want)
                fail_msg("%s: D(%d,%d) is %g, not %g", what, i, j, d[i + j * m], want);
        }
    free(b);
    free(d);
}

/* Writes W (host memory, as a Write would) and stamps the clock. */
static void write_w(int salt) {
    for (int i = 0; i < N * N; i++)
        w[i] = (float)((i * 7 + salt) % 11 - 5);
    trn_write_clock_wrote(wclock, w, sizeof(w));
}

static int setup_with(const char *hbm_mb) {
    snprintf(dir, sizeof(dir), "/tmp/core-copy-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char locks[96];
    snprintf(locks, sizeof(locks), "%s/locks", dir);
    setenv("NRTSIM_LOCK_DIR", locks, 1);
    setenv("NRTSIM_CORES", "2", 1);
    setenv("NRTSIM_CC_MS", "0", 1);
    char faults[96];
    snprintf(faults, sizeof(faults), "%s/faults", dir); /* none until a test writes it */
    setenv("NRTSIM_FAULTS", faults, 1);
    if (hbm_mb)
        setenv("NRTSIM_HBM_MB", hbm_mb, 1);
    else
        unsetenv("NRTSIM_HBM_MB");
    unsetenv("NEURON_RT_VISIBLE_CORES");
    char msg[256];
    if (trn_nc_runtime_start(&rt, NRTSIM_LIB, NULL, msg, sizeof(msg)) != 0) {
        fprintf(stderr, "runtime: %s\n", msg);
        return -1;
    }
    wclock = calloc(1, trn_write_clock_bytes());
    if (!wclock)
        return -1;
    rt.wclock = wclock;
    rt.core_copies = 1;
    write_w(0);
    return 0;
}

static int setup(void **state) {
    (void)state;
    return setup_with(NULL);
}

/* 1 MiB a core: a program of N x 1 x N holds a (16 KiB) and little else,
 * and the simulator charges its load as much again. */
static int setup_small(void **state) {
    (void)state;
    return setup_with("1");
}

static int teardown(void **state) {
    (void)state;
    trn_nc_runtime_stop(&rt);
    free(wclock);
    unsetenv("NRTSIM_HBM_MB");
    char cmd[96];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_programs_share_one_copy(void **state) {
    (void)state;
    trn_nc_loaded *h1 = NULL, *h2 = NULL;
    trn_nc_loaded *p1 = load(N, 8, N, 0, &h1), *p2 = load(N, 16, N, 0, &h2);
    assert_int_equal(bind_a(p1, w, sizeof(w)), sizeof(w));
    assert_int_equal(bind_a(p2, w, sizeof(w)), 0);
    assert_int_equal(copies_on(0), 1);
    assert_int_equal(rt.core_copy_list->binds, 2);
    assert_int_equal(bind_a(p2, w, sizeof(w)), 0); /* bound already: nothing changes */
    assert_int_equal(rt.core_copy_list->binds, 2);
    run_check(p1, N, 8, N, w, "first program");
    run_check(p2, N, 16, N, w, "second program");
    /* W written: the copy is written again in place, for both. */
    write_w(3);
    assert_int_equal(bind_a(p2, w, sizeof(w)), sizeof(w));
    assert_int_equal(copies_on(0), 1);
    run_check(p2, N, 16, N, w, "second program, W written");
    run_check(p1, N, 8, N, w, "first program, W written");
    trn_nc_unload(&rt, p1);
    assert_int_equal(rt.core_copy_list->binds, 1);
    trn_nc_unload(&rt, p2);
    assert_int_equal(rt.core_copy_list->binds, 0);
}

static void test_span_inside_a_copy_binds_a_slice(void **state) {
    (void)state;
    trn_nc_loaded *h1 = NULL, *h2 = NULL;
    trn_nc_loaded *whole = load(N, 4, N, 0, &h1), *half = load(N, 4, N / 2, 0, &h2);
    assert_int_equal(bind_a(whole, w, sizeof(w)), sizeof(w));
    /* Columns N/2..N-1 of W: A of N x N/2 with leading dimension N. */
    const float *right = w + N * (N / 2);
    assert_int_equal(bind_a(half, right, sizeof(w) / 2), 0);
    assert_int_equal(copies_on(0), 1);
    run_check(half, N, 4, N / 2, right, "right half of W");
    /* Only the right half written: the half is written again as a copy of
     * its own; the whole copy is stale and bound only by `whole`. */
    for (int i = N * (N / 2); i < N * N; i++)
        w[i] = -w[i];
    trn_write_clock_wrote(wclock, right, sizeof(w) / 2);
    assert_int_equal(bind_a(half, right, sizeof(w) / 2), sizeof(w) / 2);
    assert_int_equal(copies_on(0), 2);
    run_check(half, N, 4, N / 2, right, "right half of W, written");
    trn_nc_unload(&rt, whole);
    trn_nc_unload(&rt, half);
}

/* Programs that read all of W (4 columns of product) and its right half,
 * both bound: the half to a slice of W's copy. */
typedef struct halves {
    trn_nc_loaded *whole, *half;
    trn_nc_loaded *home[2]; /* the programs' owner pointers (trn_nc_load) */
    const float *right;
} halves;

static void bind_halves(halves *hv) {
    hv->whole = load(N, 4, N, 0, &hv->home[0]);
    hv->half = load(N, 4, N / 2, 0, &hv->home[1]);
    hv->right = w + N * (N / 2);
    assert_int_equal(bind_a(hv->whole, w, sizeof(w)), sizeof(w));
    assert_int_equal(bind_a(hv->half, hv->right, sizeof(w) / 2), 0);
}

static void test_copy_written_again_under_a_slice(void **state) {
    (void)state;
    halves hv;
    bind_halves(&hv);
    trn_nc_loaded *whole = hv.whole, *half = hv.half;
    const float *right = hv.right;
    /* Only the left half written: the whole copy is written again in
     * place for `whole`, under the slice `half` binds. */
    for (int i = 0; i < N * (N / 2); i++)
        w[i] = -w[i];
    trn_write_clock_wrote(wclock, w, sizeof(w) / 2);
    assert_int_equal(bind_a(whole, w, sizeof(w)), sizeof(w));
    assert_int_equal(copies_on(0), 1);
    assert_int_equal(rt.core_copy_list->binds, 2);
    run_check(whole, N, 4, N, w, "whole W, left half written");
    run_check(half, N, 4, N / 2, right, "right half, under the copy written again");
    trn_nc_unload(&rt, whole);
    trn_nc_unload(&rt, half);
}

/* Arms the simulator's fault file with line. */
static void arm(const char *line) {
    char path[96], tmp[100];
    snprintf(path, sizeof(path), "%s/faults", dir);
    snprintf(tmp, sizeof(tmp), "%s.new", path);
    FILE *f = fopen(tmp, "w");
    assert_non_null(f);
    fputs(line, f);
    fclose(f);
    assert_int_equal(rename(tmp, path), 0);
}

static void test_failed_write_leaves_nothing_held(void **state) {
    (void)state;
    halves hv;
    bind_halves(&hv);
    trn_nc_loaded *whole = hv.whole, *half = hv.half;
    const float *right = hv.right;
    whole->t[port(whole, "a")].held[0].valid = 1; /* as the runs set them */
    half->t[port(half, "a")].held[0].valid = 1;
    write_w(9);
    arm("write_fail core=0 count=1\n");
    uint64_t since;
    size_t moved = 99;
    assert_int_equal(
        trn_nc_copy_bind(&rt, whole, 0, port(whole, "a"), w, sizeof(w), &since, &moved), -1);
    assert_int_equal(moved, 0);
    /* Half written: no binder holds anything, and the copy is not current. */
    assert_int_equal(whole->t[port(whole, "a")].held[0].valid, 0);
    assert_int_equal(half->t[port(half, "a")].held[0].valid, 0);
    assert_int_equal(rt.core_copy_list->valid, 0);
    /* The next bind writes it whole again. */
    assert_int_equal(bind_a(half, right, sizeof(w) / 2), sizeof(w) / 2);
    assert_int_equal(bind_a(whole, w, sizeof(w)), sizeof(w));
    run_check(whole, N, 4, N, w, "whole W after a failed write");
    run_check(half, N, 4, N / 2, right, "right half after a failed write");
    trn_nc_unload(&rt, whole);
    trn_nc_unload(&rt, half);
}

static void test_unbound_gives_own_tensor_back(void **state) {
    (void)state;
    trn_nc_loaded *h = NULL;
    trn_nc_loaded *p = load(N, 8, N, 0, &h);
    assert_int_equal(bind_a(p, w, sizeof(w)), sizeof(w));
    p->t[port(p, "a")].held[0].valid = 1; /* as the run sets it */
    trn_nc_copy_unbind_set(&rt, p, 0);
    assert_int_equal(rt.core_copy_list->binds, 0);
    assert_int_equal(p->t[port(p, "a")].held[0].valid, 0);
    float *other = malloc(sizeof(w));
    assert_non_null(other);
    for (int i = 0; i < N * N; i++)
        other[i] = (float)(i % 5 - 2);
    put(p, "a", other, sizeof(w));
    run_check(p, N, 8, N, other, "own tensor after unbinding");
    free(other);
    trn_nc_unload(&rt, p);
}

static void test_each_core_has_its_own_copy(void **state) {
    (void)state;
    trn_nc_loaded *h0 = NULL, *h1 = NULL;
    trn_nc_loaded *p0 = load(N, 8, N, 0, &h0), *p1 = load(N, 8, N, 1, &h1);
    assert_int_equal(bind_a(p0, w, sizeof(w)), sizeof(w));
    assert_int_equal(bind_a(p1, w, sizeof(w)), sizeof(w));
    assert_int_equal(copies_on(0), 1);
    assert_int_equal(copies_on(1), 1);
    run_check(p0, N, 8, N, w, "core 0");
    run_check(p1, N, 8, N, w, "core 1");
    /* The simulator refuses a tensor of another core's memory. */
    const int a = port(p1, "a");
    assert_int_equal(rt.api.add_tensor_to_tensor_set(p1->in[0], "a", p0->t[a].slice[0]),
                     TRN_NRT_SUCCESS);
    assert_int_equal(rt.api.execute(p1->model, p1->in[0], p1->out[0]), TRN_NRT_INVALID);
    assert_int_equal(rt.api.add_tensor_to_tensor_set(p1->in[0], "a", p1->t[a].slice[0]),
                     TRN_NRT_SUCCESS);
    trn_nc_unload(&rt, p0);
    trn_nc_unload(&rt, p1);
}

static void test_full_core_frees_unbound_copies_only(void **state) {
    (void)state;
    enum { BIG = 256 }; /* a 256 x 256 matrix: 256 KiB */
    float *m1 = malloc(BIG * BIG * 4), *m2 = malloc(BIG * BIG * 4), *m3 = malloc(BIG * BIG * 4);
    assert_true(m1 && m2 && m3);
    for (int i = 0; i < BIG * BIG; i++)
        m1[i] = m2[i] = m3[i] = (float)(i % 3);
    trn_write_clock_wrote(wclock, m1, BIG * BIG * 4);
    trn_write_clock_wrote(wclock, m2, BIG * BIG * 4);
    trn_write_clock_wrote(wclock, m3, BIG * BIG * 4);
    /* The program: a 256 KiB, charged as much again at load. With one
     * copy it fills 768 KiB of the core's 1 MiB; a second copy does not
     * fit beside it. */
    trn_nc_loaded *h = NULL;
    trn_nc_loaded *p = load(BIG, 1, BIG, 0, &h);
    assert_int_equal(bind_a(p, m1, BIG * BIG * 4), BIG * BIG * 4);
    trn_nc_copy_unbind_set(&rt, p, 0);
    /* m1's copy is bound by nothing: it makes room for m2's. */
    assert_int_equal(bind_a(p, m2, BIG * BIG * 4), BIG * BIG * 4);
    assert_int_equal(copies_on(0), 1);
    assert_true(rt.core_copy_list->lo == (uintptr_t)m2);
    run_check(p, BIG, 1, BIG, m2, "m2 bound");
    /* m2's copy is bound: m3 gets none, and m2 stays bound; nor is an
     * idle program unloaded for it. */
    trn_nc_loaded *hq = NULL;
    trn_nc_loaded *q = load(N, 1, N, 0, &hq);
    trn_nc_use(&rt, q, 0);
    uint64_t since;
    size_t moved;
    assert_int_equal(trn_nc_copy_bind(&rt, p, 0, port(p, "a"), m3, BIG * BIG * 4, &since, &moved),
                     -1);
    assert_int_equal(copies_on(0), 1);
    assert_true(p->t[port(p, "a")].bound[0] == rt.core_copy_list);
    run_check(p, BIG, 1, BIG, m2, "m2 still bound");
    assert_true(hq == q);
    assert_int_equal(rt.evictions, 0);
    trn_nc_unload(&rt, q);
    trn_nc_unload(&rt, p);
    free(m1);
    free(m2);
    free(m3);
}

/* One core's worker for test_two_cores_bind_at_once: its own program and
 * matrix, written and bound again and again, each product checked. */
typedef struct worker {
    trn_nc_loaded *ld;
    float *x; /* N x N */
    int failures;
} worker;

static void *bind_loop(void *arg) {
    worker *wk = arg;
    const int ti = trn_nc_port_index(wk->ld, "a", 0, 0);
    float b[N], d[N];
    for (int l = 0; l < N; l++)
        b[l] = 1; /* D = row sums of X */
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < N * N; i++)
            wk->x[i] = (float)((i + round) % 7 - 3);
        trn_write_clock_wrote(wclock, wk->x, N * N * sizeof(float));
        uint64_t since;
        size_t moved;
        if (trn_nc_copy_bind(&rt, wk->ld, 0, ti, wk->x, N * N * sizeof(float), &since, &moved) !=
                0 ||
            moved != N * N * sizeof(float)) {
            wk->failures++;
            continue;
        }
        if (product(wk->ld, N, 1, N, b, d) != 0) {
            wk->failures++;
            continue;
        }
        for (int i = 0; i < N; i++) {
            float want = 0;
            for (int l = 0; l < N; l++)
                want += wk->x[i + l * N];
            wk->failures += d[i] != want;
        }
    }
    return NULL;
}

/* Two cores' workers of one runtime (--executors off) binding copies at
 * once: each copy's write runs without the runtime's lock, and neither
 * disturbs the other (ThreadSanitizer runs this test too). */
static void test_two_cores_bind_at_once(void **state) {
    (void)state;
    trn_nc_loaded *h0 = NULL, *h1 = NULL;
    worker wk[2] = {{.ld = load(N, 1, N, 0, &h0), .x = malloc(sizeof(w))},
                    {.ld = load(N, 1, N, 1, &h1), .x = malloc(sizeof(w))}};
    assert_true(wk[0].x && wk[1].x);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, bind_loop, &wk[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(wk[0].failures, 0);
    assert_int_equal(wk[1].failures, 0);
    assert_int_equal(copies_on(0), 1);
    assert_int_equal(copies_on(1), 1);
    for (int i = 0; i < 2; i++) {
        trn_nc_unload(&rt, wk[i].ld);
        free(wk[i].x);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_programs_share_one_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_span_inside_a_copy_binds_a_slice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_written_again_under_a_slice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_write_leaves_nothing_held, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unbound_gives_own_tensor_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_each_core_has_its_own_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_cores_bind_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_core_frees_unbound_copies_only, setup_small,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
