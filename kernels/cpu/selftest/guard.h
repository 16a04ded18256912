/*
 * guard.h — operands of a self-test case placed against inaccessible pages.
 *
 * Each of TRN_ST_SLOTS slots is a mapping [guard page][data][guard page].
 * An operand is placed flush against the guard after it (reading one byte
 * past its end faults), flush after the guard before it (reading before its
 * start faults; the start is page aligned), or one element after that guard
 * (an address no SIMD alignment holds). A fault in a guard page is how the
 * self-test sees a routine read outside its operands; guard.c names the
 * operand and the distance for the crash report.
 */
#ifndef TRN_ST_GUARD_H
#define TRN_ST_GUARD_H

#include <stddef.h>

#define TRN_ST_SLOTS 8

typedef enum st_place {
    ST_PLACE_END = 0,    /* the operand's last byte is the last before a guard */
    ST_PLACE_START = 1,  /* its first byte is the first after a guard (page aligned) */
    ST_PLACE_OFFSET = 2, /* its first byte is `align` bytes after a guard */
} st_place;
#define ST_PLACES 3

typedef struct st_guard st_guard;

/* NULL when out of memory. */
st_guard *st_guard_create(void);
void st_guard_destroy(st_guard *g);

/* Room for `bytes` bytes (at least 1) in slot `slot`, placed as `where`
 * says; `align` is the element size (ST_PLACE_OFFSET). The slot grows when
 * needed. NULL when out of memory. The previous operand of the slot is
 * gone. */
void *st_guard_place(st_guard *g, int slot, size_t bytes, st_place where, size_t align);

/* Describes where addr lies relative to the operands placed last ("3 bytes
 * past the end of operand #1 (400 bytes)"); 0 when it lies in no slot's
 * mapping (buf then says so). Async-signal-safe: no allocation, no stdio. */
int st_guard_locate(const st_guard *g, const void *addr, char *buf, size_t len);

#endif
