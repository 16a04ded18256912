/*
 * solver_eigen.c — trnsolver's LAPACK eigenvalue problems and SVD on the
 * CPU: syevd/heevd (divide and conquer), sygvd/hegvd (the generalised
 * problem, through a Cholesky factor of B), sygvdx/hegvdx (sygvd and a
 * selection), gesvd (QR iteration) and geev (Xgeev: Hessenberg QR, right
 * eigenvectors only). The Jacobi methods (syevj, gesvdj) are
 * solver_jacobi.c; sygvj and gesvdaStridedBatched solver_eigen_ext.c.
 *
 * Inputs with a NaN or an infinity in the part LAPACK reads are refused with
 * info = -(position of that matrix in the cuSOLVER parameter list, not
 * counting the handle), as LAPACKE's NaN check reports them: LAPACK's QR
 * iteration does not terminate on them (dgesvd loops forever on an
 * infinite entry), and a kernel must always end. Nothing else is written
 * then. LAPACK runs on private copies of A (and B), made before that check
 * (solver_util.h, trn_solver_priv_bytes says why), and the results are
 * copied back. Workspace (the copies first) is queried, then taken from
 * the worker's kept workspace (trn_solver_ws_get); without memory the op
 * fails with TRN_KSTATUS_NO_MEMORY (the message says how much) and info is not
 * written.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define COL LAPACK_COL_MAJOR

/* Whether the lower (or upper) triangle of an n x n matrix holds a
 * non-finite value. */
static int tri_nonfinite(trn_dtype t, int n, const void *a, int lda, int lower) {
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++) {
        const int r0 = lower ? j : 0, r1 = lower ? n : j + 1;
        const char *col = (const char *)a + ((size_t)j * (size_t)lda + (size_t)r0) * es;
        if (trn_solver_nonfinite(t, r1 - r0, 1, col, lda))
            return 1;
    }
    return 0;
}

/* The private copies an op runs on (solver_util.h, trn_solver_priv_bytes),
 * at the start of its workspace: A, then B (sygvd). */
typedef struct priv_mats {
    void *a, *b;
    int lda, ldb;
} priv_mats;

static size_t priv_size(const trn_solver_eigen_desc *d, int a_rows, int with_b) {
    return trn_solver_priv_bytes(d->type, a_rows, d->n) +
           (with_b ? trn_solver_priv_bytes(d->type, d->n, d->n) : 0);
}

/* Lays the copies out at ws and copies the client's matrices in. */
static void priv_in(const trn_solver_eigen_desc *d, int a_rows, int with_b, void *ws,
                    priv_mats *pm) {
    const size_t es = trn_dtype_size(d->type);
    pm->a = ws;
    pm->lda = trn_solver_priv_ld(a_rows);
    trn_solver_copy(a_rows, d->n, es, d->a, d->lda, pm->a, pm->lda);
    pm->b = NULL;
    pm->ldb = 1;
    if (with_b) {
        pm->b = (char *)ws + trn_solver_priv_bytes(d->type, a_rows, d->n);
        pm->ldb = trn_solver_priv_ld(d->n);
        trn_solver_copy(d->n, d->n, es, d->b, d->ldb, pm->b, pm->ldb);
    }
}

/* Copies what LAPACK left in the copies back to the client's matrices: the
 * whole of A (eigenvectors, or U / VT for gesvd's 'O' jobs, or what LAPACK
 * left of A), and B's factor. */
static void priv_out(const trn_solver_eigen_desc *d, int a_rows, const priv_mats *pm) {
    const size_t es = trn_dtype_size(d->type);
    trn_solver_copy(a_rows, d->n, es, pm->a, pm->lda, d->a, d->lda);
    if (pm->b)
        trn_solver_copy(d->n, d->n, es, pm->b, pm->ldb, d->b, d->ldb);
}

/* syevd/heevd and sygvd/hegvd: a workspace query, then the run on private
 * copies of A (and B), checked for non-finite values first: *bad is then
 * the (negative) position to report as info and nothing is run. */
static trn_kstatus syev(const trn_solver_eigen_desc *d, trn_kmsg *msg, lapack_int *info, int *bad) {
    const trn_dtype t = d->type;
    const char jobz = d->vectors ? 'V' : 'N', uplo = d->lower ? 'L' : 'U';
    const int gen = d->fn == TRN_SOLVER_SYGVD;
    trn_lapack_query q, rq;
    memset(&q, 0, sizeof(q));
    memset(&rq, 0, sizeof(rq));
    lapack_int iq = 0, rc = 0;
    void *work = &q, *rwork = &rq, *ws = NULL;
    lapack_int *iwork = &iq, lwork = -1, lrwork = -1, liwork = -1;
    size_t ws_bytes = 0;
    priv_mats pm = {.a = d->a, .b = d->b, .lda = d->lda, .ldb = d->ldb};
    trn_kstatus k = TRN_KSTATUS_OK;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            lwork = trn_lapack_lwork(t, &q);
            lrwork = trn_lapack_lwork(trn_dtype_real(t), &rq);
            liwork = iq > 1 ? iq : 1;
            /* One workspace: the copies, work, then rwork, then iwork
             * (64-byte aligned). */
            const size_t c_bytes = priv_size(d, d->n, gen);
            const size_t w_bytes = trn_solver_ws_align((size_t)lwork * trn_dtype_size(t));
            const size_t r_bytes =
                trn_solver_ws_align((size_t)lrwork * trn_dtype_size(trn_dtype_real(t)));
            ws_bytes = c_bytes + w_bytes + r_bytes + (size_t)liwork * sizeof(lapack_int);
            ws = trn_solver_ws_get(ws_bytes);
            if (!ws) {
                k = trn_kmsg_no_memory(msg, 0, ws_bytes,
                                       "the LAPACK workspace of %s (lwork %d, liwork %d)",
                                       trn_solver_name(d->fn, t), (int)lwork, (int)liwork);
                break;
            }
            priv_in(d, d->n, gen, ws, &pm);
            /* Positions of A and B in cuSOLVER's lists: syevd(jobz, uplo,
             * n, A), sygvd(itype, jobz, uplo, n, A, lda, B). */
            if (tri_nonfinite(t, d->n, pm.a, pm.lda, d->lower)) {
                *bad = gen ? -5 : -4;
                break;
            }
            if (gen && tri_nonfinite(t, d->n, pm.b, pm.ldb, d->lower)) {
                *bad = -7;
                break;
            }
            work = (char *)ws + c_bytes;
            rwork = (char *)work + w_bytes;
            iwork = (lapack_int *)((char *)rwork + r_bytes);
        }
        if (gen)
            rc = TRN_BY_TYPE(
                t,
                TRN_LIB(LAPACKE_ssygvd_work)(COL, d->itype, jobz, uplo, d->n, pm.a, pm.lda, pm.b,
                                             pm.ldb, d->w, work, lwork, iwork, liwork),
                TRN_LIB(LAPACKE_dsygvd_work)(COL, d->itype, jobz, uplo, d->n, pm.a, pm.lda, pm.b,
                                             pm.ldb, d->w, work, lwork, iwork, liwork),
                TRN_LIB(LAPACKE_chegvd_work)(COL, d->itype, jobz, uplo, d->n, pm.a, pm.lda, pm.b,
                                             pm.ldb, d->w, work, lwork, rwork, lrwork, iwork,
                                             liwork),
                TRN_LIB(LAPACKE_zhegvd_work)(COL, d->itype, jobz, uplo, d->n, pm.a, pm.lda, pm.b,
                                             pm.ldb, d->w, work, lwork, rwork, lrwork, iwork,
                                             liwork));
        else
            rc = TRN_BY_TYPE(
                t,
                TRN_LIB(LAPACKE_ssyevd_work)(COL, jobz, uplo, d->n, pm.a, pm.lda, d->w, work, lwork,
                                             iwork, liwork),
                TRN_LIB(LAPACKE_dsyevd_work)(COL, jobz, uplo, d->n, pm.a, pm.lda, d->w, work, lwork,
                                             iwork, liwork),
                TRN_LIB(LAPACKE_cheevd_work)(COL, jobz, uplo, d->n, pm.a, pm.lda, d->w, work, lwork,
                                             rwork, lrwork, iwork, liwork),
                TRN_LIB(LAPACKE_zheevd_work)(COL, jobz, uplo, d->n, pm.a, pm.lda, d->w, work, lwork,
                                             rwork, lrwork, iwork, liwork));
        if (rc != 0)
            break;
    }
    if (k == TRN_KSTATUS_OK && !*bad && ws && rc >= 0)
        priv_out(d, d->n, &pm);
    trn_solver_ws_put(ws, ws_bytes);
    *info = rc;
    return k;
}

/* gesvd on a private copy of A, checked for non-finite values first (*bad
 * as for syev), writing U and VT to private matrices too (OpenBLAS's
 * complex rotations read past VT); the unconverged superdiagonal goes to
 * d->rwork when info > 0. */
static trn_kstatus gesvd(const trn_solver_eigen_desc *d, trn_kmsg *msg, lapack_int *info,
                         int *bad) {
    const trn_dtype t = d->type;
    const int p = d->m < d->n ? d->m : d->n;
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const size_t rs = trn_dtype_size(trn_dtype_real(t));
    /* LAPACK wants a valid pointer for unreferenced U / VT. */
    trn_lapack_query q, dummy_u, dummy_v;
    memset(&q, 0, sizeof(q));
    memset(&dummy_u, 0, sizeof(dummy_u));
    memset(&dummy_v, 0, sizeof(dummy_v));
    void *u = d->u ? d->u : (void *)&dummy_u, *vt = d->v ? d->v : (void *)&dummy_v;
    int ldu = d->ldu, ldvt = d->ldv;
    const int u_cols = d->u ? (d->jobu == 'A' ? d->m : p) : 0;
    const int vt_rows = d->v ? (d->jobvt == 'A' ? d->n : p) : 0;
    const size_t u_bytes = u_cols ? trn_solver_priv_bytes(t, d->m, u_cols) : 0;
    const size_t vt_bytes = vt_rows ? trn_solver_priv_bytes(t, vt_rows, d->n) : 0;
    /* One workspace: the copy of A, U, VT, work, then (complex types) rwork
     * of 5 min(m, n) reals; the query needs only rwork to be a valid
     * pointer. */
    const size_t r_bytes = cx ? (size_t)5 * (size_t)(p > 0 ? p : 1) * rs : 0;
    void *work = &q, *rwork = cx ? (void *)&dummy_u : NULL, *ws = NULL;
    lapack_int lwork = -1, rc = 0;
    size_t ws_bytes = 0;
    priv_mats pm = {.a = d->a, .lda = d->lda};
    trn_kstatus k = TRN_KSTATUS_OK;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            lwork = trn_lapack_lwork(t, &q);
            const size_t a_bytes = priv_size(d, d->m, 0);
            const size_t c_bytes = a_bytes + u_bytes + vt_bytes;
            const size_t w_bytes = trn_solver_ws_align((size_t)lwork * trn_dtype_size(t));
            ws_bytes = c_bytes + w_bytes + r_bytes;
            ws = trn_solver_ws_get(ws_bytes);
            if (!ws) {
                k = trn_kmsg_no_memory(msg, 0, ws_bytes, "the LAPACK workspace of gesvd (lwork %d)",
                                       (int)lwork);
                break;
            }
            priv_in(d, d->m, 0, ws, &pm);
            if (trn_solver_nonfinite(t, d->m, d->n, pm.a, pm.lda)) {
                *bad = -5; /* gesvd(jobu, jobvt, m, n, A) */
                break;
            }
            if (u_cols) {
                u = (char *)ws + a_bytes;
                ldu = trn_solver_priv_ld(d->m);
            }
            if (vt_rows) {
                vt = (char *)ws + a_bytes + u_bytes;
                ldvt = trn_solver_priv_ld(vt_rows);
            }
            work = (char *)ws + c_bytes;
            rwork = cx ? (char *)work + w_bytes : NULL;
        }
        rc = TRN_BY_TYPE(
            t,
            TRN_LIB(LAPACKE_sgesvd_work)(COL, d->jobu, d->jobvt, d->m, d->n, pm.a, pm.lda, d->w, u,
                                         ldu, vt, ldvt, work, lwork),
            TRN_LIB(LAPACKE_dgesvd_work)(COL, d->jobu, d->jobvt, d->m, d->n, pm.a, pm.lda, d->w, u,
                                         ldu, vt, ldvt, work, lwork),
            TRN_LIB(LAPACKE_cgesvd_work)(COL, d->jobu, d->jobvt, d->m, d->n, pm.a, pm.lda, d->w, u,
                                         ldu, vt, ldvt, work, lwork, rwork),
            TRN_LIB(LAPACKE_zgesvd_work)(COL, d->jobu, d->jobvt, d->m, d->n, pm.a, pm.lda, d->w, u,
                                         ldu, vt, ldvt, work, lwork, rwork));
        if (rc != 0)
            break;
    }
    if (k == TRN_KSTATUS_OK && !*bad && ws && rc >= 0) {
        const size_t es = trn_dtype_size(t);
        priv_out(d, d->m, &pm);
        trn_solver_copy(d->m, u_cols, es, u, ldu, d->u, d->ldu);
        trn_solver_copy(vt_rows, d->n, es, vt, ldvt, d->v, d->ldv);
        if (rc > 0 && d->rwork && p > 1) {
            /* Real routines leave the superdiagonal in work[1..p-1],
             * complex ones in rwork[0..p-2]. */
            const char *src = cx ? (const char *)rwork : (const char *)work + rs;
            memcpy(d->rwork, src, (size_t)(p - 1) * rs);
        }
    }
    trn_solver_ws_put(ws, ws_bytes);
    *info = rc;
    return k;
}

/* Xgeev: LAPACK's geev (jobvl 'N') on a private copy of A, checked for
 * non-finite values first (*bad = -6, A's position in Xgeev's list), with
 * VR, the eigenvalues and (complex types) rwork in the workspace too. W
 * gets n complex values (a real A's WR + i WI, or WR then WI with
 * w_split); VR is written only when info = 0 (LAPACK computes none
 * otherwise). */
static trn_kstatus geev(const trn_solver_eigen_desc *d, trn_kmsg *msg, lapack_int *info, int *bad) {
    const trn_dtype t = d->type;
    const int n = d->n, vec = d->vectors;
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const size_t es = trn_dtype_size(t), rs = trn_dtype_size(trn_dtype_real(t));
    const char jobvr = vec ? 'V' : 'N';
    *info = 0;
    if (n == 0)
        return TRN_KSTATUS_OK;
    trn_lapack_query q, dummy_vl, dummy_vr;
    memset(&q, 0, sizeof(q));
    memset(&dummy_vl, 0, sizeof(dummy_vl));
    memset(&dummy_vr, 0, sizeof(dummy_vr));
    /* One workspace: the copy of A, VR, the eigenvalues (2n reals), work,
     * then (complex types) rwork of 2n reals. The query reads no array, but
     * LAPACK checks ldvr >= n first. */
    const size_t a_bytes = priv_size(d, n, 0);
    const size_t vr_bytes = vec ? trn_solver_priv_bytes(t, n, n) : 0;
    const size_t ev_bytes = trn_solver_ws_align(2 * (size_t)n * rs);
    const size_t r_bytes = cx ? 2 * (size_t)n * rs : 0;
    const int ldvr = vec ? trn_solver_priv_ld(n) : 1;
    void *work = &q, *vr = vec ? d->v : (void *)&dummy_vr, *ev = d->w, *rwork = &dummy_vl;
    void *ws = NULL, *vl = &dummy_vl; /* not referenced (jobvl 'N') */
    lapack_int lwork = -1, rc = 0;
    size_t ws_bytes = 0;
    priv_mats pm = {.a = d->a, .lda = d->lda};
    trn_kstatus k = TRN_KSTATUS_OK;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            lwork = trn_lapack_lwork(t, &q);
            const size_t w_bytes = trn_solver_ws_align((size_t)lwork * es);
            ws_bytes = a_bytes + vr_bytes + ev_bytes + w_bytes + r_bytes;
            ws = trn_solver_ws_get(ws_bytes);
            if (!ws) {
                k = trn_kmsg_no_memory(msg, 0, ws_bytes, "the LAPACK workspace of Xgeev (lwork %d)",
                                       (int)lwork);
                break;
            }
            priv_in(d, n, 0, ws, &pm);
            if (trn_solver_nonfinite(t, n, n, pm.a, pm.lda)) {
                *bad = -6; /* Xgeev(params, jobvl, jobvr, n, dataTypeA, A) */
                break;
            }
            if (vec)
                vr = (char *)ws + a_bytes;
            ev = (char *)ws + a_bytes + vr_bytes;
            work = (char *)ev + ev_bytes;
            rwork = (char *)work + w_bytes;
        }
        /* Real types: WR at ev, WI after n reals. */
        void *wi = (char *)ev + (size_t)n * rs;
        rc = TRN_BY_TYPE(t,
                         TRN_LIB(LAPACKE_sgeev_work)(COL, 'N', jobvr, n, pm.a, pm.lda, ev, wi, vl,
                                                     1, vr, ldvr, work, lwork),
                         TRN_LIB(LAPACKE_dgeev_work)(COL, 'N', jobvr, n, pm.a, pm.lda, ev, wi, vl,
                                                     1, vr, ldvr, work, lwork),
                         TRN_LIB(LAPACKE_cgeev_work)(COL, 'N', jobvr, n, pm.a, pm.lda, ev, vl, 1,
                                                     vr, ldvr, work, lwork, rwork),
                         TRN_LIB(LAPACKE_zgeev_work)(COL, 'N', jobvr, n, pm.a, pm.lda, ev, vl, 1,
                                                     vr, ldvr, work, lwork, rwork));
        if (rc != 0)
            break;
    }
    if (k == TRN_KSTATUS_OK && !*bad && ws && rc >= 0) {
        priv_out(d, n, &pm);
        const char *wr = ev, *wi = (const char *)ev + (size_t)n * rs;
        char *out = d->w;
        if (cx || d->w_split)
            memcpy(out, ev, 2 * (size_t)n * rs); /* n complex, or WR then WI */
        else
            for (int j = 0; j < n; j++) {
                memcpy(out + 2 * (size_t)j * rs, wr + (size_t)j * rs, rs);
                memcpy(out + (2 * (size_t)j + 1) * rs, wi + (size_t)j * rs, rs);
            }
        if (vec && rc == 0)
            trn_solver_copy(n, n, es, vr, ldvr, d->v, d->ldv);
    }
    trn_solver_ws_put(ws, ws_bytes);
    *info = rc;
    return k;
}

/* sygvdx / hegvdx: sygvd on the whole pencil (W of n elements and A of n
 * columns are cuSOLVER's own sizes, so they serve as the scratch), then the
 * selection moved to the front: W's first meig elements and, with vectors,
 * A's first meig columns. The count goes to d->meig (0 when sygvd failed).
 * Non-finite input is reported at sygvdx's positions (A 6th, B 8th). */
static trn_kstatus sygvdx(const trn_solver_eigen_desc *d, trn_kmsg *msg, lapack_int *info,
                          int *bad) {
    trn_solver_eigen_desc g = *d;
    g.fn = TRN_SOLVER_SYGVD;
    const trn_kstatus k = syev(&g, msg, info, bad);
    if (k != TRN_KSTATUS_OK)
        return k;
    if (*bad)
        *bad = *bad == -5 ? -6 : -8;
    const int n = d->n;
    int first = 0, count = 0;
    if (!*bad && *info == 0) {
        const int single = trn_dtype_real(d->type) == TRN_DTYPE_R32F;
        const size_t rs = single ? sizeof(float) : sizeof(double);
        if (d->range == TRN_EIG_RANGE_I) {
            first = d->il - 1;
            count = d->iu - d->il + 1;
        } else if (d->range == TRN_EIG_RANGE_V) {
            /* Ascending: the values in (vl, vu] are one run. */
            for (int i = 0; i < n; i++) {
                const double v = single ? ((const float *)d->w)[i] : ((const double *)d->w)[i];
                if (v <= d->vl)
                    first = i + 1;
                else if (v <= d->vu)
                    count++;
            }
        } else {
            count = n;
        }
        if (first > 0 && count > 0) {
            memmove(d->w, (const char *)d->w + (size_t)first * rs, (size_t)count * rs);
            if (d->vectors) {
                const size_t es = trn_dtype_size(d->type), col = (size_t)d->lda * es;
                for (int j = 0; j < count; j++)
                    memmove((char *)d->a + (size_t)j * col,
                            (const char *)d->a + (size_t)(first + j) * col, (size_t)n * es);
            }
        }
    }
    if (d->meig)
        memcpy(d->meig, &(int32_t){count}, sizeof(int32_t));
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_solver_eigen(const trn_solver_eigen_desc *d, trn_kmsg *msg, int shard,
                                 int nshards) {
    lapack_int info = 0;
    int bad = 0;
    trn_kstatus k;
    switch (d->fn) {
    case TRN_SOLVER_SYEVD:
    case TRN_SOLVER_SYGVD: k = syev(d, msg, &info, &bad); break;
    case TRN_SOLVER_SYGVDX: k = sygvdx(d, msg, &info, &bad); break;
    case TRN_SOLVER_GESVD: k = gesvd(d, msg, &info, &bad); break;
    case TRN_SOLVER_GEEV: k = geev(d, msg, &info, &bad); break;
    case TRN_SOLVER_SYEVJ:
    case TRN_SOLVER_GESVDJ: return trn_cpu_solver_jacobi(d, msg);
    case TRN_SOLVER_SYGVJ: return trn_cpu_solver_sygvj(d, msg);
    case TRN_SOLVER_GESVDA_STRIDED_BATCHED: return trn_cpu_solver_gesvda(d, msg, shard, nshards);
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
    if (k != TRN_KSTATUS_OK)
        return k;
    if (bad) { /* a non-finite input: reported in info, not an op failure */
        trn_solver_put_info(d->info, bad);
        return TRN_KSTATUS_OK;
    }
    trn_solver_put_info(d->info, info);
    return info < 0 ? TRN_KSTATUS_FAILED : TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(solver_eigen, trn_cpu_solver_eigen(&op->u.solver_eigen, op->kmsg, shard, nshards))
