/*
 * tensor_chem.c — trntensor's fused chemistry kernels on the client
 * (include/trnsci/trntensor_chem.h): trntensorAoToMo and trntensorMp2Energy
 * become AoToMoOp / Mp2EnergyOp on the handle's stream. The daemon checks
 * sizes and extents (daemon/validate_tensor_chem.c); the client checks only
 * what it alone can: the handle, the data type's name, and that each device
 * pointer is its own.
 */
#include "client/tensor_internal.h"
#include "trnsci/trntensor_chem.h"

/* Protocol minor that has AoToMoOp and Mp2EnergyOp. */
#define CHEM_MINOR 5

static trnsciError_t chem_type(trnsciDataType_t t, const char *fn, Trnsci__V1__DataType *out) {
    switch (t) {
    case TRNSCI_R_32F: *out = TRNSCI__V1__DATA_TYPE__R_32F; return trnsciSuccess;
    case TRNSCI_R_64F: *out = TRNSCI__V1__DATA_TYPE__R_64F; return trnsciSuccess;
    default:
        return trn_fail(trnsciErrorNotSupported,
                        "%s: dataType %d must be TRNSCI_R_32F or TRNSCI_R_64F", fn, (int)t);
    }
}

/* The client, checked handle and protocol, or NULL with *st set. */
static trn_client *chem_begin(const trntensorHandle_t handle, const char *fn,
                              trntensorStatus_t *st) {
    if (!handle) {
        *st = trn_tensor_fail(trnsciErrorInvalidValue, "%s: handle is NULL", fn);
        return NULL;
    }
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c) {
        *st = TRNTENSOR_STATUS_NOT_INITIALIZED;
        return NULL;
    }
    if ((e = trn_client_need_minor(c, CHEM_MINOR, fn)) != trnsciSuccess) {
        *st = TRNTENSOR_STATUS_INSUFFICIENT_DRIVER;
        return NULL;
    }
    return c;
}

static trntensorStatus_t chem_submit(trn_client *c, const trntensorHandle_t handle,
                                     Trnsci__V1__Op *op) {
    trnsciError_t e = trn_client_submit(c, handle->stream, op);
    if (e == trnsciSuccess)
        trn_ok();
    return trn_tensor_status(e);
}

trntensorStatus_t trntensorAoToMo(const trntensorHandle_t handle, trnsciDataType_t dataType,
                                  int64_t nbf, int64_t nocc, int64_t nvir, int64_t naux,
                                  const void *Cocc, int64_t ldCocc, const void *Cvir,
                                  int64_t ldCvir, const void *Lpq, void *B) {
    const char *fn = "trntensorAoToMo";
    trntensorStatus_t st;
    trn_client *c = chem_begin(handle, fn, &st);
    if (!c)
        return st;
    Trnsci__V1__AoToMoOp w = TRNSCI__V1__AO_TO_MO_OP__INIT;
    Trnsci__V1__BufferRef co, cv, l, b;
    trnsciError_t e = chem_type(dataType, fn, &w.type);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, Cocc, "trntensorAoToMo: Cocc", &co);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, Cvir, "trntensorAoToMo: Cvir", &cv);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, Lpq, "trntensorAoToMo: Lpq", &l);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, B, "trntensorAoToMo: B", &b);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.nbf = nbf;
    w.nocc = nocc;
    w.nvir = nvir;
    w.naux = naux;
    w.c_occ = &co;
    w.ld_c_occ = ldCocc;
    w.c_vir = &cv;
    w.ld_c_vir = ldCvir;
    w.lpq = &l;
    w.b = &b;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_AO_TO_MO;
    op.ao_to_mo = &w;
    return chem_submit(c, handle, &op);
}

trntensorStatus_t trntensorMp2Energy(const trntensorHandle_t handle, trnsciDataType_t dataType,
                                     int64_t nocc, int64_t nvir, int64_t naux, const void *B,
                                     const double *epsOcc, const double *epsVir, double *energy) {
    const char *fn = "trntensorMp2Energy";
    trntensorStatus_t st;
    trn_client *c = chem_begin(handle, fn, &st);
    if (!c)
        return st;
    if (!energy)
        return trn_tensor_fail(trnsciErrorInvalidValue, "%s: energy is NULL", fn);
    Trnsci__V1__Mp2EnergyOp w = TRNSCI__V1__MP2_ENERGY_OP__INIT;
    Trnsci__V1__BufferRef b, eo, ev, en;
    trnsciError_t e = chem_type(dataType, fn, &w.type);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, B, "trntensorMp2Energy: B", &b);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, epsOcc, "trntensorMp2Energy: epsOcc", &eo);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, epsVir, "trntensorMp2Energy: epsVir", &ev);
    if (e == trnsciSuccess)
        e = trn_client_resolve(c, energy, "trntensorMp2Energy: energy", &en);
    if (e != trnsciSuccess)
        return trn_tensor_status(e);
    w.nocc = nocc;
    w.nvir = nvir;
    w.naux = naux;
    w.b = &b;
    w.eps_occ = &eo;
    w.eps_vir = &ev;
    w.energy = &en;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_MP2_ENERGY;
    op.mp2_energy = &w;
    return chem_submit(c, handle, &op);
}
