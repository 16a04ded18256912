/*
 * tensor.c — trntensor contractions through trnscid versus numpy.einsum
 * (optimize=True) in the same run, and a GEMM-shaped contraction versus
 * trnblasSgemm on the same daemon.
 *
 * For each case (FP32, operands packed, first mode fastest): the operands
 * live in the daemon (uploaded once); the plan is made once; each timed
 * repetition is trntensorContract + trnsciStreamSynchronize(NULL), the whole
 * time a client observes. numpy's figure comes from bench/tensor_numpy.py
 * (Debian's python3, OPENBLAS_NUM_THREADS=1, pinned to --numpy-cpu: the
 * daemon worker's CPU), run after the trnsci repetitions on the same
 * operands; its result is compared with trnsci's (largest relative
 * difference, reported). The GEMM-shaped case also times trnblasSgemm on the
 * same matrices, alternating with the contraction.
 *
 * Reports per case median/min/max ms, GFLOP/s, ratio_numpy = numpy median /
 * trnsci median (> 1: trnsci faster) and, for the GEMM case, ratio_sgemm =
 * Sgemm median / contraction median (1.0: no overhead over the GEMM).
 *
 * usage: bench_tensor ADDRESS --helper tensor_numpy.py [--python P]
 *                     [--tmp DIR] [--numpy-cpu CPU] [--reps N]
 * bench/run_tensor.sh sets this up (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnblas.h>
#include <trnsci/trnsci.h>
#include <trnsci/trntensor.h>

#include "bench_util.h"

#define MAX_REPS 200

typedef struct bcase {
    const char *name, *subs;
    int na, nb, nd;
    int64_t ea[6], eb[6], ed[6];
    int32_t ma[6], mb[6], md[6];
    double flops;
} bcase;

/* Sizes where numpy.einsum(optimize=True) calls BLAS (tensordot). */
static bcase cases[] = {
    {"gemm_1024",
     "ik,kj->ij",
     2,
     2,
     2,
     {1024, 1024},
     {1024, 1024},
     {1024, 1024},
     {'i', 'k'},
     {'k', 'j'},
     {'i', 'j'},
     0},
    {"4mode_32",
     "abcd,cdef->abef",
     4,
     4,
     4,
     {32, 32, 32, 32},
     {32, 32, 32, 32},
     {32, 32, 32, 32},
     {'a', 'b', 'c', 'd'},
     {'c', 'd', 'e', 'f'},
     {'a', 'b', 'e', 'f'},
     0},
    {"transposed_out",
     "abc,bcd->da",
     3,
     3,
     2,
     {256, 32, 32},
     {32, 32, 1024},
     {1024, 256},
     {'a', 'b', 'c'},
     {'b', 'c', 'd'},
     {'d', 'a'},
     0},
    {"df_half_transform",
     "Pmn,mi->Pin",
     3,
     2,
     3,
     {512, 128, 128},
     {128, 32},
     {512, 32, 128},
     {'P', 'm', 'n'},
     {'m', 'i'},
     {'P', 'i', 'n'},
     0},
    {"batched_16x256",
     "bik,bkj->bij",
     3,
     3,
     3,
     {16, 256, 256},
     {16, 256, 256},
     {16, 256, 256},
     {'b', 'i', 'k'},
     {'b', 'k', 'j'},
     {'b', 'i', 'j'},
     0},
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

static void die(const char *what) {
    fprintf(stderr, "bench_tensor: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static size_t count(const int64_t *e, int n) {
    size_t c = 1;
    for (int i = 0; i < n; i++)
        c *= (size_t)e[i];
    return c;
}

/* 2 x the product of every distinct mode's extent. */
static double flops_of(const bcase *c) {
    double f = 2.0;
    for (int i = 0; i < c->na; i++)
        f *= (double)c->ea[i];
    for (int i = 0; i < c->nb; i++) {
        int seen = 0;
        for (int j = 0; j < c->na; j++)
            seen |= c->ma[j] == c->mb[i];
        if (!seen)
            f *= (double)c->eb[i];
    }
    return f;
}

static void write_file(const char *dir, const char *name, const void *p, size_t bytes) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

static float *read_file(const char *dir, const char *name, size_t n) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    float *p = malloc(n * sizeof(float));
    if (!f || !p || fread(p, sizeof(float), n, f) != n) {
        perror(path);
        exit(1);
    }
    fclose(f);
    return p;
}

static void ext_text(const int64_t *e, int n, char *buf, size_t len) {
    size_t w = 0;
    for (int i = 0; i < n; i++)
        w += (size_t)snprintf(buf + w, len - w, i ? ",%lld" : "%lld", (long long)e[i]);
}

int main(int argc, char **argv) {
    const char *addr = NULL, *helper = NULL, *python = "/usr/bin/python3", *tmp = "/tmp";
    int numpy_cpu = -1, reps = 7;
    const bench_opt opts[] = {
        {"--helper", BENCH_OPT_STR, &helper}, {"--python", BENCH_OPT_STR, &python},
        {"--tmp", BENCH_OPT_STR, &tmp},       {"--numpy-cpu", BENCH_OPT_INT, &numpy_cpu},
        {"--reps", BENCH_OPT_INT, &reps},     {NULL, 0, NULL},
    };
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || !helper || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench_tensor ADDRESS --helper tensor_numpy.py [--python P] "
                        "[--tmp DIR] [--numpy-cpu CPU] [--reps N]\n");
        return 2;
    }
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trntensorHandle_t th;
    trnblasHandle_t bh;
    if (trntensorCreate(&th) != TRNTENSOR_STATUS_SUCCESS)
        die("trntensorCreate");
    if (trnblasCreate(&bh) != TRNBLAS_STATUS_SUCCESS)
        die("trnblasCreate");

    char path[512];
    snprintf(path, sizeof(path), "%s/cases.txt", tmp);
    FILE *cf = fopen(path, "w");
    if (!cf)
        die("writing cases.txt");
    double t_trn[NCASES][MAX_REPS], t_blas[MAX_REPS];
    float *results[NCASES];
    const float one = 1.0f, zero = 0.0f;
    for (int c = 0; c < NCASES; c++) {
        bcase *k = &cases[c];
        k->flops = flops_of(k);
        const size_t na = count(k->ea, k->na), nb = count(k->eb, k->nb), nd = count(k->ed, k->nd);
        float *a = malloc(na * 4), *b = malloc(nb * 4);
        bench_fill(a, na, 1 + (uint64_t)c);
        bench_fill(b, nb, 100 + (uint64_t)c);
        char name[96], ea[64], eb[64];
        snprintf(name, sizeof(name), "%s.a", k->name);
        write_file(tmp, name, a, na * 4);
        snprintf(name, sizeof(name), "%s.b", k->name);
        write_file(tmp, name, b, nb * 4);
        ext_text(k->ea, k->na, ea, sizeof(ea));
        ext_text(k->eb, k->nb, eb, sizeof(eb));
        fprintf(cf, "%s %s %s %s\n", k->name, k->subs, ea, eb);

        void *dA, *dB, *dD;
        if (trnsciMalloc(&dA, na * 4) || trnsciMalloc(&dB, nb * 4) || trnsciMalloc(&dD, nd * 4))
            die("trnsciMalloc");
        trnsciMemcpy(dA, a, na * 4, trnsciMemcpyHostToDevice);
        trnsciMemcpy(dB, b, nb * 4, trnsciMemcpyHostToDevice);
        trntensorTensorDescriptor_t da, db, dd;
        trntensorCreateTensorDescriptor(th, &da, (uint32_t)k->na, k->ea, NULL, TRNSCI_R_32F, 0);
        trntensorCreateTensorDescriptor(th, &db, (uint32_t)k->nb, k->eb, NULL, TRNSCI_R_32F, 0);
        trntensorCreateTensorDescriptor(th, &dd, (uint32_t)k->nd, k->ed, NULL, TRNSCI_R_32F, 0);
        trntensorOperationDescriptor_t op;
        trntensorPlan_t plan;
        if (trntensorCreateContraction(th, &op, da, k->ma, TRNTENSOR_OP_IDENTITY, db, k->mb,
                                       TRNTENSOR_OP_IDENTITY, dd, k->md, TRNTENSOR_OP_IDENTITY, dd,
                                       k->md, TRNTENSOR_COMPUTE_DESC_32F) ||
            trntensorCreatePlan(th, &plan, op, NULL, 0))
            die("making the contraction plan");
        const int gemm = c == 0;
        for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
            double t0 = bench_now_ms();
            if (trntensorContract(th, plan, &one, dA, dB, &zero, NULL, dD, NULL, 0, NULL) ||
                trnsciStreamSynchronize(NULL))
                die("trntensorContract");
            if (r >= 0)
                t_trn[c][r] = bench_now_ms() - t0;
            if (gemm) {
                const int n = (int)k->ea[0];
                t0 = bench_now_ms();
                if (trnblasSgemm(bh, TRNBLAS_OP_N, TRNBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero,
                                 dD, n) ||
                    trnsciStreamSynchronize(NULL))
                    die("trnblasSgemm");
                if (r >= 0)
                    t_blas[r] = bench_now_ms() - t0;
            }
        }
        /* The contraction's result (the last op on dD for every case but
         * the GEMM one, whose Sgemm wrote the same product). */
        results[c] = malloc(nd * 4);
        trnsciMemcpy(results[c], dD, nd * 4, trnsciMemcpyDeviceToHost);
        trntensorDestroyPlan(plan);
        trntensorDestroyOperationDescriptor(op);
        trntensorDestroyTensorDescriptor(da);
        trntensorDestroyTensorDescriptor(db);
        trntensorDestroyTensorDescriptor(dd);
        trnsciFree(dA);
        trnsciFree(dB);
        trnsciFree(dD);
        free(a);
        free(b);
    }
    fclose(cf);

    /* numpy, after the daemon is idle, on the daemon worker's CPU. */
    char cmd[1024];
    snprintf(cmd, sizeof(cmd), "%s %s %s %d %d", python, helper, tmp, numpy_cpu, reps);
    FILE *p = popen(cmd, "r");
    static char json[1 << 16];
    const size_t got = p ? fread(json, 1, sizeof(json) - 1, p) : 0;
    json[got] = '\0';
    if (!p || pclose(p) != 0 || got == 0) {
        fprintf(stderr, "bench_tensor: %s failed\n", cmd);
        return 1;
    }

    printf("{\n  \"bench\": \"tensor\",\n");
    bench_json_host(",\n");
    printf("  \"reps\": %d,\n  \"numpy_cpu\": %d,\n  \"cases\": [\n", reps, numpy_cpu);
    for (int c = 0; c < NCASES; c++) {
        const bcase *k = &cases[c];
        /* numpy's times for this case: the list after "NAME": */
        char key[96];
        snprintf(key, sizeof(key), "\"%s\": [", k->name);
        const char *s = strstr(json, key);
        double tn[MAX_REPS];
        int nn = 0;
        if (s) {
            s += strlen(key);
            while (nn < MAX_REPS && *s && *s != ']') {
                char *e;
                tn[nn++] = strtod(s, &e);
                s = *e == ',' ? e + 1 : e;
            }
        }
        const size_t nd = count(k->ed, k->nd);
        char name[96];
        snprintf(name, sizeof(name), "%s.numpy", k->name);
        float *ref = read_file(tmp, name, nd);
        const double diff = bench_max_rel_diff(results[c], ref, nd);
        const bench_stats st = bench_stats_of(t_trn[c], reps);
        const bench_stats sn = nn ? bench_stats_of(tn, nn) : (bench_stats){NAN, NAN, NAN};
        printf("    {\"name\": \"%s\", \"subscripts\": \"%s\", \"gflop\": %.3f,\n", k->name,
               k->subs, k->flops * 1e-9);
        printf("     \"trnsci_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, "
               "\"trnsci_gflops\": %.1f,\n",
               st.median, st.min, st.max, k->flops * 1e-6 / st.median);
        printf("     \"numpy_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, "
               "\"numpy_gflops\": %.1f,\n",
               sn.median, sn.min, sn.max, k->flops * 1e-6 / sn.median);
        printf("     \"ratio_numpy\": %.3f, \"max_rel_diff\": %.3g", sn.median / st.median, diff);
        if (c == 0) {
            const bench_stats sb = bench_stats_of(t_blas, reps);
            printf(",\n     \"sgemm_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, "
                   "\"ratio_sgemm\": %.3f",
                   sb.median, sb.min, sb.max, sb.median / st.median);
        }
        printf("}%s\n", c + 1 < NCASES ? "," : "");
        free(ref);
        free(results[c]);
    }
    printf("  ]\n}\n");
    trnblasDestroy(bh);
    trntensorDestroy(th);
    return 0;
}
