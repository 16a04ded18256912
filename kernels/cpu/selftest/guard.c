/*
 * guard.c — guarded operand slots for the self-test (guard.h).
 */
#include "kernels/cpu/selftest/guard.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct slot {
    unsigned char *map; /* [guard][data: cap bytes][guard] */
    size_t cap;         /* data bytes, a multiple of the page size */
    unsigned char *op;  /* the operand placed last */
    size_t bytes;
} slot;

struct st_guard {
    size_t page;
    slot s[TRN_ST_SLOTS];
};

st_guard *st_guard_create(void) {
    st_guard *g = calloc(1, sizeof(*g));
    if (g)
        g->page = (size_t)sysconf(_SC_PAGESIZE);
    return g;
}

static void slot_unmap(const st_guard *g, slot *s) {
    if (s->map)
        munmap(s->map, s->cap + 2 * g->page);
    s->map = NULL;
    s->cap = 0;
}

void st_guard_destroy(st_guard *g) {
    if (!g)
        return;
    for (int i = 0; i < TRN_ST_SLOTS; i++)
        slot_unmap(g, &g->s[i]);
    free(g);
}

/* Makes slot s hold at least `need` data bytes. */
static int slot_reserve(const st_guard *g, slot *s, size_t need) {
    if (s->cap >= need)
        return 0;
    slot_unmap(g, s);
    size_t cap = (need + g->page - 1) / g->page * g->page;
    if (cap < 16 * g->page)
        cap = 16 * g->page;
    unsigned char *m =
        mmap(NULL, cap + 2 * g->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mprotect(m, g->page, PROT_NONE) != 0 ||
        mprotect(m + g->page + cap, g->page, PROT_NONE) != 0) {
        munmap(m, cap + 2 * g->page);
        return -1;
    }
    s->map = m;
    s->cap = cap;
    return 0;
}

void *st_guard_place(st_guard *g, int slot_index, size_t bytes, st_place where, size_t align) {
    if (slot_index < 0 || slot_index >= TRN_ST_SLOTS)
        return NULL;
    slot *s = &g->s[slot_index];
    if (bytes == 0)
        bytes = 1;
    if (slot_reserve(g, s, bytes + align) != 0)
        return NULL;
    unsigned char *data = s->map + g->page;
    switch (where) {
    case ST_PLACE_END: s->op = data + s->cap - bytes; break;
    case ST_PLACE_START: s->op = data; break;
    case ST_PLACE_OFFSET: s->op = data + align; break;
    }
    s->bytes = bytes;
    return s->op;
}

/* Appends text to buf[*at..len) (async-signal-safe). */
static void put(char *buf, size_t len, size_t *at, const char *text) {
    while (*text && *at + 1 < len)
        buf[(*at)++] = *text++;
    buf[*at < len ? *at : len - 1] = '\0';
}

static void put_u(char *buf, size_t len, size_t *at, uint64_t v) {
    char d[24];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && n < (int)sizeof(d));
    char out[24];
    for (int i = 0; i < n; i++)
        out[i] = d[n - 1 - i];
    out[n] = '\0';
    put(buf, len, at, out);
}

int st_guard_locate(const st_guard *g, const void *addr, char *buf, size_t len) {
    const unsigned char *a = addr;
    size_t at = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < TRN_ST_SLOTS; i++) {
        const slot *s = &g->s[i];
        if (!s->map || a < s->map || a >= s->map + s->cap + 2 * g->page || !s->op)
            continue;
        const unsigned char *end = s->op + s->bytes;
        if (a >= end) {
            put_u(buf, len, &at, (uint64_t)(a - end));
            put(buf, len, &at, " bytes past the end of operand #");
        } else if (a < s->op) {
            put_u(buf, len, &at, (uint64_t)(s->op - a));
            put(buf, len, &at, " bytes before the start of operand #");
        } else {
            put(buf, len, &at, "inside operand #");
        }
        put_u(buf, len, &at, (uint64_t)i);
        put(buf, len, &at, " (");
        put_u(buf, len, &at, (uint64_t)s->bytes);
        put(buf, len, &at, " bytes)");
        return 1;
    }
    put(buf, len, &at, "outside every operand");
    return 0;
}
