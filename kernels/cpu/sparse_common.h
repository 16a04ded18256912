/*
 * sparse_common.h — what the trnsparse kernels (kernels/cpu/sparse_*.c)
 * share: reading and writing index arrays of either index type, the
 * nnz-balanced row split, the messages for bad structure, and a strided
 * dense product that calls OpenBLAS when the layout allows it.
 *
 * The contract every sparse kernel keeps (ops/op.h): offsets and indices
 * are client memory that may change at any time, so each value is read once
 * into a local, range-checked, and only then used; a bad value fails the op
 * with trn_sp_bad_* (TRN_KSTATUS_FAILED and a message naming the array, the
 * position and the rule), never an out-of-bounds access. Whatever the
 * arrays hold, a kernel touches only the extents the validator checked.
 *
 * Helpers return 0, TRN_SP_BAD (the input broke a rule) or TRN_SP_NOMEM
 * (scratch could not be allocated), both posted; trn_sp_status turns that
 * into the kernel's status.
 */
#ifndef TRN_KERNELS_CPU_SPARSE_COMMON_H
#define TRN_KERNELS_CPU_SPARSE_COMMON_H

#include <stdint.h>

#include "ops/op.h"
#include "ops/sparse_names.h"

#define TRN_SP_BAD (-1)
#define TRN_SP_NOMEM (-2)

/* A helper's result as the kernel's status. */
static inline trn_kstatus trn_sp_status(int rc) {
    return rc == 0              ? TRN_KSTATUS_OK
           : rc == TRN_SP_NOMEM ? TRN_KSTATUS_NO_MEMORY
                                : TRN_KSTATUS_FAILED;
}

/* Scratch of `bytes` for what (a printf format) could not be allocated:
 * posts it (trn_kmsg_no_memory) and returns TRN_SP_NOMEM. */
int trn_sp_no_memory(trn_kmsg *msg, int shard, size_t bytes, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

/* Element k of an index array of either type. */
static inline int64_t trn_sp_ld(const void *p, int64_t k, int idx64) {
    return idx64 ? ((const int64_t *)p)[k] : (int64_t)((const int32_t *)p)[k];
}

/* Stores v (which fits the type: the validator bounded every size) at k. */
static inline void trn_sp_st(void *p, int64_t k, int64_t v, int idx64) {
    if (idx64)
        ((int64_t *)p)[k] = v;
    else
        ((int32_t *)p)[k] = (int32_t)v;
}

/* The row structure a kernel walks: CSR rows, CSC columns (as the rows of
 * A^T), BSR block rows. Entries of structure row r are p in
 * [off[r] - base, off[r+1] - base), with indices idx[p] - base in
 * [0, ncols). */
typedef struct trn_sp_rows {
    const void *off, *idx;
    int64_t nrows, ncols, nnz;
    int base, idx64;
    trn_sp_format format; /* for messages */
    const char *mat;      /* the matrix's name in messages ("matA") */
} trn_sp_rows;

/* The row structure of a CSR, CSC or BSR matrix. */
trn_sp_rows trn_sp_rows_of(const trn_sp_mat *a, const char *mat);

/* Rows [*lo, *hi) of shard `shard` of `nshards`: contiguous ranges that
 * cover [0, nrows) once, balanced by stored entries plus one per row. It
 * reads row offsets (clamped to [0, nnz], so any content gives valid
 * ranges), and depends only on them and the shard count: deterministic. */
void trn_sp_row_split(const trn_sp_rows *s, int shard, int nshards, int64_t *lo, int64_t *hi);

/* Checks the offsets of structure row r: off[0] is the base (r = 0), and
 * 0 <= p0 <= p1 <= nnz. Returns 0 with [*p0, *p1), or -1 after posting
 * the first rule broken (rank r). */
int trn_sp_row_bounds(const trn_sp_rows *s, int64_t r, trn_kmsg *msg, int64_t *p0, int64_t *p1);

/* trn_sp_row_bounds for a row a kernel's fast check refused: posts its
 * message (or, when the memory changed in between and the row now looks
 * valid, says so) and returns -1. */
int trn_sp_row_fail(const trn_sp_rows *s, int64_t r, trn_kmsg *msg);

/* Posts "index idx[p] = v is outside [base, n - 1 + base]" for an index
 * array (which names it: TRN_SP_INDICES or TRN_SP_ROWIND) of a matrix in
 * format f; `where` adds context (", row 3"). Returns -1. */
int trn_sp_bad_index(trn_kmsg *msg, uint64_t rank, const char *mat, trn_sp_format f,
                     trn_sp_array which, int64_t p, int64_t v, int base, int64_t n,
                     const char *where);

/* C = alpha A B + beta C for dense m x k and k x n operands given by
 * element strides (X(i, j) at x[i*xr + j*xc]); beta = 0 does not read C.
 * Calls OpenBLAS (single-threaded) when every operand is row- or
 * column-major with a leading dimension that fits in int and the product is
 * large enough to gain from it; otherwise loops, accumulating in the type.
 * Bits depend only on the arguments. */
void trn_sp_gemm(trn_dtype t, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                 int64_t ar, int64_t ac, const void *b, int64_t br, int64_t bc, double beta,
                 void *c, int64_t cr, int64_t cc);

/* Element strides (row, col) of a dense matrix. */
static inline void trn_sp_strides(const trn_dn_mat *m, int64_t *r, int64_t *c) {
    *r = m->row_major ? m->ld : 1;
    *c = m->row_major ? 1 : m->ld;
}

#endif
