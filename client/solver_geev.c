/*
 * solver_geev.c — trnsolver's Xgeev and Xgeev_bufferSize (cuSOLVER's
 * 64-bit generic nonsymmetric eigensolver): eigenvalues and right
 * eigenvectors of a general matrix, one SolverEigenOp (protocol 1.15: a
 * daemon that predates it is refused here, naming the routine).
 *
 * Invariants:
 *  - this file checks what the wire cannot carry: the handle, the data
 *    types (dataTypeW decides whether a real A's W is n complex values or
 *    2n reals, w_split on the wire), the 64-bit sizes (negative is
 *    INVALID_VALUE, above INT_MAX NOT_SUPPORTED), jobvl (VECTOR is
 *    NOT_SUPPORTED, as cuSOLVER's), the _bufferSize outputs; every other
 *    rule is the op's validator's (ops/validate/solver.c), which runs in
 *    this process before anything is sent;
 *  - the workspace sizes reported are 0 device and 0 host bytes: the
 *    daemon owns LAPACK's workspace.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "client/solver_internal.h"

static const char *type_name(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_32F: return "TRNSCI_R_32F";
    case TRNSCI_R_64F: return "TRNSCI_R_64F";
    case TRNSCI_C_32F: return "TRNSCI_C_32F";
    case TRNSCI_C_64F: return "TRNSCI_C_64F";
    default: return "a type other than R_32F, R_64F, C_32F or C_64F";
    }
}

static trnsolverStatus_t geev_fail(trnsciError_t e, const char *fn, const char *what, long long v) {
    return trn_solver_status(
        trn_fail(e, "%s: %s=%lld %s", fn, what, v,
                 e == trnsciErrorNotSupported ? "is not supported" : "is not valid"));
}

/* The arguments both calls check; fills the wire's type, w_split and the
 * int sizes. Returns TRNSOLVER_STATUS_SUCCESS or the failure (recorded). */
typedef struct geev_dims {
    Trnsci__V1__DataType type;
    int w_split;
    int n, lda, ldvl, ldvr;
} geev_dims;

static trnsolverStatus_t geev_args(const char *fn, trnsolverEigMode_t jobvl, int64_t n,
                                   trnsciDataType_t dataTypeA, int64_t lda,
                                   trnsciDataType_t dataTypeW, trnsciDataType_t dataTypeVL,
                                   int64_t ldvl, trnsciDataType_t dataTypeVR, int64_t ldvr,
                                   trnsciDataType_t computeType, geev_dims *g) {
    trnsciDataType_t cw;
    switch (dataTypeA) {
    case TRNSCI_R_32F: g->type = SV_R32, cw = TRNSCI_C_32F; break;
    case TRNSCI_R_64F: g->type = SV_R64, cw = TRNSCI_C_64F; break;
    case TRNSCI_C_32F: g->type = SV_C32, cw = TRNSCI_C_32F; break;
    case TRNSCI_C_64F: g->type = SV_C64, cw = TRNSCI_C_64F; break;
    default: return geev_fail(trnsciErrorNotSupported, fn, "dataTypeA", (long long)dataTypeA);
    }
    if (dataTypeW != cw && dataTypeW != dataTypeA)
        return trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                          "%s: dataTypeW=%d (%s) is not supported with "
                                          "dataTypeA %s: it must be %s or %s",
                                          fn, (int)dataTypeW, type_name(dataTypeW),
                                          type_name(dataTypeA), type_name(cw),
                                          type_name(dataTypeA)));
    g->w_split = dataTypeW != cw; /* a real A's W as 2n reals */
    const struct {
        const char *name;
        trnsciDataType_t t;
    } same[] = {
        {"dataTypeVL", dataTypeVL}, {"dataTypeVR", dataTypeVR}, {"computeType", computeType}};
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
        if (same[i].t != dataTypeA)
            return trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                              "%s: %s=%d (%s) is not supported: it must be "
                                              "dataTypeA (%s)",
                                              fn, same[i].name, (int)same[i].t,
                                              type_name(same[i].t), type_name(dataTypeA)));
    if (jobvl == TRNSOLVER_EIG_MODE_VECTOR)
        return trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                          "%s: jobvl=TRNSOLVER_EIG_MODE_VECTOR is not supported "
                                          "(left eigenvectors; cuSOLVER's Xgeev takes NOVECTOR "
                                          "only)",
                                          fn));
    const struct {
        const char *name;
        int64_t v;
        int *out;
    } dims[] = {
        {"n", n, &g->n}, {"lda", lda, &g->lda}, {"ldvl", ldvl, &g->ldvl}, {"ldvr", ldvr, &g->ldvr}};
    for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
        if (dims[i].v < 0)
            return geev_fail(trnsciErrorInvalidValue, fn, dims[i].name, (long long)dims[i].v);
        if (dims[i].v > INT_MAX)
            return trn_solver_status(trn_fail(trnsciErrorNotSupported,
                                              "%s: %s=%lld is above INT_MAX (trnsci's kernels "
                                              "take 32-bit sizes)",
                                              fn, dims[i].name, (long long)dims[i].v));
        *dims[i].out = (int)dims[i].v;
    }
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t
trnsolverDnXgeev_bufferSize(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                            trnsolverEigMode_t jobvl, trnsolverEigMode_t jobvr, int64_t n,
                            trnsciDataType_t dataTypeA, const void *A, int64_t lda,
                            trnsciDataType_t dataTypeW, const void *W, trnsciDataType_t dataTypeVL,
                            const void *VL, int64_t ldvl, trnsciDataType_t dataTypeVR,
                            const void *VR, int64_t ldvr, trnsciDataType_t computeType,
                            size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost) {
    (void)params, (void)jobvr, (void)A, (void)W, (void)VL, (void)VR;
    const char *fn = "Xgeev_bufferSize";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    if (!trn_solver_begin(handle, &st))
        return st;
    geev_dims g;
    st = geev_args(fn, jobvl, n, dataTypeA, lda, dataTypeW, dataTypeVL, ldvl, dataTypeVR, ldvr,
                   computeType, &g);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    if (!workspaceInBytesOnDevice || !workspaceInBytesOnHost)
        return trn_solver_status(trn_fail(trnsciErrorInvalidValue, "%s: %s is NULL", fn,
                                          !workspaceInBytesOnDevice ? "workspaceInBytesOnDevice"
                                                                    : "workspaceInBytesOnHost"));
    *workspaceInBytesOnDevice = 0;
    *workspaceInBytesOnHost = 0;
    trn_ok();
    return TRNSOLVER_STATUS_SUCCESS;
}

trnsolverStatus_t trnsolverDnXgeev(trnsolverDnHandle_t handle, trnsolverDnParams_t params,
                                   trnsolverEigMode_t jobvl, trnsolverEigMode_t jobvr, int64_t n,
                                   trnsciDataType_t dataTypeA, void *A, int64_t lda,
                                   trnsciDataType_t dataTypeW, void *W, trnsciDataType_t dataTypeVL,
                                   void *VL, int64_t ldvl, trnsciDataType_t dataTypeVR, void *VR,
                                   int64_t ldvr, trnsciDataType_t computeType, void *bufferOnDevice,
                                   size_t workspaceInBytesOnDevice, void *bufferOnHost,
                                   size_t workspaceInBytesOnHost, int *info) {
    (void)params, (void)VL, (void)bufferOnDevice, (void)workspaceInBytesOnDevice,
        (void)bufferOnHost, (void)workspaceInBytesOnHost;
    const char *fn = "Xgeev";
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    trn_client *c = trn_solver_begin(handle, &st);
    if (!c)
        return st;
    geev_dims g;
    st = geev_args(fn, jobvl, n, dataTypeA, lda, dataTypeW, dataTypeVL, ldvl, dataTypeVR, ldvr,
                   computeType, &g);
    if (st != TRNSOLVER_STATUS_SUCCESS)
        return st;
    const trnsciError_t need = trn_client_need_minor(c, 15, fn);
    if (need != trnsciSuccess)
        return trn_solver_status(need);
    Trnsci__V1__BufferRef a, w, vr, inf;
    /* VR is referenced only with jobvr VECTOR (cuSOLVER's callers may pass
     * anything otherwise). */
    const void *vr_ptr = jobvr == TRNSOLVER_EIG_MODE_VECTOR ? VR : NULL;
    if (trn_solver_ref(c, A, "Xgeev: A", &a, &st) || trn_solver_ref(c, W, "Xgeev: W", &w, &st) ||
        trn_solver_ref(c, vr_ptr, "Xgeev: VR", &vr, &st) ||
        trn_solver_ref(c, info, "Xgeev: info", &inf, &st))
        return st;
    Trnsci__V1__SolverEigenOp e = TRNSCI__V1__SOLVER_EIGEN_OP__INIT;
    e.function = SV_FN(GEEV);
    e.type = g.type;
    e.jobz = (int64_t)jobvr;
    e.jobvl = (int64_t)jobvl;
    e.n = g.n;
    e.m = g.n;
    e.a = &a;
    e.lda = g.lda;
    e.w = &w;
    e.w_split = g.w_split;
    e.v = &vr;
    e.ldv = g.ldvr;
    e.ldvl = g.ldvl;
    e.info = &inf;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_SOLVER_EIGEN;
    op.solver_eigen = &e;
    return trn_solver_submit(c, handle, &op);
}
