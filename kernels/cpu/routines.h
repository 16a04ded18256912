/*
 * routines.h — every routine of an outside library that the CPU kernels
 * call, reached through one table that the start-up self-test fills.
 *
 * The kernels never call cblas_*, LAPACKE_* or FFTW's planners by name:
 * they call TRN_LIB(cblas_sgemm)(...). The table holds, per routine, the
 * implementation that passed the self-test (kernels/cpu/selftest/): the
 * library's own routine, another library routine that computes the same
 * thing (scasum as sasum over 2n reals), or an in-tree kernel
 * (kernels/cpu/refblas/). Until a self-test installs its choices every
 * entry is the library's routine, which is what a program that never runs
 * the self-test (a unit test of a kernel's arithmetic) gets.
 *
 * A routine with no correct implementation is "refused": its entry points
 * at the safest thing callable with its signature (the in-tree kernel for
 * BLAS, a stub that touches nothing for LAPACK and FFTW), and every use of
 * it marks the calling thread (trn_routine_take_refusal), so that the
 * backend fails the op with a message naming the routine instead of
 * returning what it computed.
 *
 * Invariant: the table is process-wide because kernels take no context; it
 * is written only by trn_routine_install (the self-test's result, at start
 * and after an on-demand run) and read with atomic loads, so a kernel
 * running while an on-demand run installs a replacement sees the old or
 * the new routine, both of which passed the checks the old one did.
 *
 * FFTW's execute functions are not in the table: a plan's arithmetic is
 * chosen when it is planned, so the planner entry points carry the checks
 * (each check executes its plan through the new-array execute function the
 * kernels use).
 */
#ifndef TRN_KERNELS_CPU_ROUTINES_H
#define TRN_KERNELS_CPU_ROUTINES_H

#include <fftw3.h>

#include <cblas.h>
#include <lapacke.h>
#include <stdatomic.h>

/* X(group, name) for every routine, grouped as the self-test reports them. */
#define TRN_ROUTINES_BLAS1(X)                                                                      \
    X(blas1, cblas_saxpy)                                                                          \
    X(blas1, cblas_daxpy)                                                                          \
    X(blas1, cblas_caxpy)                                                                          \
    X(blas1, cblas_zaxpy)                                                                          \
    X(blas1, cblas_sscal)                                                                          \
    X(blas1, cblas_dscal) X(blas1, cblas_cscal) X(blas1, cblas_zscal) X(blas1, cblas_csscal) X(    \
        blas1, cblas_zdscal) X(blas1, cblas_scopy) X(blas1, cblas_dcopy) X(blas1, cblas_ccopy)     \
        X(blas1, cblas_zcopy) X(blas1, cblas_sswap) X(blas1, cblas_dswap) X(blas1, cblas_cswap)    \
            X(blas1, cblas_zswap) X(blas1, cblas_srot) X(blas1, cblas_drot) X(blas1, cblas_csrot)  \
                X(blas1, cblas_zdrot) X(blas1, cblas_sdot) X(blas1, cblas_ddot)                    \
                    X(blas1, cblas_cdotu_sub) X(blas1, cblas_cdotc_sub) X(blas1, cblas_zdotu_sub)  \
                        X(blas1, cblas_zdotc_sub) X(blas1, cblas_snrm2) X(blas1, cblas_dnrm2)      \
                            X(blas1, cblas_scnrm2) X(blas1, cblas_dznrm2) X(blas1, cblas_sasum)    \
                                X(blas1, cblas_dasum) X(blas1, cblas_scasum)                       \
                                    X(blas1, cblas_dzasum) X(blas1, cblas_isamax)                  \
                                        X(blas1, cblas_idamax) X(blas1, cblas_icamax)              \
                                            X(blas1, cblas_izamax) X(blas1, cblas_isamin)          \
                                                X(blas1, cblas_idamin) X(blas1, cblas_icamin)      \
                                                    X(blas1, cblas_izamin)

#define TRN_ROUTINES_BLAS2(X)                                                                      \
    X(blas2, cblas_sgemv)                                                                          \
    X(blas2, cblas_dgemv)                                                                          \
    X(blas2, cblas_cgemv)                                                                          \
    X(blas2, cblas_zgemv)                                                                          \
    X(blas2, cblas_sgbmv)                                                                          \
    X(blas2, cblas_dgbmv) X(blas2, cblas_cgbmv) X(blas2, cblas_zgbmv) X(blas2, cblas_ssymv)        \
        X(blas2, cblas_dsymv) X(blas2, cblas_chemv) X(blas2, cblas_zhemv) X(blas2, cblas_strmv)    \
            X(blas2, cblas_dtrmv) X(blas2, cblas_ctrmv) X(blas2, cblas_ztrmv)                      \
                X(blas2, cblas_strsv) X(blas2, cblas_dtrsv) X(blas2, cblas_ctrsv)                  \
                    X(blas2, cblas_ztrsv) X(blas2, cblas_sger) X(blas2, cblas_dger)                \
                        X(blas2, cblas_cgeru) X(blas2, cblas_zgeru) X(blas2, cblas_cgerc)          \
                            X(blas2, cblas_zgerc) X(blas2, cblas_ssyr) X(blas2, cblas_dsyr)        \
                                X(blas2, cblas_cher) X(blas2, cblas_zher) X(blas2, cblas_ssyr2)    \
                                    X(blas2, cblas_dsyr2) X(blas2, cblas_cher2)                    \
                                        X(blas2, cblas_zher2)

#define TRN_ROUTINES_BLAS3(X)                                                                      \
    X(blas3, cblas_sgemm)                                                                          \
    X(blas3, cblas_dgemm)                                                                          \
    X(blas3, cblas_cgemm)                                                                          \
    X(blas3, cblas_zgemm)                                                                          \
    X(blas3, cblas_ssymm)                                                                          \
    X(blas3, cblas_dsymm) X(blas3, cblas_csymm) X(blas3, cblas_zsymm) X(blas3, cblas_chemm)        \
        X(blas3, cblas_zhemm) X(blas3, cblas_ssyrk) X(blas3, cblas_dsyrk) X(blas3, cblas_csyrk)    \
            X(blas3, cblas_zsyrk) X(blas3, cblas_cherk) X(blas3, cblas_zherk)                      \
                X(blas3, cblas_ssyr2k) X(blas3, cblas_dsyr2k) X(blas3, cblas_csyr2k)               \
                    X(blas3, cblas_zsyr2k) X(blas3, cblas_cher2k) X(blas3, cblas_zher2k)           \
                        X(blas3, cblas_strmm) X(blas3, cblas_dtrmm) X(blas3, cblas_ctrmm)          \
                            X(blas3, cblas_ztrmm) X(blas3, cblas_strsm) X(blas3, cblas_dtrsm)      \
                                X(blas3, cblas_ctrsm) X(blas3, cblas_ztrsm)

#define TRN_ROUTINES_LAPACK(X)                                                                     \
    X(lapack, LAPACKE_spotrf_work)                                                                 \
    X(lapack, LAPACKE_dpotrf_work)                                                                 \
    X(lapack, LAPACKE_cpotrf_work)                                                                 \
    X(lapack, LAPACKE_zpotrf_work)                                                                 \
    X(lapack, LAPACKE_spotrs_work)                                                                 \
    X(lapack, LAPACKE_dpotrs_work) X(lapack, LAPACKE_cpotrs_work) X(                               \
        lapack, LAPACKE_zpotrs_work) X(lapack, LAPACKE_spotri_work) X(lapack, LAPACKE_dpotri_work) \
        X(lapack, LAPACKE_cpotri_work) X(lapack, LAPACKE_zpotri_work) X(                           \
            lapack, LAPACKE_sgetrf_work) X(lapack, LAPACKE_dgetrf_work) X(lapack,                  \
                                                                          LAPACKE_cgetrf_work)     \
            X(lapack, LAPACKE_zgetrf_work) X(lapack, LAPACKE_sgetrs_work) X(                       \
                lapack, LAPACKE_dgetrs_work) X(lapack, LAPACKE_cgetrs_work) X(lapack,              \
                                                                              LAPACKE_zgetrs_work) \
                X(lapack, LAPACKE_sgeqrf_work) X(lapack, LAPACKE_dgeqrf_work) X(                   \
                    lapack, LAPACKE_cgeqrf_work) X(lapack,                                         \
                                                   LAPACKE_zgeqrf_work) X(lapack,                  \
                                                                          LAPACKE_sorgqr_work)     \
                    X(lapack, LAPACKE_dorgqr_work) X(lapack, LAPACKE_cungqr_work) X(               \
                        lapack, LAPACKE_zungqr_work) X(lapack,                                     \
                                                       LAPACKE_sormqr_work) X(lapack,              \
                                                                              LAPACKE_dormqr_work) \
                        X(lapack, LAPACKE_cunmqr_work) X(lapack, LAPACKE_zunmqr_work) X(           \
                            lapack,                                                                \
                            LAPACKE_ssyevd_work) X(lapack,                                         \
                                                   LAPACKE_dsyevd_work) X(lapack,                  \
                                                                          LAPACKE_cheevd_work)     \
                            X(lapack, LAPACKE_zheevd_work) X(lapack, LAPACKE_ssygvd_work) X(       \
                                lapack,                                                            \
                                LAPACKE_dsygvd_work) X(lapack,                                     \
                                                       LAPACKE_chegvd_work) X(lapack,              \
                                                                              LAPACKE_zhegvd_work) \
                                X(lapack, LAPACKE_sgesvd_work) X(lapack, LAPACKE_dgesvd_work) X(   \
                                    lapack, LAPACKE_cgesvd_work) X(lapack, LAPACKE_zgesvd_work)    \
                                    X(lapack, LAPACKE_sgeev_work) X(lapack, LAPACKE_dgeev_work) X( \
                                        lapack, LAPACKE_cgeev_work) X(lapack, LAPACKE_zgeev_work)  \
                                        X(lapack, LAPACKE_ssytrd_work) X(                          \
                                            lapack, LAPACKE_dsytrd_work) X(lapack,                 \
                                                                           LAPACKE_chetrd_work)    \
                                            X(lapack, LAPACKE_zhetrd_work) X(lapack,               \
                                                                             LAPACKE_sstedc_work)  \
                                                X(lapack, LAPACKE_dstedc_work) X(                  \
                                                    lapack, LAPACKE_sgebrd_work)                   \
                                                    X(lapack, LAPACKE_dgebrd_work) X(              \
                                                        lapack, LAPACKE_cgebrd_work)               \
                                                        X(lapack, LAPACKE_zgebrd_work) X(          \
                                                            lapack, LAPACKE_sorgbr_work)           \
                                                            X(lapack, LAPACKE_dorgbr_work) X(      \
                                                                lapack, LAPACKE_cungbr_work)       \
                                                                X(lapack, LAPACKE_zungbr_work) X(  \
                                                                    lapack, LAPACKE_sbdsqr_work)   \
                                                                    X(lapack, LAPACKE_dbdsqr_work) \
                                                                        X(lapack,                  \
                                                                          LAPACKE_cbdsqr_work)     \
                                                                            X(lapack,              \
                                                                              LAPACKE_zbdsqr_work)

#define TRN_ROUTINES_FFTW(X)                                                                       \
    X(fftw, fftwf_plan_many_dft)                                                                   \
    X(fftw, fftwf_plan_many_dft_r2c)                                                               \
    X(fftw, fftwf_plan_many_dft_c2r)                                                               \
    X(fftw, fftw_plan_many_dft) X(fftw, fftw_plan_many_dft_r2c) X(fftw, fftw_plan_many_dft_c2r)

#define TRN_ROUTINES(X)                                                                            \
    TRN_ROUTINES_BLAS1(X)                                                                          \
    TRN_ROUTINES_BLAS2(X) TRN_ROUTINES_BLAS3(X) TRN_ROUTINES_LAPACK(X) TRN_ROUTINES_FFTW(X)

/* TRN_R_cblas_sgemm, …: a routine's index in the table. */
typedef enum trn_routine_id {
#define TRN_ROUTINE_ID(group, name) TRN_R_##name,
    TRN_ROUTINES(TRN_ROUTINE_ID)
#undef TRN_ROUTINE_ID
        TRN_ROUTINE_COUNT
} trn_routine_id;

/* The table: one atomic pointer of the routine's own type per routine,
 * and whether it is refused. */
typedef struct trn_routine_table {
#define TRN_ROUTINE_SLOT(group, name) _Atomic(__typeof__(&name)) name;
    TRN_ROUTINES(TRN_ROUTINE_SLOT)
#undef TRN_ROUTINE_SLOT
    atomic_uchar refused[TRN_ROUTINE_COUNT];
} trn_routine_table;

extern trn_routine_table trn_routines;

/* Marks the calling thread: it used refused routine id. */
void trn_routine_note_refused(trn_routine_id id);

/* The routine to call for `name`, e.g. TRN_LIB(cblas_sgemm)(CblasColMajor, …). */
#define TRN_LIB(name) (trn_routine_use(TRN_R_##name), trn_routine_get_##name())

static inline void trn_routine_use(trn_routine_id id) {
    if (atomic_load_explicit(&trn_routines.refused[id], memory_order_relaxed))
        trn_routine_note_refused(id);
}

#define TRN_ROUTINE_GETTER(group, name)                                                            \
    static inline __typeof__(&name) trn_routine_get_##name(void) {                                 \
        return atomic_load_explicit(&trn_routines.name, memory_order_acquire);                     \
    }
TRN_ROUTINES(TRN_ROUTINE_GETTER)
#undef TRN_ROUTINE_GETTER

/* "cblas_sgemm", and its group ("blas1", "blas2", "blas3", "lapack",
 * "fftw"). NULL for an id out of range. */
const char *trn_routine_name(int id);
const char *trn_routine_group(int id);
/* The id of a routine named name, or -1. */
int trn_routine_find(const char *name);

/* The library's own routine (what the table starts with). */
void *trn_routine_library(trn_routine_id id);
/* The routine the table holds now, and whether it is refused. */
void *trn_routine_current(trn_routine_id id);
int trn_routine_is_refused(trn_routine_id id);

/* Points id's entry at fn, a function of id's type (the self-test's
 * choice), or refuses the routine when refused is set (fn is then what
 * gets called: it must be safe to call with any arguments the kernels
 * pass and must not write through them). */
void trn_routine_install(trn_routine_id id, void *fn, int refused);
/* Every entry back to the library's routine, none refused. */
void trn_routine_reset(void);

/* Refusals on the calling thread: clear before a kernel runs; take after
 * it returns. Returns the first refused routine the thread used since the
 * last clear, or -1. */
void trn_routine_clear_refusal(void);
int trn_routine_take_refusal(void);

#endif
