/*
 * cpu_kernels.h — the CPU backend's kernels, one file per family.
 * Internal to kernels/cpu/.
 */
#ifndef TRN_KERNELS_CPU_KERNELS_H
#define TRN_KERNELS_CPU_KERNELS_H

#include <string.h>

#include "ops/op.h"

/* A scalar read from device memory when its op runs (device pointer mode):
 * an element of type t, or only its real component when real_only (and
 * always for real types). */
static inline trn_scalar trn_cpu_load_scalar(trn_dtype t, const void *p, int real_only) {
    trn_scalar v = {0.0, 0.0};
    const int two = !real_only && (t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F);
    if (t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F) {
        float f[2] = {0.0f, 0.0f};
        memcpy(f, p, two ? sizeof(f) : sizeof(f[0]));
        v.re = f[0];
        v.im = f[1];
    } else {
        double f[2] = {0.0, 0.0};
        memcpy(f, p, two ? sizeof(f) : sizeof(f[0]));
        v.re = f[0];
        v.im = f[1];
    }
    return v;
}

/* The backend's entry for each op kind: trn_cpu_run_<stem> (stems:
 * ops/op_kinds.h), which runs shard of nshards of op. backend_cpu.c builds its
 * table of kernels from the list; each kernel's file defines its kinds'
 * entries with TRN_CPU_ENTRY, which says how the kernel is called. */
#define TRN_CPU_ENTRY_DECLARE(kind, value, wire, stem, field, label, title, family, engine)        \
    trn_kstatus trn_cpu_run_##stem(const trn_op_desc *op, int shard, int nshards);
TRN_OP_KINDS(TRN_CPU_ENTRY_DECLARE)
#undef TRN_CPU_ENTRY_DECLARE

#define TRN_CPU_ENTRY(stem, call)                                                                  \
    trn_kstatus trn_cpu_run_##stem(const trn_op_desc *op, int shard, int nshards) {                \
        return (call);                                                                             \
    }

/* Shard s of n of the half-open range [0, total): [*lo, *hi). Contiguous,
 * deterministic, and covering the range exactly once over all shards. */
void trn_cpu_shard_range(size_t total, int shard, int nshards, size_t *lo, size_t *hi);

trn_kstatus trn_cpu_memset(const trn_memset_desc *d, int shard, int nshards);
trn_kstatus trn_cpu_copy(const trn_copy_desc *d, int shard, int nshards);
/* Shards split C into blocks of columns that start at multiples of 24
 * (blas_gemm.c explains why). The precision modes allocate workspace; when
 * they cannot, msg says how much (TRN_KSTATUS_NO_MEMORY). */
trn_kstatus trn_cpu_gemm(const trn_gemm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* BLAS Level 1 (blas1.c): always one shard (its shard limit is 1:
 * ops/blas.c), so reductions are bitwise reproducible. */
trn_kstatus trn_cpu_blas1(const trn_blas1_desc *d, int shard, int nshards);
/* Level 1 on R16F / R16BF data (blas1_narrow.c): exact widening, FP32
 * arithmetic, one rounding per stored value; scalars read here. */
trn_kstatus trn_cpu_blas1_narrow(const trn_blas1_desc *d);
/* trsmBatched (blas_trsm_batched.c): the shard's contiguous range of the
 * batch, one OpenBLAS trsm per matrix. */
trn_kstatus trn_cpu_trsm_batched(const trn_lu_batched_desc *d, int shard, int nshards);
/* Compensated reductions (blas1_compensated.c), _s in float, _d in double;
 * comps is 1 for real and 2 for complex vectors. */
float trn_comp_dot_s(int n, const float *x, int incx, const float *y, int incy);
double trn_comp_dot_d(int n, const double *x, int incx, const double *y, int incy);
void trn_comp_cdot_s(int n, const float *x, int incx, const float *y, int incy, int conj,
                     float out[2]);
void trn_comp_cdot_d(int n, const double *x, int incx, const double *y, int incy, int conj,
                     double out[2]);
float trn_comp_nrm2_s(int n, const float *x, int incx, int comps);
double trn_comp_nrm2_d(int n, const double *x, int incx, int comps);
float trn_comp_asum_s(int n, const float *x, int incx, int comps);
double trn_comp_asum_d(int n, const double *x, int incx, int comps);
/* BLAS Level 2 (blas2.c): one shard. */
trn_kstatus trn_cpu_blas2(const trn_blas2_desc *d, int shard, int nshards);
/* The band and packed Level 2 routines (TBMV .. HPR2) of one tile, with
 * scalars loaded, quick returns taken and y scaled (blas2_band.c). */
trn_kstatus trn_cpu_blas2_band(const trn_blas2_desc *d);
/* BLAS Level 3 beyond GEMM (blas3.c): shards take whole output tiles
 * (trn_blas3_tiles in ops/op.h), so any shard count gives the same
 * bits. */
trn_kstatus trn_cpu_blas3(const trn_blas3_desc *d, int shard, int nshards);
/* FFTs with FFTW (fft.c): plans of one FFTW plan per variant, built on the
 * plan cache's planner thread; shards own contiguous ranges of the batch. */
void *trn_cpu_fft_plan_create(const trn_plan_spec *spec, trn_kstatus *why, char *err,
                              size_t errlen);
trn_kstatus trn_cpu_fft_plan_build(void *plan, unsigned variant, char *err, size_t errlen);
uint64_t trn_cpu_fft_plan_bytes(const void *plan);
void trn_cpu_fft_plan_release(void *plan);

/* trntensor (tensor.c, tensor_ew.c). A contraction plan is its GEMM
 * mapping (ops/tensor_plan.h), made at once; shards split like a
 * batched GEMM's (batch elements, blocks of 24 columns). */
void *trn_cpu_tensor_plan_create(const trn_plan_spec *spec, trn_kstatus *why, char *err,
                                 size_t errlen);
uint64_t trn_cpu_tensor_plan_bytes(const void *plan);
void trn_cpu_tensor_plan_release(void *plan);
trn_kstatus trn_cpu_tensor_contract(const trn_tensor_contract_desc *d, trn_kmsg *kmsg, int shard,
                                    int nshards);
/* A trinary contraction (tensor_trinary.c): two binary contractions through
 * an intermediate, as one shard (shard 0 runs it, the others return). */
trn_kstatus trn_cpu_tensor_trinary(const trn_tensor_trinary_desc *d, trn_kmsg *kmsg, int shard,
                                   int nshards);
/* Element-wise ops, permutations and reductions: shards own ranges of D's
 * elements. */
trn_kstatus trn_cpu_tensor_ew(const trn_tensor_ew_desc *d, int shard, int nshards);
int trn_cpu_fft_wisdom_load(const char *dir, char *err, size_t errlen);
int trn_cpu_fft_wisdom_save(const char *dir, char *err, size_t errlen);
/* All FFTW wisdom (double and single) as one malloc'd text, or NULL; and
 * importing such a text (0, or -1 when FFTW refuses it). Planner only. */
char *trn_cpu_fft_wisdom_export(void);
int trn_cpu_fft_wisdom_import(char *text);
/* A 16-bit (half or bfloat16) op allocates float scratch per shard; without
 * memory for it, msg says how much (NO_MEMORY). */
trn_kstatus trn_cpu_fft(const trn_fft_desc *d, trn_kmsg *msg, int shard, int nshards);
/* A step of one large transform cut into steps (fft_step.c,
 * ops/fft_step.h) with plan, the FFTW plan of its variant: shards own
 * contiguous runs of the step's tasks; without memory for a task's
 * workspace, msg says how much (NO_MEMORY). */
trn_kstatus trn_cpu_fft_step(const trn_fft_desc *d, void *plan, trn_kmsg *msg, int shard,
                             int nshards);
/* Philox4x32-10 stream and its distributions (rand.c, docs/numerics.md),
 * and the same distributions of the XORWOW, MRG32k3a, MT19937 and MTGP32 streams
 * (rand_seq.c). Shards own ranges of elements that start at even indices. Sobol ops
 * (d->gen != TRN_RAND_PHILOX) go to sobol.c, whose shards own contiguous
 * element ranges. A Poisson op's shards each build the table of its
 * lambda; without memory for it, msg says how much (NO_MEMORY). */
trn_kstatus trn_cpu_rand(const trn_rand_desc *d, trn_kmsg *msg, int shard, int nshards);
/* trnsolver (solver_*.c). Everything runs as one shard except the batched
 * routines, whose shards own contiguous ranges of the batch. A routine that
 * cannot allocate its workspace returns TRN_KSTATUS_NO_MEMORY with msg
 * saying how much, and writes no result (not even info). */
trn_kstatus trn_cpu_solver_dense(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                 int nshards);
/* One shard of a step of a tiled factorisation (ops/solver_tile.h): its run
 * of the step's tile tasks. */
trn_kstatus trn_cpu_solver_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                int nshards);
/* One shard of a step of a tiled syevd/heevd (ops/solver_eig_tile.h). */
trn_kstatus trn_cpu_solver_eig_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards);
/* One shard of a step of a tiled potri (ops/solver_inv_tile.h). */
trn_kstatus trn_cpu_solver_inv_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards);
/* One shard of a step of a tiled gesvd (ops/solver_svd_tile.h). */
trn_kstatus trn_cpu_solver_svd_tile(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard,
                                    int nshards);
/* A shard's tasks of tiled step d, each run by task(d, msg, t) until one
 * fails: those it claims from d->tile_claim (ops/solver_tile.h,
 * "Claiming"), or without the counter its fixed run (trn_tile_shard_tasks). */
typedef trn_kstatus (*trn_cpu_tile_task_fn)(const trn_solver_dense_desc *d, trn_kmsg *msg,
                                            size_t t);
trn_kstatus trn_cpu_tile_run(const trn_solver_dense_desc *d, trn_kmsg *msg, int shard, int nshards,
                             trn_cpu_tile_task_fn task);
trn_kstatus trn_cpu_solver_batched(const trn_solver_batched_desc *d, int shard, int nshards);
trn_kstatus trn_cpu_solver_eigen(const trn_solver_eigen_desc *d, trn_kmsg *msg, int shard,
                                 int nshards);
/* syevj and gesvdj (solver_jacobi.c), reached through trn_cpu_solver_eigen. */
trn_kstatus trn_cpu_solver_jacobi(const trn_solver_eigen_desc *d, trn_kmsg *msg);
/* sygvj and gesvdaStridedBatched (solver_eigen_ext.c), reached through
 * trn_cpu_solver_eigen; gesvda's shards own contiguous ranges of its batch. */
trn_kstatus trn_cpu_solver_sygvj(const trn_solver_eigen_desc *d, trn_kmsg *msg);
trn_kstatus trn_cpu_solver_gesvda(const trn_solver_eigen_desc *d, trn_kmsg *msg, int shard,
                                  int nshards);
trn_kstatus trn_cpu_solver_refine(const trn_solver_refine_desc *d, trn_kmsg *msg, int shard,
                                  int nshards);
trn_kstatus trn_cpu_solver_krylov(const trn_solver_krylov_desc *d, trn_kmsg *msg, int shard,
                                  int nshards);
/* trnsparse SpMV/SpMM (sparse_spmm.c): splits follow trn_spmm_split; a bad
 * offset or index fails the op with its position in msg. */
trn_kstatus trn_cpu_spmm(const trn_spmm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* SpGEMM (sparse_spgemm.c): the count pass is one shard, the fill splits
 * A's rows by C's entries. */
trn_kstatus trn_cpu_spgemm(const trn_spgemm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* SDDMM (sparse_sddmm.c): C's rows split by entries. */
trn_kstatus trn_cpu_sddmm(const trn_sddmm_desc *d, trn_kmsg *msg, int shard, int nshards);
/* Block-sparse attention (sparse_attention.c): shards own (batch entry,
 * block row) pairs. */
trn_kstatus trn_cpu_attention(const trn_attn_desc *d, trn_kmsg *msg, int shard, int nshards);
/* Schwarz bounds (sparse_screen.c): one shard. */
trn_kstatus trn_cpu_schwarz(const trn_schwarz_desc *d, int shard, int nshards);
/* Format conversions (sparse_convert.c): splits follow trn_spconvert_split. */
trn_kstatus trn_cpu_spconvert(const trn_spconvert_desc *d, trn_kmsg *msg, int shard, int nshards);

/* trntensor's fused chemistry kernels (tensor_chem.c): AoToMo shards take
 * whole P blocks, Mp2Energy ranges of occupied orbitals; both give the same
 * bits on any shard count. */
trn_kstatus trn_cpu_ao_to_mo(const trn_ao_to_mo_desc *d, trn_kmsg *kmsg, int shard, int nshards);
trn_kstatus trn_cpu_mp2_energy(const trn_mp2_energy_desc *d, trn_kmsg *kmsg, int shard,
                               int nshards);

#endif
