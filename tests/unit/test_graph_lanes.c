/*
 * test_graph_lanes.c — the lane plan of a graph (scheduler/graph_lanes.h)
 * and the graph cache (scheduler/graph_cache.h).
 *
 * Lane plan rules checked on small graphs whose right answer is known:
 *  - a chain runs on lane 0 alone, with no wait and no signal;
 *  - a diamond (a -> b, a -> c, {b, c} -> d) gets two lanes: the branch
 *    that does not continue a's lane waits for a, and d waits for it;
 *  - a wait implied by an earlier wait of the same lane is dropped;
 *  - more independent branches than max_lanes share lanes (still correct:
 *    every cross-lane dependency has a wait);
 *  - for every plan, each dependency is either on the node's own lane and
 *    earlier in it, or waited for (the property that makes a plan correct).
 * Graph cache: a second note of a key is a hit with the first figures; the
 * entries survive a reload from the directory, most recent first; the bound
 * evicts the least recently used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "scheduler/graph_cache.h"
#include "scheduler/graph_lanes.h"

/* Every dependency of every node is honoured by its lane order or a wait
 * (transitively: a wait for a later node of that lane also covers it). */
static void assert_plan_correct(const trn_graph_topology *t, const trn_graph_lanes *l) {
    for (uint32_t i = 0; i < t->n; i++)
        for (uint32_t k = t->dep_start[i]; k < t->dep_start[i + 1]; k++) {
            const uint32_t d = t->deps[k];
            if (l->lane[d] == l->lane[i])
                continue;
            /* some wait of an earlier-or-same node of i's lane covers d */
            int covered = 0;
            for (uint32_t j = 0; j <= i && !covered; j++) {
                if (l->lane[j] != l->lane[i])
                    continue;
                for (uint32_t w = l->wait_start[j]; w < l->wait_start[j + 1]; w++) {
                    const uint32_t x = l->waits[w];
                    if (l->lane[x] == l->lane[d] && x >= d && l->signals[x])
                        covered = 1;
                }
            }
            assert_true(covered);
        }
}

static void plan(const uint32_t *dep_start, const uint32_t *deps, uint32_t n, uint32_t max,
                 trn_graph_lanes *out) {
    const trn_graph_topology t = {n, dep_start, deps};
    assert_int_equal(trn_graph_lanes_plan(&t, max, out), 0);
    assert_plan_correct(&t, out);
}

static void test_chain(void **state) {
    (void)state;
    const uint32_t dep_start[] = {0, 0, 1, 2, 3}, deps[] = {0, 1, 2};
    trn_graph_lanes l;
    plan(dep_start, deps, 4, 8, &l);
    assert_int_equal(l.nlanes, 1);
    assert_int_equal(l.nwaits, 0);
    assert_int_equal(l.nsignals, 0);
    trn_graph_lanes_free(&l);
}

static void test_diamond(void **state) {
    (void)state;
    /* a=0, b=1 <- a, c=2 <- a, d=3 <- b, c */
    const uint32_t dep_start[] = {0, 0, 1, 2, 4}, deps[] = {0, 0, 1, 2};
    trn_graph_lanes l;
    plan(dep_start, deps, 4, 8, &l);
    assert_int_equal(l.nlanes, 2);
    assert_int_equal(l.lane[0], 0);
    assert_int_equal(l.lane[1], 0);
    assert_int_equal(l.lane[2], 1);
    assert_int_equal(l.lane[3], 0);
    assert_int_equal(l.nwaits, 2); /* c waits for a, d waits for c */
    assert_true(l.signals[0] && l.signals[2]);
    assert_false(l.signals[1] || l.signals[3]);
    trn_graph_lanes_free(&l);
}

static void test_implied_wait_dropped(void **state) {
    (void)state;
    /* lane 0: 0 -> 1; node 2 is a root (lane 1); node 3 continues lane 1
     * and depends on 1 and 0 as well: its wait for 1 implies 0. */
    const uint32_t dep_start[] = {0, 0, 1, 1, 4}, deps[] = {0, 2, 1, 0};
    trn_graph_lanes l;
    plan(dep_start, deps, 4, 8, &l);
    assert_int_equal(l.lane[2], 1);
    assert_int_equal(l.lane[3], 1);
    assert_int_equal(l.nwaits, 1);
    assert_int_equal(l.waits[0], 1);
    trn_graph_lanes_free(&l);
    /* the same with node 2 depending on 1 */
    const uint32_t dep_start2[] = {0, 0, 1, 2, 4}, deps2[] = {0, 1, 2, 0};
    plan(dep_start2, deps2, 4, 8, &l);
    assert_int_equal(l.nwaits, 0); /* a chain after all: 0 -> 1 -> 2 -> 3 */
    trn_graph_lanes_free(&l);
}

static void test_more_branches_than_lanes(void **state) {
    (void)state;
    /* root 0, 10 branches 1..10 each depending on 0, join 11 on all. */
    uint32_t dep_start[13], deps[20];
    uint32_t k = 0;
    dep_start[0] = 0;
    for (uint32_t i = 1; i <= 10; i++) {
        dep_start[i] = k;
        deps[k++] = 0;
    }
    dep_start[11] = k;
    for (uint32_t i = 1; i <= 10; i++)
        deps[k++] = i;
    dep_start[12] = k;
    trn_graph_lanes l;
    plan(dep_start, deps, 12, 3, &l);
    assert_int_equal(l.nlanes, 3);
    trn_graph_lanes_free(&l);
    plan(dep_start, deps, 12, 1, &l);
    assert_int_equal(l.nlanes, 1);
    assert_int_equal(l.nwaits, 0);
    trn_graph_lanes_free(&l);
}

static void test_cache(void **state) {
    (void)state;
    char dir[] = "/tmp/trnsci-graph-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    trn_graph_cache *gc = trn_graph_cache_create(dir, 2, NULL);
    assert_non_null(gc);
    const char *plans[] = {"fft c2c n=1024", "fft r2c n=64"};
    double prep = 0.25;
    assert_int_equal(trn_graph_cache_note(gc, "g-a", 10, 2, &prep, plans, 2), 0);
    prep = 9;
    assert_int_equal(trn_graph_cache_note(gc, "g-a", 10, 2, &prep, plans, 2), 1);
    assert_true(prep == 0.25);
    prep = 0.5;
    assert_int_equal(trn_graph_cache_note(gc, "g-b", 3, 1, &prep, NULL, 0), 0);
    trn_graph_cache_destroy(gc);

    gc = trn_graph_cache_create(dir, 2, NULL);
    trn_graph_info *list;
    size_t n = trn_graph_cache_list(gc, &list);
    assert_int_equal(n, 2);
    assert_string_equal(list[0].key, "g-b");
    assert_string_equal(list[1].key, "g-a");
    assert_int_equal(list[1].hits, 1);
    assert_int_equal(list[1].nplans, 2);
    assert_string_equal(list[1].plans[1], "fft r2c n=64");
    trn_graph_info_free(list, n);
    /* A third entry evicts the least recently used (g-a). */
    prep = 1;
    assert_int_equal(trn_graph_cache_note(gc, "g-c", 1, 1, &prep, NULL, 0), 0);
    n = trn_graph_cache_list(gc, &list);
    assert_int_equal(n, 2);
    assert_string_equal(list[0].key, "g-c");
    assert_string_equal(list[1].key, "g-b");
    trn_graph_info_free(list, n);
    assert_int_equal(trn_graph_cache_clear(gc), 2);
    trn_graph_cache_destroy(gc);
    char path[128];
    snprintf(path, sizeof(path), "%s/graphs.manifest", dir);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_diamond),
        cmocka_unit_test(test_implied_wait_dropped),
        cmocka_unit_test(test_more_branches_than_lanes),
        cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
