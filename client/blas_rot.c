/*
 * blas_rot.c — trnblas rotg (S, D, C, Z), rotm and rotmg (S, D): the
 * Givens and modified Givens rotations of reference BLAS.
 *
 * rotg and rotmg only compute scalars. In host pointer mode they are
 * computed here, during the call, as cuBLAS computes them on the host
 * (ops/blas_rot.h, the same code the daemon runs in device mode); no
 * request is sent and the stream is not involved. In device pointer mode
 * their arguments are device pointers, read and written by one Blas1Op
 * (ROTG, ROTMG) in stream order. rotm applies H to x and y as a Blas1Op;
 * its param array is read during the call in host pointer mode and when
 * the op runs in device pointer mode.
 */
#include "ops/blas_rot.h"
#include "client/blas_internal.h"

/* The protocol minor that has ROTM, ROTG and ROTMG. */
#define ROT_MINOR 12u

typedef struct rot_args {
    const char *name; /* "rotg", ... */
    Trnsci__V1__Blas1Function fn;
    Trnsci__V1__DataType type;
    int n;
    void *x;
    int incx;
    void *y;
    int incy;
    const double *param;      /* ROTM, host pointer mode: 5 values */
    const void *scalars[5];   /* device pointer mode */
    const char *const *names; /* of scalars, for messages */
    size_t nscalars;
} rot_args;

static trnblasStatus_t rot_submit(trnblasHandle_t handle, const rot_args *g) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNBLAS_STATUS_NOT_INITIALIZED;
    if ((e = trn_client_need_minor(c, ROT_MINOR, g->name)))
        return trn_blas_status(e);
    Trnsci__V1__BufferRef x = TRNSCI__V1__BUFFER_REF__INIT, y = TRNSCI__V1__BUFFER_REF__INIT;
    Trnsci__V1__BufferRef sref[5], *sp[5];
    if (g->fn == TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROTM &&
        ((e = trn_client_resolve_named(c, g->x, g->name, "x", NULL, &x)) ||
         (e = trn_client_resolve_named(c, g->y, g->name, "y", NULL, &y))))
        return trn_blas_status(e);
    for (size_t i = 0; i < g->nscalars; i++) {
        if ((e = trn_client_resolve_named(c, g->scalars[i], g->name, g->names[i], NULL, &sref[i])))
            return trn_blas_status(e);
        sp[i] = &sref[i];
    }
    double param[5];
    Trnsci__V1__Blas1Op b = TRNSCI__V1__BLAS1_OP__INIT;
    b.function = g->fn;
    b.type = g->type;
    b.n = g->n;
    b.x = &x;
    b.incx = g->incx;
    b.y = &y;
    b.incy = g->incy;
    if (g->param) {
        memcpy(param, g->param, sizeof(param));
        b.param = param;
        b.n_param = 5;
    }
    b.scalars = sp;
    b.n_scalars = g->nscalars;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_BLAS1;
    op.blas1 = &b;
    return trn_blas_queue(c, handle, &op);
}

static const char *const rotg_names[] = {"a", "b", "c", "s"};
static const char *const rotmg_names[] = {"d1", "d2", "x1", "y1", "param"};
static const char *const rotm_names[] = {"param"};

static trnblasStatus_t null_args(const char *name) {
    return trn_blas_status(
        trn_fail(trnsciErrorInvalidValue, "%s: a scalar argument is NULL", name));
}

/* The host-mode computation, on copies (host complex values need not be
 * aligned as trnComplex). */
static void rotg_host(Trnsci__V1__DataType t, void *a, void *b, void *c, void *s) {
    if (t == R32) {
        trn_rotg_s(a, b, c, s);
    } else if (t == R64) {
        trn_rotg_d(a, b, c, s);
    } else if (t == C32) {
        float av[2], bv[2], cv, sv[2];
        memcpy(av, a, sizeof(av));
        memcpy(bv, b, sizeof(bv));
        trn_rotg_c(av, bv, &cv, sv);
        memcpy(a, av, sizeof(av));
        memcpy(c, &cv, sizeof(cv));
        memcpy(s, sv, sizeof(sv));
    } else {
        double av[2], bv[2], cv, sv[2];
        memcpy(av, a, sizeof(av));
        memcpy(bv, b, sizeof(bv));
        trn_rotg_z(av, bv, &cv, sv);
        memcpy(a, av, sizeof(av));
        memcpy(c, &cv, sizeof(cv));
        memcpy(s, sv, sizeof(sv));
    }
}

#define ROTG(T, TY, RT, DT)                                                                        \
    trnblasStatus_t trnblas##T##rotg(trnblasHandle_t handle, TY *a, TY *b, RT *c, TY *s) {         \
        if (!handle)                                                                               \
            return TRNBLAS_STATUS_NOT_INITIALIZED;                                                 \
        if (!a || !b || !c || !s)                                                                  \
            return null_args("rotg");                                                              \
        if (!DEV) {                                                                                \
            rotg_host(DT, a, b, c, s);                                                             \
            trn_ok();                                                                              \
            return TRNBLAS_STATUS_SUCCESS;                                                         \
        }                                                                                          \
        const rot_args g = {.name = "rotg",                                                        \
                            .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROTG,                          \
                            .type = DT,                                                            \
                            .scalars = {a, b, c, s},                                               \
                            .names = rotg_names,                                                   \
                            .nscalars = 4};                                                        \
        return rot_submit(handle, &g);                                                             \
    }
ROTG(S, float, float, R32)
ROTG(D, double, double, R64)
ROTG(C, trnComplex, float, C32)
ROTG(Z, trnDoubleComplex, double, C64)

#define ROTMG(T, R, DT, FN)                                                                        \
    trnblasStatus_t trnblas##T##rotmg(trnblasHandle_t handle, R *d1, R *d2, R *x1, const R *y1,    \
                                      R *param) {                                                  \
        if (!handle)                                                                               \
            return TRNBLAS_STATUS_NOT_INITIALIZED;                                                 \
        if (!d1 || !d2 || !x1 || !y1 || !param)                                                    \
            return null_args("rotmg");                                                             \
        if (!DEV) {                                                                                \
            FN(d1, d2, x1, *y1, param);                                                            \
            trn_ok();                                                                              \
            return TRNBLAS_STATUS_SUCCESS;                                                         \
        }                                                                                          \
        const rot_args g = {.name = "rotmg",                                                       \
                            .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROTMG,                         \
                            .type = DT,                                                            \
                            .scalars = {d1, d2, x1, y1, param},                                    \
                            .names = rotmg_names,                                                  \
                            .nscalars = 5};                                                        \
        return rot_submit(handle, &g);                                                             \
    }
ROTMG(S, float, R32, trn_rotmg_s)
ROTMG(D, double, R64, trn_rotmg_d)

#define ROTM(T, R, DT)                                                                             \
    trnblasStatus_t trnblas##T##rotm(trnblasHandle_t handle, int n, R *x, int incx, R *y,          \
                                     int incy, const R *param) {                                   \
        if (!handle)                                                                               \
            return TRNBLAS_STATUS_NOT_INITIALIZED;                                                 \
        if (!param)                                                                                \
            return null_args("rotm");                                                              \
        double p[5];                                                                               \
        if (!DEV)                                                                                  \
            for (int i = 0; i < 5; i++)                                                            \
                p[i] = param[i];                                                                   \
        const rot_args g = {.name = "rotm",                                                        \
                            .fn = TRNSCI__V1__BLAS1_FUNCTION__BLAS1_ROTM,                          \
                            .type = DT,                                                            \
                            .n = n,                                                                \
                            .x = x,                                                                \
                            .incx = incx,                                                          \
                            .y = y,                                                                \
                            .incy = incy,                                                          \
                            .param = DEV ? NULL : p,                                               \
                            .scalars = {param},                                                    \
                            .names = rotm_names,                                                   \
                            .nscalars = DEV ? 1 : 0};                                              \
        return rot_submit(handle, &g);                                                             \
    }
ROTM(S, float, R32)
ROTM(D, double, R64)
