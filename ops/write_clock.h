/*
 * write_clock.h — when memory last changed, so that a copy of it kept
 * elsewhere (an operand left in a NeuronCore's memory, kernels/neuron/) is
 * known to be current without comparing bytes.
 *
 * The clock is one counter and a table of ticks. Whoever finishes writing
 * bytes [p, p + n) — a kernel after its op, the daemon after a Write, a
 * buffer's allocation — advances the counter and stamps the new tick on the
 * table's slots of the 4 KiB granules (pages) the bytes touch. Whoever copies
 * memory reads the counter first (trn_write_clock_now); its copy is still
 * the memory's bytes later if no slot of the memory's granules, and not the
 * "everything" stamp, has a tick after that one.
 *
 * Why it is sound: a write is stamped only after its last byte is stored,
 * with a tick larger than any a copier read before that. A copy made while
 * a write was under way therefore sees a later tick, and is not used.
 *
 * The table has TRN_WRITE_CLOCK_SLOTS slots; granules beyond that share
 * slots (granule number, its higher bits folded in, modulo the count). Sharing only makes copies look
 * changed when a neighbour changed: never the other way round. So do writes
 * whose extent is not known: they stamp everything.
 *
 * The clock lives in memory every process that writes or copies shares (the
 * executors' op arena, daemon/exec_space.h): all of its fields are atomics.
 * It knows nothing of buffers; a writer it is not told about makes copies
 * wrong, so it is only used where every writer tells it (opaque device
 * pointers: no client maps a device buffer), and memory a client does map
 * (host buffers) is marked as never current (trn_write_clock_share).
 */
#ifndef TRN_OPS_WRITE_CLOCK_H
#define TRN_OPS_WRITE_CLOCK_H

#include <stddef.h>
#include <stdint.h>

struct trn_op_desc;

#define TRN_WRITE_CLOCK_SLOTS (1u << 20)
#define TRN_WRITE_CLOCK_GRANULE_SHIFT 12 /* 4 KiB: buffers are page-aligned */

typedef struct trn_write_clock trn_write_clock;

/* Bytes a clock takes. Zeroed memory of that size is a clock at tick 0. */
size_t trn_write_clock_bytes(void);

/* The tick to record before copying memory. */
uint64_t trn_write_clock_now(const trn_write_clock *wc);

/* After bytes [p, p + n) were written (n 0: nothing). */
void trn_write_clock_wrote(trn_write_clock *wc, const void *p, size_t n);

/* After writes to memory that is not known: every copy is out of date. */
void trn_write_clock_wrote_all(trn_write_clock *wc);

/* After op ran (whatever its status): what it may have written
 * (ops/span.h, trn_op_write_spans), or everything when that is not known. */
void trn_write_clock_after_op(trn_write_clock *wc, const struct trn_op_desc *op);

/* Bytes [p, p + n) may be written by someone who never stamps the clock (a
 * client that maps the buffer): delta +1 from then on, -1 when that ends
 * (every +1 is matched by a -1 of the same bytes). While any mark is on,
 * no copy of them is current. */
void trn_write_clock_share(trn_write_clock *wc, const void *p, size_t n, int delta);

/* Whether bytes [p, p + n) have not been written since tick `since` (a
 * value trn_write_clock_now returned before the copy was made). */
int trn_write_clock_unchanged(const trn_write_clock *wc, const void *p, size_t n, uint64_t since);

#endif
