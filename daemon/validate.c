/*
 * validate.c — op dispatch for validation, buffer-region checks, and the
 * memory ops (memset, copy). Family validators live in validate_<family>.c.
 */
#include "daemon/validate.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/checked.h"

void trn_op_refs_release(trn_op_refs *refs) {
    for (int i = 0; i < refs->n; i++)
        trn_buffer_unref(refs->buf[i]);
    refs->n = 0;
    for (int i = 0; i < refs->nmore; i++)
        trn_buffer_unref(refs->more[i]);
    free(refs->more);
    free(refs->owned);
    refs->more = NULL;
    refs->owned = NULL;
    refs->nmore = refs->more_cap = 0;
    if (refs->plan)
        trn_plan_entry_release(refs->plan);
    refs->plan = NULL;
}

/* Room for one more reference: in buf[], or (many) in the growing more[]. */
static int refs_room(trn_op_refs *refs, int many) {
    if (refs->n < TRN_OP_MAX_BUFFERS)
        return 1;
    if (!many)
        return 0;
    if (refs->nmore == refs->more_cap) {
        if (refs->more_cap > INT_MAX / 2)
            return 0;
        const int cap = refs->more_cap ? 2 * refs->more_cap : 16;
        trn_buffer **m = realloc(refs->more, (size_t)cap * sizeof(*m));
        if (!m)
            return 0;
        refs->more = m;
        refs->more_cap = cap;
    }
    return 1;
}

static void refs_hold(trn_op_refs *refs, trn_buffer *b) {
    if (refs->n < TRN_OP_MAX_BUFFERS)
        refs->buf[refs->n++] = b;
    else
        refs->more[refs->nmore++] = b;
}

static trn_wire_code region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                            uint64_t align, const char *what, trn_op_refs *refs, void **out,
                            char *err, size_t errlen, int many) {
    const uint64_t id = ref ? ref->buffer_id : 0, off = ref ? ref->offset : 0;
    if (id == 0) {
        if (bytes == 0) {
            *out = NULL;
            return TRN_WIRE_OK;
        }
        snprintf(err, errlen, "%s: no buffer given but %llu bytes are needed", what,
                 (unsigned long long)bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!refs_room(refs, many)) {
        snprintf(err, errlen, "%s: too many buffer arguments", what);
        return many ? TRN_WIRE_RESOURCE_EXHAUSTED : TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_buffer *b = trn_session_buffer_get(s, id);
    if (!b) {
        snprintf(err, errlen,
                 "%s: buffer %llu does not exist in this session (freed or never "
                 "allocated)",
                 what, (unsigned long long)id);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    uint64_t end;
    if (off > b->size || ck_add(off, bytes, &end) || end > b->size) {
        snprintf(err, errlen,
                 "%s: needs %llu bytes at offset %llu but buffer %llu holds %llu bytes", what,
                 (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)id,
                 (unsigned long long)b->size);
        trn_buffer_unref(b);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (align > 1 && off % align != 0) {
        snprintf(err, errlen, "%s: offset %llu is not a multiple of the element size %llu", what,
                 (unsigned long long)off, (unsigned long long)align);
        trn_buffer_unref(b);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    refs_hold(refs, b);
    *out = (char *)b->data + off;
    return TRN_WIRE_OK;
}

trn_wire_code trn_validate_region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                  uint64_t align, const char *what, trn_op_refs *refs, void **out,
                                  char *err, size_t errlen) {
    return region(s, ref, bytes, align, what, refs, out, err, errlen, 0);
}

trn_wire_code trn_validate_region_many(trn_session *s, const Trnsci__V1__BufferRef *ref,
                                       uint64_t bytes, uint64_t align, const char *what,
                                       trn_op_refs *refs, void **out, char *err, size_t errlen) {
    return region(s, ref, bytes, align, what, refs, out, err, errlen, 1);
}

static trn_wire_code validate_memset(trn_session *s, const Trnsci__V1__MemsetOp *m,
                                     trn_memset_desc *out, trn_op_refs *refs, char *err,
                                     size_t errlen) {
    if (m->value > 255) {
        snprintf(err, errlen, "memset: value %u is not a byte", m->value);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (m->bytes > SIZE_MAX) {
        snprintf(err, errlen, "memset: %llu bytes is too large", (unsigned long long)m->bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->value = (int)m->value;
    out->bytes = (size_t)m->bytes;
    return trn_validate_region(s, m->dst, m->bytes, 1, "memset: dst", refs, &out->dst, err, errlen);
}

static trn_wire_code validate_copy(trn_session *s, const Trnsci__V1__CopyOp *c, trn_copy_desc *out,
                                   trn_op_refs *refs, char *err, size_t errlen) {
    if (c->bytes > SIZE_MAX) {
        snprintf(err, errlen, "copy: %llu bytes is too large", (unsigned long long)c->bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->bytes = (size_t)c->bytes;
    void *src = NULL;
    trn_wire_code rc =
        trn_validate_region(s, c->dst, c->bytes, 1, "copy: dst", refs, &out->dst, err, errlen);
    if (rc == TRN_WIRE_OK)
        rc = trn_validate_region(s, c->src, c->bytes, 1, "copy: src", refs, &src, err, errlen);
    out->src = src;
    return rc;
}

trn_wire_code trn_validate_op(trn_session *s, const Trnsci__V1__Op *op, trn_op_desc *out,
                              trn_op_refs *refs, char *err, size_t errlen) {
    trn_wire_code rc;
    refs->n = 0;
    refs->plan = NULL;
    refs->more = NULL;
    refs->owned = NULL;
    refs->nmore = refs->more_cap = 0;
    if (!op) {
        snprintf(err, errlen, "Submit: no op given");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    switch (op->kind_case) {
    case TRNSCI__V1__OP__KIND_MEMSET:
        out->kind = TRN_OP_MEMSET;
        rc = validate_memset(s, op->memset, &out->u.memset, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_COPY:
        out->kind = TRN_OP_COPY;
        rc = validate_copy(s, op->copy, &out->u.copy, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_GEMM:
        out->kind = TRN_OP_GEMM;
        rc = trn_validate_gemm(s, op->gemm, &out->u.gemm, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_BLAS1:
        out->kind = TRN_OP_BLAS1;
        rc = trn_validate_blas1(s, op->blas1, &out->u.blas1, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_BLAS2:
        out->kind = TRN_OP_BLAS2;
        rc = trn_validate_blas2(s, op->blas2, &out->u.blas2, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_BLAS3:
        out->kind = TRN_OP_BLAS3;
        rc = trn_validate_blas3(s, op->blas3, &out->u.blas3, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_FFT_EXEC:
        out->kind = TRN_OP_FFT;
        rc = trn_validate_fft(s, op->fft_exec, &out->u.fft, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_RAND_GENERATE:
        out->kind = TRN_OP_RAND;
        rc = trn_validate_rand(s, op->rand_generate, &out->u.rand, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SOLVER_DENSE:
        out->kind = TRN_OP_SOLVER_DENSE;
        rc =
            trn_validate_solver_dense(s, op->solver_dense, &out->u.solver_dense, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SOLVER_BATCHED:
        out->kind = TRN_OP_SOLVER_BATCHED;
        rc = trn_validate_solver_batched(s, op->solver_batched, &out->u.solver_batched, refs, err,
                                         errlen);
        break;
    case TRNSCI__V1__OP__KIND_SOLVER_EIGEN:
        out->kind = TRN_OP_SOLVER_EIGEN;
        rc =
            trn_validate_solver_eigen(s, op->solver_eigen, &out->u.solver_eigen, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SOLVER_REFINE:
        out->kind = TRN_OP_SOLVER_REFINE;
        rc = trn_validate_solver_refine(s, op->solver_refine, &out->u.solver_refine, refs, err,
                                        errlen);
        break;
    case TRNSCI__V1__OP__KIND_SOLVER_KRYLOV:
        out->kind = TRN_OP_SOLVER_KRYLOV;
        rc = trn_validate_solver_krylov(s, op->solver_krylov, &out->u.solver_krylov, refs, err,
                                        errlen);
        break;
    case TRNSCI__V1__OP__KIND_SPMV:
        out->kind = TRN_OP_SPMV;
        rc = trn_validate_spmv(s, op->spmv, &out->u.spmm, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SPMM:
        out->kind = TRN_OP_SPMM;
        rc = trn_validate_spmm(s, op->spmm, &out->u.spmm, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SPGEMM:
        out->kind = TRN_OP_SPGEMM;
        rc = trn_validate_spgemm(s, op->spgemm, &out->u.spgemm, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SDDMM:
        out->kind = TRN_OP_SDDMM;
        rc = trn_validate_sddmm(s, op->sddmm, &out->u.sddmm, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SPARSE_ATTENTION:
        out->kind = TRN_OP_SPATTN;
        rc = trn_validate_attention(s, op->sparse_attention, &out->u.attn, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_SCHWARZ_BOUNDS:
        out->kind = TRN_OP_SCHWARZ;
        rc = trn_validate_schwarz(s, op->schwarz_bounds, &out->u.schwarz, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_TENSOR_CONTRACT:
        out->kind = TRN_OP_TENSOR_CONTRACT;
        rc = trn_validate_tensor_contract(s, op->tensor_contract, &out->u.tensor_contract, refs,
                                          err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_TENSOR_ELEMENTWISE:
        out->kind = TRN_OP_TENSOR_ELEMENTWISE;
        rc = trn_validate_tensor_elementwise(s, op->tensor_elementwise, &out->u.tensor_ew, refs,
                                             err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_TENSOR_REDUCTION:
        out->kind = TRN_OP_TENSOR_REDUCTION;
        rc = trn_validate_tensor_reduction(s, op->tensor_reduction, &out->u.tensor_ew, refs, err,
                                           errlen);
        break;
    case TRNSCI__V1__OP__KIND_SPARSE_CONVERT:
        out->kind = TRN_OP_SPCONVERT;
        rc = trn_validate_spconvert(s, op->sparse_convert, &out->u.spconvert, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_AO_TO_MO:
        out->kind = TRN_OP_AO_TO_MO;
        rc = trn_validate_ao_to_mo(s, op->ao_to_mo, &out->u.ao_to_mo, refs, err, errlen);
        break;
    case TRNSCI__V1__OP__KIND_MP2_ENERGY:
        out->kind = TRN_OP_MP2_ENERGY;
        rc = trn_validate_mp2_energy(s, op->mp2_energy, &out->u.mp2_energy, refs, err, errlen);
        break;
    default:
        snprintf(err, errlen, "Submit: op kind %d is not supported by this daemon",
                 (int)op->kind_case);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    if (rc != TRN_WIRE_OK)
        trn_op_refs_release(refs);
    return rc;
}

trn_wire_code trn_validate_chunk(uint64_t len, const char *what, char *err, size_t errlen) {
    if (len <= TRNSCI_WIRE_CHUNK_BYTES)
        return TRN_WIRE_OK;
    snprintf(err, errlen, "%s: %llu bytes exceeds the chunk limit of %u bytes", what,
             (unsigned long long)len, TRNSCI_WIRE_CHUNK_BYTES);
    return TRN_WIRE_INVALID_ARGUMENT;
}
