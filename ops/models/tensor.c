/*
 * models/tensor.c — cost and shard limit of the trntensor ops (contractions,
 * element-wise ops and reductions, and the chemistry kernels aoToMo and
 * mp2Energy).
 */
#include "ops/models/model.h"

/* 2 m n k per batch element, counted when the op was built. */
static double cost_tensor_contract(const trn_op_desc *op) {
    return op->u.tensor_contract.flops;
}

/* Both pairwise steps' 2 m n k per batch element (the validator's plan). */
static double cost_tensor_contract_trinary(const trn_op_desc *op) {
    return op->u.tensor_trinary.flops;
}

/* One shard: the second step needs all of the intermediate the first
 * makes (kernels/cpu/tensor_trinary.c). */
static double shard_limit_tensor_contract_trinary(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

/* One to three operations per element read (unary ops count one). */
static double cost_tensor_elementwise(const trn_op_desc *op) {
    const trn_tensor_ew_desc *e = &op->u.tensor_ew;
    return 3.0 * (double)e->elements * (double)e->reduced;
}

static double cost_tensor_reduction(const trn_op_desc *op) {
    return cost_tensor_elementwise(op);
}

/* Per P: the half transformation (nbf^2 nocc multiply-adds) and the full
 * one (nbf nocc nvir). */
static double cost_ao_to_mo(const trn_op_desc *op) {
    const trn_ao_to_mo_desc *a = &op->u.ao_to_mo;
    if (!a->lpq)
        return 0.0;
    const double nbf = a->nbf, nocc = a->nocc;
    return 2.0 * (double)a->naux * (nbf * nbf * nocc + nbf * nocc * (double)a->nvir);
}

/* nocc (nocc + 1) / 2 pairs (i, j <= i), each an nvir x nvir x naux product
 * and nvir^2 terms of about 8 flops. */
static double cost_mp2_energy(const trn_op_desc *op) {
    const trn_mp2_energy_desc *m = &op->u.mp2_energy;
    const double pairs = (double)m->nocc * ((double)m->nocc + 1.0) / 2.0;
    const double v2 = (double)m->nvir * (double)m->nvir;
    return pairs * v2 * (2.0 * (double)m->naux + 8.0);
}

/* A contraction runs as a batch of GEMMs (kernels/cpu/tensor.c): GEMM's
 * rule, over its batch elements and D's columns. */
static double shard_limit_tensor_contract(const trn_op_desc *op) {
    const trn_tensor_contract_desc *t = &op->u.tensor_contract;
    return trn_op_min(t->flops / TRN_SHARD_GEMM_MIN_FLOP,
                      (double)t->nbatch * (double)t->n / TRN_SHARD_GEMM_MIN_COLS);
}

/* Memory-bound like a copy: by the bytes of the elements read, whole
 * output elements. */
static double shard_limit_tensor_elementwise(const trn_op_desc *op) {
    const trn_tensor_ew_desc *t = &op->u.tensor_ew;
    return trn_op_min(8.0 * (double)t->elements * (double)t->reduced /
                          (double)TRN_SHARD_MEM_MIN_BYTES,
                      (double)t->elements);
}

static double shard_limit_tensor_reduction(const trn_op_desc *op) {
    return shard_limit_tensor_elementwise(op);
}

/* Whole P blocks (kernels/cpu/tensor_chem.c), by GEMM flops. */
static double shard_limit_ao_to_mo(const trn_op_desc *op) {
    const trn_ao_to_mo_desc *a = &op->u.ao_to_mo;
    const double blocks = a->p_block ? (double)((a->naux + a->p_block - 1) / a->p_block) : 0.0;
    return trn_op_min(cost_ao_to_mo(op) / TRN_SHARD_GEMM_MIN_FLOP, blocks);
}

/* Ranges of occupied orbitals, by GEMM flops. */
static double shard_limit_mp2_energy(const trn_op_desc *op) {
    return trn_op_min(cost_mp2_energy(op) / TRN_SHARD_GEMM_MIN_FLOP, (double)op->u.mp2_energy.nocc);
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(tensor_contract, TRN_PACE_DENSE)
TRN_OP_MODEL(tensor_elementwise, TRN_PACE_STREAM)
TRN_OP_MODEL(tensor_reduction, TRN_PACE_STREAM)
TRN_OP_MODEL(tensor_contract_trinary, TRN_PACE_DENSE)
TRN_OP_MODEL(ao_to_mo, TRN_PACE_DENSE)
TRN_OP_MODEL(mp2_energy, TRN_PACE_DENSE)
