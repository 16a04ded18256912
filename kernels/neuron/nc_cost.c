/*
 * nc_cost.c — nominal and measured costs of NeuronCore work (nc_cost.h).
 */
#include "kernels/neuron/nc_cost.h"

#include <string.h>
#include <time.h>

/* Peak FLOP per ns of one NeuronCore's Tensor Engine, by target: FP32 and
 * BF16 products, FP32 accumulation. trn1: a Trainium chip's 47.5 FP32 and
 * 190 BF16 TFLOPS over its 2 NeuronCore-v2; trn2: a Trainium2 chip's 181
 * and 667 TFLOPS over its 8 NeuronCore-v3. */
typedef struct tensor_engine_rate {
    const char *target;
    double fp32, bf16;
} tensor_engine_rate;

static const tensor_engine_rate RATES[] = {
    {"trn1", 23750.0, 95000.0},
    {"trn2", 22625.0, 83375.0},
};

static const tensor_engine_rate *rate_of(const char *target) {
    for (size_t i = 0; i < sizeof(RATES) / sizeof(RATES[0]); i++)
        if (target && strcmp(target, RATES[i].target) == 0)
            return &RATES[i];
    return &RATES[0];
}

double trn_nc_move_bytes_per_ns(const trn_nc_traffic *traffic) {
    if (!traffic)
        return TRN_NC_NOMINAL_MOVE_BYTES_PER_NS;
    const uint64_t bytes = atomic_load_explicit(&traffic->timed_bytes, memory_order_relaxed);
    const uint64_t ns = atomic_load_explicit(&traffic->timed_ns, memory_order_relaxed);
    if (bytes < TRN_NC_RATE_MIN_BYTES || ns == 0)
        return TRN_NC_NOMINAL_MOVE_BYTES_PER_NS;
    return (double)bytes / (double)ns;
}

void trn_nc_note_timed_write(trn_nc_traffic *traffic, uint64_t n, uint64_t ns) {
    if (!traffic || n < TRN_NC_TIMED_MIN_BYTES)
        return;
    /* The pair is read without a lock: a reader may see one added before
     * the other, a rate off by one write among many. */
    atomic_fetch_add_explicit(&traffic->timed_ns, ns ? ns : 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&traffic->timed_bytes, n, memory_order_relaxed);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

trn_nrt_status trn_nc_move_to_core(const trn_nc_runtime *rt, trn_nrt_tensor *t, const void *host,
                                   size_t n) {
    const uint64_t t0 = now_ns();
    const trn_nrt_status st = rt->api.tensor_write(t, host, 0, n);
    if (st != TRN_NRT_SUCCESS)
        return st;
    trn_nc_note_timed_write(rt->traffic, n, now_ns() - t0);
    if (rt->traffic)
        atomic_fetch_add_explicit(&rt->traffic->to_cores, n, memory_order_relaxed);
    return st;
}

double trn_nc_gemm_estimate_ns(const trn_nprog_gemm *exec, int nexec, const char *target,
                               double move_bytes_per_ns) {
    const tensor_engine_rate *r = rate_of(target);
    /* A complex product is four real ones (the c32 program's planes). */
    const double flop =
        2.0 * exec->m * (double)exec->n * exec->k * exec->batch * (exec->complex ? 4.0 : 1.0);
    const double per_ns = exec->mode == TRN_NPROG_FP32   ? r->fp32
                          : exec->mode == TRN_NPROG_BF16 ? r->bf16
                                                         : r->bf16 / 3.0; /* bf16x3 */
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(exec);
    const double bytes = (double)(by.at + by.b + by.c + by.d + by.scal); /* c in, d out */
    const double rate =
        move_bytes_per_ns > 0 ? move_bytes_per_ns : TRN_NC_NOMINAL_MOVE_BYTES_PER_NS;
    return (nexec > 0 ? nexec : 1) * (TRN_NC_NOMINAL_DISPATCH_NS + flop / per_ns + bytes / rate);
}
