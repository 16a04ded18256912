/*
 * nrtsim_model.c — the simulated NEFF: its parser, nrt_load/nrt_unload and
 * the models' tensor information.
 *
 * The simulated NEFF is text, written by nrtsim-cc (nrtsim_cc.c): lines
 * ending in '\n', fields separated by one space, no NUL byte, at most
 * NEFF_SIZE_MAX bytes and NEFF_LINE_MAX per line, in this order:
 *   NRTSIM-NEFF 1                          magic and format version
 *   target trn1|trn2
 *   kernel NAME                            the NKI kernel ("gemm", "gemm_seq")
 *   params TEXT                            its parameter text (program.h)
 *   source fnv1a64:HEX16                   optional: FNV-1a 64 of the source
 *   tensor NAME USAGE DTYPE BYTES NDIM D1 .. DNDIM     1 to 40 of these
 *   end                                    the last line: nothing follows
 * USAGE is input|output; DTYPE float32|bfloat16|float16|int32; BYTES,
 * NDIM (1..8) and the dimensions are decimal, and BYTES must be the product
 * of the dimensions times the element size. NAME is 1-255 characters of
 * [A-Za-z0-9_.-]. For kernel gemm, the parameters must parse
 * (trn_nprog_gemm_parse) and the tensors must be exactly at, b, c, scal
 * (inputs) and d (output), float32, of program.h's shapes (for f32 too,
 * at is [B][1][K][M]: P = 1 is a dimension), or with layout=cm exactly
 * a, b, c, scal and d of its shapes. For gemm_seq
 * (trn_nprog_seq_parse): atJ, bJ, cJ for each operand whose source is
 * "in", scal [J][2P], and dJ for every node. Anything else is
 * NRT_INVALID; the parser reads nothing past the size it is given.
 *
 * Device memory of a loaded model (charged to its core, given back at
 * unload): the NEFF's size plus the sum of its tensors' bytes, as the
 * scratch a compiled program's instructions and intermediate buffers take.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/nrtsim/nrtsim_internal.h"

#define NEFF_MAGIC "NRTSIM-NEFF 1"
#define NEFF_SIZE_MAX (64 * 1024)
#define NEFF_LINE_MAX 512
#define MAX_FIELDS (6 + NRTSIM_MAX_NDIM)

/* The input being parsed: data[pos..size). */
typedef struct cursor {
    const char *data;
    size_t size, pos;
} cursor;

/* One line, split: fields point into buf. */
typedef struct line {
    char buf[NEFF_LINE_MAX + 1];
    char *field[MAX_FIELDS];
    int nfields;
} line;

/* Copies the next line (without its '\n') into ln->buf and splits it at
 * single spaces. -1: no '\n' in range, too long, a NUL, an empty field or
 * too many fields. */
static int next_line(cursor *c, line *ln) {
    size_t n = 0;
    while (c->pos + n < c->size && c->data[c->pos + n] != '\n') {
        if (n >= NEFF_LINE_MAX || c->data[c->pos + n] == '\0')
            return -1;
        n++;
    }
    if (c->pos + n >= c->size)
        return -1;
    memcpy(ln->buf, c->data + c->pos, n);
    ln->buf[n] = '\0';
    c->pos += n + 1;
    ln->nfields = 0;
    char *p = ln->buf;
    for (;;) {
        if (ln->nfields == MAX_FIELDS || *p == ' ' || *p == '\0')
            return -1;
        ln->field[ln->nfields++] = p;
        p = strchr(p, ' ');
        if (!p)
            return 0;
        *p++ = '\0';
    }
}

/* A decimal number below limit, digits only. */
static int parse_num(const char *s, uint64_t limit, uint64_t *out) {
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        const uint64_t d = (uint64_t)(*s - '0');
        /* v * 10 + d <= limit, without overflow (d > limit first). */
        if (*s < '0' || *s > '9' || d > limit || v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int valid_name(const char *s) {
    const size_t n = strlen(s);
    if (n == 0 || n >= TRN_NRT_TENSOR_NAME_MAX)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

/* The dtype named s and its element size, or -1. */
static int parse_dtype(const char *s, trn_nrt_dtype *dt, uint64_t *elem) {
    static const struct {
        const char *name;
        trn_nrt_dtype dt;
        uint64_t size;
    } types[] = {{"float32", TRN_NRT_DTYPE_FLOAT32, 4},
                 {"bfloat16", TRN_NRT_DTYPE_BFLOAT16, 2},
                 {"float16", TRN_NRT_DTYPE_FLOAT16, 2},
                 {"int32", TRN_NRT_DTYPE_INT32, 4}};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        if (strcmp(s, types[i].name) == 0) {
            *dt = types[i].dt;
            *elem = types[i].size;
            return 0;
        }
    }
    return -1;
}

/* "tensor NAME USAGE DTYPE BYTES NDIM D1 .. DNDIM" into d. */
static int parse_tensor(const line *ln, nrtsim_tdecl *d, char *err, size_t errlen) {
    uint64_t bytes, ndim, elem, product;
    if (ln->nfields < 7 || !valid_name(ln->field[1]) ||
        parse_dtype(ln->field[3], &d->dtype, &elem) != 0 ||
        parse_num(ln->field[4], UINT64_C(1) << 50, &bytes) != 0 ||
        parse_num(ln->field[5], NRTSIM_MAX_NDIM, &ndim) != 0 || ndim < 1 ||
        (uint64_t)ln->nfields != 6 + ndim) {
        snprintf(err, errlen, "malformed tensor line");
        return -1;
    }
    if (strcmp(ln->field[2], "input") == 0)
        d->usage = TRN_NRT_USAGE_INPUT;
    else if (strcmp(ln->field[2], "output") == 0)
        d->usage = TRN_NRT_USAGE_OUTPUT;
    else {
        snprintf(err, errlen, "tensor %s: usage must be input or output", ln->field[1]);
        return -1;
    }
    product = elem;
    for (uint64_t i = 0; i < ndim; i++) {
        uint64_t dim;
        /* Dimensions and products stay below 2^50: no overflow on the way. */
        if (parse_num(ln->field[6 + i], UINT32_MAX, &dim) != 0 || dim < 1 ||
            product > (UINT64_C(1) << 50) / dim) {
            snprintf(err, errlen, "tensor %s: bad dimension", ln->field[1]);
            return -1;
        }
        product *= dim;
        d->shape[i] = (uint32_t)dim;
    }
    if (product != bytes) {
        snprintf(err, errlen, "tensor %s: %llu bytes is not its shape's size", ln->field[1],
                 (unsigned long long)bytes);
        return -1;
    }
    snprintf(d->name, sizeof(d->name), "%s", ln->field[1]);
    d->bytes = bytes;
    d->ndim = (uint32_t)ndim;
    return 0;
}

/* A line "KEY VALUE" (VALUE a single field) into out[cap]. */
static int keyed_field(cursor *c, line *ln, const char *key, char *out, size_t cap) {
    if (next_line(c, ln) != 0 || ln->nfields != 2 || strcmp(ln->field[0], key) != 0 ||
        strlen(ln->field[1]) >= cap)
        return -1;
    memcpy(out, ln->field[1], strlen(ln->field[1]) + 1);
    return 0;
}

/* "params TEXT": the text is the rest of the line, with its spaces. */
static int params_line(cursor *c, line *ln, nrtsim_neff *out) {
    const size_t start = c->pos;
    if (next_line(c, ln) != 0 || strcmp(ln->field[0], "params") != 0 || ln->nfields < 2)
        return -1;
    const size_t len = c->pos - 1 - start - strlen("params ");
    if (len >= sizeof(out->params))
        return -1;
    memcpy(out->params, c->data + start + strlen("params "), len);
    out->params[len] = '\0';
    return 0;
}

static int parse_header(cursor *c, line *ln, nrtsim_neff *out, char *err, size_t errlen) {
    if (next_line(c, ln) != 0 || ln->nfields != 2 || strcmp(ln->field[0], "NRTSIM-NEFF") != 0 ||
        strcmp(ln->field[1], "1") != 0) {
        snprintf(err, errlen, "not a simulated NEFF (no \"%s\" line)", NEFF_MAGIC);
        return -1;
    }
    if (keyed_field(c, ln, "target", out->target, sizeof(out->target)) != 0 ||
        (strcmp(out->target, "trn1") != 0 && strcmp(out->target, "trn2") != 0)) {
        snprintf(err, errlen, "bad target line");
        return -1;
    }
    if (keyed_field(c, ln, "kernel", out->kernel, sizeof(out->kernel)) != 0) {
        snprintf(err, errlen, "bad kernel line");
        return -1;
    }
    if (params_line(c, ln, out) != 0) {
        snprintf(err, errlen, "bad params line");
        return -1;
    }
    return 0;
}

/* The tensor lines and "end", with the optional source line before them. */
static int parse_body(cursor *c, line *ln, nrtsim_neff *out, char *err, size_t errlen) {
    int first = 1;
    for (;;) {
        if (next_line(c, ln) != 0) {
            snprintf(err, errlen, "malformed or truncated line");
            return -1;
        }
        if (first && strcmp(ln->field[0], "source") == 0 && ln->nfields == 2 &&
            strlen(ln->field[1]) < sizeof(out->source_hash)) {
            snprintf(out->source_hash, sizeof(out->source_hash), "%s", ln->field[1]);
        } else if (strcmp(ln->field[0], "tensor") == 0) {
            if (out->ntensors == NRTSIM_MAX_TENSORS) {
                snprintf(err, errlen, "more than %d tensors", NRTSIM_MAX_TENSORS);
                return -1;
            }
            if (parse_tensor(ln, &out->tensors[out->ntensors++], err, errlen) != 0)
                return -1;
        } else if (strcmp(ln->field[0], "end") == 0 && ln->nfields == 1 && out->ntensors) {
            if (c->pos != c->size) {
                snprintf(err, errlen, "bytes after the end line");
                return -1;
            }
            return 0;
        } else {
            snprintf(err, errlen, "unexpected line \"%.40s\"", ln->field[0]);
            return -1;
        }
        first = 0;
    }
}

static const nrtsim_tdecl *find_decl(const nrtsim_neff *n, const char *name) {
    for (size_t i = 0; i < n->ntensors; i++)
        if (strcmp(n->tensors[i].name, name) == 0)
            return &n->tensors[i];
    return NULL;
}

/* One tensor a program must declare. */
typedef struct want_tensor {
    char name[16];
    trn_nrt_usage usage;
    uint32_t ndim, shape[4];
} want_tensor;

static void want4(want_tensor *w, const char *name, trn_nrt_usage usage, uint32_t d0, uint32_t d1,
                  uint32_t d2, uint32_t d3) {
    snprintf(w->name, sizeof(w->name), "%s", name);
    w->usage = usage;
    w->ndim = 4;
    w->shape[0] = d0, w->shape[1] = d1, w->shape[2] = d2, w->shape[3] = d3;
}

/* Node j's tensors and where its operands come from; suffix "" (gemm) or
 * its index (gemm_seq). Appends the tensors it declares to want. */
static void set_node(nrtsim_node *nd, const trn_nprog_gemm *g, const int src[3], int j,
                     const char *suffix, want_tensor *want, size_t *nwant) {
    const uint32_t B = (uint32_t)g->batch, P = g->complex ? 2 : 1, M = (uint32_t)g->m,
                   N = (uint32_t)g->n, K = (uint32_t)g->k;
    const int cm = g->layout == TRN_NPROG_COLMAJOR;
    const char *const base[3] = {cm ? "a" : "at", "b", "c"};
    uint32_t shapes[3][2] = {{K, M}, {K, N}, {M, N}};
    if (cm) { /* column by column */
        int rows, cols;
        trn_nprog_gemm_stored(g, 0, &rows, &cols);
        shapes[0][0] = (uint32_t)cols, shapes[0][1] = (uint32_t)rows;
        trn_nprog_gemm_stored(g, 1, &rows, &cols);
        shapes[1][0] = (uint32_t)cols, shapes[1][1] = (uint32_t)rows;
        shapes[2][0] = N, shapes[2][1] = M;
    }
    nd->g = *g;
    for (int w = 0; w < 3; w++) {
        nd->src[w] = src[w];
        snprintf(nd->in[w], sizeof(nd->in[w]), "%s%s", base[w], suffix);
        if (src[w] < 0)
            want4(&want[(*nwant)++], nd->in[w], TRN_NRT_USAGE_INPUT, B, P, shapes[w][0],
                  shapes[w][1]);
    }
    snprintf(nd->d, sizeof(nd->d), "d%s", suffix);
    if (cm)
        want4(&want[(*nwant)++], nd->d, TRN_NRT_USAGE_OUTPUT, B, 1, N, M);
    else
        want4(&want[(*nwant)++], nd->d, TRN_NRT_USAGE_OUTPUT, B, P, M, N);
    nd->scal_at = (size_t)j * 2 * P;
}

/* The program's nodes from its parameters, and the tensors it must have. */
static int program_nodes(nrtsim_neff *n, want_tensor *want, size_t *nwant, char *err,
                         size_t errlen) {
    const int in3[3] = {-1, -1, -1};
    uint32_t P;
    if (strcmp(n->kernel, "gemm") == 0) {
        trn_nprog_gemm g;
        if (trn_nprog_gemm_parse(n->params, &g, err, errlen) != 0)
            return -1;
        n->nnodes = 1;
        set_node(&n->nodes[0], &g, in3, 0, "", want, nwant);
        P = g.complex ? 2 : 1;
        want[*nwant] = (want_tensor){"scal", TRN_NRT_USAGE_INPUT, 1, {2 * P}};
    } else if (strcmp(n->kernel, "gemm_seq") == 0) {
        trn_nprog_seq sq;
        if (trn_nprog_seq_parse(n->params, &sq, err, errlen) != 0)
            return -1;
        n->nnodes = sq.nodes;
        for (int j = 0; j < sq.nodes; j++) {
            char suffix[12];
            snprintf(suffix, sizeof(suffix), "%d", j);
            set_node(&n->nodes[j], &sq.node[j], sq.src[j], j, suffix, want, nwant);
        }
        P = sq.complex ? 2 : 1;
        want[*nwant] = (want_tensor){"scal", TRN_NRT_USAGE_INPUT, 2, {(uint32_t)sq.nodes, 2 * P}};
    } else {
        snprintf(err, errlen, "unknown kernel \"%.40s\"", n->kernel);
        return -1;
    }
    (*nwant)++;
    return 0;
}

/* The program's tensors are exactly program.h's. */
static int check_program(nrtsim_neff *n, char *err, size_t errlen) {
    want_tensor want[4 * TRN_NPROG_SEQ_MAX + 1];
    size_t nwant = 0;
    if (program_nodes(n, want, &nwant, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < nwant; i++) {
        const nrtsim_tdecl *d = find_decl(n, want[i].name);
        /* The bytes follow from the shape (parse_tensor checked them). */
        if (!d || d->usage != want[i].usage || d->dtype != TRN_NRT_DTYPE_FLOAT32 ||
            d->ndim != want[i].ndim ||
            memcmp(d->shape, want[i].shape, want[i].ndim * sizeof(uint32_t)) != 0) {
            snprintf(err, errlen, "%s tensor %s missing or not as the parameters say", n->kernel,
                     want[i].name);
            return -1;
        }
    }
    if (n->ntensors != nwant) {
        snprintf(err, errlen, "%s has %zu tensors, not %zu", n->kernel, n->ntensors, nwant);
        return -1;
    }
    return 0;
}

int nrtsim_neff_parse(const void *data, size_t size, nrtsim_neff *out, char *err, size_t errlen) {
    memset(out, 0, sizeof(*out));
    if (!data || size == 0 || size > NEFF_SIZE_MAX) {
        snprintf(err, errlen, "NEFF of %zu bytes (1..%d)", size, NEFF_SIZE_MAX);
        return -1;
    }
    cursor c = {.data = data, .size = size, .pos = 0};
    line *ln = malloc(sizeof(*ln));
    if (!ln) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = parse_header(&c, ln, out, err, errlen);
    if (rc == 0)
        rc = parse_body(&c, ln, out, err, errlen);
    free(ln);
    if (rc != 0)
        return -1;
    return check_program(out, err, errlen);
}

/* ---- load / unload ---- */

int nrtsim_model_live(const nrtsim_rt *rt, const trn_nrt_model *model) {
    for (const trn_nrt_model *p = rt->models; p; p = p->next)
        if (p == model)
            return 1;
    return 0;
}

static void model_remove(nrtsim_rt *rt, trn_nrt_model *m) {
    if (m->prev)
        m->prev->next = m->next;
    else
        rt->models = m->next;
    if (m->next)
        m->next->prev = m->prev;
    nrtsim_uncharge(rt, m->core, m->charged);
    free(m);
}

void nrtsim_models_release_all(nrtsim_rt *rt) {
    while (rt->models)
        model_remove(rt, rt->models);
}

/* The core a load goes to: 0, or a status. */
static trn_nrt_status place(const nrtsim_rt *rt, int32_t start_nc, int32_t nc_count, int *core) {
    const int32_t start = start_nc == -1 ? 0 : start_nc;
    if (start < 0 || start >= rt->nvisible || nc_count == 0 || nc_count < -1) {
        fprintf(stderr, "nrtsim: nrt_load: start_nc %d, nc_count %d: no such NeuronCores\n",
                start_nc, nc_count);
        return TRN_NRT_INVALID;
    }
    if (nc_count > rt->nvisible - start) {
        fprintf(stderr, "nrtsim: nrt_load: %d NeuronCores from %d: only %d visible\n", nc_count,
                start, rt->nvisible);
        return TRN_NRT_LOAD_NOT_ENOUGH_NC;
    }
    if (nc_count > 1) {
        fprintf(stderr, "nrtsim: nrt_load: a model is loaded onto one NeuronCore\n");
        return TRN_NRT_INVALID;
    }
    *core = start;
    return TRN_NRT_SUCCESS;
}

static trn_nrt_status load_locked(nrtsim_rt *rt, trn_nrt_model *m, size_t size, int32_t start_nc,
                                  int32_t nc_count) {
    if (!rt->initialized)
        return TRN_NRT_UNINITIALIZED;
    const trn_nrt_status st = place(rt, start_nc, nc_count, &m->core);
    if (st != TRN_NRT_SUCCESS)
        return st;
    m->charged = size;
    for (size_t i = 0; i < m->neff.ntensors; i++)
        m->charged += m->neff.tensors[i].bytes;
    if (nrtsim_charge(rt, m->core, m->charged) != 0) {
        fprintf(stderr, "nrtsim: nrt_load: %llu bytes do not fit NeuronCore %d's memory\n",
                (unsigned long long)m->charged, rt->cores[m->core].physical);
        return TRN_NRT_RESOURCE;
    }
    m->prev = NULL;
    m->next = rt->models;
    if (rt->models)
        rt->models->prev = m;
    rt->models = m;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_load(const void *neff, size_t size, int32_t start_nc,
                                   int32_t nc_count, trn_nrt_model **model) {
    if (!model)
        return TRN_NRT_INVALID;
    *model = NULL;
    trn_nrt_model *m = calloc(1, sizeof(*m));
    if (!m)
        return TRN_NRT_FAIL_HOST_MEM_ALLOC;
    char err[256];
    if (nrtsim_neff_parse(neff, size, &m->neff, err, sizeof(err)) != 0) {
        fprintf(stderr, "nrtsim: nrt_load: invalid NEFF: %s\n", err);
        free(m);
        return TRN_NRT_INVALID;
    }
    nrtsim_rt *rt = nrtsim_lock();
    const trn_nrt_status st = load_locked(rt, m, size, start_nc, nc_count);
    nrtsim_unlock();
    if (st != TRN_NRT_SUCCESS) {
        free(m);
        return st;
    }
    *model = m;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_unload(trn_nrt_model *model) {
    nrtsim_rt *rt = nrtsim_lock();
    trn_nrt_status st = TRN_NRT_INVALID_HANDLE;
    if (!rt->initialized)
        st = TRN_NRT_UNINITIALIZED;
    else if (model && nrtsim_model_live(rt, model)) {
        model_remove(rt, model);
        st = TRN_NRT_SUCCESS;
    }
    nrtsim_unlock();
    return st;
}

/* ---- tensor information ---- */

static trn_nrt_tensor_info_array *info_of(const nrtsim_neff *n) {
    trn_nrt_tensor_info_array *a =
        calloc(1, sizeof(*a) + n->ntensors * sizeof(trn_nrt_tensor_info));
    if (!a)
        return NULL;
    for (size_t i = 0; i < n->ntensors; i++) {
        const nrtsim_tdecl *d = &n->tensors[i];
        trn_nrt_tensor_info *t = &a->tensor_array[i];
        t->shape = calloc(d->ndim, sizeof(uint32_t));
        if (!t->shape) {
            a->tensor_count = i;
            nrt_free_model_tensor_info(a);
            return NULL;
        }
        memcpy(t->shape, d->shape, d->ndim * sizeof(uint32_t));
        memcpy(t->name, d->name, sizeof(t->name));
        t->usage = d->usage;
        t->size = (size_t)d->bytes;
        t->dtype = d->dtype;
        t->ndim = d->ndim;
    }
    a->tensor_count = n->ntensors;
    return a;
}

NRTSIM_API trn_nrt_status nrt_get_model_tensor_info(trn_nrt_model *model,
                                                    trn_nrt_tensor_info_array **info) {
    if (!info)
        return TRN_NRT_INVALID;
    *info = NULL;
    nrtsim_rt *rt = nrtsim_lock();
    const int live = rt->initialized && model && nrtsim_model_live(rt, model);
    nrtsim_unlock();
    if (!live)
        return TRN_NRT_INVALID_HANDLE;
    /* The NEFF of a loaded model does not change: read it unlocked. */
    *info = info_of(&model->neff);
    return *info ? TRN_NRT_SUCCESS : TRN_NRT_FAIL_HOST_MEM_ALLOC;
}

NRTSIM_API trn_nrt_status nrt_free_model_tensor_info(trn_nrt_tensor_info_array *info) {
    if (!info)
        return TRN_NRT_SUCCESS;
    for (uint64_t i = 0; i < info->tensor_count; i++)
        free(info->tensor_array[i].shape);
    free(info);
    return TRN_NRT_SUCCESS;
}
