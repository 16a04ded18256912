/*
 * solver_internal.h — what the trnsolver client files (client/solver*.c)
 * share: the handle and parameter objects, the mapping of runtime errors to
 * cuSOLVER statuses, and the submit helper. Internal to client/.
 */
#ifndef TRN_CLIENT_SOLVER_INTERNAL_H
#define TRN_CLIENT_SOLVER_INTERNAL_H

#include "client/client.h"
#include "trnsci/trnsolver.h"

#include "client/sparse_internal.h"

struct trnsolverDnContext {
    trnsciStream_t stream;
    trnsolverDeterministicMode_t mode; /* 0: never set, DETERMINISTIC_RESULTS */
};

/* syevjInfo / gesvdjInfo: the controls, and the 16-byte device record the
 * daemon writes the residual and sweeps into (allocated on first use, in
 * the session `gen`). */
typedef struct trn_jacobi_params {
    double tolerance; /* 0: default */
    int max_sweeps;   /* 0: default */
    int sort;
    void *dev;    /* trnsolverIterResult_t in device memory, or NULL */
    uint64_t gen; /* the session dev belongs to */
    int used;     /* a routine has been queued with it in that session */
} trn_jacobi_params;

struct syevjInfo {
    trn_jacobi_params p;
};
struct gesvdjInfo {
    trn_jacobi_params p;
};

struct trnsolverIterParams {
    double tolerance;
    int max_iters, restart;
    trnsolverPrecond_t precond;
    int block_size;
    double omega;
};

struct trnsolverOperator {
    int type; /* Trnsci__V1__DataType */
    int n, lda;
    const void *a; /* dense */
    int sparse;    /* sp holds a copy of the trnsparse descriptor */
    struct trnsparseSpMatDescr sp;
};

/* The cuSOLVER status for a runtime error (the message stays recorded). */
trnsolverStatus_t trn_solver_status(trnsciError_t e);

/* Queues op on the handle's stream (handle checked by the caller) and
 * records success; returns the status. */
trnsolverStatus_t trn_solver_submit(trn_client *c, trnsolverDnHandle_t handle, Trnsci__V1__Op *op);

/* The client and the handle check every routine starts with: NULL handle
 * gives NOT_INITIALIZED. Returns NULL with *st set on failure. */
trn_client *trn_solver_begin(trnsolverDnHandle_t handle, trnsolverStatus_t *st);

/* One SolverDenseOp's arguments as a routine gives them (unused pointers
 * NULL, unused sizes 0). `name` is the routine's ("getrf"), and names the
 * operands in messages: "getrf: A", "… B" ("… C" for ormqr and ormtr),
 * "… devIpiv" (or `ipiv_name`), "… tau", "… devInfo", "… d", "… e" (gebrd: "… D",
 * "… E", "… TAUQ", "… TAUP", cuSOLVER's names). */
typedef struct trn_solver_dense_args {
    Trnsci__V1__SolverFunction fn;
    const char *name;
    Trnsci__V1__DataType type;
    int uplo, side;
    trnblasOperation_t trans;
    int m, n, k, nrhs; /* k: orgqr's reflectors, laswp's k1 */
    const void *a;
    int lda;
    const void *b;
    int ldb;
    const int *ipiv;
    const char *ipiv_name; /* NULL: "devIpiv" */
    const void *tau;
    int *info;
    int k2, incx;      /* laswp */
    const void *d, *e; /* sytrd, gebrd */
    const void *taup;  /* gebrd (tau is TAUQ) */
    unsigned minor;    /* the protocol minor the function needs (0: any) */
} trn_solver_dense_args;

/* Resolves the operands and queues the SolverDenseOp on the handle's
 * stream (after asking the daemon for g->minor). */
trnsolverStatus_t trn_solver_dense_submit(trnsolverDnHandle_t handle,
                                          const trn_solver_dense_args *g);

/* Resolves device pointer p into ref; returns 0, or -1 with *st set. */
int trn_solver_ref(trn_client *c, const void *p, const char *what, Trnsci__V1__BufferRef *ref,
                   trnsolverStatus_t *st);

/* A _bufferSize function: workspace belongs to the daemon, so *lwork = 0
 * (fn names the call in errors). */
trnsolverStatus_t trn_solver_no_workspace(trnsolverDnHandle_t handle, int *lwork, const char *fn);

/* The device record of a Jacobi params object for this session (allocated
 * when first needed); NULL with *st set on failure. */
void *trn_jacobi_record(trn_client *c, trn_jacobi_params *p, trnsolverStatus_t *st);

/* Queues the SolverEigenOp e from routine `name`. With Jacobi params jp
 * (NULL for the other routines) it also sends jp's controls and names jp's
 * device record as e's stats, and marks jp used once the op is queued.
 * Returns the status. */
trnsolverStatus_t trn_solver_eigen_submit(trn_client *c, trnsolverDnHandle_t handle,
                                          Trnsci__V1__SolverEigenOp *e, trn_jacobi_params *jp,
                                          const char *name);

/* Wire data types. */
#define SV_R32 TRNSCI__V1__DATA_TYPE__R_32F
#define SV_R64 TRNSCI__V1__DATA_TYPE__R_64F
#define SV_C32 TRNSCI__V1__DATA_TYPE__C_32F
#define SV_C64 TRNSCI__V1__DATA_TYPE__C_64F
#define SV_FN(f) TRNSCI__V1__SOLVER_FUNCTION__SOLVER_##f

#endif
