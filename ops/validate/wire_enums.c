/*
 * The op-layer enums whose values are the wire's.
 *
 * Validators convert these wire enums to the ops layer's by a cast (after
 * checking the range), so each value must be the same number on both sides.
 * Every such pair is listed here and checked when this file compiles: adding
 * a value to one side and not the other fails the build. Enums the
 * validators map with a switch (data types, fill modes, random
 * distributions, sparse formats, ...) are free to differ and are not here.
 */
#include "ops/blas.h"
#include "ops/fft.h"
#include "ops/solver.h"
#include "ops/sparse.h"
#include "trnsci/v1/trnsci.pb-c.h"

#define SAME(ours, wire) _Static_assert((int)(ours) == (int)(wire), #ours " is the wire's " #wire)

/* GemmOp.compute_type, TensorContractionOp.compute_type -> trn_compute */
#define COMPUTE(x) SAME(TRN_COMPUTE_##x, TRNSCI__V1__COMPUTE_TYPE__COMPUTE_##x);
COMPUTE(DEFAULT)
COMPUTE(32F)
COMPUTE(64F)
COMPUTE(32F_FAST_16BF)
COMPUTE(16F)
COMPUTE(32I)
COMPUTE(32F_FAST_TF32)
COMPUTE(32F_BF16X3)
COMPUTE(32F_BF16X9)
COMPUTE(64F_EMULATED)
COMPUTE(32F_FAST_16F)

/* Blas1Op.function -> trn_blas1_fn */
#define BLAS1(x) SAME(TRN_BLAS1_##x, TRNSCI__V1__BLAS1_FUNCTION__BLAS1_##x);
BLAS1(AXPY)
BLAS1(SCAL) BLAS1(COPY) BLAS1(SWAP) BLAS1(DOT) BLAS1(DOTC) BLAS1(NRM2) BLAS1(ASUM) BLAS1(
    IAMAX) BLAS1(IAMIN) BLAS1(ROT) BLAS1(ROTM) BLAS1(ROTG) BLAS1(ROTMG)

/* Blas2Op.function -> trn_blas2_fn */
#define BLAS2(x) SAME(TRN_BLAS2_##x, TRNSCI__V1__BLAS2_FUNCTION__BLAS2_##x);
    BLAS2(GEMV) BLAS2(GBMV) BLAS2(SYMV) BLAS2(HEMV) BLAS2(TRMV) BLAS2(TRSV) BLAS2(GER) BLAS2(
        GERC) BLAS2(SYR) BLAS2(SYR2) BLAS2(HER) BLAS2(HER2) BLAS2(TBMV) BLAS2(TBSV) BLAS2(TPMV)
        BLAS2(TPSV) BLAS2(SBMV) BLAS2(HBMV) BLAS2(SPMV) BLAS2(HPMV) BLAS2(SPR) BLAS2(HPR) BLAS2(
            SPR2) BLAS2(HPR2)

/* Blas3Op.function -> trn_blas3_fn */
#define BLAS3(x) SAME(TRN_BLAS3_##x, TRNSCI__V1__BLAS3_FUNCTION__BLAS3_##x);
            BLAS3(SYMM) BLAS3(HEMM) BLAS3(SYRK) BLAS3(HERK) BLAS3(SYR2K) BLAS3(HER2K) BLAS3(
                TRSM) BLAS3(TRMM) BLAS3(GEAM) BLAS3(DGMM) BLAS3(SYRKX) BLAS3(HERKX)

/* FftPlanSpec.type -> trn_fft_type */
#define FFT(x) SAME(TRN_FFT_##x, TRNSCI__V1__FFT_TYPE__FFT_##x);
                FFT(C2C) FFT(R2C) FFT(C2R) FFT(Z2Z) FFT(D2Z) FFT(Z2D) FFT(C2C_16F) FFT(R2C_16F)
                    FFT(C2R_16F) FFT(C2C_16BF) FFT(R2C_16BF) FFT(C2R_16BF)

/* SolverOp / SolverRefineOp / SolverIterOp.function -> trn_solver_fn */
#define SOLVER(x) SAME(TRN_SOLVER_##x, TRNSCI__V1__SOLVER_FUNCTION__SOLVER_##x);
                        SOLVER(POTRF) SOLVER(POTRS) SOLVER(POTRI) SOLVER(GETRF) SOLVER(GETRS)
                            SOLVER(GEQRF) SOLVER(ORGQR) SOLVER(ORMQR) SOLVER(SYTRF) SOLVER(SYTRI)
                                SOLVER(SYTRS) SOLVER(LASWP) SOLVER(LAUUM) SOLVER(SYTRD)
                                    SOLVER(ORGTR) SOLVER(ORMTR) SOLVER(GEBRD) SOLVER(ORGBR) SOLVER(
                                        POTRF_BATCHED) SOLVER(POTRS_BATCHED) SOLVER(SYEVD)
                                        SOLVER(SYGVD) SOLVER(SYEVJ)
                                            SOLVER(GESVD) SOLVER(GESVDJ) SOLVER(GEEV) SOLVER(
                                                INV_SQRT_SPD) SOLVER(SOLVE_SPD_IR) SOLVER(GMRES_IR)
                                                SOLVER(CG) SOLVER(GMRES) SOLVER(BICGSTAB) SOLVER(
                                                    IRS_GESV) SOLVER(CSRLSVQR) SOLVER(CSRLSVCHOL)
                                                    SOLVER(IRS_GELS)

/* SparseConvertOp.function -> trn_spc_fn */
#define SPC(x) SAME(TRN_SPC_##x, TRNSCI__V1__SPARSE_CONVERT__SPARSE_##x);
                                                        SPC(
                                                            CSR_TO_COO) SPC(COO_TO_CSR)
                                                            SPC(
                                                                CSR_TO_CSC) SPC(CSR_TO_BSR_NNZ)
                                                                SPC(
                                                                    CSR_TO_BSR) SPC(BSR_TO_CSR)
                                                                    SPC(DENSE_TO_SPARSE_ANALYSIS)
                                                                        SPC(DENSE_TO_SPARSE)
                                                                            SPC(SPARSE_TO_DENSE)
