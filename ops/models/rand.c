/*
 * models/rand.c — cost and shard limit of trnrand generation.
 */
#include "ops/models/model.h"

/* Bytes written, weighted by time per byte: on one core here Philox
 * makes 1.1-1.4 GB/s of raw words or uniforms, but Box-Muller normals
 * only 0.10-0.15 GB/s (log, sqrt, sin, cos per pair), so a normal
 * byte counts 8. A Poisson byte took 2.4x (lambda 1e-3) to 25x
 * (lambda 1e8) the time of a raw-word byte (a table binary search
 * per element, deeper and less cache-friendly as lambda grows;
 * x6 at 7.5, x8 at 100, x14 at 1e4, x20 at 1e6), so it counts 16.
 * Sobol ops (one XOR per element) made raw words and uniforms at
 * 0.85-1.7 GB/s on one core (float uniforms 2-3.7 GB/s since their
 * loop has no per-element switch), weight 1, but their normals, an inverse
 * CDF per element (log, sqrt, exp and erf or erfc), only 0.07 (F32)
 * to 0.15 (F64) GB/s, so a Sobol normal byte counts 12. The
 * extensions: an exponential (one log per element) counts 4; gamma
 * and truncated normal (an inverse normal CDF, logs, and a Philox
 * call per attempt) 16; beta (two gammas) 32; a Latin hypercube
 * element (6 Philox calls per Feistel pass, about two passes) 16. */
static double cost_rand(const trn_op_desc *op) {
    const trn_rand_dist d = op->u.rand.dist;
    const int normal = d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 ||
                       d == TRN_RAND_LOGNORMAL_F32 || d == TRN_RAND_LOGNORMAL_F64;
    const double normal_weight = trn_rand_gen_is_quasi(op->u.rand.gen) ? 12.0 : 8.0;
    double weight = normal ? normal_weight : d == TRN_RAND_POISSON ? 16.0 : 1.0;
    switch (d) {
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_EXPONENTIAL_F64: weight = 4.0; break;
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64:
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64: weight = 16.0; break;
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64: weight = 32.0; break;
    default: break;
    }
    return (double)op->u.rand.n * (double)trn_rand_element_size(d) * weight;
}

/* Ranges of elements (split at even indices by the kernel). */
static double shard_limit_rand(const trn_op_desc *op) {
    return cost_rand(op) / (double)TRN_SHARD_RAND_MIN_BYTES;
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(rand, TRN_PACE_STREAM)
