/*
 * df_mp2.h — what the parts of examples/df_mp2 share: the options, the
 * system on the host, and the steps the main program strings together
 * (docs/df_mp2.md is the manual).
 */
#ifndef TRN_EXAMPLES_DF_MP2_H
#define TRN_EXAMPLES_DF_MP2_H

#include <stddef.h>
#include <stdint.h>

#include "trnsci/trnsci.h"

/* How the stages are computed:
 *   FP64   everything in float64;
 *   FP32   everything in float32: the metric's Cholesky factor, the
 *          transformation, the fit after it, the pair energies;
 *   MIXED  the metric's Cholesky factor and the fit of the AO integrals
 *          (B_P,mu nu = sum_Q L^-1_PQ (Q|mu nu)) in float64, converted on
 *          the daemon to float32 (trntensorPermute), then the
 *          transformation and the pair energies in float32. The fit is
 *          where the metric's condition number amplifies rounding errors;
 *          doing it in float64 before the float32 work keeps the energy
 *          within 1e-7 Eh of FP64 on real molecules (docs/df_mp2.md). */
typedef enum df_precision { DF_FP64 = 0, DF_FP32 = 1, DF_MIXED = 2 } df_precision;

typedef struct df_opts {
    const char *input, *save, *addr;
    int nbf, nocc, naux, nmo, json, repeat;
    df_precision precision;
    unsigned long long seed;
    double decay;  /* synthetic: (P|mu nu) *= exp(-|mu - nu| / decay); 0: none */
    double screen; /* AO-pair screening threshold; 0: none */
} df_opts;

/* The system on the host, in float64 (converted to the run's precision
 * when uploaded). Layouts: L[mu + nu nbf + P nbf^2] = (P|mu nu) (the
 * layout trntensorAoToMo takes), J and C column-major. */
typedef struct df_sys {
    int nbf, nocc, nvir, naux, nmo;
    double *l, *j, *c, *eps;
} df_sys;

/* What screening kept (screen.c). */
typedef struct df_screen_stats {
    int64_t pairs, pairs_kept; /* AO pairs (mu, nu), ordered */
    double bound;              /* on any |B_raw[i,a,P]| change it causes */
} df_screen_stats;

/* Fails the program with what and the library's last message; returns 1. */
int df_die(const char *what);
#define DF_CHECK(call, what)                                                                       \
    do {                                                                                           \
        if ((call) != 0)                                                                           \
            return df_die(what);                                                                   \
    } while (0)

void *df_xcalloc(size_t n, size_t es); /* exits when out of memory */

/* inputs.c: the system from .npy files, or a synthetic one; --save. */
int df_load_inputs(const df_opts *o, df_sys *s);
int df_synthetic(const df_opts *o, df_sys *s);
int df_save_inputs(const char *dir, const df_sys *s);
void df_sys_free(df_sys *s);
/* A device copy of n float64 values, as float32 when fp32. NULL on failure. */
void *df_upload(const double *h, size_t n, int fp32);

/* screen.c: B_raw[i,a,P] = sum Cocc[mu,i] Cvir[nu,a] (P|mu nu) over the AO
 * pairs the screen keeps, through trnsparse (the half transformation as a
 * CSR SpMM) and trnblas (the other half as a strided batched GEMM), in
 * float32 when fp32. d_c is C on the daemon (nbf x nmo, ld nbf); d_b gets
 * B_raw (nocc nvir naux elements). */
int df_screened_ao_to_mo(const df_sys *s, double threshold, int fp32, const void *d_c, void *d_b,
                         df_screen_stats *stats);

#endif
