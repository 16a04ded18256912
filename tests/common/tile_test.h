/*
 * tile_test.h — what the unit tests of the tiled solver task graphs
 * (ops/solver_tile.h and the syevd, gesvd and potri graphs beside it)
 * share: random values, elements read and written by type, a step's shard
 * runs checked to cover its tasks, and the whole graph run step by step,
 * each step cut into shards called in turn or run by threads claiming its
 * tasks. Header-only; include after cmocka.h. A test file may define
 * TILE_TEST_SEED first to choose its random sequence.
 */
#ifndef TRN_TESTS_TILE_TEST_H
#define TRN_TESTS_TILE_TEST_H

#include <complex.h>
#include <pthread.h>
#include <stdint.h>

#include "kernels/cpu/cpu_kernels.h"
#include "ops/solver_tile.h"

#ifndef TILE_TEST_SEED
#define TILE_TEST_SEED 0x9e3779b97f4a7c15ULL
#endif

static uint64_t tile_test_rng = TILE_TEST_SEED;

/* Uniform in [-1, 1) (xorshift64*). */
static inline double uniform(void) {
    tile_test_rng ^= tile_test_rng >> 12;
    tile_test_rng ^= tile_test_rng << 25;
    tile_test_rng ^= tile_test_rng >> 27;
    return (double)((tile_test_rng * 2685821657736338717ULL) >> 11) * 0x1p-52 - 1.0;
}

/* Element i of a (S/D/C/Z) as a double complex, and its assignment. */
static inline double complex elem(trn_dtype t, const void *a, size_t i) {
    switch (t) {
    case TRN_DTYPE_R32F: return ((const float *)a)[i];
    case TRN_DTYPE_R64F: return ((const double *)a)[i];
    case TRN_DTYPE_C32F: return ((const float complex *)a)[i];
    default: return ((const double complex *)a)[i];
    }
}

static inline void set_elem(trn_dtype t, void *a, size_t i, double complex v) {
    switch (t) {
    case TRN_DTYPE_R32F: ((float *)a)[i] = (float)creal(v); break;
    case TRN_DTYPE_R64F: ((double *)a)[i] = creal(v); break;
    case TRN_DTYPE_C32F: ((float complex *)a)[i] = (float complex)v; break;
    default: ((double complex *)a)[i] = v; break;
    }
}

/* The shard runs of step d for 1 .. 7 shards: contiguous, in order,
 * covering its `tasks` tasks once. */
static inline void check_shard_runs(const trn_solver_dense_desc *d, size_t tasks) {
    for (int S = 1; S <= 7; S++) {
        size_t next = 0;
        for (int s = 0; s < S; s++) {
            size_t lo, hi;
            trn_tile_shard_tasks(d, s, S, &lo, &hi);
            assert_int_equal(lo, next);
            assert_true(hi >= lo);
            next = hi;
        }
        assert_int_equal(next, tasks);
    }
}

/* Every step of the tiled graph w, each cut into S shards (its tasks
 * allowing) called one after the other, in order or backwards. */
static inline void run_steps(const trn_solver_dense_desc *w, int S, int backwards) {
    for (int s = 0; s < trn_tile_steps(w); s++) {
        const trn_solver_dense_desc d = trn_tile_step(w, s);
        const int tasks = (int)trn_tile_tasks(&d), shards = tasks < S ? tasks : S;
        for (int k = 0; k < shards; k++)
            assert_int_equal(trn_cpu_solver_dense(&d, NULL, backwards ? shards - 1 - k : k, shards),
                             TRN_KSTATUS_OK);
    }
}

typedef struct claim_run {
    const trn_solver_dense_desc *d;
    int shard, nshards;
} claim_run;

static inline void *claim_thread(void *arg) {
    const claim_run *r = arg;
    return trn_cpu_solver_dense(r->d, NULL, r->shard, r->nshards) == TRN_KSTATUS_OK ? NULL : arg;
}

/* Step d run by `threads` (at most 4) threads at once, sharing its tasks
 * through its claim counter (ops/solver_tile.h, "Claiming"). */
static inline void run_threads(const trn_solver_dense_desc *d, int threads) {
    pthread_t th[4];
    claim_run runs[4];
    for (int k = 0; k < threads; k++) {
        runs[k] = (claim_run){d, k, threads};
        assert_int_equal(pthread_create(&th[k], NULL, claim_thread, &runs[k]), 0);
    }
    for (int k = 0; k < threads; k++) {
        void *rc;
        assert_int_equal(pthread_join(th[k], &rc), 0);
        assert_null(rc);
    }
}

/* Every step of w run by `threads` threads claiming its tasks: every task
 * taken, each thread asking once past the end. */
static inline void run_claimed(const trn_solver_dense_desc *w, int threads) {
    for (int s = 0; s < trn_tile_steps(w); s++) {
        uint64_t counter = 0;
        trn_solver_dense_desc d = trn_tile_step(w, s);
        d.tile_claim = &counter;
        run_threads(&d, threads);
        assert_int_equal(counter, trn_tile_tasks(&d) + (uint64_t)threads);
    }
}

#endif
