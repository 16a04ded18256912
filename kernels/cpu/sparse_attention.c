/*
 * sparse_attention.c — block-sparse attention on the CPU backend (a trnsci
 * extension): for each batch entry, O = softmax(scale Q K^T masked to a BSR
 * pattern's blocks) V, one block row of queries at a time, with an online
 * softmax over the block row's key blocks, so only an rb x cb block of
 * scores ever exists (never the seq_q x seq_k matrix).
 *
 * For a query block row I and each key block J of the pattern (in stored
 * order): S = scale Q_I K_J^T (OpenBLAS when the blocks are large,
 * trn_sp_gemm), then per query row i: m' = max(m, max_j S_ij), the running
 * sum l and accumulator acc are rescaled by exp(m - m'), P_ij =
 * exp(S_ij - m') is added to l, and acc += P V_J. At the end O_I = acc / l;
 * a row whose block row holds no block is 0. Work is shared out as whole
 * (batch entry, block row) pairs, each computed the same way whatever the
 * split: sharded results are bitwise the unsharded ones. The pattern's
 * offsets and indices are checked before use (sparse_common.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

#define DEFINE_ATTN(T, SFX, EXP)                                                                   \
    static int attn_##SFX(const trn_attn_desc *d, size_t lo, size_t hi, int shard,                 \
                          trn_kmsg *msg) {                                                         \
        const trn_sp_mat *pt = &d->pattern;                                                        \
        const trn_sp_rows s = trn_sp_rows_of(pt, "pattern");                                       \
        const int64_t rb = pt->rb, cb = pt->cb, dv = d->v.cols, dk = d->q.cols;                    \
        int64_t qr, qc, kr, kc, vr, vc, orr, oc, p0, p1;                                           \
        trn_sp_strides(&d->q, &qr, &qc);                                                           \
        trn_sp_strides(&d->k, &kr, &kc);                                                           \
        trn_sp_strides(&d->v, &vr, &vc);                                                           \
        trn_sp_strides(&d->o, &orr, &oc);                                                          \
        T *S = malloc((size_t)(rb * cb) * sizeof(T) + sizeof(T));                                  \
        T *acc = malloc((size_t)(rb * dv) * sizeof(T) + sizeof(T));                                \
        T *mx = malloc((size_t)rb * sizeof(T)), *l = malloc((size_t)rb * sizeof(T));               \
        int rc = -1;                                                                               \
        char where[48];                                                                            \
        if (!S || !acc || !mx || !l) {                                                             \
            rc =                                                                                   \
                trn_sp_no_memory(msg, shard, (size_t)(rb * cb + rb * dv + 2 * rb + 2) * sizeof(T), \
                                 "the scores and accumulators of %lld x %lld blocks",              \
                                 (long long)rb, (long long)cb);                                    \
            goto out;                                                                              \
        }                                                                                          \
        for (size_t it = lo; it < hi; it++) {                                                      \
            const int64_t b = (int64_t)it / pt->brows, I = (int64_t)it % pt->brows;                \
            const T *Q = (const T *)d->q.values + b * d->q.stride + I * rb * qr;                   \
            const T *K = (const T *)d->k.values + b * d->k.stride;                                 \
            const T *V = (const T *)d->v.values + b * d->v.stride;                                 \
            T *O = (T *)d->o.values + b * d->o.stride + I * rb * orr;                              \
            if (trn_sp_row_bounds(&s, I, msg, &p0, &p1))                                           \
                goto out;                                                                          \
            for (int64_t i = 0; i < rb; i++) {                                                     \
                mx[i] = -INFINITY;                                                                 \
                l[i] = 0;                                                                          \
            }                                                                                      \
            for (int64_t i = 0; i < rb * dv; i++)                                                  \
                acc[i] = 0;                                                                        \
            for (int64_t p = p0; p < p1; p++) {                                                    \
                const int64_t jv = trn_sp_ld(pt->indices, p, pt->idx64);                           \
                const uint64_t J = (uint64_t)jv - (uint64_t)pt->base;                              \
                if (J >= (uint64_t)pt->bcols) {                                                    \
                    snprintf(where, sizeof(where), " (block row %lld)", (long long)I);             \
                    trn_sp_bad_index(msg, (uint64_t)I, "pattern", TRN_SP_BSR, TRN_SP_INDICES, p,   \
                                     jv, pt->base, pt->bcols, where);                              \
                    goto out;                                                                      \
                }                                                                                  \
                /* S = scale Q_I K_J^T: K_J^T has K's strides swapped. */                          \
                trn_sp_gemm(d->q.type, rb, cb, dk, d->scale, Q, qr, qc, K + (int64_t)J * cb * kr,  \
                            kc, kr, 0.0, S, cb, 1);                                                \
                for (int64_t i = 0; i < rb; i++) {                                                 \
                    T *srow = S + i * cb, m = mx[i];                                               \
                    for (int64_t j = 0; j < cb; j++)                                               \
                        m = srow[j] > m ? srow[j] : m;                                             \
                    const T corr = mx[i] == -INFINITY ? (T)0 : EXP(mx[i] - m);                     \
                    T sum = 0;                                                                     \
                    for (int64_t j = 0; j < cb; j++) {                                             \
                        srow[j] = EXP(srow[j] - m);                                                \
                        sum += srow[j];                                                            \
                    }                                                                              \
                    l[i] = l[i] * corr + sum;                                                      \
                    if (corr != (T)1)                                                              \
                        for (int64_t j = 0; j < dv; j++)                                           \
                            acc[i * dv + j] *= corr;                                               \
                    mx[i] = m;                                                                     \
                }                                                                                  \
                trn_sp_gemm(d->q.type, rb, dv, cb, 1.0, S, cb, 1, V + (int64_t)J * cb * vr, vr,    \
                            vc, 1.0, acc, dv, 1);                                                  \
            }                                                                                      \
            for (int64_t i = 0; i < rb; i++)                                                       \
                for (int64_t j = 0; j < dv; j++)                                                   \
                    O[i * orr + j * oc] = l[i] > 0 ? acc[i * dv + j] / l[i] : (T)0;                \
        }                                                                                          \
        rc = 0;                                                                                    \
    out:                                                                                           \
        free(S);                                                                                   \
        free(acc);                                                                                 \
        free(mx);                                                                                  \
        free(l);                                                                                   \
        return rc;                                                                                 \
    }
DEFINE_ATTN(float, f32, expf)
DEFINE_ATTN(double, f64, exp)

trn_kstatus trn_cpu_attention(const trn_attn_desc *d, trn_kmsg *msg, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range((size_t)(d->pattern.brows * d->q.batch), shard, nshards, &lo, &hi);
    if (hi <= lo || d->o.cols == 0)
        return TRN_KSTATUS_OK;
    const int rc = d->q.type == TRN_DTYPE_R64F ? attn_f64(d, lo, hi, shard, msg)
                                               : attn_f32(d, lo, hi, shard, msg);
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spattn, trn_cpu_attention(&op->u.attn, op->kmsg, shard, nshards))
