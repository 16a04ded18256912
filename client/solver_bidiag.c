/*
 * solver_bidiag.c — trnsolver's bidiagonal reduction gebrd (S, D, C, Z)
 * and orgbr / ungbr, which forms its Q or P^H, with their _bufferSize
 * calls. Each queues one SolverDenseOp through trn_solver_dense_submit
 * (protocol 1.15: a daemon that predates it is refused here, naming the
 * routine); the _bufferSize calls report 0, as every trnsolver workspace
 * belongs to the daemon.
 *
 * Invariant: the argument rules (gebrd's m >= n, orgbr's m/n/k/side, the
 * leading dimension, the operands' extents) live in the op's validator
 * (ops/validate/solver.c), which runs in this process before anything is
 * sent; this file checks only the handle and the _bufferSize outputs.
 */
#include "client/solver_internal.h"

/* ORG is orgbr or ungbr; RT the real type of D and E. */
#define BIDIAG(T, ORG, TY, RT, DT)                                                                 \
    trnsolverStatus_t trnsolverDn##T##gebrd_bufferSize(trnsolverDnHandle_t handle, int m, int n,   \
                                                       int *Lwork) {                               \
        (void)m, (void)n;                                                                          \
        return trn_solver_no_workspace(handle, Lwork, "gebrd_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##gebrd(trnsolverDnHandle_t handle, int m, int n, TY *A,       \
                                            int lda, RT *D, RT *E, TY *TAUQ, TY *TAUP, TY *Work,   \
                                            int Lwork, int *devInfo) {                             \
        (void)Work, (void)Lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 15,                                              \
                                         .fn = SV_FN(GEBRD),                                       \
                                         .name = "gebrd",                                          \
                                         .type = DT,                                               \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .d = D,                                                   \
                                         .e = E,                                                   \
                                         .tau = TAUQ,                                              \
                                         .taup = TAUP,                                             \
                                         .info = devInfo};                                         \
        return trn_solver_dense_submit(handle, &g);                                                \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORG##_bufferSize(                                            \
        trnsolverDnHandle_t handle, trnblasSideMode_t side, int m, int n, int k, const TY *A,      \
        int lda, const TY *tau, int *lwork) {                                                      \
        (void)side, (void)m, (void)n, (void)k, (void)A, (void)lda, (void)tau;                      \
        return trn_solver_no_workspace(handle, lwork, #ORG "_bufferSize");                         \
    }                                                                                              \
    trnsolverStatus_t trnsolverDn##T##ORG(trnsolverDnHandle_t handle, trnblasSideMode_t side,      \
                                          int m, int n, int k, TY *A, int lda, const TY *tau,      \
                                          TY *work, int lwork, int *info) {                        \
        (void)work, (void)lwork;                                                                   \
        const trn_solver_dense_args g = {.minor = 15,                                              \
                                         .fn = SV_FN(ORGBR),                                       \
                                         .name = #ORG,                                             \
                                         .type = DT,                                               \
                                         .side = (int)side,                                        \
                                         .m = m,                                                   \
                                         .n = n,                                                   \
                                         .k = k,                                                   \
                                         .a = A,                                                   \
                                         .lda = lda,                                               \
                                         .ldb = 1,                                                 \
                                         .tau = tau,                                               \
                                         .info = info};                                            \
        return trn_solver_dense_submit(handle, &g);                                                \
    }
BIDIAG(S, orgbr, float, float, SV_R32)
BIDIAG(D, orgbr, double, double, SV_R64)
BIDIAG(C, ungbr, trnComplex, float, SV_C32)
BIDIAG(Z, ungbr, trnDoubleComplex, double, SV_C64)
