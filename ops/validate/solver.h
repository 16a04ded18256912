/*
 * solver.h — argument checks shared by the trnsolver validators
 * (solver.c: factorisations, batched, eigen/SVD;
 * solver_iter.c: extensions and Krylov solvers). Each check writes a
 * message naming the routine and the argument into err and returns -1 when
 * the rule is broken, 0 otherwise. Internal to ops/validate/.
 */
#ifndef TRN_OPS_VALIDATE_SOLVER_H
#define TRN_OPS_VALIDATE_SOLVER_H

#include "ops/validate/validate.h"

/* uplo (cublasFillMode_t): 0 lower, 1 upper; FULL (2) and anything else
 * are refused. */
int trn_vsolver_uplo(trn_vctx *vx, const char *fn, int64_t uplo, int *lower);

/* A column-major rows x cols matrix of es-byte elements with leading
 * dimension ld (already checked >= max(1, rows)), aligned to `align`. */
trn_wire_code trn_vsolver_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int rows, int cols,
                                 int ld, uint64_t es, uint64_t align, const char *what, void **out);

/* count elements of es bytes (a vector). */
trn_wire_code trn_vsolver_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t count,
                                 uint64_t es, uint64_t align, const char *what, void **out);

/* `info` (one int32) or the 16-byte stats record (may be buffer 0). */
trn_wire_code trn_vsolver_info(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                               int32_t **out);
trn_wire_code trn_vsolver_stats(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                                trn_solver_stats **out);

/* A tolerance: finite and >= 0 (0: the routine's default, `dflt`). */
int trn_vsolver_tol(trn_vctx *vx, const char *fn, const char *name, double v, double dflt,
                    double *out);
/* An iteration count: 0 .. INT_MAX (0: the default, `dflt`). */
int trn_vsolver_count(trn_vctx *vx, const char *fn, const char *name, int64_t v, int dflt,
                      int *out);

#endif
