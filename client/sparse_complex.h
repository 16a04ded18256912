/*
 * sparse_complex.h — complex scalars and the version gate of the trnsparse
 * routines that take complex values (C_32F, C_64F): SpSV, SpSM, SpGEMM,
 * SDDMM and the complex incomplete factorisations. A daemon older than
 * protocol 1.15 refuses complex values in these ops, so the client asks for
 * 1.15 before sending one; real values keep the routine's older minimum.
 * Internal to client/
 */
#ifndef TRN_CLIENT_SPARSE_COMPLEX_H
#define TRN_CLIENT_SPARSE_COMPLEX_H

#include "client/sparse_internal.h"

#define TRN_SPARSE_COMPLEX_MINOR 15u

static inline int trn_sparse_is_complex(trnsciDataType t) {
    return t == TRNSCI_C_32F || t == TRNSCI_C_64F;
}

/* *p as a wire scalar: a float or double for R_32F / R_64F (im 0), a
 * cuComplex / cuDoubleComplex (re, im) for C_32F / C_64F. NULL: 0. Any
 * other type reads a double (the wire refuses the type anyway). */
static inline void trn_sparse_scalar_of(const void *p, trnsciDataType t, Trnsci__V1__Scalar *out) {
    trnsci__v1__scalar__init(out);
    if (!p)
        return;
    switch (t) {
    case TRNSCI_R_32F: out->re = *(const float *)p; break;
    case TRNSCI_C_32F:
        out->re = ((const float *)p)[0];
        out->im = ((const float *)p)[1];
        break;
    case TRNSCI_C_64F:
        out->re = ((const double *)p)[0];
        out->im = ((const double *)p)[1];
        break;
    default: out->re = *(const double *)p; break;
    }
}

/* Complex values need a 1.15 daemon: trnsciSuccess, or the failure naming
 * fn and the versions. */
static inline trnsciError_t trn_sparse_complex_minor(trn_client *c, trnsciDataType t,
                                                     const char *fn) {
    if (!trn_sparse_is_complex(t))
        return trnsciSuccess;
    return trn_client_need_minor(c, TRN_SPARSE_COMPLEX_MINOR, fn);
}

#endif
