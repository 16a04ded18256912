/*
 * sparse.c — trnsparse SpMV/SpMM through trnscid versus scipy.sparse in the
 * same run, and BSR SpMM at block 128 versus the dense GEMM rate.
 *
 * CSR cases (--configs n:density:N,...): an n x n CSR matrix (double values,
 * int32 indices) with exactly round(n * density) entries per row, one in
 * each of that many equal column strata (uniform within its stratum: the
 * columns of a row are spread over the whole row, sorted, distinct), and a
 * row-major B of N columns (N = 1: SpMV with vectors), built here with a
 * fixed seed. The arrays go to the daemon once (data resident) and to files
 * that bench/sparse_scipy.py (a child process under Debian's python3,
 * pinned to --scipy-cpu) loads into a scipy.sparse.csr_matrix.
 *   trnsci: each timed repetition is trnsparseSpMV/SpMM +
 *           trnsciStreamSynchronize(NULL): the whole time a client observes.
 *   scipy:  A @ B (the public product) and scipy's CSR kernel into a
 *           preallocated output, timed by the helper; the ratio is taken
 *           against the faster of the two medians.
 * The repetitions are interleaved so that slow periods of a shared machine
 * hit all sides alike: each round runs one untimed and one timed trnsci
 * product, then (in the helper) one untimed A @ B, one timed A @ B and one
 * timed kernel call. Both sides use the same core and the caches it shares,
 * and the untimed product brings each side's operands back into them, so
 * every timed product starts warm, as in a loop over one matrix. Medians of
 * --reps rounds; ratio = scipy_median / trnsci_median (> 1: trnsci is
 * faster); per_core = ratio / the daemon's cores. The results are compared
 * (max relative difference against scipy's).
 *
 * BSR cases (--bsr n:block_density:N,...): an n x n BSR matrix of 128 x 128
 * column-major blocks, each block row holding round(n/128 * block_density)
 * blocks, times a row-major B with N columns, through the daemon; against
 * in-process OpenBLAS dgemm (one thread, pinned to --scipy-cpu) of the dense
 * product with the same flops: (n x K) (K x N), K = 128 * blocks per block
 * row. rate_ratio = BSR GFLOP/s / GEMM GFLOP/s.
 *
 * usage: bench_sparse [ADDRESS] [--configs LIST] [--bsr LIST] [--reps N]
 *                     [--python PATH] [--helper PATH] [--scipy-cpu CPU]
 *                     [--cores N] [--tmp DIR] [--float]
 * bench/run_sparse.sh sets all of this up (see docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <trnsci/trnsparse.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_REPS 200

static void die(const char *what) {
    fprintf(stderr, "bench_sparse: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bench_sparse: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_u64(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}
static double uniform(void) { /* [-1, 1) */
    return (double)(next_u64() >> 11) * 0x1p-52 - 1.0;
}

/* ---- the scipy helper ----------------------------------------------------------- */

typedef struct helper {
    pid_t pid;
    FILE *to, *from;
} helper;

/* Starts the helper before libtrnsci exists (fork-safety). */
static void helper_start(helper *h, const char *python, const char *script, int cpu) {
    int in[2], out[2];
    if (pipe(in) || pipe(out)) {
        perror("pipe");
        exit(1);
    }
    h->pid = fork();
    if (h->pid < 0) {
        perror("fork");
        exit(1);
    }
    if (h->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        char cpus[16];
        snprintf(cpus, sizeof(cpus), "%d", cpu);
        if (cpu >= 0)
            execl(python, python, script, "--cpu", cpus, (char *)NULL);
        else
            execl(python, python, script, (char *)NULL);
        perror("exec python");
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    h->to = fdopen(in[1], "w");
    h->from = fdopen(out[0], "r");
}

/* Sends one command and returns its JSON answer line (static buffer). */
static const char *helper_ask(helper *h, const char *cmd) {
    static char line[4096];
    fprintf(h->to, "%s\n", cmd);
    fflush(h->to);
    if (!fgets(line, sizeof(line), h->from)) {
        fprintf(stderr, "bench_sparse: the scipy helper did not answer \"%s\"\n", cmd);
        exit(1);
    }
    line[strcspn(line, "\n")] = '\0';
    return line;
}

/* The first number of the list `"key": [x, ...]` in a helper answer. */
static double json_first(const char *s, const char *key) {
    const char *k = strstr(s, key);
    const char *b = k ? strchr(k, '[') : NULL;
    if (!b) {
        fprintf(stderr, "bench_sparse: no %s in %s\n", key, s);
        exit(1);
    }
    return strtod(b + 1, NULL);
}

static void write_file(const char *dir, const char *name, const void *p, size_t bytes) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes || fclose(f) != 0) {
        fprintf(stderr, "bench_sparse: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void *read_file(const char *dir, const char *name, size_t bytes) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    void *p = xmalloc(bytes);
    FILE *f = fopen(path, "rb");
    if (!f || fread(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "bench_sparse: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    return p;
}

/* ---- timing helpers ---------------------------------------------------------------- */

typedef struct run_args {
    trnsparseHandle_t h;
    trnsparseSpMatDescr_t a;
    trnsparseDnMatDescr_t b, c;
    trnsparseDnVecDescr_t x, y;
    int dbl;
} run_args;

static void trn_once(const run_args *r) {
    const double one = 1.0, zero = 0.0;
    const float onef = 1.0f, zerof = 0.0f;
    const void *al = r->dbl ? (const void *)&one : (const void *)&onef;
    const void *be = r->dbl ? (const void *)&zero : (const void *)&zerof;
    const trnsciDataType t = r->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    trnsparseStatus_t st;
    if (r->x)
        st = trnsparseSpMV(r->h, TRNSPARSE_OPERATION_NON_TRANSPOSE, al, r->a, r->x, be, r->y, t,
                           TRNSPARSE_SPMV_ALG_DEFAULT, NULL);
    else
        st = trnsparseSpMM(r->h, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                           TRNSPARSE_OPERATION_NON_TRANSPOSE, al, r->a, r->b, be, r->c, t,
                           TRNSPARSE_SPMM_ALG_DEFAULT, NULL);
    if (st != TRNSPARSE_STATUS_SUCCESS)
        die("trnsparseSpMV/SpMM");
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

static void print_stats(const char *key, bench_stats s, const char *end) {
    printf("\"%s\": {\"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f}%s", key, s.median,
           s.min, s.max, end);
}

/* ---- CSR versus scipy ------------------------------------------------------------- */

static void csr_case(trnsparseHandle_t h, helper *hp, const char *tmp, int64_t n, double density,
                     int64_t nvec, int reps, int dbl, int cores, int first) {
    const int64_t k = llround((double)n * density) > 0 ? llround((double)n * density) : 1;
    const int64_t nnz = n * k;
    const size_t es = dbl ? 8 : 4;
    int32_t *off = xmalloc((size_t)(n + 1) * 4), *col = xmalloc((size_t)nnz * 4);
    void *val = xmalloc((size_t)nnz * es);
    const int64_t nb = nvec > 1 ? nvec : 1;
    void *bh = xmalloc((size_t)(n * nb) * es);
    for (int64_t i = 0; i <= n; i++)
        off[i] = (int32_t)(i * k);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++) {
            const int64_t lo = j * n / k, hi = (j + 1) * n / k;
            col[i * k + j] = (int32_t)(lo + (int64_t)(next_u64() % (uint64_t)(hi - lo)));
            if (dbl)
                ((double *)val)[i * k + j] = uniform();
            else
                ((float *)val)[i * k + j] = (float)uniform();
        }
    for (int64_t i = 0; i < n * nb; i++) {
        if (dbl)
            ((double *)bh)[i] = uniform();
        else
            ((float *)bh)[i] = (float)uniform();
    }
    /* Files for scipy. */
    char meta[128];
    snprintf(meta, sizeof(meta), "%lld %lld %lld %s", (long long)n, (long long)n, (long long)nnz,
             dbl ? "f64" : "f32");
    write_file(tmp, "meta.txt", meta, strlen(meta));
    write_file(tmp, "indptr.i32", off, (size_t)(n + 1) * 4);
    write_file(tmp, "indices.i32", col, (size_t)nnz * 4);
    write_file(tmp, dbl ? "data.f64" : "data.f32", val, (size_t)nnz * es);
    write_file(tmp, dbl ? "B.f64" : "B.f32", bh, (size_t)(n * nb) * es);

    /* The daemon's copies. */
    void *d_off, *d_col, *d_val, *d_b, *d_c;
    if (trnsciMalloc(&d_off, (size_t)(n + 1) * 4) || trnsciMalloc(&d_col, (size_t)nnz * 4) ||
        trnsciMalloc(&d_val, (size_t)nnz * es) || trnsciMalloc(&d_b, (size_t)(n * nb) * es) ||
        trnsciMalloc(&d_c, (size_t)(n * nb) * es))
        die("trnsciMalloc");
    if (trnsciMemcpy(d_off, off, (size_t)(n + 1) * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_col, col, (size_t)nnz * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_val, val, (size_t)nnz * es, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_b, bh, (size_t)(n * nb) * es, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy");
    free(off);
    free(col);
    free(val);
    const trnsciDataType t = dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    run_args r = {.h = h, .dbl = dbl};
    if (trnsparseCreateCsr(&r.a, n, n, nnz, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, t))
        die("trnsparseCreateCsr");
    if (nvec == 1) {
        if (trnsparseCreateDnVec(&r.x, n, d_b, t) || trnsparseCreateDnVec(&r.y, n, d_c, t))
            die("trnsparseCreateDnVec");
    } else if (trnsparseCreateDnMat(&r.b, n, nvec, nvec, d_b, t, TRNSPARSE_ORDER_ROW) ||
               trnsparseCreateDnMat(&r.c, n, nvec, nvec, d_c, t, TRNSPARSE_ORDER_ROW)) {
        die("trnsparseCreateDnMat");
    }
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "load %s %lld", tmp, (long long)(nvec == 1 ? 0 : nvec));
    if (strstr(helper_ask(hp, cmd), "error")) {
        fprintf(stderr, "bench_sparse: the scipy helper could not load %s\n", tmp);
        exit(1);
    }
    double tt[MAX_REPS], ts[MAX_REPS], tk[MAX_REPS];
    trn_once(&r); /* warm-up (the helper's was its load) */
    for (int i = 0; i < reps; i++) {
        trn_once(&r); /* warms the caches after the helper's turn */
        const double t0 = bench_now_ms();
        trn_once(&r);
        tt[i] = bench_now_ms() - t0;
        const char *ans = helper_ask(hp, "time 1");
        ts[i] = json_first(ans, "\"scipy\"");
        tk[i] = json_first(ans, "\"kernel\"");
    }
    const bench_stats trn = bench_stats_of(tt, reps), sp = bench_stats_of(ts, reps),
                      kr = bench_stats_of(tk, reps);
    helper_ask(hp, "result");

    /* Same answer? */
    void *ours = xmalloc((size_t)(n * nb) * es);
    if (trnsciMemcpy(ours, d_c, (size_t)(n * nb) * es, trnsciMemcpyDeviceToHost))
        die("trnsciMemcpy");
    void *theirs = read_file(tmp, "scipy_out", (size_t)(n * nb) * es);
    double maxdiff = 0, maxref = 0;
    for (int64_t i = 0; i < n * nb; i++) {
        const double a = dbl ? ((double *)ours)[i] : ((float *)ours)[i];
        const double b = dbl ? ((double *)theirs)[i] : ((float *)theirs)[i];
        maxdiff = bench_worse(maxdiff, fabs(a - b));
        maxref = fabs(b) > maxref ? fabs(b) : maxref;
    }
    free(ours);
    free(theirs);

    const double best = sp.median < kr.median ? sp.median : kr.median;
    const double flops = 2.0 * (double)nnz * (double)nb;
    printf("%s    {\"format\": \"csr\", \"n\": %lld, \"density\": %g, \"nnz\": %lld, \"N\": %lld, "
           "\"type\": \"%s\", \"reps\": %d,\n      ",
           first ? "" : ",\n", (long long)n, density, (long long)nnz, (long long)nvec,
           dbl ? "f64" : "f32", reps);
    print_stats("trnsci", trn, ", ");
    print_stats("scipy", sp, ",\n      ");
    print_stats("scipy_kernel", kr, ", ");
    printf("\"trnsci_gflops\": %.3f, \"scipy_gflops\": %.3f, \"ratio\": %.3f, \"per_core\": %.3f, "
           "\"max_rel_diff\": %.3g}",
           flops / trn.median * 1e-6, flops / best * 1e-6, best / trn.median,
           best / trn.median / cores, maxref > 0 ? maxdiff / maxref : maxdiff);
    fflush(stdout);

    trnsparseDestroySpMat(r.a);
    trnsparseDestroyDnMat(r.b);
    trnsparseDestroyDnMat(r.c);
    trnsparseDestroyDnVec(r.x);
    trnsparseDestroyDnVec(r.y);
    free(bh);
    if (trnsciFree(d_off) || trnsciFree(d_col) || trnsciFree(d_val) || trnsciFree(d_b) ||
        trnsciFree(d_c))
        die("trnsciFree");
}

/* ---- BSR 128 versus dense GEMM ----------------------------------------------------- */

static void bsr_case(trnsparseHandle_t h, int64_t n, double bdens, int64_t nvec, int reps, int cpu,
                     int first) {
    const int64_t bs = 128, mb = n / bs;
    int64_t kb = llround((double)mb * bdens);
    if (kb < 1)
        kb = 1;
    const int64_t bnnz = mb * kb;
    int32_t *off = xmalloc((size_t)(mb + 1) * 4), *col = xmalloc((size_t)bnnz * 4);
    double *val = xmalloc((size_t)(bnnz * bs * bs) * 8);
    double *bh = xmalloc((size_t)(n * nvec) * 8);
    for (int64_t i = 0; i <= mb; i++)
        off[i] = (int32_t)(i * kb);
    for (int64_t i = 0; i < mb; i++)
        for (int64_t j = 0; j < kb; j++) {
            const int64_t lo = j * mb / kb, hi = (j + 1) * mb / kb;
            col[i * kb + j] = (int32_t)(lo + (int64_t)(next_u64() % (uint64_t)(hi - lo)));
        }
    for (int64_t i = 0; i < bnnz * bs * bs; i++)
        val[i] = uniform();
    for (int64_t i = 0; i < n * nvec; i++)
        bh[i] = uniform();
    void *d_off, *d_col, *d_val, *d_b, *d_c;
    if (trnsciMalloc(&d_off, (size_t)(mb + 1) * 4) || trnsciMalloc(&d_col, (size_t)bnnz * 4) ||
        trnsciMalloc(&d_val, (size_t)(bnnz * bs * bs) * 8) ||
        trnsciMalloc(&d_b, (size_t)(n * nvec) * 8) || trnsciMalloc(&d_c, (size_t)(n * nvec) * 8))
        die("trnsciMalloc");
    if (trnsciMemcpy(d_off, off, (size_t)(mb + 1) * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_col, col, (size_t)bnnz * 4, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_val, val, (size_t)(bnnz * bs * bs) * 8, trnsciMemcpyHostToDevice) ||
        trnsciMemcpy(d_b, bh, (size_t)(n * nvec) * 8, trnsciMemcpyHostToDevice))
        die("trnsciMemcpy");
    run_args r = {.h = h, .dbl = 1};
    if (trnsparseCreateBsr(&r.a, mb, mb, bnnz, bs, bs, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                           TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_R_64F,
                           TRNSPARSE_ORDER_COL) ||
        trnsparseCreateDnMat(&r.b, n, nvec, nvec, d_b, TRNSCI_R_64F, TRNSPARSE_ORDER_ROW) ||
        trnsparseCreateDnMat(&r.c, n, nvec, nvec, d_c, TRNSCI_R_64F, TRNSPARSE_ORDER_ROW))
        die("descriptors");

    /* The dense product with the same flops, in this process on the daemon's
     * CPU: (n x K) (K x N), K = kb * 128, row-major like B and C. Rounds
     * alternate one BSR product through the daemon (this thread on its own
     * CPU) and one GEMM (this thread pinned to the daemon's CPU). */
    const int64_t K = kb * bs;
    double *A = xmalloc((size_t)(n * K) * 8), *B = xmalloc((size_t)(K * nvec) * 8);
    double *C = xmalloc((size_t)(n * nvec) * 8);
    for (int64_t i = 0; i < n * K; i++)
        A[i] = uniform();
    for (int64_t i = 0; i < K * nvec; i++)
        B[i] = uniform();
    cpu_set_t home;
    sched_getaffinity(0, sizeof(home), &home);
    openblas_set_num_threads(1);
    double tt[MAX_REPS], t[MAX_REPS];
    for (int i = -1; i < reps; i++) { /* round -1: warm-up */
        const double t0 = bench_now_ms();
        trn_once(&r);
        const double t1 = bench_now_ms();
        if (cpu >= 0)
            bench_pin_self(cpu);
        const double t2 = bench_now_ms();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)nvec, (int)K, 1.0, A,
                    (int)K, B, (int)nvec, 0.0, C, (int)nvec);
        const double t3 = bench_now_ms();
        sched_setaffinity(0, sizeof(home), &home);
        if (i >= 0) {
            tt[i] = t1 - t0;
            t[i] = t3 - t2;
        }
    }
    const bench_stats trn = bench_stats_of(tt, reps);
    const bench_stats g = bench_stats_of(t, reps);
    const double flops = 2.0 * (double)n * (double)K * (double)nvec;
    printf("%s    {\"format\": \"bsr\", \"block\": 128, \"n\": %lld, \"block_density\": %g, "
           "\"blocks\": %lld, \"N\": %lld, \"type\": \"f64\", \"reps\": %d,\n      ",
           first ? "" : ",\n", (long long)n, bdens, (long long)bnnz, (long long)nvec, reps);
    print_stats("trnsci", trn, ", ");
    print_stats("dense_gemm", g, ",\n      ");
    printf("\"dense_shape\": [%lld, %lld, %lld], \"trnsci_gflops\": %.2f, \"gemm_gflops\": %.2f, "
           "\"rate_ratio\": %.3f}",
           (long long)n, (long long)K, (long long)nvec, flops / trn.median * 1e-6,
           flops / g.median * 1e-6, g.median / trn.median);
    fflush(stdout);
    free(A);
    free(B);
    free(C);
    free(off);
    free(col);
    free(val);
    free(bh);
    trnsparseDestroySpMat(r.a);
    trnsparseDestroyDnMat(r.b);
    trnsparseDestroyDnMat(r.c);
    if (trnsciFree(d_off) || trnsciFree(d_col) || trnsciFree(d_val) || trnsciFree(d_b) ||
        trnsciFree(d_c))
        die("trnsciFree");
}

/* "n:density:N,..." */
static int parse_list(const char *s, int64_t (*n)[3], double *d, int max) {
    int k = 0;
    while (s && *s && k < max) {
        char *end;
        n[k][0] = strtoll(s, &end, 10);
        if (*end != ':')
            return -1;
        d[k] = strtod(end + 1, &end);
        if (*end != ':')
            return -1;
        n[k][1] = strtoll(end + 1, &end, 10);
        k++;
        s = *end == ',' ? end + 1 : NULL;
    }
    return k;
}

int main(int argc, char **argv) {
    const char *addr = NULL, *configs = "10000:0.001:1", *bsr = NULL;
    const char *python = "/usr/bin/python3", *script = NULL, *tmp = NULL;
    int reps = 9, scipy_cpu = -1, cores = 1, use_float = 0;
    const bench_opt opts[] = {
        {"--configs", BENCH_OPT_STR, &configs},  {"--bsr", BENCH_OPT_STR, &bsr},
        {"--reps", BENCH_OPT_INT, &reps},        {"--python", BENCH_OPT_STR, &python},
        {"--helper", BENCH_OPT_STR, &script},    {"--scipy-cpu", BENCH_OPT_INT, &scipy_cpu},
        {"--cores", BENCH_OPT_INT, &cores},      {"--tmp", BENCH_OPT_STR, &tmp},
        {"--float", BENCH_OPT_FLAG, &use_float}, {NULL, 0, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || reps < 1 || reps > MAX_REPS || !script ||
        !tmp) {
        fputs("usage: bench_sparse [ADDRESS] --helper sparse_scipy.py --tmp DIR [--configs "
              "n:density:N,...] [--bsr n:block_density:N,...] [--reps N] [--python PATH] "
              "[--scipy-cpu CPU] [--cores N] [--float]\n",
              stderr);
        return 2;
    }
    int64_t cfg[64][3], bcfg[16][3];
    double dens[64], bdens[16];
    const int ncfg = parse_list(configs, cfg, dens, 64);
    const int nbsr = bsr ? parse_list(bsr, bcfg, bdens, 16) : 0;
    if (ncfg < 0 || nbsr < 0) {
        fputs("bench_sparse: a list is n:density:N,...\n", stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    helper hp;
    helper_start(&hp, python, script, scipy_cpu); /* before libtrnsci: fork-safety */

    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnsparseHandle_t h;
    if (trnsparseCreate(&h) != TRNSPARSE_STATUS_SUCCESS)
        die("trnsparseCreate");
    char self[64];
    bench_self_cpus(self, sizeof(self));
    printf("{\n  \"bench\": \"sparse\",\n");
    bench_json_host(",\n");
    printf("  \"daemon_cores\": %d, \"bench_cpus\": \"%s\", \"scipy_cpu\": %d,\n  \"results\": [\n",
           cores, self, scipy_cpu);
    int first = 1;
    for (int i = 0; i < ncfg; i++, first = 0)
        csr_case(h, &hp, tmp, cfg[i][0], dens[i], cfg[i][1], reps, !use_float, cores, first);
    for (int i = 0; i < nbsr; i++, first = 0)
        bsr_case(h, bcfg[i][0], bdens[i], bcfg[i][1], reps, scipy_cpu, first);
    printf("\n  ]\n}\n");
    fputs("quit\n", hp.to);
    fclose(hp.to);
    fclose(hp.from);
    int status = 0;
    waitpid(hp.pid, &status, 0);
    trnsparseDestroy(h);
    trnsciDeviceReset();
    return 0;
}
