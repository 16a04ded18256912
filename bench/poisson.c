/*
 * poisson.c — the Krylov benchmarks' matrix (poisson.h).
 */
#include "poisson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

bench_csr bench_poisson(int g) {
    bench_csr a;
    a.n = g * g;
    a.rowptr = malloc(((size_t)a.n + 1) * sizeof(int64_t));
    a.col = malloc((size_t)a.n * 5 * sizeof(int32_t));
    a.val = malloc((size_t)a.n * 5 * sizeof(double));
    if (!a.rowptr || !a.col || !a.val) {
        fprintf(stderr, "bench: out of memory for the Poisson matrix\n");
        exit(1);
    }
    int64_t q = 0;
    a.rowptr[0] = 0;
    for (int y = 0; y < g; y++)
        for (int x = 0; x < g; x++) {
            const int i = y * g + x;
            const int js[5] = {i - g, i - 1, i, i + 1, i + g};
            const int ok[5] = {y > 0, x > 0, 1, x < g - 1, y < g - 1};
            for (int k = 0; k < 5; k++)
                if (ok[k]) {
                    a.col[q] = js[k];
                    a.val[q++] = k == 2 ? 4.0 : -1.0;
                }
            a.rowptr[i + 1] = q;
        }
    a.nnz = q;
    return a;
}

void bench_csr_free(bench_csr *a) {
    free(a->rowptr);
    free(a->col);
    free(a->val);
}

void bench_poisson_dump(const char *dir, const char *ext, const void *p, size_t bytes) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/poisson.%s", dir, ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

long double bench_true_residual(const bench_csr *a, const double *b, const double *x) {
    long double rn = 0, bn = 0;
    for (int i = 0; i < a->n; i++) {
        long double s = b[i];
        for (int64_t p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
            s -= (long double)a->val[p] * x[a->col[p]];
        rn += s * s;
        bn += (long double)b[i] * b[i];
    }
    return sqrtl(rn / bn);
}
