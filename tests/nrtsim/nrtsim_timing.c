/*
 * nrtsim_timing.c — the simulator's timing model, and its environment
 * numbers.
 *
 * Read at nrt_init (all default 0: no delay):
 *   NRTSIM_DISPATCH_US  added to every nrt_execute
 *   NRTSIM_DMA_GBPS     nrt_tensor_read/write/copy touching a DEVICE tensor
 *                       take bytes / bandwidth (10^9 bytes per second)
 *   NRTSIM_HBM_GBPS     nrt_tensor_copy between two DEVICE tensors of one
 *                       core takes bytes / this bandwidth instead (the
 *                       core's own memory; default: NRTSIM_DMA_GBPS)
 *   NRTSIM_GFLOPS       nrt_execute takes flops / rate, with flops =
 *                       2 m n k batch (times 4 for c32), summed over a
 *                       gemm_seq's nodes
 *   NRTSIM_TIMEOUT_MS   how long an injected timeout takes (default 100)
 *   NRTSIM_TRACE        a file to which every execution and every move to
 *                       or from a core's memory appends its interval
 *                       (nrtsim_trace), for tests of what overlaps
 * A delay is a sleep to an absolute CLOCK_MONOTONIC deadline counted from
 * the call's start (an execute's compute time: from when its core is free,
 * nrtsim_exec.c), so the host work done meanwhile is part of it and the
 * host CPU time of a delay stays near zero (nothing spins).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/nrtsim/nrtsim_internal.h"

int nrtsim_env_u64(const char *name, uint64_t def, uint64_t *out) {
    const char *s = getenv(name);
    *out = def;
    if (!s || !s[0])
        return 0;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}

int nrtsim_env_double(const char *name, double *out) {
    const char *s = getenv(name);
    *out = 0;
    if (!s || !s[0])
        return 0;
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (*end || errno || !(v >= 0) || isinf(v))
        return -1;
    *out = v;
    return 0;
}

int nrtsim_timing_init(nrtsim_timing *t, char *err, size_t errlen) {
    uint64_t dispatch_us, timeout_ms;
    double gbps, gflops, hbm;
    if (nrtsim_env_u64("NRTSIM_DISPATCH_US", 0, &dispatch_us) != 0 || dispatch_us > UINT64_C(1)
                                                                                        << 32) {
        snprintf(err, errlen, "NRTSIM_DISPATCH_US must be a number of microseconds");
        return -1;
    }
    if (nrtsim_env_u64("NRTSIM_TIMEOUT_MS", 100, &timeout_ms) != 0 || timeout_ms > UINT64_C(1)
                                                                                       << 32) {
        snprintf(err, errlen, "NRTSIM_TIMEOUT_MS must be a number of milliseconds");
        return -1;
    }
    if (nrtsim_env_double("NRTSIM_DMA_GBPS", &gbps) != 0 ||
        nrtsim_env_double("NRTSIM_HBM_GBPS", &hbm) != 0 ||
        nrtsim_env_double("NRTSIM_GFLOPS", &gflops) != 0) {
        snprintf(err, errlen,
                 "NRTSIM_DMA_GBPS, NRTSIM_HBM_GBPS and NRTSIM_GFLOPS must be rates "
                 ">= 0");
        return -1;
    }
    const char *hbm_set = getenv("NRTSIM_HBM_GBPS");
    t->hbm_bytes_per_ns = hbm_set && hbm_set[0] ? hbm : gbps;
    t->dispatch_ns = dispatch_us * 1000;
    t->timeout_ns = timeout_ms * 1000000;
    t->dma_bytes_per_ns = gbps; /* 10^9 bytes/s = 1 byte/ns */
    t->flops_per_ns = gflops;   /* 10^9 flop/s = 1 flop/ns */
    const char *trace = getenv("NRTSIM_TRACE");
    t->trace_fd =
        trace && trace[0] ? open(trace, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (trace && trace[0] && t->trace_fd < 0) {
        snprintf(err, errlen, "NRTSIM_TRACE %s: %s", trace, strerror(errno));
        return -1;
    }
    return 0;
}

uint64_t nrtsim_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void nrtsim_sleep_until(uint64_t deadline_ns) {
    /* A deadline already passed costs no call: the kernel would still hold
     * the thread for its timer slack (50 µs by default). */
    if (deadline_ns <= nrtsim_now_ns())
        return;
    const struct timespec ts = {.tv_sec = (time_t)(deadline_ns / 1000000000u),
                                .tv_nsec = (long)(deadline_ns % 1000000000u)};
    /* An absolute deadline: a signal's interruption resumes without drift. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* A modelled duration, saturated to about a century. */
static uint64_t duration_ns(double work, double per_ns) {
    if (per_ns <= 0)
        return 0;
    const double ns = work / per_ns;
    return ns > 3e18 ? (uint64_t)3e18 : (uint64_t)ns;
}

uint64_t nrtsim_dma_ns(const nrtsim_timing *t, size_t bytes) {
    return duration_ns((double)bytes, t->dma_bytes_per_ns);
}

uint64_t nrtsim_hbm_ns(const nrtsim_timing *t, size_t bytes) {
    return duration_ns((double)bytes, t->hbm_bytes_per_ns);
}

uint64_t nrtsim_compute_ns(const nrtsim_timing *t, const nrtsim_neff *n) {
    double flops = 0;
    for (int j = 0; j < n->nnodes; j++) {
        const trn_nprog_gemm *g = &n->nodes[j].g;
        flops += 2.0 * g->m * (double)g->n * g->k * g->batch * (g->complex ? 4.0 : 1.0);
    }
    return duration_ns(flops, t->flops_per_ns);
}

void nrtsim_timing_close(nrtsim_timing *t) {
    if (t->trace_fd >= 0)
        close(t->trace_fd);
    t->trace_fd = -1;
}

void nrtsim_trace(const char *kind, int logical_core, uint64_t begin_ns, uint64_t end_ns,
                  size_t bytes) {
    nrtsim_rt *rt = nrtsim_lock();
    const int fd = rt->initialized ? rt->timing.trace_fd : -1;
    const int physical = rt->cores[logical_core].physical;
    nrtsim_unlock();
    if (fd < 0)
        return;
    char line[128];
    const int n =
        snprintf(line, sizeof(line), "%s %d %llu %llu %d %zu\n", kind, physical,
                 (unsigned long long)begin_ns, (unsigned long long)end_ns, (int)getpid(), bytes);
    if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) != n)
        return; /* a lost line: the test reading the trace sees it missing */
}

_Noreturn void nrtsim_block_forever(void) {
    for (;;)
        pause();
}
