/*
 * solver.h — argument checks shared by the trnsolver validators (solver.c:
 * factorisations, batched, eigen/SVD; solver_iter.c: extensions and Krylov
 * solvers), beside the kit's (kit.h). Internal to ops/validate/.
 */
#ifndef TRN_OPS_VALIDATE_SOLVER_H
#define TRN_OPS_VALIDATE_SOLVER_H

#include "ops/validate/kit.h"

/* uplo (cublasFillMode_t): 0 lower, 1 upper; FULL (2) and anything else
 * are refused. */
trn_wire_code trn_vsolver_uplo(trn_vctx *vx, const char *fn, int64_t uplo, int *lower);

/* `info` (one int32) or the 16-byte stats record (may be buffer 0). */
trn_wire_code trn_vsolver_info(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                               int32_t **out);
trn_wire_code trn_vsolver_stats(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, const char *fn,
                                trn_solver_stats **out);

#endif
