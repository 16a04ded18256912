/*
 * solver_kpar.c — the steps of a Krylov solve run over every core
 * (ops/solver_kpar.h): which solves, the row blocks, the scratch layout,
 * the step descriptors and their costs. Pure functions of the descriptors.
 */
#include "ops/solver_kpar.h"

int trn_kpar_fn(trn_solver_fn fn) {
    return fn == TRN_SOLVER_KPAR_SETUP || fn == TRN_SOLVER_KPAR_APPLY ||
           fn == TRN_SOLVER_KPAR_UPDATE || (fn != TRN_SOLVER_BICGSTAB && trn_kpar_bicg(fn)) ||
           fn == TRN_SOLVER_KGM_SETUP || fn == TRN_SOLVER_KGM_STEP;
}

int trn_kpar_gmres(trn_solver_fn fn) {
    return fn == TRN_SOLVER_GMRES || fn == TRN_SOLVER_KGM_SETUP || fn == TRN_SOLVER_KGM_STEP;
}

int trn_kpar_bicg(trn_solver_fn fn) {
    return fn == TRN_SOLVER_BICGSTAB || fn == TRN_SOLVER_KBI_SETUP || fn == TRN_SOLVER_KBI_DIR ||
           fn == TRN_SOLVER_KBI_APPLY || fn == TRN_SOLVER_KBI_HALF || fn == TRN_SOLVER_KBI_UPDATE;
}

int trn_kpar_nsteps(const trn_solver_krylov_desc *d) {
    return trn_kpar_bicg(d->fn)    ? TRN_KBI_STEPS
           : trn_kpar_gmres(d->fn) ? TRN_KGM_STEPS
                                   : TRN_KPAR_STEPS;
}

int trn_kpar_loop_first(const trn_solver_krylov_desc *d) {
    return trn_kpar_bicg(d->fn)    ? TRN_KBI_LOOP_FIRST
           : trn_kpar_gmres(d->fn) ? TRN_KGM_LOOP_FIRST
                                   : TRN_KPAR_LOOP_FIRST;
}

int trn_kpar_loop_last(const trn_solver_krylov_desc *d) {
    return trn_kpar_bicg(d->fn)    ? TRN_KBI_LOOP_LAST
           : trn_kpar_gmres(d->fn) ? TRN_KGM_LOOP_LAST
                                   : TRN_KPAR_LOOP_LAST;
}

/* A GMRES's restart as the kernels take it (at least 1). */
static int64_t restart_of(const trn_solver_krylov_desc *d) {
    return d->restart < 1 ? 1 : d->restart;
}

/* Stored elements of the operator. */
static double elements(const trn_solver_krylov_desc *d) {
    if (d->op.kind == TRN_LINOP_SPARSE)
        return (double)d->op.sp.nnz * (double)d->op.sp.rb * (double)d->op.sp.cb;
    return (double)d->op.n * (double)d->op.n;
}

int64_t trn_kpar_block(int64_t n) {
    int64_t b = (n / 64 + 511) / 512 * 512;
    return b < 512 ? 512 : b > 8192 ? 8192 : b;
}

int64_t trn_kpar_nblocks(int64_t n) {
    const int64_t b = trn_kpar_block(n);
    return (n + b - 1) / b;
}

void trn_kpar_shard_blocks(int64_t nblk, int shard, int nshards, int64_t *lo, int64_t *hi) {
    if (nshards < 1)
        nshards = 1;
    *lo = nblk * shard / nshards;
    *hi = nblk * (shard + 1) / nshards;
}

int trn_kpar_eligible(const trn_solver_krylov_desc *d) {
    if ((d->fn != TRN_SOLVER_CG && d->fn != TRN_SOLVER_BICGSTAB && d->fn != TRN_SOLVER_GMRES) ||
        (d->type != TRN_DTYPE_R32F && d->type != TRN_DTYPE_R64F))
        return 0;
    if (d->fn == TRN_SOLVER_GMRES && d->restart > TRN_KGM_MAX_RESTART)
        return 0;
    if (d->precond != TRN_PRECOND_NONE && d->precond != TRN_PRECOND_JACOBI)
        return 0;
    if (d->op.kind == TRN_LINOP_SPARSE && d->op.sp.format != TRN_SP_CSR &&
        d->op.sp.format != TRN_SP_BSR)
        return 0;
    return trn_kpar_nblocks(d->op.n) >= 2 && elements(d) >= (double)TRN_KPAR_MIN_ELEMS;
}

/* Appends `bytes` at *at, 64-byte aligned; returns its offset, or sets *bad. */
static size_t put(size_t *at, size_t count, size_t size, int *bad) {
    const size_t off = *at;
    size_t bytes = 0;
    if (__builtin_mul_overflow(count, size, &bytes) || __builtin_add_overflow(off, bytes, at) ||
        __builtin_add_overflow(*at, (size_t)63, at))
        *bad = 1;
    *at &= ~(size_t)63;
    return off;
}

int trn_kpar_layout_of(const trn_solver_krylov_desc *d, trn_kpar_layout *l) {
    const size_t n = (size_t)d->op.n, es = trn_dtype_size(d->type);
    const size_t nblk = (size_t)trn_kpar_nblocks(d->op.n);
    int bad = 0;
    size_t at = TRN_KPAR_HEADER;
    *l = (trn_kpar_layout){.nblk = (int64_t)nblk};
    const int jac = d->precond == TRN_PRECOND_JACOBI;
    l->rr = put(&at, nblk, sizeof(double), &bad);
    l->rt = put(&at, nblk, sizeof(double), &bad);
    if (trn_kpar_gmres(d->fn)) {
        const size_t m = (size_t)restart_of(d);
        l->ldv = (int64_t)((n + 7) & ~(size_t)7); /* 64-byte aligned columns */
        l->h1 = put(&at, (m + 1) * nblk, sizeof(double), &bad);
        l->h2 = put(&at, (m + 1) * nblk, sizeof(double), &bad);
        l->ww1 = put(&at, nblk, sizeof(double), &bad);
        l->ww = put(&at, nblk, sizeof(double), &bad);
        l->hraw = put(&at, (m + 1) * m, sizeof(double), &bad);
        l->rfac = put(&at, (m + 1) * m, sizeof(double), &bad);
        l->cs = put(&at, m, sizeof(double), &bad);
        l->sn = put(&at, m, sizeof(double), &bad);
        l->g = put(&at, 2 * (m + 1), sizeof(double), &bad);
        size_t vcount = 0;
        if (__builtin_mul_overflow((size_t)l->ldv, m + 1, &vcount))
            bad = 1;
        l->vb = put(&at, vcount, es, &bad);
        l->r = l->vb;
        l->z = put(&at, n, es, &bad);
    } else if (trn_kpar_bicg(d->fn)) {
        l->rt2 = put(&at, nblk, sizeof(double), &bad);
        l->rho = put(&at, nblk, sizeof(double), &bad);
        l->rv = put(&at, nblk, sizeof(double), &bad);
        l->ss = put(&at, nblk, sizeof(double), &bad);
        l->tt = put(&at, nblk, sizeof(double), &bad);
        l->ts = put(&at, nblk, sizeof(double), &bad);
        l->r = put(&at, n, es, &bad);
        l->r0 = put(&at, n, es, &bad);
        l->p = put(&at, n, es, &bad);
        l->v = put(&at, n, es, &bad);
        l->t = put(&at, n, es, &bad);
        l->ph = jac ? put(&at, n, es, &bad) : l->p;
        l->sh = jac ? put(&at, n, es, &bad) : l->r;
    } else {
        l->pq = put(&at, nblk, sizeof(double), &bad);
        l->rz = put(&at, nblk, sizeof(double), &bad);
        l->r = put(&at, n, es, &bad);
        l->z = jac ? put(&at, n, es, &bad) : l->r;
        l->p = put(&at, n, es, &bad);
        l->q = put(&at, n, es, &bad);
    }
    l->dinv = jac ? put(&at, n, es, &bad) : 0;
    if (d->op.kind == TRN_LINOP_SPARSE) {
        /* The larger of the checked CSR copy (row offsets, columns,
         * values) and its diagonal form (at most 16 offsets and twice the
         * entries: solver_csr.c), each part 64-byte aligned. */
        const size_t cap = (size_t)d->op.sp.nnz * (size_t)d->op.sp.rb * (size_t)d->op.sp.cb;
        size_t csr = 0, dia = 0;
        (void)put(&csr, n + 1, sizeof(int64_t), &bad);
        (void)put(&csr, cap, sizeof(int32_t), &bad);
        (void)put(&csr, cap, es, &bad);
        (void)put(&dia, 16, sizeof(int64_t), &bad);
        (void)put(&dia, cap, 2 * es, &bad);
        l->opx_bytes = csr > dia ? csr : dia;
        l->opx = put(&at, l->opx_bytes, 1, &bad);
    }
    l->total = at;
    return bad ? -1 : 0;
}

trn_solver_krylov_desc trn_kpar_step(const trn_solver_krylov_desc *whole, int s, void *scratch,
                                     size_t bytes) {
    static const trn_solver_fn bi[TRN_KBI_STEPS] = {TRN_SOLVER_KBI_SETUP, TRN_SOLVER_KBI_DIR,
                                                    TRN_SOLVER_KBI_APPLY, TRN_SOLVER_KBI_HALF,
                                                    TRN_SOLVER_KBI_APPLY, TRN_SOLVER_KBI_UPDATE};
    trn_solver_krylov_desc d = *whole;
    if (trn_kpar_gmres(whole->fn))
        d.fn = s == 0 ? TRN_SOLVER_KGM_SETUP : TRN_SOLVER_KGM_STEP;
    else if (trn_kpar_bicg(whole->fn))
        d.fn = bi[s < 0 ? 0 : s >= TRN_KBI_STEPS ? TRN_KBI_STEPS - 1 : s];
    else
        d.fn = s == 0   ? TRN_SOLVER_KPAR_SETUP
               : s == 1 ? TRN_SOLVER_KPAR_APPLY
                        : TRN_SOLVER_KPAR_UPDATE;
    d.krylov_step = s;
    d.krylov_scratch = scratch;
    d.krylov_scratch_bytes = bytes;
    return d;
}

double trn_kpar_step_cost(const trn_solver_krylov_desc *d) {
    const double n = d->op.n;
    switch (d->fn) {
    case TRN_SOLVER_KPAR_SETUP: return 3.0 * elements(d) + 4.0 * n;
    case TRN_SOLVER_KPAR_APPLY: return 2.0 * elements(d) + 6.0 * n;
    case TRN_SOLVER_KPAR_UPDATE: return 8.0 * n;
    /* BiCGStab: the setup also takes r = b - A x; a product step its
     * partials; the others a few vectors each. */
    case TRN_SOLVER_KBI_SETUP: return 5.0 * elements(d) + 6.0 * n;
    case TRN_SOLVER_KBI_APPLY: return 2.0 * elements(d) + 6.0 * n;
    case TRN_SOLVER_KBI_DIR: return 6.0 * n;
    case TRN_SOLVER_KBI_HALF: return 6.0 * n;
    case TRN_SOLVER_KBI_UPDATE: return 12.0 * n;
    /* GMRES: a step is a product or a Gram-Schmidt pass against, on
     * average, half the basis. */
    case TRN_SOLVER_KGM_SETUP: return 3.0 * elements(d) + 4.0 * n;
    case TRN_SOLVER_KGM_STEP: return 2.0 * elements(d) + 2.0 * (double)(restart_of(d) + 4) * n;
    default: return 0.0;
    }
}

double trn_kpar_step_shards(const trn_solver_krylov_desc *d) {
    return d->fn == TRN_SOLVER_KPAR_SETUP || d->fn == TRN_SOLVER_KBI_SETUP ||
                   d->fn == TRN_SOLVER_KGM_SETUP
               ? 1.0
               : (double)trn_kpar_nblocks(d->op.n);
}
