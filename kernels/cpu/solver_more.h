/*
 * solver_more.h — the entry of solver_more.c (sytrf, sytrs, sytri, laswp,
 * lauum, sytrd, orgtr, ormtr) for solver_factor.c's dispatch of the
 * SOLVER_DENSE kind. Internal to kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_SOLVER_MORE_H
#define TRN_KERNELS_CPU_SOLVER_MORE_H

#include "ops/op.h"

/* Runs d (one of the functions above) on one core; *info gets LAPACK's
 * info (0 for laswp, which writes none). TRN_KSTATUS_FAILED with a
 * message for bad pivots in device memory or no workspace. */
trn_kstatus trn_cpu_solver_more(const trn_solver_dense_desc *d, trn_kmsg *msg, int *info);

#endif
