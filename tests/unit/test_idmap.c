/*
 * test_idmap.c — daemon/idmap.h, the id → pointer hash map behind sessions,
 * buffers and streams.
 *
 * Rules checked (from idmap.h):
 *  - id 0 is never a key: put(0) fails, get(0)/remove(0) give NULL;
 *  - put inserts or replaces (len counts distinct ids), get finds exactly what
 *    was put, remove returns the value once and then the id is absent;
 *  - removal (backward shift) keeps every other id reachable, at any load and
 *    in any removal order;
 *  - next visits every present id exactly once with its value;
 *  - a freed map is empty and usable again.
 * Every check compares against a plain reference array of (id, present), never
 * against the map's own earlier answers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/idmap.h"

/* splitmix64: a bijection of its 64-bit input, so distinct counters give
 * distinct, well-spread ids. */
static uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The value stored for an id: a pointer that is never dereferenced. */
static void *val_of(uint64_t id, unsigned version) {
    return (void *)(uintptr_t)((id * 2654435761u) ^ ((uint64_t)version << 56) ^ 1u);
}

typedef struct ref_entry {
    uint64_t id;
    void *val;
    int present;
} ref_entry;

/* Asserts the map holds exactly the present entries of ref[0..n). */
static void check_against_ref(const trn_idmap *m, const ref_entry *ref, size_t n) {
    size_t present = 0;
    for (size_t i = 0; i < n; i++) {
        void *got = trn_idmap_get(m, ref[i].id);
        if (ref[i].present) {
            present++;
            assert_ptr_equal(got, ref[i].val);
        } else {
            assert_null(got);
        }
    }
    assert_int_equal(m->len, present);
}

/* Shuffles idx[0..n) with a fixed-seed Fisher–Yates (reproducible runs). */
static void shuffle(size_t *idx, size_t n, uint64_t seed) {
    for (size_t i = n; i > 1; i--) {
        seed = mix64(seed);
        const size_t j = (size_t)(seed % i);
        const size_t t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
}

/* Rule: id 0 is not a valid key; an empty (never grown) map answers NULL. */
static void test_zero_id_and_empty_map(void **state) {
    (void)state;
    trn_idmap m;
    trn_idmap_init(&m);
    assert_null(trn_idmap_get(&m, 1));
    assert_null(trn_idmap_get(&m, 0));
    assert_null(trn_idmap_remove(&m, 1));
    assert_null(trn_idmap_remove(&m, 0));
    size_t it = 0;
    uint64_t id;
    void *val;
    assert_int_equal(trn_idmap_next(&m, &it, &id, &val), 0);

    assert_int_equal(trn_idmap_put(&m, 0, val_of(0, 0)), -1);
    assert_int_equal(m.len, 0);
    assert_int_equal(trn_idmap_put(&m, 7, val_of(7, 0)), 0);
    assert_int_equal(trn_idmap_put(&m, 0, val_of(0, 0)), -1);
    assert_null(trn_idmap_get(&m, 0));
    assert_null(trn_idmap_remove(&m, 0));
    assert_int_equal(m.len, 1);
    assert_ptr_equal(trn_idmap_get(&m, 7), val_of(7, 0));
    trn_idmap_free(&m);
}

/* Rule: put on a present id replaces its value without adding an entry;
 * remove returns the value once, then the id is gone; the id can come back. */
static void test_replace_and_remove(void **state) {
    (void)state;
    trn_idmap m;
    trn_idmap_init(&m);
    assert_int_equal(trn_idmap_put(&m, 42, val_of(42, 0)), 0);
    assert_int_equal(trn_idmap_put(&m, 42, val_of(42, 1)), 0);
    assert_int_equal(m.len, 1);
    assert_ptr_equal(trn_idmap_get(&m, 42), val_of(42, 1));
    assert_null(trn_idmap_get(&m, 43));

    assert_ptr_equal(trn_idmap_remove(&m, 42), val_of(42, 1));
    assert_int_equal(m.len, 0);
    assert_null(trn_idmap_get(&m, 42));
    assert_null(trn_idmap_remove(&m, 42));

    assert_int_equal(trn_idmap_put(&m, 42, val_of(42, 2)), 0);
    assert_ptr_equal(trn_idmap_get(&m, 42), val_of(42, 2));
    assert_int_equal(m.len, 1);

    /* Extreme ids are ordinary keys. */
    assert_int_equal(trn_idmap_put(&m, UINT64_MAX, val_of(UINT64_MAX, 0)), 0);
    assert_int_equal(trn_idmap_put(&m, 1, val_of(1, 0)), 0);
    assert_ptr_equal(trn_idmap_get(&m, UINT64_MAX), val_of(UINT64_MAX, 0));
    assert_ptr_equal(trn_idmap_get(&m, 1), val_of(1, 0));
    assert_int_equal(m.len, 3);

    /* A freed map is empty and usable again. */
    trn_idmap_free(&m);
    assert_int_equal(m.len, 0);
    assert_null(trn_idmap_get(&m, 42));
    assert_int_equal(trn_idmap_put(&m, 5, val_of(5, 0)), 0);
    assert_ptr_equal(trn_idmap_get(&m, 5), val_of(5, 0));
    trn_idmap_free(&m);
}

enum { MANY = 10000 };

/* Fills ref[0..MANY) with sequential ids 1..MANY, ref[MANY..2*MANY) with
 * spread-out pseudo-random ids (never 0, never equal to a sequential one). */
static ref_entry *make_many_ids(void) {
    ref_entry *ref = calloc(2 * MANY, sizeof(*ref));
    assert_non_null(ref);
    for (size_t i = 0; i < MANY; i++)
        ref[i].id = i + 1;
    for (size_t i = 0, c = 0; i < MANY; c++) {
        const uint64_t id = mix64(c);
        if (id <= MANY) /* 0 or a sequential id: astronomically unlikely */
            continue;
        ref[MANY + i++].id = id;
    }
    for (size_t i = 0; i < 2 * MANY; i++)
        ref[i].val = val_of(ref[i].id, 0);
    return ref;
}

/* Rule: 20,000 ids (sequential and random) put in an interleaved order are all
 * found with their values; ids never put are not; removing a shuffled half
 * (and then the rest) keeps every other id reachable at every step, and the
 * map returns each removed value exactly once. */
static void test_many_ids_against_reference(void **state) {
    (void)state;
    ref_entry *ref = make_many_ids();
    const size_t n = 2 * MANY;
    size_t *order = malloc(n * sizeof(*order));
    assert_non_null(order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    shuffle(order, n, 1);

    trn_idmap m;
    trn_idmap_init(&m);
    for (size_t i = 0; i < n; i++) {
        ref_entry *e = &ref[order[i]];
        assert_int_equal(trn_idmap_put(&m, e->id, e->val), 0);
        e->present = 1;
        assert_int_equal(m.len, i + 1);
    }
    /* Growth keeps the load at or below one half. */
    assert_true(m.len * 2 <= m.cap);
    check_against_ref(&m, ref, n);
    /* Ids never inserted are absent. */
    for (uint64_t id = MANY + 1; id <= MANY + 1000; id++)
        assert_null(trn_idmap_get(&m, id));

    shuffle(order, n, 2);
    for (size_t i = 0; i < n; i++) {
        ref_entry *e = &ref[order[i]];
        assert_ptr_equal(trn_idmap_remove(&m, e->id), e->val);
        e->present = 0;
        assert_null(trn_idmap_remove(&m, e->id));
        /* A full comparison after every removal is quadratic; every 97th
         * removal (and the end) still crosses every probe-run shape. */
        if (i % 97 == 0 || i == n / 2 || i == n - 1)
            check_against_ref(&m, ref, n);
    }
    assert_int_equal(m.len, 0);
    trn_idmap_free(&m);
    free(order);
    free(ref);
}

/* Rule: backward-shift deletion never strands an entry. A dense table (load
 * just under the 50% growth threshold, so probe runs are long) is emptied in
 * a random order, checking every remaining id after every single removal,
 * then refilled and emptied in id order. */
static void test_backward_shift_every_step(void **state) {
    (void)state;
    enum { N = 1023 }; /* 1023 ids: capacity 2048 after growth, load ~0.5 */
    ref_entry ref[N];
    size_t order[N];
    trn_idmap m;
    trn_idmap_init(&m);
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < N; i++) {
            /* Round 0: random ids; round 1: sequential ids 1..N. */
            ref[i].id = round == 0 ? mix64(1000 + i) | 1u : i + 1;
            ref[i].val = val_of(ref[i].id, (unsigned)round);
            ref[i].present = 1;
            assert_int_equal(trn_idmap_put(&m, ref[i].id, ref[i].val), 0);
            order[i] = i;
        }
        check_against_ref(&m, ref, N);
        if (round == 0)
            shuffle(order, N, 3);
        for (size_t i = 0; i < N; i++) {
            ref_entry *e = &ref[order[i]];
            assert_ptr_equal(trn_idmap_remove(&m, e->id), e->val);
            e->present = 0;
            check_against_ref(&m, ref, N);
        }
    }
    trn_idmap_free(&m);
}

/* Rule: next visits every present id exactly once, with its value, and
 * nothing else; removed ids are not visited. */
static void test_next_visits_each_once(void **state) {
    (void)state;
    ref_entry *ref = make_many_ids();
    const size_t n = 2 * MANY;
    trn_idmap m;
    trn_idmap_init(&m);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(trn_idmap_put(&m, ref[i].id, ref[i].val), 0);
        ref[i].present = 1;
    }
    /* Remove every third id. */
    for (size_t i = 0; i < n; i += 3) {
        assert_ptr_equal(trn_idmap_remove(&m, ref[i].id), ref[i].val);
        ref[i].present = 0;
    }

    /* Mark each visit in a second map keyed by id → index + 1. */
    trn_idmap index;
    trn_idmap_init(&index);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(trn_idmap_put(&index, ref[i].id, (void *)(uintptr_t)(i + 1)), 0);
    unsigned char *seen = calloc(n, 1);
    assert_non_null(seen);
    size_t it = 0, visits = 0;
    uint64_t id;
    void *val;
    while (trn_idmap_next(&m, &it, &id, &val)) {
        const uintptr_t k = (uintptr_t)trn_idmap_get(&index, id);
        assert_true(k != 0); /* only ids that were put */
        const size_t i = (size_t)k - 1;
        assert_true(ref[i].present);
        assert_ptr_equal(val, ref[i].val);
        assert_int_equal(seen[i], 0);
        seen[i] = 1;
        visits++;
    }
    assert_int_equal(visits, m.len);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(seen[i], ref[i].present);
    /* Once exhausted, next keeps answering 0. */
    assert_int_equal(trn_idmap_next(&m, &it, &id, &val), 0);

    free(seen);
    trn_idmap_free(&index);
    trn_idmap_free(&m);
    free(ref);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_id_and_empty_map),
        cmocka_unit_test(test_replace_and_remove),
        cmocka_unit_test(test_many_ids_against_reference),
        cmocka_unit_test(test_backward_shift_every_step),
        cmocka_unit_test(test_next_visits_each_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
