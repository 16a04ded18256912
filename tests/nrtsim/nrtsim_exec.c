/*
 * nrtsim_exec.c — tensor sets and nrt_execute.
 *
 * A tensor set maps names to tensors it does not own. nrt_execute binds
 * every model input to the tensor of that name in the input set and every
 * output to the output set's (a missing name or a size other than the
 * NEFF's is NRT_INVALID, named on stderr), then, holding the core's exec
 * lock (one execution at a time per core), meets the faults armed for the
 * core (nrtsim_faults.c) or runs the kernel's reference code
 * (nrtsim_gemm.c; a gemm_seq's nodes in order, each reading an earlier
 * node's result from that node's output tensor), and sleeps until the
 * modelled time has passed: the
 * compute time (nrtsim_timing.c) from when the core was free and the
 * dispatch overhead since the call began had passed, whichever is later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/nrtsim/nrtsim_internal.h"

NRTSIM_API trn_nrt_status nrt_allocate_tensor_set(trn_nrt_tensor_set **set) {
    if (!set)
        return TRN_NRT_INVALID;
    *set = calloc(1, sizeof(**set));
    return *set ? TRN_NRT_SUCCESS : TRN_NRT_FAIL_HOST_MEM_ALLOC;
}

NRTSIM_API void nrt_destroy_tensor_set(trn_nrt_tensor_set **set) {
    if (!set || !*set)
        return;
    free((*set)->items);
    free(*set);
    *set = NULL;
}

static nrtsim_binding *find_binding(const trn_nrt_tensor_set *set, const char *name) {
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->items[i].name, name) == 0)
            return &set->items[i];
    return NULL;
}

NRTSIM_API trn_nrt_status nrt_add_tensor_to_tensor_set(trn_nrt_tensor_set *set, const char *name,
                                                       trn_nrt_tensor *tensor) {
    if (!set || !name || !tensor || strlen(name) >= TRN_NRT_TENSOR_NAME_MAX)
        return TRN_NRT_INVALID;
    nrtsim_binding *b = find_binding(set, name);
    if (b) { /* a name is bound once: the last tensor added wins */
        b->tensor = tensor;
        return TRN_NRT_SUCCESS;
    }
    if (set->count == set->cap) {
        const size_t cap = set->cap ? 2 * set->cap : 8;
        nrtsim_binding *items = realloc(set->items, cap * sizeof(*items));
        if (!items)
            return TRN_NRT_FAIL_HOST_MEM_ALLOC;
        set->items = items;
        set->cap = cap;
    }
    b = &set->items[set->count++];
    memcpy(b->name, name, strlen(name) + 1);
    b->tensor = tensor;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_get_tensor_from_tensor_set(trn_nrt_tensor_set *set, const char *name,
                                                         trn_nrt_tensor **tensor) {
    if (!set || !name || !tensor)
        return TRN_NRT_INVALID;
    const nrtsim_binding *b = find_binding(set, name);
    *tensor = b ? b->tensor : NULL;
    return b ? TRN_NRT_SUCCESS : TRN_NRT_INVALID;
}

/* The memory the model's tensors are bound to: bound[i] for its tensor i. */
typedef struct bindings {
    unsigned char *bound[NRTSIM_MAX_TENSORS];
} bindings;

/* Binds the model's tensors to the sets' (sizes checked). */
static trn_nrt_status bind(const trn_nrt_model *m, const trn_nrt_tensor_set *in,
                           const trn_nrt_tensor_set *out, bindings *b) {
    for (size_t i = 0; i < m->neff.ntensors; i++) {
        const nrtsim_tdecl *d = &m->neff.tensors[i];
        const int input = d->usage == TRN_NRT_USAGE_INPUT;
        const nrtsim_binding *t = find_binding(input ? in : out, d->name);
        if (!t) {
            fprintf(stderr, "nrtsim: nrt_execute: %s tensor \"%s\" is not in the %s set\n",
                    input ? "input" : "output", d->name, input ? "input" : "output");
            return TRN_NRT_INVALID;
        }
        if (t->tensor->size != d->bytes) {
            fprintf(stderr, "nrtsim: nrt_execute: tensor \"%s\" has %zu bytes, the model's %llu\n",
                    d->name, t->tensor->size, (unsigned long long)d->bytes);
            return TRN_NRT_INVALID;
        }
        const nrtsim_mem *mem = t->tensor->mem;
        if (mem->placement == TRN_NRT_PLACEMENT_DEVICE && mem->core != m->core) {
            fprintf(stderr,
                    "nrtsim: nrt_execute: tensor \"%s\" is in NeuronCore %d's memory, the model "
                    "runs on %d\n",
                    d->name, mem->core, m->core);
            return TRN_NRT_INVALID;
        }
        b->bound[i] = mem->bytes + t->tensor->offset;
    }
    return TRN_NRT_SUCCESS;
}

/* The bound memory of the model's tensor called name (declared: the NEFF
 * parser checked the program's tensors). */
static float *tensor_of(const trn_nrt_model *m, const bindings *b, const char *name) {
    for (size_t i = 0; i < m->neff.ntensors; i++)
        if (strcmp(m->neff.tensors[i].name, name) == 0)
            return (float *)b->bound[i];
    return NULL;
}

/* Runs the program's nodes in order, each by the gemm reference, a node's
 * operand from an earlier node read from that node's d as it wrote it. */
static trn_nrt_status run_nodes(const trn_nrt_model *m, const bindings *b) {
    const float *scal = tensor_of(m, b, "scal");
    for (int j = 0; j < m->neff.nnodes; j++) {
        const nrtsim_node *nd = &m->neff.nodes[j];
        const float *ops[3];
        for (int w = 0; w < 3; w++)
            ops[w] = nd->src[w] < 0 ? tensor_of(m, b, nd->in[w])
                                    : tensor_of(m, b, m->neff.nodes[nd->src[w]].d);
        const trn_nrt_status st = nrtsim_gemm_run(&nd->g, ops[0], ops[1], ops[2],
                                                  scal + nd->scal_at, tensor_of(m, b, nd->d));
        if (st != TRN_NRT_SUCCESS)
            return st;
    }
    return TRN_NRT_SUCCESS;
}

/* What the runtime says of this execution before it runs (lock taken). */
typedef struct exec_plan {
    trn_nrt_status status; /* not SUCCESS: refused */
    nrtsim_fault fault;
    uint64_t dispatch_ns, compute_ns, timeout_ns;
} exec_plan;

static exec_plan plan(const trn_nrt_model *m) {
    exec_plan p = {.status = TRN_NRT_SUCCESS};
    nrtsim_rt *rt = nrtsim_lock();
    if (!rt->initialized)
        p.status = TRN_NRT_UNINITIALIZED;
    else if (!nrtsim_model_live(rt, m))
        p.status = TRN_NRT_INVALID_HANDLE;
    else {
        p.fault = nrtsim_faults_exec(&rt->faults, rt->cores[m->core].physical);
        p.dispatch_ns = rt->timing.dispatch_ns;
        p.compute_ns = nrtsim_compute_ns(&rt->timing, &m->neff);
        p.timeout_ns = rt->timing.timeout_ns;
    }
    nrtsim_unlock();
    return p;
}

/* The execution itself, on the core's exec lock. */
static trn_nrt_status run(const trn_nrt_model *m, const exec_plan *p, uint64_t start,
                          const bindings *b) {
    /* The core works from when it is this execution's, and not before the
     * dispatch overhead has passed: executions queued on a core take their
     * modelled times one after the other. */
    const uint64_t acquired = nrtsim_now_ns(), dispatched = start + p->dispatch_ns;
    const uint64_t begin = acquired > dispatched ? acquired : dispatched;
    switch (p->fault) {
    case NRTSIM_FAULT_HANG: nrtsim_block_forever();
    case NRTSIM_FAULT_TIMEOUT: nrtsim_sleep_until(begin + p->timeout_ns); return TRN_NRT_TIMEOUT;
    case NRTSIM_FAULT_EXEC_ERROR: nrtsim_sleep_until(begin); return TRN_NRT_EXEC_COMPLETED_WITH_ERR;
    case NRTSIM_FAULT_NONE: break;
    }
    const trn_nrt_status st = run_nodes(m, b);
    nrtsim_sleep_until(begin + p->compute_ns);
    nrtsim_trace("exec", m->core, begin, nrtsim_now_ns(), 0);
    return st;
}

NRTSIM_API trn_nrt_status nrt_execute(trn_nrt_model *model, const trn_nrt_tensor_set *in,
                                      trn_nrt_tensor_set *out) {
    const uint64_t start = nrtsim_now_ns();
    if (!model || !in || !out)
        return TRN_NRT_INVALID;
    nrtsim_rt *rt = nrtsim_lock();
    const int live = rt->initialized && nrtsim_model_live(rt, model);
    nrtsim_unlock();
    if (!live)
        return TRN_NRT_INVALID_HANDLE;
    bindings b = {{0}};
    trn_nrt_status st = bind(model, in, out, &b);
    if (st != TRN_NRT_SUCCESS)
        return st;
    pthread_mutex_t *core = nrtsim_exec_lock(model->core);
    pthread_mutex_lock(core);
    /* The fault is decided once the core is this execution's: an armed
     * count goes to executions in the order the core runs them. */
    const exec_plan p = plan(model);
    st = p.status == TRN_NRT_SUCCESS ? run(model, &p, start, &b) : p.status;
    pthread_mutex_unlock(core);
    return st;
}
