/*
 * solver_eig_tile.c — the tasks of a tiled syevd/heevd
 * (ops/solver_eig_tile.h) on the CPU: LAPACK sytrd/hetrd, stedc and
 * ormqr/unmqr, each single-threaded on the shard's worker, on the op's
 * scratch. A shard runs the contiguous run of its step's tasks that
 * trn_tile_shard_tasks gives it; a back-transformation task writes only its
 * own block column of Z and of A.
 *
 * devInfo: EIG_TRD sets it (0, or -4 for a non-finite input: A's position
 * in cuSOLVER's syevd(jobz, uplo, n, A) as the untiled kernel reports it);
 * EIG_STEDC sets stedc's info when it fails; every later task does nothing
 * while it is not 0.
 *
 * The reflectors are read by every back-transformation task at once: LAPACK's
 * blocked ormqr/unmqr (larft, larfb) only reads them, and with n - 1 >= 1023
 * reflectors and the queried workspace ormqr always takes its blocked path
 * (the unblocked orm2r, which writes a 1 into each reflector's first entry
 * while applying it, runs only when the block size reaches k).
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

static int is_complex(trn_dtype t) {
    return t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
}

static int single(trn_dtype t) {
    return t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
}

static size_t real_size(trn_dtype t) {
    return single(t) ? sizeof(float) : sizeof(double);
}

static int32_t get_info(const trn_solver_dense_desc *d) {
    int32_t v;
    memcpy(&v, d->info, sizeof(v));
    return v;
}

static void put_info(const trn_solver_dense_desc *d, int32_t v) {
    memcpy(d->info, &v, sizeof(v));
}

static size_t ws_align(size_t bytes) {
    return (bytes + 63) & ~(size_t)63;
}

/* Component c (0 real, 1 imaginary) of element k of an array of type t,
 * and its assignment. */
static double comp(trn_dtype t, const void *p, size_t k, int c) {
    const size_t ncomp = is_complex(t) ? 2 : 1;
    return single(t) ? (double)((const float *)p)[k * ncomp + (size_t)c]
                     : ((const double *)p)[k * ncomp + (size_t)c];
}

static void set_comp(trn_dtype t, void *p, size_t k, int c, double v) {
    const size_t ncomp = is_complex(t) ? 2 : 1;
    if (single(t))
        ((float *)p)[k * ncomp + (size_t)c] = (float)v;
    else
        ((double *)p)[k * ncomp + (size_t)c] = v;
}

/* P's lower triangle from A's referenced one: copied (lower), or mirrored
 * and conjugated (upper: P(j, i) = conj A(i, j), i <= j), so that the rest
 * of the work is always on the lower form of the same Hermitian matrix. */
static void copy_in(const trn_solver_dense_desc *d, void *p) {
    const trn_dtype t = d->type;
    const size_t es = trn_dtype_size(t), n = (size_t)d->n, lda = (size_t)d->lda;
    const char *a = d->a;
    if (d->lower) {
        for (size_t j = 0; j < n; j++)
            memcpy((char *)p + (j * n + j) * es, a + (j * lda + j) * es, (n - j) * es);
        return;
    }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i <= j; i++) {
            memcpy((char *)p + (i * n + j) * es, a + (j * lda + i) * es, es);
            if (is_complex(t))
                set_comp(t, p, i * n + j, 1, -comp(t, p, i * n + j, 1));
        }
}

/* Whether P's lower triangle holds a NaN or an infinity. */
static int lower_nonfinite(trn_dtype t, int n, const void *p) {
    const size_t es = trn_dtype_size(t);
    for (int j = 0; j < n; j++)
        if (trn_solver_nonfinite(t, n - j, 1, (const char *)p + ((size_t)j * (size_t)n + j) * es,
                                 n))
            return 1;
    return 0;
}

/* dsyevd's scaling: sigma = rmin / anrm or rmax / anrm when the largest
 * magnitude anrm of the triangle is below rmin = sqrt(safmin / eps) or
 * above rmax = sqrt(1 / (safmin / eps)) of the real type, else 1; P's
 * triangle is multiplied by it. */
static double scale(trn_dtype t, int n, void *p) {
    double anrm = 0.0;
    const size_t nn = (size_t)n;
    for (size_t j = 0; j < nn; j++)
        for (size_t i = j; i < nn; i++) {
            const double re = comp(t, p, j * nn + i, 0);
            const double v = is_complex(t) ? hypot(re, comp(t, p, j * nn + i, 1)) : fabs(re);
            if (v > anrm)
                anrm = v;
        }
    const double safmin = single(t) ? (double)FLT_MIN : DBL_MIN;
    const double eps = single(t) ? (double)FLT_EPSILON / 2 : DBL_EPSILON / 2;
    const double smlnum = safmin / eps, rmin = sqrt(smlnum), rmax = sqrt(1.0 / smlnum);
    const double sigma = anrm > 0.0 && anrm < rmin ? rmin / anrm : anrm > rmax ? rmax / anrm : 1.0;
    if (sigma != 1.0)
        for (size_t j = 0; j < nn; j++)
            for (size_t i = j; i < nn; i++)
                for (int c = 0; c < (is_complex(t) ? 2 : 1); c++)
                    set_comp(t, p, j * nn + i, c, comp(t, p, j * nn + i, c) * sigma);
    return sigma;
}

static lapack_int call_trd(trn_dtype t, int n, void *p, void *dd, void *e, void *tau, void *work,
                           lapack_int lwork) {
    return TRN_BY_TYPE(t, TRN_LIB(LAPACKE_ssytrd_work)(COL, 'L', n, p, n, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_dsytrd_work)(COL, 'L', n, p, n, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_chetrd_work)(COL, 'L', n, p, n, dd, e, tau, work, lwork),
                       TRN_LIB(LAPACKE_zhetrd_work)(COL, 'L', n, p, n, dd, e, tau, work, lwork));
}

/* EIG_TRD: copy, check, scale, reduce. */
static trn_kstatus trd_task(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    put_info(d, 0);
    copy_in(d, s.p);
    if (lower_nonfinite(t, d->n, s.p)) {
        put_info(d, -4);
        return TRN_KSTATUS_OK;
    }
    *s.sigma = scale(t, d->n, s.p);
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int rc = call_trd(t, d->n, s.p, d->d, s.e, s.tau, &q, -1);
    if (rc == 0) {
        const lapack_int lwork = trn_lapack_lwork(t, &q);
        const size_t bytes = (size_t)lwork * trn_dtype_size(t);
        void *ws = trn_solver_ws_get(bytes);
        if (!ws)
            return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of %s's reduction",
                                      trn_solver_name(TRN_SOLVER_SYEVD, t));
        rc = call_trd(t, d->n, s.p, d->d, s.e, s.tau, ws, lwork);
        trn_solver_ws_put(ws, bytes);
    }
    if (rc == 0)
        return TRN_KSTATUS_OK;
    trn_kmsg_post(msg, 0, 0, "%s: the tridiagonal reduction returned %d",
                  trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
    return TRN_KSTATUS_FAILED;
}

static lapack_int call_stedc(trn_dtype t, int n, void *dd, void *e, void *z, void *work,
                             lapack_int lwork, lapack_int *iwork, lapack_int liwork) {
    return single(t)
               ? TRN_LIB(LAPACKE_sstedc_work)(COL, 'I', n, dd, e, z, n, work, lwork, iwork, liwork)
               : TRN_LIB(LAPACKE_dstedc_work)(COL, 'I', n, dd, e, z, n, work, lwork, iwork, liwork);
}

/* EIG_STEDC: T's eigenpairs, real (widened into Z for heevd), then the
 * eigenvalues scaled back as dsyevd does (times 1 / sigma). */
static trn_kstatus stedc_task(const trn_solver_dense_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const size_t rs = real_size(t), nn = (size_t)d->n * (size_t)d->n;
    const trn_dtype rt = single(t) ? TRN_DTYPE_R32F : TRN_DTYPE_R64F;
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int iq = 0;
    lapack_int rc = call_stedc(t, d->n, d->d, s.e, s.z, &q, -1, &iq, -1);
    if (rc != 0) {
        trn_kmsg_post(msg, 0, 0, "%s: stedc's workspace query returned %d",
                      trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    const lapack_int lwork = trn_lapack_lwork(rt, &q), liwork = iq > 1 ? iq : 1;
    /* Complex: the real Z first, widened afterwards. */
    const size_t zr_bytes = is_complex(t) ? ws_align(nn * rs) : 0;
    const size_t w_bytes = ws_align((size_t)lwork * rs);
    const size_t bytes = zr_bytes + w_bytes + (size_t)liwork * sizeof(lapack_int);
    char *ws = trn_solver_ws_get(bytes);
    if (!ws)
        return trn_kmsg_no_memory(msg, 0, bytes, "the LAPACK workspace of %s's stedc (lwork %d)",
                                  trn_solver_name(TRN_SOLVER_SYEVD, t), (int)lwork);
    void *zr = is_complex(t) ? ws : s.z;
    rc = call_stedc(t, d->n, d->d, s.e, zr, ws + zr_bytes, lwork,
                    (lapack_int *)(void *)(ws + zr_bytes + w_bytes), liwork);
    if (rc == 0 && is_complex(t)) {
        memset(s.z, 0, nn * trn_dtype_size(t));
        for (size_t k = 0; k < nn; k++)
            set_comp(t, s.z, k, 0, comp(rt, zr, k, 0));
    }
    trn_solver_ws_put(ws, bytes);
    if (rc > 0) { /* no convergence: LAPACK's info, A left as it was */
        put_info(d, (int32_t)rc);
        return TRN_KSTATUS_OK;
    }
    if (rc < 0) {
        trn_kmsg_post(msg, 0, 0, "%s: stedc returned %d", trn_solver_name(TRN_SOLVER_SYEVD, t),
                      (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    if (*s.sigma != 1.0) {
        const double inv = 1.0 / *s.sigma;
        for (size_t i = 0; i < (size_t)d->n; i++)
            set_comp(rt, d->d, i, 0, comp(rt, d->d, i, 0) * inv);
    }
    return TRN_KSTATUS_OK;
}

static lapack_int call_ormqr(trn_dtype t, int m, int nc, const void *v, int ldv, const void *tau,
                             void *c, int ldc, void *work, lapack_int lwork) {
    return TRN_BY_TYPE(
        t, TRN_LIB(LAPACKE_sormqr_work)(COL, 'L', 'N', m, nc, m, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_dormqr_work)(COL, 'L', 'N', m, nc, m, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_cunmqr_work)(COL, 'L', 'N', m, nc, m, v, ldv, tau, c, ldc, work, lwork),
        TRN_LIB(LAPACKE_zunmqr_work)(COL, 'L', 'N', m, nc, m, v, ldv, tau, c, ldc, work, lwork));
}

/* EIG_BACK block column j: Z_j = Q Z_j, Q = diag(1, H_1 ... H_{n-1}) with
 * the reflectors below P's subdiagonal (sytrd 'L'), then into A. */
static trn_kstatus back_task(const trn_solver_dense_desc *d, trn_kmsg *msg, int j) {
    const trn_dtype t = d->type;
    const trn_eig_tile_parts s = trn_eig_tile_layout(d);
    const size_t es = trn_dtype_size(t), n = (size_t)d->n;
    const int c0 = j * d->tile_nb, bj = d->n - c0 < d->tile_nb ? d->n - c0 : d->tile_nb;
    const void *v = (const char *)s.p + es;             /* P(1, 0) */
    void *zc = (char *)s.z + ((size_t)c0 * n + 1) * es; /* Z(1, c0) */
    trn_lapack_query q;
    memset(&q, 0, sizeof(q));
    lapack_int rc = call_ormqr(t, d->n - 1, bj, v, d->n, s.tau, zc, d->n, &q, -1);
    if (rc == 0) {
        const lapack_int lwork = trn_lapack_lwork(t, &q);
        const size_t bytes = (size_t)lwork * es;
        void *ws = trn_solver_ws_get(bytes);
        if (!ws)
            return trn_kmsg_no_memory(msg, 0, bytes,
                                      "the LAPACK workspace of %s's back-transformation",
                                      trn_solver_name(TRN_SOLVER_SYEVD, t));
        rc = call_ormqr(t, d->n - 1, bj, v, d->n, s.tau, zc, d->n, ws, lwork);
        trn_solver_ws_put(ws, bytes);
    }
    if (rc != 0) {
        trn_kmsg_post(msg, 0, 0, "%s: the back-transformation returned %d",
                      trn_solver_name(TRN_SOLVER_SYEVD, t), (int)rc);
        return TRN_KSTATUS_FAILED;
    }
    trn_solver_copy(d->n, bj, es, (const char *)s.z + (size_t)c0 * n * es, d->n,
                    (char *)d->a + (size_t)c0 * (size_t)d->lda * es, d->lda);
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
