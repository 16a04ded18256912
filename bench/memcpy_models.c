/*
 * memcpy_models.c — host↔device copy throughput under the two memory models
 * of the local transport (docs/neuron.md, "Memory model"), beside an
 * in-process memcpy of the same bytes measured in the same run.
 *
 * Usage: bench_memcpy_models --mapped ADDR --opaque ADDR [--mib N] [--reps R]
 *   ADDR    a daemon's local address; --mapped one started with
 *           --device-pointers mapped (the CPU backend's default), --opaque one
 *           started with --device-pointers opaque (the Neuron backend's)
 *   --mib   bytes per copy in MiB (default 64)
 *   --reps  timed copies per case (default 15), after one untimed one
 *
 * Cases, each host-to-device and device-to-host with trnsciMemcpy:
 *   inprocess        memcpy between two malloc'd buffers (the floor)
 *   mapped_pageable  the mapped model: the copy is a memcpy into the mapping
 *   opaque_pageable  the opaque model: staged through the session's pinned
 *                    staging buffer (1 MiB chunks, one Write/Read each)
 *   opaque_pinned    the opaque model from/to trnsciMallocHost memory: one
 *                    copy op on the daemon's copy engine
 * Prints one JSON object: GB/s medians (1 GB = 1e9 bytes) per case and
 * direction, and each trnsci case's ratio to inprocess. Each copy's result
 * is checked against the source (a bench that copied wrong bytes says so and
 * exits 1).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "trnsci/trnsci.h"

typedef struct rates {
    double h2d, d2h; /* GB/s, medians */
} rates;

static double gbps(size_t bytes, double ms) {
    return (double)bytes / (ms * 1e6);
}

static int check(const unsigned char *a, const unsigned char *b, size_t n, const char *what) {
    if (memcmp(a, b, n) != 0) {
        fprintf(stderr, "memcpy_models: %s copied wrong bytes\n", what);
        return -1;
    }
    return 0;
}

static rates time_inprocess(unsigned char *src, unsigned char *dst, size_t n, int reps) {
    double *h = calloc((size_t)reps, sizeof(double));
    memcpy(dst, src, n);
    for (int r = 0; r < reps; r++) {
        const double t0 = bench_now_ms();
        memcpy(dst, src, n);
        h[r] = gbps(n, bench_now_ms() - t0);
    }
    const rates out = {bench_median(h, reps), bench_median(h, reps)};
    free(h);
    return out;
}

/* trnsciMemcpy both ways between host (pageable, or pinned when `pinned`)
 * and one device buffer on the daemon at addr. */
static int time_daemon(const char *addr, const unsigned char *src, size_t n, int reps, int pinned,
                       const char *name, rates *out) {
    int rc = -1;
    double *h = calloc((size_t)reps, sizeof(double)), *d = calloc((size_t)reps, sizeof(double));
    unsigned char *hs = NULL, *hd = NULL;
    void *dev = NULL;
    if (trnsciInit(addr) != trnsciSuccess || trnsciMalloc(&dev, n) != trnsciSuccess)
        goto done;
    if (pinned) {
        if (trnsciMallocHost((void **)&hs, n) != trnsciSuccess ||
            trnsciMallocHost((void **)&hd, n) != trnsciSuccess)
            goto done;
    } else {
        hs = malloc(n);
        hd = malloc(n);
        if (!hs || !hd)
            goto done;
    }
    memcpy(hs, src, n);
    for (int r = -1; r < reps; r++) {
        double t0 = bench_now_ms();
        if (trnsciMemcpy(dev, hs, n, trnsciMemcpyHostToDevice) != trnsciSuccess)
            goto done;
        const double th = bench_now_ms() - t0;
        memset(hd, 0, n);
        t0 = bench_now_ms();
        if (trnsciMemcpy(hd, dev, n, trnsciMemcpyDeviceToHost) != trnsciSuccess)
            goto done;
        const double td = bench_now_ms() - t0;
        if (check(hd, src, n, name) != 0)
            goto done;
        if (r >= 0) {
            h[r] = gbps(n, th);
            d[r] = gbps(n, td);
        }
    }
    out->h2d = bench_median(h, reps);
    out->d2h = bench_median(d, reps);
    rc = 0;
done:
    if (rc != 0)
        fprintf(stderr, "memcpy_models: %s: %s\n", name, trnsciGetLastErrorMessage());
    if (pinned) {
        trnsciFreeHost(hs);
        trnsciFreeHost(hd);
    } else {
        free(hs);
        free(hd);
    }
    trnsciFree(dev);
    trnsciDeviceReset();
    free(h);
    free(d);
    return rc;
}

int main(int argc, char **argv) {
    const char *mapped = NULL, *opaque = NULL;
    int mib = 64, reps = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--mapped") == 0)
            mapped = argv[i + 1];
        else if (strcmp(argv[i], "--opaque") == 0)
            opaque = argv[i + 1];
        else if (strcmp(argv[i], "--mib") == 0)
            mib = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0)
            reps = atoi(argv[i + 1]);
    }
    if (!mapped || !opaque || mib <= 0 || reps <= 0) {
        fprintf(stderr, "usage: %s --mapped ADDR --opaque ADDR [--mib N] [--reps R]\n", argv[0]);
        return 2;
    }
    const size_t n = (size_t)mib << 20;
    unsigned char *src = malloc(n), *dst = malloc(n);
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 131u + (i >> 12));
    const rates in = time_inprocess(src, dst, n, reps);
    rates mp, op, opin;
    if (time_daemon(mapped, src, n, reps, 0, "mapped_pageable", &mp) != 0 ||
        time_daemon(opaque, src, n, reps, 0, "opaque_pageable", &op) != 0 ||
        time_daemon(opaque, src, n, reps, 1, "opaque_pinned", &opin) != 0)
        return 1;
    char cpus[64];
    bench_self_cpus(cpus, sizeof(cpus));
    printf(
        "{\"bench\": \"memcpy_models\", \"bytes\": %zu, \"reps\": %d, \"client_cpus\": \"%s\",\n",
        n, reps, cpus);
    printf(" \"gbps\": {\"inprocess\": {\"h2d\": %.2f, \"d2h\": %.2f},\n", in.h2d, in.d2h);
    const struct {
        const char *name;
        rates r;
    } cases[] = {{"mapped_pageable", mp}, {"opaque_pageable", op}, {"opaque_pinned", opin}};
    for (int i = 0; i < 3; i++)
        printf("          \"%s\": {\"h2d\": %.2f, \"d2h\": %.2f, \"ratio_h2d\": %.3f, "
               "\"ratio_d2h\": %.3f}%s\n",
               cases[i].name, cases[i].r.h2d, cases[i].r.d2h, cases[i].r.h2d / in.h2d,
               cases[i].r.d2h / in.d2h, i == 2 ? "}}" : ",");
    free(src);
    free(dst);
    return 0;
}
