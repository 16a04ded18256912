/*
 * solver_kgm_tmpl.h — the looped step of a GMRES(m) run over every core
 * (ops/solver_kpar.h says what PROD, PASS1, PASS2, RES and DECIDE do) for
 * one working precision; included by solver_kpar_tmpl.h, whose macros and
 * helpers (bdot, rows, kpar_residual) it uses. No include guard on purpose.
 *
 * The method is the one-kernel GMRES's (solver_krylov_tmpl.h): right
 * preconditioning, x += M^-1 V y at the end of each cycle, Givens
 * rotations on the Hessenberg columns, the same stopping rules and the
 * same breakdown test; only the Gram-Schmidt differs (classical, with a
 * second pass when needed, where the one kernel's is modified), so the
 * iterates agree to rounding, not bitwise.
 *
 * Who writes what (no task reads what another task of its step writes):
 *  - a task writes the rows of its own blocks of V, z and x, and the
 *    per-block partials of its blocks, each into an array its step does
 *    not read;
 *  - only v_j's and v_{j+1}'s rows of its blocks are read by the passes,
 *    and z (all rows) only by PROD's product, written by the step before;
 *  - the task of block 0 writes the small arrays: the raw column j (PASS1
 *    or PASS2), the rotated column j - 1 of R, cs[j - 1], sn[j - 1] and
 *    the new g (PROD; g into the copy the step did not read), each read
 *    by later steps only; every task computes the same values itself from
 *    the partials, summed in block order.
 */

/* Column c of an (m + 1)-row array of doubles in the scratch. */
#define KGM_COL(base, off, m, c) ((double *)((base) + (off)) + (size_t)(c) * (size_t)((m) + 1))

/* The sums of the j + 1 partial arrays at off (v_i . w, i = 0 .. j), in
 * block order, into h. */
static void KP(kgm_sums)(const char *base, size_t off, int64_t nblk, int j, double *h) {
    const double *p = (const double *)(base + off);
    for (int i = 0; i <= j; i++)
        h[i] = sum_blocks(p + (size_t)i * (size_t)nblk, nblk);
}

/* The partials v_i . w over block k (i = 0 .. j) into the array at off.
 * Double: one gemv (V's block transposed times w's), the speed of the
 * memory; a Gram-Schmidt coefficient needs no more than working accuracy
 * (a second pass mends what the first leaves). Single: each dot in double
 * (products exact), as the one-kernel solve's: a float accumulation over
 * a block would lose ~sqrt(block) u_32. */
static void KP(kgm_dots)(char *base, size_t off, int64_t nblk, const KT *V, int64_t ldv, int j,
                         const KT *w, int64_t k, int64_t lo, int64_t hi) {
    double *p = (double *)(base + off);
#if KGM_GEMV_DOTS
    double h[TRN_KGM_MAX_RESTART + 1];
    KPLIB(KGEMV)
    (CblasColMajor, CblasTrans, (int)(hi - lo), j + 1, (KT)1, V + lo, (int)ldv, w + lo, 1, (KT)0, h,
     1);
    for (int i = 0; i <= j; i++)
        p[(size_t)i * (size_t)nblk + (size_t)k] = h[i];
#else
    for (int i = 0; i <= j; i++)
        p[(size_t)i * (size_t)nblk + (size_t)k] = KP(bdot)(V + (size_t)i * (size_t)ldv, w, lo, hi);
#endif
}

/* w -= V h on rows [lo, hi) (one gemv). */
static void KP(kgm_sub)(const KT *V, int64_t ldv, int j, const double *h, KT *w, int64_t lo,
                        int64_t hi) {
    KT hk[TRN_KGM_MAX_RESTART + 1];
    for (int i = 0; i <= j; i++)
        hk[i] = (KT)h[i];
    KPLIB(KGEMV)
    (CblasColMajor, CblasNoTrans, (int)(hi - lo), j + 1, (KT)-1, V + lo, (int)ldv, hk, 1, (KT)1,
     w + lo, 1);
}

/* z = M^-1 w on rows [lo, hi) (a copy without a preconditioner). */
static void KP(kgm_prec)(const KT *dinv, const KT *w, KT *z, int64_t lo, int64_t hi) {
    if (dinv)
        for (int64_t r = lo; r < hi; r++)
            z[r] = w[r] * dinv[r];
    else
        memcpy(z + lo, w + lo, (size_t)(hi - lo) * sizeof(KT));
}

/* The Hessenberg column c (raw, with h_{c+1,c} = hn) through the rotations
 * 0 .. c - 1 and a new one that zeroes its subdiagonal; g (the copy
 * read, 0 .. c) updated to 0 .. c + 1. All in col, cs_c, sn_c and g. */
static void KP(kgm_rotate)(const double *raw, int c, double hn, const double *cs, const double *sn,
                           double *col, double *cs_c, double *sn_c, double *g) {
    for (int i = 0; i <= c; i++)
        col[i] = raw[i];
    col[c + 1] = hn;
    for (int i = 0; i < c; i++) {
        const double a = col[i], b = col[i + 1];
        col[i] = cs[i] * a + sn[i] * b;
        col[i + 1] = -sn[i] * a + cs[i] * b;
    }
    const double a = col[c], b = col[c + 1], rr = hypot(a, b);
    *cs_c = rr == 0.0 ? 1.0 : a / rr;
    *sn_c = rr == 0.0 ? 0.0 : b / rr;
    col[c] = rr;
    col[c + 1] = 0.0;
    g[c + 1] = -*sn_c * g[c];
    g[c] = *cs_c * g[c];
}

/* y = R(0:j, 0:j)^-1 g(0:j), R's last column in last (the others in the
 * scratch); a zero diagonal (singular A) drops that direction, as the one
 * kernel does. */
static void KP(kgm_solve)(const char *base, const trn_kpar_layout *l, int m, int j,
                          const double *last, const double *g, double *y) {
    for (int i = j - 1; i >= 0; i--) {
        double s = g[i];
        for (int c = i + 1; c < j; c++)
            s -= (c == j - 1 ? last : KGM_COL(base, l->rfac, m, c))[i] * y[c];
        const double rii = (i == j - 1 ? last : KGM_COL(base, l->rfac, m, i))[i];
        y[i] = rii != 0.0 ? s / rii : 0.0;
    }
}

static trn_kstatus KP(kgm_step)(const trn_solver_krylov_desc *d, const trn_kpar_layout *l,
                                int shard, int nshards) {
    char *base = d->krylov_scratch;
    kpar_state *st = (kpar_state *)base;
    const int64_t n = d->op.n, B = trn_kpar_block(n), nblk = l->nblk, ldv = l->ldv;
    const int m = d->restart < 1 ? 1 : d->restart;
    const int me = d->krylov_step < TRN_KGM_LOOP_FIRST || d->krylov_step > TRN_KGM_LOOP_LAST
                       ? TRN_KGM_LOOP_FIRST
                       : d->krylov_step;
    kgm_rec rc = st->grec[me == TRN_KGM_LOOP_FIRST ? TRN_KGM_LOOP_LAST : me - 1];
    const double bn = st->bn, tol = d->tol;
    KT *V = (KT *)(base + l->vb), *z = (KT *)(base + l->z), *x = d->x;
    const KT *dinv = d->precond == TRN_PRECOND_JACOBI ? (const KT *)(base + l->dinv) : NULL;
    int64_t b0, b1;
    trn_kpar_shard_blocks(nblk, shard, nshards, &b0, &b1);
    const int j = rc.j;
    KT *w = V + (size_t)(j + 1) * (size_t)ldv; /* v_{j+1} while it is made */
    double h[TRN_KGM_MAX_RESTART + 2], h2[TRN_KGM_MAX_RESTART + 2];
    switch (rc.mode) {
    case G_RES: {
        const trn_csr c =
            d->op.kind == TRN_LINOP_SPARSE ? op_view(l, base, st, (int)n) : (trn_csr){0};
        KP(kpar_residual)(d, l, &c, (double *)(base + l->rt), b0, b1);
        rc.mode = G_DECIDE;
        break;
    }
    case G_DECIDE: {
        /* The one-kernel loop's checks after a residual, in its order. */
        const double beta = sqrt(sum_blocks((const double *)(base + l->rt), nblk));
        const double relres = beta / bn;
        int s = TRN_SOLVER_ST_MAX_ITERS, end = 1;
        if (rc.endst)
            s = rc.endst;
        else if (rc.stop1 && relres > tol && !(beta < rc.beta))
            s = TRN_SOLVER_ST_BREAKDOWN; /* an invariant space that holds no better x */
        else if (!isfinite(beta) || !isfinite(bn))
            s = TRN_SOLVER_ST_NONFINITE;
        else if (relres <= tol)
            s = TRN_SOLVER_ST_CONVERGED;
        else if (rc.it < d->max_iters)
            end = 0;
        if (end)
            return kpar_finish(d, shard, rc.it, s, relres);
        for (int64_t k = b0; k < b1; k++) {
            const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
            for (int64_t r = lo; r < hi; r++)
                V[r] = (KT)(V[r] / beta);
            KP(kgm_prec)(dinv, V, z, lo, hi);
        }
        if (shard == 0)
            KGM_COL(base, l->g, m, 0)[0] = beta;
        rc = (kgm_rec){.mode = G_PROD, .it = rc.it, .j = 0, .beta = beta};
        break;
    }
    case G_PROD: {
        /* Column j - 1 completed: h_{j,j-1} = ||v_j||, the rotations, g. */
        int stop = 0;
        double scale = 1.0, col[TRN_KGM_MAX_RESTART + 2], g[TRN_KGM_MAX_RESTART + 2];
        if (j > 0) {
            const int c = j - 1;
            const double hn = sqrt(sum_blocks((const double *)(base + l->ww), nblk));
            double cs_c, sn_c;
            memcpy(g, KGM_COL(base, l->g, m, c % 2), (size_t)(c + 1) * sizeof(double));
            KP(kgm_rotate)
            (KGM_COL(base, l->hraw, m, c), c, hn, (const double *)(base + l->cs),
             (const double *)(base + l->sn), col, &cs_c, &sn_c, g);
            if (shard == 0) {
                memcpy(KGM_COL(base, l->rfac, m, c), col, (size_t)(c + 2) * sizeof(double));
                ((double *)(base + l->cs))[c] = cs_c;
                ((double *)(base + l->sn))[c] = sn_c;
                memcpy(KGM_COL(base, l->g, m, (c + 1) % 2), g, (size_t)(c + 2) * sizeof(double));
            }
            rc.it++;
            if (!isfinite(hn) || !isfinite(g[j]))
                stop = 2;
            else if (hn == 0.0)
                stop = 1; /* the Krylov space is invariant: the least-squares solution is exact */
            else {
                scale = 1.0 / hn;
                KT *vj = V + (size_t)j * (size_t)ldv;
                for (int64_t k = b0; k < b1; k++) {
                    const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
                    for (int64_t r = lo; r < hi; r++)
                        vj[r] = (KT)(vj[r] / hn);
                }
                if (fabs(g[j]) / bn <= tol)
                    stop = 1;
            }
            if (!stop && (j >= m || rc.it >= d->max_iters))
                stop = 3;
        }
        if (stop == 2) { /* x as it was: its residual, then the end */
            const trn_csr c =
                d->op.kind == TRN_LINOP_SPARSE ? op_view(l, base, st, (int)n) : (trn_csr){0};
            KP(kpar_residual)(d, l, &c, (double *)(base + l->rt), b0, b1);
            rc.mode = G_DECIDE;
            rc.endst = TRN_SOLVER_ST_NONFINITE;
            break;
        }
        if (stop) { /* the end of the cycle: x += M^-1 V y */
            KP(kgm_solve)(base, l, m, j, col, g, h);
            KT yk[TRN_KGM_MAX_RESTART + 1], s[KPCHUNK];
            for (int i = 0; i < j; i++)
                yk[i] = (KT)h[i];
            for (int64_t c0 = b0 * B; c0 < (b1 * B < n ? b1 * B : n); c0 += KPCHUNK) {
                const int64_t c1 = n - c0 < KPCHUNK ? n : c0 + KPCHUNK;
                KPLIB(KGEMV)
                (CblasColMajor, CblasNoTrans, (int)(c1 - c0), j, (KT)1, V + c0, (int)ldv, yk, 1,
                 (KT)0, s, 1);
                for (int64_t r = c0; r < c1; r++)
                    x[r] += dinv ? s[r - c0] * dinv[r] : s[r - c0];
            }
            rc.mode = G_RES;
            rc.stop1 = stop == 1;
            break;
        }
        /* v_{j+1} = A z_j / h_{j,j-1} (z_j was made of v_j before it was
         * normalised), its dots with v_0 .. v_j and its norm. */
        const trn_csr c =
            d->op.kind == TRN_LINOP_SPARSE ? op_view(l, base, st, (int)n) : (trn_csr){0};
        double *ww1 = (double *)(base + l->ww1);
        for (int64_t k = b0; k < b1; k++) {
            const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
            for (int64_t c0 = lo; c0 < hi; c0 += KPCHUNK) {
                const int64_t c1 = hi - c0 < KPCHUNK ? hi : c0 + KPCHUNK;
                KP(rows)(d, &c, z, w + c0, c0, c1);
                if (scale != 1.0)
                    for (int64_t r = c0; r < c1; r++)
                        w[r] = (KT)(w[r] * scale);
            }
            KP(kgm_dots)(base, l->h1, nblk, V, ldv, j, w, k, lo, hi);
            ww1[k] = KP(bdot)(w, w, lo, hi);
        }
        rc.mode = G_PASS1;
        break;
    }
    case G_PASS1:
    case G_PASS2: {
        /* A Gram-Schmidt pass: w -= V h. After the first, the criterion:
         * ||w||^2 after is ||w||^2 before less ||h||^2 (V orthonormal); a
         * second pass when that lost more than half. */
        const int second = rc.mode == G_PASS2;
        KP(kgm_sums)(base, l->h1, nblk, j, h);
        if (second)
            KP(kgm_sums)(base, l->h2, nblk, j, h2);
        int again = 0;
        if (!second) {
            const double before = sum_blocks((const double *)(base + l->ww1), nblk);
            double hh = 0.0;
            for (int i = 0; i <= j; i++)
                hh += h[i] * h[i];
            again = !(before - hh > 0.5 * before);
        }
        const double *sub = second ? h2 : h;
        double *ww = (double *)(base + l->ww);
        for (int64_t k = b0; k < b1; k++) {
            const int64_t lo = k * B, hi = n - lo < B ? n : lo + B;
            KP(kgm_sub)(V, ldv, j, sub, w, lo, hi);
            if (again) {
                KP(kgm_dots)(base, l->h2, nblk, V, ldv, j, w, k, lo, hi);
            } else {
                KP(kgm_prec)(dinv, w, z, lo, hi);
                ww[k] = KP(bdot)(w, w, lo, hi);
            }
        }
        if (again) {
            rc.mode = G_PASS2;
            break;
        }
        if (shard == 0) {
            double *raw = KGM_COL(base, l->hraw, m, j);
            for (int i = 0; i <= j; i++)
                raw[i] = second ? h[i] + h2[i] : h[i];
        }
        rc.mode = G_PROD;
        rc.j = j + 1;
        break;
    }
    default: /* a mode no step writes: end rather than loop */
        if (shard == 0)
            trn_solver_put_stats(d->stats, rc.it, TRN_SOLVER_ST_NONFINITE, NAN);
        return TRN_KSTATUS_SEQ_DONE;
    }
    if (shard == 0)
        st->grec[me] = rc;
    return TRN_KSTATUS_OK;
}

#undef KGM_COL
#undef KGM_GEMV_DOTS
