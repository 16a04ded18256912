/*
 * test_tensor_chem.c — trntensor's fused chemistry kernels without a
 * daemon: the validators (daemon/validate_tensor_chem.c) on hand-built
 * AoToMoOp / Mp2EnergyOp against a real session table, and the CPU kernels
 * (kernels/cpu/tensor_chem.c) called shard by shard.
 *
 * Validation, each rule at its boundary: data type (R_32F, R_64F; C_32F
 * refused), sizes 0 .. INT_MAX, ldCocc / ldCvir >= max(1, nbf), extents
 * exactly enough passes and one element short fails, misaligned offsets,
 * 64-bit overflow of the sizes, another session's buffer, energy missing;
 * refs hold one reference per operand on success and none on failure;
 * messages name the call and the argument. Block sizes depend on the sizes
 * only, and the shard rule splits the benchmark-sized ops on two cores.
 *
 * Kernels: small random systems with several P blocks and j chunks, run as
 * 1, 2, 3 and 5 shards: B and the energy bitwise equal to one shard, and
 * both against a naive long-double loop over the definition (B[i,a,P] =
 * sum Cocc Cvir (P|mu nu); E = sum (ia|jb)(2(ia|jb) - (ib|ja))/D). Bound
 * for B: the computed two-stage contraction has |error| <= gamma_{2 nbf}
 * sum |Cocc||Cvir||(P|mu nu)| (two dot products of nbf terms, Higham
 * 3.5), checked with the data type's unit roundoff. Bound for E: each
 * (ia|jb) has |error| <= gamma_naux W, W = sum_P |B_iaP| |B_jbP|; a term
 * t = v (2v - v')/D moves by at most (4|v| + |v'|) dv/|D| + |v| dv'/|D|,
 * bounded with |v|, |v'| <= W_max by 6 W_max gamma_naux W_max / |D|_min per
 * term, plus the float64 term evaluation and compensated sum (8 u_64 sum
 * |t|). Orbital energies with no positive gap fail with a message.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "tests/common/checked_routines.h"

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "kernels/cpu/cpu_kernels.h"
#include "scheduler/sched.h"
#include "validate_fixture.h"

/* ---- AoToMo validation ------------------------------------------------------------ */

typedef struct ao_msg {
    Trnsci__V1__AoToMoOp w;
    Trnsci__V1__BufferRef co, cv, l, b;
    Trnsci__V1__Op op;
} ao_msg;

/* FP64 nbf 5, nocc 2, nvir 3, naux 4 with ld 6, every operand in buffer
 * `buf` at exactly-sized offsets. */
static void ao_init(ao_msg *m, uint64_t buf) {
    trnsci__v1__ao_to_mo_op__init(&m->w);
    trnsci__v1__op__init(&m->op);
    Trnsci__V1__BufferRef *r[] = {&m->co, &m->cv, &m->l, &m->b};
    for (int i = 0; i < 4; i++) {
        trnsci__v1__buffer_ref__init(r[i]);
        r[i]->buffer_id = buf;
    }
    m->w.type = TRNSCI__V1__DATA_TYPE__R_64F;
    m->w.nbf = 5;
    m->w.nocc = 2;
    m->w.nvir = 3;
    m->w.naux = 4;
    m->w.ld_c_occ = m->w.ld_c_vir = 6;
    m->co.offset = 0;    /* (2-1)*6 + 5 = 11 elements */
    m->cv.offset = 1024; /* (3-1)*6 + 5 = 17 */
    m->l.offset = 2048;  /* 100 */
    m->b.offset = 4096;  /* 24 */
    m->w.c_occ = &m->co;
    m->w.c_vir = &m->cv;
    m->w.lpq = &m->l;
    m->w.b = &m->b;
    m->op.kind_case = TRNSCI__V1__OP__KIND_AO_TO_MO;
    m->op.ao_to_mo = &m->w;
}

static void test_ao_to_mo_rules(void **state) {
    fx *f = *state;
    const uint64_t buf = vf_alloc(f->s1, 4096 + 24 * 8);
    ao_msg m;
    ao_init(&m, buf);
    vf_expect_ok(f, f->s1, &m.op, 4);
    assert_int_equal(f->desc.kind, TRN_OP_AO_TO_MO);
    /* B exactly fits: one element more does not. */
    m.w.naux = 5; /* B 30 elements: past the buffer; Lpq 125 fits */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "aoToMo: B");
    ao_init(&m, buf);
    m.l.offset = 2048 + 8 * 28; /* Lpq would end past B's start: still inside */
    vf_expect_ok(f, f->s1, &m.op, 4);
    ao_init(&m, buf);
    m.co.offset = 4;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "aoToMo: Cocc");
    ao_init(&m, buf);
    m.w.ld_c_occ = 4;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT,
                  "ldCocc=4 must be >= max(1, nbf) = 5");
    ao_init(&m, buf);
    m.w.ld_c_vir = (int64_t)INT_MAX + 1;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "ldCvir");
    ao_init(&m, buf);
    m.w.nocc = -1;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "nocc=-1 is outside 0..");
    ao_init(&m, buf);
    m.w.type = TRNSCI__V1__DATA_TYPE__C_32F;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "dataType 3 must be R_32F or R_64F");
    ao_init(&m, buf);
    m.w.nbf = m.w.naux = m.w.nocc = m.w.nvir = INT_MAX;
    m.w.ld_c_occ = m.w.ld_c_vir = INT_MAX;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "overflow");
    /* Another session's buffer. */
    ao_init(&m, buf);
    vf_expect_err(f, f->s2, &m.op, TRN_WIRE_INVALID_ARGUMENT, "aoToMo: Cocc");
    /* nbf = 0: only B (cleared); nvir = 0: nothing. */
    ao_init(&m, buf);
    m.w.nbf = 0;
    m.w.ld_c_occ = m.w.ld_c_vir = 1;
    vf_expect_ok(f, f->s1, &m.op, 1);
    ao_init(&m, buf);
    m.w.nvir = 0;
    vf_expect_ok(f, f->s1, &m.op, 0);
    trn_session_free_buffer(f->s1, buf);
}

/* Block sizes follow the sizes only: naux = 666 makes 6 equal blocks of
 * <= 128 functions. */
static void test_ao_to_mo_blocks(void **state) {
    fx *f = *state;
    const int64_t nbf = 8, nocc = 2, nvir = 6, naux = 666;
    const uint64_t cbytes = (uint64_t)(nbf * nbf * 4), lbytes = (uint64_t)(nbf * nbf * naux * 4);
    const uint64_t bbytes = (uint64_t)(nocc * nvir * naux * 4);
    const uint64_t bc = vf_alloc(f->s1, cbytes), bl = vf_alloc(f->s1, lbytes),
                   bb = vf_alloc(f->s1, bbytes);
    ao_msg m;
    ao_init(&m, bc);
    m.w.type = TRNSCI__V1__DATA_TYPE__R_32F;
    m.w.nbf = nbf;
    m.w.nocc = nocc;
    m.w.nvir = nvir;
    m.w.naux = naux;
    m.w.ld_c_occ = m.w.ld_c_vir = nbf;
    m.co.offset = 0;
    m.cv.offset = (uint64_t)(nocc * nbf * 4);
    m.l.buffer_id = bl;
    m.l.offset = 0;
    m.b.buffer_id = bb;
    m.b.offset = 0;
    memset(&f->desc, 0, sizeof(f->desc));
    assert_int_equal(trn_validate_op(f->s1, &m.op, &f->desc, &f->refs, f->err, sizeof(f->err)),
                     TRN_WIRE_OK);
    assert_int_equal(f->desc.u.ao_to_mo.p_block, 111);
    trn_op_refs_release(&f->refs);
    trn_session_free_buffer(f->s1, bc);
    trn_session_free_buffer(f->s1, bl);
    trn_session_free_buffer(f->s1, bb);
}

/* The shard rule: the benchmark system (nbf 264, nocc 21, nvir 243, naux
 * 666) splits on two cores, a tiny one does not. */
static void test_shard_counts(void **state) {
    (void)state;
    trn_op_desc d = {.kind = TRN_OP_AO_TO_MO};
    d.u.ao_to_mo = (trn_ao_to_mo_desc){.type = TRN_DTYPE_R64F,
                                       .nbf = 264,
                                       .nocc = 21,
                                       .nvir = 243,
                                       .naux = 666,
                                       .lpq = &d,
                                       .p_block = 111};
    assert_int_equal(trn_sched_shard_count(&d, 2), 2);
    assert_int_equal(trn_sched_shard_count(&d, 1), 1);
    d.u.ao_to_mo.nbf = 8; /* 2 * 666 * (64 + 8 * 2) flops: one shard */
    d.u.ao_to_mo.nocc = 1;
    d.u.ao_to_mo.nvir = 2;
    assert_int_equal(trn_sched_shard_count(&d, 2), 1);
    trn_op_desc e = {.kind = TRN_OP_MP2_ENERGY};
    e.u.mp2_energy =
        (trn_mp2_energy_desc){.type = TRN_DTYPE_R64F, .nocc = 21, .nvir = 243, .naux = 666};
    assert_int_equal(trn_sched_shard_count(&e, 2), 2);
    e.u.mp2_energy.nocc = 1; /* one orbital: one shard */
    assert_int_equal(trn_sched_shard_count(&e, 2), 1);
}

/* ---- Mp2Energy validation ---------------------------------------------------------- */

typedef struct mp2_msg {
    Trnsci__V1__Mp2EnergyOp w;
    Trnsci__V1__BufferRef b, eo, ev, e;
    Trnsci__V1__Op op;
} mp2_msg;

/* FP32 nocc 2, nvir 3, naux 4: B 24 floats at 0, epsOcc at 1024, epsVir at
 * 2048, energy at 4096. */
static void mp2_init(mp2_msg *m, uint64_t buf) {
    trnsci__v1__mp2_energy_op__init(&m->w);
    trnsci__v1__op__init(&m->op);
    Trnsci__V1__BufferRef *r[] = {&m->b, &m->eo, &m->ev, &m->e};
    const uint64_t off[] = {0, 1024, 2048, 4096};
    for (int i = 0; i < 4; i++) {
        trnsci__v1__buffer_ref__init(r[i]);
        r[i]->buffer_id = buf;
        r[i]->offset = off[i];
    }
    m->w.type = TRNSCI__V1__DATA_TYPE__R_32F;
    m->w.nocc = 2;
    m->w.nvir = 3;
    m->w.naux = 4;
    m->w.b = &m->b;
    m->w.eps_occ = &m->eo;
    m->w.eps_vir = &m->ev;
    m->w.energy = &m->e;
    m->op.kind_case = TRNSCI__V1__OP__KIND_MP2_ENERGY;
    m->op.mp2_energy = &m->w;
}

static void test_mp2_rules(void **state) {
    fx *f = *state;
    const uint64_t buf = vf_alloc(f->s1, 4096 + 8);
    mp2_msg m;
    mp2_init(&m, buf);
    vf_expect_ok(f, f->s1, &m.op, 4);
    mp2_init(&m, buf);
    m.e.offset = 4092; /* misaligned for a double */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: energy");
    mp2_init(&m, buf);
    m.e.offset = 4096 + 8; /* past the end */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: energy");
    mp2_init(&m, buf);
    m.w.energy = NULL;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: energy");
    mp2_init(&m, buf);
    m.ev.offset = 4096 - 16; /* 3 doubles: one short of fitting before energy? no: inside */
    vf_expect_ok(f, f->s1, &m.op, 4);
    mp2_init(&m, buf);
    m.ev.offset = 4096 + 8 - 16; /* 3 doubles from here end 8 bytes past the buffer */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: epsVir");
    mp2_init(&m, buf);
    m.b.offset = 4096 + 8 - 24 * 4 + 4; /* one float short */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: B");
    mp2_init(&m, buf);
    m.w.naux = (int64_t)INT_MAX + 1;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "naux=2147483648 is outside 0..");
    mp2_init(&m, buf);
    m.w.type = TRNSCI__V1__DATA_TYPE__DATA_TYPE_UNSPECIFIED;
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_INVALID_ARGUMENT, "dataType 0");
    mp2_init(&m, buf);
    vf_expect_err(f, f->s2, &m.op, TRN_WIRE_INVALID_ARGUMENT, "mp2Energy: energy");
    mp2_init(&m, buf);
    m.w.nvir = 60000; /* nvir^2 floats over 1 GiB: refused before any extent */
    vf_expect_err(f, f->s1, &m.op, TRN_WIRE_UNIMPLEMENTED, "scratch limit");
    /* No pair: only energy (written 0). */
    mp2_init(&m, buf);
    m.w.nocc = 0;
    vf_expect_ok(f, f->s1, &m.op, 1);
    trn_session_free_buffer(f->s1, buf);
}

/* ---- kernels ----------------------------------------------------------------------- */

static double urand(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double get(const void *p, size_t i, int dbl) {
    return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static void put(void *p, size_t i, double v, int dbl) {
    if (dbl)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

static double gamma_n(double n, int dbl) {
    const double u = dbl ? 0x1p-53 : 0x1p-24;
    return n * u / (1.0 - n * u);
}

static void run_case(int dbl) {
    const int nbf = 9, nocc = 5, nvir = 7, naux = 11, ld = 10;
    const size_t es = dbl ? 8 : 4;
    uint64_t seed = dbl ? 7 : 9;
    void *co = malloc((size_t)(ld * nocc) * es), *cv = malloc((size_t)(ld * nvir) * es);
    void *l = malloc((size_t)(nbf * nbf * naux) * es);
    const size_t nb = (size_t)(nocc * nvir * naux);
    void *b1 = malloc(nb * es), *bn = malloc(nb * es);
    for (int i = 0; i < ld * nocc; i++)
        put(co, (size_t)i, urand(&seed), dbl);
    for (int i = 0; i < ld * nvir; i++)
        put(cv, (size_t)i, urand(&seed), dbl);
    for (int i = 0; i < nbf * nbf * naux; i++)
        put(l, (size_t)i, urand(&seed), dbl);
    trn_kmsg km;
    trn_kmsg_init(&km);
    trn_ao_to_mo_desc d = {.type = dbl ? TRN_DTYPE_R64F : TRN_DTYPE_R32F,
                           .nbf = nbf,
                           .nocc = nocc,
                           .nvir = nvir,
                           .naux = naux,
                           .c_occ = co,
                           .ld_c_occ = ld,
                           .c_vir = cv,
                           .ld_c_vir = ld,
                           .lpq = l,
                           .b = b1,
                           .p_block = 3}; /* blocks 3, 3, 3, 2 */
    assert_int_equal(trn_cpu_ao_to_mo(&d, &km, 0, 1), TRN_KSTATUS_OK);
    /* Sharded: the same bits. */
    const int counts[] = {2, 3, 5};
    for (int c = 0; c < 3; c++) {
        memset(bn, 0xff, nb * es);
        d.b = bn;
        for (int s = 0; s < counts[c]; s++)
            assert_int_equal(trn_cpu_ao_to_mo(&d, &km, s, counts[c]), TRN_KSTATUS_OK);
        assert_memory_equal(b1, bn, nb * es);
    }
    /* Against the definition in long double. */
    for (int i = 0; i < nocc; i++)
        for (int a = 0; a < nvir; a++)
            for (int p = 0; p < naux; p++) {
                long double ref = 0.0L, mag = 0.0L;
                for (int mu = 0; mu < nbf; mu++)
                    for (int nu = 0; nu < nbf; nu++) {
                        const long double t = (long double)get(co, (size_t)(mu + i * ld), dbl) *
                                              get(cv, (size_t)(nu + a * ld), dbl) *
                                              get(l, (size_t)(mu + nu * nbf + p * nbf * nbf), dbl);
                        ref += t;
                        mag += fabsl(t);
                    }
                const size_t at = (size_t)(p + a * naux + i * naux * nvir);
                const double err = fabs((double)((long double)get(b1, at, dbl) - ref));
                if (err > gamma_n(2 * nbf, dbl) * (double)mag)
                    fail_msg("B[%d,%d,%d]: error %g > bound %g", i, a, p, err,
                             gamma_n(2 * nbf, dbl) * (double)mag);
            }

    /* MP2 on B (b1) with a positive gap. */
    double eo[5], ev[7], energy1 = 0.0, energyn = 0.0;
    for (int i = 0; i < nocc; i++)
        eo[i] = -1.0 - 0.3 * i + 0.01 * urand(&seed);
    for (int a = 0; a < nvir; a++)
        ev[a] = 0.2 + 0.25 * a + 0.01 * urand(&seed);
    trn_mp2_partials *part = calloc(1, sizeof(*part) + (size_t)(2 * nocc) * sizeof(double));
    trn_mp2_energy_desc m = {.type = d.type,
                             .nocc = nocc,
                             .nvir = nvir,
                             .naux = naux,
                             .b = b1,
                             .eps_occ = eo,
                             .eps_vir = ev,
                             .energy = &energy1,
                             .j_block = 2,
                             .partials = part};
    assert_int_equal(trn_cpu_mp2_energy(&m, &km, 0, 1), TRN_KSTATUS_OK);
    for (int c = 0; c < 3; c++) {
        energyn = NAN;
        m.energy = &energyn;
        for (int s = counts[c] - 1; s >= 0; s--) /* any order of finishing */
            assert_int_equal(trn_cpu_mp2_energy(&m, &km, s, counts[c]), TRN_KSTATUS_OK);
        assert_memory_equal(&energy1, &energyn, sizeof(double));
    }
    long double eref = 0.0L, wmax = 0.0L, tabs = 0.0L;
    double dmin = INFINITY;
    for (int i = 0; i < nocc; i++)
        for (int j = 0; j < nocc; j++)
            for (int a = 0; a < nvir; a++)
                for (int bb = 0; bb < nvir; bb++) {
                    long double iajb = 0.0L, ibja = 0.0L, w = 0.0L;
                    for (int p = 0; p < naux; p++) {
                        const long double x =
                            get(b1, (size_t)(p + a * naux + i * naux * nvir), dbl);
                        const long double y =
                            get(b1, (size_t)(p + bb * naux + j * naux * nvir), dbl);
                        const long double x2 =
                            get(b1, (size_t)(p + bb * naux + i * naux * nvir), dbl);
                        const long double y2 =
                            get(b1, (size_t)(p + a * naux + j * naux * nvir), dbl);
                        iajb += x * y;
                        ibja += x2 * y2;
                        w += fabsl(x * y);
                    }
                    const long double den = (long double)eo[i] + eo[j] - ev[a] - ev[bb];
                    const long double t = iajb * (2.0L * iajb - ibja) / den;
                    eref += t;
                    tabs += fabsl(t);
                    wmax = w > wmax ? w : wmax;
                    dmin = fabs((double)den) < dmin ? fabs((double)den) : dmin;
                }
    const double npairs = (double)nocc * nocc * nvir * nvir;
    const double bound = npairs * 6.0 * (double)(wmax * wmax) * gamma_n(naux, dbl) / dmin +
                         8.0 * 0x1p-53 * (double)tabs;
    const double err = fabs((double)((long double)energy1 - eref));
    if (err > bound)
        fail_msg("E = %.17g, reference %.17Lg: error %g > bound %g", energy1, eref, err, bound);

    /* No positive gap: a clear failure, bad input. */
    ev[3] = eo[2];
    trn_kmsg_init(&km);
    assert_int_equal(trn_cpu_mp2_energy(&m, &km, 0, 1), TRN_KSTATUS_FAILED);
    assert_true(km.set && km.bad_input);
    assert_non_null(strstr(km.text, "epsVir[3]"));
    ev[3] = NAN;
    trn_kmsg_init(&km);
    assert_int_equal(trn_cpu_mp2_energy(&m, &km, 0, 1), TRN_KSTATUS_FAILED);
    assert_non_null(strstr(km.text, "epsVir[3] is not finite"));
    free(part);
    free(co);
    free(cv);
    free(l);
    free(b1);
    free(bn);
}

static void test_kernels_float(void **state) {
    (void)state;
    run_case(0);
}

static void test_kernels_double(void **state) {
    (void)state;
    run_case(1);
}

/* nbf = 0 clears B; no pair writes E = 0. */
static void test_kernels_empty(void **state) {
    (void)state;
    double b[6] = {1, 2, 3, 4, 5, 6}, e = 5.0;
    trn_kmsg km;
    trn_kmsg_init(&km);
    trn_ao_to_mo_desc d = {
        .type = TRN_DTYPE_R64F, .nbf = 0, .nocc = 1, .nvir = 2, .naux = 3, .b = b, .p_block = 3};
    assert_int_equal(trn_cpu_ao_to_mo(&d, &km, 0, 1), TRN_KSTATUS_OK);
    for (int i = 0; i < 6; i++)
        assert_true(b[i] == 0.0);
    trn_mp2_energy_desc m = {.type = TRN_DTYPE_R64F, .nocc = 0, .energy = &e};
    assert_int_equal(trn_cpu_mp2_energy(&m, &km, 0, 1), TRN_KSTATUS_OK);
    assert_true(e == 0.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ao_to_mo_rules, vf_setup, vf_teardown),
        cmocka_unit_test_setup_teardown(test_ao_to_mo_blocks, vf_setup, vf_teardown),
        cmocka_unit_test(test_shard_counts),
        cmocka_unit_test_setup_teardown(test_mp2_rules, vf_setup, vf_teardown),
        cmocka_unit_test(test_kernels_float),
        cmocka_unit_test(test_kernels_double),
        cmocka_unit_test(test_kernels_empty),
    };
    return cmocka_run_group_tests(tests, trn_test_install_checked_routines, NULL);
}
