/*
 * test_validate_sparse.c — the trnsparse validators (daemon/validate_sparse*.c):
 * wire SpMVOp / SpMMOp (and the later sparse ops) to kernel descriptors.
 * Hand-built protobuf-c structs go through trn_validate_op against a real
 * session table with two sessions. Rules checked, each at its boundary:
 *  - enum values: format (CSR 1, CSC 2, COO 3, BSR 6; 4, 5, 7 refused),
 *    index types (32I, 64I; 16U refused; offsets and indices of different
 *    types NOT_SUPPORTED), index base 0/1, dense and block order, op(A),
 *    data and compute types (complex and mixed types UNIMPLEMENTED);
 *  - sizes: rows, cols, nnz >= 0 and representable in the index type with
 *    the base (nnz + base <= INT32_MAX for 32-bit indices; tested with
 *    alpha = 0, where A's arrays are not resolved); BSR blocks >= 1 and
 *    rows * rowBlock, nnz * rb * cb without 64-bit overflow; ld >= max(1,
 *    rows or cols); vector sizes and SpMM shapes matching op(A), op(B);
 *  - extents: offsets (rows+1 for CSR and BSR, cols+1 for CSC, none for
 *    COO), indices and COO row indices (nnz), values (nnz, BSR nnz*rb*cb),
 *    dense extents ((outer-1)*ld + inner): exactly enough passes, one
 *    element short fails; offsets aligned to the index or value size;
 *  - buffers: another session's or a freed one is refused; on success
 *    refs holds one reference per array, on failure none;
 *  - screening (SpMMOp bounds): both or neither, sizes = block rows / block
 *    columns, op(A) = N, threshold not NaN;
 *  - sparse vectors (SparseVectorOp): functions, 0 <= nnz <= size, the
 *    index type and base, extents of indices, values, y and SpVV's result,
 *    complex types refused by name, nnz = 0 resolving nothing but Axpby's y;
 *  - triangular solves (SpSVOp): CSR/COO only, square, fill mode and
 *    diagonal type, shapes of op(B) and C, the analysis resolving them too;
 *  - messages name the routine, the argument and the rule.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "scheduler/sched.h"
#include "validate_fixture.h"

/* ---- message builders ------------------------------------------------------------ */

#define R32 TRNSCI__V1__DATA_TYPE__R_32F
#define R64 TRNSCI__V1__DATA_TYPE__R_64F
#define I32 TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_32I
#define I64 TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_64I
#define CSR TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSR
#define CSC TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_CSC
#define COO TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_COO
#define BSR TRNSCI__V1__SPARSE_FORMAT__SPARSE_FORMAT_BSR
#define ROW TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_ROW
#define COL TRNSCI__V1__SPARSE_ORDER__SPARSE_ORDER_COL

typedef struct spmat_msg {
    Trnsci__V1__SparseMatrix m;
    Trnsci__V1__BufferRef off, idx, rowind, val;
} spmat_msg;

/* A float CSR rows x cols with nnz entries, 32-bit indices, base 0, arrays
 * in buffer `buf` at 0 (offsets), 1024 (indices), 2048 (row indices),
 * 4096 (values). Not copyable. */
static void spmat_init(spmat_msg *q, Trnsci__V1__SparseFormat f, int64_t rows, int64_t cols,
                       int64_t nnz, uint64_t buf) {
    const Trnsci__V1__SparseMatrix m0 = TRNSCI__V1__SPARSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    q->m = m0;
    q->off = q->idx = q->rowind = q->val = r0;
    q->m.format = f;
    q->m.type = R32;
    q->m.rows = rows;
    q->m.cols = cols;
    q->m.nnz = nnz;
    q->m.offsets_type = I32;
    q->m.index_type = I32;
    q->m.row_block = q->m.col_block = 1;
    q->off.buffer_id = q->idx.buffer_id = q->rowind.buffer_id = q->val.buffer_id = buf;
    q->off.offset = 0;
    q->idx.offset = 1024;
    q->rowind.offset = 2048;
    q->val.offset = 4096;
    q->m.offsets = f == COO ? NULL : &q->off;
    q->m.indices = &q->idx;
    q->m.row_indices = f == COO ? &q->rowind : NULL;
    q->m.values = &q->val;
}

typedef struct vec_msg {
    Trnsci__V1__DenseVector v;
    Trnsci__V1__BufferRef val;
} vec_msg;

static void vec_init(vec_msg *q, int64_t size, uint64_t buf, uint64_t off) {
    const Trnsci__V1__DenseVector v0 = TRNSCI__V1__DENSE_VECTOR__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    q->v = v0;
    q->val = r0;
    q->v.type = R32;
    q->v.size = size;
    q->val.buffer_id = buf;
    q->val.offset = off;
    q->v.values = &q->val;
}

typedef struct spmv_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__SpMVOp w;
    Trnsci__V1__Scalar alpha, beta;
    spmat_msg a;
    vec_msg x, y;
} spmv_msg;

/* y(rows) = A x(cols), x in buffer xb, y in yb. */
static void spmv_init(spmv_msg *q, Trnsci__V1__SparseFormat f, int64_t rows, int64_t cols,
                      int64_t nnz, uint64_t abuf, uint64_t xb, uint64_t yb) {
    const Trnsci__V1__Op op0 = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SpMVOp w0 = TRNSCI__V1__SP_MVOP__INIT;
    const Trnsci__V1__Scalar s0 = TRNSCI__V1__SCALAR__INIT;
    q->op = op0;
    q->w = w0;
    q->alpha = q->beta = s0;
    q->alpha.re = 1.0;
    spmat_init(&q->a, f, rows, cols, nnz, abuf);
    vec_init(&q->x, cols, xb, 0);
    vec_init(&q->y, rows, yb, 0);
    q->w.alpha = &q->alpha;
    q->w.beta = &q->beta;
    q->w.a = &q->a.m;
    q->w.x = &q->x.v;
    q->w.y = &q->y.v;
    q->w.compute_type = R32;
    q->op.kind_case = TRNSCI__V1__OP__KIND_SPMV;
    q->op.spmv = &q->w;
}

/* ---- SpMV ------------------------------------------------------------------------------ */

/* Rule: a CSR matrix's arrays are exactly (rows+1) offsets, nnz indices and
 * nnz values; the descriptor carries pointers at the offsets and one
 * reference per array. */
static void test_spmv_csr_extents(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), x = vf_alloc(f->s1, 64), y = vf_alloc(f->s1, 64);
    spmv_msg q;
    /* 10 x 16, nnz 100: offsets 44 bytes, indices 400, values 400. */
    spmv_init(&q, CSR, 10, 16, 100, a, x, y);
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.kind, TRN_OP_SPMV);
    const trn_spmm_desc *d = &f->desc.u.spmm;
    assert_int_equal(d->a.format, TRN_SP_CSR);
    assert_int_equal(d->a.rows, 10);
    assert_int_equal(d->a.nnz, 100);
    assert_int_equal(d->b.rows, 16);
    assert_int_equal(d->c.rows, 10);
    assert_int_equal(d->c.cols, 1);
    assert_true(d->a.indices == (char *)d->a.offsets + 1024);
    /* Exactly enough: values end at the buffer's end. */
    q.a.val.offset = 8192 - 400;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.val.offset = 8192 - 396;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spmv: matA csrValues: needs 400");
    q.a.val.offset = 4096;
    /* Offsets: rows + 1 entries. */
    q.a.off.offset = 8192 - 44;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.off.offset = 8192 - 40;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "csrRowOffsets: needs 44");
    q.a.off.offset = 2; /* misaligned */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT,
                  "not a multiple of the element size 4");
    q.a.off.offset = 0;
    /* 64-bit indices: 8-byte offsets and alignment. */
    q.a.m.offsets_type = q.a.m.index_type = I64;
    q.a.idx.offset = 8192 - 800;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.idx.offset = 8192 - 796;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "csrColInd");
    q.a.idx.offset = 1028;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "element size 8");
    q.a.idx.offset = 1024;
    /* Mixed index types. */
    q.a.m.offsets_type = I32;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "different index types");
    q.a.m.index_type = TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_UNSPECIFIED;
    q.a.m.offsets_type = TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_UNSPECIFIED;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "is not CUSPARSE_INDEX_32I");
    q.a.m.index_type = q.a.m.offsets_type = 1; /* CUSPARSE_INDEX_16U */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "index type 1");
    q.a.m.index_type = q.a.m.offsets_type = I32;
    /* Vectors: sizes must match, extents fit. */
    q.x.v.size = 15;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "vecX: size 15 must be 16");
    q.x.v.size = 16;
    q.y.val.offset = 64 - 40;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.y.val.offset = 64 - 36;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spmv: vecY values: needs 40");
    q.y.val.offset = 0;
    /* Op T: x has rows, y cols elements. */
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "vecX: size 16 must be 10");
    q.x.v.size = 10;
    q.y.v.size = 16;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.w.op_a = 3;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "opA=3");
}

/* Rule: the other formats' arrays: CSC cols+1 offsets, COO nnz row indices
 * and no offsets, BSR brows+1 offsets and nnz * rb * cb values. */
static void test_spmv_formats(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), x = vf_alloc(f->s1, 256), y = vf_alloc(f->s1, 256);
    spmv_msg q;
    spmv_init(&q, CSC, 10, 16, 100, a, x, y);
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.off.offset = 8192 - 68; /* cols + 1 = 17 offsets */
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.off.offset = 8192 - 64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "cscColOffsets: needs 68");
    spmv_init(&q, COO, 10, 16, 100, a, x, y);
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_null(f->desc.u.spmm.a.offsets);
    q.a.rowind.offset = 8192 - 400;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.rowind.offset = 8192 - 399;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "cooRowInd");
    /* BSR: 3 x 4 blocks of 2 x 5, 10 blocks: 6 x 20 elements, values
     * 10 * 10 * 4 = 400 bytes. */
    spmv_init(&q, BSR, 3, 4, 10, a, x, y);
    q.a.m.row_block = 2;
    q.a.m.col_block = 5;
    q.x.v.size = 20;
    q.y.v.size = 6;
    q.a.val.offset = 8192 - 400;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.u.spmm.a.rows, 6);
    assert_int_equal(f->desc.u.spmm.a.brows, 3);
    q.a.val.offset = 8192 - 396;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "bsrValues: needs 400");
    q.a.val.offset = 4096;
    q.a.m.row_block = 0;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "block size 0 x 5");
    q.a.m.row_block = 2;
    q.a.m.block_order = 3;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "block order 3");
    q.a.m.block_order = ROW;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_true(f->desc.u.spmm.a.block_row_major);
    /* nnz * rb * cb and rows * rb overflow. */
    q.a.m.nnz = INT32_MAX;
    q.a.m.row_block = q.a.m.col_block = INT32_MAX;
    q.a.m.rows = q.a.m.cols = 1;
    q.x.v.size = q.y.v.size = INT32_MAX;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflow");
    q.a.m.index_type = q.a.m.offsets_type = I64;
    q.a.m.rows = INT64_MAX / 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflow 64 bits");
    /* Unknown formats. */
    for (int fmt = 4; fmt <= 8; fmt += 4) {
        spmv_init(&q, (Trnsci__V1__SparseFormat)fmt, 10, 16, 100, a, x, y);
        vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "is not CSR (1), CSC (2)");
    }
    /* Blocked-ELL: 10 x 16 in blocks of 4 (3 x 4 blocks, the edge ones
     * cut), ellCols 8: 3 x 2 block columns, 10 x 8 values. */
    spmv_init(&q, 5, 10, 16, 0, a, x, y);
    q.a.m.offsets = NULL;
    q.a.m.row_block = q.a.m.col_block = 4;
    q.a.m.ell_cols = 8;
    vf_expect_ok(f, f->s1, &q.op, 4);
    assert_int_equal(f->desc.u.spmm.a.format, TRN_SP_BELL);
    assert_int_equal(f->desc.u.spmm.a.brows, 3);
    assert_int_equal(f->desc.u.spmm.a.bcols, 4);
    assert_int_equal(f->desc.u.spmm.a.nnz, 6);
    q.a.val.offset = 8192 - 316; /* 80 values need 320 bytes */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ellValue: needs 320");
    q.a.val.offset = 4096;
    q.a.m.ell_cols = 6;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ellCols=6 must be a multiple");
    q.a.m.ell_cols = 20; /* more slots than block columns */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ellCols=20");
    q.a.m.ell_cols = 8;
    q.a.m.row_block = 0;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ellBlockSize 0");
    q.a.m.row_block = 4;
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "opA must be NON_TRANSPOSE");
    q.w.op_a = TRNSCI__V1__OPERATION__OP_N;
    q.a.m.batch_count = 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "not batched");
    /* Sliced-ELL: 10 rows in slices of 4 (3 slices: 4 offsets), 24
     * stored entries. */
    spmv_init(&q, 7, 10, 16, 20, a, x, y);
    q.a.m.row_block = 4;
    q.a.m.values_size = 24;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.u.spmm.a.format, TRN_SP_SELL);
    assert_int_equal(f->desc.u.spmm.a.brows, 3);
    assert_int_equal(f->desc.u.spmm.a.nnz, 24);
    q.a.off.offset = 8192 - 12;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "sellSliceOffsets: needs 16");
    q.a.off.offset = 0;
    q.a.m.nnz = 25;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "nnz=25 in [0, sellValuesSize]");
    q.a.m.nnz = 20;
    q.a.m.values_size = -1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "sellValuesSize=-1");
}

/* Rule: sizes fit the index type with the base (checked with alpha = 0,
 * where A's arrays are not resolved, so no huge buffers are needed); base
 * is 0 or 1; types. */
static void test_spmv_sizes_and_types(void **state) {
    fx *f = *state;
    const uint64_t x = vf_alloc(f->s1, 64), y = vf_alloc(f->s1, 64);
    spmv_msg q;
    spmv_init(&q, CSR, INT32_MAX, 4, INT32_MAX, 0, x, y);
    q.alpha.re = 0.0;
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T; /* y has cols = 4 elements, x is not read */
    q.x.v.size = INT32_MAX;
    q.y.v.size = 4;
    vf_expect_ok(f, f->s1, &q.op, 1);
    q.a.m.index_base = 1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT,
                  "fit the 32-bit index type with base 1");
    q.a.m.nnz = INT32_MAX - 1;
    vf_expect_ok(f, f->s1, &q.op, 1);
    q.a.m.rows = (int64_t)INT32_MAX + 1;
    q.x.v.size = q.a.m.rows;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "rows=2147483648");
    q.a.m.index_type = q.a.m.offsets_type = I64;
    vf_expect_ok(f, f->s1, &q.op, 1);
    q.a.m.index_base = 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "index base 2 is not 0 or 1");
    q.a.m.index_base = 0;
    q.a.m.nnz = -1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "must be >= 0");
    q.a.m.nnz = 0;
    /* Types. */
    q.a.m.type = TRNSCI__V1__DATA_TYPE__C_32F; /* complex values need a complex computeType */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType must be C_32F");
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__C_32F; /* ... and complex vectors */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "vecX: its data type must be");
    q.w.compute_type = R32;
    q.a.m.type = TRNSCI__V1__DATA_TYPE__R_16F; /* 16-bit values compute in R_32F */
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__R_16F;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType must be R_32F");
    q.w.compute_type = R32;
    q.a.m.type = 9;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "data type 9");
    q.a.m.type = R32;
    q.w.compute_type = R64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType must be");
    q.w.compute_type = R32;
    q.y.v.type = R64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "vecY: its data type");
}

/* Rule: buffers must be the session's own and live; nothing is held on
 * failure. */
static void test_spmv_buffers(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), x = vf_alloc(f->s1, 64), y = vf_alloc(f->s1, 64);
    /* Ids count per session: the fourth of s2 is one s1 does not have. */
    uint64_t other = 0;
    for (int i = 0; i < 4; i++)
        other = vf_alloc(f->s2, 8192);
    spmv_msg q;
    spmv_init(&q, CSR, 10, 16, 100, a, x, y);
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.a.val.buffer_id = other;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "csrValues: buffer");
    q.a.val.buffer_id = a;
    assert_int_equal(trn_session_free_buffer(f->s1, y), 0);
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "vecY values: buffer");
    q.y.val.buffer_id = 0; /* no buffer for 40 bytes */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "no buffer given");
    q.a.m.rows = 0; /* y empty: no buffer needed; offsets still 1 entry */
    q.y.v.size = 0;
    q.a.m.nnz = 0;
    vf_expect_ok(f, f->s1, &q.op, 4); /* zero-byte arrays in a named buffer still hold it */
    q.w.a = NULL;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "no sparse matrix given");
}

/* ---- SpMM ------------------------------------------------------------------------------ */

typedef struct dn_msg {
    Trnsci__V1__DenseMatrix m;
    Trnsci__V1__BufferRef val;
} dn_msg;

static void dn_init(dn_msg *q, int64_t rows, int64_t cols, int64_t ld,
                    Trnsci__V1__SparseOrder order, uint64_t buf) {
    const Trnsci__V1__DenseMatrix m0 = TRNSCI__V1__DENSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    q->m = m0;
    q->val = r0;
    q->m.type = R32;
    q->m.rows = rows;
    q->m.cols = cols;
    q->m.ld = ld;
    q->m.order = order;
    q->val.buffer_id = buf;
    q->m.values = &q->val;
}

typedef struct spmm_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__SpMMOp w;
    Trnsci__V1__Scalar alpha, beta;
    spmat_msg a;
    dn_msg b, c;
    vec_msg rb, cb;
} spmm_msg;

/* C(10 x n) = A(10 x 16) B(16 x n), B and C column-major, exact lds. */
static void spmm_init(spmm_msg *q, int64_t n, uint64_t abuf, uint64_t bb, uint64_t cb) {
    const Trnsci__V1__Op op0 = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SpMMOp w0 = TRNSCI__V1__SP_MMOP__INIT;
    const Trnsci__V1__Scalar s0 = TRNSCI__V1__SCALAR__INIT;
    q->op = op0;
    q->w = w0;
    q->alpha = q->beta = s0;
    q->alpha.re = 1.0;
    spmat_init(&q->a, CSR, 10, 16, 100, abuf);
    dn_init(&q->b, 16, n, 16, COL, bb);
    dn_init(&q->c, 10, n, 10, COL, cb);
    q->w.alpha = &q->alpha;
    q->w.beta = &q->beta;
    q->w.a = &q->a.m;
    q->w.b = &q->b.m;
    q->w.c = &q->c.m;
    q->w.compute_type = R32;
    q->op.kind_case = TRNSCI__V1__OP__KIND_SPMM;
    q->op.spmm = &q->w;
}

/* Rule: dense extents are ((outer - 1) ld + inner) elements, ld >= max(1,
 * inner); op(B) = B^T swaps B's shape; shapes must chain. */
static void test_spmm_dense(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), b = vf_alloc(f->s1, 4096), c = vf_alloc(f->s1, 4096);
    spmm_msg q;
    spmm_init(&q, 3, a, b, c);
    vf_expect_ok(f, f->s1, &q.op, 5);
    /* B: (3-1)*20 + 16 = 56 elements with ld 20. */
    q.b.m.ld = 20;
    q.b.val.offset = 4096 - 224;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.b.val.offset = 4096 - 220;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spmm: matB: needs 224");
    q.b.val.offset = 0;
    q.b.m.ld = 15;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT,
                  "matB: ld=15 must be >= max(1, rows) = 16");
    /* Row-major B: ld >= cols. */
    q.b.m.order = ROW;
    q.b.m.ld = 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "ld=2 must be >= max(1, cols) = 3");
    q.b.m.ld = 3;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_true(f->desc.u.spmm.b.row_major);
    q.b.m.order = 7;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "order 7");
    /* op(B) = B^T: B stored 3 x 16. */
    q.w.op_b = TRNSCI__V1__OPERATION__OP_T;
    q.b.m.order = COL;
    q.b.m.rows = 3;
    q.b.m.cols = 16;
    q.b.m.ld = 3;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.u.spmm.b.rows, 16);
    assert_true(f->desc.u.spmm.b.row_major);
    q.c.m.cols = 4;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "shapes do not match");
    q.c.m.cols = 3;
    /* A batched C needs a batched A or B (cuSPARSE's strided batch). */
    q.c.m.batch_count = 2;
    q.c.m.batch_stride = 30;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "batch counts do not match");
    q.c.m.batch_count = -1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "negative");
    q.c.m.batch_count = 0;
    /* Extent overflow. */
    q.c.m.ld = INT64_MAX / 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "overflows 64 bits");
}

/* Rule: complex values take their own computeType, alpha's and beta's
 * imaginary parts and OP_C as a conjugation; 16-bit ones compute in R_32F;
 * one_row needs a COO matA with rows = 1, and its row indices are not
 * resolved. */
static void test_spmm_types(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), b = vf_alloc(f->s1, 4096), c = vf_alloc(f->s1, 4096);
    spmm_msg q;
    spmm_init(&q, 3, a, b, c);
    const Trnsci__V1__DataType C32 = TRNSCI__V1__DATA_TYPE__C_32F;
    q.a.m.type = q.b.m.type = q.c.m.type = q.w.compute_type = C32;
    q.w.op_a = q.w.op_b = TRNSCI__V1__OPERATION__OP_C;
    q.b.m.rows = 3; /* B^H: B stored 3 x 10 (op(A) = A^H is 16 x 10) */
    q.b.m.cols = 10;
    q.b.m.ld = 3;
    q.c.m.rows = 16;
    q.c.m.ld = 16;
    q.alpha.im = 0.5;
    q.beta.im = -2.0;
    vf_expect_ok(f, f->s1, &q.op, 5);
    const trn_spmm_desc *d = &f->desc.u.spmm;
    assert_true(d->conj_a && d->conj_b && d->alpha_im == 0.5 && d->beta_im == -2.0);
    assert_int_equal(d->a.type, TRN_DTYPE_C32F);
    /* alpha = i: A is read. */
    q.alpha.re = 0.0;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.alpha.re = 1.0;
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__C_64F;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType must be C_32F");
    q.w.compute_type = C32;
    q.c.m.type = TRNSCI__V1__DATA_TYPE__C_64F;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "matC: its data type");
    /* 16-bit values: compute R_32F; real scalars (imaginary parts ignored). */
    spmm_init(&q, 3, a, b, c);
    q.a.m.type = q.b.m.type = q.c.m.type = TRNSCI__V1__DATA_TYPE__R_16BF;
    q.alpha.im = 3.0;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_true(f->desc.u.spmm.alpha_im == 0.0 && !f->desc.u.spmm.conj_a);
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__R_16BF;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType must be R_32F");
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__R_8I;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "computeType: data type 7");
    /* one_row: CSR refused; a 1 x 16 COO resolves indices and values only. */
    spmm_init(&q, 3, a, b, c);
    q.w.one_row = 1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "one_row needs");
    spmat_init(&q.a, COO, 1, 16, 5, a);
    q.c.m.rows = 1;
    q.c.m.ld = 1;
    q.a.rowind.buffer_id = 999; /* not resolved: an unknown buffer is not refused */
    vf_expect_ok(f, f->s1, &q.op, 4);
    assert_true(f->desc.u.spmm.one_row && f->desc.u.spmm.a.rowind == NULL);
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "one_row needs");
}

/* Rule: screening bounds: both or neither, one per block row / column of
 * A, op(A) = N, threshold not NaN; alpha = 0 reads no bounds. */
static void test_spmm_screened(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), b = vf_alloc(f->s1, 4096), c = vf_alloc(f->s1, 4096);
    const uint64_t v = vf_alloc(f->s1, 256);
    spmm_msg q;
    spmm_init(&q, 3, a, b, c);
    vec_init(&q.rb, 10, v, 0);
    vec_init(&q.cb, 16, v, 64);
    q.w.row_bounds = &q.rb.v;
    q.w.col_bounds = &q.cb.v;
    q.w.threshold = 1e-3;
    vf_expect_ok(f, f->s1, &q.op, 7);
    assert_non_null(f->desc.u.spmm.row_bounds);
    q.cb.v.size = 15;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "colBounds: size 15 must be 16");
    q.cb.v.size = 16;
    q.cb.val.offset = 256 - 60;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "colBounds values: needs 64");
    q.cb.val.offset = 64;
    q.w.threshold = NAN;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "threshold is NaN");
    q.w.threshold = 0;
    q.w.col_bounds = NULL;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "must both be given");
    q.w.col_bounds = &q.cb.v;
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "opA must be NON_TRANSPOSE");
    q.w.op_a = TRNSCI__V1__OPERATION__OP_N;
    q.alpha.re = 0.0; /* nothing is read but C */
    vf_expect_ok(f, f->s1, &q.op, 1);
    assert_null(f->desc.u.spmm.row_bounds);
}

/* ---- sparse vectors (SparseVectorOp) ---------------------------------------------------- */

typedef struct spvec_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__SparseVectorOp w;
    Trnsci__V1__SparseVector x;
    Trnsci__V1__BufferRef idx, val, res;
    Trnsci__V1__Scalar alpha, beta;
    vec_msg y;
} spvec_msg;

/* Scatter of a float vector of size 100 with 10 entries (32-bit indices at
 * xb 0, values at xb 1024) into y (yb 0). */
static void spvec_init(spvec_msg *q, uint64_t xb, uint64_t yb) {
    const Trnsci__V1__Op op0 = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SparseVectorOp w0 = TRNSCI__V1__SPARSE_VECTOR_OP__INIT;
    const Trnsci__V1__SparseVector x0 = TRNSCI__V1__SPARSE_VECTOR__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    const Trnsci__V1__Scalar s0 = TRNSCI__V1__SCALAR__INIT;
    q->op = op0;
    q->w = w0;
    q->x = x0;
    q->idx = q->val = q->res = r0;
    q->alpha = q->beta = s0;
    q->x.type = R32;
    q->x.size = 100;
    q->x.nnz = 10;
    q->x.index_type = I32;
    q->idx.buffer_id = q->val.buffer_id = xb;
    q->val.offset = 1024;
    q->x.indices = &q->idx;
    q->x.values = &q->val;
    vec_init(&q->y, 100, yb, 0);
    q->w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SCATTER;
    q->w.alpha = &q->alpha;
    q->w.beta = &q->beta;
    q->w.x = &q->x;
    q->w.y = &q->y.v;
    q->w.result = &q->res;
    q->w.compute_type = R32;
    q->op.kind_case = TRNSCI__V1__OP__KIND_SPARSE_VECTOR;
    q->op.sparse_vector = &q->w;
}

/* Rule: 0 <= nnz <= size (size within the index type), nnz indices and
 * values, y of x's size and type, SpVV's result one element of the compute
 * type (which must be x's); complex vectors with complex y; nnz = 0
 * resolves nothing but Axpby's y. */
static void test_spvec_rules(void **state) {
    fx *f = *state;
    const uint64_t xb = vf_alloc(f->s1, 2048), yb = vf_alloc(f->s1, 400), rb = vf_alloc(f->s1, 8);
    spvec_msg q;
    spvec_init(&q, xb, yb);
    vf_expect_ok(f, f->s1, &q.op, 3);
    assert_int_equal(f->desc.kind, TRN_OP_SPVEC);
    assert_int_equal(f->desc.u.spvec.fn, TRN_SPVEC_SCATTER);
    assert_int_equal(f->desc.u.spvec.x.nnz, 10);
    /* Values end exactly at the buffer's end; one element more fails. */
    q.val.offset = 2048 - 40;
    vf_expect_ok(f, f->s1, &q.op, 3);
    q.val.offset = 2048 - 36;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "scatter: vecX values: needs 40");
    q.val.offset = 1024;
    q.x.index_type = I64; /* 80 bytes of indices, 8-aligned */
    q.idx.offset = 4;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "element size 8");
    q.idx.offset = 0;
    vf_expect_ok(f, f->s1, &q.op, 3);
    q.x.index_type = TRNSCI__V1__SPARSE_INDEX_TYPE__SPARSE_INDEX_UNSPECIFIED;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "index type 0");
    q.x.index_type = I32;
    q.x.index_base = 2;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "index base 2");
    q.x.index_base = 1;
    q.x.nnz = 101;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "0 <= nnz <= size");
    q.x.nnz = 10;
    q.x.size = (int64_t)INT32_MAX + 1;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "32-bit index type");
    q.x.size = 100;
    q.y.v.size = 99;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "vecY: size 99 must be 100");
    q.y.v.size = 100;
    /* Complex values (since 1.15): y of the same type, SpVV's compute type
     * the values', opX C conjugates x, the scalars' imaginary parts kept. */
    q.x.type = TRNSCI__V1__DATA_TYPE__C_32F;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "vecY: its data type must be");
    q.x.size = q.y.v.size = 50; /* 50 C_32F fill y's 400 bytes */
    q.y.v.type = TRNSCI__V1__DATA_TYPE__C_32F;
    vf_expect_ok(f, f->s1, &q.op, 3);
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_AXPBY;
    q.alpha.re = 1;
    q.alpha.im = 2;
    q.beta.im = -3;
    vf_expect_ok(f, f->s1, &q.op, 3);
    assert_true(f->desc.u.spvec.alpha_im == 2 && f->desc.u.spvec.beta_im == -3);
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SPVV;
    q.w.compute_type = TRNSCI__V1__DATA_TYPE__C_32F;
    q.w.op_x = TRNSCI__V1__OPERATION__OP_C;
    q.res.buffer_id = rb; /* one C_32F: all 8 bytes */
    vf_expect_ok(f, f->s1, &q.op, 4);
    assert_int_equal(f->desc.u.spvec.conj_x, 1);
    q.w.compute_type = R32;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "spvv: computeType must be");
    q.x.type = q.y.v.type = R32;
    q.w.compute_type = R32;
    vf_expect_ok(f, f->s1, &q.op, 4);
    assert_true(f->desc.u.spvec.conj_x == 0); /* real C is N */
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_AXPBY;
    vf_expect_ok(f, f->s1, &q.op, 3);
    assert_true(f->desc.u.spvec.alpha_im == 0 && f->desc.u.spvec.beta_im == 0);
    q.y.v.type = TRNSCI__V1__DATA_TYPE__C_32F; /* real x, complex y */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "vecY: complex types");
    q.y.v.type = R32;
    q.x.type = (Trnsci__V1__DataType)99;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT,
                  "vecX: data type 99 is not R_32F, R_64F, C_32F or C_64F");
    q.x.type = R32;
    q.x.size = q.y.v.size = 100;
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SCATTER;
    q.w.op_x = TRNSCI__V1__OPERATION__OP_N;
    q.res.buffer_id = 0;
    q.alpha.re = q.alpha.im = q.beta.im = 0;
    q.y.v.type = R64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "vecY: its data type must be");
    q.y.v.type = R32;
    q.w.function = 6;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "function 6");
    q.w.function = 0;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "function 0");
    /* SpVV: a result of one element of the compute type. */
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_SPVV;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spvv: result");
    q.res.buffer_id = rb;
    q.res.offset = 4;
    vf_expect_ok(f, f->s1, &q.op, 4);
    q.w.compute_type = R64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType");
    q.w.compute_type = R32;
    q.res.offset = 6; /* misaligned */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spvv: result");
    q.res.offset = 8; /* past the end */
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spvv: result");
    q.res.offset = 0;
    /* nnz = 0: nothing resolved (Axpby: y, which it scales). */
    q.x.type = q.y.v.type = R32;
    q.w.compute_type = R32;
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_GATHER;
    q.x.nnz = 0;
    q.idx.buffer_id = q.val.buffer_id = 0;
    vf_expect_ok(f, f->s1, &q.op, 0);
    q.w.function = TRNSCI__V1__SPARSE_VECTOR_FUNCTION__SPARSE_VECTOR_AXPBY;
    vf_expect_ok(f, f->s1, &q.op, 1);
    /* A buffer id s1 does not have (ids count per session: s2's fourth). */
    uint64_t other = 0;
    for (int i = 0; i < 4; i++)
        other = vf_alloc(f->s2, 400);
    q.y.val.buffer_id = other;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "axpby: vecY");
}

/* ---- triangular solves (SpSVOp) ---------------------------------------------------------- */

typedef struct dnmat_msg {
    Trnsci__V1__DenseMatrix m;
    Trnsci__V1__BufferRef val;
} dnmat_msg;

static void dnmat_init(dnmat_msg *q, int64_t rows, int64_t cols, uint64_t buf) {
    const Trnsci__V1__DenseMatrix m0 = TRNSCI__V1__DENSE_MATRIX__INIT;
    const Trnsci__V1__BufferRef r0 = TRNSCI__V1__BUFFER_REF__INIT;
    q->m = m0;
    q->val = r0;
    q->m.type = R32;
    q->m.rows = rows;
    q->m.cols = cols;
    q->m.ld = rows > 1 ? rows : 1;
    q->m.order = COL;
    q->val.buffer_id = buf;
    q->m.values = &q->val;
}

typedef struct spsv_msg {
    Trnsci__V1__Op op;
    Trnsci__V1__SpSVOp w;
    Trnsci__V1__Scalar alpha;
    spmat_msg a;
    dnmat_msg b, c;
} spsv_msg;

/* A 10 x 10 float CSR with 30 entries solving for one column. */
static void spsv_init(spsv_msg *q, Trnsci__V1__SparseFormat fmt, uint64_t abuf, uint64_t bb,
                      uint64_t cb) {
    const Trnsci__V1__Op op0 = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__SpSVOp w0 = TRNSCI__V1__SP_SVOP__INIT;
    const Trnsci__V1__Scalar s0 = TRNSCI__V1__SCALAR__INIT;
    q->op = op0;
    q->w = w0;
    q->alpha = s0;
    q->alpha.re = 1.0;
    spmat_init(&q->a, fmt, 10, 10, 30, abuf);
    dnmat_init(&q->b, 10, 1, bb);
    dnmat_init(&q->c, 10, 1, cb);
    q->w.alpha = &q->alpha;
    q->w.a = &q->a.m;
    q->w.b = &q->b.m;
    q->w.c = &q->c.m;
    q->w.compute_type = R32;
    q->op.kind_case = TRNSCI__V1__OP__KIND_SPSV;
    q->op.spsv = &q->w;
}

/* Rule: CSR or COO (others UNIMPLEMENTED), square, fill mode LOWER/UPPER,
 * diagonal NON_UNIT/UNIT, op(B) and C n x nrhs, compute type = A's; the
 * analysis resolves every operand as the solve does. */
static void test_spsv_rules(void **state) {
    fx *f = *state;
    const uint64_t a = vf_alloc(f->s1, 8192), b = vf_alloc(f->s1, 256), c = vf_alloc(f->s1, 256);
    spsv_msg q;
    spsv_init(&q, CSR, a, b, c);
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.kind, TRN_OP_SPSV);
    assert_int_equal(f->desc.u.spsv.uplo, TRN_UPLO_LOWER);
    assert_int_equal(f->desc.u.spsv.diag, TRN_DIAG_NON_UNIT);
    q.w.fill_mode = TRNSCI__V1__FILL_MODE__FILL_MODE_UPPER;
    q.w.diag_type = TRNSCI__V1__DIAG_TYPE__DIAG_UNIT;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_int_equal(f->desc.u.spsv.uplo, TRN_UPLO_UPPER);
    assert_int_equal(f->desc.u.spsv.diag, TRN_DIAG_UNIT);
    q.w.fill_mode = TRNSCI__V1__FILL_MODE__FILL_MODE_FULL;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "fill mode 2");
    q.w.fill_mode = TRNSCI__V1__FILL_MODE__FILL_MODE_LOWER;
    q.w.diag_type = 5;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "diagonal type 5");
    q.w.diag_type = TRNSCI__V1__DIAG_TYPE__DIAG_NON_UNIT;
    /* The analysis resolves B and C too (their extents bound n). */
    q.w.analysis_only = 1;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_true(f->desc.u.spsv.analysis);
    q.b.m.rows = 9;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "sizes do not match");
    q.b.m.rows = 10;
    q.b.val.buffer_id = 0;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spsv analysis: vecX");
    q.b.val.buffer_id = b;
    q.w.analysis_only = 0;
    /* Vectors end at their buffers' ends. */
    q.c.val.offset = 256 - 40;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.c.val.offset = 256 - 36;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spsv solve: vecY: needs 40");
    q.c.val.offset = 0;
    /* Square only; CSR and COO only. */
    q.a.m.cols = 11;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "square");
    q.a.m.cols = 10;
    q.a.m.format = CSC;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "CSC matrices are not supported");
    q.a.m.format = BSR;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "BSR matrices are not supported");
    q.a.m.format = CSR;
    q.w.compute_type = R64;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_UNIMPLEMENTED, "computeType");
    q.w.compute_type = R32;
    q.w.op_a = 3;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "opA=3");
    q.w.op_a = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_ok(f, f->s1, &q.op, 5);
    /* COO: row and column indices and values. */
    spsv_msg k;
    spsv_init(&k, COO, a, b, c);
    vf_expect_ok(f, f->s1, &k.op, 5);
    /* SpSM: op(B) and C 10 x 3; op(B) = B^T reads a 3 x 10 B. */
    q.w.spsm = 1;
    q.b.m.cols = q.c.m.cols = 3;
    vf_expect_ok(f, f->s1, &q.op, 5);
    q.w.op_b = TRNSCI__V1__OPERATION__OP_T;
    vf_expect_err(f, f->s1, &q.op, TRN_WIRE_INVALID_ARGUMENT, "spsm solve: shapes do not match");
    q.b.m.rows = 3;
    q.b.m.cols = 10;
    q.b.m.ld = 3;
    vf_expect_ok(f, f->s1, &q.op, 5);
    assert_true(f->desc.u.spsv.b.row_major);
    assert_int_equal(f->desc.u.spsv.b.rows, 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_spmv_csr_extents, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmv_formats, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmv_sizes_and_types, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmv_buffers, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmm_dense, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmm_types, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spmm_screened, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spvec_rules, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_spsv_rules, vf_setup, vf_teardown),
    };
    return cmocka_run_group_tests_name("validate_sparse", tests, NULL, NULL);
}
