/*
 * test_rand_curand.c — trnrand's MTGP32 against cuRAND itself, where the
 * machine has NVIDIA's libcurand (its host generator runs on the CPU, no GPU
 * needed): loaded with dlopen from the library path or /usr/local/cuda*,
 * and skipped when there is none, so the test passes on any machine.
 *
 * For seeds 0, 1234 and 0xdeadbeefcafebabe and cuRAND's orderings
 * PSEUDO_DEFAULT, PSEUDO_BEST and PSEUDO_LEGACY, a run of calls of odd sizes
 * (curandGenerate, curandGenerateUniform, curandGenerate) on a cuRAND host
 * generator and on a trnrand host generator (trnrandCreateGeneratorHost)
 * must give the same bits: the 32-bit words (cuRAND's host-API layout of
 * 192 or 64 interleaved MTGP32 states) and the float uniforms (both
 * x 2^-32 + 2^-33 of one word), each call continuing where the previous one
 * left off. Both refuse the seeded and dynamic orderings with
 * OUT_OF_RANGE. No daemon is involved.
 */
#include <dlfcn.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "trnsci/trnrand.h"

/* cuRAND's host API, by the values of its enums (curand.h is not needed). */
typedef void *cu_gen;
typedef int (*cu_create_t)(cu_gen *, int);
typedef int (*cu_seed_t)(cu_gen, unsigned long long);
typedef int (*cu_order_t)(cu_gen, int);
typedef int (*cu_gen32_t)(cu_gen, unsigned int *, size_t);
typedef int (*cu_genf_t)(cu_gen, float *, size_t);
typedef int (*cu_destroy_t)(cu_gen);

static struct {
    void *lib;
    cu_create_t create;
    cu_seed_t seed;
    cu_order_t order;
    cu_gen32_t gen32;
    cu_genf_t genf;
    cu_destroy_t destroy;
} cu;

enum { CU_MTGP32 = 141 };

static void *open_curand(void) {
    void *h = dlopen("libcurand.so.10", RTLD_NOW | RTLD_LOCAL);
    if (h)
        return h;
    glob_t g;
    if (glob("/usr/local/cuda*/lib64/libcurand.so*", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && !h; i++)
            h = dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_LOCAL);
        globfree(&g);
    }
    return h;
}

static int load(void) {
    cu.lib = open_curand();
    if (!cu.lib)
        return -1;
    cu.create = (cu_create_t)dlsym(cu.lib, "curandCreateGeneratorHost");
    cu.seed = (cu_seed_t)dlsym(cu.lib, "curandSetPseudoRandomGeneratorSeed");
    cu.order = (cu_order_t)dlsym(cu.lib, "curandSetGeneratorOrdering");
    cu.gen32 = (cu_gen32_t)dlsym(cu.lib, "curandGenerate");
    cu.genf = (cu_genf_t)dlsym(cu.lib, "curandGenerateUniform");
    cu.destroy = (cu_destroy_t)dlsym(cu.lib, "curandDestroyGenerator");
    return cu.create && cu.seed && cu.order && cu.gen32 && cu.genf && cu.destroy ? 0 : -1;
}

static void test_mtgp32_vs_curand(void **state) {
    (void)state;
    if (!cu.lib) {
        printf("    libcurand not found: skipped\n");
        skip();
    }
    static const unsigned long long seeds[] = {0, 1234, UINT64_C(0xdeadbeefcafebabe)};
    static const trnrandOrdering_t orders[] = {TRNRAND_ORDERING_PSEUDO_DEFAULT,
                                               TRNRAND_ORDERING_PSEUDO_BEST,
                                               TRNRAND_ORDERING_PSEUDO_LEGACY};
    enum { N1 = 70001, N2 = 40961, N3 = 333 };
    uint32_t *a = malloc(N1 * 4), *b = malloc(N1 * 4);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++)
        for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
            cu_gen c = NULL;
            trnrandGenerator_t t = NULL;
            if (cu.create(&c, CU_MTGP32) != 0) {
                printf("    curandCreateGeneratorHost failed: skipped\n");
                free(a), free(b);
                skip();
            }
            assert_int_equal(cu.seed(c, seeds[s]), 0);
            assert_int_equal(cu.order(c, (int)orders[o]), 0);
            assert_int_equal(trnrandCreateGeneratorHost(&t, TRNRAND_RNG_PSEUDO_MTGP32),
                             TRNRAND_STATUS_SUCCESS);
            assert_int_equal(trnrandSetPseudoRandomGeneratorSeed(t, seeds[s]),
                             TRNRAND_STATUS_SUCCESS);
            assert_int_equal(trnrandSetGeneratorOrdering(t, orders[o]), TRNRAND_STATUS_SUCCESS);
            assert_int_equal(cu.gen32(c, a, N1), 0);
            assert_int_equal(trnrandGenerate(t, b, N1), TRNRAND_STATUS_SUCCESS);
            if (memcmp(a, b, N1 * 4) != 0)
                fail_msg("seed %#llx ordering %d: curandGenerate words differ", seeds[s],
                         (int)orders[o]);
            assert_int_equal(cu.genf(c, (float *)a, N2), 0);
            assert_int_equal(trnrandGenerateUniform(t, (float *)b, N2), TRNRAND_STATUS_SUCCESS);
            if (memcmp(a, b, N2 * 4) != 0)
                fail_msg("seed %#llx ordering %d: curandGenerateUniform differs", seeds[s],
                         (int)orders[o]);
            assert_int_equal(cu.gen32(c, a, N3), 0);
            assert_int_equal(trnrandGenerate(t, b, N3), TRNRAND_STATUS_SUCCESS);
            if (memcmp(a, b, N3 * 4) != 0)
                fail_msg("seed %#llx ordering %d: the words after differ", seeds[s],
                         (int)orders[o]);
            /* both refuse the seeded and dynamic orderings */
            assert_int_equal(cu.order(c, TRNRAND_ORDERING_PSEUDO_SEEDED),
                             TRNRAND_STATUS_OUT_OF_RANGE);
            assert_int_equal(trnrandSetGeneratorOrdering(t, TRNRAND_ORDERING_PSEUDO_SEEDED),
                             TRNRAND_STATUS_OUT_OF_RANGE);
            assert_int_equal(cu.order(c, TRNRAND_ORDERING_PSEUDO_DYNAMIC),
                             TRNRAND_STATUS_OUT_OF_RANGE);
            assert_int_equal(trnrandSetGeneratorOrdering(t, TRNRAND_ORDERING_PSEUDO_DYNAMIC),
                             TRNRAND_STATUS_OUT_OF_RANGE);
            assert_int_equal(cu.destroy(c), 0);
            assert_int_equal(trnrandDestroyGenerator(t), TRNRAND_STATUS_SUCCESS);
        }
    free(a);
    free(b);
}

int main(void) {
    /* libcurand is never dlclose'd: unloading it (and the C++ runtime it
     * brings) would orphan the runtime's own allocations, which leak
     * checkers then report. */
    if (load() != 0)
        cu.lib = NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtgp32_vs_curand),
    };
    const int failed = cmocka_run_group_tests_name("rand_curand", tests, NULL, NULL);
    return failed ? 1 : 0;
}
