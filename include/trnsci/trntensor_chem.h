/*
 * trntensor_chem.h — trntensor's fused chemistry kernels (trnsci
 * extensions; cuTENSOR has no counterpart): the AO -> MO transformation of
 * density-fitting integrals and the DF-MP2 correlation energy, the two
 * steps of density-fitted MP2 that dominate its cost (docs/df_mp2.md walks
 * through the whole workflow; examples/df_mp2 runs it).
 *
 * Both calls are asynchronous on the handle's stream (trntensorSetStream):
 * they return once the daemon has checked the arguments and queued the op.
 * Sizes are int64_t and must lie in 0 .. 2^31 - 1; pointers are device
 * pointers (trnsciMalloc), aligned to their element size.
 *
 * Layouts (element offsets; column-major as in cuBLAS, the first index
 * fastest):
 *   Cocc    nbf x nocc, Cocc[mu, i]  at Cocc[mu + i * ldCocc]   (ldCocc >= nbf)
 *   Cvir    nbf x nvir, Cvir[nu, a]  at Cvir[nu + a * ldCvir]   (ldCvir >= nbf)
 *   Lpq     (P|mu nu)                at Lpq[mu + nu * nbf + P * nbf * nbf]
 *   B       B[i, a, P]               at B[P + a * naux + i * naux * nvir]
 * With the MO coefficients C (nbf x nmo, column-major, ld nbf) Cocc = C and
 * Cvir = C + nocc * nbf. Lpq is naux column-major nbf x nbf slabs; for a
 * numpy array L of shape (naux, nbf, nbf) in C order, L[P, nu, mu] is at
 * that offset, which is (P|mu nu) since the integrals are symmetric in mu
 * and nu. B is a numpy array of shape (nocc, nvir, naux) in C order: P
 * fastest, so that (ia|jb) = sum_P B[i,a,P] B[j,b,P] is one GEMM over
 * contiguous rows.
 */
#ifndef TRNSCI_TRNTENSOR_CHEM_H
#define TRNSCI_TRNTENSOR_CHEM_H

#include <stdint.h>

#include <trnsci/trntensor.h>

#ifdef __cplusplus
extern "C" {
#endif

/* B[i, a, P] = sum_{mu, nu} Cocc[mu, i] Cvir[nu, a] (P|mu nu) for every
 * occupied i, virtual a and auxiliary function P, in one call: per block of
 * P a half transformation (one GEMM, contracting mu) and a full one (a GEMM
 * per i, contracting nu), with the daemon's scratch bounded (about 8 MiB per
 * core). dataType is TRNSCI_R_32F or TRNSCI_R_64F for every operand; the
 * GEMMs run in that precision. nbf = 0 sets B to 0; nocc, nvir or naux = 0
 * does nothing. The op is split over blocks of P on the daemon's cores, with
 * the same bits on any core count.
 * TRNTENSOR_STATUS_INVALID_VALUE: a size outside 0 .. 2^31 - 1, ldCocc or
 * ldCvir < max(1, nbf), an operand outside its allocation or misaligned, a
 * NULL handle. TRNTENSOR_STATUS_NOT_SUPPORTED: another data type, or nbf *
 * nocc elements over 1 GiB (one block's scratch). */
trntensorStatus_t trntensorAoToMo(const trntensorHandle_t handle, trnsciDataType_t dataType,
                                  int64_t nbf, int64_t nocc, int64_t nvir, int64_t naux,
                                  const void *Cocc, int64_t ldCocc, const void *Cvir,
                                  int64_t ldCvir, const void *Lpq, void *B);

/* The DF-MP2 correlation energy (closed shell):
 *   E = sum_{i,j,a,b} (ia|jb) [2 (ia|jb) - (ib|ja)] / (e_i + e_j - e_a - e_b),
 *   (ia|jb) = sum_P B[i,a,P] B[j,b,P],
 * with B as trntensorAoToMo writes it (already fitted: B = L^-1 B_raw for
 * the metric's Cholesky factor L, docs/df_mp2.md). The integrals are made
 * in blocks of (i, j <= i) pairs, an nvir x nvir block per pair (memory
 * O(nvir^2 * block)), in dataType's precision (TRNSCI_R_32F: SGEMM); every
 * term and the sum are float64, the sum compensated (Neumaier), so the
 * summation adds no more than about 2 u |E| (u = 2^-53) to the error of the
 * integrals. The op is split over occupied orbitals on the daemon's cores
 * and the partial sums added in a fixed order: the energy has the same bits
 * on any core count.
 * epsOcc (nocc) and epsVir (nvir) are device arrays of float64 orbital
 * energies whatever dataType is. energy is a device pointer to one float64
 * (trnsciMalloc), written when the op runs, as cuTENSOR writes results to
 * device memory: read it with trnsciMemcpy after a synchronize. nocc, nvir
 * or naux = 0 gives E = 0.
 * Orbital energies are read when the op runs: each must be finite and every
 * e_a - e_i > 0 (a positive gap, so no denominator is zero or positive);
 * otherwise the op fails and the next synchronize returns
 * trnsciErrorInvalidValue with a message naming the offending pair (energy
 * is then unspecified).
 * TRNTENSOR_STATUS_INVALID_VALUE: a size outside 0 .. 2^31 - 1, an operand
 * outside its allocation or misaligned, energy NULL, a NULL handle.
 * TRNTENSOR_STATUS_NOT_SUPPORTED: another data type, or nvir^2 elements over
 * 1 GiB (one pair's block). */
trntensorStatus_t trntensorMp2Energy(const trntensorHandle_t handle, trnsciDataType_t dataType,
                                     int64_t nocc, int64_t nvir, int64_t naux, const void *B,
                                     const double *epsOcc, const double *epsVir, double *energy);

#ifdef __cplusplus
}
#endif

#endif
