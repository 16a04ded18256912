/*
 * test_security.c — remote access and isolation, against a real trnscid.
 *
 * One daemon serves a unix socket (local transport) and TLS on loopback TCP
 * with a tokens file; certificates are made at test time with openssl
 * (make_certs.sh). The tests speak the wire directly through libtrnsci's
 * transports (linked statically), so they can hold several sessions in one
 * process and name any id they like. What they prove:
 *
 *  - TLS: a plain-text client cannot talk to the TLS port; a client that
 *    trusts the CA can. With --tls-client-ca a client without a certificate,
 *    or with one from another CA, is refused; one with a CA-signed
 *    certificate gets in.
 *  - tokens: no token, a wrong token (same length, last character changed),
 *    and a prefix of a real token are all UNAUTHENTICATED with the same fixed
 *    message; the right token (from $TRNSCI_TOKEN or $TRNSCI_TOKEN_FILE)
 *    works; local clients need none. A refused attempt does not stick: the
 *    next trnsciInit of the process with the right token (or CA) gets in.
 *  - per-token limits: sessions, bytes and queued ops, each refused with a
 *    message naming the token and the limit; the token's priority ceiling.
 *  - a session opened with one token cannot be named with another: the same
 *    error as a session that never existed.
 *  - isolation, on both transports: session B naming session A's buffers,
 *    plan handles, events and stage tickets gets exactly the error it gets
 *    for ids that exist nowhere (numbers aside), and A's data is untouched.
 *  - start-up policy: a non-loopback TCP listener without TLS, a tokens file
 *    readable by others, and a certificate without its key are refused.
 *  - Status lists only what the caller may see: with a token, that token's
 *    sessions (the daemon-wide counts stay); locally, every session for
 *    root, only its own uid's for another user (a child that switches to
 *    uid 65534); `trnsci status` says how many it lists.
 *  - per-user limits: grpc+unix sessions count for their kernel-checked
 *    uid together with local ones (sessions, bytes, queued ops over all
 *    sessions), and another uid (a child as 65534) has its own and sees its
 *    own uid and pid in Status; a token is a user for the same limits;
 *  - the plan cache: clear and warm refused (PERMISSION_DENIED) to a token
 *    without scope=admin and to a local user who is not root, allowed to an
 *    admin token and to root; a listing shows a non-administrator only the
 *    plans its sessions hold;
 *  - a loopback TCP listener without tokens is refused unless
 *    --allow-unauthenticated-tcp is given, which logs a warning;
 *  - the tokens file on SIGHUP: a removed token's next call is
 *    UNAUTHENTICATED and its sessions and buffers are gone; the kept token
 *    keeps its sessions, and its lowered limits refuse the next request
 *    beyond them, naming the limit, without undoing what it holds; a file
 *    with a loose mode or a syntax error changes nothing and the log names
 *    it (and the line); a changed secret is a removal plus an addition.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "client/transport.h"
#include "harness.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

#define ALICE "alice-0123456789abcdefXYZ"
#define BOB "bob-0123456789abcdefXYZ+/="
#define CAROL "carol-0123456789abcdef~~~~"
#define TIMEOUT_MS 20000

static th_daemon dmn;
static char pki[256]; /* certificates and tokens */

static void pki_path(char *buf, size_t len, const char *name) {
    snprintf(buf, len, "%s/%s", pki, name);
}

/* Sets the client's credentials environment (NULL unsets). */
static void client_env(const char *token, const char *ca, const char *cert, const char *key) {
    char path[320];
    unsetenv("TRNSCI_TOKEN_FILE");
    if (token)
        setenv("TRNSCI_TOKEN", token, 1);
    else
        unsetenv("TRNSCI_TOKEN");
    const char *vars[3] = {"TRNSCI_TLS_CA", "TRNSCI_TLS_CERT", "TRNSCI_TLS_KEY"};
    const char *files[3] = {ca, cert, key};
    for (int i = 0; i < 3; i++) {
        if (files[i]) {
            pki_path(path, sizeof(path), files[i]);
            setenv(vars[i], path, 1);
        } else {
            unsetenv(vars[i]);
        }
    }
}

/* ---- raw wire calls ------------------------------------------------------------ */

typedef struct conn {
    trn_transport *t;
    uint64_t sid;
    int priority;
} conn;

static trn_wire_code call(conn *c, trn_wire_method m, const ProtobufCMessage *req,
                          const ProtobufCMessageDescriptor *rd, ProtobufCMessage **reply, char *msg,
                          size_t msglen) {
    msg[0] = '\0';
    ProtobufCMessage *r = NULL;
    const trn_wire_code code = trn_transport_call(c->t, m, req, rd, &r, msg, msglen, TIMEOUT_MS);
    if (reply)
        *reply = r;
    else if (r)
        protobuf_c_message_free_unpacked(r, NULL);
    return code;
}

/* Opens a transport to addr with the given token (TLS when addr is TCP) and
 * a session on it, named `name` (its client_name). Returns the session's
 * code; c->t stays open either way. */
static trn_wire_code open_named(conn *c, const char *addr, const char *token, const char *name,
                                int priority, char *msg, size_t msglen) {
    memset(c, 0, sizeof(*c));
    client_env(token, "ca.pem", NULL, NULL);
    c->t = trn_transport_open(addr);
    assert_non_null(c->t);
    Trnsci__V1__OpenSessionRequest req = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    req.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    req.client_name = (char *)name;
    req.priority = priority;
    ProtobufCMessage *r = NULL;
    const trn_wire_code code = call(c, TRN_WIRE_OPEN_SESSION, &req.base,
                                    &trnsci__v1__open_session_reply__descriptor, &r, msg, msglen);
    if (code == TRN_WIRE_OK) {
        c->sid = ((Trnsci__V1__OpenSessionReply *)r)->session_id;
        c->priority = ((Trnsci__V1__OpenSessionReply *)r)->priority;
        protobuf_c_message_free_unpacked(r, NULL);
    }
    return code;
}

static trn_wire_code open_session(conn *c, const char *addr, const char *token, int priority,
                                  char *msg, size_t msglen) {
    return open_named(c, addr, token, "test_security", priority, msg, msglen);
}

static void must_open(conn *c, const char *addr, const char *token) {
    char msg[256];
    assert_int_equal(open_session(c, addr, token, 0, msg, sizeof(msg)), TRN_WIRE_OK);
}

static void close_conn(conn *c) {
    if (c->sid) {
        Trnsci__V1__CloseSessionRequest req = TRNSCI__V1__CLOSE_SESSION_REQUEST__INIT;
        req.session_id = c->sid;
        char msg[256];
        call(c, TRN_WIRE_CLOSE_SESSION, &req.base, NULL, NULL, msg, sizeof(msg));
    }
    trn_transport_close(c->t);
    memset(c, 0, sizeof(*c));
}

static trn_wire_code alloc(conn *c, uint64_t bytes, uint64_t *id, char *msg, size_t msglen) {
    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = c->sid;
    req.bytes = bytes;
    ProtobufCMessage *r = NULL;
    const trn_wire_code code =
        call(c, TRN_WIRE_ALLOC, &req.base, &trnsci__v1__alloc_reply__descriptor, &r, msg, msglen);
    if (code == TRN_WIRE_OK) {
        *id = ((Trnsci__V1__AllocReply *)r)->buffer_id;
        protobuf_c_message_free_unpacked(r, NULL);
    }
    return code;
}

static trn_wire_code write_buf(conn *c, uint64_t id, const void *data, size_t len, char *msg,
                               size_t msglen) {
    Trnsci__V1__BufferRef dst = TRNSCI__V1__BUFFER_REF__INIT;
    dst.buffer_id = id;
    Trnsci__V1__WriteRequest req = TRNSCI__V1__WRITE_REQUEST__INIT;
    req.session_id = c->sid;
    req.dst = &dst;
    req.data.data = (uint8_t *)data;
    req.data.len = len;
    return call(c, TRN_WIRE_WRITE, &req.base, NULL, NULL, msg, msglen);
}

/* Reads len bytes of buffer id (ticket 0), or the data of a stage ticket. */
static trn_wire_code read_buf(conn *c, uint64_t id, uint64_t ticket, void *out, size_t len,
                              char *msg, size_t msglen) {
    Trnsci__V1__BufferRef src = TRNSCI__V1__BUFFER_REF__INIT;
    src.buffer_id = id;
    Trnsci__V1__ReadRequest req = TRNSCI__V1__READ_REQUEST__INIT;
    req.session_id = c->sid;
    req.src = &src;
    req.length = len;
    req.ticket = ticket;
    ProtobufCMessage *r = NULL;
    const trn_wire_code code =
        call(c, TRN_WIRE_READ, &req.base, &trnsci__v1__read_reply__descriptor, &r, msg, msglen);
    if (code == TRN_WIRE_OK) {
        const Trnsci__V1__ReadReply *rr = (const Trnsci__V1__ReadReply *)r;
        assert_int_equal(rr->data.len, len);
        memcpy(out, rr->data.data, len);
        protobuf_c_message_free_unpacked(r, NULL);
    }
    return code;
}

static trn_wire_code submit(conn *c, uint32_t stream, Trnsci__V1__Op *op, char *msg,
                            size_t msglen) {
    Trnsci__V1__SubmitRequest req = TRNSCI__V1__SUBMIT_REQUEST__INIT;
    req.session_id = c->sid;
    req.stream_id = stream;
    req.op = op;
    return call(c, TRN_WIRE_SUBMIT, &req.base, NULL, NULL, msg, msglen);
}

static trn_wire_code memset_op(conn *c, uint64_t id, uint64_t bytes, char *msg, size_t msglen) {
    Trnsci__V1__BufferRef dst = TRNSCI__V1__BUFFER_REF__INIT;
    dst.buffer_id = id;
    Trnsci__V1__MemsetOp m = TRNSCI__V1__MEMSET_OP__INIT;
    m.dst = &dst;
    m.value = 0x5a;
    m.bytes = bytes;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_MEMSET;
    op.memset = &m;
    return submit(c, 0, &op, msg, msglen);
}

static trn_wire_code sync_all(conn *c, char *msg, size_t msglen) {
    Trnsci__V1__SynchronizeRequest req = TRNSCI__V1__SYNCHRONIZE_REQUEST__INIT;
    req.session_id = c->sid;
    req.all_streams = 1;
    return call(c, TRN_WIRE_SYNCHRONIZE, &req.base, NULL, NULL, msg, msglen);
}

/* An error as a client sees it: the code and the message with every run of
 * digits (ids, counts) replaced by '#'. */
typedef struct seen {
    trn_wire_code code;
    char text[256];
} seen;

static seen normalise(trn_wire_code code, const char *msg) {
    /* Runs of letters and digits that are all hex digits and hold at least
     * one decimal digit are numbers (decimal ids, hex session ids). */
    seen s = {code, ""};
    size_t k = 0;
    const char *p = msg;
    while (*p && k + 2 < sizeof(s.text)) {
        size_t n = 0;
        int hex = 1, digit = 0;
        while (p[n] && ((p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') ||
                        (p[n] >= 'A' && p[n] <= 'Z'))) {
            digit |= p[n] >= '0' && p[n] <= '9';
            hex &= (p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'f');
            n++;
        }
        if (n == 0) {
            s.text[k++] = *p++;
        } else if (hex && digit) {
            s.text[k++] = '#';
            p += n;
        } else {
            for (size_t i = 0; i < n && k + 2 < sizeof(s.text); i++)
                s.text[k++] = p[i];
            p += n;
        }
    }
    s.text[k] = '\0';
    return s;
}

static const char *c_transport_name(const char *addr) {
    return strncmp(addr, "unix:", 5) == 0 ? "the local transport" : "gRPC";
}

/* Querying an event nobody recorded is not an error (cudaEventQuery on a
 * fresh event succeeds): there "the same answer" is OK and not recorded. */
static void assert_same_error(seen foreign, seen nowhere, const char *what) {
    if (foreign.code != nowhere.code || strcmp(foreign.text, nowhere.text) != 0)
        fail_msg("%s: a foreign id gave %d '%s' but an unknown one %d '%s'", what,
                 (int)foreign.code, foreign.text, (int)nowhere.code, nowhere.text);
    if (foreign.code == TRN_WIRE_OK)
        assert_string_equal(foreign.text, "recorded=no");
}

/* ---- TLS and tokens -------------------------------------------------------------- */

static trnsciError_t status_with(const char *addr, const char *token, const char *ca,
                                 const char *cert, const char *key) {
    client_env(token, ca, cert, key);
    trnsciDaemonStatus st;
    return trnsciDaemonGetStatus(addr, &st);
}

static void test_tls_and_tokens(void **state) {
    (void)state;
    const char *tcp = dmn.tcp_addr;
    /* Plain text against the TLS port gets no answer at all. */
    assert_int_not_equal(status_with(tcp, ALICE, NULL, NULL, NULL), trnsciSuccess);
    /* A CA that did not sign the server's certificate: no connection. */
    assert_int_not_equal(status_with(tcp, ALICE, "other-ca.pem", NULL, NULL), trnsciSuccess);
    assert_int_equal(status_with(tcp, ALICE, "ca.pem", NULL, NULL), trnsciSuccess);
    assert_int_equal(status_with(tcp, BOB, "ca.pem", NULL, NULL), trnsciSuccess);

    /* Wrong tokens: all alike, and the message says nothing more. */
    char wrong[64], prefix[64];
    snprintf(wrong, sizeof(wrong), "%s", ALICE);
    wrong[strlen(wrong) - 1] ^= 1;
    snprintf(prefix, sizeof(prefix), "%.*s", (int)strlen(ALICE) - 1, ALICE);
    const char *bad[] = {NULL, wrong, prefix, ALICE "x"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(status_with(tcp, bad[i], "ca.pem", NULL, NULL),
                         trnsciErrorUnauthenticated);
        assert_string_equal(trnsciGetLastErrorMessage(), "unauthenticated");
    }
    /* Every method is checked, not only Status: OpenSession too. */
    conn c;
    char msg[256];
    assert_int_equal(open_session(&c, tcp, wrong, 0, msg, sizeof(msg)), TRN_WIRE_UNAUTHENTICATED);
    assert_string_equal(msg, "unauthenticated");
    trn_transport_close(c.t);

    /* The token from a file (first line). */
    char path[320];
    pki_path(path, sizeof(path), "client-token");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\nignored second line\n", BOB);
    fclose(f);
    client_env(NULL, "ca.pem", NULL, NULL);
    setenv("TRNSCI_TOKEN_FILE", path, 1);
    trnsciDaemonStatus st;
    assert_int_equal(trnsciDaemonGetStatus(tcp, &st), trnsciSuccess);
    unsetenv("TRNSCI_TOKEN_FILE");

    /* Local clients are identified by their uid: no token. */
    assert_int_equal(status_with(dmn.unix_addr, NULL, NULL, NULL, NULL), trnsciSuccess);
    client_env(NULL, NULL, NULL, NULL);
}

static void test_client_certificates(void **state) {
    (void)state;
    char cert[320], key[320], ca[320];
    pki_path(cert, sizeof(cert), "server.pem");
    pki_path(key, sizeof(key), "server.key");
    pki_path(ca, sizeof(ca), "ca.pem");
    th_daemon m;
    const char *args[] = {"--cores",         "1", "--tls-cert", cert, "--tls-key", key,
                          "--tls-client-ca", ca,  NULL};
    assert_int_equal(th_daemon_start(&m, args), 0);
    assert_int_not_equal(status_with(m.tcp_addr, NULL, "ca.pem", NULL, NULL), trnsciSuccess);
    assert_int_not_equal(status_with(m.tcp_addr, NULL, "ca.pem", "rogue.pem", "rogue.key"),
                         trnsciSuccess);
    assert_int_equal(status_with(m.tcp_addr, NULL, "ca.pem", "client.pem", "client.key"),
                     trnsciSuccess);
    /* A key without its certificate is a client configuration error. */
    client_env(NULL, "ca.pem", "client.pem", NULL);
    trnsciDaemonStatus st;
    assert_int_not_equal(trnsciDaemonGetStatus(m.tcp_addr, &st), trnsciSuccess);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "TRNSCI_TLS_KEY"));
    client_env(NULL, NULL, NULL, NULL);
    assert_int_equal(th_daemon_stop_checked(&m, "mTLS daemon"), 0);
}

static void test_token_limits(void **state) {
    (void)state;
    char msg[256];
    /* alice: sessions=2 bytes=1M. */
    conn a1, a2, a3;
    must_open(&a1, dmn.tcp_addr, ALICE);
    must_open(&a2, dmn.tcp_addr, ALICE);
    assert_int_equal(open_session(&a3, dmn.tcp_addr, ALICE, 0, msg, sizeof(msg)),
                     TRN_WIRE_RESOURCE_EXHAUSTED);
    assert_non_null(strstr(msg, "token alice"));
    assert_non_null(strstr(msg, "sessions limit 2"));
    trn_transport_close(a3.t);
    uint64_t id = 0;
    assert_int_equal(alloc(&a1, 768 << 10, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(alloc(&a2, 512 << 10, &id, msg, sizeof(msg)), TRN_WIRE_RESOURCE_EXHAUSTED);
    assert_non_null(strstr(msg, "token alice"));
    assert_non_null(strstr(msg, "bytes=1048576"));
    assert_int_equal(alloc(&a2, 256 << 10, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    close_conn(&a1); /* gives its bytes and its session back */
    must_open(&a3, dmn.tcp_addr, ALICE);
    assert_int_equal(alloc(&a3, 768 << 10, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    close_conn(&a2);
    close_conn(&a3);

    /* carol: queued-ops=1, priority-ceiling=1. Two 64 MiB memsets back to
     * back: the second arrives while the first is queued or running. */
    conn c;
    assert_int_equal(open_session(&c, dmn.tcp_addr, CAROL, -3, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(c.priority, 1);
    assert_int_equal(alloc(&c, 64 << 20, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    int refused = 0;
    for (int attempt = 0; attempt < 20 && !refused; attempt++) {
        assert_int_equal(memset_op(&c, id, 64 << 20, msg, sizeof(msg)), TRN_WIRE_OK);
        const trn_wire_code second = memset_op(&c, id, 64 << 20, msg, sizeof(msg));
        if (second == TRN_WIRE_RESOURCE_EXHAUSTED) {
            assert_non_null(strstr(msg, "token carol"));
            assert_non_null(strstr(msg, "queued-ops limit 1"));
            refused = 1;
        } else {
            assert_int_equal(second, TRN_WIRE_OK);
        }
        assert_int_equal(sync_all(&c, msg, sizeof(msg)), TRN_WIRE_OK);
    }
    assert_true(refused);
    close_conn(&c);
}

static void test_session_bound_to_token(void **state) {
    (void)state;
    char msg[256];
    conn a, b;
    must_open(&a, dmn.tcp_addr, ALICE);
    must_open(&b, dmn.tcp_addr, BOB);
    Trnsci__V1__KeepAliveRequest ka = TRNSCI__V1__KEEP_ALIVE_REQUEST__INIT;
    ka.session_id = a.sid;
    const trn_wire_code foreign =
        call(&b, TRN_WIRE_KEEP_ALIVE, &ka.base, NULL, NULL, msg, sizeof(msg));
    const seen f = normalise(foreign, msg);
    ka.session_id = a.sid ^ b.sid ^ 0x5555; /* a session that does not exist */
    const trn_wire_code none =
        call(&b, TRN_WIRE_KEEP_ALIVE, &ka.base, NULL, NULL, msg, sizeof(msg));
    assert_same_error(f, normalise(none, msg), "another token's session");
    /* Bob cannot close it either; alice still can use it. */
    conn b_as_a = b;
    b_as_a.sid = a.sid;
    uint64_t id = 0;
    assert_int_not_equal(alloc(&b_as_a, 64, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(alloc(&a, 64, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    close_conn(&a);
    close_conn(&b);
}

/* ---- isolation: every kind of id, both transports ------------------------------ */

static seen try_ids(conn *b, const char *what, uint64_t id) {
    char msg[256];
    trn_wire_code code = TRN_WIRE_OK;
    uint8_t buf[16] = {0};
    if (strcmp(what, "free") == 0) {
        Trnsci__V1__FreeRequest req = TRNSCI__V1__FREE_REQUEST__INIT;
        req.session_id = b->sid;
        req.buffer_id = id;
        code = call(b, TRN_WIRE_FREE, &req.base, NULL, NULL, msg, sizeof(msg));
    } else if (strcmp(what, "write") == 0) {
        code = write_buf(b, id, buf, sizeof(buf), msg, sizeof(msg));
    } else if (strcmp(what, "read") == 0) {
        code = read_buf(b, id, 0, buf, sizeof(buf), msg, sizeof(msg));
    } else if (strcmp(what, "memset") == 0) {
        code = memset_op(b, id, 16, msg, sizeof(msg));
    } else if (strcmp(what, "ticket") == 0) {
        code = read_buf(b, 0, id, buf, sizeof(buf), msg, sizeof(msg));
    } else if (strcmp(what, "plan-destroy") == 0) {
        Trnsci__V1__PlanDestroyRequest req = TRNSCI__V1__PLAN_DESTROY_REQUEST__INIT;
        req.session_id = b->sid;
        req.plan_id = (uint32_t)id;
        code = call(b, TRN_WIRE_PLAN_DESTROY, &req.base, NULL, NULL, msg, sizeof(msg));
    } else if (strcmp(what, "plan-exec") == 0) {
        Trnsci__V1__BufferRef io = TRNSCI__V1__BUFFER_REF__INIT;
        io.buffer_id = 1;
        Trnsci__V1__FftExecOp x = TRNSCI__V1__FFT_EXEC_OP__INIT;
        x.plan_id = (uint32_t)id;
        x.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
        x.direction = -1;
        x.idata = &io;
        x.odata = &io;
        Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
        op.kind_case = TRNSCI__V1__OP__KIND_FFT_EXEC;
        op.fft_exec = &x;
        code = submit(b, 0, &op, msg, sizeof(msg));
    } else if (strcmp(what, "event-query") == 0) {
        Trnsci__V1__EventRequest req = TRNSCI__V1__EVENT_REQUEST__INIT;
        req.session_id = b->sid;
        req.event_id = (uint32_t)id;
        req.action = TRNSCI__V1__EVENT_ACTION__EVENT_QUERY;
        ProtobufCMessage *r = NULL;
        code = call(b, TRN_WIRE_EVENT, &req.base, &trnsci__v1__event_reply__descriptor, &r, msg,
                    sizeof(msg));
        if (code == TRN_WIRE_OK) { /* an event nobody recorded: say so */
            snprintf(msg, sizeof(msg), "recorded=%s",
                     ((Trnsci__V1__EventReply *)r)->recorded ? "yes" : "no");
            protobuf_c_message_free_unpacked(r, NULL);
        }
    }
    return normalise(code, msg);
}

static void isolation(const char *addr, const char *token_a, const char *token_b) {
    char msg[256];
    conn a, b;
    must_open(&a, addr, token_a);
    must_open(&b, addr, token_b);
    /* A: three buffers with a pattern, an FFT plan, a recorded event, a
     * staged read waiting under a ticket. B: one buffer of its own. */
    uint64_t ids[3];
    uint8_t pattern[4096];
    for (size_t i = 0; i < sizeof(pattern); i++)
        pattern[i] = (uint8_t)(i * 7 + 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(alloc(&a, sizeof(pattern), &ids[i], msg, sizeof(msg)), TRN_WIRE_OK);
        assert_int_equal(write_buf(&a, ids[i], pattern, sizeof(pattern), msg, sizeof(msg)),
                         TRN_WIRE_OK);
    }
    uint64_t own = 0;
    assert_int_equal(alloc(&b, 64, &own, msg, sizeof(msg)), TRN_WIRE_OK);
    int64_t n[1] = {256};
    Trnsci__V1__FftPlanSpec spec = TRNSCI__V1__FFT_PLAN_SPEC__INIT;
    spec.type = TRNSCI__V1__FFT_TYPE__FFT_C2C;
    spec.n_n = 1;
    spec.n = n;
    spec.batch = 1;
    Trnsci__V1__PlanCreateRequest pc = TRNSCI__V1__PLAN_CREATE_REQUEST__INIT;
    pc.session_id = a.sid;
    pc.spec_case = TRNSCI__V1__PLAN_CREATE_REQUEST__SPEC_FFT;
    pc.fft = &spec;
    ProtobufCMessage *r = NULL;
    assert_int_equal(call(&a, TRN_WIRE_PLAN_CREATE, &pc.base,
                          &trnsci__v1__plan_create_reply__descriptor, &r, msg, sizeof(msg)),
                     TRN_WIRE_OK);
    const uint32_t plan = ((Trnsci__V1__PlanCreateReply *)r)->plan_id;
    protobuf_c_message_free_unpacked(r, NULL);
    Trnsci__V1__EventRecordOp rec = TRNSCI__V1__EVENT_RECORD_OP__INIT;
    rec.event_id = 7;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_EVENT_RECORD;
    op.event_record = &rec;
    assert_int_equal(submit(&a, 0, &op, msg, sizeof(msg)), TRN_WIRE_OK);
    Trnsci__V1__BufferRef src = TRNSCI__V1__BUFFER_REF__INIT;
    src.buffer_id = ids[0];
    Trnsci__V1__StageOutOp so = TRNSCI__V1__STAGE_OUT_OP__INIT;
    so.src = &src;
    so.bytes = 16;
    so.ticket = 99;
    op.kind_case = TRNSCI__V1__OP__KIND_STAGE_OUT;
    op.stage_out = &so;
    assert_int_equal(submit(&a, 0, &op, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(sync_all(&a, msg, sizeof(msg)), TRN_WIRE_OK);

    /* B names each of A's ids, and ids that exist nowhere. Buffer ids start
     * at the same counter in every session, so B's own id is skipped. */
    static const struct {
        const char *what;
        int kind; /* 0 buffer, 1 plan, 2 event, 3 ticket */
    } probes[] = {{"free", 0},      {"write", 0},        {"read", 0},        {"memset", 0},
                  {"plan-exec", 1}, {"plan-destroy", 1}, {"event-query", 2}, {"ticket", 3}};
    for (size_t p = 0; p < sizeof(probes) / sizeof(probes[0]); p++) {
        const int k = probes[p].kind;
        const uint64_t theirs = k == 0   ? (ids[1] == own ? ids[2] : ids[1])
                                : k == 1 ? plan
                                : k == 2 ? 7
                                         : 99;
        const uint64_t nowhere = k == 0 ? 987654 : k == 1 ? 4321 : k == 2 ? 4321 : 987654;
        char what[64];
        snprintf(what, sizeof(what), "%s over %s", probes[p].what, c_transport_name(addr));
        assert_same_error(try_ids(&b, probes[p].what, theirs), try_ids(&b, probes[p].what, nowhere),
                          what);
    }
    /* A's session id on B's connection: on gRPC with tokens it is another
     * token's; on the local transport, another connection's. (Between two
     * clients of one token the random 64-bit session id is the credential,
     * as it is on gRPC without tokens.) */
    const int same_principal = token_a && strcmp(token_a, token_b) == 0;
    conn b_as_a = b;
    b_as_a.sid = a.sid;
    uint64_t id = 0;
    if (!same_principal) {
        const trn_wire_code stolen = alloc(&b_as_a, 64, &id, msg, sizeof(msg));
        const seen sf = normalise(stolen, msg);
        b_as_a.sid = a.sid ^ 0xa5a5a5a5a5a5a5a5ull;
        const trn_wire_code none = alloc(&b_as_a, 64, &id, msg, sizeof(msg));
        assert_same_error(sf, normalise(none, msg), "another session's id");
    }

    /* A's data, plan and ticket are untouched. */
    uint8_t back[sizeof(pattern)];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(read_buf(&a, ids[i], 0, back, sizeof(back), msg, sizeof(msg)),
                         TRN_WIRE_OK);
        assert_memory_equal(back, pattern, sizeof(pattern));
    }
    assert_int_equal(read_buf(&a, 0, 99, back, 16, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_memory_equal(back, pattern, 16);
    Trnsci__V1__PlanDestroyRequest pd = TRNSCI__V1__PLAN_DESTROY_REQUEST__INIT;
    pd.session_id = a.sid;
    pd.plan_id = plan;
    assert_int_equal(call(&a, TRN_WIRE_PLAN_DESTROY, &pd.base, NULL, NULL, msg, sizeof(msg)),
                     TRN_WIRE_OK);
    close_conn(&a);
    close_conn(&b);
}

static void test_isolation_grpc(void **state) {
    (void)state;
    isolation(dmn.tcp_addr, ALICE, BOB);
    /* Two sessions of the same token are just as separate. */
    isolation(dmn.tcp_addr, BOB, BOB);
}

static void test_isolation_local(void **state) {
    (void)state;
    isolation(dmn.unix_addr, NULL, NULL);
}

/* ---- Status: what a caller may see ----------------------------------------------- */

/* What one Status call answered: the daemon-wide counts and the client
 * names of the sessions it listed, sorted, joined with spaces. */
typedef struct listing {
    trn_wire_code code;
    char msg[256];
    uint32_t sessions;
    uint64_t bytes_held, buffers;
    char names[512];
} listing;

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Status over addr as `token` (TLS when addr is TCP; NULL: no token). */
static listing status_as(const char *addr, const char *token) {
    listing l;
    memset(&l, 0, sizeof(l));
    client_env(token, "ca.pem", NULL, NULL);
    conn c = {.t = trn_transport_open(addr)};
    assert_non_null(c.t);
    Trnsci__V1__StatusRequest req = TRNSCI__V1__STATUS_REQUEST__INIT;
    ProtobufCMessage *r = NULL;
    l.code = call(&c, TRN_WIRE_STATUS, &req.base, &trnsci__v1__status_reply__descriptor, &r, l.msg,
                  sizeof(l.msg));
    if (l.code == TRN_WIRE_OK) {
        const Trnsci__V1__StatusReply *sr = (const Trnsci__V1__StatusReply *)r;
        l.sessions = sr->sessions;
        l.bytes_held = sr->bytes_held;
        l.buffers = sr->buffers;
        const char *names[64];
        size_t n = 0;
        for (; n < sr->n_session_info && n < 64; n++)
            names[n] = sr->session_info[n]->client_name;
        qsort(names, n, sizeof(names[0]), cmp_str);
        size_t used = 0;
        for (size_t i = 0; i < n && used < sizeof(l.names); i++)
            used += (size_t)snprintf(l.names + used, sizeof(l.names) - used, "%s%s", i ? " " : "",
                                     names[i]);
        protobuf_c_message_free_unpacked(r, NULL);
    }
    trn_transport_close(c.t);
    return l;
}

/* Role of a child process (re-executed, then switched to uid 65534 with
 * group 0, so that it may still open the daemon's 0660 root:root socket):
 * opens a session of its own over the local transport, then writes to fd
 * what Status lists to it, as "N uid,uid,...". */
static int role_nobody(const char *addr, int fd) {
    if (setgroups(0, NULL) != 0 || setgid(0) != 0 || setuid(65534) != 0)
        return 2;
    if (trnsciInit(addr) != trnsciSuccess)
        return 3;
    void *p = NULL;
    if (trnsciMalloc(&p, 4096) != trnsciSuccess)
        return 4;
    trnsciSessionInfo list[16];
    int n = 0;
    if (trnsciDaemonGetSessions(addr, list, 16, &n) != trnsciSuccess)
        return 5;
    char out[256];
    int used = snprintf(out, sizeof(out), "%d", n);
    for (int i = 0; i < n && i < 16 && used < (int)sizeof(out); i++)
        used +=
            snprintf(out + used, sizeof(out) - (size_t)used, "%s%u", i ? "," : " ", list[i].uid);
    if (write(fd, out, strlen(out)) != (ssize_t)strlen(out))
        return 6;
    trnsciFree(p);
    trnsciDeviceReset();
    return 0;
}

static void test_status_scope(void **state) {
    (void)state;
    char msg[256];
    const char *tcp = dmn.tcp_addr;
    /* alice: one session; bob: two; the local transport (root): one. */
    conn a, b1, b2, l;
    assert_int_equal(open_named(&a, tcp, ALICE, "alice-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&b1, tcp, BOB, "bob-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&b2, tcp, BOB, "bob-2", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&l, dmn.unix_addr, NULL, "local-1", 0, msg, sizeof(msg)),
                     TRN_WIRE_OK);

    /* A token sees its own sessions; the counts above stay daemon-wide. */
    listing s = status_as(tcp, ALICE);
    assert_int_equal(s.code, TRN_WIRE_OK);
    assert_string_equal(s.names, "alice-1");
    assert_int_equal(s.sessions, 4);
    s = status_as(tcp, BOB);
    assert_string_equal(s.names, "bob-1 bob-2");
    assert_int_equal(s.sessions, 4);
    s = status_as(tcp, CAROL);
    assert_string_equal(s.names, "");
    /* Root on the local transport sees them all. */
    s = status_as(dmn.unix_addr, NULL);
    assert_string_equal(s.names, "alice-1 bob-1 bob-2 local-1");

    /* The CLI with alice's token lists hers and says it lists one of four. */
    char out[320];
    pki_path(out, sizeof(out), "status.out");
    client_env(ALICE, "ca.pem", NULL, NULL);
    const char *const cli_status[] = {TRNSCI_CLI_PATH, "--addr", tcp, "status", NULL};
    assert_int_equal(th_run(cli_status, out), 0);
    assert_true(th_file_contains(
        out,
        "sessions:       4 (1 listed: the daemon lists only the sessions this caller may see)"));
    assert_true(th_file_contains(out, "alice-1"));
    assert_false(th_file_contains(out, "bob-1"));
    assert_false(th_file_contains(out, "local-1"));
    const char *const cli_top[] = {TRNSCI_CLI_PATH, "--addr",     tcp,   "top",
                                   "--once",        "--interval", "0.1", NULL};
    assert_int_equal(th_run(cli_top, out), 0);
    assert_true(th_file_contains(out, "4 sessions (1 shown)"));
    assert_true(th_file_contains(out, "alice-1"));
    assert_false(th_file_contains(out, "bob-2"));
    client_env(NULL, NULL, NULL, NULL);

    /* A local caller that is not root sees its own uid's sessions only. The
     * daemon's directory must let group 0 through to the socket. */
    assert_int_equal(chmod(dmn.dir, 0750), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t child = th_spawn_role("nobody", dmn.unix_addr, fds[1]);
    close(fds[1]);
    char got[256] = "";
    size_t used = 0;
    ssize_t r;
    while (used + 1 < sizeof(got) && (r = read(fds[0], got + used, sizeof(got) - 1 - used)) > 0)
        used += (size_t)r;
    got[used] = '\0';
    close(fds[0]);
    assert_int_equal(th_wait_child(child), 0);
    assert_string_equal(got, "1 65534");
    assert_int_equal(chmod(dmn.dir, 0700), 0);

    close_conn(&a);
    close_conn(&b1);
    close_conn(&b2);
    close_conn(&l);
}

/* ---- the tokens file on SIGHUP --------------------------------------------------- */

#define ANN "ann-0123456789abcdefghij"
#define ANN2 "ann-new-0123456789abcdefgh"
#define BEN "ben-0123456789abcdefghij"

static void write_tokens(const char *path, const char *text, mode_t mode) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, mode), 0);
}

/* Waits up to timeout_ms for `needle` in the file at path. */
static int wait_for_text(const char *path, const char *needle, int timeout_ms) {
    for (int waited = 0; waited <= timeout_ms; waited += 20) {
        if (th_file_contains(path, needle))
            return 1;
        th_sleep_ms(20);
    }
    fprintf(stderr, "waited %d ms for \"%s\" in %s\n", timeout_ms, needle, path);
    return 0;
}

/* Sends SIGHUP and waits for the log line that ends the reload of the
 * tokens file (`done`, e.g. its summary or its error). */
static void sighup(th_daemon *d, const char *done) {
    assert_int_equal(kill(d->pid, SIGHUP), 0);
    assert_true(wait_for_text(d->log_path, done, 10000));
}

static void expect(trn_wire_code got, const char *msg, trn_wire_code want, const char *want_msg) {
    if (got != want || strcmp(msg, want_msg) != 0)
        fail_msg("got %d '%s', expected %d '%s'", (int)got, msg, (int)want, want_msg);
}

static void test_tokens_reload(void **state) {
    (void)state;
    char tokens[320], cert[320], key[320], msg[256], want[512];
    pki_path(tokens, sizeof(tokens), "reload-tokens");
    pki_path(cert, sizeof(cert), "server.pem");
    pki_path(key, sizeof(key), "server.key");
    write_tokens(tokens, "ann " ANN " sessions=4 bytes=1M\nben " BEN "\n", 0600);
    th_daemon m;
    const char *args[] = {"--cores",       "1",    "--tls-cert", cert, "--tls-key", key,
                          "--tokens-file", tokens, NULL};
    assert_int_equal(th_daemon_start(&m, args), 0);
    const char *tcp = m.tcp_addr;
    /* The harness waits for the local socket, which answers before the gRPC
     * port is bound: wait for that too. */
    listing up = status_as(tcp, ANN);
    for (int waited = 0; waited < 10000 && up.code == TRN_WIRE_UNAVAILABLE; waited += 50) {
        th_sleep_ms(50);
        up = status_as(tcp, ANN);
    }
    assert_int_equal(up.code, TRN_WIRE_OK);

    /* ann: two sessions, 512 KiB held by the first; ben: two sessions with
     * buffers and a queued memset. */
    conn a1, a2, b1, b2;
    assert_int_equal(open_named(&a1, tcp, ANN, "ann-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&a2, tcp, ANN, "ann-2", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&b1, tcp, BEN, "ben-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&b2, tcp, BEN, "ben-2", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    uint64_t abuf = 0, bbuf = 0;
    uint8_t pattern[64];
    for (size_t i = 0; i < sizeof(pattern); i++)
        pattern[i] = (uint8_t)(i * 5 + 1);
    assert_int_equal(alloc(&a1, 512 << 10, &abuf, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(write_buf(&a1, abuf, pattern, sizeof(pattern), msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(alloc(&b1, 4 << 20, &bbuf, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(memset_op(&b1, bbuf, 4 << 20, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(alloc(&b2, 8192, &bbuf, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_string_equal(status_as(tcp, BEN).names, "ben-1 ben-2");

    /* ben removed; ann's limits lowered below what she has and holds. */
    write_tokens(tokens, "ann " ANN " sessions=2 bytes=256K\n", 0600);
    snprintf(want, sizeof(want),
             "reload: tokens file %s: 1 token (0 added, 1 removed, 1 changed); 2 sessions of "
             "removed tokens closed",
             tokens);
    sighup(&m, want);
    snprintf(want, sizeof(want),
             "received SIGHUP: reloading the configuration and the tokens file %s", tokens);
    assert_true(th_file_contains(m.log_path, want));
    assert_true(th_file_contains(
        m.log_path, "reload: token ben removed: it authenticates no more calls and its sessions "
                    "are closed"));
    assert_true(th_file_contains(m.log_path, "reload: token ann: sessions 4 -> 2, bytes 1048576 "
                                             "-> 262144 (for new requests; accepted work goes "
                                             "on)"));
    assert_true(th_file_contains(m.log_path, "(ben-1, pid 0, uid ?) closed: its token was "
                                             "removed from the tokens file"));
    assert_false(th_file_contains(m.log_path, BEN)); /* never a secret */
    assert_false(th_file_contains(m.log_path, ANN));

    /* ben's next calls: UNAUTHENTICATED with the fixed message. */
    uint64_t id = 0;
    expect(alloc(&b1, 64, &id, msg, sizeof(msg)), msg, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");
    expect(sync_all(&b2, msg, sizeof(msg)), msg, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");
    const listing gone = status_as(tcp, BEN);
    expect(gone.code, gone.msg, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");
    conn b3;
    expect(open_named(&b3, tcp, BEN, "ben-3", 0, msg, sizeof(msg)), msg, TRN_WIRE_UNAUTHENTICATED,
           "unauthenticated");
    trn_transport_close(b3.t);

    /* ann keeps her sessions and her 512 KiB, but the lowered limits refuse
     * what goes beyond them. */
    uint8_t back[sizeof(pattern)];
    assert_int_equal(read_buf(&a1, abuf, 0, back, sizeof(back), msg, sizeof(msg)), TRN_WIRE_OK);
    assert_memory_equal(back, pattern, sizeof(pattern));
    expect(alloc(&a2, 1, &id, msg, sizeof(msg)), msg, TRN_WIRE_RESOURCE_EXHAUSTED,
           "Alloc of 1 bytes exceeds the token's limit (token ann: bytes=262144, 524288 held)");
    conn a3;
    expect(open_named(&a3, tcp, ANN, "ann-3", 0, msg, sizeof(msg)), msg,
           TRN_WIRE_RESOURCE_EXHAUSTED, "token ann already has 2 sessions (its sessions limit 2)");
    trn_transport_close(a3.t);
    assert_int_equal(memset_op(&a1, abuf, 4096, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(sync_all(&a1, msg, sizeof(msg)), TRN_WIRE_OK);

    /* ben's sessions and buffers are gone: what is left is ann's. */
    listing root = status_as(m.unix_addr, NULL);
    for (int waited = 0; waited < 5000 && root.bytes_held != 512 << 10; waited += 50) {
        th_sleep_ms(50);
        root = status_as(m.unix_addr, NULL);
    }
    assert_int_equal(root.sessions, 2);
    assert_int_equal(root.buffers, 1);
    assert_int_equal(root.bytes_held, 512 << 10);
    assert_string_equal(root.names, "ann-1 ann-2");

    /* Broken files change nothing: a loose mode, then a syntax error (that
     * would have removed ann). The log names the file and the line. */
    write_tokens(tokens, "ben " BEN "\n", 0640);
    snprintf(want, sizeof(want),
             "reload: --tokens-file %s: readable or writable by group or others (mode 640); "
             "chmod 600 it; the running tokens stay",
             tokens);
    sighup(&m, want);
    write_tokens(tokens, "ben " BEN "\nann short\n", 0600);
    snprintf(want, sizeof(want),
             "reload: %s:2: the secret must be 16..128 characters of A-Z a-z 0-9 . _ ~ + / = -; "
             "the running tokens stay",
             tokens);
    sighup(&m, want);
    expect(alloc(&a2, 1, &id, msg, sizeof(msg)), msg, TRN_WIRE_RESOURCE_EXHAUSTED,
           "Alloc of 1 bytes exceeds the token's limit (token ann: bytes=262144, 524288 held)");
    const listing still_gone = status_as(tcp, BEN);
    expect(still_gone.code, still_gone.msg, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");

    /* A changed secret is a removal plus an addition: ann's sessions end
     * with her old secret, and the new one starts afresh with its limits. */
    write_tokens(tokens, "ann " ANN2 " sessions=2\n", 0600);
    snprintf(want, sizeof(want),
             "reload: tokens file %s: 1 token (1 added, 1 removed, 0 changed); 2 sessions of "
             "removed tokens closed",
             tokens);
    sighup(&m, want);
    assert_true(th_file_contains(m.log_path, "reload: token ann: its secret changed: the old one "
                                             "is removed (its sessions are closed) and the new "
                                             "one added"));
    expect(alloc(&a1, 1, &id, msg, sizeof(msg)), msg, TRN_WIRE_UNAUTHENTICATED, "unauthenticated");
    assert_int_equal(open_named(&a3, tcp, ANN2, "ann-3", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(alloc(&a3, 1 << 20, &id, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_string_equal(status_as(tcp, ANN2).names, "ann-3");
    close_conn(&a3);

    /* The dead connections hold nothing: close them without a session. */
    a1.sid = a2.sid = b1.sid = b2.sid = 0;
    close_conn(&a1);
    close_conn(&a2);
    close_conn(&b1);
    close_conn(&b2);
    client_env(NULL, NULL, NULL, NULL);
    assert_int_equal(th_wait_daemon_idle(m.unix_addr, 5000), 0);
    assert_int_equal(th_daemon_stop_checked(&m, "tokens reload daemon"), 0);
}

/* ---- start-up policy -------------------------------------------------------------- */

/* Runs trnscid with args; returns its exit status, output in out_path. */
static int run_daemon(const char *const *args, const char *out_path) {
    const char *argv[24] = {TRNSCID_PATH, "--cores", "1"};
    int n = 3;
    for (int i = 0; args[i] && n < 23; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    return th_run(argv, out_path);
}

static void test_startup_policy(void **state) {
    (void)state;
    char out[320], tokens[320], cert[320], key[320], sock[320];
    pki_path(out, sizeof(out), "policy.out");
    pki_path(tokens, sizeof(tokens), "tokens");
    pki_path(cert, sizeof(cert), "server.pem");
    pki_path(key, sizeof(key), "server.key");
    snprintf(sock, sizeof(sock), "unix:%s/policy.sock", pki);
    char any[64];
    snprintf(any, sizeof(any), "0.0.0.0:%d", th_free_port());

    const char *open_net[] = {"--listen", sock, "--listen", any, NULL};
    assert_int_equal(run_daemon(open_net, out), 1);
    assert_true(th_file_contains(out, "refusing to listen on 0.0.0.0"));
    assert_true(th_file_contains(out, "--insecure-remote"));

    const char *no_key[] = {"--listen", sock, "--tls-cert", cert, NULL};
    assert_int_equal(run_daemon(no_key, out), 2);
    assert_true(th_file_contains(out, "--tls-key"));

    assert_int_equal(chmod(tokens, 0640), 0);
    const char *loose[] = {"--listen", sock, "--tokens-file", tokens, NULL};
    assert_int_equal(run_daemon(loose, out), 1);
    assert_true(th_file_contains(out, "chmod 600"));
    assert_int_equal(chmod(tokens, 0600), 0);

    /* Loopback TCP without tokens: refused, naming the flag that allows it. */
    char loop[64];
    snprintf(loop, sizeof(loop), "127.0.0.1:%d", th_free_port());
    const char *no_tokens[] = {"--listen", sock, "--listen", loop, NULL};
    assert_int_equal(run_daemon(no_tokens, out), 1);
    assert_true(th_file_contains(out, "refusing to listen on 127.0.0.1:"));
    assert_true(th_file_contains(out, "without --tokens-file"));
    assert_true(th_file_contains(out, "--allow-unauthenticated-tcp"));
    /* With the flag it starts, serves the port, and says what it allows. */
    th_daemon open;
    const char *cores[] = {"--cores", "1", NULL};
    assert_int_equal(th_daemon_start(&open, cores), 0);
    trnsciDaemonStatus st;
    client_env(NULL, NULL, NULL, NULL);
    assert_int_equal(trnsciDaemonGetStatus(open.tcp_addr, &st), trnsciSuccess);
    assert_true(th_file_contains(open.log_path, "takes calls WITHOUT tokens "
                                                "(--allow-unauthenticated-tcp)"));
    assert_int_equal(th_daemon_stop_checked(&open, "daemon with --allow-unauthenticated-tcp"), 0);
}

/* ---- per-user limits: grpc+unix uids, tokens --------------------------------------- */

/* Opens a session over addr as the caller is (no token, no TLS). */
static trn_wire_code open_plain(conn *c, const char *addr, const char *name, char *msg,
                                size_t msglen) {
    memset(c, 0, sizeof(*c));
    client_env(NULL, NULL, NULL, NULL);
    c->t = trn_transport_open(addr);
    assert_non_null(c->t);
    Trnsci__V1__OpenSessionRequest req = TRNSCI__V1__OPEN_SESSION_REQUEST__INIT;
    req.protocol_major = TRNSCI_PROTOCOL_MAJOR;
    req.protocol_minor = TRNSCI_PROTOCOL_MINOR;
    req.client_name = (char *)name;
    ProtobufCMessage *r = NULL;
    const trn_wire_code code = call(c, TRN_WIRE_OPEN_SESSION, &req.base,
                                    &trnsci__v1__open_session_reply__descriptor, &r, msg, msglen);
    if (code == TRN_WIRE_OK) {
        c->sid = ((Trnsci__V1__OpenSessionReply *)r)->session_id;
        protobuf_c_message_free_unpacked(r, NULL);
    }
    return code;
}

/* Submits a 64 MiB memset on a (buffer big) and at once a small one on b
 * (buffer small), up to 20 times, until the second is refused while the
 * first is queued or running; returns the refusal's message in msg (empty
 * when never refused). */
static void second_refused(conn *a, uint64_t big, conn *b, uint64_t small, char *msg,
                           size_t msglen) {
    char m[256];
    msg[0] = '\0';
    for (int attempt = 0; attempt < 20 && !msg[0]; attempt++) {
        assert_int_equal(memset_op(a, big, 64 << 20, m, sizeof(m)), TRN_WIRE_OK);
        const trn_wire_code second = memset_op(b, small, 4096, m, sizeof(m));
        if (second == TRN_WIRE_RESOURCE_EXHAUSTED)
            snprintf(msg, msglen, "%s", m);
        else
            assert_int_equal(second, TRN_WIRE_OK);
        assert_int_equal(sync_all(a, m, sizeof(m)), TRN_WIRE_OK);
        assert_int_equal(sync_all(b, m, sizeof(m)), TRN_WIRE_OK);
    }
}

/* Role of a child that switches to uid 65534 (group 0, to reach the
 * daemon's 0660 root:root sockets): on grpc+unix it may open two sessions
 * (max-sessions-per-uid 2), whatever root holds, and the third is refused
 * naming its uid; Status lists it exactly those two, with its uid and pid.
 * Writes "ok" or what went wrong to fd. */
static int role_grpc_unix_user(const char *addr, int fd) {
    char out[512] = "ok", msg[256];
    if (setgroups(0, NULL) != 0 || setgid(0) != 0 || setuid(65534) != 0)
        return 2;
    conn a, b, c;
    if (open_plain(&a, addr, "nobody-1", msg, sizeof(msg)) != TRN_WIRE_OK ||
        open_plain(&b, addr, "nobody-2", msg, sizeof(msg)) != TRN_WIRE_OK) {
        snprintf(out, sizeof(out), "a session was refused: %s", msg);
        goto done;
    }
    const trn_wire_code third = open_plain(&c, addr, "nobody-3", msg, sizeof(msg));
    trn_transport_close(c.t);
    if (third != TRN_WIRE_RESOURCE_EXHAUSTED ||
        strcmp(msg, "uid 65534 already has 2 sessions (max-sessions-per-uid 2)") != 0) {
        snprintf(out, sizeof(out), "third session: %d '%s'", (int)third, msg);
        goto done;
    }
    trnsciSessionInfo list[16];
    int n = 0;
    if (trnsciDaemonGetSessions(addr, list, 16, &n) != trnsciSuccess || n != 2) {
        snprintf(out, sizeof(out), "Status lists %d sessions (%s)", n, trnsciGetLastErrorMessage());
        goto done;
    }
    for (int i = 0; i < n; i++)
        if (list[i].uid != 65534 || list[i].pid != (unsigned)getpid())
            snprintf(out, sizeof(out), "Status lists %s with uid %u, pid %u (mine: 65534, %d)",
                     list[i].clientName, list[i].uid, list[i].pid, (int)getpid());
done:
    close_conn(&a);
    close_conn(&b);
    return write(fd, out, strlen(out)) == (ssize_t)strlen(out) ? 0 : 6;
}

/* Runs a role child on addr and returns what it wrote. */
static void run_role(const char *role, const char *addr, char *got, size_t len) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t child = th_spawn_role(role, addr, fds[1]);
    close(fds[1]);
    size_t used = 0;
    ssize_t r;
    while (used + 1 < len && (r = read(fds[0], got + used, len - 1 - used)) > 0)
        used += (size_t)r;
    got[used] = '\0';
    close(fds[0]);
    assert_int_equal(th_wait_child(child), 0);
}

static void test_grpc_unix_uid_limits(void **state) {
    (void)state;
    char msg[256], gaddr[320], dir[256];
    snprintf(dir, sizeof(dir), "/tmp/trnsci-guid-XXXXXX");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chmod(dir, 0750), 0);
    snprintf(gaddr, sizeof(gaddr), "grpc+unix:%s/g.sock", dir);
    th_daemon m;
    const char *args[] = {"--cores",
                          "1",
                          "--listen",
                          gaddr,
                          "--max-sessions-per-uid",
                          "2",
                          "--max-bytes-per-uid",
                          "128M",
                          "--max-queued-ops-per-uid",
                          "1",
                          NULL};
    assert_int_equal(th_daemon_start(&m, args), 0);

    /* Root's grpc+unix and local sessions count together for uid 0. */
    conn g1, g2, g3, l1;
    assert_int_equal(open_plain(&g1, gaddr, "root-g1", msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_plain(&g2, gaddr, "root-g2", msg, sizeof(msg)), TRN_WIRE_OK);
    expect(open_plain(&g3, gaddr, "root-g3", msg, sizeof(msg)), msg, TRN_WIRE_RESOURCE_EXHAUSTED,
           "uid 0 already has 2 sessions (max-sessions-per-uid 2)");
    trn_transport_close(g3.t);
    expect(open_plain(&l1, m.unix_addr, "root-l1", msg, sizeof(msg)), msg,
           TRN_WIRE_RESOURCE_EXHAUSTED, "uid 0 already has 2 sessions (max-sessions-per-uid 2)");
    trn_transport_close(l1.t);

    /* Their bytes and queued ops count together too. */
    uint64_t big = 0, small = 0, id = 0;
    assert_int_equal(alloc(&g1, 64 << 20, &big, msg, sizeof(msg)), TRN_WIRE_OK);
    expect(alloc(&g2, 65 << 20, &id, msg, sizeof(msg)), msg, TRN_WIRE_RESOURCE_EXHAUSTED,
           "Alloc of 68157440 bytes exceeds the per-user limit (max-bytes-per-uid 134217728; uid "
           "0 holds 67108864)");
    assert_int_equal(alloc(&g2, 4096, &small, msg, sizeof(msg)), TRN_WIRE_OK);
    char refused[256];
    second_refused(&g1, big, &g2, small, refused, sizeof(refused));
    assert_string_equal(refused, "uid 0 already has 1 ops queued or running "
                                 "(max-queued-ops-per-uid 1): synchronize and submit again");
    close_conn(&g2);

    /* Another uid has limits of its own, and sees its own uid in Status. */
    char got[512];
    run_role("grpc-unix-user", gaddr, got, sizeof(got));
    assert_string_equal(got, "ok");
    close_conn(&g1);
    assert_int_equal(th_wait_daemon_idle(m.unix_addr, 5000), 0);
    assert_int_equal(th_daemon_stop_checked(&m, "grpc+unix limits daemon"), 0);
    th_remove_dir(dir);
}

#define DAVE "dave-0123456789abcdefXYZ"
#define ERIN "erin-0123456789abcdefXYZ"

/* Role of a child that switches to uid 65534 (group 0) on the local
 * transport: Plans clear and warm are refused it, and its listing shows no
 * plan (it holds none) while the cache has some. Writes "ok" or what went
 * wrong to fd. */
static int role_plans_user(const char *addr, int fd) {
    char out[512] = "ok";
    if (setgroups(0, NULL) != 0 || setgid(0) != 0 || setuid(65534) != 0)
        return 2;
    unsigned a = 0, b = 0;
    int count = -1;
    trnsciPlanCacheStats st;
    if (trnsciDaemonClearPlans(addr, &a, &b) != trnsciErrorNotPermitted ||
        !strstr(trnsciGetLastErrorMessage(), "scope=admin"))
        snprintf(out, sizeof(out), "clear: %s", trnsciGetLastErrorMessage());
    else if (trnsciDaemonWarmPlans(addr, "fft c2c 16 basic estimate\n", &a, &b) !=
             trnsciErrorNotPermitted)
        snprintf(out, sizeof(out), "warm: %s", trnsciGetLastErrorMessage());
    else if (trnsciDaemonGetPlans(addr, NULL, 0, &count, &st) != trnsciSuccess || count != 0 ||
             st.entries == 0)
        snprintf(out, sizeof(out), "listing: %d plans of %llu", count,
                 (unsigned long long)st.entries);
    return write(fd, out, strlen(out)) == (ssize_t)strlen(out) ? 0 : 6;
}

/* The keys a Plans listing over addr shows, sorted, space-separated. */
static void plan_keys(const char *addr, char *out, size_t len) {
    trnsciPlanInfo info[16];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(addr, info, 16, &count, NULL), trnsciSuccess);
    const char *keys[16];
    for (int i = 0; i < count && i < 16; i++)
        keys[i] = info[i].key;
    qsort(keys, (size_t)(count < 16 ? count : 16), sizeof(keys[0]), cmp_str);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count && i < 16 && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " | " : "", keys[i]);
}

static void test_token_user_limits_and_plans(void **state) {
    (void)state;
    char tokens[320], cert[320], key[320], msg[256];
    pki_path(tokens, sizeof(tokens), "user-tokens");
    pki_path(cert, sizeof(cert), "server.pem");
    pki_path(key, sizeof(key), "server.key");
    write_tokens(tokens, "dave " DAVE "\nerin " ERIN " scope=admin\n", 0600);
    th_daemon m;
    const char *args[] = {"--cores",
                          "1",
                          "--tls-cert",
                          cert,
                          "--tls-key",
                          key,
                          "--tokens-file",
                          tokens,
                          "--plan-effort",
                          "estimate",
                          "--max-sessions-per-uid",
                          "2",
                          "--max-bytes-per-uid",
                          "128M",
                          "--max-queued-ops-per-uid",
                          "1",
                          NULL};
    assert_int_equal(th_daemon_start(&m, args), 0);
    const char *tcp = m.tcp_addr;

    /* A token is a user for the daemon-wide per-user limits: dave has no
     * limits of his own. */
    conn d1, d2, d3;
    assert_int_equal(open_named(&d1, tcp, DAVE, "dave-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    assert_int_equal(open_named(&d2, tcp, DAVE, "dave-2", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    expect(open_named(&d3, tcp, DAVE, "dave-3", 0, msg, sizeof(msg)), msg,
           TRN_WIRE_RESOURCE_EXHAUSTED,
           "token dave already has 2 sessions (max-sessions-per-uid 2)");
    trn_transport_close(d3.t);
    uint64_t big = 0, small = 0, id = 0;
    assert_int_equal(alloc(&d1, 64 << 20, &big, msg, sizeof(msg)), TRN_WIRE_OK);
    expect(alloc(&d2, 65 << 20, &id, msg, sizeof(msg)), msg, TRN_WIRE_RESOURCE_EXHAUSTED,
           "Alloc of 68157440 bytes exceeds the per-user limit (max-bytes-per-uid 134217728; "
           "token dave holds 67108864)");
    assert_int_equal(alloc(&d2, 4096, &small, msg, sizeof(msg)), TRN_WIRE_OK);
    char refused[256];
    second_refused(&d1, big, &d2, small, refused, sizeof(refused));
    assert_string_equal(refused, "token dave already has 1 ops queued or running "
                                 "(max-queued-ops-per-uid 1): synchronize and submit again");
    /* erin's sessions are hers: dave's do not count against her. */
    conn e1;
    assert_int_equal(open_named(&e1, tcp, ERIN, "erin-1", 0, msg, sizeof(msg)), TRN_WIRE_OK);
    close_conn(&d1);
    close_conn(&d2);
    close_conn(&e1);

    /* The plan cache: dave may not clear or warm it, erin (scope=admin)
     * may; local root may; a local user who is not root may not. */
    unsigned queued = 0, rejected = 0, cleared = 0, kept = 0;
    client_env(DAVE, "ca.pem", NULL, NULL);
    assert_int_equal(trnsciDaemonClearPlans(tcp, &cleared, &kept), trnsciErrorNotPermitted);
    assert_string_equal(trnsciGetLastErrorMessage(),
                        "Plans clear changes the plan cache every client shares: it needs root, "
                        "the daemon's own user (uid 0), or a token with scope=admin");
    assert_int_equal(trnsciDaemonWarmPlans(tcp, "fft c2c 64 basic estimate\n", &queued, &rejected),
                     trnsciErrorNotPermitted);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "Plans warm changes the plan cache"));
    client_env(ERIN, "ca.pem", NULL, NULL);
    assert_int_equal(trnsciDaemonWarmPlans(tcp, "fft c2c 64 basic estimate\n", &queued, &rejected),
                     trnsciSuccess);
    assert_int_equal(queued, 1);
    assert_int_equal(trnsciDaemonClearPlans(tcp, &cleared, &kept), trnsciSuccess);
    client_env(NULL, NULL, NULL, NULL);
    assert_int_equal(
        trnsciDaemonWarmPlans(m.unix_addr, "fft c2c 64 basic estimate\n", &queued, &rejected),
        trnsciSuccess);
    assert_true(th_file_contains(m.log_path, "refused Plans clear to uid ?, token dave: not an "
                                             "administrator"));

    /* Listings: dave sees the plan his session holds, not the one erin
     * warmed; erin and root see both. */
    client_env(DAVE, "ca.pem", NULL, NULL);
    assert_int_equal(trnsciInit(tcp), trnsciSuccess);
    trnfftHandle p;
    assert_int_equal(trnfftPlan1d(&p, 32, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    char keys[1024];
    plan_keys(tcp, keys, sizeof(keys));
    assert_string_equal(keys, "fft c2c 32 basic estimate");
    client_env(ERIN, "ca.pem", NULL, NULL);
    plan_keys(tcp, keys, sizeof(keys));
    assert_string_equal(keys, "fft c2c 32 basic estimate | fft c2c 64 basic estimate");
    client_env(NULL, NULL, NULL, NULL);
    plan_keys(m.unix_addr, keys, sizeof(keys));
    assert_string_equal(keys, "fft c2c 32 basic estimate | fft c2c 64 basic estimate");
    /* A local user who is not root: refused, and lists nothing it does not
     * hold. */
    assert_int_equal(chmod(m.dir, 0750), 0);
    char got[512];
    run_role("plans-user", m.unix_addr, got, sizeof(got));
    assert_string_equal(got, "ok");
    client_env(DAVE, "ca.pem", NULL, NULL);
    assert_int_equal(trnfftDestroy(p), TRNFFT_SUCCESS);
    trnsciDeviceReset();
    client_env(NULL, NULL, NULL, NULL);
    assert_int_equal(th_wait_daemon_idle(m.unix_addr, 5000), 0);
    assert_int_equal(th_daemon_stop_checked(&m, "per-token limits daemon"), 0);
}

/* trnsciInit with the environment's credentials; trnsciSuccess or the error,
 * the session closed again either way. msg gets the error's message. */
static trnsciError_t init_with(const char *addr, const char *token, const char *ca, char *msg,
                               size_t msglen) {
    client_env(token, ca, NULL, NULL);
    const trnsciError_t e = trnsciInit(addr);
    snprintf(msg, msglen, "%s", e == trnsciSuccess ? "" : trnsciGetLastErrorMessage());
    trnsciDeviceReset();
    return e;
}

/* A refused connection does not spoil the next one of the same process: a
 * session opened with trnsciInit after a wrong token, or after TLS files that
 * do not fit, uses the credentials the environment names now, both ways. A
 * TCP address goes through the process-wide balancing channel (fleet.h),
 * which once kept the credentials of its first pick and so refused every
 * later token. */
static void test_retry_after_refusal(void **state) {
    (void)state;
    const char *tcp = dmn.tcp_addr;
    char wrong[64], msg[512];
    snprintf(wrong, sizeof(wrong), "%s", ALICE);
    wrong[strlen(wrong) - 1] ^= 1;
    for (int round = 0; round < 2; round++) {
        assert_int_equal(init_with(tcp, wrong, "ca.pem", msg, sizeof(msg)),
                         trnsciErrorUnauthenticated);
        assert_non_null(strstr(msg, "refused the connection: unauthenticated"));
        assert_int_equal(init_with(tcp, ALICE, "ca.pem", msg, sizeof(msg)), trnsciSuccess);
    }
    /* The right token does not let a wrong one in afterwards, nor a missing
     * one. */
    assert_int_equal(init_with(tcp, NULL, "ca.pem", msg, sizeof(msg)), trnsciErrorUnauthenticated);
    /* Another token of the file works after a refusal too. */
    assert_int_equal(init_with(tcp, wrong, "ca.pem", msg, sizeof(msg)), trnsciErrorUnauthenticated);
    assert_int_equal(init_with(tcp, BOB, "ca.pem", msg, sizeof(msg)), trnsciSuccess);
    /* TLS: a CA that did not sign the daemon's certificate, then the right
     * one. */
    assert_int_not_equal(init_with(tcp, ALICE, "other-ca.pem", msg, sizeof(msg)), trnsciSuccess);
    assert_int_equal(init_with(tcp, ALICE, "ca.pem", msg, sizeof(msg)), trnsciSuccess);
    /* The local transport needs no token, whatever a refused one held. */
    assert_int_equal(init_with(dmn.unix_addr, wrong, NULL, msg, sizeof(msg)), trnsciSuccess);
    client_env(NULL, NULL, NULL, NULL);
}

/* ---- set-up ---------------------------------------------------------------------- */

static int setup(void **state) {
    (void)state;
    snprintf(pki, sizeof(pki), "/tmp/trnsci-pki-XXXXXX");
    if (!mkdtemp(pki))
        return -1;
    const char *mk[] = {"/bin/sh", MAKE_CERTS_SH, pki, NULL};
    if (th_run(mk, NULL) != 0) {
        fprintf(stderr, "make_certs.sh failed (is openssl installed?)\n");
        return -1;
    }
    char tokens[320], cert[320], key[320];
    pki_path(tokens, sizeof(tokens), "tokens");
    pki_path(cert, sizeof(cert), "server.pem");
    pki_path(key, sizeof(key), "server.key");
    FILE *f = fopen(tokens, "w");
    if (!f)
        return -1;
    fprintf(f, "# name secret limits\n"
               "alice " ALICE " sessions=2 bytes=1M\n"
               "bob   " BOB "\n"
               "carol " CAROL " queued-ops=1 priority-ceiling=1\n");
    fclose(f);
    chmod(tokens, 0600);
    const char *args[] = {"--cores",       "1",    "--tls-cert", cert, "--tls-key", key,
                          "--tokens-file", tokens, NULL};
    return th_daemon_start(&dmn, args);
}

static int teardown(void **state) {
    (void)state;
    const int rc = th_daemon_stop_checked(&dmn, "TLS+tokens daemon");
    th_remove_dir(pki);
    return rc;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "nobody") == 0)
        return role_nobody(argv[3], atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "grpc-unix-user") == 0)
        return role_grpc_unix_user(argv[3], atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "plans-user") == 0)
        return role_plans_user(argv[3], atoi(argv[4]));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tls_and_tokens),
        cmocka_unit_test(test_client_certificates),
        cmocka_unit_test(test_token_limits),
        cmocka_unit_test(test_session_bound_to_token),
        cmocka_unit_test(test_isolation_grpc),
        cmocka_unit_test(test_isolation_local),
        cmocka_unit_test(test_status_scope),
        cmocka_unit_test(test_tokens_reload),
        cmocka_unit_test(test_startup_policy),
        cmocka_unit_test(test_grpc_unix_uid_limits),
        cmocka_unit_test(test_token_user_limits_and_plans),
        cmocka_unit_test(test_retry_after_refusal),
    };
    return cmocka_run_group_tests_name("security", tests, setup, teardown);
}
