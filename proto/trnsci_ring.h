/*
 * trnsci_ring.h — producer and consumer halves of the local transport's
 * shared-memory byte rings (layout and protocol: trnsci_wire.h).
 *
 * Each side keeps its own positions privately (`trn_ring_end`) and only
 * publishes them; the peer's published position is read once per operation
 * and checked, so a corrupted region can make an operation fail but never
 * makes either side read or write outside the ring.
 */
#ifndef TRNSCI_RING_H
#define TRNSCI_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "trnsci_wire.h"

typedef struct trn_ring_end {
    uint8_t *data;        /* the ring's bytes */
    uint32_t size;        /* power of two */
    uint64_t pos;         /* private: our tail (producer) or head (consumer) */
    uint64_t *published;  /* shared: where we publish pos */
    const uint64_t *peer; /* shared: the other side's position */
} trn_ring_end;

static inline uint64_t trn_ring_entry_bytes(uint32_t body_len) {
    return ((uint64_t)sizeof(trn_local_hdr) + body_len + 7u) & ~(uint64_t)7u;
}

static inline void trn_ring_copy_in(trn_ring_end *r, uint64_t pos, const void *src, size_t n) {
    const uint32_t off = (uint32_t)(pos & (r->size - 1));
    const size_t first = n < (size_t)(r->size - off) ? n : (size_t)(r->size - off);
    memcpy(r->data + off, src, first);
    memcpy(r->data, (const uint8_t *)src + first, n - first);
}

static inline void trn_ring_copy_out(const trn_ring_end *r, uint64_t pos, void *dst, size_t n) {
    const uint32_t off = (uint32_t)(pos & (r->size - 1));
    const size_t first = n < (size_t)(r->size - off) ? n : (size_t)(r->size - off);
    memcpy(dst, r->data + off, first);
    memcpy((uint8_t *)dst + first, r->data, n - first);
}

/* Producer: appends one entry. Returns 0, 1 when there is no room now (or
 * the entry can never fit), or -1 when the consumer's position is corrupt. */
static inline int trn_ring_push(trn_ring_end *r, const trn_local_hdr *h, const void *body) {
    const uint64_t need = trn_ring_entry_bytes(h->len);
    if (need > r->size / 2)
        return 1;
    const uint64_t head = __atomic_load_n(r->peer, __ATOMIC_ACQUIRE);
    if (head > r->pos || r->pos - head > r->size)
        return -1;
    if (r->size - (r->pos - head) < need)
        return 1;
    trn_ring_copy_in(r, r->pos, h, sizeof(*h));
    if (h->len)
        trn_ring_copy_in(r, r->pos + sizeof(*h), body, h->len);
    r->pos += need;
    __atomic_store_n(r->published, r->pos, __ATOMIC_RELEASE);
    return 0;
}

/* Consumer: whether an entry is waiting (-1: the producer's position is
 * corrupt). */
static inline int trn_ring_ready(const trn_ring_end *r) {
    const uint64_t tail = __atomic_load_n(r->peer, __ATOMIC_ACQUIRE);
    if (tail < r->pos || tail - r->pos > r->size)
        return -1;
    return tail != r->pos;
}

/* Consumer: reads the next entry's header and its body into body (at most
 * cap bytes). Returns 0, 1 when the ring is empty, or -1 when the ring is
 * corrupt (bad positions or lengths). */
static inline int trn_ring_pop(trn_ring_end *r, trn_local_hdr *h, void *body, size_t cap) {
    const uint64_t tail = __atomic_load_n(r->peer, __ATOMIC_ACQUIRE);
    if (tail < r->pos || tail - r->pos > r->size)
        return -1;
    if (tail == r->pos)
        return 1;
    if (tail - r->pos < sizeof(*h))
        return -1;
    trn_ring_copy_out(r, r->pos, h, sizeof(*h));
    const uint64_t n = trn_ring_entry_bytes(h->len);
    if (h->len > cap || n > tail - r->pos)
        return -1;
    if (h->len)
        trn_ring_copy_out(r, r->pos + sizeof(*h), body, h->len);
    r->pos += n;
    __atomic_store_n(r->published, r->pos, __ATOMIC_RELEASE);
    return 0;
}

/* Adaptive spinning before sleeping on a doorbell. Spinning pays off only
 * while the peer runs on another CPU; on the same CPU it just delays the
 * peer. So the budget doubles after a spin that caught the peer's next entry
 * and halves after one that ended in sleep; at zero it is probed again every
 * 64 sleeps. */
#define TRN_SPIN_MAX_NS 50000u
#define TRN_SPIN_PROBE_NS 20000u

/* The clock spinning is measured with. */
static inline uint64_t trn_spin_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef struct trn_spin {
    uint32_t ns; /* current budget */
    uint32_t sleeps;
} trn_spin;

static inline void trn_spin_result(trn_spin *s, int caught) {
    if (caught) {
        const uint32_t grown = s->ns ? s->ns * 2 : TRN_SPIN_PROBE_NS;
        s->ns = grown < TRN_SPIN_MAX_NS ? grown : TRN_SPIN_MAX_NS;
        return;
    }
    s->ns /= 2;
    if (s->ns < 1000u)
        s->ns = 0;
    if (s->ns == 0 && ++s->sleeps % 64u == 0)
        s->ns = TRN_SPIN_PROBE_NS;
}

/* After a sleep that ended waited_ns after the spin began: when a spin of
 * at most TRN_SPIN_MAX_NS would have caught the entry, the budget covers it
 * next time (twice the wait, so a wake-up's own latency is covered too);
 * otherwise it shrinks as after any miss. Judging a miss by the whole wait
 * rather than by the spin alone keeps one late reply from starting a spiral:
 * a shorter budget misses more often, and each miss then costs a wake-up from
 * an idle CPU (tens of µs), which makes the next reply later still. */
static inline void trn_spin_slept(trn_spin *s, uint64_t waited_ns) {
    if (waited_ns > TRN_SPIN_MAX_NS) {
        trn_spin_result(s, 0);
        return;
    }
    const uint64_t want = 2 * waited_ns;
    s->ns = want < TRN_SPIN_PROBE_NS ? TRN_SPIN_PROBE_NS
            : want > TRN_SPIN_MAX_NS ? TRN_SPIN_MAX_NS
                                     : (uint32_t)want;
}

#endif
