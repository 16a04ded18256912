/*
 * catalog.c — for each routine, its check and its candidates in order of
 * preference: the library's routine, another library routine computing the
 * same thing (alternatives.c), the in-tree kernel (kernels/cpu/refblas/).
 * The self-test installs the first candidate that passes.
 */
#include <string.h>

#include "kernels/cpu/refblas/refblas.h"
#include "kernels/cpu/selftest/checks.h"

void st_check_run(st_check *c) {
    const char *g = trn_routine_group(c->id);
    if (!g)
        return;
    if (strcmp(g, "blas1") == 0)
        st_check_blas1(c);
    else if (strcmp(g, "blas2") == 0)
        st_check_blas2(c);
    else if (strcmp(g, "blas3") == 0)
        st_check_blas3(c);
    else if (strcmp(g, "lapack") == 0)
        st_check_lapack(c);
    else if (strcmp(g, "fftw") == 0)
        st_check_fftw(c);
}

int st_candidates(int id, st_candidate *out) {
    int n = 0;
    out[n].name = strcmp(trn_routine_group(id), "fftw") == 0          ? "FFTW"
                  : strncmp(trn_routine_name(id), "LAPACKE_", 8) == 0 ? "LAPACK (OpenBLAS)"
                                                                      : "OpenBLAS";
    out[n++].fn = trn_routine_library((trn_routine_id)id);
    const char *alt_name = NULL;
    void *alt = st_alternative(id, &alt_name);
    if (alt) {
        out[n].name = alt_name;
        out[n++].fn = alt;
    }
    void *ref = trn_ref_blas(id);
    if (ref) {
        out[n].name = "in-tree";
        out[n++].fn = ref;
    }
    return n;
}

void *st_refusal_fn(int id) {
    void *ref = trn_ref_blas(id);
    return ref ? ref : st_refusal_stub(id);
}
