/*
 * test_byte_order.c — libtrnsci refuses a daemon whose buffers are in another
 * byte order than its process's (HelloReply.byte_order, protocol 1.9), and
 * accepts one that says its own order or says nothing (a daemon before 1.9).
 *
 * The daemon here is a stand-in on the local transport that answers Hello
 * only (one frame in, one frame out: docs/protocol.md, "Frames"); what it
 * reports is the one thing under test. With the order accepted, libtrnsci
 * goes on to OpenSession, which the stand-in refuses (it records that it
 * got that far).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "trnsci/trnsci.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

typedef struct stand_in {
    int listen_fd;
    const char *byte_order; /* what Hello reports; NULL: the field unset */
    char path[108];
    int saw_open_session; /* libtrnsci went past Hello */
} stand_in;

static int read_all(int fd, void *p, size_t n) {
    for (size_t got = 0; got < n;) {
        const ssize_t r = read(fd, (char *)p + got, n - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static void reply(int c, uint16_t code, uint64_t tag, const void *body, size_t len) {
    const trn_local_hdr h = {(uint32_t)len, code, 0, tag};
    if (write(c, &h, sizeof(h)) == (ssize_t)sizeof(h) && len)
        (void)!write(c, body, len);
}

/* Serves one connection until the client goes: Hello is answered, anything
 * else (the ring set-up, OpenSession) refused. */
static void *serve(void *arg) {
    stand_in *d = arg;
    const int c = accept(d->listen_fd, NULL, NULL);
    if (c < 0)
        return NULL;
    trn_local_hdr h;
    uint8_t body[4096];
    while (read_all(c, &h, sizeof(h)) == 0 && h.len <= sizeof(body) &&
           read_all(c, body, h.len) == 0) {
        if (h.kind != TRN_WIRE_HELLO) {
            if (h.kind == TRN_WIRE_OPEN_SESSION)
                d->saw_open_session = 1;
            static const char no[] = "stand-in: only Hello is served";
            reply(c, TRN_WIRE_UNIMPLEMENTED, h.tag, no, sizeof(no) - 1);
            continue;
        }
        Trnsci__V1__Limits limits = TRNSCI__V1__LIMITS__INIT;
        limits.chunk_bytes = TRNSCI_WIRE_CHUNK_BYTES;
        limits.max_message_bytes = TRNSCI_WIRE_MAX_MESSAGE_BYTES;
        Trnsci__V1__HelloReply r = TRNSCI__V1__HELLO_REPLY__INIT;
        r.protocol_major = TRNSCI_PROTOCOL_MAJOR;
        r.protocol_minor = TRNSCI_PROTOCOL_MINOR;
        r.daemon_version = "stand-in";
        r.core_count = 1;
        r.limits = &limits;
        r.backend = "cpu";
        if (d->byte_order)
            r.byte_order = (char *)d->byte_order;
        uint8_t out[512];
        reply(c, TRN_WIRE_OK, h.tag, out, protobuf_c_message_pack(&r.base, out));
    }
    close(c);
    return NULL;
}

/* trnsciInit against a stand-in reporting byte_order; returns its result
 * with the message in msg, and whether libtrnsci went on to OpenSession. */
static trnsciError_t init_against(const char *byte_order, char *msg, size_t len, int *past_hello) {
    stand_in d = {.byte_order = byte_order};
    snprintf(d.path, sizeof(d.path), "/tmp/trnsci-byte-order-%d.sock", (int)getpid());
    unlink(d.path);
    d.listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    assert_true(d.listen_fd >= 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, d.path, strlen(d.path) + 1);
    assert_int_equal(bind(d.listen_fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(d.listen_fd, 1), 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, serve, &d), 0);
    char addr[160];
    snprintf(addr, sizeof(addr), "unix:%s", d.path);
    const trnsciError_t e = trnsciInit(addr);
    snprintf(msg, len, "%s", trnsciGetLastErrorMessage());
    trnsciDeviceReset();
    /* The client has gone or is still connected: end the connection. */
    shutdown(d.listen_fd, SHUT_RDWR);
    pthread_join(t, NULL);
    *past_hello = d.saw_open_session;
    close(d.listen_fd);
    unlink(d.path);
    return e;
}

static const char *other_order(void) {
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "big" : "little";
}

static const char *own_order(void) {
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little" : "big";
}

static void test_other_order_refused(void **state) {
    (void)state;
    char msg[512];
    int past = 0;
    assert_int_not_equal(init_against(other_order(), msg, sizeof(msg), &past), trnsciSuccess);
    assert_false(past);
    if (!strstr(msg, "does not convert buffer contents") || !strstr(msg, other_order()))
        fail_msg("message \"%s\" does not name the byte orders", msg);
}

static void test_own_order_and_unset_accepted(void **state) {
    (void)state;
    char msg[512];
    int past = 0;
    /* Past Hello the stand-in refuses OpenSession: a failure, but not the
     * byte order's, and only after Hello was accepted. */
    (void)init_against(own_order(), msg, sizeof(msg), &past);
    assert_true(past);
    assert_null(strstr(msg, "does not convert buffer contents"));
    if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
        past = 0;
        (void)init_against(NULL, msg, sizeof(msg), &past);
        assert_true(past);
        assert_null(strstr(msg, "does not convert buffer contents"));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_order_refused),
        cmocka_unit_test(test_own_order_and_unset_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
