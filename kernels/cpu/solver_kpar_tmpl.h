/*
 * solver_kpar_tmpl.h — the steps of a CG over every core for one working
 * precision; included by solver_kpar.c with these macros defined:
 *   KT     the vector element type (float or double)
 *   KSUF   name suffix (s or d)
 *   KACC, KACC_ADD, KACC_FIN  the accurate inner product in pieces
 *   KGEMV  CBLAS gemv of the type;  KROWS  rows of the CSR product
 *   KPREC  the preconditioner's apply
 * Scalars are doubles in both precisions, as in solver_krylov_tmpl.h. No
 * include guard on purpose (the file undefines its parameters at the end).
 */

#define KPCAT2(a, b) a##_##b
#define KPCAT(a, b) KPCAT2(a, b)
#define KP(name) KPCAT(name, KSUF)
#define KPLIB(name) TRN_LIB(name) /* expands KGEMV before TRN_LIB pastes it */
#ifndef KPCHUNK
#define KPCHUNK 512 /* rows of a product kept in L1: a multiple of 4 dividing the block */
#endif

/* x[lo, hi) . y[lo, hi), accumulated as the one-kernel solver's dots. */
static double KP(bdot)(const KT *x, const KT *y, int64_t lo, int64_t hi) {
    KACC acc;
    memset(&acc, 0, sizeof(acc));
    KACC_ADD(&acc, (int)(hi - lo), x + lo, y + lo);
    return KACC_FIN(&acc);
}

/* Rows [lo, hi) of A v into y[0 .. hi - lo). */
static void KP(rows)(const trn_solver_krylov_desc *d, const trn_csr *c, const KT *v, KT *y,
                     int64_t lo, int64_t hi) {
    if (d->op.kind == TRN_LINOP_SPARSE)
        KROWS(c, v, y, lo, hi);
    else
        KPLIB(KGEMV)
    (CblasColMajor, CblasNoTrans, (int)(hi - lo), d->op.n, (KT)1, (const KT *)d->op.a + lo,
     d->op.lda, v, 1, (KT)0, y, 1);
}

static trn_kstatus KP(kpar_setup)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                  trn_kmsg *msg) {
    char *base = d->krylov_scratch;
    kpar_state *st = (kpar_state *)base;
    const int n = d->op.n;
    const size_t es = sizeof(KT);
    memset(st, 0, sizeof(*st));
    trn_csr *csr = NULL;
    if (d->op.kind == TRN_LINOP_SPARSE) {
        /* Bad structure (the client's input) or no memory, both posted. */
        const int cr = trn_csr_create(&d->op.sp, n, msg, &csr);
        if (cr != 0)
            return cr < 0 ? TRN_KSTATUS_NO_MEMORY : TRN_KSTATUS_FAILED;
        op_store(l, base, st, csr, es);
    }
    if (d->precond == TRN_PRECOND_JACOBI) {
        const trn_kop kop = {&d->op, csr};
        trn_precond *pc = NULL;
        const int pr =
            trn_precond_create(&kop, d->type, d->precond, d->block_size, d->omega, msg, &pc);
        if (pr != 0) {
            trn_csr_free(csr);
            if (pr < 0)
                return TRN_KSTATUS_NO_MEMORY;
            trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_PRECOND, NAN);
            return TRN_KSTATUS_SEQ_DONE; /* a result, like info: x is left as it was */
        }
        /* M^-1 applied to ones: 1 / a_ii, the bits the preconditioner uses. */
        KT *ones = (KT *)(base + l->r);
        for (int i = 0; i < n; i++)
            ones[i] = (KT)1;
        KPREC(pc, ones, (KT *)(base + l->dinv));
        trn_precond_free(pc);
    }
    trn_csr_free(csr);
    const KT *b = d->b;
    double *part = (double *)(base + l->rr);
    const int64_t B = trn_kpar_block(n);
    for (int64_t k = 0; k < l->nblk; k++)
        part[k] = KP(bdot)(b, b, k * B, n - k * B < B ? n : k * B + B);
    st->bn = sqrt(sum_blocks(part, l->nblk));
    if (st->bn == 0.0) { /* x = 0 solves it exactly */
        memset(d->x, 0, (size_t)n * es);
        trn_solver_put_stats(d->stats, 0, TRN_SOLVER_ST_CONVERGED, 0.0);
        return TRN_KSTATUS_SEQ_DONE;
    }
    st->u_mode = isfinite(st->bn) ? U_START : U_FINAL;
    st->u_st = TRN_SOLVER_ST_NONFINITE;
    return TRN_KSTATUS_OK;
}

/* APPLY: a new direction (p, q = A p and the partials p . q), or the true
 * residual r = b - A x (and the partials r . r) when the solve must look at
 * it: at the start, when the recurrence says it converged or ran out of
 * iterations, and after a breakdown. */
static trn_kstatus KP(kpar_apply)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                  int shard, int nshards) {
    char *base = d->krylov_scratch;
    kpar_state *st = (kpar_state *)base;
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    const trn_csr c = d->op.kind == TRN_LINOP_SPARSE ? op_view(l, base, st, (int)n) : (trn_csr){0};
    KT *r = (KT *)(base + l->r), *p = (KT *)(base + l->p), *q = (KT *)(base + l->q);
    const KT *z = (const KT *)(base + l->z), *b = d->b, *x = d->x;
    double *pq = (double *)(base + l->pq), *rt = (double *)(base + l->rt);
    const int it = st->u_it;
    int true_res = 0, fresh = 0, a_st = TRN_SOLVER_ST_MAX_ITERS;
    double beta = 0.0, rz_new = 0.0;
    switch (st->u_mode) {
    case U_START: true_res = 1; break;
    case U_FINAL:
        true_res = 1;
        a_st = st->u_st;
        break;
    case U_RESTART:
        fresh = 1;
        rz_new = sum_blocks((const double *)(base + l->rz), l->nblk);
        break;
    default: {
        const double rr = sum_blocks((const double *)(base + l->rr), l->nblk), rn = sqrt(rr);
        if (!isfinite(rn)) {
            true_res = 1;
            a_st = TRN_SOLVER_ST_NONFINITE;
        } else if (rn / st->bn <= d->tol || it >= d->max_iters) {
            true_res = 1; /* the recurrence may have drifted: look at the true one */
        } else {
            rz_new = d->precond ? sum_blocks((const double *)(base + l->rz), l->nblk) : rr;
            beta = rz_new / st->u_rz;
        }
        break;
    }
    }
    int64_t b0, b1;
    trn_kpar_shard_blocks(l->nblk, shard, nshards, &b0, &b1);
    /* A block in chunks of KPCHUNK rows: the product's rows stay in w (on
     * the stack, in L1) while they are used; each dot is accumulated over
     * the block's chunks in order. */
    KT w[KPCHUNK];
    for (int64_t k = b0; k < b1; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        KACC acc;
        memset(&acc, 0, sizeof(acc));
        for (int64_t c0 = lo; c0 < hi; c0 += KPCHUNK) {
            const int64_t c1 = hi - c0 < KPCHUNK ? hi : c0 + KPCHUNK;
            KT *rr_ = r + c0, *pp = p + c0, *qq = q + c0;
            const KT *zz = z + c0, *bb = b + c0;
            if (true_res) {
                KP(rows)(d, &c, x, w, c0, c1);
                for (int64_t i = 0; i < c1 - c0; i++)
                    rr_[i] = bb[i] - w[i];
                KACC_ADD(&acc, (int)(c1 - c0), rr_, rr_);
                continue;
            }
            KP(rows)(d, &c, z, w, c0, c1);
            if (fresh) {
                memcpy(pp, zz, (size_t)(c1 - c0) * sizeof(KT));
                memcpy(qq, w, (size_t)(c1 - c0) * sizeof(KT));
            } else {
                for (int64_t i = 0; i < c1 - c0; i++) {
                    pp[i] = zz[i] + (KT)beta * pp[i];
                    qq[i] = w[i] + (KT)beta * qq[i];
                }
            }
            KACC_ADD(&acc, (int)(c1 - c0), pp, qq);
        }
        (true_res ? rt : pq)[k] = KACC_FIN(&acc);
    }
    if (shard == 0) {
        st->a_mode = true_res ? A_CHECK : A_DIR;
        st->a_it = it;
        st->a_st = a_st;
        st->a_rz = rz_new;
    }
    return TRN_KSTATUS_OK;
}

/* r . z partials of blocks [b0, b1) (z = M^-1 r computed first). */
static void KP(kpar_precond)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l, int64_t b0,
                             int64_t b1, int with_rr) {
    char *base = d->krylov_scratch;
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    KT *r = (KT *)(base + l->r), *z = (KT *)(base + l->z);
    const KT *dinv = (const KT *)(base + l->dinv);
    double *rr = (double *)(base + l->rr), *rz = (double *)(base + l->rz);
    for (int64_t k = b0; k < b1; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        if (d->precond) {
            for (int64_t i = lo; i < hi; i++)
                z[i] = r[i] * dinv[i];
            rz[k] = KP(bdot)(r, z, lo, hi);
        }
        if (with_rr || !d->precond) {
            const double v = KP(bdot)(r, r, lo, hi);
            if (with_rr)
                rr[k] = v;
            if (!d->precond)
                rz[k] = v;
        }
    }
}

/* UPDATE: the step along p (x, r, z and the partials r . r, r . z), or the
 * decision after a true residual (the end, or residual replacement). */
static trn_kstatus KP(kpar_update)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                   int shard, int nshards) {
    char *base = d->krylov_scratch;
    kpar_state *st = (kpar_state *)base;
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    const int it = st->a_it;
    int64_t b0, b1;
    trn_kpar_shard_blocks(l->nblk, shard, nshards, &b0, &b1);
    if (st->a_mode == A_CHECK) {
        const double rr = sum_blocks((const double *)(base + l->rt), l->nblk);
        const double relres = sqrt(rr) / st->bn;
        int s = st->a_st, done = 1;
        if (!isfinite(relres))
            s = TRN_SOLVER_ST_NONFINITE;
        else if (s == TRN_SOLVER_ST_MAX_ITERS && relres <= d->tol)
            s = TRN_SOLVER_ST_CONVERGED;
        else if (s == TRN_SOLVER_ST_MAX_ITERS && it < d->max_iters)
            done = 0; /* residual replacement: a fresh direction from the true r */
        if (done) {
            if (shard == 0)
                trn_solver_put_stats(d->stats, it, s, relres);
            return TRN_KSTATUS_SEQ_DONE;
        }
        KP(kpar_precond)(d, l, b0, b1, 0);
        if (shard == 0) {
            st->u_mode = U_RESTART;
            st->u_it = it;
        }
        return TRN_KSTATUS_OK;
    }
    const double pqs = sum_blocks((const double *)(base + l->pq), l->nblk), rz = st->a_rz;
    int bad = 0;
    if (!isfinite(pqs) || !isfinite(rz))
        bad = TRN_SOLVER_ST_NONFINITE;
    else if (!(pqs > 0.0) || !(rz > 0.0))
        bad = TRN_SOLVER_ST_BREAKDOWN; /* A or M is not positive definite */
    if (bad) {
        if (shard == 0) {
            st->u_mode = U_FINAL;
            st->u_st = bad;
            st->u_it = it;
        }
        return TRN_KSTATUS_OK;
    }
    const double alpha = rz / pqs;
    KT *x = d->x, *r = (KT *)(base + l->r);
    const KT *p = (const KT *)(base + l->p), *q = (const KT *)(base + l->q);
    for (int64_t k = b0; k < b1; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        for (int64_t i = lo; i < hi; i++) {
            x[i] += (KT)alpha * p[i];
            r[i] -= (KT)alpha * q[i];
        }
    }
    KP(kpar_precond)(d, l, b0, b1, 1);
    if (shard == 0) {
        st->u_mode = U_NORMAL;
        st->u_it = it + 1;
        st->u_rz = rz;
    }
    return TRN_KSTATUS_OK;
}

static trn_kstatus KP(kpar_step)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                 trn_kmsg *msg, int shard, int nshards) {
    switch (d->fn) {
    case TRN_SOLVER_KPAR_SETUP: return KP(kpar_setup)(d, l, msg);
    case TRN_SOLVER_KPAR_APPLY: return KP(kpar_apply)(d, l, shard, nshards);
    default: return KP(kpar_update)(d, l, shard, nshards);
    }
}

#undef KPCAT2
#undef KPCAT
#undef KP
#undef KPLIB
#undef KT
#undef KSUF
#undef KACC
#undef KACC_ADD
#undef KACC_FIN
#undef KGEMV
#undef KROWS
#undef KPREC
