/*
 * solver_bidiag.c — the Householder bidiagonal reduction gebrd and the
 * forming of its Q or P^H, orgbr / ungbr, on the CPU (S, D, C, Z), for the
 * SOLVER_DENSE kind (solver_factor.c dispatches here).
 *
 * gebrd is LAPACK's unblocked gebd2 for m >= n (the only shape cuSOLVER's
 * gebrd takes): the same reflectors, d, e, tauq and taup, stored as
 * LAPACK stores them (P's reflectors conjugated in A's rows for complex
 * types), Level-2 speed. orgbr expands the reflectors into explicit
 * vectors in the worker's workspace and applies them one at a time to the
 * identity's first columns (LAPACK's orgbr cases: m >= k or m < k for Q,
 * k < n or k >= n for P^H), then writes the m x n result over A.
 *
 * Invariants: everything runs on one core; reflector scalars and entries
 * are read from device memory but never used as indices, so whatever the
 * client writes there meanwhile, the kernel stays inside the validated
 * regions (ops/validate/solver.c checks the shapes: m >= n for gebrd,
 * LAPACK's m/n/k rules for orgbr). info is 0 on every run; no workspace
 * fails the op with TRN_KSTATUS_NO_MEMORY and info unwritten.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_bidiag.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define BT float
#define BR float
#define BSUF s
#define BCX 0
#include "kernels/cpu/solver_bidiag_tmpl.h"

#define BT double
#define BR double
#define BSUF d
#define BCX 0
#include "kernels/cpu/solver_bidiag_tmpl.h"

#define BT float complex
#define BR float
#define BSUF c
#define BCX 1
#include "kernels/cpu/solver_bidiag_tmpl.h"

#define BT double complex
#define BR double
#define BSUF z
#define BCX 1
#include "kernels/cpu/solver_bidiag_tmpl.h"

/* Elements of orgbr's workspace: the explicit reflectors, their scalars
 * and the formed rows x cols matrix (solver_bidiag_tmpl.h, orgbr). */
static size_t orgbr_ws(const trn_solver_dense_desc *d) {
    const int left = d->left, m = d->m, n = d->n, k = d->k;
    const size_t rows = (size_t)(left ? m : n), cols = (size_t)(left ? n : m);
    const int shift = left ? (m >= k ? 0 : 1) : (k < n ? 0 : 1);
    const int nr = shift ? (int)rows - 1 : k;
    const size_t nref = nr > 0 ? (size_t)nr : 0;
    return rows * nref + nref + rows * cols;
}

trn_kstatus trn_cpu_solver_bidiag(const trn_solver_dense_desc *d, trn_kmsg *msg, int *info) {
    const trn_dtype t = d->type;
    *info = 0;
    if (d->m == 0 || d->n == 0)
        return TRN_KSTATUS_OK;
    if (d->fn == TRN_SOLVER_GEBRD) {
        switch (t) {
        case TRN_DTYPE_R32F: gebrd_s(d->m, d->n, d->a, d->lda, d->d, d->e, d->tau, d->taup); break;
        case TRN_DTYPE_R64F: gebrd_d(d->m, d->n, d->a, d->lda, d->d, d->e, d->tau, d->taup); break;
        case TRN_DTYPE_C32F: gebrd_c(d->m, d->n, d->a, d->lda, d->d, d->e, d->tau, d->taup); break;
        case TRN_DTYPE_C64F:
            gebrd_z(d->m, d->n, d->a, d->lda, d->d, d->e, d->tau, d->taup);
            break;
        TRN_DTYPE_GEMM_ONLY_CASES:
            return TRN_KSTATUS_UNSUPPORTED;
        }
        return TRN_KSTATUS_OK;
    }
    if (d->fn != TRN_SOLVER_ORGBR)
        return TRN_KSTATUS_UNSUPPORTED;
    /* Sizes are validated ints, so the element count fits size_t. */
    const size_t bytes = orgbr_ws(d) * trn_dtype_size(t);
    void *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the workspace of %s (m %d, n %d)",
                                  trn_solver_name(d->fn, t), d->m, d->n);
    switch (t) {
    case TRN_DTYPE_R32F: orgbr_s(d->left, d->m, d->n, d->k, d->a, d->lda, d->tau, ws); break;
    case TRN_DTYPE_R64F: orgbr_d(d->left, d->m, d->n, d->k, d->a, d->lda, d->tau, ws); break;
    case TRN_DTYPE_C32F: orgbr_c(d->left, d->m, d->n, d->k, d->a, d->lda, d->tau, ws); break;
    case TRN_DTYPE_C64F:
        orgbr_z(d->left, d->m, d->n, d->k, d->a, d->lda, d->tau, ws);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
    trn_solver_ws_put(ws, bytes);
    return TRN_KSTATUS_OK;
}
