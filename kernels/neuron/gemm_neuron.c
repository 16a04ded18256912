/*
 * gemm_neuron.c — GEMMs on a NeuronCore (gemm_neuron.h).
 *
 * Layouts (program.h): at[b][p][l][i] = op(A)(i,l), b[b][p][l][j] =
 * op(B)(l,j), c and d [b][p][i][j] = C(i,j), planes p = real, imaginary.
 * The packing reads each column-major operand once; what it costs on the
 * host is O(mk + kn + mn) per matrix against the core's O(mnk).
 */
#include "kernels/neuron/gemm_neuron.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trn_ngemm_program(const trn_gemm_desc *d, trn_nprog_gemm *g) {
    memset(g, 0, sizeof(*g));
    /* FP32 data only: 16-bit and int8 storage (an R32F C with narrow A and
     * B included) stays on the CPU backend. */
    if ((d->type != TRN_DTYPE_R32F && d->type != TRN_DTYPE_C32F) || trn_gemm_narrow(d))
        return 0;
    switch (d->compute) {
    case TRN_COMPUTE_DEFAULT:
    case TRN_COMPUTE_32F: g->mode = TRN_NPROG_FP32; break;
    case TRN_COMPUTE_32F_FAST_16BF:
        if (d->stochastic)
            return 0;
        g->mode = TRN_NPROG_BF16;
        break;
    case TRN_COMPUTE_32F_BF16X3: g->mode = TRN_NPROG_BF16X3; break;
    default: return 0;
    }
    const int lists = d->a_list != NULL;
    if (d->m < 1 || d->n < 1 || d->k < 1 || (!lists && (!d->a || !d->b)))
        return 0;
    if (!d->alpha_ptr && d->alpha.re == 0 && d->alpha.im == 0)
        return 0;
    if (d->batch > 0x7fffffff)
        return 0;
    g->complex = d->type == TRN_DTYPE_C32F;
    g->m = d->m;
    g->n = d->n;
    g->k = d->k;
    g->batch = d->batch > 1 ? (int)d->batch : 1;
    return 1;
}

/* Matrix i of a batch operand. */
static const float *nth(const void *base, const void *const *list, size_t stride, size_t i,
                        int planes) {
    if (list)
        return list[i];
    return (const float *)base + i * stride * (size_t)planes;
}

/* op(X)(r, l) of column-major X with leading dimension ld, for trans t:
 * element r + l*ld (N) or l + r*ld (T, C); imaginary part negated for C. */
static void element(const float *x, int ld, trn_trans t, int cplx, size_t r, size_t l, float *re,
                    float *im) {
    const size_t at = t == TRN_TRANS_N ? r + l * (size_t)ld : l + r * (size_t)ld;
    if (!cplx) {
        *re = x[at];
        *im = 0;
        return;
    }
    *re = x[2 * at];
    *im = t == TRN_TRANS_C ? -x[2 * at + 1] : x[2 * at + 1];
}

/* out[p][l][i] = op(X)(i, l) for an m×k op(X) (the "at" layout); the "b"
 * layout is the same with (rows, cols) = (n, k) and op(X)^T: callers pass
 * the transposition that gives it. */
static void pack_transposed(float *out, const float *x, int ld, trn_trans t, int cplx, size_t rows,
                            size_t cols, int swap) {
    const size_t plane = rows * cols;
    for (size_t l = 0; l < cols; l++)
        for (size_t i = 0; i < rows; i++) {
            float re, im;
            if (swap)
                element(x, ld, t, cplx, l, i, &re, &im);
            else
                element(x, ld, t, cplx, i, l, &re, &im);
            out[l * rows + i] = re;
            if (cplx)
                out[plane + l * rows + i] = im;
        }
}

/* c layout [p][i][j] from column-major C (m×n), or back when out_to_c. */
static void pack_c(float *buf, float *c, int ldc, int cplx, size_t m, size_t n, int to_c) {
    const size_t plane = m * n;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m; i++) {
            const size_t e = i + j * (size_t)ldc, p = i * n + j;
            if (to_c) {
                if (cplx) {
                    c[2 * e] = buf[p];
                    c[2 * e + 1] = buf[plane + p];
                } else {
                    c[e] = buf[p];
                }
            } else if (cplx) {
                buf[p] = c[2 * e];
                buf[plane + p] = c[2 * e + 1];
            } else {
                buf[p] = c[e];
            }
        }
}

/* alpha and beta as the op has them (device pointer mode reads them now). */
static void scalars(const trn_gemm_desc *d, float s[4]) {
    trn_scalar a = d->alpha, b = d->beta;
    const int cplx = d->type == TRN_DTYPE_C32F;
    if (d->alpha_ptr) {
        const float *p = d->alpha_ptr;
        a.re = p[0];
        a.im = cplx ? p[1] : 0;
    }
    if (d->beta_ptr) {
        const float *p = d->beta_ptr;
        b.re = p[0];
        b.im = cplx ? p[1] : 0;
    }
    if (cplx) {
        s[0] = (float)a.re, s[1] = (float)a.im, s[2] = (float)b.re, s[3] = (float)b.im;
    } else {
        s[0] = (float)a.re, s[1] = (float)b.re, s[2] = s[3] = 0;
    }
}

/* Writes n bytes of host to the tensor called name. */
static int put(const trn_nrt_api *api, trn_nc_loaded *ld, const char *name, int index,
               const void *host, size_t n, char *msg, size_t msglen) {
    size_t size = 0;
    trn_nrt_tensor *t = trn_nc_port(ld, name, 0, index, &size);
    if (!t || size != n) {
        snprintf(msg, msglen, "the program's tensor %s is missing or of %zu bytes, not %zu", name,
                 size, n);
        return -1;
    }
    const trn_nrt_status st = api->tensor_write(t, host, 0, n);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_tensor_write", st, msg, msglen);
        return -1;
    }
    return 0;
}

trn_kstatus trn_ngemm_run(const trn_nrt_api *api, trn_nc_loaded *ld, const trn_gemm_desc *d,
                          const trn_nprog_gemm *g, char *msg, size_t msglen) {
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(g);
    const int cplx = g->complex, planes = cplx ? 2 : 1;
    const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
    float s[4];
    scalars(d, s);
    const int read_c = s[cplx ? 2 : 1] != 0 || (cplx && s[3] != 0);
    float *stage =
        malloc(by.at > by.b ? (by.at > by.c ? by.at : by.c) : (by.b > by.c ? by.b : by.c));
    if (!stage) {
        snprintf(msg, msglen, "out of host memory staging a GEMM of %dx%dx%d", g->m, g->n, g->k);
        return TRN_KSTATUS_NO_MEMORY;
    }
    trn_kstatus k_st = TRN_KSTATUS_FAILED;
    const size_t per_a = m * k * (size_t)planes, per_b = k * n * (size_t)planes,
                 per_c = m * n * (size_t)planes;
    for (size_t i = 0; i < (size_t)g->batch; i++)
        pack_transposed(stage + i * per_a,
                        nth(d->a, (const void *const *)d->a_list, d->stride_a, i, planes), d->lda,
                        d->transa, cplx, m, k, 0);
    if (put(api, ld, "at", 0, stage, by.at, msg, msglen) != 0)
        goto out;
    /* b[l][j] = op(B)(l, j): rows = n (j), cols = k (l), element (l, j). */
    for (size_t i = 0; i < (size_t)g->batch; i++)
        pack_transposed(stage + i * per_b,
                        nth(d->b, (const void *const *)d->b_list, d->stride_b, i, planes), d->ldb,
                        d->transb, cplx, n, k, 1);
    if (put(api, ld, "b", 1, stage, by.b, msg, msglen) != 0)
        goto out;
    if (read_c) {
        for (size_t i = 0; i < (size_t)g->batch; i++) {
            float *c = d->c_list ? d->c_list[i] : (float *)d->c + i * d->stride_c * (size_t)planes;
            pack_c(stage + i * per_c, c, d->ldc, cplx, m, n, 0);
        }
        if (put(api, ld, "c", 2, stage, by.c, msg, msglen) != 0)
            goto out;
    }
    if (put(api, ld, "scal", 3, s, by.scal, msg, msglen) != 0)
        goto out;
    trn_nrt_status st = api->execute(ld->model, ld->in, ld->out);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_execute", st, msg, msglen);
        goto out;
    }
    size_t dsize = 0;
    trn_nrt_tensor *dt = trn_nc_port(ld, "d", 1, 0, &dsize);
    st = dt && dsize == by.c ? api->tensor_read(dt, stage, 0, by.c) : TRN_NRT_INVALID;
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_tensor_read of the result", st, msg, msglen);
        goto out;
    }
    for (size_t i = 0; i < (size_t)g->batch; i++) {
        float *c = d->c_list ? d->c_list[i] : (float *)d->c + i * d->stride_c * (size_t)planes;
        pack_c(stage + i * per_c, c, d->ldc, cplx, m, n, 1);
    }
    k_st = TRN_KSTATUS_OK;
out:
    free(stage);
    return k_st;
}
