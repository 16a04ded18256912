/*
 * op_kinds.h — every op kind, one row each: the one list the layers read
 * (the BLIS way: a kernel registers in one place, and nothing else switches
 * over op kinds). Each family's header holds its own rows
 * (TRN_<FAMILY>_KINDS, beside the descriptors they name) and its
 * descriptors' places in trn_op_desc (TRN_<FAMILY>_DESCS); this header
 * strings the families together.
 *
 * X(KIND, value, wire, stem, field, label, title, family, engine):
 *   KIND    TRN_OP_<KIND> (ops/op.h)
 *   value   its number, which is its wire case's
 *   wire    its case of the wire's Op oneof: TRNSCI__V1__OP__KIND_<wire>
 *   stem    names the kind's functions by convention: its cost model
 *           trn_op_model_<stem> (ops/models/<family>.c), its validator
 *           trn_vop_<stem> (ops/validate/), and each backend's kernel entry
 *           (trn_cpu_run_<stem>: kernels/cpu/)
 *   field   its descriptor in trn_op_desc.u
 *   label   its name in metrics (a Prometheus label value)
 *   title   its name in messages and logs ("sparse convert")
 *   family  the library family: memory, blas, fft, rand, solver, sparse,
 *           tensor
 *   engine  where it runs: CORE (compute) or COPY (data movement beside
 *           the cores)
 */
#ifndef TRN_OPS_OP_KINDS_H
#define TRN_OPS_OP_KINDS_H

#include "ops/blas.h"
#include "ops/fft.h"
#include "ops/memory.h"
#include "ops/rand.h"
#include "ops/solver.h"
#include "ops/sparse.h"
#include "ops/tensor.h"

/* clang-format off */
#define TRN_OP_KINDS(X) \
    TRN_MEMORY_KINDS(X) \
    TRN_BLAS_KINDS(X) \
    TRN_FFT_KINDS(X) \
    TRN_RAND_KINDS(X) \
    TRN_SOLVER_KINDS(X) \
    TRN_SPARSE_KINDS(X) \
    TRN_TENSOR_KINDS(X)

/* Every descriptor of trn_op_desc.u: X(type, field). */
#define TRN_OP_DESCS(X) \
    TRN_MEMORY_DESCS(X) \
    TRN_BLAS_DESCS(X) \
    TRN_FFT_DESCS(X) \
    TRN_RAND_DESCS(X) \
    TRN_SOLVER_DESCS(X) \
    TRN_SPARSE_DESCS(X) \
    TRN_TENSOR_DESCS(X)
/* clang-format on */

#endif
