/*
 * cblas_map.h — descriptor enums (ops/op.h) as CBLAS enums, for the CPU
 * kernels that call OpenBLAS's CBLAS (blas2.c, blas3.c). Internal to
 * kernels/cpu/; include after <cblas.h>.
 */
#ifndef TRN_KERNELS_CPU_CBLAS_MAP_H
#define TRN_KERNELS_CPU_CBLAS_MAP_H

#include <cblas.h>

#include "ops/op.h"

static inline enum CBLAS_UPLO trn_cb_uplo(trn_uplo u) {
    return u == TRN_UPLO_UPPER ? CblasUpper : CblasLower;
}

static inline enum CBLAS_TRANSPOSE trn_cb_trans(trn_trans t) {
    return t == TRN_TRANS_N ? CblasNoTrans : t == TRN_TRANS_T ? CblasTrans : CblasConjTrans;
}

static inline enum CBLAS_DIAG trn_cb_diag(trn_diag d) {
    return d == TRN_DIAG_UNIT ? CblasUnit : CblasNonUnit;
}

static inline enum CBLAS_SIDE trn_cb_side(trn_side s) {
    return s == TRN_SIDE_RIGHT ? CblasRight : CblasLeft;
}

#endif
