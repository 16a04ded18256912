/*
 * library_types.h — types shared by the trnsci libraries (the CUDA
 * library_types.h analog): trnsciDataType_t names an element type with
 * cudaDataType_t's values, so code ported from CUDA passes the same numbers;
 * trnsciLibraryPropertyType_t is libraryPropertyType_t; the
 * trnsciEmulation* enums are cudaEmulation* (floating-point emulation
 * controls, used by trnblas).
 */
#ifndef TRNSCI_LIBRARY_TYPES_H
#define TRNSCI_LIBRARY_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cudaDataType_t: R_ real, C_ complex (two of the real
 * type, real part first). Which of them a routine takes is stated with the
 * routine. */
typedef enum trnsciDataType_t {
    TRNSCI_R_32F = 0,
    TRNSCI_R_64F = 1,
    TRNSCI_R_16F = 2,
    TRNSCI_R_8I = 3,
    TRNSCI_C_32F = 4,
    TRNSCI_C_64F = 5,
    TRNSCI_C_16F = 6,
    TRNSCI_C_8I = 7,
    TRNSCI_R_8U = 8,
    TRNSCI_C_8U = 9,
    TRNSCI_R_32I = 10,
    TRNSCI_C_32I = 11,
    TRNSCI_R_32U = 12,
    TRNSCI_C_32U = 13,
    TRNSCI_R_16BF = 14,
    TRNSCI_C_16BF = 15,
    TRNSCI_R_64I = 24,
    TRNSCI_C_64I = 25,
    TRNSCI_R_64U = 26,
    TRNSCI_C_64U = 27,
} trnsciDataType_t;

/* cudaDataType. */
typedef trnsciDataType_t trnsciDataType;

/* Values are those of libraryPropertyType_t: which part of a library's
 * version a GetProperty call (trnblasGetProperty, ...) returns. */
typedef enum trnsciLibraryPropertyType_t {
    TRNSCI_MAJOR_VERSION = 0,
    TRNSCI_MINOR_VERSION = 1,
    TRNSCI_PATCH_LEVEL = 2,
} trnsciLibraryPropertyType_t;

/* libraryPropertyType. */
typedef trnsciLibraryPropertyType_t trnsciLibraryPropertyType;

/* Values are those of cudaEmulationStrategy_t: how a library that may
 * emulate a precision with lower-precision products decides to do so
 * (trnblasSetEmulationStrategy takes trnblasEmulationStrategy_t, the same
 * values). */
typedef enum trnsciEmulationStrategy_t {
    TRNSCI_EMULATION_STRATEGY_DEFAULT = 0,
    TRNSCI_EMULATION_STRATEGY_PERFORMANT = 1,
    TRNSCI_EMULATION_STRATEGY_EAGER = 2,
} trnsciEmulationStrategy_t;

/* cudaEmulationStrategy. */
typedef trnsciEmulationStrategy_t trnsciEmulationStrategy;

/* Values are those of cudaEmulationMantissaControl_t: how the number of
 * mantissa bits of fixed-point FP64 emulation is chosen. */
typedef enum trnsciEmulationMantissaControl_t {
    TRNSCI_EMULATION_MANTISSA_CONTROL_DYNAMIC = 0,
    TRNSCI_EMULATION_MANTISSA_CONTROL_FIXED = 1,
} trnsciEmulationMantissaControl_t;

/* cudaEmulationMantissaControl. */
typedef trnsciEmulationMantissaControl_t trnsciEmulationMantissaControl;

/* Values are those of cudaEmulationSpecialValuesSupport_t: a mask of the
 * special values emulated arithmetic must propagate. */
typedef enum trnsciEmulationSpecialValuesSupport_t {
    TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NONE = 0,
    TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_INFINITY = 1,
    TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_NAN = 2,
    TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT = 0xffff,
} trnsciEmulationSpecialValuesSupport_t;

/* cudaEmulationSpecialValuesSupport. */
typedef trnsciEmulationSpecialValuesSupport_t trnsciEmulationSpecialValuesSupport;

#ifdef __cplusplus
}
#endif

#endif
