/*
 * solver_svd_tile.c — the tasks of a tiled gesvd (ops/solver_svd_tile.h)
 * on the CPU: LAPACK gebrd, orgbr/ungbr and bdsqr, each single-threaded on
 * the shard's worker. SVD_QR's shards claim its blocks from the step's
 * counter (ops/solver_tile.h, "Claiming"); a block task writes only its own
 * block of VT or U.
 *
 * Every LAPACK call runs on a private copy in the worker's workspace
 * (kernels/cpu/solver_util.h says why; the copies' padded columns are what
 * keeps bdsqr's row-wise rotations of VT fast).
 *
 * devInfo: SVD_BRD sets it (0, or -5 for a non-finite A: A's position in
 * cuSOLVER's gesvd(jobu, jobvt, m, n, A), as the untiled kernel reports
 * it) and records the refusal in the state; SVD_QR's tasks do nothing after
 * a refusal. They never read devInfo: the first task writes bdsqr's info
 * there while others may still be starting.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_svd_tile.h"
#include "ops/solver_tile.h"

#define COL LAPACK_COL_MAJOR

/* The state's mark of a refused input, in place of the scaling target
 * (which is otherwise 0 or positive). */
#define REFUSED (-1.0)

/* dgesvd's scaling of the m x n copy p: when its largest magnitude anrm is
 * below smlnum = sqrt(safmin) / eps or above 1 / smlnum, every entry is
 * multiplied by target / anrm (one rounding per entry, as dlascl's single
 * multiplication when the ratio is representable, which it is for every
 * finite anrm). Records anrm and the target (0, 0: not scaled). */
static void scale(trn_dtype t, int m, int n, void *p, int ldp, const trn_svd_tile_parts *s) {
    const size_t ld = (size_t)ldp, rows = (size_t)m, cols = (size_t)n;
    const int nc = trn_dtype_is_complex(t) ? 2 : 1;
    double anrm = 0.0;
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++) {
            const double re = trn_solver_comp(t, p, j * ld + i, 0);
            const double v = nc == 2 ? hypot(re, trn_solver_comp(t, p, j * ld + i, 1)) : fabs(re);
            anrm = v > anrm ? v : anrm;
        }
    const double safmin = trn_dtype_is_single(t) ? (double)FLT_MIN : DBL_MIN;
    const double eps = trn_dtype_is_single(t) ? (double)FLT_EPSILON : DBL_EPSILON;
    const double smlnum = sqrt(safmin) / eps, bignum = 1.0 / smlnum;
    const double target = anrm > 0.0 && anrm < smlnum ? smlnum : anrm > bignum ? bignum : 0.0;
    *s->anrm = target > 0.0 ? anrm : 0.0;
    *s->target = target;
    if (target == 0.0)
        return;
    const double ratio = target / anrm;
    for (size_t j = 0; j < cols; j++)
        for (size_t i = 0; i < rows; i++)
            for (int c = 0; c < nc; c++)
                trn_solver_set_comp(t, p, j * ld + i, c,
                                    trn_solver_comp(t, p, j * ld + i, c) * ratio);
}

static lapack_int call_gebrd(trn_dtype t, int m, int n, void *a, int lda, void *dd, void *e,
                             void *tauq, void *taup, void *work, lapack_int lwork) {
    return TRN_LAPACK4(t, gebrd_work, COL, m, n, a, lda, dd, e, tauq, taup, work, lwork);
}

static lapack_int call_orgbr(trn_dtype t, char vect, int m, int n, int k, void *a, int lda,
                             const void *tau, void *work, lapack_int lwork) {
    return TRN_BY_TYPE(t,
                       TRN_LIB(LAPACKE_sorgbr_work)(COL, vect, m, n, k, a, lda, tau, work, lwork),
                       TRN_LIB(LAPACKE_dorgbr_work)(COL, vect, m, n, k, a, lda, tau, work, lwork),
                       TRN_LIB(LAPACKE_cungbr_work)(COL, vect, m, n, k, a, lda, tau, work, lwork),
                       TRN_LIB(LAPACKE_zungbr_work)(COL, vect, m, n, k, a, lda, tau, work, lwork));
}

/* The workspace SVD_BRD's LAPACK calls need (elements of t). */
static int brd_lwork(const trn_solver_dense_desc *d, lapack_int *lwork) {
    const trn_dtype t = d->type;
    const int m = d->m, n = d->n;
    trn_lapack_query q, qa;
    memset(&qa, 0, sizeof(qa));
    memset(&q, 0, sizeof(q));
    if (call_gebrd(t, m, n, &qa, m, &qa, &qa, &qa, &qa, &q, -1) != 0)
        return -1;
    *lwork = trn_lapack_lwork(t, &q);
    if (d->ucols) {
        if (call_orgbr(t, 'Q', m, d->ucols, n, &qa, m, &qa, &q, -1) != 0)
            return -1;
        *lwork = trn_lapack_lwork(t, &q) > *lwork ? trn_lapack_lwork(t, &q) : *lwork;
    }
    if (d->vtrows) {
        if (call_orgbr(t, 'P', n, n, n, &qa, n, &qa, &q, -1) != 0)
            return -1;
        *lwork = trn_lapack_lwork(t, &q) > *lwork ? trn_lapack_lwork(t, &q) : *lwork;
    }
    return 0;
}

/* One side's vectors: rows x cols of the reduced copy a (leading dimension
 * lda) into a private copy, formed by orgbr, then into the client's dst. */
static lapack_int form_side(const trn_solver_dense_desc *d, char vect, int rows, int cols,
                            const void *a, int lda, const void *tau, void *priv, void *work,
                            lapack_int lwork, void *dst, int ldd) {
    const size_t es = trn_dtype_size(d->type);
    const int ldp = trn_solver_priv_ld(rows), k = d->n;
    trn_solver_copy(rows, vect == 'Q' ? d->n : cols, es, a, lda, priv, ldp);
    const lapack_int rc = call_orgbr(d->type, vect, rows, cols, k, priv, ldp, tau, work, lwork);
    if (rc == 0)
        trn_solver_copy(rows, cols, es, priv, ldp, dst, ldd);
    return rc;
}

/* SVD_BRD: copy, check, scale, reduce, form U and VT. */
static trn_kstatus brd_task(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const trn_svd_tile_parts s = trn_svd_tile_layout(d);
    const int m = d->m, n = d->n, lda = trn_solver_priv_ld(m);
    const size_t es = trn_dtype_size(t);
    trn_solver_put_info(d->info, 0);
    *s.target = 0.0;
    lapack_int lwork = 0;
    if (brd_lwork(d, &lwork) != 0) {
        trn_kmsg_post(msg, 0, 0, "gesvd: a workspace query of the bidiagonal reduction failed");
        return TRN_KSTATUS_FAILED;
    }
    /* The copy of A, U's and VT's copies, tauq and taup, then work. */
    const size_t a_bytes = trn_solver_priv_bytes(t, m, n);
    const size_t u_bytes = d->ucols ? trn_solver_priv_bytes(t, m, d->ucols) : 0;
    const size_t v_bytes = d->vtrows ? trn_solver_priv_bytes(t, n, n) : 0;
    const size_t tau_bytes = trn_solver_ws_align((size_t)n * es);
    const size_t bytes = a_bytes + u_bytes + v_bytes + 2 * tau_bytes + (size_t)lwork * es;
    char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of gesvd's reduction");
    char *a = ws, *u = a + a_bytes, *vt = u + u_bytes, *tauq = vt + v_bytes;
    char *taup = tauq + tau_bytes, *work = taup + tau_bytes;
    trn_solver_copy(m, n, es, d->a, d->lda, a, lda);
    lapack_int rc = 0;
    if (trn_solver_nonfinite(t, m, n, a, lda)) {
        trn_solver_put_info(d->info, -5);
        *s.target = REFUSED;
        goto done;
    }
    scale(t, m, n, a, lda, &s);
    rc = call_gebrd(t, m, n, a, lda, s.d, s.e, tauq, taup, work, lwork);
    if (rc == 0 && d->ucols)
        rc = form_side(d, 'Q', m, d->ucols, a, lda, tauq, u, work, lwork, d->u, d->ldu);
    if (rc == 0 && d->vtrows)
        rc = form_side(d, 'P', n, n, a, lda, taup, vt, work, lwork, d->vt, d->ldvt);
done:
    trn_solver_ws_put(ws, bytes);
    if (rc == 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "gesvd: the bidiagonal reduction returned %d", (int)rc);
    return TRN_KSTATUS_FAILED;
}

static lapack_int call_bdsqr(trn_dtype t, int n, int ncvt, int nru, void *dd, void *e, void *vt,
                             int ldvt, void *u, int ldu, void *work) {
    trn_lapack_query c; /* ncc = 0: C is not referenced */
    void *cp = &c;
    return TRN_LAPACK4(t, bdsqr_work, COL, 'U', n, ncvt, nru, 0, dd, e, vt, ldvt, u, ldu, cp, 1,
                       work);
}

/* The first task's outputs: S (scaled back as dgesvd does), info, and the
 * unconverged superdiagonal into rwork when bdsqr did not converge. */
static void first_outputs(const trn_solver_dense_desc *d, const trn_svd_tile_parts *s,
                          const void *dd, const void *e, lapack_int rc) {
    const trn_dtype rt = trn_dtype_real(d->type);
    const double back = *s->target > 0.0 ? *s->anrm / *s->target : 1.0;
    for (size_t i = 0; i < (size_t)d->n; i++)
        trn_solver_set_comp(rt, d->d, i, 0, trn_solver_comp(rt, dd, i, 0) * back);
    if (rc == 0)
        return;
    trn_solver_put_info(d->info, (int32_t)rc);
    if (d->rwork)
        for (size_t i = 0; i + 1 < (size_t)d->n; i++)
            trn_solver_set_comp(rt, d->rwork, i, 0, trn_solver_comp(rt, e, i, 0) * back);
}

/* SVD_QR task t: bdsqr on copies of d and e with block j of VT's columns
 * or block i of U's rows (U's first n columns, the ones bdsqr rotates). */
static trn_kstatus qr_task(const trn_solver_dense_desc *d, trn_kmsg *msg, size_t t) {
    const trn_dtype ty = d->type;
    const trn_svd_tile_parts s = trn_svd_tile_layout(d);
    const int n = d->n, nb = d->tile_nb;
    int i, j;
    trn_svd_tile_task(d, t, &i, &j);
    const int vt_side = j >= 0, first = (vt_side ? j : i) * nb;
    const int len = vt_side ? n : d->m, w = len - first < nb ? len - first : nb;
    const int rows = vt_side ? n : w, cols = vt_side ? w : n;
    const size_t es = trn_dtype_size(ty), rs = trn_dtype_size(trn_dtype_real(ty));
    const size_t vec_bytes = trn_solver_ws_align(((size_t)n + 1) * rs);
    const size_t b_bytes = trn_solver_priv_bytes(ty, rows, cols);
    const size_t bytes = b_bytes + 2 * vec_bytes + (size_t)4 * ((size_t)n + 1) * rs;
    char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of gesvd's QR iteration");
    char *blk = ws, *dd = blk + b_bytes, *e = dd + vec_bytes, *work = e + vec_bytes;
    const int ldb = trn_solver_priv_ld(rows);
    char *src = vt_side ? (char *)d->vt + (size_t)first * (size_t)d->ldvt * es
                        : (char *)d->u + (size_t)first * es;
    const int lds = vt_side ? d->ldvt : d->ldu;
    trn_solver_copy(rows, cols, es, src, lds, blk, ldb);
    memcpy(dd, s.d, (size_t)n * rs);
    memcpy(e, s.e, (size_t)(n - 1) * rs);
    trn_lapack_query none;
    const lapack_int rc = vt_side ? call_bdsqr(ty, n, w, 0, dd, e, blk, ldb, &none, 1, work)
                                  : call_bdsqr(ty, n, 0, w, dd, e, &none, 1, blk, ldb, work);
    if (rc >= 0) {
        trn_solver_copy(rows, cols, es, blk, ldb, src, lds);
        if (t == 0)
            first_outputs(d, &s, dd, e, rc);
    }
    trn_solver_ws_put(ws, bytes);
    if (rc >= 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "gesvd: bdsqr returned %d", (int)rc);
    return TRN_KSTATUS_FAILED;
}

trn_kstatus trn_cpu_solver_svd_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards) {
    if (d->fn == TRN_SOLVER_TILE_SVD_BRD)
        return brd_task(d, msg);
    if (d->fn != TRN_SOLVER_TILE_SVD_QR)
        return TRN_KSTATUS_UNSUPPORTED;
    if (*trn_svd_tile_layout(d).target == REFUSED)
        return TRN_KSTATUS_OK;
    return trn_cpu_tile_run(d, msg, shard, nshards, qr_task);
}
