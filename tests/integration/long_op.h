/*
 * long_op.h — a long-running op for tests that need a stream to be busy: a
 * 2048³ SGEMM (about a second on one core), queued on a chosen stream.
 * Include after cmocka.h and the trnsci headers.
 */
#ifndef TRN_TESTS_LONG_OP_H
#define TRN_TESTS_LONG_OP_H

#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

enum { LONG_N = 2048 };

typedef struct long_op {
    float *a, *c;
    trnblasHandle_t h;
} long_op;

static void long_op_init(long_op *l) {
    const size_t bytes = sizeof(float) * LONG_N * LONG_N;
    assert_int_equal(trnsciMalloc((void **)&l->a, bytes), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&l->c, bytes), trnsciSuccess);
    assert_int_equal(trnblasCreate(&l->h), TRNBLAS_STATUS_SUCCESS);
}

static void long_op_queue(long_op *l, trnsciStream_t s) {
    const float one = 1, zero = 0;
    assert_int_equal(trnblasSetStream(l->h, s), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(l->h, TRNBLAS_OP_N, TRNBLAS_OP_N, LONG_N, LONG_N, LONG_N, &one,
                                  l->a, LONG_N, l->a, LONG_N, &zero, l->c, LONG_N),
                     TRNBLAS_STATUS_SUCCESS);
}

static void long_op_free(long_op *l) {
    assert_int_equal(trnblasDestroy(l->h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(l->a), trnsciSuccess);
    assert_int_equal(trnsciFree(l->c), trnsciSuccess);
}

#endif
