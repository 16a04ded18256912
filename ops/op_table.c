/*
 * op_table.c — the table of op kinds: one row per kind of ops/op_kinds.h,
 * with what is known of the kind (label, title, family, engine) and its cost
 * model from ops/models/<family>.c. It implements the lookups ops/op.h
 * declares; nothing else in the tree switches over kinds.
 */
#include "ops/models/model.h"

#include <stddef.h>
#include <string.h>

/* ---- the kinds ---------------------------------------------------------------------- */

typedef struct op_row {
    trn_op_info info;
    void (*model)(const trn_op_desc *op, trn_op_model *m);
    size_t desc_bytes; /* trn_op_desc up to the end of its descriptor */
} op_row;

/* Row numbers: ROW_GEMM, ... */
enum {
#define ROW_INDEX(kind, value, wire, stem, field, label, title, family, engine) ROW_##kind,
    TRN_OP_KINDS(ROW_INDEX)
#undef ROW_INDEX
};

static const op_row rows[TRN_OP_KIND_COUNT] = {
#define ROW(kind, value, wire, stem, field, label, title, family, engine)                          \
    [ROW_##kind] = {{TRN_OP_##kind, label, title, family, TRN_ENGINE_##engine},                    \
                    trn_op_model_##stem,                                                           \
                    offsetof(trn_op_desc, u) + sizeof(((trn_op_desc *)0)->u.field)},
    TRN_OP_KINDS(ROW)
#undef ROW
};

/* The row of kind, or NULL (the one switch over kinds, made from the list:
 * the compiler turns it into a jump table). */
static const op_row *row_of(int kind) {
    switch (kind) {
#define ROW_CASE(kind, value, wire, stem, field, label, title, family, engine)                     \
    case TRN_OP_##kind: return &rows[ROW_##kind];
        TRN_OP_KINDS(ROW_CASE)
#undef ROW_CASE
    default: return NULL;
    }
}

const trn_op_info *trn_op_info_at(int i) {
    return i >= 0 && i < TRN_OP_KIND_COUNT ? &rows[i].info : NULL;
}

int trn_op_index_of(int kind) {
    const op_row *r = row_of(kind);
    return r ? (int)(r - rows) : -1;
}

size_t trn_op_desc_bytes(int kind) {
    const op_row *r = row_of(kind);
    return r ? r->desc_bytes : sizeof(trn_op_desc);
}

const trn_op_info *trn_op_info_of(int kind) {
    const op_row *r = row_of(kind);
    return r ? &r->info : NULL;
}

size_t trn_op_families(const char **out, size_t max) {
    size_t n = 0;
    for (int i = 0; i < TRN_OP_KIND_COUNT; i++) {
        const char *f = rows[i].info.family;
        int seen = !strcmp(f, "memory");
        for (size_t j = 0; j < n && j < max && !seen; j++)
            seen = !strcmp(out[j], f);
        if (seen)
            continue;
        if (n < max)
            out[n] = f;
        n++;
    }
    return n;
}

void trn_op_model_of(const trn_op_desc *op, trn_op_model *m) {
    const op_row *r = row_of(op->kind);
    if (r) {
        r->model(op, m);
        return;
    }
    m->cost = 0.0;
    m->shard_limit = 1.0;
    m->pace = TRN_PACE_STREAM;
}

double trn_op_cost(const trn_op_desc *op) {
    trn_op_model m;
    trn_op_model_of(op, &m);
    return m.cost;
}

double trn_op_shard_limit(const trn_op_desc *op) {
    trn_op_model m;
    trn_op_model_of(op, &m);
    return m.shard_limit;
}

const char *trn_solver_op_name(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_SOLVER_DENSE:
        return trn_solver_name(op->u.solver_dense.fn, op->u.solver_dense.type);
    case TRN_OP_SOLVER_BATCHED:
        return trn_solver_name(op->u.solver_batched.fn, op->u.solver_batched.type);
    case TRN_OP_SOLVER_EIGEN:
        return trn_solver_name(op->u.solver_eigen.fn, op->u.solver_eigen.type);
    case TRN_OP_SOLVER_REFINE:
        return trn_solver_name(op->u.solver_refine.fn, op->u.solver_refine.type);
    case TRN_OP_SOLVER_KRYLOV:
        return trn_solver_name(op->u.solver_krylov.fn, op->u.solver_krylov.type);
    default: return NULL;
    }
}

const char *trn_op_title(const trn_op_desc *op) {
    const char *solver = trn_solver_op_name(op);
    if (solver)
        return solver;
    const trn_op_info *k = trn_op_info_of(op->kind);
    return k ? k->title : "op";
}
