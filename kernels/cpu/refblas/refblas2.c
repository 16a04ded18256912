/*
 * refblas2.c — the in-tree BLAS Level 2 kernels (refblas.h): gemv, gbmv,
 * symv / hemv, trmv, trsv, ger / geru / gerc, syr / her, syr2 / her2 in
 * the four element types, instantiated from refblas2_tmpl.h.
 */
#include "kernels/cpu/refblas/refblas.h"

#include <complex.h>
#include <math.h>
#include <stddef.h>

#include "kernels/cpu/refblas/refblas_common.h"

#define RB_KIND 1
#include "kernels/cpu/refblas/refblas2_tmpl.h"
#undef RB_KIND
#define RB_KIND 2
#include "kernels/cpu/refblas/refblas2_tmpl.h"
#undef RB_KIND
#define RB_KIND 3
#include "kernels/cpu/refblas/refblas2_tmpl.h"
#undef RB_KIND
#define RB_KIND 4
#include "kernels/cpu/refblas/refblas2_tmpl.h"
#undef RB_KIND
