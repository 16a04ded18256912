/*
 * tensor_cache.c — trntensor's plan-cache and kernel-cache files
 * (cutensorHandleWritePlanCacheToFile, HandleReadPlanCacheFromFile,
 * WriteKernelCacheToFile, ReadKernelCacheFromFile) and
 * cutensorHandleResizePlanCache.
 *
 * trntensor's contraction plans live in the daemon's plan cache, shared by
 * every process and persisted by the daemon itself. What a handle can
 * write is therefore the list of contractions it planned: the plan-cache
 * key of each (ops/tensor_plan.h's canonical text, "tensor contract R_32F
 * 32F A=... B=... D=..."), one a line after a header line. Reading the
 * file back (in any process, against any daemon) plans each listed
 * contraction again through PlanCreate and releases it: the daemon's cache
 * then holds the plan warm, so the next trntensorCreatePlan of that
 * contraction is a cache hit. The file names shapes, strides, types and
 * compute types only, never data. Lines that are not keys are skipped (not
 * counted); a file without the header is TRNTENSOR_STATUS_IO_ERROR.
 *
 * trnsci compiles no kernels for the client (the daemon keeps its own
 * compiled programs), so the kernel cache file holds its header only:
 * writing it and reading it back succeed and change nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/tensor_internal.h"
#include "ops/tensor_plan.h"

#define PLAN_HEADER "trntensor plan cache 1"
#define KERNEL_HEADER "trntensor kernel cache 1"

/* trnblasComputeType_t values a contraction may carry. */
static const int COMPUTES[] = {68, 70, 75, 77, 1075, 79};

static int dtype_of(trnsciDataType_t t, trn_dtype *out) {
    switch (t) {
    case TRNSCI_R_32F: *out = TRN_DTYPE_R32F; return 0;
    case TRNSCI_R_64F: *out = TRN_DTYPE_R64F; return 0;
    case TRNSCI_C_32F: *out = TRN_DTYPE_C32F; return 0;
    case TRNSCI_C_64F: *out = TRN_DTYPE_C64F; return 0;
    case TRNSCI_R_16F: *out = TRN_DTYPE_R16F; return 0;
    case TRNSCI_R_16BF: *out = TRN_DTYPE_R16BF; return 0;
    default: return -1;
    }
}

static trnsciDataType_t type_of(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R64F: return TRNSCI_R_64F;
    case TRN_DTYPE_C32F: return TRNSCI_C_32F;
    case TRN_DTYPE_C64F: return TRNSCI_C_64F;
    case TRN_DTYPE_R16F: return TRNSCI_R_16F;
    case TRN_DTYPE_R16BF: return TRNSCI_R_16BF;
    default: return TRNSCI_R_32F;
    }
}

static void layout_from(const struct trntensorOperationDescriptor *op, int role,
                        trn_tensor_layout *l) {
    l->nmodes = (int)op->t[role].nmodes;
    for (int i = 0; i < l->nmodes; i++) {
        l->mode[i] = op->mode[role][i];
        l->extent[i] = op->t[role].extent[i];
        l->stride[i] = op->t[role].stride[i];
    }
}

/* The plan-cache key of a contraction (0), or -1 when it has none (the
 * daemon would refuse it). */
static int key_of(const struct trntensorOperationDescriptor *op, char *key, size_t len) {
    trn_tensor_contract_spec s;
    memset(&s, 0, sizeof(s));
    const int wc = trn_tensor_wire_compute(op->compute);
    if (dtype_of(op->t[TRN_T_D].type, &s.type) != 0 || wc < 0)
        return -1;
    s.compute = (trn_compute)wc; /* the wire's values are trn_compute's */
    layout_from(op, TRN_T_A, &s.a);
    layout_from(op, TRN_T_B, &s.b);
    layout_from(op, TRN_T_D, &s.d);
    const int cplx = trn_tensor_type_complex(op->t[TRN_T_D].type);
    s.conj_a = cplx && op->op[TRN_T_A] == TRNTENSOR_OP_CONJ;
    s.conj_b = cplx && op->op[TRN_T_B] == TRNTENSOR_OP_CONJ;
    char err[160];
    if (trn_tensor_spec_check(&s, err, sizeof(err)) != 0)
        return -1;
    const int n = trn_tensor_spec_format(&s, key, len);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Remembers key in the handle's list (once). */
static int remember(trntensorHandle_t h, const char *key) {
    for (size_t i = 0; i < h->nkeys; i++)
        if (strcmp(h->keys[i], key) == 0)
            return 0;
    if (h->nkeys == h->cap) {
        const size_t cap = h->cap ? 2 * h->cap : 8;
        char **k = realloc(h->keys, cap * sizeof(*k));
        if (!k)
            return -1;
        h->keys = k;
        h->cap = cap;
    }
    char *copy = strdup(key);
    if (!copy)
        return -1;
    h->keys[h->nkeys++] = copy;
    return 0;
}

void trn_tensor_handle_planned(trntensorHandle_t h, const struct trntensorOperationDescriptor *op) {
    char key[TRN_PLAN_KEY_LEN];
    if (op->kind == TRN_TENSOR_CONTRACTION && key_of(op, key, sizeof(key)) == 0)
        (void)remember(h, key); /* out of memory: the file lacks it, nothing else */
}

void trn_tensor_handle_forget(trntensorHandle_t h) {
    for (size_t i = 0; i < h->nkeys; i++)
        free(h->keys[i]);
    free(h->keys);
    h->keys = NULL;
    h->nkeys = h->cap = 0;
}

trntensorStatus_t trntensorHandleResizePlanCache(trntensorHandle_t handle,
                                                 const uint32_t numEntries) {
    (void)numEntries; /* the daemon bounds its cache by memory, for every process */
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorHandleWritePlanCacheToFile(const trntensorHandle_t handle,
                                                      const char filename[]) {
    static const char fn[] = "trntensorHandleWritePlanCacheToFile";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!filename)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: filename is NULL", fn);
    FILE *f = fopen(filename, "w");
    if (!f) {
        trn_tensor_fail(trnsciErrorUnknown, "%s: cannot open %s for writing", fn, filename);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    int bad = fprintf(f, "%s\n", PLAN_HEADER) < 0;
    for (size_t i = 0; i < handle->nkeys && !bad; i++)
        bad = fprintf(f, "%s\n", handle->keys[i]) < 0;
    bad |= fclose(f) != 0;
    if (bad) {
        trn_tensor_fail(trnsciErrorUnknown, "%s: writing %s failed", fn, filename);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

/* Plans the contraction of key in the daemon and releases it (the
 * daemon's cache keeps it): 0, or -1 when key is not one or the daemon
 * refused it. */
static int warm(trn_client *c, const char *key, const char *fn) {
    trn_tensor_contract_spec s;
    char err[160];
    if (trn_tensor_spec_parse(key, &s, err, sizeof(err)) != 0)
        return -1;
    struct trntensorPlan *p = calloc(1, sizeof(*p));
    if (!p)
        return -1;
    struct trntensorOperationDescriptor *op = &p->op;
    op->kind = TRN_TENSOR_CONTRACTION;
    const trn_tensor_layout *ls[3] = {&s.a, &s.b, &s.d};
    const int roles[3] = {TRN_T_A, TRN_T_B, TRN_T_D};
    for (int o = 0; o < 3; o++) {
        const int r = roles[o];
        op->present[r] = 1;
        op->t[r].nmodes = (uint32_t)ls[o]->nmodes;
        op->t[r].type = type_of(s.type);
        for (int i = 0; i < ls[o]->nmodes; i++) {
            op->t[r].extent[i] = ls[o]->extent[i];
            op->t[r].stride[i] = ls[o]->stride[i];
            op->mode[r][i] = ls[o]->mode[i];
        }
        op->op[r] = TRNTENSOR_OP_IDENTITY;
    }
    if (s.conj_a)
        op->op[TRN_T_A] = TRNTENSOR_OP_CONJ;
    if (s.conj_b)
        op->op[TRN_T_B] = TRNTENSOR_OP_CONJ;
    for (size_t i = 0; i < sizeof(COMPUTES) / sizeof(COMPUTES[0]); i++)
        if (trn_tensor_wire_compute(COMPUTES[i]) == (int)s.compute)
            op->compute = COMPUTES[i];
    if (!op->compute || trn_tensor_plan_create(c, p, fn) != trnsciSuccess) {
        free(p);
        return -1;
    }
    trn_tensor_plan_free(p);
    return 0;
}

trntensorStatus_t trntensorHandleReadPlanCacheFromFile(trntensorHandle_t handle,
                                                       const char filename[],
                                                       uint32_t *numCachelinesRead) {
    static const char fn[] = "trntensorHandleReadPlanCacheFromFile";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!filename || !numCachelinesRead)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: filename or numCachelinesRead is NULL",
                               fn);
    *numCachelinesRead = 0;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    FILE *f = fopen(filename, "r");
    if (!f) {
        trn_tensor_fail(trnsciErrorUnknown, "%s: cannot open %s", fn, filename);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    char line[TRN_PLAN_KEY_LEN + 2];
    if (!fgets(line, sizeof(line), f) ||
        strncmp(line, PLAN_HEADER "\n", sizeof(PLAN_HEADER)) != 0) {
        fclose(f);
        trn_tensor_fail(trnsciErrorUnknown,
                        "%s: %s is not a plan cache file (its first line is not \"%s\")", fn,
                        filename, PLAN_HEADER);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    uint32_t n = 0;
    while (fgets(line, sizeof(line), f)) {
        const size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n') { /* too long to be a key: skip the rest */
            int ch;
            while (len && (ch = fgetc(f)) != EOF && ch != '\n')
                ;
            continue;
        }
        line[len - 1] = '\0';
        if (warm(c, line, fn) == 0) {
            n++;
            (void)remember(handle, line);
        }
    }
    fclose(f);
    *numCachelinesRead = n;
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorWriteKernelCacheToFile(const trntensorHandle_t handle,
                                                  const char filename[]) {
    static const char fn[] = "trntensorWriteKernelCacheToFile";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!filename)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: filename is NULL", fn);
    FILE *f = fopen(filename, "w");
    int bad = !f || fprintf(f, "%s\n", KERNEL_HEADER) < 0;
    if (f)
        bad |= fclose(f) != 0;
    if (bad) {
        trn_tensor_fail(trnsciErrorUnknown, "%s: writing %s failed", fn, filename);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}

trntensorStatus_t trntensorReadKernelCacheFromFile(trntensorHandle_t handle,
                                                   const char filename[]) {
    static const char fn[] = "trntensorReadKernelCacheFromFile";
    if (!handle)
        return TRNTENSOR_STATUS_NOT_INITIALIZED;
    if (!filename)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: filename is NULL", fn);
    FILE *f = fopen(filename, "r");
    char line[64];
    const int ok = f && fgets(line, sizeof(line), f) &&
                   strncmp(line, KERNEL_HEADER "\n", sizeof(KERNEL_HEADER)) == 0;
    if (f)
        fclose(f);
    if (!ok) {
        trn_tensor_fail(trnsciErrorUnknown,
                        "%s: %s is not a kernel cache file written by trntensor", fn, filename);
        return TRNTENSOR_STATUS_IO_ERROR;
    }
    trn_ok();
    return TRNTENSOR_STATUS_SUCCESS;
}
