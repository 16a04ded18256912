/*
 * fft.c — trnfft: plan handles and the Exec calls.
 *
 * A handle is a small positive int naming an entry of this process's
 * registry; ids only grow, so a destroyed handle is never confused with a
 * newer one. trnfftMakePlan* sends PlanCreate, and the entry keeps the
 * daemon's plan id with the session generation it belongs to (after
 * trnsciDeviceReset the handle is invalid, like an event), the plan's type
 * (Exec* of another type is refused here with TRNFFT_INVALID_TYPE) and the
 * stream. Exec* queue one FftExecOp; the daemon validates the pointers
 * against the plan's layout (validate_fft.c) and its message for a refused
 * call is available from trnsciGetLastErrorMessage.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/validate.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnfftXt.h"

typedef struct fft_handle {
    int made;         /* a plan was made on it */
    uint32_t plan_id; /* the daemon's, in session `generation` */
    uint64_t generation;
    Trnsci__V1__FftType type; /* the plan's, as the wire names it */
    trnsciStream_t stream;
} fft_handle;

/* Live handles: handle h is reg[h - 1] (NULL once destroyed). */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static fft_handle **reg;
static size_t reg_len, reg_cap;

static fft_handle *lookup_locked(trnfftHandle h) {
    return h >= 1 && (size_t)h <= reg_len ? reg[h - 1] : NULL;
}

static trnfftResult live_handle(const char *fn, trnfftHandle plan);

/* Runtime errors as the closest cuFFT result. */
static trnfftResult result_of(trnsciError_t e) {
    switch (e) {
    case trnsciSuccess: return TRNFFT_SUCCESS;
    case trnsciErrorInvalidValue: return TRNFFT_INVALID_VALUE;
    case trnsciErrorMemoryAllocation:
    case trnsciErrorBusy: return TRNFFT_ALLOC_FAILED;
    case trnsciErrorNoDevice:
    case trnsciErrorInitializationError:
    case trnsciErrorInsufficientDriver:
    case trnsciErrorUnauthenticated:
    case trnsciErrorNotPermitted:
    case trnsciErrorDevicesUnavailable:
    case trnsciErrorContextIsDestroyed: return TRNFFT_SETUP_FAILED;
    case trnsciErrorNotSupported: return TRNFFT_NOT_SUPPORTED;
    case trnsciErrorUnknown: return TRNFFT_INTERNAL_ERROR;
    default: return TRNFFT_EXEC_FAILED;
    }
}

static trnfftResult fail(trnfftResult r, trnsciError_t e, const char *msg) {
    trn_fail(e, "%s", msg);
    return r;
}

static Trnsci__V1__FftType wire_type(trnfftType t) {
    switch (t) {
    case TRNFFT_C2C: return TRNSCI__V1__FFT_TYPE__FFT_C2C;
    case TRNFFT_R2C: return TRNSCI__V1__FFT_TYPE__FFT_R2C;
    case TRNFFT_C2R: return TRNSCI__V1__FFT_TYPE__FFT_C2R;
    case TRNFFT_Z2Z: return TRNSCI__V1__FFT_TYPE__FFT_Z2Z;
    case TRNFFT_D2Z: return TRNSCI__V1__FFT_TYPE__FFT_D2Z;
    case TRNFFT_Z2D: return TRNSCI__V1__FFT_TYPE__FFT_Z2D;
    }
    return TRNSCI__V1__FFT_TYPE__FFT_TYPE_UNSPECIFIED;
}

trnfftResult trnfftCreate(trnfftHandle *plan) {
    if (!plan)
        return fail(TRNFFT_INVALID_VALUE, trnsciErrorInvalidValue, "trnfftCreate: plan is NULL");
    trnsciError_t e;
    if (!trn_client_get(&e))
        return TRNFFT_SETUP_FAILED; /* recorded */
    fft_handle *h = calloc(1, sizeof(*h));
    if (!h)
        return fail(TRNFFT_ALLOC_FAILED, trnsciErrorMemoryAllocation,
                    "trnfftCreate: out of memory");
    pthread_mutex_lock(&reg_lock);
    if (reg_len == reg_cap && reg_len < INT_MAX) {
        const size_t cap = reg_cap ? 2 * reg_cap : 16;
        fft_handle **v = realloc(reg, cap * sizeof(*v));
        if (v) {
            reg = v;
            reg_cap = cap;
        }
    }
    const int ok = reg_len < reg_cap && reg_len < INT_MAX;
    if (ok) {
        reg[reg_len++] = h;
        *plan = (trnfftHandle)reg_len;
    }
    pthread_mutex_unlock(&reg_lock);
    if (!ok) {
        free(h);
        return fail(TRNFFT_ALLOC_FAILED, trnsciErrorMemoryAllocation,
                    "trnfftCreate: out of memory");
    }
    trn_ok();
    return TRNFFT_SUCCESS;
}

/* Client-side checks of a plan's arguments that have a more specific
 * result than the daemon's INVALID_ARGUMENT (fn names the call in the
 * message). Sizes and batch arrive as 64-bit values (the 64-bit API's); the
 * daemon takes each of them up to 2^31 - 1. */
static trnfftResult check_shape(const char *fn, int rank, const long long *n, long long batch) {
    if (rank < 1 || rank > 3 || !n) {
        trn_fail(trnsciErrorInvalidValue, "%s: rank %d must be 1, 2 or 3 (and n given)", fn, rank);
        return TRNFFT_INVALID_VALUE;
    }
    for (int d = 0; d < rank; d++)
        if (n[d] < 1 || n[d] > INT_MAX) {
            trn_fail(trnsciErrorInvalidValue, "%s: n[%d] = %lld must be 1..2147483647", fn, d,
                     n[d]);
            return TRNFFT_INVALID_SIZE;
        }
    if (batch < 1 || batch > INT_MAX) {
        trn_fail(trnsciErrorInvalidValue, "%s: batch %lld must be 1..2147483647", fn, batch);
        return TRNFFT_INVALID_SIZE;
    }
    /* Elements of the whole batch: past 2^59 no buffer could hold it (the
     * daemon checks the exact extent of the layout too). */
    unsigned __int128 total = (unsigned long long)batch;
    for (int d = 0; d < rank; d++)
        total *= (unsigned long long)n[d];
    if (total > ((unsigned __int128)1 << 59)) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: %lld transforms of these sizes hold more than 2^59 elements", fn, batch);
        return TRNFFT_INVALID_SIZE;
    }
    return TRNFFT_SUCCESS;
}

static trnfftResult check_plan_args(const char *fn, int rank, const long long *n, long long batch,
                                    trnfftType type) {
    if (!wire_type(type)) {
        trn_fail(trnsciErrorInvalidValue, "%s: type 0x%x is not a trnfftType", fn, (unsigned)type);
        return TRNFFT_INVALID_TYPE;
    }
    return check_shape(fn, rank, n, batch);
}

/* The int API's arrays as the 64-bit API's (NULL stays NULL). */
static const long long *widen(const int *v, int rank, long long *out) {
    if (!v || rank < 1 || rank > 3)
        return v ? out : NULL;
    for (int d = 0; d < rank; d++)
        out[d] = v[d];
    return out;
}

/* All of a plan's argument checks made in this process: check_plan_args
 * and the pairing of the embeds. */
static trnfftResult check_embeds(const char *fn, const long long *inembed,
                                 const long long *onembed) {
    if (!inembed != !onembed) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: inembed and onembed must both be given or both be NULL", fn);
        return TRNFFT_INVALID_VALUE;
    }
    return TRNFFT_SUCCESS;
}

static trnfftResult check_plan_many(const char *fn, int rank, const long long *n,
                                    const long long *inembed, const long long *onembed,
                                    trnfftType type, long long batch) {
    trnfftResult r = check_plan_args(fn, rank, n, batch, type);
    if (r == TRNFFT_SUCCESS && !inembed != !onembed) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: inembed and onembed must both be given or both be NULL", fn);
        r = TRNFFT_INVALID_VALUE;
    }
    return r;
}

/* Makes a plan of type on a live handle without one (MakePlanMany64's
 * arguments); *workSize, when given, is set to 0. */
static trnfftResult make_wire(const char *fn, trnfftHandle plan, int rank, const long long *n,
                              const long long *inembed, long long istride, long long idist,
                              const long long *onembed, long long ostride, long long odist,
                              Trnsci__V1__FftType type, long long batch, size_t *workSize);

static trnfftResult make_plan(const char *fn, trnfftHandle plan, int rank, const long long *n,
                              const long long *inembed, long long istride, long long idist,
                              const long long *onembed, long long ostride, long long odist,
                              trnfftType type, long long batch, size_t *workSize) {
    trnfftResult r = check_plan_many(fn, rank, n, inembed, onembed, type, batch);
    if (r != TRNFFT_SUCCESS)
        return r;
    return make_wire(fn, plan, rank, n, inembed, istride, idist, onembed, ostride, odist,
                     wire_type(type), batch, workSize);
}

/* Whether the wire type stores 16-bit values (protocol 1.12). */
static int wire_16bit(Trnsci__V1__FftType t) {
    return t >= TRNSCI__V1__FFT_TYPE__FFT_C2C_16F && t <= TRNSCI__V1__FFT_TYPE__FFT_C2R_16BF;
}

/* make_plan once the type is the wire's and checked. */
static trnfftResult make_wire(const char *fn, trnfftHandle plan, int rank, const long long *n,
                              const long long *inembed, long long istride, long long idist,
                              const long long *onembed, long long ostride, long long odist,
                              Trnsci__V1__FftType type, long long batch, size_t *workSize) {
    pthread_mutex_lock(&reg_lock);
    fft_handle *h = lookup_locked(plan);
    const int usable = h && !h->made;
    pthread_mutex_unlock(&reg_lock);
    if (!usable) {
        trn_fail(trnsciErrorInvalidResourceHandle,
                 "%s: handle %d is not a live handle without a plan", fn, plan);
        return TRNFFT_INVALID_PLAN;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return TRNFFT_SETUP_FAILED;
    if (wire_16bit(type) && (e = trn_client_need_minor(c, 12, "half and bfloat16 FFTs")))
        return result_of(e);
    int64_t nv[3], iv[3], ov[3];
    for (int d = 0; d < rank; d++) {
        nv[d] = n[d];
        iv[d] = inembed ? inembed[d] : 0;
        ov[d] = onembed ? onembed[d] : 0;
    }
    Trnsci__V1__FftPlanSpec spec = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    spec.type = type;
    spec.n_n = (size_t)rank;
    spec.n = nv;
    if (inembed) {
        spec.n_inembed = spec.n_onembed = (size_t)rank;
        spec.inembed = iv;
        spec.onembed = ov;
        spec.istride = istride;
        spec.idist = idist;
        spec.ostride = ostride;
        spec.odist = odist;
    }
    spec.batch = batch;
    Trnsci__V1__PlanCreateRequest req = TRNSCI__V1__PLAN_CREATE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.spec_case = TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_FFT;
    req.fft = &spec;
    Trnsci__V1__PlanCreateReply *rep = NULL;
    e = trn_client_call(c, TRN_WIRE_PLAN_CREATE, &req.base,
                        &trnsci__v1__plan_create_reply__descriptor, (ProtobufCMessage **)&rep,
                        TRN_CALL_TIMEOUT_MS);
    if (e != trnsciSuccess)
        return result_of(e);
    const uint32_t id = rep->plan_id;
    protobuf_c_message_free_unpacked(&rep->base, NULL);
    trn_client_plan_made(c, id, &req);
    pthread_mutex_lock(&reg_lock);
    h = lookup_locked(plan);
    const int still = h && !h->made;
    if (still) {
        h->made = 1;
        h->plan_id = id;
        h->generation = c->generation;
        h->type = type;
    }
    pthread_mutex_unlock(&reg_lock);
    if (!still) { /* destroyed or planned meanwhile by another thread */
        trn_client_plan_gone(c, id);
        Trnsci__V1__PlanDestroyRequest d = TRNSCI__V1__PLAN_DESTROY_REQUEST__INIT;
        d.session_id = c->session_id;
        d.plan_id = id;
        trn_client_call(c, TRN_WIRE_PLAN_DESTROY, &d.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
        trn_fail(trnsciErrorInvalidResourceHandle,
                 "%s: handle %d was destroyed or planned during the call", fn, plan);
        return TRNFFT_INVALID_PLAN;
    }
    if (workSize)
        *workSize = 0;
    trn_ok();
    return TRNFFT_SUCCESS;
}

trnfftResult trnfftMakePlanMany(trnfftHandle plan, int rank, int *n, int *inembed, int istride,
                                int idist, int *onembed, int ostride, int odist, trnfftType type,
                                int batch, size_t *workSize) {
    long long nv[3], iv[3], ov[3];
    return make_plan("trnfftMakePlanMany", plan, rank, widen(n, rank, nv), widen(inembed, rank, iv),
                     istride, idist, widen(onembed, rank, ov), ostride, odist, type, batch,
                     workSize);
}

trnfftResult trnfftMakePlanMany64(trnfftHandle plan, int rank, long long int *n,
                                  long long int *inembed, long long int istride,
                                  long long int idist, long long int *onembed,
                                  long long int ostride, long long int odist, trnfftType type,
                                  long long int batch, size_t *workSize) {
    return make_plan("trnfftMakePlanMany64", plan, rank, n, inembed, istride, idist, onembed,
                     ostride, odist, type, batch, workSize);
}

trnfftResult trnfftMakePlan1d(trnfftHandle plan, int nx, trnfftType type, int batch,
                              size_t *workSize) {
    int n[1] = {nx};
    return trnfftMakePlanMany(plan, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

trnfftResult trnfftMakePlan2d(trnfftHandle plan, int nx, int ny, trnfftType type,
                              size_t *workSize) {
    int n[2] = {nx, ny};
    return trnfftMakePlanMany(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

trnfftResult trnfftMakePlan3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type,
                              size_t *workSize) {
    int n[3] = {nx, ny, nz};
    return trnfftMakePlanMany(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* trnfftCreate + make; on failure the handle is destroyed again. */
static trnfftResult create_and_make(trnfftHandle *plan, int rank, int *n, int *inembed, int istride,
                                    int idist, int *onembed, int ostride, int odist,
                                    trnfftType type, int batch) {
    if (!plan)
        return fail(TRNFFT_INVALID_VALUE, trnsciErrorInvalidValue, "trnfftPlan: plan is NULL");
    /* The size rules first, so bad sizes cost no handle and no daemon call. */
    long long nv[3], iv[3], ov[3];
    const long long *n64 = widen(n, rank, nv);
    trnfftResult r = check_plan_args("trnfftPlan", rank, n64, batch, type);
    if (r != TRNFFT_SUCCESS)
        return r;
    trnfftHandle h;
    if ((r = trnfftCreate(&h)) != TRNFFT_SUCCESS)
        return r;
    r = make_plan("trnfftPlan", h, rank, n64, widen(inembed, rank, iv), istride, idist,
                  widen(onembed, rank, ov), ostride, odist, type, batch, NULL);
    if (r != TRNFFT_SUCCESS) {
        pthread_mutex_lock(&reg_lock);
        fft_handle *p = lookup_locked(h);
        reg[h - 1] = NULL;
        pthread_mutex_unlock(&reg_lock);
        free(p);
        return r;
    }
    *plan = h;
    return TRNFFT_SUCCESS;
}

trnfftResult trnfftPlan1d(trnfftHandle *plan, int nx, trnfftType type, int batch) {
    int n[1] = {nx};
    return create_and_make(plan, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch);
}

trnfftResult trnfftPlan2d(trnfftHandle *plan, int nx, int ny, trnfftType type) {
    int n[2] = {nx, ny};
    return create_and_make(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

trnfftResult trnfftPlan3d(trnfftHandle *plan, int nx, int ny, int nz, trnfftType type) {
    int n[3] = {nx, ny, nz};
    return create_and_make(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

trnfftResult trnfftPlanMany(trnfftHandle *plan, int rank, int *n, int *inembed, int istride,
                            int idist, int *onembed, int ostride, int odist, trnfftType type,
                            int batch) {
    return create_and_make(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                           batch);
}

/* ---- execution ---------------------------------------------------------------- */

static const char *type_name(Trnsci__V1__FftType t) {
    switch (t) {
    case TRNSCI__V1__FFT_TYPE__FFT_C2C: return "C2C";
    case TRNSCI__V1__FFT_TYPE__FFT_R2C: return "R2C";
    case TRNSCI__V1__FFT_TYPE__FFT_C2R: return "C2R";
    case TRNSCI__V1__FFT_TYPE__FFT_Z2Z: return "Z2Z";
    case TRNSCI__V1__FFT_TYPE__FFT_D2Z: return "D2Z";
    case TRNSCI__V1__FFT_TYPE__FFT_Z2D: return "Z2D";
    case TRNSCI__V1__FFT_TYPE__FFT_C2C_16F: return "C2C half";
    case TRNSCI__V1__FFT_TYPE__FFT_R2C_16F: return "R2C half";
    case TRNSCI__V1__FFT_TYPE__FFT_C2R_16F: return "C2R half";
    case TRNSCI__V1__FFT_TYPE__FFT_C2C_16BF: return "C2C bfloat16";
    case TRNSCI__V1__FFT_TYPE__FFT_R2C_16BF: return "R2C bfloat16";
    case TRNSCI__V1__FFT_TYPE__FFT_C2R_16BF: return "C2R bfloat16";
    default: break;
    }
    return "?";
}

static int wire_c2c(Trnsci__V1__FftType t) {
    return t == TRNSCI__V1__FFT_TYPE__FFT_C2C || t == TRNSCI__V1__FFT_TYPE__FFT_Z2Z ||
           t == TRNSCI__V1__FFT_TYPE__FFT_C2C_16F || t == TRNSCI__V1__FFT_TYPE__FFT_C2C_16BF;
}

static int wire_c2r(Trnsci__V1__FftType t) {
    return t == TRNSCI__V1__FFT_TYPE__FFT_C2R || t == TRNSCI__V1__FFT_TYPE__FFT_Z2D ||
           t == TRNSCI__V1__FFT_TYPE__FFT_C2R_16F || t == TRNSCI__V1__FFT_TYPE__FFT_C2R_16BF;
}

/* Queues the plan's transform. fn names the call; type is the one the Exec
 * function implies (0 for trnfftXtExec, which runs any plan). */
static trnfftResult exec(const char *fn, trnfftHandle plan, Trnsci__V1__FftType type,
                         const void *idata, void *odata, int direction) {
    pthread_mutex_lock(&reg_lock);
    const fft_handle *h = lookup_locked(plan);
    const fft_handle copy = h ? *h : (fft_handle){0};
    pthread_mutex_unlock(&reg_lock);
    trnsciError_t e;
    trn_client *c = copy.made ? trn_client_get(&e) : NULL;
    if (!copy.made || !c || c->generation != copy.generation) {
        trn_fail(trnsciErrorInvalidResourceHandle,
                 "%s: handle %d has no plan (destroyed, never made, or made before "
                 "trnsciDeviceReset)",
                 fn, plan);
        return TRNFFT_INVALID_PLAN;
    }
    if (!type) /* trnfftXtExec: the plan's own type and direction */
        type = copy.type;
    if (copy.type != type) {
        trn_fail(trnsciErrorInvalidValue, "%s: plan %d is a %s plan", fn, plan,
                 type_name(copy.type));
        return TRNFFT_INVALID_TYPE;
    }
    if (!wire_c2c(type))
        direction = wire_c2r(type) ? TRNFFT_INVERSE : TRNFFT_FORWARD;
    else if (direction != TRNFFT_FORWARD && direction != TRNFFT_INVERSE) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: direction %d is neither TRNFFT_FORWARD (-1) nor TRNFFT_INVERSE (1)", fn,
                 direction);
        return TRNFFT_INVALID_VALUE;
    }
    Trnsci__V1__BufferRef in, out;
    char in_name[48], out_name[48];
    snprintf(in_name, sizeof(in_name), "%s: %s", fn, strstr(fn, "Xt") ? "input" : "idata");
    snprintf(out_name, sizeof(out_name), "%s: %s", fn, strstr(fn, "Xt") ? "output" : "odata");
    if ((e = trn_client_resolve(c, idata, in_name, &in)) ||
        (e = trn_client_resolve(c, odata, out_name, &out)))
        return result_of(e);
    Trnsci__V1__FftExecOp f = TRNSCI__V1__FFT_EXEC_OP__INIT;
    f.plan_id = copy.plan_id;
    f.type = type;
    f.direction = direction;
    f.idata = &in;
    f.odata = &out;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_FFT_EXEC;
    op.fft_exec = &f;
    e = trn_client_submit(c, copy.stream, &op);
    if (e == trnsciSuccess)
        trn_ok();
    return result_of(e);
}

trnfftResult trnfftExecC2C(trnfftHandle plan, trnfftComplex *idata, trnfftComplex *odata,
                           int direction) {
    return exec("trnfftExecC2C", plan, TRNSCI__V1__FFT_TYPE__FFT_C2C, idata, odata, direction);
}

trnfftResult trnfftExecR2C(trnfftHandle plan, trnfftReal *idata, trnfftComplex *odata) {
    return exec("trnfftExecR2C", plan, TRNSCI__V1__FFT_TYPE__FFT_R2C, idata, odata, TRNFFT_FORWARD);
}

trnfftResult trnfftExecC2R(trnfftHandle plan, trnfftComplex *idata, trnfftReal *odata) {
    return exec("trnfftExecC2R", plan, TRNSCI__V1__FFT_TYPE__FFT_C2R, idata, odata, TRNFFT_INVERSE);
}

trnfftResult trnfftExecZ2Z(trnfftHandle plan, trnfftDoubleComplex *idata,
                           trnfftDoubleComplex *odata, int direction) {
    return exec("trnfftExecZ2Z", plan, TRNSCI__V1__FFT_TYPE__FFT_Z2Z, idata, odata, direction);
}

trnfftResult trnfftExecD2Z(trnfftHandle plan, trnfftDoubleReal *idata, trnfftDoubleComplex *odata) {
    return exec("trnfftExecD2Z", plan, TRNSCI__V1__FFT_TYPE__FFT_D2Z, idata, odata, TRNFFT_FORWARD);
}

trnfftResult trnfftExecZ2D(trnfftHandle plan, trnfftDoubleComplex *idata, trnfftDoubleReal *odata) {
    return exec("trnfftExecZ2D", plan, TRNSCI__V1__FFT_TYPE__FFT_Z2D, idata, odata, TRNFFT_INVERSE);
}

/* ---- trnfftXt -------------------------------------------------------------------- */

/* The transform cufftXtMakePlanMany's three data types describe (its table:
 * complex execution type; C2C, R2C or C2R in half, bfloat16, float or
 * double), or 0. */
static Trnsci__V1__FftType xt_type(trnsciDataType in, trnsciDataType out, trnsciDataType exec) {
    static const struct {
        trnsciDataType r, c;
        Trnsci__V1__FftType c2c, r2c, c2r;
    } kinds[] = {
        {TRNSCI_R_16F, TRNSCI_C_16F, TRNSCI__V1__FFT_TYPE__FFT_C2C_16F,
         TRNSCI__V1__FFT_TYPE__FFT_R2C_16F, TRNSCI__V1__FFT_TYPE__FFT_C2R_16F},
        {TRNSCI_R_16BF, TRNSCI_C_16BF, TRNSCI__V1__FFT_TYPE__FFT_C2C_16BF,
         TRNSCI__V1__FFT_TYPE__FFT_R2C_16BF, TRNSCI__V1__FFT_TYPE__FFT_C2R_16BF},
        {TRNSCI_R_32F, TRNSCI_C_32F, TRNSCI__V1__FFT_TYPE__FFT_C2C, TRNSCI__V1__FFT_TYPE__FFT_R2C,
         TRNSCI__V1__FFT_TYPE__FFT_C2R},
        {TRNSCI_R_64F, TRNSCI_C_64F, TRNSCI__V1__FFT_TYPE__FFT_Z2Z, TRNSCI__V1__FFT_TYPE__FFT_D2Z,
         TRNSCI__V1__FFT_TYPE__FFT_Z2D},
    };
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        if (exec != kinds[k].c)
            continue;
        if (in == kinds[k].c && out == kinds[k].c)
            return kinds[k].c2c;
        if (in == kinds[k].r && out == kinds[k].c)
            return kinds[k].r2c;
        if (in == kinds[k].c && out == kinds[k].r)
            return kinds[k].c2r;
    }
    return TRNSCI__V1__FFT_TYPE__FFT_TYPE_UNSPECIFIED;
}

/* XtMakePlanMany's and XtGetSizeMany's checks made in this process; *type
 * is the transform. */
static trnfftResult xt_check(const char *fn, int rank, const long long *n, const long long *inembed,
                             const long long *onembed, trnsciDataType inputtype,
                             trnsciDataType outputtype, trnsciDataType executiontype,
                             long long batch, Trnsci__V1__FftType *type) {
    *type = xt_type(inputtype, outputtype, executiontype);
    if (!*type) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: input, output and execution types %d, %d, %d are not a transform "
                 "trnfft computes (C2C, R2C or C2R in half, bfloat16, float or double, "
                 "with a complex execution type of that precision)",
                 fn, (int)inputtype, (int)outputtype, (int)executiontype);
        return TRNFFT_INVALID_TYPE;
    }
    trnfftResult r = check_shape(fn, rank, n, batch);
    return r != TRNFFT_SUCCESS ? r : check_embeds(fn, inembed, onembed);
}

trnfftResult trnfftXtMakePlanMany(trnfftHandle plan, int rank, long long int *n,
                                  long long int *inembed, long long int istride,
                                  long long int idist, trnsciDataType inputtype,
                                  long long int *onembed, long long int ostride,
                                  long long int odist, trnsciDataType outputtype,
                                  long long int batch, size_t *workSize,
                                  trnsciDataType executiontype) {
    static const char fn[] = "trnfftXtMakePlanMany";
    Trnsci__V1__FftType type;
    trnfftResult r =
        xt_check(fn, rank, n, inembed, onembed, inputtype, outputtype, executiontype, batch, &type);
    if (r != TRNFFT_SUCCESS)
        return r;
    return make_wire(fn, plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                     batch, workSize);
}

trnfftResult trnfftXtGetSizeMany(trnfftHandle plan, int rank, long long int *n,
                                 long long int *inembed, long long int istride, long long int idist,
                                 trnsciDataType inputtype, long long int *onembed,
                                 long long int ostride, long long int odist,
                                 trnsciDataType outputtype, long long int batch, size_t *workSize,
                                 trnsciDataType executiontype) {
    static const char fn[] = "trnfftXtGetSizeMany";
    (void)istride, (void)idist, (void)ostride, (void)odist;
    trnfftResult r = live_handle(fn, plan);
    Trnsci__V1__FftType type;
    if (r == TRNFFT_SUCCESS)
        r = xt_check(fn, rank, n, inembed, onembed, inputtype, outputtype, executiontype, batch,
                     &type);
    if (r == TRNFFT_SUCCESS && !workSize) {
        trn_fail(trnsciErrorInvalidValue, "%s: workSize is NULL", fn);
        r = TRNFFT_INVALID_VALUE;
    }
    if (r != TRNFFT_SUCCESS)
        return r;
    *workSize = 0;
    trn_ok();
    return TRNFFT_SUCCESS;
}

trnfftResult trnfftXtExec(trnfftHandle plan, void *input, void *output, int direction) {
    return exec("trnfftXtExec", plan, TRNSCI__V1__FFT_TYPE__FFT_TYPE_UNSPECIFIED, input, output,
                direction);
}

/* ---- handles ------------------------------------------------------------------ */

trnfftResult trnfftSetStream(trnfftHandle plan, trnsciStream_t stream) {
    pthread_mutex_lock(&reg_lock);
    fft_handle *h = lookup_locked(plan);
    if (h)
        h->stream = stream;
    pthread_mutex_unlock(&reg_lock);
    if (!h)
        return fail(TRNFFT_INVALID_PLAN, trnsciErrorInvalidResourceHandle,
                    "trnfftSetStream: not a live handle");
    trn_ok();
    return TRNFFT_SUCCESS;
}

trnfftResult trnfftGetSize(trnfftHandle plan, size_t *workSize) {
    pthread_mutex_lock(&reg_lock);
    const int live = lookup_locked(plan) != NULL;
    pthread_mutex_unlock(&reg_lock);
    if (!live)
        return fail(TRNFFT_INVALID_PLAN, trnsciErrorInvalidResourceHandle,
                    "trnfftGetSize: not a live handle");
    if (!workSize)
        return fail(TRNFFT_INVALID_VALUE, trnsciErrorInvalidValue,
                    "trnfftGetSize: workSize is NULL");
    *workSize = 0;
    trn_ok();
    return TRNFFT_SUCCESS;
}

/* ---- work areas and size queries ---------------------------------------------- */

/* The work area a plan of these arguments needs: 0 bytes, whatever they
 * are (the daemon's kernels own their scratch), once the arguments pass the
 * checks MakePlan makes in this process. */
static trnfftResult size_of(const char *fn, int rank, const long long *n, const long long *inembed,
                            const long long *onembed, trnfftType type, long long batch,
                            size_t *workSize) {
    trnfftResult r = check_plan_many(fn, rank, n, inembed, onembed, type, batch);
    if (r != TRNFFT_SUCCESS)
        return r;
    if (!workSize) {
        trn_fail(trnsciErrorInvalidValue, "%s: workSize is NULL", fn);
        return TRNFFT_INVALID_VALUE;
    }
    *workSize = 0;
    trn_ok();
    return TRNFFT_SUCCESS;
}

/* A live handle: SUCCESS; else INVALID_PLAN naming fn. */
static trnfftResult live_handle(const char *fn, trnfftHandle plan) {
    pthread_mutex_lock(&reg_lock);
    const int live = lookup_locked(plan) != NULL;
    pthread_mutex_unlock(&reg_lock);
    if (!live) {
        trn_fail(trnsciErrorInvalidResourceHandle, "%s: handle %d is not a live handle", fn, plan);
        return TRNFFT_INVALID_PLAN;
    }
    trn_ok();
    return TRNFFT_SUCCESS;
}

/* size_of for a live handle (GetSize*: cuFFT's take the handle of
 * trnfftCreate). */
static trnfftResult size_on(const char *fn, trnfftHandle plan, int rank, const long long *n,
                            const long long *inembed, const long long *onembed, trnfftType type,
                            long long batch, size_t *workSize) {
    const trnfftResult r = live_handle(fn, plan);
    return r != TRNFFT_SUCCESS ? r : size_of(fn, rank, n, inembed, onembed, type, batch, workSize);
}

trnfftResult trnfftEstimate1d(int nx, trnfftType type, int batch, size_t *workSize) {
    const long long n[1] = {nx};
    return size_of("trnfftEstimate1d", 1, n, NULL, NULL, type, batch, workSize);
}

trnfftResult trnfftEstimate2d(int nx, int ny, trnfftType type, size_t *workSize) {
    const long long n[2] = {nx, ny};
    return size_of("trnfftEstimate2d", 2, n, NULL, NULL, type, 1, workSize);
}

trnfftResult trnfftEstimate3d(int nx, int ny, int nz, trnfftType type, size_t *workSize) {
    const long long n[3] = {nx, ny, nz};
    return size_of("trnfftEstimate3d", 3, n, NULL, NULL, type, 1, workSize);
}

trnfftResult trnfftEstimateMany(int rank, int *n, int *inembed, int istride, int idist,
                                int *onembed, int ostride, int odist, trnfftType type, int batch,
                                size_t *workSize) {
    (void)istride, (void)idist, (void)ostride, (void)odist;
    long long nv[3], iv[3], ov[3];
    return size_of("trnfftEstimateMany", rank, widen(n, rank, nv), widen(inembed, rank, iv),
                   widen(onembed, rank, ov), type, batch, workSize);
}

trnfftResult trnfftGetSize1d(trnfftHandle plan, int nx, trnfftType type, int batch,
                             size_t *workSize) {
    const long long n[1] = {nx};
    return size_on("trnfftGetSize1d", plan, 1, n, NULL, NULL, type, batch, workSize);
}

trnfftResult trnfftGetSize2d(trnfftHandle plan, int nx, int ny, trnfftType type, size_t *workSize) {
    const long long n[2] = {nx, ny};
    return size_on("trnfftGetSize2d", plan, 2, n, NULL, NULL, type, 1, workSize);
}

trnfftResult trnfftGetSize3d(trnfftHandle plan, int nx, int ny, int nz, trnfftType type,
                             size_t *workSize) {
    const long long n[3] = {nx, ny, nz};
    return size_on("trnfftGetSize3d", plan, 3, n, NULL, NULL, type, 1, workSize);
}

trnfftResult trnfftGetSizeMany(trnfftHandle plan, int rank, int *n, int *inembed, int istride,
                               int idist, int *onembed, int ostride, int odist, trnfftType type,
                               int batch, size_t *workArea) {
    (void)istride, (void)idist, (void)ostride, (void)odist;
    long long nv[3], iv[3], ov[3];
    return size_on("trnfftGetSizeMany", plan, rank, widen(n, rank, nv), widen(inembed, rank, iv),
                   widen(onembed, rank, ov), type, batch, workArea);
}

trnfftResult trnfftGetSizeMany64(trnfftHandle plan, int rank, long long int *n,
                                 long long int *inembed, long long int istride, long long int idist,
                                 long long int *onembed, long long int ostride, long long int odist,
                                 trnfftType type, long long int batch, size_t *workSize) {
    (void)istride, (void)idist, (void)ostride, (void)odist;
    return size_on("trnfftGetSizeMany64", plan, rank, n, inembed, onembed, type, batch, workSize);
}

/* A work area of 0 bytes is all a plan needs, so any pointer (NULL
 * included) is a valid one: it is neither read nor written nor kept. */
trnfftResult trnfftSetWorkArea(trnfftHandle plan, void *workArea) {
    (void)workArea;
    return live_handle("trnfftSetWorkArea", plan);
}

/* Nothing to allocate either way. */
trnfftResult trnfftSetAutoAllocation(trnfftHandle plan, int autoAllocate) {
    (void)autoAllocate;
    return live_handle("trnfftSetAutoAllocation", plan);
}

trnfftResult trnfftDestroy(trnfftHandle plan) {
    pthread_mutex_lock(&reg_lock);
    fft_handle *h = lookup_locked(plan);
    if (h)
        reg[plan - 1] = NULL;
    pthread_mutex_unlock(&reg_lock);
    if (!h)
        return fail(TRNFFT_INVALID_PLAN, trnsciErrorInvalidResourceHandle,
                    "trnfftDestroy: not a live handle");
    trn_client *c = trn_client_peek();
    if (h->made && c && c->generation == h->generation) {
        trn_client_plan_gone(c, h->plan_id);
        Trnsci__V1__PlanDestroyRequest d = TRNSCI__V1__PLAN_DESTROY_REQUEST__INIT;
        d.session_id = c->session_id;
        d.plan_id = h->plan_id;
        /* A failure (the daemon went away) leaves nothing to release. */
        trn_client_call(c, TRN_WIRE_PLAN_DESTROY, &d.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
    }
    free(h);
    trn_ok();
    return TRNFFT_SUCCESS;
}

trnfftResult trnfftGetVersion(int *version) {
    if (!version)
        return fail(TRNFFT_INVALID_VALUE, trnsciErrorInvalidValue,
                    "trnfftGetVersion: version is NULL");
    *version = TRNFFT_VERSION;
    trn_ok();
    return TRNFFT_SUCCESS;
}

const char *trnfftGetStatusName(trnfftResult r) {
    switch (r) {
    case TRNFFT_SUCCESS: return "TRNFFT_SUCCESS";
    case TRNFFT_INVALID_PLAN: return "TRNFFT_INVALID_PLAN";
    case TRNFFT_ALLOC_FAILED: return "TRNFFT_ALLOC_FAILED";
    case TRNFFT_INVALID_TYPE: return "TRNFFT_INVALID_TYPE";
    case TRNFFT_INVALID_VALUE: return "TRNFFT_INVALID_VALUE";
    case TRNFFT_INTERNAL_ERROR: return "TRNFFT_INTERNAL_ERROR";
    case TRNFFT_EXEC_FAILED: return "TRNFFT_EXEC_FAILED";
    case TRNFFT_SETUP_FAILED: return "TRNFFT_SETUP_FAILED";
    case TRNFFT_INVALID_SIZE: return "TRNFFT_INVALID_SIZE";
    case TRNFFT_UNALIGNED_DATA: return "TRNFFT_UNALIGNED_DATA";
    case TRNFFT_INCOMPLETE_PARAMETER_LIST: return "TRNFFT_INCOMPLETE_PARAMETER_LIST";
    case TRNFFT_INVALID_DEVICE: return "TRNFFT_INVALID_DEVICE";
    case TRNFFT_PARSE_ERROR: return "TRNFFT_PARSE_ERROR";
    case TRNFFT_NO_WORKSPACE: return "TRNFFT_NO_WORKSPACE";
    case TRNFFT_NOT_IMPLEMENTED: return "TRNFFT_NOT_IMPLEMENTED";
    case TRNFFT_LICENSE_ERROR: return "TRNFFT_LICENSE_ERROR";
    case TRNFFT_NOT_SUPPORTED: return "TRNFFT_NOT_SUPPORTED";
    }
    return "TRNFFT_UNKNOWN";
}

const char *trnfftGetStatusString(trnfftResult r) {
    switch (r) {
    case TRNFFT_SUCCESS: return "success";
    case TRNFFT_INVALID_PLAN: return "the plan handle is not valid";
    case TRNFFT_ALLOC_FAILED: return "a resource allocation failed";
    case TRNFFT_INVALID_TYPE: return "the transform type is not valid for this call";
    case TRNFFT_INVALID_VALUE: return "an argument is not valid";
    case TRNFFT_INTERNAL_ERROR: return "an internal error occurred";
    case TRNFFT_EXEC_FAILED: return "the transform could not be executed";
    case TRNFFT_SETUP_FAILED: return "the library could not be set up (no daemon)";
    case TRNFFT_INVALID_SIZE: return "a transform size is not valid";
    case TRNFFT_UNALIGNED_DATA: return "the data is not aligned";
    case TRNFFT_INCOMPLETE_PARAMETER_LIST: return "the parameter list is incomplete";
    case TRNFFT_INVALID_DEVICE: return "the device is not valid";
    case TRNFFT_PARSE_ERROR: return "a plan could not be parsed";
    case TRNFFT_NO_WORKSPACE: return "no workspace was provided";
    case TRNFFT_NOT_IMPLEMENTED: return "the functionality is not implemented";
    case TRNFFT_LICENSE_ERROR: return "a license error occurred";
    case TRNFFT_NOT_SUPPORTED: return "the operation is not supported";
    }
    return "unknown result";
}
