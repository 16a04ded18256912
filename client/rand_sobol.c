/*
 * rand_sobol.c — trnrand's Sobol table getters (curandGetDirectionVectors32/64,
 * curandGetScrambleConstants32/64): host pointers to the tables the Sobol
 * kernels use, built once per process (kernels/cpu/sobol_tables.c, linked
 * into libtrnsci for the host generators). They touch no daemon and no
 * generator; the tables are never written after they are built, so the
 * pointers stay valid and may be read by any thread.
 */
#include <stddef.h>

#include "client/client.h"
#include "kernels/cpu/sobol.h"
#include "trnsci/trnrand.h"

_Static_assert(sizeof(unsigned int) == sizeof(uint32_t), "trnrandDirectionVectors32_t");
_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "trnrandDirectionVectors64_t");
_Static_assert(TRNRAND_SOBOL32_MAX_DIMENSIONS == TRN_SOBOL_MAX_DIMS, "the tables' size");
_Static_assert(TRNRAND_SOBOL64_MAX_DIMENSIONS == TRN_SOBOL_MAX_DIMS, "the tables' size");

/* The tables did not decode: a damaged build, not a caller's error. */
static trnrandStatus_t no_table(const char *fn) {
    trn_fail(trnsciErrorUnknown, "%s: the Sobol direction-number table did not decode", fn);
    return TRNRAND_STATUS_INTERNAL_ERROR;
}

trnrandStatus_t trnrandGetDirectionVectors32(trnrandDirectionVectors32_t **vectors,
                                             trnrandDirectionVectorSet_t set) {
    const char *fn = "trnrandGetDirectionVectors32";
    if (!vectors) {
        trn_fail(trnsciErrorInvalidValue, "%s: vectors is NULL", fn);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    if (set != TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 &&
        set != TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: set %d is not TRNRAND_DIRECTION_VECTORS_32_JOEKUO6 (101) or "
                 "TRNRAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 (102)",
                 fn, (int)set);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    const uint32_t(*t)[32] = trn_sobol_directions32();
    if (!t)
        return no_table(fn);
    *vectors = (trnrandDirectionVectors32_t *)(uintptr_t)t;
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetDirectionVectors64(trnrandDirectionVectors64_t **vectors,
                                             trnrandDirectionVectorSet_t set) {
    const char *fn = "trnrandGetDirectionVectors64";
    if (!vectors) {
        trn_fail(trnsciErrorInvalidValue, "%s: vectors is NULL", fn);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    if (set != TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 &&
        set != TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6) {
        trn_fail(trnsciErrorInvalidValue,
                 "%s: set %d is not TRNRAND_DIRECTION_VECTORS_64_JOEKUO6 (103) or "
                 "TRNRAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 (104)",
                 fn, (int)set);
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    const uint64_t(*t)[64] = trn_sobol_directions64();
    if (!t)
        return no_table(fn);
    *vectors = (trnrandDirectionVectors64_t *)(uintptr_t)t;
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetScrambleConstants32(unsigned int **constants) {
    if (!constants) {
        trn_fail(trnsciErrorInvalidValue, "trnrandGetScrambleConstants32: constants is NULL");
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    *constants = (unsigned int *)(uintptr_t)trn_sobol_scramble_constants32();
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}

trnrandStatus_t trnrandGetScrambleConstants64(unsigned long long **constants) {
    if (!constants) {
        trn_fail(trnsciErrorInvalidValue, "trnrandGetScrambleConstants64: constants is NULL");
        return TRNRAND_STATUS_OUT_OF_RANGE;
    }
    *constants = (unsigned long long *)(uintptr_t)trn_sobol_scramble_constants64();
    trn_ok();
    return TRNRAND_STATUS_SUCCESS;
}
