/*
 * test_tensor_chem.c — trntensor's fused chemistry kernels through real
 * daemons, over the local transport and gRPC over TCP, against numpy
 * (tensor_chem_ref.py under Debian's python3, numpy.einsum in float64 on
 * exactly the uploaded values):
 *
 *  - trntensorAoToMo, FP32 and FP64, with padded leading dimensions for
 *    Cocc / Cvir and guard bytes around B that must come back untouched.
 *    Bound: B is two chained dot products of nbf terms, so |B - B_ref| <=
 *    gamma_{2 nbf} Bmag, Bmag = sum |Cocc||Cvir||(P|mu nu)| (Higham 3.5,
 *    u of the data type); the float64 reference has an error of the same
 *    form, so FP64 is held to twice the bound.
 *  - trntensorMp2Energy on the B just computed (the reference reads it
 *    back). Bound: every (ia|jb) is a dot product of naux terms, |error|
 *    <= gamma_naux W (W = sum_P |B_iaP||B_jbP|); a term v (2v - v')/D then
 *    moves by at most gamma_naux ((4|v| + |v'|) W + |v| W') / |D| (first
 *    order), summed over all terms (S from the reference); evaluating each
 *    term in float64 and the compensated sum add at most 8 u_64 sum |t|.
 *    FP64: twice that plus the reference's own pairwise sum, log2(N) u_64
 *    sum |t|.
 *  - A 1-core and a 2-core daemon give bitwise the same B and energy, the
 *    latter running both ops as >= 2 shards.
 *  - Bad input: negative and overflowing sizes, short leading dimension,
 *    a pointer past its allocation and a host pointer, complex data type,
 *    energy NULL, orbital energies without a positive gap (reported at the
 *    synchronize, with the offending pair); the daemon keeps serving.
 */
#include <math.h>
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

#include "harness.h"
#include "sparse_util.h"
#include "trnsci/trntensor_chem.h"

static th_daemon one_core, two_cores;
static char tmp_dir[256];

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

#define GUARD 32 /* bytes before and after B */

typedef struct sys {
    int nbf, nocc, nvir, naux, ld, dbl;
    double *co, *cv, *l, *eo, *ev; /* float64 copies of what is uploaded (packed C) */
    void *h_co, *h_cv, *h_l;       /* in the data type, with ld */
} sys;

static void sys_make(sys *s, int nbf, int nocc, int nvir, int naux, int dbl, uint64_t seed) {
    *s = (sys){.nbf = nbf, .nocc = nocc, .nvir = nvir, .naux = naux, .ld = nbf + 3, .dbl = dbl};
    const size_t es = dbl ? 8 : 4;
    s->co = malloc((size_t)(nbf * nocc) * 8);
    s->cv = malloc((size_t)(nbf * nvir) * 8);
    s->l = malloc((size_t)nbf * nbf * naux * 8);
    s->eo = malloc((size_t)nocc * 8);
    s->ev = malloc((size_t)nvir * 8);
    s->h_co = calloc((size_t)(s->ld * nocc), es);
    s->h_cv = calloc((size_t)(s->ld * nvir), es);
    s->h_l = malloc((size_t)nbf * nbf * naux * es);
    uint64_t st = seed;
    for (int j = 0; j < nocc; j++)
        for (int i = 0; i < nbf; i++) {
            su_put(s->h_co, (size_t)(i + j * s->ld), su_uniform(&st), dbl);
            s->co[i + j * nbf] = (double)su_get(s->h_co, (size_t)(i + j * s->ld), dbl);
        }
    for (int j = 0; j < nvir; j++)
        for (int i = 0; i < nbf; i++) {
            su_put(s->h_cv, (size_t)(i + j * s->ld), su_uniform(&st), dbl);
            s->cv[i + j * nbf] = (double)su_get(s->h_cv, (size_t)(i + j * s->ld), dbl);
        }
    for (size_t k = 0; k < (size_t)nbf * nbf * naux; k++) {
        su_put(s->h_l, k, su_uniform(&st) / nbf, dbl);
        s->l[k] = (double)su_get(s->h_l, k, dbl);
    }
    for (int i = 0; i < nocc; i++)
        s->eo[i] = -2.0 + 1.5 * i / nocc + 0.05 * su_uniform(&st);
    for (int a = 0; a < nvir; a++)
        s->ev[a] = 0.3 + 2.0 * a / nvir + 0.05 * su_uniform(&st);
}

static void sys_free(sys *s) {
    free(s->co);
    free(s->cv);
    free(s->l);
    free(s->eo);
    free(s->ev);
    free(s->h_co);
    free(s->h_cv);
    free(s->h_l);
}

/* Runs AoToMo and Mp2Energy on the daemon the process is connected to.
 * Returns B (nocc*nvir*naux elements of the type) and sets *energy. With
 * check, compares both with numpy. */
static void *run_sys(const sys *s, int check, double *energy, double *worst_b, double *worst_e) {
    const size_t es = s->dbl ? 8 : 4;
    const trnsciDataType_t t = s->dbl ? TRNSCI_R_64F : TRNSCI_R_32F;
    const size_t nb = (size_t)s->nocc * s->nvir * s->naux;
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    void *d_co = su_dev_put(s->h_co, (size_t)(s->ld * s->nocc) * es);
    void *d_cv = su_dev_put(s->h_cv, (size_t)(s->ld * s->nvir) * es);
    void *d_l = su_dev_put(s->h_l, (size_t)s->nbf * s->nbf * s->naux * es);
    unsigned char *hb = malloc(nb * es + 2 * GUARD);
    memset(hb, 0xa5, nb * es + 2 * GUARD);
    unsigned char *d_b = su_dev_put(hb, nb * es + 2 * GUARD);
    double *d_eo = su_dev_put(s->eo, (size_t)s->nocc * 8),
           *d_ev = su_dev_put(s->ev, (size_t)s->nvir * 8);
    double *d_e = su_dev_put(&(double){NAN}, 8);
    assert_int_equal(trntensorAoToMo(h, t, s->nbf, s->nocc, s->nvir, s->naux, d_co, s->ld, d_cv,
                                     s->ld, d_l, d_b + GUARD),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(
        trntensorMp2Energy(h, t, s->nocc, s->nvir, s->naux, d_b + GUARD, d_eo, d_ev, d_e),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    unsigned char *got = su_dev_get(d_b, nb * es + 2 * GUARD);
    for (size_t k = 0; k < GUARD; k++)
        if (got[k] != 0xa5 || got[GUARD + nb * es + k] != 0xa5)
            fail_msg("aoToMo wrote outside B (guard byte %zu)", k);
    void *b = malloc(nb * es);
    memcpy(b, got + GUARD, nb * es);
    free(got);
    assert_int_equal(trnsciMemcpy(energy, d_e, 8, trnsciMemcpyDeviceToHost), trnsciSuccess);
    if (check) {
        char meta[128];
        snprintf(meta, sizeof(meta), "%d %d %d %d\n", s->nbf, s->nocc, s->nvir, s->naux);
        su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
        su_write_file(tmp_dir, "Cocc", s->co, (size_t)(s->nbf * s->nocc) * 8);
        su_write_file(tmp_dir, "Cvir", s->cv, (size_t)(s->nbf * s->nvir) * 8);
        su_write_file(tmp_dir, "L", s->l, (size_t)s->nbf * s->nbf * s->naux * 8);
        su_run_ref(PYTHON3, CHEM_REF_PY, "aotomo", tmp_dir);
        size_t n1, n2;
        double *ref = su_read_file(tmp_dir, "B.ref", &n1),
               *mag = su_read_file(tmp_dir, "Bmag.ref", &n2);
        assert_int_equal(n1, nb * 8);
        assert_int_equal(n2, nb * 8);
        const double bound = (double)su_gamma(s->dbl, 2.0L * s->nbf) * (s->dbl ? 2.0 : 1.0);
        double *bd = malloc(nb * 8);
        for (size_t k = 0; k < nb; k++) {
            bd[k] = (double)su_get(b, k, s->dbl);
            const double err = fabs(bd[k] - ref[k]);
            if (err > bound * mag[k])
                fail_msg("B[%zu] = %.17g, numpy %.17g: error %g > bound %g", k, bd[k], ref[k], err,
                         bound * mag[k]);
            const double rel = mag[k] > 0 ? err / mag[k] : 0.0;
            *worst_b = rel > *worst_b ? rel : *worst_b;
        }
        free(ref);
        free(mag);
        snprintf(meta, sizeof(meta), "%d %d %d\n", s->nocc, s->nvir, s->naux);
        su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
        su_write_file(tmp_dir, "B", bd, nb * 8);
        su_write_file(tmp_dir, "eo", s->eo, (size_t)s->nocc * 8);
        su_write_file(tmp_dir, "ev", s->ev, (size_t)s->nvir * 8);
        su_run_ref(PYTHON3, CHEM_REF_PY, "mp2", tmp_dir);
        char *txt = su_read_file(tmp_dir, "E.txt", &n1);
        double e_ref, big_s, tabs;
        assert_int_equal(sscanf(txt, "%lf %lf %lf", &e_ref, &big_s, &tabs), 3);
        free(txt);
        free(bd);
        const double u64 = 0x1p-53;
        const double nterms = (double)s->nocc * s->nocc * s->nvir * s->nvir;
        double tol = (double)su_gamma(s->dbl, s->naux) * big_s + 8.0 * u64 * tabs;
        if (s->dbl)
            tol = 2.0 * tol + ceil(log2(nterms)) * u64 * tabs;
        const double err = fabs(*energy - e_ref);
        if (!(err <= tol))
            fail_msg("mp2Energy %s: E = %.17g, numpy %.17g: error %g > bound %g",
                     s->dbl ? "FP64" : "FP32", *energy, e_ref, err, tol);
        *worst_e = err > *worst_e ? err : *worst_e;
        printf("# %s nbf %d nocc %d nvir %d naux %d: E = %.12f, |E - numpy| = %.3g (bound %.3g)\n",
               s->dbl ? "FP64" : "FP32", s->nbf, s->nocc, s->nvir, s->naux, *energy, err, tol);
    }
    trnsciFree(d_co);
    trnsciFree(d_cv);
    trnsciFree(d_l);
    trnsciFree(d_b);
    trnsciFree(d_eo);
    trnsciFree(d_ev);
    trnsciFree(d_e);
    free(hb);
    trntensorDestroy(h);
    return b;
}

static void test_numpy(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    for (int dbl = 0; dbl < 2; dbl++) {
        sys s;
        sys_make(&s, 20, 4, 16, 50, dbl, 101 + (uint64_t)dbl);
        double e = 0, wb = 0, we = 0;
        free(run_sys(&s, 1, &e, &wb, &we));
        printf("# worst |B - numpy| / Bmag = %.3g\n", wb);
        sys_free(&s);
    }
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* Both ops on a daemon; fails unless it ran them as >= min_shards shards. */
static void *on_daemon(const char *addr, const sys *s, uint64_t min_shards, double *e) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    const uint64_t before = su_shards_run(addr);
    double wb = 0, we = 0;
    void *b = run_sys(s, 0, e, &wb, &we);
    if (su_shards_run(addr) - before < min_shards)
        fail_msg("%s ran fewer than %llu shards", addr, (unsigned long long)min_shards);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return b;
}

static void test_cores(void **state) {
    (void)state;
    sys s;
    /* 2 * 300 * (64^2 * 10 + 64 * 10 * 54) = 45 MFLOP of AoToMo in 3 P
     * blocks, 97 MFLOP of Mp2Energy: both split on 2 cores. */
    sys_make(&s, 64, 10, 54, 300, 1, 7);
    double e1 = 0, e2 = 0;
    void *b1 = on_daemon(one_core.unix_addr, &s, 2, &e1);
    void *b2 = on_daemon(two_cores.unix_addr, &s, 4, &e2);
    if (memcmp(b1, b2, (size_t)s.nocc * s.nvir * s.naux * 8) != 0)
        fail_msg("aoToMo: 2 cores differ from 1 core");
    if (memcmp(&e1, &e2, 8) != 0)
        fail_msg("mp2Energy: 2 cores %.17g differ from 1 core %.17g", e2, e1);
    free(b1);
    free(b2);
    sys_free(&s);
}

static void test_bad_input(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int nbf = 4, nocc = 2, nvir = 2, naux = 3;
    double *c, *l, *b, *eo, *ev, *e;
    assert_int_equal(trnsciMalloc((void **)&c, nbf * 4 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&l, nbf * nbf * naux * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&b, nocc * nvir * naux * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&eo, 2 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&ev, 2 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&e, 8), trnsciSuccess);
    assert_int_equal(trnsciMemset(c, 0, nbf * 4 * 8), trnsciSuccess);
    assert_int_equal(trnsciMemset(l, 0, nbf * nbf * naux * 8), trnsciSuccess);
    const trnsciDataType_t t = TRNSCI_R_64F;
    assert_int_equal(trntensorAoToMo(h, t, -1, nocc, nvir, naux, c, nbf, c + 8, nbf, l, b),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("nbf=-1 is outside 0..");
    assert_int_equal(
        trntensorAoToMo(h, t, nbf, (int64_t)1 << 40, nvir, naux, c, nbf, c + 8, nbf, l, b),
        TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("nocc=1099511627776 is outside 0..");
    assert_int_equal(trntensorAoToMo(h, t, nbf, nocc, nvir, naux, c, nbf - 1, c + 8, nbf, l, b),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("ldCocc=3 must be >= max(1, nbf) = 4");
    assert_int_equal(trntensorAoToMo(h, t, nbf, nocc, nvir, naux, c, nbf, c + 9, nbf, l, b),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("aoToMo: Cvir");
    double host[64];
    assert_int_equal(trntensorAoToMo(h, t, nbf, nocc, nvir, naux, c, nbf, c + 8, nbf, host, b),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("Lpq");
    assert_int_equal(
        trntensorAoToMo(h, TRNSCI_C_64F, nbf, nocc, nvir, naux, c, nbf, c + 8, nbf, l, b),
        TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("dataType");
    assert_int_equal(trntensorAoToMo(NULL, t, nbf, nocc, nvir, naux, c, nbf, c + 8, nbf, l, b),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    assert_int_equal(trntensorMp2Energy(h, t, nocc, nvir, naux, b, eo, ev, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("energy is NULL");
    assert_int_equal(trntensorMp2Energy(h, t, nocc, nvir + 1, naux, b, eo, ev, e),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("mp2Energy: B");
    /* A valid call, then orbital energies with a zero gap: the op fails at
     * the synchronize with the pair named. */
    assert_int_equal(trntensorAoToMo(h, t, nbf, nocc, nvir, naux, c, nbf, c + 8, nbf, l, b),
                     TRNTENSOR_STATUS_SUCCESS);
    const double occ[2] = {-1.0, -0.5}, vir[2] = {-0.5, 0.7};
    assert_int_equal(trnsciMemcpy(eo, occ, 16, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(ev, vir, 16, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trntensorMp2Energy(h, t, nocc, nvir, naux, b, eo, ev, e),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("epsVir[0] = -0.5 must be above epsOcc[1] = -0.5");
    /* Still serving: a good gap gives E = 0 for B = 0. */
    const double vir_ok[2] = {0.5, 0.7};
    assert_int_equal(trnsciMemcpy(ev, vir_ok, 16, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trntensorMp2Energy(h, t, nocc, nvir, naux, b, eo, ev, e),
                     TRNTENSOR_STATUS_SUCCESS);
    double en = NAN;
    assert_int_equal(trnsciMemcpy(&en, e, 8, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(en == 0.0);
    double *ptrs[] = {c, l, b, eo, ev, e};
    for (int i = 0; i < 6; i++)
        assert_int_equal(trnsciFree(ptrs[i]), trnsciSuccess);
    trntensorDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-chem-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_numpy, local),     SU_ON(test_numpy, grpc),     SU_ONCE(test_cores),
        SU_ON(test_bad_input, local), SU_ON(test_bad_input, grpc),
    };
    int failed = cmocka_run_group_tests_name("tensor_chem", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
