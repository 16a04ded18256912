/*
 * test_auth.c — daemon/token.h (tokens file, bearer check), daemon/status_scope.h and the listen
 * policy of daemon/tls.h, without a daemon.
 *
 * Rules checked:
 *  - a tokens line is NAME SECRET [limits]; names 1..63 of [A-Za-z0-9._-],
 *    secrets 16..128 token68 characters; limits sessions=, bytes= (with the
 *    config's size suffixes), queued-ops=, priority-ceiling= (-3..3),
 *    scope=admin|user (user when left out);
 *    comments and blank lines are skipped; a duplicate name or secret, an
 *    unknown key, a bad value, a NUL byte or an empty list is refused with
 *    the line number, and the table is left empty;
 *  - authenticate: "Bearer SECRET" with the scheme in any case and exactly
 *    one space; a prefix of a secret, a secret with a character added or
 *    changed, another scheme, an over-long value: no token;
 *  - the tokens file must be a regular file without group/other bits, and
 *    not a symlink; parse errors name the file and line (PATH:LINE:);
 *  - the Status scope: a gRPC caller with a token sees that token's
 *    sessions; a local caller all sessions as root or the daemon's uid, else
 *    its own uid's (never gRPC sessions, whose uid is unknown); gRPC without
 *    tokens sees all; gRPC without a token on a daemon with tokens, none.
 *  - loopback: localhost, 127.0.0.0/8, [::1] and an empty host are loopback;
 *    0.0.0.0, [::], other addresses and names (127.example.com) are not; a
 *    non-loopback address without TLS is refused unless --insecure-remote.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "daemon/status_scope.h"
#include "daemon/tls.h"
#include "daemon/token.h"

#define S1 "0123456789abcdef"
#define S2 "ZYXWVUTSRQPONMLK~+/=-._"

static int parse(trn_tokens *t, const char *text, char *err, size_t errlen) {
    memset(t, 0, sizeof(*t));
    return trn_tokens_parse(t, text, strlen(text), "tokens", err, errlen);
}

static void test_parse_good(void **state) {
    (void)state;
    trn_tokens t;
    char err[256];
    assert_int_equal(parse(&t,
                           "# comment\n\n  alice " S1 " sessions=3 bytes=2M  # trailing\r\n"
                           "bob\t" S2 " queued-ops=7 priority-ceiling=-2\n"
                           "carol " S1 "x priority-ceiling=3 scope=admin",
                           err, sizeof(err)),
                     0);
    assert_int_equal(t.n, 3);
    assert_int_equal(t.v[0]->admin, 0); /* scope=user unless the line says admin */
    assert_int_equal(t.v[2]->admin, 1);
    assert_string_equal(t.v[0]->name, "alice");
    assert_int_equal(t.v[0]->max_sessions, 3);
    assert_int_equal(t.v[0]->max_bytes, 2u << 20);
    assert_int_equal(t.v[0]->max_queued_ops, 0);
    assert_int_equal(t.v[0]->priority_ceiling, -3); /* no limit of its own */
    assert_int_equal(t.v[1]->max_queued_ops, 7);
    assert_int_equal(t.v[1]->priority_ceiling, -2);
    assert_int_equal(t.v[2]->priority_ceiling, 3);
    trn_tokens_free(&t);
}

static void test_parse_bad(void **state) {
    (void)state;
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "lists no token"},
        {"# only a comment\n", "lists no token"},
        {"alice\n", "tokens:1: expected NAME SECRET"},
        {"alice 0123456789abcde\n", "secret"},                         /* 15 characters */
        {"alice 0123456789abcdef!\n", "secret"},                       /* bad character */
        {"al:ice " S1 "\n", "name"},                                   /* bad character */
        {"a " S1 "\nb " S1 "\n", "tokens:2: "},                        /* secret twice */
        {"a " S1 "\na " S2 "\n", "tokens:2: "},                        /* name twice */
        {"a " S1 " sessions=-1\n", "sessions=N"},                      /* sign */
        {"a " S1 " sessions=99999999999\n", "sessions=N"},             /* too large */
        {"a " S1 " bytes=12Q\n", "sessions=N"},                        /* bad suffix */
        {"a " S1 " priority-ceiling=-4\n", "priority-ceiling"},        /* out of range */
        {"a " S1 " priority-ceiling=4\n", "priority-ceiling"},         /* out of range */
        {"a " S1 " scope=root\n", "scope=admin|user"},                 /* no such scope */
        {"a " S1 " colour=blue\n", "tokens:1: "},                      /* unknown key */
        {"a " S1 " sessions\n", "tokens:1: "},                         /* no value */
        {"a " S1 " a=1 b=2 c=3 d=4 e=5 f=6 g=7\n", "too many fields"}, /* 9 fields */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        trn_tokens t;
        char err[256] = "";
        if (parse(&t, bad[i].text, err, sizeof(err)) == 0)
            fail_msg("accepted: '%s'", bad[i].text);
        assert_int_equal(t.n, 0);
        assert_null(t.v);
        if (!strstr(err, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, err, bad[i].why);
    }
    /* A NUL byte inside the text. */
    trn_tokens t;
    memset(&t, 0, sizeof(t));
    char err[256];
    const char nul[] = "a " S1 "\0 x\n";
    assert_int_equal(trn_tokens_parse(&t, nul, sizeof(nul) - 1, "tokens", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "NUL"));
}

static void test_authenticate(void **state) {
    (void)state;
    trn_tokens t;
    char err[256];
    assert_int_equal(parse(&t, "alice " S1 "\nbob " S2 "\n", err, sizeof(err)), 0);
    const struct {
        const char *value;
        int who; /* -1 none, else index */
    } cases[] = {
        {"Bearer " S1, 0},
        {"bearer " S2, 1},
        {"BEARER " S1, 0},
        {"Bearer " S1 "0", -1},          /* one character more */
        {"Bearer 0123456789abcde", -1},  /* a prefix */
        {"Bearer 0123456789abcdeF", -1}, /* last character changed */
        {"Bearer  " S1, -1},             /* two spaces */
        {"Basic " S1, -1},               /* another scheme */
        {S1, -1},                        /* no scheme */
        {"Bearer ", -1},                 /* empty */
        {"", -1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const trn_token *tk = trn_tokens_authenticate(&t, cases[i].value, strlen(cases[i].value));
        const trn_token *want = cases[i].who < 0 ? NULL : t.v[cases[i].who];
        if (tk != want)
            fail_msg("'%s': expected token %d", cases[i].value, cases[i].who);
    }
    /* Longer than any secret may be. */
    char longv[512];
    memset(longv, 'a', sizeof(longv));
    memcpy(longv, "Bearer ", 7);
    assert_null(trn_tokens_authenticate(&t, longv, sizeof(longv)));
    assert_null(trn_tokens_authenticate(&t, NULL, 0));
    trn_tokens_free(&t);
}

static void test_load_permissions(void **state) {
    (void)state;
    char path[] = "/tmp/trnsci-tokens-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "alice " S1 "\n";
    assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
    close(fd);
    trn_tokens t;
    memset(&t, 0, sizeof(t));
    char err[256];
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(trn_tokens_load(&t, path, err, sizeof(err)), 0);
    assert_int_equal(t.n, 1);
    trn_tokens_free(&t);
    const mode_t loose[] = {0640, 0604, 0620, 0602};
    for (size_t i = 0; i < sizeof(loose) / sizeof(loose[0]); i++) {
        assert_int_equal(chmod(path, loose[i]), 0);
        assert_int_equal(trn_tokens_load(&t, path, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "chmod 600"));
    }
    /* A symlink to a good file is refused: whoever may change the link
     * could swap the file. */
    assert_int_equal(chmod(path, 0600), 0);
    char link[64];
    snprintf(link, sizeof(link), "%s.link", path);
    assert_int_equal(symlink(path, link), 0);
    assert_int_equal(trn_tokens_load(&t, link, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a symbolic link"));
    unlink(link);
    unlink(path);
    assert_int_equal(trn_tokens_load(&t, path, err, sizeof(err)), -1);
    assert_int_equal(trn_tokens_load(&t, "/tmp", err, sizeof(err)), -1);
    assert_null(t.v);
}

/* ---- Status scope --------------------------------------------------------------- */

static void test_status_scope(void **state) {
    (void)state;
    trn_token ta, tb, tadmin;
    memset(&ta, 0, sizeof(ta));
    memset(&tb, 0, sizeof(tb));
    memset(&tadmin, 0, sizeof(tadmin));
    atomic_init(&tadmin.admin, 1);
    const uint32_t daemon_uid = 990;
    const trn_peer root = {1, 0, 0, 10, NULL}, daemon_user = {1, daemon_uid, 0, 11, NULL},
                   user = {1, 1000, 1000, 12, NULL}, other = {1, 1001, 1001, 13, NULL},
                   grpc_a = {0, 0, 0, 0, &ta}, grpc_b = {0, 0, 0, 0, &tb},
                   grpc_none = {0, 0, 0, 0, NULL}, local_unknown = {0, 0, 0, 0, NULL},
                   grpc_admin = {0, 0, 0, 0, &tadmin};
    /* The owners of six sessions: local uid 1000, local uid 1001, local
     * root, gRPC with token a, gRPC with token b, gRPC without a token. */
    const trn_peer *owners[] = {&user, &other, &root, &grpc_a, &grpc_b, &grpc_none};
    const struct {
        const trn_peer *caller;
        trn_transport_kind transport;
        int tokens;
        const char *sees; /* one character per owner */
    } cases[] = {
        {&root, TRN_TRANSPORT_LOCAL, 1, "111111"},
        {&daemon_user, TRN_TRANSPORT_LOCAL, 1, "111111"},
        {&user, TRN_TRANSPORT_LOCAL, 1, "100000"},
        {&other, TRN_TRANSPORT_LOCAL, 0, "010000"},
        {&local_unknown, TRN_TRANSPORT_LOCAL, 0, "000000"},
        {&grpc_a, TRN_TRANSPORT_GRPC, 1, "000100"},
        {&grpc_b, TRN_TRANSPORT_GRPC, 1, "000010"},
        {&grpc_none, TRN_TRANSPORT_GRPC, 1, "000000"},
        {&grpc_none, TRN_TRANSPORT_GRPC, 0, "111111"},
        /* grpc+unix callers carry their kernel-checked uid. */
        {&user, TRN_TRANSPORT_GRPC, 0, "100000"},
        {&root, TRN_TRANSPORT_GRPC, 1, "111111"},
        /* A token with scope=admin is an administrator. */
        {&grpc_admin, TRN_TRANSPORT_GRPC, 1, "111111"},
    };
    assert_true(trn_caller_is_admin(&root, daemon_uid));
    assert_true(trn_caller_is_admin(&daemon_user, daemon_uid));
    assert_true(trn_caller_is_admin(&grpc_admin, daemon_uid));
    assert_false(trn_caller_is_admin(&user, daemon_uid));
    assert_false(trn_caller_is_admin(&grpc_a, daemon_uid));
    assert_false(trn_caller_is_admin(&grpc_none, daemon_uid));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const trn_scope sc =
            trn_status_scope(cases[i].caller, cases[i].transport, cases[i].tokens, daemon_uid);
        char got[8] = "";
        for (size_t k = 0; k < 6; k++)
            got[k] = trn_scope_includes(&sc, owners[k]) ? '1' : '0';
        if (strcmp(got, cases[i].sees) != 0)
            fail_msg("case %zu: sees %s, expected %s", i, got, cases[i].sees);
    }
}

static void test_loopback_policy(void **state) {
    (void)state;
    static const char *const yes[] = {"127.0.0.1:1", "127.1.2.3:80", "localhost:7450", "[::1]:7450",
                                      ":7450"};
    static const char *const no[] = {
        "0.0.0.0:7450",      "[::]:7450", "10.0.0.1:7450", "128.0.0.1:1",
        "127.example.com:1", "127.0.0:1", "example.com:1", "7450"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (!trn_listen_is_loopback(yes[i]))
            fail_msg("%s should be loopback", yes[i]);
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (trn_listen_is_loopback(no[i]))
            fail_msg("%s should not be loopback", no[i]);
    char buf[64];
    assert_int_equal(trn_listen_target(":7450", buf, sizeof(buf)), 0);
    assert_string_equal(buf, "127.0.0.1:7450");
    trn_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    char err[512];
    /* Without tokens, even loopback needs the operator's word. */
    assert_int_equal(trn_listen_check(&cfg, "127.0.0.1:1", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--allow-unauthenticated-tcp"));
    cfg.tokens_file = "tokens";
    assert_int_equal(trn_listen_check(&cfg, "127.0.0.1:1", err, sizeof(err)), 0);
    cfg.tokens_file = NULL;
    cfg.allow_unauthenticated_tcp = 1;
    assert_int_equal(trn_listen_check(&cfg, "127.0.0.1:1", err, sizeof(err)), 0);
    assert_int_equal(trn_listen_check(&cfg, "0.0.0.0:1", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--insecure-remote"));
    cfg.insecure_remote = 1;
    assert_int_equal(trn_listen_check(&cfg, "0.0.0.0:1", err, sizeof(err)), 0);
    cfg.insecure_remote = 0;
    cfg.tls_cert = "cert.pem";
    assert_int_equal(trn_listen_check(&cfg, "0.0.0.0:1", err, sizeof(err)), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),      cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_authenticate),    cmocka_unit_test(test_load_permissions),
        cmocka_unit_test(test_loopback_policy), cmocka_unit_test(test_status_scope),
    };
    return cmocka_run_group_tests_name("auth", tests, NULL, NULL);
}
