/*
 * refblas3.c — the in-tree BLAS Level 3 kernels (refblas.h): gemm, symm,
 * hemm, syrk, herk, syr2k, her2k, trmm, trsm in
 * the four element types, instantiated from refblas3_tmpl.h.
 */
#include "kernels/cpu/refblas/refblas.h"

#include <complex.h>
#include <math.h>
#include <stddef.h>

#include "kernels/cpu/refblas/refblas_common.h"

#define RB_KIND 1
#include "kernels/cpu/refblas/refblas3_tmpl.h"
#undef RB_KIND
#define RB_KIND 2
#include "kernels/cpu/refblas/refblas3_tmpl.h"
#undef RB_KIND
#define RB_KIND 3
#include "kernels/cpu/refblas/refblas3_tmpl.h"
#undef RB_KIND
#define RB_KIND 4
#include "kernels/cpu/refblas/refblas3_tmpl.h"
#undef RB_KIND
