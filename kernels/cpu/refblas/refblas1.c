/*
 * refblas1.c — the in-tree BLAS Level 1 kernels (refblas.h): axpy, scal,
 * copy, swap, rot, dot, nrm2, asum, i?amax, i?amin in the four element
 * types, instantiated from refblas1_tmpl.h; and trn_ref_blas, which maps a
 * routine id to its in-tree kernel.
 */
#include "kernels/cpu/refblas/refblas.h"

#include <complex.h>
#include <math.h>
#include <stddef.h>

#include "kernels/cpu/refblas/refblas_common.h"

#define RB_KIND 1
#include "kernels/cpu/refblas/refblas1_tmpl.h"
#undef RB_KIND
#define RB_KIND 2
#include "kernels/cpu/refblas/refblas1_tmpl.h"
#undef RB_KIND
#define RB_KIND 3
#include "kernels/cpu/refblas/refblas1_tmpl.h"
#undef RB_KIND
#define RB_KIND 4
#include "kernels/cpu/refblas/refblas1_tmpl.h"
#undef RB_KIND

void *trn_ref_blas(int routine_id) {
    switch (routine_id) {
#define REF(group, name)                                                                           \
    case TRN_R_##name: return (void *)&trn_ref_##name;
        TRN_ROUTINES_BLAS1(REF)
        TRN_ROUTINES_BLAS2(REF)
        TRN_ROUTINES_BLAS3(REF)
#undef REF
    default: break;
    }
    return NULL;
}
