/*
 * checks.h — the self-test's checks, one entry point per group of
 * routines, and the candidates each routine may be replaced with.
 *
 * Each st_check_<group> runs every case of routine c->id (a routine of its
 * group, kernels/cpu/routines.h) on candidate c->fn, recording into c. The
 * cases are the shapes the kernels pass, made awkward: n = 1, odd n, n not
 * a multiple of 8/16/32, negative and non-unit increments, leading
 * dimensions above the rows, operands at guard pages and unaligned, both
 * triangles and every transpose.
 */
#ifndef TRN_ST_CHECKS_H
#define TRN_ST_CHECKS_H

#include "kernels/cpu/routines.h"
#include "kernels/cpu/selftest/check.h"

/* A routine's row in a check file's table: its kind (the file's enum) and
 * element type. */
typedef struct st_entry {
    int id;
    int kind;
    st_type t;
} st_entry;

/* The row of routine id in table[0..n), or NULL. */
static inline const st_entry *st_find_entry(const st_entry *table, size_t n, int id) {
    for (size_t i = 0; i < n; i++)
        if (table[i].id == id)
            return &table[i];
    return NULL;
}

/* Transposes by index: 0 N, 1 T, 2 C (C is T for real types). */
static inline CBLAS_TRANSPOSE st_cblas_trans(int i) {
    return i == 0 ? CblasNoTrans : i == 1 ? CblasTrans : CblasConjTrans;
}
static inline const char *st_trans_name(int i) {
    return i == 0 ? "N" : i == 1 ? "T" : "C";
}

void st_check_blas1(st_check *c);
void st_check_blas2(st_check *c);
void st_check_blas3(st_check *c);
void st_check_lapack(st_check *c);
void st_check_fftw(st_check *c);

/* Runs the check of c->id's group. */
void st_check_run(st_check *c);

/* One implementation a routine may use, fastest first. */
typedef struct st_candidate {
    const char *name; /* "OpenBLAS", "cblas_sasum over 2n reals", "in-tree" */
    void *fn;         /* a function of the routine's type */
} st_candidate;

#define ST_MAX_CANDIDATES 4

/* The candidates of routine id, the library's own first. Returns how
 * many (at least 1). */
int st_candidates(int id, st_candidate *out);
/* What the table holds for a routine nothing correct was found for
 * (routines.h: "refused"): the in-tree kernel of a BLAS routine, or a stub
 * that does nothing (LAPACK: returns an error; FFTW: plans nothing). */
void *st_refusal_fn(int id);

/* Library routines that compute what another does (alternatives.c). NULL
 * when routine id has none. */
void *st_alternative(int id, const char **name);
/* The stubs of refused LAPACK and FFTW routines (alternatives.c). */
void *st_refusal_stub(int id);

#endif
