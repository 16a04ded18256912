/*
 * tensor_trinary.c — trntensor's trinary contraction E = alpha A B C +
 * beta D on the CPU backend, as two binary contractions in one op
 * (ops/tensor_plan.h's trn_tensor_trinary_plan, made by the validator):
 * the pair X, Y of A, B, C into the intermediate T, a scratch block of the
 * compute precision, with alpha = 1 and beta = 0; then alpha T Z + beta D
 * into E. Both steps run through tensor.c's contraction kernel (so the GEMM
 * mapping, packing, conjugation and precision modes are the binary
 * contraction's).
 *
 * The op runs as one shard (its shard limit is 1): the second step reads
 * all of T, so splitting it would mean every shard recomputing T or a
 * barrier between the steps. A shard other than 0 does nothing.
 *
 * 16-bit storage (R16F, R16BF, 32F compute): A, B, C (and D when beta != 0)
 * are widened exactly into FP32 copies of their spans (same strides), both
 * steps run in FP32 into an FP32 copy of E's span, and each element of E is
 * then rounded once to the 16-bit type, to nearest even. Only E's elements
 * are written (gaps in its span are left alone).
 *
 * Kernel memory is heap scratch, freed before returning; buffers are read
 * only inside the spans the validator checked.
 */
#include <stdlib.h>
#include <string.h>

#include "include/trnsci/trn_fp16.h"

#include "kernels/cpu/cpu_kernels.h"
#include "ops/tensor_plan.h"

/* The 16-bit operand at p (span n) as FP32; NULL when out of memory. */
static float *widen(trn_dtype t, const void *p, uint64_t n) {
    float *w = malloc((size_t)n * sizeof(float));
    if (!w)
        return NULL;
    const char *s = p;
    for (uint64_t i = 0; i < n; i++) {
        uint16_t x;
        memcpy(&x, s + 2 * i, 2);
        w[i] = t == TRN_DTYPE_R16F ? trnsciHalfToFloat((trnsciHalf){x})
                                   : trnsciBfloat16ToFloat((trnsciBfloat16){x});
    }
    return w;
}

/* e[o] = w[o] rounded to the 16-bit type, for every element o of layout l. */
static void narrow_out(trn_dtype t, const trn_tensor_layout *l, const float *w, void *e) {
    int64_t idx[TRN_TENSOR_MAX_MODES] = {0}, off = 0;
    for (;;) {
        const uint16_t x =
            t == TRN_DTYPE_R16F ? trnsciFloatToHalf(w[off]).x : trnsciFloatToBfloat16(w[off]).x;
        memcpy((char *)e + 2 * off, &x, 2);
        int i = 0;
        for (; i < l->nmodes; i++) { /* odometer, first mode fastest */
            off += l->stride[i];
            if (++idx[i] < l->extent[i])
                break;
            off -= idx[i] * l->stride[i];
            idx[i] = 0;
        }
        if (i == l->nmodes)
            return;
    }
}

trn_kstatus trn_cpu_tensor_trinary(const trn_tensor_trinary_desc *d, trn_kmsg *kmsg, int shard,
                                   int nshards) {
    (void)nshards;
    if (shard != 0)
        return TRN_KSTATUS_OK;
    const trn_tensor_trinary_plan *p = d->plan;
    const int narrow = d->type == TRN_DTYPE_R16F || d->type == TRN_DTYPE_R16BF;
    const int beta_nz = d->beta.re != 0.0 || d->beta.im != 0.0;
    const trn_dtype ct = p->first.spec.type; /* the compute precision's data type */
    const size_t es = trn_dtype_size(ct);
    const trn_tensor_layout *lay[3] = {&p->a, &p->b, &p->c};
    const void *in[3] = {d->a, d->b, d->c};
    float *wide[3] = {NULL, NULL, NULL}, *wd = NULL, *we = NULL;
    const void *cin = beta_nz ? d->d : NULL;
    void *out = d->e;
    trn_kstatus st = TRN_KSTATUS_OK;
    char *t = malloc((size_t)p->t_elements * es);
    if (!t) {
        st = trn_kmsg_no_memory(kmsg, shard, (size_t)p->t_elements * es,
                                "the intermediate of a trinary contraction");
        goto done;
    }
    if (narrow) {
        const uint64_t ne = trn_tensor_span(&p->e);
        for (int i = 0; i < 3; i++) {
            wide[i] = widen(d->type, in[i], trn_tensor_span(lay[i]));
            in[i] = wide[i];
        }
        if (beta_nz)
            wd = widen(d->type, d->d, ne);
        we = malloc((size_t)ne * sizeof(float));
        if (!wide[0] || !wide[1] || !wide[2] || (beta_nz && !wd) || !we) {
            st = trn_kmsg_no_memory(kmsg, shard, (size_t)ne * sizeof(float),
                                    "the FP32 copies of a 16-bit trinary contraction");
            goto done;
        }
        cin = wd;
        out = we;
    }
    static const int pair[3][2] = {{1, 2}, {0, 2}, {0, 1}}; /* X, Y when `last` is 0, 1, 2 */
    const trn_tensor_contract_desc first = {
        .plan = &p->first,
        .type = ct,
        .flops = p->first.flops,
        .nbatch = p->first.nbatch,
        .n = p->first.n,
        .alpha = {1.0, 0.0},
        .beta = {0.0, 0.0},
        .a = in[pair[p->last][0]],
        .b = in[pair[p->last][1]],
        .c = NULL,
        .d = t,
    };
    st = trn_cpu_tensor_contract(&first, kmsg, 0, 1);
    if (st != TRN_KSTATUS_OK)
        goto done;
    const trn_tensor_contract_desc second = {
        .plan = &p->second,
        .type = ct,
        .flops = p->second.flops,
        .nbatch = p->second.nbatch,
        .n = p->second.n,
        .alpha = d->alpha,
        .beta = beta_nz ? d->beta : (trn_scalar){0.0, 0.0},
        .a = t,
        .b = in[p->last],
        .c = cin,
        .d = out,
    };
    st = trn_cpu_tensor_contract(&second, kmsg, 0, 1);
    if (st == TRN_KSTATUS_OK && narrow)
        narrow_out(d->type, &p->e, we, d->e);
done:
    free(t);
    for (int i = 0; i < 3; i++)
        free(wide[i]);
    free(wd);
    free(we);
    return st;
}

/* The backend's entry (cpu_kernels.h). */
TRN_CPU_ENTRY(tensor_contract_trinary,
              trn_cpu_tensor_trinary(&op->u.tensor_trinary, op->kmsg, shard, nshards))
