/*
 * tensor_trinary.c — checking a trinary contraction E = alpha A B C + beta D
 * and planning it as two binary contractions (see tensor_plan.h's
 * trn_tensor_trinary_plan). Pure functions of the layouts: the same
 * contraction always gives the same plan, in the client's validator and in
 * the daemon's.
 *
 * Why two steps: every term of E is a product of one element of each of A,
 * B and C, summed over the modes E lacks. Contracting a pair first and the
 * result with the third costs the sum of two GEMM-shaped contractions,
 * which for any pairing is at most the direct triple loop's cost and
 * usually far less; the cheapest pairing is chosen by flop count.
 */
#include <stdio.h>
#include <string.h>

#include "ops/tensor_plan.h"

/* The most elements of the intermediate, and of an operand widened from
 * 16-bit storage (its span): 2 GiB of doubles, as a packed operand. */
#define TRINARY_MAX_ELEMENTS (UINT64_C(1) << 28)

static int find(const trn_tensor_layout *l, int32_t label) {
    for (int i = 0; i < l->nmodes; i++)
        if (l->mode[i] == label)
            return i;
    return -1;
}

/* The product of the extents of the distinct modes of x and y. */
static double volume(const trn_tensor_layout *x, const trn_tensor_layout *y) {
    double v = 1.0;
    for (int i = 0; i < x->nmodes; i++)
        v *= (double)x->extent[i];
    for (int i = 0; i < y->nmodes; i++)
        if (find(x, y->mode[i]) < 0)
            v *= (double)y->extent[i];
    return v;
}

/* T's modes for the pair x, y with z last: those of x or y that e has (in
 * e's order), then those z has and e lacks (in z's order); packed. */
static void intermediate(const trn_tensor_layout *x, const trn_tensor_layout *y,
                         const trn_tensor_layout *z, const trn_tensor_layout *e,
                         trn_tensor_layout *t) {
    memset(t, 0, sizeof(*t));
    for (int pass = 0; pass < 2; pass++) {
        const trn_tensor_layout *src = pass == 0 ? e : z;
        for (int i = 0; i < src->nmodes; i++) {
            const int32_t m = src->mode[i];
            if (pass == 1 && find(e, m) >= 0)
                continue;
            if (find(x, m) < 0 && find(y, m) < 0)
                continue;
            t->mode[t->nmodes] = m;
            t->extent[t->nmodes] = src->extent[i];
            t->nmodes++;
        }
    }
    int64_t s = 1;
    for (int i = 0; i < t->nmodes; i++) {
        t->stride[i] = s;
        s *= t->extent[i]; /* <= the span check's bound, done by the caller */
    }
}

/* Checks and plans one step, with err naming the trinary op. */
static int step(trn_tensor_contract_spec *s, trn_tensor_plan *out, char *err, size_t errlen) {
    char why[256];
    int rc = trn_tensor_spec_check(s, why, sizeof(why));
    if (rc == 0)
        rc = trn_tensor_plan_make(s, out, why, sizeof(why)) == 0 ? 0 : -2;
    if (rc != 0)
        snprintf(err, errlen, "tensor contract trinary: a pairwise step: %s", why);
    return rc;
}

int trn_tensor_trinary_make(trn_dtype type, trn_compute compute, const trn_tensor_layout *a,
                            const trn_tensor_layout *b, const trn_tensor_layout *c,
                            const trn_tensor_layout *e, const int conj[3],
                            trn_tensor_trinary_plan *p, char *err, size_t errlen) {
    static const char names[4] = {'A', 'B', 'C', 'E'};
    const trn_tensor_layout *ops[4] = {a, b, c, e};
    memset(p, 0, sizeof(*p));
    for (int o = 0; o < 4; o++) {
        const trn_tensor_layout *l = ops[o];
        if (l->nmodes < 0 || l->nmodes > TRN_TENSOR_MAX_MODES) {
            snprintf(err, errlen,
                     "tensor contract trinary: %c has %d modes, more than the %d "
                     "supported",
                     names[o], l->nmodes, TRN_TENSOR_MAX_MODES);
            return -2;
        }
        if (!trn_tensor_span(l)) {
            snprintf(err, errlen, "tensor contract trinary: the extent of %c overflows", names[o]);
            return -1;
        }
    }
    if (trn_tensor_overlaps(e)) {
        snprintf(err, errlen,
                 "tensor contract trinary: the strides of E make two of its elements overlap");
        return -1;
    }
    /* Every label: one extent; E's in some input; an input's in another
     * operand (E's first: a mode from nowhere is the caller's error). */
    for (int o = 3; o >= 0; o--) {
        const trn_tensor_layout *l = ops[o];
        for (int i = 0; i < l->nmodes; i++) {
            int inputs = 0, count = 0;
            for (int q = 0; q < 4; q++) {
                const int j = find(ops[q], l->mode[i]);
                if (j < 0)
                    continue;
                count++;
                inputs += q < 3;
                if (ops[q]->extent[j] != l->extent[i]) {
                    snprintf(
                        err, errlen,
                        "tensor contract trinary: mode %d has extent %lld in %c but %lld in %c",
                        (int)l->mode[i], (long long)l->extent[i], names[o],
                        (long long)ops[q]->extent[j], names[q]);
                    return -1;
                }
            }
            if (o == 3 && inputs == 0) {
                snprintf(err, errlen, "tensor contract trinary: mode %d of E is in none of A, B, C",
                         (int)l->mode[i]);
                return -1;
            }
            if (o < 3 && count < 2 && l->extent[i] > 1) {
                snprintf(err, errlen,
                         "tensor contract trinary: mode %d of %c is in no other operand (sum it "
                         "with trntensorReduce first)",
                         (int)l->mode[i], names[o]);
                return -2;
            }
        }
    }
    /* The pairing: Z = C, then B, then A; the cheapest wins, ties to the
     * earlier. */
    static const int order[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}; /* X, Y, Z */
    int best = 0;
    double best_cost = 0.0;
    for (int k = 0; k < 3; k++) {
        const trn_tensor_layout *x = ops[order[k][0]], *y = ops[order[k][1]], *z = ops[order[k][2]];
        trn_tensor_layout t;
        intermediate(x, y, z, e, &t);
        const double cost = volume(x, y) + volume(&t, z);
        if (k == 0 || cost < best_cost) {
            best = k;
            best_cost = cost;
        }
    }
    const int ix = order[best][0], iy = order[best][1], iz = order[best][2];
    intermediate(ops[ix], ops[iy], ops[iz], e, &p->t);
    uint64_t tn = 1;
    for (int i = 0; i < p->t.nmodes; i++) {
        tn *= (uint64_t)p->t.extent[i];
        if (tn > TRINARY_MAX_ELEMENTS) {
            snprintf(err, errlen,
                     "tensor contract trinary: the intermediate of the cheapest order has more "
                     "than 2^28 elements");
            return -2;
        }
    }
    const int narrow = type == TRN_DTYPE_R16F || type == TRN_DTYPE_R16BF;
    if (narrow)
        for (int o = 0; o < 4; o++)
            if (trn_tensor_span(ops[o]) > TRINARY_MAX_ELEMENTS) {
                snprintf(err, errlen,
                         "tensor contract trinary: %c spans more than 2^28 elements (16-bit data "
                         "is widened to FP32 scratch)",
                         names[o]);
                return -2;
            }
    p->magic = TRN_TENSOR_TRINARY_MAGIC;
    p->type = type;
    p->last = iz;
    p->a = *a;
    p->b = *b;
    p->c = *c;
    p->e = *e;
    p->t_elements = tn;
    trn_tensor_contract_spec s1 = {
        .type = narrow ? TRN_DTYPE_R32F : type,
        .compute = narrow ? TRN_COMPUTE_32F : compute,
        .a = *ops[ix],
        .b = *ops[iy],
        .d = p->t,
        .conj_a = conj[ix],
        .conj_b = conj[iy],
    };
    trn_tensor_contract_spec s2 = s1;
    s2.a = p->t;
    s2.b = *ops[iz];
    s2.d = *e;
    s2.conj_a = 0;
    s2.conj_b = conj[iz];
    int rc = step(&s1, &p->first, err, errlen);
    if (rc == 0)
        rc = step(&s2, &p->second, err, errlen);
    if (rc != 0) {
        p->magic = 0;
        return rc;
    }
    p->flops = p->first.flops + p->second.flops;
    return 0;
}
