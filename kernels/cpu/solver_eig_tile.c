/*
 * solver_eig_tile.c — the tasks of a tiled syevd/heevd
 * (ops/solver_eig_tile.h) on the CPU: LAPACK sytrd/hetrd, stedc and
 * ormqr/unmqr, each single-threaded on the shard's worker. A shard runs the
 * contiguous run of its step's tasks that trn_tile_shard_tasks gives it; a
 * back-transformation task writes only its own block column of Z and of A.
 *
 * EIG_TRD reduces a contiguous copy of A in the worker's workspace and
 * leaves the reflectors in the op's panel pieces; EIG_STEDC computes Z
 * contiguously there too and leaves it in the op's Z pieces. EIG_BACK
 * applies Q = Q_0 Q_1 ... Q_{T-1} (Q_k: the reflectors of panel k) to its
 * block column, Q_{T-1} first, one ormqr/unmqr per panel.
 *
 * devInfo: EIG_TRD sets it (0, or -4 for a non-finite input: A's position
 * in cuSOLVER's syevd(jobz, uplo, n, A) as the untiled kernel reports it);
 * EIG_STEDC sets stedc's info when it fails; every later task does nothing
 * while it is not 0.
 *
 * The panels are read by every back-transformation task at once. LAPACK's
 * blocked ormqr (larft, larfb) only reads the reflectors, but the
 * unblocked orm2r, which ormqr uses when its block size (at most 64) is
 * not below the number of reflectors, writes a 1 into each reflector's
 * first entry while it applies it; so a panel of at most 64 reflectors (the
 * last one) is applied from a private copy.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"
#include "ops/solver_eig_tile.h"
#include "ops/solver_tile.h"

#define COL LAPACK_COL_MAJOR

static size_t real_size(trn_dtype t) {
    return trn_dtype_is_single(t) ? sizeof(float) : sizeof(double);
}

static int32_t get_info(const trn_solver_dense_desc *d) {
    int32_t v;
    memcpy(&v, d->info, sizeof(v));
    return v;
}

/* P's lower triangle (leading dimension ldp) from A's referenced one:
 * copied (lower), or mirrored and conjugated (upper: P(j, i) = conj A(i, j),
 * i <= j), so that the rest of the work is always on the lower form of the
 * same Hermitian matrix. */
static void copy_in(const trn_solver_dense_desc *d, void *p, int ldp) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t), n = (size_t)d->n, lda = (size_t)d->lda;
    const size_t ld = (size_t)ldp;
    const char *a = d->a;
    if (d->lower) {
        for (size_t j = 0; j < n; j++)
            memcpy((char *)p + (j * ld + j) * es, a + (j * lda + j) * es, (n - j) * es);
        return;
    }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i <= j; i++) {
            memcpy((char *)p + (i * ld + j) * es, a + (j * lda + i) * es, es);
            if (trn_dtype_is_complex(t))
                trn_solver_set_comp(t, p, i * ld + j, 1, -trn_solver_comp(t, p, i * ld + j, 1));
        }
}

/* Whether P's lower triangle holds a NaN or an infinity. */
static int lower_nonfinite(trn_dtype t, int n, const void *p, int ldp) {
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++)
        if (trn_solver_nonfinite(t, n - j, 1, (const char *)p + ((size_t)j * (size_t)ldp + j) * es,
                                 ldp))
            return 1;
    return 0;
}

/* dsyevd's scaling: sigma = rmin / anrm or rmax / anrm when the largest
 * magnitude anrm of the triangle is below rmin = sqrt(safmin / eps) or
 * above rmax = sqrt(1 / (safmin / eps)) of the real type, else 1; P's
 * triangle is multiplied by it (one rounding per entry, as dlascl's single
 * multiplication when the ratio is representable). */
static double scale(trn_dtype t, int n, void *p, int ldp) {
    double anrm = 0.0;
    const size_t nn = (size_t)n, ld = (size_t)ldp;
    const int nc = trn_dtype_is_complex(t) ? 2 : 1;
    for (size_t j = 0; j < nn; j++)
        for (size_t i = j; i < nn; i++) {
            const double re = trn_solver_comp(t, p, j * ld + i, 0);
            const double v = nc == 2 ? hypot(re, trn_solver_comp(t, p, j * ld + i, 1)) : fabs(re);
            if (v > anrm)
                anrm = v;
        }
    const double safmin = trn_dtype_is_single(t) ? (double)FLT_MIN : DBL_MIN;
    const double eps = trn_dtype_is_single(t) ? (double)FLT_EPSILON / 2 : DBL_EPSILON / 2;
    const double smlnum = safmin / eps, rmin = sqrt(smlnum), rmax = sqrt(1.0 / smlnum);
    const double sigma = anrm > 0.0 && anrm < rmin ? rmin / anrm : anrm > rmax ? rmax / anrm : 1.0;
    if (sigma != 1.0)
        for (size_t j = 0; j < nn; j++)
            for (size_t i = j; i < nn; i++)
                for (int c = 0; c < nc; c++)
                    trn_solver_set_comp(t, p, j * ld + i, c,
                                        trn_solver_comp(t, p, j * ld + i, c) * sigma);
    return sigma;
}

static lapack_int call_trd(trn_dtype t, int n, void *p, int ldp, void *dd, void *e, void *tau,
                           void *work, lapack_int lwork) {
    return TRN_BY_TYPE(t,
                       TRN_LIB(LAPACKE_ssytrd_work)(COL, 'L', n, p, ldp, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_dsytrd_work)(COL, 'L', n, p, ldp, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_chetrd_work)(COL, 'L', n, p, ldp, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_zhetrd_work)(COL, 'L', n, p, ldp, dd, e, tau, work, lwork));
}

/* EIG_TRD: copy, check, scale, reduce; the reflectors into the panels. */
static trn_kstatus trd_task(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const int n = d->n, nb = d->tile_nb, ldp = trn_solver_priv_ld(n);
    const size_t es = trn_dtype_size(t);
    trn_solver_put_info(d->info, 0);
    trn_lapack_query q, qa;
    memset(&q, 0, sizeof(q));
    memset(&qa, 0, sizeof(qa));
    lapack_int rc = call_trd(t, n, &qa, ldp, d->d, s.e, s.tau, &q, -1);
    if (rc != 0) {
        trn_kmsg_post(msg, 0, 0, "%s: sytrd's workspace query returned %d",
                      trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    const lapack_int lwork = trn_lapack_lwork(t, &q);
    /* The copy (packed, with its slack), then sytrd's work. */
    const size_t c_bytes = trn_solver_priv_bytes(t, n, n);
    const size_t bytes = c_bytes + (size_t)lwork * es;
    char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of %s's reduction",
                                  trn_solver_name(TRN_SOLVER_SYEVD, t));
    copy_in(d, ws, ldp);
    if (lower_nonfinite(t, n, ws, ldp)) {
        trn_solver_ws_put(ws, bytes);
        trn_solver_put_info(d->info, -4);
        return TRN_KSTATUS_OK;
    }
    *s.sigma = scale(t, n, ws, ldp);
    rc = call_trd(t, n, ws, ldp, d->d, s.e, s.tau, ws + c_bytes, lwork);
    for (int k = 0; rc == 0 && k * nb < n; k++) { /* rows [k nb, n) of block column k */
        const int r0 = k * nb, bk = n - r0 < nb ? n - r0 : nb;
        trn_solver_copy(n - r0, bk, es, ws + ((size_t)r0 * (size_t)ldp + (size_t)r0) * es, ldp,
                        s.panel[k], n - r0);
    }
    trn_solver_ws_put(ws, bytes);
    if (rc == 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "%s: the tridiagonal reduction returned %d",
                  trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
    return TRN_KSTATUS_FAILED;
}

static lapack_int call_stedc(trn_dtype t, int n, void *dd, void *e, void *z, void *work,
                             lapack_int lwork, lapack_int *iwork, lapack_int liwork) {
    return trn_dtype_is_single(t)
               ? TRN_LIB(LAPACKE_sstedc_work)(COL, 'I', n, dd, e, z, n, work, lwork, iwork, liwork)
               : TRN_LIB(LAPACKE_dstedc_work)(COL, 'I', n, dd, e, z, n, work, lwork, iwork, liwork);
}

/* EIG_STEDC: T's eigenpairs into a contiguous real Z, then into the Z
 * pieces (widened for heevd); then the eigenvalues scaled back as dsyevd
 * does (times 1 / sigma). */
static trn_kstatus stedc_task(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const int n = d->n, nb = d->tile_nb;
    const size_t rs = real_size(t), nn = (size_t)n * (size_t)n, es = trn_dtype_size(t);
    const trn_dtype rt = trn_dtype_is_single(t) ? TRN_DTYPE_R32F : TRN_DTYPE_R64F;
    trn_lapack_query q, qz;
    memset(&q, 0, sizeof(q));
    memset(&qz, 0, sizeof(qz));
    lapack_int iq = 0;
    lapack_int rc = call_stedc(t, n, d->d, s.e, &qz, &q, -1, &iq, -1);
    if (rc != 0) {
        trn_kmsg_post(msg, 0, 0, "%s: stedc's workspace query returned %d",
                      trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    const lapack_int lwork = trn_lapack_lwork(rt, &q), liwork = iq > 1 ? iq : 1;
    const size_t zr_bytes = trn_solver_ws_align(nn * rs),
                 w_bytes = trn_solver_ws_align((size_t)lwork * rs);
    const size_t bytes = zr_bytes + w_bytes + (size_t)liwork * sizeof(lapack_int);
    char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of %s's stedc (lwork %d)",
                                  trn_solver_name(TRN_SOLVER_SYEVD, t), (int)lwork);
    rc = call_stedc(t, n, d->d, s.e, ws, ws + zr_bytes, lwork,
                    (lapack_int *)(void *)(ws + zr_bytes + w_bytes), liwork);
    for (int k = 0; rc == 0 && k * nb < n; k++) {
        const int c0 = k * nb, bk = n - c0 < nb ? n - c0 : nb;
        const size_t count = (size_t)bk * (size_t)n, first = (size_t)c0 * (size_t)n;
        if (!trn_dtype_is_complex(t)) {
            memcpy(s.z[k], ws + first * rs, count * rs);
            continue;
        }
        memset(s.z[k], 0, count * es);
        for (size_t e = 0; e < count; e++)
            trn_solver_set_comp(t, s.z[k], e, 0, trn_solver_comp(rt, ws, first + e, 0));
    }
    trn_solver_ws_put(ws, bytes);
    if (rc > 0) { /* no convergence: LAPACK's info, A left as it was */
        trn_solver_put_info(d->info, (int32_t)rc);
        return TRN_KSTATUS_OK;
    }
    if (rc < 0) {
        trn_kmsg_post(msg, 0, 0, "%s: stedc returned %d", trn_solver_name(TRN_SOLVER_SYEVD, t),
                      (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    if (*s.sigma != 1.0) {
        const double inv = 1.0 / *s.sigma;
        for (size_t i = 0; i < (size_t)n; i++)
            trn_solver_set_comp(rt, d->d, i, 0, trn_solver_comp(rt, d->d, i, 0) * inv);
    }
    return TRN_KSTATUS_OK;
}

static lapack_int call_ormqr(trn_dtype t, int m, int nc, int k, const void *v, int ldv,
                             const void *tau, void *c, int ldc, void *work, lapack_int lwork) {
    return TRN_BY_TYPE(
        t, TRN_LIB(LAPACKE_sormqr_work)(COL, 'L', 'N', m, nc, k, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_dormqr_work)(COL, 'L', 'N', m, nc, k, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_cunmqr_work)(COL, 'L', 'N', m, nc, k, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_zunmqr_work)(COL, 'L', 'N', m, nc, k, v, ldv, tau, c, ldc, work, lwork));
}

/* The largest panel applied from a private copy (see the top): ormqr's
 * block size is at most 64. */
#define COPY_PANEL_MAX 64

/* Q_k Z_j: panel k's reflectors (rows [r0 + 1, n), r0 = k nb) applied to
 * those rows of Z's block column j, nc wide. */
static trn_kstatus apply_panel(const trn_solver_dense_desc *d, trn_kmsg *msg, int k, int j,
                               int nc) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const size_t es = trn_dtype_size(t);
    const int n = d->n, r0 = k * d->tile_nb, m = n - 1 - r0;
    const int kk = m < d->tile_nb ? m : d->tile_nb;
    if (kk <= 0)
        return TRN_KSTATUS_OK;
    const void *v = (const char *)s.panel[k] + es; /* row r0 + 1, column 0 */
    int ldv = n - r0;
    void *c = (char *)s.z[j] + (size_t)(r0 + 1) * es;
    const void *tau = (const char *)s.tau + (size_t)r0 * es;
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int rc = call_ormqr(t, m, nc, kk, v, ldv, tau, c, n, &q, -1);
    if (rc == 0) {
        const lapack_int lwork = trn_lapack_lwork(t, &q);
        const size_t w_bytes = trn_solver_ws_align((size_t)lwork * es);
        const size_t v_bytes = kk <= COPY_PANEL_MAX ? (size_t)m * (size_t)kk * es : 0;
        char *ws = trn_solver_ws_get(w_bytes + v_bytes);
        if (!ws)
            return trn_kmsg_no_memory(msg, 0, w_bytes + v_bytes,
                                      "the LAPACK workspace of %s's back-transformation",
                                      trn_solver_name(TRN_SOLVER_SYEVD, t));
        if (v_bytes) {
            trn_solver_copy(m, kk, es, v, ldv, ws + w_bytes, m);
            v = ws + w_bytes;
            ldv = m;
        }
        rc = call_ormqr(t, m, nc, kk, v, ldv, tau, c, n, ws, lwork);
        trn_solver_ws_put(ws, w_bytes + v_bytes);
    }
    if (rc == 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "%s: the back-transformation returned %d",
                  trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
    return TRN_KSTATUS_FAILED;
}

/* EIG_BACK block column j: Z_j = Q_0 (Q_1 (... (Q_{T-1} Z_j))), then into
 * A's block column j. */
static trn_kstatus back_task(const trn_solver_dense_desc *d, trn_kmsg *msg, int j) {
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const size_t es = trn_dtype_size(d->type);
    const int nb = d->tile_nb, c0 = j * nb, bj = d->n - c0 < nb ? d->n - c0 : nb;
    const int T = (d->n + nb - 1) / nb;
    for (int k = T - 1; k >= 0; k--) {
        const trn_kstatus st = apply_panel(d, msg, k, j, bj);
        if (st != TRN_KSTATUS_OK)
            return st;
    }
    trn_solver_copy(d->n, bj, es, s.z[j], d->n, (char *)d->a + (size_t)c0 * (size_t)d->lda * es,
                    d->lda);
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_solver_eig_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards) {
    if (d->fn != TRN_SOLVER_TILE_EIG_TRD && get_info(d) != 0)
        return TRN_KSTATUS_OK; /* refused input or a failed stedc: nothing more to do */
    size_t lo, hi;
    trn_tile_shard_tasks(d, shard, nshards, &lo, &hi);
    trn_kstatus k = TRN_KSTATUS_OK;
    for (size_t t = lo; t < hi && k == TRN_KSTATUS_OK; t++) {
        int i, j;
        trn_tile_task(d, t, &i, &j);
        switch (d->fn) {
        case TRN_SOLVER_TILE_EIG_TRD: k = trd_task(d, msg); break;
        case TRN_SOLVER_TILE_EIG_STEDC: k = stedc_task(d, msg); break;
        case TRN_SOLVER_TILE_EIG_BACK: k = back_task(d, msg, j); break;
        default: return TRN_KSTATUS_UNSUPPORTED;
        }
    }
    return k;
}
