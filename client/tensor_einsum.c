/*
 * tensor_einsum.c — trnsci extensions on top of the cuTENSOR-shaped API:
 * trntensorEinsum (numpy.einsum's notation for one or two operands) and
 * trntensorEinsumPath (the pairwise order of an n-operand einsum).
 *
 * A letter repeated within one operand ("ii", "iij") is a diagonal: the
 * operand is described to the daemon with one mode of that letter whose
 * stride is the sum of the repeated modes' strides, so traces and diagonals
 * need no kernel of their own. One operand becomes a reduction (sum over
 * the letters the output lacks; a permutation when it lacks none), two a
 * contraction made through the plan cache.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/tensor_internal.h"

#define EINSUM_MAX_OPERANDS 8

/* One operand's letters, after merging repeated letters. */
typedef struct term {
    int n;
    char letter[TRNTENSOR_MAX_MODES];
    int64_t extent[TRNTENSOR_MAX_MODES];
    int64_t stride[TRNTENSOR_MAX_MODES];
} term;

static int is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Splits "x,y->z" into up to max input terms' letters and the output's.
 * Returns the number of inputs, or -1. */
static int split(const char *s, char in[][TRNTENSOR_MAX_MODES + 1], int max,
                 char out[TRNTENSOR_MAX_MODES + 1]) {
    int k = 0, len = 0;
    in[0][0] = '\0';
    for (; *s && !(s[0] == '-' && s[1] == '>'); s++) {
        if (*s == ' ')
            continue;
        if (*s == ',') {
            if (++k >= max)
                return -1;
            len = 0;
            in[k][0] = '\0';
            continue;
        }
        if (!is_letter(*s) || len == TRNTENSOR_MAX_MODES)
            return -1;
        in[k][len++] = *s;
        in[k][len] = '\0';
    }
    if (!*s) /* the output must be explicit */
        return -1;
    s += 2;
    len = 0;
    for (; *s; s++) {
        if (*s == ' ')
            continue;
        if (!is_letter(*s) || len == TRNTENSOR_MAX_MODES)
            return -1;
        out[len++] = *s;
    }
    out[len] = '\0';
    return k + 1;
}

/* The term of letters on descriptor d (NULL: extents only from d). */
static trntensorStatus_t term_of(const char *letters, const struct trntensorTensorDescriptor *d,
                                 const char *fn, int index, term *t) {
    const size_t n = strlen(letters);
    if (!d)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: descriptor of operand %d is NULL", fn,
                               index);
    if (n != d->nmodes)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: operand %d has %u modes but %zu subscripts (\"%s\")", fn, index,
                               d->nmodes, n, letters);
    t->n = 0;
    for (size_t i = 0; i < n; i++) {
        int j = 0;
        while (j < t->n && t->letter[j] != letters[i])
            j++;
        if (j < t->n) { /* a diagonal: the strides add up */
            if (t->extent[j] != d->extent[i])
                return trn_tensor_fail(trnsciErrorInvalidValue,
                                       "%s: subscript '%c' of operand %d has extents %lld and "
                                       "%lld",
                                       fn, letters[i], index, (long long)t->extent[j],
                                       (long long)d->extent[i]);
            t->stride[j] += d->stride[i];
            continue;
        }
        t->letter[t->n] = letters[i];
        t->extent[t->n] = d->extent[i];
        t->stride[t->n++] = d->stride[i];
    }
    return TRNTENSOR_STATUS_SUCCESS;
}

static void to_desc(const term *t, trnsciDataType_t type, struct trntensorTensorDescriptor *d,
                    int32_t *modes) {
    memset(d, 0, sizeof(*d));
    d->nmodes = (uint32_t)t->n;
    d->type = type;
    for (int i = 0; i < t->n; i++) {
        d->extent[i] = t->extent[i];
        d->stride[i] = t->stride[i];
        modes[i] = (int32_t)t->letter[i];
    }
}

trntensorStatus_t trntensorEinsum(const trntensorHandle_t handle, const char *subscripts,
                                  const void *alpha, const trntensorTensorDescriptor_t descA,
                                  const void *A, const trntensorTensorDescriptor_t descB,
                                  const void *B, const void *beta,
                                  const trntensorTensorDescriptor_t descC, void *C,
                                  const trntensorComputeDescriptor_t descCompute) {
    static const char fn[] = "trntensorEinsum";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!subscripts || !alpha || !beta || !descA || !descC || !descCompute)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: subscripts, alpha, beta, descA, descC and descCompute must "
                               "not be NULL",
                               fn);
    char in[2][TRNTENSOR_MAX_MODES + 1], out[TRNTENSOR_MAX_MODES + 1];
    const int nin = split(subscripts, in, 2, out);
    if (nin < 1 || (nin == 2) != (descB != NULL))
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: \"%s\" is not \"<A>[,<B>]->out\" in letters with %s", fn,
                               subscripts, descB ? "two operands" : "one operand");
    term ta, tb, tc;
    trntensorStatus_t st = term_of(in[0], descA, fn, 0, &ta);
    if (st == TRNTENSOR_STATUS_SUCCESS && nin == 2)
        st = term_of(in[1], descB, fn, 1, &tb);
    if (st == TRNTENSOR_STATUS_SUCCESS)
        st = term_of(out, descC, fn, nin, &tc);
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    if (tc.n != (int)strlen(out))
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: the output \"%s\" repeats a subscript",
                               fn, out);
    struct trntensorTensorDescriptor da, db, dc;
    int32_t ma[TRNTENSOR_MAX_MODES], mb[TRNTENSOR_MAX_MODES], mc[TRNTENSOR_MAX_MODES];
    to_desc(&ta, descA->type, &da, ma);
    to_desc(&tc, descC->type, &dc, mc);
    trntensorOperationDescriptor_t op = NULL;
    if (nin == 2) {
        to_desc(&tb, descB->type, &db, mb);
        st = trntensorCreateContraction(handle, &op, &da, ma, TRNTENSOR_OP_IDENTITY, &db, mb,
                                        TRNTENSOR_OP_IDENTITY, &dc, mc, TRNTENSOR_OP_IDENTITY, &dc,
                                        mc, descCompute);
    } else {
        /* Reductions compute in the data type's precision. */
        st = trntensorCreateReduction(handle, &op, &da, ma, TRNTENSOR_OP_IDENTITY, &dc, mc,
                                      TRNTENSOR_OP_IDENTITY, &dc, mc, TRNTENSOR_OP_ADD,
                                      descA->type == TRNSCI_R_64F || descA->type == TRNSCI_C_64F
                                          ? TRNTENSOR_COMPUTE_DESC_64F
                                          : TRNTENSOR_COMPUTE_DESC_32F);
    }
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    trntensorPlan_t plan = NULL;
    st = trntensorCreatePlan(handle, &plan, op, NULL, 0);
    free(op); /* not trntensorDestroyOperationDescriptor: keep the last error */
    if (st != TRNTENSOR_STATUS_SUCCESS)
        return st;
    st = nin == 2
             ? trntensorContract(handle, plan, alpha, A, B, beta, C, C, NULL, 0, handle->stream)
             : trntensorReduce(handle, plan, alpha, A, beta, C, C, NULL, 0, handle->stream);
    /* The queued op holds its own reference to the daemon's plan. */
    trn_tensor_plan_free(plan);
    return st;
}

/* ---- paths ------------------------------------------------------------------------- */

/* A set of letters as a bit set: a-z bits 0-25, A-Z bits 26-51. */
static uint64_t bit_of(char c) {
    return c >= 'a' ? UINT64_C(1) << (c - 'a') : UINT64_C(1) << (26 + c - 'A');
}

typedef struct path_ctx {
    double extent[52];
    uint64_t out;
    int best_path[2 * EINSUM_MAX_OPERANDS];
    double best;
    int path[2 * EINSUM_MAX_OPERANDS];
} path_ctx;

static double volume(const path_ctx *x, uint64_t set) {
    double v = 1.0;
    for (int b = 0; b < 52; b++)
        if (set >> b & 1)
            v *= x->extent[b];
    return v;
}

/* Contracting terms i < j of t[0..n): its cost and result (the letters
 * others or the output still need). */
static uint64_t pair_result(const path_ctx *x, const uint64_t *t, int n, int i, int j) {
    uint64_t keep = x->out;
    for (int k = 0; k < n; k++)
        if (k != i && k != j)
            keep |= t[k];
    return (t[i] | t[j]) & keep;
}

/* Removes i < j from t and appends r. */
static int contract(uint64_t *t, int n, int i, int j, uint64_t r) {
    int w = 0;
    for (int k = 0; k < n; k++)
        if (k != i && k != j)
            t[w++] = t[k];
    t[w++] = r;
    return w;
}

/* Every order, depth first, cutting branches already dearer than the best. */
static void search(path_ctx *x, const uint64_t *t, int n, int step, double cost) {
    if (cost >= x->best)
        return;
    if (n == 1) {
        x->best = cost;
        memcpy(x->best_path, x->path, sizeof(x->path));
        return;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            uint64_t u[EINSUM_MAX_OPERANDS];
            memcpy(u, t, (size_t)n * sizeof(*t));
            const double c = 2.0 * volume(x, t[i] | t[j]);
            const int m = contract(u, n, i, j, pair_result(x, t, n, i, j));
            x->path[2 * step] = i;
            x->path[2 * step + 1] = j;
            search(x, u, m, step + 1, cost + c);
        }
}

trntensorStatus_t trntensorEinsumPath(const char *subscripts, int numOperands,
                                      const trntensorTensorDescriptor_t descs[],
                                      trntensorEinsumPathAlgo_t algo, int32_t path[],
                                      double *flops) {
    static const char fn[] = "trntensorEinsumPath";
    if (!subscripts || !descs || !flops || (numOperands > 1 && !path))
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: an argument is NULL", fn);
    if (numOperands < 1 || numOperands > EINSUM_MAX_OPERANDS)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: numOperands %d is not 1 .. %d", fn,
                               numOperands, EINSUM_MAX_OPERANDS);
    if (algo != TRNTENSOR_EINSUM_PATH_GREEDY && algo != TRNTENSOR_EINSUM_PATH_OPTIMAL)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: algo %d is not GREEDY or OPTIMAL", fn,
                               (int)algo);
    char in[EINSUM_MAX_OPERANDS][TRNTENSOR_MAX_MODES + 1], out[TRNTENSOR_MAX_MODES + 1];
    if (split(subscripts, in, EINSUM_MAX_OPERANDS, out) != numOperands)
        return trn_tensor_fail(trnsciErrorInvalidValue,
                               "%s: \"%s\" is not %d comma-separated terms, \"->\" and an output",
                               fn, subscripts, numOperands);
    path_ctx x = {.best = 1e308};
    for (int b = 0; b < 52; b++)
        x.extent[b] = 1.0;
    uint64_t t[EINSUM_MAX_OPERANDS], all = 0;
    for (int k = 0; k < numOperands; k++) {
        term tk;
        const trntensorStatus_t st = term_of(in[k], descs[k], fn, k, &tk);
        if (st != TRNTENSOR_STATUS_SUCCESS)
            return st;
        t[k] = 0;
        for (int i = 0; i < tk.n; i++) {
            const uint64_t bit = bit_of(tk.letter[i]);
            const int b = __builtin_ctzll(bit);
            if ((all & bit) && x.extent[b] != (double)tk.extent[i])
                return trn_tensor_fail(trnsciErrorInvalidValue,
                                       "%s: subscript '%c' has extents %.0f and %lld", fn,
                                       tk.letter[i], x.extent[b], (long long)tk.extent[i]);
            x.extent[b] = (double)tk.extent[i];
            t[k] |= bit;
            all |= bit;
        }
    }
    for (const char *p = out; *p; p++) {
        if (!(all & bit_of(*p)))
            return trn_tensor_fail(trnsciErrorInvalidValue,
                                   "%s: output subscript '%c' is in no operand", fn, *p);
        x.out |= bit_of(*p);
    }
    if (algo == TRNTENSOR_EINSUM_PATH_OPTIMAL) {
        search(&x, t, numOperands, 0, 0.0);
        *flops = numOperands > 1 ? x.best : 0.0;
        for (int s = 0; s < 2 * (numOperands - 1); s++)
            path[s] = x.best_path[s];
    } else { /* greedy: the cheapest pair next (ties: the first pair) */
        double total = 0.0;
        int n = numOperands;
        for (int step = 0; n > 1; step++) {
            int bi = 0, bj = 1;
            double bc = -1.0;
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) {
                    const double c = 2.0 * volume(&x, t[i] | t[j]);
                    if (bc < 0.0 || c < bc) {
                        bc = c;
                        bi = i;
                        bj = j;
                    }
                }
            path[2 * step] = bi;
            path[2 * step + 1] = bj;
            total += bc;
            n = contract(t, n, bi, bj, pair_result(&x, t, n, bi, bj));
        }
        *flops = total;
    }
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}
