/*
 * solver_bidiag.h — the entry of solver_bidiag.c (gebrd, orgbr / ungbr)
 * for solver_factor.c's dispatch of the SOLVER_DENSE kind. Internal to
 * kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_SOLVER_BIDIAG_H
#define TRN_KERNELS_CPU_SOLVER_BIDIAG_H

#include "ops/op.h"

/* Runs d (GEBRD or ORGBR) on one core; *info is 0. TRN_KSTATUS_NO_MEMORY
 * with a message when orgbr's workspace cannot be had. */
trn_kstatus trn_cpu_solver_bidiag(const trn_solver_dense_desc *d, trn_kmsg *msg, int *info);

#endif
