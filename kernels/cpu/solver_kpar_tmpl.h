/*
 * solver_kpar_tmpl.h — the steps of a CG and of a BiCGStab over every core
 * (a GMRES's: solver_kgm_tmpl.h, included from here)
 * for one working precision; included by solver_kpar.c with these macros defined:
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

static void KP(kpar_residual)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                              const trn_csr *c, double *part, int64_t b0, int64_t b1);

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
    if (trn_kpar_bicg(d->fn)) {
        /* The one-kernel BiCGStab's start: r = b - A x, then the decision
         * (DIR: converged, or r^ = r and the first direction), in the
         * blocks' order of any step. */
        const trn_csr c = d->op.kind == TRN_LINOP_SPARSE ? op_view(l, base, st, n) : (trn_csr){0};
        KP(kpar_residual)(d, l, &c, (double *)(base + l->rt), 0, l->nblk);
        st->rec[TRN_KBI_LOOP_LAST] =
            (kbi_rec){.mode = isfinite(st->bn) ? B_DECIDE : B_END, .st = TRN_SOLVER_ST_NONFINITE};
    }
    if (trn_kpar_gmres(d->fn)) /* the first looped step takes r = b - A x */
        st->grec[TRN_KGM_LOOP_LAST] = (kgm_rec){.mode = G_RES};
    return TRN_KSTATUS_OK;
}

/* r = b - A x on blocks [b0, b1) and their partials r . r (CG's APPLY and
 * BiCGStab's steps when they look at the true residual). */
static void KP(kpar_residual)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                              const trn_csr *c, double *part, int64_t b0, int64_t b1) {
    char *base = d->krylov_scratch;
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    KT *r = (KT *)(base + l->r);
    const KT *b = d->b, *x = d->x;
    KT w[KPCHUNK];
    for (int64_t k = b0; k < b1; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        KACC acc;
        memset(&acc, 0, sizeof(acc));
        for (int64_t c0 = lo; c0 < hi; c0 += KPCHUNK) {
            const int64_t c1 = hi - c0 < KPCHUNK ? hi : c0 + KPCHUNK;
            KP(rows)(d, c, x, w, c0, c1);
            for (int64_t i = 0; i < c1 - c0; i++)
                r[c0 + i] = b[c0 + i] - w[i];
            KACC_ADD(&acc, (int)(c1 - c0), r + c0, r + c0);
        }
        part[k] = KACC_FIN(&acc);
    }
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
    KT *p = (KT *)(base + l->p), *q = (KT *)(base + l->q);
    const KT *z = (const KT *)(base + l->z);
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
    if (true_res)
        KP(kpar_residual)(d, l, &c, rt, b0, b1);
    for (int64_t k = b0; k < b1 && !true_res; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        KACC acc;
        memset(&acc, 0, sizeof(acc));
        for (int64_t c0 = lo; c0 < hi; c0 += KPCHUNK) {
            const int64_t c1 = hi - c0 < KPCHUNK ? hi : c0 + KPCHUNK;
            KT *pp = p + c0, *qq = q + c0;
            const KT *zz = z + c0;
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
        pq[k] = KACC_FIN(&acc);
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

/* ---- BiCGStab ---------------------------------------------------------- */

/* y = A v on blocks [b0, b1), with the partials y . u (and y . y when yy). */
static void KP(kbi_prod)(const trn_solver_krylov_desc *d, const trn_csr *c, const KT *v, KT *y,
                         const KT *u, double *yu, double *yy, int64_t b0, int64_t b1) {
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    for (int64_t k = b0; k < b1; k++) {
        const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
        KACC au, ay;
        memset(&au, 0, sizeof(au));
        memset(&ay, 0, sizeof(ay));
        for (int64_t c0 = lo; c0 < hi; c0 += KPCHUNK) {
            const int64_t c1 = hi - c0 < KPCHUNK ? hi : c0 + KPCHUNK;
            KP(rows)(d, c, v, y + c0, c0, c1);
            if (yy)
                KACC_ADD(&ay, (int)(c1 - c0), y + c0, y + c0);
            KACC_ADD(&au, (int)(c1 - c0), y + c0, u + c0);
        }
        yu[k] = KACC_FIN(&au);
        if (yy)
            yy[k] = KACC_FIN(&ay);
    }
}

/* One looped BiCGStab step (DIR, APPLY, HALF, APPLY or UPDATE). Every task
 * reads the previous step's record and partials, takes the same decision
 * (the one-kernel BiCGStab's, in its order: solver_krylov_tmpl.h), works
 * on its blocks, and the task of block 0 writes this step's record. */
static trn_kstatus KP(kbi_step)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                int shard, int nshards) {
    char *base = d->krylov_scratch;
    kpar_state *st = (kpar_state *)base;
    const int64_t n = d->op.n, B = trn_kpar_block(n);
    const int me = d->krylov_step < TRN_KBI_LOOP_FIRST || d->krylov_step > TRN_KBI_LOOP_LAST
                       ? TRN_KBI_LOOP_FIRST
                       : d->krylov_step;
    kbi_rec rc = st->rec[me == TRN_KBI_LOOP_FIRST ? TRN_KBI_LOOP_LAST : me - 1];
    const double bn = st->bn, tol = d->tol;
    const double *pt = (const double *)(base + (rc.tsel ? l->rt2 : l->rt));
    double *pt_next = (double *)(base + (rc.tsel ? l->rt : l->rt2));
    const int jac = d->precond == TRN_PRECOND_JACOBI;
    KT *x = d->x, *r = (KT *)(base + l->r), *r0 = (KT *)(base + l->r0), *p = (KT *)(base + l->p);
    KT *v = (KT *)(base + l->v), *t = (KT *)(base + l->t), *ph = (KT *)(base + l->ph);
    KT *sh = (KT *)(base + l->sh);
    const KT *dinv = (const KT *)(base + l->dinv);
    int64_t b0, b1;
    trn_kpar_shard_blocks(l->nblk, shard, nshards, &b0, &b1);
    if (rc.mode == B_END || rc.mode == B_DECIDE) {
        /* The one-kernel solve's final(): the status from the recomputed
         * residual; or, after a convergence the recurrence claimed, the
         * restart from the true residual (r^ = r, rho = alpha = omega = 1,
         * p = v = 0). */
        const double relres = sqrt(sum_blocks(pt, l->nblk)) / bn;
        if (rc.mode == B_END || relres <= tol)
            return kpar_finish(d, shard, rc.it, rc.mode == B_END ? rc.st : TRN_SOLVER_ST_CONVERGED,
                               relres);
        for (int64_t k = b0; k < b1; k++) {
            const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
            memcpy(r0 + lo, r + lo, (size_t)(hi - lo) * sizeof(KT));
        }
        rc.mode = B_RESTART;
        rc.rho = rc.alpha = rc.omega = 1.0;
    }
    int act = KB_NONE, fresh = 0, top = 0;
    double beta = 0.0;
    switch (rc.mode) {
    case B_RES:
        act = KB_RES;
        rc.mode = B_DECIDE;
        break;
    case B_RESTART:
        if (d->fn == TRN_SOLVER_KBI_DIR)
            top = fresh = 1;
        break;
    case B_CHECK: {
        const double rn = sqrt(sum_blocks((const double *)(base + l->rr), l->nblk));
        if (!isfinite(rn)) {
            act = KB_RES;
            rc.mode = B_END;
            rc.st = TRN_SOLVER_ST_NONFINITE;
        } else if (rn / bn <= tol) {
            act = KB_RES; /* the recurrence may have drifted: look at the true one */
            rc.mode = B_DECIDE;
        } else {
            top = 1;
        }
        break;
    }
    case B_PROD_V:
        act = KB_V;
        rc.mode = B_ALPHA;
        break;
    case B_ALPHA: {
        const double r0v = sum_blocks((const double *)(base + l->rv), l->nblk);
        if (r0v == 0.0 || !isfinite(r0v)) {
            act = KB_RES;
            rc.mode = B_END;
            rc.st = isfinite(r0v) ? TRN_SOLVER_ST_BREAKDOWN : TRN_SOLVER_ST_NONFINITE;
        } else {
            act = KB_S;
            rc.alpha = rc.rho_new / r0v;
            rc.it++;
            rc.mode = B_TEE;
        }
        break;
    }
    case B_TEE: {
        const double sn = sqrt(sum_blocks((const double *)(base + l->ss), l->nblk));
        if (sn / bn <= tol) {
            act = KB_XS; /* x += alpha p^; the next step takes b - A x */
            rc.mode = B_RES;
        } else {
            act = KB_T;
            rc.mode = B_OMEGA;
        }
        break;
    }
    case B_OMEGA: {
        const double tt = sum_blocks((const double *)(base + l->tt), l->nblk);
        const double ts = sum_blocks((const double *)(base + l->ts), l->nblk);
        if (!isfinite(tt) || !isfinite(ts)) {
            act = KB_RES;
            rc.mode = B_END;
            rc.st = TRN_SOLVER_ST_NONFINITE;
        } else if (tt == 0.0) {
            act = KB_RES;
            rc.mode = B_END;
            rc.st = TRN_SOLVER_ST_BREAKDOWN;
        } else {
            act = KB_X;
            rc.omega = ts / tt;
            rc.rho = rc.rho_new;
            rc.mode = B_CHECK;
        }
        break;
    }
    default: /* a mode no step writes: end rather than loop */
        act = KB_RES;
        rc.mode = B_END;
        rc.st = TRN_SOLVER_ST_NONFINITE;
        break;
    }
    if (top) { /* the top of the one-kernel loop */
        const double rho_new = sum_blocks(fresh ? pt : (const double *)(base + l->rho), l->nblk);
        int bad = 0;
        if (rc.it >= d->max_iters)
            bad = TRN_SOLVER_ST_MAX_ITERS;
        else if (!isfinite(rho_new))
            bad = TRN_SOLVER_ST_NONFINITE;
        else if (rho_new == 0.0 || rc.omega == 0.0)
            bad = TRN_SOLVER_ST_BREAKDOWN;
        if (bad) {
            act = KB_RES;
            rc.mode = B_END;
            rc.st = bad;
        } else {
            /* Fresh: p = v = 0, so p = r + beta (0 - omega 0) = r. */
            beta = (rho_new / rc.rho) * (rc.alpha / rc.omega);
            act = fresh ? KB_FRESH : KB_DIR;
            rc.rho_new = rho_new;
            rc.mode = B_PROD_V;
        }
    }
    const trn_csr c =
        (act == KB_RES || act == KB_V || act == KB_T) && d->op.kind == TRN_LINOP_SPARSE
            ? op_view(l, base, st, (int)n)
            : (trn_csr){0};
    const KT alpha = (KT)rc.alpha, omega = (KT)rc.omega;
    switch (act) {
    case KB_RES:
        KP(kpar_residual)(d, l, &c, pt_next, b0, b1);
        rc.tsel = !rc.tsel;
        break;
    case KB_V: KP(kbi_prod)(d, &c, ph, v, r0, (double *)(base + l->rv), NULL, b0, b1); break;
    case KB_T:
        KP(kbi_prod)(d, &c, sh, t, r, (double *)(base + l->ts), (double *)(base + l->tt), b0, b1);
        break;
    default:
        for (int64_t k = b0; k < b1; k++) {
            const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
            switch (act) {
            case KB_FRESH:
            case KB_DIR:
                if (act == KB_FRESH)
                    memcpy(p + lo, r + lo, (size_t)(hi - lo) * sizeof(KT));
                else
                    for (int64_t i = lo; i < hi; i++)
                        p[i] = r[i] + (KT)beta * (p[i] - omega * v[i]);
                if (jac)
                    for (int64_t i = lo; i < hi; i++)
                        ph[i] = p[i] * dinv[i];
                break;
            case KB_S: /* r is now s */
                for (int64_t i = lo; i < hi; i++)
                    r[i] -= alpha * v[i];
                if (jac)
                    for (int64_t i = lo; i < hi; i++)
                        sh[i] = r[i] * dinv[i];
                ((double *)(base + l->ss))[k] = KP(bdot)(r, r, lo, hi);
                break;
            case KB_XS:
                for (int64_t i = lo; i < hi; i++)
                    x[i] += alpha * ph[i];
                break;
            case KB_X:
                for (int64_t i = lo; i < hi; i++) {
                    x[i] += alpha * ph[i] + omega * sh[i];
                    r[i] -= omega * t[i];
                }
                ((double *)(base + l->rr))[k] = KP(bdot)(r, r, lo, hi);
                ((double *)(base + l->rho))[k] = KP(bdot)(r0, r, lo, hi);
                break;
            default: break;
            }
        }
        break;
    }
    if (shard == 0)
        st->rec[me] = rc;
    return TRN_KSTATUS_OK;
}

#include "kernels/cpu/solver_kgm_tmpl.h"

static trn_kstatus KP(kpar_step)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                 trn_kmsg *msg, int shard, int nshards) {
    switch (d->fn) {
    case TRN_SOLVER_KPAR_SETUP:
    case TRN_SOLVER_KBI_SETUP:
    case TRN_SOLVER_KGM_SETUP: return KP(kpar_setup)(d, l, msg);
    case TRN_SOLVER_KGM_STEP: return KP(kgm_step)(d, l, shard, nshards);
    case TRN_SOLVER_KBI_DIR:
    case TRN_SOLVER_KBI_APPLY:
    case TRN_SOLVER_KBI_HALF:
    case TRN_SOLVER_KBI_UPDATE: return KP(kbi_step)(d, l, shard, nshards);
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
