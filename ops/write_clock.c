/*
 * write_clock.c — the write clock (write_clock.h).
 *
 * Stamps only grow: a slot takes the larger of its tick and the new one, so
 * that two writers racing on one slot cannot leave the smaller tick behind
 * (which could make a copy taken between the two look current).
 */
#include "ops/write_clock.h"

#include <stdatomic.h>

#include "ops/op.h"
#include "ops/span.h"

struct trn_write_clock {
    _Atomic uint64_t tick;
    _Atomic uint64_t all; /* the last write of unknown extent */
    _Atomic uint64_t slot[TRN_WRITE_CLOCK_SLOTS];
    /* Marks of memory others write (trn_write_clock_share), per slot and
     * for memory spanning every slot. */
    _Atomic uint32_t shared_all;
    _Atomic uint32_t shared[TRN_WRITE_CLOCK_SLOTS];
};

size_t trn_write_clock_bytes(void) {
    return sizeof(trn_write_clock);
}

uint64_t trn_write_clock_now(const trn_write_clock *wc) {
    return atomic_load(&((trn_write_clock *)wc)->tick);
}

static void stamp(_Atomic uint64_t *slot, uint64_t t) {
    uint64_t old = atomic_load(slot);
    while (old < t && !atomic_compare_exchange_weak(slot, &old, t))
        ;
}

/* The granules of [p, p + n), n > 0: first and last granule numbers. */
static void granules(const void *p, size_t n, uintptr_t *first, uintptr_t *last) {
    const uintptr_t lo = (uintptr_t)p;
    const uintptr_t hi = n - 1 > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + (n - 1);
    *first = lo >> TRN_WRITE_CLOCK_GRANULE_SHIFT;
    *last = hi >> TRN_WRITE_CLOCK_GRANULE_SHIFT;
}

/* A granule's slot: its number with the higher bits folded in, so that
 * memory a power of two apart (allocators lay out regions so: ASan's size
 * classes are 2^40 bytes apart) does not share slots for that alone. The
 * granules of one aligned block of TRN_WRITE_CLOCK_SLOTS stay in distinct
 * slots; a range across blocks may share one, which only makes a copy look
 * changed. */
static size_t slot_of(uintptr_t g) {
    const uint64_t x = (uint64_t)g;
    return (size_t)((x ^ (x >> 20) ^ (x >> 40)) % TRN_WRITE_CLOCK_SLOTS);
}

void trn_write_clock_wrote(trn_write_clock *wc, const void *p, size_t n) {
    if (n == 0)
        return;
    const uint64_t t = atomic_fetch_add(&wc->tick, 1) + 1;
    uintptr_t g, last;
    granules(p, n, &g, &last);
    if (last - g >= TRN_WRITE_CLOCK_SLOTS) { /* every slot: the same as all */
        stamp(&wc->all, t);
        return;
    }
    for (;; g++) {
        stamp(&wc->slot[slot_of(g)], t);
        if (g == last)
            break;
    }
}

void trn_write_clock_wrote_all(trn_write_clock *wc) {
    stamp(&wc->all, atomic_fetch_add(&wc->tick, 1) + 1);
}

void trn_write_clock_after_op(trn_write_clock *wc, const trn_op_desc *op) {
    trn_span w[4];
    const int n = trn_op_write_spans(op, w, 4);
    if (n < 0) {
        trn_write_clock_wrote_all(wc);
        return;
    }
    for (int i = 0; i < n; i++)
        trn_write_clock_wrote(wc, (const void *)w[i].lo, w[i].hi - w[i].lo);
}

void trn_write_clock_share(trn_write_clock *wc, const void *p, size_t n, int delta) {
    if (n == 0)
        return;
    uintptr_t g, last;
    granules(p, n, &g, &last);
    if (last - g >= TRN_WRITE_CLOCK_SLOTS) {
        atomic_fetch_add(&wc->shared_all, (uint32_t)delta);
        return;
    }
    for (;; g++) {
        atomic_fetch_add(&wc->shared[slot_of(g)], (uint32_t)delta);
        if (g == last)
            break;
    }
}

int trn_write_clock_unchanged(const trn_write_clock *wc, const void *p, size_t n, uint64_t since) {
    trn_write_clock *w = (trn_write_clock *)wc; /* atomics are read through non-const */
    if (atomic_load(&w->all) > since || atomic_load(&w->shared_all) != 0)
        return 0;
    if (n == 0)
        return 1;
    uintptr_t g, last;
    granules(p, n, &g, &last);
    if (last - g >= TRN_WRITE_CLOCK_SLOTS) { /* every slot once */
        for (size_t i = 0; i < TRN_WRITE_CLOCK_SLOTS; i++)
            if (atomic_load(&w->slot[i]) > since || atomic_load(&w->shared[i]) != 0)
                return 0;
        return 1;
    }
    for (;; g++) {
        const size_t i = slot_of(g);
        if (atomic_load(&w->slot[i]) > since || atomic_load(&w->shared[i]) != 0)
            return 0;
        if (g == last)
            return 1;
    }
}
