/*
 * trn_library_types.h — data types shared by the trnsci libraries (the
 * analog of CUDA's library_types.h): trnsciDataType_t names an element type
 * with cudaDataType_t's values, so code ported from CUDA passes the same
 * numbers. Which types a routine accepts is up to the routine (trnsparse:
 * TRNSCI_R_32F and TRNSCI_R_64F).
 */
#ifndef TRNSCI_TRN_LIBRARY_TYPES_H
#define TRNSCI_TRN_LIBRARY_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cudaDataType_t. */
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
} trnsciDataType_t;

/* cudaDataType. */
typedef trnsciDataType_t trnsciDataType;

#ifdef __cplusplus
}
#endif

#endif
