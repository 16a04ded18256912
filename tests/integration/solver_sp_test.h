/*
 * solver_sp_test.h — what the trnsolverSp integration tests
 * (test_solver_sp.c, test_solver_sp_complex.c) share: device uploads and one
 * device-side csrlsvqr/csrlsvchol solve for any of S, D, C and Z.
 * Header-only (static functions); include after cmocka.h and solver_test.h.
 *
 * The tolerance and reorder arguments of the solve (1e-12 with reorder 0/1
 * in double, 1e-6 with 2/3 in single) are the ones each test also passes to
 * the Host form, whose result must match bit for bit.
 */
#ifndef TRN_TESTS_SOLVER_SP_TEST_H
#define TRN_TESTS_SOLVER_SP_TEST_H

#include <stddef.h>

#include "solver_test.h"
#include "trnsci/trnsolverSp.h"

/* A device copy of bytes of h; at least one byte is allocated so an empty
 * array still has a valid address. */
static inline void *sp_upload(const void *h, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes ? bytes : 1), trnsciSuccess);
    if (bytes)
        assert_int_equal(trnsciMemcpy(d, h, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

/* Solves A x = b with trnsolverSp<t>csrlsvchol (chol) or csrlsvqr on the
 * device, A the n x n CSR matrix (val, rowptr, col; nnz entries) under
 * descr, and checks the call succeeds and finds A nonsingular. The n
 * elements of x, stored as type t, are left in raw. */
static inline void sp_lsv_device(trnsolverSpHandle_t h, ty t, int chol, int n, int nnz,
                                 trnsparseMatDescr_t descr, const void *val, const int *rowptr,
                                 const int *col, const void *b, void *raw) {
    const size_t es = esize(t);
    void *dv = sp_upload(val, (size_t)nnz * es);
    int *dr = sp_upload(rowptr, (size_t)(n + 1) * sizeof(int));
    int *dc = sp_upload(col, (size_t)nnz * sizeof(int));
    void *db = sp_upload(b, (size_t)n * es);
    void *dx = sp_upload(b, (size_t)n * es); /* overwritten */
    int sing = 7;
    trnsolverStatus_t st;
    switch (t) {
    case TY_S:
        st = chol ? trnsolverSpScsrlsvchol(h, n, nnz, descr, dv, dr, dc, db, 1e-6f, 2, dx, &sing)
                  : trnsolverSpScsrlsvqr(h, n, nnz, descr, dv, dr, dc, db, 1e-6f, 3, dx, &sing);
        break;
    case TY_D:
        st = chol ? trnsolverSpDcsrlsvchol(h, n, nnz, descr, dv, dr, dc, db, 1e-12, 0, dx, &sing)
                  : trnsolverSpDcsrlsvqr(h, n, nnz, descr, dv, dr, dc, db, 1e-12, 1, dx, &sing);
        break;
    case TY_C:
        st = chol ? trnsolverSpCcsrlsvchol(h, n, nnz, descr, dv, dr, dc, db, 1e-6f, 2, dx, &sing)
                  : trnsolverSpCcsrlsvqr(h, n, nnz, descr, dv, dr, dc, db, 1e-6f, 3, dx, &sing);
        break;
    default:
        st = chol ? trnsolverSpZcsrlsvchol(h, n, nnz, descr, dv, dr, dc, db, 1e-12, 0, dx, &sing)
                  : trnsolverSpZcsrlsvqr(h, n, nnz, descr, dv, dr, dc, db, 1e-12, 1, dx, &sing);
        break;
    }
    if (st != TRNSOLVER_STATUS_SUCCESS)
        fail_msg("status %d: %s", (int)st, trnsciGetLastErrorMessage());
    assert_int_equal(sing, -1);
    assert_int_equal(trnsciMemcpy(raw, dx, (size_t)n * es, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    void *all[] = {dv, dr, dc, db, dx};
    for (int k = 0; k < 5; k++)
        assert_int_equal(trnsciFree(all[k]), trnsciSuccess);
}

#endif
