/*
 * tensor_chem.c — argument rules of trntensor's fused chemistry
 * kernels (trnsci extensions, include/trnsci/trntensor_chem.h): AoToMoOp
 * and Mp2EnergyOp. Sizes are checked against the BLAS integer type, every
 * extent is computed with overflow-checked arithmetic, and each operand must
 * lie inside one of the session's buffers. The block sizes the kernels use
 * are chosen here, from the sizes alone (never the core count), so a sharded
 * op computes exactly what an unsharded one does.
 *
 * Orbital energies are buffer contents: the kernel checks them (a positive
 * gap e_a - e_i for every pair) when it runs, not here.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/blas.h"
#include "ops/validate/checked.h"
#include "ops/validate/validate.h"

/* Scratch one shard may allocate for its blocks, and the most it may ever
 * need (one block of the smallest size): larger shapes are refused. */
#define CHEM_SCRATCH_BYTES (8u << 20)
#define CHEM_SCRATCH_MAX_BYTES (1ull << 30)
/* At most this many auxiliary functions per AO->MO block: the second GEMM
 * of a block has m = p_block, large enough for the GEMM kernels, while
 * naux = 666 still splits into 6 blocks for the shards. */
#define CHEM_P_BLOCK_MAX 128

static trn_wire_code chem_type(trn_vctx *vx, const char *fn, Trnsci__V1__DataType w, trn_dtype *t) {
    if (trn_vk_dtype(w, t) != 0 || (*t != TRN_DTYPE_R32F && *t != TRN_DTYPE_R64F)) {
        trn_vmsg(vx, "%s: dataType %d must be R_32F or R_64F", fn, (int)w);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    return TRN_WIRE_OK;
}

/* n1 * n2 * n3 elements of es bytes, or -1 on overflow. */
static int chem_bytes3(uint64_t n1, uint64_t n2, uint64_t n3, uint64_t es, uint64_t *out) {
    uint64_t t;
    if (ck_mul(n1, n2, &t) || ck_mul(t, n3, &t) || ck_mul(t, es, out))
        return -1;
    return 0;
}

/* The largest block count b (1 .. limit) with b * per_item <= budget, at
 * least 1. */
static int chem_block(uint64_t per_item, uint64_t limit) {
    uint64_t b = per_item ? CHEM_SCRATCH_BYTES / per_item : limit;
    if (b > limit)
        b = limit;
    return b < 1 ? 1 : (int)b;
}

static trn_wire_code validate_ao_to_mo(trn_vctx *vx, const Trnsci__V1__AoToMoOp *w,
                                       trn_ao_to_mo_desc *out) {
    const char *fn = "aoToMo";
    *out = (trn_ao_to_mo_desc){0};
    trn_wire_code rc = chem_type(vx, fn, w->type, &out->type);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (trn_vk_dim(vx, fn, "nbf", w->nbf, &out->nbf) ||
        trn_vk_dim(vx, fn, "nocc", w->nocc, &out->nocc) ||
        trn_vk_dim(vx, fn, "nvir", w->nvir, &out->nvir) ||
        trn_vk_dim(vx, fn, "naux", w->naux, &out->naux) ||
        trn_vk_ld(vx, fn, "ldCocc", w->ld_c_occ, out->nbf, "nbf", &out->ld_c_occ) ||
        trn_vk_ld(vx, fn, "ldCvir", w->ld_c_vir, out->nbf, "nbf", &out->ld_c_vir))
        return TRN_WIRE_INVALID_ARGUMENT;
    const uint64_t es = trn_dtype_size(out->type);
    uint64_t b_bytes, l_bytes, co_bytes, cv_bytes, half;
    if (chem_bytes3((uint64_t)out->nocc, (uint64_t)out->nvir, (uint64_t)out->naux, es, &b_bytes) ||
        chem_bytes3((uint64_t)out->nbf, (uint64_t)out->nbf, (uint64_t)out->naux, es, &l_bytes) ||
        ck_matrix_bytes((uint64_t)out->nbf, (uint64_t)out->nocc, (uint64_t)out->ld_c_occ, es,
                        &co_bytes) ||
        ck_matrix_bytes((uint64_t)out->nbf, (uint64_t)out->nvir, (uint64_t)out->ld_c_vir, es,
                        &cv_bytes) ||
        chem_bytes3((uint64_t)out->nbf, (uint64_t)out->nocc, 1, es, &half)) {
        trn_vmsg(vx, "%s: the tensor sizes overflow 64 bits", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (b_bytes == 0) /* nothing to write */
        return TRN_WIRE_OK;
    if (half > CHEM_SCRATCH_MAX_BYTES) {
        trn_vmsg(vx, "%s: nbf * nocc = %lld elements exceed the %llu-byte scratch limit", fn,
                 (long long)out->nbf * out->nocc, CHEM_SCRATCH_MAX_BYTES);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    /* The first GEMM of a block has m = nbf * p_block: keep it an int. */
    uint64_t p_limit = CHEM_P_BLOCK_MAX;
    if (out->nbf > 0 && (uint64_t)INT_MAX / (uint64_t)out->nbf < p_limit)
        p_limit = (uint64_t)INT_MAX / (uint64_t)out->nbf;
    const int p_max = chem_block(half, p_limit);
    /* Equal blocks: ceil(naux / ceil(naux / p_max)). */
    const int nblocks = (out->naux + p_max - 1) / p_max;
    out->p_block = (out->naux + nblocks - 1) / nblocks;

    const uint64_t al = es;
    if (out->nbf > 0) {
        void *co = NULL, *cv = NULL, *l = NULL;
        rc = trn_vregion(vx, w->c_occ, co_bytes, al, "aoToMo: Cocc", &co);
        if (rc == TRN_WIRE_OK)
            rc = trn_vregion(vx, w->c_vir, cv_bytes, al, "aoToMo: Cvir", &cv);
        if (rc == TRN_WIRE_OK)
            rc = trn_vregion(vx, w->lpq, l_bytes, al, "aoToMo: Lpq", &l);
        if (rc != TRN_WIRE_OK)
            return rc;
        out->c_occ = co;
        out->c_vir = cv;
        out->lpq = l;
    }
    return trn_vregion(vx, w->b, b_bytes, al, "aoToMo: B", &out->b);
}

static trn_wire_code validate_mp2_energy(trn_vctx *vx, const Trnsci__V1__Mp2EnergyOp *w,
                                         trn_mp2_energy_desc *out) {
    const char *fn = "mp2Energy";
    *out = (trn_mp2_energy_desc){0};
    trn_wire_code rc = chem_type(vx, fn, w->type, &out->type);
    if (rc != TRN_WIRE_OK)
        return rc;
    if (trn_vk_dim(vx, fn, "nocc", w->nocc, &out->nocc) ||
        trn_vk_dim(vx, fn, "nvir", w->nvir, &out->nvir) ||
        trn_vk_dim(vx, fn, "naux", w->naux, &out->naux))
        return TRN_WIRE_INVALID_ARGUMENT;
    const uint64_t es = trn_dtype_size(out->type);
    uint64_t b_bytes, pair, partial_bytes;
    if (chem_bytes3((uint64_t)out->nocc, (uint64_t)out->nvir, (uint64_t)out->naux, es, &b_bytes) ||
        chem_bytes3((uint64_t)out->nvir, (uint64_t)out->nvir, 1, es, &pair) ||
        chem_bytes3((uint64_t)out->nocc, 2, sizeof(double), 1, &partial_bytes) ||
        ck_add(partial_bytes, sizeof(trn_mp2_partials), &partial_bytes)) {
        trn_vmsg(vx, "%s: the tensor sizes overflow 64 bits", fn);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    void *e = NULL;
    rc = trn_vregion(vx, w->energy, sizeof(double), sizeof(double), "mp2Energy: energy", &e);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->energy = e;
    if (b_bytes == 0) /* no pair (i, a) or no auxiliary function: E = 0 */
        return TRN_WIRE_OK;
    if (pair > CHEM_SCRATCH_MAX_BYTES) {
        trn_vmsg(vx, "%s: nvir^2 = %lld elements exceed the %llu-byte scratch limit", fn,
                 (long long)out->nvir * out->nvir, CHEM_SCRATCH_MAX_BYTES);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    /* One GEMM per chunk of j has n = j_block * nvir: keep it an int. */
    uint64_t j_limit = (uint64_t)out->nocc;
    if ((uint64_t)INT_MAX / (uint64_t)out->nvir < j_limit)
        j_limit = (uint64_t)INT_MAX / (uint64_t)out->nvir;
    out->j_block = chem_block(pair, j_limit);

    void *b = NULL, *eo = NULL, *ev = NULL;
    rc = trn_vregion(vx, w->b, b_bytes, es, "mp2Energy: B", &b);
    if (rc == TRN_WIRE_OK)
        rc = trn_vregion(vx, w->eps_occ, (uint64_t)out->nocc * sizeof(double), sizeof(double),
                         "mp2Energy: epsOcc", &eo);
    if (rc == TRN_WIRE_OK)
        rc = trn_vregion(vx, w->eps_vir, (uint64_t)out->nvir * sizeof(double), sizeof(double),
                         "mp2Energy: epsVir", &ev);
    if (rc != TRN_WIRE_OK)
        return rc;
    out->b = b;
    out->eps_occ = eo;
    out->eps_vir = ev;
    /* The shards' partial sums live as long as the op's references. */
    if (!(out->partials = trn_vowned(vx, partial_bytes))) {
        trn_vmsg(vx, "%s: daemon out of memory for %llu bytes of partial sums", fn,
                 (unsigned long long)partial_bytes);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    atomic_init(&out->partials->shards_done, 0);
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(ao_to_mo, validate_ao_to_mo(vx, op->ao_to_mo, &out->u.ao_to_mo))
TRN_VALIDATE_ENTRY(mp2_energy, validate_mp2_energy(vx, op->mp2_energy, &out->u.mp2_energy))
