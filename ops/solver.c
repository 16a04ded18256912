/*
 * solver.c — the trnsolver routines' names as cuSOLVER spells them (the
 * messages of validators and kernels use them).
 */
#include "ops/solver.h"

const char *trn_solver_name(trn_solver_fn fn, trn_dtype type) {
    const int cx = type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F;
    switch (fn) {
    case TRN_SOLVER_POTRF:
    case TRN_SOLVER_TILE_DIAG: /* a tiled potrf's steps (ops/solver_tile.h) */
    case TRN_SOLVER_TILE_PANEL:
    case TRN_SOLVER_TILE_UPDATE: return "potrf";
    case TRN_SOLVER_POTRS: return "potrs";
    case TRN_SOLVER_POTRI: return "potri";
    case TRN_SOLVER_GETRF:
    case TRN_SOLVER_TILE_LU_PANEL: /* a tiled getrf's steps */
    case TRN_SOLVER_TILE_LU_ROW:
    case TRN_SOLVER_TILE_LU_UPDATE:
    case TRN_SOLVER_TILE_LU_LEFT: return "getrf";
    case TRN_SOLVER_GETRS: return "getrs";
    case TRN_SOLVER_GEQRF:
    case TRN_SOLVER_TILE_QR_PANEL: /* a tiled geqrf's steps */
    case TRN_SOLVER_TILE_QR_UPDATE: return "geqrf";
    case TRN_SOLVER_TILE_INV_DIAG: /* a tiled potri's steps (ops/solver_inv_tile.h) */
    case TRN_SOLVER_TILE_INV_TRTRI:
    case TRN_SOLVER_TILE_INV_LAUUM:
    case TRN_SOLVER_TILE_INV_ROW:
    case TRN_SOLVER_TILE_INV_LAST:
    case TRN_SOLVER_TILE_INV_CHECK: return "potri";
    case TRN_SOLVER_ORGQR: return cx ? "ungqr" : "orgqr";
    case TRN_SOLVER_ORMQR: return cx ? "unmqr" : "ormqr";
    case TRN_SOLVER_SYTRF: return "sytrf";
    case TRN_SOLVER_SYTRI: return "sytri";
    case TRN_SOLVER_SYTRS: return "sytrs";
    case TRN_SOLVER_LASWP: return "laswp";
    case TRN_SOLVER_LAUUM: return "lauum";
    case TRN_SOLVER_SYTRD: return cx ? "hetrd" : "sytrd";
    case TRN_SOLVER_ORGTR: return cx ? "ungtr" : "orgtr";
    case TRN_SOLVER_ORMTR: return cx ? "unmtr" : "ormtr";
    case TRN_SOLVER_GEBRD: return "gebrd";
    case TRN_SOLVER_ORGBR: return cx ? "ungbr" : "orgbr";
    case TRN_SOLVER_POTRF_BATCHED: return "potrfBatched";
    case TRN_SOLVER_POTRS_BATCHED: return "potrsBatched";
    case TRN_SOLVER_SYEVD:
    case TRN_SOLVER_TILE_EIG_TRD: /* a tiled syevd's steps (ops/solver_eig_tile.h) */
    case TRN_SOLVER_TILE_EIG_STEDC:
    case TRN_SOLVER_TILE_EIG_BACK: return cx ? "heevd" : "syevd";
    case TRN_SOLVER_SYGVD: return cx ? "hegvd" : "sygvd";
    case TRN_SOLVER_SYEVJ: return cx ? "heevj" : "syevj";
    case TRN_SOLVER_GESVD:
    case TRN_SOLVER_TILE_SVD_BRD: /* a tiled gesvd's steps (ops/solver_svd_tile.h) */
    case TRN_SOLVER_TILE_SVD_QR: return "gesvd";
    case TRN_SOLVER_GESVDJ: return "gesvdj";
    case TRN_SOLVER_GEEV: return "Xgeev";
    case TRN_SOLVER_SYGVDX: return cx ? "hegvdx" : "sygvdx";
    case TRN_SOLVER_SYGVJ: return cx ? "hegvj" : "sygvj";
    case TRN_SOLVER_GESVDA_STRIDED_BATCHED: return "gesvdaStridedBatched";
    case TRN_SOLVER_INV_SQRT_SPD: return "invSqrtSpd";
    case TRN_SOLVER_SOLVE_SPD_IR: return "solveSpd";
    case TRN_SOLVER_GMRES_IR: return "gmresIr";
    case TRN_SOLVER_IRS_GESV: return "IRSXgesv";
    case TRN_SOLVER_IRS_GELS: return "IRSXgels";
    case TRN_SOLVER_CG:
    case TRN_SOLVER_KPAR_SETUP: /* the steps of a CG run over every core (ops/solver_kpar.h) */
    case TRN_SOLVER_KPAR_APPLY:
    case TRN_SOLVER_KPAR_UPDATE: return "cg";
    case TRN_SOLVER_GMRES:
    case TRN_SOLVER_KGM_SETUP: /* the steps of a GMRES run over every core */
    case TRN_SOLVER_KGM_STEP: return "gmres";
    case TRN_SOLVER_BICGSTAB:
    case TRN_SOLVER_KBI_SETUP: /* the steps of a BiCGStab run over every core */
    case TRN_SOLVER_KBI_DIR:
    case TRN_SOLVER_KBI_APPLY:
    case TRN_SOLVER_KBI_HALF:
    case TRN_SOLVER_KBI_UPDATE: return "bicgstab";
    case TRN_SOLVER_CSRLSVQR: return "csrlsvqr";
    case TRN_SOLVER_CSRLSVCHOL: return "csrlsvchol";
    }
    return "solver";
}
