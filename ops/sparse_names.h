/*
 * sparse_names.h — the cuSPARSE names of a sparse matrix's arrays
 * (csrRowOffsets, cooColInd, bsrValues, ...), shared by the validator's
 * messages (ops/validate/sparse*.c) and the kernels' (kernels/cpu/sparse*),
 * so that a client reads the name it passed to trnsparseCreate*.
 */
#ifndef TRN_KERNELS_SPARSE_NAMES_H
#define TRN_KERNELS_SPARSE_NAMES_H

#include "ops/op.h"

typedef enum trn_sp_array {
    TRN_SP_OFFSETS = 0,
    TRN_SP_INDICES = 1,
    TRN_SP_ROWIND = 2,
    TRN_SP_VALUES = 3,
} trn_sp_array;

static inline const char *trn_sp_array_name(trn_sp_format f, trn_sp_array a) {
    static const char *const csr[] = {"csrRowOffsets", "csrColInd", "csrRowInd", "csrValues"};
    static const char *const csc[] = {"cscColOffsets", "cscRowInd", "cscRowInd", "cscValues"};
    static const char *const coo[] = {"cooOffsets", "cooColInd", "cooRowInd", "cooValues"};
    static const char *const bsr[] = {"bsrRowOffsets", "bsrColInd", "bsrRowInd", "bsrValues"};
    static const char *const bell[] = {"ellOffsets", "ellColInd", "ellRowInd", "ellValue"};
    static const char *const sell[] = {"sellSliceOffsets", "sellColInd", "sellRowInd",
                                       "sellValues"};
    switch (f) {
    case TRN_SP_CSR: return csr[a];
    case TRN_SP_CSC: return csc[a];
    case TRN_SP_COO: return coo[a];
    case TRN_SP_BSR: return bsr[a];
    case TRN_SP_BELL: return bell[a];
    case TRN_SP_SELL: return sell[a];
    }
    return "array";
}

static inline const char *trn_sp_format_name(trn_sp_format f) {
    switch (f) {
    case TRN_SP_CSR: return "CSR";
    case TRN_SP_CSC: return "CSC";
    case TRN_SP_COO: return "COO";
    case TRN_SP_BSR: return "BSR";
    case TRN_SP_BELL: return "Blocked-ELL";
    case TRN_SP_SELL: return "Sliced-ELL";
    }
    return "?";
}

#endif
