/*
 * test_wire.c — the wire contract: proto/trnsci/v1/trnsci.proto through the
 * generated protobuf-c code, and proto/trnsci_wire.h.
 *
 * Rules checked:
 *  - a SubmitRequest carrying a GemmOp packs and unpacks to equal fields;
 *  - protobuf encoding, byte for byte: int64 is a two's-complement varint
 *    (-5 takes 10 bytes), so out-of-range dimensions (-5, 3e9, INT64_MIN)
 *    arrive intact for validation; fixed64 is 8 little-endian bytes; proto3
 *    scalars at their default are not sent;
 *  - malformed input (an unterminated varint such as ff ff ff, a truncated
 *    message, an over-long varint, a length beyond the end, an invalid wire
 *    type) does not unpack (NULL);
 *  - unknown fields of every wire type, top-level or nested, are skipped
 *    (forward compatibility: fields are only ever added);
 *  - two members of one oneof on the wire: the last one wins;
 *  - trnsci_wire.h: the method paths are the service's methods in order, and
 *    the status codes equal gRPC's.
 */
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
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

#include <grpc/status.h>

/* ---- a tiny independent encoder for hand-built messages ---------------------- */

typedef struct wbuf {
    uint8_t b[1024];
    size_t n;
} wbuf;

static void put_byte(wbuf *w, uint8_t x) {
    assert_true(w->n < sizeof(w->b));
    w->b[w->n++] = x;
}

static void put_varint(wbuf *w, uint64_t v) {
    while (v >= 0x80) {
        put_byte(w, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put_byte(w, (uint8_t)v);
}

static void put_tag(wbuf *w, uint32_t field, uint32_t wire_type) {
    put_varint(w, ((uint64_t)field << 3) | wire_type);
}

static void put_bytes(wbuf *w, const void *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        put_byte(w, ((const uint8_t *)p)[i]);
}

static void put_len_field(wbuf *w, uint32_t field, const wbuf *inner) {
    put_tag(w, field, 2);
    put_varint(w, inner->n);
    put_bytes(w, inner->b, inner->n);
}

/* One unknown field of each wire type: varint, fixed64, length-delimited,
 * fixed32. Field numbers far beyond any in the schema. */
static void put_unknown_fields(wbuf *w) {
    put_tag(w, 4099, 0); /* a number no message uses */
    put_varint(w, 42);
    put_tag(w, 100, 1);
    put_bytes(w, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    put_tag(w, 101, 2);
    put_varint(w, 3);
    put_bytes(w, "abc", 3);
    put_tag(w, 102, 5);
    put_bytes(w, "\x09\x0a\x0b\x0c", 4);
}

static size_t pack_gemm(const Trnsci__V1__GemmOp *g, wbuf *w) {
    const size_t n = trnsci__v1__gemm_op__get_packed_size(g);
    assert_true(n <= sizeof(w->b));
    assert_int_equal(trnsci__v1__gemm_op__pack(g, w->b), n);
    w->n = n;
    return n;
}

/* ---- a full request --------------------------------------------------------------- */

typedef struct submit_msg {
    Trnsci__V1__SubmitRequest req;
    Trnsci__V1__Op op;
    Trnsci__V1__GemmOp g;
    Trnsci__V1__Scalar alpha, beta;
    Trnsci__V1__BufferRef a, b, c;
} submit_msg;

/* Every field set to a non-default value. */
static void submit_init(submit_msg *q) {
    const Trnsci__V1__SubmitRequest req = TRNSCI__V1__SUBMIT_REQUEST__INIT;
    const Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    const Trnsci__V1__GemmOp g = TRNSCI__V1__GEMM_OP__INIT;
    const Trnsci__V1__Scalar sc = TRNSCI__V1__SCALAR__INIT;
    const Trnsci__V1__BufferRef br = TRNSCI__V1__BUFFER_REF__INIT;
    q->req = req;
    q->op = op;
    q->g = g;
    q->alpha = q->beta = sc;
    q->a = q->b = q->c = br;
    q->req.session_id = 0x0123456789abcdefULL;
    q->req.stream_id = 7;
    q->req.op = &q->op;
    q->op.kind_case = TRNSCI__V1__OP__KIND_GEMM;
    q->op.gemm = &q->g;
    q->g.type = TRNSCI__V1__DATA_TYPE__C_64F;
    q->g.transa = TRNSCI__V1__OPERATION__OP_T;
    q->g.transb = TRNSCI__V1__OPERATION__OP_C;
    q->g.m = -5;
    q->g.n = 3000000000LL;
    q->g.k = INT64_MIN;
    q->g.lda = INT64_MAX;
    q->g.ldb = 1;
    q->g.ldc = -1;
    q->alpha.re = 1.5;
    q->alpha.im = -2.25;
    q->beta.re = -0.0;
    q->beta.im = 1e-300;
    q->g.alpha = &q->alpha;
    q->g.beta = &q->beta;
    q->a.buffer_id = 3;
    q->a.offset = 128;
    q->b.buffer_id = UINT64_MAX;
    q->b.offset = UINT64_MAX - 1;
    q->c.buffer_id = 1;
    q->c.offset = 0;
    q->g.a = &q->a;
    q->g.b = &q->b;
    q->g.c = &q->c;
}

/* Asserts r carries exactly what submit_init put in. */
static void check_submit(const Trnsci__V1__SubmitRequest *r) {
    assert_non_null(r);
    assert_int_equal(r->session_id, 0x0123456789abcdefULL);
    assert_int_equal(r->stream_id, 7);
    assert_non_null(r->op);
    assert_int_equal(r->op->kind_case, TRNSCI__V1__OP__KIND_GEMM);
    const Trnsci__V1__GemmOp *g = r->op->gemm;
    assert_non_null(g);
    assert_int_equal(g->type, TRNSCI__V1__DATA_TYPE__C_64F);
    assert_int_equal(g->transa, TRNSCI__V1__OPERATION__OP_T);
    assert_int_equal(g->transb, TRNSCI__V1__OPERATION__OP_C);
    assert_true(g->m == -5);
    assert_true(g->n == 3000000000LL);
    assert_true(g->k == INT64_MIN);
    assert_true(g->lda == INT64_MAX);
    assert_true(g->ldb == 1);
    assert_true(g->ldc == -1);
    assert_non_null(g->alpha);
    assert_true(g->alpha->re == 1.5 && g->alpha->im == -2.25);
    assert_non_null(g->beta);
    assert_true(g->beta->im == 1e-300);
    assert_non_null(g->a);
    assert_int_equal(g->a->buffer_id, 3);
    assert_int_equal(g->a->offset, 128);
    assert_non_null(g->b);
    assert_int_equal(g->b->buffer_id, UINT64_MAX);
    assert_int_equal(g->b->offset, UINT64_MAX - 1);
    assert_non_null(g->c);
    assert_int_equal(g->c->buffer_id, 1);
    assert_int_equal(g->c->offset, 0);
}

static uint8_t *pack_submit(const Trnsci__V1__SubmitRequest *r, size_t *len) {
    *len = trnsci__v1__submit_request__get_packed_size(r);
    uint8_t *buf = malloc(*len);
    assert_non_null(buf);
    assert_int_equal(trnsci__v1__submit_request__pack(r, buf), *len);
    return buf;
}

/* Rule: pack then unpack gives back every field. */
static void test_submit_roundtrip(void **state) {
    (void)state;
    submit_msg q;
    submit_init(&q);
    size_t len;
    uint8_t *buf = pack_submit(&q.req, &len);
    Trnsci__V1__SubmitRequest *r = trnsci__v1__submit_request__unpack(NULL, len, buf);
    check_submit(r);
    trnsci__v1__submit_request__free_unpacked(r, NULL);
    free(buf);
}

/* Rule: the encoding itself, byte for byte (protobuf encoding spec). */
static void test_encoding_exact_bytes(void **state) {
    (void)state;
    wbuf w;
    Trnsci__V1__GemmOp g = TRNSCI__V1__GEMM_OP__INIT;

    /* All defaults: proto3 sends nothing. */
    assert_int_equal(pack_gemm(&g, &w), 0);

    /* m = -5 (field 4, varint): tag 0x20, then 2^64 - 5 as a 10-byte varint. */
    g.m = -5;
    static const uint8_t m_minus5[] = {0x20, 0xfb, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0x01};
    assert_int_equal(pack_gemm(&g, &w), sizeof(m_minus5));
    assert_memory_equal(w.b, m_minus5, sizeof(m_minus5));

    /* n = 3,000,000,000 (field 5): tag 0x28, 7-bit groups 0x00, 0x3c, 0x41,
     * 0x16, 0x0b little end first. */
    g.m = 0;
    g.n = 3000000000LL;
    static const uint8_t n_3e9[] = {0x28, 0x80, 0xbc, 0xc1, 0x96, 0x0b};
    assert_int_equal(pack_gemm(&g, &w), sizeof(n_3e9));
    assert_memory_equal(w.b, n_3e9, sizeof(n_3e9));

    /* Decoding those bytes gives the values back, unclamped. */
    Trnsci__V1__GemmOp *d = trnsci__v1__gemm_op__unpack(NULL, sizeof(m_minus5), m_minus5);
    assert_non_null(d);
    assert_true(d->m == -5 && d->n == 0);
    trnsci__v1__gemm_op__free_unpacked(d, NULL);
    d = trnsci__v1__gemm_op__unpack(NULL, sizeof(n_3e9), n_3e9);
    assert_non_null(d);
    assert_true(d->n == 3000000000LL && d->m == 0);
    trnsci__v1__gemm_op__free_unpacked(d, NULL);

    /* session_id is fixed64 (field 1, wire type 1): tag 0x09 + 8 bytes LE. */
    Trnsci__V1__SubmitRequest r = TRNSCI__V1__SUBMIT_REQUEST__INIT;
    r.session_id = 0x0123456789abcdefULL;
    static const uint8_t sid[] = {0x09, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01};
    uint8_t out[sizeof(sid)];
    assert_int_equal(trnsci__v1__submit_request__get_packed_size(&r), sizeof(sid));
    assert_int_equal(trnsci__v1__submit_request__pack(&r, out), sizeof(sid));
    assert_memory_equal(out, sid, sizeof(sid));
}

/* Rule: an empty message is valid and decodes to the defaults. */
static void test_empty_message(void **state) {
    (void)state;
    static const uint8_t none[1] = {0};
    Trnsci__V1__SubmitRequest *r = trnsci__v1__submit_request__unpack(NULL, 0, none);
    assert_non_null(r);
    assert_int_equal(r->session_id, 0);
    assert_int_equal(r->stream_id, 0);
    assert_null(r->op);
    trnsci__v1__submit_request__free_unpacked(r, NULL);
}

/* Rule: malformed bytes are refused, never half-decoded. */
static void test_garbage_rejected(void **state) {
    (void)state;
    /* A varint tag that never ends. */
    static const uint8_t ff3[] = {0xff, 0xff, 0xff};
    assert_null(trnsci__v1__submit_request__unpack(NULL, sizeof(ff3), ff3));
    assert_null(trnsci__v1__gemm_op__unpack(NULL, sizeof(ff3), ff3));

    /* A varint value of 11 bytes (more than 64 bits). */
    static const uint8_t long_varint[] = {0x20, 0x80, 0x80, 0x80, 0x80, 0x80,
                                          0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    assert_null(trnsci__v1__gemm_op__unpack(NULL, sizeof(long_varint), long_varint));

    /* A length-delimited field claiming more bytes than there are. */
    static const uint8_t long_len[] = {0x1a, 0x10, 0x00};
    assert_null(trnsci__v1__submit_request__unpack(NULL, sizeof(long_len), long_len));

    /* Wire types 6 and 7 do not exist. */
    static const uint8_t wt7[] = {0x0f, 0x00};
    static const uint8_t wt6[] = {0x16, 0x00};
    assert_null(trnsci__v1__submit_request__unpack(NULL, sizeof(wt7), wt7));
    assert_null(trnsci__v1__submit_request__unpack(NULL, sizeof(wt6), wt6));

    /* A fixed64 cut short. */
    static const uint8_t short_fixed[] = {0x09, 0xef, 0xcd, 0xab};
    assert_null(trnsci__v1__submit_request__unpack(NULL, sizeof(short_fixed), short_fixed));

    /* A valid request truncated inside its last field (op), at several
     * points, including one byte short. */
    submit_msg q;
    submit_init(&q);
    size_t len;
    uint8_t *buf = pack_submit(&q.req, &len);
    /* The op field starts after session_id (9 bytes) and stream_id (2). */
    assert_int_equal(buf[11], 0x1a);
    for (size_t cut = 12; cut < len; cut++) {
        Trnsci__V1__SubmitRequest *r = trnsci__v1__submit_request__unpack(NULL, cut, buf);
        if (r) {
            trnsci__v1__submit_request__free_unpacked(r, NULL);
            fail_msg("request truncated to %zu of %zu bytes was accepted", cut, len);
        }
    }
    free(buf);
}

/* Rule: unknown fields (any wire type, before or after known ones, at the
 * top level or inside nested messages) are skipped and the known fields are
 * decoded as if they were absent. */
static void test_unknown_fields_skipped(void **state) {
    (void)state;
    submit_msg q;
    submit_init(&q);

    /* Nested: GemmOp bytes with unknown fields in front and behind. */
    wbuf gemm, gemm_x = {.n = 0}, op = {.n = 0}, req = {.n = 0};
    pack_gemm(&q.g, &gemm);
    put_unknown_fields(&gemm_x);
    put_bytes(&gemm_x, gemm.b, gemm.n);
    put_unknown_fields(&gemm_x);
    /* Op { gemm = 16 } with an unknown field too. */
    put_unknown_fields(&op);
    put_len_field(&op, 16, &gemm_x);
    /* SubmitRequest: unknown, session_id, stream_id, op, unknown. */
    put_unknown_fields(&req);
    put_tag(&req, 1, 1);
    for (int i = 0; i < 8; i++)
        put_byte(&req, (uint8_t)(q.req.session_id >> (8 * i)));
    put_tag(&req, 2, 0);
    put_varint(&req, q.req.stream_id);
    put_len_field(&req, 3, &op);
    put_unknown_fields(&req);

    Trnsci__V1__SubmitRequest *r = trnsci__v1__submit_request__unpack(NULL, req.n, req.b);
    check_submit(r);
    trnsci__v1__submit_request__free_unpacked(r, NULL);
}

/* Rule (protobuf oneof): when several members of a oneof are on the wire, the
 * last one seen is the value. */
static void test_oneof_last_wins(void **state) {
    (void)state;
    Trnsci__V1__MemsetOp m = TRNSCI__V1__MEMSET_OP__INIT;
    m.value = 7;
    m.bytes = 9;
    wbuf mb, gb, w = {.n = 0};
    mb.n = trnsci__v1__memset_op__get_packed_size(&m);
    assert_int_equal(trnsci__v1__memset_op__pack(&m, mb.b), mb.n);
    Trnsci__V1__GemmOp g = TRNSCI__V1__GEMM_OP__INIT;
    g.m = 11;
    pack_gemm(&g, &gb);

    put_len_field(&w, 1, &mb);  /* memset */
    put_len_field(&w, 16, &gb); /* then gemm */
    Trnsci__V1__Op *op = trnsci__v1__op__unpack(NULL, w.n, w.b);
    assert_non_null(op);
    assert_int_equal(op->kind_case, TRNSCI__V1__OP__KIND_GEMM);
    assert_non_null(op->gemm);
    assert_true(op->gemm->m == 11);
    trnsci__v1__op__free_unpacked(op, NULL);

    w.n = 0;
    put_len_field(&w, 16, &gb); /* gemm */
    put_len_field(&w, 1, &mb);  /* then memset */
    op = trnsci__v1__op__unpack(NULL, w.n, w.b);
    assert_non_null(op);
    assert_int_equal(op->kind_case, TRNSCI__V1__OP__KIND_MEMSET);
    assert_non_null(op->memset);
    assert_int_equal(op->memset->value, 7);
    assert_int_equal(op->memset->bytes, 9);
    trnsci__v1__op__free_unpacked(op, NULL);
}

/* Rule (trnsci_wire.h): TRNSCI_METHODS lists "/trnsci.v1.Trnsci/<Method>" for
 * every rpc of the service, in the .proto's order. */
static void test_method_paths(void **state) {
    (void)state;
    static const char *const paths[] = {
#define TRN_PATH(name, path) path,
        TRNSCI_METHODS(TRN_PATH)
#undef TRN_PATH
    };
    const ProtobufCServiceDescriptor *sd = &trnsci__v1__trnsci__descriptor;
    assert_int_equal(sd->n_methods, TRN_WIRE_METHOD_COUNT);
    assert_int_equal(sizeof(paths) / sizeof(paths[0]), TRN_WIRE_METHOD_COUNT);
    for (unsigned i = 0; i < sd->n_methods; i++) {
        char want[128];
        snprintf(want, sizeof(want), "/%s/%s", sd->name, sd->methods[i].name);
        assert_string_equal(paths[i], want);
    }
    assert_string_equal(paths[TRN_WIRE_SUBMIT], "/trnsci.v1.Trnsci/Submit");
}

/* Rule (trnsci_wire.h): status codes are numerically gRPC's. */
static void test_status_codes_match_grpc(void **state) {
    (void)state;
    assert_int_equal(TRN_WIRE_OK, GRPC_STATUS_OK);
    assert_int_equal(TRN_WIRE_CANCELLED, GRPC_STATUS_CANCELLED);
    assert_int_equal(TRN_WIRE_UNKNOWN, GRPC_STATUS_UNKNOWN);
    assert_int_equal(TRN_WIRE_INVALID_ARGUMENT, GRPC_STATUS_INVALID_ARGUMENT);
    assert_int_equal(TRN_WIRE_DEADLINE_EXCEEDED, GRPC_STATUS_DEADLINE_EXCEEDED);
    assert_int_equal(TRN_WIRE_NOT_FOUND, GRPC_STATUS_NOT_FOUND);
    assert_int_equal(TRN_WIRE_ALREADY_EXISTS, GRPC_STATUS_ALREADY_EXISTS);
    assert_int_equal(TRN_WIRE_PERMISSION_DENIED, GRPC_STATUS_PERMISSION_DENIED);
    assert_int_equal(TRN_WIRE_RESOURCE_EXHAUSTED, GRPC_STATUS_RESOURCE_EXHAUSTED);
    assert_int_equal(TRN_WIRE_FAILED_PRECONDITION, GRPC_STATUS_FAILED_PRECONDITION);
    assert_int_equal(TRN_WIRE_ABORTED, GRPC_STATUS_ABORTED);
    assert_int_equal(TRN_WIRE_OUT_OF_RANGE, GRPC_STATUS_OUT_OF_RANGE);
    assert_int_equal(TRN_WIRE_UNIMPLEMENTED, GRPC_STATUS_UNIMPLEMENTED);
    assert_int_equal(TRN_WIRE_INTERNAL, GRPC_STATUS_INTERNAL);
    assert_int_equal(TRN_WIRE_UNAVAILABLE, GRPC_STATUS_UNAVAILABLE);
    assert_int_equal(TRN_WIRE_DATA_LOSS, GRPC_STATUS_DATA_LOSS);
    assert_int_equal(TRN_WIRE_UNAUTHENTICATED, GRPC_STATUS_UNAUTHENTICATED);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_roundtrip),
        cmocka_unit_test(test_encoding_exact_bytes),
        cmocka_unit_test(test_empty_message),
        cmocka_unit_test(test_garbage_rejected),
        cmocka_unit_test(test_unknown_fields_skipped),
        cmocka_unit_test(test_oneof_last_wins),
        cmocka_unit_test(test_method_paths),
        cmocka_unit_test(test_status_codes_match_grpc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
